/* The functional core: execution of one SIMD group instruction
 * (functional-first: every active lane's effect happens at issue) and the
 * re-convergence stack update that decides which group runs next. It
 * executes and reports (exec_report_t): a divergent branch, threads that
 * exit, fault or reach a barrier are the pipeline's to act on (wpu.c); it
 * never calls up into the pipeline or the mechanisms. Timing lives in wpu.c. */
#include <stdarg.h>
#include <string.h>

#include "cfgraph.h"
#include "core.h"
#include "softfloat.h"

/* Why a lane stopped inside the per-lane loop. */
enum {
    LF_NONE, LF_LOAD_MISALIGNED, LF_STORE_MISALIGNED, LF_LOAD_GUARD, LF_STORE_GUARD,
    LF_BAD_RM, LF_CSR, LF_STORE_CODE, LF_STACK,
};

/* A store's address that is not the thread's to write: into the code (which
 * is decoded once, at load: self-modifying code is not modelled), or into
 * the stacks but outside the thread's own (its stack overflowed into its
 * neighbour's, or it writes another thread's). */
static inline int store_code(const struct wsim *s, uint32_t a)
{
    return a - s->prog->code_lo < s->prog->code_hi - s->prog->code_lo && program_insn(s->prog, a & ~3u);
}
static inline int store_other_stack(const struct wsim *s, const warp_t *w, int lane, uint32_t a)
{
    if (a < s->stack_lo || a >= s->cfg.stack_top) return 0;
    uint64_t top = s->cfg.stack_top - (uint64_t)w->meta[lane].tid * s->cfg.stack_size;
    return a >= top || a < top - s->cfg.stack_size;
}

static inline uint32_t rv_div(uint32_t a, uint32_t b)
{
    if (b == 0) return ~0u;
    if (a == 0x80000000u && b == ~0u) return a; /* overflow: INT_MIN / -1 */
    return (uint32_t)((int32_t)a / (int32_t)b);
}

static inline uint32_t rv_rem(uint32_t a, uint32_t b)
{
    if (b == 0) return a;
    if (a == 0x80000000u && b == ~0u) return 0;
    return (uint32_t)((int32_t)a % (int32_t)b);
}

enum { CSR_W, CSR_S, CSR_C };

/* Read-modify-write of one CSR (csr.def) for one lane; -1 for an illegal access. */
static int csr_access(const struct wsim *s, const warp_t *w, int lane, thread_t *t, uint32_t csr,
                      int op, uint32_t val, int write, uint32_t *old)
{
    enum { CSR_ACCESS_RO, CSR_ACCESS_RW };
    uint32_t tid = w->meta[lane].tid, v;
    int access;
    switch (csr) {
#define CSR(num, name, acc, desc, read, wr) case num: v = (read); access = CSR_ACCESS_##acc; break;
#define CSR_API(num, name, fn, desc, read) case num: v = (read); access = CSR_ACCESS_RO; break;
#include "csr.def"
#undef CSR
#undef CSR_API
    default: return -1;
    }
    *old = v;
    if (!write) return 0;
    if (access != CSR_ACCESS_RW) return -1;
    uint32_t nv = op == CSR_W ? val : op == CSR_S ? (v | val) : (v & ~val);
    switch (csr) {
#define CSR(num, name, acc, desc, read, wr) case num: wr; break;
#define CSR_API(num, name, fn, desc, read)
#include "csr.def"
#undef CSR
#undef CSR_API
    default: return -1;
    }
    return 0;
}

/* ---- per-lane semantics of isa.def ---- */
#define X(r) t->x[r]
#define F(r) t->f[r]
#define RD d->rd
#define RS1 d->rs1
#define RS2 d->rs2
#define RS3 d->rs3
#define IMM d->imm
#define PC pc
#define T t
#define SIGN 0x80000000u
#define FL (&t->fflags)
#define TAKE() wmask_set(&taken, lane)
#define TARGET s->target[lane]
#define SHFL s->target[lane] /* a warp shuffle's value, gathered before the lanes run (shuffle_gather) */
#define LANE_FAULT(code) do { s->fault[lane] = (code); wmask_set(&faulted, lane); } while (0)
#define FP_RM                                               \
    int RM = d->rm == 7 ? (int)t->frm : (int)d->rm;         \
    if (RM > 4) { LANE_FAULT(LF_BAD_RM); continue; }
