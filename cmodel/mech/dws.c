/* Dynamic warp subdivision: the pipeline's side (seed 001 §4-§6, seed 000
 * §5; docs/dws.md). The warp-split table itself is a block
 * (blocks/wst.c); this file decides its one operation per clock.
 *
 * Model. With dws on, every SIMD group is a table entry. A warp that is one
 * group runs from its re-convergence stack, as without DWS. When it splits,
 * the top entry of its stack stays and holds the lanes of all its splits;
 * each split gets its own small stack whose base entry re-converges at that
 * top entry's PC (the post-dominator on the stack's top, 001 §4.4). Nested
 * divergence a split does not split on (the table is full, the branch is not
 * selected, a sync breaker let it go) nests on the split's own stack. A split
 * whose lanes reach the base PC parks them on the warp's stack and ends; when
 * the last one arrives the warp's stack pops as usual. Splits of one warp at
 * their base level, at the same PC, merge (PC-based re-convergence, barriers,
 * BranchLimited waits); a warp down to one split folds back into its stack. */
#include <stdlib.h>
#include <string.h>

#include "blocks/wst.h"
#include "core.h"
#include "mech/mech.h"
#include "timeline.h"

/* A WPU's warp-split table block, reached only through its ports: its ops
 * (chosen at creation: the C model, or its Verilated RTL) in the instance
 * wst, this clock's inputs and outputs (out.q: its registered read ports,
 * the entries and sum-rMFC); the scheduler slots; the clock's splits. */
typedef struct dws_wpu {
    block_inst_t wst;
    wst_config_t cfg;
    wst_in_t in;
    wst_out_t out;
    int slots_used;
    int revive_blocked; /* no free entry since the last revive attempt */
    wmask_t spawned;    /* lanes that went to a new split this issue */
} dws_wpu_t;

#define DW(u) ((dws_wpu_t *)(u)->mstate[MECH_DWS])

static int nslots(const struct wsim *s) { return (int)(s->cfg.dws_slots ? s->cfg.dws_slots : 2 * s->cfg.warps); }

/* ---- the table's port: at most one operation per WPU per clock ---- */

static int port_busy(const wpu_t *u) { return DW(u)->in.op; }

static void port_begin(wpu_t *u, int idx, uint64_t elig, uint32_t mpc)
{
    dws_wpu_t *D = DW(u);
    memset(&D->in, 0, sizeof D->in);
    D->in.idx = (uint8_t)idx;
    D->in.elig = elig;
    D->in.mpc = mpc;
    D->in.op = 1;
    block_eval(&D->wst, &D->in, &D->out);
}

static uint8_t status_of(const group_t *g)
{
    switch (g->wait) {
    case WAIT_MEM: return WST_ST_MEM;
    case WAIT_SYNC: return WST_ST_SYNC;
    case WAIT_BARRIER: return WST_ST_BAR;
    default: return WST_ST_RUN;
    }
}

static int child_index(const wpu_t *u)
{
    return DW(u)->out.free_idx != DW(u)->in.idx ? DW(u)->out.free_idx : DW(u)->out.free2_idx;
}

static void dws_clock(struct wsim *s, wpu_t *u)
{
    dws_wpu_t *D = DW(u);
    wst_in_t *in = &D->in;
    D->spawned = wmask_none();
    if (!in->op) return;
    const group_t *g = &u->grp[in->idx];
    if (!g->w) {
        in->free = 1;
    } else { /* the entry mirrors the group's running level */
        const rentry_t *t = rs_top(g->rs);
        in->pc = t->pc, in->mask = t->mask, in->st = status_of(g);
    }
    if (in->spawn) {
        const group_t *c = &u->grp[child_index(u)];
        const rentry_t *t = rs_top(c->rs);
        in->pc_b = t->pc, in->mask_b = t->mask, in->st_b = status_of(c);
    }
    if (in->free || in->merge) D->revive_blocked = 0;
    block_clock(&D->wst, s->cycle, in, &D->out);
    in->op = 0;
}

