/* Memory hierarchy timing; see memsys.h for the model. */
#include "memsys.h"

#include "mem/bulksync.h"

#include <stdlib.h>
#include <string.h>

int memsys_init(memsys_t *m, const wsim_config_t *c, mem_t *mem, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->mem = mem;
    m->flush_at_barrier = (int)c->bulksync_flush;
    m->mode = (enum cfg_memory)c->memory;
    m->nwpus = (int)c->wpus;
    m->width = (int)c->lanes;
    m->fixed_latency = c->mem_latency;
    m->l1d_latency = c->l1d_latency;
    m->l1i_latency = c->l1i_latency;
    m->l1d_mshr_reqs = (uint32_t)c->l1d_mshr_reqs;
    if (xbar_init(&m->xbar, c->xbar_latency, rate_of(c->xbar_mbps, c->core_mhz)) < 0) {
        snprintf(err, errlen, "cannot allocate the crossbar calendar");
        return -1;
    }
    m->l1d_banks = (uint32_t)(c->l1d_banks ? c->l1d_banks : c->lanes);
    m->serial_miss = (int)c->l1d_serial_miss;
    m->icache = c->l1i_size != 0;
    uint64_t priv_lo = 0, priv_hi = 0;
    if (c->private_mem) {
        priv_lo = c->stack_top - c->threads * c->stack_size;
        priv_hi = c->stack_top;
    }
    if (private_mem_init(&m->priv, m->nwpus, priv_lo, priv_hi, c->private_latency) < 0) {
        snprintf(err, errlen, "cannot allocate the private-memory counters");
        return -1;
    }
    if (m->mode == CFG_MEMORY_FIXED) return 0;

    m->l1d = calloc((size_t)m->nwpus, sizeof *m->l1d);
    m->l1i = calloc((size_t)m->nwpus, sizeof *m->l1i);
    for (int i = 0; i < m->nwpus; i++) {
        if (!m->l1d || !m->l1i ||
            l1_init(&m->l1d[i], (uint32_t)c->l1d_size, (uint32_t)c->l1d_ways, (uint32_t)c->l1d_line,
                    (int)c->l1d_mshrs, m->l1d_banks, (int)c->warps) < 0 ||
            (m->icache && l1_init(&m->l1i[i], (uint32_t)c->l1i_size, (uint32_t)c->l1i_ways,
                                  (uint32_t)c->l1i_line, (int)c->l1i_mshrs, 1, 0) < 0)) {
            snprintf(err, errlen, "cannot allocate the L1 caches");
            return -1;
        }
    }
    if (m->mode == CFG_MEMORY_BULKSYNC) {
        for (int i = 0; i < m->nwpus; i++) {
            size_t bytes = (size_t)c->l1d_size;
            m->l1d[i].data = calloc(bytes, 1);
            m->l1d[i].dirty = calloc(bytes, 1);
            if (!m->l1d[i].data || !m->l1d[i].dirty) {
                snprintf(err, errlen, "cannot allocate the L1 data arrays");
                return -1;
            }
        }
    }
    if (c->l2_private && /* (bulksync or private) */
        l2_init_private(&m->l2, m->nwpus, (uint32_t)c->l2_size, (uint32_t)c->l2_ways, (uint32_t)c->l2_line,
                        c->l2_latency) < 0) {
        snprintf(err, errlen, "cannot allocate the private L2 caches");
        return -1;
    }
    if (m->mode == CFG_MEMORY_COHERENT) {
        if (l2_init_shared(&m->l2, (uint32_t)c->l2_size, (uint32_t)c->l2_ways, (uint32_t)c->l2_line,
                           (int)c->l2_mshrs, (uint32_t)c->l2_mshr_reqs, (uint32_t)c->l2_banks, c->l2_latency) < 0 ||
            directory_init(&m->dir, &m->l2.tags, m->l1d, c->xbar_latency) < 0) {
            snprintf(err, errlen, "cannot allocate the L2 cache");
            return -1;
        }
    }
    const dram_params_t dp = {
        .latency = c->dram_latency, .core_mhz = c->core_mhz, .mbps = c->dram_mbps,
        .banks = (uint32_t)c->dram_banks, .row_size = (uint32_t)c->dram_row,
        .row_hit = c->dram_row_hit, .row_conflict = c->dram_row_conflict,
        .trcd = c->dram_trcd, .trp = c->dram_trp, .tras = c->dram_tras,
        .map = c->dram_map == CFG_DRAM_MAP_IPOLY ? DRAM_MAP_IPOLY
             : c->dram_map == CFG_DRAM_MAP_XOR   ? DRAM_MAP_XOR
                                                 : DRAM_MAP_LINEAR,
        .ret = c->dram_return == CFG_DRAM_RETURN_ORDER ? DRAM_RETURN_ORDER : DRAM_RETURN_READY,
    };
    if (dram_init(&m->dram, &dp) < 0) {
        snprintf(err, errlen, "cannot allocate the DRAM model");
        return -1;
    }
    return 0;
}

