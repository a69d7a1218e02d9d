// fault_store_code.S -- written by hand (not by gen_isa_tests.py), in its format.
// Negative test: a store into the program's code (decoded once, at load).
// Even-numbered threads store at _start, which must stop the thread with a
// fault containing the line of fault_store_code.expect; odd-numbered threads
// exit 0. Falling through prints a line and exits 126.
    .option norvc
    .section .text.start, "ax"
    .globl _start
_start:
    andi t0, a0, 1
    bnez t0, pass
    lla t1, _start
    .globl fault_pc
fault_pc:
    sw zero, 0(t1)
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
msg: .ascii "fault_store_code: the instruction at fault_pc did not fault\n"
