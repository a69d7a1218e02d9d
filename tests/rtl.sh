# The RTL flow's tests, sourced by tests/run.sh (uses its group/ok/bad/run,
# $B and $T). One group per flow step: lint, the port tables against the
# RTL, the random testbench of every block and parameter set, trace replay
# (recorded traces and the hand-worked tests' data), synthesis and
# post-synthesis simulation. Everything is built through make (tb/flow.mk, docs/rtl.md).
# WSIM_TEST_LONG=1 runs the random testbenches ten times longer.

RTL_MAKE="make --no-print-directory -s BUILD=$B"
RTL_CYCLES=200000
[ "$LONG" = 1 ] && RTL_CYCLES=2000000
RTL_NET_SETS="dws small hand6"   # the sets whose netlists are simulated here

group rtl-tools
if command -v verilator >/dev/null && command -v yosys >/dev/null; then
  RTL_TOOLS=1; ok
else
  RTL_TOOLS=0
  bad "verilator and yosys are needed for the RTL tests and are missing: run 'make setup' (scripts/setup.sh installs verilator, yosys, gtkwave)"
fi

if [ "$RTL_TOOLS" = 1 ]; then
RTL_PAIRS=$($RTL_MAKE rtl-pairs)

# ---------------------------------------------------------------- lint
group rtl-lint
run rtl-lint 900 $RTL_MAKE -j2 rtl-lint
if [ $RC -eq 0 ]; then ok; else bad "verilator -Wall / yosys check: $(tail -n 15 "$OUT" "$ERR")"; fi

# ---------------------------------------------------------------- port tables
# Each block's port table (cmodel/blocks/<block>.def: the C structs, the
# traces, the testbench glue and the doc table come from it) against the
# module's real ports in every parameter set, as Yosys elaborates them.
# It can fail: a copy of the RTL with one port renamed is rejected, naming
# the port on both sides.
group rtl-ports
for b in $(for p in $RTL_PAIRS; do echo "${p%%/*}"; done | sort -u); do
  run "rtl-ports-$b" 300 python3 scripts/blockports.py check-rtl "$b"
  if [ $RC -eq 0 ] && grep -q "match" "$OUT"; then ok
  else bad "$b: the port table and rtl/ws_$b.sv differ: $(head -c 800 "$OUT"; head -c 300 "$ERR")"; fi
done
sed 's/\bfree2_idx_o\b/free_second_idx_o/g' rtl/ws_wst.sv > "$T/ws_wst.sv"
run rtl-ports-renamed 120 python3 scripts/blockports.py check-rtl wst --sv "$T/ws_wst.sv" --set small
if [ $RC -eq 1 ] && grep -q "set small: port free2_idx_o: in cmodel/blocks/wst.def, not in $T/ws_wst.sv" "$OUT" \
   && grep -q "set small: port free_second_idx_o: in $T/ws_wst.sv, not in the table" "$OUT"; then ok
else bad "a port renamed in the RTL only was not caught: exit $RC: $(head -c 600 "$OUT"; head -c 300 "$ERR")"; fi

# ---------------------------------------------------------------- random testbenches
# Every block and set against its C block, every port every clock; the run
# fails on any mismatch, failed assertion or coverage point not hit.
group rtl-tb
run rtl-tb-build 1800 $RTL_MAKE -j2 tb RTL_NET_SETS="$RTL_NET_SETS"
if [ $RC -ne 0 ]; then bad "building the testbenches: $(tail -n 20 "$OUT" "$ERR")"; fi
for p in $RTL_PAIRS; do
  b=${p%%/*} s=${p#*/}
  tbx=$B/rtl/$p/rtl/${b}_tb
  [ -x "$tbx" ] || { bad "$p: no testbench $tbx"; continue; }
  run "rtl-tb-$b-$s" 300 "$tbx" +seed=1 +cycles=$RTL_CYCLES +quiet +wave="$T/$b-$s.fst"
  if [ $RC -eq 0 ] && grep -q "PASS" "$OUT"; then ok
  else bad "$p random run (replay: $tbx +seed=1 +cycles=$RTL_CYCLES): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
done

# The set of tb/wst.params matching a trace's parameter line, or nothing.
rtl_set_of() {
  local h e w k p c m
  h=$(zcat -f "$1" | grep -m 1 '^# wst ')
  e=$(echo "$h" | sed -n 's/.*entries=\([0-9]*\).*/\1/p'); w=$(echo "$h" | sed -n 's/.*width=\([0-9]*\).*/\1/p')
  k=$(echo "$h" | sed -n 's/.*warps=\([0-9]*\).*/\1/p'); p=$(echo "$h" | sed -n 's/.*pc_bits=\([0-9]*\).*/\1/p')
  c=$(echo "$h" | sed -n 's/.*cnt_bits=\([0-9]*\).*/\1/p'); m=$(echo "$h" | sed -n 's/.*mfc_bits=\([0-9]*\).*/\1/p')
  grep -E "^[a-z0-9_]+ +ENTRIES=$e +WIDTH=$w +WARPS=$k +PC_W=$p +CNT_W=$c +MFC_W=$m *$" tb/wst.params | awk '{ print $1; exit }'
}

# ---------------------------------------------------------------- trace replay
# A random run's operations logged as a port trace (the --record-block
# format) and replayed; a corrupted trace and a trace of other parameters
# must be rejected. Then traces recorded by wpusim from whole kernels.
group rtl-replay
dws_tb=$B/rtl/wst/dws/rtl/wst_tb
maws_tb=$B/rtl/wst/maws/rtl/wst_tb
if [ -x "$dws_tb" ] && [ -x "$maws_tb" ]; then
  run rtl-log "$((60))" "$dws_tb" +seed=7 +cycles=30000 +quiet +log="$T/wst-rand.trace"
  run rtl-replay-log 120 "$dws_tb" +replay="$T/wst-rand.trace"
  if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT" && [ "$(grep -c '^c=' "$T/wst-rand.trace")" -gt 20000 ]; then ok
  else bad "replay of a logged random run: exit $RC: $(tail -n 12 "$OUT" "$ERR")"; fi
  # flip the recorded latspec of the 1000th line: the replay must name it
  awk 'NR == 1001 { sub(/latspec=0$/, "latspec=X"); sub(/latspec=1$/, "latspec=0"); sub(/latspec=X$/, "latspec=1") } { print }' \
      "$T/wst-rand.trace" > "$T/wst-bad.trace"
  run rtl-replay-bad 120 "$dws_tb" +replay="$T/wst-bad.trace" +window=8 +wave="$T/wst-bad.fst"
  if [ $RC -eq 1 ] && grep -q "latspec_o (recorded)" "$ERR"; then ok
  else bad "a corrupted trace was not rejected: exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
  if [ -s "$T/wst-bad.fst" ]; then ok; else bad "no waveform written after a replay mismatch"; fi
  # ... with a view that opens on the failing clock, the marker on it (a clock is 10 ns)
  fc=$(sed -n 's/^FAIL at clock \([0-9]*\):.*/\1/p' "$ERR")
  if [ -n "$fc" ] && grep -q "^wst_tb: open it at the failing clock: gtkwave $T/wst-bad.fst $T/wst-bad.gtkw$" "$OUT" \
     && grep -q "^\*[-0-9.]* $((fc * 10)) " "$T/wst-bad.gtkw" \
     && [ "$(sed -n 's/^\[timestart\] //p' "$T/wst-bad.gtkw")" -le $((fc * 10)) ]; then ok
  else bad "no view at the failing clock ${fc:-?} after a replay mismatch: $(grep -m1 'open it' "$OUT") $(grep -m2 '^\*\|timestart' "$T/wst-bad.gtkw" 2>/dev/null)"; fi
  run rtl-replay-params 60 "$maws_tb" +replay="$T/wst-rand.trace"
  if [ $RC -eq 3 ] && grep -q "built for" "$ERR"; then ok
  else bad "a trace of other parameters was not rejected: exit $RC: $(tail -n 5 "$ERR")"; fi
else
  bad "no dws/maws testbench to replay with"
fi
# The hand-worked tests as data (tests/blocks/wst/NAME.in + NAME.expect, the
# rows the C replayer checks in tests/run.sh) on the RTL, each on the set of
# its parameters. A test whose .in says '# rtl-assert: NAME' drives an input
# the RTL assumes away: the RTL run must stop with that assertion.
for f in tests/blocks/wst/*.in; do
  n=$(basename "$f" .in)
  set_name=$(rtl_set_of "$f")
  tbx=$B/rtl/wst/$set_name/rtl/wst_tb
  if [ -z "$set_name" ] || [ ! -x "$tbx" ]; then bad "$f: no testbench for '$(grep -m 1 '^# wst ' "$f")' in tb/wst.params"; continue; fi
  run "rtl-blocks-$n" 60 "$tbx" +replay="$f" +expect="${f%.in}.expect" +wave="$T/wst-blocks-$n.fst"
  want=$(sed -n 's/^# rtl-assert: \([a-z_0-9]*\).*/\1/p' "$f")
  if [ -z "$want" ]; then
    if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok
    else bad "$f on the RTL (set $set_name): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
  elif [ $RC -eq 1 ] && cat "$OUT" "$ERR" | grep -q "Assertion failed in TOP.ws_wst.$want"; then ok
  else bad "$f on the RTL (set $set_name): want the assertion $want, got exit $RC: $(tail -n 8 "$ERR")"; fi
  # ... and the synthesized netlist, which has no assertions, must give every expected row
  nettb=$B/rtl/wst/$set_name/net/wst_tb
  if [ -n "$want" ] && [ -x "$nettb" ]; then
    run "rtl-blocks-net-$n" 60 "$nettb" +replay="$f" +expect="${f%.in}.expect" +wave="$T/wst-blocks-net-$n.fst"
    if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok
    else bad "$f on the netlist of set $set_name: exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
  fi
