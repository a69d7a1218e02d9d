// stack_sp.S: every thread stores its initial sp at sps[tid] (a result:
// wpusim --dump). tests/run.sh checks the launch ABI's stack colouring
// (docs/abi.md): sp = stack_top - tid x stack_size - (tid mod C) x stack_color,
// C = max(32, lanes) positions, at most as many as fit in half of stack_size
// (64 at the defaults: SIMD widths 65-256 run with the default stack_color).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    la t0, sps
    slli t1, a0, 2
    add t0, t0, t1
    sw sp, 0(t0)
    li a0, 0
    li a7, 93
    ecall

    .data
    .balign 4
sps:
    .zero 4 * 512

    .section wsim_results, "aw"
    .balign 8
    .word sps, 4 * 512
