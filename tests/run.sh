#!/usr/bin/env bash
# WarpSplit test suite. Run through `make test` (which builds what it needs).
# Prints one line per failing test, a count per group, and as its last line
# "N passed, N failed". WSIM_TEST_LONG=1 adds larger runs.
set -u
shopt -s nullglob
cd "$(dirname "$0")/.."
B=${BUILD:-build}
SIM=$B/wpusim
T=$(mktemp -d "${TMPDIR:-/tmp}/wsim-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
LONG=${WSIM_TEST_LONG:-0}
PASS=0 FAIL=0 GROUP_PASS=0 GROUP_FAIL=0 GROUP=""

ok() { PASS=$((PASS + 1)); GROUP_PASS=$((GROUP_PASS + 1)); }
bad() { FAIL=$((FAIL + 1)); GROUP_FAIL=$((GROUP_FAIL + 1)); echo "FAIL [$GROUP] $*"; }
group() {
  [ -n "$GROUP" ] && echo "  $GROUP: $GROUP_PASS passed, $GROUP_FAIL failed ($((SECONDS - GROUP_START)) s)"
  GROUP=$1 GROUP_PASS=0 GROUP_FAIL=0 GROUP_START=$SECONDS
}
# run NAME TIMEOUT CMD...: runs with a timeout; sets RC, OUT (stdout file), ERR (stderr file)
run() {
  local name=$1 to=$2; shift 2
  OUT=$T/$name.out ERR=$T/$name.err
  timeout -k 10 "$to" "$@" >"$OUT" 2>"$ERR" # (-k: one that ignores the SIGTERM is killed 10 s on)
  RC=$?
  [ $RC -eq 124 ] && echo "  (timeout after ${to}s: $*)" >>"$ERR"
}
# wait_pid PID SECONDS: waits for a background job to end, at most SECONDS
# (then kills it: RC 124); sets RC. Signal tests start the simulator itself
# in the background and signal its pid: `timeout` in between exits without
# forwarding a signal that comes right after it forks, orphaning the run.
wait_pid() {
  local pid=$1 i
  for ((i = 0; i < $2 * 10; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; wait "$pid"; RC=124; else wait "$pid"; RC=$?; fi
}
# Every process the suite starts carries this mark: none may be left at its end.
export WSIM_TEST_SUITE=$T
json_total() { # json_total FILE KEY: the value of KEY in the "total" object
  sed -n '/"total"/,/}/p' "$1" | sed -n "s/.*\"$2\": \([0-9.]*\).*/\1/p" | head -n 1
}

# ---------------------------------------------------------------- softfloat
group softfloat
run softfloat 120 "$B/tests/test_softfloat"
if [ $RC -eq 0 ]; then ok; else bad "test_softfloat exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi

# ---------------------------------------------------------------- ISA tests
# Every positive test with many threads and several SIMD widths; threads
# check different rows of each table.
group isa
set -- "$B"/isa/*.elf
[ $# -gt 20 ] || bad "only $# ISA test programs in $B/isa: the ISA suite was not built"
for elf in "$B"/isa/*.elf; do
  name=$(basename "$elf" .elf)
  case $name in fault_*) continue ;; esac
  # (995 x 64 on 2 x 8 once live-locked the I-cache: misses evicting each other's lines)
  for shape in "64 8 4 2" "100 16 2 4" "37 1 2 32" "256 32 1 8" "995 64 2 8"; do
    set -- $shape
    run "isa-$name-$2" 120 "$SIM" --quiet --threads "$1" --set width="$2" --set wpus="$3" --set warps="$4" "$elf"
    if [ $RC -eq 0 ]; then ok; else bad "$name threads=$1 width=$2: exit $RC: $(head -c 600 "$ERR")"; fi
  done
done
# Negative tests: the faulting thread stops with the expected kind of error.
for elf in "$B"/isa/fault_*.elf; do
  [ -f "$elf" ] || continue
  name=$(basename "$elf" .elf)
  want=$(head -n 1 "tests/isa/$name.expect")
  run "isa-$name" 60 "$SIM" --quiet --threads 8 --set width=4 "$elf"
  if [ $RC -eq 1 ] && grep -q "fault at pc" "$ERR" && grep -qi -- "$want" "$ERR"; then ok
  else bad "$name: want exit 1 and a fault naming '$want'; got exit $RC: $(head -c 400 "$ERR")"; fi
done

# ---------------------------------------------------------------- control-flow analysis
# tests/cfg/NAME.expect: the --dump-cfg output; NAME.warp_insts: the exact
# SIMD instruction count of 16 threads in one warp (re-convergence quality).
group cfg
for src in tests/cfg/*.S; do
  name=$(basename "$src" .S)
  elf=$B/cfg/$name.elf
  if [ -f "tests/cfg/$name.expect" ]; then
    run "cfg-$name" 30 "$SIM" --dump-cfg "$elf"
    if [ $RC -eq 0 ] && diff -u "tests/cfg/$name.expect" "$OUT" >"$T/diff"; then ok
    else bad "$name: --dump-cfg differs (exit $RC): $(head -c 600 "$T/diff") $(head -c 300 "$ERR")"; fi
  fi
  if [ -f "tests/cfg/$name.warp_insts" ]; then
    want=$(cat "tests/cfg/$name.warp_insts")
    run "cfg-run-$name" 30 "$SIM" --stats json --set wpus=1 --set warps=1 --set width=16 "$elf"
    got=$(json_total "$OUT" warp_insts)
    if [ $RC -eq 0 ] && [ "$got" = "$want" ]; then ok
    else bad "$name: warp instructions $got, expected $want (exit $RC) $(head -c 300 "$ERR")"; fi
  fi
done
run cfg-jump-table 30 "$SIM" "$B/cfg/jump_table.elf"
if [ $RC -eq 2 ] && grep -q "indirect jump at 0x0001[0-9a-f]* (_start+0x18: jalr zero, 0(t0)) has targets the control-flow analysis cannot bound (a jump table?); compile with -fno-jump-tables" "$ERR"; then ok
else bad "jump_table: want exit 2 naming the PC and -fno-jump-tables; got $RC: $(cat "$ERR")"; fi

# ---------------------------------------------------------------- kernels vs host
# Each kernel's results equal its host build's (same C source), for several
# thread counts, SIMD widths and warp counts; thread-instruction counts do
# not depend on the width.
group kernels
KERNELS=$(for e in "$B"/kernels/*.elf; do n=$(basename "$e" .elf); [ -x "$B/host/$n" ] && echo "$n"; done)
[ "$(echo $KERNELS | wc -w)" -ge 3 ] || bad "fewer than 3 kernels with host builds: '$KERNELS'"
THREADS="256 100"
[ "$LONG" = 1 ] && THREADS="256 100 1000 4096"
for k in $KERNELS; do
  for n in $THREADS; do
    run "host-$k-$n" 120 "$B/host/$k" --threads "$n" --seed 7 --dump "$T/$k-$n.host"
    if [ $RC -ne 0 ]; then bad "$k host run threads=$n exit $RC"; continue; fi
    insts=""
    for w in 1 8 16 32 64; do
      wpus=4
      warps=$(( (n + wpus * w - 1) / (wpus * w) ))   # enough contexts for barriers
      run "sim-$k-$n-$w" 300 "$SIM" --stats json --threads "$n" --seed 7 --set width=$w \
          --set wpus=$wpus --set warps=$warps --dump "$T/$k-$n-$w.sim" "$B/kernels/$k.elf"
      ti=$(json_total "$OUT" thread_insts)
      if [ $RC -ne 0 ]; then bad "$k threads=$n width=$w: exit $RC: $(head -c 400 "$ERR")"; continue; fi
      if ! cmp -s "$T/$k-$n.host" "$T/$k-$n-$w.sim"; then bad "$k threads=$n width=$w: results differ from host"; continue; fi
      if [ -z "$insts" ]; then insts=$ti
      elif [ "$ti" != "$insts" ]; then bad "$k threads=$n width=$w: $ti thread instructions, $insts at width 1"; continue; fi
      ok
    done
  done
done
# More warps than hardware slots: warps wait for a free slot (kernels without barriers).
for k in collatz nqueens interp; do
  [ -f "$B/kernels/$k.elf" ] || continue
  run "host-$k-pend" 120 "$B/host/$k" --threads 300 --seed 3 --dump "$T/$k-pend.host"
  run "sim-$k-pend" 300 "$SIM" --quiet --threads 300 --seed 3 --set width=8 --set wpus=2 --set warps=2 \
      --dump "$T/$k-pend.sim" "$B/kernels/$k.elf"
  if [ $RC -eq 0 ] && cmp -s "$T/$k-pend.host" "$T/$k-pend.sim"; then ok
  else bad "$k with 300 threads on 32 contexts: exit $RC, results $(cmp "$T/$k-pend.host" "$T/$k-pend.sim" 2>&1)"; fi
done

# ---------------------------------------------------------------- task mapping
# kernels/runtime/tasks.h (docs/tasks.md): the tasks build maps every WSIM_FOR
# loop by --task. rt_tasks records which of 8 threads ran each item:
#   loop A = items 0..19, loop B = items 5..14 (shown as 0..9), loop C empty.
#   --task 0: one item per task, cyclic: owner = item mod 8 (B: (i-5) mod 8);
#   --task 1: one chunk per thread: A ceil(20/8) = 3 items each, owner = i div 3
#             (thread 7 idle); B ceil(10/8) = 2, owner = (i-5) div 2;
#   --task 2: tiles of 2 dealt cyclically: A owner = (i div 2) mod 8 (items 16, 17
#             wrap to thread 0); B owner = ((i-5) div 2) mod 8;
#   --task 25: tiles clamped to the loop's length: thread 0 runs everything.
# Every count is 1 and loop C never runs (empty[] all 0).
group tasks
Z8="0 0 0 0 0 0 0 0"
ONES20="1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"; ONES10="1 1 1 1 1 1 1 1 1 1"
for case in "0|0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 0 1 2 3|0 1 2 3 4 5 6 7 0 1" \
            "1|0 0 0 1 1 1 2 2 2 3 3 3 4 4 4 5 5 5 6 6|0 0 1 1 2 2 3 3 4 4" \
            "2|0 0 1 1 2 2 3 3 4 4 5 5 6 6 7 7 0 0 1 1|0 0 1 1 2 2 3 3 4 4" \
            "25|0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0|0 0 0 0 0 0 0 0 0 0"; do
  IFS='|' read -r task a b <<<"$case"
  want="$a $ONES20 $b $ONES10 $Z8 $(for i in $(seq 8 63); do printf '0 '; done)"
  want=$(echo $want)
  run "tasks-rt-$task" 30 "$SIM" --quiet --stats none --threads 8 --task "$task" --dump "$T/rt-tasks-$task.sim" \
      "$B/kernels/selftest/rt_tasks.elf"
  got=$(echo $(od -An -tu4 -v "$T/rt-tasks-$task.sim"))
  if [ $RC -eq 0 ] && [ "$got" = "$want" ]; then ok
  else bad "rt_tasks --task $task: exit $RC; owners/counts $got, expected $want"; fi
  run "tasks-rt-host-$task" 30 "$B/host/selftest/rt_tasks" --quiet --threads 8 --task "$task" --dump "$T/rt-tasks-$task.host"
  if [ $RC -eq 0 ] && cmp -s "$T/rt-tasks-$task.host" "$T/rt-tasks-$task.sim"; then ok
  else bad "rt_tasks --task $task: the host build differs (exit $RC)"; fi
done
# The suite kernels' results do not depend on the mapping: for each mapping the
# tasks build equals its host build and the default build (Filter: its tasks
# build stores 4-byte pixels, so only mag[], the last 1,000,000 bytes, compares).
TASK_KERNELS=$(for e in "$B"/kernels/tasks/*.elf; do basename "$e" .elf; done)
[ "$(echo $TASK_KERNELS | wc -w)" -ge 8 ] || bad "fewer than 8 kernels in the tasks build: '$TASK_KERNELS'"
for k in $TASK_KERNELS; do
  run "tasks-$k-def" 120 "$SIM" --quiet --stats none --dump "$T/tasks-$k.def" "$B/kernels/$k.elf"
  [ $RC -eq 0 ] || bad "$k default build: exit $RC: $(head -c 300 "$ERR")"
  for task in 0 1 5; do
    run "tasks-$k-$task" 120 "$SIM" --stats json --task $task --dump "$T/tasks-$k-$task.sim" "$B/kernels/tasks/$k.elf"
    cp "$OUT" "$T/tasks-$k-$task.json"
    if [ $RC -ne 0 ]; then bad "$k --task $task: exit $RC: $(head -c 300 "$ERR")"; continue; fi
    run "tasks-$k-$task-host" 120 "$B/host/tasks/$k" --quiet --threads 256 --task $task --dump "$T/tasks-$k-$task.host"
    if [ $RC -ne 0 ] || ! cmp -s "$T/tasks-$k-$task.sim" "$T/tasks-$k-$task.host"; then
      bad "$k --task $task: results differ from the host build (exit $RC)"; continue; fi
    if [ $k = filter ]; then
      cmp -s <(tail -c 1000000 "$T/tasks-$k-$task.sim") <(tail -c 1000000 "$T/tasks-$k.def")
    else
      cmp -s "$T/tasks-$k-$task.sim" "$T/tasks-$k.def"
    fi
    if [ $? -eq 0 ]; then ok; else bad "$k --task $task: results differ from the default build"; fi
  done
done
run tasks-host-bad 30 "$B/host/tasks/fft" --task x
if [ $RC -eq 2 ] && grep -q "^host_runner: bad value for --task: 'x'$" "$ERR"; then ok
else bad "host_runner --task x: want exit 2 naming the value; got $RC: $(cat "$ERR")"; fi
# The mapping reaches the kernel: Filter's chunks put a warp's lanes on
# different lines, so more of its SIMD accesses are divergent than with
# one pixel per task.
d0=$(json_total "$T/tasks-filter-0.json" mem_div_insts); d1=$(json_total "$T/tasks-filter-1.json" mem_div_insts)
if [ -n "$d0" ] && [ -n "$d1" ] && [ "$d1" -gt $((2 * d0)) ]; then ok
else bad "filter: divergent SIMD accesses ${d1:-?} with --task 1, not above twice the ${d0:-?} of --task 0"; fi

# ---------------------------------------------------------------- random control flow
# Differential test of SIMT execution: random programs (tests/random/gen_cfg.py)
# with data-dependent branches, loops, direct, indirect and tail calls,
# recursion, early returns and exits from deep in the call tree. Every thread's
# exit code (a hash of its path) and the total thread-instruction count must
# be the same at every SIMD width and warp layout.
group random
SEEDS=$(seq 1 40); [ "$LONG" = 1 ] && SEEDS=$(seq 1 400)
for seed in $SEEDS; do
  python3 tests/random/gen_cfg.py "$seed" >"$T/rnd.S" &&
    ${RV_CC:-clang} --target=riscv32 -march=rv32imf -mabi=ilp32f -mno-relax -nostdlib -fuse-ld=lld \
      -Wl,-T,kernels/runtime/link.ld "$T/rnd.S" -o "$T/rnd.elf" 2>"$T/rnd.err" ||
    { bad "random program $seed did not build: $(head -c 300 "$T/rnd.err")"; continue; }
  ref="" fail=""
  for shape in "1 4 4" "8 2 4" "16 4 1" "32 1 2" "64 1 1"; do
    set -- $shape
    run "rnd-$seed-$1" 60 "$SIM" --stats json --threads 64 --set width=$1 --set wpus=$2 --set warps=$3 "$T/rnd.elf"
    flat=$(tr -d ' \n' <"$OUT")
    got="$(json_total "$OUT" thread_insts) $(echo "$flat" | sed -n 's/.*"exit_codes":\[\([^]]*\)\].*/\1/p')"
    case $flat in *'"status":"done"'*'"faulted":0,"unfinished":0'*) ;; *) fail="width $1: did not finish cleanly (exit $RC) $(head -c 200 "$ERR")";; esac
    if [ -z "$ref" ]; then ref=$got; elif [ "$got" != "$ref" ]; then fail="width $1 differs from width 1: ${got:0:80} vs ${ref:0:80}"; fi
  done
  if [ -z "$fail" ]; then ok; else bad "random program $seed: $fail"; fi
done

# ---------------------------------------------------------------- simulator behaviour
group sim
run sim-barrier 30 "$SIM" --quiet --threads 1000 --set warps=64 "$B/simtests/barrier_phases.elf"
if [ $RC -eq 0 ]; then ok; else bad "barrier_phases: exit $RC $(head -c 300 "$ERR")"; fi
run sim-barrier-w1 30 "$SIM" --quiet --threads 77 --set width=1 --set warps=20 "$B/simtests/barrier_phases.elf"
if [ $RC -eq 0 ]; then ok; else bad "barrier_phases width 1: exit $RC $(head -c 300 "$ERR")"; fi
run sim-exit-barrier 30 "$SIM" --quiet --threads 64 --set width=64 --set wpus=1 --set warps=1 "$B/cfg/exit_before_barrier.elf"
if [ $RC -eq 0 ]; then ok; else bad "threads exiting before a barrier in a shared warp: exit $RC $(head -c 300 "$ERR")"; fi
run sim-deadlock 30 "$SIM" --quiet --threads 16 --set wpus=1 --set warps=1 "$B/simtests/barrier_divergent.elf"
if [ $RC -eq 3 ] && grep -q "^wpusim: deadlock at cycle [0-9]*: no SIMD group can ever issue again; 8 of 16 live threads wait at the barrier" "$ERR" \
   && grep -q "WPU 0 warp 0 (threads 0..): lanes aaaa wait at the barrier at _start+0x8; lanes 5555 have not arrived (parked at skip)" "$ERR" \
   && grep -q "move the barrier out of divergent code" "$ERR"; then ok
else bad "barrier in divergent code: want exit 3 and a deadlock report; got $RC: $(head -c 600 "$ERR")"; fi
# A long wait at a barrier is no silence for the watchdog (tests/sim/barrier_wait.S:
# a look falls between the release and the released warp's first issue).
run sim-barrier-wait 30 "$SIM" --quiet --set wpus=1 --set warps=2 --set width=1 --threads 2 --set watchdog=400 \
    "$B/simtests/barrier_wait.elf"
if [ $RC -eq 0 ] && [ ! -s "$ERR" ]; then ok; else bad "watchdog after a long barrier wait: exit $RC: $(head -c 400 "$ERR")"; fi
run sim-unlaunched 30 "$SIM" --quiet --threads 1000 "$B/simtests/barrier_phases.elf"
if [ $RC -eq 3 ] && grep -q "47 warps are not launched: a barrier needs every live thread resident" "$ERR"; then ok
else bad "barrier with unlaunched warps: want exit 3 naming them; got $RC: $(head -c 600 "$ERR")"; fi
run sim-exitcodes 30 "$SIM" --quiet --threads 10 "$B/simtests/exit_codes.elf"
if [ $RC -eq 1 ] && grep -q "^  thread 1: exit code 1$" "$ERR" && grep -q "^  thread 8: exit code 2$" "$ERR" \
   && ! grep -q "thread 3:" "$ERR" && grep -q "^wpusim: FAILED: 6 of 10 threads exited nonzero, 0 faulted, 0 did not finish$" "$ERR"; then ok
else bad "exit codes: want exit 1 listing threads; got $RC: $(head -c 600 "$ERR")"; fi
run sim-exitjson 30 "$SIM" --stats json --threads 5 "$B/simtests/exit_codes.elf"
if tr -d ' \n' <"$OUT" | grep -q '"exit_codes":\[0,1,2,0,1\]'; then ok; else bad "json exit_codes: $(grep -A3 exit_codes "$OUT")"; fi
run sim-write 30 "$SIM" --quiet "$B/simtests/write.elf"
if [ $RC -eq 0 ] && [ "$(cat "$OUT")" = "hello stdout" ] && [ "$(cat "$ERR")" = "hello stderr" ]; then ok
else bad "write ecall: exit $RC, stdout '$(cat "$OUT")', stderr '$(cat "$ERR")'"; fi
# The region of interest, exactly (tests/sim/roi.S derives every count): the
# whole run and the region apart, two intervals, marks while open or closed
# are plain barriers; one warp of one lane gives the cycles too. A region left
# open by max_cycles counts up to there; a kernel without marks has no "roi".
roi_get() { # roi_get FILE EXPR: EXPR of the JSON d (d["roi"] as r)
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d.get("roi"); print(eval(sys.argv[2]))' "$1" "$2"
}
run sim-roi-1 30 "$SIM" --stats json --set memory=fixed --threads 1 --set width=1 --set wpus=1 --set warps=1 "$B/simtests/roi.elf"
got=$(roi_get "$OUT" '(d["cycles"], d["total"]["warp_insts"], d["total"]["barriers"], r["cycles"], r["intervals"], r["first_cycle"], r["last_cycle"], r["total"]["warp_insts"], r["total"]["barriers"], r["total"]["cycles_issue"], r["complete"])')
if [ $RC -eq 0 ] && [ "$got" = "(53, 53, 6, 29, 2, 12, 49, 29, 3, 29, True)" ]; then ok
else bad "roi.S one lane: want (53, 53, 6, 29, 2, 12, 49, 29, 3, 29, True), got $got (exit $RC) $(head -c 300 "$ERR")"; fi
run sim-roi-13 30 "$SIM" --stats json --set memory=fixed --threads 100 --set width=8 --set wpus=2 --set warps=8 "$B/simtests/roi.elf"
got=$(roi_get "$OUT" '(d["total"]["thread_insts"], r["total"]["thread_insts"], r["total"]["warp_insts"], r["total"]["barriers"], sum(w["cycles_issue"] + w["cycles_memwait"] + w["cycles_idle"] for w in r["wpu"]) == 2 * r["cycles"])')
if [ $RC -eq 0 ] && [ "$got" = "(5300, 2900, 377, 39, True)" ]; then ok
else bad "roi.S 13 warps: want (5300, 2900, 377, 39, True), got $got (exit $RC)"; fi
run sim-roi-text 30 "$SIM" --set memory=fixed --threads 1 --set width=1 --set wpus=1 --set warps=1 "$B/simtests/roi.elf"
if [ $RC -eq 0 ] && grep -q '^  cycles                53$' "$OUT" && grep -q '^  region of interest    cycles 12..49 (2 intervals)$' "$OUT" \
   && grep -q '^    cycles                29$' "$OUT"; then ok
else bad "roi.S text: want the whole run and the region apart; got $(grep -A2 'region' "$OUT")"; fi
run sim-roi-open 30 "$SIM" --stats json --set memory=fixed --threads 1 --set width=1 --set wpus=1 --set warps=1 --max-cycles 20 "$B/simtests/roi.elf"
got=$(roi_get "$OUT" '(r["cycles"], r["complete"], r["total"]["warp_insts"])')
if [ $RC -eq 3 ] && [ "$got" = "(8, False, 8)" ]; then ok
else bad "roi.S stopped inside the region: want (8, False, 8), got $got (exit $RC)"; fi
run sim-roi-none 30 "$SIM" --stats json --set memory=fixed --threads 4 "$B/simtests/barrier_phases.elf"
if [ $RC -eq 0 ] && [ "$(roi_get "$OUT" 'r')" = "None" ]; then ok; else bad "a kernel without marks has a roi section"; fi
run sim-maxcycles 30 "$SIM" --stats json --max-cycles 5000 "$B/kernels/collatz.elf"
if [ $RC -eq 3 ] && grep -q "stopped at max_cycles = 5000 before every thread finished; raise it with --max-cycles N" "$ERR" \
   && grep -q '"status": "max_cycles"' "$OUT" && grep -q '^  "cycles": 5000,$' "$OUT" \
   && [ "$(json_total "$OUT" warp_insts)" -gt 100 ]; then ok
else bad "max-cycles: want exit 3, a message and the stats so far; got $RC: $(head -c 300 "$ERR")"; fi
# Pipeline timing, exactly: diamond.S is 8 SIMD instructions for one warp;
# each issues lat_<class> (here all lat_alu) or pipeline_depth cycles after
# the previous one, whichever is later; a second warp fills the barrel's gaps.
for case in "1 1 1 16 8" "1 3 1 16 22" "5 1 1 16 36" "5 3 1 16 36" "5 1 2 32 37"; do
  set -- $case
  run "pipe-$1-$2-$3" 30 "$SIM" --stats json --set memory=fixed --set wpus=1 --set warps=$3 --set width=16 \
      --threads $4 --set pipeline_depth=$1 --set lat_alu=$2 "$B/cfg/diamond.elf"
  got=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT")
  if [ "$got" = "$5" ]; then ok; else bad "pipeline_depth=$1 lat_alu=$2 warps=$3: $got cycles, expected $5"; fi
done
# Large warps (lwm = on, docs/lwm.md), exactly: diamond.S's 16 threads as one
# large warp of 4 rows x 4 lanes (or two, threads 32). Odd threads sit in
# columns 1 and 3, even ones in 0 and 2, so each side of the branch takes 4
# sub-warps of 2. Depth 5: andi 4 sub-warps at 0-3 (refetch when the first
# completes, 5), beqz 5-8 (a branch: when the last completes, 13), else addi
# 13-16 (18), then addi 18-21 (23), j one sub-warp at 23 (28), li 28-31 (33),
# li 33-36 (38), ecall at 38: 39 cycles, 26 sub-warps carrying 86 threads
# (16+16+8+8+2+16+16+4; the run ends when the last thread exits). Depth 1:
# 0-3, 4-7, 8-11, 12-15, 16, 17-20, 21-24, ecall 25: 26 cycles. Two large
# warps, depth 5, round-robin: A 0-3, B 4-7, A beqz 8-11 (16), B 12-15 (20),
# A 16-19 (21), B 20-23 (25), A 24-27 (29), B 28-31 (33), A j 32 (37), B j 33
# (38), idle 34-36, A li 37-40, B 41-44, A li 45-48, B 49-52, A ecall 53 and
# its last 3 sub-warps 54-56, B ecall 57: 58 cycles, 55 sub-warps, 3 idle.
for case in "5 4 16 39 26 86" "1 4 16 26 26 86" "5 8 32 58 55 184"; do
  set -- $case
  run "lwm-pipe-$1-$3" 30 "$SIM" --stats json --check --set memory=fixed --set wpus=1 --set warps=$2 --set width=4 \
      --threads $3 --set pipeline_depth=$1 --set lat_alu=1 --set lwm=on --set lwm_size=16 "$B/cfg/diamond.elf"
  got="$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT") $(sed -n 's/^    "subwarps": \([0-9]*\),$/\1/p' "$OUT") $(sed -n 's/^    "subwarp_threads": \([0-9]*\),$/\1/p' "$OUT")"
  if [ $RC -eq 0 ] && [ "$got" = "$4 $5 $6" ]; then ok
  else bad "lwm diamond depth $1 threads $3: cycles, sub-warps, threads $got; expected $4 $5 $6 (exit $RC)"; fi
