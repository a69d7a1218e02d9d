/* Two-level fetch arbiter: evaluate and clock steps (see fetcharb.h,
 * docs/blocks/fetcharb.md), and the block interface around them (block.h),
 * from the port table fetcharb.def. */
#include "fetcharb.h"

#include <stdlib.h>

/* ---- the port table ---- */

int fetcharb_port_width(const fetcharb_config_t *c, int port)
{
#define CLOG2(x) block_clog2(x)
#define MAX(a, b) block_max(a, b)
#define BLOCK_PARAM(NAME, member, doc) const int NAME = c->member; (void)NAME;
#define BLOCK_DERIVED(NAME, expr) const int NAME = (expr); (void)NAME;
#include "fetcharb.def"
    switch (port) {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) case FETCHARB_P_##name: return (width);
#define BLOCK_FIELD(field, ctype, width, doc) case FETCHARB_P_ent_##field: return (width);
#include "fetcharb.def"
    default: return 0;
    }
}

static int entries_of(const fetcharb_config_t *c)
{
#define BLOCK_PARAM(NAME, member, doc) const int NAME = c->member; (void)NAME;
#define BLOCK_DERIVED(NAME, expr) const int NAME = (expr); (void)NAME;
#define BLOCK_ENTRIES(expr) return (expr);
#include "fetcharb.def"
#undef CLOG2
#undef MAX
}

#define FETCHARB_OFFSET_CLOCK(name) 0
#define FETCHARB_OFFSET_RESET(name) 0
#define FETCHARB_OFFSET_EARLY(name) offsetof(fetcharb_in_t, name)
#define FETCHARB_OFFSET_LATE(name) offsetof(fetcharb_in_t, name)
#define FETCHARB_OFFSET_COMB(name) offsetof(fetcharb_out_t, name)
#define FETCHARB_OFFSET_REG(name) offsetof(fetcharb_state_t, name)

