# ---------------------------------------------------------------- RTL
# Lint, synthesis and the Verilator testbenches against the C blocks
# (tests/rtl.sh: one group per flow step, rtl-tools ... rtl-prt).
. tests/rtl.sh
