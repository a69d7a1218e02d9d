// Sub-warp column picker: one per WPU (004 §3.1, Fig. 6; storage §3.4).
//
// A large warp of ROWS x COLS threads (COLS = SIMD lanes, one register-file
// bank each) has a 2-D active mask: thread t at bit t, row t / COLS, column
// t % COLS. In the clock a large warp's instruction is decoded (load_i) the
// picker works on mask_i, which replaces its working copy (004 §3.4: "a copy
// must be made": the warp's own mask is not cleared); every clock every
// column in parallel picks its lowest row whose bit is set and whose thread
// is not in dep_i (packed into a sub-warp still in flight). The picked
// threads, at most one per column, are this clock's sub-warp: per lane
// valid_o and row_o, as threads pick_o, counted in cnt_o. They leave the
// working copy at the edge if the back end takes them (take_i); stall_o is 1
// while bits remain after this clock's pick (fetch waits). An unconditional
// jump (load_i with one_i) makes one sub-warp, picked without dep_i, and
// drops the rest of the mask (004: one PC update). drop_i empties the
// working copy at the edge, taken or not (the pipeline set the large warp
// aside and keeps its remaining threads itself).
//
// Ports, widths and next-state rules are the contract in
// docs/blocks/colpick.md; the ports are the port table
// cmodel/blocks/colpick.def (scripts/blockports.py check-rtl colpick holds
// them against this module for every parameter set). The golden reference
// is the C block cmodel/blocks/colpick.c, which tb/colpick_tb.cpp runs side
// by side with this module, comparing every output every clock.
//
// Timing. Every output but work_o is combinational from the working copy
// and the early inputs (load_i, mask_i, one_i, dep_i); none depends on the
// late inputs take_i and drop_i, which act at the rising edge. work_o is
// the register itself.
//
// Structure. The state is the working copy, ROWS x COLS flip-flops, and
// nothing else. The combinational part is one priority encoder per column
// (ROWS bits, lowest row first: a ripple of "found" down the rows), the
// row-number encoders behind it, a population count of the lanes for cnt_o
// and an OR-reduction of what remains for stall_o.
`default_nettype none

`include "ws_assert.svh"

module ws_colpick #(
  parameter int ROWS = 8,  // rows K of the large warp's active mask, 1..64
  parameter int COLS = 32, // columns N = SIMD lanes, 1..64
  localparam int T     = ROWS * COLS,
  localparam int ROW_W = (ROWS > 2) ? $clog2(ROWS) : 1,
  localparam int CNT_W = $clog2(COLS + 1)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,

  // From decode (early: the outputs depend on them)
  input  logic                  load_i,
  input  logic [T-1:0]          mask_i,
  input  logic                  one_i,
  input  logic [T-1:0]          dep_i,

  // From the back end (late: act at the edge)
  input  logic                  take_i,
  input  logic                  drop_i,

  // To the back end and fetch: this clock's sub-warp
  output logic [COLS-1:0]       valid_o,
  output logic [COLS*ROW_W-1:0] row_o,
  output logic [T-1:0]          pick_o,
  output logic [CNT_W-1:0]      cnt_o,
  output logic                  stall_o,

  // Registered read port: the working copy
  output logic [T-1:0]          work_o
);

  ////////////////////////////////////////////////////////////////////////////
  // State
  ////////////////////////////////////////////////////////////////////////////

  logic [T-1:0] work_q, work_d;

  ////////////////////////////////////////////////////////////////////////////
  // Outputs: combinational from the working copy and the early inputs
  ////////////////////////////////////////////////////////////////////////////

  logic         jump;  // an unconditional jump enters: one sub-warp, no dep_i
  logic [T-1:0] src;   // the threads this clock works on
  logic [T-1:0] cand;  // ... that may be picked
  logic [T-1:0] rest;  // ... that remain if the sub-warp is taken

  assign jump = load_i && one_i;
  assign src  = load_i ? mask_i : work_q;
  assign cand = jump ? src : (src & ~dep_i);

  // One priority encoder per column: the lowest row with a candidate.
  logic [T-1:0]          pick;
  logic [COLS-1:0]       valid;
  logic [COLS*ROW_W-1:0] row;

  always_comb begin : pick_columns
    pick  = '0;
    valid = '0;
    row   = '0;
    for (int c = 0; c < COLS; c++) begin
      for (int r = 0; r < ROWS; r++) begin
        if (!valid[c] && cand[r*COLS + c]) begin
          valid[c]               = 1'b1;
          pick[r*COLS + c]       = 1'b1;
          row[c*ROW_W +: ROW_W]  = ROW_W'(r);
        end
      end
    end
  end

  // Threads in the sub-warp: the lanes it fills.
  logic [CNT_W-1:0] cnt;

  always_comb begin : count_lanes
    cnt = '0;
    for (int c = 0; c < COLS; c++) begin
      cnt = cnt + CNT_W'(valid[c]);
    end
  end

  assign rest = jump ? '0 : (src & ~pick);

  assign valid_o = valid;
  assign row_o   = row;
  assign pick_o  = pick;
  assign cnt_o   = cnt;
  assign stall_o = |rest;
  assign work_o  = work_q;

  ////////////////////////////////////////////////////////////////////////////
  // Next state
  ////////////////////////////////////////////////////////////////////////////

  // Taken: the picked threads leave (a jump's whole mask); refused: the
  // threads stay as they were (a load's whole mask); dropped: empty.
  always_comb begin : next_work
    work_d = work_q;
    if (drop_i) begin
      work_d = '0;
    end else if (take_i) begin
      work_d = rest;
    end else begin
      work_d = src;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      work_q <= '0;
    end else begin
      work_q <= work_d;
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // Assertions: 004 §3.1's definition of a sub-warp, stated independently of
  // the logic above (different formulations, plus a shadow record of the
  // current instruction's threads), so that a mistake the C model and this
  // RTL share still trips one of them. Under SYNTHESIS they are compiled
  // out; under FORMAL (make formal) Yosys proves them (docs/rtl.md).
  ////////////////////////////////////////////////////////////////////////////

