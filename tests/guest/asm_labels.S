/* Hand-written assembly with plain labels (no .type, no .size): its code
 * symbols are NOTYPE and of size 0. `work` is a hot loop `_start` calls;
 * `other` is never run. The profile names its procedures by these labels. */
    .text
    .globl _start
_start:
    li s0, 20000
1:  call work
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    li a7, 93
    ecall
work:
    li t0, 5
    li t1, 0
2:  add t1, t1, t0
    xor t1, t1, t0
    addi t0, t0, -1
    bnez t0, 2b
    ret
other:
    li t2, 7
3:  addi t2, t2, -1
    bnez t2, 3b
    ret
