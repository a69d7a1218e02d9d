/* host_runner.c — runs a WarpSplit kernel natively on the host.
 *
 * Linked with the kernel's own source, it runs kernel_main(tid, nthreads) for every
 * thread: the test oracle for wpusim (--dump writes the same bytes as wpusim --dump) and
 * the native-speed baseline of `make bench`.
 *
 * Threads run one at a time, in tid order, each on its own ucontext.  A thread runs until
 * it exits or reaches wsim_barrier(); once every live thread waits at the barrier, the
 * waiting threads are resumed round-robin in tid order up to their next barrier or exit.
 * Exited threads no longer count, as on the simulator.  Stacks come from mmap
 * (MAP_NORESERVE), are created only when a thread starts while all others still hold
 * theirs (i.e. are waiting at a barrier), and are reused after a thread exits, so a
 * kernel without barriers needs one stack whatever the thread count.
 *
 * A kernel that never calls wsim_barrier() (warpsplit.h leaves a marker in the section
 * wsim_uses_barrier when it does) needs no contexts at all: its threads run directly on
 * the runner's stack, one call of kernel_main() after the other, and wsim_exit() leaves
 * through longjmp.  That keeps the native baseline free of context-switch costs.
 * --contexts forces the ucontext path.
 *
 * Warps and shuffles (docs/irregular.md).  The grid is the fixed one (warps of --width
 * consecutive threads), --warp-sizes, or the kernel's own WSIM_GRID_ROWS read after
 * --input filled its regions; wsim_wid(), wsim_wtid(), wsim_ntids() and wsim_nwarps()
 * follow it.  A kernel that calls a warp shuffle (marker section wsim_uses_shfl) runs
 * warp by warp: each thread of the warp runs up to its next shuffle, barrier or exit;
 * when every live thread of the warp waits at a shuffle, each gets its source thread's
 * value (as the simulator's SIMD shuffle reads the source lane's register) and they go
 * on.  Threads of a warp that call different shuffles, or read an exited thread, are an
 * error: the host cannot know what the simulator's register would hold.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "warpsplit.h"

#define STACK_SIZE (256u * 1024u) /* per thread, plus a guard page below */
#define GUARDED 16384u            /* contexts with a guard page */
#define MAX_REPORTED_FAILURES 10

/* wpusim's default machine (the dws preset): 256 threads, 4 WPUs x 4 warps x 16 lanes, seed 1 */
struct wsim_host_state wsim_host = {.nthreads = 256, .width = 16, .warps = 4, .wpus = 4, .seed = 1};

/* The WSIM_RESULT records; the linker defines these for a section named like a C
 * identifier.  Weak so that a kernel without results links too. */
extern struct wsim_result __start_wsim_results[] __attribute__((weak));
extern struct wsim_result __stop_wsim_results[] __attribute__((weak));
/* Present when the kernel calls wsim_barrier() (see warpsplit.h). */
extern const char __start_wsim_uses_barrier[] __attribute__((weak));
/* ... a warp shuffle; and its inputs and grid (WSIM_INPUT, WSIM_GRID_ROWS). */
extern const char __start_wsim_uses_shfl[] __attribute__((weak));
extern struct wsim_input __start_wsim_inputs[] __attribute__((weak));
extern struct wsim_input __stop_wsim_inputs[] __attribute__((weak));
extern struct wsim_grid __start_wsim_grid[] __attribute__((weak));
extern struct wsim_grid __stop_wsim_grid[] __attribute__((weak));

/* The grid: thread t is thread wtid[t] of warp wid[t], which has ntids[t] threads;
 * warp w's threads are wstart[w] .. wstart[w + 1] - 1. */
static unsigned *g_wid, *g_wtid, *g_ntids, *g_wstart;

static void set_thread(unsigned tid) {
    wsim_host.tid = tid;
    wsim_host.wid = g_wid[tid];
    wsim_host.wtid = g_wtid[tid];
    wsim_host.ntids = g_ntids[tid];
}

