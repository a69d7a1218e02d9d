// Diverge on miss's first-principles bound (002 §4; docs/dom.md, "The bound"):
// a branch-free loop made to favour the mechanism, its speedup over blocking
// derived below; tests/run.sh (group dom) holds DoM.NoLimit and DoM.Adaptive
// to at least 80 % of it, never above it, and shows the old level-tied
// re-activation (--set dom_rejoin=level) failing it.
//
// --arg N: every thread runs N iterations of the loop (a multiple of 32), but
// lane 31 of each warp runs only one: it leaves the loop at the first pass,
// so the exit test diverges there and the rest of the loop runs one stack
// level above where it started (a join at `done` below it) — the shape of
// every loop whose threads finish at different times. --arg N | 0x100000:
// the same loop with every load near (the calibration below).
//
// The loop body is K = 21 instructions, branch-free but for the loop's own
// test: one load L and 20 others (ALU, one multiply: latency 1). Lane l's
// load in iteration i is far — the next line of the thread's own stream,
// never touched before — when (i + l) mod 32 = 0, else near — the thread's
// own word of a 128-byte array read in every iteration, which stays in the
// L1. So each lane's loads are far 1 time in 32, and in every iteration of a
// warp exactly one lane's load is far, but lane 31's after the first.
//
// The machine (the dom preset, one WPU, one warp of 32): one instruction
// issues per cycle; a load's group issues again when its data is there: h
// cycles after a hit, lambda after a far load (fixed: 500-cycle memory, 32-byte
// lines, 3-cycle L1: lambda = 504, h = 3). Assumptions: the memory's latency
// is the same for every far load and its bandwidth is not a limit (one line
// per 23 cycles per WPU, against 128 bytes a cycle); the MDT entry of L
// never fills (one PC: one entry; M = 2).
//
// Blocking. A pass of the loop body takes P = (K - 1) + h cycles when every
// lane hits, Q = (K - 1) + lambda when one misses. After iteration 0, of
// every 32 iterations 31 have a far load and one (i = 1 mod 32: lane 31's)
// has none:
//     T_block(N) = O + (31 N / 32) Q + (N / 32) P
// with O the prologue and the warm-up load (every lane misses together).
//
// Diverge on miss (002 §4.1). The lane that misses is masked off; the
// others go on at one pass per P cycles. A lane that missed in a pass whose
// load issued at cycle c has its value at c + lambda (the MCB status turns
// ready in that clock) and re-joins at the first pass whose load issues
// later: after m = ceil((lambda + 1) / P) - 1 passes without it (lambda = 504,
// P = 23: m = 21). Each lane (0..30) so needs N + (N / 32) m passes: N of
// its own iterations and m lost per far load. The passes never stop: lane
// l's far loads fall in passes p_l + 53 j (32 + m = 53 passes per 32 of its
// iterations; its first far load in pass p_l = (32 - l) mod 32), distinct
// residues mod 53, so one lane at most misses per pass and at most m = 21 of
// the 31 lanes are masked at once; no load finds every lane of its group
// missing. Nor can any lane run faster: so
//     T_dom(N) >= O + (N + (N / 32) m) P,   speedup <= T_block(N) / that.
// With N = 2048: T_block = O + 1,000,128 + ..., (N + 64 m) P = 3,392 P:
// O + 1,041,088 against O + 78,016 — about 13.3x.
//
// The slip limit (DoM.Adaptive, max slip 8 and adaptive diff): 002 §5.1
// raises the hits' slip counters only when an undiverged warp diverges;
// this warp is diverged (has a masked lane) from the first pass on, so only
// the tail-catching-up rule moves them (down), no lane reaches the limit and
// the bound is NoLimit's.
//
// The calibration measures P, O and Q on the machine (DoM.Block): the
// all-near loop at N and 2N gives P = (T(2N) - T(N)) / N and O = T(N) - N P;
// then Q = P + 32 (T_block(N) - T_near(N)) / (31 N) and lambda = Q - 20.
//
// Warps (--set warps=n, 32 n threads): blocking hides a far load's latency
// behind other warps only while n K < Q, so T_block barely changes up to
// 16 warps; diverge on miss runs n warps' passes through one issue slot
// (n (N + (N/32) m_n) K cycles at least, with m_n = about lambda / (n K)
// passes lost per far load): the speedup falls with n, as 002 Fig. 7's does
// (3.14 at 1 warp, 1.04 at 16 over its kernels).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    csrr a0, 0xf14          // tid
    csrr a1, 0xcc6          // nthreads
    csrr t3, 0xcc0          // lane
    csrr s1, 0xcc8          // N (| 0x100000: every load near)
    srli s6, s1, 20
    andi s6, s6, 1
    xori s6, s6, 1          // 1: the far loads happen
    slli s1, s1, 12
    srli s1, s1, 12         // N without the flag
    xori t0, t3, 31
    seqz t0, t0             // lane 31 runs one iteration
    sub t1, x0, t0
    addi t2, s1, -1
    and t1, t1, t2
    sub s1, s1, t1
    la s2, near
    slli t0, t3, 2
    add s2, s2, t0          // near: the lane's word (4 lines per warp)
    la s3, far
    slli t0, a0, 5
    add s3, s3, t0          // far: line tid, then 32 * nthreads further each use
    slli s5, a1, 5
    lw t4, 0(s2)            // warm-up: every lane misses together
    li s0, 0
    li s4, 0
loop:
    add t1, s0, t3
    andi t1, t1, 31
    seqz t1, t1
    and t1, t1, s6          // far this iteration
    sub t2, s3, s2
    mul t2, t2, t1
    add t2, t2, s2
L:
    lw t4, 0(t2)
    mul t5, t1, s5
    add s3, s3, t5          // the stream moves on after a far load
    add s4, s4, t4
    xor a2, s4, s0
    add a3, a2, t1
    sub a4, a3, s0
    xor a5, a4, a2
    or a6, a5, a3
    and t5, a6, a4
    add s4, s4, t5
    add s4, s4, a5
    addi s0, s0, 1
    bne s0, s1, loop
done:
    li a7, 93
    li a0, 0
    ecall
    .bss
    .balign 4096
near:
    .space 4096
far:
    .space 4194304