/* ---- scheduler slots (001 §5.6, §6.6) ---- */

static void dws_slot_take(struct wsim *s, wpu_t *u, group_t *g)
{
    if (g->slotted) return;
    if (DW(u)->slots_used < nslots(s)) {
        g->slotted = 1;
        DW(u)->slots_used++;
    } else {
        u->st.slot_full++;
    }
}

static void dws_slot_release(struct wsim *s, wpu_t *u, group_t *g)
{
    if (!g->slotted) return;
    g->slotted = 0;
    DW(u)->slots_used--;
    group_sync_avail(u, g);
    /* the slot goes to the lowest waiting group that could run */
    for (int k = 0; k < u->ngrp; k++) {
        group_t *h = &u->grp[k];
        if (h == g || !h->w || h->slotted || h->wait == WAIT_BARRIER || h->wait == WAIT_SYNC) continue;
        h->slotted = 1;
        DW(u)->slots_used++;
        group_sync_avail(u, h);
        if (u->next_ready > s->cycle + 1) u->next_ready = s->cycle + 1;
        break;
    }
}

/* ---- groups ---- */

static void group_free(struct wsim *s, wpu_t *u, group_t *g)
{
    dws_slot_release(s, u, g);
    g->w->ngroups--;
    g->w = NULL;
    g->rs = NULL;
    g->own.depth = 0;
    g->wait = WAIT_NONE;
    g->pend_hit = wmask_none();
    u->live_groups--;
    group_sync_avail(u, g);
}

/* A warp's splits all wait at re-convergence points (or a barrier) for
 * each other: let the one that fell behind the most go on alone. */
static void dws_sync_breaker(struct wsim *s, wpu_t *u, warp_t *w)
{
    group_t *best = NULL;
    for (int k = 0; k < u->ngrp; k++) {
        group_t *g = &u->grp[k];
        if (g->w != w) continue;
        if (g->wait != WAIT_SYNC && g->wait != WAIT_BARRIER) return; /* someone can still arrive */
        if (g->wait == WAIT_SYNC && (!best || DW(u)->out.q->e[k].icnt < DW(u)->out.q->e[best->id].icnt)) best = g;
    }
    if (!best) return;
    best->wait = WAIT_NONE;
    best->go = 1;
    if (best->ready_at < s->cycle + 1) best->ready_at = s->cycle + 1;
    dws_slot_take(s, u, best);
    group_sync_avail(u, best);
    if (u->next_ready > s->cycle + 1) u->next_ready = s->cycle + 1;
}

/* The warp is one group again: its split becomes its root. */
static void fold(group_t *g)
{
    rs_fold(&g->w->rs, &g->own);
    g->rs = &g->w->rs;
}

/* Split group g: it keeps keep_mask at keep_pc, a new group (the table's
 * next free entry) takes child_mask at child_pc, ready at child_ready. */
static group_t *split(struct wsim *s, wpu_t *u, group_t *g, uint32_t keep_pc, wmask_t keep_mask, uint32_t child_pc,
                      wmask_t child_mask, uint64_t child_ready)
{
    warp_t *w = g->w;
    uint32_t rpc = group_is_split(g) ? g->own.e[0].rpc : rs_top(&w->rs)->rpc;
    if (group_is_split(g)) {
        g->own.e[0].pc = keep_pc;
        g->own.e[0].mask = keep_mask;
    } else { /* the root: its stack's top keeps all the lanes */
        rs_start(&g->own, keep_pc, rpc, keep_mask);
        g->rs = &g->own;
    }
    group_t *c = &u->grp[child_index(u)];
    c->w = w;
    c->rs = &c->own;
    rs_start(&c->own, child_pc, rpc, child_mask);
    c->ready_at = child_ready;
    c->wait = WAIT_NONE;
    c->fetch = (ifetch_slot_t){0};
    c->resume = c->go = c->after_barrier = 0;
    c->pend_hit = wmask_none();
    c->slotted = 0;
    w->ngroups++;
    u->live_groups++;
    DW(u)->in.spawn = 1;
    DW(u)->spawned = child_mask;
    u->st.split_lanes += (uint64_t)wmask_count(&child_mask);
    dws_slot_take(s, u, c);
    group_sync_avail(u, c);
    return c;
}

