/* A set-associative tag array: true LRU, a dirty bit and a small state byte
 * per line (MESI for coherent caches). It holds no data: the model is
 * functional-first, so data lives in one memory and caches only decide time.
 *
 * Addresses are byte addresses; the cache works on line addresses
 * (addr & ~(line-1)). Sizes are powers of two, checked by the configuration. */
#ifndef WSIM_CACHE_H
#define WSIM_CACHE_H

#include <stdint.h>

enum { LINE_I = 0, LINE_S = 1, LINE_E = 2, LINE_M = 3 }; /* MESI; non-coherent caches use E */

typedef struct cache_line {
    uint32_t tag;   /* line address */
    int32_t mshr;   /* while the line's data is on its way: its MSHR */
    uint64_t lru;   /* larger = more recently used */
    uint64_t ready; /* cycle its data arrives (a miss in flight until then) */
    uint8_t state;  /* LINE_I = invalid */
    uint8_t dirty;
} cache_line_t;

typedef struct cache {
    uint32_t sets, ways, line, line_shift;
    uint64_t clock; /* LRU stamp source */
    cache_line_t *l; /* [sets][ways] */
    cache_line_t *last; /* slot of the latest insert */
    uint64_t *used; /* one bit a set that may hold a valid line (set by cache_insert): a
                     * flush or drain visits those sets only, not the whole array */
} cache_t;

typedef struct cache_victim {
    uint32_t addr;  /* line address */
    uint8_t state, dirty;
} cache_victim_t;

/* Counters of one cache (L1 D, L1 I or L2). */
#define CACHE_STATS(X) \
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
    CACHE_STATS(X)
#undef X
} cache_stats_t;

int cache_init(cache_t *c, uint32_t size, uint32_t ways, uint32_t line);
void cache_free(cache_t *c);
static inline uint32_t cache_line_of(const cache_t *c, uint32_t addr) { return addr & ~(c->line - 1); }
static inline uint32_t cache_set_of(const cache_t *c, uint32_t addr) { return (addr >> c->line_shift) & (c->sets - 1); }

/* The line holding addr, or NULL. touch: make it most recently used. */
cache_line_t *cache_find(cache_t *c, uint32_t addr, int touch);
/* Put the line holding addr (absent) in its set as MRU. Returns 1 and fills
 * *v when a valid line had to be evicted (the LRU one, or an invalid way first). */
int cache_insert(cache_t *c, uint32_t addr, uint8_t state, uint8_t dirty, cache_victim_t *v);
/* The line just inserted for addr (no search: the slot insert used). */
static inline cache_line_t *cache_last(cache_t *c) { return c->last; }
/* Drop the line holding addr; returns 1 (and its dirty bit) when it was there. */
int cache_invalidate(cache_t *c, uint32_t addr, uint8_t *was_dirty);
/* The first set from `set` on that may hold a valid line, or c->sets: walk
 * the lines for a flush or a drain in slot order, in time proportional to
 * the sets ever filled (a 1 GiB cache is 8M sets). cache_forget_set: its
 * lines are all invalid now. */
uint32_t cache_next_used(const cache_t *c, uint32_t set);
static inline void cache_forget_set(cache_t *c, uint32_t set) { c->used[set >> 6] &= ~(1ull << (set & 63)); }

#endif
