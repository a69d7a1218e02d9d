#!/bin/sh
# Run the ISA tests on wpusim (called by `make isa-check`, see isa.mk).
# usage: run_isa.sh WPUSIM ELF_DIR SRC_DIR "SIM_FLAGS" "TESTS" "FAULT_TESTS"
# A positive test passes when wpusim exits 0.  A fault test passes when wpusim
# exits non-zero and its output has a line containing the keyword of
# SRC_DIR/NAME.expect.  Each run is limited to $ISA_TIMEOUT seconds (600).
sim=$1 elf=$2 src=$3 flags=$4 tests=$5 faults=$6
limit=${ISA_TIMEOUT:-600}
pass=0 fail=0
for t in $tests; do
    log=$elf/$t.log
    timeout "$limit" "$sim" $flags "$elf/$t.elf" >"$log" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ]; then
        pass=$((pass + 1)); echo "PASS $t"
    else
        fail=$((fail + 1)); echo "FAIL $t (exit $rc, see $log):"
        grep -m 5 -e 'FAIL' -e 'fault at' -e 'wpusim:' "$log" | sed 's/^/    /'
    fi
done
for t in $faults; do
    log=$elf/$t.log
    want=$(cat "$src/$t.expect")
    timeout "$limit" "$sim" $flags "$elf/$t.elf" >"$log" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -qiF -- "$want" "$log"; then
        pass=$((pass + 1)); echo "PASS $t"
    else
        fail=$((fail + 1)); echo "FAIL $t (exit $rc, no line with \"$want\", see $log)"
    fi
done
echo "isa-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
