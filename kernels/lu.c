/* lu.c — Splash-2 LU: blocked dense LU factorisation without pivoting.
 *
 * Algorithm (Splash-2 kernels/lu, Woo et al. 1995): A (n x n, column-major like
 * Splash-2: A(i,j) = a[i + j*n]) is factored in place into L (lower, with the
 * diagonal) times U (unit upper), block column by block column (block size BS = 16,
 * the last block may be smaller).  For each diagonal block K (rows/columns k..kl-1):
 *   1. lu0: factor the diagonal block: for each of its columns kk, every later column
 *      j of the block scales A(kk,j) /= A(kk,kk) and subtracts A(kk,j) times column kk
 *      below the diagonal (Splash-2's daxpy);
 *   2. bdiv: the blocks below the diagonal become L: A(i,K) := A(i,K) U(K,K)^-1, and
 *      bmodd: the blocks right of it become U: A(K,j) := L(K,K)^-1 A(K,j);
 *   3. bmod: the trailing matrix A(i,j) -= sum over kk in K of A(i,kk) A(kk,j).
 * Splash-2 hands whole blocks to processors (BlockOwner); here, as in the Dynamic Warp
 * Subdivision papers' OpenMP-style port (§3.1: neighbouring tasks to the threads of a
 * warp), the loops inside the phases are the parallel loops, with a barrier between
 * phases:
 *   1. for each kk of the diagonal block: the columns j > kk of lu0's inner loop, one
 *      per task, barrier after each kk (the next kk needs column kk+1 finished);
 *   2. one task per ROW of the column panel (bdiv; the row's elements lie n apart) and
 *      one per COLUMN of the row panel (bmodd; the column is contiguous), in one loop;
 *   3. one task per element of the trailing matrix, consecutive tasks down a column
 *      (contiguous), the inner product over the BS columns of block K.
 * That is the "alternating row-major and column-major computation" of the papers
 * (paper 000 Table 1, paper 001 Table 2: LU, 300 x 300).  Per element, the operations
 * and their order are those of Splash-2's lu0/bdiv/bmodd/bmod (a -= b * c in single
 * precision).  Barriers: BS + 2 per block (340 at n = 300).
 *
 * Divergence: mostly loop structure, as the papers characterise LU (no non-loop
 * conditional branches in paper 000's Table 2, 4.3 % divergent branches in paper 001's
 * Table 1): lu0's task count shrinks with kk (a warp or part of one works, the others
 * wait at the barrier), phase 2 switches from row tasks to column tasks in the middle
 * of a warp, the item loops' tails vary with the thread count; the triangular inner
 * loops of bdiv/bmodd have the same trip counts for all tasks of a block; the
 * self-check's dot products have data-dependent lengths.
 *
 * Input (from wsim_seed()): A(i,j) uniform in [-1, 1), plus n on the diagonal
 * (strictly diagonally dominant, so no pivoting is needed).
 * arg: 0 = tiny (n = 40: blocks 16, 16, 8), 1 = small (n = 200), 2 = paper (n = 300);
 *      >= 3: n = arg (at most 300).
 * Result: the factored matrix (L and U in place, column-major).
 * Self-check: NCHECK seed-chosen entries A(i,j) are rebuilt as sum_k L(i,k) U(k,j) and
 * must match the input within 2e-5 of sum_k |L(i,k) U(k,j)| (+ 1e-6).
 */
#include "tasks.h"

#define NMAX 300u
#define BS 16u      /* Splash-2's default block size */
#define NCHECK 256u /* entries checked */

static float a[NMAX * NMAX];

WSIM_RESULT(a);

