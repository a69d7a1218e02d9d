/* SIMD groups as the scheduler sees them: when each can issue next, the
 * lanes it holds, where each stands (reports). Used by every part of the
 * pipeline and the mechanisms; calls only the mechanisms' next_ready hooks. */
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

static const char *wait_name(int wait)
{
    switch (wait) {
    case WAIT_MEM: return "memory";
    case WAIT_BARRIER: return "barrier";
    case WAIT_FETCH: return "fetch";
    case WAIT_SYNC: return "re-convergence point";
    default: return "ready";
    }
}

/* Every SIMD group of warp w: where it is and what it waits for (the
 * watchdog's and, through DWS, the deadlock report's lines). */
void group_report(const struct wsim *s, const warp_t *w, FILE *out)
{
    char where[128], mask[WSIM_MAX_LANES / 4 + 2];
    const wpu_t *u = &s->wpu[w->wpu];
    for (int k = 0; k < u->ngrp; k++) {
        const group_t *g = &u->grp[k];
        if (g->w != w) continue;
        const rentry_t *t = rs_top(g->rs);
        program_describe_pc(s->prog, t->pc, where, sizeof where);
        wmask_hex(&t->mask, s->warp_size, mask);
        fprintf(out, "    group %d (%s): pc 0x%08x (%s) lanes %s, waits for %s%s, ready at cycle %llu\n", k,
                g->rs == &w->rs ? "root" : "split", t->pc, where, mask, wait_name(g->wait),
                g->slotted ? "" : ", no scheduler slot", (unsigned long long)g->ready_at);
    }
}
