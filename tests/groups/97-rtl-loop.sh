# ---------------------------------------------------------------- RTL in the loop
# build/wpusim-rtl: whole kernels with blocks as their Verilated RTL, replace
# and lockstep (tests/rtl.sh, rtl_loop_group; docs/rtl.md).
# cost: 200
. tests/rtl.sh
rtl_loop_group
