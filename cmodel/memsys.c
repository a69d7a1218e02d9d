/* Memory hierarchy timing; see memsys.h for the model. */
#include "memsys.h"

#include <stdlib.h>
#include <string.h>

enum { MODE_FIXED = CFG_MEMORY_FIXED, MODE_COHERENT = CFG_MEMORY_COHERENT, MODE_BULKSYNC = CFG_MEMORY_BULKSYNC,
       MODE_PRIVATE = CFG_MEMORY_PRIVATE };

/* (warps: the WPU's warp slots, who may wait in line for an MSHR; 0 for an I-cache) */
static int l1_init(l1_t *l, uint32_t size, uint32_t ways, uint32_t line, int nmshr, uint32_t banks, int warps)
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

static void l1_free(l1_t *l)
{
    cache_free(&l->tags);
    free(l->data);
    free(l->dirty);
    free(l->mshr);
    free(l->bank_free);
    free(l->mshr_line);
}

int memsys_init(memsys_t *m, const wsim_config_t *c, mem_t *mem, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->mem = mem;
    m->flush_at_barrier = (int)c->bulksync_flush;
    m->mode = c->memory;
    m->nwpus = (int)c->wpus;
    m->width = (int)c->lanes;
    m->fixed_latency = c->mem_latency;
    m->l1d_latency = c->l1d_latency;
    m->l1i_latency = c->l1i_latency;
    m->l2_latency = c->l2_latency;
    m->xbar_latency = c->xbar_latency;
    m->l1d_mshr_reqs = (uint32_t)c->l1d_mshr_reqs;
    m->l2_mshr_reqs = (uint32_t)c->l2_mshr_reqs;
    if (calendar_init(&m->xbar, rate_of(c->xbar_mbps, c->core_mhz)) < 0) {
        snprintf(err, errlen, "cannot allocate the crossbar calendar");
        return -1;
    }
    m->l1d_banks = (uint32_t)(c->l1d_banks ? c->l1d_banks : c->lanes);
    m->serial_miss = (int)c->l1d_serial_miss;
    m->icache = c->l1i_size != 0;
    if (c->private_mem) {
        m->priv_lo = c->stack_top - c->threads * c->stack_size;
        m->priv_hi = c->stack_top;
        m->priv_latency = c->private_latency;
    }
    if (!(m->priv_accesses = calloc((size_t)m->nwpus, sizeof *m->priv_accesses))) {
        snprintf(err, errlen, "cannot allocate the private-memory counters");
        return -1;
    }
    if (m->mode == MODE_FIXED) return 0;

    m->l1d = calloc((size_t)m->nwpus, sizeof *m->l1d);
    m->l1i = calloc((size_t)m->nwpus, sizeof *m->l1i);
    for (int i = 0; i < m->nwpus; i++) {
        if (l1_init(&m->l1d[i], (uint32_t)c->l1d_size, (uint32_t)c->l1d_ways, (uint32_t)c->l1d_line,
                    (int)c->l1d_mshrs, m->l1d_banks, (int)c->warps) < 0 ||
            (m->icache && l1_init(&m->l1i[i], (uint32_t)c->l1i_size, (uint32_t)c->l1i_ways,
                                  (uint32_t)c->l1i_line, (int)c->l1i_mshrs, 1, 0) < 0)) {
            snprintf(err, errlen, "cannot allocate the L1 caches");
            return -1;
        }
    }
    if (m->mode == MODE_BULKSYNC) {
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
    if (c->l2_private) { /* (bulksync or private) */
        m->pl2 = calloc((size_t)m->nwpus, sizeof *m->pl2);
        for (int i = 0; i < m->nwpus; i++)
            if (cache_init(&m->pl2[i], (uint32_t)c->l2_size, (uint32_t)c->l2_ways, (uint32_t)c->l2_line) < 0) {
                snprintf(err, errlen, "cannot allocate the private L2 caches");
                return -1;
            }
    }
    if (m->mode == MODE_COHERENT) {
        if (cache_init(&m->l2, (uint32_t)c->l2_size, (uint32_t)c->l2_ways, (uint32_t)c->l2_line) < 0) {
            snprintf(err, errlen, "cannot allocate the L2 cache");
            return -1;
        }
        m->l2_nmshr = (int)c->l2_mshrs;
        m->l2_mshr = calloc((size_t)m->l2_nmshr, sizeof *m->l2_mshr);
        m->l2_banks = (uint32_t)c->l2_banks;
        m->l2_bank_free = calloc(m->l2_banks, sizeof *m->l2_bank_free);
        m->sharers = calloc((size_t)m->l2.sets * m->l2.ways, sizeof *m->sharers);
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
    free(m->priv_accesses);
    for (int i = 0; m->l1d && i < m->nwpus; i++) l1_free(&m->l1d[i]);
    for (int i = 0; m->l1i && i < m->nwpus; i++) l1_free(&m->l1i[i]);
    free(m->l1d), free(m->l1i);
    cache_free(&m->l2);
    for (int i = 0; m->pl2 && i < m->nwpus; i++) cache_free(&m->pl2[i]);
    free(m->pl2);
    free(m->l2_mshr), free(m->l2_bank_free), free(m->sharers);
    calendar_free(&m->xbar);
    dram_free(&m->dram);
}

/* ---- MSHRs: a table of {line, fill}; an entry is busy until its fill ---- */

/* A free MSHR at cycle `at` (searched round-robin from *next), or the one
 * that frees first when all are busy. */
static mshr_t *mshr_alloc(mshr_t *t, int n, int *next, uint64_t at)
{
    for (int i = 0, k = *next; i < n; i++, k = k + 1 == n ? 0 : k + 1)
        if (t[k].fill <= at) {
            *next = k + 1 == n ? 0 : k + 1;
            return &t[k];
        }
    mshr_t *e = &t[0];
    for (int i = 1; i < n; i++)
        if (t[i].fill < e->fill) e = &t[i];
    return e;
}

/* The warp at place pos leaves the line of refused warps (pos = the count: it was not in it). */
static void line_leave(l1_t *l, int pos)
{
    if (pos >= l->mshr_waiting) return;
    for (int i = pos + 1; i < l->mshr_waiting; i++) l->mshr_line[i - 1] = l->mshr_line[i];
    l->mshr_waiting--;
}

int memsys_must_wait(memsys_t *m, int wpu, uint64_t now, const uint32_t *addr, wmask_t lanes, int store, int warp,
                     uint64_t *retry)
{
    if (m->mode == MODE_FIXED) return 0;
    l1_t *l = &m->l1d[wpu];
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
        if (memsys_private(m, addr[lane])) continue; /* no MSHR */
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

/* ---- crossbar: a latency and one shared data path of limited bandwidth ---- */

/* A message leaving at cycle t, carrying `bytes` of data: the cycle it has
 * arrived. Its data moves from cycle t + latency on, in whatever capacity
 * each cycle has left (calendar.h), and has arrived at the end of the cycle
 * its last byte moves in. */
static uint64_t xbar(memsys_t *m, uint64_t t, uint32_t bytes)
{
    uint64_t c = t + m->xbar_latency;
    return bytes ? calendar_take(&m->xbar, c, bytes) : c;
}

/* ---- bulksync data: each L1 line slot holds a copy of its line ---- */

static size_t slot_of(const l1_t *l, const cache_line_t *cl) { return (size_t)(cl - l->tags.l); }

/* Write the dirty bytes of slot k (line address `line`) back to memory. */
static void data_writeback(memsys_t *m, l1_t *l, size_t k, uint32_t line)
{
    uint32_t n = l->tags.line;
    uint8_t *d = l->data + k * n, *f = l->dirty + k * n;
    for (uint32_t i = 0; i < n; i++)
        if (f[i]) {
            mem_write(m->mem, line + i, d[i], 1);
            f[i] = 0;
        }
}

/* Line `line` just went into slot k, whose previous line (if `had`) was old. */
static void data_fill(memsys_t *m, l1_t *l, size_t k, int had, uint32_t old, uint32_t line)
{
    if (had) data_writeback(m, l, k, old);
    mem_read_bytes(m->mem, line, l->data + k * l->tags.line, l->tags.line);
    memset(l->dirty + k * l->tags.line, 0, l->tags.line);
}

uint32_t memsys_read(memsys_t *m, int wpu, uint32_t addr, int size)
{
    if (!memsys_private_data(m)) return mem_read(m->mem, addr, size);
    l1_t *l = &m->l1d[wpu];
    cache_line_t *cl = cache_find(&l->tags, addr, 0);
    if (!cl) return mem_read(m->mem, addr, size); /* evicted again by its own instruction */
    const uint8_t *p = l->data + slot_of(l, cl) * l->tags.line + (addr & (l->tags.line - 1));
    uint32_t v = 0;
    for (int i = size - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

void memsys_write(memsys_t *m, int wpu, uint32_t addr, uint32_t v, int size)
{
    if (!memsys_private_data(m)) { mem_write(m->mem, addr, v, size); return; }
    l1_t *l = &m->l1d[wpu];
    cache_line_t *cl = cache_find(&l->tags, addr, 0);
    if (!cl) { mem_write(m->mem, addr, v, size); return; }
    size_t off = slot_of(l, cl) * l->tags.line + (addr & (l->tags.line - 1));
    for (int i = 0; i < size; i++, v >>= 8) {
        l->data[off + (size_t)i] = (uint8_t)v;
        l->dirty[off + (size_t)i] = 1;
    }
}

void memsys_drain(memsys_t *m)
{
    if (!memsys_private_data(m)) return;
    for (int w = 0; w < m->nwpus; w++) {
        l1_t *l = &m->l1d[w];
        const size_t ways = l->tags.ways;
        for (uint32_t set = cache_next_used(&l->tags, 0); set < l->tags.sets; set = cache_next_used(&l->tags, set + 1))
            for (size_t k = set * ways; k < (set + 1) * ways; k++) /* (the sets ever filled, in slot order) */
                if (l->tags.l[k].state != LINE_I) data_writeback(m, l, k, l->tags.l[k].tag);
    }
}

/* ---- coherent L2 and directory ---- */

static size_t l2_slot(const memsys_t *m, const cache_line_t *l) { return (size_t)(l - m->l2.l); }

/* Drop every L1 D line of WPU w inside the L2 line l2line; returns whether
 * any was dirty. */
static int l1_drop_l2line(memsys_t *m, int w, uint32_t l2line)
{
    int dirty = 0;
    for (uint32_t a = l2line; a < l2line + m->l2.line; a += m->l1d[w].tags.line) {
        uint8_t d = 0;
        if (cache_invalidate(&m->l1d[w].tags, a, &d)) dirty |= d;
    }
    return dirty;
}

/* Directory actions for a request of WPU w on L2 line l (present in the L2)
 * at cycle t: returns the extra latency and the state the requester gets. */
static uint64_t directory(memsys_t *m, int w, cache_line_t *l, int excl, uint8_t *grant)
{
    uint64_t *sh = &m->sharers[l2_slot(m, l)];
    uint64_t others = *sh & ~(1ull << w);
    uint64_t extra = 0;
    if (excl) {
        for (int o = 0; others; o++, others >>= 1) {
            if (!(others & 1)) continue;
            if (l1_drop_l2line(m, o, l->tag)) l->dirty = 1; /* owner's data comes back */
            m->l1d[o].st.invalidations++;
            extra = 2 * m->xbar_latency; /* invalidations go out in parallel */
        }
        *sh = 1ull << w;
        *grant = LINE_M;
        return extra;
    }
    for (int o = 0; others >> o; o++) {
        if (!((others >> o) & 1)) continue;
        for (uint32_t a = l->tag; a < l->tag + m->l2.line; a += m->l1d[o].tags.line) {
            cache_line_t *ol = cache_find(&m->l1d[o].tags, a, 0);
            if (ol && ol->state >= LINE_E) { /* an owner: downgrade it to shared */
                if (ol->dirty) l->dirty = 1;
                ol->state = LINE_S;
                ol->dirty = 0;
                m->l1d[o].st.downgrades++;
                extra = 2 * m->xbar_latency;
            }
        }
    }
    *grant = others ? LINE_S : LINE_E;
    *sh |= 1ull << w;
    return extra;
}

/* A request for line `line` from WPU w arriving at the L2 at cycle t; returns
 * the cycle the data (or permission) is ready at the L2. data = 0 for an
 * ifetch (no directory entry: code is read-only). */
static uint64_t l2_access(memsys_t *m, int w, uint32_t line, int excl, int dir, uint64_t t, uint8_t *grant)
{
    uint32_t l2line = cache_line_of(&m->l2, line);
    uint32_t bank = (l2line >> m->l2.line_shift) % m->l2_banks;
    uint64_t start = t > m->l2_bank_free[bank] ? t : m->l2_bank_free[bank];
    if (start > t) m->l2st.bank_conflicts++;
    m->l2_bank_free[bank] = start + 1;
    m->l2st.accesses++;
    uint64_t ready;
    cache_line_t *l = cache_find(&m->l2, l2line, 1);
    if (l && l->ready > start) {
        /* on its way from memory: wait for the same fill */
        m->l2_mshr[l->mshr].reqs++;
        m->l2st.misses++;
        m->l2st.mshr_merges++;
        ready = l->ready > start + m->l2_latency ? l->ready : start + m->l2_latency;
    } else if (l) {
        m->l2st.hits++;
        ready = start + m->l2_latency;
    } else {
        m->l2st.misses++;
        uint64_t s2 = start + m->l2_latency;
        mshr_t *e = mshr_alloc(m->l2_mshr, m->l2_nmshr, &m->l2_next_mshr, s2);
        if (e->fill > s2) { s2 = e->fill; m->l2st.mshr_full++; }
        ready = dram_access(&m->dram, l2line, m->l2.line, 0, s2);
        *e = (mshr_t){l2line, 1, ready};
        cache_victim_t v;
        if (cache_insert(&m->l2, l2line, LINE_E, 0, &v)) {
            /* inclusive: the L1 copies of the victim go too. The new line took
             * the victim's slot, whose sharer set is still the victim's. */
            l = cache_last(&m->l2);
            uint64_t vs = m->sharers[l2_slot(m, l)];
            int dirty = v.dirty;
            for (int o = 0; vs >> o; o++) {
                if (!((vs >> o) & 1)) continue;
                dirty |= l1_drop_l2line(m, o, v.addr);
                m->l1d[o].st.back_invalidations++;
            }
            if (dirty) { /* the victim goes out behind the read, when the miss is known (not at
                          * the fill: DRAM serves in call order, and a write booked at the fill
                          * would hold the bus for every later read) */
                m->l2st.writebacks++;
                dram_access(&m->dram, v.addr, m->l2.line, 1, s2);
            }
        }
        l = cache_last(&m->l2);
        l->ready = ready;
        l->mshr = (int32_t)(e - m->l2_mshr);
        m->sharers[l2_slot(m, l)] = 0;
    }
    *grant = LINE_E;
    if (dir && l) ready += directory(m, w, l, excl, grant);
    return ready;
}

/* A dirty L1 victim of WPU w goes back to the next level at cycle t. */
static void l1_writeback(memsys_t *m, int w, l1_t *l1, uint32_t line, uint64_t t)
{
    l1->st.writebacks++;
    if (m->mode == MODE_COHERENT) {
        xbar(m, t, l1->tags.line);
        cache_line_t *l = cache_find(&m->l2, line, 0);
        if (l) l->dirty = 1;
    } else if (m->pl2) {
        cache_line_t *l = cache_find(&m->pl2[w], line, 0);
        if (l) l->dirty = 1;
        else dram_access(&m->dram, line, l1->tags.line, 1, t);
    } else {
        dram_access(&m->dram, line, l1->tags.line, 1, xbar(m, t, l1->tags.line));
    }
}

/* bulksync with private L2s: WPU w's L2 serves a line at cycle t. */
static uint64_t private_l2(memsys_t *m, int w, uint32_t line, uint64_t t)
{
    cache_t *c = &m->pl2[w];
    uint32_t l2line = cache_line_of(c, line);
    uint64_t ready = t + m->l2_latency;
    m->l2st.accesses++;
    if (cache_find(c, l2line, 1)) {
        m->l2st.hits++;
        return ready;
    }
    m->l2st.misses++;
    ready = xbar(m, dram_access(&m->dram, l2line, c->line, 0, xbar(m, ready, 0)), 0);
    cache_victim_t v;
    if (cache_insert(c, l2line, LINE_E, 0, &v) && v.dirty) { /* behind the read, as above */
        m->l2st.writebacks++;
        dram_access(&m->dram, v.addr, c->line, 1, xbar(m, t + m->l2_latency, c->line));
    }
    return ready;
}

/* An L1 line leaves WPU w's cache (eviction): write back if dirty, leave the directory. */
static void l1_evicted(memsys_t *m, int w, l1_t *l1, const cache_victim_t *v, uint64_t t)
{
    if (v->dirty) l1_writeback(m, w, l1, v->addr, t);
    if (m->mode == MODE_COHERENT) {
        cache_line_t *l = cache_find(&m->l2, v->addr, 0);
        if (l) {
            /* still sharing if another L1 line of the same L2 line remains */
            int any = 0;
            for (uint32_t a = l->tag; a < l->tag + m->l2.line; a += l1->tags.line)
                if (cache_find(&l1->tags, a, 0)) any = 1;
            if (!any) m->sharers[l2_slot(m, l)] &= ~(1ull << w);
        }
    }
}

/* Fetch a missing line for an L1 (D or I) of WPU w, starting at cycle t:
 * returns the fill cycle and the granted state. */
static uint64_t fetch_line(memsys_t *m, int w, uint32_t line, uint32_t bytes, int excl, int dir, uint64_t t,
                           uint8_t *grant)
{
    if (m->mode == MODE_COHERENT) {
        uint64_t at_l2 = l2_access(m, w, line, excl, dir, xbar(m, t, 0), grant);
        return xbar(m, at_l2, bytes);
    }
    *grant = excl ? LINE_M : LINE_E;
    if (m->pl2) return private_l2(m, w, line, t);
    return xbar(m, dram_access(&m->dram, line, bytes, 0, xbar(m, t, 0)), 0);
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
    if (m->priv_hi) {
        WMASK_FOREACH(lanes, lane) if (memsys_private(m, addr[lane])) wmask_set(&priv, lane);
        if (wmask_any(&priv)) {
            m->priv_accesses[wpu]++;
            lanes = wmask_andnot(lanes, priv);
            r->hit = priv;
            r->ready = r->hit_ready = now + m->priv_latency;
        }
    }
    if (!wmask_any(&lanes)) { /* (only private lanes: lane_u, uready below) */
        WMASK_FOREACH(priv, lane) m->lane_u[lane] = 0;
        m->uready[0] = now + m->priv_latency;
        m->uhit[0] = 1;
        return;
    }
    if (m->mode == MODE_FIXED) {
        r->miss = lanes;
        r->ready = now + m->fixed_latency;
        return;
    }
    calendar_retire(&m->xbar, now);
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
                if (cl->state == LINE_S && m->mode == MODE_COHERENT) {
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
                if (l1->data) data_fill(m, l1, slot_of(l1, cl), had, v.addr, line);
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
        m->uready[nu] = now + m->priv_latency;
        m->uhit[nu] = 1;
        WMASK_FOREACH(priv, lane) m->lane_u[lane] = nu;
        if (m->uready[nu] > r->ready) r->ready = m->uready[nu];
        if (m->uready[nu] > r->hit_ready) r->hit_ready = m->uready[nu];
    }
}

uint64_t memsys_ifetch(memsys_t *m, int wpu, uint32_t pc, uint64_t now, ifetch_slot_t *slot)
{
    if (m->mode == MODE_FIXED || !m->icache) return now;
    calendar_retire(&m->xbar, now);
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
    if (m->mode != MODE_BULKSYNC || !m->flush_at_barrier) return now;
    uint64_t done = now;
    for (int w = 0; w < m->nwpus; w++) {
        l1_t *l1 = &m->l1d[w];
        /* the sets ever filled since the last flush, in slot order (the full scan's order) */
        const size_t ways = l1->tags.ways;
        for (uint32_t set = cache_next_used(&l1->tags, 0); set < l1->tags.sets; set = cache_next_used(&l1->tags, set + 1)) {
            for (size_t i = set * ways; i < (set + 1) * ways; i++) {
                cache_line_t *l = &l1->tags.l[i];
                if (l->state == LINE_I) continue;
                if (l1->data) data_writeback(m, l1, i, l->tag);
                if (l->dirty) {
                    l1->st.writebacks++;
                    uint64_t t = dram_access(&m->dram, l->tag, l1->tags.line, 1, xbar(m, now, l1->tags.line));
                    if (t > done) done = t;
                }
                l->state = LINE_I;
                l->dirty = 0;
                l1->st.invalidations++;
            }
            cache_forget_set(&l1->tags, set);
        }
        if (m->pl2) { /* the private L2 may hold stale lines too */
            cache_t *c = &m->pl2[w];
            for (uint32_t set = cache_next_used(c, 0); set < c->sets; set = cache_next_used(c, set + 1)) {
                for (size_t i = (size_t)set * c->ways; i < (size_t)(set + 1) * c->ways; i++) {
                    cache_line_t *l = &c->l[i];
                    if (l->state == LINE_I) continue;
                    if (l->dirty) {
                        m->l2st.writebacks++;
                        uint64_t t = dram_access(&m->dram, l->tag, c->line, 1, now);
                        if (t > done) done = t;
                    }
                    l->state = LINE_I;
                    l->dirty = 0;
                    m->l2st.invalidations++;
                }
                cache_forget_set(c, set);
            }
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
    MEMSYS_CACHE_STATS(X)
#undef X
}

static void print_cache(FILE *out, int json, const char *name, const cache_stats_t *s, const char *indent, int last)
{
    if (json) {
        if (name) fprintf(out, "%s\"%s\": {", indent, name);
        else fprintf(out, "%s{", indent); /* an array element */
        const char *sep = "";
#define X(n) fprintf(out, "%s\"%s\": %llu", sep, #n, (unsigned long long)s->n), sep = ", ";
        MEMSYS_CACHE_STATS(X)
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
    f(ctx, (uint64_t *)&m->l2st, nc);
    f(ctx, (uint64_t *)&m->dram.st, sizeof m->dram.st / sizeof(uint64_t));
    f(ctx, &m->flushes, 1);
    f(ctx, &m->flush_cycles, 1);
    f(ctx, m->priv_accesses, (size_t)m->nwpus);
}

static uint64_t priv_total(const memsys_t *m)
{
    uint64_t n = 0;
    for (int w = 0; w < m->nwpus; w++) n += m->priv_accesses[w];
    return n;
}

void memsys_print_stats(const memsys_t *m, FILE *out, int json)
{
    static const char *const modes[] = {"fixed", "coherent", "bulksync", "private"};
    if (m->mode == MODE_FIXED) {
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
        if (m->mode == MODE_COHERENT || m->pl2) print_cache(out, 1, "l2", &m->l2st, "    ", 0);
        fprintf(out, "    \"l1d_per_wpu\": [\n");
        for (int w = 0; w < m->nwpus; w++) print_cache(out, 1, NULL, &m->l1d[w].st, "      ", w + 1 == m->nwpus);
        fprintf(out, "    ],\n    \"flushes\": %llu, \"flush_cycles\": %llu,\n",
                (unsigned long long)m->flushes, (unsigned long long)m->flush_cycles);
        if (m->priv_hi) fprintf(out, "    \"private_accesses\": %llu,\n", (unsigned long long)priv_total(m));
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
    if (m->mode == MODE_COHERENT || m->pl2) print_cache(out, 0, "L2", &m->l2st, "", 0);
    if (m->flushes)
        fprintf(out, "  barrier flushes %llu, %llu cycles\n", (unsigned long long)m->flushes,
                (unsigned long long)m->flush_cycles);
    if (m->priv_hi)
        fprintf(out, "  private memory        %llu SIMD loads/stores to the stacks\n", (unsigned long long)priv_total(m));
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
