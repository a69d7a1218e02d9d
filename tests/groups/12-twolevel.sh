# ---------------------------------------------------------------- two-level warp scheduling
# The fetch arbiter (004 §3.2-§3.3; docs/twolevel.md, docs/blocks/fetcharb.md):
# its hand-worked port traces run in the dws group's loop over tests/blocks/;
# here a wrong value fails them, one fetch group is Conv cycle for cycle, the
# switch and the timeout happen, skipping idle cycles changes nothing, a
# recorded run replays, and bad input is refused. The dws group's policy
# matrix runs 2Lev and 2Lev.Timeout on every kernel and preset with --check.
group twolevel
run fa-unit 60 "$B/tests/test_fetcharb"
if [ $RC -eq 0 ]; then ok; else bad "test_fetcharb: $(grep FAIL "$OUT" | head -n 5)"; fi
# Two-level scheduling without a timeout starves a warp by policy (004 §3.3): on
# paper-size blackjack warp 0 waits for its fetch group's turn from cycle 101,364
# while the prioritized group issues, longer than the watchdog's 12.5 M cycles.
# No alarm: the run completes with Conv's results (before: exit 3, "a simulator bug").
run fa-starved 900 "$SIM" --config lwm --policy 2Lev --arg 2 --quiet --dump "$T/fa-starved.dump" "$B/kernels/blackjack.elf"
R2=$RC
run fa-starved-conv 900 "$SIM" --config lwm --policy Conv --arg 2 --quiet --dump "$T/fa-starved-conv.dump" "$B/kernels/blackjack.elf"
if [ $R2 -eq 0 ] && [ $RC -eq 0 ] && cmp -s "$T/fa-starved.dump" "$T/fa-starved-conv.dump"; then ok
else bad "2Lev on paper-size blackjack: $(cat "$T"/fa-starved*.err 2>/dev/null | head -c 400)"; fi
F=tests/blocks/fetcharb/twolevel
awk '/^c=05 u=0 \|/ { sub(/ sw=1/, " sw=0") } { print }' $F.expect > "$T/fa-bad1.expect"
run fa-bad1 30 "$B/tests/replay_block" $F.in "$T/fa-bad1.expect"
if [ $RC -eq 1 ] && grep -q "fa-bad1.expect:[0-9]*: c=5 u=0: port sw_o" "$ERR"; then ok
else bad "a missed fetch-group switch was not named: exit $RC: $(head -c 300 "$ERR")"; fi
sed '/^c=06 /s/grant_idx=06/grant_idx=00/' $F.expect > "$T/fa-bad2.expect" # grant by readiness, not priority
run fa-bad2 30 "$B/tests/replay_block" $F.in "$T/fa-bad2.expect"
if [ $RC -eq 1 ] && grep -q "port grant_idx_o" "$ERR"; then ok
else bad "a grant outside the prioritized group was not named: exit $RC: $(head -c 300 "$ERR")"; fi
sed '/^c=09 /s/tmo=1/tmo=0/' tests/blocks/fetcharb/timeout.expect > "$T/fa-bad3.expect"
run fa-bad3 30 "$B/tests/replay_block" tests/blocks/fetcharb/timeout.in "$T/fa-bad3.expect"
if [ $RC -eq 1 ] && grep -q "port tmo_o" "$ERR"; then ok
else bad "a missed timeout was not named: exit $RC: $(head -c 300 "$ERR")"; fi
run fa-doc 30 python3 scripts/blockports.py doc fetcharb --check
if [ $RC -eq 0 ]; then ok; else bad "$(cat "$OUT" "$ERR")"; fi
# One fetch group holding every warp is the baseline round-robin (004 §5.3):
# the same trace and statistics as Conv, cycle for cycle.
run fa-conv 120 "$SIM" --config lwm --policy Conv --stats json --trace "$T/fa-conv.trace" "$B/kernels/filter.elf"
cp "$OUT" "$T/fa-conv.json"
run fa-one 120 "$SIM" --config lwm --policy 2Lev --set fetch_group_size=32 --stats json --trace "$T/fa-one.trace" \
    "$B/kernels/filter.elf"
