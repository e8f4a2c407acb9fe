/* A function reached only through a pointer, right after the function before it (no fill), in
 * a program that will be stripped (profile.stripped_fde): no direct call names it and no gap
 * sets it apart, so a stripped executable's procedures (its entry, its call targets, code after
 * a gap) did not find it: its samples belonged to _start's procedure, whose CFG does not reach
 * them. The frame descriptions the assembler writes for .cfi_startproc/.cfi_endproc
 * (.eh_frame, as GCC's for every C++ function and with -fasynchronous-unwind-tables) give
 * both functions' ranges. */
    .text
    .globl _start
_start:
    .cfi_startproc
    lla t0, work
    jalr t0                 /* through a pointer: no call target */
    li a0, 0
    li a7, 93
    ecall
1:  j 1b                    /* not reached: the exit does not return */
    .cfi_endproc
work:                       /* directly after: no fill */
    .cfi_startproc
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
    .cfi_endproc
