// First-principles bound: MAWS's latency speculation where splitting cannot
// pay (000 §5.4.2-§5.4.3, Fig. 5; docs/bounds.md). A divergent load whose
// hits would run ahead through a long miss-free stretch: a run-ahead split
// could issue no miss before the missing threads' data is back, only run
// that stretch at half width, and the missing threads run it again after.
// Latency-speculating Split must see it (sum-rMFC + rMFC' >= MemLat) and
// not split: the bound is Conv's time.
//
// Machine (tests/bounds/check.sh maws-hold): as the MAWS machine of
// bound_dws_mem.S: maws-bulksync (8 lanes, 32 B lines, 3-cycle hits),
// --set wpus=1 warps=1, 8 threads, dram_banks = 0, dram_latency = 300,
// dram_mbps = 16000, xbar_latency = 0, l1i_size = 0: a miss L = 3 + 300 + 2
// = 305 cycles from issue to the group's next issue. MSHRs: one miss in
// flight at a time (16 MSHRs); bandwidth: one 32 B line (2 bus cycles) per
// iteration: neither binds.
//
// One warp, two halves: A = lanes 0-3 read line 0 at every load (the warm-up
// brings it in for everyone: all miss, not divergent), B = lanes 4-7 read a
// new line at every load (miss), 160 + 128 i bytes on (never line 0's L1 D
// bank: no bank conflict). N = 4 iterations of C = 1500 ALU instructions,
// then the load (A hits, B misses), a pointer step, the count and the loop's
// two branches (beqz taken in the last). Instructions: P = 17 (prologue,
// warm-up load included), C + 5 per iteration, one fewer in the last, 3 to
// exit: I = 17 + 4 (C + 5) - 1 + 3 = 6039 issue cycles.
//   T_conv = I + (N + 1)(L - 1) = 6039 + 5 x 304 = 7559.
// The bound: B's lanes run every instruction of the program and wait for
// every miss, the warm-up's and one per iteration; their chain alone is
// T_conv. No mechanism that keeps each thread's instructions is faster:
//   T >= T_conv, speedup <= 1 (exactly; no slack).
// MAWS.LatSpec: at each divergent load the warp's MFC (cycles issued since
// its last miss completed: at least C = 1500) exceeds its MemLat (its last
// miss, 305): no split, Conv's cycles exactly (MAWS.LatSpec.RR too).
// A mechanism that splits here (MAWS.Aggress, and MAWS.LazySplit with one
// warp: 000 Fig. 5's case) loses: the run-ahead A keeps the pipeline
// through its C instructions (switch on access), B runs them again after,
// and the two merge by PC at B's next load: 9969 cycles, speedup 0.758.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, 0xcc0          // lane
    csrr t1, 0xcc3          // width W
    srli t1, t1, 1          // W / 2
    sltu t6, t0, t1
    xori t6, t6, 1          // 1 for B
    addi t1, t1, -1
    and t1, t0, t1          // j = lane mod W/2
    slli t1, t1, 2          // 4 j
    la t2, array
    add t2, t2, t1          // array + 4 j: line 0
    lw t5, 0(t2)            // warm-up: every lane reads line 0 (all miss)
    slli t4, t6, 7          // the step: A 0 (line 0 again), B 128 (a new line)
    add t2, t2, t4
    srli t3, t4, 2
    add t2, t2, t3          // B starts 160 B on: its lines never share line 0's bank
    li s0, 4                // N
loop:
    .rept 1500              // C
    addi t1, t1, 1
    .endr
    lw t5, 0(t2)            // A hits, B misses
    add t2, t2, t4
    addi s0, s0, -1
    beqz s0, done           // (bnez cannot reach back past C instructions)
    j loop
done:
    li a7, 93
    li a0, 0
    ecall
    .bss
    .balign 4096
array:
    .space 160 + 128 * 4