/* A(i,j) of the input matrix. */
static float input(uint32_t seed, uint32_t n, uint32_t i, uint32_t j) {
    float v = 2.0f * (float)(wsim_hash3(seed, i, j) >> 8) * (1.0f / 16777216.0f) - 1.0f;
    return i == j ? v + (float)n : v;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg(), seed = wsim_seed();
    uint32_t n, t, k, kl, kk, s;
    int bad = 0;

    if (arg == 0)
        n = 40;
    else if (arg == 1)
        n = 200;
    else if (arg == 2)
        n = 300;
    else
        n = arg < NMAX ? arg : NMAX;

    WSIM_FOR(t, 0, n * n) /* column-major: t = i + j*n */
        a[t] = input(seed, n, t % n, t / n);
    wsim_roi_begin(); /* the measured phase: the factorization */

    for (k = 0; k < n; k += BS) {
        uint32_t dk, m;
        float *d = &a[k + k * n]; /* the diagonal block: D(i,j) = d[i + j*n] */

        kl = k + BS < n ? k + BS : n;
        dk = kl - k;
        m = n - kl; /* rows (and columns) after the block */

        /* 1. lu0 on the diagonal block: parallel over the columns j > kk. */
        for (kk = 0; kk < dk; kk++) {
            uint32_t j;
            WSIM_FOR(j, kk + 1, dk) {
                float *col = &d[j * n];
                float alpha;
                uint32_t i;
                col[kk] /= d[kk + kk * n];
                alpha = col[kk];
                for (i = kk + 1; i < dk; i++) /* daxpy */
                    col[i] -= alpha * d[i + kk * n];
            }
            wsim_barrier();
        }

        /* 2. bdiv (rows of the column panel) and bmodd (columns of the row panel). */
        WSIM_FOR(t, 0, 2 * m) {
            uint32_t i, j, c;
            if (t < m) { /* row kl+t of L: row := row * U(K,K)^-1, walking along the row */
                float *row = &a[kl + t + k * n];
                for (c = 0; c < dk; c++)
                    for (j = c + 1; j < dk; j++)
                        row[j * n] -= d[c + j * n] * row[c * n];
            } else { /* column kl+t-m of U: col := L(K,K)^-1 col, walking down the column */
                float *col = &a[k + (kl + t - m) * n];
                for (c = 0; c < dk; c++) {
                    float alpha;
                    col[c] /= d[c + c * n];
                    alpha = col[c];
                    for (i = c + 1; i < dk; i++)
                        col[i] -= alpha * d[i + c * n];
                }
            }
        }
        wsim_barrier();

        /* 3. bmod: the trailing matrix, one element per task, down the columns. */
        WSIM_FOR(t, 0, m * m) {
            uint32_t i = kl + t % m, j = kl + t / m, c;
            float v = a[i + j * n];
            for (c = k; c < kl; c++)
                v -= a[i + c * n] * a[c + j * n];
            a[i + j * n] = v;
        }
        wsim_barrier();
    }
    wsim_roi_end();

    /* Self-check: A(i,j) = sum_{c <= min(i,j)} L(i,c) U(c,j), L(i,c) = a(i,c) for c <= i,
     * U(c,j) = a(c,j) for c < j and 1 for c = j. */
    WSIM_FOR(s, 0, NCHECK) {
        uint32_t h = wsim_hash3(seed, s, 0x4c55u);
        uint32_t i = (h & 0xffffu) % n, j = (h >> 16) % n, c, lim = i < j ? i : j;
        float sum = 0.0f, abs = 0.0f, term;
        if (s == 0) /* always check the last diagonal entry (most updates) */
            i = j = lim = n - 1;
        for (c = 0; c < lim; c++) {
            term = a[i + c * n] * a[c + j * n];
            sum += term;
            abs += fabsf(term);
        }
        term = i <= j ? a[i + i * n] * (i == j ? 1.0f : a[i + j * n]) : a[i + j * n];
        sum += term;
        abs += fabsf(term);
        if (!(fabsf(sum - input(seed, n, i, j)) <= 2e-5f * abs + 1e-6f))
            bad = 1;
    }
    return bad;
}
