// Shared pieces of the block testbenches (tb/<block>_tb.cpp): options, the
// stimulus LFSR, the port comparator, the recent-input history and the
// waveform window. A block's testbench supplies one function,
//
//   int block_run(const TbOpts &o, TbRun &r);
//
// that builds the verilated RTL (class Vdut) and the C block, drives both
// and returns 0, or the failing clock's result from r.fail(). tb_main()
// (tb/common/tb_main.cpp) parses the options, calls it, and after a failure
// without +trace calls it once more with the waveform window open around the
// failing clock, so every mismatch leaves a waveform.
//
// Options (Verilator plusargs style, also accepted with a leading "--"):
//   +seed=N        stimulus seed (default: from the clock; always printed)
//   +cycles=N      random clocks to run (default 100000)
//   +replay=FILE   replay a recorded port trace instead of random stimulus
//   +log=FILE      write the random run's operations as a port trace
//   +trace[=FILE]  write the whole run's waveform (FST)
//   +wave=FILE     where a failure's waveform goes (default <block>_fail.fst)
//   +window=N      clocks of waveform kept before a failure (default 64)
//   +quiet         print only failures and the summary line
#ifndef WS_TB_H
#define WS_TB_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "verilated.h"

struct TbOpts {
    uint64_t seed = 0;
    uint64_t cycles = 100000;
    std::string replay, log, wave;
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

// A port value as little-endian 32-bit words, whatever Verilator's type for
// its width (CData/SData/IData/QData or VlWide<N>).
struct PortBits {
    std::vector<uint32_t> w;
    int bits = 0;
    PortBits() = default;
    explicit PortBits(int nbits) : w((nbits + 31) / 32, 0), bits(nbits) {}
    void set_field(int lsb, int width, uint64_t v); // v's low `width` bits at lsb (width <= 64)
    std::string hex() const;
};
PortBits port_bits(uint64_t v, int bits);
template <std::size_t N> PortBits port_bits(const VlWide<N> &v, int bits) {
    PortBits p(bits);
    for (std::size_t i = 0; i < p.w.size() && i < N; i++) p.w[i] = v[i];
    return p;
}

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
    // Compare one port; on a mismatch remember the first one (cycle, port, values).
    bool check(uint64_t cycle, const char *port, const PortBits &exp, const PortBits &act);
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

int tb_main(int argc, char **argv, const char *block, int (*run)(const TbOpts &, TbRun &, VerilatedContext *));

#endif
