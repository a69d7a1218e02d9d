#!/usr/bin/env python3
"""Checks the WarpSplit kernels: static checks of the RISC-V ELFs and host-runner runs.

usage: kernels/tools/check.py BUILD_DIR KERNEL... [-- SELFTEST...]

Static (llvm-objdump/llvm-nm/llvm-readelf), for build/kernels/NAME.elf:
  - ELF32 RISC-V executable, entry _start at 0x10000, no undefined symbols;
  - every jalr is a return (jalr zero, 0(ra)), a direct call (auipc ra + jalr ra to a
    function's start) or an indirect call through a register (jalr ra, 0(rX)): no jump
    tables, no tail jumps (jalr zero through another register);
  - the constructs each kernel is meant to exercise are in the code (EXPECT below).
Host (build/host/NAME):
  - the wsim_results regions have the same sizes, in the same order, as in the ELF;
  - --dump is identical for thread counts 1, 7, 256, 1000 and several widths/WPU
    layouts, for two seeds and two problem sizes, with and without --contexts; every
    run exits 0; a different seed gives a different dump.
Self-tests (kernels/selftest, build/kernels/selftest, build/host/selftest): the static
checks, and host runs with their expected exit status and output.
Simulator (optional): with WPUSIM_CMD set to a command template such as
    'build/wpusim --quiet --threads {threads} --seed {seed} --arg {arg}
     --set width={width} --set wpus={wpus} --set warps={warps} --dump {dump} {elf}'
every kernel and self-test also runs on it (width 32, one WPU, warp slots for every warp,
as a barrier needs all live threads resident), and its dump and exit status must equal
the host's (rt_ids only when the template has {warps}: its dump shows the layout).
Prints a summary table and 'N passed, N failed'; exits 1 on any failure.
"""
import os
import re
import subprocess
import sys
import tempfile

OBJDUMP = os.environ.get("LLVM_OBJDUMP", "llvm-objdump")
NM = os.environ.get("LLVM_NM", "llvm-nm")
READELF = os.environ.get("LLVM_READELF", "llvm-readelf")

# What each kernel must contain (checked on the disassembly).
EXPECT = {
    "collatz": {"calls:__udivdi3", "calls:__umoddi3", "calls:__divdi3", "mulhu"},
    "nqueens": {"recursion", "multi-callsite"},
    "interp": {"indirect-call", "divu", "remu"},
    "mandel": {"barrier", "fmadd.s", "fsqrt.s", "fdiv.s", "flt.s"},
    "bitonic": {"barrier"},
    # The DWS suite (papers 000/001): fmaf -> fmadd.s, sqrtf -> fsqrt.s, float division
    # -> fdiv.s, fabsf -> fsgnjx.s; the compare behind a kernel's data-dependent branch
    # (kmeans's dist < min_dist); filter's Sobel magnitude sqrtf(gx^2 + gy^2) and its
    # branch-free self-check (feq.s: exact compare with the separable form); svm's exp
    # rounds with fcvt.w.s.
    "fft": {"barrier", "fmadd.s", "fsqrt.s", "fdiv.s", "fsgnjx.s"},
    "filter": {"barrier", "fsqrt.s", "feq.s"},
    "hotspot": {"barrier", "fdiv.s"},
    "lu": {"barrier", "fdiv.s", "fsgnjx.s"},
    "merge": {"barrier"},
    "short": {"barrier"},
    "kmeans": {"barrier", "fdiv.s", "flt.s", "fsgnjx.s"},
    "svm": {"barrier", "fmadd.s", "fcvt.w.s", "fsgnjx.s"},
    # The DoM kernels (seed 002 §7.3): lj's 1/r^2, rt's normalization and
    # Moller-Trumbore division, the self-checks' tolerances (fabsf).
    "nl": {"barrier", "flt.s"},
    "lj": {"barrier", "fdiv.s", "fsgnjx.s"},
    "sa": {"barrier"},
    "rt": {"barrier", "fdiv.s", "fsqrt.s", "fsgnjx.s"},
    "km": {"barrier", "fdiv.s", "flt.s", "fsgnjx.s"},
    "gf": {"barrier", "feq.s"},
}

