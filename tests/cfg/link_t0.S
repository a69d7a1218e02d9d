// t0 (x5) is the alternate link register (the RISC-V return-address hint,
// used by millicode such as -msave-restore): jal t0 and jalr t0 are calls,
// and jalr x0, 0(t0) in a block that did not set t0 is the return.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    jal t0, save            // a call through t0
    andi t1, a0, 1
main_br:
    bnez t1, main_odd
    addi a0, a0, 1
main_odd:
    la t1, save             // a constant call through t0, with an
    addi t2, zero, 5        // instruction between la and jalr
    jalr t0, 0(t1)
    li a7, 93
    li a0, 0
    ecall

    .text
    .globl save
    .type save, @function
save:
    andi t2, a0, 2
save_br:
    beqz t2, save_out
    addi a1, a1, 1
save_out:
    jr t0                   // the return: t0 is not set in this block
    .size save, .-save
