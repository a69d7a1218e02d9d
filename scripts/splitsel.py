#!/usr/bin/env python3
"""Which branches DWS may split on, per kernel (issue 11 item 5; docs/dws.md).

    scripts/splitsel.py lines KERNEL [--task T]
        every conditional branch of the kernel's ELF with its source line
    scripts/splitsel.py hand KERNEL [--task T] [-o FILE]
        sim/splits/KERNEL.split (source lines) resolved to a wpusim --split-list
    scripts/splitsel.py profile KERNEL [--task T] [--size S] [-o FILE] [--min-side N]
        run 1: Conv with --branch-profile; choose; write the --split-list
    scripts/splitsel.py compare [--size small] [--task paper] [--policies A,B] [--jobs J]
        the suite under each policy with the §4.3 rule, the hand lists and the
        profile's lists (runs 1 and 2), speedup over Conv, as scripts/speedup.py

Source lines come from a copy of the kernel compiled with -g (the same
flags otherwise): its .text must equal the ELF's byte for byte, or the
script stops (exit 2). The profile's rule: a branch the §4.3 rule selects
(post-dominator before a short block, forward, not a loop branch) stays
selected if, when it diverges, its smaller side has on average at least
--min-side threads (default a quarter of the warp: 4 of 16), so that a split
never makes groups narrower than that on average. Standard library only.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite import task_value  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = ["fft", "filter", "hotspot", "lu", "merge", "short", "kmeans", "svm"]
SIZES = {"tiny": 0, "small": 1, "paper": 2}
RV_CFLAGS = ["--target=riscv32", "-march=rv32imf", "-mabi=ilp32f", "-mno-relax", "-fno-jump-tables", "-O2",
             "-ffreestanding", "-nostdlib", "-ffp-contract=off", "-std=c11", "-fno-optimize-sibling-calls",
             "-Xclang", "-fconvergent-functions", "-ffunction-sections", "-fdata-sections", "-Ikernels/runtime"]
RV_LDFLAGS = ["-fuse-ld=lld", "-Wl,-T,kernels/runtime/link.ld", "-Wl,--no-relax", "-Wl,--discard-locals",
              "-Wl,--gc-sections", "-static"]


# objdump's branch pseudo-instructions -> the instruction (wpusim's mnemonics)
PSEUDO = {"beqz": "beq", "bnez": "bne", "blez": "bge", "bgez": "bge", "bltz": "blt", "bgtz": "blt",
          "bgt": "blt", "ble": "bge", "bgtu": "bltu", "bleu": "bgeu"}


def die(msg):
    sys.stderr.write("splitsel: %s\n" % msg)
    sys.exit(2)


def elf_of(build, kernel, task):
    p = os.path.join(build, "kernels", "" if task is None else "tasks", kernel + ".elf")
    if not os.path.exists(p):
        die("%s: not built (make kernels)" % p)
    return p


def sh(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, **kw)
    if p.returncode != 0:
        die("%s: exit %d: %s" % (" ".join(cmd[:3]), p.returncode, p.stderr.strip()[:400]))
    return p.stdout


def branches(build, elf):
    """[(pc, 'sym+0xoff', mnemonic-less ipdom text, loop)] from wpusim --dump-cfg and the disassembly."""
    out = []
    for line in sh([os.path.join(build, "wpusim"), "--dump-cfg", elf]).splitlines():
        m = re.match(r"ipdom (\S+) -> (\S+)( loop)?$", line)
        if m:
            out.append((m.group(1), m.group(2), bool(m.group(3))))
    return out


def source_lines(build, kernel, task, elf, where):
    """{'sym+0xoff': (address, 'file.c:LINE')} through a -g copy of the kernel."""
    with tempfile.TemporaryDirectory() as tmp:
        obj, gelf = os.path.join(tmp, "k.o"), os.path.join(tmp, "k.elf")
        sh(["clang"] + RV_CFLAGS + ["-g"] + (["-DWSIM_TASKS"] if task is not None else []) +
           ["-c", "kernels/%s.c" % kernel, "-o", obj])
        rt = [os.path.join(build, "kernels", "runtime", x) for x in ("crt0.o", "libc.o")]
        sh(["clang"] + RV_CFLAGS[:9] + RV_LDFLAGS + rt + [obj, "-o", gelf])
        a, b = os.path.join(tmp, "a.bin"), os.path.join(tmp, "b.bin")
        sh(["llvm-objcopy", "-O", "binary", "--only-section=.text", gelf, a])
        sh(["llvm-objcopy", "-O", "binary", "--only-section=.text", elf, b])
        if open(a, "rb").read() != open(b, "rb").read():
            die("%s: the -g copy's code differs from the ELF's (rebuild: make kernels); cannot map source lines"
                % elf)
        syms = {}
        for line in sh(["llvm-nm", gelf]).splitlines():
            f = line.split()
            if len(f) == 3:
                syms[f[2]] = int(f[0], 16)
        addrs = []
        for w in where:
            s, _, off = w.partition("+")
            addrs.append(syms[s] + int(off or "0", 16))
        res = sh(["llvm-addr2line", "-e", gelf] + ["0x%x" % x for x in addrs]).splitlines()
        dis = {}
        for line in sh(["llvm-objdump", "-d", "--no-show-raw-insn", gelf]).splitlines():
            m = re.match(r"\s*([0-9a-f]+):\s+(\S+)", line)
            if m:
                dis[int(m.group(1), 16)] = PSEUDO.get(m.group(2), m.group(2))
    return {w: (x, os.path.basename(r.split(":")[0]) + ":" + r.split(":")[1].split()[0], dis.get(x, "?"))
            for w, x, r in zip(where, addrs, res)}


def cmd_lines(args):
    task = task_value(args.task, args.kernel)
    elf = elf_of(args.build, args.kernel, task)
    br = branches(args.build, elf)
    src = source_lines(args.build, args.kernel, task, elf, [b[0] for b in br])
    for w, ip, loop in br:
        a, line, mn = src[w]
        print("0x%08x %-22s %-6s %-16s -> %s%s" % (a, w, mn, line, ip, " loop" if loop else ""))
    return 0


def hand_list(build, kernel, task, out):
    spec = os.path.join(ROOT, "sim", "splits", kernel + ".split")
    if not os.path.exists(spec):
        die("%s: no hand list for %s" % (spec, kernel))
    want = {}
    for n, line in enumerate(open(spec), 1):
        t = line.split("#")[0].split()
        if not t:
            continue
        if not re.match(r"^[\w.-]+\.c:\d+$", t[0]):
            die("%s:%d: '%s': expected FILE.c:LINE" % (spec, n, t[0]))
        want[t[0]] = n
    elf = elf_of(build, kernel, task)
    br = branches(build, elf)
    src = source_lines(build, kernel, task, elf, [b[0] for b in br])
    found = set()
    with open(out, "w") as f:
        f.write("# %s: the hand list sim/splits/%s.split resolved by scripts/splitsel.py hand\n" % (elf, kernel))
        for w, ip, loop in br:
            a, line, mn = src[w]
            if line in want:
                f.write("%s %s # %s -> %s%s\n" % (w, mn, line, ip, " loop" if loop else ""))
                found.add(line)
    for line, n in want.items():
        if line not in found:
            die("%s:%d: %s has no conditional branch in %s (scripts/splitsel.py lines %s lists them)"
                % (spec, n, line, elf, kernel))
    return out


def cmd_hand(args):
    task = task_value(args.task, args.kernel)
    out = hand_list(args.build, args.kernel, task, args.o or "%s.hand.list" % args.kernel)
    sys.stdout.write(open(out).read())
    return 0


def run(build, elf, preset, policy, arg, task, extra, tmp, tag):
    base = os.path.join(tmp, tag)
    cmd = [os.path.join(build, "wpusim"), "--config", preset, "--policy", policy, "--arg", str(arg), "--stats",
           "json", "--stats-out", base + ".json", "--dump", base + ".dump"]
    if task is not None:
        cmd += ["--task", str(task)]
    p = subprocess.run(cmd + extra + [elf], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return {"error": "exit %d: %s" % (p.returncode, p.stderr.strip()[:300]), "command": " ".join(cmd + extra)}
    import json
    st = json.load(open(base + ".json"))
    t = st["total"]
    return {"cycles": st["cycles"], "dump": open(base + ".dump", "rb").read(),
            "hash": st["threads"]["instret_hash"], "splits_branch": t.get("splits_branch", 0),
            "width": t["thread_insts"] / t["warp_insts"] if t["warp_insts"] else 0}


def profile_list(build, kernel, task, arg, preset, out, min_side, tmp):
    """Run 1 (Conv, --branch-profile), then the choice; returns the list's path."""
    elf = elf_of(build, kernel, task)
    prof = os.path.join(tmp, kernel + ".prof")
    r = run(build, elf, preset, "Conv", arg, task, ["--branch-profile", prof], tmp, kernel + ".prof.run")
    if "error" in r:
        die("%s profile run: %s" % (kernel, r["error"]))
    sel = []
    for line in open(prof):
        if line.startswith("#"):
            continue
        pc, where, mn, ex, dv, mino, act, ipdom, dist, loop, short = line.split()
        ex, dv, mino, dist = int(ex), int(dv), int(mino), int(dist)
        rule = short == "1" and loop == "0" and dist > 0
        side = mino / dv if dv else 0.0
        keep = rule and dv > 0 and side >= min_side
        sel.append((where, mn, ex, dv, side, dist, rule, keep, ipdom))
    with open(out, "w") as f:
        f.write("# %s: chosen by scripts/splitsel.py profile from a Conv run (--arg %d%s): branches the 001 §4.3\n"
                "# rule selects whose smaller side averages >= %g threads when they diverge. Columns of the\n"
                "# comment: executions, divergent, mean smaller side, distance to the post-dominator (insns)\n"
                % (elf, arg, "" if task is None else ", --task %d" % task, min_side))
        for where, mn, ex, dv, side, dist, rule, keep, ipdom in sel:
            if keep:
                f.write("%s %s # %d %d %.1f %d\n" % (where, mn, ex, dv, side, dist))
        f.write("# not selected (rule-selected, narrower on average):\n")
        for where, mn, ex, dv, side, dist, rule, keep, ipdom in sel:
            if rule and not keep and dv:
                f.write("#   %s %s # %d %d %.1f %d\n" % (where, mn, ex, dv, side, dist))
    return out


