// Warp-split table testbench: the verilated rtl/ws_wst.sv (class Vdut, or
// the synthesized netlist under the same name) and the C block
// cmodel/blocks/wst.c run side by side, driven with the same inputs every
// clock; every output port is compared every clock (docs/rtl.md).
//
// Stimulus: constrained random from a seeded LFSR, in phases that fill the
// table, drain it, merge, saturate counters and idle, with resets in the
// middle of the run; or the replay of a port trace recorded by
// `wpusim --record-block wst=FILE` (or written by +log=FILE here), each
// WPU's lines from reset on consecutive clocks.
//
// The parameters come from the build (-DTB_ENTRIES=... matching the -G
// options the RTL was verilated with; tb/flow.mk passes both).

#include "Vdut.h"
#include "tb.h"
#define RTL_B wst
#include "tb_block.h" // the port glue, the C side, the checker
#undef RTL_B

static const wst_config_t CFG = {TB_ENTRIES, TB_WIDTH, TB_WARPS, TB_PC_W, TB_CNT_W, TB_MFC_W};
static const int E = TB_ENTRIES, W = TB_WIDTH;
static const block_ops_t *const B = &wst_block_ops;

static uint64_t ones64(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

// ------------------------------------------------------------------ coverage

#define COVER_POINTS(X)                                                                  \
    X(op_idle, "a clock without an operation")                                           \
    X(op_free, "free an entry")                                                          \
    X(op_set_invalid, "set a root into an invalid entry")                                \
    X(op_set_valid, "set a root over a valid entry")                                     \
    X(op_write_invalid, "operate on an invalid entry without set")                       \
    X(op_issue, "issue")                                                                 \
    X(op_resume, "issue with resume")                                                    \
    X(op_miss, "issue with a miss")                                                      \
    X(spawn_free_idx, "spawn into free_idx")                                             \
    X(spawn_free2_idx, "spawn into free2_idx (idx is the lowest free)")                  \
    X(spawn_refused, "spawn with no free entry other than idx")                          \
    X(table_full, "no free entry")                                                       \
    X(table_empty, "every entry free")                                                   \
    X(merge_one, "merge absorbs one entry")                                              \
    X(merge_many, "merge absorbs two or more entries")                                   \
    X(same_pc_not_elig, "same warp, pc = mpc, not eligible")                              \
    X(merge_with_spawn, "merge and spawn in one clock")                                  \
    X(lag_some, "lag_vec names an entry")                                                \
    X(lag_two_warps, "lag_vec names entries of two warps")                               \
    X(lag_tie, "lag: two entries of a warp tie on the lowest count")                     \
    X(latspec_true, "latspec_o = 1")                                                     \
    X(latspec_false, "latspec_o = 0 with idx valid")                                     \
    X(lat_saturated, "lat_i beyond MFC_W bits")                                          \
    X(icnt_saturated, "icnt at its maximum when issued (small CNT_W)")                   \
    X(mfc_saturated, "mfc at its maximum when issued (small MFC_W)")                     \
    X(sum_saturated, "the live entries' rMFC add up past MFC_W bits (small MFC_W)")      \
    X(reset_mid_run, "reset in the middle of a run")

TB_COVER_TABLES(COVER_POINTS);

// The counter-saturation points are only reachable with small counters.
static bool cov_applies(int k) {
    if (k == COV_icnt_saturated) return TB_CNT_W <= 8;
    if (k == COV_mfc_saturated || k == COV_sum_saturated) return TB_MFC_W <= 8;
    if (k == COV_lag_two_warps) return TB_WARPS >= 2 && TB_ENTRIES >= 4;
    return true;
}

static void cover(uint64_t *cov, const wst_t &c, const wst_in_t &in, const wst_out_t &o) {
    const wst_entry_t *me = &c.q.e[in.idx];
    uint32_t cnt_max = (uint32_t)ones64(TB_CNT_W), mfc_max = (uint32_t)ones64(TB_MFC_W);
    if (o.nfree == 0) cov[COV_table_full]++;
    {
        uint64_t live = 0; // sum-rMFC before saturation: the valid entries' rmfc
        for (int i = 0; i < E; i++)
            if (c.q.e[i].valid) live += c.q.e[i].rmfc;
        if (live > mfc_max) cov[COV_sum_saturated]++;
    }
    if (o.nfree == E) cov[COV_table_empty]++;
    if (o.lag_vec) cov[COV_lag_some]++;
    if (o.latspec) cov[COV_latspec_true]++;
    if (me->valid && !o.latspec) cov[COV_latspec_false]++;
    {
        uint64_t seen = 0;
        int nw = 0;
        for (int i = 0; i < E; i++)
            if ((o.lag_vec >> i) & 1) {
                if (!((seen >> c.q.e[i].warp) & 1)) nw++;
                seen |= 1ull << c.q.e[i].warp;
                for (int j = 0; j < E; j++)
                    if (j != i && c.q.e[j].valid && c.q.e[j].warp == c.q.e[i].warp && c.q.e[j].icnt == c.q.e[i].icnt)
                        cov[COV_lag_tie]++;
            }
        if (nw >= 2) cov[COV_lag_two_warps]++;
    }
    if (me->valid)
        for (int j = 0; j < E; j++)
            if (j != in.idx && c.q.e[j].valid && !((in.elig >> j) & 1) && c.q.e[j].warp == me->warp &&
                c.q.e[j].pc == (in.mpc & (uint32_t)ones64(TB_PC_W)))
                cov[COV_same_pc_not_elig]++;
    if (!in.op) { cov[COV_op_idle]++; return; }
    if (in.free) { cov[COV_op_free]++; return; }
    if (in.set) cov[me->valid ? COV_op_set_valid : COV_op_set_invalid]++;
    if (!in.set && !me->valid) cov[COV_op_write_invalid]++;
    if (in.lat > mfc_max && (in.set || (in.issue && in.miss))) cov[COV_lat_saturated]++;
    if (in.issue) {
        cov[COV_op_issue]++;
        if (in.resume) cov[COV_op_resume]++;
        if (in.miss) cov[COV_op_miss]++;
        if (!in.set && me->icnt == cnt_max) cov[COV_icnt_saturated]++;
        if (!in.set && !in.resume && me->mfc == mfc_max) cov[COV_mfc_saturated]++;
    }
    if (in.merge && o.merge_vec) {
        cov[(o.merge_vec & (o.merge_vec - 1)) ? COV_merge_many : COV_merge_one]++;
        if (in.spawn) cov[COV_merge_with_spawn]++;
    }
    if (in.spawn) {
        if (o.nfree > 0 && o.free_idx != in.idx) cov[COV_spawn_free_idx]++;
        else if (o.nfree > 1) cov[COV_spawn_free2_idx]++;
        else cov[COV_spawn_refused]++;
    }
}

// ------------------------------------------------------------------ random stimulus

enum Phase { FILL, DRAIN, MIX, MERGE, SATURATE, IDLE, NPHASES };

class Stimulus : public TbStimulus<glue_wst::Glue> {
  public:
    explicit Stimulus(uint64_t seed) : rng_(seed) {
        for (auto &p : pcs_) p = (uint32_t)rng_.bits(TB_PC_W);
        next_phase();
    }
    void next_phase() {
        phase_ = (Phase)rng_.below(NPHASES);
        left_ = 32 + rng_.below(phase_ == SATURATE ? 2048 : 512);
        sat_idx_ = (uint8_t)rng_.below(E);
    }
    // The early inputs: the entry and the eligible set.
    void early(const wst_t &c, wst_in_t &in) {
        if (left_-- == 0) next_phase();
        const wst_entry_t *e = c.q.e;
        int valid[64], nv = 0, inval[64], ni = 0;
        for (int i = 0; i < E; i++) (e[i].valid ? valid[nv++] : inval[ni++]) = i;
        unsigned r = (unsigned)rng_.below(100);
        if (phase_ == SATURATE && rng_.chance(95)) in.idx = sat_idx_;
        else if (r < 60 && nv) in.idx = (uint8_t)valid[rng_.below(nv)];
        else if (r < 85 && ni) in.idx = (uint8_t)inval[rng_.below(ni)];
        else in.idx = (uint8_t)rng_.below(E);
        r = (unsigned)rng_.below(100);
        uint64_t all = ones64(E);
        if (phase_ == MERGE || r < 45) in.elig = all;
        else if (r < 75) in.elig = rng_.next() & all;
        else if (r < 85) in.elig = 0;
        else in.elig = rng_.next() & rng_.next() & all;
        // the PC to merge at: mostly one the entries hold
        in.mpc = pick_pc(c.q.e[in.idx].pc);
    }
    // The operation, decided after looking at the outputs like a pipeline.
    void late(const wst_t &c, const wst_out_t &o, wst_in_t &in) {
        const wst_entry_t *me = &c.q.e[in.idx];
        uint64_t lanes = ones64(W);
        unsigned p_free = 4, p_set = 30, p_spawn = 20, p_op = 93;
        switch (phase_) {
        case FILL: p_free = 1; p_set = 70; p_spawn = 60; break;
        case DRAIN: p_free = 35; p_set = 3; p_spawn = 3; break;
        case MIX: break;
        case MERGE: p_free = 3; p_spawn = 30; break;
        case SATURATE: p_free = 0; p_set = 0; p_spawn = 5; break;
        case IDLE: p_op = 40; break;
        default: break;
        }
        wst_in_t early{};
        early.idx = in.idx;
        early.elig = in.elig;
        early.mpc = in.mpc;
        in = early;
        in.op = rng_.chance(p_op);
        in.free = rng_.chance(p_free);
        in.set = me->valid ? rng_.chance(phase_ == SATURATE ? 0 : 3) : rng_.chance(p_set);
        in.warp = (uint16_t)(rng_.chance(90) ? rng_.below(TB_WARPS) : rng_.bits(wst_warp_bits(&CFG)));
        in.pc = pick_pc(me->pc);
        in.mask.w[0] = pick_mask(lanes);
        in.st = (uint8_t)rng_.bits(2);
        in.issue = rng_.chance(phase_ == SATURATE ? 97 : 75);
        in.resume = rng_.chance(phase_ == SATURATE ? 3 : 25);
        in.miss = rng_.chance(phase_ == SATURATE ? 3 : 20);
        unsigned r = (unsigned)rng_.below(100);
        if (r < 30) in.lat = (uint32_t)rng_.below(32);
        else if (r < 60) in.lat = (uint32_t)rng_.below(512);
        else if (r < 70) in.lat = (uint32_t)rng_.next();
        else if (r < 95) in.lat = (uint32_t)(c.q.sum_rmfc + me->mfc + rng_.below(5)) - 2; // near latspec's edge
        else in.lat = 0;
        in.merge = o.merge_vec ? rng_.chance(phase_ == MERGE ? 80 : 50) : rng_.chance(5);
        in.spawn = rng_.chance(p_spawn);
        in.pc_b = pick_pc(me->pc);
        in.mask_b.w[0] = rng_.chance(50) ? (~in.mask.w[0] & lanes) : pick_mask(lanes);
        in.st_b = (uint8_t)rng_.bits(2);
    }
    bool reset_now() { return rng_.below(6000) == 0; }
    void cover(uint64_t *cov, const wst_t &c, const wst_in_t &in, const wst_out_t &o) { ::cover(cov, c, in, o); }
    // the lines wpusim writes: a clock with an operation
    bool logged(const wst_t &, const wst_in_t &in) const { return in.op; }
    // Operation inputs that should not matter: shown before the real ones.
    void junk(wst_in_t &in) {
        in.op = (uint8_t)rng_.bits(1); in.free = (uint8_t)rng_.bits(1); in.set = (uint8_t)rng_.bits(1);
        in.warp = (uint16_t)rng_.bits(16); in.pc = (uint32_t)rng_.next(); in.mask.w[0] = rng_.next();
        in.st = (uint8_t)rng_.bits(2); in.issue = (uint8_t)rng_.bits(1); in.resume = (uint8_t)rng_.bits(1);
        in.miss = (uint8_t)rng_.bits(1); in.lat = (uint32_t)rng_.next(); in.merge = (uint8_t)rng_.bits(1);
        in.spawn = (uint8_t)rng_.bits(1); in.pc_b = (uint32_t)rng_.next(); in.mask_b.w[0] = rng_.next();
        in.st_b = (uint8_t)rng_.bits(2);
    }

  private:
    uint32_t pick_pc(uint32_t cur) {
        unsigned r = (unsigned)rng_.below(100);
        uint32_t pcm = (uint32_t)ones64(TB_PC_W);
        if (r < 45) return cur;
        if (r < 90) return pcs_[rng_.below(phase_ == MERGE ? 2 : 4)] & pcm;
        return (uint32_t)rng_.next() & pcm;
    }
    uint64_t pick_mask(uint64_t lanes) {
        unsigned r = (unsigned)rng_.below(100);
        if (r < 8) return 0;
        if (r < 18) return lanes;
        return rng_.next() & lanes;
    }
    Lfsr rng_;
    Phase phase_ = MIX;
    uint64_t left_ = 0;
    uint8_t sat_idx_ = 0;
    uint32_t pcs_[4];
};

// ------------------------------------------------------------------ runs

typedef TbBlockEnv<Vdut, glue_wst::Glue> Env;

static int run_random(Env &v) {
    Stimulus gen(v.o.seed);
    return tb_random_run(v, gen, {COV_N, cov_name, cov_text, cov_applies, 18}, COV_reset_mid_run);
}

static int wst_run(const TbOpts &o, TbRun &r, VerilatedContext *ctx) {
    return tb_run<Env>(o, r, ctx, B, &CFG, run_random);
}

int main(int argc, char **argv) { return tb_main(argc, argv, "wst", wst_run); }
