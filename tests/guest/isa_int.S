/* Self-checking integer semantics: RV64I/M/A/Zicsr hard cases and every
 * compressed form. Exits 0 when every check passes, otherwise with the number
 * of the first failing check. Expected values follow the RISC-V unprivileged
 * specification (division: §7.2 Table 7.1; LR/SC and AMOs: chapter 8;
 * compressed: chapter 16). The test suite runs it under qemu-riscv64 too, so
 * the expectations themselves are checked against another implementation. */

#define CHECK(id, reg, value) li t5, id; li t6, value; bne reg, t6, fail
#define RR(id, insn, a, b, expect) li a1, a; li a2, b; insn a0, a1, a2; CHECK(id, a0, expect)

    .option norvc
    .text
    .globl _start
_start:
    /* ---- division by zero and overflow (Table 7.1) ---- */
    RR(1,  div,   7, -2, -3)
    RR(2,  div,   7, 0, -1)
    RR(3,  div,   0x8000000000000000, -1, 0x8000000000000000)
    RR(4,  divu,  7, 0, 0xffffffffffffffff)
    RR(5,  rem,   7, 0, 7)
    RR(6,  rem,   0x8000000000000000, -1, 0)
    RR(7,  remu,  7, 0, 7)
    RR(8,  rem,   -7, 2, -1)
    RR(9,  divw,  0x80000000, -1, 0xffffffff80000000)
    RR(10, divw,  5, 0, -1)
    RR(11, divuw, 5, 0, 0xffffffffffffffff)
    RR(12, remw,  0x80000000, -1, 0)
    RR(13, remw,  7, 0, 7)
    RR(14, remuw, 0xfffffff7, 0, 0xfffffffffffffff7)
    RR(15, divuw, 0xffffffff, 1, 0xffffffffffffffff)
    RR(16, divw,  0x1ffffffff, 2, 0)           /* only the low 32 bits count: -1 / 2 = 0 */
    /* ---- multiplication high parts ---- */
    RR(20, mulh,   -1, -1, 0)
    RR(21, mulh,   0x8000000000000000, 0x8000000000000000, 0x4000000000000000)
    RR(22, mulhu,  -1, -1, 0xfffffffffffffffe)
    RR(23, mulhsu, -1, -1, -1)
    RR(24, mulhsu, 2, -1, 1)
    RR(25, mulw,   0x7fffffff, 2, -2)
    RR(26, mul,    0x100000001, 0x100000001, 0x200000001)
    /* ---- shifts and compares ---- */
    RR(30, sraw,  0x80000000, 4, 0xfffffffff8000000)
    RR(31, srlw,  -1, 4, 0x0fffffff)
    RR(32, sllw,  1, 31, 0xffffffff80000000)
    RR(33, sll,   1, 64, 1)                    /* shift amount is taken mod 64 */
    RR(34, sra,   -16, 2, -4)
    RR(35, addw,  0x7fffffff, 1, 0xffffffff80000000)
    RR(36, subw,  0, 0x100000000, 0)
    RR(37, slt,   -1, 0, 1)
    RR(38, sltu,  -1, 0, 0)
    li a1, -1; sltiu a0, a1, -1; CHECK(39, a0, 0)   /* imm sign-extends to all ones */
    li a1, 0x80000000; sraiw a0, a1, 31; CHECK(40, a0, -1)
    li a1, -1; srliw a0, a1, 0; CHECK(41, a0, -1)   /* 32-bit op result sign-extends */
    lui a0, 0x80000; CHECK(42, a0, 0xffffffff80000000)
