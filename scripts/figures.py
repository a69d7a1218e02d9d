#!/usr/bin/env python3
"""Every table and plot of the DWS/MAWS reproduction, from one command.

    scripts/figures.py [--size tiny|small|paper] [--task MAPPING] [--studies a,b,...]
                       [--kernels a,b,...] [--jobs N] [--out DIR] [--no-plots]
                       [--extra dom,lwm] [--set KEY=VALUE ...]
    scripts/figures.py ... --emit-jobs FILE     write the runs as a job list, run nothing
    scripts/figures.py ... --merge DIR          build the tables from DIR's result files
    scripts/figures.py --list                   the studies, their runs and papers

The studies (--list; docs/figures.md): the legends' speedups over Conv (001 Fig.
13 on `dws`, 000 Fig. 7 on both MAWS organizations, as scripts/speedup.py), 001's
memory-wait and SIMD-width claim (§5.5: 76% -> 36%, 14 -> 4), and the sensitivity
studies of 001 §6 (D-cache associativity, L2 latency, D-cache size, warps x SIMD
width, scheduler slots, WST entries: Figs. 15-18, 20, 21) and 000 §7 (SIMD width,
warps, contexts, D-cache size, LLC latency: Figs. 8-12). The kernels run at --size
with the task mapping --task (default `paper`: the mapping matched to 001 Table 1,
docs/tasks.md).

A study is a list of points (a --set list) and the policies run at each; every
(policy, point, kernel) is one wpusim run, identical runs shared between studies
(scripts/wsim_runs.py). Each run's results and per-thread instruction counts must
equal Conv's at the same point (exit 1 otherwise). Writes into --out (default
build/figures/SIZE): runs/ (one NAME.json + NAME.sha256 per run), per study
NAME.md (tables), NAME.dat + NAME.gp (gnuplot data and script), NAME.png and
NAME.svg; index.md (every table); rows.json. Without gnuplot the tables are still
written and a message says what to install.

--emit-jobs FILE writes one shell line per run (the wpusim command writing its
statistics to DIR/NAME.json, then its results' SHA-256 to DIR/NAME.sha256), to be
run from the repository root by GNU parallel (`parallel -j N < FILE`) or a Slurm
array (line $SLURM_ARRAY_TASK_ID); --merge DIR then builds the same tables from
those files with the same code as a direct run. Progress and an ETA on stderr.
Standard library only (plots: gnuplot, Debian's gnuplot-nox).
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wsim_runs as W  # noqa: E402
import report  # noqa: E402  (a study's report page)
from suite import task_value  # noqa: E402
import speedup  # noqa: E402

ROOT = W.ROOT
KERNELS = speedup.KERNELS
SIZES = speedup.SIZES
# Core-seconds of one run (mean over a study's runs, --task paper), measured on this
# machine: the estimate printed before running.
RUN_SECONDS = {"tiny": 0.05, "small": 2.5, "paper": 25.0}

Study = collections.namedtuple("Study", "name paper title preset policies xlabel points base metric conv_fixed claim")
Study.__doc__ = """points: [(label, sets, policies or None = all)]; base: None (each
mechanism over Conv at the same point) or the label of the point whose Conv run
normalizes every run (the paper's figure); metric: "speedup" (001: cycles(base) /
cycles, harmonic mean) or "time" (000: cycles / cycles(base), arithmetic mean);
conv_fixed: Conv's run is the same at every point (the key is a mechanism's)."""

DWS = ["Conv", "DWS.ReviveSplit"]
MAWS = ["Conv", "MAWS.LazySplit", "MAWS.LatSpec"]


def l2_hit(lat):
    """An aggregate L2 hit latency (the papers' "L2 lookup latency", 30 in 001 Table 3 and
    000 Table 3) as our presets split it: L1 lookup 3 + crossbar 2 x 2 + l2_latency."""
    return ("l2_latency=%d" % (lat - 7),)


def shape(warps, width, preset_reqs):
    """warps x width: a WST entry per group the WPU allows (at least the presets' 16, two
    per warp beyond), MSHRs that track as many requests as the SIMD width (001 §3.3)."""
    s = ["warps=%d" % warps, "width=%d" % width]
    if 2 * warps > 16:
        s.append("dws_entries=%d" % min(64, 2 * warps))
    if width > preset_reqs:
        s.append("l1d_mshr_reqs=%d" % width)
    return tuple(s)


def studies():
    out = []
    out.append(Study("assoc-001", "001 Fig. 15", "D-cache associativity (dws: 32 KB, 128 B lines)", "dws", DWS,
                     "L1 D ways", [("%s" % ("full" if w == 256 else w), ("l1d_ways=%d" % w,), None)
                                   for w in (4, 8, 16, 256)], None, "speedup", False,
                     "DWS's benefit decreases with higher associativity (fewer misses and divergent accesses), "
                     "but not always increases at 4 ways (HotSpot drops)"))
    out.append(Study("l2lat-001", "001 Fig. 16", "L2 hit latency (dws)", "dws", DWS, "L2 hit latency (cycles)",
                     [(str(x), l2_hit(x), None) for x in (10, 30, 100, 200, 300)], "10", "speedup", False,
                     "DWS's speedup over Conv increases with longer L2 latency"))
    out.append(Study("dcache-001", "001 Fig. 17", "D-cache size (dws: 8-way)", "dws", DWS, "L1 D size (KB)",
                     [(str(k), ("l1d_size=%d" % (k * 1024),), None) for k in (8, 16, 32, 64, 128)], None,
                     "speedup", False,
                     "DWS's benefit decreases with larger D-caches; at 128 KB DWS is almost identical to Conv; "
                     "DWS ~ doubling the D-cache"))
    pts = [("1x1", shape(1, 1, 32), ["Conv"])]
    for warps, width in ((1, 4), (1, 8), (1, 16), (1, 32), (2, 4), (2, 8), (2, 16), (2, 32), (4, 4), (4, 8),
                         (4, 16), (8, 4), (8, 8), (16, 4)):
        pts.append(("%dx%d" % (warps, width), shape(warps, width, 32), None))
    # (001's Fig. 18 also plots adaptive slip with branch bypassing: it "does not scale well for wider warps")
    out.append(Study("width-001", "001 Fig. 18a", "warps x SIMD width (dws: 32 KB 8-way)", "dws",
                     DWS + ["Slip.BranchBypass"],
                     "warps x SIMD width", pts, "1x1", "speedup", False,
                     "DWS works best for wide SIMD: best DWS 2x16, 1.2x the best Conv (4x8); DWS beats Conv "
                     "from width 8 up; below Conv with > 8 warps narrower than 4; Slip.BranchBypass does not "
                     "scale to wide warps, may be worse than Conv"))
    out.append(Study("slots-001", "001 Fig. 20", "scheduler slots (dws: 4 warps x 16)", "dws", DWS,
                     "scheduler slots per WPU", [(str(s), ("dws_slots=%d" % s,), None) for s in (4, 6, 8, 12, 16)],
                     None, "speedup", True, "DWS performs best with a moderate number of slots"))
    out.append(Study("wst-001", "001 Fig. 21", "WST entries (dws: 64 threads per WPU)", "dws", DWS,
                     "WST entries per WPU", [(str(e), ("dws_entries=%d" % e,), None) for e in (4, 8, 16, 32, 64)],
                     None, "speedup", True,
                     "best once entries >= twice the scheduler slots (16 here); more does not help"))
    out.append(Study("width-000", "000 Fig. 8", "SIMD width (maws-bulksync: 4 warps)", "maws-bulksync", MAWS,
                     "SIMD width", [(str(w), shape(4, w, 8), None) for w in (2, 4, 8, 16, 32)], "2", "time", False,
                     "LazySplit and LatSpec peak at width 8, Conv saturates at 4"))
    out.append(Study("warps-000", "000 Fig. 9", "warps (maws-bulksync: width 8)", "maws-bulksync", MAWS,
                     "warps per WPU", [(str(n), shape(n, 8, 8), None) for n in (1, 2, 4, 8)], "1", "time", False,
                     "MAWS with 2 warps does as well as Conv with 4 or more"))
    out.append(Study("contexts-000", "000 Fig. 10", "64 contexts as warps x width (maws-coherent)", "maws-coherent",
                     MAWS, "warps x SIMD width", [("%dx%d" % (n, 64 // n), shape(n, 64 // n, 8), None)
                                                  for n in (32, 16, 8, 4, 2, 1)], "8x8", "time", False,
                     "best shape varies (KMeans 1x64, Merge 16x4); with MAWS Merge and LU no longer degrade "
                     "with wider SIMD"))
    out.append(Study("dcache-000", "000 Fig. 11", "D-cache size (maws-bulksync: 4-way, 32 B lines)",
                     "maws-bulksync", MAWS, "L1 D size (KB)",
                     [(str(k), ("l1d_size=%d" % (k * 1024),), None) for k in (4, 8, 16, 32, 64)], "4", "time", False,
                     "MAWS's speedup decreases with larger D-caches (most with medium sizes; LU, KMeans lose "
                     "at very small ones)"))
    out.append(Study("llclat-000", "000 Fig. 12", "LLC hit latency (maws-coherent)", "maws-coherent", MAWS,
                     "LLC hit latency (cycles)", [(str(x), l2_hit(x), None) for x in (10, 30, 100, 200, 300)], "10",
                     "time", False,
                     "MAWS more effective with longer latency (Merge, KMeans); Filter under LatSpec the opposite"))
    return out


LEGEND_STUDIES = ["legends-001", "legends-000"]
ALL = LEGEND_STUDIES + ["memwait-001"] + [s.name for s in studies()]


def plan(args):
    """The runs of the selected studies, in order, without duplicates."""
    runs = []
    tv = {k: task_value(args.task, k) for k in args.kernels}
    extra = tuple(args.set or [])
    def mk(pr, pol, k, sets):
        return W.Run(pr, pol, k, args.arg, tv[k], W.canonical_sets(args.build, pr, extra + tuple(sets)), args.seed)
    for name in args.studies:
        if name in ("legends-001", "memwait-001"):
            pols = ["Conv"] + (speedup.DWS_POLICIES if name == "legends-001" else ["DWS.ReviveSplit"])
            runs += [mk("dws", p, k, ()) for p in pols for k in args.kernels]
        elif name == "legends-000":
            runs += [mk(pr, p, k, ()) for pr in ("maws-coherent", "maws-bulksync")
                     for p in ["Conv"] + speedup.MAWS_POLICIES for k in args.kernels]
        else:
            st = STUDIES[name]
            for label, sets, pols in st.points:
                for p in pols or st.policies:
                    s = () if (p == "Conv" and st.conv_fixed) else sets
                    runs += [mk(st.preset, p, k, s) for k in args.kernels]
    return list(dict.fromkeys(runs))


# ---------------------------------------------------------------------------- tables
def f2(v, spec=".2f"):
    return "-" if v is None else format(v, spec)


def md(head, body):
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] +
                     ["| " + " | ".join(str(c) for c in r) + " |" for r in body])


class Results:
    def __init__(self, args, rows):
        self.args = args
        self.by = {}
        for r in rows:
            self.by[(r["preset"], r["policy"], r["kernel"], tuple(r["sets"]))] = r

    def get(self, preset, policy, kernel, sets):
        extra = tuple(self.args.set or [])
        r = self.by.get((preset, policy, kernel, W.canonical_sets(self.args.build, preset, extra + tuple(sets))))
        return r if r and "error" not in r else None

    def cycles(self, *key):
        r = self.get(*key)
        return r["cycles"] if r else None


def ratio(a, b):
    return a / b if a is not None and b else None


def study_tables(st, R, kernels):
    """Markdown, the gnuplot data (rows: point label, one column per series) and the
    series names of one sensitivity study."""
    mean = W.hmean if st.metric == "speedup" else W.amean
    mname = "h-mean" if st.metric == "speedup" else "average"
    conv_sets = lambda sets: () if st.conv_fixed else sets
    out = ["## %s: %s (%s)\n" % (st.paper, st.title, st.name), "Paper: %s.\n" % st.claim]
    mechs = [p for p in st.policies if p != "Conv"]
    # 1. each mechanism over Conv at the same point
    sp = {}
    for pol in mechs:
        body = []
        for label, sets, pols in st.points:
            if pols is not None and pol not in pols:
                continue
            xs = [ratio(R.cycles(st.preset, "Conv", k, conv_sets(sets)), R.cycles(st.preset, pol, k, sets))
                  for k in kernels]
            sp[(pol, label)] = (W.hmean(xs), W.amean(xs))
            body.append([label] + [f2(x) for x in xs] + [f2(W.hmean(xs)), f2(W.amean(xs))])
        out.append("Speedup of %s over Conv at the same point (cycles(Conv) / cycles(%s)):\n" % (pol, pol))
        out.append(md([st.xlabel] + kernels + ["h-mean", "mean"], body) + "\n")
    # 2. the paper's figure: every policy normalized to Conv at the base point
    series, data = [], []
    if st.base is not None:
        bsets = dict((l, s) for l, s, _ in st.points)[st.base]
        body = []
        for label, sets, pols in st.points:
            row = [label]
            for pol in st.policies:
                if pols is not None and pol not in pols:
                    row.append(None)
                    continue
                xs = []
                for k in kernels:
                    b = R.cycles(st.preset, "Conv", k, conv_sets(bsets))
                    c = R.cycles(st.preset, pol, k, conv_sets(sets) if pol == "Conv" else sets)
                    xs.append(ratio(b, c) if st.metric == "speedup" else ratio(c, b))
                row.append(mean(xs))
            data.append(row)
            body.append([label] + [f2(x) for x in row[1:]])
        what = ("speedup over Conv at %s = %s (cycles(base) / cycles), %s over the kernels"
                if st.metric == "speedup" else
                "execution time normalized to Conv at %s = %s (cycles / cycles(base)), %s over the kernels")
        out.append(("The paper's figure: " + what + ":\n") % (st.xlabel, st.base, mname))
        out.append(md([st.xlabel] + st.policies, body) + "\n")
        series = st.policies
    else:
        for label, sets, pols in st.points:
            data.append([label] + [sp.get((pol, label), (None, None))[0 if st.metric == "speedup" else 1]
                                   for pol in mechs])
        series = ["%s / Conv (%s)" % (p, "h-mean" if st.metric == "speedup" else "mean") for p in mechs]
    # 3. what explains it: Conv's and the mechanisms' memory wait and SIMD width, mean over kernels
    body = []
    for label, sets, pols in st.points:
        cells = [label]
        for pol in st.policies:
            if pols is not None and pol not in pols:
                cells.append("-")
                continue
            rs = [R.get(st.preset, pol, k, conv_sets(sets) if pol == "Conv" else sets) for k in kernels]
            if any(r is None for r in rs):
                cells.append("-")
                continue
            cells.append("%.0f%% / %.1f / %.2f" % (100 * sum(r["memwait"] for r in rs) / len(rs),
                                                    sum(r["simd_width"] for r in rs) / len(rs),
                                                    sum(r["l1d_miss"] for r in rs) / len(rs)))
        body.append(cells)
    out.append("Mean over the kernels: time waiting for memory / SIMD width per instruction / L1 D miss rate:\n")
    out.append(md([st.xlabel] + st.policies, body) + "\n")
    return "\n".join(out), data, series


def legend_tables(name, R, kernels):
    if name == "legends-001":
        presets, pols = ["dws"], {"dws": speedup.DWS_POLICIES}
        title = "## 001 Fig. 13: the DWS legends over Conv (`dws`) (legends-001)\n"
    else:
        presets = ["maws-coherent", "maws-bulksync"]
        pols = {p: speedup.MAWS_POLICIES for p in presets}
        title = "## 000 Fig. 7: the MAWS legends over Conv on both organizations (legends-000)\n"
    by = {}
    for pr in presets:
        for pol in ["Conv"] + pols[pr]:
            for k in kernels:
                r = R.get(pr, pol, k, ())
                c = R.get(pr, "Conv", k, ())
                if r is not None:
                    r = dict(r)
                    if c is not None:
                        r["speedup"] = c["cycles"] / r["cycles"]
                    by[(pr, pol, k)] = r
    pairs = [(pr, pol) for pr in presets for pol in ["Conv"] + pols[pr]]
    text = title + "\n".join(speedup.tables(by, presets, pairs, kernels)) + "\n"
    # gnuplot: one block per preset; rows = kernels + h-mean, columns = policies
    blocks = []
    for pr in presets:
        rows = []
        for k in kernels + ["h-mean"]:
            if k == "h-mean":
                rows.append([k] + [W.hmean([by.get((pr, pol, kk), {}).get("speedup") for kk in kernels])
                                   for pol in pols[pr]])
            else:
                rows.append([k] + [by.get((pr, pol, k), {}).get("speedup") for pol in pols[pr]])
        blocks.append((pr, pols[pr], rows))
    return text, blocks


def memwait_table(R, kernels):
    body = []
    cw, rw, cs, rs = [], [], [], []
    for k in kernels:
        c, r = R.get("dws", "Conv", k, ()), R.get("dws", "DWS.ReviveSplit", k, ())
        if c is None or r is None:
            body.append([k, "-", "-", "-", "-"])
            continue
        cw.append(c["memwait"]), rw.append(r["memwait"]), cs.append(c["simd_width"]), rs.append(r["simd_width"])
        body.append([k, "%.0f%%" % (100 * c["memwait"]), "%.0f%%" % (100 * r["memwait"]),
                     "%.1f" % c["simd_width"], "%.1f" % r["simd_width"]])
    if len(cw) == len(kernels):
        body.append(["mean", "%.0f%%" % (100 * W.amean(cw)), "%.0f%%" % (100 * W.amean(rw)),
                     "%.1f" % W.amean(cs), "%.1f" % W.amean(rs)])
    body.append(["001 §5.5 (average)", "76%", "36%", "14", "4"])
    return ("## 001 §5.5: time waiting for memory and SIMD width, Conv -> DWS.ReviveSplit (`dws`) (memwait-001)\n\n"
            "Waiting = WPU cycles in which nothing issues and a group waits on memory, over issue + waiting + "
            "idle cycles (`cycles_memwait`); SIMD width = thread-instructions / SIMD instructions.\n\n"
            + md(["kernel", "Conv waiting", "ReviveSplit waiting", "Conv SIMD width", "ReviveSplit SIMD width"],
                 body) + "\n")


# ---------------------------------------------------------------------------- plots
def dat_cell(v):
    return "NaN" if v is None else "%.4f" % v


def q(s):
    return '"%s"' % s.replace('"', "'")


def write_line_plot(out, st, data, series):
    """NAME.dat + NAME.gp: one line per series over the points (categorical x)."""
    with open(os.path.join(out, st.name + ".dat"), "w") as f:
        f.write("# %s: %s; columns: %s\n" % (st.paper, st.title, ", ".join([st.xlabel] + series)))
        for row in data:
            f.write(" ".join([q(row[0])] + [dat_cell(v) for v in row[1:]]) + "\n")
    if st.base is not None:
        ylabel = ("speedup over Conv at %s (h-mean)" % st.base if st.metric == "speedup"
                  else "time / Conv at %s (average)" % st.base)
    else:
        ylabel = "speedup over Conv (same point)"
    plots = ", ".join("'%s.dat' using 0:%d:xtic(1) with linespoints lw 2 pt %d title %s"
                      % (st.name, i + 2, i + 5, q(s)) for i, s in enumerate(series))
    gp_body(out, st.name, "%s: %s" % (st.paper, st.title), st.xlabel, ylabel,
            "set xrange [-0.3:%g]\n" % (len(data) - 0.7), plots, hline=st.base is None)


def write_bar_plot(out, name, title, blocks):
    with open(os.path.join(out, name + ".dat"), "w") as f:
        for i, (pr, pols, rows) in enumerate(blocks):
            if i:
                f.write("\n\n")
            f.write("# preset %s; columns: kernel, %s\n" % (pr, ", ".join(pols)))
            for row in rows:
                f.write(" ".join([q(row[0])] + [dat_cell(v) for v in row[1:]]) + "\n")
    n = len(blocks)
    plots = []
    for i, (pr, pols, rows) in enumerate(blocks):
        cols = ", ".join("'%s.dat' index %d using %d%s title %s" % (name, i, j + 2, ":xtic(1)" if j == 0 else "",
                                                                    q(p) if i == 0 or blocks[0][1] != pols else
                                                                    "''")
                         for j, p in enumerate(pols))
        plots.append((pr, cols))
    gp_body(out, name, title, "", "speedup over Conv", "set style data histograms\n"
            "set style histogram clustered gap 1\nset style fill solid 0.85 border -1\nset boxwidth 0.9\n"
            "set xtics rotate by -30\nset yrange [0:*]\n", plots, hline=True, panels=n)


def gp_body(out, name, title, xlabel, ylabel, setup, plots, hline=False, panels=1):
    """NAME.gp: PNG (libgd's png terminal: palette images, a few KB) and SVG."""
    w = 520 * panels if panels > 1 else 600
    colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
              "#17becf"]
    lines = ["# generated by scripts/figures.py", "set datafile missing 'NaN'", "set grid ytics"]
    lines += ["set linetype %d lc rgb '%s'" % (i + 1, c) for i, c in enumerate(colors)]
    lines += ["set key below font ',8'", "set ylabel %s" % q(ylabel), "set xlabel %s" % q(xlabel),
              setup.rstrip("\n")]
    if hline:
        lines.append("set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'gray40'")
    for term, ext in (("png size %d,400 font ',9'" % w, "png"), ("svg size %d,400 font ',9'" % w, "svg")):
        lines += ["set terminal " + term, "set output '%s.%s'" % (name, ext)]
        if not isinstance(plots, str):
            lines.append("set multiplot layout 1,%d title %s" % (panels, q(title)))
            for pr, cols in plots:
                lines += ["set title %s" % q("preset " + pr), "plot " + cols]
            lines.append("unset multiplot")
        else:
            lines += ["set title %s" % q(title), "plot " + plots]
        lines.append("unset output")
    with open(os.path.join(out, name + ".gp"), "w") as f:
        f.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------- main
