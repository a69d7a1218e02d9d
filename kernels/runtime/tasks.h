/* tasks.h — the task mapping of a kernel's data-parallel loops (docs/tasks.md).
 *
 * A suite kernel writes each data-parallel loop as
 *
 *     WSIM_FOR(i, lo, hi) body
 *
 * in a function whose parameters are named tid and nthreads: every item i in [lo, hi) is
 * run once, by one thread, and the items are independent (a barrier separates phases), so
 * which thread runs which item changes timing only, never a result.
 *
 * Two builds of the same source:
 *   - the default build (build/kernels/NAME.elf): WSIM_FOR is the plain
 *     `for (i = lo + tid; i < hi; i += nthreads)` the kernels had before this header,
 *     one item per task, neighbouring items on neighbouring threads; the ELF is byte for
 *     byte the one without the header (tests/run.sh, group tasks);
 *   - the tasks build (-DWSIM_TASKS: build/kernels/tasks/NAME.elf, build/host/tasks/NAME):
 *     the mapping is read at run time from wsim_task() (`--task T`, CSR wsim.task):
 *       T = 0       one item per task, dealt cyclically (as the default build);
 *       T = 1       one contiguous chunk of ceil(n / nthreads) items per thread
 *                   (OpenMP `schedule(static)`);
 *       T = K >= 2  tiles of K consecutive items, dealt cyclically
 *                   (OpenMP `schedule(static, K)`), at most n items per tile.
 *     A kernel may also change its data layout in this build (Filter: 4-byte pixels); it
 *     says so in its header comment.
 */
#ifndef WARPSPLIT_TASKS_H
#define WARPSPLIT_TASKS_H

#include "warpsplit.h"

#ifndef WSIM_TASKS

#define WSIM_FOR(i, lo, hi) for (i = (lo) + tid; i < (hi); i += nthreads)

#else

/* Items per task for a loop of n items on nthreads threads under mapping t. */
WSIM_INLINE uint32_t wsim_task_size(uint32_t t, uint32_t n, uint32_t nthreads) {
    if (t == 0u)
        return 1u;
    if (t == 1u)
        return (n + nthreads - 1u) / nthreads; /* 0 for an empty loop: it is not entered */
    return t < n ? t : n; /* keeps tid * K within n * nthreads: no overflow */
}

/* Task b runs items [b, b + K) ∩ [lo, hi); thread tid runs tasks lo + tid*K,
 * lo + (tid + nthreads)*K, ...  The outer test is the inner one's first, so K = 0 (an
 * empty loop) never enters. */
#define WSIM_FOR(i, lo, hi)                                                                  \
    for (uint32_t wsim_n_ = (hi) > (lo) ? (uint32_t)((hi) - (lo)) : 0u,                      \
                  wsim_k_ = wsim_task_size(wsim_task(), wsim_n_, nthreads),                  \
                  wsim_b_ = (lo) + tid * wsim_k_;                                            \
         wsim_b_ < (hi); wsim_b_ += nthreads * wsim_k_)                                      \
        for (i = wsim_b_; i < (hi) && i - wsim_b_ < wsim_k_; i++)

#endif /* WSIM_TASKS */

#endif /* WARPSPLIT_TASKS_H */
