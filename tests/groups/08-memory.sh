# ---------------------------------------------------------------- memory hierarchy
# Microbenchmarks whose counts follow from the configuration alone
# (tests/mem/*.S explain each expectation).
# needs: kernels (its host builds, $T/KERNEL-256.host, and $KERNELS)
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
