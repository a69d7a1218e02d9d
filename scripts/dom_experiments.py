#!/usr/bin/env python3
"""Run seed 002's diverge-on-miss experiments on wpusim and print them as Markdown tables.

    scripts/dom_experiments.py [--size tiny|small|paper] [--arg N] [--kernels nl,lj,...]
                               [--warps 1,2,4,8,16] [--slips 2,4,8,16,32] [--configs dom,dom-l2]
                               [--jobs J] [--seed S] [--markdown FILE] [--json FILE] [--set KEY=VALUE ...]
                               [--selects]
    scripts/dom_experiments.py --from-json FILE [same selection options]   (tables only)

The six kernels of 002 §7.3 (nl lj sa rt km gf) on 002's machine (preset `dom`, §7.2: 32
cores x 32 lanes, 2 GHz, 32 KB L1, 256 GB/s, 500 cycles; `dom-l2` adds a private 256 KB L2
per core, §8.4), for 1..16 warps per core (`--set warps=N`, threads = 32 cores x N warps x
32 lanes, so every hardware context has a thread), under

  DoM.Block     on every config      (002's blocking baseline)
  DoM.Adaptive  on every config      (adaptive slip, Figs. 7-10)
  DoM.FixedSlip on the first config, --set dom_max_slip=S for each of --slips (Fig. 6)

The statistics are the kernel's region of interest (the phase 002 measures: data generation
and self-checks outside) when it marks one, else the whole run's. Every run's results
(--dump, compared byte for byte) and per-thread instruction counts (the statistics'
instret_hash and the whole run's thread_insts) must equal the DoM.Block run's on the first
config at the same warp count; a difference, a wpusim error or a watchdog stop fails the script
(exit 1) after the tables. Prints 002 Table 3's characterization, Fig. 4 (blocking
throughput), Fig. 6 (fixed slip), Figs. 7-8 (adaptive slip), Figs. 9-10 (with private L2s),
"2 slipping warps vs 16 blocking" and the statistics that explain them, each beside 002's
numbers where 002's text gives them (docs/dom.md, "002's experiments"). Standard library only.
"""
import argparse
import concurrent.futures
import filecmp
import json
import math
import os
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsim_runs import measured  # noqa: E402  (the region of interest when a kernel marks one)
import report  # noqa: E402  (--report: the legends' page)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = ["nl", "lj", "sa", "rt", "km", "gf"]  # 002 §7.3, Table 3's order
# The kernels with a branch-free variant (--arg bit 30, kernels/README.md); SA and RT have none
# and would read the bit as an input size.
SELECTS_KERNELS = ["nl", "lj", "km", "gf"]
SIZES = {"tiny": 0, "small": 1, "paper": 2}
# Seconds of one run at each size on the shared 2-core machine with 2 jobs (measured: the
# whole tiny set 67 s, small 1213 s; paper guessed), for the estimate printed before the runs.
RUN_SECONDS = {"tiny": 0.5, "small": 9.0, "paper": 120.0}
CORES, LANES = 32, 32  # 002 §7.2; the presets' wpus and warp_size (checked per run)

# 002's numbers, from its text (the figures themselves are not in our copy).
# Table 3: insts per memory op; GB/s and inst/s (G thread-insts/s, peak 2048) as 1 / 16 warps.
P_T3 = {"nl": (19, 8.15, 111.4, 156, 2048), "lj": (25, 26.34, 256, 204, 1599), "sa": (7, 62.77, 256, 57, 445),
        "rt": (15, 30.60, 256, 124, 767), "km": (5, 26, 256, 2048, 634), "gf": (8, 77.91, 256, 65, 215)}
