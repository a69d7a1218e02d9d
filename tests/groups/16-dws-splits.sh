# ---------------------------------------------------------------- branch-split selection
# Branch-split selection (wpusim --split-list, --branch-profile, dws_branch =
# list; docs/dws.md).
group dws-splits
# tests/sim/split_list.S: the branch splits each list makes, worked out in
# its comment; the results (every thread exits 0) and --check hold in each.
SL_RUN=("$SIM" --policy DWS.BranchOnly.PC --set wpus=1 --set warps=1 --set width=4 --threads 4 --stats json --check)
printf 'split_a\nsplit_b beq # both, one with its mnemonic\n' > "$T/sl-ab"
echo "split_b" > "$T/sl-b"; echo "split_a" > "$T/sl-a"; echo "# nothing" > "$T/sl-none"
for c in "rule::3" "ab:--split-list $T/sl-ab:3" "b:--split-list $T/sl-b:1" "a:--split-list $T/sl-a:1" \
         "none:--split-list $T/sl-none:0"; do
  name=${c%%:*}; rest=${c#*:}; opt=${rest%:*}; want=${rest##*:}
  # shellcheck disable=SC2086
  run "split-list-$name" 30 "${SL_RUN[@]}" $opt "$B/simtests/split_list.elf"
  got=$(json_total "$OUT" splits_branch)
  if [ $RC -eq 0 ] && [ "$got" = "$want" ]; then ok
  else bad "split_list.S, list $name: exit $RC, splits_branch $got, expected $want $(head -c 300 "$ERR")"; fi
done
# A list made for another build is refused, naming the line and the problem.
echo "split_a+4" > "$T/sl-bad1"
run split-list-notbranch 30 "${SL_RUN[@]}" --split-list "$T/sl-bad1" "$B/simtests/split_list.elf"
if [ $RC -eq 2 ] && grep -q "sl-bad1:1: split_a+4 (0x[0-9a-f]*) is addi, not a conditional branch" "$ERR"; then ok
else bad "a list naming an addi: exit $RC: $(head -c 300 "$ERR")"; fi
echo "split_a bne" > "$T/sl-bad2"
run split-list-mnemonic 30 "${SL_RUN[@]}" --split-list "$T/sl-bad2" "$B/simtests/split_list.elf"
if [ $RC -eq 2 ] && grep -q "sl-bad2:1: split_a (0x[0-9a-f]*) is beq, the list says bne" "$ERR"; then ok
else bad "a list with a wrong mnemonic: exit $RC: $(head -c 300 "$ERR")"; fi
echo "nosuch+4" > "$T/sl-bad3"
run split-list-symbol 30 "${SL_RUN[@]}" --split-list "$T/sl-bad3" "$B/simtests/split_list.elf"
if [ $RC -eq 2 ] && grep -q "sl-bad3:1: no symbol 'nosuch'" "$ERR"; then ok
else bad "a list with an unknown symbol: exit $RC: $(head -c 300 "$ERR")"; fi
run split-list-missing 30 "$SIM" --policy DWS.BranchOnly.PC --set dws_branch=list "$B/simtests/split_list.elf"
if [ $RC -eq 2 ] && grep -q "dws_branch = list needs the list: --split-list FILE" "$ERR"; then ok
else bad "dws_branch = list without a list: exit $RC: $(head -c 300 "$ERR")"; fi
# --branch-profile: split_a and split_b each ran once, divergent, 2 threads
# on the smaller side, 4 active; the post-dominator 4 instructions on
# (beq, addi, j, addi).
run branch-profile 30 "$SIM" --set wpus=1 --set warps=1 --set width=4 --threads 4 --quiet \
    --branch-profile "$T/sl.prof" "$B/simtests/split_list.elf"
if [ $RC -eq 0 ] && grep -Eq '^0x[0-9a-f]{8} split_a beq 1 1 2 4 a_join 4 0 1$' "$T/sl.prof" \
   && grep -Eq '^0x[0-9a-f]{8} split_b beq 1 1 2 4 b_join 4 0 1$' "$T/sl.prof" \
   && [ "$(grep -vc '^#' "$T/sl.prof")" = 2 ]; then ok
else bad "--branch-profile of split_list.S: exit $RC: $(cat "$T/sl.prof" "$ERR" | head -c 400)"; fi
# --branch-profile is written beside its file and renamed into place when
# complete: a run that never starts (--dump of a kernel with no results,
# --dump-cfg) leaves an existing profile as it was, and a full disk is an
# error naming it (it was exit 2 with no message, and an emptied profile).
echo keep >"$T/keep.prof"
for why in "--dump $T/x.bin" "--dump-cfg"; do
  run branch-profile-keep 30 "$SIM" --quiet --branch-profile "$T/keep.prof" $why "$B/simtests/split_list.elf"
  if [ "$(cat "$T/keep.prof")" = keep ] && [ -z "$(find "$T" -maxdepth 1 -name 'keep.prof.wpusim-*')" ]; then ok
  else bad "--branch-profile with $why (exit $RC) changed an existing profile or left a temporary: $(head -c 100 "$T/keep.prof")"; fi
done
run branch-profile-full 30 "$SIM" --quiet --branch-profile /dev/full "$B/simtests/split_list.elf"
if [ $RC -eq 2 ] && grep -q "^wpusim: --branch-profile /dev/full: write failed: No space left on device$" "$ERR"; then ok
else bad "--branch-profile /dev/full: want exit 2 and a message; got $RC: $(head -c 300 "$ERR")"; fi
# The list is read with the loader's care: a directory is not an empty list,
# /dev/zero and a FIFO are refused at once (both used to hang), a NUL byte
# does not hide the rest of its line, a comment of any length is a comment
# (one past 511 characters used to be parsed as an entry), and a line names
# one branch (anything after the mnemonic used to be ignored).
mkdir -p "$T/sl-dir"; mkfifo "$T/sl-fifo"
for c in "$T/sl-dir:a directory" "/dev/zero:a character device" "$T/sl-fifo:a pipe or FIFO"; do
  run split-list-file 10 bash -c 'ulimit -v 1000000 && exec "$@"' _ "${SL_RUN[@]}" --split-list "${c%%:*}" "$B/simtests/split_list.elf"
  if [ $RC -eq 2 ] && grep -q "^wpusim: --split-list ${c%%:*}: not a regular file (${c#*:}); a split list is a text file, one branch a line$" "$ERR"; then ok
  else bad "--split-list ${c%%:*}: want exit 2 at once, naming ${c#*:}; got $RC: $(head -c 300 "$ERR")"; fi
done
rm -rf "$T/sl-dir" "$T/sl-fifo"
printf 'split_a\0split_b\n' > "$T/sl-nul"
run split-list-nul 30 "${SL_RUN[@]}" --split-list "$T/sl-nul" "$B/simtests/split_list.elf"
if [ $RC -eq 2 ] && grep -q "^wpusim: --split-list $T/sl-nul:1: NUL byte; a split list is text, one branch a line$" "$ERR"; then ok
else bad "a split list with a NUL byte: want exit 2 naming line 1; got $RC: $(head -c 300 "$ERR")"; fi
{ printf '# %0600d split_b beq\n' 0; printf 'split_a beq # %0700d\n' 0; } > "$T/sl-long"
run split-list-long 30 "${SL_RUN[@]}" --split-list "$T/sl-long" "$B/simtests/split_list.elf"
if [ $RC -eq 0 ] && [ "$(json_total "$OUT" splits_branch)" = 1 ]; then ok
else bad "split list with comments of 600 and 700 characters: want exit 0 and 1 split (split_a); got $RC, $(json_total "$OUT" splits_branch): $(head -c 300 "$ERR")"; fi
echo "split_a beq bne" > "$T/sl-three"
run split-list-three 30 "${SL_RUN[@]}" --split-list "$T/sl-three" "$B/simtests/split_list.elf"
if [ $RC -eq 2 ] && grep -q "sl-three:1: 'bne' after 'split_a beq': a line names one branch" "$ERR"; then ok
else bad "a split-list line with three words: want exit 2; got $RC: $(head -c 300 "$ERR")"; fi
