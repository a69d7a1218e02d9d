/* Main memory: fixed access latency, a shared data bus of limited bandwidth,
 * pipelined requests served first come first served; optionally banks with
 * open-row buffers (seed 004 Table 1).
 *
 * Timestamp model: a request made at cycle t gets its completion cycle at
 * once, from the bus and bank occupancy left by earlier requests. */
#ifndef WSIM_DRAM_H
#define WSIM_DRAM_H

#include <stdint.h>

typedef struct dram_stats {
    uint64_t reads, writes, bytes, row_hits, row_conflicts;
} dram_stats_t;

typedef struct dram {
    uint64_t latency;        /* cycles from request to first data without banks */
    uint64_t mhz, mbps;      /* core clock and bus bandwidth: bytes/cycle = mbps/mhz */
    uint32_t banks, row_size;
    uint64_t row_hit, row_conflict;
    uint64_t bus_free;       /* first cycle the data bus is free */
    uint64_t *bank_free;     /* [banks] */
    uint32_t *open_row;      /* [banks], ~0 = none open */
    dram_stats_t st;
} dram_t;

int dram_init(dram_t *d, uint64_t latency, uint64_t core_mhz, uint64_t mbps, uint32_t banks,
              uint32_t row_size, uint64_t row_hit, uint64_t row_conflict);
void dram_free(dram_t *d);
/* Cycles the bus needs to move `bytes`. */
uint64_t dram_transfer_cycles(const dram_t *d, uint32_t bytes);
/* A read or write of `bytes` at addr requested at cycle t: its completion cycle. */
uint64_t dram_access(dram_t *d, uint32_t addr, uint32_t bytes, int write, uint64_t t);

#endif
