/* Code assembled without the C extension (.option arch, -c: its $x<isa> mapping
 * symbol lacks "c"): objdump prints its 16-bit parcels as .2byte, and so must
 * `cyclescope disasm` (issue 11 item 11). Never run: 0x0000 is illegal. */
    .text
    .globl _start
_start:
    .option arch, -c
    nop
    .insn 0x0001
    .insn 0x0000
    li a7, 93
    ecall
