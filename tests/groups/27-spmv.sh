# ---------------------------------------------------------------- spmv
# 003's SpMV (kernels/irregular/spmv.c: a warp per CSR row, its own grid) on
# matrices scripts/mtx.py makes: mycielskian8 (and mycielskian11 exactly: the
# construction against networkx, the shape against SuiteSparse's listing),
# lp22-synthetic, a random one; each against the host build and mtx.py's own
# float32 reference; every bad matrix or input an error that names it.
group spmv
MTX="python3 scripts/mtx.py" SPMV=$B/kernels/irregular/spmv.elf SPMVH=$B/host/irregular/spmv
spmv_mk() { # spmv_mk NAME GENERATOR ARGS...: $T/NAME.mtx and $T/NAME.bin
  local name=$1; shift
  run "spmv-gen-$name" 120 $MTX "$@"
  if [ $RC -ne 0 ]; then bad "mtx.py $*: exit $RC: $(head -c 300 "$ERR")"; return 1; fi
  run "spmv-conv-$name" 120 $MTX convert "$T/$name.mtx" "$T/$name.bin"
  if [ $RC -ne 0 ]; then bad "mtx.py convert $name: exit $RC: $(head -c 300 "$ERR")"; return 1; fi
}
spmv_same() { # spmv_same NAME WIDTH SIMARGS...: sim == host build (--width WIDTH)
  local name=$1 w=$2; shift 2
  run "spmv-host-$name-$w" 120 "$SPMVH" --quiet --width "$w" --input matrix="$T/$name.bin" --dump "$T/$name-$w.host"
  if [ $RC -ne 0 ]; then bad "spmv $name host (width $w): exit $RC: $(head -c 300 "$ERR")"; return; fi
  run "spmv-sim-$name-$w" 600 "$SIM" --stats json "$@" --input matrix="$T/$name.bin" --dump "$T/$name-$w.sim" "$SPMV"
  if [ $RC -eq 0 ] && cmp -s "$T/$name-$w.host" "$T/$name-$w.sim"; then ok
  else bad "spmv $name ($*): exit $RC, $(cmp "$T/$name-$w.host" "$T/$name-$w.sim" 2>&1) $(head -c 300 "$ERR")"; fi
}
spmv_mk myc8 mycielski 8 "$T/myc8.mtx"
spmv_mk lp22s lp22-synthetic "$T/lp22s.mtx" --seed 1
spmv_mk rnd random "$T/rnd.mtx" --rows 300 --cols 500 --nnz 6000 --max-row 90 --seed 5
for m in myc8 lp22s rnd; do spmv_same $m 16; done
spmv_same rnd 8 --set width=8 --set wpus=2
spmv_same myc8 16 --policy 2Lev
# the float32 reference of mtx.py (the kernel's order of additions): b's first nrows words
run spmv-ref 120 $MTX reference "$T/rnd.bin" "$T/rnd.ref" --width 16
if [ $RC -eq 0 ] && cmp -s -n "$(stat -c %s "$T/rnd.ref")" "$T/rnd.ref" "$T/rnd-16.sim"; then ok
else bad "spmv rnd: the simulator's b differs from mtx.py reference: exit $RC $(head -c 200 "$ERR")"; fi
# mycielskian11: 1,535 x 1,535 with 134,710 nonzeros (SuiteSparse), the construction networkx builds
run spmv-myc11 120 $MTX mycielski 11 "$T/myc11.mtx"
if [ $RC -eq 0 ] && grep -qx "1535 1535 134710" "$T/myc11.mtx"; then ok
else bad "mycielski 11: want 1535 1535 134710; got $(grep -v '^%' "$T/myc11.mtx" | head -n 1)"; fi
if python3 -c "import networkx" 2>/dev/null; then
  run spmv-myc-nx 120 python3 -c "
import sys; sys.path.insert(0, 'scripts'); import mtx, networkx as nx
for k in (4, 8, 11):
    n, ent = mtx.mycielski(k); G = nx.mycielski_graph(k)
    theirs = {(a, b) for a, b in G.edges()} | {(b, a) for a, b in G.edges()}
    assert n == G.number_of_nodes() and {(a, b) for a, b, _ in ent} == theirs, k
