// Adaptive slip controller testbench: the verilated rtl/ws_asc.sv (class
// Vdut, or the synthesized netlist under the same name) and the C block
// cmodel/blocks/asc.c run side by side, driven with the same inputs every
// clock; every output port is compared every clock (docs/rtl.md).
//
// Stimulus: constrained random from a seeded LFSR, in phases that make one
// warp run ahead until its counters saturate, let the tail catch up, clear
// warps, and drive the sampling period's counts at the edges of adaptive
// diff's thresholds (raising the max slip to its top, lowering it to 1),
// with resets in the middle of the run; or the replay of a port trace
// recorded by `wpusim --record-block asc=FILE` (or written by +log=FILE
// here, or a hand-worked test's .in with its .expect), each WPU's lines from
// reset on consecutive clocks.
//
// The parameters come from the build (-DTB_WIDTH=... matching the -G
// options the RTL was verilated with; tb/flow.mk passes both). A warp's
// counters are WIDTH * CNT_W bits (256 at 002's sizes): the port glue
// (tb/common/block_glue.inc) handles any width of the RTL's ports (VlWide)
// and of the C masks (wmask_t).
#include "Vdut.h"
#include "tb.h"
#define RTL_B asc
#include "tb_block.h" // the port glue, the C side, the checker
#undef RTL_B

static const asc_config_t CFG = {TB_WIDTH, TB_WARPS, TB_CNT_W, TB_MAX0};
static const int W = TB_WIDTH, N = TB_WARPS;
static const unsigned CNT_MAX = (1u << TB_CNT_W) - 1;
static const block_ops_t *const B = &asc_block_ops;

static unsigned counter(const asc_t &c, int w, int t) { return asc_counter(&c.q.e[w].cnt, TB_CNT_W, t); }

// ------------------------------------------------------------------ coverage

#define COVER_POINTS(X)                                                                       \
    X(ev_idle, "a clock without an event")                                                    \
    X(ev_clr, "re-assignment (clr_i) of a warp with a counter above 0")                       \
    X(ev_clr_mem, "clr_i and mem_i in one clock (mem_i ignored)")                             \
    X(ev_up_undiverged, "diverge event of an undiverged warp (dvg_i = 0): the hits count up") \
    X(ev_up_ahead, "... with a considered thread at 0 hitting (a tail thread moves ahead)")   \
    X(ev_still_diverged, "diverge event of a diverged warp, a tail-end thread did not hit")   \
    X(ev_down_tail_hit, "diverge event, every tail-end thread hit: the misses count down")   \
    X(ev_down_no_tail, "diverge event with no considered thread at 0 (empty tail)")           \
    X(ev_catch_up, "all issuing threads hit, limit bits set: the limited threads count down") \
    X(ev_all_hit, "all issuing threads hit, no limit bit: no change")                         \
    X(ev_blocked, "a blocked instruction with misses (div_i = 0): no change")                 \
    X(ev_all_miss, "a diverge flag with no hit: no change")                                   \
    X(ev_hit_miss_both, "a thread in both hit_i and miss_i (counts as a hit)")                \
    X(ev_outside_act, "hit_i/miss_i bits outside act_i (ignored)")                            \
    X(act_partial, "an event with act_i not every thread (branch-inactive threads)")         \
    X(cnt_saturated, "a counter at 2^CNT_W-1 counted up (stays)")                             \
    X(lim_set, "a limit bit set by an event")                                                 \
    X(lim_cleared, "a limit bit cleared by an event")                                         \
    X(lim_stale, "a limit bit out of date with the max slip (max moved since)")               \
    X(block_true, "block_o = 1")                                                              \
    X(limit_partial, "limit_o names some, not all, considered threads")                      \
    X(limit_all, "every considered thread limited: block_o = 1, limit_o = 0")                 \
    X(dir_raise, "sample_i with dir_o = raise")                                               \
    X(dir_keep, "sample_i with dir_o = keep")                                                 \
    X(dir_lower, "sample_i with dir_o = lower")                                               \
    X(max_top, "raise at max slip 2^CNT_W-1 (stays)")                                         \
    X(max_bottom, "lower at max slip 1 (stays)")                                              \
    X(sample_mem, "sample_i in the clock of a memory instruction")                            \
    X(alu_edge, "4*busy_i == 3*cycles_i (ALU-bound at equality)")                             \
    X(lat_edge, "8*memwait_i == cycles_i (latency-bound at equality)")                        \
    X(bw_edge, "bytes_i == share_i (not bandwidth-bound at equality)")                        \
    X(over_edge, "8*bytes_i == 9*share_i (in the band at equality)")                          \
    X(keep_alu_lat, "keep: ALU- and latency-bound at once")                                   \
    X(keep_bw_band, "keep: bandwidth-bound within 9/8 of the share, latency-bound")           \
    X(lower_over, "lower: bandwidth-bound beyond 9/8 of the share, latency-bound")            \
    X(big_counts, "period counts of 2^31 or more (35-bit products)")                          \
    X(reset_mid_run, "reset in the middle of a run")

