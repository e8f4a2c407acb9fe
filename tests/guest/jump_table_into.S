/* A switch whose bound check branches into the jump table (profile.jump_table_into): GCC
 * emits `bgeu K, I, table` (taken: I <= K) when the default case is laid out after the
 * table's code, as in glibc's vfscanf; until 2026-11-27 only the bounds that branch around
 * the table (`bltu K, I`, `bgeu I, K`) were recognised, and the procedure was left missing
 * edges. `dispatch` takes i mod 8: cases 0-4 through the table (a base-relative one), 5-7
 * the default. `masked` has no bound but a mask (`andi I, X, 3`, glibc's
 * _wordcopy_fwd_aligned): its four entries are the jump's edges. */
    .text
    .globl _start
_start:
    li s0, 40000
    li s1, 0
1:  andi a0, s0, 7
    call dispatch
    add s1, s1, a1
    mv a0, s0
    call masked
    add s1, s1, a1
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    li a7, 93
    ecall

    .type dispatch, @function
dispatch:
    li t0, 4
    bgeu t0, a0, 2f         /* into the table: a0 <= 4 */
    j .Ldefault
2:  lla t1, .Ltable
    slli t2, a0, 2
    add t2, t2, t1
    lw t2, 0(t2)
    add t2, t2, t1
    jr t2
.Lcase0:
    li a1, 3
    ret
.Lcase1:
    li a1, 5
    xor a1, a1, a0
    ret
.Lcase2:
    li a1, 7
    add a1, a1, a0
    slli a1, a1, 1
    ret
.Lcase3:
    li a1, 11
    or a1, a1, a0
    add a1, a1, a1
    xor a1, a1, a0
    ret
.Lcase4:
    li a1, 13
    sub a1, a1, a0
    ret
.Ldefault:
    li a1, 1
    add a1, a1, a0
    srli a1, a1, 1
    ret
    .size dispatch, . - dispatch

    .type masked, @function
masked:
    andi t2, a0, 3          /* not t0: jr t0 is a return (x5, the alternate link register) */
    lla t1, .Lmasked
    slli t2, t2, 2
    add t2, t2, t1
    lw t2, 0(t2)
    add t2, t2, t1
    jr t2
.Lm0:
    li a1, 2
    ret
.Lm1:
    li a1, 4
    add a1, a1, a0
    ret
.Lm2:
    li a1, 6
    xor a1, a1, a0
    slli a1, a1, 2
    ret
.Lm3:
    li a1, 8
    ret
    .size masked, . - masked

    .section .rodata
    .p2align 2
.Ltable:
    .word .Lcase0 - .Ltable
    .word .Lcase1 - .Ltable
    .word .Lcase2 - .Ltable
    .word .Lcase3 - .Ltable
    .word .Lcase4 - .Ltable
.Lmasked:
    .word .Lm0 - .Lmasked
    .word .Lm1 - .Lmasked
    .word .Lm2 - .Lmasked
    .word .Lm3 - .Lmasked
