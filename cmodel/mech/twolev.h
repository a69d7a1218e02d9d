/* Two-level warp scheduling (004 §3.2-§3.3; docs/twolevel.md): the
 * pipeline side of the fetch arbiter block (blocks/fetcharb.h). The
 * arbiter is chosen at machine creation when scheduler = twolevel and is
 * then the fetch arbitration step of a WPU's clock (wpu.c, pick()); the
 * pipeline reaches it only through its ports. */
#ifndef WSIM_TWOLEV_H
#define WSIM_TWOLEV_H

#include "../core.h"

/* Creates WPU u's arbiter (fetch groups of min(fetch_group_size, warps)
 * warps). Returns 0, or -1 with a message. */
int twolev_init_wpu(struct wsim *s, wpu_t *u, char *err, size_t errlen);
void twolev_free_wpu(wpu_t *u);
/* The arbiter's grant among u's warps this clock (its early inputs from
 * the warps' state), or -1 when none can issue. */
int twolev_pick(struct wsim *s, wpu_t *u);
/* The clock edge: last = the clock's final grant (-1: none), issued = an
 * instruction issued (counted for the timeout only when it was fetched
 * through the grant: a sub-warp the LWM picker sends while it holds the
 * front end is not a new instruction); the switch statistics. A clock in
 * which the pipeline did not ask for a grant (the picker held the front
 * end) evaluates the arbiter here first, on the clock's inputs. */
void twolev_clock(struct wsim *s, wpu_t *u, int last, int issued);
/* --check: the last clock's priority order is a rotation of the fetch
 * groups, its grant the first ready warp in that order, the switch taken.
 * 1 with a message when not. */
int twolev_check(const struct wsim *s, const wpu_t *u, char *msg, size_t len);

#endif
