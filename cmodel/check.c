/* --check: invariants verified after every clock. Every warp's SIMD
 * groups, the threads parked on its re-convergence stack and its exited
 * threads partition its threads; each split re-converges at its warp
 * stack's top; with DWS, the warp-split table mirrors the groups (the
 * mechanism's own checks). A shared mistake of the C block and its RTL
 * breaks these. */
#include <stdlib.h>

#include "core.h"
#include "mech/mech.h"

/* Test hook (WSIM_CHECK_INJECT=CYCLE): drop a thread from a group of WPU 0
 * at CYCLE, so that the tests see --check fail; a mechanism may corrupt its
 * block's output instead (its inject hook: the fetch arbiter's priority
 * order with two or more fetch groups). */
static void inject(struct wsim *s)
{
    if (!s->check_inject || s->cycle < s->check_inject) return;
    s->check_inject = 0;
    if (mech_inject(s, &s->wpu[0])) return; /* a mechanism's block output instead */
    for (int k = 0; k < s->wpu[0].ngrp; k++) {
        group_t *g = &s->wpu[0].grp[k];
        if (!g->w) continue;
        wmask_t lost = wmask_none();
        wmask_set(&lost, wmask_lowest(&rs_top(g->rs)->mask));
        rs_remove(g->rs, lost);
        if (g->rs != &g->w->rs) rs_remove(&g->w->rs, lost);
        break;
    }
}

/* What one pass over a WPU's groups gathers for each warp: the lanes its
 * groups run, those its splits run and hold on their own stacks, and how
 * many groups and roots it has. */
struct check_warp_sum {
    wmask_t running, held, splits;
    int n, roots;
};

/* JOIN re-convergence: the running lanes and the waiting ones partition the live lanes */
static int check_join(const struct wsim *s, const wpu_t *u, const warp_t *w, char *msg, size_t len)
{
    char a[WSIM_MAX_LANES / 4 + 2], b[WSIM_MAX_LANES / 4 + 2];
    const join_state_t *j = w->rs.j;
    wmask_t run = w->rs.e[0].mask, both = wmask_and(run, j->pend), all = wmask_or(run, j->pend);
    wmask_t stray = wmask_andnot(j->held, j->pend);
    if (wmask_any(&both) || wmask_any(&stray) || !wmask_eq(&all, &w->live) || w->rs.depth != wmask_any(&all)) {
        wmask_hex(&all, s->warp_size, a);
        wmask_hex(&w->live, s->warp_size, b);
        snprintf(msg, len, "WPU %d warp %d: running and waiting lanes %s (overlapping: %d, held not waiting: %d), "
                 "live lanes %s", u->id, w->slot, a, wmask_any(&both), wmask_any(&stray), b);
        return 1;
    }
    return 0;
}

/* One group of a stack-reconverging warp: its lanes in no other group, a
 * split's stack re-converging at its warp stack's top; added to its warp's sum. */
static int check_group(const struct wsim *s, const wpu_t *u, int j, struct check_warp_sum *c, char *msg, size_t len)
{
    char a[WSIM_MAX_LANES / 4 + 2];
    const group_t *g = &u->grp[j];
    const warp_t *w = g->w;
    c->n++;
    wmask_t lanes = group_lanes(g);
    wmask_t both = wmask_and(c->running, lanes);
    if (wmask_any(&both)) {
        wmask_hex(&both, s->warp_size, a);
        snprintf(msg, len, "WPU %d warp %d: lanes %s are in two SIMD groups (group %d)", u->id, w->slot, a, j);
        return 1;
    }
    c->running = wmask_or(c->running, lanes);
    if (group_is_split(g)) {
        if (g->own.depth < 1 || g->own.e[0].rpc != w->rs.e[w->rs.depth - 1].rpc) {
            snprintf(msg, len, "WPU %d warp %d group %d: its stack (depth %d) re-converges at 0x%08x, "
                     "the warp stack's top at 0x%08x", u->id, w->slot, j, g->own.depth,
                     g->own.depth ? g->own.e[0].rpc : 0, w->rs.e[w->rs.depth - 1].rpc);
            return 1;
        }
        c->splits = wmask_or(c->splits, lanes);
        for (int e = 0; e < g->own.depth; e++) c->held = wmask_or(c->held, g->own.e[e].mask);
    } else {
        c->roots++;
    }
    MECH_CHECK(s, check_group, s, u, g, msg, len);
    return 0;
}