STUDIES = {s.name: s for s in studies()}


def check(rows):
    """Every run against Conv at the same point: results and per-thread instruction counts."""
    conv = {(r["preset"], r["kernel"], r["arg"], r["task"], tuple(r["sets"])): r for r in rows
            if r["policy"] == "Conv" and "error" not in r}
    bad = []
    for r in rows:
        name = "%s %s %s%s" % (r["preset"], r["policy"], r["kernel"], "".join(" " + s for s in r["sets"]))
        if "error" in r:
            bad.append("%s: %s" % (name, r["error"]))
            continue
        c = conv.get((r["preset"], r["kernel"], r["arg"], r["task"], tuple(r["sets"])))
        if c is None:
            # mechanism keys: Conv's run is the one without them
            c = conv.get((r["preset"], r["kernel"], r["arg"], r["task"],
                          tuple(s for s in r["sets"] if not s.startswith("dws_"))))
        if c is None:
            bad.append("%s: no Conv run to compare with" % name)
        elif r["results_sha256"] != c["results_sha256"]:
            bad.append("%s: results differ from Conv's" % name)
        elif r["thread_insts"] != c["thread_insts"] or r["instret_hash"] != c["instret_hash"]:
            bad.append("%s: thread instructions differ from Conv's" % name)
    return bad


