/* Items that run past the next symbol: objdump reads no further than the next
 * symbol, so data that riscv_data_length makes 4 bytes long but a label cuts
 * after 2, and an instruction a symbol splits, print "Address 0x... is out
 * of bounds." with the raw bytes it can show, and end that block; so must
 * `cyclescope disasm` (issue 11 item 11; found by random sweeps). Never run. */
    .text
    .globl _start
_start:
    j 1f
    .half 0x1234
cut:
    .half 0x5678
1:  nop
    .globl split
    .set split, . + 2
    .insn 0x00150513 /* addi a0,a0,1, split by the symbol */
    nop
    .byte 0x11
    .globl odd
odd:
    .byte 0x22
    .half 0x3344
    ret
