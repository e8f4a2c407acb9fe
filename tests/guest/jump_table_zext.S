/* A switch on an int the code has just computed, as GCC -O2 compiles bzip2's BZ2_decompress
 * (`switch (s->state)`, found building Debian's bzip2, docs/sandbox.md §12): the index is
 * computed by `addw`, its sign extension checked against the bound (`sext.w`, `bgeu K, I'`
 * into the table), then zero-extended and shifted in two (`slli 32`, `srli 30`) for a table of
 * relative 4-byte entries. The shift was looked for as one `slli 2`, and the procedure was left
 * "missing edges" (profile.jump_table_zext). */
    .text
    .globl _start
_start:
    li s0, 30000
    li s1, 0
1:  andi a0, s0, 7
    addi a0, a0, 10
    call state_step
    add s1, s1, a0
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    li a7, 93
    ecall

/* a0: a state 10..17; states 10..14 have cases, others the default */
    .type state_step, @function
state_step:
    addiw a5, a0, -10       /* the index: an int just computed */
    sext.w a1, a5
    li a2, 4
    bgeu a2, a1, 2f         /* into the table when index <= 4 */
    j .Ldefault
2:  slli a1, a5, 32         /* zero-extended and shifted in two */
    lla a2, .Ltable
    srli a5, a1, 30
    add a5, a5, a2
    lw a5, 0(a5)
    add a5, a5, a2
    jr a5
.Lc0:
    li a0, 3
    ret
.Lc1:
    xori a0, a0, 5
    ret
.Lc2:
    addi a0, a0, 7
    slli a0, a0, 1
    ret
.Lc3:
    ori a0, a0, 11
    ret
.Lc4:
    li a1, 13
    sub a0, a1, a0
    ret
.Ldefault:
    addi a0, a0, 1
    ret
    .size state_step, . - state_step

    .section .rodata
    .p2align 2
.Ltable:
    .word .Lc0 - .Ltable
    .word .Lc1 - .Ltable
    .word .Lc2 - .Ltable
    .word .Lc3 - .Ltable
    .word .Lc4 - .Ltable
