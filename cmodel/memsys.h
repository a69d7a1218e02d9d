/* The memory hierarchy's timing: per-WPU banked L1 D-caches with MSHRs,
 * per-WPU I-caches, and either a shared inclusive L2 with a MESI directory
 * (memory = coherent; 001 Table 3, 000 Table 3), or L1s that talk straight
 * to memory and are flushed at global barriers (memory = bulksync; 000
 * Table 4), or L1s that talk straight to memory and are never flushed
 * (memory = private: 002 §7.2's trace-driven caches, 004 Table 1's one
 * core), through a crossbar, to DRAM.
 *
 * Each structure is a file pair under cmodel/mem/: l1 (an L1's tags, banks,
 * MSHRs and its line of warps waiting for one), mshr, xbar (the crossbar),
 * l2 (the shared L2 or the private ones), directory (the L2's sharer sets),
 * bulksync (the L1s' own copies of data), private_mem (004's stacks), dram;
 * cache (tag arrays) and calendar (a data path's future cycles) under them.
 * This file composes them: the access path, the I-fetch, the barrier flush
 * and the statistics.
 *
 * Functional-first: data lives in one memory and every access takes effect
 * at issue; this module only decides when each lane's access completes, with
 * a timestamp model — each request reserves the banks, MSHRs, crossbar and
 * DRAM bus it uses, in issue order, and gets its completion cycle at once.
 * Each of these remembers the first cycle it is free, except the crossbar's
 * data path: replies from the L2 and from memory come up at very different
 * times, so it keeps a calendar of what each future cycle carries and a
 * transfer takes the first capacity free from the cycle its data is there. */
#ifndef WSIM_MEMSYS_H
#define WSIM_MEMSYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mask.h"
#include "mem.h"
#include "mem/dram.h"
#include "mem/directory.h"
#include "mem/l1.h"
#include "mem/l2.h"
#include "mem/private_mem.h"
#include "mem/xbar.h"
#include "wsim.h"

/* The hierarchy, composed of its structures (cmodel/mem/). */
typedef struct memsys {
    enum cfg_memory mode; /* config "memory" */
    int nwpus, width;
    uint32_t l1d_banks;
    int serial_miss;    /* l1d_serial_miss: an L1 D sends one request a cycle */
    uint64_t l1d_latency, l1i_latency, fixed_latency;
    uint32_t l1d_mshr_reqs;
    xbar_t xbar;
    l1_t *l1d, *l1i;    /* [nwpus]; l1i tags unused when l1i_size = 0 */
    int icache;
    int flush_at_barrier;
    mem_t *mem; /* the one memory; bulksync L1s hold their own copies of lines */
    l2_t l2;
    directory_t dir;    /* coherent: the shared L2's */
    dram_t dram;
    uint64_t flushes, flush_cycles;
    private_mem_t priv; /* private_mem: the thread stacks */
    /* scratch for one SIMD access */
    uint32_t uline[WSIM_MAX_LANES];
    uint64_t uready[WSIM_MAX_LANES];
    uint8_t uhit[WSIM_MAX_LANES];
    int lane_u[WSIM_MAX_LANES];
    /* coalescing's index of uline: slot (line / line size) % 64 names the unit
     * (+1) that claimed it in access number co_gen[slot] (lanes on distinct
     * lines, as in chunked kernels, would otherwise search uline each) */
    uint32_t co_gen[64];
    uint16_t co_unit[64];
    uint32_t co_now;
} memsys_t;

/* Whether addr is in the private memory (private_mem: the thread stacks). */
static inline int memsys_private(const memsys_t *m, uint32_t addr) { return private_mem_has(&m->priv, addr); }

/* What one SIMD load or store got. */
typedef struct mem_result {
    uint64_t ready;   /* cycle the last lane's access completes */
    uint64_t hit_ready; /* cycle the last hitting lane's access completes */
    wmask_t hit;      /* lanes whose line was in the L1 */
    wmask_t miss;     /* lanes that missed (including merges into pending misses) */
    /* per lane: its access's unit (lane_u) and each unit's completion
     * (uready); read with mem_lane_ready, valid until the next access */
    const uint64_t *uready;
    const int *lane_u;
} mem_result_t;

