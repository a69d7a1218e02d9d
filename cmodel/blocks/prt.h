/* Partitioned register table (PRT) — a block (DESIGN.md, block rule; ports
 * and timing in docs/blocks/prt.md, the contract an RTL module implements).
 *
 * 003 §IV-B: the partitions multiplexed on the vector core each need the
 * same number of vector registers (REGS: the program's), so the register
 * file is divided into blocks of REGS registers, one per running partition;
 * renaming a partition's register r is base + r, and streams of different
 * partitions never conflict. One per core, before the vector instruction
 * buffer (003 Fig. 3). Per clock it renames up to PORTS register operands
 * (combinational: early inputs to outputs) and takes one partition launch
 * (the slot gets the lowest free block) and one partition end (its block
 * frees) at the edge.
 *
 * C model conventions (STYLE.md): the state is one struct; prt_eval
 * computes the outputs, prt_clock the next state, committed at the end. */
#ifndef WSIM_PRT_H
#define WSIM_PRT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../mask.h"
#include "block.h"

enum { PRT_MAX_PARTS = 32, PRT_MAX_REGS = 64, PRT_MAX_PHYS = 2048, PRT_MAX_PORTS = 32 };

/* The structs below are expanded from the port table prt.def. */
typedef struct prt_config {
#define BLOCK_PARAM(NAME, member, doc) int member;
#include "prt.def"
} prt_config_t;

/* One entry of the registered image: a partition slot. */
typedef struct prt_entry {
#define BLOCK_FIELD(field, ctype, width, doc) ctype field;
#include "prt.def"
} prt_entry_t;

typedef struct prt_state {
    prt_entry_t e[PRT_MAX_PARTS];
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_REG_##timing(ctype name;)
#include "prt.def"
} prt_state_t;

typedef struct prt_in {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_IN_##timing(ctype name;)
#include "prt.def"
} prt_in_t;

typedef struct prt_out {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_OUT_##timing(ctype name;)
#include "prt.def"
    const prt_state_t *q;
} prt_out_t;

enum {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) PRT_P_##name,
#define BLOCK_FIELD(field, ctype, width, doc) PRT_P_ent_##field,
#include "prt.def"
    PRT_NPORTS
};

typedef struct prt {
    prt_config_t cfg;
    prt_state_t q; /* the registers; out.q points here */
    int part_w, reg_w, phys_w, blocks;
} prt_t;

/* Returns 0, or -1 with a message naming the bad parameter. */
int prt_init(prt_t *t, const prt_config_t *cfg, char *err, size_t errlen);
void prt_reset(prt_t *t);
void prt_eval(const prt_t *t, const prt_in_t *in, prt_out_t *out);
/* `out` is prt_eval's for the same in. */
void prt_clock(prt_t *t, const prt_in_t *in, const prt_out_t *out);
int prt_port_width(const prt_config_t *c, int port);

/* Field p (w bits at p*w) of a packed port, and setting it. */
static inline uint32_t prt_field(const wmask_t *v, int p, int w)
{
    uint32_t r = 0;
    for (int b = 0; b < w; b++) r |= (uint32_t)wmask_test(v, p * w + b) << b;
    return r;
}
static inline void prt_set_field(wmask_t *v, int p, int w, uint32_t x)
{
    for (int b = 0; b < w; b++) {
        if ((x >> b) & 1) wmask_set(v, p * w + b);
        else wmask_clear(v, p * w + b);
    }
}

extern const block_ops_t prt_block_ops;

#endif
