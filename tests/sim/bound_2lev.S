// First-principles bound: two-level warp scheduling (004 §3.2, Fig. 7;
// docs/bounds.md, docs/twolevel.md). Round-robin brings every warp to its
// long-latency load at about the same time and the core idles; fetch groups
// prioritized in turn reach the load one group at a time, and the other
// groups compute while a group's loads are served.
//
// Machine (tests/bounds/check.sh 2lev): the lwm preset (1 WPU, 32 warps of
// 32 threads, 5-stage barrel pipeline: a warp issues again 5 cycles after
// its last issue, at the earliest), 1024 threads, memory = fixed with
// mem_latency = L = 200 (004's DRAM takes 100-300 cycles) and private_mem =
// 0: every load takes L cycles from its issue to its warp's next issue and
// is a long-latency stall for the fetch arbiter (it misses); no caches, no
// DRAM, no MSHR or bandwidth limit, ideal instruction fetch. switch_on = cycle
// (004 §2.1's round-robin). 2Lev (--policy 2Lev): fetch groups of S = 8
// warps (G = 4 groups), no timeout.
//
// Program: 3 prologue instructions (csrr, la = auipc + addi) and C = 6 ALU
// instructions, then N = 16 (--arg) iterations of a load, C ALU
// instructions, the count and the loop branch; 3 to exit (li, li, ecall).
// Per warp I = 3 + C + N (C + 3) + 3 = 156 instructions, n = C + 3 = 9
// from one load to the next.
// Round-robin: in each round of loads the 32 warps load in 32 consecutive
// cycles; warp 0 issues next L cycles after its load, so L - 32 cycles pass
// with nothing to issue (L >= 32); the rest is one instruction a cycle:
//   T_rr = 32 I + N (L - 32) = 4992 + 16 x 168 = 7680.
// The bound: one instruction a cycle, T >= 32 I = 4992 (no schedule does
// better); speedup <= 7680 / 4992 = 1.538.
// 2Lev reaches it: a group's 8 warps fill the 5-stage pipeline; a group's
// turn ends with its 8 loads (the last n instructions of each warp's
// iteration), all 8 stall, the priority passes on; the group's turn comes
// back 3 turns = 24 n cycles later, and warp w's load, issued 8 (n - 1) + w
// cycles into its group's turn of 8 n, is back in time when L <= 24 n + 8 =
// 224 (the first turns are C + 4 = 10 instructions a warp, longer; the last,
// C + 5: no stall at either end): T_2lev = 32 I = 4992 (4 N + 3 = 67
// fetch-group switches: 4 a round, 3 as groups finish).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr s0, 0xcc8          // N (--arg)
    la t3, word
    .rept 6                 // C: the first compute phase
    addi t1, t1, 1
    .endr
loop:
    lw t5, 0(t3)            // long latency (L)
    .rept 6                 // C
    addi t1, t1, 1
    .endr
    addi s0, s0, -1
    bnez s0, loop
    li a7, 93
    li a0, 0
    ecall
    .data
    .balign 4
word:
    .word 41