done
# Determinism: two identical runs give byte-identical statistics and traces.
run det1 120 "$SIM" --stats json --trace "$T/trace1" --seed 5 "$B/kernels/mandel.elf"
cp "$OUT" "$T/stats1"
run det2 120 "$SIM" --stats json --trace "$T/trace2" --seed 5 "$B/kernels/mandel.elf"
if cmp -s "$OUT" "$T/stats1" && cmp -s "$T/trace1" "$T/trace2" && [ -s "$T/trace1" ]; then ok
else bad "two identical runs differ"; fi
# Trace format: fixed, greppable fields.
if head -n 1 "$T/trace1" | grep -Eq '^c=[0-9a-f]{12} u=000 w=000 pc=00010000 m=ffff auipc gp, 0x[0-9a-f]+$'; then ok
else bad "trace line format: $(head -n 1 "$T/trace1")"; fi
n_lines=$(wc -l <"$T/trace1")
if [ "$n_lines" = "$(json_total "$T/stats1" warp_insts)" ]; then ok; else bad "trace has $n_lines lines, stats count $(json_total "$T/stats1" warp_insts) warp instructions"; fi
# Outputs that cannot be written are errors, not silently truncated files.
K=$B/kernels/mandel.elf
for o in "--trace /dev/full" "--stats-out /dev/full" "--policy DWS.ReviveSplit --record-block wst=/dev/full"; do
  run sim-full 60 "$SIM" $o --threads 64 "$K"
  if [ $RC -eq 2 ] && grep -q "^wpusim: --${o##*--}: write failed: No space left on device$" "$ERR"; then ok
  else bad "$o: want exit 2 and 'wpusim: --${o##*--}: write failed: No space left on device'; got $RC: $(head -c 300 "$ERR")"; fi
done
run sim-dump-full 60 "$SIM" --quiet --dump /dev/full --threads 64 "$K"
if [ $RC -eq 2 ] && grep -q "^wpusim: --dump: /dev/full: write failed" "$ERR"; then ok
else bad "--dump /dev/full: want exit 2 and a message; got $RC: $(head -c 300 "$ERR")"; fi
for w in "--threads 64 $K" "--quiet $B/simtests/write.elf"; do # the statistics; the kernel's write ecall
  run sim-stdout-full 60 bash -c '"$@" >/dev/full' _ "$SIM" $w
  if [ $RC -eq 2 ] && grep -q "^wpusim: standard output: write failed: No space left on device$" "$ERR"; then ok
  else bad "wpusim $w >/dev/full: want exit 2 and a message; got $RC: $(head -c 300 "$ERR")"; fi
done
# FILE.gz outputs are compressed in the simulator (zlib, no gzip process):
# a full disk is an error naming the output, with the statistics kept and
# no temporary left (through gzip on a pipe both died of SIGPIPE, exit 141),
# and a PATH without gzip writes them all the same.
ln -sf /dev/full "$T/full.gz"
for o in "--trace $T/full.gz" "--policy DWS.ReviveSplit --record-block wst=$T/full.gz"; do
  run sim-full-gz 60 "$SIM" $o --stats-out "$T/full-gz.txt" --threads 64 "$K"
  if [ $RC -eq 2 ] && grep -q "^wpusim: --${o##*--}: write failed: No space left on device$" "$ERR" \
     && grep -q "^  cycles  " "$T/full-gz.txt" && [ -z "$(find "$T" -maxdepth 1 -name '*.wpusim-*')" ]; then ok
  else bad "$o: want exit 2, 'wpusim: --${o##*--}: write failed: No space left on device' and the statistics; got $RC: $(head -c 300 "$ERR")"; fi
  rm -f "$T/full-gz.txt"
