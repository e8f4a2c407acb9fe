/* Jump tables whose index is written between its bound's branch and the shift that indexes
 * the table (profile.jump_table_index_rewritten). The bound then no longer bounds the index:
 * until 2026-11-28 the address-order bound search took it all the same, and the CFG got the
 * table's first K + 1 entries as the jump's targets while the jump went to others.
 *   rewritten  bound a0 <= 4, then `addi a0, a0, 3`: the jump goes to entries 3..7 of an
 *              8-entry table (.Lc5-.Lc7 were missing from the CFG, .Lc0-.Lc2 edges never run)
 *   widened    the bound on the index's sext.w (as GCC checks an int), the index rewritten
 *              between the sext.w and the branch: the same
 *   benign     a write to another register between the bound and the shift (a guard: the
 *              bound holds, the table is read, 5 edges)
 *   extended   sqlite's yy_destructor under GCC: the bound on the index's zext.h in another
 *              register, then the index zero-extended in place the same way (`slli 48`,
 *              `srli 48`): the extension keeps the bounded value, 5 edges
 *   extended_wider  the bound on the zext.h, the index then sign-extended from 32 bits in
 *              place: bits 16-31 are not bounded (a guard: missing edges)
 *   joined     no write, but a second way in between the bound and the shift (`beq` on
 *              index 6 to a label below the bound): the jump also goes to entry 6 of 8
 *   joined_bounded  the second way in a branch into the table on the same bound, as GCC
 *              emits (gawk's addtok_mb, glibc's vfscanf): a guard, 5 edges
 *   masked_joined  no bound but a mask (`andi a0, a0, 3`), and a second way in between the
 *              mask and the shift on index 6: the jump also goes to entry 6 of 8
 * The tables are local labels without an object symbol, so no object size bounds them: the
 * first two procedures must be "missing edges". a0: i mod 8. */
    .text
    .globl _start
_start:
    li s0, 30000
    li s1, 0
1:  andi a0, s0, 7
    call rewritten
    add s1, s1, a1
    andi a0, s0, 7
    call widened
    add s1, s1, a1
    andi a0, s0, 7
    call benign
    add s1, s1, a1
    andi a0, s0, 7
    call extended
    add s1, s1, a1
    andi a0, s0, 7
    call extended_wider
    add s1, s1, a1
    andi a0, s0, 7
    call joined
    add s1, s1, a1
    andi a0, s0, 7
    andi a2, s0, 8
    call joined_bounded
    add s1, s1, a1
    andi a0, s0, 7
    call masked_joined
    add s1, s1, a1
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    li a7, 93
    ecall

    .type rewritten, @function
rewritten:
    li t0, 4
    bltu t0, a0, .Lr_default   /* a0 <= 4 from here */
    addi a0, a0, 3             /* the index: 3..7, past the bound */
    lla t1, .Lr_table
    slli t2, a0, 2
    add t2, t2, t1
    lw t2, 0(t2)
    add t2, t2, t1
    jr t2
.Lr_c0:
    li a1, 3
    ret
.Lr_c1:
    li a1, 5
    ret
.Lr_c2:
    li a1, 7
    ret
.Lr_c3:
    li a1, 11
    xor a1, a1, a0
    ret
.Lr_c4:
    li a1, 13
    add a1, a1, a0
    ret
.Lr_c5:
    li a1, 17
    sub a1, a1, a0
    ret
.Lr_c6:
    li a1, 19
    or a1, a1, a0
    ret
.Lr_c7:
    li a1, 23
    and a1, a1, a0
    ret
.Lr_default:
    li a1, 1
    ret
    .size rewritten, . - rewritten

    .type widened, @function
widened:
    sext.w t3, a0              /* the bound is checked on t3 */
    addi a0, a0, 3             /* the index: 3..7 after the check below */
    li t0, 4
    bltu t0, t3, .Lw_default   /* t3 <= 4 */
    lla t1, .Lw_table
    slli t2, a0, 2
    add t2, t2, t1
    lw t2, 0(t2)
    add t2, t2, t1
    jr t2
.Lw_c0:
    li a1, 3
    ret
.Lw_c1:
    li a1, 5
    ret
