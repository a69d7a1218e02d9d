#!/usr/bin/env python3
"""Seed 004's experiments (§5): large warps (LWM) and two-level scheduling (2Lev).

    scripts/lwm_experiments.py [--size tiny|small|paper] [--kernels a,b,...] [--jobs J]
                               [--seed S] [--markdown FILE] [--json FILE] [--build DIR]
                               [--parts fig8,size,fgs,timeout] [--set KEY=VALUE ...]

Runs 004's twelve kernels on the `lwm` preset (1 core, 32 warps x 32 lanes = 1024
threads, 004 Table 1) under the legends of 004 Fig. 8 — Conv (the baseline), LWM,
2Lev and LWM+2Lev when `sim/policies/LWM+2Lev.cfg` exists and the simulator takes
it ("not available" otherwise) — plus the sweeps: the large warp size
(`--set lwm_size=64,128,256` under LWM, 004 Fig. 10), the fetch group size
(`--set fetch_group_size=1,2,4,8,16,32` under 2Lev, Fig. 11) and the timeout on
blackjack (2Lev against 2Lev.Timeout; LWM+2Lev against itself with
`fetch_timeout=0`, §3.3). Every run's `--dump` must equal the baseline's byte for
byte and its thread instructions (count and per-thread hash) must be equal.

Prints markdown tables: IPC per kernel and legend with the mean improvements
beside 004's (+7.9 %, +9.9 %, +19.1 %), the two sweeps, idle functional-unit
cycles per legend, the timeout. IPC is 004 §4's: retired thread instructions /
cycles (every active thread of a warp or sub-warp counts one instruction; at
most 32 on `lwm`), `total.thread_insts / cycles` of `--stats json`, which is
`lwm.ipc` under large warps. Idle FU cycles (004 Fig. 1, 9: cycles with 0 active
FUs) are `cycles - total.cycles_issue` for every legend (one warp or sub-warp
issues per cycle), equal to `lwm.fu_idle_cycles` under large warps (checked).
Progress goes to stderr. Exits 1 if a check failed. Standard library only.
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
from wsim_runs import measured  # noqa: E402  (the region of interest when a kernel marks one)
import report  # noqa: E402  (--report: the legends' page)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# 004 Table 2's order (Fig. 8: the branch-limited group first).
KERNELS = ["blackjack", "bucketsort", "viterbi", "kmeans", "aes", "blackscholes", "needleman",
           "hotspot", "matmul", "reduction", "histogram", "bfs"]
PAPER_NAME = {"bucketsort": "sort", "aes": "decrypt", "matmul": "matrix mult"}
SIZES = {"tiny": 0, "small": 1, "paper": 2}
# 004's input shapes of the two suite kernels (docs/kernels-004.md). kmeans' shape is
# cheap (28 M thread instructions), so every size runs it; hotspot's 512 x 512 grid is
# 166 M, so tiny runs the suite's own tiny grid (30 x 30) to stay in seconds.
SPECIAL_ARG = {("kmeans", "tiny"): 16384, ("kmeans", "small"): 16384, ("kmeans", "paper"): 16384,
               ("hotspot", "small"): 512, ("hotspot", "paper"): 512}
LWM_SIZES = [64, 128, 256]
FETCH_GROUPS = [1, 2, 4, 8, 16, 32]
COMBINED = "LWM+2Lev"
PARTS = ["fig8", "size", "fgs", "timeout"]
PAPER_MEAN = {"LWM": 7.9, "2Lev": 9.9, COMBINED: 19.1}
TIMEOUT_KERNEL = "blackjack"


def kernel_arg(kernel, size):
    return SPECIAL_ARG.get((kernel, size), SIZES[size])


def combined_available(build):
    """LWM+2Lev when its legend file exists and the simulator accepts it."""
    if not os.path.exists(os.path.join(ROOT, "sim", "policies", COMBINED + ".cfg")):
        return False, "sim/policies/%s.cfg does not exist" % COMBINED
    p = subprocess.run([os.path.join(build, "wpusim"), "--config", "lwm", "--policy", COMBINED,
                        "--print-config"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        msg = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[0]
        return False, "wpusim refuses it: " + msg.split("; policies:")[0]
    return True, ""


def run_one(build, spec, tmp, seed, extra):
    """spec = (label, kernel, policy, sets, arg). Returns the run's numbers."""
    label, kernel, policy, sets, arg = spec
    sets = extra + sets
    base = os.path.join(tmp, "%s.%s" % (label.replace("/", "_").replace("=", "_"), kernel))
    cmd = [os.path.join(build, "wpusim"), "--config", "lwm", "--policy", policy, "--quiet",
           "--stats", "json", "--stats-out", base + ".json", "--seed", str(seed), "--arg", str(arg),
           "--dump", base + ".dump"]
    for kv in sets:
        cmd += ["--set", kv]
    cmd.append(os.path.join(build, "kernels", kernel + ".elf"))
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    row = {"label": label, "kernel": kernel, "policy": policy, "sets": sets, "arg": arg,
           "exit": p.returncode, "wall_s": time.monotonic() - t0, "command": " ".join(cmd)}
    if p.returncode != 0 or not os.path.exists(base + ".json"):
        row["error"] = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[0]
        return row
    with open(base + ".json") as f:
        st = measured(json.load(f))
    with open(base + ".dump", "rb") as f:
        row["dump"] = f.read()
    os.remove(base + ".dump")
    t = st["total"]
    cyc = st["cycles"]
    row["cycles"] = cyc
    row["thread_insts"] = t["thread_insts"]
    row["instret_hash"] = st["threads"]["instret_hash"]
    row["ipc"] = t["thread_insts"] / cyc if cyc else 0.0
    row["issue"] = t["cycles_issue"]
    row["fu_idle"] = cyc - t["cycles_issue"]
    row["memwait"] = t["cycles_memwait"] / cyc if cyc else 0.0
    # active lanes per issuing cycle: threads per warp instruction (baseline) or per sub-warp
    row["lanes_per_issue"] = t["thread_insts"] / t["cycles_issue"] if t["cycles_issue"] else 0.0
    row["simd_efficiency"] = t.get("simd_efficiency", 0.0)
    row["fetch_switches"] = t.get("fetch_switches")
    row["fetch_timeouts"] = t.get("fetch_timeouts")
    l1 = st["memory"].get("l1d", {})
    if isinstance(l1, dict) and l1.get("accesses"):
        row["l1d_miss"] = l1.get("misses", 0) / l1["accesses"]
    dr = st["memory"].get("dram", {})
    if isinstance(dr, dict):
        acc = dr.get("row_hits", 0) + dr.get("row_conflicts", 0)
        row["row_hit"] = dr.get("row_hits", 0) / acc if acc else None
        row["dram_bpc"] = dr.get("bytes", 0) / cyc if cyc else 0.0
        # DRAM bank occupancy: the bank-cycles a bank could take no other request (the model's
        # bank_busy: precharge, activate, the burst, a tRAS wait; docs/memory.md) over banks x cycles
        banks = st["config"].get("dram_banks", 0)
        if banks and cyc:
            row["bank_busy"] = dr.get("bank_busy", 0) / (banks * cyc)
    lw = st.get("lwm")
    if lw:
        row["subwarps_per_inst"] = lw["subwarps_per_inst"]
        row["lane_util"] = lw["lane_utilization"]
        row["lwm_fu_idle"] = lw["fu_idle_cycles"]
    return row


