/* A code section with no symbol inside but one of its own past its end (as
 * riscv-tests' link.ld leaves `_end` on .text when .data and .bss are empty):
 * objdump names the code from that symbol, <past_end-0xe>, and so must
 * `cyclescope disasm` (issue 11 item 11; found in riscv-tests rv64ud
 * structural). Runs and exits 0. */
    .text
    .globl _start
_start:
    li a0, 0
    li a7, 93
    ecall

    .section .nosym, "ax", @progbits
1:  nop
    j 1b
    .globl past_end
    .set past_end, . + 10
