/* SIMD groups as the scheduler sees them: when each can issue next, and
 * the lanes it holds. Used by every part of the pipeline; calls only the
 * mechanisms' next_ready hooks. */
#include "core.h"
#include "mech/mech.h"

wmask_t group_lanes(const group_t *g)
{
    if (!group_is_split(g)) return rs_top(g->rs)->mask;
    wmask_t m = wmask_none();
    for (int i = 0; i < g->own.depth; i++) m = wmask_or(m, g->own.e[i].mask);
    return m;
}

void wpu_refresh_next_ready(const struct wsim *s, wpu_t *u)
{
    uint64_t nr = NEVER;
    for (int k = 0; k < u->ngrp; k++)
        if (u->avail[k] < nr) nr = u->avail[k];
    if (nr != NEVER && nr < u->blocked_until) nr = u->blocked_until;
    u->next_ready = mech_next_ready(s, u, nr);
}
