#!/usr/bin/env bash
# WarpSplit test suite. Run through `make test` (which builds what it needs).
# Prints one line per failing test, a count per group, and as its last line
# "N passed, N failed". WSIM_TEST_LONG=1 (make test-long) is the long tier:
# whole matrices, every mutant, every netlist, longer runs (tests/README.md).
#
#   bash tests/run.sh [GROUP...]   only these groups (and the groups they need)
#   bash tests/run.sh --list       the groups, in the order they print
#
# Each group is a file tests/groups/NN-NAME.sh: it starts with `group NAME`
# and uses the helpers below (ok, bad, run, wait_pid, json_total,
# table_cases; $B, $SIM, $T, $LONG, $GOOD). A group that reads what another
# group wrote (files in $T, variables) names it on a line `# needs: GROUP...`;
# running a group alone runs those first, and a group runs in one shell
# with the groups it needs (a chain). Chains run side by side on
# WSIM_TEST_JOBS (2) cores, the dearest first (a group's `# cost: SECONDS`
# line: its time on an idle machine, 10 when it has none); each group's
# output is kept and printed whole, in NN order, so the output is the same
# whatever ran beside it. tests/groups/90-rtl.sh .. 9N-rtl-*.sh are the RTL
# flow (tests/rtl.sh), selected together as `rtl`.
set -u
shopt -s nullglob
cd "$(dirname "$0")/.."
B=${BUILD:-build}
SIM=$B/wpusim
LONG=${WSIM_TEST_LONG:-0}
PASS=0 FAIL=0 GROUP_PASS=0 GROUP_FAIL=0 GROUP="" GROUP_START=0

# The groups: NAME -> file, in the order they print; with what each needs
# and what it costs.
declare -A GROUP_FILE=() GROUP_NEEDS=() GROUP_COST=() SELECTED=()
GROUPS_ORDER=()
for f in tests/groups/[0-9][0-9]-*.sh; do
  n=${f##*/[0-9][0-9]-}; n=${n%.sh}
  GROUP_FILE[$n]=$f GROUPS_ORDER+=("$n")
  GROUP_NEEDS[$n]=$(sed -n 's/^# needs: \([^(]*\).*/\1/p' "$f")
  GROUP_COST[$n]=$(sed -n 's/^# cost: \([0-9]*\).*/\1/p' "$f" | head -n 1)
done
usage() { echo "usage: bash tests/run.sh [--list] [GROUP...]; groups: ${GROUPS_ORDER[*]}" >&2; exit 2; }
select_group() { # select_group NAME WHY: NAME and, first, what it needs
  [ -n "${GROUP_FILE[$1]:-}" ] || { echo "tests/run.sh: $2 '$1' is not a group; groups: ${GROUPS_ORDER[*]}" >&2; exit 2; }
  [ -n "${SELECTED[$1]:-}" ] && return
  SELECTED[$1]=1
  local d; for d in ${GROUP_NEEDS[$1]}; do select_group "$d" "group $1 needs"; done
}
case "${1:-}" in
  --list) for n in "${GROUPS_ORDER[@]}"; do echo "$n${GROUP_NEEDS[$n]:+ (needs ${GROUP_NEEDS[$n]% })}"; done; exit 0 ;;
  -*) usage ;;
esac
for n in "$@"; do
  if [ "$n" = rtl ]; then # the RTL flow: every rtl* group
    for g in "${GROUPS_ORDER[@]}"; do [[ $g == rtl* ]] && select_group "$g" "argument"; done
  else select_group "$n" "argument"; fi