def study_pages(args, R, resdir, out):
    """A report page per study (scripts/report.py): its policies on the first
    kernel at its first point, side by side. [(study, page file)]."""
    pages = []
    k = args.kernels[0]
    for name in args.studies:
        if name in ("legends-001", "memwait-001"):
            keys = [("dws", p, ()) for p in ["Conv"] + (speedup.DWS_POLICIES if name == "legends-001"
                                                          else ["DWS.ReviveSplit"])]
        elif name == "legends-000":
            keys = [("maws-coherent", p, ()) for p in ["Conv"] + speedup.MAWS_POLICIES]
        else:
            st = STUDIES[name]
            label, sets, pols = st.points[0]
            keys = [(st.preset, p, () if (p == "Conv" and st.conv_fixed) else sets) for p in pols or st.policies]
        found = [(p, R.get(pr, p, k, s)) for pr, p, s in keys]
        found = [(p, r) for p, r in found if r and os.path.isfile(os.path.join(resdir, r["name"] + ".json"))]
        if not found:
            continue
        runs = [report.load_run(os.path.join(resdir, r["name"] + ".json")) for _, r in found]
        page = report.build(runs, [p for p, _ in found], {}, "WarpSplit %s: %s (size %s)" % (name, k, args.size))
        with open(os.path.join(out, name + ".html"), "w", encoding="utf-8") as f:
            f.write(page)
        pages.append((name, name + ".html"))
    return pages


