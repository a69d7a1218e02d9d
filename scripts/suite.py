#!/usr/bin/env python3
"""Run a benchmark suite on wpusim and print its characterization.

    scripts/suite.py [--suite dws|dom] [--size tiny|small|paper] [--arg N] [--config PRESET]
                     [--kernels a,b,...] [--task MAPPING] [--calibrate M1,M2,...]
                     [--threads N] [--jobs J] [--json FILE] [--markdown FILE] [--set KEY=VALUE ...]

--task picks the task mapping (docs/tasks.md): `default` (the default build,
one item per task), or the tasks build (build/kernels/tasks/) with `elem`
(one item per task), `chunk` (one contiguous chunk per thread), K (tiles of
K items) or `paper` (per kernel, the mapping whose characterization is
nearest 001 Table 1: PAPER_TASK below). --calibrate runs the suite once per
listed mapping and prints, per kernel, each mapping's distance to 001 Table 1
and the nearest (how PAPER_TASK was chosen).

For every kernel: one wpusim run (statistics as JSON, results dumped) and one
run of its host build (build/host/NAME, the same C source) with the same
threads, seed and argument; the results must be byte-identical. Prints, per
kernel, the characterization of seed 001 Table 1 and 000 Table 2 (beside
000 Table 2's own numbers) and the
time waiting for memory, and the host-check status. --suite dom runs the six
kernels of seed 002 §7.3 instead and prints 002 Table 3's characterization
(instructions per memory operation, off-chip bandwidth, instructions per
second) beside 002's numbers. Exits 1 if any check failed. Standard library only.
"""
import argparse
import concurrent.futures
import json
import math
import os
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsim_runs import measured  # noqa: E402  (the region of interest when a kernel marks one)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DWS_KERNELS = ["fft", "filter", "hotspot", "lu", "merge", "short", "kmeans", "svm"]
DOM_KERNELS = ["nl", "lj", "sa", "rt", "km", "gf"]  # seed 002 §7.3, Table 3's order
SUITES = {"dws": DWS_KERNELS, "dom": DOM_KERNELS}
SIZES = {"tiny": 0, "small": 1, "paper": 2}
# 002 Table 3 (32 cores x 32 lanes at 2 GHz, 256 GB/s, §7.2; blocking, no diverge on
# miss): instructions per memory operation; off-chip bandwidth in GB/s and
# instructions per second (002: "MInst/sec"; its peak 2048 is 32 x 32 lanes x 2 GHz,
# so we read it as thread-instructions, in G/s, whole chip), each as A/B = 1 / 16
# warps per core.
PAPER_002_T3 = {"nl": (19, "8.15/111.4", "156/2048"), "lj": (25, "26.34/256", "204/1599"),
                "sa": (7, "62.77/256", "57/445"), "rt": (15, "30.60/256", "124/767"),
                "km": (5, "26/256", "2048/634"), "gf": (8, "77.91/256", "65/215")}
# 000 Table 2: non-loop conditional branches and divergent conditional branches
# within an interval of 1 M cycles (4 WPUs x 8 warps x 8 threads, 000 Table 3).
# 001 Table 1: insts between branches, % divergent branches, insts between misses,
# insts between divergent misses, % divergent memory accesses.
PAPER_001_T1 = {"fft": (59, 3.4, 7, 10, 69), "filter": (12, 0.0, 27, 30, 88), "hotspot": (16, 1.4, 7, 10, 77),
                "lu": (53, 4.3, 5, 6, 81), "merge": (9, 13.1, 45, 75, 60), "short": (19, 22.0, 6, 8, 79),
                "kmeans": (10, 2.0, 47, 57, 83), "svm": (12, 4.3, 11, 17, 62)}
# The paper-reproduction mapping per kernel (--task paper): of the mappings of
# `--calibrate default,chunk,4,16,32` on `dws`, the one with the smallest distance
# to 001 Table 1 summed over the small and the paper size, ties within 0.01 going to
# chunk (KMeans: tiles of 16 are 0.002 nearer; docs/characterization.md); never chosen
# by speedup.
PAPER_TASK = {"fft": "4", "filter": "chunk", "hotspot": "chunk", "lu": "chunk",
              "merge": "chunk", "short": "chunk", "kmeans": "chunk", "svm": "chunk"}
