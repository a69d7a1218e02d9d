// Delivered DRAM bandwidth (docs/memory.md, "Bandwidth"; scripts/bandwidth.sh):
// every thread of the machine streams through one array of 4 MiB, reading
// one word every L bytes, inside the region of interest. Lane i of a SIMD
// load reads A + (k x threads + t) x L: with L = 4 a load reads consecutive
// words (one line, or a few: the coalesced stream of a GPU); with L = the
// line size every lane reads a line of its own (as many requests per load
// as lanes: for machines whose L1 takes one request per lane and cycle).
// Loads block their warp until their data is back (001 §3.3), so the
// requests in flight are warps x lines per load, up to the MSHRs. Four
// loads per iteration, 10 instructions. Reads only, so that nothing is
// written back: DRAM bytes over the region's cycles is the delivered
// bandwidth. arg = log2(L / 4); threads x L must divide 1 MiB.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t6, 0xcc8          // arg
    li s6, 4
    sll s6, s6, t6          // L
    la s3, arr
    mul t2, a0, s6          // t x L
    add s3, s3, t2
    mul s1, a1, s6          // the stride: threads x L
    li t1, 1 << 20
    divu s2, t1, s1         // iterations: 4 MiB / (threads x L) / 4
    .balign 128                     // the region's code in one I-cache line, fetched before it
    .insn i 0x0B, 0, x0, x0, 1      // wsim.roi.begin
loop:
    lw t0, 0(s3)
    add s3, s3, s1
    lw t1, 0(s3)
    add s3, s3, s1
    lw t2, 0(s3)
    add s3, s3, s1
    lw t3, 0(s3)
    add s3, s3, s1
    addi s2, s2, -1
    bnez s2, loop
    .insn i 0x0B, 0, x0, x0, 2      // wsim.roi.end
    li a0, 0
    li a7, 93
    ecall
    .bss
    .balign 4096
arr:
    .space 4 << 20
