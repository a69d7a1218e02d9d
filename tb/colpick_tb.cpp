// Sub-warp column picker testbench: the verilated rtl/ws_colpick.sv (class
// Vdut, or the synthesized netlist under the same name) and the C block
// cmodel/blocks/colpick.c run side by side, driven with the same inputs
// every clock; every output port is compared every clock (docs/rtl.md).
//
// Stimulus: constrained random from a seeded LFSR, in phases that behave
// like the LWM pipeline (load only when stall_o fell, dependency bits of
// threads in flight, refusals and set-asides), stress the dependency bits,
// drive anything at all (loads over a busy copy, drop with take, mask_i and
// one_i without load_i) and idle, with resets in the middle of the run; or
// the replay of a port trace recorded by `wpusim --record-block
// colpick=FILE` (or written by +log=FILE here, or a hand-worked test's .in
// with +expect=its .expect), each WPU's lines from reset on consecutive clocks.
//
// Its C masks hold 512 lanes (TB_LANES_colpick, tb/flow.mk), so one C
// picker holds 004's largest large warp (512 threads, Fig. 10: set k16),
// which wpusim's masks (256 lanes) do not.
//
// The parameters come from the build (-DTB_ROWS=... matching the -G options
// the RTL was verilated with; tb/flow.mk passes both).

#include "Vdut.h"
#include "tb.h"
#define RTL_B colpick
#include "tb_block.h" // the port glue, the C side, the checker
#undef RTL_B

static const int K = TB_ROWS, N = TB_COLS, T = TB_ROWS * TB_COLS;
static_assert(TB_ROWS * TB_COLS <= WSIM_MAX_LANES, "colpick_tb: ROWS x COLS must fit the C masks (TB_LANES_colpick, tb/flow.mk)");
static const colpick_config_t CFG = {TB_ROWS, TB_COLS};
static const block_ops_t *const B = &colpick_block_ops;

static const wmask_t ALL = wmask_first(T);                                   // every thread of the large warp
static const wmask_t LAST_ROW = wmask_andnot(wmask_first(T), wmask_first(T - N)); // row ROWS-1

static wmask_t one_bit(int t) {
    wmask_t m = wmask_none();
    wmask_set(&m, t);
    return m;
}

// ------------------------------------------------------------------ coverage

#define COVER_POINTS(X)                                                                   \
    X(idle, "no load, empty working copy")                                                \
    X(load_full, "load of a full mask (every thread active)")                             \
    X(load_empty, "load of an empty mask")                                                \
    X(load_diverged, "load of a partial mask")                                            \
    X(load_busy, "load over a non-empty working copy")                                    \
    X(sub_full, "a sub-warp fills every lane")                                            \
    X(sub_partial, "a sub-warp fills some lanes, not all")                                \
    X(sub_one, "a sub-warp of one thread")                                                \
    X(dep_nothing, "bits remain but every one is dep: nothing picked, stall stays")      \
    X(dep_skip, "a column skips a dep thread for a lower row")                            \
    X(last_row, "row ROWS-1 picked")                                                      \
    X(all_rows, "one instruction broken into ROWS full sub-warps")                        \
    X(multi_sub, "stall_o with a taken sub-warp (more to come)")                          \
    X(last_sub, "stall_o falls on a taken sub-warp of a busy copy")                       \
    X(one_shot, "a full sub-warp, no stall, in the load clock")                           \
    X(jump, "a jump taken: one sub-warp, the rest dropped")                               \
    X(jump_dep, "a jump picks threads that are dep")                                      \
    X(jump_refused, "a jump refused (take_i 0)")                                          \
    X(no_load_mask, "mask_i / one_i driven without load_i (ignored)")                     \
    X(refused, "a sub-warp refused, the copy kept")                                       \
    X(refused_load, "a load's sub-warp refused: the whole mask kept")                     \
    X(drop_refused, "drop with take_i 0 (set aside)")                                     \
    X(drop_taken, "drop with take_i 1")                                                   \
    X(reset_mid_run, "reset in the middle of a run")

TB_COVER_TABLES(COVER_POINTS);

static bool cov_applies(int k) {
    if (k == COV_sub_partial) return N >= 2;
    if (k == COV_sub_one) return N >= 2; // with one lane it is sub_full
    if (k == COV_dep_skip || k == COV_multi_sub || k == COV_last_sub) return K >= 2;
    if (k == COV_load_diverged) return T >= 2;
    return true;
}