# Fig. 7, §8.3: adaptive slip over blocking at 1 warp per core (RT not given; KM "no
# appreciable speedup").
P_FIG7_W1 = {"nl": 2.5, "lj": 5.6, "sa": 4.23, "gf": 8.3, "km": 1.0}
# Fig. 8, §8.3: geometric means over the kernels, relative to 1 warp blocking.
P_FIG8_BLOCK = {1: 1.0, 2: 1.8, 4: 3.07, 16: 4.14}
P_FIG8_ADAPT = {1: 3.14, 2: 4.66, 4: 5.38}
# adaptive over blocking at the same warps: 3.14 .. 1.75 for 1..4, +26% at 8, +3.8% at 16
P_FIG8_RATIO = {1: 3.14, 2: 4.66 / 1.8, 4: 1.75, 8: 1.26, 16: 1.038}
# Fig. 6, §8.2: best single fixed max slip ("avg max slip") vs per-kernel best ("best mix").
P_FIG6 = {1: (2.65, 4.0), 2: (2.88, 3.15)}
# §8.4: mean performance with private L2s over without, 1..16 warps (+8.1% .. +115.9%);
# Fig. 10: blocking at 16 warps 6.35x one warp, adaptive peak 7.36x.
P_L2_GAIN = {1: 1.081, 2: 1.072, 4: 1.074, 8: 1.524, 16: 2.159}
P_FIG10_BLOCK = {16: 6.35}


def parse_list(text, what, allowed=None, lo=None, hi=None):
    out = []
    for item in [s for s in text.split(",") if s]:
        if allowed is not None:
            if item not in allowed:
                sys.stderr.write("dom_experiments: --%s %s: expected some of %s\n" % (what, item, ",".join(allowed)))
                sys.exit(2)
            out.append(item)
            continue
        if not item.isdigit() or int(item) < lo or int(item) > hi:
            sys.stderr.write("dom_experiments: --%s %s: expected integers %d..%d\n" % (what, item, lo, hi))
            sys.exit(2)
        out.append(int(item))
    if not out and what != "slips":
        sys.stderr.write("dom_experiments: --%s is empty\n" % what)
        sys.exit(2)
    return out


def plan(args):
    """The runs: (config, policy, max slip or None, kernel, warps)."""
    runs = []
    for cfg in args.configs:
        for w in args.warps:
            for k in args.kernels:
                runs.append((cfg, "DoM.Block", None, k, w))
                runs.append((cfg, "DoM.Adaptive", None, k, w))
    for s in args.slips:
        for w in args.warps:
            for k in args.kernels:
                runs.append((args.configs[0], "DoM.FixedSlip", s, k, w))
    return runs


