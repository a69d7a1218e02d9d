#!/usr/bin/env python3
# WarpSplit ISA test generator.
#
# README
# ======
# This script writes the project's RV32IMF + Zicsr instruction tests into
# tests/isa/ (next to itself).  The generated files are committed; regenerate
# them after editing this script with
#
#     python3 tests/isa/gen_isa_tests.py
#
# (Python 3 standard library only; the output is deterministic: every random
# vector comes from a random.Random seeded with the file name and SEED below.)
# Build the tests with `make isa-tests` (tests/isa/isa.mk) and run them with
# `make isa-check` or by hand:
#
#     build/wpusim --threads 64 --set width=8 build/isa/rv32i_alu.elf
#
# Generated files
# ---------------
#   rv32i_alu.S rv32i_branch.S rv32i_jump.S rv32i_load_store.S rv32i_regs.S
#   rv32i_system.S rv32m.S rv32f_arith.S rv32f_fma.S rv32f_cvt.S
#   rv32f_cmp_class_minmax.S rv32f_move_sgnj.S rv32f_load_store.S zicsr.S
#   wsim_barrier.S                         positive tests: every thread exits 0
#   fault_*.S + fault_*.expect             negative tests: the even-numbered
#       threads execute one faulting instruction (the odd ones exit 0); the
#       .expect file holds the keyword the simulator's fault line must contain.
# Each generated file's first line names this generator.
#
# Tests as data: tables, rows, threads
# ------------------------------------
# A test file is a sequence of TABLES.  A table tests one instruction form
# (fixed registers; for immediate forms also a fixed immediate, so there is one
# table per immediate value) on many ROWS of test vectors kept in .rodata.
# A row is a power-of-two number of 32-bit words; the column layout is written
# in the comment above each table's data.  The usual layouts are
#     integer op      {rs1, rs2, expected rd}
#     F op            {frm, rs1, rs2, rs3, expected rd, expected fflags}
#                     (frm is written with fsrm before the op; for dyn-rm
#                     tables it is the rounding mode under test, for static-rm
#                     tables it is a deliberately different "decoy" value,
#                     sometimes 5..7, which the op must ignore; half the
#                     rows also set bits 31:3 of the written word, which
#                     frm must drop; some tables set the mode with fscsr
#                     instead, frm in bits 7:5 of a noisy fcsr word)
#     store           {background word 0, word 1, base delta, value,
#                      expected word 0, word 1, expected reload}
# A few tables are SNIPPET tables: every row has its own code (e.g. one
# `lui` per immediate, one `jal` per offset) plus its data words.
#
# Rows are numbered 0, 1, 2, ... through the whole file, table after table.
# Rows 0..K-1 (only zicsr.S and wsim_barrier.S have any) are ALL-THREAD rows:
# checks of the thread's own identity that every thread performs.  Every other
# row r is checked by exactly one thread, tid = (r - K) mod nthreads: thread
# tid checks rows K+tid, K+tid+nthreads, K+tid+2*nthreads, ...  It keeps its
# next row number in s2; a table covering rows [B, B+C) runs its body while
# s2 < B+C, with the row pointer s3 = data + (s2-B)*rowsize, then does
# s2 += nthreads.  Consecutive threads therefore check consecutive rows, the
# lanes of a warp run the same instruction on different vectors, and they
# diverge wherever their rows run out or take different paths.
#
# Control flow stays inside what wpusim's static control-flow analysis accepts
# (docs/simt.md): a jalr is a call (rd = ra; the callee returns with
# jalr x0, 0(ra)), that return, or is paired with the auipc just before it.
# So far jumps use `tail`, data-dependent jalr targets are indirect calls (the
# lanes of a warp call different functions), and the other rd/immediate
# forms of jalr are auipc+jalr pairs.  wsim_barrier.S lets threads exit before
# a barrier only as whole warps (docs/abi.md, Barrier).
#
# On the first mismatch the thread writes one line to fd 2 (ecall 64)
#     <file>: FAIL row <r> (<table> vector <r-B>): <what> got 0x... expected 0x...
# and exits (ecall 93) with code r+1.  A thread that checked all its rows
# exits 0.  Register use: s0 = tid, s1 = nthreads, s2 = row, s3 = row pointer,
# s4/s5 = got/expected, s8-s10 = failure report; tests use the others.
#
# Reference models (independent of the simulator's C code)
# ---------------------------------------------------------
# Integer results are computed here with Python integers (32-bit wrap,
# RISC-V division-by-zero / overflow rules, low 5 bits of shift amounts).
# Binary32 results are computed exactly with fractions.Fraction and rounded to
# binary32 here: RNE/RTZ/RDN/RUP/RMM, subnormals, overflow to inf or max-finite
# by mode, tininess detected after rounding (UF only when tiny and inexact),
# NX/OF/UF/DZ/NV, canonical NaN 0x7fc00000, sNaN -> NV; fma with a single
# rounding; sqrt by integer square root with a sticky bit.  The model was
# cross-checked against the x86 SSE/FMA unit (fesetround; RMM through an exact
# tie test) on 312k results when written: it differs only where RISC-V and x86
# differ on purpose (fma(0, inf, qNaN) raises NV on RISC-V, not on x86).
#
# Negative tests and the suite runner
# -----------------------------------
# fault_NAME.S / fault_NAME.expect are generated from the FAULTS list below.
# tests/run.sh (make test) runs every positive test in several machine shapes
# and every fault test; make isa-check (isa.mk, run_isa.sh) does the same in
# one shape.
import os
import random
import sys
from fractions import Fraction
from math import isqrt

SEED = 20240601
HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = "tests/isa/gen_isa_tests.py"
HEADER = ("// Generated by %s -- do not edit; edit the generator and rerun it."
          % GENERATOR)

M32 = 0xFFFFFFFF
INT_MIN = 0x80000000
INT_MAX = 0x7FFFFFFF


def u32(x):
    return x & M32


def s32(x):
    x &= M32
    return x - (1 << 32) if x & 0x80000000 else x


def sext(x, bits):
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


# ---------------------------------------------------------------------------
# Integer reference (RV32I + M)
# ---------------------------------------------------------------------------

def _div(a, b):
    a, b = s32(a), s32(b)
    if b == 0:
        return M32
    if a == -(1 << 31) and b == -1:
        return u32(a)
    q = abs(a) // abs(b)
    return u32(-q if (a < 0) != (b < 0) else q)


def _rem(a, b):
    a, b = s32(a), s32(b)
    if b == 0:
        return u32(a)
    if a == -(1 << 31) and b == -1:
        return 0
    r = abs(a) % abs(b)
    return u32(-r if a < 0 else r)


INT_REF = {
    'add': lambda a, b: u32(a + b),
    'sub': lambda a, b: u32(a - b),
    'sll': lambda a, b: u32(a << (b & 31)),
    'slt': lambda a, b: int(s32(a) < s32(b)),
    'sltu': lambda a, b: int(u32(a) < u32(b)),
    'xor': lambda a, b: u32(a ^ b),
    'srl': lambda a, b: u32(a) >> (b & 31),
    'sra': lambda a, b: u32(s32(a) >> (b & 31)),
    'or': lambda a, b: u32(a | b),
    'and': lambda a, b: u32(a & b),
    'mul': lambda a, b: u32(a * b),
    'mulh': lambda a, b: u32((s32(a) * s32(b)) >> 32),
    'mulhsu': lambda a, b: u32((s32(a) * u32(b)) >> 32),
    'mulhu': lambda a, b: u32((u32(a) * u32(b)) >> 32),
    'div': _div,
    'divu': lambda a, b: M32 if u32(b) == 0 else u32(a) // u32(b),
    'rem': _rem,
    'remu': lambda a, b: u32(a) if u32(b) == 0 else u32(a) % u32(b),
}
# immediate forms: the immediate is sign-extended to 32 bits first
IMM_REF = {
    'addi': 'add', 'slti': 'slt', 'sltiu': 'sltu', 'xori': 'xor',
    'ori': 'or', 'andi': 'and', 'slli': 'sll', 'srli': 'srl', 'srai': 'sra',
}
BRANCH_REF = {
    'beq': lambda a, b: u32(a) == u32(b),
    'bne': lambda a, b: u32(a) != u32(b),
    'blt': lambda a, b: s32(a) < s32(b),
    'bge': lambda a, b: s32(a) >= s32(b),
    'bltu': lambda a, b: u32(a) < u32(b),
    'bgeu': lambda a, b: u32(a) >= u32(b),
}

# ---------------------------------------------------------------------------
# Binary32 reference (RV32F), exact rational arithmetic
# ---------------------------------------------------------------------------

RNE, RTZ, RDN, RUP, RMM = range(5)
RM_NAMES = ['rne', 'rtz', 'rdn', 'rup', 'rmm']
NV, DZ, OF, UF, NX = 0x10, 0x08, 0x04, 0x02, 0x01
CANON_NAN = 0x7FC00000
F_MAX = 0x7F7FFFFF
F_INF = 0x7F800000
SIGN = 0x80000000

# Classification of the last rounding, used only to pick interesting vectors.
_INFO = {}


def pow2(k):
    return Fraction(1 << k) if k >= 0 else Fraction(1, 1 << -k)


def f_isnan(b):
    return (b & 0x7F800000) == 0x7F800000 and (b & 0x7FFFFF) != 0


def f_issnan(b):
    return f_isnan(b) and not (b & 0x400000)


def f_decode(b):
    """-> (kind, sign, magnitude) with kind in nan/inf/zero/num."""
    s = b >> 31
    e = (b >> 23) & 0xFF
    m = b & 0x7FFFFF
    if e == 0xFF:
        return ('nan' if m else 'inf'), s, None
    if e == 0:
        v = Fraction(m, 1 << 149)
    else:
        v = (m | 0x800000) * pow2(e - 150)
    return ('zero' if m == 0 and e == 0 else 'num'), s, v


def f_value(b):
    """Finite binary32 -> exact signed Fraction."""
    k, s, v = f_decode(b)
    assert k in ('zero', 'num')
    return -v if s else v


def _ilog2(x):
    """floor(log2(x)) for a positive Fraction."""
    n, d = x.numerator, x.denominator
    e = n.bit_length() - d.bit_length()
    if e >= 0:
        if n < (d << e):
            e -= 1
    elif (n << -e) < d:
        e -= 1
    return e


def _round_to_quantum(sign, x, rm, q):
    """Round positive x to an integer multiple of 2^q. -> (n, inexact, tie)."""
    scaled = x / pow2(q)
    n = scaled.numerator // scaled.denominator
    rem = scaled - n
    if rem == 0:
        return n, False, False
    half = Fraction(1, 2)
    if rm == RNE:
        up = rem > half or (rem == half and (n & 1) == 1)
    elif rm == RTZ:
        up = False
    elif rm == RDN:
        up = sign == 1
    elif rm == RUP:
        up = sign == 0
    elif rm == RMM:
        up = rem >= half
    else:
        raise ValueError(rm)
    return n + int(up), True, rem == half


def f32_round(sign, x, rm):
    """Round the exact nonzero magnitude x (Fraction) with sign to binary32.
    Returns (bits, fflags)."""
    e = _ilog2(x)
    # Unbounded exponent, 24-bit precision: decides overflow and tininess
    # (RISC-V detects tininess after rounding).
    nu, inexact, _ = _round_to_quantum(sign, x, rm, e - 23)
    vu = nu * pow2(e - 23)
    tiny = vu < pow2(-126)
    if vu >= pow2(128):
        _INFO.update(ovf=True, tie=False, tiny=False, sub=False, inexact=True)
        if rm == RTZ or (rm == RDN and sign == 0) or (rm == RUP and sign == 1):
            return F_MAX | (sign << 31), OF | NX
        return F_INF | (sign << 31), OF | NX
    q = max(e, -126) - 23
    n, inexact, tie = _round_to_quantum(sign, x, rm, q)
    if n == 1 << 24:
        n >>= 1
        q += 1
    if n >= 1 << 23:
        bits = ((q + 23 + 127) << 23) | (n - (1 << 23))
    else:
        assert q == -149
        bits = n
    flags = (NX if inexact else 0) | (UF if tiny and inexact else 0)
    _INFO.update(ovf=False, tie=tie, tiny=tiny and inexact,
                 sub=(bits & 0x7F800000) == 0, inexact=inexact,
                 below_min=x < pow2(-126))
    return bits | (sign << 31), flags


def _zero_of_exact_cancel(rm):
    # x + (-x) for nonzero x, or +0 + -0: +0, except -0 when rounding down
    return SIGN if rm == RDN else 0


def fadd(a, b, rm):
    ka, sa, va = f_decode(a)
    kb, sb, vb = f_decode(b)
    if ka == 'nan' or kb == 'nan':
        return CANON_NAN, NV if f_issnan(a) or f_issnan(b) else 0
    if ka == 'inf' and kb == 'inf':
        if sa != sb:
            return CANON_NAN, NV
        return F_INF | sa << 31, 0
    if ka == 'inf':
        return F_INF | sa << 31, 0
    if kb == 'inf':
        return F_INF | sb << 31, 0
    x = (-va if sa else va) + (-vb if sb else vb)
    if x == 0:
        if ka == 'zero' and kb == 'zero' and sa == sb:
            return sa << 31, 0
        return _zero_of_exact_cancel(rm), 0
    return f32_round(int(x < 0), abs(x), rm)


def fsub(a, b, rm):
    return fadd(a, b ^ SIGN, rm)


def fmul(a, b, rm):
    ka, sa, va = f_decode(a)
    kb, sb, vb = f_decode(b)
    if ka == 'nan' or kb == 'nan':
        return CANON_NAN, NV if f_issnan(a) or f_issnan(b) else 0
    s = sa ^ sb
    if (ka, kb) in (('inf', 'zero'), ('zero', 'inf')):
        return CANON_NAN, NV
    if 'inf' in (ka, kb):
        return F_INF | s << 31, 0
    if 'zero' in (ka, kb):
        return s << 31, 0
    return f32_round(s, va * vb, rm)


def fdiv(a, b, rm):
    ka, sa, va = f_decode(a)
    kb, sb, vb = f_decode(b)
    if ka == 'nan' or kb == 'nan':
        return CANON_NAN, NV if f_issnan(a) or f_issnan(b) else 0
    s = sa ^ sb
    if (ka, kb) in (('inf', 'inf'), ('zero', 'zero')):
        return CANON_NAN, NV
    if ka == 'inf':
        return F_INF | s << 31, 0
    if kb == 'inf':
        return s << 31, 0
    if kb == 'zero':
        return F_INF | s << 31, DZ
    if ka == 'zero':
        return s << 31, 0
    return f32_round(s, va / vb, rm)


def fsqrt(a, rm):
    ka, sa, va = f_decode(a)
    if ka == 'nan':
        return CANON_NAN, NV if f_issnan(a) else 0
    if ka == 'zero':
        return a, 0
    if sa:
        return CANON_NAN, NV
    if ka == 'inf':
        return a, 0
    n, d = va.numerator, va.denominator
    # sqrt(n/d) = sqrt(n*d*4^k) / (d*2^k); make the integer root >= 2^30 so
    # that the rounding point is far above its units digit.
    big, k = n * d, 0
    while big < (1 << 60):
        big <<= 2
        k += 1
    r = isqrt(big)
    if r * r == big:
        root = Fraction(r, d << k)
    else:  # strictly between r and r+1: r+1/2 rounds the same way
        root = Fraction(2 * r + 1, (d << k) * 2)
    return f32_round(0, root, rm)


