/* Diverge on miss: the pipeline's side (seed 002 §4-§5; docs/dom.md). The
 * memory divergence table (with its MCB status) is a block
 * (blocks/mdt.c); this file decides its one operation per clock and its
 * fill, reaching it only through its ports.
 *
 * Model. dom = on needs dws = off: every warp is one SIMD group running
 * from its re-convergence stack. When a load/store of a warp diverges (some
 * threads hit, some miss) and the table takes it, the missing threads are
 * masked off: they leave the top entry of the warp's stack (the joins below
 * still hold them, as they hold every thread of the paths above them) and
 * wait in the MDT entry of the instruction's PC. The functional core
 * executed the instruction for them already, so logically they stand at
 * PC + 4, inside that stack entry: their level, re-converging at its PC R.
 * They come back in one of two ways:
 *   - re-activation (§4.1 step 5): the warp issues the same PC again and
 *     their line is back (MCB status rdy): they join the top entry after
 *     the instruction, at PC + 4 like the others, and the threads that hit.
 *     The top may be deeper than their level when every stack entry in
 *     between is a join (dom_rejoin = pc): a loop's exit test that some
 *     threads took pushed the rest of the loop, and "diverged lanes can
 *     normally reconverge on the next iteration of the loop" (§4.3). They
 *     go back into those joins too;
 *   - forced re-convergence (§4.3): their level ends (the stack falls below
 *     it: its threads reach R, return or exit), or the warp reaches a
 *     barrier or a call (footnote 2; dom_branch_sync: a conditional branch)
 *     at their level or above it through joins. They go back on the stack
 *     as entries of their own {PC + 4, R} (at a barrier or call: its PC)
 *     that run first; the warp waits for their values.
 * Why it is correct: a thread only resumes at PC + 4 of its own load/store,
 * in an entry that re-converges at a PC that post-dominates it (R, or a
 * join's PC: the group reached PC from that join's branch without passing
 * it), and every entry below it that it pops into holds it.
 *
 * The slip limit (dom_slip = fixed, adaptive) is the adaptive slip
 * controller block (blocks/asc.c, 002 §5), reached through its ports: its
 * block_o makes the table refuse (the warp blocks), its limit_o threads are
 * disabled (dom_limit = disable: held in the table at their load/store until
 * they are off the limit), every load/store of a warp is one event for its
 * slip counters, a warp's re-assignment clears them, and (adaptive) every
 * dom_period cycles adaptive diff moves the max slip. dom_max_slip = 0 is
 * the blocking baseline: every divergent load/store blocks and the
 * controller is not used. */
#include <stdlib.h>
#include <string.h>

#include "blocks/asc.h"
#include "blocks/mdt.h"
#include "core.h"
#include "mech/mech.h"
#include "timeline.h"

typedef struct dom_wpu {
    block_inst_t mdt; /* the MDT block: its C model or its RTL (block_new) */
    mdt_config_t cfg;
    mdt_in_t in;   /* this clock's inputs */
    mdt_out_t out; /* ... and outputs (out.q: the entries) */
    int m, entries, ws;
    /* per thread of every warp ([warps * warp_size]), while it is masked off: */
    uint64_t *ready;     /* when its value is back (its line's completion in the memory system) */
    uint64_t *masked_at; /* when it was masked off (the watchdog) */
    int *lv;             /* the stack level it was masked at (0: not masked) */
    uint32_t *rp;        /* ... that level's re-convergence PC R */
    uint8_t *callee;     /* ... and that level is a function's base entry (the one above a call site) */
    uint32_t *mpc;       /* --check's shadow: the PC it was masked at */
    uint64_t *minst;     /* ... and its instruction count then */
    int *hi;             /* [warps]: the highest level with a masked thread (0: none) */
    char bad[320];       /* --check: a broken invariant seen while it happened (reported at the clock's end) */
    uint64_t *fill_at;   /* [entries]: first cycle a waiting thread's value is back; NEVER: none waits */
    uint64_t next_fill;  /* the least fill_at */
    /* the adaptive slip controller (dom_slip = fixed, adaptive): its block,
     * this clock's inputs and outputs (aout.q: the counters, the max slip) */
    block_inst_t asc;
    asc_config_t asc_cfg;
    asc_in_t ain;
    asc_out_t aout;
    uint64_t next_sample; /* adaptive: the end of the sampling period (NEVER: none) */
    uint64_t p_cycle, p_issue, p_memwait, p_bytes; /* the counts at the period's start */
    uint8_t *maxes; /* the max slip after each period (the statistics) */
    size_t nmaxes, capmaxes;
} dom_wpu_t;

#define DM(u) ((dom_wpu_t *)(u)->mstate[MECH_DOM])

/* ---- the table's ports ---- */

/* This clock's search: warp k, pc. The operation is decided after. */
static void look(dom_wpu_t *d, int k, uint32_t pc)
{
    d->in.warp = (uint16_t)k;
    d->in.pc = pc;
    block_eval(&d->mdt, &d->in, &d->out);
}