void memsys_free(memsys_t *m)
{
    private_mem_free(&m->priv);
    for (int i = 0; m->l1d && i < m->nwpus; i++) l1_free(&m->l1d[i]);
    for (int i = 0; m->l1i && i < m->nwpus; i++) l1_free(&m->l1i[i]);
    free(m->l1d), free(m->l1i);
    l2_free(&m->l2, m->nwpus);
    directory_free(&m->dir);
    xbar_free(&m->xbar);
    dram_free(&m->dram);
}

int memsys_must_wait(memsys_t *m, int wpu, uint64_t now, const uint32_t *addr, wmask_t lanes, int store, int warp,
                     uint64_t *retry)
{
    if (m->mode == CFG_MEMORY_FIXED) return 0;
    return l1_must_wait(&m->l1d[wpu], &m->priv, now, addr, lanes, store, warp, retry);
}

uint32_t memsys_read(memsys_t *m, int wpu, uint32_t addr, int size)
{
    if (!memsys_private_data(m)) return mem_read(m->mem, addr, size);
    return bulksync_read(&m->l1d[wpu], m->mem, addr, size);
}

void memsys_write(memsys_t *m, int wpu, uint32_t addr, uint32_t v, int size)
{
    if (!memsys_private_data(m)) { mem_write(m->mem, addr, v, size); return; }
    bulksync_write(&m->l1d[wpu], m->mem, addr, v, size);
}

void memsys_drain(memsys_t *m)
{
    if (!memsys_private_data(m)) return;
    for (int w = 0; w < m->nwpus; w++) bulksync_drain(&m->l1d[w], m->mem);
}

/* A dirty L1 victim of WPU w goes back to the next level at cycle t. */
static void l1_writeback(memsys_t *m, int w, l1_t *l1, uint32_t line, uint64_t t)
{
    l1->st.writebacks++;
    if (m->mode == CFG_MEMORY_COHERENT) {
        xbar_send(&m->xbar, t, l1->tags.line);
        cache_line_t *l = cache_find(&m->l2.tags, line, 0);
        if (l) l->dirty = 1;
    } else if (m->l2.priv) {
        cache_line_t *l = cache_find(&m->l2.priv[w], line, 0);
        if (l) l->dirty = 1;
        else dram_access(&m->dram, line, l1->tags.line, 1, t);
    } else {
        dram_access(&m->dram, line, l1->tags.line, 1, xbar_send(&m->xbar, t, l1->tags.line));
    }
}

/* An L1 line leaves WPU w's cache (eviction): write back if dirty, leave the directory. */
static void l1_evicted(memsys_t *m, int w, l1_t *l1, const cache_victim_t *v, uint64_t t)
{
    if (v->dirty) l1_writeback(m, w, l1, v->addr, t);
    if (m->mode == CFG_MEMORY_COHERENT) directory_l1_evicted(&m->dir, w, v->addr);
}

/* Fetch a missing line for an L1 (D or I) of WPU w, starting at cycle t:
 * returns the fill cycle and the granted state. use_dir = 0 for an ifetch. */
static uint64_t fetch_line(memsys_t *m, int w, uint32_t line, uint32_t bytes, int excl, int use_dir, uint64_t t,
                           uint8_t *grant)
{
    if (m->mode == CFG_MEMORY_COHERENT) {
        uint64_t at_l2 =
            l2_access(&m->l2, &m->dir, &m->dram, w, line, excl, use_dir, xbar_send(&m->xbar, t, 0), grant);
        return xbar_send(&m->xbar, at_l2, bytes);
    }
    *grant = excl ? LINE_M : LINE_E;
    if (m->l2.priv) return l2_private_access(&m->l2, &m->xbar, &m->dram, w, line, t);
    return xbar_send(&m->xbar, dram_access(&m->dram, line, bytes, 0, xbar_send(&m->xbar, t, 0)), 0);
}

