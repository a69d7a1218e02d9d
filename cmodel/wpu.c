/* One WPU's clock, top to bottom (docs/architecture.md):
 *   fetch arbitration -> group selection -> issue (functional core, memory
 *   system) -> mechanisms -> block clocks,
 * and the timing of what issued: instruction latencies, barrel
 * processing, blocking SIMD loads and stores. */
#include <string.h>

#include "core.h"
#include "mech/mech.h"
#include "timeline.h"

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

/* The miss statistics of one access: with a miss, divergent (hit and miss)
 * and how many lanes missed. */
static int mem_count(wpu_t *u, const mem_result_t *r)
{
    int misses = wmask_count(&r->miss);
    if (misses) u->st.mem_miss_insts++;
    if (misses && wmask_any(&r->hit)) {
        u->st.mem_div_insts++;
        u->div_degree[misses]++;
    }
    return misses;
}

/* The one door to memory timing: every load/store access of the WPU, the
 * pipeline's and a mechanism's (q: LWM's sub-warps), goes through here.
 * The MSHR check first: refused (an MSHR is needed and none is free, or
 * another warp asked first), *retry is when to try again and, but for a
 * question (MEM_ASK), the refusal is an MSHR stall; then the access (r) of
 * its lanes, whose misses are counted now (MEM_SUBWARP) or when the
 * instruction retires (MEM_ISSUE: memory_timing). 1: not refused. */
static int mem_door(struct wsim *s, wpu_t *u, const mem_req_t *q, mem_result_t *r, uint64_t *retry)
{
    if (memsys_must_wait(&s->ms, u->id, s->cycle, q->addr, q->lanes, q->store, q->gid, retry)) {
        if (q->kind != MEM_ASK) u->st.mshr_stalls++;
        return 0;
    }
    if (q->kind == MEM_ASK || q->kind == MEM_CHECK || !wmask_any(&q->lanes)) return 1;
    memsys_access(&s->ms, u->id, s->cycle, q->addr, q->lanes, q->store, r);
    if (q->kind == MEM_SUBWARP) mem_count(u, r);
    return 1;
}

/* The accesses a mechanism asks for (u->mreq: LWM's sub-warps, its set-aside
 * warps' MSHR questions), each timed and answered (mem_done), until it asks
 * for none; returns the mechanism's last answer (as its hold hook's). */
static clock_use_t mech_mem(struct wsim *s, wpu_t *u)
{
    clock_use_t ret = CLOCK_OPEN;
    while (u->mreq.by) {
        const mem_req_t q = u->mreq;
        mem_result_t r;
        uint64_t retry = 0;
        u->mreq.by = NULL;
        ret = mem_door(s, u, &q, &r, &retry) ? q.by->mem_done(s, u, &r, retry) : q.by->mem_done(s, u, NULL, retry);
    }
    return ret;
}

/* Record the memory behaviour of one SIMD load/store and set when its group
 * may issue again (blocking SIMD: when its last thread's access completes). */
static void memory_timing(struct wsim *s, wpu_t *u, group_t *g, const mem_result_t *rp)
{
    const mem_result_t r = *rp;
    int misses = mem_count(u, &r);
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
        uint32_t tid = w->meta[lane].tid;
        s->exit_code[tid] = (int32_t)w->th[lane].x[10];
        s->tstate[tid] = TS_EXITED;
        warp_thread_leaves(s, w, lane);
    }
}

/* One SIMD group of WPU u issues at s->cycle. rp: a load/store's access,
 * timed already (mem_door, MEM_ISSUE: addresses in s->addr), or NULL. */