done
run sim-gz-plain 60 "$SIM" --quiet --trace "$T/plain.trace" --threads 64 "$K"
run sim-gz-nogzip 60 env PATH=/nonexistent "$SIM" --quiet --trace "$T/nogzip.trace.gz" --threads 64 "$K"
if [ $RC -eq 0 ] && [ -s "$T/plain.trace" ] && gzip -dc "$T/nogzip.trace.gz" | cmp -s - "$T/plain.trace"; then ok
else bad "--trace FILE.gz with no gzip on PATH: exit $RC, or not the plain trace compressed: $(head -c 300 "$ERR")"; fi
rm -f "$T/plain.trace" "$T/nogzip.trace.gz"
# A run that cannot start leaves existing --stats-out and --dump files as
# they were (outputs are written beside them and renamed into place).
echo keep >"$T/keep.json"; echo keep >"$T/keep.bin"
for why in "$T/nonexistent.elf" "--set stack_top=0x20000 --threads 1 --set stack_size=65536 $K" "--dump-cfg $K"; do
  run sim-keep 30 "$SIM" --stats json --stats-out "$T/keep.json" --dump "$T/keep.bin" $why
  if [ "$(cat "$T/keep.json" "$T/keep.bin")" = "keep
keep" ] && [ -z "$(find "$T" -maxdepth 1 -name '*.wpusim-*')" ]; then ok
  else bad "wpusim ... $why (exit $RC) changed an existing --stats-out or --dump file or left a temporary: $(ls "$T" | grep -e keep -e wpusim- | tr '\n' ' ')"; fi
done
run sim-replace 60 "$SIM" --stats json --stats-out "$T/keep.json" --dump "$T/keep.bin" --threads 64 "$K"
if [ $RC -eq 0 ] && grep -q '"status": "done"' "$T/keep.json" && [ "$(stat -c %s "$T/keep.bin")" -gt 5 ] \
   && [ -z "$(find "$T" -maxdepth 1 -name '*.wpusim-*')" ]; then ok
else bad "a finished run must replace --stats-out and --dump files: exit $RC $(head -c 200 "$ERR")"; fi
# SIGINT / SIGTERM stop the run at the end of a cycle: the statistics so far
# (status "interrupted") replace an existing --stats-out file, the trace
# ends with a whole line (one per counted instruction), exit 130 / 143.
# (100,000-cycle memory, every cycle stepped: the run would take minutes;
# the signal comes once the trace shows it under way.)
for sig in INT TERM; do
  echo old >"$T/int.json"; echo old >"$T/int.bin"
  "$SIM" --stats json --stats-out "$T/int.json" --dump "$T/int.bin" --trace "$T/int.trace" --arg 16384 \
    --set memory=fixed --set mem_latency=100000 --set skip_idle=0 "$B/kernels/collatz.elf" >/dev/null 2>"$T/int.err" &
  pid=$!
  for i in $(seq 100); do [ -s "$T/int.trace" ] && break; sleep 0.1; done # the run is under way
  kill -$sig $pid; wait_pid $pid 120
  want=$((128 + $(kill -l $sig)))
  if [ $RC -eq $want ] && grep -q '"status": "interrupted"' "$T/int.json" \
     && grep -Eq "^wpusim: interrupted by SIG$sig at cycle [1-9][0-9]*; the statistics are those so far$" "$T/int.err" \
     && [ "$(wc -l <"$T/int.trace")" = "$(json_total "$T/int.json" warp_insts)" ] && [ "$(tail -c 1 "$T/int.trace" | od -An -c | tr -d ' ')" = '\n' ] \
     && [ "$(stat -c %s "$T/int.bin")" = 589824 ]; then ok
  else bad "SIG$sig: want exit $want, status interrupted, a whole trace, the results; got $RC, $(grep -m1 status "$T/int.json"), $(wc -l <"$T/int.trace") trace lines for $(json_total "$T/int.json" warp_insts) instructions: $(head -c 300 "$T/int.err")"; fi
  rm -f "$T/int.trace"
done

# However many copies of the signal arrive, the statistics are kept. Three
# (as a terminal's Ctrl-C on `timeout N wpusim` arrives: to the group, then
# forwarded by timeout to the command and to the group; the third used to
# end the run at once): the --dump goes to a FIFO read only later, so the
# run's end waits and all three come before it.
int_started() { for i in $(seq 100); do [ -s "$T/int.trace" ] && return; sleep 0.1; done; }
int_kept() { grep -q '"status": "interrupted"' "$T/int.json" 2>/dev/null \
             && [ "$(wc -l <"$T/int.trace")" = "$(json_total "$T/int.json" warp_insts)" ]; }
INTRUN=(--stats json --stats-out "$T/int.json" --trace "$T/int.trace" --arg 16384 --set memory=fixed
        --set mem_latency=100000 --set skip_idle=0 "$B/kernels/collatz.elf")
mkfifo "$T/slow.fifo"
exec 7<>"$T/slow.fifo" # (a reader that reads later: the writer's open does not wait)
rm -f "$T/int.json" "$T/int.trace"
"$SIM" --dump "$T/slow.fifo" "${INTRUN[@]}" >/dev/null 2>"$T/int3.err" &
pid=$!
int_started; for i in 1 2 3; do kill -TERM $pid; sleep 0.05; done
got=$(timeout 60 head -c 589824 <&7 | wc -c) # (the results of collatz at --arg 16384: 589,824 bytes)
wait_pid $pid 120
if [ $RC -eq 143 ] && int_kept && [ "$got" = 589824 ] && grep -Eq "^wpusim: interrupted by SIGTERM at cycle [1-9]" "$T/int3.err"; then ok
else bad "three SIGTERMs: want exit 143, the statistics and the results; got $RC, $got bytes, $(grep -m1 status "$T/int.json" 2>&1): $(head -c 300 "$T/int3.err")"; fi
# ... and a SIGINT to the process group of timeout (which makes its own).
rm -f "$T/int.json" "$T/int.trace"
timeout 120 "$SIM" "${INTRUN[@]}" >/dev/null 2>"$T/intg.err" &
pid=$!
int_started; kill -INT -- -$pid; wait_pid $pid 120
if int_kept && grep -Eq "^wpusim: interrupted by SIGINT at cycle [1-9]" "$T/intg.err"; then ok
else bad "SIGINT to timeout's process group: want the statistics; got $RC, $(grep -m1 status "$T/int.json" 2>&1): $(head -c 300 "$T/intg.err")"; fi
rm -f "$T/int.json" "$T/int.trace"
# A signal a second or more after the first ends the process at once (its
# end never comes here: the --dump FIFO is never read), with a message, no
# statistics and no temporary left.
"$SIM" --stats json --stats-out "$T/stuck.json" --dump "$T/slow.fifo" "$K" >/dev/null 2>"$T/stuck.err" &
pid=$!
sleep 0.5; kill -TERM $pid; sleep 1.5; kill -TERM $pid; wait_pid $pid 20
if [ $RC -eq 143 ] && grep -q "^wpusim: signalled again: ending at once, without statistics$" "$T/stuck.err" \
   && [ ! -e "$T/stuck.json" ] && [ -z "$(find "$T" -maxdepth 1 -name 'stuck.json.wpusim-*')" ]; then ok
else bad "a second SIGTERM 1.5 s after the first: want exit 143 at once, a message, no temporary; got $RC: $(head -c 300 "$T/stuck.err")"; fi
exec 7>&-
# A signal while the run is set up (here: blocked opening a --stats-out
# FIFO that nobody reads) ends it promptly, saying so.
"$SIM" --stats-out "$T/slow.fifo" "$K" >/dev/null 2>"$T/stuck.err" &
pid=$!
sleep 1; kill -TERM $pid; wait_pid $pid 10
if [ $RC -eq 143 ] && [ "$(cat "$T/stuck.err")" = "wpusim: interrupted by SIGTERM before the run started: no statistics" ]; then ok
else bad "SIGTERM while opening a --stats-out FIFO: want exit 143 and one message; got $RC: $(head -c 300 "$T/stuck.err")"; fi
rm -f "$T/slow.fifo"

# Stack colouring (docs/abi.md): thread t's sp is stack_top - t x stack_size
# - (t mod C) x stack_color, C = max(32, lanes) positions, as many as fit in
# half of stack_size: 64 at the defaults, so that widths 65-256 run with the
# default stack_color (they were refused: "lower stack_color").
for wc in "16 32" "64 64" "65 64" "128 64" "256 64"; do
  set -- $wc
  run "sp-$1" 30 "$SIM" --quiet --set width=$1 --set wpus=1 --set warps=$(( (512 + $1 - 1) / $1 )) --threads 512 \
      --dump "$T/sp.bin" "$B/simtests/stack_sp.elf"
  if [ $RC -eq 0 ] && [ "$(od -An -tx4 -w4 -v "$T/sp.bin" | tr -d ' ')" = \
       "$(awk -v c=$2 'BEGIN { for (t = 0; t < 512; t++) printf "%08x\n", 3221225472 - t * 16384 - (t % c) * 128 }')" ]; then ok
  else bad "width $1: want exit 0 and sp = 0xc0000000 - t x 16384 - (t mod $2) x 128; got $RC: $(head -c 300 "$ERR")"; fi
done

# A big machine with few threads costs what the threads cost: slots' thread
# state is touched only when a warp launches and empty WPUs are not looked
# at per cycle (64 threads on 1024 WPUs x 1024 slots took minutes and 5 GB).
run big-machine 60 "$SIM" --quiet --threads 64 --set memory=bulksync --set wpus=1024 --set warps=1024 \
    --dump "$T/big.dump" "$B/kernels/mandel.elf"
big_rc=$RC
run big-machine-ref 60 "$SIM" --quiet --threads 64 --set memory=bulksync --dump "$T/small.dump" "$B/kernels/mandel.elf"
if [ $big_rc -eq 0 ] && [ $RC -eq 0 ] && cmp -s "$T/big.dump" "$T/small.dump"; then ok
else bad "64 threads on 1024 x 1024 slots: exit $big_rc or results differ: $(head -c 300 "$T/big-machine.err")"; fi

# ---------------------------------------------------------------- memory hierarchy
# Microbenchmarks whose counts follow from the configuration alone
# (tests/mem/*.S explain each expectation).
group memory
M=$B/memtests
memstat() { # memstat FILE LEVEL KEY: a counter of "l1d", "l1i", "l2" or "dram"
  grep -m1 "\"$2\": {" "$1" | sed -n "s/.*\"$3\": \([0-9]*\).*/\1/p"
}
memrun() { # memrun NAME ARGS...: a microbenchmark, stats in $T/NAME.out
  run "mem-$1" 60 "$SIM" --stats json "${@:2}"
  [ $RC -eq 0 ] || bad "$1: exit $RC: $(head -c 300 "$ERR")"
}
expect_eq() { # expect_eq WHAT GOT WANT
  if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', expected $3"; fi
}
# Stack colouring spans the SIMD width: at 64 lanes (64 L1 banks, 128 B
# colour = one line) every lane's frame is in its own bank, so nqueens'
# spills and reloads, which made 12,889 bank conflicts when the colour
# wrapped at 32 lanes, make none; without colouring they conflict.
memrun colour64 --set width=64 --threads 256 "$B/kernels/nqueens.elf"
expect_eq "nqueens at width 64: L1 D bank conflicts" "$(memstat "$OUT" l1d bank_conflicts)" 0
memrun colour64-off --set width=64 --threads 256 --set stack_color=0 "$B/kernels/nqueens.elf"
c=$(memstat "$OUT" l1d bank_conflicts)
if [ "${c:-0}" -gt 10000 ]; then ok; else bad "nqueens at width 64 without stack colouring: $c bank conflicts, expected > 10000"; fi
# A bulk-synchronous L1 of 1 GiB (8M sets): its barrier flushes and the
# run's final drain visit the sets ever filled, not the whole array (they
# scanned all of it: minutes, ignoring SIGTERM meanwhile, and a GiB of
# memory touched), so hotspot's run takes well under 5 s of CPU, with the
# results of the usual L1.
run mem-bigl1 120 bash -c 'ulimit -t 5 && exec "$@"' _ "$SIM" --quiet --config maws-bulksync --set wpus=1 \
    --set l1d_size=1073741824 --dump "$T/bigl1.dump" "$B/kernels/hotspot.elf"
big_rc=$RC
run mem-bigl1-ref 120 "$SIM" --quiet --config maws-bulksync --set wpus=1 --dump "$T/bigl1-ref.dump" "$B/kernels/hotspot.elf"
if [ $big_rc -eq 0 ] && [ $RC -eq 0 ] && cmp -s "$T/bigl1.dump" "$T/bigl1-ref.dump"; then ok
else bad "hotspot on a 1 GiB bulksync L1 within 5 s of CPU: exit $big_rc (137: over the limit), or results differ: $(head -c 300 "$T/mem-bigl1.err")"; fi
rm -f "$T"/bigl1*.dump
# The private memory (private_mem, 004 Table 1; on in the lwm preset): the
# stack traffic of tests/mem/stack.S skips the L1 D (64 SIMD loads/stores,
# 0 L1 D accesses; 1024 line accesses without it) and, 1-cycle and
# conflict-free, times exactly as stack_alu.S, the same program with ALU
# instructions in their place.
pm="--config lwm --set wpus=1 --set warps=1 --threads 16 --set width=16"
memrun stack-priv $pm --set private_mem=1 "$M/stack.elf"
got="$(memstat "$OUT" l1d accesses) $(sed -n 's/.*"private_accesses": \([0-9]*\).*/\1/p' "$OUT")"
cs=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT")
expect_eq "stack.S with private_mem: L1 D accesses, private accesses" "$got" "0 64"
memrun stack-alu $pm --set private_mem=1 "$M/stack_alu.elf"
expect_eq "stack.S with private_mem: cycles as with ALU instructions" "$cs" "$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT")"
memrun stack-l1 $pm --set private_mem=0 "$M/stack.elf"
expect_eq "stack.S without private_mem: L1 D accesses" "$(memstat "$OUT" l1d accesses)" 1024
if ! grep -q private_accesses "$OUT"; then ok; else bad "private_accesses printed with private_mem = 0"; fi
run stack-fixed 30 "$SIM" --set memory=fixed --set private_mem=1 "$M/stack.elf"
if [ $RC -eq 2 ] && grep -q "private_mem: a private memory beside the caches needs memory = coherent, bulksync or private" "$ERR"; then ok
else bad "private_mem with memory = fixed: exit $RC: $(cat "$ERR")"; fi
one="--set wpus=1 --set warps=1"
memrun stream $one --threads 16 "$M/stream.elf"
expect_eq "stream: L1 D accesses (one per SIMD load)" "$(memstat "$OUT" l1d accesses)" 64
expect_eq "stream: L1 D misses = lines touched (4 KiB / 128 B)" "$(memstat "$OUT" l1d misses)" 32
# dws: a load that misses everywhere returns after L1 3 + crossbar 2 + L2 23 +
# DRAM 100 + 128 B at 16 B/cycle 8 + crossbar 2 + 128 B at 57 B/cycle 3 = 141
# cycles: the line's 2.25 cycles on the idle crossbar start on a cycle
# boundary, so its last byte moves in the third cycle (a completion rounds up
# to the end of its cycle; occupancy does not); its one request leaves the
# L1 at once (l1d_serial_miss queues nothing). Each hop adds an addi and a
# bnez: 143 cycles a hop.
memrun chase20 $one --set width=1 --threads 1 --arg 20 "$M/chase.elf"; c20=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT")
memrun chase40 $one --set width=1 --threads 1 --arg 40 "$M/chase.elf"; c40=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT")
expect_eq "pointer chase: cycles per hop" "$(( (c40 - c20) / 20 ))r$(( (c40 - c20) % 20 ))" "143r0"
memrun chase-slow $one --set width=1 --threads 1 --arg 20 --set dram_latency=300 "$M/chase.elf"
c20s=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT")
expect_eq "pointer chase: 200 more DRAM cycles a hop (and for the I-cache miss)" "$(( c20s - c20 ))" "$(( 21 * 200 ))"
# Crossbar bandwidth (tests/mem/xbar.S): once the lines sit in the L2, each
# pass of 3648 lines x 128 B keeps the 57 GB/s crossbar busy for exactly
# 3648 x 128 / 57 = 8192 cycles (10944 when transfers rounded up to 3 cycles).
cx=()
for p in 2 3 4; do
  memrun "xbar$p" --set warps=1 --threads 64 --arg $p "$M/xbar.elf"
  cx[$p]=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT")
