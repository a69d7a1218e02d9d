/* Two-level fetch arbiter — a block (DESIGN.md, block rule; ports and
 * timing in docs/blocks/fetcharb.md, the contract an RTL module implements).
 *
 * One per WPU, in the fetch stage: it grants the warp that fetches this
 * clock by the two-level round-robin policy of seed 004 §3.2-§3.3. The
 * SLOTS = GROUPS x GSIZE warp slots form fixed-size fetch groups (slot k is
 * member k mod GSIZE of group k div GSIZE). One group is prioritized
 * (`prio`); the priority order is the rotation prio, prio+1, ... mod
 * GROUPS. The grant is the first ready slot of the first group in that
 * order with one, round-robin inside the group after the member it granted
 * last (a pointer per group). The prioritized group changes at the clock
 * edge when none of its slots can run (each waits on a long-latency
 * operation or holds no warp: the `stall` input), or when it has been
 * prioritized for TIMEOUT issued instructions; the priority then moves to
 * the next group in the order that has a slot able to run (the fetch-group
 * switch of 004 §3.2; the timeout rule of §3.3). GROUPS = 1 is plain
 * round-robin over every slot, the baseline policy. The stay rule of the
 * pipeline's switch_on (the last grant keeps the pipeline while it is
 * ready) comes before both levels.
 *
 * The outputs are combinational from the registered state and the early
 * inputs (ready, stall); the late inputs say what the clock did (the final
 * grant, an issue, the stay bit). A clock edge whose inputs are those of
 * the previous edge and that issued nothing leaves the state unchanged, so
 * a pipeline that does not clock the block in cycles where nothing can
 * happen sees the same grants.
 *
 * C model conventions (STYLE.md): the state is one struct; fetcharb_eval
 * computes the outputs, fetcharb_clock the next state, committed at the
 * end. */
#ifndef WSIM_FETCHARB_H
#define WSIM_FETCHARB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../mask.h"
#include "block.h"

enum { FETCHARB_MAX_GROUPS = 32, FETCHARB_MAX_SLOTS = 256, FETCHARB_MAX_TIMEOUT = 1048576 };

/* The structs below are expanded from the port table fetcharb.def. */

/* The RTL parameters: groups (G, 1..32), gsize (S, 1..256; G x S <= 256),
 * timeout (0..1048576; 0: off). */
typedef struct fetcharb_config {
#define BLOCK_PARAM(NAME, member, doc) int member;
#include "fetcharb.def"
} fetcharb_config_t;

/* One entry of the registered image: a fetch group's round-robin pointer. */
typedef struct fetcharb_entry {
#define BLOCK_FIELD(field, ctype, width, doc) ctype field;
#include "fetcharb.def"
} fetcharb_entry_t;

/* The registered image: the pointers and the registered outputs. */
typedef struct fetcharb_state {
    fetcharb_entry_t e[FETCHARB_MAX_GROUPS];
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_REG_##timing(ctype name;)
#include "fetcharb.def"
} fetcharb_state_t;

typedef struct fetcharb_in {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_IN_##timing(ctype name;)
#include "fetcharb.def"
} fetcharb_in_t;

/* The outputs: the combinational ones, and the registered read ports
 * through q (the C model's registers; an RTL-backed block's mirror). */
typedef struct fetcharb_out {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_OUT_##timing(ctype name;)
#include "fetcharb.def"
    const fetcharb_state_t *q;
} fetcharb_out_t;

enum {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) FETCHARB_P_##name,
#define BLOCK_FIELD(field, ctype, width, doc) FETCHARB_P_ent_##field,
#include "fetcharb.def"
    FETCHARB_NPORTS
};

typedef struct fetcharb {
    fetcharb_config_t cfg;
    fetcharb_state_t q; /* the registers; out.q points here */
    int slots, grp_bits;
    uint32_t cnt_max;
} fetcharb_t;

/* Returns 0, or -1 with a message naming the bad parameter. */
int fetcharb_init(fetcharb_t *t, const fetcharb_config_t *cfg, char *err, size_t errlen);
void fetcharb_reset(fetcharb_t *t);
void fetcharb_eval(const fetcharb_t *t, const fetcharb_in_t *in, fetcharb_out_t *out);
/* `out` is fetcharb_eval's for the same in. */
void fetcharb_clock(fetcharb_t *t, const fetcharb_in_t *in, const fetcharb_out_t *out);

int fetcharb_port_width(const fetcharb_config_t *c, int port);
/* Field i of the ord output: the group of rank i. */
int fetcharb_ord(const fetcharb_config_t *c, const fetcharb_out_t *out, int i);

extern const block_ops_t fetcharb_block_ops;

#endif
