/* rt_libc.c — runtime self-test: the compiler-support routines of runtime/libc.c.
 *
 * On RISC-V these operations are calls into runtime/libc.c (64-bit division and
 * remainder, 64-bit integer <-> float conversion, memcpy/memmove/memset/memcmp for
 * block copies); on the host they are the host's own instructions and libc.  Both builds
 * must dump the same bytes.  Operands are random, of random widths (so every path of the
 * division is taken: 32/32, 64/16, 64/64) and avoid C undefined behaviour (no division
 * by zero, no INT64_MIN / -1, float -> integer only in range).
 *
 * arg: number of work items (0 = 256), at most NMAX.
 */
#include "warpsplit.h"

#define NMAX 4096u
#define N_DEFAULT 256u

static uint64_t udiv[NMAX][2];
static int64_t sdiv[NMAX][2];
static int64_t f2i[NMAX][2];   /* (int64_t)f, (int64_t)(uint64_t)|f| */
static float i2f[NMAX][2];     /* (float)int64, (float)uint64 */
static uint32_t mem[NMAX][12]; /* block copies with various offsets */
WSIM_RESULT(udiv);
WSIM_RESULT(sdiv);
WSIM_RESULT(f2i);
WSIM_RESULT(i2f);
WSIM_RESULT(mem);

static uint64_t rand_wide(wsim_rng *r) {
    uint32_t bits = 1 + wsim_rand_below(r, 64);
    uint64_t v = (uint64_t)wsim_rand(r) << 32 | wsim_rand(r);
    return bits == 64 ? v : v >> (64 - bits);
}

struct blob {
    uint8_t b[40];
};

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t n = wsim_arg() ? wsim_arg() : N_DEFAULT, i, k;
    int bad = 0;
    if (n > NMAX)
        n = NMAX;
    for (i = tid; i < n; i += nthreads) {
        wsim_rng r = wsim_rng_init(wsim_seed(), i);
        uint64_t a = rand_wide(&r), b = rand_wide(&r);
        int64_t sa, sb;
        float f;
        struct blob x, y;
        uint8_t buf[48];
        uint32_t off = wsim_rand_below(&r, 8), len = wsim_rand_below(&r, 33);

        if (b == 0)
            b = 1;
        udiv[i][0] = a / b;
        udiv[i][1] = a % b;
        if (udiv[i][0] * b + udiv[i][1] != a || udiv[i][1] >= b)
            bad = 1;

        sa = (int64_t)(a >> 1) * ((wsim_rand(&r) & 1) ? -1 : 1);
        sb = (int64_t)(b >> (b > 1)) * ((wsim_rand(&r) & 1) ? -1 : 1);
        sdiv[i][0] = sa / sb;
        sdiv[i][1] = sa % sb;
        if (sdiv[i][0] * sb + sdiv[i][1] != sa)
            bad = 1;

        /* float in (-2^62, 2^62) with a random exponent */
        f = (float)(wsim_rand(&r) >> 8) * (1.0f / 16777216.0f); /* [0, 1) */
        for (k = wsim_rand_below(&r, 62); k > 0; k--)
            f *= 2.0f;
        if (wsim_rand(&r) & 1)
            f = -f;
        f2i[i][0] = (int64_t)f;
        f2i[i][1] = (int64_t)(uint64_t)fabsf(f);
        i2f[i][0] = (float)sa;
        i2f[i][1] = (float)a;

        for (k = 0; k < sizeof x.b; k++)
            x.b[k] = (uint8_t)wsim_rand(&r);
        y = x;                                 /* struct copy: memcpy */
        for (k = 0; k < sizeof buf; k++)
            buf[k] = (uint8_t)k;
        __builtin_memcpy(buf + off, y.b, len);  /* unaligned copy */
        __builtin_memmove(buf + 1, buf + off, len); /* overlapping */
        __builtin_memset(buf + 36 - (off & 3), (int)(a & 0xFF), off + 4);
        for (k = 0; k < 12; k++)
            mem[i][k] = (uint32_t)buf[4 * k] | (uint32_t)buf[4 * k + 1] << 8 |
                        (uint32_t)buf[4 * k + 2] << 16 | (uint32_t)buf[4 * k + 3] << 24;
        if (__builtin_memcmp(&x, &y, sizeof x) != 0)
            bad = 1;
    }
    return bad;
}
