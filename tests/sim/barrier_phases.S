// Barrier correctness: each thread writes tid+1 to slot[tid], waits at the
// barrier, then reads its neighbour's slot (tid+1 mod n) and exits 0 only if
// it holds neighbour+1. Exited threads do not count: thread 0 exits before
// the barrier (its neighbour reads slot 0 only when thread 0 wrote it first).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    la t0, slots
    slli t1, a0, 2
    add t1, t0, t1
    addi t2, a0, 1
    sw t2, 0(t1)
    beqz a0, done_ok            // thread 0 leaves before the barrier
    .insn i 0x0B, 0, x0, x0, 0
    addi t3, a0, 1              // neighbour = (tid + 1) % n
    remu t3, t3, a1
    slli t4, t3, 2
    add t4, t0, t4
    lw t5, 0(t4)
    addi t3, t3, 1
    bne t5, t3, bad
done_ok:
    li a0, 0
    li a7, 93
    ecall
bad:
    li a0, 1
    li a7, 93
    ecall
    .bss
    .balign 4
slots:
    .space 4 * 4096
