/* The machine: its creation from a configuration and a program, the run
 * loop over all WPUs with idle-time skipping, the watchdog and --check, and
 * its teardown. A WPU's clock is wpu.c's; warps and barriers are warp.c's;
 * reports are report.c's (docs/architecture.md). */
#include <stdlib.h>
#include <string.h>

#include "blocks/colpick.h"
#include "cfgraph.h"
#include "core.h"
#include "mech/mech.h"
#include "mech/twolev.h"

wsim_t *wsim_create(const wsim_config_t *cfg, const char *elf_path, char *err, size_t errlen)
{
    return wsim_create_with(cfg, elf_path, NULL, err, errlen);
}

void wsim_block_failed(wsim_t *s) { s->block_failed = 1; }

wsim_t *wsim_create_with(const wsim_config_t *cfg, const char *elf_path, const wsim_block_hook_t *hook, char *err,
                         size_t errlen)
{
    wsim_config_t c = *cfg;
    if (wsim_config_check(&c, err, errlen) < 0) return NULL;
    const int bits = config_mask_bits(&c);
    if (bits > WSIM_MAX_LANES) { /* (wpusim runs the build that holds it) */
        snprintf(err, errlen, "this build of the C model holds lane masks of %d bits; the configuration needs %d "
                 "(warps of %llu threads%s): run the 256-lane build (wpusim --core 256, or auto)", WSIM_MAX_LANES,
                 bits, (unsigned long long)c.warp_size, bits > (int)c.warp_size ? " with 8-bit slip counters" : "");
        return NULL;
    }
    program_t *p = program_load(elf_path, err, errlen);
    if (!p) return NULL;
    if (cfgraph_analyse_program(p, err, errlen) < 0) {
        program_free(p);
        return NULL;
    }
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
    if (!s) {
        program_free(p);
        snprintf(err, errlen, "out of host memory creating the machine");
        return NULL;
    }
    s->cfg = c;
    s->prog = p;
    if (hook) s->block_hook = *hook;
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
    /* the mechanisms (mech/mech.h): none is Conv */
    if (c.dws) s->mech[s->nmech++] = &dws_mech;
    if (c.dom) s->mech[s->nmech++] = &dom_mech;
    if (c.lwm) s->mech[s->nmech++] = &lwm_mech;
    s->nwpus = (int)c.wpus, s->nwarps = (int)c.warps;
    s->warp_size = (int)c.warp_size, s->lanes = (int)c.lanes;
    s->nthreads = (uint32_t)c.threads;
    /* stores are checked against the stacks and one stack's worth below the
     * lowest (the last thread's overflow), unless a segment lies there */
    s->stack_lo = stack_lo >= c.stack_size + PROG_GUARD_END &&
                          program_overlaps(p, stack_lo - c.stack_size, stack_lo) < 0
                      ? stack_lo - c.stack_size
                      : stack_lo;
/* every allocation of the machine's own state is checked: a clear error
 * (wpusim exits 2), and what was allocated is freed */
#define ALLOC(ptr, n, what)                                                                        \
    do {                                                                                           \
        if (!((ptr) = calloc((size_t)(n) ? (size_t)(n) : 1, sizeof *(ptr)))) {                     \
            snprintf(err, errlen, "out of host memory: %llu bytes for %s (a smaller machine or fewer " \
                     "threads)", (unsigned long long)((size_t)(n) * sizeof *(ptr)), what);          \
            wsim_destroy(s);                                                                       \
            return NULL;                                                                           \
        }                                                                                          \
    } while (0)
    ALLOC(s->exit_code, s->nthreads, "the threads' exit codes");
    ALLOC(s->instret, s->nthreads, "the threads' instruction counts");
    ALLOC(s->tstate, s->nthreads, "the threads' states");
    memset(s->tstate, TS_PENDING, s->nthreads);
    s->live_threads = s->nthreads;
    s->total_warps = (int)((s->nthreads + (uint32_t)s->warp_size - 1) / (uint32_t)s->warp_size);

    /* every slot's threads in one allocation, whose pages the host touches
     * only when a warp is launched into the slot: a machine of many WPUs and
     * slots costs memory for the threads that run, not for its size */
    const size_t slot_threads = (size_t)s->nwpus * (size_t)s->nwarps * (size_t)s->warp_size;
    ALLOC(s->threads_mem, slot_threads, "the threads' registers");
    ALLOC(s->wpu, s->nwpus, "the WPUs");
    for (int i = 0; i < s->nwpus; i++) {
        wpu_t *u = &s->wpu[i];
        u->id = i;
        ALLOC(u->warp, s->nwarps, "the warp slots");
        u->ngrp = c.dws ? (int)c.dws_entries : s->nwarps;
        ALLOC(u->grp, u->ngrp, "the SIMD groups");
        ALLOC(u->avail, u->ngrp, "the scheduler's view");
        for (int k = 0; k < u->ngrp; k++) {
            u->avail[k] = NEVER;
            u->grp[k].id = k;
            rs_init(&u->grp[k].own);
        }
        ALLOC(u->key, u->ngrp, "the scheduler's keys");
        u->sin.key = u->key;
        u->sin.ready_at = u->avail;
        sched_config_t sc = {.slots = u->ngrp, .prio = c.dws && (c.dws_boost || c.scheduler == CFG_SCHEDULER_SWF)};
        if (sched_init(&u->sched, &sc, err, errlen) < 0) { /* config.def's ranges rule this out */
            fprintf(stderr, "wpusim: internal: %s\n", err);
            abort();
        }
        if (c.scheduler == CFG_SCHEDULER_TWOLEVEL && twolev_init_wpu(s, u, err, errlen) < 0) {
            wsim_destroy(s); /* config.def's checks rule this out */
            return NULL;
        }
        if (s->block_err[0]) { /* the block hook refused the fetch arbiter */
            snprintf(err, errlen, "%s", s->block_err);
            wsim_destroy(s);
            return NULL;
        }
        for (int k = 0; k < s->nwarps; k++) {
            warp_t *w = &u->warp[k];
            w->wpu = i, w->slot = k, w->gid = -1;
            rs_init(&w->rs);
            w->th = s->threads_mem + ((size_t)i * (size_t)s->nwarps + (size_t)k) * (size_t)s->warp_size;
        }
        MECH_CALL(s, init_wpu, s, u);
        if (s->block_err[0]) {
            snprintf(err, errlen, "%s", s->block_err);
            wsim_destroy(s);
            return NULL;
        }
    }
#undef ALLOC
    if (roi_init(s) < 0) {
        snprintf(err, errlen, "out of host memory for the region of interest's counters");
        wsim_destroy(s);
        return NULL;
    }
    return s;
}

