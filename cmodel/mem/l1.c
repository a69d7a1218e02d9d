/* An L1 cache's state and its line of warps waiting for an MSHR; see l1.h. */
#include "l1.h"

#include <stdlib.h>

int l1_init(l1_t *l, uint32_t size, uint32_t ways, uint32_t line, int nmshr, uint32_t banks, int warps)
{
    if (cache_init(&l->tags, size, ways, line) < 0) return -1;
    l->nmshr = nmshr;
    l->mshr = calloc((size_t)nmshr, sizeof *l->mshr);
    l->last_ready = UINT64_MAX;
    l->bank_free = calloc(banks ? banks : 1, sizeof *l->bank_free);
    l->mshr_line_cap = warps;
    l->mshr_line = calloc(warps ? (size_t)warps : 1, sizeof *l->mshr_line);
    l->mshr_granted = -1, l->mshr_granted_at = UINT64_MAX;
    return l->mshr && l->bank_free && l->mshr_line ? 0 : -1;
}

void l1_free(l1_t *l)
{
    cache_free(&l->tags);
    free(l->data);
    free(l->dirty);
    free(l->mshr);
    free(l->bank_free);
    free(l->mshr_line);
}

/* The warp at place pos leaves the line of refused warps (pos = the count: it was not in it). */
static void line_leave(l1_t *l, int pos)
{
    if (pos >= l->mshr_waiting) return;
    for (int i = pos + 1; i < l->mshr_waiting; i++) l->mshr_line[i - 1] = l->mshr_line[i];
    l->mshr_waiting--;
}

int l1_must_wait(l1_t *l, const private_mem_t *priv, uint64_t now, const uint32_t *addr, wmask_t lanes, int store,
                 int warp, uint64_t *retry)
{
    uint64_t first = UINT64_MAX;
    int free = 0;
    for (int i = 0; i < l->nmshr && !free; i++) {
        if (l->mshr[i].fill <= now) free = 1;
        else if (l->mshr[i].fill < first) first = l->mshr[i].fill;
    }
    int pos = 0; /* the warp's place in the line of refused warps (mshr_waiting: not in it) */
    while (pos < l->mshr_waiting && l->mshr_line[pos] != warp) pos++;
    if (free && (pos == 0 || (l->mshr_granted == warp && l->mshr_granted_at == now))) {
        /* a free MSHR, and nobody before it (or its turn this cycle): go */
        line_leave(l, pos);
        l->mshr_granted = warp, l->mshr_granted_at = now;
        return 0;
    }
    /* fine only if every line hits or is already on its way (no MSHR needed) */
    int needs = 0;
    WMASK_FOREACH(lanes, lane) {
        if (private_mem_has(priv, addr[lane])) continue; /* no MSHR */
        const cache_line_t *cl = cache_find(&l->tags, addr[lane], 0);
        if (!cl || (store && cl->state == LINE_S)) { needs = 1; break; }
    }
    if (!needs) {
        line_leave(l, pos);
        return 0;
    }
    if (pos == l->mshr_waiting && pos < l->mshr_line_cap) l->mshr_line[l->mshr_waiting++] = warp; /* joins the line */
    *retry = free ? now + 1 : first;
    return 1;
}
