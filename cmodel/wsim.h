/* WarpSplit C model: public interface.
 *
 * A wsim_t is one simulated machine (WPUs, warps, memory) running one kernel.
 * All state hangs off the handle: two instances can coexist. */
#ifndef WSIM_H
#define WSIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config_enum.h" /* generated from config.def: enum cfg_<key> { CFG_<KEY>_<CHOICE> } */

#define WSIM_VERSION "0.1.0"

/* ---- configuration (keys in config.def) ---- */
typedef struct wsim_config {
#define CFG_INT(key, def, lo, hi, help) uint64_t key;
#define CFG_ENUM(key, def, choices, help) int key;
#define CFG_ALIAS(key, keys, help)
#include "config.def"
#undef CFG_INT
#undef CFG_ENUM
#undef CFG_ALIAS
} wsim_config_t;

void wsim_config_defaults(wsim_config_t *c);
/* Set one key from text. Errors name the key and what is allowed. */
int wsim_config_set(wsim_config_t *c, const char *key, const char *value, char *err, size_t errlen);
/* "key=value" */
int wsim_config_assign(wsim_config_t *c, const char *assignment, char *err, size_t errlen);
/* "key = value" lines, '#' comments, from text; errors name origin and line. */
int wsim_config_parse(wsim_config_t *c, const char *text, const char *origin, char *err, size_t errlen);
/* The same from a file. */
int wsim_config_load(wsim_config_t *c, const char *path, char *err, size_t errlen);
/* Cross-key checks; fills derived values. */
int wsim_config_check(wsim_config_t *c, char *err, size_t errlen);
void wsim_config_help(FILE *out);
/* Stack colouring's positions C (sp of thread t is (t mod C) x stack_color
 * below its stack's top; docs/abi.md): one per SIMD lane, at least 32, at
 * most as many as fit in half of stack_size (64 at the defaults). */
uint32_t wsim_config_stack_colours(const wsim_config_t *c);
/* The widest lane mask a configuration needs, in bits: its warps' threads
 * (004's large warps under lwm), and 8 bits a thread for the slip
 * controller's counters (dom with slip). 0 when the configuration does not
 * pass wsim_config_check. A build of the C model holds masks of at most
 * wsim_core.max_lanes bits; wsim_create refuses a configuration needing more. */
int wsim_config_mask_bits(const wsim_config_t *c);
void wsim_config_print(const wsim_config_t *c, FILE *out, int json);

/* ---- simulation ---- */
typedef struct wsim wsim_t;

typedef enum wsim_status {
    WSIM_DONE = 0,       /* every thread exited or faulted */
    WSIM_MAX_CYCLES = 1, /* stopped at max_cycles */
    WSIM_DEADLOCK = 2,   /* nothing can ever issue again (or the watchdog fired) */
    WSIM_CHECK_FAILED = 3, /* --check found a broken invariant */
    WSIM_INTERRUPTED = 4,  /* wsim_request_stop() was called */
    WSIM_RUNNING = 5,      /* wsim_run_until reached its cycle: call again to go on */
} wsim_status_t;

wsim_t *wsim_create(const wsim_config_t *c, const char *elf_path, char *err, size_t errlen);

/* Where the machine's blocks come from (RTL in the loop: sim/rtl_loop.cpp,
 * docs/rtl.md). Every block instance the machine creates (the WST, the MDT,
 * the ASC, the column picker, the fetch arbiter: one per WPU) is asked of
 * create(): c_model is the block's C model (blocks/block.h), cfg its
 * parameters (c_model's config struct), unit the WPU. It returns the
 * instance and sets *ops to the ops that drive it (the C model's, or a
 * Verilated RTL block with the same ports), or NULL with a message in err:
 * the machine is then not created (wsim_create_with fails with it).
 * wsim_create is wsim_create_with(..., NULL, ...): every block the C model. */
struct block_ops;
typedef struct wsim_block_hook {
    void *(*create)(void *ctx, const struct block_ops *c_model, const void *cfg, int unit,
                    const struct block_ops **ops, char *err, size_t errlen);
    void *ctx;
} wsim_block_hook_t;
wsim_t *wsim_create_with(const wsim_config_t *c, const char *elf_path, const wsim_block_hook_t *hook, char *err,
                         size_t errlen);
/* A block outside the C model (a lockstep RTL block) found a mismatch: the
 * run stops at the end of this cycle with WSIM_CHECK_FAILED (the caller
 * reported it; the statistics so far stay readable). */
void wsim_block_failed(wsim_t *s);
void wsim_destroy(wsim_t *s);

void wsim_set_trace(wsim_t *s, FILE *out); /* one line per issued SIMD instruction */
/* Record a block's port traffic (block "wst": docs/blocks/wst.md): every
 * instance of it (one a WPU) writes to out. Returns the instances; 0: the
 * machine has no such block (its configuration leaves it out). out NULL:
 * only counts them. */
int wsim_set_record(wsim_t *s, const char *block, FILE *out);
wsim_status_t wsim_run(wsim_t *s);
/* The same run in budgets: simulate until the cycle `until` (WSIM_RUNNING:
 * call again to go on) or the end. Any sequence of budgets gives the same
 * run, cycle for cycle, as one wsim_run (wpusim's progress line uses it). */
wsim_status_t wsim_run_until(wsim_t *s, uint64_t until);
/* Ask wsim_run to stop at the end of the current cycle and return
 * WSIM_INTERRUPTED (statistics so far stay readable). Async-signal-safe:
 * it only sets a volatile sig_atomic_t, so a signal handler may call it. */
void wsim_request_stop(wsim_t *s);

