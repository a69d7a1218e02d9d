#!/usr/bin/env bash
# tests/matrix_run.sh SIM TMPDIR [--check] [wpusim options...] < RUNS
# Runs each "KERNEL PRESET POLICY" line of RUNS (tests/matrix.sh BUILD runs)
# on JOBS (2) cores and prints one line per run, sorted:
#
#   KERNEL PRESET POLICY rc=RC stats=H dump=H trace=H insts=N hash=H
#
# the first seven fields being the manifest's line (scripts/manifest.sh,
# tests/manifest.txt: SHA-256 prefixes of the statistics without the
# configuration echo and the program's path, of the --dump results and of
# the --trace), then the run's thread-instruction count and per-thread
# instruction-count hash (instret_hash), which every policy must share with
# Conv. One pass serves both the policy matrix and the manifest: --check
# and --trace change no statistic (--check only appears in the configuration
# echo, which the manifest leaves out; tests/groups/23-matrix.sh checks it).
# A run that did not exit 0 leaves its stderr in TMPDIR/KERNEL.PRESET.POLICY.err.
set -u
SIM=$1 MT=$2
shift 2
B=$(dirname "$SIM")
export SIM B MT
export MATRIX_OPTS="$*"
one() { # one KERNEL PRESET POLICY
  local k=$1 p=$2 pol=$3 x=()
  [ "$p" = lwm ] && x=(--set dws_entries=64) # 32 warps: every warp holds an entry
  local o=$MT/$k.$p.$pol
  # shellcheck disable=SC2086 # MATRIX_OPTS: words
  timeout -k 10 600 "$SIM" --config "$p" --policy "$pol" "${x[@]}" $MATRIX_OPTS --stats json --stats-out "$o.json" \
      --dump "$o.dump" --trace "$o.trace" "$B/kernels/$k.elf" >/dev/null 2>"$o.err"
  local rc=$?
  local s d t
  s=$(sed -e '/^  "config": {$/,/^  },$/d' -e '/^  "program": /d' "$o.json" 2>/dev/null | sha256sum | cut -c1-16)
  d=$(sha256sum <"$o.dump" 2>/dev/null | cut -c1-16)
  t=$(sha256sum <"$o.trace" 2>/dev/null | cut -c1-16)
  local ti ih
  ti=$(sed -n 's/^    "thread_insts": \([0-9]*\),*$/\1/p' "$o.json" 2>/dev/null | head -n 1)
  ih=$(sed -n 's/^    "instret_hash": "*\([0-9a-fx]*\)"*,*$/\1/p' "$o.json" 2>/dev/null | head -n 1)
  echo "$k $p $pol rc=$rc stats=$s dump=$d trace=$t insts=${ti:-none} hash=${ih:-none}"
  rm -f "$o.json" "$o.dump" "$o.trace"
  [ $rc -eq 0 ] && rm -f "$o.err"
  return 0
}
export -f one
xargs -P "${JOBS:-2}" -L 1 bash -c 'one "$@"' _ | sort
