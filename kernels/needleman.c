/* needleman.c — Needleman–Wunsch global alignment of two DNA sequences.
 *
 * Benchmark "needleman" of seed 004 (Narasiman et al., Table 2: "Calculate optimal
 * alignment for 2 DNA sequences", two sequences of length 2048), adapted there from
 * Rodinia's nw.  The score matrix F of (n+1) x (n+1) cells:
 *     F[i][0] = -i * GAP, F[0][j] = -j * GAP,
 *     F[i][j] = max(F[i-1][j-1] + s(a_i, b_j), F[i-1][j] - GAP, F[i][j-1] - GAP)
 * (Rodinia's maximum(): `if (a <= b) k = b; else k = a; if (k <= c) return c; return
 * k;`), with s = MATCH or MISMATCH (a DNA scoring in the style of EMBOSS's EDNAFULL)
 * and Rodinia's default gap penalty 10.  Cell (i, j) depends on three cells of the two
 * previous anti-diagonals, so the cells of one anti-diagonal d = i + j are independent:
 * the wavefront runs one diagonal after the other, one cell per task, a barrier after
 * each (2n - 1 of them).  As a GPU kernel would, F is stored skewed (diagonal-major:
 * the cells of diagonal d are contiguous, i increasing), so the lanes of a warp read
 * and write consecutive words; row-major, every lane would touch its own line.
 * Thread 0 then traces the optimal alignment back from (n, n) (Rodinia's traceback,
 * serial on the host there).
 *
 * Divergence: the two compares of maximum() per cell (data-dependent), the short
 * diagonals at both ends (most threads idle, waiting at the barrier), the item loops'
 * tails and the serial traceback (one thread while the others have exited).
 * Memory: 16.8 MB of scores at n = 2048, streamed diagonal by diagonal (each diagonal
 * read twice more by the next two), and the two sequences.
 *
 * Input (from wsim_seed()): sequence a uniform over {A, C, G, T} (codes 0..3); b is a
 * mutated copy: b_j = a at j + shift (the shift, -3..3, changes every 64 positions:
 * insertions and deletions), replaced by a random base with probability 1/8.
 * arg: 0 = tiny (n = 40), 1 = small (n = 512), 2 = paper (n = 2048: 004's input, 204 M
 *      thread instructions at 1024 threads, 127 M at 256: the idle threads of the
 *      short diagonals pass 18 instructions and a barrier per diagonal);
 *      >= 3: n = arg (at most 2048).
 * Result: the last row and last column of F (F[n][0..n] then F[0..n][n], the rest 0)
 * and stats {n, score F[n][n], alignment length, matches, mismatches, gaps}.
 * Self-check: every CHECK-th interior cell (about 4096 at most) satisfies the
 * recurrence, read through (i, j) addressing; every traceback step must match one of
 * the three cases exactly, and the step scores along the path must add up to F[n][n].
 */
#include "warpsplit.h"

#define NMAX 2048u
#define MATCH 5
#define MISMATCH (-4)
#define GAP 10
#define CHECK 37u /* self-check: every 37th cell, or ~4096 cells in all */

static int32_t score[(NMAX + 1u) * (NMAX + 1u)]; /* F, diagonal-major */
static uint8_t seq_a[NMAX], seq_b[NMAX];
static int32_t last_row[NMAX + 1u], last_col[NMAX + 1u];
static int32_t stats[6];

WSIM_RESULT(last_row);
WSIM_RESULT(last_col);
WSIM_RESULT(stats);

/* Offset of diagonal d (cells before it) in the skewed layout of an (n+1)^2 matrix. */
static uint32_t diag_base(uint32_t d, uint32_t n) {
    uint32_t m = 2u * n - d + 1u; /* diagonals d .. 2n, with m, m-1, ..., 1 cells */
    return d <= n ? d * (d + 1u) / 2u : (n + 1u) * (n + 1u) - m * (m + 1u) / 2u;
}

/* Index of cell (i, j). */
static uint32_t cell(uint32_t i, uint32_t j, uint32_t n) {
    uint32_t d = i + j;
    return diag_base(d, n) + i - (d > n ? d - n : 0u);
}

/* Rodinia's maximum(). */
static int32_t maximum(int32_t a, int32_t b, int32_t c) {
    int32_t k;
    if (a <= b)
        k = b;
    else
        k = a;
    if (k <= c)
        return c;
    return k;
}