def run_one(args, tmp, key):
    cfg, pol, slip, k, w = key
    tag = "%s.%s.%s.%s.w%d" % (cfg, pol, slip, k, w)
    stats = os.path.join(tmp, tag + ".json")
    dump = os.path.join(tmp, tag + ".dump")
    cmd = [os.path.join(args.build, "wpusim"), "--config", cfg, "--policy", pol, "--set", "warps=%d" % w,
           "--threads", str(CORES * w * LANES), "--seed", str(args.seed), "--arg", str(args.arg_value),
           "--stats", "json", "--stats-out", stats, "--dump", dump]
    if slip is not None:
        cmd += ["--set", "dom_max_slip=%d" % slip]
    for kv in args.set or []:
        cmd += ["--set", kv]
    cmd.append(os.path.join(args.build, "kernels", k + ".elf"))
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    row = {"config": cfg, "policy": pol, "slip": slip, "kernel": k, "warps": w, "exit": p.returncode,
           "wall_s": time.monotonic() - t0, "dump": dump, "command": " ".join(cmd)}
    if p.returncode != 0 or not os.path.exists(stats):
        err = p.stderr.strip().splitlines()
        row["error"] = "wpusim exit %d: %s" % (p.returncode, err[-1] if err else "")
        return row
    with open(stats) as f:
        st = json.load(f)
    m = measured(st)  # the kernel's region of interest when it marks one (docs/abi.md), else the whole run
    t, c = m["total"], st["config"]
    if c["wpus"] != CORES or c["warp_size"] != LANES:
        row["error"] = "preset %s has %d cores x %d lanes; this script assumes 002's %d x %d" % (
            cfg, c["wpus"], c["warp_size"], CORES, LANES)
        return row
    wpus = len(m["wpu"])
    mem = m.get("memory", {})
    l1d = mem.get("l1d", {})
    dram = mem.get("dram", {})
    cyc = m["cycles"]
    secs = cyc / (c["core_mhz"] * 1e6)
    row.update({
        "status": st["status"], "cycles": cyc, "thread_insts": t["thread_insts"], "warp_insts": t["warp_insts"],
        "roi": m is not st, "all_thread_insts": st["total"]["thread_insts"],
        "instret_hash": st["threads"].get("instret_hash"),
        "ipc": t["thread_insts"] / cyc if cyc else 0.0,  # thread-instructions per cycle, whole chip
        "ginst_s": t["thread_insts"] / 1e9 / secs if secs else 0.0,
        "gbps": dram.get("bytes", 0) / 1e9 / secs if secs else 0.0,
        "insts_per_memop": t["warp_insts"] / (t["loads"] + t["stores"]) if t["loads"] + t["stores"] else None,
        "memwait": t["cycles_memwait"] / (cyc * wpus) if cyc else 0.0,
        "l1_miss": l1d.get("misses", 0) / l1d["accesses"] if l1d.get("accesses") else 0.0,
    })
    for name in ("mem_div_insts", "mem_miss_insts", "mshr_stalls", "dom_allocs", "dom_merges", "dom_masked_lanes",
                 "dom_reactivations", "dom_forced", "dom_forced_lanes", "dom_refused_full", "dom_refused_slip",
                 "dom_mcb_full", "dom_periods", "dom_raise", "dom_lower", "dom_max_slip_sum",
                 "dom_deep_reactivations", "dom_disabled", "div_branches", "branches"):
        row[name] = t.get(name, 0)
    if st["status"] != "done":
        row["error"] = "status %s" % st["status"]
    return row


def check(rows, ref_cfg):
    """Every run against DoM.Block on ref_cfg at the same kernel and warps: results, per-thread
    instruction counts. Returns the failures."""
    refs = {(r["kernel"], r["warps"]): r for r in rows
            if r["config"] == ref_cfg and r["policy"] == "DoM.Block" and "error" not in r}
    bad = []
    for r in rows:
        name = "%s %s %s%s w=%d" % (r["kernel"], r["config"], r["policy"],
                                     "" if r["slip"] is None else " slip %d" % r["slip"], r["warps"])
        ref = refs.get((r["kernel"], r["warps"]))
        why = None
        if "error" in r:
            why = "%s (%s)" % (r["error"], r["command"])
        elif ref is None:
            why = "no blocking reference run"
        elif r["all_thread_insts"] != ref["all_thread_insts"] or r["instret_hash"] != ref["instret_hash"]:
            why = "per-thread instruction counts differ from DoM.Block's (%d vs %d thread-insts)" % (
                r["thread_insts"], ref["thread_insts"])
        elif r is not ref and not filecmp.cmp(r["dump"], ref["dump"], shallow=False):
            why = "results (--dump) differ from DoM.Block's"
        r["check"] = "ok" if why is None else "FAIL"
        if why is not None:
            bad.append("%s: %s" % (name, why))
    return bad


def gmean(xs):
    """Geometric mean, or None ("-") when a kernel's run is missing: a mean over fewer
    kernels would not compare with the others."""
    if not xs or any(x is None or x <= 0 for x in xs):
        return None
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def f(v, spec=".2f"):
    return "-" if v is None else format(v, spec)


def md(head, body):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in body]
    return "\n".join(out)