# (threads, width, wpus, warps); warps 0 = enough
LAYOUTS = [(1, 32, 1, 0), (7, 4, 1, 0), (256, 32, 1, 0), (256, 8, 4, 2), (1000, 16, 3, 0),
           (1000, 1, 1, 0), (33, 7, 2, 0)]
SEEDS = [0, 12345]
ARGS = [0, 100]

passed = 0
failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)
    return cond


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def symbols(elf):
    """Function symbols: address -> name, and name -> address for all symbols."""
    funcs, addr = {}, {}
    out = run([NM, "-n", elf]).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            a, kind, name = int(parts[0], 16), parts[1], parts[2]
            addr[name] = a
            if kind in "tT":
                funcs[a] = name
    return funcs, addr


INSN = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} ){4})\s*(\S+)\s*(.*)$")


def disassemble(elf):
    """[(addr, word, mnemonic, operands)] of .text, with no aliases."""
    out = run([OBJDUMP, "-d", "-M", "no-aliases", elf]).stdout
    insns = []
    for line in out.splitlines():
        m = INSN.match(line)
        if m:
            word = int("".join(reversed(m.group(2).split())), 16)
            insns.append((int(m.group(1), 16), word, m.group(3), m.group(4).strip()))
    return insns


def sext(v, bits):
    return v - (1 << bits) if v & (1 << (bits - 1)) else v


def static_check(name, elf):
    found = set()
    stats = {"insns": 0, "branches": 0, "calls": 0, "indirect": 0, "recursive": 0,
             "barriers": 0, "float": 0}
    hdr = run([READELF, "-h", elf]).stdout
    ok("ELF32" in hdr and "RISC-V" in hdr and "EXEC" in hdr, name + ": ELF32 RISC-V EXEC")
    und = run([NM, "-u", elf]).stdout.split()
    ok(not und, name + ": undefined symbols " + " ".join(und))
    funcs, addr = symbols(elf)
    ok(addr.get("_start") == 0x10000, name + ": _start at 0x10000")
    for sym in ("__wsim_results_start", "__wsim_results_end", "__global_pointer$"):
        ok(sym in addr, name + ": symbol " + sym)
    starts = sorted(funcs)

    def func_of(a):
        best = None
        for s in starts:
            if s <= a:
                best = s
            else:
                break
        return funcs.get(best, "?")

    callsites = {}
    insns = disassemble(elf)
    prev = None
    for a, word, mn, ops in insns:
        stats["insns"] += 1
        if mn.startswith("b"):
            stats["branches"] += 1
        if mn.startswith("f") and mn.endswith(".s") and mn not in ("flw", "fsw"):
            stats["float"] += 1
            found.add(mn)
        if mn in ("mulhu", "divu", "remu", "div", "rem"):
            found.add(mn)
        if word == 0x0000000B:
            stats["barriers"] += 1
            found.add("barrier")
        if mn == "jalr":
            m = re.match(r"(\w+), (-?\d+)\((\w+)\)", ops)
            if not ok(m is not None, "%s: cannot parse jalr at %x: %s" % (name, a, ops)):
                continue
            rd, imm, rs1 = m.group(1), int(m.group(2)), m.group(3)
            if rd == "zero" and rs1 == "ra" and imm == 0:
                pass  # return
            elif rd == "ra" and prev is not None and prev[2] == "auipc" and \
                    prev[3].startswith(rs1 + ","):
                hi = int(prev[3].split(",")[1].strip(), 0)
                target = (prev[0] + (sext(hi & 0xFFFFF, 20) << 12) + imm) & 0xFFFFFFFF
                ok(target in funcs, "%s: call at %x to %x, not a function start" % (name, a, target))
                callee, caller = funcs.get(target, "?"), func_of(a)
                stats["calls"] += 1
                found.add("calls:" + callee)
                callsites.setdefault(callee, set()).add(a)
                if callee == caller:
                    stats["recursive"] += 1
                    found.add("recursion")
            elif rd == "ra":
                stats["indirect"] += 1
                found.add("indirect-call")
            else:
                ok(False, "%s: indirect jump (jump table or tail jump) at %x: jalr %s"
                   % (name, a, ops))
        prev = (a, word, mn, ops)
    for callee, sites in callsites.items():
        if len(sites) >= 3 and any(callee == func_of(s) for s in sites):
            found.add("multi-callsite")  # a recursive function called from several places
    for want in sorted(EXPECT.get(name, ())):
        ok(want in found, "%s: expected %s in the code" % (name, want))
    return stats


