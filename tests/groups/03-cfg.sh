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