static void op(dom_wpu_t *d, int code, int idx, wmask_t mask, wmask_t keep)
{
    d->in.op = (uint8_t)code;
    d->in.idx = (uint8_t)idx;
    d->in.mask = mask;
    d->in.keep = keep;
}

/* Per-thread state of warp k, lane l. */
static inline size_t at(const dom_wpu_t *d, int k, int l) { return (size_t)k * d->ws + (size_t)l; }

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
    dom_wpu_t *d = DM(u);
    asc_in_t *in = &d->ain;
    uint64_t bytes = memsys_dram_bytes(&s->ms);
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
    dom_wpu_t *d = DM(u);
    if (!d->asc.blk) return;
    if (d->next_sample <= s->cycle) sample(s, u);
    if (!d->ain.mem && !d->ain.clr && !d->ain.sample) return;
    block_eval(&d->asc, &d->ain, &d->aout);
    if (d->ain.sample) {
        u->st.dom_raise += d->aout.dir == ASC_RAISE;
        u->st.dom_lower += d->aout.dir == ASC_LOWER;
    }
    block_clock(&d->asc, s->cycle, &d->ain, &d->aout);
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
    dom_wpu_t *d = DM(u);
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
    block_eval(&d->mdt, &d->in, &d->out);
    block_clock(&d->mdt, s->cycle, &d->in, &d->out);
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
    const dom_wpu_t *d = DM(u);
    uint64_t at = d->next_fill < d->next_sample ? d->next_fill : d->next_sample;
    return at < nr ? at : nr;
}

/* ---- the stack levels of masked threads ---- */

/* The lowest stack level a group on top of w's stack reaches through joins:
 * levels j .. depth-1 each wait at the re-convergence PC of the level above
 * (a join holds every thread of the paths above it; a path waiting to run,
 * or a call site, is not one). A masked thread of a level at or above it is
 * on the top group's path. dom_rejoin = level: the top's level only. */
static int reach_floor(const struct wsim *s, const rstack_t *rs)
{
    int j = rs->depth;
    if (s->cfg.dom_rejoin == CFG_DOM_REJOIN_PC)
        while (j > 1 && !rs->e[j - 2].callsite && rs->e[j - 2].pc == rs->e[j - 1].rpc) j--;
    return j;
}

/* The threads of `masked` (warp k's) masked at level lo or above. */
static wmask_t at_or_above(const dom_wpu_t *d, int k, wmask_t masked, int lo)
{
    if (lo <= 1) return masked;
    wmask_t r = wmask_none();
    WMASK_FOREACH(masked, l) if (d->lv[at(d, k, l)] >= lo) wmask_set(&r, l);
    return r;
}

/* The highest level of warp k's masked threads `masked`. */
static void set_hi(dom_wpu_t *d, int k, wmask_t masked)
{
    int h = 0;
    WMASK_FOREACH(masked, l) if (d->lv[at(d, k, l)] > h) h = d->lv[at(d, k, l)];
    d->hi[k] = h;
}

/* Threads `lanes` of w leave the table and go back into the stack entries
 * from their level up to the top (the joins between and the top: the
 * entries that lost them). */
static void unmask(dom_wpu_t *d, warp_t *w, wmask_t lanes)
{
    const int k = w->slot, top = w->rs.depth;
    int lo = top;
    WMASK_FOREACH(lanes, l) if (d->lv[at(d, k, l)] < lo) lo = d->lv[at(d, k, l)];
    wmask_t acc = wmask_none();
    for (int v = lo; v <= top; v++) {
        WMASK_FOREACH(lanes, l) if (d->lv[at(d, k, l)] == v) wmask_set(&acc, l);
        w->rs.e[v - 1].mask = wmask_or(w->rs.e[v - 1].mask, acc);
    }
    WMASK_FOREACH(lanes, l) d->lv[at(d, k, l)] = 0;
}

/* --check: threads leave the table to resume at `pc` at cycle `resume` at
 * the earliest: right after their own load/store (its value captured once),
 * with that value back, not having executed anything since they were
 * masked. */
static void check_leave(const struct wsim *s, dom_wpu_t *d, const warp_t *w, wmask_t lanes, uint32_t pc,
                        uint64_t resume, const char *how)
{
    if (!s->cfg.check || d->bad[0]) return;
    const int k = w->slot;
    WMASK_FOREACH(lanes, l) {
        const size_t i = at(d, k, l);
        const char *why = d->mpc[i] + 4 != pc ? "not right after its own load/store"
                        : d->ready[i] > resume ? "before its value is back"
                        : w->th[l].instret != d->minst[i] ? "having executed instructions while masked" : NULL;
        if (why)
            snprintf(d->bad, sizeof d->bad, "warp %d thread %d (masked at pc 0x%08x, instret %llu, value back at "
                     "cycle %llu) %s to resume at pc 0x%08x at cycle %llu, instret %llu: %s", k, l, d->mpc[i],
                     (unsigned long long)d->minst[i], (unsigned long long)d->ready[i], how, pc,
                     (unsigned long long)resume, (unsigned long long)w->th[l].instret, why);
    }
}

