/* wpusim: run a RISC-V kernel on the WarpSplit C model. */
#define _POSIX_C_SOURCE 200809L /* sigaction, mkstemp, fchmod, lstat, clock_gettime */

#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "blocks/block.h"
#include "blocks/zfile.h"
#include "presets.h"
#include "wsim.h"
#ifdef WSIM_RTL
#include "rtl_loop.h" /* build/wpusim-rtl: RTL in the loop (sim/rtl_loop.mk) */
#endif

/* The builds of the C model this binary holds (wsim.h, wsim_core): the
 * 256-lane one, and in build/wpusim the 64-lane one. `core' drives the
 * machine; chosen once, before it is created. */
#ifdef WSIM_CORE64
extern const wsim_core_t wsim_core64;
#endif
static const wsim_core_t *core = &wsim_core;

enum { EXIT_PASS = 0, EXIT_THREADS_FAILED = 1, EXIT_USAGE = 2, EXIT_STOPPED = 3 };

/* A --set whose key the configured organization never reads is almost
 * always a mistake (setting mem_latency and seeing nothing change): say so. */
static void warn_if_unused(const wsim_config_t *c, const char *assignment)
{
    static const char *const org[] = {"fixed", "coherent", "bulksync", "private"};
    char key[64];
    size_t n = strcspn(assignment, "= ");
    if (n >= sizeof key) return;
    memcpy(key, assignment, n);
    key[n] = 0;
    const char *why = NULL;
    int fixed = c->memory == CFG_MEMORY_FIXED, coherent = c->memory == CFG_MEMORY_COHERENT, bulk = c->memory == CFG_MEMORY_BULKSYNC;
    int has_l2 = coherent || c->l2_private;
    if (!strcmp(key, "mem_latency") && !fixed) why = "it applies to memory = fixed";
    else if (fixed && (!strncmp(key, "l1d_", 4) || !strncmp(key, "l1i_", 4) || !strncmp(key, "l2_", 3) ||
                       !strncmp(key, "xbar_", 5) || !strncmp(key, "dram_", 5) || !strcmp(key, "bulksync_flush")))
        why = "memory = fixed has no caches or DRAM model";
    else if (!strncmp(key, "l2_", 3) && strcmp(key, "l2_private") && !has_l2)
        why = "there is no L2 (memory = bulksync or private without l2_private = 1)";
    else if (!strcmp(key, "bulksync_flush") && !bulk) why = "it applies to memory = bulksync";
    else if ((!strcmp(key, "dram_row") || !strcmp(key, "dram_row_hit") || !strcmp(key, "dram_row_conflict") ||
              !strcmp(key, "dram_map") || !strcmp(key, "dram_trcd") || !strcmp(key, "dram_trp") ||
              !strcmp(key, "dram_tras")) && !c->dram_banks)
        why = "dram_banks = 0 (no row model)";
    else if (!strcmp(key, "dram_latency") && c->dram_banks) why = "with dram_banks > 0 the row latencies apply";
    else if (!strncmp(key, "l1i_", 4) && strcmp(key, "l1i_size") && !c->l1i_size) why = "l1i_size = 0 (ideal fetch)";
    /* a mechanism's keys while it is off */
    const struct { const char *prefix; int off; const char *why; } mech[] = {
        {"dws_", !c->dws, "with dws = off; choose a policy, e.g. --policy DWS.ReviveSplit, or --set dws=on"},
        {"dom_", !c->dom, "with dom = off; choose a policy, e.g. --policy DoM.Adaptive, or --set dom=on"},
        {"fetch_", c->scheduler != CFG_SCHEDULER_TWOLEVEL,
         "without scheduler = twolevel; choose a policy, e.g. --policy 2Lev, or --set scheduler=twolevel"},
        {"lwm_", !c->lwm, "with lwm = off; choose --config lwm --policy LWM, or --set lwm=on"},
        {"private_latency", !c->private_mem,
         "with private_mem = 0; --set private_mem=1 (or --config lwm) gives the WPUs their private memory"},
    };
    for (size_t i = 0; !why && i < sizeof mech / sizeof mech[0]; i++)
        if (mech[i].off && !strncmp(key, mech[i].prefix, strlen(mech[i].prefix))) {
            fprintf(stderr, "wpusim: warning: --set %s has no effect %s\n", key, mech[i].why);
            return;
        }
    if (why) fprintf(stderr, "wpusim: warning: --set %s has no effect under memory = %s: %s\n", key, org[c->memory], why);
}

/* Whether one of the --set assignments (or their shortcuts) sets key. */
static int sets_key(const char *const *sets, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (strcspn(sets[i], "= ") == strlen(key) && !strncmp(sets[i], key, strlen(key))) return 1;
    return 0;
}

/* --config / --policy: a compiled-in name, else a file. */
static int load_named(wsim_config_t *cfg, const wsim_preset_t *table, const char *what, const char *name, char *err,
                      size_t errlen)
{
    for (const wsim_preset_t *p = table; p->name; p++)
        if (!strcmp(p->name, name)) {
            char origin[96];
            snprintf(origin, sizeof origin, "%s %s", what, p->name);
            return wsim_config_parse(cfg, p->text, origin, err, errlen);
        }
    struct stat st; /* (not opened here: a FIFO's open would wait; the loader refuses it) */
    if (stat(name, &st) != 0 && !strchr(name, '/') && !strstr(name, ".cfg")) {
        int n = snprintf(err, errlen, "--%s %s: no such %s or file; %s:", table == wsim_presets ? "config" : "policy",
                         name, what, table == wsim_presets ? "presets" : "policies");
        for (const wsim_preset_t *p = table; p->name && n > 0 && (size_t)n < errlen; p++)
            n += snprintf(err + n, errlen - (size_t)n, " %s", p->name);
        return -1;
    }
    return wsim_config_load(cfg, name, err, errlen);
}

/* SIGINT / SIGTERM (on_stop_signal, below): the first signal's number, and
 * the machine it stops. */
static volatile sig_atomic_t stop_signal;
static wsim_t *volatile running;

