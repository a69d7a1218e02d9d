// Diverge on miss, worked by hand (seed 002 §4.1, §4.3; docs/dom.md). One
// warp of 8 threads on the dom preset (--set wpus=1 --set warps=1 --threads
// 8: 32-byte lines, 500-cycle memory), under DoM.NoLimit (no slip limit, so
// only the table decides) and DoM.Block. --arg D sets the delay loop
// (D iterations of 2 instructions, CPI 1) between two passes of the load L.
//
// The warm-up load brings line 0 in for every thread (all miss together: no
// divergence). In the loop, threads 0-3 read line 0 again (hit) and threads
// 4-7 read one line shared by the four, a new one in each of their
// iterations (miss). Each thread runs 10 iterations (s0 counts them).
//
// --arg 400 (a pass takes ~800 cycles: a line is back before the next pass):
//   pass 1: L diverges (hits 0-3, misses 4-7): MDT entry allocated, 4-7
//           masked off; 0-3 run on alone;
//   pass 2: 0-3 issue L again; 4-7's line is back (MCB status ready): they
//           re-join after L, now one iteration behind (re-activation);
//   pass 3: 0-3 hit (iteration 3), 4-7 miss (their iteration 2): allocate;
//   ... odd passes allocate, even passes re-activate: 5 allocations (4
//   threads each), 5 fills (one line each), 5 re-activations (4 each).
//   Pass 10: 0-3 leave the loop at exit_br, 4-7 (iteration 5, active after
//   the pass-10 re-activation) stay: a divergent branch (no thread masked:
//   nothing forced); 4-7 run iterations 6-10 alone, every load a miss for
//   all four (not divergent), and re-converge with 0-3 at `done`.
//   dom: allocs 5, merges 0, masked 20, reactivations 5 (20 threads),
//   forced 0, refused 0, fills 5; mem_div_insts 5 (passes 1, 3, 5, 7, 9).
// --arg 1 (a pass takes a few cycles: no line is back before the next):
//   pass 1 allocates (4-7 masked); passes 2-10 find the entry with no ready
//   thread (nothing happens: no thread missed, none ready); 0-3 leave the
//   loop together (not divergent) and exit: their stack entry (level 1)
//   ends with 4-7 still masked: forced re-convergence. 4-7 go back on the
//   stack after L, wait for their line and run their 10 iterations alone
//   (all misses, blocking). The force cleared the entry before the line
//   came back: no fill.
//   dom: allocs 1, masked 4, reactivations 0, forced 1 (4 threads), fills 0;
//   mem_div_insts 1.
// DoM.FixedSlip (the slip controller, docs/blocks/asc.md), --arg 400: the
// counters of 0-3 (the hits) decide. 002 §5.1 counts the hits up only when
// an undiverged warp diverges — every odd pass here, since the even pass
// before it re-activated 4-7 — and an all-hit pass with no thread at the
// limit changes nothing. Max slip 8: before passes 1, 3, 5, 7, 9 the largest
// counter is 0, 1, 2, 3, 4: the same 5 allocations and re-activations,
//   slip histogram 0:1 1:1 2-3:2 4-7:1, no refusal.
// Max slip 2 (dom_limit = disable: a thread at the limit is disabled, §6):
// pass 3 brings 0-3 to 2 = the limit (limit bits 0f; allocation 2, histogram
// 1). Pass 4: 0-3 issue L with their limit bits set: disabled, held in L's
// entry (they hit: waiting for their data, a fill); 4-7 (ready) re-join and
// go on alone: re-activation 2, 12 threads masked in all. From then on 4-7
// miss at every L, with nobody hitting: no divergence, they block (as
// blocking SIMD), and 0-3's counters never come down — §5.1 decrements them
// "when the remaining threads hit in the cache". 4-7 finish and exit; level
// 1 ends with 0-3 held: forced back (4 threads), they run iterations 4-10.
//   allocs 2, masked 12, reactivations 2 (8 threads), forced 1 (4), fills
//   3, slip histogram 0:1 1:1, no refusal (mem_div_insts 2).
// DoM.Block (max slip 0): every divergent L blocks: refused_slip 10 (all
// ten iterations diverge, as under Conv: mem_div_insts 10), no allocation;
// cycle for cycle Conv.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, 0xcc0          // lane i (0..7)
    csrr s2, 0xcc8          // the delay (--arg)
    srli t6, t0, 2          // m = 1 for threads 4-7 (the missing side)
    andi t1, t0, 3          // j = i mod 4
    la t3, array
    slli t2, t1, 2
    add t2, t3, t2          // array + 4 j: line 0
    lw t5, 0(t2)            // warm-up: every thread misses on line 0
    slli a2, t6, 12
    add t2, t2, a2          // threads 4-7: array + 4096 + 4 j
    slli t4, t6, 5          // step: 0 (hits) or 32 (a new line each iteration)
    li s0, 10
loop:
    lw t5, 0(t2)            // L
    add t2, t2, t4
    mv s1, s2
delay:
    addi s1, s1, -1
    bnez s1, delay
    addi s0, s0, -1
exit_br:
    beqz s0, done
    j loop
done:
    li a7, 93
    li a0, 0
    ecall
    .bss
    .balign 4096
array:
    .space 4096 + 32 * 16
