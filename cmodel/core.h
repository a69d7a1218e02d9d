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
#include "wsim.h"
#include "blocks/prt.h"
#include "blocks/sched.h"

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

/* The metadata registers of a lane (003 §IV-A): its thread, and the warp of
 * the grid it belongs to. In the fixed grid a slot holds one warp of the
 * grid; under an irregular grid (grid.c) a slot holds a partition: one or
 * more of the grid's warps packed side by side. */
typedef struct lane_meta {
    uint32_t tid;   /* global thread id */
    uint32_t wid;   /* its warp in the grid (CSR wsim.wid) */
    uint16_t wtid;  /* its index in that warp (wsim.wtid) */
    uint16_t ntids; /* that warp's threads (wsim.ntids): lanes lane - wtid .. lane - wtid + ntids - 1 */
} lane_meta_t;

/* A warp slot on a WPU and the warp running in it. */
typedef struct warp {
    int wpu, slot;
    int gid;        /* global warp number (irregular grids: the partition), -1 when the slot is empty */
    uint32_t tid0;  /* thread id of lane 0 */
    int vl;         /* lanes that hold a thread at launch: the partition's vector length */
    thread_t *th;   /* [width] */
    lane_meta_t *meta; /* [width]: each lane's thread and warp */
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
    uint8_t missed;   /* its wait on memory (WAIT_MEM) is a miss or a full MSHR file: a
                         long-latency stall for two-level scheduling (mech/twolev.c) */
    wmask_t pend_hit; /* revive: lanes of its last divergent access that hit */
    uint64_t hit_ready; /* ... and when their data is there */
} group_t;

/* blockinst.c: a block instance of the machine, for WPU `unit': the C model
 * c_model, or what the machine's block hook chose (ops). Its owner (the
 * machine or a mechanism) holds it; the machine lists every instance, so
 * that any block is recorded through it (block_record, --record-block). */
typedef struct block_inst {
    const block_ops_t *ops; /* the C model's, or the hook's (an RTL block) */
    void *blk;
    const char *name;       /* the C model's name: "wst" */
    const void *cfg;        /* its parameters (the owner's) */
    int unit;
    FILE *rec;              /* --record-block: its port traffic, or NULL */
} block_inst_t;

/* 003's vector core (core = vector, wpu.c): its execution units, each free
 * from a cycle on, and the busy-cycle count's horizon. */
enum { VEC_FMA, VEC_ALU, VEC_DIV, VEC_LD, VEC_ST, VEC_KINDS };
typedef struct vcore {
    int n[VEC_KINDS];
    uint64_t *free_at[VEC_KINDS]; /* [n[k]] */
    uint64_t covered;             /* cycles before it are in vec_busy_any */
    int rr;                       /* the partition the scheduler looks at first */
    /* the partitioned register table (blocks/prt.h), reached only through its ports */
    block_inst_t prt;
    prt_config_t prt_cfg;
    prt_in_t pin;
    prt_out_t pout;
    uint32_t pend_alloc, pend_free; /* slots whose partition waits for its entry / whose entry frees */
    int nren;                       /* renames collected this clock */
} vcore_t;

#define WSIM_MECHS 8 /* room for mechanisms: s->mech[] and each WPU's mstate[] (>= mech/mech.h's MECH_COUNT) */

/* A load/store's lanes for the memory system, which the pipeline times
 * (wpu.c, mem_door: the one door to memory timing): lanes of warp gid (its
 * global number) at addr[lane]. A mechanism asks through wpu_t.mreq (by:
 * itself; its mem_done hook gets the answer). */
enum {
    MEM_ASK,     /* is an MSHR free for it? (no access, nothing counted) */
    MEM_CHECK,   /* the MSHR check before issue, a refusal counted (a mechanism times the access) */
    MEM_ISSUE,   /* the check, then the access (its misses counted when the instruction retires) */
    MEM_SUBWARP, /* the check, then the access, its misses counted now (LWM's sub-warps) */
};
typedef struct mem_req {
    const struct mech_ops *by; /* a mechanism's request (NULL: none pending) */
    const uint32_t *addr;
    wmask_t lanes;
    int store, gid, kind;      /* kind: MEM_* */
} mem_req_t;