/* ---- output files ----
 * --stats-out and --dump go to a temporary file beside their path, renamed
 * into place only when complete: an existing file survives a run that
 * fails to start. Paths that are not regular files (/dev/null, a FIFO, a
 * symbolic link) are written in place. */
/* The temporaries that exist, for a signal that ends the process at once
 * to remove (on_stop_signal): a slot is cleared before its file is renamed
 * or removed and its name freed. */
static char *volatile live_tmp[4];

static void tmp_track(char *path, int on)
{
    for (size_t i = 0; i < sizeof live_tmp / sizeof live_tmp[0]; i++)
        if (on ? !live_tmp[i] : live_tmp[i] == path) {
            live_tmp[i] = on ? path : NULL;
            return;
        }
}

typedef struct outfile {
    const char *opt, *path; /* "--stats-out", as given */
    char *tmp;              /* the temporary file, or NULL: written in place */
    FILE *f;
} outfile_t;

static int out_open(outfile_t *o, const char *opt, const char *path, const char *mode)
{
    *o = (outfile_t){opt, path, NULL, NULL};
    if (!strcmp(path, "-") && strcmp(opt, "--dump")) { o->f = stdout; return 0; }
    struct stat st;
    int exists = lstat(path, &st) == 0;
    if ((!exists || S_ISREG(st.st_mode)) && (!exists || access(path, W_OK) == 0)) {
        size_t n = strlen(path) + sizeof ".wpusim-XXXXXX";
        int fd = -1;
        if ((o->tmp = malloc(n))) {
            snprintf(o->tmp, n, "%s.wpusim-XXXXXX", path);
            fd = mkstemp(o->tmp);
        }
        if (fd >= 0) {
            mode_t mask = umask(0);
            umask(mask);
            fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask);
            tmp_track(o->tmp, 1);
            if ((o->f = fdopen(fd, mode))) return 0;
            close(fd);
            tmp_track(o->tmp, 0);
            unlink(o->tmp);
        }
        free(o->tmp);
        o->tmp = NULL; /* e.g. a directory we may not write in: the file itself then */
    }
    if (!(o->f = fopen(path, mode))) {
        if (!stop_signal) /* (else a FIFO's open, interrupted: reported as such at exit) */
            fprintf(stderr, "wpusim: %s %s: cannot open for writing: %s\n", opt, path, strerror(errno));
        return -1;
    }
    return 0;
}

static int stdout_errno; /* why the first flush of stdout failed */

static void flush_stdout(void)
{
    errno = 0;
    if (fflush(stdout) != 0 && !stdout_errno) stdout_errno = errno ? errno : EIO;
}

/* Flush and close a written stream (stdout: flush only); -1, reported,
 * when any write to it failed. */
static int close_output(FILE *f, const char *what)
{
    int bad, e;
    if (f == stdout) {
        flush_stdout();
        e = stdout_errno, bad = e || ferror(f);
    } else {
        errno = 0;
        bad = fflush(f) != 0, e = errno;
        bad |= ferror(f) != 0;
        if (fclose(f) != 0 && (!bad || !e)) bad = 1, e = errno; /* (a .gz says why at its close) */
    }
    if (!bad) return 0;
    fprintf(stderr, "wpusim: %s: write failed: %s\n", what, e ? strerror(e) : "an earlier write was lost");
    return -1;
}

static int close_named(FILE *f, const char *opt, const char *path)
{
    if (f == stdout) return 0; /* checked once, at exit */
    char what[1024];
    snprintf(what, sizeof what, "%s %s", opt, path);
    return close_output(f, what);
}

/* A trace (--trace, --record-block): a plain file, or compressed when its
 * name ends in .gz (blocks/zfile.h: zlib, in this process), or stdout ('-'). */
static FILE *trace_open(const char *path)
{
    if (!strcmp(path, "-")) return stdout;
    return zfile_open(path, "w");
}

/* --timeline-window START:END (or START:): 0, or -1 with a message. */
static int parse_window(const char *v, uint64_t *from, uint64_t *to)
{
    char *end;
    errno = 0;
    unsigned long long a = strtoull(v, &end, 10), b = 0;
    int ok = end != v && *end == ':' && v[0] != '-' && !errno;
    if (ok && end[1]) {
        const char *p = end + 1;
        b = strtoull(p, &end, 10);
        ok = end != p && !*end && *p != '-' && !errno && b > a;
    }
    if (!ok) {
        fprintf(stderr, "wpusim: --timeline-window %s: expected START:END, cycles with START < END (or START: for "
                        "the rest of the run), e.g. --timeline-window 100000:120000\n", v);
        return -1;
    }
    *from = a, *to = b;
    return 0;
}

/* Finish o: close it and move the temporary into place. -1 on a write error. */
static int out_commit(outfile_t *o)
{
    int rc = o->f ? close_named(o->f, o->opt, o->path) : 0;
    o->f = NULL;
    if (o->tmp) {
        tmp_track(o->tmp, 0);
        if (rc == 0 && rename(o->tmp, o->path) != 0) {
            fprintf(stderr, "wpusim: %s %s: cannot replace it: %s\n", o->opt, o->path, strerror(errno));
            rc = -1;
        }
        if (rc != 0) unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
    }
    return rc;
}

/* Drop o: nothing written, an existing file untouched. */
static void out_discard(outfile_t *o)
{
    if (o->f && o->f != stdout) fclose(o->f);
    o->f = NULL;
    if (o->tmp) tmp_track(o->tmp, 0), unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
}

/* Where a path's writes land: the file (device, inode), or for a file not
 * there yet its directory and name. 0: no such identity to share (a
 * device, a FIFO, stdout, a directory that does not exist: out_open
 * reports that). */
typedef struct path_id {
    dev_t dev;
    ino_t ino;
    const char *name; /* NULL: the file exists */
} path_id_t;

static int path_id(const char *path, path_id_t *id)
{
    struct stat st;
    if (!strcmp(path, "-")) return 0;
    if (stat(path, &st) == 0) {
        *id = (path_id_t){st.st_dev, st.st_ino, NULL};
        return S_ISREG(st.st_mode);
    }
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (stat(dir, &st) != 0) return 0;
    *id = (path_id_t){st.st_dev, st.st_ino, slash ? slash + 1 : path};
    return 1;
}

