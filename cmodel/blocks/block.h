/* The block interface (DESIGN.md: the block rule, the seam).
 *
 * A block is a clocked hardware structure with a C model here and an RTL
 * module in rtl/ with the same ports. Its port table (<block>.def) lists
 * every port once: name, direction, timing, C type, width as an expression
 * of the block's parameters, trace digits and a one-line description. From
 * the table come the block's C in/out structs and the port descriptors that
 * drive the generic code below: the port-trace header, writer and parser,
 * and the comparator that the testbenches and a lockstep run share.
 *
 * Every block implements block_ops_t, chosen when the machine is created:
 * the C model (e.g. wst_block_ops), or, in build/wpusim-rtl, a Verilated RTL block with the
 * same ops that replaces it (replace mode) or runs beside it (lockstep: both
 * get the same inputs, block_compare() their outputs every clock; blockinst.c, sim/rtl_loop.cpp).
 *
 * Timing of one clock, for every block:
 *   1. the caller sets the early inputs and calls eval(): every output is
 *      valid (combinational outputs from the state and the early inputs);
 *   2. the caller decides the late inputs from the outputs (no output
 *      depends on a late input) and calls clock(): the edge; the state
 *      takes the operation.
 * Registered read ports (a block's entries, its counters) are not copied
 * per clock: the out struct holds a const pointer to the registered image
 * (for the WST, out.q), which the C model points at its own registers and
 * an RTL-backed block at a mirror it refreshes after every clock edge. The
 * rule: a registered read port is valid at any time after the first eval
 * and changes only at the clock edge (and at reset); reading it never
 * depends on this clock's inputs. */
#ifndef WSIM_BLOCK_H
#define WSIM_BLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../mask.h"

/* The port-trace format's version (the first line of every trace). */
#define BLOCK_TRACE_VERSION 2
/* The most ports, entries and lanes a block may have. */
enum { BLOCK_MAX_PORTS = 64, BLOCK_MAX_ENTRIES = 64 };

typedef enum { BLOCK_IN, BLOCK_OUT } block_dir_t;

typedef enum {
    BLOCK_CLOCK, /* clk_i: in no C struct */
    BLOCK_RESET, /* rst_ni, asynchronous, active low: in no C struct */
    BLOCK_EARLY, /* input the outputs depend on (in struct) */
    BLOCK_LATE,  /* input that takes effect at the clock edge (in struct) */
    BLOCK_COMB,  /* combinational output (out struct) */
    BLOCK_REG,   /* registered output (registered image) */
    BLOCK_ENTRY  /* registered entry field: one field of every entry (image) */
} block_timing_t;

typedef enum { BLOCK_U8, BLOCK_U16, BLOCK_U32, BLOCK_U64, BLOCK_MASK } block_ctype_t;

/* One port. Its value lives in the C member at `offset` of: the in struct
 * (EARLY, LATE), the out struct (COMB), the registered image (REG) or one
 * entry of the image (ENTRY: entry k at entry_offset + k * entry_size). */
typedef struct block_port {
    const char *name;      /* RTL name without the suffix (_i, _ni, _o) */
    block_dir_t dir;
    block_timing_t timing;
    block_ctype_t ctype;
    size_t offset;
    int digits;            /* hex digits in a trace line, at least (0: from the width) */
    const char *doc;
} block_port_t;

/* One RTL parameter: an int member of the config struct. */
typedef struct block_param {
    const char *rtl;  /* "ENTRIES" */
    const char *name; /* "entries": the member and the trace header's key */
    size_t offset;
    const char *doc;
} block_param_t;

typedef struct block_ops {
    const char *name;                             /* "wst" */
    const char *what;                             /* "warp-split table" */
    const char *where;   /* the configuration that has it: "dws = on" (wpusim --help) */
    const char *absent;  /* why a machine has none, after "there is no <what> ": "with dws = off;
                          * choose a policy, e.g. --policy DWS.ReviveSplit" (--record-block) */
    size_t cfg_size, in_size, out_size, state_size; /* state: the registered image */
    const block_param_t *params;
    int nparams;
    const block_port_t *ports; /* in the RTL's order */
    int nports;
    int (*width)(const void *cfg, int port);      /* bits (ENTRY: of one entry's field) */
    int (*entries)(const void *cfg);              /* entries of the registered image */
    size_t entry_offset, entry_size;              /* the entry array in the image */
    const void *(*regs)(const void *out);         /* the registered image an out struct points at */
    /* A new block in reset, or NULL with a message naming the bad parameter. */
    void *(*init)(const void *cfg, char *err, size_t errlen);
    void (*reset)(void *blk);
    void (*eval)(void *blk, const void *in, void *out);
    void (*clock)(void *blk, const void *in, const void *out); /* out: eval's for the same in */
    void (*trace)(const void *blk, uint64_t cycle, int unit, const void *in, const void *out, FILE *f);
    void (*free)(void *blk);
} block_ops_t;