done
# Traces recorded by wpusim (needs --record-block): each is replayed on the
# testbench built for the parameters in its header.
if "$SIM" --help 2>&1 | grep -q -- "--record-block"; then
  for rec in "filter DWS.ReviveSplit dws" "merge DWS.ReviveSplit dws" "kmeans MAWS.LatSpec maws-coherent" \
             "filter MAWS.LatSpec maws-coherent"; do
    set -- $rec
    elf=$B/kernels/$1.elf
    [ -f "$elf" ] || { bad "no kernel $elf to record"; continue; }
    tr=$T/wst-$1-$2.trace
    [ "$1 $2" = "merge DWS.ReviveSplit" ] && tr=$tr.gz # one recorded through gzip, replayed compressed
    run "rtl-rec-$1-$2" 300 "$SIM" --quiet --config "$3" --policy "$2" --record-block wst="$tr" "$elf"
    if [ $RC -ne 0 ] || [ ! -s "$tr" ]; then bad "recording $1 $2 ($3): exit $RC: $(head -c 400 "$ERR")"; continue; fi
    set_name=$(rtl_set_of "$tr")
    if [ -z "$set_name" ]; then bad "$1 $2: no parameter set in tb/wst.params for '$(head -n 1 "$tr")'"; continue; fi
    run "rtl-replay-$1-$2" 600 "$B/rtl/wst/$set_name/rtl/wst_tb" +replay="$tr" +window=16 +wave="$T/wst-$1-$2.fst"
    if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok
    else bad "replay of $1 $2 ($3, set $set_name, $(grep -c '^c=' "$tr") lines): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
  done
else
  echo "  (rtl-replay: $SIM has no --record-block yet; recorded-trace replay skipped)"
fi