#define LOAD(dst, conv, size)                                                       \
    uint32_t a_ = X(RS1) + IMM;                                                     \
    s->addr[lane] = a_;                                                             \
    if (a_ & ((size) - 1)) { LANE_FAULT(LF_LOAD_MISALIGNED); continue; }             \
    if (a_ < PROG_GUARD_END) { LANE_FAULT(LF_LOAD_GUARD); continue; }               \
    dst = conv (s->private_data ? memsys_read(&s->ms, w->wpu, a_, size) : mem_read(mem, a_, size))
#define STORE(val, size)                                                            \
    uint32_t a_ = X(RS1) + IMM;                                                     \
    s->addr[lane] = a_;                                                             \
    if (a_ & ((size) - 1)) { LANE_FAULT(LF_STORE_MISALIGNED); continue; }            \
    if (a_ < PROG_GUARD_END) { LANE_FAULT(LF_STORE_GUARD); continue; }              \
    if (store_code(s, a_)) { LANE_FAULT(LF_STORE_CODE); continue; }                 \
    if (store_other_stack(s, w, lane, a_)) { LANE_FAULT(LF_STACK); continue; }      \
    if (s->private_data) memsys_write(&s->ms, w->wpu, a_, val, size);             \
    else mem_write(mem, a_, val, size)
#define CSR_OP(op, val, write)                                                      \
    uint32_t old_;                                                                  \
    if (csr_access(s, w, lane, t, IMM, op, val, write, &old_)) { LANE_FAULT(LF_CSR); continue; } \
    X(RD) = old_

/* A warp shuffle (isa.def, docs/abi.md): every active lane's source value,
 * read before any lane writes (rd may be rs1), from register rs1 of the
 * source lane in the lane's own warp as it stands now, active or not: the
 * segment of lanes its warp occupies in the SIMD group (003 §IV-B: packed
 * warps share one). A source outside the warp gives the lane its own value. */
static void shuffle_gather(struct wsim *s, const warp_t *w, const isa_insn_t *d, const wmask_t *m)
{
    const int fl = d->op >= ISA_OP_wsim_fshfl_down, kind = (int)(d->raw >> 25) & 3;
    WMASK_FOREACH(*m, lane) {
        const lane_meta_t *me = &w->meta[lane];
        const uint64_t t = me->wtid, n = me->ntids, k = w->th[lane].x[d->rs2];
        uint64_t j = kind == 0 ? t + k : kind == 1 ? (k <= t ? t - k : n) : kind == 2 ? (t ^ k) : k;
        const int src = j < n ? lane - (int)t + (int)j : lane;
        s->target[lane] = fl ? w->th[src].f[d->rs1] : w->th[src].x[d->rs1];
    }
}

