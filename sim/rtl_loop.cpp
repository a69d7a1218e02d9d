// RTL in the loop (sim/rtl_loop.h, docs/rtl.md): Verilated blocks behind
// the block interface (cmodel/blocks/block.h) inside wpusim-rtl.
//
// Generic over the blocks: a block's port glue is sim/rtl_glue.inc expanded
// from its port table; the blocks and parameter sets built in come from the
// generated rtl_sets.h (sim/rtl_loop.mk, from sim/rtl_loop.params), which
// includes each set's model header, the glue once per block, and defines
// RTL_LOOP_SETS(X) with one X(block, set, "KEY=VALUE ...") per set. Nothing
// below names a block or a port.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "verilated.h"
#include "verilated_fst_c.h"

extern "C" {
#include "blocks/block.h"
#include "rtl_loop.h"
}
#include "rtl_port.h" // port access of any width (tb/common)

// ------------------------------------------------------------------ one Verilated model

// A Verilated block of one parameter set, driven through the C block's in
// and out structs (the glue of sim/rtl_glue.inc implements it per block).
class RtlModel {
  public:
    explicit RtlModel(bool waves) {
        ctx_.fatalOnError(false); // a failed RTL assertion is reported like a mismatch
        if (waves) ctx_.traceEverOn(true);
    }
    virtual ~RtlModel() {}
    virtual void reset() = 0;                         // reset pulse; the mirror refreshed
    virtual void eval(const void *in, void *out) = 0; // outputs into out, out.q = the mirror
    virtual void clock(const void *in) = 0;           // the edge for these inputs; the mirror refreshed
    virtual void *model() = 0;
    virtual void trace_model(VerilatedFstC *f) = 0;
    bool assert_failed() { return ctx_.gotError(); }
    uint64_t edges() const { return edges_; }
    void open_wave(const std::string &path) {
        wave_ = true;
        fst_ = new VerilatedFstC;
        trace_model(fst_);
        fst_->open(path.c_str());
    }

  protected:
    void dump(uint64_t t) {
        if (fst_) fst_->dump(t);
    }
    void close_wave() {
        if (fst_) {
            fst_->close();
            delete fst_;
            fst_ = nullptr;
        }
    }
    VerilatedContext ctx_;
    VerilatedFstC *fst_ = nullptr;
    bool wave_ = false;
    uint64_t edges_ = 0;
};

// ------------------------------------------------------------------ the sets built in

#include "rtl_sets.h" // generated: model headers, the glue per block, RTL_LOOP_SETS

struct RtlSet {
    const char *block, *set, *params;
    RtlModel *(*make)(const void *cfg, const block_ops_t *c, bool waves);
};
static const RtlSet rtl_sets[] = {
#define X(b, s, params) {#b, #s, params, &rtl_##b::make<V##b##_##s>},
    RTL_LOOP_SETS(X)
#undef X
};
static const int rtl_nsets = (int)(sizeof rtl_sets / sizeof rtl_sets[0]);

static bool block_built(const std::string &b) {
    for (const RtlSet &s : rtl_sets)
        if (b == s.block) return true;
    return false;
}

// The value of parameter rtl in a set's "KEY=VALUE ..." list, or -1.
static long set_param(const char *params, const char *rtl) {
    size_t n = strlen(rtl);
    for (const char *p = params; (p = strstr(p, rtl)); p += n)
        if ((p == params || p[-1] == ' ') && p[n] == '=') return strtol(p + n + 1, nullptr, 0);
    return -1;
}

static int cfg_param(const block_ops_t *c, const void *cfg, int k) {
    int v;
    memcpy(&v, (const char *)cfg + c->params[k].offset, sizeof v);
    return v;
}

static std::string cfg_params(const block_ops_t *c, const void *cfg) {
    std::string s;
    for (int k = 0; k < c->nparams; k++)
        s += std::string(k ? " " : "") + c->params[k].rtl + "=" + std::to_string(cfg_param(c, cfg, k));
    return s;
}

