// The region of interest (docs/abi.md), exactly. Every warp runs the same
// straight-line code and loops, no loads or stores (memory = fixed in the
// test, so no I-cache either):
//   set-up        li, 5 x (addi, bnez)                         11 instructions
//   roi.begin     (its release opens the region; it is outside)  1
//   interval 1    li, 10 x (addi, bnez), roi.end                 22 (roi.end inside)
//   between       li, 3 x (addi, bnez)                            7
//   roi.end       closed: a plain barrier, outside                1
//   roi.begin     reopens                                         1
//   interval 2    li, 2 x (addi, bnez), roi.begin (open: plain), roi.end   7
//   after         li a0, li a7, ecall                             3
// Per warp: 53 instructions in all, 29 in the region, in 2 intervals;
// barriers: 6 in all, 3 in the region (the two roi.end and the plain
// roi.begin inside interval 2). With one warp of a lane the cycles are
// exact too (lat_alu 1, pipeline_depth 1, a barrier's release lets the warp
// issue in the next cycle): every instruction takes one cycle, so interval 1
// is 22 cycles and interval 2 is 7: the region is 29 cycles.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    li t0, 5
setup:
    addi t0, t0, -1
    bnez t0, setup
    .insn i 0x0B, 0, x0, x0, 1      // wsim.roi.begin
    li t1, 10
work1:
    addi t1, t1, -1
    bnez t1, work1
    .insn i 0x0B, 0, x0, x0, 2      // wsim.roi.end
    li t0, 3
between:
    addi t0, t0, -1
    bnez t0, between
    .insn i 0x0B, 0, x0, x0, 2      // wsim.roi.end while closed: a plain barrier
    .insn i 0x0B, 0, x0, x0, 1      // wsim.roi.begin
    li t1, 2
work2:
    addi t1, t1, -1
    bnez t1, work2
    .insn i 0x0B, 0, x0, x0, 1      // wsim.roi.begin while open: a plain barrier
    .insn i 0x0B, 0, x0, x0, 2      // wsim.roi.end
    li a0, 0
    li a7, 93
    ecall