.Lw_c2:
    li a1, 7
    ret
.Lw_c3:
    li a1, 11
    xor a1, a1, a0
    ret
.Lw_c4:
    li a1, 13
    add a1, a1, a0
    ret
.Lw_c5:
    li a1, 17
    sub a1, a1, a0
    ret
.Lw_c6:
    li a1, 19
    or a1, a1, a0
    ret
.Lw_c7:
    li a1, 23
    and a1, a1, a0
    ret
.Lw_default:
    li a1, 1
    ret
    .size widened, . - widened

    .type benign, @function
benign:
    li t0, 4
    bltu t0, a0, .Lb_default   /* a0 <= 4 */
    addi a3, a0, 3             /* another register written: the index unchanged */
    lla t1, .Lb_table
    slli t2, a0, 2
    add t2, t2, t1
    lw t2, 0(t2)
    add t2, t2, t1
    jr t2
.Lb_c0:
    li a1, 3
    ret
.Lb_c1:
    xor a1, a3, a0
    ret
.Lb_c2:
    li a1, 7
    add a1, a1, a3
    ret
.Lb_c3:
    li a1, 11
    or a1, a1, a0
    ret
.Lb_c4:
    li a1, 13
    sub a1, a1, a3
    ret
.Lb_default:
    li a1, 1
    ret
    .size benign, . - benign

    .type extended, @function
extended:
    slli a4, a0, 48
    srli a4, a4, 48            /* zext.h */
    li a5, 4
    bltu a5, a4, .Le_default   /* zext.h(a0) <= 4 */
    slli a0, a0, 48
    srli a0, a0, 48            /* a0 = zext.h(a0): the bounded value */
    lla t1, .Le_table
    slli a0, a0, 2
    add a0, a0, t1
    lw t2, 0(a0)
    add t2, t2, t1
    jr t2
.Le_c0:
    li a1, 3
    ret
.Le_c1:
    li a1, 5
    ret
.Le_c2:
    li a1, 7
    ret
.Le_c3:
    li a1, 11
    ret
.Le_c4:
    li a1, 13
    ret
.Le_default:
    li a1, 1
    ret
    .size extended, . - extended

    .type extended_wider, @function
extended_wider:
    slli a4, a0, 48
    srli a4, a4, 48            /* zext.h */
    li a5, 4
    bltu a5, a4, .Lx_default   /* zext.h(a0) <= 4: bits 16-31 of a0 not bounded */
    sext.w a0, a0              /* small here, but not by the bound */
    lla t1, .Lx_table
    slli a0, a0, 2
    add a0, a0, t1
    lw t2, 0(a0)
    add t2, t2, t1
    jr t2
.Lx_c0:
    li a1, 3
    ret
.Lx_c1:
    li a1, 5
    ret
.Lx_c2:
    li a1, 7
    ret
.Lx_c3:
    li a1, 11
    ret
.Lx_c4:
    li a1, 13
    ret
.Lx_default:
    li a1, 1
    ret
    .size extended_wider, . - extended_wider

    .type joined, @function
joined:
    li t0, 6
    beq a0, t0, .Lj_in         /* index 6 enters below the bound */
    li t0, 4
    bltu t0, a0, .Lj_default   /* a0 <= 4 on this way only */
.Lj_in:
    lla t1, .Lj_table
    slli t2, a0, 2
    add t2, t2, t1
    lw t2, 0(t2)
    add t2, t2, t1
    jr t2
.Lj_c0:
    li a1, 3
    ret
.Lj_c1:
    li a1, 5
    ret
.Lj_c2:
    li a1, 7
    ret
.Lj_c3:
    li a1, 11
    ret
.Lj_c4:
    li a1, 13
    ret
.Lj_c5:
    li a1, 17
    ret
.Lj_c6:
    li a1, 19
    ret
.Lj_c7:
    li a1, 23
    ret
.Lj_default:
    li a1, 1
    ret
    .size joined, . - joined

    .type joined_bounded, @function
joined_bounded:                /* a2: 0 or 8, which way in */
    li t0, 4
    beqz a2, 1f
    bgeu t0, a0, .Lk_in        /* a second way in, a0 <= 4 */
    j .Lk_default
