/* Two switches as GCC -O2 compiles libyaml's yaml_emitter_emit_node (Debian's, docs/sandbox.md
 * §14). field_apart keeps its struct's pointer in s0 (no frame pointer at -O2), checks the
 * bound on a first load of a field and shifts a second, with a store to another field of the
 * struct between (`sw a4, 4(s0)`: bytes apart from the field's), and another path above stores
 * to the field itself (`sw a3, 8(s0)`), which the look-back for clang -O0's spilled index took
 * for a spill (profile.jump_table_field_apart; missing edges before). bound_hoisted keeps its
 * bound in s5, set once before its loop more than 48 instructions above the branch and used
 * as a counter before that: the bound the one constant every path into the branch leaves s5
 * (profile.jump_table_bound_hoisted; missing edges before). */
    .option norelax
    .text
    .globl _start
_start:
    li s7, 3000
1:  lla s6, records
    li s8, 6
2:  mv a0, s6
    call field_apart
    addi s6, s6, 12
    addi s8, s8, -1
    bnez s8, 2b
    lla a0, words
    call bound_hoisted
    addi s7, s7, -1
    bnez s7, 1b
    li a0, 0
    li a7, 93
    ecall

/* a0: a record {flag, other, field}; field 0..5 (above 3: the default); a flag sets it to 3 */
    .type field_apart, @function
field_apart:
    addi sp, sp, -16
    sd s0, 8(sp)
    mv s0, a0
    lw a3, 0(s0)
    beqz a3, 1f
    li a3, 3
    sw a3, 8(s0)            /* the field itself, on another path: no spill */
1:  lw a4, 8(s0)            /* the first load: the bound's */
    sw a4, 4(s0)            /* another field: bytes apart */
    li a5, 3
    bltu a5, a4, .Lfa_default
    lwu a5, 8(s0)           /* the second: the shift's */
    lla a4, .Lfa_table
    slli a5, a5, 2
    add a5, a5, a4
    lw a5, 0(a5)
    add a5, a5, a4
    jr a5
.Lfa_0:
    li a0, 40
    j .Lfa_out
.Lfa_1:
    li a0, 41
    j .Lfa_out
.Lfa_2:
    li a0, 42
    j .Lfa_out
.Lfa_3:
    li a0, 43
    j .Lfa_out
.Lfa_default:
    li a0, 0
.Lfa_out:
    ld s0, 8(sp)
    addi sp, sp, 16
    ret
    .size field_apart, . - field_apart

/* a0: words 0..5 (above 3: skipped), ended by a negative one; returns the accumulator */
    .type bound_hoisted, @function
bound_hoisted:
    addi sp, sp, -32
    sd s1, 24(sp)
    sd s5, 16(sp)
    li s5, 0                /* s5 a sum first: other values */
    li t0, 8
0:  add s5, s5, t0
    addi t0, t0, -1
    bnez t0, 0b
    mv s1, s5
    li s5, 3                /* the bound, hoisted */
    .rept 50
    addi s1, s1, 1
    .endr
.Lbh_next:
    lw a5, 0(a0)
    addi a0, a0, 4
    bltz a5, .Lbh_done
    bltu s5, a5, .Lbh_next  /* above the bound: skipped */
    lla a4, .Lbh_table
    slli a5, a5, 2
    add a5, a5, a4
    lw a5, 0(a5)
    add a5, a5, a4
    jr a5
.Lbh_0:
    addi s1, s1, 1
    j .Lbh_next
.Lbh_1:
    slli s1, s1, 1
    j .Lbh_next
.Lbh_2:
    xori s1, s1, 0x55
    j .Lbh_next
.Lbh_3:
    addi s1, s1, -7
    j .Lbh_next
.Lbh_done:
    andi a0, s1, 255
    ld s1, 24(sp)
    ld s5, 16(sp)
    addi sp, sp, 32
    ret
    .size bound_hoisted, . - bound_hoisted

    .section .rodata
    .p2align 2
.Lfa_table:
    .word .Lfa_0 - .Lfa_table
    .word .Lfa_1 - .Lfa_table
    .word .Lfa_2 - .Lfa_table
    .word .Lfa_3 - .Lfa_table
.Lbh_table:
    .word .Lbh_0 - .Lbh_table
    .word .Lbh_1 - .Lbh_table
    .word .Lbh_2 - .Lbh_table
    .word .Lbh_3 - .Lbh_table
words:
    .word 0, 1, 3, 0, 2, 5, 1, 0, 3, 0, 2, 1, 4, 3, 1, 0, 3, 2, 0, 1, 3, 0, 2, 1, -1

    .data
    .p2align 2
records:
    .word 0, 0, 2
    .word 1, 0, 5
    .word 0, 0, 5
    .word 0, 0, 0
    .word 0, 0, 1
    .word 0, 0, 3