void memsys_access(memsys_t *m, int wpu, uint64_t now, const uint32_t *addr, wmask_t lanes, int store,
                   mem_result_t *r)
{
    r->hit = wmask_none();
    r->miss = wmask_none();
    r->ready = now + 1;
    r->hit_ready = now + 1;
    r->uready = m->uready, r->lane_u = m->lane_u; /* (filled below: mem_lane_ready) */
    /* private memory (private_mem): its lanes hit after private_latency, one
     * unit of their own (dom reads each lane's unit), past the caches' */
    wmask_t priv = wmask_none();
    if (m->priv.hi) {
        WMASK_FOREACH(lanes, lane) if (memsys_private(m, addr[lane])) wmask_set(&priv, lane);
        if (wmask_any(&priv)) {
            m->priv.accesses[wpu]++;
            lanes = wmask_andnot(lanes, priv);
            r->hit = priv;
            r->ready = r->hit_ready = now + m->priv.latency;
        }
    }
    if (!wmask_any(&lanes)) { /* (only private lanes: lane_u, uready below) */
        WMASK_FOREACH(priv, lane) m->lane_u[lane] = 0;
        m->uready[0] = now + m->priv.latency;
        m->uhit[0] = 1;
        return;
    }
    if (m->mode == CFG_MEMORY_FIXED) {
        r->miss = lanes;
        r->ready = now + m->fixed_latency;
        return;
    }
    xbar_retire(&m->xbar, now);
    dram_retire(&m->dram, now);
    l1_t *l1 = &m->l1d[wpu];
    uint32_t lsz = l1->tags.line;
    /* coalesce: one request per distinct line, in the order of their first
     * lanes; count[k]: the lanes of line k. A lane usually reads the line of
     * the lane before it, so that is looked at first; else the index co_*
     * finds the line or shows it is new, and only a slot another line took
     * in this access costs a search. */
    int nu = 0, nhit = 0;
    uint32_t count[WSIM_MAX_LANES];
    {
        if (++m->co_now == 0) { /* (wrapped: forget every claim) */
            memset(m->co_gen, 0, sizeof m->co_gen);
            m->co_now = 1;
        }
        const uint32_t gen = m->co_now;
        const int shift = l1->tags.line_shift;
        int k = 0;
        WMASK_FOREACH(lanes, lane) {
            uint32_t line = cache_line_of(&l1->tags, addr[lane]);
            if (!nu || m->uline[k] != line) {
                const unsigned h = (line >> shift) & 63u;
                if (m->co_gen[h] != gen) { /* a line not seen in this access */
                    m->co_gen[h] = gen;
                    m->co_unit[h] = (uint16_t)nu;
                    k = nu;
                    m->uline[nu] = line, count[nu] = 0, nu++;
                } else if (m->uline[k = m->co_unit[h]] != line) { /* the slot is another line's */
                    for (k = 0; k < nu && m->uline[k] != line; k++) {}
                    if (k == nu) m->uline[nu] = line, count[nu] = 0, nu++;
                }
            }
            count[k]++;
            m->lane_u[lane] = k;
        }
    }

    for (int k = 0; k < nu; k++) {
        uint32_t line = m->uline[k];
        /* each bank takes one request per cycle: conflicts queue a cycle each */
        uint32_t bank = (line >> l1->tags.line_shift) % m->l1d_banks;
        uint64_t t = now > l1->bank_free[bank] ? now : l1->bank_free[bank];
        if (t > now) l1->st.bank_conflicts++;
        l1->bank_free[bank] = t + 1;
        l1->st.accesses++;

        cache_line_t *cl = cache_find(&l1->tags, line, 1);
        uint64_t ready;
        int hit = 0;
        if (cl && cl->ready > now) {
            /* the line is on its way: wait for the same fill, in its MSHR if
             * that still has room for these threads, else in another */
            mshr_t *p = &l1->mshr[cl->mshr];
            l1->st.misses++;
            l1->st.mshr_merges++;
            ready = cl->ready > t + m->l1d_latency ? cl->ready : t + m->l1d_latency;
            if (p->line == line && p->reqs + count[k] <= m->l1d_mshr_reqs) {
                p->reqs += count[k];
            } else {
                mshr_t *e = mshr_alloc(l1->mshr, l1->nmshr, &l1->next_mshr, t + m->l1d_latency);
                if (e->fill > ready) { ready = e->fill; l1->st.mshr_full++; }
                *e = (mshr_t){line, count[k], ready};
            }
            if (store && cl) { /* the pending line is in the tags already */
                if (cl->state == LINE_S && m->mode == CFG_MEMORY_COHERENT) {
                    /* ask for ownership once the data is here (a request
                     * made then: it does not queue at the port of
                     * l1d_serial_miss, which orders requests as they issue) */
                    uint8_t g;
                    uint64_t up = fetch_line(m, wpu, line, 0, 1, 1, ready, &g);
                    if (up > ready) ready = up;
                }
                cl->state = LINE_M;
                cl->dirty = 1;
            }
        } else if (cl && (!store || cl->state >= LINE_E)) {
            hit = 1;
            l1->st.hits++;
            ready = t + m->l1d_latency;
            if (store) { cl->state = LINE_M; cl->dirty = 1; }
        } else {
            /* a miss, or a store to a shared line (upgrade): needs an MSHR */
            l1->st.misses++;
            uint64_t start = t + m->l1d_latency;
            mshr_t *e = mshr_alloc(l1->mshr, l1->nmshr, &l1->next_mshr, start);
            if (e->fill > start) { start = e->fill; l1->st.mshr_full++; }
            if (m->serial_miss) {
                /* requests to the next level leave one a cycle, in order (001 §3.3) */
                if (l1->port_free > start) { start = l1->port_free; l1->st.port_waits++; }
                l1->port_free = start + 1;
            }
            uint8_t grant;
            int upgrade = cl != NULL;
            ready = fetch_line(m, wpu, line, upgrade ? 0 : lsz, store, 1, start, &grant);
            *e = (mshr_t){line, count[k], ready};
            if (upgrade) {
                cl->state = LINE_M;
                cl->dirty = 1;
            } else {
                cache_victim_t v;
                int had = cache_insert(&l1->tags, line, store ? LINE_M : grant, (uint8_t)store, &v);
                cl = cache_last(&l1->tags);
                if (l1->data) bulksync_fill(l1, m->mem, l1_slot(l1, cl), had, v.addr, line);
                if (had) l1_evicted(m, wpu, l1, &v, start);
            }
            cl->ready = ready;
            cl->mshr = (int32_t)(e - l1->mshr);
        }
        m->uready[k] = ready;
        m->uhit[k] = (uint8_t)hit;
        nhit += hit;
        if (ready > r->ready) r->ready = ready;
        if (hit && ready > r->hit_ready) r->hit_ready = ready;
    }
    if (nhit == nu) {
        r->hit = wmask_or(r->hit, lanes);
    } else if (!nhit) {
        r->miss = lanes;
    } else {
        WMASK_FOREACH(lanes, lane) {
            if (m->uhit[m->lane_u[lane]]) wmask_set(&r->hit, lane);
            else wmask_set(&r->miss, lane);
        }
    }
    if (wmask_any(&priv)) { /* the private lanes' unit, after the lines' */
        m->uready[nu] = now + m->priv.latency;
        m->uhit[nu] = 1;
        WMASK_FOREACH(priv, lane) m->lane_u[lane] = nu;
        if (m->uready[nu] > r->ready) r->ready = m->uready[nu];
        if (m->uready[nu] > r->hit_ready) r->hit_ready = m->uready[nu];
    }
}

