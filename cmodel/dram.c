#include "dram.h"

#include <stdlib.h>

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b, b = r;
    }
    return a;
}

rate_t rate_of(uint64_t mbps, uint64_t mhz)
{
    /* mbps / mhz bytes a cycle: a cycle is mbps/g ticks, a byte mhz/g */
    uint64_t g = gcd(mbps, mhz);
    return (rate_t){mbps / g, mhz / g};
}

int dram_init(dram_t *d, uint64_t latency, uint64_t core_mhz, uint64_t mbps, uint32_t banks,
              uint32_t row_size, uint64_t row_hit, uint64_t row_conflict)
{
    *d = (dram_t){latency, rate_of(mbps, core_mhz), banks, row_size, row_hit, row_conflict, 0, 0, NULL, NULL, {0}};
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

uint64_t dram_access(dram_t *d, uint32_t addr, uint32_t bytes, int write, uint64_t t)
{
    uint64_t lat = d->latency;
    uint64_t start = t;
    if (d->banks) {
        /* Rows interleave across banks; a bank serves one row activation at
         * a time: a row hit occupies it for the transfer only, a conflict
         * also for the precharge and activate (conflict - hit latency). A
         * bank takes requests on cycle boundaries: its busy time rounds up. */
        uint32_t row = addr / d->row_size;
        uint32_t b = row % d->banks;
        if (d->bank_free[b] > start) start = d->bank_free[b];
        int hit = d->open_row[b] == row;
        lat = hit ? d->row_hit : d->row_conflict;
        if (hit) d->st.row_hits++;
        else d->st.row_conflicts++;
        d->open_row[b] = row;
        d->bank_free[b] = start + (hit ? 0 : d->row_conflict - d->row_hit) + rate_cycles(d->bus, bytes);
    }
    /* The data moves over the shared bus after the access latency, in
     * request order (the controller does not reorder, 001 §3.3): from the
     * later of its first data and the end of the previous transfer, to the
     * tick. It is complete at the end of the cycle its last byte moves in. */
    uint64_t cyc = start + lat, tick = 0;
    if (d->bus_cycle >= cyc) cyc = d->bus_cycle, tick = d->bus_tick;
    tick += rate_ticks(d->bus, bytes);
    cyc += tick / d->bus.tpc;
    tick %= d->bus.tpc;
    d->bus_cycle = cyc, d->bus_tick = tick;
    if (write) d->st.writes++;
    else d->st.reads++;
    d->st.bytes += bytes;
    return cyc + (tick != 0);
}
