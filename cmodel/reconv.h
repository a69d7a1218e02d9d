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

#include <stddef.h>
#include <stdint.h>

#include "mask.h"

typedef struct rentry {
    uint32_t pc, rpc;
    wmask_t mask;
    uint8_t callsite; /* waiting at a return address for its callee's threads */
} rentry_t;

struct join_state;

typedef struct rstack {
    rentry_t *e;
    int depth, cap, max_depth;
    /* reconv = join (join.c, 003 §IV-A): no stack but a candidate PC per
     * lane; e[0] holds the running lanes, depth is 1 while any lane lives.
     * NULL: the stack above. Every rs_ function hands over to join.c. */
    struct join_state *j;
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
void join_goto(rstack_t *rs, uint32_t pc);
static inline void rs_goto(rstack_t *rs, uint32_t pc)
{
    if (__builtin_expect(rs->j != NULL, 0)) { join_goto(rs, pc); return; }
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

/* ---- reconv = join (join.c): Lorie-Strong JOIN nodes, 003 §IV-A ----
 * Every lane holds a candidate PC (and its call depth). The running lanes
 * share one PC; at a divergent branch, call or return the lanes go to their
 * own PCs and the warp picks the lanes of one PC: the deepest call first,
 * then the earliest in the function's reverse post-order (a topological
 * order of its control-flow graph without back edges). When the running
 * lanes arrive at a JOIN node (a branch's post-dominator or a call's return
 * address: ISA_F_JOIN) and lanes wait at an earlier point, they wait there
 * and the warp takes those first; when no lane remains running, an inactive
 * lane's PC is taken (003: "the PC of an inactive thread is picked up as
 * the warp's sole PC"). */
typedef struct join_state {
    int lanes;
    uint32_t *cpc;    /* [lanes] a waiting lane's candidate PC */
    uint16_t *dep;    /* [lanes] its call depth */
    wmask_t pend;     /* lanes waiting at their cpc */
    wmask_t held;     /* of them, lanes at a barrier (not picked until its release) */
    uint16_t cur_dep; /* the running lanes' call depth */
    uint8_t arrived;  /* the last move reached a JOIN node (a JOIN test: timing) */
    const struct join_prog *p;
    uint64_t tests, switches; /* JOIN tests, and tests or divergences that changed the running lanes */
} join_state_t;
typedef struct join_prog { /* what the program's analysis gives join.c */
    const uint8_t *join_at;  /* per code word: a JOIN node */
    const uint32_t *rpo;     /* per code word: reverse post-order number in its function */
    uint32_t code_lo;
    uint64_t code_hi;
} join_prog_t;

/* Attach join state to rs (lanes wide); -1 when out of memory. */
int join_attach(rstack_t *rs, int lanes, const join_prog_t *p);
void join_detach(rstack_t *rs);
/* Lanes return from a call, each to its own ra (targets[lane]); lanes at call
 * depth 0 are returned in *nocall and not moved (the caller faults them). */
void join_return(rstack_t *rs, wmask_t lanes, const uint32_t *targets, wmask_t *nocall);
/* Lanes executed a barrier: they wait at pc, held until join_release; the
 * warp goes on with other waiting lanes if any. */
void join_barrier(rstack_t *rs, wmask_t lanes, uint32_t pc);
/* The barrier released: held lanes may run again. */
void join_release(rstack_t *rs);

#endif