/* One execution context: a thread that has started and not yet exited owns one. */
struct hctx {
    ucontext_t uc;
    void *map;         /* the mmap'd region: guard page + stack */
    size_t map_size;
    unsigned tid;      /* the thread it runs */
    struct hctx *next; /* free list */
    int at_shfl;       /* waits at a warp shuffle: kind, value, delta, how many it called */
    int kind;
    unsigned v, d, result;
    unsigned long nshfl;
};

static ucontext_t sched_uc;     /* the scheduler */
static struct hctx *cur;        /* the context running now */
static struct hctx *free_ctxs;  /* contexts whose thread exited */
static int cur_exited;          /* set by wsim_host_exit() before switching back */
static int cur_code;
static int quiet;
static size_t page_size;

static int direct;              /* running threads without contexts */
static jmp_buf direct_exit;     /* wsim_exit() in direct mode */
static unsigned long n_failed;
static unsigned long n_contexts;

static void die(const char *msg) __attribute__((noreturn));
static void die(const char *msg) {
    fprintf(stderr, "host_runner: %s\n", msg);
    exit(2);
}

static void thread_main(void) {
    int code = kernel_main(cur->tid, wsim_host.nthreads);
    wsim_host_exit(code);
}

/* A fresh start of thread_main on c's stack.  (getcontext returns only once here:
 * nothing ever resumes this saved state, makecontext replaces it.) */
static __attribute__((noinline)) void init_ctx(struct hctx *c) {
    if (getcontext(&c->uc) != 0)
        die("getcontext failed");
    c->uc.uc_stack.ss_sp = (char *)c->map + page_size;
    c->uc.uc_stack.ss_size = STACK_SIZE;
    c->uc.uc_link = NULL; /* threads leave through wsim_host_exit() */
    makecontext(&c->uc, thread_main, 0);
}

static struct hctx *new_ctx(void) {
    struct hctx *c;
    if (free_ctxs != NULL) {
        c = free_ctxs;
        free_ctxs = c->next;
    } else {
        c = calloc(1, sizeof *c);
        if (c == NULL)
            die("out of memory");
        c->map_size = STACK_SIZE + page_size;
        c->map = mmap(NULL, c->map_size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (c->map == MAP_FAILED) {
            fprintf(stderr, "host_runner: cannot map stack number %lu: %s\n",
                    n_contexts + 1, strerror(errno));
            exit(2);
        }
        /* Overflow guard, best effort.  It splits the mapping, and the kernel limits the
         * number of mappings (vm.max_map_count, 65530 by default), so only the first
         * GUARDED contexts get one; the rest merge into few mappings. */
        if (n_contexts < GUARDED)
            (void)mprotect(c->map, page_size, PROT_NONE);
        n_contexts++;
    }
    init_ctx(c);
    return c;
}

static void record_exit(unsigned tid, int code) {
    if (code != 0) {
        if (n_failed < MAX_REPORTED_FAILURES)
            fprintf(stderr, "host_runner: thread %u exited with code %d\n", tid, code);
        n_failed++;
    }
}

/* Runs context c until its thread waits at a barrier (returns 1) or exits (returns 0;
 * the context goes back to the free list). */
static int run(struct hctx *c) {
    cur = c;
    cur_exited = 0;
    set_thread(c->tid);
    if (swapcontext(&sched_uc, &c->uc) != 0)
        die("swapcontext failed");
    cur = NULL;
    if (!cur_exited)
        return 1;
    record_exit(c->tid, cur_code);
    c->next = free_ctxs;
    free_ctxs = c;
    return 0;
}

void wsim_host_barrier(void) {
    if (direct)
        die("wsim_barrier() called, but the kernel has no wsim_uses_barrier marker "
            "(was it built with kernels/runtime/warpsplit.h?); run with --contexts");
    if (cur == NULL)
        die("wsim_barrier() outside a thread");
    if (swapcontext(&cur->uc, &sched_uc) != 0)
        die("swapcontext failed");
    set_thread(cur->tid); /* the scheduler may have run other threads meanwhile */
}

unsigned wsim_host_shfl(int kind, unsigned v, unsigned d) {
    struct hctx *c = cur;
    if (__start_wsim_uses_shfl == NULL || c == NULL)
        die("a warp shuffle without the wsim_uses_shfl marker (was the kernel built with "
            "kernels/runtime/warpsplit.h?)");
    c->at_shfl = 1;
    c->kind = kind;
    c->v = v;
    c->d = d;
    c->nshfl++;
    if (swapcontext(&c->uc, &sched_uc) != 0)
        die("swapcontext failed");
    set_thread(c->tid);
    return c->result;
}

void wsim_host_exit(int code) {
    if (direct) {
        cur_code = code;
        longjmp(direct_exit, 1);
    }
    if (cur == NULL)
        die("wsim_exit() outside a thread");
    cur_exited = 1;
    cur_code = code;
    setcontext(&sched_uc);
    die("setcontext failed");
}

int wsim_host_write(int fd, const void *buf, unsigned len) {
    const char *p = buf;
    unsigned left = len;
    if (fd != 1 && fd != 2)
        return -1;
    if (fd == 1 && quiet)
        return (int)len;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        left -= (unsigned)w;
    }
    return (int)len;
}

