// Two-level fetch arbiter testbench: the verilated rtl/ws_fetcharb.sv (class
// Vdut, or the synthesized netlist under the same name) and the C block
// cmodel/blocks/fetcharb.c run side by side, driven with the same inputs
// every clock; every output port is compared every clock (docs/rtl.md).
//
// Stimulus: constrained random from a seeded LFSR, as the pipeline drives
// the arbiter (a scoreboard of slots that stall on long-latency operations
// and come back, barrel-style readiness, retries of a grant whose fetch
// missed, the final grant fed back), in phases that stall whole fetch
// groups, stall everything, hold one group alone past the timeout, and
// drive raw random bits; resets in the middle of the run. Or the replay of
// a port trace recorded by `wpusim --record-block fetcharb=FILE` (or written
// by +log=FILE here, or a hand-worked test's .in with its .expect).
//
// The parameters come from the build (-DTB_GROUPS=... matching the -G
// options the RTL was verilated with; tb/flow.mk passes both). Ports may be
// wider than 64 bits (ready_i/stall_i up to 256 slots, ord_o up to 160
// bits): the port glue (tb/common/block_glue.inc) takes any width.
#include <string>
#include <vector>

#include "Vdut.h"
#include "tb.h"
#define RTL_B fetcharb
#include "tb_block.h" // the port glue, the C side, the checker
#undef RTL_B

static const fetcharb_config_t CFG = {TB_GROUPS, TB_GSIZE, TB_TIMEOUT};
static const int G = TB_GROUPS, S = TB_GSIZE, SLOTS = TB_GROUPS * TB_GSIZE;
static const block_ops_t *const B = &fetcharb_block_ops;

static const int CNT_W = fetcharb_port_width(&CFG, FETCHARB_P_cnt), LAST_W = fetcharb_port_width(&CFG, FETCHARB_P_last);
static const uint32_t CNT_MAX = CNT_W >= 32 ? 0xffffffffu : (1u << CNT_W) - 1;

// ------------------------------------------------------------------ coverage

#define COVER_POINTS(X)                                                                          \
    X(grant_prio, "the grant is in the prioritized group")                                       \
    X(grant_lower, "the grant is in a lower-ranked group (the prioritized one has none ready)")  \
    X(grant_wrap, "the member search wraps past the group's last member")                        \
    X(grant_stay, "the stay rule grants the last grant again")                                   \
    X(stay_not_ready, "stay set but the last grant is not ready: round-robin instead")           \
    X(no_grant, "no slot ready")                                                                 \
    X(retry, "a grant whose fetch missed: evaluated again without it")                           \
    X(switch_stall, "switch: every slot of the prioritized group stalled")                       \
    X(switch_skip, "a switch passes over a group that cannot run")                               \
    X(switch_wrap, "a switch wraps to a lower group number")                                     \
    X(switch_timeout, "switch by the timeout")                                                   \
    X(timeout_waits, "timeout due but no other group can run: no switch")                        \
    X(all_stalled, "no group can run: no switch")                                                \
    X(cnt_saturated, "the count at its maximum with an issue")                                   \
    X(prio_every_group, "every group has been prioritized")                                      \
    X(upd_other_group, "the final grant is in a group other than the prioritized one")           \
    X(last_past_slots, "a final grant past the slots (dropped)")                                 \
    X(issue_no_grant, "a clock with a grant that did not issue")                                 \
    X(reset_mid_run, "reset in the middle of a run")

TB_COVER_TABLES(COVER_POINTS);

static bool cov_applies(int k) {
    switch (k) {
    case COV_grant_lower: case COV_switch_stall: case COV_switch_wrap: case COV_upd_other_group: return G >= 2;
    case COV_grant_wrap: return S >= 2;
    case COV_stay_not_ready: return SLOTS >= 2;
    case COV_switch_skip: return G >= 3;
    case COV_switch_timeout: case COV_timeout_waits: return G >= 2 && TB_TIMEOUT > 0 && TB_TIMEOUT <= 4096;
    case COV_cnt_saturated: return CNT_MAX <= 4096;
    case COV_last_past_slots: return (SLOTS & (SLOTS - 1)) != 0 && SLOTS > 1;
    default: return true;
    }
}

