// Shared testbench driver: options, the waveform, the failure report
// with the recent inputs, the coverage report, reading a replay's trace,
// the PASS line's parameters (see tb.h).
#include "tb.h"

#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <ctime>
#include <fstream>
#include <sstream>

#include "verilated_fst_c.h"

std::string tb_hex(const wmask_t &v) {
    static const char hx[] = "0123456789abcdef";
    std::string s;
    bool lead = true;
    for (int d = WSIM_MAX_LANES / 4 - 1; d >= 0; d--) {
        int nib = (int)((v.w[d / 16] >> (4 * (d % 16))) & 15);
        if (lead && nib == 0 && d > 0) continue;
        lead = false;
        s += hx[nib];
    }
    return s;
}

std::string tb_input_line(const block_ops_t *b, const void *cfg, uint64_t cyc, const void *in, bool rst) {
    std::string s = "c=" + std::to_string(cyc) + (rst ? " RESET" : "");
    for (int i = 0; i < b->nports; i++) {
        const block_port_t &p = b->ports[i];
        if (p.timing != BLOCK_EARLY && p.timing != BLOCK_LATE) continue;
        s += std::string(" ") + p.name + "=" + tb_hex(block_get(b, cfg, i, 0, in, nullptr, nullptr));
    }
    return s;
}

void History::push(const std::string &line) {
    lines_.push_back(line);
    if (lines_.size() > depth_) lines_.erase(lines_.begin());
}

void History::print(FILE *f) const {
    for (const auto &l : lines_) fprintf(f, "  %s\n", l.c_str());
}

TbRun::TbRun(const TbOpts &o, VerilatedContext *ctx) : o_(o), ctx_(ctx) {}
TbRun::~TbRun() { close(); }

bool TbRun::want_waves() const { return o_.trace || o_.window_run; }

VerilatedFstC *TbRun::trace_handle() {
    if (!fst_) fst_ = new VerilatedFstC;
    return fst_;
}

void TbRun::open_waves() {
    if (fst_) fst_->open(o_.wave.c_str());
}

void TbRun::dump(uint64_t time) {
    if (!fst_) return;
    if (o_.window_run && (time < 2 * o_.trace_from || time > 2 * o_.trace_to + 1)) return;
    fst_->dump(time * TB_NS_PER_HALF_CLOCK);
}

void TbRun::close() {
    if (fst_) {
        fst_->close();
        delete fst_;
        fst_ = nullptr;
    }
}

void TbRun::mismatch(uint64_t cycle, const std::string &port, const char *exp_from, const std::string &exp,
                     const std::string &act) {
    if (failed_) return;
    failed_ = true;
    fail_cycle_ = cycle;
    char buf[64];
    snprintf(buf, sizeof buf, "clock %" PRIu64 ": port ", cycle);
    fail_msg_ = std::string(buf) + port + "\n  expected (" + exp_from + ") " + exp + "\n  actual   (RTL)     " + act;
}

void TbRun::failure(uint64_t cycle, const std::string &msg) {
    if (failed_) return;
    failed_ = true;
    fail_cycle_ = cycle;
    char buf[64];
    snprintf(buf, sizeof buf, "clock %" PRIu64 ": ", cycle);
    fail_msg_ = buf + msg;
}

int TbRun::fail(const History &h) {
    fprintf(stderr, "FAIL at %s\n recent inputs, oldest first:\n", fail_msg_.c_str());
    h.print(stderr);
    return 1;
}

int tb_coverage_report(const TbOpts &o, const char *block, const TbCover &p, const uint64_t *count, int resets,
                       const std::string &more) {
    int missed = 0;
    if (!o.quiet) printf("coverage (%" PRIu64 " clocks, %d resets%s):\n", o.cycles, resets, more.c_str());
    for (int k = 0; k < p.n; k++) {
        bool need = p.applies(k);
        if (need && !count[k]) missed++;
        if (!o.quiet || (need && !count[k]))
            printf("  %-*s %10" PRIu64 "%s  %s\n", p.name_width, p.name[k], count[k],
                   need ? (count[k] ? "" : "  MISSED") : "  (n/a)", p.text[k]);
    }
    if (missed && o.cycles < TB_COVER_MIN_CYCLES) {
        printf("%s_tb: %d coverage points not hit (not required below %d clocks)\n", block, missed,
               TB_COVER_MIN_CYCLES);
    } else if (missed) {
        printf("%s_tb: FAIL: %d coverage points not hit\n", block, missed);
        return 1;
    }
    return 0;
}

