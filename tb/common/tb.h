// Shared pieces of the block testbenches (tb/<block>_tb.cpp): options, the
// stimulus LFSR, port access of any width, the failure record, the
// recent-input history, the waveform window, the run state, the trace
// replay and the coverage report. (Comparing ports is the C side's
// block_compare(), cmodel/blocks/block.h, shared with lockstep runs.) A
// block's testbench supplies its Env (a TbEnv; for a block whose RTL ports
// are its port table's, tb_block.h's TbBlockEnv: the port glue, the C side
// and the checker), its random run and
//
//   static int b_run(const TbOpts &o, TbRun &r, VerilatedContext *ctx) {
//       return tb_run<Env>(o, r, ctx, &b_block_ops, &CFG, run_random);
//   }
//   int main(int argc, char **argv) { return tb_main(argc, argv, "b", b_run); }
//
// tb_run builds the verilated RTL (class Vdut) and the C block, drives
// both and returns 0, or the failing clock's result from r.fail().
// tb_main() (tb/common/tb_main.cpp) parses the options, calls b_run, and
// after a failure without +trace calls it once more with the waveform
// window open around the failing clock, so every mismatch leaves a
// waveform.
//
// Options (Verilator plusargs style, also accepted with a leading "--"):
//   +seed=N        stimulus seed (default: from the clock; always printed)
//   +cycles=N      random clocks to run (default 100000)
//   +replay=FILE   replay a port trace (recorded, or a test's .in) instead of random stimulus
//   +expect=FILE   with +replay: the expected outputs of a test's .in (its .expect)
//   +log=FILE      write the random run's operations as a port trace
//   +trace[=FILE]  write the whole run's waveform (FST)
//   +wave=FILE     where a failure's waveform goes (default <block>_fail.fst)
//   +window=N      clocks of waveform kept before a failure (default 64)
//   +quiet         print only failures and the summary line
#ifndef WS_TB_H
#define WS_TB_H

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "verilated.h"

extern "C" {
#include "blocks/block.h"
#include "mask.h"
}

// The waveform's time: a clock is 10 ns (100 MHz; the FST's unit is 1 ns,
// flow.mk's --timescale): a testbench dumps clock k at 2k (before its edge)
// and 2k + 1 (after), TbRun::dump scales by this.
enum { TB_NS_PER_HALF_CLOCK = 5 };

struct TbOpts {
    uint64_t seed = 0;
    uint64_t cycles = 100000;
    std::string replay, expect, log, wave;
    bool trace = false, quiet = false;
    uint64_t window = 64;
    // Set by tb_main for the second run after a failure: dump [from, to].
    bool window_run = false;
    uint64_t trace_from = 0, trace_to = 0;
};

// The stimulus generator: a 64-bit xorshift LFSR (a linear shift-register
// generator), seeded once, so a run is replayed from its seed alone.
class Lfsr {
  public:
    explicit Lfsr(uint64_t seed) : s_(seed ? seed : 0x9e3779b97f4a7c15ull) {}
    uint64_t next() {
        s_ ^= s_ << 13;
        s_ ^= s_ >> 7;
        s_ ^= s_ << 17;
        return s_;
    }
    uint64_t below(uint64_t n) { return n ? next() % n : 0; } // 0 .. n-1
    bool chance(unsigned percent) { return below(100) < percent; }
    uint64_t bits(int n) { return n >= 64 ? next() : next() & ((1ull << n) - 1); }

  private:
    uint64_t s_;
};

// Bits [lsb, lsb + width) of a port (width <= 64), whatever Verilator's
// type for its width (CData/SData/IData/QData or VlWide<N>).
inline uint64_t tb_field(uint64_t v, int lsb, int width) {
    v = lsb >= 64 ? 0 : v >> lsb;
    return width >= 64 ? v : v & ((1ull << width) - 1);
}
template <std::size_t N> uint64_t tb_field(const VlWide<N> &v, int lsb, int width) {
    uint64_t r = 0;
    for (int i = 0; i < width; i++) {
        int b = lsb + i;
        if ((std::size_t)(b / 32) < N && ((v[b / 32] >> (b % 32)) & 1)) r |= 1ull << i;
    }
    return r;
}
// The low `width` bits of a C port member (a port table's C types; lanes
// up to 64 on the RTL side), and a member set from a port's value.
inline uint64_t tb_bits(uint64_t v, int width) { return width >= 64 ? v : v & ((1ull << width) - 1); }
inline uint64_t tb_bits(const wmask_t &v, int width) { return tb_bits(v.w[0], width); }
template <class T> void tb_put(T &member, uint64_t v) { member = (T)v; }
inline void tb_put(wmask_t &member, uint64_t v) {
    member = wmask_none();
    member.w[0] = v;
}
// A bit vector in hex, without leading zeros.
std::string tb_hex(const wmask_t &v);

// The last few clocks' inputs, printed with a failure.
class History {
  public:
    explicit History(std::size_t depth = 8) : depth_(depth) {}
    void push(const std::string &line);
    void print(FILE *f) const;