static void lane_fault_message(struct wsim *s, const warp_t *w, int lane, uint32_t pc, const isa_insn_t *d)
{
    const thread_t *t = &w->th[lane];
    uint32_t a = s->addr[lane];
    switch (s->fault[lane]) {
    case LF_LOAD_MISALIGNED: fault_report(s, w, lane, pc, "misaligned load from 0x%08x", a); break;
    case LF_STORE_MISALIGNED: fault_report(s, w, lane, pc, "misaligned store to 0x%08x", a); break;
    case LF_LOAD_GUARD: fault_report(s, w, lane, pc, "load from 0x%08x in the null guard page", a); break;
    case LF_STORE_GUARD: fault_report(s, w, lane, pc, "store to 0x%08x in the null guard page", a); break;
    case LF_STORE_CODE:
        fault_report(s, w, lane, pc, "store to 0x%08x in the code (code is decoded once, at load: self-modifying "
                     "code is not supported)", a);
        break;
    case LF_STACK: {
        uint64_t top = s->cfg.stack_top - (uint64_t)w->meta[lane].tid * s->cfg.stack_size;
        uint64_t bottom = top - s->cfg.stack_size;
        uint32_t sp = t->x[2];
        if (a < bottom && sp < bottom) /* sp itself went past the stack's end: it overflowed */
            fault_report(s, w, lane, pc, "stack overflow: store to 0x%08x below the thread's stack 0x%08llx-0x%08llx "
                         "(sp 0x%08x, %llu bytes deep; raise stack_size)", a, (unsigned long long)bottom,
                         (unsigned long long)top - 1, sp, (unsigned long long)(top - sp));
        else { /* sp is in its stack (or not below it): a pointer into another thread's */
            uint64_t other = (s->cfg.stack_top - 1 - a) / s->cfg.stack_size;
            char whose[64];
            if (other < s->nthreads) snprintf(whose, sizeof whose, "another thread's stack, thread %llu's",
                                              (unsigned long long)other);
            else snprintf(whose, sizeof whose, "the guard below the last thread's stack");
            fault_report(s, w, lane, pc, "store to 0x%08x in %s (this thread's is 0x%08llx-0x%08llx, sp 0x%08x "
                         "inside it: a wild pointer, not a stack overflow)", a, whose, (unsigned long long)bottom,
                         (unsigned long long)top - 1, sp);
        }
        break;
    }
    case LF_BAD_RM:
        fault_report(s, w, lane, pc, "illegal instruction 0x%08x: invalid rounding mode %u%s", d->raw,
                         d->rm == 7 ? t->frm : d->rm, d->rm == 7 ? " in frm" : "");
        break;
    case LF_CSR: {
        const char *nm = isa_csr_name(d->imm);
        fault_report(s, w, lane, pc, "illegal instruction 0x%08x: %s CSR 0x%03x%s%s", d->raw,
                         nm ? "write to read-only" : "access to unknown", d->imm, nm ? " " : "", nm ? nm : "");
        break;
    }
    default: fault_report(s, w, lane, pc, "internal: unknown lane fault"); break;
    }
}

/* Make sure a call target has been through the control-flow analysis
 * (functions reached only through pointers may not have been). */
static int ensure_function(struct wsim *s, uint32_t target, char *err, size_t errlen)
{
    const isa_insn_t *d = program_insn(s->prog, target);
    if (!d) {
        snprintf(err, errlen, "call to 0x%08x, %s", target,
                 target < PROG_GUARD_END ? "in the null guard page" : "outside the program's code");
        return -1;
    }
    size_t k = (target - s->prog->code_lo) >> 2;
    if (s->prog->is_func[k] && s->prog->analysed[k]) return 0;
    return cfgraph_analyse_function(s->prog, target, err, errlen);
}

/* The write ecall: a2 bytes at a1 to the host's stdout (a0 = 1) or stderr
 * (a0 = 2). The buffer is read like a load: touching the null guard page
 * faults; so does a length over 1 MiB (docs/abi.md), a runaway length
 * rather than output. Returns -1 when the thread faulted (reported). */
static int write_syscall(struct wsim *s, warp_t *w, int lane, uint32_t pc, thread_t *t)
{
    enum { WRITE_MAX = 1 << 20 };
    uint32_t fd = t->x[10], buf = t->x[11], len = t->x[12];
    if (fd != 1 && fd != 2) { t->x[10] = ~0u; return 0; }
    if (len > WRITE_MAX) {
        fault_report(s, w, lane, pc, "write ecall: %u bytes; one write moves at most %u (1 MiB)", len,
                     (unsigned)WRITE_MAX);
        return -1;
    }
    if (len && (buf < PROG_GUARD_END || (uint64_t)buf + len > 0x100000000ull)) {
        fault_report(s, w, lane, pc, "write ecall: buffer 0x%08x+%u bytes %s the null guard page", buf, len,
                     buf < PROG_GUARD_END ? "is in" : "wraps around into");
        return -1;
    }
    FILE *out = fd == 1 ? stdout : stderr;
    char chunk[4096];
    for (uint32_t done = 0; done < len;) {
        uint32_t n = len - done < sizeof chunk ? len - done : (uint32_t)sizeof chunk;
        if (s->private_data) /* the thread sees its own WPU's copy */
            for (uint32_t i = 0; i < n; i++) chunk[i] = (char)memsys_read(&s->ms, w->wpu, buf + done + i, 1);
        else
            mem_read_bytes(s->mem, buf + done, chunk, n);
        fwrite(chunk, 1, n, out);
        done += n;
    }
    t->x[10] = len;
    return 0;
}