/* path[0 .. outputs-1] are outputs, the rest inputs: 1 (reported) when an
 * output shares its file with another output or an input, or when two
 * traces go to stdout ('-': their lines would interleave). */
static int same_output(const char *const *what, const char *const *path, int outputs, int n)
{
    int on_stdout = -1;
    for (int i = 0; i < outputs; i++) {
        int trace = !strcmp(what[i], "--trace") || !strcmp(what[i], "--record-block") || !strcmp(what[i], "--timeline");
        const char *p = !strcmp(what[i], "--record-block") ? strchr(path[i], '=') + 1 : path[i];
        if (trace && !strcmp(p, "-")) {
            if (on_stdout >= 0) {
                fprintf(stderr, "wpusim: %s %s and %s %s both write to standard output; their lines would "
                        "interleave: give one a file\n", what[on_stdout], path[on_stdout], what[i], path[i]);
                return 1;
            }
            on_stdout = i;
        }
        path_id_t a, b;
        if (!path_id(p, &a)) continue;
        for (int j = i + 1; j < n; j++) {
            const char *q = j < outputs && !strcmp(what[j], "--record-block") ? strchr(path[j], '=') + 1 : path[j];
            if (!path_id(q, &b) || a.dev != b.dev || a.ino != b.ino || !a.name != !b.name ||
                (a.name && strcmp(a.name, b.name)))
                continue;
            if (j < outputs)
                fprintf(stderr, "wpusim: %s %s and %s %s are the same file: each output needs its own\n", what[i],
                        path[i], what[j], path[j]);
            else
                fprintf(stderr, "wpusim: %s %s would overwrite %s %s: write it elsewhere\n", what[i], path[i],
                        what[j], path[j]);
            return 1;
        }
    }
    return 0;
}

/* --core: "auto" (NULL), "64" or "256". */
static int choose_core(const char *want, const wsim_config_t *cfg, char *err, size_t errlen)
{
    if (!want || !strcmp(want, "auto")) {
#ifdef WSIM_CORE64
        int bits = wsim_config_mask_bits(cfg); /* 0: a bad configuration, whose error the 256-lane build gives */
        if (bits > 0 && bits <= wsim_core64.max_lanes) core = &wsim_core64;
#else
        (void)cfg;
#endif
        return 0;
    }
    if (!strcmp(want, "256")) return 0;
    if (!strcmp(want, "64")) {
#ifdef WSIM_CORE64
        core = &wsim_core64;
        return 0;
#else
        snprintf(err, errlen, "--core 64: this build holds only the 256-lane C model (build/wpusim holds both)");
        return -1;
#endif
    }
    snprintf(err, errlen, "--core: '%s' is not one of: auto, 64, 256", want);
    return -1;
}

/* ---- SIGINT / SIGTERM: stop at the end of the cycle ----
 * Caught from main's first line. The first signal stops the run at the end
 * of its cycle (one that comes while the run is being set up stops it
 * before its first); the statistics so far, the trace and the --dump
 * results are written. Further signals in the next second are the same
 * request again: a terminal's Ctrl-C on `timeout N wpusim` arrives three
 * times (the group, then timeout forwards it to the command and to the
 * group). One that comes later is a user who insists: it ends the process
 * at once. (stop_signal and running: declared above, with the outputs.) */
static struct timespec first_stop; /* when the first signal came */

static void on_stop_signal(int sig)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (stop_signal) {
        long long ms = (long long)(now.tv_sec - first_stop.tv_sec) * 1000 + (now.tv_nsec - first_stop.tv_nsec) / 1000000;
        if (ms < 1000) return;
        static const char msg[] = "wpusim: signalled again: ending at once, without statistics\n";
        ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
        for (size_t i = 0; i < sizeof live_tmp / sizeof live_tmp[0]; i++)
            if (live_tmp[i]) unlink(live_tmp[i]); /* existing outputs stay as they were */
        signal(sig, SIG_DFL);
        raise(sig); /* (blocked in here: delivered, and fatal, when the handler returns) */
        return;
    }
    first_stop = now;
    stop_signal = sig;
    wsim_t *s = running;
    if (s) core->request_stop(s);
}

/* restart 0 while the run is set up: a step blocked in open() (a FIFO
 * nobody reads) returns EINTR and the run ends; 1 from then on: a write to
 * a pipe that a signal interrupts goes on, nothing is lost. */
static void catch_stop_signals(int restart)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = restart ? SA_RESTART : 0;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT); /* one handler at a time */
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The run in budgets of cycles (wsim_run_until: the same run, cycle for
 * cycle), with a progress line on stderr about once a second: rewritten in
 * place on a terminal, one line each otherwise. The budget grows until a
 * step takes about a tenth of a second, so the clock is read rarely. */
static wsim_status_t run_with_progress(wsim_t *s, int tty)
{
    const double t0 = seconds_now();
    double last = t0;
    uint64_t budget = 4096;
    wsim_status_t st;
    while ((st = core->run_until(s, core->cycles(s) + budget)) == WSIM_RUNNING) {
        double now = seconds_now();
        if (now - last < 0.05 && budget < ((uint64_t)1 << 40)) budget *= 2;
        if (now - t0 < 1.0 || now - last < 1.0) continue;
        last = now;
        uint64_t n = core->thread_insts(s);
        fprintf(stderr, "%swpusim: cycle %llu, %llu thread-insts, %.3g thread-insts/s%s", tty ? "\r" : "",
                (unsigned long long)core->cycles(s), (unsigned long long)n, (double)n / (now - t0),
                tty ? "\033[K" : "\n");
    }
    double dt = seconds_now() - t0;
    uint64_t n = core->thread_insts(s);
    fprintf(stderr, "%swpusim: ran %llu cycles, %llu thread-insts in %.2f s (%.3g thread-insts/s; the %d-lane C model)\n",
            tty ? "\r\033[K" : "", (unsigned long long)core->cycles(s), (unsigned long long)n, dt,
            dt > 0 ? (double)n / dt : 0.0, core->max_lanes);
    return st;
}

