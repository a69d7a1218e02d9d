/* The warp timeline (timeline.h, docs/see.md): Chrome / Perfetto
 * trace-event JSON, written as the run goes.
 *
 * Time: one cycle is 1 ns on the axis (ts = cycle / 1000 microseconds, the
 * format's unit). Tracks: pid = WPU + 1; tid 1 the WPU's own events, tid
 * slot + 2 warp slot `slot'. Every track's events are written in cycle
 * order (the machine only goes forward), so timestamps never go back on a
 * track; a slice is one issue cycle long, so slices never overlap. An arrow
 * (flow) is open from its start event to its end; arrows still open when
 * the timeline closes end there, so every start has its end. Reads the
 * machine, changes nothing. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/mdt.h"
#include "mech/mech.h"
#include "timeline.h"

enum { TL_NONE, TL_START, TL_END };

static const struct {
    const char *label, *arg;
    int flow;
} kinds[TL_NEVENTS] = {
#define TL_EVENT(name, label, flow, arg) {label, arg, flow},
#include "timeline.def"
#undef TL_EVENT
};

struct timeline {
    FILE *out;
    uint64_t from, to, limit, period, next_sample;
    uint64_t bytes, events, cut, next_flow;
    int full;
    int ngrp, nkeys;
    uint64_t *flow;    /* [wpus * nkeys]: the open arrow of each key (0: none) */
    int *flow_slot;    /* ... the track it started on */
    uint8_t *flow_kind; /* ... and the event that started it */
    uint32_t *pc;      /* [wpus * ngrp]: the pc each group issued last (LWM's sub-warps) */
    const isa_insn_t **insn;
    uint64_t *prev;    /* [wpus * 3]: at the last sample: cycle, thread instructions, memory-wait cycles */
};

