/* One WPU's clock, top to bottom (docs/architecture.md):
 *   fetch arbitration -> group selection -> issue (functional core, memory
 *   system) -> mechanisms -> block clocks,
 * and the timing of what issued: instruction latencies, barrel
 * processing, blocking SIMD loads and stores. */
#include <string.h>

#include "core.h"
#include "mech/mech.h"
#include "mech/twolev.h"

static uint64_t class_latency(const struct wsim *s, int cls)
{
    switch (cls) {
    case ISA_CLASS_MUL: return s->cfg.lat_mul;
    case ISA_CLASS_DIV: return s->cfg.lat_div;
    case ISA_CLASS_FPU: return s->cfg.lat_fpu;
    case ISA_CLASS_FMA: return s->cfg.lat_fma;
    case ISA_CLASS_FDIV: return s->cfg.lat_fdiv;
    default: return s->cfg.lat_alu;
    }
}

/* The lanes of group g whose load/store reaches memory (the others fault in
 * exec) and their addresses, in s->addr. */
static wmask_t mem_lanes(struct wsim *s, group_t *g, const isa_insn_t *d)
{
    wmask_t lanes = wmask_none();
    uint32_t size = (uint32_t)isa_mem_size(d->op);
    const warp_t *w = g->w;
    WMASK_FOREACH(rs_top(g->rs)->mask, lane) {
        uint32_t a = w->th[lane].x[d->rs1] + d->imm;
        s->addr[lane] = a;
        if (!(a & (size - 1)) && a >= PROG_GUARD_END) wmask_set(&lanes, lane);
    }
    return lanes;
}

/* Record the memory behaviour of one SIMD load/store and set when its group
 * may issue again (blocking SIMD: when its last thread's access completes). */
static void memory_timing(struct wsim *s, wpu_t *u, group_t *g, const mem_result_t *rp)
{
    const mem_result_t r = *rp;
    int misses = wmask_count(&r.miss);
    if (misses) u->st.mem_miss_insts++;
    if (misses && wmask_any(&r.hit)) {
        u->st.mem_div_insts++;
        u->div_degree[misses]++;
    }
    g->wait = WAIT_MEM;
    g->missed = misses != 0;
    g->ready_at = r.ready > s->cycle + 1 ? r.ready : s->cycle + 1;
    /* switch on miss: an all-hit access holds the pipeline until its data is back */
    if (s->cfg.switch_on == CFG_SWITCH_ON_MISS && !misses) u->blocked_until = g->ready_at;
}

/* The threads an instruction ended (exit, fault) leave their warp; a
 * barrier instruction's threads arrive. */
static void threads_leave(struct wsim *s, warp_t *w, const exec_report_t *x)
{
    if (x->ev & EXEC_FAULTED) WMASK_FOREACH(x->faulted, lane) warp_thread_leaves(s, w, lane);
    if (x->ev & EXEC_EXITED) WMASK_FOREACH(x->exited, lane) {
        uint32_t tid = w->tid0 + (uint32_t)lane;
        s->exit_code[tid] = (int32_t)w->th[lane].x[10];
        s->tstate[tid] = TS_EXITED;
        warp_thread_leaves(s, w, lane);
    }
}

/* One SIMD group of WPU u issues at s->cycle. mem: d is a load/store whose
 * lanes (mem_lanes: addresses in s->addr) are `lanes`. */
