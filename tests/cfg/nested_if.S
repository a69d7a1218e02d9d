// Nested ifs sharing a join, and an if inside the else arm.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    andi t0, a0, 1
    andi t1, a0, 2
outer_br:
    beqz t0, outer_else
inner_br:
    beqz t1, join_all
    addi a2, a2, 1
    j join_all
outer_else:
    addi a2, a2, 2
inner2_br:
    bnez t1, inner2_join
    addi a2, a2, 3
inner2_join:
    addi a2, a2, 4
join_all:
    li a7, 93
    li a0, 0
    ecall