static int dws_init_wpu(struct wsim *s, wpu_t *u, char *err, size_t errlen)
{
    dws_wpu_t *D = mech_state_new(u, MECH_DWS, sizeof *D, "the warp-split table", err, errlen);
    if (!D) return -1;
    D->cfg = (wst_config_t){
        .entries = (int)s->cfg.dws_entries, .width = s->warp_size, .warps = s->nwarps, .pc_bits = 32,
        .cnt_bits = (int)s->cfg.dws_cnt_bits, .mfc_bits = (int)s->cfg.dws_mfc_bits,
    };
    /* the C model, or a Verilated RTL block with the same ops (block_new: the machine's block hook) */
    if (block_new(s, &D->wst, &wst_block_ops, &D->cfg, u->id, err, errlen) < 0) return -1;
    block_eval(&D->wst, &D->in, &D->out); /* (no operation) the read ports, out.q, are valid from here */
    return 0;
}

static void dws_launch(struct wsim *s, wpu_t *u, group_t *g, int initial)
{
    if (initial) { /* the launch sequence before cycle 0: one warp per clock */
        port_begin(u, g->id, 0, 0);
    }
    DW(u)->in.set = 1;
    DW(u)->in.warp = (uint16_t)g->w->slot;
    DW(u)->in.lat = (uint32_t)s->cfg.dws_memlat_init;
    dws_slot_take(s, u, g);
    if (initial) {
        const rentry_t *t = rs_top(g->rs);
        DW(u)->in.pc = t->pc, DW(u)->in.mask = t->mask, DW(u)->in.st = WST_ST_RUN;
        block_clock(&DW(u)->wst, s->cycle, &DW(u)->in, &DW(u)->out);
        DW(u)->in.op = 0;
    }
}

/* Groups of g's warp that may merge into it: splits at their base level
 * whose data is back by cycle `by` (the cycle g itself can go on: a split
 * waiting for an L1 hit of the same load is as good as ready), or that wait
 * for the others at a re-convergence point. */
static uint64_t merge_candidates(const wpu_t *u, const group_t *g, uint64_t by)
{
    uint64_t elig = 0;
    for (int k = 0; k < u->ngrp; k++) {
        const group_t *h = &u->grp[k];
        if (h == g || h->w != g->w || !group_is_split(h) || !group_at_base(h) || h->wait == WAIT_BARRIER) continue;
        if (h->wait == WAIT_SYNC || h->ready_at <= by) elig |= 1ull << k;
    }
    return elig;
}

/* Why splits merge: each counts in its own statistic and timeline event. */
typedef enum merge_cause {
    MERGE_NONE,    /* (no merge) */
    MERGE_PC,      /* splits at the same PC (PC-based re-convergence) */
    MERGE_BARRIER, /* released from a barrier */
    MERGE_SYNC,    /* waiting for the others at a branch (dws_branches = limited) */
} merge_cause_t;

/* Absorb the table's merge_vec into g (at its base level). Returns the
 * lanes that joined. */
