/* Internal state of the C model: threads, warps and their re-convergence
 * stacks, WPUs, the machine. Private to cmodel/. */
#ifndef WSIM_CORE_H
#define WSIM_CORE_H

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

/* Architectural state of one thread. */
typedef struct thread {
    uint32_t x[33]; /* x[32] swallows writes to x0 (see ISA_X0_SINK) */
    uint32_t f[32];
    uint32_t fflags, frm;
    uint64_t instret;
} thread_t;

enum { WAIT_NONE, WAIT_MEM, WAIT_BARRIER, WAIT_FETCH };

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
    rstack_t rs;    /* re-convergence stack; its top is the running SIMD group */
    wmask_t live;   /* lanes whose threads have not exited */
    uint64_t ready_at; /* first cycle the group may issue again */
    int wait;       /* WAIT_* */
    wmask_t at_barrier; /* lanes that arrived at the barrier (until release) */
    ifetch_slot_t fetch; /* the group's I-cache miss in flight */
    uint32_t barrier_pc;
} warp_t;

typedef struct wpu {
    int id;
    warp_t *warp; /* [warps] */
    uint64_t *avail; /* [warps]: first cycle each slot may issue (NEVER: empty or at a barrier) */
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

    /* warps not yet resident, launched in order as slots free up */
    int total_warps, next_warp, resident_warps;

    /* global barrier */
    uint32_t live_threads, barrier_arrived;

    uint64_t cycle;
    FILE *trace;
    uint32_t faults_reported, faults_total;
    int status_reason; /* wsim_status_t of the last run */

    /* scratch for one issue */
    uint32_t addr[WSIM_MAX_LANES];
    uint32_t target[WSIM_MAX_LANES];
    uint8_t fault[WSIM_MAX_LANES];
};

/* exec.c: execute the top group of warp w functionally and update its stack.
 * d is its pre-decoded instruction (NULL: no code at its PC). Returns the
 * instruction's class for the timing model. */
int exec_issue(struct wsim *s, wpu_t *u, warp_t *w, const isa_insn_t *d);

/* sim.c services used by exec.c */
void sim_thread_exit(struct wsim *s, warp_t *w, int lane, int32_t code);
void sim_thread_fault(struct wsim *s, warp_t *w, int lane, uint32_t pc, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void sim_barrier_arrive(struct wsim *s, warp_t *w, wmask_t lanes, uint32_t pc);

#endif
