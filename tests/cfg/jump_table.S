// An indirect jump with unbounded targets (what a jump table compiles to):
// rejected at load time.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    la t0, table
    andi t1, a0, 1
    slli t1, t1, 2
    add t0, t0, t1
    lw t0, 0(t0)
    jr t0
case0:
    li a0, 0
    li a7, 93
    ecall
case1:
    li a0, 0
    li a7, 93
    ecall
    .section .rodata
table:
    .word case0, case1
