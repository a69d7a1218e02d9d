// Diverge on miss refused by the slip controller, and a forced
// re-convergence of two table entries at once, worked by hand (002 §4.1,
// §4.3, §5.1; docs/dom.md, docs/blocks/asc.md). One warp of 8 threads on the
// dom preset (--set wpus=1 --set warps=1 --threads 8), straight-line code:
//
//   warm-up: every thread reads line 0 (all miss together: no divergence)
//   L1: threads 0-3 read line 0 (hit), 4-7 line A (miss)        divergent
//   L2: threads 0,1 and 4-7 read line 0 (hit), 2,3 line B (miss)
//   exit
//
// DoM.NoLimit: L1 allocates MDT entry 0 (4-7 masked). L2 issues with 0-3
//   (4-7 are masked), 0,1 hit and 2,3 miss: divergent, no entry at L2, the
//   warp's second entry is free: allocate (2,3 masked). 0,1 exit at once:
//   the warp's stack entry (level 1) ends with 6 threads masked: one forced
//   re-convergence clears both entries (before any line is back: no fill).
//   2,3 run first (from L2 + 4: they exit), then 4-7 (from L1 + 4: L2 hits
//   for them, they exit).
//   allocs 2, masked 6, forced 1 (6 threads), refused 0, fills 0; mem_div 2.
// DoM.FixedSlip, max slip 1: L1 is the warp's first divergence: allowed;
//   the slip controller counts up 0-3 (they hit, the tail 4-7 missed) to 1
//   = the limit: limit bits 0-3. L2 diverges with 0-3 active at the limit:
//   the controller blocks, the table refuses, the warp waits for line B
//   (line A comes back meanwhile: one fill of entry 0, 4-7 ready). 0-3
//   exit: forced re-convergence of 4-7 (no re-activation: L1 never issues
//   again).
//   allocs 1, masked 4, refused_slip 1, forced 1 (4 threads), fills 1;
//   slip histogram: L1 at 0, L2 at 1.
// DoM.FixedSlip, max slip 2: L1 as above (0-3 at 1, below the limit); L2
//   allowed: the tail (counter 0: 4-7, masked) did not all hit, so the hits
//   0,1 count up to 2; then as NoLimit. Histogram: L1 at 0, L2 at 1.
// DoM.Block: both divergent loads refused (refused_slip 2).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, 0xcc0          // lane i (0..7)
    srli t6, t0, 2          // m1 = 1 for threads 4-7
    srli a4, t0, 1
    andi a4, a4, 1
    xori a5, t6, 1
    and a4, a4, a5          // m2 = 1 for threads 2,3
    andi t1, t0, 3          // j = i mod 4
    la t3, array
    slli t1, t1, 2
    add t3, t3, t1          // array + 4 j: line 0
    lw t5, 0(t3)            // warm-up: every thread misses on line 0
    slli a2, t6, 12
    add t2, t3, a2          // L1's address: line 0, or line A (array + 4096 + 4 j) for 4-7
    slli a3, a4, 13
    add a3, t3, a3          // L2's address: line 0, or line B (array + 8192 + 4 j) for 2,3
L1:
    lw t5, 0(t2)
L2:
    lw t4, 0(a3)
    li a7, 93
    li a0, 0
    ecall
    .bss
    .balign 4096
array:
    .space 8192 + 32
