# The RTL flow's tests: a library sourced by the rtl* group files
# (tests/groups/90-rtl.sh .. 97-rtl-loop.sh), which use tests/run.sh's
# group/ok/bad/run, $B and $T. rtl_flow_groups: lint and the port tables of
# every block and set; rtl_block_group BLOCK: one group per block, rtl-BLOCK,
# from the same steps and the block's rows in tests/groups/rtl-*.tsv (its
# testbenches built, a random run of every set, the waveform and its view,
# replay, hand-worked tests, recorded kernels, synthesis, netlists, the
# proof and its mutants); rtl_loop_group: RTL in the loop. The block groups
# and the loop read nothing of each other's and build only their own
# targets (the objects they share, `make rtl-prereqs`, come first, from
# make test-deps), so they run side by side. Everything is built through
# make (tb/flow.mk, docs/rtl.md). WSIM_TEST_LONG=1 runs the random
# testbenches ten times longer and simulates every set's netlist.

# (the netlists' runs: RTL_NET_CYCLES / the block's divisor, in both tiers:
# the long tier simulates every set's netlist, not longer runs of them)
RTL_TIER=test RTL_CYCLES=200000 RTL_NET_CYCLES=200000
[ "$LONG" = 1 ] && RTL_TIER=long RTL_CYCLES=2000000
RTL_MAKE="make --no-print-directory -s BUILD=$B RTL_TIER=$RTL_TIER"

rtl_tools() { # sets RTL_TOOLS (1: verilator and yosys are here)
  if command -v verilator >/dev/null && command -v yosys >/dev/null; then RTL_TOOLS=1
  else
    RTL_TOOLS=0
    bad "verilator and yosys are needed for the RTL tests and are missing: run 'make setup' (scripts/setup.sh installs verilator, yosys, gtkwave)"
  fi
}

rtl_flow_groups() {
group rtl-tools
rtl_tools
[ "$RTL_TOOLS" = 1 ] || return 0
ok
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

}

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
rtl_wave() { # rtl_wave BLOCK
  local b=$1 f v start zoom shown unit enc green
  run "rtl-wave-$b" 600 env -u DISPLAY -u WAYLAND_DISPLAY $RTL_MAKE wave BLOCK=$b
  f=$(sed -n 's/^wave: wrote \([^;]*\); no display here.*/\1/p' "$OUT")
  v=${f%.fst}.gtkw
  if [ $RC -eq 0 ] && [ -n "$f" ] && [ -s "$f" ] && [ -s "$v" ] && grep -q "gtkwave $f $v" "$OUT"; then ok
  else bad "make wave BLOCK=$b without a display: exit $RC: $(head -c 400 "$OUT"; head -c 300 "$ERR")"; return 0; fi
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
}

# ---------------------------------------------------------------- the blocks
# One group per block, rtl-BLOCK, all from the same steps; what differs
# between blocks is data: tests/groups/rtl-blocks.tsv (sets, the logged run,
# the flip-flop formula, the proofs), rtl-records.tsv (whole kernels
# recorded by wpusim), rtl-mutants.tsv (mutants that must be caught), and the
# hand-worked tests in tests/blocks/BLOCK/. The steps: the GTKWave view;
# a logged random run replayed, corrupted and refused on other parameters;
# the hand-worked tests on the RTL and the netlists; recorded kernels
# replayed; synthesis (flip-flops = the contract's state) and netlist runs;
# the proof and its mutants.

