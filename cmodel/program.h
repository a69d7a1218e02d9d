/* A loaded kernel: the ELF32 RISC-V executable, validated, with its symbols,
 * and its code pre-decoded and analysed (cfgraph.c) once for all threads. */
#ifndef WSIM_PROGRAM_H
#define WSIM_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "isa.h"
#include "mem.h"

#define PROG_MAX_SEGMENTS 16
#define PROG_GUARD_END 0x1000u /* [0, 0x1000) is never mapped: null guard */
#define PROG_MAX_CODE (64u << 20) /* bytes of code pre-decoded at most */
#define PROG_MAX_DATA (1u << 30) /* bytes of segment data read from the file at most */
#define PROG_MAX_SYMTAB (256u << 20) /* bytes of symbol and string table read at most */

typedef struct prog_segment {
    uint32_t vaddr, memsz, filesz, offset;
    int exec, write;
    uint8_t *data; /* the filesz bytes the file holds for it */
} prog_segment_t;

typedef struct prog_symbol {
    uint32_t addr, size;
    int is_func;
    const char *name; /* points into the program's strtab */
} prog_symbol_t;

typedef struct program {
    char *path;
    char *strtab; /* the symbol table's string table (NUL-terminated) */
    uint32_t entry;
    int nseg;
    prog_segment_t seg[PROG_MAX_SEGMENTS];
    prog_symbol_t *sym; /* sorted by address */
    int nsym;

    /* Code: every word of [code_lo, code_hi) pre-decoded; words outside an
     * executable segment decode as illegal. */
    uint32_t code_lo;
    uint64_t code_hi; /* exclusive: may be 2^32 */
    isa_insn_t *code;
    uint8_t *is_exec;  /* per word: inside an executable segment */
    uint8_t *analysed; /* per word: reached by the control-flow analysis */
    uint8_t *is_func;  /* per word: a function entry */
    int nfuncs;
    int *cfg_node_of; /* cfgraph.c scratch */
    uint8_t *is_target; /* per word: a branch or jump target */
    uint8_t *join_at;   /* per word: a JOIN node (reconv = join): a branch's post-dominator or a call's return address */
    uint32_t *rpo;      /* per word: its reverse post-order number in its function (reconv = join's priority) */

    uint32_t results_lo, results_hi; /* the wsim_results section, if any */
    uint32_t inputs_lo, inputs_hi;   /* the wsim_inputs records (WSIM_INPUT: 16 bytes each), if any */
    uint32_t grid_lo, grid_hi;       /* the wsim_grid records (WSIM_GRID_ROWS: 16 bytes each), if any */
} program_t;

/* Load and validate path (the control-flow analysis, cfgraph.c, runs next:
 * the machine calls it). Reads the ELF header, then only what it names
 * (program headers, segment data, section headers, symbol and string table),
 * each checked against the file's size first; non-regular files are
 * refused. On failure (also out of host memory) returns NULL with a one-line
 * message naming the file and the problem in err. */
program_t *program_load(const char *path, char *err, size_t errlen);
void program_free(program_t *p);

/* Copy the loadable segments into memory, zeroing .bss. */
void program_place(const program_t *p, mem_t *m);

/* The pre-decoded instruction at pc, or NULL when pc is not code. */
static inline const isa_insn_t *program_insn(const program_t *p, uint32_t pc)
{
    uint32_t off = pc - p->code_lo;
    if ((pc & 3) || pc < p->code_lo || (uint64_t)pc >= p->code_hi || !p->is_exec[off >> 2]) return NULL;
    return &p->code[off >> 2];
}

const prog_symbol_t *program_symbol_at(const program_t *p, uint32_t addr); /* containing or preceding */
const prog_symbol_t *program_symbol_named(const program_t *p, const char *name);

/* "name+0x1c" or "0x00010074" */
void program_describe_pc(const program_t *p, uint32_t pc, char *buf, size_t len);

/* Whether [lo, hi) overlaps a loadable segment; returns its index or -1. */
int program_overlaps(const program_t *p, uint64_t lo, uint64_t hi);

/* Whether some instruction of the code accesses CSR csr (a scan of the
 * pre-decoded code: e.g. a kernel built without tasks.h never reads wsim.task). */
int program_reads_csr(const program_t *p, uint32_t csr);

#endif
