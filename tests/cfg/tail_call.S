// A tail call (auipc+jalr x0 pair) leaves its function: the branch before it
// has only the exit as post-dominator; callee analysed on its own.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    call f
    li a7, 93
    li a0, 0
    ecall

    .text
    .globl f
    .type f, @function
f:
    andi t0, a0, 1
f_br:
    beqz t0, f_tail
    ret
f_tail:
    tail g
    .size f, .-f

    .globl g
    .type g, @function
g:
    andi t0, a0, 2
g_br:
    beqz t0, g_out
    addi a0, a0, 1
g_out:
    ret
    .size g, .-g
