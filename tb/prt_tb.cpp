// Partitioned register table testbench: the verilated rtl/ws_prt.sv (class
// Vdut, or the synthesized netlist under the same name) and the C block
// cmodel/blocks/prt.c run side by side, driven with the same inputs every
// clock; every output port is compared every clock (docs/rtl.md).
//
// Stimulus: constrained random from a seeded LFSR, as the vector core drives
// the table (partitions launched into free slots with their vector length,
// ended, their registers renamed on every port), in phases that fill the
// table, drain it, rename heavily (also slots that hold nothing and
// registers past REGS) and drive raw random bits; resets in the middle of
// the run. Or the replay of a port trace (recorded by `wpusim
// --record-block prt=FILE`, written by +log=FILE here, or a hand-worked
// test's .in with its .expect).
#include <string>
#include <vector>

#include "Vdut.h"
#include "tb.h"
#define RTL_B prt
#include "tb_block.h" // the port glue, the C side, the checker
#undef RTL_B

static const prt_config_t CFG = {TB_PARTS, TB_REGS, TB_PHYS, TB_VL_W, TB_PORTS};
static const int P = TB_PARTS, PORTS = TB_PORTS, BLOCKS = TB_PHYS / TB_REGS;
static const block_ops_t *const B = &prt_block_ops;

static const int PART_W = prt_port_width(&CFG, PRT_P_alloc_part), REG_W = prt_port_width(&CFG, PRT_P_ren_reg) / TB_PORTS;

// ------------------------------------------------------------------ coverage

#define COVER_POINTS(X)                                                                           \
    X(rename_ok, "a register renamed")                                                            \
    X(rename_all_ports, "every port renames in one clock")                                        \
    X(rename_empty_slot, "a rename of a slot that holds no partition")                            \
    X(rename_past_regs, "a register past REGS (REGS not a power of two)")                          \
    X(rename_past_parts, "a slot past PARTS (PARTS not a power of two)")                           \
    X(rename_high_block, "a rename into a block other than the first")                            \
    X(alloc, "a partition launched")                                                              \
    X(alloc_slot_busy, "a launch into a slot that holds a partition: refused")                     \
    X(alloc_no_block, "a launch refused: every register block in use")                            \
    X(alloc_reuses, "a launch takes a block an ended partition freed (not the last one)")          \
    X(free, "a partition ended")                                                                  \
    X(free_and_alloc, "an end and a launch in one clock")                                         \
    X(full, "every slot holds a partition")                                                       \
    X(reset_mid_run, "reset in the middle of a run")

TB_COVER_TABLES(COVER_POINTS);

static bool cov_applies(int k) {
    switch (k) {
    case COV_rename_all_ports: return true;
    case COV_rename_past_regs: return (TB_REGS & (TB_REGS - 1)) != 0 && TB_REGS > 2;
    case COV_rename_past_parts: return (P & (P - 1)) != 0 && P > 2;
    case COV_rename_high_block: case COV_alloc_reuses: return BLOCKS >= 2 && P >= 2;
    case COV_alloc_no_block: return BLOCKS < P;
    case COV_full: return BLOCKS >= P;
    case COV_free_and_alloc: return P >= 2;
    default: return true;
    }
}

// ------------------------------------------------------------------ random stimulus

enum Phase { FILL, DRAIN, RENAME, RAW, NPHASES };

