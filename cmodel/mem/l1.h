/* A WPU's L1 cache (D or I): banked tags, MSHRs, the line of warps waiting
 * for an MSHR, and (bulksync) the data of its lines. The access path that
 * uses them is memsys.c's; the bulksync data, bulksync.h. */
#ifndef WSIM_MEM_L1_H
#define WSIM_MEM_L1_H

#include <stddef.h>
#include <stdint.h>

#include "cache.h"
#include "mask.h"
#include "mshr.h"
#include "private_mem.h"

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

/* warps: the WPU's warp slots, who may wait in line for an MSHR (0 for an I-cache). */
int l1_init(l1_t *l, uint32_t size, uint32_t ways, uint32_t line, int nmshr, uint32_t banks, int warps);
void l1_free(l1_t *l);

/* The tag slot of line cl (the index of its data under bulksync). */
static inline size_t l1_slot(const l1_t *l, const cache_line_t *cl) { return (size_t)(cl - l->tags.l); }

/* Whether a SIMD load/store of warp `warp` (lanes' addresses in addr) must
 * wait before it can issue at now; see memsys_must_wait. Lanes in the
 * private memory need no MSHR. */
int l1_must_wait(l1_t *l, const private_mem_t *priv, uint64_t now, const uint32_t *addr, wmask_t lanes, int store,
                 int warp, uint64_t *retry);

#endif
