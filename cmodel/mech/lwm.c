/* The large warp microarchitecture (seed 004 §3.1; docs/lwm.md): the
 * pipeline side of the sub-warp column picker (blocks/colpick.*).
 *
 * A large warp is a warp of K x N consecutive threads (warp_size = K x
 * lanes; config.c) with one PC and one re-convergence stack: the pipeline
 * fetches and executes it as one SIMD group (functional-first: every active
 * thread's effect happens when the large warp is fetched). Its timing is
 * this module's: the column picker, reached only through its ports, breaks
 * each of its instructions into sub-warps of at most one thread per lane,
 * one sub-warp per clock; while bits remain the picker holds the front end
 * (the `hold` hook: fetch stalls) and each clock issues the next sub-warp
 * into the 5-stage back end.
 *
 *  - Dependency bits (one per thread): a thread packed into a sub-warp that
 *    has not completed is not packed again (the picker's dep_i), from the
 *    time each thread's last sub-warp completes (done_at).
 *  - Barrel processing, relaxed: a large warp is reconsidered for fetch when
 *    its first sub-warp completes; after a conditional branch (and, our
 *    choice, a load/store: the whole warp waits for its access, as a
 *    baseline warp does on a miss) only when its last sub-warp completes.
 *    The temporary active-mask buffers of a branch need no state of their
 *    own here: the stack is updated at fetch (functional-first), and the
 *    warp is not fetched again before its last sub-warp completes, which is
 *    when the buffers would be written to the stack: the timing is the same.
 *  - Unconditional jumps (jal x0): one sub-warp (the picker's one_i).
 *  - Each sub-warp of a load/store is one access of the memory system in
 *    the clock it issues, which this module asks the pipeline for (u->mreq:
 *    the pipeline times it through its one door and answers through the
 *    mem_done hook; it leaves an lwm WPU's whole loads and stores untimed:
 *    wpu_t.mech_mem); the functional access happened at fetch
 *    (docs/lwm.md: why the results cannot differ). A sub-warp that misses
 *    while every MSHR is busy is refused (the picker's take_i low), and its
 *    large warp set aside with the threads it has left (drop_i) until an
 *    MSHR frees, as a baseline warp is; the picker serves others meanwhile.
 *
 * It changes timing only: fetch order and when a warp may be fetched again. */
#include <stdlib.h>
#include <string.h>

#include "../blocks/colpick.h"
#include "mech.h"
#include "../timeline.h"

/* A large warp's instruction from its fetch to its last sub-warp. */
typedef struct lwm_inst {
    int gid;              /* the warp when it was fetched (the slot may get a new warp) */
    wmask_t loaded, sent; /* its threads; those in its sub-warps so far */
    wmask_t pend;         /* set aside: the threads still to send */
    uint8_t active;       /* between fetch and the last sub-warp */
    uint8_t aside;        /* set aside (a sub-warp refused for want of an MSHR) until retry */
    uint8_t all;          /* refetch when the last sub-warp completes (branch, load/store) */
    uint8_t keep;         /* a barrier: the barrier decides when the warp runs again */
    uint8_t first;        /* its first sub-warp issued */
    uint8_t mem, store;   /* a load/store: its sub-warps access memory */
    uint64_t lat;         /* a sub-warp completes this long after it issues (ALU) */
    uint64_t last_done;   /* the latest completion of its sub-warps */
    uint64_t retry;       /* set aside: when an MSHR frees */
    wmask_t mlanes;       /* a load/store: the threads whose access reaches memory (the others faulted) */
    uint32_t addr[WSIM_MAX_LANES]; /* ... and their addresses */
} lwm_inst_t;

