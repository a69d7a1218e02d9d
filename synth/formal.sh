#!/bin/bash
# Prove one RTL block's named assertions for one parameter set (make formal
# BLOCK=<b>, tb/flow.mk; docs/rtl.md, Formal):
#
#   synth/formal.sh BLOCK SET SOURCE DEPTH DIR
#
# Yosys reads SOURCE (rtl/ws_<b>.sv, or a mutant) with -formal, sets the
# parameters of SET from tb/<b>.params, prepares the model (synth/formal.ys)
# and runs SAT-based temporal induction: the base case from reset (rst_ni low
# at the first step, every input free afterwards) and the induction step,
# both lengthened up to DEPTH clocks. The log is DIR/formal.log, a
# counterexample DIR/formal.vcd. Prints one line and exits
#   0  "N assertions proven in every reachable state" (the induction closed);
#   1  an assertion breaks k clocks after reset ("assertion failed: NAMES",
#      the counterexample), or neither within DEPTH ("not proven");
#   2  bad usage (no such set or source).
#
# FORMAL_ENGINE=pdr (tb/flow.mk: FORMAL_ENGINE_<b>) proves with ABC's
# property-directed reachability instead (yosys-abc, shipped with Yosys): the
# same model, its flip-flops started in their reset state (Yosys `sim` through
# one reset clock, written back as initial values), every input free from
# then on, each assertion a bad-state output of an AIGER file (DIR/formal.aig).
# PDR finds an inductive invariant where plain k-induction needs one strengthened
# by hand (the column picker at 32 lanes: `sat` does not finish). A
# counterexample PDR finds is found again by the `sat` flow below, which names
# the assertion and writes the waveform, so both engines fail the same way.
set -u
[ $# -eq 5 ] || { echo "usage: synth/formal.sh BLOCK SET SOURCE DEPTH DIR" >&2; exit 2; }
b=$1 s=$2 sv=$3 depth=$4 d=$5
yosys=${YOSYS:-yosys}
[ -f "tb/$b.params" ] || { echo "formal: no tb/$b.params: BLOCK is one of the RTL blocks (tb/*.params)" >&2; exit 2; }
p=$(sed -n "s/^$s[[:space:]][[:space:]]*//p" "tb/$b.params")
[ -n "$p" ] || { echo "formal: no set '$s' in tb/$b.params (its sets: $(sed -n 's/^\([A-Za-z0-9_]*\)[[:space:]].*=.*/\1/p' "tb/$b.params" | tr '\n' ' '))" >&2; exit 2; }
[ -f "$sv" ] || { echo "formal: no source $sv (FORMAL_SV)" >&2; exit 2; }
case $depth in ''|*[!0-9]*) echo "formal: FORMAL_DEPTH must be a number of clocks, not '$depth'" >&2; exit 2;; esac
names=$(sed -n 's/^[[:space:]]*`WS_ASSERT(\([A-Za-z0-9_]*\),.*/\1/p' "$sv" | tr "\n" " ")
engine=${FORMAL_ENGINE:-sat}
case $engine in sat|pdr) ;; *) echo "formal: FORMAL_ENGINE must be sat or pdr, not '$engine'" >&2; exit 2;; esac
mkdir -p "$d"
log=$d/formal.log vcd=$d/formal.vcd
rm -f "$log" "$vcd"
chp=$(for kv in $p; do printf -- '-set %s %s ' "${kv%%=*}" "${kv#*=}"; done)
shows=$(for n in rst_ni $names; do printf -- '-show %s ' "$n"; done)
if [ "$engine" = pdr ]; then
  abc=${YOSYS_ABC:-yosys-abc}
  plog=$d/formal-pdr.log aig=$d/formal.aig
  rm -f "$plog" "$aig"
  "$yosys" -q -l "$plog" -p "read_verilog -sv -formal -Irtl $sv; chparam $chp ws_$b; script synth/formal.ys; \
    sim -clock clk_i -resetn rst_ni -rstlen 1 -n 1 -w; setundef -undriven -anyseq; delete -output; \
    techmap; opt_clean; dffunmap; aigmap; opt_clean; write_aiger -I -B -zinit $aig" > /dev/null 2>&1
  n=$(sed -n 's/^\([0-9]*\) objects\.$/\1/p' "$plog" | head -n 1)
  [ -s "$aig" ] && "$abc" -c "read_aiger $aig; fold; strash; print_stats; pdr" >> "$plog" 2>&1
  if grep -q "^Property proved" "$plog"; then
    inv=$(sed -n 's/.*Verification of invariant with \([0-9]*\) clauses.*/\1/p' "$plog" | tail -n 1)
    echo "formal: $b $s: $n assertions proven in every reachable state (PDR, inductive invariant of ${inv:-?} clauses; $p)"
    exit 0
  fi
  frame=$(sed -n 's/.*was asserted in frame \([0-9]*\).*/\1/p' "$plog" | head -n 1)
  if [ -z "$frame" ]; then
    grep -E "ERROR|rror" "$plog" | tail -n 5
    echo "formal: $b $s: not proven: PDR ended without a proof or a counterexample; log $plog"
    exit 1
  fi
  depth=$((frame + 2)) # (sat's step 1 is the reset clock): the base case finds it
fi
"$yosys" -q -l "$log" -p "read_verilog -sv -formal -Irtl $sv; chparam $chp ws_$b; script synth/formal.ys; \
  sat -tempinduct -prove-asserts -set-assumes -set-at 1 rst_ni 0 -maxsteps $depth -verify $shows -dump_vcd $vcd" \
  > /dev/null 2>&1
n=$(sed -n 's/^\([0-9]*\) objects\.$/\1/p' "$log" | head -n 1)
k=$(sed -n 's/.*Trying induction with length \([0-9]*\).*/\1/p' "$log" | tail -n 1)
if grep -q "Induction step proven: SUCCESS" "$log"; then
  echo "formal: $b $s: $n assertions proven in every reachable state (induction length $k; $p)"
  exit 0
fi
if grep -q "model found for base case: FAIL" "$log"; then
  # the first step (after the reset at step 1) at which an assertion's wire is 0
  sed -n '/model found for base case: FAIL/,$p' "$log" | awk -v names=" $names " '
    $2 == "\\rst_ni" { r[$1] = $3 }
    $2 ~ /^\\/ && $3 == "0" && index(names, " " substr($2, 2) " ") { f[$1] = f[$1] " " substr($2, 2) }
    END { best = -1; for (t in f) if (r[t] == "1" && (best < 0 || t + 0 < best)) best = t + 0
          if (best >= 0) print best - 1, f[best] }' > "$d/formal.fail"
  read -r at what < "$d/formal.fail" || true
  echo "formal: $b $s: FAIL: ${at:-?} clocks after reset: assertion failed: ${what:-(see the log)}"
  echo "formal: $b $s: counterexample in $vcd, log $log"
  exit 1
fi
grep -E "ERROR" "$log" | tail -n 5
echo "formal: $b $s: not proven: no counterexample within $depth clocks of reset and the induction did not close (raise FORMAL_DEPTH); log $log"
exit 1
