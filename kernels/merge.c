/* merge.c — bottom-up merge sort of 32-bit signed integers, one pass per run width.
 *
 * Benchmark "Merge" of the Dynamic Warp Subdivision papers (Meng, Tarjan, Skadron:
 * seed 001 Table 2, seed 000 Table 1): merge sort, "element aggregation and
 * reordering", input a 1-D array of 300,000 integers.  The papers' source and input
 * cannot be shipped; this is a data-parallel merge sort of the same shape, and a
 * generator (seeded by wsim_seed()) stands in for the input: keys spread over a wide
 * range with runs of duplicates and a few ascending and descending stretches.
 *
 * Algorithm: the array is sorted bottom-up, run width w = 1, 2, 4, ... until w >= n.
 * In the pass for width w, runs [2kw, 2kw+w) and [2kw+w, 2kw+2w) are merged into
 * [2kw, 2kw+2w) of the other buffer.  The merge is element-parallel (the papers'
 * OpenMP-style `parallel for` over elements, neighbouring elements on neighbouring
 * threads of the same warp): every element finds its rank in the partner run by
 * binary search and is stored at (its index in its own run) + (that rank) + (start of
 * the pair).  Ties are broken stably: an element of the left run counts the partner's
 * elements < it, one of the right run those <= it.  A wsim_barrier() separates passes.
 *
 * Divergence: the binary search's `if (a[mid] < x)` / `<=` goes either way per lane
 * (data dependent), left-run and right-run elements take different paths (at small
 * widths within a warp), the last pair of a pass may have a short or empty partner,
 * and the search's trip count differs with the partner's length.  Each pass reads
 * the partner run at data-dependent addresses: memory divergence too.
 *
 * arg: 0 = tiny (1,000 keys), 1 = small (50,000), 2 or 3 = paper (300,000 keys);
 *      any other value N >= 4 = N keys (at most NMAX).
 * Self-check: the output is sorted (each element against its left neighbour) and a
 * permutation of the input (the wrapping sum of hash(input key) - hash(output key)
 * over all items, reduced in a tree with one barrier per level, is 0).
 */
#include "tasks.h"

#define NMAX 300000u

static int32_t buf[2][NMAX];   /* ping-pong buffers of the passes */
static int32_t sorted[NMAX];   /* the result (keys beyond n stay 0) */
static uint32_t check[NMAX];   /* scratch for the checksum reduction */
static uint32_t info[2];       /* n, number of passes */

WSIM_RESULT(sorted);
WSIM_RESULT(info);

static uint32_t problem_size(uint32_t arg) {
    if (arg == 0)
        return 1000u;
    if (arg == 1)
        return 50000u;
    if (arg <= 3)
        return NMAX;
    return arg < NMAX ? arg : NMAX;
}

/* The input key of item i: mostly spread over +-2^26, a quarter drawn from 64 values
 * (many duplicates), and every 512-item block with a sorted stretch of 32 keys
 * (ascending or descending) as real inputs often have. */
static int32_t key_of(uint32_t seed, uint32_t i) {
    uint32_t h = wsim_hash3(seed, i, 1);
    uint32_t block = i >> 9, pos = i & 511u;
    uint32_t b = wsim_hash3(seed, block, 2);
    if (pos >= (b & 255u) && pos < (b & 255u) + 32u) { /* sorted stretch */
        int32_t base = (int32_t)(b >> 12) - (1 << 19);
        int32_t step = (int32_t)(pos - (b & 255u)) * 37;
        return (b & 256u) ? base + step : base - step;
    }
    if ((h & 3u) == 0)
        return (int32_t)((h >> 2) & 63u) * 1000 - 32000;
    return (int32_t)(h >> 5) - (1 << 26);
}

/* Number of elements of a[lo, hi) (sorted) that are < x. */
static uint32_t rank_below(const int32_t *a, uint32_t lo, uint32_t hi, int32_t x) {
    uint32_t first = lo;
    while (lo < hi) {
        uint32_t mid = lo + ((hi - lo) >> 1);
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - first;
}

/* Number of elements of a[lo, hi) (sorted) that are <= x. */
static uint32_t rank_upto(const int32_t *a, uint32_t lo, uint32_t hi, int32_t x) {
    uint32_t first = lo;
    while (lo < hi) {
        uint32_t mid = lo + ((hi - lo) >> 1);
        if (a[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - first;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t seed = wsim_seed();
    uint32_t n = problem_size(wsim_arg());
    uint32_t i, w, s, passes = 0, cur = 0;
    int bad = 0;

    WSIM_FOR(i, 0, n)
        buf[0][i] = key_of(seed, i);
    wsim_roi_begin(); /* the measured phase: the merge passes */

    /* One pass per run width: merge pairs of sorted runs of width w into runs of 2w. */
    for (w = 1; w < n; w <<= 1) {
        const int32_t *src = buf[cur];
        int32_t *dst = buf[cur ^ 1u];
        WSIM_FOR(i, 0, n) {
            uint32_t base = i & ~(2u * w - 1u); /* start of the pair of runs */
            uint32_t mid = base + w;            /* start of the right run */
            int32_t x = src[i];
            uint32_t at;
            if (i < mid) { /* left run: count the right run's keys < x */
                uint32_t end = mid + w < n ? mid + w : n;
                at = i;
                if (mid < n)
                    at += rank_below(src, mid, end, x);
            } else { /* right run: count the left run's keys <= x */
                at = i - w + rank_upto(src, base, mid, x);
            }
            dst[at] = x;
        }
        cur ^= 1u;
        passes++;
        wsim_barrier();
    }
    wsim_roi_end();

    /* Copy out; check sortedness and build the permutation checksum terms. */
    WSIM_FOR(i, 0, n) {
        int32_t x = buf[cur][i];
        sorted[i] = x;
        if (i > 0 && buf[cur][i - 1] > x)
            bad = 1;
        check[i] = wsim_mix32((uint32_t)key_of(seed, i)) - wsim_mix32((uint32_t)x);
    }
    wsim_barrier();
    for (s = 1; s < n; s <<= 1)
        ;
    for (s >>= 1; s > 0; s >>= 1) { /* tree: check[i] += check[i + s] */
        WSIM_FOR(i, 0, s)
            if (i + s < n)
                check[i] += check[i + s];
        wsim_barrier();
    }
    if (tid == 0) {
        if (check[0] != 0)
            bad = 1;
        info[0] = n;
        info[1] = passes;
    }
    return bad;
}
