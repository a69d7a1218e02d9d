# ---------------------------------------------------------------- dynamic warp subdivision
# The warp-split table's C model against hand-worked values; the blocks'
# hand-worked traces; each mechanism's split and merge counts. (Every kernel
# under every named policy with --check, against Conv: the matrix group.)
# cost: 60
group dws
run wst-unit 60 "$B/tests/test_wst"
if [ $RC -eq 0 ]; then ok; else bad "test_wst: $(grep FAIL "$OUT" | head -n 5)"; fi
# The blocks' hand-worked tests as data (tests/blocks/<block>/NAME.in with
# NAME.expect) on their C models; tests/rtl.sh runs the same files on the RTL.
# A test wider than wpusim's masks (its '# c-refused: REGEX' line: the column
# picker's 512 threads, which only the testbench's wider C model holds) is
# refused here with that message (exit 2).
for f in tests/blocks/*/*.in; do
  n=$(basename "$(dirname "$f")")-$(basename "$f" .in)
  want=$(sed -n 's/^# c-refused: //p' "$f")
  run "blocks-$n" 30 "$B/tests/replay_block" "$f" "${f%.in}.expect"
  if [ -n "$want" ]; then
    if [ $RC -eq 2 ] && grep -Eq "$want" "$ERR"; then ok; else bad "$f on the C model: not refused with '$want': exit $RC: $(head -c 400 "$ERR")"; fi
  elif [ $RC -eq 0 ] && grep -q "all match" "$OUT"; then ok; else bad "$f on the C model: exit $RC: $(head -c 400 "$ERR")"; fi
done
# ... and they fail when a value is wrong, naming the port (an output, a
# registered read port) or the malformed field.
W=tests/blocks/wst/basic
awk '/^c=17 u=0 \|/ { sub(/latspec=1/, "latspec=0") } { print }' $W.expect > "$T/wst-bad1.expect"
run blocks-bad1 30 "$B/tests/replay_block" $W.in "$T/wst-bad1.expect"
if [ $RC -eq 1 ] && grep -q "wst-bad1.expect:[0-9]*: c=17 u=0: port latspec_o" "$ERR"; then ok
else bad "a wrong expected output was not named: exit $RC: $(head -c 300 "$ERR")"; fi
sed 's/ent_icnt\[0\]=7 /ent_icnt[0]=6 /' $W.expect > "$T/wst-bad2.expect"
run blocks-bad2 30 "$B/tests/replay_block" $W.in "$T/wst-bad2.expect"
if [ $RC -eq 1 ] && grep -q "port ent_icnt_o (entry 0)" "$ERR" && grep -q "expected 6" "$ERR"; then ok
else bad "a wrong registered read port was not named: exit $RC: $(head -c 300 "$ERR")"; fi
sed '/^c=05 /s/ lag_vec=[0-9a-f]*//' $W.expect > "$T/wst-bad3.expect"
run blocks-bad3 30 "$B/tests/replay_block" $W.in "$T/wst-bad3.expect"
if [ $RC -eq 2 ] && grep -q "wst-bad3.expect:[0-9]*: missing field 'lag_vec'" "$ERR"; then ok
else bad "a line without lag_vec was not rejected: exit $RC: $(head -c 300 "$ERR")"; fi
# What else comes from the port tables (cmodel/blocks/<block>.def) is up to date:
# the port table of the doc page and the GTKWave layout.
run blocks-doc 30 python3 scripts/blockports.py doc wst --check
if [ $RC -eq 0 ]; then ok; else bad "$(cat "$OUT" "$ERR")"; fi
run blocks-doc-asc 30 python3 scripts/blockports.py doc asc --check
if [ $RC -eq 0 ]; then ok; else bad "$(cat "$OUT" "$ERR")"; fi
# The ASC refuses bad parameters naming them (exit 2), and every
# single-rule mutant of asc.c fails its traces (~40 s; once only with
# WSIM_TEST_LONG=1, where a link flag it lacked went unseen for a wave).
sed '2s/max0=2/max0=0/' tests/blocks/asc/rules.in > "$T/asc-bad.in"
run blocks-asc-param 30 "$B/tests/replay_block" "$T/asc-bad.in"
if [ $RC -eq 2 ] && grep -q "max0 must be 1..2^cnt_bits-1" "$ERR"; then ok
else bad "an ASC with max0=0 was not refused: exit $RC: $(head -c 300 "$ERR")"; fi
run blocks-asc-mutants 300 bash tests/blocks/asc/mutants.sh
if [ $RC -eq 0 ] && grep -q caught "$OUT"; then ok; else bad "ASC mutants: $(grep -v caught "$OUT" | head -n 5) $(head -c 300 "$ERR")"; fi
# Any number of units replays, each from reset: adapt's 18 clocks as 1,100
# units (more than replay_block's former table of 1,024, which skipped the
# rest as "all match"); one changed output in unit 1,100 is found, and
# unit 0x44b's replay is unaffected (each unit starts from reset).
for f in in expect; do
  awk '/^#/ { print; next } { body = body $0 "\n" }
       END { for (u = 0; u < 1100; u++) { b = body; gsub(/ u=0 /, sprintf(" u=%x ", u), b); printf "%s", b } }' \
      tests/blocks/asc/adapt.$f > "$T/units.$f"