uint64_t memsys_ifetch(memsys_t *m, int wpu, uint32_t pc, uint64_t now, ifetch_slot_t *slot)
{
    if (m->mode == CFG_MEMORY_FIXED || !m->icache) return now;
    xbar_retire(&m->xbar, now);
    dram_retire(&m->dram, now);
    l1_t *l1 = &m->l1i[wpu];
    uint32_t line = cache_line_of(&l1->tags, pc);
    if (slot->line == (line | 1)) { /* this group's own miss */
        if (slot->ready > now) return slot->ready;
        slot->line = 0; /* delivered (counted at the miss) */
        return now;
    }
    /* Fast paths. Only misses change an I-cache's contents, so the line this
     * group hit last is still in its slot while no line was inserted (make it
     * most recently used, as a lookup would); and the line fetched last on
     * this WPU is still the most recently used of its set. */
    if (slot->hit && slot->hit_line == line && slot->hit_epoch == l1->epoch) {
        slot->hit->lru = ++l1->tags.clock;
        l1->last_line = line;
        l1->last_ready = slot->hit->ready;
        l1->st.accesses++;
        l1->st.hits++;
        return now;
    }
    if (line == l1->last_line && l1->last_ready != UINT64_MAX) {
        if (l1->last_ready > now) return l1->last_ready; /* still on its way: the fetch waits */
        l1->st.accesses++;
        l1->st.hits++;
        return now;
    }
    cache_line_t *cl = cache_find(&l1->tags, line, 1);
    if (cl && cl->ready > now) { /* another group's miss brings it: wait for it too */
        slot->line = line | 1;
        slot->ready = cl->ready;
        return cl->ready;
    }
    l1->last_line = line;
    l1->st.accesses++;
    if (cl) {
        l1->st.hits++;
        l1->last_ready = cl->ready;
        slot->hit = cl, slot->hit_line = line, slot->hit_epoch = l1->epoch;
        return now;
    }
    l1->st.misses++;
    uint64_t start = now + m->l1i_latency;
    mshr_t *e = mshr_alloc(l1->mshr, l1->nmshr, &l1->next_mshr, start);
    if (e->fill > start) { start = e->fill; l1->st.mshr_full++; }
    uint8_t grant;
    uint64_t fill = fetch_line(m, wpu, line, l1->tags.line, 0, 0, start, &grant);
    *e = (mshr_t){line, 1, fill};
    cache_victim_t v;
    cache_insert(&l1->tags, line, LINE_S, 0, &v); /* code is clean: victims just go */
    l1->epoch++;
    cache_last(&l1->tags)->ready = fill;
    cache_last(&l1->tags)->mshr = (int32_t)(e - l1->mshr);
    l1->last_ready = fill;
    slot->line = line | 1;
    slot->ready = fill;
    return fill;
}

