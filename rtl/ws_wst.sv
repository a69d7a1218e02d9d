// Warp-split table (WST): one per WPU.
//
// Every valid entry is one schedulable SIMD group of the WPU: a warp's root
// group or one of its warp-splits (001 §4.4, §5.4; 000 §5.4). An entry holds
// the group's warp, PC, active mask and status and, for MAWS, the instruction
// count since the warp's root, the miss-free-cycle counter (MFC), the
// remaining-MFC estimate and the latency of the group's last miss. The
// sum-rMFC of the whole table (000 §5.4.3: the remaining miss-free cycles of
// the live warp-splits, added up) is not a counter of its own but an adder
// over the valid entries' rmfc registers, so it cannot drift from them.
//
// Ports, widths and next-state rules are the contract in docs/blocks/wst.md;
// the ports are the port table cmodel/blocks/wst.def, which tests/rtl.sh
// (rtl-ports) holds against this module's ports for every parameter set, so
// a port changes in both places. The golden reference is the C block
// cmodel/blocks/wst.c, which tb/ runs side by side with this module and
// compares every output every clock.
//
// Timing. At most one operation per clock, on entry idx_i. Every output is
// combinational from the registered state and the early inputs idx_i, elig_i
// and mpc_i (no output depends on an operation input, so the pipeline can look
// at the outputs before deciding the operation). The operation inputs
// (op_i and the rest) take effect at the rising edge: the state seen in the
// next clock has it applied. With op_i low the state does not change.
//
// Structure. The state is a set of flat registers, one field of all entries
// per vector (entry i at bits [i*w +: w]); the read ports ent_<field>_o are
// these registers, and sum_rmfc_o is a function of them alone (it changes
// only at the clock edge, like a register). The combinational part has four
// pieces: the sum-rMFC adder (the valid entries' rmfc, saturated), the
// free-entry finder (count and two lowest invalid entries), the merge matcher
// (valid, eligible entries of idx_i's warp whose PC is mpc_i, the PC idx_i
// reaches with this clock's instruction), and the lag finder (per warp value,
// the valid entry with the lowest instruction count, lowest index on ties). The
// next state computes the new value of entry idx_i once, then writes it to
// idx_i and, for a spawn, with the child's pc/mask/status to the chosen free
// entry.
//
// idx_i must be below ENTRIES (when ENTRIES is not a power of two) for an
// operation: an input assumption, asserted below (idx_in_table). Read past
// the table, the index gives an invalid all-zero entry, and its write is
// dropped, as in the C model (docs/blocks/wst.md, corner cases;
// tests/blocks/wst/past_table).
`default_nettype none

`include "ws_assert.svh"