/* ---- the options (sim/options.def) ---- */

/* --record-block BLOCK=FILE: one per block */
typedef struct record {
    char block[32];
    const char *path, *arg; /* FILE; BLOCK=FILE as given */
    FILE *f;
} record_t;

/* What the command line asks for. --config applies first (in order), then
 * every override (--set and its shortcuts) in order. */
typedef struct opts {
    const char *elf, *stats_out, *trace_path, *dump_path, *policy;
    const char *split_list, *bprof_path;          /* --split-list, --branch-profile */
    const char *stats_fmt;                        /* text, json, none */
    const char *rtl_blocks, *rtl_mode, *rtl_wave; /* --rtl, --rtl-mode, --rtl-wave */
    const char *core_want;                        /* --core */
    const char *timeline_path;                    /* --timeline FILE, its window [tl_from, tl_to) (0: to the end) */
    uint64_t tl_from, tl_to, tl_limit;            /* ... and size limit */
    const char *warp_sizes;                       /* --warp-sizes */
    int dump_cfg, print_config;
    int progress; /* --progress 1, --no-progress 0; -1: when stderr is a terminal */
    const char **configs, **sets, **inputs;       /* [argc] each; --input NAME=FILE */
    int nconfigs, nsets, ninputs;
    record_t *rec; /* [argc] */
    int nrec;
    char (*shortcut)[96]; /* the --set text of the shortcuts (--threads N: "threads=N") */
    int nshort;
} opts_t;

enum { OPT_TEXT, OPT_ONCE, OPT_ON, OPT_OFF, OPT_SET, OPT_ASSIGN, OPT_CALL };
enum { OPT_MAX_SHORTCUTS = 64 };

/* A CALL option: 0, -1 when reported (exit 2), 1: done, exit 0 (--help). */
typedef int opt_fn(opts_t *o, const char *opt, const char *val);
#define OPT_FN_TEXT(id)
#define OPT_FN_ONCE(id)
#define OPT_FN_ON(id)
#define OPT_FN_OFF(id)
#define OPT_FN_SET(id)
#define OPT_FN_ASSIGN(id)
#define OPT_FN_CALL(id) static opt_fn opt_##id;
#define OPT(id, name, alias, arg, kind, target, help) OPT_FN_##kind(id)
#include "options.def"
#undef OPT

/* One row of options.def: the member (TEXT, ONCE, ON, OFF), the key or assignment
 * (SET, ASSIGN) or the function (CALL) of its kind. */