done
expect_eq "crossbar: a pass of 3648 L2-hit lines (57 B/cycle)" "$(( cx[3] - cx[2] )) $(( cx[4] - cx[3] ))" "8192 8192"
expect_eq "crossbar: every load misses in the L1" "$(memstat "$OUT" l1d misses)" $(( 4 * 3648 ))
expect_eq "crossbar: the passes after the first hit in the L2" "$(memstat "$OUT" l2 hits)" $(( 3 * 3648 ))
# Serialized requests to the next level (l1d_serial_miss; tests/mem/serial.S
# and port.S derive each number): the cycles from a load's issue to its
# warp's next instruction, from the trace.
latency() { # latency TRACE WARP INSN: cycles from WARP's INSN to its next instruction
  local c
  c=$(grep "w=$2 " "$1" 2>/dev/null | grep -A1 -m1 "$3" | sed -n 's/^c=\([0-9a-f]*\) .*/\1/p' | tr '\n' ' ')
  set -- $c
  [ $# -eq 2 ] && echo $(( 16#$2 - 16#$1 ))
}
for s in 0 1; do
  memrun "serial-mc-$s" --config maws-coherent $one --threads 8 --set l1d_serial_miss=$s \
      --trace "$T/serial-mc-$s.trace" "$M/serial.elf"
  memrun "serial-dws-$s" --config dws $one --threads 16 --set l1d_serial_miss=$s \
      --trace "$T/serial-dws-$s.trace" "$M/serial.elf"
  memrun "port-$s" --config maws-coherent --set wpus=1 --set warps=2 --threads 16 \
      --set l1d_serial_miss=$s --trace "$T/port-$s.trace" "$M/port.elf"
done
expect_eq "maws-coherent, 8 lines from DRAM: serial, parallel" \
  "$(latency "$T/serial-mc-1.trace" 000 "lw t5") $(latency "$T/serial-mc-0.trace" 000 "lw t5")" "395 395"
expect_eq "maws-coherent, 8 lines from the L2: serial, parallel" \
  "$(latency "$T/serial-mc-1.trace" 000 "lw t6") $(latency "$T/serial-mc-0.trace" 000 "lw t6")" "38 35"
expect_eq "maws-coherent: requests that waited for the port, serial and parallel" \
  "$(memstat "$T/mem-serial-mc-1.out" l1d port_waits) $(memstat "$T/mem-serial-mc-0.out" l1d port_waits)" "14 0"
expect_eq "dws, 16 lines from DRAM: serial, parallel" \
  "$(latency "$T/serial-dws-1.trace" 000 "lw t5") $(latency "$T/serial-dws-0.trace" 000 "lw t5")" "261 261"
expect_eq "dws: requests that waited for the port, serial and parallel" \
  "$(memstat "$T/mem-serial-dws-1.out" l1d port_waits) $(memstat "$T/mem-serial-dws-0.out" l1d port_waits)" "15 0"
expect_eq "one port per L1: warp 1's load behind warp 0's, serial and parallel" \
  "$(latency "$T/port-1.trace" 001 "lw t6") $(latency "$T/port-0.trace" 001 "lw t6")" "45 38"
# The crossbar carries each transfer when its data comes up, not in the order
# the model reserved it (tests/mem/overtake.S): an L2 hit issued a cycle
# after a DRAM miss is back in 31 cycles, the miss in 339.
memrun overtake --config maws-coherent --set wpus=1 --set warps=2 --set width=1 --threads 2 \
    --trace "$T/overtake.trace" "$M/overtake.elf"
expect_eq "crossbar: a DRAM miss, then an L2 hit a cycle later" \
  "$(latency "$T/overtake.trace" 000 "lw t6") $(latency "$T/overtake.trace" 001 "lw t6")" "339 31"
memrun banks $one --threads 16 "$M/banks.elf"
expect_eq "bank conflicts: 15 queued requests per load, 2 loads" "$(memstat "$OUT" l1d bank_conflicts)" 30
expect_eq "bank conflicts: second load hits" "$(memstat "$OUT" l1d hits)" 16
memrun pingpong --set wpus=2 --set warps=1 --set width=1 --threads 2 --arg 10 "$M/pingpong.elf"
expect_eq "ping-pong: invalidations = 2 x 10 rounds - 1" "$(memstat "$OUT" l1d invalidations)" 19
memrun assoc8 $one --set width=1 --threads 1 --arg 8 "$M/assoc.elf"
expect_eq "8 lines in one 8-way set: misses" "$(memstat "$OUT" l1d misses)" 8
expect_eq "8 lines in one 8-way set: hits" "$(memstat "$OUT" l1d hits)" 56
memrun assoc9 $one --set width=1 --threads 1 --arg 9 "$M/assoc.elf"
expect_eq "9 lines in one 8-way set: all miss (LRU)" "$(memstat "$OUT" l1d misses)" 72
memrun assoc9-16way $one --set width=1 --threads 1 --arg 9 --set l1d_ways=16 --set l1d_size=65536 "$M/assoc.elf"
expect_eq "9 lines in a 16-way set: misses" "$(memstat "$OUT" l1d misses)" 9
# DRAM as a controller drives it (tests/mem/rows.S, occupancy.S, order.S and
# alias.S derive every number): a row-hit stream and a conflict stream, bank
# occupancy (tRAS, tRP + tRCD, the burst) apart from the stated latencies,
# data back as it is ready or in request order, and the address mappings.
roi_dram() { # roi_dram FILE: "openings hits reads" of the region's DRAM
  python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["roi"]["memory"]["dram"]; print(m["row_conflicts"] + m["row_closed"], m["row_hits"], m["reads"])' "$1"
}
roi_cycles() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["roi"]["cycles"])' "$1"; }
one_thread="--config lwm --set warps=1 --set width=1 --threads 1"
memrun rows2 $one_thread --arg 2 "$M/rows.elf"; r2=$(roi_cycles "$OUT")
memrun rows4 $one_thread --arg 4 "$M/rows.elf"
expect_eq "DRAM rows, 4 line by line and 4 strided: openings, row hits, reads" "$(roi_dram "$OUT")" "8 124 132"
expect_eq "DRAM rows: 2 more of each, cycles" "$(( $(roi_cycles "$OUT") - r2 ))" 8720
memrun rows4-linear $one_thread --arg 4 --set dram_map=linear "$M/rows.elf"
expect_eq "DRAM rows, linear mapping: openings, row hits, reads" "$(roi_dram "$OUT")" "8 124 132"
for x in "1824 1569" "1297 1042 --set dram_tras=0" "429 132 --set dram_tras=0 --set dram_trp=0 --set dram_trcd=0"; do
  set -- $x
  memrun "occupancy-$1" --config lwm --set dram_map=linear --set warps=1 --threads 32 ${@:3} \
      --trace "$T/occupancy.trace" "$M/occupancy.elf"
  expect_eq "DRAM bank occupancy, 32 conflicts in one bank ${*:3}: the warp's wait; bank-cycles busy" \
    "$(latency "$T/occupancy.trace" 000 "lw t2") $(memstat "$OUT" dram bank_busy)" "$1 $2"
done
for x in "ready 305 105" "order 305 308"; do
  set -- $x
  memrun "order-$1" --config lwm --set dram_map=linear --set warps=2 --set width=1 --threads 2 \
      --set dram_return=$1 --trace "$T/order.trace" "$M/order.elf"
  expect_eq "DRAM return = $1: a conflict, then a hit in an idle bank" \
    "$(latency "$T/order.trace" 000 "lw t3") $(latency "$T/order.trace" 001 "lw t3")" "$2 $3"
done
for x in "linear 0 1024 0 320001" "linear 1 32 992 121601" "xor 0 1024 0 320001" "xor 1 32 992 121601" \
         "ipoly 0 32 992 121601" "ipoly 1 94 930 134001"; do
  set -- $x
  memrun "alias-$1-$2" --config lwm --set warps=1 --threads 32 --arg $(( $2 + 16 * 16 )) --set dram_map=$1 "$M/alias.elf"
  expect_eq "two arrays 2 MiB (+ $2 row) apart, $1 mapping: openings, hits; cycles" \
    "$(roi_dram "$OUT" | cut -d' ' -f1-2); $(roi_cycles "$OUT")" "$3 $4; $5"
done
# MSHRs go to warps in the order they asked (tests/unit/test_memsys.c).
run memsys-unit 60 "$B/tests/test_memsys"
if [ $RC -eq 0 ]; then ok; else bad "test_memsys: $(grep FAIL "$OUT" | head -n 5)"; fi
# Delivered DRAM bandwidth (scripts/bandwidth.py, docs/memory.md): every preset
# streams at 70 % of its stated bandwidth or more with enough requests in
# flight (maws-bulksync's 16 MSHRs raised: as configured, Little's law
# forbids it), and at 70 % of its Little bound as configured.
run bandwidth 900 python3 scripts/bandwidth.py --build "$B" --check 70
if [ $RC -eq 0 ] && [ "$(grep -c '^| `' "$OUT")" = 6 ]; then ok
else bad "delivered bandwidth: exit $RC: $(tail -n 3 "$ERR") $(tail -n 8 "$OUT")"; fi
run mem-bulksync 30 "$SIM" --quiet --config maws-bulksync --set width=1 --threads 2 "$M/bulksync.elf"
expect_eq "bulk-synchronous barrier flush: the reader sees the write" "$RC" 0
run mem-noflush 30 "$SIM" --quiet --config maws-bulksync --set width=1 --threads 2 --set bulksync_flush=0 "$M/bulksync.elf"
if [ $RC -eq 1 ] && grep -q "thread 1: exit code 1" "$ERR"; then ok; else bad "without barrier flushes the reader must see stale data (exit $RC)"; fi
# Every kernel under every preset: results equal the host's; stepping and
# skipping idle cycles give byte-identical statistics.
for p in dws maws-coherent maws-bulksync dom dom-l2 lwm; do
  for k in $KERNELS; do
    run "preset-$p-$k" 300 "$SIM" --stats json --config "$p" --threads 256 --set warps=16 --seed 7 \
        --dump "$T/$p-$k.sim" "$B/kernels/$k.elf"
    if [ $RC -ne 0 ] || ! cmp -s "$T/$k-256.host" "$T/$p-$k.sim"; then
      bad "$k under preset $p: exit $RC, results $(cmp "$T/$k-256.host" "$T/$p-$k.sim" 2>&1)"; continue
    fi
    grep -v '"skip_idle"' "$OUT" >"$T/$p-$k.skip"
    run "step-$p-$k" 600 "$SIM" --stats json --config "$p" --threads 256 --set warps=16 --seed 7 \
        --set skip_idle=0 "$B/kernels/$k.elf"
    if grep -v '"skip_idle"' "$OUT" | cmp -s - "$T/$p-$k.skip"; then ok
    else bad "$k under $p: stepping and skipping idle cycles give different statistics"; fi
  done
done

# ---------------------------------------------------------------- bad input
group badinput
GOOD=$B/simtests/barrier_phases.elf   # two segments: text 0x10000-0x10fff, bss 0x11000-0x14fff
# poke FILE OFFSET BYTES...: overwrite bytes (decimal offset, hex bytes)
poke() {
  local f=$1 off=$2; shift 2
  local s=""; for b in "$@"; do s="$s\\x$b"; done
  printf "$s" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}
expect_load_error() { # NAME FILE MESSAGE(regex, after "wpusim: FILE: ")
  run "bad-$1" 30 "$SIM" "$2"
  if [ $RC -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] && grep -Eq "^wpusim: $2: $3\$" "$ERR"; then ok
  else bad "$1: want exit 2 and 'wpusim: $2: $3'; got $RC: $(cat "$ERR")"; fi
}
expect_load_error missing "$T/nonexistent.elf" "cannot open: No such file or directory"
mkdir -p "$T/adir.elf"; expect_load_error directory "$T/adir.elf" "not a regular file \(a directory\); wpusim loads an ELF executable"
# The loader reads the header and then only what it names, never a file
# whole: a device or an absurd size is one line, fast, in 1 GB of address space.
expect_load_error_lim() { # NAME FILE MESSAGE(regex)
  run "bad-$1" 30 bash -c 'ulimit -v 1000000 && exec "$@"' _ "$SIM" "$2"
  if [ $RC -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] && grep -Eq "^wpusim: $2: $3\$" "$ERR"; then ok
  else bad "$1 (in 1 GB): want exit 2 and 'wpusim: $2: $3'; got $RC: $(head -c 300 "$ERR")"; fi
}
expect_load_error_lim dev-zero /dev/zero "not a regular file \(a character device\); wpusim loads an ELF executable"
mkfifo "$T/fifo.elf"; expect_load_error_lim fifo "$T/fifo.elf" "not a regular file \(a pipe or FIFO\); wpusim loads an ELF executable"
# a 3 GB sparse file whose data segment claims 1.25 GiB of it
cp "$GOOD" "$T/huge.elf"; truncate -s 3G "$T/huge.elf"; poke "$T/huge.elf" 100 00 00 00 50 00 00 00 50
expect_load_error_lim huge-data "$T/huge.elf" "segments hold 1280 MiB of file data \(to segment 1\); wpusim loads at most 1024 MiB"
rm -f "$T/huge.elf"
# a symbol table of 2 GB in a sparse file (section 4's size at 0x2170 + 4 x 40 + 20)
cp "$GOOD" "$T/hugesym.elf"; truncate -s 3G "$T/hugesym.elf"; poke "$T/hugesym.elf" $((0x2170 + 180)) 00 00 00 80
expect_load_error_lim huge-symtab "$T/hugesym.elf" "symbol and string tables of 2048 MiB; wpusim reads at most 256 MiB of them"
rm -f "$T/hugesym.elf"
printf 'hello\n' >"$T/text.elf"; expect_load_error not-elf "$T/text.elf" "not an ELF file \(bad magic number\)"
head -c 40 "$GOOD" >"$T/trunc40.elf"; expect_load_error trunc-header "$T/trunc40.elf" "truncated: 40 bytes, an ELF32 header needs 52"
head -c 100 "$GOOD" >"$T/trunc100.elf"; expect_load_error trunc-phdr "$T/trunc100.elf" "truncated: program headers end at byte 148, file has 100 bytes"
head -c 4100 "$GOOD" >"$T/trunc4100.elf"; expect_load_error trunc-data "$T/trunc4100.elf" "truncated: segment 0 data ends at byte 8192, file has 4100 bytes"
sz=$(stat -c %s "$GOOD"); head -c $((sz - 10)) "$GOOD" >"$T/trunctail.elf"; expect_load_error trunc-tail "$T/trunctail.elf" "truncated: section headers end at byte $sz, file has $((sz - 10)) bytes"
cp "$GOOD" "$T/class64.elf"; poke "$T/class64.elf" 4 02; expect_load_error class "$T/class64.elf" "ELF class 64-bit, expected 32-bit \(ELFCLASS32\) for RV32"
cp "$GOOD" "$T/be.elf"; poke "$T/be.elf" 5 02; expect_load_error endian "$T/be.elf" "big-endian or invalid data encoding, expected little-endian"
cp "$GOOD" "$T/x86.elf"; poke "$T/x86.elf" 18 3e 00; expect_load_error machine "$T/x86.elf" "machine 62 \(x86-64\), expected RISC-V \(243\)"
cp "$GOOD" "$T/rel.elf"; poke "$T/rel.elf" 16 01 00; expect_load_error type "$T/rel.elf" "ELF type 1, expected a statically linked executable \(ET_EXEC\): this is an object file, link it"
cp "$GOOD" "$T/noentry.elf"; poke "$T/noentry.elf" 24 00 00 00 00; expect_load_error no-entry "$T/noentry.elf" "missing entry point \(e_entry is 0\)"
cp "$GOOD" "$T/dataentry.elf"; poke "$T/dataentry.elf" 24 00 00 20 00; expect_load_error entry-outside "$T/dataentry.elf" "entry point 0x00200000 is not inside an executable segment"
# program header 1 (the data segment) at offset 84: p_vaddr at 92
cp "$GOOD" "$T/overlap.elf"; poke "$T/overlap.elf" 92 00 00 01 00; expect_load_error overlap "$T/overlap.elf" "segments overlap: program header 1 \(0x00010000-0x00013fff\) and loadable segment 0 \(0x00010000-0x00010fff\)"
cp "$GOOD" "$T/range.elf"; poke "$T/range.elf" 92 00 ff ff ff; expect_load_error out-of-range "$T/range.elf" "segment 1 at 0xffffff00 size 0x4000 runs past the 32-bit address space"
cp "$GOOD" "$T/guard.elf"; poke "$T/guard.elf" 60 00 01 00 00; expect_load_error guard "$T/guard.elf" "segment 0 at 0x00000100 overlaps the null guard page 0x00000000-0x00000fff"
cp "$GOOD" "$T/bigfile.elf"; poke "$T/bigfile.elf" 68 00 00 00 10; expect_load_error filesz "$T/bigfile.elf" "segment 0: file size 0x10000000 larger than memory size 0x1000"
cp "$B/cfg/diamond.elf" "$T/bigcode.elf"; poke "$T/bigcode.elf" 72 00 00 00 10
expect_load_error code-span "$T/bigcode.elf" "executable segments span 0x00010000-0x1000ffff, 256 MiB; wpusim pre-decodes at most 64 MiB of code"
# a 1.5 GiB .bss stays sparse: loads and runs at once
cp "$GOOD" "$T/bigbss.elf"; poke "$T/bigbss.elf" 104 00 00 00 60
run bigbss 20 "$SIM" --quiet --threads 2 "$T/bigbss.elf"
if [ $RC -eq 0 ]; then ok; else bad "1.5 GiB .bss: exit $RC $(head -c 300 "$ERR")"; fi

