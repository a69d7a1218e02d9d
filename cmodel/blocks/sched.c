/* Group scheduler: evaluate and clock steps (see sched.h). */
#include "sched.h"

#include <stdio.h>

int sched_init(sched_t *t, const sched_config_t *c, char *err, size_t errlen)
{
    if (c->slots < 1 || c->slots > SCHED_MAX_SLOTS || c->prio < 0 || c->prio > 1) {
        snprintf(err, errlen, "scheduler: slots must be 1..%d and prio 0 or 1 (slots=%d prio=%d)", SCHED_MAX_SLOTS,
                 c->slots, c->prio);
        return -1;
    }
    t->cfg = *c;
    sched_reset(t);
    return 0;
}

void sched_reset(sched_t *t)
{
    t->q.last = (uint16_t)(t->cfg.slots - 1); /* slot 0 goes first */
    t->q.stay = 0;
}

static int is_ready(const sched_in_t *in, int k) { return (in->ready[k >> 6] >> (k & 63)) & 1; }

void sched_eval(const sched_t *t, const sched_in_t *in, sched_out_t *out)
{
    const int n = t->cfg.slots;
    const int from = in->retry ? in->prev : t->q.last;
    out->grant = 0;
    out->grant_idx = 0;
    if (!in->retry && t->q.stay && is_ready(in, t->q.last)) {
        out->grant = 1;
        out->grant_idx = t->q.last;
        return;
    }
    /* round-robin order after `from`; with prio, the lowest key in that order */
    uint32_t best_key = UINT32_MAX;
    for (int i = 1, k = from; i <= n; i++) {
        if (++k == n) k = 0;
        if (!is_ready(in, k)) continue;
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

void sched_clock(sched_t *t, const sched_in_t *in)
{
    if (in->upd) t->q.last = in->last;
    if (in->stay_we) t->q.stay = in->stay;
}
