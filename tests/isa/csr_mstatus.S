// csr_mstatus.S -- written by hand (not by gen_isa_tests.py).
// Standard start-up code enables the FPU by setting mstatus.FS before its
// first float instruction. wpusim's mstatus (cmodel/csr.def, docs/abi.md)
// reads 0x80006000 (FS = Dirty, SD) whatever is written: the FPU is always on.
// Exit 0 when every check holds, else the number of the failing check.
    .option norvc
    .section .text.start, "ax"
    .globl _start
_start:
    li t0, 0x2000               // FS = Initial, as crt0 code does
    csrs mstatus, t0
    csrr t1, mstatus
    li t2, 0x80006000
    li a0, 1
    bne t1, t2, fail
    csrrc t1, mstatus, t0       // clear FS: accepted, changes nothing
    li a0, 2
    bne t1, t2, fail
    csrwi mstatus, 0            // write 0: still reads the same
    csrr t1, mstatus
    li a0, 3
    bne t1, t2, fail
    csrw fcsr, zero             // the FPU works
    li t3, 3
    fcvt.s.w ft0, t3
    fadd.s ft1, ft0, ft0
    fcvt.w.s t4, ft1
    li t5, 6
    li a0, 4
    bne t4, t5, fail
    li a0, 0
fail:
    li a7, 93
    ecall
    ebreak
