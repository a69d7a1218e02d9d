/* The region of interest (docs/abi.md): the phase a paper measures, marked
 * by the kernel with two barriers, wsim.roi.begin and wsim.roi.end. The
 * statistics report the whole run and, apart, the region: the sum of every
 * counter's growth between each begin barrier's release and the following
 * end barrier's release (a kernel may mark several intervals; they add up).
 *
 * Every counter of the machine is a uint64_t in one of a few arrays — the
 * WPUs' statistics, the caches' and DRAM's, a mechanism's own — that
 * roi_counters visits in a fixed order. A mark copies them all; the report
 * swaps the region's values in, prints with the same printers as the whole
 * run, and swaps the live values back. Maxima (max_stack, groups_max) are
 * not sums: in the region they read as the run's maxima up to its end.
 *
 * A mark is taken at the end of the cycle in which the barrier released, so
 * that every WPU has accounted that cycle (the release happens inside one
 * WPU's clock): the region runs from the cycle after the begin barrier's
 * release to the cycle of the end barrier's release, both included. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "mech/mech.h"

struct roi {
    size_t n;       /* counters */
    uint64_t *open; /* their values at the open interval's begin */
    uint64_t *acc;  /* the closed intervals' growth, summed */
    uint64_t *tmp;  /* a mark's copy; the live values while the region is swapped in */
    int is_open, intervals, swapped;
    uint64_t open_cycle, cycles, first, last;
};

typedef struct walk {
    uint64_t *buf; /* NULL: count only */
    size_t at;
    int op; /* WALK_* */
} walk_t;
enum { WALK_COUNT, WALK_COPY, WALK_SWAP };

static void visit(void *ctx, uint64_t *p, size_t n)
{
    walk_t *k = ctx;
    if (k->op == WALK_COPY) memcpy(k->buf + k->at, p, n * sizeof *p);
    else if (k->op == WALK_SWAP)
        for (size_t i = 0; i < n; i++) {
            uint64_t v = p[i];
            p[i] = k->buf[k->at + i];
            k->buf[k->at + i] = v;
        }
    k->at += n;
}

/* Every counter of the machine, in a fixed order. */
static void roi_counters(struct wsim *s, counter_visit_fn *f, void *ctx)
{
    for (int i = 0; i < s->nwpus; i++) {
        wpu_t *u = &s->wpu[i];
        f(ctx, (uint64_t *)&u->st, sizeof u->st / sizeof(uint64_t));
        f(ctx, u->div_degree, (size_t)s->warp_size + 1);
        MECH_CALL(s, counters, s, u, f, ctx);
    }
    memsys_counters(&s->ms, f, ctx);
}

static void walk(struct wsim *s, int op, uint64_t *buf)
{
    walk_t k = {buf, 0, op};
    roi_counters(s, visit, &k);
}

int roi_init(struct wsim *s)
{
    struct roi *r = calloc(1, sizeof *r);
    if (!r) return -1;
    s->roi = r;
    walk_t k = {NULL, 0, WALK_COUNT};
    roi_counters(s, visit, &k);
    r->n = k.at;
    r->open = calloc(r->n, sizeof *r->open);
    r->acc = calloc(r->n, sizeof *r->acc);
    r->tmp = calloc(r->n, sizeof *r->tmp);
    return r->open && r->acc && r->tmp ? 0 : -1;
}

void roi_free(struct wsim *s)
{
    if (!s->roi) return;
    free(s->roi->open);
    free(s->roi->acc);
    free(s->roi->tmp);
    free(s->roi);
    s->roi = NULL;
}

/* The end of an interval at the end of the current cycle: its growth joins the region. */
static void roi_close(struct wsim *s)
{
    struct roi *r = s->roi;
    walk(s, WALK_COPY, r->tmp);
    for (size_t i = 0; i < r->n; i++) r->acc[i] += r->tmp[i] - r->open[i];
    r->cycles += s->cycle - r->open_cycle;
    r->last = s->cycle;
    r->is_open = 0;
    r->intervals++;
}

void roi_mark(struct wsim *s, int marks)
{
    struct roi *r = s->roi;
    if ((marks & ROI_END) && r->is_open) roi_close(s);
    if ((marks & ROI_BEGIN) && !r->is_open) {
        walk(s, WALK_COPY, r->open);
        r->open_cycle = s->cycle;
        if (!r->intervals) r->first = s->cycle + 1;
        r->is_open = 1;
    }
}

int roi_marked(const struct wsim *s) { return s->roi && (s->roi->intervals || s->roi->is_open); }

void roi_swap(struct wsim *s, int in)
{
    struct roi *r = s->roi;
    if (in == r->swapped) return;
    if (in) {
        /* an interval still open (the run stopped inside it) counts up to now */
        walk(s, WALK_COPY, r->tmp);
        for (size_t i = 0; i < r->n; i++)
            r->tmp[i] = r->acc[i] + (r->is_open ? r->tmp[i] - r->open[i] : 0);
    }
    walk(s, WALK_SWAP, r->tmp); /* in: live -> tmp, region -> live; out: back */
    r->swapped = in;
}

roi_span_t roi_span(const struct wsim *s)
{
    const struct roi *r = s->roi;
    /* (after a run, s->cycle is the number of cycles run: the last is s->cycle - 1) */
    roi_span_t sp = {r->first, r->is_open ? s->cycle - 1 : r->last, r->cycles, r->intervals, !r->is_open};
    if (r->is_open) sp.cycles += s->cycle - 1 - r->open_cycle;
    return sp;
}