/* One thread, directly on this stack. */
static __attribute__((noinline)) int run_direct(unsigned tid) {
    set_thread(tid);
    if (setjmp(direct_exit) != 0)
        return cur_code; /* wsim_exit() */
    return kernel_main(tid, wsim_host.nthreads);
}

/* Every live thread of warp w waits at a shuffle: hand out the values. */
static void resolve_shfl(unsigned w, struct hctx **ctx) {
    unsigned lo = g_wstart[w], n = g_wstart[w + 1] - lo, t;
    struct hctx *first = NULL;
    for (t = 0; t < n; t++) {
        struct hctx *c = ctx[lo + t];
        if (c == NULL)
            continue;
        if (first == NULL)
            first = c;
        else if (c->kind != first->kind || c->nshfl != first->nshfl) {
            fprintf(stderr, "host_runner: warp %u: thread %u is at its shuffle number %lu (kind %d), thread %u at "
                            "number %lu (kind %d): call warp shuffles in convergent code, every thread of the "
                            "warp together\n", w, first->tid, first->nshfl, first->kind, c->tid, c->nshfl, c->kind);
            exit(2);
        }
    }
    for (t = 0; t < n; t++) {
        struct hctx *c = ctx[lo + t];
        unsigned long long j;
        if (c == NULL)
            continue;
        j = c->kind == 0 ? (unsigned long long)t + c->d : c->kind == 1 ? (c->d <= t ? t - c->d : n)
          : c->kind == 2 ? (unsigned long long)(t ^ c->d) : c->d;
        if (j >= n) {
            c->result = c->v;
        } else if (ctx[lo + j] == NULL) {
            fprintf(stderr, "host_runner: warp %u: thread %u's shuffle reads thread %u, which exited: what the "
                            "simulator's register would hold is not known here\n", w, c->tid, lo + (unsigned)j);
            exit(2);
        } else {
            c->result = ctx[lo + j]->v;
        }
    }
    for (t = 0; t < n; t++)
        if (ctx[lo + t] != NULL)
            ctx[lo + t]->at_shfl = 0;
}

/* A kernel with shuffles: warp by warp, each up to its barrier (or the end). */
static unsigned long run_warps(void) {
    unsigned n = wsim_host.nthreads, nw = wsim_host.nwarps, w, t;
    struct hctx **ctx = calloc(n ? n : 1, sizeof *ctx); /* a live thread's context */
    unsigned char *started = calloc(n ? n : 1, 1);
    unsigned long barriers = 0, live = n, waiting;
    if (ctx == NULL || started == NULL)
        die("out of memory");
    for (;;) {
        waiting = 0;
        for (w = 0; w < nw; w++) {
            for (;;) {
                int at_shfl = 0, at_bar = 0;
                for (t = g_wstart[w]; t < g_wstart[w + 1]; t++) {
                    struct hctx *c = ctx[t];
                    if (!started[t]) {
                        started[t] = 1;
                        c = ctx[t] = new_ctx();
                        c->tid = t;
                        c->at_shfl = 0;
                        c->nshfl = 0;
                    } else if (c == NULL || c->at_shfl || c->kind == -1) {
                        if (c != NULL && c->at_shfl)
                            at_shfl++;
                        else if (c != NULL)
                            at_bar++;
                        continue;
                    }
                    if (!run(c)) {
                        ctx[t] = NULL;
                        live--;
                    } else if (c->at_shfl) {
                        at_shfl++;
                    } else {
                        c->kind = -1; /* at the barrier */
                        at_bar++;
                    }
                }
                if (at_shfl && at_bar) {
                    fprintf(stderr, "host_runner: warp %u: some threads wait at a barrier while others wait at a "
                                    "shuffle\n", w);
                    exit(2);
                }
                if (!at_shfl) {
                    waiting += (unsigned long)at_bar;
                    break;
                }
                resolve_shfl(w, ctx);
            }
        }
        if (live == 0)
            break;
        if (waiting != live)
            die("internal: threads neither at the barrier nor finished");
        barriers++;
        for (t = 0; t < n; t++)
            if (ctx[t] != NULL)
                ctx[t]->kind = 0; /* released */
    }
    free(ctx);
    free(started);
    return barriers;
}

