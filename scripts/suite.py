#!/usr/bin/env python3
"""Run a benchmark suite on wpusim and print its characterization.

    scripts/suite.py [--size tiny|small|paper] [--arg N] [--config PRESET] [--kernels a,b,...]
                     [--threads N] [--jobs J] [--json FILE] [--markdown FILE] [--set KEY=VALUE ...]

For every kernel: one wpusim run (statistics as JSON, results dumped) and one
run of its host build (build/host/NAME, the same C source) with the same
threads, seed and argument; the results must be byte-identical. Prints, per
kernel, the characterization of seed 001 Table 1 and 000 Table 2 (beside
000 Table 2's own numbers) and the
time waiting for memory, and the host-check status. Exits 1 if any check
failed. Standard library only.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DWS_KERNELS = ["fft", "filter", "hotspot", "lu", "merge", "short", "kmeans", "svm"]
SIZES = {"tiny": 0, "small": 1, "paper": 2}
# 000 Table 2: non-loop conditional branches and divergent conditional branches
# within an interval of 1 M cycles (4 WPUs x 8 warps x 8 threads, 000 Table 3).
PAPER_000_T2 = {"fft": (1399, 45), "filter": (0, 0), "hotspot": (26948, 169), "lu": (0, 0),
                "merge": (19785, 6829), "short": (24240, 5555), "kmeans": (4764, 1495), "svm": (0, 0)}


def run_one(args, kernel, build, tmp):
    arg = SIZES[args.size] if args.arg is None else args.arg
    elf = os.path.join(build, "kernels", kernel + ".elf")
    host = os.path.join(build, "host", kernel)
    sim_dump = os.path.join(tmp, kernel + ".sim")
    host_dump = os.path.join(tmp, kernel + ".host")
    stats_file = os.path.join(tmp, kernel + ".json")
    cmd = [os.path.join(build, "wpusim"), "--config", args.config, "--stats", "json", "--stats-out", stats_file,
           "--seed", str(args.seed), "--arg", str(arg), "--dump", sim_dump]
    if args.threads:
        cmd += ["--threads", str(args.threads)]
    for kv in args.set or []:
        cmd += ["--set", kv]
    cmd.append(elf)
    t0 = time.monotonic()
    sim = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    row = {"kernel": kernel, "arg": arg, "sim_exit": sim.returncode, "wall_s": wall,
           "command": " ".join(cmd)}
    if not os.path.exists(stats_file):
        row["check"] = "sim error: " + sim.stderr.strip().splitlines()[0] if sim.stderr.strip() else "sim error"
        return row
    with open(stats_file) as f:
        st = json.load(f)
    threads = st["threads"]["count"]
    t0 = time.monotonic()
    ref = subprocess.run([host, "--quiet", "--threads", str(threads), "--seed", str(args.seed), "--arg", str(arg),
                          "--dump", host_dump], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
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


def table(rows):
    lines = [" ".join(format(h, a) for _, h, a, _ in COLUMNS)]
    for r in rows:
        cells = []
        for key, _, align, spec in COLUMNS:
            v = r.get(key)
            cells.append(format(v if isinstance(v, str) else fmt(v, spec), align))
        lines.append(" ".join(cells))
    return "\n".join(lines)


def markdown(rows):
    out = ["| " + " | ".join(h for _, h, _, _ in COLUMNS) + " |",
           "|" + "---|" * len(COLUMNS)]
    for r in rows:
        out.append("| " + " | ".join(r.get(k) if isinstance(r.get(k), str) else fmt(r.get(k), s)
                                   for k, _, _, s in COLUMNS) + " |")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", choices=SIZES, default="tiny")
    p.add_argument("--config", default="dws", help="preset name or configuration file (default dws)")
    p.add_argument("--kernels", default=",".join(DWS_KERNELS))
    p.add_argument("--arg", type=int, help="kernel argument instead of the size's (e.g. 3: svm's 100,000 vectors)")
    p.add_argument("--threads", type=int, default=0, help="default: one per hardware context")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="configuration override for wpusim")
    p.add_argument("--json", help="write the rows as JSON")
    p.add_argument("--markdown", help="write the table as Markdown")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = p.parse_args()
    kernels = [k for k in args.kernels.split(",") if k]
    missing = [k for k in kernels if not os.path.exists(os.path.join(args.build, "kernels", k + ".elf"))]
    if missing:
        sys.exit("suite: not built: %s (run make kernels host-kernels)" % ", ".join(missing))
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda k: run_one(args, k, args.build, tmp), kernels))
    print("suite: size %s (arg %d), config %s%s, seed %d" % (
        args.size, SIZES[args.size] if args.arg is None else args.arg, args.config, "".join(" --set " + s for s in args.set or []), args.seed))
    print(table(rows))
    print("insts = SIMD (warp) instructions; div-br% = divergent / conditional branches; div-mem% = SIMD "
          "accesses with hits and misses / with a miss; memwait% = WPU cycles waiting on memory; "
          "nl-br% = non-loop / conditional branches; nlbr/Mc, divbr/Mc = non-loop (no loop's back edge or exit) and divergent conditional branches "
          "per million cycles, whole machine, beside 000 Table 2's (000)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(rows) + "\n")
    failed = [r["kernel"] for r in rows if r.get("check") != "ok"]
    if failed:
        print("suite: FAILED: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
