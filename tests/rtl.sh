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
# make wave without a display writes the waveform and says where it is and
# how to open it; make wave-shot opens it in GTKWave with the block's save
# file on a virtual display (Xvfb) and photographs the screen. The traces
# GTKWave draws are green: with the save file's signals they cover ~2% of
# the screen (wst), with none 0 — under 0.5% fails.
group rtl-wave
for b in $(for p in $RTL_PAIRS; do echo "${p%%/*}"; done | sort -u); do
  run "rtl-wave-$b" 600 env -u DISPLAY -u WAYLAND_DISPLAY $RTL_MAKE wave BLOCK=$b
  f=$(sed -n 's/^wave: wrote \([^;]*\); no display here.*/\1/p' "$OUT")
  if [ $RC -eq 0 ] && [ -n "$f" ] && [ -s "$f" ] && grep -q "gtkwave $f tb/$b.gtkw" "$OUT"; then ok
  else bad "make wave BLOCK=$b without a display: exit $RC: $(head -c 400 "$OUT"; head -c 300 "$ERR")"; continue; fi
  run "rtl-wave-shot-$b" 120 bash scripts/wave_shot.sh "$f" tb/$b.gtkw "$T/$b-wave.png"
  green=$(convert "$T/$b-wave.png" -fuzz 25% -fill black +opaque "#00ff00" -fill white -opaque "#00ff00" \
          -format '%[fx:round(mean*10000)]' info: 2>/dev/null)
  if [ $RC -eq 0 ] && [ "${green:-0}" -ge 50 ]; then ok
  else bad "GTKWave under Xvfb with tb/$b.gtkw: exit $RC, traces on ${green:-?}/10000 of the screenshot: $(head -c 300 "$ERR")"; fi
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
run cp-formal 300 $RTL_MAKE formal BLOCK=colpick
if [ $RC -eq 0 ] && grep -q "13 assertions proven in every reachable state" "$OUT"; then ok
else bad "colpick: make formal: exit $RC: $(tail -n 8 "$OUT" "$ERR")"; fi
awk '/^  always_comb begin : pick_columns/ { p = 1 } p && /for \(int r = 0; r < ROWS; r\+\+\)/ { sub(/int r = 0; r < ROWS; r\+\+/, "int r = ROWS - 1; r >= 0; r--"); p = 0 } { print }' \
    rtl/ws_colpick.sv > "$T/cp-highest.sv"
sed 's/^      work_d = rest;$/      work_d = src;/' rtl/ws_colpick.sv > "$T/cp-noclear.sv"
for m in "highest lowest_row_first" "noclear work_disjoint_done"; do
  set -- $m
  if cmp -s rtl/ws_colpick.sv "$T/cp-$1.sv"; then bad "colpick: the $1 mutant did not change the RTL"; continue; fi
  run "cp-formal-$1" 300 $RTL_MAKE formal BLOCK=colpick FORMAL_SV="$T/cp-$1.sv"
  if [ $RC -ne 0 ] && grep -q "assertion failed:.* $2" "$OUT"; then ok
  else bad "colpick: formal did not catch the $1 mutant with $2: exit $RC: $(tail -n 6 "$OUT" "$ERR")"; fi
done
fi
