// Crossbar bandwidth (dws preset: 4 WPUs x 1 warp x 16 lanes = 64 threads,
// warp g on WPU g). Thread t loads lines t, t+64, t+128, ... of `array`, 57
// of them, PASSES times (PASSES = wsim.arg): one SIMD load = 16 consecutive
// 128 B lines (16 L1 banks, 8 L2 banks: no conflicts), and one pass = 57 x
// 64 = 3648 lines (456 KiB).
// The first pass misses everywhere and is paced by the DRAM bus. Every later
// pass misses in every L1 — a WPU's 912 lines fall into 16 of its 32 sets,
// 57 lines to a set of 8 ways, read in order (LRU) — and hits in the 4 MiB
// L2, so each line crosses the crossbar once more. Four warps keep more
// data in flight than the crossbar can move (one warp waits ~34 cycles
// between its loads, while the other three have 48 lines = 108 cycles
// queued): it never idles, and one more pass takes exactly
//   3648 lines x 128 B / 57 B a cycle = 8192 cycles
// (57 lines of 128 B = 128 cycles). When every transfer was rounded up to
// whole cycles it took 3648 x 3 = 10944.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr s0, 0xcc8          // PASSES
    la s1, array
    slli t0, a0, 7          // this thread's first line: t x 128
    add s1, s1, t0
pass:
    mv t0, s1
    li t1, 57               // loads a pass
line:
    lw t2, 0(t0)
    li t3, 64 * 128         // next line of this thread
    add t0, t0, t3
    addi t1, t1, -1
    bnez t1, line
    addi s0, s0, -1
    bnez s0, pass
    li a0, 0
    li a7, 93
    ecall
    .bss
    .balign 4096
array:
    .space 3648 * 128
