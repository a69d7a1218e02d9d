/* The machine: launch, the cycle loop with idle-time skipping, barriers,
 * deadlock detection, statistics. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "cfgraph.h"

#define NEVER UINT64_MAX

/* Keep the scheduler's view of a group in step with its state. */
void sim_sync_avail(struct wsim *s, wpu_t *u, const group_t *g)
{
    (void)s;
    u->avail[g->id] = g->w && g->slotted && g->wait != WAIT_BARRIER && g->wait != WAIT_SYNC ? g->ready_at : NEVER;
}

/* Warp g starts in slot w with group grp as its root. */
static void launch(struct wsim *s, int g, wpu_t *u, warp_t *w, group_t *grp, int initial)
{
    uint32_t tid0 = (uint32_t)g * (uint32_t)s->width;
    int lanes = (int)(s->nthreads - tid0 < (uint32_t)s->width ? s->nthreads - tid0 : (uint32_t)s->width);
    w->gid = g;
    w->tid0 = tid0;
    memset(w->th, 0, (size_t)s->width * sizeof *w->th);
    for (int l = 0; l < lanes; l++) {
        thread_t *t = &w->th[l];
        uint32_t tid = tid0 + (uint32_t)l;
        t->x[10] = tid;
        t->x[11] = s->nthreads;
        t->x[2] = (uint32_t)(s->cfg.stack_top - (uint64_t)tid * s->cfg.stack_size - (tid % 32) * s->cfg.stack_color);
        s->tstate[tid] = TS_RUNNING;
    }
    w->live = wmask_first(lanes);
    w->at_barrier = wmask_none();
    rs_reset(&w->rs, s->prog->entry, w->live);
    w->ngroups = 1;
    w->last_issue = s->cycle;
    grp->w = w;
    grp->rs = &w->rs;
    grp->ready_at = s->cycle;
    grp->wait = WAIT_NONE;
    grp->fetch = (ifetch_slot_t){0};
    grp->resume = grp->go = grp->after_barrier = 0;
    grp->pend_hit = wmask_none();
    u->live_groups++;
    if (s->cfg.dws) dws_launch(s, u, grp, initial);
    else grp->slotted = 1;
    sim_sync_avail(s, u, grp);
    u->st.warps_launched++;
    s->resident_warps++;
}

wsim_t *wsim_create(const wsim_config_t *cfg, const char *elf_path, char *err, size_t errlen)
{
    wsim_config_t c = *cfg;
    if (wsim_config_check(&c, err, errlen) < 0) return NULL;
    program_t *p = program_load(elf_path, err, errlen);
    if (!p) return NULL;
    uint64_t stack_lo = c.stack_top - c.threads * c.stack_size;
    int ov = program_overlaps(p, stack_lo, c.stack_top);
    if (ov >= 0) {
        snprintf(err, errlen,
                 "%s: thread stacks 0x%08llx-0x%08llx overlap loadable segment %d at 0x%08x; "
                 "lower threads or stack_size, or move stack_top",
                 elf_path, (unsigned long long)stack_lo, (unsigned long long)c.stack_top - 1, ov,
                 p->seg[ov].vaddr);
        program_free(p);
        return NULL;
    }

    struct wsim *s = calloc(1, sizeof *s);
    s->cfg = c;
    s->prog = p;
    s->mem = mem_create();
    program_place(p, s->mem);
    if (memsys_init(&s->ms, &c, s->mem, err, errlen) < 0) {
        memsys_free(&s->ms);
        mem_destroy(s->mem);
        program_free(p);
        free(s);
        return NULL;
    }
    s->private_data = memsys_private_data(&s->ms);
    /* WSIM_CHECK_INJECT=CYCLE: --check's own test drops a thread from a group at CYCLE */
    const char *inj = getenv("WSIM_CHECK_INJECT");
    s->check_inject = inj ? strtoull(inj, NULL, 0) : 0;
    s->nwpus = (int)c.wpus, s->nwarps = (int)c.warps, s->width = (int)c.width;
    s->nthreads = (uint32_t)c.threads;
    s->exit_code = calloc(s->nthreads, sizeof *s->exit_code);
    s->instret = calloc(s->nthreads, sizeof *s->instret);
    s->tstate = malloc(s->nthreads);
    memset(s->tstate, TS_PENDING, s->nthreads);
    s->live_threads = s->nthreads;
    s->total_warps = (int)((s->nthreads + (uint32_t)s->width - 1) / (uint32_t)s->width);

    s->wpu = calloc((size_t)s->nwpus, sizeof *s->wpu);
    for (int i = 0; i < s->nwpus; i++) {
        wpu_t *u = &s->wpu[i];
        u->id = i;
        u->warp = calloc((size_t)s->nwarps, sizeof *u->warp);
        u->ngrp = c.dws ? (int)c.dws_entries : s->nwarps;
        u->grp = calloc((size_t)u->ngrp, sizeof *u->grp);
        u->avail = malloc((size_t)u->ngrp * sizeof *u->avail);
        for (int k = 0; k < u->ngrp; k++) {
            u->avail[k] = NEVER;
            u->grp[k].id = k;
            rs_init(&u->grp[k].own);
        }
        sched_init(&u->sched, c.scheduler, u->ngrp);
        for (int k = 0; k < s->nwarps; k++) {
            warp_t *w = &u->warp[k];
            w->wpu = i, w->slot = k, w->gid = -1;
            w->th = calloc((size_t)s->width, sizeof *w->th);
            rs_init(&w->rs);
        }
        if (c.dws) dws_init_wpu(s, u);
    }
    /* warp g -> WPU g mod wpus, slot g div wpus (docs/abi.md); its root is
     * group (table entry) slot */
    int resident = s->nwpus * s->nwarps;
    for (int g = 0; g < s->total_warps && g < resident; g++) {
        wpu_t *u = &s->wpu[g % s->nwpus];
        launch(s, g, u, &u->warp[g / s->nwpus], &u->grp[g / s->nwpus], 1);
    }
    s->next_warp = s->total_warps < resident ? s->total_warps : resident;
    for (int i = 0; i < s->nwpus; i++) s->wpu[i].next_ready = 0;
    return s;
}

