#include "calendar.h"

#include <stdlib.h>
#include <string.h>

int calendar_init(calendar_t *k, rate_t rate)
{
    *k = (calendar_t){.rate = rate, .size = 1024};
    k->used = calloc(k->size, sizeof *k->used);
    k->fullbits = calloc(k->size / 64, sizeof *k->fullbits);
    return k->used && k->fullbits ? 0 : -1;
}

void calendar_free(calendar_t *k)
{
    free(k->used);
    free(k->fullbits);
    k->used = NULL, k->fullbits = NULL;
}

/* The calendar must hold cycle c: double it until it does. */
static int calendar_hold(calendar_t *k, uint64_t c)
{
    if (c - k->base < k->size) return 0;
    uint64_t n = k->size;
    while (c - k->base >= n) n *= 2;
    uint32_t *u = calloc(n, sizeof *u);
    uint64_t *f = calloc(n / 64, sizeof *f);
    if (!u || !f) {
        free(u), free(f);
        return -1;
    }
    for (uint64_t c2 = k->base; c2 < k->base + k->size; c2++) {
        u[c2 & (n - 1)] = k->used[c2 & (k->size - 1)];
        if (u[c2 & (n - 1)] == k->rate.tpc) f[(c2 & (n - 1)) >> 6] |= 1ull << (c2 & 63);
    }
    free(k->used), free(k->fullbits);
    k->used = u, k->fullbits = f, k->size = n;
    return 0;
}

void calendar_retire(calendar_t *k, uint64_t now)
{
    if (now <= k->base) return;
    if (now - k->base >= k->size) {
        memset(k->used, 0, k->size * sizeof *k->used);
        memset(k->fullbits, 0, k->size / 64 * sizeof *k->fullbits);
    } else {
        for (uint64_t c = k->base; c < now; c++) {
            const uint64_t i = c & (k->size - 1);
            k->used[i] = 0;
            k->fullbits[i >> 6] &= ~(1ull << (i & 63));
        }
    }
    k->base = now;
    if (k->full < now) k->full = now;
}

/* The first cycle at or after c (>= base) with room left: the calendar
 * holds [base, end); cycles from end on are empty. */
static uint64_t calendar_room(const calendar_t *k, uint64_t c)
{
    const uint64_t end = k->base + k->size, mask = k->size - 1;
    if (c >= end) return c;
    while (c < end) {
        const uint64_t i = c & mask, room = ~k->fullbits[i >> 6] >> (i & 63);
        if (room) {
            const uint64_t n = c + (uint64_t)__builtin_ctzll(room);
            return n < end ? n : end;
        }
        c += 64 - (i & 63);
    }
    return end;
}

/* The data moves from cycle c on, in whatever capacity each cycle has left
 * (a cycle carries tpc ticks); transfers share the path in the order their
 * data comes up, not in the order they were reserved. */
uint64_t calendar_take(calendar_t *k, uint64_t c, uint32_t bytes)
{
    uint64_t left = rate_ticks(k->rate, bytes), tpc = k->rate.tpc;
    if (c < k->full) c = k->full;
    int from_full = c == k->full;
    for (;; c++) {
        c = calendar_room(k, c); /* full cycles take nothing (c >= base: see calendar_retire) */
        if (calendar_hold(k, c) < 0) abort(); /* out of memory */
        const uint64_t i = c & (k->size - 1);
        uint32_t *u = &k->used[i];
        uint64_t take = tpc - *u < left ? tpc - *u : left;
        *u += (uint32_t)take;
        if (*u == tpc) k->fullbits[i >> 6] |= 1ull << (i & 63);
        left -= take;
        if (!left) break;
    }
    if (from_full)
        while (k->full - k->base < k->size && k->used[k->full & (k->size - 1)] == tpc) k->full++;
    return c + 1;
}
