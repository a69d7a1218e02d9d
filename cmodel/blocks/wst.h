/* Warp-split table (WST) — a block (DESIGN.md, block rule; ports and timing
 * in docs/blocks/wst.md, the contract rtl/ws_wst.sv implements).
 *
 * One WST per WPU. Each valid entry is one schedulable SIMD group of the
 * WPU: a warp's root group or one of its warp-splits (seed 001 §4.4, §5.4;
 * seed 000 §5.4). An entry holds the group's warp, PC, active mask and
 * status, and for MAWS the instruction count since the root, the
 * miss-free-cycle (MFC) counter, the remaining-MFC estimate and the latency
 * of the group's last miss. The table's sum-rMFC (000 §5.4.3) is the sum
 * of the valid entries' remaining MFC, recomputed from them at every clock
 * edge (the RTL: an adder over the rmfc registers), never a counter of its
 * own.
 *
 * Per clock the pipeline performs at most one operation on one entry (idx):
 * write its PC/mask/status, count an issued instruction, spawn a child into
 * the lowest free entry, absorb ready entries of the same warp at the same PC
 * (PC-based re-convergence), or free it. Everything the pipeline needs to
 * decide that operation is combinational from the registered state and the
 * three early inputs idx, elig and mpc (see wst_eval). Cycles without an
 * operation leave the state unchanged.
 *
 * The ports are the table in wst.def, expanded below; the pipeline reaches
 * the table only through them, entries included (out.q, the registered read
 * ports). The block behind the generic interface is wst_block_ops
 * (block.h); wst_init/wst_eval/wst_clock are its typed implementation.
 *
 * C model conventions (STYLE.md): the state is one struct; wst_eval computes
 * the outputs, wst_clock the next state, committed at the end. */
#ifndef WSIM_WST_H
#define WSIM_WST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../mask.h"
#include "block.h"

#define WST_MAX_ENTRIES 64

/* Entry status (2 bits), written by the pipeline with every operation. */
enum { WST_ST_RUN = 0, WST_ST_MEM = 1, WST_ST_SYNC = 2, WST_ST_BAR = 3 };

/* The structs below are expanded from the port table wst.def (names,
 * types and meanings of every parameter and port are there). */

/* The RTL parameters: entries (E, 2..64), width (W, lanes, 1..256; the RTL
 * 1..64), warps (1..E), pc_bits (2..32), cnt_bits and mfc_bits (1..32). */
typedef struct wst_config {
#define BLOCK_PARAM(NAME, member, doc) int member;
#include "wst.def"
} wst_config_t;

/* One entry of the registered image: the entry-field read ports
 * ent_<field>_o. */
typedef struct wst_entry {
#define BLOCK_FIELD(field, ctype, width, doc) ctype field;
#include "wst.def"
} wst_entry_t;

/* The registered image: the table and the registered outputs (sum_rmfc). */
typedef struct wst_state {
    wst_entry_t e[WST_MAX_ENTRIES]; /* entries past cfg.entries stay invalid and zero */
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_REG_##timing(ctype name;)
#include "wst.def"
} wst_state_t;

/* The inputs: early (idx, elig, mpc: the outputs depend on them), then the
 * operation, decided after looking at the outputs. */
typedef struct wst_in {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_IN_##timing(ctype name;)
#include "wst.def"
} wst_in_t;

/* The outputs: the combinational ones, and the registered read ports
 * through q: out.q->e[k].valid/st/warp/pc/mask/icnt/mfc/rmfc/lat (the RTL's
 * ent_<field>_o, entry k) and out.q->sum_rmfc (sum_rmfc_o). q points at the
 * registered image: the C model's own registers (wst_t.q), an RTL-backed
 * block's mirror. Nothing is copied per clock. Valid from the first
 * wst_eval on; what it points at changes only at the clock edge (wst_clock)
 * and at reset. */
typedef struct wst_out {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_OUT_##timing(ctype name;)
#include "wst.def"
    const wst_state_t *q; /* the registered read ports */
} wst_out_t;

/* Port indices (into wst_block_ops.ports), in the table's order. */
enum {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) WST_P_##name,
#define BLOCK_FIELD(field, ctype, width, doc) WST_P_ent_##field,
#include "wst.def"
    WST_NPORTS
};

/* The C block. */
typedef struct wst {
    wst_config_t cfg;
    wst_state_t q; /* the registers; out.q points here */
    uint32_t cnt_max, mfc_max;
    uint32_t pc_mask;
    wmask_t lanes; /* the low width bits */
    int warp_bits; /* WARP_W */
    /* Derived from the registered entries, kept in step with every write of
     * an entry (wst.c: put), so that wst_eval costs no walk of the table
     * (it ran once per issue and was a third of a DWS simulation): */
    uint64_t valid;            /* bit i: q.e[i].valid */
    uint64_t wvalid[1 << 6];   /* per warp: its valid entries */
    uint64_t wlag[1 << 6];     /* per warp: its lag_vec bit (0: fewer than two entries) */
    uint64_t lag;              /* lag_vec: the OR of wlag */
    uint64_t rmfc_sum;         /* the valid entries' rmfc, not saturated */
} wst_t;

/* Returns 0, or -1 with a message naming the bad parameter. */
int wst_init(wst_t *t, const wst_config_t *cfg, char *err, size_t errlen);
void wst_reset(wst_t *t);
void wst_eval(const wst_t *t, const wst_in_t *in, wst_out_t *out);
/* in->op == 0 leaves the state unchanged. `out` is wst_eval's for the same in. */
void wst_clock(wst_t *t, const wst_in_t *in, const wst_out_t *out);

/* Widths of the ports: port is a WST_P_* (entry fields: one entry's). */
int wst_port_width(const wst_config_t *c, int port);
int wst_idx_bits(const wst_config_t *c);
int wst_warp_bits(const wst_config_t *c);

/* The port trace (block.h; recorded by wpusim --record-block wst=FILE,
 * replayed by tb/ and tests/): the header (version line, parameters) and
 * the line of one clock, its inputs and outputs. */
void wst_trace_header(const wst_config_t *c, FILE *out);
void wst_trace_line(const wst_t *t, uint64_t cycle, int wpu, const wst_in_t *in, const wst_out_t *out, FILE *f);

/* The WST behind the generic block interface: init allocates a wst_t. */
extern const block_ops_t wst_block_ops;

#endif