typedef struct lwm_wpu {
    /* the column picker block: its instance (the C model or its RTL), this clock's ports */
    block_inst_t pick;
    colpick_config_t cfg;
    colpick_in_t in;
    colpick_out_t out;
    int evaluated; /* evaluated this clock: its edge comes with the block clocks */
    group_t *g;    /* the large warp whose instruction is in the picker (NULL: none) */
    /* this clock's pick while the pipeline times its access (pick_end) */
    group_t *pg;
    int pload, pone;
    wmask_t pmask;
    int ask; /* the set-aside warp whose MSHR question is out (-1: none) */
    lwm_inst_t *inst; /* [ngrp]: each large warp's instruction */
    int naside;       /* large warps set aside */
    uint64_t *done_at; /* [ngrp * warp_size]: when each thread's last sub-warp completes */
    /* statistics */
    uint64_t insts, subwarps, threads, jumps, dep_waits, asides;
    uint64_t size[WSIM_MAX_LANES + 1]; /* sub-warps by threads (0: clocks the picker issued nothing) */
} lwm_wpu_t;

#define LW(u) ((lwm_wpu_t *)(u)->mstate[MECH_LWM])

/* The dependency bits of g's threads in `of` now: their last sub-warp has
 * not completed. (The picker only looks at the bits of the threads it may
 * pick, so only those are worked out.) */
static wmask_t dep_bits(const struct wsim *s, const lwm_wpu_t *L, const group_t *g, wmask_t of)
{
    wmask_t m = wmask_none();
    const uint64_t *d = L->done_at + (size_t)g->id * (size_t)s->warp_size;
    WMASK_FOREACH(of, t) if (d[t] > s->cycle) wmask_set(&m, t);
    return m;
}

static int alive(const group_t *g, const lwm_inst_t *I) { return g->w && g->w->gid == I->gid; }

/* One clock of the picker: evaluate it on g's instruction (load: from
 * `mask`, at fetch or when g comes back from aside), issue the sub-warp it
 * picks. Returns the sub-warp's threads (0: nothing issued), or -1 when the
 * sub-warp accesses memory: the pipeline times it first (u->mreq; its
 * answer comes to pick_end through the mem_done hook). */
static int pick_clock(struct wsim *s, wpu_t *u, group_t *g, int load, wmask_t mask, int one);
static int pick_end(struct wsim *s, wpu_t *u, const mem_result_t *r, uint64_t retry);

static int pick_clock(struct wsim *s, wpu_t *u, group_t *g, int load, wmask_t mask, int one)
{
    lwm_wpu_t *L = LW(u);
    lwm_inst_t *I = &L->inst[g->id];
    L->g = g;
    L->in.load = (uint8_t)load;
    L->in.mask = mask;
    L->in.one = (uint8_t)one;
    L->in.dep = dep_bits(s, L, g, load ? mask : L->out.q->work);
    L->in.take = 1;
    L->in.drop = 0;
    block_eval(&L->pick, &L->in, &L->out);
    L->evaluated = 1;
    const wmask_t acc = wmask_and(L->out.pick, I->mlanes);
    L->pg = g, L->pload = load, L->pmask = mask, L->pone = one;
    if (L->out.cnt && I->mem && !one && wmask_any(&acc)) { /* the sub-warp's access, as a baseline warp's */
        u->mreq = (mem_req_t){.by = &lwm_mech, .addr = I->addr, .lanes = acc, .store = I->store, .gid = g->w->gid,
                              .kind = MEM_SUBWARP};
        return -1;
    }
    return pick_end(s, u, NULL, 0);
}

/* The rest of the picker's clock: r, the sub-warp's access (NULL: none, or
 * refused when it asked for one: retry is when an MSHR frees). */