# ---------------------------------------------------------------- waveforms
# make wave without a display writes the waveform and its view (the save
# file opened on the busiest clocks of logged operations) and says how to open
# them; make wave-shot opens them in GTKWave on a virtual display (Xvfb) and
# photographs the screen. The traces GTKWave draws are green: with the save
# file's signals they cover ~2% of the screen (wst), with none 0 — under
# 0.5% fails. The waveform's unit is 1 ns, a clock 10 ns; the view's window
# (its start and zoom) holds at least a dozen of the operations the run
# logged; values with an encoding in the port table show by name (a
# translate file per port).
group rtl-wave
for b in $(for p in $RTL_PAIRS; do echo "${p%%/*}"; done | sort -u); do
  run "rtl-wave-$b" 600 env -u DISPLAY -u WAYLAND_DISPLAY $RTL_MAKE wave BLOCK=$b
  f=$(sed -n 's/^wave: wrote \([^;]*\); no display here.*/\1/p' "$OUT")
  v=${f%.fst}.gtkw
  if [ $RC -eq 0 ] && [ -n "$f" ] && [ -s "$f" ] && [ -s "$v" ] && grep -q "gtkwave $f $v" "$OUT"; then ok
  else bad "make wave BLOCK=$b without a display: exit $RC: $(head -c 400 "$OUT"; head -c 300 "$ERR")"; continue; fi
  start=$(sed -n 's/^\[timestart\] \([0-9]*\)$/\1/p' "$v")
  zoom=$(sed -n 's/^\*\(-*[0-9.]*\) .*/\1/p' "$v")
  shown=$(python3 -c 'import sys; s, z = float(sys.argv[2]), float(sys.argv[3]); end = s + 4.26 * 2 ** -z
print(sum(1 for l in open(sys.argv[1]) if l.startswith("c=") and s <= 10 * int(l[2:14], 16) <= end))' \
          "${f%.fst}.ops" "${start:-0}" "${zoom:-0}" 2>/dev/null)
  unit=$(fst2vcd "$f" 2>/dev/null | sed -n '/\$timescale/,/\$end/p' | tr -d ' \t\n')
  if [ "${shown:-0}" -ge 12 ] && [ "$unit" = '$timescale1ns$end' ]; then ok
  else bad "$b: the view opens at ${start:-?} ns, zoom ${zoom:-?}, on ${shown:-?} logged operations (want >= 12), unit '$unit'"; fi
  for enc in tb/filters/"${b}"_*.txt; do
    if grep -q "^^[0-9]* $PWD/$enc$" "$v" && [ "$(python3 tb/gtkw.py --print-filter "$enc")" = "$(cat "$enc")" ]; then ok
    else bad "$b: the view does not name $enc's values, or $enc is out of date with the port table: python3 tb/gtkw.py --filters $b"; fi
  done
  run "rtl-wave-shot-$b" 120 bash scripts/wave_shot.sh "$f" "$v" "$T/$b-wave.png"
  green=$(convert "$T/$b-wave.png" -fuzz 25% -fill black +opaque "#00ff00" -fill white -opaque "#00ff00" \
          -format '%[fx:round(mean*10000)]' info: 2>/dev/null)
  if [ $RC -eq 0 ] && [ "${green:-0}" -ge 50 ]; then ok
  else bad "GTKWave under Xvfb with $v: exit $RC, traces on ${green:-?}/10000 of the screenshot: $(head -c 300 "$ERR")"; fi
done

# ---------------------------------------------------------------- synthesis
# Yosys maps each tested set onto the cell library; the flip-flop count must
# be exactly the state the contract describes, and the netlist must pass the
# same random testbench as the RTL.
group rtl-synth
for s in $RTL_NET_SETS; do
  run "rtl-synth-$s" 900 $RTL_MAKE "$B/synth/wst-$s.stat"
  if [ $RC -ne 0 ]; then bad "synthesis of wst $s: $(tail -n 10 "$OUT" "$ERR")"; continue; fi
  set -- $(grep -E "^$s " tb/wst.params)
  shift
  for kv in "$@"; do eval "P_${kv%%=*}=${kv#*=}"; done
  clog2() { local n=$1 b=0; while [ $((1 << b)) -lt "$n" ]; do b=$((b + 1)); done; echo $b; }
  ww=$(clog2 "$P_WARPS"); [ "$ww" -lt 1 ] && ww=1
  # the entries' fields; sum-rMFC is an adder over them, not a register (000 §5.4.3)
  want=$((P_ENTRIES * (1 + 2 + ww + P_PC_W + P_WIDTH + P_CNT_W + 3 * P_MFC_W)))
  got=$(awk '$1 ~ /^DFF/ { n += $2 } END { print n + 0 }' "$B/synth/wst-$s.stat")
  area=$(sed -n 's/.*Chip area for module .*: \([0-9.]*\).*/\1/p' "$B/synth/wst-$s.stat")
  if [ "$got" = "$want" ] && [ -n "$area" ]; then ok
  else bad "wst $s: $got flip-flops after synthesis, the contract's state is $want bits (area '$area')"; fi
  nettb=$B/rtl/wst/$s/net/wst_tb
  [ -x "$nettb" ] || { bad "no post-synthesis testbench $nettb"; continue; }
  run "rtl-net-$s" 600 "$nettb" +seed=3 +cycles=$((RTL_CYCLES / 4)) +quiet +wave="$T/wst-net-$s.fst"
  if [ $RC -eq 0 ] && grep -q "PASS" "$OUT"; then ok
  else bad "post-synthesis wst $s (replay: $nettb +seed=3): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
done

# The warp-split table's assertions proven at 001's table (16 entries, 16
# lanes, 4 warps: ABC's PDR, 25 s), and a table whose sum-rMFC read port is
# not the live entries' sum (issue 11's defect class) refused.
run rtl-wst-formal 600 $RTL_MAKE formal BLOCK=wst
if [ $RC -eq 0 ] && grep -q "^formal: wst dws: 12 assertions proven in every reachable state (PDR" "$OUT"; then ok
else bad "make formal BLOCK=wst: exit $RC: $(tail -n 8 "$OUT" "$ERR")"; fi
sed 's/^  assign sum_rmfc_o   = sum_rmfc;$/  assign sum_rmfc_o   = sum_rmfc >> 1;/' rtl/ws_wst.sv > "$T/wst-halfsum.sv"
if cmp -s rtl/ws_wst.sv "$T/wst-halfsum.sv"; then bad "wst formal mutant: the sed no longer applies"
else
  run rtl-wst-formal-mutant 600 $RTL_MAKE formal BLOCK=wst FORMAL_SV="$T/wst-halfsum.sv" RTL_OUT="$T/fml-wst"
  if [ $RC -ne 0 ] && grep -q "^formal: wst dws: FAIL: [0-9]* clocks after reset: assertion failed:.* sum_rmfc_is_live_sum" "$OUT" \
     && [ -s "$T/fml-wst/wst/dws/formal.vcd" ]; then ok
  else bad "make formal did not reject a WST whose sum-rMFC is half the live sum: exit $RC: $(tail -n 6 "$OUT" "$ERR")"; fi
fi

# ---------------------------------------------------------------- the MDT
# The memory divergence table (rtl/ws_mdt.sv; its random runs, lint, ports
# and wave are in the groups above): its GTKWave layout, trace replay
# (a logged random run, a corrupted trace, other parameters, the hand-worked
# test on the RTL and the netlist, traces wpusim records from four kernels
# on four table shapes, each of which must also keep the pipeline's
# protocol), the flip-flops and netlists of its RTL_NET_SETS_mdt, and the
# formal proof of its assertions (make formal), which must fail on a mutant.
group rtl-mdt
mdt_set_of() { # the set of tb/mdt.params matching a trace's parameter line
  local h; h=$(zcat -f "$1" | grep -m 1 '^# mdt ')
  local k m w p c
  k=$(echo "$h" | sed -n 's/.*warps=\([0-9]*\).*/\1/p'); m=$(echo "$h" | sed -n 's/.* m=\([0-9]*\).*/\1/p')
  w=$(echo "$h" | sed -n 's/.*width=\([0-9]*\).*/\1/p'); p=$(echo "$h" | sed -n 's/.*pc_bits=\([0-9]*\).*/\1/p')
  c=$(echo "$h" | sed -n 's/.*mcb=\([0-9]*\).*/\1/p')
  grep -E "^[a-z0-9_]+ +WARPS=$k +M=$m +WIDTH=$w +PC_W=$p +MCB=$c *$" tb/mdt.params | awk '{ print $1; exit }'
}
run rtl-mdt-gtkw 30 python3 tb/gtkw.py mdt dom
if [ $RC -eq 0 ] && cmp -s "$OUT" tb/mdt.gtkw; then ok
else bad "tb/mdt.gtkw is out of date with cmodel/blocks/mdt.def: python3 tb/gtkw.py mdt dom > tb/mdt.gtkw $(cat "$ERR")"; fi
mdt_tb=$B/rtl/mdt/dom/rtl/mdt_tb
if [ -x "$mdt_tb" ] && [ -x "$B/rtl/mdt/n1/rtl/mdt_tb" ]; then
  run rtl-mdt-log 60 "$mdt_tb" +seed=7 +cycles=30000 +quiet +log="$T/mdt-rand.trace"
  run rtl-mdt-replay-log 120 "$mdt_tb" +replay="$T/mdt-rand.trace"
  if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT" && [ "$(grep -c '^c=' "$T/mdt-rand.trace")" -gt 5000 ]; then ok
  else bad "mdt: replay of a logged random run: exit $RC: $(tail -n 12 "$OUT" "$ERR")"; fi
  # flip the recorded free_o of the 1000th line: the replay must name it
  awk 'NR == 1001 { if (sub(/ free=0 /, " free=X ")) {} else sub(/ free=1 /, " free=0 "); sub(/ free=X /, " free=1 ") } { print }' \
      "$T/mdt-rand.trace" > "$T/mdt-bad.trace"
  run rtl-mdt-replay-bad 120 "$mdt_tb" +replay="$T/mdt-bad.trace" +window=8 +wave="$T/mdt-bad.fst"
  if [ $RC -eq 1 ] && grep -q "free_o (recorded)" "$ERR" && [ -s "$T/mdt-bad.fst" ]; then ok
  else bad "mdt: a corrupted trace was not rejected with a waveform: exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
  run rtl-mdt-replay-params 60 "$B/rtl/mdt/n1/rtl/mdt_tb" +replay="$T/mdt-rand.trace"
  if [ $RC -eq 3 ] && grep -q "built for" "$ERR"; then ok
  else bad "mdt: a trace of other parameters was not rejected: exit $RC: $(tail -n 5 "$ERR")"; fi
else
  bad "no mdt dom/n1 testbench to replay with"
fi
# The hand-worked tests (tests/blocks/mdt/NAME.in + .expect) on the RTL and,
# where its set's netlist is built, on the netlist.
for f in tests/blocks/mdt/*.in; do
  n=$(basename "$f" .in)
  set_name=$(mdt_set_of "$f")
  for kind in rtl net; do
    tbx=$B/rtl/mdt/$set_name/$kind/mdt_tb
    if [ -z "$set_name" ] || { [ $kind = rtl ] && [ ! -x "$tbx" ]; }; then
      bad "$f: no testbench for '$(grep -m 1 '^# mdt ' "$f")' in tb/mdt.params"; break; fi
    [ -x "$tbx" ] || continue
    run "rtl-mdt-blocks-$kind-$n" 60 "$tbx" +replay="$f" +expect="${f%.in}.expect" +wave="$T/mdt-blocks-$kind-$n.fst"
    if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok
    else bad "$f on the $kind of set $set_name: exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
  done
done
# Whole kernels under diverge on miss, recorded by wpusim (one WPU, the
# threads of its warps): kernel, legend, preset, warps.
for rec in "nl DoM.Adaptive dom 4" "lj DoM.NoLimit dom 16" "km DoM.Adaptive dom 1" "gf DoM.Adaptive dws 4"; do
  set -- $rec
  elf=$B/kernels/$1.elf
  [ -f "$elf" ] || { bad "no kernel $elf to record"; continue; }
  tr=$T/mdt-$1-$3-$4.trace
  thr=$(( $4 * 32 )); [ "$3" = dws ] && thr=$(( $4 * 16 ))
  run "rtl-mdt-rec-$1-$3-$4" 120 "$SIM" --quiet --config "$3" --policy "$2" --set wpus=1 --set warps="$4" \
      --threads "$thr" --record-block mdt="$tr" "$elf"
  if [ $RC -ne 0 ] || [ "$(grep -c '^c=.* op=[12] ' "$tr")" -lt 20 ]; then
    bad "recording $1 $2 ($3, $4 warps): exit $RC, $(grep -c '^c=.* op=[12] ' "$tr" 2>/dev/null) allocs/merges: $(head -c 400 "$ERR")"; continue; fi
  set_name=$(mdt_set_of "$tr")
  if [ -z "$set_name" ]; then bad "$1 $2: no parameter set in tb/mdt.params for '$(sed -n 2p "$tr")'"; continue; fi
  run "rtl-mdt-replay-$1-$3-$4" 300 "$B/rtl/mdt/$set_name/rtl/mdt_tb" +replay="$tr" +window=16 +wave="$T/mdt-$1.fst"
  if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT" && grep -q "every clock kept the pipeline's protocol" "$OUT"; then ok
  else bad "replay of $1 $2 ($3, $4 warps, set $set_name, $(grep -c '^c=' "$tr") lines): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
done
# Synthesis keeps exactly the contract's state: per entry the PC and the two
# status masks (valid is their OR, not a register); the netlist passes the
# random testbench.
for s in dom small hand; do # tb/flow.mk's RTL_NET_SETS_mdt
  run "rtl-mdt-synth-$s" 900 $RTL_MAKE "$B/synth/mdt-$s.stat"
  if [ $RC -ne 0 ]; then bad "synthesis of mdt $s: $(tail -n 10 "$OUT" "$ERR")"; continue; fi
  set -- $(grep -E "^$s " tb/mdt.params); shift
  for kv in "$@"; do eval "Q_${kv%%=*}=${kv#*=}"; done
  want=$((Q_WARPS * Q_M * (Q_PC_W + 2 * Q_WIDTH)))
  got=$(awk '$1 ~ /^DFF/ { n += $2 } END { print n + 0 }' "$B/synth/mdt-$s.stat")
  if [ "$got" = "$want" ]; then ok
  else bad "mdt $s: $got flip-flops after synthesis, the contract's state is $want bits"; fi
  nettb=$B/rtl/mdt/$s/net/mdt_tb
  [ -x "$nettb" ] || { bad "no post-synthesis testbench $nettb"; continue; }
  run "rtl-mdt-net-$s" 300 "$nettb" +seed=3 +cycles=$((RTL_CYCLES / 4)) +quiet +wave="$T/mdt-net-$s.fst"
  if [ $RC -eq 0 ] && grep -q "PASS" "$OUT"; then ok
  else bad "post-synthesis mdt $s (replay: $nettb +seed=3): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
done
# Formal: Yosys proves all 11 assertions by induction (hand, small, dom); a
# mutant whose search sees only a warp's first entry allocates a second
# entry at one PC, and the proof must fail naming one_entry_per_pc.
run rtl-mdt-formal 600 $RTL_MAKE formal BLOCK=mdt
if [ $RC -eq 0 ] && [ "$(grep -c '^formal: mdt [a-z]*: 11 assertions proven in every reachable state' "$OUT")" = 3 ]; then ok
else bad "make formal BLOCK=mdt: exit $RC: $(tail -n 10 "$OUT" "$ERR")"; fi
sed 's/if (!hit && w_pc\[j\*PC_W +: PC_W\] == pc_i) begin/if (!hit \&\& j == 0 \&\& w_pc[j*PC_W +: PC_W] == pc_i) begin/' \
    rtl/ws_mdt.sv > "$T/ws_mdt_mut.sv"
run rtl-mdt-formal-mutant 600 $RTL_MAKE formal BLOCK=mdt FORMAL_SETS=hand FORMAL_SV="$T/ws_mdt_mut.sv" RTL_OUT="$T/fml"
if ! cmp -s rtl/ws_mdt.sv "$T/ws_mdt_mut.sv" && [ $RC -ne 0 ] \
   && grep -q "^formal: mdt hand: FAIL: [0-9]* clocks after reset: assertion failed:.* one_entry_per_pc" "$OUT" \
   && [ -s "$T/fml/mdt/hand/formal.vcd" ]; then ok
else bad "the formal check passed a mutant with duplicate entries: exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
# ---------------------------------------------------------------- fetch arbiter
# The two-level fetch arbiter (rtl/ws_fetcharb.sv; 004 §3.2-§3.3): the
# random runs of every set are in rtl-tb above. Here: its trace replays
# (a logged random run, a corrupted one, one of other parameters, the
# hand-worked tests, whole-kernel runs recorded by wpusim under 2Lev,
# 2Lev.Timeout, LWM+2Lev and 2Lev with a timeout of 300 that fires), the
# state synthesis keeps and the netlists, and the Yosys proof of its
# assertions (with a mutant the proof must reject).
group rtl-fetcharb
FA=$B/rtl/fetcharb
# the GTKWave layout is the one tb/gtkw.py writes from the port table
run fa-gtkw 30 python3 tb/gtkw.py fetcharb lwm
if [ $RC -eq 0 ] && cmp -s "$OUT" tb/fetcharb.gtkw; then ok
else bad "tb/fetcharb.gtkw is out of date with cmodel/blocks/fetcharb.def: python3 tb/gtkw.py fetcharb lwm > tb/fetcharb.gtkw $(cat "$ERR")"; fi
# The set of tb/fetcharb.params matching a trace's parameter line, or nothing.
fa_set_of() {
  local h g s t
  h=$(zcat -f "$1" | grep -m 1 '^# fetcharb ')
  g=$(echo "$h" | sed -n 's/.*groups=\([0-9]*\).*/\1/p'); s=$(echo "$h" | sed -n 's/.*gsize=\([0-9]*\).*/\1/p')
  t=$(echo "$h" | sed -n 's/.*timeout=\([0-9]*\).*/\1/p')
  grep -E "^[a-z0-9_]+ +GROUPS=$g +GSIZE=$s +TIMEOUT=$t *$" tb/fetcharb.params | awk '{ print $1; exit }'
}
if [ -x "$FA/g3s3t5/rtl/fetcharb_tb" ] && [ -x "$FA/lwm/rtl/fetcharb_tb" ]; then
  run fa-rtl-log 60 "$FA/g3s3t5/rtl/fetcharb_tb" +seed=5 +cycles=20000 +quiet +log="$T/fa-rand.trace"
  run fa-rtl-replay-log 60 "$FA/g3s3t5/rtl/fetcharb_tb" +replay="$T/fa-rand.trace"
  if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT" && [ "$(grep -c '^c=' "$T/fa-rand.trace")" = 20000 ]; then ok
  else bad "fetcharb: replay of a logged random run: exit $RC: $(tail -n 12 "$OUT" "$ERR")"; fi
  # the 500th line's recorded grant index, changed: the replay must name the port
  awk 'NR == 502 { if (sub(/grant_idx=00/, "grant_idx=01") == 0) sub(/grant_idx=[0-9a-f][0-9a-f]/, "grant_idx=00") } { print }' \
      "$T/fa-rand.trace" > "$T/fa-bad.trace"
  run fa-rtl-replay-bad 60 "$FA/g3s3t5/rtl/fetcharb_tb" +replay="$T/fa-bad.trace" +window=8 +wave="$T/fa-bad.fst"
  if [ $RC -eq 1 ] && grep -q "FAIL at clock 499: port grant_idx_o (recorded)" "$ERR" && [ -s "$T/fa-bad.fst" ]; then ok
  else bad "fetcharb: a corrupted trace was not rejected at its clock with a waveform: exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
  run fa-rtl-replay-params 60 "$FA/lwm/rtl/fetcharb_tb" +replay="$T/fa-rand.trace"
  if [ $RC -eq 3 ] && grep -q "built for" "$ERR"; then ok
  else bad "fetcharb: a trace of other parameters was not rejected: exit $RC: $(tail -n 5 "$ERR")"; fi
