// Two-level fetch arbiter: one per WPU, in the fetch stage.
//
// Grants the warp that fetches this clock by the two-level round-robin
// policy of seed 004 §3.2-§3.3. The SLOTS = GROUPS x GSIZE warp slots form
// fixed-size fetch groups: slot k is member k mod GSIZE of group k div
// GSIZE. One group is prioritized (prio_q); the priority order is the
// rotation prio, prio+1, ... mod GROUPS (ord_o). The grant is the first
// ready slot of the first group in that order with one, round-robin inside
// the group after the member it granted last (one pointer per group,
// ent_rr_o). The stay rule (switch_on: the last grant keeps the pipeline
// while lstay_q is set and it is ready) comes before both levels.
//
// The prioritized group changes at the clock edge when none of its slots
// can run (every stall_i bit of the group is set), or when the timeout is
// reached (TIMEOUT > 0 and cnt_q >= TIMEOUT: the group has been prioritized
// for TIMEOUT issued instructions); the priority then moves to the first
// group after prio in the order with a slot whose stall_i is clear (none:
// it stays, and the count saturates).
//
// Ports, widths and next-state rules are the contract in
// docs/blocks/fetcharb.md; the ports are the port table
// cmodel/blocks/fetcharb.def (scripts/blockports.py check-rtl fetcharb).
// The golden reference is the C block cmodel/blocks/fetcharb.c, which
// tb/fetcharb_tb.cpp runs side by side with this module, every output port
// every clock.
//
// Timing. Every output is combinational from the registered state and the
// early inputs ready_i and stall_i. The late inputs (upd_i, last_i, issue_i,
// stay_we_i, stay_i) only take effect at the rising edge; no output depends
// on them.
//
// Structure. Three rotating priority encoders, each a lowest-index
// encoder over the bits at or after a start position, else over all bits
// (the wrap-around): the group search (per group "has a ready slot", from
// prio_q), the member search (the winning group's ready bits, muxed out,
// from its pointer + 1) and the switch search (per group "has a slot that
// can run", from prio_q + 1, prio_q itself excluded). The pointer update
// decodes last_i into slots, so no division by GSIZE is built.
//
// State (GRP_W + CNT_W + IDX_W + 1 + GROUPS*MEM_W flip-flops): prio_q,
// the timeout count cnt_q, the last grant lgrant_q, the stay bit lstay_q and
// the per-group round-robin pointers rr_q (docs/rtl.md, area).
`default_nettype none

`include "ws_assert.svh"