void wsim_set_record(wsim_t *s, const char *block, FILE *out)
{
    if (!strcmp(block, "wst")) {
        s->record_wst = out;
        wst_config_t wc = {0};
        if (s->cfg.dws) wc = s->wpu[0].wst.cfg;
        if (out && s->cfg.dws) {
            wst_trace_header(&wc, out);
            /* the launch sequence before cycle 0 */
            for (int i = 0; i < s->nwpus; i++) {
                wpu_t *u = &s->wpu[i];
                for (int k = 0; k < u->ngrp; k++) {
                    const wst_entry_t *e = &u->wst.q.e[k];
                    if (!e->valid) continue;
                    wst_in_t in = {0};
                    in.idx = (uint8_t)k, in.op = 1, in.set = 1, in.warp = e->warp, in.pc = e->pc, in.mask = e->mask;
                    in.lat = (uint32_t)s->cfg.dws_memlat_init;
                    wst_t fresh = u->wst; /* outputs as seen before this entry's write */
                    for (int j = k; j < u->ngrp; j++) fresh.q.e[j] = (wst_entry_t){0};
                    wst_out_t o;
                    wst_eval(&fresh, &in, &o);
                    wst_trace_line(&fresh, 0, i, &in, &o, out);
                }
            }
        }
    }
}

void wsim_destroy(wsim_t *s)
{
    if (!s) return;
    for (int i = 0; i < s->nwpus; i++) {
        for (int k = 0; k < s->nwarps; k++) {
            free(s->wpu[i].warp[k].th);
            rs_free(&s->wpu[i].warp[k].rs);
        }
        for (int k = 0; k < s->wpu[i].ngrp; k++) rs_free(&s->wpu[i].grp[k].own);
        free(s->wpu[i].warp);
        free(s->wpu[i].grp);
        free(s->wpu[i].avail);
    }
    free(s->wpu);
    free(s->exit_code);
    free(s->instret);
    free(s->tstate);
    mem_destroy(s->mem);
    memsys_free(&s->ms);
    program_free(s->prog);
    free(s);
}

void wsim_set_trace(wsim_t *s, FILE *out) { s->trace = out; }
void wsim_request_stop(wsim_t *s) { s->stop_requested = 1; }

static void update_next_ready(struct wsim *s, wpu_t *u)
{
    uint64_t nr = NEVER;
    for (int k = 0; k < u->ngrp; k++)
        if (u->avail[k] < nr) nr = u->avail[k];
    if (nr != NEVER && nr < u->blocked_until) nr = u->blocked_until;
    /* ReviveSplit: a suspended group's hits become ready to run ahead */
    if (s->cfg.dws && s->cfg.dws_mem == 3 && !u->revive_blocked)
        for (int k = 0; k < u->ngrp; k++) {
            const group_t *g = &u->grp[k];
            if (g->w && g->wait == WAIT_MEM && wmask_any(&g->pend_hit) && g->ready_at > s->cycle + 1) {
                uint64_t t = g->hit_ready > s->cycle + 1 ? g->hit_ready : s->cycle + 1;
                if (t < nr) nr = t;
            }
        }
    u->next_ready = nr;
}

static void barrier_release(struct wsim *s)
{
    /* bulk-synchronous caches write back and invalidate at every global barrier */
    uint64_t at = memsys_barrier_flush(&s->ms, s->cycle + 1);
    for (int i = 0; i < s->nwpus; i++) {
        wpu_t *u = &s->wpu[i];
        for (int k = 0; k < s->nwarps; k++) u->warp[k].at_barrier = wmask_none();
        for (int k = 0; k < u->ngrp; k++) {
            group_t *g = &u->grp[k];
            if (g->w && g->wait == WAIT_BARRIER) {
                g->wait = WAIT_NONE;
                g->ready_at = at;
                if (s->cfg.dws) {
                    g->after_barrier = g->w->ngroups > 1;
                    if (!g->slotted) dws_slot_take(s, u, g);
                }
                sim_sync_avail(s, u, g);
            }
        }
        update_next_ready(s, u);
    }
    s->barrier_arrived = 0;
}

