# ---------------------------------------------------------------- ISA tests
# Every positive test with many threads and several SIMD widths; threads
# check different rows of each table.
group isa
set -- "$B"/isa/*.elf
[ $# -gt 20 ] || bad "only $# ISA test programs in $B/isa: the ISA suite was not built"
for elf in "$B"/isa/*.elf; do
  name=$(basename "$elf" .elf)
  case $name in fault_*) continue ;; esac
  # (995 x 64 on 2 x 8 once live-locked the I-cache: misses evicting each other's lines)
  for shape in "64 8 4 2" "100 16 2 4" "37 1 2 32" "256 32 1 8" "995 64 2 8"; do
    set -- $shape
    run "isa-$name-$2" 120 "$SIM" --quiet --threads "$1" --set width="$2" --set wpus="$3" --set warps="$4" "$elf"
    if [ $RC -eq 0 ]; then ok; else bad "$name threads=$1 width=$2: exit $RC: $(head -c 600 "$ERR")"; fi
  done
done
# Negative tests: the faulting thread stops with the expected kind of error.
for elf in "$B"/isa/fault_*.elf; do
  [ -f "$elf" ] || continue
  name=$(basename "$elf" .elf)
  want=$(head -n 1 "tests/isa/$name.expect")
  run "isa-$name" 60 "$SIM" --quiet --threads 8 --set width=4 "$elf"
  if [ $RC -eq 1 ] && grep -q "fault at pc" "$ERR" && grep -qi -- "$want" "$ERR"; then ok
  else bad "$name: want exit 1 and a fault naming '$want'; got exit $RC: $(head -c 400 "$ERR")"; fi
done