def elf_result_sizes(elf):
    out = run([READELF, "-x", "wsim_results", elf]).stdout
    data = b""
    for line in out.splitlines():
        m = re.match(r"\s*0x[0-9a-f]+ ((?:[0-9a-f]{8} ){1,4})", line)
        if m:
            data += bytes.fromhex("".join(m.group(1).split()))
    words = [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data) - 3, 4)]
    return [words[i + 1] for i in range(0, len(words) - 1, 2)]


def host_check(name, host, elf, tmp):
    out = run([host, "--list-results"]).stdout
    sizes = [int(l.split()[2]) for l in out.splitlines() if l and not l.startswith("#")]
    ok(sizes == elf_result_sizes(elf),
       "%s: host result regions %s differ from the ELF's %s" % (name, sizes, elf_result_sizes(elf)))
    ok(len(sizes) > 0, name + ": has WSIM_RESULT regions")
    dumps = {}
    for seed in SEEDS:
        for arg in ARGS:
            ref = None
            for threads, width, wpus, warps in LAYOUTS:
                path = os.path.join(tmp, "%s-%d-%d-%d.bin" % (name, seed, arg, threads))
                cmd = [host, "--threads", str(threads), "--seed", str(seed), "--arg", str(arg),
                       "--width", str(width), "--wpus", str(wpus), "--quiet", "--dump", path]
                if warps:
                    cmd += ["--warps", str(warps)]
                if threads == 256 and wpus == 1:
                    cmd.append("--contexts")  # also the ucontext path of barrier-free kernels
                r = run(cmd)
                if not ok(r.returncode == 0, "%s: %s exited %d: %s"
                          % (name, " ".join(cmd), r.returncode, r.stderr.strip())):
                    continue
                with open(path, "rb") as f:
                    data = f.read()
                ok(len(data) == sum(sizes), "%s: dump size" % name)
                if ref is None:
                    ref = data
                else:
                    ok(data == ref, "%s: seed %d arg %d: dump with %d threads, width %d, "
                       "%d WPUs differs from 1 thread" % (name, seed, arg, threads, width, wpus))
            dumps[(seed, arg)] = ref
    ok(dumps[(SEEDS[0], 0)] != dumps[(SEEDS[1], 0)], name + ": the seed changes the results")
    ok(dumps[(SEEDS[0], 0)] != dumps[(SEEDS[0], ARGS[1])], name + ": the arg changes the results")


def host_dump(host, threads, seed, arg, path, extra=()):
    r = run([host, "--threads", str(threads), "--seed", str(seed), "--arg", str(arg),
             "--quiet", "--dump", path] + list(extra))
    return r


