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
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "Vdut.h"
#include "tb.h"

extern "C" {
#include "blocks/wst.h"
}

static const wst_config_t CFG = {TB_ENTRIES, TB_WIDTH, TB_WARPS, TB_PC_W, TB_CNT_W, TB_MFC_W};
static const int E = TB_ENTRIES, W = TB_WIDTH;

static uint64_t ones64(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

// ------------------------------------------------------------------ ports

static void drive(Vdut *m, const wst_in_t &in, int idx_w, int warp_w) {
    m->idx_i = in.idx & ones64(idx_w);
    m->elig_i = in.elig & ones64(E);
    m->mpc_i = in.mpc & ones64(TB_PC_W);
    m->op_i = in.op & 1;
    m->free_i = in.free & 1;
    m->set_i = in.set & 1;
    m->warp_i = in.warp & ones64(warp_w);
    m->pc_i = in.pc & ones64(TB_PC_W);
    m->mask_i = in.mask.w[0] & ones64(W);
    m->st_i = in.st & 3;
    m->issue_i = in.issue & 1;
    m->resume_i = in.resume & 1;
    m->miss_i = in.miss & 1;
    m->lat_i = in.lat;
    m->merge_i = in.merge & 1;
    m->spawn_i = in.spawn & 1;
    m->pc_b_i = in.pc_b & ones64(TB_PC_W);
    m->mask_b_i = in.mask_b.w[0] & ones64(W);
    m->st_b_i = in.st_b & 3;
}

// The narrow checker: one call per clock compares the block's outputs.
// comb_only: just the combinational outputs (after the operation inputs
// changed: none of them may depend on those).
class WstChecker {
  public:
    WstChecker(TbRun &r, const wst_t &c) : r_(r), c_(c) {
        idx_w_ = wst_idx_bits(&CFG);
        warp_w_ = wst_warp_bits(&CFG);
        nfree_w_ = 0;
        while ((1 << nfree_w_) < E + 1) nfree_w_++;
    }
    int idx_w() const { return idx_w_; }
    int warp_w() const { return warp_w_; }
    bool step(uint64_t cyc, const wst_out_t &o, const Vdut *m, bool comb_only) {
        bool ok = true;
        ok &= r_.check(cyc, "nfree_o", port_bits(o.nfree, nfree_w_), port_bits(m->nfree_o, nfree_w_));
        ok &= r_.check(cyc, "free_idx_o", port_bits(o.free_idx, idx_w_), port_bits(m->free_idx_o, idx_w_));
        ok &= r_.check(cyc, "free2_idx_o", port_bits(o.free2_idx, idx_w_), port_bits(m->free2_idx_o, idx_w_));
        ok &= r_.check(cyc, "merge_vec_o", port_bits(o.merge_vec, E), port_bits(m->merge_vec_o, E));
        ok &= r_.check(cyc, "merge_mask_o", port_bits(o.merge_mask.w[0], W), port_bits(m->merge_mask_o, W));
        ok &= r_.check(cyc, "lag_vec_o", port_bits(o.lag_vec, E), port_bits(m->lag_vec_o, E));
        ok &= r_.check(cyc, "latspec_o", port_bits(o.latspec, 1), port_bits(m->latspec_o, 1));
        if (comb_only) return ok;
        const wst_entry_t *e = c_.q.e;
#define FIELD(port, w, expr)                                                                 \
    do {                                                                                     \
        PortBits p(E * (w));                                                                 \
        for (int i = 0; i < E; i++) p.set_field(i * (w), (w), (expr));                       \
        ok &= r_.check(cyc, #port, p, port_bits(m->port, E * (w)));                          \
    } while (0)
        FIELD(ent_valid_o, 1, e[i].valid);
        FIELD(ent_st_o, 2, e[i].st);
        FIELD(ent_warp_o, warp_w_, e[i].warp);
        FIELD(ent_pc_o, TB_PC_W, e[i].pc);
        FIELD(ent_mask_o, W, e[i].mask.w[0]);
        FIELD(ent_icnt_o, TB_CNT_W, e[i].icnt);
        FIELD(ent_mfc_o, TB_MFC_W, e[i].mfc);
        FIELD(ent_rmfc_o, TB_MFC_W, e[i].rmfc);
        FIELD(ent_lat_o, TB_MFC_W, e[i].lat);
#undef FIELD
        ok &= r_.check(cyc, "sum_rmfc_o", port_bits(c_.q.sum_rmfc, TB_MFC_W), port_bits(m->sum_rmfc_o, TB_MFC_W));
        return ok;
    }

  private:
    TbRun &r_;
    const wst_t &c_;
    int idx_w_, warp_w_, nfree_w_;
};

static std::string input_line(uint64_t cyc, const wst_in_t &in, bool rst) {
    char m[24], mb[24], buf[320];
    wmask_hex(&in.mask, W, m);
    wmask_hex(&in.mask_b, W, mb);
    snprintf(buf, sizeof buf,
             "c=%" PRIu64 "%s idx=%x elig=%" PRIx64 " mpc=%x op=%x free=%x set=%x warp=%x pc=%x mask=%s st=%x issue=%x "
             "resume=%x miss=%x lat=%x merge=%x spawn=%x pc_b=%x mask_b=%s st_b=%x",
             cyc, rst ? " RESET" : "", in.idx, in.elig, in.mpc, in.op, in.free, in.set, in.warp, in.pc, m, in.st, in.issue,
             in.resume, in.miss, in.lat, in.merge, in.spawn, in.pc_b, mb, in.st_b);
    return buf;
}

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
    X(sum_saturated, "sum-rMFC saturates on resume (small MFC_W)")                       \
    X(reset_mid_run, "reset in the middle of a run")

enum {
#define X(name, text) COV_##name,
    COVER_POINTS(X)
#undef X
        COV_N
};
static const char *const cov_name[] = {
#define X(name, text) #name,
    COVER_POINTS(X)
#undef X
};
static const char *const cov_text[] = {
#define X(name, text) text,
    COVER_POINTS(X)
#undef X
};

// Runs of at least this many clocks must hit every coverage point.
enum { COVER_MIN_CYCLES = 100000 };

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
        if (!in.set && in.resume && (uint64_t)c.q.sum_rmfc + me->mfc > mfc_max) cov[COV_sum_saturated]++;
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

class Stimulus {
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
    void op(const wst_t &c, const wst_out_t &o, wst_in_t &in) {
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

struct Env {
    const TbOpts &o;
    TbRun &r;
    VerilatedContext *ctx;
    Vdut *m;
    wst_t c;
    WstChecker *chk;
    History hist;
    uint64_t cyc = 0;
    explicit Env(const TbOpts &o_, TbRun &r_, VerilatedContext *ctx_) : o(o_), r(r_), ctx(ctx_), m(nullptr), chk(nullptr) {}
    void reset() {
        m->rst_ni = 0;
        m->clk_i = 0;
        m->eval();
        m->rst_ni = 1;
        m->eval();
        wst_reset(&c);
    }
    // Evaluate with the inputs applied; compare (all ports, or just the combinational ones).
    bool settle(const wst_in_t &in, wst_out_t &out, bool comb_only) {
        drive(m, in, chk->idx_w(), chk->warp_w());
        m->eval();
        wst_eval(&c, &in, &out);
        return chk->step(cyc, out, m, comb_only);
    }
    bool edge(const wst_in_t &in, const wst_out_t &out) {
        r.dump(2 * cyc);
        wst_clock(&c, &in, &out);
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
};

static int run_random(Env &v) {
    Stimulus gen(v.o.seed);
    uint64_t cov[COV_N] = {0};
    FILE *log = nullptr;
    if (!v.o.log.empty()) {
        log = fopen(v.o.log.c_str(), "w");
        if (!log) { perror(v.o.log.c_str()); return 2; }
        wst_trace_header(&CFG, log);
    }
    int segment = 0;
    wst_in_t in{};
    wst_out_t out{};
    for (uint64_t n = 0; n < v.o.cycles; n++) {
        bool rst = v.cyc > 0 && gen.reset_now();
        if (rst) {
            v.reset();
            cov[COV_reset_mid_run]++;
            segment++;
        }
        gen.junk(in);
        gen.early(v.c, in);
        bool ok = v.settle(in, out, false);
        gen.op(v.c, out, in);
        v.hist.push(input_line(v.cyc, in, rst));
        if (ok) ok = v.settle(in, out, true);
        if (!ok) return v.r.fail(v.hist);
        cover(cov, v.c, in, out);
        if (log && in.op) wst_trace_line(&v.c, v.cyc, segment, &in, &out, log);
        if (!v.edge(in, out)) return v.r.fail(v.hist);
    }
    if (log) fclose(log);
    int missed = 0;
    if (!v.o.quiet) printf("coverage (%" PRIu64 " clocks, %d resets):\n", v.o.cycles, segment);
    for (int k = 0; k < COV_N; k++) {
        bool need = cov_applies(k);
        if (need && !cov[k]) missed++;
        if (!v.o.quiet || (need && !cov[k]))
            printf("  %-18s %10" PRIu64 "%s  %s\n", cov_name[k], cov[k], need ? (cov[k] ? "" : "  MISSED") : "  (n/a)",
                   cov_text[k]);
    }
    if (missed && v.o.cycles < COVER_MIN_CYCLES) {
        printf("wst_tb: %d coverage points not hit (not required below %d clocks)\n", missed, COVER_MIN_CYCLES);
    } else if (missed) {
        printf("wst_tb: FAIL: %d coverage points not hit\n", missed);
        return 1;
    }
    return 0;
}

// One recorded line: the inputs and the recorded outputs.
struct Rec {
    uint64_t cyc;
    wst_in_t in;
    wst_out_t out;
};

static bool parse_line(const char *s, int *wpu, Rec *rec) {
    *rec = Rec{};
    int fields = 0;
    while (*s) {
        while (*s == ' ' || *s == '|' || *s == '\n') s++;
        const char *eq = strchr(s, '=');
        if (!eq) break;
        std::string key(s, eq - s);
        char *end;
        uint64_t v = strtoull(eq + 1, &end, 16);
        s = end;
        fields++;
        wst_in_t &i = rec->in;
        wst_out_t &o = rec->out;
        if (key == "c") rec->cyc = v;
        else if (key == "u") *wpu = (int)v;
        else if (key == "idx") i.idx = (uint8_t)v;
        else if (key == "elig") i.elig = v;
        else if (key == "mpc") i.mpc = (uint32_t)v;
        else if (key == "op") i.op = (uint8_t)v;
        else if (key == "free") i.free = (uint8_t)v;
        else if (key == "set") i.set = (uint8_t)v;
        else if (key == "warp") i.warp = (uint16_t)v;
        else if (key == "pc") i.pc = (uint32_t)v;
        else if (key == "mask") i.mask.w[0] = v;
        else if (key == "st") i.st = (uint8_t)v;
        else if (key == "issue") i.issue = (uint8_t)v;
        else if (key == "resume") i.resume = (uint8_t)v;
        else if (key == "miss") i.miss = (uint8_t)v;
        else if (key == "lat") i.lat = (uint32_t)v;
        else if (key == "merge") i.merge = (uint8_t)v;
        else if (key == "spawn") i.spawn = (uint8_t)v;
        else if (key == "pc_b") i.pc_b = (uint32_t)v;
        else if (key == "mask_b") i.mask_b.w[0] = v;
        else if (key == "st_b") i.st_b = (uint8_t)v;
        else if (key == "nfree") o.nfree = (uint8_t)v;
        else if (key == "free_idx") o.free_idx = (uint8_t)v;
        else if (key == "free2_idx") o.free2_idx = (uint8_t)v;
        else if (key == "merge_vec") o.merge_vec = v;
        else if (key == "merge_mask") o.merge_mask.w[0] = v;
        else if (key == "lag_vec") o.lag_vec = v;
        else if (key == "latspec") o.latspec = (uint8_t)v;
        else return false;
    }
    return fields == 28;
}

static int run_replay(Env &v) {
    FILE *f = fopen(v.o.replay.c_str(), "r");
    if (!f) { perror(v.o.replay.c_str()); return 2; }
    char line[1024];
    std::string want;
    {
        char buf[256];
        FILE *h = fmemopen(buf, sizeof buf, "w");
        wst_trace_header(&CFG, h);
        fclose(h);
        want = buf;
        want = want.substr(want.find('\n') + 1); // the parameter line, after the version line
    }
    // Each WPU's lines, in order; WPUs in order of first appearance.
    std::map<int, std::vector<Rec>> per;
    std::vector<int> order;
    uint64_t lineno = 0, nrec = 0;
    bool header = false;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#') {
            if (strncmp(line, "# wst ", 6) != 0) continue;
            if (want != line) {
                fprintf(stderr, "wst_tb: %s: trace parameters\n  %s  this testbench was built for\n  %s",
                        v.o.replay.c_str(), line, want.c_str());
                fclose(f);
                return 3;
            }
            header = true;
            continue;
        }
        int wpu = 0;
        Rec rec;
        if (!parse_line(line, &wpu, &rec)) {
            fprintf(stderr, "wst_tb: %s:%" PRIu64 ": not a wst trace line\n", v.o.replay.c_str(), lineno);
            fclose(f);
            return 2;
        }
        if (!per.count(wpu)) order.push_back(wpu);
        per[wpu].push_back(rec);
        nrec++;
    }
    fclose(f);
    if (!header) {
        fprintf(stderr, "wst_tb: %s: no '# wst ...' header line\n", v.o.replay.c_str());
        return 2;
    }
    const int idx_w = v.chk->idx_w();
    for (int wpu : order) {
        v.reset();
        for (const Rec &rec : per[wpu]) {
            wst_in_t in = rec.in;
            wst_out_t out{};
            char tag[48];
            snprintf(tag, sizeof tag, "u=%x rec c=%" PRIx64 " ", wpu, rec.cyc);
            v.hist.push(tag + input_line(v.cyc, in, false));
            if (!v.settle(in, out, false)) return v.r.fail(v.hist);
            // The RTL against the recorded outputs.
            const wst_out_t &ro = rec.out;
            bool ok = true;
            ok &= v.r.check(v.cyc, "nfree_o (recorded)", port_bits(ro.nfree, 8), port_bits(v.m->nfree_o, 8));
            ok &= v.r.check(v.cyc, "free_idx_o (recorded)", port_bits(ro.free_idx, idx_w), port_bits(v.m->free_idx_o, idx_w));
            ok &= v.r.check(v.cyc, "free2_idx_o (recorded)", port_bits(ro.free2_idx, idx_w), port_bits(v.m->free2_idx_o, idx_w));
            ok &= v.r.check(v.cyc, "merge_vec_o (recorded)", port_bits(ro.merge_vec, E), port_bits(v.m->merge_vec_o, E));
            ok &= v.r.check(v.cyc, "merge_mask_o (recorded)", port_bits(ro.merge_mask.w[0], W), port_bits(v.m->merge_mask_o, W));
            ok &= v.r.check(v.cyc, "lag_vec_o (recorded)", port_bits(ro.lag_vec, E), port_bits(v.m->lag_vec_o, E));
            ok &= v.r.check(v.cyc, "latspec_o (recorded)", port_bits(ro.latspec, 1), port_bits(v.m->latspec_o, 1));
            if (!ok) return v.r.fail(v.hist);
            if (!v.edge(in, out)) return v.r.fail(v.hist);
        }
    }
    printf("wst_tb: replayed %" PRIu64 " recorded clocks of %zu WPU(s) from %s: all outputs match\n", nrec,
               order.size(), v.o.replay.c_str());
    return 0;
}

static int wst_run(const TbOpts &o, TbRun &r, VerilatedContext *ctx) {
    Env v(o, r, ctx);
    char err[256];
    if (wst_init(&v.c, &CFG, err, sizeof err) != 0) {
        fprintf(stderr, "wst_tb: %s\n", err);
        return 2;
    }
    Vdut m{ctx};
    v.m = &m;
    r.attach(&m);
    WstChecker chk(r, v.c);
    v.chk = &chk;
    v.reset();
    int rc = o.replay.empty() ? run_random(v) : run_replay(v);
    m.final();
    if (rc == 0 && !o.window_run)
        printf("wst_tb: PASS (entries=%d width=%d warps=%d pc_bits=%d cnt_bits=%d mfc_bits=%d, %" PRIu64 " clocks)\n",
               TB_ENTRIES, TB_WIDTH, TB_WARPS, TB_PC_W, TB_CNT_W, TB_MFC_W, v.cyc);
    return rc;
}

int main(int argc, char **argv) { return tb_main(argc, argv, "wst", wst_run); }