/* Every block, by name (NULL when there is none). */
const block_ops_t *block_find(const char *name);
/* The registry in order: block i, NULL past the last. */
const block_ops_t *block_at(int i);

/* ---- expanding a port table (see wst.def) ---- */

/* The table's ctype tokens as block_ctype_t. */
#define BLOCK_CTYPE(t) BLOCK_CTYPE_##t
#define BLOCK_CTYPE_uint8_t BLOCK_U8
#define BLOCK_CTYPE_uint16_t BLOCK_U16
#define BLOCK_CTYPE_uint32_t BLOCK_U32
#define BLOCK_CTYPE_uint64_t BLOCK_U64
#define BLOCK_CTYPE_wmask_t BLOCK_MASK

/* x for the ports of one C struct only: BLOCK_IF_IN_##timing(x) keeps the
 * inputs (EARLY, LATE), BLOCK_IF_OUT_ the combinational outputs, BLOCK_IF_REG_
 * the registered outputs. */
#define BLOCK_IF_IN_CLOCK(x)
#define BLOCK_IF_IN_RESET(x)
#define BLOCK_IF_IN_EARLY(x) x
#define BLOCK_IF_IN_LATE(x) x
#define BLOCK_IF_IN_COMB(x)
#define BLOCK_IF_IN_REG(x)
#define BLOCK_IF_OUT_CLOCK(x)
#define BLOCK_IF_OUT_RESET(x)
#define BLOCK_IF_OUT_EARLY(x)
#define BLOCK_IF_OUT_LATE(x)
#define BLOCK_IF_OUT_COMB(x) x
#define BLOCK_IF_OUT_REG(x)
#define BLOCK_IF_REG_CLOCK(x)
#define BLOCK_IF_REG_RESET(x)
#define BLOCK_IF_REG_EARLY(x)
#define BLOCK_IF_REG_LATE(x)
#define BLOCK_IF_REG_COMB(x)
#define BLOCK_IF_REG_REG(x) x

/* The two functions of the tables' width expressions (define CLOG2 and MAX
 * as these around an expansion; scripts/blockports.py has the same two). */
static inline int block_clog2(int n) /* ceil(log2(n)); 0 for n <= 1 */
{
    int b = 0;
    while ((1 << b) < n) b++;
    return b;
}
static inline int block_max(int a, int b) { return a > b ? a : b; }

/* ---- a C block's generic interface ----
 *
 * BLOCK_DEFINE_OPS(b, what, where, absent, NPORTS, entries_of, entry_offset, entry_size)
 * defines `const block_ops_t b##_block_ops` for a C block b with: the
 * struct b_t holding its b_config_t cfg; b_init (0, or -1 with a message),
 * b_reset, b_eval, b_clock; b_port_width; the descriptor arrays b_params and
 * b_ports; b_config_t, b_in_t, b_out_t (whose q points at the registered
 * image) and b_state_t. entries_of is `int f(const b_config_t *)`; what names
 * the block (an out-of-memory message, wpusim's help); where and absent say
 * which configurations have it (block_ops_t). The instance is malloc'd. */
