/* bucketsort.c — parallel bucket sort of 32-bit unsigned integers.
 *
 * Benchmark "sort" of seed 004 (Narasiman et al., Table 2: "Parallel bucket sort of a
 * list of integers", input "1M random integers"); its source is not published.  The
 * keys are uniform 32-bit integers generated from (seed, index).  With N = 2^L keys,
 * B = 2^(L/2) buckets (the top L/2 bits of a key) and the input cut into B chunks of
 * N/B consecutive keys:
 *   1. count:   a task per chunk counts its keys per bucket (cnt[bucket][chunk]);
 *   2. offsets: a task per bucket turns its row into running offsets over the chunks
 *               (in chunk order) and its total;
 *   3. starts:  one task: the buckets' start positions (exclusive scan of the totals);
 *   4. scatter: a task per chunk moves its keys, in order, to their bucket's slots;
 *   5. sort:    a task per bucket sorts it: a counting pass by the next S bits into
 *               2^S sub-buckets of about 4 keys each (a histogram, scan and scatter;
 *               the counters in a global array interleaved by bucket, not on the
 *               thread's stack), then an insertion sort that only moves keys within
 *               their sub-bucket;
 *   6. check.
 * No atomics (RV32IMF has none): every counter has one owner per phase, so the result
 * is the same for any thread count.  A barrier separates the phases.
 *
 * Divergence: the insertion sort's inner loop runs a data-dependent number of times per
 * key (0 to a few), and the sort phase's loops run for the lane's own bucket size — the
 * loop divergence 004 §5.2 names for sort, where a large warp waits for its last
 * threads to leave a loop; the count/scatter loops have the same trip count on all
 * lanes.  Memory: the histogram increments and the scatter go to data-dependent
 * addresses (every lane its own chunk and bucket).
 *
 * arg: 0 = tiny (2^12 keys, 64 buckets), 1 = small (2^16, 256), 2 = paper (2^20 = 1M
 *      keys, 1,024 buckets, 004's input as is: about 155 M thread instructions);
 *      N >= 3 = N rounded up to a power of two in [2^8, 2^20].
 * Result: the sorted keys; info = {N, buckets, largest bucket, check flags: 1 the
 *      bucket sizes do not add up to N, 2 not a permutation, 4 not sorted}.
 * Self-check: every key is >= its left neighbour, and the output is a permutation of
 *      the input: per chunk, the wrapping sums of mix32(key) over the input and over
 *      the output positions, added up by one task, agree.
 */
#include "warpsplit.h"

#define LMAX 20u
#define NMAX (1u << LMAX)
#define BMAX (1u << (LMAX / 2u))
#define SMAX (LMAX - LMAX / 2u - 2u) /* sub-bucket bits at N = 2^LMAX */

static uint32_t keys[NMAX];     /* the input */
static uint32_t tmp[NMAX];      /* keys grouped by bucket */
static uint32_t cnt[NMAX];      /* cnt[bucket * B + chunk]: count, then running offset */
static uint32_t total[BMAX];    /* keys per bucket */
static uint32_t start[BMAX];    /* first position of each bucket */
static uint32_t hin[BMAX], hout[BMAX]; /* per-chunk hash sums of the input and output */
static uint32_t disorder[BMAX]; /* per chunk: keys smaller than their left neighbour */
static uint32_t subc[(1u << SMAX) * BMAX]; /* sub-bucket counters [sub * B + bucket] */
static uint32_t sorted[NMAX];
static uint32_t info[4];        /* N, buckets, largest bucket, check flags */

WSIM_RESULT(sorted);
WSIM_RESULT(info);