// work: the working copy before this clock (the registered read port).
static void cover(uint64_t *cov, const colpick_in_t &in, const colpick_out_t &out, const wmask_t &work, int &full_run) {
    const bool load = in.load, one = in.one, take = in.take, drop = in.drop;
    const bool jmp = load && one, stall = out.stall;
    const wmask_t &mask = in.mask, &dep = in.dep, &pick = out.pick;
    const wmask_t src = load ? mask : work, src_dep = wmask_and(src, dep);
    const wmask_t pick_last = wmask_and(pick, LAST_ROW), pick_dep = wmask_and(pick, dep);
    const int cnt = out.cnt;
    const bool busy = wmask_any(&work), any_src = wmask_any(&src);
    if (!load && !busy) cov[COV_idle]++;
    if (load) {
        if (wmask_eq(&mask, &ALL)) cov[COV_load_full]++;
        else if (!wmask_any(&mask)) cov[COV_load_empty]++;
        else cov[COV_load_diverged]++;
        if (busy) cov[COV_load_busy]++;
    }
    if (!load && (one || wmask_any(&mask))) cov[COV_no_load_mask]++;
    if (cnt == N) cov[COV_sub_full]++;
    if (cnt > 0 && cnt < N) cov[COV_sub_partial]++;
    if (cnt == 1 && N >= 2) cov[COV_sub_one]++;
    if (!jmp && any_src && cnt == 0 && stall) cov[COV_dep_nothing]++;
    if (!jmp && wmask_any(&src_dep)) {
        for (int c = 0; c < N; c++) { // the lowest src row of c is dep and c picked a lower one
            int low = -1, got = -1;
            for (int r = K - 1; r >= 0; r--) {
                if (wmask_test(&src, r * N + c)) low = r;
                if (wmask_test(&pick, r * N + c)) got = r;
            }
            if (low >= 0 && got > low && wmask_test(&dep, low * N + c)) { cov[COV_dep_skip]++; break; }
        }
    }
    if (wmask_any(&pick_last)) cov[COV_last_row]++;
    // ROWS full sub-warps of one instruction, taken back to back
    if (take && !drop && !jmp && cnt == N) {
        full_run = load ? 1 : full_run + 1;
        if (full_run == K && !stall) cov[COV_all_rows]++;
    } else if (!(load == 0 && !take)) {
        full_run = 0;
    }
    if (take && !drop && !jmp && stall && cnt > 0) cov[COV_multi_sub]++;
    if (take && !drop && !jmp && !stall && !load && busy) cov[COV_last_sub]++;
    if (load && !one && take && cnt == N && !stall) cov[COV_one_shot]++;
    if (jmp && take) {
        cov[COV_jump]++;
        if (wmask_any(&pick_dep)) cov[COV_jump_dep]++;
    }
    if (jmp && !take) cov[COV_jump_refused]++;
    if (!take && !drop && any_src) cov[load ? COV_refused_load : COV_refused]++;
    if (drop && any_src) cov[take ? COV_drop_taken : COV_drop_refused]++;
}

// ------------------------------------------------------------------ random stimulus

// PIPE behaves as the LWM pipeline does; DEP keeps most threads in flight;
// WILD drives anything; IDLE mostly nothing.
enum Phase { PIPE, DEP, WILD, IDLE, NPHASES };