#define BLOCK_DEFINE_OPS(b, what_, where_, absent_, NPORTS, entries_of, entry_offset_, entry_size_)    \
    static int b##_ops_width(const void *cfg, int port) { return b##_port_width(cfg, port); }         \
    static int b##_ops_entries(const void *cfg) { return entries_of((const b##_config_t *)cfg); }     \
    static const void *b##_ops_regs(const void *out) { return ((const b##_out_t *)out)->q; }         \
    static void *b##_ops_init(const void *cfg, char *err, size_t errlen)                              \
    {                                                                                                  \
        b##_t *x = malloc(sizeof *x);                                                                  \
        if (!x) {                                                                                      \
            snprintf(err, errlen, "%s: out of memory", what_);                                         \
            return NULL;                                                                               \
        }                                                                                              \
        if (b##_init(x, cfg, err, errlen) < 0) {                                                       \
            free(x);                                                                                   \
            return NULL;                                                                               \
        }                                                                                              \
        return x;                                                                                      \
    }                                                                                                  \
    static void b##_ops_reset(void *blk) { b##_reset(blk); }                                          \
    static void b##_ops_eval(void *blk, const void *in, void *out) { b##_eval(blk, in, out); }        \
    static void b##_ops_clock(void *blk, const void *in, const void *out) { b##_clock(blk, in, out); }\
    static void b##_ops_trace(const void *blk, uint64_t cycle, int unit, const void *in, const void *out, \
                              FILE *f)                                                                 \
    {                                                                                                  \
        block_trace_line(&b##_block_ops, &((const b##_t *)blk)->cfg, cycle, unit, in, out, NULL, f);   \
    }                                                                                                  \
    static void b##_ops_free(void *blk) { free(blk); }                                                \
    const block_ops_t b##_block_ops = {                                                                \
        .name = #b,                                                                                    \
        .what = what_,                                                                                 \
        .where = where_,                                                                               \
        .absent = absent_,                                                                             \
        .cfg_size = sizeof(b##_config_t),                                                              \
        .in_size = sizeof(b##_in_t),                                                                   \
        .out_size = sizeof(b##_out_t),                                                                 \
        .state_size = sizeof(b##_state_t),                                                             \
        .params = b##_params,                                                                          \
        .nparams = (int)(sizeof b##_params / sizeof b##_params[0]),                                    \
        .ports = b##_ports,                                                                            \
        .nports = NPORTS,                                                                              \
        .width = b##_ops_width,                                                                        \
        .entries = b##_ops_entries,                                                                    \
        .entry_offset = (entry_offset_),                                                               \
        .entry_size = (entry_size_),                                                                   \
        .regs = b##_ops_regs,                                                                          \
        .init = b##_ops_init,                                                                          \
        .reset = b##_ops_reset,                                                                        \
        .eval = b##_ops_eval,                                                                          \
        .clock = b##_ops_clock,                                                                        \
        .trace = b##_ops_trace,                                                                        \
        .free = b##_ops_free,                                                                          \
    }

/* ---- generic port access, driven by the descriptors ---- */

/* The RTL port name with its suffix: "idx_i", "rst_ni", "ent_pc_o". */
const char *block_port_rtl_name(const block_port_t *p, char *buf, size_t len);
/* The value of port p (entry k for ENTRY, else k is ignored) as a bit
 * vector, masked to the port's width. NULL structs are not read (zero). */
wmask_t block_get(const block_ops_t *b, const void *cfg, int port, int k, const void *in, const void *out,
                  const void *regs);

/* ---- port traces (docs/blocks/<block>.md, "Traces") ----
 *
 * A trace starts with two lines:
 *   # warpsplit-port-trace 2 block=wst
 *   # wst entries=16 width=16 warps=4 pc_bits=32 cnt_bits=16 mfc_bits=16
 * then one line per clock: the cycle and the unit (the WPU), the inputs,
 * '|', the combinational outputs, all as fixed-width hex:
 *   c=<12> u=<3> idx=.. elig=.. ... st_b=. | nfree=.. ... latspec=.
 * A test's expected outputs (tests/blocks/<block>/NAME.expect) hold the part
 * after '|' (c= and u= before it) and may add registered read ports: the
 * whole port (ent_pc=<ENTRIES*PC_W bits>, sum_rmfc=..) or one entry's field
 * (ent_pc[3]=..). Other lines starting with '#' and blank lines are
 * comments; '#' after a field ends the line. */

void block_trace_header(const block_ops_t *b, const void *cfg, FILE *f);
/* One line: the inputs (in may be NULL), then " | " and the outputs (out may
 * be NULL), then the registered read ports (regs may be NULL), newline. */
void block_trace_line(const block_ops_t *b, const void *cfg, uint64_t cycle, int unit, const void *in,
                      const void *out, const void *regs, FILE *f);

/* Registered read ports named by an .expect line: their expected values in
 * an image (b->state_size bytes) and, per port, the entries to check (bit
 * k; a REG port: bit 0). */
typedef struct block_check {
    void *image;
    uint64_t want[BLOCK_MAX_PORTS];
} block_check_t;

typedef struct block_row {
    uint64_t cycle;
    int unit;
    int has_in;  /* the line names the inputs */
    int has_out; /* ... and the outputs (after '|') */
    long lineno;
    long out_lineno; /* the .expect's line that gave the outputs (block_trace_expect), else lineno */
} block_row_t;

/* Parses one line. Returns 1 for a clock's line, 0 for a comment or blank
 * line, -1 with a message naming the field: an unknown or repeated field, a
 * value wider than its port, an input missing from a line with inputs, an
 * output missing from a line with '|'. in and out (sizes b->in_size,
 * b->out_size) are cleared and filled; chk (may be NULL: registered ports
 * are then an error) is cleared and filled. */
int block_parse_line(const block_ops_t *b, const void *cfg, const char *line, block_row_t *row, void *in, void *out,
                     block_check_t *chk, char *err, size_t errlen);

/* A whole trace file: the header and every clock's line. */
typedef struct block_trace {
    const block_ops_t *ops;
    void *cfg;            /* b->cfg_size bytes, from the header */
    size_t n;             /* clock lines */
    block_row_t *row;     /* n each */
    unsigned char *in;    /* n * in_size */
    unsigned char *out;   /* n * out_size (zero where a row has no outputs) */
    block_check_t **chk;  /* n: the row's registered checks, or NULL */
} block_trace_t;

/* Reads a trace; strict (the version line first, then the block's
 * parameter line, then clock lines). Returns 0, or -1 with "path:line: ..."
 * in err. */
int block_trace_read(const char *path, block_trace_t *t, char *err, size_t errlen);
/* Takes the outputs and registered checks of an .expect file: its clock
 * lines must be the trace's, one for one (same c= and u=), and its
 * parameters the same. Returns 0, or -1 with a message. */
int block_trace_expect(block_trace_t *t, const block_trace_t *expect, const char *path, char *err, size_t errlen);
void block_trace_free(block_trace_t *t);
/* The order a replay applies a trace's rows in: grouped by unit, units in
 * order of first appearance, each unit's rows in file order (each unit
 * runs from reset). A malloc'ed array of t->n row indices, or NULL when
 * out of memory; *nunits: the units. Any number of units, O(n log n). */
size_t *block_trace_order(const block_trace_t *t, size_t *nunits);
static inline const void *block_trace_in(const block_trace_t *t, size_t i) { return t->in + i * t->ops->in_size; }
static inline const void *block_trace_out(const block_trace_t *t, size_t i) { return t->out + i * t->ops->out_size; }

/* ---- comparing outputs (lockstep, testbenches, replays) ---- */

/* a value's hex and its end: 80, or a whole mask where masks are wider (the
 * column picker's testbench: 512 lanes, 128 digits) */
#define BLOCK_HEX_CHARS (WSIM_MAX_LANES / 4 + 1 > 80 ? WSIM_MAX_LANES / 4 + 1 : 80)

typedef struct block_mismatch {
    int port;       /* index into b->ports */
    int entry;      /* ENTRY ports: the entry; else -1 */
    char name[64];  /* "latspec_o", "ent_pc_o (entry 3)" */
    char exp[BLOCK_HEX_CHARS]; /* hex, the port's digits */
    char act[BLOCK_HEX_CHARS];
} block_mismatch_t;

enum { BLOCK_CMP_COMB = 1, BLOCK_CMP_REGS = 2, BLOCK_CMP_ALL = 3 };

/* Compares two out structs port by port in table order: the combinational
 * outputs and/or every registered read port (through b->regs). Returns 0
 * when equal, else 1 with the first difference in *mm. */
int block_compare(const block_ops_t *b, const void *cfg, const void *exp, const void *act, int what,
                  block_mismatch_t *mm);
/* The registered read ports an .expect line names against an image. */
int block_check_regs(const block_ops_t *b, const void *cfg, const block_check_t *chk, const void *regs,
                     block_mismatch_t *mm);

#endif
