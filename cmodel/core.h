/* Internal state of the C model: threads, warps and their re-convergence
 * stacks, WPUs, the machine. Private to cmodel/. */
#ifndef WSIM_CORE_H
#define WSIM_CORE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mask.h"
#include "mem.h"
#include "memsys.h"
#include "program.h"
#include "reconv.h"
#include "sched.h"
#include "wsim.h"
#include "blocks/wst.h"

/* Architectural state of one thread. */
typedef struct thread {
    uint32_t x[33]; /* x[32] swallows writes to x0 (see ISA_X0_SINK) */
    uint32_t f[32];
    uint32_t fflags, frm;
    uint64_t instret;
} thread_t;

/* What a SIMD group waits for. SYNC: a split waiting at a re-convergence
 * point for the other splits of its warp (dws_branches = limited). */
enum { WAIT_NONE, WAIT_MEM, WAIT_BARRIER, WAIT_FETCH, WAIT_SYNC };

typedef struct stats {
#define STAT(name, help) uint64_t name;
#include "stats.def"
#undef STAT
} stats_t;

/* A warp slot on a WPU and the warp running in it. */
typedef struct warp {
    int wpu, slot;
    int gid;        /* global warp number, -1 when the slot is empty */
    uint32_t tid0;  /* thread id of lane 0 */
    thread_t *th;   /* [width] */
    rstack_t rs;    /* re-convergence stack; while the warp is one group its top is that group;
                       while it is split its top holds the lanes of all its splits */
    wmask_t live;   /* lanes whose threads have not exited */
    wmask_t at_barrier; /* lanes that arrived at the barrier (until release) */
    uint32_t barrier_pc;
    int ngroups;    /* SIMD groups (root or splits) */
    uint64_t last_issue; /* watchdog */
} warp_t;

/* A schedulable SIMD group: a warp's root group, or (dws = on) one of its
 * warp-splits. With dws on, group i is warp-split table entry i. */
typedef struct group {
    warp_t *w;      /* NULL: unused */
    rstack_t *rs;   /* the stack it runs on: &w->rs (root) or &own (split) */
    rstack_t own;   /* a split's own stack: its base entry re-converges at the warp's
                       stack-top PC; divergence the split does not split on nests above */
    uint64_t ready_at; /* first cycle the group may issue again */
    int wait;       /* WAIT_* */
    ifetch_slot_t fetch; /* the group's I-cache miss in flight */
    int id;
    uint8_t slotted;  /* holds a scheduler slot */
    uint8_t resume;   /* missed: its next issue resumes it (MFC bookkeeping) */
    uint8_t go;       /* released by the sync breaker: issue the waiting branch once */
    uint8_t after_barrier; /* first issue after a barrier: merge with splits at its PC */
    wmask_t pend_hit; /* revive: lanes of its last divergent access that hit */
    uint64_t hit_ready; /* ... and when their data is there */
} group_t;

typedef struct wpu {
    int id;
    warp_t *warp; /* [warps] */
    group_t *grp;  /* [ngrp]: warps (dws off) or warp-split table entries (dws on) */
    int ngrp;
    uint64_t *avail; /* [ngrp]: first cycle each group may issue (NEVER: none, waiting at a
                        barrier or a re-convergence point, or without a scheduler slot) */
    wst_t wst;     /* dws on: the warp-split table block and its ports this cycle */
    wst_in_t win;
    wst_out_t wout;
    int slots_used, live_groups;
    int revive_blocked; /* no free entry since the last revive attempt */
    sched_t sched;
    uint64_t next_ready; /* min ready_at over its issuable warps; UINT64_MAX if none */
    uint64_t blocked_until; /* switch_on = miss: the pipeline waits for a hit */
    stats_t st;
    uint64_t div_degree[WSIM_MAX_LANES + 1]; /* missing threads per divergent access */
} wpu_t;

enum { TS_RUNNING = 0, TS_EXITED = 1, TS_FAULTED = 2, TS_PENDING = 3 };

struct wsim {
    wsim_config_t cfg;
    program_t *prog;
    mem_t *mem;
    memsys_t ms;
    int private_data; /* bulksync: loads and stores go through the WPU's L1 copy */
    int nwpus, nwarps, width;
    uint32_t nthreads;
    wpu_t *wpu;

    /* per thread */
    int32_t *exit_code;
    uint8_t *tstate;
    uint64_t *instret; /* instructions each thread executed, recorded when it leaves */

    /* warps not yet resident, launched in order as slots free up */
    int total_warps, next_warp, resident_warps;

    /* global barrier */
    uint32_t live_threads, barrier_arrived;

    uint64_t cycle;
    FILE *trace;
    uint32_t faults_reported, faults_total;
    int status_reason; /* wsim_status_t of the last run */
    volatile sig_atomic_t stop_requested; /* wsim_request_stop(): wsim_run stops at the next cycle */

    FILE *record_wst; /* --record-block wst=FILE */
    wmask_t left;     /* lanes that returned past a split's own stack this issue */
    wmask_t spawned;  /* lanes that went to a new split this issue */
    uint64_t check_inject; /* test hook (WSIM_CHECK_INJECT): corrupt a group at this cycle */
    uint32_t issue_pc; /* the issuing group's pc and stack depth before it executed */
    int issue_depth;

    /* scratch for one issue */
    uint32_t addr[WSIM_MAX_LANES];
    uint32_t target[WSIM_MAX_LANES];
    uint8_t fault[WSIM_MAX_LANES];
};

/* exec.c: execute the running group of g functionally and update its stack.
 * d is its pre-decoded instruction (NULL: no code at its PC). Returns the
 * instruction's class for the timing model. Lanes of a split that return
 * past its own stack (to a call made before the split) go to s->left. */
int exec_issue(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d);

/* sim.c services used by exec.c */
void sim_thread_exit(struct wsim *s, warp_t *w, int lane, int32_t code);
void sim_thread_fault(struct wsim *s, warp_t *w, int lane, uint32_t pc, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void sim_barrier_arrive(struct wsim *s, group_t *g, wmask_t lanes, uint32_t pc);
/* A divergent branch of group g: 1 when DWS split it (dws.c), else 0 and the
 * group's stack takes it. */
int dws_branch_split(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d, uint32_t pc, wmask_t taken,
                     wmask_t fall);

/* dws.c: the pipeline side of dynamic warp subdivision */
void dws_init_wpu(struct wsim *s, wpu_t *u);
void dws_launch(struct wsim *s, wpu_t *u, group_t *g, int initial);
/* Before g issues d: merges and re-convergence waits. 0: issue; 1: the
 * group used this clock without issuing (waits at a re-convergence point). */
int dws_before_issue(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d);
/* After g issued: parks, memory splits, the table operation. */
void dws_after_issue(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d, int cls, const struct mem_result *r,
                     wmask_t lanes_before, wmask_t live_before);
/* A clock in which WPU u issued nothing: ReviveSplit. 1 when a group split. */
int dws_stalled(struct wsim *s, wpu_t *u);
/* Commit the table operation of this clock (if any). */
void dws_clock(struct wsim *s, wpu_t *u);
wmask_t dws_group_lanes(const group_t *g);
void dws_slot_release(struct wsim *s, wpu_t *u, group_t *g);
void dws_sync_breaker(struct wsim *s, wpu_t *u, warp_t *w);
void dws_slot_take(struct wsim *s, wpu_t *u, group_t *g);
int dws_check(struct wsim *s, char *msg, size_t len);
void sim_sync_avail(struct wsim *s, wpu_t *u, const group_t *g);

#endif
