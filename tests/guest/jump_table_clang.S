/* clang's two dispatch forms the profile's CFG did not resolve before 2026-11-27
 * (profile.jump_table_clang; found with programs built by clang 14, docs/sandbox.md §11):
 * `spilled` is a switch as clang -O0 compiles it: the index is stored to its stack slot,
 * the bound checked on the stored register (`bltu K, I'`), and the index reloaded from the
 * slot for the shift — the bound was searched on the reloaded register and not found.
 * `threaded` is a computed goto (`goto *table[*pc++]`, as clang -O2 compiles an interpreter
 * written with &&label): a table of label addresses, an object of its own in .data.rel.ro,
 * indexed by a byte of the program with no bound; its base is set once at the entry and
 * kept in a register, more than 48 instructions above the last handler's jump.
 * `virtual_tail` ends with a virtual call as a tail jump, as clang++ and g++ compile one
 * (libstdc++'s __do_dyncast): the callee loaded from a table the program fills at run time,
 * ra reloaded, the frame freed, `jr t1` — a jump out of the procedure (before: missing edges). */
    .text
    .globl _start
_start:
    li s0, 30000
    li s1, 0
1:  andi a0, s0, 7
    call spilled
    add s1, s1, a1
    andi a0, s0, 3
    call threaded
    add s1, s1, a1
    andi a0, s0, 1
    call virtual_tail
    add s1, s1, a0
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    li a7, 93
    ecall

    .type spilled, @function
spilled:
    addi sp, sp, -32
    sd s0, 16(sp)
    addi s0, sp, 32
    sd a0, -24(s0)          /* the index to its slot */
    li t0, 4
    bltu t0, a0, .Lsdefault /* the bound on the stored register: a0 > 4 */
    ld t1, -24(s0)          /* reloaded for the shift */
    slli t1, t1, 2
    lla t2, .Lstable
    add t1, t1, t2
    lw t1, 0(t1)
    add t1, t1, t2
    jr t1
.Lsc0:
    li a1, 3
    j .Lsret
.Lsc1:
    li a1, 5
    xor a1, a1, a0
    j .Lsret
.Lsc2:
    li a1, 7
    add a1, a1, a0
    slli a1, a1, 1
    j .Lsret
.Lsc3:
    li a1, 11
    or a1, a1, a0
    j .Lsret
.Lsc4:
    li a1, 13
    sub a1, a1, a0
    j .Lsret
.Lsdefault:
    li a1, 1
    add a1, a1, a0
.Lsret:
    ld s0, 16(sp)
    addi sp, sp, 32
    ret
    .size spilled, . - spilled

/* runs the byte program at .Lprogram + a0 (each ends with op 3) */
    .type threaded, @function
threaded:
    lla a2, .Lprogram
    add a2, a2, a0
    lbu a3, 0(a2)
    slli a3, a3, 3
    lla a4, .Lhandlers      /* the base, once */
    add a3, a3, a4
    ld a5, 0(a3)
    li a1, 1
    addi a2, a2, 1
    jr a5
.Lop_inc:
    addi a1, a1, 1
    lbu a3, 0(a2)
    slli a3, a3, 3
    add a3, a3, a4
    ld a5, 0(a3)
    addi a2, a2, 1
    jr a5
.Lop_dbl:
    slli a1, a1, 1
    lbu a3, 0(a2)
    slli a3, a3, 3
    add a3, a3, a4
    ld a5, 0(a3)
    addi a2, a2, 1
    jr a5
.Lop_mix:
    /* a long handler: its jump is more than 48 instructions below the base's lla */
    .rept 40
    xori a1, a1, 5
    .endr
    lbu a3, 0(a2)
    slli a3, a3, 3
    add a3, a3, a4
    ld a5, 0(a3)
    addi a2, a2, 1
    jr a5
.Lop_end:
    ret
    .size threaded, . - threaded

/* calls the a0-th entry of .Lvtable (filled at run time) with a tail jump */
    .type virtual_tail, @function
virtual_tail:
    addi sp, sp, -32
    sd ra, 24(sp)
    sd s0, 16(sp)
    mv s0, a0
    lla t0, .Lvtable
    ld t1, 0(t0)
    bnez t1, 1f
    lla t1, double_it       /* the table filled once */
    sd t1, 0(t0)
    lla t1, negate_it
    sd t1, 8(t0)
1:  slli t2, s0, 3
    add t2, t2, t0
    ld t1, 0(t2)
    addi a0, s0, 7
    ld ra, 24(sp)
    ld s0, 16(sp)
    addi sp, sp, 32
    jr t1
    .size virtual_tail, . - virtual_tail

    .type double_it, @function
double_it:
    slli a0, a0, 1
    ret
    .size double_it, . - double_it

    .type negate_it, @function
negate_it:
    neg a0, a0
    ret
    .size negate_it, . - negate_it

    .section .rodata
    .p2align 2
.Lstable:
    .word .Lsc0 - .Lstable
    .word .Lsc1 - .Lstable
    .word .Lsc2 - .Lstable
    .word .Lsc3 - .Lstable
    .word .Lsc4 - .Lstable
.Lprogram:
    .byte 0, 1, 2, 0, 1, 2, 0, 3

    .section .data.rel.ro, "aw"
    .p2align 3
    .type handlers, @object
handlers:
.Lhandlers:
    .quad .Lop_inc, .Lop_dbl, .Lop_mix, .Lop_end
    .size handlers, . - handlers

    .data
    .p2align 3
.Lvtable:
    .quad 0, 0
