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
