#!/usr/bin/env bash
# The ASC's hand-worked traces can fail: each mutant below changes one rule
# or threshold of cmodel/blocks/asc.c or asc.h (a sed expression), the replayer is
# rebuilt with it, and tests/blocks/asc/*.in must then fail at least once.
# Prints one line per mutant (the first trace, clock and port that caught
# it) and exits 1 if any mutant survives or does not apply, 0 otherwise.
#   bash tests/blocks/asc/mutants.sh    (from the repository's top; ~30 s)
set -u
cd "$(dirname "$0")/../../.."
W=$(mktemp -d "${TMPDIR:-/tmp}/asc-mutants.XXXXXX")
trap 'rm -rf "$W"' EXIT
CC=${CC:-cc}
LIBS=$(make -s --no-print-directory print-WSIM_LIBS) || exit 1
rc=0
while IFS='|' read -r name expr; do
  case $name in ''|'#'*) continue ;; esac
  rm -rf "$W/src" && mkdir -p "$W/src" && cp -r cmodel "$W/src/"
  sed -i "$expr" "$W/src/cmodel/blocks/asc.c" "$W/src/cmodel/blocks/asc.h"
  if cmp -s cmodel/blocks/asc.c "$W/src/cmodel/blocks/asc.c" && cmp -s cmodel/blocks/asc.h "$W/src/cmodel/blocks/asc.h"; then
    echo "mutant '$name': the sed expression no longer applies"; rc=1; continue
  fi
  if ! $CC -std=c11 -O1 -I"$W/src/cmodel" -o "$W/rb" tests/unit/replay_block.c "$W"/src/cmodel/blocks/*.c $LIBS 2>"$W/cc.err"; then
    echo "mutant '$name': does not build: $(head -c 200 "$W/cc.err")"; rc=1; continue
  fi
  caught=""
  for f in tests/blocks/asc/*.in; do
    if ! "$W/rb" "$f" "${f%.in}.expect" >/dev/null 2>"$W/err"; then
      caught="$(basename "$f" .in) $(grep -o 'c=[0-9a-f]* u=[0-9a-f]*: port [a-z_]*' "$W/err" | head -n 1)"
      break
    fi
  done
  if [ -n "$caught" ]; then echo "mutant '$name': caught by $caught"
  else echo "mutant '$name': SURVIVED"; rc=1; fi
done <<'LIST'
# name | sed expression on asc.c and asc.h
tail over all threads, not act|s/if (wmask_test(\&act, t) \&\& c\[t\] == 0)/if (c[t] == 0)/
hit not masked by act|s/const wmask_t hit = wmask_and(in->hit, act);/const wmask_t hit = in->hit;/
tail caught up: hits up, not misses down|s/else if (!wmask_any(\&tail_missed)) down = miss;/else if (!wmask_any(\&tail_missed)) up = hit;/
diverged, tail not caught up: hits up (the earlier rule)|s/else if (!wmask_any(\&tail_missed)) down = miss;/else if (!wmask_any(\&tail_missed)) down = miss; else up = hit;/
dvg_i ignored: every divergent event counts the hits up unless the tail hit|s/if (!in->dvg) up = hit;/if (0) up = hit;/
no catch-up of limited threads|s/down = lim;/(void)0;/
catch-up on blocked misses too|s/} else if (wmask_any(\&hit) \&\& !wmask_any(\&miss) \&\& wmask_any(\&lim)) {/} else if (wmask_any(\&hit) \&\& wmask_any(\&lim)) {/
div_i ignored|s/if (in->div \&\& wmask_any/if (wmask_any/
limit_o not 0 when all limited|s/out->limit = wmask_eq(\&lim, \&act) ? wmask_none() : lim;/out->limit = lim;/
limit bits against the new max|s/if (c\[t\] >= q->max_slip) wmask_set/if (c[t] >= max_d) wmask_set/
limit bits strictly above the max|s/if (c\[t\] >= q->max_slip) wmask_set/if (c[t] > q->max_slip) wmask_set/
counters do not saturate|s/if (wmask_test(\&up, t) \&\& c\[t\] < a->cnt_max) c\[t\]++;/if (wmask_test(\&up, t)) c[t]++;/
block_o from counters|s/out->block = wmask_any(\&lim);/out->block = wmask_any(\&lim) \&\& !wmask_eq(\&lim, \&act);/
clr_i ignored|s/if (in->clr) {/if (0) {/
clr_i does not stop mem_i|s/} else if (in->mem) {/}\n    if (in->mem) {/
counter read loses the straddling bits|s/if (s + cnt_bits > 64) v |= cnt->w\[w + 1\] << (64 - s);//
pack loses the straddling bits|s/if (s + b > 64) m.w\[w + 1\] |= (uint64_t)c\[t\] >> (64 - s);//
alu: > instead of >=|s/out->alu = 4 \* busy >= 3 \* cyc;/out->alu = 4 * busy > 3 * cyc;/
alu at 7/8|s/out->alu = 4 \* busy >= 3 \* cyc;/out->alu = 8 * busy >= 7 * cyc;/
bw: >= instead of >|s/out->bw = by > sh;/out->bw = by >= sh;/
lat: > instead of >=|s/out->lat = 8 \* mw >= cyc;/out->lat = 8 * mw > cyc;/
lat at 1/4|s/out->lat = 8 \* mw >= cyc;/out->lat = 4 * mw >= cyc;/
no 9/8 band|s/out->lat \&\& !over ? ASC_KEEP/out->lat ? ASC_KEEP/
over: >= instead of >|s/const int over = 8 \* by > 9 \* sh;/const int over = 8 * by >= 9 * sh;/
never keep|s/out->lat \&\& !over ? ASC_KEEP : ASC_LOWER/ASC_LOWER/
raise only when latency-bound|s/!out->alu \&\& !out->bw ? ASC_RAISE/!out->alu \&\& !out->bw \&\& out->lat ? ASC_RAISE/
max slip not saturating at the top|s/if (out->dir == ASC_RAISE \&\& max_d < a->cnt_max) max_d++;/if (out->dir == ASC_RAISE) max_d++;/
max slip down to 0|s/else if (out->dir == ASC_LOWER \&\& max_d > 1) max_d--;/else if (out->dir == ASC_LOWER \&\& max_d > 0) max_d--;/
sample_i ignored|s/if (in->sample) {/if (0) {/
LIST
exit $rc
