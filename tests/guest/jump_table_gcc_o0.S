/* Two switches as GCC -O0 compiles them (Debian's brotli 1.0.9 at -O0, docs/validation.md "More
 * programs from outside, second round": its main, EncodeData and
 * BrotliCreateBackwardReferences were missing edges). Both load the table's entry, sign-extend
 * it (`lw a5, 0(a5)`, `sext.w a4, a5`, a no-op) and set the base again (`auipc`/`addi` into a5)
 * before adding it: the entry was looked for as the add's operand's writer itself, and the
 * relative base read at the load, where a5 held the entry's address. spilled_switch keeps the
 * index in the frame, tests the bound on the sign extension of a first load of it (`lw a5,
 * -36(s0)`, `sext.w a4, a5`), reuses a5 for the bound (`li a5, 4`) and shifts a second load
 * (`lwu a5, -36(s0)`); field_switch tests a copy of the index (`mv a3, a5`). Both 5 edges, not
 * missing edges (profile.jump_table_gcc_o0; before: missing edges). */
    .option norelax
    .text
    .globl _start
_start:
    li s5, 15000
    li s6, 0
    lla s7, cell
1:  andi a0, s5, 7              /* 0..7: cases 0..4, others the default */
    call spilled_switch
    add s6, s6, a0
    andi a1, s5, 6
    sw a1, 8(s7)
    mv a0, s7
    call field_switch
    add s6, s6, a0
    andi a0, s5, 7
    addi a0, a0, 1000
    call offset_switch
    add s6, s6, a0
    addi s5, s5, -1
    bnez s5, 1b
    li a0, 0
    li a7, 93
    ecall

/* a0: the index */
    .type spilled_switch, @function
spilled_switch:
    addi sp, sp, -48
    sd ra, 40(sp)
    sd s0, 32(sp)
    addi s0, sp, 48
    sw a0, -36(s0)
    li a5, 0
    sw a5, -20(s0)
    lw a5, -36(s0)              /* the first load */
    sext.w a4, a5               /* its sign extension, tested */
    li a5, 4                    /* a5 reused for the bound */
    bltu a5, a4, .Sdefault
    lwu a5, -36(s0)             /* the second load, shifted */
    slli a4, a5, 2
    lla a5, .Stable
    add a5, a5, a4
    lw a5, 0(a5)
    sext.w a4, a5               /* the entry, sign-extended */
    lla a5, .Stable             /* the base set again */
    add a5, a5, a4
    jr a5
.Sc0:
    li a5, 3
    j .Sstore
.Sc1:
    li a5, 5
    j .Sstore
.Sc2:
    li a5, 7
    j .Sstore
.Sc3:
    li a5, 11
    j .Sstore
.Sc4:
    li a5, 13
    j .Sstore
.Sdefault:
    li a5, 1
.Sstore:
    sw a5, -20(s0)
    lw a0, -20(s0)
    ld ra, 40(sp)
    ld s0, 32(sp)
    addi sp, sp, 48
    ret
    .size spilled_switch, . - spilled_switch

/* a0: a cell, its word at 8 the index */
    .type field_switch, @function
field_switch:
    addi sp, sp, -48
    sd ra, 40(sp)
    sd s0, 32(sp)
    addi s0, sp, 48
    sd a0, -24(s0)
    ld a5, -24(s0)
    lw a5, 8(a5)
    mv a3, a5                   /* a copy of the index, tested */
    li a4, 4
    bltu a4, a3, .Fdefault
    slli a4, a5, 2
    lla a5, .Ftable
    add a5, a5, a4
    lw a5, 0(a5)
    sext.w a4, a5
    lla a5, .Ftable
    add a5, a5, a4
    jr a5
.Fc0:
    li a0, 2
    j .Fout
.Fc1:
    li a0, 4
    j .Fout
.Fc2:
    li a0, 6
    j .Fout
.Fc3:
    li a0, 8
    j .Fout
.Fc4:
    li a0, 10
    j .Fout
.Fdefault:
    li a0, 1
.Fout:
    ld ra, 40(sp)
    ld s0, 32(sp)
    addi sp, sp, 48
    ret
    .size field_switch, . - field_switch

/* a0: 1000 + the index */
    .type offset_switch, @function
offset_switch:
    addi sp, sp, -32
    sd s0, 24(sp)
    addi s0, sp, 32
    addw a3, a0, -1000          /* the index, computed */
    sext.w a4, a3               /* its sign extension, tested */
    li a5, 4
    bltu a5, a4, .Odefault
    slli a5, a3, 32             /* its zero extension into a5 */
    srli a5, a5, 32
    slli a4, a5, 2
    lla a5, .Otable
    add a5, a5, a4
    lw a5, 0(a5)
    sext.w a4, a5
    lla a5, .Otable
    add a5, a5, a4
    jr a5
.Oc0:
    li a0, 21
    j .Oout
.Oc1:
    li a0, 22
    j .Oout
.Oc2:
    li a0, 23
    j .Oout
.Oc3:
    li a0, 24
    j .Oout
.Oc4:
    li a0, 25
    j .Oout
.Odefault:
    li a0, 20
.Oout:
    ld s0, 24(sp)
    addi sp, sp, 32
    ret
    .size offset_switch, . - offset_switch

    .section .rodata
    .p2align 2
.Otable:
    .word .Oc0 - .Otable
    .word .Oc1 - .Otable
    .word .Oc2 - .Otable
    .word .Oc3 - .Otable
    .word .Oc4 - .Otable
.Stable:
    .word .Sc0 - .Stable
    .word .Sc1 - .Stable
    .word .Sc2 - .Stable
    .word .Sc3 - .Stable
    .word .Sc4 - .Stable
.Ftable:
    .word .Fc0 - .Ftable
    .word .Fc1 - .Ftable
    .word .Fc2 - .Ftable
    .word .Fc3 - .Ftable
    .word .Fc4 - .Ftable

    .data
    .p2align 3
cell:
    .zero 16
