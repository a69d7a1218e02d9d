// Memory divergence table (MDT) with its memory coalescing buffer (MCB)
// status: one per WPU (seed 002 §4.1, Fig. 3, Table 1; diverge on miss).
//
// M entries per warp slot, entry i belonging to warp i / M. An entry is the
// PC of a divergent load or store and, per thread, the status of the thread
// in the instruction's MCB entry: waiting (it missed and is masked off, its
// line is not back), ready (its line returned, the value is in the MCB) or
// neither (invalid). 002's three-state FSM per thread is these two bits; the
// entry's thread bitmask of Fig. 3 is wait | rdy, and an entry is valid
// exactly while it has a thread, so validity is not a register of its own:
// ent_valid_o is the OR of the entry's two masks.
//
// Ports, widths and next-state rules are the contract in docs/blocks/mdt.md;
// the ports are the port table cmodel/blocks/mdt.def (tests/rtl.sh,
// rtl-ports, holds it against this module for every parameter set). The
// golden reference is the C block cmodel/blocks/mdt.c, which tb/mdt_tb.cpp
// runs beside this module, comparing every output every clock.
//
// Timing. Every output is combinational from the registered state and the
// early inputs warp_i and pc_i; no output depends on an operation input, so
// the pipeline decides the operation after looking at them. At most one
// operation (op_i: alloc or merge on entry idx_i, or force of warp warp_i's
// entries) and one fill (entry fill_idx_i) take effect at the rising edge;
// the fill acts on the operation's result. Clocks with neither leave the
// state unchanged. A merge keeps the ready lanes of keep_i (not on the
// issuing group's path, or held at the slip limit); a force takes lanes
// mask_i out of the warp's entries (a forced re-convergence of the threads
// of one stack level, or of all).
//
// Structure. The state is three flat registers, one field of all entries per
// vector (entry i at bits [i*w +: w]): pc, wait, rdy. The search reads warp
// warp_i's M entries through M read multiplexers and compares their PCs with
// pc_i (M comparators, the lowest matching entry wins); the same M entries
// give the lowest free entry, the warp's lanes and its entry count. nvalid_o
// is a population count over every entry's valid bit, mcb_full_o a compare
// of it with MCB. The next state writes the new value of entry idx_i (alloc,
// merge, cleared when it has no thread: 002 §4.1 step 5), takes the forced
// lanes out of warp_i's entries (clearing those left empty), then moves the
// filled lanes of entry fill_idx_i from wait to rdy.
//
// Operations on an entry past the table (idx_i >= ENTRIES, only when ENTRIES
// is not a power of two) and forces of a warp past WARPS are dropped, as in
// the C model; fills past the table too.
`default_nettype none

`include "ws_assert.svh"

