# ---------------------------------------------------------------- sanitizers
# The simulator built with AddressSanitizer and UBSan on a cross-section:
# every ISA test, every kernel, the bad inputs. Any report fails the run.
# needs: random badinput (the ELFs they leave in $T: random's last program, badinput's bad ones)
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
