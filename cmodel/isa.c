/* Decoding and disassembly tables expanded from isa.def. */
#include "isa.h"

#include <stdio.h>

typedef struct isa_desc {
    uint32_t match, mask;
    uint8_t fmt, cls;
    const char *mnemonic;
} isa_desc_t;

static const isa_desc_t isa_table[ISA_OP_COUNT] = {
#define INSN(name, mn, match, mask, fmt, cls, ...) \
    [ISA_OP_##name] = {match, mask, ISA_FMT_##fmt, ISA_CLASS_##cls, mn},
#include "isa.def"
#undef INSN
};

static const char *const class_names[ISA_CLASS_COUNT] = {
    "alu", "mul", "div", "fpu", "fma", "fdiv", "load", "store", "branch",
    "jal", "jalr", "csr", "ecall", "ebreak", "fence", "barrier", "illegal",
    "shuffle",
};

static const char *const xreg_names[33] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1",
    "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
    "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6", "zero",
};

static const char *const freg_names[32] = {
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0",
    "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5",
    "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
};

static const char *const rm_names[8] = {"rne", "rtz", "rdn", "rup", "rmm", "rm5", "rm6", "dyn"};

const char *isa_mnemonic(int op)
{
    return op >= 0 && op < ISA_OP_COUNT ? isa_table[op].mnemonic : "illegal";
}

int isa_mem_size(int op)
{
    switch (op) {
    case ISA_OP_lb: case ISA_OP_lbu: case ISA_OP_sb: return 1;
    case ISA_OP_lh: case ISA_OP_lhu: case ISA_OP_sh: return 2;
    case ISA_OP_lw: case ISA_OP_sw: case ISA_OP_flw: case ISA_OP_fsw: return 4;
    default: return 0;
    }
}

const char *isa_class_name(int cls)
{
    return cls >= 0 && cls < ISA_CLASS_COUNT ? class_names[cls] : "?";
}

const char *isa_xreg_name(int r) { return r >= 0 && r <= 32 ? xreg_names[r] : "?"; }

const char *isa_csr_name(uint32_t csr)
{
    switch (csr) {
#define CSR(num, name, ...) case num: return name;
#define CSR_API(num, name, ...) case num: return name;
#include "csr.def"
#undef CSR
#undef CSR_API
    default: return NULL;
    }
}

static uint32_t sext(uint32_t v, int bits)
{
    uint32_t m = 1u << (bits - 1);
    return (v ^ m) - m;
}

static int has_int_rd(int fmt)
{
    switch (fmt) {
    case ISA_FMT_R: case ISA_FMT_I: case ISA_FMT_SH: case ISA_FMT_LD: case ISA_FMT_U:
    case ISA_FMT_J: case ISA_FMT_CSR: case ISA_FMT_CSRI: case ISA_FMT_FTOX:
    case ISA_FMT_FTOXN: case ISA_FMT_FCMP:
        return 1;
    default:
        return 0;
    }
}

void isa_decode(uint32_t w, uint32_t pc, isa_insn_t *d)
{
    int op = ISA_OP_ILLEGAL;
    for (int i = 0; i < ISA_OP_COUNT; i++)
        if ((w & isa_table[i].mask) == isa_table[i].match) { op = i; break; }

    *d = (isa_insn_t){0};
    d->raw = w;
    d->op = (uint8_t)op;
    d->ipdom = ISA_RPC_EXIT;
    if (op == ISA_OP_ILLEGAL) { d->cls = ISA_CLASS_ILLEGAL; return; }

    int fmt = isa_table[op].fmt;
    d->cls = isa_table[op].cls;
    d->rd = (w >> 7) & 31;
    d->rs1 = (w >> 15) & 31;
    d->rs2 = (w >> 20) & 31;
    d->rs3 = (w >> 27) & 31;
    d->rm = (w >> 12) & 7;

    switch (fmt) {
    case ISA_FMT_I: case ISA_FMT_LD: case ISA_FMT_FLD:
        d->imm = sext(w >> 20, 12);
        break;
    case ISA_FMT_SH:
        d->imm = (w >> 20) & 31;
        break;
    case ISA_FMT_ST: case ISA_FMT_FST:
        d->imm = sext(((w >> 25) << 5) | ((w >> 7) & 31), 12);
        break;
    case ISA_FMT_B:
        d->imm = sext(((w >> 31) << 12) | (((w >> 7) & 1) << 11) | (((w >> 25) & 63) << 5) |
                      (((w >> 8) & 15) << 1), 13);
        d->target = pc + d->imm;
        break;
    case ISA_FMT_U:
        d->imm = w & 0xfffff000u;
        break;
    case ISA_FMT_J:
        d->imm = sext(((w >> 31) << 20) | (((w >> 12) & 255) << 12) | (((w >> 20) & 1) << 11) |
                      (((w >> 21) & 1023) << 1), 21);
        d->target = pc + d->imm;
        break;
    case ISA_FMT_CSR: case ISA_FMT_CSRI:
        d->imm = w >> 20;
        break;
    default:
        break;
    }

    /* A jal/jalr linking through ra or t0 (the alternate link register of
     * millicode, -msave-restore) is a call: the RISC-V return-address hint
     * (unprivileged spec, table of jalr hints). The return through t0,
     * jalr x0, 0(t0), depends on its basic block: cfgraph.c decides. */
    if ((op == ISA_OP_jal || op == ISA_OP_jalr) && (d->rd == 1 || d->rd == 5)) d->flags |= ISA_F_CALL;
    if (op == ISA_OP_jalr && d->rd == 0 && d->rs1 == 1 && d->imm == 0) d->flags |= ISA_F_RETURN;
    if (has_int_rd(fmt) && d->rd == 0) d->rd = ISA_X0_SINK;
    int r, wr;
    isa_rf_ports(d, &r, &wr);
    d->rf_reads = (uint8_t)r, d->rf_writes = (uint8_t)wr;
}