/* Runs all threads; returns the number of barrier episodes. */
static unsigned long run_all(void) {
    unsigned n = wsim_host.nthreads;
    struct hctx **waiting = NULL; /* threads waiting at the barrier, in tid order */
    size_t n_waiting = 0, cap = 0, i, kept;
    unsigned long barriers = 0;
    unsigned tid;

    if (direct) {
        for (tid = 0; tid < n; tid++)
            record_exit(tid, run_direct(tid));
        return 0;
    }
    if (__start_wsim_uses_shfl != NULL)
        return run_warps();
    /* First pass: start every thread in tid order. */
    for (tid = 0; tid < n; tid++) {
        struct hctx *c = new_ctx();
        c->tid = tid;
        if (run(c)) {
            if (n_waiting == cap) {
                cap = cap ? 2 * cap : 64;
                waiting = realloc(waiting, cap * sizeof *waiting);
                if (waiting == NULL)
                    die("out of memory");
            }
            waiting[n_waiting++] = c;
        }
    }
    /* Every live thread waits at a barrier: release them, round-robin, until none is
     * left.  The list stays in tid order. */
    while (n_waiting > 0) {
        barriers++;
        kept = 0;
        for (i = 0; i < n_waiting; i++) {
            if (run(waiting[i]))
                waiting[kept++] = waiting[i];
        }
        n_waiting = kept;
    }
    free(waiting);
    return barriers;
}

/* The result records in source order (see WSIM_RESULT in warpsplit.h). */
static struct wsim_result *sorted_results(size_t *count) {
    size_t n = 0, i, j;
    struct wsim_result *v;
    if (__start_wsim_results != NULL && __stop_wsim_results != NULL)
        n = (size_t)(__stop_wsim_results - __start_wsim_results);
    v = malloc((n ? n : 1) * sizeof *v);
    if (v == NULL)
        die("out of memory");
    for (i = 0; i < n; i++) { /* insertion sort: stable, and n is tiny */
        struct wsim_result r = __start_wsim_results[i];
        for (j = i; j > 0 && v[j - 1].line > r.line; j--)
            v[j] = v[j - 1];
        v[j] = r;
    }
    *count = n;
    return v;
}

static int write_dump(const char *path) {
    size_t n, i;
    struct wsim_result *r = sorted_results(&n);
    FILE *f = fopen(path, "wb");
    int rc = 0;
    if (f == NULL) {
        fprintf(stderr, "host_runner: cannot open %s: %s\n", path, strerror(errno));
        free(r);
        return -1;
    }
    for (i = 0; i < n && rc == 0; i++) {
        if (r[i].size != 0 && fwrite(r[i].addr, 1, r[i].size, f) != r[i].size)
            rc = -1;
    }
    if (fclose(f) != 0)
        rc = -1;
    if (rc != 0)
        fprintf(stderr, "host_runner: cannot write %s\n", path);
    free(r);
    return rc;
}

static void list_results(void) {
    size_t n, i;
    struct wsim_result *r = sorted_results(&n);
    unsigned long off = 0;
    printf("# region offset size\n");
    for (i = 0; i < n; i++) {
        printf("%lu %lu %lu\n", (unsigned long)i, off, (unsigned long)r[i].size);
        off += (unsigned long)r[i].size;
    }
    free(r);
}

