/* Executes an encoding that is not RV64GC (custom-0 opcode): the run must end
 * naming the pc and the encoding. */
    .text
    .globl _start
_start:
    nop
    .4byte 0x0000000b
    li a7, 93
    ecall
