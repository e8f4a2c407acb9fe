/* A switch on a field loaded twice through two registers holding the caller's pointer, as
 * GCC -O3 compiles brotli's ReadHuffmanCode (Debian's brotli 1.0.9, docs/validation.md "More
 * programs from outside, second round"): the prologue copies the pointer argument to a
 * callee-saved register (`mv s0, a0`), the bound is checked on a first load through the
 * argument (`lw a4, 8(a0)`), the prologue's saves store to the frame, and the field is loaded
 * again through the copy (`lwu a5, 8(s0)`) for the shift. The first load was not seen as the
 * same field (another base register), nor were the saves seen as stores the caller's pointer
 * cannot reach (the base not the entry's value but a copy of it): missing edges
 * (profile.jump_table_copied_base). copy_after copies the argument below the first load (`lw
 * t3, 8(a0)`, `mv a4, a0`, `lwu t1, 8(a4)`), as GCC -O3 compiles brotli's
 * BrotliCreateBackwardReferences: the walk up from the second load stopped at the copy. copy_moved adds 4 to the copy before the second load: a
 * field 4 bytes on, which the bound says nothing of; it stays missing edges
 * (profile.jump_table_copied_base_moved, a guard). */
    .option norelax
    .text
    .globl _start
_start:
    li s5, 20000
    li s6, 0
    lla s7, huff
1:  andi a1, s5, 7
    sw a1, 8(s7)            /* the state: 0..7, cases 0..4, others the default */
    sw a1, 12(s7)
    mv a0, s7
    call copied_base
    add s6, s6, a0
    mv a0, s7
    call copy_moved
    add s6, s6, a0
    mv a0, s7
    call copy_after
    add s6, s6, a0
    addi s5, s5, -1
    bnez s5, 1b
    li a0, 0
    li a7, 93
    ecall

/* a0: the state; its word at 8 the substate */
    .type copied_base, @function
copied_base:
    addi sp, sp, -32
    sd s0, 16(sp)
    mv s0, a0
    lw a0, 8(a0)            /* the first load, through the argument: the bound */
    sd ra, 24(sp)
    sd s1, 8(sp)
    li a5, 4
    bltu a5, a0, .Ldefault
    lwu a5, 8(s0)           /* the second load, through the copy: the index */
    lla a4, .Ltable
    slli a5, a5, 2
    add a5, a5, a4
    lw a5, 0(a5)
    add a5, a5, a4
    jr a5
.Lc0:
    li a0, 3
    j .Lout
.Lc1:
    lw a0, 12(s0)
    xori a0, a0, 5
    j .Lout
.Lc2:
    li a0, 7
    slli a0, a0, 1
    j .Lout
.Lc3:
    li a1, 1
    sw a1, 16(s0)
    li a0, 11
    j .Lout
.Lc4:
    li a1, 13
    lw a0, 16(s0)
    sub a0, a1, a0
    j .Lout
.Ldefault:
    li a0, 1
.Lout:
    ld ra, 24(sp)
    ld s0, 16(sp)
    ld s1, 8(sp)
    addi sp, sp, 32
    ret
    .size copied_base, . - copied_base

/* the same, the copy moved on 4 bytes: the second load reads the word at 12 */
    .type copy_moved, @function
copy_moved:
    addi sp, sp, -32
    sd s0, 16(sp)
    mv s0, a0
    lw a0, 8(a0)
    sd ra, 24(sp)
    addi s0, s0, 4
    li a5, 4
    bltu a5, a0, .Mdefault
    lwu a5, 4(s0)
    lla a4, .Mtable
    slli a5, a5, 2
    add a5, a5, a4
    lw a5, 0(a5)
    add a5, a5, a4
    jr a5
.Mc0:
    li a0, 2
    j .Mout
.Mc1:
    li a0, 4
    j .Mout
.Mc2:
    li a0, 6
    j .Mout
.Mc3:
    li a0, 8
    j .Mout
.Mc4:
    li a0, 10
    j .Mout
.Mdefault:
    li a0, 1
.Mout:
    ld ra, 24(sp)
    ld s0, 16(sp)
    addi sp, sp, 32
    ret
    .size copy_moved, . - copy_moved

/* a leaf: the copy of the argument made after the first load */
    .type copy_after, @function
copy_after:
    lw t3, 8(a0)            /* the first load: the bound */
    li t1, 4
    mv a4, a0               /* the copy, below it */
    bltu t1, t3, .Adefault
    lwu t1, 8(a4)           /* the second load, through the copy */
    lla a7, .Atable
    slli t1, t1, 2
    add t1, t1, a7
    lw t1, 0(t1)
    add t1, t1, a7
    jr t1
.Ac0:
    li a0, 5
    ret
.Ac1:
    lw a0, 12(a4)
    ret
.Ac2:
    li a0, 9
    ret
.Ac3:
    li a0, 12
    ret
.Ac4:
    li a0, 15
    ret
.Adefault:
    li a0, 1
    ret
    .size copy_after, . - copy_after

    .section .rodata
    .p2align 2
.Atable:
    .word .Ac0 - .Atable
    .word .Ac1 - .Atable
    .word .Ac2 - .Atable
    .word .Ac3 - .Atable
    .word .Ac4 - .Atable
.Ltable:
    .word .Lc0 - .Ltable
    .word .Lc1 - .Ltable
    .word .Lc2 - .Ltable
    .word .Lc3 - .Ltable
    .word .Lc4 - .Ltable
.Mtable:
    .word .Mc0 - .Mtable
    .word .Mc1 - .Mtable
    .word .Mc2 - .Mtable
    .word .Mc3 - .Mtable
    .word .Mc4 - .Mtable

    .data
    .p2align 3
huff:
    .zero 24
