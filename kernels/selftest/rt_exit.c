/* rt_exit.c — runtime self-test: the ways a thread ends.
 *
 * Thread t ends, by t % 4: 0 returning from kernel_main, 1 calling wsim_exit(0) at
 * recursion depth t % 7, 2 calling wsim_exit(0) from inside a loop, 3 returning from a
 * nested call's early exit path.  Every thread writes its marker (which way it ended)
 * before ending.  With --arg K (K >= 1), thread K - 1 instead exits with code 3 from
 * recursion depth 5: the run must then fail (exit status 1) and report exactly that
 * thread.  (Exiting before a barrier is in rt_barrier.)
 */
#include "warpsplit.h"

#define MAXT 4096u

static uint32_t marker[MAXT];
WSIM_RESULT(marker);

static int descend(unsigned depth, unsigned tid, int code) {
    if (depth > 64) /* not taken; without it the recursion never returns */
        return 0;
    if (depth == 0) {
        if (tid < MAXT)
            marker[tid] = 0x100u + tid;
        wsim_exit(code);
    }
    return descend(depth - 1, tid, code) + 1;
}

static int early(unsigned tid) {
    if (tid % 8 == 3) {
        marker[tid] = 0x300u + tid;
        return 0; /* early return */
    }
    marker[tid] = 0x380u + tid;
    return 0;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    unsigned k;
    (void)nthreads;
    if (wsim_arg() != 0 && tid == wsim_arg() - 1)
        return descend(5, tid, 3);
    if (tid >= MAXT)
        return 0;
    switch (tid % 4) {
    case 1:
        return descend(tid % 7, tid, 0) - 1000; /* never returns */
    case 2:
        for (k = 0;; k++) {
            if (k == tid % 5) {
                marker[tid] = 0x200u + tid;
                wsim_exit(0);
            }
        }
    case 3:
        return early(tid);
    default:
        break;
    }
    marker[tid] = 0x400u + tid;
    return 0;
}
