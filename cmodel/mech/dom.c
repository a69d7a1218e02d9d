/* Diverge on miss: the pipeline's side (seed 002 §4-§5; docs/dom.md). The
 * memory divergence table (with its MCB status) is a block
 * (blocks/mdt.c); this file decides its one operation per clock and its
 * fill, reaching it only through its ports.
 *
 * Model. dom = on needs dws = off: every warp is one SIMD group running
 * from its re-convergence stack. When a load/store of a warp diverges (some
 * threads hit, some miss) and the table takes it, the missing threads are
 * masked off: they leave the top entry of the warp's stack (entries below
 * still hold them, as they hold every thread of the entries above) and wait
 * in the MDT entry of the instruction's PC. The functional core executed
 * the instruction for them already, so logically they stand at PC + 4,
 * inside that stack entry (level D, re-converging at R). They come back in
 * one of two ways:
 *   - re-activation (§4.1 step 5): the warp issues the same PC again at
 *     level D; its ready threads (their line returned: MCB status rdy) join
 *     the top entry after the instruction, at PC + 4 like the others;
 *   - forced re-convergence (§4.3): level D ends (the stack falls below
 *     it: its threads reach R, return or exit) or the warp reaches a
 *     barrier. Every masked thread goes back on the stack as an entry of
 *     its own {PC + 4, R} that runs first (the warp waits for their
 *     values): they re-join the others where the stack would have
 *     re-joined them. At a barrier the entry re-converges at the barrier
 *     instead (so that every thread arrives).
 * Calls and divergent branches force nothing: the threads re-join when the
 * warp is back at level D. That includes a divergent branch whose join is
 * R, which replaces level D's entry by the paths' (a loop's exit test when
 * some threads leave the loop): the new entry at level D still re-converges
 * at R, so masked threads re-join it "on the next iteration of the loop"
 * (§4.3) or are forced when it reaches R.
 *
 * The slip limit (dom_slip = fixed, adaptive) is the adaptive slip
 * controller block (blocks/asc.c, 002 §5), reached through its ports: its
 * block_o makes the table refuse (the warp blocks), every load/store of a
 * warp is one event for its slip counters, a warp's re-assignment clears
 * them, and (adaptive) every dom_period cycles adaptive diff moves the max
 * slip. dom_max_slip = 0 is the blocking baseline: every divergent
 * load/store blocks and the controller is not used. */
#include <stdlib.h>
#include <string.h>

#include "blocks/asc.h"
#include "blocks/mdt.h"
#include "core.h"
#include "mech/mech.h"
#include "timeline.h"

typedef struct dom_wpu {
    const block_ops_t *ops; /* the MDT block: its C model or its RTL (block_new) */
    void *mdt;
    mdt_config_t cfg;
    mdt_in_t in;   /* this clock's inputs */
    mdt_out_t out; /* ... and outputs (out.q: the entries) */
    int m, entries, ws;
    uint64_t *ready;     /* [warps * warp_size]: when a masked thread's value is back */
    uint64_t *masked_at; /* [warps * warp_size]: when it was masked off (the watchdog) */
    int *depth;          /* [warps]: the stack level D its MDT entries belong to */
    uint32_t *rpc;       /* [warps]: ... and that level's re-convergence PC R */
    uint8_t *callee;     /* [warps]: ... and it is a function's base entry (the one below a call site) */
    uint64_t *fill_at;   /* [entries]: first cycle a waiting thread's value is back; NEVER: none waits */
    uint64_t next_fill;  /* the least fill_at */
    /* the adaptive slip controller (dom_slip = fixed, adaptive): its block,
     * this clock's inputs and outputs (aout.q: the counters, the max slip) */
    const block_ops_t *asc_ops;
    void *asc;
    asc_config_t asc_cfg;
    asc_in_t ain;
    asc_out_t aout;
    uint64_t next_sample; /* adaptive: the end of the sampling period (NEVER: none) */
    uint64_t p_cycle, p_issue, p_memwait, p_bytes; /* the counts at the period's start */
    uint8_t *maxes; /* the max slip after each period (the statistics) */
    size_t nmaxes, capmaxes;
} dom_wpu_t;

