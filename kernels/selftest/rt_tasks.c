/* rt_tasks.c — runtime self-test: the task mapping of WSIM_FOR (kernels/runtime/tasks.h).
 *
 * Built as the tasks build (WSIM_TASKS defined here), so the mapping comes from
 * wsim_task() (`--task T`).  Three loops record which thread ran each item and how often:
 *   owner_a[i], count_a[i]  for WSIM_FOR(i, 0, 20)
 *   owner_b[i-5], count_b[] for WSIM_FOR(i, 5, 15)   (a loop from lo > 0, as LU's)
 *   empty[tid]              iterations of WSIM_FOR(i, 7, 7) (must stay 0)
 * Unlike the benchmark kernels, the dump DOES depend on the mapping and the thread count:
 * tests/run.sh (group tasks) runs it with 8 threads and compares with values worked out
 * by hand there.  Exit code 1 if an item ran other than once.
 */
#define WSIM_TASKS 1
#include "tasks.h"

#define NA 20u
#define NB 10u
#define MAXT 64u

static uint32_t owner_a[NA];
static uint32_t count_a[NA];
static uint32_t owner_b[NB];
static uint32_t count_b[NB];
static uint32_t empty[MAXT];
WSIM_RESULT(owner_a);
WSIM_RESULT(count_a);
WSIM_RESULT(owner_b);
WSIM_RESULT(count_b);
WSIM_RESULT(empty);

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t i, e = 0;
    int bad = 0;

    WSIM_FOR(i, 0, NA) {
        owner_a[i] = tid;
        count_a[i]++;
    }
    WSIM_FOR(i, 5, 5 + NB) {
        owner_b[i - 5] = tid;
        count_b[i - 5]++;
    }
    WSIM_FOR(i, 7, 7) {
        e++;
    }
    if (tid < MAXT)
        empty[tid] = e;
    wsim_barrier();
    for (i = 0; i < NA; i++)
        bad |= count_a[i] != 1u;
    for (i = 0; i < NB; i++)
        bad |= count_b[i] != 1u;
    return bad;
}
