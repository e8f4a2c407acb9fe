/* A switch in an option loop whose table's base a callee-saved register keeps, as GCC -O3
 * compiles zstd's main (Debian's zstd 1.5.4, docs/validation.md "More programs from outside,
 * second round"): s1 holds a count in one part of the procedure, which ends in `call exit`, and
 * the table's base in the loop; GCC lays a case of the switch out right after the call, and
 * the count's writes of s1 are the nearest above the jump in address order. The
 * walk back over the CFG that finds the base took the call as falling through into the case,
 * met the count's writes of s1, found the paths disagreeing and left the procedure missing
 * edges (profile.jump_table_no_return). A call of a function that does not return (here the
 * program's own `exit`; in a C program glibc's `exit`, `abort`, `__assert_fail`, the C++
 * runtime's `__cxa_throw`, …) does not fall through. */
    .option norelax
    .text
    .globl _start
_start:
    li s5, 6000
    li s6, 0
1:  lla a0, text
    li a1, 0
    call options
    add s6, s6, a0
    addi s5, s5, -1
    bnez s5, 1b
    lla a0, text
    li a1, 1
    call options           /* counts down and exits */
    li a0, 1
    li a7, 93
    ecall

/* a0: a string of option letters 'a'..'e' (others the default), a1: the mode */
    .type options, @function
options:
    addi sp, sp, -32
    sd ra, 24(sp)
    sd s1, 16(sp)
    sd s2, 8(sp)
    sd s3, 0(sp)
    mv s2, a0
    li s3, 0
    bnez a1, .Lmode1
    lla s1, .Ltable        /* the table's base, for the whole loop */
    j .Lloop
.Lmode1:
    li s1, 3               /* mode 1: s1 a count (the nearest writer above the jump) */
.Lcount:
    addi s1, s1, -1
    bnez s1, .Lcount
    li a0, 0
    call exit
.Lc0:                      /* a case laid out after the call: control never falls in */
    addi s3, s3, 1
.Lloop:
    lbu a5, 0(s2)
    beqz a5, .Ldone
    addi s2, s2, 1
    addiw a5, a5, -97
    andi a5, a5, 255
    li a4, 4
    bltu a4, a5, .Lloop    /* not 'a'..'e': the next letter */
    slli a5, a5, 2
    add a5, a5, s1
    lw a5, 0(a5)
    add a5, a5, s1
    jr a5
.Lc1:
    addi s3, s3, 2
    j .Lloop
.Lc2:
    slli s3, s3, 1
    j .Lloop
.Lc3:
    addi s3, s3, -1
    j .Lloop
.Lc4:
    xori s3, s3, 7
    j .Lloop
.Ldone:
    mv a0, s3
    ld ra, 24(sp)
    ld s1, 16(sp)
    ld s2, 8(sp)
    ld s3, 0(sp)
    addi sp, sp, 32
    ret
    .size options, . - options

    .type exit, @function
exit:
    li a7, 93
    ecall
    .size exit, . - exit

    .section .rodata
    .p2align 2
.Ltable:
    .word .Lc0 - .Ltable
    .word .Lc1 - .Ltable
    .word .Lc2 - .Ltable
    .word .Lc3 - .Ltable
    .word .Lc4 - .Ltable
text:
    .asciz "abxcdeaebbz-dca"