class Stimulus : public TbStimulus<glue_colpick::Glue> {
  public:
    explicit Stimulus(uint64_t seed) : rng_(seed) { next_phase(); }
    void next_phase() {
        unsigned r = (unsigned)rng_.below(100);
        phase_ = r < 50 ? PIPE : r < 70 ? DEP : r < 92 ? WILD : IDLE;
        left_ = 32 + rng_.below(1000);
    }
    // The early inputs, from the working copy (the registered read port).
    void early(const colpick_t &c, colpick_in_t &in) {
        const wmask_t &work = c.q.work;
        if (left_-- == 0) next_phase();
        bool busy = wmask_any(&work);
        bool load;
        switch (phase_) {
        case PIPE: case DEP: load = !busy && rng_.chance(70); break;
        case WILD: load = rng_.chance(busy ? 20 : 50); break;
        default: load = !busy && rng_.chance(5); break;
        }
        in.load = load;
        in.one = load ? rng_.chance(8) : (phase_ == WILD && rng_.chance(20));
        in.mask = load || (phase_ == WILD && rng_.chance(30)) ? wmask_and(pick_mask(), ALL) : wmask_none();
        const wmask_t src = load ? in.mask : work;
        // dependency bits: threads of the last sub-warps still in flight
        unsigned r = (unsigned)rng_.below(100);
        if (phase_ == DEP) {
            if (r < 30) in.dep = src;
            else if (r < 80) in.dep = wmask_and(rand_bits(3), ALL); // ~7/8 of the bits
            else in.dep = wmask_and(rand_bits(1), ALL);
        } else if (phase_ == WILD) {
            in.dep = r < 50 ? wmask_and(rand_bits(1), ALL) : r < 60 ? ALL : wmask_none();
        } else if (r < 55) {
            in.dep = wmask_none();
        } else if (r < 85) {
            const wmask_t some = rand_bits(2), half = rand_bits(0);
            in.dep = wmask_and(wmask_andnot(some, half), ALL);
        } else {
            in.dep = wmask_and(rand_bits(1), src);
        }
    }
    // The late inputs, decided after looking at the sub-warp.
    void late(const colpick_t &, const colpick_out_t &, colpick_in_t &in) {
        bool take, drop;
        unsigned r = (unsigned)rng_.below(100);
        switch (phase_) {
        case PIPE: take = r >= 6; drop = r < 3; break; // refusals: half set aside
        case DEP: take = r >= 3; drop = false; break;
        case WILD: take = rng_.chance(70); drop = rng_.chance(10); break;
        default: take = true; drop = false; break;
        }
        in.take = take;
        in.drop = drop;
    }
    bool reset_now() { return rng_.below(6000) == 0; }
    void on_reset() { full_run_ = 0; }
    void cover(uint64_t *cov, const colpick_t &c, const colpick_in_t &in, const colpick_out_t &o) {
        ::cover(cov, in, o, c.q.work, full_run_);
    }
    // the lines wpusim writes: a clock with a load or a non-empty copy
    bool logged(const colpick_t &c, const colpick_in_t &in) const { return in.load || wmask_any(&c.q.work); }
    // Late inputs that must not matter: shown before the real ones.
    void junk(colpick_in_t &in) {
        in.take = (uint8_t)rng_.bits(1);
        in.drop = (uint8_t)rng_.bits(1);
    }

  private:
    // And of n+1 random words per 64 bits: density 2^-(n+1) (n = 0: half).
    wmask_t rand_bits(int n) {
        wmask_t b;
        for (auto &x : b.w) {
            x = rng_.next();
            for (int i = 0; i < n; i++) x &= rng_.next();
        }
        return b;
    }
    // A large warp's active mask: full, diverged by a branch (random,
    // sparse, dense), some columns, some rows, one thread, empty.
    wmask_t pick_mask() {
        unsigned r = (unsigned)rng_.below(100);
        if (r < 20) return ALL;
        if (r < 45) return rand_bits(0);
        if (r < 55) return rand_bits(2);
        if (r < 62) {
            const wmask_t a = rand_bits(0), b = rand_bits(0);
            return wmask_or(a, b);
        }
        wmask_t b = wmask_none();
        if (r < 72) { // whole columns
            uint64_t cols = rng_.next();
            for (int t = 0; t < T; t++)
                if ((cols >> (t % N % 64)) & 1) wmask_set(&b, t);
            return b;
        }
        if (r < 82) { // whole rows
            uint64_t rows = rng_.next();
            for (int t = 0; t < T; t++)
                if ((rows >> (t / N % 64)) & 1) wmask_set(&b, t);
            return b;
        }
        if (r < 88) return one_bit((int)rng_.below(T));
        if (r < 94) { // one thread per column: a full sub-warp at once
            for (int c = 0; c < N; c++) wmask_set(&b, (int)rng_.below(K) * N + c);
            return b;
        }
        return b;
    }
    Lfsr rng_;
    Phase phase_ = PIPE;
    uint64_t left_ = 0;
    int full_run_ = 0; // full sub-warps taken back to back (coverage)
};

// ------------------------------------------------------------------ runs

typedef TbBlockEnv<Vdut, glue_colpick::Glue> Env;

static int run_random(Env &v) {
    Stimulus gen(v.o.seed);
    return tb_random_run(v, gen, {COV_N, cov_name, cov_text, cov_applies, 16}, COV_reset_mid_run);
}

static int colpick_run(const TbOpts &o, TbRun &r, VerilatedContext *ctx) {
    return tb_run<Env>(o, r, ctx, B, &CFG, run_random, ", " + std::to_string(T) + " threads");
}

int main(int argc, char **argv) { return tb_main(argc, argv, "colpick", colpick_run); }
