// Stack traffic (private_mem): each of 16 threads stores a word 64 bytes
// below its sp and loads it back, a0 = 32 times: 64 SIMD loads/stores, all
// to the thread stacks. With private_mem = 1 they go to the private memory
// (private_accesses = 64, no L1 D access at all, every one a 1-cycle hit);
// without it each is an L1 D access of 16 lines (one per thread's stack).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    li t2, 32               // iterations
loop:
    sw t2, -64(sp)
    lw t3, -64(sp)
    addi t2, t2, -1
    bnez t2, loop
    li a0, 0
    li a7, 93
    ecall
