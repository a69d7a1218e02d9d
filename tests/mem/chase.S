// Pointer chase: one thread follows a list of HOPS nodes (HOPS = wsim.arg,
// at most 64), each node on its own 4 KiB page and never touched before, so
// every hop misses all the way to memory. The loads are dependent: each hop
// costs one load round trip plus the addi and bnez after it.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    bnez a0, done           // one thread
    csrr s0, 0xcc8          // HOPS
    la a0, nodes
chase:
    lw a0, 0(a0)
    addi s0, s0, -1
    bnez s0, chase
done:
    li a0, 0
    li a7, 93
    ecall
    .data
    .balign 4096
nodes:                      // node i holds the address of node i+1
    .set i, 1
    .rept 64
    .word nodes + 4096 * i
    .balign 4096
    .set i, i + 1
    .endr