def build_outputs(args, rows, resdir):
    R = Results(args, rows)
    out = args.out
    os.makedirs(out, exist_ok=True)
    K = args.kernels
    mapping = "default build" if args.task == "default" else "tasks build, --task %s (%s)" % (
        args.task, ", ".join("%s %s" % (k, task_value(args.task, k)) for k in K))
    bad = check(rows)
    head = ("# WarpSplit figures\n\nscripts/figures.py: size %s (--arg %d), seed %d, %s%s; %d runs; results and "
            "per-thread instruction counts against Conv at the same point: %s\n"
            % (args.size, args.arg, args.seed, mapping, "".join(" --set " + s for s in args.set or []), len(rows),
               "all identical" if not bad else "%d FAILED" % len(bad)))
    parts = [head]
    plotted = []
    for name in args.studies:
        if name in LEGEND_STUDIES:
            text, blocks = legend_tables(name, R, K)
            write_bar_plot(out, name, "001 Fig. 13: DWS legends over Conv" if name == "legends-001"
                           else "000 Fig. 7: MAWS legends over Conv", blocks)
            plotted.append(name)
        elif name == "memwait-001":
            text = memwait_table(R, K)
        else:
            st = STUDIES[name]
            text, data, series = study_tables(st, R, K)
            write_line_plot(out, st, data, series)
            plotted.append(name)
        with open(os.path.join(out, name + ".md"), "w") as f:
            f.write(text)
        parts.append(text)
    pages = study_pages(args, R, resdir, out)
    if pages:
        parts.append("Report pages (scripts/report.py: a study's policies side by side on %s, at its first point): %s\n"
                     % (K[0], ", ".join("[%s](%s)" % (n, p) for n, p in pages)))
    if bad:
        parts.append("## FAILED checks\n\n" + "\n".join("- " + b for b in bad) + "\n")
    with open(os.path.join(out, "index.md"), "w") as f:
        f.write("\n".join(parts))
    with open(os.path.join(out, "rows.json"), "w") as f:
        json.dump(rows, f, indent=1)
    sys.stdout.write("\n".join(parts))
    for b in bad[:10]:
        sys.stderr.write("figures: FAIL %s\n" % b)
    if len(bad) > 10:
        sys.stderr.write("figures: ... and %d more failed checks (index.md lists them all)\n" % (len(bad) - 10))
    if args.no_plots:
        return bad
    gp = shutil.which("gnuplot")
    if gp is None:
        sys.stderr.write("figures: gnuplot not found: the tables and the plots' .dat/.gp files are in %s, no PNG/SVG; "
                         "install Debian's gnuplot-nox (sh scripts/setup.sh, or apt-get install gnuplot-nox) and "
                         "run `cd %s && gnuplot *.gp`\n" % (out, out))
        return bad
    for name in plotted:
        with open(os.path.join(out, name + ".dat")) as f:
            if not any(c not in ("NaN",) and not c.startswith('"') for line in f if not line.startswith("#")
                       for c in line.split()):
                sys.stderr.write("figures: %s: no data to plot\n" % name)
                continue
        p = subprocess.run([gp, name + ".gp"], cwd=out, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            sys.stderr.write("figures: gnuplot %s.gp failed: %s\n" % (name, p.stdout.strip()[-300:]))
    sys.stderr.write("figures: %d tables and %d plots (PNG, SVG) in %s\n" % (len(args.studies), len(plotted), out))
    return bad


def run_extra(args):
    """The existing DoM / LWM experiment scripts, their Markdown into --out."""
    for e in args.extra:
        script = {"dom": "dom_experiments.py", "lwm": "lwm_experiments.py"}[e]
        dest = os.path.join(args.out, e + "-experiments.md")
        cmd = [sys.executable, os.path.join(ROOT, "scripts", script), "--size", args.size, "--jobs", str(args.jobs),
               "--markdown", dest, "--build", args.build]
        sys.stderr.write("figures: %s\n" % " ".join(cmd))
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL)
        if p.returncode != 0:
            sys.stderr.write("figures: %s exit %d (its tables: %s)\n" % (script, p.returncode, dest))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", choices=SIZES, default="tiny")
    p.add_argument("--task", default="paper", help="task mapping (docs/tasks.md; default paper)")
    p.add_argument("--studies", default=",".join(ALL), help="comma-separated (default all; --list)")
    p.add_argument("--kernels", default=",".join(KERNELS))
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="parallel runs (default: cores)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="extra configuration for every run")
    p.add_argument("--out", help="output folder (default build/figures/SIZE)")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--no-plots", action="store_true", help="tables and .dat/.gp files only")
    p.add_argument("--extra", help="also run the existing experiment scripts: dom, lwm, or none (their own runs; "
                   "default: both at tiny, where they take ~1.5 min, none at the larger sizes)")
    p.add_argument("--emit-jobs", metavar="FILE", help="write the runs as a job list (one shell line each), run nothing")
    p.add_argument("--merge", metavar="DIR", help="build the tables from the result files in DIR, run nothing")
    p.add_argument("--resume", action="store_true",
                   help="keep the results already in the results folder (an interrupted sweep), run the rest")
    p.add_argument("--list", action="store_true", help="list the studies and exit")
    args = p.parse_args()

    def die(msg):
        sys.stderr.write("figures: %s\n" % msg)
        sys.exit(2)

    args.studies = [s for s in args.studies.split(",") if s]
    for s in args.studies:
        if s not in ALL:
            die("--studies %s: unknown (studies: %s)" % (s, ", ".join(ALL)))
    args.kernels = [k for k in args.kernels.split(",") if k]
    for k in args.kernels:
        if k not in KERNELS:
            die("--kernels %s: expected some of %s" % (k, ",".join(KERNELS)))
    if not args.kernels or not args.studies:
        die("nothing to do: --kernels and --studies must name at least one")
    auto = args.extra is None
    if auto:
        args.extra = "dom,lwm" if args.size == "tiny" else "none"
    args.extra = [e for e in args.extra.split(",") if e and e != "none"]
    for e in args.extra:
        if e not in ("dom", "lwm"):
            die("--extra %s: expected dom or lwm" % e)
    if args.jobs < 1:
        die("--jobs %d: expected at least 1" % args.jobs)
    if args.emit_jobs and args.merge:
        die("--emit-jobs and --merge: one at a time (emit, run the jobs, then merge)")
    args.arg = SIZES[args.size]
    args.out = args.out or os.path.join(args.build, "figures", args.size)
    if args.list:
        for s in ALL:
            st = STUDIES.get(s)
            a = argparse.Namespace(**vars(args))
            a.studies = [s]
            print("%-13s %4d runs  %s" % (s, len(plan(a)), "%s: %s" % (st.paper, st.title) if st else
                                           {"legends-001": "001 Fig. 13: the DWS legends (scripts/speedup.py)",
                                            "legends-000": "000 Fig. 7: the MAWS legends, both organizations",
                                            "memwait-001": "001 §5.5: memory wait 76% -> 36%, SIMD width 14 -> 4"}[s]))
        print("all          %4d runs (shared runs once)" % len(plan(args)))
        return 0
    for k in args.kernels:
        task_value(args.task, k)  # exits 2 on a bad mapping
    runs = plan(args)
    resdir = args.merge or os.path.join(args.out, "runs")
    if args.emit_jobs:
        W.emit(runs, args.build, resdir, args.emit_jobs)
        sys.stderr.write("figures: %d jobs in %s (run from %s: `parallel -j N < %s`, or a Slurm array running line "
                         "$SLURM_ARRAY_TASK_ID); then: scripts/figures.py [same options] --merge %s\n"
                         % (len(runs), args.emit_jobs, ROOT, args.emit_jobs, resdir))
        return 0
    if not args.merge:
        need = [os.path.join(args.build, "wpusim")] + sorted({W.elf_path(args.build, r) for r in runs})
        missing = [x for x in need if not os.path.exists(x)]
        if missing:
            die("not built: %s (run make && make kernels)" % ", ".join(missing[:4]))
        sys.stderr.write("figures: %d runs at size %s, --jobs %d: about %s (%.2f core-s a run guessed)\n"
                         % (len(runs), args.size, args.jobs,
                            W.fmt_s(len(runs) * RUN_SECONDS[args.size] / args.jobs), RUN_SECONDS[args.size]))
        todo = [r for r in runs if not (args.resume and W.have_result(r, resdir))]
        if len(todo) < len(runs):
            sys.stderr.write("figures: --resume: %d of the runs have results in %s\n" % (len(runs) - len(todo), resdir))
        wall = W.execute(todo, args.build, resdir, args.jobs, prog="figures")
        sys.stderr.write("figures: %d runs in %s\n" % (len(runs), W.fmt_s(wall)))
    elif not os.path.isdir(args.merge):
        die("--merge %s: not a directory" % args.merge)
    rows = W.collect(runs, resdir)
    bad = build_outputs(args, rows, resdir)
    if args.extra and not args.merge:
        run_extra(args)
    elif auto and not args.merge:
        sys.stderr.write("figures: 002's and 004's experiments not run at size %s (--extra dom,lwm runs them: "
                         "~20 and ~10 min at small)\n" % args.size)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
