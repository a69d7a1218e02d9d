// Memory divergence table testbench: the verilated rtl/ws_mdt.sv (class
// Vdut, or the synthesized netlist under the same name) and the C block
// cmodel/blocks/mdt.c run side by side, driven with the same inputs every
// clock; every output port is compared every clock (docs/rtl.md).
//
// Stimulus: constrained random from a seeded LFSR. Each stretch between two
// resets is either *legal* — the table driven as the pipeline drives it
// (docs/blocks/mdt.md, cmodel/mech/dom.c): alloc only warp_i's free entry
// without a hit and with an MCB entry free, merge only into the hit, mask
// off only threads in none of the warp's entries, fill only waiting lanes —
// so that the RTL's protocol invariants (one entry per PC, a lane in one
// entry, no more entries than MCB) are checked; or *wild*: any operation on
// any entry. Or the replay of a port trace recorded by
// `wpusim --record-block mdt=FILE` (or written by +log=FILE here), each
// WPU's lines from reset on consecutive clocks; a replay also says whether
// every recorded clock kept the protocol.
//
// The parameters come from the build (-DTB_WARPS=... matching the -G
// options the RTL was verilated with; tb/flow.mk passes both).
#include <string>

#include "Vdut.h"
#include "tb.h"
#define RTL_B mdt
#include "tb_block.h" // the port glue, the C side, the checker
#undef RTL_B

static const mdt_config_t CFG = {TB_WARPS, TB_M, TB_WIDTH, TB_PC_W, TB_MCB};
static const int E = TB_WARPS * TB_M, W = TB_WIDTH;
static const block_ops_t *const B = &mdt_block_ops;

