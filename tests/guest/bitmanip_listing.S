/* cyclescope disasm against objdump where the ISA enables the bit-manipulation
 * extensions and where it does not (sandbox.disasm.bitmanip): objdump names a Zba/
 * Zbb/Zbc/Zbs instruction only where the ISA it holds (the file's Tag_RISCV_arch,
 * replaced by each $x<isa> mapping symbol `.option arch` leaves) has its extension,
 * else prints `.4byte`. Built with -march=rv64gc_zba_zbb_zbc_zbs (bitmanip*); runs
 * and exits 0 (the decoder runs every encoding, whatever the listing says). */
    .text
    .globl _start
_start:
    sh2add a0, a1, a2
    zext.w a3, a4
    rev8 a5, a5
    clmulh t0, t1, t2
    bexti t3, t4, 63
    .option push
    .option arch, -zbc, -zbs
    cpop a0, a1                 /* Zbb: still named */
    sh1add.uw a0, a1, a2        /* Zba: still named */
    .insn r 0x33, 1, 5, a0, a1, a2      /* clmul: .4byte here */
    .insn i 0x13, 1, a0, a1, 0x280      /* bseti a0,a1,0: .4byte here */
    .option arch, rv64gc
    .insn r 0x33, 2, 16, a0, a1, a2     /* sh1add: .4byte */
    .insn i 0x13, 5, a0, a1, 0x6b8      /* rev8: .4byte */
    .insn r 0x3b, 0, 4, a0, a1, zero    /* zext.w: .4byte */
    .insn i 0x13, 1, a0, a1, 0x602      /* cpop: .4byte */
    .option pop
    min a0, a1, a2              /* all four again */
    bclr a0, a0, a1
    li a0, 0
    li a7, 93
    ecall