static wmask_t merge(struct wsim *s, wpu_t *u, group_t *g, merge_cause_t cause)
{
    uint64_t mv = DW(u)->out.merge_vec;
    if (!mv) return wmask_none();
    /* the absorbed entries' masks (registered: they did not change this
     * clock); g's own mask may have (merge_mask_o holds its registered one) */
    wmask_t joined = wmask_none();
    for (int k = 0; k < u->ngrp; k++)
        if ((mv >> k) & 1) joined = wmask_or(joined, DW(u)->out.q->e[k].mask);
    g->own.e[0].mask = wmask_or(g->own.e[0].mask, joined);
    for (int k = 0; k < u->ngrp; k++)
        if ((mv >> k) & 1) {
            group_t *h = &u->grp[k];
            if (h->ready_at > g->ready_at) g->ready_at = h->ready_at;
            TIMELINE(s, tl_event(s, u, g->w->slot,
                                 cause == MERGE_PC        ? TL_MERGE_PC
                                 : cause == MERGE_BARRIER ? TL_MERGE_BARRIER
                                                          : TL_MERGE_SYNC,
                                 k, DW(u)->out.q->e[k].mask, k));
            group_free(s, u, h);
            if (cause == MERGE_PC) u->st.merges_pc++;
            else if (cause == MERGE_BARRIER) u->st.merges_barrier++;
            else u->st.merges_sync++;
        }
    DW(u)->in.merge = 1;
    if (g->w->ngroups == 1) {
        fold(g);
        TIMELINE(s, tl_event(s, u, g->w->slot, TL_ONE_GROUP, g->id, rs_top(g->rs)->mask, g->id));
    }
    return joined;
}

/* 000 §5.5: branches that delimit loop iterations do not make a split wait:
 * the loop branches the control-flow analysis found (back edges and loop
 * exits, ISA_F_LOOP: a rotated loop's exit test is a forward branch), and
 * 000's own test, a branch re-converging at the PC its split does. */
static int loop_branch(const group_t *g, const isa_insn_t *d)
{
    return (d->flags & ISA_F_LOOP) || d->ipdom == g->own.e[0].rpc;
}

static int dws_before_issue(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d)
{
    warp_t *w = g->w;
    if (w->ngroups == 1 && group_is_split(g)) {
        fold(g);
        TIMELINE(s, tl_event(s, u, w->slot, TL_ONE_GROUP, g->id, rs_top(g->rs)->mask, g->id));
    }
    if (!group_is_split(g) || !d) return 0;
    uint32_t pc = rs_top(g->rs)->pc;
    int base = group_at_base(g);
    int sync = base && s->cfg.dws_branches == CFG_DWS_BRANCHES_LIMITED && d->cls == ISA_CLASS_BRANCH && !g->go &&
               !(s->cfg.dws_loop_bypass && loop_branch(g, d));
    const merge_cause_t cause = sync ? MERGE_SYNC : g->after_barrier ? MERGE_BARRIER : MERGE_NONE;
    g->after_barrier = 0;
    if (!base || cause == MERGE_NONE) return 0;
    port_begin(u, g->id, merge_candidates(u, g, s->cycle), pc);
    merge(s, u, g, cause);
    if (!sync || !group_is_split(g)) return 0;
    /* wait here for the other splits (001 §5.3.1, 000 §5.3) */
    g->wait = WAIT_SYNC;
    dws_slot_release(s, u, g);
    group_sync_avail(u, g);
    u->st.sync_waits++;
    u->next_ready = s->cycle + 1;
    dws_sync_breaker(s, u, w);
    return 1;
}

static int dws_branch_split(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d, uint32_t pc, wmask_t taken,
                     wmask_t fall)
{
    if (!group_at_base(g)) return 0;
    /* the selection is a property of the static branch (001 §4.3: the
     * compiler marks the branches that may subdivide), for a warp and its
     * splits alike; splits split only under BranchBypass */
    /* loop back edges are not selected by default: threads leaving a loop
     * would run past it, far ahead of the ones still in it */
    int selected = (d->flags & ISA_F_SHORT_PDOM) && (s->cfg.dws_split_loops || d->target > pc);
    if (s->cfg.dws_branch == CFG_DWS_BRANCH_LIST) /* a per-kernel choice (branchsel.c) */
        selected = (d->flags & ISA_F_SPLIT) != 0;
    int want = (s->cfg.dws_branch == CFG_DWS_BRANCH_ALL ||
                ((s->cfg.dws_branch == CFG_DWS_BRANCH_HEURISTIC || s->cfg.dws_branch == CFG_DWS_BRANCH_LIST) && selected)) &&
               (!group_is_split(g) || s->cfg.dws_branches == CFG_DWS_BRANCHES_BYPASS);
    if (!want) return 0;
    uint32_t rpc = group_is_split(g) ? g->own.e[0].rpc : rs_top(g->rs)->rpc;
    if (d->target == rpc || pc + 4 == rpc) return 0; /* a side that is already there: no split */
    if (!port_busy(u)) port_begin(u, g->id, 0, 0);
    if (DW(u)->out.nfree < 1) {
        u->st.wst_full++;
        return 0;
    }
    uint64_t ready = s->cycle + (s->cfg.lat_alu > s->cfg.pipeline_depth ? s->cfg.lat_alu : s->cfg.pipeline_depth);
    group_t *c = split(s, u, g, pc + 4, fall, d->target, taken, ready);
    TIMELINE(s, tl_event(s, u, g->w->slot, TL_SPLIT_BRANCH, c->id, taken, c->id));
    u->st.splits_branch++;
    return 1;
}

