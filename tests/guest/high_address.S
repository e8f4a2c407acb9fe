/* Linked at 0x80000000 like the riscv-tests and riscv-arch-test programs
 * (tests/sandbox.cmake builds it with -Ttext-segment=0x80000000): objdump
 * widens its address column to 12 characters for sections ending at or past
 * 0x10000000 (binutils objdump.c, skip_addr_chars), and so must
 * `cyclescope disasm` (issue 11 item 11). Runs and exits 0. */
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    j main

    .text
main:
    li a0, 0
    li a7, 93
    ecall