typedef struct option {
    const char *name, *alias, *arg;
    int kind;
    size_t member;
    const char *set;
    opt_fn *call;
    const char *help;
} option_t;
#define OPT_MEMBER_TEXT(t) offsetof(opts_t, t)
#define OPT_MEMBER_ONCE(t) offsetof(opts_t, t)
#define OPT_MEMBER_ON(t) offsetof(opts_t, t)
#define OPT_MEMBER_OFF(t) offsetof(opts_t, t)
#define OPT_MEMBER_SET(t) 0
#define OPT_MEMBER_ASSIGN(t) 0
#define OPT_MEMBER_CALL(t) 0
#define OPT_SETS_TEXT(t) NULL
#define OPT_SETS_ONCE(t) NULL
#define OPT_SETS_ON(t) NULL
#define OPT_SETS_OFF(t) NULL
#define OPT_SETS_SET(t) t
#define OPT_SETS_ASSIGN(t) t
#define OPT_SETS_CALL(t) NULL
#define OPT_CALL_CALL(id) opt_##id
#define OPT_CALL_TEXT(id) NULL
#define OPT_CALL_ONCE(id) NULL
#define OPT_CALL_ON(id) NULL
#define OPT_CALL_OFF(id) NULL
#define OPT_CALL_SET(id) NULL
#define OPT_CALL_ASSIGN(id) NULL
static const option_t options[] = {
#define OPT(id, name, alias, arg, kind, target, help) \
    {name, alias, arg, OPT_##kind, OPT_MEMBER_##kind(target), OPT_SETS_##kind(target), OPT_CALL_##kind(id), help},
#include "options.def"
#undef OPT
};
enum { NOPTIONS = sizeof options / sizeof options[0] };

static void usage(FILE *out)
{
    fprintf(out,
            "usage: wpusim [options] program.elf\n"
            "\n"
            "Runs a statically linked RV32IMF kernel as SIMT threads on the WarpSplit model.\n"
            "Exit status: 0 every thread exited 0; 1 some thread exited nonzero or faulted;\n"
            "2 bad usage, configuration or program, or an output that could not be written;\n"
            "3 stopped by max_cycles, a deadlock, the watchdog or a failed --check;\n"
            "130 / 143 interrupted by SIGINT / SIGTERM: the run stops at the end of the cycle, prints and\n"
            "writes the statistics so far (status \"interrupted\") and the --dump results, however many\n"
            "copies of the signal arrive; one that comes a second or more after the first ends it at once.\n"
            "\n"
            "options:\n");
    for (int i = 0; i < NOPTIONS; i++) { /* "  --name ARG", the help from column 23 */
        const option_t *p = &options[i];
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", p->name, p->arg ? " " : "", p->arg ? p->arg : "");
        fprintf(out, "  %-20s%s", head, strlen(head) > 20 ? "  " : " ");
        for (const char *h = p->help; *h; ) {
            size_t n = strcspn(h, "\n");
            if (n == 7 && !strncmp(h, "@blocks", 7)) /* the block registry, a line each */
                for (int k = 0; block_at(k); k++)
                    fprintf(out, "%s  %-9s the %s (%s)\n", k ? "                       " : "", block_at(k)->name,
                            block_at(k)->what, block_at(k)->where);
            else
                fprintf(out, "%.*s\n", (int)n, h);
            h += n;
            if (*h) h++, fprintf(out, "%23s", "");
        }
    }
    fprintf(out, "\npresets (sim/presets/NAME.cfg, compiled in):");
    for (const wsim_preset_t *p = wsim_presets; p->name; p++) fprintf(out, " %s", p->name);
    fprintf(out, "\n\npolicies (sim/policies/NAME.cfg, compiled in):");
    for (const wsim_preset_t *p = wsim_policies; p->name; p++) fprintf(out, " %s", p->name);
    fprintf(out, "\n\nconfiguration keys:\n");
    wsim_config_help(out);
}

static int opt_help(opts_t *o, const char *opt, const char *val)
{
    (void)o, (void)opt, (void)val;
    usage(stdout);
    return 1;
}

static int opt_version(opts_t *o, const char *opt, const char *val)
{
    (void)o, (void)opt, (void)val;
    printf("wpusim %s\n", WSIM_VERSION);
    return 1;
}

static int opt_config(opts_t *o, const char *opt, const char *val)
{
    (void)opt;
    o->configs[o->nconfigs++] = val;
    return 0;
}

static int opt_set(opts_t *o, const char *opt, const char *val)
{
    (void)opt;
    o->sets[o->nsets++] = val;
    return 0;
}

static int opt_policy(opts_t *o, const char *opt, const char *val)
{
    (void)opt;
    if (o->policy) { /* (a policy sets every mechanism key: a second one would replace the first) */
        fprintf(stderr, "wpusim: --policy given twice (%s, then %s): a policy sets every mechanism key; "
                        "give one, and change single keys with --set\n", o->policy, val);
        return -1;
    }
    o->policy = val;
    return 0;
}

/* BLOCK=FILE, BLOCK a block of the registry (cmodel/blocks/block.c) */
static int opt_record_block(opts_t *o, const char *opt, const char *val)
{
    (void)opt;
    size_t n = strcspn(val, "=");
    record_t *r = &o->rec[o->nrec];
    if (!val[n] || !val[n + 1] || n >= sizeof r->block) n = 0;
    else memcpy(r->block, val, n);
    r->block[n] = 0;
    if (!n || !block_find(r->block)) {
        fprintf(stderr, "wpusim: --record-block %s: expected BLOCK=FILE; blocks:", val);
        for (int i = 0; block_at(i); i++) fprintf(stderr, "%s %s", i ? "," : "", block_at(i)->name);
        fputc('\n', stderr);
        return -1;
    }
    r->path = val + n + 1, r->arg = val, r->f = NULL;
    for (int k = 0; k < o->nrec; k++)
        if (!strcmp(o->rec[k].block, r->block)) {
            fprintf(stderr, "wpusim: --record-block %s given twice (%s, then %s): one file per block\n", r->block,
                    o->rec[k].path, r->path);
            return -1;
        }
    o->nrec++;
    return 0;
}

static int opt_stats(opts_t *o, const char *opt, const char *val)
{
    (void)opt;
    if (strcmp(val, "text") && strcmp(val, "json") && strcmp(val, "none")) {
        fprintf(stderr, "wpusim: --stats: '%s' is not one of: text, json, none\n", val);
        return -1;
    }
    o->stats_fmt = val;
    return 0;
}

static int opt_quiet(opts_t *o, const char *opt, const char *val)
{
    (void)opt, (void)val;
    o->stats_fmt = "none";
    return 0;
}

static int opt_split_list(opts_t *o, const char *opt, const char *val)
{
    (void)opt;
    o->split_list = val;
    o->sets[o->nsets++] = "dws_branch=list";
    return 0;
}

static int opt_timeline_window(opts_t *o, const char *opt, const char *val)
{
    (void)opt;
    return parse_window(val, &o->tl_from, &o->tl_to);
}

static int opt_timeline_limit(opts_t *o, const char *opt, const char *val)
{
    (void)opt;
    char *end;
    errno = 0;
    double mb = strtod(val, &end);
    if (end == val || *end || errno || !(mb >= 0) || mb > 1e9) {
        fprintf(stderr, "wpusim: --timeline-limit %s: expected megabytes, a number >= 0 (0: no limit)\n", val);
        return -1;
    }
    o->tl_limit = (uint64_t)(mb * 1e6);
    return 0;
}

static int opt_input(opts_t *o, const char *opt, const char *val)
{
    (void)opt;
    const char *eq = strchr(val, '=');
    if (!eq || eq == val || !eq[1]) {
        fprintf(stderr, "wpusim: --input %s: expected NAME=FILE (the kernel's input region and the file "
                        "that fills it)\n", val);
        return -1;
    }
    o->inputs[o->ninputs++] = val;
    return 0;
}

static int shortcuts_full(const opts_t *o)
{
    if (o->nshort < OPT_MAX_SHORTCUTS) return 0;
    fprintf(stderr, "wpusim: too many options\n");
    return 1;
}

/* A --set of its own text (a shortcut's: "threads=N"). */
static int add_shortcut(opts_t *o, const char *key, const char *val)
{
    if (shortcuts_full(o)) return -1;
    snprintf(o->shortcut[o->nshort], sizeof o->shortcut[o->nshort], "%s=%s", key, val);
    o->sets[o->nsets++] = o->shortcut[o->nshort++];
    return 0;
}

static int opt_pack(opts_t *o, const char *opt, const char *val)
{
    (void)opt;
    char *end, t[24];
    errno = 0;
    unsigned long long n = strtoull(val, &end, 10);
    if (!strcmp(val, "none")) {
        o->sets[o->nsets++] = "pack=none";
        return 0;
    }
    if (val[0] >= '0' && val[0] <= '9' && !*end && !errno && n <= 1000000000ull) {
        if (shortcuts_full(o)) return -1;
        snprintf(t, sizeof t, "%llu", n);
        o->sets[o->nsets++] = "pack=threshold";
        return add_shortcut(o, "pack_threshold", t);
    }
    fprintf(stderr, "wpusim: --pack: '%s' is neither none nor a threshold 0 .. 1000000000 (instructions)\n", val);
    return -1;
}

/* The configuration: the --config files in order, the --policy, every --set
 * (and shortcut) in order. 0, -1 when reported, 1: --print-config printed it. */
static int configure(opts_t *o, wsim_config_t *cfg)
{
    char err[2048];
    if (o->nconfigs == 0) o->configs[o->nconfigs++] = WSIM_DEFAULT_PRESET;
    for (int i = 0; i < o->nconfigs; i++)
        if (load_named(cfg, wsim_presets, "preset", o->configs[i], err, sizeof err) < 0) {
            fprintf(stderr, "wpusim: %s\n", err);
            return -1;
        }
    if (o->policy && load_named(cfg, wsim_policies, "policy", o->policy, err, sizeof err) < 0) {
        fprintf(stderr, "wpusim: %s\n", err);
        return -1;
    }
    for (int i = 0; i < o->nsets; i++)
        if (wsim_config_assign(cfg, o->sets[i], err, sizeof err) < 0) {
            fprintf(stderr, "wpusim: %s\n", err);
            return -1;
        }
    for (int i = 0; i < o->nsets; i++) warn_if_unused(cfg, o->sets[i]);
    if (o->print_config) {
        if (wsim_config_check(cfg, err, sizeof err) < 0) { fprintf(stderr, "wpusim: %s\n", err); return -1; }
        wsim_config_print(cfg, stdout, 0);
        return 1;
    }
    return 0;
}

/* Every output on a file of its own, none on the program or its split
 * list: 1, or 0 when reported. */
static int outputs_distinct(const opts_t *o)
{
    const char *what[16], *path[16];
    int n = 0;
    if (o->stats_out && strcmp(o->stats_fmt, "none")) what[n] = "--stats-out", path[n++] = o->stats_out;
    if (o->dump_path) what[n] = "--dump", path[n++] = o->dump_path;
    if (o->trace_path) what[n] = "--trace", path[n++] = o->trace_path;
    if (o->bprof_path) what[n] = "--branch-profile", path[n++] = o->bprof_path;
    if (o->timeline_path) what[n] = "--timeline", path[n++] = o->timeline_path;
    for (int k = 0; k < o->nrec; k++) what[n] = "--record-block", path[n++] = o->rec[k].arg;
    const int outputs = n;
    what[n] = "the program", path[n++] = o->elf;
    if (o->split_list) what[n] = "--split-list", path[n++] = o->split_list;
    return !same_output(what, path, outputs, n);
}

/* The traces (--record-block, --trace, --timeline) opened and given to the
 * machine: 0, or -1 when reported (what was opened is closed at exit). */
static int open_traces(opts_t *o, wsim_t *s, FILE **trace, FILE **timeline)
{
    char err[2048];
    for (int k = 0; k < o->nrec; k++) {
        record_t *r = &o->rec[k];
        if (!core->set_record(s, r->block, NULL)) { /* the configuration leaves the block out */
            const block_ops_t *b = block_find(r->block); /* (a name the options checked) */
            fprintf(stderr, "wpusim: --record-block %s: there is no %s %s\n", r->block, b->what, b->absent);
            return -1;
        }
        if (!(r->f = trace_open(r->path))) {
            if (!stop_signal) fprintf(stderr, "wpusim: --record-block %s: cannot open for writing: %s\n", r->arg, strerror(errno));
            return -1;
        }
        core->set_record(s, r->block, r->f);
    }
    if (o->trace_path) {
        *trace = trace_open(o->trace_path);
        if (!*trace) {
            if (!stop_signal) fprintf(stderr, "wpusim: --trace %s: cannot open for writing: %s\n", o->trace_path, strerror(errno));
            return -1;
        }
        core->set_trace(s, *trace);
    }

    if (o->timeline_path) {
        if (!(*timeline = trace_open(o->timeline_path))) {
            if (!stop_signal) fprintf(stderr, "wpusim: --timeline %s: cannot open for writing: %s\n", o->timeline_path, strerror(errno));
            return -1;
        }
        if (core->set_timeline(s, *timeline, o->tl_from, o->tl_to, o->tl_limit, 0, err, sizeof err) < 0) {
            fprintf(stderr, "wpusim: --timeline %s: %s\n", o->timeline_path, err);
            return -1;
        }
    }
    return 0;
}

/* After the run (which ended at a cycle boundary: each trace ends with a
 * whole line): the traces closed; 1 when one could not be written. */
static int close_traces(opts_t *o, wsim_t *s, FILE **trace, FILE **timeline)
{
    int lost = 0;
    if (*trace) lost |= close_named(*trace, "--trace", o->trace_path) < 0;
    for (int k = 0; k < o->nrec; k++) {
        if (o->rec[k].f) lost |= close_named(o->rec[k].f, "--record-block", o->rec[k].arg) < 0;
        o->rec[k].f = NULL;
    }
    *trace = NULL;
    if (*timeline) {
        uint64_t cut = 0, ran = core->cycles(s);
        uint64_t bytes = core->timeline_close(s, &cut);
        lost |= close_named(*timeline, "--timeline", o->timeline_path) < 0;
        *timeline = NULL;
        if (cut)
            fprintf(stderr, "wpusim: --timeline %s: stopped at the limit, %.0f MB, at cycle %llu of %llu: it holds cycles "
                            "%llu..%llu; narrow it with --timeline-window START:END (e.g. %llu:%llu) or raise "
                            "--timeline-limit MB (0: no limit)\n",
                    o->timeline_path, (double)bytes / 1e6, (unsigned long long)cut, (unsigned long long)ran,
                    (unsigned long long)o->tl_from, (unsigned long long)cut - 1, (unsigned long long)o->tl_from,
                    (unsigned long long)(o->tl_from + (cut - o->tl_from) / 2));
        else if (o->tl_from >= ran)
            fprintf(stderr, "wpusim: --timeline %s: the run ended at cycle %llu, before the window's start %llu: no "
                            "events in it\n", o->timeline_path, (unsigned long long)ran, (unsigned long long)o->tl_from);
    }
    return lost;
}

/* argv into o: 0, -1 when reported (exit 2), 1: done, exit 0 (--help). */
static int parse_options(int argc, char **argv, opts_t *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        const option_t *p = options;
        while (p < options + NOPTIONS && strcmp(a, p->name) && !(p->alias && !strcmp(a, p->alias))) p++;
        if (p == options + NOPTIONS) {
            if (a[0] == '-' && a[1]) {
                fprintf(stderr, "wpusim: unknown option '%s'; valid options: ", a);
                for (int k = 0; k < NOPTIONS; k++) fprintf(stderr, "%s%s", k ? ", " : "", options[k].name);
                fputc('\n', stderr);
                return -1;
            }
            if (o->elf) {
                fprintf(stderr, "wpusim: more than one program given ('%s' and '%s')\n", o->elf, a);
                return -1;
            }
            o->elf = a;
            continue;
        }
        if (p->arg) {
            if (i + 1 >= argc) {
                fprintf(stderr, "wpusim: option %s needs a value (see --help)\n", a);
                return -1;
            }
            val = argv[++i];
        }
        int rc = 0;
        switch (p->kind) {
        case OPT_ONCE: {
            const char *was;
            memcpy(&was, (char *)o + p->member, sizeof was);
            if (was) {
                fprintf(stderr, "wpusim: %s given twice (%s, then %s): give it once\n", p->name, was, val);
                return -1;
            }
        } /* fall through */
        case OPT_TEXT: memcpy((char *)o + p->member, &val, sizeof val); break;
        case OPT_ON:
        case OPT_OFF: *(int *)((char *)o + p->member) = p->kind == OPT_ON; break;
        case OPT_SET: rc = add_shortcut(o, p->set, val); break;
        case OPT_ASSIGN: o->sets[o->nsets++] = p->set; break;
        default: rc = p->call(o, a, val); break;
        }
        if (rc) return rc;
    }
    return 0;
}

