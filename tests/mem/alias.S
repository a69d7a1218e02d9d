// Two arrays a power of two apart (docs/memory.md, "DRAM"): the threads
// stream through A and B in turn (two loads of each per iteration), reading
// one word every L bytes: lane i of a SIMD load reads A + (k x threads + t)
// x L and the same offset of B. arg = pad + 2 x log2(L / 4) + 16 x rows:
// pad 0: B = A + 2 MiB, so element k of A and of B are in rows 512 apart;
// pad 1: B = A + 2 MiB + 4 KiB, one row further. rows: how many 4 KiB rows
// of each array to read (0: all 512). A is 4 MiB-aligned, so A's rows are
// 1024 m + k and B's 1024 m + 512 (+ 1) + k for k < 512: under the ipoly
// mapping, bank(row) = H(1024 m) ^ H(k'), with H(k) = k for k < 8.
//
// One warp of 32 lanes, L = 4 (a line per load), rows = 16: each iteration
// reads lines i and i + 1 of A's row i / 32 and of B's; a row's 32 lines are
// read in a row by the one warp, so a bank's row changes only when A's and
// B's current rows share it (they ping-pong: every access opens its row) or
// when a stream moves on. Openings (closed + conflicts) and hits, of 1,024
// loads (512 per array):
//   linear, pad 0: bank(A_k) = bank(B_k) for every k: 1,024 openings, 0 hits.
//   linear, pad 1: bank(B_k) = bank(A_k) + 1: 32 openings, 992 hits.
//   ipoly,  pad 0: H(512) = x^9 mod (x^3 + x + 1) = x^2 (4) != 0: never
//                  the same bank: 32 openings, 992 hits.
//   ipoly,  pad 1: A_k and B's row 513 + k share a bank iff H(k + 1) ^ H(k)
//                  = H(512) = 4; H(k ^ (k + 1)) = H(2^(t+1) - 1), t = k's
//                  trailing ones, is 1, 3, 7, 4, 2, 5, 0 for t = 0..6: only
//                  t = 3, k = 7 of 0..15. 15 x 2 + 64 = 94 openings, 930 hits.
// Many warps (the whole machine) drift across several rows of each array at
// once; then every mapping opens rows often (scripts/bandwidth.sh).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t6, 0xcc8          // arg
    andi t0, t6, 1
    slli t0, t0, 12         // pad x 4 KiB
    srli t5, t6, 4          // rows
    slli t5, t5, 12         // bytes of each array to read
    bnez t5, 1f
    li t5, 2 << 20          // rows = 0: all of it
1:  srli t6, t6, 1
    andi t6, t6, 7
    li s6, 4
    sll s6, s6, t6          // L
    la s3, arr              // A
    li t1, 2 << 20
    add s4, s3, t1
    add s4, s4, t0          // B = A + 2 MiB (+ pad)
    mul t2, a0, s6          // t x L
    add s3, s3, t2
    add s4, s4, t2
    mul s1, a1, s6          // the stride: threads x L
    slli t1, s1, 1
    divu s2, t5, t1         // iterations: bytes / (threads x L) / 2
    .balign 128                     // the region's code in one I-cache line, fetched before it
    .insn i 0x0B, 0, x0, x0, 1      // wsim.roi.begin
loop:
    lw t0, 0(s3)
    lw t1, 0(s4)
    add s3, s3, s1
    add s4, s4, s1
    lw t2, 0(s3)
    lw t3, 0(s4)
    add s3, s3, s1
    add s4, s4, s1
    addi s2, s2, -1
    bnez s2, loop
    .insn i 0x0B, 0, x0, x0, 2      // wsim.roi.end
    li a0, 0
    li a7, 93
    ecall
    .bss
    .balign 1 << 22
arr:
    .space (4 << 20) + 4096
