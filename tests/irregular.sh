# Irregular grids, warp shuffles, 003's vector core and SpMV (docs/irregular.md).
# Sourced by tests/run.sh (its helpers: group, run, ok, bad, json_total; $B, $SIM, $T).

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

# ---------------------------------------------------------------- spmv
# 003's SpMV (kernels/irregular/spmv.c: a warp per CSR row, its own grid) on
# matrices scripts/mtx.py makes: mycielskian8 (and mycielskian11 exactly: the
# construction against networkx, the shape against SuiteSparse's listing),
# lp22-synthetic, a random one; each against the host build and mtx.py's own
# float32 reference; every bad matrix or input an error that names it.
group spmv
MTX="python3 scripts/mtx.py" SPMV=$B/kernels/irregular/spmv.elf SPMVH=$B/host/irregular/spmv
spmv_mk() { # spmv_mk NAME GENERATOR ARGS...: $T/NAME.mtx and $T/NAME.bin
  local name=$1; shift
  run "spmv-gen-$name" 120 $MTX "$@"
  if [ $RC -ne 0 ]; then bad "mtx.py $*: exit $RC: $(head -c 300 "$ERR")"; return 1; fi
  run "spmv-conv-$name" 120 $MTX convert "$T/$name.mtx" "$T/$name.bin"
  if [ $RC -ne 0 ]; then bad "mtx.py convert $name: exit $RC: $(head -c 300 "$ERR")"; return 1; fi
}
spmv_same() { # spmv_same NAME WIDTH SIMARGS...: sim == host build (--width WIDTH)
  local name=$1 w=$2; shift 2
  run "spmv-host-$name-$w" 120 "$SPMVH" --quiet --width "$w" --input matrix="$T/$name.bin" --dump "$T/$name-$w.host"
  if [ $RC -ne 0 ]; then bad "spmv $name host (width $w): exit $RC: $(head -c 300 "$ERR")"; return; fi
  run "spmv-sim-$name-$w" 600 "$SIM" --stats json "$@" --input matrix="$T/$name.bin" --dump "$T/$name-$w.sim" "$SPMV"
  if [ $RC -eq 0 ] && cmp -s "$T/$name-$w.host" "$T/$name-$w.sim"; then ok
  else bad "spmv $name ($*): exit $RC, $(cmp "$T/$name-$w.host" "$T/$name-$w.sim" 2>&1) $(head -c 300 "$ERR")"; fi
}
spmv_mk myc8 mycielski 8 "$T/myc8.mtx"
spmv_mk lp22s lp22-synthetic "$T/lp22s.mtx" --seed 1
spmv_mk rnd random "$T/rnd.mtx" --rows 300 --cols 500 --nnz 6000 --max-row 90 --seed 5
for m in myc8 lp22s rnd; do spmv_same $m 16; done
spmv_same rnd 8 --set width=8 --set wpus=2
spmv_same myc8 16 --policy 2Lev
# the float32 reference of mtx.py (the kernel's order of additions): b's first nrows words
run spmv-ref 120 $MTX reference "$T/rnd.bin" "$T/rnd.ref" --width 16
if [ $RC -eq 0 ] && cmp -s -n "$(stat -c %s "$T/rnd.ref")" "$T/rnd.ref" "$T/rnd-16.sim"; then ok
else bad "spmv rnd: the simulator's b differs from mtx.py reference: exit $RC $(head -c 200 "$ERR")"; fi
# mycielskian11: 1,535 x 1,535 with 134,710 nonzeros (SuiteSparse), the construction networkx builds
run spmv-myc11 120 $MTX mycielski 11 "$T/myc11.mtx"
if [ $RC -eq 0 ] && grep -qx "1535 1535 134710" "$T/myc11.mtx"; then ok
else bad "mycielski 11: want 1535 1535 134710; got $(grep -v '^%' "$T/myc11.mtx" | head -n 1)"; fi
if python3 -c "import networkx" 2>/dev/null; then
  run spmv-myc-nx 120 python3 -c "
import sys; sys.path.insert(0, 'scripts'); import mtx, networkx as nx
for k in (4, 8, 11):
    n, ent = mtx.mycielski(k); G = nx.mycielski_graph(k)
    theirs = {(a, b) for a, b in G.edges()} | {(b, a) for a, b in G.edges()}
    assert n == G.number_of_nodes() and {(a, b) for a, b, _ in ent} == theirs, k
print('same')"
  if [ $RC -eq 0 ] && grep -qx same "$OUT"; then ok; else bad "mtx.py mycielski differs from networkx.mycielski_graph: $(cat "$ERR")"; fi
fi
if [ "$LONG" = 1 ]; then
  $MTX convert "$T/myc11.mtx" "$T/myc11.bin" && spmv_same myc11 16
