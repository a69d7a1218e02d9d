/* RTL in the loop (docs/rtl.md, "RTL in the loop"): the blocks named by
 * wpusim-rtl's --rtl run as their Verilated RTL (rtl/ws_<b>.sv) inside a
 * whole-benchmark run, through the machine's block hook (wsim.h:
 * wsim_block_hook_t). sim/rtl_loop.cpp, linked only into build/wpusim-rtl.
 *
 *   replace   the RTL alone drives the pipeline (its outputs, its registered
 *             read ports through a mirror image); statistics, results and
 *             traces are those of the C-only run, byte for byte;
 *   lockstep  the C model drives the pipeline and the RTL gets the same
 *             inputs; block_compare() holds every output port against the C
 *             model's at every evaluation and the registered read ports
 *             after every clock edge; the first mismatch is reported (cycle,
 *             WPU, block, port, expected, actual) and stops the run at the
 *             end of that cycle with status check_failed (exit 3).
 *
 * Each block is built for the parameter sets of sim/rtl_loop.params; the
 * set whose parameters equal the configuration's is used, else the machine
 * is not created (a message naming the block, the parameters, the sets
 * built and how to add one: exit 2).
 *
 * Test hook: WSIM_RTL_INJECT=BLOCK:CYCLE[:PORT] flips bit 0 of output PORT
 * (default: the block's first combinational output) of the RTL's outputs at
 * the first evaluation at or after CYCLE, once; a registered read port
 * (entry 0 of an entry field) is flipped in the mirror after the first edge
 * at or after CYCLE. Lockstep must catch either. */
#ifndef WSIM_RTL_LOOP_H
#define WSIM_RTL_LOOP_H

#include <stddef.h>
#include <stdio.h>

#include "wsim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rtl_loop rtl_loop_t;

/* The blocks and their sets in this build: "wst (dws, maws, bsync)". */
const char *rtl_loop_built(void);
/* From --rtl BLOCK[,BLOCK...], --rtl-mode replace|lockstep (NULL: replace)
 * and --rtl-wave FILE.fst (NULL: none): NULL with a message when a block
 * has no RTL in this build or the mode is unknown. */
rtl_loop_t *rtl_loop_new(const char *blocks, const char *mode, const char *wave, char *err, size_t errlen);
/* The hook to create the machine with (wsim_create_with). */
wsim_block_hook_t rtl_loop_hook(rtl_loop_t *r);
/* After the machine is created: -1 with a message when a named block is
 * not in this configuration (e.g. wst with dws = off). */
int rtl_loop_attach(rtl_loop_t *r, wsim_t *s, char *err, size_t errlen);
/* One line on f: the blocks in the loop, their sets, mode, clock edges. */
void rtl_loop_summary(const rtl_loop_t *r, FILE *f);
/* 1 when the RTL failed (a lockstep mismatch, a failed RTL assertion). */
int rtl_loop_failed(const rtl_loop_t *r);
void rtl_loop_free(rtl_loop_t *r);

#ifdef __cplusplus
}
#endif

#endif
