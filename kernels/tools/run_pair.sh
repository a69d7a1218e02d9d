#!/bin/sh
# kernels/tools/run_pair.sh WPUSIM KERNEL "ARGS": runs KERNEL.elf on wpusim with
# ARGS (its options) and the host build KERNEL with the same threads, seed, arg,
# task and machine shape (read from wpusim --print-config), and compares their
# WSIM_RESULT regions when the kernel has any (make kernel, docs/see.md).
# Exit 0 when both passed and the results are equal; else the first failure's.
set -u
sim=$1 k=$2 args=$3
cfg=$("$sim" $args --print-config) || exit 2
val() { echo "$cfg" | sed -n "s/^$1  *= *\([^ #]*\).*/\1/p" | head -n 1; }
host="--threads $(val threads) --seed $(val seed) --arg $(val arg) --task $(val task) --width $(val warp_size) --wpus $(val wpus) --warps $(val warps)"
echo "kernel: $sim $args $k.elf"
if "$k" --list-results >/dev/null 2>&1 && [ -n "$("$k" --list-results 2>/dev/null)" ]; then
  "$sim" $args --dump "$k.wpusim.bin" "$k.elf" || exit $?
  echo "kernel: $k $host"
  "$k" $host --quiet --dump "$k.host.bin" || exit $?
  if cmp -s "$k.wpusim.bin" "$k.host.bin"; then
    echo "kernel: results equal the host build's ($(wc -c <"$k.host.bin") bytes: $k.wpusim.bin)"
  else
    echo "kernel: results differ from the host build's: cmp $k.wpusim.bin $k.host.bin" >&2
    exit 1
  fi
else
  "$sim" $args "$k.elf" || exit $?
  echo "kernel: $k $host"
  "$k" $host --quiet || exit $?
  echo "kernel: passed on both (it registers no WSIM_RESULT to compare)"
fi
