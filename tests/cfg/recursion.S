// Recursion with a per-thread depth (tid & 3): each level re-converges at
// rec_out after its recursive call returns. 16 threads: 39 warp instructions
// (see the count in the comment at the end).
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    andi a0, a0, 3
    call rec
    li a7, 93
    li a0, 0
    ecall

    .text
    .globl rec
    .type rec, @function
rec:
    addi sp, sp, -16
    sw ra, 12(sp)
rec_br:
    beqz a0, rec_out
    addi a0, a0, -1
    call rec
rec_out:
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
    .size rec, .-rec
// _start 3; levels 0-2: 3 in + 3 to recurse each; level 3: 3 in + 3 out;
// returns through levels 2, 1, 0: 3 each; exit 3.  3+18+6+9+3 = 39.