int main(int argc, char **argv)
{
    catch_stop_signals(0); /* first: a signal from the first instant on stops the run cleanly */
    wsim_config_t cfg;
    wsim_config_defaults(&cfg);
    char err[2048];
    static char shortcut[OPT_MAX_SHORTCUTS][96];
    opts_t o = {.stats_fmt = "text", .tl_limit = 256000000, .progress = -1, .shortcut = shortcut};
    outfile_t bprof = {0};
    FILE *timeline = NULL;
    int threads_set = 0;
#ifdef WSIM_RTL
    rtl_loop_t *rtl = NULL;
#endif
    int rc = EXIT_USAGE, started = 0;
    wsim_t *s = NULL;
    outfile_t stats = {0}, dump = {0};
    FILE *trace = NULL;
    o.configs = calloc((size_t)argc + 1, sizeof *o.configs);
    o.sets = calloc((size_t)argc + 1, sizeof *o.sets);
    o.inputs = calloc((size_t)argc + 1, sizeof *o.inputs);
    o.rec = calloc((size_t)argc + 1, sizeof *o.rec);
    if (!o.configs || !o.sets || !o.inputs || !o.rec) {
        fprintf(stderr, "wpusim: out of host memory\n");
        goto out;
    }
    int parsed = parse_options(argc, argv, &o);
    if (parsed) {
        if (parsed > 0) rc = EXIT_PASS;
        goto out;
    }
#ifndef WSIM_RTL
    if (o.rtl_blocks || o.rtl_mode || o.rtl_wave) {
        fprintf(stderr, "wpusim: %s: this build has no RTL in the loop (plain C); build the simulator with the "
                        "Verilated blocks, make wpusim-rtl, and run build/wpusim-rtl (docs/rtl.md, RTL in the loop)\n",
                o.rtl_blocks ? "--rtl" : o.rtl_mode ? "--rtl-mode" : "--rtl-wave");
        goto out;
    }
#else
    if ((o.rtl_mode || o.rtl_wave) && !o.rtl_blocks) {
        fprintf(stderr, "wpusim: %s without --rtl: name the blocks to run as RTL, e.g. --rtl wst\n",
                o.rtl_mode ? "--rtl-mode" : "--rtl-wave");
        goto out;
    }
    if (o.rtl_blocks && !(rtl = rtl_loop_new(o.rtl_blocks, o.rtl_mode, o.rtl_wave, err, sizeof err))) {
        fprintf(stderr, "wpusim: %s\n", err);
        goto out;
    }
#endif
    int configured = configure(&o, &cfg);
    if (configured) {
        if (configured > 0) rc = EXIT_PASS;
        goto out;
    }
    if (!o.elf) {
        fprintf(stderr, "wpusim: no program given; usage: wpusim [options] program.elf (see --help)\n");
        goto out;
    }

    if (cfg.dws && cfg.dws_branch == CFG_DWS_BRANCH_LIST && !o.split_list) {
        fprintf(stderr, "wpusim: dws_branch = list needs the list: --split-list FILE (docs/dws.md)\n");
        goto out;
    }
    if (o.stats_out && !strcmp(o.stats_fmt, "none")) {
        fprintf(stderr, "wpusim: --stats-out %s with no statistics (--quiet or --stats none): drop one of them\n",
                o.stats_out);
        goto out;
    }
    if (choose_core(o.core_want, &cfg, err, sizeof err) < 0) {
        fprintf(stderr, "wpusim: %s\n", err);
        goto out;
    }
    if (!outputs_distinct(&o)) goto out;
    /* Open every output before simulating: a bad path must not cost a run. */
    if (strcmp(o.stats_fmt, "none") && out_open(&stats, "--stats-out", o.stats_out ? o.stats_out : "-", "w") < 0) goto out;
    if (o.dump_path) {
        if (out_open(&dump, "--dump", o.dump_path, "wb") < 0) goto out;
        /* wsim_dump_results writes the file (the temporary) by name */
        if (dump.f != stdout) fclose(dump.f);
        dump.f = NULL;
    }
#ifdef WSIM_RTL
    if (rtl) {
        wsim_block_hook_t hook = rtl_loop_hook(rtl);
        s = core->create_with(&cfg, o.elf, &hook, err, sizeof err);
        if (s && rtl_loop_attach(rtl, s, err, sizeof err) < 0) {
            fprintf(stderr, "wpusim: %s\n", err);
            goto out;
        }
    } else
#endif
        s = core->create_with(&cfg, o.elf, NULL, err, sizeof err);
    if (!s) {
        fprintf(stderr, "wpusim: %s\n", err);
        goto out;
    }
    if (sets_key(o.sets, o.nsets, "task") && !core->reads_csr(s, "wsim.task"))
        fprintf(stderr, "wpusim: warning: --task has no effect: %s never reads the task mapping (CSR wsim.task); "
                        "the kernels built with tasks.h are build/kernels/tasks/NAME.elf (docs/tasks.md)\n", o.elf);
    if (o.split_list && core->split_list(s, o.split_list, err, sizeof err) < 0) {
        fprintf(stderr, "wpusim: %s\n", err);
        goto out;
    }
    if (o.bprof_path) { /* (beside the file and renamed into place, as --stats-out) */
        if (out_open(&bprof, "--branch-profile", o.bprof_path, "w") < 0) goto out;
        if (core->branch_profile(s) < 0) { fprintf(stderr, "wpusim: out of host memory\n"); goto out; }
    }
    if (o.dump_path && !core->has_results(s)) {
        fprintf(stderr, "wpusim: --dump: %s registers no results (no WSIM_RESULT records)\n", o.elf);
        goto out;
    }
    if (o.dump_cfg) {
        core->dump_cfg(s, stdout);
        rc = EXIT_PASS;
        goto out;
    }
    /* the grid: inputs first (the kernel's own grid may be in them), then
     * --warp-sizes, then the grid is built (packing measures here) */
    for (int i = 0; i < o.ninputs; i++) {
        char name[256];
        size_t n = strcspn(o.inputs[i], "=");
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), o.inputs[i]);
        if (core->set_input(s, name, o.inputs[i] + n + 1, err, sizeof err) < 0) {
            fprintf(stderr, "wpusim: %s\n", err);
            goto out;
        }
    }
    if (o.warp_sizes && core->set_warp_sizes(s, o.warp_sizes, err, sizeof err) < 0) {
        fprintf(stderr, "wpusim: %s\n", err);
        goto out;
    }
    if (core->prepare(s, err, sizeof err) < 0) {
        fprintf(stderr, "wpusim: %s\n", err);
        goto out;
    }
    for (int i = 0; i < o.nsets && !threads_set; i++) threads_set = !strncmp(o.sets[i], "threads=", 8);
    if (threads_set && core->grid_threads(s)) {
        fprintf(stderr, "wpusim: --threads: the irregular grid sets the threads (%u); drop --threads or "
                        "--set threads\n", core->grid_threads(s));
        goto out;
    }
    if (open_traces(&o, s, &trace, &timeline) < 0) goto out;

    catch_stop_signals(1);
    running = s;
    started = 1;
    if (stop_signal) core->request_stop(s); /* a signal while setting up: stopped before cycle 0 */
    if (o.progress < 0) o.progress = isatty(STDERR_FILENO);
    wsim_status_t st = o.progress ? run_with_progress(s, isatty(STDERR_FILENO)) : core->run(s);
    running = NULL;
    flush_stdout(); /* the kernel's output before the reports on stderr */