  private:
    std::size_t depth_;
    std::vector<std::string> lines_;
};

class VerilatedFstC;

// One run's bookkeeping: the clock count, the waveform, the failure.
class TbRun {
  public:
    TbRun(const TbOpts &o, VerilatedContext *ctx);
    ~TbRun();
    // After constructing the model: attach the waveform when this run records one.
    template <class M> void attach(M *model) {
        if (want_waves()) model->trace(trace_handle(), 99);
        open_waves();
    }
    void dump(uint64_t time); // call after each eval that changes signals
    // Remember the first mismatch: its clock, the port, the expected value
    // (and where it comes from: the C model, a recorded trace) and the RTL's.
    void mismatch(uint64_t cycle, const std::string &port, const char *exp_from, const std::string &exp,
                  const std::string &act);
    // Record a failure that is not a port mismatch (a failed assertion).
    void failure(uint64_t cycle, const std::string &msg);
    bool failed() const { return failed_; }
    uint64_t fail_cycle() const { return fail_cycle_; }
    // Report the failure (with the recent inputs) and return the exit code.
    int fail(const History &h);
    void close();

  private:
    bool want_waves() const;
    VerilatedFstC *trace_handle();
    void open_waves();
    const TbOpts &o_;
    VerilatedContext *ctx_;
    VerilatedFstC *fst_ = nullptr;
    bool failed_ = false;
    uint64_t fail_cycle_ = 0;
    std::string fail_msg_;
};

// One clock's inputs (an in struct of block b), for the failure report.
std::string tb_input_line(const block_ops_t *b, const void *cfg, uint64_t cyc, const void *in, bool rst);

// One run of a block's testbench, shared by its random run and its replay:
// the options, the run's record, the block's port table and parameters,
// the verilated model, the checker, the recent inputs and the clock. A
// testbench's Env derives from it with its C side and
//   bool init(char *err, size_t len);                the C side (false: refused)
//   void reset();                                    both sides, from reset
//   bool settle(const In &, Out &, bool comb_only);  drive, evaluate both, compare
//   bool edge(const In &, const Out &);              both sides' clock edge
template <class Model, class Checker, class In, class Out> struct TbEnv {
    typedef Model model_type;
    typedef Checker checker_type;
    typedef In in_type;
    typedef Out out_type;
    const TbOpts &o;
    TbRun &r;
    VerilatedContext *ctx;
    const block_ops_t *ops;
    const void *cfg;
    Model *m = nullptr;
    Checker *chk = nullptr;
    History hist;
    uint64_t cyc = 0;
    TbEnv(const TbOpts &o_, TbRun &r_, VerilatedContext *ctx_, const block_ops_t *ops_, const void *cfg_)
        : o(o_), r(r_), ctx(ctx_), ops(ops_), cfg(cfg_) {}
    // This clock's inputs, for the failure report.
    std::string input_line(const In &in, bool rst) const { return tb_input_line(ops, cfg, cyc, &in, rst); }
    // The replay's hooks (tb_replay), none by default: after each line
    // whose outputs matched; counts the summary line adds; after that line.
    void replayed(const In &, const Out &, const block_row_t &) {}
    std::string replay_counts() const { return ""; }
    void replay_done() const {}
};

// Reads the trace to replay (o.replay), which must be of block b with the
// parameters cfg, and with +expect the expected outputs (o.expect); *from
// says where the outputs come from ("recorded", "expected"). Returns 0, or
// after saying why 2 (a file unreadable or malformed) or 3 (a trace of
// other parameters: both headers).
int tb_replay_read(const TbOpts &o, const block_ops_t *b, const void *cfg, block_trace_t *t, const char **from);