done
[ $# -eq 0 ] && for n in "${GROUPS_ORDER[@]}"; do SELECTED[$n]=1; done
# A group needs only groups that run before it (a smaller NN).
for n in "${GROUPS_ORDER[@]}"; do
  for d in ${GROUP_NEEDS[$n]}; do
    [[ ${GROUP_FILE[$d]:-zzz} < ${GROUP_FILE[$n]} ]] || { echo "tests/run.sh: ${GROUP_FILE[$n]} needs '$d', which is not a group that runs before it" >&2; exit 2; }
  done
done

T=$(mktemp -d "${TMPDIR:-/tmp}/wsim-test.XXXXXX")
trap 'rm -rf "$T"' EXIT

ok() { PASS=$((PASS + 1)); GROUP_PASS=$((GROUP_PASS + 1)); }
bad() { FAIL=$((FAIL + 1)); GROUP_FAIL=$((GROUP_FAIL + 1)); echo "FAIL [$GROUP] $*"; }
group() { # group NAME: the tests that follow count as NAME's (a file may hold several)
  group_end
  GROUP=$1 GROUP_PASS=0 GROUP_FAIL=0 GROUP_START=$SECONDS
}
group_end() { # the current group's line
  [ -n "$GROUP" ] && echo "  $GROUP: $GROUP_PASS passed, $GROUP_FAIL failed ($((SECONDS - GROUP_START)) s)"
  GROUP=""
}
# run NAME TIMEOUT CMD...: runs with a timeout; sets RC, OUT (stdout file), ERR (stderr file)
run() {
  local name=$1 to=$2; shift 2
  OUT=$T/$name.out ERR=$T/$name.err
  local t0=$EPOCHREALTIME
  timeout -k 10 "$to" "$@" >"$OUT" 2>"$ERR" # (-k: one that ignores the SIGTERM is killed 10 s on)
  RC=$?
  # (each run's seconds, for WSIM_TEST_TIMES: where a group's time goes)
  echo "$GROUP $name $t0 $EPOCHREALTIME" >>"$T/.times"
  [ $RC -eq 124 ] && echo "  (timeout after ${to}s: $*)" >>"$ERR"
}
# wait_pid PID SECONDS: waits for a background job to end, at most SECONDS
# (then kills it: RC 124); sets RC. Signal tests start the simulator itself
# in the background and signal its pid: `timeout` in between exits without
# forwarding a signal that comes right after it forks, orphaning the run.
wait_pid() {
  local pid=$1 i
  for ((i = 0; i < $2 * 10; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; wait "$pid"; RC=124; else wait "$pid"; RC=$?; fi
}
# Every process the suite starts carries this mark: none may be left at its end.
export WSIM_TEST_SUITE=$T
json_total() { # json_total FILE KEY: the value of KEY in the "total" object
  sed -n '/"total"/,/}/p' "$1" | sed -n "s/.*\"$2\": \([0-9.]*\).*/\1/p" | head -n 1
}
# table_cases FILE FUNCTION: for each case of a table (tests/groups/*.tsv:
# NAME, ARGUMENTS, EXIT STATUS, REGEX and an optional MADE, tab-separated; '#'
# lines are comments) calls FUNCTION NAME STATUS REGEX ARGUMENTS... with
# CASE_MADE=MADE. $GOOD, $K and $T in ARGUMENTS and REGEX stand for those paths.
table_cases() {
  local name args status re made w argv paths
  while IFS=$'\t' read -r -u 3 name args status re made; do
    case $name in '' | '#'*) continue ;; esac
    [[ $status =~ ^[0-9]+$ ]] || { bad "$1: case $name: exit status '$status' is not a number (a column missing?)"; continue; }
    [[ -z ${K:-} && "$args$re" == *'$K'* ]] && { bad "$1: case $name uses \$K, which this group does not set"; continue; }
    read -ra argv <<<"$args"
    paths=()
    for w in "${argv[@]}" "$re"; do w=${w//'$GOOD'/"$GOOD"} w=${w//'$K'/"${K:-}"}; paths+=("${w//'$T'/"$T"}"); done
    CASE_MADE=$made "$2" "$name" "$status" "${paths[-1]}" "${paths[@]:0:${#argv[@]}}"
  done 3<"$1"
}
# A small program of two segments (text 0x10000-0x10fff, bss 0x11000-0x14fff):
# the bad-input, option and ASan groups make their cases from it.
GOOD=$B/simtests/barrier_phases.elf

# The chains: a selected group with the selected groups it needs, and what
# needs it, in one shell (the groups' variables pass between them), in NN order.
declare -A CHAIN_OF=()
CHAINS=()
for n in "${GROUPS_ORDER[@]}"; do
  [ -n "${SELECTED[$n]:-}" ] || continue
  c=${#CHAINS[@]}
  for d in ${GROUP_NEEDS[$n]}; do [ -n "${CHAIN_OF[$d]:-}" ] && c=${CHAIN_OF[$d]}; done
  if [ "$c" = ${#CHAINS[@]} ]; then CHAINS+=("$n"); else CHAINS[$c]="${CHAINS[$c]} $n"; fi
  CHAIN_OF[$n]=$c
  for d in ${GROUP_NEEDS[$n]}; do # a group needing two chains joins them
    o=${CHAIN_OF[$d]}
    [ "$o" = "$c" ] && continue
    for g in ${CHAINS[$o]}; do CHAIN_OF[$g]=$c; done
    CHAINS[$c]=$(for g in ${CHAINS[$o]} ${CHAINS[$c]}; do echo "${GROUP_FILE[$g]} $g"; done | sort | cut -d' ' -f2 | tr '\n' ' ')
    CHAINS[$o]=""
  done
done
# a chain's groups, one after another in one shell: each group's output in
# $GROUPS_OUT/NAME.log, its counts in $GROUPS_OUT/NAME.count when it ends
GROUPS_OUT=$T/.groups
mkdir -p "$GROUPS_OUT"
# (names no group file uses: a group sets n, G and the like)
run_chain() {
  local chain_group
  for chain_group in $1; do
    PASS=0 FAIL=0
    { . "${GROUP_FILE[$chain_group]}"; group_end; } >"$GROUPS_OUT/$chain_group.log" 2>&1 </dev/null
    echo "$PASS $FAIL" >"$GROUPS_OUT/$chain_group.count"
  done
}
# the dearest chains first (longest processing time first), at most JOBS at once
ORDER=$(for c in "${!CHAINS[@]}"; do
  [ -n "${CHAINS[$c]}" ] || continue
  cost=0; for n in ${CHAINS[$c]}; do cost=$((cost + ${GROUP_COST[$n]:-10})); done
  echo "$cost $c"
done | sort -k1,1nr -k2,2n | cut -d' ' -f2)
JOBS=${WSIM_TEST_JOBS:-2}
PRINTED=0
NSEL=${#SELECTED[@]}
print_done() { # prints, in NN order, the groups that have ended since the last call
  local n
  # on a terminal, how far the run is (stderr; a line the output then overwrites)
  [ -t 2 ] && printf '\r[%d of %d groups done, %d s]' "$(ls "$GROUPS_OUT" | grep -c '\.count$')" "$NSEL" "$SECONDS" >&2
  while [ $PRINTED -lt ${#GROUPS_ORDER[@]} ]; do
    n=${GROUPS_ORDER[$PRINTED]}
    if [ -n "${SELECTED[$n]:-}" ]; then
      [ -f "$GROUPS_OUT/$n.count" ] || return 0
      [ -t 2 ] && printf '\r\033[K' >&2
      cat "$GROUPS_OUT/$n.log"
      read -r p f <"$GROUPS_OUT/$n.count"
      PASS=$((PASS + p)) FAIL=$((FAIL + f))
    fi
    PRINTED=$((PRINTED + 1))
  done
}
declare -A RUNNING=()
for c in $ORDER; do
  while [ ${#RUNNING[@]} -ge "$JOBS" ]; do
    wait -n -p done_pid; unset "RUNNING[$done_pid]"; print_done
  done
  run_chain "${CHAINS[$c]}" &
  RUNNING[$!]=$c
done
while [ ${#RUNNING[@]} -gt 0 ]; do wait -n -p done_pid; unset "RUNNING[$done_pid]"; print_done; done
# a group whose shell ended before it did (an `exit` in it) fails
for n in "${GROUPS_ORDER[@]}"; do
  [ -n "${SELECTED[$n]:-}" ] && [ ! -f "$GROUPS_OUT/$n.count" ] || continue
  { cat "$GROUPS_OUT/$n.log" 2>/dev/null; echo "FAIL [$n] its shell ended before the group did"; } >"$GROUPS_OUT/$n.log.x"
  mv "$GROUPS_OUT/$n.log.x" "$GROUPS_OUT/$n.log"; echo "0 1" >"$GROUPS_OUT/$n.count"
done
print_done
[ -t 2 ] && printf '\r\033[K' >&2
GROUP=done
# No process the suite started is left running (an orphaned simulator keeps
# a core busy for minutes): each carries WSIM_TEST_SUITE=$T in its environment.
left=""
for p in /proc/[0-9]*; do
  pid=${p#/proc/}
  [ "$pid" = $$ ] || [ "$pid" = "$BASHPID" ] && continue
  { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qxF "WSIM_TEST_SUITE=$T" || continue
  cmd=$( { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null)
  [ -n "$cmd" ] || continue # (exited meanwhile, or the check's own pipeline)
  left="$left $pid: ${cmd:0:120};"
  kill -KILL "$pid" 2>/dev/null
done
if [ -z "$left" ]; then ok; else bad "processes the suite started are still running:$left"; fi
# WSIM_TEST_TIMES=N: the N longest runs (wall seconds; `run` calls only)
if [ "${WSIM_TEST_TIMES:-0}" -gt 0 ] && [ -f "$T/.times" ]; then
  echo "the ${WSIM_TEST_TIMES} longest runs (seconds, wall):"
  awk '{ printf "  %7.1f  %s %s\n", $4 - $3, $1, $2 }' "$T/.times" | sort -k1,1nr | head -n "$WSIM_TEST_TIMES"
fi
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