module ws_mdt #(
  parameter int WARPS = 4,  // warp slots per WPU N, 1..32
  parameter int M     = 2,  // entries per warp (002: 2), 1..8; WARPS * M <= 64
  parameter int WIDTH = 32, // lanes W (thread-mask bits), 1..64
  parameter int PC_W  = 32, // PC bits, 2..32
  parameter int MCB   = 8,  // MCB entries per WPU, 1..WARPS * M
  localparam int ENTRIES = WARPS * M,
  localparam int IDX_W   = (ENTRIES > 2) ? $clog2(ENTRIES) : 1,
  localparam int WARP_W  = (WARPS > 2) ? $clog2(WARPS) : 1,
  localparam int NV_W    = $clog2(ENTRIES + 1),
  localparam int WC_W    = (M > 1) ? $clog2(M + 1) : 1
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,

  // Early inputs from the pipeline: the search key
  input  logic [WARP_W-1:0]          warp_i,
  input  logic [PC_W-1:0]            pc_i,

  // The operation and the fill, decided by the pipeline after the outputs
  input  logic [1:0]                 op_i,
  input  logic [IDX_W-1:0]           idx_i,
  input  logic [WIDTH-1:0]           mask_i,
  input  logic [WIDTH-1:0]           keep_i,
  input  logic                       fill_i,
  input  logic [IDX_W-1:0]           fill_idx_i,
  input  logic [WIDTH-1:0]           fill_mask_i,

  // To the pipeline: the search of warp warp_i's entries, the MCB's use
  output logic                       hit_o,
  output logic [IDX_W-1:0]           hit_idx_o,
  output logic [WIDTH-1:0]           hit_rdy_o,
  output logic [WIDTH-1:0]           hit_wait_o,
  output logic                       free_o,
  output logic [IDX_W-1:0]           free_idx_o,
  output logic [WIDTH-1:0]           wlanes_o,
  output logic [WC_W-1:0]            wcount_o,
  output logic [NV_W-1:0]            nvalid_o,
  output logic                       mcb_full_o,

  // To the pipeline (forced re-convergence, checks): the registered entries
  output logic [ENTRIES-1:0]         ent_valid_o,
  output logic [ENTRIES*PC_W-1:0]    ent_pc_o,
  output logic [ENTRIES*WIDTH-1:0]   ent_wait_o,
  output logic [ENTRIES*WIDTH-1:0]   ent_rdy_o
);

  localparam logic [1:0] OpAlloc = 2'd1;
  localparam logic [1:0] OpMerge = 2'd2;
  localparam logic [1:0] OpForce = 2'd3;

  ////////////////////////////////////////////////////////////////////////////
  // State
  ////////////////////////////////////////////////////////////////////////////

  logic [ENTRIES*PC_W-1:0]  pc_q, pc_d;
  logic [ENTRIES*WIDTH-1:0] wait_q, wait_d;
  logic [ENTRIES*WIDTH-1:0] rdy_q, rdy_d;

  // An entry is valid while it has a thread (waiting or ready).
  logic [ENTRIES-1:0] valid;

  always_comb begin : entry_valid
    valid = '0;
    for (int i = 0; i < ENTRIES; i++) begin
      valid[i] = |(wait_q[i*WIDTH +: WIDTH] | rdy_q[i*WIDTH +: WIDTH]);
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // Outputs: combinational from the state, warp_i and pc_i
  ////////////////////////////////////////////////////////////////////////////

  // Warp warp_i's M entries, read through M multiplexers (none when warp_i
  // is past WARPS: every one reads as invalid, and warp_ok is low).
  logic                  warp_ok;
  logic [M-1:0]          w_valid;
  logic [M*PC_W-1:0]     w_pc;
  logic [M*WIDTH-1:0]    w_wait, w_rdy;

  assign warp_ok = 32'(warp_i) < WARPS;

  always_comb begin : read_warp
    w_valid = '0;
    w_pc    = '0;
    w_wait  = '0;
    w_rdy   = '0;
    for (int w = 0; w < WARPS; w++) begin
      if (warp_i == WARP_W'(w)) begin
        for (int j = 0; j < M; j++) begin
          w_valid[j]               = valid[w*M + j];
          w_pc[j*PC_W +: PC_W]     = pc_q[(w*M + j)*PC_W +: PC_W];
          w_wait[j*WIDTH +: WIDTH] = wait_q[(w*M + j)*WIDTH +: WIDTH];
          w_rdy[j*WIDTH +: WIDTH]  = rdy_q[(w*M + j)*WIDTH +: WIDTH];
        end
      end
    end
  end

  // The search (002 §4.1 step 3): the warp's lowest valid entry at pc_i,
  // its lowest invalid entry, its lanes and the number of its entries.
  logic             hit, free;
  logic [IDX_W-1:0] hit_slot, free_slot; // 0..M-1, within the warp
  logic [WIDTH-1:0] hit_rdy, hit_wait, wlanes;
  logic [WC_W-1:0]  wcount;

  always_comb begin : search
    hit       = 1'b0;
    free      = 1'b0;
    hit_slot  = '0;
    free_slot = '0;
    hit_rdy   = '0;
    hit_wait  = '0;
    wlanes    = '0;
    wcount    = '0;
    for (int j = 0; j < M; j++) begin
      if (w_valid[j]) begin
        wcount = wcount + WC_W'(1);
        wlanes = wlanes | w_wait[j*WIDTH +: WIDTH] | w_rdy[j*WIDTH +: WIDTH];
        if (!hit && w_pc[j*PC_W +: PC_W] == pc_i) begin
          hit      = 1'b1;
          hit_slot = IDX_W'(j);
          hit_rdy  = w_rdy[j*WIDTH +: WIDTH];
          hit_wait = w_wait[j*WIDTH +: WIDTH];
        end
      end else if (!free && warp_ok) begin
        free      = 1'b1;
        free_slot = IDX_W'(j);
      end
    end
  end

  // The warp's first entry, warp_i * M, at IDX_W bits.
  logic [IDX_W-1:0] warp_base;
  assign warp_base = IDX_W'(32'(warp_i) * M);

  // Valid entries of the whole table: MCB entries in use.
  logic [NV_W-1:0] nvalid;

  always_comb begin : count_valid
    nvalid = '0;
    for (int i = 0; i < ENTRIES; i++) begin
      nvalid = nvalid + NV_W'(valid[i]);
    end
  end

  assign hit_o       = hit;
  assign hit_idx_o   = hit ? warp_base + hit_slot : '0;
  assign hit_rdy_o   = hit_rdy;
  assign hit_wait_o  = hit_wait;
  assign free_o      = free;
  assign free_idx_o  = free ? warp_base + free_slot : '0;
  assign wlanes_o    = wlanes;
  assign wcount_o    = wcount;
  assign nvalid_o    = nvalid;
  assign mcb_full_o  = 32'(nvalid) >= MCB;

  assign ent_valid_o = valid;
  assign ent_pc_o    = pc_q;
  assign ent_wait_o  = wait_q;
  assign ent_rdy_o   = rdy_q;

  ////////////////////////////////////////////////////////////////////////////
  // Next state
  ////////////////////////////////////////////////////////////////////////////

  // Entry idx_i, read through one multiplexer per field.
  logic             me_valid;
  logic [PC_W-1:0]  me_pc;
  logic [WIDTH-1:0] me_wait, me_rdy;

  always_comb begin : read_idx
    me_valid = 1'b0;
    me_pc    = '0;
    me_wait  = '0;
    me_rdy   = '0;
    for (int i = 0; i < ENTRIES; i++) begin
      if (idx_i == IDX_W'(i)) begin
        me_valid = valid[i];
        me_pc    = pc_q[i*PC_W +: PC_W];
        me_wait  = wait_q[i*WIDTH +: WIDTH];
        me_rdy   = rdy_q[i*WIDTH +: WIDTH];
      end
    end
  end

  // The new value of entry idx_i: alloc writes it; merge (of a valid entry)
  // re-activates the ready threads but those in keep_i (they become
  // invalid) and adds the new misses. An entry left without a thread is
  // cleared, PC included (002 §4.1 step 5).
  logic             e_write;
  logic [PC_W-1:0]  e_pc;
  logic [WIDTH-1:0] e_wait, e_rdy;

  always_comb begin : next_entry
    e_write = 1'b0;
    e_pc    = me_pc;
    e_wait  = '0;
    e_rdy   = '0;
    if (op_i == OpAlloc) begin
      e_write = 1'b1;
      e_pc    = pc_i;
      e_wait  = mask_i;
    end else if (op_i == OpMerge && me_valid) begin
      e_write = 1'b1;
      e_wait  = me_wait | mask_i;
      e_rdy   = me_rdy & keep_i & ~mask_i; // (a new miss of a lane is a miss)
    end
    if ((e_wait | e_rdy) == '0) begin
      e_pc = '0;
    end
  end

  // The operation (force: lanes mask_i leave warp warp_i's entries, an
  // entry left without a thread is cleared; entry idx_i written), then the
  // fill on its result: the returned lanes of entry fill_idx_i go from
  // waiting to ready.
  always_comb begin : next_table
    pc_d   = pc_q;
    wait_d = wait_q;
    rdy_d  = rdy_q;
    for (int i = 0; i < ENTRIES; i++) begin
      if (op_i == OpForce && warp_ok && 32'(warp_i) == i / M) begin
        wait_d[i*WIDTH +: WIDTH] = wait_q[i*WIDTH +: WIDTH] & ~mask_i;
        rdy_d[i*WIDTH +: WIDTH]  = rdy_q[i*WIDTH +: WIDTH] & ~mask_i;
        if ((wait_d[i*WIDTH +: WIDTH] | rdy_d[i*WIDTH +: WIDTH]) == '0) begin
          pc_d[i*PC_W +: PC_W] = '0;
        end
      end
      if (e_write && idx_i == IDX_W'(i)) begin
        pc_d[i*PC_W +: PC_W]     = e_pc;
        wait_d[i*WIDTH +: WIDTH] = e_wait;
        rdy_d[i*WIDTH +: WIDTH]  = e_rdy;
      end
      if (fill_i && fill_idx_i == IDX_W'(i)) begin
        rdy_d[i*WIDTH +: WIDTH]  = rdy_d[i*WIDTH +: WIDTH] | (wait_d[i*WIDTH +: WIDTH] & fill_mask_i);
        wait_d[i*WIDTH +: WIDTH] = wait_d[i*WIDTH +: WIDTH] & ~fill_mask_i;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_q   <= '0;
      wait_q <= '0;
      rdy_q  <= '0;
    end else begin
      pc_q   <= pc_d;
      wait_q <= wait_d;
      rdy_q  <= rdy_d;
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // Assertions
  //
  // Block invariants: hold whatever the pipeline drives. Protocol invariants
  // (002 §4.1's use of the table): hold while the pipeline has driven the
  // table as docs/blocks/mdt.md says since reset — allocate only warp_i's
  // free_o entry without a hit and with an MCB entry free, merge only into
  // hit_idx_o, mask off only threads that are in none of the warp's entries,
  // fill only waiting lanes. a_broken_q (no hardware: compiled out for
  // synthesis) remembers a clock that did not; the testbench drives both
  // legal and arbitrary stimulus, and synth/formal.ys proves every assertion.
  ////////////////////////////////////////////////////////////////////////////

`ifndef SYNTHESIS
  logic               a_legal_op;     // this clock's operation and fill follow the protocol
  logic               a_broken_q;     // some clock since reset did not
  logic               a_broken_d;
  logic               a_both;         // some entry has a lane both waiting and ready
  logic               a_stale;        // some invalid entry has a nonzero PC
  logic               a_dup_pc;       // two valid entries of one warp at one PC
  logic               a_overlap;      // two entries of one warp share a lane
  logic [NV_W-1:0]    a_nvalid;       // valid entries, counted one by one
  logic [WIDTH-1:0]   a_fill_wait;    // entry fill_idx_i's waiting lanes

  always_comb begin : assert_helpers
    a_both      = 1'b0;
    a_stale     = 1'b0;
    a_dup_pc    = 1'b0;
    a_overlap   = 1'b0;
    a_nvalid    = '0;
    a_fill_wait = '0;
    for (int i = 0; i < ENTRIES; i++) begin
      if ((wait_q[i*WIDTH +: WIDTH] & rdy_q[i*WIDTH +: WIDTH]) != '0) begin
        a_both = 1'b1;
      end
      if (!valid[i] && pc_q[i*PC_W +: PC_W] != '0) begin
        a_stale = 1'b1;
      end
      if (valid[i]) begin
        a_nvalid = a_nvalid + NV_W'(1);
      end
      if (fill_idx_i == IDX_W'(i)) begin
        a_fill_wait = wait_q[i*WIDTH +: WIDTH];
      end
      for (int j = 0; j < ENTRIES; j++) begin
        if (j > i && i / M == j / M) begin
          if (valid[i] && valid[j] && pc_q[i*PC_W +: PC_W] == pc_q[j*PC_W +: PC_W]) begin
            a_dup_pc = 1'b1;
          end
          if (((wait_q[i*WIDTH +: WIDTH] | rdy_q[i*WIDTH +: WIDTH]) &
               (wait_q[j*WIDTH +: WIDTH] | rdy_q[j*WIDTH +: WIDTH])) != '0) begin
            a_overlap = 1'b1;
          end
        end
      end
    end
    a_legal_op = 1'b1;
    if (op_i == OpAlloc) begin
      a_legal_op = warp_ok && free && !hit && !mcb_full_o && idx_i == free_idx_o && (mask_i & wlanes) == '0;
    end else if (op_i == OpMerge) begin
      a_legal_op = hit && idx_i == hit_idx_o && (mask_i & wlanes) == '0;
    end else if (op_i == OpForce) begin
      a_legal_op = warp_ok;
    end
    if (fill_i && (32'(fill_idx_i) >= ENTRIES || (fill_mask_i & ~a_fill_wait) != '0)) begin
      a_legal_op = 1'b0;
    end
    a_broken_d = a_broken_q || !a_legal_op;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_broken_q <= 1'b0;
    end else begin
      a_broken_q <= a_broken_d;
    end
  end

  // Block invariants.
  // A thread is waiting or ready in an entry, never both (002 §3.2's FSM).
  `WS_ASSERT(wait_rdy_disjoint, !a_both)
  // A freed entry is cleared whole (§4.1 step 5): no PC without threads.
  `WS_ASSERT(invalid_entry_zero, !a_stale)
  // nvalid_o counts the valid entries; the counts fit the table and the warp.
  `WS_ASSERT(nvalid_counts_valid, nvalid == a_nvalid && 32'(nvalid) <= ENTRIES)
  `WS_ASSERT(wcount_within_m, 32'(wcount) <= M)
  // The search names an entry of warp warp_i: valid at pc_i, or invalid.
  `WS_ASSERT(hit_in_warp, !hit || (warp_ok && 32'(hit_idx_o) / M == 32'(warp_i) &&
                                   valid[hit_idx_o] && pc_q[hit_idx_o*PC_W +: PC_W] == pc_i))
  `WS_ASSERT(free_in_warp, !free || (32'(free_idx_o) / M == 32'(warp_i) && !valid[free_idx_o]))
  `WS_ASSERT(full_warp_not_free, free || !warp_ok || wcount == WC_W'(M))
  // The hit's lanes are lanes of the warp.
  `WS_ASSERT(hit_lanes_in_warp, ((hit_rdy | hit_wait) & ~wlanes) == '0)

  // Protocol invariants (002 §4.1, Table 1).
  // One entry per divergent instruction of a warp: a second miss at the
  // same PC merges (step 3).
  `WS_ASSERT(one_entry_per_pc, a_broken_q || !a_dup_pc)
  // A masked-off thread waits on one memory operation.
  `WS_ASSERT(lanes_in_one_entry, a_broken_q || !a_overlap)
  // Every valid entry holds an MCB entry: never more than MCB of them.
  `WS_ASSERT(mcb_within_size, a_broken_q || 32'(nvalid) <= MCB)
`endif

endmodule