fi
# bad matrices (mtx.py, exit 2 naming file and line) and bad inputs (wpusim, exit 2)
mtx_bad() { # NAME MESSAGE(regex) FILE-CONTENT
  printf "$3" >"$T/$1.mtx"
  run "spmv-bad-$1" 30 $MTX convert "$T/$1.mtx" "$T/$1.bin"
  if [ $RC -eq 2 ] && grep -Eq -- "$2" "$ERR"; then ok; else bad "mtx.py convert $1: want exit 2 and '$2'; got $RC: $(cat "$ERR")"; fi
}
mtx_bad header "$T/header.mtx:1: not a Matrix Market file" 'hello\n1 1 1\n'
mtx_bad array "$T/array.mtx:1: array \(dense\) format: SpMV needs a sparse matrix" '%%%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n'
mtx_bad truncated "$T/truncated.mtx: truncated: 2 of 3 entries" '%%%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.0\n2 2 2.0\n'
mtx_bad outside "$T/outside.mtx:4: entry \(4, 1\) is outside the 3 x 3 matrix" '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n4 1 2.0\n'
mtx_bad text "$T/text.mtx:3: entry '1 x 1.0' is not numeric" '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 x 1.0\n'
mtx_bad fields "$T/fields.mtx:3: entry '1 1' has 2 fields; a real entry has 3" '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1\n'
mtx_bad extra "$T/extra.mtx:4: more entries than the 1 the size line declares" '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1.0\n2 2 2.0\n'
mtx_bad sizes "$T/sizes.mtx:2: bad size line '3 3' \(expected: rows columns entries\)" '%%%%MatrixMarket matrix coordinate real general\n3 3\n'
mtx_bad complex "$T/complex.mtx:1: field 'complex' is not supported" '%%%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n'
spmv_usage() { # NAME MESSAGE(regex) ARGS...
  local name=$1 msg=$2; shift 2
  run "spmv-usage-$name" 30 "$SIM" "$@" "$SPMV"
  if [ $RC -eq 2 ] && grep -Eq -- "$msg" "$ERR"; then ok; else bad "spmv $name: want exit 2 and '$msg'; got $RC: $(cat "$ERR")"; fi
}
spmv_usage no-input "the kernel's grid \(WSIM_GRID_ROWS\) has no rows: give the kernel its input \(wpusim --input NAME=FILE" --quiet
spmv_usage input-name "^wpusim: --input vec=$T/rnd.bin: .*spmv.elf declares no input named 'vec'; its inputs: matrix$" --input vec="$T/rnd.bin"
printf 'WCSX\0\0\0\0' >"$T/tag.bin"
spmv_usage input-tag "^wpusim: --input matrix=$T/tag.bin: the file does not start with the region's format tag 0x52534357 \('WCSR'\)" --input matrix="$T/tag.bin"
: >"$T/empty.bin"
spmv_usage input-empty "^wpusim: --input matrix=$T/empty.bin: the file is empty$" --input matrix="$T/empty.bin"
head -c 16 "$T/rnd.bin" >"$T/big.bin" && truncate -s 9000000 "$T/big.bin"
spmv_usage input-large "^wpusim: --input matrix=$T/big.bin: the file has 9000000 bytes; the kernel's region 'matrix' holds 8388624" --input matrix="$T/big.bin"
spmv_usage input-missing "^wpusim: --input matrix=$T/none.bin: cannot read: No such file or directory$" --input matrix="$T/none.bin"
# row offsets that decrease (a corrupted file): the grid says so
python3 -c "
import struct; d = bytearray(open('$T/rnd.bin', 'rb').read()); struct.pack_into('<I', d, 16 + 4 * 5, 7)
open('$T/dec.bin', 'wb').write(d)"
spmv_usage input-offsets "the kernel's grid \(WSIM_GRID_ROWS\): row offsets decrease at row 4 \([0-9]* then 7\): the input is not a CSR matrix" --input matrix="$T/dec.bin"