TASK_NAMES = {"elem": 0, "chunk": 1}
PAPER_000_T2 = {"fft": (1399, 45), "filter": (0, 0), "hotspot": (26948, 169), "lu": (0, 0),
                "merge": (19785, 6829), "short": (24240, 5555), "kmeans": (4764, 1495), "svm": (0, 0)}


def task_value(spec, kernel):
    """The --task value of mapping spec for kernel, or None for the default build."""
    if spec == "paper":
        if kernel not in PAPER_TASK:
            sys.stderr.write("suite: --task paper: no paper mapping for %s (kernels: %s)\n"
                             % (kernel, ", ".join(PAPER_TASK)))
            sys.exit(2)
        spec = PAPER_TASK[kernel]
    if spec == "default":
        return None
    if spec in TASK_NAMES:
        return TASK_NAMES[spec]
    if spec.isdigit() and int(spec) >= 2:
        return int(spec)
    sys.stderr.write("suite: --task %s: expected default, elem, chunk, paper or a tile size >= 2\n" % spec)
    sys.exit(2)


def distance(row):
    """How far a row's characterization is from 001 Table 1: the divergent-access share and
    the branch divergence in points / 100, the instructions between misses as |log10| of
    the ratio (a factor of 10 counts as much as 100 points)."""
    paper = PAPER_001_T1.get(row["kernel"])
    if paper is None or row.get("div_mem_pct") is None or not row.get("insts_per_miss"):
        return None
    return (abs(row["div_mem_pct"] - paper[4]) / 100.0 + abs(row["div_branch_pct"] - paper[1]) / 100.0
            + abs(math.log10(row["insts_per_miss"] / paper[2])))


