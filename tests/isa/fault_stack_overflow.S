// fault_stack_overflow.S -- written by hand (not by gen_isa_tests.py), in its format.
// Negative test: unbounded stack growth. Even-numbered threads push 256-byte
// frames until a store leaves their own stack (16 KiB by default), which must
// stop the thread with a fault containing the line of fault_stack_overflow.expect,
// before it writes its neighbour's stack; odd-numbered threads exit 0.
    .option norvc
    .section .text.start, "ax"
    .globl _start
_start:
    andi t0, a0, 1
    bnez t0, pass
push:
    addi sp, sp, -256
    .globl fault_pc
fault_pc:
    sw zero, 0(sp)
    j push
pass:
    li a0, 0
    li a7, 93
    ecall
    .word 0
