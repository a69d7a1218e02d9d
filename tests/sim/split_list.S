// Branch-split selection by list (wpusim --split-list, dws_branch = list;
// docs/dws.md). One warp of 4 lanes (--set wpus=1 warps=1 width=4,
// 4 threads) under DWS.BranchOnly.PC. Two if/else branches, each run once
// by the whole warp and each divergent:
//   split_a: lanes 0 and 2 go one way, 1 and 3 the other (bit 0 of the lane)
//   split_b: lanes 0 and 1 one way, 2 and 3 the other (bit 1)
// Both re-converge at a join followed by a block of a few instructions, so
// the §4.3 rule (dws_branch = heuristic) selects both. The warp's stack holds
// only its base entry (re-convergence at the exit), so splits made at split_a
// do not merge at a_join: they run on, each reaches split_b on its own, and
// each of them diverges there too (lanes {0,2} and {1,3} both straddle bit 1).
//   rule (heuristic):                 1 + 2 = 3 branch splits
//   --split-list naming split_a, split_b: 3
//   --split-list naming split_b only: 1 (split_a pushes the warp's stack and
//                                     re-converges at a_join; the whole warp
//                                     splits at split_b)
//   --split-list naming split_a only: 1 (each half handles split_b on its
//                                     own stack)
//   an empty list:                    0 (the stack handles both)
// Results are the same in every case (a0 = 0 for every thread).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, 0xcc0          // lane
    andi t1, t0, 1
    andi t2, t0, 2
    li t3, 0
split_a:
    beqz t1, a_else
    addi t3, t3, 1
    j a_join
a_else:
    addi t3, t3, 2
a_join:
    addi t4, t3, 0
split_b:
    beqz t2, b_else
    addi t3, t3, 4
    j b_join
b_else:
    addi t3, t3, 8
b_join:
    li a7, 93
    li a0, 0
    ecall
