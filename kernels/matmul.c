/* matmul.c — classic dense matrix multiplication C = A x B of integer matrices.
 *
 * Benchmark "matrix mult" of seed 004 (Narasiman et al., Table 2: "Classic matrix
 * multiplication kernel", two 256 x 256 integer matrices), adapted there from the
 * NVIDIA CUDA SDK.  The classic (untiled) kernel: one output element per task,
 *     C[i][j] = sum over k of A[i][k] * B[k][j],
 * consecutive elements of a row on consecutive threads, so a warp reads one A[i][k]
 * (the same word: a broadcast) and a run of B[k][j .. j+31] (one or two lines) per
 * step of k, and the B matrix (256 KB at the paper size) streams through the data
 * cache for every row of C: the memory-bound end of 004's suite.
 *
 * Divergence: none apart from the item loops' tails: the inner loop has the same trip
 * count (n) on every lane, the generator and the check are branch-free.
 *
 * Input (from wsim_seed()): A and B with entries in -128..127 (8-bit signed values in
 * int32), one hash per entry; sums stay within n * 128 * 128 <= 2^24 (no overflow).
 * arg: 0 = tiny (32 x 32), 1 = small (128 x 128), 2 = paper (256 x 256, 004's input:
 *      16.8 M multiply-adds, about 140 M thread instructions); >= 3: n x n (n = arg, at
 *      most 256).
 * Result: C (row-major, n x n in the first n * n words) and stats {n, trace of C}.
 * Self-check: every CHECK-th element of C recomputed with k running downwards (integer
 * sums: bit-identical), and Freivalds' test on sampled rows: sum_j C[i][j] * x_j equals
 * sum_k A[i][k] * (sum_j B[k][j] * x_j) for x_j = j + 1 (mod 2^32).
 */
#include "warpsplit.h"

#define NMAX 256u
#define CHECK 37u /* self-check: every 37th element of C */

static int32_t a[NMAX * NMAX];
static int32_t b[NMAX * NMAX];
static int32_t c[NMAX * NMAX];
static uint32_t bx[NMAX];    /* B x for the Freivalds test */
static int32_t stats[2];     /* n, trace of C */

WSIM_RESULT(c);
WSIM_RESULT(stats);

/* Entry e of a matrix: -128..127 from one hash (s = the matrix's hashed seed). */
static inline int32_t entry(uint32_t s, uint32_t e) {
    return (int32_t)(wsim_mix32(s ^ e) & 255u) - 128;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg(), seed = wsim_seed();
    uint32_t n, nn, e, i;
    uint32_t sa = wsim_mix32(seed ^ 0x41414141u), sb = wsim_mix32(seed ^ 0x42424242u);
    int bad = 0;

    if (arg == 0)
        n = 32;
    else if (arg == 1)
        n = 128;
    else if (arg == 2)
        n = 256;
    else
        n = arg < NMAX ? arg : NMAX;
    nn = n * n;

    for (e = tid; e < nn; e += nthreads) {
        a[e] = entry(sa, e);
        b[e] = entry(sb, e);
    }
    wsim_roi_begin(); /* the measured phase: the product */

    /* The kernel: one element of C per task. */
    for (e = tid; e < nn; e += nthreads) {
        uint32_t row = e / n, col = e % n, k;
        const int32_t *ap = &a[row * n], *bp = &b[col];
        int32_t sum = 0;
        for (k = 0; k < n; k++) { /* walking pointers: 8 instructions per step */
            sum += *ap * *bp;
            ap++;
            bp += n;
        }
        c[e] = sum;
    }
    wsim_roi_end();
    /* B x (x_j = j + 1) for the Freivalds test, one row of B per task. */
    for (i = tid; i < n; i += nthreads) {
        uint32_t j, s = 0;
        for (j = 0; j < n; j++)
            s += (uint32_t)b[i * n + j] * (j + 1u);
        bx[i] = s;
    }
    wsim_barrier();

    /* Self-check 1: sampled elements with k running downwards. */
    for (e = tid * CHECK; e < nn; e += nthreads * CHECK) {
        uint32_t row = e / n, col = e % n, k;
        int32_t sum = 0;
        for (k = n; k-- > 0;)
            sum += a[row * n + k] * b[k * n + col];
        bad |= sum != c[e];
    }
    /* Self-check 2: Freivalds on every CHECK-th row (unsigned: wraps mod 2^32). */
    for (i = tid * CHECK; i < n; i += nthreads * CHECK) {
        uint32_t j, lhs = 0, rhs = 0;
        for (j = 0; j < n; j++) {
            lhs += (uint32_t)c[i * n + j] * (j + 1u);
            rhs += (uint32_t)a[i * n + j] * bx[j];
        }
        bad |= lhs != rhs;
    }
    if (tid == 0) {
        int32_t tr = 0; /* |C[i][i]| <= 2^22: no overflow for n <= 256 */
        for (i = 0; i < n; i++)
            tr += c[i * n + i];
        stats[0] = (int32_t)n;
        stats[1] = tr;
    }
    return bad;
}