/* ---- the table's ports ---- */

/* This clock's search: warp k, pc. The operation is decided after. */
static void look(dom_wpu_t *d, int k, uint32_t pc)
{
    d->in.warp = (uint16_t)k;
    d->in.pc = pc;
    d->ops->eval(d->mdt, &d->in, &d->out);
}

static void op(dom_wpu_t *d, int code, int idx, wmask_t mask)
{
    d->in.op = (uint8_t)code;
    d->in.idx = (uint8_t)idx;
    d->in.mask = mask;
}

static uint64_t *lane_ready(dom_wpu_t *d, int k) { return d->ready + (size_t)k * d->ws; }

/* The first cycle a waiting thread of entry e has its value. */
static void refill(dom_wpu_t *d, int e)
{
    const mdt_entry_t *x = &d->out.q->e[e];
    const uint64_t *r = lane_ready(d, e / d->m);
    uint64_t at = NEVER;
    if (x->valid) WMASK_FOREACH(x->wait, lane) if (r[lane] < at) at = r[lane];
    d->fill_at[e] = at;
}

/* Adaptive diff's sampling period ends (002 §5.2): the period's counts to
 * the controller. The off-chip bytes are the machine's DRAM traffic shared
 * out evenly (the memory system counts them per machine, not per WPU). */
static void sample(struct wsim *s, wpu_t *u)
{
    dom_wpu_t *d = u->dom;
    asc_in_t *in = &d->ain;
    uint64_t bytes = s->ms.dram.st.bytes;
    in->cycles = (uint32_t)(s->cycle - d->p_cycle);
    in->busy = (uint32_t)(u->st.cycles_issue - d->p_issue);
    in->memwait = (uint32_t)(u->st.cycles_memwait - d->p_memwait);
    in->bytes = (uint32_t)((bytes - d->p_bytes) / (uint64_t)s->nwpus);
    /* the fair share: the memory's bytes per cycle over the WPUs */
    in->share = (uint32_t)((double)s->cfg.dram_mbps / (double)s->cfg.core_mhz / s->nwpus * in->cycles);
    in->sample = 1;
    d->p_cycle = s->cycle, d->p_issue = u->st.cycles_issue, d->p_memwait = u->st.cycles_memwait;
    d->p_bytes = bytes;
    d->next_sample = s->cycle + s->cfg.dom_period;
    u->st.dom_periods++;
}

/* The controller's clock: this clock's event of one warp and the period's end. */
static void asc_edge(struct wsim *s, wpu_t *u)
{
    dom_wpu_t *d = u->dom;
    if (!d->asc) return;
    if (d->next_sample <= s->cycle) sample(s, u);
    if (!d->ain.mem && !d->ain.clr && !d->ain.sample) return;
    d->asc_ops->eval(d->asc, &d->ain, &d->aout);
    if (s->record_asc) d->asc_ops->trace(d->asc, s->cycle, u->id, &d->ain, &d->aout, s->record_asc);
    if (d->ain.sample) {
        u->st.dom_raise += d->aout.dir == ASC_RAISE;
        u->st.dom_lower += d->aout.dir == ASC_LOWER;
    }
    d->asc_ops->clock(d->asc, &d->ain, &d->aout);
    if (d->ain.sample) {
        u->st.dom_max_slip_sum += d->aout.q->max_slip;
        if (d->nmaxes == d->capmaxes) {
            size_t cap = d->capmaxes ? 2 * d->capmaxes : 64;
            uint8_t *m = realloc(d->maxes, cap);
            if (!m) {
                fprintf(stderr, "wpusim: out of host memory for the max-slip statistics\n");
                exit(2);
            }
            d->maxes = m, d->capmaxes = cap;
        }
        d->maxes[d->nmaxes++] = d->aout.q->max_slip;
    }
    d->ain.mem = d->ain.clr = d->ain.sample = 0;
}

/* The clock edge: the slip controller's, then the table's: this clock's
 * operation and one fill, the lowest entry with threads whose line is
 * back (§4.1 step 4). */