/* --input NAME=FILE: as wpusim's (docs/irregular.md): the file fits the region and
 * starts with its format tag; the rest of the region is zero. */
static void load_input(const char *arg) {
    const char *eq = strchr(arg, '=');
    struct wsim_input *r;
    FILE *f;
    size_t n, done = 0;
    if (eq == NULL || eq == arg || eq[1] == 0) {
        fprintf(stderr, "host_runner: --input %s: expected NAME=FILE\n", arg);
        exit(2);
    }
    for (r = __start_wsim_inputs; r != NULL && (const char *)r < (const char *)__stop_wsim_inputs; r++)
        if (strlen(r->name) == (size_t)(eq - arg) && strncmp(r->name, arg, (size_t)(eq - arg)) == 0)
            break;
    if (r == NULL || (const char *)r >= (const char *)__stop_wsim_inputs) {
        fprintf(stderr, "host_runner: --input %s: the kernel declares no input named '%.*s'\n", arg, (int)(eq - arg),
                arg);
        exit(2);
    }
    f = fopen(eq + 1, "rb");
    if (f == NULL) {
        fprintf(stderr, "host_runner: --input %s: cannot read: %s\n", arg, strerror(errno));
        exit(2);
    }
    while ((n = fread((char *)r->addr + done, 1, r->size - done, f)) > 0 && done + n < r->size)
        done += n;
    done += n;
    if (done == r->size && fgetc(f) != EOF) {
        fprintf(stderr, "host_runner: --input %s: the file is larger than the region's %lu bytes\n", arg,
                (unsigned long)r->size);
        exit(2);
    }
    fclose(f);
    if (r->tag != 0 && (done < 4 || *(const uint32_t *)r->addr != r->tag)) {
        fprintf(stderr, "host_runner: --input %s: the file does not start with the region's format tag 0x%08x\n", arg,
                r->tag);
        exit(2);
    }
    memset((char *)r->addr + done, 0, r->size - done);
}

/* A warp-size list or file, as wpusim's --warp-sizes (sizes 1 .. width). */
static unsigned *parse_sizes(const char *arg, unsigned width, unsigned long *count) {
    FILE *f = fopen(arg, "r");
    unsigned *v = NULL;
    unsigned long n = 0, cap = 0;
    int ch;
    if (f == NULL && strchr(arg, '/') != NULL) {
        fprintf(stderr, "host_runner: --warp-sizes %s: cannot read: %s\n", arg, strerror(errno));
        exit(2);
    }
    char tok[64];
    size_t k = 0;
    const char *p = arg;
    for (;;) {
        ch = f ? fgetc(f) : (*p ? (unsigned char)*p++ : EOF);
        if (ch == '#') {
            while (ch != EOF && ch != '\n')
                ch = f ? fgetc(f) : (*p ? (unsigned char)*p++ : EOF);
        }
        if (ch == EOF || ch == ',' || ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            if (k) {
                char *end;
                unsigned long long x;
                tok[k] = 0;
                x = strtoull(tok, &end, 10);
                if (*end || tok[0] == '-' || x == 0 || x > width) {
                    fprintf(stderr, "host_runner: --warp-sizes %s: '%s' is not a warp size 1 .. %u\n", arg, tok, width);
                    exit(2);
                }
                if (n == cap) {
                    cap = cap ? 2 * cap : 256;
                    v = realloc(v, cap * sizeof *v);
                    if (v == NULL)
                        die("out of memory");
                }
                v[n++] = (unsigned)x;
                k = 0;
            }
            if (ch == EOF)
                break;
            continue;
        }
        if (k + 1 < sizeof tok)
            tok[k++] = (char)ch;
    }
    if (f)
        fclose(f);
    if (n == 0) {
        fprintf(stderr, "host_runner: --warp-sizes %s: no warp sizes\n", arg);
        exit(2);
    }
    *count = n;
    return v;
}

