/* The warp timeline (--timeline FILE; docs/see.md): the Chrome / Perfetto
 * trace-event JSON that ui.perfetto.dev and chrome://tracing open. A process
 * per WPU; on it a track per warp slot and one for the WPU's own events
 * (fetch-group switches, barrier releases); a slice per issued SIMD group
 * (a warp, a DWS split, a DoM group running with threads masked off, an LWM
 * sub-warp) named by its PC's function and offset, with its mask and lane
 * count; instant events from timeline.def with flow arrows from a split
 * (or a slip) to its merge (or re-join); counter tracks per WPU sampled
 * every period cycles.
 *
 * The one interface between the pipeline and the timeline: a few event
 * calls, each behind TIMELINE(s, call), which costs one predictable branch
 * when no timeline is open. The timeline reads the machine and writes its
 * file; it changes nothing the machine computes (statistics, results and
 * traces are byte-identical with and without it). */
#ifndef WSIM_TIMELINE_H
#define WSIM_TIMELINE_H

#include "core.h"

enum {
#define TL_EVENT(name, label, flow, arg) TL_##name,
#include "timeline.def"
#undef TL_EVENT
    TL_NEVENTS
};

/* Calls `call' only when a timeline is open. */
#define TIMELINE(s, call)                                   \
    do {                                                    \
        if (__builtin_expect((s)->tl != NULL, 0)) call;     \
    } while (0)

typedef struct timeline timeline_t;

/* Open on out (the machine's shape fixed: after wsim_create). Events of
 * cycles [from, to) are written (to = 0: to the end); writing stops at
 * limit bytes (0: no limit). Counters every period cycles. NULL with err. */
timeline_t *timeline_open(struct wsim *s, FILE *out, uint64_t from, uint64_t to, uint64_t limit, uint64_t period,
                          char *err, size_t errlen);
/* Close the open arrows and the JSON (not the file). Returns the bytes
 * written; *cut = the cycle at which the limit stopped it (0: it did not). */
uint64_t timeline_close(struct wsim *s, uint64_t *cut);
/* Free it without writing (the machine's teardown). */
void timeline_discard(struct wsim *s);

/* Group g of WPU u issues d at its stack top's pc (issue(), wpu.c): a
 * slice (under lwm the sub-warps are the slices: tl_subwarp). */
void tl_issue(struct wsim *s, const wpu_t *u, const group_t *g, const isa_insn_t *d);
/* LWM: a sub-warp of g's instruction issues with threads pick (n of them). */
void tl_subwarp(struct wsim *s, const wpu_t *u, const group_t *g, wmask_t pick, int n);
/* An instant of kind TL_* on warp slot `slot's track (slot < 0: the WPU's
 * own track), about the threads `lanes'; key names the flow arrow the kind
 * starts or ends (a group's table entry; tl_mdt_key: an MDT entry), -1
 * none; arg is the kind's number (a group, a fetch group). */
void tl_event(struct wsim *s, const wpu_t *u, int slot, int kind, int key, wmask_t lanes, int arg);
/* The flow key of MDT entry e of WPU u. */
int tl_mdt_key(const wpu_t *u, int e);
/* DoM's table operation on warp slot `slot' (mech/dom.c, access()): code
 * (MDT_OP_*) on entry idx, which held the threads wait | rdy; the threads
 * masked off and those re-joining. */
void tl_dom(struct wsim *s, const wpu_t *u, int slot, int code, int idx, wmask_t masked, wmask_t rejoin,
            wmask_t wait, wmask_t rdy);
/* The machine's loop, once a cycle: the counters, when a period ended. */
void tl_sample(struct wsim *s);

#endif