# ---------------------------------------------------------------- options
group options
expect_usage() { # NAME MESSAGE(regex) ARGS...
  local name=$1 msg=$2; shift 2
  run "opt-$name" 30 "$SIM" "$@"
  if [ $RC -eq 2 ] && grep -Eq -- "$msg" "$ERR"; then ok
  else bad "$name: want exit 2 and '$msg'; got $RC: $(cat "$ERR")"; fi
}
expect_usage unknown-option "^wpusim: unknown option '--bogus'; valid options: --config, --policy, --set, " --bogus "$GOOD"
expect_usage unknown-key "^wpusim: unknown configuration key 'nope'; valid keys: wpus, warps, warp_size, lanes, threads, " --set nope=1 "$GOOD"
expect_usage not-int "^wpusim: width: 'abc' is not an integer \(allowed 1\.\.256\)$" --set width=abc "$GOOD"
expect_usage range "^wpusim: width: 0 is out of range \(allowed 1\.\.256\)$" --set width=0 "$GOOD"
expect_usage negative "^wpusim: threads: '-4' is not a non-negative integer" --threads -4 "$GOOD"
expect_usage task-negative "^wpusim: task: '-1' is not a non-negative integer \(allowed 0\.\.4294967295\)$" --task -1 "$GOOD"
expect_usage enum "^wpusim: scheduler: 'fifo' is not one of: rr|swf$" --set scheduler=fifo "$GOOD"
expect_usage not-kv "^wpusim: 'width' is not key=value$" --set width "$GOOD"
expect_usage colour-width "^wpusim: stack_color: 512 must be a multiple of 16 with 31 x stack_color below half of stack_size \(16384\): lower stack_color or raise stack_size$" --set width=64 --set stack_color=512 "$GOOD"
expect_usage stack-align "^wpusim: stack_size: 1000 is not a multiple of 16$" --set stack_size=1000 "$GOOD"
expect_usage stacks-fit "^wpusim: threads x stack_size = 1000000 x 16384 bytes does not fit below stack_top 0xc0000000; lower threads or stack_size$" --threads 1000000 "$GOOD"
expect_usage stacks-overlap "^wpusim: $GOOD: thread stacks 0x00010000-0x0001ffff overlap loadable segment 0 at 0x00010000; lower threads or stack_size, or move stack_top$" --set stack_top=0x20000 --threads 1 --set stack_size=65536 "$GOOD"
expect_usage sets-pow2 "^wpusim: l1d_size / \(l1d_ways x l1d_line\) = 49152 / \(8 x 128\) must be a whole power-of-two number of sets$" --set l1d_size=49152 "$GOOD"
expect_usage line-pow2 "^wpusim: l2_line: 96 is not a power of two$" --set l2_line=96 "$GOOD"
expect_usage banks "^wpusim: l1d_banks: 32 banks for 16 lanes; allowed 0 \(one per lane\) \.\. lanes$" --set l1d_banks=32 "$GOOD"
expect_usage zero-mshrs "^wpusim: l1d_mshrs: 0 is out of range \(allowed 1\.\.4096\)$" --set l1d_mshrs=0 "$GOOD"
expect_usage l2-line "^wpusim: l2_line: 64 is smaller than l1d_line 128; the inclusive L2 needs l2_line >= l1d_line$" --set l2_line=64 "$GOOD"
expect_usage directory "^wpusim: wpus: 65 WPUs; the coherent directory tracks at most 64 \(use memory = bulksync or private\)$" --set wpus=65 "$GOOD"
expect_usage private-l2 "^wpusim: l2_private: private L2s need memory = bulksync" --set l2_private=1 "$GOOD"
expect_usage rows "^wpusim: dram_row_conflict: 50 is below dram_row_hit 100$" --set dram_banks=8 --set dram_row_conflict=50 "$GOOD"
expect_usage preset "^wpusim: --config nope: no such preset or file; presets: dom-l2 dom dws lwm maws-bulksync maws-coherent vector$" --config nope "$GOOD"
expect_usage stats-format "^wpusim: --stats: 'xml' is not one of: text, json, none$" --stats xml "$GOOD"
expect_usage no-value "^wpusim: option --seed needs a value" --seed
expect_usage no-program "^wpusim: no program given" --quiet
expect_usage two-programs "^wpusim: more than one program given" "$GOOD" "$GOOD"
printf 'width = 8\n# comment\nwarps = 2 # trailing\nbogus = 3\n' >"$T/bad.cfg"
expect_usage config-line "^wpusim: $T/bad.cfg:4: unknown configuration key 'bogus'" --config "$T/bad.cfg" "$GOOD"
# a directory is not an empty configuration; a NUL byte does not end one
mkdir -p "$T/cfgdir"
expect_usage config-dir "^wpusim: $T/cfgdir: not a regular file \(a directory\); a configuration is a text file of key = value lines$" --config "$T/cfgdir" "$GOOD"
expect_usage policy-dir "^wpusim: $T/cfgdir: not a regular file \(a directory\); a configuration is a text file of key = value lines$" --policy "$T/cfgdir" "$GOOD"
# a FIFO (or a device) is refused at once: it used to be waited on forever
mkfifo "$T/cfg.fifo"
for o in --config --policy; do
  run opt-config-fifo 10 "$SIM" $o "$T/cfg.fifo" "$GOOD"
  if [ $RC -eq 2 ] && grep -q "^wpusim: $T/cfg.fifo: not a regular file (a pipe or FIFO); a configuration is a text file of key = value lines$" "$ERR"; then ok
  else bad "$o FIFO: want exit 2 at once, naming it; got $RC: $(head -c 300 "$ERR")"; fi
done
rm -f "$T/cfg.fifo"
printf 'width = 8\n\nwarps = 2\0bogus = 1\n' >"$T/nul.cfg"
expect_usage config-nul "^wpusim: $T/nul.cfg:3: NUL byte; a configuration is text, key = value lines$" --config "$T/nul.cfg" "$GOOD"
run opt-config-zero 30 bash -c 'ulimit -v 1000000 && exec "$@"' _ "$SIM" --config /dev/zero "$GOOD"
if [ $RC -eq 2 ] && grep -q "^wpusim: /dev/zero: not a regular file (a character device); a configuration is a text file of key = value lines$" "$ERR"; then ok
else bad "--config /dev/zero (in 1 GB): want exit 2 naming it; got $RC: $(head -c 300 "$ERR")"; fi
truncate -s 2M "$T/big.cfg"
expect_usage config-big "^wpusim: $T/big.cfg: larger than 1 MiB; a configuration is a text file of key = value lines$" --config "$T/big.cfg" "$GOOD"
rm -f "$T/big.cfg"
printf 'width = 8\n# comment\nwarps = 2 # trailing\n' >"$T/good.cfg"
run opt-config 30 "$SIM" --config "$T/good.cfg" --set warps=3 --print-config
if [ $RC -eq 0 ] && grep -Eq '^warp_size += 8 +#' "$OUT" && grep -Eq '^lanes += 8 +#' "$OUT" \
   && ! grep -Eq '^width ' "$OUT" && grep -Eq '^warps += 3 +#' "$OUT"; then ok
else bad "config file + override: $(cat "$OUT" "$ERR")"; fi
# threads per warp and SIMD lanes are two keys; width sets both; apart they need large warps
expect_usage lwm-512 "^wpusim: lwm_size: 512 threads per large warp; allowed a multiple of lanes up to 256 " --set lwm=on --set lwm_size=512 "$GOOD"
expect_usage lwm-dws "^wpusim: lwm: large warps with dynamic warp subdivision \(dws = on\) are not modelled" --set lwm=on --set dws=on "$GOOD"
expect_usage lwm-lanes "^wpusim: lwm_size: large warps of 24 threads .* must be a multiple of lanes \(16\)" --set lwm=on --set lwm_size=24 "$GOOD"
expect_usage lanes-apart "^wpusim: lanes: 8 SIMD lanes for warps of 16 threads; warps apart from the SIMD width are only 004's large warps \(lwm = on\); otherwise set both, or width$" --set lanes=8 "$GOOD"
run opt-alias 30 "$SIM" --set warp_size=4 --set lanes=4 --print-config
cp "$OUT" "$T/alias1"
run opt-alias2 30 "$SIM" --set width=4 --print-config
if [ $RC -eq 0 ] && cmp -s "$OUT" "$T/alias1"; then ok; else bad "--set width=4 should equal warp_size=4 lanes=4"; fi
# --print-config is a config file; --config layers apply in order
cp "$OUT" "$T/printed.cfg"
run opt-roundtrip 30 "$SIM" --config "$T/printed.cfg" --print-config
if [ $RC -eq 0 ] && cmp -s "$OUT" "$T/printed.cfg"; then ok; else bad "--print-config output does not read back as the same configuration: $(head -c 300 "$ERR")"; fi
printf 'l1d_ways = 2\n' >"$T/ways.cfg"
run opt-layers 30 "$SIM" --config lwm --config "$T/ways.cfg" --print-config
if grep -Eq '^wpus += 1 ' "$OUT" && grep -Eq '^warps += 32 ' "$OUT" && grep -Eq '^l1d_ways += 2 ' "$OUT"; then ok
else bad "--config lwm --config file should layer: $(grep -E '^(wpus|warps|l1d_ways) ' "$OUT")"; fi
# outputs are opened before the run: a bad path costs no simulation
expect_usage stats-out-path "^wpusim: --stats-out /nonexistent/s.json: cannot open for writing: No such file or directory$" --stats-out /nonexistent/s.json "$GOOD"
expect_usage dump-path "^wpusim: --dump /nonexistent/d.bin: cannot open for writing: No such file or directory$" --dump /nonexistent/d.bin "$GOOD"
expect_usage dump-none "^wpusim: --dump: $GOOD registers no results \(no WSIM_RESULT records\)$" --dump "$T/none.bin" "$GOOD"
expect_usage quiet-stats-out "^wpusim: --stats-out $T/q.json with no statistics" --quiet --stats-out "$T/q.json" "$GOOD"
# Nothing given is silently dropped or replaced: a second --policy (it sets
# every mechanism key) or the same block recorded twice is refused; two
# outputs on one file, an output on the program, or two traces on stdout
# are refused before anything is written (they used to overwrite each other).
expect_usage policy-twice "^wpusim: --policy given twice \(DWS.ReviveSplit, then DoM.Adaptive\): a policy sets every mechanism key; give one, and change single keys with --set$" \
    --policy DWS.ReviveSplit --policy DoM.Adaptive "$GOOD"
expect_usage record-twice "^wpusim: --record-block mdt given twice \($T/m1, then $T/m2\): one file per block$" \
    --policy DoM.Adaptive --record-block mdt="$T/m1" --record-block mdt="$T/m2" "$GOOD"
echo keep >"$T/same.out"
for o in "--stats-out $T/same.out --dump $T/./same.out" "--stats-out $T/same.out --trace $T/same.out" \
         "--trace $T/same.out --record-block wst=$T/same.out" "--dump $T/new.out --branch-profile $T/../${T##*/}/new.out"; do
  set -- $o
  run opt-same 30 "$SIM" --policy DWS.ReviveSplit $o "$K"
  if [ $RC -eq 2 ] && grep -q "^wpusim: $1 $2 and $3 $4 are the same file: each output needs its own$" "$ERR" \
     && [ "$(cat "$T/same.out")" = keep ] && [ ! -e "$T/new.out" ]; then ok
  else bad "wpusim $o: want exit 2 naming both and nothing written; got $RC: $(head -c 300 "$ERR")"; fi
done
cp "$K" "$T/prog.elf"
expect_usage same-program "^wpusim: --dump $T/prog.elf would overwrite the program $T/prog.elf: write it elsewhere$" --dump "$T/prog.elf" "$T/prog.elf"
cmp -s "$K" "$T/prog.elf" && ok || bad "--dump onto the program changed it"
expect_usage same-stdout "^wpusim: --trace - and --record-block wst=- both write to standard output" \
    --policy DWS.ReviveSplit --trace - --record-block wst=- "$K"
# Every block recorded at once, each to its own file: both of DoM's replay.
run opt-record-two 60 "$SIM" --quiet --policy DoM.Adaptive --record-block mdt="$T/two.mdt" --record-block asc="$T/two.asc" \
    --threads 64 "$K"
if [ $RC -eq 0 ] && "$B/tests/replay_block" "$T/two.mdt" >/dev/null && "$B/tests/replay_block" "$T/two.asc" >/dev/null \
   && head -n 1 "$T/two.mdt" | grep -q "block=mdt" && head -n 1 "$T/two.asc" | grep -q "block=asc"; then ok
else bad "--record-block mdt=... --record-block asc=...: want both traces, each replaying; got $RC: $(head -c 300 "$ERR") $(ls "$T"/two.* 2>&1)"; fi
rm -f "$T"/two.* "$T/prog.elf" "$T/same.out"
run opt-unused 30 "$SIM" --quiet --set mem_latency=500 --threads 2 "$GOOD"
if [ $RC -eq 0 ] && grep -q "^wpusim: warning: --set mem_latency has no effect under memory = coherent: it applies to memory = fixed$" "$ERR"; then ok
else bad "a --set key the organization ignores should warn: exit $RC: $(cat "$ERR")"; fi
# ... as keys of mechanisms that are off do (dws_*, dom_* did already), and
# --task on a kernel built without tasks.h (it never reads CSR wsim.task).
for c in "fetch_timeout=300|--set fetch_timeout has no effect without scheduler = twolevel; choose a policy, e.g. --policy 2Lev, or --set scheduler=twolevel" \
         "fetch_group_size=2|--set fetch_group_size has no effect without scheduler = twolevel" \
         "lwm_size=64|--set lwm_size has no effect with lwm = off; choose --config lwm --policy LWM, or --set lwm=on" \
         "private_latency=3|--set private_latency has no effect with private_mem = 0" \
         "task=1|--task has no effect: $GOOD never reads the task mapping (CSR wsim.task); the kernels built with tasks.h are build/kernels/tasks/NAME.elf"; do
  run opt-unused-mech 30 "$SIM" --quiet --set "${c%%|*}" --threads 2 "$GOOD"
  if [ $RC -eq 0 ] && grep -qF "wpusim: warning: ${c#*|}" "$ERR" && [ "$(wc -l <"$ERR")" = 1 ]; then ok
  else bad "--set ${c%%|*}: want exit 0 and the warning '${c#*|}'; got $RC: $(cat "$ERR")"; fi
done
run opt-used-mech 30 "$SIM" --quiet --config lwm --policy LWM+2Lev --set fetch_timeout=300 --set lwm_size=64 --set private_latency=2 \
    --task 1 "$B/kernels/tasks/filter.elf"
if [ $RC -eq 0 ] && [ ! -s "$ERR" ]; then ok; else bad "keys that take effect must not warn: exit $RC: $(cat "$ERR")"; fi
run opt-used 30 "$SIM" --quiet --set memory=fixed --set mem_latency=500 --threads 2 "$GOOD"
if [ $RC -eq 0 ] && [ ! -s "$ERR" ]; then ok; else bad "mem_latency under memory=fixed must not warn: $(cat "$ERR")"; fi
run opt-help 30 "$SIM" --help
helpok=1
for key in $(sed -n 's/^  \([a-z_]*\) .*/\1/p' "$T/opt-config.out"); do grep -q "^  $key " "$OUT" || { helpok=0; bad "--help does not document key $key"; }; done
for opt in --config --set --threads --seed --arg --task --max-cycles --stats --stats-out --trace --dump --dump-cfg --quiet --version; do
  grep -q -- "^  $opt" "$OUT" || { helpok=0; bad "--help does not document $opt"; }
done
[ $helpok = 1 ] && [ $RC -eq 0 ] && ok
# The CSR table of docs/abi.md is generated from cmodel/csr.def, which also
# gives the executor, the disassembler and warpsplit.h their CSRs.
run opt-csr-doc 30 python3 scripts/csr_table.py --check docs/abi.md
if [ $RC -eq 0 ]; then ok; else bad "CSR table: $(head -c 300 "$ERR")"; fi
run opt-version 30 "$SIM" --version
if [ $RC -eq 0 ] && grep -Eq '^wpusim [0-9]+\.[0-9]+\.[0-9]+$' "$OUT"; then ok; else bad "--version: $(cat "$OUT")"; fi

# ---------------------------------------------------------------- dynamic warp subdivision
# The warp-split table's C model against hand-worked values; every kernel
# under every named policy on every preset with --check: results, thread-
# instruction count and per-thread instruction counts identical to Conv.
group dws
run wst-unit 60 "$B/tests/test_wst"
if [ $RC -eq 0 ]; then ok; else bad "test_wst: $(grep FAIL "$OUT" | head -n 5)"; fi
# The blocks' hand-worked tests as data (tests/blocks/<block>/NAME.in with
# NAME.expect) on their C models; tests/rtl.sh runs the same files on the RTL.
for f in tests/blocks/*/*.in; do
  n=$(basename "$(dirname "$f")")-$(basename "$f" .in)
  run "blocks-$n" 30 "$B/tests/replay_block" "$f" "${f%.in}.expect"
  if [ $RC -eq 0 ] && grep -q "all match" "$OUT"; then ok; else bad "$f on the C model: exit $RC: $(head -c 400 "$ERR")"; fi
done
# ... and they fail when a value is wrong, naming the port (an output, a
# registered read port) or the malformed field.
W=tests/blocks/wst/basic
awk '/^c=17 u=0 \|/ { sub(/latspec=1/, "latspec=0") } { print }' $W.expect > "$T/wst-bad1.expect"
run blocks-bad1 30 "$B/tests/replay_block" $W.in "$T/wst-bad1.expect"
if [ $RC -eq 1 ] && grep -q "wst-bad1.expect:[0-9]*: c=17 u=0: port latspec_o" "$ERR"; then ok
else bad "a wrong expected output was not named: exit $RC: $(head -c 300 "$ERR")"; fi
sed 's/ent_icnt\[0\]=7 /ent_icnt[0]=6 /' $W.expect > "$T/wst-bad2.expect"
run blocks-bad2 30 "$B/tests/replay_block" $W.in "$T/wst-bad2.expect"
if [ $RC -eq 1 ] && grep -q "port ent_icnt_o (entry 0)" "$ERR" && grep -q "expected 6" "$ERR"; then ok
else bad "a wrong registered read port was not named: exit $RC: $(head -c 300 "$ERR")"; fi
sed '/^c=05 /s/ lag_vec=[0-9a-f]*//' $W.expect > "$T/wst-bad3.expect"
run blocks-bad3 30 "$B/tests/replay_block" $W.in "$T/wst-bad3.expect"
if [ $RC -eq 2 ] && grep -q "wst-bad3.expect:[0-9]*: missing field 'lag_vec'" "$ERR"; then ok
else bad "a line without lag_vec was not rejected: exit $RC: $(head -c 300 "$ERR")"; fi
# What else comes from the port tables (cmodel/blocks/<block>.def) is up to date:
# the port table of the doc page and the GTKWave layout.
run blocks-doc 30 python3 scripts/blockports.py doc wst --check
if [ $RC -eq 0 ]; then ok; else bad "$(cat "$OUT" "$ERR")"; fi
run blocks-doc-asc 30 python3 scripts/blockports.py doc asc --check
if [ $RC -eq 0 ]; then ok; else bad "$(cat "$OUT" "$ERR")"; fi
# The ASC refuses bad parameters naming them (exit 2), and with
# WSIM_TEST_LONG=1 every single-rule mutant of asc.c fails its traces.
sed '2s/max0=2/max0=0/' tests/blocks/asc/rules.in > "$T/asc-bad.in"
run blocks-asc-param 30 "$B/tests/replay_block" "$T/asc-bad.in"
if [ $RC -eq 2 ] && grep -q "max0 must be 1..2^cnt_bits-1" "$ERR"; then ok
else bad "an ASC with max0=0 was not refused: exit $RC: $(head -c 300 "$ERR")"; fi
if [ "$LONG" = 1 ]; then
  run blocks-asc-mutants 300 bash tests/blocks/asc/mutants.sh
  if [ $RC -eq 0 ]; then ok; else bad "ASC mutants: $(grep -v caught "$OUT" | head -n 5) $(head -c 300 "$ERR")"; fi
