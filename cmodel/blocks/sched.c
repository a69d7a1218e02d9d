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
