/* A function after the linker's zero fill, reached only through a pointer, in a program
 * that will be stripped (profile.stripped_gap; docs/sandbox.md §11): clang aligns each
 * object's .text to 4 bytes, the linker fills the gap with zeros, and `main`, which
 * _start reaches through a register (glibc's __libc_start_main calls it so), is no call
 * target. A stripped executable's procedures start at its entry and its call targets
 * only: the CFG of the procedure before the gap stopped at the zeros, and the samples of
 * the function after it belonged to that procedure and to none of its instructions
 * (estimated 0). */
    .text
    .globl _start
_start:
    lla t0, work
    jalr t0                 /* through a pointer: no call target */
    li a0, 0
    li a7, 93
    ecall
    .2byte 0                /* the fill: an illegal parcel, then the next object's code */
    .p2align 2
work:
    li s0, 20000
    li a1, 0
1:  andi t1, s0, 3
    bnez t1, 2f
    addi a1, a1, 3
    j 3f
2:  xori a1, a1, 9
3:  addi s0, s0, -1
    bnez s0, 1b
    ret