done
sed '/^c=05 u=44b /s/ dir=2/ dir=1/' "$T/units.expect" > "$T/units-bad.expect" # (c=05: dir=2 in adapt.expect)
run blocks-units 60 "$B/tests/replay_block" "$T/units.in" "$T/units.expect"
if [ $RC -eq 0 ] && grep -q "^replay_block: 19800 clocks of 1100 unit(s) from .*, 19800 with outputs checked: all match$" "$OUT"; then ok
else bad "1,100 units of asc/adapt: exit $RC: $(cat "$OUT") $(head -c 300 "$ERR")"; fi
run blocks-units-bad 60 "$B/tests/replay_block" "$T/units.in" "$T/units-bad.expect"
bl=$(grep -n '^c=05 u=44b ' "$T/units-bad.expect" | cut -d: -f1)
if [ $RC -eq 1 ] && grep -q "^replay_block: $T/units-bad.expect:$bl: c=5 u=44b: port dir_o$" "$ERR"; then ok
else bad "a changed output in unit 1,100 of 1,100: want exit 1 naming its line; got $RC: $(cat "$OUT") $(head -c 300 "$ERR")"; fi
# A trace is read with the loader's care: a FIFO (its open used to wait
# forever), a device or a directory is refused at once, naming what it is.
mkdir -p "$T/tr-dir"; mkfifo "$T/tr-fifo"
for c in "$T/tr-dir:a directory" "$T/tr-fifo:a pipe or FIFO" "/dev/zero:a device"; do
  run blocks-notfile 10 "$B/tests/replay_block" "${c%%:*}"
  if [ $RC -eq 2 ] && grep -q "^replay_block: ${c%%:*}: not a regular file (${c#*:}); a port trace is a text file$" "$ERR"; then ok
  else bad "replay_block ${c%%:*}: want exit 2 at once naming ${c#*:}; got $RC: $(head -c 300 "$ERR")"; fi
done
rm -rf "$T/tr-dir" "$T/tr-fifo"
run blocks-doc-colpick 30 python3 scripts/blockports.py doc colpick --check
if [ $RC -eq 0 ]; then ok; else bad "$(cat "$OUT" "$ERR")"; fi
mkdir -p "$T/dws"
# (every kernel under every policy with --check: the matrix group)
# Each mechanism does what its policy says (on kernels that diverge).
dws_stat() { # dws_stat POLICY KERNEL KEY: the total of KEY on the dws preset
  run "dws-$1-$2" 120 "$SIM" --policy "$1" --stats json "$B/kernels/$2.elf"
  json_total "$OUT" "$3"
}
for pk in "DWS.BranchOnly.Stack nqueens" "DWS.BranchOnly.PC nqueens"; do set -- $pk
  sb=$(dws_stat $1 $2 splits_branch); sm=$(dws_stat $1 $2 splits_mem); mp=$(dws_stat $1 $2 merges_pc)
  if [ "${sb:-0}" -gt 0 ] && [ "$sm" = 0 ] && { [ $1 = DWS.BranchOnly.PC ] || [ "$mp" = 0 ]; }; then ok
  else bad "$1 on $2: splits_branch $sb (want > 0), splits_mem $sm (want 0), merges_pc $mp"; fi
