// A large warp whose sub-warps miss is stalled on a long-latency operation
// for two-level scheduling (tests/run.sh, group twolevel: lwm2lev-miss;
// docs/lwm.md, docs/twolevel.md). Every thread loads the same word: on
// memory = fixed every access misses and takes mem_latency. 8 instructions:
// la (auipc, addi), lw, addi, li, li, ecall.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    la t3, word
    lw t5, 0(t3)
    addi a1, t5, 1
    li a7, 93
    li a0, 0
    ecall

    .data
    .balign 4
word:
    .word 41
