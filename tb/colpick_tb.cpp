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
// Large warps of more than 256 threads (004's 512, Fig. 10) are wider than
// the C model's masks (wmask_t, cmodel/mask.h). The picker's columns are
// independent (each is its own priority encoder; 004: "searches each column
// ... in parallel"), so for those sets the reference is G C pickers of
// ROWS x COLS/G threads side by side, column group g being columns
// [g*COLS/G, (g+1)*COLS/G): lane outputs and masks concatenated per column,
// cnt_o the sum, stall_o the OR. With G = 1 it is the C block itself and the
// comparison is block_compare(), the comparator a lockstep run uses.
//
// The parameters come from the build (-DTB_ROWS=... matching the -G options
// the RTL was verilated with; tb/flow.mk passes both).
#include <array>
#include <cstring>
#include <string>

#include "Vdut.h"
#include "tb.h"

extern "C" {
#include "blocks/block.h"
#include "blocks/colpick.h"
}

static const int K = TB_ROWS, N = TB_COLS, T = TB_ROWS * TB_COLS;
// column groups of the reference: the fewest that keep each C picker's mask in a wmask_t
static const int G = (T + WSIM_MAX_LANES - 1) / WSIM_MAX_LANES;
static const int NG = TB_COLS / G; // columns per group
static_assert(TB_COLS % ((TB_ROWS * TB_COLS + WSIM_MAX_LANES - 1) / WSIM_MAX_LANES) == 0,
              "colpick_tb: COLS must split into groups of at most 256 threads");
static const colpick_config_t CFG = {TB_ROWS, TB_COLS};    // the RTL's (trace headers)
static const colpick_config_t CFG_G = {TB_ROWS, TB_COLS / ((TB_ROWS * TB_COLS + WSIM_MAX_LANES - 1) / WSIM_MAX_LANES)};
static const block_ops_t *const B = &colpick_block_ops;

// ------------------------------------------------------------------ bit vectors

// A port's value, any width up to 512 bits.
enum { BW = 8 };
struct Bits {
    std::array<uint64_t, BW> w{};
    bool test(int i) const { return (w[i >> 6] >> (i & 63)) & 1; }
    void set(int i, bool v = true) {
        if (v) w[i >> 6] |= 1ull << (i & 63);
        else w[i >> 6] &= ~(1ull << (i & 63));
    }
    bool any() const {
        uint64_t a = 0;
        for (auto x : w) a |= x;
        return a != 0;
    }
    bool operator==(const Bits &o) const { return w == o.w; }
    bool operator!=(const Bits &o) const { return w != o.w; }
    Bits operator&(const Bits &o) const { Bits r; for (int i = 0; i < BW; i++) r.w[i] = w[i] & o.w[i]; return r; }
    Bits operator|(const Bits &o) const { Bits r; for (int i = 0; i < BW; i++) r.w[i] = w[i] | o.w[i]; return r; }
    Bits andnot(const Bits &o) const { Bits r; for (int i = 0; i < BW; i++) r.w[i] = w[i] & ~o.w[i]; return r; }
    int count() const { int n = 0; for (int i = 0; i < T; i++) n += test(i); return n; }
};
static Bits first_bits(int n) {
    Bits b;
    for (int i = 0; i < n; i++) b.set(i);
    return b;
}
static Bits from_u64(uint64_t v) { Bits b; b.w[0] = v; return b; }
static const Bits ALL = first_bits(T); // every thread of the large warp
static const Bits LAST_ROW = ALL.andnot(first_bits(T - N)); // row ROWS-1
static Bits from_mask(const wmask_t &m) {
    Bits b;
    for (int i = 0; i < WMASK_WORDS; i++) b.w[i] = m.w[i];
    return b;
}
static std::string hex(const Bits &b, int width) {
    static const char hx[] = "0123456789abcdef";
    std::string s;
    for (int d = (width + 3) / 4 - 1; d >= 0; d--) {
        int nib = 0;
        for (int j = 0; j < 4; j++)
            if (4 * d + j < width && b.test(4 * d + j)) nib |= 1 << j;
        s += hx[nib];
    }
    return s.empty() ? "0" : s;
}
// Verilator's port types: CData/SData/IData/QData up to 64 bits, VlWide<N> above.
template <class V> static Bits vl_get(const V &v, int width) { return from_u64(tb_field((uint64_t)v, 0, width)); }
template <std::size_t M> static Bits vl_get(const VlWide<M> &v, int width) {
    Bits b; // 32-bit words, width > 64 here; Verilator keeps the bits above width 0
    for (std::size_t k = 0; k < M && k / 2 < BW; k++) b.w[k / 2] |= (uint64_t)v[k] << (32 * (k % 2));
    (void)width;
    return b;
}
template <class V> static void vl_put(V &v, const Bits &b, int width) { v = (V)tb_bits(b.w[0], width); }
template <std::size_t M> static void vl_put(VlWide<M> &v, const Bits &b, int width) {
    for (std::size_t k = 0; k < M; k++) {
        int lo = 32 * (int)k;
        uint32_t x = (uint32_t)(b.w[k / 2] >> (32 * (k % 2)));
        if (width - lo < 32) x &= (1u << (width - lo)) - 1;
        v[k] = x;
    }
}

