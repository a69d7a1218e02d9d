#!/usr/bin/env python3
"""What the experiment scripts share: one wpusim run as data, its command, its
statistics as a row, and a set of runs executed in parallel, emitted as a job
list, or merged from the files such a job list wrote.

A run is a `Run` (preset, policy, kernel, argument, task mapping, --set list,
seed). Every run writes two files into a results directory, named after the run
(`run_name`): NAME.json (`--stats json`) and NAME.sha256 (the SHA-256 of its
`--dump` results, in sha256sum's format; the dump itself is deleted, it can be
megabytes). `job_line` is that as one shell line, for GNU parallel or a Slurm
array; `execute` runs the same commands here (-j in parallel, progress and an
ETA on stderr) and writes the same files; `collect` reads them back into rows.
So a table built from a directory does not depend on where its runs ran.

Used by scripts/speedup.py (parse_stats) and scripts/figures.py. Standard
library only.
"""
import collections
import concurrent.futures
import hashlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

Run = collections.namedtuple("Run", "preset policy kernel arg task sets seed")
Run.__doc__ = """One wpusim run: task None = the default build (build/kernels/NAME.elf), an
integer = the tasks build with --task; sets = tuple of KEY=VALUE for --set."""


def run_name(r):
    """The file stem of a run's results: readable, and unique per run (a hash of all of it)."""
    h = hashlib.sha1(repr(tuple(r)).encode()).hexdigest()[:10]
    return "%s.%s.%s.%s" % (r.preset, r.policy, r.kernel, h)


def elf_path(build, r):
    return os.path.join(build, "kernels", "" if r.task is None else "tasks", r.kernel + ".elf")


def command(r, build, outdir):
    """wpusim's argv for run r, writing NAME.json and NAME.dump into outdir."""
    base = os.path.join(outdir, run_name(r))
    cmd = [os.path.join(build, "wpusim"), "--config", r.preset, "--policy", r.policy, "--no-progress",
           "--stats", "json", "--stats-out", base + ".json", "--seed", str(r.seed), "--arg", str(r.arg),
           "--dump", base + ".dump"]
    if r.task is not None:
        cmd += ["--task", str(r.task)]
    for kv in r.sets:
        cmd += ["--set", kv]
    cmd.append(elf_path(build, r))
    return cmd


def job_line(r, build, outdir):
    """One shell line: the run, then its results' hash in place of the results."""
    dump = os.path.join(outdir, run_name(r) + ".dump")
    q = shlex.quote
    return "%s >/dev/null && sha256sum %s > %s && rm -f %s" % (
        " ".join(q(a) for a in command(r, build, outdir)), q(dump), q(dump[:-5] + ".sha256"), q(dump))


def measured(st):
    """The statistics of the phase a kernel measures: its region of interest's
    counters (the "roi" object: cycles, total, wpu, memory, a mechanism's own,
    div_degree) in place of the whole run's, when the kernel marks one
    (docs/abi.md); the whole run's otherwise. Status, configuration and
    threads stay the run's."""
    roi = st.get("roi")
    if not roi:
        return st
    m = dict(st)
    m.update(roi)
    return m


def parse_stats(st):
    """The numbers every script takes from one run's --stats json."""
    t = st["total"]
    row = {"status": st["status"], "cycles": st["cycles"], "thread_insts": t["thread_insts"],
           "warp_insts": t["warp_insts"], "instret_hash": st["threads"]["instret_hash"]}
    row["simd_width"] = t["thread_insts"] / t["warp_insts"] if t["warp_insts"] else 0.0
    busy = t["cycles_issue"] + t["cycles_memwait"] + t["cycles_idle"]
    # 001 §6: "the percentage of time in which WPU stalls waiting for memory"
    row["memwait"] = t["cycles_memwait"] / busy if busy else 0.0
    for k in ("splits_branch", "splits_mem", "splits_revive", "merges_pc", "merges_stack", "merges_barrier",
              "merges_sync", "wst_full", "slot_full", "groups_max", "mem_miss_insts", "mem_div_insts"):
        row[k] = t.get(k, 0)
    row["groups_mean"] = t.get("groups_sum", 0) / t["cycles_issue"] if t["cycles_issue"] else 0.0
    l1 = st.get("memory", {}).get("l1d", {})
    row["l1d_miss"] = l1.get("misses", 0) / l1["accesses"] if isinstance(l1, dict) and l1.get("accesses") else 0.0
    return row


def read_result(r, outdir):
    """The row of run r from its files in outdir; "error" says what is missing or wrong."""
    base = os.path.join(outdir, run_name(r))
    row = {"preset": r.preset, "policy": r.policy, "kernel": r.kernel, "arg": r.arg, "task": r.task,
           "sets": list(r.sets), "name": run_name(r)}
    try:
        with open(base + ".json") as f:
            st = json.load(f)
    except (OSError, ValueError) as e:
        row["error"] = "no statistics (%s): %s" % (base + ".json", e.__class__.__name__)
        return row
    row.update(parse_stats(measured(st)))
    if row["status"] != "done":
        row["error"] = "status %s" % row["status"]
    try:
        with open(base + ".sha256") as f:
            row["results_sha256"] = f.read().split()[0]
    except (OSError, IndexError):
        row["error"] = "no results hash %s (the run failed?)" % (base + ".sha256")
    return row