`ifndef SYNTHESIS
  // Shadow record of the instruction being broken down: a_mask_q, the
  // threads it owns (its loaded mask, less what a drop handed back), and
  // a_done_q, those its taken sub-warps carried so far.
  logic [T-1:0] a_mask_q, a_mask_d, a_done_q, a_done_d;
  logic [T-1:0] a_base_mask, a_base_done, a_taken;

  always_comb begin : assert_shadow
    a_base_mask = load_i ? mask_i : a_mask_q;
    a_base_done = load_i ? '0 : a_done_q;
    a_taken     = take_i ? (jump ? src : pick_o) : '0;
    a_done_d    = a_base_done | a_taken;
    a_mask_d    = drop_i ? a_done_d : a_base_mask;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_mask_q <= '0;
      a_done_q <= '0;
    end else begin
      a_mask_q <= a_mask_d;
      a_done_q <= a_done_d;
    end
  end

  logic           a_one_per_col;  // no column gives two threads
  logic           a_lowest;       // no candidate below a picked row
  logic           a_full;         // every column with a candidate gives one
  logic           a_rows_match;   // row_o/valid_o decode to pick_o
  logic           a_lanes_match;  // valid_o: the columns pick_o uses; row_o 0 elsewhere
  logic [CNT_W-1:0] a_ones;       // the columns pick_o uses, counted
  logic [T-1:0]   a_row_dec;      // row_o and valid_o decoded to threads
  logic [ROWS-1:0] a_col_cand, a_col_pick;

  always_comb begin : assert_helpers
    a_one_per_col = 1'b1;
    a_lowest      = 1'b1;
    a_full        = 1'b1;
    a_lanes_match = 1'b1;
    a_ones        = '0;
    a_row_dec     = '0;
    a_col_cand    = '0;
    a_col_pick    = '0;
    for (int c = 0; c < COLS; c++) begin
      for (int r = 0; r < ROWS; r++) begin
        a_col_cand[r] = cand[r*COLS + c];
        a_col_pick[r] = pick_o[r*COLS + c];
      end
      // one-hot or zero: clearing the lowest set bit leaves nothing
      a_one_per_col = a_one_per_col && ((a_col_pick & (a_col_pick - ROWS'(1))) == '0);
      // no candidate below the picked row: the rows under it are the
      // picked one-hot minus one
      a_lowest = a_lowest && ((a_col_cand & (a_col_pick - ROWS'(1))) == '0);
      a_full   = a_full && ((a_col_cand == '0) == (a_col_pick == '0));
      a_ones   = a_ones + CNT_W'(a_col_pick != '0);
      a_lanes_match = a_lanes_match && (valid_o[c] == (a_col_pick != '0)) &&
                      (valid_o[c] || row_o[c*ROW_W +: ROW_W] == '0);
      if (valid_o[c]) begin
        a_row_dec[32'(row_o[c*ROW_W +: ROW_W])*COLS + c] = 1'b1;
      end
    end
    a_rows_match = (a_row_dec == pick_o);
  end

  // A sub-warp never takes two threads of one column (lane, register bank).
  `WS_ASSERT(one_thread_per_column, a_one_per_col)
  // Every picked thread is active in the instruction and not yet picked:
  // in the working copy (or the loaded mask), never in an earlier taken
  // sub-warp of the same instruction, and (but for a jump) not held by a
  // sub-warp in flight (dep_i).
  `WS_ASSERT(pick_is_active, (pick_o & ~src) == '0 && (pick_o & ~a_base_mask) == '0)
  `WS_ASSERT(pick_not_picked_before, (pick_o & a_base_done) == '0)
  `WS_ASSERT(pick_not_dep, jump || (pick_o & dep_i) == '0)
  // Each column gives its first remaining active row (004 Fig. 6: rows
  // top down), and every column with a candidate gives one.
  `WS_ASSERT(lowest_row_first, a_lowest)
  `WS_ASSERT(column_not_skipped, a_full)
  // A clock picks nothing only when every remaining thread waits on dep_i.
  `WS_ASSERT(progress, valid_o != '0 || (src & ~dep_i) == '0)
  // The lane view and the thread view of the sub-warp agree, and cnt_o
  // counts the columns pick_o uses (per column, not per thread: an adder of
  // cnt_o's shape, which the SAT proof settles; docs/rtl.md, Formal).
  `WS_ASSERT(rows_decode_to_pick, a_rows_match && a_lanes_match)
  `WS_ASSERT(cnt_counts_pick, cnt_o == a_ones)
  // The partition: the instruction's taken sub-warps and the working copy
  // are disjoint and together are its threads; when stall_o falls on a
  // taken sub-warp, the sub-warps carried every thread exactly once.
  `WS_ASSERT(work_disjoint_done, (work_q & a_done_q) == '0)
  `WS_ASSERT(work_plus_done_is_mask, (work_q | a_done_q) == a_mask_q)
  `WS_ASSERT(partition_complete, !take_i || drop_i || stall_o || jump || (a_base_done | pick_o) == a_base_mask)
  `WS_ASSERT(stall_means_threads_left, stall_o == ((src & ~pick_o) != '0 && !jump))
`endif

endmodule
