# ---------------------------------------------------------------- options
group options
K=$B/kernels/mandel.elf
# The refusals of tests/groups/options.tsv, with the files they name.
printf 'width = 8\n# comment\nwarps = 2 # trailing\nbogus = 3\n' >"$T/bad.cfg"
mkdir -p "$T/cfgdir"
printf 'width = 8\n\nwarps = 2\0bogus = 1\n' >"$T/nul.cfg"
truncate -s 2M "$T/big.cfg"
cp "$K" "$T/prog.elf"
expect_usage() { # NAME STATUS MESSAGE(regex) ARGS...
  local name=$1 status=$2 msg=$3; shift 3
  run "opt-$name" 30 "$SIM" "$@"
  if [ $RC -eq "$status" ] && grep -Eq -- "$msg" "$ERR"; then ok
  else bad "$name: want exit $status and '$msg'; got $RC: $(cat "$ERR")"; fi
}
table_cases tests/groups/options.tsv expect_usage
rm -f "$T/big.cfg"
# a FIFO (or a device) is refused at once: it used to be waited on forever
mkfifo "$T/cfg.fifo"
for o in --config --policy; do
  run opt-config-fifo 10 "$SIM" $o "$T/cfg.fifo" "$GOOD"
  if [ $RC -eq 2 ] && grep -q "^wpusim: $T/cfg.fifo: not a regular file (a pipe or FIFO); a configuration is a text file of key = value lines$" "$ERR"; then ok
  else bad "$o FIFO: want exit 2 at once, naming it; got $RC: $(head -c 300 "$ERR")"; fi
done
rm -f "$T/cfg.fifo"
run opt-config-zero 30 bash -c 'ulimit -v 1000000 && exec "$@"' _ "$SIM" --config /dev/zero "$GOOD"
if [ $RC -eq 2 ] && grep -q "^wpusim: /dev/zero: not a regular file (a character device); a configuration is a text file of key = value lines$" "$ERR"; then ok
else bad "--config /dev/zero (in 1 GB): want exit 2 naming it; got $RC: $(head -c 300 "$ERR")"; fi
printf 'width = 8\n# comment\nwarps = 2 # trailing\n' >"$T/good.cfg"
run opt-config 30 "$SIM" --config "$T/good.cfg" --set warps=3 --print-config
if [ $RC -eq 0 ] && grep -Eq '^warp_size += 8 +#' "$OUT" && grep -Eq '^lanes += 8 +#' "$OUT" \
   && ! grep -Eq '^width ' "$OUT" && grep -Eq '^warps += 3 +#' "$OUT"; then ok
else bad "config file + override: $(cat "$OUT" "$ERR")"; fi
run opt-alias 30 "$SIM" --set warp_size=4 --set lanes=4 --print-config
cp "$OUT" "$T/alias1"
run opt-alias2 30 "$SIM" --set width=4 --print-config
if [ $RC -eq 0 ] && cmp -s "$OUT" "$T/alias1"; then ok; else bad "--set width=4 should equal warp_size=4 lanes=4"; fi
# --print-config is a config file; --config layers apply in order
cp "$OUT" "$T/printed.cfg"
run opt-roundtrip 30 "$SIM" --config "$T/printed.cfg" --print-config
if [ $RC -eq 0 ] && cmp -s "$OUT" "$T/printed.cfg"; then ok; else bad "--print-config output does not read back as the same configuration: $(head -c 300 "$ERR")"; fi
printf 'l1d_ways = 2\n' >"$T/ways.cfg"
run opt-layers 30 "$SIM" --config lwm --config "$T/ways.cfg" --print-config
if grep -Eq '^wpus += 1 ' "$OUT" && grep -Eq '^warps += 32 ' "$OUT" && grep -Eq '^l1d_ways += 2 ' "$OUT"; then ok
else bad "--config lwm --config file should layer: $(grep -E '^(wpus|warps|l1d_ways) ' "$OUT")"; fi
# Nothing given is silently dropped or replaced: a second --policy (it sets
# every mechanism key) or the same block recorded twice is refused; two
# outputs on one file, an output on the program, or two traces on stdout
# are refused before anything is written (they used to overwrite each other).
echo keep >"$T/same.out"
for o in "--stats-out $T/same.out --dump $T/./same.out" "--stats-out $T/same.out --trace $T/same.out" \
         "--trace $T/same.out --record-block wst=$T/same.out" "--dump $T/new.out --branch-profile $T/../${T##*/}/new.out"; do
  set -- $o
  run opt-same 30 "$SIM" --policy DWS.ReviveSplit $o "$K"
  if [ $RC -eq 2 ] && grep -q "^wpusim: $1 $2 and $3 $4 are the same file: each output needs its own$" "$ERR" \
     && [ "$(cat "$T/same.out")" = keep ] && [ ! -e "$T/new.out" ]; then ok
  else bad "wpusim $o: want exit 2 naming both and nothing written; got $RC: $(head -c 300 "$ERR")"; fi
done
# (options.tsv's same-program: --dump onto the program is refused, leaving it whole)
cmp -s "$K" "$T/prog.elf" && ok || bad "--dump onto the program changed it"
# Every block recorded at once, each to its own file: both of DoM's replay.
run opt-record-two 60 "$SIM" --quiet --policy DoM.Adaptive --record-block mdt="$T/two.mdt" --record-block asc="$T/two.asc" \
    --threads 64 "$K"