int tb_replay_read(const TbOpts &o, const block_ops_t *b, const void *cfg, block_trace_t *t, const char **from) {
    const char *path = o.replay.c_str();
    char err[512];
    if (block_trace_read(path, t, err, sizeof err) < 0) {
        fprintf(stderr, "%s_tb: %s\n", b->name, err);
        return 2;
    }
    if (t->ops != b || memcmp(t->cfg, cfg, b->cfg_size)) {
        char *got = nullptr, *want = nullptr;
        size_t n1 = 0, n2 = 0;
        FILE *h1 = open_memstream(&got, &n1), *h2 = open_memstream(&want, &n2);
        block_trace_header(t->ops, t->cfg, h1);
        block_trace_header(b, cfg, h2);
        fclose(h1);
        fclose(h2);
        fprintf(stderr, "%s_tb: %s: trace parameters\n%s  this testbench was built for\n%s", b->name, path, got, want);
        free(got);
        free(want);
        block_trace_free(t);
        return 3;
    }
    *from = "recorded";
    if (!o.expect.empty()) {
        block_trace_t x;
        int r = block_trace_read(o.expect.c_str(), &x, err, sizeof err);
        if (r == 0) {
            r = block_trace_expect(t, &x, o.expect.c_str(), err, sizeof err);
            block_trace_free(&x);
        }
        if (r < 0) {
            fprintf(stderr, "%s_tb: %s\n", b->name, err);
            block_trace_free(t);
            return 2;
        }
        *from = "expected";
    }
    return 0;
}

std::string tb_params(const block_ops_t *b, const void *cfg) {
    std::string s;
    for (int i = 0; i < b->nparams; i++) {
        int v;
        memcpy(&v, (const char *)cfg + b->params[i].offset, sizeof v);
        s += std::string(i ? " " : "") + b->params[i].name + "=" + std::to_string(v);
    }
    return s;
}

static bool opt_value(const char *arg, const char *name, const char **val) {
    while (*arg == '-' || *arg == '+') arg++;
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return false;
    if (arg[n] == '=') { *val = arg + n + 1; return true; }
    if (arg[n] == 0) { *val = nullptr; return true; }
    return false;
}

// ------------------------------------------------------------------ the view

#define TB_STR2(x) #x
#define TB_STR(x) TB_STR2(x)

// The clocks of the first operations a random run logged (+log: the port
// trace's "c=<hex>" lines), at most n.
static std::vector<uint64_t> logged_clocks(const std::string &log, size_t n) {
    std::vector<uint64_t> c;
    std::ifstream f(log);
    std::string line;
    while (c.size() < n && std::getline(f, line))
        if (line.compare(0, 2, "c=") == 0) c.push_back(strtoull(line.c_str() + 2, nullptr, 16));
    return c;
}

// A GTKWave save file beside the waveform fst (its .gtkw): the block's
// layout (tb/<block>.gtkw, from the port table) opened on clocks
// [from, to], the primary marker at clock mark (< 0: none), its translate
// files found from anywhere. Returns its path ("" when the layout could
// not be read or the file written).
static std::string tb_view(const char *block, const std::string &fst, uint64_t from, uint64_t to, int64_t mark) {
#ifdef TB_ROOT
    const std::string root = TB_STR(TB_ROOT);
#else
    const std::string root = ".";
#endif
    std::ifstream in(root + "/tb/" + block + ".gtkw");
    if (!in) return "";
    std::string view = fst.size() > 4 && fst.compare(fst.size() - 4, 4, ".fst") == 0 ? fst.substr(0, fst.size() - 4) : fst;
    view += ".gtkw";
    char abs[4096];
    std::string dump = realpath(fst.c_str(), abs) ? abs : fst;
    // GTKWave's zoom: the waves of the layout's 1400 x 900 window span
    // 4.26 * 2^-zoom time units (measured with GTKWave 3.3: 4.26 ns at zoom
    // 0, 1090 ns at zoom -8)
    const double ns = (double)(to - from + 1) * 2 * TB_NS_PER_HALF_CLOCK;
    std::ostringstream out;
    out << "[*] " << block << "_tb's view of " << fst << ": clocks " << from << ".." << to
        << (mark >= 0 ? ", marker at clock " + std::to_string(mark) : std::string()) << "; one clock is "
        << 2 * TB_NS_PER_HALF_CLOCK << " ns\n";
    out << "[dumpfile] \"" << dump << "\"\n";
    std::string line;
    while (std::getline(in, line)) {
        if (line.compare(0, 11, "[timestart]") == 0) {
            out << "[timestart] " << from * 2 * TB_NS_PER_HALF_CLOCK << "\n";
            continue;
        }
        if (line.compare(0, 6, "[size]") == 0) { // (the zoom after the window's size, as GTKWave writes it)
            out << line << "\n";
            char z[64];
            snprintf(z, sizeof z, "*%.6f %" PRId64, -std::log2(ns / 4.26),
                     mark >= 0 ? (int64_t)(mark * 2 * TB_NS_PER_HALF_CLOCK) : (int64_t)-1);
            out << z;
            for (int k = 0; k < 26; k++) out << " -1";
            out << "\n";
            continue;
        }
        if (line.size() > 3 && line[0] == '^' && line.find(" tb/") != std::string::npos)
            line.replace(line.find(" tb/") + 1, 0, root + "/"); // a translate file of the tree
        out << line << "\n";
    }
    FILE *f = fopen(view.c_str(), "w");
    if (!f) return "";
    const std::string text = out.str();
    bool ok = fwrite(text.data(), 1, text.size(), f) == text.size();
    ok = fclose(f) == 0 && ok;
    return ok ? view : "";
}

