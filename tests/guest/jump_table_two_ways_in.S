/* jump_table_branch_in.S with a second way into the table's block: another branch on the
 * index, bounded by another constant (`li a2, 6`, `bgeu a2, s0`). The bound is then not
 * proven on every path into the jump (the table has 5 entries, state 5 and 6 would read past
 * it), and the procedure must stay "missing edges" (profile.jump_table_two_ways_in). */
    .text
    .globl _start
_start:
    li s0, 30000
    li s1, 0
1:  andi a0, s0, 7          /* the state: 0..7, cases 0..4, others the default */
    andi a1, s0, 15         /* 0 one time in 16: the other block */
    sltiu t0, a0, 5
    bnez t0, 2f
    andi a1, a1, 7          /* states 5..7 never take the second way in */
    ori a1, a1, 1
2:
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
    li a2, 6
    andi a3, a1, 8
    beqz a3, 3f
    bgeu a2, s0, .Ltab      /* a second way in, state <= 6: never taken with state 5 or 6 here */
3:  li a2, 4
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
