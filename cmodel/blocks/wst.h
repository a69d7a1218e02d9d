/* Warp-split table (WST) — a block (DESIGN.md, block rule; ports and timing
 * in docs/blocks/wst.md, the contract rtl/ws_wst.sv implements).
 *
 * One WST per WPU. Each valid entry is one schedulable SIMD group of the
 * WPU: a warp's root group or one of its warp-splits (seed 001 §4.4, §5.4;
 * seed 000 §5.4). An entry holds the group's warp, PC, active mask and
 * status, and for MAWS the instruction count since the root, the
 * miss-free-cycle (MFC) counter, the remaining-MFC estimate and the latency
 * of the group's last miss; one sum-rMFC register serves the whole table.
 *
 * Per clock the pipeline performs at most one operation on one entry (idx):
 * write its PC/mask/status, count an issued instruction, spawn a child into
 * the lowest free entry, absorb ready entries of the same warp at the same PC
 * (PC-based re-convergence), or free it. Everything the pipeline needs to
 * decide that operation is combinational from the registered state and the
 * two early inputs idx and elig (see wst_eval). Cycles without an operation
 * leave the state unchanged.
 *
 * C model conventions (STYLE.md): the state is one struct; wst_eval computes
 * the outputs, wst_clock the next state, committed at the end. */
#ifndef WSIM_WST_H
#define WSIM_WST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../mask.h"

#define WST_MAX_ENTRIES 64

/* Entry status (2 bits), written by the pipeline with every operation. */
enum { WST_ST_RUN = 0, WST_ST_MEM = 1, WST_ST_SYNC = 2, WST_ST_BAR = 3 };

typedef struct wst_config {
    int entries;  /* E, 2..64 */
    int width;    /* W, lanes per warp, 1..256 (the RTL: 1..64) */
    int warps;    /* warps per WPU, 1..E */
    int pc_bits;  /* PC field, 2..32 */
    int cnt_bits; /* instruction-count field, 1..32 (saturating) */
    int mfc_bits; /* MFC, rMFC, latency and sum-rMFC fields, 1..32 (saturating) */
} wst_config_t;

typedef struct wst_entry {
    uint8_t valid;
    uint8_t st;     /* WST_ST_* */
    uint16_t warp;  /* warp slot on the WPU */
    uint32_t pc;
    wmask_t mask;
    uint32_t icnt;  /* instructions issued since the warp's root group (000 §5.4) */
    uint32_t mfc;   /* miss-free cycles so far (000 §5.4.3) */
    uint32_t rmfc;  /* remaining miss-free cycles, for SWF (000 §5.6) */
    uint32_t lat;   /* latency of the group's last miss: the MemLat predictor */
} wst_entry_t;

typedef struct wst_state {
    wst_entry_t e[WST_MAX_ENTRIES];
    uint32_t sum_rmfc; /* sum-rMFC counter (000 §5.4.3) */
} wst_state_t;

typedef struct wst_in {
    /* early inputs: the outputs depend on these */
    uint8_t idx;      /* the entry operated on */
    uint64_t elig;    /* entries that may merge into idx: ready, at the base of their stack */
    uint32_t mpc;     /* the PC they must be at to merge (idx's PC after its instruction) */
    /* the operation, decided after looking at the outputs */
    uint8_t op;       /* 1: operate on entry idx this clock */
    uint8_t free;     /* invalidate idx (the write below is ignored) */
    uint8_t set;      /* idx becomes the root of warp: counters cleared, lat = lat */
    uint16_t warp;
    uint32_t pc;      /* idx's new PC, mask and status */
    wmask_t mask;
    uint8_t st;
    uint8_t issue;    /* idx issued an instruction this clock */
    uint8_t resume;   /* ... its first since its last miss completed */
    uint8_t miss;     /* ... and it missed: lat holds the miss latency */
    uint32_t lat;
    uint8_t merge;    /* absorb merge_vec: those entries become invalid */
    uint8_t spawn;    /* a child of idx (after this clock's update) goes to the lowest
                         free entry other than idx, with pc_b, mask_b, st_b */
    uint32_t pc_b;
    wmask_t mask_b;
    uint8_t st_b;
} wst_in_t;

typedef struct wst_out {
    uint8_t nfree;      /* invalid entries */
    uint8_t free_idx;   /* lowest invalid entry (0 when none) */
    uint8_t free2_idx;  /* second lowest (0 when fewer than two) */
    uint64_t merge_vec; /* valid entries j != idx with elig[j], warp[j] == warp[idx], pc[j] == mpc */
    wmask_t merge_mask; /* mask[idx] | masks of merge_vec */
    uint64_t lag_vec;   /* per warp with two or more entries: its entry with the lowest icnt (lowest index on ties) */
    uint8_t latspec;    /* valid[idx] && sum_rmfc + mfc[idx] < lat[idx] (000 §5.4.3) */
} wst_out_t;

typedef struct wst {
    wst_config_t cfg;
    wst_state_t q;
    uint32_t cnt_max, mfc_max;
    uint32_t pc_mask;
    wmask_t lanes; /* the low width bits */
} wst_t;

/* Returns 0, or -1 with a message naming the bad parameter. */
int wst_init(wst_t *t, const wst_config_t *cfg, char *err, size_t errlen);
void wst_reset(wst_t *t);
void wst_eval(const wst_t *t, const wst_in_t *in, wst_out_t *out);
/* in->op == 0 leaves the state unchanged. `out` is wst_eval's for the same in. */
void wst_clock(wst_t *t, const wst_in_t *in, const wst_out_t *out);

/* Field widths of the ports (docs/blocks/wst.md). */
int wst_idx_bits(const wst_config_t *c);
int wst_warp_bits(const wst_config_t *c);

/* One port-trace line (recorded by wpusim --record-block wst=FILE, replayed
 * by tb/): the inputs and outputs of one clock with an operation. */
void wst_trace_header(const wst_config_t *c, FILE *out);
void wst_trace_line(const wst_t *t, uint64_t cycle, int wpu, const wst_in_t *in, const wst_out_t *out, FILE *f);

#endif
