// Coherence ping-pong: two threads on two WPUs take turns storing to one
// word, with a barrier between turns: every store after the first finds the
// line owned by the other L1 and invalidates it. ROUNDS = wsim.arg turns
// each: 2 x ROUNDS - 1 invalidations.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr s0, 0xcc8          // ROUNDS
    la t0, shared
loop:
    bnez a0, second
    sw s0, 0(t0)            // thread 0 stores first
second:
    .insn i 0x0B, 0, x0, x0, 0
    beqz a0, after
    sw s0, 0(t0)            // then thread 1
after:
    .insn i 0x0B, 0, x0, x0, 0
    addi s0, s0, -1
    bnez s0, loop
    li a0, 0
    li a7, 93
    ecall
    .data
    .balign 128
shared:
    .word 0
