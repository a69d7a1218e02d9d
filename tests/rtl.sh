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
  # BLOCK KERNEL PRESET POLICY SET: every set built in, DWS and MAWS legends
  # (a block joins the loop with its lines here: docs/rtl.md, RTL in the loop)
  while read -r blk k p pol set; do
    n="rtl-loop-$blk-$k-$pol" rec=() recr=()
    if [ "$blk" != asc ]; then rec=(--record-block "$blk=$T/$n-c.blk"); recr=(--record-block "$blk=$T/$n-r.blk"); fi
    run "$n-c" 120 "$SIM" --config "$p" --policy "$pol" --stats json --dump "$T/$n-c.bin" --trace "$T/$n-c.tr" \
      "${rec[@]}" "$K/$k.elf"
    cp "$OUT" "$T/$n-c.json"; crc=$RC
    run "$n-r" 300 "$RSIM" --rtl "$blk" --config "$p" --policy "$pol" --stats json --dump "$T/$n-r.bin" \
      --trace "$T/$n-r.tr" "${recr[@]}" "$K/$k.elf"
    edges=$(sed -n "s/.*replace mode: $blk (set $set) x[0-9]*: \([0-9]*\) clock edges.*/\1/p" "$ERR")
    if [ $crc -eq 0 ] && [ $RC -eq 0 ] && [ "${edges:-0}" -gt 1000 ] && cmp -s "$T/$n-c.json" "$OUT" \
       && cmp -s "$T/$n-c.bin" "$T/$n-r.bin" && cmp -s "$T/$n-c.tr" "$T/$n-r.tr" \
       && { [ "$blk" = asc ] || cmp -s "$T/$n-c.blk" "$T/$n-r.blk"; }; then ok
    else bad "replace $blk: $k $p $pol: exit $crc / $RC, ${edges:-no} RTL clock edges (set $set), stats/results/traces identical? $(cmp "$T/$n-c.json" "$OUT" 2>&1; cmp "$T/$n-c.bin" "$T/$n-r.bin" 2>&1; cmp "$T/$n-c.tr" "$T/$n-r.tr" 2>&1; cmp "$T/$n-c.blk" "$T/$n-r.blk" 2>&1; head -c 300 "$ERR")"; fi
  done <<'EOT'
wst filter dws DWS.ReviveSplit dws
wst kmeans dws DWS.ReviveSplit dws
wst merge dws DWS.LazySplit dws
wst lu maws-bulksync MAWS.LatSpec bsync
wst svm maws-bulksync MAWS.LatSpec bsync
wst fft maws-coherent MAWS.LatSpec.RR maws
EOT
  # lockstep: passes on whole kernels, same statistics as C-only
  for c in "filter dws DWS.ReviveSplit" "lu maws-bulksync MAWS.LatSpec"; do
    set -- $c
    run "rtl-loop-ls-$1" 300 "$RSIM" --rtl wst --rtl-mode lockstep --config "$2" --policy "$3" --stats json "$K/$1.elf"
    if [ $RC -eq 0 ] && grep -q "lockstep mode: wst .* clock edges, .*, every output equal to the C model's" "$ERR" \
       && cmp -s "$OUT" "$T/rtl-loop-wst-$1-$3-c.json"; then ok
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
