# ---------------------------------------------------------------- figures
# scripts/figures.py (make figures, docs/figures.md) on two tiny kernels and two
# studies: the tables' exact structure; the job list run here and merged gives
# the same tables as the direct run; a wrong result hash fails the check; the
# tables are written without gnuplot, with a message naming the package.
group figures
FIG="python3 scripts/figures.py --size tiny --studies memwait-001,dcache-001 --kernels filter,lu --extra none --build $B"
fig_shape() { # the tables with every number after the first column as N
  awk -F'|' 'BEGIN { OFS = "|" } /^\|/ { for (i = 3; i < NF; i++) gsub(/[0-9]+(\.[0-9]+)?/, "N", $i) } { print }' "$1"
}
run fig-direct 120 $FIG -j 2 --out "$T/fig-d"
fig_shape "$T/fig-d/index.md" >"$T/fig-d.shape"
cat >"$T/fig.want" <<'WANT'
# WarpSplit figures

scripts/figures.py: size tiny (--arg 0), seed 1, tasks build, --task paper (filter 1, lu 1); 20 runs; results and per-thread instruction counts against Conv at the same point: all identical

## 001 §5.5: time waiting for memory and SIMD width, Conv -> DWS.ReviveSplit (`dws`) (memwait-001)

Waiting = WPU cycles in which nothing issues and a group waits on memory, over issue + waiting + idle cycles (`cycles_memwait`); SIMD width = thread-instructions / SIMD instructions.

| kernel | Conv waiting | ReviveSplit waiting | Conv SIMD width | ReviveSplit SIMD width |
|---|---|---|---|---|
| filter | N% | N% | N | N |
| lu | N% | N% | N | N |
| mean | N% | N% | N | N |
| 001 §5.5 (average) | N% | N% | N | N |

## 001 Fig. 17: D-cache size (dws: 8-way) (dcache-001)

Paper: DWS's benefit decreases with larger D-caches; at 128 KB DWS is almost identical to Conv; DWS ~ doubling the D-cache.

Speedup of DWS.ReviveSplit over Conv at the same point (cycles(Conv) / cycles(DWS.ReviveSplit)):

| L1 D size (KB) | filter | lu | h-mean | mean |
|---|---|---|---|---|
| 8 | N | N | N | N |
| 16 | N | N | N | N |
| 32 | N | N | N | N |
| 64 | N | N | N | N |
| 128 | N | N | N | N |

Mean over the kernels: time waiting for memory / SIMD width per instruction / L1 D miss rate:

| L1 D size (KB) | Conv | DWS.ReviveSplit |
|---|---|---|
| 8 | N% / N / N | N% / N / N |
| 16 | N% / N / N | N% / N / N |
| 32 | N% / N / N | N% / N / N |
| 64 | N% / N / N | N% / N / N |
| 128 | N% / N / N | N% / N / N |

Report pages (scripts/report.py: a study's policies side by side on filter, at its first point): [memwait-001](memwait-001.html), [dcache-001](dcache-001.html)
WANT
if [ $RC -eq 0 ] && diff "$T/fig.want" "$T/fig-d.shape" >"$T/fig.diff" \
   && grep -qx '| 001 §5.5 (average) | 76% | 36% | 14 | 4 |' "$T/fig-d/index.md"; then ok
else bad "figures.py direct: exit $RC: $(head -c 300 "$T/fig.diff") $(tail -n 3 "$ERR")"; fi
# plots: PNG and SVG when gnuplot is there
if command -v gnuplot >/dev/null; then
  if [ "$(head -c 4 "$T/fig-d/dcache-001.png" 2>/dev/null | od -An -tx1 | tr -d ' ')" = 89504e47 ] \
     && grep -q '<svg' "$T/fig-d/dcache-001.svg"; then ok
  else bad "figures.py: no dcache-001.png / .svg with gnuplot installed: $(tail -n 3 "$ERR")"; fi
fi
# the job list, run here one line after another, then merged
run fig-emit 60 $FIG --emit-jobs "$T/fig.jobs" --out "$T/fig-e"
if [ $RC -eq 0 ] && [ "$(wc -l <"$T/fig.jobs")" -eq 20 ] && grep -q "^$B/wpusim --config dws --policy Conv .*--stats-out $T/fig-e/runs/dws.Conv.lu.[0-9a-f]*.json .*&& sha256sum " "$T/fig.jobs"; then ok
else bad "figures.py --emit-jobs: exit $RC, $(wc -l <"$T/fig.jobs" 2>/dev/null) lines: $(head -c 300 "$T/fig.jobs" 2>/dev/null) $(cat "$ERR")"; fi
run fig-jobs 120 bash "$T/fig.jobs"
run fig-merge 60 $FIG --merge "$T/fig-e/runs" --out "$T/fig-e" --no-plots
if [ $RC -eq 0 ] && cmp -s "$T/fig-d/index.md" "$T/fig-e/index.md"; then ok
else bad "figures.py --merge of the job list's results differs from the direct run: exit $RC: $(diff "$T/fig-d/index.md" "$T/fig-e/index.md" | head -n 6)"; fi
# a run whose results differ from Conv's (its hash changed) fails the check
set -- "$T"/fig-e/runs/dws.DWS.ReviveSplit.filter.*.sha256
if [ -f "${1:-}" ]; then
  sed -i 's/^./0/; s/^00/11/' "$1"
  run fig-mutant 60 $FIG --merge "$T/fig-e/runs" --out "$T/fig-m" --no-plots
  if [ $RC -eq 1 ] && grep -q "^figures: FAIL dws DWS.ReviveSplit filter.*: results differ from Conv's" "$ERR" \
     && grep -q "; 20 runs; .*: 1 FAILED" "$T/fig-m/index.md"; then ok
  else bad "figures.py --merge missed a changed result: exit $RC: $(tail -n 3 "$ERR")"; fi
else bad "figures.py --emit-jobs: no ReviveSplit filter result in $T/fig-e/runs"; fi
# without gnuplot: the tables, and what to install
PY=$(python3 -c 'import sys; print(sys.executable)')
run fig-nogp 60 env PATH=/nonexistent "$PY" scripts/figures.py --size tiny --studies dcache-001 --kernels filter,lu \
    --build "$B" --merge "$T/fig-d/runs" --out "$T/fig-n"
if [ $RC -eq 0 ] && [ -s "$T/fig-n/dcache-001.md" ] && [ -s "$T/fig-n/dcache-001.gp" ] && [ ! -e "$T/fig-n/dcache-001.png" ] \
   && grep -q "^figures: gnuplot not found: .*install Debian's gnuplot-nox" "$ERR"; then ok
else bad "figures.py without gnuplot: exit $RC: $(cat "$ERR")"; fi
run fig-bad 30 python3 scripts/figures.py --studies nosuch
if [ $RC -eq 2 ] && grep -q "^figures: --studies nosuch: unknown (studies: legends-001, " "$ERR"; then ok
else bad "figures.py --studies nosuch: exit $RC: $(cat "$ERR")"; fi