/* 0 when every thread exited with code 0. */
int wsim_all_passed(const wsim_t *s);
/* Human summary of failing threads (nothing when all passed). */
void wsim_print_failures(const wsim_t *s, FILE *out);
void wsim_print_stats(const wsim_t *s, FILE *out, int json);
/* Whether the kernel registers results (WSIM_RESULT). */
int wsim_has_results(const wsim_t *s);
/* Write the kernel's WSIM_RESULT regions, concatenated, to path. */
int wsim_dump_results(const wsim_t *s, const char *path, char *err, size_t errlen);
/* Control-flow analysis of the loaded program, one line per function/branch. */
void wsim_dump_cfg(const wsim_t *s, FILE *out);
uint64_t wsim_cycles(const wsim_t *s);
/* Mark the conditional branches a --split-list file names (cmodel/branchsel.c,
 * dws_branch = list). Returns how many, or -1 with a message naming the
 * file, the line and the problem. */
int wsim_split_list(wsim_t *s, const char *path, char *err, size_t errlen);
/* Count, per conditional branch, executions, divergent ones and the smaller
 * side's threads (before wsim_run); write them, one line a branch. */
int wsim_branch_profile(wsim_t *s);
void wsim_branch_profile_write(const wsim_t *s, FILE *out);
uint64_t wsim_thread_insts(const wsim_t *s);
/* Whether the program accesses the CSR of this name (csr.def, e.g.
 * "wsim.task"): a key it reads has no effect otherwise. */
int wsim_reads_csr(const wsim_t *s, const char *name);

/* The warp timeline (--timeline; docs/see.md): Chrome / Perfetto
 * trace-event JSON written to out as the machine runs (before wsim_run):
 * the events of cycles [from, to) (to = 0: to the end), until limit bytes
 * are written (0: no limit), counters every period cycles (0: 100). The run
 * computes the same with and without it. -1 with err when it cannot be
 * opened. */
int wsim_set_timeline(wsim_t *s, FILE *out, uint64_t from, uint64_t to, uint64_t limit, uint64_t period, char *err,
                      size_t errlen);
/* After the run: closes the JSON (out stays open). Returns the bytes
 * written; *cut = the cycle at which the limit stopped the events (0: it
 * did not). */
uint64_t wsim_timeline_close(wsim_t *s, uint64_t *cut);
/* ---- irregular grids (003; docs/irregular.md), before the first run ----
 * wsim_set_warp_sizes: the grid's warp sizes, a list ("4,11,3") or a file
 * of them (1 .. warp_size each). wsim_set_input: fill the kernel's input
 * region NAME (WSIM_INPUT) from a file: it must fit the region and start
 * with its format tag. wsim_prepare: build the grid (the list, else the
 * kernel's own WSIM_GRID_ROWS, else the fixed grid), packing it when pack =
 * threshold; wsim_run prepares a machine that was not. Each returns 0, or
 * -1 with a message naming the problem and what to do. */
int wsim_set_warp_sizes(wsim_t *s, const char *list_or_file, char *err, size_t errlen);
int wsim_set_input(wsim_t *s, const char *name, const char *path, char *err, size_t errlen);
int wsim_prepare(wsim_t *s, char *err, size_t errlen);
/* The threads of an irregular grid (after wsim_prepare); 0 for the fixed grid. */
uint32_t wsim_grid_threads(const wsim_t *s);

/* ---- the machine's functions as a table ----
 * The C model is built twice, for masks of 256 and of 64 lanes (mask.h);
 * wpusim links both and drives the narrowest that holds the configuration
 * (wsim_config_mask_bits) through its table. Each build's table is
 * wsim_core; the 64-lane build exports only its table, as wsim_core64
 * (Makefile: every other symbol of that build is local). A wsim_t belongs to
 * the table that created it. */
typedef struct wsim_core {
    int max_lanes; /* WSIM_MAX_LANES of this build */
    wsim_t *(*create_with)(const wsim_config_t *c, const char *elf_path, const wsim_block_hook_t *hook, char *err,
                           size_t errlen);
    void (*destroy)(wsim_t *s);
    void (*set_trace)(wsim_t *s, FILE *out);
    int (*set_record)(wsim_t *s, const char *block, FILE *out);
    wsim_status_t (*run)(wsim_t *s);
    wsim_status_t (*run_until)(wsim_t *s, uint64_t until);
    void (*request_stop)(wsim_t *s);
    int (*all_passed)(const wsim_t *s);
    void (*print_failures)(const wsim_t *s, FILE *out);
    void (*print_stats)(const wsim_t *s, FILE *out, int json);
    int (*has_results)(const wsim_t *s);
    int (*dump_results)(const wsim_t *s, const char *path, char *err, size_t errlen);
    void (*dump_cfg)(const wsim_t *s, FILE *out);
    uint64_t (*cycles)(const wsim_t *s);
    int (*split_list)(wsim_t *s, const char *path, char *err, size_t errlen);
    int (*branch_profile)(wsim_t *s);
    void (*branch_profile_write)(const wsim_t *s, FILE *out);
    uint64_t (*thread_insts)(const wsim_t *s);
    int (*set_timeline)(wsim_t *s, FILE *out, uint64_t from, uint64_t to, uint64_t limit, uint64_t period, char *err,
                        size_t errlen);
    uint64_t (*timeline_close)(wsim_t *s, uint64_t *cut);
    int (*set_warp_sizes)(wsim_t *s, const char *list_or_file, char *err, size_t errlen);
    int (*set_input)(wsim_t *s, const char *name, const char *path, char *err, size_t errlen);
    int (*prepare)(wsim_t *s, char *err, size_t errlen);
    uint32_t (*grid_threads)(const wsim_t *s);
    int (*reads_csr)(const wsim_t *s, const char *name);
} wsim_core_t;
extern const wsim_core_t wsim_core;

#endif
