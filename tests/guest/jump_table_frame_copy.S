/* Two switches on a field the caller's pointer addresses, as GCC -O2 compiles sed's
 * match_an_address_p and mawk's cast1_to_d (Debian's, docs/sandbox.md §12-13).
 * frame_field checks the bound on a first load of the field and shifts a second, with the
 * prologue's `sd ra, 8(sp)` between: a store to the frame the procedure just allocated, which
 * the caller's pointer cannot address (profile.jump_table_frame_store; missing edges before:
 * any store between the loads refused the first load as the index). copy_index shifts a copy of
 * the bounded register (`mv a5, a4` after `bltu a5, a4`): the copy's bound is the original's
 * (profile.jump_table_copy; missing edges before). frame_outside stores past its frame (into
 * its caller's) between the loads: it stays missing edges (profile.jump_table_frame_store_outside,
 * a guard). */
    .option norelax
    .text
    .globl _start
_start:
    li s5, 3000
1:  lla s6, cells
    li s7, 6
2:  mv a0, s6
    call frame_field
    mv a0, s6
    call copy_index
    mv a0, s6
    call frame_outside
    addi s6, s6, 4
    addi s7, s7, -1
    bnez s7, 2b
    addi s5, s5, -1
    bnez s5, 1b
    li a0, 0
    li a7, 93
    ecall

/* a0: a cell (a word 0..5; above 3: the default) */
    .type frame_field, @function
frame_field:
    lw a3, 0(a0)
    addi sp, sp, -16
    sd ra, 8(sp)            /* the prologue's store, between the loads */
    li a5, 3
    bltu a5, a3, .Lff_default
    lwu a5, 0(a0)           /* the field again: the index */
    lla a3, .Lff_table
    slli a5, a5, 2
    add a5, a5, a3
    lw a5, 0(a5)
    add a5, a5, a3
    jr a5
.Lff_0:
    li a0, 10
    j .Lff_out
.Lff_1:
    li a0, 11
    j .Lff_out
.Lff_2:
    li a0, 12
    j .Lff_out
.Lff_3:
    li a0, 13
    j .Lff_out
.Lff_default:
    li a0, 0
.Lff_out:
    ld ra, 8(sp)
    addi sp, sp, 16
    ret
    .size frame_field, . - frame_field

/* a0: a cell, read as a halfword */
    .type copy_index, @function
copy_index:
    lhu a4, 0(a0)
    addi sp, sp, -16
    sd s0, 8(sp)
    li a5, 3
    mv s0, a0
    bltu a5, a4, .Lci_default
    mv a5, a4               /* the index: a copy of the bounded register */
    slli a5, a5, 2
    lla a4, .Lci_table
    add a5, a5, a4
    lw a5, 0(a5)
    add a5, a5, a4
    jr a5
.Lci_0:
    sh zero, 2(s0)
    j .Lci_out
.Lci_1:
    li a0, 21
    j .Lci_out
.Lci_2:
    li a0, 22
    j .Lci_out
.Lci_3:
    li a0, 23
    j .Lci_out
.Lci_default:
    li a0, 0
.Lci_out:
    ld s0, 8(sp)
    addi sp, sp, 16
    ret
    .size copy_index, . - copy_index

/* frame_field with its store past its 16-byte frame: into the caller's */
    .type frame_outside, @function
frame_outside:
    lw a3, 0(a0)
    addi sp, sp, -16
    sd zero, 16(sp)         /* the caller's frame (the initial stack's argc here, unused) */
    li a5, 3
    bltu a5, a3, .Lfo_default
    lwu a5, 0(a0)
    lla a3, .Lfo_table
    slli a5, a5, 2
    add a5, a5, a3
    lw a5, 0(a5)
    add a5, a5, a3
    jr a5
.Lfo_0:
    li a0, 30
    j .Lfo_out
.Lfo_1:
    li a0, 31
    j .Lfo_out
.Lfo_2:
    li a0, 32
    j .Lfo_out
.Lfo_3:
    li a0, 33
    j .Lfo_out
.Lfo_default:
    li a0, 0
.Lfo_out:
    addi sp, sp, 16
    ret
    .size frame_outside, . - frame_outside

    .section .rodata
    .p2align 2
.Lff_table:
    .word .Lff_0 - .Lff_table
    .word .Lff_1 - .Lff_table
    .word .Lff_2 - .Lff_table
    .word .Lff_3 - .Lff_table
.Lci_table:
    .word .Lci_0 - .Lci_table
    .word .Lci_1 - .Lci_table
    .word .Lci_2 - .Lci_table
    .word .Lci_3 - .Lci_table
.Lfo_table:
    .word .Lfo_0 - .Lfo_table
    .word .Lfo_1 - .Lfo_table
    .word .Lfo_2 - .Lfo_table
    .word .Lfo_3 - .Lfo_table

    .data
    .p2align 2
cells:
    .word 2, 0, 5, 1, 3, 4
