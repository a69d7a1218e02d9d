/* Group scheduler — a block (DESIGN.md, block rule): picks the SIMD group
 * of one WPU that issues. Today's policies: loose round-robin, the
 * group that issued last keeping the pipeline (switch_on), and keyed
 * priority (the laggard boost and shallowest-warp-first of 000 §5.4,
 * §5.6, which the pipeline turns into keys). Two-level scheduling's fetch
 * arbiter (004 §3.3) is a block of its own (blocks/fetcharb.h), chosen
 * instead of this one at creation (wpu_t.sel).
 *
 * Ports. Early inputs: ready (one bit per slot: the slot can issue now;
 * the C struct carries it as each slot's first ready cycle and the cycle,
 * ready[k] = ready_at[k] <= now, so that the bits are computed only where
 * the search looks: the hot loop runs this once or twice per issue), key
 * (per slot, when cfg.prio: the lowest key wins), retry and prev. The
 * output grant/grant_idx is combinational from them and the registered
 * last_q/stay_q:
 *   - first try of a clock (retry = 0): last_q if stay_q and it is ready,
 *     else the first ready slot after last_q in round-robin order (with
 *     prio: the lowest key among the ready slots, ties in that order);
 *   - a retry (the previous grant, prev, could not issue: its fetch missed
 *     or no MSHR was free, and the pipeline dropped it from ready): the same
 *     search starting after prev, without the stay rule.
 * Late inputs, at the clock edge: upd (a grant happened this clock: last_q
 * becomes last, the final grant) and stay_we/stay (the group that issued
 * keeps the pipeline next clock: switch_on). A clock without upd or stay_we
 * leaves the state unchanged.
 *
 * C model conventions (STYLE.md): one state struct; sched_eval computes the
 * outputs, sched_clock the next state. */
#ifndef WSIM_SCHED_H
#define WSIM_SCHED_H

#include <stddef.h>
#include <stdint.h>

#define SCHED_MAX_SLOTS 1024

typedef struct sched_config {
    int slots; /* N, 1..1024: the WPU's SIMD groups (wpu_t.ngrp: its warps, or as many as a
                  mechanism asks for, e.g. DWS's warp-split table entries) */
    int prio;  /* 0: round-robin only (key ignored); 1: keyed priority */
} sched_config_t;

typedef struct sched_in {
    /* early inputs */
    const uint64_t *ready_at;    /* [slots]: ready[k] = ready_at[k] <= now */
    uint64_t now;
    const uint32_t *key;         /* [slots] (prio): lower first */
    uint8_t retry;               /* a retry within the clock, after prev */
    uint16_t prev;
    /* late inputs */
    uint8_t upd;                 /* last_q <= last */
    uint16_t last;
    uint8_t stay_we;             /* stay_q <= stay */
    uint8_t stay;
} sched_in_t;

typedef struct sched_out {
    uint8_t grant;      /* a slot was picked */
    uint16_t grant_idx;
} sched_out_t;

typedef struct sched_state {
    uint16_t last; /* the slot granted last */
    uint8_t stay;  /* it may keep the pipeline */
} sched_state_t;

typedef struct sched {
    sched_config_t cfg;
    sched_state_t q;
} sched_t;

/* Returns 0, or -1 with a message naming the bad parameter. */
int sched_init(sched_t *t, const sched_config_t *cfg, char *err, size_t errlen);
void sched_reset(sched_t *t);

/* The evaluate and clock steps, inline: they run once or twice per issue. */
static inline int sched_is_ready(const sched_in_t *in, int k) { return in->ready_at[k] <= in->now; }

static inline void sched_eval(const sched_t *t, const sched_in_t *in, sched_out_t *out)
{
    const int n = t->cfg.slots;
    const int from = in->retry ? in->prev : t->q.last;
    out->grant = 0;
    out->grant_idx = 0;
    if (!in->retry && t->q.stay && sched_is_ready(in, t->q.last)) {
        out->grant = 1;
        out->grant_idx = t->q.last;
        return;
    }
    /* round-robin order after `from`; with prio, the lowest key in that order */
    uint32_t best_key = UINT32_MAX;
    for (int i = 1, k = from; i <= n; i++) {
        if (++k == n) k = 0;
        if (!sched_is_ready(in, k)) continue;
        if (!t->cfg.prio) {
            out->grant = 1;
            out->grant_idx = (uint16_t)k;
            return;
        }
        if (in->key[k] < best_key) {
            best_key = in->key[k];
            out->grant = 1;
            out->grant_idx = (uint16_t)k;
        }
    }
}

static inline void sched_clock(sched_t *t, const sched_in_t *in)
{
    if (in->upd) t->q.last = in->last;
    if (in->stay_we) t->q.stay = in->stay;
}

#endif
