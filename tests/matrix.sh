#!/usr/bin/env bash
# tests/matrix.sh BUILD [long]: the kernel x preset pairs that the test
# suite's policy matrix (the dws group: every named policy on each pair, with
# --check, against Conv) and the behaviour manifest (scripts/manifest.sh)
# cover, one "KERNEL PRESET" line each. One list for both, so the manifest
# pins exactly what the suite runs.
#
# The original kernels run on every preset. The papers' later suites (002's
# DoM kernels, 004's) run on every preset but the two MAWS ones in `make
# test` — the default, both of 002's and 004's, so that every DoM, LWM and
# 2Lev legend meets every kernel on its own paper's machine and on `dws` —
# and on every preset with `long` (make test-long). A kernel in no list runs
# on every preset.
set -u
B=$1 LONG=${2:-}
PRESETS="dws maws-coherent maws-bulksync dom dom-l2 lwm"
DOM_KERNELS=" nl lj sa rt km gf "
LWM_KERNELS=" blackjack bucketsort viterbi aes blackscholes needleman matmul reduction histogram bfs "
for e in "$B"/kernels/*.elf; do
  k=$(basename "$e" .elf)
  presets=$PRESETS
  if [ "$LONG" != long ]; then
    case "$DOM_KERNELS$LWM_KERNELS" in *" $k "*) presets="dws dom dom-l2 lwm" ;; esac
  fi
  for p in $presets; do echo "$k $p"; done
done
