# ---------------------------------------------------------------- diverge on miss
# docs/dom.md. The MDT's hand-worked port traces (tests/blocks/mdt) run with
# the other blocks' in the dws group; the DoM legends run in the policy
# matrix (the matrix group, tests/matrix_run.sh), with --check.
# cost: 60
group dom
dom_stats() { # dom_stats FILE: the DoM counters of a run, in a fixed order
  local k out=""
  for k in mem_div_insts dom_allocs dom_merges dom_masked_lanes dom_reactivations dom_reactivated_lanes \
           dom_forced dom_forced_lanes dom_refused_full dom_refused_slip dom_mcb_full dom_fills; do
    out="$out $(json_total "$1" $k)"
  done
  echo $out
}
# tests/sim/dom_slip.S, worked by hand in its head comment: one warp of 8
# threads, 4 hit and 4 miss at every pass of its load.
DS="--config dom --set wpus=1 --set warps=1 --threads 8 --check --stats json $B/simtests/dom_slip.elf"
# (arg: expected mem_div allocs merges masked reactivations re-lanes forced f-lanes full slip mcb fills)
for t in "400 NoLimit 5 5 0 20 5 20 0 0 0 0 0 5" "1 NoLimit 1 1 0 4 0 0 1 4 0 0 0 0" \
         "400 Block 10 0 0 0 0 0 0 0 0 10 0 0" "1 Block 10 0 0 0 0 0 0 0 0 10 0 0"; do
  set -- $t
  run "dom-slip-$1-$2" 30 "$SIM" --policy DoM.$2 --arg $1 $DS
  got=$(dom_stats "$OUT"); shift 2
  if [ $RC -eq 0 ] && [ "$got" = "$*" ]; then ok
  else bad "dom_slip.S --arg ${t%% *} ${t#* }: exit $RC, got $got: $(head -c 300 "$ERR")"; fi
done
# ... and through the slip controller (max slip 8 and 2): its histogram.
for t in "8 5 5 0 20 5 20 0 0 0 0 0 5 1 1 2 1 0 0" "2 2 2 0 12 2 8 1 4 0 0 0 3 1 1 0 0 0 0"; do
  set -- $t
  run "dom-slip-fixed-$1" 30 "$SIM" --policy DoM.FixedSlip --set dom_max_slip=$1 --arg 400 $DS
  got="$(dom_stats "$OUT") $(for k in 0 1 2_3 4_7 8_15 16_up; do json_total "$OUT" dom_slip_$k; done | tr '\n' ' ')"
  shift
  if [ $RC -eq 0 ] && [ "$got" = "$* " ]; then ok
  else bad "dom_slip.S --arg 400 DoM.FixedSlip max ${t%% *}: exit $RC, got $got: $(head -c 300 "$ERR")"; fi
done
# tests/sim/dom_block.S, worked by hand in its head comment: the slip
# controller refuses, and one force clears two entries.
# (policy max-slip: expected mem_div allocs merges masked react re-lanes forced f-lanes full slip mcb fills
#  and the histogram 0 1 2-3 4-7 8-15 16+)
for t in "NoLimit 8 2 2 0 6 0 0 1 6 0 0 0 0 0 0 0 0 0 0" "FixedSlip 1 2 1 0 4 0 0 1 4 0 1 0 1 1 1 0 0 0 0" \
         "FixedSlip 2 2 2 0 6 0 0 1 6 0 0 0 0 1 1 0 0 0 0" "Block 0 2 0 0 0 0 0 0 0 0 2 0 0 0 0 0 0 0 0"; do
  set -- $t
  run "dom-block-$1-$2" 30 "$SIM" --config dom --policy DoM.$1 --set dom_max_slip=$2 --set wpus=1 --set warps=1 \
      --threads 8 --check --stats json "$B/simtests/dom_block.elf"
  got="$(dom_stats "$OUT") $(for k in 0 1 2_3 4_7 8_15 16_up; do json_total "$OUT" dom_slip_$k; done | tr '\n' ' ')"
  shift 2
  if [ $RC -eq 0 ] && [ "$got" = "$* " ]; then ok
  else bad "dom_block.S DoM.${t%% *}: exit $RC, got $got, want $*: $(head -c 300 "$ERR")"; fi
