/* The machine: its creation from a configuration and a program, the run
 * loop over all WPUs with idle-time skipping, the watchdog and --check, and
 * its teardown. A WPU's clock is wpu.c's; warps and barriers are warp.c's;
 * reports are report.c's (docs/architecture.md). */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat, strdup (--input) */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cfgraph.h"
#include "core.h"
#include "grid.h"
#include "mech/mech.h"
#include "timeline.h"

/* The mechanisms of configuration c (mech/mech.h), in hook order; none is
 * Conv. The only place that names them. */
static int mech_choose(const wsim_config_t *c, const mech_ops_t **m)
{
    int n = 0;
    if (c->dws) m[n++] = &dws_mech;
    if (c->scheduler == CFG_SCHEDULER_TWOLEVEL) m[n++] = &twolev_mech;
    if (c->dom) m[n++] = &dom_mech;
    if (c->lwm) m[n++] = &lwm_mech;
    return n;
}

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
    /* Warp shuffles read other lanes' registers as they stand: they need a
     * warp's threads together. DWS splits and DoM's masked-off threads let
     * them run apart (mech_ops_t.apart); bringing them together at a
     * shuffle is not modelled. */
    const mech_ops_t *mech[WSIM_MECHS] = {0};
    const int nmech = mech_choose(&c, mech);
    const char *apart = NULL;
    for (int i = 0; i < nmech && !apart; i++) apart = mech[i]->apart;
    if (apart) {
        size_t words = (p->code_hi - p->code_lo) / 4;
        for (size_t k = 0; k < words; k++)
            if (p->analysed[k] && p->code[k].cls == ISA_CLASS_SHUFFLE) {
                snprintf(err, errlen, "%s: the kernel uses warp shuffles (%s at 0x%08x), which need a warp's threads "
                         "together; %s lets them run apart and re-converging them at a shuffle is not modelled: run "
                         "it with dws = off and dom = off (e.g. --policy Conv, 2Lev or LWM; docs/irregular.md)",
                         elf_path, isa_mnemonic(p->code[k].op), p->code_lo + 4 * (uint32_t)k, apart);
                program_free(p);
                return NULL;
            }
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
    s->join_prog = (join_prog_t){p->join_at, p->rpo, p->code_lo, p->code_hi};
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
    memcpy(s->mech, mech, sizeof mech);
    s->nmech = nmech;
    /* what the mechanisms need of the machine: groups per WPU (DWS: one per
     * warp-split table entry), the scheduler's keys, their group selection */
    int ngrp = (int)c.warps, keys = 0;
    const select_ops_t *sel = &sched_select;
    MECH_EACH(s, m) {
        if (m->groups) ngrp = m->groups(&c);
        if (m->uses_keys && m->uses_keys(&c)) keys = 1;
        if (m->select) sel = m->select;
        if (!m->only_selects) s->group_stats = 1;
    }
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
    ALLOC(s->meta_mem, slot_threads, "the lanes' metadata");
    s->grid_nwarps = (uint32_t)s->total_warps;
    ALLOC(s->wpu, s->nwpus, "the WPUs");
    for (int i = 0; i < s->nwpus; i++) {
        wpu_t *u = &s->wpu[i];
        u->id = i;
        ALLOC(u->warp, s->nwarps, "the warp slots");
        u->ngrp = ngrp;
        u->sel = sel;
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
        sched_config_t sc = {.slots = u->ngrp, .prio = keys};
        if (sched_init(&u->sched, &sc, err, errlen) < 0) { /* config.def's ranges rule this out */
            fprintf(stderr, "wpusim: internal: %s\n", err);
            abort();
        }
        for (int k = 0; k < s->nwarps; k++) {
            warp_t *w = &u->warp[k];
            w->wpu = i, w->slot = k, w->gid = -1;
            rs_init(&w->rs);
            w->th = s->threads_mem + ((size_t)i * (size_t)s->nwarps + (size_t)k) * (size_t)s->warp_size;
            w->meta = s->meta_mem + ((size_t)i * (size_t)s->nwarps + (size_t)k) * (size_t)s->warp_size;
            if (c.reconv == CFG_RECONV_JOIN && join_attach(&w->rs, s->warp_size, &s->join_prog) < 0) {
                snprintf(err, errlen, "out of host memory for the lanes' candidate PCs (reconv = join)");
                wsim_destroy(s);
                return NULL;
            }
        }
        if (c.core == CFG_CORE_VECTOR) { /* 003's vector core: its execution units and its PRT */
            ALLOC(u->vc, 1, "the vector core");
            const uint64_t n[VEC_KINDS] = {c.vec_fma, c.vec_alu, c.vec_div, c.vec_ld, c.vec_st};
            int units = 0;
            for (int k = 0; k < VEC_KINDS; k++) {
                u->vc->n[k] = (int)n[k];
                units += (int)n[k];
                ALLOC(u->vc->free_at[k], n[k], "the vector core's units");
            }
            if (i == 0) { /* the program's registers, numbered densely (the compiler phase's job) */
                size_t words = (p->code_hi - p->code_lo) / 4;
                uint8_t used[64] = {0}, r[4];
                for (size_t w = 0; w < words; w++)
                    if (p->analysed[w])
                        for (int o = 0, no = isa_operands(&p->code[w], r); o < no; o++) used[r[o]] = 1;
                for (int a = 0; a < 64; a++) s->reg_index[a] = used[a] ? (uint8_t)s->nregs++ : 0;
                if (!s->nregs) s->nregs = 1;
            }
            int vlw = 1;
            while ((1 << vlw) <= s->warp_size) vlw++;
            const int phys = c.vec_regs ? (int)c.vec_regs : s->nwarps * s->nregs;
            int physw = 1, ports = 4 * units; /* (a clock renames 4 operands a unit, as the ports' width allows) */
            while ((1 << physw) < phys) physw++;
            if (ports > PRT_MAX_PORTS) ports = PRT_MAX_PORTS;
            if (ports > WSIM_MAX_LANES / physw) ports = WSIM_MAX_LANES / physw;
            u->vc->prt_cfg = (prt_config_t){.parts = s->nwarps, .regs = s->nregs, .phys = phys, .vl_w = vlw,
                                            .ports = ports};
            if (phys < s->nregs || phys > PRT_MAX_PHYS || s->nwarps > PRT_MAX_PARTS) {
                snprintf(err, errlen, "vec_regs: the partitioned register table holds %d slots of %d registers in "
                         "%d: allowed up to 32 partitions (warps) and %d .. 2048 registers (the program uses %d)",
                         s->nwarps, s->nregs, phys, s->nregs, s->nregs);
                wsim_destroy(s);
                return NULL;
            }
            char berr[512];
            if (block_new(s, &u->vc->prt, &prt_block_ops, &u->vc->prt_cfg, i, berr, sizeof berr) < 0) {
                snprintf(err, errlen, "%s", berr);
                wsim_destroy(s);
                return NULL;
            }
        }
        MECH_EACH(s, m) if (m->init_wpu && m->init_wpu(s, u, err, errlen) < 0) {
            wsim_destroy(s);
            return NULL;
        }
        if (s->block_err[0]) { /* the block hook refused a mechanism's block */
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
    if (!s->prepared) {
        char err[1024];
        if (wsim_prepare(s, err, sizeof err) < 0) { /* (wpusim prepares first and reports it) */
            fprintf(stderr, "wpusim: %s\n", err);
            s->total_warps = 0;
        }
    }
    int resident = s->nwpus * s->nwarps;
    for (int g = 0; g < s->total_warps && g < resident; g++) {
        wpu_t *u = &s->wpu[g % s->nwpus];
        warp_launch(s, g, u, &u->warp[g / s->nwpus], &u->grp[g / s->nwpus], 1);
    }
    s->next_warp = s->total_warps < resident ? s->total_warps : resident;
    for (int i = 0; i < s->nwpus; i++) s->wpu[i].next_ready = 0;
    s->launched = 1;
}

int wsim_set_record(wsim_t *s, const char *block, FILE *out) { return block_record(s, block, out); }

void wsim_destroy(wsim_t *s)
{
    if (!s) return;
    timeline_discard(s);
    for (int i = 0; s->wpu && i < s->nwpus; i++) { /* (also a machine whose creation failed part-way) */
        for (int k = 0; s->wpu[i].warp && k < s->nwarps; k++) {
            rs_free(&s->wpu[i].warp[k].rs);
        }
        for (int k = 0; s->wpu[i].grp && k < s->wpu[i].ngrp; k++) rs_free(&s->wpu[i].grp[k].own);
        free(s->wpu[i].warp);
        free(s->wpu[i].grp);
        free(s->wpu[i].avail);
        free(s->wpu[i].key);
        if (s->wpu[i].vc) {
            for (int k = 0; k < VEC_KINDS; k++) free(s->wpu[i].vc->free_at[k]);
            block_free(&s->wpu[i].vc->prt);
            free(s->wpu[i].vc);
        }
        MECH_CALL(s, free_wpu, s, &s->wpu[i]);
    }
    roi_free(s);
    free(s->check_sum);
    free(s->blocks);
    free(s->wpu);
    free(s->threads_mem);
    free(s->meta_mem);
    grid_free(s);
    if (s->grid_req) {
        free(s->grid_req->sizes);
        for (int i = 0; i < s->grid_req->ninputs; i++) free(s->grid_req->input_name[i]), free(s->grid_req->input_path[i]);
        free(s->grid_req->input_name), free(s->grid_req->input_path);
        free(s->grid_req);
    }
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
        s->last_watch = s->cycle;
    }
    while (s->resident_warps > 0) {
        if (s->cycle >= until) { st = WSIM_RUNNING; break; }
        if (s->cfg.max_cycles && s->cycle >= s->cfg.max_cycles) { st = WSIM_MAX_CYCLES; break; }
        if (s->stop_requested) { st = WSIM_INTERRUPTED; break; }
        if (s->cycle >= s->next_watch) {
            if (report_watchdog(s)) { st = WSIM_DEADLOCK; break; }
            s->next_watch = s->cycle + s->cfg.watchdog / 4 + 1;
            s->last_watch = s->cycle;
        }
        TIMELINE(s, tl_sample(s));
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

/* ---- irregular grids (grid.c, docs/irregular.md) ---- */

static grid_request_t *grid_req(struct wsim *s)
{
    if (!s->grid_req && (s->grid_req = calloc(1, sizeof *s->grid_req))) s->grid_req->only = -1;
    return s->grid_req;
}

int wsim_set_warp_sizes(wsim_t *s, const char *arg, char *err, size_t errlen)
{
    if (s->launched || s->prepared) {
        snprintf(err, errlen, "--warp-sizes: the grid is set before the launch");
        return -1;
    }
    uint32_t *v;
    long n = grid_parse_sizes(arg, (uint32_t)s->warp_size, &v, err, errlen);
    if (n < 0) return -1;
    grid_request_t *r = grid_req(s);
    if (!r) {
        free(v);
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    free(r->sizes);
    r->sizes = v, r->n = n;
    return 0;
}

/* The SIMD instructions warp `w` of the grid takes alone: a machine of the
 * same configuration and inputs that launches it alone (003 §IV-B: the
 * instruction count of each ntids). */
static long long measure_warp(struct wsim *s, const uint32_t *sizes, uint32_t m, uint32_t w, char *err, size_t errlen)
{
    wsim_config_t c = s->cfg;
    c.pack = CFG_PACK_NONE;
    c.check = 0;
    c.threads = 0;
    struct wsim *t = wsim_create_with(&c, s->prog->path, NULL, err, errlen);
    if (!t) return -1;
    long long insts = -1;
    grid_request_t *r = grid_req(t), *pr = s->grid_req;
    if (!r || !(r->sizes = malloc((size_t)m * sizeof *r->sizes))) {
        snprintf(err, errlen, "out of host memory measuring the warps for packing");
        goto out;
    }
    memcpy(r->sizes, sizes, (size_t)m * sizeof *sizes);
    r->n = m, r->only = w;
    for (int i = 0; pr && i < pr->ninputs; i++)
        if (wsim_set_input(t, pr->input_name[i], pr->input_path[i], err, errlen) < 0) goto out;
    if (wsim_prepare(t, err, errlen) < 0) goto out;
    wsim_status_t st = wsim_run(t);
    const grid_t *g = t->grid;
    for (uint32_t j = 0; j < g->size[w]; j++) {
        uint32_t tid = g->tid0[w] + j;
        if (st != WSIM_DONE || t->tstate[tid] != TS_EXITED || t->exit_code[tid] != 0) {
            snprintf(err, errlen, "packing: measuring warp %u (%u threads) alone to count its instructions: %s", w,
                     g->size[w], st != WSIM_DONE ? "the run did not finish" : "a thread failed (run the grid with --pack none to see it)");
            goto out;
        }
    }
    insts = 0;
    for (int i = 0; i < t->nwpus; i++) insts += (long long)t->wpu[i].st.warp_insts;
out:
    wsim_destroy(t);
    return insts;
}

int wsim_prepare(wsim_t *s, char *err, size_t errlen)
{
    if (s->prepared) return 0;
    const grid_request_t *r = s->grid_req;
    uint32_t *sizes = NULL;
    long m;
    if (r && r->sizes) {
        if (!(sizes = malloc((size_t)r->n * sizeof *sizes))) goto oom;
        memcpy(sizes, r->sizes, (size_t)r->n * sizeof *sizes);
        m = r->n;
    } else if ((m = grid_kernel_sizes(s->prog, s->mem, (uint32_t)s->warp_size, &sizes, err, errlen)) < 0) {
        return -1;
    }
    if (m == 0) { /* the fixed grid */
        if (s->cfg.pack != CFG_PACK_NONE) {
            snprintf(err, errlen, "pack = threshold packs the warps of an irregular grid; this run has the fixed grid "
                     "(give --warp-sizes, or a kernel that declares its grid)");
            return -1;
        }
        s->prepared = 1;
        return 0;
    }
    uint64_t total = 0;
    for (long i = 0; i < m; i++) total += sizes[i];
    if (total > GRID_MAX_THREADS) {
        snprintf(err, errlen, "the grid's %ld warps hold %llu threads; the machine runs at most %u", m,
                 (unsigned long long)total, GRID_MAX_THREADS);
        free(sizes);
        return -1;
    }
    if (total * s->cfg.stack_size > s->cfg.stack_top - 0x1000) {
        snprintf(err, errlen, "the grid's %llu threads x stack_size %llu bytes do not fit below stack_top 0x%llx; "
                 "lower stack_size (--set stack_size=N)", (unsigned long long)total,
                 (unsigned long long)s->cfg.stack_size, (unsigned long long)s->cfg.stack_top);
        free(sizes);
        return -1;
    }
    uint64_t stack_lo = s->cfg.stack_top - total * s->cfg.stack_size;
    int ov = program_overlaps(s->prog, stack_lo, s->cfg.stack_top);
    if (ov >= 0) {
        snprintf(err, errlen, "%s: the grid's thread stacks 0x%08llx-0x%08llx overlap loadable segment %d at 0x%08x; "
                 "lower stack_size (--set stack_size=N)", s->prog->path, (unsigned long long)stack_lo,
                 (unsigned long long)s->cfg.stack_top - 1, ov, s->prog->seg[ov].vaddr);
        free(sizes);
        return -1;
    }
    /* packing: the instruction count of one warp of each size, measured */
    long threshold = -1;
    uint64_t *insts = NULL;
    long only = r ? r->only : -1;
    if (s->cfg.pack == CFG_PACK_THRESHOLD && only < 0) {
        uint32_t *vals, *first;
        long nd = grid_distinct(sizes, (uint32_t)m, &vals, &first);
        if (nd < 0 || !(insts = malloc((size_t)nd * sizeof *insts))) {
            if (nd >= 0) free(vals), free(first);
            free(sizes);
            goto oom;
        }
        for (long k = 0; k < nd; k++) {
            long long n = measure_warp(s, sizes, (uint32_t)m, first[k], err, errlen);
            if (n < 0) {
                free(vals), free(first), free(insts), free(sizes);
                return -1;
            }
            insts[k] = (uint64_t)n;
        }
        free(vals), free(first);
        threshold = (long)s->cfg.pack_threshold;
    }
    grid_t *g = grid_new(sizes, (uint32_t)m, (uint32_t)s->warp_size, (uint32_t)s->cfg.grid_order_seed, threshold,
                         insts, only);
    free(insts);
    if (!g) {
        free(sizes);
        goto oom;
    }
    /* the threads are the grid's */
    int32_t *ec = calloc(g->nthreads, sizeof *ec);
    uint64_t *ir = calloc(g->nthreads, sizeof *ir);
    uint8_t *ts = malloc(g->nthreads);
    if (!ec || !ir || !ts) {
        free(ec), free(ir), free(ts);
        grid_delete(g);
        goto oom;
    }
    memset(ts, TS_PENDING, g->nthreads);
    free(s->exit_code), free(s->instret), free(s->tstate);
    s->exit_code = ec, s->instret = ir, s->tstate = ts;
    s->grid = g;
    s->nthreads = g->nthreads;
    s->live_threads = 0;
    for (uint32_t k = 0; k < g->nlaunch; k++) s->live_threads += g->size[g->launch[k]];
    s->total_warps = (int)g->nparts;
    s->grid_nwarps = g->m;
    s->stack_lo = stack_lo >= s->cfg.stack_size + PROG_GUARD_END &&
                          program_overlaps(s->prog, stack_lo - s->cfg.stack_size, stack_lo) < 0
                      ? stack_lo - s->cfg.stack_size
                      : stack_lo;
    s->prepared = 1;
    return 0;
oom:
    snprintf(err, errlen, "out of host memory building the grid");
    return -1;
}

uint32_t wsim_grid_threads(const wsim_t *s) { return s->grid ? s->grid->nthreads : 0; }

/* ---- input regions (WSIM_INPUT in warpsplit.h, docs/irregular.md) ----
 * Records of section wsim_inputs: {name, address, size, format tag}. The
 * file must start with the tag (its first 4 bytes, little-endian) and fit
 * the region; its bytes replace the region's, the rest reads as zero. */
static void input_name_at(const struct wsim *s, uint32_t a, char *buf, size_t len)
{
    size_t i = 0;
    for (; i + 1 < len; i++) {
        char c = (char)mem_read(s->mem, a + (uint32_t)i, 1);
        if (!c) break;
        buf[i] = c;
    }
    buf[i] = 0;
}

int wsim_set_input(wsim_t *s, const char *name, const char *path, char *err, size_t errlen)
{
    const program_t *p = s->prog;
    if (s->launched || s->prepared) {
        snprintf(err, errlen, "--input %s=%s: inputs are given before the launch", name, path);
        return -1;
    }
    char have[512] = "", nm[64];
    size_t used = 0;
    uint32_t rec = 0;
    for (uint32_t a = p->inputs_lo; a + 16 <= p->inputs_hi; a += 16) {
        input_name_at(s, mem_read(s->mem, a, 4), nm, sizeof nm);
        if (!strcmp(nm, name)) { rec = a; break; }
        if (used < sizeof have) used += (size_t)snprintf(have + used, sizeof have - used, "%s%s", used ? ", " : "", nm);
    }
    if (!rec) {
        snprintf(err, errlen, "--input %s=%s: %s declares no input named '%s'%s%s", name, path, p->path, name,
                 used ? "; its inputs: " : " (it declares no inputs: WSIM_INPUT)", have);
        return -1;
    }
    uint32_t addr = mem_read(s->mem, rec + 4, 4), size = mem_read(s->mem, rec + 8, 4), tag = mem_read(s->mem, rec + 12, 4);
    int sg = program_overlaps(p, addr, (uint64_t)addr + size);
    if (sg < 0 || addr < p->seg[sg].vaddr || (uint64_t)addr + size > (uint64_t)p->seg[sg].vaddr + p->seg[sg].memsz) {
        snprintf(err, errlen, "%s: input record '%s' names 0x%08x+%u bytes, not inside one loaded segment", p->path,
                 name, addr, size);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "--input %s=%s: cannot read: %s", name, path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        snprintf(err, errlen, "--input %s=%s: not a regular file", name, path);
        return -1;
    }
    if ((uint64_t)st.st_size > size) {
        fclose(f);
        snprintf(err, errlen, "--input %s=%s: the file has %llu bytes; the kernel's region '%s' holds %u: a smaller "
                 "input, or a kernel built with a larger region", name, path, (unsigned long long)st.st_size, name,
                 size);
        return -1;
    }
    uint8_t buf[65536];
    uint32_t done = 0;
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0; done += (uint32_t)n) {
        if (done == 0 && tag && (n < 4 || (uint32_t)(buf[0] | buf[1] << 8 | buf[2] << 16 | (uint32_t)buf[3] << 24) != tag)) {
            fclose(f);
            snprintf(err, errlen, "--input %s=%s: the file does not start with the region's format tag 0x%08x "
                     "('%c%c%c%c'): not an input made for '%s' (scripts/mtx.py writes them; docs/irregular.md)", name,
                     path, tag, tag & 0xff, tag >> 8 & 0xff, tag >> 16 & 0xff, tag >> 24, name);
            return -1;
        }
        mem_write_bytes(s->mem, addr + done, buf, (uint32_t)n);
    }
    int bad = ferror(f);
    fclose(f);
    if (bad || (done == 0 && tag)) {
        snprintf(err, errlen, "--input %s=%s: %s", name, path, bad ? "read error" : "the file is empty");
        return -1;
    }
    if (done < size) mem_zero(s->mem, addr + done, size - done);
    grid_request_t *r = grid_req(s);
    char **nn = r ? realloc(r->input_name, (size_t)(r->ninputs + 1) * sizeof *nn) : NULL;
    if (nn) r->input_name = nn;
    char **np = nn ? realloc(r->input_path, (size_t)(r->ninputs + 1) * sizeof *np) : NULL;
    if (np) r->input_path = np;
    if (!np || !(r->input_name[r->ninputs] = strdup(name)) || !(r->input_path[r->ninputs] = strdup(path))) {
        if (np) free(r->input_name[r->ninputs]);
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    r->ninputs++;
    return 0;
}
