/* The crossbar between the L1s and the next level: a latency and one shared
 * data path of limited bandwidth (bytes/cycle = xbar_mbps/core_mhz), a
 * calendar of what each future cycle carries (calendar.h): replies from the
 * L2 and from memory come up at very different times, so a transfer takes
 * the first capacity free from the cycle its data is there. */
#ifndef WSIM_MEM_XBAR_H
#define WSIM_MEM_XBAR_H

#include <stdint.h>

#include "calendar.h"

typedef struct xbar {
    calendar_t data;  /* the data path */
    uint64_t latency; /* cycles a message takes before its data moves */
} xbar_t;

int xbar_init(xbar_t *x, uint64_t latency, rate_t rate);
void xbar_free(xbar_t *x);

/* A message leaving at cycle t, carrying `bytes` of data (0: a request): the
 * cycle it has arrived. Its data moves from cycle t + latency on, in
 * whatever capacity each cycle has left, and has arrived at the end of the
 * cycle its last byte moves in. */
static inline uint64_t xbar_send(xbar_t *x, uint64_t t, uint32_t bytes)
{
    uint64_t c = t + x->latency;
    return bytes ? calendar_take(&x->data, c, bytes) : c;
}

/* Forget the cycles before now (nothing can be reserved there any more). */
static inline void xbar_retire(xbar_t *x, uint64_t now) { calendar_retire(&x->data, now); }

#endif
