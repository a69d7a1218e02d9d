# ---------------------------------------------------------------- options
group options
K=$B/kernels/mandel.elf
expect_usage() { # NAME MESSAGE(regex) ARGS...
  local name=$1 msg=$2; shift 2
  run "opt-$name" 30 "$SIM" "$@"
  if [ $RC -eq 2 ] && grep -Eq -- "$msg" "$ERR"; then ok
  else bad "$name: want exit 2 and '$msg'; got $RC: $(cat "$ERR")"; fi
}
expect_usage unknown-option "^wpusim: unknown option '--bogus'; valid options: --config, --policy, --set, " --bogus "$GOOD"
expect_usage unknown-key "^wpusim: unknown configuration key 'nope'; valid keys: wpus, warps, warp_size, lanes, threads, " --set nope=1 "$GOOD"
expect_usage not-int "^wpusim: width: 'abc' is not an integer \(allowed 1\.\.256\)$" --set width=abc "$GOOD"
expect_usage range "^wpusim: width: 0 is out of range \(allowed 1\.\.256\)$" --set width=0 "$GOOD"
expect_usage negative "^wpusim: threads: '-4' is not a non-negative integer" --threads -4 "$GOOD"
expect_usage task-negative "^wpusim: task: '-1' is not a non-negative integer \(allowed 0\.\.4294967295\)$" --task -1 "$GOOD"
expect_usage enum "^wpusim: scheduler: 'fifo' is not one of: rr|swf$" --set scheduler=fifo "$GOOD"
expect_usage not-kv "^wpusim: 'width' is not key=value$" --set width "$GOOD"
expect_usage colour-width "^wpusim: stack_color: 512 must be a multiple of 16 with 31 x stack_color below half of stack_size \(16384\): lower stack_color or raise stack_size$" --set width=64 --set stack_color=512 "$GOOD"
expect_usage stack-align "^wpusim: stack_size: 1000 is not a multiple of 16$" --set stack_size=1000 "$GOOD"
expect_usage stacks-fit "^wpusim: threads x stack_size = 1000000 x 16384 bytes does not fit below stack_top 0xc0000000; lower threads or stack_size$" --threads 1000000 "$GOOD"
expect_usage stacks-overlap "^wpusim: $GOOD: thread stacks 0x00010000-0x0001ffff overlap loadable segment 0 at 0x00010000; lower threads or stack_size, or move stack_top$" --set stack_top=0x20000 --threads 1 --set stack_size=65536 "$GOOD"
expect_usage sets-pow2 "^wpusim: l1d_size / \(l1d_ways x l1d_line\) = 49152 / \(8 x 128\) must be a whole power-of-two number of sets$" --set l1d_size=49152 "$GOOD"
expect_usage line-pow2 "^wpusim: l2_line: 96 is not a power of two$" --set l2_line=96 "$GOOD"
expect_usage banks "^wpusim: l1d_banks: 32 banks for 16 lanes; allowed 0 \(one per lane\) \.\. lanes$" --set l1d_banks=32 "$GOOD"
expect_usage zero-mshrs "^wpusim: l1d_mshrs: 0 is out of range \(allowed 1\.\.4096\)$" --set l1d_mshrs=0 "$GOOD"
expect_usage l2-line "^wpusim: l2_line: 64 is smaller than l1d_line 128; the inclusive L2 needs l2_line >= l1d_line$" --set l2_line=64 "$GOOD"
expect_usage directory "^wpusim: wpus: 65 WPUs; the coherent directory tracks at most 64 \(use memory = bulksync or private\)$" --set wpus=65 "$GOOD"
expect_usage private-l2 "^wpusim: l2_private: private L2s need memory = bulksync" --set l2_private=1 "$GOOD"
expect_usage rows "^wpusim: dram_row_conflict: 50 is below dram_row_hit 100$" --set dram_banks=8 --set dram_row_conflict=50 "$GOOD"
expect_usage preset "^wpusim: --config nope: no such preset or file; presets: dom-l2 dom dws lwm maws-bulksync maws-coherent vector$" --config nope "$GOOD"
expect_usage stats-format "^wpusim: --stats: 'xml' is not one of: text, json, none$" --stats xml "$GOOD"
expect_usage no-value "^wpusim: option --seed needs a value" --seed
expect_usage no-program "^wpusim: no program given" --quiet
expect_usage two-programs "^wpusim: more than one program given" "$GOOD" "$GOOD"
printf 'width = 8\n# comment\nwarps = 2 # trailing\nbogus = 3\n' >"$T/bad.cfg"
expect_usage config-line "^wpusim: $T/bad.cfg:4: unknown configuration key 'bogus'" --config "$T/bad.cfg" "$GOOD"
# a directory is not an empty configuration; a NUL byte does not end one
mkdir -p "$T/cfgdir"
expect_usage config-dir "^wpusim: $T/cfgdir: not a regular file \(a directory\); a configuration is a text file of key = value lines$" --config "$T/cfgdir" "$GOOD"
expect_usage policy-dir "^wpusim: $T/cfgdir: not a regular file \(a directory\); a configuration is a text file of key = value lines$" --policy "$T/cfgdir" "$GOOD"
# a FIFO (or a device) is refused at once: it used to be waited on forever
mkfifo "$T/cfg.fifo"
for o in --config --policy; do
  run opt-config-fifo 10 "$SIM" $o "$T/cfg.fifo" "$GOOD"
  if [ $RC -eq 2 ] && grep -q "^wpusim: $T/cfg.fifo: not a regular file (a pipe or FIFO); a configuration is a text file of key = value lines$" "$ERR"; then ok
  else bad "$o FIFO: want exit 2 at once, naming it; got $RC: $(head -c 300 "$ERR")"; fi
