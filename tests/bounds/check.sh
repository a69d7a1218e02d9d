#!/usr/bin/env bash
# First-principles bounds, one per mechanism (docs/bounds.md): each micro-
# kernel (tests/sim/bound_*.S, the derivation in its head comment) runs on
# its machine under Conv and under the mechanism's legends. Conv must take
# exactly the derived cycles (else the arithmetic, not the mechanism, is
# wrong), and each legend must reach at least 80 % of the derived speedup
# bound and never exceed it: with T_ideal the derived shortest time,
#   T_ideal <= T  and  5 T_ideal >= 4 T     (speedup / bound = T_ideal / T).
# The formulas below are the head comments' own.
#   bash tests/bounds/check.sh WPUSIM ELFDIR [CHECK...]
# CHECK: dws-branch dws-mem maws-split maws-hold lwm 2lev (default: all).
# Prints one line per run, "ok CHECK ..." or "FAIL CHECK ...", and exits 1
# if any failed. tests/run.sh (group bounds) runs it; tests/bounds/mutants.sh
# runs it on mutants of the model, each of which must fail.
set -u
SIM=$1 E=$2
shift 2
CHECKS=${*:-dws-branch dws-mem maws-split maws-hold lwm 2lev}
T=$(mktemp -d "${TMPDIR:-/tmp}/wsim-bounds.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0

# cycles ARGS...: the run's cycles (empty when it did not end with exit 0)
cycles() {
  timeout 60 "$SIM" --stats json "$@" > "$T/out" 2> "$T/err" || { echo ""; return; }
  sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$T/out"
}

# bound CHECK CONV IDEAL MACHINE... -- POLICY...: Conv must take CONV cycles,
# each POLICY between IDEAL and IDEAL / 0.8.
bound() {
  local name=$1 conv=$2 ideal=$3 machine=() p t
  shift 3
  while [ "$1" != -- ]; do machine+=("$1"); shift; done
  shift
  t=$(cycles "${machine[@]}" --policy Conv)
  if [ "$t" != "$conv" ]; then
    echo "FAIL $name Conv: ${t:-no result ($(head -c 200 "$T/err"))} cycles, derived $conv"
    fails=$((fails + 1))
    return
  fi
  echo "ok $name Conv: $t cycles, as derived"
  for p in "$@"; do
    t=$(cycles "${machine[@]}" --policy "$p")
    local line
    line="$name $p: ${t:-no result ($(head -c 200 "$T/err"))} cycles"
    if [ -z "$t" ]; then echo "FAIL $line"; fails=$((fails + 1)); continue; fi
    line="$line, speedup $(awk -v c="$conv" -v t="$t" -v i="$ideal" \
      'BEGIN { printf "%.3f of the bound %.3f (%.3f)", c / t, c / i, i / t }')"
    if [ "$t" -lt "$ideal" ]; then echo "FAIL $line: above the bound (T < $ideal)"; fails=$((fails + 1))
    elif [ $((5 * ideal)) -lt $((4 * t)) ]; then echo "FAIL $line: below 80 % of the bound"; fails=$((fails + 1))
    else echo "ok $line"; fi
  done
}

for c in $CHECKS; do
  case $c in
  dws-branch) # bound_dws_branch.S: one warp of 16, memory = fixed
    L=100 C=96
    I=$((C + 11))
    ideal=$((L + 10 > I ? L + 10 : I))
    bound dws-branch $((I + L - 1)) $ideal --config dws --set memory=fixed --set mem_latency=$L \
      --set wpus=1 --set warps=1 --threads 16 "$E/bound_dws_branch.elf" -- \
      DWS.BranchOnly.Stack DWS.BranchOnly.PC DWS.AggressSplit DWS.LazySplit DWS.ReviveSplit ;;
  dws-mem) # bound_dws_mem.S on the dws WPU straight to memory
    h=3 L=$((3 + 100 + 1)) N=16
    I=$((25 + 6 * N))
    bound dws-mem $((I + (L - 1) + N * 2 * (L - 1))) $((I + (L - 1) + N * (L - 1 + h - 1))) \
      --config dws --set memory=bulksync --set dram_banks=0 --set dram_latency=100 --set dram_mbps=128000 \
      --set xbar_latency=0 --set l1i_size=0 --set wpus=1 --set warps=1 --threads 16 "$E/bound_dws_mem.elf" -- \
      DWS.AggressSplit DWS.LazySplit DWS.ReviveSplit DWS.ReviveSplit.MemOnly \
      DWS.AggressSplit.BL DWS.LazySplit.BL DWS.ReviveSplit.BL ;;
  maws-split) # bound_dws_mem.S on maws-bulksync: latency speculation splits
    h=3 L=$((3 + 300 + 2)) N=16
    I=$((25 + 6 * N))
    bound maws-split $((I + (L - 1) + N * 2 * (L - 1))) $((I + (L - 1) + N * (L - 1 + h - 1))) \
      --config maws-bulksync --set dram_banks=0 --set dram_latency=300 --set dram_mbps=16000 \
      --set xbar_latency=0 --set l1i_size=0 --set wpus=1 --set warps=1 --threads 8 "$E/bound_dws_mem.elf" -- \
      MAWS.LatSpec MAWS.LatSpec.RR MAWS.LazySplit ;;
  maws-hold) # bound_maws_hold.S on maws-bulksync: latency speculation does not split
    L=$((3 + 300 + 2)) N=4 C=1500
    I=$((17 + N * (C + 5) - 1 + 3))
    bound maws-hold $((I + (N + 1) * (L - 1))) $((I + (N + 1) * (L - 1))) \
      --config maws-bulksync --set dram_banks=0 --set dram_latency=300 --set dram_mbps=16000 \
      --set xbar_latency=0 --set l1i_size=0 --set wpus=1 --set warps=1 --threads 8 "$E/bound_maws_hold.elf" -- \
      MAWS.LatSpec MAWS.LatSpec.RR ;;
  lwm) # bound_lwm.S on lwm: 32 warps of 32 / 4 large warps of 8 x 32
    C=64
    bound lwm $((32 * (7 + C))) $((4 * (8 * 7 + 4 * C) - 7)) --config lwm --set memory=fixed --set private_mem=0 \
      --set switch_on=cycle "$E/bound_lwm.elf" -- LWM ;;
  2lev) # bound_2lev.S on lwm: fetch groups of 8 warps
    L=200 C=6 N=16
    I=$((3 + C + N * (C + 3) + 3))
    bound 2lev $((32 * I + N * (L - 32))) $((32 * I)) --config lwm --set memory=fixed --set private_mem=0 \
      --set mem_latency=$L --set switch_on=cycle --arg $N "$E/bound_2lev.elf" -- 2Lev ;;
  *) echo "FAIL $c: no such check (dws-branch dws-mem maws-split maws-hold lwm 2lev)"; fails=$((fails + 1)) ;;
  esac
done
[ $fails -eq 0 ]
