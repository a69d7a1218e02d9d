#include "dram.h"

#include <stdlib.h>

int dram_init(dram_t *d, uint64_t latency, uint64_t core_mhz, uint64_t mbps, uint32_t banks,
              uint32_t row_size, uint64_t row_hit, uint64_t row_conflict)
{
    *d = (dram_t){latency, core_mhz, mbps, banks, row_size, row_hit, row_conflict, 0, NULL, NULL, {0}};
    if (banks) {
        d->bank_free = calloc(banks, sizeof *d->bank_free);
        d->open_row = malloc(banks * sizeof *d->open_row);
        if (!d->bank_free || !d->open_row) return -1;
        for (uint32_t b = 0; b < banks; b++) d->open_row[b] = ~0u;
    }
    return 0;
}

void dram_free(dram_t *d)
{
    free(d->bank_free);
    free(d->open_row);
    d->bank_free = NULL, d->open_row = NULL;
}

uint64_t dram_transfer_cycles(const dram_t *d, uint32_t bytes)
{
    /* ceil(bytes / (mbps / mhz)) */
    return ((uint64_t)bytes * d->mhz + d->mbps - 1) / d->mbps;
}

uint64_t dram_access(dram_t *d, uint32_t addr, uint32_t bytes, int write, uint64_t t)
{
    uint64_t xfer = dram_transfer_cycles(d, bytes);
    uint64_t lat = d->latency;
    uint64_t start = t;
    if (d->banks) {
        /* Rows interleave across banks; a bank serves one row activation at
         * a time: a row hit occupies it for the transfer only, a conflict
         * also for the precharge and activate (conflict - hit latency). */
        uint32_t row = addr / d->row_size;
        uint32_t b = row % d->banks;
        if (d->bank_free[b] > start) start = d->bank_free[b];
        int hit = d->open_row[b] == row;
        lat = hit ? d->row_hit : d->row_conflict;
        if (hit) d->st.row_hits++;
        else d->st.row_conflicts++;
        d->open_row[b] = row;
        d->bank_free[b] = start + (hit ? 0 : d->row_conflict - d->row_hit) + xfer;
    }
    /* the data moves over the shared bus after the access latency */
    uint64_t data = start + lat;
    if (d->bus_free > data) data = d->bus_free;
    d->bus_free = data + xfer;
    if (write) d->st.writes++;
    else d->st.reads++;
    d->st.bytes += bytes;
    return data + xfer;
}
