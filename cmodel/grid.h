/* Irregular grids (003 §III, §IV-B; docs/irregular.md): a kernel launched
 * over a list of warp sizes, kernel<<<m, w_list>>>, instead of m warps of
 * warp_size threads.
 *
 * The grid's warp i has size[i] threads (1 .. warp_size), global thread ids
 * tid0[i] .. tid0[i] + size[i] - 1 in the grid's order (the list as given),
 * whatever the packing. Warps go to the machine's warp slots as partitions:
 * one warp each (pack = none), or warps whose code takes about as many
 * instructions packed side by side up to warp_size lanes (pack = threshold:
 * 003 §IV-B's buckets). The order in which warps are dealt into partitions
 * is the list's, or a permutation of it by grid_order_seed (003 §V's random
 * row orders). A partition is launched like a fixed-grid warp: into WPU
 * p mod wpus, slot p div wpus, the rest as slots free up.
 *
 * Pure data: parsing a list, reading the kernel's own declaration
 * (WSIM_GRID_ROWS), ordering and packing. Measuring each size's instruction
 * count needs machines: machine.c does it and hands grid_pack the counts. */
#ifndef WSIM_GRID_H
#define WSIM_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "mem.h"
#include "program.h"

/* The most threads a grid may hold (as the configuration key threads). */
#define GRID_MAX_THREADS 16777216u

typedef struct grid {
    uint32_t m;         /* warps in the grid */
    uint32_t *size;     /* [m] threads of warp i */
    uint32_t *tid0;     /* [m] global thread id of its thread 0 */
    uint32_t nthreads;  /* sum of the sizes */
    uint32_t nlaunch;   /* warps launched: m, or 1 for a packing measurement */
    uint32_t *launch;   /* [nlaunch] the launched warps, partition by partition, lane order */
    uint32_t nparts;
    uint32_t *part_start; /* [nparts + 1] partition p's warps: launch[part_start[p] .. part_start[p+1]) */
    /* packing (pack = threshold): the buckets of 003 §IV-B */
    uint32_t nsizes;      /* distinct warp sizes */
    uint32_t *sizes;      /* [nsizes] ascending */
    uint64_t *insts;      /* [nsizes] SIMD instructions one warp of that size took alone (measured) */
    uint32_t *bucket;     /* [nsizes] its bucket */
    uint32_t nbuckets;
    uint64_t packed_lanes; /* lanes the partitions hold (sum of their vector lengths) */
} grid_t;

/* What was given for the grid before the launch (wsim_set_warp_sizes,
 * wsim_set_input): kept so that a packing measurement's machines get the same. */
typedef struct grid_request {
    uint32_t *sizes; /* --warp-sizes (NULL: the kernel's own grid, else the fixed grid) */
    long n;
    long only;       /* >= 0: launch this warp alone (a packing measurement) */
    int ninputs;
    char **input_name, **input_path; /* --input NAME=FILE, in order */
} grid_request_t;

/* Parse a warp-size list: arg is a file (when one of that name exists, or it
 * contains '/') of numbers separated by commas, blanks or newlines with
 * '#' comments, else the list itself ("4,11,3,2,8,3"). Sizes must be whole
 * numbers 1 .. max_size. Returns the count (>= 1) with *out malloc'd, or -1
 * with a message naming the token, its line and what is allowed. */
long grid_parse_sizes(const char *arg, uint32_t max_size, uint32_t **out, char *err, size_t errlen);

/* The kernel's own grid (WSIM_GRID_ROWS in warpsplit.h: the records of
 * section wsim_grid), read from memory after the inputs were placed: one
 * warp per row of a CSR row-offset array, as many threads as the row's
 * nonzeros, at least 1 and at most max_size (the kernel strides over a
 * longer row). Returns the count, 0 when the program declares no grid, or
 * -1 with a message (offsets that decrease, a count past the region). */
long grid_kernel_sizes(const program_t *p, const mem_t *mem, uint32_t max_size, uint32_t **out, char *err,
                       size_t errlen);

/* A grid over sizes[0..m) (taken over: freed with the grid). order_seed: 0
 * deals the warps in the list's order, else in a permutation by that seed.
 * threshold < 0: no packing (one warp a partition); else insts[k] is the
 * instruction count of sizes' k-th distinct value (ascending; grid_distinct
 * gives them) and warps pack up to lanes per partition within buckets.
 * only >= 0 launches that warp alone (a measurement). NULL when out of
 * memory. */
grid_t *grid_new(uint32_t *sizes, uint32_t m, uint32_t lanes, uint32_t order_seed, long threshold,
                 const uint64_t *insts, long only);
/* The distinct sizes of a list, ascending, and for each the first warp (in
 * the list's order) that has it: *vals and *first malloc'd; the count, or
 * -1 when out of memory. */
long grid_distinct(const uint32_t *sizes, uint32_t m, uint32_t **vals, uint32_t **first);
void grid_delete(grid_t *g);

#endif
