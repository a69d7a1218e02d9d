// The generic side of a block's testbench: its Env (a TbEnv, tb.h) and its
// checker for any block b whose RTL's ports are the port table's, built on
// the block's glue (tb/common/block_glue.inc, shared with RTL in the loop).
// A testbench includes it after its model (Vdut.h) as
//
//   #define RTL_B b
//   #include "tb_block.h"
//   #undef RTL_B
//   typedef TbBlockEnv<Vdut, glue_b::Glue> Env;   // (or a struct deriving from it)
//
// and keeps only its stimulus and coverage points: a Stimulus deriving from
// TbStimulus<glue_b::Glue> that tb_random_run (below) drives, one clock at a
// time. The C side is the block's block_ops_t (init, reset, eval, clock);
// the checker is block_compare(), the comparator a lockstep run uses.
#include "block_glue.inc"

#ifndef WS_TB_BLOCK_H
#define WS_TB_BLOCK_H

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tb.h"

// The narrow checker: one call per clock compares every output port of the
// RTL with the C block's (block_compare). comb_only: just the combinational
// outputs (after the late inputs changed: none of them may depend on those).
template <class M, class G> class TbChecker {
  public:
    typedef typename G::out_t out_t;
    TbChecker(TbRun &r, const block_ops_t *ops, const void *cfg) : r_(r), ops_(ops), cfg_(cfg) {
        memset(&mirror_, 0, sizeof mirror_);
        for (int i = 0; i < ops->nports; i++) pw_[i] = ops->width(cfg, i);
        entries_ = ops->entries ? ops->entries(cfg) : 0;
    }
    // Every port's width, from the port table (entry fields: one entry's).
    const int *pw() const { return pw_; }
    bool step(uint64_t cyc, const out_t &o, const M *m, bool comb_only) {
        // the RTL's outputs as the C block's out struct: the combinational
        // outputs, the registered read ports into the mirror rtl_.q points at
        // (what an RTL-backed block does after every clock edge)
        G::read_comb(*m, rtl_, pw_);
        G::read_regs(*m, mirror_, pw_, entries_);
        rtl_.q = &mirror_;
        block_mismatch_t mm;
        if (!block_compare(ops_, cfg_, &o, &rtl_, comb_only ? BLOCK_CMP_COMB : BLOCK_CMP_ALL, &mm)) return true;
        r_.mismatch(cyc, mm.name, "C model", mm.exp, mm.act);
        return false;
    }
    // The RTL's outputs as read by the last step().
    const out_t &rtl() const { return rtl_; }

  private:
    TbRun &r_;
    const block_ops_t *ops_;
    const void *cfg_;
    out_t rtl_{};
    typename G::state_t mirror_;
    int pw_[BLOCK_MAX_PORTS];
    int entries_;
};

// A block's run: the RTL model M and the C block (through block_ops_t)
// driven with the same inputs; c() is the C block, for the stimulus and
// the coverage points.
template <class M, class G>
struct TbBlockEnv : TbEnv<M, TbChecker<M, G>, typename G::in_t, typename G::out_t> {
    typedef TbEnv<M, TbChecker<M, G>, typename G::in_t, typename G::out_t> base;
    typedef typename G::in_t in_t;
    typedef typename G::out_t out_t;
    typedef typename G::blk_t blk_t;
    using base::base;
    TbBlockEnv(const TbBlockEnv &) = delete;
    TbBlockEnv &operator=(const TbBlockEnv &) = delete;
    ~TbBlockEnv() {
        if (blk_) this->ops->free(blk_);
    }
    const blk_t &c() const { return *blk_; }
    bool init(char *err, size_t len) {
        blk_ = (blk_t *)this->ops->init(this->cfg, err, len);
        return blk_ != nullptr;
    }
    void reset() {
        G::reset(*this->m);
        this->ops->reset(blk_);
    }
    // Evaluate with the inputs applied; compare (all ports, or just the combinational ones).
    bool settle(const in_t &in, out_t &out, bool comb_only) {
        G::drive(*this->m, in, this->chk->pw());
        this->m->eval();
        this->ops->eval(blk_, &in, &out);
        return this->chk->step(this->cyc, out, this->m, comb_only);
    }
    // The clock edge: the waveform's two samples around it, an RTL assertion
    // that failed on it reported as a failure.
    bool edge(const in_t &in, const out_t &out) {
        this->r.dump(2 * this->cyc);
        this->ops->clock(blk_, &in, &out);
        this->m->clk_i = 1;
        this->m->eval();
        this->r.dump(2 * this->cyc + 1);
        this->m->clk_i = 0;
        if (this->ctx->gotError()) {
            this->r.failure(this->cyc, "an RTL assertion failed (message above)");
            return false;
        }
        this->cyc++;
        return true;
    }

