/* Two-level warp scheduling (004 §3.2-§3.3; docs/twolevel.md): the
 * pipeline side of the fetch arbiter block (blocks/fetcharb.h). The
 * mechanism's group selection (twolev_select, chosen at machine creation
 * when scheduler = twolevel) is the fetch arbitration step of a WPU's clock
 * (wpu.c); the pipeline reaches the arbiter only through its ports. What the
 * arbiter sees of each warp slot:
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
#include <stdlib.h>
#include <string.h>

#include "../blocks/fetcharb.h"
#include "mech.h"
#include "../timeline.h"

/* A WPU's fetch arbiter: its instance (the C model or its RTL), this
 * clock's ports; pre: its registered image before the last edge (--check) */
typedef struct twolev_wpu {
    block_inst_t fa;
    fetcharb_config_t cfg;
    fetcharb_in_t in;
    fetcharb_out_t out;
    fetcharb_state_t pre;
    uint8_t evald; /* evaluated this clock (a clock the LWM picker holds is not) */
} twolev_wpu_t;

#define TL(u) ((twolev_wpu_t *)(u)->mstate[MECH_TWOLEV])

/* WPU u's arbiter: fetch groups of min(fetch_group_size, warps) warps. */
static int twolev_init_wpu(struct wsim *s, wpu_t *u, char *err, size_t errlen)
{
    twolev_wpu_t *A = mech_state_new(u, MECH_TWOLEV, sizeof *A, "the fetch arbiter", err, errlen);
    if (!A) return -1;
    int gs = (int)s->cfg.fetch_group_size < u->ngrp ? (int)s->cfg.fetch_group_size : u->ngrp;
    A->cfg = (fetcharb_config_t){
        .groups = (u->ngrp + gs - 1) / gs,
        .gsize = gs,
        .timeout = (int)s->cfg.fetch_timeout,
    };
    return block_new(s, &A->fa, &fetcharb_block_ops, &A->cfg, u->id, err, errlen);
}

static void twolev_free_wpu(struct wsim *s, wpu_t *u)
{
    (void)s;
    twolev_wpu_t *A = TL(u);
    if (!A) return;
    block_free(&A->fa);
    free(A);
    u->mstate[MECH_TWOLEV] = NULL;
}

static int long_stall(const group_t *g, uint64_t now)
{
    if (!g->w || g->wait == WAIT_BARRIER) return 1;
    return g->ready_at > now && (g->wait == WAIT_FETCH || (g->wait == WAIT_MEM && g->missed));
}

/* The arbiter's grant among u's warps this clock (its early inputs from
 * the warps' state), or -1 when none can issue. */
static int twolev_pick(struct wsim *s, wpu_t *u, int prev)
{
    (void)prev; /* (a retry: the arbiter's inputs changed, it grants anew) */
    twolev_wpu_t *A = TL(u);
    fetcharb_in_t *in = &A->in;
    A->evald = 1;
    const int slots = A->cfg.groups * A->cfg.gsize;
    in->ready = wmask_none();
    in->stall = wmask_none();
    for (int k = 0; k < u->ngrp; k++) {
        if (u->avail[k] <= s->cycle) wmask_set(&in->ready, k);
        if (long_stall(&u->grp[k], s->cycle)) wmask_set(&in->stall, k);
    }
    for (int k = u->ngrp; k < slots; k++) wmask_set(&in->stall, k);
    block_eval(&A->fa, in, &A->out);
    return A->out.grant ? A->out.grant_idx : -1;
}

/* The clock edge: last = the clock's final grant (-1: none), issued = an
 * instruction issued (counted for the timeout only when it was fetched
 * through the grant: a sub-warp the LWM picker sends while it holds the
 * front end is not a new instruction); the switch statistics. A clock in
 * which the pipeline did not ask for a grant (the picker held the front
 * end) evaluates the arbiter here first, on the clock's inputs. */