/* The warps that fit start in their slots, before cycle 0 (at the first
 * wsim_run, so that port traces record the launch as it happens): warp g ->
 * WPU g mod wpus, slot g div wpus (docs/abi.md); its root is group (table
 * entry) slot. */
static void launch_resident(struct wsim *s)
{
    int resident = s->nwpus * s->nwarps;
    for (int g = 0; g < s->total_warps && g < resident; g++) {
        wpu_t *u = &s->wpu[g % s->nwpus];
        warp_launch(s, g, u, &u->warp[g / s->nwpus], &u->grp[g / s->nwpus], 1);
    }
    s->next_warp = s->total_warps < resident ? s->total_warps : resident;
    for (int i = 0; i < s->nwpus; i++) s->wpu[i].next_ready = 0;
    s->launched = 1;
}

void wsim_set_record(wsim_t *s, const char *block, FILE *out)
{
    if (!strcmp(block, "fetcharb")) {
        s->record_fa = out;
        if (out && s->wpu[0].fa) block_trace_header(s->wpu[0].fa_ops, &s->wpu[0].fa_cfg, out);
        return;
    }
    if (!strcmp(block, "mdt")) {
        s->record_mdt = out;
        if (out && s->cfg.dom) dom_record_header(s, out);
        return;
    }
    if (!strcmp(block, "asc")) {
        s->record_asc = out;
        if (out && s->cfg.dom) dom_record_asc_header(s, out);
        return;
    }
    if (!strcmp(block, "colpick")) {
        s->record_colpick = out;
        colpick_config_t c = {.rows = s->warp_size / s->lanes, .cols = s->lanes}; /* as mech/lwm.c's */
        if (out && s->cfg.lwm) block_trace_header(&colpick_block_ops, &c, out);
        return;
    }
    if (strcmp(block, "wst") != 0) return;
    s->record_wst = out;
    if (out && s->cfg.dws) block_trace_header(s->wpu[0].wst_ops, &s->wpu[0].wst_cfg, out);
}

