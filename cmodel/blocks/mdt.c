/* Memory divergence table: evaluate and clock steps (see mdt.h,
 * docs/blocks/mdt.md), and the block interface around them (block.h), from
 * the port table mdt.def. */
#include "mdt.h"

#include <stdlib.h>

/* ---- the port table ---- */

int mdt_port_width(const mdt_config_t *c, int port)
{
#define CLOG2(x) block_clog2(x)
#define MAX(a, b) block_max(a, b)
#define BLOCK_PARAM(NAME, member, doc) const int NAME = c->member; (void)NAME;
#define BLOCK_DERIVED(NAME, expr) const int NAME = (expr); (void)NAME;
#include "mdt.def"
    switch (port) {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) case MDT_P_##name: return (width);
#define BLOCK_FIELD(field, ctype, width, doc) case MDT_P_ent_##field: return (width);
#include "mdt.def"
    default: return 0;
    }
}

static int entries_of(const mdt_config_t *c)
{
#define BLOCK_PARAM(NAME, member, doc) const int NAME = c->member; (void)NAME;
#define BLOCK_DERIVED(NAME, expr) const int NAME = (expr); (void)NAME;
#define BLOCK_ENTRIES(expr) return (expr);
#include "mdt.def"
#undef CLOG2
#undef MAX
}

#define MDT_OFFSET_CLOCK(name) 0
#define MDT_OFFSET_RESET(name) 0
#define MDT_OFFSET_EARLY(name) offsetof(mdt_in_t, name)
#define MDT_OFFSET_LATE(name) offsetof(mdt_in_t, name)
#define MDT_OFFSET_COMB(name) offsetof(mdt_out_t, name)
#define MDT_OFFSET_REG(name) offsetof(mdt_state_t, name)