static inline __attribute__((always_inline)) void issue(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d,
                                                       const mem_result_t *rp)
{
    warp_t *w = g->w;
    TIMELINE(s, tl_issue(s, u, g, d));
    /* A load/store reserved its way through the hierarchy first (mem_door),
     * so that the functional access finds its lines where the timing put
     * them (bulksync L1s hold data). */
    const int timed = rp != NULL;
    exec_report_t x;
    issue_t is;
    if (s->nmech) { /* what the mechanisms compare against */
        is.d = d;
        is.x = &x;
        is.r = rp;
        is.addr = s->addr;
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
    u->stay_we = 1;
    u->stay = s->cfg.switch_on == CFG_SWITCH_ON_ACCESS ? !timed
                : s->cfg.switch_on == CFG_SWITCH_ON_MISS   ? !timed || !wmask_any(&rp->miss)
                                                           : 0;
    if (g->wait != WAIT_BARRIER && x.cls != ISA_CLASS_BARRIER && w->rs.depth) {
        if (timed) {
            memory_timing(s, u, g, rp);
        } else {
            g->wait = WAIT_NONE;
            g->ready_at = s->cycle + class_latency(s, x.cls);
        }
        /* reconv = join: the JOIN test at a post-dominator or return address is an operation too */
        if (w->rs.j && w->rs.j->arrived) g->ready_at += s->cfg.join_latency;
        /* barrel processing: a group waits for its previous instruction to drain */
        if (g->ready_at < s->cycle + s->cfg.pipeline_depth) g->ready_at = s->cycle + s->cfg.pipeline_depth;
    }
    if (w->rs.j) { /* (join.c counts per warp; the statistics are the WPU's) */
        u->st.join_tests += w->rs.j->tests, u->st.join_switches += w->rs.j->switches;
        w->rs.j->tests = w->rs.j->switches = 0;
    }

    /* the mechanisms (and the accesses they ask for: LWM's first sub-warp) */
    MECH_CALL(s, after_issue, s, u, g, &is);
    if (u->mreq.by) mech_mem(s, u);

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

/* Group selection by the scheduler block: its grant among the groups that
 * can issue now (prev >= 0: a retry after prev could not issue), by the
 * keys a mechanism gives (DWS: the boosted laggard split, the shallowest
 * split). A mechanism may bring its own selection instead (wpu_t.sel). */
static inline __attribute__((always_inline)) int sched_pick(struct wsim *s, wpu_t *u, int prev)
{
    sched_in_t *in = &u->sin; /* (in->ready_at is u->avail, set at creation) */
    in->now = s->cycle;
    in->retry = prev >= 0;
    in->prev = (uint16_t)(prev >= 0 ? prev : 0);
    if (u->sched.cfg.prio) mech_keys(s, u, u->key);
    sched_out_t o;
    sched_eval(&u->sched, in, &o);
    return o.grant ? o.grant_idx : -1;
}

/* The scheduler block's clock edge: the last grant, stay. */
static inline __attribute__((always_inline)) void sched_edge(struct wsim *s, wpu_t *u, int last, int issued)
{
    (void)s, (void)issued;
    u->sin.upd = last >= 0;
    u->sin.last = (uint16_t)(last >= 0 ? last : 0);
    u->sin.stay_we = u->stay_we;
    u->sin.stay = u->stay;
    sched_clock(&u->sched, &u->sin);
}

const select_ops_t sched_select = {.pick = sched_pick, .clock = sched_edge};

/* The block clocks of the WPU: the group selection's (last grant, an issue,
 * stay), then the mechanisms' blocks (DWS: the warp-split table's operation). */
static void clock_blocks(struct wsim *s, wpu_t *u, int last, int issued)
{
    if (u->sel == &sched_select) sched_edge(s, u, last, issued); /* (a direct call: the hot loop's) */
    else u->sel->clock(s, u, last, issued);
    u->stay_we = 0;
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
    clock_use_t issued = CLOCK_OPEN;
    int k = -1;
    /* a mechanism may hold the front end (LWM: the column picker is still
     * breaking a large warp's instruction into sub-warps: fetch stalls) */
    if (s->nmech && (issued = mech_hold(s, u)) != CLOCK_OPEN) {
        if (issued == CLOCK_MEM) issued = mech_mem(s, u);
        if (issued == CLOCK_ISSUED) u->st.cycles_issue++;
    }
    /* (the scheduler block's pick called directly, inlined: the hot loop's;
     * a mechanism's selection through its ops) */
    const int by_sched = u->sel == &sched_select;
    for (int next; issued == CLOCK_OPEN && (next = by_sched ? sched_pick(s, u, k) : u->sel->pick(s, u, k)) >= 0;) {
        k = next;
        group_t *g = &u->grp[k];
        uint32_t pc = rs_top(g->rs)->pc;
        const isa_insn_t *d = program_insn(s->prog, pc);
        uint64_t at = memsys_ifetch(&s->ms, u->id, pc, s->cycle, &g->fetch);
        if (at <= s->cycle && mech_before_issue(s, u, g, d)) {
            issued = CLOCK_USED; /* the clock went to a re-convergence wait */
            break;
        }
        /* a load/store: its access (through the one door), unless a
         * mechanism asks for it (lwm: per sub-warp; the check stays here) */
        mem_result_t r;
        const mem_result_t *rp = NULL; /* the access issue() is given, if timed here */
        if (at <= s->cycle && d && (d->cls == ISA_CLASS_LOAD || d->cls == ISA_CLASS_STORE)) {
            const mem_req_t q = {.addr = s->addr, .lanes = mem_lanes(s, g, d), .store = d->cls == ISA_CLASS_STORE,
                                 .gid = g->w->gid, .kind = u->mech_mem ? MEM_CHECK : MEM_ISSUE};
            if (!mem_door(s, u, &q, &r, &at)) g->wait = WAIT_MEM, g->missed = 1;
            else if (q.kind == MEM_ISSUE && wmask_any(&q.lanes)) rp = &r;
        } else if (at > s->cycle) {
            u->st.fetch_stalls++, g->wait = WAIT_FETCH;
        }
        if (at > s->cycle) { /* not this cycle: try the next ready group */
            g->ready_at = at;
            group_sync_avail(u, g);
            if (mech_busy(s, u)) { issued = CLOCK_USED; break; } /* e.g. it merged: the table's clock is used */
            continue;
        }
        /* issue */
        u->st.cycles_issue++;
        if (s->group_stats) {
            u->st.groups_sum += (uint64_t)u->live_groups;
            if ((uint64_t)u->live_groups > u->st.groups_max) u->st.groups_max = (uint64_t)u->live_groups;
        }
        issue(s, u, g, d, rp);
        issued = CLOCK_ISSUED;
    }
    /* the mechanisms in a clock without issue, then the block clocks */
    if (issued == CLOCK_OPEN && mech_stalled(s, u)) issued = CLOCK_USED;
    clock_blocks(s, u, k, issued == CLOCK_ISSUED);
    if (issued == CLOCK_ISSUED) return;
    if (issued == CLOCK_OPEN) wpu_refresh_next_ready(s, u);
    wpu_account_stall(s, u, 1);
}

/* ---- 003's vector core (core = vector; docs/irregular.md) ----
 * The warp slots are partitions, each an in-order instruction stream (003:
 * no out-of-order execution within a partition): its next instruction
 * issues once the previous one completed. Every cycle the vector
 * instruction scheduler looks at the partitions in a rotating order and
 * issues each ready one's instruction to a free unit of its kind, as many
 * as there are free units (003 §IV-B: the streams multiplexed into one
 * instruction buffer). 003 §V's timing: a simple operation takes 1 cycle;
 * a complex one (divide, square root; a shuffle's permutation) and a store
 * take the active vector length — here the partition's, the lanes its
 * packed warps hold — and so does a load (its port streams vl elements),
 * or longer when the memory system answers later. */
static int vec_kind(const isa_insn_t *d)
{
    switch (d ? d->cls : ISA_CLASS_ILLEGAL) {
    case ISA_CLASS_MUL: case ISA_CLASS_FPU: case ISA_CLASS_FMA: return VEC_FMA;
    case ISA_CLASS_DIV: case ISA_CLASS_FDIV: case ISA_CLASS_SHUFFLE: return VEC_DIV;
    case ISA_CLASS_LOAD: return VEC_LD;
    case ISA_CLASS_STORE: return VEC_ST;
    default: return VEC_ALU;
    }
}

/* The partitioned register table's clock (blocks/prt.h): the renames of the
 * instructions issued this clock, one launched partition's entry (the
 * partition waits for it: launching t partitions takes t clocks) and one
 * ended partition's release. A refused rename is a broken table. */
static void vcore_prt(struct wsim *s, wpu_t *u)
{
    vcore_t *v = u->vc;
    prt_in_t *in = &v->pin;
    const int ap = v->pend_alloc ? __builtin_ctz(v->pend_alloc) : 0;
    const int fp = v->pend_free ? __builtin_ctz(v->pend_free) : -1;
    in->alloc_part = (uint8_t)ap;
    block_eval(&v->prt, in, &v->pout);
    if ((v->pout.ren_ok & in->ren_v) != in->ren_v) {
        fprintf(stderr, "wpusim: the partitioned register table refused a rename at cycle %llu (WPU %d: ren_v %x, "
                        "ren_ok %x): a partition issued without its register block\n",
                (unsigned long long)s->cycle, u->id, in->ren_v, v->pout.ren_ok);
        s->block_failed = 1;
    }
    in->alloc = v->pend_alloc && v->pout.alloc_ok;
    in->alloc_vl = (uint16_t)(in->alloc && u->warp[ap].gid >= 0 ? u->warp[ap].vl : 0);
    in->free = fp >= 0;
    in->free_part = (uint8_t)(fp >= 0 ? fp : 0);
    if (in->ren_v || in->alloc || in->free) block_clock(&v->prt, s->cycle, in, &v->pout);
    else block_clock_unrecorded(&v->prt, in, &v->pout);
    if (in->alloc) {
        v->pend_alloc &= ~(1u << ap);
        group_t *g = &u->grp[ap];
        if (g->w && g->ready_at <= s->cycle) g->ready_at = s->cycle + 1;
        group_sync_avail(u, g);
    }
    if (fp >= 0) v->pend_free &= ~(1u << fp);
    in->ren_v = 0;
    in->ren_part = in->ren_reg = wmask_none();
    v->nren = 0;
}

/* An issued instruction's registers, renamed in this clock. */
static void vcore_rename(struct wsim *s, vcore_t *v, int slot, const isa_insn_t *d)
{
    uint8_t r[4];
    const int pw = prt_port_width(&v->prt_cfg, PRT_P_alloc_part), rw = prt_port_width(&v->prt_cfg, PRT_P_ren_reg) / v->prt_cfg.ports;
    for (int o = 0, n = d ? isa_operands(d, r) : 0; o < n && v->nren < v->prt_cfg.ports; o++, v->nren++) {
        v->pin.ren_v |= 1u << v->nren;
        prt_set_field(&v->pin.ren_part, v->nren, pw, (uint32_t)slot);
        prt_set_field(&v->pin.ren_reg, v->nren, rw, s->reg_index[r[o]]);
    }
}

static void vcore_clock(struct wsim *s, wpu_t *u)
{
    vcore_t *v = u->vc;
    const uint64_t now = s->cycle;
    if (u->next_ready > now) { /* no partition can issue: skip the look */
        wpu_account_stall(s, u, 1);
        return;
    }
    int issued = 0;
    uint64_t nr = NEVER;
    for (int i = 0; i < u->ngrp; i++) {
        const int slot = (v->rr + i) % u->ngrp;
        group_t *g = &u->grp[slot];
        if (!g->w || g->wait == WAIT_BARRIER || ((v->pend_alloc | v->pend_free) >> slot & 1)) continue;
        if (g->ready_at > now) {
            if (g->ready_at < nr) nr = g->ready_at;
            continue;
        }
        const uint32_t pc = rs_top(g->rs)->pc;
        const isa_insn_t *d = program_insn(s->prog, pc);
        const int kind = vec_kind(d);
        int unit = -1;
        uint64_t soonest = NEVER;
        for (int k = 0; k < v->n[kind]; k++) {
            if (v->free_at[kind][k] <= now) { unit = k; break; }
            if (v->free_at[kind][k] < soonest) soonest = v->free_at[kind][k];
        }
        if (unit < 0) { /* every unit of its kind busy */
            u->st.vec_unit_stalls++;
            if (soonest < nr) nr = soonest;
            continue;
        }
        uint64_t at = memsys_ifetch(&s->ms, u->id, pc, now, &g->fetch);
        const int mem = at <= now && d && (d->cls == ISA_CLASS_LOAD || d->cls == ISA_CLASS_STORE);
        mem_result_t r;
        const mem_req_t q = {.addr = s->addr, .lanes = mem ? mem_lanes(s, g, d) : wmask_none(),
                             .store = mem && d->cls == ISA_CLASS_STORE, .gid = g->w->gid, .kind = MEM_ISSUE};
        if (mem && !mem_door(s, u, &q, &r, &at))
            g->wait = WAIT_MEM, g->missed = 1;
        else if (at > now)
            u->st.fetch_stalls++, g->wait = WAIT_FETCH;
        if (at > now) {
            g->ready_at = at;
            group_sync_avail(u, g);
            if (at < nr) nr = at;
            continue;
        }
        warp_t *w = g->w;
        const int gid = w->gid, vl = w->vl > 0 ? w->vl : 1;
        const uint64_t occ = kind == VEC_DIV || kind == VEC_LD || kind == VEC_ST ? (uint64_t)vl : 1;
        vcore_rename(s, v, slot, d);
        issue(s, u, g, d, mem && wmask_any(&q.lanes) ? &r : NULL);
        issued++;
        if (w->gid != gid) v->pend_free |= 1u << slot; /* its partition ended (a new one may have launched) */
        v->free_at[kind][unit] = now + occ;
        uint64_t *busy[VEC_KINDS] = {&u->st.vec_busy_fma, &u->st.vec_busy_alu, &u->st.vec_busy_div,
                                     &u->st.vec_busy_ld, &u->st.vec_busy_st};
        *busy[kind] += occ;
        if (now + occ > v->covered) {
            u->st.vec_busy_any += now + occ - (now > v->covered ? now : v->covered);
            v->covered = now + occ;
        }
        /* the partition's next instruction waits for this one (issue() set the
         * latency-1 time, a JOIN test's, or the memory's answer) */
        if (g->w == w && w->gid == gid && g->wait != WAIT_BARRIER) {
            if (!mem) g->ready_at += occ - 1;
            else if (g->ready_at < now + occ) g->ready_at = now + occ;
            group_sync_avail(u, g);
        }
        if (g->w && g->wait != WAIT_BARRIER && g->ready_at < nr) nr = g->ready_at;
    }
    v->rr = (v->rr + 1) % u->ngrp;
    const uint32_t waiting = v->pend_alloc;
    vcore_prt(s, u);
    if ((v->pend_alloc | v->pend_free) || waiting != v->pend_alloc) nr = now + 1; /* (a launched partition may go) */
    if (issued) {
        u->st.cycles_issue++;
        if (issued > 1) u->st.vec_multi_issue++;
    } else {
        wpu_account_stall(s, u, 1);
    }
    u->next_ready = nr == NEVER ? NEVER : nr > now + 1 ? nr : now + 1;
}

/* The clock of every WPU, in order (the machine's loop calls this once a
 * cycle; the per-WPU clock is inlined here). */
void wpu_clock_all(struct wsim *s)
{
    if (s->wpu[0].vc) { /* core = vector */
        for (int i = 0; i < s->nwpus; i++) vcore_clock(s, &s->wpu[i]);
        return;
    }
    for (int i = 0; i < s->nwpus; i++) wpu_clock(s, &s->wpu[i]);
}
