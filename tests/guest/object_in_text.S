/* Symbols typed @object inside .text: objdump dumps their bytes as hex and
 * ASCII (16 a line, in chunks the size of the last item it disassembled)
 * instead of disassembling them, and so must `cyclescope disasm` (issue 11
 * item 11; found by random sweeps against objdump). The object `blob` also
 * starts an .option norvc stretch: objdump never disassembles there, so it
 * never takes blob's ISA (no C); the plain $x after the data in it keeps the
 * ISA objdump last took, with C, and the parcel 0x4501 prints as li a0,0.
 * Never run. */
    .text
    .globl _start
_start:
    nop
    c.li a0, 1
    .option push
    .option norvc
    .type blob, @object
blob:
    addi a0, a0, 1
    .ascii "cyclescope!\n"
    .word 0x12345678
    .size blob, . - blob
after:
    addi a0, a0, 2
    .insn 0x4501
    .option pop
    .type table, @object
table:
    .word 1, 2, 3, 4, 5
    .byte 0x41, 0x42
    .type code, @function
code:
    ret