static void dom_clock(struct wsim *s, wpu_t *u)
{
    dom_wpu_t *d = u->dom;
    asc_edge(s, u);
    int f = -1;
    if (d->next_fill <= s->cycle)
        for (int e = 0; e < d->entries; e++) {
            if (d->in.op == MDT_OP_FORCE && e / d->m == d->in.warp) continue; /* cleared this clock */
            if (d->fill_at[e] <= s->cycle) { f = e; break; }
        }
    if (!d->in.op && f < 0) return; /* the state does not change */
    if (f >= 0) {
        const mdt_entry_t *x = &d->out.q->e[f];
        const uint64_t *r = lane_ready(d, f / d->m);
        wmask_t back = wmask_none();
        WMASK_FOREACH(x->wait, lane) if (r[lane] <= s->cycle) wmask_set(&back, lane);
        d->in.fill = 1;
        d->in.fill_idx = (uint8_t)f;
        d->in.fill_mask = back;
        u->st.dom_fills++;
    }
    d->ops->eval(d->mdt, &d->in, &d->out);
    if (s->record_mdt) d->ops->trace(d->mdt, s->cycle, u->id, &d->in, &d->out, s->record_mdt);
    d->ops->clock(d->mdt, &d->in, &d->out);
    /* the entries this clock changed: their next fill */
    if (d->in.op == MDT_OP_FORCE)
        for (int e = d->in.warp * d->m; e < (d->in.warp + 1) * d->m; e++) refill(d, e);
    else if (d->in.op) refill(d, d->in.idx);
    if (f >= 0) refill(d, f);
    d->next_fill = NEVER;
    for (int e = 0; e < d->entries; e++)
        if (d->fill_at[e] < d->next_fill) d->next_fill = d->fill_at[e];
    memset(&d->in, 0, sizeof d->in);
}

static uint64_t dom_next_ready(const struct wsim *s, const wpu_t *u, uint64_t nr)
{
    (void)s;
    const dom_wpu_t *d = u->dom;
    uint64_t at = d->next_fill < d->next_sample ? d->next_fill : d->next_sample;
    return at < nr ? at : nr;
}

/* ---- forced re-convergence (§4.3) ---- */

/* Every masked thread of g's warp goes back on the stack, one entry per MDT
 * entry at its PC + 4 re-converging at rpc; join: the top entry (waiting at
 * rpc) takes them too. One operation: the warp's entries clear together. The
 * warp waits for their values. */
static void force(struct wsim *s, wpu_t *u, group_t *g, uint32_t rpc, int join)
{
    dom_wpu_t *d = u->dom;
    warp_t *w = g->w;
    const int k = w->slot;
    const mdt_state_t *q = d->out.q;
    const uint64_t *r = lane_ready(d, k);
    uint64_t at = 0;
    wmask_t all = wmask_none();
    for (int e = k * d->m; e < (k + 1) * d->m; e++)
        if (q->e[e].valid) all = wmask_or(all, wmask_or(q->e[e].wait, q->e[e].rdy));
    if (join) rs_top(&w->rs)->mask = wmask_or(rs_top(&w->rs)->mask, all);
    /* the callee's threads returned and its call site is on top (which
     * settling marked as no call site any more): the masked threads are
     * still in the callee, and return to it */
    if (!join && d->callee[k] && w->rs.depth == d->depth[k] - 1) rs_top(&w->rs)->callsite = 1;
    for (int e = k * d->m; e < (k + 1) * d->m; e++) {
        const mdt_entry_t *x = &q->e[e];
        if (!x->valid) continue;
        wmask_t lanes = wmask_or(x->wait, x->rdy);
        TIMELINE(s, tl_event(s, u, k, TL_DOM_FORCE, tl_mdt_key(u, e), lanes, e));
        WMASK_FOREACH(lanes, lane) if (r[lane] > at) at = r[lane];
        /* at rpc already: the entry below (or the top, join) holds them there */
        if (x->pc + 4 != rpc) rs_push(&w->rs, x->pc + 4, rpc, lanes);
    }
    exec_count_depth(u, &w->rs);
    op(d, MDT_OP_FORCE, 0, wmask_none());
    u->st.dom_forced++;
    u->st.dom_forced_lanes += (uint64_t)wmask_count(&all);
    if (at > g->ready_at) {
        g->ready_at = at;
        g->wait = WAIT_MEM;
    }
    if (g->ready_at < s->cycle + s->cfg.pipeline_depth) g->ready_at = s->cycle + s->cfg.pipeline_depth;
}

