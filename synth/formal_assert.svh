// The named assertions of rtl/ws_assert.svh as Yosys's formal flow reads
// them (synth/formal.ys, `make formal`): read before the block, this file
// takes ws_assert.svh's place (its include guard is defined here), and each
// `WS_ASSERT(name, cond) becomes an immediate assertion that the SAT solver
// proves, sampled at the rising edge of clk_i while rst_ni is high — the
// same clocks the simulators check. (Yosys 0.23 does not take the
// `else $error(...)` of the simulation form.)
`define WS_ASSERT_SVH
`define WS_ASSERT(name, cond) \
  always @(posedge clk_i) begin : name \
    if (rst_ni) begin \
      assert (cond); \
    end \
  end
