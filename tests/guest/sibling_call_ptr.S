/* Sibling calls through a loaded code pointer, as GCC -O2 compiles SQLite's leaves (found
 * grading Debian's sqlite3 3.40.1, docs/validation.md "Programs from outside, graded"):
 * getCellInfo ends `ld a4, 128(a0); jr a4` (`pPage->xParseCell(...)`), sqlite3PagerUnrefNotNull
 * loads the object's method table and jumps to a method of it, sqlite3PcacheRelease jumps
 * to a global function pointer (`auipc`, `ld`) behind its branches. No frame, no call: ra
 * and sp hold the caller's values, the callee returns to our caller. These procedures were
 * "missing edges" (profile.sibling_call_ptr); `table_leaf` adds an index to a table's base
 * before the load: a guard, it stays missing edges. */
    .option norelax /* lla stays auipc + addi: no gp in a bare program */
    .text
    .globl _start
_start:
    li s0, 20000
    li s1, 0
    lla s2, object
1:  mv a0, s2
    call field_method       /* a method in a field of the object */
    add s1, s1, a0
    mv a0, s2
    call vtable_method      /* a method of the object's table */
    add s1, s1, a0
    mv a0, s2
    andi a1, s0, 3
    call global_pointer     /* a global function pointer, behind a branch */
    add s1, s1, a0
    andi a1, s0, 1
    mv a0, s2
    call table_leaf
    add s1, s1, a0
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    li a7, 93
    ecall

/* a0: the object: its word at 0 a method table, at 8 a code pointer, at 16 a counter */
    .type field_method, @function
field_method:
    lw a5, 16(a0)
    addiw a5, a5, 1
    sw a5, 16(a0)
    ld a4, 8(a0)
    jr a4
    .size field_method, . - field_method

    .type vtable_method, @function
vtable_method:
    ld a7, 0(a0)
    lw a3, 16(a0)
    addiw a3, a3, -1
    sw a3, 16(a0)
    ld a3, 8(a7)
    jr a3
    .size vtable_method, . - vtable_method

    .type global_pointer, @function
global_pointer:
    beqz a1, 2f
    lla a5, hook
    ld a5, 0(a5)
    li a2, 0
    jr a5
2:  li a0, 5
    ret
    .size global_pointer, . - global_pointer

/* a1: 0 or 1, an index into a table of code pointers: not a sibling call's shape */
    .type table_leaf, @function
table_leaf:
    lla a5, ptrs
    slli a1, a1, 3
    add a5, a5, a1
    ld a5, 0(a5)
    jr a5
    .size table_leaf, . - table_leaf

    .type method_a, @function
method_a:
    li a0, 3
    ret
    .size method_a, . - method_a

    .type method_b, @function
method_b:
    lw a0, 16(a0)
    andi a0, a0, 7
    ret
    .size method_b, . - method_b

    .section .data
    .p2align 3
object:
    .dword methods
    .dword method_a
    .dword 0
methods:
    .dword method_a
    .dword method_b
hook:
    .dword method_b
ptrs:
    .dword method_a
    .dword method_b
