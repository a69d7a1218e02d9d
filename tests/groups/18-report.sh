# ---------------------------------------------------------------- report pages
# report.py's page for each run with its timeline, and Conv against
# DWS.ReviveSplit side by side, loaded in headless Chromium: no console
# error, every number equal to the JSON's, the timeline drawn; the PNGs are
# kept in $B/see for the docs. A page whose number, script or timeline was
# broken must fail.
# needs: timeline (its runs and pages under $T/see)
# cost: 150
group report
if ! command -v chromium >/dev/null; then
  bad "chromium is missing: the report pages cannot be tested in a browser (make setup installs it)"
else
  for k in merge nl blackjack; do
    o=$T/see/$k
    run "rp-$k" 600 python3 scripts/report.py "$o.json" --timeline "$o.timeline.json.gz" --label "$k" -o "$o.html"
    if [ $RC -ne 0 ]; then bad "report.py $k: exit $RC: $(head -c 300 "$ERR")"; continue; fi
    run "rp-browser-$k" 300 python3 scripts/browser_check.py "$o.html" "$o.json" --png "$B/see/report-$k.png"
    if [ $RC -eq 0 ] && grep -q "OK: no console error; [0-9]* numbers equal the JSON's; timeline 0: [1-9][0-9]* slices" "$OUT"; then ok
    else bad "the $k report page in Chromium: exit $RC: $(head -c 600 "$OUT" "$ERR")"; fi
  done
  run rp-conv 300 "$SIM" --policy Conv --stats json --stats-out "$T/see/conv.json" "$B/kernels/merge.elf"
  run rp-cmp 120 python3 scripts/report.py "$T/see/conv.json" "$T/see/merge.json" --label Conv --label DWS.ReviveSplit \
      -o "$T/see/cmp.html"
  run rp-browser-cmp 300 python3 scripts/browser_check.py "$T/see/cmp.html" "$T/see/conv.json" "$T/see/merge.json" \
      --png "$B/see/report-compare.png"
  if [ $RC -eq 0 ] && grep -q "OK: no console error; [0-9]* numbers equal the JSON's; no timeline" "$OUT" \
     && grep -q "speedup over Conv" "$T/see/cmp.html"; then ok
  else bad "the comparison page in Chromium: exit $RC: $(head -c 600 "$OUT" "$ERR")"; fi
  # a region of interest in the statistics (an extra object) is shown and checked
  python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); d['roi'] = {'cycles': 1234, 'total': {'thread_insts': 5678}}
json.dump(d, open(sys.argv[2], 'w'))" "$T/see/merge.json" "$T/see/roi.json"
  run rp-roi 120 python3 scripts/report.py "$T/see/roi.json" -o "$T/see/roi.html"
  run rp-browser-roi 300 python3 scripts/browser_check.py "$T/see/roi.html" "$T/see/roi.json"
  if [ $RC -eq 0 ] && grep -q 'data-json="roi.total.thread_insts">5,678<' "$T/see/roi.html"; then ok
  else bad "a region of interest: exit $RC: $(head -c 400 "$OUT" "$ERR")"; fi
  # mutants: a number that is not the JSON's, a script error, a timeline's
  # slices not drawn (its event marks still are)
  sed 's/\(data-json="cycles">\)[0-9,]*</\1999</' "$T/see/cmp.html" >"$T/see/bad-num.html"
  sed 's/document.body.setAttribute(.data-ready., .1.);/undefinedFunction(); &/' "$T/see/cmp.html" >"$T/see/bad-js.html"
  sed 's/for (i = 0; i < d.slices.length; i++) {$/for (i = d.slices.length; i < d.slices.length; i++) {/' \
      "$T/see/blackjack.html" >"$T/see/bad-draw.html"
  for c in "num:cmp:run 0 cycles: the page shows 999, the JSON gives" \
           "js:cmp:uncaught exception: ReferenceError: undefinedFunction" \
           "draw:blackjack:timeline 0: only 0.00% of its plot is drawn"; do
    n=${c%%:*} c=${c#*:}; p=${c%%:*} want=${c#*:}
    if cmp -s "$T/see/$p.html" "$T/see/bad-$n.html"; then bad "report mutant $n: the sed no longer applies"; continue; fi
    runs="$T/see/$p.json"; [ "$p" = cmp ] && runs="$T/see/conv.json $T/see/merge.json"
    run "rp-bad-$n" 300 python3 scripts/browser_check.py "$T/see/bad-$n.html" $runs
    if [ $RC -eq 1 ] && grep -q "$want" "$OUT"; then ok
    else bad "the browser check passed a broken page ($n): exit $RC: $(head -c 400 "$OUT" "$ERR")"; fi
  done
fi
run rp-nofile 30 python3 scripts/report.py "$T/see/nosuch.json" -o "$T/see/x.html"
if [ $RC -eq 2 ] && grep -q "^report: $T/see/nosuch.json: cannot read" "$ERR"; then ok
else bad "report.py on a missing file: want exit 2; got $RC: $(head -c 300 "$ERR")"; fi
run rp-notstats 30 python3 scripts/report.py "$T/see/w.json" -o "$T/see/x.html"
if [ $RC -eq 2 ] && grep -q "not wpusim statistics" "$ERR"; then ok
else bad "report.py on a timeline given as statistics: want exit 2; got $RC: $(head -c 300 "$ERR")"; fi
