// The energy model's hand count (docs/energy.md, scripts/energy.py).
// One WPU, one warp of 4 lanes, 4 threads; memory = fixed (no caches, so
// no cache, L2, crossbar or DRAM energy), l1i_size = 0 (ideal fetch: no
// I-cache energy); see tests/run.sh, group energy, for the command.
//
// Per lane (r = register-file reads, w = writes; x0 is not counted):
//   csrr t0, mhartid   alu    r0 w1      addi t1, t0, 1   alu  r1 w1
//   mul t2, t1, t1     mul    r2 w1      fcvt.s.w ft0,t2  fp   r1 w1
//   fadd.s ft1,ft0,ft0 fp     r2 w1      auipc t3         alu  r0 w1
//   addi t3, t3, lo    alu    r1 w1      slli t4, t0, 2   alu  r1 w1
//   add t3, t3, t4     alu    r2 w1      fsw ft1, 0(t3)   st   r2 w0
//   lw t5, 0(t3)       ld     r1 w1      andi t6, t0, 1   alu  r1 w1
//   beqz t6, skip      branch r1 w0      (odd lanes) addi t5 alu r1 w1
//   li a7, 93          alu    r0 w1      li a0, 0         alu  r0 w1
//   ecall              alu    r0 w0
// beqz diverges (even lanes taken); the two odd lanes run one addi.
// SIMD instructions 16 + 1 = 17; thread instructions 16 x 4 + 2 = 66:
//   mul 4, fp 8, branch 4, load 4, store 4, alu 66 - 24 = 42.
// Register file per lane: reads 15 x 4 + 2 = 62, writes 13 x 4 + 2 = 54;
// per SIMD instruction: reads 15 + 1 = 16, writes 13 + 1 = 14.
// Cycles: 17 issues; the store and the load each hold the warp for
// mem_latency = 10 cycles from their issue (9 more cycles each), so
// 17 + 2 x 9 = 35 cycles.
//
// Energy (pJ, scripts/energy.py's constants):
//   fetch   17 x 40                                            =   680
//   lanes   66 x 2 + 42 x 0.2 + 4 x 6.2 + 8 x 7.4 + 4 x 0.2 + 8 x 0.2
//           = 132 + 8.4 + 24.8 + 59.2 + 0.8 + 1.6              =   226.8
//   regfile per lane: 62 x 4 + 54 x 5 = 248 + 270              =   518
//           per SIMD access (--rf warp): 4 x (16 x 4 + 14 x 5) =   536
//   static  35 cycles x 1 WPU x (150 + 50)                     =  7000
//   total   680 + 226.8 + 518 + 7000 = 8424.8  (--rf warp: 8442.8)
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, mhartid
    addi t1, t0, 1
    mul t2, t1, t1
    fcvt.s.w ft0, t2
    fadd.s ft1, ft0, ft0
    la t3, data
    slli t4, t0, 2
    add t3, t3, t4
    fsw ft1, 0(t3)
    lw t5, 0(t3)
    andi t6, t0, 1
    beqz t6, skip
    addi t5, t5, 1
skip:
    li a7, 93
    li a0, 0
    ecall

    .data
    .balign 64
data:
    .space 64
