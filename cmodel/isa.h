/* Instruction decoding and disassembly, generated from isa.def.
 *
 * Every word of the program's code is decoded once, at load time, into an
 * isa_insn_t; the executor never looks at instruction bits again. */
#ifndef WSIM_ISA_H
#define WSIM_ISA_H

#include <stddef.h>
#include <stdint.h>

typedef enum isa_op {
#define INSN(name, mn, match, mask, fmt, cls, ...) ISA_OP_##name,
#include "isa.def"
#undef INSN
    ISA_OP_COUNT,
    ISA_OP_ILLEGAL = ISA_OP_COUNT, /* not an RV32IMF/Zicsr/WarpSplit instruction */
} isa_op_t;

/* Operand layouts. */
typedef enum isa_fmt {
    ISA_FMT_R, ISA_FMT_I, ISA_FMT_SH, ISA_FMT_LD, ISA_FMT_ST, ISA_FMT_B, ISA_FMT_U,
    ISA_FMT_J, ISA_FMT_CSR, ISA_FMT_CSRI, ISA_FMT_NONE,
    ISA_FMT_FLD, ISA_FMT_FST, ISA_FMT_R4, ISA_FMT_FR, ISA_FMT_FR1, ISA_FMT_FRN,
    ISA_FMT_FTOX, ISA_FMT_FTOXN, ISA_FMT_FCMP, ISA_FMT_XTOF, ISA_FMT_XTOFN,
    ISA_FMT_FSHFL, /* float rd and rs1, integer rs2 (the float warp shuffles) */
} isa_fmt_t;

/* What the pipeline does with an instruction; also the latency classes. */
typedef enum isa_class {
    ISA_CLASS_ALU, ISA_CLASS_MUL, ISA_CLASS_DIV, ISA_CLASS_FPU, ISA_CLASS_FMA,
    ISA_CLASS_FDIV, ISA_CLASS_LOAD, ISA_CLASS_STORE, ISA_CLASS_BRANCH,
    ISA_CLASS_JAL, ISA_CLASS_JALR, ISA_CLASS_CSR, ISA_CLASS_ECALL,
    ISA_CLASS_EBREAK, ISA_CLASS_FENCE, ISA_CLASS_BARRIER, ISA_CLASS_ILLEGAL,
    ISA_CLASS_SHUFFLE, /* a warp shuffle: reads other lanes' registers (exec.c) */
    ISA_CLASS_COUNT
} isa_class_t;

/* Control-flow roles, filled in by decode (static) and cfgraph.c (analysis). */
enum {
    ISA_F_CALL = 1 << 0,      /* jal/jalr linking through ra or t0 */
    ISA_F_RETURN = 1 << 1,    /* jalr x0, 0(ra); jalr x0, 0(t0) when its block does not set t0 */
    ISA_F_PAIRED = 1 << 2,    /* jalr whose rs1 holds a constant its basic block built (cfgraph.c) */
    ISA_F_SHORT_PDOM = 1 << 3, /* branch whose post-dominator starts a basic block of
                                  at most 50 instructions (001 §4.3: DWS may split on it) */
    ISA_F_LOOP = 1 << 4,      /* loop branch: a back edge or an exit of a natural loop, one side
                                 in it and one out (cfgraph.c; 000 §5.3/§5.5: it delimits
                                 iterations); other conditional branches are non-loop */
    ISA_F_SPLIT = 1 << 5,     /* named by wpusim --split-list: dws_branch = list may split on it */
};

#define ISA_RPC_EXIT 0xffffffffu /* re-convergence at the function's return */
#define ISA_X0_SINK 32           /* rd of x0 is redirected here: never read */

typedef struct isa_insn {
    uint8_t op;       /* isa_op_t */
    uint8_t cls;      /* isa_class_t */
    uint8_t rd, rs1, rs2, rs3;
    uint8_t rm;       /* rounding-mode field (7 = dynamic) */
    uint8_t flags;    /* ISA_F_* */
    uint8_t rf_reads, rf_writes; /* register-file ports one lane uses (isa_rf_ports) */
    uint32_t imm;     /* sign-extended immediate, shift amount or CSR number */
    uint32_t target;  /* static target of branches, jal and paired jalr */
    uint32_t ipdom;   /* branches: re-convergence PC or ISA_RPC_EXIT */
    uint32_t raw;     /* the encoding */
} isa_insn_t;

/* Decode one word found at pc. Never fails: unknown words give ISA_OP_ILLEGAL. */
void isa_decode(uint32_t word, uint32_t pc, isa_insn_t *out);

/* Disassemble into buf (objdump-like, ABI register names). */
void isa_disasm(const isa_insn_t *in, uint32_t pc, char *buf, size_t len);

/* The integer register the instruction writes, 0 when none (x0, stores,
 * branches, float destinations). ecall's a0 is not counted. */
int isa_xreg_written(const isa_insn_t *d);

/* Register-file reads and writes of one lane (docs/energy.md). */
void isa_rf_ports(const isa_insn_t *d, int *reads, int *writes);

/* The registers an instruction names (sources and destination), as 0..31 for
 * x0..x31 and 32..63 for f0..f31, x0 left out; returns how many (<= 4). */
int isa_operands(const isa_insn_t *d, uint8_t regs[4]);

/* Bytes a load or store moves (0 for other instructions). */
int isa_mem_size(int op);
const char *isa_mnemonic(int op);
const char *isa_class_name(int cls);
const char *isa_xreg_name(int r);
const char *isa_csr_name(uint32_t csr); /* NULL when unknown */

#endif
