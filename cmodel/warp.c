/* Warps in their slots and the threads in them: launch, threads that leave
 * (exit or fault), and the global barrier, which releases every WPU's
 * waiting groups. Called by the machine and the WPU pipeline; calls down
 * into the mechanisms' hooks (launch, barriers) and the memory system
 * (bulk-synchronous flushes) only. */
#include <string.h>

#include "core.h"
#include "mech/mech.h"
#include "timeline.h"

/* Warp gid starts in slot w of WPU u with group root as its root. */
void warp_launch(struct wsim *s, int gid, wpu_t *u, warp_t *w, group_t *root, int initial)
{
    /* its lanes: warp_size consecutive threads (the fixed grid), or the
     * packed warps of partition gid (an irregular grid, grid.c) */
    const int lanes = grid_partition_lanes(s, gid, w->meta);
    w->gid = gid;
    w->tid0 = w->meta[0].tid;
    w->vl = lanes;
    memset(w->th, 0, (size_t)s->warp_size * sizeof *w->th);
    /* stack colouring: neighbouring lanes' frames in different sets and banks,
     * over the SIMD width (at least 32 positions, as many as fit; docs/abi.md) */
    const uint32_t colours = wsim_config_stack_colours(&s->cfg);
    for (int l = 0; l < lanes; l++) {
        thread_t *t = &w->th[l];
        uint32_t tid = w->meta[l].tid;
        t->x[10] = tid;
        t->x[11] = s->nthreads;
        t->x[2] = (uint32_t)(s->cfg.stack_top - (uint64_t)tid * s->cfg.stack_size - (tid % colours) * s->cfg.stack_color);
        s->tstate[tid] = TS_RUNNING;
    }
    w->live = wmask_first(lanes);
    w->at_barrier = wmask_none();
    rs_reset(&w->rs, s->prog->entry, w->live);
    w->ngroups = 1;
    w->last_issue = s->cycle;
    root->w = w;
    root->rs = &w->rs;
    root->ready_at = s->cycle;
    root->wait = WAIT_NONE;
    root->fetch = (ifetch_slot_t){0};
    root->resume = root->go = root->after_barrier = 0;
    root->pend_hit = wmask_none();
    u->live_groups++;
    if (!mech_slots(s)) root->slotted = 1;
    MECH_CALL(s, launch, s, u, root, initial);
    group_sync_avail(u, root);
    TIMELINE(s, tl_event(s, u, w->slot, TL_LAUNCH, -1, w->live, gid));
    u->st.warps_launched++;
    s->resident_warps++;
    if (u->vc) u->vc->pend_alloc |= 1u << w->slot; /* (vector core: it waits for its register block) */
}

static void barrier_release(struct wsim *s)
{
    s->roi_pending |= s->roi_arrived; /* (marked at the end of this cycle: roi.c) */
    s->roi_arrived = 0;
    /* bulk-synchronous caches write back and invalidate at every global barrier */
    uint64_t at = memsys_barrier_flush(&s->ms, s->cycle + 1);
    for (int i = 0; i < s->nwpus; i++) {
        wpu_t *u = &s->wpu[i];
        for (int k = 0; k < s->nwarps; k++) {
            u->warp[k].at_barrier = wmask_none();
            /* a wait at the barrier is no silence for the watchdog: it counts from the release */
            if (u->warp[k].gid >= 0) u->warp[k].last_issue = s->cycle;
            if (u->warp[k].rs.j && u->warp[k].gid >= 0) join_release(&u->warp[k].rs); /* reconv = join */
        }
        int released = 0;
        for (int k = 0; k < u->ngrp; k++) {
            group_t *g = &u->grp[k];
            if (g->w && g->wait == WAIT_BARRIER) {
                released++;
                g->wait = WAIT_NONE;
                g->ready_at = at;
                MECH_CALL(s, barrier_release, s, u, g);
                group_sync_avail(u, g);
            }
        }
        TIMELINE(s, tl_event(s, u, -1, TL_BARRIER_RELEASE, -1, wmask_none(), released));
        wpu_refresh_next_ready(s, u);
    }
    s->barrier_arrived = 0;
}

void warp_barrier_arrive(struct wsim *s, group_t *g, wmask_t lanes, uint32_t pc)
{
    warp_t *w = g->w;
    wpu_t *u = &s->wpu[w->wpu];
    TIMELINE(s, tl_event(s, u, w->slot, TL_BARRIER_ARRIVE, -1, lanes, g->id));
    /* reconv = join: the warp goes on with lanes that wait elsewhere, if any */
    if (!w->rs.j || !wmask_any(&rs_top(&w->rs)->mask)) {
        g->wait = WAIT_BARRIER;
        MECH_CALL(s, barrier_wait, s, u, g);
        group_sync_avail(u, g);
    }
    w->at_barrier = wmask_or(w->at_barrier, lanes);
    w->barrier_pc = pc;
    const isa_insn_t *d = program_insn(s->prog, pc);
    if (d->op == ISA_OP_wsim_roi_begin) s->roi_arrived |= ROI_BEGIN;
    else if (d->op == ISA_OP_wsim_roi_end) s->roi_arrived |= ROI_END;
    s->barrier_arrived += (uint32_t)wmask_count(&lanes);
    if (s->barrier_arrived >= s->live_threads) barrier_release(s);
}

/* A thread leaves its warp (it exited, or faulted: fault_report marked it). */
void warp_thread_leaves(struct wsim *s, warp_t *w, int lane)
{
    s->instret[w->meta[lane].tid] = w->th[lane].instret;
    wmask_clear(&w->live, lane);
    s->live_threads--;
    if (s->barrier_arrived && s->barrier_arrived >= s->live_threads) barrier_release(s);
}
