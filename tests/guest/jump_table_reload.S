/* A switch on a field loaded twice, as GCC -O2 compiles xz's lzma_decode (`switch
 * (coder->sequence)`, found building Debian's xz-utils, docs/sandbox.md §14): the bound is
 * checked on a first load of the field (`lw t0, 8(a0)`, `bgeu K, t0` into the table), and
 * the field is loaded again (`lwu a1, 8(a0)`, the same base and offset, nothing stored in
 * between) for the shift. The bound was looked for on the second load only, and the
 * procedure was left "missing edges" (profile.jump_table_reload). */
    .text
    .globl _start
_start:
    li s0, 30000
    li s1, 0
    lla s2, coder
1:  andi a1, s0, 7
    sw a1, 8(s2)            /* the state: 0..7, cases 0..4, others the default */
    mv a0, s2
    call decode_step
    add s1, s1, a0
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    li a7, 93
    ecall

/* a0: the coder; its word at 8 the state */
    .type decode_step, @function
decode_step:
    lw t0, 8(a0)            /* the first load: the bound */
    li a2, 4
    bgeu a2, t0, 2f         /* into the table when state <= 4 */
    j .Ldefault
2:  lwu a1, 8(a0)           /* the second load: the index */
    lla a2, .Ltable
    slli a1, a1, 2
    add a1, a1, a2
    lw a1, 0(a1)
    add a1, a1, a2
    jr a1
.Lc0:
    li a0, 3
    ret
.Lc1:
    lw a0, 12(a0)
    xori a0, a0, 5
    ret
.Lc2:
    li a0, 7
    slli a0, a0, 1
    ret
.Lc3:
    li a1, 1
    sw a1, 12(a0)
    li a0, 11
    ret
.Lc4:
    li a1, 13
    lw a0, 12(a0)
    sub a0, a1, a0
    ret
.Ldefault:
    li a0, 1
    ret
    .size decode_step, . - decode_step

    .section .rodata
    .p2align 2
.Ltable:
    .word .Lc0 - .Ltable
    .word .Lc1 - .Ltable
    .word .Lc2 - .Ltable
    .word .Lc3 - .Ltable
    .word .Lc4 - .Ltable

    .data
    .p2align 3
coder:
    .zero 16
