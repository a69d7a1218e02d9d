/* Warp-split table: evaluate and clock steps (see wst.h, docs/blocks/wst.md),
 * and the block interface around them (block.h), from the port table
 * wst.def. */
#include "wst.h"

#include <stdlib.h>

/* ---- the port table ---- */

/* Widths of the ports, from the table's expressions of the parameters. */
int wst_port_width(const wst_config_t *c, int port)
{
#define CLOG2(x) block_clog2(x)
#define MAX(a, b) block_max(a, b)
#define BLOCK_PARAM(NAME, member, doc) const int NAME = c->member; (void)NAME;
#define BLOCK_DERIVED(NAME, expr) const int NAME = (expr); (void)NAME;
#include "wst.def"
    switch (port) {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) case WST_P_##name: return (width);
#define BLOCK_FIELD(field, ctype, width, doc) case WST_P_ent_##field: return (width);
#include "wst.def"
    default: return 0;
    }
}

static int entries_of(const wst_config_t *c)
{
#define BLOCK_PARAM(NAME, member, doc) const int NAME = c->member; (void)NAME;
#define BLOCK_DERIVED(NAME, expr) const int NAME = (expr); (void)NAME;
#define BLOCK_ENTRIES(expr) return (expr);
#include "wst.def"
#undef CLOG2
#undef MAX
}

int wst_idx_bits(const wst_config_t *c) { return wst_port_width(c, WST_P_idx); }
int wst_warp_bits(const wst_config_t *c) { return wst_port_width(c, WST_P_warp); }

/* Where each port's C member is. */
#define WST_OFFSET_CLOCK(name) 0
#define WST_OFFSET_RESET(name) 0
#define WST_OFFSET_EARLY(name) offsetof(wst_in_t, name)
#define WST_OFFSET_LATE(name) offsetof(wst_in_t, name)
#define WST_OFFSET_COMB(name) offsetof(wst_out_t, name)
#define WST_OFFSET_REG(name) offsetof(wst_state_t, name)