done
for pol in DWS.ReviveSplit.MemOnly DWS.AggressSplit.BL MAWS.LatSpec; do
  sb=$(dws_stat $pol kmeans splits_branch); sm=$(dws_stat $pol kmeans splits_mem)
  if [ "$sb" = 0 ] && [ "${sm:-0}" -gt 0 ]; then ok; else bad "$pol on kmeans: splits_branch $sb (want 0), splits_mem $sm (want > 0)"; fi
done
sr=$(dws_stat DWS.ReviveSplit kmeans splits_revive)
if [ "${sr:-0}" -gt 0 ]; then ok; else bad "DWS.ReviveSplit on kmeans: no revive splits"; fi
sy=$(dws_stat DWS.AggressSplit.BL kmeans merges_sync)
if [ "${sy:-0}" -gt 0 ]; then ok; else bad "DWS.AggressSplit.BL on kmeans: no merges at re-convergence points"; fi
# Hand-checked counts on one 16-lane warp splitting on every divergent branch:
# early_return: one split at the branch, the side that returns first re-joins
# through the call site (a stack merge), the other folds back into the warp.
for case in "early_return 1 1 0" "recursion 2 2 0" "diamond 1 0 0"; do set -- $case
  run "dws-$1" 30 "$SIM" --policy DWS.BranchOnly.Stack --set dws_branch=all --threads 16 --set wpus=1 --set warps=1 \
      --stats json --check "$B/cfg/$1.elf"
  got="$(json_total "$OUT" splits_branch) $(json_total "$OUT" merges_stack) $(json_total "$OUT" merges_pc)"
  if [ $RC -eq 0 ] && [ "$got" = "$2 $3 $4" ]; then ok
  else bad "$1 under DWS.BranchOnly.Stack: exit $RC, splits/stack merges/pc merges $got, expected $2 $3 $4"; fi
done
# Loop bypassing past a rotated loop's forward exit test (tests/sim/loop_bypass.S
# derives the counts): splits on loads / merges at a wait / waits.
for case in "1 1 1 1" "0 10 10 10"; do set -- $case
  run "dws-loop-bypass-$1" 30 "$SIM" --config maws-bulksync --policy MAWS.Aggress --set dws_loop_bypass=$1 \
      --set wpus=1 --set warps=1 --threads 8 --stats json --check "$B/simtests/loop_bypass.elf"
  got="$(json_total "$OUT" splits_mem) $(json_total "$OUT" merges_sync) $(json_total "$OUT" sync_waits)"
  if [ $RC -eq 0 ] && [ "$got" = "$2 $3 $4" ]; then ok
  else bad "loop_bypass under MAWS.Aggress, dws_loop_bypass=$1: exit $RC, splits_mem/merges_sync/sync_waits $got, expected $2 $3 $4"; fi
done
# The same program under Conv: exit_br issues 10 times (a loop branch), post_br
# once (non-loop); neither diverges.
run "dws-loop-bypass-conv" 30 "$SIM" --config maws-bulksync --set wpus=1 --set warps=1 --threads 8 --stats json \
    "$B/simtests/loop_bypass.elf"
got="$(json_total "$OUT" branches) $(json_total "$OUT" nonloop_branches) $(json_total "$OUT" div_branches)"
if [ $RC -eq 0 ] && [ "$got" = "11 1 0" ]; then ok
else bad "loop_bypass under Conv: exit $RC, branches/non-loop/divergent $got, expected 11 1 0"; fi
# The table and its scheduler with nothing to split on: cycle for cycle Conv.
for k in kmeans nqueens; do
  run dws-nosplit 60 "$SIM" --policy DWS.ReviveSplit --set dws_mem=none --set dws_branch=none --stats json "$B/kernels/$k.elf"
  a=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT")
  run dws-conv 60 "$SIM" --policy Conv --stats json "$B/kernels/$k.elf"
  b=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$OUT")
  if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "$k: dws on without split causes takes $a cycles, Conv $b"; fi
