#!/usr/bin/env bash
# Diverge on miss's --check invariants can fail (docs/dom.md, "--check"):
# each mutant below changes one rule of cmodel/mech/dom.c (a sed
# expression); wpusim is relinked with it (the 256-lane C model, --core 256)
# and must stop on the hand-worked program named, with exit 3 and the
# invariant's message. A row with a watchdog (its last field) runs without
# --check and must be stopped by the watchdog instead (a real loss, where a
# long legal wait must not be: tests/sim/dom_wait.S). Prints one line per
# mutant and exits 1 if one survives, does not apply or fails otherwise.
#   bash tests/dom_mutants.sh [BUILD]    (from the repository's top; ~30 s)
set -u
cd "$(dirname "$0")/.."
B=${1:-build}
W=$(mktemp -d "${TMPDIR:-/tmp}/dom-mutants.XXXXXX")
trap 'rm -rf "$W"' EXIT
CC=${CC:-cc}
LIBS=$(make -s --no-print-directory print-WSIM_LIBS) || exit 1
# the model's objects as the Makefile lists them (a glob of our own once
# missed a new folder: tests/bounds/mutants.sh), but the mutated one
objs=$(make -s --no-print-directory BUILD="$B" print-LIB_OBJS | tr ' ' '\n' | grep -v '/mech/dom\.o$')
[ -n "$objs" ] || { echo "dom mutants: the Makefile names no objects (make print-LIB_OBJS)"; exit 1; }
rc=0
while IFS='|' read -r name prog arg want expr watchdog; do
  case $name in ''|'#'*) continue ;; esac
  cp cmodel/mech/dom.c "$W/dom.c"
  sed -i "$expr" "$W/dom.c"
  if cmp -s cmodel/mech/dom.c "$W/dom.c"; then echo "mutant '$name': the sed expression no longer applies"; rc=1; continue; fi
  if ! $CC -std=c11 -O1 -w -I"$B/gen" -Icmodel -c "$W/dom.c" -o "$W/dom.o" 2>"$W/cc.err" \
     || ! $CC "$B/sim/wpusim.o" "$B/sim/presets.o" "$B/core64.o" "$W/dom.o" $objs $LIBS -o "$W/wpusim" 2>>"$W/cc.err"; then
    echo "mutant '$name': does not build: $(head -c 300 "$W/cc.err")"; rc=1; continue
  fi
  if [ -n "$watchdog" ]; then how="watchdog at cycle [0-9]*"; opt="--set watchdog=$watchdog"
  else how="--check failed at cycle [0-9]*"; opt=--check; fi
  timeout 60 "$W/wpusim" --core 256 --config dom --policy DoM.NoLimit --set wpus=1 --set warps=1 --threads 8 \
    --arg "$arg" $opt --quiet "$B/simtests/$prog.elf" >/dev/null 2>"$W/err"
  got=$?
  if [ $got -eq 3 ] && grep -q -- "$how: .*$want" "$W/err"; then
    echo "mutant '$name': caught: $(grep -m 1 -o -- "$how" "$W/err") ($want)"
  else
    echo "mutant '$name': SURVIVED or failed otherwise ($prog --arg $arg: exit $got, want 3 and '$want'): $(head -c 300 "$W/err")"
    rc=1
  fi
done <<'LIST'
# name | program | --arg | the message that must name it | sed expression on dom.c [| watchdog: no --check]
the table not told: a masked thread lost|dom_slip|400|a thread lost, duplicated or exited but still held|s/op(d, code, idx, wait, wmask_andnot(d->out.hit_rdy, back));/op(d, code, idx, wmask_none(), wmask_andnot(d->out.hit_rdy, back));/
masked threads stay in the running entry|dom_slip|400|it is in the stack entry of its level or above|s/top->mask = wmask_andnot(top->mask, wait);/(void)0;/
entries at another PC than the load/store's|dom_slip|400|masked at pc 0x[0-9a-f]* with instret|s/look(d, k, is->pc);\n    access/look(d, k, is->pc + 4);\n    access/;s/    look(d, k, is->pc);$/    look(d, k, is->pc + 4);/
re-activation of waiting threads too (before the fill)|dom_slip|1|re-activated to resume at pc 0x[0-9a-f]* at cycle [0-9]*, instret [0-9]*: before its value is back|s/const wmask_t rdy = d->out.hit ? wmask_and(d->out.hit_rdy, near)/const wmask_t rdy = d->out.hit ? wmask_and(wmask_or(d->out.hit_rdy, d->out.hit_wait), near)/
forced back onto their own load (executed twice)|dom_slip|1|forced back to resume at .*: not right after its own load/store|s/const uint32_t after = q->e\[e\].pc + 4;/const uint32_t after = q->e[e].pc;/
forced back without waiting for their values|dom_slip|1|forced back to resume at .*: before its value is back|s/if (ready > g->ready_at) {/if (0) {/
re-join behind a path still to run|dom_rejoin|400|also in the other path below|s/while (j > 1 \&\& !rs->e\[j - 2\].callsite \&\& rs->e\[j - 2\].pc == rs->e\[j - 1\].rpc) j--;/while (j > 1 \&\& !rs->e[j - 2].callsite) j--;/
masked threads left behind when their level ends|dom_wait|2000|its level is gone|s/    if (d->hi\[k\] > w->rs.depth) {/    if (0 \&\& d->hi[k] > w->rs.depth) {/
... and the watchdog names them (no --check)|dom_wait|2000|threads 000000f0 were masked off .* cannot come back: their level 2 (re-converging at 0xffffffff) ended without them: the stack is 1 deep|s/    if (d->hi\[k\] > w->rs.depth) {/    if (0 \&\& d->hi[k] > w->rs.depth) {/|1000
LIST
exit $rc
