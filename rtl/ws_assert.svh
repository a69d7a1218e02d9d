// Named assertions, mapped per tool. Every RTL block includes this header and
// states its invariants at its bottom as
//
//   `WS_ASSERT(name, condition)
//
// Under Verilator (and other simulators) each becomes an assertion sampled at
// the rising edge of clk_i while rst_ni is high: the values of the clock
// before the edge, so combinational settling never trips it. A failure prints
// the assertion's name and the instance path through $error; the testbenches
// stop at the first one. Under Yosys, which defines SYNTHESIS, assertions
// compile to nothing, so they add no logic to the area reports; under
// Yosys with -formal (FORMAL defined: make formal) each is an immediate
// assertion that `sat -prove-asserts` proves.
//
// The macro needs a clk_i and an rst_ni (active low) in the enclosing module:
// every block of the project has them (STYLE.md).
`ifndef WS_ASSERT_SVH
`define WS_ASSERT_SVH

`ifdef FORMAL
// Yosys read_verilog -formal (make formal): an immediate assertion on the
// clock's settled values, checked while rst_ni is high.
`define WS_ASSERT(name, cond) \
  always @* begin : name \
    if (rst_ni) assert (cond); \
  end
`define WS_ASSUME(name, cond) \
  always @* begin : name \
    if (rst_ni) assume (cond); \
  end
`elsif SYNTHESIS
`define WS_ASSERT(name, cond)
`define WS_ASSUME(name, cond)
`else
// An input assumption (what the pipeline never drives): asserted in
// simulation, assumed by the formal proof.
`define WS_ASSUME(name, cond) `WS_ASSERT(name, cond)
`define WS_ASSERT(name, cond) \
  always @(posedge clk_i) begin : name \
    if (rst_ni) begin \
      assert (cond) else $error("invariant violated"); \
    end \
  end
`endif

`endif
