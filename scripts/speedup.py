#!/usr/bin/env python3
"""Speedup of the papers' named DWS/MAWS configurations over Conv.

    scripts/speedup.py [--size tiny|small|paper] [--config PRESET ...] [--policies A,B,...]
                       [--kernels a,b,...] [--task MAPPING] [--jobs J] [--markdown FILE] [--json FILE]
                       [--set KEY=VALUE ...]

Runs every kernel under Conv and every policy on every preset (default: the
DWS legends of 001 Fig. 13 on `dws`; the MAWS legends of 000 Fig. 7 on
`maws-coherent` and `maws-bulksync`), checks that every run's results are
byte-identical to Conv's and that it does the same thread instructions, and
prints per kernel speedup = cycles(Conv) / cycles(policy), the harmonic mean
(001) and the arithmetic mean (000: "average performance improvement"), the
mean SIMD width per instruction and the time the WPUs wait for memory, with
the papers' numbers beside them. --task runs the kernels' tasks build with
that task mapping (default, elem, chunk, K or paper, as scripts/suite.py;
docs/tasks.md). Exits 1 if any check failed. Standard library only.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite import task_value  # noqa: E402  (the --task names, one definition)
from wsim_runs import measured, parse_stats, hmean as _hmean  # noqa: E402  (the statistics, one definition)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = ["fft", "filter", "hotspot", "lu", "merge", "short", "kmeans", "svm"]
SIZES = {"tiny": 0, "small": 1, "paper": 2}
DWS_POLICIES = ["DWS.BranchOnly.Stack", "DWS.BranchOnly.PC", "DWS.ReviveSplit.MemOnly", "DWS.AggressSplit",
                "DWS.LazySplit", "DWS.ReviveSplit", "DWS.AggressSplit.BL", "DWS.LazySplit.BL", "DWS.ReviveSplit.BL"]
MAWS_POLICIES = ["MAWS.Aggress", "MAWS.LazySplit", "MAWS.LatSpec", "MAWS.LatSpec.RR"]
DEFAULT = {"dws": DWS_POLICIES, "maws-coherent": MAWS_POLICIES, "maws-bulksync": MAWS_POLICIES}
# What the papers report (means over their eight benchmarks).
PAPER = {
    ("dws", "DWS.BranchOnly.PC"): "1.13 (h-mean, 001 §4.6)",
    ("dws", "DWS.ReviveSplit.MemOnly"): "1.20 (h-mean, 001 §5.5)",
    ("dws", "DWS.ReviveSplit"): "1.71 (h-mean, 001 §5.5)",
    ("dws", "DWS.AggressSplit"): "< 1 (degrades, 001 §5.5)",
    ("dws", "DWS.LazySplit"): "< 1 (degrades, 001 §5.5)",
    ("dws", "DWS.AggressSplit.BL"): "~1 (little gain, 001 Fig. 11)",
    ("dws", "DWS.LazySplit.BL"): "~1 (little gain, 001 Fig. 11)",
    ("dws", "DWS.ReviveSplit.BL"): "~1 (little gain, 001 Fig. 11)",
    ("maws-coherent", "MAWS.LatSpec"): "1.17 (mean, 000 §7.1)",
    ("maws-coherent", "MAWS.LazySplit"): "1.07 (mean, 000 §7.1)",
    ("maws-coherent", "MAWS.Aggress"): "down to 0.92 on some (000 §7.1)",
    ("maws-coherent", "MAWS.LatSpec.RR"): "little gain exc. KMeans (000 §7.1)",
    ("maws-bulksync", "MAWS.LatSpec"): "1.15 (mean, 000 §7.1)",
    ("maws-bulksync", "MAWS.LazySplit"): "1.12 (mean, 000 §7.1)",
    ("maws-bulksync", "MAWS.Aggress"): "down to 0.87 on some (000 §7.1)",
    ("maws-bulksync", "MAWS.LatSpec.RR"): "little gain exc. KMeans (000 §7.1)",
}


def total(stats, key):
    return stats["total"].get(key, 0)


def run_one(build, preset, policy, kernel, arg, seed, sets, tmp, task=None):
    elf = os.path.join(build, "kernels", "" if task is None else "tasks", kernel + ".elf")
    base = os.path.join(tmp, "%s.%s.%s" % (preset, policy, kernel))
    cmd = [os.path.join(build, "wpusim"), "--config", preset, "--policy", policy, "--stats", "json",
           "--stats-out", base + ".json", "--seed", str(seed), "--arg", str(arg), "--dump", base + ".dump"]
    if task is not None:
        cmd += ["--task", str(task)]
    if preset == "lwm":
        cmd += ["--set", "dws_entries=64"]
    for kv in sets:
        cmd += ["--set", kv]
    cmd.append(elf)
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    row = {"preset": preset, "policy": policy, "kernel": kernel, "exit": p.returncode,
           "wall_s": time.monotonic() - t0, "command": " ".join(cmd)}
    if p.returncode != 0 or not os.path.exists(base + ".json"):
        row["error"] = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[0]
        return row
    with open(base + ".json") as f:
        st = measured(json.load(f))
    with open(base + ".dump", "rb") as f:
        row["dump"] = f.read()
    row.update(parse_stats(st))
    return row


def hmean(xs):
    return _hmean(xs) or 0.0


def tables(by, presets, pairs, kernels):
    """The Markdown lines of the speedup tables, one section per preset: by maps
    (preset, policy, kernel) to a row with "speedup" set; pairs lists (preset, policy)
    in the order to show (Conv first)."""
    out = []
    for pr in presets:
        pols = [p for p in dict.fromkeys(pol for (x, pol) in pairs if x == pr) if p != "Conv"]
        out.append("")
        out.append("### preset `%s`" % pr)
        out.append("")
        out.append("| policy | " + " | ".join(kernels) + " | h-mean | mean | paper |")
        out.append("|---" * (len(kernels) + 4) + "|")
        conv = [by.get((pr, "Conv", k), {}) for k in kernels]
        out.append("| Conv cycles | " + " | ".join(str(c.get("cycles", "err")) for c in conv) + " | | | |")
        for pol in pols:
            sp = [by.get((pr, pol, k), {}).get("speedup") for k in kernels]
            ok = [x for x in sp if x]
            cells = ["%.2f" % x if x else "err" for x in sp]
            hm = "%.2f" % hmean(ok) if len(ok) == len(sp) else "-"
            am = "%.2f" % (sum(ok) / len(ok)) if len(ok) == len(sp) else "-"
            out.append("| %s | %s | %s | %s | %s |" % (pol, " | ".join(cells), hm, am, PAPER.get((pr, pol), "")))
        out.append("")
        out.append("Mean SIMD width per instruction / share of WPU cycles waiting for memory / splits (branch+mem+revive):")
        out.append("")
        out.append("| policy | " + " | ".join(kernels) + " |")
        out.append("|---" * (len(kernels) + 1) + "|")
        for pol in ["Conv"] + pols:
            cells = []
            for k in kernels:
                r = by.get((pr, pol, k), {})
                if "cycles" not in r:
                    cells.append("err")
                    continue
                ns = r["splits_branch"] + r["splits_mem"] + r["splits_revive"]
                cells.append("%.1f / %.0f%% / %d" % (r["simd_width"], 100 * r["memwait"], ns))
            out.append("| %s | %s |" % (pol, " | ".join(cells)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", default="small", choices=SIZES)
    ap.add_argument("--config", action="append", help="presets (repeatable); default dws, maws-coherent, maws-bulksync")
    ap.add_argument("--policies", help="comma-separated policies for every preset (default: the papers' legends)")
    ap.add_argument("--kernels", default=",".join(KERNELS))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--task", default="default", help="task mapping: default, elem, chunk, K or paper (docs/tasks.md)")
    ap.add_argument("--markdown", help="also write the tables to FILE")
    ap.add_argument("--json", help="also write every run's numbers to FILE")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    presets = args.config or ["dws", "maws-coherent", "maws-bulksync"]
    kernels = args.kernels.split(",")
    arg = SIZES[args.size]
    jobs = []
    for pr in presets:
        pols = args.policies.split(",") if args.policies else DEFAULT.get(pr, DWS_POLICIES + MAWS_POLICIES)
        for pol in ["Conv"] + [p for p in pols if p != "Conv"]:
            for k in kernels:
                jobs.append((pr, pol, k))
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(run_one, args.build, pr, pol, k, arg, args.seed, args.set, tmp, task_value(args.task, k))
                for pr, pol, k in jobs]
        rows = [f.result() for f in futs]
    wall = time.monotonic() - t0
    by = {(r["preset"], r["policy"], r["kernel"]): r for r in rows}
    failures = []
    for r in rows:
        if "error" in r:
            failures.append("%s %s %s: %s" % (r["preset"], r["policy"], r["kernel"], r["error"]))
            continue
        c = by.get((r["preset"], "Conv", r["kernel"]))
        if not c or "error" in c:
            continue
        if r["dump"] != c["dump"]:
            failures.append("%s %s %s: results differ from Conv" % (r["preset"], r["policy"], r["kernel"]))
        if r["thread_insts"] != c["thread_insts"] or r["instret_hash"] != c["instret_hash"]:
            failures.append("%s %s %s: thread instructions differ from Conv" % (r["preset"], r["policy"], r["kernel"]))
        r["speedup"] = c["cycles"] / r["cycles"]

    mapping = "default build" if args.task == "default" else "tasks build, --task %s (%s)" % (
        args.task, ", ".join("%s %s" % (k, task_value(args.task, k)) for k in kernels))
    head = ("Speedup over Conv (cycles(Conv) / cycles(policy)); size %s (--arg %d), seed %d, %s; "
            "%d runs in %.0f s" % (args.size, arg, args.seed, mapping, len(rows), wall))
    out = [head] + tables(by, presets, [(pr, pol) for pr, pol, _ in jobs], kernels)
    text = "\n".join(out)
    print(text)
    if failures:
        print("\nFAILED checks:\n  " + "\n  ".join(failures))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump([{k: v for k, v in r.items() if k != "dump"} for r in rows], f, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
