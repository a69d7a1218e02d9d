/* Main memory: fixed access latency, a shared data bus of limited bandwidth,
 * pipelined requests served first come first served; optionally banks with
 * open-row buffers (seed 004 Table 1).
 *
 * Timestamp model: a request made at cycle t gets its completion cycle at
 * once, from the bus and bank occupancy left by earlier requests.
 *
 * Bandwidth is exact: a cycle is `tpc` ticks and a byte costs `tpb` ticks,
 * tpc / tpb = bytes per cycle = mbps / mhz reduced by their gcd (57 GB/s at
 * 1 GHz: 57 ticks a cycle, 1 a byte). A path's occupancy is kept to the
 * tick; only a completion rounds up, to the end of the cycle in which its
 * last byte moves. */
#ifndef WSIM_DRAM_H
#define WSIM_DRAM_H

#include <stdint.h>

typedef struct dram_stats {
    uint64_t reads, writes, bytes, row_hits, row_conflicts;
} dram_stats_t;

/* Bytes per cycle as a ratio: tpc ticks a cycle, tpb ticks a byte. */
typedef struct rate {
    uint64_t tpc, tpb;
} rate_t;

rate_t rate_of(uint64_t mbps, uint64_t mhz);
/* Ticks that `bytes` occupy a path of rate r. */
static inline uint64_t rate_ticks(rate_t r, uint32_t bytes) { return (uint64_t)bytes * r.tpb; }
/* Whole cycles `bytes` occupy a path of rate r from a cycle boundary (rounded up). */
static inline uint64_t rate_cycles(rate_t r, uint32_t bytes) { return (rate_ticks(r, bytes) + r.tpc - 1) / r.tpc; }

typedef struct dram {
    uint64_t latency;        /* cycles from request to first data without banks */
    rate_t bus;              /* bus bandwidth: bytes/cycle = mbps/mhz */
    uint32_t banks, row_size;
    uint64_t row_hit, row_conflict;
    uint64_t bus_cycle, bus_tick; /* the data bus is free from bus_cycle + bus_tick/tpc */
    uint64_t *bank_free;     /* [banks] */
    uint32_t *open_row;      /* [banks], ~0 = none open */
    dram_stats_t st;
} dram_t;

int dram_init(dram_t *d, uint64_t latency, uint64_t core_mhz, uint64_t mbps, uint32_t banks,
              uint32_t row_size, uint64_t row_hit, uint64_t row_conflict);
void dram_free(dram_t *d);
/* A read or write of `bytes` at addr requested at cycle t: its completion cycle. */
uint64_t dram_access(dram_t *d, uint32_t addr, uint32_t bytes, int write, uint64_t t);

#endif
