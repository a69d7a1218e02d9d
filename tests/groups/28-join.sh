# ---------------------------------------------------------------- join
# reconv = join (003 §IV-A's JOIN nodes, cmodel/join.c) against the
# post-dominator stack: every kernel, the control-flow tests, the ISA
# tests and the irregular kernels give the same results and the same
# instruction count in every thread (instret_hash), with --check holding
# every cycle (the running and waiting lanes partition the live ones).
# needs: irregular spmv ($RTG and $L1; $SPMV and $T/lp22s.bin)
group join
join_same() { # join_same NAME ELF ARGS... (JOIN_NODUMP=1: a program without results)
  local name=$1 elf=$2; shift 2
  local da=(--dump "$T/js-$name.bin") db=(--dump "$T/jj-$name.bin")
  [ "${JOIN_NODUMP:-0}" = 1 ] && da=() db=() && : >"$T/js-$name.bin" && : >"$T/jj-$name.bin"
  run "join-stack-$name" 300 "$SIM" --stats json "$@" "${da[@]}" "$elf"
  local ra=$RC; cp "$OUT" "$T/js-$name.json"
  run "join-join-$name" 300 "$SIM" --stats json --set reconv=join --check "$@" "${db[@]}" "$elf"
  local ha hb
  ha=$(grep -m1 instret_hash "$T/js-$name.json"); hb=$(grep -m1 instret_hash "$OUT")
  if [ $RC -eq $ra ] && [ -n "$ha" ] && [ "$ha" = "$hb" ] && cmp -s "$T/js-$name.bin" "$T/jj-$name.bin" \
     && [ "$(json_total "$OUT" thread_insts)" = "$(json_total "$T/js-$name.json" thread_insts)" ]; then ok
  else bad "reconv=join $name ($*): exit $RC (stack $ra), instret $hb vs $ha, dump $(cmp "$T/js-$name.bin" "$T/jj-$name.bin" 2>&1) $(head -c 300 "$ERR")"; fi
}
for e in "$B"/kernels/*.elf; do
  k=$(basename "$e" .elf)
  join_same "$k" "$e"
  join_same "$k-mc" "$e" --config maws-coherent --threads 100
done
for e in "$B"/kernels/selftest/rt_ids.elf "$B"/kernels/selftest/rt_barrier.elf "$B"/kernels/selftest/rt_exit.elf; do
  [ -f "$e" ] && join_same "$(basename "$e" .elf)" "$e" --threads 100
done
join_same rt_grid "$RTG" --set width=16 --warp-sizes $L1 --pack 1000
join_same spmv-lp22s "$SPMV" --input matrix="$T/lp22s.bin"
join_same spmv-rnd-pack "$SPMV" --input matrix="$T/rnd.bin" --pack 4
for e in "$B"/cfg/*.elf; do
  n=$(basename "$e" .elf)
  case $n in jump_table|endless) continue ;; esac
  JOIN_NODUMP=1 join_same "cfg-$n" "$e" --set wpus=1 --set warps=1 --set width=16
done
for e in "$B"/isa/*.elf; do
  n=$(basename "$e" .elf)
  case $n in fault_*) continue ;; esac
  # (results: none; every thread's own checks and its instruction count)
  run "join-isa-$n" 300 "$SIM" --quiet --set reconv=join --check --threads 100 --set width=16 --set wpus=2 --set warps=4 "$e"
  if [ $RC -eq 0 ]; then ok; else bad "reconv=join $n: exit $RC: $(head -c 300 "$ERR")"; fi
done
# JOIN costs a test where the stack re-converges for free, but merges lanes at
# one PC across loop iterations: collatz (data-dependent trip counts) takes
# fewer SIMD instructions with it
ws=$(json_total "$T/js-collatz.json" warp_insts) wj=$(json_total "$T/join-join-collatz.out" warp_insts)
tj=$(json_total "$T/join-join-collatz.out" join_tests)
if [ -n "$wj" ] && [ "$wj" -lt "$ws" ] && [ "${tj:-0}" -gt 0 ]; then ok
else bad "collatz under reconv=join: $wj SIMD instructions ($tj JOIN tests), stack $ws"; fi
run join-refuse 30 "$SIM" --quiet --set reconv=join --policy DWS.ReviveSplit "$B/kernels/mandel.elf"
if [ $RC -eq 2 ] && grep -q "^wpusim: reconv: JOIN re-convergence with dynamic warp subdivision (dws = on) is not modelled" "$ERR"; then ok
else bad "reconv=join with DWS: want exit 2; got $RC: $(cat "$ERR")"; fi
