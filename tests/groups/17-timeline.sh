# ---------------------------------------------------------------- timeline
# The three runs issue 25 names: each writes a timeline that passes the
# format's rules and holds exactly what the statistics count (a slice per
# issued SIMD group or LWM sub-warp, an instant per split, merge, slip or
# fetch-group switch), and computes byte for byte what it computes without.
group timeline
mkdir -p "$T/see" "$B/see"
SEE_RUNS="merge dws DWS.ReviveSplit
nl dom DoM.Adaptive
blackjack lwm LWM+2Lev"
while read -r k p pol; do
  o=$T/see/$k
  run "tl-$k" 300 "$SIM" --config "$p" --policy "$pol" --stats json --stats-out "$o.json" --dump "$o.dump" \
      --trace "$o.trace" --timeline "$o.timeline.json.gz" "$B/kernels/$k.elf"
  rc=$RC
  run "tl-$k-off" 300 "$SIM" --config "$p" --policy "$pol" --stats json --stats-out "$o.off.json" --dump "$o.off.dump" \
      --trace "$o.off.trace" "$B/kernels/$k.elf"
  if [ $rc -eq 0 ] && [ $RC -eq 0 ] && cmp -s "$o.json" "$o.off.json" && cmp -s "$o.dump" "$o.off.dump" \
     && cmp -s "$o.trace" "$o.off.trace"; then ok
  else bad "$k $pol: with --timeline (exit $rc) the statistics, results or trace differ from without (exit $RC): $(diff "$o.json" "$o.off.json" | head -c 300)"; fi
  run "tl-check-$k" 600 python3 scripts/timeline_check.py "$o.timeline.json.gz"
  if [ $RC -eq 0 ] && grep -q ": OK: " "$OUT"; then ok
  else bad "$k $pol: the timeline breaks the format's rules: $(head -c 600 "$OUT" "$ERR")"; fi
  # what it holds against the statistics
  run "tl-count-$k" 600 python3 - "$o.timeline.json.gz" "$o.json" <<'PY'
import collections, gzip, json, sys
tl = json.load(gzip.open(sys.argv[1], 'rt'))
st = json.load(open(sys.argv[2]))
t = st['total']
ev = tl['traceEvents']
kinds = collections.Counter(e['args']['kind'] for e in ev if e['ph'] == 'X')
inst = collections.Counter(e['name'] for e in ev if e['ph'] == 'i')
flows = collections.Counter(e['ph'] for e in ev if e['ph'] in 'sf')
want = {}
if 'lwm' in st:
    want['sub-warp slices'] = (kinds['sub-warp'], st['lwm']['subwarps'])
    want['fetch-group switches'] = (inst['fetch-group switch'], t['fetch_switches'])
else:
    want['slices'] = (sum(kinds.values()), t['warp_insts'])
want['split instants'] = (sum(n for k, n in inst.items() if k.startswith('split:')),
                          t['splits_branch'] + t['splits_mem'] + t['splits_revive'])
want['PC merges'] = (inst['merge: same PC'], t['merges_pc'])
want['barrier merges'] = (inst['merge: after a barrier'], t['merges_barrier'])
if 'dom_allocs' in t:
    want['slips (MDT allocations)'] = (inst['slip: threads masked off'], t['dom_allocs'])
    want['re-activations'] = (inst['re-activate: ready threads re-join'] +
                              inst['re-activate: the entry\'s last threads re-join'], t['dom_reactivations'])
want['arrows'] = (flows['s'], flows['f'])
want['warps launched'] = (inst['warp launched'], t['warps_launched'])
wrong = ['%s %d, statistics %d' % (k, a, b) for k, (a, b) in want.items() if a != b]
print('; '.join('%s %d' % (k, a) for k, (a, b) in want.items()))
if wrong:
    print('WRONG: ' + '; '.join(wrong))
    sys.exit(1)
PY
  if [ $RC -eq 0 ]; then ok
  else bad "$k $pol: the timeline does not hold what the statistics count: $(head -c 600 "$OUT" "$ERR")"; fi
  case $k in # the mechanism's own marks are there
    merge) want="slices split [0-9]*, warp" inst="split: divergent branch [0-9]" ;;
    nl) want="slices slipped [0-9]*, warp" inst="slip: threads masked off [0-9]" ;;
    blackjack) want="slices sub-warp [0-9]" inst="fetch-group switch [0-9]" ;;
  esac
  if grep -q "$want" "$T/tl-check-$k.out" && grep -q "$inst" "$T/tl-check-$k.out" \
     && grep -q "; [1-9][0-9]* counter series" "$T/tl-check-$k.out"; then ok
  else bad "$k $pol: no '$want' / '$inst' / counters in the timeline: $(head -c 400 "$T/tl-check-$k.out")"; fi