// ------------------------------------------------------------------ ports

// Every port's width (the RTL's: of CFG), from the port table.
static const std::array<int, COLPICK_NPORTS> PW = [] {
    std::array<int, COLPICK_NPORTS> w{};
    for (int i = 0; i < COLPICK_NPORTS; i++) w[i] = colpick_port_width(&CFG, i);
    return w;
}();
static const int ROW_W = TB_COLS ? colpick_port_width(&CFG, COLPICK_P_row) / TB_COLS : 1;

// One clock's ports as bit vectors, indexed by the port enum: the inputs
// (EARLY, LATE) in an In, the outputs (COMB, REG) in an Out.
typedef std::array<Bits, COLPICK_NPORTS> Ports;

// The inputs onto the RTL's ports, expanded from cmodel/blocks/colpick.def.
static void drive(Vdut *m, const Ports &in) {
#define TB_DRIVE(name) vl_put(m->name##_i, in[COLPICK_P_##name], PW[COLPICK_P_##name]);
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) BLOCK_IF_IN_##timing(TB_DRIVE(name))
#include "blocks/colpick.def"
#undef TB_DRIVE
}

// The RTL's outputs (combinational and registered).
static void rtl_read(const Vdut *m, Ports &out) {
#define TB_READ(name) out[COLPICK_P_##name] = vl_get(m->name##_o, PW[COLPICK_P_##name]);
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) \
    BLOCK_IF_OUT_##timing(TB_READ(name)) BLOCK_IF_REG_##timing(TB_READ(name))
#include "blocks/colpick.def"
#undef TB_READ
}

// Thread t = (row r, column c) of the large warp is thread r*NG + c%NG of group c/NG.
static int grp_of(int t) { return (t % N) / NG; }
static int local_of(int t) { return (t / N) * NG + (t % N) % NG; }

// The reference: G C pickers over the column groups (G = 1: the C block).
class Ref {
  public:
    bool init(char *err, size_t len) {
        for (auto &p : p_)
            if (colpick_init(&p, &CFG_G, err, len) != 0) return false;
        return true;
    }
    void reset() { for (auto &p : p_) colpick_reset(&p); }
    // Group g's C inputs from the whole picker's.
    void to_c(const Ports &in, int g, colpick_in_t &c) const {
        memset(&c, 0, sizeof c);
        c.load = (uint8_t)in[COLPICK_P_load].w[0];
        c.one = (uint8_t)in[COLPICK_P_one].w[0];
        c.take = (uint8_t)in[COLPICK_P_take].w[0];
        c.drop = (uint8_t)in[COLPICK_P_drop].w[0];
        if (G == 1) {
            for (int i = 0; i < WMASK_WORDS; i++) c.mask.w[i] = in[COLPICK_P_mask].w[i], c.dep.w[i] = in[COLPICK_P_dep].w[i];
            return;
        }
        for (int t = 0; t < T; t++) {
            if (grp_of(t) != g) continue;
            if (in[COLPICK_P_mask].test(t)) wmask_set(&c.mask, local_of(t));
            if (in[COLPICK_P_dep].test(t)) wmask_set(&c.dep, local_of(t));
        }
    }
    // Evaluate: the C outputs of every group, composed into out.
    void eval(const Ports &in, Ports &out) {
        for (int g = 0; g < G; g++) {
            to_c(in, g, cin_[g]);
            colpick_eval(&p_[g], &cin_[g], &cout_[g]);
        }
        compose(out);
    }
    void clock() {
        for (int g = 0; g < G; g++) colpick_clock(&p_[g], &cin_[g], &cout_[g]);
    }
    void compose(Ports &out) const {
        for (auto &b : out) b = Bits();
        if (G == 1) {
            const colpick_out_t &o = cout_[0];
            out[COLPICK_P_valid] = from_u64(o.valid);
            out[COLPICK_P_row] = from_mask(o.row);
            out[COLPICK_P_pick] = from_mask(o.pick);
            out[COLPICK_P_cnt] = from_u64(o.cnt);
            out[COLPICK_P_stall] = from_u64(o.stall);
            out[COLPICK_P_work] = from_mask(p_[0].q.work);
            return;
        }
        int cnt = 0;
        for (int c = 0; c < N; c++) {
            int g = c / NG, lc = c % NG;
            const colpick_out_t &o = cout_[g];
            out[COLPICK_P_valid].set(c, (o.valid >> lc) & 1);
            for (int b = 0; b < ROW_W; b++) out[COLPICK_P_row].set(c * ROW_W + b, wmask_test(&o.row, lc * ROW_W + b));
        }
        for (int g = 0; g < G; g++) {
            cnt += cout_[g].cnt;
            if (cout_[g].stall) out[COLPICK_P_stall] = from_u64(1);
        }
        out[COLPICK_P_cnt] = from_u64((uint64_t)cnt);
        for (int t = 0; t < T; t++) {
            out[COLPICK_P_pick].set(t, wmask_test(&cout_[grp_of(t)].pick, local_of(t)));
            out[COLPICK_P_work].set(t, wmask_test(&p_[grp_of(t)].q.work, local_of(t)));
        }
    }
    const colpick_t &c(int g = 0) const { return p_[g]; }
    const colpick_in_t &cin(int g = 0) const { return cin_[g]; }
    const colpick_out_t &cout(int g = 0) const { return cout_[g]; }