rtl_tb() { echo "$B/rtl/$1/$2/$3/$1_tb"; } # rtl_tb BLOCK SET rtl|net
# rtl_set_of BLOCK TRACE: the set of tb/BLOCK.params whose parameters are the
# trace header's (the header names them by their C members: BLOCK_PARAM rows
# of cmodel/blocks/BLOCK.def), or nothing.
rtl_set_of() {
  { sed -n 's/^BLOCK_PARAM(\([A-Z0-9_]*\), *\([a-z0-9_]*\),.*/\2 \1/p' "cmodel/blocks/$1.def"; echo "--"
    zcat -f "$2" | grep -m 1 "^# $1 "; echo "--"; grep -v '^#' "tb/$1.params"; } |
  awk 'sec == 0 && $0 == "--" { sec = 1; next }
       sec == 1 && $0 == "--" { sec = 2; next }
       sec == 0 { name[$1] = $2; next }
       sec == 1 { for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] in name) { want[name[kv[1]]] = kv[2]; n++ } } next }
       sec == 2 && NF > 1 { m = 0; for (i = 2; i <= NF; i++) { split($i, kv, "="); if (!(kv[1] in want) || want[kv[1]] != kv[2]) next; m++ }
                            if (m == n) { print $1; exit } }'
}
# rtl_flip TRACE FIELD N OUT: TRACE with the value of FIELD on its Nth clock
# line that has it changed (0 -> 1, anything else -> 0, same width); prints
# the replay's clock of that line (a replay clocks once per clock line, from 0).
rtl_flip() {
  awk -v f="$2" -v nth="$3" -v out="$4" '
    /^c=/ { clock = lines++ }
    /^c=/ && index($0, " " f "=") && ++n == nth {
      for (i = 1; i <= NF; i++) if (index($i, f "=") == 1) {
        v = substr($i, length(f) + 2); z = v; gsub(/./, "0", z)
        $i = f "=" (v == z ? substr(z, 2) "1" : z)
      }
      print clock
    }
    { print > out }' "$1"
}
rtl_rows() { # rtl_rows TABLE BLOCK: the table's rows of BLOCK
  grep -v '^#' "tests/groups/$1" | awk -F '\t' -v b="$2" '$1 == b'
}

