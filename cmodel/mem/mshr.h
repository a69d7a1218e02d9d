/* Miss status holding registers: a table of {line, fill} of one cache (an
 * L1 D, an L1 I, the shared L2). An entry is busy until its fill; a miss
 * takes a free one, or waits for the one that frees first. Header-only: the
 * allocation is on every miss of the access path. */
#ifndef WSIM_MEM_MSHR_H
#define WSIM_MEM_MSHR_H

#include <stdint.h>

/* One pending miss: a line and the cycle its data arrives. */
typedef struct mshr {
    uint32_t line;
    uint32_t reqs; /* the threads waiting for it (l1d_mshr_reqs, l2_mshr_reqs: at most) */
    uint64_t fill;
} mshr_t;

/* A free MSHR of t[0..n) at cycle `at` (searched round-robin from *next),
 * or the one that frees first when all are busy. */
static inline mshr_t *mshr_alloc(mshr_t *t, int n, int *next, uint64_t at)
{
    for (int i = 0, k = *next; i < n; i++, k = k + 1 == n ? 0 : k + 1)
        if (t[k].fill <= at) {
            *next = k + 1 == n ? 0 : k + 1;
            return &t[k];
        }
    mshr_t *e = &t[0];
    for (int i = 1; i < n; i++)
        if (t[i].fill < e->fill) e = &t[i];
    return e;
}

#endif