static int pick_end(struct wsim *s, wpu_t *u, const mem_result_t *r, uint64_t retry)
{
    lwm_wpu_t *L = LW(u);
    group_t *g = L->pg;
    lwm_inst_t *I = &L->inst[g->id];
    const int load = L->pload, one = L->pone;
    const wmask_t mask = L->pmask;
    int n = L->out.cnt;
    if (!r && n && I->mem && !one) {
        const wmask_t acc = wmask_and(L->out.pick, I->mlanes);
        if (wmask_any(&acc)) {
            /* every L1 D MSHR is busy and the sub-warp misses: the back end refuses it
             * (take_i low; the pipeline counted the MSHR stall) and the large warp is
             * set aside with the threads it has left (004 §2.2: a warp that misses is
             * put aside and the others flow), the picker emptied (drop_i) for the
             * next one; it comes back when an MSHR frees */
            L->in.take = 0;
            L->in.drop = 1;
            I->pend = load ? mask : L->out.q->work;
            I->aside = 1;
            I->retry = retry > s->cycle ? retry : s->cycle + 1;
            g->missed = 1; /* a long-latency wait, for two-level scheduling (mech/twolev.c) */
            L->naside++;
            L->asides++;
            L->size[0]++;
            L->g = NULL;
            return 0;
        }
    }
    L->size[n]++;
    if (n) {
        TIMELINE(s, tl_subwarp(s, u, g, L->out.pick, n));
        uint64_t done = s->cycle + I->lat;
        if (r) { /* its access (the pipeline counted its misses) */
            /* the large warp waits on a miss: a long-latency stall for
             * two-level scheduling (mech/twolev.c), until its last sub-warp's
             * access completes */
            if (wmask_any(&r->miss) && alive(g, I)) g->missed = 1;
            if (r->ready > done) done = r->ready;
        }
        if (one) {
            L->jumps++;
            I->sent = I->loaded; /* the rest is dropped: a jump needs one PC update */
        } else {
            /* a barrier writes no register: its threads wait for the release, not on a bit */
            uint64_t *d = L->done_at + (size_t)g->id * (size_t)s->warp_size;
            if (!I->keep) WMASK_FOREACH(L->out.pick, t) d[t] = done;
            I->sent = wmask_or(I->sent, L->out.pick);
        }
        L->subwarps++;
        L->threads += (uint64_t)n;
        if (done > I->last_done) I->last_done = done;
        if (!I->first) { /* relaxed re-fetch: the warp is reconsidered when its first sub-warp completes */
            I->first = 1;
            if (!I->all && !I->keep && alive(g, I)) {
                g->ready_at = done;
                group_sync_avail(u, g);
            }
        }
    } else if (L->out.stall) {
        L->dep_waits++;
    }
    if (!L->out.stall) { /* the last sub-warp: the picker is free for the next large warp */
        if ((I->all || !I->first) && !I->keep && alive(g, I)) {
            g->ready_at = I->first ? I->last_done : s->cycle + I->lat;
            group_sync_avail(u, g);
        }
        I->active = 0;
        L->g = NULL;
    }
    return n;
}

/* ---- hooks ---- */

static int lwm_init_wpu(struct wsim *s, wpu_t *u, char *err, size_t errlen)
{
    lwm_wpu_t *L = mech_state_new(u, MECH_LWM, sizeof *L, "the large warps' state", err, errlen);
    if (!L) return -1;
    L->done_at = calloc((size_t)u->ngrp * (size_t)s->warp_size, sizeof *L->done_at);
    L->inst = calloc((size_t)u->ngrp, sizeof *L->inst);
    L->cfg = (colpick_config_t){.rows = s->warp_size / s->lanes, .cols = s->lanes};
    L->ask = -1;
    if (!L->done_at || !L->inst) {
        snprintf(err, errlen, "out of host memory for the large warps' state");
        return -1;
    }
    /* config.c's checks rule a bad shape out */
    if (block_new(s, &L->pick, &colpick_block_ops, &L->cfg, u->id, err, errlen) < 0) return -1;
    u->mech_mem = 1;
    return 0;
}

static void lwm_free_wpu(struct wsim *s, wpu_t *u)
{
    (void)s;
    lwm_wpu_t *L = LW(u);
    if (!L) return;
    block_free(&L->pick);
    free(L->done_at);
    free(L->inst);
    free(L);
    u->mstate[MECH_LWM] = NULL;
}

static void lwm_launch(struct wsim *s, wpu_t *u, group_t *root, int initial)
{
    (void)initial;
    uint64_t *d = LW(u)->done_at + (size_t)root->id * (size_t)s->warp_size;
    for (int t = 0; t < s->warp_size; t++) d[t] = 0;
}

/* The large warp was fetched and executed (issue() in wpu.c): its
 * instruction enters the column picker, whose first sub-warp issues in this
 * same clock (sub-warps are made in parallel with decode). */
