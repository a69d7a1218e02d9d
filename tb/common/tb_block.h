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
// and keeps only its stimulus and coverage points. The C side is the
// block's block_ops_t (init, reset, eval, clock); the checker is
// block_compare(), the comparator a lockstep run uses.
#include "block_glue.inc"

#ifndef WS_TB_BLOCK_H
#define WS_TB_BLOCK_H

#include <cstring>

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

#endif
