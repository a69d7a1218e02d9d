// Capacity and associativity: one thread reads LINES lines (LINES =
// wsim.arg) that all map to one L1 D set (stride = sets x line = 4 KiB for
// the dws L1: 32 KiB / (8 ways x 128 B) = 32 sets), round robin, 8 passes.
// With LRU, up to 8 lines (the associativity) miss once and then hit; with
// 9 or more every access misses.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    bnez a0, done
    csrr s0, 0xcc8          // LINES
    li s1, 8                // passes
pass:
    la t0, array
    mv t1, s0
line:
    lw t2, 0(t0)
    li t3, 4096
    add t0, t0, t3
    addi t1, t1, -1
    bnez t1, line
    addi s1, s1, -1
    bnez s1, pass
done:
    li a0, 0
    li a7, 93
    ecall
    .bss
    .balign 4096
array:
    .space 4096 * 16