static uint32_t log2_size(uint32_t arg) {
    uint32_t l = 8u;
    if (arg == 0)
        return 12u;
    if (arg == 1)
        return 16u;
    if (arg == 2)
        return LMAX;
    while (l < LMAX && (1u << l) < arg)
        l++;
    return l;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t seed = wsim_seed(), l = log2_size(wsim_arg());
    uint32_t n = 1u << l, b = l / 2u, nb = 1u << b, ch = n >> b, s = l - b - 2u;
    uint32_t bshift = 32u - b, sshift = 32u - b - s, smask = (1u << s) - 1u;
    uint32_t i, c, k;
    int bad = 0;

    /* Phase 0: the keys. */
    for (i = tid; i < n; i += nthreads)
        keys[i] = wsim_hash3(seed, i, 0x50127u);
    wsim_roi_begin(); /* the measured phase: the sort (phases 1-5) */

    /* Phase 1: per-chunk histograms; the chunk's input hash sum. */
    for (c = tid; c < nb; c += nthreads) {
        uint32_t h = 0;
        for (k = 0; k < nb; k++)
            cnt[k * nb + c] = 0;
        for (i = c * ch; i < (c + 1u) * ch; i++) {
            uint32_t key = keys[i];
            cnt[(key >> bshift) * nb + c]++;
            h += wsim_mix32(key);
        }
        hin[c] = h;
    }
    wsim_barrier();

    /* Phase 2: running offsets of each bucket over the chunks. */
    for (k = tid; k < nb; k += nthreads) {
        uint32_t run = 0, *row = cnt + k * nb;
        for (c = 0; c < nb; c++) {
            uint32_t v = row[c];
            row[c] = run;
            run += v;
        }
        total[k] = run;
    }
    wsim_barrier();

    /* Phase 3: bucket starts (one task: B additions). */
    if (tid == 0) {
        uint32_t run = 0, big = 0;
        for (k = 0; k < nb; k++) {
            start[k] = run;
            run += total[k];
            if (total[k] > big)
                big = total[k];
        }
        info[0] = n;
        info[1] = nb;
        info[2] = big;
        info[3] = run != n;
    }
    wsim_barrier();

    /* Phase 4: scatter each chunk's keys to their buckets, in input order. */
    for (c = tid; c < nb; c += nthreads) {
        for (i = c * ch; i < (c + 1u) * ch; i++) {
            uint32_t key = keys[i], *o = cnt + (key >> bshift) * nb + c;
            tmp[start[key >> bshift] + *o] = key;
            (*o)++;
        }
    }
    wsim_barrier();

    /* Phase 5: sort each bucket: counting pass by the next s bits, insertion sort. */
    for (k = tid; k < nb; k += nthreads) {
        uint32_t *sub = subc + k, lo = start[k], hi = lo + total[k], run = 0, j;
        for (j = 0; j <= smask; j++)
            sub[j * nb] = 0;
        for (i = lo; i < hi; i++)
            sub[((tmp[i] >> sshift) & smask) * nb]++;
        for (j = 0; j <= smask; j++) {
            uint32_t v = sub[j * nb];
            sub[j * nb] = run;
            run += v;
        }
        for (i = lo; i < hi; i++) {
            uint32_t key = tmp[i];
            sorted[lo + sub[((key >> sshift) & smask) * nb]++] = key;
        }
        for (i = lo + 1u; i < hi; i++) { /* keys move only within their sub-bucket */
            uint32_t key = sorted[i];
            j = i;
            while (j > lo && sorted[j - 1u] > key) {
                sorted[j] = sorted[j - 1u];
                j--;
            }
            sorted[j] = key;
        }
    }
    wsim_roi_end();

    /* Phase 6: check: sorted, and the per-chunk hash sums of the output. */
    for (c = tid; c < nb; c += nthreads) {
        uint32_t h = 0, dis = 0;
        for (i = c * ch; i < (c + 1u) * ch; i++) {
            h += wsim_mix32(sorted[i]);
            dis += i > 0 && sorted[i - 1u] > sorted[i];
        }
        hout[c] = h;
        disorder[c] = dis;
    }
    wsim_barrier();
    if (tid == 0) {
        uint32_t d = 0, dis = 0;
        for (c = 0; c < nb; c++) {
            d += hin[c] - hout[c];
            dis += disorder[c];
        }
        info[3] |= (uint32_t)(d != 0) << 1 | (uint32_t)(dis != 0) << 2;
        bad = info[3] != 0;
    }
    return bad;
}
