// Streaming read: a warp of 16 threads loads 16 consecutive words per
// instruction (64 bytes), for a0 = 64 iterations over a 4 KiB array: every
// SIMD load is one L1 D access, and the misses are the lines touched.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    la t0, array
    slli t1, a0, 2          // this lane's word
    add t0, t0, t1
    li t2, 64               // iterations
loop:
    lw t3, 0(t0)
    addi t0, t0, 64
    addi t2, t2, -1
    bnez t2, loop
    li a0, 0
    li a7, 93
    ecall
    .bss
    .balign 4096
array:
    .space 4096
