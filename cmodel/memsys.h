/* The memory hierarchy's timing: per-WPU banked L1 D-caches with MSHRs,
 * per-WPU I-caches, and either a shared inclusive L2 with a MESI directory
 * (memory = coherent; 001 Table 3, 000 Table 3), or L1s that talk straight
 * to memory and are flushed at global barriers (memory = bulksync; 000
 * Table 4), or L1s that talk straight to memory and are never flushed
 * (memory = private: 002 §7.2's trace-driven caches, 004 Table 1's one
 * core), through a crossbar, to DRAM (dram.h).
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

#include "cache.h"
#include "calendar.h"
#include "dram.h"
#include "mask.h"
#include "mem.h"
#include "wsim.h"

/* Counters of one cache (L1 D, L1 I or L2). */
#define MEMSYS_CACHE_STATS(X) \
    X(accesses)      /* line accesses (coalesced requests) */ \
    X(hits)                                                    \
    X(misses)                                                  \
    X(mshr_merges)   /* misses merged into a pending MSHR */   \
    X(mshr_full)     /* requests that waited for a free MSHR */ \
    X(bank_conflicts) /* requests queued behind another in their bank */ \
    X(port_waits)    /* requests to the next level queued behind another (l1d_serial_miss) */ \
    X(writebacks)    /* dirty lines written back */            \
    X(invalidations) /* lines invalidated by coherence or flush */ \
    X(downgrades)    /* M/E lines downgraded to S for a reader */ \
    X(back_invalidations) /* L1 copies dropped when the L2 evicted the line */

typedef struct cache_stats {
#define X(n) uint64_t n;
    MEMSYS_CACHE_STATS(X)
#undef X
} cache_stats_t;

/* One pending miss: a line and the cycle its data arrives. */
typedef struct mshr {
    uint32_t line;
    uint32_t reqs;
    uint64_t fill;
} mshr_t;

typedef struct l1 {
    cache_t tags;
    uint8_t *data;  /* bulksync: the line contents, by tag slot */
    uint8_t *dirty; /* bulksync: one flag per byte written since the fill */
    mshr_t *mshr;
    int nmshr;
    uint64_t *bank_free; /* per bank: first cycle it can take the next request */
    uint64_t port_free;  /* l1d_serial_miss: first cycle a request can leave for the next level */
    int next_mshr;       /* where the search for a free MSHR starts */
    int *mshr_line;      /* the warps refused an MSHR, in the order they asked, until they get one */
    int mshr_waiting;    /* how many (at most mshr_line_cap: the WPU's warp slots) */
    int mshr_line_cap;
    int mshr_granted;             /* the warp last let through the line, ... */
    uint64_t mshr_granted_at;     /* ... and when: it keeps its turn for the rest of that cycle */
    uint32_t last_line;  /* I-cache: the line fetched last (MRU of its set) */
    uint64_t epoch;      /* I-cache: lines inserted so far */
    uint64_t last_ready; /* and when its data is there; ~0 = none */
    cache_stats_t st;
} l1_t;

typedef struct memsys {
    int mode;  /* CFG_MEMORY_* (config "memory") */
    int nwpus, width;
    uint32_t l1d_banks;
    int serial_miss;    /* l1d_serial_miss: an L1 D sends one request a cycle */
    uint64_t l1d_latency, l1i_latency, l2_latency, xbar_latency, fixed_latency;
    uint32_t l1d_mshr_reqs, l2_mshr_reqs;
    /* the crossbar's data path: bytes/cycle = xbar_mbps/core_mhz, a calendar
     * of what each future cycle carries (calendar.h) */
    calendar_t xbar;
    l1_t *l1d, *l1i;    /* [nwpus]; l1i tags unused when l1i_size = 0 */
    int icache;
    int flush_at_barrier;
    mem_t *mem; /* the one memory; bulksync L1s hold their own copies of lines */
    /* shared L2 and its directory (coherent) */
    cache_t l2;
    mshr_t *l2_mshr;
    int l2_nmshr, l2_next_mshr;
    uint32_t l2_banks;
    uint64_t *l2_bank_free;
    uint64_t *sharers; /* per L2 line slot: WPUs holding the line in their L1 D */
    cache_stats_t l2st;
    cache_t *pl2; /* bulksync with l2_private: one L2 per WPU (tags only) */
    dram_t dram;
    uint64_t flushes, flush_cycles;
    /* private_mem: the thread stacks [priv_lo, priv_hi) are each WPU's private
     * memory, outside the caches (004 Table 1); priv_hi = 0: none */
    uint64_t priv_lo, priv_hi, priv_latency;
    uint64_t *priv_accesses; /* [nwpus]: SIMD loads/stores with a lane there */
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
static inline int memsys_private(const memsys_t *m, uint32_t addr) { return addr >= m->priv_lo && addr < m->priv_hi; }

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