/* ---- forced re-convergence (§4.3) ---- */

/* Threads `lanes` of g's warp go back on the stack, one entry per MDT entry
 * at its PC + 4, re-converging at `rpc` (or, rpc = 0, at the re-convergence
 * PC of their own level); `here`: the top entry, at rpc, takes them back
 * too (with the joins below it down to their level). One operation: the
 * lanes leave every entry of the warp. The warp waits for their values. */
static void force(struct wsim *s, wpu_t *u, group_t *g, wmask_t lanes, uint32_t rpc, int here)
{
    dom_wpu_t *d = DM(u);
    warp_t *w = g->w;
    const int k = w->slot;
    const mdt_state_t *q = d->out.q;
    uint64_t ready = 0;
    int callee = 0;
    WMASK_FOREACH(lanes, l) {
        const size_t i = at(d, k, l);
        if (d->ready[i] > ready) ready = d->ready[i];
        callee |= !here && d->callee[i] && d->lv[i] == w->rs.depth + 1;
    }
    if (ready > g->ready_at) {
        g->ready_at = ready;
        g->wait = WAIT_MEM;
    }
    if (g->ready_at < s->cycle + s->cfg.pipeline_depth) g->ready_at = s->cycle + s->cfg.pipeline_depth;
    if (here) unmask(d, w, lanes);
    /* their level was a function's base entry and it returned: the call site
     * on top (which settling marked as no call site any more) is where the
     * masked threads return to */
    if (callee) rs_top(&w->rs)->callsite = 1;
    for (int e = k * d->m; e < (k + 1) * d->m; e++) {
        wmask_t left = wmask_and(wmask_or(q->e[e].wait, q->e[e].rdy), lanes);
        const uint32_t after = q->e[e].pc + 4;
        if (wmask_any(&left)) TIMELINE(s, tl_event(s, u, k, TL_DOM_FORCE, tl_mdt_key(u, e), left, e));
        while (wmask_any(&left)) { /* (one level's threads share its rpc) */
            const uint32_t r = rpc ? rpc : d->rp[at(d, k, wmask_lowest(&left))];
            wmask_t sub = wmask_none();
            WMASK_FOREACH(left, l) if (rpc || d->rp[at(d, k, l)] == r) wmask_set(&sub, l);
            left = wmask_andnot(left, sub);
            check_leave(s, d, w, sub, after, g->ready_at, "forced back");
            /* at r already: the entry below (or the top) holds them there */
            if (after != r) rs_push(&w->rs, after, r, sub);
        }
    }
    if (!here) WMASK_FOREACH(lanes, l) d->lv[at(d, k, l)] = 0;
    exec_count_depth(u, &w->rs);
    op(d, MDT_OP_FORCE, 0, lanes, wmask_none());
    set_hi(d, k, wmask_andnot(d->out.wlanes, lanes));
    u->st.dom_forced++;
    u->st.dom_forced_lanes += (uint64_t)wmask_count(&lanes);
}

/* ---- the slip limit (002 §5.1) ---- */

/* The controller's view of warp k this clock: the threads it considers (the
 * top group's and the masked ones on its path). */
static void asc_look(dom_wpu_t *d, int k, wmask_t act)
{
    d->ain.warp = (uint16_t)k;
    d->ain.act = act;
    block_eval(&d->asc, &d->ain, &d->aout);
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
    dom_wpu_t *d = DM(u);
    const int k = root->w->slot;
    d->hi[k] = 0;
    /* a slot re-assigned: its slip counters clear (§5.1); the first warps
     * find them cleared by reset */
    if (d->asc.blk && !initial) {
        d->ain.warp = (uint16_t)k;
        d->ain.clr = 1;
        d->ain.mem = 0;
    }
}

/* Whether every path from `from` passes `to` before it leaves the function
 * (`to` post-dominates `from`): the post-dominator chain, one instruction's
 * successor at a time (a branch: its re-convergence PC; a call: the
 * instruction after it). */
static int postdominated(const program_t *p, uint32_t from, uint32_t to)
{
    uint32_t pc = from;
    for (int n = 0; n < 1 << 16; n++) {
        if (pc == to) return 1;
        const isa_insn_t *d = program_insn(p, pc);
        if (!d) return 0;
        switch (d->cls) {
        case ISA_CLASS_BRANCH: pc = d->ipdom; break;
        case ISA_CLASS_JAL: pc = d->flags & ISA_F_CALL ? pc + 4 : d->target; break;
        case ISA_CLASS_JALR:
            if (d->flags & ISA_F_CALL) pc += 4;
            else if (d->flags & ISA_F_PAIRED) pc = d->target;
            else return 0; /* a return */
            break;
        case ISA_CLASS_EBREAK: case ISA_CLASS_ILLEGAL: return 0;
        default: pc += 4;
        }
        if (pc == ISA_RPC_EXIT) return 0;
    }
    return 0;
}

