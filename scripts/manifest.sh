#!/usr/bin/env bash
# scripts/manifest.sh [SIM]: a manifest of what the model computes for every
# kernel x named policy x preset the dws test group runs (tests/matrix.sh): one line per run
# with the SHA-256 of its statistics (JSON, without the configuration echo,
# which gains keys as the model grows, and without the program's path, so a
# copy of the simulator elsewhere compares too), of its --dump results and
# of its --trace. Two trees that print the same manifest simulate the same
# machine cycle for cycle. tests/manifest.txt holds it (the "manifest" test
# group): a structural change must leave it unchanged; a change meant to move
# timing regenerates it in a commit of its own that says why:
#   bash scripts/manifest.sh build/wpusim > tests/manifest.txt
set -u
cd "$(dirname "$0")/.."
SIM=${1:-build/wpusim}
B=$(dirname "$SIM")
T=$(mktemp -d "${TMPDIR:-/tmp}/wsim-manifest.XXXXXX")
trap 'rm -rf "$T"' EXIT
one() { # one KERNEL PRESET POLICY
  local k=$1 p=$2 pol=$3 x=()
  [ "$p" = lwm ] && x=(--set dws_entries=64) # 32 warps: every warp holds an entry
  local o=$T/$k.$p.$pol
  "$SIM" --config "$p" --policy "$pol" "${x[@]}" --stats json --stats-out "$o.json" --dump "$o.dump" \
      --trace "$o.trace" "$B/kernels/$k.elf" >/dev/null 2>"$o.err"
  local rc=$?
  local s d t
  s=$(sed -e '/^  "config": {$/,/^  },$/d' -e '/^  "program": /d' "$o.json" | sha256sum | cut -c1-16)
  d=$(sha256sum <"$o.dump" | cut -c1-16)
  t=$(sha256sum <"$o.trace" | cut -c1-16)
  echo "$k $p $pol rc=$rc stats=$s dump=$d trace=$t"
  rm -f "$o.json" "$o.dump" "$o.trace" "$o.err"
}
export -f one
export SIM B T
# the kernel x preset pairs of the test suite's policy matrix (tests/matrix.sh)
bash tests/matrix.sh "$B" | while read -r k p; do
  for pol in sim/policies/*.cfg; do echo "$k $p $(basename "$pol" .cfg)"; done
done | xargs -P "${JOBS:-2}" -L 1 bash -c 'one "$@"' _ | sort
