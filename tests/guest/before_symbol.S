/* Code before the first symbol of .text: objdump names it <_start-0x4>, and so
 * must `cyclescope disasm` (issue 11 item 11). Never run: the jump loops. */
    .text
    nop
    nop
    .globl _start
_start:
    j .-4
    lla a0, .-8
    li a7, 93
    ecall