void wsim_destroy(wsim_t *s)
{
    if (!s) return;
    for (int i = 0; s->wpu && i < s->nwpus; i++) { /* (also a machine whose creation failed part-way) */
        for (int k = 0; s->wpu[i].warp && k < s->nwarps; k++) {
            rs_free(&s->wpu[i].warp[k].rs);
        }
        for (int k = 0; s->wpu[i].grp && k < s->wpu[i].ngrp; k++) rs_free(&s->wpu[i].grp[k].own);
        free(s->wpu[i].warp);
        free(s->wpu[i].grp);
        free(s->wpu[i].avail);
        free(s->wpu[i].key);
        twolev_free_wpu(&s->wpu[i]);
        MECH_CALL(s, free_wpu, s, &s->wpu[i]);
    }
    roi_free(s);
    free(s->wpu);
    free(s->threads_mem);
    free(s->exit_code);
    free(s->bprof);
    free(s->instret);
    free(s->tstate);
    mem_destroy(s->mem);
    memsys_free(&s->ms);
    program_free(s->prog);
    free(s);
}

void wsim_set_trace(wsim_t *s, FILE *out) { s->trace = out; }
void wsim_request_stop(wsim_t *s) { s->stop_requested = 1; }

wsim_status_t wsim_run(wsim_t *s) { return wsim_run_until(s, NEVER); }

/* The run loop. It stops at `until` with WSIM_RUNNING and resumes in the
 * next call exactly where it was (the watchdog's next look and the idle
 * skip's bookkeeping live in s), so a run in budgets is the same run, cycle
 * for cycle, as one call. */
wsim_status_t wsim_run_until(wsim_t *s, uint64_t until)
{
    wsim_status_t st = WSIM_DONE;
    if (!s->launched) {
        launch_resident(s);
        s->next_watch = s->cfg.watchdog ? s->cycle + s->cfg.watchdog : NEVER;
    }
    while (s->resident_warps > 0) {
        if (s->cycle >= until) { st = WSIM_RUNNING; break; }
        if (s->cfg.max_cycles && s->cycle >= s->cfg.max_cycles) { st = WSIM_MAX_CYCLES; break; }
        if (s->stop_requested) { st = WSIM_INTERRUPTED; break; }
        if (s->cycle >= s->next_watch) {
            if (report_watchdog(s)) { st = WSIM_DEADLOCK; break; }
            s->next_watch = s->cycle + s->cfg.watchdog / 4 + 1;
        }
        wpu_clock_all(s);
        if (s->roi_pending) { /* a marking barrier released in this cycle */
            roi_mark(s, (int)s->roi_pending);
            s->roi_pending = 0;
        }
        if (s->block_failed) { /* a lockstep block's mismatch (reported by it) */
            s->cycle++;
            st = WSIM_CHECK_FAILED;
            break;
        }
        if (s->cfg.check) {
            char msg[2048];
            if (check_machine(s, msg, sizeof msg)) {
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
        if (next > s->next_watch) next = s->next_watch;
        if (next > until) next = until; /* (the stall accounting adds up the same in two parts) */
        s->cycle++;
        if (next > s->cycle) {
            for (int i = 0; i < s->nwpus; i++) wpu_account_stall(s, &s->wpu[i], next - s->cycle);
            s->cycle = next;
        }
    }
    if (st == WSIM_RUNNING) return st;
    memsys_drain(&s->ms); /* data still in bulksync L1s goes home: dumps see it */
    s->status_reason = (int)st;
    return st;
}

uint64_t wsim_cycles(const wsim_t *s) { return s->cycle; }