def tables(args, rows):
    R = {}
    for r in rows:
        if "error" not in r:
            R[(r["config"], r["policy"], r["slip"], r["kernel"], r["warps"])] = r
    K, W, c0 = args.kernels, args.warps, args.configs[0]
    WH = ["%d warp%s" % (w, "" if w == 1 else "s") for w in W]
    get = lambda cfg, pol, k, w, slip=None: R.get((cfg, pol, slip, k, w))

    def ipc(cfg, pol, k, w, slip=None):
        r = get(cfg, pol, k, w, slip)
        return r["ipc"] if r else None

    def ratio(a, b):
        return a / b if a is not None and b else None

    out = []
    # Table 3: blocking on the first config at the smallest and largest warp counts.
    lo, hi = W[0], W[-1]
    body = []
    for k in K:
        a, b, p = get(c0, "DoM.Block", k, lo), get(c0, "DoM.Block", k, hi), P_T3.get(k)
        body.append([k.upper(), "%s (%s)" % (f(a and a["insts_per_memop"], ".1f"), p[0] if p else "-"),
                     "%s / %s (%s / %s)" % (f(a and a["gbps"], ".1f"), f(b and b["gbps"], ".1f"),
                                            p[1] if p else "-", p[2] if p else "-"),
                     "%s / %s (%s / %s)" % (f(a and a["ginst_s"], ".1f"), f(b and b["ginst_s"], ".1f"),
                                            p[3] if p else "-", p[4] if p else "-"),
                     "%s / %s" % (f(a and 100 * a["l1_miss"], ".0f"), f(b and 100 * b["l1_miss"], ".0f")),
                     "%s / %s" % (f(a and 100 * a["memwait"], ".0f"), f(b and 100 * b["memwait"], ".0f"))])
    out.append("### Table 3 (`%s`, DoM.Block, %d / %d warps per core; 002's in parentheses, 1 / 16 warps)\n" % (c0, lo, hi))
    out.append(md(["kernel", "insts/mem op", "GB/s", "G thread-insts/s", "L1 miss %", "mem. wait %"], body))

    # Fig. 4: blocking throughput per warp count.
    body = []
    for k in K:
        base = ipc(c0, "DoM.Block", k, W[0])
        p = P_T3.get(k)
        body.append([k.upper()] + ["%s (%sx)" % (f(ipc(c0, "DoM.Block", k, w), ".1f"),
                                                f(ratio(ipc(c0, "DoM.Block", k, w), base)))
                                   for w in W] + [f(p[4] / p[3]) if p else "-"])
    gm = [gmean([ratio(ipc(c0, "DoM.Block", k, w), ipc(c0, "DoM.Block", k, W[0])) for k in K]) for w in W]
    body.append(["geo. mean (x)"] + [f(g) for g in gm] + ["-"])
    body.append(["002 Fig. 8 (x)"] + [f(P_FIG8_BLOCK.get(w)) for w in W] + ["-"])
    out.append("\n### Fig. 4: blocking throughput (`%s`, thread-instructions per cycle, whole chip; "
               "in parentheses relative to %d warp)\n" % (c0, W[0]))
    out.append(md(["kernel"] + WH + ["002 16 w / 1 w (Table 3)"], body))

    # Fig. 6: fixed slip over blocking.
    if args.slips:
        body = []
        best_single, best_mix = {}, {}
        for w in W:
            per_slip = {s: gmean([ratio(ipc(c0, "DoM.FixedSlip", k, w, s), ipc(c0, "DoM.Block", k, w)) for k in K])
                        for s in args.slips}
            ok = [(g, s) for s, g in per_slip.items() if g is not None]
            best_single[w] = max(ok) if ok else (None, None)
            best_mix[w] = gmean([max([ratio(ipc(c0, "DoM.FixedSlip", k, w, s), ipc(c0, "DoM.Block", k, w))
                                      for s in args.slips if ipc(c0, "DoM.FixedSlip", k, w, s)] or [None])
                                 for k in K])
            for k in K:
                body.append([k.upper(), w] + [f(ratio(ipc(c0, "DoM.FixedSlip", k, w, s), ipc(c0, "DoM.Block", k, w)))
                                              for s in args.slips]
                            + [f(ratio(ipc(c0, "DoM.Adaptive", k, w), ipc(c0, "DoM.Block", k, w)))])
            body.append(["geo. mean", w] + [f(per_slip[s]) for s in args.slips]
                        + [f(gmean([ratio(ipc(c0, "DoM.Adaptive", k, w), ipc(c0, "DoM.Block", k, w)) for k in K]))])
        out.append("\n### Fig. 6: fixed max slip, speedup over blocking (`%s`)\n" % c0)
        out.append(md(["kernel", "warps"] + ["max slip %d" % s for s in args.slips] + ["adaptive"], body))
        body = [[w, "%s (slip %s)" % (f(best_single[w][0]), best_single[w][1]), f(best_mix[w]),
                 "%s / %s" % (P_FIG6[w] if w in P_FIG6 else ("-", "-"))] for w in W]
        out.append("\nBest single max slip across the kernels (002's \"avg max slip\") and each kernel's own "
                   "best (\"best mix\"), geometric means of the speedups over blocking:\n")
        out.append(md(["warps", "best single", "best mix", "002 single / mix"], body))

    # Figs. 7-8 and 9-10: adaptive over blocking, per config.
    for n, cfg in enumerate(args.configs):
        figs = ("7", "8") if n == 0 else ("9", "10")
        body = []
        for k in K:
            body.append([k.upper()] + [f(ratio(ipc(cfg, "DoM.Adaptive", k, w), ipc(cfg, "DoM.Block", k, w))) for w in W]
                        + ([f(P_FIG7_W1.get(k))] if n == 0 else []))
        same = [gmean([ratio(ipc(cfg, "DoM.Adaptive", k, w), ipc(cfg, "DoM.Block", k, w)) for k in K]) for w in W]
        body.append(["geo. mean"] + [f(g) for g in same] + (["-"] if n == 0 else []))
        if n == 0:
            body.append(["002 geo. mean"] + [f(P_FIG8_RATIO.get(w)) for w in W] + ["-"])
        out.append("\n### Fig. %s: adaptive slip, speedup over blocking at the same warps (`%s`)\n" % (figs[0], cfg))
        out.append(md(["kernel"] + WH + (["002, 1 warp"] if n == 0 else []), body))
        blk = [gmean([ratio(ipc(cfg, "DoM.Block", k, w), ipc(cfg, "DoM.Block", k, W[0])) for k in K]) for w in W]
        ada = [gmean([ratio(ipc(cfg, "DoM.Adaptive", k, w), ipc(cfg, "DoM.Block", k, W[0])) for k in K]) for w in W]
        body = [["blocking"] + [f(g) for g in blk], ["adaptive slip"] + [f(g) for g in ada]]
        if n == 0:
            body += [["002 blocking"] + [f(P_FIG8_BLOCK.get(w)) for w in W],
                     ["002 adaptive"] + [f(P_FIG8_ADAPT.get(w)) for w in W]]
        else:
            body += [["002 blocking"] + [f(P_FIG10_BLOCK.get(w)) for w in W],
                     ["002 adaptive"] + ["peak 7.36" if w == 8 else "-" for w in W]]
            gain = [gmean([ratio(ipc(cfg, "DoM.Block", k, w), ipc(c0, "DoM.Block", k, w)) for k in K]) for w in W]
            body += [["blocking, %s / %s" % (cfg, c0)] + [f(g) for g in gain],
                     ["002, with / without L2"] + [f(P_L2_GAIN.get(w)) for w in W]]
        out.append("\n### Fig. %s: geometric mean over the kernels, relative to %d warp blocking (`%s`)\n"
                   % (figs[1], W[0], cfg))
        out.append(md(["" ] + WH, body))

    # "2 slipping warps ~ 16 blocking ones" (Fig. 8), "4 ... with L2s" (Fig. 10).
    if 16 in W:
        body = []
        for cfg, a in zip(args.configs, (2, 4)):
            if a not in W:
                continue
            rs = [ratio(ipc(cfg, "DoM.Adaptive", k, a), ipc(cfg, "DoM.Block", k, 16)) for k in K]
            body.append([cfg, a] + [f(x) for x in rs] + [f(gmean(rs)),
                                                         "~1 (4.66 / 4.14 = 1.13)" if a == 2 else "~1"])
        out.append("\n### Adaptive slip at few warps vs blocking at 16 (throughput ratio)\n")
        out.append(md(["config", "adaptive warps"] + [k.upper() for k in K] + ["geo. mean", "002"], body))

    # The statistics behind the differences.
    body = []
    for cfg in args.configs:
        for k in K:
            for w in W:
                b, a = get(cfg, "DoM.Block", k, w), get(cfg, "DoM.Adaptive", k, w)
                if not a or not b:
                    continue
                div = a["mem_div_insts"]
                taken = a["dom_allocs"] + a["dom_merges"]
                eff = lambda r: 100.0 * r["thread_insts"] / (r["warp_insts"] * LANES)
                body.append([cfg, k.upper(), w, "%.0f / %.0f" % (100 * b["memwait"], 100 * a["memwait"]),
                             "%.0f / %.0f" % (eff(b), eff(a)),
                             "%.0f / %.0f" % (100 * b["l1_miss"], 100 * a["l1_miss"]),
                             "%.0f / %.0f" % (b["gbps"], a["gbps"]), div,
                             f(100.0 * taken / div if div else None, ".0f"),
                             a["dom_refused_full"], a["dom_refused_slip"], a["dom_forced"], a["dom_reactivations"],
                             f(a["dom_max_slip_sum"] / a["dom_periods"] if a["dom_periods"] else None, ".1f"),
                             a["dom_periods"]])
    out.append("\n### Statistics (blocking / adaptive; DoM counters of the adaptive run)\n")
    out.append(md(["config", "kernel", "warps", "mem. wait %", "SIMD eff. %", "L1 miss %", "GB/s", "div. accesses", "slipped %",
                   "refused: table full", "refused: slip", "forced re-conv.", "re-activations", "mean max slip",
                   "periods"], body))
    return "\n".join(out) + "\n"


