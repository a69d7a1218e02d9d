// Serialized requests to the next level (l1d_serial_miss, 001 §3.3): one
// warp, each lane touching its own line, twice. Lane i reads, with
// b = (i >> 1) mod 4,
//   load 1: array + 128 i + 32 (b xor 2)     (cold: misses to DRAM)
//   load 2: array + 128 i + 32 b
// so every lane has its own 128 B line i (L2 bank i mod 8) and its own L1
// bank: with 128 B L1 lines and 16 banks, bank i; with 32 B L1 lines and 8
// banks, 4 (i mod 2) + b.
// The loads block: load 2 issues once load 1's data is back.
//
// maws-coherent (8 lanes, 32 B L1 lines, 128 B L2 lines): load 1 misses in
// the L2 and is paced by DRAM, 128 B at 16 B a cycle = 8 cycles a line, so
// one request a cycle changes nothing: the last lane completes at
// 3 + 2 + 23 + 300 + 8 x 8 + 2 + 1 = 395 cycles either way. Load 2's lines
// are new to the L1 but sit in the L2 (load 1 brought them): lookup 3,
// crossbar 2, L2 23, crossbar 2 = data from cycle 30.
//   parallel: 8 x 32 B = 256 B at 57 B a cycle = 4.49 cycles from cycle 30:
//             the last byte moves in cycle 34, complete at 35;
//   serial:   request i leaves at 3 + i, its 32 B (< 57) move in cycle
//             30 + i alone: complete at 31 + i, the last at 38.
// serial - parallel = 3 cycles; 7 + 7 requests wait for the port.
//
// dws (16 lanes, 128 B lines in both caches): load 1's 16 lines miss to
// DRAM, 8 cycles a line: the last completes at 141 + 15 x 8 = 261 either way
// (requests leave one a cycle, far faster than DRAM returns them); load 2
// hits the same lines. serial - parallel = 0 cycles; 15 requests wait.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, 0xcc0          // lane i
    slli t1, t0, 7          // 128 i
    srli t2, t0, 1
    andi t2, t2, 3
    slli t2, t2, 5          // 32 b
    add t1, t1, t2
    la t3, array
    add t3, t3, t1          // load 2's address
    xori t4, t3, 64         // load 1's
    lw t5, 0(t4)
    lw t6, 0(t3)
    li a0, 0
    li a7, 93
    ecall
    .bss
    .balign 4096
array:
    .space 128 * 16
