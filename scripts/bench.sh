#!/usr/bin/env bash
# make bench: simulator speed. For each kernel, runs wpusim on the default
# configuration and the same kernel source compiled natively for the host
# (build/host/NAME runs every thread in sequence), side by side, and prints
# simulated thread-instructions per host second and the slowdown.
# Usage: scripts/bench.sh [REPEATS]   (best of REPEATS runs each, default 3)
set -eu
cd "$(dirname "$0")/.."
B=${BUILD:-build}
REPEATS=${1:-3}
# kernel:arg — sizes chosen so each simulation takes about a second
CASES=${WSIM_BENCH_CASES:-"collatz:16384 nqueens:2048 interp:4096 mandel:256 bitonic:16384"}
THREADS=256

now() { date +%s.%N; }
best() { # best CMD...: fastest wall time of REPEATS runs, in seconds
  local b="" t0 t1 d
  for _ in $(seq "$REPEATS"); do
    t0=$(now); "$@" >/dev/null 2>&1 || { echo "bench: failed: $*" >&2; exit 1; }; t1=$(now)
    d=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
    if [ -z "$b" ] || awk -v d="$d" -v b="$b" 'BEGIN { exit !(d < b) }'; then b=$d; fi
  done
  echo "$b"
}

printf '%-10s %6s %14s %10s %14s %12s %10s\n' kernel arg thread-insts sim-s "thr-insts/s" native-s slowdown
tot_insts=0 tot_sim=0 tot_nat=0
for c in $CASES; do
  k=${c%%:*} arg=${c#*:}
  elf=$B/kernels/$k.elf host=$B/host/$k
  [ -f "$elf" ] && [ -x "$host" ] || { echo "bench: $k not built (make kernels)" >&2; exit 1; }
  insts=$("$B/wpusim" --stats json --threads $THREADS --arg "$arg" "$elf" 2>/dev/null |
          sed -n '/"total"/,/}/s/.*"thread_insts": \([0-9]*\).*/\1/p' | head -n 1)
  sim=$(best "$B/wpusim" --quiet --threads $THREADS --arg "$arg" "$elf")
  nat=$(best "$host" --quiet --threads $THREADS --seed 1 --arg "$arg")
  awk -v k="$k" -v a="$arg" -v n="$insts" -v s="$sim" -v h="$nat" 'BEGIN {
    printf "%-10s %6s %14d %10.3f %14.3e %12.6f %9.0fx\n", k, a, n, s, n / s, h, s / h }'
  tot_insts=$((tot_insts + insts))
  tot_sim=$(awk -v a="$tot_sim" -v b="$sim" 'BEGIN { print a + b }')
  tot_nat=$(awk -v a="$tot_nat" -v b="$nat" 'BEGIN { print a + b }')
done
awk -v n="$tot_insts" -v s="$tot_sim" -v h="$tot_nat" 'BEGIN {
  printf "%-10s %6s %14d %10.3f %14.3e %12.6f %9.0fx\n", "all", "", n, s, n / s, h, s / h }'
echo "(best of $REPEATS; $THREADS threads; default configuration; native = same C, host build, threads in sequence)"
