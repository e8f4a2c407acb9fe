/* cyclescope disasm against objdump for a program built for Zfhmin without Zfh
 * (sandbox.disasm.zfhmin): the file's Tag_RISCV_arch names zfhmin, so objdump names
 * Zfhmin's 8 instructions (flh, fsh, fmv.x.h, fmv.h.x, fcvt between h and s/d; the exact
 * fcvt.s.h/fcvt.d.h only with rm 0) and prints Zfh's others as .4byte. Built with
 * -march=rv64gc_zfhmin (zfhmin*); runs to its exit. */
    .text
    .globl _start
_start:
    flh fa0, 0(sp)
    fsh fa0, -2(sp)
    fmv.x.h a0, fa0
    fmv.h.x fa1, a0
    fcvt.s.h fa2, fa1
    fcvt.h.s fa3, fa2
    fcvt.h.s fa3, fa2, rtz
    fcvt.d.h fa4, fa3
    fcvt.h.d fa5, fa4
    fcvt.h.d fa5, fa4, rup
    .insn r 0x53, 1, 0x20, fa2, fa1, f2     /* fcvt.s.h with rm 1: .4byte (as with Zfh) */
    .insn r 0x53, 7, 0x02, fa0, fa1, fa2    /* fadd.h: Zfh's, .4byte */
    .insn r 0x53, 0, 0x12, fa0, fa1, fa1    /* fsgnj.h (fmv.h): .4byte */
    .insn r 0x53, 0, 0x52, a0, fa1, fa2     /* feq.h: .4byte */
    li a0, 0
    li a7, 93
    ecall