TB_COVER_TABLES(COVER_POINTS);

static bool cov_applies(int k) {
    switch (k) {
    case COV_ev_idle: case COV_ev_clr_mem: case COV_ev_all_hit: case COV_ev_blocked: case COV_ev_all_miss:
    case COV_ev_hit_miss_both: case COV_ev_outside_act: case COV_act_partial: case COV_dir_keep: case COV_max_top: case COV_max_bottom: case COV_sample_mem: case COV_alu_edge:
    case COV_lat_edge: case COV_bw_edge: case COV_over_edge: case COV_keep_alu_lat: case COV_keep_bw_band:
    case COV_lower_over: case COV_big_counts: case COV_reset_mid_run:
        return true;
    case COV_dir_raise: case COV_dir_lower: // a move (not at a bound): CNT_W >= 2
        return CNT_MAX >= 2;
    case COV_lim_stale: // the max slip must be able to move
        return W >= 2 && CNT_MAX >= 2;
    case COV_ev_down_no_tail: // two considered threads above 0 (a third at 0 made them climb)
        return W >= 3;
    default: // every counter moves through diverge events: a hit and a miss
        return W >= 2;
    }
}

static void cover(uint64_t *cov, const asc_t &c, const asc_in_t &in, const asc_out_t &o) {
    const uint64_t cyc = in.cycles, busy = in.busy, mw = in.memwait, by = in.bytes, sh = in.share;
    if (4 * busy == 3 * cyc) cov[COV_alu_edge]++;
    if (8 * mw == cyc) cov[COV_lat_edge]++;
    if (by == sh) cov[COV_bw_edge]++;
    if (8 * by == 9 * sh) cov[COV_over_edge]++;
    if (o.block) cov[COV_block_true]++;
    if (o.block && !wmask_any(&o.limit)) cov[COV_limit_all]++;
    if (wmask_any(&o.limit)) cov[COV_limit_partial]++;
    if (in.sample) {
        if (o.dir == ASC_RAISE) cov[c.q.max_slip == CNT_MAX ? COV_max_top : COV_dir_raise]++;
        if (o.dir == ASC_KEEP) cov[COV_dir_keep]++;
        if (o.dir == ASC_LOWER) cov[c.q.max_slip == 1 ? COV_max_bottom : COV_dir_lower]++;
        if (o.dir == ASC_KEEP && o.alu && !o.bw) cov[COV_keep_alu_lat]++;
        if (o.dir == ASC_KEEP && o.bw) cov[COV_keep_bw_band]++;
        if (o.dir == ASC_LOWER && o.bw && o.lat) cov[COV_lower_over]++;
        if ((cyc | busy | mw | by | sh) >> 31) cov[COV_big_counts]++;
        if (in.mem && !in.clr) cov[COV_sample_mem]++;
    }
    // the registers: a stale limit bit
    for (int w = 0; w < N; w++)
        for (int t = 0; t < W; t++)
            if (wmask_test(&c.q.e[w].lim, t) != (counter(c, w, t) >= c.q.max_slip)) {
                cov[COV_lim_stale]++;
                w = N;
                break;
            }
    if (!in.clr && !in.mem) {
        if (!in.sample) cov[COV_ev_idle]++;
        return;
    }
    if (in.warp >= N) return;
    const asc_entry_t &e = c.q.e[in.warp];
    const wmask_t lanes = wmask_first(W), act = wmask_and(in.act, lanes);
    if (in.clr) {
        if (wmask_any(&e.cnt)) cov[COV_ev_clr]++;
        if (in.mem) cov[COV_ev_clr_mem]++;
        return;
    }
    if (!wmask_eq(&act, &lanes)) cov[COV_act_partial]++;
    wmask_t hm = wmask_and(wmask_and(in.hit, in.miss), act);
    if (wmask_any(&hm)) cov[COV_ev_hit_miss_both]++;
    wmask_t out_hm = wmask_andnot(wmask_and(wmask_or(in.hit, in.miss), lanes), act);
    if (wmask_any(&out_hm)) cov[COV_ev_outside_act]++;
    const wmask_t hit = wmask_and(in.hit, act), miss = wmask_andnot(wmask_and(in.miss, act), hit);
    const wmask_t lim = wmask_and(e.lim, act);
    wmask_t tail = wmask_none();
    for (int t = 0; t < W; t++)
        if (wmask_test(&act, t) && counter(c, in.warp, t) == 0) wmask_set(&tail, t);
    const wmask_t tail_missed = wmask_andnot(tail, hit), tail_hit = wmask_and(tail, hit);
    wmask_t up = wmask_none();
    if (in.div && wmask_any(&hit) && wmask_any(&miss)) {
        if (!in.dvg) {
            cov[COV_ev_up_undiverged]++;
            if (wmask_any(&tail_hit)) cov[COV_ev_up_ahead]++;
            up = hit;
        } else if (wmask_any(&tail_missed)) {
            cov[COV_ev_still_diverged]++;
        } else {
            cov[wmask_any(&tail) ? COV_ev_down_tail_hit : COV_ev_down_no_tail]++;
        }
    } else if (wmask_any(&hit) && !wmask_any(&miss)) {
        cov[wmask_any(&lim) ? COV_ev_catch_up : COV_ev_all_hit]++;
    } else if (!in.div && wmask_any(&miss)) {
        cov[COV_ev_blocked]++;
    } else if (in.div && !wmask_any(&hit)) {
        cov[COV_ev_all_miss]++;
    }
    for (int t = 0; t < W; t++)
        if (wmask_test(&up, t) && counter(c, in.warp, t) == CNT_MAX) cov[COV_cnt_saturated]++;
}

