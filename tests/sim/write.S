// ecall 64 (write): thread 0 prints a line to stdout and one to stderr,
// then checks the return values; an unsupported fd returns -1.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    bnez a0, out
    li a0, 1
    la a1, msg_out
    li a2, 13
    li a7, 64
    ecall
    li t0, 13
    bne a0, t0, fail
    li a0, 2
    la a1, msg_err
    li a2, 13
    li a7, 64
    ecall
    li a0, 7
    la a1, msg_err
    li a2, 13
    li a7, 64
    ecall
    li t0, -1
    bne a0, t0, fail
out:
    li a0, 0
    li a7, 93
    ecall
fail:
    li a0, 1
    li a7, 93
    ecall
    .section .rodata
msg_out: .ascii "hello stdout\n"
msg_err: .ascii "hello stderr\n"