/* A barrier, a call (002 §4 footnote 2: synchronizing conditions) or, with
 * dom_branch_sync, a conditional branch (001 §5.7's Slip, where the stack
 * needs every thread's outcome) with masked threads on the group's path:
 * they come back first, re-converging here, so that every thread arrives
 * (the clock goes to the table). Threads masked behind a path still to run
 * are not on it: they stay (a barrier there is in divergent code). Every
 * thread reaches a barrier, and with dom_branch_sync the group passed no
 * conditional branch since their load/store; a call, only the threads whose
 * load/store it post-dominates (in a loop: the call after the load, on
 * every path) are sure to reach: the others stay (they may never call). */
static int dom_before_issue(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *ins)
{
    dom_wpu_t *d = DM(u);
    warp_t *w = g->w;
    const int k = w->slot;
    if (!ins || !d->hi[k]) return 0;
    const int call = ins->cls != ISA_CLASS_BARRIER && (ins->flags & ISA_F_CALL);
    if (ins->cls != ISA_CLASS_BARRIER && !call && !(ins->cls == ISA_CLASS_BRANCH && s->cfg.dom_branch_sync))
        return 0;
    uint32_t pc = rs_top(&w->rs)->pc;
    look(d, k, pc);
    wmask_t lanes = at_or_above(d, k, d->out.wlanes, reach_floor(s, &w->rs));
    if (call)
        for (int e = k * d->m; e < (k + 1) * d->m; e++) {
            const mdt_entry_t *x = &d->out.q->e[e];
            if (x->valid && !postdominated(s->prog, x->pc + 4, pc))
                lanes = wmask_andnot(lanes, wmask_or(x->wait, x->rdy));
        }
    if (!wmask_any(&lanes)) return 0;
    force(s, u, g, lanes, pc, 1);
    group_sync_avail(u, g);
    u->next_ready = s->cycle + 1;
    return 1;
}

/* A load/store: search its PC's entry, then merge, allocate, re-activate,
 * disable or block (§4.1 steps 3-5, §5.1, §6). */