void sim_barrier_arrive(struct wsim *s, group_t *g, wmask_t lanes, uint32_t pc)
{
    warp_t *w = g->w;
    wpu_t *u = &s->wpu[w->wpu];
    g->wait = WAIT_BARRIER;
    if (s->cfg.dws) {
        dws_slot_release(s, u, g);
        dws_sync_breaker(s, u, w);
    }
    sim_sync_avail(s, u, g);
    w->at_barrier = wmask_or(w->at_barrier, lanes);
    w->barrier_pc = pc;
    s->barrier_arrived += (uint32_t)wmask_count(&lanes);
    if (s->barrier_arrived >= s->live_threads) barrier_release(s);
}

static void thread_leaves(struct wsim *s, warp_t *w, int lane)
{
    s->instret[w->tid0 + (uint32_t)lane] = w->th[lane].instret;
    wmask_clear(&w->live, lane);
    s->live_threads--;
    if (s->barrier_arrived && s->barrier_arrived >= s->live_threads) barrier_release(s);
}

void sim_thread_exit(struct wsim *s, warp_t *w, int lane, int32_t code)
{
    uint32_t tid = w->tid0 + (uint32_t)lane;
    s->exit_code[tid] = code;
    s->tstate[tid] = TS_EXITED;
    thread_leaves(s, w, lane);
}

void sim_thread_fault(struct wsim *s, warp_t *w, int lane, uint32_t pc, const char *fmt, ...)
{
    uint32_t tid = w->tid0 + (uint32_t)lane;
    if (s->tstate[tid] == TS_FAULTED) return;
    s->tstate[tid] = TS_FAULTED;
    s->exit_code[tid] = -1;
    s->faults_total++;
    if (s->faults_reported < s->cfg.fault_report_limit) {
        char where[128], msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        program_describe_pc(s->prog, pc, where, sizeof where);
        fprintf(stderr, "wpusim: thread %u (WPU %d warp %d lane %d) fault at pc 0x%08x (%s), cycle %llu: %s\n",
                tid, w->wpu, w->slot, lane, pc, where, (unsigned long long)s->cycle, msg);
        if (++s->faults_reported == s->cfg.fault_report_limit)
            fprintf(stderr, "wpusim: further faults are counted, not shown (fault_report_limit)\n");
    }
    thread_leaves(s, w, lane);
}

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
    g->ready_at = r.ready > s->cycle + 1 ? r.ready : s->cycle + 1;
    /* switch on miss: an all-hit access holds the pipeline until its data is back */
    if (s->cfg.switch_on == 1 && !misses) u->blocked_until = g->ready_at;
}

/* One SIMD group of WPU u issues at s->cycle. */
/* mem: d is a load/store whose lanes (mem_lanes: addresses in s->addr) are `lanes`. */
static void issue(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d, int mem, wmask_t lanes)
{
    warp_t *w = g->w;
    /* A load/store reserves its way through the hierarchy first, so that the
     * functional access finds its lines where the timing put them (bulksync
     * L1s hold data). */
    mem_result_t r;
    int timed = mem && wmask_any(&lanes);
    if (timed) memsys_access(&s->ms, u->id, s->cycle, s->addr, lanes, d->cls == ISA_CLASS_STORE, &r);
    wmask_t before, live_before;
    if (s->cfg.dws) { /* what dws_after_issue compares against */
        before = dws_group_lanes(g);
        live_before = w->live;
        s->issue_pc = rs_top(g->rs)->pc;
        s->issue_depth = g->rs->depth;
    }
    w->last_issue = s->cycle;
    int cls = exec_issue(s, u, g, d);
    /* switch_on: the group keeps the pipeline until it accesses the cache
     * (access) or misses (miss); cycle: round-robin every cycle */
    u->sched.stay = s->cfg.switch_on == 0 ? !timed : s->cfg.switch_on == 1 ? !timed || !wmask_any(&r.miss) : 0;
    if (g->wait != WAIT_BARRIER && cls != ISA_CLASS_BARRIER && w->rs.depth) {
        if (timed) {
            memory_timing(s, u, g, &r);
        } else {
            g->wait = WAIT_NONE;
            g->ready_at = s->cycle + class_latency(s, cls);
        }
        /* barrel processing: a group waits for its previous instruction to drain */
        if (g->ready_at < s->cycle + s->cfg.pipeline_depth) g->ready_at = s->cycle + s->cfg.pipeline_depth;
    }
    if (s->cfg.dws) dws_after_issue(s, u, g, d, cls, timed ? &r : NULL, before, live_before);
    if (w->rs.depth == 0 && w->gid >= 0) { /* every thread exited: the slot frees up */
        w->gid = -1;
        s->resident_warps--;
        u->live_groups--;
        if (s->next_warp < s->total_warps) {
            int gw = s->next_warp++;
            launch(s, gw, u, w, g, 0);
            g->ready_at = s->cycle + 1;
        } else { /* (dws: its table entry is freed with this clock's operation) */
            if (s->cfg.dws) dws_slot_release(s, u, g);
            g->w = NULL;
            w->ngroups = 0;
        }
    }
    sim_sync_avail(s, u, g);
    /* A lower bound, not the exact minimum (a scan of every group per issue):
     * the next cycle looks, and a look that finds nothing ready computes the
     * exact value before any idle cycles are skipped. */
    u->next_ready = s->cycle + 1 > u->blocked_until ? s->cycle + 1 : u->blocked_until;
}