rtl_block_group() {
  local b=$1 gtkw lset oset seed cycles lines field nth netdiv proofs asserts state
  group "rtl-$b"
  rtl_tools
  [ "$RTL_TOOLS" = 1 ] || return 0
  IFS=$'\t' read -r _ gtkw lset oset seed cycles lines field nth netdiv proofs asserts state <<<"$(rtl_rows rtl-blocks.tsv "$b")"
  [ -n "$gtkw" ] || { bad "$b: no row in tests/groups/rtl-blocks.tsv"; return 0; }
  local tb f n s kind want clk p sets
  [ "$b" = prt ] && rtl_prt_matrix

  # the block's testbenches, every set on the RTL and the chosen sets'
  # netlists (make tb-BLOCK); each set against its C block, every port every
  # clock: the run fails on any mismatch, failed assertion or coverage point
  # not hit. (The build's timeout guards against a hang, not a budget.)
  run "rtl-$b-build" 3600 $RTL_MAKE -j2 "tb-$b"
  if [ $RC -ne 0 ]; then bad "building the testbenches of $b: $(tail -n 20 "$OUT" "$ERR")"; fi
  sets=$($RTL_MAKE rtl-sets BLOCK="$b")
  for s in $sets; do
    tb=$(rtl_tb "$b" "$s" rtl)
    [ -x "$tb" ] || { bad "$b/$s: no testbench $tb"; continue; }
    run "rtl-tb-$b-$s" $((RTL_CYCLES / 1000 + 100)) "$tb" +seed=1 +cycles=$RTL_CYCLES +quiet +wave="$T/$b-$s.fst"
    if [ $RC -eq 0 ] && grep -q "PASS" "$OUT"; then ok
    else bad "$b/$s random run (replay: $tb +seed=1 +cycles=$RTL_CYCLES): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
  done
  rtl_wave "$b"

  # the GTKWave layout is the one tb/gtkw.py writes from the port table
  run "rtl-$b-gtkw" 30 python3 tb/gtkw.py "$b" "$gtkw"
  if [ $RC -eq 0 ] && cmp -s "$OUT" "tb/$b.gtkw"; then ok
  else bad "tb/$b.gtkw is out of date with cmodel/blocks/$b.def: python3 tb/gtkw.py $b $gtkw > tb/$b.gtkw $(cat "$ERR")"; fi

  # a logged random run replays; corrupted, it is rejected at the clock of
  # the change, naming the port, with a waveform and a view that opens on
  # that clock (a clock is 10 ns); a testbench of other parameters refuses it
  tb=$(rtl_tb "$b" "$lset" rtl)
  if [ -x "$tb" ] && [ -x "$(rtl_tb "$b" "$oset" rtl)" ]; then
    run "rtl-$b-log" 120 "$tb" +seed="$seed" +cycles="$cycles" +quiet +log="$T/$b-rand.trace"
    run "rtl-$b-replay-log" 120 "$tb" +replay="$T/$b-rand.trace"
    n=$(grep -c '^c=' "$T/$b-rand.trace")
    if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT" && [ "$n" -ge "$lines" ]; then ok
    else bad "$b: replay of a logged random run ($n clock lines, want >= $lines): exit $RC: $(tail -n 12 "$OUT" "$ERR")"; fi
    clk=$(rtl_flip "$T/$b-rand.trace" "$field" "$nth" "$T/$b-bad.trace")
    run "rtl-$b-replay-bad" 120 "$tb" +replay="$T/$b-bad.trace" +window=8 +wave="$T/$b-bad.fst"
    if [ -n "$clk" ] && [ $RC -eq 1 ] && grep -q "^FAIL at clock $clk: port ${field}_o (recorded)" "$ERR" && [ -s "$T/$b-bad.fst" ]; then ok
    else bad "$b: a trace with ${field}_o changed at clock ${clk:-?} was not rejected there with a waveform: exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
    if [ -n "$clk" ] && grep -q "^${b}_tb: open it at the failing clock: gtkwave $T/$b-bad.fst $T/$b-bad.gtkw$" "$OUT" \
       && grep -q "^\*[-0-9.]* $((clk * 10)) " "$T/$b-bad.gtkw" \
       && [ "$(sed -n 's/^\[timestart\] //p' "$T/$b-bad.gtkw")" -le $((clk * 10)) ]; then ok
    else bad "$b: no view at the failing clock ${clk:-?}: $(grep -m1 'open it' "$OUT") $(grep -m2 '^\*\|timestart' "$T/$b-bad.gtkw" 2>/dev/null)"; fi
    run "rtl-$b-replay-params" 60 "$(rtl_tb "$b" "$oset" rtl)" +replay="$T/$b-rand.trace"
    if [ $RC -eq 3 ] && grep -q "built for" "$ERR"; then ok
    else bad "$b: a trace of other parameters (set $lset on $oset) was not refused: exit $RC: $(tail -n 5 "$ERR")"; fi
  else
    bad "$b: no testbench of sets $lset and $oset to replay with"
  fi

  # The hand-worked tests (tests/blocks/BLOCK/NAME.in + .expect, which the C
  # replayer checks in the dws group) on the RTL of their set and on its
  # netlist where that is built. A test whose .in says '# rtl-assert: NAME'
  # drives an input the RTL assumes away: the RTL must stop with that
  # assertion; the netlist, which has none, must give every expected row.
  for f in tests/blocks/"$b"/*.in; do
    n=$(basename "$f" .in) s=$(rtl_set_of "$b" "$f")
    want=$(sed -n 's/^# rtl-assert: \([a-z_0-9]*\).*/\1/p' "$f")
    if [ -z "$s" ] || [ ! -x "$(rtl_tb "$b" "$s" rtl)" ]; then
      bad "$f: no testbench for '$(grep -m 1 "^# $b " "$f")' in tb/$b.params"; continue; fi
    for kind in rtl net; do
      tb=$(rtl_tb "$b" "$s" $kind)
      [ -x "$tb" ] || continue
      run "rtl-$b-blocks-$kind-$n" 60 "$tb" +replay="$f" +expect="${f%.in}.expect" +wave="$T/$b-blocks-$kind-$n.fst"
      if [ $kind = rtl ] && [ -n "$want" ]; then
        if [ $RC -eq 1 ] && cat "$OUT" "$ERR" | grep -q "Assertion failed in TOP.ws_$b.$want"; then ok
        else bad "$f on the RTL (set $s): want the assertion $want, got exit $RC: $(tail -n 8 "$ERR")"; fi
      elif [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT"; then ok
      else bad "$f on the $kind of set $s: exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
    done
  done
  # whole kernels recorded by wpusim, replayed on the set of their header
  local tr k min match replay args argv
  while IFS=$'\t' read -r -u 3 _ tr k min match replay args; do
    [ -n "$tr" ] || continue
    n=${tr%%.trace*} tr=$T/$tr
    read -ra argv <<<"${args//'$T'/$T}"
    [ -f "$B/kernels/$k.elf" ] || { bad "$b: no kernel $B/kernels/$k.elf to record"; continue; }
    run "rtl-$b-rec-$n" 300 "$SIM" --quiet "${argv[@]}" --record-block "$b=$tr" "$B/kernels/$k.elf"
    local got; got=$(zcat -f "$tr" 2>/dev/null | grep -Ec -- "$match")
    if [ $RC -ne 0 ] || [ "${got:-0}" -lt "$min" ]; then
      bad "$b: recording $k ($args): exit $RC, ${got:-0} lines matching '$match' (want >= $min): $(head -c 400 "$ERR")"; continue; fi
    s=$(rtl_set_of "$b" "$tr")
    if [ -z "$s" ]; then bad "$b: $k ($args): no set in tb/$b.params for '$(zcat -f "$tr" | grep -m 1 "^# $b ")'"; continue; fi
    run "rtl-$b-replay-$n" 600 "$(rtl_tb "$b" "$s" rtl)" +replay="$tr" +window=16 +wave="$T/$n.fst"
    if [ $RC -eq 0 ] && grep -q "all outputs match" "$OUT" && { [ "$replay" = - ] || grep -Eq -- "$replay" "$OUT"; }; then ok
    else bad "$b: replay of $k ($args; set $s, $got lines matching '$match'; the replay must match all outputs$([ "$replay" = - ] || echo " and print '$replay'")): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
  done 3<<<"$(rtl_rows rtl-records.tsv "$b")"

  # synthesis keeps exactly the contract's state (STATE) and reports an
  # area; the netlist passes the random testbench
  local got area
  for s in $($RTL_MAKE -s rtl-net-sets BLOCK="$b"); do
    run "rtl-$b-synth-$s" 900 $RTL_MAKE "$B/synth/$b-$s.stat"
    if [ $RC -ne 0 ]; then bad "synthesis of $b $s: $(tail -n 10 "$OUT" "$ERR")"; continue; fi
    want=$(python3 -c 'import sys
g = {k: int(v) for k, v in (kv.split("=") for kv in sys.argv[2].split()[1:])}
g["c2"] = lambda n: max(1, (n - 1).bit_length())
print(eval(sys.argv[1], g))' "$state" "$(grep -E "^$s " "tb/$b.params")")
    got=$(awk '$1 ~ /^DFF/ { n += $2 } END { print n + 0 }' "$B/synth/$b-$s.stat")
    area=$(sed -n 's/.*Chip area for module .*: \([0-9.]*\).*/\1/p' "$B/synth/$b-$s.stat")
    if [ -n "$want" ] && [ "$got" = "$want" ] && [ -n "$area" ]; then ok
    else bad "$b $s: $got flip-flops after synthesis, the contract's state is ${want:-?} bits ($state; area '$area')"; fi
    tb=$(rtl_tb "$b" "$s" net)
    [ -x "$tb" ] || { bad "no post-synthesis testbench $tb"; continue; }
    run "rtl-$b-net-$s" 600 "$tb" +seed=3 +cycles=$((RTL_NET_CYCLES / netdiv)) +quiet +wave="$T/$b-net-$s.fst"
    if [ $RC -eq 0 ] && grep -q "PASS" "$OUT"; then ok
    else bad "post-synthesis $b $s (replay: $tb +seed=3 +cycles=$((RTL_NET_CYCLES / netdiv))): exit $RC: $(tail -n 14 "$OUT" "$ERR")"; fi
  done

  # the proof: every assertion in every reachable state of each formal set;
  # each mutant refused with a counterexample from reset naming its
  # assertion, and where the table says so caught by the random testbench
  run "rtl-$b-formal" 900 $RTL_MAKE formal BLOCK="$b"
  n=$(grep -c "^formal: $b [a-z0-9]*: ${asserts/#\*/[0-9]*} assertions proven in every reachable state" "$OUT")
  if [ $RC -eq 0 ] && [ "$n" = "$proofs" ]; then ok
  else bad "make formal BLOCK=$b: exit $RC, $n of $proofs sets proven with $asserts assertions: $(tail -n 8 "$OUT" "$ERR")"; fi
  local name set assertion tbset script mut
  while IFS=$'\t' read -r -u 3 _ name set assertion tbset script; do
    [ -n "$name" ] || continue
    mut=$T/mut-$b-$name
    mkdir -p "$mut"
    sed "$script" "rtl/ws_$b.sv" > "$mut/ws_$b.sv"
    if cmp -s "rtl/ws_$b.sv" "$mut/ws_$b.sv"; then bad "$b: the $name mutant's sed no longer changes rtl/ws_$b.sv"; continue; fi
    run "rtl-$b-formal-$name" 900 $RTL_MAKE formal BLOCK="$b" FORMAL_SETS="$set" FORMAL_SV="$mut/ws_$b.sv" RTL_OUT="$mut/fml"
    if [ $RC -ne 0 ] && grep -q "^formal: $b $set: FAIL: [0-9]* clocks after reset: assertion failed:.* $assertion" "$OUT" \
       && [ -s "$mut/fml/$b/$set/formal.vcd" ]; then ok
    else bad "$b: make formal did not refuse the $name mutant naming $assertion: exit $RC: $(tail -n 6 "$OUT" "$ERR")"; fi
    [ "$tbset" = - ] && continue
    run "rtl-$b-mutant-tb-$name" 900 $RTL_MAKE mutant-tb BLOCK="$b" SET="$tbset" MUTANT_SV="$mut/ws_$b.sv" MUTANT_OUT="$mut/tb"
    if [ $RC -ne 0 ]; then bad "$b: building the $name mutant's testbench: $(tail -n 10 "$OUT" "$ERR")"; continue; fi
    run "rtl-$b-mutant-$name" 300 "$mut/tb/${b}_tb" +seed=1 +cycles=20000 +quiet +wave="$mut/tb.fst"
    if [ $RC -eq 1 ] && grep -q "FAIL at clock" "$OUT" "$ERR"; then ok
    else bad "$b: the random testbench (set $tbset) did not catch the $name mutant: exit $RC: $(tail -n 6 "$OUT" "$ERR")"; fi
  done 3<<<"$(rtl_rows rtl-mutants.tsv "$b")"

  # WSIM_TEST_LONG=1: a block's single-rule RTL mutants, each caught by its
  # random testbench
  if [ "$LONG" = 1 ] && [ -f "tests/blocks/$b/rtl_mutants.sh" ]; then
    run "rtl-$b-mutants" 1800 bash "tests/blocks/$b/rtl_mutants.sh" "$B"
    if [ $RC -eq 0 ]; then ok; else bad "an RTL mutant of $b survived: $(grep -v caught "$OUT" | head -5; head -c 300 "$ERR")"; fi
  fi
}

# SpMV's matrix for the PRT's recordings (rtl-prt) and RTL in the loop
rtl_prt_matrix() {
  [ -s "$T/prt-myc8.bin" ] && return
  python3 scripts/mtx.py mycielski 8 "$T/prt-myc8.mtx" && python3 scripts/mtx.py convert "$T/prt-myc8.mtx" "$T/prt-myc8.bin"
}

# ---------------------------------------------------------------- RTL in the loop
# build/wpusim-rtl (sim/rtl_loop.mk): blocks of whole-kernel runs as their
# Verilated RTL (docs/rtl.md, RTL in the loop). replace: statistics, results,
# instruction and port traces byte-identical to the C-only run, and the RTL
# really clocked; lockstep: passes, and catches one flipped output bit
# (WSIM_RTL_INJECT) with cycle, WPU, port, expected and actual, exit 3 and
# the statistics printed; a configuration without a Verilated build of its
# parameters, and the plain C wpusim, are clear errors (exit 2).
rtl_loop_group() {
group rtl-loop
rtl_tools
rtl_prt_matrix
run rtl-loop-plain 30 "$SIM" --rtl wst build/kernels/filter.elf
if [ $RC -eq 2 ] && grep -q "^wpusim: --rtl: this build has no RTL in the loop (plain C); build the simulator with the Verilated blocks, make wpusim-rtl, and run build/wpusim-rtl" "$ERR"; then ok
else bad "plain wpusim --rtl: exit $RC: $(head -c 300 "$ERR")"; fi
if [ "$RTL_TOOLS" = 1 ]; then
RSIM=$B/wpusim-rtl
run rtl-loop-build 3600 $RTL_MAKE -j2 wpusim-rtl
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
  # the PRT (set vector): SpMV on the vector preset, replace (statistics, results,
  # instruction and port traces identical to the C-only run), lockstep (every
  # output equal every clock) and an injected mismatch (stopped)
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
fi
fi
}
