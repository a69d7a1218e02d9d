/* crt0.S — WarpSplit kernel entry (see docs/abi.md "Launch").
 *
 * Every thread starts here with a0 = tid, a1 = nthreads, sp = its own stack top.
 * We only set gp and call kernel_main(tid, nthreads); its return value is the exit code.
 * .bss is NOT zeroed here: the loader zeroes it once, and all threads share memory.
 */
    .section .text.start, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    /* a0 (tid), a1 (nthreads) and sp are passed through untouched. */
    call    kernel_main
    /* exit(a0) */
    li      a7, 93
    ecall
    ebreak                  /* not reached: exit does not return */
    .size _start, . - _start
