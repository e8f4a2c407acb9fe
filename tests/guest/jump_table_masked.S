/* The interpreter loop of Lua 5.4 as GCC -O2 compiles it (lvm.c's luaV_execute with
 * ljumptab.h; found building Debian's lua5.4, docs/sandbox.md §12): every handler jumps
 * back to one dispatch, `goto *disptab[GET_OPCODE(i)]`, whose index is the instruction
 * word masked to 7 bits (`andi 127`) though the table, an object of its own in
 * .data.rel.ro, holds fewer entries (83 in Lua, 5 here). The mask's 128 entries ran past
 * the table into data that is no code, and the procedure was left "missing edges"
 * (profile.jump_table_masked). */
    .text
    .globl _start
_start:
    li s0, 20000
    li s1, 0
1:  andi a0, s0, 3
    call vm
    add s1, s1, a1
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    li a7, 93
    ecall

/* runs the word program at .Lcode + 4 * a0 until its opcode 4; the result in a1 */
    .type vm, @function
vm:
    lla a4, disptab         /* the base, once */
    lla a2, .Lcode
    slli a0, a0, 2
    add a2, a2, a0
    li a1, 1
.Ldispatch:
    lw a3, 0(a2)
    addi a2, a2, 4
    andi a5, a3, 127        /* the opcode: 7 bits, 5 of them used */
    slli a5, a5, 3
    add a5, a5, a4
    ld a5, 0(a5)
    srliw a6, a3, 7         /* the operand */
    jr a5
.Lop_add:
    add a1, a1, a6
    j .Ldispatch
.Lop_dbl:
    slli a1, a1, 1
    j .Ldispatch
.Lop_xor:
    xor a1, a1, a6
    j .Ldispatch
.Lop_sub:
    sub a1, a1, a6
    j .Ldispatch
.Lop_end:
    ret
    .size vm, . - vm

    .section .rodata
    .p2align 2
.Lcode: /* opcode | operand << 7 */
    .word 0 | (3 << 7), 1, 2 | (5 << 7), 0 | (1 << 7), 3 | (2 << 7), 1, 2 | (9 << 7), 4

    .section .data.rel.ro, "aw"
    .p2align 3
    .type disptab, @object
disptab:
    .quad .Lop_add, .Lop_dbl, .Lop_xor, .Lop_sub, .Lop_end
    .size disptab, . - disptab
    .type after_table, @object
after_table: /* what the mask's entries 5 to 127 would read: no code */
    .quad 1, 2, 3, 4, 5, 6, 7, 8
    .size after_table, . - after_table
