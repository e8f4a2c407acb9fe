/* Zba/Zbb/Zbc/Zbs encodings in a program built for plain RV64GC (its Tag_RISCV_arch
 * names none of them): objdump prints each as `.4byte`, and so must cyclescope disasm
 * (sandbox.disasm.bitmanip_not_enabled). Runs and exits 0: the emulator runs them. */
    .text
    .globl _start
_start:
    .insn r 0x33, 2, 16, a0, a1, a2     /* sh1add */
    .insn r 0x3b, 0, 4, a0, a1, zero    /* zext.w */
    .insn i 0x13, 1, a0, a1, 0x602      /* cpop */
    .insn i 0x13, 5, a0, a1, 0x6b8      /* rev8 */
    .insn i 0x13, 5, a0, a1, 0x287      /* orc.b */
    .insn r 0x33, 3, 5, a0, a1, a2      /* clmulh */
    .insn i 0x13, 5, a0, a1, 0x4bf      /* bexti a0,a1,63 */
    .insn r 0x33, 1, 0x34, a0, a1, a2   /* binv */
    li a0, 0
    li a7, 93
    ecall
