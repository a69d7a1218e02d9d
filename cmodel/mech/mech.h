/* Mechanisms (docs/architecture.md): dynamic warp subdivision, large warps
 * (docs/lwm.md); diverge on miss and two-level scheduling next. A mechanism
 * is a module with hooks that the pipeline calls at fixed points of a WPU's
 * clock with what happened, and that return its decisions; it changes
 * timing and grouping, never results. It never calls up into the pipeline
 * or the machine. The machine chooses the mechanisms at creation (s->mech);
 * every hook may be NULL; with none (Conv) the pipeline is the plain SIMT
 * core. A mechanism is added by its files plus its entry in
 * mech_choose() (machine.c). */
#ifndef WSIM_MECH_H
#define WSIM_MECH_H

#include "core.h"

typedef struct mech_ops {
    const char *name;
    int slots; /* it gives out scheduler slots (001 §5.6): a group without one
                  does not issue; without such a mechanism every group has one */
    void (*init_wpu)(struct wsim *s, wpu_t *u);
    void (*free_wpu)(struct wsim *s, wpu_t *u);
    /* warp start: root is its root group (initial: before cycle 0) */
    void (*launch)(struct wsim *s, wpu_t *u, group_t *root, int initial);
    /* before g issues d: 1 when the clock went to the mechanism (no issue) */
    int (*before_issue)(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d);
    /* a divergent branch: 1 when the mechanism took it (else the stack does) */
    int (*branch)(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d, uint32_t pc, wmask_t taken,
                  wmask_t fall);
    void (*after_issue)(struct wsim *s, wpu_t *u, group_t *g, const issue_t *is);
    /* a group that did not issue (fetch miss, no MSHR): 1 when the mechanism
     * used this clock anyway (its block's port is taken) */
    int (*busy)(const wpu_t *u);
    /* a clock without issue: 1 when the mechanism used it */
    int (*stalled)(struct wsim *s, wpu_t *u);
    /* the end of the clock: its blocks' clocks */
    void (*clock)(struct wsim *s, wpu_t *u);
    /* the first cycle it needs to look again (nr: the pipeline's) */
    uint64_t (*next_ready)(const struct wsim *s, const wpu_t *u, uint64_t nr);
    /* barriers: g arrives and waits; g is released */
    void (*barrier_wait)(struct wsim *s, wpu_t *u, group_t *g);
    void (*barrier_release)(struct wsim *s, wpu_t *u, group_t *g);
    /* g's warp ended and its slot stays empty */
    void (*warp_done)(struct wsim *s, wpu_t *u, group_t *g);
    /* the scheduler's priority keys of u's groups (lower first): 1 when set */
    int (*keys)(const struct wsim *s, const wpu_t *u, uint32_t *key);
    /* the start of a clock: the mechanism holds the front end (LWM: the
     * column picker still breaks a large warp's instruction into
     * sub-warps, and fetch stalls): 1 when a group issued, 2 when nothing
     * did; 0: fetch as usual */
    int (*hold)(struct wsim *s, wpu_t *u);
    /* its own counters of WPU u, for the region of interest (roi.c): every
     * uint64_t its stats hook reports, in a fixed order */
    void (*counters)(struct wsim *s, wpu_t *u, counter_visit_fn *f, void *ctx);
    /* its statistics (report.c): text lines, or JSON members ending in "," */
    void (*stats)(const struct wsim *s, FILE *out, int json);
    /* --check: the mechanism's invariants */
    int (*check_group)(const struct wsim *s, const wpu_t *u, const group_t *g, char *msg, size_t len);
    int (*check_wpu)(const struct wsim *s, const wpu_t *u, char *msg, size_t len);
    /* lanes of w it holds off the warp's stacks and groups (DoM: masked
     * off in the memory divergence table) */
    wmask_t (*held)(const struct wsim *s, const wpu_t *u, const warp_t *w);
    /* the watchdog: 1 when it found (and reported) threads that never come back */
    int (*watch)(const struct wsim *s, FILE *out);
} mech_ops_t;

extern const mech_ops_t dws_mech; /* mech/dws.c */
extern const mech_ops_t dom_mech; /* mech/dom.c */
void dom_record_header(const struct wsim *s, FILE *out); /* --record-block mdt: the trace's header */
void dom_record_asc_header(const struct wsim *s, FILE *out); /* --record-block asc: the trace's header */
extern const mech_ops_t lwm_mech; /* mech/lwm.c */
void dom_print_json(const struct wsim *s, FILE *out);    /* --stats json: "dom_max_slip" per period */

/* The hooks of every chosen mechanism, in order. */
#define MECH_EACH(s, m) for (const mech_ops_t *const *m##_it = (s)->mech, *m; \
                             m##_it < (s)->mech + (s)->nmech && ((m = *m##_it), 1); m##_it++)

static inline int mech_before_issue(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d)
{
    if (!s->nmech) return 0;
    MECH_EACH(s, m) if (m->before_issue && m->before_issue(s, u, g, d)) return 1;
    return 0;
}
static inline int mech_branch(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d, uint32_t pc, wmask_t taken,
                              wmask_t fall)
{
    MECH_EACH(s, m) if (m->branch && m->branch(s, u, g, d, pc, taken, fall)) return 1;
    return 0;
}
static inline int mech_busy(const struct wsim *s, const wpu_t *u)
{
    if (!s->nmech) return 0;
    MECH_EACH(s, m) if (m->busy && m->busy(u)) return 1;
    return 0;
}
static inline int mech_slots(const struct wsim *s)
{
    MECH_EACH(s, m) if (m->slots) return 1;
    return 0;
}
static inline int mech_keys(const struct wsim *s, const wpu_t *u, uint32_t *key)
{
    MECH_EACH(s, m) if (m->keys && m->keys(s, u, key)) return 1;
    return 0;
}
static inline uint64_t mech_next_ready(const struct wsim *s, const wpu_t *u, uint64_t nr)
{
    if (!s->nmech) return nr;
    MECH_EACH(s, m) if (m->next_ready) nr = m->next_ready(s, u, nr);
    return nr;
}
static inline int mech_hold(struct wsim *s, wpu_t *u)
{
    MECH_EACH(s, m) if (m->hold) { int r = m->hold(s, u); if (r) return r; }
    return 0;
}
static inline int mech_stalled(struct wsim *s, wpu_t *u)
{
    if (!s->nmech) return 0;
    MECH_EACH(s, m) if (m->stalled && m->stalled(s, u)) return 1;
    return 0;
}
static inline wmask_t mech_held(const struct wsim *s, const wpu_t *u, const warp_t *w)
{
    wmask_t m = wmask_none();
    MECH_EACH(s, x) if (x->held) m = wmask_or(m, x->held(s, u, w));
    return m;
}
static inline int mech_watch(const struct wsim *s, FILE *out)
{
    MECH_EACH(s, m) if (m->watch && m->watch(s, out)) return 1;
    return 0;
}
#define MECH_CALL(s, hook, ...) do { if ((s)->nmech) MECH_EACH(s, m_) if (m_->hook) m_->hook(__VA_ARGS__); } while (0)
#define MECH_CHECK(s, hook, ...) do { MECH_EACH(s, m_) if (m_->hook && m_->hook(__VA_ARGS__)) return 1; } while (0)

#endif
