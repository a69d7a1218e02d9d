// DRAM bank occupancy apart from latency (lwm preset with dram_map = linear:
// 8 banks, row r in bank r mod 8, 4 KiB rows; one warp of 32 lanes). One
// SIMD load whose lane i reads row 8 i of a 4 MiB-aligned array: 32 rows of
// bank 0, which holds the code's row (0x10000: row 16) from the I-fetch long
// before. The L1 is single-ported, so request i reaches DRAM at t + 1 + i
// (issue t, 1-cycle lookup, one line a cycle). The bank serves them in order
// (FCFS), each a conflict: it precharges no earlier than the bank is free
// and tRAS (35) after the bank's last activation, activates tRP (14) later,
// and its column comes tRCD (14) after that, the bank then busy for the
// 4-cycle burst:
//   request 0: precharge t + 1, activate t + 15, column t + 29, free t + 33;
//   request i >= 1: precharge tRAS after the last activation, so every
//     tRAS + tRP = 49 cycles (tRC): t + 50, t + 99, ..., request 31 at
//     t + 50 + 30 x 49 = t + 1520; its data is there 300 cycles after that
//     first command and crosses the bus in 4: the warp issues again at t + 1824.
//   With tRAS = 0: request 1 starts when the bank is free (t + 33), then every
//     tRP + tRCD + 4 = 32 cycles: t + 33 + 30 x 32 = t + 993; again at t + 1297.
//   With tRAS = tRP = tRCD = 0: every 4 cycles (the burst) from t + 5 (request
//     0 frees the bank at t + 5): request 31 at t + 125; again at t + 429.
// The trace gives t and the next issue.
// The bank's busy time (stat bank_busy: from when a request has the bank to
// the end of its burst) is 32 for request 0 (t + 1 .. t + 33) and tRC = 49
// for each later one (from the previous one's end, its tRAS wait included):
// 32 + 31 x 49 = 1551; with tRAS = 0, 32 each: 1024; with no timings, the
// 4-cycle burst: 128. The run's one I-fetch (row 16, a closed bank) adds
// tRCD + 4 = 18 (4 with no timings): 1569, 1042, 132 for the run.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    la t0, array
    slli t1, a0, 15         // lane i: 8 i rows of 4 KiB
    add t0, t0, t1
    lw t2, 0(t0)
    li a0, 0
    li a7, 93
    ecall
    .bss
    .balign 1 << 22
array:
    .space 4096 * 8 * 32