static void put(timeline_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(timeline_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(t->out, fmt, ap);
    va_end(ap);
    if (n > 0) t->bytes += (uint64_t)n;
}

/* Starts an event: its separator, once the first is written. */
static void begin(timeline_t *t)
{
    put(t, t->events++ ? ",\n{" : "{");
}

/* Whether an event of this cycle is written: in the window, under the limit. */
static int may(timeline_t *t, uint64_t cycle)
{
    if (t->full || cycle < t->from || (t->to && cycle >= t->to)) return 0;
    if (t->limit && t->bytes >= t->limit) {
        t->full = 1;
        t->cut = cycle;
        return 0;
    }
    return 1;
}

/* "ts":cycle/1000 with three decimals: a cycle is a nanosecond. */
#define TS_FMT "%llu.%03u"
#define TS(c) (unsigned long long)((c) / 1000), (unsigned)((c) % 1000)

/* src as a JSON string's contents */
static void jstr(char *dst, size_t n, const char *src)
{
    size_t k = 0;
    for (; *src && k + 7 < n; src++) {
        unsigned char c = (unsigned char)*src;
        if (c == '"' || c == '\\') dst[k++] = '\\', dst[k++] = (char)c;
        else if (c < 0x20) k += (size_t)snprintf(dst + k, n - k, "\\u%04x", c);
        else dst[k++] = (char)c;
    }
    dst[k] = 0;
}

static int tid_of(int slot) { return slot < 0 ? 1 : slot + 2; }

static void tl_free(timeline_t *t)
{
    free(t->flow), free(t->flow_slot), free(t->flow_kind), free(t->pc), free(t->insn), free(t->prev);
    free(t);
}

timeline_t *timeline_open(struct wsim *s, FILE *out, uint64_t from, uint64_t to, uint64_t limit, uint64_t period,
                          char *err, size_t errlen)
{
    timeline_t *t = calloc(1, sizeof *t);
    const size_t nw = (size_t)s->nwpus;
    if (t) {
        t->ngrp = s->wpu[0].ngrp;
        t->nkeys = t->ngrp + (s->cfg.dom ? s->nwarps * (int)s->cfg.dom_entries : 0);
        t->flow = calloc(nw * (size_t)t->nkeys, sizeof *t->flow);
        t->flow_slot = calloc(nw * (size_t)t->nkeys, sizeof *t->flow_slot);
        t->flow_kind = calloc(nw * (size_t)t->nkeys, 1);
        t->pc = calloc(nw * (size_t)t->ngrp, sizeof *t->pc);
        t->insn = calloc(nw * (size_t)t->ngrp, sizeof *t->insn);
        t->prev = calloc(nw * 3, sizeof *t->prev);
    }
    if (!t || !t->flow || !t->flow_slot || !t->flow_kind || !t->pc || !t->insn || !t->prev) {
        if (t) tl_free(t);
        snprintf(err, errlen, "out of host memory for the timeline");
        return NULL;
    }
    t->out = out, t->from = from, t->to = to, t->limit = limit, t->period = period ? period : 1;
    t->next_sample = from;
    put(t, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    for (int i = 0; i < s->nwpus; i++) {
        begin(t);
        put(t, "\"ph\":\"M\",\"pid\":%d,\"tid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"WPU %d\"}}", i + 1, i);
        begin(t);
        put(t, "\"ph\":\"M\",\"pid\":%d,\"tid\":1,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%d}}", i + 1,
            i);
        for (int k = -1; k < s->nwarps; k++) {
            begin(t);
            if (k < 0)
                put(t, "\"ph\":\"M\",\"pid\":%d,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"WPU %d events\"}}",
                    i + 1, i);
            else
                put(t, "\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":\"warp slot %d\"}}",
                    i + 1, tid_of(k), k);
            begin(t);
            put(t, "\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%d}}",
                i + 1, tid_of(k), k + 1);
        }
    }
    return t;
}

/* A slice: one issue cycle of a SIMD group on its warp slot's track. */
static void slice(struct wsim *s, const wpu_t *u, const group_t *g, int slot, uint32_t pc, const isa_insn_t *d,
                  wmask_t m, const char *kind)
{
    timeline_t *t = s->tl;
    char where[128], name[160], dis[96], insn[128], hex[WSIM_MAX_LANES / 4 + 2];
    program_describe_pc(s->prog, pc, where, sizeof where);
    jstr(name, sizeof name, where);
    if (d) isa_disasm(d, pc, dis, sizeof dis);
    else snprintf(dis, sizeof dis, "<no code>");
    jstr(insn, sizeof insn, dis);
    wmask_hex(&m, s->warp_size, hex);
    begin(t);
    put(t, "\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":" TS_FMT ",\"dur\":0.001,\"name\":\"%s\",\"args\":{\"pc\":"
           "\"0x%08x\",\"insn\":\"%s\",\"mask\":\"%s\",\"lanes\":%d,\"group\":%d,\"kind\":\"%s\"}}",
        u->id + 1, tid_of(slot), TS(s->cycle), name, pc, insn, hex, wmask_count(&m), g->id, kind);
}

void tl_issue(struct wsim *s, const wpu_t *u, const group_t *g, const isa_insn_t *d)
{
    timeline_t *t = s->tl;
    const rentry_t *top = rs_top(g->rs);
    const size_t at = (size_t)u->id * (size_t)t->ngrp + (size_t)g->id;
    t->pc[at] = top->pc;
    t->insn[at] = d;
    if (s->cfg.lwm || !may(t, s->cycle)) return; /* (lwm: its sub-warps are the slices) */
    const char *kind = "warp";
    if (group_is_split(g)) {
        kind = "split";
    } else if (s->cfg.dom) {
        wmask_t held = mech_held(s, u, g->w);
        if (wmask_any(&held)) kind = "slipped";
    }
    slice(s, u, g, g->w->slot, top->pc, d, top->mask, kind);
}

void tl_subwarp(struct wsim *s, const wpu_t *u, const group_t *g, wmask_t pick, int n)
{
    timeline_t *t = s->tl;
    if (!n || !may(t, s->cycle)) return;
    const size_t at = (size_t)u->id * (size_t)t->ngrp + (size_t)g->id;
    /* (the last sub-warps of a warp that has ended: its slot is its group's, lwm has no splits) */
    slice(s, u, g, g->w ? g->w->slot : g->id, t->pc[at], t->insn[at], pick, "sub-warp");
}

/* An arrow's end (open: its key's) on warp slot `slot''s track at `cycle'. */
static void flow_end(timeline_t *t, const wpu_t *u, int at, int slot, uint64_t cycle)
{
    const int kind = t->flow_kind[at];
    begin(t);
    put(t, "\"ph\":\"f\",\"bp\":\"e\",\"id\":%llu,\"pid\":%d,\"tid\":%d,\"ts\":" TS_FMT ",\"name\":\"%s\",\"cat\":\"%s\"}",
        (unsigned long long)t->flow[at], u->id + 1, tid_of(slot), TS(cycle),
        kind == TL_DOM_SLIP ? "slip" : "split", kind == TL_DOM_SLIP ? "dom" : "dws");
    t->flow[at] = 0;
}

void tl_event(struct wsim *s, const wpu_t *u, int slot, int kind, int key, wmask_t lanes, int arg)
{
    timeline_t *t = s->tl;
    if (!may(t, s->cycle)) return; /* (an arrow open past the window or the limit ends at the close) */
    char hex[WSIM_MAX_LANES / 4 + 2];
    wmask_hex(&lanes, s->warp_size, hex);
    begin(t);
    put(t, "\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d,\"ts\":" TS_FMT ",\"name\":\"%s\",\"args\":{\"threads\":%d,"
           "\"mask\":\"%s\",\"%s\":%d}}",
        u->id + 1, tid_of(slot), TS(s->cycle), kinds[kind].label, wmask_count(&lanes), hex, kinds[kind].arg, arg);
    if (key < 0 || key >= t->nkeys || kinds[kind].flow == TL_NONE) return;
    const int at = u->id * t->nkeys + key;
    if (t->flow[at]) flow_end(t, u, at, slot, s->cycle); /* an end (or a key reused after an end not seen) */
    if (kinds[kind].flow != TL_START) return;
    t->flow[at] = ++t->next_flow;
    t->flow_slot[at] = slot;
    t->flow_kind[at] = (uint8_t)kind;
    begin(t);
    put(t, "\"ph\":\"s\",\"id\":%llu,\"pid\":%d,\"tid\":%d,\"ts\":" TS_FMT ",\"name\":\"%s\",\"cat\":\"%s\"}",
        (unsigned long long)t->flow[at], u->id + 1, tid_of(slot), TS(s->cycle), kind == TL_DOM_SLIP ? "slip" : "split",
        kind == TL_DOM_SLIP ? "dom" : "dws");
}

int tl_mdt_key(const wpu_t *u, int e) { return u->ngrp + e; }

void tl_dom(struct wsim *s, const wpu_t *u, int slot, int code, int idx, wmask_t masked, wmask_t rejoin,
            wmask_t wait, wmask_t rdy)
{
    const int key = tl_mdt_key(u, idx);
    if (wmask_any(&masked)) tl_event(s, u, slot, code == MDT_OP_ALLOC ? TL_DOM_SLIP : TL_DOM_SLIP_MORE, key, masked, idx);
    if (!wmask_any(&rejoin)) return;
    wmask_t left = wmask_or(wmask_andnot(wmask_or(wait, rdy), rejoin), masked);
    tl_event(s, u, slot, wmask_any(&left) ? TL_DOM_REACTIVATE : TL_DOM_REJOIN, key, rejoin, idx);
}

static void counter(timeline_t *t, int pid, uint64_t cycle, const char *name, double v)
{
    begin(t);
    put(t, "\"ph\":\"C\",\"pid\":%d,\"tid\":1,\"ts\":" TS_FMT ",\"name\":\"%s\",\"args\":{\"value\":%.4g}}", pid,
        TS(cycle), name, v);
}

void tl_sample(struct wsim *s)
{
    timeline_t *t = s->tl;
    if (s->cycle < t->next_sample) return;
    t->next_sample = (s->cycle / t->period + 1) * t->period;
    if (!may(t, s->cycle)) return;
    for (int i = 0; i < s->nwpus; i++) {
        const wpu_t *u = &s->wpu[i];
        uint64_t *p = &t->prev[3 * i];
        const double dc = (double)(s->cycle - p[0]);
        if (p[0] && dc > 0) { /* (the first sample opens the first period) */
            counter(t, i + 1, s->cycle, "active lanes", (double)(u->st.thread_insts - p[1]) / dc);
            counter(t, i + 1, s->cycle, "memory wait %", 100.0 * (double)(u->st.cycles_memwait - p[2]) / dc);
        }
        counter(t, i + 1, s->cycle, "live groups", u->live_groups);
        int busy = 0;
        if (s->ms.l1d)
            for (int k = 0; k < s->ms.l1d[i].nmshr; k++) busy += s->ms.l1d[i].mshr[k].fill > s->cycle;
        counter(t, i + 1, s->cycle, "MSHRs in use", busy);
        p[0] = s->cycle ? s->cycle : 1, p[1] = u->st.thread_insts, p[2] = u->st.cycles_memwait;
    }
}

void timeline_discard(struct wsim *s)
{
    if (s->tl) tl_free(s->tl);
    s->tl = NULL;
}

uint64_t timeline_close(struct wsim *s, uint64_t *cut)
{
    timeline_t *t = s->tl;
    if (!t) return 0;
    /* arrows still open end where the written part ends */
    uint64_t end = t->to && t->to - 1 < s->cycle ? t->to - 1 : s->cycle;
    for (int i = 0; i < s->nwpus; i++)
        for (int k = 0; k < t->nkeys; k++) {
            const int at = i * t->nkeys + k;
            if (t->flow[at]) flow_end(t, &s->wpu[i], at, t->flow_slot[at], end);
        }
    char prog[512];
    jstr(prog, sizeof prog, s->prog->path);
    put(t, "\n],\n\"otherData\":{\"wpusim\":\"%s\",\"program\":\"%s\",\"cycles\":%llu,\"wpus\":%d,\"warps\":%d,"
           "\"warp_size\":%d,\"lanes\":%d,\"from\":%llu,\"to\":%llu,\"cut\":%llu,\"period\":%llu,"
           "\"time\":\"1 ns on the axis is 1 cycle\"}}\n",
        WSIM_VERSION, prog, (unsigned long long)s->cycle, s->nwpus, s->nwarps, s->warp_size, s->lanes,
        (unsigned long long)t->from, (unsigned long long)t->to, (unsigned long long)t->cut,
        (unsigned long long)t->period);
    if (cut) *cut = t->cut;
    uint64_t bytes = t->bytes;
    timeline_discard(s);
    return bytes;
}

int wsim_set_timeline(wsim_t *s, FILE *out, uint64_t from, uint64_t to, uint64_t limit, uint64_t period, char *err,
                      size_t errlen)
{
    timeline_discard(s);
    s->tl = timeline_open(s, out, from, to, limit, period ? period : 100, err, errlen);
    return s->tl ? 0 : -1;
}

uint64_t wsim_timeline_close(wsim_t *s, uint64_t *cut) { return timeline_close(s, cut); }