#ifdef WSIM_RTL
    if (rtl) rtl_loop_summary(rtl, stderr);
#endif
    int lost = close_traces(&o, s, &trace, &timeline); /* an output could not be written */

    if (st == WSIM_INTERRUPTED)
        fprintf(stderr, "wpusim: interrupted by %s at cycle %llu; the statistics are those so far\n",
                stop_signal == SIGTERM ? "SIGTERM" : "SIGINT", (unsigned long long)core->cycles(s));
    if (st == WSIM_MAX_CYCLES)
        fprintf(stderr, "wpusim: stopped at max_cycles = %llu before every thread finished; raise it with "
                        "--max-cycles N (0 = no limit)\n", (unsigned long long)core->cycles(s));
    rc = st == WSIM_INTERRUPTED ? 128 + (stop_signal == SIGTERM ? SIGTERM : SIGINT)
       : st != WSIM_DONE ? EXIT_STOPPED : core->all_passed(s) ? EXIT_PASS : EXIT_THREADS_FAILED;
    core->print_failures(s, stderr);

    if (o.dump_path) {
        if (core->dump_results(s, dump.tmp ? dump.tmp : o.dump_path, err, sizeof err) < 0) {
            fprintf(stderr, "wpusim: --dump: %s\n", err);
            out_discard(&dump);
            lost = 1;
        } else {
            lost |= out_commit(&dump) < 0;
        }
    }
    if (bprof.f) {
        core->branch_profile_write(s, bprof.f);
        lost |= out_commit(&bprof) < 0;
    }
    if (stats.f) {
        core->print_stats(s, stats.f, !strcmp(o.stats_fmt, "json"));
        lost |= out_commit(&stats) < 0;
    }
    if (lost && rc == EXIT_PASS) rc = EXIT_USAGE;