def control_flow(args, branches, selects):
    """The kernels written with branches against their branch-free variants (docs/dom.md,
    "What control flow costs"): two runs' rows, --selects off and on."""
    def key(r):
        return (r["config"], r["policy"], r["slip"], r["kernel"], r["warps"])
    A = {key(r): r for r in branches if "error" not in r}
    B = {key(r): r for r in selects if "error" not in r}
    c0 = args.configs[0]
    body = []
    for k in args.kernels:
        for w in args.warps:
            ab, bb = A.get((c0, "DoM.Block", None, k, w)), B.get((c0, "DoM.Block", None, k, w))
            aa, ba = A.get((c0, "DoM.Adaptive", None, k, w)), B.get((c0, "DoM.Adaptive", None, k, w))
            if not (ab and bb and aa and ba):
                continue
            eff = lambda r: 100.0 * r["thread_insts"] / (r["warp_insts"] * LANES)
            dpk = lambda r: 1000.0 * r["div_branches"] / r["warp_insts"] if r["warp_insts"] else 0.0
            body.append([k.upper(), w, "%.1f / %.1f" % (ab["ipc"], bb["ipc"]),
                         "%d / %d" % (ab["thread_insts"], bb["thread_insts"]),
                         "%.0f / %.0f" % (eff(ab), eff(bb)), "%.1f / %.1f" % (dpk(ab), dpk(bb)),
                         "%.2f / %.2f" % (aa["ipc"] / ab["ipc"], ba["ipc"] / bb["ipc"]),
                         "%.0f / %.0f" % (eff(aa), eff(ba)), "%.2f" % (ba["ipc"] / ab["ipc"])])
    return ("### What control flow costs (`%s`; with branches / branch-free)\n\n" % c0 +
            md(["kernel", "warps", "blocking thread-insts/cycle", "thread-insts", "blocking SIMD eff. %",
                "divergent branches / 1000 SIMD insts", "adaptive over blocking", "adaptive SIMD eff. %",
                "branch-free adaptive / with branches blocking"], body) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", choices=SIZES, default="tiny")
    p.add_argument("--arg", type=int, help="kernel argument instead of the size's")
    p.add_argument("--selects", action="store_true",
                   help="the kernels' branch-free variants (--arg bit 30; docs/dom.md, \"What control flow costs\")")
    p.add_argument("--kernels", default=None, help="default: all six (with --selects: %s)" % ",".join(SELECTS_KERNELS))
    p.add_argument("--warps", default="1,2,4,8,16", help="warps per core (default 1,2,4,8,16)")
    p.add_argument("--slips", default="2,4,8,16,32", help="DoM.FixedSlip max slips for Fig. 6 ('' = none)")
    p.add_argument("--configs", default="dom,dom-l2", help="presets; the first is Figs. 4-8's, the second Figs. 9-10's")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="extra configuration for every run")
    p.add_argument("--markdown", help="also write the tables to FILE")
    p.add_argument("--json", help="write every run's row as JSON")
    p.add_argument("--report", metavar="FILE.html",
                   help="also write a report page (scripts/report.py): blocking, adaptive and fixed slip side by "
                        "side on the first kernel, config and warp count")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--from-json", metavar="FILE", help="print the tables of an earlier --json instead of running")
    p.add_argument("--selects-json", metavar="FILE",
                   help="with --from-json (the kernels with branches): a --selects run's --json; prints what "
                        "control flow costs instead")
    args = p.parse_args()
    if args.kernels is None:
        args.kernels = ",".join(SELECTS_KERNELS if args.selects else KERNELS)
    args.kernels = parse_list(args.kernels, "kernels", KERNELS)
    if args.selects and [k for k in args.kernels if k not in SELECTS_KERNELS]:
        sys.stderr.write("dom_experiments: --selects: no branch-free variant of %s (it would read --arg's bit 30 "
                         "as an input size); choose among %s\n" % (
                             ",".join(k for k in args.kernels if k not in SELECTS_KERNELS), ",".join(SELECTS_KERNELS)))
        sys.exit(2)
    args.warps = sorted(set(parse_list(args.warps, "warps", lo=1, hi=32)))
    args.slips = sorted(set(parse_list(args.slips, "slips", lo=1, hi=255)))
    args.configs = parse_list(args.configs, "configs", ["dom", "dom-l2"])
    if args.jobs < 1:
        sys.stderr.write("dom_experiments: --jobs %d: expected at least 1\n" % args.jobs)
        sys.exit(2)
    args.arg_value = (SIZES[args.size] if args.arg is None else args.arg) | (1 << 30 if args.selects else 0)
    if args.from_json:
        with open(args.from_json) as fh:
            rows = json.load(fh)
        for r in rows:
            if r.get("check") != "ok":
                r["error"] = "check %s" % r.get("check")
        if args.selects_json:
            with open(args.selects_json) as fh:
                sel = json.load(fh)
            for r in sel:
                if r.get("check") != "ok":
                    r["error"] = "check %s" % r.get("check")
            text = "dom_experiments: %s against %s\n\n" % (args.from_json, args.selects_json) + \
                control_flow(args, rows, sel)
        else:
            text = "dom_experiments: tables of %s (%d runs)\n\n" % (args.from_json, len(rows)) + tables(args, rows)
        sys.stdout.write(text)
        if args.markdown:
            with open(args.markdown, "w") as fh:
                fh.write(text)
        return 0
    missing = [x for x in [os.path.join(args.build, "wpusim")] +
               [os.path.join(args.build, "kernels", k + ".elf") for k in args.kernels] if not os.path.exists(x)]
    if missing:
        sys.exit("dom_experiments: not built: %s (run make && make kernels)" % ", ".join(missing))

    runs = plan(args)
    est = len(runs) * RUN_SECONDS[args.size] / args.jobs
    sys.stderr.write("dom_experiments: %d runs (%d kernels x %d warp counts x (2 policies x %d configs + %d fixed "
                     "slips)), size %s (arg %d), --jobs %d: about %.0f s (%.1f s a run measured at this size)\n"
                     % (len(runs), len(args.kernels), len(args.warps), len(args.configs), len(args.slips),
                        args.size, args.arg_value, args.jobs, est, RUN_SECONDS[args.size]))
    t0 = time.monotonic()
    rows = []
    with tempfile.TemporaryDirectory(prefix="dom_exp.") as tmp:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futs = [pool.submit(run_one, args, tmp, key) for key in runs]
            for fut in concurrent.futures.as_completed(futs):
                r = fut.result()
                rows.append(r)
                sys.stderr.write("[%d/%d %4.0f s] %-2s %-6s %-13s %4s w=%-2d %s\n" % (
                    len(rows), len(runs), time.monotonic() - t0, r["kernel"], r["config"], r["policy"],
                    "" if r["slip"] is None else r["slip"], r["warps"],
                    r["error"] if "error" in r else "%d cycles, %.1f s" % (r["cycles"], r["wall_s"])))
        bad = check(rows, args.configs[0])
        page = None
        if args.report:  # (the runs' statistics are in tmp until the block ends)
            c0, k0, w0 = args.configs[0], args.kernels[0], args.warps[0]
            keys = [("DoM.Block", None), ("DoM.Adaptive", None)] + [("DoM.FixedSlip", s) for s in args.slips]
            found = [("%s%s" % (pol, "" if s is None else " %d" % s),
                      os.path.join(tmp, "%s.%s.%s.%s.w%d.json" % (c0, pol, s, k0, w0))) for pol, s in keys]
            found = [(lab, f) for lab, f in found if os.path.isfile(f)]
            if found:
                page = report.build([report.load_run(f) for _, f in found], [lab for lab, _ in found], {},
                                    "WarpSplit: 002's legends on %s (%s, warps = %d, size %s)" % (
                                        k0.upper(), c0, w0, args.size))
                with open(args.report, "w", encoding="utf-8") as fh:
                    fh.write(page)
    order = {key: i for i, key in enumerate(runs)}
    rows.sort(key=lambda r: order[(r["config"], r["policy"], r["slip"], r["kernel"], r["warps"])])
    head = ("dom_experiments: size %s (arg %d), seed %d, kernels %s, warps %s, configs %s%s; %d runs in %.0f s; "
            "results and per-thread instruction counts against DoM.Block: %s\n"
            % (args.size, args.arg_value, args.seed, ",".join(args.kernels), ",".join(map(str, args.warps)),
               ",".join(args.configs), "".join(" --set " + s for s in args.set or []), len(rows),
               time.monotonic() - t0, "all identical" if not bad else "%d FAILED" % len(bad)))
    text = head + "\n" + tables(args, rows)
    if page:
        text += "\nReport page (scripts/report.py: the legends on %s, %s, warps = %d): [%s](%s)\n" % (
            args.kernels[0].upper(), args.configs[0], args.warps[0], os.path.basename(args.report),
            os.path.basename(args.report))
    sys.stdout.write(text)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(text)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump([{k: v for k, v in r.items() if k != "dump"} for r in rows], fh, indent=1)
    for b in bad:
        sys.stderr.write("dom_experiments: FAIL %s\n" % b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
