/* The L2 level; see l2.h. */
#include "l2.h"

#include <stdlib.h>

int l2_init_shared(l2_t *l, uint32_t size, uint32_t ways, uint32_t line, int nmshr, uint32_t mshr_reqs,
                   uint32_t banks, uint64_t latency)
{
    l->latency = latency;
    if (cache_init(&l->tags, size, ways, line) < 0) return -1;
    l->nmshr = nmshr;
    l->mshr = calloc((size_t)nmshr, sizeof *l->mshr);
    l->mshr_reqs = mshr_reqs;
    l->banks = banks;
    l->bank_free = calloc(banks, sizeof *l->bank_free);
    return l->mshr && l->bank_free ? 0 : -1;
}

int l2_init_private(l2_t *l, int nwpus, uint32_t size, uint32_t ways, uint32_t line, uint64_t latency)
{
    l->latency = latency;
    if (!(l->priv = calloc((size_t)nwpus, sizeof *l->priv))) return -1;
    for (int i = 0; i < nwpus; i++)
        if (cache_init(&l->priv[i], size, ways, line) < 0) return -1;
    return 0;
}

void l2_free(l2_t *l, int nwpus)
{
    cache_free(&l->tags);
    for (int i = 0; l->priv && i < nwpus; i++) cache_free(&l->priv[i]);
    free(l->priv);
    free(l->mshr), free(l->bank_free);
}

uint64_t l2_access(l2_t *l, directory_t *dir, dram_t *dram, int w, uint32_t line, int excl, int use_dir, uint64_t t,
                   uint8_t *grant)
{
    uint32_t l2line = cache_line_of(&l->tags, line);
    uint32_t bank = (l2line >> l->tags.line_shift) % l->banks;
    uint64_t start = t > l->bank_free[bank] ? t : l->bank_free[bank];
    if (start > t) l->st.bank_conflicts++;
    l->bank_free[bank] = start + 1;
    l->st.accesses++;
    uint64_t ready;
    cache_line_t *cl = cache_find(&l->tags, l2line, 1);
    if (cl && cl->ready > start) {
        /* on its way from memory: wait for the same fill, in its MSHR if that
         * still has room (l2_mshr_reqs requests), else in another, as the L1 D
         * does (memsys.c) -- a full table delays the request to a free one */
        mshr_t *p = &l->mshr[cl->mshr];
        l->st.misses++;
        l->st.mshr_merges++;
        ready = cl->ready > start + l->latency ? cl->ready : start + l->latency;
        if (p->line == l2line && p->reqs < l->mshr_reqs) {
            p->reqs++;
        } else {
            mshr_t *e = mshr_alloc(l->mshr, l->nmshr, &l->next_mshr, start + l->latency);
            if (e->fill > ready) { ready = e->fill; l->st.mshr_full++; }
            *e = (mshr_t){l2line, 1, ready};
        }
    } else if (cl) {
        l->st.hits++;
        ready = start + l->latency;
    } else {
        l->st.misses++;
        uint64_t s2 = start + l->latency;
        mshr_t *e = mshr_alloc(l->mshr, l->nmshr, &l->next_mshr, s2);
        if (e->fill > s2) { s2 = e->fill; l->st.mshr_full++; }
        ready = dram_access(dram, l2line, l->tags.line, 0, s2);
        *e = (mshr_t){l2line, 1, ready};
        cache_victim_t v;
        cl = NULL;
        if (cache_insert(&l->tags, l2line, LINE_E, 0, &v)) {
            /* inclusive: the L1 copies of the victim go too */
            cl = cache_last(&l->tags);
            if (directory_replace(dir, cl, v.addr) | v.dirty) {
                /* the victim goes out behind the read, when the miss is known (not at the fill:
                 * DRAM serves in call order, and a write booked at the fill would hold the bus
                 * for every later read) */
                l->st.writebacks++;
                dram_access(dram, v.addr, l->tags.line, 1, s2);
            }
        }
        cl = cache_last(&l->tags);
        cl->ready = ready;
        cl->mshr = (int32_t)(e - l->mshr);
        directory_clear(dir, cl);
    }
    *grant = LINE_E;
    if (use_dir && cl) ready += directory_request(dir, w, cl, excl, grant);
    return ready;
}

uint64_t l2_private_access(l2_t *l, xbar_t *x, dram_t *dram, int w, uint32_t line, uint64_t t)
{
    cache_t *c = &l->priv[w];
    uint32_t l2line = cache_line_of(c, line);
    uint64_t ready = t + l->latency;
    l->st.accesses++;
    if (cache_find(c, l2line, 1)) {
        l->st.hits++;
        return ready;
    }
    l->st.misses++;
    ready = xbar_send(x, dram_access(dram, l2line, c->line, 0, xbar_send(x, ready, 0)), 0);
    cache_victim_t v;
    if (cache_insert(c, l2line, LINE_E, 0, &v) && v.dirty) { /* behind the read, as above */
        l->st.writebacks++;
        dram_access(dram, v.addr, c->line, 1, xbar_send(x, t + l->latency, c->line));
    }
    return ready;
}

uint64_t l2_private_flush(l2_t *l, dram_t *dram, int w, uint64_t now)
{
    uint64_t done = now;
    cache_t *c = &l->priv[w];
    for (uint32_t set = cache_next_used(c, 0); set < c->sets; set = cache_next_used(c, set + 1)) {
        for (size_t i = (size_t)set * c->ways; i < (size_t)(set + 1) * c->ways; i++) {
            cache_line_t *cl = &c->l[i];
            if (cl->state == LINE_I) continue;
            if (cl->dirty) {
                l->st.writebacks++;
                uint64_t t = dram_access(dram, cl->tag, c->line, 1, now);
                if (t > done) done = t;
            }
            cl->state = LINE_I;
            cl->dirty = 0;
            l->st.invalidations++;
        }
        cache_forget_set(c, set);
    }
    return done;
}
