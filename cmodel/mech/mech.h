/* Mechanisms (docs/architecture.md): dynamic warp subdivision (dws.c), two-level
 * scheduling (twolev.c), diverge on miss (dom.c), large warps (lwm.c). A
 * mechanism is a module with hooks that the pipeline calls at fixed points
 * of a WPU's clock with what happened, and that return its decisions; it
 * changes timing and grouping, never results. It never calls up into the
 * pipeline or the machine. It owns its per-WPU state (u->mstate[its MECH_*
 * index], made by init_wpu), its statistics and report lines (hooks). The
 * machine chooses the mechanisms at creation (mech_choose in machine.c:
 * s->mech, in hook order); every hook may be NULL; with none (Conv) the
 * pipeline is the plain SIMT core. A mechanism is added by its file, its
 * index and its extern below, and its line in mech_choose(). */
#ifndef WSIM_MECH_H
#define WSIM_MECH_H

#include <stdio.h>
#include <stdlib.h>

#include "core.h"

/* What a WPU's clock did with its issue: the pipeline's record of the clock
 * (wpu.c) and the answer of the hold and mem_done hooks. */
typedef enum clock_use {
    CLOCK_OPEN = 0, /* nothing yet (hold: fetch and issue as usual); at the end: idle, skip to next_ready */
    CLOCK_ISSUED,   /* an instruction (LWM: a sub-warp) issued */
    CLOCK_USED,     /* nothing issued, but the clock went somewhere (a mechanism's block, a re-convergence
                     * wait): look again next cycle */
    CLOCK_MEM,      /* hold, mem_done: an access asked for in u->mreq, to be timed first */
} clock_use_t;

/* Each mechanism's index in a WPU's mstate[]. */
enum { MECH_DWS, MECH_TWOLEV, MECH_DOM, MECH_LWM, MECH_COUNT };
_Static_assert(MECH_COUNT <= WSIM_MECHS, "raise WSIM_MECHS (core.h)");

/* init_wpu's first step: WPU u's state of mechanism `index` (u->mstate[index]),
 * `size` bytes zeroed; NULL with "out of host memory for <what>" in err. */
static inline void *mech_state_new(wpu_t *u, int index, size_t size, const char *what, char *err, size_t errlen)
{
    void *p = calloc(1, size);
    if (!p) snprintf(err, errlen, "out of host memory for %s", what);
    u->mstate[index] = p;
    return p;
}

/* Group selection, one implementation chosen at creation (wpu_t.sel): the
 * scheduler block's (wpu.c, sched_select) or a mechanism's (its `select`). */
typedef struct select_ops {
    /* the grant among u's groups that can issue now (prev >= 0: a retry in the
     * same clock after prev could not issue), -1: none */
    int (*pick)(struct wsim *s, wpu_t *u, int prev);
    /* the clock edge: last = the clock's final grant (-1: none), issued = an
     * instruction issued; u->stay_we/stay: the issuing group keeps the pipeline */
    void (*clock)(struct wsim *s, wpu_t *u, int last, int issued);
} select_ops_t;
extern const select_ops_t sched_select; /* wpu.c: the scheduler block */

