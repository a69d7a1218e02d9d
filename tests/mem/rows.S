// DRAM row buffer (lwm preset: 8 banks, 4 KiB rows, 128 B lines): one thread
// reads ROWS consecutive rows line by line (32 lines a row). Rows interleave
// across banks, so each row's first line opens it (a conflict: the bank was
// closed or held another row) and its other 31 lines hit the open row.
// Then it reads ROWS lines 8 rows apart — the same bank every time, a new row
// every time: all conflicts.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    bnez a0, done
    csrr s0, 0xcc8          // ROWS
    la t0, array
    slli t1, s0, 5          // ROWS x 32 lines
seq:
    lw t2, 0(t0)
    addi t0, t0, 128
    addi t1, t1, -1
    bnez t1, seq
    la t0, array2
    mv t1, s0
    li t3, 4096 * 8
stride:
    lw t2, 0(t0)
    add t0, t0, t3
    addi t1, t1, -1
    bnez t1, stride
done:
    li a0, 0
    li a7, 93
    ecall
    .bss
    .balign 4096
array:
    .space 4096 * 16
    .balign 4096
array2:
    .space 4096 * 8 * 16