/* The grid: the fixed one, a --warp-sizes list, or the kernel's WSIM_GRID_ROWS. */
static void build_grid(const char *warp_sizes, int threads_given) {
    unsigned *sizes = NULL, w, t;
    unsigned long m = 0, total = 0;
    if (warp_sizes != NULL) {
        sizes = parse_sizes(warp_sizes, wsim_host.width, &m);
    } else if (__start_wsim_grid != NULL && (const char *)__stop_wsim_grid > (const char *)__start_wsim_grid) {
        const struct wsim_grid *g = __start_wsim_grid;
        unsigned i;
        m = *g->count;
        if (m == 0 || m >= g->cap) {
            fprintf(stderr, "host_runner: the kernel's grid (WSIM_GRID_ROWS) has %lu rows: give its input (--input)\n",
                    m);
            exit(2);
        }
        sizes = malloc(m * sizeof *sizes);
        if (sizes == NULL)
            die("out of memory");
        for (i = 0; i < m; i++) {
            unsigned len = g->offsets[i + 1] - g->offsets[i];
            if (g->offsets[i + 1] < g->offsets[i]) {
                fprintf(stderr, "host_runner: the kernel's grid: row offsets decrease at row %u\n", i);
                exit(2);
            }
            sizes[i] = len < 1 ? 1 : len > wsim_host.width ? wsim_host.width : len;
        }
    }
    if (sizes != NULL) {
        if (threads_given) {
            fprintf(stderr, "host_runner: --threads: the irregular grid sets the threads\n");
            exit(2);
        }
        for (w = 0; w < m; w++)
            total += sizes[w];
        wsim_host.nthreads = (unsigned)total;
    } else {
        m = ((unsigned long)wsim_host.nthreads + wsim_host.width - 1) / wsim_host.width;
    }
    wsim_host.nwarps = (unsigned)m;
    g_wid = malloc((wsim_host.nthreads + 1) * sizeof *g_wid);
    g_wtid = malloc((wsim_host.nthreads + 1) * sizeof *g_wtid);
    g_ntids = malloc((wsim_host.nthreads + 1) * sizeof *g_ntids);
    g_wstart = malloc((m + 1) * sizeof *g_wstart);
    if (!g_wid || !g_wtid || !g_ntids || !g_wstart)
        die("out of memory");
    t = 0;
    for (w = 0; w < m; w++) {
        unsigned n = sizes ? sizes[w] : (wsim_host.nthreads - t < wsim_host.width ? wsim_host.nthreads - t : wsim_host.width);
        unsigned j;
        g_wstart[w] = t;
        for (j = 0; j < n; j++, t++)
            g_wid[t] = w, g_wtid[t] = j, g_ntids[t] = n;
    }
    g_wstart[m] = t;
    free(sizes);
}

static void usage(FILE *f, const char *prog) {
    fprintf(f,
            "usage: %s [--threads N] [--seed S] [--arg A] [--task T] [--width W]\n"
            "          [--wpus P] [--warps K] [--dump FILE] [--quiet] [--time] [--contexts]\n"
            "          [--list-results] [--warp-sizes LIST|FILE] [--input NAME=FILE]\n"
            "Runs the kernel natively, thread by thread (see kernels/README.md).\n"
            "  --threads N   thread count (default 256)\n"
            "  --seed S      wsim_seed() (default 1, as wpusim)\n"
            "  --arg A       wsim_arg(), the problem size; 0 = small default (default 0)\n"
            "  --task T      wsim_task(), the task mapping (docs/tasks.md; default 0)\n"
            "  --width W     SIMD width, for wsim_lane()/wsim_warp()/wsim_wpu() (default 16, as wpusim)\n"
            "  --wpus P      WPU count (default 4, as wpusim)\n"
            "  --warps K     warp slots per WPU (default: enough for all warps)\n"
            "  --dump FILE   write the WSIM_RESULT regions, as wpusim --dump does\n"
            "  --quiet       discard the kernel's stdout and the run summary\n"
            "  --time        print the wall and CPU time of the run (not of start-up) on stderr\n"
            "  --contexts    run every thread on its own context even without barriers\n"
            "  --list-results  print the result regions (index, offset, size) and exit\n"
            "  --warp-sizes L  an irregular grid: warps of these sizes (1 .. --width; docs/irregular.md)\n"
            "  --input N=FILE  fill the kernel's input region N from FILE (repeatable)\n",
            prog);
}