done
rm -f "$T/cfg.fifo"
printf 'width = 8\n\nwarps = 2\0bogus = 1\n' >"$T/nul.cfg"
expect_usage config-nul "^wpusim: $T/nul.cfg:3: NUL byte; a configuration is text, key = value lines$" --config "$T/nul.cfg" "$GOOD"
run opt-config-zero 30 bash -c 'ulimit -v 1000000 && exec "$@"' _ "$SIM" --config /dev/zero "$GOOD"
if [ $RC -eq 2 ] && grep -q "^wpusim: /dev/zero: not a regular file (a character device); a configuration is a text file of key = value lines$" "$ERR"; then ok
else bad "--config /dev/zero (in 1 GB): want exit 2 naming it; got $RC: $(head -c 300 "$ERR")"; fi
truncate -s 2M "$T/big.cfg"
expect_usage config-big "^wpusim: $T/big.cfg: larger than 1 MiB; a configuration is a text file of key = value lines$" --config "$T/big.cfg" "$GOOD"
rm -f "$T/big.cfg"
printf 'width = 8\n# comment\nwarps = 2 # trailing\n' >"$T/good.cfg"
run opt-config 30 "$SIM" --config "$T/good.cfg" --set warps=3 --print-config
if [ $RC -eq 0 ] && grep -Eq '^warp_size += 8 +#' "$OUT" && grep -Eq '^lanes += 8 +#' "$OUT" \
   && ! grep -Eq '^width ' "$OUT" && grep -Eq '^warps += 3 +#' "$OUT"; then ok
