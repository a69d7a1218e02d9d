# ---------------------------------------------------------------- softfloat
group softfloat
run softfloat 900 "$B/tests/test_softfloat"
if [ $RC -eq 0 ]; then ok; else bad "test_softfloat exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
