/* Bandwidth as an exact ratio (dram.h, calendar.h): a cycle is `tpc` ticks
 * and a byte costs `tpb` ticks, tpc / tpb = bytes per cycle = mbps / mhz
 * reduced by their gcd (57 GB/s at 1 GHz: 57 ticks a cycle, 1 a byte). A
 * path's occupancy is kept to the tick; only a completion rounds up, to the
 * end of the cycle in which its last byte moves. */
#ifndef WSIM_RATE_H
#define WSIM_RATE_H

#include <stdint.h>

typedef struct rate {
    uint64_t tpc, tpb;
} rate_t;

static inline rate_t rate_of(uint64_t mbps, uint64_t mhz)
{
    /* mbps / mhz bytes a cycle: a cycle is mbps/g ticks, a byte mhz/g */
    uint64_t a = mbps, b = mhz;
    while (b) {
        uint64_t r = a % b;
        a = b, b = r;
    }
    return (rate_t){mbps / a, mhz / a};
}
/* Ticks that `bytes` occupy a path of rate r. */
static inline uint64_t rate_ticks(rate_t r, uint32_t bytes) { return (uint64_t)bytes * r.tpb; }
/* Whole cycles `bytes` occupy a path of rate r from a cycle boundary (rounded up). */
static inline uint64_t rate_cycles(rate_t r, uint32_t bytes) { return (rate_ticks(r, bytes) + r.tpc - 1) / r.tpc; }

#endif
