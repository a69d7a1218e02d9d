// A barrier inside divergent code: the odd threads wait at it while the even
// threads of the same warp are parked on the re-convergence stack. Under
// stack-based SIMT that can never complete: wpusim must report a deadlock.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    andi t0, a0, 1
    beqz t0, skip
    .insn i 0x0B, 0, x0, x0, 0
skip:
    .insn i 0x0B, 0, x0, x0, 0
    li a7, 93
    li a0, 0
    ecall
