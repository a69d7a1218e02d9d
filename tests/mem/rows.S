// DRAM row buffers, a row-hit stream and a conflict stream (lwm preset: 8
// banks, 4 KiB rows of 32 lines of 128 B; one thread, blocking loads). In
// the region of interest, the thread reads ROWS (= wsim.arg <= 8)
// consecutive rows of A line by line, then ROWS lines of B 8 rows apart.
// A and B are 4 MiB-aligned, so A's rows are 1024 m + k: under the ipoly
// mapping in banks H(1024 m) ^ k (H(k) = k for k < 8), all different; under
// a linear one in banks k + const, all different too. Each of A's rows is
// opened by its first line and hit by the other 31; each of B's lines opens
// its row (linear: one bank, a conflict every time; ipoly: banks H(8 j),
// all different for j < 8, each opened anew). So: 2 x ROWS openings
// (closed or conflict), 31 x ROWS row hits, whatever the mapping.
// Cycles: a load issues at t, looks up the L1 (1 cycle) and reaches DRAM
// at t + 1; a hit's data is there 100 cycles after its first command, an
// opening's 300 after; 128 B at 32 B a cycle cross the bus in 4 more
// cycles, so the warp issues again at t + 105 (hit) or t + 305 (opening);
// the loop's other 3 instructions take 5 cycles each (barrel processing,
// pipeline_depth 5): 120 cycles a hit line, 320 an opening, and two more
// rows of each cost 2 x (320 + 31 x 120) + 2 x 320 = 8,720 cycles.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    bnez a0, done
    csrr s0, 0xcc8          // ROWS
    la t0, array
    slli t1, s0, 5          // ROWS x 32 lines
    la t4, array2
    li t3, 4096 * 8
    .balign 128                     // the region's code in one I-cache line, fetched before it
    .insn i 0x0B, 0, x0, x0, 1      // wsim.roi.begin
seq:
    lw t2, 0(t0)
    addi t0, t0, 128
    addi t1, t1, -1
    bnez t1, seq
    mv t1, s0
stride:
    lw t2, 0(t4)
    add t4, t4, t3
    addi t1, t1, -1
    bnez t1, stride
    .insn i 0x0B, 0, x0, x0, 2      // wsim.roi.end
done:
    li a0, 0
    li a7, 93
    ecall
    .bss
    .balign 1 << 22
array:
    .space 4096 * 8
    .balign 1 << 22
array2:
    .space 4096 * 8 * 8
