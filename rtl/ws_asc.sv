// Adaptive slip controller (ASC): one per WPU (seed 002 §5, Table 1).
//
// It limits how far the threads of a warp running with diverge on miss slip
// apart. Per thread of every warp it holds a CNT_W-bit slip counter (how many
// divergent memory events the thread is ahead of its warp's tail), per warp
// the slip-limit bitmask (the threads whose counter reached the max slip at
// the warp's last memory instruction), and per WPU the max-slip counter,
// which adaptive diff (002 §5.2) moves by one at the end of each sampling
// period from the period's counts (inputs: the pipeline's performance
// counters).
//
// Ports, widths and next-state rules are the contract in docs/blocks/asc.md;
// the ports are the port table cmodel/blocks/asc.def (tests/rtl.sh holds it
// against this module for every parameter set). The golden reference is the
// C block cmodel/blocks/asc.c, which tb/asc_tb.cpp runs side by side with
// this module, comparing every output every clock.
//
// Timing. Every output is combinational from the registers and the early
// inputs: block_o and limit_o from warp_i's limit bits and act_i; alu_o,
// bw_o, lat_o and dir_o from the period's counts alone (four comparisons of
// at most 36 bits: shifts and adds, no division). The late inputs (clr_i,
// mem_i with div_i, dvg_i, hit_i, miss_i, and sample_i) act at the rising
// edge.
// Clocks with none of clr_i, mem_i, sample_i leave the state unchanged.
//
// Structure. The counters are one flat register, warp w's thread t at
// [(w*WIDTH + t)*CNT_W +: CNT_W]; the limit bits warp w at [w*WIDTH +:
// WIDTH]. A clock reads one warp (warp_i) through one mux, computes its next
// counters and limit bits in one pass over its WIDTH threads (the tail is
// the considered threads with counter 0; up and down masks: up for the
// hits of an undiverged warp's divergence, down for the misses of a
// diverged one whose tail all hit, or for the limited threads when the
// rest all hit; saturating +1/-1; compare with the max slip before the
// edge) and writes them back: no clock touches more than one warp's
// counters.
//
// warp_i must be below WARPS for an event (clr_i or mem_i; WARPS not a power
// of two): an input assumption, asserted below (warp_in_table). Past the
// table warp_i reads as a warp with every counter and limit bit 0 and its
// event is dropped, as in the C model.
`default_nettype none

`include "ws_assert.svh"