done
# tests/sim/dom_rejoin.S, worked by hand in its head comment: masked threads
# behind a path still to run stay; ready threads go on when every issuing
# thread misses; the same with the level-tied re-activation.
for rj in pc level; do
  run "dom-rejoin-$rj" 30 "$SIM" --config dom --policy DoM.NoLimit --set dom_rejoin=$rj --set wpus=1 --set warps=1 \
      --threads 8 --arg 400 --check --stats json "$B/simtests/dom_rejoin.elf"
  got=$(dom_stats "$OUT")
  if [ $RC -eq 0 ] && [ "$got" = "1 1 2 12 2 8 1 4 0 0 0 3" ]; then ok
  else bad "dom_rejoin.S dom_rejoin=$rj: exit $RC, got $got: $(head -c 300 "$ERR")"; fi
done
# dom_slip.S at max slip 2 with dom_limit = block (002 §5.1's first sentence
# alone): the threads at the limit go on with the warp, which blocks; the
# next pass (all hits) counts them down: before passes 1, 3, 5, 7, 9 the
# largest counter is 0, 1, 1, 1, 1 and nothing is refused.
run dom-slip-block 30 "$SIM" --policy DoM.FixedSlip --set dom_max_slip=2 --set dom_limit=block --arg 400 $DS
got="$(dom_stats "$OUT") $(for k in 0 1 2_3 4_7 8_15 16_up; do json_total "$OUT" dom_slip_$k; done | tr '\n' ' ')"
if [ $RC -eq 0 ] && [ "$got" = "5 5 0 20 5 20 0 0 0 0 0 5 1 4 0 0 0 0 " ]; then ok
else bad "dom_slip.S dom_limit=block max 2: exit $RC, got $got: $(head -c 300 "$ERR")"; fi
# Diverge on miss's first-principles bound (tests/sim/dom_bound.S, derived in
# its head comment): the machine's P, O and Q from three blocking runs, the
# bound from them; DoM.NoLimit and DoM.Adaptive reach at least 80 % of it
# and never more, the level-tied re-activation (dom_rejoin = level) falls
# far short; over 1, 2, 4, 8, 16 warps the speedup falls (002 Fig. 7).
dom_cycles() { sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$1"; }
DB="--config dom --set wpus=1 --stats json $B/simtests/dom_bound.elf"
N=2048 bound_in=""
for r in "Block $((N | 0x100000))" "Block $((2 * N | 0x100000))" "Block $N" "NoLimit $N" "Adaptive $N" \
         "NoLimit $N --set dom_rejoin=level"; do
  set -- $r
  p=$1 a=$2; shift 2
  run dom-bound 60 "$SIM" --policy DoM.$p --arg $a --set warps=1 --threads 32 "$@" $DB
  bound_in="$bound_in $(dom_cycles "$OUT")"
done
run dom-bound-calc 30 python3 - $N $bound_in <<'PY'
import math, sys
N, tn1, tn2, tb, tnl, tad, tlv = map(int, sys.argv[1:])
P = (tn2 - tn1) / N; O = tn1 - N * P
Q = P + 32 * (tb - tn1) / (31 * N); lam = Q - 20
m = math.ceil((lam + 1) / P) - 1
bound = tb / (O + (N + N // 32 * m) * P)
s = {"NoLimit": tb / tnl, "Adaptive": tb / tad, "level": tb / tlv}
print(f"P {P:g} O {O:g} lambda {lam:g} m {m} bound {bound:.3f} " + " ".join(f"{k} {v:.3f}" for k, v in s.items()))
ok = P == int(P) and 0.8 * bound <= s["NoLimit"] <= bound and 0.8 * bound <= s["Adaptive"] <= bound \
     and s["level"] < 0.8 * bound
sys.exit(0 if ok else 1)
PY
if [ $RC -eq 0 ]; then ok; else bad "dom_bound.S: $(cat "$OUT" "$ERR" | head -c 400)"; fi
trend=""
for w in 1 2 4 8 16; do
  for p in Block NoLimit Adaptive; do
    run dom-trend 120 "$SIM" --policy DoM.$p --arg 1024 --set warps=$w --threads $((32 * w)) $DB
    trend="$trend $(dom_cycles "$OUT")"
  done
done
run dom-trend-calc 30 python3 -c '
import sys
c = list(map(int, sys.argv[1:]))
nl = [c[i] / c[i + 1] for i in range(0, 15, 3)]; ad = [c[i] / c[i + 2] for i in range(0, 15, 3)]
print("NoLimit", " ".join(f"{x:.2f}" for x in nl), "Adaptive", " ".join(f"{x:.2f}" for x in ad))
sys.exit(0 if all(a > b for a, b in zip(nl, nl[1:])) and all(a > b for a, b in zip(ad, ad[1:])) else 1)' $trend
if [ $RC -eq 0 ]; then ok; else bad "dom_bound.S over 1-16 warps does not fall: $(cat "$OUT" "$ERR" | head -c 300)"; fi
# Each --check invariant of diverge on miss fails on a mutant of the
# mechanism (tests/dom_mutants.sh: dom.c rebuilt with one rule changed).
run dom-mutants 600 bash tests/dom_mutants.sh "$B"
if [ $RC -eq 0 ]; then ok; else bad "a mutant of dom.c passed --check: $(grep -v ': caught' "$OUT" | head -c 600)"; fi
# The blocking baseline through the DoM machinery is cycle for cycle Conv.
for k in filter kmeans; do
  run dom-block 120 "$SIM" --config dom --policy DoM.Block --stats json "$B/kernels/$k.elf"
  a=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT")
  run dom-conv 120 "$SIM" --config dom --policy Conv --stats json "$B/kernels/$k.elf"
  b=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT")
  if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "$k: DoM.Block takes $a cycles, Conv $b"; fi
done
# A table of one entry per warp with an MCB of one: the refusals show.
run dom-mcb 120 "$SIM" --config dws --policy DoM.NoLimit --set dom_entries=1 --set dom_mcb=1 --check --stats json \
    "$B/kernels/kmeans.elf"
if [ $RC -eq 0 ] && [ "$(json_total "$OUT" dom_mcb_full)" -gt 0 ] && [ "$(json_total "$OUT" dom_refused_full)" -gt 0 ]; then ok
else bad "dom_entries=1 dom_mcb=1: exit $RC, mcb_full $(json_total "$OUT" dom_mcb_full), full $(json_total "$OUT" dom_refused_full)"; fi
# Determinism, and stepping == skipping under the adaptive controller (short periods).
run dom-det1 60 "$SIM" --config dws --policy DoM.Adaptive --set dom_period=2000 --stats json "$B/kernels/filter.elf"
cp "$OUT" "$T/dom-det1"
# (the max slip after each period, averaged over the 4 WPUs, which sample at the same cycles)
per=$(python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["dom_max_slip"]; print(len(v), int(all(1 <= x <= 255 for x in v)))' "$OUT" 2>&1)
if [ $RC -eq 0 ] && [ "$(json_total "$OUT" dom_periods)" -gt 0 ] && [ "$per" = "$(( $(json_total "$OUT" dom_periods) / 4 )) 1" ]; then ok
else bad "DoM.Adaptive: periods $(json_total "$OUT" dom_periods), per-period max slips: $per"; fi
run dom-step 120 "$SIM" --config dws --policy DoM.Adaptive --set dom_period=2000 --set skip_idle=0 --stats json \
    "$B/kernels/filter.elf"
if diff <(grep -v skip_idle "$OUT") <(grep -v skip_idle "$T/dom-det1") >/dev/null; then ok
else bad "DoM.Adaptive: stepping every cycle and skipping idle cycles differ"; fi
# --check still sees a lost thread with threads masked in the table.
WSIM_CHECK_INJECT=500 run dom-inject 30 "$SIM" --config dws --policy DoM.NoLimit --check --quiet "$B/kernels/filter.elf"
if [ $RC -eq 3 ] && grep -q "^wpusim: --check failed at cycle [0-9]*: WPU 0 warp 0" "$ERR"; then ok
else bad "DoM: --check did not report a lost thread: exit $RC: $(head -c 300 "$ERR")"; fi
# A long wait of masked threads is no hang for the watchdog: those masked at
# a load/store the warp never issues again come back when their level ends
# (tests/sim/dom_wait.S, worked by hand in its head comment: ~4,000 cycles at
# --arg 2000, past a watchdog of 1,000; rt at 512 x 512 waits a whole pixel
# loop), and those of dom_slip.S re-join at the next pass (~800 cycles, past
# a watchdog of 600). The runs finish with the hand-worked events (before:
# exit 3). The watchdog still names masked threads that cannot come back
# (a level ended without them): tests/dom_mutants.sh, above.
for p in NoLimit Adaptive; do
  run dom-wait-$p 30 "$SIM" --config dom --policy DoM.$p --set wpus=1 --set warps=1 --threads 8 --arg 2000 \
      --set watchdog=1000 --check --stats json "$B/simtests/dom_wait.elf"
  got=$(dom_stats "$OUT")
  if [ $RC -eq 0 ] && [ "$got" = "1 1 0 4 0 0 1 4 0 0 0 1" ]; then ok
  else bad "dom_wait.S DoM.$p under a 1,000-cycle watchdog: exit $RC, got $got: $(head -c 400 "$ERR")"; fi
done
run dom-watchdog 30 "$SIM" --policy DoM.NoLimit --arg 400 --set watchdog=600 $DS
got=$(dom_stats "$OUT")
if [ $RC -eq 0 ] && [ "$got" = "5 5 0 20 5 20 0 0 0 0 0 5" ]; then ok
else bad "dom_slip.S --arg 400 under a 600-cycle watchdog: exit $RC, got $got: $(head -c 400 "$ERR")"; fi
# Bad input: clear errors (exit 2) naming the key.
run dom-bad1 30 "$SIM" --policy DWS.ReviveSplit --set dom=on "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "dom: diverge on miss masks threads off a warp's one SIMD group; with dws = on" "$ERR"; then ok
else bad "dom with dws: $RC $(cat "$ERR")"; fi
run dom-bad2 30 "$SIM" --config lwm --policy DoM.Adaptive --set dom_entries=3 "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "dom_entries: 32 warps x 3 entries; the memory divergence table holds at most 64" "$ERR"; then ok
else bad "table too big: $RC $(cat "$ERR")"; fi
run dom-bad3 30 "$SIM" --policy DoM.Adaptive --set dom_mcb=9 "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "dom_mcb: 9 MCB entries; at most one per MDT entry (warps x dom_entries = 8)" "$ERR"; then ok
else bad "MCB too big: $RC $(cat "$ERR")"; fi
run dom-bad4 30 "$SIM" --policy DoM.Adaptive --set width=64 --threads 64 "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "dom_slip: the slip controller holds 8-bit counters for at most 32 threads a warp; warp_size is 64" "$ERR"; then ok
else bad "wide warps with the controller: $RC $(cat "$ERR")"; fi
run dom-bad5 30 "$SIM" --policy DoM.Adaptive --set dom_slip=sometimes "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "dom_slip" "$ERR" && grep -q "none|fixed|adaptive" "$ERR"; then ok
else bad "bad dom_slip: $RC $(cat "$ERR")"; fi
run dom-inert 30 "$SIM" --quiet --set dom_max_slip=4 "$B/kernels/filter.elf"
if [ $RC -eq 0 ] && grep -q "warning: --set dom_max_slip has no effect with dom = off; choose a policy" "$ERR"; then ok
else bad "dom key without dom: exit $RC: $(cat "$ERR")"; fi
# The MDT's hand-worked trace fails when a value is wrong, naming the port.
sed 's/^c=07 u=0 | hit=1 hit_idx=00 hit_rdy=c1/c=07 u=0 | hit=1 hit_idx=00 hit_rdy=c0/' tests/blocks/mdt/basic.expect \
    > "$T/mdt-bad.expect"
run dom-mdt-bad 30 "$B/tests/replay_block" tests/blocks/mdt/basic.in "$T/mdt-bad.expect"
if [ $RC -eq 1 ] && grep -q "mdt-bad.expect:[0-9]*: c=7 u=0: port hit_rdy_o" "$ERR"; then ok
else bad "a wrong MDT output was not named: exit $RC: $(head -c 300 "$ERR")"; fi
# The recorded port trace of a run (every clock with an operation or a fill,
# per WPU) replays on the C block from reset.
run dom-record 60 "$SIM" --quiet --config dws --policy DoM.NoLimit --record-block mdt="$T/mdt.trace" "$B/kernels/kmeans.elf"
if [ $RC -eq 0 ] && head -n 1 "$T/mdt.trace" | grep -qx '# warpsplit-port-trace 2 block=mdt' \
   && sed -n 2p "$T/mdt.trace" | grep -qx '# mdt warps=4 m=2 width=16 pc_bits=32 mcb=8' \
   && [ "$(grep -c ' op=1 ' "$T/mdt.trace")" -gt 0 ] && [ "$(grep -c ' fill=1 ' "$T/mdt.trace")" -gt 0 ]; then ok
else bad "--record-block mdt: $(head -n 3 "$T/mdt.trace" | cut -c1-200)"; fi
run dom-record-replay 60 "$B/tests/replay_block" "$T/mdt.trace"
if [ $RC -eq 0 ] && grep -q "all match" "$OUT"; then ok; else bad "replaying the recorded MDT trace: exit $RC: $(head -c 300 "$ERR")"; fi
run dom-record-bad 30 "$SIM" --record-block mdt="$T/x" "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "no memory divergence table with dom = off" "$ERR"; then ok; else bad "record without dom: $RC $(cat "$ERR")"; fi
run dom-doc 30 python3 scripts/blockports.py doc mdt --check
if [ $RC -eq 0 ]; then ok; else bad "$(cat "$OUT" "$ERR")"; fi
# The slip controller's port traffic (--record-block asc): every clock with
# an event, replayed on the C block; refused where there is no controller.
run dom-record-asc 60 "$SIM" --quiet --config dom --policy DoM.Adaptive --set dom_period=2000 --arg 0 \
    --record-block asc="$T/asc.trace" "$B/kernels/nl.elf"
if [ $RC -eq 0 ] && head -n 1 "$T/asc.trace" | grep -qx '# warpsplit-port-trace 2 block=asc' \
   && sed -n 2p "$T/asc.trace" | grep -qx '# asc width=32 warps=4 cnt_bits=8 max0=8' \
   && [ "$(grep -c ' div=1 ' "$T/asc.trace")" -gt 0 ] && [ "$(grep -c ' sample=1 ' "$T/asc.trace")" -gt 0 ]; then ok
else bad "--record-block asc: exit $RC: $(head -n 3 "$T/asc.trace" | cut -c1-200) $(head -c 300 "$ERR")"; fi
run dom-record-asc-replay 60 "$B/tests/replay_block" "$T/asc.trace"
if [ $RC -eq 0 ] && grep -q "all match" "$OUT"; then ok; else bad "replaying the recorded ASC trace: exit $RC: $(head -c 300 "$ERR")"; fi
run dom-record-asc-none 30 "$SIM" --config dom --policy DoM.NoLimit --record-block asc="$T/x" "$B/kernels/gf.elf"
if [ $RC -eq 2 ] && grep -q "no adaptive slip controller" "$ERR"; then ok; else bad "record asc without one: $RC $(cat "$ERR")"; fi
# 002's experiments (scripts/dom_experiments.py, docs/dom.md "002's experiments") on
# one kernel x 2 warp counts: every run checked against DoM.Block, and the tables
# hold the kernel's rows (numbers, not "-") and 002's beside them (Fig. 7: GF 8.3
# at 1 warp; Fig. 8: 3.14 at 1 warp, 2.59 = 4.66 / 1.8 at 2).
run dom-exp 120 python3 scripts/dom_experiments.py --kernels gf --warps 1,2 --slips 4 --configs dom --jobs 1 \
    --markdown "$T/dom-exp.md" --report "$T/dom-exp.html"
if [ $RC -eq 0 ] && cmp -s "$OUT" "$T/dom-exp.md" && grep -q "against DoM.Block: all identical" "$OUT" \
   && grep -q "<title>WarpSplit: 002&#x27;s legends on GF (dom, warps = 1" "$T/dom-exp.html" \
   && grep -q "<title>DoM.FixedSlip 4 WPU 0 issue: " "$T/dom-exp.html" && grep -q '(dom-exp.html)$' "$OUT" \
   && grep -Eq '^\| GF \| [0-9.]+ \| [0-9.]+ \| 8\.30 \|$' "$OUT" \
   && grep -Eq '^\| 002 geo\. mean \| 3\.14 \| 2\.59 \| - \|$' "$OUT" \
   && grep -Eq '^\| GF \| 2 \| [0-9.]+ \| [0-9.]+ \|$' "$OUT" \
   && grep -Eq '^\| adaptive slip \| [0-9.]+ \| [0-9.]+ \|$' "$OUT" \
   && grep -q '^\[6/6 ' "$ERR"; then ok
else bad "dom_experiments.py: exit $RC: $(head -c 600 "$OUT") $(tail -c 300 "$ERR")"; fi
run dom-exp-bad 30 python3 scripts/dom_experiments.py --warps 0,2
if [ $RC -eq 2 ] && grep -q "^dom_experiments: --warps 0: expected integers 1..32$" "$ERR"; then ok
else bad "dom_experiments.py --warps 0: exit $RC: $(cat "$ERR")"; fi
# --selects only where a kernel has a branch-free variant (SA and RT would take bit 30 as a size)
run dom-exp-sel 30 python3 scripts/dom_experiments.py --selects --kernels sa,gf
if [ $RC -eq 2 ] && grep -q "^dom_experiments: --selects: no branch-free variant of sa (" "$ERR"; then ok
else bad "dom_experiments.py --selects --kernels sa,gf: exit $RC: $(cat "$ERR")"; fi
