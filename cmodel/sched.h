/* Warp scheduler of one WPU: picks the SIMD group that issues this cycle.
 *
 * Narrow interface so that DWS, two-level and other policies plug in: the
 * scheduler sees which slots can issue now and answers with one of them. */
#ifndef WSIM_SCHED_H
#define WSIM_SCHED_H

#include <stdint.h>

typedef struct sched {
    int policy; /* config scheduler index: 0 = rr */
    int nslots;
    int last;   /* slot that issued last */
    int stay;   /* it keeps the pipeline while it is ready (switch_on: no cache access yet) */
} sched_t;

void sched_init(sched_t *s, int policy, int nslots);
/* avail[k]: the first cycle slot k can issue (UINT64_MAX: not now, e.g. empty
 * or at a barrier). Returns a slot that can issue at cycle now, or -1. */
int sched_pick(sched_t *s, const uint64_t *avail, uint64_t now);
/* The same among the slots with the lowest key[k] (priorities: boost, SWF). */
int sched_pick_prio(sched_t *s, const uint64_t *avail, const uint32_t *key, uint64_t now);

#endif