/* No other group of the WPU can issue next cycle (001 §5.2 LazySplit). */
static int others_ready(const struct wsim *s, const wpu_t *u, const group_t *g)
{
    for (int k = 0; k < u->ngrp; k++)
        if (k != g->id && u->avail[k] <= s->cycle + 1) return 1;
    return 0;
}

static void dws_after_issue(struct wsim *s, wpu_t *u, group_t *g, const issue_t *is)
{
    warp_t *w = g->w;
    const isa_insn_t *d = is->d;
    const mem_result_t *r = is->r;
    const int cls = is->x->cls;
    const wmask_t before = is->lanes_before, live_before = is->live_before;
    wmask_t joined = wmask_none();
    /* PC-based re-convergence (001 §4.5): a ready split suspended after the
     * same load/store is where this one is now */
    int memi = cls == ISA_CLASS_LOAD || cls == ISA_CLASS_STORE;
    if (!port_busy(u) && memi && s->cfg.dws_reconv == CFG_DWS_RECONV_PC && w->rs.depth && group_is_split(g) && group_at_base(g) &&
        w->ngroups > 1 && rs_top(g->rs)->pc == is->pc + 4) {
        port_begin(u, g->id, merge_candidates(u, g, s->cfg.dws_merge_inflight ? g->ready_at : s->cycle),
                   is->pc + 4);
        joined = merge(s, u, g, MERGE_PC);
    }
    if (!port_busy(u)) port_begin(u, g->id, 0, 0);
    wst_in_t *in = &DW(u)->in;
    in->issue = 1;
    in->resume = g->resume;
    g->resume = 0;
    g->go = 0;
    g->pend_hit = wmask_none();
    /* lanes that left g this issue without parking: exited, returned past its
     * stack, or went to the split it spawned on a branch */
    wmask_t dead = wmask_andnot(live_before, w->live);
    wmask_t returned = is->x->ev & EXEC_RETURNED ? is->x->returned : wmask_none();
    wmask_t left = wmask_or(returned, DW(u)->spawned);
    DW(u)->spawned = wmask_none();
    if (w->rs.depth == 0) return; /* the warp is done: the pipeline frees or relaunches its slot */

    if (group_is_split(g)) {
        wmask_t now = group_lanes(g);
        wmask_t parked = wmask_andnot(wmask_andnot(wmask_andnot(before, now), dead), left);
        if (wmask_any(&parked)) rs_park(&w->rs, parked);
        if (g->own.depth == 0) { /* the split is over: all its lanes parked, returned or exited */
            /* re-converged by the stack: at the top's post-dominator, or by
             * returning to a call made before the split */
            wmask_t back = wmask_or(parked, returned);
            if (wmask_any(&back)) u->st.merges_stack++;
            TIMELINE(s, tl_event(s, u, w->slot, TL_MERGE_STACK, g->id, back, g->id));
            if (w->ngroups == 1) { /* the last: its warp's stack moved on, it is the root again */
                g->rs = &w->rs;
                in->set = 1;
                in->warp = (uint16_t)w->slot;
                in->lat = DW(u)->out.q->e[g->id].lat;
            } else {
                group_free(s, u, g);
                dws_sync_breaker(s, u, w);
            }
            return;
        }
    }

    /* memory divergence (001 §5, 000 §5.4) */
    if (r && s->cfg.dws_mem && group_at_base(g) && d && rs_top(g->rs)->pc == is->pc + 4 &&
        g->rs->depth == is->depth) {
        /* lanes that just joined have their data: they count as hits; the
         * fall-behind side is everything else at this PC (lanes that missed,
         * and any that waited here without taking part, e.g. after a fold) */
        wmask_t top = rs_top(g->rs)->mask;
        wmask_t hit = wmask_and(wmask_or(r->hit, joined), top), missed = wmask_and(r->miss, top);
        wmask_t miss = wmask_andnot(top, hit);
        if (wmask_any(&hit) && wmask_any(&missed)) {
            int pol = (int)s->cfg.dws_mem, want;
            if (pol == CFG_DWS_MEM_AGGRESS) want = 1;
            else if (pol == CFG_DWS_MEM_LATSPEC) want = DW(u)->out.latspec;
            else want = !others_ready(s, u, g);
            if (want && DW(u)->out.nfree < 1) {
                u->st.wst_full++;
                want = 0;
            }
            if (want) {
                uint64_t hr = r->hit_ready > s->cycle + s->cfg.pipeline_depth ? r->hit_ready : s->cycle + s->cfg.pipeline_depth;
                group_t *c = split(s, u, g, is->pc + 4, miss, is->pc + 4, hit, hr);
                c->wait = WAIT_MEM;
                TIMELINE(s, tl_event(s, u, w->slot, TL_SPLIT_MEM, c->id, hit, c->id));
                u->st.splits_mem++;
            } else if (pol == CFG_DWS_MEM_REVIVE) { /* ReviveSplit may split it while it waits */
                g->pend_hit = hit;
                g->hit_ready = r->hit_ready;
            }
        }
        if (wmask_any(&missed)) {
            in->miss = 1;
            in->lat = (uint32_t)(r->ready - s->cycle);
            g->resume = 1;
        }
    }
}