static void lwm_after_issue(struct wsim *s, wpu_t *u, group_t *g, const issue_t *is)
{
    lwm_wpu_t *L = LW(u);
    lwm_inst_t *I = &L->inst[g->id];
    const int cls = is->x->cls;
    L->insts++;
    I->active = 1;
    I->aside = 0;
    I->gid = g->w->gid;
    I->loaded = is->lanes_before;
    I->sent = I->pend = wmask_none();
    I->first = 0;
    I->keep = g->wait == WAIT_BARRIER || cls == ISA_CLASS_BARRIER;
    I->mem = cls == ISA_CLASS_LOAD || cls == ISA_CLASS_STORE;
    I->store = cls == ISA_CLASS_STORE;
    I->all = cls == ISA_CLASS_BRANCH || I->mem;
    I->last_done = 0;
    if (I->mem) { /* every thread's address (issue_t.addr) */
        I->mlanes = is->lanes_before;
        if (is->x->ev & EXEC_FAULTED) I->mlanes = wmask_andnot(I->mlanes, is->x->faulted);
        WMASK_FOREACH(I->mlanes, t) I->addr[t] = is->addr[t];
    } else {
        I->mlanes = wmask_none();
    }
    /* a sub-warp's latency: what issue() made of the instruction's (the
     * class latency raised to the pipeline depth); a load/store's sub-warps
     * take their access's */
    I->lat = I->keep || g->ready_at <= s->cycle ? s->cfg.pipeline_depth : g->ready_at - s->cycle;
    if (I->lat < s->cfg.pipeline_depth) I->lat = s->cfg.pipeline_depth;
    if (!I->keep) {
        g->ready_at = NEVER; /* until its first (or last) sub-warp issues (issue() syncs avail) */
        if (I->mem) g->wait = WAIT_MEM, g->missed = 0; /* until one of its sub-warps misses */
    }
    u->stay = 0; /* fetch is round-robin among the large warps (004 §5.2), whatever switch_on says */
    const int one = is->d && cls == ISA_CLASS_JAL && is->d->rd == ISA_X0_SINK;
    pick_clock(s, u, g, 1, I->loaded, one);
}

/* What the picker's clock made of it, as hold answers: a sub-warp issued,
 * nothing did, or an access to time first. */
static clock_use_t held(int n) { return n < 0 ? CLOCK_MEM : n ? CLOCK_ISSUED : CLOCK_USED; }

/* Large warps set aside from slot k on: the first whose MSHR wait is over
 * and that may have its MSHR goes back into the picker (0: none). Whether
 * the threads it has left still find no MSHR is the pipeline's question
 * before it fetches a load/store, asked for it (MEM_ASK; the answer comes to
 * lwm_mem_done): still none, it stays aside (no clock spent). */
static clock_use_t aside_scan(struct wsim *s, wpu_t *u, int k)
{
    lwm_wpu_t *L = LW(u);
    for (; k < u->ngrp; k++) {
        lwm_inst_t *I = &L->inst[k];
        if (!I->aside || I->retry > s->cycle) continue;
        const wmask_t left = wmask_and(I->pend, I->mlanes);
        if (wmask_any(&left)) {
            L->ask = k;
            u->mreq = (mem_req_t){.by = &lwm_mech, .addr = I->addr, .lanes = left, .store = I->store,
                                  .gid = u->grp[k].w->gid, .kind = MEM_ASK};
            return CLOCK_MEM;
        }
        I->aside = 0;
        L->naside--;
        return held(pick_clock(s, u, &u->grp[k], 1, I->pend, 0));
    }
    return CLOCK_OPEN;
}

/* The start of a clock: the picker, busy, sends its next sub-warp; free, it
 * takes back a large warp set aside whose MSHR wait is over (before fetch:
 * its instruction is older), lowest slot first. (A large warp's first fetch
 * of a load/store passes the pipeline's MSHR check for all its threads, as a
 * baseline warp's does.) */
static clock_use_t lwm_hold(struct wsim *s, wpu_t *u)
{
    lwm_wpu_t *L = LW(u);
    if (L->g) return held(pick_clock(s, u, L->g, 0, wmask_none(), 0));
    if (!L->naside) return CLOCK_OPEN;
    return aside_scan(s, u, 0);
}

