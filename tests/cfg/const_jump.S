// Jumps to constants: la (auipc+addi) with other instructions between it and
// the jr, and lui+addi. The analysis follows them like a jal, so each
// branch re-converges where its paths meet (not refused as a jump table).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    andi t1, a0, 1
la_br:
    beqz t1, la_skip
    addi a0, a0, 2
la_skip:
    la t0, la_join          // auipc t0 + addi t0
    andi t2, a0, 3          // other instructions between
    slli t2, t2, 1
    jr t0                   // jalr x0, 0(t0): a constant jump, not a return
    ebreak                  // not reached
la_join:
    andi t1, a0, 2
lui_br:
    bnez t1, lui_set
    lui t3, %hi(done)
    addi t3, t3, %lo(done)
    jr t3
lui_set:
    addi a0, a0, 1
done:
    li a7, 93
    li a0, 0
    ecall