done
# A table with one entry per warp cannot split while every warp is resident.
full_w=$(dws_stat DWS.AggressSplit kmeans wst_full)
run dws-full 60 "$SIM" --policy DWS.AggressSplit --set dws_entries=4 --stats json "$B/kernels/kmeans.elf"
if [ "$(json_total "$OUT" wst_full)" -gt "${full_w:-0}" ]; then ok
else bad "4-entry table for 4 warps: wst_full $(json_total "$OUT" wst_full), 16 entries: $full_w"; fi
# Determinism and stepping == skipping under DWS.
run dws-det1 60 "$SIM" --policy MAWS.LatSpec --config maws-coherent --stats json "$B/kernels/merge.elf"; cp "$OUT" "$T/dws/det1"
run dws-det2 60 "$SIM" --policy MAWS.LatSpec --config maws-coherent --stats json "$B/kernels/merge.elf"
if cmp -s "$OUT" "$T/dws/det1"; then ok; else bad "two identical MAWS.LatSpec runs differ"; fi
run dws-step 120 "$SIM" --policy MAWS.LatSpec --config maws-coherent --set skip_idle=0 --stats json "$B/kernels/merge.elf"
if diff <(grep -v skip_idle "$OUT") <(grep -v skip_idle "$T/dws/det1") >/dev/null; then ok
else bad "MAWS.LatSpec: stepping every cycle and skipping idle cycles differ"; fi
# A run in budgets (--progress: wsim_run_until, starting at 4096 cycles and
# growing) is the same run, cycle for cycle, with idle skips cut at the
# budget's end; its last line names the cycles the statistics report.
run dws-budget 120 "$SIM" --progress --policy MAWS.LatSpec --config maws-coherent --stats json "$B/kernels/merge.elf"
cyc=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$T/dws/det1")
if cmp -s "$OUT" "$T/dws/det1" && grep -Eq "^wpusim: ran $cyc cycles, [0-9]+ thread-insts in [0-9.]+ s" "$ERR" \
   && [ "${cyc:-0}" -gt 8192 ]; then ok
else bad "MAWS.LatSpec run in budgets (--progress) differs from one run, or no last line: $(head -c 300 "$ERR")"; fi
run dws-no-progress 60 "$SIM" --progress --no-progress --quiet "$B/kernels/mandel.elf"
if [ $RC -eq 0 ] && [ ! -s "$ERR" ]; then ok; else bad "--no-progress still printed: $(head -c 200 "$ERR")"; fi
# The recorded port trace: a header and one line per operation.
run dws-record 60 "$SIM" --quiet --policy DWS.ReviveSplit --record-block wst="$T/dws/wst.trace" "$B/kernels/filter.elf"
if [ $RC -eq 0 ] && head -n 1 "$T/dws/wst.trace" | grep -qx '# warpsplit-port-trace 2 block=wst' \
   && sed -n 2p "$T/dws/wst.trace" | grep -qx '# wst entries=16 width=16 warps=4 pc_bits=32 cnt_bits=16 mfc_bits=16' \
   && sed -n 3p "$T/dws/wst.trace" | grep -Eq '^c=000000000000 u=000 idx=00 elig=0{16} mpc=00000000 op=1 free=0 set=1 warp=000 pc=00010000 mask=ffff st=0 ' \
   && [ "$(grep -c 'spawn=1' "$T/dws/wst.trace")" -gt 0 ]; then ok
else bad "--record-block wst: $(head -n 3 "$T/dws/wst.trace" | cut -c1-200)"; fi
run dws-record-replay 60 "$B/tests/replay_block" "$T/dws/wst.trace"
if [ $RC -eq 0 ] && grep -q "all match" "$OUT"; then ok; else bad "replaying the recorded trace on the C block: exit $RC: $(head -c 300 "$ERR")"; fi
# FILE.gz: the same trace through gzip (and the instruction trace too), read
# back compressed; a truncated .gz is an error, not a shorter trace.
run dws-record-gz 60 "$SIM" --quiet --policy DWS.ReviveSplit --record-block wst="$T/dws/wst.trace.gz" \
    --trace "$T/dws/insn.gz" "$B/kernels/filter.elf"
