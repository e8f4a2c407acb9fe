/* A switch whose bound check branches into the jump table (profile.jump_table_into): GCC
 * emits `bgeu K, I, table` (taken: I <= K) when the default case is laid out after the
 * table's code, as in glibc's vfscanf; until 2026-11-27 only the bounds that branch around
 * the table (`bltu K, I`, `bgeu I, K`) were recognised, and the procedure was left missing
 * edges. `dispatch` takes i mod 8: cases 0-4 through the table (a base-relative one), 5-7
 * the default. */
    .text
    .globl _start
_start:
    li s0, 40000
    li s1, 0
1:  andi a0, s0, 7
    call dispatch
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

    .section .rodata
    .p2align 2
.Ltable:
    .word .Lcase0 - .Ltable
    .word .Lcase1 - .Ltable
    .word .Lcase2 - .Ltable
    .word .Lcase3 - .Ltable
    .word .Lcase4 - .Ltable