static int dws_stalled(struct wsim *s, wpu_t *u)
{
    if (s->cfg.dws_mem != CFG_DWS_MEM_REVIVE || DW(u)->revive_blocked || port_busy(u)) return 0;
    for (int k = 0; k < u->ngrp; k++) {
        group_t *g = &u->grp[k];
        if (!g->w || g->wait != WAIT_MEM || g->ready_at <= s->cycle || !wmask_any(&g->pend_hit) ||
            g->hit_ready > s->cycle || !group_at_base(g))
            continue;
        port_begin(u, g->id, 0, 0);
        if (DW(u)->out.nfree < 1) {
            DW(u)->in.op = 0;
            DW(u)->revive_blocked = 1;
            u->st.wst_full++;
            return 0;
        }
        const rentry_t *t = rs_top(g->rs);
        uint32_t pc = t->pc;
        wmask_t hit = g->pend_hit, miss = wmask_andnot(t->mask, g->pend_hit);
        g->pend_hit = wmask_none();
        group_t *c = split(s, u, g, pc, miss, pc, hit, s->cycle + 1);
        TIMELINE(s, tl_event(s, u, g->w->slot, TL_SPLIT_REVIVE, c->id, hit, c->id));
        u->st.splits_revive++;
        u->next_ready = s->cycle + 1;
        return 1;
    }
    return 0;
}

/* --check, the mechanism's part. A group's table entry mirrors it. */
static int dws_check_group(const struct wsim *s, const wpu_t *u, const group_t *g, char *msg, size_t len)
{
    char a[WSIM_MAX_LANES / 4 + 2], b[WSIM_MAX_LANES / 4 + 2];
    const wst_entry_t *e = &DW(u)->out.q->e[g->id];
    const rentry_t *t = rs_top(g->rs);
    if (e->valid && e->warp == g->w->slot && e->pc == t->pc && wmask_eq(&e->mask, &t->mask)) return 0;
    wmask_hex(&e->mask, s->warp_size, a);
    wmask_hex(&t->mask, s->warp_size, b);
    snprintf(msg, len, "WPU %d warp %d group %d: warp-split table entry (valid %d warp %d pc 0x%08x mask %s) does not "
             "mirror the group (pc 0x%08x mask %s)", u->id, g->w->slot, g->id, e->valid, e->warp, e->pc, a, t->pc, b);
    return 1;
}