static const block_port_t wst_ports[WST_NPORTS] = {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) \
    {#name, BLOCK_##dir, BLOCK_##timing, BLOCK_CTYPE(ctype), WST_OFFSET_##timing(name), digits, doc},
#define BLOCK_FIELD(field, ctype, width, doc) \
    {"ent_" #field, BLOCK_OUT, BLOCK_ENTRY, BLOCK_CTYPE(ctype), offsetof(wst_entry_t, field), 0, doc},
#include "wst.def"
};

static const block_param_t wst_params[] = {
#define BLOCK_PARAM(NAME, member, doc) {#NAME, #member, offsetof(wst_config_t, member), doc},
#include "wst.def"
};

/* ---- the block ---- */

static uint32_t ones(int bits) { return bits >= 32 ? 0xffffffffu : (1u << bits) - 1; }

int wst_init(wst_t *t, const wst_config_t *c, char *err, size_t errlen)
{
    const char *bad = NULL;
    if (c->entries < 2 || c->entries > WST_MAX_ENTRIES) bad = "entries must be 2..64";
    else if (c->width < 1 || c->width > WSIM_MAX_LANES) bad = "width must be 1..256";
    else if (c->warps < 1 || c->warps > c->entries) bad = "warps must be 1..entries (every warp holds an entry)";
    else if (c->pc_bits < 2 || c->pc_bits > 32) bad = "pc_bits must be 2..32";
    else if (c->cnt_bits < 1 || c->cnt_bits > 32) bad = "cnt_bits must be 1..32";
    else if (c->mfc_bits < 1 || c->mfc_bits > 32) bad = "mfc_bits must be 1..32";
    if (bad) {
        snprintf(err, errlen, "warp-split table: %s (entries=%d width=%d warps=%d pc_bits=%d cnt_bits=%d mfc_bits=%d)",
                 bad, c->entries, c->width, c->warps, c->pc_bits, c->cnt_bits, c->mfc_bits);
        return -1;
    }
    t->cfg = *c;
    t->cnt_max = ones(c->cnt_bits);
    t->mfc_max = ones(c->mfc_bits);
    t->pc_mask = ones(c->pc_bits);
    t->lanes = wmask_first(c->width);
    t->warp_bits = wst_warp_bits(c);
    wst_reset(t);
    return 0;
}

void wst_reset(wst_t *t)
{
    for (int i = 0; i < WST_MAX_ENTRIES; i++) t->q.e[i] = (wst_entry_t){0};
    t->q.sum_rmfc = 0;
    t->valid = t->lag = t->rmfc_sum = 0;
    for (int w = 0; w < 1 << 6; w++) t->wvalid[w] = t->wlag[w] = 0;
}

/* Write entry i (< entries) and keep the derived fields of wst_t in step;
 * *touched collects the warps whose entries changed (their lag bit is
 * recomputed at the end of the clock: refresh_lag). */
static inline void put(wst_t *t, int i, const wst_entry_t *e, uint64_t *touched)
{
    const wst_entry_t *o = &t->q.e[i];
    const uint64_t bit = 1ull << i;
    if (o->valid) {
        t->wvalid[o->warp] &= ~bit;
        t->rmfc_sum -= o->rmfc;
        *touched |= 1ull << o->warp;
    }
    if (e->valid) {
        t->wvalid[e->warp] |= bit;
        t->rmfc_sum += e->rmfc;
        *touched |= 1ull << e->warp;
    }
    t->valid = e->valid ? t->valid | bit : t->valid & ~bit;
    t->q.e[i] = *e;
}

/* lag_vec of the touched warps: a warp with two or more valid entries has
 * its entry with the lowest icnt (the lowest index among equals). */
static void refresh_lag(wst_t *t, uint64_t touched)
{
    for (uint64_t m = touched; m; m &= m - 1) t->lag &= ~t->wlag[__builtin_ctzll(m)];
    for (uint64_t m = touched; m; m &= m - 1) {
        const int w = __builtin_ctzll(m);
        uint64_t v = t->wvalid[w], bit = 0;
        if (v & (v - 1)) {
            int low = __builtin_ctzll(v);
            for (v &= v - 1; v; v &= v - 1) {
                const int i = __builtin_ctzll(v);
                if (t->q.e[i].icnt < t->q.e[low].icnt) low = i;
            }
            bit = 1ull << low;
        }
        t->wlag[w] = bit;
        t->lag |= bit;
    }
}

void wst_eval(const wst_t *t, const wst_in_t *in, wst_out_t *out)
{
    const wst_state_t *q = &t->q;
    const int n = t->cfg.entries;
    static const wst_entry_t none; /* an index past the table reads as an invalid entry */
    const wst_entry_t *me = in->idx < n ? &q->e[in->idx] : &none;
    /* the invalid entries: how many, the lowest two */
    const uint64_t all = n >= 64 ? ~0ull : (1ull << n) - 1, inval = ~t->valid & all;
    const int nfree = wmask_popcount64(inval);
    const int f0 = inval ? __builtin_ctzll(inval) : -1;
    const int f1 = inval & (inval - 1) ? __builtin_ctzll(inval & (inval - 1)) : -1;
    /* entries that merge: valid, eligible, of idx's warp, at mpc */
    uint64_t mvec = 0;
    wmask_t mmask = me->mask;
    const uint64_t elig = me->valid ? in->elig & t->valid & all : 0;
    const uint32_t mpc = in->mpc & t->pc_mask;
    for (uint64_t v = elig; v; v &= v - 1) {
        const int i = __builtin_ctzll(v);
        const wst_entry_t *e = &q->e[i];
        if (i != in->idx && e->warp == me->warp && e->pc == mpc) {
            mvec |= 1ull << i;
            mmask = wmask_or(mmask, e->mask);
        }
    }
    const uint64_t lag = t->lag; /* (refresh_lag, at the clock edge) */
    out->nfree = (uint8_t)nfree;
    out->free_idx = (uint8_t)(f0 < 0 ? 0 : f0);
    out->free2_idx = (uint8_t)(f1 < 0 ? 0 : f1);
    out->merge_vec = mvec;
    out->merge_mask = mmask;
    out->lag_vec = lag;
    out->latspec = me->valid && (uint64_t)q->sum_rmfc + me->mfc < me->lat;
    out->q = q;
}

static uint32_t sat_add(uint32_t a, uint32_t b, uint32_t max)
{
    uint64_t s = (uint64_t)a + b;
    return s > max ? max : (uint32_t)s;
}

/* sum-rMFC (000 §5.4.3): the sum of the remaining miss-free cycles of the
 * live warp-splits, the valid entries' rmfc, saturated. A function of the
 * entries, not a counter of its own: the RTL's adder over ent_rmfc_o (the C
 * model keeps that sum, unsaturated, with every write: put). */
static uint32_t live_sum_rmfc(const wst_t *t)
{
    return t->rmfc_sum > t->mfc_max ? t->mfc_max : (uint32_t)t->rmfc_sum;
}

/* The fields of an entry every operation writes: PC, mask, status, and
 * with an issue the counters (000 §5.4: icnt, MFC, rMFC, MemLat). */
static inline void next_fields(const wst_t *t, const wst_in_t *in, wst_entry_t *e)
{
    e->pc = in->pc & t->pc_mask;
    e->mask = wmask_and(in->mask, t->lanes);
    e->st = in->st & 3;
    if (in->issue) {
        uint32_t mfc = e->mfc;
        if (in->resume) { /* its miss completed: MFC predicts the next miss-free run */
            e->rmfc = mfc;
            mfc = 0;
        }
        e->mfc = sat_add(mfc, 1, t->mfc_max);
        e->rmfc = e->rmfc ? e->rmfc - 1 : 0;
        e->icnt = sat_add(e->icnt, 1, t->cnt_max);
        if (in->miss) e->lat = in->lat > t->mfc_max ? t->mfc_max : in->lat;
    }
}

void wst_clock(wst_t *t, const wst_in_t *in, const wst_out_t *out)
{
    if (!in->op) return;
    wst_state_t *q = &t->q;
    const int idx = in->idx;
    const int in_table = idx < t->cfg.entries; /* writes past the table are dropped */
    uint64_t touched = 0; /* warps whose entries change */
    if (in->free) {
        if (in_table) put(t, idx, &(wst_entry_t){0}, &touched);
        q->sum_rmfc = live_sum_rmfc(t);
        refresh_lag(t, touched);
        return;
    }
    /* the child's entry: the lowest free one other than idx */
    int b = -1;
    if (in->spawn) {
        if (out->nfree > 0 && out->free_idx != idx) b = out->free_idx;
        else if (out->nfree > 1) b = out->free2_idx;
    }
    /* The common clock: valid idx issues or changes its status and nothing
     * else changes. Its entry is written in place; its icnt grew, saturated
     * or stayed, so its warp's lag entry stays unless idx was it (an entry
     * whose icnt grows cannot become the lowest). (set zeroes icnt; merge
     * and spawn change the warp's entries: the general path below.) */
    if (!in->set && !in->merge && b < 0 && in_table && q->e[idx].valid) {
        wst_entry_t *e = &q->e[idx];
        t->rmfc_sum -= e->rmfc;
        next_fields(t, in, e);
        t->rmfc_sum += e->rmfc;
        q->sum_rmfc = live_sum_rmfc(t);
        if ((t->wlag[e->warp] >> idx) & 1) refresh_lag(t, 1ull << e->warp);
        return;
    }
    /* next state of idx */
    wst_entry_t e_d = in_table ? q->e[idx] : (wst_entry_t){0};
    if (in->set) {
        e_d = (wst_entry_t){0};
        e_d.valid = 1;
        e_d.warp = (uint16_t)(in->warp & ones(t->warp_bits));
        e_d.lat = in->lat > t->mfc_max ? t->mfc_max : in->lat;
    }
    next_fields(t, in, &e_d);
    /* commit */
    if (in->merge)
        for (int j = 0; j < t->cfg.entries; j++)
            if ((out->merge_vec >> j) & 1) put(t, j, &(wst_entry_t){0}, &touched);
    if (in_table) put(t, idx, &e_d, &touched);
    if (b >= 0) {
        wst_entry_t c = e_d;
        c.pc = in->pc_b & t->pc_mask;
        c.mask = wmask_and(in->mask_b, t->lanes);
        c.st = in->st_b & 3;
        put(t, b, &c, &touched);
    }
    q->sum_rmfc = live_sum_rmfc(t);
    refresh_lag(t, touched);
}

/* ---- the port trace and the generic interface ---- */

void wst_trace_header(const wst_config_t *c, FILE *out) { block_trace_header(&wst_block_ops, c, out); }

void wst_trace_line(const wst_t *t, uint64_t cycle, int wpu, const wst_in_t *in, const wst_out_t *o, FILE *f)
{
    block_trace_line(&wst_block_ops, &t->cfg, cycle, wpu, in, o, NULL, f);
}

BLOCK_DEFINE_OPS(wst, "warp-split table", "dws = on",
                 "with dws = off; choose a policy, e.g. --policy DWS.ReviveSplit",
                 WST_NPORTS, entries_of, offsetof(wst_state_t, e), sizeof(wst_entry_t));
