/* A lazy-binding trampoline as glibc's _dl_runtime_resolve in Debian's ld.so (proc_c7cc):
 * one block — the prologue saves the argument registers, a call returns the function to run,
 * the epilogue restores them and frees the frame, `jr t1` jumps to it. The look back for the
 * epilogue (ra reloaded, the frame freed) went on past the call into the prologue, whose `addi
 * sp, sp, -N` it took for sp set otherwise, and the procedure was left "missing edges" in every
 * dynamically linked run (profile.resolver_tail_jump). */
    .option norelax         /* no gp-relative addresses: nothing sets gp */
    .text
    .globl _start
_start:
    li s5, 4000
    li s1, 0
1:  andi a0, s5, 3
    call resolve
    add s1, s1, a0
    addi s5, s5, -1
    bnez s5, 1b
    li a0, 0
    li a7, 93
    ecall

/* a0: the argument, passed on; calls the function lookup returns for it */
    .type resolve, @function
resolve:
    addi sp, sp, -32
    sd ra, 24(sp)
    sd a0, 8(sp)
    call lookup
    mv t1, a0
    ld ra, 24(sp)
    ld a0, 8(sp)
    addi sp, sp, 32
    jr t1
    .size resolve, . - resolve

/* a0: 0..3; returns one of two functions' addresses */
    .type lookup, @function
lookup:
    andi a0, a0, 1
    lla a1, twice
    beqz a0, 2f
    lla a1, plus_seven
2:  mv a0, a1
    ret
    .size lookup, . - lookup

    .type twice, @function
twice:
    slli a0, a0, 1
    ret
    .size twice, . - twice

    .type plus_seven, @function
plus_seven:
    addi a0, a0, 7
    ret
    .size plus_seven, . - plus_seven