class Stimulus : public TbStimulus<glue_prt::Glue> {
  public:
    explicit Stimulus(uint64_t seed) : rng_(seed) { next_phase(); }
    void next_phase() {
        phase_ = (Phase)rng_.below(NPHASES);
        left_ = 16 + rng_.below(300);
    }
    // The early inputs of this clock, from the table's state (the registered read ports).
    void early(const prt_t &c, prt_in_t &in) {
        if (left_-- == 0) next_phase();
        in.ren_v = 0;
        in.ren_part = wmask_none();
        in.ren_reg = wmask_none();
        const unsigned busy = phase_ == RENAME ? 90 : 50;
        for (int p = 0; p < PORTS; p++) {
            if (!rng_.chance(busy)) continue;
            in.ren_v |= 1u << p;
            uint32_t part = (uint32_t)rng_.below((uint64_t)P), reg = (uint32_t)rng_.below((uint64_t)TB_REGS);
            if (phase_ == RAW || rng_.chance(5)) part = (uint32_t)rng_.bits(PART_W), reg = (uint32_t)rng_.bits(REG_W);
            prt_set_field(&in.ren_part, p, PART_W, part);
            prt_set_field(&in.ren_reg, p, REG_W, reg);
        }
        if (phase_ == RAW && rng_.chance(30)) in.ren_v = (uint32_t)rng_.bits(PORTS);
        // the launcher looks at a free slot (mostly)
        int freeslot = -1;
        for (int s = 0; s < P; s++)
            if (!c.q.e[s].valid && (freeslot < 0 || rng_.chance(30))) freeslot = s;
        in.alloc_part = (uint8_t)(freeslot >= 0 && !rng_.chance(10) ? freeslot : rng_.bits(PART_W));
    }
    void late(const prt_t &c, const prt_out_t &o, prt_in_t &in) {
        const unsigned pa = phase_ == FILL ? 60 : phase_ == DRAIN ? 5 : 25;
        const unsigned pf = phase_ == DRAIN ? 60 : phase_ == FILL ? 5 : 25;
        in.alloc = rng_.chance(pa) || (phase_ == RAW && rng_.chance(50));
        in.alloc_vl = (uint16_t)rng_.bits(TB_VL_W);
        int valid = -1;
        for (int s = 0; s < P; s++)
            if (c.q.e[s].valid && (valid < 0 || rng_.chance(40))) valid = s;
        in.free = rng_.chance(pf) && (valid >= 0 || phase_ == RAW);
        in.free_part = (uint8_t)(valid >= 0 && !rng_.chance(5) ? valid : rng_.bits(PART_W));
        (void)o;
    }
    void junk(prt_in_t &in) {
        in.alloc = (uint8_t)rng_.bits(1);
        in.alloc_vl = (uint16_t)rng_.bits(TB_VL_W);
        in.free = (uint8_t)rng_.bits(1);
        in.free_part = (uint8_t)rng_.bits(PART_W);
    }
    bool reset_now() { return rng_.below(6000) == 0; }
    void on_reset() { last_freed_ = -1; }
    void cover(uint64_t *cov, const prt_t &c, const prt_in_t &in, const prt_out_t &o);

  private:
    Lfsr rng_;
    Phase phase_ = FILL;
    uint64_t left_ = 0;
    int last_freed_ = -1; // the register block the last end freed (coverage)
};

struct Env : TbBlockEnv<Vdut, glue_prt::Glue> {
    using TbBlockEnv::TbBlockEnv;
    size_t allocs = 0, frees = 0;
    void replayed(const prt_in_t &in, const prt_out_t &out, const block_row_t &) {
        allocs += in.alloc && out.alloc_ok;
        frees += in.free;
    }
    std::string replay_counts() const {
        return ", " + std::to_string(allocs) + " launches, " + std::to_string(frees) + " ends";
    }
};

void Stimulus::cover(uint64_t *cov, const prt_t &c, const prt_in_t &in, const prt_out_t &o) {
    const prt_state_t &q = c.q;
    int nvalid = 0;
    for (int s = 0; s < P; s++) nvalid += q.e[s].valid;
    if (nvalid == P) cov[COV_full]++;
    if (o.ren_ok) cov[COV_rename_ok]++;
    if (PORTS > 0 && o.ren_ok == (PORTS >= 32 ? 0xffffffffu : (1u << PORTS) - 1)) cov[COV_rename_all_ports]++;
    for (int p = 0; p < PORTS; p++) {
        if (!((in.ren_v >> p) & 1)) continue;
        uint32_t part = prt_field(&in.ren_part, p, PART_W), reg = prt_field(&in.ren_reg, p, REG_W);
        if (part >= (uint32_t)P) cov[COV_rename_past_parts]++;
        else if (!q.e[part].valid) cov[COV_rename_empty_slot]++;
        else if (reg >= (uint32_t)TB_REGS) cov[COV_rename_past_regs]++;
        else if (q.e[part].base > 0) cov[COV_rename_high_block]++;
    }
    if (in.alloc) {
        if (o.alloc_ok) {
            cov[COV_alloc]++;
            if (last_freed_ >= 0 && o.alloc_base == last_freed_ && nvalid > 0) cov[COV_alloc_reuses]++;
        } else if (in.alloc_part < P && q.e[in.alloc_part].valid) cov[COV_alloc_slot_busy]++;
        else if (in.alloc_part < P) cov[COV_alloc_no_block]++;
    }
    if (in.free && in.free_part < P && q.e[in.free_part].valid) {
        cov[COV_free]++;
        last_freed_ = q.e[in.free_part].base;
        if (in.alloc && o.alloc_ok) cov[COV_free_and_alloc]++;
    }
}

static int run_random(Env &v) {
    Stimulus gen(v.o.seed);
    return tb_random_run(v, gen, {COV_N, cov_name, cov_text, cov_applies, 14}, COV_reset_mid_run);
}

static int prt_run(const TbOpts &o, TbRun &r, VerilatedContext *ctx) {
    return tb_run<Env>(o, r, ctx, B, &CFG, run_random);
}

int main(int argc, char **argv) { return tb_main(argc, argv, "prt", prt_run); }
