/* Adaptive slip controller: evaluate and clock steps (see asc.h,
 * docs/blocks/asc.md), and the block interface around them (block.h), from
 * the port table asc.def. */
#include "asc.h"

#include <stdlib.h>

/* ---- the port table ---- */

int asc_port_width(const asc_config_t *c, int port)
{
#define CLOG2(x) block_clog2(x)
#define MAX(a, b) block_max(a, b)
#define BLOCK_PARAM(NAME, member, doc) const int NAME = c->member; (void)NAME;
#define BLOCK_DERIVED(NAME, expr) const int NAME = (expr); (void)NAME;
#include "asc.def"
    switch (port) {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) case ASC_P_##name: return (width);
#define BLOCK_FIELD(field, ctype, width, doc) case ASC_P_ent_##field: return (width);
#include "asc.def"
    default: return 0;
    }
}

static int entries_of(const asc_config_t *c)
{
#define BLOCK_PARAM(NAME, member, doc) const int NAME = c->member; (void)NAME;
#define BLOCK_DERIVED(NAME, expr) const int NAME = (expr); (void)NAME;
#define BLOCK_ENTRIES(expr) return (expr);
#include "asc.def"
#undef CLOG2
#undef MAX
}

/* Where each port's C member is. */
#define ASC_OFFSET_CLOCK(name) 0
#define ASC_OFFSET_RESET(name) 0
#define ASC_OFFSET_EARLY(name) offsetof(asc_in_t, name)
#define ASC_OFFSET_LATE(name) offsetof(asc_in_t, name)
#define ASC_OFFSET_COMB(name) offsetof(asc_out_t, name)
#define ASC_OFFSET_REG(name) offsetof(asc_state_t, name)