strip() { sed -e '/^  "config": {$/,/^  },$/d' -e '/"fetch_/d' "$1"; }
if [ $RC -eq 0 ] && cmp -s "$T/fa-conv.trace" "$T/fa-one.trace" && diff <(strip "$T/fa-conv.json") <(strip "$OUT") >/dev/null \
   && [ "$(json_total "$OUT" fetch_switches)" = 0 ]; then ok
else bad "2Lev with one fetch group of 32 differs from Conv on lwm: exit $RC"; fi
# 2Lev8 on lwm: fetch-group switches, no timeout; a short timeout fires.
run fa-2lev 120 "$SIM" --config lwm --policy 2Lev --check --stats json "$B/kernels/filter.elf"
sw=$(json_total "$OUT" fetch_switches); to=$(json_total "$OUT" fetch_timeouts)
if [ $RC -eq 0 ] && [ "${sw:-0}" -gt 0 ] && [ "$to" = 0 ] && [ "$(json_total "$OUT" cycles_issue)" = "$(json_total "$T/fa-conv.json" cycles_issue)" ]; then ok
else bad "2Lev on lwm: exit $RC, switches '$sw', timeouts '$to'"; fi
cp "$OUT" "$T/fa-2lev.json"
run fa-tmo 120 "$SIM" --config lwm --policy 2Lev --set fetch_timeout=200 --check --stats json "$B/kernels/filter.elf"
to=$(json_total "$OUT" fetch_timeouts)
if [ $RC -eq 0 ] && [ "${to:-0}" -gt 0 ]; then ok; else bad "2Lev, timeout 200: exit $RC, timeouts '$to'"; fi
run fa-step 240 "$SIM" --config lwm --policy 2Lev --set skip_idle=0 --check --stats json "$B/kernels/filter.elf"
if diff <(grep -v skip_idle "$OUT") <(grep -v skip_idle "$T/fa-2lev.json") >/dev/null; then ok
else bad "2Lev: stepping every cycle gives other statistics than skipping idle ones"; fi
# the arbiter's port traffic from a whole run replays on its C model
run fa-record 120 "$SIM" --quiet --config lwm --policy 2Lev --record-block fetcharb="$T/fa.trace" "$B/kernels/filter.elf"
if [ $RC -eq 0 ] && sed -n 2p "$T/fa.trace" | grep -qx '# fetcharb groups=4 gsize=8 timeout=0' \
   && grep -q ' sw=1 ' "$T/fa.trace"; then ok
else bad "--record-block fetcharb: exit $RC: $(head -n 3 "$T/fa.trace" | cut -c1-200)"; fi
run fa-replay 60 "$B/tests/replay_block" "$T/fa.trace"
if [ $RC -eq 0 ] && grep -q "all match" "$OUT"; then ok; else bad "replaying the fetch arbiter's trace: exit $RC: $(head -c 300 "$ERR")"; fi
# --check can fail: a priority order that is not a rotation (test hook: the
# arbiter's first two ranks swap) is reported.
WSIM_CHECK_INJECT=3000 run fa-inject 60 "$SIM" --config lwm --policy 2Lev --check --quiet "$B/kernels/filter.elf"
if [ $RC -eq 3 ] && grep -Eq "^wpusim: --check failed at cycle [0-9]+: WPU 0: the fetch arbiter's priority order has group [0-3] at rank 0: not the rotation of the 4 fetch groups" "$ERR"; then ok
else bad "--check did not report a wrong priority order: exit $RC: $(head -c 300 "$ERR")"; fi
# bad input
run fa-bad-dws 30 "$SIM" --policy DWS.ReviveSplit --set scheduler=twolevel "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "scheduler: twolevel .*set dws = off" "$ERR"; then ok; else bad "twolevel with dws: $RC $(cat "$ERR")"; fi
run fa-bad-groups 30 "$SIM" --policy 2Lev --set warps=64 --set fetch_group_size=1 --threads 64 "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "fetch_group_size: 64 warps in fetch groups of 1 make 64 groups .* at most 32 fetch groups" "$ERR"; then ok
else bad "64 fetch groups: $RC $(cat "$ERR")"; fi
run fa-bad-record 30 "$SIM" --record-block fetcharb="$T/x" "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "no fetch arbiter without scheduler = twolevel" "$ERR"; then ok; else bad "record without twolevel: $RC $(cat "$ERR")"; fi
# Large warps with two-level scheduling (LWM+2Lev; docs/lwm.md, docs/twolevel.md):
# fetch groups of large warps. One fetch group holding every large warp is LWM
# cycle for cycle: the same trace and statistics (the arbiter's one group is the
# group scheduler's round-robin, and the picker's clocks leave it alone).
run lwm2lev-lwm 120 "$SIM" --config lwm --policy LWM --stats json --trace "$T/l2-lwm.trace" "$B/kernels/filter.elf"
cp "$OUT" "$T/l2-lwm.json"
run lwm2lev-one 120 "$SIM" --config lwm --policy LWM+2Lev --set fetch_group_size=4 --check --stats json \
    --trace "$T/l2-one.trace" "$B/kernels/filter.elf"