done <<<"$SEE_RUNS"
if [ "${#SEE_RUNS}" -gt 0 ]; then
  # the format check fails on a corrupted file: an arrow without its end, a
  # timestamp that goes back, a slice without its duration, a slice that
  # overlaps another, a truncated file
  zcat "$T/see/merge.timeline.json.gz" >"$T/see/m.json"
  awk '!done && /"ph":"f"/ { done = 1; next } { print }' "$T/see/m.json" >"$T/see/bad-flow.json"
  awk 'NR > 2000 && !done && /"ph":"X"/ { sub(/"ts":[0-9.]*/, "\"ts\":0.000"); done = 1 } { print }' "$T/see/m.json" >"$T/see/bad-ts.json"
  awk 'NR > 2000 && !done && /"ph":"X"/ { sub(/,"dur":0.001/, ""); done = 1 } { print }' "$T/see/m.json" >"$T/see/bad-dur.json"
  awk 'NR > 2000 && !done && /"ph":"X"/ { sub(/"dur":0.001/, "\"dur\":0.0015"); done = 1 } { print }' "$T/see/m.json" >"$T/see/bad-nest.json"
  head -c 100000 "$T/see/m.json" >"$T/see/bad-cut.json"
  for c in "flow:flow cat 'dws' id [0-9]* (event [0-9]*): 0 ends, want 1" "ts:goes back in time" \
           "dur:without a duration" "nest:overlaps slice [0-9]* without nesting" "cut:cannot read it as JSON"; do
    n=${c%%:*} want=${c#*:}
    run "tl-bad-$n" 120 python3 scripts/timeline_check.py "$T/see/bad-$n.json"
    if [ $RC -ne 0 ] && grep -q "$want" "$OUT"; then ok
    else bad "the format check passed a corrupted timeline ($n): exit $RC: $(head -c 300 "$OUT")"; fi
  done
  if cmp -s "$T/see/m.json" "$T/see/bad-flow.json" || cmp -s "$T/see/m.json" "$T/see/bad-nest.json"; then
    bad "the corruptions no longer apply (the timeline's lines changed)"; fi
fi
# a window holds exactly the issues of its cycles (the trace's lines there)
run tl-window 120 "$SIM" --policy DWS.ReviveSplit --quiet --trace "$T/see/w.trace" --timeline "$T/see/w.json" \
    --timeline-window 10000:12000 "$B/kernels/merge.elf"
slices=$(grep -c '"ph":"X"' "$T/see/w.json")
want=$(python3 -c 'import sys; print(sum(10000 <= int(l[2:14], 16) < 12000 for l in open(sys.argv[1])))' "$T/see/w.trace")
range=$(grep '"ph":"[Xi]"' "$T/see/w.json" | sed 's/.*"ts":\([0-9.]*\).*/\1/' | sort -n | sed -n '1p;$p' | tr '\n' ' ')
if [ $RC -eq 0 ] && [ "$slices" = "$want" ] && [ "$want" -gt 500 ] && [ "$range" = "10.000 11.999 " ] \
   && python3 scripts/timeline_check.py "$T/see/w.json" >/dev/null; then ok
else bad "--timeline-window 10000:12000: exit $RC, $slices slices for $want issues in the trace, events at $range"; fi
# the size limit: the run goes on, the file stays valid and under it, and
# wpusim says which cycles it holds and how to narrow it
run tl-limit 300 "$SIM" --config dom --policy DoM.Adaptive --stats json --stats-out "$T/see/l.json" \
    --timeline "$T/see/l.tl.json" --timeline-limit 1 "$B/kernels/nl.elf"
size=$(wc -c <"$T/see/l.tl.json")
if [ $RC -eq 0 ] && [ "$size" -lt 1100000 ] && cmp -s "$T/see/l.json" "$T/see/nl.json" \
   && grep -q "^wpusim: --timeline $T/see/l.tl.json: stopped at the limit, 1 MB, at cycle [0-9]* of [0-9]*: it holds cycles 0\.\.[0-9]*; narrow it with --timeline-window START:END (e.g. 0:[0-9]*) or raise --timeline-limit MB (0: no limit)$" "$ERR" \
   && python3 scripts/timeline_check.py "$T/see/l.tl.json" >/dev/null; then ok
else bad "--timeline-limit 1: exit $RC, $size bytes: $(head -c 400 "$ERR")"; fi
# bad options: a clear error, exit 2
while IFS='|' read -r opt want; do
  run tl-badopt 30 "$SIM" $opt "$B/kernels/merge.elf"
  if [ $RC -eq 2 ] && grep -q -- "$want" "$ERR"; then ok
  else bad "$opt: want exit 2 and '$want'; got $RC: $(head -c 300 "$ERR")"; fi
done <<'CASES'
--timeline-window 5:3|--timeline-window 5:3: expected START:END, cycles with START < END
--timeline-window x|--timeline-window x: expected START:END
--timeline-limit -1|--timeline-limit -1: expected megabytes, a number >= 0
--timeline /nonexistent/t.json|--timeline /nonexistent/t.json: cannot open for writing
CASES