typedef struct mech_ops {
    const char *name;
    int slots; /* it gives out scheduler slots (001 §5.6): a group without one
                  does not issue; without such a mechanism every group has one */
    /* creation: the SIMD groups per WPU it needs (0: one per warp slot); the
     * scheduler's keys hook is in use; it lets a warp's threads run apart (a
     * kernel with warp shuffles is refused, naming it); its group selection */
    int (*groups)(const wsim_config_t *c);
    int (*uses_keys)(const wsim_config_t *c);
    const char *apart;
    const select_ops_t *select;
    /* it only chooses among the groups the pipeline has (two-level
     * scheduling): the live-group statistics (groups_sum, groups_max) stay
     * off, as without mechanisms */
    int only_selects;
    /* its state of WPU u (u->mstate[index]): 0, or -1 with a message in err
     * (the machine is not created); free_wpu also after a failed init */
    int (*init_wpu)(struct wsim *s, wpu_t *u, char *err, size_t errlen);
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
     * sub-warps, and fetch stalls): CLOCK_ISSUED when a group issued,
     * CLOCK_USED when nothing did; CLOCK_OPEN: fetch as usual; CLOCK_MEM: it
     * asks for an access first (u->mreq), whose answer (mem_done) says which */
    clock_use_t (*hold)(struct wsim *s, wpu_t *u);
    /* the pipeline timed the access it asked for (u->mreq, from hold or
     * after_issue): r, or NULL when refused (no free MSHR: retry is when
     * one frees); returns as hold does (CLOCK_MEM: another access) */
    clock_use_t (*mem_done)(struct wsim *s, wpu_t *u, const mem_result_t *r, uint64_t retry);
    /* its own counters of WPU u, for the region of interest (roi.c): every
     * uint64_t its stats hook reports, in a fixed order */
    void (*counters)(struct wsim *s, wpu_t *u, counter_visit_fn *f, void *ctx);
    /* its statistics (report.c; the whole run's or the region's, t: the WPUs'
     * totals): text lines, or JSON members ending in "," */
    void (*stats)(const struct wsim *s, const stats_t *t, FILE *out, int json);
    /* its JSON members of the whole run after the counters, ending in "," */
    void (*stats_run)(const struct wsim *s, FILE *out);
    /* the deadlock report: its lines about warp w (under w's own line) */
    void (*deadlock)(const struct wsim *s, const warp_t *w, FILE *out);
    /* --check's own test (WSIM_CHECK_INJECT): corrupt an output of its block
     * on WPU u; 1 when it did */
    int (*inject)(struct wsim *s, wpu_t *u);
    /* --check: the mechanism's invariants */
    int (*check_group)(const struct wsim *s, const wpu_t *u, const group_t *g, char *msg, size_t len);
    int (*check_wpu)(const struct wsim *s, const wpu_t *u, char *msg, size_t len);
    /* lanes of w it holds off the warp's stacks and groups (DoM: masked
     * off in the memory divergence table) */
    wmask_t (*held)(const struct wsim *s, const wpu_t *u, const warp_t *w);
    /* the watchdog: 1 when it found (and reported) threads that never come back */
    int (*watch)(const struct wsim *s, FILE *out);
    /* the watchdog: 1 when the mechanism's own policy keeps warp w of u
     * from issuing though it could (starved by design, not stuck: it is
     * passed over) */
    int (*starves)(const struct wsim *s, const wpu_t *u, const warp_t *w);
} mech_ops_t;

extern const mech_ops_t dws_mech;    /* mech/dws.c */
extern const mech_ops_t twolev_mech; /* mech/twolev.c */
extern const mech_ops_t dom_mech;    /* mech/dom.c */
extern const mech_ops_t lwm_mech;    /* mech/lwm.c */

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
static inline clock_use_t mech_hold(struct wsim *s, wpu_t *u)
{
    MECH_EACH(s, m) if (m->hold) { clock_use_t r = m->hold(s, u); if (r != CLOCK_OPEN) return r; }
    return CLOCK_OPEN;
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
static inline int mech_starves(const struct wsim *s, const wpu_t *u, const warp_t *w)
{
    MECH_EACH(s, m) if (m->starves && m->starves(s, u, w)) return 1;
    return 0;
}
static inline int mech_inject(struct wsim *s, wpu_t *u)
{
    MECH_EACH(s, m) if (m->inject && m->inject(s, u)) return 1;
    return 0;
}
#define MECH_CALL(s, hook, ...) do { if ((s)->nmech) MECH_EACH(s, m_) if (m_->hook) m_->hook(__VA_ARGS__); } while (0)
#define MECH_CHECK(s, hook, ...) do { MECH_EACH(s, m_) if (m_->hook && m_->hook(__VA_ARGS__)) return 1; } while (0)

#endif