/* Cycles in which WPU u does not issue: waiting on memory or idle. */
static void account_stall(struct wsim *s, wpu_t *u, uint64_t n)
{
    for (int k = 0; k < u->ngrp; k++) {
        const group_t *g = &u->grp[k];
        if (g->w && g->wait == WAIT_MEM && g->ready_at > s->cycle) {
            u->st.cycles_memwait += n;
            return;
        }
    }
    u->st.cycles_idle += n;
}

static const char *wait_name(int wait)
{
    switch (wait) {
    case WAIT_MEM: return "memory";
    case WAIT_BARRIER: return "barrier";
    case WAIT_FETCH: return "fetch";
    case WAIT_SYNC: return "re-convergence point";
    default: return "ready";
    }
}

/* Every SIMD group of warp w: where it is and what it waits for. */
static void report_groups(struct wsim *s, const warp_t *w, FILE *out)
{
    char where[128], mask[WSIM_MAX_LANES / 4 + 2];
    const wpu_t *u = &s->wpu[w->wpu];
    for (int k = 0; k < u->ngrp; k++) {
        const group_t *g = &u->grp[k];
        if (g->w != w) continue;
        const rentry_t *t = rs_top(g->rs);
        program_describe_pc(s->prog, t->pc, where, sizeof where);
        wmask_hex(&t->mask, s->width, mask);
        fprintf(out, "    group %d (%s): pc 0x%08x (%s) lanes %s, waits for %s%s, ready at cycle %llu\n", k,
                g->rs == &w->rs ? "root" : "split", t->pc, where, mask, wait_name(g->wait),
                g->slotted ? "" : ", no scheduler slot", (unsigned long long)g->ready_at);
    }
}

static void report_deadlock(struct wsim *s)
{
    char where[128], mask[WSIM_MAX_LANES / 4 + 2];
    int partial = 0, shown = 0;
    fprintf(stderr, "wpusim: deadlock at cycle %llu: no SIMD group can ever issue again; "
                    "%u of %u live threads wait at the barrier\n",
            (unsigned long long)s->cycle, s->barrier_arrived, s->live_threads);
    for (int i = 0; i < s->nwpus; i++)
        for (int k = 0; k < s->nwarps; k++) {
            warp_t *w = &s->wpu[i].warp[k];
            if (w->gid < 0) continue;
            wmask_t missing = wmask_andnot(w->live, w->at_barrier);
            if (wmask_any(&missing)) partial = 1;
            if (shown++ >= 16) continue;
            program_describe_pc(s->prog, w->barrier_pc, where, sizeof where);
            wmask_hex(&w->at_barrier, s->width, mask);
            fprintf(stderr, "  WPU %d warp %d (threads %u..): lanes %s wait at the barrier at %s", i, k,
                    w->tid0, mask, where);
            if (wmask_any(&missing)) {
                /* where the missing threads are: the deepest stack entry holding them */
                uint32_t pc = 0;
                for (int e = w->rs.depth - 1; e >= 0; e--) {
                    wmask_t here = wmask_and(w->rs.e[e].mask, missing);
                    if (wmask_any(&here)) { pc = w->rs.e[e].pc; break; }
                }
                program_describe_pc(s->prog, pc, where, sizeof where);
                wmask_hex(&missing, s->width, mask);
                fprintf(stderr, "; lanes %s have not arrived (parked at %s)", mask, where);
            }
            fputc('\n', stderr);
            if (s->cfg.dws) report_groups(s, w, stderr);
        }
    if (shown > 16) fprintf(stderr, "  ... %d more warps\n", shown - 16);
    if (s->next_warp < s->total_warps)
        fprintf(stderr, "  %d warps are not launched: a barrier needs every live thread resident; "
                        "raise warps or wpus, or lower threads\n", s->total_warps - s->next_warp);
    if (partial)
        fprintf(stderr, "  a barrier reached by part of a warp cannot complete while the rest of the warp "
                        "is parked on its re-convergence stack: move the barrier out of divergent code\n");
}

