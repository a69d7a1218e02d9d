# ---------------------------------------------------------------- vector
# 003's vector core (core = vector, preset vector): SpMV's results equal the
# host build's at every t and packing; the scheduler's counters hold their
# arithmetic: busy unit-cycles never exceed units x cycles, one partition
# never issues twice in a cycle, and at t = 16 the load port (the kind the
# kernel saturates under 003's vl-cycle rule) is >= 80% busy, and the cycles
# are >= its busy cycles (the first-principles bound: it cannot be beaten).
# needs: spmv (spmv_same, $SPMV, $T/myc8.bin and $T/rnd.bin)
group vector
for t in 1 4 16; do
  for p in none 8; do
    spmv_same myc8 256 --config vector --set warps=$t --pack $p
    cp "$OUT" "$T/vec-$t-$p.json"
  done
done
spmv_same rnd 256 --config vector --set warps=4 --pack 1000 --set grid_order_seed=3
vec_check() { # FILE T: the arithmetic of the counters
  local f=$1 t=$2 cyc ld any multi
  cyc=$(sed -n 's/^  "cycles": \([0-9]*\),/\1/p' "$f")
  ld=$(json_total "$f" vec_busy_ld) any=$(json_total "$f" vec_busy_any) multi=$(json_total "$f" vec_multi_issue)
  python3 - "$cyc" "$ld" "$any" "$multi" "$t" <<'PY'
import sys
cyc, ld, any_, multi, t = (int(x) for x in sys.argv[1:])
assert ld <= cyc and any_ <= cyc, "busy cycles exceed the cycles"
assert t > 1 or multi == 0, "one partition issued twice in a cycle"
assert t < 16 or ld >= 0.8 * cyc, "load port %.3f busy at t = 16 (bound: 1.0)" % (ld / cyc)
PY
}
for t in 1 4 16; do
  if vec_check "$T/vec-$t-none.json" $t 2>"$T/vec-check.err"; then ok
  else bad "vector core counters at t=$t: $(tail -n 2 "$T/vec-check.err")"; fi
done
c1=$(sed -n 's/^  "cycles": \([0-9]*\),/\1/p' "$T/vec-1-none.json") c4=$(sed -n 's/^  "cycles": \([0-9]*\),/\1/p' "$T/vec-4-none.json")
c16=$(sed -n 's/^  "cycles": \([0-9]*\),/\1/p' "$T/vec-16-none.json")
if [ -n "$c1" ] && [ "$c4" -lt "$c1" ] && [ "$c16" -le "$c4" ]; then ok
else bad "more partitions must not take more cycles on SpMV: t=1 $c1, 4 $c4, 16 $c16"; fi
run vec-refuse 30 "$SIM" --quiet --config vector --policy DWS.ReviveSplit "$B/kernels/mandel.elf"
if [ $RC -eq 2 ] && grep -q "^wpusim: core: 003's vector core with dynamic warp subdivision (dws = on) is not modelled" "$ERR"; then ok
else bad "vector core with DWS: want exit 2; got $RC: $(cat "$ERR")"; fi
# the fixed grid runs on it too (every kernel's results and instruction counts as the WPU's)
for k in mandel bitonic merge; do
  run "vec-fixed-$k" 300 "$SIM" --stats json --config vector --set reconv=stack --threads 512 --dump "$T/vf-$k.bin" "$B/kernels/$k.elf"
  cp "$OUT" "$T/vf-$k.json"
  run "vec-fixed-simt-$k" 300 "$SIM" --stats json --config vector --set core=simt --set reconv=stack --threads 512 --dump "$T/vs-$k.bin" "$B/kernels/$k.elf"
  if [ $RC -eq 0 ] && cmp -s "$T/vf-$k.bin" "$T/vs-$k.bin" && [ "$(grep -m1 instret_hash "$OUT")" = "$(grep -m1 instret_hash "$T/vf-$k.json")" ]; then ok
  else bad "$k on the vector core differs from the SIMT core: exit $RC $(head -c 300 "$ERR")"; fi
done