int isa_xreg_written(const isa_insn_t *d)
{
    if (d->op == ISA_OP_ILLEGAL || !has_int_rd(isa_table[d->op].fmt) || d->rd == ISA_X0_SINK) return 0;
    return d->rd;
}

/* Register-file ports one lane of the instruction uses (the energy model,
 * docs/energy.md): source operands read, destinations written. Reads of x0
 * and writes to x0 are not counted (x0 is wired, not a register-file row);
 * a CSR instruction's rs1 counts for csrrw/csrrs/csrrc, a CSR's own
 * contents do not. */
void isa_rf_ports(const isa_insn_t *d, int *reads, int *writes)
{
    int r = 0, w = 0;
    int xs1 = d->rs1 != 0, xs2 = d->rs2 != 0;
    switch (d->op == ISA_OP_ILLEGAL ? ISA_FMT_NONE : isa_table[d->op].fmt) {
    case ISA_FMT_R: r = xs1 + xs2; break;
    case ISA_FMT_I: case ISA_FMT_SH: case ISA_FMT_LD: case ISA_FMT_CSR: r = xs1; break;
    case ISA_FMT_ST: case ISA_FMT_B: r = xs1 + xs2; break;
    case ISA_FMT_FST: r = xs1 + 1; break;
    case ISA_FMT_FLD: case ISA_FMT_XTOF: case ISA_FMT_XTOFN: r = xs1, w = 1; break;
    case ISA_FMT_R4: r = 3, w = 1; break;
    case ISA_FMT_FR: case ISA_FMT_FRN: r = 2, w = 1; break;
    case ISA_FMT_FR1: r = 1, w = 1; break;
    case ISA_FMT_FTOX: case ISA_FMT_FTOXN: r = 1; break;
    case ISA_FMT_FCMP: r = 2; break;
    case ISA_FMT_FSHFL: r = 1 + xs2, w = 1; break;
    default: break;
    }
    if (isa_xreg_written(d)) w = 1;
    *reads = r, *writes = w;
}