uint64_t memsys_barrier_flush(memsys_t *m, uint64_t now)
{
    if (m->mode != CFG_MEMORY_BULKSYNC || !m->flush_at_barrier) return now;
    uint64_t done = now;
    for (int w = 0; w < m->nwpus; w++) {
        uint64_t t = bulksync_flush(&m->l1d[w], m->mem, &m->xbar, &m->dram, now);
        if (t > done) done = t;
        if (m->l2.priv) { /* the private L2 may hold stale lines too */
            t = l2_private_flush(&m->l2, &m->dram, w, now);
            if (t > done) done = t;
        }
    }
    m->flushes++;
    m->flush_cycles += done - now;
    return done;
}

/* ---- statistics ---- */

static void add_stats(cache_stats_t *t, const cache_stats_t *s)
{
#define X(n) t->n += s->n;
    CACHE_STATS(X)
#undef X
}

static void print_cache(FILE *out, int json, const char *name, const cache_stats_t *s, const char *indent, int last)
{
    if (json) {
        if (name) fprintf(out, "%s\"%s\": {", indent, name);
        else fprintf(out, "%s{", indent); /* an array element */
        const char *sep = "";
#define X(n) fprintf(out, "%s\"%s\": %llu", sep, #n, (unsigned long long)s->n), sep = ", ";
        CACHE_STATS(X)
#undef X
        fprintf(out, "}%s\n", last ? "" : ",");
        return;
    }
    double rate = s->accesses ? (double)s->misses / (double)s->accesses : 0.0;
    fprintf(out, "  %-5s accesses %llu, hits %llu, misses %llu (%.4f), MSHR merges %llu, MSHR-full %llu, "
                 "bank conflicts %llu, write-backs %llu, invalidations %llu, downgrades %llu, "
                 "back-invalidations %llu\n",
            name, (unsigned long long)s->accesses, (unsigned long long)s->hits, (unsigned long long)s->misses,
            rate, (unsigned long long)s->mshr_merges, (unsigned long long)s->mshr_full,
            (unsigned long long)s->bank_conflicts, (unsigned long long)s->writebacks,
            (unsigned long long)s->invalidations, (unsigned long long)s->downgrades,
            (unsigned long long)s->back_invalidations);
}

