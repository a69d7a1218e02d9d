// Divergence inside a called function whose paths meet only at its returns:
// the call site resumes once, with every thread, after both returns.
// 16 threads: call 2 + andi/beqz 2 + odd path 2 + even path 1 + exit 3 = 10.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    call func_f
    li a7, 93
    li a0, 0
    ecall

    .text
    .globl func_f
    .type func_f, @function
func_f:
    andi t0, a0, 1
f_br:
    beqz t0, f_even
    addi a0, a0, 1
    ret
f_even:
    ret
    .size func_f, .-func_f