typedef struct wpu {
    int id;
    warp_t *warp; /* [warps] */
    group_t *grp;  /* [ngrp]: one per warp slot, or as many as a mechanism's groups hook
                      asks for (DWS: one per warp-split table entry) */
    int ngrp;
    uint64_t *avail; /* [ngrp]: first cycle each group may issue (NEVER: none, waiting at a
                        barrier or a re-convergence point, or without a scheduler slot) */
    void *mstate[WSIM_MECHS]; /* each chosen mechanism's own state of this WPU, at its MECH_* index
                                 (mech/mech.h); NULL: the mechanism is off */
    uint8_t mech_mem;    /* a mechanism asks for the loads/stores' accesses (lwm: per sub-warp):
                            issue does not (the MSHR check before issue stays the issue's) */
    mem_req_t mreq;      /* a mechanism's access, for the pipeline to time (mem_door) */
    int live_groups;
    sched_t sched;    /* the group scheduler block, its inputs this clock and its keys */
    sched_in_t sin;
    uint32_t *key;    /* [ngrp] */
    const struct select_ops *sel; /* group selection (chosen at creation): the scheduler block's
                                     (wpu.c) or a mechanism's (mech/twolev.c: the fetch arbiter) */
    uint8_t stay_we, stay; /* switch_on: the group that issued keeps the pipeline (selection's clock input) */
    uint64_t next_ready; /* the first cycle it needs a look (wpu_refresh_next_ready: the earliest
                            avail[], not before blocked_until, and the mechanisms'); NEVER: none */
    uint64_t blocked_until; /* switch_on = miss: the pipeline waits for a hit */
    vcore_t *vc;         /* core = vector: the execution units (wpu.c) */
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
    int nwpus, nwarps;
    int warp_size, lanes; /* threads per warp; SIMD lanes (equal until large warps) */
    uint64_t stack_lo;    /* the thread stacks: [stack_lo, cfg.stack_top) */
    uint32_t nthreads;
    wpu_t *wpu;
    thread_t *threads_mem; /* [wpus x warps x warp_size]: every slot's threads (warp_t.th) */
    lane_meta_t *meta_mem; /* [wpus x warps x warp_size]: their metadata (warp_t.meta) */

    /* irregular grids (grid.c, docs/irregular.md): NULL is the fixed grid */
    struct grid *grid;
    struct grid_request *grid_req; /* --warp-sizes, --input: given before the launch */
    uint32_t grid_nwarps;          /* warps in the grid (CSR wsim.nwarps) */
    join_prog_t join_prog;         /* reconv = join: the program's JOIN nodes and priorities (join.c) */
    uint8_t reg_index[64];         /* core = vector: the program's registers (x0..x31, f0..f31) numbered densely */
    int nregs;                     /* ... how many it uses: a partition's registers in the PRT */
    struct block_inst **blocks;    /* every block instance, in creation order (block_new) */
    int nblocks, capblocks;
    int prepared;                  /* the grid is built (wsim_prepare) */

    /* per thread */
    int32_t *exit_code;
    uint8_t *tstate;
    uint64_t *instret; /* instructions each thread executed, recorded when it leaves */

    /* warps not yet resident, launched in order as slots free up */
    int total_warps, next_warp, resident_warps;
    int launched; /* the first warps are in their slots (at the first wsim_run) */
    uint64_t next_watch; /* the watchdog's next look (NEVER: off) */
    uint64_t last_watch; /* its previous look (or the launch): what "since the last look" counts from */

    /* global barrier */
    uint32_t live_threads, barrier_arrived;

    uint64_t cycle;
    FILE *trace;
    uint32_t faults_reported, faults_total;
    int status_reason; /* wsim_status_t of the last run */
    volatile sig_atomic_t stop_requested; /* wsim_request_stop(): wsim_run stops at the next cycle */

    /* the region of interest (roi.c): marks of the barriers arrived at
     * (ROI_*), of the last release, to be taken at the end of its cycle */
    unsigned roi_arrived, roi_pending;
    struct roi *roi;

    const struct mech_ops *mech[WSIM_MECHS]; /* the mechanisms chosen at creation (mech/mech.h) */
    int nmech;
    int group_stats; /* a mechanism shapes the groups: groups_sum and groups_max are counted */
    uint64_t (*bprof)[4]; /* --branch-profile: per code word (branchsel.c), or NULL */
    uint64_t check_inject; /* test hook (WSIM_CHECK_INJECT): corrupt a group at this cycle */
    struct check_warp_sum *check_sum; /* --check's per-warp sums (check.c), allocated at its first clock */
    wsim_block_hook_t block_hook; /* where the blocks come from (NULL create: the C models) */
    char block_err[1024];         /* why the first refused block was refused (wsim_create fails) */
    int block_failed;             /* wsim_block_failed(): stop at the end of the cycle */
    struct timeline *tl;          /* --timeline (timeline.h), or NULL */

    /* scratch for one issue */
    uint32_t addr[WSIM_MAX_LANES];
    uint32_t target[WSIM_MAX_LANES];
    uint8_t fault[WSIM_MAX_LANES];
};