def ffma(a, b, c, rm, neg_prod=0, neg_c=0):
    """(-1)^neg_prod * a*b + (-1)^neg_c * c, one rounding.
    fmadd (0,0)  fmsub (0,1)  fnmsub (1,0)  fnmadd (1,1)."""
    ka, sa, va = f_decode(a)
    kb, sb, vb = f_decode(b)
    kc, sc, vc = f_decode(c)
    inf_times_zero = (ka, kb) in (('inf', 'zero'), ('zero', 'inf'))
    if 'nan' in (ka, kb, kc):
        # RISC-V: inf*0 raises NV even when the addend is a quiet NaN
        nv = f_issnan(a) or f_issnan(b) or f_issnan(c) or inf_times_zero
        return CANON_NAN, NV if nv else 0
    if inf_times_zero:
        return CANON_NAN, NV
    ps = sa ^ sb ^ neg_prod
    cs = sc ^ neg_c
    if ka == 'inf' or kb == 'inf':
        if kc == 'inf' and cs != ps:
            return CANON_NAN, NV
        return F_INF | ps << 31, 0
    if kc == 'inf':
        return F_INF | cs << 31, 0
    p = va * vb
    x = (-p if ps else p) + (-vc if cs else vc)
    if x == 0:
        if p == 0 and vc == 0 and ps == cs:
            return ps << 31, 0
        return _zero_of_exact_cancel(rm), 0
    return f32_round(int(x < 0), abs(x), rm)


FMA_NEG = {'fmadd.s': (0, 0), 'fmsub.s': (0, 1),
           'fnmsub.s': (1, 0), 'fnmadd.s': (1, 1)}


def round_to_int(x, rm):
    """Round the exact Fraction x to an integer. -> (int, inexact)."""
    sign = int(x < 0)
    n, inexact, _ = _round_to_quantum(sign, abs(x), rm, 0)
    return (-n if sign else n), inexact


def fcvt_w(a, rm, unsigned):
    lo, hi = (0, M32) if unsigned else (-(1 << 31), (1 << 31) - 1)
    k, s, v = f_decode(a)
    if k == 'nan':
        return u32(hi), NV
    if k == 'inf':
        return u32(lo if s else hi), NV
    r, inexact = round_to_int(-v if s else v, rm)
    if r > hi:
        return u32(hi), NV
    if r < lo:
        return u32(lo), NV
    return u32(r), NX if inexact else 0


def fcvt_s_w(i, rm, unsigned):
    v = u32(i) if unsigned else s32(i)
    if v == 0:
        return 0, 0
    return f32_round(int(v < 0), Fraction(abs(v)), rm)


def _fkey(b):
    """Order-preserving integer for non-NaN binary32 (+0 and -0 equal)."""
    return -(b & 0x7FFFFFFF) if b >> 31 else (b & 0x7FFFFFFF)


def fcmp(op, a, b):
    if f_isnan(a) or f_isnan(b):
        if op == 'feq.s':
            return 0, NV if f_issnan(a) or f_issnan(b) else 0
        return 0, NV                       # flt/fle are signaling
    ka, kb = _fkey(a), _fkey(b)
    return int({'feq.s': ka == kb, 'flt.s': ka < kb, 'fle.s': ka <= kb}[op]), 0


def fminmax(op, a, b):
    flags = NV if f_issnan(a) or f_issnan(b) else 0
    an, bn = f_isnan(a), f_isnan(b)
    if an and bn:
        return CANON_NAN, flags
    if an:
        return b, flags
    if bn:
        return a, flags
    ka, kb = _fkey(a), _fkey(b)
    if ka == kb:                               # equal, or -0 vs +0
        neg, pos = (a, b) if a >> 31 else (b, a)
        return (neg if op == 'fmin.s' else pos), flags
    if op == 'fmin.s':
        return (a if ka < kb else b), flags
    return (a if ka > kb else b), flags


def fclass(b):
    s = b >> 31
    e = (b >> 23) & 0xFF
    m = b & 0x7FFFFF
    if e == 0xFF:
        if m == 0:
            return 1 << (0 if s else 7)
        return 1 << (9 if m & 0x400000 else 8)
    if e == 0:
        if m == 0:
            return 1 << (3 if s else 4)
        return 1 << (2 if s else 5)
    return 1 << (1 if s else 6)


def fsgnj(op, a, b):
    if op == 'fsgnj.s':
        return (a & 0x7FFFFFFF) | (b & SIGN)
    if op == 'fsgnjn.s':
        return (a & 0x7FFFFFFF) | (~b & SIGN)
    return a ^ (b & SIGN)


def f_eval(op, rm, a=0, b=0, c=0):
    """Uniform entry point: -> (result bits / integer, fflags)."""
    if op == 'fadd.s':
        return fadd(a, b, rm)
    if op == 'fsub.s':
        return fsub(a, b, rm)
    if op == 'fmul.s':
        return fmul(a, b, rm)
    if op == 'fdiv.s':
        return fdiv(a, b, rm)
    if op == 'fsqrt.s':
        return fsqrt(a, rm)
    if op in FMA_NEG:
        return ffma(a, b, c, rm, *FMA_NEG[op])
    if op == 'fcvt.w.s':
        return fcvt_w(a, rm, False)
    if op == 'fcvt.wu.s':
        return fcvt_w(a, rm, True)
    if op == 'fcvt.s.w':
        return fcvt_s_w(a, rm, False)
    if op == 'fcvt.s.wu':
        return fcvt_s_w(a, rm, True)
    if op in ('feq.s', 'flt.s', 'fle.s'):
        return fcmp(op, a, b)
    if op in ('fmin.s', 'fmax.s'):
        return fminmax(op, a, b)
    if op == 'fclass.s':
        return fclass(a), 0
    if op in ('fsgnj.s', 'fsgnjn.s', 'fsgnjx.s'):
        return fsgnj(op, a, b), 0
    if op in ('fmv.x.w', 'fmv.w.x'):
        return a, 0
    raise ValueError(op)


# ---------------------------------------------------------------------------
# Assembly emitter
# ---------------------------------------------------------------------------

