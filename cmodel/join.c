/* JOIN re-convergence (reconv = join): Lorie and Strong's JOIN nodes as 003
 * §IV-A uses them, instead of the post-dominator stack (reconv.h has the
 * rule). The running lanes are the stack's top entry e[0], so the
 * functional core and the pipeline see one SIMD group as they do with the
 * stack; the lanes that wait hold a candidate PC each (003's "one more
 * data register holds a candidate PC per thread"). */
#include <stdlib.h>

#include "isa.h"
#include "reconv.h"

int join_attach(rstack_t *rs, int lanes, const join_prog_t *p)
{
    join_state_t *j = calloc(1, sizeof *j);
    if (!j || !(j->cpc = calloc((size_t)lanes, sizeof *j->cpc)) || !(j->dep = calloc((size_t)lanes, sizeof *j->dep))) {
        if (j) free(j->cpc), free(j);
        return -1;
    }
    if (rs->cap < 1) {
        rentry_t *e = realloc(rs->e, 16 * sizeof *e);
        if (!e) {
            free(j->cpc), free(j->dep), free(j);
            return -1;
        }
        rs->e = e, rs->cap = 16;
    }
    j->lanes = lanes;
    j->p = p;
    rs->j = j;
    return 0;
}

void join_detach(rstack_t *rs)
{
    if (!rs->j) return;
    free(rs->j->cpc);
    free(rs->j->dep);
    free(rs->j);
    rs->j = NULL;
}

static inline int is_join(const join_prog_t *p, uint32_t pc)
{
    uint32_t off = pc - p->code_lo;
    return !(pc & 3) && pc >= p->code_lo && (uint64_t)pc < p->code_hi && p->join_at[off >> 2];
}

static inline uint32_t rpo_of(const join_prog_t *p, uint32_t pc)
{
    uint32_t off = pc - p->code_lo;
    return !(pc & 3) && pc >= p->code_lo && (uint64_t)pc < p->code_hi ? p->rpo[off >> 2] : UINT32_MAX;
}

/* a goes first: the deeper call, then the earlier point of its function */
static inline int before(const join_prog_t *p, uint32_t apc, int adep, uint32_t bpc, int bdep)
{
    if (adep != bdep) return adep > bdep;
    uint32_t ra = rpo_of(p, apc), rb = rpo_of(p, bpc);
    return ra != rb ? ra < rb : apc < bpc;
}

static void wait_at(join_state_t *j, wmask_t lanes, uint32_t pc, int dep)
{
    WMASK_FOREACH(lanes, l) j->cpc[l] = pc, j->dep[l] = (uint16_t)dep;
    j->pend = wmask_or(j->pend, lanes);
}

/* The running lanes are the waiting lanes of the first (PC, depth) that is
 * not held at a barrier; none: the warp runs nothing (all held, or gone). */
static void pick(rstack_t *rs)
{
    join_state_t *j = rs->j;
    wmask_t can = wmask_andnot(j->pend, j->held);
    rentry_t *t = &rs->e[0];
    t->mask = wmask_none();
    rs->depth = wmask_any(&j->pend) ? 1 : 0;
    if (!wmask_any(&can)) return;
    int best = -1;
    WMASK_FOREACH(can, l)
        if (best < 0 || before(j->p, j->cpc[l], j->dep[l], j->cpc[best], j->dep[best])) best = l;
    const uint32_t pc = j->cpc[best];
    const int dep = j->dep[best];
    wmask_t run = wmask_none();
    WMASK_FOREACH(can, l) if (j->cpc[l] == pc && j->dep[l] == dep) wmask_set(&run, l);
    j->pend = wmask_andnot(j->pend, run);
    t->pc = pc, t->rpc = ISA_RPC_EXIT, t->mask = run, t->callsite = 0;
    j->cur_dep = (uint16_t)dep;
    rs->depth = 1;
}