// After the edge: the limit bits an event changed.
static void cover_after(uint64_t *cov, const asc_entry_t &before, const asc_t &c, const asc_in_t &in) {
    if (!in.mem || in.clr || in.warp >= N) return;
    const wmask_t &now = c.q.e[in.warp].lim;
    wmask_t set = wmask_andnot(now, before.lim), cleared = wmask_andnot(before.lim, now);
    if (wmask_any(&set)) cov[COV_lim_set]++;
    if (wmask_any(&cleared)) cov[COV_lim_cleared]++;
}

// ------------------------------------------------------------------ random stimulus

// MIX: anything; RUNAHEAD: one warp, fixed leaders hit, the rest miss,
// diverge (counters climb to saturation); CATCHUP: one warp's unlimited
// threads all hit; TAILHIT: diverge events where the tail hits; ADAPT:
// frequent samples pushing the max slip up or down; CLEAR: re-assignments;
// IDLE: few events.
enum Phase { MIX, RUNAHEAD, CATCHUP, TAILHIT, ADAPT, CLEAR, IDLE, NPHASES };

class Stimulus : public TbStimulus<glue_asc::Glue> {
  public:
    explicit Stimulus(uint64_t seed) : rng_(seed) { next_phase(); }
    void next_phase() {
        phase_ = (Phase)rng_.below(NPHASES);
        left_ = 32 + rng_.below(phase_ == RUNAHEAD || phase_ == ADAPT ? 2048 : 512);
        warp_ = (uint16_t)rng_.below(N);
        lead_ = rand_mask(W);
        if (!wmask_any(&lead_)) wmask_set(&lead_, 0);
        act_all_ = rng_.chance(60);
        act_ = act_all_ ? wmask_first(W) : wmask_or(rand_mask(W), lead_);
        up_ = rng_.chance(50);
    }
    // The early inputs: the warp, its active threads, the period's counts.
    void early(const asc_t &, asc_in_t &in) {
        if (left_-- == 0) next_phase();
        const bool fixed = phase_ == RUNAHEAD || phase_ == CATCHUP || phase_ == TAILHIT;
        in.warp = (uint16_t)(fixed && rng_.chance(95) ? warp_ : rng_.below(N));
        if (fixed && rng_.chance(95)) in.act = act_;
        else if (rng_.chance(60)) in.act = wmask_first(W);
        else if (rng_.chance(10)) in.act = wmask_none();
        else in.act = rand_mask(W);
        period(in);
    }
    // The event, decided after looking at the outputs like a pipeline.
    void late(const asc_t &c, const asc_out_t &o, asc_in_t &in) {
        asc_in_t e{};
        e.warp = in.warp;
        e.act = in.act;
        e.cycles = in.cycles, e.busy = in.busy, e.memwait = in.memwait, e.bytes = in.bytes, e.share = in.share;
        in = e;
        const wmask_t lanes = wmask_first(W);
        const wmask_t act = in.act;
        unsigned p_mem = 70, p_clr = 1, p_sample = 2;
        switch (phase_) {
        case RUNAHEAD: p_mem = 90; p_clr = 0; break;
        case CATCHUP: p_mem = 90; p_clr = 0; break;
        case TAILHIT: p_mem = 90; p_clr = 0; break;
        case ADAPT: p_sample = 30; break;
        case CLEAR: p_clr = 25; break;
        case IDLE: p_mem = 10; p_clr = 0; p_sample = 1; break;
        default: break;
        }
        in.clr = rng_.chance(p_clr);
        in.mem = rng_.chance(p_mem);
        in.sample = rng_.chance(p_sample);
        // a pipeline does not diverge a blocked warp (mostly); the warp is
        // diverged (has masked threads) about half the time
        in.div = o.block ? rng_.chance(5) : rng_.chance(75);
        in.dvg = rng_.chance(50);
        wmask_t h;
        switch (phase_) {
        case RUNAHEAD: h = wmask_and(lead_, act); in.div = rng_.chance(90); in.dvg = rng_.chance(15); break;
        case CATCHUP: h = wmask_andnot(act, o.limit); in.div = rng_.chance(50); break;
        case TAILHIT: {
            // the tail hits, some leaders miss
            wmask_t tail = wmask_none();
            for (int t = 0; t < W; t++)
                if (wmask_test(&act, t) && counter(c, in.warp < N ? in.warp : 0, t) == 0) wmask_set(&tail, t);
            h = wmask_or(tail, wmask_and(rand_mask(W), act));
            in.div = rng_.chance(90);
            in.dvg = rng_.chance(85);
            break;
        }
        default: h = wmask_and(rand_mask(W), act); break;
        }
        wmask_t m = wmask_andnot(act, h);
        if (phase_ == CATCHUP && rng_.chance(80)) m = wmask_none();
        else if (rng_.chance(5)) m = wmask_none();
        else if (rng_.chance(5)) h = wmask_none();
        if (rng_.chance(4)) m = wmask_or(m, wmask_and(rand_mask(W), act)); // overlaps
        if (rng_.chance(4)) h = wmask_or(h, wmask_and(rand_mask(W), lanes)); // outside act
        in.hit = h;
        in.miss = m;
    }
    bool reset_now() { return rng_.below(7000) == 0; }
    // the entry of this clock's warp before the edge, for the points after it
    void cover(uint64_t *cov, const asc_t &c, const asc_in_t &in, const asc_out_t &o) {
        ::cover(cov, c, in, o);
        before_ = c.q.e[in.warp < N ? in.warp : 0];
    }
    void after_edge(uint64_t *cov, const asc_t &c, const asc_in_t &in) { cover_after(cov, before_, c, in); }
    // the lines wpusim writes: a clock with an event
    bool logged(const asc_t &, const asc_in_t &in) const { return in.clr || in.mem || in.sample; }
    // Event inputs that should not matter: shown before the real ones.
    void junk(asc_in_t &in) {
        in.clr = (uint8_t)rng_.bits(1);
        in.mem = (uint8_t)rng_.bits(1);
        in.div = (uint8_t)rng_.bits(1);
        in.dvg = (uint8_t)rng_.bits(1);
        in.hit = rand_mask(W);
        in.miss = rand_mask(W);
        in.sample = (uint8_t)rng_.bits(1);
    }

