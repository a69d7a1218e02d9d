// The watchdog after a long barrier wait (dws preset, one WPU, two warps of
// one thread, watchdog = 400: a look every 101 cycles). Thread 0 arrives at
// the barrier at once; thread 1 first runs 200 iterations of a loop with a
// load (it gives the pipeline up at each access), well over 400 cycles. The
// code after the barrier starts a new I-cache line, so both warps, released
// together, wait ~141 cycles for its fetch from memory before they issue
// again: a watchdog look falls in that wait. Thread 0 issued nothing since
// its arrival, more than 400 cycles before: its wait at the barrier must not
// count as silence (nor does the fetch: 141 < 400). The run ends with exit 0.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    beqz a0, arrive
    la t0, word
    li t1, 200
spin:
    lw t2, 0(t0)
    addi t1, t1, -1
    bnez t1, spin
arrive:
    j bar
    .balign 128
    .skip 124, 0                    // (never executed: the barrier ends its line)
bar:
    .insn i 0x0B, 0, x0, x0, 0      // wsim.bar
after:
    li a0, 0
    li a7, 93
    ecall
    .data
word:
    .word 1
