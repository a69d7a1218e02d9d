/* rt_grid.c — runtime self-test: the grid's metadata registers and warp shuffles
 * (docs/irregular.md).
 *
 * Every thread (tid < MAXT) records what it sees of its warp: wid, wtid, ntids, nwarps,
 * and what the shuffles give it: down 1, up 2, xor 1, idx 0 of a value of its own, and
 * the warp's sum by a logarithmic shfl_down reduction (003 Fig. 1's, in convergent
 * form).  The record is indexed by the global thread id, so the dump does not depend on
 * how the warps were packed into partitions, in which order, or on the re-convergence:
 * compare any simulator run with a host run of the same grid (--width, --warp-sizes).
 * Exit code 1 when the registers disagree: wtid >= ntids, wid >= nwarps, or thread 0
 * of the warp (shfl_idx 0) not being tid - wtid (a warp's threads are consecutive in
 * the grid's order).
 */
#include "warpsplit.h"

#define MAXT 4096u

static uint32_t rec[MAXT][10];
WSIM_RESULT(rec);

int kernel_main(unsigned tid, unsigned nthreads) {
    unsigned wid = wsim_wid(), t = wsim_wtid(), n = wsim_ntids(), m = wsim_nwarps();
    unsigned v = tid * 2654435761u + 12345u;
    unsigned first = wsim_shfl_idx(tid, 0);
    unsigned down = wsim_shfl_down(v, 1), up = wsim_shfl_up(v, 2), x = wsim_shfl_xor(v, 1);
    float res = (float)(tid % 97) * 0.25f + 1.0f;
    unsigned s;
    int bad = 0;

    for (s = 1; s < n; s *= 2) {
        float o = wsim_shfl_down_f(res, s);
        if (t + s < n)
            res += o;
    }
    if (t >= n || wid >= m || first != tid - t || nthreads != wsim_nthreads())
        bad = 1;
    if (tid < MAXT) {
        union { float f; uint32_t u; } r;
        r.f = res;
        rec[tid][0] = wid;
        rec[tid][1] = t;
        rec[tid][2] = n;
        rec[tid][3] = m;
        rec[tid][4] = first;
        rec[tid][5] = down;
        rec[tid][6] = up;
        rec[tid][7] = x;
        rec[tid][8] = t == 0 ? r.u : 0; /* the warp's sum, in thread 0 */
        rec[tid][9] = bad;
    }
    return bad;
}
