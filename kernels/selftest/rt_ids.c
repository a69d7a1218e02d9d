/* rt_ids.c — runtime self-test: launch registers and WarpSplit CSRs.
 *
 * Every thread (tid < MAXT) records what it sees: tid, nthreads, lane, warp slot, WPU,
 * width, warps, WPUs, seed and arg.  Unlike the benchmark kernels, this dump DOES depend
 * on the layout (--width/--wpus/--warps): compare a simulator run with a host run of the
 * same layout (with enough warp slots for all warps: with fewer, the simulator assigns
 * slots dynamically).  Exit code 1 if a0/a1 disagree with mhartid/wsim.nthreads, or the
 * values are inconsistent with docs/abi.md.  Odd threads end with wsim_exit(), even
 * threads return from kernel_main.
 */
#include "warpsplit.h"

#define MAXT 4096u

static uint32_t ids[MAXT][10];
WSIM_RESULT(ids);

int kernel_main(unsigned tid, unsigned nthreads) {
    unsigned width = wsim_width(), wpus = wsim_wpus(), warps = wsim_warps();
    unsigned g = tid / width; /* global warp */
    int bad = 0;

    if (tid != wsim_tid() || nthreads != wsim_nthreads() || tid >= nthreads)
        bad = 1;
    if (wsim_lane() != tid % width || wsim_wpu() != g % wpus || wsim_warp() >= warps)
        bad = 1;
    if (g / wpus < warps && wsim_warp() != g / wpus) /* a warp launched at the start */
        bad = 1;
    if (tid < MAXT) {
        ids[tid][0] = tid;
        ids[tid][1] = nthreads;
        ids[tid][2] = wsim_lane();
        ids[tid][3] = wsim_warp();
        ids[tid][4] = wsim_wpu();
        ids[tid][5] = width;
        ids[tid][6] = warps;
        ids[tid][7] = wpus;
        ids[tid][8] = wsim_seed();
        ids[tid][9] = wsim_arg();
    }
    if (tid & 1)
        wsim_exit(bad); /* odd threads leave through the exit ecall, even ones return */
    return bad;
}
