#!/usr/bin/env bash
# The first-principles bounds can fail: each mutant below models one
# mechanism wrongly (a perl substitution on one file of cmodel/, applied to
# a copy; nothing of it is in the product), wpusim is rebuilt with it, and
# the bound it names (tests/bounds/check.sh) must then fail. Prints one
# line per mutant (the first failing run, or SURVIVED) and exits 1 if any
# mutant survives, does not apply or does not build, 0 otherwise.
#   bash tests/bounds/mutants.sh [BUILD [CHECK]]   (from the repository's top,
#   after make test-deps; ~1 min: the model is compiled once, each mutant's
#   file again; CHECK: only the mutants of that bound; CHECK "applies":
#   build nothing, only say whether every substitution still changes its file)
set -u
cd "$(dirname "$0")/../.."
B=${1:-build}
ONLY=${2:-}
W=$(mktemp -d "${TMPDIR:-/tmp}/bounds-mutants.XXXXXX")
trap 'rm -rf "$W"' EXIT
CC=${CC:-cc}
LIBS=$(make -s --no-print-directory print-WSIM_LIBS) || exit 1
CFLAGS="-std=c11 -O1 -I$B/gen -Icmodel -Isim"
# the model's sources as the Makefile lists them (a glob of our own missed
# cmodel/mem/ when memsys.c was split)
SRCS=$(make -s --no-print-directory print-LIB_SRCS) || exit 1
[ -n "$SRCS" ] || { echo "bound mutants: the Makefile names no sources (make print-LIB_SRCS)"; exit 1; }
obj() { echo "$W/obj/$(echo "$1" | tr / _).o"; }
mkdir -p "$W/obj"
[ "$ONLY" = applies ] || for f in $SRCS sim/wpusim.c "$B/sim/presets.c"; do
  if ! $CC $CFLAGS -c "$f" -o "$(obj "$f")" 2>"$W/cc.err"; then
    echo "the model does not build: $f: $(head -c 300 "$W/cc.err")"; exit 1
  fi
done
rc=0
while IFS='|' read -r name check file expr; do
  case $name in ''|'#'*) continue ;; esac
  [ -z "$ONLY" ] || [ "$ONLY" = "$check" ] || [ "$ONLY" = applies ] || continue
  mkdir -p "$W/m/$(dirname "$file")"
  cp "$file" "$W/m/$file"
  perl -0pi -e "$expr" "$W/m/$file"
  if cmp -s "$file" "$W/m/$file"; then echo "mutant '$name': the substitution no longer applies to $file"; rc=1; continue; fi
  if [ "$ONLY" = applies ]; then echo "mutant '$name': applies to $file"; continue; fi
  objs=""
  for f in $SRCS sim/wpusim.c "$B/sim/presets.c"; do [ "$f" = "$file" ] || objs="$objs $(obj "$f")"; done
  # (with the original's directory on the include path: its quoted includes resolve)
  if ! $CC $CFLAGS -I"$(dirname "$file")" -c "$W/m/$file" -o "$W/mut.o" 2>"$W/cc.err" ||
     ! $CC $objs "$W/mut.o" $LIBS -o "$W/wpusim" 2>>"$W/cc.err"; then
    echo "mutant '$name': does not build: $(head -c 300 "$W/cc.err")"; rc=1; continue
  fi
  out=$(bash tests/bounds/check.sh "$W/wpusim" "$B/simtests" "$check")
  if [ $? -ne 0 ]; then echo "mutant '$name': caught by $(echo "$out" | grep -m 1 '^FAIL' | sed 's/^FAIL //')"
  else echo "mutant '$name': SURVIVED $check"; rc=1; fi
done <<'LIST'
# name | bound that must fail | file | perl substitution (-0: may span lines)
a split gets no scheduler slot of its own (slots = warps, not twice: 001 §5.6)|dws-branch|cmodel/mech/dws.c|s/: 2 \* s->cfg.warps\)/: s->cfg.warps)/
branch splits only on backward branches|dws-branch|cmodel/mech/dws.c|s/\(s->cfg.dws_split_loops \|\| d->target > pc\)/(s->cfg.dws_split_loops || d->target < pc)/
the run-ahead hits wait for the whole access|dws-mem|cmodel/mech/dws.c|s/uint64_t hr = r->hit_ready > (.*?) \? r->hit_ready :/uint64_t hr = r->ready > $1 ? r->ready :/
the two sides' ready times swapped (the hits wait for the misses' data)|dws-mem|cmodel/mech/dws.c|s/group_t \*c = split\(s, u, g, is->pc \+ 4, miss, is->pc \+ 4, hit, hr\);/group_t *c = split(s, u, g, is->pc + 4, miss, is->pc + 4, hit, g->ready_at);\n                g->ready_at = hr;/
latency speculation: split when sum-rMFC + MFC >= MemLat|maws-split|cmodel/blocks/wst.c|s/\(uint64_t\)q->sum_rmfc \+ me->mfc < me->lat/(uint64_t)q->sum_rmfc + me->mfc >= me->lat/
latency speculation ignored: split on every divergent access|maws-hold|cmodel/mech/dws.c|s/want = DW\(u\)->out.latspec;/want = 1;/
the column picker does not pack rows: a sub-warp is the lowest row left|lwm|cmodel/blocks/colpick.c|s/(int cnt = 0;\n)/$1    int r0 = 0;\n    while (r0 < K - 1) { int any = 0; for (int c = 0; c < N; c++) any |= wmask_test(&cand, r0 * N + c); if (any) break; r0++; }\n/; s/for \(int r = 0; r < K; r\+\+\) \{\n            if \(!wmask_test\(&cand, r \* N \+ c\)\) continue;/for (int r = r0; r <= r0; r++) {\n            if (!wmask_test(&cand, r * N + c)) continue;/
the column picker takes every thread of a column|lwm|cmodel/blocks/colpick.c|s/cnt\+\+;\n            break;/cnt++;/
a miss is not a long-latency stall for the fetch arbiter|2lev|cmodel/mech/twolev.c|s/\(g->wait == WAIT_FETCH \|\| \(g->wait == WAIT_MEM && g->missed\)\)/g->wait == WAIT_FETCH/
the priority never leaves a fetch group whose warps all stall|2lev|cmodel/blocks/fetcharb.c|s/out->nprio = \(uint8_t\)g;/out->nprio = q->prio;/
LIST
exit $rc
