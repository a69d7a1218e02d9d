/* Per-warp re-convergence stack (immediate post-dominator based; seed 004
 * §2.3, seed 001 §4.1), extended with call frames so that divergence inside
 * called functions, early returns and recursion re-converge correctly.
 *
 * Each entry is a SIMD group: {pc, rpc, mask}. The top entry runs. An entry
 * whose pc reaches its rpc is popped: its threads are parked in the entry
 * below, which waits at that pc. A call turns the caller's entry into a call
 * site waiting at the return address and pushes the callee's group; a return
 * removes its threads from every entry of the callee's frame, so the call
 * site resumes once all its threads have returned (or exited). Branches whose
 * paths only meet at the function's return use rpc = ISA_RPC_EXIT. */
#ifndef WSIM_RECONV_H
#define WSIM_RECONV_H

#include <stdint.h>

#include "mask.h"

typedef struct rentry {
    uint32_t pc, rpc;
    wmask_t mask;
    uint8_t callsite; /* waiting at a return address for its callee's threads */
} rentry_t;

typedef struct rstack {
    rentry_t *e;
    int depth, cap, max_depth;
} rstack_t;

void rs_init(rstack_t *rs);
void rs_free(rstack_t *rs);
void rs_reset(rstack_t *rs, uint32_t pc, wmask_t mask);

static inline rentry_t *rs_top(rstack_t *rs) { return &rs->e[rs->depth - 1]; }

/* Pop finished groups (no lanes left, or at their re-convergence PC) until
 * the top one can run. */
void rs_settle(rstack_t *rs);
/* The running group moved on to pc (all of it). Inline, once per issue: in
 * the common case the top entry runs on and nothing pops (settle's first
 * look, without a call). */
static inline void rs_goto(rstack_t *rs, uint32_t pc)
{
    rentry_t *t = rs_top(rs);
    t->pc = pc;
    if (pc != t->rpc && wmask_any(&t->mask)) {
        t->callsite = 0; /* a call site on top has all its threads back */
        return;
    }
    rs_settle(rs);
}
/* Divergent branch of the top group: taken lanes to target, the rest to fall. */
void rs_branch(rstack_t *rs, wmask_t taken, wmask_t fall_mask, uint32_t target, uint32_t fall, uint32_t ipdom);
/* The top group calls: it waits at ret_pc; each (target, mask) runs in turn. */
void rs_call(rstack_t *rs, uint32_t ret_pc, int n, const uint32_t *targets, const wmask_t *masks);
/* Lanes of the top group return. Returns the call site's return address, or
 * ISA_RPC_EXIT (0xffffffff) when there is no call on the stack. */
uint32_t rs_return_pc(const rstack_t *rs);
void rs_return(rstack_t *rs, wmask_t lanes);
/* Lanes leave the warp (exit or fault). */
void rs_remove(rstack_t *rs, wmask_t lanes);

/* Diverge on miss (mech/dom.c): forced re-convergence puts masked-off
 * threads back on the stack as a group of their own that runs first. */
void rs_push(rstack_t *rs, uint32_t pc, uint32_t rpc, wmask_t mask);

/* Dynamic warp subdivision (dws.c). */
/* Lanes of a split reached the re-convergence PC of the top entry: they
 * leave it and wait in the entry below (as a popped top entry's do). */
void rs_park(rstack_t *rs, wmask_t lanes);
/* A split's own stack: one base entry. */
void rs_start(rstack_t *rs, uint32_t pc, uint32_t rpc, wmask_t mask);
/* The warp is one group again: its split's own stack replaces the top entry
 * (which holds exactly the split's lanes); own is left empty. */
void rs_fold(rstack_t *rs, rstack_t *own);

#endif
