// if-then-else: the branch re-converges at the join.
// 16 threads, odd ones take the then path: 8 warp instructions when the
// join runs once for everyone (11 if it did not re-converge).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    andi t0, a0, 1
br_if:
    beqz t0, else_blk
then_blk:
    addi a1, zero, 1
    j join
else_blk:
    addi a1, zero, 2
join:
    li a7, 93
    li a0, 0
    ecall
