// A loop with a data-dependent trip count, a continue and a break: every
// branch in it is post-dominated by the loop exit only.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    andi t0, a0, 7
    li t1, 0
    li t3, 3
head:
    beqz t0, done_loop
body:
    addi t0, t0, -1
    andi t2, t0, 1
cont_br:
    bnez t2, head
    addi t1, t1, 1
brk_br:
    beq t1, t3, done_loop
    j head
done_loop:
    li a7, 93
    li a0, 0
    ecall
