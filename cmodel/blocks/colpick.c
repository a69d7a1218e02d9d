/* Sub-warp column picker: evaluate and clock steps (see colpick.h,
 * docs/blocks/colpick.md), and the block interface around them (block.h),
 * from the port table colpick.def. */
#include "colpick.h"

#include <stdlib.h>

/* ---- the port table ---- */

int colpick_port_width(const colpick_config_t *c, int port)
{
#define CLOG2(x) block_clog2(x)
#define MAX(a, b) block_max(a, b)
#define BLOCK_PARAM(NAME, member, doc) const int NAME = c->member; (void)NAME;
#define BLOCK_DERIVED(NAME, expr) const int NAME = (expr); (void)NAME;
#include "colpick.def"
#undef CLOG2
#undef MAX
    switch (port) {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) case COLPICK_P_##name: return (width);
#include "colpick.def"
    default: return 0;
    }
}

#define COLPICK_OFFSET_CLOCK(name) 0
#define COLPICK_OFFSET_RESET(name) 0
#define COLPICK_OFFSET_EARLY(name) offsetof(colpick_in_t, name)
#define COLPICK_OFFSET_LATE(name) offsetof(colpick_in_t, name)
#define COLPICK_OFFSET_COMB(name) offsetof(colpick_out_t, name)
#define COLPICK_OFFSET_REG(name) offsetof(colpick_state_t, name)

static const block_port_t colpick_ports[COLPICK_NPORTS] = {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) \
    {#name, BLOCK_##dir, BLOCK_##timing, BLOCK_CTYPE(ctype), COLPICK_OFFSET_##timing(name), digits, doc},
#include "colpick.def"
};

static const block_param_t colpick_params[] = {
#define BLOCK_PARAM(NAME, member, doc) {#NAME, #member, offsetof(colpick_config_t, member), doc},
#include "colpick.def"
};

/* ---- the block ---- */

int colpick_init(colpick_t *p, const colpick_config_t *c, char *err, size_t errlen)
{
    const char *bad = NULL;
    char lanes[128]; /* the mask's lanes are this build's: 256 in wpusim, 512 in the testbench */
    if (c->rows < 1 || c->rows > 64) bad = "rows must be 1..64";
    else if (c->cols < 1 || c->cols > 64) bad = "cols must be 1..64";
    else if (c->rows * c->cols > WSIM_MAX_LANES) {
        snprintf(lanes, sizeof lanes,
                 "rows x cols must be at most %d (a large warp's mask is a wmask_t of %d bits, cmodel/mask.h)",
                 WSIM_MAX_LANES, WSIM_MAX_LANES);
        bad = lanes;
    }
    if (bad) {
        snprintf(err, errlen, "column picker: %s (rows=%d cols=%d)", bad, c->rows, c->cols);
        return -1;
    }
    p->cfg = *c;
    p->row_bits = colpick_port_width(c, COLPICK_P_row) / c->cols;
    p->all = wmask_first(c->rows * c->cols);
    colpick_reset(p);
    return 0;
}

void colpick_reset(colpick_t *p) { p->q.work = wmask_none(); }

void colpick_eval(const colpick_t *p, const colpick_in_t *in, colpick_out_t *out)
{
    const int K = p->cfg.rows, N = p->cfg.cols;
    const wmask_t src = wmask_and(in->load ? in->mask : p->q.work, p->all);
    /* a jump reads no register: its one sub-warp does not wait on dep */
    const wmask_t cand = in->load && in->one ? src : wmask_andnot(src, in->dep);
    uint64_t valid = 0;
    wmask_t row = wmask_none(), pick = wmask_none();
    int cnt = 0;
    /* every column in parallel: a priority encoder over its K bits, lowest row first */
    for (int c = 0; c < N; c++)
        for (int r = 0; r < K; r++) {
            if (!wmask_test(&cand, r * N + c)) continue;
            valid |= 1ull << c;
            wmask_set(&pick, r * N + c);
            for (int b = 0; b < p->row_bits; b++)
                if ((r >> b) & 1) wmask_set(&row, c * p->row_bits + b);
            cnt++;
            break;
        }
    const wmask_t rest = in->load && in->one ? wmask_none() : wmask_andnot(src, pick);
    out->valid = valid;
    out->row = row;
    out->pick = pick;
    out->cnt = (uint8_t)cnt;
    out->stall = wmask_any(&rest);
    out->q = &p->q;
}

void colpick_clock(colpick_t *p, const colpick_in_t *in, const colpick_out_t *out)
{
    const wmask_t src = wmask_and(in->load ? in->mask : p->q.work, p->all);
    /* a refused sub-warp: its threads stay (the pipeline never refuses a jump's) */
    wmask_t work_d = in->drop || (in->load && in->one && in->take) ? wmask_none()
                   : !in->take ? src : wmask_andnot(src, out->pick);
    p->q.work = work_d;
}

/* ---- the generic interface ---- */

static int no_entries(const colpick_config_t *c) { (void)c; return 0; } /* no entry read ports */
BLOCK_DEFINE_OPS(colpick, "column picker", "lwm = on",
                 "with lwm = off; choose --policy LWM",
                 COLPICK_NPORTS, no_entries, 0, 0);
