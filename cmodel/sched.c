#include "sched.h"

void sched_init(sched_t *s, int policy, int nslots)
{
    s->policy = policy;
    s->nslots = nslots;
    s->last = nslots - 1; /* slot 0 goes first */
}

/* The group that issued last while it may keep the pipeline (see
 * switch_on), else loose round-robin: the first ready slot after it. */
int sched_pick(sched_t *s, const uint64_t *avail, uint64_t now)
{
    if (s->stay && avail[s->last] <= now) return s->last;
    for (int i = 1, k = s->last; i <= s->nslots; i++) {
        if (++k == s->nslots) k = 0;
        if (avail[k] <= now) {
            s->last = k;
            return k;
        }
    }
    return -1;
}

int sched_pick_prio(sched_t *s, const uint64_t *avail, const uint32_t *key, uint64_t now)
{
    if (s->stay && avail[s->last] <= now) return s->last;
    int best = -1;
    uint32_t bk = UINT32_MAX;
    for (int i = 1, k = s->last; i <= s->nslots; i++) {
        if (++k == s->nslots) k = 0;
        if (avail[k] <= now && key[k] < bk) best = k, bk = key[k];
    }
    if (best >= 0) s->last = best;
    return best;
}