module ws_fetcharb #(
  parameter int GROUPS  = 4,  // fetch groups G, 1..32 (1: plain round-robin)
  parameter int GSIZE   = 8,  // warps per fetch group S, 1..256; G x S <= 256
  parameter int TIMEOUT = 0,  // issued instructions before a forced switch, 0..1048576; 0: off
  localparam int SLOTS  = GROUPS * GSIZE,
  localparam int IDX_W  = (SLOTS > 2) ? $clog2(SLOTS) : 1,
  localparam int GRP_W  = (GROUPS > 2) ? $clog2(GROUPS) : 1,
  localparam int MEM_W  = (GSIZE > 2) ? $clog2(GSIZE) : 1,
  localparam int CNT_W  = (TIMEOUT > 1) ? $clog2(TIMEOUT + 1) : 1
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,

  // Early inputs from the pipeline's scoreboard (the outputs depend on them)
  input  logic [SLOTS-1:0]          ready_i,
  input  logic [SLOTS-1:0]          stall_i,

  // Late inputs: what the clock did, decided after looking at the outputs
  input  logic                      upd_i,
  input  logic [IDX_W-1:0]          last_i,
  input  logic                      issue_i,
  input  logic                      stay_we_i,
  input  logic                      stay_i,

  // To the fetch stage: the grant and the priority
  output logic                      grant_o,
  output logic [IDX_W-1:0]          grant_idx_o,
  output logic [GROUPS*GRP_W-1:0]   ord_o,
  output logic                      sw_o,
  output logic                      tmo_o,
  output logic [GRP_W-1:0]          nprio_o,

  // Registered read ports (group g's pointer at [g*MEM_W +: MEM_W])
  output logic [GROUPS*MEM_W-1:0]   ent_rr_o,
  output logic [GRP_W-1:0]          prio_o,
  output logic [CNT_W-1:0]          cnt_o,
  output logic [IDX_W-1:0]          lgrant_o,
  output logic                      lstay_o
);

  localparam logic [CNT_W-1:0] CNT_MAX = {CNT_W{1'b1}};
  // The count at which the timeout is due (without a timeout: past CNT_MAX).
  localparam logic [CNT_W:0]   TMO_AT  = (TIMEOUT > 0) ? (CNT_W+1)'(TIMEOUT) : {1'b1, {CNT_W{1'b0}}};

  ////////////////////////////////////////////////////////////////////////////
  // State
  ////////////////////////////////////////////////////////////////////////////

  logic [GRP_W-1:0]        prio_q, prio_d;
  logic [CNT_W-1:0]        cnt_q, cnt_d;
  logic [IDX_W-1:0]        lgrant_q, lgrant_d;
  logic                    lstay_q, lstay_d;
  logic [GROUPS*MEM_W-1:0] rr_q, rr_d;

  ////////////////////////////////////////////////////////////////////////////
  // Per-group summaries
  ////////////////////////////////////////////////////////////////////////////

  logic [GROUPS-1:0] grp_ready;  // the group has a ready slot
  logic [GROUPS-1:0] grp_run;    // the group has a slot whose stall_i is clear

  always_comb begin : summarize
    for (int g = 0; g < GROUPS; g++) begin
      grp_ready[g] = |ready_i[g*GSIZE +: GSIZE];
      grp_run[g]   = ~&stall_i[g*GSIZE +: GSIZE];
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // The priority order: field i is group (prio + i) mod GROUPS
  ////////////////////////////////////////////////////////////////////////////

  always_comb begin : order
    logic [GRP_W:0] g;
    ord_o = '0;
    g     = {1'b0, prio_q};
    for (int i = 0; i < GROUPS; i++) begin
      ord_o[i*GRP_W +: GRP_W] = g[GRP_W-1:0];
      g = (g == (GRP_W+1)'(GROUPS - 1)) ? '0 : g + (GRP_W+1)'(1);
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // The grant
  ////////////////////////////////////////////////////////////////////////////

  // The stay rule: lgrant_q again while lstay_q and it is ready.
  logic stay_hit;

  always_comb begin : stay_rule
    stay_hit = 1'b0;
    for (int k = 0; k < SLOTS; k++) begin
      if (lgrant_q == IDX_W'(k) && ready_i[k]) begin
        stay_hit = lstay_q;
      end
    end
  end

  // First level: the first group at or after prio_q with a ready slot.
  logic             grp_found;
  logic [GRP_W-1:0] grp_win;

  always_comb begin : pick_group
    logic found_hi, found_lo;
    logic [GRP_W-1:0] win_hi, win_lo;
    found_hi = 1'b0;
    found_lo = 1'b0;
    win_hi   = '0;
    win_lo   = '0;
    for (int g = 0; g < GROUPS; g++) begin
      if (grp_ready[g] && !found_hi && GRP_W'(g) >= prio_q) begin
        found_hi = 1'b1;
        win_hi   = GRP_W'(g);
      end
      if (grp_ready[g] && !found_lo) begin
        found_lo = 1'b1;
        win_lo   = GRP_W'(g);
      end
    end
    grp_found = found_lo;
    grp_win   = found_hi ? win_hi : win_lo;
  end

  // Second level: the winning group's ready bits and pointer, and the first
  // ready member after the pointer (round-robin).
  logic [GSIZE-1:0] win_ready;
  logic [MEM_W-1:0] win_rr;
  logic [MEM_W-1:0] mem_win;

  always_comb begin : pick_member
    logic found_hi;
    logic [MEM_W-1:0] win_hi, win_lo;
    logic found_lo;
    win_ready = '0;
    win_rr    = '0;
    for (int g = 0; g < GROUPS; g++) begin
      if (grp_win == GRP_W'(g)) begin
        win_ready = ready_i[g*GSIZE +: GSIZE];
        win_rr    = rr_q[g*MEM_W +: MEM_W];
      end
    end
    found_hi = 1'b0;
    found_lo = 1'b0;
    win_hi   = '0;
    win_lo   = '0;
    for (int m = 0; m < GSIZE; m++) begin
      if (win_ready[m] && !found_hi && MEM_W'(m) > win_rr) begin
        found_hi = 1'b1;
        win_hi   = MEM_W'(m);
      end
      if (win_ready[m] && !found_lo) begin
        found_lo = 1'b1;
        win_lo   = MEM_W'(m);
      end
    end
    mem_win = found_hi ? win_hi : win_lo;
  end

  always_comb begin : grant
    grant_o     = 1'b0;
    grant_idx_o = '0;
    if (stay_hit) begin
      grant_o     = 1'b1;
      grant_idx_o = lgrant_q;
    end else if (grp_found) begin
      grant_o     = 1'b1;
      grant_idx_o = IDX_W'(32'(grp_win) * GSIZE + 32'(mem_win));
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // The fetch-group switch at the edge
  ////////////////////////////////////////////////////////////////////////////

  logic here;       // prio_q has a slot that can run
  logic timed_out;  // the count reached the timeout

  always_comb begin : switch_group
    logic found_hi, found_lo;
    logic [GRP_W-1:0] nxt_hi, nxt_lo;
    here      = 1'b0;
    for (int g = 0; g < GROUPS; g++) begin
      if (prio_q == GRP_W'(g)) begin
        here = grp_run[g];
      end
    end
    timed_out = {1'b0, cnt_q} >= TMO_AT;
    found_hi  = 1'b0;
    found_lo  = 1'b0;
    nxt_hi    = '0;
    nxt_lo    = '0;
    for (int g = 0; g < GROUPS; g++) begin
      if (grp_run[g] && !found_hi && GRP_W'(g) > prio_q) begin
        found_hi = 1'b1;
        nxt_hi   = GRP_W'(g);
      end
      if (grp_run[g] && !found_lo && GRP_W'(g) < prio_q) begin
        found_lo = 1'b1;
        nxt_lo   = GRP_W'(g);
      end
    end
    sw_o    = (!here || timed_out) && (found_hi || found_lo);
    tmo_o   = sw_o && here;
    nprio_o = !sw_o ? prio_q : (found_hi ? nxt_hi : nxt_lo);
  end

  ////////////////////////////////////////////////////////////////////////////
  // Next state
  ////////////////////////////////////////////////////////////////////////////

  always_comb begin : next_state
    logic last_hit;
    prio_d   = nprio_o;
    cnt_d    = sw_o ? '0 : (issue_i && cnt_q != CNT_MAX) ? cnt_q + CNT_W'(1) : cnt_q;
    lstay_d  = stay_we_i ? stay_i : lstay_q;
    lgrant_d = lgrant_q;
    rr_d     = rr_q;
    last_hit = 1'b0;
    // a grant past the slots (SLOTS not a power of two) is dropped
    for (int k = 0; k < SLOTS; k++) begin
      if (upd_i && last_i == IDX_W'(k)) begin
        last_hit = 1'b1;
        rr_d[(k / GSIZE)*MEM_W +: MEM_W] = MEM_W'(k % GSIZE);
      end
    end
    if (last_hit) begin
      lgrant_d = last_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prio_q   <= '0;
      cnt_q    <= '0;
      lgrant_q <= IDX_W'(SLOTS - 1);
      lstay_q  <= 1'b0;
      rr_q     <= {GROUPS{MEM_W'(GSIZE - 1)}};
    end else begin
      prio_q   <= prio_d;
      cnt_q    <= cnt_d;
      lgrant_q <= lgrant_d;
      lstay_q  <= lstay_d;
      rr_q     <= rr_d;
    end
  end

  assign ent_rr_o = rr_q;
  assign prio_o   = prio_q;
  assign cnt_o    = cnt_q;
  assign lgrant_o = lgrant_q;
  assign lstay_o  = lstay_q;

  ////////////////////////////////////////////////////////////////////////////
  // Assertions: 004's definition restated in other terms (ranks in the
  // priority order, counted independently of the encoders above), so that a
  // mistake shared by the C model and this RTL trips them.
  ////////////////////////////////////////////////////////////////////////////

`ifndef SYNTHESIS
  // The rank of group g in the priority order: (g - prio) mod GROUPS.
  function automatic integer rank_of(input integer g, input integer p);
    rank_of = (g >= p) ? g - p : g - p + GROUPS;
  endfunction

  int  a_grp;             // the grant's group
  int  a_mem;             // the grant's member
  logic a_ready_ok;       // the granted slot is ready
  logic a_first_group;    // no group ranked before the grant's has a ready slot
  logic a_rr_fair;        // no member between the pointer and the grant is ready
  logic a_rr_ok;          // every pointer names a member
  logic a_none_ready;     // no grant: no ready slot
  logic a_target_runs;    // a switch goes to a group that can run ...
  logic a_skip_dead;      // ... passing only groups that cannot
  logic a_sw_forced;      // a switch, or no other group can run, when the timeout is due
  int  a_rr_p;            // the grant group's pointer

  always_comb begin : assert_helpers
    a_grp         = (32'(grant_idx_o)) / GSIZE;
    a_mem         = (32'(grant_idx_o)) % GSIZE;
    a_ready_ok    = 1'b0;
    a_none_ready  = 1'b1;
    for (int k = 0; k < SLOTS; k++) begin
      if (32'(grant_idx_o) == k) a_ready_ok = ready_i[k];
      if (ready_i[k]) a_none_ready = 1'b0;
    end
    a_first_group = 1'b1;
    a_rr_p        = 0;
    for (int g = 0; g < GROUPS; g++) begin
      if (a_grp < GROUPS && rank_of(g, 32'(prio_q)) < rank_of(a_grp, 32'(prio_q)) && grp_ready[g]) begin
        a_first_group = 1'b0;
      end
      if (g == a_grp) a_rr_p = 32'(rr_q[g*MEM_W +: MEM_W]);
    end
    // members before the grant in the group's round-robin order (distance
    // 1..GSIZE after the pointer; the pointer's own member is last)
    a_rr_fair = 1'b1;
    for (int m = 0; m < GSIZE; m++) begin
      if (((m - a_rr_p + GSIZE - 1) % GSIZE) < ((a_mem - a_rr_p + GSIZE - 1) % GSIZE) &&
          ready_i[a_grp*GSIZE + m]) begin
        a_rr_fair = 1'b0;
      end
    end
    a_rr_ok = 1'b1;
    for (int g = 0; g < GROUPS; g++) begin
      if (32'(rr_q[g*MEM_W +: MEM_W]) >= GSIZE) a_rr_ok = 1'b0;
    end
    a_target_runs = 1'b0;
    a_skip_dead   = 1'b1;
    a_sw_forced   = 1'b1;
    for (int g = 0; g < GROUPS; g++) begin
      if (32'(nprio_o) == g) a_target_runs = grp_run[g];
      if (rank_of(g, 32'(prio_q)) > 0 && rank_of(g, 32'(prio_q)) < rank_of(32'(nprio_o), 32'(prio_q)) &&
          grp_run[g]) begin
        a_skip_dead = 1'b0;
      end
      if (timed_out && 32'(prio_q) != g && grp_run[g] && !sw_o) begin
        a_sw_forced = 1'b0;
      end
    end
  end

  // The state stays in range (prio a group, pointers members, the last grant a slot).
  `WS_ASSERT(prio_in_range, 32'(prio_q) < GROUPS)
  `WS_ASSERT(lgrant_in_range, 32'(lgrant_q) < SLOTS)
  `WS_ASSERT(rr_in_range, a_rr_ok)
  // The grant: a ready slot, of the first group in the order with one
  // (the active fetch group), the first ready member after the group's
  // pointer (round-robin fairness) — unless the stay rule granted lgrant.
  `WS_ASSERT(grant_is_ready, !grant_o || a_ready_ok)
  `WS_ASSERT(grant_iff_ready, grant_o == !a_none_ready && (grant_o || grant_idx_o == '0))
  `WS_ASSERT(grant_in_active_group, !grant_o || stay_hit || a_first_group)
  `WS_ASSERT(grant_round_robin, !grant_o || stay_hit || a_rr_fair)
  `WS_ASSERT(grant_stay_is_last, !stay_hit || grant_idx_o == lgrant_q)
  // The active group changes only when none of its slots can run, or on the
  // timeout; it moves to the nearest group after it that can run.
  `WS_ASSERT(switch_only_when_stalled, !sw_o || !here || timed_out)
  `WS_ASSERT(switch_changes_prio, sw_o == (nprio_o != prio_q))
  `WS_ASSERT(switch_to_running, !sw_o || (a_target_runs && a_skip_dead))
  `WS_ASSERT(timeout_flag, tmo_o == (sw_o && here))
  // With the timeout on, a due timeout switches whenever another group can run.
  `WS_ASSERT(timeout_forces_switch, a_sw_forced)
  `WS_ASSERT(cnt_zero_after_switch, !sw_o || cnt_d == '0)

  // Starvation bound (004 §3.3, the point of the timeout). With TIMEOUT > 0,
  // a group that keeps a slot able to run is prioritized before
  // (GROUPS - 1) x (TIMEOUT + 1) more instructions issue: every switch
  // moves the priority at least one group nearer to it (it cannot be
  // passed over), and each group keeps it for at most TIMEOUT + 1. a_wait
  // counts, per group, the instructions issued while it could run and was
  // not prioritized; the inductive form of the bound, with d the group's
  // distance from prio_q, is a_wait <= (GROUPS - 1 - d)(TIMEOUT + 1) +
  // min(cnt_q, TIMEOUT).
  localparam int WAIT_MAX = (GROUPS - 1) * (TIMEOUT + 1);
  localparam int WAIT_W   = $clog2(WAIT_MAX + 2);
  logic [GROUPS*WAIT_W-1:0] a_wait_q, a_wait_d;
  logic                     a_starve_ok, a_starve_ind;

  always_comb begin : starvation
    int lim;
    a_wait_d     = a_wait_q;
    a_starve_ok  = 1'b1;
    a_starve_ind = 1'b1;
    for (int g = 0; g < GROUPS; g++) begin
      if (!grp_run[g] || prio_q == GRP_W'(g) || nprio_o == GRP_W'(g)) begin
        a_wait_d[g*WAIT_W +: WAIT_W] = '0;
      end else if (issue_i && a_wait_q[g*WAIT_W +: WAIT_W] != {WAIT_W{1'b1}}) begin
        a_wait_d[g*WAIT_W +: WAIT_W] = a_wait_q[g*WAIT_W +: WAIT_W] + WAIT_W'(1);
      end
      if (TIMEOUT > 0 && 32'(a_wait_q[g*WAIT_W +: WAIT_W]) > WAIT_MAX) a_starve_ok = 1'b0;
      lim = (GROUPS - 1 - rank_of(g, 32'(prio_q))) * (TIMEOUT + 1) +
            (({1'b0, cnt_q} < TMO_AT) ? 32'(cnt_q) : TIMEOUT);
      if (TIMEOUT > 0 && grp_run[g] && prio_q != GRP_W'(g) && 32'(a_wait_q[g*WAIT_W +: WAIT_W]) > lim) begin
        a_starve_ind = 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_wait_q <= '0;
    end else begin
      a_wait_q <= a_wait_d;
    end
  end

  `WS_ASSERT(no_starvation, a_starve_ok)
  `WS_ASSERT(no_starvation_step, a_starve_ind)
`endif

endmodule
