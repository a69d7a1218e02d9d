/* reduction.c — parallel sum reduction of random boolean values.
 *
 * Benchmark "reduction" of seed 004 (Narasiman et al., Table 2: "Reduce input values
 * into single sum", 32 M random boolean values), adapted there from the NVIDIA CUDA
 * SDK's reduction.  The SDK's scheme: every thread first sums a grid-strided run of
 * the input (i = tid, tid + nthreads, ...: consecutive values on consecutive lanes,
 * one byte each), then the per-thread partial sums are added by a tree
 * (partial[t] += partial[t + s] for s = P/2, P/4, ..., 1, P = the thread count rounded
 * up to a power of two), with a barrier after each level.  The barrier follows the
 * `if (t < s)` of each level, so every warp reaches it converged (README: barriers in
 * convergent code).  Integer sums are exact, so the total does not depend on the
 * thread count.
 *
 * Divergence: the tree's `if (t < s ...)` (half the remaining threads drop out at each
 * level; below the warp width, part of a warp) and the item loops' tails; the main
 * loop is uniform.  Memory: a streaming read of the whole input (byte loads), then a
 * few small strided levels.
 *
 * Input (from wsim_seed()): byte values 0 or 1, four per hash (one word of the input
 * per hash: h & 0x01010101).  The kernel reads them as bytes, one value per load.
 * arg: 0 = tiny (32 K values), 1 = small (1 M), 2 = paper (16 M: 004's 32 M scaled by
 *      1/2 to stay within 004's 100-200 M thread instructions: about 120 M);
 *      >= 3: arg values rounded up to a multiple of 4 (at most 32 M = 004's input).
 * Result: stats {values, sum by the tree, sum by the check}.
 * Self-check: the total again, summed differently: word-wise (four values per load,
 * added with one multiply: (w * 0x01010101) >> 24) by NCHECK column tasks, whose sums
 * thread 0 adds up; it must equal the tree's total.
 */
#include "warpsplit.h"

#define NMAX (32u << 20)     /* 004's 32 M values */
#define TMAX 65536u          /* partial sums: at most this many threads */
#define NCHECK 1024u         /* self-check: fixed number of column tasks */

static uint32_t word[NMAX / 4u]; /* the values, four bytes per word */
static uint32_t partial[TMAX];
static uint32_t check_sum[NCHECK];
static uint32_t stats[3];    /* values, sum (tree), sum (check) */

WSIM_RESULT(stats);

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg(), seed = wsim_seed();
    uint32_t n, nw, i, s, p, sum = 0;
    uint32_t sv = wsim_mix32(seed ^ 0x7265640au);
    const uint8_t *val = (const uint8_t *)word; /* byte view (char types may alias) */

    if (arg == 0)
        n = 32u << 10;
    else if (arg == 1)
        n = 1u << 20;
    else if (arg == 2)
        n = 16u << 20;
    else
        n = arg < NMAX ? (arg + 3u) & ~3u : NMAX;
    nw = n / 4u;
    if (nthreads > TMAX)
        return 2; /* more threads than partial sums */

    /* The input: four 0/1 bytes per word, one hash each. */
    for (i = tid; i < nw; i += nthreads)
        word[i] = wsim_mix32(sv ^ i) & 0x01010101u;
    wsim_roi_begin(); /* the measured phase: the reduction */

    /* Level 0: each thread sums a grid-strided run of values. */
    for (i = tid; i < n; i += nthreads)
        sum += val[i];
    partial[tid] = sum;
    for (p = 1; p < nthreads; p <<= 1)
        ;
    wsim_barrier();

    /* The tree: one level per barrier, outside the divergent if. */
    for (s = p >> 1; s > 0; s >>= 1) {
        if (tid < s && tid + s < nthreads)
            partial[tid] += partial[tid + s];
        wsim_barrier();
    }
    wsim_roi_end();

    /* Self-check, part 1: NCHECK column tasks (task c: words c, c + NCHECK, ...; lanes
     * read consecutive words), four values per load. */
    for (i = tid; i < NCHECK; i += nthreads) {
        uint32_t w, cs = 0;
        for (w = i; w < nw; w += NCHECK)
            cs += (word[w] * 0x01010101u) >> 24; /* the four bytes' sum (each 0 or 1) */
        check_sum[i] = cs;
    }
    wsim_barrier();

    if (tid == 0) {
        uint32_t check = 0;
        for (i = 0; i < NCHECK; i++)
            check += check_sum[i];
        stats[0] = n;
        stats[1] = partial[0];
        stats[2] = check;
        return partial[0] != check || check > n;
    }
    return 0;
}
