/* Each WPU's private memory (private_mem = 1; 004 Table 1): the thread
 * stacks [lo, hi), outside the caches, private_latency cycles, always a hit
 * (a thread's words in its lane's bank: conflict-free). */
#ifndef WSIM_MEM_PRIVATE_MEM_H
#define WSIM_MEM_PRIVATE_MEM_H

#include <stdint.h>

typedef struct private_mem {
    uint64_t lo, hi;    /* hi = 0: no private memory */
    uint64_t latency;
    uint64_t *accesses; /* [nwpus]: SIMD loads/stores with a lane there */
    int nwpus;
} private_mem_t;

/* lo = hi = 0 for none; the counters are allocated either way. */
int private_mem_init(private_mem_t *p, int nwpus, uint64_t lo, uint64_t hi, uint64_t latency);
void private_mem_free(private_mem_t *p);
static inline int private_mem_has(const private_mem_t *p, uint32_t addr) { return addr >= p->lo && addr < p->hi; }
/* SIMD loads/stores to the private memory, of every WPU. */
uint64_t private_mem_accesses(const private_mem_t *p);

#endif