static int32_t similarity(uint32_t i, uint32_t j) {
    return seq_a[i - 1u] == seq_b[j - 1u] ? MATCH : MISMATCH;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg(), seed = wsim_seed();
    uint32_t n, i, d, v0, v1, v2, stride;
    uint32_t sa = wsim_mix32(seed ^ 0x6e77u), sb = wsim_mix32(seed ^ 0x6e77626du);
    int bad = 0;

    if (arg == 0)
        n = 40;
    else if (arg == 1)
        n = 512;
    else if (arg == 2)
        n = 2048;
    else
        n = arg < NMAX ? arg : NMAX;

    /* The sequences: a random; b a shifted, mutated copy of a. */
    for (i = tid; i < n; i += nthreads)
        seq_a[i] = (uint8_t)(wsim_mix32(sa ^ i) >> 30);
    wsim_barrier();
    for (i = tid; i < n; i += nthreads) {
        uint32_t h = wsim_mix32(sb ^ i), shift = wsim_mix32(sb ^ (0x80000000u | i / 64u)) % 7u;
        uint32_t src = i + shift >= 3u && i + shift - 3u < n ? i + shift - 3u : i;
        seq_b[i] = (h & 7u) == 0 ? (uint8_t)(h >> 30) : seq_a[src];
    }
    /* The borders: F[i][0] and F[0][i]. */
    for (i = tid; i <= n; i += nthreads) {
        score[cell(i, 0, n)] = -(int32_t)i * GAP;
        score[cell(0, i, n)] = -(int32_t)i * GAP;
    }
    wsim_roi_begin(); /* the measured phase: the wavefront */

    /* The wavefront: diagonal d = 2 .. 2n, interior cells i = max(1, d-n) .. min(d-1, n).
     * Cell (i, d - i) is at v + i, v = the diagonal's offset minus its first i (0 up to
     * d = n, then d - n); v0, v1, v2: diagonals d, d-1, d-2.  Every thread updates them
     * alike (uniform), with one compare per diagonal: v(d) = v(d-1) + (number of cells of
     * diagonal d-1) + (its first i) - (first i of d). */
    v2 = 0;          /* v(0) */
    v1 = 1;          /* v(1) */
    for (d = 2; d <= 2u * n; d++) {
        uint32_t lo = d > n ? d - n : 1u, hi = d - 1u < n ? d - 1u : n;
        v0 = v1 + (d - 1u < n ? d : 2u * n - d + 1u);
        for (i = lo + tid; i <= hi; i += nthreads) {
            uint32_t j = d - i;
            int32_t up = score[v1 + i - 1u], left = score[v1 + i], diag = score[v2 + i - 1u];
            score[v0 + i] = maximum(diag + similarity(i, j), up - GAP, left - GAP);
        }
        v2 = v1;
        v1 = v0;
        wsim_barrier(); /* the next diagonal reads this one */
    }
    wsim_roi_end();

    /* The results: the last row and column. */
    for (i = tid; i <= n; i += nthreads) {
        last_row[i] = score[cell(n, i, n)];
        last_col[i] = score[cell(i, n, n)];
    }
    /* Self-check: sampled interior cells satisfy the recurrence (at least each
     * candidate, equal to one), with the cells addressed by (i, j) this time. */
    stride = n * n / 4096u > CHECK ? (n * n / 4096u) | 1u : CHECK;
    for (d = tid * stride; d < n * n; d += nthreads * stride) {
        uint32_t ci = 1u + d / n, cj = 1u + d % n;
        int32_t f = score[cell(ci, cj, n)];
        int32_t a = score[cell(ci - 1u, cj - 1u, n)] + similarity(ci, cj);
        int32_t b = score[cell(ci - 1u, cj, n)] - GAP, c = score[cell(ci, cj - 1u, n)] - GAP;
        bad |= f < a || f < b || f < c || (f != a && f != b && f != c);
    }

    /* Traceback (thread 0): back from (n, n), preferring the diagonal, then up. */
    if (tid == 0) {
        uint32_t j = n, len = 0, matches = 0, mismatches = 0, gaps = 0;
        int32_t path = 0;
        i = n;
        while (i > 0 || j > 0) {
            int32_t f = score[cell(i, j, n)];
            if (i > 0 && j > 0 && f == score[cell(i - 1u, j - 1u, n)] + similarity(i, j)) {
                path += similarity(i, j);
                if (seq_a[i - 1u] == seq_b[j - 1u])
                    matches++;
                else
                    mismatches++;
                i--;
                j--;
            } else if (i > 0 && f == score[cell(i - 1u, j, n)] - GAP) {
                path -= GAP;
                gaps++;
                i--;
            } else if (j > 0 && f == score[cell(i, j - 1u, n)] - GAP) {
                path -= GAP;
                gaps++;
                j--;
            } else {
                bad = 1; /* no predecessor explains F[i][j] */
                break;
            }
            len++;
        }
        stats[0] = (int32_t)n;
        stats[1] = score[cell(n, n, n)];
        stats[2] = (int32_t)len;
        stats[3] = (int32_t)matches;
        stats[4] = (int32_t)mismatches;
        stats[5] = (int32_t)gaps;
        bad |= path != stats[1];
    }
    return bad;
}
