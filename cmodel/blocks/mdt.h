/* Memory divergence table (MDT) with the memory coalescing buffer's status
 * — a block (DESIGN.md, block rule; ports and timing in docs/blocks/mdt.md).
 *
 * One MDT per WPU, seed 002 §4.1 (Fig. 3): M entries per warp slot (entry i
 * belongs to warp i / M), each the PC of a divergent load/store and the
 * per-thread status of its MCB entry: wait (the thread missed and is masked
 * off, its line is not back), rdy (its line returned and the value was
 * captured in the MCB, §4.1 step 4), or neither (invalid). The entry's
 * thread bitmask is wait | rdy. The MCB status lives in the MDT block
 * because the two are one-to-one and change in the same operations (see
 * docs/blocks/mdt.md, "Why the MCB is in this block").
 *
 * Per clock at most one operation (alloc, merge, or force of one warp) and
 * one fill; everything the pipeline needs to decide the operation is
 * combinational from the registered state and the early inputs warp, pc
 * (mdt_eval). The ports are the table in mdt.def, expanded below.
 *
 * C model conventions (STYLE.md): the state is one struct; mdt_eval computes
 * the outputs, mdt_clock the next state, committed at the end. */
#ifndef WSIM_MDT_H
#define WSIM_MDT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../mask.h"
#include "block.h"

#define MDT_MAX_ENTRIES 64

/* op_i */
enum { MDT_OP_NONE = 0, MDT_OP_ALLOC = 1, MDT_OP_MERGE = 2, MDT_OP_FORCE = 3 };

typedef struct mdt_config {
#define BLOCK_PARAM(NAME, member, doc) int member;
#include "mdt.def"
} mdt_config_t;

typedef struct mdt_entry {
#define BLOCK_FIELD(field, ctype, width, doc) ctype field;
#include "mdt.def"
} mdt_entry_t;

typedef struct mdt_state {
    mdt_entry_t e[MDT_MAX_ENTRIES]; /* entries past WARPS * M stay invalid and zero */
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_REG_##timing(ctype name;)
#include "mdt.def"
} mdt_state_t;

typedef struct mdt_in {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_IN_##timing(ctype name;)
#include "mdt.def"
} mdt_in_t;

/* The outputs; q: the registered read ports (out.q->e[k].valid/pc/wait/rdy). */
typedef struct mdt_out {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_OUT_##timing(ctype name;)
#include "mdt.def"
    const mdt_state_t *q;
} mdt_out_t;

enum {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) MDT_P_##name,
#define BLOCK_FIELD(field, ctype, width, doc) MDT_P_ent_##field,
#include "mdt.def"
    MDT_NPORTS
};

typedef struct mdt {
    mdt_config_t cfg;
    mdt_state_t q;
    uint32_t pc_mask;
    wmask_t lanes; /* the low width bits */
    int entries;   /* WARPS * M */
} mdt_t;

/* Returns 0, or -1 with a message naming the bad parameter. */
int mdt_init(mdt_t *t, const mdt_config_t *cfg, char *err, size_t errlen);
void mdt_reset(mdt_t *t);
void mdt_eval(const mdt_t *t, const mdt_in_t *in, mdt_out_t *out);
/* `out` is mdt_eval's for the same in. */
void mdt_clock(mdt_t *t, const mdt_in_t *in, const mdt_out_t *out);
int mdt_port_width(const mdt_config_t *c, int port);

extern const block_ops_t mdt_block_ops;

#endif