int tb_main(int argc, char **argv, const char *block, int (*run)(const TbOpts &, TbRun &, VerilatedContext *)) {
    TbOpts o;
    bool seeded = false;
    for (int i = 1; i < argc; i++) {
        const char *v = nullptr;
        if (opt_value(argv[i], "seed", &v) && v) { o.seed = strtoull(v, nullptr, 0); seeded = true; }
        else if (opt_value(argv[i], "cycles", &v) && v) o.cycles = strtoull(v, nullptr, 0);
        else if (opt_value(argv[i], "replay", &v) && v) o.replay = v;
        else if (opt_value(argv[i], "expect", &v) && v) o.expect = v;
        else if (opt_value(argv[i], "log", &v) && v) o.log = v;
        else if (opt_value(argv[i], "window", &v) && v) o.window = strtoull(v, nullptr, 0);
        else if (opt_value(argv[i], "trace", &v)) { o.trace = true; if (v) o.wave = v; }
        else if (opt_value(argv[i], "wave", &v) && v) o.wave = v;
        else if (opt_value(argv[i], "quiet", &v)) o.quiet = true;
        else {
            fprintf(stderr, "%s_tb: unknown option %s\n"
                    "usage: %s_tb [+seed=N] [+cycles=N] [+replay=FILE [+expect=FILE]] [+log=FILE] [+trace[=FILE]] [+wave=FILE] [+window=N] [+quiet]\n",
                    block, argv[i], block);
            return 2;
        }
    }
    if (!seeded) o.seed = ((uint64_t)time(nullptr) << 20) ^ (uint64_t)clock();
    if (o.wave.empty()) o.wave = std::string(block) + (o.trace ? ".fst" : "_fail.fst");
    if (o.replay.empty()) printf("%s_tb: seed %" PRIu64 " (replay with +seed=%" PRIu64 ")\n", block, o.seed, o.seed);

    int rc;
    uint64_t fail_cycle;
    bool mismatch;
    {
        VerilatedContext ctx;
        ctx.fatalOnError(false); // a failed assertion is reported like a mismatch
        ctx.traceEverOn(true);
        TbRun r(o, &ctx);
        rc = run(o, r, &ctx);
        fail_cycle = r.fail_cycle();
        mismatch = r.failed();
    }
    if (rc != 0 && mismatch && !o.trace) { // a mismatch or a failed assertion
        // Run again, recording only the clocks before the failure.
        TbOpts w = o;
        w.window_run = true;
        w.quiet = true;
        w.log.clear();
        w.trace_from = fail_cycle > o.window ? fail_cycle - o.window : 0;
        w.trace_to = fail_cycle + 1;
        VerilatedContext ctx;
        ctx.fatalOnError(false);
        ctx.traceEverOn(true);
        TbRun r(w, &ctx);
        FILE *devnull = freopen("/dev/null", "w", stderr);
        (void)devnull;
        run(w, r, &ctx);
        r.close();
        printf("%s_tb: waveform of clocks %" PRIu64 "..%" PRIu64 " in %s\n", block, w.trace_from, w.trace_to,
               o.wave.c_str());
        // opened on the clocks just before the failure, the marker on it
        const uint64_t from = fail_cycle > 24 ? fail_cycle - 24 : 0;
        std::string view = tb_view(block, o.wave, from > w.trace_from ? from : w.trace_from, fail_cycle + 2,
                                   (int64_t)fail_cycle);
        if (!view.empty()) printf("%s_tb: open it at the failing clock: gtkwave %s %s\n", block, o.wave.c_str(), view.c_str());
    }
    if (rc == 0 && o.trace) {
        printf("%s_tb: waveform in %s\n", block, o.wave.c_str());
        // opened on the busiest 96 clocks among the first operations the
        // run logged (+log: the logged clocks), else on the first clocks.
        // (The first operations after reset can be sparse: a block whose
        // random stimulus idles often would open on a mostly empty view.)
        std::vector<uint64_t> ops = o.log.empty() ? std::vector<uint64_t>() : logged_clocks(o.log, 4096);
        size_t best = 0, best_n = 0;
        for (size_t i = 0, j = 0; i < ops.size(); i++) { // window [ops[i], ops[i] + 93]
            while (j < ops.size() && ops[j] <= ops[i] + 93) j++;
            if (j - i > best_n) { best = i; best_n = j - i; }
        }
        uint64_t from = ops.empty() ? 0 : (ops[best] > 2 ? ops[best] - 2 : 0);
        uint64_t to = ops.empty() ? 47 : ops[best + best_n - 1] + 2;
        if (to < from + 31) to = from + 31;
        if (to > from + 95) to = from + 95;
        std::string view = tb_view(block, o.wave, from, to, -1);
        if (!view.empty())
            printf("%s_tb: view of clocks %" PRIu64 "..%" PRIu64 " (%zu operations): gtkwave %s %s\n", block, from, to,
                   best_n, o.wave.c_str(), view.c_str());
    }
    return rc;
}