void isa_disasm(const isa_insn_t *d, uint32_t pc, char *buf, size_t len)
{
    (void)pc;
    if (d->op == ISA_OP_ILLEGAL) { snprintf(buf, len, "illegal 0x%08x", d->raw); return; }
    const isa_desc_t *t = &isa_table[d->op];
    const char *mn = t->mnemonic;
    const char *rd = xreg_names[d->rd], *rs1 = xreg_names[d->rs1], *rs2 = xreg_names[d->rs2];
    const char *frd = freg_names[d->rd & 31], *frs1 = freg_names[d->rs1];
    const char *frs2 = freg_names[d->rs2], *frs3 = freg_names[d->rs3];
    const char *rm = d->rm == 7 ? "" : rm_names[d->rm];
    const char *sep = d->rm == 7 ? "" : ", ";
    int32_t imm = (int32_t)d->imm;
    const char *csr = isa_csr_name(d->imm);
    char csrbuf[16];
    if (!csr) { snprintf(csrbuf, sizeof csrbuf, "0x%03x", d->imm); csr = csrbuf; }

    switch (t->fmt) {
    case ISA_FMT_R: snprintf(buf, len, "%s %s, %s, %s", mn, rd, rs1, rs2); break;
    case ISA_FMT_I:
        if (d->op == ISA_OP_jalr) snprintf(buf, len, "%s %s, %d(%s)", mn, rd, imm, rs1);
        else snprintf(buf, len, "%s %s, %s, %d", mn, rd, rs1, imm);
        break;
    case ISA_FMT_SH: snprintf(buf, len, "%s %s, %s, %d", mn, rd, rs1, imm); break;
    case ISA_FMT_LD: snprintf(buf, len, "%s %s, %d(%s)", mn, rd, imm, rs1); break;
    case ISA_FMT_ST: snprintf(buf, len, "%s %s, %d(%s)", mn, rs2, imm, rs1); break;
    case ISA_FMT_FLD: snprintf(buf, len, "%s %s, %d(%s)", mn, frd, imm, rs1); break;
    case ISA_FMT_FST: snprintf(buf, len, "%s %s, %d(%s)", mn, frs2, imm, rs1); break;
    case ISA_FMT_B: snprintf(buf, len, "%s %s, %s, 0x%x", mn, rs1, rs2, d->target); break;
    case ISA_FMT_U: snprintf(buf, len, "%s %s, 0x%x", mn, rd, d->imm >> 12); break;
    case ISA_FMT_J: snprintf(buf, len, "%s %s, 0x%x", mn, rd, d->target); break;
    case ISA_FMT_CSR: snprintf(buf, len, "%s %s, %s, %s", mn, rd, csr, rs1); break;
    case ISA_FMT_CSRI: snprintf(buf, len, "%s %s, %s, %u", mn, rd, csr, d->rs1); break;
    case ISA_FMT_NONE: snprintf(buf, len, "%s", mn); break;
    case ISA_FMT_R4:
        snprintf(buf, len, "%s %s, %s, %s, %s%s%s", mn, frd, frs1, frs2, frs3, sep, rm);
        break;
    case ISA_FMT_FR: snprintf(buf, len, "%s %s, %s, %s%s%s", mn, frd, frs1, frs2, sep, rm); break;
    case ISA_FMT_FR1: snprintf(buf, len, "%s %s, %s%s%s", mn, frd, frs1, sep, rm); break;
    case ISA_FMT_FRN: snprintf(buf, len, "%s %s, %s, %s", mn, frd, frs1, frs2); break;
    case ISA_FMT_FTOX: snprintf(buf, len, "%s %s, %s%s%s", mn, rd, frs1, sep, rm); break;
    case ISA_FMT_FTOXN: snprintf(buf, len, "%s %s, %s", mn, rd, frs1); break;
    case ISA_FMT_FCMP: snprintf(buf, len, "%s %s, %s, %s", mn, rd, frs1, frs2); break;
    case ISA_FMT_XTOF: snprintf(buf, len, "%s %s, %s%s%s", mn, frd, rs1, sep, rm); break;
    case ISA_FMT_XTOFN: snprintf(buf, len, "%s %s, %s", mn, frd, rs1); break;
    case ISA_FMT_FSHFL: snprintf(buf, len, "%s %s, %s, %s", mn, frd, frs1, rs2); break;
    default: snprintf(buf, len, "%s", mn); break;
    }
}

int isa_operands(const isa_insn_t *d, uint8_t regs[4])
{
    int n = 0, fmt = d->op == ISA_OP_ILLEGAL ? ISA_FMT_NONE : isa_table[d->op].fmt;
#define XR(r) do { if ((r) != 0 && (r) != ISA_X0_SINK) regs[n++] = (uint8_t)(r); } while (0)
#define FR(r) (regs[n++] = (uint8_t)(32 + ((r) & 31)))
    switch (fmt) {
    case ISA_FMT_R: XR(d->rd); XR(d->rs1); XR(d->rs2); break;
    case ISA_FMT_I: case ISA_FMT_SH: case ISA_FMT_LD: case ISA_FMT_CSR: XR(d->rd); XR(d->rs1); break;
    case ISA_FMT_U: case ISA_FMT_J: case ISA_FMT_CSRI: XR(d->rd); break;
    case ISA_FMT_ST: case ISA_FMT_B: XR(d->rs1); XR(d->rs2); break;
    case ISA_FMT_FLD: FR(d->rd); XR(d->rs1); break;
    case ISA_FMT_FST: XR(d->rs1); FR(d->rs2); break;
    case ISA_FMT_R4: FR(d->rd); FR(d->rs1); FR(d->rs2); FR(d->rs3); break;
    case ISA_FMT_FR: case ISA_FMT_FRN: FR(d->rd); FR(d->rs1); FR(d->rs2); break;
    case ISA_FMT_FR1: FR(d->rd); FR(d->rs1); break;
    case ISA_FMT_FTOX: case ISA_FMT_FTOXN: XR(d->rd); FR(d->rs1); break;
    case ISA_FMT_FCMP: XR(d->rd); FR(d->rs1); FR(d->rs2); break;
    case ISA_FMT_XTOF: case ISA_FMT_XTOFN: FR(d->rd); XR(d->rs1); break;
    case ISA_FMT_FSHFL: FR(d->rd); FR(d->rs1); XR(d->rs2); break;
    default: break;
    }
#undef XR
#undef FR
    return n;
}
