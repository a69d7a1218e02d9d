#!/usr/bin/env bash
# make bench: simulator speed. For each case, runs wpusim and the same kernel
# source compiled natively for the host (build/host/NAME runs every thread in
# sequence) on the same input, and prints simulated thread-instructions per
# host CPU second and the slowdown against native.
#
# The cases are paper-size runs (100-480 M thread-instructions), under Conv
# and the papers' legends on their presets. Times are CPU seconds (user +
# sys), not wall time: the machines this runs on are shared, and a run's CPU
# time is what one core spends on it whatever else runs. The kernels' sizes
# are capped at paper size (their arrays), where one native run takes only
# 15-60 ms of CPU, a third of it process start-up: so the native side is
# timed by the host runner itself (--time: the run, without start-up) and
# repeated, in fresh processes on the same input, until its runs add up to
# at least NATIVE_MIN seconds (0.2); native-s is their mean.
#
# Usage: scripts/bench.sh [REPEATS]   best of REPEATS simulation runs each
#        (default 1)
# WSIM_BENCH_CASES="kernel:arg:preset:policy[:threads] ..." replaces the cases
# (threads: 256 unless given);
# WSIM_BENCH_QUICK=1 runs small cases in seconds (the table's figures then
# mostly measure start-up);
# WSIM_BENCH_SUITE=1 runs the eight DWS kernels at paper size under Conv and
# DWS.ReviveSplit on dws (issue 15's targets: thread-insts/s over the suite);
# WSIM_BENCH_NATIVE_MIN=SECONDS sets NATIVE_MIN.
set -eu
cd "$(dirname "$0")/.."
B=${BUILD:-build}
SIM_REPEATS=${1:-1}
NATIVE_MIN=${WSIM_BENCH_NATIVE_MIN:-0.2}
THREADS=256
if [ "${WSIM_BENCH_QUICK:-0}" = 1 ]; then
  DEFAULT_CASES="collatz:16384:dws:Conv nqueens:2048:dws:Conv mandel:256:dws:Conv bitonic:16384:dws:Conv
                 kmeans:1:dws:DWS.ReviveSplit"
else
  DEFAULT_CASES="kmeans:2:dws:Conv svm:2:dws:Conv short:2:dws:Conv lu:2:dws:Conv hotspot:2:dws:Conv
                 kmeans:2:dws:DWS.ReviveSplit svm:2:dws:DWS.ReviveSplit short:2:dws:DWS.ReviveSplit
                 lu:2:maws-bulksync:MAWS.LatSpec:128 svm:2:maws-bulksync:MAWS.LatSpec:128
                 kmeans:2:dom:Conv:1024 kmeans:2:dom:DoM.Adaptive:1024
                 blackscholes:2:lwm:Conv:1024 blackscholes:2:lwm:LWM:1024 blackscholes:2:lwm:2Lev:1024"
fi
if [ "${WSIM_BENCH_SUITE:-0}" = 1 ]; then
  DEFAULT_CASES=$(for p in Conv DWS.ReviveSplit; do
    for k in fft filter hotspot lu merge short kmeans svm; do echo "$k:2:dws:$p"; done; done)
fi
CASES=${WSIM_BENCH_CASES:-$DEFAULT_CASES}

TIMEFORMAT='%3U %3S'
cpu() { # cpu CMD...: CPU seconds (user + sys) of one run
  local t
  t=$( { time "$@" >/dev/null 2>&1 || { echo "bench: failed: $*" >&2; exit 1; }; } 2>&1 ) || exit 1
  awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.3f", a[1] + a[2] }'
}
best() { # best N CMD...: least CPU time of N runs, in seconds
  local n=$1 b="" d
  shift
  for _ in $(seq "$n"); do
    d=$(cpu "$@") || exit 1
    if [ -z "$b" ] || awk -v d="$d" -v b="$b" 'BEGIN { exit !(d < b) }'; then b=$d; fi
  done
  echo "$b"
}
native() { # native CMD...: "mean-seconds runs": the run's own CPU time (--time), repeated until >= NATIVE_MIN
  local sum=0 n=0 t
  while [ "$n" -lt 3 ] || awk -v s="$sum" -v m="$NATIVE_MIN" 'BEGIN { exit !(s < m) }'; do
    t=$("$@" --time 2>&1 >/dev/null | sed -n 's/^host-time: .* s wall, \([0-9.]*\) s cpu$/\1/p')
    [ -n "$t" ] || { echo "bench: failed: $* --time" >&2; exit 1; }
    sum=$(awk -v s="$sum" -v t="$t" 'BEGIN { printf "%.6f", s + t }')
    n=$((n + 1))
  done
  awk -v s="$sum" -v n="$n" 'BEGIN { printf "%.6f %d\n", s / n, n }'
}

