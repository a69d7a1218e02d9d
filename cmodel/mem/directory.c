/* The L2's directory; see directory.h. */
#include "directory.h"

#include <stdlib.h>

int directory_init(directory_t *d, cache_t *l2, l1_t *l1d, uint64_t xbar_latency)
{
    *d = (directory_t){.l2 = l2, .l1d = l1d, .xbar_latency = xbar_latency};
    d->sharers = calloc((size_t)l2->sets * l2->ways, sizeof *d->sharers);
    return d->sharers ? 0 : -1;
}

void directory_free(directory_t *d) { free(d->sharers); }

static size_t slot_of(const directory_t *d, const cache_line_t *l) { return (size_t)(l - d->l2->l); }

/* Drop every L1 D line of WPU w inside the L2 line l2line; returns whether
 * any was dirty. */
static int drop_l2line(directory_t *d, int w, uint32_t l2line)
{
    int dirty = 0;
    for (uint32_t a = l2line; a < l2line + d->l2->line; a += d->l1d[w].tags.line) {
        uint8_t dt = 0;
        if (cache_invalidate(&d->l1d[w].tags, a, &dt)) dirty |= dt;
    }
    return dirty;
}

uint64_t directory_request(directory_t *d, int w, cache_line_t *l, int excl, uint8_t *grant)
{
    uint64_t *sh = &d->sharers[slot_of(d, l)];
    uint64_t others = *sh & ~(1ull << w);
    uint64_t extra = 0;
    if (excl) {
        for (int o = 0; others; o++, others >>= 1) {
            if (!(others & 1)) continue;
            if (drop_l2line(d, o, l->tag)) l->dirty = 1; /* owner's data comes back */
            d->l1d[o].st.invalidations++;
            extra = 2 * d->xbar_latency; /* invalidations go out in parallel */
        }
        *sh = 1ull << w;
        *grant = LINE_M;
        return extra;
    }
    for (int o = 0; others >> o; o++) {
        if (!((others >> o) & 1)) continue;
        for (uint32_t a = l->tag; a < l->tag + d->l2->line; a += d->l1d[o].tags.line) {
            cache_line_t *ol = cache_find(&d->l1d[o].tags, a, 0);
            if (ol && ol->state >= LINE_E) { /* an owner: downgrade it to shared */
                if (ol->dirty) l->dirty = 1;
                ol->state = LINE_S;
                ol->dirty = 0;
                d->l1d[o].st.downgrades++;
                extra = 2 * d->xbar_latency;
            }
        }
    }
    *grant = others ? LINE_S : LINE_E;
    *sh |= 1ull << w;
    return extra;
}

int directory_replace(directory_t *d, const cache_line_t *l, uint32_t victim)
{
    /* the new line took the victim's slot, whose sharer set is still the victim's */
    uint64_t *sh = &d->sharers[slot_of(d, l)];
    const uint64_t vs = *sh;
    int dirty = 0;
    for (int o = 0; vs >> o; o++) {
        if (!((vs >> o) & 1)) continue;
        dirty |= drop_l2line(d, o, victim);
        d->l1d[o].st.back_invalidations++;
    }
    *sh = 0;
    return dirty;
}

void directory_l1_evicted(directory_t *d, int w, uint32_t addr)
{
    cache_line_t *l = cache_find(d->l2, addr, 0);
    if (!l) return;
    l1_t *l1 = &d->l1d[w];
    int any = 0;
    for (uint32_t a = l->tag; a < l->tag + d->l2->line; a += l1->tags.line)
        if (cache_find(&l1->tags, a, 0)) any = 1;
    if (!any) d->sharers[slot_of(d, l)] &= ~(1ull << w);
}
