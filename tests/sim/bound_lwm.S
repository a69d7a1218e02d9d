// First-principles bound: the large warp microarchitecture (004 §3.1, Fig. 6;
// docs/bounds.md, docs/lwm.md). Sub-warps pack the threads of several
// diverged warps into full SIMD groups: where every warp runs a path with
// half its lanes, a large warp runs it in half the sub-warps.
//
// Machine (tests/bounds/check.sh lwm): the lwm preset (1 WPU, 32 warps of 32
// threads on 32 lanes, 5-stage barrel pipeline: a group issues again 5
// cycles after its last issue), 1024 threads, memory = fixed and
// private_mem = 0 (the program touches no memory: no latency, MSHR or
// bandwidth term; ideal instruction fetch), switch_on = cycle (round-robin:
// 004 §2.1). LWM (--policy LWM): 4 large
// warps of 256 threads = 8 rows x 32 columns; a thread's row is bits 5-7 of
// its id, its column bits 0-4, a Conv warp is one row.
//
// Program: 7 instructions every thread runs (andi, srli, andi, the branch
// `br`; li, li, ecall at `join`) and C = 64 ALU instructions (`long`) that a
// thread runs when bit 4 of its id differs from bit 5: in every Conv warp
// half the lanes (bit 5 is fixed in a warp, bit 4 halves it); in every column
// of a large warp half the rows (bit 4 is fixed in a column, bit 5 alternates
// with the row). Issue slots are the only cost (no memory).
// Conv: 32 warps >= 5 stages, so one warp instruction issues every cycle:
//   T_conv = 32 x (7 + C) = 2272.
// LWM: the column picker issues one sub-warp a cycle and an instruction needs
// at least as many sub-warps as its fullest column has threads: 8 for the 7
// instructions every thread runs, 4 for each of the C (a sub-warp of 32
// threads each: lane utilization 1). With 4 large warps the picker never
// waits: a large warp is fetched again when its first sub-warp completes, 5
// cycles after it issued, or after the branch when its last does, 12 cycles
// after the first; the other 3 large warps' 12 or more sub-warps fill the
// gap. (With 256 threads, one large warp, each instruction would take at
// least 5 cycles, the branch 12: 53 + 5 C = 373 cycles, as the model does.)
// The run ends when the last thread exits, at the fetch of the last large
// warp's ecall: its other 7 sub-warps are not counted (docs/lwm.md):
//   T_lwm >= 4 x (8 x 7 + 4 C) - 7 = 1241,
//   speedup <= 2272 / 1241 = 1.831 (the model: 1241 cycles, 1241 sub-warps).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    andi t0, a0, 16         // bit 4 of the thread id
    srli t1, a0, 1
    andi t1, t1, 16         // bit 5, moved to bit 4
br:
    beq t0, t1, join        // equal: skip the long path
long:
    .rept 64                // C
    addi t2, t2, 1
    .endr
join:
    li a7, 93
    li a0, 0
    ecall
