/* Main memory (docs/memory.md, "DRAM"): an access latency, a shared data bus
 * of limited bandwidth, and optionally banks with open-row buffers (004
 * Table 1) as a controller drives them.
 *
 * Timestamp model: a request made at cycle t gets its completion cycle at
 * once, from the bus and bank occupancy left by earlier requests.
 *
 * Without banks (dram_banks = 0): every access takes dram_latency and its
 * data then crosses the bus (001 §3.3's "100-cycle access, pipelined").
 *
 * With banks, what the papers state stays as they state it — the row-hit
 * and row-conflict latencies, the bank count, the row size, FCFS — and what
 * they leave out is a real controller's (each a configuration key, each
 * preset saying which it uses):
 *  - the address mapping: a row goes to bank row mod banks (linear); or
 *    that XORed with the row bits just above (xor: permutation-based
 *    interleaving, Zhang et al., MICRO 2000: rows that meet in one cache set
 *    go to different banks); or the row as a polynomial over GF(2) modulo a
 *    primitive one of degree log2(banks) (ipoly: Rau, ISCA 1991, as
 *    GPGPU-Sim's IPOLY hashing), which spreads rows any power of two apart;
 *  - bank occupancy apart from latency: a row hit holds its bank for the
 *    data's burst; a row conflict precharges (tRP, not before tRAS after the
 *    row's activation) and activates (tRCD) first, a closed bank only
 *    activates; the paper's latencies count from the request's first command;
 *  - FCFS: each bank serves its requests in the order they arrive; banks
 *    work in parallel (a request does not wait for one to another bank);
 *  - the data's return: as it is ready (each transfer takes the first bus
 *    capacity free from the cycle its data is there) or in request order.
 * Bandwidth is exact (rate.h). */
#ifndef WSIM_DRAM_H
#define WSIM_DRAM_H

#include <stdint.h>

/* The DRAM's counters: requests, bytes, how rows were found, and the time
 * requests spent from arrival to completion (mean latency = latency_sum /
 * (reads + writes)) and waiting for their first command (queue_sum); with
 * banks, the bank-cycles in which a bank could take no other request
 * (bank_busy: from when a request had the bank to the end of its burst,
 * a tRAS wait included; occupancy = bank_busy / (banks x cycles)). */
#define DRAM_STATS(X) X(reads) X(writes) X(bytes) X(row_hits) X(row_conflicts) X(row_closed) \
                      X(latency_sum) X(queue_sum) X(bank_busy)
typedef struct dram_stats {
#define X(n) uint64_t n;
    DRAM_STATS(X)
#undef X
} dram_stats_t;

#include "calendar.h"

enum { DRAM_MAP_LINEAR, DRAM_MAP_XOR, DRAM_MAP_IPOLY };
enum { DRAM_RETURN_READY, DRAM_RETURN_ORDER };

typedef struct dram_params {
    uint64_t latency;        /* cycles from request to first data without banks */
    uint64_t core_mhz, mbps; /* the bus: bytes/cycle = mbps/core_mhz */
    uint32_t banks, row_size;
    uint64_t row_hit, row_conflict; /* latencies, from the first command */
    uint64_t trcd, trp, tras;       /* activate to column, precharge, activate to precharge */
    int map, ret;                   /* DRAM_MAP_*, DRAM_RETURN_* */
} dram_params_t;

typedef struct dram {
    dram_params_t p;
    rate_t bus;
    uint32_t bank_bits;           /* log2(banks) (xor, ipoly) */
    uint64_t bus_cycle, bus_tick; /* return = order: the data bus is free from bus_cycle + bus_tick/tpc */
    calendar_t cal;               /* return = ready: what each future cycle of the bus carries */
    uint64_t *bank_free;          /* [banks]: first cycle the bank takes its next command */
    uint64_t *act_at;             /* [banks]: when its open row was activated */
    uint32_t *open_row;           /* [banks], ~0 = none open */
    dram_stats_t st;
} dram_t;

int dram_init(dram_t *d, const dram_params_t *p);
void dram_free(dram_t *d);
/* The bank of row `row` under the mapping. */
uint32_t dram_bank(const dram_t *d, uint32_t row);
/* Cycles before now take no more data (return = ready: every request is made at or after now). */
void dram_retire(dram_t *d, uint64_t now);
/* A read or write of `bytes` at addr requested at cycle t: its completion cycle. */
uint64_t dram_access(dram_t *d, uint32_t addr, uint32_t bytes, int write, uint64_t t);

#endif