static const block_port_t mdt_ports[MDT_NPORTS] = {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) \
    {#name, BLOCK_##dir, BLOCK_##timing, BLOCK_CTYPE(ctype), MDT_OFFSET_##timing(name), digits, doc},
#define BLOCK_FIELD(field, ctype, width, doc) \
    {"ent_" #field, BLOCK_OUT, BLOCK_ENTRY, BLOCK_CTYPE(ctype), offsetof(mdt_entry_t, field), 0, doc},
#include "mdt.def"
};

static const block_param_t mdt_params[] = {
#define BLOCK_PARAM(NAME, member, doc) {#NAME, #member, offsetof(mdt_config_t, member), doc},
#include "mdt.def"
};

/* ---- the block ---- */

int mdt_init(mdt_t *t, const mdt_config_t *c, char *err, size_t errlen)
{
    const char *bad = NULL;
    if (c->warps < 1 || c->warps > 32) bad = "warps must be 1..32";
    else if (c->m < 1 || c->m > 8) bad = "m (entries per warp) must be 1..8";
    else if (c->warps * c->m > MDT_MAX_ENTRIES) bad = "warps * m must be at most 64";
    else if (c->width < 1 || c->width > WSIM_MAX_LANES) bad = "width must be 1..256";
    else if (c->pc_bits < 2 || c->pc_bits > 32) bad = "pc_bits must be 2..32";
    else if (c->mcb < 1 || c->mcb > c->warps * c->m) bad = "mcb must be 1..warps * m";
    if (bad) {
        snprintf(err, errlen, "memory divergence table: %s (warps=%d m=%d width=%d pc_bits=%d mcb=%d)", bad,
                 c->warps, c->m, c->width, c->pc_bits, c->mcb);
        return -1;
    }
    t->cfg = *c;
    t->pc_mask = c->pc_bits >= 32 ? 0xffffffffu : (1u << c->pc_bits) - 1;
    t->lanes = wmask_first(c->width);
    t->entries = entries_of(c);
    mdt_reset(t);
    return 0;
}

void mdt_reset(mdt_t *t)
{
    for (int i = 0; i < MDT_MAX_ENTRIES; i++) t->q.e[i] = (mdt_entry_t){0};
}

void mdt_eval(const mdt_t *t, const mdt_in_t *in, mdt_out_t *out)
{
    const mdt_state_t *q = &t->q;
    const int m = t->cfg.m;
    int hit = -1, fr = -1, cnt = 0, nvalid = 0;
    wmask_t wl = wmask_none();
    for (int i = 0; i < t->entries; i++) nvalid += q->e[i].valid;
    if (in->warp < t->cfg.warps) /* the warp's M entries, searched in parallel */
        for (int i = in->warp * m; i < (in->warp + 1) * m; i++) {
            const mdt_entry_t *e = &q->e[i];
            if (!e->valid) {
                if (fr < 0) fr = i;
                continue;
            }
            cnt++;
            wl = wmask_or(wl, wmask_or(e->wait, e->rdy));
            if (hit < 0 && e->pc == (in->pc & t->pc_mask)) hit = i;
        }
    out->hit = hit >= 0;
    out->hit_idx = (uint8_t)(hit >= 0 ? hit : 0);
    out->hit_rdy = hit >= 0 ? q->e[hit].rdy : wmask_none();
    out->hit_wait = hit >= 0 ? q->e[hit].wait : wmask_none();
    out->free = fr >= 0;
    out->free_idx = (uint8_t)(fr >= 0 ? fr : 0);
    out->wlanes = wl;
    out->wcount = (uint8_t)cnt;
    out->nvalid = (uint8_t)nvalid;
    out->mcb_full = nvalid >= t->cfg.mcb;
    out->q = q;
}

void mdt_clock(mdt_t *t, const mdt_in_t *in, const mdt_out_t *out)
{
    (void)out;
    mdt_state_t *q = &t->q;
    const int m = t->cfg.m;
    /* next state of the entry operated on (idx) and of the filled one */
    int idx = in->op == MDT_OP_ALLOC || in->op == MDT_OP_MERGE ? in->idx : -1;
    if (idx >= t->entries) idx = -1; /* writes past the table are dropped */
    mdt_entry_t e_d = idx >= 0 ? q->e[idx] : (mdt_entry_t){0};
    const wmask_t mask = wmask_and(in->mask, t->lanes);
    if (in->op == MDT_OP_ALLOC) {
        e_d = (mdt_entry_t){.valid = 1, .pc = in->pc & t->pc_mask, .wait = mask, .rdy = wmask_none()};
    } else if (in->op == MDT_OP_MERGE && e_d.valid) {
        /* the ready threads re-join (invalid in the MCB), but the kept; a new
         * miss of a lane is a miss (the pipeline never sends a masked one) */
        e_d.rdy = wmask_andnot(wmask_and(e_d.rdy, in->keep), mask);
        e_d.wait = wmask_or(e_d.wait, mask);
    }
    /* an entry without threads is free (§4.1 step 5) */
    if (idx >= 0 && !wmask_any(&e_d.wait) && !wmask_any(&e_d.rdy)) e_d = (mdt_entry_t){0};
    /* commit: the operation, then the fill on its result. A force takes
     * lanes mask_i out of every entry of the warp; an entry left without a
     * thread is free. */
    if (in->op == MDT_OP_FORCE && in->warp < t->cfg.warps)
        for (int i = in->warp * m; i < (in->warp + 1) * m; i++) {
            mdt_entry_t *f = &q->e[i];
            f->wait = wmask_andnot(f->wait, mask);
            f->rdy = wmask_andnot(f->rdy, mask);
            if (!wmask_any(&f->wait) && !wmask_any(&f->rdy)) *f = (mdt_entry_t){0};
        }
    if (idx >= 0) q->e[idx] = e_d;
    if (in->fill && in->fill_idx < t->entries) {
        mdt_entry_t *f = &q->e[in->fill_idx];
        wmask_t back = wmask_and(f->wait, in->fill_mask);
        f->wait = wmask_andnot(f->wait, back);
        f->rdy = wmask_or(f->rdy, back);
    }
}

/* ---- the generic interface ---- */

BLOCK_DEFINE_OPS(mdt, "memory divergence table", "dom = on",
                 "with dom = off; choose a policy, e.g. --policy DoM.Adaptive",
                 MDT_NPORTS, entries_of, offsetof(mdt_state_t, e), sizeof(mdt_entry_t));
