// Partitioned register table (PRT): one per vector core, before the vector
// instruction buffer (003 §IV-B, Fig. 3).
//
// The partitions multiplexed on the core each use REGS vector registers, so
// the PHYS-register file is divided into PHYS / REGS blocks; a running
// partition holds one (its slot's base). Renaming register r of slot p is
// base[p] + r: streams of different partitions never touch the same
// physical register, so they can share one instruction buffer.
//
// Per clock: up to PORTS register operands are renamed (ren_*), one
// partition can be launched (alloc_i: slot alloc_part_i takes the lowest
// free block, alloc_base_o, and vector length alloc_vl_i) and one can end
// (free_i: slot free_part_i and its block free).
//
// Ports, widths and rules are the contract in docs/blocks/prt.md; the ports
// are the port table cmodel/blocks/prt.def (scripts/blockports.py check-rtl
// prt). The golden reference is the C block cmodel/blocks/prt.c, which
// tb/prt_tb.cpp runs side by side with this module every clock.
//
// Timing. Every output is combinational from the registered slots and the
// early inputs (ren_*, alloc_part_i). The late inputs (alloc_i, alloc_vl_i,
// free_i, free_part_i) only take effect at the rising edge.
//
// State (PARTS x (1 + PHYS_W + VL_W) flip-flops): each slot's valid bit,
// base register and vector length. Which blocks are in use is derived from
// the slots (a block is used when a valid slot's base is its first register).
`default_nettype none

`include "ws_assert.svh"