/* No table entry without a group; scheduler slots add up; the sum-rMFC read
 * port is what 000 §5.4.3 defines: the sum of the remaining miss-free cycles
 * of the live warp-splits (the valid entries' rmfc), saturated to MFC_W bits.
 * Restated here from the entry read ports, not taken from the block. */
static int dws_check_wpu(const struct wsim *s, const wpu_t *u, char *msg, size_t len)
{
    const wst_state_t *q = DW(u)->out.q;
    uint64_t live = 0, max = DW(u)->cfg.mfc_bits >= 32 ? 0xffffffffull : (1ull << DW(u)->cfg.mfc_bits) - 1;
    for (int k = 0; k < DW(u)->cfg.entries; k++)
        if (q->e[k].valid) live += q->e[k].rmfc;
    if (live > max) live = max;
    if (q->sum_rmfc != live) {
        snprintf(msg, len, "WPU %d: sum-rMFC read port %u, but the valid entries' rMFC add up to %llu "
                 "(000 §5.4.3, saturated to %d bits)", u->id, q->sum_rmfc, (unsigned long long)live,
                 DW(u)->cfg.mfc_bits);
        return 1;
    }
    int slotted = 0, waiting = -1;
    for (int j = 0; j < u->ngrp; j++) {
        const group_t *g = &u->grp[j];
        if (!g->w && DW(u)->out.q->e[j].valid) {
            snprintf(msg, len, "WPU %d: warp-split table entry %d is valid without a SIMD group", u->id, j);
            return 1;
        }
        if (g->w && g->slotted) slotted++;
        if (g->w && !g->slotted && g->wait != WAIT_BARRIER && g->wait != WAIT_SYNC) waiting = j;
    }
    if (slotted != DW(u)->slots_used || (waiting >= 0 && slotted < nslots(s))) {
        snprintf(msg, len, "WPU %d: %d groups hold scheduler slots, %d counted; group %d waits for a slot "
                 "with %d of %d taken", u->id, slotted, DW(u)->slots_used, waiting, slotted, nslots(s));
        return 1;
    }
    return 0;
}

/* ---- the hooks the pipeline calls (mech/mech.h) ---- */

static void dws_free_wpu(struct wsim *s, wpu_t *u)
{
    (void)s;
    dws_wpu_t *D = DW(u);
    if (!D) return;
    block_free(&D->wst);
    free(D);
    u->mstate[MECH_DWS] = NULL;
}

static void dws_barrier_wait(struct wsim *s, wpu_t *u, group_t *g)
{
    dws_slot_release(s, u, g);
    dws_sync_breaker(s, u, g->w);
}

/* Released from a barrier: a split merges with the others at its PC when it
 * issues next; it needs a slot again. */
static void dws_barrier_release(struct wsim *s, wpu_t *u, group_t *g)
{
    g->after_barrier = g->w->ngroups > 1;
    if (!g->slotted) dws_slot_take(s, u, g);
}

static void dws_warp_done(struct wsim *s, wpu_t *u, group_t *g) { dws_slot_release(s, u, g); }

static int dws_busy(const wpu_t *u) { return port_busy(u); }

/* ReviveSplit: a suspended group's hits become ready to run ahead. */
static uint64_t dws_next_ready(const struct wsim *s, const wpu_t *u, uint64_t nr)
{
    if (s->cfg.dws_mem != CFG_DWS_MEM_REVIVE || DW(u)->revive_blocked) return nr;
    for (int k = 0; k < u->ngrp; k++) {
        const group_t *g = &u->grp[k];
        if (g->w && g->wait == WAIT_MEM && wmask_any(&g->pend_hit) && g->ready_at > s->cycle + 1) {
            uint64_t t = g->hit_ready > s->cycle + 1 ? g->hit_ready : s->cycle + 1;
            if (t < nr) nr = t;
        }
    }
    return nr;
}