/* ---- the slip limit (002 §5.1) ---- */

/* The controller's view of warp k this clock: its threads on the branch
 * stack's top, the ones masked off in the table included. */
static void asc_look(dom_wpu_t *d, int k, wmask_t act)
{
    d->ain.warp = (uint16_t)k;
    d->ain.act = act;
    d->asc_ops->eval(d->asc, &d->ain, &d->aout);
}

/* The warp's largest slip counter (the histogram). */
static unsigned max_counter(const dom_wpu_t *d, int k, wmask_t act)
{
    unsigned m = 0;
    WMASK_FOREACH(act, lane) {
        unsigned c = asc_counter(&d->aout.q->e[k].cnt, d->asc_cfg.cnt_bits, lane);
        if (c > m) m = c;
    }
    return m;
}

/* ---- the hooks ---- */

static void dom_launch(struct wsim *s, wpu_t *u, group_t *root, int initial)
{
    (void)s;
    dom_wpu_t *d = u->dom;
    const int k = root->w->slot;
    d->depth[k] = 0;
    /* a slot re-assigned: its slip counters clear (§5.1); the first warps
     * find them cleared by reset */
    if (d->asc && !initial) {
        d->ain.warp = (uint16_t)k;
        d->ain.clr = 1;
        d->ain.mem = 0;
    }
}

/* A barrier (or, dom_branch_sync, a conditional branch: 001 §5.7's Slip,
 * where the stack needs every thread's outcome) at level D with masked
 * threads: they come back first, re-converging here, so that every thread
 * arrives (the clock goes to the table). They reach this PC: the warp got
 * here from their load/store without leaving level D's entry (or, with
 * dom_branch_sync, without a conditional branch). Nested deeper (a call),
 * nothing is forced: docs/dom.md. */
static int dom_before_issue(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *ins)
{
    dom_wpu_t *d = u->dom;
    warp_t *w = g->w;
    const int k = w->slot;
    if (!ins || !d->depth[k] || w->rs.depth != d->depth[k]) return 0;
    if (ins->cls != ISA_CLASS_BARRIER && !(ins->cls == ISA_CLASS_BRANCH && s->cfg.dom_branch_sync)) return 0;
    uint32_t pc = rs_top(&w->rs)->pc;
    look(d, k, pc);
    force(s, u, g, pc, 1);
    d->depth[k] = 0;
    group_sync_avail(u, g);
    u->next_ready = s->cycle + 1;
    return 1;
}

/* A load/store at level D: search its PC's entry, then merge, allocate,
 * re-activate or block (§4.1 steps 3-5). */
