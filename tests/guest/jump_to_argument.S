/* A jump to a code pointer the caller passed, as glibc's __tunable_get_val ends (`jr a2`, its
 * callback called as a tail call, no frame to free): every path into the jump leaves a2 the
 * value it had at the entry, so the jump leaves the procedure (profile.jump_to_argument: one edge
 * to the exit; missing edges before, as no epilogue precedes it). maybe_loaded's jump takes its
 * register from memory on one path: not the caller's value on every path, it stays missing
 * edges (profile.jump_to_argument_written, a guard), and so does entry_loop's, whose register is
 * loaded before a jump back to the procedure's entry (profile.jump_to_argument_entry_loop, a
 * guard: the walk back goes on through the entry's own ways in). */
    .option norelax /* no gp here: keep lla pc-relative */
    .text
    .globl _start
_start:
    li s5, 3000
    lla s6, slot
    lla s7, callback
    sd s7, 0(s6)
1:  mv a0, s5
    lla a1, cell
    lla a2, callback
    call apply
    mv a0, s5
    mv a1, s6
    lla a2, callback
    call maybe_loaded
    li a0, 3
    mv a1, s6
    lla a2, callback
    call entry_loop
    addi s5, s5, -1
    bnez s5, 1b
    li a0, 0
    li a7, 93
    ecall

    .type callback, @function
callback:
    addi a0, a0, 1
    ret
    .size callback, . - callback

/* a0: a number, a1: a cell, a2: the callback; stores a0, calls a2(a0 * 7) as a tail call */
    .type apply, @function
apply:
    sw a0, 0(a1)
    slli a5, a0, 3
    sub a0, a5, a0
    jr a2
    .size apply, . - apply

/* a0: a number, a1: a slot holding a code pointer, a2: a callback; odd numbers jump through the slot */
    .type maybe_loaded, @function
maybe_loaded:
    andi a5, a0, 1
    beqz a5, 1f
    ld a2, 0(a1)
1:  addi a0, a0, 5
    jr a2
    .size maybe_loaded, . - maybe_loaded

/* a0: a count, a1: a slot holding a code pointer, a2: a callback; each round but the last
 * reloads a2 from the slot and starts over at the entry */
    .type entry_loop, @function
entry_loop:
    addi a0, a0, -1
    beqz a0, 1f
    ld a2, 0(a1)
    j entry_loop
1:  jr a2
    .size entry_loop, . - entry_loop

    .data
    .p2align 3
cell:
    .dword 0
slot:
    .dword 0
