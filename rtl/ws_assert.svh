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
// compile to nothing, so they add no logic to the area reports. Under Yosys
// with -formal (make formal, synth/formal.ys), which defines FORMAL instead,
// each is a wire of the assertion's name (what a counterexample shows) and an
// immediate assertion of it on the current clock's values while rst_ni is
// high, which `sat -prove-asserts` proves (docs/rtl.md, Formal).
//
// The macro needs a clk_i and an rst_ni (active low) in the enclosing module:
// every block of the project has them (STYLE.md).
`ifndef WS_ASSERT_SVH
`define WS_ASSERT_SVH

`ifdef SYNTHESIS
`define WS_ASSERT(name, cond)
`elsif FORMAL
`define WS_ASSERT(name, cond) \
  wire name; \
  assign name = (cond); \
  always @* begin \
    if (rst_ni) begin \
      assert (name); \
    end \
  end
`else
`define WS_ASSERT(name, cond) \
  always @(posedge clk_i) begin : name \
    if (rst_ni) begin \
      assert (cond) else $error("invariant violated"); \
    end \
  end
`endif

`endif
