# ---------------------------------------------------------------- RTL: colpick
# The colpick block's testbenches against its C block (tests/rtl.sh, rtl_block_group;
# its rows in tests/groups/rtl-*.tsv): every set's random run, the waveform,
# replays, hand-worked tests, recorded kernels, synthesis, netlists, proofs.
# cost: 150
. tests/rtl.sh
rtl_block_group colpick
