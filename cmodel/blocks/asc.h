/* Adaptive slip controller (ASC) — a block (DESIGN.md, block rule; ports,
 * timing and next-state rules in docs/blocks/asc.md).
 *
 * One ASC per WPU (seed 002 §5, Table 1). It holds, per thread of every
 * warp, a CNT_W-bit slip counter (002: 8 bits), per warp the slip-limit
 * bitmask, and per WPU the max-slip counter.
 *
 * Per clock the pipeline reports at most one event of one warp (warp_i):
 * its memory instruction (mem_i: which active threads hit, which missed,
 * and whether the misses diverged into the MDT or the warp blocked), or its
 * re-assignment to new threads (clr_i). The slip counters follow 002 §5.1
 * (threads inactive on the branch stack, act_i, are not considered):
 *  - a divergent event (div_i, hits and misses among act_i): if every
 *    tail-end thread (counter 0) hit, the threads that missed count down;
 *    otherwise (an undiverged warp included) the threads that hit count up;
 *  - an instruction whose issuing threads all hit, while the warp has
 *    threads at its slip limit: those threads count down (they wait, the
 *    rest catch up);
 * and the warp's slip-limit bits become the threads whose counter reached
 * the max slip. block_o tells the MDT to refuse (the warp executes loads and
 * stores blocking), limit_o which threads to disable.
 *
 * Adaptive diff (002 §5.2): at the end of each sampling period (sample_i;
 * the period's length and counts are inputs, the pipeline's performance
 * counters) the block classifies the WPU as ALU-, bandwidth- or
 * latency-bound and raises, keeps or lowers the max slip by one (dir_o).
 * Every threshold and why: docs/blocks/asc.md.
 *
 * The ports are the table in asc.def, expanded below; the registered read
 * ports are reached through out.q (out.q->e[w].cnt, .lim, out.q->max_slip).
 * asc_block_ops is the block behind the generic interface (block.h).
 * C model conventions (STYLE.md): asc_eval computes the outputs, asc_clock
 * the next state into _d locals, committed at the end. */
#ifndef WSIM_ASC_H
#define WSIM_ASC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../mask.h"
#include "block.h"

#define ASC_MAX_WARPS 64
#define ASC_MAX_CNT_BITS 8

/* dir_o: adaptive diff's decision for the period. */
enum { ASC_KEEP = 0, ASC_RAISE = 1, ASC_LOWER = 2 };

/* The RTL parameters (asc.def): width (W), warps (N), cnt_bits, max0. */
typedef struct asc_config {
#define BLOCK_PARAM(NAME, member, doc) int member;
#include "asc.def"
} asc_config_t;

/* One warp of the registered image: the entry-field read ports ent_cnt_o
 * (the counters, packed: thread t at bits [t*cnt_bits +: cnt_bits]; read
 * one with asc_counter) and ent_lim_o (the slip-limit bitmask). */
typedef struct asc_entry {
#define BLOCK_FIELD(field, ctype, width, doc) ctype field;
#include "asc.def"
} asc_entry_t;

/* The registered image: the warps and the max-slip counter. */
typedef struct asc_state {
    asc_entry_t e[ASC_MAX_WARPS]; /* warps past cfg.warps stay zero */
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_REG_##timing(ctype name;)
#include "asc.def"
} asc_state_t;

/* The inputs: early (warp, act, the period's counts), then the event. */
typedef struct asc_in {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_IN_##timing(ctype name;)
#include "asc.def"
} asc_in_t;

/* The outputs: the combinational ones, and the registered read ports
 * through q (valid from the first asc_eval; changes only at the clock edge
 * and at reset). */
typedef struct asc_out {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_OUT_##timing(ctype name;)
#include "asc.def"
    const asc_state_t *q; /* the registered read ports */
} asc_out_t;

/* Port indices (into asc_block_ops.ports), in the table's order. */
enum {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) ASC_P_##name,
#define BLOCK_FIELD(field, ctype, width, doc) ASC_P_ent_##field,
#include "asc.def"
    ASC_NPORTS
};

/* The C block. */
typedef struct asc {
    asc_config_t cfg;
    asc_state_t q; /* the registers; out.q points here */
    uint32_t cnt_max; /* 2^cnt_bits - 1 */
    wmask_t lanes;    /* the low width bits */
    int warp_bits;
} asc_t;

/* Returns 0, or -1 with a message naming the bad parameter. */
int asc_init(asc_t *a, const asc_config_t *cfg, char *err, size_t errlen);
void asc_reset(asc_t *a);
void asc_eval(const asc_t *a, const asc_in_t *in, asc_out_t *out);
/* in->clr, in->mem and in->sample all 0 leave the state unchanged. `out`
 * is asc_eval's for the same in. */
void asc_clock(asc_t *a, const asc_in_t *in, const asc_out_t *out);

/* Thread t's slip counter in a packed counter field (cnt_bits bits each, at
 * [t*cnt_bits +: cnt_bits]; one may straddle two 64-bit words). */
static inline unsigned asc_counter(const wmask_t *cnt, int cnt_bits, int t)
{
    const int p = t * cnt_bits, w = p >> 6, s = p & 63;
    uint64_t v = cnt->w[w] >> s;
    if (s + cnt_bits > 64) v |= cnt->w[w + 1] << (64 - s);
    return (unsigned)(v & ((1ull << cnt_bits) - 1));
}

int asc_port_width(const asc_config_t *c, int port);

/* The port trace (block.h). */
void asc_trace_header(const asc_config_t *c, FILE *out);
void asc_trace_line(const asc_t *a, uint64_t cycle, int wpu, const asc_in_t *in, const asc_out_t *out, FILE *f);

/* The ASC behind the generic block interface: init allocates an asc_t. */
extern const block_ops_t asc_block_ops;

#endif
