/* rt_barrier.c — runtime self-test: barriers, with warps leaving between them.
 *
 * Warp g (threads g*W .. g*W+W-1, W = wsim_width()) takes part in 1 + g % 5 rounds, then
 * its threads exit: exited threads no longer count at the barrier.  Whole warps leave
 * together because a barrier must be reached in convergent code: a warp whose lanes
 * split between the barrier and an exit path deadlocks on a SIMT machine (wpusim
 * reports it).  In round r every live thread writes slot[r][t], waits at the barrier,
 * sums the round-r slots of the WINDOW threads from t on (cyclically; threads that
 * already left wrote nothing: zero), and waits again before the next round.  The sums
 * are deterministic because a barrier releases only when every live thread has arrived;
 * each thread checks its sum against the participation rule.  The dump depends on W.
 */
#include "warpsplit.h"

#define MAXT 1024u
#define ROUNDS 5u
#define WINDOW 16u

static uint32_t slot[ROUNDS][MAXT];
static uint32_t sums[ROUNDS][MAXT];
WSIM_RESULT(slot);
WSIM_RESULT(sums);

int kernel_main(unsigned tid, unsigned nthreads) {
    unsigned r, j, n = nthreads < MAXT ? nthreads : MAXT, width = wsim_width();
    unsigned mine = 1 + (tid / width) % ROUNDS; /* the same for the whole warp */
    int bad = 0;
    for (r = 0; r < mine; r++) {
        uint32_t sum = 0, expect = 0;
        if (tid < MAXT)
            slot[r][tid] = wsim_hash3(wsim_seed(), tid, r) | 1u;
        wsim_barrier();
        for (j = 0; j < WINDOW; j++) {
            unsigned i = (tid + j) % n;
            sum += slot[r][i];
            if (1 + (i / width) % ROUNDS > r) /* thread i is in round r */
                expect += wsim_hash3(wsim_seed(), i, r) | 1u;
        }
        if (tid < MAXT)
            sums[r][tid] = sum;
        if (sum != expect)
            bad = 1;
        wsim_barrier();
    }
    return bad;
}
