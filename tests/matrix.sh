#!/usr/bin/env bash
# tests/matrix.sh BUILD [long]: the kernel x preset pairs that the test
# suite's policy matrix (the dws group: every named policy on each pair, with
# --check, against Conv) and the behaviour manifest (scripts/manifest.sh)
# cover, one "KERNEL PRESET" line each. One list for both, so the manifest
# pins exactly what the suite runs.
#
# The original kernels run on every preset. The papers' later suites run on
# the default preset and their own paper's (002's DoM kernels on dom, 004's
# on lwm) in `make test`; with `long` (make test-long) on every preset too.
# A kernel in no list runs on every preset.
set -u
B=$1 LONG=${2:-}
PRESETS="dws maws-coherent maws-bulksync dom dom-l2 lwm"
DOM_KERNELS=" nl lj sa rt km gf "
LWM_KERNELS=" blackjack bucketsort viterbi aes blackscholes needleman matmul reduction histogram bfs "
for e in "$B"/kernels/*.elf; do
  k=$(basename "$e" .elf)
  presets=$PRESETS
  if [ "$LONG" != long ]; then
    case "$DOM_KERNELS" in *" $k "*) presets="dws dom" ;; esac
    case "$LWM_KERNELS" in *" $k "*) presets="dws lwm" ;; esac
  fi
  for p in $presets; do echo "$k $p"; done
done