module ws_asc #(
  parameter int WIDTH = 32, // threads per warp, 1..256 (002: 32), WIDTH * CNT_W <= 256
  parameter int WARPS = 16, // warps per WPU, 1..64 (002: 1..16)
  parameter int CNT_W = 8,  // slip-counter and max-slip bits, 1..8 (002: 8)
  parameter int MAX0  = 8,  // the max slip after reset, 1..2^CNT_W-1
  localparam int WARP_W = (WARPS > 2) ? $clog2(WARPS) : 1
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,

  // Early inputs from the pipeline: the warp looked at, the period's counts
  input  logic [WARP_W-1:0]               warp_i,
  input  logic [WIDTH-1:0]                act_i,
  input  logic [31:0]                     cycles_i,
  input  logic [31:0]                     busy_i,
  input  logic [31:0]                     memwait_i,
  input  logic [31:0]                     bytes_i,
  input  logic [31:0]                     share_i,

  // The event, decided by the pipeline after the outputs
  input  logic                            clr_i,
  input  logic                            mem_i,
  input  logic                            div_i,
  input  logic                            dvg_i,
  input  logic [WIDTH-1:0]                hit_i,
  input  logic [WIDTH-1:0]                miss_i,
  input  logic                            sample_i,

  // To the pipeline and the MDT: the slip limit of warp_i
  output logic                            block_o,
  output logic [WIDTH-1:0]                limit_o,
  // Adaptive diff: the period's class and decision
  output logic                            alu_o,
  output logic                            bw_o,
  output logic                            lat_o,
  output logic [1:0]                      dir_o,

  // Registered read ports (warp w at [w*w_field +: w_field])
  output logic [WARPS*WIDTH*CNT_W-1:0]    ent_cnt_o,
  output logic [WARPS*WIDTH-1:0]          ent_lim_o,
  output logic [CNT_W-1:0]                max_slip_o
);

  localparam int                CW      = WIDTH * CNT_W;      // one warp's counters
  localparam logic [CNT_W-1:0]  CNT_MAX = {CNT_W{1'b1}};
  localparam logic [1:0]        DIR_KEEP  = 2'd0;
  localparam logic [1:0]        DIR_RAISE = 2'd1;
  localparam logic [1:0]        DIR_LOWER = 2'd2;

  ////////////////////////////////////////////////////////////////////////////
  // State
  ////////////////////////////////////////////////////////////////////////////

  logic [WARPS*CW-1:0]    cnt_q, cnt_d;
  logic [WARPS*WIDTH-1:0] lim_q, lim_d;
  logic [CNT_W-1:0]       max_q, max_d;

  ////////////////////////////////////////////////////////////////////////////
  // Outputs: combinational from the state and the early inputs
  ////////////////////////////////////////////////////////////////////////////

  // Warp warp_i, read through one mux (past the table: all zero).
  logic             in_table;
  logic [CW-1:0]    me_cnt;
  logic [WIDTH-1:0] me_lim;

  always_comb begin : read_warp
    in_table = 1'b0;
    me_cnt   = '0;
    me_lim   = '0;
    for (int w = 0; w < WARPS; w++) begin
      if (warp_i == WARP_W'(w)) begin
        in_table = 1'b1;
        me_cnt   = cnt_q[w*CW +: CW];
        me_lim   = lim_q[w*WIDTH +: WIDTH];
      end
    end
  end

  // The slip limit: limit bits of the considered threads; none to disable
  // when that is every considered thread (nobody to wait for).
  logic [WIDTH-1:0] lim_act;
  assign lim_act = me_lim & act_i;

  assign block_o = |lim_act;
  assign limit_o = (lim_act == act_i) ? '0 : lim_act;

  // Adaptive diff (docs/blocks/asc.md): the products at 36 bits.
  logic [35:0] busy_x4, cyc_x3, mw_x8, bytes_x8, share_x9;
  logic        over;

  always_comb begin : classify
    busy_x4  = {2'b00, busy_i, 2'b00};
    cyc_x3   = {3'b000, cycles_i, 1'b0} + {4'b0000, cycles_i};
    mw_x8    = {1'b0, memwait_i, 3'b000};
    bytes_x8 = {1'b0, bytes_i, 3'b000};
    share_x9 = {1'b0, share_i, 3'b000} + {4'b0000, share_i};
    alu_o    = busy_x4 >= cyc_x3;
    bw_o     = bytes_i > share_i;
    lat_o    = mw_x8 >= {4'b0000, cycles_i};
    over     = bytes_x8 > share_x9;
    if (!alu_o && !bw_o) begin
      dir_o = DIR_RAISE;
    end else if (lat_o && !over) begin
      dir_o = DIR_KEEP;
    end else begin
      dir_o = DIR_LOWER;
    end
  end

  assign ent_cnt_o  = cnt_q;
  assign ent_lim_o  = lim_q;
  assign max_slip_o = max_q;

  ////////////////////////////////////////////////////////////////////////////
  // Next state
  ////////////////////////////////////////////////////////////////////////////

  // The max slip, saturating at 1 and 2^CNT_W-1.
  always_comb begin : next_max
    max_d = max_q;
    if (sample_i) begin
      if (dir_o == DIR_RAISE && max_q != CNT_MAX) begin
        max_d = max_q + CNT_W'(1);
      end else if (dir_o == DIR_LOWER && max_q != CNT_W'(1)) begin // (max_q is never 0: max_slip_in_range)
        max_d = max_q - CNT_W'(1);
      end
    end
  end

  // Warp warp_i's memory instruction (002 §5.1): the considered threads'
  // hits and misses (a thread in both counts as a hit), its limit bits and
  // its tail-end threads (counter 0).
  logic [WIDTH-1:0] hits, misses, lims, tail, up, down;
  logic             div_event, tail_missed, catch_up;

  always_comb begin : slip_rules
    hits   = hit_i & act_i;
    misses = miss_i & act_i & ~hits;
    lims   = me_lim & act_i;
    tail   = '0;
    for (int t = 0; t < WIDTH; t++) begin
      tail[t] = act_i[t] && (me_cnt[t*CNT_W +: CNT_W] == '0);
    end
    div_event   = div_i && (|hits) && (|misses);
    tail_missed = |(tail & ~hits);
    catch_up    = !div_event && (|hits) && !(|misses) && (|lims);
    up          = '0;
    down        = '0;
    if (div_event && !dvg_i) begin
      up = hits;       // an undiverged warp: the hits slip ahead
    end else if (div_event && !tail_missed) begin
      down = misses;   // diverged, the tail caught up: the leaders that missed fall back
    end else if (catch_up) begin
      down = lims;     // the limited threads wait, the rest hit
    end
  end

  // The warp's next counters and limit bits (limit against the max slip
  // before this edge).
  logic [CW-1:0]    e_cnt;
  logic [WIDTH-1:0] e_lim;
  logic [CNT_W-1:0] c;

  always_comb begin : next_warp
    e_cnt = me_cnt;
    e_lim = me_lim;
    c     = '0;
    if (clr_i) begin
      e_cnt = '0;
      e_lim = '0;
    end else if (mem_i) begin
      for (int t = 0; t < WIDTH; t++) begin
        c = me_cnt[t*CNT_W +: CNT_W];
        if (up[t] && c != CNT_MAX) begin
          c = c + CNT_W'(1);
        end else if (down[t] && c != '0) begin
          c = c - CNT_W'(1);
        end
        e_cnt[t*CNT_W +: CNT_W] = c;
        e_lim[t]                = c >= max_q;
      end
    end
  end

  always_comb begin : next_table
    cnt_d = cnt_q;
    lim_d = lim_q;
    if (clr_i || mem_i) begin
      for (int w = 0; w < WARPS; w++) begin
        if (warp_i == WARP_W'(w)) begin
          cnt_d[w*CW +: CW]       = e_cnt;
          lim_d[w*WIDTH +: WIDTH] = e_lim;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
      lim_q <= '0;
      max_q <= CNT_W'(MAX0);
    end else begin
      cnt_q <= cnt_d;
      lim_q <= lim_d;
      max_q <= max_d;
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // Assertions: invariants of 002 §5 the block keeps whatever the pipeline
  // drives (plus one input assumption, warp_in_table). Checked in simulation
  // and, by `make formal BLOCK=asc`, proven by induction with Yosys
  // (docs/rtl.md, Formal checks).
  ////////////////////////////////////////////////////////////////////////////

`ifndef SYNTHESIS
  logic a_sat_lim;   // a counter at 2^CNT_W-1 has its limit bit (max <= 2^CNT_W-1)
  logic a_lim_nz;    // a limit bit only on a counter >= 1 (max >= 1)
  logic a_no_wrap;   // no counter of the next state wraps or moves by more than 1
  logic a_down_nz;   // a decrement only ever meets a counter >= 1
  logic [CNT_W-1:0] a_q, a_d;

  always_comb begin : assert_helpers
    a_sat_lim = 1'b1;
    a_lim_nz  = 1'b1;
    a_no_wrap = 1'b1;
    a_down_nz = 1'b1;
    a_q       = '0;
    a_d       = '0;
    for (int i = 0; i < WARPS * WIDTH; i++) begin
      a_q = cnt_q[i*CNT_W +: CNT_W];
      a_d = cnt_d[i*CNT_W +: CNT_W];
      if (a_q == CNT_MAX && !lim_q[i]) a_sat_lim = 1'b0;
      if (lim_q[i] && a_q == '0) a_lim_nz = 1'b0;
      if (!(a_d == a_q || (a_q != CNT_MAX && a_d == a_q + CNT_W'(1)) ||
            (a_q != '0 && a_d == a_q - CNT_W'(1)) || (clr_i && a_d == '0))) begin
        a_no_wrap = 1'b0;
      end
    end
    for (int t = 0; t < WIDTH; t++) begin
      if (mem_i && !clr_i && down[t] && me_cnt[t*CNT_W +: CNT_W] == '0) a_down_nz = 1'b0;
    end
  end

  // Input assumption: events name warps of the table.
  `WS_ASSUME(warp_in_table, !(clr_i || mem_i) || in_table)
  // The max slip stays within 1..2^CNT_W-1 and moves by at most one per clock.
  `WS_ASSERT(max_slip_in_range, max_q != '0)
  `WS_ASSERT(max_slip_step, max_d == max_q || max_d == max_q + CNT_W'(1) || max_d == max_q - CNT_W'(1))
  // Counters saturate and never wrap; one step per event (clr_i: to 0).
  `WS_ASSERT(cnt_no_wrap, a_no_wrap)
  // The limit bits follow the counters: a saturated counter is at its limit,
  // a counter at 0 (a tail-end thread) never is.
  `WS_ASSERT(cnt_max_is_limited, a_sat_lim)
  `WS_ASSERT(lim_needs_slip, a_lim_nz)
  // The catch-up and tail-caught-up rules only lower counters above 0
  // (002: every thread that falls back is ahead of the tail).
  `WS_ASSERT(down_above_zero, a_down_nz)
  // Up and down never apply to one thread in one clock.
  `WS_ASSERT(up_down_disjoint, (up & down) == '0)
  // Counters go up only when an undiverged warp diverges (002 §5.1).
  `WS_ASSERT(up_only_undiverged, up == '0 || !dvg_i)
  // limit_o: the considered threads at their limit, never all of act_i
  // (the warp could not go on); block_o when any considered thread is there.
  `WS_ASSERT(limit_in_act, (limit_o & ~act_i) == '0)
  `WS_ASSERT(limit_not_all, limit_o == '0 || limit_o != act_i)
  `WS_ASSERT(limit_needs_block, limit_o == '0 || block_o)
  // dir_o is one of keep, raise, lower.
  `WS_ASSERT(dir_valid, dir_o != 2'd3)
`endif

endmodule