1:  bltu t0, a0, .Lk_default   /* a0 <= 4 */
.Lk_in:
    lla t1, .Lk_table
    slli t2, a0, 2
    add t2, t2, t1
    lw t2, 0(t2)
    add t2, t2, t1
    jr t2
.Lk_c0:
    li a1, 3
    ret
.Lk_c1:
    li a1, 5
    ret
.Lk_c2:
    li a1, 7
    ret
.Lk_c3:
    li a1, 11
    ret
.Lk_c4:
    li a1, 13
    ret
.Lk_default:
    li a1, 1
    ret
    .size joined_bounded, . - joined_bounded

    .type masked_joined, @function
masked_joined:
    li t0, 6
    beq a0, t0, .Lm_in         /* index 6 enters below the mask */
    andi a0, a0, 3             /* 0..3 on this way only */
.Lm_in:
    lla t1, .Lm_table
    slli t2, a0, 2
    add t2, t2, t1
    lw t2, 0(t2)
    add t2, t2, t1
    jr t2
.Lm_c0:
    li a1, 3
    ret
.Lm_c1:
    li a1, 5
    ret
.Lm_c2:
    li a1, 7
    ret
.Lm_c3:
    li a1, 11
    ret
.Lm_c4:
    li a1, 13
    ret
.Lm_c5:
    li a1, 17
    ret
.Lm_c6:
    li a1, 19
    ret
.Lm_c7:
    li a1, 23
    ret
    .size masked_joined, . - masked_joined

    .section .rodata
    .p2align 2
.Lr_table:
    .word .Lr_c0 - .Lr_table
    .word .Lr_c1 - .Lr_table
    .word .Lr_c2 - .Lr_table
    .word .Lr_c3 - .Lr_table
    .word .Lr_c4 - .Lr_table
    .word .Lr_c5 - .Lr_table
    .word .Lr_c6 - .Lr_table
    .word .Lr_c7 - .Lr_table
.Lw_table:
    .word .Lw_c0 - .Lw_table
    .word .Lw_c1 - .Lw_table
    .word .Lw_c2 - .Lw_table
    .word .Lw_c3 - .Lw_table
    .word .Lw_c4 - .Lw_table
    .word .Lw_c5 - .Lw_table
    .word .Lw_c6 - .Lw_table
    .word .Lw_c7 - .Lw_table
.Lb_table:
    .word .Lb_c0 - .Lb_table
    .word .Lb_c1 - .Lb_table
    .word .Lb_c2 - .Lb_table
    .word .Lb_c3 - .Lb_table
    .word .Lb_c4 - .Lb_table
.Le_table:
    .word .Le_c0 - .Le_table
    .word .Le_c1 - .Le_table
    .word .Le_c2 - .Le_table
    .word .Le_c3 - .Le_table
    .word .Le_c4 - .Le_table
.Lx_table:
    .word .Lx_c0 - .Lx_table
    .word .Lx_c1 - .Lx_table
    .word .Lx_c2 - .Lx_table
    .word .Lx_c3 - .Lx_table
    .word .Lx_c4 - .Lx_table
.Lj_table:
    .word .Lj_c0 - .Lj_table
    .word .Lj_c1 - .Lj_table
    .word .Lj_c2 - .Lj_table
    .word .Lj_c3 - .Lj_table
    .word .Lj_c4 - .Lj_table
    .word .Lj_c5 - .Lj_table
    .word .Lj_c6 - .Lj_table
    .word .Lj_c7 - .Lj_table
.Lk_table:
    .word .Lk_c0 - .Lk_table
    .word .Lk_c1 - .Lk_table
    .word .Lk_c2 - .Lk_table
    .word .Lk_c3 - .Lk_table
    .word .Lk_c4 - .Lk_table
.Lm_table:
    .word .Lm_c0 - .Lm_table
    .word .Lm_c1 - .Lm_table
    .word .Lm_c2 - .Lm_table
    .word .Lm_c3 - .Lm_table
    .word .Lm_c4 - .Lm_table
    .word .Lm_c5 - .Lm_table
    .word .Lm_c6 - .Lm_table
    .word .Lm_c7 - .Lm_table