  private:
    std::array<colpick_t, G> p_;
    std::array<colpick_in_t, G> cin_{};
    std::array<colpick_out_t, G> cout_{};
};

// The narrow checker: one call per clock compares every output port of the
// RTL with the reference's. G = 1: block_compare on the C out struct (the
// RTL's outputs read into one, its registers into a mirror); G > 1: port by
// port on the composed values. comb_only: just the combinational outputs
// (after the late inputs changed: none of them may depend on those).
class ColpickChecker {
  public:
    // (the block and its parameters: CFG, B and the column groups above)
    ColpickChecker(TbRun &r, const block_ops_t *, const void *) : r_(r) { memset(&mirror_, 0, sizeof mirror_); }
    bool step(uint64_t cyc, const Ref &ref, const Ports &exp, const Vdut *m, bool comb_only) {
        rtl_read(m, rtl_);
        if (G == 1) {
            to_c_out(rtl_, rtl_c_, mirror_);
            block_mismatch_t mm;
            if (!block_compare(B, &CFG, &ref.cout(), &rtl_c_, comb_only ? BLOCK_CMP_COMB : BLOCK_CMP_ALL, &mm))
                return true;
            r_.mismatch(cyc, mm.name, "C model", mm.exp, mm.act);
            return false;
        }
        for (int i = 0; i < B->nports; i++) {
            const block_port_t &p = B->ports[i];
            if (p.dir != BLOCK_OUT || (comb_only && p.timing != BLOCK_COMB)) continue;
            if (exp[i] != rtl_[i]) {
                char nm[64];
                r_.mismatch(cyc, block_port_rtl_name(&p, nm, sizeof nm), "C model, column groups", hex(exp[i], PW[i]),
                            hex(rtl_[i], PW[i]));
                return false;
            }
        }
        return true;
    }
    // The RTL's outputs as read by the last step(), as the C out struct (G = 1).
    const colpick_out_t &rtl() const { return rtl_c_; }
    static void to_c_out(const Ports &o, colpick_out_t &c, colpick_state_t &q) {
        memset(&c, 0, sizeof c);
        c.valid = o[COLPICK_P_valid].w[0];
        for (int i = 0; i < WMASK_WORDS; i++) {
            c.row.w[i] = o[COLPICK_P_row].w[i];
            c.pick.w[i] = o[COLPICK_P_pick].w[i];
            q.work.w[i] = o[COLPICK_P_work].w[i];
        }
        c.cnt = (uint8_t)o[COLPICK_P_cnt].w[0];
        c.stall = (uint8_t)o[COLPICK_P_stall].w[0];
        c.q = &q;
    }

  private:
    TbRun &r_;
    Ports rtl_{};
    colpick_out_t rtl_c_{};
    colpick_state_t mirror_;
};