if [ $RC -eq 0 ] && cmp -s "$T/l2-lwm.trace" "$T/l2-one.trace" && diff <(strip "$T/l2-lwm.json") <(strip "$OUT") >/dev/null \
   && [ "$(json_total "$OUT" fetch_switches)" = 0 ]; then ok
else bad "LWM+2Lev with one fetch group of 4 large warps differs from LWM on lwm: exit $RC"; fi
# Exactly, by hand: diamond.S (above, lwm-pipe) as two large warps A, B of 4 x 4
# in two fetch groups of one, depth 1, lat_alu 1, memory fixed: no long-latency
# stall, so group 0 (A) keeps the priority and B fetches only when A cannot.
# A sub-warp completes the clock after it issues, so A is ready whenever the
# picker frees: A fetches at 0 (andi, 4 sub-warps 0-3), 4 (beqz), 8 (else
# addi), 12 (then addi), 16 (j, one sub-warp), 17, 21 (li, li), 25 (ecall:
# A's threads exit, its slot empties, its last sub-warps 26-28); the edge of
# 26 switches to B (A's group holds no warp), which fetches at 29, 33, 37, 41,
# 45, 46, 50, 54 (its ecall ends the run): 55 cycles, 1 switch, no timeout.
# With fetch_timeout 3 (instructions fetched, not sub-warps): A at 0, 4, 8
# (count 3), the edge of 9 switches to B (timeout); B 12, 16, 20, edge 21: A;
# A 24, 28, 29, edge 30: B; B 33, 37, 38, edge 39: A; A 42, 46 (ecall), edge
# 47: B (A gone: a switch, not a timeout); B 50, 54: 5 switches, 4 timeouts.
# Round-robin (LWM) alternates: A 0, B 4, A 8, B 12, ... (also 55 cycles).
for case in "0 1 0 0:0,4:0,8:0,12:0,16:0,17:0,21:0,25:0,29:1,33:1,37:1,41:1,45:1,46:1,50:1,54:1" \
            "3 5 4 0:0,4:0,8:0,12:1,16:1,20:1,24:0,28:0,29:0,33:1,37:1,38:1,42:0,46:0,50:1,54:1"; do
  set -- $case
  run "lwm2lev-pipe-$1" 30 "$SIM" --stats json --check --set memory=fixed --set wpus=1 --set warps=8 --set width=4 \
      --threads 32 --set pipeline_depth=1 --set lat_alu=1 --set lwm=on --set lwm_size=16 --set scheduler=twolevel \
      --set fetch_group_size=1 --set fetch_timeout=$1 --trace "$T/l2-pipe.trace" "$B/cfg/diamond.elf"
  got="$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT") $(json_total "$OUT" fetch_switches) $(json_total "$OUT" fetch_timeouts)"
  order=$(while read -r c u w rest; do printf '%d:%d,' "0x${c#c=}" "0x${w#w=}"; done < "$T/l2-pipe.trace")
  if [ $RC -eq 0 ] && [ "$got" = "55 $2 $3" ] && [ "$order" = "$4," ]; then ok
  else bad "LWM+2Lev diamond, timeout $1: cycles, switches, timeouts $got, expected 55 $2 $3; fetches $order (exit $RC)"; fi