else
  bad "fetcharb: no g3s3t5/lwm testbench ($FA)"
fi
# the hand-worked tests, on the RTL of their shapes
for f in tests/blocks/fetcharb/*.in; do
  n=$(basename "$f" .in)
  set_name=$(fa_set_of "$f")
  tbx=$FA/$set_name/rtl/fetcharb_tb
  if [ -z "$set_name" ] || [ ! -x "$tbx" ]; then bad "$f: no testbench for '$(grep -m 1 '^# fetcharb ' "$f")' in tb/fetcharb.params"; continue; fi
  run "fa-rtl-blocks-$n" 60 "$tbx" +replay="$f" +expect="${f%.in}.expect" +wave="$T/fa-blocks-$n.fst"
  if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok
  else bad "$f on the RTL (set $set_name): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
done
# whole kernels on the lwm preset, recorded by wpusim and replayed on the RTL
# (filter and merge, tiny sizes; 20,000-100,000 clocks each)
for rec in "filter 2Lev" "merge 2Lev" "filter 2Lev.Timeout" "merge 2Lev.Timeout" "filter LWM+2Lev" "merge LWM+2Lev" \
           "filter 2Lev:fetch_timeout=300" "merge 2Lev:fetch_timeout=300"; do
  set -- $rec
  k=$1 pol=${2%%:*} extra=
  case "$2" in *:*) extra="--set ${2#*:}" ;; esac
  tag=$k-$(echo "$2" | tr ':=' '--')
  tr=$T/fa-$tag.trace
  run "fa-rec-$tag" 120 "$SIM" --quiet --config lwm --policy "$pol" $extra --record-block fetcharb="$tr" "$B/kernels/$k.elf"
  if [ $RC -ne 0 ] || [ ! -s "$tr" ]; then bad "fetcharb: recording $k $2: exit $RC: $(head -c 400 "$ERR")"; continue; fi
  set_name=$(fa_set_of "$tr")
  if [ -z "$set_name" ]; then bad "fetcharb: $k $2: no set in tb/fetcharb.params for '$(sed -n 2p "$tr")'"; continue; fi
  run "fa-rtl-replay-$tag" 300 "$FA/$set_name/rtl/fetcharb_tb" +replay="$tr" +window=16 +wave="$T/fa-$tag.fst"
  sw=$(sed -n 's/.* \([0-9]*\) switches (\([0-9]*\) by the timeout).*/\1 \2/p' "$OUT")
  # every run switches groups; the timeout of 300 fires
  if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT" && [ "${sw%% *}" -gt 0 ] 2>/dev/null \
     && { [ -z "$extra" ] || [ "${sw##* }" -gt 0 ]; }; then ok
  else bad "fetcharb: replay of $k $2 (set $set_name, $(grep -c '^c=' "$tr") lines, switches/timeouts '$sw'): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
done
# synthesis keeps exactly the contract's state: prio, the count, the last
# grant, the stay bit and a pointer per group (docs/blocks/fetcharb.md), and
# the netlists pass the random testbench (and the hand-worked timeout test)
clog2() { local n=$1 b=0; while [ $((1 << b)) -lt "$n" ]; do b=$((b + 1)); done; echo $b; }
for s in $($RTL_MAKE -s rtl-net-sets BLOCK=fetcharb); do
  run "fa-synth-$s" 900 $RTL_MAKE "$B/synth/fetcharb-$s.stat"
  if [ $RC -ne 0 ]; then bad "synthesis of fetcharb $s: $(tail -n 10 "$OUT" "$ERR")"; continue; fi
  set -- $(grep -E "^$s " tb/fetcharb.params); shift
  for kv in "$@"; do eval "P_${kv%%=*}=${kv#*=}"; done
  sl=$((P_GROUPS * P_GSIZE))
  gw=$(clog2 "$P_GROUPS"); [ "$gw" -lt 1 ] && gw=1
  iw=$(clog2 "$sl"); [ "$iw" -lt 1 ] && iw=1
  mw=$(clog2 "$P_GSIZE"); [ "$mw" -lt 1 ] && mw=1
  cw=$(clog2 $((P_TIMEOUT + 1))); [ "$cw" -lt 1 ] && cw=1
  want=$((gw + cw + iw + 1 + P_GROUPS * mw))
  got=$(awk '$1 ~ /^DFF/ { n += $2 } END { print n + 0 }' "$B/synth/fetcharb-$s.stat")
  if [ "$got" = "$want" ]; then ok
  else bad "fetcharb $s: $got flip-flops after synthesis, the contract's state is $want bits"; fi
  nettb=$FA/$s/net/fetcharb_tb
  [ -x "$nettb" ] || { bad "no post-synthesis testbench $nettb"; continue; }
  run "fa-net-$s" 300 "$nettb" +seed=3 +cycles=$((RTL_CYCLES / 2)) +quiet +wave="$T/fa-net-$s.fst"
  if [ $RC -eq 0 ] && grep -q "PASS" "$OUT"; then ok
  else bad "post-synthesis fetcharb $s (replay: $nettb +seed=3): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
  for f in tests/blocks/fetcharb/*.in; do
    [ "$(fa_set_of "$f")" = "$s" ] || continue
    run "fa-net-blocks-$(basename "$f" .in)" 60 "$nettb" +replay="$f" +expect="${f%.in}.expect"
    if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok
    else bad "$f on the netlist of set $s: exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
  done
done
# the proof: every assertion (among them the starvation bound) holds in
# every reachable state of the formal set; an arbiter that ignores the
# timeout is caught with a counterexample from reset
run fa-formal 300 $RTL_MAKE formal BLOCK=fetcharb
if [ $RC -eq 0 ] && grep -q "^formal: fetcharb formal: 16 assertions proven in every reachable state" "$OUT"; then ok
else bad "make formal BLOCK=fetcharb: exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
sed 's/sw_o    = (!here || timed_out) \&\& (found_hi || found_lo);/sw_o    = !here \&\& (found_hi || found_lo);/' \
    rtl/ws_fetcharb.sv > "$T/fa-notimeout.sv"
if cmp -s rtl/ws_fetcharb.sv "$T/fa-notimeout.sv"; then bad "fetcharb formal mutant: the sed no longer applies"
else
  run fa-formal-mutant 300 $RTL_MAKE formal BLOCK=fetcharb FORMAL_SV="$T/fa-notimeout.sv" RTL_OUT="$T/fml"
  if [ $RC -ne 0 ] && grep -q "^formal: fetcharb formal: FAIL: [0-9]* clocks after reset: assertion failed:.* timeout_forces_switch" "$OUT" \
     && [ -s "$T/fml/fetcharb/formal/formal.vcd" ]; then ok
  else bad "make formal did not reject an arbiter without the timeout: exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
fi
# ---------------------------------------------------------------- the ASC
# The adaptive slip controller (rtl/ws_asc.sv) beyond the generic groups:
# its hand-worked tests, traces recorded from whole kernels, a logged random
# run, synthesis (flip-flops = the contract's state), post-synthesis runs,
# and the formal proof of its assertions (make formal), which must fail on
# a mutant.
group rtl-asc
asc_set_of() { # the set of tb/asc.params matching a trace's parameter line
  local h w k c m
  h=$(zcat -f "$1" | grep -m 1 '^# asc ')
  w=$(echo "$h" | sed -n 's/.*width=\([0-9]*\).*/\1/p'); k=$(echo "$h" | sed -n 's/.*warps=\([0-9]*\).*/\1/p')
  c=$(echo "$h" | sed -n 's/.*cnt_bits=\([0-9]*\).*/\1/p'); m=$(echo "$h" | sed -n 's/.*max0=\([0-9]*\).*/\1/p')
  grep -E "^[a-z0-9_]+ +WIDTH=$w +WARPS=$k +CNT_W=$c +MAX0=$m *$" tb/asc.params | awk '{ print $1; exit }'
}
for f in tests/blocks/asc/*.in; do
  n=$(basename "$f" .in)
  s=$(asc_set_of "$f")
  tbx=$B/rtl/asc/$s/rtl/asc_tb
  if [ -z "$s" ] || [ ! -x "$tbx" ]; then bad "$f: no testbench for '$(grep -m 1 '^# asc ' "$f")' in tb/asc.params"; continue; fi
  run "rtl-asc-blocks-$n" 60 "$tbx" +replay="$f" +expect="${f%.in}.expect" +wave="$T/asc-blocks-$n.fst"
  if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok
  else bad "$f on the RTL (set $s): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
done
# Whole kernels (002's nl, gf, km at tiny size on the dom preset, a short
# sampling period so that adaptive diff acts): recorded, then replayed on the
# set of their parameters. The trace must hold what it is there for.
for rec in "nl DoM.Adaptive 4 sample=1" "gf DoM.Adaptive 1 sample=1" "km DoM.FixedSlip 4 block=1" \
           "nl DoM.FixedSlip 16 block=1"; do
  set -- $rec
  elf=$B/kernels/$1.elf tr=$T/asc-$1-$2-$3.trace
  [ -f "$elf" ] || { bad "no kernel $elf to record"; continue; }
  run "rtl-asc-rec-$1-$2-$3" 120 "$SIM" --quiet --config dom --policy "$2" --set warps="$3" --set dom_period=2000 \
      --arg 0 --record-block asc="$tr" "$elf"
  if [ $RC -ne 0 ] || [ ! -s "$tr" ]; then bad "recording the ASC on $1 $2 warps=$3: exit $RC: $(head -c 400 "$ERR")"; continue; fi
  if [ "$(grep -c " $4" "$tr")" -lt 20 ]; then bad "$1 $2 warps=$3: fewer than 20 clocks with $4 in the trace"; fi
  s=$(asc_set_of "$tr")
  if [ -z "$s" ]; then bad "$1 $2: no set in tb/asc.params for '$(sed -n 2p "$tr")'"; continue; fi
  run "rtl-asc-replay-$1-$2-$3" 300 "$B/rtl/asc/$s/rtl/asc_tb" +replay="$tr" +window=16 +wave="$T/asc-$1-$2.fst"
  if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok
  else bad "replay of $1 $2 warps=$3 (set $s, $(grep -c '^c=' "$tr") clocks): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
done
run rtl-asc-rec-none 30 "$SIM" --quiet --config dom --policy DoM.NoLimit --record-block asc="$T/x.trace" "$B/kernels/gf.elf"
if [ $RC -eq 2 ] && grep -q "no adaptive slip controller" "$ERR"; then ok
else bad "--record-block asc without a slip controller: exit $RC: $(head -c 300 "$ERR")"; fi
# A logged random run replays; a corrupted output is named; other parameters are refused.
d4=$B/rtl/asc/dom4/rtl/asc_tb
run rtl-asc-log 60 "$d4" +seed=5 +cycles=20000 +quiet +log="$T/asc-rand.trace"
run rtl-asc-replay-log 60 "$d4" +replay="$T/asc-rand.trace"
if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT" && [ "$(grep -c '^c=' "$T/asc-rand.trace")" -gt 10000 ]; then ok
else bad "replay of a logged random ASC run: exit $RC: $(tail -n 12 "$OUT" "$ERR")"; fi
awk '/ block=1 / && !done { sub(/ block=1 /, " block=0 "); done = 1 } { print }' "$T/asc-rand.trace" > "$T/asc-bad.trace"
run rtl-asc-replay-bad 60 "$d4" +replay="$T/asc-bad.trace" +window=8 +wave="$T/asc-bad.fst"
if [ $RC -eq 1 ] && grep -q "block_o (recorded)" "$ERR" && [ -s "$T/asc-bad.fst" ]; then ok
else bad "a corrupted ASC trace was not rejected with a waveform: exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
run rtl-asc-replay-params 60 "$B/rtl/asc/dom16/rtl/asc_tb" +replay="$T/asc-rand.trace"
if [ $RC -eq 3 ] && grep -q "built for" "$ERR"; then ok
else bad "an ASC trace of other parameters was not refused: exit $RC: $(tail -n 5 "$ERR")"; fi
# Synthesis keeps exactly the contract's state: WARPS x WIDTH x (CNT_W + 1)
# + CNT_W flip-flops; the netlist passes the random run and the rules test.
for s in $($RTL_MAKE -s rtl-net-sets BLOCK=asc); do
  run "rtl-asc-synth-$s" 900 $RTL_MAKE "$B/synth/asc-$s.stat"
  if [ $RC -ne 0 ]; then bad "synthesis of asc $s: $(tail -n 10 "$OUT" "$ERR")"; continue; fi
  set -- $(grep -E "^$s " tb/asc.params); shift
  for kv in "$@"; do eval "A_${kv%%=*}=${kv#*=}"; done
  want=$((A_WARPS * A_WIDTH * (A_CNT_W + 1) + A_CNT_W))
  got=$(awk '$1 ~ /^DFF/ { n += $2 } END { print n + 0 }' "$B/synth/asc-$s.stat")
  if [ "$got" = "$want" ]; then ok; else bad "asc $s: $got flip-flops after synthesis, the contract's state is $want bits"; fi
  nettb=$B/rtl/asc/$s/net/asc_tb
  [ -x "$nettb" ] || { bad "no post-synthesis testbench $nettb"; continue; }
  run "rtl-asc-net-$s" 300 "$nettb" +seed=3 +cycles=$((RTL_CYCLES / 2)) +quiet +wave="$T/asc-net-$s.fst"
  if [ $RC -eq 0 ] && grep -q "PASS" "$OUT"; then ok
  else bad "post-synthesis asc $s (replay: $nettb +seed=3): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
done
run rtl-asc-net-rules 60 "$B/rtl/asc/rules/net/asc_tb" +replay=tests/blocks/asc/rules.in +expect=tests/blocks/asc/rules.expect
if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok
else bad "tests/blocks/asc/rules on the netlist: exit $RC: $(tail -n 8 "$OUT" "$ERR")"; fi
# Formal: every assertion proven by induction in each of FORMAL_SETS_asc
# (rules small w2 straddle); a mutant whose counters wrap must fail, naming
# cnt_no_wrap, with the counterexample from reset.
run rtl-asc-formal 600 $RTL_MAKE formal BLOCK=asc
if [ $RC -eq 0 ] && [ "$(grep -c "^formal: asc [a-z0-9]*: [0-9]* assertions proven in every reachable state" "$OUT")" = 4 ]; then ok
else bad "make formal BLOCK=asc: exit $RC: $(tail -n 8 "$OUT" "$ERR")"; fi
sed 's/if (up\[t\] && c != CNT_MAX) begin/if (up[t]) begin/' rtl/ws_asc.sv > "$T/ws_asc_mut.sv"
run rtl-asc-formal-mutant 300 $RTL_MAKE formal BLOCK=asc FORMAL_SETS=rules FORMAL_SV="$T/ws_asc_mut.sv" RTL_OUT="$T/fml"
if ! cmp -s rtl/ws_asc.sv "$T/ws_asc_mut.sv" && [ $RC -ne 0 ] \
   && grep -q "^formal: asc rules: FAIL: [0-9]* clocks after reset: assertion failed:.* cnt_no_wrap" "$OUT" \
   && [ -s "$T/fml/asc/rules/formal.vcd" ]; then ok
else bad "a counter that wraps was not caught by the formal check: exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
# WSIM_TEST_LONG=1: nine single-rule mutants of the RTL, each caught by the
# random testbench (~70 s of CPU).
if [ "$LONG" = 1 ]; then
  run rtl-asc-mutants 1800 bash tests/blocks/asc/rtl_mutants.sh "$B"
  if [ $RC -eq 0 ]; then ok; else bad "an RTL mutant of the ASC survived: $(grep -v caught "$OUT" | head -5; head -c 300 "$ERR")"; fi
fi

fi

# ---------------------------------------------------------------- RTL in the loop
# build/wpusim-rtl (sim/rtl_loop.mk): blocks of whole-kernel runs as their
# Verilated RTL (docs/rtl.md, RTL in the loop). replace: statistics, results,
# instruction and port traces byte-identical to the C-only run, and the RTL
# really clocked; lockstep: passes, and catches one flipped output bit
# (WSIM_RTL_INJECT) with cycle, WPU, port, expected and actual, exit 3 and
# the statistics printed; a configuration without a Verilated build of its
# parameters, and the plain C wpusim, are clear errors (exit 2).
group rtl-loop
run rtl-loop-plain 30 "$SIM" --rtl wst build/kernels/filter.elf
if [ $RC -eq 2 ] && grep -q "^wpusim: --rtl: this build has no RTL in the loop (plain C); build the simulator with the Verilated blocks, make wpusim-rtl, and run build/wpusim-rtl" "$ERR"; then ok
else bad "plain wpusim --rtl: exit $RC: $(head -c 300 "$ERR")"; fi
if [ "$RTL_TOOLS" = 1 ]; then
RSIM=$B/wpusim-rtl
run rtl-loop-build 1200 $RTL_MAKE -j2 wpusim-rtl
if [ $RC -ne 0 ] || [ ! -x "$RSIM" ]; then bad "make wpusim-rtl: exit $RC: $(tail -n 20 "$OUT" "$ERR")"
else
  ok
  K=$B/kernels
  # BLOCK KERNEL PRESET POLICY SET [ARGS]: every set built in, the legends
  # of each block (a block joins the loop with its lines here: docs/rtl.md,
  # RTL in the loop); the blocks after the WST at tiny sizes on one WPU
  while read -r blk k p pol set args; do
    n="rtl-loop-$blk-$k-$pol-$set"
    rec=(--record-block "$blk=$T/$n-c.blk"); recr=(--record-block "$blk=$T/$n-r.blk")
    # shellcheck disable=SC2086 # ARGS: words
    run "$n-c" 120 "$SIM" --config "$p" --policy "$pol" --stats json --dump "$T/$n-c.bin" --trace "$T/$n-c.tr" \
      "${rec[@]}" $args "$K/$k.elf"
    cp "$OUT" "$T/$n-c.json"; crc=$RC
    # shellcheck disable=SC2086
    run "$n-r" 300 "$RSIM" --rtl "$blk" --config "$p" --policy "$pol" --stats json --dump "$T/$n-r.bin" \
      --trace "$T/$n-r.tr" "${recr[@]}" $args "$K/$k.elf"
    edges=$(sed -n "s/.*replace mode: $blk (set $set) x[0-9]*: \([0-9]*\) clock edges.*/\1/p" "$ERR")
    if [ $crc -eq 0 ] && [ $RC -eq 0 ] && [ "${edges:-0}" -gt 100 ] && cmp -s "$T/$n-c.json" "$OUT" \
       && cmp -s "$T/$n-c.bin" "$T/$n-r.bin" && cmp -s "$T/$n-c.tr" "$T/$n-r.tr" \
       && [ -s "$T/$n-c.blk" ] && cmp -s "$T/$n-c.blk" "$T/$n-r.blk"; then ok
    else bad "replace $blk: $k $p $pol: exit $crc / $RC, ${edges:-no} RTL clock edges (set $set), stats/results/traces identical? $(cmp "$T/$n-c.json" "$OUT" 2>&1; cmp "$T/$n-c.bin" "$T/$n-r.bin" 2>&1; cmp "$T/$n-c.tr" "$T/$n-r.tr" 2>&1; cmp "$T/$n-c.blk" "$T/$n-r.blk" 2>&1; head -c 300 "$ERR")"; fi
  done <<'EOT'