void memsys_counters(memsys_t *m, counter_visit_fn *f, void *ctx)
{
    const size_t nc = sizeof(cache_stats_t) / sizeof(uint64_t);
    for (int w = 0; m->l1d && w < m->nwpus; w++) {
        f(ctx, (uint64_t *)&m->l1d[w].st, nc);
        f(ctx, (uint64_t *)&m->l1i[w].st, nc);
    }
    f(ctx, (uint64_t *)&m->l2.st, nc);
    f(ctx, (uint64_t *)&m->dram.st, sizeof m->dram.st / sizeof(uint64_t));
    f(ctx, &m->flushes, 1);
    f(ctx, &m->flush_cycles, 1);
    f(ctx, m->priv.accesses, (size_t)m->nwpus);
}

void memsys_print_stats(const memsys_t *m, FILE *out, int json)
{
    static const char *const modes[] = {[CFG_MEMORY_FIXED] = "fixed", [CFG_MEMORY_COHERENT] = "coherent",
                                        [CFG_MEMORY_BULKSYNC] = "bulksync", [CFG_MEMORY_PRIVATE] = "private"};
    if (m->mode == CFG_MEMORY_FIXED) {
        if (json) fprintf(out, "  \"memory\": {\"organization\": \"fixed\"},\n");
        return;
    }
    cache_stats_t d = {0}, i = {0};
    for (int w = 0; w < m->nwpus; w++) {
        add_stats(&d, &m->l1d[w].st);
        if (m->icache) add_stats(&i, &m->l1i[w].st);
    }
    const dram_stats_t *ds = &m->dram.st;
    if (json) {
        fprintf(out, "  \"memory\": {\n    \"organization\": \"%s\",\n", modes[m->mode]);
        print_cache(out, 1, "l1d", &d, "    ", 0);
        print_cache(out, 1, "l1i", &i, "    ", 0);
        if (m->mode == CFG_MEMORY_COHERENT || m->l2.priv) print_cache(out, 1, "l2", &m->l2.st, "    ", 0);
        fprintf(out, "    \"l1d_per_wpu\": [\n");
        for (int w = 0; w < m->nwpus; w++) print_cache(out, 1, NULL, &m->l1d[w].st, "      ", w + 1 == m->nwpus);
        fprintf(out, "    ],\n    \"flushes\": %llu, \"flush_cycles\": %llu,\n",
                (unsigned long long)m->flushes, (unsigned long long)m->flush_cycles);
        if (m->priv.hi)
            fprintf(out, "    \"private_accesses\": %llu,\n", (unsigned long long)private_mem_accesses(&m->priv));
        fprintf(out, "    \"dram\": {");
        const char *sep = "";
#define X(n) fprintf(out, "%s\"%s\": %llu", sep, #n, (unsigned long long)ds->n), sep = ", ";
        DRAM_STATS(X)
#undef X
        fprintf(out, "}\n  },\n");
        return;
    }
    fprintf(out, "  memory                %s\n", modes[m->mode]);
    print_cache(out, 0, "L1D", &d, "", 0);
    if (m->icache) print_cache(out, 0, "L1I", &i, "", 0);
    if (m->mode == CFG_MEMORY_COHERENT || m->l2.priv) print_cache(out, 0, "L2", &m->l2.st, "", 0);
    if (m->flushes)
        fprintf(out, "  barrier flushes %llu, %llu cycles\n", (unsigned long long)m->flushes,
                (unsigned long long)m->flush_cycles);
    if (m->priv.hi)
        fprintf(out, "  private memory        %llu SIMD loads/stores to the stacks\n",
                (unsigned long long)private_mem_accesses(&m->priv));
    const uint64_t reqs = ds->reads + ds->writes;
    fprintf(out, "  DRAM  reads %llu, writes %llu, bytes %llu, row hits %llu, row conflicts %llu, closed %llu; "
                 "mean latency %.1f cycles (%.1f waiting for the first command)",
            (unsigned long long)ds->reads, (unsigned long long)ds->writes, (unsigned long long)ds->bytes,
            (unsigned long long)ds->row_hits, (unsigned long long)ds->row_conflicts,
            (unsigned long long)ds->row_closed, reqs ? (double)ds->latency_sum / (double)reqs : 0.0,
            reqs ? (double)ds->queue_sum / (double)reqs : 0.0);
    if (m->dram.p.banks) fprintf(out, "; banks busy %llu bank-cycles", (unsigned long long)ds->bank_busy);
    fprintf(out, "\n");
}