def have_result(r, outdir):
    """Whether r's result files are in outdir, complete (its statistics say done)."""
    r = read_result(r, outdir)
    return "error" not in r


_PRESETS = {}


def preset_config(build, preset):
    """The configuration wpusim runs for --config preset (key -> value text)."""
    if preset not in _PRESETS:
        p = subprocess.run([os.path.join(build, "wpusim"), "--config", preset, "--print-config"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.stderr.write("wsim_runs: wpusim --config %s --print-config: %s\n" % (preset, p.stderr.strip()))
            sys.exit(2)
        cfg = {}
        for line in p.stdout.splitlines():
            kv = line.split("#")[0].split("=")
            if len(kv) == 2:
                cfg[kv[0].strip()] = kv[1].strip()
        _PRESETS[preset] = cfg
    return _PRESETS[preset]


def canonical_sets(build, preset, sets):
    """sets without the KEY=VALUE the preset already has, sorted: the same machine is the same run."""
    cfg = preset_config(build, preset)
    out = []
    for kv in sets:
        k, _, v = kv.partition("=")
        same = (cfg.get("warp_size") == v and cfg.get("lanes") == v) if k == "width" else cfg.get(k) == v
        if not same:
            out.append(kv)
    return tuple(sorted(out))


_LIVE = set()  # the wpusim processes running now (execute stops them on an interrupt)


def run_here(r, build, outdir):
    """Runs r as job_line would. Returns (exit code, last stderr line, seconds)."""
    cmd = command(r, build, outdir)
    dump = cmd[cmd.index("--dump") + 1]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _LIVE.add(proc)
    try:
        _, stderr = proc.communicate()
    finally:
        _LIVE.discard(proc)
    p = subprocess.CompletedProcess(cmd, proc.returncode, None, stderr)
    wall = time.monotonic() - t0
    if p.returncode == 0 and os.path.exists(dump):
        h = hashlib.sha256()
        with open(dump, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        with open(dump[:-5] + ".sha256", "w") as f:
            f.write("%s  %s\n" % (h.hexdigest(), dump))
    if os.path.exists(dump):
        os.remove(dump)
    err = p.stderr.strip().splitlines()
    return p.returncode, (err[-1] if err else ""), wall


def fmt_s(s):
    return "%d:%02d" % (s // 60, s % 60) if s < 3600 else "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)


def execute(runs, build, outdir, jobs, prog="wsim_runs"):
    """Runs every run (in parallel, `jobs` at a time), writing their files into outdir;
    one progress line per finished run on stderr with the elapsed time and an ETA.
    Returns the wall-clock seconds."""
    os.makedirs(outdir, exist_ok=True)
    for r in runs:  # a stale result must not survive a failed run
        for ext in (".json", ".sha256", ".dump"):
            p = os.path.join(outdir, run_name(r) + ext)
            if os.path.exists(p):
                os.remove(p)
    t0 = time.monotonic()
    done = 0
    signal.signal(signal.SIGTERM, _interrupted)
    pool = concurrent.futures.ThreadPoolExecutor(max(1, jobs))
    try:
        futs = {pool.submit(run_here, r, build, outdir): r for r in runs}
        for fut in concurrent.futures.as_completed(futs):
            r = futs[fut]
            rc, err, wall = fut.result()
            done += 1
            el = time.monotonic() - t0
            eta = el / done * (len(runs) - done)
            sys.stderr.write("%s: [%d/%d %s, ETA %s] %s %s %s%s: %s\n" % (
                prog, done, len(runs), fmt_s(el), fmt_s(eta), r.preset, r.policy, r.kernel,
                "".join(" " + s for s in r.sets), "%.1f s" % wall if rc == 0 else "exit %d: %s" % (rc, err)))
    except KeyboardInterrupt:
        for f in futs:
            f.cancel()
        for proc in list(_LIVE):
            proc.kill()
        sys.stderr.write("%s: interrupted after %d of %d runs (--resume keeps them)\n" % (prog, done, len(runs)))
        sys.exit(130)
    pool.shutdown()
    return time.monotonic() - t0


def _interrupted(signum, frame):
    raise KeyboardInterrupt


def collect(runs, outdir):
    return [read_result(r, outdir) for r in runs]


def emit(runs, build, outdir, path):
    """Writes the job list: one shell line per run (run them from the repository root)."""
    rel = lambda p: os.path.relpath(p, ROOT) if os.path.abspath(p).startswith(ROOT + os.sep) else p
    os.makedirs(outdir, exist_ok=True)
    with open(path, "w") as f:
        for r in runs:
            f.write(job_line(r, rel(build), rel(outdir)) + "\n")


def hmean(xs):
    """Harmonic mean (001), None if a value is missing."""
    return None if not xs or any(x is None or x <= 0 for x in xs) else len(xs) / sum(1.0 / x for x in xs)


def amean(xs):
    """Arithmetic mean (000's "average"), None if a value is missing."""
    return None if not xs or any(x is None for x in xs) else sum(xs) / len(xs)
