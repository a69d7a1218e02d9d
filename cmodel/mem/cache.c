#include "cache.h"

#include <stdlib.h>

int cache_init(cache_t *c, uint32_t size, uint32_t ways, uint32_t line)
{
    *c = (cache_t){0};
    if (!size || !ways || !line || size % (ways * line)) return -1;
    c->sets = size / (ways * line);
    c->ways = ways;
    c->line = line;
    while ((1u << c->line_shift) < line) c->line_shift++;
    c->l = calloc((size_t)c->sets * ways, sizeof *c->l);
    c->used = calloc(((size_t)c->sets + 63) / 64, sizeof *c->used);
    return c->l && c->used ? 0 : -1;
}

void cache_free(cache_t *c)
{
    free(c->l);
    free(c->used);
    c->l = NULL;
    c->used = NULL;
}

uint32_t cache_next_used(const cache_t *c, uint32_t set)
{
    for (uint64_t w = set >> 6; w * 64 < c->sets; w++) {
        uint64_t bits = c->used[w] & (w == set >> 6 ? ~0ull << (set & 63) : ~0ull);
        if (bits) return (uint32_t)(w * 64 + (uint64_t)__builtin_ctzll(bits));
    }
    return c->sets;
}

cache_line_t *cache_find(cache_t *c, uint32_t addr, int touch)
{
    uint32_t tag = cache_line_of(c, addr);
    cache_line_t *set = &c->l[(size_t)cache_set_of(c, addr) * c->ways];
    for (uint32_t w = 0; w < c->ways; w++)
        if (set[w].state != LINE_I && set[w].tag == tag) {
            if (touch) set[w].lru = ++c->clock;
            return &set[w];
        }
    return NULL;
}

int cache_insert(cache_t *c, uint32_t addr, uint8_t state, uint8_t dirty, cache_victim_t *v)
{
    uint32_t si = cache_set_of(c, addr);
    cache_line_t *set = &c->l[(size_t)si * c->ways];
    c->used[si >> 6] |= 1ull << (si & 63);
    cache_line_t *slot = NULL;
    for (uint32_t w = 0; w < c->ways && !slot; w++)
        if (set[w].state == LINE_I) slot = &set[w];
    int evicted = 0;
    if (!slot) {
        slot = &set[0];
        for (uint32_t w = 1; w < c->ways; w++)
            if (set[w].lru < slot->lru) slot = &set[w];
        *v = (cache_victim_t){slot->tag, slot->state, slot->dirty};
        evicted = 1;
    }
    *slot = (cache_line_t){cache_line_of(c, addr), -1, ++c->clock, 0, state, dirty};
    c->last = slot;
    return evicted;
}

int cache_invalidate(cache_t *c, uint32_t addr, uint8_t *was_dirty)
{
    cache_line_t *l = cache_find(c, addr, 0);
    if (!l) return 0;
    if (was_dirty) *was_dirty = l->dirty;
    l->state = LINE_I;
    l->dirty = 0;
    return 1;
}