// One clock's inputs, for the failure report.
static std::string input_line(uint64_t cyc, const Ports &in, bool rst) {
    std::string s = "c=" + std::to_string(cyc) + (rst ? " RESET" : "");
    for (int i = 0; i < B->nports; i++) {
        const block_port_t &p = B->ports[i];
        if (p.timing != BLOCK_EARLY && p.timing != BLOCK_LATE) continue;
        s += std::string(" ") + p.name + "=" + hex(in[i], PW[i]);
    }
    return s;
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

static void cover(uint64_t *cov, const Ports &in, const Ports &out, const Bits &work, int &full_run) {
    const bool load = in[COLPICK_P_load].w[0], one = in[COLPICK_P_one].w[0];
    const bool take = in[COLPICK_P_take].w[0], drop = in[COLPICK_P_drop].w[0];
    const bool jmp = load && one, stall = out[COLPICK_P_stall].w[0];
    const Bits &all = ALL, &mask = in[COLPICK_P_mask], &dep = in[COLPICK_P_dep], &pick = out[COLPICK_P_pick];
    const Bits src = load ? mask : work;
    const int cnt = (int)out[COLPICK_P_cnt].w[0];
    if (!load && !work.any()) cov[COV_idle]++;
    if (load) {
        if (mask == all) cov[COV_load_full]++;
        else if (!mask.any()) cov[COV_load_empty]++;
        else cov[COV_load_diverged]++;
        if (work.any()) cov[COV_load_busy]++;
    }
    if (!load && (one || mask.any())) cov[COV_no_load_mask]++;
    if (cnt == N) cov[COV_sub_full]++;
    if (cnt > 0 && cnt < N) cov[COV_sub_partial]++;
    if (cnt == 1 && N >= 2) cov[COV_sub_one]++;
    if (!jmp && src.any() && cnt == 0 && stall) cov[COV_dep_nothing]++;
    if (!jmp && (src & dep).any()) {
        for (int c = 0; c < N; c++) { // the lowest src row of c is dep and c picked a lower one
            int low = -1, got = -1;
            for (int r = K - 1; r >= 0; r--) {
                if (src.test(r * N + c)) low = r;
                if (pick.test(r * N + c)) got = r;
            }
            if (low >= 0 && got > low && dep.test(low * N + c)) { cov[COV_dep_skip]++; break; }
        }
    }
    if ((pick & LAST_ROW).any()) cov[COV_last_row]++;
    // ROWS full sub-warps of one instruction, taken back to back
    if (take && !drop && !jmp && cnt == N) {
        full_run = load ? 1 : full_run + 1;
        if (full_run == K && !stall) cov[COV_all_rows]++;
    } else if (!(load == 0 && !take)) {
        full_run = 0;
    }
    if (take && !drop && !jmp && stall && cnt > 0) cov[COV_multi_sub]++;
    if (take && !drop && !jmp && !stall && !load && work.any()) cov[COV_last_sub]++;
    if (load && !one && take && cnt == N && !stall) cov[COV_one_shot]++;
    if (jmp && take) {
        cov[COV_jump]++;
        if ((pick & dep).any()) cov[COV_jump_dep]++;
    }
    if (jmp && !take) cov[COV_jump_refused]++;
    if (!take && !drop && src.any()) cov[load ? COV_refused_load : COV_refused]++;
    if (drop && src.any()) cov[take ? COV_drop_taken : COV_drop_refused]++;
}

// ------------------------------------------------------------------ random stimulus

// PIPE behaves as the LWM pipeline does; DEP keeps most threads in flight;
// WILD drives anything; IDLE mostly nothing.
enum Phase { PIPE, DEP, WILD, IDLE, NPHASES };

class Stimulus {
  public:
    explicit Stimulus(uint64_t seed) : rng_(seed) { next_phase(); }
    void next_phase() {
        unsigned r = (unsigned)rng_.below(100);
        phase_ = r < 50 ? PIPE : r < 70 ? DEP : r < 92 ? WILD : IDLE;
        left_ = 32 + rng_.below(1000);
    }
    // The early inputs, from the working copy (the registered read port).
    void early(const Bits &work, Ports &in) {
        if (left_-- == 0) next_phase();
        const Bits &all = ALL;
        bool busy = work.any();
        bool load;
        switch (phase_) {
        case PIPE: case DEP: load = !busy && rng_.chance(70); break;
        case WILD: load = rng_.chance(busy ? 20 : 50); break;
        default: load = !busy && rng_.chance(5); break;
        }
        in[COLPICK_P_load] = from_u64(load);
        in[COLPICK_P_one] = from_u64(load ? rng_.chance(8) : (phase_ == WILD && rng_.chance(20)));
        in[COLPICK_P_mask] = load || (phase_ == WILD && rng_.chance(30)) ? pick_mask() & all : Bits();
        Bits src = load ? in[COLPICK_P_mask] : work;
        // dependency bits: threads of the last sub-warps still in flight
        Bits dep;
        unsigned r = (unsigned)rng_.below(100);
        if (phase_ == DEP) {
            if (r < 30) dep = src;
            else if (r < 80) dep = rand_bits(3) & all; // ~7/8 of the bits
            else dep = rand_bits(1) & all;
        } else if (phase_ == WILD) {
            dep = r < 50 ? rand_bits(1) & all : r < 60 ? all : Bits();
        } else {
            dep = r < 55 ? Bits() : r < 85 ? rand_bits(2).andnot(rand_bits(0)) & all : (rand_bits(1) & src);
        }
        in[COLPICK_P_dep] = dep;
    }
    // The late inputs, decided after looking at the sub-warp.
    void late(const Ports &out, Ports &in) {
        (void)out;
        bool take, drop;
        unsigned r = (unsigned)rng_.below(100);
        switch (phase_) {
        case PIPE: take = r >= 6; drop = r < 3; break; // refusals: half set aside
        case DEP: take = r >= 3; drop = false; break;
        case WILD: take = rng_.chance(70); drop = rng_.chance(10); break;
        default: take = true; drop = false; break;
        }
        in[COLPICK_P_take] = from_u64(take);
        in[COLPICK_P_drop] = from_u64(drop);
    }
    bool reset_now() { return rng_.below(6000) == 0; }
    // Late inputs that must not matter: shown before the real ones.
    void junk(Ports &in) {
        in[COLPICK_P_take] = from_u64(rng_.bits(1));
        in[COLPICK_P_drop] = from_u64(rng_.bits(1));
    }

  private:
    // And of n+1 random words per 64 bits: density 2^-(n+1) (n = 0: half).
    Bits rand_bits(int n) {
        Bits b;
        for (auto &x : b.w) {
            x = rng_.next();
            for (int i = 0; i < n; i++) x &= rng_.next();
        }
        return b;
    }
    // A large warp's active mask: full, diverged by a branch (random,
    // sparse, dense), some columns, some rows, one thread, empty.
    Bits pick_mask() {
        unsigned r = (unsigned)rng_.below(100);
        if (r < 20) return ALL;
        if (r < 45) return rand_bits(0);
        if (r < 55) return rand_bits(2);
        if (r < 62) { Bits b = rand_bits(0); return b | rand_bits(0); }
        if (r < 72) { // whole columns
            Bits b;
            uint64_t cols = rng_.next();
            for (int t = 0; t < T; t++) b.set(t, (cols >> (t % N % 64)) & 1);
            return b;
        }
        if (r < 82) { // whole rows
            Bits b;
            uint64_t rows = rng_.next();
            for (int t = 0; t < T; t++) b.set(t, (rows >> (t / N % 64)) & 1);
            return b;
        }
        if (r < 88) { Bits b; b.set((int)rng_.below(T)); return b; }
        if (r < 94) { // one thread per column: a full sub-warp at once
            Bits b;
            for (int c = 0; c < N; c++) b.set((int)rng_.below(K) * N + c);
            return b;
        }
        return Bits();
    }
    Lfsr rng_;
    Phase phase_ = PIPE;
    uint64_t left_ = 0;
};

// ------------------------------------------------------------------ runs

struct Env : TbEnv<Vdut, ColpickChecker, colpick_in_t, colpick_out_t> {
    Ref ref;
    using TbEnv::TbEnv;
    bool init(char *err, size_t len) { return ref.init(err, len); }
    // the last clocks' inputs, formatted into hist only for a failure report
    enum { DEPTH = 8 };
    std::array<Ports, DEPTH> recent{};
    std::array<uint64_t, DEPTH> recent_cyc{};
    std::array<bool, DEPTH> recent_rst{};
    uint64_t nrecent = 0;
    void remember(const Ports &in, bool rst) {
        recent[nrecent % DEPTH] = in;
        recent_cyc[nrecent % DEPTH] = cyc;
        recent_rst[nrecent % DEPTH] = rst;
        nrecent++;
    }
    int fail() {
        for (uint64_t k = nrecent > DEPTH ? nrecent - DEPTH : 0; k < nrecent; k++)
            hist.push(::input_line(recent_cyc[k % DEPTH], recent[k % DEPTH], recent_rst[k % DEPTH]));
        return r.fail(hist);
    }
    Ports exp{};
    void reset() {
        m->rst_ni = 0;
        m->clk_i = 0;
        m->eval();
        m->rst_ni = 1;
        m->eval();
        ref.reset();
    }
    // The reference's working copy (its registered read port), before this clock.
    Bits work() const {
        if (G == 1) return from_mask(ref.c().q.work);
        Ports p{};
        ref.compose(p); // compose reads the registers; its comb outputs are stale here
        return p[COLPICK_P_work];
    }
    // Evaluate with the inputs applied; compare (all ports, or just the combinational ones).
    bool settle(const Ports &in, bool comb_only) {
        drive(m, in);
        m->eval();
        ref.eval(in, exp);
        return chk->step(cyc, ref, exp, m, comb_only);
    }
    bool edge() {
        r.dump(2 * cyc);
        ref.clock();
        m->clk_i = 1;
        m->eval();
        r.dump(2 * cyc + 1);
        m->clk_i = 0;
        if (ctx->gotError()) {
            r.failure(cyc, "an RTL assertion failed (message above)");
            return false;
        }
        cyc++;
        return true;
    }
    // The replay (tb_replay) drives a trace's C inputs. Traces come from the
    // C model, so none has more than 256 threads (the reader refuses one,
    // naming rows x cols): a set with G > 1 only ever sees a trace of other
    // parameters (exit 3).
    static Ports ports_of(const colpick_in_t &c) {
        Ports in{};
        for (int p = 0; p < B->nports; p++)
            if (B->ports[p].dir == BLOCK_IN && B->ports[p].timing != BLOCK_CLOCK && B->ports[p].timing != BLOCK_RESET)
                in[p] = from_mask(block_get(B, &CFG, p, 0, &c, nullptr, nullptr));
        return in;
    }
    bool settle(const colpick_in_t &in, colpick_out_t &, bool comb_only) { return settle(ports_of(in), comb_only); }
    bool edge(const colpick_in_t &, const colpick_out_t &) { return edge(); }
    std::string input_line(const colpick_in_t &in, bool rst) const { return ::input_line(cyc, ports_of(in), rst); }
};

static int run_random(Env &v) {
    Stimulus gen(v.o.seed);
    uint64_t cov[COV_N] = {0};
    FILE *log = nullptr;
    if (!v.o.log.empty()) {
        if (G != 1) {
            fprintf(stderr, "colpick_tb: +log needs a set of at most 256 threads (the C model's traces)\n");
            return 2;
        }
        log = fopen(v.o.log.c_str(), "w");
        if (!log) { perror(v.o.log.c_str()); return 2; }
        block_trace_header(B, &CFG, log);
    }
    int segment = 0, full_run = 0;
    Ports in{};
    for (uint64_t n = 0; n < v.o.cycles; n++) {
        bool rst = v.cyc > 0 && gen.reset_now();
        if (rst) {
            v.reset();
            cov[COV_reset_mid_run]++;
            segment++;
            full_run = 0;
        }
        Bits work = v.work();
        gen.junk(in);
        gen.early(work, in);
        bool ok = v.settle(in, false);
        gen.late(v.exp, in);
        v.remember(in, rst);
        if (ok) ok = v.settle(in, true);
        if (!ok) return v.fail();
        cover(cov, in, v.exp, work, full_run);
        // the lines wpusim would write: a clock with a load or a non-empty copy
        if (log && (in[COLPICK_P_load].w[0] || work.any()))
            B->trace(&v.ref.c(), v.cyc, segment, &v.ref.cin(), &v.ref.cout(), log);
        if (!v.edge()) return v.fail();
    }
    if (log) fclose(log);
    return tb_coverage_report(v.o, B->name, {COV_N, cov_name, cov_text, cov_applies, 16}, cov, segment);
}

static int colpick_run(const TbOpts &o, TbRun &r, VerilatedContext *ctx) {
    const std::string ref = ", " + std::to_string(T) + " threads, reference " + std::to_string(G) + " C picker" +
                            (G > 1 ? "s side by side" : "");
    return tb_run<Env>(o, r, ctx, B, &CFG, run_random, ref);
}

int main(int argc, char **argv) { return tb_main(argc, argv, "colpick", colpick_run); }