def pct(new, old):
    return 100.0 * (new / old - 1.0) if old else 0.0


def geomean(xs):
    if not xs or any(x <= 0 for x in xs):
        return 0.0
    p = 1.0
    for x in xs:
        p *= x
    return p ** (1.0 / len(xs))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", default="tiny", choices=SIZES)
    ap.add_argument("--kernels", default=",".join(KERNELS))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--markdown", help="also write the tables to FILE")
    ap.add_argument("--json", help="also write every run's numbers to FILE")
    ap.add_argument("--report", metavar="FILE.html",
                    help="also write a report page (scripts/report.py): Fig. 8's legends side by side on the first kernel")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="passed to every run (before the legend's own --set), e.g. watchdog=0")
    ap.add_argument("--parts", default=",".join(PARTS),
                    help="which experiments (default all): fig8 (with the idle FU and memory tables), size, "
                         "fgs, timeout")
    args = ap.parse_args()
    kernels = [k for k in args.kernels.split(",") if k]
    for k in kernels:
        if k not in KERNELS:
            print("lwm_experiments: --kernels: unknown kernel '%s' (allowed: %s)" % (k, ", ".join(KERNELS)),
                  file=sys.stderr)
            return 2
    parts = [x for x in args.parts.split(",") if x]
    for x in parts:
        if x not in PARTS:
            print("lwm_experiments: --parts: unknown part '%s' (allowed: %s)" % (x, ", ".join(PARTS)),
                  file=sys.stderr)
            return 2
    if args.jobs < 1:
        print("lwm_experiments: --jobs %d: must be at least 1" % args.jobs, file=sys.stderr)
        return 2
    if not os.path.exists(os.path.join(args.build, "wpusim")):
        print("lwm_experiments: %s/wpusim missing: run make && make kernels" % args.build, file=sys.stderr)
        return 2
    for kv in args.set:
        p = subprocess.run([os.path.join(args.build, "wpusim"), "--config", "lwm", "--set", kv, "--print-config"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            msg = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[0]
            print("lwm_experiments: --set %s: %s" % (kv, msg.split("; valid keys")[0]), file=sys.stderr)
            return 2
    have_comb, why_not = combined_available(args.build)

    # Legends (label -> policy, --set list). Sweep points equal to a legend reuse its run.
    legends = [("Conv", "Conv", []), ("LWM", "LWM", []), ("2Lev", "2Lev", [])]
    if have_comb:
        legends.append((COMBINED, COMBINED, []))
    specs = []
    for lab, pol, sets in legends:
        specs += [(lab, k, pol, sets, kernel_arg(k, args.size)) for k in kernels]
    for n in LWM_SIZES if "size" in parts else []:
        if n != 256:  # LWM.cfg is lwm_size = 256
            specs += [("LWM/%d" % n, k, "LWM", ["lwm_size=%d" % n], kernel_arg(k, args.size)) for k in kernels]
    for g in FETCH_GROUPS if "fgs" in parts else []:
        if g != 8:  # 2Lev.cfg is fetch_group_size = 8
            specs += [("2Lev/%d" % g, k, "2Lev", ["fetch_group_size=%d" % g], kernel_arg(k, args.size))
                      for k in kernels]
    if TIMEOUT_KERNEL in kernels and "timeout" in parts:
        a = kernel_arg(TIMEOUT_KERNEL, args.size)
        specs.append(("2Lev.Timeout", TIMEOUT_KERNEL, "2Lev.Timeout", [], a))
        if have_comb:
            specs.append((COMBINED + "/notimeout", TIMEOUT_KERNEL, COMBINED, ["fetch_timeout=0"], a))

    # Estimate: a mean Conv run at this size on the shared 2-core machine (seconds, one job);
    # LWM runs take about twice as long (the picker's per-clock work, docs/lwm.md). Measured
    # with 2 jobs: tiny 121 runs in 10-15 s, small 121 in 112-173 s, paper --parts fig8 36 in 211 s.
    per_size = {"tiny": 0.1, "small": 0.5, "paper": 9.0}[args.size]
    est = sum(per_size * (2 if "LWM" in s[0] else 1) * (20 if (s[1], args.size) == ("hotspot", "small") else 1)
              for s in specs) / args.jobs
    print("lwm_experiments: %d runs (%d kernels; legends %s%s), size %s, %d jobs: about %.0f s" % (
        len(specs), len(kernels), ", ".join(l for l, _, _ in legends),
        "" if have_comb else "; %s not available (%s)" % (COMBINED, why_not),
        args.size, args.jobs, est), file=sys.stderr)

    t0 = time.monotonic()
    rows = []
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = {ex.submit(run_one, args.build, s, tmp, args.seed, args.set): s for s in specs}
        for i, f in enumerate(concurrent.futures.as_completed(futs), 1):
            r = f.result()
            rows.append(r)
            print("[%d/%d] %-16s %-12s %s (%.1f s)" % (
                i, len(specs), r["label"], r["kernel"],
                "error: " + r["error"] if "error" in r else "%d cycles, IPC %.3f" % (r["cycles"], r["ipc"]),
                r["wall_s"]), file=sys.stderr)
        page = None
        if args.report:  # (the runs' statistics are in tmp until the block ends)
            k = kernels[0]
            found = [(lab, os.path.join(tmp, "%s.%s.json" % (lab.replace("/", "_").replace("=", "_"), k)))
                     for lab, _, _ in legends]
            found = [(lab, f) for lab, f in found if os.path.isfile(f)]
            if found:
                page = report.build([report.load_run(f) for _, f in found], [lab for lab, _ in found], {},
                                    "WarpSplit: 004 Fig. 8's legends on %s (lwm, size %s)" % (k, args.size))
                with open(args.report, "w", encoding="utf-8") as f:
                    f.write(page)
    wall = time.monotonic() - t0
    by = {(r["label"], r["kernel"]): r for r in rows}

    failures = []
    for r in rows:
        if "error" in r:
            failures.append("%s %s: %s" % (r["label"], r["kernel"], r["error"]))
            continue
        c = by.get(("Conv", r["kernel"]))
        if not c or "error" in c:
            continue
        if r["dump"] != c["dump"]:
            failures.append("%s %s: results (--dump) differ from Conv's" % (r["label"], r["kernel"]))
        if r["thread_insts"] != c["thread_insts"] or r["instret_hash"] != c["instret_hash"]:
            failures.append("%s %s: thread instructions differ from Conv's" % (r["label"], r["kernel"]))
        if "lwm_fu_idle" in r and r["lwm_fu_idle"] != r["fu_idle"]:
            failures.append("%s %s: lwm.fu_idle_cycles %d != cycles - cycles_issue %d" % (
                r["label"], r["kernel"], r["lwm_fu_idle"], r["fu_idle"]))

    def get(label, k, key="ipc"):
        return by.get((label, k), {}).get(key)

    def mean_row(label):
        """Arithmetic mean of the per-kernel IPC changes, geometric mean of the ratios."""
        rs = [get(label, k) / get("Conv", k) for k in kernels if get(label, k) and get("Conv", k)]
        if len(rs) != len(kernels):
            return "-", "-"
        return "%+.1f%%" % (100 * (sum(rs) / len(rs) - 1)), "%+.1f%%" % (100 * (geomean(rs) - 1))

    names = ["%s (%s)" % (k, PAPER_NAME[k]) if k in PAPER_NAME else k for k in kernels]
    out = []
    special = ["%s --arg %d" % (k, kernel_arg(k, args.size)) for k in kernels
               if kernel_arg(k, args.size) != SIZES[args.size]]
    out.append("004's experiments on `lwm` (1 core, 32 warps x 32 lanes, 1024 threads)%s; size %s (--arg %d%s), "
               "seed %d; %d runs in %.0f s, %d jobs; every run's results and thread instructions equal Conv's: %s" % (
                   "".join(" --set " + kv for kv in args.set), args.size, SIZES[args.size], "; " + ", ".join(special) if special else "", args.seed,
                   len(rows), wall, args.jobs, "no (below)" if failures else "yes"))
    out.append("")
    out.append("IPC = thread instructions / cycles (004 §4: each active thread of a warp or sub-warp counts one; "
               "at most 32).")
    out.append("")

    # Fig. 8
    labs = [l for l, _, _ in legends]
    out.append("#### Fig. 8: IPC per kernel")
    out.append("")
    out.append("| kernel | " + " | ".join(labs) + ("" if have_comb else " | " + COMBINED) + " |")
    out.append("|---" * (len(labs) + 1 + (0 if have_comb else 1)) + "|")
    for k, nm in zip(kernels, names):
        cells = []
        for lab in labs:
            v, c = get(lab, k), get("Conv", k)
            if v is None:
                cells.append("err")
            elif lab == "Conv":
                cells.append("%.3f" % v)
            else:
                cells.append("%.3f (%+.1f%%)" % (v, pct(v, c)) if c else "%.3f" % v)
        if not have_comb:
            cells.append("not available")
        out.append("| %s | %s |" % (nm, " | ".join(cells)))
    out.append("")
    out.append("| mean IPC change over Conv | " + " | ".join(labs[1:]) + ("" if have_comb else " | " + COMBINED) + " |")
    out.append("|---" * (len(labs) + (0 if have_comb else 1)) + "|")
    am = [mean_row(l) for l in labs[1:]]
    tail = "" if have_comb else " | not available"
    out.append("| ours, arithmetic mean of the ratios | " + " | ".join(a for a, _ in am) + tail + " |")
    out.append("| ours, geometric mean | " + " | ".join(g for _, g in am) + tail + " |")
    out.append("| 004 §5.1 | " + " | ".join("+%.1f%%" % PAPER_MEAN[l] for l in labs[1:]) +
               ("" if have_comb else " | +%.1f%%" % PAPER_MEAN[COMBINED]) + " |")
    out.append("")

    # Fig. 10: large warp size
    fig10, fig11 = len(out), None
    out.append("#### Fig. 10: large warp size (LWM, round-robin), IPC (lane utilization)")
    out.append("")
    out.append("| kernel | Conv (32) | " + " | ".join(str(n) for n in LWM_SIZES) + " |")
    out.append("|---" * (len(LWM_SIZES) + 2) + "|")
    lw_lab = {n: ("LWM" if n == 256 else "LWM/%d" % n) for n in LWM_SIZES}
    for k, nm in zip(kernels, names):
        cells = ["%.3f" % get("Conv", k) if get("Conv", k) else "err"]
        for n in LWM_SIZES:
            v = get(lw_lab[n], k)
            cells.append("%.3f (%.2f)" % (v, get(lw_lab[n], k, "lane_util")) if v else "err")
        out.append("| %s | %s |" % (nm, " | ".join(cells)))
    out.append("| mean IPC change over Conv | | " + " | ".join(mean_row(lw_lab[n])[0] for n in LWM_SIZES) + " |")
    out.append("")
    out.append("004 Fig. 10: best at 256 threads (512 not run here: `lwm_size` is at most 256, docs/lwm.md).")
    out.append("")

    # Fig. 11: fetch group size
    fig11 = len(out)
    out.append("#### Fig. 11: fetch group size (2Lev on baseline warps), IPC")
    out.append("")
    out.append("| kernel | Conv | " + " | ".join("2Lev%d" % g for g in FETCH_GROUPS) + " | switches (2Lev8) |")
    out.append("|---" * (len(FETCH_GROUPS) + 3) + "|")
    fg_lab = {g: ("2Lev" if g == 8 else "2Lev/%d" % g) for g in FETCH_GROUPS}
    for k, nm in zip(kernels, names):
        cells = ["%.3f" % get("Conv", k) if get("Conv", k) else "err"]
        for g in FETCH_GROUPS:
            v = get(fg_lab[g], k)
            cells.append("%.3f" % v if v else "err")
        sw = get("2Lev", k, "fetch_switches")
        cells.append(str(sw) if sw is not None else "-")
        out.append("| %s | %s |" % (nm, " | ".join(cells)))
    out.append("| mean IPC change over Conv | | " + " | ".join(mean_row(fg_lab[g])[0] for g in FETCH_GROUPS) +
               " | |")
    out.append("")
    out.append("004 Fig. 11: best at 8 warps per group; 32 (one group) is the baseline by definition.")
    out.append("")

    if "fgs" not in parts:
        del out[fig11:]
    if "size" not in parts:
        del out[fig10:fig11]
    # Fig. 9: idle FU cycles
    out.append("#### Fig. 9: idle FU cycles (0 active FUs) as a share of cycles; "
               "active lanes per issuing cycle; cycles waiting on memory")
    out.append("")
    out.append("Cell: idle share / lanes per issue / memory-wait share; LWM legends add sub-warps per instruction.")
    out.append("")
    out.append("| kernel | " + " | ".join(labs) + " |")
    out.append("|---" * (len(labs) + 1) + "|")
    for k, nm in zip(kernels, names):
        cells = []
        for lab in labs:
            r = by.get((lab, k), {})
            if "cycles" not in r:
                cells.append("err")
                continue
            s = "%.0f%% / %.1f / %.0f%%" % (100.0 * r["fu_idle"] / r["cycles"], r["lanes_per_issue"],
                                            100 * r["memwait"])
            if "subwarps_per_inst" in r:
                s += " / %.2f sw" % r["subwarps_per_inst"]
            cells.append(s)
        out.append("| %s | %s |" % (nm, " | ".join(cells)))
    out.append("")

    # Memory (004 §5.1: 2Lev keeps the DRAM row-hit rate within 1.7 % of round-robin)
    out.append("#### Memory: L1 D miss rate / DRAM row-hit rate / DRAM bytes per cycle (32 GB/s at 1 GHz = 32) / "
               "DRAM bank occupancy")
    out.append("")
    out.append("Bank occupancy: the bank-cycles in which a bank could take no other request (precharge, "
               "activate, tRAS wait, burst: the model's `bank_busy`) / (banks x cycles) (docs/memory.md).")
    out.append("")
    out.append("| kernel | " + " | ".join(labs) + " |")
    out.append("|---" * (len(labs) + 1) + "|")
    for k, nm in zip(kernels, names):
        cells = []
        for lab in labs:
            r = by.get((lab, k), {})
            if "cycles" not in r:
                cells.append("err")
                continue
            cells.append("%s / %s / %.1f / %s" % (
                "%.3f" % r["l1d_miss"] if r.get("l1d_miss") is not None else "-",
                "%.2f" % r["row_hit"] if r.get("row_hit") is not None else "-", r.get("dram_bpc", 0.0),
                "%.0f%%" % (100 * r["bank_busy"]) if r.get("bank_busy") is not None else "-"))
        out.append("| %s | %s |" % (nm, " | ".join(cells)))
    out.append("")

    # Timeout
    if TIMEOUT_KERNEL in kernels and "timeout" in parts:
        out.append("#### §3.3: the timeout on blackjack (32K instructions)")
        out.append("")
        out.append("| legend | cycles | IPC | fetch switches | timeouts |")
        out.append("|---|---|---|---|---|")
        pairs = [("2Lev (no timeout)", "2Lev"), ("2Lev.Timeout", "2Lev.Timeout")]
        if have_comb:
            pairs += [(COMBINED + " with fetch_timeout=0", COMBINED + "/notimeout"), (COMBINED, COMBINED)]
        for nm, lab in pairs:
            r = by.get((lab, TIMEOUT_KERNEL), {})
            if "cycles" not in r:
                out.append("| %s | err | | | |" % nm)
                continue
            out.append("| %s | %d | %.3f | %s | %s |" % (
                nm, r["cycles"], r["ipc"], "-" if r["fetch_switches"] is None else r["fetch_switches"],
                "-" if r["fetch_timeouts"] is None else r["fetch_timeouts"]))
        if not have_comb:
            out.append("| %s | not available | | | |" % COMBINED)
        out.append("")
        out.append("004 §3.3: the timeout \"helps significantly\" on blackjack with large warps (LWM+2Lev).")
        out.append("")

    if page:
        out.append("Report page (scripts/report.py: Fig. 8's legends on %s): [%s](%s)" % (
            kernels[0], os.path.basename(args.report), os.path.basename(args.report)))
        out.append("")
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