static bool group_runs(const wmask_t &stall, int g) {
    for (int m = 0; m < S; m++)
        if (!wmask_test(&stall, g * S + m)) return true;
    return false;
}

// ------------------------------------------------------------------ random stimulus

// A scoreboard of the slots as a pipeline would hold it: a slot is stalled
// for a while (a miss, a barrier, no warp) and otherwise ready except for a
// few clocks after an issue (barrel processing).
enum Phase { BUSY, GROUP_STALL, ALL_STALL, SOLO, RAW, IDLE, NPHASES };

class Stimulus : public TbStimulus<glue_fetcharb::Glue> {
  public:
    explicit Stimulus(uint64_t seed) : rng_(seed) {
        stall_left_.assign(SLOTS, 0);
        busy_left_.assign(SLOTS, 0);
        next_phase(0);
    }
    void next_phase(int prio) {
        phase_ = (Phase)rng_.below(NPHASES);
        left_ = 16 + rng_.below(phase_ == SOLO ? 3000 : 400);
        solo_ = prio;
        stay_p_ = (unsigned)rng_.below(40);
    }
    // The early inputs of this clock.
    void early(const fetcharb_t &c, fetcharb_in_t &in) {
        if (left_-- == 0) next_phase(c.q.prio);
        in.ready = wmask_none();
        in.stall = wmask_none();
        if (phase_ == RAW) {
            for (int k = 0; k < SLOTS; k++) {
                if (rng_.chance(50)) wmask_set(&in.ready, k);
                if (rng_.chance(60)) wmask_set(&in.stall, k);
            }
            return;
        }
        for (int k = 0; k < SLOTS; k++) {
            int g = k / S;
            bool st = stall_left_[k] > 0;
            if (st) stall_left_[k]--;
            switch (phase_) {
            case GROUP_STALL: // the prioritized group stalls slot by slot
                if (g == c.q.prio && !st && rng_.chance(20)) stall_left_[k] = 20 + (int)rng_.below(200), st = true;
                break;
            case ALL_STALL:
                if (!st && rng_.chance(30)) stall_left_[k] = 50 + (int)rng_.below(100), st = true;
                break;
            case SOLO: // one group runs, the rest waits: the timeout is due and has to wait
                if (g != solo_) { st = true; if (stall_left_[k] < 2) stall_left_[k] = 2; }
                else st = false, stall_left_[k] = 0;
                break;
            default:
                if (!st && rng_.chance(2)) stall_left_[k] = 5 + (int)rng_.below(100), st = true;
                break;
            }
            if (st) wmask_set(&in.stall, k);
            bool rdy = !st && busy_left_[k] == 0 && (phase_ != IDLE || rng_.chance(5));
            if (busy_left_[k]) busy_left_[k]--;
            if (rdy || rng_.chance(1)) wmask_set(&in.ready, k); // 1%: ready although stalled or busy
        }
    }
    // A grant whose fetch misses: clear it, stall it, evaluate again.
    bool retry(uint64_t *cov, const fetcharb_t &, const fetcharb_out_t &o, fetcharb_in_t &in) {
        if (!o.grant || !rng_.chance(8)) return false;
        cov[COV_retry]++;
        wmask_clear(&in.ready, o.grant_idx);
        wmask_set(&in.stall, o.grant_idx);
        stall_left_[o.grant_idx] = 30 + (int)rng_.below(150);
        return true;
    }
    // The late inputs, from the outputs, as the pipeline decides them.
    void late(const fetcharb_t &, const fetcharb_out_t &o, fetcharb_in_t &in) {
        in.upd = o.grant ? rng_.chance(95) : rng_.chance(3);
        in.last = o.grant_idx;
        if (rng_.chance(4)) in.last = (uint16_t)rng_.bits(LAST_W); // any index, past the slots too
        in.issue = in.upd ? rng_.chance(phase_ == SOLO ? 99 : 85) : rng_.chance(2);
        in.stay_we = rng_.chance(90);
        in.stay = rng_.chance(stay_p_);
        if (in.upd && in.issue && in.last < SLOTS) busy_left_[in.last] = (int)rng_.below(4);
    }
    // Late inputs that must not matter: shown before the real ones.
    void junk(fetcharb_in_t &in) {
        in.upd = (uint8_t)rng_.bits(1);
        in.last = (uint16_t)rng_.bits(LAST_W);
        in.issue = (uint8_t)rng_.bits(1);
        in.stay_we = (uint8_t)rng_.bits(1);
        in.stay = (uint8_t)rng_.bits(1);
    }
    bool reset_now() { return rng_.below(8000) == 0; }
    void on_reset() { seen_ = 0; }
    void cover(uint64_t *cov, const fetcharb_t &c, const fetcharb_in_t &in, const fetcharb_out_t &o);