/* What one SIMD instruction did, as the functional core reports it
 * (exec.c): the pipeline and the mechanisms act on it; the core itself
 * never calls up into them. */
enum { /* exec_report_t.ev: which of its masks hold something (the others are not set) */
    EXEC_EXITED = 1, EXEC_FAULTED = 2, EXEC_RETURNED = 4, EXEC_BARRIER = 8, EXEC_DIVERGED = 16,
};
typedef struct exec_report {
    int cls;          /* ISA_CLASS_* of the instruction (ILLEGAL: no code) */
    uint32_t pc;      /* where the group was */
    rstack_t *rs;     /* the stack it ran on */
    unsigned ev;      /* EXEC_*: what happened besides the plain execution */
    wmask_t exited;   /* lanes that ran exit (code in their a0) and left the stacks */
    wmask_t faulted;  /* lanes that faulted (reported already) and left the stacks */
    wmask_t returned; /* split lanes that returned past their own stack (to a call
                         made before the split): they moved to the warp's stack */
    wmask_t barrier;  /* lanes that arrived at a barrier */
    wmask_t taken, fall; /* a conditional branch went both ways: the stack is not
                         updated; the pipeline splits the group or pushes it */
} exec_report_t;

/* One issue, for the mechanisms: the instruction, its report, what the
 * group looked like before it, and its memory access (NULL: none; a
 * load/store's addresses per lane: addr). */
typedef struct issue {
    const isa_insn_t *d;
    const exec_report_t *x;
    const struct mem_result *r;
    const uint32_t *addr;
    uint32_t pc;         /* the group's pc and stack depth before it executed */
    int depth;
    wmask_t lanes_before; /* the group's lanes, and its warp's live lanes, before */
    wmask_t live_before;
} issue_t;

/* ---- who calls whom (docs/architecture.md): machine.c -> wpu.c -> {exec.c,
 * warp.c, mech/dws.c, blocks}; warp.c -> mech/dws.c; exec.c -> fault.c; every
 * file may use group.c. Nothing calls back up. ---- */

/* exec.c, the functional core: execute the running group of g (d: its
 * pre-decoded instruction, NULL: no code at its PC) and update its stack,
 * except for a divergent branch, which it leaves to the pipeline (which then
 * counts the stack's depth: exec_count_depth). Lanes that exit or fault leave
 * the stacks; the report says which. */
void exec_issue(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d, exec_report_t *x);
static inline void exec_count_depth(wpu_t *u, const rstack_t *rs)
{
    if ((uint64_t)rs->max_depth > u->st.max_stack) u->st.max_stack = (uint64_t)rs->max_depth;
}

/* fault.c: report a faulting thread (once; up to fault_report_limit lines)
 * and mark it faulted. The caller takes it off its warp (warp_thread_leaves). */
