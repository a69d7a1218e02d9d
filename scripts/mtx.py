#!/usr/bin/env python3
"""Sparse matrices for the SpMV kernel (kernels/irregular/spmv.c; docs/irregular.md).

  mtx.py convert IN.mtx OUT.bin     a Matrix Market file (SuiteSparse's format) -> the
                                    kernel's input (wpusim --input matrix=OUT.bin)
  mtx.py mycielski K OUT.mtx        the Mycielski graph M_K's adjacency matrix
                                    (mycielskian11 = K 11: 1,535 x 1,535, 134,710 nonzeros)
  mtx.py lp22-synthetic OUT.mtx [--seed S]
                                    a SYNTHETIC matrix of lp22's published shape
                                    (2,958 x 16,392, 68,512 nonzeros): not lp22
  mtx.py random OUT.mtx --rows R --cols C --nnz N [--seed S] [--max-row L]
  mtx.py lengths IN.mtx|IN.bin      row lengths, one a line (the grid's warp sizes)
  mtx.py reference IN.bin OUT.bin [--width W]
                                    b = A x in float32, in the kernel's order (host-free
                                    check of the file format; the test suite uses the
                                    host build)

Matrix Market: coordinate format, real, integer or pattern (values 1), general,
symmetric or skew-symmetric (mirrored entries added). Array (dense) format, complex
values, indices outside the matrix, a missing or extra entry, a bad header and a
truncated file are errors that name the file, the line and the problem (exit 2).

The kernel's input (little-endian 32-bit words): the tag 'WCSR', nrows, ncols, nnz,
then row_ptr[nrows + 1], col[nnz] (column-sorted within each row), val[nnz] (binary32)
and x[ncols] (binary32: x[j] = 1 + (37 j mod 64) / 64, exact). Values are rounded to
binary32 once, here. Random generators use splitmix64: the same seed gives the same
bytes on every machine.
"""
import struct
import sys

TAG = 0x52534357  # 'WCSR'
MAX_WORDS = 2 << 20  # the kernel's region (kernels/irregular/spmv.c: MAXW)
MAX_ROWS = 1 << 18   # its result array (MAXROWS)


class MtxError(Exception):
    pass