/* A warp that is not waiting at a barrier but has issued nothing for
 * `watchdog` cycles: its groups wait on each other (a bug). */
static int watchdog(struct wsim *s)
{
    for (int i = 0; i < s->nwpus; i++)
        for (int k = 0; k < s->nwarps; k++) {
            warp_t *w = &s->wpu[i].warp[k];
            if (w->gid < 0 || s->cycle - w->last_issue <= s->cfg.watchdog) continue;
            int all_barrier = 1;
            const wpu_t *u = &s->wpu[i];
            for (int j = 0; j < u->ngrp; j++)
                if (u->grp[j].w == w && u->grp[j].wait != WAIT_BARRIER) all_barrier = 0;
            if (all_barrier) continue;
            fprintf(stderr, "wpusim: watchdog at cycle %llu: WPU %d warp %d (threads %u..) has issued nothing "
                            "since cycle %llu; its SIMD groups:\n",
                    (unsigned long long)s->cycle, i, k, w->tid0, (unsigned long long)w->last_issue);
            report_groups(s, w, stderr);
            fprintf(stderr, "  (a simulator bug: please report it with this output; raise or disable with "
                            "--set watchdog=N)\n");
            return 1;
        }
    return 0;
}

/* The scheduler's choice: loose round-robin, or with dws the boosted
 * laggard split / the shallowest split first. */
static int pick(struct wsim *s, wpu_t *u)
{
    if (!s->cfg.dws || (!s->cfg.dws_boost && s->cfg.scheduler == 0))
        return sched_pick(&u->sched, u->avail, s->cycle);
    uint32_t key[WST_MAX_ENTRIES];
    uint64_t lag = 0;
    if (s->cfg.dws_boost) {
        wst_in_t in = {0};
        wst_out_t o;
        wst_eval(&u->wst, &in, &o);
        lag = o.lag_vec;
    }
    for (int k = 0; k < u->ngrp; k++) {
        uint32_t rm = s->cfg.scheduler == 1 ? u->wst.q.e[k].rmfc : 0;
        key[k] = ((lag >> k) & 1) ? 0 : 1 + (rm > 0x7fffffff ? 0x7fffffff : rm);
    }
    return sched_pick_prio(&u->sched, u->avail, key, s->cycle);
}

wsim_status_t wsim_run(wsim_t *s)
{
    wsim_status_t st = WSIM_DONE;
    uint64_t next_watch = s->cfg.watchdog ? s->cycle + s->cfg.watchdog : NEVER;
    while (s->resident_warps > 0) {
        if (s->cfg.max_cycles && s->cycle >= s->cfg.max_cycles) { st = WSIM_MAX_CYCLES; break; }
        if (s->stop_requested) { st = WSIM_INTERRUPTED; break; }
        if (s->cycle >= next_watch) {
            if (watchdog(s)) { st = WSIM_DEADLOCK; break; }
            next_watch = s->cycle + s->cfg.watchdog / 4 + 1;
        }
        for (int i = 0; i < s->nwpus; i++) {
            wpu_t *u = &s->wpu[i];
            if (u->next_ready <= s->cycle) {
                int issued = 0;
                for (int k; !issued && (k = pick(s, u)) >= 0;) {
                    group_t *g = &u->grp[k];
                    uint32_t pc = rs_top(g->rs)->pc;
                    const isa_insn_t *d = program_insn(s->prog, pc);
                    uint64_t at = memsys_ifetch(&s->ms, u->id, pc, s->cycle, &g->fetch);
                    if (at <= s->cycle && s->cfg.dws && dws_before_issue(s, u, g, d)) {
                        issued = 2; /* the clock went to a re-convergence wait */
                        break;
                    }
                    int mem = at <= s->cycle && d && (d->cls == ISA_CLASS_LOAD || d->cls == ISA_CLASS_STORE);
                    wmask_t lanes = mem ? mem_lanes(s, g, d) : wmask_none();
                    if (mem && memsys_must_wait(&s->ms, u->id, s->cycle, s->addr, lanes, d->cls == ISA_CLASS_STORE, &at))
                        u->st.mshr_stalls++, g->wait = WAIT_MEM;
                    else if (at > s->cycle)
                        u->st.fetch_stalls++, g->wait = WAIT_FETCH;
                    if (at > s->cycle) { /* not this cycle: try the next ready group */
                        g->ready_at = at;
                        sim_sync_avail(s, u, g);
                        if (s->cfg.dws && u->win.op) { issued = 2; break; } /* it merged: the table's clock is used */
                        continue;
                    }
                    u->st.cycles_issue++;
                    if (s->cfg.dws) {
                        u->st.groups_sum += (uint64_t)u->live_groups;
                        if ((uint64_t)u->live_groups > u->st.groups_max) u->st.groups_max = (uint64_t)u->live_groups;
                    }
                    issue(s, u, g, d, mem, lanes);
                    issued = 1;
                }
                if (s->cfg.dws) {
                    if (!issued && dws_stalled(s, u)) issued = 2;
                    dws_clock(s, u);
                    if (issued == 2) { account_stall(s, u, 1); continue; }
                }
                if (issued) continue;
                update_next_ready(s, u);
            }
            account_stall(s, u, 1);
        }
        if (s->cfg.check) {
            char msg[2048];
            if (s->check_inject && s->cycle >= s->check_inject) { /* test hook: lose a thread */
                s->check_inject = 0;
                for (int k = 0; k < s->wpu[0].ngrp; k++) {
                    group_t *g = &s->wpu[0].grp[k];
                    if (!g->w) continue;
                    wmask_t lost = wmask_none();
                    wmask_set(&lost, wmask_lowest(&rs_top(g->rs)->mask));
                    rs_remove(g->rs, lost);
                    if (g->rs != &g->w->rs) rs_remove(&g->w->rs, lost);
                    break;
                }
            }
            if (dws_check(s, msg, sizeof msg)) {
                fprintf(stderr, "wpusim: --check failed at cycle %llu: %s\n", (unsigned long long)s->cycle, msg);
                s->cycle++;
                st = WSIM_CHECK_FAILED;
                break;
            }
        }
        if (s->resident_warps == 0) { s->cycle++; break; }
        /* Skip cycles in which no WPU can issue: nothing changes in them. */
        uint64_t next = NEVER;
        for (int i = 0; i < s->nwpus; i++)
            if (s->wpu[i].next_ready < next) next = s->wpu[i].next_ready;
        if (next == NEVER) { s->cycle++; st = WSIM_DEADLOCK; report_deadlock(s); break; }
        if (next <= s->cycle + 1 || !s->cfg.skip_idle) { s->cycle++; continue; }
        if (s->cfg.max_cycles && next > s->cfg.max_cycles) next = s->cfg.max_cycles;
        if (next > next_watch) next = next_watch;
        s->cycle++;
        if (next > s->cycle) {
            for (int i = 0; i < s->nwpus; i++) account_stall(s, &s->wpu[i], next - s->cycle);
            s->cycle = next;
        }
    }
    memsys_drain(&s->ms); /* data still in bulksync L1s goes home: dumps see it */
    s->status_reason = (int)st;
    return st;
}

