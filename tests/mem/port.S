// One request port per L1 D (l1d_serial_miss): two warps of one WPU, thread
// t reading line t of `array` at offset 32 b, b = (t >> 1) mod 4 (as in
// serial.S: every thread its own 128 B line, each warp's 8 lanes their own
// L1 bank). First each thread reads its line at offset 32 (b xor 2), bringing
// it into the L2; after a barrier each warp loads its 8 new L1 lines, which
// hit in the L2: warp 0 at cycle T, warp 1 at T + 1 (the WPU switches on
// the access).
// maws-coherent, serialized: the L1 sends one request a cycle, whichever
// instruction it comes from. Warp 0's 8 requests leave at T+3 .. T+10,
// warp 1's (looked up at T+4) queue behind them and leave at T+11 .. T+18;
// each line's data moves 2 + 23 + 2 = 27 cycles after its request left, 32 B
// alone in its cycle: warp 1's last line is back at T + 18 + 27 + 1 = T + 46,
// 45 cycles after warp 1 issued (warp 0: T + 10 + 28 = T + 38, as serial.S).
// Requests in parallel: all 16 data from T+30 and T+31, 512 B at 57 B a
// cycle = 8.98 cycles, so warp 1's last byte moves in cycle T+38: 38 cycles
// after warp 1 issued.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    slli t1, a0, 7          // 128 t
    srli t2, a0, 1
    andi t2, t2, 3
    slli t2, t2, 5          // 32 b
    add t1, t1, t2
    la t3, array
    add t3, t3, t1
    xori t4, t3, 64
    lw t5, 0(t4)            // bring the line into the L2
    .insn i 0x0B, 0, x0, x0, 0
    lw t6, 0(t3)            // the measured load
    li a0, 0
    li a7, 93
    ecall
    .bss
    .balign 4096
array:
    .space 128 * 16