static void access(struct wsim *s, wpu_t *u, group_t *g, const issue_t *is)
{
    dom_wpu_t *d = DM(u);
    warp_t *w = g->w;
    const int k = w->slot;
    const mem_result_t *r = is->r;
    rentry_t *top = rs_top(&w->rs);
    const int level = w->rs.depth;
    const wmask_t masked = d->out.wlanes;
    /* the masked threads on this group's path (every one but those behind a
     * path still to run; dom_rejoin = level: those of this level) */
    const wmask_t near = d->hi[k] ? at_or_above(d, k, masked, reach_floor(s, &w->rs)) : wmask_none();
    const wmask_t active = wmask_and(is->lanes_before, w->live);
    const wmask_t hit = wmask_and(r->hit, active), miss = wmask_and(r->miss, active);
    const wmask_t rdy = d->out.hit ? wmask_and(d->out.hit_rdy, near) : wmask_none();
    /* the slip controller: blocked when a considered thread is at its limit */
    int blocked = s->cfg.dom_slip != CFG_DOM_SLIP_NONE && !s->cfg.dom_max_slip;
    wmask_t limit = wmask_none();
    const wmask_t act = wmask_or(active, near);
    if (d->asc.blk) {
        asc_look(d, k, act);
        blocked = d->aout.block;
        if (s->cfg.dom_limit == CFG_DOM_LIMIT_DISABLE) limit = d->aout.limit;
    }
    /* dom_rejoin = level: one level per warp's table */
    const int level_ok = s->cfg.dom_rejoin == CFG_DOM_REJOIN_PC || wmask_eq(&near, &masked);
    const int room = level_ok && (d->out.hit || (d->out.free && !d->out.mcb_full));
    /* threads at the slip limit are disabled (§6): those issuing now wait at
     * this PC (only into the table, and only while a thread is left to
     * run), those ready here stay; the others re-join with the hits */
    const wmask_t back = wmask_andnot(rdy, limit);
    wmask_t off = wmask_and(active, limit);
    if (wmask_any(&off)) {
        const wmask_t left = wmask_or(wmask_andnot(active, off), back);
        if (!room || !wmask_any(&left)) off = wmask_none();
    }
    const wmask_t go_hit = wmask_andnot(hit, off), go_miss = wmask_andnot(miss, off);
    const int divergent = wmask_any(&go_miss) && (wmask_any(&go_hit) || wmask_any(&back)); /* 002's */
    if (d->asc.blk && divergent) {
        unsigned c = max_counter(d, k, act);
        if (c == 0) u->st.dom_slip_0++;
        else if (c == 1) u->st.dom_slip_1++;
        else if (c < 4) u->st.dom_slip_2_3++;
        else if (c < 8) u->st.dom_slip_4_7++;
        else if (c < 16) u->st.dom_slip_8_15++;
        else u->st.dom_slip_16_up++;
    }
    wmask_t wait = off; /* the threads masked off now */
    if (divergent) {
        if (!level_ok || (!d->out.hit && !d->out.free)) u->st.dom_refused_full++;
        else if (blocked) u->st.dom_refused_slip++;
        else if (!d->out.hit && d->out.mcb_full) u->st.dom_mcb_full++;
        else wait = wmask_or(wait, go_miss);
    }
    if (d->asc.blk && !d->ain.clr) { /* every load/store is an event of the warp's slip counters */
        d->ain.mem = 1;
        d->ain.div = wmask_any(&wait) && !wmask_eq(&wait, &off);
        d->ain.dvg = wmask_any(&near);
        d->ain.hit = wmask_and(go_hit, act);
        d->ain.miss = wmask_and(go_miss, act);
    }
    int code = MDT_OP_NONE, idx = 0;
    if (wmask_any(&wait)) {
        if (d->out.hit) {
            code = MDT_OP_MERGE, idx = d->out.hit_idx;
            if (!wmask_eq(&wait, &off)) u->st.dom_merges++;
        } else {
            code = MDT_OP_ALLOC, idx = d->out.free_idx;
            if (!wmask_eq(&wait, &off)) u->st.dom_allocs++;
        }
    } else if (wmask_any(&back)) {
        code = MDT_OP_MERGE, idx = d->out.hit_idx;
    }
    if (!code) return;
    op(d, code, idx, wait, wmask_andnot(d->out.hit_rdy, back));
    /* (a slip is a divergent access's misses masked off, as dom_allocs and
     * dom_merges count it; threads disabled at the slip limit alone are not) */
    TIMELINE(s, tl_dom(s, u, k, code, idx, wmask_eq(&wait, &off) ? wmask_none() : wait, back, d->out.q->e[idx].wait,
                       d->out.q->e[idx].rdy));
    if (wmask_any(&back)) {
        check_leave(s, d, w, back, top->pc, s->cycle, "re-activated");
        int deep = 0;
        WMASK_FOREACH(back, l) deep |= d->lv[at(d, k, l)] != level;
        u->st.dom_reactivations++;
        u->st.dom_deep_reactivations += (uint64_t)deep;
        u->st.dom_reactivated_lanes += (uint64_t)wmask_count(&back);
        unmask(d, w, back);
    }
    if (wmask_any(&wait)) {
        /* the threads wait in the MCB entry: when each one's line is back */
        const int callee = level >= 2 && w->rs.e[level - 2].callsite;
        WMASK_FOREACH(wait, l) {
            const size_t i = at(d, k, l);
            d->ready[i] = mem_lane_ready(r, l);
            d->masked_at[i] = s->cycle;
            d->lv[i] = level;
            d->rp[i] = top->rpc;
            d->callee[i] = (uint8_t)callee;
            d->mpc[i] = is->pc;
            d->minst[i] = w->th[l].instret;
        }
        top->mask = wmask_andnot(top->mask, wait);
        u->st.dom_masked_lanes += (uint64_t)wmask_count(&wait);
        u->st.dom_disabled += (uint64_t)wmask_count(&off);
        /* the others go on once their data is there: the hits' (and, when
         * the limit held some threads back but the misses block, those) */
        uint64_t at_ = s->cycle + 1;
        const wmask_t slipped = wmask_andnot(wait, off);
        if (wmask_any(&off) && !wmask_eq(&go_miss, &slipped)) {
            wmask_t rest = wmask_andnot(active, wait);
            WMASK_FOREACH(rest, l) if (mem_lane_ready(r, l) > at_) at_ = mem_lane_ready(r, l);
        } else if (r->hit_ready > at_) {
            at_ = r->hit_ready;
        }
        g->ready_at = at_;
        if (g->ready_at < s->cycle + s->cfg.pipeline_depth) g->ready_at = s->cycle + s->cfg.pipeline_depth;
    }
    set_hi(d, k, wmask_or(wmask_andnot(masked, back), wait));
}

static void dom_after_issue(struct wsim *s, wpu_t *u, group_t *g, const issue_t *is)
{
    dom_wpu_t *d = DM(u);
    warp_t *w = g->w;
    const int k = w->slot;
    if (d->hi[k] > w->rs.depth) {
        /* a level with masked threads ended: they re-join the stack */
        look(d, k, is->pc);
        force(s, u, g, at_or_above(d, k, d->out.wlanes, w->rs.depth + 1), 0, 0);
        return;
    }
    if (!is->r || w->rs.depth != is->depth) return; /* not a load/store, or its threads faulted */
    look(d, k, is->pc);
    access(s, u, g, is);
}