done
# A large warp whose sub-warps miss waits on a long-latency operation: its
# group gives up the priority. tests/sim/lwm2lev_miss.S (la = auipc + addi, lw,
# addi, li, li, ecall; every thread loads one word: on memory = fixed every
# access misses, mem_latency 6) as A, B above, depth 1. A: auipc 0-3, addi
# 4-7, lw 8-11 (misses; ready when its last access is back: 11 + 6 = 17); the
# edge of 9 sees A stalled and switches to B: auipc 12, addi 16 (A ready at 17
# but B is prioritized), lw 20-23 (ready at 29); edge 21: B stalled, A not:
# A again, addi 24, li 28, li 32, ecall 36 (its last sub-warps 37-39; edge 37:
# A's group is empty, to B); B addi 40, li 44, li 48, ecall 52: 53 cycles,
# 3 switches. Were A's miss not a stall, A would keep the priority and take
# the front end back at 20, B's load would wait until 36: 58 cycles, 1 switch.
run lwm2lev-miss 30 "$SIM" --stats json --check --set memory=fixed --set mem_latency=6 --set wpus=1 --set warps=8 \
    --set width=4 --threads 32 --set pipeline_depth=1 --set lat_alu=1 --set lwm=on --set lwm_size=16 \
    --set scheduler=twolevel --set fetch_group_size=1 --set fetch_timeout=0 --trace "$T/l2-miss.trace" \
    "$B/simtests/lwm2lev_miss.elf"
got="$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT") $(json_total "$OUT" fetch_switches)"
order=$(while read -r c u w rest; do printf '%d:%d,' "0x${c#c=}" "0x${w#w=}"; done < "$T/l2-miss.trace")
if [ $RC -eq 0 ] && [ "$got" = "53 3" ] && [ "$order" = "0:0,4:0,8:0,12:1,16:1,20:1,24:0,28:0,32:0,36:0,40:1,44:1,48:1,52:1," ]; then ok
else bad "LWM+2Lev, a large warp's miss: cycles, switches $got, expected 53 3; fetches $order (exit $RC)"; fi
# The combination holds the arbiter's invariants (--check) with fetch groups
# of 1 and 2 large warps (the legend on every kernel and preset: the dws
# group's policy matrix), the timeout fires, skipping idle cycles changes
# nothing, and the arbiter's recorded traffic replays on its C model.
run lwm2lev-two 120 "$SIM" --config lwm --policy LWM+2Lev --set fetch_group_size=2 --check --stats json "$B/kernels/filter.elf"
if [ $RC -eq 0 ] && [ "$(json_total "$OUT" fetch_switches)" -gt 0 ]; then ok
else bad "LWM+2Lev, fetch groups of 2 large warps: exit $RC: $(head -c 300 "$ERR")"; fi
run lwm2lev-tmo 120 "$SIM" --config lwm --policy LWM+2Lev --set fetch_timeout=500 --check --stats json "$B/kernels/mandel.elf"
to=$(json_total "$OUT" fetch_timeouts)
if [ $RC -eq 0 ] && [ "${to:-0}" -gt 0 ]; then ok; else bad "LWM+2Lev, timeout 500: exit $RC, timeouts '$to'"; fi
cp "$OUT" "$T/l2-tmo.json"
run lwm2lev-step 240 "$SIM" --config lwm --policy LWM+2Lev --set fetch_timeout=500 --set skip_idle=0 --check --stats json \
    "$B/kernels/mandel.elf"
if [ $RC -eq 0 ] && diff <(grep -v skip_idle "$OUT") <(grep -v skip_idle "$T/l2-tmo.json") >/dev/null; then ok
else bad "LWM+2Lev: stepping every cycle gives other statistics than skipping idle ones"; fi
run lwm2lev-record 120 "$SIM" --quiet --config lwm --policy LWM+2Lev --set fetch_timeout=500 \
    --record-block fetcharb="$T/l2.trace" "$B/kernels/mandel.elf"
run lwm2lev-replay 60 "$B/tests/replay_block" "$T/l2.trace"
if [ $RC -eq 0 ] && grep -q "all match" "$OUT" && sed -n 2p "$T/l2.trace" | grep -qx '# fetcharb groups=4 gsize=1 timeout=500' \
   && grep -q ' tmo=1 ' "$T/l2.trace"; then ok
else bad "replaying LWM+2Lev's fetch arbiter trace: exit $RC: $(head -c 300 "$ERR")"; fi