wst filter dws DWS.ReviveSplit dws
wst kmeans dws DWS.ReviveSplit dws
wst merge dws DWS.LazySplit dws
wst lu maws-bulksync MAWS.LatSpec bsync
wst svm maws-bulksync MAWS.LatSpec bsync
wst fft maws-coherent MAWS.LatSpec.RR maws
mdt nl dom DoM.Adaptive dom --arg 0 --set wpus=1
mdt km dom DoM.Adaptive dom --arg 0 --set wpus=1
mdt km dws Slip dws --arg 0 --set wpus=1
asc nl dom DoM.Adaptive dom4 --arg 0 --set wpus=1
asc km dom DoM.Adaptive dom4 --arg 0 --set wpus=1
asc nl dws Slip dws4 --arg 0 --set wpus=1
colpick bfs lwm LWM lwm --arg 0 --set wpus=1
colpick histogram lwm LWM lwm --arg 0 --set wpus=1
fetcharb bfs lwm 2Lev lwm --arg 0 --set wpus=1
fetcharb histogram lwm 2Lev lwm --arg 0 --set wpus=1
fetcharb bfs lwm 2Lev.Timeout lwmt --arg 0 --set wpus=1
fetcharb mandel lwm LWM+2Lev lwm2lev --arg 0 --set wpus=1
fetcharb histogram lwm LWM+2Lev lwm2lev --arg 0 --set wpus=1
EOT
  # lockstep of the other blocks: two kernels each, same statistics as C-only
  # (BLOCK KERNEL PRESET POLICY SET: the replace rows above, ARGS as there)
  while read -r blk k p pol set; do
    n="rtl-loop-$blk-$k-$pol-$set"
    run "rtl-loop-ls-$blk-$k-$pol" 300 "$RSIM" --rtl "$blk" --rtl-mode lockstep --config "$p" --policy "$pol" \
      --stats json --arg 0 --set wpus=1 "$K/$k.elf"
    if [ $RC -eq 0 ] && grep -q "lockstep mode: $blk (set $set) x1: [1-9][0-9]* clock edges.*every output equal to the C model's" "$ERR" \
       && cmp -s "$OUT" "$T/$n-c.json"; then ok
    else bad "lockstep $blk: $k $p $pol: exit $RC: $(head -c 400 "$ERR")"; fi
  done <<'EOT'
