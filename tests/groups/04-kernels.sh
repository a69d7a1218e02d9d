# ---------------------------------------------------------------- kernels vs host
# Each kernel's results equal its host build's (same C source), for several
# thread counts, SIMD widths and warp counts; thread-instruction counts do
# not depend on the width.
group kernels
KERNELS=$(for e in "$B"/kernels/*.elf; do n=$(basename "$e" .elf); [ -x "$B/host/$n" ] && echo "$n"; done)
[ "$(echo $KERNELS | wc -w)" -ge 3 ] || bad "fewer than 3 kernels with host builds: '$KERNELS'"
THREADS="256 100"
[ "$LONG" = 1 ] && THREADS="256 100 1000 4096"
for k in $KERNELS; do
  for n in $THREADS; do
    run "host-$k-$n" 120 "$B/host/$k" --threads "$n" --seed 7 --dump "$T/$k-$n.host"
    if [ $RC -ne 0 ]; then bad "$k host run threads=$n exit $RC"; continue; fi
    insts=""
    for w in 1 8 16 32 64; do
      wpus=4
      warps=$(( (n + wpus * w - 1) / (wpus * w) ))   # enough contexts for barriers
      run "sim-$k-$n-$w" 300 "$SIM" --stats json --threads "$n" --seed 7 --set width=$w \
          --set wpus=$wpus --set warps=$warps --dump "$T/$k-$n-$w.sim" "$B/kernels/$k.elf"
      ti=$(json_total "$OUT" thread_insts)
      if [ $RC -ne 0 ]; then bad "$k threads=$n width=$w: exit $RC: $(head -c 400 "$ERR")"; continue; fi
      if ! cmp -s "$T/$k-$n.host" "$T/$k-$n-$w.sim"; then bad "$k threads=$n width=$w: results differ from host"; continue; fi
      if [ -z "$insts" ]; then insts=$ti
      elif [ "$ti" != "$insts" ]; then bad "$k threads=$n width=$w: $ti thread instructions, $insts at width 1"; continue; fi
      ok
    done
  done
done
# More warps than hardware slots: warps wait for a free slot (kernels without barriers).
for k in collatz nqueens interp; do
  [ -f "$B/kernels/$k.elf" ] || continue
  run "host-$k-pend" 120 "$B/host/$k" --threads 300 --seed 3 --dump "$T/$k-pend.host"
  run "sim-$k-pend" 300 "$SIM" --quiet --threads 300 --seed 3 --set width=8 --set wpus=2 --set warps=2 \
      --dump "$T/$k-pend.sim" "$B/kernels/$k.elf"
  if [ $RC -eq 0 ] && cmp -s "$T/$k-pend.host" "$T/$k-pend.sim"; then ok
  else bad "$k with 300 threads on 32 contexts: exit $RC, results $(cmp "$T/$k-pend.host" "$T/$k-pend.sim" 2>&1)"; fi
done