def fail(msg):
    print("mtx.py: %s" % msg, file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- Matrix Market

def read_mtx(path):
    """-> (nrows, ncols, entries: list of (row, col, value)), 0-based, duplicates kept."""
    try:
        f = open(path, "r", encoding="ascii", errors="strict")
        lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise MtxError("%s: cannot read: %s" % (path, e))
    if not lines or not lines[0].lower().startswith("%%matrixmarket"):
        raise MtxError("%s:1: not a Matrix Market file (the first line must start with %%%%MatrixMarket)" % path)
    head = lines[0].split()
    if len(head) != 5 or head[1].lower() != "matrix":
        raise MtxError("%s:1: bad header '%s' (expected %%%%MatrixMarket matrix coordinate real general)"
                       % (path, lines[0].strip()))
    fmt, field, sym = head[2].lower(), head[3].lower(), head[4].lower()
    if fmt == "array":
        raise MtxError("%s:1: array (dense) format: SpMV needs a sparse matrix in coordinate format" % path)
    if fmt != "coordinate":
        raise MtxError("%s:1: unknown format '%s' (coordinate or array)" % (path, head[2]))
    if field not in ("real", "integer", "pattern"):
        raise MtxError("%s:1: field '%s' is not supported (real, integer or pattern)" % (path, head[3]))
    if sym not in ("general", "symmetric", "skew-symmetric"):
        raise MtxError("%s:1: symmetry '%s' is not supported (general, symmetric, skew-symmetric)" % (path, head[4]))
    i = 1
    while i < len(lines) and (lines[i].startswith("%") or not lines[i].strip()):
        i += 1
    if i >= len(lines):
        raise MtxError("%s: truncated: no size line" % path)
    size = lines[i].split()
    try:
        if len(size) != 3:
            raise ValueError
        nrows, ncols, nent = (int(x) for x in size)
    except ValueError:
        raise MtxError("%s:%d: bad size line '%s' (expected: rows columns entries)" % (path, i + 1, lines[i].strip()))
    if nrows < 1 or ncols < 1 or nent < 0:
        raise MtxError("%s:%d: bad sizes %d x %d with %d entries" % (path, i + 1, nrows, ncols, nent))
    if sym != "general" and nrows != ncols:
        raise MtxError("%s:%d: a %s matrix must be square (%d x %d)" % (path, i + 1, sym, nrows, ncols))
    want = 2 if field == "pattern" else 3
    ent = []
    got = 0
    i += 1
    while got < nent:
        if i >= len(lines):
            raise MtxError("%s: truncated: %d of %d entries" % (path, len(ent), nent))
        ln = lines[i].strip()
        i += 1
        if not ln or ln.startswith("%"):
            continue
        tok = ln.split()
        if len(tok) != want:
            raise MtxError("%s:%d: entry '%s' has %d fields; a %s entry has %d" % (path, i, ln, len(tok), field, want))
        try:
            r, c = int(tok[0]), int(tok[1])
            v = 1.0 if field == "pattern" else float(tok[2])
        except ValueError:
            raise MtxError("%s:%d: entry '%s' is not numeric" % (path, i, ln))
        if not (1 <= r <= nrows and 1 <= c <= ncols):
            raise MtxError("%s:%d: entry (%d, %d) is outside the %d x %d matrix" % (path, i, r, c, nrows, ncols))
        got += 1
        ent.append((r - 1, c - 1, v))
        if sym != "general" and r != c:
            ent.append((c - 1, r - 1, -v if sym == "skew-symmetric" else v))
    for ln in lines[i:]:
        if ln.strip() and not ln.strip().startswith("%"):
            raise MtxError("%s:%d: more entries than the %d the size line declares" % (path, i + 1, nent))
        i += 1
    return nrows, ncols, ent


def write_mtx(path, nrows, ncols, ent, pattern, comment):
    with open(path, "w") as f:
        f.write("%%%%MatrixMarket matrix coordinate %s general\n" % ("pattern" if pattern else "real"))
        for c in comment:
            f.write("%% %s\n" % c)
        f.write("%d %d %d\n" % (nrows, ncols, len(ent)))
        for r, c, v in ent:
            f.write("%d %d\n" % (r + 1, c + 1) if pattern else "%d %d %.9g\n" % (r + 1, c + 1, v))


# ---------------------------------------------------------------- the kernel's input

def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def x_value(j):
    return 1.0 + ((37 * j) % 64) / 64.0


def to_csr(nrows, ncols, ent):
    rows = [[] for _ in range(nrows)]
    for r, c, v in ent:
        rows[r].append((c, v))
    row_ptr, col, val = [0], [], []
    for r in rows:
        r.sort()
        merged = []
        for c, v in r:  # duplicates add up (Matrix Market's convention)
            if merged and merged[-1][0] == c:
                merged[-1] = (c, merged[-1][1] + v)
            else:
                merged.append((c, v))
        col += [c for c, _ in merged]
        val += [v for _, v in merged]
        row_ptr.append(len(col))
    return row_ptr, col, val


def write_input(path, nrows, ncols, ent):
    row_ptr, col, val = to_csr(nrows, ncols, ent)
    nnz = len(col)
    words = 4 + nrows + 1 + 2 * nnz + ncols
    if nrows > MAX_ROWS:
        raise MtxError("%d rows; the kernel's result array holds %d (kernels/irregular/spmv.c MAXROWS)" % (nrows, MAX_ROWS))
    if words - 4 > MAX_WORDS:
        raise MtxError("%d words of input; the kernel's region holds %d (kernels/irregular/spmv.c MAXW)"
                       % (words - 4, MAX_WORDS))
    with open(path, "wb") as f:
        f.write(struct.pack("<4I", TAG, nrows, ncols, nnz))
        f.write(struct.pack("<%dI" % (nrows + 1), *row_ptr))
        f.write(struct.pack("<%dI" % nnz, *col))
        f.write(struct.pack("<%df" % nnz, *val))
        f.write(struct.pack("<%df" % ncols, *[x_value(j) for j in range(ncols)]))


def read_input(path):
    data = open(path, "rb").read()
    tag, nrows, ncols, nnz = struct.unpack_from("<4I", data, 0)
    if tag != TAG:
        raise MtxError("%s: not a kernel input (tag 0x%08x)" % (path, tag))
    o = 16
    row_ptr = struct.unpack_from("<%dI" % (nrows + 1), data, o); o += 4 * (nrows + 1)
    col = struct.unpack_from("<%dI" % nnz, data, o); o += 4 * nnz
    val = struct.unpack_from("<%df" % nnz, data, o); o += 4 * nnz
    x = struct.unpack_from("<%df" % ncols, data, o)
    return nrows, ncols, row_ptr, col, val, x


# ---------------------------------------------------------------- generators

class SplitMix:
    def __init__(self, seed):
        self.s = seed & (2**64 - 1)

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n

    def unit(self):
        return (self.next() >> 11) / float(1 << 53)


def mycielski(k):
    """The Mycielski graph M_k (M_2 = K_2, M_{k+1} = mu(M_k)): vertices v_0..v_{n-1},
    then their copies u_i (adjacent to v_i's neighbours), then w (adjacent to every
    u_i) -- networkx.mycielski_graph's construction and order."""
    if k < 2:
        raise MtxError("mycielski: K must be >= 2")
    n, edges = 2, [(0, 1)]
    for _ in range(k - 2):
        new = list(edges)
        for a, b in edges:
            new += [(a, n + b), (b, n + a)]
        new += [(n + i, 2 * n) for i in range(n)]
        edges, n = new, 2 * n + 1
    ent = []
    for a, b in edges:
        ent += [(a, b, 1.0), (b, a, 1.0)]
    return n, ent


def random_matrix(rows, cols, nnz, seed, lengths=None, max_row=None):
    """Rows of the given lengths (or random ones summing to nnz), distinct random
    columns, values uniform in [-1, 1) without 0, all from splitmix64(seed)."""
    g = SplitMix(seed)
    if lengths is None:
        cap = min(cols, max_row or cols)
        if nnz > rows * cap or nnz < rows:
            raise MtxError("random: %d nonzeros do not fit %d rows of 1..%d" % (nnz, rows, cap))
        lengths = [1] * rows
        left = nnz - rows
        while left:
            r = g.below(rows)
            if lengths[r] < cap:
                lengths[r] += 1
                left -= 1
    ent = []
    for r, n in enumerate(lengths):
        chosen = set()
        while len(chosen) < n:
            chosen.add(g.below(cols))
        for c in sorted(chosen):
            v = 0.0
            while v == 0.0:
                v = f32(2.0 * g.unit() - 1.0)
            ent.append((r, c, v))
    return ent


def lp22_lengths(seed, rows=2958, nnz=68512, lo=2, hi=400):
    """Row lengths of lp22's shape: log-uniform between lo and hi (one and a half
    orders of magnitude, as 003 Fig. 4a's lp22 histogram spans), scaled so that they
    sum to nnz exactly. A stand-in: lp22 itself is not shipped."""
    g = SplitMix(seed ^ 0x1F22)
    import math
    raw = [math.exp(math.log(lo) + g.unit() * (math.log(hi) - math.log(lo))) for _ in range(rows)]
    scale = nnz / sum(raw)
    lengths = [max(1, min(hi, int(round(v * scale)))) for v in raw]
    d = nnz - sum(lengths)
    while d:
        r = g.below(rows)
        if d > 0 and lengths[r] < hi:
            lengths[r] += 1
            d -= 1
        elif d < 0 and lengths[r] > 1:
            lengths[r] -= 1
            d += 1
    return lengths


# ---------------------------------------------------------------- commands

def opt(args, name, default=None, conv=int):
    if name in args:
        i = args.index(name)
        if i + 1 >= len(args):
            fail("%s needs a value" % name)
        v = args[i + 1]
        del args[i:i + 2]
        try:
            return conv(v)
        except ValueError:
            fail("%s: '%s' is not a number" % (name, v))
    return default


def lengths_of(path):
    if path.endswith(".bin"):
        nrows, _, rp, _, _, _ = read_input(path)
        return [rp[i + 1] - rp[i] for i in range(nrows)]
    nrows, ncols, ent = read_mtx(path)
    rp, _, _ = to_csr(nrows, ncols, ent)
    return [rp[i + 1] - rp[i] for i in range(nrows)]


def reference(inp, width):
    """b = A x as the kernel computes it: each thread t < n = min(len, width) sums
    val[k] x[col[k]] over k = lo + t, lo + t + n, ...; then the warp's tree of
    shfl_down additions (t adds t + s for s = 1, 2, 4 ... while t + s < n)."""
    nrows, ncols, rp, col, val, x = read_input(inp)
    b = []
    for r in range(nrows):
        lo, hi = rp[r], rp[r + 1]
        n = max(1, min(hi - lo, width))
        res = [0.0] * n
        for t in range(n):
            acc = 0.0
            for k in range(lo + t, hi, n):
                acc = f32(acc + f32(val[k] * x[col[k]]))
            res[t] = acc
        s = 1
        while s < n:
            res = [f32(res[t] + res[t + s]) if t + s < n else res[t] for t in range(n)]
            s *= 2
        b.append(res[0])
    return b


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    cmd, args = argv[1], argv[2:]
    try:
        if cmd == "convert" and len(args) == 2:
            nrows, ncols, ent = read_mtx(args[0])
            write_input(args[1], nrows, ncols, ent)
        elif cmd == "mycielski":
            if len(args) != 2:
                fail("usage: mtx.py mycielski K OUT.mtx")
            n, ent = mycielski(int(args[0]))
            write_mtx(args[1], n, n, ent, True, ["mycielskian%s: the Mycielski graph M_%s (scripts/mtx.py)" %
                                                 (args[0], args[0])])
        elif cmd == "lp22-synthetic":
            seed = opt(args, "--seed", 1)
            if len(args) != 1:
                fail("usage: mtx.py lp22-synthetic OUT.mtx [--seed S]")
            ent = random_matrix(2958, 16392, 68512, seed, lengths=lp22_lengths(seed))
            write_mtx(args[0], 2958, 16392, ent, False,
                      ["lp22-synthetic (seed %d): SYNTHETIC, lp22's shape only (2958 x 16392, 68512 nonzeros);"
                       % seed, "row lengths log-uniform in 2..400, random columns and values (scripts/mtx.py)"])
        elif cmd == "random":
            rows, cols, nnz = opt(args, "--rows"), opt(args, "--cols"), opt(args, "--nnz")
            seed, max_row = opt(args, "--seed", 1), opt(args, "--max-row")
            if len(args) != 1 or None in (rows, cols, nnz):
                fail("usage: mtx.py random OUT.mtx --rows R --cols C --nnz N [--seed S] [--max-row L]")
            ent = random_matrix(rows, cols, nnz, seed, max_row=max_row)
            write_mtx(args[0], rows, cols, ent, False, ["random %d x %d, %d nonzeros, seed %d (scripts/mtx.py)"
                                                         % (rows, cols, nnz, seed)])
        elif cmd == "lengths" and len(args) == 1:
            print("\n".join(str(n) for n in lengths_of(args[0])))
        elif cmd == "reference":
            width = opt(args, "--width", 256)
            if len(args) != 2:
                fail("usage: mtx.py reference IN.bin OUT.bin [--width W]")
            b = reference(args[0], width)
            with open(args[1], "wb") as f:
                f.write(struct.pack("<%df" % len(b), *b))
        else:
            fail("unknown command or arguments: %s (see --help)" % " ".join(argv[1:]))
    except MtxError as e:
        fail(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
