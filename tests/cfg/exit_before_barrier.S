// Threads 40 and up exit before a barrier the others then reach, in code
// that never returns. The exiting side can reach neither a return nor a
// barrier, so the branch joins at the start of the staying side: the exiting
// threads run first and leave, and the barrier completes with the rest (at
// width 64 the exiting and staying threads share a warp). Exact count for 16
// threads, all staying: li, bltu, then barrier, li, li, ecall = 6.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    li t0, 40
exit_br:
    bltu a0, t0, stay
    li a0, 0
    li a7, 93
    ecall
stay:
    .insn i 0x0B, 0, x0, x0, 0
    li a0, 0
    li a7, 93
    ecall
