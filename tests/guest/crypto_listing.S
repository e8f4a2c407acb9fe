/* cyclescope disasm against objdump for the scalar cryptography extensions
 * (sandbox.disasm.crypto): every RV64 Zbkb, Zbkc, Zbkx, Zknd, Zkne, Zknh, Zksed and
 * Zksh instruction where the file's Tag_RISCV_arch enables them; then, by `.option
 * arch`, Zbkb alone (its rotates, andn and rev8 named without Zbb; packw with rs2 =
 * zero named packw, not Zbb's zext.h), Zbb alone (pack and brev8 .4byte, packw ..,zero
 * named zext.h), Zbkc alone (clmul/clmulh named, clmulr .4byte), Zknd alone
 * (aes64ks1i/ks2 named, aes64es .4byte) and rv64gc (all .4byte). Built with
 * -march=rv64gc_zbkb_zbkc_zbkx_zknd_zkne_zknh_zksed_zksh (crypto*); runs to its exit. */
    .text
    .globl _start
_start:
    pack a0, a1, a2
    pack a0, a1, zero
    packh a3, a4, a5
    packw t0, t1, t2
    packw t0, t1, zero
    brev8 s0, s1
    rev8 a0, a1
    rol a0, a1, a2
    rolw a0, a1, a2
    ror a0, a1, a2
    rorw a0, a1, a2
    rori a0, a1, 63
    roriw a0, a1, 31
    andn a0, a1, a2
    orn a0, a1, a2
    xnor a0, a1, a2
    clmul a0, a1, a2
    clmulh a0, a1, a2
    xperm4 a0, a1, a2
    xperm8 s2, s3, s4
    aes64ds a0, a1, a2
    aes64dsm a0, a1, a2
    aes64es a0, a1, a2
    aes64esm a0, a1, a2
    aes64im a0, a1
    aes64ks1i a0, a1, 0
    aes64ks1i a0, a1, 5
    aes64ks1i a0, a1, 10
    aes64ks2 a0, a1, a2
    sha256sig0 a0, a1
    sha256sig1 a0, a1
    sha256sum0 a0, a1
    sha256sum1 a0, a1
    sha512sig0 a0, a1
    sha512sig1 a0, a1
    sha512sum0 a0, a1
    sha512sum1 a0, a1
    sm4ed a0, a1, a2, 0
    sm4ed a0, a1, a2, 1
    sm4ed t3, t4, t5, 2
    sm4ed a0, a1, a2, 3
    sm4ks a0, a1, a2, 0
    sm4ks a0, a1, a2, 3
    sm3p0 a0, a1
    sm3p1 t6, a7
    .option push
    .option arch, rv64gc_zbkb
    ror a0, a1, a2              /* Zbkb's: named without Zbb */
    rori a0, a1, 7
    andn a0, a1, a2
    rev8 a0, a1
    packw a0, a1, zero          /* packw, not Zbb's zext.h */
    packw a0, a1, a2
    brev8 a0, a1
    .insn r 0x33, 1, 5, a0, a1, a2      /* clmul: .4byte without Zbc/Zbkc */
    .insn i 0x13, 1, a0, a1, 0x602      /* cpop: Zbb's only, .4byte */
    .option arch, rv64gc_zbb
    .insn r 0x3b, 4, 4, a0, a1, zero    /* zext.h */
    .insn r 0x3b, 4, 4, a0, a1, a2      /* packw: .4byte */
    .insn r 0x33, 4, 4, a0, a1, a2      /* pack: .4byte */
    .insn i 0x13, 5, a0, a1, 0x687      /* brev8: .4byte */
    rev8 a0, a1
    .option arch, rv64gc_zbkc
    .insn r 0x33, 1, 5, a0, a1, a2      /* clmul */
    .insn r 0x33, 3, 5, a0, a1, a2      /* clmulh */
    .insn r 0x33, 2, 5, a0, a1, a2      /* clmulr: Zbc's only, .4byte */
    .option arch, rv64gc_zknd
    .insn r 0x33, 0, 0x3f, a0, a1, a2   /* aes64ks2 */
    .insn i 0x13, 1, a0, a1, 0x312      /* aes64ks1i a0,a1,2 */
    .insn r 0x33, 0, 0x19, a0, a1, a2   /* aes64es: Zkne's, .4byte */
    .insn r 0x33, 0, 0x1d, a0, a1, a2   /* aes64ds */
    .option arch, rv64gc
    .insn r 0x33, 4, 4, a0, a1, a2      /* pack */
    .insn r 0x33, 0, 0x19, a0, a1, a2   /* aes64es */
    .insn i 0x13, 1, a0, a1, 0x102      /* sha256sig0 */
    .insn r 0x33, 0, 0x18, a0, a1, a2   /* sm4ed bs 0 */
    .insn i 0x13, 1, a0, a1, 0x108      /* sm3p0 */
    .insn r 0x33, 4, 0x14, a0, a1, a2   /* xperm8 */
    .option pop
    li a0, 0
    li a7, 93
    ecall
    /* never run: aes64ks1i's reserved round numbers 0xb-0xf, under the file's ISA */
    .insn i 0x13, 1, a0, a1, 0x31b
    .insn i 0x13, 1, a0, a1, 0x31f
