// An L2 hit overtakes a DRAM miss on the crossbar (maws-coherent, one WPU,
// two warps of one thread). Warp 0 first reads array + 128 + 64, bringing
// the 128 B L2 line at array + 128 into the L2. After a barrier warp 0
// loads array (never touched: to DRAM) at cycle T, and warp 1 loads
// array + 128 (a new 32 B line for their L1, in that L2 line: an L2 hit,
// no other WPU shares it) at T + 1: warp 0 reaches the barrier last and
// keeps the pipeline until its load; the code's two I-cache lines are in
// before warp 0's first load. Their data cross the crossbar as each comes
// back:
//   warp 0: 3 + 2 + 23 + 300 + 128 B at 16 B/cycle 8 + 2 + 32 B 1 = 339 cycles
//   warp 1: 3 + 2 + 23 + 2 + 32 B at 57 B/cycle 1 = 31 cycles
// (its request leaves at T + 4, right behind warp 0's: one a cycle). When
// the crossbar was reserved in issue order, warp 1's data waited for warp
// 0's to have crossed (ready 339 cycles after issue; it then issued after
// warp 0's last three instructions, 341 cycles).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:                     // I-cache line 0
    j 2f                    // fetch line 1 first
1:  la t3, array
    bnez a0, 3f
    lw t5, 128 + 64(t3)     // warp 0: bring the L2 line in
    j 4f
3:  addi t3, t3, 128
    j 4f
    .balign 32              // I-cache line 1
2:  j 1b
4:  .insn i 0x0B, 0, x0, x0, 0
    lw t6, 0(t3)            // warp 0: array; warp 1: array + 128
    li a0, 0
    li a7, 93
    ecall
    .bss
    .balign 4096
array:
    .space 256