def cmd_profile(args):
    task = task_value(args.task, args.kernel)
    with tempfile.TemporaryDirectory() as tmp:
        out = profile_list(args.build, args.kernel, task, SIZES[args.size], args.preset,
                           args.o or "%s.profile.list" % args.kernel, args.min_side, tmp)
    sys.stdout.write(open(out).read())
    return 0


def hmean(xs):
    return len(xs) / sum(1.0 / x for x in xs) if xs and all(x > 0 for x in xs) else 0.0


def cmd_compare(args):
    kernels = args.kernels.split(",")
    pols = args.policies.split(",")
    arg = SIZES[args.size]
    t0 = time.monotonic()
    keep = args.keep or tempfile.mkdtemp(prefix="splitsel.")
    os.makedirs(keep, exist_ok=True)
    lists = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = {}
        for k in kernels:
            task = task_value(args.task, k)
            lists[(k, "hand")] = hand_list(args.build, k, task, os.path.join(keep, k + ".hand.list"))
            futs[k] = ex.submit(profile_list, args.build, k, task, arg, args.preset,
                                os.path.join(keep, k + ".profile.list"), args.min_side, keep)
        for k, f in futs.items():
            lists[(k, "profile")] = f.result()
        jobs = {}
        for k in kernels:
            task = task_value(args.task, k)
            elf = elf_of(args.build, k, task)
            jobs[(k, "Conv", "")] = ex.submit(run, args.build, elf, args.preset, "Conv", arg, task, [], keep,
                                              k + ".Conv")
            for p in pols:
                for sel in ("rule", "hand", "profile"):
                    extra = [] if sel == "rule" else ["--split-list", lists[(k, sel)]]
                    jobs[(k, p, sel)] = ex.submit(run, args.build, elf, args.preset, p, arg, task, extra, keep,
                                                  "%s.%s.%s" % (k, p, sel))
        res = {key: f.result() for key, f in jobs.items()}
    fails = []
    for key, r in res.items():
        if "error" in r:
            fails.append("%s: %s" % (" ".join(key), r["error"]))
        elif r["dump"] != res[(key[0], "Conv", "")].get("dump") or r["hash"] != res[(key[0], "Conv", "")].get("hash"):
            fails.append("%s: results or thread instructions differ from Conv" % " ".join(key))
    print("Speedup over Conv of the split-branch choices; preset %s, size %s, --task %s; %d runs in %.0f s; "
          "lists in %s" % (args.preset, args.size, args.task, len(res) + len(kernels), time.monotonic() - t0, keep))
    print()
    print("| policy | branches | " + " | ".join(kernels) + " | h-mean | mean |")
    print("|---" * (len(kernels) + 4) + "|")
    print("| Conv | cycles | " + " | ".join(str(res[(k, "Conv", "")].get("cycles", "err")) for k in kernels)
          + " | | |")
    for p in pols:
        for sel, name in (("rule", "§4.3 rule"), ("hand", "hand list"), ("profile", "profile")):
            sp = []
            for k in kernels:
                r, c = res[(k, p, sel)], res[(k, "Conv", "")]
                sp.append(c["cycles"] / r["cycles"] if "cycles" in r and "cycles" in c else None)
            ok = [x for x in sp if x]
            full = len(ok) == len(sp)
            print("| %s | %s | %s | %s | %s |" % (p, name, " | ".join("%.2f" % x if x else "err" for x in sp),
                                                 "%.2f" % hmean(ok) if full else "-",
                                                 "%.2f" % (sum(ok) / len(ok)) if full else "-"))
    print()
    print("Branch splits / mean SIMD width:")
    print()
    print("| policy | branches | " + " | ".join(kernels) + " |")
    print("|---" * (len(kernels) + 2) + "|")
    for p in pols:
        for sel in ("rule", "hand", "profile"):
            cells = []
            for k in kernels:
                r = res[(k, p, sel)]
                cells.append("%d / %.1f" % (r["splits_branch"], r["width"]) if "cycles" in r else "err")
            print("| %s | %s | %s |" % (p, sel, " | ".join(cells)))
    if fails:
        print("\nFAILED:\n  " + "\n  ".join(fails))
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("lines", "hand", "profile", "compare"):
        s = sub.add_parser(name)
        if name != "compare":
            s.add_argument("kernel")
        s.add_argument("--task", default="paper")
        s.add_argument("--build", default=os.path.join(ROOT, "build"))
        s.add_argument("--preset", default="dws")
        s.add_argument("--size", default="small", choices=SIZES)
        s.add_argument("--min-side", type=float, default=4.0)
        s.add_argument("-o")
        if name == "compare":
            s.add_argument("--kernels", default=",".join(KERNELS))
            s.add_argument("--policies", default="DWS.BranchOnly.PC,DWS.ReviveSplit")
            s.add_argument("--jobs", type=int, default=2)
            s.add_argument("--keep", metavar="DIR", help="keep the lists and statistics in DIR")
    args = ap.parse_args()
    if getattr(args, "kernel", None) and args.kernel not in KERNELS:
        die("%s: not a suite kernel (%s)" % (args.kernel, ", ".join(KERNELS)))
    return {"lines": cmd_lines, "hand": cmd_hand, "profile": cmd_profile, "compare": cmd_compare}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