def selftest_check(name, host, tmp):
    path = os.path.join(tmp, name + ".bin")
    if name == "rt_exit":
        for threads in (1, 7, 256, 1000):
            r = host_dump(host, threads, 0, 0, path)
            ok(r.returncode == 0, "%s: %d threads exited %d: %s" % (name, threads, r.returncode,
                                                                  r.stderr.strip()))
        r = host_dump(host, 256, 0, 6, path)
        ok(r.returncode == 1 and "thread 5 exited with code 3" in r.stderr
           and r.stderr.count("exited with code") == 1,
           "%s --arg 6: expected exactly thread 5 to fail with 3, got %d: %s"
           % (name, r.returncode, r.stderr.strip()))
        return
    if name == "rt_write":
        r = run([host, "--threads", "5", "--seed", "0x1234", "--arg", "7"])
        ok(r.returncode == 0 and r.stdout == "rt_write: tid 0 of 5, seed 0x00001234, arg 7\n"
           and "rt_write: stderr ok\n" in r.stderr,
           "%s: output %r / %r" % (name, r.stdout, r.stderr))
        r = run([host, "--quiet"])
        ok(r.returncode == 0 and r.stdout == "", "%s --quiet: stdout %r" % (name, r.stdout))
        return
    for threads, width, wpus, warps in LAYOUTS:
        extra = ["--width", str(width), "--wpus", str(wpus)] + (["--warps", str(warps)] if warps else [])
        r = host_dump(host, threads, 7, 0, path, extra)
        ok(r.returncode == 0, "%s: %d threads width %d wpus %d exited %d: %s"
           % (name, threads, width, wpus, r.returncode, r.stderr.strip()))


def sim_check(name, elf, host, tmp):
    """Runs the ELF on the simulator (WPUSIM_CMD) and compares with the host dump."""
    template = os.environ.get("WPUSIM_CMD")
    if not template:
        return
    if name == "rt_ids" and "{warps}" not in template:
        return  # its dump shows the layout: needs {width}, {wpus} and {warps}
    width, wpus = 32, 1
    for threads in (1, 7, 256):
        warps = max(1, ((threads + width - 1) // width + wpus - 1) // wpus)  # all resident
        for seed, arg in ((0, 0), (12345, 0), (1, 100)):
            hpath = os.path.join(tmp, name + ".host.bin")
            spath = os.path.join(tmp, name + ".sim.bin")
            h = host_dump(host, threads, seed, arg, hpath,
                          ["--width", str(width), "--wpus", str(wpus), "--warps", str(warps)])
            expect_rc = 1 if name == "rt_exit" and 0 < arg <= threads else 0
            cmd = template.format(threads=threads, seed=seed, arg=arg, dump=spath, elf=elf,
                                  width=width, wpus=wpus, warps=warps)
            r = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
            if not ok(r.returncode == expect_rc and h.returncode == expect_rc,
                      "%s: simulator exited %d (host %d, expected %d): %s"
                      % (name, r.returncode, h.returncode, expect_rc, r.stderr.strip()[-800:])):
                continue
            with open(hpath, "rb") as f1, open(spath, "rb") as f2:
                ok(f1.read() == f2.read(), "%s: simulator dump differs from the host's "
                   "(%d threads, seed %d, arg %d)" % (name, threads, seed, arg))


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    build, names = sys.argv[1], sys.argv[2:]
    selftests = []
    if "--" in names:
        k = names.index("--")
        names, selftests = names[:k], names[k + 1:]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            elf = os.path.join(build, "kernels", name + ".elf")
            host = os.path.join(build, "host", name)
            stats = static_check(name, elf)
            host_check(name, host, elf, tmp)
            sim_check(name, elf, host, tmp)
            rows.append((name, stats))
        for name in selftests:
            elf = os.path.join(build, "kernels", "selftest", name + ".elf")
            host = os.path.join(build, "host", "selftest", name)
            stats = static_check(name, elf)
            selftest_check(name, host, tmp)
            sim_check(name, elf, host, tmp)
            rows.append((name, stats))
    print("%-10s %6s %8s %6s %8s %9s %8s %6s" % ("kernel", "insns", "branches", "calls",
                                                 "indirect", "recursive", "barriers", "float"))
    for name, s in rows:
        print("%-10s %6d %8d %6d %8d %9d %8d %6d" % (name, s["insns"], s["branches"], s["calls"],
                                                     s["indirect"], s["recursive"], s["barriers"],
                                                     s["float"]))
    print("kernels-check: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