static void access(struct wsim *s, wpu_t *u, group_t *g, const issue_t *is)
{
    dom_wpu_t *d = u->dom;
    warp_t *w = g->w;
    const int k = w->slot;
    const mem_result_t *r = is->r;
    rentry_t *top = rs_top(&w->rs);
    const int level = w->rs.depth;
    const int diverged = d->depth[k] != 0;
    const int here = !diverged || level == d->depth[k]; /* at the table's level */
    const int divergent = wmask_any(&r->hit) && wmask_any(&r->miss);
    wmask_t rejoin = here && d->out.hit ? d->out.hit_rdy : wmask_none();
    wmask_t active = wmask_and(is->lanes_before, w->live);
    int code = MDT_OP_NONE, idx = 0;
    wmask_t masked = wmask_none();
    /* the slip controller: blocked when a considered thread is at its limit */
    int blocked = s->cfg.dom_slip != CFG_DOM_SLIP_NONE && !s->cfg.dom_max_slip;
    wmask_t act = wmask_or(active, d->out.wlanes);
    if (d->asc) {
        asc_look(d, k, act);
        blocked = d->aout.block;
        if (divergent) {
            unsigned c = max_counter(d, k, act);
            if (c == 0) u->st.dom_slip_0++;
            else if (c == 1) u->st.dom_slip_1++;
            else if (c < 4) u->st.dom_slip_2_3++;
            else if (c < 8) u->st.dom_slip_4_7++;
            else if (c < 16) u->st.dom_slip_8_15++;
            else u->st.dom_slip_16_up++;
        }
    }
    if (divergent) {
        if (!here || (!d->out.hit && !d->out.free)) u->st.dom_refused_full++;
        else if (blocked) u->st.dom_refused_slip++;
        else if (!d->out.hit && d->out.mcb_full) u->st.dom_mcb_full++;
        else {
            masked = r->miss;
            if (d->out.hit) {
                code = MDT_OP_MERGE, idx = d->out.hit_idx;
                u->st.dom_merges++;
            } else {
                code = MDT_OP_ALLOC, idx = d->out.free_idx;
                u->st.dom_allocs++;
            }
        }
    }
    if (d->asc && !d->ain.clr) { /* every load/store is an event of the warp's slip counters */
        d->ain.mem = 1;
        d->ain.div = code != MDT_OP_NONE;
        d->ain.hit = wmask_and(r->hit, act);
        d->ain.miss = wmask_and(r->miss, act);
    }
    if (!code && wmask_any(&rejoin)) code = MDT_OP_MERGE, idx = d->out.hit_idx;
    if (!code) return;
    op(d, code, idx, masked);
    TIMELINE(s, tl_dom(s, u, k, code, idx, masked, rejoin, d->out.q->e[idx].wait, d->out.q->e[idx].rdy));
    if (wmask_any(&masked)) {
        /* the missing threads wait in the MCB entry: when each one's line is back */
        uint64_t *rd = lane_ready(d, k);
        WMASK_FOREACH(masked, lane) {
            rd[lane] = s->ms.uready[s->ms.lane_u[lane]]; /* memsys_access's per-line completion */
            d->masked_at[(size_t)k * d->ws + lane] = s->cycle;
        }
        u->st.dom_masked_lanes += (uint64_t)wmask_count(&masked);
        if (!diverged) {
            d->depth[k] = level, d->rpc[k] = top->rpc;
            d->callee[k] = level >= 2 && w->rs.e[level - 2].callsite;
        }
        /* the threads that hit go on once their data is there */
        g->ready_at = r->hit_ready > s->cycle + 1 ? r->hit_ready : s->cycle + 1;
        if (g->ready_at < s->cycle + s->cfg.pipeline_depth) g->ready_at = s->cycle + s->cfg.pipeline_depth;
    }
    if (wmask_any(&rejoin)) {
        u->st.dom_reactivations++;
        u->st.dom_reactivated_lanes += (uint64_t)wmask_count(&rejoin);
    }
    top->mask = wmask_or(wmask_andnot(top->mask, masked), rejoin);
    /* the table empties when no thread is left in it: one group again */
    wmask_t left = wmask_or(wmask_andnot(d->out.wlanes, rejoin), masked);
    if (!wmask_any(&left)) d->depth[k] = 0;
}

static void dom_after_issue(struct wsim *s, wpu_t *u, group_t *g, const issue_t *is)
{
    dom_wpu_t *d = u->dom;
    warp_t *w = g->w;
    const int k = w->slot;
    if (d->depth[k] && w->rs.depth < d->depth[k]) {
        /* level D's stack entry ended: its masked threads re-join the stack */
        look(d, k, is->pc);
        force(s, u, g, d->rpc[k], 0);
        d->depth[k] = 0;
        return;
    }
    if (!is->r || w->rs.depth != is->depth) return; /* not a load/store, or its threads faulted */
    look(d, k, is->pc);
    access(s, u, g, is);
}

/* ---- creation ---- */