1:  auipc a0, 0; la a1, 1b; li t5, 43; bne a0, a1, fail
    /* ---- misaligned access (Linux lets user code do it) ---- */
    la a1, data
    li a2, 0x0807060504030201; sd a2, 0(a1)
    li a2, 0x100f0e0d0c0b0a09; sd a2, 8(a1)
    ld a0, 1(a1); CHECK(50, a0, 0x0908070605040302)
    lw a0, 3(a1); CHECK(51, a0, 0x07060504)
    lh a0, 7(a1); CHECK(52, a0, 0x0908)
    lbu a0, 15(a1); CHECK(53, a0, 0x10)
    lb a0, 0(a1); li a2, 0x80; sb a2, 0(a1); lb a0, 0(a1); CHECK(54, a0, -128)
    lhu a0, 0(a1); CHECK(55, a0, 0x0280)
    lwu a2, 12(a1); CHECK(56, a2, 0x100f0e0d)
    /* ---- LR/SC (chapter 8) ---- */
    la a1, data
    li a2, 1; sd a2, 0(a1)
    lr.d a0, (a1); CHECK(60, a0, 1)
    li a2, 5; sc.d a3, a2, (a1); CHECK(61, a3, 0)
    ld a0, 0(a1); CHECK(62, a0, 5)
    li a2, 9; sc.d a3, a2, (a1); li t5, 63; beqz a3, fail    /* no reservation: fails */
    ld a0, 0(a1); CHECK(64, a0, 5)
    li a2, 0x80000000; sw a2, 8(a1)
    lr.w a0, (a1); addi a4, a1, 8; lr.w.aq a0, (a4); CHECK(65, a0, 0xffffffff80000000)
    li a2, 3; sc.w.rl a3, a2, (a4); CHECK(66, a3, 0)
    lw a0, 8(a1); CHECK(67, a0, 3)
    /* ---- AMOs: old value in rd (sign-extended for .w), memory updated ---- */
    li a2, 0x7fffffff; sw a2, 0(a1)
    li a2, 1; amoadd.w a0, a2, (a1); CHECK(70, a0, 0x7fffffff)
    lw a0, 0(a1); CHECK(71, a0, 0xffffffff80000000)
    li a2, -1; amomin.w a0, a2, (a1); CHECK(72, a0, 0xffffffff80000000)
    lw a0, 0(a1); CHECK(73, a0, 0xffffffff80000000)
    li a2, 1; amominu.w a0, a2, (a1); lw a0, 0(a1); CHECK(74, a0, 1)
    li a2, -5; amomax.w a0, a2, (a1); lw a0, 0(a1); CHECK(75, a0, 1)
    li a2, -5; amomaxu.w a0, a2, (a1); lw a0, 0(a1); CHECK(76, a0, -5)
    li a2, 0x0ff0; sd a2, 0(a1)
    li a2, 0x00ff; amoand.d a0, a2, (a1); CHECK(77, a0, 0x0ff0)
    ld a0, 0(a1); CHECK(78, a0, 0x00f0)
    li a2, 0x0f00; amoor.d.aqrl a0, a2, (a1); ld a0, 0(a1); CHECK(79, a0, 0x0ff0)
    li a2, 0x0ff0; amoxor.d a0, a2, (a1); ld a0, 0(a1); CHECK(80, a0, 0)
    li a2, -7; amoswap.d a0, a2, (a1); CHECK(81, a0, 0)
    li a2, 3; amomin.d a0, a2, (a1); ld a0, 0(a1); CHECK(82, a0, -7)
    li a2, 3; amomaxu.d a0, a2, (a1); ld a0, 0(a1); CHECK(83, a0, -7)
    li a2, 3; amominu.d a0, a2, (a1); ld a0, 0(a1); CHECK(84, a0, 3)
    li a2, -3; amomax.d a0, a2, (a1); ld a0, 0(a1); CHECK(85, a0, 3)
    li a2, 1; amoswap.w zero, a2, (a1); lw a0, 0(a1); CHECK(86, a0, 1)  /* rd = x0 still stores */
    /* ---- counters ---- */
    /* qemu-user returns host ticks for instret, so only "it increases" holds for both */
    rdinstret a0; rdinstret a1; li t5, 90; bleu a1, a0, fail
    rdcycle a0; li t5, 91; beqz a0, fail
    csrr a0, fflags; CHECK(92, a0, 0)
    li a1, 0xff; csrw fcsr, a1; csrr a0, fcsr; CHECK(93, a0, 0xff)
    csrr a0, frm; CHECK(94, a0, 7)
    csrrwi a0, fflags, 0; CHECK(95, a0, 0x1f)
    csrrci a0, frm, 4; CHECK(96, a0, 7)
    csrr a0, frm; CHECK(97, a0, 3)
    csrrsi zero, frm, 4; csrr a0, frm; CHECK(98, a0, 7)
    fscsr zero
    /* ---- x0 stays zero ---- */
    li a0, 5; add zero, a0, a0; addi zero, zero, 1; lui zero, 1; mv a0, zero; CHECK(99, a0, 0)

    /* ---- every compressed form (chapter 16) ---- */
    .option rvc
    c.li a0, -32;        CHECK(100, a0, -32)
    c.li a0, 31; c.addi a0, -1; CHECK(101, a0, 30)
    li a0, 0x7fffffff; c.addiw a0, 1; CHECK(102, a0, 0xffffffff80000000)
    mv s0, sp
    c.addi16sp sp, -64;  sub a0, s0, sp; CHECK(103, a0, 64)
    c.addi4spn a0, sp, 8; sub a0, a0, sp; CHECK(104, a0, 8)
    c.addi16sp sp, 64
    c.lui a0, 0xfffe0;   CHECK(105, a0, 0xfffffffffffe0000)
    c.lui a0, 1;         CHECK(106, a0, 0x1000)
    li s1, -64; c.srli s1, 60; CHECK(107, s1, 15)
    li s1, -64; c.srai s1, 3;  CHECK(108, s1, -8)
    li s1, 0xff; c.andi s1, -16; CHECK(109, s1, 0xf0)
    li s1, 10; li a5, 3; c.sub s1, a5; CHECK(110, s1, 7)
    li s1, 6; c.xor s1, a5; CHECK(111, s1, 5)
    li s1, 4; c.or s1, a5;  CHECK(112, s1, 7)
    li s1, 6; c.and s1, a5; CHECK(113, s1, 2)
    li s1, 0x80000000; c.subw s1, a5; CHECK(114, s1, 0x7ffffffd)
    li s1, 0x7fffffff; c.addw s1, a5; CHECK(115, s1, 0xffffffff80000002)
    li a0, 1; c.slli a0, 63; CHECK(116, a0, 0x8000000000000000)
    li a1, 77; c.mv a0, a1; CHECK(117, a0, 77)
    li a0, 1; c.add a0, a1; CHECK(118, a0, 78)
    addi sp, sp, -32
    li a0, -2; c.swsp a0, 4(sp); c.lwsp a1, 4(sp); CHECK(119, a1, -2)
    li a0, 0x123456789; c.sdsp a0, 8(sp); c.ldsp a1, 8(sp); CHECK(120, a1, 0x123456789)
    la s0, data
    li a0, -3; c.sw a0, 4(s0); c.lw a1, 4(s0); CHECK(121, a1, -3)
    li a0, 0x1122334455; c.sd a0, 8(s0); c.ld a1, 8(s0); CHECK(122, a1, 0x1122334455)
    li a0, 0x400921fb54442d18; fmv.d.x fa0, a0
    c.fsd fa0, 16(s0); c.fld fa1, 16(s0); fmv.x.d a1, fa1; CHECK(123, a1, 0x400921fb54442d18)
    c.fsdsp fa0, 16(sp); c.fldsp fa2, 16(sp); fmv.x.d a1, fa2; CHECK(124, a1, 0x400921fb54442d18)
    addi sp, sp, 32
    li a0, 0
    c.j 1f
    li a0, 1
1:  CHECK(125, a0, 0)
    la a1, 2f; c.jr a1
    li a0, 2
2:  CHECK(126, a0, 0)
    la a1, 3f; c.jalr a1
3:  la a2, 3b; li t5, 127; bne ra, a2, fail   /* ra: the address after c.jalr */
    li a0, 0; c.beqz a0, 5f; li a0, 9
5:  CHECK(128, a0, 0)
    li s1, 1; c.bnez s1, 6f; li s1, 9
6:  CHECK(129, s1, 1)
    li s1, 0; c.bnez s1, 7f; li s1, 2
7:  CHECK(130, s1, 2)
    c.nop
    .option norvc

    li a0, 0
    li a7, 93
    ecall

fail:
    mv a0, t5
    li a7, 93
    ecall

    .data
    .balign 16
data:
    .space 64