static unsigned parse_u32(const char *opt, const char *s) {
    char *end;
    unsigned long long v;
    errno = 0;
    v = strtoull(s, &end, 0);
    if (errno != 0 || end == s || *end != '\0' || v > 0xFFFFFFFFull || s[0] == '-') {
        fprintf(stderr, "host_runner: bad value for %s: '%s'\n", opt, s);
        exit(2);
    }
    return (unsigned)v;
}

int main(int argc, char **argv) {
    const char *dump = NULL;
    int show_time = 0, list = 0, contexts = 0, i;
    unsigned warps = 0;
    unsigned long barriers;
    const char *warp_sizes = NULL;
    const char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
    int ninputs = 0, threads_given = 0;
    unsigned long long nwarps;
    struct timespec t0, t1, c0, c1;
    long ps;

    wsim_host.nthreads = 256;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
            continue;
        }
        if (strcmp(a, "--time") == 0) {
            show_time = 1;
            continue;
        }
        if (strcmp(a, "--contexts") == 0) {
            contexts = 1;
            continue;
        }
        if (strcmp(a, "--list-results") == 0) {
            list = 1;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout, argv[0]);
            return 0;
        }
        if (v == NULL) {
            usage(stderr, argv[0]);
            return 2;
        }
        if (strcmp(a, "--threads") == 0)
            wsim_host.nthreads = parse_u32(a, v), threads_given = 1;
        else if (strcmp(a, "--warp-sizes") == 0)
            warp_sizes = v;
        else if (strcmp(a, "--input") == 0)
            inputs[ninputs++] = v;
        else if (strcmp(a, "--seed") == 0)
            wsim_host.seed = parse_u32(a, v);
        else if (strcmp(a, "--arg") == 0)
            wsim_host.arg = parse_u32(a, v);
        else if (strcmp(a, "--task") == 0)
            wsim_host.task = parse_u32(a, v);
        else if (strcmp(a, "--width") == 0)
            wsim_host.width = parse_u32(a, v);
        else if (strcmp(a, "--wpus") == 0)
            wsim_host.wpus = parse_u32(a, v);
        else if (strcmp(a, "--warps") == 0)
            warps = parse_u32(a, v);
        else if (strcmp(a, "--dump") == 0)
            dump = v;
        else {
            usage(stderr, argv[0]);
            return 2;
        }
        i++;
    }
    if (list) {
        list_results();
        return 0;
    }
    if (wsim_host.nthreads == 0 || wsim_host.width == 0 || wsim_host.wpus == 0) {
        fprintf(stderr, "host_runner: --threads, --width and --wpus must be >= 1\n");
        return 2;
    }
    for (i = 0; i < ninputs; i++)
        load_input(inputs[i]);
    free(inputs);
    build_grid(warp_sizes, threads_given);
    nwarps = ((unsigned long long)wsim_host.nthreads + wsim_host.width - 1) / wsim_host.width;
    if (warps == 0) /* enough slots for every warp */
        warps = (unsigned)((nwarps + wsim_host.wpus - 1) / wsim_host.wpus);
    wsim_host.warps = warps;

    ps = sysconf(_SC_PAGESIZE);
    page_size = ps > 0 ? (size_t)ps : 4096;

    direct = !contexts && __start_wsim_uses_barrier == NULL && __start_wsim_uses_shfl == NULL;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    barriers = run_all();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);

    /* The run alone, without process start-up (make bench adds up the CPU
     * times of repeated runs: a paper-size kernel takes only 15-60 ms). */
    if (show_time)
        fprintf(stderr, "host-time: %.6f s wall, %.6f s cpu\n",
                (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
                (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec));
    if (!quiet)
        fprintf(stderr, "host_runner: %u threads, %lu barrier(s), %lu context(s), %lu failed\n",
                wsim_host.nthreads, barriers, n_contexts, n_failed);
    if (dump != NULL && write_dump(dump) != 0)
        return 2;
    if (n_failed != 0) {
        fprintf(stderr, "host_runner: %lu thread(s) exited with a nonzero code\n", n_failed);
        return 1;
    }
    return 0;
}
