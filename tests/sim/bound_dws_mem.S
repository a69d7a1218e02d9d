// First-principles bound: DWS on memory divergence (001 §5.1, Fig. 8; 000
// §5.1, Fig. 3(b)(i); docs/bounds.md). The threads that hit run ahead under
// the others' miss and issue their own miss early: two misses that Conv
// serializes overlap.
//
// One warp (all others "suspended", as in 001 Fig. 8 and 000 Fig. 3), two
// halves: A = lanes 0 .. W/2-1, B = lanes W/2 .. W-1 (W = the SIMD width).
// Each half reads one line per access (lane j of its half: word j). Per
// iteration i = 0 .. N-1 (N = 16):
//   load1: A reads a new line a_i (miss), B reads b_{i-1} (hit: B's load2
//          brought it in iteration i-1; b_{-1} by the warm-up);
//   load2: A reads a_i again (hit), B reads a new line b_i (miss);
//   4 ALU instructions (two pointer steps, the count, the loop branch).
// So every load is divergent for the warp, and each half has one miss and
// one hit per iteration. The warm-up reads b_{-1} for every lane (all miss
// together: not divergent). Lines are 128 B apart (a new line on either
// machine below); B's stream lies 5152 B past A's, so the two halves' lines
// fall in different L1 D banks in every access (dws: 128 B lines, 16 banks:
// 40 lines apart, and 39 for load1; maws-bulksync: 32 B lines, 8 banks: 161
// and 157 lines apart): no bank conflicts. MSHRs: at most the two misses
// of an iteration are in flight (32 or 16 MSHRs): no access waits for one.
// Bandwidth: see each machine below; it never binds.
//
// Terms: L = a miss, from issue to the group's next issue (l1d_latency +
// dram_latency + the line's bus cycles: below); h = l1d_latency = 3, a hit.
// Instructions: P = 22 (prologue, the warm-up load included), 6 per
// iteration, 3 to exit: I = 25 + 6 N = 121 issue cycles.
// Conv: the warp waits for its last lane, so each load costs a miss:
//   T_conv = I + (L - 1) + N x 2 (L - 1)                  [warm-up + 2 misses an iteration]
// The bound: A's lanes cannot start load1 of iteration i+1 before L (load1
// misses) + h (load2 hits) + 4 (ALU) cycles after load1 of iteration i; B's
// chain is h + L + 4, the same; everything before the loop waits for the
// warm-up's miss. Two splits issue 12 instructions in the L + h + 4 cycles:
// the chains, not the issue slots, bound it:
//   T >= T_ideal = I + (L - 1) + N x ((L - 1) + (h - 1)).
// DWS: load1 (issued at t) splits the warp: B, the hits, runs ahead, issues
// load2 at t + h and misses (back at t + h + L); A resumes at t + L and
// issues load2, a hit back at t + L + h: the same cycle. So A's load2 merges
// B by PC (001 §4.5: B waits at the PC after load2, its data back no later
// than A's) and the warp issues the 4 ALU instructions whole from t + L + h:
// one split and one merge an iteration, and exactly T_ideal.
//
// DWS machine (check.sh dws-mem): the dws preset's WPU and L1 D (16 lanes,
// 32 KB 8-way 128 B lines, 3-cycle hits, 32 MSHRs), --set wpus=1 warps=1,
// 16 threads, memory = bulksync (the L1 D straight to memory: no L2),
// dram_banks = 0 (a fixed dram_latency = 100 and one bus), dram_mbps =
// 128000 (a 128 B line in one bus cycle: the bus never binds), xbar_latency
// = 0, l1i_size = 0 (ideal instruction fetch). L = 3 + 100 + 1 = 104:
//   T_conv = 121 + 103 + 16 x 206 = 3520,  T_ideal = 121 + 103 + 16 x 105 = 1904,
//   speedup <= 3520 / 1904 = 1.849 (AggressSplit, LazySplit, ReviveSplit,
//   ReviveSplit.MemOnly and the three .BL: 1904 cycles, 16 splits, 16 merges).
// The BranchLimited legends (.BL, 001 §5.3.1) make splits wait for each other
// at the loop branch: there the bound needs the hits to run ahead in every
// iteration. (Under BranchBypass two halves split once could also run apart
// for good, each at its own chain's pace: the same bound.)
// MAWS machine (check.sh maws-split): the maws-bulksync preset (8 lanes, 32 KB
// 4-way 32 B lines, 3-cycle hits, 16 MSHRs, memory straight to memory),
// --set wpus=1 warps=1, 8 threads, dram_banks = 0, dram_latency = 300,
// dram_mbps = 16000 (a 32 B line in 2 bus cycles; the two misses of an
// iteration are 3 cycles apart: the bus never binds), xbar_latency = 0,
// l1i_size = 0. L = 3 + 300 + 2 = 305:
//   T_conv = 121 + 304 + 16 x 608 = 10153,  T_ideal = 121 + 304 + 16 x 306 = 5321,
//   speedup <= 10153 / 5321 = 1.908. Latency speculation (000 §5.4.3) splits:
//   a split issues at most 6 instructions between its misses, so sum-rMFC +
//   MFC <= 12 < MemLat = 305; MAWS.LatSpec, MAWS.LatSpec.RR, MAWS.LazySplit
//   (one warp: every other group waits) reach 5321 cycles.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, 0xcc0          // lane
    csrr t1, 0xcc3          // width W
    srli t1, t1, 1          // W / 2
    sltu t6, t0, t1
    xori t6, t6, 1          // 1 for B
    neg t6, t6              // B: all ones, A: 0
    addi t1, t1, -1
    and t1, t0, t1          // j = lane mod W/2
    slli t1, t1, 2          // 4 j
    la t2, astream
    add t2, t2, t1          // astream + 4 j
    la t3, bstream
    add t3, t3, t1          // bstream + 4 j
    lw t5, -128(t3)         // warm-up: every lane reads b_{-1} (all miss)
    sub t3, t3, t2          // bstream - astream
    and t3, t3, t6
    add t2, t2, t3          // load2's pointer: A a_0, B b_0
    andi t3, t6, 128
    sub t4, t2, t3          // load1's pointer: A a_0, B b_{-1}
    li s0, 16               // N
loop:
    lw t5, 0(t4)            // load1: A misses, B hits
    lw t5, 0(t2)            // load2: A hits, B misses
    addi t4, t4, 128
    addi t2, t2, 128
    addi s0, s0, -1
    bnez s0, loop
    li a7, 93
    li a0, 0
    ecall
    .bss
    .balign 4096
astream:                    // a_i = astream + 128 i
    .space 5152
bstream:                    // b_i = bstream + 128 i (b_{-1} = bstream - 128)
    .space 128 * 16
