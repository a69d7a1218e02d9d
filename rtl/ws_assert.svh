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
// compile to nothing, so they add no logic to the area reports. Read with
// `read_verilog -formal` (which defines FORMAL instead of SYNTHESIS), they
// are Yosys assertions for a bounded or inductive proof (make formal).
//
// The macro needs a clk_i and an rst_ni (active low) in the enclosing module:
// every block of the project has them (STYLE.md).
`ifndef WS_ASSERT_SVH
`define WS_ASSERT_SVH

`ifdef FORMAL
`define WS_ASSERT(name, cond) \
  always @(posedge clk_i) begin : name \
    if (rst_ni) begin \
      assert (cond); \
    end \
  end
`elsif SYNTHESIS
`define WS_ASSERT(name, cond)
`else
`define WS_ASSERT(name, cond) \
  always @(posedge clk_i) begin : name \
    if (rst_ni) begin \
      assert (cond) else $error("invariant violated"); \
    end \
  end
`endif

`endif
