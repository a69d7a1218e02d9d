/* SIMD groups as the scheduler sees them: when each can issue next, and
 * the lanes it holds. Used by every part of the pipeline; calls nothing. */
#include "core.h"

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
    /* ReviveSplit: a suspended group's hits become ready to run ahead */
    if (s->cfg.dws && s->cfg.dws_mem == CFG_DWS_MEM_REVIVE && !u->revive_blocked)
        for (int k = 0; k < u->ngrp; k++) {
            const group_t *g = &u->grp[k];
            if (g->w && g->wait == WAIT_MEM && wmask_any(&g->pend_hit) && g->ready_at > s->cycle + 1) {
                uint64_t t = g->hit_ready > s->cycle + 1 ? g->hit_ready : s->cycle + 1;
                if (t < nr) nr = t;
            }
        }
    u->next_ready = nr;
}
