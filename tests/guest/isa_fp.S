/* Self-checking floating-point semantics at the instruction level: NaN boxing,
 * fmin/fmax with NaNs and signed zeros, fcvt saturation, every rounding mode
 * (static and dynamic), fflags. Exits 0 on success, else the failing check.
 * Expected values from the RISC-V unprivileged spec: NaN boxing §12.2,
 * fmin/fmax §11.6, conversions Table 11.4, rounding modes Table 11.1,
 * flags §11.2. Run under qemu-riscv64 too by the test suite. */

#define CHECK(id, reg, value) li t5, id; li t6, value; bne reg, t6, fail
#define FD(freg, bits) li t0, bits; fmv.d.x freg, t0
#define FLAGS(id, value) frflags t1; CHECK(id, t1, value); fsflags zero

#define ONE     0x3ff0000000000000
#define MONE    0xbff0000000000000
#define TWO5    0x4004000000000000   /* 2.5 */
#define MTWO5   0xc004000000000000   /* -2.5 */
#define QNAN    0x7ff8000000000000
#define SNAN    0x7ff4000000000000
#define PZERO   0x0000000000000000
#define MZERO   0x8000000000000000
#define BIG     0x4202a05f20000000   /* 1e10 */
#define MBIG    0xc202a05f20000000
#define TWO64   0x43f0000000000000   /* 2^64 */
#define DMAX    0x7fefffffffffffff
#define DMIN    0x0010000000000000   /* smallest normal */
#define THIRD   0x3fd5555555555555

    .option norvc
    .text
    .globl _start