mdt nl dom DoM.Adaptive dom
mdt km dom DoM.Adaptive dom
asc nl dom DoM.Adaptive dom4
asc km dom DoM.Adaptive dom4
colpick bfs lwm LWM lwm
colpick histogram lwm LWM lwm
fetcharb bfs lwm 2Lev lwm
fetcharb histogram lwm 2Lev lwm
fetcharb mandel lwm LWM+2Lev lwm2lev
EOT
  # every block of a configuration at once: the MDT and ASC under DoM, the
  # picker and the arbiter under LWM+2Lev, lockstep
  for c in "mdt,asc km dom DoM.Adaptive mdt-km-DoM.Adaptive-dom" \
           "colpick,fetcharb histogram lwm LWM+2Lev fetcharb-histogram-LWM+2Lev-lwm2lev"; do
    set -- $c
    run "rtl-loop-ls-${1/,/-}" 300 "$RSIM" --rtl "$1" --rtl-mode lockstep --config "$3" --policy "$4" \
      --stats json --arg 0 --set wpus=1 "$K/$2.elf"
    if [ $RC -eq 0 ] && grep -q "lockstep mode: .*${1%%,*} (set .*every output equal to the C model's" "$ERR" \
       && grep -q "lockstep mode: .*${1##*,} (set .*every output equal to the C model's" "$ERR" \
       && cmp -s "$OUT" "$T/rtl-loop-$5-c.json"; then ok
    else bad "lockstep $1: $2 $3 $4: exit $RC: $(head -c 400 "$ERR")"; fi
  done
  # lockstep: passes on whole kernels, same statistics as C-only
  for c in "filter dws DWS.ReviveSplit dws" "lu maws-bulksync MAWS.LatSpec bsync"; do
    set -- $c
    run "rtl-loop-ls-$1" 300 "$RSIM" --rtl wst --rtl-mode lockstep --config "$2" --policy "$3" --stats json "$K/$1.elf"
    if [ $RC -eq 0 ] && grep -q "lockstep mode: wst (set $4) .* clock edges, .*, every output equal to the C model's" "$ERR" \
       && cmp -s "$OUT" "$T/rtl-loop-wst-$1-$3-$4-c.json"; then ok
    else bad "lockstep $1 $2 $3: exit $RC: $(head -c 400 "$ERR")"; fi
  done
  # lockstep catches one flipped bit: the first combinational output (nfree_o) of the RTL at cycle 500
  WSIM_RTL_INJECT=wst:500 run rtl-loop-inject 120 "$RSIM" --rtl wst --rtl-mode lockstep --policy DWS.ReviveSplit \
    --threads 64 --stats json "$K/filter.elf"
  if [ $RC -eq 3 ] && grep -q "^wpusim: RTL in the loop: lockstep mismatch at cycle 533, WPU 1, block wst (set dws, lockstep mode, clock edge 7 of this block): port nfree_o$" "$ERR" \
     && grep -q "^  expected (C model) 0f$" "$ERR" && grep -q "^  actual   (RTL)     0e$" "$ERR" \
     && grep -q '"status": "check_failed"' "$OUT" && grep -q '^  "cycles": 534,$' "$OUT"; then ok
  else bad "lockstep with a flipped nfree_o bit at cycle 500: exit $RC (want 3), $(head -c 500 "$ERR"; grep -m1 status "$OUT")"; fi
  WSIM_RTL_INJECT=wst:500:latspec run rtl-loop-inject2 120 "$RSIM" --rtl wst --rtl-mode lockstep --policy DWS.ReviveSplit \
    --threads 64 --quiet "$K/filter.elf"
  if [ $RC -eq 3 ] && grep -q "lockstep mismatch at cycle 533, WPU 1, block wst .*: port latspec_o$" "$ERR"; then ok
  else bad "lockstep with a flipped latspec_o bit: exit $RC: $(head -c 400 "$ERR")"; fi
  # ... and a registered read port (entry 0 of ent_pc_o in the RTL's mirror after an edge)
  WSIM_RTL_INJECT=wst:500:ent_pc run rtl-loop-inject-reg 120 "$RSIM" --rtl wst --rtl-mode lockstep --policy DWS.ReviveSplit \
    --threads 64 --quiet "$K/filter.elf"
  if [ $RC -eq 3 ] && grep -q "^wpusim: RTL in the loop: lockstep mismatch (registered read port after the edge) at cycle 533, WPU 1, block wst (set dws, lockstep mode, clock edge 8 of this block): port ent_pc_o (entry 0)$" "$ERR" \
     && grep -q "^  expected (C model) 00010028$" "$ERR" && grep -q "^  actual   (RTL)     00010029$" "$ERR"; then ok
  else bad "lockstep with a flipped ent_pc_o bit: exit $RC: $(head -c 400 "$ERR")"; fi
  WSIM_RTL_INJECT=wst:500:bogus run rtl-loop-inject3 60 "$RSIM" --rtl wst --policy DWS.ReviveSplit --quiet "$K/filter.elf"
  if [ $RC -eq 2 ] && grep -q "^wpusim: WSIM_RTL_INJECT: wst has no output port 'bogus'; its outputs: nfree, free_idx, " "$ERR"; then ok
  else bad "WSIM_RTL_INJECT naming no output: exit $RC: $(head -c 300 "$ERR")"; fi
  # no Verilated build of the configuration's parameters
  run rtl-loop-params 60 "$RSIM" --rtl wst --policy DWS.ReviveSplit --set dws_entries=8 "$K/filter.elf"
  if [ $RC -eq 2 ] && grep -q "^wpusim: --rtl wst: no Verilated build of wst for this configuration's parameters: ENTRIES=8 WIDTH=16 WARPS=4 PC_W=32 CNT_W=16 MFC_W=16; built: dws (ENTRIES=16 WIDTH=16 WARPS=4 PC_W=32 CNT_W=16 MFC_W=16); .*To build one, add a line 'wst NAME ENTRIES=8 WIDTH=16 WARPS=4 PC_W=32 CNT_W=16 MFC_W=16' to sim/rtl_loop.params and run make wpusim-rtl" "$ERR"; then ok
  else bad "a parameter mismatch: exit $RC: $(head -c 600 "$ERR")"; fi
  run rtl-loop-conv 60 "$RSIM" --rtl wst "$K/filter.elf"
  if [ $RC -eq 2 ] && grep -q "^wpusim: --rtl wst: this configuration has no wst block" "$ERR"; then ok
  else bad "--rtl wst under Conv: exit $RC: $(head -c 300 "$ERR")"; fi
  run rtl-loop-noblock 60 "$RSIM" --rtl wst,nosuch --policy DWS.ReviveSplit "$K/filter.elf"
  if [ $RC -eq 2 ] && grep -q "^wpusim: --rtl nosuch: no such block; this build has the RTL of: wst (dws, maws, bsync)" "$ERR"; then ok
  else bad "--rtl nosuch: exit $RC: $(head -c 300 "$ERR")"; fi
  # waveforms of the Verilated blocks, one file per WPU
  rm -f "$T"/loop.wst.u*.fst
  run rtl-loop-wave 120 "$RSIM" --rtl wst --rtl-wave "$T/loop.fst" --policy DWS.ReviveSplit --threads 64 --quiet "$K/filter.elf"
  if [ $RC -eq 0 ] && [ "$(stat -c %s "$T/loop.wst.u0.fst" 2>/dev/null || echo 0)" -gt 10000 ] && [ -s "$T/loop.wst.u3.fst" ] \
     && ! grep -q Warning "$ERR"; then ok
  else bad "--rtl-wave: exit $RC: $(ls -la "$T"/loop.* 2>&1; head -c 300 "$ERR")"; fi
fi
fi

