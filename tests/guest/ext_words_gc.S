/* Zfh, Zicond, Zcb and Zfa encodings in a program built for plain RV64GC (its
 * Tag_RISCV_arch names none of them): objdump prints each as `.4byte` / `.2byte`, and so
 * must cyclescope disasm (sandbox.disasm.ext_not_enabled). Runs and exits 0: the emulator
 * runs them whatever the attributes say. */
    .text
    .globl _start
_start:
    li a1, 0x3c00
    .insn r OP_FP, 0, 0x7a, fa1, a1, x0     /* fmv.h.x fa1,a1 */
    .insn r OP_FP, 7, 0x02, fa0, fa1, fa1   /* fadd.h fa0,fa1,fa1 */
    .insn r OP_FP, 0, 0x72, a2, fa0, x0     /* fmv.x.h a2,fa0 */
    .insn r 0x33, 5, 7, a3, a1, a2          /* czero.eqz a3,a1,a2 */
    .insn r 0x33, 7, 7, a4, a1, a2          /* czero.nez a4,a1,a2 */
    .insn 4, 0xf0180553                     /* fli.s fa0,1.0 */
    .insn 4, 0xc2859553                     /* fcvtmod.w.d a0,fa1,rtz */
    mv a0, a1
    .insn 2, 0x9d61                         /* c.zext.b a0 */
    .insn 2, 0x9d75                         /* c.not a0 */
    li a0, 0
    li a7, 93
    ecall