out:
    /* a run that did not finish its outputs leaves existing files as they were */
    out_discard(&stats);
    out_discard(&dump);
    if (trace && trace != stdout) fclose(trace);
    for (int k = 0; k < o.nrec; k++)
        if (o.rec[k].f && o.rec[k].f != stdout) fclose(o.rec[k].f);
    if (timeline && timeline != stdout) {
        if (s) core->timeline_close(s, NULL);
        fclose(timeline);
    }
    running = NULL;
    if (stop_signal && !started && rc == EXIT_USAGE) { /* a set-up step blocked (a FIFO) and was interrupted */
        fprintf(stderr, "wpusim: interrupted by %s before the run started: no statistics\n",
                stop_signal == SIGTERM ? "SIGTERM" : "SIGINT");
        rc = 128 + (stop_signal == SIGTERM ? SIGTERM : SIGINT);
    }
    out_discard(&bprof);
    if (s) core->destroy(s);
#ifdef WSIM_RTL
    rtl_loop_free(rtl); /* (after the machine: its blocks are the loop's) */
#endif
    free(o.configs);
    free(o.sets);
    free(o.inputs);
    free(o.rec);
    if (close_output(stdout, "standard output") < 0 && rc == EXIT_PASS) rc = EXIT_USAGE;
    return rc;
}