/* ---- creation ---- */

static int dom_init_wpu(struct wsim *s, wpu_t *u, char *err, size_t errlen)
{
    dom_wpu_t *d = mech_state_new(u, MECH_DOM, sizeof *d, "the memory divergence table", err, errlen);
    if (!d) return -1;
    d->m = (int)s->cfg.dom_entries;
    d->ws = s->warp_size;
    d->cfg = (mdt_config_t){.warps = s->nwarps, .m = d->m, .width = s->warp_size, .pc_bits = 32,
                            .mcb = (int)(s->cfg.dom_mcb ? s->cfg.dom_mcb : (uint64_t)s->nwarps * s->cfg.dom_entries)};
    d->entries = s->nwarps * d->m;
    if (block_new(s, &d->mdt, &mdt_block_ops, &d->cfg, u->id, err, errlen) < 0) return -1;
    if (s->cfg.dom_slip != CFG_DOM_SLIP_NONE && s->cfg.dom_max_slip) {
        d->asc_cfg = (asc_config_t){.width = s->warp_size, .warps = s->nwarps, .cnt_bits = 8,
                                    .max0 = (int)s->cfg.dom_max_slip};
        if (block_new(s, &d->asc, &asc_block_ops, &d->asc_cfg, u->id, err, errlen) < 0) return -1;
        asc_look(d, 0, wmask_none());
    }
    d->next_sample = s->cfg.dom_slip == CFG_DOM_SLIP_ADAPTIVE && d->asc.blk ? s->cfg.dom_period : NEVER;
    size_t n = (size_t)s->nwarps * (size_t)d->ws;
    d->ready = calloc(n, sizeof *d->ready);
    d->masked_at = calloc(n, sizeof *d->masked_at);
    d->lv = calloc(n, sizeof *d->lv);
    d->rp = calloc(n, sizeof *d->rp);
    d->callee = calloc(n, 1);
    d->mpc = calloc(n, sizeof *d->mpc);
    d->minst = calloc(n, sizeof *d->minst);
    d->hi = calloc((size_t)s->nwarps, sizeof *d->hi);
    d->fill_at = calloc((size_t)d->entries, sizeof *d->fill_at);
    if (!d->ready || !d->masked_at || !d->lv || !d->rp || !d->callee || !d->mpc || !d->minst || !d->hi ||
        !d->fill_at)
        goto oom;
    for (int e = 0; e < d->entries; e++) d->fill_at[e] = NEVER;
    d->next_fill = NEVER;
    look(d, 0, 0);
    return 0;
oom:
    snprintf(err, errlen, "out of host memory for the memory divergence table");
    return -1;
}

static void dom_free_wpu(struct wsim *s, wpu_t *u)
{
    (void)s;
    dom_wpu_t *d = DM(u);
    if (!d) return;
    block_free(&d->mdt);
    free(d->ready);
    free(d->masked_at);
    block_free(&d->asc);
    free(d->maxes);
    free(d->lv);
    free(d->rp);
    free(d->callee);
    free(d->mpc);
    free(d->minst);
    free(d->hi);
    free(d->fill_at);
    free(d);
    u->mstate[MECH_DOM] = NULL;
}

static void dom_stats(const struct wsim *s, const stats_t *t, FILE *out, int json)
{
    (void)s;
    if (json) return; /* (its counters are stats.def's; the max slip per period: dom_stats_run) */
    fprintf(out, "  diverge on miss       MDT allocations %llu, merges %llu (%llu threads masked off); "
                 "re-activations %llu (%llu threads); forced re-convergences %llu (%llu threads); blocked: "
                 "table full %llu, slip limit %llu, MCB full %llu; MCB fills %llu; adaptive periods %llu "
                 "(raised %llu, lowered %llu), mean max slip %.2f\n",
            (unsigned long long)t->dom_allocs, (unsigned long long)t->dom_merges,
            (unsigned long long)t->dom_masked_lanes, (unsigned long long)t->dom_reactivations,
            (unsigned long long)t->dom_reactivated_lanes, (unsigned long long)t->dom_forced,
            (unsigned long long)t->dom_forced_lanes, (unsigned long long)t->dom_refused_full,
            (unsigned long long)t->dom_refused_slip, (unsigned long long)t->dom_mcb_full,
            (unsigned long long)t->dom_fills, (unsigned long long)t->dom_periods,
            (unsigned long long)t->dom_raise, (unsigned long long)t->dom_lower,
            t->dom_periods ? (double)t->dom_max_slip_sum / (double)t->dom_periods : 0.0);
}

/* Per sampling period, the max slip after it, averaged over the WPUs (they
 * sample at the same cycles: a period ends at the same clock on every WPU). */
