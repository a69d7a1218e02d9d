// Bulk-synchronous communication: thread 1 (on WPU 1) reads a word first,
// so its L1 holds the line; thread 0 (on WPU 0) then writes the word; after a
// global barrier thread 1 reads it again. Correct only if the barrier makes
// WPU 0 write its dirty line back and WPU 1 drop its stale copy: with
// bulksync_flush = 0 thread 1 exits 1.
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    la t0, word
    lw t1, 0(t0)            // everyone caches the line (value 0)
    .insn i 0x0B, 0, x0, x0, 0
    bnez a0, reader
    li t1, 1234
    sw t1, 0(t0)            // thread 0 writes into its own L1
reader:
    .insn i 0x0B, 0, x0, x0, 0
    li t2, 1
    bne a0, t2, ok
    lw t1, 0(t0)            // thread 1 must see 1234
    li t2, 1234
    bne t1, t2, stale
ok:
    li a0, 0
    li a7, 93
    ecall
stale:
    li a0, 1
    li a7, 93
    ecall
    .data
    .balign 64
word:
    .word 0