  private:
    Lfsr rng_;
    Phase phase_ = BUSY;
    uint64_t left_ = 0;
    int solo_ = 0;
    unsigned stay_p_ = 10;
    std::vector<int> stall_left_, busy_left_;
    uint64_t seen_ = 0; // the groups that had the priority since reset (coverage)
};

// ------------------------------------------------------------------ runs

struct Env : TbBlockEnv<Vdut, glue_fetcharb::Glue> {
    using TbBlockEnv::TbBlockEnv;
    // A replay counts the group switches, and those by the timeout.
    size_t switches = 0, timeouts = 0;
    void replayed(const fetcharb_in_t &, const fetcharb_out_t &out, const block_row_t &) {
        switches += out.sw;
        timeouts += out.tmo;
    }
    std::string replay_counts() const {
        return ", " + std::to_string(switches) + " switches (" + std::to_string(timeouts) + " by the timeout)";
    }
};

void Stimulus::cover(uint64_t *cov, const fetcharb_t &c, const fetcharb_in_t &in, const fetcharb_out_t &o) {
    const fetcharb_state_t &q = c.q;
    bool stay_hit = q.lstay && q.lgrant < SLOTS && wmask_test(&in.ready, q.lgrant);
    if (!o.grant) cov[COV_no_grant]++;
    else if (stay_hit) cov[COV_grant_stay]++;
    else {
        int g = o.grant_idx / S, mem = o.grant_idx % S;
        cov[g == q.prio ? COV_grant_prio : COV_grant_lower]++;
        if (mem <= q.e[g].rr) cov[COV_grant_wrap]++;
    }
    if (q.lstay && o.grant && !stay_hit) cov[COV_stay_not_ready]++;
    bool any_runs = false;
    for (int g = 0; g < G; g++) any_runs |= group_runs(in.stall, g);
    if (!any_runs) cov[COV_all_stalled]++;
    bool due = TB_TIMEOUT > 0 && q.cnt >= (uint32_t)TB_TIMEOUT;
    if (o.sw) {
        cov[o.tmo ? COV_switch_timeout : COV_switch_stall]++;
        if (o.nprio != (q.prio + 1) % G) cov[COV_switch_skip]++;
        if (o.nprio < q.prio) cov[COV_switch_wrap]++;
    } else if (due && group_runs(in.stall, q.prio)) cov[COV_timeout_waits]++;
    if (in.issue && q.cnt == CNT_MAX && !o.sw) cov[COV_cnt_saturated]++;
    seen_ |= 1ull << q.prio;
    if (seen_ == (G >= 64 ? ~0ull : (1ull << G) - 1)) cov[COV_prio_every_group]++;
    if (in.upd && in.last < SLOTS && in.last / S != q.prio) cov[COV_upd_other_group]++;
    if (in.upd && in.last >= SLOTS) cov[COV_last_past_slots]++;
    if (in.upd && !in.issue) cov[COV_issue_no_grant]++;
}

static int run_random(Env &v) {
    Stimulus gen(v.o.seed);
    return tb_random_run(v, gen, {COV_N, cov_name, cov_text, cov_applies, 18}, COV_reset_mid_run);
}

static int fetcharb_run(const TbOpts &o, TbRun &r, VerilatedContext *ctx) {
    return tb_run<Env>(o, r, ctx, B, &CFG, run_random);
}

int main(int argc, char **argv) { return tb_main(argc, argv, "fetcharb", fetcharb_run); }