/* The pipeline's answer to the access asked for: a set-aside warp's MSHR
 * question, or a sub-warp's access (r; NULL: refused). */
static clock_use_t lwm_mem_done(struct wsim *s, wpu_t *u, const mem_result_t *r, uint64_t retry)
{
    lwm_wpu_t *L = LW(u);
    const int k = L->ask;
    if (k < 0) return held(pick_end(s, u, r, retry));
    L->ask = -1;
    lwm_inst_t *I = &L->inst[k];
    if (!r) { /* still no MSHR: it stays aside */
        I->retry = retry > s->cycle ? retry : s->cycle + 1;
        return aside_scan(s, u, k + 1);
    }
    I->aside = 0;
    L->naside--;
    return held(pick_clock(s, u, &u->grp[k], 1, I->pend, 0));
}

static void lwm_clock(struct wsim *s, wpu_t *u)
{
    lwm_wpu_t *L = LW(u);
    if (!L->evaluated) return; /* an idle picker: its edge changes nothing (nor is it recorded) */
    block_clock(&L->pick, s->cycle, &L->in, &L->out);
    L->evaluated = 0;
}

static uint64_t lwm_next_ready(const struct wsim *s, const wpu_t *u, uint64_t nr)
{
    const lwm_wpu_t *L = LW(u);
    /* the picker works every clock while it holds an instruction */
    if (L->g) return s->cycle + 1 < nr ? s->cycle + 1 : nr;
    for (int k = 0; L->naside && k < u->ngrp; k++)
        if (L->inst[k].aside && L->inst[k].retry < nr) nr = L->inst[k].retry;
    return nr;
}

/* --check: for every large warp's instruction, the sub-warps sent so far and
 * the threads still to send (the picker's working copy, or the warp's own
 * while it is set aside) partition its threads; the picker is empty when it
 * holds nothing; no two threads of a sub-warp share a column. */
static int lwm_check_wpu(const struct wsim *s, const wpu_t *u, char *msg, size_t len)
{
    const lwm_wpu_t *L = LW(u);
    if (!L->out.q) return 0; /* not evaluated yet */
    char a[WSIM_MAX_LANES / 4 + 2], b[WSIM_MAX_LANES / 4 + 2];
    const wmask_t work = L->out.q->work;
    if (!L->g && wmask_any(&work)) {
        wmask_hex(&work, s->warp_size, a);
        snprintf(msg, len, "WPU %d: column picker idle with threads %s in its working copy", u->id, a);
        return 1;
    }
    int aside = 0;
    for (int k = 0; k < u->ngrp; k++) {
        const lwm_inst_t *I = &L->inst[k];
        if (!I->active) continue;
        aside += I->aside;
        if (I->aside && &u->grp[k] == L->g) {
            snprintf(msg, len, "WPU %d: large warp %d is set aside and in the picker", u->id, k);
            return 1;
        }
        if (!I->aside && &u->grp[k] != L->g) continue; /* its last sub-warp went */
        const wmask_t left = I->aside ? I->pend : work;
        wmask_t both = wmask_and(left, I->sent), all = wmask_or(left, I->sent);
        if (wmask_any(&both) || !wmask_eq(&all, &I->loaded)) {
            wmask_hex(&all, s->warp_size, a);
            wmask_hex(&I->loaded, s->warp_size, b);
            snprintf(msg, len, "WPU %d: large warp %d: sub-warps sent and threads left hold %s%s, its "
                     "instruction's threads are %s", u->id, k, a, wmask_any(&both) ? " (overlapping)" : "", b);
            return 1;
        }
    }
    if (aside != L->naside) {
        snprintf(msg, len, "WPU %d: %d large warps set aside, the count says %d", u->id, aside, L->naside);
        return 1;
    }
    /* the last sub-warp: one thread per column at most */
    const int N = L->cfg.cols;
    uint64_t cols = 0;
    for (int r = 0; r < L->cfg.rows; r++) { /* (a row's N <= 64 columns at a time) */
        const uint64_t row = wmask_bits(&L->out.pick, r * N, N), twice = cols & row;
        if (twice) {
            snprintf(msg, len, "WPU %d: a sub-warp holds two threads of column %d", u->id, __builtin_ctzll(twice));
            return 1;
        }
        cols |= row;
    }
    return 0;
}