// ------------------------------------------------------------------ the loop

enum { MODE_REPLACE, MODE_LOCKSTEP };

struct RtlInst;

struct rtl_loop {
    std::vector<std::string> blocks; // --rtl
    int mode = MODE_REPLACE;
    std::string wave;                // --rtl-wave FILE.fst
    wsim_t *sim = nullptr;           // after attach: the cycle, the stop
    bool failed = false;
    std::vector<RtlInst *> insts;
    std::vector<block_ops_t *> ops;  // one per block in the loop
    // WSIM_RTL_INJECT=BLOCK:CYCLE[:PORT]
    std::string inj_block, inj_port;
    uint64_t inj_cycle = 0;
    bool inj_done = false;
    uint64_t cycle() const { return sim ? wsim_cycles(sim) : 0; }
};

// One block instance in the loop: the RTL (and, in lockstep, the C block).
struct RtlInst {
    rtl_loop *loop;
    const block_ops_t *c; // the C model's ops (ports, widths, comparator)
    const RtlSet *set;
    int unit;
    std::vector<unsigned char> cfg;
    RtlModel *rtl = nullptr;
    void *cblk = nullptr;                // lockstep: the C block
    std::vector<unsigned char> rtl_out;  // lockstep: the RTL's outputs
    uint64_t evals = 0;
};

// The first mismatch (or failed assertion) stops the run at the end of the cycle.
static void fail(RtlInst *x, const char *what, const block_mismatch_t *mm) {
    rtl_loop *L = x->loop;
    if (L->failed) return;
    L->failed = true;
    fprintf(stderr, "wpusim: RTL in the loop: %s at cycle %" PRIu64 ", WPU %d, block %s (set %s, %s mode, clock edge %" PRIu64
                    " of this block)",
            what, L->cycle(), x->unit, x->c->name, x->set->set, L->mode == MODE_LOCKSTEP ? "lockstep" : "replace",
            x->rtl->edges());
    if (mm)
        fprintf(stderr, ": port %s\n  expected (C model) %s\n  actual   (RTL)     %s\n", mm->name, mm->exp, mm->act);
    else
        fprintf(stderr, "\n");
    if (L->sim) wsim_block_failed(L->sim);
}

// The test hook: flip bit 0 of one output port of the RTL's: a
// combinational output in an evaluation's out struct (regs false), or a
// registered read port (entry 0 of an entry field) in the mirror image
// after an edge (regs true; the mirror is refreshed at the next edge).
static void inject(RtlInst *x, void *base, bool regs) {
    rtl_loop *L = x->loop;
    if (L->inj_done || L->inj_block != x->c->name || L->cycle() < L->inj_cycle) return;
    for (int i = 0; i < x->c->nports; i++) {
        const block_port_t &p = x->c->ports[i];
        bool reg = p.timing == BLOCK_REG || p.timing == BLOCK_ENTRY;
        if (L->inj_port.empty() ? p.timing != BLOCK_COMB || regs : L->inj_port != p.name) continue;
        if (p.timing != BLOCK_COMB && !reg) continue;
        if (reg != regs) return; // (its turn comes at the other call)
        unsigned char *m = (unsigned char *)base + (p.timing == BLOCK_ENTRY ? x->c->entry_offset : 0) + p.offset;
        if (p.ctype == BLOCK_MASK) ((wmask_t *)m)->w[0] ^= 1;
        else m[0] ^= 1; // the lowest byte of a little-endian member
        L->inj_done = true;
        fprintf(stderr, "wpusim: WSIM_RTL_INJECT: flipped bit 0 of %s_o%s of %s (WPU %d) at cycle %" PRIu64 "\n", p.name,
                p.timing == BLOCK_ENTRY ? " (entry 0)" : "", x->c->name, x->unit, L->cycle());
        return;
    }
}