static void trace_issue(struct wsim *s, const warp_t *w, uint32_t pc, const wmask_t *m, const isa_insn_t *d)
{
    char mask[WSIM_MAX_LANES / 4 + 2], dis[96];
    wmask_hex(m, s->warp_size, mask);
    if (d) isa_disasm(d, pc, dis, sizeof dis);
    else snprintf(dis, sizeof dis, "<no code>");
    fprintf(s->trace, "c=%012llx u=%03x w=%03x pc=%08x m=%s %s\n", (unsigned long long)s->cycle, w->wpu,
            w->slot, pc, mask, dis);
}

/* Lanes leave group g's stack (exit or fault): a split's lanes also leave
 * its warp's stack. */
static void group_remove(group_t *g, wmask_t lanes)
{
    rs_remove(g->rs, lanes);
    if (g->rs != &g->w->rs) rs_remove(&g->w->rs, lanes);
}

/* The energy model's events (stats.def en_*, docs/energy.md): counted always,
 * printed with stats_energy = 1. */
static void count_energy(stats_t *st, const isa_insn_t *d, uint64_t n)
{
    const uint64_t r = d->rf_reads, w = d->rf_writes; /* (isa_rf_ports, at decode) */
    switch (d->cls) {
    case ISA_CLASS_MUL: case ISA_CLASS_DIV: st->en_mul_insts++, st->en_mul_threads += n; break;
    case ISA_CLASS_FPU: case ISA_CLASS_FMA: case ISA_CLASS_FDIV: st->en_fp_insts++, st->en_fp_threads += n; break;
    case ISA_CLASS_JAL: case ISA_CLASS_JALR: st->en_jump_insts++, st->en_jump_threads += n; break;
    case ISA_CLASS_BRANCH: st->en_branch_threads += n; break;
    case ISA_CLASS_LOAD: st->en_load_threads += n; break;
    case ISA_CLASS_STORE: st->en_store_threads += n; break;
    default: break;
    }
    st->en_rf_reads += n * r, st->en_rf_writes += n * w;
    st->en_rf_reads_warp += r, st->en_rf_writes_warp += w;
}

