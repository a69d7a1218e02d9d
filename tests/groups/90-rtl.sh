# ---------------------------------------------------------------- RTL
# Lint, synthesis and the Verilator testbenches against the C blocks
# (tests/rtl.sh: a group per flow step, rtl-tools ... rtl-wave; a group per
# block, rtl-wst ... rtl-prt, from its rows in tests/groups/rtl-*.tsv; rtl-loop).
. tests/rtl.sh
