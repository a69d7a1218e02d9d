// A loop with no way out never reaches the exit: the branch re-converges on
// the path that can (its threads wait there while the others spin).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    andi t0, a0, 1
pick_br:
    bnez t0, spin
    li a7, 93
    li a0, 0
    ecall
spin_br:
spin:
    j spin
