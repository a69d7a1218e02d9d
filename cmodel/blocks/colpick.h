/* Sub-warp column picker — a block (DESIGN.md, block rule; ports and timing
 * in docs/blocks/colpick.md). Seed 004 §3.1, Fig. 6.
 *
 * One picker per WPU. In the clock a large warp's instruction is decoded
 * (load_i) it takes the warp's 2-D active mask, K rows x N columns (N = the
 * SIMD lanes, one register-file bank each), into its working copy; every
 * clock it picks at most one thread per column, the lowest row of each
 * column whose bit is set and whose thread is not in a sub-warp still in
 * flight (dep_i), outputs that sub-warp (per lane: valid and row), clears
 * the picked bits and raises stall_o while bits remain (fetch waits). An
 * unconditional jump (one_i) makes one sub-warp and drops the rest (004:
 * a jump needs one PC update). The back end may refuse a sub-warp (take_i
 * low, a late input: its load/store finds no free MSHR): the working copy
 * then stays as it was, or empties (drop_i: the pipeline sets the large
 * warp aside with its remaining threads, and reloads them later).
 *
 * The ports are the table in colpick.def, expanded below; the pipeline
 * (mech/lwm.c) reaches the picker only through them. Conventions as wst.h:
 * one state struct, colpick_eval computes the outputs, colpick_clock the
 * next state, committed at the end. */
#ifndef WSIM_COLPICK_H
#define WSIM_COLPICK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../mask.h"
#include "block.h"

/* The RTL parameters: rows (K, 1..64), cols (N, 1..64), K x N <= 256. */
typedef struct colpick_config {
#define BLOCK_PARAM(NAME, member, doc) int member;
#include "colpick.def"
} colpick_config_t;

/* The registered image: the working copy (work_o). */
typedef struct colpick_state {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_REG_##timing(ctype name;)
#include "colpick.def"
} colpick_state_t;

typedef struct colpick_in {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_IN_##timing(ctype name;)
#include "colpick.def"
} colpick_in_t;

/* The outputs, and the registered read port through q (q->work). */
typedef struct colpick_out {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_OUT_##timing(ctype name;)
#include "colpick.def"
    const colpick_state_t *q;
} colpick_out_t;

enum {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) COLPICK_P_##name,
#include "colpick.def"
    COLPICK_NPORTS
};

typedef struct colpick {
    colpick_config_t cfg;
    colpick_state_t q; /* the registers; out.q points here */
    int row_bits;      /* ROW_W */
    wmask_t all;       /* the low K x N bits */
} colpick_t;

/* Returns 0, or -1 with a message naming the bad parameter. */
int colpick_init(colpick_t *p, const colpick_config_t *cfg, char *err, size_t errlen);
void colpick_reset(colpick_t *p);
void colpick_eval(const colpick_t *p, const colpick_in_t *in, colpick_out_t *out);
/* The edge: the working copy loses the picked threads. `out` is colpick_eval's for the same in. */
void colpick_clock(colpick_t *p, const colpick_in_t *in, const colpick_out_t *out);
int colpick_port_width(const colpick_config_t *c, int port);

extern const block_ops_t colpick_block_ops;

#endif