def run_one(args, kernel, build, tmp):
    arg = SIZES[args.size] if args.arg is None else args.arg
    task = task_value(args.task, kernel)
    sub_dir = "" if task is None else "tasks"
    elf = os.path.join(build, "kernels", sub_dir, kernel + ".elf")
    host = os.path.join(build, "host", sub_dir, kernel)
    tag = "%s.%s" % (kernel, args.task)
    sim_dump = os.path.join(tmp, tag + ".sim")
    host_dump = os.path.join(tmp, tag + ".host")
    stats_file = os.path.join(tmp, tag + ".json")
    cmd = [os.path.join(build, "wpusim"), "--config", args.config, "--stats", "json", "--stats-out", stats_file,
           "--seed", str(args.seed), "--arg", str(arg), "--dump", sim_dump]
    if task is not None:
        cmd += ["--task", str(task)]
    if args.threads:
        cmd += ["--threads", str(args.threads)]
    for kv in args.set or []:
        cmd += ["--set", kv]
    cmd.append(elf)
    t0 = time.monotonic()
    sim = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    shown = PAPER_TASK[kernel] if args.task == "paper" else args.task
    row = {"kernel": kernel, "arg": arg, "task": shown, "task_value": task, "mapping": args.task,
           "sim_exit": sim.returncode, "wall_s": wall, "command": " ".join(cmd)}
    if not os.path.exists(stats_file):
        row["check"] = "sim error: " + sim.stderr.strip().splitlines()[0] if sim.stderr.strip() else "sim error"
        return row
    with open(stats_file) as f:
        st = measured(json.load(f))
    threads = st["threads"]["count"]
    t0 = time.monotonic()
    ref = subprocess.run([host, "--quiet", "--threads", str(threads), "--seed", str(args.seed), "--arg", str(arg),
                          "--dump", host_dump] + ([] if task is None else ["--task", str(task)]), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    row["host_s"] = time.monotonic() - t0
    if sim.returncode != 0:
        row["check"] = "FAIL (wpusim exit %d)" % sim.returncode
    elif ref.returncode != 0:
        row["check"] = "FAIL (host exit %d)" % ref.returncode
    else:
        with open(sim_dump, "rb") as a, open(host_dump, "rb") as b:
            row["check"] = "ok" if a.read() == b.read() else "FAIL (results differ)"
    t = st["total"]
    mem = st.get("memory", {})
    l1d = mem.get("l1d", {})
    wpus = len(st["wpu"])
    per = lambda n, d: (n / d) if d else None
    row.update({
        "threads": threads,
        "cycles": st["cycles"],
        "warp_insts": t["warp_insts"],
        "thread_insts": t["thread_insts"],
        "simd_eff": t["simd_efficiency"],
        "l1d_miss_rate": per(l1d.get("misses", 0), l1d.get("accesses", 0)),
        "insts_per_branch": per(t["warp_insts"], t["branches"]),
        "div_branch_pct": per(100.0 * t["div_branches"], t["branches"]),
        "div_branches_per_kinst": per(1000.0 * t["div_branches"], t["warp_insts"]),
        "insts_per_miss": per(t["warp_insts"], t["mem_miss_insts"]),
        "insts_per_div_miss": per(t["warp_insts"], t["mem_div_insts"]),
        "div_mem_pct": per(100.0 * t["mem_div_insts"], t["mem_miss_insts"]),
        "div_mem_per_kinst": per(1000.0 * t["mem_div_insts"], t["warp_insts"]),
        "memwait_pct": per(100.0 * t["cycles_memwait"], st["cycles"] * wpus),
        "nonloop_branches": t["nonloop_branches"],
        "nonloop_div_branches": t["nonloop_div_branches"],
        "nonloop_pct": per(100.0 * t["nonloop_branches"], t["branches"]),
        "nonloop_per_mcycle": per(1e6 * t["nonloop_branches"], st["cycles"]),
        "nonloop_per_mcycle_000": PAPER_000_T2.get(kernel, (None, None))[0],
        "div_branches_per_mcycle": per(1e6 * t["div_branches"], st["cycles"]),
        "div_branches_per_mcycle_000": PAPER_000_T2.get(kernel, (None, None))[1],
        "div_degree": st.get("div_degree", []),
    })
    row["distance_001"] = distance(row)
    # 002 Table 3: seconds of the run at the configured clock; off-chip = DRAM traffic.
    secs = st["cycles"] / (st["config"].get("core_mhz", 1000) * 1e6) if st["cycles"] else None
    dram = mem.get("dram", {})
    t3 = PAPER_002_T3.get(kernel, (None, None, None))
    row.update({
        "insts_per_memop": per(t["warp_insts"], t["loads"] + t["stores"]),
        "insts_per_memop_002": t3[0],
        "offchip_gbps": per(dram.get("bytes", 0) / 1e9, secs),
        "offchip_gbps_002": t3[1],
        "ginst_per_s": per(t["thread_insts"] / 1e9, secs),
        "ginst_per_s_002": t3[2],
        "warps_per_wpu": st["config"].get("warps"),
    })
    return row


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


COLUMNS = [
    ("kernel", "kernel", "<9", "s"),
    ("cycles", "cycles", ">12", "d"),
    ("thread_insts", "thread-insts", ">13", "d"),
    ("simd_eff", "SIMD-eff", ">8", ".3f"),
    ("l1d_miss_rate", "L1D-miss", ">8", ".3f"),
    ("insts_per_branch", "insts/br", ">8", ".1f"),
    ("div_branch_pct", "div-br%", ">7", ".1f"),
    ("div_branches_per_kinst", "divbr/ki", ">8", ".2f"),
    ("insts_per_miss", "insts/miss", ">10", ".1f"),
    ("div_mem_pct", "div-mem%", ">8", ".1f"),
    ("div_mem_per_kinst", "divmem/ki", ">9", ".2f"),
    ("memwait_pct", "memwait%", ">8", ".1f"),
    ("nonloop_pct", "nl-br%", ">6", ".1f"),
    ("nonloop_per_mcycle", "nlbr/Mc", ">8", ".0f"),
    ("nonloop_per_mcycle_000", "000", ">6", "d"),
    ("div_branches_per_mcycle", "divbr/Mc", ">8", ".0f"),
    ("div_branches_per_mcycle_000", "000", ">5", "d"),
    ("wall_s", "wall-s", ">8", ".1f"),
    ("check", "host-check", "<10", "s"),
]


# Ours beside 001 Table 1, per kernel.
T1_COLUMNS = [("insts_per_branch", 0, ".1f"), ("div_branch_pct", 1, ".1f"), ("insts_per_miss", 2, ".1f"),
              ("insts_per_div_miss", 3, ".1f"), ("div_mem_pct", 4, ".1f")]


def table_001(rows):
    lines = ["%-9s %-7s %15s %15s %15s %15s %15s %6s" % ("kernel", "task", "insts/br", "div-br%", "insts/miss",
                                                         "insts/div-miss", "div-mem%", "dist")]
    for r in rows:
        paper = PAPER_001_T1.get(r["kernel"])
        cells = []
        for key, i, spec in T1_COLUMNS:
            cells.append("%7s | %5s" % (fmt(r.get(key), spec), "-" if paper is None else format(paper[i], "g")))
        lines.append("%-9s %-7s %s %6s" % (r["kernel"], r.get("task", "-"), " ".join("%15s" % c for c in cells),
                                           fmt(r.get("distance_001"), ".2f")))
    return "\n".join(lines)


# --suite dom: 002 Table 3's columns beside the basic characterization.
DOM_COLUMNS = [
    ("kernel", "kernel", "<7", "s"),
    ("warps_per_wpu", "warps", ">5", "d"),
    ("cycles", "cycles", ">11", "d"),
    ("thread_insts", "thread-insts", ">13", "d"),
    ("simd_eff", "SIMD-eff", ">8", ".3f"),
    ("l1d_miss_rate", "L1D-miss", ">8", ".3f"),
    ("insts_per_memop", "insts/mem", ">9", ".1f"),
    ("insts_per_memop_002", "002", ">4", "d"),
    ("offchip_gbps", "GB/s", ">7", ".2f"),
    ("offchip_gbps_002", "002 (1/16 w)", ">12", "s"),
    ("ginst_per_s", "Ginst/s", ">8", ".1f"),
    ("ginst_per_s_002", "002 (1/16 w)", ">12", "s"),
    ("div_branch_pct", "div-br%", ">7", ".1f"),
    ("div_mem_pct", "div-mem%", ">8", ".1f"),
    ("memwait_pct", "memwait%", ">8", ".1f"),
    ("wall_s", "wall-s", ">7", ".1f"),
    ("check", "host-check", "<10", "s"),
]


def table(rows, columns=COLUMNS):
    lines = [" ".join(format(h, a) for _, h, a, _ in columns)]
    for r in rows:
        cells = []
        for key, _, align, spec in columns:
            v = r.get(key)
            cells.append(format(v if isinstance(v, str) else fmt(v, spec), align))
        lines.append(" ".join(cells))
    return "\n".join(lines)


def markdown(rows, columns=COLUMNS):
    out = ["| " + " | ".join(h for _, h, _, _ in columns) + " |",
           "|" + "---|" * len(columns)]
    for r in rows:
        out.append("| " + " | ".join(r.get(k) if isinstance(r.get(k), str) else fmt(r.get(k), s)
                                   for k, _, _, s in columns) + " |")
    return "\n".join(out)


def calibrate(args, kernels):
    maps = [m for m in args.calibrate.split(",") if m]
    for m in maps:
        for k in kernels:
            task_value(m, k)  # exits 2 on a bad name
    jobs = [(m, k) for m in maps for k in kernels]

    def one(mk):
        a = argparse.Namespace(**vars(args))
        a.task = mk[0]
        return run_one(a, mk[1], args.build, tmp)

    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(one, jobs))
    print("suite: calibration at size %s, config %s, seed %d: distance to 001 Table 1 per mapping" % (
        args.size, args.config, args.seed))
    print("%-9s " % "kernel" + " ".join("%8s" % m for m in maps) + "  nearest")
    failed = []
    for k in kernels:
        ds = []
        for m in maps:
            r = next(r for r in rows if r["kernel"] == k and r["mapping"] == m)
            if r.get("check") != "ok":
                failed.append("%s/%s" % (k, m))
            ds.append(r.get("distance_001"))
        best = min((d, m) for d, m in zip(ds, maps) if d is not None)[1] if any(d is not None for d in ds) else "-"
        print("%-9s " % k + " ".join("%8s" % fmt(d, ".2f") for d in ds) + "  " + best)
    print()
    print(table_001(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    if failed:
        print("suite: FAILED: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--suite", choices=SUITES, default="dws",
                   help="dws: the DWS papers' eight kernels (000/001); dom: 002 §7.3's six (default dws)")
    p.add_argument("--size", choices=SIZES, default="tiny")
    p.add_argument("--config", default="dws", help="preset name or configuration file (default dws)")
    p.add_argument("--kernels", help="comma-separated (default: the suite's kernels)")
    p.add_argument("--arg", type=int, help="kernel argument instead of the size's (e.g. 3: svm's 100,000 vectors)")
    p.add_argument("--threads", type=int, default=0, help="default: one per hardware context")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="configuration override for wpusim")
    p.add_argument("--task", default="default",
                   help="task mapping: default, elem, chunk, K (tiles of K items) or paper (docs/tasks.md)")
    p.add_argument("--calibrate", metavar="M1,M2,...",
                   help="run every listed mapping and print the one nearest 001 Table 1 per kernel")
    p.add_argument("--json", help="write the rows as JSON")
    p.add_argument("--markdown", help="write the table as Markdown")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = p.parse_args()
    kernels = [k for k in (args.kernels or ",".join(SUITES[args.suite])).split(",") if k]
    columns = DOM_COLUMNS if args.suite == "dom" else COLUMNS
    missing = [k for k in kernels if not os.path.exists(os.path.join(args.build, "kernels", k + ".elf"))]
    if missing:
        sys.exit("suite: not built: %s (run make kernels host-kernels)" % ", ".join(missing))
    if args.calibrate:
        return calibrate(args, kernels)
    for k in kernels:
        if task_value(args.task, k) is not None and not os.path.exists(os.path.join(args.build, "kernels", "tasks", k + ".elf")):
            sys.exit("suite: not built: tasks/%s (run make tasks-kernels)" % k)
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda k: run_one(args, k, args.build, tmp), kernels))
    print("suite: size %s (arg %d), config %s%s, seed %d, task %s" % (
        args.size, SIZES[args.size] if args.arg is None else args.arg, args.config,
        "".join(" --set " + s for s in args.set or []), args.seed, args.task))
    print(table(rows, columns))
    if args.suite == "dom":
        print("insts/mem = SIMD (warp) instructions per SIMD load/store; GB/s = DRAM bytes read and written "
              "per second at core_mhz; Ginst/s = thread-instructions per second, whole machine (002's "
              "\"MInst/sec\", peak 2048); 002 = 002 Table 3 (GB/s and Ginst/s as 1 / 16 warps per core, "
              "blocking); div-br% = divergent / conditional branches; div-mem% = SIMD accesses with hits "
              "and misses / with a miss; memwait% = WPU cycles waiting on memory")
    else:
        print("insts = SIMD (warp) instructions; div-br% = divergent / conditional branches; div-mem% = SIMD "
              "accesses with hits and misses / with a miss; memwait% = WPU cycles waiting on memory; "
              "nl-br% = non-loop / conditional branches; nlbr/Mc, divbr/Mc = non-loop (no loop's back edge or exit) and divergent conditional branches "
              "per million cycles, whole machine, beside 000 Table 2's (000)")
        print()
        print("against 001 Table 1 (ours | 001); dist = distance to 001's characterization (suite.py distance())")
        print(table_001(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(rows, columns) + "\n")
    failed = [r["kernel"] for r in rows if r.get("check") != "ok"]
    if failed:
        print("suite: FAILED: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