_start:
    fsflags zero
    /* ---- NaN boxing ---- */
    li t0, 0x000000003f800000; fmv.d.x fa0, t0        /* 1.0f, not boxed */
    fadd.s fa1, fa0, fa0; fmv.x.w a0, fa1; CHECK(1, a0, 0x7fc00000)   /* operand reads as canonical NaN */
    FLAGS(2, 0)                                         /* a quiet NaN: no flag */
    li t0, 0xbf800000; fmv.w.x fa2, t0                  /* -1.0f, boxed */
    fsgnj.s fa1, fa0, fa2; fmv.x.w a0, fa1; CHECK(3, a0, 0xffffffffffc00000)
    fmv.x.w a0, fa0; CHECK(4, a0, 0x3f800000)           /* fmv.x.w moves the low bits as they are */
    fmv.x.d a0, fa2; CHECK(5, a0, 0xffffffffbf800000)   /* fmv.w.x boxes */
    la a1, data; li t0, 0x40490fdb; sw t0, 0(a1)
    flw fa3, 0(a1); fmv.x.d a0, fa3; CHECK(6, a0, 0xffffffff40490fdb)  /* flw boxes */
    fsw fa0, 4(a1); lwu a0, 4(a1); CHECK(7, a0, 0x3f800000)          /* fsw stores the low bits */
    fcvt.d.s fa4, fa0; fmv.x.d a0, fa4; CHECK(8, a0, QNAN)
    fclass.s a0, fa0; CHECK(9, a0, 0x200)                              /* quiet NaN */
    /* ---- fmin/fmax (spec 2.2 semantics) ---- */
    FD(fa0, QNAN); FD(fa1, ONE)
    fmin.d fa2, fa0, fa1; fmv.x.d a0, fa2; CHECK(10, a0, ONE)
    fmax.d fa2, fa1, fa0; fmv.x.d a0, fa2; CHECK(11, a0, ONE)
    FLAGS(12, 0)
    FD(fa0, SNAN)
    fmin.d fa2, fa0, fa1; fmv.x.d a0, fa2; CHECK(13, a0, ONE)
    FLAGS(14, 0x10)                                     /* signaling NaN: NV */
    FD(fa1, QNAN); fmax.d fa2, fa0, fa1; fmv.x.d a0, fa2; CHECK(15, a0, QNAN)
    FLAGS(16, 0x10)
    FD(fa0, MZERO); FD(fa1, PZERO)
    fmin.d fa2, fa1, fa0; fmv.x.d a0, fa2; CHECK(17, a0, MZERO)
    fmax.d fa2, fa0, fa1; fmv.x.d a0, fa2; CHECK(18, a0, PZERO)
    /* ---- comparisons ---- */
    FD(fa0, QNAN); FD(fa1, ONE)
    feq.d a0, fa0, fa1; CHECK(20, a0, 0); FLAGS(21, 0)  /* quiet */
    flt.d a0, fa0, fa1; CHECK(22, a0, 0); FLAGS(23, 0x10) /* signaling */
    FD(fa0, MZERO); FD(fa1, PZERO)
    feq.d a0, fa0, fa1; CHECK(24, a0, 1)
    fle.d a0, fa1, fa0; CHECK(25, a0, 1)
    /* ---- fcvt saturation (Table 11.4) ---- */
    FD(fa0, BIG);  fcvt.w.d a0, fa0, rtz;  CHECK(30, a0, 0x7fffffff); FLAGS(31, 0x10)
    FD(fa0, MBIG); fcvt.w.d a0, fa0, rtz;  CHECK(32, a0, 0xffffffff80000000); FLAGS(33, 0x10)
    FD(fa0, QNAN); fcvt.w.d a0, fa0, rtz;  CHECK(34, a0, 0x7fffffff); FLAGS(35, 0x10)
    FD(fa0, QNAN); fcvt.l.d a0, fa0, rtz;  CHECK(36, a0, 0x7fffffffffffffff)
    FD(fa0, QNAN); fcvt.lu.d a0, fa0, rtz; CHECK(37, a0, 0xffffffffffffffff)
    FD(fa0, MONE); fcvt.wu.d a0, fa0, rtz; CHECK(38, a0, 0); FLAGS(39, 0x10)
    FD(fa0, TWO64); fcvt.lu.d a0, fa0, rtz; CHECK(40, a0, 0xffffffffffffffff); FLAGS(41, 0x10)
    li t0, 0xbfe0000000000000; fmv.d.x fa0, t0           /* -0.5 */
    fcvt.wu.d a0, fa0, rtz; CHECK(42, a0, 0); FLAGS(43, 0x01) /* rounds to 0: in range, inexact */
    li t0, 0x41efffffffe00000; fmv.d.x fa0, t0           /* 4294967295.0 */
    fcvt.wu.d a0, fa0, rtz; CHECK(44, a0, 0xffffffffffffffff); FLAGS(45, 0) /* sign-extended 32-bit result */
    /* ---- every rounding mode: 2.5 and -2.5 to integer ---- */
    FD(fa0, TWO5)
    fcvt.w.d a0, fa0, rne; CHECK(50, a0, 2)
    fcvt.w.d a0, fa0, rtz; CHECK(51, a0, 2)
    fcvt.w.d a0, fa0, rdn; CHECK(52, a0, 2)
    fcvt.w.d a0, fa0, rup; CHECK(53, a0, 3)
    fcvt.w.d a0, fa0, rmm; CHECK(54, a0, 3)
    FLAGS(55, 0x01)
    FD(fa0, MTWO5)
    fcvt.l.d a0, fa0, rne; CHECK(56, a0, -2)
    fcvt.l.d a0, fa0, rtz; CHECK(57, a0, -2)
    fcvt.l.d a0, fa0, rdn; CHECK(58, a0, -3)
    fcvt.l.d a0, fa0, rup; CHECK(59, a0, -2)
    fcvt.l.d a0, fa0, rmm; CHECK(60, a0, -3)
    /* dynamic rounding mode from frm */
    li t0, 3; fsrm t0; fcvt.w.d a0, fa0; CHECK(61, a0, -2)      /* RUP */
    li t0, 2; fsrm t0; fcvt.w.d a0, fa0; CHECK(62, a0, -3)      /* RDN */
    li t0, 4; fsrm t0; fcvt.w.d a0, fa0; CHECK(63, a0, -3)      /* RMM */
    fsrm zero; fcvt.w.d a0, fa0; CHECK(64, a0, -2)              /* RNE */
    /* arithmetic rounding: 1/3 differs in the last bit between RDN and RUP */
    FD(fa0, ONE); li t0, 0x4008000000000000; fmv.d.x fa1, t0    /* 3.0 */
    fdiv.d fa2, fa0, fa1, rdn; fmv.x.d a0, fa2; CHECK(65, a0, 0x3fd5555555555555)
    fdiv.d fa2, fa0, fa1, rup; fmv.x.d a0, fa2; CHECK(66, a0, 0x3fd5555555555556)
    fdiv.d fa2, fa0, fa1, rtz; fmv.x.d a0, fa2; CHECK(67, a0, 0x3fd5555555555555)
    fdiv.d fa2, fa0, fa1, rne; fmv.x.d a0, fa2; CHECK(68, a0, 0x3fd5555555555555)
    fdiv.d fa2, fa0, fa1, rmm; fmv.x.d a0, fa2; CHECK(69, a0, 0x3fd5555555555555)
    FLAGS(70, 0x01)
    /* a tie in an addition: 1 + 2^-53 is halfway between 1 and 1+2^-52 */
    FD(fa0, ONE); li t0, 0x3ca0000000000000; fmv.d.x fa1, t0
    fadd.d fa2, fa0, fa1, rne; fmv.x.d a0, fa2; CHECK(71, a0, 0x3ff0000000000000)  /* ties to even */
    fadd.d fa2, fa0, fa1, rmm; fmv.x.d a0, fa2; CHECK(72, a0, 0x3ff0000000000001)  /* ties away */
    fadd.d fa2, fa0, fa1, rup; fmv.x.d a0, fa2; CHECK(73, a0, 0x3ff0000000000001)
    /* ---- fflags ---- */
    fsflags zero
    FD(fa0, ONE); FD(fa1, PZERO); fdiv.d fa2, fa0, fa1; FLAGS(80, 0x08)       /* DZ */
    fmv.x.d a0, fa2; CHECK(81, a0, 0x7ff0000000000000)
    FD(fa0, MONE); fsqrt.d fa2, fa0; FLAGS(82, 0x10)                         /* NV */
    fmv.x.d a0, fa2; CHECK(83, a0, QNAN)                                      /* canonical NaN */
    FD(fa0, DMAX); fadd.d fa2, fa0, fa0; FLAGS(84, 0x05)                     /* OF|NX */
    fadd.d fa2, fa0, fa0, rtz; fmv.x.d a0, fa2; CHECK(85, a0, DMAX)          /* RTZ overflow: max finite */
    fsflags zero
    FD(fa0, DMIN); li t0, 0x3fe0000000000000; fmv.d.x fa1, t0                /* 0.5 */
    fmul.d fa2, fa0, fa1; FLAGS(86, 0)                                        /* exact subnormal: no UF */
    FD(fa1, THIRD); fmul.d fa2, fa0, fa1; FLAGS(87, 0x03)                    /* tiny and inexact: UF|NX */
    li t0, 0x1f; fsflags t0; frflags a0; CHECK(88, a0, 0x1f)                 /* flags accrue until cleared */
    FD(fa0, ONE); fadd.d fa2, fa0, fa0; frflags a0; CHECK(89, a0, 0x1f)
    fsflags zero
    /* FMA: one rounding. (1+2^-52)^2 - (1+2^-51) = 2^-104 exactly; rounding the
     * product first would lose it and give 0 */
    li t0, 0x3ff0000000000001; fmv.d.x fa0, t0
    li t0, 0xbff0000000000002; fmv.d.x fa2, t0
    fmadd.d fa3, fa0, fa0, fa2; fmv.x.d a0, fa3; CHECK(90, a0, 0x3970000000000000)
    FLAGS(91, 0)
    fnmadd.d fa3, fa0, fa0, fa2; fmv.x.d a0, fa3; CHECK(92, a0, 0xb970000000000000)
    fmul.d fa3, fa0, fa0; fadd.d fa3, fa3, fa2; fmv.x.d a0, fa3; CHECK(93, a0, 0)

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