module ws_prt #(
  parameter int PARTS = 4,   // partition slots t, 1..32
  parameter int REGS  = 16,  // vector registers a partition uses, 1..64
  parameter int PHYS  = 64,  // physical vector registers, REGS..2048
  parameter int VL_W  = 9,   // bits of a vector length
  parameter int PORTS = 8,   // register operands renamed per clock, 1..32
  localparam int PART_W = (PARTS > 2) ? $clog2(PARTS) : 1,
  localparam int REG_W  = (REGS > 2) ? $clog2(REGS) : 1,
  localparam int PHYS_W = (PHYS > 2) ? $clog2(PHYS) : 1,
  localparam int BLOCKS = PHYS / REGS
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,

  // Early inputs from the instruction streams (renames) and the launcher
  input  logic [PORTS-1:0]          ren_v_i,
  input  logic [PORTS*PART_W-1:0]   ren_part_i,
  input  logic [PORTS*REG_W-1:0]    ren_reg_i,
  input  logic [PART_W-1:0]         alloc_part_i,

  // Late inputs: a partition launched, a partition ended
  input  logic                      alloc_i,
  input  logic [VL_W-1:0]           alloc_vl_i,
  input  logic                      free_i,
  input  logic [PART_W-1:0]         free_part_i,

  // To the vector instruction buffer and the launcher
  output logic [PORTS-1:0]          ren_ok_o,
  output logic [PORTS*PHYS_W-1:0]   ren_phys_o,
  output logic                      alloc_ok_o,
  output logic [PHYS_W-1:0]         alloc_base_o,

  // Registered read ports (slot p's fields at [p*W +: W])
  output logic [PARTS-1:0]          ent_valid_o,
  output logic [PARTS*PHYS_W-1:0]   ent_base_o,
  output logic [PARTS*VL_W-1:0]     ent_vl_o
);

  ////////////////////////////////////////////////////////////////////////////
  // State
  ////////////////////////////////////////////////////////////////////////////

  logic [PARTS-1:0]        valid_q, valid_d;
  logic [PARTS*PHYS_W-1:0] base_q, base_d;
  logic [PARTS*VL_W-1:0]   vl_q, vl_d;

  ////////////////////////////////////////////////////////////////////////////
  // Renaming: base of the port's slot + its register
  ////////////////////////////////////////////////////////////////////////////

  always_comb begin : rename
    logic [PART_W-1:0] part;
    logic [REG_W-1:0]  reg_idx;
    logic              hit;
    logic [PHYS_W-1:0] base;
    ren_ok_o   = '0;
    ren_phys_o = '0;
    for (int p = 0; p < PORTS; p++) begin
      part    = ren_part_i[p*PART_W +: PART_W];
      reg_idx = ren_reg_i[p*REG_W +: REG_W];
      hit     = 1'b0;
      base    = '0;
      for (int s = 0; s < PARTS; s++) begin
        if (part == PART_W'(s)) begin
          hit  = valid_q[s];
          base = base_q[s*PHYS_W +: PHYS_W];
        end
      end
      if (ren_v_i[p] && hit && 32'(reg_idx) < REGS) begin
        ren_ok_o[p]                      = 1'b1;
        ren_phys_o[p*PHYS_W +: PHYS_W]   = base + PHYS_W'(reg_idx);
      end
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // The lowest free block, and whether alloc_part_i may take it
  ////////////////////////////////////////////////////////////////////////////

  logic [BLOCKS-1:0] used;
  logic              blk_found;

  always_comb begin : free_search
    logic slot_free;
    used = '0;
    for (int b = 0; b < BLOCKS; b++) begin
      for (int s = 0; s < PARTS; s++) begin
        if (valid_q[s] && 32'(base_q[s*PHYS_W +: PHYS_W]) == b * REGS) used[b] = 1'b1;
      end
    end
    blk_found    = 1'b0;
    alloc_base_o = '0;
    for (int b = 0; b < BLOCKS; b++) begin
      if (!used[b] && !blk_found) begin
        blk_found    = 1'b1;
        alloc_base_o = PHYS_W'(b * REGS);
      end
    end
    slot_free = 1'b0;
    for (int s = 0; s < PARTS; s++) begin
      if (alloc_part_i == PART_W'(s)) slot_free = !valid_q[s];
    end
    alloc_ok_o = slot_free && blk_found;
  end

  ////////////////////////////////////////////////////////////////////////////
  // Next state: the end frees its slot, then the launch takes its block
  ////////////////////////////////////////////////////////////////////////////

  always_comb begin : next_state
    valid_d = valid_q;
    base_d  = base_q;
    vl_d    = vl_q;
    for (int s = 0; s < PARTS; s++) begin
      if (free_i && free_part_i == PART_W'(s)) begin
        valid_d[s]                  = 1'b0;
        base_d[s*PHYS_W +: PHYS_W]  = '0;
        vl_d[s*VL_W +: VL_W]        = '0;
      end
      if (alloc_i && alloc_ok_o && alloc_part_i == PART_W'(s)) begin
        valid_d[s]                  = 1'b1;
        base_d[s*PHYS_W +: PHYS_W]  = alloc_base_o;
        vl_d[s*VL_W +: VL_W]        = alloc_vl_i;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      base_q  <= '0;
      vl_q    <= '0;
    end else begin
      valid_q <= valid_d;
      base_q  <= base_d;
      vl_q    <= vl_d;
    end
  end

  assign ent_valid_o = valid_q;
  assign ent_base_o  = base_q;
  assign ent_vl_o    = vl_q;

  ////////////////////////////////////////////////////////////////////////////
  // Assertions: 003's claim restated — the running partitions' register
  // blocks never overlap, so no two streams' renamed registers conflict.
  ////////////////////////////////////////////////////////////////////////////

`ifndef SYNTHESIS
  logic a_disjoint;     // no two valid slots share a block
  logic a_in_file;      // every valid block lies inside the file
  logic a_aligned;      // every valid base is a block's first register
  logic a_rename_own;   // a renamed register lies in its own slot's block
  logic a_lowest;       // alloc_base_o is the lowest free block

  always_comb begin : assert_helpers
    logic [PART_W-1:0] part;
    logic [PHYS_W-1:0] phys;
    a_disjoint = 1'b1;
    a_in_file  = 1'b1;
    a_aligned  = 1'b1;
    for (int s = 0; s < PARTS; s++) begin
      if (valid_q[s]) begin
        if (32'(base_q[s*PHYS_W +: PHYS_W]) + REGS > PHYS) a_in_file = 1'b0;
        if (32'(base_q[s*PHYS_W +: PHYS_W]) % REGS != 0) a_aligned = 1'b0;
        for (int o = s + 1; o < PARTS; o++) begin
          if (valid_q[o] && base_q[o*PHYS_W +: PHYS_W] == base_q[s*PHYS_W +: PHYS_W]) a_disjoint = 1'b0;
        end
      end
    end
    a_rename_own = 1'b1;
    for (int p = 0; p < PORTS; p++) begin
      part = ren_part_i[p*PART_W +: PART_W];
      phys = ren_phys_o[p*PHYS_W +: PHYS_W];
      for (int s = 0; s < PARTS; s++) begin
        if (ren_ok_o[p] && part == PART_W'(s) &&
            (phys < base_q[s*PHYS_W +: PHYS_W] || 32'(phys) >= 32'(base_q[s*PHYS_W +: PHYS_W]) + REGS)) begin
          a_rename_own = 1'b0;
        end
      end
    end
    a_lowest = 1'b1;
    for (int b = 0; b < BLOCKS; b++) begin
      if (!used[b] && 32'(alloc_base_o) > b * REGS) a_lowest = 1'b0;
    end
  end

  `WS_ASSERT(blocks_disjoint, a_disjoint)
  `WS_ASSERT(blocks_in_file, a_in_file)
  `WS_ASSERT(blocks_aligned, a_aligned)
  `WS_ASSERT(rename_in_own_block, a_rename_own)
  `WS_ASSERT(alloc_lowest_free, !blk_found || a_lowest)
  `WS_ASSERT(alloc_needs_free_slot, !alloc_ok_o || blk_found)
`endif

endmodule
