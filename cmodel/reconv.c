#include "reconv.h"

#include <stdio.h>
#include <stdlib.h>

#include "isa.h"

void rs_init(rstack_t *rs) { *rs = (rstack_t){0}; }
void rs_free(rstack_t *rs)
{
    join_detach(rs);
    free(rs->e);
    *rs = (rstack_t){0};
}

static void push(rstack_t *rs, uint32_t pc, uint32_t rpc, wmask_t mask)
{
    if (rs->depth == rs->cap) {
        int cap = rs->cap ? 2 * rs->cap : 16;
        rentry_t *e = realloc(rs->e, (size_t)cap * sizeof *e);
        if (!e) { /* (as mem.c: the host ran out, not the program) */
            fprintf(stderr, "wpusim: out of host memory growing a re-convergence stack to %d entries\n", cap);
            exit(2);
        }
        rs->e = e, rs->cap = cap;
    }
    rs->e[rs->depth++] = (rentry_t){pc, rpc, mask, 0};
    if (rs->depth > rs->max_depth) rs->max_depth = rs->depth;
}

void rs_settle(rstack_t *rs)
{
    if (rs->j) return;
    while (rs->depth > 0) {
        rentry_t *t = rs_top(rs);
        if (!wmask_any(&t->mask) || t->pc == t->rpc) { rs->depth--; continue; }
        t->callsite = 0; /* a call site on top has all its threads back */
        break;
    }
}

void join_reset(rstack_t *rs, uint32_t pc, wmask_t mask);
void rs_reset(rstack_t *rs, uint32_t pc, wmask_t mask)
{
    if (rs->j) { join_reset(rs, pc, mask); return; }
    rs->depth = 0;
    push(rs, pc, ISA_RPC_EXIT, mask);
}

void join_branch(rstack_t *rs, wmask_t taken, wmask_t fall_mask, uint32_t target, uint32_t fall);
void rs_branch(rstack_t *rs, wmask_t taken, wmask_t fall_mask, uint32_t target, uint32_t fall, uint32_t ipdom)
{
    if (rs->j) { join_branch(rs, taken, fall_mask, target, fall); return; }
    rentry_t *t = rs_top(rs);
    if (t->rpc == ipdom) rs->depth--; /* same join point: the entry below already waits there */
    else t->pc = ipdom;               /* the top entry becomes the join */
    if (fall != ipdom) push(rs, fall, ipdom, fall_mask);
    if (target != ipdom) push(rs, target, ipdom, taken);
    rs_settle(rs);
}

void join_call(rstack_t *rs, int n, const uint32_t *targets, const wmask_t *masks);
void rs_call(rstack_t *rs, uint32_t ret_pc, int n, const uint32_t *targets, const wmask_t *masks)
{
    if (rs->j) { join_call(rs, n, targets, masks); return; }
    rentry_t *t = rs_top(rs);
    t->pc = ret_pc;
    t->callsite = 1;
    for (int i = n - 1; i >= 0; i--) push(rs, targets[i], ISA_RPC_EXIT, masks[i]);
}

uint32_t rs_return_pc(const rstack_t *rs)
{
    for (int i = rs->depth - 2; i >= 0; i--)
        if (rs->e[i].callsite) return rs->e[i].pc;
    return ISA_RPC_EXIT;
}

void rs_return(rstack_t *rs, wmask_t lanes)
{
    for (int i = rs->depth - 1; i >= 0 && !rs->e[i].callsite; i--)
        rs->e[i].mask = wmask_andnot(rs->e[i].mask, lanes);
    rs_settle(rs);
}

void join_remove(rstack_t *rs, wmask_t lanes);
void rs_remove(rstack_t *rs, wmask_t lanes)
{
    if (rs->j) { join_remove(rs, lanes); return; }
    for (int i = 0; i < rs->depth; i++) rs->e[i].mask = wmask_andnot(rs->e[i].mask, lanes);
    rs_settle(rs);
}

void rs_push(rstack_t *rs, uint32_t pc, uint32_t rpc, wmask_t mask) { push(rs, pc, rpc, mask); }

void rs_park(rstack_t *rs, wmask_t lanes)
{
    rentry_t *t = rs_top(rs);
    t->mask = wmask_andnot(t->mask, lanes);
    rs_settle(rs);
}

void rs_start(rstack_t *rs, uint32_t pc, uint32_t rpc, wmask_t mask)
{
    rs->depth = 0;
    push(rs, pc, rpc, mask);
}

void rs_fold(rstack_t *rs, rstack_t *own)
{
    rs->depth--;
    for (int i = 0; i < own->depth; i++) {
        push(rs, own->e[i].pc, own->e[i].rpc, own->e[i].mask);
        rs_top(rs)->callsite = own->e[i].callsite;
    }
    own->depth = 0;
}