run dws-record-plain 60 "$SIM" --quiet --policy DWS.ReviveSplit --trace "$T/dws/insn" "$B/kernels/filter.elf"
if [ $RC -eq 0 ] && zcat "$T/dws/wst.trace.gz" | cmp -s - "$T/dws/wst.trace" && zcat "$T/dws/insn.gz" | cmp -s - "$T/dws/insn" \
   && [ "$(stat -c %s "$T/dws/wst.trace.gz")" -lt "$(( $(stat -c %s "$T/dws/wst.trace") / 20 ))" ]; then ok
else bad "--record-block/--trace FILE.gz: not the plain traces, compressed 20x: exit $RC: $(head -c 300 "$ERR")"; fi
run dws-record-gz-replay 60 "$B/tests/replay_block" "$T/dws/wst.trace.gz"
if [ $RC -eq 0 ] && grep -q "all match" "$OUT"; then ok; else bad "replaying a .gz trace: exit $RC: $(head -c 300 "$ERR")"; fi
head -c 20000 "$T/dws/wst.trace.gz" > "$T/dws/cut.trace.gz"
run dws-record-gz-cut 60 "$B/tests/replay_block" "$T/dws/cut.trace.gz"
if [ $RC -eq 2 ] && grep -q "cut.trace.gz" "$ERR"; then ok; else bad "a truncated .gz trace: exit $RC: $(head -c 300 "$ERR")"; fi
# Large warps of one row (lwm_size = lanes) are the baseline: every
# instruction one sub-warp of the whole warp, the re-fetch when it completes,
# a refused access set aside and retried. With round-robin fetch (the LWM's)
# the run is Conv's cycle for cycle, memory hierarchy included: the same
# statistics but for where a refused access counts (LWM: an issue cycle, the
# instruction was fetched; Conv: a memory wait, and its fetch again: the L1 I
# accesses) and the live-group counts. (LWM's own section goes, in the whole
# run and in the region of interest, which merge marks.)
for k in mandel merge; do
  run "lwm-one-row-$k-conv" 60 "$SIM" --stats json --set switch_on=cycle --set pipeline_depth=5 "$B/kernels/$k.elf"
  sed -e '/^  "config": {$/,/^  },$/d' "$OUT" | grep -Ev '"(cycles_issue|cycles_memwait|groups_sum|groups_max|l1i)"' > "$T/dws/$k.conv.json"
  run "lwm-one-row-$k" 60 "$SIM" --stats json --set switch_on=cycle --set pipeline_depth=5 --policy LWM --set lwm_size=16 \
      "$B/kernels/$k.elf"
  sed -e '/^  "config": {$/,/^  },$/d' -e '/^  "lwm": {$/,/^  },$/d' -e '/^    "lwm": {$/,/^    },\{0,1\}$/d' "$OUT" \
    | grep -Ev '"(cycles_issue|cycles_memwait|groups_sum|groups_max|l1i)"' > "$T/dws/$k.lwm.json"
  if [ $RC -eq 0 ] && grep -q '"cycles"' "$T/dws/$k.lwm.json" && cmp -s "$T/dws/$k.conv.json" "$T/dws/$k.lwm.json"; then ok
  else bad "$k: one-row large warps differ from Conv: exit $RC, $(diff "$T/dws/$k.conv.json" "$T/dws/$k.lwm.json" | head -n 6)"; fi
done
# The column picker's port traffic from a whole LWM run replays on its C
# block; the first sub-warp's clock loads all 256 threads of large warp 0.
run lwm-record 60 "$SIM" --quiet --config lwm --policy LWM --record-block colpick="$T/dws/colpick.trace" "$B/kernels/mandel.elf"
if [ $RC -eq 0 ] && sed -n 2p "$T/dws/colpick.trace" | grep -qx '# colpick rows=8 cols=32' \
   && sed -n 3p "$T/dws/colpick.trace" | grep -Eq '^c=[0-9a-f]{12} u=000 load=1 mask=f{64} one=0 dep=0{64} take=1 drop=0 \| valid=ffffffff row=0{24} pick=0{56}f{8} cnt=20 stall=1$'; then ok
