/* spmv.c — sparse matrix-vector product b = A x, one warp per CSR row (003 Fig. 1).
 *
 * The kernel declares its own irregular grid: one warp per row of the input matrix
 * (WSIM_GRID_ROWS over the row offsets), as many threads as the row's nonzeros — at
 * least 1, at most the machine's warp size. Each thread multiplies its nonzero by x
 * (a thread per nonzero: 003's a_val * x[col]), striding by the warp's size over a row
 * longer than the warp; the warp's products are summed by a logarithmic reduction with
 * shuffles (003 Fig. 1, lines 8-12), and thread 0 writes b[wid].
 *
 * 003's reduction is `if (tid + s < ntids) res += shuffle_down(res, s)`; here the
 * shuffle is called by every thread and only the add is conditional (CUDA's
 * __shfl_down_sync form), which computes the same sums and keeps the host build a
 * reference (docs/irregular.md). The input (`wpusim --input matrix=FILE`) is
 * scripts/mtx.py's format: tag 'WCSR', nrows, ncols, nnz, row_ptr[nrows + 1],
 * col[nnz], val[nnz], x[ncols]. A column index outside x, or a row past the result
 * array, ends the thread with exit code 3 (after the reduction, which every thread of
 * the warp must reach). Results depend on the warp size only where a row is longer
 * than it (the order of the additions).
 */
#include "warpsplit.h"

#define TAG 0x52534357u    /* 'WCSR' */
#define MAXW (2u << 20)    /* words of row_ptr, col, val and x: 8 MB, in .bss */
#define MAXROWS (1u << 18) /* rows of b */

static struct {
    uint32_t tag, nrows, ncols, nnz;
    uint32_t data[MAXW];
} matrix;
WSIM_INPUT("matrix", matrix, TAG);
WSIM_GRID_ROWS(matrix.data, matrix.nrows);

static float b[MAXROWS];
WSIM_RESULT(b);

int kernel_main(unsigned gtid, unsigned nthreads) {
    const unsigned wid = wsim_wid(), t = wsim_wtid(), n = wsim_ntids();
    const uint32_t nrows = matrix.nrows, ncols = matrix.ncols, nnz = matrix.nnz;
    const uint32_t *row = matrix.data, *col = row + nrows + 1;
    const float *val = (const float *)(col + nnz), *x = val + nnz;
    const uint32_t lo = row[wid], hi = row[wid + 1];
    float res = 0.0f;
    unsigned s;
    int bad = wid >= MAXROWS;
    (void)gtid, (void)nthreads;

    for (uint32_t k = lo + t; k < hi; k += n) {
        const uint32_t c = col[k];
        if (c < ncols)
            res += val[k] * x[c];
        else
            bad = 3;
    }
    for (s = 1; s < n; s *= 2) {
        const float o = wsim_shfl_down_f(res, s);
        if (t + s < n)
            res += o;
    }
    if (t == 0 && !bad)
        b[wid] = res;
    return bad ? 3 : 0;
}