int wsim_all_passed(const wsim_t *s)
{
    for (uint32_t t = 0; t < s->nthreads; t++)
        if (s->tstate[t] != TS_EXITED || s->exit_code[t] != 0) return 0;
    return 1;
}

void wsim_print_failures(const wsim_t *s, FILE *out)
{
    /* faults were reported as they happened; list exit codes here */
    uint32_t nonzero = 0, faulted = 0, unfinished = 0;
    for (uint32_t t = 0; t < s->nthreads; t++) {
        if (s->tstate[t] == TS_EXITED && s->exit_code[t] != 0) {
            if (nonzero++ < 16) fprintf(out, "  thread %u: exit code %d\n", t, s->exit_code[t]);
        } else if (s->tstate[t] == TS_FAULTED) {
            faulted++;
        } else if (s->tstate[t] != TS_EXITED) {
            unfinished++;
        }
    }
    if (nonzero + faulted + unfinished == 0) return;
    if (nonzero > 16) fprintf(out, "  ... %u more threads with nonzero exit codes\n", nonzero - 16);
    fprintf(out, "wpusim: FAILED: %u of %u threads exited nonzero, %u faulted, %u did not finish\n",
            nonzero, s->nthreads, faulted, unfinished);
}

uint64_t wsim_cycles(const wsim_t *s) { return s->cycle; }

static void stats_total(const wsim_t *s, stats_t *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < s->nwpus; i++) {
        const stats_t *w = &s->wpu[i].st;
        uint64_t deepest = t->max_stack > w->max_stack ? t->max_stack : w->max_stack;
        uint64_t most = t->groups_max > w->groups_max ? t->groups_max : w->groups_max;
#define STAT(name, help) t->name += w->name;
#include "stats.def"
#undef STAT
        t->max_stack = deepest; /* maxima, not sums */
        t->groups_max = most;
    }
}

uint64_t wsim_thread_insts(const wsim_t *s)
{
    stats_t t;
    stats_total(s, &t);
    return t.thread_insts;
}

static double simd_eff(const wsim_t *s, const stats_t *t)
{
    return t->warp_insts ? (double)t->thread_insts / ((double)t->warp_insts * s->width) : 0.0;
}

static const char *status_name(int st)
{
    return st == WSIM_DONE ? "done" : st == WSIM_MAX_CYCLES ? "max_cycles" : st == WSIM_DEADLOCK ? "deadlock"
         : st == WSIM_INTERRUPTED ? "interrupted" : "check_failed";
}

/* FNV-1a over every thread's instruction count, in thread order: equal
 * under every configuration (mechanisms change timing, never work). */