T=$(mktemp -d "${TMPDIR:-/tmp}/wsim-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
printf '%-12s %5s %-14s %-16s %13s %8s %12s %12s %9s %5s %9s\n' kernel arg preset policy thread-insts sim-s "thr-insts/s" \
  "issues/s" native-s runs slowdown
tot_insts=0 tot_warp=0 tot_sim=0 tot_nat=0
declare -A pol_insts pol_sim # per policy: thread-instructions, CPU seconds
for c in $CASES; do
  IFS=: read -r k arg preset pol threads <<<"$c"
  threads=${threads:-$THREADS}
  elf=$B/kernels/$k.elf host=$B/host/$k
  [ -f "$elf" ] && [ -x "$host" ] || { echo "bench: $k not built (make kernels)" >&2; exit 1; }
  run=("$B/wpusim" --config "$preset" --policy "$pol" --threads "$threads" --arg "$arg" "$elf")
  # the timed run writes the statistics too (the thread-instructions)
  sim=$(best "$SIM_REPEATS" "${run[@]}" --quiet --stats json --stats-out "$T/stats.json") || exit 1
  insts=$(sed -n '/"total"/,/}/s/.*"thread_insts": \([0-9]*\).*/\1/p' "$T/stats.json" | head -n 1)
  # SIMD issues: warps, splits, sub-warps (under LWM warp_insts counts large-warp fetches)
  winsts=$(sed -n '/"total"/,/}/s/.*"cycles_issue": \([0-9]*\).*/\1/p' "$T/stats.json" | head -n 1)
  read -r nat nruns < <(native "$host" --quiet --threads "$threads" --seed 1 --arg "$arg") || exit 1
  [ -n "$nat" ] || exit 1
  awk -v k="$k" -v a="$arg" -v p="$preset" -v l="$pol" -v n="$insts" -v wn="$winsts" -v s="$sim" -v h="$nat" -v r="$nruns" 'BEGIN {
    printf "%-12s %5s %-14s %-16s %13.0f %8.2f %12.3e %12.3e %9.4f %5d %8.0fx\n", k, a, p, l, n, s, n / s, wn / s, h, r, s / h }'
  pol_insts[$pol]=$(( ${pol_insts[$pol]:-0} + insts ))
  pol_sim[$pol]=$(awk -v a="${pol_sim[$pol]:-0}" -v b="$sim" 'BEGIN { print a + b }')
  tot_insts=$((tot_insts + insts))
  tot_warp=$((tot_warp + winsts))
  tot_sim=$(awk -v a="$tot_sim" -v b="$sim" 'BEGIN { print a + b }')
  tot_nat=$(awk -v a="$tot_nat" -v b="$nat" 'BEGIN { print a + b }')
done
awk -v n="$tot_insts" -v wn="$tot_warp" -v s="$tot_sim" -v h="$tot_nat" 'BEGIN {
  printf "%-12s %5s %-14s %-16s %13.0f %8.2f %12.3e %12.3e %9.4f %5s %8.0fx\n", "all", "", "", "", n, s, n / s, wn / s, h, "", s / h }'
for pol in "${!pol_insts[@]}"; do # each policy's cases together (rate = all its insts / all its seconds)
  awk -v l="$pol" -v n="${pol_insts[$pol]}" -v s="${pol_sim[$pol]}" 'BEGIN {
    printf "%-12s %5s %-14s %-16s %13.0f %8.2f %12.3e\n", "all", "", "", l, n, s, n / s }'
done | sort -k2
echo "(CPU seconds: best of $SIM_REPEATS simulation run(s); issues: SIMD groups issued (warps, splits, sub-warps)," \
     "what the simulator's cost follows; native-s: the mean of \`runs' native runs adding up to >= $NATIVE_MIN s," \
     "start-up excluded; $THREADS threads unless the case says; native = same C, host build, threads in sequence)"

# RTL in the loop (docs/rtl.md): build/wpusim-rtl with the warp-split table as
# its Verilated RTL, replace and lockstep, against the C-only wpusim on one
# DWS case (WSIM_BENCH_RTL_CASE="kernel:arg:preset:policy[:threads]"); the
# statistics must be the same. Skipped without verilator.
if [ "${WSIM_BENCH_RTL:-1}" = 1 ]; then
  if command -v verilator >/dev/null && command -v yosys >/dev/null; then
    if [ "${WSIM_BENCH_QUICK:-0}" = 1 ]; then RTL_CASE_DEF=kmeans:1:dws:DWS.ReviveSplit; else RTL_CASE_DEF=kmeans:2:dws:DWS.ReviveSplit; fi
    IFS=: read -r k arg preset pol threads <<<"${WSIM_BENCH_RTL_CASE:-$RTL_CASE_DEF}"
    threads=${threads:-$THREADS}
    make --no-print-directory -s BUILD="$B" wpusim-rtl >&2
    run=(--config "$preset" --policy "$pol" --threads "$threads" --arg "$arg" "$B/kernels/$k.elf")
    a=$("$B/wpusim" "${run[@]}" --stats json 2>/dev/null | md5sum)
    r=$("$B/wpusim-rtl" --rtl wst "${run[@]}" --stats json 2>/dev/null | md5sum)
    l=$("$B/wpusim-rtl" --rtl wst --rtl-mode lockstep "${run[@]}" --stats json 2>/dev/null | md5sum)
    [ "$a" = "$r" ] && [ "$a" = "$l" ] || { echo "bench: RTL in the loop: statistics differ from C-only" >&2; exit 1; }
    # CPU seconds, best of the repeats (best, above): the steady measure on a shared machine
    tc=$(best "$SIM_REPEATS" "$B/wpusim" "${run[@]}" --quiet)
    tr=$(best "$SIM_REPEATS" "$B/wpusim-rtl" --rtl wst "${run[@]}" --quiet)
    tl=$(best "$SIM_REPEATS" "$B/wpusim-rtl" --rtl wst --rtl-mode lockstep "${run[@]}" --quiet)
    edges=$("$B/wpusim-rtl" --rtl wst "${run[@]}" --quiet 2>&1 | sed -n 's/.*x[0-9]*: \([0-9]*\) clock edges.*/\1/p')
    echo
    echo "RTL in the loop ($k arg $arg, $preset, $pol, $threads threads; the WST as Verilated RTL, $edges clock edges):"
    awk -v c="$tc" -v r="$tr" -v l="$tl" 'BEGIN {
      printf "  CPU s: C only %.2f   replace %.2f (%.2fx)   lockstep %.2f (%.2fx)\n", c, r, r / c, l, l / c }'
  else
    echo "(RTL in the loop: skipped, verilator/yosys missing: make setup)"
  fi
fi
