/* Data inside .text, marked by the assembler's $d/$x mapping symbols: objdump
 * prints it as .word/.short, and so must `cyclescope disasm` (issue 11 item 11;
 * tests/sandbox.cmake compares the listings). Runs and exits 0. */
    .text
    .globl _start
_start:
    nop
    j 1f
    .half 0xabcd
    .word 0x11223344
    .byte 7, 8
    .word 0, 0, 0, 5
    .balign 4
1:  li a0, 0
    li a7, 93
    ecall
    .word 0xdeadbeef, 0x00000013
    .byte 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff
