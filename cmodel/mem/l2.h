/* The level behind the L1s: either one shared inclusive L2, banked, with
 * MSHRs and a directory (memory = coherent), or one private L2 per WPU,
 * tags only (l2_private = 1 under bulksync or private), or none. */
#ifndef WSIM_MEM_L2_H
#define WSIM_MEM_L2_H

#include <stdint.h>

#include "cache.h"
#include "directory.h"
#include "dram.h"
#include "mshr.h"
#include "xbar.h"

typedef struct l2 {
    cache_t tags;         /* the shared L2 (coherent) */
    mshr_t *mshr;
    int nmshr, next_mshr;
    uint32_t mshr_reqs;   /* l2_mshr_reqs: the requests one MSHR holds; more take another */
    uint32_t banks;
    uint64_t *bank_free;  /* per bank: first cycle it can take the next request */
    cache_t *priv;        /* [WPUs], l2_private: each WPU's own L2 (tags only); NULL: none */
    uint64_t latency;
    cache_stats_t st;     /* the shared L2's, or the private L2s' together */
} l2_t;

int l2_init_shared(l2_t *l, uint32_t size, uint32_t ways, uint32_t line, int nmshr, uint32_t mshr_reqs,
                   uint32_t banks, uint64_t latency);
int l2_init_private(l2_t *l, int nwpus, uint32_t size, uint32_t ways, uint32_t line, uint64_t latency);
void l2_free(l2_t *l, int nwpus);

/* A request for line `line` from WPU w arriving at the shared L2 at cycle
 * t; returns the cycle the data (or permission) is ready at the L2 and the
 * state granted. use_dir = 0 for an ifetch (no directory entry: code is
 * read-only). Misses go to DRAM, dirty victims behind them. */
uint64_t l2_access(l2_t *l, directory_t *dir, dram_t *dram, int w, uint32_t line, int excl, int use_dir, uint64_t t,
                   uint8_t *grant);
/* WPU w's private L2 serves a line at cycle t: the cycle it is back at the L1. */
uint64_t l2_private_access(l2_t *l, xbar_t *x, dram_t *dram, int w, uint32_t line, uint64_t t);
/* The barrier flush of WPU w's private L2 (it may hold stale lines too):
 * returns the cycle its last write-back is done (now if none). */
uint64_t l2_private_flush(l2_t *l, dram_t *dram, int w, uint64_t now);

#endif
