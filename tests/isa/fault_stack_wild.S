// fault_stack_wild.S -- written by hand (not by gen_isa_tests.py), in its format.
// Negative test: a wild store into another thread's stack. Every thread
// stores through a pointer one stack (16 KiB by default) below its own sp,
// into the next thread's stack, with its own sp well inside its stack: the
// fault must name the other thread's stack and say it is not an overflow
// (it used to be reported as "stack overflow ... raise stack_size").
// Thread 0's sp is its stack's very top (colour 0), so its store lands on
// its own stack's lowest word: it exits 0; the last thread's lands in the
// guard below the stacks, a wild store too.
    .option norvc
    .section .text.start, "ax"
    .globl _start
_start:
    li t0, 16384
    sub t1, sp, t0
    .globl fault_pc
fault_pc:
    sw zero, 0(t1)
    li a0, 0
    li a7, 93
    ecall
    .word 0
