/* A switch whose table block is reached only by the bound's conditional branch, as GCC -O2
 * compiles zstd's ZSTD_decompressSequences_default (found building Debian's zstd 1.5.4,
 * docs/sandbox.md §14): `li a2, K`, `bgeu a2, s0` into the table block, laid out after the
 * epilogue and after another block (the end of the frame: `sub s0, ...`, `bltu a5, s0`, `j`)
 * that does not fall into it. The bound was looked for in address order, where that other
 * block's `bltu a5, s0` (on no path to the jump) came first, and the procedure was left
 * "missing edges" (profile.jump_table_branch_in). */
    .text
    .globl _start
_start:
    li s0, 30000
    li s1, 0
1:  andi a0, s0, 7          /* the state: 0..7, cases 0..4, others the default */
    andi a1, s0, 15         /* 0 one time in 16: the other block */
    call decode_seq
    add s1, s1, a0
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    li a7, 93
    ecall

/* a0: the state, a1: a length (0: the copy path) */
    .type decode_seq, @function
decode_seq:
    addi sp, sp, -32
    sd ra, 24(sp)
    sd s0, 16(sp)
    sd s2, 8(sp)
    mv s0, a0
    mv s2, a1
    beqz a1, .Lcopy
    li a2, 4
    bgeu a2, s0, .Ltab      /* into the table when state <= 4 */
    li a0, 1                /* the default */
.Lret:
    ld ra, 24(sp)
    ld s0, 16(sp)
    ld s2, 8(sp)
    addi sp, sp, 32
    ret
.Lcopy:                     /* on no path to the jump, but above it in address order */
    mv a5, a0
    sub s0, a5, s2
    li a0, -70
    bltu a5, s0, .Lret
    addi a0, s0, 3
    j .Lret
.Ltab:                      /* entered only by the bound's branch */
    lla a1, .Ltable
    slli a4, s0, 2
    add a4, a4, a1
    lw a2, 0(a4)
    add a2, a2, a1
    jr a2
.Lc0:
    li a0, 3
    j .Lret
.Lc1:
    xori a0, s2, 5
    j .Lret
.Lc2:
    li a0, 7
    slli a0, a0, 1
    j .Lret
.Lc3:
    addi a0, s2, 11
    j .Lret
.Lc4:
    li a1, 13
    sub a0, a1, s2
    j .Lret
    .size decode_seq, . - decode_seq

    .section .rodata
    .p2align 2
.Ltable:
    .word .Lc0 - .Ltable
    .word .Lc1 - .Ltable
    .word .Lc2 - .Ltable
    .word .Lc3 - .Ltable
    .word .Lc4 - .Ltable
