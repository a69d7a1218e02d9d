// Loop and non-loop branches (cfgraph.c, 000 §5.3/§5.5): a branch is a loop
// branch when it is a back edge (its target dominates it) or an exit of a
// natural loop (one side in the loop, one out). Expected, by hand:
//   guard_br  non-loop  the rotated loop's guard: it is before the loop, not in it
//   odd_br    non-loop  an if inside loop 1: both sides stay in the loop
//   latch_br  loop      loop 1's back edge (body dominates it)
//   exit_br   loop      loop 2's exit test: a forward branch in the middle of
//                       the body (the latch is the unconditional j head2)
//   out_br    loop      leaves loops 3 and 2 at once
//   inner_br  loop      loop 3's back edge (and its fall-through leaves loop 3)
//   back_br   non-loop  branches backwards, but back does not dominate it:
//                       no loop (the old "target < pc" test took it for one)
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    andi t0, a0, 7
    li t1, 0
guard_br:
    beqz t0, mid
body:                       // loop 1, rotated: the test at the bottom
    andi t2, t0, 1
odd_br:
    beqz t2, even
    addi t1, t1, 1
even:
    addi t0, t0, -1
latch_br:
    bnez t0, body
mid:
    li t0, 5
head2:                      // loop 2: exit test in the middle
    addi t0, t0, -1
exit_br:
    beqz t0, tail
inner:                      // loop 3, inside loop 2
    addi t1, t1, -1
out_br:
    bltz t1, tail
    andi t3, t1, 3
inner_br:
    bnez t3, inner
    j head2
tail:
    j fwd
back:
    addi t1, t1, 1
    j join
fwd:
back_br:
    bnez t0, back
join:
    li a7, 93
    li a0, 0
    ecall