print('same')"
  if [ $RC -eq 0 ] && grep -qx same "$OUT"; then ok; else bad "mtx.py mycielski differs from networkx.mycielski_graph: $(cat "$ERR")"; fi
fi
if [ "$LONG" = 1 ]; then
  $MTX convert "$T/myc11.mtx" "$T/myc11.bin" && spmv_same myc11 16
fi
# bad matrices (mtx.py, exit 2 naming file and line) and bad inputs (wpusim, exit 2)
mtx_bad() { # NAME MESSAGE(regex) FILE-CONTENT
  printf "$3" >"$T/$1.mtx"
  run "spmv-bad-$1" 30 $MTX convert "$T/$1.mtx" "$T/$1.bin"
  if [ $RC -eq 2 ] && grep -Eq -- "$2" "$ERR"; then ok; else bad "mtx.py convert $1: want exit 2 and '$2'; got $RC: $(cat "$ERR")"; fi
}
mtx_bad header "$T/header.mtx:1: not a Matrix Market file" 'hello\n1 1 1\n'
mtx_bad array "$T/array.mtx:1: array \(dense\) format: SpMV needs a sparse matrix" '%%%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n'
mtx_bad truncated "$T/truncated.mtx: truncated: 2 of 3 entries" '%%%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.0\n2 2 2.0\n'
mtx_bad outside "$T/outside.mtx:4: entry \(4, 1\) is outside the 3 x 3 matrix" '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n4 1 2.0\n'
mtx_bad text "$T/text.mtx:3: entry '1 x 1.0' is not numeric" '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 x 1.0\n'
mtx_bad fields "$T/fields.mtx:3: entry '1 1' has 2 fields; a real entry has 3" '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1\n'
mtx_bad extra "$T/extra.mtx:4: more entries than the 1 the size line declares" '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1.0\n2 2 2.0\n'
mtx_bad sizes "$T/sizes.mtx:2: bad size line '3 3' \(expected: rows columns entries\)" '%%%%MatrixMarket matrix coordinate real general\n3 3\n'
mtx_bad complex "$T/complex.mtx:1: field 'complex' is not supported" '%%%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n'
spmv_usage() { # NAME MESSAGE(regex) ARGS...
  local name=$1 msg=$2; shift 2
  run "spmv-usage-$name" 30 "$SIM" "$@" "$SPMV"
  if [ $RC -eq 2 ] && grep -Eq -- "$msg" "$ERR"; then ok; else bad "spmv $name: want exit 2 and '$msg'; got $RC: $(cat "$ERR")"; fi
}
spmv_usage no-input "the kernel's grid \(WSIM_GRID_ROWS\) has no rows: give the kernel its input \(wpusim --input NAME=FILE" --quiet
spmv_usage input-name "^wpusim: --input vec=$T/rnd.bin: .*spmv.elf declares no input named 'vec'; its inputs: matrix$" --input vec="$T/rnd.bin"
printf 'WCSX\0\0\0\0' >"$T/tag.bin"
spmv_usage input-tag "^wpusim: --input matrix=$T/tag.bin: the file does not start with the region's format tag 0x52534357 \('WCSR'\)" --input matrix="$T/tag.bin"
: >"$T/empty.bin"
spmv_usage input-empty "^wpusim: --input matrix=$T/empty.bin: the file is empty$" --input matrix="$T/empty.bin"
head -c 16 "$T/rnd.bin" >"$T/big.bin" && truncate -s 9000000 "$T/big.bin"
spmv_usage input-large "^wpusim: --input matrix=$T/big.bin: the file has 9000000 bytes; the kernel's region 'matrix' holds 8388624" --input matrix="$T/big.bin"
spmv_usage input-missing "^wpusim: --input matrix=$T/none.bin: cannot read: No such file or directory$" --input matrix="$T/none.bin"
# row offsets that decrease (a corrupted file): the grid says so
python3 -c "
import struct; d = bytearray(open('$T/rnd.bin', 'rb').read()); struct.pack_into('<I', d, 16 + 4 * 5, 7)
open('$T/dec.bin', 'wb').write(d)"
spmv_usage input-offsets "the kernel's grid \(WSIM_GRID_ROWS\): row offsets decrease at row 4 \([0-9]* then 7\): the input is not a CSR matrix" --input matrix="$T/dec.bin"
