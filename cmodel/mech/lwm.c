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
 *    the clock it issues, refused (the picker's take_i low: it comes again)
 *    while every MSHR is busy and it misses, as a baseline warp is (the pipeline leaves the loads and stores of an
 *    lwm WPU untimed: wpu_t.mech_mem); the functional access happened at
 *    fetch (docs/lwm.md: why the results cannot differ).
 *
 * It changes timing only: fetch order and when a warp may be fetched again. */
#include <stdlib.h>

#include "../blocks/colpick.h"
#include "mech.h"

typedef struct lwm_wpu {
    /* the column picker block: its ops (the C model), instance, this clock's ports */
    const block_ops_t *ops;
    void *pick;
    colpick_config_t cfg;
    colpick_in_t in;
    colpick_out_t out;
    int evaluated; /* evaluated this clock: its edge comes with the block clocks */
    /* the instruction in the picker (g NULL: none) */
    group_t *g;
    int gid;              /* g's warp when it was loaded (the slot may get a new warp) */
    wmask_t loaded, sent; /* its threads; those in its sub-warps so far */
    uint8_t all;          /* refetch when the last sub-warp completes (branch, load/store) */
    uint8_t keep;         /* a barrier: the barrier decides when g runs again */
    uint8_t first;        /* its first sub-warp issued */
    uint64_t lat;         /* a sub-warp completes this long after it issues (ALU) */
    uint8_t mem, store;   /* a load/store: its sub-warps access memory */
    wmask_t mlanes;       /* ... the threads whose access reaches memory (the others faulted) */
    uint32_t addr[WSIM_MAX_LANES]; /* ... and their addresses */
    uint64_t last_done;   /* the latest completion of its sub-warps */
    uint64_t *done_at;    /* [ngrp * warp_size]: when each thread's last sub-warp completes */
    /* statistics */
    uint64_t insts, subwarps, threads, jumps, dep_waits;
    uint64_t size[WSIM_MAX_LANES + 1]; /* sub-warps by threads (0: clocks the picker picked nothing) */
} lwm_wpu_t;

/* The dependency bits of g's threads now: their last sub-warp has not completed. */
static wmask_t dep_bits(const struct wsim *s, const lwm_wpu_t *L, const group_t *g)
{
    wmask_t m = wmask_none();
    const uint64_t *d = L->done_at + (size_t)g->id * (size_t)s->warp_size;
    for (int t = 0; t < s->warp_size; t++)
        if (d[t] > s->cycle) wmask_set(&m, t);
    return m;
}

static int alive(const lwm_wpu_t *L) { return L->g->w && L->g->w->gid == L->gid; }

/* One clock of the picker: evaluate it on the instruction in it (load: a
 * new one), issue the sub-warp it picks. Returns the sub-warp's threads. */
static int pick_clock(struct wsim *s, wpu_t *u, int load, wmask_t mask, int one)
{
    lwm_wpu_t *L = u->lwm;
    group_t *g = L->g;
    L->in.load = (uint8_t)load;
    L->in.mask = mask;
    L->in.one = (uint8_t)one;
    L->in.dep = dep_bits(s, L, g);
    L->in.take = 1;
    L->ops->eval(L->pick, &L->in, &L->out);
    L->evaluated = 1;
    int n = L->out.cnt;
    const wmask_t acc = wmask_and(L->out.pick, L->mlanes);
    uint64_t retry;
    if (n && L->mem && !one && wmask_any(&acc) &&
        memsys_must_wait(&s->ms, u->id, s->cycle, L->addr, acc, L->store, &retry)) {
        /* every L1 D MSHR is busy and the sub-warp misses: the back end refuses it
         * (take_i low), it comes again next clock; the front end stays stalled */
        u->st.mshr_stalls++;
        L->in.take = 0;
        L->size[0]++;
        return 0;
    }
    L->size[n]++;
    if (n) {
        uint64_t done = s->cycle + L->lat;
        if (L->mem && !one && wmask_any(&acc)) { /* the sub-warp's access, as a baseline warp's */
            mem_result_t r;
            memsys_access(&s->ms, u->id, s->cycle, L->addr, acc, L->store, &r);
            int misses = wmask_count(&r.miss);
            if (misses) u->st.mem_miss_insts++;
            if (misses && wmask_any(&r.hit)) u->st.mem_div_insts++;
            if (r.ready > done) done = r.ready;
        }
        if (one) {
            L->jumps++;
            L->sent = L->loaded; /* the rest is dropped: a jump needs one PC update */
        } else {
            uint64_t *d = L->done_at + (size_t)g->id * (size_t)s->warp_size;
            WMASK_FOREACH(L->out.pick, t) d[t] = done;
            L->sent = wmask_or(L->sent, L->out.pick);
        }
        L->subwarps++;
        L->threads += (uint64_t)n;
        if (done > L->last_done) L->last_done = done;
        if (!L->first) { /* relaxed re-fetch: the warp is reconsidered when its first sub-warp completes */
            L->first = 1;
            if (!L->all && !L->keep && alive(L)) {
                g->ready_at = done;
                group_sync_avail(u, g);
            }
        }
    } else if (L->out.stall) {
        L->dep_waits++;
    }
    if (!L->out.stall) { /* the last sub-warp: the picker is free for the next large warp */
        if ((L->all || !L->first) && !L->keep && alive(L)) {
            g->ready_at = L->first ? L->last_done : s->cycle + L->lat;
            group_sync_avail(u, g);
        }
        L->g = NULL;
    }
    return n;
}

/* ---- hooks ---- */

static void lwm_init_wpu(struct wsim *s, wpu_t *u)
{
    lwm_wpu_t *L = calloc(1, sizeof *L);
    char err[256] = "out of host memory";
    if (L) {
        L->done_at = calloc((size_t)u->ngrp * (size_t)s->warp_size, sizeof *L->done_at);
        L->cfg = (colpick_config_t){.rows = s->warp_size / s->lanes, .cols = s->lanes};
            L->ops = &colpick_block_ops;
    }
    if (!L || !L->done_at || !(L->pick = L->ops->init(&L->cfg, err, sizeof err))) {
        /* config.c's checks rule a bad shape out; memory is the only way here */
        fprintf(stderr, "wpusim: lwm: %s\n", err);
        exit(2);
    }
    u->lwm = L;
    u->mech_mem = 1;
}

static void lwm_free_wpu(struct wsim *s, wpu_t *u)
{
    (void)s;
    lwm_wpu_t *L = u->lwm;
    if (!L) return;
    if (L->pick) L->ops->free(L->pick);
    free(L->done_at);
    free(L);
    u->lwm = NULL;
}

static void lwm_launch(struct wsim *s, wpu_t *u, group_t *root, int initial)
{
    (void)initial;
    uint64_t *d = u->lwm->done_at + (size_t)root->id * (size_t)s->warp_size;
    for (int t = 0; t < s->warp_size; t++) d[t] = 0;
}

/* The large warp was fetched and executed (issue() in wpu.c): its
 * instruction enters the column picker, whose first sub-warp issues in this
 * same clock (sub-warps are made in parallel with decode). */
static void lwm_after_issue(struct wsim *s, wpu_t *u, group_t *g, const issue_t *is)
{
    lwm_wpu_t *L = u->lwm;
    const int cls = is->x->cls;
    L->insts++;
    L->g = g;
    L->gid = g->w->gid;
    L->loaded = is->lanes_before;
    L->sent = wmask_none();
    L->first = 0;
    L->keep = g->wait == WAIT_BARRIER || cls == ISA_CLASS_BARRIER;
    L->mem = cls == ISA_CLASS_LOAD || cls == ISA_CLASS_STORE;
    L->store = cls == ISA_CLASS_STORE;
    L->all = cls == ISA_CLASS_BRANCH || L->mem;
    L->last_done = 0;
    if (L->mem) { /* exec left every thread's address in s->addr */
        L->mlanes = is->lanes_before;
        if (is->x->ev & EXEC_FAULTED) L->mlanes = wmask_andnot(L->mlanes, is->x->faulted);
        WMASK_FOREACH(L->mlanes, t) L->addr[t] = s->addr[t];
    } else {
        L->mlanes = wmask_none();
    }
    /* a sub-warp's latency: what issue() made of the instruction's (the
     * class latency raised to the pipeline depth); a load/store's sub-warps
     * take their access's */
    L->lat = L->keep || g->ready_at <= s->cycle ? s->cfg.pipeline_depth : g->ready_at - s->cycle;
    if (L->lat < s->cfg.pipeline_depth) L->lat = s->cfg.pipeline_depth;
    if (!L->keep) {
        g->ready_at = NEVER; /* until its first (or last) sub-warp issues (issue() syncs avail) */
        if (L->mem) g->wait = WAIT_MEM;
    }
    u->sin.stay = 0; /* fetch is round-robin among the large warps (004 §5.2), whatever switch_on says */
    const int one = is->d && cls == ISA_CLASS_JAL && is->d->rd == ISA_X0_SINK;
    pick_clock(s, u, 1, L->loaded, one);
}

static int lwm_hold(struct wsim *s, wpu_t *u)
{
    if (!u->lwm->g) return 0;
    return pick_clock(s, u, 0, wmask_none(), 0) ? 1 : 2;
}

static void lwm_clock(struct wsim *s, wpu_t *u)
{
    lwm_wpu_t *L = u->lwm;
    if (!L->evaluated) return; /* an idle picker: its edge changes nothing (nor is it recorded) */
    if (s->record_colpick) L->ops->trace(L->pick, s->cycle, u->id, &L->in, &L->out, s->record_colpick);
    L->ops->clock(L->pick, &L->in, &L->out);
    L->evaluated = 0;
}

static uint64_t lwm_next_ready(const struct wsim *s, const wpu_t *u, uint64_t nr)
{
    /* the picker works every clock while it holds an instruction */
    return u->lwm->g && s->cycle + 1 < nr ? s->cycle + 1 : nr;
}

/* --check: the picker's working copy and the sub-warps sent so far partition
 * the instruction's threads; no two threads of a sub-warp share a column. */
static int lwm_check_wpu(const struct wsim *s, const wpu_t *u, char *msg, size_t len)
{
    const lwm_wpu_t *L = u->lwm;
    if (!L->out.q) return 0; /* not evaluated yet */
    char a[WSIM_MAX_LANES / 4 + 2], b[WSIM_MAX_LANES / 4 + 2];
    const wmask_t work = L->out.q->work;
    if (!L->g) {
        if (wmask_any(&work)) {
            wmask_hex(&work, s->warp_size, a);
            snprintf(msg, len, "WPU %d: column picker idle with threads %s in its working copy", u->id, a);
            return 1;
        }
    } else {
        wmask_t both = wmask_and(work, L->sent), all = wmask_or(work, L->sent);
        if (wmask_any(&both) || !wmask_eq(&all, &L->loaded)) {
            wmask_hex(&all, s->warp_size, a);
            wmask_hex(&L->loaded, s->warp_size, b);
            snprintf(msg, len, "WPU %d: large warp %d: sub-warps sent and the picker's working copy hold %s%s, "
                     "its instruction's threads are %s", u->id, L->g->w ? L->g->w->slot : -1, a,
                     wmask_any(&both) ? " (overlapping)" : "", b);
            return 1;
        }
    }
    /* the last sub-warp: one thread per column at most */
    const int N = L->cfg.cols;
    uint64_t cols = 0;
    for (int r = 0; r < L->cfg.rows; r++)
        for (int c = 0; c < N; c++)
            if (wmask_test(&L->out.pick, r * N + c)) {
                if ((cols >> c) & 1) {
                    snprintf(msg, len, "WPU %d: a sub-warp holds two threads of column %d", u->id, c);
                    return 1;
                }
                cols |= 1ull << c;
            }
    return 0;
}

static void lwm_stats(const struct wsim *s, FILE *out, int json)
{
    uint64_t insts = 0, subs = 0, thr = 0, jumps = 0, waits = 0, ti = 0, size[WSIM_MAX_LANES + 1] = {0};
    for (int i = 0; i < s->nwpus; i++) {
        const lwm_wpu_t *L = s->wpu[i].lwm;
        insts += L->insts, subs += L->subwarps, thr += L->threads, jumps += L->jumps, waits += L->dep_waits;
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
                     "    \"subwarp_threads\": %llu,\n    \"jumps\": %llu,\n    \"dep_waits\": %llu,\n"
                     "    \"fu_idle_cycles\": %llu,\n    \"subwarps_per_inst\": %.6f,\n"
                     "    \"lane_utilization\": %.6f,\n    \"ipc\": %.6f,\n    \"subwarp_size\": [",
                s->warp_size / s->lanes, (unsigned long long)insts, (unsigned long long)subs,
                (unsigned long long)thr, (unsigned long long)jumps, (unsigned long long)waits,
                (unsigned long long)idle, per, util, ipc);
        for (int k = 0; k <= s->lanes; k++) fprintf(out, "%s%llu", k ? ", " : "", (unsigned long long)size[k]);
        fprintf(out, "]\n  },\n");
        return;
    }
    fprintf(out, "  large warps           %d x %d threads; %llu instructions in %llu sub-warps (%.2f each, %llu "
                 "one-sub-warp jumps), lane utilization %.4f\n",
            s->warp_size / s->lanes, s->lanes, (unsigned long long)insts, (unsigned long long)subs, per,
            (unsigned long long)jumps, util);
    fprintf(out, "  functional units      idle %llu cycles (no sub-warp); picker waited on dependency bits %llu; "
                 "IPC %.4f\n",
            (unsigned long long)idle, (unsigned long long)waits, ipc);
}

const mech_ops_t lwm_mech = {
    .name = "lwm",
    .init_wpu = lwm_init_wpu,
    .free_wpu = lwm_free_wpu,
    .launch = lwm_launch,
    .after_issue = lwm_after_issue,
    .hold = lwm_hold,
    .clock = lwm_clock,
    .next_ready = lwm_next_ready,
    .check_wpu = lwm_check_wpu,
    .stats = lwm_stats,
};