  private:
    blk_t *blk_ = nullptr;
};

// ---- the random run: one frame for every block ----
//
// A block's random stimulus S derives from TbStimulus<Glue> and supplies
// reset_now(), junk(), early() and cover(); its other steps are optional
// (the defaults below do nothing). tb_random_run drives each clock as
//   a reset when reset_now() says so (after the first clock; the +log
//     trace's next unit) and on_reset() (the stimulus' per-unit state);
//   junk(in)                   the late inputs, random: they must not matter yet;
//   early(c, in)               the inputs the outputs may depend on;
//   the combinational outputs settled and compared;
//   retry(cov, c, out, in)     true: early inputs changed on seeing the
//                              outputs (a refused request made again): settled again;
//   late(c, out, in)           the inputs decided on seeing the outputs;
//   every output settled and compared;
//   check(c, in, out)          a rule of the stimulus' own broken: its message, else null;
//   cover(cov, c, in, out)     the coverage points;
//   logged(c, in)              the clock's line goes to +log (the lines wpusim writes);
//   the clock edge, then after_edge(cov, c, in).
// c is the C block, in its state before the edge. The run ends with the
// coverage report (points; reset_point: the point a reset mid-run counts).
template <class G> struct TbStimulus {
    typedef typename G::in_t in_t;
    typedef typename G::out_t out_t;
    typedef typename G::blk_t blk_t;
    void on_reset() {}
    bool retry(uint64_t *, const blk_t &, const out_t &, in_t &) { return false; }
    void late(const blk_t &, const out_t &, in_t &) {}
    const char *check(const blk_t &, const in_t &, const out_t &) { return nullptr; }
    bool logged(const blk_t &, const in_t &) const { return true; }
    void after_edge(uint64_t *, const blk_t &, const in_t &) {}
    std::string report_more() const { return ""; } // the report heading's rest
};

template <class Env, class S> int tb_random_run(Env &v, S &gen, const TbCover &points, int reset_point) {
    std::vector<uint64_t> cov((size_t)points.n);
    FILE *log = nullptr;
    if (!v.o.log.empty()) {
        log = fopen(v.o.log.c_str(), "w");
        if (!log) { perror(v.o.log.c_str()); return 2; }
        block_trace_header(v.ops, v.cfg, log);
    }
    int segment = 0;
    typename Env::in_t in{};
    typename Env::out_t out{};
    bool ok = true;
    for (uint64_t n = 0; ok && n < v.o.cycles; n++) {
        const bool rst = v.cyc > 0 && gen.reset_now();
        if (rst) {
            v.reset();
            cov[(size_t)reset_point]++;
            segment++;
            gen.on_reset();
        }
        gen.junk(in);
        gen.early(v.c(), in);
        ok = v.settle(in, out, false);
        if (ok && gen.retry(cov.data(), v.c(), out, in)) ok = v.settle(in, out, false);
        gen.late(v.c(), out, in);
        v.hist.push(v.input_line(in, rst));
        if (ok) ok = v.settle(in, out, true);
        if (!ok) break;
        if (const char *why = gen.check(v.c(), in, out)) {
            v.r.failure(v.cyc, why);
            ok = false;
            break;
        }
        gen.cover(cov.data(), v.c(), in, out);
        if (log && gen.logged(v.c(), in)) v.ops->trace(&v.c(), v.cyc, segment, &in, &out, log);
        if (!(ok = v.edge(in, out))) break;
        gen.after_edge(cov.data(), v.c(), in);
    }
    if (log) fclose(log);
    if (!ok) return v.r.fail(v.hist);
    return tb_coverage_report(v.o, v.ops->name, points, cov.data(), segment, gen.report_more());
}

#endif
