/* Two-level warp scheduling: the pipeline side of the fetch arbiter
 * (twolev.h, docs/twolevel.md). What the arbiter sees of each warp slot:
 *   ready: the warp can issue now (the pipeline's view, u->avail);
 *   stall: the warp waits on a long-latency operation: a load/store that
 *     missed the L1 D or found no free MSHR, an instruction fetch from
 *     memory, or a barrier (it waits for warps of other fetch groups); a
 *     slot without a warp counts as stalled (it will never issue). A warp
 *     that only waits for its previous instruction to drain (barrel
 *     processing, an L1 hit) is not stalled: its fetch group keeps the
 *     priority, as in 004 §3.2 ("until they reach a stalling point").
 * Slots past the warps (the last fetch group may be partial) are tied off:
 * never ready, always stalled. */
#include "twolev.h"

#include <stdlib.h>

#include "../timeline.h"

int twolev_init_wpu(struct wsim *s, wpu_t *u, char *err, size_t errlen)
{
    int gs = (int)s->cfg.fetch_group_size < u->ngrp ? (int)s->cfg.fetch_group_size : u->ngrp;
    u->fa_cfg = (fetcharb_config_t){
        .groups = (u->ngrp + gs - 1) / gs,
        .gsize = gs,
        .timeout = (int)s->cfg.fetch_timeout,
    };
    u->fa = block_new(s, &fetcharb_block_ops, &u->fa_cfg, u->id, &u->fa_ops, err, errlen);
    return u->fa ? 0 : -1;
}

void twolev_free_wpu(wpu_t *u)
{
    if (u->fa) u->fa_ops->free(u->fa);
    u->fa = NULL;
}

static int long_stall(const group_t *g, uint64_t now)
{
    if (!g->w || g->wait == WAIT_BARRIER) return 1;
    return g->ready_at > now && (g->wait == WAIT_FETCH || (g->wait == WAIT_MEM && g->missed));
}

int twolev_pick(struct wsim *s, wpu_t *u)
{
    fetcharb_in_t *in = &u->fin;
    u->fa_evald = 1;
    const int slots = u->fa_cfg.groups * u->fa_cfg.gsize;
    in->ready = wmask_none();
    in->stall = wmask_none();
    for (int k = 0; k < u->ngrp; k++) {
        if (u->avail[k] <= s->cycle) wmask_set(&in->ready, k);
        if (long_stall(&u->grp[k], s->cycle)) wmask_set(&in->stall, k);
    }
    for (int k = u->ngrp; k < slots; k++) wmask_set(&in->stall, k);
    u->fa_ops->eval(u->fa, in, &u->fout);
    return u->fout.grant ? u->fout.grant_idx : -1;
}

void twolev_clock(struct wsim *s, wpu_t *u, int last, int issued)
{
    fetcharb_in_t *in = &u->fin;
    /* Large warps (lwm = on): while the column picker holds the front end
     * the pipeline asks for no grant, but the arbiter is clocked every
     * clock the WPU looks, so that its edge always follows an evaluation
     * of this clock's inputs (a stale evaluation would take a switch
     * twice). Nothing is granted from it (upd_i low). */
    if (!u->fa_evald) twolev_pick(s, u);
    u->fa_evald = 0;
    in->upd = last >= 0;
    in->last = (uint16_t)(last >= 0 ? last : 0);
    /* the timeout counts instructions fetched: with large warps, a large
     * warp's instruction once, not each of its sub-warps (004 §3.3: a large
     * warp "prioritized for more than timeout instructions") */
    in->issue = (uint8_t)(issued != 0 && last >= 0);
    in->stay_we = u->sin.stay_we;
    in->stay = u->sin.stay;
    if (u->fout.sw) {
        TIMELINE(s, tl_event(s, u, -1, TL_FETCH_SWITCH, -1, wmask_none(), u->fout.nprio));
        u->st.fetch_switches++;
        if (u->fout.tmo) u->st.fetch_timeouts++;
    }
    if (s->cfg.check) u->fa_pre = *u->fout.q;
    if (s->record_fa) u->fa_ops->trace(u->fa, s->cycle, u->id, in, &u->fout, s->record_fa);
    u->fa_ops->clock(u->fa, in, &u->fout);
}

int twolev_check(const struct wsim *s, const wpu_t *u, char *msg, size_t len)
{
    const fetcharb_out_t *o = &u->fout;
    const fetcharb_in_t *in = &u->fin;
    const fetcharb_state_t *pre = &u->fa_pre;
    if (!o->q || !s->cfg.check) return 0; /* not clocked yet (fa_pre is kept only with --check) */
    const int G = u->fa_cfg.groups, S = u->fa_cfg.gsize;
    uint64_t seen = 0;
    for (int i = 0; i < G; i++) {
        int g = fetcharb_ord(&u->fa_cfg, o, i);
        if (g >= G || ((seen >> g) & 1) || g != (pre->prio + i) % G) {
            snprintf(msg, len, "WPU %d: the fetch arbiter's priority order has group %d at rank %d: not the rotation "
                     "of the %d fetch groups starting at the prioritized group %d", u->id, g, i, G, pre->prio);
            return 1;
        }
        seen |= 1ull << g;
    }
    if (o->q->prio != o->nprio || o->q->prio >= G) {
        snprintf(msg, len, "WPU %d: the fetch arbiter prioritizes group %d after the edge, its nprio was %d", u->id,
                 o->q->prio, o->nprio);
        return 1;
    }
    if (o->sw && !o->tmo)
        for (int m = 0; m < S; m++)
            if (!wmask_test(&in->stall, pre->prio * S + m)) {
                snprintf(msg, len, "WPU %d: fetch-group switch away from group %d, whose warp slot %d was not "
                         "stalled", u->id, pre->prio, pre->prio * S + m);
                return 1;
            }
    if (!o->grant) {
        if (wmask_any(&in->ready)) {
            snprintf(msg, len, "WPU %d: the fetch arbiter granted nothing with warp slot %d ready", u->id,
                     wmask_lowest(&in->ready));
            return 1;
        }
        return 0;
    }
    const int k = o->grant_idx;
    if (k >= u->ngrp || !wmask_test(&in->ready, k)) {
        snprintf(msg, len, "WPU %d: the fetch arbiter granted warp slot %d, which was not ready", u->id, k);
        return 1;
    }
    if (pre->lstay && pre->lgrant == k) return 0; /* the stay rule */
    /* no ready warp in a group ranked before the grant's, nor in the grant's
     * group between its pointer and the grant */
    const int gk = k / S;
    for (int i = 0, g = pre->prio; g != gk; i++, g = (g + 1) % G)
        for (int m = 0; m < S; m++)
            if (wmask_test(&in->ready, g * S + m)) {
                snprintf(msg, len, "WPU %d: the fetch arbiter granted warp slot %d (group %d) with slot %d of group "
                         "%d ready, which ranks %d in the priority order", u->id, k, gk, g * S + m, g, i);
                return 1;
            }
    for (int m = (pre->e[gk].rr + 1) % S; m != k % S; m = (m + 1) % S)
        if (wmask_test(&in->ready, gk * S + m)) {
            snprintf(msg, len, "WPU %d: the fetch arbiter granted warp slot %d with slot %d ready before it in its "
                     "group's round-robin order", u->id, k, gk * S + m);
            return 1;
        }
    return 0;
}
