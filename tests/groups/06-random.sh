# ---------------------------------------------------------------- random control flow
# Differential test of SIMT execution: random programs (tests/random/gen_cfg.py)
# with data-dependent branches, loops, direct, indirect and tail calls,
# recursion, early returns and exits from deep in the call tree. Every thread's
# exit code (a hash of its path) and the total thread-instruction count must
# be the same at every SIMD width and warp layout.
group random
SEEDS=$(seq 1 40); [ "$LONG" = 1 ] && SEEDS=$(seq 1 400)
for seed in $SEEDS; do
  python3 tests/random/gen_cfg.py "$seed" >"$T/rnd.S" &&
    ${RV_CC:-clang} --target=riscv32 -march=rv32imf -mabi=ilp32f -mno-relax -nostdlib -fuse-ld=lld \
      -Wl,-T,kernels/runtime/link.ld "$T/rnd.S" -o "$T/rnd.elf" 2>"$T/rnd.err" ||
    { bad "random program $seed did not build: $(head -c 300 "$T/rnd.err")"; continue; }
  ref="" fail=""
  for shape in "1 4 4" "8 2 4" "16 4 1" "32 1 2" "64 1 1"; do
    set -- $shape
    run "rnd-$seed-$1" 60 "$SIM" --stats json --threads 64 --set width=$1 --set wpus=$2 --set warps=$3 "$T/rnd.elf"
    flat=$(tr -d ' \n' <"$OUT")
    got="$(json_total "$OUT" thread_insts) $(echo "$flat" | sed -n 's/.*"exit_codes":\[\([^]]*\)\].*/\1/p')"
    case $flat in *'"status":"done"'*'"faulted":0,"unfinished":0'*) ;; *) fail="width $1: did not finish cleanly (exit $RC) $(head -c 200 "$ERR")";; esac
    if [ -z "$ref" ]; then ref=$got; elif [ "$got" != "$ref" ]; then fail="width $1 differs from width 1: ${got:0:80} vs ${ref:0:80}"; fi
  done
  if [ -z "$fail" ]; then ok; else bad "random program $seed: $fail"; fi
done
