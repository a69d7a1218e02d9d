/* A data path of limited bandwidth shared by transfers reserved ahead of
 * time, out of order: the crossbar's data path, and the DRAM data bus when
 * data returns as it is ready (dram_return = ready).
 *
 * Reservations are made at issue, for cycles in the future, not in the
 * order they come up: the calendar keeps what each future cycle carries so
 * far, and a transfer takes the first capacity free from the cycle its data
 * is there. Bandwidth is exact (rate.h): a cycle carries tpc ticks,
 * a byte costs tpb. */
#ifndef WSIM_CALENDAR_H
#define WSIM_CALENDAR_H

#include <stdint.h>

#include "rate.h"

typedef struct calendar {
    rate_t rate;
    uint32_t *used;     /* ticks used in cycle c at [c & (size-1)], base <= c */
    uint64_t size;      /* a power of two: the cycles the calendar holds */
    uint64_t base;      /* first cycle held: earlier ones are past */
    uint64_t full;      /* every cycle in [base, full) is full */
    uint64_t *fullbits; /* bit [c & (size-1)]: cycle c is full (a busy path has runs of
                           full cycles that a transfer's search skips a word at a time) */
} calendar_t;

int calendar_init(calendar_t *k, rate_t rate);
void calendar_free(calendar_t *k);
/* Cycles before now can take no more data (every transfer starts at or
 * after the cycle it is reserved in): drop them. */
void calendar_retire(calendar_t *k, uint64_t now);
/* A transfer of `bytes` (> 0) whose data is there from cycle c (>= the last
 * retire): the cycle it has arrived, the end of the cycle its last byte moves in. */
uint64_t calendar_take(calendar_t *k, uint64_t c, uint32_t bytes);

#endif