if [ $RC -eq 0 ] && "$B/tests/replay_block" "$T/two.mdt" >/dev/null && "$B/tests/replay_block" "$T/two.asc" >/dev/null \
   && head -n 1 "$T/two.mdt" | grep -q "block=mdt" && head -n 1 "$T/two.asc" | grep -q "block=asc"; then ok
else bad "--record-block mdt=... --record-block asc=...: want both traces, each replaying; got $RC: $(head -c 300 "$ERR") $(ls "$T"/two.* 2>&1)"; fi
rm -f "$T"/two.* "$T/prog.elf" "$T/same.out"
run opt-unused 30 "$SIM" --quiet --set mem_latency=500 --threads 2 "$GOOD"
if [ $RC -eq 0 ] && grep -q "^wpusim: warning: --set mem_latency has no effect under memory = coherent: it applies to memory = fixed$" "$ERR"; then ok
else bad "a --set key the organization ignores should warn: exit $RC: $(cat "$ERR")"; fi
# ... as keys of mechanisms that are off do (dws_*, dom_* did already), and
# --task on a kernel built without tasks.h (it never reads CSR wsim.task).
for c in "fetch_timeout=300|--set fetch_timeout has no effect without scheduler = twolevel; choose a policy, e.g. --policy 2Lev, or --set scheduler=twolevel" \
         "fetch_group_size=2|--set fetch_group_size has no effect without scheduler = twolevel" \
         "lwm_size=64|--set lwm_size has no effect with lwm = off; choose --config lwm --policy LWM, or --set lwm=on" \
         "private_latency=3|--set private_latency has no effect with private_mem = 0" \
         "task=1|--task has no effect: $GOOD never reads the task mapping (CSR wsim.task); the kernels built with tasks.h are build/kernels/tasks/NAME.elf"; do
  run opt-unused-mech 30 "$SIM" --quiet --set "${c%%|*}" --threads 2 "$GOOD"
  if [ $RC -eq 0 ] && grep -qF "wpusim: warning: ${c#*|}" "$ERR" && [ "$(wc -l <"$ERR")" = 1 ]; then ok
  else bad "--set ${c%%|*}: want exit 0 and the warning '${c#*|}'; got $RC: $(cat "$ERR")"; fi
done
run opt-used-mech 30 "$SIM" --quiet --config lwm --policy LWM+2Lev --set fetch_timeout=300 --set lwm_size=64 --set private_latency=2 \
    --task 1 "$B/kernels/tasks/filter.elf"
if [ $RC -eq 0 ] && [ ! -s "$ERR" ]; then ok; else bad "keys that take effect must not warn: exit $RC: $(cat "$ERR")"; fi
run opt-used 30 "$SIM" --quiet --set memory=fixed --set mem_latency=500 --threads 2 "$GOOD"
if [ $RC -eq 0 ] && [ ! -s "$ERR" ]; then ok; else bad "mem_latency under memory=fixed must not warn: $(cat "$ERR")"; fi
run opt-help 30 "$SIM" --help
helpok=1
for key in $(sed -n 's/^  \([a-z_]*\) .*/\1/p' "$T/opt-config.out"); do grep -q "^  $key " "$OUT" || { helpok=0; bad "--help does not document key $key"; }; done
# (every option of sim/options.def, the table --help is expanded from)
for opt in $(sed -n 's/^OPT([a-z_0-9]*, *"\(--[a-z-]*\)".*/\1/p' sim/options.def); do
  grep -Eq -- "^  $opt([ ,]|$)" "$OUT" || { helpok=0; bad "--help does not document $opt"; } # (not --stats in --stats-out)
  nopt=$((${nopt:-0} + 1))
done
[ "${nopt:-0}" -ge 30 ] || { helpok=0; bad "sim/options.def: only ${nopt:-0} options read (its OPT rows' form changed?)"; }
# (every block of the registry under --record-block, with the configuration
# that has it: the list the unknown-block error prints)
blocks=$("$SIM" --record-block nosuch=x 2>&1 | sed -n 's/.*; blocks: //p' | tr -d ,)
for b in $blocks; do grep -Eq "^ {23}  $b +the [a-z -]+ \([^)]+\)$" "$OUT" || { helpok=0; bad "--help does not list block $b"; }; done
[ "$(echo $blocks | wc -w)" -ge 6 ] || { helpok=0; bad "the unknown-block error lists only '$blocks'"; }
[ $helpok = 1 ] && [ $RC -eq 0 ] && ok
# The CSR table of docs/abi.md is generated from cmodel/csr.def, which also
# gives the executor, the disassembler and warpsplit.h their CSRs.
run opt-csr-doc 30 python3 scripts/csr_table.py --check docs/abi.md
if [ $RC -eq 0 ]; then ok; else bad "CSR table: $(head -c 300 "$ERR")"; fi
run opt-version 30 "$SIM" --version
if [ $RC -eq 0 ] && grep -Eq '^wpusim [0-9]+\.[0-9]+\.[0-9]+$' "$OUT"; then ok; else bad "--version: $(cat "$OUT")"; fi