static uint64_t instret_hash(const wsim_t *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t t = 0; t < s->nthreads; t++)
        for (int b = 0; b < 64; b += 8) h = (h ^ ((s->instret[t] >> b) & 0xff)) * 0x100000001b3ull;
    return h;
}

static void print_stats_json(const stats_t *t, FILE *out, const char *indent)
{
#define STAT(name, help) fprintf(out, "%s\"%s\": %llu,\n", indent, #name, (unsigned long long)t->name);
#include "stats.def"
#undef STAT
}

void wsim_print_stats(const wsim_t *s, FILE *out, int json)
{
    stats_t t;
    stats_total(s, &t);
    uint32_t ok = 0, nonzero = 0, faulted = 0, unfinished = 0;
    for (uint32_t i = 0; i < s->nthreads; i++) {
        if (s->tstate[i] == TS_EXITED) (s->exit_code[i] == 0 ? ok++ : nonzero++);
        else if (s->tstate[i] == TS_FAULTED) faulted++;
        else unfinished++;
    }
    if (json) {
        fprintf(out, "{\n  \"wpusim\": \"%s\",\n  \"program\": \"%s\",\n  \"status\": \"%s\",\n", WSIM_VERSION,
                s->prog->path, status_name(s->status_reason));
        fprintf(out, "  \"config\": {\n");
        wsim_config_print(&s->cfg, out, 1);
        fprintf(out, "  },\n  \"cycles\": %llu,\n  \"total\": {\n", (unsigned long long)s->cycle);
        print_stats_json(&t, out, "    ");
        fprintf(out, "    \"simd_efficiency\": %.6f\n  },\n  \"wpu\": [\n", simd_eff(s, &t));
        for (int i = 0; i < s->nwpus; i++) {
            fprintf(out, "    {\n");
            print_stats_json(&s->wpu[i].st, out, "      ");
            fprintf(out, "      \"simd_efficiency\": %.6f\n    }%s\n", simd_eff(s, &s->wpu[i].st),
                    i + 1 < s->nwpus ? "," : "");
        }
        fprintf(out, "  ],\n");
        memsys_print_stats(&s->ms, out, 1);
        fprintf(out, "  \"div_degree\": [");
        for (int k = 0; k <= s->width; k++) { /* [k]: accesses with k missing threads */
            uint64_t n = 0;
            for (int i = 0; i < s->nwpus; i++) n += s->wpu[i].div_degree[k];
            fprintf(out, "%s%llu", k ? ", " : "", (unsigned long long)n);
        }
        fprintf(out, "],\n  \"threads\": {\n    \"instret_hash\": \"%016llx\",\n", (unsigned long long)instret_hash(s));
        fprintf(out, "    \"count\": %u,\n    \"exited_zero\": %u,\n"
                     "    \"exited_nonzero\": %u,\n    \"faulted\": %u,\n    \"unfinished\": %u,\n"
                     "    \"exit_codes\": [",
                s->nthreads, ok, nonzero, faulted, unfinished);
        for (uint32_t i = 0; i < s->nthreads; i++) {
            const char *sep = i ? (i % 32 ? ", " : ",\n      ") : "\n      ";
            if (s->tstate[i] == TS_EXITED) fprintf(out, "%s%d", sep, s->exit_code[i]);
            else fprintf(out, "%snull", sep);
        }
        fprintf(out, "\n    ]\n  }\n}\n");
        return;
    }
    fprintf(out, "wpusim %s: %s  [%s]\n", WSIM_VERSION, s->prog->path, status_name(s->status_reason));
    fprintf(out, "  machine               %d WPUs x %d warps x %d lanes, %u threads, seed %llu, arg %llu\n",
            s->nwpus, s->nwarps, s->width, s->nthreads, (unsigned long long)s->cfg.seed,
            (unsigned long long)s->cfg.arg);
    fprintf(out, "  cycles                %llu\n", (unsigned long long)s->cycle);
    fprintf(out, "  warp instructions     %llu\n", (unsigned long long)t.warp_insts);
    fprintf(out, "  thread instructions   %llu\n", (unsigned long long)t.thread_insts);
    fprintf(out, "  SIMD efficiency       %.4f\n", simd_eff(s, &t));
    fprintf(out, "  branches              %llu (divergent %llu)\n", (unsigned long long)t.branches,
            (unsigned long long)t.div_branches);
    fprintf(out, "  calls                 %llu (divergent indirect %llu)\n", (unsigned long long)t.calls,
            (unsigned long long)t.div_calls);
    fprintf(out, "  loads / stores        %llu / %llu\n", (unsigned long long)t.loads, (unsigned long long)t.stores);
    fprintf(out, "  barrier instructions  %llu\n", (unsigned long long)t.barriers);
    fprintf(out, "  WPU cycles: issue %llu, waiting on memory %llu, idle %llu\n",
            (unsigned long long)t.cycles_issue, (unsigned long long)t.cycles_memwait,
            (unsigned long long)t.cycles_idle);
    fprintf(out, "  deepest re-convergence stack %llu\n", (unsigned long long)t.max_stack);
    fprintf(out, "  memory instructions   %llu with a miss, %llu divergent (hit and miss); issue stalls: "
                 "no free MSHR %llu, I-fetch %llu\n",
            (unsigned long long)t.mem_miss_insts, (unsigned long long)t.mem_div_insts,
            (unsigned long long)t.mshr_stalls, (unsigned long long)t.fetch_stalls);
    if (s->cfg.dws) {
        uint64_t splits = t.splits_branch + t.splits_mem + t.splits_revive;
        fprintf(out, "  warp-splits           %llu (branch %llu, memory %llu, revive %llu), %.1f threads to the new "
                     "side on average\n",
                (unsigned long long)splits, (unsigned long long)t.splits_branch, (unsigned long long)t.splits_mem,
                (unsigned long long)t.splits_revive, splits ? (double)t.split_lanes / (double)splits : 0.0);
        fprintf(out, "  re-convergence        PC %llu, stack %llu, barrier %llu, sync %llu (waits %llu)\n",
                (unsigned long long)t.merges_pc, (unsigned long long)t.merges_stack,
                (unsigned long long)t.merges_barrier, (unsigned long long)t.merges_sync,
                (unsigned long long)t.sync_waits);
        fprintf(out, "  SIMD groups per WPU   mean %.2f, max %llu; mean width %.2f threads; table full %llu, "
                     "no scheduler slot %llu\n",
                t.cycles_issue ? (double)t.groups_sum / (double)t.cycles_issue : 0.0,
                (unsigned long long)t.groups_max,
                t.warp_insts ? (double)t.thread_insts / (double)t.warp_insts : 0.0, (unsigned long long)t.wst_full,
                (unsigned long long)t.slot_full);
    }
    memsys_print_stats(&s->ms, out, 0);
    fprintf(out, "  threads               %u exited 0, %u exited nonzero, %u faulted, %u unfinished\n", ok,
            nonzero, faulted, unfinished);
    if (s->nwpus > 1) {
        fprintf(out, "  %-4s %12s %12s %12s %8s %10s %10s %10s %8s %8s\n", "WPU", "warp-insts", "thread-insts",
                "issue-cyc", "SIMD-eff", "memwait", "idle", "L1D-acc", "L1D-miss", "div-mem");
        for (int i = 0; i < s->nwpus; i++) {
            const stats_t *w = &s->wpu[i].st;
            const cache_stats_t *c = s->ms.l1d ? &s->ms.l1d[i].st : NULL;
            uint64_t acc = c ? c->accesses : 0, miss = c ? c->misses : 0;
            fprintf(out, "  %-4d %12llu %12llu %12llu %8.4f %10llu %10llu %10llu %8.4f %8llu\n", i,
                    (unsigned long long)w->warp_insts, (unsigned long long)w->thread_insts,
                    (unsigned long long)w->cycles_issue, simd_eff(s, w), (unsigned long long)w->cycles_memwait,
                    (unsigned long long)w->cycles_idle, (unsigned long long)acc,
                    acc ? (double)miss / (double)acc : 0.0, (unsigned long long)w->mem_div_insts);
        }
    }
}