else bad "config file + override: $(cat "$OUT" "$ERR")"; fi
# threads per warp and SIMD lanes are two keys; width sets both; apart they need large warps
expect_usage lwm-512 "^wpusim: lwm_size: 512 threads per large warp; allowed a multiple of lanes up to 256 " --set lwm=on --set lwm_size=512 "$GOOD"
expect_usage lwm-dws "^wpusim: lwm: large warps with dynamic warp subdivision \(dws = on\) are not modelled" --set lwm=on --set dws=on "$GOOD"
expect_usage lwm-lanes "^wpusim: lwm_size: large warps of 24 threads .* must be a multiple of lanes \(16\)" --set lwm=on --set lwm_size=24 "$GOOD"
expect_usage lanes-apart "^wpusim: lanes: 8 SIMD lanes for warps of 16 threads; warps apart from the SIMD width are only 004's large warps \(lwm = on\); otherwise set both, or width$" --set lanes=8 "$GOOD"
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
# outputs are opened before the run: a bad path costs no simulation
expect_usage stats-out-path "^wpusim: --stats-out /nonexistent/s.json: cannot open for writing: No such file or directory$" --stats-out /nonexistent/s.json "$GOOD"
expect_usage dump-path "^wpusim: --dump /nonexistent/d.bin: cannot open for writing: No such file or directory$" --dump /nonexistent/d.bin "$GOOD"
expect_usage dump-none "^wpusim: --dump: $GOOD registers no results \(no WSIM_RESULT records\)$" --dump "$T/none.bin" "$GOOD"
expect_usage quiet-stats-out "^wpusim: --stats-out $T/q.json with no statistics" --quiet --stats-out "$T/q.json" "$GOOD"
# Nothing given is silently dropped or replaced: a second --policy (it sets
# every mechanism key) or the same block recorded twice is refused; two
# outputs on one file, an output on the program, or two traces on stdout
# are refused before anything is written (they used to overwrite each other).
expect_usage policy-twice "^wpusim: --policy given twice \(DWS.ReviveSplit, then DoM.Adaptive\): a policy sets every mechanism key; give one, and change single keys with --set$" \
    --policy DWS.ReviveSplit --policy DoM.Adaptive "$GOOD"
expect_usage record-twice "^wpusim: --record-block mdt given twice \($T/m1, then $T/m2\): one file per block$" \
    --policy DoM.Adaptive --record-block mdt="$T/m1" --record-block mdt="$T/m2" "$GOOD"
echo keep >"$T/same.out"
for o in "--stats-out $T/same.out --dump $T/./same.out" "--stats-out $T/same.out --trace $T/same.out" \
         "--trace $T/same.out --record-block wst=$T/same.out" "--dump $T/new.out --branch-profile $T/../${T##*/}/new.out"; do
  set -- $o
  run opt-same 30 "$SIM" --policy DWS.ReviveSplit $o "$K"
  if [ $RC -eq 2 ] && grep -q "^wpusim: $1 $2 and $3 $4 are the same file: each output needs its own$" "$ERR" \
     && [ "$(cat "$T/same.out")" = keep ] && [ ! -e "$T/new.out" ]; then ok
  else bad "wpusim $o: want exit 2 naming both and nothing written; got $RC: $(head -c 300 "$ERR")"; fi
done
cp "$K" "$T/prog.elf"
expect_usage same-program "^wpusim: --dump $T/prog.elf would overwrite the program $T/prog.elf: write it elsewhere$" --dump "$T/prog.elf" "$T/prog.elf"
cmp -s "$K" "$T/prog.elf" && ok || bad "--dump onto the program changed it"
expect_usage same-stdout "^wpusim: --trace - and --record-block wst=- both write to standard output" \
    --policy DWS.ReviveSplit --trace - --record-block wst=- "$K"
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
for opt in --config --set --threads --seed --arg --task --max-cycles --stats --stats-out --trace --dump --dump-cfg --quiet --version; do
  grep -q -- "^  $opt" "$OUT" || { helpok=0; bad "--help does not document $opt"; }
done
[ $helpok = 1 ] && [ $RC -eq 0 ] && ok
# The CSR table of docs/abi.md is generated from cmodel/csr.def, which also
# gives the executor, the disassembler and warpsplit.h their CSRs.
run opt-csr-doc 30 python3 scripts/csr_table.py --check docs/abi.md
if [ $RC -eq 0 ]; then ok; else bad "CSR table: $(head -c 300 "$ERR")"; fi
run opt-version 30 "$SIM" --version
if [ $RC -eq 0 ] && grep -Eq '^wpusim [0-9]+\.[0-9]+\.[0-9]+$' "$OUT"; then ok; else bad "--version: $(cat "$OUT")"; fi