else bad "--record-block colpick: exit $RC: $(head -n 3 "$T/dws/colpick.trace" | cut -c1-200) $(head -c 300 "$ERR")"; fi
run lwm-record-replay 60 "$B/tests/replay_block" "$T/dws/colpick.trace"
if [ $RC -eq 0 ] && grep -q "all match" "$OUT"; then ok; else bad "replaying the recorded colpick trace: exit $RC: $(head -c 300 "$ERR")"; fi
run lwm-record-off 30 "$SIM" --quiet --record-block colpick="$T/dws/x.trace" "$B/kernels/mandel.elf"
if [ $RC -eq 2 ] && grep -q "there is no column picker with lwm = off" "$ERR"; then ok; else bad "--record-block colpick without lwm: exit $RC: $(cat "$ERR")"; fi
# Bad input: clear errors.
run dws-bad1 30 "$SIM" --policy DWS.Nope "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "no such policy or file; policies: 2Lev.Timeout 2Lev Conv DWS.AggressSplit" "$ERR"; then ok; else bad "unknown policy: $RC $(cat "$ERR")"; fi
run dws-bad2 30 "$SIM" --config lwm --policy DWS.ReviveSplit "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "dws_entries: 16 warp-split table entries for 32 warps" "$ERR"; then ok; else bad "small table: $RC $(cat "$ERR")"; fi
run dws-bad3 30 "$SIM" --set scheduler=swf "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "scheduler: swf .* it needs dws = on" "$ERR"; then ok; else bad "swf without dws: $RC $(cat "$ERR")"; fi
run dws-bad4 30 "$SIM" --record-block wst="$T/x" "$B/kernels/filter.elf"
if [ $RC -eq 2 ] && grep -q "no warp-split table with dws = off" "$ERR"; then ok; else bad "record without dws: $RC $(cat "$ERR")"; fi
# --check can fail: a thread dropped from a group (test hook) is reported.
for pol in Conv DWS.ReviveSplit LWM; do
  WSIM_CHECK_INJECT=500 run "dws-inject-$pol" 30 "$SIM" --policy $pol --check --quiet "$B/kernels/filter.elf"
  if [ $RC -eq 3 ] && grep -Eq "^wpusim: --check failed at cycle [0-9]+: WPU 0 warp 0.*(groups and stack hold lanes|does not mirror)" "$ERR"; then ok
  else bad "$pol: --check did not report a lost thread: exit $RC: $(head -c 300 "$ERR")"; fi
done
run dws-inert 30 "$SIM" --quiet --set dws_mem=revive "$B/kernels/filter.elf"
if [ $RC -eq 0 ] && grep -q "warning: --set dws_mem has no effect with dws = off; choose a policy" "$ERR"; then ok
else bad "dws key without dws: exit $RC: $(cat "$ERR")"; fi
# The watchdog names the stuck warp and its groups (provoked: 2000-cycle memory, 500-cycle watchdog).
run dws-watchdog 30 "$SIM" --policy DWS.ReviveSplit --set memory=fixed --set mem_latency=2000 --set watchdog=500 "$B/kernels/filter.elf"
if [ $RC -eq 3 ] && grep -q "^wpusim: watchdog at cycle [0-9]*: WPU 0 warp 0 (threads 0..) has issued nothing since cycle" "$ERR" \
   && grep -q "group 0 (root): pc 0x[0-9a-f]* (.*) lanes ffff, waits for memory" "$ERR"; then ok
else bad "watchdog: want exit 3 and a report; got $RC: $(head -c 400 "$ERR")"; fi
# A warp looping without loads or stores keeps the pipeline (switch on cache
# access): the watchdog names the warp that starves the other, not a bug.
run watchdog-starved 30 "$SIM" --threads 8 --set wpus=1 --set warps=2 --set width=4 --set watchdog=2000 "$B/cfg/endless.elf"
if [ $RC -eq 3 ] && grep -q "^wpusim: watchdog at cycle [0-9]*: WPU 0 warp 1 (threads 4..) has issued nothing since cycle 0" "$ERR" \
   && grep -q "^  starved: warp 0 (threads 0..) keeps the pipeline, issuing without a cache access (switch_on = access" "$ERR" \
   && ! grep -q "simulator bug" "$ERR"; then ok
else bad "a spinning warp starving another: want exit 3 and a starvation report; got $RC: $(head -c 400 "$ERR")"; fi