/* A warp's groups, parked threads and stack against its live threads. */
static int check_warp(const struct wsim *s, const wpu_t *u, const warp_t *w, struct check_warp_sum *c, char *msg,
                      size_t len)
{
    char a[WSIM_MAX_LANES / 4 + 2], b[WSIM_MAX_LANES / 4 + 2];
    const int i = u->id, k = w->slot;
    if (c->n != w->ngroups || c->n == 0 || (c->roots && c->n != 1)) {
        snprintf(msg, len, "WPU %d warp %d: %d SIMD groups (%d roots), the warp counts %d", i, k, c->n, c->roots,
                 w->ngroups);
        return 1;
    }
    const wmask_t top = w->rs.e[w->rs.depth - 1].mask;
    wmask_t held = c->held;
    for (int e = 0; e < w->rs.depth; e++) held = wmask_or(held, w->rs.e[e].mask);
    held = wmask_or(held, mech_held(s, u, w)); /* DoM: threads masked off in the MDT */
    if (!c->roots && !wmask_eq(&c->splits, &top)) {
        wmask_hex(&c->splits, s->warp_size, a);
        wmask_hex(&top, s->warp_size, b);
        snprintf(msg, len, "WPU %d warp %d: its splits hold lanes %s, its stack's top %s", i, k, a, b);
        return 1;
    }
    if (!wmask_eq(&held, &w->live)) {
        wmask_hex(&held, s->warp_size, a);
        wmask_hex(&w->live, s->warp_size, b);
        snprintf(msg, len, "WPU %d warp %d: groups and stack hold lanes %s, live lanes are %s "
                 "(a thread lost, duplicated or exited but still held)", i, k, a, b);
        return 1;
    }
    return 0;
}

/* A WPU in one pass over its groups, then one over its warps: O(groups +
 * warps) a clock, where a pass over the groups for each warp was O(groups x
 * warps) (32 warps under LWM and 2Lev, and as many groups). The sums live in
 * the machine's scratch, allocated once. */
static int check_wpu(struct wsim *s, const wpu_t *u, char *msg, size_t len)
{
    struct check_warp_sum *sum = s->check_sum;
    for (int k = 0; k < s->nwarps; k++) sum[k] = (struct check_warp_sum){.n = 0};
    for (int j = 0; j < u->ngrp; j++) {
        const warp_t *w = u->grp[j].w;
        if (!w || w->gid < 0 || w->rs.j) continue;
        if (check_group(s, u, j, &sum[w->slot], msg, len)) return 1;
    }
    for (int k = 0; k < s->nwarps; k++) {
        const warp_t *w = &u->warp[k];
        if (w->gid < 0) continue;
        if (w->rs.j ? check_join(s, u, w, msg, len) : check_warp(s, u, w, &sum[k], msg, len)) return 1;
    }
    return 0;
}

int check_machine(struct wsim *s, char *msg, size_t len)
{
    inject(s);
    if (!s->check_sum && !(s->check_sum = calloc((size_t)s->nwarps, sizeof *s->check_sum))) {
        snprintf(msg, len, "out of memory for --check's sums of %d warps", s->nwarps);
        return 1;
    }
    for (int i = 0; i < s->nwpus; i++) {
        const wpu_t *u = &s->wpu[i];
        if (check_wpu(s, u, msg, len)) return 1;
        MECH_CHECK(s, check_wpu, s, u, msg, len);
    }
    return 0;
}
