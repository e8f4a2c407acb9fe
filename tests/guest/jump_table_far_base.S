/* Two word-coded interpreters dispatched as GCC -O2 compiles sed's execute_program (found building
 * Debian's sed, docs/sandbox.md §13): the table's base set in the loop's preheader into a
 * callee-saved register (s8), which holds other values earlier in the procedure, more than 48
 * instructions above the jump in address order. far_base's every path into the jump leaves s8
 * the table: 4 edges (profile.jump_table_far_base; missing edges before: the base's nearest
 * writer was past the look-back and it had four). two_bases' second opcode sets s8 to another
 * table (its first two entries swapped) in a block below the jump, before the loop's next
 * dispatch: the paths into the jump disagree, and the procedure stays missing edges
 * (profile.jump_table_base_disagrees, a guard). */
    .text
    .globl _start
_start:
    li s5, 3000
1:  lla a0, program
    call far_base
    lla a0, program
    call two_bases
    addi s5, s5, -1
    bnez s5, 1b
    li a0, 0
    li a7, 93
    ecall

    .type tick, @function
tick:
    addi a0, a0, 3
    ret
    .size tick, . - tick

/* a0: the program, words 0..3 (above 3: stop); returns the accumulator */
    .type far_base, @function
far_base:
    addi sp, sp, -32
    sd ra, 24(sp)
    sd s8, 16(sp)
    sd s0, 8(sp)
    sd s1, 0(sp)
    mv s0, a0
    li s8, 0                /* s8 a sum first: other values */
    li t0, 8
0:  add s8, s8, t0
    addi t0, t0, -1
    bnez t0, 0b
    mv s1, s8
    lla s8, .Lfar_table     /* the preheader: the base */
    .rept 50                /* straight-line work: the base 56 instructions above the jump */
    addi s1, s1, 1
    .endr
    j .Lfar_next
.Lfar_op0:
    addi s1, s1, 1
    j .Lfar_next
.Lfar_op1:
    slli s1, s1, 1
    j .Lfar_next
.Lfar_op2:
    xori s1, s1, 0x55
    j .Lfar_next
.Lfar_op3:
    mv a0, s1
    call tick               /* a call: s8 is callee-saved, it survives */
    mv s1, a0
.Lfar_next:
    lw a5, 0(s0)
    addi s0, s0, 4
    li a3, 3
    bltu a3, a5, .Lfar_done /* above the bound: the end */
    slli a5, a5, 2
    add a5, a5, s8
    lw a5, 0(a5)
    add a5, a5, s8
    jr a5
.Lfar_done:
    andi a0, s1, 255
    ld ra, 24(sp)
    ld s8, 16(sp)
    ld s0, 8(sp)
    ld s1, 0(sp)
    addi sp, sp, 32
    ret
    .size far_base, . - far_base

/* the same, but opcode 2 sets s8 to a second table (alike) before the next dispatch */
    .type two_bases, @function
two_bases:
    addi sp, sp, -32
    sd ra, 24(sp)
    sd s8, 16(sp)
    sd s0, 8(sp)
    sd s1, 0(sp)
    mv s0, a0
    li s8, 0
    li t0, 8
0:  add s8, s8, t0
    addi t0, t0, -1
    bnez t0, 0b
    mv s1, s8
    lla s8, .Ltwo_table
    .rept 50
    addi s1, s1, 1
    .endr
    j .Ltwo_next
.Ltwo_op0:
    addi s1, s1, 1
    j .Ltwo_next
.Ltwo_op1:
    slli s1, s1, 1
    j .Ltwo_next
.Ltwo_op2:
    xori s1, s1, 0x55
    j .Ltwo_rebase
.Ltwo_op3:
    mv a0, s1
    call tick
    mv s1, a0
.Ltwo_next:
    lw a5, 0(s0)
    addi s0, s0, 4
    li a3, 3
    bltu a3, a5, .Ltwo_done
    slli a5, a5, 2
    add a5, a5, s8
    lw a5, 0(a5)
    add a5, a5, s8
    jr a5
.Ltwo_done:
    andi a0, s1, 255
    ld ra, 24(sp)
    ld s8, 16(sp)
    ld s0, 8(sp)
    ld s1, 0(sp)
    addi sp, sp, 32
    ret
.Ltwo_rebase:
    lla s8, .Ltwo_table2    /* another base on this path, below the jump: no look-back above it sees it */
    j .Ltwo_next
    .size two_bases, . - two_bases

    .section .rodata
    .p2align 2
.Lfar_table:
    .word .Lfar_op0 - .Lfar_table
    .word .Lfar_op1 - .Lfar_table
    .word .Lfar_op2 - .Lfar_table
    .word .Lfar_op3 - .Lfar_table
.Ltwo_table:
    .word .Ltwo_op0 - .Ltwo_table
    .word .Ltwo_op1 - .Ltwo_table
    .word .Ltwo_op2 - .Ltwo_table
    .word .Ltwo_op3 - .Ltwo_table
.Ltwo_table2:
    .word .Ltwo_op1 - .Ltwo_table2
    .word .Ltwo_op0 - .Ltwo_table2
    .word .Ltwo_op2 - .Ltwo_table2
    .word .Ltwo_op3 - .Ltwo_table2
program:
    .word 0, 1, 3, 0, 2, 1, 0, 3, 0, 2, 1, 3, 1, 0, 3, 2, 0, 1, 3, 0, 2, 1, 9