# ---------------------------------------------------------------- column picker
# The sub-warp column picker (rtl/ws_colpick.sv; docs/blocks/colpick.md): the
# random runs, lint, ports and waveform are the generic groups above. Here:
# replay (a logged random run, a corrupted one, one of other parameters, the
# hand-worked tests, traces wpusim records from whole kernels on lwm at two
# large-warp sizes), synthesis with post-synthesis runs, and the formal proof
# of its assertions with two mutants it must catch.
if [ "$RTL_TOOLS" = 1 ]; then
group rtl-colpick
# The set of tb/colpick.params matching a trace's parameter line, or nothing.
colpick_set_of() {
  local h r c
  h=$(zcat -f "$1" | grep -m 1 '^# colpick ')
  r=$(echo "$h" | sed -n 's/.*rows=\([0-9]*\).*/\1/p'); c=$(echo "$h" | sed -n 's/.*cols=\([0-9]*\).*/\1/p')
  grep -E "^[a-z0-9_]+ +ROWS=$r +COLS=$c *$" tb/colpick.params | awk '{ print $1; exit }'
}
cp_tb() { echo "$B/rtl/colpick/$1/rtl/colpick_tb"; }
run cp-gtkw 30 python3 tb/gtkw.py colpick lwm
if [ $RC -eq 0 ] && cmp -s "$OUT" tb/colpick.gtkw; then ok
else bad "tb/colpick.gtkw is out of date with cmodel/blocks/colpick.def: python3 tb/gtkw.py colpick lwm > tb/colpick.gtkw $(cat "$ERR")"; fi
if [ -x "$(cp_tb lwm)" ] && [ -x "$(cp_tb k4)" ]; then
  run cp-log 60 "$(cp_tb lwm)" +seed=7 +cycles=20000 +quiet +log="$T/cp-rand.trace"
  run cp-replay-log 120 "$(cp_tb lwm)" +replay="$T/cp-rand.trace"
  if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT" && [ "$(grep -c '^c=' "$T/cp-rand.trace")" -gt 10000 ]; then ok
  else bad "colpick: replay of a logged random run: exit $RC: $(tail -n 12 "$OUT" "$ERR")"; fi
  # the recorded thread count of the 500th clock line changed: the replay must name cnt_o
  awk '/^c=/ { n++ } n == 500 && !done && / cnt=[0-9a-f]+ / { if ($0 ~ / cnt=00 /) sub(/ cnt=00 /, " cnt=01 "); else sub(/ cnt=[0-9a-f]+ /, " cnt=00 "); done = 1 } { print }' \
      "$T/cp-rand.trace" > "$T/cp-bad.trace"
  run cp-replay-bad 120 "$(cp_tb lwm)" +replay="$T/cp-bad.trace" +window=8 +wave="$T/cp-bad.fst"
  if [ $RC -eq 1 ] && grep -q "cnt_o (recorded)" "$ERR" && [ -s "$T/cp-bad.fst" ]; then ok
  else bad "colpick: a corrupted trace was not rejected with a waveform: exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
  run cp-replay-params 60 "$(cp_tb k4)" +replay="$T/cp-rand.trace"
  if [ $RC -eq 3 ] && grep -q "built for" "$ERR"; then ok
  else bad "colpick: a trace of other parameters was not rejected: exit $RC: $(tail -n 5 "$ERR")"; fi
else
  bad "colpick: no lwm/k4 testbench to replay with"
