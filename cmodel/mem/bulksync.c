/* Bulk-synchronous L1 data; see bulksync.h. */
#include "bulksync.h"

#include <string.h>

void bulksync_writeback(l1_t *l, mem_t *mem, size_t k, uint32_t line)
{
    uint32_t n = l->tags.line;
    uint8_t *d = l->data + k * n, *f = l->dirty + k * n;
    for (uint32_t i = 0; i < n; i++)
        if (f[i]) {
            mem_write(mem, line + i, d[i], 1);
            f[i] = 0;
        }
}

void bulksync_fill(l1_t *l, mem_t *mem, size_t k, int had, uint32_t old, uint32_t line)
{
    if (had) bulksync_writeback(l, mem, k, old);
    mem_read_bytes(mem, line, l->data + k * l->tags.line, l->tags.line);
    memset(l->dirty + k * l->tags.line, 0, l->tags.line);
}

uint32_t bulksync_read(l1_t *l, mem_t *mem, uint32_t addr, int size)
{
    cache_line_t *cl = cache_find(&l->tags, addr, 0);
    if (!cl) return mem_read(mem, addr, size); /* evicted again by its own instruction */
    const uint8_t *p = l->data + l1_slot(l, cl) * l->tags.line + (addr & (l->tags.line - 1));
    uint32_t v = 0;
    for (int i = size - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

void bulksync_write(l1_t *l, mem_t *mem, uint32_t addr, uint32_t v, int size)
{
    cache_line_t *cl = cache_find(&l->tags, addr, 0);
    if (!cl) { mem_write(mem, addr, v, size); return; }
    size_t off = l1_slot(l, cl) * l->tags.line + (addr & (l->tags.line - 1));
    for (int i = 0; i < size; i++, v >>= 8) {
        l->data[off + (size_t)i] = (uint8_t)v;
        l->dirty[off + (size_t)i] = 1;
    }
}

void bulksync_drain(l1_t *l, mem_t *mem)
{
    const size_t ways = l->tags.ways;
    for (uint32_t set = cache_next_used(&l->tags, 0); set < l->tags.sets; set = cache_next_used(&l->tags, set + 1))
        for (size_t k = set * ways; k < (set + 1) * ways; k++) /* (the sets ever filled, in slot order) */
            if (l->tags.l[k].state != LINE_I) bulksync_writeback(l, mem, k, l->tags.l[k].tag);
}

uint64_t bulksync_flush(l1_t *l, mem_t *mem, xbar_t *x, dram_t *d, uint64_t now)
{
    uint64_t done = now;
    /* the sets ever filled since the last flush, in slot order (the full scan's order) */
    const size_t ways = l->tags.ways;
    for (uint32_t set = cache_next_used(&l->tags, 0); set < l->tags.sets; set = cache_next_used(&l->tags, set + 1)) {
        for (size_t i = set * ways; i < (set + 1) * ways; i++) {
            cache_line_t *cl = &l->tags.l[i];
            if (cl->state == LINE_I) continue;
            if (l->data) bulksync_writeback(l, mem, i, cl->tag);
            if (cl->dirty) {
                l->st.writebacks++;
                uint64_t t = dram_access(d, cl->tag, l->tags.line, 1, xbar_send(x, now, l->tags.line));
                if (t > done) done = t;
            }
            cl->state = LINE_I;
            cl->dirty = 0;
            l->st.invalidations++;
        }
        cache_forget_set(&l->tags, set);
    }
    return done;
}