# ---------------------------------------------------------------- join
# reconv = join (003 §IV-A's JOIN nodes, cmodel/join.c) against the
# post-dominator stack: every kernel, the control-flow tests, the ISA
# tests and the irregular kernels give the same results and the same
# instruction count in every thread (instret_hash), with --check holding
# every cycle (the running and waiting lanes partition the live ones).
group join
join_same() { # join_same NAME ELF ARGS... (JOIN_NODUMP=1: a program without results)
  local name=$1 elf=$2; shift 2
  local da=(--dump "$T/js-$name.bin") db=(--dump "$T/jj-$name.bin")
  [ "${JOIN_NODUMP:-0}" = 1 ] && da=() db=() && : >"$T/js-$name.bin" && : >"$T/jj-$name.bin"
  run "join-stack-$name" 300 "$SIM" --stats json "$@" "${da[@]}" "$elf"
  local ra=$RC; cp "$OUT" "$T/js-$name.json"
  run "join-join-$name" 300 "$SIM" --stats json --set reconv=join --check "$@" "${db[@]}" "$elf"
  local ha hb
  ha=$(grep -m1 instret_hash "$T/js-$name.json"); hb=$(grep -m1 instret_hash "$OUT")
  if [ $RC -eq $ra ] && [ -n "$ha" ] && [ "$ha" = "$hb" ] && cmp -s "$T/js-$name.bin" "$T/jj-$name.bin" \
     && [ "$(json_total "$OUT" thread_insts)" = "$(json_total "$T/js-$name.json" thread_insts)" ]; then ok
  else bad "reconv=join $name ($*): exit $RC (stack $ra), instret $hb vs $ha, dump $(cmp "$T/js-$name.bin" "$T/jj-$name.bin" 2>&1) $(head -c 300 "$ERR")"; fi
}
for e in "$B"/kernels/*.elf; do
  k=$(basename "$e" .elf)
  join_same "$k" "$e"
  join_same "$k-mc" "$e" --config maws-coherent --threads 100
done
for e in "$B"/kernels/selftest/rt_ids.elf "$B"/kernels/selftest/rt_barrier.elf "$B"/kernels/selftest/rt_exit.elf; do
  [ -f "$e" ] && join_same "$(basename "$e" .elf)" "$e" --threads 100
done
join_same rt_grid "$RTG" --set width=16 --warp-sizes $L1 --pack 1000
join_same spmv-lp22s "$SPMV" --input matrix="$T/lp22s.bin"
join_same spmv-rnd-pack "$SPMV" --input matrix="$T/rnd.bin" --pack 4
for e in "$B"/cfg/*.elf; do
  n=$(basename "$e" .elf)
  case $n in jump_table|endless) continue ;; esac
  JOIN_NODUMP=1 join_same "cfg-$n" "$e" --set wpus=1 --set warps=1 --set width=16
done
for e in "$B"/isa/*.elf; do
  n=$(basename "$e" .elf)
  case $n in fault_*) continue ;; esac
  # (results: none; every thread's own checks and its instruction count)
  run "join-isa-$n" 300 "$SIM" --quiet --set reconv=join --check --threads 100 --set width=16 --set wpus=2 --set warps=4 "$e"
  if [ $RC -eq 0 ]; then ok; else bad "reconv=join $n: exit $RC: $(head -c 300 "$ERR")"; fi
done
# JOIN costs a test where the stack re-converges for free, but merges lanes at
# one PC across loop iterations: collatz (data-dependent trip counts) takes
# fewer SIMD instructions with it
ws=$(json_total "$T/js-collatz.json" warp_insts) wj=$(json_total "$T/join-join-collatz.out" warp_insts)
tj=$(json_total "$T/join-join-collatz.out" join_tests)
if [ -n "$wj" ] && [ "$wj" -lt "$ws" ] && [ "${tj:-0}" -gt 0 ]; then ok
else bad "collatz under reconv=join: $wj SIMD instructions ($tj JOIN tests), stack $ws"; fi
run join-refuse 30 "$SIM" --quiet --set reconv=join --policy DWS.ReviveSplit "$B/kernels/mandel.elf"
if [ $RC -eq 2 ] && grep -q "^wpusim: reconv: JOIN re-convergence with dynamic warp subdivision (dws = on) is not modelled" "$ERR"; then ok
else bad "reconv=join with DWS: want exit 2; got $RC: $(cat "$ERR")"; fi

# ---------------------------------------------------------------- vector
# 003's vector core (core = vector, preset vector): SpMV's results equal the
# host build's at every t and packing; the scheduler's counters hold their
# arithmetic: busy unit-cycles never exceed units x cycles, one partition
# never issues twice in a cycle, and at t = 16 the load port (the kind the
# kernel saturates under 003's vl-cycle rule) is >= 80% busy, and the cycles
# are >= its busy cycles (the first-principles bound: it cannot be beaten).
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

# ---------------------------------------------------------------- irregular-exp
# make irregular-experiments' script at SIZE=tiny into a copy of the doc: its
# tables, verdicts and plots (every run checked against the host build).
group irregular-exp
cp docs/irregular.md "$T/irr-doc.md"
run irr-exp 900 python3 scripts/irregular_experiments.py --size tiny --jobs 2 --doc "$T/irr-doc.md" --figures "$T/irr-fig"
if [ $RC -eq 0 ] && grep -q "^- mycielskian8, pack none: cycles fall from t = 1 to 4" "$T/irr-doc.md" \
   && grep -q "^| mycielskian8 | dws | 16 |" "$T/irr-doc.md" && [ "$(grep -c 'irregular-experiments: begin' "$T/irr-doc.md")" = 1 ] \
   && { ! command -v gnuplot >/dev/null || [ -s "$T/irr-fig/irregular-cycles-mycielskian8.png" ]; }; then ok
else bad "irregular experiments at SIZE=tiny: exit $RC: $(tail -n 5 "$ERR")"; fi