static void dom_init_wpu(struct wsim *s, wpu_t *u)
{
    dom_wpu_t *d = calloc(1, sizeof *d);
    char err[256];
    if (!d) goto oom;
    u->dom = d;
    d->m = (int)s->cfg.dom_entries;
    d->ws = s->warp_size;
    d->cfg = (mdt_config_t){.warps = s->nwarps, .m = d->m, .width = s->warp_size, .pc_bits = 32,
                            .mcb = (int)(s->cfg.dom_mcb ? s->cfg.dom_mcb : (uint64_t)s->nwarps * s->cfg.dom_entries)};
    d->entries = s->nwarps * d->m;
    if (!(d->mdt = block_new(s, &mdt_block_ops, &d->cfg, u->id, &d->ops, err, sizeof err))) {
        /* config.c's checks rule this out */
        fprintf(stderr, "wpusim: internal: %s\n", err);
        abort();
    }
    if (s->cfg.dom_slip != CFG_DOM_SLIP_NONE && s->cfg.dom_max_slip) {
        d->asc_cfg = (asc_config_t){.width = s->warp_size, .warps = s->nwarps, .cnt_bits = 8,
                                    .max0 = (int)s->cfg.dom_max_slip};
        if (!(d->asc = block_new(s, &asc_block_ops, &d->asc_cfg, u->id, &d->asc_ops, err, sizeof err))) {
            /* config.c's checks rule this out */
            fprintf(stderr, "wpusim: internal: %s\n", err);
            abort();
        }
        asc_look(d, 0, wmask_none());
    }
    d->next_sample = s->cfg.dom_slip == CFG_DOM_SLIP_ADAPTIVE && d->asc ? s->cfg.dom_period : NEVER;
    size_t n = (size_t)s->nwarps * (size_t)d->ws;
    d->ready = calloc(n, sizeof *d->ready);
    d->masked_at = calloc(n, sizeof *d->masked_at);
    d->depth = calloc((size_t)s->nwarps, sizeof *d->depth);
    d->rpc = calloc((size_t)s->nwarps, sizeof *d->rpc);
    d->callee = calloc((size_t)s->nwarps, 1);
    d->fill_at = calloc((size_t)d->entries, sizeof *d->fill_at);
    if (!d->ready || !d->masked_at || !d->depth || !d->rpc || !d->callee || !d->fill_at) goto oom;
    for (int e = 0; e < d->entries; e++) d->fill_at[e] = NEVER;
    d->next_fill = NEVER;
    look(d, 0, 0);
    return;
oom:
    fprintf(stderr, "wpusim: out of host memory for the memory divergence table\n");
    exit(2);
}

static void dom_free_wpu(struct wsim *s, wpu_t *u)
{
    (void)s;
    dom_wpu_t *d = u->dom;
    if (!d) return;
    if (d->mdt) d->ops->free(d->mdt);
    free(d->ready);
    free(d->masked_at);
    if (d->asc) d->asc_ops->free(d->asc);
    free(d->maxes);
    free(d->depth);
    free(d->rpc);
    free(d->callee);
    free(d->fill_at);
    free(d);
    u->dom = NULL;
}

void dom_record_header(const struct wsim *s, FILE *out)
{
    const dom_wpu_t *d = s->wpu[0].dom;
    block_trace_header(d->ops, &d->cfg, out);
}

void dom_record_asc_header(const struct wsim *s, FILE *out)
{
    const dom_wpu_t *d = s->wpu[0].dom;
    if (d && d->asc) block_trace_header(d->asc_ops, &d->asc_cfg, out);
}

/* Per sampling period, the max slip after it, averaged over the WPUs (they
 * sample at the same cycles: a period ends at the same clock on every WPU). */
void dom_print_json(const struct wsim *s, FILE *out)
{
    size_t n = 0;
    for (int i = 0; i < s->nwpus; i++)
        if (s->wpu[i].dom->nmaxes > n) n = s->wpu[i].dom->nmaxes;
    fprintf(out, "  \"dom_max_slip\": [");
    for (size_t p = 0; p < n; p++) {
        double sum = 0;
        int k = 0;
        for (int i = 0; i < s->nwpus; i++)
            if (p < s->wpu[i].dom->nmaxes) sum += s->wpu[i].dom->maxes[p], k++;
        fprintf(out, "%s%.2f", p ? ", " : "", sum / k);
    }
    fprintf(out, "],\n");
}

