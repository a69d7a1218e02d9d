// Named assertions, mapped per tool. Every RTL block includes this header and
// states its invariants at its bottom as
//
//   `WS_ASSERT(name, condition)
//   `WS_ASSUME(name, condition)   (an input the pipeline never drives)
//
// Under Verilator (and other simulators) each becomes an assertion sampled at
// the rising edge of clk_i while rst_ni is high: the values of the clock
// before the edge, so combinational settling never trips it. A failure prints
// the assertion's name and the instance path through $error; the testbenches
// stop at the first one. A WS_ASSUME is checked the same way in simulation.
//
// Under Yosys, which defines SYNTHESIS, both compile to nothing, so they add
// no logic to the area reports. Read with `read_verilog -formal` (make formal,
// synth/formal.sh), which defines FORMAL, each WS_ASSERT is a wire of the
// assertion's name (what a counterexample shows) and an immediate assertion
// of it on the clock's settled values while rst_ni is high, which
// `sat -prove-asserts` proves; a WS_ASSUME is an assumption
// (`sat -set-assumes`). Same clocks, same values as the simulation form.
//
// The macro needs a clk_i and an rst_ni (active low) in the enclosing module:
// every block of the project has them (STYLE.md).
`ifndef WS_ASSERT_SVH
`define WS_ASSERT_SVH

`ifdef FORMAL
`define WS_ASSERT(name, cond) \
  wire name; \
  assign name = (cond); \
  always @* begin \
    if (rst_ni) begin \
      assert (name); \
    end \
  end
`define WS_ASSUME(name, cond) \
  always @* begin : name \
    if (rst_ni) begin \
      assume (cond); \
    end \
  end
`elsif SYNTHESIS
`define WS_ASSERT(name, cond)
`define WS_ASSUME(name, cond)
`else
`define WS_ASSERT(name, cond) \
  always @(posedge clk_i) begin : name \
    if (rst_ni) begin \
      assert (cond) else $error("invariant violated"); \
    end \
  end
`define WS_ASSUME(name, cond) `WS_ASSERT(name, cond)
`endif

`endif
