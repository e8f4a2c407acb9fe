/* The "# address <symbol>" notes objdump prints after an instruction whose
 * operand it can resolve from an earlier lui/auipc (binutils riscv-dis.c,
 * maybe_print_address), in the cases issue 11 item 11's random sweeps found
 * `cyclescope disasm` getting wrong:
 *   - jalr with offset 0 (jr REG, jalr RD,REG) resolves its register;
 *   - a jalr offset off tp or zero is printed alone, off gp from
 *     __global_pointer$, even right after a lui/auipc into that register;
 *   - the c.addi hint with immediate 0 ("add rd,rd,0") resolves and uses up
 *     the register's value; c.addiw resolves (32-bit wrap); c.addiw 0
 *     (sext.w) does not, and leaves the value for the next instruction.
 * Never run: the jumps go nowhere. */
    .text
    .globl _start
_start:
    auipc t0, 0x1
    .insn 0x00028067 /* jr t0 (not compressed) */
    auipc t1, 0x2
    jalr s1, t1
    lui tp, 0x12
    jalr ra, 16(tp)
    lui gp, 0x5
    jalr ra, 8(gp)
    lui a3, 0x1
    jalr ra, 12(zero)
    auipc t2, 0x3
    .insn 0x0381 /* c.addi t2, 0: "add t2,t2,0" */
    ld a1, 8(t2)
    lui a0, 0x7ffff
    c.addiw a0, 31
    lui a2, 0x4
    .insn 0x2601 /* c.addiw a2, 0: sext.w a2,a2 */
    .insn 0x01063703 /* ld a4, 16(a2) (not compressed) */
    li a7, 93
    ecall