// A quick look before block_compare, the judge: equal bytes are equal
// ports (the out struct's last member is q, not compared). Unequal bytes
// (padding, or a real difference) go to block_compare.
static bool same_bytes(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }

static void *ops_init(const void *, char *err, size_t errlen) {
    snprintf(err, errlen, "an RTL block is created through the machine's block hook only");
    return nullptr;
}

static void ops_reset(void *blk) {
    RtlInst *x = (RtlInst *)blk;
    x->rtl->reset();
    if (x->cblk) x->c->reset(x->cblk);
}

static void ops_eval(void *blk, const void *in, void *out) {
    RtlInst *x = (RtlInst *)blk;
    x->evals++;
    if (!x->cblk) { // replace: the RTL's outputs are the block's
        x->rtl->eval(in, out);
        inject(x, out, false);
        return;
    }
    x->c->eval(x->cblk, in, out); // lockstep: the C model's drive the pipeline
    void *ro = x->rtl_out.data();
    x->rtl->eval(in, ro);
    inject(x, ro, false);
    block_mismatch_t mm;
    if (!same_bytes(out, ro, x->c->out_size - sizeof(void *)) && block_compare(x->c, x->cfg.data(), out, ro, BLOCK_CMP_COMB, &mm))
        fail(x, "lockstep mismatch", &mm);
}

static void ops_clock(void *blk, const void *in, const void *out) {
    RtlInst *x = (RtlInst *)blk;
    if (x->cblk) x->c->clock(x->cblk, in, out);
    x->rtl->clock(in);
    if (x->rtl->assert_failed()) fail(x, "an RTL assertion failed (message above)", nullptr);
    const void *ro = x->cblk ? x->rtl_out.data() : out; // (its q: the mirror)
    inject(x, (void *)x->c->regs(ro), true);
    if (!x->cblk) return;
    // the registered read ports after the edge: the C model's image against the RTL's mirror
    block_mismatch_t mm;
    if (!same_bytes(x->c->regs(out), x->c->regs(ro), x->c->state_size) &&
        block_compare(x->c, x->cfg.data(), out, ro, BLOCK_CMP_REGS, &mm))
        fail(x, "lockstep mismatch (registered read port after the edge)", &mm);
}

static void ops_trace(const void *blk, uint64_t cycle, int unit, const void *in, const void *out, FILE *f) {
    const RtlInst *x = (const RtlInst *)blk;
    block_trace_line(x->c, x->cfg.data(), cycle, unit, in, out, nullptr, f);
}

static void ops_free(void *blk) {
    RtlInst *x = (RtlInst *)blk;
    if (x->cblk) x->c->free(x->cblk);
    delete x->rtl;
    x->rtl = nullptr;
    x->cblk = nullptr;
    // the instance itself stays listed for the summary; freed with the loop
}

// The ops of block c in the loop: the C model's table (ports, widths,
// registered image) with the RTL's verbs.
static const block_ops_t *loop_ops(rtl_loop *L, const block_ops_t *c) {
    for (block_ops_t *o : L->ops)
        if (!strcmp(o->name, c->name)) return o;
    block_ops_t *o = new block_ops_t(*c);
    o->init = ops_init;
    o->reset = ops_reset;
    o->eval = ops_eval;
    o->clock = ops_clock;
    o->trace = ops_trace;
    o->free = ops_free;
    L->ops.push_back(o);
    return o;
}

