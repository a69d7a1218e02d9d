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
