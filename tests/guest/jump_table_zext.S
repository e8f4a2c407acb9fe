/* A switch on an int the code has just computed, as GCC -O2 compiles bzip2's BZ2_decompress
 * (`switch (s->state)`, found building Debian's bzip2, docs/sandbox.md §12): the index is
 * computed by `addw`, its sign extension checked against the bound (`sext.w`, `bgeu K, I'`
 * into the table), then zero-extended and shifted in two (`slli 32`, `srli 30`) for a table of
 * relative 4-byte entries. The shift was looked for as one `slli 2`, and the procedure was left
 * "missing edges" (profile.jump_table_zext). `short_switch` is mawk's cellcpy (`switch
 * (cp->type)`, a short): the bound checked on the index's low 16 bits zero-extended
 * (`slli 48`, `srli 48`), the shift on the index itself. */
    .text
    .globl _start
_start:
    li s0, 30000
    li s1, 0
1:  andi a0, s0, 7
    addi a0, a0, 10
    call state_step
    add s1, s1, a0
    andi a0, s0, 7
    call short_switch
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

/* a0: a type 0..7; types 0..3 have cases, others the default */
    .type short_switch, @function
short_switch:
    slli a3, a0, 48         /* the bound on the low 16 bits, zero-extended */
    srli a3, a3, 48
    li a4, 3
    bltu a4, a3, .Lsdefault
    lla a4, .Lstable
    slli a5, a0, 2          /* the shift on the index itself */
    add a5, a5, a4
    lw a5, 0(a5)
    add a5, a5, a4
    jr a5
.Ls0:
    li a0, 17
    ret
.Ls1:
    slli a0, a0, 3
    ret
.Ls2:
    xori a0, a0, 9
    ret
.Ls3:
    addi a0, a0, -2
    ret
.Lsdefault:
    li a0, 1
    ret
    .size short_switch, . - short_switch

    .section .rodata
    .p2align 2
.Lstable:
    .word .Ls0 - .Lstable
    .word .Ls1 - .Lstable
    .word .Ls2 - .Lstable
    .word .Ls3 - .Lstable
.Ltable:
    .word .Lc0 - .Ltable
    .word .Lc1 - .Ltable
    .word .Lc2 - .Ltable
    .word .Lc3 - .Ltable
    .word .Lc4 - .Ltable