fi
# Any number of units replays, each from reset: adapt's 18 clocks as 1,100
# units (more than replay_block's former table of 1,024, which skipped the
# rest as "all match"); one changed output in unit 1,100 is found, and
# unit 0x44b's replay is unaffected (each unit starts from reset).
for f in in expect; do
  awk '/^#/ { print; next } { body = body $0 "\n" }
       END { for (u = 0; u < 1100; u++) { b = body; gsub(/ u=0 /, sprintf(" u=%x ", u), b); printf "%s", b } }' \
      tests/blocks/asc/adapt.$f > "$T/units.$f"
done
sed '/^c=05 u=44b /s/ dir=2/ dir=1/' "$T/units.expect" > "$T/units-bad.expect" # (c=05: dir=2 in adapt.expect)
run blocks-units 60 "$B/tests/replay_block" "$T/units.in" "$T/units.expect"
if [ $RC -eq 0 ] && grep -q "^replay_block: 19800 clocks of 1100 unit(s) from .*, 19800 with outputs checked: all match$" "$OUT"; then ok
else bad "1,100 units of asc/adapt: exit $RC: $(cat "$OUT") $(head -c 300 "$ERR")"; fi
run blocks-units-bad 60 "$B/tests/replay_block" "$T/units.in" "$T/units-bad.expect"
bl=$(grep -n '^c=05 u=44b ' "$T/units-bad.expect" | cut -d: -f1)
if [ $RC -eq 1 ] && grep -q "^replay_block: $T/units-bad.expect:$bl: c=5 u=44b: port dir_o$" "$ERR"; then ok
else bad "a changed output in unit 1,100 of 1,100: want exit 1 naming its line; got $RC: $(cat "$OUT") $(head -c 300 "$ERR")"; fi
# A trace is read with the loader's care: a FIFO (its open used to wait
# forever), a device or a directory is refused at once, naming what it is.
mkdir -p "$T/tr-dir"; mkfifo "$T/tr-fifo"
for c in "$T/tr-dir:a directory" "$T/tr-fifo:a pipe or FIFO" "/dev/zero:a device"; do
  run blocks-notfile 10 "$B/tests/replay_block" "${c%%:*}"
  if [ $RC -eq 2 ] && grep -q "^replay_block: ${c%%:*}: not a regular file (${c#*:}); a port trace is a text file$" "$ERR"; then ok
  else bad "replay_block ${c%%:*}: want exit 2 at once naming ${c#*:}; got $RC: $(head -c 300 "$ERR")"; fi
done
rm -rf "$T/tr-dir" "$T/tr-fifo"
run blocks-doc-colpick 30 python3 scripts/blockports.py doc colpick --check
if [ $RC -eq 0 ]; then ok; else bad "$(cat "$OUT" "$ERR")"; fi
# The column picker refuses a 512-thread large warp (wmask_t holds 256 bits).
run blocks-colpick-toolarge 30 "$B/tests/replay_block" tests/blocks/colpick/toolarge.trace
if [ $RC -eq 2 ] && grep -q "rows x cols must be at most 256" "$ERR"; then ok
else bad "colpick rows=16 cols=32 not refused: exit $RC: $(head -c 300 "$ERR")"; fi
run blocks-gtkw 30 python3 tb/gtkw.py wst dws
if [ $RC -eq 0 ] && cmp -s "$OUT" tb/wst.gtkw; then ok
else bad "tb/wst.gtkw is out of date with cmodel/blocks/wst.def: python3 tb/gtkw.py wst dws > tb/wst.gtkw $(cat "$ERR")"; fi
run blocks-gtkw-asc 30 python3 tb/gtkw.py asc dom4
if [ $RC -eq 0 ] && cmp -s "$OUT" tb/asc.gtkw; then ok
else bad "tb/asc.gtkw is out of date with cmodel/blocks/asc.def: python3 tb/gtkw.py asc dom4 > tb/asc.gtkw $(cat "$ERR")"; fi
mkdir -p "$T/dws"
# (tests/matrix.sh: which kernel x preset pairs; every policy on each)
bash tests/matrix.sh "$B" $([ "$LONG" = 1 ] && echo long) > "$T/dws/pairs"
while read -r k preset; do
  extra=""; [ $preset = lwm ] && extra="--set dws_entries=64" # 32 warps: every warp holds an entry
  echo "$B/kernels/$k.elf $preset $T/dws${extra:+ $extra}"
done < "$T/dws/pairs" | xargs -P 2 -L 1 bash tests/dws_equiv.sh "$SIM" > "$T/dws/results" 2>&1
while read -r word rest; do
  if [ "$word" = ok ]; then ok; else bad "$rest"; fi
done < "$T/dws/results"
if [ "$LONG" = 1 ]; then # the DWS suite at its small size on the papers' systems, with --check
  for preset in dws maws-coherent maws-bulksync; do
    for k in fft filter hotspot lu merge short kmeans svm; do echo "$B/kernels/$k.elf $preset $T/dws --arg 1"; done
  done | xargs -P 2 -L 1 bash tests/dws_equiv.sh "$SIM" > "$T/dws/long" 2>&1
  while read -r word rest; do
    if [ "$word" = ok ]; then ok; else bad "small size: $rest"; fi
  done < "$T/dws/long"