/* ---- --check and the watchdog ---- */

static wmask_t dom_held(const struct wsim *s, const wpu_t *u, const warp_t *w)
{
    (void)s;
    const dom_wpu_t *d = u->dom;
    const mdt_state_t *q = d->out.q;
    wmask_t m = wmask_none();
    for (int e = w->slot * d->m; e < (w->slot + 1) * d->m; e++)
        if (q->e[e].valid) m = wmask_or(m, wmask_or(q->e[e].wait, q->e[e].rdy));
    return m;
}

/* The DoM invariants: each thread is exactly one of active (its group's
 * top entry), masked in one MDT entry, parked below on the stack, at a
 * barrier (in the group) or exited (check.c has the partition of the
 * rest); the table's MCB status agrees with the memory system; the
 * counters are within their bounds. */
static int dom_check_wpu(const struct wsim *s, const wpu_t *u, char *msg, size_t len)
{
    const dom_wpu_t *d = u->dom;
    const mdt_state_t *q = d->out.q;
    char a[WSIM_MAX_LANES / 4 + 2];
    int nvalid = 0;
    for (int k = 0; k < s->nwarps; k++) {
        const warp_t *w = &u->warp[k];
        const uint64_t *r = d->ready + (size_t)k * d->ws;
        wmask_t seen = wmask_none();
        for (int e = k * d->m; e < (k + 1) * d->m; e++) {
            const mdt_entry_t *x = &q->e[e];
            if (!x->valid) {
                if (wmask_any(&x->wait) || wmask_any(&x->rdy) || x->pc) {
                    snprintf(msg, len, "WPU %d MDT entry %d: invalid but not cleared", u->id, e);
                    return 1;
                }
                continue;
            }
            nvalid++;
            wmask_t lanes = wmask_or(x->wait, x->rdy), both = wmask_and(x->wait, x->rdy);
            wmask_t dup = wmask_and(lanes, seen);
            if (w->gid < 0 || !wmask_any(&lanes) || wmask_any(&both) || wmask_any(&dup)) {
                wmask_hex(&lanes, s->warp_size, a);
                snprintf(msg, len, "WPU %d warp %d MDT entry %d (pc 0x%08x, lanes %s): %s", u->id, k, e, x->pc, a,
                         w->gid < 0 ? "its warp slot is empty" : !wmask_any(&lanes) ? "valid without a thread"
                         : wmask_any(&both) ? "a thread both waiting and ready" : "a thread in two entries");
                return 1;
            }
            seen = wmask_or(seen, lanes);
            /* the MCB status agrees with the memory system: ready means the line is back */
            WMASK_FOREACH(x->rdy, lane) if (r[lane] > s->cycle) {
                snprintf(msg, len, "WPU %d warp %d MDT entry %d: thread %d ready in the MCB, its line returns "
                         "at cycle %llu", u->id, k, e, lane, (unsigned long long)r[lane]);
                return 1;
            }
            uint64_t at = NEVER;
            WMASK_FOREACH(x->wait, lane) if (r[lane] < at) at = r[lane];
            if (at != d->fill_at[e]) {
                snprintf(msg, len, "WPU %d MDT entry %d: its next fill is at cycle %llu, the shadow says %llu", u->id,
                         e, (unsigned long long)at, (unsigned long long)d->fill_at[e]);
                return 1;
            }
        }
        if (w->gid < 0) continue;
        if (!wmask_any(&seen) != !d->depth[k]) {
            snprintf(msg, len, "WPU %d warp %d: %s masked threads, its level is %d", u->id, k,
                     wmask_any(&seen) ? "has" : "has no", d->depth[k]);
            return 1;
        }
        if (!wmask_any(&seen)) continue;
        /* masked threads: not active, not on level D or above, live; level D still there */
        wmask_t notlive = wmask_andnot(seen, w->live);
        if (w->rs.depth < d->depth[k] || w->rs.e[d->depth[k] - 1].rpc != d->rpc[k] || wmask_any(&notlive)) {
            wmask_hex(&seen, s->warp_size, a);
            snprintf(msg, len, "WPU %d warp %d: threads %s masked at stack level %d (re-converging at 0x%08x), the "
                     "stack is %d deep%s", u->id, k, a, d->depth[k], d->rpc[k], w->rs.depth,
                     wmask_any(&notlive) ? ", and some of them exited" : "");
            return 1;
        }
        for (int e = d->depth[k] - 1; e < w->rs.depth; e++) {
            wmask_t twice = wmask_and(seen, w->rs.e[e].mask);
            if (wmask_any(&twice)) {
                wmask_hex(&twice, s->warp_size, a);
                snprintf(msg, len, "WPU %d warp %d: threads %s are masked in the MDT and in stack entry %d (level %d "
                         "up is the running threads')", u->id, k, a, e + 1, d->depth[k]);
                return 1;
            }
        }
    }
    /* the controller's counters: the max slip within its bounds, no
     * counter of an empty slot or a thread past the warp */
    if (d->asc) {
        const asc_state_t *aq = d->aout.q;
        if (aq->max_slip < 1) {
            snprintf(msg, len, "WPU %d: the max slip is %u", u->id, aq->max_slip);
            return 1;
        }
        if (s->cfg.dom_slip == CFG_DOM_SLIP_FIXED && aq->max_slip != s->cfg.dom_max_slip) {
            snprintf(msg, len, "WPU %d: the max slip moved to %u under fixed slip %llu", u->id, aq->max_slip,
                     (unsigned long long)s->cfg.dom_max_slip);
            return 1;
        }
    }
    if (nvalid > d->cfg.mcb) {
        snprintf(msg, len, "WPU %d: %d MDT entries hold %d MCB entries", u->id, nvalid, d->cfg.mcb);
        return 1;
    }
    return 0;
}

