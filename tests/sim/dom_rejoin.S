// Where masked threads may re-join (002 §4.1 step 5; docs/dom.md), worked by
// hand. One warp of 8 threads on the dom preset (--set wpus=1 --set warps=1
// --threads 8), DoM.NoLimit; --arg D sets a delay loop (D iterations of 2
// instructions) after the if below, so that a pass takes ~2 D cycles.
//
// Each thread runs 3 iterations (i = 0, 1, 2) of
//     if (i != 1 || lane is even) { A: load } else { count }  delay
// Threads 0-3 (j = lane mod 4) read word j of line 0, except in their
// iteration 2, when they read a line of their own (a miss); threads 4-7 read
// a new line in every iteration (a miss). The if diverges only in iteration
// 1, between even and odd lanes: the stack then holds the join (at `join`),
// the else path (odd lanes, waiting to run) and the then path (even lanes,
// running).
//
// --arg 400 (a pass ~800 cycles: a line is back by the next pass):
//   i = 0, all 8 (level 1): A diverges, 0-3 hit, 4-7 miss: allocation, 4-7
//     masked at level 1; mem_div_insts 1.
//   i = 1, 0-3: the if diverges: {0,2} issue A at level 3 above {1,3}'s
//     else path. 4-7 are ready but masked at level 1, behind a path still
//     to run: not on this path, they stay (re-joining here would put them
//     into the else path's entry: --check's nesting invariant).
//   i = 2, 0-3 at level 1: A misses for all four, 4-7 are ready: 002's
//     divergent access (the ready threads go on with the hits, of which
//     there are none): 0-3 merged into A's entry, 4-7 re-activated (at
//     their iteration 0, after A). Blocking the warp for 0-3's misses with
//     4-7 re-joining after them would be the other reading (not 002's).
//   4-7, i = 1: the if diverges, {4,6} miss at A on level 3 with nobody
//     hitting and 0-3 still waiting (and behind {5,7}'s path): they block.
//   4-7, i = 2, level 1: A misses for all four, 0-3 are ready: merged,
//     re-activated; 0-3 finish their loop and exit. Level 1 ends with 4-7
//     masked: forced back (4 threads); they finish alone.
//   allocs 1, merges 2, masked 12, reactivations 2 (8 threads), forced 1
//   (4), refused 0, fills 3 (4-7's line after i = 0, 0-3's after their
//   i = 2, 4-7's after their i = 2, before 0-3 are through their delay);
//   mem_div_insts 1. The same with dom_rejoin = level (every re-join here
//   is at the level the threads were masked at).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, 0xcc0          // lane (0..7)
    csrr s2, 0xcc8          // the delay
    srli t6, t0, 2          // m = 1 for threads 4-7
    andi t1, t0, 3          // j
    andi a6, t0, 1
    seqz a6, a6             // even lane
    la t3, array
    slli t1, t1, 2
    add t3, t3, t1          // array + 4 j: line 0
    lw t5, 0(t3)            // warm-up: every thread misses on line 0
    li t2, 4096
    add t2, t2, t3          // 4-7: array + 4096 + 4 j, then 32 further each use
    li t4, 8192
    add t4, t4, t3          // 0-3 in iteration 2: array + 8192 + 4 j
    li s0, 0
loop:
    addi t1, s0, -1
    snez t1, t1
    or t1, t1, a6           // i != 1 || even
    bnez t1, then           // (taken: its path runs first, above the other)
other:
    addi a7, a7, 1
    j join
then:
    xori a4, s0, 2
    seqz a4, a4
    xori a5, t6, 1
    and a4, a4, a5          // 0-3 in iteration 2
    sub a2, t4, t3
    mul a2, a2, a4
    add a2, a2, t3          // 0-3's address
    sub a3, t2, a2
    mul a3, a3, t6
    add a3, a3, a2          // the thread's address
A:
    lw t5, 0(a3)
    add a7, a7, t5          // (A is not its path's last instruction)
join:
    slli a3, t6, 5
    add t2, t2, a3          // 4-7's stream moves on (a new line in every iteration)
    mv s1, s2
delay:
    addi s1, s1, -1
    bnez s1, delay
    addi s0, s0, 1
    li a1, 3
    bne s0, a1, loop
    li a7, 93
    li a0, 0
    ecall
    .bss
    .balign 4096
array:
    .space 8192 + 32