// Replay: a port trace (block.h; recorded by wpusim or +log, or a test's
// .in with +expect=its .expect). Each unit's lines from reset on
// consecutive clocks, units in order of first appearance; every line is
// checked RTL against C on every port, and where the trace or the .expect
// gives outputs (and registered read ports), RTL against those (the
// checker's rtl(): the RTL's out struct as last read).
template <class Env> int tb_replay(Env &v) {
    typedef typename Env::in_type In;
    typedef typename Env::out_type Out;
    block_trace_t t;
    const char *from = nullptr;
    int rc = tb_replay_read(v.o, v.ops, v.cfg, &t, &from);
    if (rc) return rc;
    const char *path = v.o.replay.c_str(), *block = v.ops->name;
    size_t checked = 0, nunits = 0, *order = block_trace_order(&t, &nunits); // (any number of units)
    if (!order) {
        fprintf(stderr, "%s_tb: %s: out of memory\n", block, path);
        rc = 2;
    }
    for (size_t k = 0; k < t.n && !rc; k++) {
        const size_t i = order[k];
        const block_row_t &row = t.row[i];
        if (k == 0 || row.unit != t.row[order[k - 1]].unit) v.reset(); // each unit from reset
        if (!row.has_in) {
            fprintf(stderr, "%s_tb: %s:%ld: no inputs on this line\n", block, path, row.lineno);
            rc = 2;
            break;
        }
        const In &in = *(const In *)block_trace_in(&t, i);
        Out out{};
        char tag[64];
        snprintf(tag, sizeof tag, "u=%x line %ld rec c=%" PRIx64 " ", row.unit, row.lineno, row.cycle);
        v.hist.push(tag + v.input_line(in, false));
        if (!v.settle(in, out, false)) { rc = v.r.fail(v.hist); break; }
        // The RTL against the trace's (or the .expect's) outputs.
        block_mismatch_t mm;
        const Out &rtl = v.chk->rtl();
        bool bad = row.has_out && block_compare(v.ops, v.cfg, block_trace_out(&t, i), &rtl, BLOCK_CMP_COMB, &mm);
        if (!bad && t.chk[i]) bad = block_check_regs(v.ops, v.cfg, t.chk[i], rtl.q, &mm);
        if (bad) {
            v.r.mismatch(v.cyc, std::string(mm.name) + " (" + from + ")", from, mm.exp, mm.act);
            rc = v.r.fail(v.hist);
            break;
        }
        v.replayed(in, out, row);
        checked += row.has_out;
        if (!v.edge(in, out)) { rc = v.r.fail(v.hist); break; }
    }
    free(order);
    if (rc == 0) {
        printf("%s_tb: replayed %zu clocks of %zu unit(s) from %s, %zu with %s outputs%s: all outputs match\n", block,
               t.n, nunits, path, checked, from, v.replay_counts().c_str());
        v.replay_done();
    }
    block_trace_free(&t);
    return rc;
}

// Runs of at least this many clocks must hit every coverage point.
enum { TB_COVER_MIN_CYCLES = 100000 };

// A testbench's coverage points from its X-macro list POINTS(X), each
// X(name, "what it means"): the enum COV_<name> (COV_N of them) and the
// arrays cov_name and cov_text its TbCover points at.
#define TB_COV_ENUM_(name, text) COV_##name,
#define TB_COV_NAME_(name, text) #name,
#define TB_COV_TEXT_(name, text) text,
#define TB_COVER_TABLES(POINTS)                                      \
    enum { POINTS(TB_COV_ENUM_) COV_N };                             \
    static const char *const cov_name[] = {POINTS(TB_COV_NAME_)};    \
    static const char *const cov_text[] = {POINTS(TB_COV_TEXT_)}

// A random run's coverage points, from the testbench's X-macro list.
struct TbCover {
    int n;
    const char *const *name, *const *text; // the point, what it means
    bool (*applies)(int k);                // reachable with this build's parameters
    int name_width;                        // of the report's name column
};
// The report at the end of a random run with `resets` resets (`more`: the
// rest of its heading): every point and its count, with +quiet only the
// missed ones. Returns 1 when a point that applies was missed in a run of
// TB_COVER_MIN_CYCLES clocks or more, else 0.
int tb_coverage_report(const TbOpts &o, const char *block, const TbCover &p, const uint64_t *count, int resets,
                       const std::string &more = "");

// The build's parameters as a trace header names them ("entries=16 ...").
std::string tb_params(const block_ops_t *b, const void *cfg);

// A block's run (tb_main's `run`): the C side initialized (exit 2 when it
// refuses the parameters), the model built with its waveform, the checker,
// both reset, then the random run or the replay of +replay. The PASS line
// names the build's parameters, and `more` what else the build is.
template <class Env>
int tb_run(const TbOpts &o, TbRun &r, VerilatedContext *ctx, const block_ops_t *ops, const void *cfg,
           int (*random)(Env &), const std::string &more = "") {
    // The C objects and this harness must agree on the structs (their masks:
    // WSIM_MAX_LANES; tb/flow.mk builds both with a block's TB_LANES_<b>).
    if (ops->in_size != sizeof(typename Env::in_type) || ops->out_size != sizeof(typename Env::out_type)) {
        fprintf(stderr,
                "%s_tb: the C objects' port structs differ from this testbench's (masks of %d lanes here): "
                "build both with the same WSIM_MAX_LANES (tb/flow.mk, TB_LANES_%s)\n",
                ops->name, WSIM_MAX_LANES, ops->name);
        return 2;
    }
    Env v(o, r, ctx, ops, cfg);
    char err[256];
    if (!v.init(err, sizeof err)) {
        fprintf(stderr, "%s_tb: %s\n", ops->name, err);
        return 2;
    }
    typename Env::model_type m{ctx};
    v.m = &m;
    r.attach(&m);
    typename Env::checker_type chk(r, ops, cfg);
    v.chk = &chk;
    v.reset();
    int rc = o.replay.empty() ? random(v) : tb_replay(v);
    m.final();
    if (rc == 0 && !o.window_run)
        printf("%s_tb: PASS (%s%s, %" PRIu64 " clocks)\n", ops->name, tb_params(ops, cfg).c_str(), more.c_str(), v.cyc);
    return rc;
}

int tb_main(int argc, char **argv, const char *block, int (*run)(const TbOpts &, TbRun &, VerilatedContext *));

#endif
