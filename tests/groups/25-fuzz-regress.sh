# ---------------------------------------------------------------- fuzz regression corpus
# Every input in fuzz/regress/<harness>/ (hand-made bad inputs and whatever
# the fuzzers found) through the harness built without libFuzzer, with ASan
# and UBSan (fuzz/fuzz.mk: fuzz-replay): no crash, no sanitizer report, no
# --check failure. make fuzz runs the harnesses themselves (fuzz/README.md).
group fuzz-regress
for h in elf config run; do
  R=$B/fuzz/replay/fuzz_$h
  set -- fuzz/regress/$h/*
  if [ ! -x "$R" ]; then bad "no replay harness $R (make fuzz-replay)"; continue; fi
  [ $# -ge 5 ] || bad "only $# inputs in fuzz/regress/$h"
  for f in "$@"; do
    run "fuzz-$h-$(basename "$f")" 60 env ASAN_OPTIONS=detect_leaks=1 "$R" "$f"
    if [ $RC -eq 0 ] && grep -qx "ok $f" "$OUT" && ! grep -q "Sanitizer\|runtime error" "$ERR"; then ok
    else bad "$f through fuzz_$h: exit $RC: $(grep -m3 'Sanitizer\|runtime error\|^fuzz:\|--check' "$ERR")"; fi
  done
done
