#!/usr/bin/env python3
"""Event-count energy of wpusim runs (docs/energy.md).

    scripts/energy.py STATS.json ...             the energy of each run, by component
    scripts/energy.py --json STATS.json ...      the same as JSON
    scripts/energy.py --compare BASE.json OTHER.json ...   OTHER's energy relative to BASE's
    scripts/energy.py --suite [--size small] [--task paper] [--policies A,B] [--jobs J]
                      [--keep DIR [--reuse]]     001 §6.5: every suite kernel under Conv and the
                                                 policies, energy normalized to Conv; --keep keeps
                                                 the statistics, --reuse prices kept ones again
    options: --rf lane|warp    register-file energy per active lane (default) or per
                               whole-width SIMD access
             --set NAME=VALUE  override a constant (pJ), e.g. --set dram=21000
             --constants       print the table of constants and exit

The statistics must come from a run with `--set stats_energy=1` (the en_*
counters). The model is a sum of event counts times per-event energies plus
static energy per cycle; the constants below are at 65 nm (001's node), each
with its source. Standard library only.
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
from suite import task_value  # noqa: E402
from wsim_runs import measured  # noqa: E402  (the region of interest when a kernel marks one)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = ["fft", "filter", "hotspot", "lu", "merge", "short", "kmeans", "svm"]
SIZES = {"tiny": 0, "small": 1, "paper": 2}

# name: (pJ, per what, source). 45 nm figures are Horowitz, "Computing's energy
# problem", ISSCC 2014 (0.9 V), scaled to 65 nm at 1.1 V by (65/45) x (1.1/0.9)^2
# = 2.16, rounded to x2. Cache figures are CACTI-style estimates (no CACTI run
# here: it is not packaged in Debian), anchored on Horowitz's SRAM reads
# (8 KB: 10 pJ, 32 KB: 20 pJ, 1 MB: 100 pJ per 64-bit read at 45 nm).
CONSTANTS = {
    "fetch":    (40.0, "SIMD instruction", "fetch buffer, decode, scheduler and issue of one instruction for the warp "
                 "(Wattch's fetch/decode share; Horowitz: ~70 pJ of overhead per instruction at 45 nm, of which "
                 "I-cache and register file are counted separately here)"),
    "lane":     (2.0, "active thread", "pipeline latches and result bus of one lane (Wattch result bus)"),
    "alu":      (0.2, "active thread", "32-bit integer add, logic, shift, compare (Horowitz: add 0.1 pJ) x2"),
    "mul":      (6.2, "active thread", "32-bit integer multiply (Horowitz: 3.1 pJ) x2; divide counted as one multiply"),
    "fp":       (7.4, "active thread", "32-bit FP multiply (Horowitz: 3.7 pJ; add 0.9) x2: the class's largest op"),
    "branch":   (0.2, "active thread", "conditional branch compare, jump target add: an ALU op"),
    "agu":      (0.2, "active thread", "address add of a load/store: an ALU op (the D-cache is counted per access)"),
    "rf_read":  (4.0, "32-bit operand", "one lane's register-file bank read: 4 warps x 64 registers x 32 bits = 1 KB, "
                 "2R1W (about a third of Horowitz's 8 KB 64-bit read, 10 pJ, with port overhead) x2"),
    "rf_write": (5.0, "32-bit operand", "one lane's register-file bank write (as the read, writes a little dearer)"),
    "l1i":      (30.0, "I-cache access", "16 KB 4-way, one fetch (Horowitz 8-32 KB: 10-20 pJ per 64-bit read) x2"),
    "l1d":      (40.0, "L1 D line access", "32 KB 8-way banked, one bank's tag check and data access per distinct "
                 "line of an instruction (Horowitz 32 KB: 20 pJ) x2"),
    "l2":       (1000.0, "L2 access", "4 MB 16-way, 128-byte line read or write (Horowitz 1 MB: 100 pJ per 64 bits; "
                 "a 128-byte line is 16 such words at lower per-bit cost) at 65 nm"),
    "xbar":     (300.0, "line transfer", "crossbar, one 128-byte transfer L1 <-> L2/memory (Pullini et al.'s NoC "
                 "switches, ~0.3 pJ/bit)"),
    "dram":     (220000.0, "DRAM access", "001 §3.3: 'the physical memory consumes 220 nJ per access' (after Hur and "
                 "Lin, HPCA 2008); Horowitz's 1.3-2.6 nJ per 64 bits gives ~21 nJ per 128-byte line instead"),
    "wst":      (5.0, "WST operation", "16-entry warp-split table, one read-modify-write of an entry (a small register "
                 "file / CAM row, as rf_write)"),
    "leak_wpu": (150.0, "WPU cycle", "leakage of one WPU (16 lanes, 16 KB register file, 32 KB L1 D, 16 KB L1 I) "
                 "at 65 nm: ~0.15 W at 1 GHz (high-performance transistors; 001 §6.5 calls leakage significant)"),
    "clock":    (50.0, "WPU cycle", "clock tree of one WPU, every cycle (Wattch counts clock power; not gated when idle)"),
    "leak_l2":  (1000.0, "cycle", "leakage of the shared 4 MB L2 at 65 nm: ~1 W (CACTI high-performance cells)"),
}

COMPONENTS = ["fetch", "icache", "lanes", "regfile", "dcache", "l2", "xbar", "dram", "wst", "static"]


def need(t, key):
    if key not in t:
        sys.stderr.write("energy: the statistics have no '%s': run wpusim with --set stats_energy=1 --stats json\n" % key)
        sys.exit(2)
    return t[key]


def energy(st, k, rf="lane"):
    """Energy in pJ of one run's statistics (wpusim --stats json), by component."""
    t = st["total"]
    cfg = st.get("config", {})
    wpus = len(st["wpu"])
    lanes = int(cfg.get("lanes", 16))
    mem = st.get("memory", {})
    e = dict.fromkeys(COMPONENTS, 0.0)
    wi, ti = t["warp_insts"], t["thread_insts"]
    mul, fp, jmp = need(t, "en_mul_threads"), t["en_fp_threads"], t["en_jump_threads"]
    br, ld, sto = t["en_branch_threads"], t["en_load_threads"], t["en_store_threads"]
    alu = ti - mul - fp - jmp - br - ld - sto
    e["fetch"] = wi * k["fetch"]
    e["icache"] = mem.get("l1i", {}).get("accesses", 0) * k["l1i"]
    e["lanes"] = (ti * k["lane"] + alu * k["alu"] + mul * k["mul"] + fp * k["fp"] + (br + jmp) * k["branch"]
                  + (ld + sto) * k["agu"])
    if rf == "lane":
        e["regfile"] = t["en_rf_reads"] * k["rf_read"] + t["en_rf_writes"] * k["rf_write"]
    else:
        e["regfile"] = lanes * (t["en_rf_reads_warp"] * k["rf_read"] + t["en_rf_writes_warp"] * k["rf_write"])
    l1d, l1i = mem.get("l1d", {}), mem.get("l1i", {})
    e["dcache"] = l1d.get("accesses", 0) * k["l1d"]
    e["l2"] = mem.get("l2", {}).get("accesses", 0) * k["l2"]
    e["xbar"] = (l1d.get("misses", 0) + l1d.get("writebacks", 0) + l1i.get("misses", 0)) * k["xbar"]
    dr = mem.get("dram", {})
    e["dram"] = (dr.get("reads", 0) + dr.get("writes", 0)) * k["dram"]
    if cfg.get("dws") == "on":
        ops = wi + 2 * (t["splits_branch"] + t["splits_mem"] + t["splits_revive"]) + (
            t["merges_pc"] + t["merges_stack"] + t["merges_barrier"] + t["merges_sync"])
        e["wst"] = ops * k["wst"]
    e["static"] = st["cycles"] * (wpus * (k["leak_wpu"] + k["clock"]) + (k["leak_l2"] if "l2" in mem else 0.0))
    e["total"] = sum(e[c] for c in COMPONENTS)
    return e