/* The cycle lane's access completes (its line's, or its hit's). */
static inline uint64_t mem_lane_ready(const mem_result_t *r, int lane) { return r->uready[r->lane_u[lane]]; }

int memsys_init(memsys_t *m, const wsim_config_t *c, mem_t *mem, char *err, size_t errlen);
void memsys_free(memsys_t *m);

/* Whether a SIMD load/store of warp `warp` (its global number) on WPU wpu
 * must wait before it can issue at cycle now: 1 when one of its lines would
 * need a new MSHR and every MSHR is busy (*retry = the cycle one frees), or
 * another warp was refused first and has not had its MSHR yet (*retry = the
 * next cycle): MSHRs go to the warps that asked for them in the order they
 * asked, as a miss queue takes them, so that no warp is starved of them.
 * A warp let through keeps its turn for the rest of the cycle (LWM checks a
 * large warp again when its picker takes it: without this, two warps that
 * left the head of the line by turns refused each other for ever). */
int memsys_must_wait(memsys_t *m, int wpu, uint64_t now, const uint32_t *addr, wmask_t lanes, int store, int warp,
                     uint64_t *retry);
/* One SIMD load/store of WPU wpu issued at now: per-lane addresses in addr. */
void memsys_access(memsys_t *m, int wpu, uint64_t now, const uint32_t *addr, wmask_t lanes, int store,
                   mem_result_t *r);
/* What one SIMD group's last I-cache miss is bringing: the line goes to the
 * group when it arrives, even if other misses evict it from the cache before
 * the group is scheduled again (no fetch livelock). */
typedef struct ifetch_slot {
    uint32_t line; /* line | 1, or 0 */
    uint64_t ready;
    /* the group's last hit: still there while the I-cache took no new line */
    cache_line_t *hit;
    uint32_t hit_line;
    uint64_t hit_epoch;
} ifetch_slot_t;

/* Instruction fetch of pc by a group of WPU wpu at now: the cycle the
 * instruction is available (now on a hit). */
uint64_t memsys_ifetch(memsys_t *m, int wpu, uint32_t pc, uint64_t now, ifetch_slot_t *slot);
/* Global barrier under bulksync: every L1 D writes back its dirty lines and
 * invalidates everything. Returns the cycle the flush is done. */
uint64_t memsys_barrier_flush(memsys_t *m, uint64_t now);

/* Functional data path. Under bulksync the L1 D of each WPU holds its own
 * copy of its lines: loads read it, stores write it, and other WPUs see the
 * bytes only after a write-back (eviction or barrier flush). Otherwise these
 * are the one memory. Call after memsys_access for the same instruction. */
uint32_t memsys_read(memsys_t *m, int wpu, uint32_t addr, int size);
void memsys_write(memsys_t *m, int wpu, uint32_t addr, uint32_t v, int size);
/* Write back every dirty byte to memory, keeping the lines (end of run). */
void memsys_drain(memsys_t *m);
static inline int memsys_private_data(const memsys_t *m) { return m->l1d && m->l1d[0].data != NULL; }

void memsys_print_stats(const memsys_t *m, FILE *out, int json);
/* The bytes the machine moved to and from DRAM so far (its traffic). */
static inline uint64_t memsys_dram_bytes(const memsys_t *m) { return m->dram.st.bytes; }

/* A counter visitor: p[0..n) are uint64_t counters (roi.c takes and swaps
 * them for the region of interest's statistics). */
typedef void counter_visit_fn(void *ctx, uint64_t *p, size_t n);
/* Every counter of the memory system, in a fixed order. */
void memsys_counters(memsys_t *m, counter_visit_fn *f, void *ctx);

#endif
