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
for s in $($RTL_MAKE rtl-net-pairs | tr ' ' '\n' | sed -n 's|^asc/||p'); do
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
# Formal: every assertion proven by induction (FORMAL_SETS_asc); a mutant
# whose counters wrap must fail, with the counterexample from reset.
run rtl-asc-formal 600 $RTL_MAKE formal BLOCK=asc
if [ $RC -eq 0 ] && [ "$(grep -c "every assertion proven" "$OUT")" -ge 4 ]; then ok
else bad "make formal BLOCK=asc: exit $RC: $(tail -n 8 "$OUT" "$ERR")"; fi
mkdir -p "$T/ascm"; cp rtl/*.svh "$T/ascm/"
sed 's/if (up\[t\] && c != CNT_MAX) begin/if (up[t]) begin/' rtl/ws_asc.sv > "$T/ascm/ws_asc.sv"
run rtl-asc-formal-mutant 300 yosys -q -l "$T/ascm/log" -p "read_verilog -sv -formal -I$T/ascm $T/ascm/ws_asc.sv; \
  chparam -set WIDTH 4 -set WARPS 2 -set CNT_W 2 -set MAX0 2 ws_asc; script synth/formal.ys; \
  sat -tempinduct -prove-asserts -set-assumes -set-at 1 rst_ni 0 -seq 1 -maxsteps 8 -verify"
if ! cmp -s rtl/ws_asc.sv "$T/ascm/ws_asc.sv" && [ $RC -ne 0 ] && grep -q "model found for base case: FAIL" "$T/ascm/log"; then ok
else bad "a counter that wraps was not caught by the formal check: exit $RC"; fi
# WSIM_TEST_LONG=1: eight single-rule mutants of the RTL, each caught by the
# random testbench (~70 s of CPU).
if [ "$LONG" = 1 ]; then
  run rtl-asc-mutants 1800 bash tests/blocks/asc/rtl_mutants.sh "$B"
  if [ $RC -eq 0 ]; then ok; else bad "an RTL mutant of the ASC survived: $(grep -v caught "$OUT" | head -5; head -c 300 "$ERR")"; fi
fi

fi