static void twolev_clock(struct wsim *s, wpu_t *u, int last, int issued)
{
    twolev_wpu_t *A = TL(u);
    fetcharb_in_t *in = &A->in;
    /* Large warps (lwm = on): while the column picker holds the front end
     * the pipeline asks for no grant, but the arbiter is clocked every
     * clock the WPU looks, so that its edge always follows an evaluation
     * of this clock's inputs (a stale evaluation would take a switch
     * twice). Nothing is granted from it (upd_i low). */
    if (!A->evald) twolev_pick(s, u, -1);
    A->evald = 0;
    in->upd = last >= 0;
    in->last = (uint16_t)(last >= 0 ? last : 0);
    /* the timeout counts instructions fetched: with large warps, a large
     * warp's instruction once, not each of its sub-warps (004 §3.3: a large
     * warp "prioritized for more than timeout instructions") */
    in->issue = (uint8_t)(issued != 0 && last >= 0);
    in->stay_we = u->stay_we;
    in->stay = u->stay;
    if (A->out.sw) {
        TIMELINE(s, tl_event(s, u, -1, TL_FETCH_SWITCH, -1, wmask_none(), A->out.nprio));
        u->st.fetch_switches++;
        if (A->out.tmo) u->st.fetch_timeouts++;
    }
    if (s->cfg.check) A->pre = *A->out.q;
    block_clock(&A->fa, s->cycle, in, &A->out);
}

static const select_ops_t twolev_select = {.pick = twolev_pick, .clock = twolev_clock};

/* --check: the last clock's priority order is a rotation of the fetch
 * groups, its grant the first ready warp in that order, the switch taken. */
static int twolev_check(const struct wsim *s, const wpu_t *u, char *msg, size_t len)
{
    const twolev_wpu_t *A = TL(u);
    const fetcharb_out_t *o = &A->out;
    const fetcharb_in_t *in = &A->in;
    const fetcharb_state_t *pre = &A->pre;
    if (!o->q || !s->cfg.check) return 0; /* not clocked yet (pre is kept only with --check) */
    const int G = A->cfg.groups, S = A->cfg.gsize;
    uint64_t seen = 0;
    for (int i = 0; i < G; i++) {
        int g = fetcharb_ord(&A->cfg, o, i);
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

/* --check's own test: with two or more fetch groups, the first two ranks
 * of WPU u's priority order output swap. */
static int twolev_inject(struct wsim *s, wpu_t *u)
{
    (void)s;
    twolev_wpu_t *A = TL(u);
    if (!A->out.q || A->cfg.groups < 2) return 0;
    const int w = fetcharb_port_width(&A->cfg, FETCHARB_P_prio);
    int r0 = fetcharb_ord(&A->cfg, &A->out, 0), r1 = fetcharb_ord(&A->cfg, &A->out, 1);
    for (int b = 0; b < w; b++) {
        wmask_clear(&A->out.ord, b);
        wmask_clear(&A->out.ord, w + b);
        if ((r1 >> b) & 1) wmask_set(&A->out.ord, b);
        if ((r0 >> b) & 1) wmask_set(&A->out.ord, w + b);
    }
    return 1;
}

/* The watchdog: without a timeout, a warp whose groups are ready waits for
 * its fetch group's turn while the prioritized group keeps issuing (004
 * §3.3, the reason for the timeout). It is starved by the policy, not
 * stuck: its turn comes when that group stalls or finishes (max_cycles
 * bounds a group that never does). */
static int twolev_starves(const struct wsim *s, const wpu_t *u, const warp_t *w)
{
    if (s->cfg.fetch_timeout) return 0;
    for (int j = 0; j < u->ngrp; j++) /* its groups could issue (one refused an MSHR is no policy's doing: the line serves it) */
        if (u->grp[j].w == w && u->grp[j].wait != WAIT_BARRIER &&
            (u->grp[j].wait == WAIT_MEM || u->grp[j].ready_at > s->cycle))
            return 0;
    for (int j = 0; j < s->nwarps; j++) /* and another warp issued since the watchdog's last look */
        if (&u->warp[j] != w && u->warp[j].gid >= 0 && u->warp[j].last_issue >= s->last_watch)
            return 1;
    return 0;
}

static void twolev_stats(const struct wsim *s, const stats_t *t, FILE *out, int json)
{
    if (json) return; /* (its counters are stats.def's) */
    const fetcharb_config_t *fc = &TL(&s->wpu[0])->cfg;
    fprintf(out, "  fetch groups          %d of %d warps; switches %llu (timeout %llu)\n", fc->groups, fc->gsize,
            (unsigned long long)t->fetch_switches, (unsigned long long)t->fetch_timeouts);
}

const mech_ops_t twolev_mech = {
    .name = "twolevel",
    .select = &twolev_select,
    .only_selects = 1,
    .init_wpu = twolev_init_wpu,
    .free_wpu = twolev_free_wpu,
    .check_wpu = twolev_check,
    .stats = twolev_stats,
    .inject = twolev_inject,
    .starves = twolev_starves,
};
