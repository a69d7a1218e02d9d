# ---------------------------------------------------------------- irregular-exp
# make irregular-experiments' script at SIZE=tiny into a copy of the doc: its
# tables, verdicts and plots (every run checked against the host build).
group irregular-exp
cp docs/irregular.md "$T/irr-doc.md"
run irr-exp 900 python3 scripts/irregular_experiments.py --size tiny --jobs 2 --doc "$T/irr-doc.md" --figures "$T/irr-fig"
if [ $RC -eq 0 ] && grep -q "^- mycielskian8, pack none: cycles fall from t = 1 to 4" "$T/irr-doc.md" \
   && grep -q "^| mycielskian8 | dws | 16 |" "$T/irr-doc.md" && [ "$(grep -c 'irregular-experiments: begin' "$T/irr-doc.md")" = 1 ] \
   && { ! command -v gnuplot >/dev/null || [ -s "$T/irr-fig/irregular-cycles-mycielskian8.png" ]; }; then ok
else bad "irregular experiments at SIZE=tiny: exit $RC: $(tail -n 5 "$ERR")"; fi
