# ---------------------------------------------------------------- the two builds of the C model
# build/wpusim holds the C model built for 64-bit and for 256-bit lane masks
# (cmodel/mask.h) and runs the narrowest that holds the configuration
# (--core auto). Both must compute the same machine: statistics (the whole
# JSON), results and instruction trace, byte for byte, across mechanisms.
group cores
mkdir -p "$T/cores"
while read -r k p pol extra; do
  rm -f "$T"/cores/*
  for c in 64 256; do
    run "core-$k-$p-$pol-$c" 300 "$SIM" --core $c --config "$p" --policy "$pol" $extra --stats json \
        --stats-out "$T/cores/$c.json" --dump "$T/cores/$c.dump" --trace "$T/cores/$c.trace" "$B/kernels/$k.elf"
    echo "$RC" >"$T/cores/$c.rc"
  done
  if cmp -s "$T/cores/64.json" "$T/cores/256.json" && cmp -s "$T/cores/64.dump" "$T/cores/256.dump" \
     && cmp -s "$T/cores/64.trace" "$T/cores/256.trace" && [ "$(cat "$T/cores/64.rc")" = 0 ] \
     && [ "$(cat "$T/cores/256.rc")" = 0 ] && [ -s "$T/cores/64.trace" ]; then ok
  else bad "$k $p $pol $extra: the 64- and 256-lane builds differ (exit $(cat "$T/cores/64.rc") / $(cat "$T/cores/256.rc")): $(diff "$T/cores/64.json" "$T/cores/256.json" | head -c 300)"; fi
done <<CASES
kmeans dws DWS.ReviveSplit --check
short dws DWS.LazySplit.BL
merge maws-coherent MAWS.LatSpec --check
filter maws-bulksync MAWS.Aggress
hotspot maws-bulksync Slip.BranchBypass
bfs dom DoM.Block --check
histogram dom-l2 DoM.NoLimit
fft lwm 2Lev.Timeout
mandel dws Conv --set width=64
nqueens maws-coherent Conv --set width=64 --set warps=2
CASES
# auto: the narrowest build that holds the configuration (the last progress line names it)
while read -r want p pol; do
  run "core-auto-$p-$pol" 120 "$SIM" --progress --quiet --config "$p" --policy "$pol" "$B/kernels/merge.elf"
  if [ $RC -eq 0 ] && grep -q "the $want-lane C model)$" "$ERR"; then ok
  else bad "--config $p --policy $pol: want the $want-lane build; got exit $RC: $(tail -n 1 "$ERR")"; fi
done <<CASES
64 dws DWS.ReviveSplit
64 dom DoM.Block
256 dom DoM.Adaptive
256 lwm LWM
64 lwm 2Lev
CASES
# --core 64 with a configuration it cannot hold, or no such build: a clear error
run core-64-lwm 30 "$SIM" --core 64 --config lwm --policy LWM "$B/kernels/merge.elf"
if [ $RC -eq 2 ] && grep -qx "wpusim: lwm: large warps of 256 threads; this build of the C model holds lane masks of 64 bits: run the 256-lane build (wpusim --core 256, or auto)" "$ERR"; then ok
else bad "--core 64 with LWM: want exit 2 naming the large warps and --core 256; got $RC: $(head -c 300 "$ERR")"; fi
run core-64-asc 30 "$SIM" --core 64 --config dom --policy DoM.Adaptive "$B/kernels/merge.elf"
if [ $RC -eq 2 ] && grep -q "holds lane masks of 64 bits; the configuration needs 256 (warps of 32 threads with 8-bit slip counters): run the 256-lane build" "$ERR"; then ok
else bad "--core 64 with DoM.Adaptive at 32 lanes: want exit 2 naming the 256 bits; got $RC: $(head -c 300 "$ERR")"; fi
run core-bad 30 "$SIM" --core 128 "$B/kernels/merge.elf"
if [ $RC -eq 2 ] && grep -qx "wpusim: --core: '128' is not one of: auto, 64, 256" "$ERR"; then ok
else bad "--core 128: want exit 2 naming the choices; got $RC: $(head -c 300 "$ERR")"; fi
