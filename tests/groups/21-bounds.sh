# ---------------------------------------------------------------- first-principles bounds
# Every mechanism's micro-kernel (tests/sim/bound_*.S, the derivation in its
# head comment; docs/bounds.md) on a machine that makes the arithmetic exact:
# Conv takes exactly the derived cycles, and each legend reaches at least
# 80 % of the derived speedup bound and never exceeds it (tests/bounds/check.sh,
# one line a run). Every mutant of tests/bounds/mutants.sh (a mechanism
# modelled wrongly, built from a patched copy) fails its bound: with
# WSIM_TEST_LONG=1 all of them; otherwise those of one bound, so that every
# run builds the script's model (its source list once went stale unseen),
# and every mutant's substitution must still change its file (one did not).
group bounds
bash tests/bounds/check.sh "$SIM" "$B/simtests" > "$T/bounds" 2>&1
while read -r word rest; do
  if [ "$word" = ok ]; then ok; else bad "$word $rest"; fi
done < "$T/bounds"
n=$(grep -c '' "$T/bounds")
if [ "$n" = 25 ]; then ok; else bad "tests/bounds/check.sh: $n results, expected 25: $(tail -c 300 "$T/bounds")"; fi
if [ "$LONG" = 1 ]; then run bounds-mutants 900 bash tests/bounds/mutants.sh "$B"
else run bounds-mutants-maws-split 300 bash tests/bounds/mutants.sh "$B" maws-split; fi
if [ $RC -eq 0 ] && grep -q caught "$OUT"; then ok; else bad "bound mutants: $(grep -v caught "$OUT" | head -n 5) $(head -c 300 "$ERR")"; fi
run bounds-mutants-apply 60 bash tests/bounds/mutants.sh "$B" applies
if [ $RC -eq 0 ] && [ "$(grep -c ': applies to ' "$OUT")" -ge 10 ]; then ok
else bad "bound mutants: $(grep -v ': applies to ' "$OUT" | head -n 5) $(head -c 300 "$ERR")"; fi
