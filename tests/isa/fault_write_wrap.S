// fault_write_wrap.S -- written by hand (not by gen_isa_tests.py), in its format.
// Negative test: write ecall of 32 bytes at 0xfffffff0, wrapping around to address 0.
// Even-numbered threads execute the ecall at fault_pc, which must stop the
// thread with a fault containing the line of fault_write_wrap.expect;
// odd-numbered threads exit 0.  Falling through prints a line and exits 126.
    .option norvc
    .section .text.start, "ax"
    .globl _start
_start:
    andi t0, a0, 1
    bnez t0, pass
    li a0, 1
    li a1, 0xfffffff0
    li a2, 32
    li a7, 64
    .globl fault_pc
fault_pc:
    ecall
    li a0, 2
    lla a1, msg
    li a2, 59+1
    li a7, 64
    ecall
    li a0, 126
    li a7, 93
    ecall
pass:
    li a0, 0
    li a7, 93
    ecall
    .word 0
    .section .rodata
msg: .ascii "fault_write_wrap: the instruction at fault_pc did not fault\n"
