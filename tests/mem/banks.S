// Bank conflicts: the 16 lanes of one warp each load a different line, all
// lines in the same L1 D bank (stride = 16 banks x 128 B): each such load
// queues 15 requests behind the first in that bank. Done twice: the second
// time every line hits, and only the queueing separates the lanes.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    la t0, array
    slli t1, a0, 11         // lane x 2048
    add t0, t0, t1
    lw t2, 0(t0)
    lw t3, 0(t0)
    li a0, 0
    li a7, 93
    ecall
    .bss
    .balign 4096
array:
    .space 2048 * 16