static void dom_stats_run(const struct wsim *s, FILE *out)
{
    size_t n = 0;
    for (int i = 0; i < s->nwpus; i++)
        if (DM(&s->wpu[i])->nmaxes > n) n = DM(&s->wpu[i])->nmaxes;
    fprintf(out, "  \"dom_max_slip\": [");
    for (size_t p = 0; p < n; p++) {
        double sum = 0;
        int k = 0;
        for (int i = 0; i < s->nwpus; i++)
            if (p < DM(&s->wpu[i])->nmaxes) sum += DM(&s->wpu[i])->maxes[p], k++;
        fprintf(out, "%s%.2f", p ? ", " : "", sum / k);
    }
    fprintf(out, "],\n");
}

/* ---- --check and the watchdog ---- */

static wmask_t dom_held(const struct wsim *s, const wpu_t *u, const warp_t *w)
{
    (void)s;
    const dom_wpu_t *d = DM(u);
    const mdt_state_t *q = d->out.q;
    wmask_t m = wmask_none();
    for (int e = w->slot * d->m; e < (w->slot + 1) * d->m; e++)
        if (q->e[e].valid) m = wmask_or(m, wmask_or(q->e[e].wait, q->e[e].rdy));
    return m;
}

/* The stack's nesting, which DoM edits (masking, re-joining, forcing): an
 * entry waiting at the re-convergence PC of the one above it (a join) or a
 * call site holds every thread of it; two entries re-converging at the same
 * PC, the lower not waiting there, are paths of one branch: no thread in
 * both. */
static int check_nesting(const struct wsim *s, const wpu_t *u, const warp_t *w, char *msg, size_t len)
{
    char a[WSIM_MAX_LANES / 4 + 2];
    const rstack_t *rs = &w->rs;
    for (int j = 1; j < rs->depth; j++) {
        const rentry_t *lo = &rs->e[j - 1], *hi = &rs->e[j];
        wmask_t bad = wmask_none();
        const char *what = NULL;
        if (lo->callsite || lo->pc == hi->rpc) bad = wmask_andnot(hi->mask, lo->mask), what = "not in the join below";
        else if (lo->rpc == hi->rpc) bad = wmask_and(hi->mask, lo->mask), what = "also in the other path below";
        if (!wmask_any(&bad)) continue;
        wmask_hex(&bad, s->warp_size, a);
        snprintf(msg, len, "WPU %d warp %d: threads %s of stack entry %d (pc 0x%08x, re-converging at 0x%08x) are %s "
                 "(entry %d: pc 0x%08x, re-converging at 0x%08x)", u->id, w->slot, a, j + 1, hi->pc, hi->rpc, what, j,
                 lo->pc, lo->rpc);
        return 1;
    }
    return 0;
}

/* The DoM invariants: each thread is exactly one of active (its group's
 * top entry), masked in one MDT entry, parked below on the stack, at a
 * barrier (in the group) or exited (check.c has the partition of the
 * rest); a masked thread is in no stack entry from its level up, in one
 * below it, its level is still on the stack with its re-convergence PC,
 * its MDT entry is its load/store's PC, and it executes nothing until it
 * leaves (which check_leave sees: at that PC + 4, with its value back);
 * the table's MCB status agrees with the memory system; the counters are
 * within their bounds. */
