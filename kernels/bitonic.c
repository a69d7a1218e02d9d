/* bitonic.c — bitonic sort of N keys, one global barrier per merge stage.
 *
 * Phase 0 fills the keys (a third of them duplicates of others), then the threads run
 * the log2(N)(log2(N)+1)/2 compare-exchange stages of a bitonic sorting network with
 * a wsim_barrier() after each stage, then check the result (sortedness per item, and a
 * checksum reduced in a tree, one barrier per level) and compute per-block statistics.
 *
 * Divergence: within a stage only the lower element of each pair works (l > i), the
 * swap depends on the data, the direction on the stage; the final block statistics
 * loop has a data-dependent `break`.  Many barriers: a stress test of barrier handling.
 *
 * arg: N = number of keys, rounded up to a power of two (0 = 512), at most NMAX.
 * Self-check: sorted, and the keys unchanged (a checksum reduced over all items in a
 * barrier-separated tree).
 */
#include "warpsplit.h"

#define NMAX 65536u
#define N_DEFAULT 512u
#define BLOCK 16u

static uint32_t keys[NMAX];
static uint32_t partial[NMAX]; /* scratch for the checksum reduction */
static uint32_t block_stats[NMAX / BLOCK][2]; /* distinct keys, run length to the first odd key */

WSIM_RESULT(keys);
WSIM_RESULT(block_stats);

static uint32_t key_of(uint32_t seed, uint32_t i) {
    uint32_t h = wsim_hash3(seed, i, 17);
    if (h % 3u == 0) /* duplicate another item's key */
        return wsim_hash3(seed, (h >> 8) % (i + 1u), 23) >> 4;
    return wsim_hash3(seed, i, 23) >> 4;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t n = wsim_arg() ? wsim_arg() : N_DEFAULT;
    uint32_t seed = wsim_seed();
    uint32_t i, j, k;
    int bad = 0;

    if (n > NMAX)
        n = NMAX;
    k = 1;
    while (k < n)
        k <<= 1;
    n = k;

    for (i = tid; i < n; i += nthreads)
        keys[i] = key_of(seed, i);
    wsim_barrier();

    for (k = 2; k <= n; k <<= 1) {
        for (j = k >> 1; j > 0; j >>= 1) {
            for (i = tid; i < n; i += nthreads) {
                uint32_t l = i ^ j, a, b;
                if (l <= i)
                    continue;
                a = keys[i];
                b = keys[l];
                if ((i & k) == 0 ? a > b : a < b) { /* ascending or descending half */
                    keys[i] = b;
                    keys[l] = a;
                }
            }
            wsim_barrier();
        }
    }

    /* Check: sorted (each item against its left neighbour) and the same keys: the
     * wrapping sum of (input key - output key) over all items, reduced in a tree with a
     * barrier per level, must be 0. */
    for (i = tid; i < n; i += nthreads) {
        if (i > 0 && keys[i - 1] > keys[i])
            bad = 1;
        partial[i] = key_of(seed, i) - keys[i];
    }
    wsim_barrier();
    for (j = n >> 1; j > 0; j >>= 1) {
        for (i = tid; i < j; i += nthreads)
            partial[i] += partial[i + j];
        wsim_barrier();
    }
    if (tid == 0 && partial[0] != 0)
        bad = 1;

    /* Block statistics (read-only on the keys: no barrier needed). */
    for (i = tid; i < n / BLOCK; i += nthreads) {
        const uint32_t *b = &keys[i * BLOCK];
        uint32_t distinct = 1, run;
        for (j = 1; j < BLOCK; j++)
            distinct += b[j] != b[j - 1];
        for (run = 0; run < BLOCK; run++)
            if (b[run] & 1u)
                break;
        block_stats[i][0] = distinct;
        block_stats[i][1] = run;
    }
    return bad;
}