fi
n=$(grep -c '' "$T/dws/results")
want=$(( $(grep -c '' "$T/dws/pairs") * $(ls sim/policies/*.cfg | wc -l) ))
if [ "$n" = "$want" ]; then ok; else bad "policy matrix: $n results, expected $want"; fi
# Each mechanism does what its policy says (on kernels that diverge).
dws_stat() { # dws_stat POLICY KERNEL KEY: the total of KEY on the dws preset
  run "dws-$1-$2" 120 "$SIM" --policy "$1" --stats json "$B/kernels/$2.elf"
  json_total "$OUT" "$3"
}
for pk in "DWS.BranchOnly.Stack nqueens" "DWS.BranchOnly.PC nqueens"; do set -- $pk
  sb=$(dws_stat $1 $2 splits_branch); sm=$(dws_stat $1 $2 splits_mem); mp=$(dws_stat $1 $2 merges_pc)
  if [ "${sb:-0}" -gt 0 ] && [ "$sm" = 0 ] && { [ $1 = DWS.BranchOnly.PC ] || [ "$mp" = 0 ]; }; then ok
  else bad "$1 on $2: splits_branch $sb (want > 0), splits_mem $sm (want 0), merges_pc $mp"; fi
done
for pol in DWS.ReviveSplit.MemOnly DWS.AggressSplit.BL MAWS.LatSpec; do
  sb=$(dws_stat $pol kmeans splits_branch); sm=$(dws_stat $pol kmeans splits_mem)
  if [ "$sb" = 0 ] && [ "${sm:-0}" -gt 0 ]; then ok; else bad "$pol on kmeans: splits_branch $sb (want 0), splits_mem $sm (want > 0)"; fi
done
sr=$(dws_stat DWS.ReviveSplit kmeans splits_revive)
if [ "${sr:-0}" -gt 0 ]; then ok; else bad "DWS.ReviveSplit on kmeans: no revive splits"; fi
sy=$(dws_stat DWS.AggressSplit.BL kmeans merges_sync)
if [ "${sy:-0}" -gt 0 ]; then ok; else bad "DWS.AggressSplit.BL on kmeans: no merges at re-convergence points"; fi
# Hand-checked counts on one 16-lane warp splitting on every divergent branch:
# early_return: one split at the branch, the side that returns first re-joins
# through the call site (a stack merge), the other folds back into the warp.
for case in "early_return 1 1 0" "recursion 2 2 0" "diamond 1 0 0"; do set -- $case
  run "dws-$1" 30 "$SIM" --policy DWS.BranchOnly.Stack --set dws_branch=all --threads 16 --set wpus=1 --set warps=1 \
      --stats json --check "$B/cfg/$1.elf"
  got="$(json_total "$OUT" splits_branch) $(json_total "$OUT" merges_stack) $(json_total "$OUT" merges_pc)"
  if [ $RC -eq 0 ] && [ "$got" = "$2 $3 $4" ]; then ok
  else bad "$1 under DWS.BranchOnly.Stack: exit $RC, splits/stack merges/pc merges $got, expected $2 $3 $4"; fi
done
# Loop bypassing past a rotated loop's forward exit test (tests/sim/loop_bypass.S
# derives the counts): splits on loads / merges at a wait / waits.
for case in "1 1 1 1" "0 10 10 10"; do set -- $case
  run "dws-loop-bypass-$1" 30 "$SIM" --config maws-bulksync --policy MAWS.Aggress --set dws_loop_bypass=$1 \
      --set wpus=1 --set warps=1 --threads 8 --stats json --check "$B/simtests/loop_bypass.elf"
  got="$(json_total "$OUT" splits_mem) $(json_total "$OUT" merges_sync) $(json_total "$OUT" sync_waits)"
  if [ $RC -eq 0 ] && [ "$got" = "$2 $3 $4" ]; then ok
  else bad "loop_bypass under MAWS.Aggress, dws_loop_bypass=$1: exit $RC, splits_mem/merges_sync/sync_waits $got, expected $2 $3 $4"; fi
done
# The same program under Conv: exit_br issues 10 times (a loop branch), post_br
# once (non-loop); neither diverges.
run "dws-loop-bypass-conv" 30 "$SIM" --config maws-bulksync --set wpus=1 --set warps=1 --threads 8 --stats json \
    "$B/simtests/loop_bypass.elf"
got="$(json_total "$OUT" branches) $(json_total "$OUT" nonloop_branches) $(json_total "$OUT" div_branches)"
if [ $RC -eq 0 ] && [ "$got" = "11 1 0" ]; then ok
else bad "loop_bypass under Conv: exit $RC, branches/non-loop/divergent $got, expected 11 1 0"; fi
# The table and its scheduler with nothing to split on: cycle for cycle Conv.
for k in kmeans nqueens; do
  run dws-nosplit 60 "$SIM" --policy DWS.ReviveSplit --set dws_mem=none --set dws_branch=none --stats json "$B/kernels/$k.elf"
  a=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT")
  run dws-conv 60 "$SIM" --policy Conv --stats json "$B/kernels/$k.elf"
  b=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT")
  if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "$k: dws on without split causes takes $a cycles, Conv $b"; fi
done
# A table with one entry per warp cannot split while every warp is resident.
full_w=$(dws_stat DWS.AggressSplit kmeans wst_full)
run dws-full 60 "$SIM" --policy DWS.AggressSplit --set dws_entries=4 --stats json "$B/kernels/kmeans.elf"
if [ "$(json_total "$OUT" wst_full)" -gt "${full_w:-0}" ]; then ok
else bad "4-entry table for 4 warps: wst_full $(json_total "$OUT" wst_full), 16 entries: $full_w"; fi
# Determinism and stepping == skipping under DWS.
run dws-det1 60 "$SIM" --policy MAWS.LatSpec --config maws-coherent --stats json "$B/kernels/merge.elf"; cp "$OUT" "$T/dws/det1"
run dws-det2 60 "$SIM" --policy MAWS.LatSpec --config maws-coherent --stats json "$B/kernels/merge.elf"
if cmp -s "$OUT" "$T/dws/det1"; then ok; else bad "two identical MAWS.LatSpec runs differ"; fi
run dws-step 120 "$SIM" --policy MAWS.LatSpec --config maws-coherent --set skip_idle=0 --stats json "$B/kernels/merge.elf"
if diff <(grep -v skip_idle "$OUT") <(grep -v skip_idle "$T/dws/det1") >/dev/null; then ok
else bad "MAWS.LatSpec: stepping every cycle and skipping idle cycles differ"; fi
# A run in budgets (--progress: wsim_run_until, starting at 4096 cycles and
# growing) is the same run, cycle for cycle, with idle skips cut at the
# budget's end; its last line names the cycles the statistics report.
run dws-budget 120 "$SIM" --progress --policy MAWS.LatSpec --config maws-coherent --stats json "$B/kernels/merge.elf"
cyc=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$T/dws/det1")
if cmp -s "$OUT" "$T/dws/det1" && grep -Eq "^wpusim: ran $cyc cycles, [0-9]+ thread-insts in [0-9.]+ s" "$ERR" \
   && [ "${cyc:-0}" -gt 8192 ]; then ok
else bad "MAWS.LatSpec run in budgets (--progress) differs from one run, or no last line: $(head -c 300 "$ERR")"; fi
run dws-no-progress 60 "$SIM" --progress --no-progress --quiet "$B/kernels/mandel.elf"
if [ $RC -eq 0 ] && [ ! -s "$ERR" ]; then ok; else bad "--no-progress still printed: $(head -c 200 "$ERR")"; fi
# The recorded port trace: a header and one line per operation.
run dws-record 60 "$SIM" --quiet --policy DWS.ReviveSplit --record-block wst="$T/dws/wst.trace" "$B/kernels/filter.elf"
if [ $RC -eq 0 ] && head -n 1 "$T/dws/wst.trace" | grep -qx '# warpsplit-port-trace 2 block=wst' \
   && sed -n 2p "$T/dws/wst.trace" | grep -qx '# wst entries=16 width=16 warps=4 pc_bits=32 cnt_bits=16 mfc_bits=16' \
   && sed -n 3p "$T/dws/wst.trace" | grep -Eq '^c=000000000000 u=000 idx=00 elig=0{16} mpc=00000000 op=1 free=0 set=1 warp=000 pc=00010000 mask=ffff st=0 ' \
   && [ "$(grep -c 'spawn=1' "$T/dws/wst.trace")" -gt 0 ]; then ok
else bad "--record-block wst: $(head -n 3 "$T/dws/wst.trace" | cut -c1-200)"; fi
run dws-record-replay 60 "$B/tests/replay_block" "$T/dws/wst.trace"
if [ $RC -eq 0 ] && grep -q "all match" "$OUT"; then ok; else bad "replaying the recorded trace on the C block: exit $RC: $(head -c 300 "$ERR")"; fi
# FILE.gz: the same trace through gzip (and the instruction trace too), read
# back compressed; a truncated .gz is an error, not a shorter trace.
run dws-record-gz 60 "$SIM" --quiet --policy DWS.ReviveSplit --record-block wst="$T/dws/wst.trace.gz" \
    --trace "$T/dws/insn.gz" "$B/kernels/filter.elf"
run dws-record-plain 60 "$SIM" --quiet --policy DWS.ReviveSplit --trace "$T/dws/insn" "$B/kernels/filter.elf"
if [ $RC -eq 0 ] && zcat "$T/dws/wst.trace.gz" | cmp -s - "$T/dws/wst.trace" && zcat "$T/dws/insn.gz" | cmp -s - "$T/dws/insn" \
   && [ "$(stat -c %s "$T/dws/wst.trace.gz")" -lt "$(( $(stat -c %s "$T/dws/wst.trace") / 20 ))" ]; then ok
else bad "--record-block/--trace FILE.gz: not the plain traces, compressed 20x: exit $RC: $(head -c 300 "$ERR")"; fi
run dws-record-gz-replay 60 "$B/tests/replay_block" "$T/dws/wst.trace.gz"
if [ $RC -eq 0 ] && grep -q "all match" "$OUT"; then ok; else bad "replaying a .gz trace: exit $RC: $(head -c 300 "$ERR")"; fi
head -c 20000 "$T/dws/wst.trace.gz" > "$T/dws/cut.trace.gz"
run dws-record-gz-cut 60 "$B/tests/replay_block" "$T/dws/cut.trace.gz"
if [ $RC -eq 2 ] && grep -q "cut.trace.gz" "$ERR"; then ok; else bad "a truncated .gz trace: exit $RC: $(head -c 300 "$ERR")"; fi
# Large warps of one row (lwm_size = lanes) are the baseline: every
# instruction one sub-warp of the whole warp, the re-fetch when it completes,
# a refused access set aside and retried. With round-robin fetch (the LWM's)
# the run is Conv's cycle for cycle, memory hierarchy included: the same
# statistics but for where a refused access counts (LWM: an issue cycle, the
# instruction was fetched; Conv: a memory wait, and its fetch again: the L1 I
# accesses) and the live-group counts. (LWM's own section goes, in the whole
# run and in the region of interest, which merge marks.)
for k in mandel merge; do
  run "lwm-one-row-$k-conv" 60 "$SIM" --stats json --set switch_on=cycle --set pipeline_depth=5 "$B/kernels/$k.elf"
  sed -e '/^  "config": {$/,/^  },$/d' "$OUT" | grep -Ev '"(cycles_issue|cycles_memwait|groups_sum|groups_max|l1i)"' > "$T/dws/$k.conv.json"
  run "lwm-one-row-$k" 60 "$SIM" --stats json --set switch_on=cycle --set pipeline_depth=5 --policy LWM --set lwm_size=16 \
      "$B/kernels/$k.elf"
  sed -e '/^  "config": {$/,/^  },$/d' -e '/^  "lwm": {$/,/^  },$/d' -e '/^    "lwm": {$/,/^    },\{0,1\}$/d' "$OUT" \
    | grep -Ev '"(cycles_issue|cycles_memwait|groups_sum|groups_max|l1i)"' > "$T/dws/$k.lwm.json"
  if [ $RC -eq 0 ] && grep -q '"cycles"' "$T/dws/$k.lwm.json" && cmp -s "$T/dws/$k.conv.json" "$T/dws/$k.lwm.json"; then ok
  else bad "$k: one-row large warps differ from Conv: exit $RC, $(diff "$T/dws/$k.conv.json" "$T/dws/$k.lwm.json" | head -n 6)"; fi
done
# The column picker's port traffic from a whole LWM run replays on its C
# block; the first sub-warp's clock loads all 256 threads of large warp 0.
run lwm-record 60 "$SIM" --quiet --config lwm --policy LWM --record-block colpick="$T/dws/colpick.trace" "$B/kernels/mandel.elf"
if [ $RC -eq 0 ] && sed -n 2p "$T/dws/colpick.trace" | grep -qx '# colpick rows=8 cols=32' \
   && sed -n 3p "$T/dws/colpick.trace" | grep -Eq '^c=[0-9a-f]{12} u=000 load=1 mask=f{64} one=0 dep=0{64} take=1 drop=0 \| valid=ffffffff row=0{24} pick=0{56}f{8} cnt=20 stall=1$'; then ok
else bad "--record-block colpick: exit $RC: $(head -n 3 "$T/dws/colpick.trace" | cut -c1-200) $(head -c 300 "$ERR")"; fi
run lwm-record-replay 60 "$B/tests/replay_block" "$T/dws/colpick.trace"
if [ $RC -eq 0 ] && grep -q "all match" "$OUT"; then ok; else bad "replaying the recorded colpick trace: exit $RC: $(head -c 300 "$ERR")"; fi
run lwm-record-off 30 "$SIM" --quiet --record-block colpick="$T/dws/x.trace" "$B/kernels/mandel.elf"
if [ $RC -eq 2 ] && grep -q "there is no column picker with lwm = off" "$ERR"; then ok; else bad "--record-block colpick without lwm: exit $RC: $(cat "$ERR")"; fi
# Bad input: clear errors.
run dws-bad1 30 "$SIM" --policy DWS.Nope "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "no such policy or file; policies: 2Lev.Timeout 2Lev Conv DWS.AggressSplit" "$ERR"; then ok; else bad "unknown policy: $RC $(cat "$ERR")"; fi
run dws-bad2 30 "$SIM" --config lwm --policy DWS.ReviveSplit "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "dws_entries: 16 warp-split table entries for 32 warps" "$ERR"; then ok; else bad "small table: $RC $(cat "$ERR")"; fi
run dws-bad3 30 "$SIM" --set scheduler=swf "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "scheduler: swf .* it needs dws = on" "$ERR"; then ok; else bad "swf without dws: $RC $(cat "$ERR")"; fi
run dws-bad4 30 "$SIM" --record-block wst="$T/x" "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "no warp-split table with dws = off" "$ERR"; then ok; else bad "record without dws: $RC $(cat "$ERR")"; fi
# --check can fail: a thread dropped from a group (test hook) is reported.
for pol in Conv DWS.ReviveSplit LWM; do
  WSIM_CHECK_INJECT=500 run "dws-inject-$pol" 30 "$SIM" --policy $pol --check --quiet "$B/kernels/filter.elf"
  if [ $RC -eq 3 ] && grep -Eq "^wpusim: --check failed at cycle [0-9]+: WPU 0 warp 0.*(groups and stack hold lanes|does not mirror)" "$ERR"; then ok
  else bad "$pol: --check did not report a lost thread: exit $RC: $(head -c 300 "$ERR")"; fi
done
run dws-inert 30 "$SIM" --quiet --set dws_mem=revive "$B/kernels/filter.elf"
if [ $RC -eq 0 ] && grep -q "warning: --set dws_mem has no effect with dws = off; choose a policy" "$ERR"; then ok
else bad "dws key without dws: exit $RC: $(cat "$ERR")"; fi
# The watchdog names the stuck warp and its groups (provoked: 2000-cycle memory, 500-cycle watchdog).
run dws-watchdog 30 "$SIM" --policy DWS.ReviveSplit --set memory=fixed --set mem_latency=2000 --set watchdog=500 "$B/kernels/filter.elf"
if [ $RC -eq 3 ] && grep -q "^wpusim: watchdog at cycle [0-9]*: WPU 0 warp 0 (threads 0..) has issued nothing since cycle" "$ERR" \
   && grep -q "group 0 (root): pc 0x[0-9a-f]* (.*) lanes ffff, waits for memory" "$ERR"; then ok
else bad "watchdog: want exit 3 and a report; got $RC: $(head -c 400 "$ERR")"; fi

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
run fa-starved 120 "$SIM" --config lwm --policy 2Lev --arg 2 --quiet --dump "$T/fa-starved.dump" "$B/kernels/blackjack.elf"
R2=$RC
run fa-starved-conv 120 "$SIM" --config lwm --policy Conv --arg 2 --quiet --dump "$T/fa-starved-conv.dump" "$B/kernels/blackjack.elf"
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

# ---------------------------------------------------------------- 004's experiments
# scripts/lwm_experiments.py (docs/lwm.md, "004's experiments") on two tiny kernels:
# it runs, every table has its rows (each kernel a row in Fig. 8, 10, 11, 9 and the
# memory table: 5), and a run whose results differ is caught.
group exp004
run e4-run 120 python3 scripts/lwm_experiments.py --kernels blackjack,aes --jobs 1 --markdown "$T/e4.md" \
    --report "$T/e4.html"
if [ $RC -eq 0 ] && grep -q "^lwm_experiments: 21 runs\|^lwm_experiments: 2[0-9] runs" "$ERR" \
   && grep -q "<title>WarpSplit: 004 Fig. 8&#x27;s legends on blackjack" "$T/e4.html" \
   && grep -q "<title>LWM+2Lev WPU 0 issue: " "$T/e4.html" && grep -q '^Report page .*(e4.html)$' "$T/e4.md" \
   && grep -q "^\[21/21\] \|^\[2[0-9]/2[0-9]\] " "$ERR" \
   && [ "$(grep -c '^| blackjack | [0-9]' "$T/e4.md")" = 5 ] && [ "$(grep -c '^| aes (decrypt) | [0-9]' "$T/e4.md")" = 5 ] \
   && grep -q '^| 004 §5.1 | +7.9% | +9.9% | +19.1% |' "$T/e4.md" && grep -q '^| 2Lev.Timeout | [0-9]* | ' "$T/e4.md" \
   && grep -q 'equal Conv.s: yes' "$T/e4.md" && cmp -s "$OUT" "$T/e4.md"; then ok
else bad "lwm_experiments.py: exit $RC: $(tail -n 3 "$ERR") $(head -c 300 "$T/e4.md")"; fi
# a simulator whose LWM runs change the results must make it fail (exit 1, named)
mkdir -p "$T/e4b" && ln -sf "$PWD/$B/kernels" "$T/e4b/kernels"
printf '#!/bin/sh\n"%s" "$@" || exit $?\ncase " $* " in *" --policy LWM "*) for a; do [ "$p" = --dump ] && echo x >>"$a"; p=$a; done ;; esac\n' \
  "$PWD/$SIM" > "$T/e4b/wpusim" && chmod +x "$T/e4b/wpusim"
run e4-bad 120 python3 scripts/lwm_experiments.py --kernels aes --jobs 1 --build "$T/e4b"
if [ $RC -eq 1 ] && grep -q "^  LWM aes: results (--dump) differ from Conv's" "$OUT" && ! grep -q "2Lev aes: results" "$OUT"; then ok
else bad "lwm_experiments.py missed changed results: exit $RC: $(tail -n 3 "$OUT")"; fi
run e4-badk 30 python3 scripts/lwm_experiments.py --kernels mandel
if [ $RC -eq 2 ] && grep -q "unknown kernel 'mandel'" "$ERR"; then ok; else bad "unknown kernel: exit $RC $(cat "$ERR")"; fi

# ---------------------------------------------------------------- diverge on miss
# docs/dom.md. The MDT's hand-worked port traces (tests/blocks/mdt) run with
# the other blocks' in the dws group; the DoM legends run in its every-policy
# x every-preset x every-kernel matrix (tests/dws_equiv.sh), with --check.
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

# ---------------------------------------------------------------- energy model
. tests/energy.sh
. tests/splits.sh
. tests/see.sh

# ---------------------------------------------------------------- figures
# scripts/figures.py (make figures, docs/figures.md) on two tiny kernels and two
# studies: the tables' exact structure; the job list run here and merged gives
# the same tables as the direct run; a wrong result hash fails the check; the
# tables are written without gnuplot, with a message naming the package.
group figures
FIG="python3 scripts/figures.py --size tiny --studies memwait-001,dcache-001 --kernels filter,lu --extra none --build $B"
fig_shape() { # the tables with every number after the first column as N
  awk -F'|' 'BEGIN { OFS = "|" } /^\|/ { for (i = 3; i < NF; i++) gsub(/[0-9]+(\.[0-9]+)?/, "N", $i) } { print }' "$1"
}
run fig-direct 120 $FIG -j 2 --out "$T/fig-d"
fig_shape "$T/fig-d/index.md" >"$T/fig-d.shape"
cat >"$T/fig.want" <<'WANT'
# WarpSplit figures

scripts/figures.py: size tiny (--arg 0), seed 1, tasks build, --task paper (filter 1, lu 1); 20 runs; results and per-thread instruction counts against Conv at the same point: all identical

## 001 §5.5: time waiting for memory and SIMD width, Conv -> DWS.ReviveSplit (`dws`) (memwait-001)

Waiting = WPU cycles in which nothing issues and a group waits on memory, over issue + waiting + idle cycles (`cycles_memwait`); SIMD width = thread-instructions / SIMD instructions.

| kernel | Conv waiting | ReviveSplit waiting | Conv SIMD width | ReviveSplit SIMD width |
|---|---|---|---|---|
| filter | N% | N% | N | N |
| lu | N% | N% | N | N |
| mean | N% | N% | N | N |
| 001 §5.5 (average) | N% | N% | N | N |

## 001 Fig. 17: D-cache size (dws: 8-way) (dcache-001)

Paper: DWS's benefit decreases with larger D-caches; at 128 KB DWS is almost identical to Conv; DWS ~ doubling the D-cache.

Speedup of DWS.ReviveSplit over Conv at the same point (cycles(Conv) / cycles(DWS.ReviveSplit)):

| L1 D size (KB) | filter | lu | h-mean | mean |
|---|---|---|---|---|
| 8 | N | N | N | N |
| 16 | N | N | N | N |
| 32 | N | N | N | N |
| 64 | N | N | N | N |
| 128 | N | N | N | N |

Mean over the kernels: time waiting for memory / SIMD width per instruction / L1 D miss rate:

| L1 D size (KB) | Conv | DWS.ReviveSplit |
|---|---|---|
| 8 | N% / N / N | N% / N / N |
| 16 | N% / N / N | N% / N / N |
| 32 | N% / N / N | N% / N / N |
| 64 | N% / N / N | N% / N / N |
| 128 | N% / N / N | N% / N / N |

Report pages (scripts/report.py: a study's policies side by side on filter, at its first point): [memwait-001](memwait-001.html), [dcache-001](dcache-001.html)
WANT
if [ $RC -eq 0 ] && diff "$T/fig.want" "$T/fig-d.shape" >"$T/fig.diff" \
   && grep -qx '| 001 §5.5 (average) | 76% | 36% | 14 | 4 |' "$T/fig-d/index.md"; then ok
else bad "figures.py direct: exit $RC: $(head -c 300 "$T/fig.diff") $(tail -n 3 "$ERR")"; fi
# plots: PNG and SVG when gnuplot is there
if command -v gnuplot >/dev/null; then
  if [ "$(head -c 4 "$T/fig-d/dcache-001.png" 2>/dev/null | od -An -tx1 | tr -d ' ')" = 89504e47 ] \
     && grep -q '<svg' "$T/fig-d/dcache-001.svg"; then ok
  else bad "figures.py: no dcache-001.png / .svg with gnuplot installed: $(tail -n 3 "$ERR")"; fi
fi
# the job list, run here one line after another, then merged
run fig-emit 60 $FIG --emit-jobs "$T/fig.jobs" --out "$T/fig-e"
if [ $RC -eq 0 ] && [ "$(wc -l <"$T/fig.jobs")" -eq 20 ] && grep -q "^$B/wpusim --config dws --policy Conv .*--stats-out $T/fig-e/runs/dws.Conv.lu.[0-9a-f]*.json .*&& sha256sum " "$T/fig.jobs"; then ok
else bad "figures.py --emit-jobs: exit $RC, $(wc -l <"$T/fig.jobs" 2>/dev/null) lines: $(head -c 300 "$T/fig.jobs" 2>/dev/null) $(cat "$ERR")"; fi
run fig-jobs 120 bash "$T/fig.jobs"
run fig-merge 60 $FIG --merge "$T/fig-e/runs" --out "$T/fig-e" --no-plots
if [ $RC -eq 0 ] && cmp -s "$T/fig-d/index.md" "$T/fig-e/index.md"; then ok
else bad "figures.py --merge of the job list's results differs from the direct run: exit $RC: $(diff "$T/fig-d/index.md" "$T/fig-e/index.md" | head -n 6)"; fi
# a run whose results differ from Conv's (its hash changed) fails the check
set -- "$T"/fig-e/runs/dws.DWS.ReviveSplit.filter.*.sha256
if [ -f "${1:-}" ]; then
  sed -i 's/^./0/; s/^00/11/' "$1"
  run fig-mutant 60 $FIG --merge "$T/fig-e/runs" --out "$T/fig-m" --no-plots
  if [ $RC -eq 1 ] && grep -q "^figures: FAIL dws DWS.ReviveSplit filter.*: results differ from Conv's" "$ERR" \
     && grep -q "; 20 runs; .*: 1 FAILED" "$T/fig-m/index.md"; then ok
  else bad "figures.py --merge missed a changed result: exit $RC: $(tail -n 3 "$ERR")"; fi
else bad "figures.py --emit-jobs: no ReviveSplit filter result in $T/fig-e/runs"; fi
# without gnuplot: the tables, and what to install
PY=$(python3 -c 'import sys; print(sys.executable)')
run fig-nogp 60 env PATH=/nonexistent "$PY" scripts/figures.py --size tiny --studies dcache-001 --kernels filter,lu \
    --build "$B" --merge "$T/fig-d/runs" --out "$T/fig-n"
if [ $RC -eq 0 ] && [ -s "$T/fig-n/dcache-001.md" ] && [ -s "$T/fig-n/dcache-001.gp" ] && [ ! -e "$T/fig-n/dcache-001.png" ] \
   && grep -q "^figures: gnuplot not found: .*install Debian's gnuplot-nox" "$ERR"; then ok
else bad "figures.py without gnuplot: exit $RC: $(cat "$ERR")"; fi
run fig-bad 30 python3 scripts/figures.py --studies nosuch
if [ $RC -eq 2 ] && grep -q "^figures: --studies nosuch: unknown (studies: legends-001, " "$ERR"; then ok
else bad "figures.py --studies nosuch: exit $RC: $(cat "$ERR")"; fi

# ---------------------------------------------------------------- first-principles bounds
# Every mechanism's micro-kernel (tests/sim/bound_*.S, the derivation in its
# head comment; docs/bounds.md) on a machine that makes the arithmetic exact:
# Conv takes exactly the derived cycles, and each legend reaches at least
# 80 % of the derived speedup bound and never exceeds it (tests/bounds/check.sh,
# one line a run). With WSIM_TEST_LONG=1 every mutant of tests/bounds/mutants.sh
# (a mechanism modelled wrongly, built from a patched copy) fails its bound.
group bounds
bash tests/bounds/check.sh "$SIM" "$B/simtests" > "$T/bounds" 2>&1
while read -r word rest; do
  if [ "$word" = ok ]; then ok; else bad "$word $rest"; fi
done < "$T/bounds"
n=$(grep -c '' "$T/bounds")
if [ "$n" = 25 ]; then ok; else bad "tests/bounds/check.sh: $n results, expected 25: $(tail -c 300 "$T/bounds")"; fi
if [ "$LONG" = 1 ]; then
  run bounds-mutants 900 bash tests/bounds/mutants.sh "$B"
  if [ $RC -eq 0 ]; then ok; else bad "bound mutants: $(grep -v caught "$OUT" | head -n 5) $(head -c 300 "$ERR")"; fi
fi

# ---------------------------------------------------------------- the two builds of the C model
# build/wpusim holds the C model built for 64-bit and for 256-bit lane masks
# (cmodel/mask.h) and runs the narrowest that holds the configuration
# (--core auto). Both must compute the same machine: statistics (the whole
# JSON), results and instruction trace, byte for byte, across mechanisms.
group cores
mkdir -p "$T/cores"
while read -r k p pol extra; do
  rm -f "$T"/cores/*
  for c in 64 256; do
    run "core-$k-$p-$pol-$c" 300 "$SIM" --core $c --config "$p" --policy "$pol" $extra --stats json \
        --stats-out "$T/cores/$c.json" --dump "$T/cores/$c.dump" --trace "$T/cores/$c.trace" "$B/kernels/$k.elf"
    echo "$RC" >"$T/cores/$c.rc"
  done
  if cmp -s "$T/cores/64.json" "$T/cores/256.json" && cmp -s "$T/cores/64.dump" "$T/cores/256.dump" \
     && cmp -s "$T/cores/64.trace" "$T/cores/256.trace" && [ "$(cat "$T/cores/64.rc")" = 0 ] \
     && [ "$(cat "$T/cores/256.rc")" = 0 ] && [ -s "$T/cores/64.trace" ]; then ok
  else bad "$k $p $pol $extra: the 64- and 256-lane builds differ (exit $(cat "$T/cores/64.rc") / $(cat "$T/cores/256.rc")): $(diff "$T/cores/64.json" "$T/cores/256.json" | head -c 300)"; fi
done <<CASES
kmeans dws DWS.ReviveSplit --check
short dws DWS.LazySplit.BL
merge maws-coherent MAWS.LatSpec --check
filter maws-bulksync MAWS.Aggress
hotspot maws-bulksync Slip.BranchBypass
bfs dom DoM.Block --check
histogram dom-l2 DoM.NoLimit
fft lwm 2Lev.Timeout
mandel dws Conv --set width=64
nqueens maws-coherent Conv --set width=64 --set warps=2
CASES
# auto: the narrowest build that holds the configuration (the last progress line names it)
while read -r want p pol; do
  run "core-auto-$p-$pol" 120 "$SIM" --progress --quiet --config "$p" --policy "$pol" "$B/kernels/merge.elf"
  if [ $RC -eq 0 ] && grep -q "the $want-lane C model)$" "$ERR"; then ok
  else bad "--config $p --policy $pol: want the $want-lane build; got exit $RC: $(tail -n 1 "$ERR")"; fi
done <<CASES
64 dws DWS.ReviveSplit
64 dom DoM.Block
256 dom DoM.Adaptive
256 lwm LWM
64 lwm 2Lev
CASES
# --core 64 with a configuration it cannot hold, or no such build: a clear error
run core-64-lwm 30 "$SIM" --core 64 --config lwm --policy LWM "$B/kernels/merge.elf"
if [ $RC -eq 2 ] && grep -qx "wpusim: lwm: large warps of 256 threads; this build of the C model holds lane masks of 64 bits: run the 256-lane build (wpusim --core 256, or auto)" "$ERR"; then ok
else bad "--core 64 with LWM: want exit 2 naming the large warps and --core 256; got $RC: $(head -c 300 "$ERR")"; fi
run core-64-asc 30 "$SIM" --core 64 --config dom --policy DoM.Adaptive "$B/kernels/merge.elf"
if [ $RC -eq 2 ] && grep -q "holds lane masks of 64 bits; the configuration needs 256 (warps of 32 threads with 8-bit slip counters): run the 256-lane build" "$ERR"; then ok
else bad "--core 64 with DoM.Adaptive at 32 lanes: want exit 2 naming the 256 bits; got $RC: $(head -c 300 "$ERR")"; fi
run core-bad 30 "$SIM" --core 128 "$B/kernels/merge.elf"
if [ $RC -eq 2 ] && grep -qx "wpusim: --core: '128' is not one of: auto, 64, 256" "$ERR"; then ok
else bad "--core 128: want exit 2 naming the choices; got $RC: $(head -c 300 "$ERR")"; fi

# ---------------------------------------------------------------- behaviour manifest
# What the model computes for every kernel x policy x preset of the dws group
# (statistics, results, instruction trace: scripts/manifest.sh) against
# tests/manifest.txt. A structural change must leave it unchanged; a change
# meant to move timing regenerates it in its own commit and says why.
group manifest
# (3 min on 2 free cores; 1800 s leaves room for a machine loaded many times over)
run manifest 1800 bash scripts/manifest.sh "$SIM"
if [ $RC -eq 0 ] && diff tests/manifest.txt "$OUT" >"$T/manifest.diff"; then ok
else bad "behaviour differs from tests/manifest.txt in $(grep -c '^>' "$T/manifest.diff") runs, e.g. $(grep -m3 '^>' "$T/manifest.diff")"; fi

# A warp looping without loads or stores keeps the pipeline (switch on cache
# access): the watchdog names the warp that starves the other, not a bug.
run watchdog-starved 30 "$SIM" --threads 8 --set wpus=1 --set warps=2 --set width=4 --set watchdog=2000 "$B/cfg/endless.elf"
if [ $RC -eq 3 ] && grep -q "^wpusim: watchdog at cycle [0-9]*: WPU 0 warp 1 (threads 4..) has issued nothing since cycle 0" "$ERR" \
   && grep -q "^  starved: warp 0 (threads 0..) keeps the pipeline, issuing without a cache access (switch_on = access" "$ERR" \
   && ! grep -q "simulator bug" "$ERR"; then ok
else bad "a spinning warp starving another: want exit 3 and a starvation report; got $RC: $(head -c 400 "$ERR")"; fi

# ---------------------------------------------------------------- sanitizers
# The simulator built with AddressSanitizer and UBSan on a cross-section:
# every ISA test, every kernel, the bad inputs. Any report fails the run.
group asan
ASAN=$B/asan/wpusim
if [ ! -x "$ASAN" ]; then bad "no sanitizer build at $ASAN"; else
  export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
  for elf in "$B"/isa/*.elf "$B"/kernels/*.elf "$B"/memtests/*.elf; do
    name=$(basename "$elf" .elf)
    # --arg 4: the memory microbenchmarks' trip counts (kernels: a small size)
    run "asan-$name" 300 "$ASAN" --quiet --threads 64 --set width=8 --set warps=4 --set wpus=2 --arg 4 "$elf"
    if grep -q "Sanitizer\|runtime error" "$ERR"; then bad "$name under ASan/UBSan: $(grep -m3 'Sanitizer\|runtime error' "$ERR")"
    elif [ $RC -eq 124 ] || [ $RC -ge 128 ]; then bad "$name under ASan/UBSan: exit $RC (timeout or signal)"
    else ok; fi
  done
  # the fetch arbiter in a run with several fetch groups, --check and a trace
  run asan-2lev 300 "$ASAN" --quiet --threads 64 --set width=8 --set warps=4 --set wpus=2 --policy 2Lev \
      --set fetch_group_size=1 --set fetch_timeout=50 --check --record-block fetcharb="$T/asan.fa" "$B/kernels/merge.elf"
  if grep -q "Sanitizer\|runtime error" "$ERR"; then bad "2Lev under ASan/UBSan: $(grep -m3 'Sanitizer\|runtime error' "$ERR")"
  elif [ $RC -ne 0 ]; then bad "2Lev under ASan/UBSan: exit $RC"
  else ok; fi
  # large warps with two-level scheduling: the picker's clocks clock the arbiter too
  run asan-lwm2lev 300 "$ASAN" --quiet --threads 64 --set width=8 --set warps=4 --set wpus=2 --policy LWM+2Lev \
      --set lwm_size=16 --set fetch_timeout=50 --check --record-block fetcharb="$T/asan-l2.fa" "$B/kernels/merge.elf"
  if grep -q "Sanitizer\|runtime error" "$ERR"; then bad "LWM+2Lev under ASan/UBSan: $(grep -m3 'Sanitizer\|runtime error' "$ERR")"
  elif [ $RC -ne 0 ]; then bad "LWM+2Lev under ASan/UBSan: exit $RC"
  else ok; fi
  # Diverge on miss with both its blocks, --check and a recorded MDT trace.
  for pol in DoM.Adaptive Slip; do
    run "asan-$pol" 300 "$ASAN" --quiet --threads 64 --set width=8 --set warps=4 --set wpus=2 --arg 4 --policy $pol \
        --set dom_period=2000 --check --record-block mdt="$T/asan.mdt" "$B/kernels/kmeans.elf"
    if [ $RC -eq 0 ] && ! grep -q "Sanitizer\|runtime error" "$ERR"; then ok
    else bad "$pol under ASan/UBSan: exit $RC: $(grep -m3 'Sanitizer\|runtime error\|^wpusim' "$ERR")"; fi
  done
  # the 256-lane build of the C model (the runs above fit the 64-lane one: --core auto)
  for k in kmeans merge bfs; do
    run "asan-wide-$k" 300 "$ASAN" --quiet --core 256 --threads 64 --set width=8 --set warps=4 --set wpus=2 --arg 4 \
        --policy DWS.ReviveSplit --check "$B/kernels/$k.elf"
    if [ $RC -eq 0 ] && ! grep -q "Sanitizer\|runtime error" "$ERR"; then ok
    else bad "$k on the 256-lane build under ASan/UBSan: exit $RC: $(grep -m3 'Sanitizer\|runtime error\|^wpusim' "$ERR")"; fi
  done
  # Every option and configuration error: exit 2 and nothing leaked
  # (LeakSanitizer turns a leak into exit 1).
  printf 'bogus = 1\n' >"$T/asan-bad.cfg"; mkdir -p "$T/asan-dir"
  n=0
  while read -r args; do
    n=$((n + 1))
    run "asan-opt-$n" 60 "$ASAN" $args
    if [ $RC -eq 2 ] && ! grep -q "Sanitizer\|runtime error" "$ERR" && grep -q '^wpusim: ' "$ERR"; then ok
    else bad "wpusim $args under ASan: want exit 2 and one error; got $RC: $(grep -m3 'Sanitizer\|runtime error\|^wpusim' "$ERR")"; fi
  done <<EOF
--bogus $GOOD
--seed
--set width=0 $GOOD
--set nope=1 $GOOD
--set width $GOOD
--stats xml $GOOD
--record-block bogus $GOOD
--config nope $GOOD
--config $T/asan-bad.cfg $GOOD
--config $T/asan-dir $GOOD
--policy DWS.Nope $GOOD
--config lwm --policy DWS.ReviveSplit $GOOD
--print-config --set l2_line=96
--threads 1000000 $GOOD
--quiet
$GOOD $GOOD
--quiet --stats-out $T/asan.json $GOOD
--stats-out /nonexistent/s.json $GOOD
--dump /nonexistent/d.bin $GOOD
--dump $T/asan.bin $GOOD
--trace /nonexistent/t.txt $GOOD
--record-block wst=$T/asan.wst $GOOD
--record-block fetcharb=$T/asan.fa $GOOD
--policy 2Lev --set warps=64 --set fetch_group_size=1 $GOOD
--record-block mdt=$T/asan.mdt $GOOD
--policy DoM.Adaptive --set dws=on $GOOD
--set stack_top=0x20000 --threads 1 --set stack_size=65536 $GOOD
--stats-out $T/asan.json $T/nonexistent.elf
--trace /dev/full --threads 64 $B/kernels/mandel.elf
--core 64 --config lwm --policy LWM $GOOD
--core 64 --config dom --policy DoM.Adaptive $GOOD
--core 7 $GOOD
--core
EOF
  for f in "$T"/*.elf; do
    run "asan-bad-$(basename "$f")" 60 "$ASAN" --quiet --threads 2 "$f"
    if grep -q "Sanitizer\|runtime error" "$ERR"; then bad "$(basename "$f") under ASan/UBSan: $(grep -m3 'Sanitizer\|runtime error' "$ERR")"
    elif [ $RC -eq 124 ] || [ $RC -ge 128 ]; then bad "$(basename "$f") under ASan/UBSan: exit $RC (timeout or signal)"
    else ok; fi
  done
fi

# ---------------------------------------------------------------- fuzz regression corpus
# Every input in fuzz/regress/<harness>/ (hand-made bad inputs and whatever
# the fuzzers found) through the harness built without libFuzzer, with ASan
# and UBSan (fuzz/fuzz.mk: fuzz-replay): no crash, no sanitizer report, no
# --check failure. make fuzz runs the harnesses themselves (fuzz/README.md).
group fuzz-regress
for h in elf config run; do
  R=$B/fuzz/replay/fuzz_$h
  set -- fuzz/regress/$h/*
  if [ ! -x "$R" ]; then bad "no replay harness $R (make fuzz-replay)"; continue; fi
  [ $# -ge 5 ] || bad "only $# inputs in fuzz/regress/$h"
  for f in "$@"; do
    run "fuzz-$h-$(basename "$f")" 60 env ASAN_OPTIONS=detect_leaks=1 "$R" "$f"
    if [ $RC -eq 0 ] && grep -qx "ok $f" "$OUT" && ! grep -q "Sanitizer\|runtime error" "$ERR"; then ok
    else bad "$f through fuzz_$h: exit $RC: $(grep -m3 'Sanitizer\|runtime error\|^fuzz:\|--check' "$ERR")"; fi
  done
done

# ---------------------------------------------------------------- irregular grids
# Warps of run-time sizes, shuffles, 003's vector core and SpMV (tests/irregular.sh).
[ -f tests/irregular.sh ] && . tests/irregular.sh

# ---------------------------------------------------------------- RTL
# Lint, synthesis and the Verilator testbenches against the C blocks
# (tests/rtl.sh: one group per flow step).
[ -f tests/rtl.sh ] && . tests/rtl.sh

group done
# No process the suite started is left running (an orphaned simulator keeps
# a core busy for minutes): each carries WSIM_TEST_SUITE=$T in its environment.
left=""
for p in /proc/[0-9]*; do
  pid=${p#/proc/}
  [ "$pid" = $$ ] || [ "$pid" = "$BASHPID" ] && continue
  { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qxF "WSIM_TEST_SUITE=$T" || continue
  cmd=$( { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null)
  [ -n "$cmd" ] || continue # (exited meanwhile, or the check's own pipeline)
  left="$left $pid: ${cmd:0:120};"
  kill -KILL "$pid" 2>/dev/null
done
if [ -z "$left" ]; then ok; else bad "processes the suite started are still running:$left"; fi
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
