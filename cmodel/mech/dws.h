/* Dynamic warp subdivision, the pipeline's side of the mechanism (seed 001
 * §4-§6, seed 000 §5; docs/dws.md). The pipeline (wpu.c) tells it what
 * happened this clock; it decides splits, merges and re-convergence waits,
 * and the warp-split table's one operation per clock (the block,
 * blocks/wst.c), which dws_clock commits. It never calls up into the
 * pipeline or the machine. */
#ifndef WSIM_MECH_DWS_H
#define WSIM_MECH_DWS_H

#include "core.h"

void dws_init_wpu(struct wsim *s, wpu_t *u);
/* A warp's root group g starts (initial: the launch before cycle 0, which
 * writes the table at once, one entry per launch). */
void dws_launch(struct wsim *s, wpu_t *u, group_t *g, int initial);
/* Before g issues d: merges and re-convergence waits. 0: issue; 1: the
 * group used this clock without issuing (waits at a re-convergence point). */
int dws_before_issue(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d);
/* A divergent branch of group g (taken and fall lanes): 1 when it split the
 * group, 0 when the group's stack takes it. */
int dws_branch_split(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d, uint32_t pc, wmask_t taken,
                     wmask_t fall);
/* After g issued: parks, memory splits, the table operation. */
void dws_after_issue(struct wsim *s, wpu_t *u, group_t *g, const issue_t *is);
/* A clock in which WPU u issued nothing: ReviveSplit. 1 when a group split. */
int dws_stalled(struct wsim *s, wpu_t *u);
/* Commit the table operation of this clock (if any). */
void dws_clock(struct wsim *s, wpu_t *u);
/* Scheduler slots (001 §5.6): a group takes one to issue, gives it back
 * when it waits at a barrier or ends. */
void dws_slot_take(struct wsim *s, wpu_t *u, group_t *g);
void dws_slot_release(struct wsim *s, wpu_t *u, group_t *g);
/* All of warp w's splits wait for each other: the one behind goes on. */
void dws_sync_breaker(struct wsim *s, wpu_t *u, warp_t *w);
/* --check: g's table entry mirrors it; the table and the slots of u add up. */
int dws_check_group(const struct wsim *s, const wpu_t *u, const group_t *g, char *msg, size_t len);
int dws_check_wpu(const struct wsim *s, const wpu_t *u, char *msg, size_t len);

#endif