static void *hook_create(void *ctx, const block_ops_t *c, const void *cfg, int unit, const block_ops_t **ops, char *err,
                         size_t errlen) {
    rtl_loop *L = (rtl_loop *)ctx;
    bool want = false;
    for (const std::string &b : L->blocks) want |= b == c->name;
    if (!want) { // the C model
        *ops = c;
        return c->init(cfg, err, errlen);
    }
    const RtlSet *set = nullptr;
    std::string built;
    for (const RtlSet &s : rtl_sets) {
        if (strcmp(s.block, c->name)) continue;
        built += std::string(built.empty() ? "" : "; ") + s.set + " (" + s.params + ")";
        bool same = true;
        for (int k = 0; k < c->nparams && same; k++) same = set_param(s.params, c->params[k].rtl) == cfg_param(c, cfg, k);
        if (same && !set) set = &s;
    }
    if (!set) {
        snprintf(err, errlen,
                 "--rtl %s: no Verilated build of %s for this configuration's parameters: %s; built: %s. "
                 "To build one, add a line '%s NAME %s' to sim/rtl_loop.params and run make wpusim-rtl "
                 "(docs/rtl.md, RTL in the loop)",
                 c->name, c->name, cfg_params(c, cfg).c_str(), built.c_str(), c->name, cfg_params(c, cfg).c_str());
        return nullptr;
    }
    if (L->inj_block == c->name && !L->inj_port.empty()) {
        bool found = false;
        std::string outs;
        for (int i = 0; i < c->nports; i++)
            if (c->ports[i].dir == BLOCK_OUT) {
                found |= L->inj_port == c->ports[i].name;
                outs += std::string(outs.empty() ? "" : ", ") + c->ports[i].name;
            }
        if (!found) {
            snprintf(err, errlen, "WSIM_RTL_INJECT: %s has no output port '%s'; its outputs: %s", c->name,
                     L->inj_port.c_str(), outs.c_str());
            return nullptr;
        }
    }
    RtlInst *x = new RtlInst;
    x->loop = L;
    x->c = c;
    x->set = set;
    x->unit = unit;
    x->cfg.assign((const unsigned char *)cfg, (const unsigned char *)cfg + c->cfg_size);
    x->rtl = set->make(cfg, c, !L->wave.empty());
    if (!L->wave.empty()) {
        std::string base = L->wave;
        if (base.size() > 4 && base.compare(base.size() - 4, 4, ".fst") == 0) base.resize(base.size() - 4);
        x->rtl->open_wave(base + "." + c->name + ".u" + std::to_string(unit) + ".fst");
    }
    if (L->mode == MODE_LOCKSTEP) {
        if (!(x->cblk = c->init(cfg, err, errlen))) {
            delete x->rtl;
            delete x;
            return nullptr;
        }
        x->rtl_out.assign(c->out_size, 0);
    }
    L->insts.push_back(x);
    *ops = loop_ops(L, c);
    return x;
}

// ------------------------------------------------------------------ the C interface

extern "C" const char *rtl_loop_built(void) {
    static std::string s;
    if (!s.empty()) return s.c_str();
    for (int i = 0; i < rtl_nsets; i++) {
        bool first = i == 0 || strcmp(rtl_sets[i - 1].block, rtl_sets[i].block);
        s += std::string(first ? (i ? "), " : "") + std::string(rtl_sets[i].block) + " (" : ", ") + rtl_sets[i].set;
    }
    if (rtl_nsets) s += ")";
    return s.c_str();
}

