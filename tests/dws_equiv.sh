#!/usr/bin/env bash
# tests/dws_equiv.sh SIM KERNEL.elf PRESET TMPDIR [wpusim options...]
# Runs KERNEL under Conv and every named policy (sim/policies) on PRESET with
# --check, and prints one line per policy: "ok NAME" or "FAIL NAME: why".
# Every policy must give the Conv run's results byte for byte, its thread-
# instruction count and its per-thread instruction counts (instret_hash).
set -u
sim=$1 elf=$2 preset=$3 tmp=$4
shift 4 # the rest: extra wpusim options for every run
k=$(basename "$elf" .elf)
base=$tmp/$k.$preset.Conv
if ! timeout 300 "$sim" --config "$preset" --policy Conv "$@" --check --stats json --stats-out "$base.json" \
      --dump "$base.dump" "$elf" >/dev/null 2>"$base.err"; then
  echo "FAIL $k $preset Conv: exit $?: $(head -c 300 "$base.err")"; exit 0
fi
want_ti=$(grep -m1 '"thread_insts"' "$base.json")
want_h=$(grep -m1 '"instret_hash"' "$base.json")
echo "ok $k $preset Conv"
for pol in $(cd "$(dirname "$0")/../sim/policies" && ls *.cfg | sed 's/\.cfg$//'); do
  [ "$pol" = Conv ] && continue
  out=$tmp/$k.$preset.$pol
  timeout 300 "$sim" --config "$preset" --policy "$pol" "$@" --check --stats json --stats-out "$out.json" \
    --dump "$out.dump" "$elf" >/dev/null 2>"$out.err"
  rc=$?
  if [ $rc -ne 0 ]; then echo "FAIL $k $preset $pol: exit $rc: $(head -c 400 "$out.err")"
  elif ! cmp -s "$base.dump" "$out.dump"; then echo "FAIL $k $preset $pol: results differ from Conv"
  elif [ "$(grep -m1 '"thread_insts"' "$out.json")" != "$want_ti" ]; then
    echo "FAIL $k $preset $pol: thread instructions $(grep -m1 '"thread_insts"' "$out.json") vs Conv $want_ti"
  elif [ "$(grep -m1 '"instret_hash"' "$out.json")" != "$want_h" ]; then
    echo "FAIL $k $preset $pol: per-thread instruction counts differ from Conv"
  else echo "ok $k $preset $pol"; fi
  rm -f "$out.dump"
done
