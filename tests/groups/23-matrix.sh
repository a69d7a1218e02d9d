# ---------------------------------------------------------------- policy matrix and behaviour manifest
# One pass over the policy matrix (tests/matrix.sh: kernel x preset pairs,
# named policies on each; tests/matrix_run.sh runs them) with --check,
# --trace and --dump. Each run:
#   - passes --check every cycle and exits 0;
#   - gives Conv's results byte for byte, its thread-instruction count and
#     its per-thread instruction counts (instret_hash): mechanisms change
#     timing, never results;
#   - computes what tests/manifest.txt says it computes (statistics, results,
#     instruction trace): a structural change must leave it unchanged; a
#     change meant to move timing regenerates the file in its own commit
#     (bash scripts/manifest.sh build/wpusim > tests/manifest.txt) and says why.
# make test runs the fixed, stratified sample of tests/matrix.sh (Conv on
# each of the 142 pairs and 3 other policies a pair, 568 runs: every policy
# on every preset, every kernel under 11 or more policies); make test-long
# runs the whole matrix with every kernel on every preset (tests/matrix.sh
# long: 4,176 runs), the manifest's 3,408 among them, against the whole
# manifest, and the DWS suite at its small size.
# cost: 200
group matrix
# check_runs RESULTS ERRDIR WHAT: each run of RESULTS (tests/matrix_run.sh)
# exited 0 under --check and gave its pair's Conv run's results, thread-
# instruction count and per-thread instruction counts
check_runs() {
  local k p pol rc dump insts hash rdump rinsts rhash
  while read -r k p pol rc _ dump _ insts hash _ rdump rinsts rhash; do
    if [ "$rc" != rc=0 ]; then bad "$3$k $p $pol: exit ${rc#rc=}: $(head -c 400 "$2/$k.$p.$pol.err")"
    elif [ "$dump" != "$rdump" ]; then bad "$3$k $p $pol: results differ from Conv"
    elif [ "$insts" != "$rinsts" ]; then bad "$3$k $p $pol: thread instructions ${insts#insts=} vs Conv ${rinsts#insts=}"
    elif [ "$hash" != "$rhash" ]; then bad "$3$k $p $pol: per-thread instruction counts differ from Conv"
    else ok; fi
  done < <(awk 'NR == FNR { if ($3 == "Conv") ref[$1 " " $2] = $6 " " $8 " " $9; next } { print $0, "|", ref[$1 " " $2] }' "$1" "$1")
}
MT=$T/matrix
mkdir -p "$MT"
HOW=sample; [ "$LONG" = 1 ] && HOW=long
bash tests/matrix.sh "$B" runs $HOW > "$MT/runs"
bash tests/matrix_run.sh "$SIM" "$MT" --check < "$MT/runs" > "$MT/results"
# the sample covers what it says: every policy on every preset, every kernel
pols=$(ls sim/policies/*.cfg | wc -l)
npk=$(awk '{ print $2, $3 }' "$MT/runs" | sort -u | wc -l)
nk=$(awk '{ print $1 }' "$MT/runs" | sort -u | wc -l)
want_k=$(ls "$B"/kernels/*.elf | wc -l)
if [ "$(grep -c '' "$MT/results")" = "$(grep -c '' "$MT/runs")" ] && [ "$npk" = $((pols * 6)) ] && [ "$nk" = "$want_k" ]; then ok
else bad "policy matrix ($HOW): $(grep -c '' "$MT/results") results of $(grep -c '' "$MT/runs") runs, $npk policy x preset pairs (want $((pols * 6))), $nk kernels (want $want_k)"; fi
check_runs "$MT/results" "$MT" ""
# ... and what the manifest pins, for the runs of both (sample: those lines
# of it; long: every line of it, and more runs than it pins)
awk 'NR == FNR { pin[$1 " " $2 " " $3] = 1; next } ($1 " " $2 " " $3) in pin' tests/manifest.txt "$MT/results" |
  cut -d' ' -f1-7 > "$MT/manifest"
awk 'NR == FNR { run[$1 " " $2 " " $3] = 1; next } ($1 " " $2 " " $3) in run' "$MT/runs" tests/manifest.txt > "$MT/want"
if [ $HOW = long ] && ! cmp -s "$MT/want" tests/manifest.txt; then bad "the long matrix does not run every line of tests/manifest.txt"; fi
if diff "$MT/want" "$MT/manifest" > "$MT/manifest.diff"; then ok
else bad "behaviour differs from tests/manifest.txt in $(grep -c '^>' "$MT/manifest.diff") of $(grep -c '' "$MT/manifest") runs, e.g. $(grep -m3 '^>' "$MT/manifest.diff")"; fi
# --check and --trace change no statistic: a run without them gives the
# manifest's statistics too (the pass above has both)
run matrix-plain 120 "$SIM" --config lwm --policy LWM+2Lev --set dws_entries=64 --stats json "$B/kernels/histogram.elf"
s=$(sed -e '/^  "config": {$/,/^  },$/d' -e '/^  "program": /d' "$OUT" | sha256sum | cut -c1-16)
if [ $RC -eq 0 ] && grep -q "^histogram lwm LWM+2Lev rc=0 stats=$s " tests/manifest.txt; then ok
else bad "histogram lwm LWM+2Lev without --check and --trace: statistics $s, not the manifest's: $(grep '^histogram lwm LWM+2Lev ' tests/manifest.txt)"; fi
if [ "$LONG" = 1 ]; then # the DWS suite at its small size on the papers' systems, with --check
  for preset in dws maws-coherent maws-bulksync; do
    for pol in $(ls sim/policies/*.cfg | sed 's|.*/||; s/\.cfg$//'); do
      for k in fft filter hotspot lu merge short kmeans svm; do echo "$k $preset $pol"; done
    done
  done > "$MT/small-runs"
  mkdir -p "$MT/small"
  bash tests/matrix_run.sh "$SIM" "$MT/small" --check --arg 1 < "$MT/small-runs" > "$MT/small-results"
  check_runs "$MT/small-results" "$MT/small" "small size: "
fi
