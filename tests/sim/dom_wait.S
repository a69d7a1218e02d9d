// A long legal wait of masked threads, and the watchdog (docs/dom.md, "--check
// and the watchdog"). One warp of 8 threads on the dom preset (--set wpus=1
// --set warps=1 --threads 8: 32-byte lines, 500-cycle memory), DoM.NoLimit;
// --arg D sets two delay loops (D iterations of 2 instructions, CPI 1).
//
// rt's pixel loop in small (kernel_main is crt0's callee; the threads whose
// first load there misses wait for the whole loop): every thread calls
// `work`, whose load L runs once, before a delay loop with no load or store.
// Threads 0-3 read line 0 (warmed up: a hit), threads 4-7 a line of their own
// (a miss): L diverges, 4-7 are masked off at the callee's base entry (level
// 2, above the call site) and the warp never issues L again. 0-3 run the
// delay loop (~2 D cycles) and return: level 2 ends with 4-7 masked: forced
// back after L (their line is back: no wait), they run the delay loop alone
// and return to the call site, where the warp re-converges; all 8 run the
// second delay loop at level 1 and exit.
//   dom: allocs 1, masked 4, reactivations 0, forced 1 (4 threads), fills 1
//   (the line is back ~500 cycles after L, before the force when 2 D > 500);
//   mem_div_insts 1.
// 4-7 wait ~2 D cycles, and legally: a watchdog below that must let the run
// finish (before the fix it stopped it, as it stopped rt at 512 x 512). A
// real loss (tests/dom_mutants.sh: the level's end not forcing them) loses
// 4-7 when `work` returns; the watchdog names them while 0-3 run the second
// delay loop (their level 2 ended without them).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, 0xcc0          // lane (0..7)
    csrr s2, 0xcc8          // the delay D
    srli t6, t0, 2          // m = 1 for threads 4-7
    andi t1, t0, 3
    slli t1, t1, 2
    la t3, array
    add t3, t3, t1          // array + 4 j (j = lane mod 4): line 0
    lw t5, 0(t3)            // warm-up: every thread misses on line 0
    slli t6, t6, 12
    add a0, t3, t6          // 4-7: array + 4096 + 4 j, one line for the four
    jal ra, work
    mv s1, s2
delay2:
    addi s1, s1, -1
    bnez s1, delay2
    li a7, 93
    li a0, 0
    ecall
work:
    lw t5, 0(a0)            // L
    mv s1, s2
delay1:
    addi s1, s1, -1
    bnez s1, delay1
    ret
    .bss
    .balign 4096
array:
    .space 4096 + 32
