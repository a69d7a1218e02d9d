#!/usr/bin/env bash
# tests/matrix.sh BUILD [long]: the kernel x preset pairs of the policy
# matrix, one "KERNEL PRESET" line each: every named policy runs on each pair
# with --check against Conv, and the behaviour manifest (tests/manifest.txt,
# scripts/manifest.sh) pins what each of those runs computes. One list for
# both, so the manifest pins exactly what the suite runs.
#
# tests/matrix.sh BUILD runs [sample|full|long]: the runs themselves, one
# "KERNEL PRESET POLICY" line each (tests/groups/23-matrix.sh runs them):
#   full    every policy on every pair: the 3,408 runs of the manifest
#           (make test-long);
#   sample  make test's fixed, stratified sample: Conv on every pair (the
#           reference each policy is held to) and SAMPLE_PER_PAIR (3) other
#           policies a pair, dealt so that on every preset each policy meets
#           at least one kernel (a preset's kernels, in order, take the
#           policies in a rotation that starts at a different place on each
#           preset: ranks r*3 .. r*3+2 plus 5 per preset, modulo the 23),
#           and every kernel meets several policies on each preset;
#   long    full, on the pairs of `long` below.
#
# The original kernels run on every preset. The papers' later suites (002's
# DoM kernels, 004's) run on every preset but the two MAWS ones — the
# default, both of 002's and 004's, so that every DoM, LWM and 2Lev legend
# meets every kernel on its own paper's machine and on `dws` — and on every
# preset with `long`. A kernel in no list runs on every preset.
set -u
B=$1 MODE=${2:-}
PRESETS="dws maws-coherent maws-bulksync dom dom-l2 lwm"
DOM_KERNELS=" nl lj sa rt km gf "
LWM_KERNELS=" blackjack bucketsort viterbi aes blackscholes needleman matmul reduction histogram bfs "
pairs() { # pairs [long]
  local e k p presets
  for e in "$B"/kernels/*.elf; do
    k=$(basename "$e" .elf)
    presets=$PRESETS
    if [ "${1:-}" != long ]; then
      case "$DOM_KERNELS$LWM_KERNELS" in *" $k "*) presets="dws dom dom-l2 lwm" ;; esac
    fi
    for p in $presets; do echo "$k $p"; done
  done
}
if [ "$MODE" != runs ]; then pairs "$MODE"; exit 0; fi

HOW=${3:-sample}
case $HOW in sample | full | long) ;; *) echo "tests/matrix.sh: runs: '$HOW' is not sample, full or long" >&2; exit 2 ;; esac
POLICIES=$(cd "$(dirname "$0")/../sim/policies" && ls *.cfg | sed 's/\.cfg$//')
pairs $([ "$HOW" = long ] && echo long) |
  awk -v policies="$POLICIES" -v how="$HOW" -v per="${SAMPLE_PER_PAIR:-3}" -v presets="$PRESETS" '
    BEGIN { n = split(policies, pol, /[ \n]+/); m = 0
            for (i = 1; i <= n; i++) if (pol[i] != "Conv") other[m++] = pol[i]
            np = split(presets, pr, " "); for (i = 1; i <= np; i++) pidx[pr[i]] = i - 1 }
    { k = $1; p = $2; print k, p, "Conv"
      if (how != "sample") { for (i = 0; i < m; i++) print k, p, other[i]; next }
      r = rank[p]++
      for (j = 0; j < per; j++) print k, p, other[(r * per + j + 5 * pidx[p]) % m] }'