static uint64_t ones64(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static const int IDX_W = mdt_port_width(&CFG, MDT_P_idx), WARP_W = mdt_port_width(&CFG, MDT_P_warp);

// The pipeline's protocol (docs/blocks/mdt.md, "The block does not refuse
// anything itself"; the RTL's a_legal_op): this clock's operation and fill
// are ones cmodel/mech/dom.c could drive, given the outputs o and the
// registers q.
static bool legal(const mdt_state_t &q, const mdt_in_t &in, const mdt_out_t &o) {
    uint64_t lanes = ones64(W), mask = in.mask.w[0] & lanes, wl = o.wlanes.w[0];
    bool ok = true;
    if (in.op == MDT_OP_ALLOC)
        ok = in.warp < TB_WARPS && o.free && !o.hit && !o.mcb_full && in.idx == o.free_idx && !(mask & wl);
    else if (in.op == MDT_OP_MERGE)
        ok = o.hit && in.idx == o.hit_idx && !(mask & wl);
    else if (in.op == MDT_OP_FORCE)
        ok = in.warp < TB_WARPS;
    if (in.fill && (in.fill_idx >= E || (in.fill_mask.w[0] & lanes & ~q.e[in.fill_idx].wait.w[0])))
        ok = false;
    return ok;
}

// ------------------------------------------------------------------ coverage

#define COVER_POINTS(X)                                                                  \
    X(op_idle, "a clock without operation or fill")                                      \
    X(op_alloc, "alloc into a free entry")                                               \
    X(alloc_empty, "alloc without a thread (the entry stays free)")                      \
    X(alloc_over_valid, "alloc over a valid entry (wild)")                               \
    X(merge_new, "merge adding missed lanes")                                            \
    X(merge_reactivate, "merge re-activating ready lanes")                               \
    X(merge_frees, "merge leaving the entry without a thread: freed")                    \
    X(merge_keeps, "merge keeping some ready lanes, re-activating others")               \
    X(merge_keeps_all, "merge keeping every ready lane of an entry without waiting ones")   \
    X(merge_invalid, "merge on an invalid entry: nothing")                               \
    X(op_force, "force of a warp with valid entries")                                    \
    X(force_keeps_other, "force while another warp has a valid entry")                   \
    X(force_partial, "force of some of a warp's lanes: an entry keeps others")           \
    X(force_frees_one, "force emptying one entry of the warp, not another")               \
    X(fill_some, "fill moving some, not all, of an entry's waiting lanes")               \
    X(fill_all, "fill moving every waiting lane of an entry")                            \
    X(fill_nothing, "fill of no waiting lane")                                           \
    X(merge_and_fill, "merge and fill of one entry in one clock")                        \
    X(alloc_and_fill, "alloc and a fill of another entry in one clock")                  \
    X(force_and_fill, "force and a fill of the forced warp in one clock")                \
    X(hit_first, "hit in the warp's first entry")                                        \
    X(hit_later, "hit in a later entry of the warp (M >= 2)")                            \
    X(other_warp_pc, "no hit, another warp's entry at pc_i (WARPS >= 2)")               \
    X(warp_full, "the warp has no free entry")                                           \
    X(table_full, "every entry valid")                                                   \
    X(table_empty, "every entry free")                                                   \
    X(mcb_full, "mcb_full_o")                                                            \
    X(mcb_limits, "mcb_full_o while the warp has a free entry (MCB < entries)")          \
    X(warp_past, "warp_i past WARPS (WARPS not a power of two)")                         \
    X(idx_past, "an operation on an entry past the table")                               \
    X(legal_long, "2,000 clocks of the pipeline's protocol since reset")                 \
    X(reset_mid_run, "reset in the middle of a run")

TB_COVER_TABLES(COVER_POINTS);

static bool cov_applies(int k) {
    if (k == COV_hit_later || k == COV_force_frees_one) return TB_M >= 2;
    if (k == COV_other_warp_pc || k == COV_force_keeps_other) return TB_WARPS >= 2;
    if (k == COV_mcb_limits) return TB_MCB < E;
    if (k == COV_warp_past) return TB_WARPS < (1 << WARP_W);
    if (k == COV_idx_past) return E < (1 << IDX_W);
    return true;
}

static void cover(uint64_t *cov, const mdt_t &c, const mdt_in_t &in, const mdt_out_t &o, uint64_t legal_run) {
    const mdt_entry_t *q = c.q.e;
    const uint64_t lanes = ones64(W);
    int nv = 0;
    for (int i = 0; i < E; i++) nv += q[i].valid;
    if (nv == E) cov[COV_table_full]++;
    if (nv == 0) cov[COV_table_empty]++;
    if (o.mcb_full) cov[COV_mcb_full]++;
    if (o.mcb_full && o.free) cov[COV_mcb_limits]++;
    if (in.warp < TB_WARPS && !o.free) cov[COV_warp_full]++;
    if (in.warp >= TB_WARPS) cov[COV_warp_past]++;
    if (o.hit) cov[o.hit_idx == in.warp * TB_M ? COV_hit_first : COV_hit_later]++;
    if (!o.hit)
        for (int i = 0; i < E; i++)
            if (q[i].valid && i / TB_M != in.warp && q[i].pc == (in.pc & (uint32_t)ones64(TB_PC_W)))
                cov[COV_other_warp_pc]++;
    if (legal_run >= 2000) cov[COV_legal_long]++;
    if (!in.op && !in.fill) cov[COV_op_idle]++;
    const bool on_idx = (in.op == MDT_OP_ALLOC || in.op == MDT_OP_MERGE);
    if (on_idx && in.idx >= E) cov[COV_idx_past]++;
    const mdt_entry_t *me = on_idx && in.idx < E ? &q[in.idx] : nullptr;
    const uint64_t mask = in.mask.w[0] & lanes;
    if (me && in.op == MDT_OP_ALLOC) {
        cov[me->valid ? COV_alloc_over_valid : COV_op_alloc]++;
        if (!mask) cov[COV_alloc_empty]++;
        if (in.fill && in.fill_idx != in.idx) cov[COV_alloc_and_fill]++;
    }
    if (me && in.op == MDT_OP_MERGE) {
        if (!me->valid) cov[COV_merge_invalid]++;
        else {
            if (mask & ~me->wait.w[0]) cov[COV_merge_new]++;
            if (me->rdy.w[0]) cov[COV_merge_reactivate]++;
            if (!(me->wait.w[0] | mask | (me->rdy.w[0] & in.keep.w[0]))) cov[COV_merge_frees]++;
            const uint64_t kept = me->rdy.w[0] & in.keep.w[0];
            if (kept && kept != me->rdy.w[0]) cov[COV_merge_keeps]++;
            if (kept && kept == me->rdy.w[0] && !me->wait.w[0] && !mask) cov[COV_merge_keeps_all]++;
            if (in.fill && in.fill_idx == in.idx) cov[COV_merge_and_fill]++;
        }
    }
    if (in.op == MDT_OP_FORCE && in.warp < TB_WARPS) {
        bool mine = false, other = false;
        for (int i = 0; i < E; i++)
            if (q[i].valid) (i / TB_M == in.warp ? mine : other) = true;
        if (mine) cov[COV_op_force]++;
        int left = 0, freed = 0;
        for (int i = in.warp * TB_M; i < (in.warp + 1) * TB_M; i++)
            if (q[i].valid) ((q[i].wait.w[0] | q[i].rdy.w[0]) & ~mask ? left : freed)++;
        if (mine && left) cov[COV_force_partial]++;
        if (left && freed) cov[COV_force_frees_one]++;
        if (mine && other) cov[COV_force_keeps_other]++;
        if (mine && in.fill && in.fill_idx / TB_M == in.warp && q[in.fill_idx].valid) cov[COV_force_and_fill]++;
    }
    if (in.fill && in.fill_idx < E && !(in.op == MDT_OP_FORCE && in.fill_idx / TB_M == in.warp)) {
        uint64_t wait = q[in.fill_idx].wait.w[0];
        if (on_idx && in.idx == in.fill_idx) wait = in.op == MDT_OP_ALLOC ? mask : wait | mask;
        uint64_t back = wait & in.fill_mask.w[0];
        if (!back) cov[COV_fill_nothing]++;
        else if (back == wait) cov[COV_fill_all]++;
        else cov[COV_fill_some]++;
    }
}

// ------------------------------------------------------------------ random stimulus

enum Phase { FILL, DRAIN, MIX, FORCE, IDLE, NPHASES };

class Stimulus : public TbStimulus<glue_mdt::Glue> {
  public:
    explicit Stimulus(uint64_t seed) : rng_(seed) {
        for (auto &p : pcs_) p = (uint32_t)rng_.bits(TB_PC_W);
        new_segment();
    }
    void on_reset() {
        new_segment();
        legal_run_ = 0;
        since_reset_legal_ = true;
    }
    // The protocol kept since reset (the RTL's a_legal_q): a legal segment
    // that breaks it is a testbench bug.
    const char *check(const mdt_t &c, const mdt_in_t &in, const mdt_out_t &o) {
        const bool lawful = legal(c.q, in, o);
        since_reset_legal_ = since_reset_legal_ && lawful;
        legal_run_ = since_reset_legal_ ? legal_run_ + 1 : 0;
        legal_clocks_ += since_reset_legal_;
        return legal_ && !lawful ? "the legal stimulus broke the protocol (a testbench bug)" : nullptr;
    }
    void cover(uint64_t *cov, const mdt_t &c, const mdt_in_t &in, const mdt_out_t &o) {
        ::cover(cov, c, in, o, legal_run_);
    }
    // the lines wpusim writes: a clock with an operation or a fill
    bool logged(const mdt_t &, const mdt_in_t &in) const { return in.op || in.fill; }
    std::string report_more() const { return ", " + std::to_string(legal_clocks_) + " under the pipeline's protocol"; }
    // After a reset: legal (the pipeline's protocol) or wild, and a phase.
    void new_segment() {
        legal_ = rng_.chance(75);
        next_phase();
    }
    void next_phase() {
        phase_ = (Phase)rng_.below(NPHASES);
        left_ = 16 + rng_.below(phase_ == IDLE ? 64 : 400);
    }
    // The early inputs: the warp and the PC it issues.
    void early(const mdt_t &c, mdt_in_t &in) {
        if (left_-- == 0) next_phase();
        if (!legal_ && rng_.chance(8)) in.warp = (uint16_t)rng_.bits(WARP_W);
        else in.warp = (uint16_t)rng_.below(TB_WARPS);
        unsigned r = (unsigned)rng_.below(100);
        uint32_t pcm = (uint32_t)ones64(TB_PC_W);
        int k = in.warp < TB_WARPS ? in.warp * TB_M + (int)rng_.below(TB_M) : 0;
        if (r < 25 && c.q.e[k].valid) in.pc = c.q.e[k].pc;
        else if (r < 92) in.pc = pcs_[rng_.below(4)] & pcm;
        else in.pc = (uint32_t)rng_.next() & pcm;
    }
    // The operation and the fill, decided after looking at the outputs.
    void late(const mdt_t &c, const mdt_out_t &o, mdt_in_t &in) {
        mdt_in_t early{};
        early.warp = in.warp;
        early.pc = in.pc;
        in = early;
        if (legal_) legal_op(c, o, in);
        else wild_op(c, o, in);
    }
    bool reset_now() { return rng_.below(5000) == 0; }
    // Operation inputs that should not matter: shown before the real ones.
    void junk(mdt_in_t &in) {
        in.op = (uint8_t)rng_.bits(2);
        in.idx = (uint8_t)rng_.bits(IDX_W);
        in.mask.w[0] = rng_.next();
        in.keep.w[0] = rng_.next();
        in.fill = (uint8_t)rng_.bits(1);
        in.fill_idx = (uint8_t)rng_.bits(IDX_W);
        in.fill_mask.w[0] = rng_.next();
    }

  private:
    uint64_t subset(uint64_t m) {
        unsigned r = (unsigned)rng_.below(100);
        if (r < 35) return m;
        if (r < 45) return m & (0 - m); // the lowest lane
        return m & rng_.next();
    }
    // A fill of a waiting entry: its returned lanes (some, all).
    void legal_fill(const mdt_t &c, mdt_in_t &in, unsigned p) {
        int cand[64], n = 0;
        for (int i = 0; i < E; i++)
            if (wmask_any(&c.q.e[i].wait)) cand[n++] = i;
        if (!n || !rng_.chance(p)) return;
        int f = cand[rng_.below(n)];
        in.fill = 1;
        in.fill_idx = (uint8_t)f;
        in.fill_mask = wmask_none();
        in.fill_mask.w[0] = subset(c.q.e[f].wait.w[0]);
    }
    // As cmodel/mech/dom.c: a load/store of warp_i at pc_i (divergent, or
    // re-activating ready threads), a forced re-convergence, a fill.
    void legal_op(const mdt_t &c, const mdt_out_t &o, mdt_in_t &in) {
        unsigned p_mem = 60, p_div = 60, p_force = 2, p_fill = 30;
        switch (phase_) {
        case FILL: p_div = 90; p_force = 0; p_fill = 10; break;
        case DRAIN: p_div = 10; p_force = 1; p_fill = 70; break;
        case FORCE: p_force = 25; break;
        case IDLE: p_mem = 10; p_fill = 10; break;
        default: break;
        }
        const uint64_t lanes = ones64(W), idle = lanes & ~o.wlanes.w[0];
        in.mask = wmask_none();
        in.keep = wmask_none();
        if (rng_.chance(p_force)) { // every masked thread, or one stack level's
            in.op = MDT_OP_FORCE;
            in.mask.w[0] = rng_.chance(50) ? o.wlanes.w[0] : subset(o.wlanes.w[0]);
        } else if (rng_.chance(p_mem)) {
            uint64_t miss = rng_.chance(p_div) ? subset(idle) : 0;
            if (miss && o.hit) in.op = MDT_OP_MERGE, in.idx = o.hit_idx, in.mask.w[0] = miss;
            else if (miss && o.free && !o.mcb_full) in.op = MDT_OP_ALLOC, in.idx = o.free_idx, in.mask.w[0] = miss;
            else if (o.hit && wmask_any(&o.hit_rdy)) in.op = MDT_OP_MERGE, in.idx = o.hit_idx;
            else if (o.hit && rng_.chance(10)) in.op = MDT_OP_MERGE, in.idx = o.hit_idx; // no ready lane
            else if (!o.hit && o.free && !o.mcb_full && rng_.chance(3)) in.op = MDT_OP_ALLOC, in.idx = o.free_idx;
        }
        // a merge keeps some ready lanes (off the group's path, or at the slip limit)
        if (in.op == MDT_OP_MERGE && rng_.chance(30)) in.keep.w[0] = subset(o.hit_rdy.w[0]);
        legal_fill(c, in, p_fill);
    }
    // Anything: every operation on any entry, any lanes, any fill.
    void wild_op(const mdt_t &c, const mdt_out_t &o, mdt_in_t &in) {
        const uint64_t lanes = ones64(W);
        in.mask = wmask_none();
        if (phase_ == FILL && o.free && rng_.chance(70)) { // fill the table past the MCB's size
            in.op = MDT_OP_ALLOC;
            in.idx = o.free_idx;
            in.mask.w[0] = (rng_.next() & lanes) | (1ull << rng_.below(W));
            return;
        }
        in.op = (uint8_t)(rng_.chance(phase_ == IDLE ? 30 : 85) ? rng_.below(phase_ == FORCE ? 4 : 3) : 0);
        if (in.op == MDT_OP_FORCE && rng_.chance(50)) in.op = MDT_OP_MERGE;
        unsigned r = (unsigned)rng_.below(100);
        if (r < 35) in.idx = o.hit ? o.hit_idx : o.free_idx;
        else if (r < 60) in.idx = o.free_idx;
        else in.idx = (uint8_t)rng_.bits(IDX_W);
        r = (unsigned)rng_.below(100);
        if (r < 15) in.mask.w[0] = 0;
        else if (r < 50) in.mask.w[0] = subset(lanes & ~o.wlanes.w[0]);
        else in.mask.w[0] = rng_.next() & lanes;
        in.keep = wmask_none();
        in.keep.w[0] = rng_.chance(50) ? 0 : rng_.next() & lanes;
        if (rng_.chance(50)) legal_fill(c, in, 60);
        else if (rng_.chance(40)) {
            in.fill = 1;
            in.fill_idx = (uint8_t)(rng_.chance(50) ? in.idx : rng_.bits(IDX_W));
            in.fill_mask.w[0] = rng_.next() & lanes;
        }
    }
    Lfsr rng_;
    bool legal_ = true;
    Phase phase_ = MIX;
    uint64_t left_ = 0;
    uint32_t pcs_[4];
    // clocks of the protocol kept since reset: in a row (coverage), in all
    bool since_reset_legal_ = true;
    uint64_t legal_run_ = 0, legal_clocks_ = 0;
};

// ------------------------------------------------------------------ runs

struct Env : TbBlockEnv<Vdut, glue_mdt::Glue> {
    using TbBlockEnv::TbBlockEnv;
    // A replay also says whether every clock kept the pipeline's protocol.
    size_t broken = 0;
    long first_broken = 0;
    void replayed(const mdt_in_t &in, const mdt_out_t &out, const block_row_t &row) {
        if (!legal(c().q, in, out) && !broken++) first_broken = row.lineno;
    }
    void replay_done() const {
        if (broken)
            printf("mdt_tb: %zu clocks outside the pipeline's protocol, the first on line %ld\n", broken, first_broken);
        else
            printf("mdt_tb: every clock kept the pipeline's protocol\n");
    }
};

static int run_random(Env &v) {
    Stimulus gen(v.o.seed);
    return tb_random_run(v, gen, {COV_N, cov_name, cov_text, cov_applies, 18}, COV_reset_mid_run);
}

static int mdt_run(const TbOpts &o, TbRun &r, VerilatedContext *ctx) {
    return tb_run<Env>(o, r, ctx, B, &CFG, run_random);
}

int main(int argc, char **argv) { return tb_main(argc, argv, "mdt", mdt_run); }