static inline __attribute__((always_inline)) void issue(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d,
                                                       int mem, wmask_t lanes)
{
    warp_t *w = g->w;
    /* A load/store reserves its way through the hierarchy first, so that the
     * functional access finds its lines where the timing put them (bulksync
     * L1s hold data). */
    mem_result_t r;
    int timed = mem && wmask_any(&lanes);
    if (timed) memsys_access(&s->ms, u->id, s->cycle, s->addr, lanes, d->cls == ISA_CLASS_STORE, &r);
    exec_report_t x;
    issue_t is;
    if (s->nmech) { /* what the mechanisms compare against */
        is.d = d;
        is.x = &x;
        is.r = timed ? &r : NULL;
        is.lanes_before = group_lanes(g);
        is.live_before = w->live;
        is.pc = rs_top(g->rs)->pc;
        is.depth = g->rs->depth;
    }
    w->last_issue = s->cycle;

    /* the functional core executes; a divergent branch splits the group
     * (DWS) or pushes its stack */
    exec_issue(s, u, g, d, &x);
    if (x.ev & EXEC_DIVERGED) {
        if (!mech_branch(s, u, g, d, x.pc, x.taken, x.fall)) rs_branch(x.rs, x.taken, x.fall, d->target, x.pc + 4, d->ipdom);
        exec_count_depth(u, x.rs);
    }
    if (x.ev & (EXEC_FAULTED | EXEC_EXITED)) threads_leave(s, w, &x);
    if (x.ev & EXEC_BARRIER) warp_barrier_arrive(s, g, x.barrier, x.pc);

    /* switch_on: the group keeps the pipeline until it accesses the cache
     * (access) or misses (miss); cycle: round-robin every cycle */
    u->sin.stay_we = 1;
    u->sin.stay = s->cfg.switch_on == CFG_SWITCH_ON_ACCESS ? !timed
                : s->cfg.switch_on == CFG_SWITCH_ON_MISS   ? !timed || !wmask_any(&r.miss)
                                                           : 0;
    if (g->wait != WAIT_BARRIER && x.cls != ISA_CLASS_BARRIER && w->rs.depth) {
        if (timed) {
            memory_timing(s, u, g, &r);
        } else {
            g->wait = WAIT_NONE;
            g->ready_at = s->cycle + class_latency(s, x.cls);
        }
        /* barrel processing: a group waits for its previous instruction to drain */
        if (g->ready_at < s->cycle + s->cfg.pipeline_depth) g->ready_at = s->cycle + s->cfg.pipeline_depth;
    }

    /* the mechanisms */
    MECH_CALL(s, after_issue, s, u, g, &is);

    if (w->rs.depth == 0 && w->gid >= 0) { /* every thread exited: the slot frees up */
        w->gid = -1;
        s->resident_warps--;
        u->live_groups--;
        if (s->next_warp < s->total_warps) {
            int gw = s->next_warp++;
            warp_launch(s, gw, u, w, g, 0);
            g->ready_at = s->cycle + 1;
        } else { /* (dws: its table entry is freed with this clock's operation) */
            MECH_CALL(s, warp_done, s, u, g);
            g->w = NULL;
            w->ngroups = 0;
        }
    }
    group_sync_avail(u, g);
    /* A lower bound, not the exact minimum (a scan of every group per issue):
     * the next cycle looks, and a look that finds nothing ready computes the
     * exact value before any idle cycles are skipped. */
    u->next_ready = s->cycle + 1 > u->blocked_until ? s->cycle + 1 : u->blocked_until;
}

/* Cycles in which WPU u does not issue: waiting on memory or idle. */
void wpu_account_stall(struct wsim *s, wpu_t *u, uint64_t n)
{
    if (!u->live_groups) { /* an empty WPU: no look at its slots (many WPUs, few threads) */
        u->st.cycles_idle += n;
        return;
    }
    for (int k = 0; k < u->ngrp; k++) {
        const group_t *g = &u->grp[k];
        if (g->w && g->wait == WAIT_MEM && g->ready_at > s->cycle) {
            u->st.cycles_memwait += n;
            return;
        }
    }
    u->st.cycles_idle += n;
}

/* Group selection: the scheduler block's grant among the groups that can
 * issue now (prev >= 0: a retry after prev could not issue), by the keys a
 * mechanism gives (DWS: the boosted laggard split, the shallowest split). */
static int pick(struct wsim *s, wpu_t *u, int prev)
{
    if (u->fa) return twolev_pick(s, u); /* scheduler = twolevel: the fetch arbiter's grant */
    sched_in_t *in = &u->sin; /* (in->ready_at is u->avail, set at creation) */
    in->now = s->cycle;
    in->retry = prev >= 0;
    in->prev = (uint16_t)(prev >= 0 ? prev : 0);
    if (u->sched.cfg.prio) mech_keys(s, u, u->key);
    sched_out_t o;
    sched_eval(&u->sched, in, &o);
    return o.grant ? o.grant_idx : -1;
}

