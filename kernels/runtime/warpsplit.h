/* warpsplit.h — the WarpSplit kernel API (see docs/abi.md).
 *
 * One source, two builds:
 *   - RISC-V (__riscv): the functions read WarpSplit's CSRs, issue ecalls and the
 *     wsim.bar barrier instruction; the kernel runs on wpusim.
 *   - host: the same names are served by kernels/runtime/host_runner.c, which runs
 *     kernel_main() for every thread (each on its own ucontext, switching at barriers),
 *     so that the host build is a test oracle and a native-speed baseline.
 *
 * Kernel rules that keep the two builds bit-identical:
 *   - results only in WSIM_RESULT() regions made of fixed-width types
 *     (uint32_t, int64_t, float ...; no pointers, no long, no size_t);
 *   - float: single precision only, no double, no libm: fmaf/sqrtf/fabsf come from here;
 *     never convert an out-of-range or NaN float to an integer, never store a NaN;
 *   - integers: no signed overflow, no division by zero, no shift by >= the width;
 *   - results must not depend on lane/warp/wpu/width or on the thread count
 *     (loop over work items: for (i = tid; i < n; i += nthreads));
 *   - wsim_barrier() only in convergent code (see below);
 *   - do not include libc headers other than <stdint.h>/<stddef.h>; in particular not
 *     <math.h> (fmaf/sqrtf/fabsf are macros here).
 */
#ifndef WARPSPLIT_H
#define WARPSPLIT_H

#include <stddef.h>
#include <stdint.h>

/* The kernel's entry point: called once per thread by crt0 (RISC-V) or by the host
 * runner.  Its return value is the thread's exit code (0 = success). */
int kernel_main(unsigned tid, unsigned nthreads);

#define WSIM_NORETURN __attribute__((noreturn))
#define WSIM_INLINE static inline __attribute__((always_inline, unused))

/* ------------------------------------------------------------------------------------
 * Results: WSIM_RESULT(x) registers the object x (usually a global array) as a result
 * region.  wpusim --dump and host_runner --dump write all regions, concatenated in link
 * order (the order of the WSIM_RESULT lines in the kernel source).  Use at file scope
 * after the definition of x.
 * ---------------------------------------------------------------------------------- */
#ifdef __riscv
struct wsim_result {
    const void *addr; /* 32-bit address on rv32 */
    uint32_t size;    /* bytes */
};
_Static_assert(sizeof(struct wsim_result) == 8, "wsim_results record is {u32 addr, u32 size}");
#define WSIM_RESULT_ORDER_
#else
/* The host compiler may emit the records in any order (GCC reverses them), so they
 * carry their source line and host_runner sorts by it: source order = link order of
 * the RISC-V build, where clang and lld keep the definition order. */
struct wsim_result {
    const void *addr; /* host pointer */
    size_t size;      /* bytes */
    unsigned long line;
};
#define WSIM_RESULT_ORDER_ , __LINE__
#endif

#define WSIM_RESULT(x)                                                                    \
    static struct wsim_result wsim_result_##x                                             \
        __attribute__((section("wsim_results"), used, aligned(sizeof(void *)))) = {       \
            (const void *)&(x), sizeof(x) WSIM_RESULT_ORDER_}

/* ------------------------------------------------------------------------------------
 * Thread identity and launch parameters.
 * ---------------------------------------------------------------------------------- */
#ifdef __riscv

