/* What the machine tells its user: statistics (text and JSON), failing
 * threads, the deadlock and watchdog reports, the kernel's results and the
 * control-flow dump. Reads the machine; changes nothing. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cfgraph.h"
#include "core.h"
#include "grid.h"
#include "mech/mech.h"

void report_deadlock(const struct wsim *s)
{
    char where[128], mask[WSIM_MAX_LANES / 4 + 2];
    int partial = 0, shown = 0;
    fprintf(stderr, "wpusim: deadlock at cycle %llu: no SIMD group can ever issue again; "
                    "%u of %u live threads wait at the barrier\n",
            (unsigned long long)s->cycle, s->barrier_arrived, s->live_threads);
    for (int i = 0; i < s->nwpus; i++)
        for (int k = 0; k < s->nwarps; k++) {
            const warp_t *w = &s->wpu[i].warp[k];
            if (w->gid < 0) continue;
            wmask_t missing = wmask_andnot(w->live, w->at_barrier);
            if (wmask_any(&missing)) partial = 1;
            if (shown++ >= 16) continue;
            program_describe_pc(s->prog, w->barrier_pc, where, sizeof where);
            wmask_hex(&w->at_barrier, s->warp_size, mask);
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
                wmask_hex(&missing, s->warp_size, mask);
                fprintf(stderr, "; lanes %s have not arrived (parked at %s)", mask, where);
            }
            fputc('\n', stderr);
            MECH_CALL(s, deadlock, s, w, stderr); /* (DWS: the warp's splits) */
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
int report_watchdog(const struct wsim *s)
{
    if (mech_watch(s, stderr)) return 1;
    for (int i = 0; i < s->nwpus; i++)
        for (int k = 0; k < s->nwarps; k++) {
            const warp_t *w = &s->wpu[i].warp[k];
            if (w->gid < 0 || s->cycle - w->last_issue <= s->cfg.watchdog) continue;
            int all_barrier = 1;
            const wpu_t *u = &s->wpu[i];
            for (int j = 0; j < u->ngrp; j++)
                if (u->grp[j].w == w && u->grp[j].wait != WAIT_BARRIER) all_barrier = 0;
            if (all_barrier) continue;
            if (mech_starves(s, u, w)) continue; /* (e.g. two-level priority without a timeout) */
            fprintf(stderr, "wpusim: watchdog at cycle %llu: WPU %d warp %d (threads %u..) has issued nothing "
                            "since cycle %llu; its SIMD groups:\n",
                    (unsigned long long)s->cycle, i, k, w->tid0, (unsigned long long)w->last_issue);
            group_report(s, w, stderr);
            /* starved, not stuck: another warp of the WPU kept issuing (a loop
             * without loads or stores never gives the pipeline up under
             * switch_on = access or miss, 001 §3.3) */
            const warp_t *hog = NULL;
            for (int j = 0; j < s->nwarps; j++) {
                const warp_t *o = &u->warp[j];
                if (o != w && o->gid >= 0 && s->cycle - o->last_issue <= 1 && (!hog || o->last_issue > hog->last_issue))
                    hog = o;
            }
            if (hog && s->cfg.switch_on != CFG_SWITCH_ON_CYCLE)
                fprintf(stderr, "  starved: warp %d (threads %u..) keeps the pipeline, issuing without a cache access "
                                "(switch_on = %s gives the pipeline up only at one); a loop without loads or stores "
                                "never yields: --set switch_on=cycle switches every cycle\n",
                        hog->slot, hog->tid0, s->cfg.switch_on == CFG_SWITCH_ON_ACCESS ? "access" : "miss");
            else
                fprintf(stderr, "  (a simulator bug: please report it with this output; raise or disable with "
                                "--set watchdog=N)\n");
            return 1;
        }
    return 0;
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
    /* (per warp instruction: under lwm, a large warp's threads, not its sub-warps' lanes) */
    return t->warp_insts ? (double)t->thread_insts / ((double)t->warp_insts * s->warp_size) : 0.0;
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

static void print_stats_json(const wsim_config_t *c, const stats_t *t, FILE *out, const char *indent)
{
#define STAT(name, help) fprintf(out, "%s\"%s\": %llu,\n", indent, #name, (unsigned long long)t->name);
#define STAT_IF(name, when, help) if (when) STAT(name, help)
#include "stats.def"
#undef STAT
}

/* An irregular grid (docs/irregular.md): its warps, partitions and, packed,
 * the buckets of 003 §IV-B with each size's measured instruction count. */
static void grid_print(const wsim_t *s, FILE *out, int json)
{
    const grid_t *g = s->grid;
    if (!g) return;
    uint32_t lo = g->nsizes ? g->sizes[0] : 0, hi = g->nsizes ? g->sizes[g->nsizes - 1] : 0;
    if (!json) {
        fprintf(out, "  irregular grid        %u warps of %u..%u threads (%u threads) in %u partitions, mean vector "
                     "length %.1f of %d lanes", g->m, lo, hi, g->nthreads, g->nparts,
                g->nparts ? (double)g->packed_lanes / g->nparts : 0.0, s->warp_size);
        if (g->insts) fprintf(out, "; packed: %u sizes in %u buckets (threshold %llu)", g->nsizes, g->nbuckets,
                              (unsigned long long)s->cfg.pack_threshold);
        fprintf(out, "%s\n", s->cfg.grid_order_seed ? ", shuffled" : "");
        return;
    }
    fprintf(out, "  \"grid\": {\"warps\": %u, \"threads\": %u, \"partitions\": %u, \"packed_lanes\": %llu, "
                 "\"buckets\": %u, \"sizes\": [", g->m, g->nthreads, g->nparts, (unsigned long long)g->packed_lanes,
            g->nbuckets);
    for (uint32_t k = 0; k < g->nsizes; k++) fprintf(out, "%s%u", k ? ", " : "", g->sizes[k]);
    fprintf(out, "], \"size_insts\": [");
    for (uint32_t k = 0; g->insts && k < g->nsizes; k++) fprintf(out, "%s%llu", k ? ", " : "", (unsigned long long)g->insts[k]);
    fprintf(out, "], \"size_bucket\": [");
    for (uint32_t k = 0; g->bucket && k < g->nsizes; k++) fprintf(out, "%s%u", k ? ", " : "", g->bucket[k]);
    fprintf(out, "]},\n");
}

/* The counters' JSON members: cycles, the totals, each WPU, the memory
 * system, the mechanisms' own, the divergence degrees (each line ends in ","). */
static void print_counters_json(const wsim_t *s, const stats_t *t, FILE *out)
{
    fprintf(out, "  \"cycles\": %llu,\n  \"total\": {\n", (unsigned long long)s->cycle);
    print_stats_json(&s->cfg, t, out, "    ");
    fprintf(out, "    \"simd_efficiency\": %.6f\n  },\n  \"wpu\": [\n", simd_eff(s, t));
    for (int i = 0; i < s->nwpus; i++) {
        fprintf(out, "    {\n");
        print_stats_json(&s->cfg, &s->wpu[i].st, out, "      ");
        fprintf(out, "      \"simd_efficiency\": %.6f\n    }%s\n", simd_eff(s, &s->wpu[i].st),
                i + 1 < s->nwpus ? "," : "");
    }
    fprintf(out, "  ],\n");
    memsys_print_stats(&s->ms, out, 1);
    MECH_CALL(s, stats, s, t, out, 1);
    fprintf(out, "  \"div_degree\": [");
    for (int k = 0; k <= s->warp_size; k++) { /* [k]: accesses with k missing threads */
        uint64_t n = 0;
        for (int i = 0; i < s->nwpus; i++) n += s->wpu[i].div_degree[k];
        fprintf(out, "%s%llu", k ? ", " : "", (unsigned long long)n);
    }
    fprintf(out, "],\n");
}

/* The counters as text: what the machine did, its mechanisms, its memory. */
static void print_counters_text(const wsim_t *s, const stats_t *t, FILE *out)
{
    fprintf(out, "  cycles                %llu\n", (unsigned long long)s->cycle);
    fprintf(out, "  warp instructions     %llu\n", (unsigned long long)t->warp_insts);
    fprintf(out, "  thread instructions   %llu\n", (unsigned long long)t->thread_insts);
    fprintf(out, "  SIMD efficiency       %.4f\n", simd_eff(s, t));
    fprintf(out, "  branches              %llu (divergent %llu; non-loop %llu, divergent %llu)\n",
            (unsigned long long)t->branches, (unsigned long long)t->div_branches,
            (unsigned long long)t->nonloop_branches, (unsigned long long)t->nonloop_div_branches);
    fprintf(out, "  calls                 %llu (divergent indirect %llu)\n", (unsigned long long)t->calls,
            (unsigned long long)t->div_calls);
    fprintf(out, "  loads / stores        %llu / %llu\n", (unsigned long long)t->loads, (unsigned long long)t->stores);
    fprintf(out, "  barrier instructions  %llu\n", (unsigned long long)t->barriers);
    fprintf(out, "  WPU cycles: issue %llu, waiting on memory %llu, idle %llu\n",
            (unsigned long long)t->cycles_issue, (unsigned long long)t->cycles_memwait,
            (unsigned long long)t->cycles_idle);
    fprintf(out, "  deepest re-convergence stack %llu\n", (unsigned long long)t->max_stack);
    fprintf(out, "  memory instructions   %llu with a miss, %llu divergent (hit and miss); issue stalls: "
                 "no free MSHR %llu, I-fetch %llu\n",
            (unsigned long long)t->mem_miss_insts, (unsigned long long)t->mem_div_insts,
            (unsigned long long)t->mshr_stalls, (unsigned long long)t->fetch_stalls);
    MECH_CALL(s, stats, s, t, out, 0); /* (text) */
    if (s->cfg.core == CFG_CORE_VECTOR) { /* 003's vector core: execution-unit utilization */
        const vcore_t *v = s->wpu[0].vc;
        const double cyc = (double)s->cycle * s->nwpus;
        const uint64_t busy[VEC_KINDS] = {t->vec_busy_fma, t->vec_busy_alu, t->vec_busy_div, t->vec_busy_ld, t->vec_busy_st};
        static const char *const name[VEC_KINDS] = {"FMA", "ALU", "DIV", "LD", "ST"};
        uint64_t all = 0;
        int units = 0;
        for (int k = 0; k < VEC_KINDS; k++) all += busy[k], units += v->n[k];
        fprintf(out, "  vector core           %d partitions; utilization %.4f of %d units (", s->nwarps,
                cyc ? (double)all / (cyc * units) : 0.0, units);
        for (int k = 0; k < VEC_KINDS; k++)
            fprintf(out, "%s%s %d: %.4f", k ? ", " : "", name[k], v->n[k], cyc ? (double)busy[k] / (cyc * v->n[k]) : 0.0);
        fprintf(out, "); empty cycles %llu; %llu cycles with several issues; unit busy %llu times\n",
                (unsigned long long)(s->cycle * (uint64_t)s->nwpus - t->vec_busy_any),
                (unsigned long long)t->vec_multi_issue, (unsigned long long)t->vec_unit_stalls);
    }
    if (s->cfg.reconv == CFG_RECONV_JOIN)
        fprintf(out, "  JOIN re-convergence   %llu tests, %llu switches of the running lanes\n",
                (unsigned long long)t->join_tests, (unsigned long long)t->join_switches);
    memsys_print_stats(&s->ms, out, 0);
}

/* The region of interest's counters, printed with the same printers as the
 * whole run's, one level deeper (a line-oriented reader of "  cycles" or
 * "  \"cycles\"" finds the whole run's): the region's values are swapped in
 * for the print and back (roi.c), so the machine is as it was on return. */
static void print_region(const wsim_t *cs, FILE *out, int json)
{
    wsim_t *s = (wsim_t *)cs;
    const roi_span_t sp = roi_span(s);
    const uint64_t cycle = s->cycle;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return;
    roi_swap(s, 1);
    s->cycle = sp.cycles;
    stats_t t;
    stats_total(s, &t);
    if (json) print_counters_json(s, &t, m);
    else print_counters_text(s, &t, m);
    s->cycle = cycle;
    roi_swap(s, 0);
    fclose(m);
    if (json)
        fprintf(out, "  \"roi\": {\n    \"first_cycle\": %llu,\n    \"last_cycle\": %llu,\n    \"intervals\": %d,\n",
                (unsigned long long)sp.first, (unsigned long long)sp.last, sp.intervals);
    else
        fprintf(out, "  region of interest    cycles %llu..%llu (%d interval%s%s)\n", (unsigned long long)sp.first,
                (unsigned long long)sp.last, sp.intervals, sp.intervals == 1 ? "" : "s",
                sp.complete ? "" : ", the last still open when the run stopped");
    for (const char *l = buf; l && *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l + 1) : strlen(l);
        fprintf(out, "  %.*s", (int)n, l);
        l += n;
    }
    free(buf);
    if (json) fprintf(out, "    \"complete\": %s\n  },\n", sp.complete ? "true" : "false");
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
        fprintf(out, "  },\n");
        print_counters_json(s, &t, out);
        MECH_CALL(s, stats_run, s, out); /* (DoM: the max slip per sampling period) */
        grid_print(s, out, 1);
        if (roi_marked(s)) print_region(s, out, 1);
        fprintf(out, "  \"threads\": {\n    \"instret_hash\": \"%016llx\",\n", (unsigned long long)instret_hash(s));
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
            s->nwpus, s->nwarps, s->lanes, s->nthreads, (unsigned long long)s->cfg.seed,
            (unsigned long long)s->cfg.arg);
    print_counters_text(s, &t, out);
    grid_print(s, out, 0);
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
    if (roi_marked(s)) print_region(s, out, 0);
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
