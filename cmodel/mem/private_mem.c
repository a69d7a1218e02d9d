/* Private memory; see private_mem.h. */
#include "private_mem.h"

#include <stdlib.h>

int private_mem_init(private_mem_t *p, int nwpus, uint64_t lo, uint64_t hi, uint64_t latency)
{
    *p = (private_mem_t){.lo = lo, .hi = hi, .latency = latency, .nwpus = nwpus};
    p->accesses = calloc((size_t)nwpus, sizeof *p->accesses);
    return p->accesses ? 0 : -1;
}

void private_mem_free(private_mem_t *p) { free(p->accesses); }

uint64_t private_mem_accesses(const private_mem_t *p)
{
    uint64_t n = 0;
    for (int w = 0; w < p->nwpus; w++) n += p->accesses[w];
    return n;
}
