#!/usr/bin/env bash
# The ASC's RTL testbench can fail: each mutant below changes one rule of
# rtl/ws_asc.sv (a sed expression); its testbench on the set `small` is
# built by make mutant-tb (tb/flow.mk: the command of every testbench) and a
# random run of 100,000 clocks must fail (a port
# mismatch against the C model or a failed assertion). Prints one line per
# mutant (what caught it) and exits 1 if any survives or does not apply.
#   bash tests/blocks/asc/rtl_mutants.sh [BUILD]   (from the top; ~15 s of
#   CPU per mutant)
set -u
cd "$(dirname "$0")/../../.."
B=${1:-build}
W=$(mktemp -d "${TMPDIR:-/tmp}/asc-rtl-mutants.XXXXXX")
trap 'rm -rf "$W"' EXIT
rc=0
while IFS='|' read -r name expr; do
  case $name in ''|'#'*) continue ;; esac
  d=$W/$name; mkdir -p "$d"
  sed "$expr" rtl/ws_asc.sv > "$d/ws_asc.sv"
  if cmp -s rtl/ws_asc.sv "$d/ws_asc.sv"; then echo "mutant '$name': the sed expression no longer applies"; rc=1; continue; fi
  if ! make --no-print-directory -s BUILD="$B" mutant-tb BLOCK=asc SET=small MUTANT_SV="$d/ws_asc.sv" \
       MUTANT_OUT="$d/obj" > "$d/make.log" 2>&1; then
    echo "mutant '$name': does not build: $(tail -n 3 "$d/make.log")"; rc=1; continue
  fi
  (cd "$d" && ./obj/asc_tb +seed=1 +cycles=100000 +quiet > out 2>&1)
  if [ $? -eq 1 ]; then echo "mutant '$name': caught: $(grep -m 1 -A 3 '^FAIL at' "$d/out" | tr '\n' ' ' | cut -c1-160)"
  else echo "mutant '$name': SURVIVED"; rc=1; fi
done <<'MUTANTS'
# name | sed expression on rtl/ws_asc.sv
limit-strict|s/e_lim\[t\]                = c >= max_q;/e_lim[t] = c > max_q;/
no-saturation|s/if (up\[t\] \&\& c != CNT_MAX) begin/if (up[t]) begin/
tail-ignores-act|s/tail\[t\] = act_i\[t\] \&\& /tail[t] = /
band-at-equality|s/over     = bytes_x8 > share_x9;/over = bytes_x8 >= share_x9;/
no-catch-up|s/catch_up    = !div_event \&\& (|hits) \&\& !(|misses) \&\& (|lims);/catch_up = 1'b0;/
limit-all-kept|s/assign limit_o = (lim_act == act_i) ? '0 : lim_act;/assign limit_o = lim_act;/
clr-ignored|s/    if (clr_i) begin\n//;s/      e_cnt = '0;/      e_cnt = me_cnt;/
max-no-floor|s/end else if (dir_o == DIR_LOWER \&\& max_q != CNT_W'(1)) begin/end else if (dir_o == DIR_LOWER) begin/
earlier-counter-rule|s/if (div_event \&\& !dvg_i) begin/if (div_event \&\& tail_missed) begin/
MUTANTS
exit $rc