#define WSIM_CSR_READ(num)                                                                \
    ({                                                                                    \
        unsigned wsim_v_;                                                                 \
        __asm__("csrr %0, " #num : "=r"(wsim_v_));                                        \
        wsim_v_;                                                                          \
    })

/* wsim_tid() (mhartid), wsim_lane(), wsim_warp() (the warp slot), wsim_wpu(),
 * wsim_width(), wsim_warps(), wsim_wpus(), wsim_nthreads(), wsim_seed(), wsim_arg(), wsim_task():
 * one csrr each, from the CSR table (cmodel/csr.def, docs/abi.md). */
#define CSR(num, name, access, ...)
#define CSR_API(num, name, fn, ...) \
    WSIM_INLINE unsigned wsim_##fn(void) { return WSIM_CSR_READ(num); }
#include "../../cmodel/csr.def"
#undef CSR
#undef CSR_API

/* Global barrier (wsim.bar = 0x0000000B): waits for every live thread; memory written
 * before it is visible after it.  Reach it in convergent code (all threads of a warp
 * together, e.g. outside the divergent item loop): a warp split between the barrier
 * and another path deadlocks on a SIMT machine.  Only whole warps may exit before it. */
WSIM_INLINE void wsim_barrier(void) { __asm__ volatile(".insn i 0x0B, 0, x0, x0, 0" ::: "memory"); }

/* The region of interest: the phase the statistics' "roi" section measures (data
 * generation and self-checks outside), as gem5's m5_work_begin/end.  Each is a global
 * barrier (the same rules as wsim_barrier) whose release marks the region's begin or
 * end: wsim.roi.begin = 0x0010000B, wsim.roi.end = 0x0020000B.  Several begin/end
 * pairs add up.  Put wsim_roi_begin() where the kernel would have its barrier after
 * setting up its data, and wsim_roi_end() after the measured phase. */
WSIM_INLINE void wsim_roi_begin(void) { __asm__ volatile(".insn i 0x0B, 0, x0, x0, 1" ::: "memory"); }
WSIM_INLINE void wsim_roi_end(void) { __asm__ volatile(".insn i 0x0B, 0, x0, x0, 2" ::: "memory"); }

/* End this thread with an exit code (ecall a7=93).  The ebreak after it is never
 * reached; it marks the end of the path for a static control-flow analysis. */
WSIM_INLINE WSIM_NORETURN void wsim_exit(int code) {
    register int a0 __asm__("a0") = code;
    register int a7 __asm__("a7") = 93;
    __asm__ volatile("ecall\n\tebreak" : : "r"(a0), "r"(a7) : "memory");
    __builtin_unreachable();
}

/* write(fd, buf, len) (ecall a7=64): fd 1 = stdout, 2 = stderr; returns len or -1. */
WSIM_INLINE int wsim_write(int fd, const void *buf, unsigned len) {
    register int a0 __asm__("a0") = fd;
    register const void *a1 __asm__("a1") = buf;
    register unsigned a2 __asm__("a2") = len;
    register int a7 __asm__("a7") = 64;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    return a0;
}

/* Float helpers without libm: single instructions (fmadd.s, fsqrt.s, fsgnjx.s).
 * Inline asm rather than __builtin_fmaf/__builtin_sqrtf, which become libm calls
 * when -fmath-errno is in effect (clang's default for this target). */
WSIM_INLINE float wsim_fmaf(float a, float b, float c) {
    float r;
    __asm__("fmadd.s %0, %1, %2, %3" : "=f"(r) : "f"(a), "f"(b), "f"(c));
    return r;
}
WSIM_INLINE float wsim_sqrtf(float a) {
    float r;
    __asm__("fsqrt.s %0, %1" : "=f"(r) : "f"(a));
    return r;
}
WSIM_INLINE float wsim_fabsf(float a) { return __builtin_fabsf(a); }

#else /* host build ----------------------------------------------------------------- */

/* Maintained by host_runner.c: the launch parameters and the running thread's id. */
struct wsim_host_state {
    unsigned tid;      /* the thread running now */
    unsigned nthreads; /* --threads */
    unsigned width;    /* --width: threads per warp */
    unsigned warps;    /* --warps: warp slots per WPU */
    unsigned wpus;     /* --wpus */
    unsigned seed;     /* --seed */
    unsigned arg;      /* --arg */
    unsigned task;     /* --task */
};
extern struct wsim_host_state wsim_host;

void wsim_host_barrier(void);
WSIM_NORETURN void wsim_host_exit(int code);
int wsim_host_write(int fd, const void *buf, unsigned len);

WSIM_INLINE unsigned wsim_tid(void) { return wsim_host.tid; }
WSIM_INLINE unsigned wsim_lane(void) { return wsim_host.tid % wsim_host.width; }
/* Global warp g = tid / width runs on WPU g % wpus in slot g / wpus (docs/abi.md).  When
 * there are more warps than slots, the simulator hands later warps whichever slot frees
 * first; the host cannot know that and reports (g / wpus) % warps. */
WSIM_INLINE unsigned wsim_warp(void) {
    return (wsim_host.tid / wsim_host.width / wsim_host.wpus) % wsim_host.warps;
}
WSIM_INLINE unsigned wsim_wpu(void) { return (wsim_host.tid / wsim_host.width) % wsim_host.wpus; }
WSIM_INLINE unsigned wsim_width(void) { return wsim_host.width; }
WSIM_INLINE unsigned wsim_warps(void) { return wsim_host.warps; }
WSIM_INLINE unsigned wsim_wpus(void) { return wsim_host.wpus; }
WSIM_INLINE unsigned wsim_nthreads(void) { return wsim_host.nthreads; }
WSIM_INLINE unsigned wsim_seed(void) { return wsim_host.seed; }
WSIM_INLINE unsigned wsim_arg(void) { return wsim_host.arg; }
WSIM_INLINE unsigned wsim_task(void) { return wsim_host.task; }
/* Every accessor of cmodel/csr.def must exist here too: one that does not is
 * "declared 'static' but never defined" (-Wunused-function, an error here). */
#define CSR(num, name, access, ...)
#define CSR_API(num, name, fn, ...) static unsigned wsim_##fn(void);
#include "../../cmodel/csr.def"
#undef CSR
#undef CSR_API

/* The marker tells host_runner that this kernel calls wsim_barrier(): it then runs every
 * thread on its own context; kernels without it run directly, at native speed. */
WSIM_INLINE void wsim_barrier(void) {
    static const char wsim_uses_barrier_
        __attribute__((section("wsim_uses_barrier"), used)) = 1;
    (void)wsim_uses_barrier_;
    wsim_host_barrier();
}
/* The region of interest's marks are barriers on the host too (same results, same order). */
WSIM_INLINE void wsim_roi_begin(void) { wsim_barrier(); }
WSIM_INLINE void wsim_roi_end(void) { wsim_barrier(); }
WSIM_INLINE WSIM_NORETURN void wsim_exit(int code) { wsim_host_exit(code); }
WSIM_INLINE int wsim_write(int fd, const void *buf, unsigned len) {
    return wsim_host_write(fd, buf, len);
}

/* Correctly rounded single-precision operations, like fmadd.s / fsqrt.s. */
WSIM_INLINE float wsim_fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
WSIM_INLINE float wsim_sqrtf(float a) { return __builtin_sqrtf(a); }
WSIM_INLINE float wsim_fabsf(float a) { return __builtin_fabsf(a); }

#endif /* __riscv */

#define fmaf(a, b, c) wsim_fmaf((a), (b), (c))
#define sqrtf(a) wsim_sqrtf(a)
#define fabsf(a) wsim_fabsf(a)

/* ------------------------------------------------------------------------------------
 * Output without libc.
 * ---------------------------------------------------------------------------------- */
WSIM_INLINE unsigned wsim_strlen(const char *s) {
    unsigned n = 0;
    while (s[n] != '\0')
        n++;
    return n;
}

/* Writes s to stdout (no newline added). */
WSIM_INLINE int wsim_puts(const char *s) { return wsim_write(1, s, wsim_strlen(s)); }

/* Formats v in decimal into buf (at least 10 bytes, not NUL-terminated); returns the
 * length. */
WSIM_INLINE unsigned wsim_fmt_udec(char *buf, unsigned v) {
    char tmp[10];
    unsigned n = 0, i;
    do {
        tmp[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0);
    for (i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    return n;
}

/* Formats v as 8 hex digits into buf (at least 8 bytes); returns 8. */
WSIM_INLINE unsigned wsim_fmt_hex(char *buf, unsigned v) {
    unsigned i;
    for (i = 0; i < 8; i++) {
        unsigned d = (v >> (28 - 4 * i)) & 0xFu;
        buf[i] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
    }
    return 8;
}

/* Write v in decimal / as 0x%08x to fd. */
WSIM_INLINE int wsim_put_udec(int fd, unsigned v) {
    char buf[10];
    return wsim_write(fd, buf, wsim_fmt_udec(buf, v));
}
WSIM_INLINE int wsim_put_hex(int fd, unsigned v) {
    char buf[10];
    buf[0] = '0';
    buf[1] = 'x';
    return wsim_write(fd, buf, 2 + wsim_fmt_hex(buf + 2, v));
}

/* ------------------------------------------------------------------------------------
 * Deterministic input generation (uint32 only, identical on both builds).
 *
 * Generate a work item's input from (seed, item index), never from a stream shared by
 * several items, so the inputs do not depend on which thread handles which item.
 * ---------------------------------------------------------------------------------- */

/* A strong 32-bit mixing function (lowbias32 by C. Wellons). */
WSIM_INLINE uint32_t wsim_mix32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* Hash of (seed, a, b): e.g. wsim_hash3(wsim_seed(), item, k). */
WSIM_INLINE uint32_t wsim_hash3(uint32_t seed, uint32_t a, uint32_t b) {
    return wsim_mix32(wsim_mix32(wsim_mix32(seed ^ 0x9e3779b9U) ^ a) + b);
}

/* A small per-item random stream: splitmix-style counter hashed by wsim_mix32. */
typedef struct {
    uint32_t state;
} wsim_rng;

WSIM_INLINE wsim_rng wsim_rng_init(uint32_t seed, uint32_t stream) {
    wsim_rng r;
    r.state = wsim_hash3(seed, stream, 0x5bd1e995U);
    return r;
}

WSIM_INLINE uint32_t wsim_rand(wsim_rng *r) {
    r->state += 0x9e3779b9U;
    return wsim_mix32(r->state);
}

/* Uniform in [0, n) for n >= 1 (multiply-high, no division). */
WSIM_INLINE uint32_t wsim_rand_below(wsim_rng *r, uint32_t n) {
    return (uint32_t)(((uint64_t)wsim_rand(r) * n) >> 32);
}

/* Uniform float in [0, 1) with 24 random bits (exact on both builds). */
WSIM_INLINE float wsim_rand_unit(wsim_rng *r) {
    return (float)(wsim_rand(r) >> 8) * (1.0f / 16777216.0f);
}

#endif /* WARPSPLIT_H */