static void lwm_counters(struct wsim *s, wpu_t *u, counter_visit_fn *f, void *ctx)
{
    lwm_wpu_t *L = LW(u);
    uint64_t *each[] = {&L->insts, &L->subwarps, &L->threads, &L->jumps, &L->dep_waits, &L->asides};
    for (size_t i = 0; i < sizeof each / sizeof each[0]; i++) f(ctx, each[i], 1);
    f(ctx, L->size, (size_t)s->lanes + 1);
}

static void lwm_stats(const struct wsim *s, const stats_t *t, FILE *out, int json)
{
    (void)t;
    uint64_t insts = 0, subs = 0, thr = 0, jumps = 0, waits = 0, asides = 0, ti = 0, size[WSIM_MAX_LANES + 1] = {0};
    for (int i = 0; i < s->nwpus; i++) {
        const lwm_wpu_t *L = LW(&s->wpu[i]);
        insts += L->insts, subs += L->subwarps, thr += L->threads, jumps += L->jumps, waits += L->dep_waits;
        asides += L->asides;
        ti += s->wpu[i].st.thread_insts;
        for (int k = 0; k <= s->lanes; k++) size[k] += L->size[k];
    }
    /* idle functional-unit cycles (004 Fig. 1, 9): WPU cycles in which no sub-warp issued */
    uint64_t idle = (uint64_t)s->nwpus * s->cycle - subs;
    double per = insts ? (double)subs / (double)insts : 0.0;
    double util = subs ? (double)thr / ((double)subs * s->lanes) : 0.0;
    double ipc = s->cycle ? (double)ti / (double)s->cycle : 0.0;
    if (json) {
        fprintf(out, "  \"lwm\": {\n    \"rows\": %d,\n    \"large_warp_insts\": %llu,\n    \"subwarps\": %llu,\n"
                     "    \"subwarp_threads\": %llu,\n    \"jumps\": %llu,\n    \"dep_waits\": %llu,\n    \"set_aside\": %llu,\n"
                     "    \"fu_idle_cycles\": %llu,\n    \"subwarps_per_inst\": %.6f,\n"
                     "    \"lane_utilization\": %.6f,\n    \"ipc\": %.6f,\n    \"subwarp_size\": [",
                s->warp_size / s->lanes, (unsigned long long)insts, (unsigned long long)subs,
                (unsigned long long)thr, (unsigned long long)jumps, (unsigned long long)waits,
                (unsigned long long)asides, (unsigned long long)idle, per, util, ipc);
        for (int k = 0; k <= s->lanes; k++) fprintf(out, "%s%llu", k ? ", " : "", (unsigned long long)size[k]);
        fprintf(out, "]\n  },\n");
        return;
    }
    fprintf(out, "  large warps           %d x %d threads; %llu instructions in %llu sub-warps (%.2f each, %llu "
                 "one-sub-warp jumps), lane utilization %.4f\n",
            s->warp_size / s->lanes, s->lanes, (unsigned long long)insts, (unsigned long long)subs, per,
            (unsigned long long)jumps, util);
    fprintf(out, "  functional units      idle %llu cycles (no sub-warp); picker waited on dependency bits %llu; "
                 "set aside for an MSHR %llu; IPC %.4f\n",
            (unsigned long long)idle, (unsigned long long)waits, (unsigned long long)asides, ipc);
}

const mech_ops_t lwm_mech = {
    .name = "lwm",
    .init_wpu = lwm_init_wpu,
    .free_wpu = lwm_free_wpu,
    .launch = lwm_launch,
    .after_issue = lwm_after_issue,
    .hold = lwm_hold,
    .mem_done = lwm_mem_done,
    .clock = lwm_clock,
    .next_ready = lwm_next_ready,
    .check_wpu = lwm_check_wpu,
    .counters = lwm_counters,
    .stats = lwm_stats,
};
