/* A word-coded interpreter dispatched as GCC -O2 compiles gawk's r_interpret (found building
 * Debian's gawk, docs/sandbox.md §13): the table's base set once at the entry into a
 * callee-saved register (s4, restored by the epilogue), the bound set (`li a5, 4`) before a
 * branch and a `j` to the dispatch block laid out below the epilogue, where the nearest write
 * of a5 above in address order is the epilogue's. The procedure was left "missing edges"
 * (profile.jump_table_hoisted): the base's writers were three (the restore counted), and the
 * bound was looked for in address order only. */
    .text
    .globl _start
_start:
    li s5, 4000
1:  lla a0, program
    call interp
    addi s5, s5, -1
    bnez s5, 1b
    li a0, 0
    li a7, 93
    ecall

/* a0: the program, words 0..7 (4: stop; 5..7: the default, skipped); returns the accumulator */
    .type interp, @function
interp:
    addi sp, sp, -48
    sd ra, 40(sp)
    sd s0, 32(sp)
    sd s1, 24(sp)
    sd s2, 16(sp)
    sd s4, 8(sp)
    lla s4, .Ltable         /* the base, hoisted out of the loop */
    mv s0, a0
    li s1, 0
.Lnext:
    lw s2, 0(s0)            /* the opcode */
    addi s0, s0, 4
    li a5, 4                /* the bound, set before a branch and a jump */
    bltz s2, .Lreturn
    j .Ldispatch
.Lop0:
    addi s1, s1, 1
    j .Lnext
.Lop1:
    slli s1, s1, 1
    j .Lnext
.Lop2:
    xori s1, s1, 0x55
    j .Lnext
.Lop3:
    addi s1, s1, -7
    j .Lnext
.Lop4:
.Lreturn:
    andi a5, s1, 255        /* the last write of a5 above the dispatch in address order */
    mv a0, a5
    ld ra, 40(sp)
    ld s0, 32(sp)
    ld s1, 24(sp)
    ld s2, 16(sp)
    ld s4, 8(sp)            /* the restore: a third writer of s4 */
    addi sp, sp, 48
    ret
.Ldispatch:
    bltu a5, s2, .Lnext     /* above the bound: the default, the next word */
    slli a5, s2, 2
    add a5, a5, s4
    lw a5, 0(a5)
    add a5, a5, s4
    jr a5
    .size interp, . - interp

    .section .rodata
    .p2align 2
.Ltable:
    .word .Lop0 - .Ltable
    .word .Lop1 - .Ltable
    .word .Lop2 - .Ltable
    .word .Lop3 - .Ltable
    .word .Lop4 - .Ltable
program:
    .word 0, 1, 0, 2, 3, 6, 1, 0, 0, 2, 7, 3, 1, 0, 5, 2, 0, 1, 3, 0, 2, 1, 4
