// Every thread exits with code tid % 3: wpusim must exit 1 and name the
// threads with nonzero codes.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    li t0, 3
    remu a0, a0, t0
    li a7, 93
    ecall
