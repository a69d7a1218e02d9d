# ---------------------------------------------------------------- RTL
# The RTL flow (tests/rtl.sh; docs/rtl.md): the tools, lint of every block
# and set (verilator -Wall, yosys), the port tables against the Verilog's
# ports. Each block's own tests are its group, rtl-BLOCK (91..96), and RTL in
# the loop is rtl-loop (97): `make test GROUPS=rtl` selects them all.
# cost: 40
. tests/rtl.sh
rtl_flow_groups
