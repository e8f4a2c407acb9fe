/* Two switches in one procedure whose bound is one constant kept in a callee-saved register over
 * the loop, as GCC -O2 compiles glibc's _dl_relocate_object in Debian's ld.so (`li s4, 58` above
 * the relocation loop, `bltu s4, s10` and `bltu s4, s7` before the two tables; proc_a0d2, a
 * quarter of a dynamic C++ program's ooo4 samples). The register holds other values elsewhere
 * (a flag first; the nearest write above the dispatch in address order is not the constant), so
 * the bound is found only over the CFG (flow_constant), which needs every indirect jump of the
 * procedure known: each table waited on the other and the procedure was left "missing edges"
 * (profile.jump_table_together). twice_guard: the same with the second jump through a pointer
 * loaded from the program, which nothing explains: it stays missing edges, and so the first
 * table too (a guard: the tables are taken together or not at all). */
    .option norelax         /* no gp-relative addresses: nothing sets gp */
    .text
    .globl _start
_start:
    li s5, 3000
1:  lla a0, program
    andi a1, s5, 1
    call twice
    lla a0, program
    andi a1, s5, 1
    call twice_guard
    addi s5, s5, -1
    bnez s5, 1b
    li a0, 0
    li a7, 93
    ecall

/* a0: the program, words 0..15 (negative: stop): 0..4 the first table's, 8..12 the second's,
 * the others the default (skipped); a1: a flag. Returns the accumulator. */
    .type twice, @function
twice:
    addi sp, sp, -48
    sd ra, 40(sp)
    sd s0, 32(sp)
    sd s1, 24(sp)
    sd s2, 16(sp)
    sd s3, 8(sp)
    sd s4, 0(sp)
    mv s0, a0
    li s1, 0
    andi s4, a1, 1          /* s4 holds the flag first */
    bnez s4, .Lflag
.Lset:
    li s4, 4                /* the bound of both tables, kept over the loop */
    j .Lnext
.Lflag:
    addi s1, s1, 100
    andi s4, s1, 3          /* the nearest write of s4 above the dispatch in address order */
    j .Lset
.Lnext:
    lw s2, 0(s0)
    addi s0, s0, 4
    bltz s2, .Lreturn
    andi a3, s2, 8
    bnez a3, .Lsecond
    bltu s4, s2, .Lnext     /* the first table's bound */
    lla a1, .Ltab1
    slli a4, s2, 2
    add a4, a4, a1
    lw a4, 0(a4)
    add a4, a4, a1
    jr a4
.Lsecond:
    addi s3, s2, -8
    bltu s4, s3, .Lnext     /* the second table's bound */
    lla a1, .Ltab2
    slli a4, s3, 2
    add a4, a4, a1
    lw a4, 0(a4)
    add a4, a4, a1
    jr a4
.La0:
    addi s1, s1, 1
    j .Lnext
.La1:
    slli s1, s1, 1
    j .Lnext
.La2:
    xori s1, s1, 0x55
    j .Lnext
.La3:
    addi s1, s1, -7
    j .Lnext
.La4:
    srli s1, s1, 1
    j .Lnext
.Lb0:
    addi s1, s1, 3
    j .Lnext
.Lb1:
    xori s1, s1, 0x33
    j .Lnext
.Lb2:
    slli s1, s1, 2
    j .Lnext
.Lb3:
    addi s1, s1, -1
    j .Lnext
.Lb4:
    srli s1, s1, 2
    j .Lnext
.Lreturn:
    mv a0, s1
    ld ra, 40(sp)
    ld s0, 32(sp)
    ld s1, 24(sp)
    ld s2, 16(sp)
    ld s3, 8(sp)
    ld s4, 0(sp)
    addi sp, sp, 48
    ret
    .size twice, . - twice

/* The same, the second jump through a code pointer loaded from a table whose address is itself
 * loaded (a pointer variable): no table the analysis reads, no tail call. */
    .type twice_guard, @function
twice_guard:
    addi sp, sp, -48
    sd ra, 40(sp)
    sd s0, 32(sp)
    sd s1, 24(sp)
    sd s2, 16(sp)
    sd s3, 8(sp)
    sd s4, 0(sp)
    mv s0, a0
    li s1, 0
    andi s4, a1, 1
    bnez s4, .Lgflag
.Lgset:
    li s4, 4
    j .Lgnext
.Lgflag:
    addi s1, s1, 100
    andi s4, s1, 3
    j .Lgset
.Lgnext:
    lw s2, 0(s0)
    addi s0, s0, 4
    bltz s2, .Lgreturn
    andi a3, s2, 8
    bnez a3, .Lgsecond
    bltu s4, s2, .Lgnext
    lla a1, .Lgtab1
    slli a4, s2, 2
    add a4, a4, a1
    lw a4, 0(a4)
    add a4, a4, a1
    jr a4
.Lgsecond:
    addi s3, s2, -8
    bltu s4, s3, .Lgnext
    lla a1, gpointer
    ld a1, 0(a1)            /* the table's address loaded: no constant base */
    slli a4, s3, 3
    add a4, a4, a1
    ld a4, 0(a4)
    jr a4
.Lga0:
    addi s1, s1, 1
    j .Lgnext
.Lga1:
    slli s1, s1, 1
    j .Lgnext
.Lga2:
    xori s1, s1, 0x55
    j .Lgnext
.Lga3:
    addi s1, s1, -7
    j .Lgnext
.Lga4:
    srli s1, s1, 1
    j .Lgnext
.Lgb0:
    addi s1, s1, 3
    j .Lgnext
.Lgb1:
    xori s1, s1, 0x33
    j .Lgnext
.Lgreturn:
    mv a0, s1
    ld ra, 40(sp)
    ld s0, 32(sp)
    ld s1, 24(sp)
    ld s2, 16(sp)
    ld s3, 8(sp)
    ld s4, 0(sp)
    addi sp, sp, 48
    ret
    .size twice_guard, . - twice_guard

    .section .rodata
    .p2align 2
.Ltab1:
    .word .La0 - .Ltab1
    .word .La1 - .Ltab1
    .word .La2 - .Ltab1
    .word .La3 - .Ltab1
    .word .La4 - .Ltab1
.Ltab2:
    .word .Lb0 - .Ltab2
    .word .Lb1 - .Ltab2
    .word .Lb2 - .Ltab2
    .word .Lb3 - .Ltab2
    .word .Lb4 - .Ltab2
.Lgtab1:
    .word .Lga0 - .Lgtab1
    .word .Lga1 - .Lgtab1
    .word .Lga2 - .Lgtab1
    .word .Lga3 - .Lgtab1
    .word .Lga4 - .Lgtab1
program:
    .word 0, 9, 1, 0, 8, 2, 12, 3, 6, 1, 10, 0, 0, 2, 7, 3, 11, 1, 0, 14, 5, 2, 0, 9, 1, 3, 0, 2, 1, 4, 8, -1

    .data
    .p2align 3
gtargets:
    .dword .Lgb0, .Lgb1, .Lgb0, .Lgb1, .Lgb0
gpointer:
    .dword gtargets