def constants(sets):
    k = {n: v[0] for n, v in CONSTANTS.items()}
    for s in sets:
        name, eq, val = s.partition("=")
        if not eq or name not in k:
            sys.stderr.write("energy: --set %s: expected NAME=VALUE with NAME one of %s\n" % (s, ", ".join(k)))
            sys.exit(2)
        try:
            k[name] = float(val)
        except ValueError:
            sys.stderr.write("energy: --set %s: %s is not a number (pJ)\n" % (s, val))
            sys.exit(2)
    return k


def load(path):
    try:
        with open(path) as f:
            return measured(json.load(f))
    except (OSError, ValueError) as x:
        sys.stderr.write("energy: %s: %s\n" % (path, x))
        sys.exit(2)


def run_one(build, policy, kernel, arg, task, sets, tmp):
    elf = os.path.join(build, "kernels", "" if task is None else "tasks", kernel + ".elf")
    base = os.path.join(tmp, "%s.%s" % (policy, kernel))
    cmd = [os.path.join(build, "wpusim"), "--config", "dws", "--policy", policy, "--set", "stats_energy=1",
           "--arg", str(arg), "--stats", "json", "--stats-out", base + ".json", "--dump", base + ".dump"]
    if task is not None:
        cmd += ["--task", str(task)]
    for kv in sets:
        cmd += ["--set", kv]
    p = subprocess.run(cmd + [elf], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return None, "exit %d: %s" % (p.returncode, p.stderr.strip()[:200])
    with open(base + ".dump", "rb") as f:
        return (load(base + ".json"), f.read()), None


def reuse(build, policy, kernel, arg, task, sets, keep):
    """The statistics --keep DIR kept of an earlier --suite run."""
    base = os.path.join(keep, "%s.%s" % (policy, kernel))
    if not os.path.exists(base + ".json"):
        return None, "%s.json missing: run --suite --keep %s first" % (base, keep)
    with open(base + ".dump", "rb") as f:
        return (load(base + ".json"), f.read()), None


def suite(args, k):
    pols = ["Conv"] + [p for p in args.policies.split(",") if p != "Conv"]
    kernels = args.kernels.split(",")
    t0 = time.monotonic()
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = {(p, kn): ex.submit(reuse if args.reuse else run_one, args.build, p, kn, SIZES[args.size],
                                   task_value(args.task, kn), args.wpusim_set, args.keep or tmp)
                for p in pols for kn in kernels}
        res = {key: f.result() for key, f in futs.items()}
    bad = 0
    for key, (r, err) in res.items():
        if err:
            print("FAILED %s %s: %s" % (key[0], key[1], err))
            bad = 1
        elif r[1] != res[("Conv", key[1])][0][1]:
            print("FAILED %s %s: results differ from Conv" % key)
            bad = 1
    if bad:
        return 1
    print("Energy relative to Conv (001 §6.5, Fig. 19); dws preset, size %s, --task %s, register file per %s; "
          "%d runs in %.0f s" % (args.size, args.task, args.rf, len(res), time.monotonic() - t0))
    print()
    print("| policy | " + " | ".join(kernels) + " | mean | speedup h-mean |")
    print("|---" * (len(kernels) + 3) + "|")
    for p in pols:
        rel, sp = [], []
        for kn in kernels:
            c, r = res[("Conv", kn)][0][0], res[(p, kn)][0][0]
            rel.append(energy(r, k, args.rf)["total"] / energy(c, k, args.rf)["total"])
            sp.append(c["cycles"] / r["cycles"])
        hm = len(sp) / sum(1 / x for x in sp)
        print("| %s | %s | %.2f | %.2f |" % (p, " | ".join("%.2f" % x for x in rel), sum(rel) / len(rel), hm))
    print()
    print("Share of Conv's energy by component:")
    print()
    print("| kernel | " + " | ".join(COMPONENTS) + " |")
    print("|---" * (len(COMPONENTS) + 1) + "|")
    for kn in kernels:
        e = energy(res[("Conv", kn)][0][0], k, args.rf)
        print("| %s | %s |" % (kn, " | ".join("%.0f%%" % (100 * e[c] / e["total"]) for c in COMPONENTS)))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stats", nargs="*")
    ap.add_argument("--rf", choices=["lane", "warp"], default="lane")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--constants", action="store_true")
    ap.add_argument("--suite", action="store_true")
    ap.add_argument("--size", default="small", choices=SIZES)
    ap.add_argument("--task", default="paper")
    ap.add_argument("--policies", default="DWS.ReviveSplit,Slip.BranchBypass")
    ap.add_argument("--kernels", default=",".join(KERNELS))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--wpusim-set", action="append", default=[], help="--set KEY=VALUE for wpusim (--suite)")
    ap.add_argument("--keep", metavar="DIR", help="--suite: keep every run's statistics in DIR")
    ap.add_argument("--reuse", action="store_true", help="--suite: price the runs --keep DIR kept, without running")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    if args.reuse and not args.keep:
        ap.error("--reuse needs --keep DIR")
    k = constants(args.set)
    if args.constants:
        print("| constant | pJ per | value (pJ) | source |\n|---|---|---|---|")
        for n, (v, per, src) in CONSTANTS.items():
            print("| `%s` | %s | %g | %s |" % (n, per, k[n], src))
        return 0
    if args.suite:
        return suite(args, k)
    if not args.stats:
        ap.error("give STATS.json files, --suite or --constants")
    runs = [(p, energy(load(p), k, args.rf)) for p in args.stats]
    if args.json:
        json.dump({p: {c: round(v, 3) for c, v in e.items()} for p, e in runs}, sys.stdout, indent=1)
        print()
        return 0
    base = runs[0][1]["total"]
    for p, e in runs:
        print("energy %s (register file per %s)" % (p, args.rf))
        for c in COMPONENTS:
            print("  %-8s %16.1f pJ  %5.1f%%" % (c, e[c], 100 * e[c] / e["total"] if e["total"] else 0))
        print("  %-8s %16.1f pJ" % ("total", e["total"]) + (
            "  %.4f of %s" % (e["total"] / base, args.stats[0]) if args.compare and base else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
