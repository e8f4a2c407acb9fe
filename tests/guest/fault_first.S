/* Faults at its very first instruction: _start is an encoding that is not RV64GC
 * (custom-0 opcode), so no instruction completes. Every verb that runs a program
 * must report the fault naming the program and exit 128 + SIGILL = 132, with the
 * results of what ran (nothing) written. */
    .text
    .globl _start
_start:
    .4byte 0x0000000b
    li a7, 93
    ecall