void exec_issue(struct wsim *s, wpu_t *u, group_t *g, const isa_insn_t *d, exec_report_t *x)
{
    warp_t *w = g->w;
    rstack_t *rs = g->rs;
    const uint32_t pc = rs_top(rs)->pc;
    const wmask_t m = rs_top(rs)->mask;
    mem_t *mem = s->mem;
    wmask_t taken = wmask_none(), faulted = wmask_none(), gone = wmask_none();

    x->cls = d ? d->cls : ISA_CLASS_ILLEGAL; /* (only the masks that ev names are set) */
    x->pc = pc;
    x->rs = rs;
    x->ev = 0;
    if (s->trace) trace_issue(s, w, pc, &m, d);
    u->st.warp_insts++;
    if (!d) {
        WMASK_FOREACH(m, lane)
            fault_report(s, w, lane, pc, "instruction fetch from 0x%08x, %s", pc,
                         pc < PROG_GUARD_END ? "in the null guard page" : "outside the program's code");
        group_remove(g, m);
        x->faulted = m;
        x->ev = EXEC_FAULTED;
        return;
    }

    if (d->cls == ISA_CLASS_SHUFFLE) shuffle_gather(s, w, d, &m);
    switch (d->op) {
#define INSN(name, mn, match, mask, fmt, cls, ...)   \
    case ISA_OP_##name:                             \
        WMASK_FOREACH(m, lane) {                    \
            thread_t *t = &w->th[lane];             \
            { __VA_ARGS__ }                         \
            t->instret++;                           \
        }                                           \
        break;
#include "isa.def"
#undef INSN
    default:
        break;
    }

    wmask_t ok = wmask_andnot(m, faulted);
    if (wmask_any(&faulted)) WMASK_FOREACH(faulted, lane) lane_fault_message(s, w, lane, pc, d);

    switch (d->cls) {
    case ISA_CLASS_BRANCH: {
        u->st.branches++;
        const int nonloop = !(d->flags & ISA_F_LOOP);
        u->st.nonloop_branches += (uint64_t)nonloop;
        if (wmask_any(&taken) && (d->target & 3)) {
            WMASK_FOREACH(taken, lane)
                fault_report(s, w, lane, pc, "branch to misaligned address 0x%08x", d->target);
            faulted = wmask_or(faulted, taken);
            ok = wmask_andnot(ok, taken);
            taken = wmask_none();
        }
        wmask_t fall = wmask_andnot(ok, taken);
        if (s->bprof) { /* --branch-profile (branchsel.c) */
            uint64_t *c = s->bprof[(pc - s->prog->code_lo) >> 2];
            uint64_t nt = (uint64_t)wmask_count(&taken), nf = (uint64_t)wmask_count(&fall);
            c[0]++, c[3] += nt + nf;
            if (nt && nf && d->target != pc + 4) c[1]++, c[2] += nt < nf ? nt : nf;
        }
        if (!wmask_any(&taken) || d->target == pc + 4) rs_goto(rs, pc + 4);
        else if (!wmask_any(&fall)) rs_goto(rs, d->target);
        else { /* the pipeline splits the group or pushes its stack */
            u->st.div_branches++;
            u->st.nonloop_div_branches += (uint64_t)nonloop;
            x->ev |= EXEC_DIVERGED;
            x->taken = taken;
            x->fall = fall;
        }
        break;
    }
    case ISA_CLASS_JAL: {
        if (d->target & 3) {
            WMASK_FOREACH(ok, lane) fault_report(s, w, lane, pc, "jump to misaligned address 0x%08x", d->target);
            faulted = wmask_or(faulted, ok);
            break;
        }
        if (d->flags & ISA_F_CALL) {
            char err[512];
            u->st.calls++;
            if (ensure_function(s, d->target, err, sizeof err) < 0) {
                WMASK_FOREACH(ok, lane) fault_report(s, w, lane, pc, "%s", err);
                faulted = wmask_or(faulted, ok);
                break;
            }
            rs_call(rs, pc + 4, 1, &d->target, &ok);
        } else {
            rs_goto(rs, d->target);
        }
        break;
    }
    case ISA_CLASS_JALR: {
        WMASK_FOREACH(ok, lane) {
            if (s->target[lane] & 3) {
                fault_report(s, w, lane, pc, "jump to misaligned address 0x%08x", s->target[lane]);
                wmask_set(&faulted, lane);
            }
        }
        ok = wmask_andnot(ok, faulted);
        if (!wmask_any(&ok)) break;
        if ((d->flags & ISA_F_RETURN) && rs->j) { /* reconv = join: each lane to its own ra */
            wmask_t nocall;
            join_return(rs, ok, s->target, &nocall);
            WMASK_FOREACH(nocall, lane) fault_report(s, w, lane, pc, "return with no call on the re-convergence stack");
            faulted = wmask_or(faulted, nocall);
        } else if (d->flags & ISA_F_RETURN) {
            uint32_t rp = rs_return_pc(rs);
            /* a split returning from a call made before it split: the call
             * site is on its warp's stack */
            int out = rp == ISA_RPC_EXIT && rs != &w->rs;
            if (out) rp = rs_return_pc(&w->rs);
            WMASK_FOREACH(ok, lane) {
                if (rp == ISA_RPC_EXIT)
                    fault_report(s, w, lane, pc, "return with no call on the re-convergence stack");
                else if (s->target[lane] != rp)
                    fault_report(s, w, lane, pc, "return to 0x%08x, but the call returns to 0x%08x "
                                     "(ra overwritten? longjmp is not supported)", s->target[lane], rp);
                else continue;
                wmask_set(&faulted, lane);
            }
            ok = wmask_andnot(ok, faulted);
            if (wmask_any(&ok) && out) {
                rs_remove(rs, ok);
                rs_return(&w->rs, ok);
                x->returned = ok;
                x->ev |= EXEC_RETURNED;
            } else if (wmask_any(&ok)) {
                rs_return(rs, ok);
            }
        } else if (d->flags & ISA_F_CALL) {
            /* group lanes by target: an indirect call may diverge */
            uint32_t tg[WSIM_MAX_LANES];
            wmask_t tm[WSIM_MAX_LANES];
            int n = 0;
            WMASK_FOREACH(ok, lane) {
                int k = 0;
                while (k < n && tg[k] != s->target[lane]) k++;
                if (k == n) { tg[n] = s->target[lane]; tm[n] = wmask_none(); n++; }
                wmask_set(&tm[k], lane);
            }
            int kept = 0;
            for (int k = 0; k < n; k++) {
                char err[512];
                if (ensure_function(s, tg[k], err, sizeof err) < 0) {
                    WMASK_FOREACH(tm[k], lane) fault_report(s, w, lane, pc, "%s", err);
                    faulted = wmask_or(faulted, tm[k]);
                    continue;
                }
                tg[kept] = tg[k], tm[kept] = tm[k], kept++;
            }
            u->st.calls++;
            if (kept > 1) u->st.div_calls++;
            if (kept) rs_call(rs, pc + 4, kept, tg, tm);
        } else {
            /* an auipc+jalr jump: one target for everyone */
            uint32_t t0 = s->target[wmask_lowest(&ok)];
            WMASK_FOREACH(ok, lane) {
                if (s->target[lane] == t0) continue;
                fault_report(s, w, lane, pc, "indirect jump diverges (0x%08x vs 0x%08x)", s->target[lane], t0);
                wmask_set(&faulted, lane);
            }
            rs_goto(rs, t0);
        }
        break;
    }
    case ISA_CLASS_ECALL:
        WMASK_FOREACH(ok, lane) {
            thread_t *t = &w->th[lane];
            if (t->x[17] == 93) {
                wmask_set(&gone, lane); /* its exit code stays in a0 */
            } else if (t->x[17] == 64) {
                if (write_syscall(s, w, lane, pc, t) < 0) wmask_set(&faulted, lane);
            } else {
                fault_report(s, w, lane, pc, "unknown ecall a7=%u (supported: 93 exit, 64 write)", t->x[17]);
                wmask_set(&faulted, lane);
            }
        }
        rs_goto(rs, pc + 4);
        break;
    case ISA_CLASS_EBREAK:
        WMASK_FOREACH(ok, lane) fault_report(s, w, lane, pc, "ebreak");
        faulted = wmask_or(faulted, ok);
        break;
    case ISA_CLASS_ILLEGAL:
        WMASK_FOREACH(m, lane)
            fault_report(s, w, lane, pc, "illegal instruction 0x%08x (not RV32IMF, Zicsr or a WarpSplit instruction)", d->raw);
        faulted = m;
        break;
    case ISA_CLASS_BARRIER:
        u->st.barriers++;
        if (rs->j) join_barrier(rs, ok, pc + 4); /* reconv = join: other lanes may run on */
        else rs_goto(rs, pc + 4);
        x->barrier = ok;
        x->ev |= EXEC_BARRIER;
        break;
    case ISA_CLASS_LOAD:
        u->st.loads++;
        rs_goto(rs, pc + 4);
        break;
    case ISA_CLASS_STORE:
        u->st.stores++;
        rs_goto(rs, pc + 4);
        break;
    default:
        rs_goto(rs, pc + 4);
        break;
    }

    wmask_t done = wmask_andnot(m, faulted);
    const uint64_t n = (uint64_t)wmask_count(&done);
    u->st.thread_insts += n;
    count_energy(&u->st, d, n);
    if (wmask_any(&faulted)) x->faulted = faulted, x->ev |= EXEC_FAULTED;
    if (wmask_any(&gone)) x->exited = gone, x->ev |= EXEC_EXITED;
    if (x->ev & (EXEC_FAULTED | EXEC_EXITED)) group_remove(g, wmask_or(faulted, gone));
    if (!(x->ev & EXEC_DIVERGED)) exec_count_depth(u, rs); /* (else once the pipeline pushed it) */
}