/* The scheduler's keys: the split that falls behind the most first (boost,
 * the table's lag_vec, 000 §5.4), then the fewest remaining miss-free
 * cycles (SWF, the table's rmfc read ports, 000 §5.6). */
static int dws_keys(const struct wsim *s, const wpu_t *u, uint32_t *key)
{
    uint64_t lag = 0;
    if (s->cfg.dws_boost) {
        wst_in_t win = {0};
        wst_out_t o;
        block_eval(&DW(u)->wst, &win, &o);
        lag = o.lag_vec;
    }
    for (int k = 0; k < u->ngrp; k++) {
        uint32_t rm = s->cfg.scheduler == CFG_SCHEDULER_SWF ? DW(u)->out.q->e[k].rmfc : 0;
        key[k] = ((lag >> k) & 1) ? 0 : 1 + (rm > 0x7fffffff ? 0x7fffffff : rm);
    }
    return 1;
}

/* ---- creation and reports ---- */

static int dws_groups(const wsim_config_t *c) { return (int)c->dws_entries; } /* a group per table entry */

static int dws_uses_keys(const wsim_config_t *c) { return c->dws_boost || c->scheduler == CFG_SCHEDULER_SWF; }

/* The deadlock report: a warp's splits, each where it waits. */
static void dws_deadlock(const struct wsim *s, const warp_t *w, FILE *out) { group_report(s, w, out); }

static void dws_stats(const struct wsim *s, const stats_t *t, FILE *out, int json)
{
    (void)s;
    if (json) return; /* (its counters are stats.def's) */
    uint64_t splits = t->splits_branch + t->splits_mem + t->splits_revive;
    fprintf(out, "  warp-splits           %llu (branch %llu, memory %llu, revive %llu), %.1f threads to the new "
                 "side on average\n",
            (unsigned long long)splits, (unsigned long long)t->splits_branch, (unsigned long long)t->splits_mem,
            (unsigned long long)t->splits_revive, splits ? (double)t->split_lanes / (double)splits : 0.0);
    fprintf(out, "  re-convergence        PC %llu, stack %llu, barrier %llu, sync %llu (waits %llu)\n",
            (unsigned long long)t->merges_pc, (unsigned long long)t->merges_stack,
            (unsigned long long)t->merges_barrier, (unsigned long long)t->merges_sync,
            (unsigned long long)t->sync_waits);
    fprintf(out, "  SIMD groups per WPU   mean %.2f, max %llu; mean width %.2f threads; table full %llu, "
                 "no scheduler slot %llu\n",
            t->cycles_issue ? (double)t->groups_sum / (double)t->cycles_issue : 0.0,
            (unsigned long long)t->groups_max,
            t->warp_insts ? (double)t->thread_insts / (double)t->warp_insts : 0.0,
            (unsigned long long)t->wst_full, (unsigned long long)t->slot_full);
}

const mech_ops_t dws_mech = {
    .name = "dws",
    .slots = 1,
    .groups = dws_groups,
    .uses_keys = dws_uses_keys,
    .apart = "dws = on (warp subdivision)",
    .init_wpu = dws_init_wpu,
    .free_wpu = dws_free_wpu,
    .launch = dws_launch,
    .before_issue = dws_before_issue,
    .branch = dws_branch_split,
    .after_issue = dws_after_issue,
    .busy = dws_busy,
    .stalled = dws_stalled,
    .clock = dws_clock,
    .next_ready = dws_next_ready,
    .barrier_wait = dws_barrier_wait,
    .barrier_release = dws_barrier_release,
    .warp_done = dws_warp_done,
    .keys = dws_keys,
    .check_group = dws_check_group,
    .check_wpu = dws_check_wpu,
    .stats = dws_stats,
    .deadlock = dws_deadlock,
};
