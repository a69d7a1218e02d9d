// First-principles bound: DWS on branch divergence (001 §4.1-§4.2, Fig. 4;
// docs/bounds.md). The two sides of a divergent branch interleave, so one
// side's memory latency hides under the other side's issue.
//
// Machine (tests/bounds/check.sh, dws-branch): the dws preset's WPU (16 lanes,
// one SIMD instruction a cycle, lat_alu = 1, pipeline_depth = 1, switch_on =
// access), --set wpus=1 warps=1, 16 threads (one warp), memory = fixed with
// mem_latency = L = 100: a load's group issues again L cycles after the load
// (L - 1 cycles with nothing to issue); no caches, no DRAM, no bandwidth
// limit, ideal instruction fetch (no MSHR or bandwidth term). Nothing here
// depends on the DRAM model.
//
// Program: 4 prologue instructions (csrr, andi, la = auipc + addi), the branch
// `br`; even lanes (X) fall through to a load and 2 instructions (lw, addi,
// j); odd lanes (Y) branch to C = 96 ALU instructions; both re-converge at
// `join`, 3 instructions (li, li, ecall). Every instruction issues once per
// SIMD group that runs it:
//   issue cycles  I = 4 + 1 + 3 + C + 3 = C + 11 = 107.
// Conv: the re-convergence stack runs the two sides one after the other; the
// load costs L - 1 cycles with nothing to issue:
//   T_conv = I + (L - 1) = C + L + 10 = 206.
// DWS: `br` is selected (001 §4.3: its post-dominator `join` starts a block
// of 3 instructions). The warp splits at cycle 4; the fall-through side X
// keeps the warp's table entry and the pipeline (it has not accessed the
// cache: switch on access) and issues the load at cycle 5; Y, ready at 5,
// issues its C instructions in cycles 6 .. C + 5 while X waits; X issues
// addi, j at 5 + L, 6 + L (its lanes park at `join`, where Y's wait: the
// warp is whole again) and the warp issues join's 3 instructions:
//   T_dws = 5 + L + 2 + 3 = L + 10 = 110   (Y is done first: C + 5 < 5 + L).
// The bound: no schedule of this program is shorter than X's chain (5
// instructions, the load's L, 2 instructions, join's 3: L + 10) nor than
// its issue cycles (C + 11):
//   T >= max(L + 10, C + 11) = 110,  speedup <= (C + L + 10) / (L + 10) = 206/110 = 1.873.
// Every legend that splits on branches reaches it exactly (BranchOnly.Stack,
// BranchOnly.PC, AggressSplit, LazySplit, ReviveSplit: 110 cycles).
// The side that falls through runs first: laid out the other way round (Y
// falling through), Y keeps the pipeline for its C instructions before X's
// load issues (switch on access, 001 §3.3) and DWS takes Conv's time
// (209 cycles: nothing overlaps); docs/bounds.md.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, 0xcc0          // lane
    andi t0, t0, 1          // odd lanes: Y
    la t3, word
br:
    bnez t0, ypath
xpath:                      // X: a load (L cycles), then 2 instructions
    lw t5, 0(t3)
    addi t1, t5, 1
    j join
ypath:                      // Y: C = 96 ALU instructions
    .rept 96
    addi t2, t2, 1
    .endr
join:
    li a7, 93
    li a0, 0
    ecall
    .data
    .balign 4
word:
    .word 41