static const block_port_t fetcharb_ports[FETCHARB_NPORTS] = {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) \
    {#name, BLOCK_##dir, BLOCK_##timing, BLOCK_CTYPE(ctype), FETCHARB_OFFSET_##timing(name), digits, doc},
#define BLOCK_FIELD(field, ctype, width, doc) \
    {"ent_" #field, BLOCK_OUT, BLOCK_ENTRY, BLOCK_CTYPE(ctype), offsetof(fetcharb_entry_t, field), 0, doc},
#include "fetcharb.def"
};

static const block_param_t fetcharb_params[] = {
#define BLOCK_PARAM(NAME, member, doc) {#NAME, #member, offsetof(fetcharb_config_t, member), doc},
#include "fetcharb.def"
};

/* ---- the block ---- */

int fetcharb_init(fetcharb_t *t, const fetcharb_config_t *c, char *err, size_t errlen)
{
    const char *bad = NULL;
    if (c->groups < 1 || c->groups > FETCHARB_MAX_GROUPS) bad = "groups must be 1..32";
    else if (c->gsize < 1 || c->gsize > FETCHARB_MAX_SLOTS) bad = "gsize must be 1..256";
    else if (c->groups * c->gsize > FETCHARB_MAX_SLOTS) bad = "groups x gsize must be at most 256";
    else if (c->timeout < 0 || c->timeout > FETCHARB_MAX_TIMEOUT) bad = "timeout must be 0..1048576";
    if (bad) {
        snprintf(err, errlen, "fetch arbiter: %s (groups=%d gsize=%d timeout=%d)", bad, c->groups, c->gsize,
                 c->timeout);
        return -1;
    }
    t->cfg = *c;
    t->slots = c->groups * c->gsize;
    t->grp_bits = fetcharb_port_width(c, FETCHARB_P_prio);
    int cw = fetcharb_port_width(c, FETCHARB_P_cnt);
    t->cnt_max = cw >= 32 ? 0xffffffffu : (1u << cw) - 1;
    fetcharb_reset(t);
    return 0;
}

void fetcharb_reset(fetcharb_t *t)
{
    t->q = (fetcharb_state_t){0};
    for (int g = 0; g < t->cfg.groups; g++) t->q.e[g].rr = (uint8_t)(t->cfg.gsize - 1); /* member 0 goes first */
    t->q.lgrant = (uint16_t)(t->slots - 1);
}

/* Group g has a slot that can run: its stall bit is clear. */
static int alive(const fetcharb_t *t, const wmask_t *run, int g)
{
    const int s = t->cfg.gsize;
    for (int m = 0; m < s; m++)
        if (wmask_test(run, g * s + m)) return 1;
    return 0;
}

void fetcharb_eval(const fetcharb_t *t, const fetcharb_in_t *in, fetcharb_out_t *out)
{
    const fetcharb_state_t *q = &t->q;
    const int G = t->cfg.groups, S = t->cfg.gsize;
    const wmask_t live = wmask_first(t->slots);
    const wmask_t ready = wmask_and(in->ready, live);
    /* the priority order: a rotation of the groups starting at prio */
    out->ord = wmask_none();
    for (int i = 0; i < G; i++) {
        int g = (q->prio + i) % G;
        for (int b = 0; b < t->grp_bits; b++)
            if ((g >> b) & 1) wmask_set(&out->ord, i * t->grp_bits + b);
    }
    /* the grant: the stay rule, else the first group in the order with a
     * ready slot, round-robin inside it after its pointer */
    out->grant = 0;
    out->grant_idx = 0;
    if (q->lstay && q->lgrant < t->slots && wmask_test(&ready, q->lgrant)) {
        out->grant = 1;
        out->grant_idx = q->lgrant;
    }
    for (int i = 0; i < G && !out->grant; i++) {
        int g = (q->prio + i) % G;
        for (int j = 1, m = q->e[g].rr; j <= S; j++) {
            if (++m == S) m = 0;
            if (wmask_test(&ready, g * S + m)) {
                out->grant = 1;
                out->grant_idx = (uint16_t)(g * S + m);
                break;
            }
        }
    }
    /* the switch at the edge: the prioritized group cannot run, or the
     * timeout is reached; the priority goes to the next group in the order
     * that can run (none: it stays) */
    const wmask_t run = wmask_andnot(live, in->stall);
    const int here = alive(t, &run, q->prio);
    const int timed_out = t->cfg.timeout > 0 && q->cnt >= (uint32_t)t->cfg.timeout;
    out->sw = 0;
    out->tmo = 0;
    out->nprio = q->prio;
    if (!here || timed_out)
        for (int i = 1; i < G; i++) {
            int g = (q->prio + i) % G;
            if (alive(t, &run, g)) {
                out->sw = 1;
                out->tmo = (uint8_t)here;
                out->nprio = (uint8_t)g;
                break;
            }
        }
    out->q = q;
}

void fetcharb_clock(fetcharb_t *t, const fetcharb_in_t *in, const fetcharb_out_t *out)
{
    fetcharb_state_t *q = &t->q;
    /* next state */
    uint8_t prio_d = out->nprio;
    uint32_t cnt_d = out->sw ? 0 : q->cnt + (in->issue && q->cnt < t->cnt_max);
    uint16_t lgrant_d = q->lgrant;
    int rr_g = -1;
    uint8_t rr_d = 0;
    if (in->upd && in->last < t->slots) { /* a grant past the slots is dropped */
        lgrant_d = in->last;
        rr_g = in->last / t->cfg.gsize;
        rr_d = (uint8_t)(in->last % t->cfg.gsize);
    }
    uint8_t lstay_d = in->stay_we ? (in->stay & 1) : q->lstay;
    /* commit */
    q->prio = prio_d;
    q->cnt = cnt_d;
    q->lgrant = lgrant_d;
    if (rr_g >= 0) q->e[rr_g].rr = rr_d;
    q->lstay = lstay_d;
}

int fetcharb_ord(const fetcharb_config_t *c, const fetcharb_out_t *out, int i)
{
    const int w = fetcharb_port_width(c, FETCHARB_P_prio);
    int g = 0;
    for (int b = 0; b < w; b++) g |= wmask_test(&out->ord, i * w + b) << b;
    return g;
}

/* ---- the generic interface ---- */

BLOCK_DEFINE_OPS(fetcharb, "fetch arbiter", "scheduler = twolevel",
                 "without scheduler = twolevel; choose a policy, e.g. --policy 2Lev",
                 FETCHARB_NPORTS, entries_of, offsetof(fetcharb_state_t, e), sizeof(fetcharb_entry_t));
