/* A known instruction sequence whose µop records tests/unit/test_emu.c checks
 * field by field. Keep the two in step. */
    .option norvc
    .text
    .globl _start
_start:
    li a0, 5                    /* 0: addi a0,zero,5 */
    lla a1, data                /* 1,2: auipc a1 / addi a1,a1 */
    sd a0, 8(a1)                /* 3: store data+8, 8 bytes */
    ld a2, 8(a1)                /* 4: load data+8 */
    beq a0, a2, 1f              /* 5: taken */
    nop                         /*    skipped */
1:  bne a0, a2, 1b              /* 6: not taken */
    fadd.d fa0, fa1, fa2        /* 7 */
    fmadd.d fa0, fa1, fa2, fa3  /* 8 */
    jal ra, func                /* 9: call */
    lw a3, 12(a1)               /* 12: 4-byte load of data+12 */
    .option rvc
    c.addi a3, 1                /* 13: compressed */
    .option norvc
    amoadd.w a4, a3, (a1)       /* 14: atomic, reads and writes data */
    li a7, 93                   /* 15 */
    li a0, 0                    /* 16 */
    ecall                       /* 17: exit */
func:
    add zero, a0, a0            /* 10: writes x0: no destination */
    ret                         /* 11: return */

    .data
    .balign 16
data:
    .space 32
