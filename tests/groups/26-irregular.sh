# ---------------------------------------------------------------- irregular
# The grid's metadata registers and the shuffles, segmented to each warp of a
# packed partition, against the host build (kernels/selftest/rt_grid.c: one
# record per thread, so any packing, order or machine must give the host's
# bytes); 003 §IV-B's packing recomputed from the measured instruction
# counts (tests/irregular/pack_check.py); every bad grid or input an error.
group irregular
RTG=$B/kernels/selftest/rt_grid.elf RTGH=$B/host/selftest/rt_grid
irr_same() { # irr_same NAME HOSTARGS -- SIMARGS: the simulator's dump equals the host's
  local name=$1; shift
  local h=() a
  while [ $# -gt 0 ] && [ "$1" != -- ]; do h+=("$1"); shift; done
  shift
  run "irr-h-$name" 60 "$RTGH" --quiet "${h[@]}" --dump "$T/irr-$name.host"
  if [ $RC -ne 0 ]; then bad "rt_grid $name: host run exit $RC: $(head -c 300 "$ERR")"; return; fi
  run "irr-s-$name" 120 "$SIM" --stats json "$@" --dump "$T/irr-$name.sim" "$RTG"
  if [ $RC -eq 0 ] && cmp -s "$T/irr-$name.host" "$T/irr-$name.sim"; then ok
  else bad "rt_grid $name ($*): exit $RC, dump $(cmp "$T/irr-$name.host" "$T/irr-$name.sim" 2>&1) $(head -c 300 "$ERR")"; fi
}
# the fixed grid: wid = tid / width, a warp's shuffles within its lanes
for w in 1 8 16 32 64; do
  irr_same "fixed-$w" --threads 100 --width $w -- --threads 100 --set width=$w
done
# an irregular grid (19 warps of 1..16), one warp a partition, packed at
# several thresholds, in a shuffled order, and with partitions waiting for slots
L1="4,11,3,2,8,3,16,1,1,7,9,12,5,5,5,5,2,16,13"
irr_same list-none --width 16 --warp-sizes $L1 -- --set width=16 --warp-sizes $L1
cp "$OUT" "$T/irr-none.json"
for t in 0 8 1000; do
  irr_same "list-pack$t" --width 16 --warp-sizes $L1 -- --set width=16 --warp-sizes $L1 --pack $t
  run "irr-packcheck-$t" 30 python3 tests/irregular/pack_check.py "$T/irr-s-list-pack$t.out" $L1 $t 16
  if [ $RC -eq 0 ]; then ok; else bad "packing at threshold $t: $(cat "$OUT" "$ERR")"; fi
done
irr_same list-order --width 16 --warp-sizes $L1 -- --set width=16 --warp-sizes $L1 --pack 8 --set grid_order_seed=7
irr_same list-slots --width 16 --warp-sizes $L1 -- --set width=16 --warp-sizes $L1 --pack 1000 --set wpus=1 --set warps=2
printf '# a warp-size file: commas, blanks, newlines, comments\n200, 256 1\n77 # the fourth\n\n13\n' >"$T/sizes.txt"
irr_same list-256 --width 256 --warp-sizes "$T/sizes.txt" -- --set width=256 --set wpus=1 --set warps=2 \
    --set stack_color=0 --warp-sizes "$T/sizes.txt" --pack 1000
# one warp a partition: m partitions of the warps' own lengths; packing keeps
# every thread's instruction count (instret_hash) and shrinks the SIMD count
want="19 19 128"
got="$(sed -n 's/.*"grid": {"warps": \([0-9]*\), "threads": [0-9]*, "partitions": \([0-9]*\), "packed_lanes": \([0-9]*\).*/\1 \2 \3/p' "$T/irr-none.json")"
if [ "$got" = "$want" ]; then ok; else bad "pack none: grid warps/partitions/lanes '$got', expected '$want'"; fi
h0=$(grep -m1 instret_hash "$T/irr-none.json") w0=$(json_total "$T/irr-none.json" warp_insts)
w1=$(json_total "$T/irr-s-list-pack1000.out" warp_insts)
if [ "$h0" = "$(grep -m1 instret_hash "$T/irr-s-list-pack1000.out")" ] && [ -n "$w1" ] && [ "$w1" -lt "$w0" ]; then ok
else bad "packing must keep every thread's instruction count and issue fewer SIMD instructions: $h0 / $w0, packed $w1"; fi
# large warps run a warp's instruction at once: shuffles work (warps of 256)
irr_same lwm --threads 600 --width 256 -- --config lwm --policy LWM --threads 600
irr_same 2lev --threads 100 --width 16 -- --policy 2Lev --threads 100
# refused where a warp's threads run apart
for pol in DWS.ReviveSplit DoM.Adaptive; do
  cfg=(); [ $pol = DoM.Adaptive ] && cfg=(--config dom)
  run "irr-refuse-$pol" 30 "$SIM" --quiet "${cfg[@]}" --policy $pol "$RTG"
  if [ $RC -eq 2 ] && grep -q "the kernel uses warp shuffles (wsim.shfl.idx at 0x[0-9a-f]*), which need a warp's threads together; .* is not modelled: run it with dws = off and dom = off" "$ERR"; then ok
  else bad "shuffles under $pol: want exit 2 and the refusal; got $RC: $(head -c 300 "$ERR")"; fi
done
# bad grids and inputs: exit 2, one line naming the problem
irr_usage() { # NAME MESSAGE(regex) ARGS...
  local name=$1 msg=$2; shift 2
  run "irr-usage-$name" 30 "$SIM" "$@"
  if [ $RC -eq 2 ] && grep -Eq -- "$msg" "$ERR" && [ "$(wc -l <"$ERR")" -eq 1 ]; then ok
  else bad "$name: want exit 2 and '$msg'; got $RC: $(cat "$ERR")"; fi
}
printf '3\n4\nfive\n' >"$T/bad-sizes.txt"
: >"$T/empty-sizes.txt"
awk 'BEGIN { for (i = 0; i < 65600; i++) print 256 }' >"$T/huge-sizes.txt"
irr_usage ws-empty "^wpusim: --warp-sizes ,: no warp sizes in the list; give sizes 1 \.\. 16 separated by commas, blanks or newlines" --warp-sizes , "$RTG"
irr_usage ws-empty-file "^wpusim: --warp-sizes $T/empty-sizes.txt: no warp sizes in the file" --warp-sizes "$T/empty-sizes.txt" "$RTG"
irr_usage ws-zero "^wpusim: --warp-sizes 4,0,3: warp 1 has 0 threads; a warp has 1 \.\. 16 threads$" --warp-sizes 4,0,3 "$RTG"
irr_usage ws-negative "^wpusim: --warp-sizes 4,-3: warp 1: '-3' is negative; a warp has 1 \.\. 16 threads$" --warp-sizes 4,-3 "$RTG"
irr_usage ws-text "^wpusim: --warp-sizes $T/bad-sizes.txt, line 3: warp 2: 'five' is not a warp size \(a whole number 1 \.\. 16; a file of sizes" --warp-sizes "$T/bad-sizes.txt" "$RTG"
irr_usage ws-large "^wpusim: --warp-sizes 4,17: warp 1 has 17 threads; this machine's warps hold at most 16 \(warp_size\)" --warp-sizes 4,17 "$RTG"
irr_usage ws-huge-number "^wpusim: --warp-sizes 99999999999999999999999: warp 0 has 99999999999999999999999 threads; this machine's warps hold at most 16" --warp-sizes 99999999999999999999999 "$RTG"
irr_usage ws-no-file "^wpusim: --warp-sizes $T/none/sizes: cannot read: No such file or directory$" --warp-sizes "$T/none/sizes" "$RTG"
irr_usage ws-too-many "^wpusim: the grid's 65600 warps hold 16793600 threads; the machine runs at most 16777216$" --set width=256 --set stack_color=0 --warp-sizes "$T/huge-sizes.txt" "$RTG"
irr_usage ws-stacks "^wpusim: the grid's 65536 threads x stack_size 65536 bytes do not fit below stack_top 0xc0000000; lower stack_size" --set width=256 --set stack_color=0 --set stack_size=65536 --warp-sizes "$(printf '256,%.0s' $(seq 256))" "$RTG"
irr_usage ws-threads "^wpusim: --threads: the irregular grid sets the threads \(9\); drop --threads or --set threads$" --threads 64 --warp-sizes 4,5 "$RTG"
irr_usage pack-fixed "^wpusim: pack = threshold packs the warps of an irregular grid; this run has the fixed grid" --pack 4 "$RTG"
irr_usage pack-value "^wpusim: --pack: 'loose' is neither none nor a threshold 0 \.\. 1000000000 \(instructions\)$" --pack loose "$RTG"
irr_usage input-form "^wpusim: --input matrix: expected NAME=FILE" --input matrix "$RTG"
irr_usage input-none "^wpusim: --input matrix=$T/sizes.txt: .*rt_grid.elf declares no input named 'matrix' \(it declares no inputs: WSIM_INPUT\)$" --input matrix="$T/sizes.txt" "$RTG"
