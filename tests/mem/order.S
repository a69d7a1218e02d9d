// One slow bank and an idle one (lwm preset with dram_map = linear: row r
// in bank r mod 8; two warps of one thread, round-robin). Before a barrier,
// thread 0 opens row A (bank X) and thread 1 row A + 1 (bank X + 1). After
// it both issue the same load, warp 0 first (at t) and warp 1 a cycle later:
// thread 0 reads row A + 8 — bank X again, a conflict, its data there at
// t + 1 + 300 and across the bus (4 cycles) by t + 305 — and thread 1 the
// next line of row A + 1: a hit in an idle bank, its data there at t + 2 + 100.
//   dram_return = ready: it crosses at once; warp 1 issues again 105 cycles
//     after its load, without waiting for the slow bank.
//   dram_return = order: it crosses after thread 0's transfer, booked first,
//     in [t + 305, t + 309): warp 1 issues again 308 cycles after its load.
// Warp 0: 305 cycles either way. The trace gives each load and the next issue.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    la t0, array
    slli t1, a0, 12         // thread t: row A + t
    add t0, t0, t1
    lw t2, 0(t0)            // warm-up: opens the row
    neg t6, a0              // thread 1: all ones
    li t5, 128 - 4096 * 8
    and t5, t5, t6
    li t4, 4096 * 8
    add t5, t5, t4
    add t5, t0, t5          // thread 0: row A + 8; thread 1: row A + 1, next line
    .insn i 0x0B, 0, x0, x0, 0      // wsim.bar
    lw t3, 0(t5)
    li a0, 0
    li a7, 93
    ecall
    .bss
    .balign 1 << 22
array:
    .space 4096 * 16
