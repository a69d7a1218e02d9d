/* The MESI directory of the shared inclusive L2 (memory = coherent; 001
 * Table 3, 000 Table 3): per L2 line slot, the WPUs whose L1 D holds part
 * of the line. A writer's request invalidates the other copies, a reader's
 * downgrades an owner to shared; each costs a crossbar round trip, the
 * messages going out in parallel. */
#ifndef WSIM_MEM_DIRECTORY_H
#define WSIM_MEM_DIRECTORY_H

#include <stdint.h>

#include "cache.h"
#include "l1.h"

typedef struct directory {
    uint64_t *sharers;     /* per L2 line slot: WPUs holding the line in their L1 D */
    cache_t *l2;           /* the L2's tags: a line's slot is its entry */
    l1_t *l1d;             /* [WPUs]: the L1 Ds it keeps coherent */
    uint64_t xbar_latency; /* an invalidation or downgrade takes twice this */
} directory_t;

int directory_init(directory_t *d, cache_t *l2, l1_t *l1d, uint64_t xbar_latency);
void directory_free(directory_t *d);

/* A request of WPU w for L2 line l (present in the L2), exclusive or not:
 * returns the extra latency and the state the requester gets. */
uint64_t directory_request(directory_t *d, int w, cache_line_t *l, int excl, uint8_t *grant);
/* The L2 line in slot l was evicted for another (inclusive: the L1 copies
 * of `victim` go too) and the slot's entry is the new line's, empty.
 * Returns whether any L1 copy was dirty. */
int directory_replace(directory_t *d, const cache_line_t *l, uint32_t victim);
/* The new line in slot l has no sharers (no line was evicted for it). */
static inline void directory_clear(directory_t *d, const cache_line_t *l) { d->sharers[l - d->l2->l] = 0; }
/* WPU w's L1 D evicted line addr: it leaves the sharers of its L2 line
 * unless another of its lines in that L2 line remains. */
void directory_l1_evicted(directory_t *d, int w, uint32_t addr);

#endif
