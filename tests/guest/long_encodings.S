/* Encodings longer than 32 bits (48, 64, 80 and 96 bits by their low bits),
 * which RV64GC does not define, and the 16-bit parcel 0x7fff that objdump
 * takes as 2 bytes: objdump prints their raw bytes in chunks of 2 or 4, at
 * most 8 bytes a line with continuation lines, then .byte/.8byte/.2byte, and
 * so must `cyclescope disasm` (issue 11 item 11; found by a random sweep).
 * Never run. */
    .text
    .globl _start
_start:
    .insn 6, 0x12345678001f
    .insn 8, 0x123456789abc003f
    .insn 10, 0x1122334455667788007f
    .insn 12, 0x11223344556677889900107f
    .insn 0x7fff
    nop