static int dom_check_wpu(const struct wsim *s, const wpu_t *u, char *msg, size_t len)
{
    const dom_wpu_t *d = DM(u);
    const mdt_state_t *q = d->out.q;
    char a[WSIM_MAX_LANES / 4 + 2];
    int nvalid = 0;
    if (d->bad[0]) {
        snprintf(msg, len, "WPU %d %s", u->id, d->bad);
        return 1;
    }
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
            uint64_t first = NEVER;
            WMASK_FOREACH(x->wait, lane) if (r[lane] < first) first = r[lane];
            if (first != d->fill_at[e]) {
                snprintf(msg, len, "WPU %d MDT entry %d: its next fill is at cycle %llu, the shadow says %llu", u->id,
                         e, (unsigned long long)first, (unsigned long long)d->fill_at[e]);
                return 1;
            }
            /* each thread: masked at this entry's PC, nothing executed since */
            WMASK_FOREACH(lanes, lane) {
                const size_t i = at(d, k, lane);
                if (d->mpc[i] != x->pc || w->th[lane].instret != d->minst[i]) {
                    snprintf(msg, len, "WPU %d warp %d thread %d: in MDT entry %d (pc 0x%08x), masked at pc 0x%08x "
                             "with instret %llu, now %llu", u->id, k, lane, e, x->pc, d->mpc[i],
                             (unsigned long long)d->minst[i], (unsigned long long)w->th[lane].instret);
                    return 1;
                }
            }
        }
        if (w->gid < 0) continue;
        if (check_nesting(s, u, w, msg, len)) return 1;
        /* the levels: each masked thread's, none for the others, the highest */
        int h = 0;
        for (int lane = 0; lane < d->ws; lane++) {
            const size_t i = at(d, k, lane);
            const int in = wmask_test(&seen, lane), v = d->lv[i];
            if (in && v > h) h = v;
            if (in != (v > 0)) {
                snprintf(msg, len, "WPU %d warp %d thread %d: %s the table, its level is %d", u->id, k, lane,
                         in ? "in" : "not in", v);
                return 1;
            }
            if (!in) continue;
            /* its level still on the stack with its re-convergence PC; not in
             * an entry from there up; held by one below (level 1: by none) */
            const char *why = NULL;
            int held = 0;
            for (int j = 0; j < w->rs.depth; j++)
                if (wmask_test(&w->rs.e[j].mask, lane)) {
                    if (j >= v - 1) { why = "it is in the stack entry of its level or above"; break; }
                    held = 1;
                }
            if (!why && (v > w->rs.depth || w->rs.e[v - 1].rpc != d->rp[i])) why = "its level is gone";
            if (!why && v >= 2 && !held) why = "no stack entry below its level holds it";
            if (!why && !wmask_test(&w->live, lane)) why = "it exited";
            if (why) {
                snprintf(msg, len, "WPU %d warp %d thread %d, masked at stack level %d (re-converging at 0x%08x), the "
                         "stack %d deep: %s", u->id, k, lane, v, d->rp[i], w->rs.depth, why);
                return 1;
            }
        }
        if (h != d->hi[k]) {
            snprintf(msg, len, "WPU %d warp %d: its highest masked level is %d, the mechanism says %d", u->id, k, h,
                     d->hi[k]);
            return 1;
        }
    }
    /* the controller's counters: the max slip within its bounds, no
     * counter of an empty slot or a thread past the warp */
    if (d->asc.blk) {
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

/* Masked threads that have not come back for `watchdog` cycles and never
 * will. A long wait is legal: threads masked at a load/store that the warp
 * does not issue again (one before a loop, or the loop's last pass) come back
 * when their level ends (the stack falls below it: after_issue forces them)
 * or at a barrier or call, however long the others run until then (a kernel's
 * whole pixel loop: rt at 512 x 512). So the wait is a loss only when
 * nothing can end it: their level is no longer on the stack as they left it
 * (it ended without forcing them), or the warp has stopped issuing (nothing
 * moves its stack; outside a barrier the warp's own watchdog would name it,
 * at one the barrier waits for them). */
static int dom_watch(const struct wsim *s, FILE *out)
{
    char a[WSIM_MAX_LANES / 4 + 2], where[128], why[160];
    for (int i = 0; i < s->nwpus; i++) {
        const wpu_t *u = &s->wpu[i];
        const dom_wpu_t *d = DM(u);
        for (int e = 0; e < d->entries; e++) {
            const mdt_entry_t *x = &d->out.q->e[e];
            if (!x->valid) continue;
            const int k = e / d->m;
            const warp_t *w = &u->warp[k];
            wmask_t lanes = wmask_or(x->wait, x->rdy);
            uint64_t since = NEVER;
            WMASK_FOREACH(lanes, lane) if (d->masked_at[at(d, k, lane)] < since) since = d->masked_at[at(d, k, lane)];
            if (s->cycle - since <= s->cfg.watchdog) continue;
            why[0] = 0;
            int lv = d->lv[at(d, k, wmask_lowest(&lanes))];
            WMASK_FOREACH(lanes, lane) {
                const size_t j = at(d, k, lane);
                if (d->lv[j] < 1 || d->lv[j] > w->rs.depth || w->rs.e[d->lv[j] - 1].rpc != d->rp[j]) {
                    lv = d->lv[j];
                    snprintf(why, sizeof why, "their level %d (re-converging at 0x%08x) ended without them: the "
                             "stack is %d deep", d->lv[j], d->rp[j], w->rs.depth);
                    break;
                }
            }
            if (!why[0] && s->cycle - w->last_issue > s->cfg.watchdog)
                snprintf(why, sizeof why, "their level is %d and the warp has issued nothing since cycle %llu", lv,
                         (unsigned long long)w->last_issue);
            if (!why[0]) continue; /* the warp runs on in their level: they come back when it ends */
            wmask_hex(&lanes, s->warp_size, a);
            program_describe_pc(s->prog, x->pc, where, sizeof where);
            fprintf(out, "wpusim: watchdog at cycle %llu: WPU %d warp %d (threads %u..): threads %s were masked off "
                         "at the load/store at pc 0x%08x (%s), MDT entry %d, since cycle %llu, and cannot come "
                         "back: %s\n",
                    (unsigned long long)s->cycle, i, k, w->tid0, a, x->pc, where, e, (unsigned long long)since, why);
            return 1;
        }
    }
    return 0;
}

const mech_ops_t dom_mech = {
    .name = "dom",
    .apart = "dom = on (diverge on miss)",
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
    .stats = dom_stats,
    .stats_run = dom_stats_run,
};
