# ---------------------------------------------------------------- energy model
# The energy model (docs/energy.md).
group energy
# tests/sim/energy.S: every count and the energy worked out by hand in its
# comment: 8424.8 pJ with the register file per active lane, 8442.8 per
# whole-width SIMD access.
EN_RUN=("$SIM" --set memory=fixed --set mem_latency=10 --set l1i_size=0 --set wpus=1 --set warps=1
        --set width=4 --threads 4 --set stats_energy=1 --stats json --stats-out "$T/energy.json"
        "$B/simtests/energy.elf")
run energy-counts 30 "${EN_RUN[@]}"
got=""
for k in warp_insts thread_insts en_mul_threads en_fp_threads en_branch_threads en_load_threads en_store_threads \
         en_jump_threads en_rf_reads en_rf_writes en_rf_reads_warp en_rf_writes_warp; do
  got="$got $(json_total "$T/energy.json" $k)"
done
if [ $RC -eq 0 ] && [ "$got" = " 17 66 4 8 4 4 4 0 62 54 16 14" ] && grep -q '"cycles": 35,' "$T/energy.json"; then ok
else bad "energy.S counts: exit $RC, got$got, expected 17 66 4 8 4 4 4 0 62 54 16 14 and 35 cycles"; fi
run energy-lane 30 python3 scripts/energy.py "$T/energy.json"
if [ $RC -eq 0 ] && grep -q "^  total  *8424\.8 pJ" "$OUT" && grep -q "^  static  *7000\.0 pJ" "$OUT"; then ok
else bad "energy.S per lane: expected 8424.8 pJ: $(cat "$OUT" "$ERR")"; fi
run energy-warp 30 python3 scripts/energy.py --rf warp "$T/energy.json"
if [ $RC -eq 0 ] && grep -q "^  total  *8442\.8 pJ" "$OUT" && grep -q "^  regfile  *536\.0 pJ" "$OUT"; then ok
else bad "energy.S per SIMD access: expected 8442.8 pJ: $(cat "$OUT" "$ERR")"; fi
# The memory and warp-split table terms on the same run with its counters
# replaced (tests as data): I-cache 10 accesses (1 miss), L1 D 3 accesses
# (2 misses, 1 writeback), L2 3 accesses, DRAM 2 reads + 1 write, dws on
# with 1 branch split and 1 stack merge:
#   icache 10 x 30 = 300; dcache 3 x 40 = 120; l2 3 x 1000 = 3000;
#   xbar (2 + 1 + 1) x 300 = 1200; dram 3 x 220000 = 660000;
#   wst (17 issues + 2 x 1 split + 1 merge) x 5 = 100;
#   static 35 x (200 + 1000 L2 leakage) = 42000;
#   total 680 + 226.8 + 518 + 300 + 120 + 3000 + 1200 + 660000 + 100 + 42000 = 708144.8
python3 - "$T/energy.json" "$T/energy-mem.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["config"]["dws"] = "on"
d["total"].update(splits_branch=1, merges_stack=1)
d["memory"] = {"organization": "coherent", "l1i": {"accesses": 10, "misses": 1},
               "l1d": {"accesses": 3, "misses": 2, "writebacks": 1}, "l2": {"accesses": 3},
               "dram": {"reads": 2, "writes": 1}}
json.dump(d, open(sys.argv[2], "w"))
PY
run energy-mem 30 python3 scripts/energy.py "$T/energy-mem.json"
if [ $RC -eq 0 ] && grep -q "^  total  *708144\.8 pJ" "$OUT" && grep -q "^  wst  *100\.0 pJ" "$OUT"; then ok
else bad "energy memory/WST terms: expected 708144.8 pJ: $(cat "$OUT" "$ERR")"; fi
# A constant overridden, a bad override, and statistics without the counters.
run energy-set 30 python3 scripts/energy.py --set dram=21000 "$T/energy-mem.json"
if [ $RC -eq 0 ] && grep -q "^  dram  *63000\.0 pJ" "$OUT"; then ok; else bad "energy --set dram=21000: $(cat "$OUT" "$ERR")"; fi
run energy-badset 30 python3 scripts/energy.py --set drams=1 "$T/energy.json"
if [ $RC -eq 2 ] && grep -q "^energy: --set drams=1: expected NAME=VALUE with NAME one of" "$ERR"; then ok
else bad "energy --set drams=1: exit $RC: $(cat "$ERR")"; fi
run energy-nocounters 30 "$SIM" --set memory=fixed --set l1i_size=0 --set wpus=1 --set warps=1 --set width=4 \
    --threads 4 --stats json --stats-out "$T/energy-off.json" "$B/simtests/energy.elf"
run energy-nocounters2 30 python3 scripts/energy.py "$T/energy-off.json"
if [ $RC -eq 2 ] && grep -q "no 'en_mul_threads': run wpusim with --set stats_energy=1" "$ERR" \
   && ! grep -q '"en_' "$T/energy-off.json"; then ok
else bad "statistics without stats_energy: exit $RC: $(cat "$ERR")"; fi