  private:
    wmask_t rand_mask(int bits) {
        wmask_t m = wmask_none();
        for (int i = 0; i * 64 < bits; i++) m.w[i] = rng_.next();
        return wmask_and(m, wmask_first(bits));
    }
    // The period's counts: mostly at or near each threshold.
    void period(asc_in_t &in) {
        unsigned r = (unsigned)rng_.below(100);
        uint64_t cyc = r < 10 ? rng_.bits(32) : r < 20 ? rng_.below(64) : 1000 + rng_.below(200000);
        if (phase_ == ADAPT && rng_.chance(70)) cyc = 100000;
        uint64_t busy, mw, by, sh;
        // busy around 3/4, memwait around 1/8, bytes around the share or 9/8 of it
        if (rng_.chance(40)) {
            busy = (3 * cyc) / 4 + rng_.below(5) - 2;
        } else {
            busy = rng_.below(cyc + 1);
        }
        mw = rng_.chance(40) ? cyc / 8 + rng_.below(5) - 2 : rng_.below(cyc + 1);
        sh = rng_.chance(15) ? rng_.bits(32) : rng_.below(500000);
        r = (unsigned)rng_.below(100);
        if (r < 25) by = sh + rng_.below(5) - 2;
        else if (r < 50) by = (9 * sh) / 8 + rng_.below(5) - 2;
        else if (r < 60) by = rng_.bits(32);
        else by = rng_.below(2 * sh + 2);
        if (phase_ == ADAPT) {
            if (up_) { // neither ALU- nor bandwidth-bound: raise
                busy = rng_.below(cyc / 2 + 1);
                by = rng_.below(sh + 1);
            } else if (rng_.chance(80)) { // ALU-bound, not latency-bound: lower
                busy = cyc;
                mw = 0;
            }
        }
        in.cycles = (uint32_t)cyc;
        in.busy = (uint32_t)busy;
        in.memwait = (uint32_t)mw;
        in.bytes = (uint32_t)by;
        in.share = (uint32_t)sh;
    }
    Lfsr rng_;
    Phase phase_ = MIX;
    uint64_t left_ = 0;
    uint16_t warp_ = 0;
    wmask_t lead_{}, act_{};
    bool act_all_ = true, up_ = true;
    asc_entry_t before_{};
};

// ------------------------------------------------------------------ runs

typedef TbBlockEnv<Vdut, glue_asc::Glue> Env;

static int run_random(Env &v) {
    Stimulus gen(v.o.seed);
    return tb_random_run(v, gen, {COV_N, cov_name, cov_text, cov_applies, 18}, COV_reset_mid_run);
}

static int asc_run(const TbOpts &o, TbRun &r, VerilatedContext *ctx) {
    return tb_run<Env>(o, r, ctx, B, &CFG, run_random);
}

int main(int argc, char **argv) { return tb_main(argc, argv, "asc", asc_run); }
