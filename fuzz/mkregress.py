#!/usr/bin/env python3
"""Writes the hand-made part of the regression corpus fuzz/regress/ (run once;
the files are committed). Inputs the fuzzer finds are added next to them
under their libFuzzer names. Each must replay without a crash, a sanitizer
report or a --check failure: make test (tests/run.sh, fuzz-regress)."""
import os
import struct

R = os.path.join(os.path.dirname(os.path.abspath(__file__)), "regress")


def put(harness, name, data):
    os.makedirs(os.path.join(R, harness), exist_ok=True)
    with open(os.path.join(R, harness, name), "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


# ---- ELF: a minimal RV32 executable: header, one PT_LOAD, 12 bytes of code
EXIT0 = [0x05D00893, 0x00000513, 0x00000073]  # li a7,93; li a0,0; ecall


def elf(code=EXIT0, entry=0x10000, vaddr=0x10000, filesz=None, memsz=None, phnum=1, phoff=52,
        flags=5, ptype=1, offset=84):
    text = b"".join(struct.pack("<I", w) for w in code)
    filesz = len(text) if filesz is None else filesz
    memsz = filesz if memsz is None else memsz
    eh = b"\x7fELF\x01\x01\x01" + bytes(9)
    eh += struct.pack("<HHIIIIIHHHHHH", 2, 243, 1, entry, phoff, 0, 0, 52, 32, phnum, 40, 0, 0)
    ph = struct.pack("<IIIIIIII", ptype, offset, vaddr, vaddr, filesz, memsz, flags, 4)
    return eh + ph + text


put("elf", "empty", b"")
put("elf", "minimal-ok", elf())
put("elf", "truncated-header", elf()[:30])
put("elf", "truncated-phdr", elf()[:70])
put("elf", "truncated-segment", elf()[:90])
put("elf", "huge-filesz", elf(filesz=0xFFFFFFF0))
put("elf", "huge-memsz", elf(memsz=0xFFFFFFFF))
put("elf", "segment-wraps", elf(vaddr=0xFFFFFFF8))
put("elf", "offset-past-end", elf(offset=0x7FFFFFFF))
put("elf", "phnum-max", elf(phnum=0xFFFF))
put("elf", "phoff-past-end", elf(phoff=0xFFFFFFF0))
put("elf", "entry-in-guard-page", elf(entry=0))
put("elf", "entry-outside-text", elf(entry=0x20000))
put("elf", "entry-misaligned", elf(entry=0x10002))
put("elf", "no-load-segment", elf(ptype=4))
put("elf", "text-not-executable", elf(flags=6))
put("elf", "code-all-ones", elf(code=[0xFFFFFFFF] * 3))
put("elf", "jump-to-guard-page", elf(code=[0x00000067]))  # jalr zero, 0(zero)
put("elf", "branch-to-self", elf(code=[0x00000063]))  # beq zero, zero, 0
put("elf", "fall-off-end", elf(code=[0x00000013]))  # nop, then nothing

# ---- configuration text
put("config", "nul-mid-file", "wpus = 2\n\0warps = 3\n")
put("config", "nul-in-value", "wpus = 2\0 3\n")
put("config", "long-line", "wpus = " + "1" * 70000 + "\n")
put("config", "long-key", "k" * 70000 + " = 1\n")
put("config", "long-comment", "# " + "x" * 70000 + "\nwpus = 2\n")
put("config", "no-final-newline", "warps = 8")
put("config", "overflow", "max_cycles = 99999999999999999999999999\n")
put("config", "hex-overflow", "stack_top = 0xFFFFFFFFFFFFFFFFFFFF\n")
put("config", "negative", "wpus = -1\n")
put("config", "empty-value", "wpus =\n")
put("config", "no-equals", "wpus 4\n")
put("config", "alias-bad", "width = 0\n")
put("config", "largest-machine", "wpus = 1024\nwarps = 1024\nwidth = 256\nthreads = 16777216\n")
put("config", "l2-line-smaller", "l2_line = 16\nl1d_line = 128\n")
put("config", "crlf", "wpus = 2\r\nwarps = 3\r\n")
put("config", "only-spaces", " \t \n\t\n")
put("config", "high-bytes", "wpus = \xff\xfe\n".encode("latin-1"))


# ---- mutated runs: byte 0 seed kernel, byte 1 machine, then (u16 word, u32 insn) patches
def run(kernel, machine, patches):
    return bytes([kernel, machine]) + b"".join(struct.pack("<HI", w, i) for w, i in patches)


def jal(rd, off):
    o = off & 0x1FFFFF
    imm = ((o >> 20) & 1) << 31 | ((o >> 1) & 0x3FF) << 21 | ((o >> 11) & 1) << 20 | ((o >> 12) & 0xFF) << 12
    return imm | rd << 7 | 0x6F


for k in range(6):
    put("run", "unpatched-%d" % k, run(k, 5, []))
put("run", "illegal-word", run(0, 0, [(0, 0xFFFFFFFF)]))
put("run", "illegal-word-dws", run(1, 13, [(0, 0x00000000), (40, 0xFFFFFFFF)]))
put("run", "jump-into-guard-page", run(0, 1, [(0, jal(0, -0x10000))]))
put("run", "jalr-to-zero", run(3, 2, [(0, 0x00000067)]))
put("run", "endless-loop", run(0, 3, [(0, jal(0, 0))]))
# lui t0, 0x10; sw zero, 0(t0): a store into the code
put("run", "store-into-code", run(0, 1, [(0, 0x000102B7), (1, 0x0002A023)]))
# li a7,64; li a0,1; lui a2,0x80000; ecall: a 2 GiB write from 0
put("run", "huge-write", run(0, 0, [(0, 0x04000893), (1, 0x00100513), (2, 0x80000637), (3, 0x00000073)]))
# li a7,64; li a0,2; li a1,0; li a2,16; ecall: a write from the null guard page
put("run", "write-guard-page", run(3, 4, [(0, 0x04000893), (1, 0x00200513), (2, 0x00000593), (3, 0x01000613),
                                          (4, 0x00000073)]))
# sp = 0: every thread's stack in the guard page
put("run", "stack-in-guard-page", run(0, 9, [(0, 0x00000113)]))