# Registers the tests may clobber (s0-s5, s8-s11 and sp belong to the frame).
POOL = ['ra', 'gp', 'tp', 't0', 't1', 't2', 't3', 't4', 't5', 't6',
        'a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 's6', 's7']
XNAMES = ['zero', 'ra', 'sp', 'gp', 'tp', 't0', 't1', 't2', 's0', 's1',
          'a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 's2', 's3', 's4',
          's5', 's6', 's7', 's8', 's9', 's10', 's11', 't3', 't4', 't5', 't6']


def hx(v):
    return '0x%08x' % u32(v)


def word(v):
    return v if isinstance(v, str) else hx(v)


class Ctx:
    """Collects the code of one table (or one snippet row) and its fail stubs."""

    def __init__(self, asm, label, base, name_label, fixed_row=None):
        self.asm = asm
        self.label = label
        self.base = base
        self.name_label = name_label
        self.fixed_row = fixed_row
        self.lines = []
        self.stubs = []

    def emit(self, *lines):
        for ln in lines:
            self.lines.append(ln if ln.endswith(':') else '    ' + ln)

    def lbl(self, tag):
        return self.asm.new_label(self.label + '_' + tag)

    def check(self, got, kind, exp='s5'):
        """Branch to a fail stub unless got == exp (default: s5)."""
        assert got != 's5' and exp != 's4'
        stub = self.asm.new_label(self.label + '_fail')
        self.emit('bne %s, %s, %s' % (got, exp, stub))
        s = [stub + ':']
        if exp != 's5':
            s.append('    mv s5, %s' % exp)
        if got != 's4':
            s.append('    mv s4, %s' % got)
        if self.fixed_row is not None:
            s.append('    li s2, %d' % self.fixed_row)
        s += ['    li s10, %d' % self.asm.kind(kind),
              '    li s9, %d' % self.base,
              '    lla s8, %s' % self.name_label,
              '    tail fail_common']
        self.stubs += s


class Asm:
    def __init__(self, name, title):
        self.name = name
        self.title = title
        self.rng = random.Random('%s:%d' % (name, SEED))
        self.pre = []          # code before the all-thread rows (zicsr)
        self.allthread = []    # all-thread row code
        self.code = []         # strided tables
        self.rodata = []
        self.bss = []
        self.nrows = 0
        self.n_allthread = 0
        self.kinds = []
        self.labels = set()
        self.ntables = 0
        self.strings = []
        self.summary = []      # (table name, rows)

    # -- helpers -----------------------------------------------------------
    def new_label(self, base):
        n = 0
        while '%s%d' % (base, n) in self.labels:
            n += 1
        lab = '%s%d' % (base, n)
        self.labels.add(lab)
        return lab

    def kind(self, k):
        if k not in self.kinds:
            self.kinds.append(k)
        return self.kinds.index(k)

    def string(self, text):
        lab = self.new_label('str_')
        safe = text.replace('\\', '/').replace('"', "'")
        self.strings.append('%s: .asciz "%s"' % (lab, safe))
        return lab

    def pick(self, n, avoid=()):
        return self.rng.sample([r for r in POOL if r not in avoid], n)

    def fpick(self, n):
        return ['f%d' % i for i in self.rng.sample(range(32), n)]

    def _data(self, label, cols, rows, rowwords, note):
        self.rodata.append('    .balign 16')
        self.rodata.append('// %s: row = {%s}%s' % (label, ', '.join(cols), note))
        self.rodata.append(label + ':')
        for i, r in enumerate(rows):
            r = list(r) + [0] * (rowwords - len(r))
            self.rodata.append('    .word ' + ','.join(word(v) for v in r))

    @staticmethod
    def _rowwords(n):
        p = 1
        while p < n:
            p *= 2
        return p

    # -- table kinds -------------------------------------------------------
    def loop_table(self, name, cols, rows, body):
        """One body for all rows.  body(ctx, off) with off(col) -> byte offset
        of that column in the row addressed by s3."""
        assert rows
        self.ntables += 1
        lab = 'T%d' % self.ntables
        self.labels.add(lab)
        base, count = self.nrows, len(rows)
        self.nrows += count
        rw = self._rowwords(len(cols))
        shift = (rw * 4).bit_length() - 1
        name_lab = self.string(name)
        ctx = Ctx(self, lab, base, name_lab)
        ctx.lines.append('// table %s: %s -- rows %d..%d (%d vectors)'
                         % (lab, name, base, base + count - 1, count))
        ctx.lines.append(lab + ':')
        ctx.emit('li t0, %d' % (base + count),
                 'bltu s2, t0, %s_go' % lab,
                 'j %s_done' % lab)
        ctx.lines.append(lab + '_go:')
        ctx.emit('li t1, %d' % base,
                 'sub t1, s2, t1',
                 'slli t1, t1, %d' % shift,
                 'lla t2, %s_data' % lab,
                 'add s3, t2, t1')
        body(ctx, lambda c: 4 * cols.index(c))
        ctx.emit('add s2, s2, s1', 'j %s' % lab)
        self.code += ctx.lines + ctx.stubs + [lab + '_done:']
        self._data(lab + '_data', cols, rows, rw, '')
        self.summary.append((name, count))

    def snippet_table(self, name, cols, rows, far=False):
        """rows: list of (words, row name, body(ctx, off)); each row has its own
        code, run only by the thread that owns the row."""
        assert rows
        self.ntables += 1
        lab = 'T%d' % self.ntables
        self.labels.add(lab)
        base, count = self.nrows, len(rows)
        self.nrows += count
        rw = self._rowwords(len(cols))
        out = ['// table %s: %s -- rows %d..%d (%d snippets)'
               % (lab, name, base, base + count - 1, count), lab + ':',
               '    li t0, %d' % (base + count),
               '    bltu s2, t0, %s_r0' % lab,
               '    tail %s_r%d' % (lab, count)]
        for k, (words, rname, body) in enumerate(rows):
            nxt = '%s_r%d' % (lab, k + 1)
            ctx = Ctx(self, '%s_r%d' % (lab, k), base, self.string(rname))
            ctx.lines.append('%s_r%d:  // %s' % (lab, k, rname))
            ctx.emit('li t0, %d' % (base + k))
            if far:
                ctx.emit('beq s2, t0, %s_r%d_go' % (lab, k), 'tail %s' % nxt)
                ctx.lines.append('%s_r%d_go:' % (lab, k))
            else:
                ctx.emit('bne s2, t0, %s' % nxt)
            ctx.emit('lla s3, %s_data+%d' % (lab, k * rw * 4))
            body(ctx, lambda c: 4 * cols.index(c))
            ctx.emit('add s2, s2, s1')
            ctx.emit('tail %s' % nxt if far else 'j %s' % nxt)
            out += ctx.lines + ctx.stubs
        out.append('%s_r%d:' % (lab, count))
        self.code += out
        self._data(lab + '_data', cols, [r[0] for r in rows], rw, '')
        self.summary.append((name, count))

    def allthread_row(self, name, body):
        """A check that every thread performs on itself (rows 0..K-1)."""
        assert self.nrows == self.n_allthread, 'all-thread rows come first'
        row = self.nrows
        self.nrows += 1
        self.n_allthread += 1
        lab = 'A%d' % row
        self.labels.add(lab)
        ctx = Ctx(self, lab, row, self.string(name), fixed_row=row)
        ctx.lines.append('// all-thread row %d: %s' % (row, name))
        body(ctx)
        ctx.emit('j %s_end' % lab)
        self.allthread += ctx.lines + ctx.stubs + [lab + '_end:']
        self.summary.append((name + ' [every thread]', 1))

    # -- output ------------------------------------------------------------
    def render(self):
        o = [HEADER,
             '// %s.S -- %s' % (self.name, self.title),
             '// %d rows: rows 0..%d are checked by every thread, row r >= %d by'
             % (self.nrows, self.n_allthread - 1, self.n_allthread),
             '// thread (r - %d) mod nthreads.  Failure: exit code row+1 and a line on'
             % self.n_allthread,
             '// fd 2.  See the README block in the generator.',
             '    .option norvc',
             '    .section .text.start, "ax"',
             '    .globl _start',
             '_start:']
        o += self.pre
        o += ['    mv s0, a0              // tid',
              '    mv s1, a1              // nthreads']
        o += self.allthread
        o += ['    li t0, %d' % self.n_allthread,
              '    add s2, s0, t0         // first row of this thread']
        o += self.code
        o += ['// every row of this thread passed',
              'all_passed:',
              '    li a0, 0',
              '    li a7, 93',
              '    ecall',
              '    .word 0                // not reached (exit returned)']
        o += FAIL_COMMON.replace('@FILE@', self.name).split('\n')
        o += ['    .section .rodata', '    .balign 4', 'kind_table:']
        o += ['    .word kind_%d  // %s' % (i, k) for i, k in enumerate(self.kinds)]
        o += ['kind_%d: .asciz "%s"' % (i, k) for i, k in enumerate(self.kinds)]
        o += self.strings
        o += ['    .balign 4', 'pow10:',
              '    .word 1000000000,100000000,10000000,1000000,100000,10000,1000,100,10,1',
              'hexdigits: .ascii "0123456789abcdef"',
              'msg_head: .asciz "@FILE@: FAIL row "'.replace('@FILE@', self.name),
              'msg_open: .asciz " ("',
              'msg_vec: .asciz " vector "',
              'msg_close: .asciz "): "',
              'msg_got: .asciz " got 0x"',
              'msg_exp: .asciz " expected 0x"']
        o += self.rodata
        if self.bss:
            o += ['    .section .bss'] + self.bss
        return '\n'.join(o) + '\n'


FAIL_COMMON = r"""
// ---- failure report ----------------------------------------------------
// in: s2 = row, s4 = got, s5 = expected, s8 = table name, s9 = table's
// first row, s10 = index into kind_table.  Writes one line to fd 2 and
// exits with code row+1.
    .section .text
fail_common:
    addi sp, sp, -256
    mv t6, sp
    lla a0, msg_head
    jal ra, put_str
    mv a0, s2
    jal ra, put_dec
    lla a0, msg_open
    jal ra, put_str
    mv a0, s8
    jal ra, put_str
    lla a0, msg_vec
    jal ra, put_str
    sub a0, s2, s9
    jal ra, put_dec
    lla a0, msg_close
    jal ra, put_str
    lla t0, kind_table
    slli t1, s10, 2
    add t0, t0, t1
    lw a0, 0(t0)
    jal ra, put_str
    lla a0, msg_got
    jal ra, put_str
    mv a0, s4
    jal ra, put_hex
    lla a0, msg_exp
    jal ra, put_str
    mv a0, s5
    jal ra, put_hex
    li t0, 10
    sb t0, 0(t6)
    addi t6, t6, 1
    li a0, 2
    mv a1, sp
    sub a2, t6, sp
    li a7, 64
    ecall
    addi a0, s2, 1
    li a7, 93
    ecall
    .word 0
// put_str: copy the NUL-terminated string at a0 to t6
put_str:
    lbu t0, 0(a0)
    beqz t0, 1f
    sb t0, 0(t6)
    addi t6, t6, 1
    addi a0, a0, 1
    j put_str
1:  ret
// put_hex: a0 as 8 hex digits at t6
put_hex:
    li t1, 28
    lla t2, hexdigits
1:  srl t0, a0, t1
    andi t0, t0, 15
    add t0, t2, t0
    lbu t0, 0(t0)
    sb t0, 0(t6)
    addi t6, t6, 1
    addi t1, t1, -4
    bgez t1, 1b
    ret
// put_dec: a0 unsigned in decimal at t6 (no M extension needed)
put_dec:
    lla t2, pow10
    li t3, 0
1:  lw t1, 0(t2)
    li t0, 0
2:  bltu a0, t1, 3f
    sub a0, a0, t1
    addi t0, t0, 1
    j 2b
3:  or t3, t3, t0
    li t4, 1
    bnez t3, 4f
    bne t1, t4, 5f
4:  addi t0, t0, 48
    sb t0, 0(t6)
    addi t6, t6, 1
5:  beq t1, t4, 6f
    addi t2, t2, 4
    j 1b
6:  ret"""


# ---------------------------------------------------------------------------
# Integer vectors
# ---------------------------------------------------------------------------

INT_EDGE = [0, 1, 2, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF,
            0xFFFFFFFE, 0x00008000, 0x00007FFF, 0xFFFF8000, 0x0000FFFF,
            0x55555555, 0xAAAAAAAA, 31, 33]
SHAMT_EDGE = [0, 1, 2, 7, 15, 16, 30, 31, 32, 33, 63, 64, 0x3F, 0x100,
              0x7FFFFFFF, 0x80000000, 0xFFFFFFE1, 0xFFFFFFFF]
M_EDGE = [0, 1, 2, 3, 7, 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFF9, 0x80000000,
          0x80000001, 0x7FFFFFFF, 0x00010000, 0x0000FFFF, 0x00008000,
          0x55555555, 0xAAAAAAAA, 0x12345678, 0xFFFF0000]
IMM12_EDGE = [-2048, -2047, -1, 0, 1, 2, 2047, 2046, 0x555, -0x556, 0x100, -0x80]


def rand_int(rng):
    r = rng.random()
    if r < 0.35:
        return rng.getrandbits(32)
    if r < 0.55:
        return u32(rng.randint(-300, 300))
    if r < 0.75:
        return u32((1 << rng.randint(0, 31)) + rng.randint(-1, 1))
    if r < 0.9:
        return u32(-(1 << rng.randint(0, 31)) + rng.randint(-1, 1))
    return u32(rng.getrandbits(rng.randint(1, 32)) << rng.randint(0, 16))


def rand_shamt(rng):
    if rng.random() < 0.5:
        return rng.randint(0, 31)
    return rng.getrandbits(32)


def int_pairs(rng, edge, nrand, shift=False, bedge=None):
    out = [(a, b) for a in edge for b in (bedge or edge)]
    for _ in range(nrand):
        out.append((rand_int(rng), rand_shamt(rng) if shift else rand_int(rng)))
    return out


def rr_variant_tables(asm, op, nrows, shift=False):
    """The same R-type op with aliased / x0 operands."""
    ref = INT_REF[op]
    for var in ('rd=rs1', 'rd=rs2', 'rs1=rs2', 'rs1=x0', 'rs2=x0'):
        r1, r2 = asm.pick(2)
        rd = {'rd=rs1': r1, 'rd=rs2': r2}.get(var, asm.pick(1)[0])
        if var == 'rs1=rs2':
            r2 = r1
        if var == 'rs1=x0':
            r1 = 'zero'
        if var == 'rs2=x0':
            r2 = 'zero'
        rows = []
        for _ in range(nrows):
            a = rand_int(asm.rng) if asm.rng.random() < 0.7 else asm.rng.choice(INT_EDGE)
            b = rand_shamt(asm.rng) if shift else rand_int(asm.rng)
            if r1 == 'zero':
                a = 0
            if r2 == 'zero':
                b = 0
            if var == 'rs1=rs2':
                b = a
            rows.append((a, b, ref(a, b)))
        asm.loop_table('%s %s, %s, %s' % (op, rd, r1, r2), ['rs1', 'rs2', 'expected'],
                       rows, rtype_body(op, rd, r1, r2))


def rtype_body(op, rd, rs1, rs2):
    def body(ctx, off):
        if rs1 != 'zero':
            ctx.emit('lw %s, %d(s3)' % (rs1, off('rs1')))
        if rs2 not in ('zero', rs1):
            ctx.emit('lw %s, %d(s3)' % (rs2, off('rs2')))
        ctx.emit('%s %s, %s, %s' % (op, rd, rs1, rs2),
                 'lw s5, %d(s3)' % off('expected'))
        ctx.check(rd, 'result')
    return body


def itype_body(op, rd, rs1, imm):
    def body(ctx, off):
        ctx.emit('lw %s, %d(s3)' % (rs1, off('rs1')),
                 '%s %s, %s, %d' % (op, rd, rs1, imm),
                 'lw s5, %d(s3)' % off('expected'))
        ctx.check(rd, 'result')
    return body


def gen_rv32i_alu():
    asm = Asm('rv32i_alu', 'RV32I register-register, register-immediate, lui, auipc')
    rng = asm.rng
    for op in ('add', 'sub', 'sll', 'slt', 'sltu', 'xor', 'srl', 'sra', 'or', 'and'):
        shift = op in ('sll', 'srl', 'sra')
        rd = asm.pick(1)[0]
        r1, r2 = asm.pick(2)
        pairs = int_pairs(rng, INT_EDGE, 120, shift, SHAMT_EDGE if shift else None)
        if op in ('slt', 'sltu'):     # equal and neighbouring values
            for _ in range(24):
                a = rand_int(rng)
                pairs += [(a, a), (a, u32(a + 1)), (u32(a + 1), a)]
        asm.loop_table('%s %s, %s, %s' % (op, rd, r1, r2), ['rs1', 'rs2', 'expected'],
                       [(a, b, INT_REF[op](a, b)) for a, b in pairs],
                       rtype_body(op, rd, r1, r2))
        rr_variant_tables(asm, op, 20, shift)
    for op in ('addi', 'slti', 'sltiu', 'xori', 'ori', 'andi'):
        imms = IMM12_EDGE + [rng.randint(-2048, 2047) for _ in range(3)]
        for imm in imms:
            r1 = asm.pick(1)[0]
            rd = r1 if rng.random() < 0.3 else asm.pick(1, avoid=[r1])[0]
            vals = INT_EDGE + [rand_int(rng) for _ in range(6)]
            vals += [u32(imm), u32(imm - 1), u32(imm + 1)]   # slti/sltiu boundaries
            asm.loop_table('%s %s, %s, %d' % (op, rd, r1, imm), ['rs1', 'expected'],
                           [(a, INT_REF[IMM_REF[op]](a, u32(imm))) for a in vals],
                           itype_body(op, rd, r1, imm))
    for op in ('slli', 'srli', 'srai'):
        for sh in range(32):
            r1 = asm.pick(1)[0]
            rd = r1 if rng.random() < 0.3 else asm.pick(1, avoid=[r1])[0]
            vals = [0x80000000, 0xFFFFFFFF, 0x7FFFFFFF, 1, 0x80000001, 0xAAAAAAAA,
                    0x55555555] + [rand_int(rng) for _ in range(5)]
            asm.loop_table('%s %s, %s, %d' % (op, rd, r1, sh), ['rs1', 'expected'],
                           [(a, INT_REF[IMM_REF[op]](a, sh)) for a in vals],
                           itype_body(op, rd, r1, sh))
    # lui / auipc: the immediate is in the instruction -> one snippet per value
    uimms = [0, 1, 2, 0x7FFFF, 0x80000, 0x80001, 0xFFFFF, 0xFFFFE, 0x12345, 0x00800,
             0x00FFF, 0xFFF00, 0x55555, 0xAAAAA] + [rng.getrandbits(20) for _ in range(10)]
    rows = []
    for imm in uimms:
        rd = asm.pick(1)[0]

        def body(ctx, off, rd=rd, imm=imm):
            ctx.emit('lui %s, 0x%x' % (rd, imm), 'lw s5, %d(s3)' % off('expected'))
            ctx.check(rd, 'result')
        rows.append(((imm << 12,), 'lui %s, 0x%x' % (rd, imm), body))
    asm.snippet_table('lui', ['expected'], rows)
    rows = []
    for imm in uimms:
        rd = asm.pick(1)[0]
        lab = asm.new_label('auipc_')

        def body(ctx, off, rd=rd, imm=imm, lab=lab):
            ctx.lines.append(lab + ':')
            ctx.emit('auipc %s, 0x%x' % (rd, imm), 'lw s5, %d(s3)' % off('expected'))
            ctx.check(rd, 'result')
        rows.append((('%s%+d' % (lab, s32(imm << 12)),), 'auipc %s, 0x%x' % (rd, imm), body))
    asm.snippet_table('auipc (expected = pc + imm<<12)', ['expected'], rows)
    return asm


def gen_rv32m():
    asm = Asm('rv32m', 'RV32M multiply and divide')
    rng = asm.rng
    for op in ('mul', 'mulh', 'mulhsu', 'mulhu', 'div', 'divu', 'rem', 'remu'):
        rd = asm.pick(1)[0]
        r1, r2 = asm.pick(2)
        pairs = int_pairs(rng, M_EDGE, 150)
        for _ in range(30):   # exact quotients, small divisors
            b = u32(rng.randint(-9, 9))
            pairs.append((u32(s32(b) * rng.randint(-10000, 10000)), b))
        asm.loop_table('%s %s, %s, %s' % (op, rd, r1, r2), ['rs1', 'rs2', 'expected'],
                       [(a, b, INT_REF[op](a, b)) for a, b in pairs],
                       rtype_body(op, rd, r1, r2))
        rr_variant_tables(asm, op, 16)
    return asm


def branch_rows(rng, op, n_rand, alias=False):
    ref = BRANCH_REF[op]
    if alias:
        vals = [rand_int(rng) for _ in range(n_rand)]
        return [(a, a, int(ref(a, a))) for a in vals]
    edge = [0, 1, 0xFFFFFFFF, 2, 0x80000000, 0x7FFFFFFF, 0x80000001, 0x7FFFFFFE,
            0xFFFFFFFE, 0x00008000, 0x0000FFFF, 0xFFFF0000]
    pairs = [(a, b) for a in edge for b in edge]
    for _ in range(n_rand):
        a = rand_int(rng)
        pairs.append(rng.choice([(a, rand_int(rng)), (a, a), (a, u32(a + 1)), (u32(a + 1), a),
                                 (a, a ^ 0x80000000)]))
    return [(a, b, int(ref(a, b))) for a, b in pairs]


def gen_rv32i_branch():
    asm = Asm('rv32i_branch', 'RV32I conditional branches (short, long, backward, aliased)')
    rng = asm.rng
    cols = ['rs1', 'rs2', 'taken']
    for op in BRANCH_REF:
        for shape in ('fwd', 'bwd', 'fwd4092', 'bwd4096', 'alias', 'rs2=x0', 'rs1=x0'):
            r1, r2, mk = asm.pick(3)
            if shape == 'alias':
                r2 = r1
            if shape == 'rs2=x0':
                r2 = 'zero'
            if shape == 'rs1=x0':
                r1 = 'zero'
            n = {'fwd': 60, 'bwd': 24, 'fwd4092': 12, 'bwd4096': 12}.get(shape, 16)
            if shape in ('fwd',):
                rows = branch_rows(rng, op, n)
            elif shape == 'alias':
                rows = branch_rows(rng, op, n, alias=True)
            else:
                rows = branch_rows(rng, op, 0)
                rng.shuffle(rows)
                rows = rows[:n] + branch_rows(rng, op, n)[-n:]
            if r1 == 'zero' or r2 == 'zero':
                rows = [((0 if r1 == 'zero' else a), (0 if r2 == 'zero' else b)) for a, b, _ in rows]
                rows += [(0, 0), (1, 1), (0xFFFFFFFF, 0xFFFFFFFF), (0x80000000, 0x80000000)]
                rows = [((0 if r1 == 'zero' else a), (0 if r2 == 'zero' else b)) for a, b in rows]
                rows = [(a, b, int(BRANCH_REF[op](a, b))) for a, b in rows]

            def body(ctx, off, op=op, r1=r1, r2=r2, mk=mk, shape=shape):
                tk, jn, st = ctx.lbl('taken'), ctx.lbl('join'), ctx.lbl('start')
                loads = []
                if r1 != 'zero':
                    loads.append('lw %s, %d(s3)' % (r1, off('rs1')))
                if r2 not in ('zero', r1):
                    loads.append('lw %s, %d(s3)' % (r2, off('rs2')))
                ctx.emit(*loads)
                br = '%s %s, %s, %s' % (op, r1, r2, tk)
                if shape.startswith('bwd'):
                    ctx.emit('j %s' % st)
                    ctx.lines.append(tk + ':')
                    ctx.emit('li %s, 1' % mk, 'j %s' % jn)
                    if shape == 'bwd4096':   # branch offset exactly -4096
                        ctx.emit('.fill 1021, 4, 0')
                    ctx.lines.append(st + ':')
                    ctx.emit('li %s, 0' % mk)
                    ctx.lines.append(st + '_br:')
                    ctx.emit(br)
                    if shape == 'bwd4096':
                        ctx.emit('.if (%s - %s_br) != -4096' % (tk, st), '.error "offset"', '.endif')
                    ctx.lines.append(jn + ':')
                else:
                    ctx.lines.append(tk + '_br:')
                    ctx.emit(br, 'li %s, 0' % mk, 'j %s' % jn)
                    if shape == 'fwd4092':   # branch offset exactly +4092
                        ctx.emit('.fill 1020, 4, 0')
                    ctx.lines.append(tk + ':')
                    if shape == 'fwd4092':
                        ctx.emit('.if (%s - %s_br) != 4092' % (tk, tk), '.error "offset"', '.endif')
                    ctx.emit('li %s, 1' % mk)
                    ctx.lines.append(jn + ':')
                ctx.emit('lw s5, %d(s3)' % off('taken'))
                ctx.check(mk, 'branch taken (1) / not taken (0)')
            asm.loop_table('%s %s, %s (%s)' % (op, r1, r2, shape), cols, rows, body)
    return asm


def far_jump(ctx, target, tmp):
    """auipc+jalr x0 pair (accepted by wpusim's control-flow analysis)."""
    au = ctx.lbl('far')
    ctx.lines.append(au + ':')
    ctx.emit('auipc %s, %%pcrel_hi(%s)' % (tmp, target),
             'jalr zero, %%pcrel_lo(%s)(%s)' % (au, tmp))


def gen_rv32i_jump():
    asm = Asm('rv32i_jump', 'RV32I jal / jalr: link values, offsets, bit 0 clearing, '
              'calls and returns')
    rng = asm.rng
    # wpusim's static control-flow analysis (docs/abi.md does not say so) accepts
    # three kinds of jalr only: calls (rd = ra; the callee must come back with
    # jalr x0, 0(ra)), that return, and any jalr whose base register is set by
    # the auipc just before it.  jal with rd = ra is a call as well.  The tests
    # below stay inside these rules and still cover every field of both
    # instructions.
    #
    # jal: one snippet per (offset, rd); the offsets set every immediate bit.
    other = lambda: asm.pick(1, avoid=['ra'])[0]
    cases = [(4, other()), (8, 'ra'), (12, other()), (2044, other()), (2048, 'ra'),
             (4096, other()), (0xFFFFC, other()), (0xFFFFC, 'ra'), (-4, 'ra'), (-8, other()),
             (-2048, other()), (-4096, 'ra'), (-0x100000, other()), (16, 'zero'), (-12, 'zero')]
    rows = []
    for offset, rd in cases:
        jl = asm.new_label('jal_')

        def body(ctx, off, offset=offset, rd=rd, jl=jl):
            tg, dn, st, ct = ctx.lbl('tgt'), ctx.lbl('done'), ctx.lbl('start'), ctx.lbl('cont')
            got = 's4' if rd == 'zero' else rd
            assert_off = ['.if (%s - %s) != %d' % (tg, jl, offset), '.error "jal offset"', '.endif']

            def check():
                if rd == 'zero':
                    ctx.emit('mv s4, zero')
                ctx.emit('lw s5, %d(s3)' % off('link'))
                ctx.check(got, 'link register')
            if rd == 'ra':      # a real call: the target is a function that returns
                if offset > 0:
                    ctx.lines.append(jl + ':')
                    ctx.emit('jal ra, %s' % tg, 'j %s' % ct,
                             '.fill %d, 4, 0' % ((offset - 8) // 4))
                    ctx.lines.append(tg + ':')
                    ctx.emit('ret', *assert_off)
                    ctx.lines.append(ct + ':')
                else:
                    ctx.emit('tail %s' % st)
                    ctx.lines.append(tg + ':')
                    ctx.emit('ret', '.fill (%d - (. - %s)) / 4, 4, 0' % (-offset, tg))
                    ctx.lines.append(st + ':')
                    ctx.lines.append(jl + ':')
                    ctx.emit('jal ra, %s' % tg, *assert_off)
                check()
            elif offset > 0:
                ctx.lines.append(jl + ':')
                ctx.emit('jal %s, %s' % (rd, tg))
                if offset > 4:
                    ctx.emit('.fill %d, 4, 0          // skipped' % ((offset - 4) // 4))
                ctx.lines.append(tg + ':')
                ctx.emit(*assert_off)
                check()
            else:   # the target is a trampoline to the check after the jal
                tmp = 't1' if rd != 't1' else 't2'
                ctx.emit('tail %s' % st)
                ctx.lines.append(tg + ':')
                if -offset <= 2048:
                    ctx.emit('j %s' % dn)
                else:
                    far_jump(ctx, dn, tmp)
                ctx.emit('.fill (%d - (. - %s)) / 4, 4, 0' % (-offset, tg))
                ctx.lines.append(st + ':')
                ctx.lines.append(jl + ':')
                ctx.emit('jal %s, %s' % (rd, tg), *assert_off)
                ctx.emit('.word 0                  // fell through: illegal')
                ctx.lines.append(dn + ':')
                check()
        rows.append((('%s+4' % jl if rd != 'zero' else 0,), 'jal %s, %+d' % (rd, offset), body))
    asm.snippet_table('jal', ['link'], rows, far=True)

    # jalr as an indirect call: the target comes from the row, so the lanes of
    # a warp call different functions (pads), each of which returns.
    cols = ['base', 'pad', 'link']
    imms = [0, 4, -4, 1, -1, 3, 2047, -2048, 0x7FE, -0x555]
    for imm, var in [(imm, 'plain') for imm in imms] + [(0, 'rd=rs1'), (-8, 'rd=rs1'),
                                                        (2047, 'rd=rs1')]:
        r1 = 'ra' if var == 'rd=rs1' else asm.pick(1, avoid=['ra'])[0]
        mk = asm.pick(1, avoid=['ra', r1])[0]
        pre = asm.new_label('jalr_')
        rows = []
        for p in range(4):
            for bit0 in (0, 1):    # bit0: the sum is odd and jalr must clear bit 0
                rows.append(('%s_pad%d%+d' % (pre, p, -imm + bit0), p, '%s_link' % pre))
        rng.shuffle(rows)

        def body(ctx, off, imm=imm, r1=r1, mk=mk, pre=pre):
            ctx.emit('j %s_start' % pre)
            for p in (0, 1):
                ctx.lines.append('%s_pad%d:' % (pre, p))
                ctx.emit('li %s, %d' % (mk, p), 'ret')
            ctx.lines.append('%s_start:' % pre)
            ctx.emit('lw %s, %d(s3)' % (r1, off('base')), 'li %s, -1' % mk,
                     'jalr ra, %d(%s)' % (imm, r1))
            ctx.lines.append('%s_link:' % pre)
            ctx.emit('lw s5, %d(s3)' % off('pad'))
            ctx.check(mk, 'function reached (pad number)')
            ctx.emit('lw s5, %d(s3)' % off('link'))
            ctx.check('ra', 'link register')
            ctx.emit('j %s_after' % pre)
            for p in (2, 3):
                ctx.lines.append('%s_pad%d:' % (pre, p))
                ctx.emit('li %s, %d' % (mk, p), 'ret')
            ctx.lines.append('%s_after:' % pre)
        asm.loop_table('jalr ra, %d(%s) [indirect call, %s]' % (imm, r1, var), cols, rows, body)

    # jalr paired with the auipc before it: any rd, any immediate, bit 0
    # cleared, targets before and after; D = target - auipc.
    rows = []
    for hi, D, bit0, rd in [(0, 8, 0, None), (0, 8, 1, 'zero'), (0, 12, 0, None), (0, 12, 1, None),
                            (0, 2044, 0, None), (0, 2044, 1, 'same'), (0, -4, 0, None),
                            (0, -4, 1, 'zero'), (0, -2048, 0, None), (0, -2048, 1, None),
                            (1, 2052, 0, None), (1, 4096, 1, 'same'), (1, 6140, 0, None),
                            (0xFFFFF, -4096, 0, 'zero'), (0xFFFFF, -2052, 1, None),
                            (0, 16, 0, 'same'), (0, -8, 1, 'same')]:
        imm = D - s32(hi << 12) + bit0
        assert -2048 <= imm <= 2047, (hi, D)
        base = asm.pick(1, avoid=['ra', 't1'])[0]
        rd = {None: asm.pick(1, avoid=['ra', base])[0], 'same': base}.get(rd, rd)
        au = asm.new_label('au_')

        def body(ctx, off, hi=hi, D=D, imm=imm, base=base, rd=rd, au=au):
            tg, ck = ctx.lbl('tgt'), ctx.lbl('chk')
            jr = ['auipc %s, 0x%x' % (base, hi), 'jalr %s, %d(%s)' % (rd, imm, base)]
            if D > 0:
                ctx.lines.append(au + ':')
                ctx.emit(*jr)
                if D > 8:
                    ctx.emit('.fill %d, 4, 0' % ((D - 8) // 4))
                ctx.lines.append(tg + ':')
            else:
                ctx.emit('tail %s' % au)
                ctx.lines.append(tg + ':')
                if D >= -2048:
                    ctx.emit('j %s' % ck)
                else:
                    far_jump(ctx, ck, 't1')
                ctx.emit('.fill (%d - (. - %s)) / 4, 4, 0' % (-D, tg))
                ctx.lines.append(au + ':')
                ctx.emit(*jr)
                ctx.emit('.word 0                  // fell through: illegal')
                ctx.lines.append(ck + ':')
            ctx.emit('.if (%s - %s) != %d' % (tg, au, D), '.error "jalr target"', '.endif')
            if rd == 'zero':
                ctx.emit('mv s4, zero')
            ctx.emit('lw s5, %d(s3)' % off('link'))
            ctx.check('s4' if rd == 'zero' else rd, 'link register')
        rows.append((('%s+8' % au if rd != 'zero' else 0,),
                     'auipc %s, 0x%x; jalr %s, %d(%s)' % (base, hi, rd, imm, base), body))
    asm.snippet_table('auipc+jalr', ['link'], rows, far=True)

    # calls and returns: jal ra, call (auipc+jalr ra), nested through a saved ra
    rows = []
    for how, nested in (('jal', False), ('jal', True), ('call', False), ('call', True)):
        def body(ctx, off, how=how, nested=nested):
            fn, dn, inner = ctx.lbl('fn'), ctx.lbl('done'), ctx.lbl('inner')
            ctx.emit('li s7, 0', '%s %s' % ('jal ra,' if how == 'jal' else 'call', fn),
                     'lw s5, %d(s3)' % off('calls'))
            ctx.check('s7', 'call count after return')
            ctx.emit('j %s' % dn)
            ctx.lines.append(fn + ':')
            ctx.emit('addi s7, s7, 1')
            if nested:
                ctx.emit('mv a6, ra', '%s %s' % ('jal ra,' if how == 'jal' else 'call', inner),
                         'mv ra, a6')
            ctx.emit('ret')
            if nested:
                ctx.lines.append(inner + ':')
                ctx.emit('addi s7, s7, 10', 'ret')
            ctx.lines.append(dn + ':')
        rows.append(((11 if nested else 1,), '%s/ret%s' % (how, ' nested' if nested else ''), body))
    asm.snippet_table('call/return', ['calls'], rows)
    return asm


LDPAT = [0x80FF7F00, 0x7FFF8000, 0xFFFF0001, 0x0000FFFF, 0x80000000, 0x7FFFFFFF,
         0xFFFFFFFF, 0x00000000, 0x12345678, 0x9ABCDEF0, 0xDEADBEEF, 0x01234567,
         0x807F01FE, 0x00FF80FF, 0x8001FF7E, 0xC3A5965A]
LOADS = {'lb': (1, True), 'lh': (2, True), 'lw': (4, True), 'lbu': (1, False), 'lhu': (2, False)}
STORES = {'sb': 1, 'sh': 2, 'sw': 4}


def mem_read(words, addr, size, signed):
    raw = b''.join(w.to_bytes(4, 'little') for w in words)
    v = int.from_bytes(raw[addr:addr + size], 'little')
    return u32(sext(v, size * 8)) if signed else v


def gen_rv32i_load_store():
    asm = Asm('rv32i_load_store', 'RV32I loads and stores: widths, alignments, sign extension, '
              'immediates, neighbouring bytes')
    rng = asm.rng
    asm.rodata += ['    .balign 16', '// load pattern (little-endian words)', 'ldpat:']
    asm.rodata += ['    .word ' + ','.join(hx(w) for w in LDPAT)]
    imm_sets = {1: [0, 1, 2, 3, -1, -4, 2047, -2048, 64], 2: [0, 2, -2, 1, 3, 2047, -2048],
                4: [0, 4, -4, 1, 2, 3, 2047, -2048]}
    for op, (size, signed) in LOADS.items():
        for imm in imm_sets[size] + ['rd=rs1']:
            alias = imm == 'rd=rs1'
            if alias:
                imm = rng.choice([0, size, -size])
            r1 = asm.pick(1)[0]
            rd = r1 if alias else asm.pick(1, avoid=[r1])[0]
            rows = [('ldpat%+d' % (a - imm), mem_read(LDPAT, a, size, signed))
                    for a in range(0, 64, size)]
            rng.shuffle(rows)

            def body(ctx, off, op=op, rd=rd, r1=r1, imm=imm):
                ctx.emit('lw %s, %d(s3)' % (r1, off('base')),
                         '%s %s, %d(%s)' % (op, rd, imm, r1),
                         'lw s5, %d(s3)' % off('expected'))
                ctx.check(rd, 'loaded value')
            asm.loop_table('%s %s, %d(%s)' % (op, rd, imm, r1), ['base', 'expected'], rows, body)
    # memory nobody wrote reads as zero (docs/abi.md)
    for op in ('lw', 'lbu', 'lh'):
        r1, rd = asm.pick(2)
        rows = [(a, 0) for a in (0x10000000, 0x40000000, 0x7FFFFFFC, 0xF0000000,
                                 0x00FFF000, 0x20000004, 0x80000000, 0xFFFFFFF0)]

        def body(ctx, off, op=op, rd=rd, r1=r1):
            ctx.emit('lw %s, %d(s3)' % (r1, off('address')), '%s %s, 0(%s)' % (op, rd, r1),
                     'lw s5, %d(s3)' % off('expected'))
            ctx.check(rd, 'unwritten memory')
        asm.loop_table('%s %s, 0(%s) [unwritten memory]' % (op, rd, r1),
                       ['address', 'expected'], rows, body)
    # stores into an 8-byte window at sp-16 (thread private); both words of the
    # window are checked so that neighbouring bytes must be untouched
    imm_sets = {1: [0, 1, 3, -1, 2047, -2048], 2: [0, 2, -2, 1, 2047, -2048],
                4: [0, 4, -4, 1, 2047, -2048]}
    reload = {1: 'lb', 2: 'lh', 4: 'lw'}
    cols = ['bg0', 'bg1', 'delta', 'value', 'exp0', 'exp1', 'reload']
    for op, size in STORES.items():
        for imm in imm_sets[size] + ['x0']:
            zero_src = imm == 'x0'
            if zero_src:
                imm = 0
            r1, r2, rd = asm.pick(3, avoid=['t3', 't4'])
            if zero_src:
                r2 = 'zero'
            rows = []
            for a in range(0, 8, size):
                for _ in range(24 // (8 // size)):
                    bg = [rng.getrandbits(32), rng.getrandbits(32)]
                    if rng.random() < 0.3:
                        bg = [rng.choice([0, M32]), rng.choice([0, M32])]
                    val = 0 if zero_src else rng.choice([rng.getrandbits(32), 0xFFFFFF80,
                                                         0x12345680, 0xFFFF8000, 0x00007FFF])
                    raw = bytearray(b''.join(w.to_bytes(4, 'little') for w in bg))
                    raw[a:a + size] = (val & ((1 << (8 * size)) - 1)).to_bytes(size, 'little')
                    e0 = int.from_bytes(raw[0:4], 'little')
                    e1 = int.from_bytes(raw[4:8], 'little')
                    rows.append((bg[0], bg[1], u32(a - imm), val, e0, e1,
                                 u32(sext(val, 8 * size))))

            def body(ctx, off, op=op, size=size, imm=imm, r1=r1, r2=r2, rd=rd):
                ctx.emit('lw t3, %d(s3)' % off('bg0'), 'sw t3, -16(sp)',
                         'lw t3, %d(s3)' % off('bg1'), 'sw t3, -12(sp)')
                if r2 != 'zero':
                    ctx.emit('lw %s, %d(s3)' % (r2, off('value')))
                ctx.emit('lw t4, %d(s3)' % off('delta'),
                         'addi %s, sp, -16' % r1, 'add %s, %s, t4' % (r1, r1),
                         '%s %s, %d(%s)' % (op, r2, imm, r1),
                         'lw s4, -16(sp)', 'lw s5, %d(s3)' % off('exp0'))
                ctx.check('s4', 'memory word 0 after store')
                ctx.emit('lw s4, -12(sp)', 'lw s5, %d(s3)' % off('exp1'))
                ctx.check('s4', 'memory word 1 after store')
                ctx.emit('%s %s, %d(%s)' % (reload[size], rd, imm, r1),
                         'lw s5, %d(s3)' % off('reload'))
                ctx.check(rd, 'reload of the stored value')
            asm.loop_table('%s %s, %d(%s)' % (op, r2, imm, r1), cols, rows, body)
    return asm


def gen_rv32i_regs():
    asm = Asm('rv32i_regs', 'all 31 writable x registers and 32 f registers in every '
              'operand position; x0 stays zero')
    rng = asm.rng
    regs = [r for r in XNAMES[1:] if r != 'sp']            # 30 registers
    ops = ['add', 'sub', 'xor', 'or', 'and', 'sll', 'srl', 'sra', 'slt', 'sltu']
    rows = []
    for _ in range(48):
        vals = {r: rand_int(rng) for r in regs}
        init = [vals[r] for r in regs]
        for i, r in enumerate(regs):
            vals[r] = u32(vals[r] + sext(37 * i - 1024, 12))
        for i, r in enumerate(regs):
            a, b = regs[(i + 1) % 30], regs[(i + 7) % 30]
            vals[r] = INT_REF[ops[i % len(ops)]](vals[a], vals[b])
        rows.append(init + [vals[r] for r in regs])

    def body(ctx, off):
        ctx.emit('sw s0, -4(sp)', 'sw s1, -8(sp)', 'sw s2, -12(sp)', 'sw s3, -16(sp)')
        for i, r in enumerate(regs):
            if r != 's3':
                ctx.emit('lw %s, %d(s3)' % (r, 4 * i))
        ctx.emit('lw s3, %d(s3)' % (4 * regs.index('s3')))
        for i, r in enumerate(regs):
            ctx.emit('addi %s, %s, %d' % (r, r, sext(37 * i - 1024, 12)))
        for i, r in enumerate(regs):
            ctx.emit('%s %s, %s, %s' % (ops[i % len(ops)], r, regs[(i + 1) % 30], regs[(i + 7) % 30]))
        for i, r in enumerate(regs):
            ctx.emit('sw %s, %d(sp)' % (r, -20 - 4 * i))
        ctx.emit('lw s0, -4(sp)', 'lw s1, -8(sp)', 'lw s2, -12(sp)', 'lw s3, -16(sp)')
        for i, r in enumerate(regs):
            ctx.emit('lw s4, %d(sp)' % (-20 - 4 * i), 'lw s5, %d(s3)' % (4 * (30 + i)))
            ctx.check('s4', 'final value of x%d (%s)' % (XNAMES.index(r), r))
    asm.loop_table('x registers: load, addi, op chain, store',
                   ['x%d' % XNAMES.index(r) for r in regs] + ['final x%d' % XNAMES.index(r) for r in regs],
                   rows, body)
    # f registers: flw all 32, a chain of sign-injections, fsw all 32
    fops = ['fsgnj.s', 'fsgnjn.s', 'fsgnjx.s']
    rows = []
    for _ in range(48):
        vals = [rand_f32(rng) for _ in range(32)]
        init = list(vals)
        for i in range(32):
            vals[i] = fsgnj(fops[i % 3], vals[(i + 1) % 32], vals[(i + 11) % 32])
        rows.append(init + vals)

    def fbody(ctx, off):
        for i in range(32):
            ctx.emit('flw f%d, %d(s3)' % (i, 4 * i))
        for i in range(32):
            ctx.emit('%s f%d, f%d, f%d' % (fops[i % 3], i, (i + 1) % 32, (i + 11) % 32))
        for i in range(32):
            ctx.emit('fsw f%d, %d(sp)' % (i, -20 - 4 * i))
        for i in range(32):
            ctx.emit('lw s4, %d(sp)' % (-20 - 4 * i), 'lw s5, %d(s3)' % (4 * (32 + i)))
            ctx.check('s4', 'final value of f%d' % i)
    asm.loop_table('f registers: flw, sign-injection chain, fsw',
                   ['f%d' % i for i in range(32)] + ['final f%d' % i for i in range(32)],
                   rows, fbody)
    # writes to x0 are discarded, whatever the instruction
    x0_insns = ['addi zero, a2, 5', 'add zero, a2, a3', 'lui zero, 0x12345', 'auipc zero, 1',
                'slli zero, a2, 3', 'sltiu zero, a2, -1', 'lw zero, 4(s3)', 'lb zero, 4(s3)',
                'lhu zero, 6(s3)', 'jal zero, 1f\n1:', 'auipc a4, 0\n    jalr zero, 8(a4)',
                'mul zero, a2, a3', 'div zero, a2, a3', 'remu zero, a2, a3',
                'csrrs zero, fcsr, zero', 'csrrs zero, cycle, zero', 'csrrs zero, mhartid, zero',
                'fmv.x.w zero, f1', 'fcvt.w.s zero, f1, rtz', 'feq.s zero, f1, f1',
                'fclass.s zero, f1', 'csrrw zero, fflags, zero']
    rows = []
    for ins in x0_insns:
        def body(ctx, off, ins=ins):
            ctx.emit('lw a2, %d(s3)' % off('a'), 'lw a3, %d(s3)' % off('b'),
                     'flw f1, %d(s3)' % off('a'))
            for part in ins.split('\n'):
                if part.strip().endswith(':'):
                    ctx.lines.append(part.strip())
                else:
                    ctx.emit(part.strip())
            ctx.emit('add s4, zero, zero', 'lw s5, %d(s3)' % off('zero'))
            ctx.check('s4', 'x0 read back through add')
            ctx.emit('sw zero, -4(sp)', 'lw s4, -4(sp)')
            ctx.check('s4', 'x0 read back through sw')
        rows.append(((0, 0xDEADBEEF, 0x3FC00007, 0x12345678), ins.replace('\n', ';'), body))
    asm.snippet_table('rd = x0', ['zero', 'a', 'b', 'mem'], rows)
    return asm


def gen_rv32i_system():
    asm = Asm('rv32i_system', 'fence, fence.i, ecall write')
    # fences are no-ops: registers and memory unchanged across them
    fences = ['fence', 'fence rw, rw', 'fence iorw, iorw', 'fence r, r', 'fence w, w',
              'fence i, o', 'fence.tso', 'fence.i', '.word 0x0100000f    // pause (fence w, 0)',
              '.word 0x0ff5800f    // fence with rs1=a1, rd=x0 (reserved fields: ignored)',
              '.word 0x0000100f    // fence.i']
    rows = []
    for k, f in enumerate(fences * 3):
        def body(ctx, off, f=f):
            ctx.emit('lw a2, %d(s3)' % off('value'), 'sw a2, -8(sp)', 'mv a3, a2', 'li a1, 0')
            ctx.emit(f)
            ctx.emit('lw s4, -8(sp)', 'lw s5, %d(s3)' % off('value'))
            ctx.check('s4', 'memory across the fence')
            ctx.check('a3', 'register across the fence')
        rows.append(((asm.rng.getrandbits(32),), f.split('//')[0].strip(), body))
    asm.snippet_table('fence', ['value'], rows)
    # ecall write: returns a2 for fd 1/2, -1 for any other fd
    cases = [(1, 0, 0), (2, 0, 0), (0, 3, M32), (5, 1, M32), (3, 0, M32), (0xFFFFFFFF, 2, M32),
             (1, 24, 24)]
    rows = []
    for fd, n, exp in cases:
        def body(ctx, off, fd=fd, n=n):
            ctx.emit('li a0, %d' % s32(fd), 'lla a1, sys_msg', 'li a2, %d' % n, 'li a7, 64',
                     'ecall', 'lw s5, %d(s3)' % off('expected a0'))
            ctx.check('a0', 'ecall write return value')
        rows.append(((exp,), 'ecall write fd=%d len=%d' % (s32(fd), n), body))
    asm.snippet_table('ecall write', ['expected a0'], rows)
    asm.rodata.append('sys_msg: .ascii "rv32i_system: write ok.\\n"   // 24 bytes')
    return asm


# ---------------------------------------------------------------------------
# Binary32 vectors
# ---------------------------------------------------------------------------

F_EDGE = [0x00000000, 0x80000000,   # +-0
          0x00000001, 0x80000001,   # +-min subnormal
          0x007FFFFF, 0x807FFFFF,   # +-max subnormal
          0x00800000, 0x80800000,   # +-min normal
          0x3F800000, 0xBF800000,   # +-1
          0x3F800001, 0x3F7FFFFF,   # 1+ulp, 1-ulp/2
          0x40400000, 0xC0000000,   # 3, -2
          0x3EAAAAAB,               # 1/3
          0x7F7FFFFF, 0xFF7FFFFF,   # +-max finite
          0x7F000000,               # 2^127
          0x7F800000, 0xFF800000,   # +-inf
          0x7FC00000, 0xFFC12345,   # qNaN, -qNaN with payload
          0x7F800001, 0xFFBFFFFF]   # sNaN, -sNaN with payload
F_EDGE_STATIC = [0x00000000, 0x80000000, 0x00000001, 0x007FFFFF, 0x80800000, 0x3F800000,
                 0xBF800000, 0x3F800001, 0x40400000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000,
                 0xFF800000, 0x7FC00000, 0x7F800001, 0x00800000]
F_EDGE_FMA = [0x00000000, 0x80000000, 0x00000001, 0x00800000, 0x3F800000, 0xBF800000,
              0x7F7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0x3F800001]
F_EDGE_FMA_STATIC = [0x00000000, 0x80000000, 0x00800000, 0x3F800001, 0xBF800000,
                     0x7F7FFFFF, 0x7F800000, 0x7F800001]
CVT_W_EDGE = [0x00000000, 0x80000000, 0x3ECCCCCD, 0xBECCCCCD, 0x3F000000, 0xBF000000,
              0x3F000001, 0x3EFFFFFF, 0xBF000001, 0x3FC00000, 0xBFC00000, 0x40200000,
              0xC0200000, 0x3F800000, 0xBF800000, 0x3F7FFFFF, 0xBF7FFFFF, 0x00000001,
              0x80000001, 0x4EFFFFFF, 0x4F000000, 0xCF000000, 0xCF000001, 0x4F7FFFFF,
              0x4F800000, 0xCEFFFFFF, 0x4B000000, 0x4AFFFFFF, 0x4B7FFFFF, 0xCAFFFFFF,
              0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
              0x7F800001, 0xFF800001, 0x4F7FFFFE, 0xC0400000]
CVT_S_EDGE = [0, 1, 2, 3, 0xFFFFFFFF, 0xFFFFFFFE, 0x7FFFFFFF, 0x80000000, 0x80000001,
              1 << 24, (1 << 24) + 1, (1 << 24) + 2, (1 << 24) + 3, (1 << 25) + 2,
              (1 << 25) + 6, (1 << 25) + 1, 0x7FFFFF80, 0x7FFFFFC0, 0x7FFFFF7F, 0xFFFFFF80,
              0xFFFFFF81, 0xFFFFFF7F, 0xFF000001, 0x00FFFFFF, 0x01000001, 0xFEFFFFFF,
              0x55555555, 0xAAAAAAAA, 0x80000080, 0x80000081, 0xFFFFFF00]


def rand_mant(rng):
    r = rng.random()
    if r < 0.5:
        return rng.getrandbits(23)
    if r < 0.8:
        k = rng.randint(0, 23)
        return (rng.getrandbits(k) << (23 - k)) if k else 0
    if r < 0.9:
        return 0x7FFFFF - rng.getrandbits(rng.randint(0, 4))
    return rng.getrandbits(rng.randint(0, 4))


def rand_f32(rng):
    r = rng.random()
    s = rng.getrandbits(1) << 31
    if r < 0.15:
        return rng.getrandbits(32)
    if r < 0.2:
        return rng.choice(F_EDGE)
    if r < 0.5:
        e = rng.randint(117, 137)
    elif r < 0.62:
        e = rng.randint(0, 24)
    elif r < 0.72:
        e = rng.randint(230, 254)
    else:
        e = rng.randint(1, 254)
    return s | e << 23 | rand_mant(rng)


def f_with_exp(rng, e, short=None):
    """Random-sign binary32 with biased exponent e (clamped)."""
    e = min(254, max(0, e))
    m = rand_mant(rng)
    if short:
        k = rng.randint(0, short)
        m = (rng.getrandbits(k) << (23 - k)) if k else 0
    return (rng.getrandbits(1) << 31) | e << 23 | m


def fexp(b):
    return (b >> 23) & 0xFF


def f_candidate(op, rng):
    """An operand tuple drawn to hit rounding corners of op."""
    r = rng.random()
    if op in ('fadd.s', 'fsub.s'):
        a = f_with_exp(rng, rng.choice([rng.randint(1, 254), rng.randint(1, 30),
                                        rng.randint(240, 254), rng.randint(120, 135)]),
                       short=rng.choice([None, 23, 8]))
        if r < 0.5:
            b = f_with_exp(rng, fexp(a) - rng.randint(-2, 30), short=rng.choice([None, 2, 6, 23]))
        elif r < 0.8:       # cancellation
            b = u32((a ^ (SIGN if op == 'fadd.s' else 0)) + rng.randint(-4, 4))
        else:
            b = rand_f32(rng)
        return (a, b, 0)
    if op in ('fmul.s', 'fdiv.s'):
        a = f_with_exp(rng, rng.randint(1, 254), short=rng.choice([None, 23, 4]))
        tgt = rng.choice([rng.randint(-30, 2), rng.randint(250, 258), rng.randint(1, 254),
                          rng.randint(-2, 4)])
        # result exponent ~ ea + eb - 127 (mul) or ea - eb + 127 (div)
        eb = tgt - fexp(a) + 127 if op == 'fmul.s' else fexp(a) - tgt + 127
        b = f_with_exp(rng, eb, short=rng.choice([None, 0, 2, 5, 23]))
        if r < 0.15:
            b = rand_f32(rng)
        return (a, b, 0)
    if op == 'fsqrt.s':
        if r < 0.3:   # exact squares, also of subnormal results squared
            m = rng.randint(1, 1 << 12)
            x = Fraction(m * m) * pow2(2 * rng.randint(-80, 50))
            bits, _ = f32_round(0, x, RNE)
            return (bits, 0, 0)
        if r < 0.5:
            return (rng.randint(1, 0x7FFFFF), 0, 0)
        return (rand_f32(rng) & 0x7FFFFFFF if r < 0.9 else rand_f32(rng), 0, 0)
    if op in FMA_NEG:
        a = f_with_exp(rng, rng.randint(60, 194), short=rng.choice([None, 3, 8, 23]))
        b = f_with_exp(rng, rng.choice([rng.randint(60, 194), 254 - fexp(a) + 127 - rng.randint(0, 3),
                                        rng.randint(1, 60) - fexp(a) + 127 + 60]),
                       short=rng.choice([None, 3, 8, 23]))
        p, _ = fmul(a, b, RNE)
        if f_isnan(p) or r < 0.15:
            return (a, b, rand_f32(rng))
        if r < 0.5:     # cancellation against the rounded product
            c = u32(p ^ (SIGN if FMA_NEG[op][0] == FMA_NEG[op][1] else 0))
            c = u32(c + rng.randint(-2, 2))
            return (a, b, c)
        return (a, b, f_with_exp(rng, fexp(p) - rng.randint(-3, 30), short=rng.choice([None, 1, 5])))
    if op in ('fcvt.w.s', 'fcvt.wu.s'):
        if r < 0.4:     # k + {0, .25, .5, .75} etc.
            k = rng.randint(-40, 40) if rng.random() < 0.5 else rng.getrandbits(rng.randint(1, 31))
            frac = Fraction(rng.choice([0, 1, 2, 3, 1, 2]), 4)
            x = Fraction(k) + frac if k >= 0 else Fraction(k) - frac
            if x == 0:
                return (0, 0, 0)
            bits, _ = f32_round(int(x < 0), abs(x), RTZ)
            return (bits, 0, 0)
        return (f_with_exp(rng, rng.randint(120, 162)), 0, 0)
    if op in ('fcvt.s.w', 'fcvt.s.wu'):
        n = rng.randint(24, 32)
        v = (1 << (n - 1)) | rng.getrandbits(n - 1)
        if r < 0.5:   # force the bits below the 24-bit significand to a tie / near tie
            low = n - 24
            if low > 0:
                v = (v >> low << low) | rng.choice([1 << (low - 1), (1 << (low - 1)) + 1,
                                                    (1 << (low - 1)) - 1, 0])
        v = u32(v)
        if rng.random() < 0.3:
            v = u32(-s32(v))
        return (v, 0, 0)
    raise ValueError(op)


def f_categories(op, vec):
    cats = set()
    for rm in range(5):
        _INFO.clear()
        f_eval(op, rm, *vec)
        if not _INFO:
            cats.add('special')
            break
        if _INFO['ovf']:
            cats.add('overflow')
        elif _INFO['tie']:
            cats.add('tie_sub' if _INFO['sub'] else 'tie')
        elif _INFO['tiny']:
            cats.add('tiny')
        elif _INFO['sub']:
            cats.add('subnormal')
        elif _INFO.get('below_min'):
            cats.add('rounds_to_min_normal')
        elif not _INFO['inexact']:
            cats.add('exact')
        else:
            cats.add('inexact')
    return cats


def f_targeted(op, rng, count, tries=6000):
    """Pick `count` candidates spread over rounding categories."""
    chosen, counts = [], {}
    cap = max(4, count // 6)
    for _ in range(tries):
        if len(chosen) >= count:
            break
        vec = f_candidate(op, rng)
        cats = f_categories(op, vec)
        if any(counts.get(c, 0) < cap for c in cats):
            chosen.append(vec)
            for c in cats:
                counts[c] = counts.get(c, 0) + 1
    return chosen


F_OPS = {
    # name: (number of sources, source kind, destination kind, rounds?)
    'fadd.s': (2, 'f', 'f', True), 'fsub.s': (2, 'f', 'f', True),
    'fmul.s': (2, 'f', 'f', True), 'fdiv.s': (2, 'f', 'f', True),
    'fsqrt.s': (1, 'f', 'f', True),
    'fmadd.s': (3, 'f', 'f', True), 'fmsub.s': (3, 'f', 'f', True),
    'fnmsub.s': (3, 'f', 'f', True), 'fnmadd.s': (3, 'f', 'f', True),
    'fcvt.w.s': (1, 'f', 'x', True), 'fcvt.wu.s': (1, 'f', 'x', True),
    'fcvt.s.w': (1, 'x', 'f', True), 'fcvt.s.wu': (1, 'x', 'f', True),
    'feq.s': (2, 'f', 'x', False), 'flt.s': (2, 'f', 'x', False), 'fle.s': (2, 'f', 'x', False),
    'fmin.s': (2, 'f', 'f', False), 'fmax.s': (2, 'f', 'f', False),
    'fclass.s': (1, 'f', 'x', False),
    'fsgnj.s': (2, 'f', 'f', False), 'fsgnjn.s': (2, 'f', 'f', False),
    'fsgnjx.s': (2, 'f', 'f', False),
    'fmv.x.w': (1, 'f', 'x', False), 'fmv.w.x': (1, 'x', 'f', False),
}
F_COLS = ['frm (bits 31:3 are noise)', 'rs1', 'rs2', 'rs3', 'expected', 'fflags']


def f_table(asm, op, rm, rows, alias=None):
    """rows: (frm, a, b, c).  rm: 0..4 static, 7 dyn, None for ops without rm."""
    nsrc, sk, dk, rounds = F_OPS[op]
    fregs = asm.fpick(4)
    xregs = asm.pick(4, avoid=['t0'])
    srcs = [(fregs if sk == 'f' else xregs)[i + 1] for i in range(nsrc)]
    if alias == 'rs1=rs2':
        srcs[1] = srcs[0]
    rd = (fregs if dk == 'f' else xregs)[0]
    if alias == 'rd=rs1':
        rd = srcs[0]
    via = asm.rng.choice(['frm', 'fcsr'])      # how the rounding mode is set
    text = '%s %s, %s' % (op, rd, ', '.join(srcs))
    if rm is not None:
        text += ', ' + ('dyn' if rm == 7 else RM_NAMES[rm])
    data = []
    for frm, a, b, c in rows:
        if alias == 'rs1=rs2':
            b = a
        erm = frm if rm == 7 else (rm if rm is not None else RNE)
        res, fl = f_eval(op, erm, a, b, c)
        # the mode word: whatever it holds besides the 3-bit field must be ignored
        noise = asm.rng.getrandbits(24) if asm.rng.random() < 0.5 else 0
        if via == 'fcsr':     # frm in bits 7:5 of fcsr; the flags are cleared later
            frm = frm << 5 | asm.rng.getrandbits(5) | noise << 8
        else:
            frm |= noise << 3
        data.append((frm, a, b, c, res, fl))

    def body(ctx, off):
        ctx.emit('lw t0, 0(s3)', 'fsrm t0' if via == 'frm' else 'fscsr t0')
        for i, r in enumerate(srcs[:2] if alias == 'rs1=rs2' else srcs):
            if alias == 'rs1=rs2' and i == 1:
                break
            ctx.emit('%s %s, %d(s3)' % ('flw' if sk == 'f' else 'lw', r, 4 * (1 + i)))
        ctx.emit('fsflags zero', text)
        if dk == 'f':
            ctx.emit('fmv.x.w s4, %s' % rd)
            got = 's4'
        else:
            got = rd
        ctx.emit('lw s5, %d(s3)' % off('expected'))
        ctx.check(got, 'result')
        if op == 'fmv.w.x':     # second route, independent of fmv.x.w
            ctx.emit('fsw %s, -16(sp)' % rd, 'lw s4, -16(sp)')
            ctx.check('s4', 'result stored with fsw')
        ctx.emit('frflags s4', 'lw s5, %d(s3)' % off('fflags'))
        ctx.check('s4', 'fflags')
    cols = list(F_COLS)
    if via == 'fcsr':
        cols[0] = 'fcsr word: frm in bits 7:5, flags and bits 31:8 are noise'
    asm.loop_table(text + (' [%s]' % alias if alias else ''), cols, data, body)


def f_rm_tables(asm, op, edge, edge_static, targeted, randoms, rand_static):
    """A dyn-rm table and one static-rm table per rounding mode."""
    rng = asm.rng
    rows = []
    for k, vec in enumerate(edge):   # all modes whose outcome differs, at least one
        groups = {}
        for rm in range(5):
            groups.setdefault(f_eval(op, rm, *vec), []).append(rm)
        for g in groups.values():
            rows.append((g[k % len(g)],) + tuple(vec))
    for vec in targeted + randoms:
        for rm in range(5):
            rows.append((rm,) + tuple(vec))
    f_table(asm, op, 7, rows)
    for rm in range(5):
        decoy = [x for x in range(8) if x != rm]
        vecs = edge_static + targeted + rand_static[rm]
        f_table(asm, op, rm, [(rng.choice(decoy),) + tuple(v) for v in vecs])


def pad3(vecs):
    return [tuple(v) + (0,) * (3 - len(v)) for v in vecs]


def gen_rv32f_arith():
    asm = Asm('rv32f_arith', 'fadd.s fsub.s fmul.s fdiv.s fsqrt.s, every rounding mode '
              'static and dynamic, with fflags')
    rng = asm.rng
    for op in ('fadd.s', 'fsub.s', 'fmul.s', 'fdiv.s', 'fsqrt.s'):
        if op == 'fsqrt.s':
            edge = pad3([(a,) for a in F_EDGE + [0x40800000, 0x3E800000, 0x00000004, 0x7F7FFFFF]])
            edge_s = pad3([(a,) for a in F_EDGE_STATIC])
            rnd = lambda: (rand_f32(rng) & (0x7FFFFFFF if rng.random() < 0.85 else M32), 0, 0)
        else:
            edge = pad3([(a, b) for a in F_EDGE for b in F_EDGE])
            edge_s = pad3([(a, b) for a in F_EDGE_STATIC for b in F_EDGE_STATIC])
            rnd = lambda: (rand_f32(rng), rand_f32(rng), 0)
        targeted = f_targeted(op, rng, 110)
        f_rm_tables(asm, op, edge, edge_s, targeted, [rnd() for _ in range(110)],
                    [[rnd() for _ in range(40)] for _ in range(5)])
    return asm


def gen_rv32f_fma():
    asm = Asm('rv32f_fma', 'fmadd.s fmsub.s fnmsub.s fnmadd.s: single rounding, every mode '
              'static and dynamic, with fflags')
    rng = asm.rng
    for op in FMA_NEG:
        edge = [(a, b, c) for a in F_EDGE_FMA for b in F_EDGE_FMA for c in F_EDGE_FMA]
        edge_s = [(a, b, c) for a in F_EDGE_FMA_STATIC for b in F_EDGE_FMA_STATIC
                  for c in F_EDGE_FMA_STATIC]
        rnd = lambda: (rand_f32(rng), rand_f32(rng), rand_f32(rng))
        targeted = f_targeted(op, rng, 110)
        f_rm_tables(asm, op, edge, edge_s, targeted, [rnd() for _ in range(110)],
                    [[rnd() for _ in range(30)] for _ in range(5)])
    return asm


def gen_rv32f_cvt():
    asm = Asm('rv32f_cvt', 'fcvt.w.s fcvt.wu.s fcvt.s.w fcvt.s.wu: saturation, every '
              'rounding mode static and dynamic, with fflags')
    rng = asm.rng
    for op in ('fcvt.w.s', 'fcvt.wu.s', 'fcvt.s.w', 'fcvt.s.wu'):
        if op.startswith('fcvt.s'):
            edge = pad3([(v,) for v in CVT_S_EDGE])
            rnd = lambda: (rand_int(rng), 0, 0)
        else:
            edge = pad3([(v,) for v in CVT_W_EDGE])
            rnd = lambda: (rand_f32(rng) if rng.random() < 0.4
                           else f_with_exp(rng, rng.randint(110, 160)), 0, 0)
        targeted = f_targeted(op, rng, 100)
        f_rm_tables(asm, op, edge, edge, targeted, [rnd() for _ in range(120)],
                    [[rnd() for _ in range(40)] for _ in range(5)])
    return asm


def f_plain_rows(rng, vecs):
    """Ops without rounding: frm is random, including the invalid 5..7."""
    return [(rng.randint(0, 7),) + tuple(v) for v in vecs]


def gen_rv32f_cmp_class_minmax():
    asm = Asm('rv32f_cmp_class_minmax', 'feq.s flt.s fle.s fclass.s fmin.s fmax.s')
    rng = asm.rng
    edge = pad3([(a, b) for a in F_EDGE for b in F_EDGE])
    for op in ('feq.s', 'flt.s', 'fle.s', 'fmin.s', 'fmax.s'):
        rnd = []
        for _ in range(200):
            a = rand_f32(rng)
            b = rng.choice([rand_f32(rng), a, a ^ SIGN, u32(a + 1), u32(a - 1)])
            rnd.append((a, b, 0))
        f_table(asm, op, None, f_plain_rows(rng, edge + rnd))
        f_table(asm, op, None, f_plain_rows(rng, [(rand_f32(rng), 0, 0) for _ in range(40)]
                                            + pad3([(a,) for a in F_EDGE])), alias='rs1=rs2')
    vals = F_EDGE + [0x7FBFFFFF, 0xFF800002, 0x7FFFFFFF, 0xFFC00000, 0x0000ABCD, 0x8040ABCD,
                     0x12345678, 0x92345678]
    vals += [rand_f32(rng) for _ in range(200)]
    f_table(asm, 'fclass.s', None, f_plain_rows(rng, pad3([(a,) for a in vals])))
    return asm


def gen_rv32f_move_sgnj():
    asm = Asm('rv32f_move_sgnj', 'fsgnj.s fsgnjn.s fsgnjx.s (and fmv.s/fneg.s/fabs.s), '
              'fmv.x.w fmv.w.x: bit operations that keep NaN payloads, no fflags')
    rng = asm.rng
    edge = pad3([(a, b) for a in F_EDGE for b in F_EDGE])
    for op in ('fsgnj.s', 'fsgnjn.s', 'fsgnjx.s'):
        rnd = [(rng.getrandbits(32), rng.getrandbits(32), 0) for _ in range(150)]
        f_table(asm, op, None, f_plain_rows(rng, edge + rnd))
        # rs1 == rs2: the fmv.s / fneg.s / fabs.s pseudo-instructions
        f_table(asm, op, None, f_plain_rows(rng, pad3([(a,) for a in F_EDGE])
                                            + [(rng.getrandbits(32), 0, 0) for _ in range(40)]),
                alias='rs1=rs2')
        f_table(asm, op, None, f_plain_rows(rng, rnd[:40]), alias='rd=rs1')
    vals = F_EDGE + [0x7FBFFFFF, 0xFF800002, 0x7FFFFFFF, 0xFFFFFFFF, 0x0000ABCD]
    vals += [rng.getrandbits(32) for _ in range(150)]
    for op in ('fmv.x.w', 'fmv.w.x'):
        f_table(asm, op, None, f_plain_rows(rng, pad3([(a,) for a in vals])))
    return asm


def gen_rv32f_load_store():
    asm = Asm('rv32f_load_store', 'flw / fsw: bit-exact (NaN payloads), immediates, '
              'neighbouring words untouched, no fflags')
    rng = asm.rng
    pat = F_EDGE + [0x7FBFFFFF, 0xFF800002, rng.getrandbits(32), rng.getrandbits(32),
                    0x7F800003, 0x00000000, 0xFFFFFFFF, 0x3F800000]    # 32 words
    asm.rodata += ['    .balign 16', 'fpat:', '    .word ' + ','.join(hx(w) for w in pat)]
    for imm in (0, 4, -4, 1, 2, 3, 2047, -2048, 124):
        r1 = asm.pick(1)[0]
        fd = asm.fpick(1)[0]
        rows = [('fpat%+d' % (4 * i - imm), pat[i]) for i in range(32)]
        rng.shuffle(rows)

        def body(ctx, off, imm=imm, r1=r1, fd=fd):
            ctx.emit('lw %s, %d(s3)' % (r1, off('base')), 'fsflags zero',
                     'flw %s, %d(%s)' % (fd, imm, r1), 'fmv.x.w s4, %s' % fd,
                     'lw s5, %d(s3)' % off('expected'))
            ctx.check('s4', 'loaded bits')
            ctx.emit('frflags s4', 'li s5, 0')
            ctx.check('s4', 'fflags')
        asm.loop_table('flw %s, %d(%s)' % (fd, imm, r1), ['base', 'expected'], rows, body)
    cols = ['bg0', 'bg1', 'bg2', 'delta', 'value', 'exp0', 'exp1', 'exp2']
    for imm in (0, 4, -4, 1, 3, 2047, -2048):
        r1 = asm.pick(1, avoid=['t3', 't4'])[0]
        fs = asm.fpick(1)[0]
        rows = []
        for _ in range(16):
            bg = [rng.getrandbits(32) for _ in range(3)]
            val = rng.choice(pat + [rng.getrandbits(32)])
            rows.append(tuple(bg) + (u32(4 - imm), val, bg[0], val, bg[2]))

        def body(ctx, off, imm=imm, r1=r1, fs=fs):
            for i in range(3):
                ctx.emit('lw t3, %d(s3)' % off('bg%d' % i), 'sw t3, %d(sp)' % (-16 + 4 * i))
            ctx.emit('lw t3, %d(s3)' % off('value'), 'fmv.w.x %s, t3' % fs,
                     'lw t4, %d(s3)' % off('delta'), 'addi %s, sp, -16' % r1,
                     'add %s, %s, t4' % (r1, r1), 'fsflags zero',
                     'fsw %s, %d(%s)' % (fs, imm, r1))
            for i in range(3):
                ctx.emit('lw s4, %d(sp)' % (-16 + 4 * i), 'lw s5, %d(s3)' % off('exp%d' % i))
                ctx.check('s4', 'memory word %d after fsw' % i)
            ctx.emit('frflags s4', 'li s5, 0')
            ctx.check('s4', 'fflags')
        asm.loop_table('fsw %s, %d(%s)' % (fs, imm, r1), cols, rows, body)
    return asm


# ---------------------------------------------------------------------------
# Zicsr
# ---------------------------------------------------------------------------

F_CSRS = {'fflags': 0x001, 'frm': 0x002, 'fcsr': 0x003}
WSIM = {'lane': 0xCC0, 'warp': 0xCC1, 'wpu': 0xCC2, 'width': 0xCC3, 'warps': 0xCC4,
        'wpus': 0xCC5, 'nthreads': 0xCC6, 'seed': 0xCC7, 'arg': 0xCC8,
        'wid': 0xCCA, 'wtid': 0xCCB, 'ntids': 0xCCC, 'nwarps': 0xCCD}


def csr_read(fcsr, csr):
    return {'fflags': fcsr & 0x1F, 'frm': (fcsr >> 5) & 7, 'fcsr': fcsr & 0xFF}[csr]


def csr_write(fcsr, csr, v):
    if csr == 'fflags':
        return (fcsr & 0xE0) | (v & 0x1F)
    if csr == 'frm':
        return (fcsr & 0x1F) | ((v & 7) << 5)
    return v & 0xFF


def csr_op(op, fcsr, csr, src, writes):
    """-> (value read into rd, fcsr afterwards)."""
    old = csr_read(fcsr, csr)
    base = op.rstrip('i')
    new = {'csrrw': src, 'csrrs': old | src, 'csrrc': old & ~src & M32}[base]
    return old, (csr_write(fcsr, csr, new) if writes else fcsr)


def gen_zicsr():
    asm = Asm('zicsr', 'csrrw csrrs csrrc csrrwi csrrsi csrrci on fflags/frm/fcsr; '
              'counters; mhartid; WarpSplit CSRs 0xCC0-0xCCD')
    rng = asm.rng
    # the very first instruction: nothing retired before it
    asm.pre = ['    csrr s11, instret      // first instruction: instret must be 0']

    def at(name, fn):
        asm.allthread_row(name, fn)

    def first_instret(ctx):
        ctx.emit('mv s4, s11', 'li s5, 0')
        ctx.check('s4', 'instret of the first instruction')
    at('instret == 0 at the entry', first_instret)
    for form in ('csrrs a2, mhartid, zero', 'csrrc a2, mhartid, zero', 'csrrsi a2, mhartid, 0',
                 'csrrci a2, mhartid, 0'):
        def body(ctx, form=form):
            ctx.emit(form)
            ctx.check('a2', 'mhartid (expected: a0 at entry)', exp='s0')
        at(form + ' == tid', body)

    def nthreads(ctx):
        ctx.emit('csrr a2, 0x%x' % WSIM['nthreads'])
        ctx.check('a2', 'wsim.nthreads (expected: a1 at entry)', exp='s1')
    at('wsim.nthreads == a1', nthreads)

    def sizes(ctx):
        for n in ('width', 'warps', 'wpus'):
            ctx.emit('csrr a2, 0x%x' % WSIM[n], 'snez s4, a2', 'li s5, 1')
            ctx.check('s4', 'wsim.%s >= 1 (1 = holds)' % n)
    at('wsim.width, warps, wpus >= 1', sizes)

    def lane(ctx):
        ctx.emit('csrr a2, 0x%x' % WSIM['width'], 'remu a3, s0, a2', 'csrr a4, 0x%x' % WSIM['lane'])
        ctx.check('a4', 'wsim.lane (expected: tid mod width)', exp='a3')
    at('wsim.lane == tid mod wsim.width', lane)

    # the fixed grid's warp metadata (003's wid, tid, ntids, m; docs/irregular.md)
    def fixed_grid(ctx):
        full = ctx.lbl('full')
        ctx.emit('csrr a2, 0x%x' % WSIM['width'], 'divu a3, s0, a2', 'csrr a4, 0x%x' % WSIM['wid'])
        ctx.check('a4', 'wsim.wid (expected: tid / width)', exp='a3')
        ctx.emit('remu a3, s0, a2', 'csrr a4, 0x%x' % WSIM['wtid'])
        ctx.check('a4', 'wsim.wtid (expected: tid mod width)', exp='a3')
        ctx.emit('add a3, s1, a2', 'addi a3, a3, -1', 'divu a3, a3, a2', 'csrr a4, 0x%x' % WSIM['nwarps'])
        ctx.check('a4', 'wsim.nwarps (expected: ceil(nthreads / width))', exp='a3')
        # ntids: width, or what is left of the threads in the last warp
        ctx.emit('divu a3, s0, a2', 'mul a3, a3, a2', 'sub a3, s1, a3', 'bltu a3, a2, %s' % full, 'mv a3, a2')
        ctx.lines.append(full + ':')
        ctx.emit('csrr a4, 0x%x' % WSIM['ntids'])
        ctx.check('a4', 'wsim.ntids (expected: min(width, nthreads - wid * width))', exp='a3')
    at('wsim.wid / wtid / ntids / nwarps in the fixed grid', fixed_grid)

    def placement(ctx):
        skip = ctx.lbl('skip')
        ctx.emit('csrr a2, 0x%x' % WSIM['width'], 'csrr a3, 0x%x' % WSIM['warps'],
                 'csrr a4, 0x%x' % WSIM['wpus'], 'csrr a5, 0x%x' % WSIM['warp'],
                 'csrr a6, 0x%x' % WSIM['wpu'], 'li s5, 1', 'sltu s4, a6, a4')
        ctx.check('s4', 'wsim.wpu < wsim.wpus (1 = holds)')
        ctx.emit('sltu s4, a5, a3')
        ctx.check('s4', 'wsim.warp < wsim.warps (1 = holds)')
        # warps that fit at launch: warp g on WPU g mod wpus, slot g div wpus
        ctx.emit('divu t3, s0, a2', 'mul t4, a3, a4', 'bgeu t3, t4, %s' % skip,
                 'remu t5, t3, a4')
        ctx.check('a6', 'wsim.wpu (expected: (tid/width) mod wpus)', exp='t5')
        ctx.emit('divu t5, t3, a4')
        ctx.check('a5', 'wsim.warp (expected: (tid/width) div wpus)', exp='t5')
        ctx.lines.append(skip + ':')
    at('wsim.wpu / wsim.warp placement', placement)

    def stable(ctx):
        for n in ('seed', 'arg', 'width', 'lane'):
            ctx.emit('csrr a2, 0x%x' % WSIM[n], 'csrrsi a3, 0x%x, 0' % WSIM[n],
                     'csrrc a4, 0x%x, zero' % WSIM[n])
            ctx.check('a3', 'wsim.%s read twice' % n, exp='a2')
            ctx.check('a4', 'wsim.%s read three times' % n, exp='a2')
    at('wsim CSRs readable with every read-only form', stable)

    # ---- fflags / frm / fcsr, register forms ------------------------------
    cols = ['init fcsr', 'src', 'old', 'fcsr', 'frm', 'fflags']

    def csr_body(op, csr, rd, rs1, imm=None):
        def body(ctx, off):
            ctx.emit('lw t3, %d(s3)' % off('init fcsr'), 'csrw fcsr, t3')
            if imm is None:
                if rs1 != 'zero':
                    ctx.emit('lw %s, %d(s3)' % (rs1, off('src')))
                ctx.emit('%s %s, %s, %s' % (op, rd, csr, rs1))
            else:
                ctx.emit('%s %s, %s, %d' % (op, rd, csr, imm))
            if rd != 'zero':
                ctx.emit('lw s5, %d(s3)' % off('old'))
                ctx.check(rd, 'value read from %s' % csr)
            for c in ('fcsr', 'frm', 'fflags'):
                ctx.emit('csrr s4, %s' % c, 'lw s5, %d(s3)' % off(c))
                ctx.check('s4', '%s afterwards' % c)
        return body

    def csr_rows(op, csr, srcs, writes):
        rows = []
        for src in srcs:
            init = rng.getrandbits(8)
            old, new = csr_op(op, init, csr, src, writes)
            noise = rng.getrandbits(24) << 8 if rng.random() < 0.5 else 0   # ignored by csrw fcsr
            rows.append((init | noise, src, old, new, csr_read(new, 'frm'), csr_read(new, 'fflags')))
        return rows

    def rand_src():
        return rng.choice([rng.getrandbits(32), rng.getrandbits(8), rng.getrandbits(5),
                           0, M32, 0x1F, 0x20, 0xE0, 0xFF, 0x100, 0xFFFFFF00, 7])
    for op in ('csrrw', 'csrrs', 'csrrc'):
        for csr in F_CSRS:
            rd, rs1 = asm.pick(2, avoid=['t3'])
            for var in ('plain', 'rd=x0', 'rd=rs1', 'rs1=x0'):
                if var == 'rs1=x0' and op == 'csrrw':
                    continue
                r_d, r_s = {'plain': (rd, rs1), 'rd=x0': ('zero', rs1),
                            'rd=rs1': (rs1, rs1), 'rs1=x0': (rd, 'zero')}[var]
                n = 24 if var == 'plain' else 8
                srcs = [0 if r_s == 'zero' else rand_src() for _ in range(n)]
                asm.loop_table('%s %s, %s, %s' % (op, r_d, csr, r_s), cols,
                               csr_rows(op, csr, srcs, writes=(op == 'csrrw' or r_s != 'zero')),
                               csr_body(op, csr, r_d, r_s))
    # ---- immediate forms: one table per uimm -------------------------------
    for op in ('csrrwi', 'csrrsi', 'csrrci'):
        for csr in F_CSRS:
            for uimm in range(32):
                rd = 'zero' if uimm % 11 == 5 else asm.pick(1, avoid=['t3'])[0]
                writes = op == 'csrrwi' or uimm != 0
                asm.loop_table('%s %s, %s, %d' % (op, rd, csr, uimm), cols,
                               csr_rows(op, csr, [uimm] * 3, writes),
                               csr_body(op, csr, rd, None, imm=uimm))
    # ---- fflags accumulate; frm is untouched by arithmetic ------------------
    rows = []
    for _ in range(60):
        mode = rng.randint(0, 4)
        init = mode << 5 | rng.getrandbits(5)
        a1, b1, a2, b2 = (rng.choice(F_EDGE + [rand_f32(rng)] * 3) for _ in range(4))
        _, f1 = fdiv(a1, b1, mode)
        _, f2 = fmul(a2, b2, RTZ)
        noise = rng.getrandbits(24) << 8 if rng.random() < 0.5 else 0   # ignored by csrw fcsr
        rows.append((init | noise, a1, b1, a2, b2, init | f1 | f2))

    def acc_body(ctx, off):
        ctx.emit('lw t3, 0(s3)', 'csrw fcsr, t3', 'flw f1, 4(s3)', 'flw f2, 8(s3)',
                 'flw f3, 12(s3)', 'flw f4, 16(s3)',
                 'fdiv.s f5, f1, f2, dyn', 'fmul.s f6, f3, f4, rtz',
                 'csrr s4, fcsr', 'lw s5, 20(s3)')
        ctx.check('s4', 'fcsr after fdiv.s (dyn), fmul.s (rtz)')
    asm.loop_table('fflags accumulate across fdiv.s dyn, fmul.s rtz', ['init fcsr', 'a1', 'b1', 'a2', 'b2',
                   'fcsr'], rows, acc_body)
    # ---- counters -------------------------------------------------------------
    fillers = ['nop', 'addi a4, a4, 1', 'xor a5, a5, a4', 'lw a6, 0(s3)', 'sw a6, -4(sp)',
               'fence', 'fence.i', 'csrr a7, cycle', 'mul a4, a4, a5', 'div a4, a4, a5',
               'fadd.s f1, f1, f1, rne', 'bne zero, zero, @', 'bltu s1, s0, @',
               'lui a4, 5', 'auipc a4, 0', 'csrr a7, fflags', 'slli a4, a4, 1',
               'flw f2, 0(s3)', 'fsw f2, -8(sp)', 'csrr a7, instreth', 'fcvt.w.s a4, f1, rtz']
    rows = []
    for k in list(range(0, 12)) + [20, 31, 64]:
        seq = [rng.choice(fillers) for _ in range(k)]

        def body(ctx, off, seq=seq):
            ctx.emit('csrr a2, instret')
            for ins in seq:
                if '@' in ins:
                    lab = ctx.lbl('nt')
                    ctx.emit(ins.replace('@', lab))
                    ctx.lines.append(lab + ':')
                else:
                    ctx.emit(ins)
            ctx.emit('csrr a3, instret', 'sub s4, a3, a2', 'lw s5, %d(s3)' % off('delta'))
            ctx.check('s4', 'instret difference')
        rows.append(((k + 1,), 'instret across %d instructions' % k, body))
    asm.snippet_table('instret', ['delta'], rows)

    def read64(ctx, name, hi, lo, hi2):
        again = ctx.lbl('again')
        ctx.lines.append(again + ':')
        ctx.emit('csrr %s, %sh' % (hi, name), 'csrr %s, %s' % (lo, name),
                 'csrr %s, %sh' % (hi2, name), 'bne %s, %s, %s' % (hi, hi2, again))

    def ge64(ctx, hi1, lo1, hi2, lo2, what):
        ok, bad = ctx.lbl('ok'), ctx.lbl('bad')
        ctx.emit('li s4, 1', 'bltu %s, %s, %s' % (hi1, hi2, ok), 'bne %s, %s, %s' % (hi1, hi2, bad),
                 'bgeu %s, %s, %s' % (lo2, lo1, ok))
        ctx.lines.append(bad + ':')
        ctx.emit('li s4, 0')
        ctx.lines.append(ok + ':')
        ctx.emit('li s5, 1')
        ctx.check('s4', what + ' (1 = holds)')
    rows = []
    for first, second in (('cycle', 'cycle'), ('time', 'time'), ('cycle', 'time'),
                          ('time', 'cycle'), ('instret', 'instret')) * 3:
        k = rng.randint(0, 8)
        seq = [rng.choice([f for f in fillers if '@' not in f]) for _ in range(k)]

        def body(ctx, off, first=first, second=second, seq=seq):
            read64(ctx, first, 'a2', 'a3', 't3')
            for ins in seq:
                ctx.emit(ins)
            read64(ctx, second, 't4', 't5', 'a6')
            ge64(ctx, 't3', 'a3', 'a6', 't5', '%s then %s: second >= first' % (first, second))
            # one instruction per cycle at most (in-order issue): the low words
            # were read len(seq)+3 instructions apart, so they differ by at least that
            ok = ctx.lbl('adv')
            ctx.emit('sltu a7, t5, a3', 'sub a4, a6, t3', 'sub a4, a4, a7', 'sub a5, t5, a3',
                     'li s4, 1', 'bnez a4, %s' % ok, 'li a7, %d' % (len(seq) + 3),
                     'bgeu a5, a7, %s' % ok, 'li s4, 0')
            ctx.lines.append(ok + ':')
            ctx.emit('li s5, 1')
            ctx.check('s4', '%s advanced by at least the %d instructions between the reads '
                      '(1 = holds)' % (second, len(seq) + 3))
        rows.append(((0,), '64-bit %s then %s, %d instructions apart' % (first, second, k), body))
    asm.snippet_table('counters are non-decreasing', ['unused'], rows)
    return asm


def gen_wsim_barrier():
    asm = Asm('wsim_barrier', 'wsim.bar (custom-0 0x0000000B): memory written before the '
              'barrier is visible after it; exited threads no longer count')
    # docs/abi.md: under stack re-convergence the live threads of a warp must
    # reach the barrier together, so threads exit early only as whole warps.
    rounds = 6
    asm.bss += ['    .balign 16', 'slots: .space 8192      // two buffers of 1024 words']

    def body(ctx):
        skip, early, loop, nb, nbok = (ctx.lbl(t) for t in ('skip', 'early', 'loop', 'nb', 'nbok'))
        ctx.emit('// run only when every warp is resident (else the barrier deadlocks)',
                 'csrr a2, 0x%x' % WSIM['width'], 'csrr a3, 0x%x' % WSIM['warps'],
                 'csrr a4, 0x%x' % WSIM['wpus'], 'mul a3, a3, a4',
                 'addi t0, s1, -1', 'divu t0, t0, a2', 'bgeu t0, a3, %s' % skip,
                 'li t0, 1024', 'bltu t0, s1, %s' % skip,
                 '// whole warps with (tid / width) mod 3 == 2 exit before the first barrier',
                 'divu t1, s0, a2', 'li t0, 3', 'remu t1, t1, t0', 'li t2, 2', 'beq t1, t2, %s' % early,
                 'li s6, 0')
        ctx.lines.append(loop + ':')
        ctx.emit('li t0, 0x9e3779b9', 'mul t1, s6, t0', 'li t2, 0x10001', 'mul t3, s0, t2',
                 'add t1, t1, t3', 'andi t4, s6, 1', 'slli t4, t4, 12', 'lla t5, slots',
                 'add t5, t5, t4', 'slli t6, s0, 2', 'add t6, t5, t6', 'sw t1, 0(t6)',
                 '.insn i 0x0B, 0, x0, x0, 0     // wsim.bar',
                 '// neighbour j = (tid + 1 + round) mod n, skipping threads of exited warps',
                 'addi a5, s0, 1', 'add a5, a5, s6', 'remu a5, a5, s1')
        ctx.lines.append(nb + ':')
        ctx.emit('csrr t0, 0x%x' % WSIM['width'], 'divu t1, a5, t0', 'li t0, 3', 'remu t1, t1, t0',
                 'li t2, 2', 'bne t1, t2, %s' % nbok,
                 'addi a5, a5, 1', 'remu a5, a5, s1', 'j %s' % nb)
        ctx.lines.append(nbok + ':')
        ctx.emit('slli t6, a5, 2', 'add t6, t5, t6', 'lw s4, 0(t6)',
                 'li t0, 0x9e3779b9', 'mul t1, s6, t0', 'li t2, 0x10001', 'mul t3, a5, t2',
                 'add s5, t1, t3')
        ctx.check('s4', 'word written by the neighbour before the barrier')
        ctx.emit('addi s6, s6, 1', 'li t0, %d' % rounds, 'bltu s6, t0, %s' % loop,
                 'j %s' % skip)
        ctx.lines.append(early + ':')
        ctx.emit('li a0, 0', 'li a7, 93', 'ecall')
        ctx.lines.append(skip + ':')
    asm.allthread_row('%d barrier rounds exchanging words with a neighbour' % rounds, body)
    return asm


def gen_wsim_shuffle():
    asm = Asm('wsim_shuffle', 'wsim.shfl.{down,up,xor,idx} and wsim.fshfl.* (custom-0 funct3=1): a lane '
              'reads rs1 of a lane of its own warp (wsim.wtid t, wsim.ntids n), its own rs1 outside it')
    # Every thread holds v(tid) = tid * K + C; the source of thread tid is the
    # thread tid - t + j of its warp (the fixed grid: consecutive threads), so
    # the expected value is v(tid - t + j) when 0 <= j < n, else v(tid).
    K, C = 0x9E3779B1, 0x01234567
    f7 = {'down': 0, 'up': 1, 'xor': 2, 'idx': 3}

    def value(ctx, dst, tid):
        ctx.emit('li t0, %d' % K, 'mul %s, %s, t0' % (dst, tid), 'li t0, %d' % C, 'add %s, %s, t0' % (dst, dst))

    def source(ctx, kind, d):
        """t5 = j (the source's index in the warp) from t = a2, d; n = a3."""
        if kind == 'down':
            ctx.emit('add t5, a2, %s' % d)
            ctx.emit('bltu t5, a2, {own}')  # (wrapped: outside)
        elif kind == 'up':
            ctx.emit('bltu a2, %s, {own}' % d, 'sub t5, a2, %s' % d)
        elif kind == 'xor':
            ctx.emit('xor t5, a2, %s' % d)
        else:
            ctx.emit('mv t5, %s' % d)

    def row(kind, dval, fl=False, inplace=False, lane_d=False, inactive=False):
        def body(ctx):
            own, chk, skip = ctx.lbl('own'), ctx.lbl('chk'), ctx.lbl('skip')
            ctx.emit('csrr a2, 0x%x' % WSIM['wtid'], 'csrr a3, 0x%x' % WSIM['ntids'])
            if inactive:  # only even lanes run it; they read odd ones, parked at the join
                ctx.emit('andi t6, a2, 1', 'bnez t6, %s' % skip)
            value(ctx, 'a4', 's0')
            if lane_d:
                ctx.emit('li t0, 3', 'remu a5, a2, t0', 'addi a5, a5, %d' % dval)
            else:
                ctx.emit('li a5, %d' % dval)
            dst = 'a4' if inplace else 'a6'
            ctx.emit('mv a7, a4')
            if fl:
                ctx.emit('fmv.w.x fa0, a4',
                         '.insn r 0x0B, 1, %d, %s, fa0, a5     // wsim.fshfl.%s' % (f7[kind] + 8, 'fa0' if inplace else 'fa1', kind),
                         'fmv.x.w %s, %s' % (dst, 'fa0' if inplace else 'fa1'))
            else:
                ctx.emit('.insn r 0x0B, 1, %d, %s, a4, a5     // wsim.shfl.%s' % (f7[kind], dst, kind))
            src = []
            source(ctx, kind, 'a5')
            ctx.lines[-1:] = [ln.replace('{own}', own) for ln in ctx.lines[-1:]]
            ctx.lines[-2:] = [ln.replace('{own}', own) for ln in ctx.lines[-2:]]
            ctx.emit('bgeu t5, a3, %s' % own, 'sub t4, s0, a2', 'add t4, t4, t5')
            value(ctx, 's5', 't4')
            ctx.emit('j %s' % chk)
            ctx.lines.append(own + ':')
            ctx.emit('mv s5, a7')
            ctx.lines.append(chk + ':')
            ctx.check(dst, 'wsim.%sshfl.%s result' % ('f' if fl else '', kind))
            ctx.lines.append(skip + ':')
        name = '%sshfl.%s d=%s%d%s%s%s' % ('f' if fl else '', kind, 't mod 3 + ' if lane_d else '', dval,
                                           ' rd=rs1' if inplace else '', ' (even lanes; odd sources inactive)'
                                           if inactive else '', '')
        asm.allthread_row(name, body)

    for kind, ds in (('down', (0, 1, 3, 16, 63)), ('up', (0, 1, 5, 32)), ('xor', (1, 2, 7, 31)),
                     ('idx', (0, 3, 15, 64))):
        for d in ds:
            row(kind, d)
        row(kind, 1, fl=True)
        row(kind, 2, inplace=True)
        row(kind, 1, lane_d=True)
    row('xor', 1, inactive=True)
    row('down', 1, fl=True, inplace=True, inactive=True)
    return asm


# ---------------------------------------------------------------------------
# Negative tests
# ---------------------------------------------------------------------------

def enc_r(f7, rs2, rs1, f3, rd, opc):
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc


def enc_b(imm, rs2, rs1, f3):
    i = imm & 0x1FFF
    return ((i >> 12 & 1) << 31 | (i >> 5 & 0x3F) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12
            | (i >> 1 & 0xF) << 8 | (i >> 11 & 1) << 7 | 0x63)


def enc_j(imm, rd):
    i = imm & 0x1FFFFF
    return ((i >> 20 & 1) << 31 | (i >> 1 & 0x3FF) << 21 | (i >> 11 & 1) << 20
            | (i >> 12 & 0xFF) << 12 | rd << 7 | 0x6F)


ILL = 'illegal instruction'
FAULTS = [
    # name, keyword, description, setup lines, faulting instruction lines
    ('illegal_zero', ILL, 'the all-zero word (defined illegal)', [], ['.word 0x00000000']),
    ('illegal_ones', ILL, 'the all-ones word', [], ['.word 0xffffffff']),
    ('custom0', ILL, 'custom-0 with funct3=1 and funct7=0x7f (no warp shuffle has it)', [],
     ['.word 0x%08x' % 0xFE00100B]),
    ('rm_static5', ILL, 'fadd.s with static rm=5', [],
     ['.word 0x%08x     // fadd.s f1, f2, f3, rm=5' % enc_r(0, 3, 2, 5, 1, 0x53)]),
    ('rm_static6', ILL, 'fmadd.s with static rm=6', [],
     ['.word 0x%08x     // fmadd.s f1, f2, f3, f4, rm=6' % (4 << 27 | enc_r(0, 3, 2, 6, 1, 0x43))]),
    ('rm_dyn5', ILL, 'fadd.s dyn with frm=5', ['fsrmi 5'], ['fadd.s f1, f2, f3, dyn']),
    ('rm_dyn7', ILL, 'fsqrt.s dyn with frm=7', ['fsrmi 7'], ['fsqrt.s f1, f2, dyn']),
    ('csr_write_ro', ILL, 'csrw cycle (read-only CSR)', ['li t0, 1'], ['csrrw zero, cycle, t0']),
    ('csr_set_ro', ILL, 'csrrs to cycle with rs1 != x0 holding 0 (still a write)',
     ['li t1, 0'], ['csrrs t0, cycle, t1']),
    ('csr_write_wsim', ILL, 'csrrwi to wsim.lane (read-only)', [], ['csrrwi zero, 0xcc0, 1']),
    ('csr_write_mhartid', ILL, 'csrrsi to mhartid (read-only)', [], ['csrrsi t0, mhartid, 1']),
    ('csr_unknown', ILL, 'read of CSR 0xcdf (after the WarpSplit range)', [], ['csrr t0, 0xcdf']),
    ('csr_unknown_m', ILL, 'read of mtvec (machine trap vector: not provided)', [], ['csrr t0, mtvec']),
    ('misaligned_jalr', 'misaligned', 'jalr to an address with bit 1 set',
     ['lla t1, pass', 'addi t1, t1, 2'], ['jalr ra, 0(t1)']),
    ('misaligned_jal', 'misaligned', 'jal with offset +6',
     [], ['.word 0x%08x     // jal ra, .+6' % enc_j(6, 1), 'nop', 'nop']),
    ('misaligned_branch', 'misaligned', 'taken beq with offset +6',
     [], ['.word 0x%08x     // beq zero, zero, .+6' % enc_b(6, 0, 0, 0), 'nop', 'nop']),
    ('misaligned_lw', 'misaligned', 'lw from an address = 2 mod 4', ['addi t1, sp, -14'],
     ['lw t0, 0(t1)']),
    ('misaligned_lh', 'misaligned', 'lh from an odd address', ['addi t1, sp, -15'],
     ['lh t0, 0(t1)']),
    ('misaligned_sw', 'misaligned', 'sw to an address = 1 mod 4', ['addi t1, sp, -13'],
     ['sw t0, 0(t1)']),
    ('misaligned_flw', 'misaligned', 'flw from an address = 2 mod 4', ['addi t1, sp, -10'],
     ['flw f0, 0(t1)']),
    ('guard_load', 'guard page', 'lw from address 0x10', [], ['lw t0, 0x10(zero)']),
    ('guard_store', 'guard page', 'sw to address 0xffc', ['li t1, 0xffc'], ['sw t0, 0(t1)']),
    ('guard_fetch', 'guard page', 'jump to address 0x10 (instruction fetch)', ['li t1, 0x10'],
     ['jalr ra, 0(t1)']),
    ('ebreak', 'ebreak', 'ebreak', [], ['ebreak']),
    ('ecall_unknown', 'unknown ecall', 'ecall with a7=1234', ['li a7, 1234'], ['ecall']),
    ('ecall_exit_group', 'unknown ecall', 'ecall with a7=94 (Linux exit_group, not in the ABI)',
     ['li a7, 94', 'li a0, 0'], ['ecall']),
    ('amo', ILL, 'amoadd.w (RV32A)', ['addi a2, sp, -16'],
     ['.word 0x%08x     // amoadd.w a0, a1, (a2)' % enc_r(0, 11, 12, 2, 10, 0x2F)]),
    ('lr', ILL, 'lr.w (RV32A)', ['addi a2, sp, -16'],
     ['.word 0x%08x     // lr.w a0, (a2)' % enc_r(0b0001000, 0, 12, 2, 10, 0x2F)]),
    ('compressed', ILL, 'c.nop halfwords (RVC is not supported)', [],
     ['.half 0x0001', '.half 0x0001']),
    ('fp_double', ILL, 'fadd.d (RV32D)', [],
     ['.word 0x%08x     // fadd.d f1, f2, f3, rne' % enc_r(1, 3, 2, 0, 1, 0x53)]),
    ('mret', ILL, 'mret (no machine mode for kernels)', [], ['.word 0x30200073     // mret']),
]


def fault_source(name, keyword, desc, setup, insn):
    o = [HEADER,
         '// fault_%s.S -- negative test: %s.' % (name, desc),
         '// Even-numbered threads execute the instruction at fault_pc, which must stop',
         '// the thread with a fault containing "%s" (fault_%s.expect);' % (keyword, name),
         '// odd-numbered threads exit 0.  Falling through prints a line and exits 126.',
         '    .option norvc', '    .section .text.start, "ax"', '    .globl _start',
         '_start:', '    andi t0, a0, 1', '    bnez t0, pass']
    o += ['    ' + s for s in setup]
    o += ['    .globl fault_pc', 'fault_pc:']
    o += ['    ' + s for s in insn]
    text = 'fault_%s: the instruction at fault_pc did not fault' % name
    o += ['    li a0, 2', '    lla a1, msg', '    li a2, %d' % (len(text) + 1), '    li a7, 64',
          '    ecall', '    li a0, 126', '    li a7, 93', '    ecall',
          'pass:', '    li a0, 0', '    li a7, 93', '    ecall', '    .word 0',
          '    .section .rodata',
          'msg: .ascii "%s\\n"' % text]
    return '\n'.join(o) + '\n'


# ---------------------------------------------------------------------------

GENERATORS = [gen_rv32i_alu, gen_rv32i_branch, gen_rv32i_jump, gen_rv32i_load_store,
              gen_rv32i_regs, gen_rv32i_system, gen_rv32m, gen_rv32f_arith, gen_rv32f_fma,
              gen_rv32f_cvt, gen_rv32f_cmp_class_minmax, gen_rv32f_move_sgnj,
              gen_rv32f_load_store, gen_zicsr, gen_wsim_barrier, gen_wsim_shuffle]


def write(name, text):
    path = os.path.join(HERE, name)
    old = None
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    if old != text:
        with open(path, 'w') as f:
            f.write(text)


def main(argv):
    only = set(argv[1:])
    total = 0
    for gen in GENERATORS:
        name = gen.__name__[4:]
        if only and name not in only:
            continue
        asm = gen()
        write(asm.name + '.S', asm.render())
        total += asm.nrows
        print('%-24s %6d rows %5d tables' % (asm.name + '.S', asm.nrows, len(asm.summary)))
    for name, keyword, desc, setup, insn in FAULTS:
        if only and 'fault_' + name not in only and 'faults' not in only:
            continue
        write('fault_%s.S' % name, fault_source(name, keyword, desc, setup, insn))
        write('fault_%s.expect' % name, keyword + '\n')
    print('total %d rows, %d fault tests' % (total, len(FAULTS)))


if __name__ == '__main__':
    main(sys.argv)