module ws_wst #(
  parameter int ENTRIES = 16, // table entries, 2..64
  parameter int WIDTH   = 16, // lanes (active-mask bits), 1..64
  parameter int WARPS   = 4,  // warps per WPU, 1..ENTRIES
  parameter int PC_W    = 32, // PC bits, 2..32
  parameter int CNT_W   = 16, // instruction count bits, 1..32 (saturating)
  parameter int MFC_W   = 16, // MFC, rMFC, latency and sum-rMFC bits, 1..32 (saturating)
  localparam int IDX_W   = (ENTRIES > 2) ? $clog2(ENTRIES) : 1,
  localparam int WARP_W  = (WARPS > 2) ? $clog2(WARPS) : 1,
  localparam int NFREE_W = $clog2(ENTRIES + 1)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,

  // Early inputs from the pipeline (the outputs depend on them)
  input  logic [IDX_W-1:0]           idx_i,
  input  logic [ENTRIES-1:0]         elig_i,
  input  logic [PC_W-1:0]            mpc_i,

  // The operation on entry idx_i, decided by the pipeline after the outputs
  input  logic                       op_i,
  input  logic                       free_i,
  input  logic                       set_i,
  input  logic [WARP_W-1:0]          warp_i,
  input  logic [PC_W-1:0]            pc_i,
  input  logic [WIDTH-1:0]           mask_i,
  input  logic [1:0]                 st_i,
  input  logic                       issue_i,
  input  logic                       resume_i,
  input  logic                       miss_i,
  input  logic [31:0]                lat_i,
  input  logic                       merge_i,
  input  logic                       spawn_i,
  input  logic [PC_W-1:0]            pc_b_i,
  input  logic [WIDTH-1:0]           mask_b_i,
  input  logic [1:0]                 st_b_i,

  // To the pipeline: free entries, re-convergence, MAWS
  output logic [NFREE_W-1:0]         nfree_o,
  output logic [IDX_W-1:0]           free_idx_o,
  output logic [IDX_W-1:0]           free2_idx_o,
  output logic [ENTRIES-1:0]         merge_vec_o,
  output logic [WIDTH-1:0]           merge_mask_o,
  output logic [ENTRIES-1:0]         lag_vec_o,
  output logic                       latspec_o,

  // To the scheduler: the registered entries (entry i at [i*w +: w])
  output logic [ENTRIES-1:0]         ent_valid_o,
  output logic [ENTRIES*2-1:0]       ent_st_o,
  output logic [ENTRIES*WARP_W-1:0]  ent_warp_o,
  output logic [ENTRIES*PC_W-1:0]    ent_pc_o,
  output logic [ENTRIES*WIDTH-1:0]   ent_mask_o,
  output logic [ENTRIES*CNT_W-1:0]   ent_icnt_o,
  output logic [ENTRIES*MFC_W-1:0]   ent_mfc_o,
  output logic [ENTRIES*MFC_W-1:0]   ent_rmfc_o,
  output logic [ENTRIES*MFC_W-1:0]   ent_lat_o,
  output logic [MFC_W-1:0]           sum_rmfc_o
);

  // The largest value of an MFC_W field, at 33 bits so that MFC_W = 32 fits.
  localparam logic [32:0] MFC_MAX = (33'd1 << MFC_W) - 33'd1;

  ////////////////////////////////////////////////////////////////////////////
  // State
  ////////////////////////////////////////////////////////////////////////////

  logic [ENTRIES-1:0]        valid_q, valid_d;
  logic [ENTRIES*2-1:0]      st_q, st_d;
  logic [ENTRIES*WARP_W-1:0] warp_q, warp_d;
  logic [ENTRIES*PC_W-1:0]   pc_q, pc_d;
  logic [ENTRIES*WIDTH-1:0]  mask_q, mask_d;
  logic [ENTRIES*CNT_W-1:0]  icnt_q, icnt_d;
  logic [ENTRIES*MFC_W-1:0]  mfc_q, mfc_d;
  logic [ENTRIES*MFC_W-1:0]  rmfc_q, rmfc_d;
  logic [ENTRIES*MFC_W-1:0]  lat_q, lat_d;

  ////////////////////////////////////////////////////////////////////////////
  // Outputs: combinational from the state, idx_i, elig_i and mpc_i
  ////////////////////////////////////////////////////////////////////////////

  // Entry idx_i, read through one mux per field.
  logic              me_valid;
  logic [WARP_W-1:0] me_warp;
  logic [WIDTH-1:0]  me_mask;
  logic [CNT_W-1:0]  me_icnt;
  logic [MFC_W-1:0]  me_mfc, me_rmfc, me_lat;

  always_comb begin : read_idx
    me_valid = 1'b0;
    me_warp  = '0;
    me_mask  = '0;
    me_icnt  = '0;
    me_mfc   = '0;
    me_rmfc  = '0;
    me_lat   = '0;
    for (int i = 0; i < ENTRIES; i++) begin
      if (idx_i == IDX_W'(i)) begin
        me_valid = valid_q[i];
        me_warp  = warp_q[i*WARP_W +: WARP_W];
        me_mask  = mask_q[i*WIDTH +: WIDTH];
        me_icnt  = icnt_q[i*CNT_W +: CNT_W];
        me_mfc   = mfc_q[i*MFC_W +: MFC_W];
        me_rmfc  = rmfc_q[i*MFC_W +: MFC_W];
        me_lat   = lat_q[i*MFC_W +: MFC_W];
      end
    end
  end

  // Free entries: how many, the lowest and the second lowest invalid one.
  logic [NFREE_W-1:0] nfree;
  logic [IDX_W-1:0]   free_idx, free2_idx;
  logic               found0, found1;

  always_comb begin : find_free
    nfree     = '0;
    free_idx  = '0;
    free2_idx = '0;
    found0    = 1'b0;
    found1    = 1'b0;
    for (int i = 0; i < ENTRIES; i++) begin
      if (!valid_q[i]) begin
        nfree = nfree + NFREE_W'(1);
        if (!found0) begin
          found0   = 1'b1;
          free_idx = IDX_W'(i);
        end else if (!found1) begin
          found1    = 1'b1;
          free2_idx = IDX_W'(i);
        end
      end
    end
  end

  // PC-based re-convergence: valid, eligible entries other than idx_i of the
  // same warp at PC mpc_i, and the OR of their masks with idx_i's.
  logic [ENTRIES-1:0] merge_vec;
  logic [WIDTH-1:0]   merge_mask;

  always_comb begin : match_merge
    merge_vec  = '0;
    merge_mask = me_mask;
    for (int j = 0; j < ENTRIES; j++) begin
      if (me_valid && valid_q[j] && elig_i[j] && idx_i != IDX_W'(j) &&
          warp_q[j*WARP_W +: WARP_W] == me_warp && pc_q[j*PC_W +: PC_W] == mpc_i) begin
        merge_vec[j] = 1'b1;
        merge_mask   = merge_mask | mask_q[j*WIDTH +: WIDTH];
      end
    end
  end

  // Lag finder: for every warp value with two or more valid entries, its
  // entry with the lowest instruction count (the lowest index among equals).
  // One compare-and-select chain per warp value.
  logic [ENTRIES-1:0] lag_vec;
  logic [ENTRIES-1:0] low_oh;
  logic [CNT_W-1:0]   low_cnt;
  logic               seen, two;

  always_comb begin : find_lag
    lag_vec = '0;
    low_oh  = '0;
    low_cnt = '0;
    seen    = 1'b0;
    two     = 1'b0;
    for (int w = 0; w < (1 << WARP_W); w++) begin
      low_oh  = '0;
      low_cnt = '0;
      seen    = 1'b0;
      two     = 1'b0;
      for (int i = 0; i < ENTRIES; i++) begin
        if (valid_q[i] && warp_q[i*WARP_W +: WARP_W] == WARP_W'(w)) begin
          if (seen) begin
            two = 1'b1;
          end
          if (!seen || icnt_q[i*CNT_W +: CNT_W] < low_cnt) begin
            low_oh    = '0;
            low_oh[i] = 1'b1;
            low_cnt   = icnt_q[i*CNT_W +: CNT_W];
          end
          seen = 1'b1;
        end
      end
      if (two) begin
        lag_vec = lag_vec | low_oh;
      end
    end
  end

  // sum-rMFC (000 §5.4.3): the valid entries' rmfc added up, at MFC_W+6
  // bits (up to 64 entries), saturated to MFC_W bits.
  localparam int SUM_W = MFC_W + 6;
  logic [SUM_W-1:0] live_rmfc;
  logic [MFC_W-1:0] sum_rmfc;

  always_comb begin : add_rmfc
    live_rmfc = '0;
    for (int i = 0; i < ENTRIES; i++) begin
      live_rmfc = live_rmfc + (valid_q[i] ? SUM_W'(rmfc_q[i*MFC_W +: MFC_W]) : '0);
    end
    sum_rmfc = (live_rmfc > SUM_W'(MFC_MAX)) ? MFC_MAX[MFC_W-1:0] : live_rmfc[MFC_W-1:0];
  end

  // LatSpec (000 §5.4.3): the group would not have missed again before its
  // current miss returns. Compared at MFC_W+1 bits.
  logic [MFC_W:0] latspec_sum;
  assign latspec_sum = {1'b0, sum_rmfc} + {1'b0, me_mfc};

  assign nfree_o      = nfree;
  assign free_idx_o   = free_idx;
  assign free2_idx_o  = free2_idx;
  assign merge_vec_o  = merge_vec;
  assign merge_mask_o = merge_mask;
  assign lag_vec_o    = lag_vec;
  assign latspec_o    = me_valid && (latspec_sum < {1'b0, me_lat});

  assign ent_valid_o  = valid_q;
  assign ent_st_o     = st_q;
  assign ent_warp_o   = warp_q;
  assign ent_pc_o     = pc_q;
  assign ent_mask_o   = mask_q;
  assign ent_icnt_o   = icnt_q;
  assign ent_mfc_o    = mfc_q;
  assign ent_rmfc_o   = rmfc_q;
  assign ent_lat_o    = lat_q;
  assign sum_rmfc_o   = sum_rmfc;

  ////////////////////////////////////////////////////////////////////////////
  // Next state
  ////////////////////////////////////////////////////////////////////////////

  // lat_i saturated to MFC_W bits.
  logic [MFC_W-1:0] lat_sat;
  assign lat_sat = ({1'b0, lat_i} > MFC_MAX) ? MFC_MAX[MFC_W-1:0] : lat_i[MFC_W-1:0];

  // The next value of entry idx_i (steps 1 and 2 of the doc).
  logic              e_valid;
  logic [WARP_W-1:0] e_warp;
  logic [CNT_W-1:0]  e_icnt;
  logic [MFC_W-1:0]  e_mfc, e_rmfc, e_lat;
  logic [MFC_W-1:0]  mfc_base;
  logic [MFC_W:0]    mfc_inc;

  always_comb begin : next_entry
    e_valid  = me_valid;
    e_warp   = me_warp;
    e_icnt   = me_icnt;
    e_mfc    = me_mfc;
    e_rmfc   = me_rmfc;
    e_lat    = me_lat;
    mfc_base = '0;
    mfc_inc  = '0;
    if (set_i) begin
      e_valid = 1'b1;
      e_warp  = warp_i;
      e_icnt  = '0;
      e_mfc   = '0;
      e_rmfc  = '0;
      e_lat   = lat_sat;
    end
    if (issue_i) begin
      mfc_base = e_mfc;
      if (resume_i) begin
        // Its miss completed: the MFC run just ended predicts the next one.
        e_rmfc   = mfc_base;
        mfc_base = '0;
      end
      mfc_inc = {1'b0, mfc_base} + {{MFC_W{1'b0}}, 1'b1};
      e_mfc   = mfc_inc[MFC_W] ? MFC_MAX[MFC_W-1:0] : mfc_inc[MFC_W-1:0];
      e_rmfc  = (e_rmfc != '0) ? e_rmfc - MFC_W'(1) : '0;
      e_icnt  = (&e_icnt) ? e_icnt : e_icnt + CNT_W'(1);
      if (miss_i) begin
        e_lat = lat_sat;
      end
    end
  end

  // The child's entry: the lowest free entry other than idx_i.
  logic             spawn_ok;
  logic [IDX_W-1:0] spawn_idx;

  always_comb begin : pick_child
    spawn_ok  = 1'b0;
    spawn_idx = '0;
    if (spawn_i) begin
      if (nfree != '0 && free_idx != idx_i) begin
        spawn_ok  = 1'b1;
        spawn_idx = free_idx;
      end else if (nfree > NFREE_W'(1)) begin
        spawn_ok  = 1'b1;
        spawn_idx = free2_idx;
      end
    end
  end

  // Steps 3 to 5 of the doc: clear the merged entries, write idx_i, write the
  // child. A freed entry has all its fields cleared.
  always_comb begin : next_table
    valid_d    = valid_q;
    st_d       = st_q;
    warp_d     = warp_q;
    pc_d       = pc_q;
    mask_d     = mask_q;
    icnt_d     = icnt_q;
    mfc_d      = mfc_q;
    rmfc_d     = rmfc_q;
    lat_d      = lat_q;
    if (op_i) begin
      for (int i = 0; i < ENTRIES; i++) begin
        if ((free_i && idx_i == IDX_W'(i)) || (!free_i && merge_i && merge_vec[i])) begin
          valid_d[i]                  = 1'b0;
          st_d[i*2 +: 2]              = '0;
          warp_d[i*WARP_W +: WARP_W]  = '0;
          pc_d[i*PC_W +: PC_W]        = '0;
          mask_d[i*WIDTH +: WIDTH]    = '0;
          icnt_d[i*CNT_W +: CNT_W]    = '0;
          mfc_d[i*MFC_W +: MFC_W]     = '0;
          rmfc_d[i*MFC_W +: MFC_W]    = '0;
          lat_d[i*MFC_W +: MFC_W]     = '0;
        end
        if (!free_i && (idx_i == IDX_W'(i) || (spawn_ok && spawn_idx == IDX_W'(i)))) begin
          valid_d[i]                  = e_valid;
          warp_d[i*WARP_W +: WARP_W]  = e_warp;
          icnt_d[i*CNT_W +: CNT_W]    = e_icnt;
          mfc_d[i*MFC_W +: MFC_W]     = e_mfc;
          rmfc_d[i*MFC_W +: MFC_W]    = e_rmfc;
          lat_d[i*MFC_W +: MFC_W]     = e_lat;
          if (idx_i == IDX_W'(i)) begin
            st_d[i*2 +: 2]            = st_i;
            pc_d[i*PC_W +: PC_W]      = pc_i;
            mask_d[i*WIDTH +: WIDTH]  = mask_i;
          end else begin
            st_d[i*2 +: 2]            = st_b_i;
            pc_d[i*PC_W +: PC_W]      = pc_b_i;
            mask_d[i*WIDTH +: WIDTH]  = mask_b_i;
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q    <= '0;
      st_q       <= '0;
      warp_q     <= '0;
      pc_q       <= '0;
      mask_q     <= '0;
      icnt_q     <= '0;
      mfc_q      <= '0;
      rmfc_q     <= '0;
      lat_q      <= '0;
    end else begin
      valid_q    <= valid_d;
      st_q       <= st_d;
      warp_q     <= warp_d;
      pc_q       <= pc_d;
      mask_q     <= mask_d;
      icnt_q     <= icnt_d;
      mfc_q      <= mfc_d;
      rmfc_q     <= rmfc_d;
      lat_q      <= lat_d;
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // Assertions: invariants the block guarantees by itself, whatever the
  // pipeline drives (plus one input assumption, idx_in_table).
  ////////////////////////////////////////////////////////////////////////////

`ifndef SYNTHESIS
  logic [NFREE_W-1:0] a_invalid;    // invalid entries, counted independently
  logic               a_lag_ok;     // every lag_vec entry has a valid sibling of its warp
  logic [WARP_W:0]    a_lag_count;  // lag_vec entries, at most one per warp value
  logic               a_lag_warps;  // no two lag_vec entries of one warp
  logic [MFC_W+6:0]   a_live_rmfc;  // the valid entries' rmfc, summed one by one
  logic [MFC_W-1:0]   a_live_sat;   // ... saturated to MFC_W bits

  always_comb begin : assert_helpers
    a_invalid   = '0;
    a_lag_ok    = 1'b1;
    a_lag_count = '0;
    a_lag_warps = 1'b1;
    a_live_rmfc = '0;
    for (int i = 0; i < ENTRIES; i++) begin
      a_invalid = a_invalid + NFREE_W'(!valid_q[i]);
      if (valid_q[i]) begin
        a_live_rmfc = a_live_rmfc + (MFC_W+7)'(rmfc_q[i*MFC_W +: MFC_W]);
      end
      if (lag_vec[i]) begin
        a_lag_count = a_lag_count + (WARP_W + 1)'(1);
        a_lag_ok    = a_lag_ok && valid_q[i];
        for (int j = 0; j < ENTRIES; j++) begin
          if (j != i && lag_vec[j] && warp_q[j*WARP_W +: WARP_W] == warp_q[i*WARP_W +: WARP_W]) begin
            a_lag_warps = 1'b0;
          end
        end
      end
    end
    a_live_sat = (a_live_rmfc > (MFC_W+7)'(MFC_MAX)) ? MFC_MAX[MFC_W-1:0] : a_live_rmfc[MFC_W-1:0];
  end

  // Input assumption: the pipeline only names entries of the table.
  `WS_ASSERT(idx_in_table, !op_i || 32'(idx_i) < ENTRIES)
  // nfree_o counts the invalid entries.
  `WS_ASSERT(nfree_counts_invalid, nfree == a_invalid)
  // free_idx_o and free2_idx_o name invalid entries, in increasing order.
  `WS_ASSERT(free_idx_invalid, nfree == '0 || !valid_q[free_idx])
  `WS_ASSERT(free2_idx_invalid, nfree < NFREE_W'(2) || (!valid_q[free2_idx] && free2_idx > free_idx))
  `WS_ASSERT(free_idx_zero_when_full, nfree != '0 || (free_idx == '0 && free2_idx == '0))
  // merge_vec_o only names valid, eligible entries other than idx_i.
  `WS_ASSERT(merge_vec_valid_elig, (merge_vec & ~(valid_q & elig_i)) == '0)
  `WS_ASSERT(merge_vec_not_idx, 32'(idx_i) >= ENTRIES || !merge_vec[idx_i])
  `WS_ASSERT(merge_vec_needs_valid_idx, me_valid || merge_vec == '0)
  // lag_vec_o: valid entries with a sibling, at most one per warp value.
  `WS_ASSERT(lag_vec_valid, a_lag_ok)
  `WS_ASSERT(lag_vec_one_per_warp, a_lag_warps && 32'(a_lag_count) <= (1 << WARP_W))
  // A spawn never overwrites a valid entry nor the parent.
  // sum_rmfc_o is 000 §5.4.3's sum-rMFC: the remaining miss-free cycles of
  // the live warp-splits (the valid entries' rmfc) added up, saturated.
  `WS_ASSERT(sum_rmfc_is_live_sum, sum_rmfc_o == a_live_sat)
  `WS_ASSERT(spawn_into_free, !spawn_ok || (!valid_q[spawn_idx] && spawn_idx != idx_i))
`endif

endmodule
