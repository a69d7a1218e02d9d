/* collatz.c — Collatz trajectories in 64-bit integer arithmetic.
 *
 * Work item i starts from a random odd number of 5..16 bits (1 in 16:
 * 28..31 bits, whose peaks pass 2^32) and follows n -> n/2 (even)
 * or 3n+1 (odd) until it reaches a power of two, then halves down to 1.  Reported per
 * item: the step count, the number of odd steps, the peak value (64-bit), the decimal
 * digit sum of peak * (start mod 2^16) (a 64-bit number), and a signed 64-bit "drift"
 * quotient/remainder.
 *
 * Divergence: the trip count of the trajectory loop differs from item to item (from a
 * few to several hundred steps), the odd/even branch differs every step, the trajectory
 * helper leaves early (return) at the first power of two, a step limit breaks out,
 * even steps `continue`; the digit loop's trip count depends on the peak.  64-bit
 * arithmetic: 3n+1, shifts and compares inline; / and % call __udivdi3/__umoddi3 and
 * __divdi3/__moddi3 from runtime/libc.c.
 *
 * arg: number of work items (0 = 256), at most NMAX.
 * Self-check: the digit sum is congruent to that product modulo 9.
 */
#include "warpsplit.h"

#define NMAX 16384u
#define N_DEFAULT 256u
#define STEP_LIMIT 1000u

static uint32_t steps[NMAX];   /* steps to reach 1 (STEP_LIMIT if it did not) */
static uint32_t odd_steps[NMAX];
static uint64_t peak[NMAX];    /* largest value on the trajectory */
static uint32_t digit_sum[NMAX]; /* of peak * (start mod 2^16) */
static int64_t drift[NMAX][2]; /* signed quotient and remainder */

WSIM_RESULT(steps);
WSIM_RESULT(odd_steps);
WSIM_RESULT(peak);
WSIM_RESULT(digit_sum);
WSIM_RESULT(drift);

struct trajectory {
    uint32_t steps, odd;
    uint64_t peak;
};

/* Follows n until it is a power of two (then the rest is known: log2(n) halvings). */
static void follow(uint64_t n, struct trajectory *t) {
    uint32_t s = 0, odd = 0;
    uint64_t pk = n;
    for (;;) {
        if ((n & (n - 1)) == 0) { /* power of two: halve down to 1 */
            while (n > 1) {
                n >>= 1;
                s++;
            }
            t->steps = s;
            t->odd = odd;
            t->peak = pk;
            return; /* early return from inside the loop */
        }
        if (s >= STEP_LIMIT)
            break;
        if ((n & 1) == 0) {
            n >>= 1;
            s++;
            continue;
        }
        n = 3 * n + 1;
        odd++;
        s++;
        if (n > pk)
            pk = n;
    }
    t->steps = STEP_LIMIT;
    t->odd = odd;
    t->peak = pk;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t n = wsim_arg() ? wsim_arg() : N_DEFAULT;
    uint32_t seed = wsim_seed();
    uint32_t i;
    int bad = 0;

    if (n > NMAX)
        n = NMAX;
    for (i = tid; i < n; i += nthreads) {
        wsim_rng r = wsim_rng_init(seed, i);
        uint32_t big = (wsim_rand(&r) & 15u) == 0; /* 1 in 16: a 28..31-bit start */
        uint32_t bits = big ? 28 + wsim_rand_below(&r, 4) : 5 + wsim_rand_below(&r, 12);
        uint64_t start = (uint64_t)((wsim_rand(&r) >> (32 - bits)) | 1u);
        struct trajectory t;
        uint64_t v, sig;
        uint32_t ds = 0;
        int64_t num, den;

        follow(start, &t);
        steps[i] = t.steps;
        odd_steps[i] = t.odd;
        peak[i] = t.peak;

        sig = t.peak * (start & 0xFFFFu);
        for (v = sig; v != 0; v /= 10) /* 64-bit / and % by 10 */
            ds += (uint32_t)(v % 10);
        digit_sum[i] = ds;
        if (ds % 9 != (uint32_t)(sig % 9))
            bad = 1;

        /* Signed 64-bit division with both signs: (steps * start - peak) / (odd - 7). */
        num = (int64_t)t.steps * (int64_t)start - (int64_t)t.peak;
        den = (int64_t)t.odd - 7;
        if (den == 0)
            den = 1;
        drift[i][0] = num / den;
        drift[i][1] = num % den;
    }
    return bad;
}
