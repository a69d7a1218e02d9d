#include "dram.h"

#include <stdlib.h>

int dram_init(dram_t *d, const dram_params_t *p)
{
    *d = (dram_t){.p = *p, .bus = rate_of(p->mbps, p->core_mhz)};
    while ((1u << d->bank_bits) < p->banks) d->bank_bits++;
    if (calendar_init(&d->cal, d->bus) < 0) return -1;
    if (p->banks) {
        d->bank_free = calloc(p->banks, sizeof *d->bank_free);
        d->act_at = calloc(p->banks, sizeof *d->act_at);
        d->open_row = malloc(p->banks * sizeof *d->open_row);
        if (!d->bank_free || !d->act_at || !d->open_row) return -1;
        for (uint32_t b = 0; b < p->banks; b++) d->open_row[b] = ~0u;
    }
    return 0;
}

void dram_free(dram_t *d)
{
    calendar_free(&d->cal);
    free(d->bank_free);
    free(d->act_at);
    free(d->open_row);
    d->bank_free = NULL, d->act_at = NULL, d->open_row = NULL;
}

/* Primitive polynomials over GF(2) of degree 1..10 (bit i: the term x^i):
 * x + 1, x^2 + x + 1, x^3 + x + 1, x^4 + x + 1, x^5 + x^2 + 1, x^6 + x + 1,
 * x^7 + x + 1, x^8 + x^4 + x^3 + x^2 + 1, x^9 + x^4 + 1, x^10 + x^3 + 1. */
static const uint32_t ipoly[11] = {0, 0x3, 0x7, 0xb, 0x13, 0x25, 0x43, 0x83, 0x11d, 0x211, 0x409};

uint32_t dram_bank(const dram_t *d, uint32_t row)
{
    const uint32_t n = d->bank_bits, mask = d->p.banks - 1;
    switch (d->p.map) {
    case DRAM_MAP_XOR: /* Zhang et al.: the bank bits XOR the bits just above them */
        return (row ^ (row >> n)) & mask;
    case DRAM_MAP_IPOLY: /* Rau (ISCA 1991): the row as a polynomial over GF(2), modulo P */
        for (int i = 31; i >= (int)n; i--)
            if ((row >> i) & 1) row ^= ipoly[n] << (i - (int)n);
        return row & mask;
    default:
        return row % d->p.banks;
    }
}

void dram_retire(dram_t *d, uint64_t now)
{
    if (d->p.ret == DRAM_RETURN_READY) calendar_retire(&d->cal, now);
}

uint64_t dram_access(dram_t *d, uint32_t addr, uint32_t bytes, int write, uint64_t t)
{
    uint64_t ready = t + d->p.latency, first = t;
    if (d->p.banks) {
        /* FCFS per bank: a request's first command waits for the bank to
         * finish the requests that came before it; banks work in parallel.
         * A hit holds its bank for the burst; a conflict precharges (not
         * before tRAS after the row opened) and activates first; a closed
         * bank activates. The stated latencies run from the first command. */
        const uint32_t row = addr / d->p.row_size, b = dram_bank(d, row);
        const uint64_t burst = rate_cycles(d->bus, bytes);
        uint64_t start = t;
        if (d->bank_free[b] > start) start = d->bank_free[b];
        uint64_t col;
        if (d->open_row[b] == row) {
            d->st.row_hits++;
            col = start;
            ready = start + d->p.row_hit;
        } else {
            uint64_t act = start;
            if (d->open_row[b] != ~0u) {
                d->st.row_conflicts++;
                if (start < d->act_at[b] + d->p.tras) start = d->act_at[b] + d->p.tras;
                act = start + d->p.trp;
            } else {
                d->st.row_closed++;
            }
            d->act_at[b] = act;
            d->open_row[b] = row;
            col = act + d->p.trcd;
            ready = start + d->p.row_conflict;
        }
        d->st.bank_busy += col + burst - (d->bank_free[b] > t ? d->bank_free[b] : t);
        d->bank_free[b] = col + burst;
        first = start;
    }
    uint64_t done;
    if (d->p.ret == DRAM_RETURN_READY) {
        done = calendar_take(&d->cal, ready, bytes);
    } else {
        /* in request order: from the later of its first data and the end of
         * the previous transfer, to the tick */
        uint64_t cyc = ready, tick = 0;
        if (d->bus_cycle >= cyc) cyc = d->bus_cycle, tick = d->bus_tick;
        tick += rate_ticks(d->bus, bytes);
        cyc += tick / d->bus.tpc;
        tick %= d->bus.tpc;
        d->bus_cycle = cyc, d->bus_tick = tick;
        done = cyc + (tick != 0);
    }
    if (write) d->st.writes++;
    else d->st.reads++;
    d->st.bytes += bytes;
    d->st.latency_sum += done - t;
    d->st.queue_sum += first - t;
    return done;
}
