// stack.S with its store and load replaced by ALU instructions of the same
// size: with private_mem = 1 (1-cycle, conflict-free) the two programs take
// the same cycles on the lwm preset, fetch misses included.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    li t2, 32               // iterations
loop:
    addi t4, t2, 0          // (stack.S: sw t2, -64(sp))
    addi t3, t4, 0          // (stack.S: lw t3, -64(sp))
    addi t2, t2, -1
    bnez t2, loop
    li a0, 0
    li a7, 93
    ecall
