#!/usr/bin/env python3
"""Delivered DRAM bandwidth of every preset (docs/memory.md, "Bandwidth").

Runs tests/mem/bandwidth.S — every thread of the machine streams through a
4 MiB array, one word every L bytes, inside the region of interest — on each
preset with as many threads as it has contexts, for L = 4 (a SIMD load reads
consecutive words: the coalesced stream) and L = the DRAM transfer unit (a
line of its own per lane), and prints a markdown table: the stated bandwidth,
the delivered one (DRAM bytes over the region's cycles), and the bound
Little's law puts on it,

    bytes in flight / unloaded latency,

with the requests in flight the fewest of the MSHRs (L1 D, and the L2's when
there is one), the warps x lines one SIMD load touches (loads block their
warp), and the unloaded latency measured: one thread's load of a line from
DRAM, issue to next issue, from the trace (a row hit on a banked DRAM).

    python3 scripts/bandwidth.py [--build build] [--check PCT]

Where the preset's own MSHRs forbid the stated bandwidth (Little's bound
below it: `maws-bulksync`'s 16 MSHRs of 32 B lines), the stream runs a second
time with enough requests in flight (the MSHRs raised until the bound is
twice the stated bandwidth; nothing else changed): that run measures the DRAM
and the paths to it, not the preset's miss handling.

--check PCT: exit 1 unless every preset delivers PCT % of its stated
bandwidth with enough requests in flight (as configured, or with the MSHRs
raised), and PCT % of its Little bound as configured.
Standard library only.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRESETS = ["dws", "maws-coherent", "maws-bulksync", "dom", "dom-l2", "lwm"]


def run(sim, elf, preset, threads, arg, extra=()):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "s.json")
        trace = os.path.join(tmp, "t.trace")
        cmd = [sim, "--config", preset, "--no-progress", "--quiet", "--stats", "json", "--stats-out", out,
               "--threads", str(threads), "--arg", str(arg)] + list(extra) + ["--trace", trace, elf]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("bandwidth.py: %s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr[:400]))
        with open(out) as f:
            st = json.load(f)
        lw = []
        if threads == 1:  # the unloaded latency: a load's issue to the next issue
            with open(trace) as f:
                lines = f.readlines()
            for i, l in enumerate(lines[:-1]):
                if " lw " in l:
                    lw.append(int(lines[i + 1][2:14], 16) - int(l[2:14], 16))
        return st, lw


def preset_config(sim, preset):
    """The preset's configuration (wpusim --print-config), numbers as numbers."""
    p = subprocess.run([sim, "--config", preset, "--print-config"], capture_output=True, text=True, check=True)
    c = {}
    for line in p.stdout.splitlines():
        m = re.match(r"\s*(\w+)\s*=\s*(\S+)", line)
        if m:
            v = m.group(2)
            c[m.group(1)] = int(v) if re.fullmatch(r"\d+", v) else v
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--check", type=float, default=None)
    a = ap.parse_args()
    sim = os.path.join(a.build, "wpusim")
    elf = os.path.join(a.build, "memtests", "bandwidth.elf")
    rows, bad = [], []
    for p in PRESETS:
        c = preset_config(sim, p)
        has_l2 = c["memory"] == "coherent" or c["l2_private"]
        unit = max(c["l1d_line"], c["l2_line"]) if has_l2 else c["l1d_line"]  # bytes a DRAM read moves
        lg = unit.bit_length() - 1
        _, lat = run(sim, elf, p, 1, lg - 2, ["--set", "wpus=1", "--set", "warps=1", "--set", "width=1"])
        latency = sorted(lat)[len(lat) // 2]  # the median load: a line from DRAM
        stated = c["dram_mbps"] / c["core_mhz"]
        threads = c["wpus"] * c["warps"] * c["warp_size"]
        best = None
        cells = []
        for L in (4, unit):
            st, _ = run(sim, elf, p, threads, (L.bit_length() - 1) - 2)
            r = st["roi"]
            bw = r["memory"]["dram"]["bytes"] / r["cycles"]
            # requests in flight: MSHRs, and warps x DRAM units one SIMD load touches
            per_load = max(1, c["warp_size"] * L // unit)
            inflight = min(c["wpus"] * c["l1d_mshrs"] * max(1, c["l1d_line"] // unit) if not has_l2
                           else c["wpus"] * c["l1d_mshrs"], c["wpus"] * c["warps"] * per_load)
            if c["memory"] == "coherent":
                inflight = min(inflight, c["l2_mshrs"])
            little = min(stated, inflight * unit / latency)
            cells.append((L, bw, little))
            if best is None or bw > best[1]:
                best = (L, bw, little)
        L, bw, little = best
        # enough requests in flight: when the MSHRs bound the stream below the
        # stated bandwidth, raise them (only them) until Little allows twice it
        raised = None
        if little < stated:
            need = -(-2 * stated * latency // unit)  # requests in flight for twice the stated rate
            mshrs = ["--set", "l1d_mshrs=%d" % max(c["l1d_mshrs"], -(-need // c["wpus"]))]
            if c["memory"] == "coherent":
                mshrs += ["--set", "l2_mshrs=%d" % max(c["l2_mshrs"], need)]
            st, _ = run(sim, elf, p, threads, (L.bit_length() - 1) - 2, mshrs)
            # what still bounds it: the warps x lines one SIMD load touches (loads block their warp)
            bound = min(stated, c["wpus"] * c["warps"] * max(1, c["warp_size"] * L // unit) * unit / latency)
            raised = (st["roi"]["memory"]["dram"]["bytes"] / st["roi"]["cycles"], " ".join(mshrs[1::2]), bound)
        rows.append((p, stated, latency, cells, best, raised))
        if a.check is not None:
            flow = raised[0] if raised else bw
            if flow < a.check / 100 * stated:
                bad.append("%s: %.2f B/cycle delivered with enough requests in flight, below %.0f%% of the stated %.2f"
                           % (p, flow, a.check, stated))
            if bw < a.check / 100 * min(stated, little):
                bad.append("%s: %.2f B/cycle delivered, below %.0f%% of its Little bound %.2f"
                           % (p, bw, a.check, min(stated, little)))
    print("| preset | stated B/cycle | unloaded DRAM load (cycles) | L = 4: delivered, Little | L = line: delivered, "
          "Little | best, % of stated | % of its Little bound | enough in flight: % of stated |")
    print("|---|---|---|---|---|---|---|---|")
    for p, stated, latency, cells, (L, bw, little), raised in rows:
        cs = " | ".join("%.2f, %.2f" % (b, l) for _, b, l in cells)
        more = ("%.0f%% (`%s`; its contexts' Little bound %.0f%%)" % (100 * raised[0] / stated, raised[1],
                                                                       100 * raised[2] / stated)
                if raised else "(as configured)")
        print("| `%s` | %.1f | %d | %s | %.0f%% (L = %d) | %.0f%% | %s |" % (p, stated, latency, cs, 100 * bw / stated,
                                                                         L, 100 * bw / little, more))
    if bad:
        print("\n".join(bad), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