/* The block clocks of the WPU: the scheduler's or the fetch arbiter's (last
 * grant, an issue, stay), then the mechanisms' blocks (DWS: the warp-split
 * table's operation). */
static void clock_blocks(struct wsim *s, wpu_t *u, int last, int issued)
{
    if (u->fa) {
        twolev_clock(s, u, last, issued);
    } else {
        u->sin.upd = last >= 0;
        u->sin.last = (uint16_t)(last >= 0 ? last : 0);
        sched_clock(&u->sched, &u->sin);
    }
    u->sin.stay_we = 0;
    MECH_CALL(s, clock, s, u);
}

static inline __attribute__((always_inline)) void wpu_clock(struct wsim *s, wpu_t *u)
{
    if (u->next_ready > s->cycle) { /* nothing can issue: skip the look */
        wpu_account_stall(s, u, 1);
        return;
    }
    /* fetch arbitration and group selection: the scheduler's pick, until one
     * issues (a pick whose fetch misses or finds no free MSHR waits, and the
     * next ready group is tried in the same clock) */
    int issued = 0, k = -1;
    /* a mechanism may hold the front end (LWM: the column picker is still
     * breaking a large warp's instruction into sub-warps: fetch stalls) */
    if (s->nmech && (issued = mech_hold(s, u)) == 1) u->st.cycles_issue++;
    for (int next; !issued && (next = pick(s, u, k)) >= 0;) {
        k = next;
        group_t *g = &u->grp[k];
        uint32_t pc = rs_top(g->rs)->pc;
        const isa_insn_t *d = program_insn(s->prog, pc);
        uint64_t at = memsys_ifetch(&s->ms, u->id, pc, s->cycle, &g->fetch);
        if (at <= s->cycle && mech_before_issue(s, u, g, d)) {
            issued = 2; /* the clock went to a re-convergence wait */
            break;
        }
        int mem = at <= s->cycle && d && (d->cls == ISA_CLASS_LOAD || d->cls == ISA_CLASS_STORE);
        wmask_t lanes = mem ? mem_lanes(s, g, d) : wmask_none();
        if (mem && memsys_must_wait(&s->ms, u->id, s->cycle, s->addr, lanes, d->cls == ISA_CLASS_STORE, g->w->gid, &at))
            u->st.mshr_stalls++, g->wait = WAIT_MEM, g->missed = 1;
        else if (at > s->cycle)
            u->st.fetch_stalls++, g->wait = WAIT_FETCH;
        if (at > s->cycle) { /* not this cycle: try the next ready group */
            g->ready_at = at;
            group_sync_avail(u, g);
            if (mech_busy(s, u)) { issued = 2; break; } /* e.g. it merged: the table's clock is used */
            continue;
        }
        /* issue */
        u->st.cycles_issue++;
        if (s->nmech) {
            u->st.groups_sum += (uint64_t)u->live_groups;
            if ((uint64_t)u->live_groups > u->st.groups_max) u->st.groups_max = (uint64_t)u->live_groups;
        }
        issue(s, u, g, d, mem && !u->mech_mem, lanes); /* (lwm times its sub-warps' accesses itself) */
        issued = 1;
    }
    /* the mechanisms in a clock without issue, then the block clocks */
    if (!issued && mech_stalled(s, u)) issued = 2;
    clock_blocks(s, u, k, issued == 1);
    if (issued == 1) return;
    if (!issued) wpu_refresh_next_ready(s, u);
    wpu_account_stall(s, u, 1);
}

/* The clock of every WPU, in order (the machine's loop calls this once a
 * cycle; the per-WPU clock is inlined here). */
void wpu_clock_all(struct wsim *s)
{
    for (int i = 0; i < s->nwpus; i++) wpu_clock(s, &s->wpu[i]);
}