/* Masked threads that have not come back for `watchdog` cycles. */
static int dom_watch(const struct wsim *s, FILE *out)
{
    char a[WSIM_MAX_LANES / 4 + 2], where[128];
    for (int i = 0; i < s->nwpus; i++) {
        const wpu_t *u = &s->wpu[i];
        const dom_wpu_t *d = u->dom;
        for (int e = 0; e < d->entries; e++) {
            const mdt_entry_t *x = &d->out.q->e[e];
            if (!x->valid) continue;
            const int k = e / d->m;
            wmask_t lanes = wmask_or(x->wait, x->rdy);
            uint64_t since = NEVER;
            WMASK_FOREACH(lanes, lane) if (d->masked_at[(size_t)k * d->ws + lane] < since)
                since = d->masked_at[(size_t)k * d->ws + lane];
            if (s->cycle - since <= s->cfg.watchdog) continue;
            wmask_hex(&lanes, s->warp_size, a);
            program_describe_pc(s->prog, x->pc, where, sizeof where);
            fprintf(out, "wpusim: watchdog at cycle %llu: WPU %d warp %d (threads %u..): threads %s were masked off "
                         "at the load/store at pc 0x%08x (%s), MDT entry %d, since cycle %llu, and have not come "
                         "back (the warp never issued that pc again at stack level %d nor re-converged)\n",
                    (unsigned long long)s->cycle, i, k, u->warp[k].tid0, a, x->pc, where, e,
                    (unsigned long long)since, d->depth[k]);
            return 1;
        }
    }
    return 0;
}

const mech_ops_t dom_mech = {
    .name = "dom",
    .init_wpu = dom_init_wpu,
    .free_wpu = dom_free_wpu,
    .launch = dom_launch,
    .before_issue = dom_before_issue,
    .after_issue = dom_after_issue,
    .clock = dom_clock,
    .next_ready = dom_next_ready,
    .check_wpu = dom_check_wpu,
    .held = dom_held,
    .watch = dom_watch,
};