extern "C" rtl_loop_t *rtl_loop_new(const char *blocks, const char *mode, const char *wave, char *err, size_t errlen) {
    rtl_loop *L = new rtl_loop;
    if (mode && !strcmp(mode, "lockstep")) L->mode = MODE_LOCKSTEP;
    else if (mode && strcmp(mode, "replace")) {
        snprintf(err, errlen, "--rtl-mode %s: expected replace or lockstep", mode);
        delete L;
        return nullptr;
    }
    std::string list = blocks ? blocks : "";
    for (size_t p = 0; p <= list.size();) {
        size_t q = list.find(',', p);
        if (q == std::string::npos) q = list.size();
        std::string b = list.substr(p, q - p);
        p = q + 1;
        if (b.empty()) {
            snprintf(err, errlen, "--rtl %s: an empty block name; expected BLOCK[,BLOCK...] of: %s", list.c_str(),
                     rtl_loop_built());
            delete L;
            return nullptr;
        }
        if (!block_built(b)) {
            bool known = block_find(b.c_str()) != nullptr;
            snprintf(err, errlen, "--rtl %s: %s; this build has the RTL of: %s%s", b.c_str(),
                     known ? "this block has no RTL in this build" : "no such block", rtl_loop_built(),
                     known ? " (docs/rtl.md, RTL in the loop: how to add a block)" : "");
            delete L;
            return nullptr;
        }
        L->blocks.push_back(b);
    }
    if (wave) L->wave = wave;
    if (const char *inj = getenv("WSIM_RTL_INJECT")) {
        std::string s = inj;
        size_t a = s.find(':'), b = a == std::string::npos ? a : s.find(':', a + 1);
        if (a == std::string::npos) {
            snprintf(err, errlen, "WSIM_RTL_INJECT=%s: expected BLOCK:CYCLE[:PORT]", inj);
            delete L;
            return nullptr;
        }
        L->inj_block = s.substr(0, a);
        L->inj_cycle = strtoull(s.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1).c_str(), nullptr, 0);
        if (b != std::string::npos) L->inj_port = s.substr(b + 1);
        bool named = false;
        for (const std::string &x : L->blocks) named |= x == L->inj_block;
        if (!named) {
            snprintf(err, errlen, "WSIM_RTL_INJECT=%s: block %s is not in --rtl %s", inj, L->inj_block.c_str(), list.c_str());
            delete L;
            return nullptr;
        }
    }
    return L;
}

extern "C" wsim_block_hook_t rtl_loop_hook(rtl_loop_t *r) {
    wsim_block_hook_t h;
    h.create = hook_create;
    h.ctx = r;
    return h;
}

extern "C" int rtl_loop_attach(rtl_loop_t *r, wsim_t *s, char *err, size_t errlen) {
    r->sim = s;
    if (r->failed) wsim_block_failed(s); // a mismatch while the machine was created (its first evaluations)
    for (const std::string &b : r->blocks) {
        bool made = false;
        for (RtlInst *x : r->insts) made |= b == x->c->name;
        if (!made) {
            snprintf(err, errlen,
                     "--rtl %s: this configuration has no %s block (its mechanism is off: e.g. wst needs dws = on, "
                     "--policy DWS.ReviveSplit; mdt and asc dom = on; colpick lwm = on; fetcharb scheduler = twolevel)",
                     b.c_str(), b.c_str());
            return -1;
        }
    }
    return 0;
}

extern "C" void rtl_loop_summary(const rtl_loop_t *r, FILE *f) {
    std::string s;
    for (const std::string &b : r->blocks) {
        uint64_t edges = 0, evals = 0;
        int n = 0;
        const char *set = "";
        for (RtlInst *x : r->insts)
            if (b == x->c->name) n++, edges += x->rtl ? x->rtl->edges() : 0, evals += x->evals, set = x->set->set;
        char buf[256];
        snprintf(buf, sizeof buf, "%s%s (set %s) x%d: %" PRIu64 " clock edges, %" PRIu64 " evaluations", s.empty() ? "" : "; ",
                 b.c_str(), set, n, edges, evals);
        s += buf;
    }
    fprintf(f, "wpusim: RTL in the loop, %s mode: %s%s\n", r->mode == MODE_LOCKSTEP ? "lockstep" : "replace", s.c_str(),
            r->failed ? " (FAILED)" : r->mode == MODE_LOCKSTEP ? ", every output equal to the C model's" : "");
}

extern "C" int rtl_loop_failed(const rtl_loop_t *r) { return r->failed; }

extern "C" void rtl_loop_free(rtl_loop_t *r) {
    if (!r) return;
    for (RtlInst *x : r->insts) {
        ops_free(x);
        delete x;
    }
    for (block_ops_t *o : r->ops) delete o;
    delete r;
}