void join_reset(rstack_t *rs, uint32_t pc, wmask_t mask)
{
    join_state_t *j = rs->j;
    j->pend = j->held = wmask_none();
    j->cur_dep = 0;
    j->arrived = 0;
    rs->e[0] = (rentry_t){pc, ISA_RPC_EXIT, mask, 0};
    rs->depth = wmask_any(&mask) ? 1 : 0;
    if (rs->max_depth < 1) rs->max_depth = 1;
}

/* The running lanes moved to pc together. At a JOIN node they wait there
 * when lanes wait at an earlier point (the test 003 inserts), and every
 * lane waiting at this very point joins them. */
void join_goto(rstack_t *rs, uint32_t pc)
{
    join_state_t *j = rs->j;
    rentry_t *t = &rs->e[0];
    t->pc = pc;
    j->arrived = 0;
    if (!wmask_any(&t->mask)) { pick(rs); return; }
    if (!is_join(j->p, pc)) return;
    j->arrived = 1;
    j->tests++;
    wmask_t can = wmask_andnot(j->pend, j->held);
    if (!wmask_any(&can)) return;
    const wmask_t was = t->mask;
    wait_at(j, t->mask, pc, j->cur_dep);
    pick(rs);
    if (!(rs->e[0].pc == pc && wmask_eq(&rs->e[0].mask, &was))) j->switches++;
}

void join_branch(rstack_t *rs, wmask_t taken, wmask_t fall_mask, uint32_t target, uint32_t fall)
{
    join_state_t *j = rs->j;
    j->arrived = 0;
    wait_at(j, taken, target, j->cur_dep);
    wait_at(j, fall_mask, fall, j->cur_dep);
    pick(rs);
    j->switches++;
}

void join_call(rstack_t *rs, int n, const uint32_t *targets, const wmask_t *masks)
{
    join_state_t *j = rs->j;
    j->arrived = 0;
    if (n == 1) { /* the common case: every running lane calls one function */
        rs->e[0].pc = targets[0];
        j->cur_dep++;
        return;
    }
    for (int i = 0; i < n; i++) wait_at(j, masks[i], targets[i], j->cur_dep + 1);
    pick(rs);
    j->switches++;
}

void join_return(rstack_t *rs, wmask_t lanes, const uint32_t *targets, wmask_t *nocall)
{
    join_state_t *j = rs->j;
    j->arrived = 0;
    *nocall = wmask_none();
    if (j->cur_dep == 0) { /* no call to return from: the caller faults them */
        *nocall = lanes;
        return;
    }
    uint32_t first = targets[wmask_lowest(&lanes)];
    int same = wmask_eq(&lanes, &rs->e[0].mask);
    WMASK_FOREACH(lanes, l) same &= targets[l] == first;
    j->cur_dep--;
    if (same) { join_goto(rs, first); return; }
    WMASK_FOREACH(lanes, l) { /* (running lanes that do not return faulted: the caller removes them) */
        wmask_t one = wmask_none();
        wmask_set(&one, l);
        wait_at(j, one, targets[l], j->cur_dep);
    }
    pick(rs);
    j->switches++;
}

void join_remove(rstack_t *rs, wmask_t lanes)
{
    join_state_t *j = rs->j;
    j->pend = wmask_andnot(j->pend, lanes);
    j->held = wmask_andnot(j->held, lanes);
    rs->e[0].mask = wmask_andnot(rs->e[0].mask, lanes);
    if (!wmask_any(&rs->e[0].mask)) pick(rs);
}

void join_barrier(rstack_t *rs, wmask_t lanes, uint32_t pc)
{
    join_state_t *j = rs->j;
    j->arrived = 0;
    rs->e[0].mask = wmask_andnot(rs->e[0].mask, lanes);
    wait_at(j, lanes, pc, j->cur_dep);
    j->held = wmask_or(j->held, lanes);
    if (!wmask_any(&rs->e[0].mask)) {
        pick(rs);
        if (!wmask_any(&rs->e[0].mask)) rs->e[0].pc = pc; /* all at the barrier: the warp waits there */
    }
}

void join_release(rstack_t *rs)
{
    join_state_t *j = rs->j;
    j->held = wmask_none();
    if (!wmask_any(&rs->e[0].mask)) pick(rs);
}