fi
# the hand-worked tests (tests/blocks/colpick/NAME.in + .expect) on the RTL
for f in tests/blocks/colpick/*.in; do
  n=$(basename "$f" .in) s=$(colpick_set_of "$f")
  if [ -z "$s" ] || [ ! -x "$(cp_tb "$s")" ]; then bad "$f: no testbench for '$(grep -m 1 '^# colpick ' "$f")' in tb/colpick.params"; continue; fi
  run "cp-blocks-$n" 60 "$(cp_tb "$s")" +replay="$f" +expect="${f%.in}.expect" +wave="$T/cp-blocks-$n.fst"
  if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok
  else bad "$f on the RTL (set $s): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
done
# 512 threads: the C model refuses the trace, the RTL set k16 is random-only
run cp-toolarge 30 "$(cp_tb k16)" +replay=tests/blocks/colpick/toolarge.trace
if [ $RC -eq 2 ] && grep -q "rows x cols" "$ERR"; then ok
else bad "colpick: the 512-thread trace not refused by the k16 testbench: exit $RC: $(tail -n 3 "$ERR")"; fi
# whole kernels on lwm (tiny inputs), 256- and 64-thread large warps
if "$SIM" --help 2>&1 | grep -q -- "--record-block"; then
  for rec in "bfs 256" "histogram 256" "mandel 64" "bfs 64"; do
    set -- $rec
    elf=$B/kernels/$1.elf
    [ -f "$elf" ] || { bad "no kernel $elf to record"; continue; }
    tr=$T/cp-$1-$2.trace
    run "cp-rec-$1-$2" 120 "$SIM" --quiet --config lwm --policy LWM --arg 0 --set lwm_size="$2" --record-block colpick="$tr" "$elf"
    if [ $RC -ne 0 ] || [ ! -s "$tr" ]; then bad "colpick: recording $1 lwm_size=$2: exit $RC: $(head -c 400 "$ERR")"; continue; fi
    s=$(colpick_set_of "$tr")
    if [ -z "$s" ]; then bad "colpick: $1: no set in tb/colpick.params for '$(sed -n 2p "$tr")'"; continue; fi
    run "cp-replay-$1-$2" 300 "$(cp_tb "$s")" +replay="$tr" +window=16 +wave="$T/cp-$1-$2.fst"
    if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT" && [ "$(grep -c '^c=' "$tr")" -gt 2000 ]; then ok
    else bad "colpick: replay of $1 lwm_size=$2 (set $s, $(grep -c '^c=' "$tr") lines): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
  done
else
  echo "  (rtl-colpick: $SIM has no --record-block; recorded-trace replay skipped)"
fi
# synthesis: exactly the working copy's ROWS x COLS flip-flops; the netlist
# passes the random testbench and a hand-worked test
for s in $($RTL_MAKE rtl-net-sets BLOCK=colpick); do
  run "cp-synth-$s" 900 $RTL_MAKE "$B/synth/colpick-$s.stat"
  if [ $RC -ne 0 ]; then bad "synthesis of colpick $s: $(tail -n 10 "$OUT" "$ERR")"; continue; fi
  set -- $(grep -E "^$s " tb/colpick.params); shift
  for kv in "$@"; do eval "P_${kv%%=*}=${kv#*=}"; done
  got=$(awk '$1 ~ /^DFF/ { n += $2 } END { print n + 0 }' "$B/synth/colpick-$s.stat")
  area=$(sed -n 's/.*Chip area for module .*: \([0-9.]*\).*/\1/p' "$B/synth/colpick-$s.stat")
  if [ "$got" = "$((P_ROWS * P_COLS))" ] && [ -n "$area" ]; then ok
  else bad "colpick $s: $got flip-flops after synthesis, the working copy is $((P_ROWS * P_COLS)) bits (area '$area')"; fi
  nettb=$B/rtl/colpick/$s/net/colpick_tb
  [ -x "$nettb" ] || { bad "no post-synthesis testbench $nettb"; continue; }
  run "cp-net-$s" 300 "$nettb" +seed=3 +cycles=$((RTL_CYCLES / 2)) +quiet +wave="$T/cp-net-$s.fst"
  if [ $RC -eq 0 ] && grep -q "PASS" "$OUT"; then ok
  else bad "post-synthesis colpick $s (replay: $nettb +seed=3): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
  for f in tests/blocks/colpick/*.in; do
    [ "$(colpick_set_of "$f")" = "$s" ] || continue
    run "cp-net-blocks-$s" 60 "$nettb" +replay="$f" +expect="${f%.in}.expect" +wave="$T/cp-net-blocks-$s.fst"
    if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok
    else bad "$f on the netlist of set $s: exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
  done
done
# formal: Yosys proves the 13 assertions (make formal, default set dep4); a
# picker that takes the highest row, and one that never clears picked bits,
# are caught, each naming the broken assertion (the second: a picked thread
# still in the working copy)
# (ABC's PDR: the 4 x 4 set and 004's 8 x 32, which k-induction does not finish)
run cp-formal 300 $RTL_MAKE formal BLOCK=colpick
if [ $RC -eq 0 ] && grep -q "^formal: colpick dep4: 13 assertions proven in every reachable state" "$OUT" \
   && grep -q "^formal: colpick lwm: 13 assertions proven in every reachable state (PDR" "$OUT"; then ok
else bad "colpick: make formal: exit $RC: $(tail -n 8 "$OUT" "$ERR")"; fi
awk '/^  always_comb begin : pick_columns/ { p = 1 } p && /for \(int r = 0; r < ROWS; r\+\+\)/ { sub(/int r = 0; r < ROWS; r\+\+/, "int r = ROWS - 1; r >= 0; r--"); p = 0 } { print }' \
    rtl/ws_colpick.sv > "$T/cp-highest.sv"
sed 's/^      work_d = rest;$/      work_d = src;/' rtl/ws_colpick.sv > "$T/cp-noclear.sv"
for m in "highest lowest_row_first" "noclear work_disjoint_done"; do
  set -- $m
  if cmp -s rtl/ws_colpick.sv "$T/cp-$1.sv"; then bad "colpick: the $1 mutant did not change the RTL"; continue; fi
  run "cp-formal-$1" 300 $RTL_MAKE formal BLOCK=colpick FORMAL_SV="$T/cp-$1.sv" RTL_OUT="$T/fml-$1"
  if [ $RC -ne 0 ] && grep -q "^formal: colpick dep4: FAIL: [0-9]* clocks after reset: assertion failed:.* $2" "$OUT" \
     && [ -s "$T/fml-$1/colpick/dep4/formal.vcd" ]; then ok
  else bad "colpick: formal did not catch the $1 mutant with $2: exit $RC: $(tail -n 6 "$OUT" "$ERR")"; fi
done
fi

# ---------------------------------------------------------------- the PRT
# The partitioned register table (rtl/ws_prt.sv; 003 §IV-B; its random runs,
# lint, ports and wave are in the groups above): its GTKWave layout, the
# hand-worked test on the RTL and the netlist, traces wpusim records from
# SpMV on the vector core (t = 4 and 16) replayed, a corrupted trace and a
# trace of other parameters refused, its flip-flops (exactly the slot table)
# and netlists, and a mutant that takes the highest free block caught.
group rtl-prt
PRT=$B/rtl/prt
run prt-gtkw 30 python3 tb/gtkw.py prt aurora
if [ $RC -eq 0 ] && cmp -s "$OUT" tb/prt.gtkw; then ok
else bad "tb/prt.gtkw is out of date with cmodel/blocks/prt.def: python3 tb/gtkw.py prt aurora > tb/prt.gtkw $(cat "$ERR")"; fi
run prt-hand 60 "$PRT/hand/rtl/prt_tb" +replay=tests/blocks/prt/basic.in +expect=tests/blocks/prt/basic.expect
if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok; else bad "prt basic on the RTL: exit $RC: $(tail -n 8 "$OUT" "$ERR")"; fi
python3 scripts/mtx.py mycielski 8 "$T/prt-myc8.mtx" && python3 scripts/mtx.py convert "$T/prt-myc8.mtx" "$T/prt-myc8.bin"
for c in "4 vector" "16 t16"; do
  set -- $c
  run "prt-rec-$1" 120 "$SIM" --quiet --config vector --set warps=$1 --input matrix="$T/prt-myc8.bin" \
      --record-block prt="$T/prt-$1.trace" "$B/kernels/irregular/spmv.elf"
  if [ $RC -ne 0 ] || [ ! -s "$T/prt-$1.trace" ]; then bad "prt: recording SpMV at t=$1: exit $RC: $(head -c 300 "$ERR")"; continue; fi
  run "prt-replay-$1" 300 "$PRT/$2/rtl/prt_tb" +replay="$T/prt-$1.trace" +window=16 +wave="$T/prt-$1.fst"
  if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT" && grep -q "launches" "$OUT"; then ok
  else bad "prt: replay of SpMV at t=$1 on set $2: exit $RC: $(tail -n 10 "$OUT" "$ERR")"; fi
done
awk 'NR == 200 { sub(/alloc_ok=1/, "alloc_ok=X"); sub(/alloc_ok=0/, "alloc_ok=1"); sub(/alloc_ok=X/, "alloc_ok=0") } { print }' \
    "$T/prt-4.trace" > "$T/prt-bad.trace"
run prt-replay-bad 120 "$PRT/vector/rtl/prt_tb" +replay="$T/prt-bad.trace" +window=8 +wave="$T/prt-bad.fst"
if [ $RC -eq 1 ] && grep -q "alloc_ok_o (recorded)" "$ERR"; then ok
else bad "prt: a corrupted trace was not rejected: exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
run prt-replay-params 60 "$PRT/aurora/rtl/prt_tb" +replay="$T/prt-4.trace"
if [ $RC -eq 3 ]; then ok; else bad "prt: a trace of other parameters was not rejected: exit $RC: $(tail -n 5 "$ERR")"; fi
for s in $($RTL_MAKE -s rtl-net-sets BLOCK=prt); do
  run "prt-synth-$s" 900 $RTL_MAKE "$B/synth/prt-$s.stat"
  if [ $RC -ne 0 ]; then bad "synthesis of prt $s: $(tail -n 10 "$OUT" "$ERR")"; continue; fi
  set -- $(grep -E "^$s " tb/prt.params); shift
  for kv in "$@"; do eval "P_${kv%%=*}=${kv#*=}"; done
  # the slot table: valid, vl, and the base's bits that differ between blocks
  # (Yosys drops the constant ones and merges bits that move together)
  want=$(python3 -c "
P, R, F, V = $P_PARTS, $P_REGS, $P_PHYS, $P_VL_W
bases = [b * R for b in range(F // R)]
cols = {tuple((x >> k) & 1 for x in bases) for k in range(16)}
print(P * (1 + V + sum(1 for c in cols if len(set(c)) > 1)))")
  got=$(awk '$1 ~ /^DFF/ { n += $2 } END { print n + 0 }' "$B/synth/prt-$s.stat")
  if [ "$got" = "$want" ]; then ok; else bad "prt $s: $got flip-flops after synthesis, the slot table is $want bits"; fi
  run "prt-net-$s" 600 "$PRT/$s/net/prt_tb" +seed=3 +cycles=$((RTL_CYCLES / 4)) +quiet
  if [ $RC -eq 0 ] && grep -q "PASS" "$OUT"; then ok; else bad "post-synthesis prt $s: exit $RC: $(tail -n 8 "$OUT" "$ERR")"; fi
done
run prt-net-hand 60 "$PRT/hand/net/prt_tb" +replay=tests/blocks/prt/basic.in +expect=tests/blocks/prt/basic.expect
if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok; else bad "prt basic on the netlist: exit $RC: $(tail -n 8 "$OUT" "$ERR")"; fi
# a mutant whose free-block search takes the highest block: the testbench must catch it
mkdir -p "$T/prt-mut"
sed 's/if (!used\[b\] \&\& !blk_found) begin/if (!used[b]) begin/' rtl/ws_prt.sv > "$T/prt-mut/ws_prt.sv"
if cmp -s rtl/ws_prt.sv "$T/prt-mut/ws_prt.sv"; then bad "prt mutant: the sed no longer applies"
else
  run prt-mut-build 900 env MAKEFLAGS= verilator --cc --exe --build -j 2 --trace-fst --prefix Vdut -Wno-fatal --assert -Irtl \
      --top-module ws_prt -Mdir "$T/prt-mut/obj" -GPARTS=4 -GREGS=16 -GPHYS=64 -GVL_W=9 -GPORTS=8 \
      -CFLAGS "-I$PWD/tb/common -iquote $PWD/cmodel -DTB_PARTS=4 -DTB_REGS=16 -DTB_PHYS=64 -DTB_VL_W=9 -DTB_PORTS=8" \
      "$T/prt-mut/ws_prt.sv" "$PWD/tb/prt_tb.cpp" "$PWD/tb/common/tb_main.cpp" $(ls "$PWD/$B"/rtl/cobj/*.o) -o prt_tb
  run prt-mut 120 "$T/prt-mut/obj/prt_tb" +seed=1 +cycles=20000 +quiet +wave="$T/prt-mut.fst"
  if [ $RC -eq 1 ] && grep -q "FAIL at clock" "$OUT" "$ERR"; then ok
  else bad "prt: a table taking the highest free block was not caught: exit $RC: $(tail -n 6 "$OUT" "$ERR")"; fi
fi
# its six assertions proven (k-induction; hand, scarce, aurora: 1-2 min of
# CPU), and the mutant above refused by the proof too, naming alloc_lowest_free
run prt-formal 900 $RTL_MAKE formal BLOCK=prt
if [ $RC -eq 0 ] && [ "$(grep -c "^formal: prt [a-z]*: 6 assertions proven in every reachable state" "$OUT")" = 3 ]; then ok
else bad "make formal BLOCK=prt: exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
if [ -s "$T/prt-mut/ws_prt.sv" ]; then
  run prt-formal-mutant 600 $RTL_MAKE formal BLOCK=prt SET=hand FORMAL_SV="$T/prt-mut/ws_prt.sv" RTL_OUT="$T/fml-prt"
  if [ $RC -ne 0 ] && grep -q "^formal: prt hand: FAIL: [0-9]* clocks after reset: assertion failed:.* alloc_lowest_free" "$OUT"; then ok
  else bad "make formal did not reject a PRT taking the highest free block: exit $RC: $(tail -n 6 "$OUT" "$ERR")"; fi
fi
# RTL in the loop (build/wpusim-rtl, set vector): SpMV on the vector preset
# with the PRT's RTL alone (replace: statistics, results, instruction and
# port traces identical to the C-only run), beside the C block (lockstep:
# every output equal every clock) and with an injected mismatch (stopped).
RSIM=$B/wpusim-rtl
if [ -x "$RSIM" ]; then
  A=(--config vector --stats json --input matrix="$T/prt-myc8.bin")
  run prt-loop-c 120 "$SIM" "${A[@]}" --dump "$T/pl-c.bin" --trace "$T/pl-c.tr" --record-block prt="$T/pl-c.blk" "$B/kernels/irregular/spmv.elf"
  cp "$OUT" "$T/pl-c.json"
  run prt-loop-r 600 "$RSIM" --rtl prt "${A[@]}" --dump "$T/pl-r.bin" --trace "$T/pl-r.tr" --record-block prt="$T/pl-r.blk" "$B/kernels/irregular/spmv.elf"
  edges=$(sed -n "s/.*replace mode: prt (set vector) x[0-9]*: \([0-9]*\) clock edges.*/\1/p" "$ERR")
  if [ $RC -eq 0 ] && [ "${edges:-0}" -gt 1000 ] && cmp -s "$T/pl-c.json" "$OUT" && cmp -s "$T/pl-c.bin" "$T/pl-r.bin" \
     && cmp -s "$T/pl-c.tr" "$T/pl-r.tr" && cmp -s "$T/pl-c.blk" "$T/pl-r.blk"; then ok
  else bad "replace prt: SpMV on vector: exit $RC, ${edges:-no} RTL clock edges: $(cmp "$T/pl-c.json" "$OUT" 2>&1; cmp "$T/pl-c.blk" "$T/pl-r.blk" 2>&1; head -c 300 "$ERR")"; fi
  run prt-loop-lock 600 "$RSIM" --rtl prt --rtl-mode lockstep "${A[@]}" "$B/kernels/irregular/spmv.elf"
  if [ $RC -eq 0 ] && grep -q "every output equal to the C model's" "$ERR" && cmp -s "$T/pl-c.json" "$OUT"; then ok
  else bad "lockstep prt: exit $RC: $(tail -c 400 "$ERR")"; fi
  run prt-loop-inject 600 env WSIM_RTL_INJECT=prt:100 "$RSIM" --rtl prt --rtl-mode lockstep "${A[@]}" "$B/kernels/irregular/spmv.elf"
  if [ $RC -eq 3 ] && grep -q "lockstep mismatch at cycle [0-9]*, WPU 0, block prt" "$ERR"; then ok
  else bad "lockstep prt with an injected mismatch: want exit 3; got $RC: $(tail -c 400 "$ERR")"; fi
else
  bad "no $RSIM for the PRT in the loop"
fi
