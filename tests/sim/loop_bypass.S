// Loop bypassing past a rotated loop's forward exit test (000 §5.5,
// docs/dws.md). One warp of 8 lanes (maws-bulksync, --set wpus=1 warps=1,
// 8 threads) under MAWS.Aggress: splits on every divergent load, waits at
// non-loop conditional branches (dws_branches = limited), loop bypass on.
//
// The warm-up load brings line 0 of `array` in for every lane (all miss
// together: no split). In the loop, lanes 0-3 read line 0 again (hit) and
// lanes 4-7 read a line of their own, a new one each iteration (miss):
// every one of the 10 iterations' loads is divergent for the whole warp.
// exit_br, the loop's exit test, is a forward branch after the load whose
// post-dominator is `done`, not the split's re-convergence PC (the exit).
// post_br, after the loop, is a non-loop branch.
//
// Loop bypass on exit_br (it is ISA_F_LOOP): iteration 1 splits; the hit
// split passes exit_br and runs all 10 iterations hitting (no divergence
// within it: no further split), leaves the loop and waits at post_br; the
// miss split runs its 10 iterations alone (all its lanes miss: no split)
// and merges with it there:
//   splits_mem 1, merges_sync 1, sync_waits 1.
// Without it (the old rule: exit_br is forward and re-converges elsewhere)
// the hit split waits at exit_br in every iteration until the miss split's
// data is back and they merge; the warp arrives at post_br whole:
//   splits_mem 10, merges_sync 10, sync_waits 10.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, 0xcc0          // lane i
    andi t1, t0, 3          // j = i mod 4
    srli t6, t0, 2
    andi t6, t6, 1          // m = 1 for lanes 4-7 (the missing side)
    la t3, array
    slli t2, t1, 2
    add t2, t3, t2          // array + 4 j: line 0
    lw t5, 0(t2)            // warm-up: every lane misses on line 0
    li t4, 4096 + 28 * 0
    slli a2, t1, 5
    sub a2, a2, t1
    sub a2, a2, t1
    sub a2, a2, t1
    sub a2, a2, t1          // 28 j
    add a2, a2, t4          // 4096 + 28 j
    mul a2, a2, t6
    add t2, t2, a2          // m = 0: array + 4 j; m = 1: array + 4096 + 32 j
    slli t4, t6, 7          // step: 0 (hits) or 128 (a new line each iteration)
    li s0, 10
loop:
    lw t5, 0(t2)
    add t2, t2, t4
    addi s0, s0, -1
exit_br:
    beqz s0, done
    addi a3, a3, 1
    j loop
done:
post_br:
    bnez s0, post_skip      // never taken; a non-loop branch
    addi a3, a3, 1
post_skip:
    li a7, 93
    li a0, 0
    ecall
    .bss
    .balign 4096
array:
    .space 4096 + 128 * 16