int fault_report(struct wsim *s, const warp_t *w, int lane, uint32_t pc, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* group.c: a group's scheduling view. */
#define NEVER UINT64_MAX
/* Keep the scheduler's view (u->avail) of g in step with its state. */
static inline void group_sync_avail(wpu_t *u, const group_t *g)
{
    u->avail[g->id] = g->w && g->slotted && g->wait != WAIT_BARRIER && g->wait != WAIT_SYNC ? g->ready_at : NEVER;
}
/* The exact first cycle at which WPU u may issue (or revive a split). */
void wpu_refresh_next_ready(const struct wsim *s, wpu_t *u);
static inline int group_is_split(const group_t *g) { return g->rs != &g->w->rs; }
/* A group may split or merge only at the level it was created at: a root
 * at its stack's top, a split with nothing nested on its own stack. */
static inline int group_at_base(const group_t *g) { return !group_is_split(g) || g->own.depth == 1; }
/* Every lane the group holds (a split: on all levels of its own stack). */
wmask_t group_lanes(const group_t *g);
/* One line per SIMD group of warp w: its pc, lanes and what it waits for. */
void group_report(const struct wsim *s, const warp_t *w, FILE *out);

/* grid.c: the grid (fixed or irregular) that warp_launch places. The
 * partition gid's lanes: their metadata into meta (warp_size entries);
 * returns the lanes that hold a thread. */
int grid_partition_lanes(const struct wsim *s, int gid, lane_meta_t *meta);
void grid_free(struct wsim *s);

/* warp.c: warps in their slots, threads leaving, the global barrier. */
void warp_launch(struct wsim *s, int gid, wpu_t *u, warp_t *w, group_t *root, int initial);
void warp_thread_leaves(struct wsim *s, warp_t *w, int lane);
void warp_barrier_arrive(struct wsim *s, group_t *g, wmask_t lanes, uint32_t pc);

/* wpu.c: the clock of every WPU, one after another (docs/architecture.md has
 * the order of one WPU's clock). */
void wpu_clock_all(struct wsim *s);
/* config.c: wsim_config_mask_bits of a configuration already checked */
int config_mask_bits(const wsim_config_t *c);
void wpu_account_stall(struct wsim *s, wpu_t *u, uint64_t n);

/* blockinst.c: block instances (block_inst_t, above). block_new makes b and
 * lists it; when the hook fails, its message is kept for wsim_create and
 * the C model is made instead (the machine is then destroyed). -1 only when
 * the C model's own init fails or the list cannot grow (err: why). */
int block_new(struct wsim *s, block_inst_t *b, const block_ops_t *c_model, const void *cfg, int unit, char *err,
              size_t errlen);
void block_free(block_inst_t *b); /* (also one never made) */
static inline void block_eval(block_inst_t *b, const void *in, void *out) { b->ops->eval(b->blk, in, out); }
/* The clock edge of b, recorded first when it is (the trace line holds the
 * inputs and eval's outputs for them). */
static inline void block_clock(block_inst_t *b, uint64_t cycle, const void *in, const void *out)
{
    if (b->rec) b->ops->trace(b->blk, cycle, b->unit, in, out, b->rec);
    b->ops->clock(b->blk, in, out);
}
/* A clock edge the trace leaves out: the PRT records only clocks with an
 * operation (docs/blocks/prt.md), and its idle clocks come here. */
static inline void block_clock_unrecorded(block_inst_t *b, const void *in, const void *out)
{
    b->ops->clock(b->blk, in, out);
}
/* --record-block: every instance of the block named records to out (the
 * header once, from the first); the instances (0: the block is not in
 * this machine; out NULL: only counts, records nothing). */
int block_record(struct wsim *s, const char *name, FILE *out);

/* roi.c: the region of interest (wsim.roi.begin / wsim.roi.end barriers). */
enum { ROI_BEGIN = 1, ROI_END = 2 };
int roi_init(struct wsim *s);
void roi_free(struct wsim *s);
void roi_mark(struct wsim *s, int marks); /* at the end of the cycle of a marking barrier's release */
int roi_marked(const struct wsim *s);     /* the kernel opened a region */
void roi_swap(struct wsim *s, int in);    /* 1: the region's counters in place of the live ones; 0: back */
typedef struct roi_span {
    uint64_t first, last, cycles; /* first and last cycle; cycles in its intervals */
    int intervals, complete;      /* complete: no interval left open */
} roi_span_t;
roi_span_t roi_span(const struct wsim *s);

/* check.c: --check's invariants of every warp; 1 with a message when one fails. */
int check_machine(struct wsim *s, char *msg, size_t len);

/* report.c: the deadlock and watchdog reports. */
void report_deadlock(const struct wsim *s);
int report_watchdog(const struct wsim *s); /* 1 when a warp is stuck (reported) */

#endif