static const block_port_t asc_ports[ASC_NPORTS] = {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) \
    {#name, BLOCK_##dir, BLOCK_##timing, BLOCK_CTYPE(ctype), ASC_OFFSET_##timing(name), digits, doc},
#define BLOCK_FIELD(field, ctype, width, doc) \
    {"ent_" #field, BLOCK_OUT, BLOCK_ENTRY, BLOCK_CTYPE(ctype), offsetof(asc_entry_t, field), 0, doc},
#include "asc.def"
};

static const block_param_t asc_params[] = {
#define BLOCK_PARAM(NAME, member, doc) {#NAME, #member, offsetof(asc_config_t, member), doc},
#include "asc.def"
};

/* ---- the block ---- */

int asc_init(asc_t *a, const asc_config_t *c, char *err, size_t errlen)
{
    const char *bad = NULL;
    if (c->width < 1 || c->width > WSIM_MAX_LANES) bad = "width must be 1..256";
    else if (c->warps < 1 || c->warps > ASC_MAX_WARPS) bad = "warps must be 1..64";
    else if (c->cnt_bits < 1 || c->cnt_bits > ASC_MAX_CNT_BITS) bad = "cnt_bits must be 1..8";
    else if (c->width * c->cnt_bits > WSIM_MAX_LANES) bad = "width * cnt_bits must be at most 256 (a warp's counters)";
    else if (c->max0 < 1 || c->max0 > (1 << c->cnt_bits) - 1) bad = "max0 must be 1..2^cnt_bits-1";
    if (bad) {
        snprintf(err, errlen, "adaptive slip controller: %s (width=%d warps=%d cnt_bits=%d max0=%d)", bad, c->width,
                 c->warps, c->cnt_bits, c->max0);
        return -1;
    }
    a->cfg = *c;
    a->cnt_max = (1u << c->cnt_bits) - 1;
    a->lanes = wmask_first(c->width);
    a->warp_bits = asc_port_width(c, ASC_P_warp);
    asc_reset(a);
    return 0;
}

void asc_reset(asc_t *a)
{
    for (int w = 0; w < ASC_MAX_WARPS; w++) a->q.e[w] = (asc_entry_t){0};
    a->q.max_slip = (uint8_t)a->cfg.max0;
}

/* The warp operated on, or NULL past the table (reads as all zero, writes
 * are dropped; the pipeline never drives it). */
static const asc_entry_t *entry_of(const asc_t *a, const asc_in_t *in)
{
    return in->warp < a->cfg.warps ? &a->q.e[in->warp] : NULL;
}

void asc_eval(const asc_t *a, const asc_in_t *in, asc_out_t *out)
{
    const asc_entry_t *e = entry_of(a, in);
    const wmask_t act = wmask_and(in->act, a->lanes);
    const wmask_t lim = e ? wmask_and(e->lim, act) : wmask_none();
    out->block = wmask_any(&lim);
    /* every considered thread at the limit: none is ahead of another, there
     * is nobody to wait for; disabling them all would stop the warp */
    out->limit = wmask_eq(&lim, &act) ? wmask_none() : lim;
    /* adaptive diff (docs/blocks/asc.md, "Adaptive diff"): compared at 35
     * bits in the RTL, 64 here */
    const uint64_t cyc = in->cycles, busy = in->busy, mw = in->memwait, by = in->bytes, sh = in->share;
    out->alu = 4 * busy >= 3 * cyc;
    out->bw = by > sh;
    out->lat = 8 * mw >= cyc;
    const int over = 8 * by > 9 * sh; /* more than 1/8 above the fair share */
    out->dir = !out->alu && !out->bw ? ASC_RAISE : out->lat && !over ? ASC_KEEP : ASC_LOWER;
    out->q = &a->q;
}

/* A warp's counters unpacked (c[t], t < width) and packed: thread t at
 * bits [t*b +: b] of the 256-bit field, a word at a time. */
static void unpack(const asc_t *a, const wmask_t *cnt, uint8_t *c)
{
    for (int t = 0; t < a->cfg.width; t++) c[t] = (uint8_t)asc_counter(cnt, a->cfg.cnt_bits, t);
}

static wmask_t pack(const asc_t *a, const uint8_t *c)
{
    const int b = a->cfg.cnt_bits;
    wmask_t m = wmask_none();
    for (int t = 0; t < a->cfg.width; t++) {
        const int p = t * b, w = p >> 6, s = p & 63;
        m.w[w] |= (uint64_t)c[t] << s;
        if (s + b > 64) m.w[w + 1] |= (uint64_t)c[t] >> (64 - s);
    }
    return m;
}

void asc_clock(asc_t *a, const asc_in_t *in, const asc_out_t *out)
{
    if (!in->clr && !in->mem && !in->sample) return;
    asc_state_t *q = &a->q;
    const int w = in->warp;
    const int in_table = w < a->cfg.warps;
    /* next state: the max-slip counter, saturating at 1 and 2^CNT_W-1 */
    uint32_t max_d = q->max_slip;
    if (in->sample) {
        if (out->dir == ASC_RAISE && max_d < a->cnt_max) max_d++;
        else if (out->dir == ASC_LOWER && max_d > 1) max_d--;
    }
    /* next state of warp w */
    asc_entry_t e_d = in_table ? q->e[w] : (asc_entry_t){0};
    if (in->clr) {
        e_d = (asc_entry_t){0};
    } else if (in->mem) {
        uint8_t c[WSIM_MAX_LANES];
        unpack(a, &e_d.cnt, c);
        const wmask_t act = wmask_and(in->act, a->lanes);
        const wmask_t hit = wmask_and(in->hit, act);
        const wmask_t miss = wmask_andnot(wmask_and(in->miss, act), hit);
        const wmask_t lim = wmask_and(e_d.lim, act);
        wmask_t up = wmask_none(), down = wmask_none();
        if (in->div && wmask_any(&hit) && wmask_any(&miss)) {
            /* 002 §5.1: a diverge-on-miss event. An undiverged warp: the
             * hits slip ahead. A diverged one: if every tail-end thread (a
             * considered one with counter 0) hit, the threads that missed
             * fall back; otherwise nothing (002 states no other case). */
            wmask_t tail = wmask_none();
            for (int t = 0; t < a->cfg.width; t++)
                if (wmask_test(&act, t) && c[t] == 0) wmask_set(&tail, t);
            wmask_t tail_missed = wmask_andnot(tail, hit);
            if (!in->dvg) up = hit;
            else if (!wmask_any(&tail_missed)) down = miss;
        } else if (wmask_any(&hit) && !wmask_any(&miss) && wmask_any(&lim)) {
            /* the threads at the limit wait; the rest hit: one step closer */
            down = lim;
        }
        for (int t = 0; t < a->cfg.width; t++) {
            if (wmask_test(&up, t) && c[t] < a->cnt_max) c[t]++;
            if (wmask_test(&down, t) && c[t] > 0) c[t]--;
        }
        /* the slip-limit bits against the max slip before this edge */
        wmask_t lim_d = wmask_none();
        for (int t = 0; t < a->cfg.width; t++)
            if (c[t] >= q->max_slip) wmask_set(&lim_d, t);
        e_d.cnt = pack(a, c);
        e_d.lim = lim_d;
    }
    /* commit */
    if (in_table) q->e[w] = e_d;
    q->max_slip = (uint8_t)max_d;
}

/* ---- the port trace and the generic interface ---- */

void asc_trace_header(const asc_config_t *c, FILE *out) { block_trace_header(&asc_block_ops, c, out); }

void asc_trace_line(const asc_t *a, uint64_t cycle, int wpu, const asc_in_t *in, const asc_out_t *o, FILE *f)
{
    block_trace_line(&asc_block_ops, &a->cfg, cycle, wpu, in, o, NULL, f);
}

BLOCK_DEFINE_OPS(asc, "adaptive slip controller", "a DoM slip limit",
                 "without dom = on, dom_slip = fixed|adaptive and dom_max_slip >= 1; "
                 "choose a policy, e.g. --policy DoM.Adaptive",
                 ASC_NPORTS, entries_of, offsetof(asc_state_t, e), sizeof(asc_entry_t));