int wsim_has_results(const wsim_t *s) { return s->prog->results_hi > s->prog->results_lo; }

int wsim_dump_results(const wsim_t *s, const char *path, char *err, size_t errlen)
{
    const program_t *p = s->prog;
    if (p->results_hi <= p->results_lo) {
        snprintf(err, errlen, "%s: the kernel registers no results (no WSIM_RESULT records)", p->path);
        return -1;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    for (uint64_t r = p->results_lo; r + 8 <= p->results_hi; r += 8) {
        uint32_t addr = mem_read(s->mem, (uint32_t)r, 4), size = mem_read(s->mem, (uint32_t)r + 4, 4);
        int sg = program_overlaps(p, addr, (uint64_t)addr + size);
        if (sg < 0 || (uint64_t)addr + size > (uint64_t)p->seg[sg].vaddr + p->seg[sg].memsz || addr < p->seg[sg].vaddr) {
            fclose(f);
            snprintf(err, errlen, "%s: result record at 0x%08x names 0x%08x+%u bytes, not inside one loaded segment",
                     p->path, (uint32_t)r, addr, size);
            return -1;
        }
        uint8_t buf[4096];
        for (uint32_t done = 0; done < size;) {
            uint32_t n = size - done < sizeof buf ? size - done : (uint32_t)sizeof buf;
            mem_read_bytes(s->mem, addr + done, buf, n);
            fwrite(buf, 1, n, f);
            done += n;
        }
    }
    if (fclose(f) != 0) {
        snprintf(err, errlen, "%s: write failed", path);
        return -1;
    }
    return 0;
}

void wsim_dump_cfg(const wsim_t *s, FILE *out) { cfgraph_dump(s->prog, out); }
