# ---------------------------------------------------------------- your own kernel
# docs/see.md's example kernel, written outside the tree, built and run by
# the one command the docs give; its results must equal its host build's.
group kernel
mkdir -p "$T/ext"
sed -n '/^<!-- example: saxpy.c -->$/,/^<!-- end -->$/p' docs/see.md | sed '1,2d;$d' | sed '$d' >"$T/ext/saxpy.c"
if [ ! -s "$T/ext/saxpy.c" ]; then bad "docs/see.md has no example kernel between its markers"
else
  run kernel-ext 300 make --no-print-directory -s BUILD="$B" kernel SRC="$T/ext/saxpy.c" OUT="$T/ext/out" \
      ARGS="--policy DWS.ReviveSplit --quiet"
  if [ $RC -eq 0 ] && grep -q "^kernel: results equal the host build's (16384 bytes" "$OUT" && [ -s "$T/ext/out/saxpy.elf" ]; then ok
  else bad "make kernel SRC=<docs example outside the tree>: exit $RC: $(tail -n 5 "$OUT" "$ERR")"; fi
fi
run kernel-nosrc 60 make --no-print-directory -s BUILD="$B" kernel
if [ $RC -ne 0 ] && grep -q "make kernel: name the source" "$ERR"; then ok
else bad "make kernel without SRC: exit $RC: $(tail -n 3 "$ERR")"; fi
