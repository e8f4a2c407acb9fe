/* Unit tests for src/emu/fpu.c: known answers for the hard cases of RISC-V
 * F/D arithmetic. Every expected value and flag set below is derived by hand
 * from IEEE 754-2008 and the RISC-V unprivileged spec (chapters "F" and "D");
 * the comment on each row gives the reasoning. Flags: NX=1 UF=2 OF=4 DZ=8
 * NV=16. Rounding modes: RNE=0 RTZ=1 RDN=2 RUP=3 RMM=4.
 */
/* Hand-aligned tables: */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "emu/fpu.h"

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

enum { NX = 1, UF = 2, OF = 4, DZ = 8, NV = 16 };
enum { RNE = 0, RTZ = 1, RDN = 2, RUP = 3, RMM = 4 };

/* Every operation of fpu.h, so one table format serves all of them. */
enum {
    ADD_S, SUB_S, MUL_S, DIV_S, SQRT_S, FMADD_S, FMSUB_S, FNMSUB_S, FNMADD_S,
    ADD_D, SUB_D, MUL_D, DIV_D, SQRT_D, FMADD_D, FMSUB_D, FNMSUB_D, FNMADD_D,
    MIN_S, MAX_S, MIN_D, MAX_D, EQ_S, LT_S, LE_S, EQ_D, LT_D, LE_D, CLASS_S, CLASS_D,
    W_S, WU_S, L_S, LU_S, W_D, WU_D, L_D, LU_D,
    S_W, S_WU, S_L, S_LU, D_W, D_WU, D_L, D_LU, S_D, D_S
};

static const char *const op_names[] = {
    "fadd.s", "fsub.s", "fmul.s", "fdiv.s", "fsqrt.s", "fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s",
    "fadd.d", "fsub.d", "fmul.d", "fdiv.d", "fsqrt.d", "fmadd.d", "fmsub.d", "fnmsub.d", "fnmadd.d",
    "fmin.s", "fmax.s", "fmin.d", "fmax.d", "feq.s", "flt.s", "fle.s", "feq.d", "flt.d", "fle.d",
    "fclass.s", "fclass.d", "fcvt.w.s", "fcvt.wu.s", "fcvt.l.s", "fcvt.lu.s", "fcvt.w.d",
    "fcvt.wu.d", "fcvt.l.d", "fcvt.lu.d", "fcvt.s.w", "fcvt.s.wu", "fcvt.s.l", "fcvt.s.lu",
    "fcvt.d.w", "fcvt.d.wu", "fcvt.d.l", "fcvt.d.lu", "fcvt.s.d", "fcvt.d.s"};

static uint64_t run(int op, unsigned rm, uint64_t a, uint64_t b, uint64_t c, unsigned *fl) {
    uint32_t as = (uint32_t)a, bs = (uint32_t)b, cs = (uint32_t)c;
    switch (op) {
    case ADD_S: return fpu_add_s(as, bs, rm, fl);
    case SUB_S: return fpu_sub_s(as, bs, rm, fl);
    case MUL_S: return fpu_mul_s(as, bs, rm, fl);
    case DIV_S: return fpu_div_s(as, bs, rm, fl);
    case SQRT_S: return fpu_sqrt_s(as, rm, fl);
    case FMADD_S: return fpu_fma_s(as, bs, cs, 0, 0, rm, fl);
    case FMSUB_S: return fpu_fma_s(as, bs, cs, 0, 1, rm, fl);
    case FNMSUB_S: return fpu_fma_s(as, bs, cs, 1, 0, rm, fl);
    case FNMADD_S: return fpu_fma_s(as, bs, cs, 1, 1, rm, fl);
    case ADD_D: return fpu_add_d(a, b, rm, fl);
    case SUB_D: return fpu_sub_d(a, b, rm, fl);
    case MUL_D: return fpu_mul_d(a, b, rm, fl);
    case DIV_D: return fpu_div_d(a, b, rm, fl);
    case SQRT_D: return fpu_sqrt_d(a, rm, fl);
    case FMADD_D: return fpu_fma_d(a, b, c, 0, 0, rm, fl);
    case FMSUB_D: return fpu_fma_d(a, b, c, 0, 1, rm, fl);
    case FNMSUB_D: return fpu_fma_d(a, b, c, 1, 0, rm, fl);
    case FNMADD_D: return fpu_fma_d(a, b, c, 1, 1, rm, fl);
    case MIN_S: return fpu_min_s(as, bs, fl);
    case MAX_S: return fpu_max_s(as, bs, fl);
    case MIN_D: return fpu_min_d(a, b, fl);
    case MAX_D: return fpu_max_d(a, b, fl);
    case EQ_S: return (uint64_t)fpu_eq_s(as, bs, fl);
    case LT_S: return (uint64_t)fpu_lt_s(as, bs, fl);
    case LE_S: return (uint64_t)fpu_le_s(as, bs, fl);
    case EQ_D: return (uint64_t)fpu_eq_d(a, b, fl);
    case LT_D: return (uint64_t)fpu_lt_d(a, b, fl);
    case LE_D: return (uint64_t)fpu_le_d(a, b, fl);
    case CLASS_S: return fpu_class_s(as);
    case CLASS_D: return fpu_class_d(a);
    case W_S: return fpu_cvt_w_s(as, rm, fl);
    case WU_S: return fpu_cvt_wu_s(as, rm, fl);
    case L_S: return fpu_cvt_l_s(as, rm, fl);
    case LU_S: return fpu_cvt_lu_s(as, rm, fl);
    case W_D: return fpu_cvt_w_d(a, rm, fl);
    case WU_D: return fpu_cvt_wu_d(a, rm, fl);
    case L_D: return fpu_cvt_l_d(a, rm, fl);
    case LU_D: return fpu_cvt_lu_d(a, rm, fl);
    case S_W: return fpu_cvt_s_w(a, rm, fl);
    case S_WU: return fpu_cvt_s_wu(a, rm, fl);
    case S_L: return fpu_cvt_s_l(a, rm, fl);
    case S_LU: return fpu_cvt_s_lu(a, rm, fl);
    case D_W: return fpu_cvt_d_w(a, rm, fl);
    case D_WU: return fpu_cvt_d_wu(a, rm, fl);
    case D_L: return fpu_cvt_d_l(a, rm, fl);
    case D_LU: return fpu_cvt_d_lu(a, rm, fl);
    case S_D: return fpu_cvt_s_d(a, rm, fl);
    default: return fpu_cvt_d_s(as, fl);
    }
}

typedef struct {
    int op;
    unsigned rm;
    uint64_t a, b, c;
    uint64_t want;
    unsigned flags;
    int line;
} kat;

/* one row; K3 for three-operand rows; K5 expands to the five modes with the
 * same flags and per-mode results (rne, rtz, rdn, rup, rmm) */
#define K(op, rm, a, b, want, fl) {op, rm, a, b, 0, want, fl, __LINE__}
#define K3(op, rm, a, b, c, want, fl) {op, rm, a, b, c, want, fl, __LINE__}
#define K5(op, a, b, c, w0, w1, w2, w3, w4, fl)                                              \
    {op, RNE, a, b, c, w0, fl, __LINE__}, {op, RTZ, a, b, c, w1, fl, __LINE__},              \
        {op, RDN, a, b, c, w2, fl, __LINE__}, {op, RUP, a, b, c, w3, fl, __LINE__},          \
    {                                                                                        \
        op, RMM, a, b, c, w4, fl, __LINE__                                                   \
    }

/* Each case runs twice: with fflags clear, and with NX already accrued (the
 * flags are OR-ed in, so NX must be kept and nothing else may change; fpu.c
 * also takes a different internal path then). */
static void check_table(const kat *t, size_t n) {
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        for (unsigned pre = 0; pre <= NX; pre += NX) {
            unsigned fl = pre;
            uint64_t got = run(t[i].op, t[i].rm, t[i].a, t[i].b, t[i].c, &fl);
            if (got != t[i].want || fl != (t[i].flags | pre)) {
                print_error("line %d: %s rm=%u (%#llx, %#llx, %#llx) fflags %#x -> %#llx, %#x; "
                            "want %#llx, %#x\n",
                            t[i].line, op_names[t[i].op], t[i].rm, (unsigned long long)t[i].a,
                            (unsigned long long)t[i].b, (unsigned long long)t[i].c, pre,
                            (unsigned long long)got, fl, (unsigned long long)t[i].want,
                            t[i].flags | pre);
                bad++;
            }
        }
    if (bad) fail_msg("%d of %zu checks wrong", bad, 2 * n);
}
#define CHECK(table) check_table(table, sizeof table / sizeof table[0])

/* Single-precision encodings */
#define S_0 0x00000000u
#define S_N0 0x80000000u
#define S_1 0x3f800000u      /* 1.0 */
#define S_N1 0xbf800000u
#define S_2 0x40000000u
#define S_HALF 0x3f000000u   /* 0.5 */
#define S_NHALF 0xbf000000u
#define S_1_5 0x3fc00000u    /* 1.5 */
#define S_2_5 0x40200000u
#define S_N2_5 0xc0200000u
#define S_3 0x40400000u
#define S_INF 0x7f800000u
#define S_NINF 0xff800000u
#define S_QNAN 0x7fc00000u   /* canonical NaN */
#define S_SNAN 0x7f800001u
#define S_MAX 0x7f7fffffu    /* (2-2^-23)*2^127 */
#define S_NMAX 0xff7fffffu
#define S_MINN 0x00800000u   /* 2^-126 */
#define S_MINS 0x00000001u   /* 2^-149 */
#define S_MAXS 0x007fffffu
#define S_EPS24 0x33800000u  /* 2^-24 = half an ulp of 1.0 */

/* Double-precision encodings */
#define D_0 0x0000000000000000ull
#define D_N0 0x8000000000000000ull
#define D_1 0x3ff0000000000000ull
#define D_N1 0xbff0000000000000ull
#define D_2 0x4000000000000000ull
#define D_4 0x4010000000000000ull
#define D_HALF 0x3fe0000000000000ull
#define D_NHALF 0xbfe0000000000000ull
#define D_1_5 0x3ff8000000000000ull
#define D_N1_5 0xbff8000000000000ull
#define D_2_5 0x4004000000000000ull
#define D_N2_5 0xc004000000000000ull
#define D_2_75 0x4006000000000000ull
#define D_3 0x4008000000000000ull
#define D_INF 0x7ff0000000000000ull
#define D_NINF 0xfff0000000000000ull
#define D_QNAN 0x7ff8000000000000ull
#define D_SNAN 0x7ff0000000000001ull
#define D_MAX 0x7fefffffffffffffull  /* (2-2^-52)*2^1023 */
#define D_NMAX 0xffefffffffffffffull
#define D_MINN 0x0010000000000000ull  /* 2^-1022 */
#define D_MINS 0x0000000000000001ull  /* 2^-1074 */
#define D_MAXS 0x000fffffffffffffull
#define D_EPS53 0x3ca0000000000000ull /* 2^-53 = half an ulp of 1.0 */

/* ------------------------------------------------------------------------ */

/* Division by zero, invalid operations, infinities (IEEE 7.2, 7.3). */
static void test_special_results(void **state) {
    (void)state;
    static const kat t[] = {
        K(DIV_D, RNE, D_1, D_0, D_INF, DZ),        /* finite/+0: +inf, DZ */
        K(DIV_D, RNE, D_N1, D_0, D_NINF, DZ),      /* sign is the xor of the signs */
        K(DIV_D, RNE, D_1, D_N0, D_NINF, DZ),
        K(DIV_D, RTZ, D_1, D_0, D_INF, DZ),        /* exact infinity in every mode */
        K(DIV_S, RNE, S_1, S_0, S_INF, DZ),
        K(DIV_S, RDN, S_N1, S_0, S_NINF, DZ),
        K(DIV_D, RMM, D_3, D_N0, D_NINF, DZ),
        K(DIV_S, RMM, S_3, S_N0, S_NINF, DZ),
        K(DIV_D, RNE, D_0, D_0, D_QNAN, NV),       /* 0/0 invalid, canonical NaN */
        K(DIV_S, RNE, S_N0, S_0, S_QNAN, NV),
        K(DIV_D, RNE, D_INF, D_NINF, D_QNAN, NV),  /* inf/inf invalid */
        K(DIV_D, RMM, D_0, D_0, D_QNAN, NV),
        K(DIV_S, RMM, S_INF, S_INF, S_QNAN, NV),
        K(DIV_D, RNE, D_INF, D_0, D_INF, 0),       /* inf/0: exact inf, no DZ (operand not finite) */
        K(DIV_D, RMM, D_INF, D_0, D_INF, 0),
        K(DIV_D, RNE, D_0, D_INF, D_0, 0),         /* 0/inf = +0 exactly */
        K(DIV_D, RNE, D_1, D_NINF, D_N0, 0),       /* 1/-inf = -0 exactly */
        K(SUB_D, RNE, D_INF, D_INF, D_QNAN, NV),   /* inf-inf invalid */
        K(ADD_D, RNE, D_INF, D_NINF, D_QNAN, NV),
        K(ADD_D, RMM, D_NINF, D_INF, D_QNAN, NV),
        K(ADD_S, RNE, S_INF, S_NINF, S_QNAN, NV),
        K(SUB_S, RMM, S_NINF, S_NINF, S_QNAN, NV),
        K(ADD_D, RNE, D_INF, D_INF, D_INF, 0),     /* inf+inf exact */
        K(ADD_D, RNE, D_NINF, D_MAX, D_NINF, 0),
        K(MUL_D, RNE, D_0, D_INF, D_QNAN, NV),     /* 0*inf invalid */
        K(MUL_S, RNE, S_N0, S_INF, S_QNAN, NV),
        K(MUL_D, RMM, D_NINF, D_0, D_QNAN, NV),
        K(MUL_S, RMM, S_INF, S_N0, S_QNAN, NV),
        K(MUL_D, RNE, D_NINF, D_N1, D_INF, 0),     /* -inf * -1 = +inf exact */
        K(SQRT_D, RNE, D_N1, 0, D_QNAN, NV),       /* sqrt of negative invalid */
        K(SQRT_S, RNE, S_NINF, 0, S_QNAN, NV),
        K(SQRT_D, RMM, D_NINF, 0, D_QNAN, NV),
        K(SQRT_S, RMM, S_N1, 0, S_QNAN, NV),
        K(SQRT_D, RNE, D_N0, 0, D_N0, 0),          /* sqrt(-0) = -0 (IEEE 5.4.1) */
        K(SQRT_S, RMM, S_N0, 0, S_N0, 0),
        K(SQRT_D, RNE, D_INF, 0, D_INF, 0),
        K(SQRT_D, RNE, D_4, 0, D_2, 0),            /* exact root */
        K(SQRT_S, RMM, 0x40800000u, 0, S_2, 0),
        /* sqrt(2^-1074) = 2^-537 exactly: biased exponent 1023-537 = 0x1e6 */
        K(SQRT_D, RNE, D_MINS, 0, 0x1e60000000000000ull, 0),
        /* exact zero sums: +0 in every mode but RDN, where they are -0 (IEEE 6.3) */
        K(ADD_D, RNE, D_1, D_N1, D_0, 0),
        K(ADD_D, RDN, D_1, D_N1, D_N0, 0),
        K(ADD_D, RMM, D_1, D_N1, D_0, 0),
        K(SUB_D, RDN, D_2, D_2, D_N0, 0),
        K(SUB_D, RUP, D_2, D_2, D_0, 0),
        K(ADD_S, RDN, S_0, S_N0, S_N0, 0),         /* +0 + -0 */
        K(ADD_S, RNE, S_0, S_N0, S_0, 0),
        K(ADD_S, RMM, S_0, S_N0, S_0, 0),
        K(ADD_S, RDN, S_3, 0xc0400000u, S_N0, 0),  /* 3 + -3 */
        K(ADD_S, RMM, S_3, 0xc0400000u, S_0, 0),
        K(SUB_S, RDN, S_0, S_0, S_N0, 0),          /* +0 - +0 = +0 + -0 */
        K(SUB_S, RTZ, S_0, S_0, S_0, 0),
        K(ADD_D, RUP, D_N0, D_N0, D_N0, 0),        /* -0 + -0 = -0 in all modes */
        K(ADD_D, RMM, D_N0, D_N0, D_N0, 0),
        K(ADD_S, RUP, S_N0, S_N0, S_N0, 0),
    };
    CHECK(t);
}

/* NaN inputs: the canonical NaN comes out (no payload or sign propagation),
 * NV only for signaling NaNs (and for the ordered comparisons). */
static void test_nan_inputs(void **state) {
    (void)state;
    static const kat t[] = {
        K(ADD_D, RNE, D_QNAN, D_1, D_QNAN, 0),
        K(ADD_D, RNE, D_1, D_SNAN, D_QNAN, NV),
        K(ADD_D, RNE, 0x7ff8000000000123ull, D_1, D_QNAN, 0),  /* payload dropped */
        K(ADD_D, RNE, 0xfff8000000000000ull, D_1, D_QNAN, 0),  /* x86 default NaN -> canonical */
        K(ADD_D, RMM, D_SNAN, D_QNAN, D_QNAN, NV),
        K(SUB_D, RDN, 0xfff4000000000000ull, D_1, D_QNAN, NV), /* negative sNaN */
        K(ADD_S, RNE, S_SNAN, S_1, S_QNAN, NV),
        K(ADD_S, RNE, 0xffc00001u, S_1, S_QNAN, 0),            /* negative qNaN with payload */
        K(ADD_S, RMM, S_QNAN, S_1, S_QNAN, 0),
        K(SUB_S, RMM, S_1, S_SNAN, S_QNAN, NV),
        K(MUL_S, RNE, S_1, S_SNAN, S_QNAN, NV),
        K(MUL_S, RUP, S_1, 0x7fc12345u, S_QNAN, 0),
        K(MUL_D, RMM, D_SNAN, D_0, D_QNAN, NV),
        K(MUL_D, RNE, D_QNAN, D_INF, D_QNAN, 0),
        K(DIV_D, RNE, D_SNAN, D_1, D_QNAN, NV),
        K(DIV_S, RMM, S_QNAN, S_0, S_QNAN, 0),  /* NaN/0 is not a division by zero */
        K(DIV_D, RNE, D_QNAN, D_0, D_QNAN, 0),
        K(SQRT_S, RNE, S_SNAN, 0, S_QNAN, NV),
        K(SQRT_D, RNE, D_QNAN, 0, D_QNAN, 0),
        K(SQRT_D, RMM, 0xfff0000000000001ull, 0, D_QNAN, NV),
        K3(FMADD_D, RNE, D_QNAN, D_1, D_1, D_QNAN, 0),
        K3(FMADD_S, RNE, S_1, S_1, S_SNAN, S_QNAN, NV),
        K3(FMADD_S, RMM, S_1, S_QNAN, S_1, S_QNAN, 0),
        K3(FNMADD_D, RMM, D_1, D_1, D_SNAN, D_QNAN, NV),
        /* RISC-V: inf*0 + qNaN raises NV (IEEE leaves it optional) */
        K3(FMADD_D, RNE, D_INF, D_0, D_QNAN, D_QNAN, NV),
        K3(FMADD_S, RNE, S_0, S_INF, S_QNAN, S_QNAN, NV),
        K3(FMSUB_D, RMM, D_0, D_NINF, D_QNAN, D_QNAN, NV),
        K3(FNMSUB_S, RMM, S_NINF, S_N0, S_QNAN, S_QNAN, NV),
        K3(FMADD_D, RNE, D_INF, D_1, D_NINF, D_QNAN, NV),    /* inf + -inf */
        K3(FMSUB_S, RNE, S_INF, S_1, S_INF, S_QNAN, NV),     /* inf - inf */
        K3(FNMADD_D, RNE, D_INF, D_1, D_NINF, D_QNAN, NV),   /* -inf - (-inf) */
        K3(FMADD_D, RNE, D_INF, D_1, D_INF, D_INF, 0),
        K(S_D, RNE, D_SNAN, 0, S_QNAN, NV),
        K(S_D, RMM, 0x7ff8000000000123ull, 0, S_QNAN, 0),
        K(S_D, RTZ, 0xfff8000000000000ull, 0, S_QNAN, 0),
        K(D_S, RNE, S_SNAN, 0, D_QNAN, NV),
        K(D_S, RNE, 0xffc00000u, 0, D_QNAN, 0),
        K(D_S, RNE, 0x7fc00001u, 0, D_QNAN, 0),
    };
    CHECK(t);
}

/* fmin/fmax (2.2 semantics) and comparisons. */
static void test_minmax_compare(void **state) {
    (void)state;
    static const kat t[] = {
        K(MIN_D, RNE, D_0, D_N0, D_N0, 0),   /* -0 < +0 */
        K(MIN_D, RNE, D_N0, D_0, D_N0, 0),
        K(MAX_D, RNE, D_N0, D_0, D_0, 0),
        K(MAX_D, RNE, D_0, D_N0, D_0, 0),
        K(MIN_S, RNE, S_0, S_N0, S_N0, 0),
        K(MAX_S, RNE, S_N0, S_0, S_0, 0),
        K(MIN_D, RNE, D_QNAN, D_1, D_1, 0),  /* one NaN: the other operand */
        K(MIN_D, RNE, D_1, D_QNAN, D_1, 0),
        K(MAX_D, RNE, 0xfff8000000000000ull, D_N1, D_N1, 0),
        K(MIN_D, RNE, D_SNAN, D_1, D_1, NV), /* ... still NV for a signaling NaN */
        K(MAX_S, RNE, S_1, S_SNAN, S_1, NV),
        K(MIN_S, RNE, S_QNAN, S_NINF, S_NINF, 0),
        K(MIN_D, RNE, D_QNAN, 0x7ff8000000000001ull, D_QNAN, 0), /* both NaN: canonical */
        K(MAX_D, RNE, D_SNAN, D_QNAN, D_QNAN, NV),
        K(MAX_S, RNE, 0xffc00000u, 0xff800001u, S_QNAN, NV),
        K(MIN_S, RNE, 0x7fc00001u, 0xffc00000u, S_QNAN, 0),
        K(MIN_D, RNE, D_NINF, D_1, D_NINF, 0),
        K(MAX_D, RNE, D_INF, D_MAX, D_INF, 0),
        K(MIN_S, RNE, S_1, S_2, S_1, 0),
        K(MAX_S, RNE, S_N1, 0xc0000000u, S_N1, 0),  /* max(-1, -2) = -1 */
        K(MIN_D, RNE, D_N1, D_MINS, D_N1, 0),
        K(MAX_D, RNE, D_MINS, D_0, D_MINS, 0),
        K(MIN_D, RNE, 0x8000000000000001ull, D_N0, 0x8000000000000001ull, 0),
        /* feq quiet: NV only for sNaN; +0 == -0 */
        K(EQ_D, RNE, D_0, D_N0, 1, 0),
        K(EQ_D, RNE, D_1, D_1, 1, 0),
        K(EQ_D, RNE, D_1, D_2, 0, 0),
        K(EQ_D, RNE, D_QNAN, D_QNAN, 0, 0),
        K(EQ_D, RNE, D_QNAN, D_1, 0, 0),
        K(EQ_D, RNE, D_1, D_SNAN, 0, NV),
        K(EQ_S, RNE, S_N0, S_0, 1, 0),
        K(EQ_S, RNE, S_QNAN, S_1, 0, 0),
        K(EQ_S, RNE, S_SNAN, S_SNAN, 0, NV),
        K(EQ_S, RNE, S_INF, S_INF, 1, 0),
        /* flt/fle signaling: NV on any NaN, result 0 */
        K(LT_D, RNE, D_QNAN, D_1, 0, NV),
        K(LE_D, RNE, D_1, D_QNAN, 0, NV),
        K(LT_S, RNE, S_SNAN, S_1, 0, NV),
        K(LE_S, RNE, S_QNAN, S_QNAN, 0, NV),
        K(LT_D, RNE, D_N0, D_0, 0, 0),   /* -0 < +0 is false in IEEE comparisons */
        K(LE_D, RNE, D_N0, D_0, 1, 0),
        K(LE_D, RNE, D_0, D_N0, 1, 0),
        K(LT_S, RNE, S_N0, S_0, 0, 0),
        K(LE_S, RNE, S_0, S_N0, 1, 0),
        K(LT_D, RNE, D_N1, D_1, 1, 0),
        K(LT_D, RNE, D_1, D_1, 0, 0),
        K(LE_D, RNE, D_1, D_1, 1, 0),
        K(LT_D, RNE, 0xc000000000000000ull, D_N1, 1, 0), /* -2 < -1 */
        K(LE_D, RNE, D_N1, 0xc000000000000000ull, 0, 0),
        K(LT_D, RNE, D_NINF, D_INF, 1, 0),
        K(LT_D, RNE, D_MAX, D_INF, 1, 0),
        K(LT_D, RNE, D_0, D_MINS, 1, 0),
        K(LT_S, RNE, S_MINS, S_N0, 0, 0),
        K(LT_S, RNE, 0x80000001u, S_0, 1, 0),
        K(LE_S, RNE, S_INF, S_MAX, 0, 0),
    };
    CHECK(t);
}

/* fcvt to integer: round per rm, then clip to the destination range with NV
 * (and no NX) when the rounded value does not fit (spec Table 11.4); NaN
 * gives the largest positive value. 32-bit results are sign-extended, fcvt.wu
 * included. */
static void test_fcvt_to_int(void **state) {
    (void)state;
    static const kat t[] = {
        /* classic ties: 0.5 1.5 2.5 -2.5 -0.5, and 2.75 (not a tie) */
        K5(W_D, D_HALF, 0, 0, 0, 0, 0, 1, 1, NX),
        K5(W_D, D_1_5, 0, 0, 2, 1, 1, 2, 2, NX),
        K5(W_D, D_2_5, 0, 0, 2, 2, 2, 3, 3, NX),
        K5(W_D, D_N2_5, 0, 0, (uint64_t)-2, (uint64_t)-2, (uint64_t)-3, (uint64_t)-2, (uint64_t)-3, NX),
        K5(W_D, D_NHALF, 0, 0, 0, 0, (uint64_t)-1, 0, (uint64_t)-1, NX),
        K5(W_D, D_2_75, 0, 0, 3, 2, 2, 3, 3, NX),
        K5(L_S, S_2_5, 0, 0, 2, 2, 2, 3, 3, NX),
        K5(L_S, S_N2_5, 0, 0, (uint64_t)-2, (uint64_t)-2, (uint64_t)-3, (uint64_t)-2, (uint64_t)-3, NX),
        K5(LU_D, D_1_5, 0, 0, 2, 1, 1, 2, 2, NX),
        K5(WU_S, S_HALF, 0, 0, 0, 0, 0, 1, 1, NX),
        K(W_D, RNE, D_N0, 0, 0, 0),          /* -0 converts to 0 exactly */
        K(LU_S, RNE, S_N0, 0, 0, 0),
        K(W_S, RNE, S_MINS, 0, 0, NX),       /* tiny: inexact 0 */
        K(W_S, RUP, S_MINS, 0, 1, NX),
        K(L_D, RDN, 0x8000000000000001ull, 0, (uint64_t)-1, NX),

        /* fcvt.w.d around 2^31 - 1 and -2^31 */
        K(W_D, RNE, 0x41dfffffffc00000ull, 0, 0x7fffffff, 0),                 /* 2^31-1 exact */
        /* 2^31-0.5: tie between 2^31-1 (odd) and 2^31 (even): RNE, RUP, RMM round to 2^31,
         * which does not fit (clip, NV only); RTZ and RDN give 2^31-1, NX */
        K(W_D, RNE, 0x41dfffffffe00000ull, 0, 0x7fffffff, NV),
        K(W_D, RTZ, 0x41dfffffffe00000ull, 0, 0x7fffffff, NX),
        K(W_D, RDN, 0x41dfffffffe00000ull, 0, 0x7fffffff, NX),
        K(W_D, RUP, 0x41dfffffffe00000ull, 0, 0x7fffffff, NV),
        K(W_D, RMM, 0x41dfffffffe00000ull, 0, 0x7fffffff, NV),
        K(W_D, RNE, 0x41e0000000000000ull, 0, 0x7fffffff, NV),                /* 2^31: clip */
        K(W_D, RTZ, 0x41e0000000000000ull, 0, 0x7fffffff, NV),
        K(W_D, RNE, 0xc1e0000000000000ull, 0, 0xffffffff80000000ull, 0),      /* -2^31 exact */
        K(W_D, RNE, 0xc1e0000000200000ull, 0, 0xffffffff80000000ull, NV),     /* -2^31-1 */
        /* -2^31-0.5: RNE -> -2^31 (even) fits; RDN/RMM -> -2^31-1 clips */
        K(W_D, RNE, 0xc1e0000000100000ull, 0, 0xffffffff80000000ull, NX),
        K(W_D, RTZ, 0xc1e0000000100000ull, 0, 0xffffffff80000000ull, NX),
        K(W_D, RDN, 0xc1e0000000100000ull, 0, 0xffffffff80000000ull, NV),
        K(W_D, RUP, 0xc1e0000000100000ull, 0, 0xffffffff80000000ull, NX),
        K(W_D, RMM, 0xc1e0000000100000ull, 0, 0xffffffff80000000ull, NV),
        K(W_D, RNE, D_INF, 0, 0x7fffffff, NV),
        K(W_D, RNE, D_NINF, 0, 0xffffffff80000000ull, NV),
        K(W_D, RNE, D_QNAN, 0, 0x7fffffff, NV),
        K(W_D, RNE, 0xfff8000000000000ull, 0, 0x7fffffff, NV), /* NaN sign ignored */
        K(W_D, RNE, D_SNAN, 0, 0x7fffffff, NV),
        K(W_D, RNE, 0x4202a05f20000000ull, 0, 0x7fffffff, NV),  /* 1e10 */
        /* fcvt.w.s: 2^31 (0x4f000000) clips; the float below is 2^31-128 */
        K(W_S, RNE, 0x4f000000u, 0, 0x7fffffff, NV),
        K(W_S, RNE, 0x4effffffu, 0, 0x7fffff80, 0),
        K(W_S, RNE, 0xcf000000u, 0, 0xffffffff80000000ull, 0),
        K(W_S, RNE, 0xcf000001u, 0, 0xffffffff80000000ull, NV), /* -(2^31+256) */
        K(W_S, RNE, S_QNAN, 0, 0x7fffffff, NV),
        K(W_S, RNE, S_NINF, 0, 0xffffffff80000000ull, NV),

        /* fcvt.wu: range [0, 2^32-1], results sign-extended from bit 31 */
        K(WU_D, RNE, 0x41efffffffe00000ull, 0, 0xffffffffffffffffull, 0),     /* 2^32-1 */
        K(WU_D, RNE, 0x41e0000000000000ull, 0, 0xffffffff80000000ull, 0),     /* 2^31 */
        K(WU_D, RNE, 0x41f0000000000000ull, 0, 0xffffffffffffffffull, NV),    /* 2^32 */
        /* 2^32-0.5: RNE/RUP/RMM round to 2^32 (clip, NV); RTZ/RDN give 2^32-1 */
        K(WU_D, RNE, 0x41effffffff00000ull, 0, 0xffffffffffffffffull, NV),
        K(WU_D, RTZ, 0x41effffffff00000ull, 0, 0xffffffffffffffffull, NX),
        K(WU_D, RDN, 0x41effffffff00000ull, 0, 0xffffffffffffffffull, NX),
        K(WU_D, RUP, 0x41effffffff00000ull, 0, 0xffffffffffffffffull, NV),
        K(WU_D, RMM, 0x41effffffff00000ull, 0, 0xffffffffffffffffull, NV),
        /* -0.5 rounds to -0 (fits: 0, NX) or to -1 (clips to 0, NV) */
        K(WU_D, RNE, D_NHALF, 0, 0, NX),
        K(WU_D, RTZ, D_NHALF, 0, 0, NX),
        K(WU_D, RDN, D_NHALF, 0, 0, NV),
        K(WU_D, RUP, D_NHALF, 0, 0, NX),
        K(WU_D, RMM, D_NHALF, 0, 0, NV),
        K(WU_D, RNE, D_N1, 0, 0, NV),
        K(WU_D, RNE, D_N0, 0, 0, 0),
        K(WU_D, RNE, D_NINF, 0, 0, NV),
        K(WU_D, RNE, D_INF, 0, 0xffffffffffffffffull, NV),
        K(WU_D, RNE, D_QNAN, 0, 0xffffffffffffffffull, NV),
        K(WU_S, RNE, 0x4f800000u, 0, 0xffffffffffffffffull, NV),             /* 2^32 */
        K(WU_S, RNE, 0x4f7fffffu, 0, 0xffffffffffffff00ull, 0),               /* 2^32-256 */
        K(WU_S, RNE, S_NHALF, 0, 0, NX),
        K(WU_S, RMM, S_NHALF, 0, 0, NV),
        K(WU_S, RNE, S_N1, 0, 0, NV),
        K(WU_S, RNE, S_SNAN, 0, 0xffffffffffffffffull, NV),

        /* fcvt.l: [-2^63, 2^63-1] */
        K(L_D, RNE, 0x43e0000000000000ull, 0, 0x7fffffffffffffffull, NV),     /* 2^63 */
        K(L_D, RNE, 0x43dfffffffffffffull, 0, 0x7ffffffffffffc00ull, 0),      /* 2^63-1024 */
        K(L_D, RNE, 0xc3e0000000000000ull, 0, 0x8000000000000000ull, 0),      /* -2^63 */
        K(L_D, RNE, 0xc3e0000000000001ull, 0, 0x8000000000000000ull, NV),     /* -2^63-2048 */
        K(L_D, RNE, D_INF, 0, 0x7fffffffffffffffull, NV),
        K(L_D, RNE, D_NINF, 0, 0x8000000000000000ull, NV),
        K(L_D, RNE, D_QNAN, 0, 0x7fffffffffffffffull, NV),
        K(L_S, RNE, 0x5f000000u, 0, 0x7fffffffffffffffull, NV),               /* 2^63 */
        K(L_S, RNE, 0x5effffffu, 0, 0x7fffff8000000000ull, 0),                /* 2^63-2^39 */
        K(L_S, RNE, 0xdf000000u, 0, 0x8000000000000000ull, 0),
        K(L_S, RNE, 0xdf000001u, 0, 0x8000000000000000ull, NV),
        K(L_S, RNE, S_SNAN, 0, 0x7fffffffffffffffull, NV),

        /* fcvt.lu: [0, 2^64-1] */
        K(LU_D, RNE, 0x43f0000000000000ull, 0, 0xffffffffffffffffull, NV),    /* 2^64 */
        K(LU_D, RNE, 0x43efffffffffffffull, 0, 0xfffffffffffff800ull, 0),     /* 2^64-2048 */
        K(LU_D, RNE, 0x43e0000000000000ull, 0, 0x8000000000000000ull, 0),     /* 2^63 */
        K(LU_D, RNE, D_NHALF, 0, 0, NX),
        K(LU_D, RDN, D_NHALF, 0, 0, NV),
        K(LU_D, RNE, D_N1, 0, 0, NV),
        K(LU_D, RNE, D_NINF, 0, 0, NV),
        K(LU_D, RNE, D_QNAN, 0, 0xffffffffffffffffull, NV),
        K(LU_S, RNE, 0x5f800000u, 0, 0xffffffffffffffffull, NV),              /* 2^64 */
        K(LU_S, RNE, 0x5f7fffffu, 0, 0xffffff0000000000ull, 0),               /* 2^64-2^40 */
        K(LU_S, RUP, S_NHALF, 0, 0, NX),
        K(LU_S, RNE, S_NINF, 0, 0, NV),
    };
    CHECK(t);
}

/* Rounding of arithmetic results in all five modes on ties and near-ties. */
static void test_rounding(void **state) {
    (void)state;
    static const kat t[] = {
        /* 1 + 2^-24: halfway between 1 (even) and 1+2^-23 */
        K5(ADD_S, S_1, S_EPS24, 0, S_1, S_1, S_1, 0x3f800001u, 0x3f800001u, NX),
        K5(ADD_S, S_N1, 0xb3800000u, 0, S_N1, S_N1, 0xbf800001u, S_N1, 0xbf800001u, NX),
        /* (1+2^-23) + 2^-24: halfway between 1+2^-23 (odd) and 1+2^-22 (even) */
        K5(ADD_S, 0x3f800001u, S_EPS24, 0, 0x3f800002u, 0x3f800001u, 0x3f800001u, 0x3f800002u,
           0x3f800002u, NX),
        /* 1 + (2^-24 + 2^-47): just above the tie */
        K5(ADD_S, S_1, 0x33800001u, 0, 0x3f800001u, S_1, S_1, 0x3f800001u, 0x3f800001u, NX),
        /* 1 + 2^-53 in double: tie, 1.0 is even */
        K5(ADD_D, D_1, D_EPS53, 0, D_1, D_1, D_1, 0x3ff0000000000001ull, 0x3ff0000000000001ull, NX),
        /* 1 - 2^-54: tie between 1-2^-53 (odd) and 1.0 (even); RMM picks the larger magnitude 1.0 */
        K5(SUB_D, D_1, 0x3c90000000000000ull, 0, D_1, 0x3fefffffffffffffull, 0x3fefffffffffffffull, D_1,
           D_1, NX),
        /* -(1+2^-53) via -1 - 2^-53 */
        K5(SUB_D, D_N1, D_EPS53, 0, D_N1, D_N1, 0xbff0000000000001ull, D_N1, 0xbff0000000000001ull, NX),
        /* (1+3*2^-23)*1.5 = 1.5 + 4.5 ulp: tie between +4 ulp (even) and +5 ulp */
        K5(MUL_S, 0x3f800003u, S_1_5, 0, 0x3fc00004u, 0x3fc00004u, 0x3fc00004u, 0x3fc00005u, 0x3fc00005u,
           NX),
        /* same in double: (1+3*2^-52)*1.5 */
        K5(MUL_D, 0x3ff0000000000003ull, D_1_5, 0, 0x3ff8000000000004ull, 0x3ff8000000000004ull,
           0x3ff8000000000004ull, 0x3ff8000000000005ull, 0x3ff8000000000005ull, NX),
        /* negative product: RDN goes away from zero, RUP toward */
        K5(MUL_D, 0x3ff0000000000003ull, D_N1_5, 0, 0xbff8000000000004ull, 0xbff8000000000004ull,
           0xbff8000000000005ull, 0xbff8000000000004ull, 0xbff8000000000005ull, NX),
        /* 1/3: 0x3fd5555555555555 is below 1/3 (the next bit pattern 0101... continues), so
         * RNE/RTZ/RDN/RMM give ...555 and RUP ...556 */
        K5(DIV_D, D_1, D_3, 0, 0x3fd5555555555555ull, 0x3fd5555555555555ull, 0x3fd5555555555555ull,
           0x3fd5555555555556ull, 0x3fd5555555555555ull, NX),
        /* 2/3 = 0.101010...b: same pattern one binade up, remainder below half again */
        K5(DIV_D, D_2, D_3, 0, 0x3fe5555555555555ull, 0x3fe5555555555555ull, 0x3fe5555555555555ull,
           0x3fe5555555555556ull, 0x3fe5555555555555ull, NX),
        /* sqrt(2) = 1.41421356237309504880...; 0x3ff6a09e667f3bcd = 1.4142135623730951454... lies
         * above it and is nearest; the double below (..bcc) is the truncation */
        K5(SQRT_D, D_2, 0, 0, 0x3ff6a09e667f3bcdull, 0x3ff6a09e667f3bccull, 0x3ff6a09e667f3bccull,
           0x3ff6a09e667f3bcdull, 0x3ff6a09e667f3bcdull, NX),
        /* sqrt(3) = 1.7320508075688772935...; 0x3ffbb67ae8584caa = 1.7320508075688771931... is
         * below it and nearest (the remainder 3*2^104 - m^2 of m = 0x1bb67ae8584caa is under
         * m + 1/4): RNE/RMM round down, RUP up */
        K5(SQRT_D, D_3, 0, 0, 0x3ffbb67ae8584caaull, 0x3ffbb67ae8584caaull, 0x3ffbb67ae8584caaull,
           0x3ffbb67ae8584cabull, 0x3ffbb67ae8584caaull, NX),
        /* sqrtf(2): 0x3fb504f3 = 1.41421353816986... is below sqrt(2) and nearest */
        K5(SQRT_S, S_2, 0, 0, 0x3fb504f3u, 0x3fb504f3u, 0x3fb504f3u, 0x3fb504f4u, 0x3fb504f3u, NX),
        /* fcvt.s.d of 1+2^-24 (tie, 1.0 even) and 1+3*2^-24 (tie, 1+2^-22 even) */
        K5(S_D, 0x3ff0000010000000ull, 0, 0, S_1, S_1, S_1, 0x3f800001u, 0x3f800001u, NX),
        K5(S_D, 0x3ff0000030000000ull, 0, 0, 0x3f800002u, 0x3f800001u, 0x3f800001u, 0x3f800002u,
           0x3f800002u, NX),
        K5(S_D, 0xbff0000010000000ull, 0, 0, S_N1, S_N1, 0xbf800001u, S_N1, 0xbf800001u, NX),
        /* 1 + 2^-24 + 2^-52: just above the tie */
        K5(S_D, 0x3ff0000010000001ull, 0, 0, 0x3f800001u, S_1, S_1, 0x3f800001u, 0x3f800001u, NX),
        K(S_D, RNE, D_1_5, 0, S_1_5, 0),                 /* exact */
        K(S_D, RMM, D_N0, 0, S_N0, 0),
        K(S_D, RTZ, D_NINF, 0, S_NINF, 0),
    };
    CHECK(t);
}

/* Integer -> float: NX when the integer needs more significand bits. */
static void test_int_to_float(void **state) {
    (void)state;
    static const kat t[] = {
        /* 2^24+1: tie between 2^24 (even) and 2^24+2 */
        K5(S_W, 0x01000001, 0, 0, 0x4b800000u, 0x4b800000u, 0x4b800000u, 0x4b800001u, 0x4b800001u, NX),
        K5(S_L, (uint64_t)-0x01000001, 0, 0, 0xcb800000u, 0xcb800000u, 0xcb800001u, 0xcb800000u,
           0xcb800001u, NX),
        /* 2^24+3: tie between 2^24+2 (odd significand) and 2^24+4 (even) */
        K5(S_WU, 0x01000003, 0, 0, 0x4b800002u, 0x4b800001u, 0x4b800001u, 0x4b800002u, 0x4b800002u, NX),
        /* 2^53+1 in double */
        K5(D_L, (1ull << 53) + 1, 0, 0, 0x4340000000000000ull, 0x4340000000000000ull, 0x4340000000000000ull,
           0x4340000000000001ull, 0x4340000000000001ull, NX),
        /* 2^64-1: nearest are 2^64 and 2^64-2^40 (float) / 2^64-2^11 (double) */
        K5(S_LU, 0xffffffffffffffffull, 0, 0, 0x5f800000u, 0x5f7fffffu, 0x5f7fffffu, 0x5f800000u,
           0x5f800000u, NX),
        K5(D_LU, 0xffffffffffffffffull, 0, 0, 0x43f0000000000000ull, 0x43efffffffffffffull,
           0x43efffffffffffffull, 0x43f0000000000000ull, 0x43f0000000000000ull, NX),
        /* 2^63+2^39 = 2^63 + half a float ulp at 2^63: tie, 2^63 is even */
        K5(S_LU, 0x8000008000000000ull, 0, 0, 0x5f000000u, 0x5f000000u, 0x5f000000u, 0x5f000001u,
           0x5f000001u, NX),
        /* 2^31-1: between 2^31-128 and 2^31, nearer 2^31 */
        K5(S_W, 0x7fffffff, 0, 0, 0x4f000000u, 0x4effffffu, 0x4effffffu, 0x4f000000u, 0x4f000000u, NX),
        K5(S_WU, 0xffffffff, 0, 0, 0x4f800000u, 0x4f7fffffu, 0x4f7fffffu, 0x4f800000u, 0x4f800000u, NX),
        /* W forms use the low 32 bits of the register */
        K(S_W, RNE, 0x1234567800000001ull, 0, S_1, 0),
        K(S_W, RNE, 0x0000000080000000ull, 0, 0xcf000000u, 0),      /* -2^31 */
        K(S_WU, RNE, 0xffffffff80000000ull, 0, 0x4f000000u, 0),     /* 2^31 */
        K(D_W, RNE, 0x00000000ffffffffull, 0, D_N1, 0),
        K(D_WU, RNE, 0xffffffffffffffffull, 0, 0x41efffffffe00000ull, 0), /* 2^32-1 exact */
        K(D_W, RMM, 0x7fffffff, 0, 0x41dfffffffc00000ull, 0),
        K(D_L, RNE, 0x8000000000000000ull, 0, 0xc3e0000000000000ull, 0),  /* -2^63 exact */
        K(D_L, RMM, 0x8000000000000000ull, 0, 0xc3e0000000000000ull, 0),
        K(S_L, RNE, 0x8000000000000000ull, 0, 0xdf000000u, 0),
        K(D_LU, RNE, 0x8000000000000000ull, 0, 0x43e0000000000000ull, 0),
        K(S_L, RNE, 0, 0, S_0, 0),                                  /* +0, never -0 */
        K(D_LU, RDN, 0, 0, D_0, 0),
        K(S_LU, RMM, 0, 0, S_0, 0),
    };
    CHECK(t);
}

/* Overflow: rounds to inf or to the largest finite number by mode, OF|NX. */
static void test_overflow(void **state) {
    (void)state;
    static const kat t[] = {
        K5(MUL_D, D_MAX, D_2, 0, D_INF, D_MAX, D_MAX, D_INF, D_INF, OF | NX),
        K5(MUL_D, D_NMAX, D_2, 0, D_NINF, D_NMAX, D_NINF, D_NMAX, D_NINF, OF | NX),
        K5(ADD_S, S_MAX, S_MAX, 0, S_INF, S_MAX, S_MAX, S_INF, S_INF, OF | NX),
        K5(MUL_S, S_NMAX, S_2, 0, S_NINF, S_NMAX, S_NINF, S_NMAX, S_NINF, OF | NX),
        K5(DIV_D, D_MAX, D_HALF, 0, D_INF, D_MAX, D_MAX, D_INF, D_INF, OF | NX),
        /* max + ulp/2 (2^970) is a tie between max (odd) and 2^1024: RNE/RMM/RUP round to 2^1024,
         * which overflows; RTZ/RDN give max, which is merely inexact */
        K(ADD_D, RNE, D_MAX, 0x7c90000000000000ull, D_INF, OF | NX),
        K(ADD_D, RMM, D_MAX, 0x7c90000000000000ull, D_INF, OF | NX),
        K(ADD_D, RUP, D_MAX, 0x7c90000000000000ull, D_INF, OF | NX),
        K(ADD_D, RTZ, D_MAX, 0x7c90000000000000ull, D_MAX, NX),
        K(ADD_D, RDN, D_MAX, 0x7c90000000000000ull, D_MAX, NX),
        /* max + ulp/4: below the tie */
        K(ADD_D, RNE, D_MAX, 0x7c80000000000000ull, D_MAX, NX),
        K(ADD_D, RMM, D_MAX, 0x7c80000000000000ull, D_MAX, NX),
        K(ADD_D, RUP, D_MAX, 0x7c80000000000000ull, D_INF, OF | NX),
        /* fcvt.s.d of 2^128 (biased 1023+128 = 0x47f), beyond FLT_MAX */
        K5(S_D, 0x47f0000000000000ull, 0, 0, S_INF, S_MAX, S_MAX, S_INF, S_INF, OF | NX),
        K5(S_D, 0xc7f0000000000000ull, 0, 0, S_NINF, S_NMAX, S_NINF, S_NMAX, S_NINF, OF | NX),
        /* FLT_MAX + half a float ulp (0x47effffff0000000): tie, overflows when rounded up */
        K(S_D, RNE, 0x47effffff0000000ull, 0, S_INF, OF | NX),
        K(S_D, RMM, 0x47effffff0000000ull, 0, S_INF, OF | NX),
        K(S_D, RTZ, 0x47effffff0000000ull, 0, S_MAX, NX),
        K(S_D, RNE, 0x47efffffe0000000ull, 0, S_MAX, 0), /* FLT_MAX itself, exact */
        K(S_D, RNE, D_MAX, 0, S_INF, OF | NX),
        K(S_D, RDN, D_MAX, 0, S_MAX, OF | NX),
    };
    CHECK(t);
}

/* Underflow: tininess after rounding, UF only when tiny and inexact. */
static void test_underflow(void **state) {
    (void)state;
    static const kat t[] = {
        /* exact subnormal results: no flags */
        K(MUL_D, RNE, D_MINN, D_HALF, 0x0008000000000000ull, 0),  /* 2^-1023 */
        K(MUL_D, RMM, D_MINN, D_HALF, 0x0008000000000000ull, 0),
        K(ADD_D, RNE, D_MINS, D_MINS, 0x0000000000000002ull, 0),
        K(SUB_D, RNE, D_MINN, D_MINS, D_MAXS, 0),
        K(SUB_D, RMM, D_MINN, D_MINS, D_MAXS, 0),
        K(MUL_S, RNE, S_MINN, S_HALF, 0x00400000u, 0),
        K(MUL_S, RMM, S_MINN, S_HALF, 0x00400000u, 0),
        K(DIV_S, RTZ, S_MAXS, S_1, S_MAXS, 0),
        /* 2^-1075 = half the smallest subnormal: tie between 0 (even) and 2^-1074 */
        K5(DIV_D, D_MINS, D_2, 0, D_0, D_0, D_0, D_MINS, D_MINS, UF | NX),
        K5(DIV_D, 0x8000000000000001ull, D_2, 0, D_N0, D_N0, 0x8000000000000001ull, D_N0,
           0x8000000000000001ull, UF | NX),
        /* 3*2^-1074 / 2 = 1.5 units: tie between 1 and 2 (even) */
        K5(MUL_D, 0x0000000000000003ull, D_HALF, 0, 0x2ull, 0x1ull, 0x1ull, 0x2ull, 0x2ull, UF | NX),
        /* 5*2^-1074 / 2 = 2.5 units: tie between 2 (even) and 3 */
        K5(DIV_D, 0x0000000000000005ull, D_2, 0, 0x2ull, 0x2ull, 0x2ull, 0x3ull, 0x3ull, UF | NX),
        K5(DIV_S, 0x00000005u, S_2, 0, 0x2u, 0x2u, 0x2u, 0x3u, 0x3u, UF | NX),
        /* (1+2^-23)*2^-127: 2^-127 + 2^-150, half a unit above 0x00400000 (even) */
        K5(MUL_S, 0x00800001u, S_HALF, 0, 0x00400000u, 0x00400000u, 0x00400000u, 0x00400001u,
           0x00400001u, UF | NX),
        /* (2-2^-52) * 2^-1023 = 2^-1022 - 2^-1075 has 53 bits: exact with an unbounded
         * exponent, so tiny; as a subnormal it is a tie between max subnormal (odd) and 2^-1022.
         * Rounding up gives the smallest normal and still UF (tiny after rounding, inexact) */
        K5(MUL_D, 0x3fffffffffffffffull, 0x0008000000000000ull, 0, D_MINN, D_MAXS, D_MAXS, D_MINN,
           D_MINN, UF | NX),
        /* (1-2^-27)(1+2^-27)*2^-1022 = (1-2^-54)*2^-1022 needs 54 bits: with an unbounded
         * exponent RNE/RMM/RUP round it to 2^-1022, so it is NOT tiny (NX only); RTZ/RDN
         * round it below 2^-1022: tiny, UF|NX */
        K(MUL_D, RNE, 0x3feffffffc000000ull, 0x0010000002000000ull, D_MINN, NX),
        K(MUL_D, RMM, 0x3feffffffc000000ull, 0x0010000002000000ull, D_MINN, NX),
        K(MUL_D, RUP, 0x3feffffffc000000ull, 0x0010000002000000ull, D_MINN, NX),
        K(MUL_D, RTZ, 0x3feffffffc000000ull, 0x0010000002000000ull, D_MAXS, UF | NX),
        K(MUL_D, RDN, 0x3feffffffc000000ull, 0x0010000002000000ull, D_MAXS, UF | NX),
        /* fcvt.s.d into the single subnormal range */
        K(S_D, RNE, 0x3730000000000000ull, 0, 0x00000200u, 0),  /* 2^-140, exact subnormal */
        /* 1.5*2^-149: tie between 1 and 2 units */
        K5(S_D, 0x36a8000000000000ull, 0, 0, 0x2u, 0x1u, 0x1u, 0x2u, 0x2u, UF | NX),
        /* 2.5*2^-149: tie between 2 and 3 units */
        K5(S_D, 0x36b4000000000000ull, 0, 0, 0x2u, 0x2u, 0x2u, 0x3u, 0x3u, UF | NX),
        /* 2^-150: tie between 0 and the smallest subnormal */
        K5(S_D, 0x3690000000000000ull, 0, 0, S_0, S_0, S_0, S_MINS, S_MINS, UF | NX),
        K5(S_D, 0xb690000000000000ull, 0, 0, S_N0, S_N0, 0x80000001u, S_N0, 0x80000001u, UF | NX),
        /* the smallest normal double is far below the single range */
        K5(S_D, D_MINN, 0, 0, S_0, S_0, S_0, S_MINS, S_0, UF | NX),
        /* (1-2^-24)*2^-126 (24 bits: tiny with unbounded exponent): tie between max subnormal
         * (odd) and 2^-126; UF even when rounded up to the smallest normal */
        K5(S_D, 0x380fffffe0000000ull, 0, 0, S_MINN, S_MAXS, S_MAXS, S_MINN, S_MINN, UF | NX),
        /* (1-2^-25)*2^-126 (25 bits): RNE/RMM/RUP round it to 2^-126 with unbounded exponent:
         * not tiny, NX only; RTZ/RDN: tiny, UF|NX */
        K(S_D, RNE, 0x380ffffff0000000ull, 0, S_MINN, NX),
        K(S_D, RMM, 0x380ffffff0000000ull, 0, S_MINN, NX),
        K(S_D, RUP, 0x380ffffff0000000ull, 0, S_MINN, NX),
        K(S_D, RTZ, 0x380ffffff0000000ull, 0, S_MAXS, UF | NX),
        K(S_D, RDN, 0x380ffffff0000000ull, 0, S_MAXS, UF | NX),
        /* fcvt.d.s is exact, subnormal singles included: 2^-149 = biased 1023-149 = 0x36a */
        K(D_S, RNE, S_MINS, 0, 0x36a0000000000000ull, 0),
        K(D_S, RNE, S_N0, 0, D_N0, 0),
        K(D_S, RNE, S_NINF, 0, D_NINF, 0),
    };
    CHECK(t);
}

/* Fused multiply-add: one rounding of the exact a*b+c. */
static void test_fma(void **state) {
    (void)state;
    static const kat t[] = {
        /* (1+2^-52)(1-2^-52) - 1 = -2^-104 exactly (separately rounded: 1 - 1 = 0) */
        K3(FMADD_D, RNE, 0x3ff0000000000001ull, 0x3feffffffffffffeull, D_N1, 0xb970000000000000ull, 0),
        K3(FMSUB_D, RMM, 0x3ff0000000000001ull, 0x3feffffffffffffeull, D_1, 0xb970000000000000ull, 0),
        /* (1+2^-23)(1-2^-23) - 1 = -2^-46 exactly */
        K3(FMADD_S, RNE, 0x3f800001u, 0x3f7ffffeu, S_N1, 0xa8800000u, 0),
        K3(FMADD_S, RMM, 0x3f800001u, 0x3f7ffffeu, S_N1, 0xa8800000u, 0),
        /* (1+2^-27)^2 + 2^-53 = 1 + 2^-26 + 2^-53 + 2^-54: above the tie, rounds up;
         * rounding the product first (to 1+2^-26) would make it a tie going to even 1+2^-26 */
        K5(FMADD_D, 0x3ff0000002000000ull, 0x3ff0000002000000ull, D_EPS53, 0x3ff0000004000001ull,
           0x3ff0000004000000ull, 0x3ff0000004000000ull, 0x3ff0000004000001ull, 0x3ff0000004000001ull,
           NX),
        /* (1+2^-12)^2 + 2^-24 = 1 + 2^-11 + 2^-23 exactly (separately: two ties to even -> 1+2^-11) */
        K5(FMADD_S, 0x3f800800u, 0x3f800800u, S_EPS24, 0x3f801001u, 0x3f801001u, 0x3f801001u,
           0x3f801001u, 0x3f801001u, 0),
        /* (1+2^-51)*1 + 2^-53: tie between 1+2^-51 (even) and 1+3*2^-52 */
        K5(FMADD_D, 0x3ff0000000000002ull, D_1, D_EPS53, 0x3ff0000000000002ull, 0x3ff0000000000002ull,
           0x3ff0000000000002ull, 0x3ff0000000000003ull, 0x3ff0000000000003ull, NX),
        K5(FMADD_S, 0x3f800002u, S_1, S_EPS24, 0x3f800002u, 0x3f800002u, 0x3f800002u, 0x3f800003u,
           0x3f800003u, NX),
        /* fnmsub: -(a*b) + c; fnmadd: -(a*b) - c */
        K3(FNMSUB_D, RNE, D_2, D_3, D_1, 0xc014000000000000ull, 0), /* -6+1 = -5 */
        K3(FNMADD_D, RNE, D_2, D_3, D_1, 0xc01c000000000000ull, 0), /* -6-1 = -7 */
        K3(FMSUB_D, RNE, D_2, D_3, D_1, 0x4014000000000000ull, 0),  /* 6-1 = 5 */
        K3(FNMSUB_S, RNE, S_2, S_3, S_1, 0xc0a00000u, 0),
        K3(FNMADD_S, RMM, S_2, S_3, S_1, 0xc0e00000u, 0),
        K3(FMSUB_S, RMM, S_2, S_3, S_1, 0x40a00000u, 0),
        /* exact zero results: +0 except in RDN; -0 + -0 = -0 */
        K3(FNMADD_D, RNE, D_1, D_1, D_N1, D_0, 0),  /* -1 + 1 */
        K3(FNMADD_D, RDN, D_1, D_1, D_N1, D_N0, 0),
        K3(FNMADD_D, RMM, D_1, D_1, D_N1, D_0, 0),
        K3(FMSUB_D, RNE, D_0, D_1, D_0, D_0, 0),    /* +0 - +0 */
        K3(FMSUB_D, RDN, D_0, D_1, D_0, D_N0, 0),
        K3(FMADD_D, RUP, D_N0, D_1, D_N0, D_N0, 0),
        K3(FMADD_S, RDN, S_1, S_N1, S_1, S_N0, 0),
        K3(FMADD_S, RTZ, S_1, S_N1, S_1, S_0, 0),
        K3(FMADD_S, RMM, S_N0, S_1, S_N0, S_N0, 0),
        K3(FMSUB_S, RDN, S_0, S_1, S_0, S_N0, 0),
        /* product zero, addend nonzero: the addend exactly */
        K3(FMADD_D, RNE, D_0, D_INF - 1, D_3, D_3, 0),
        /* overflow and underflow through the fused path */
        K3(FMADD_D, RNE, D_MAX, D_2, D_NMAX, D_MAX, 0),             /* 2max - max = max exactly */
        K3(FMADD_D, RTZ, D_MAX, D_MAX, D_1, D_MAX, OF | NX),
        K3(FMADD_S, RMM, S_MAX, S_MAX, S_1, S_INF, OF | NX),
        K3(FMADD_D, RNE, D_MINN, D_HALF, D_0, 0x0008000000000000ull, 0),
        K3(FMADD_D, RMM, D_MINS, D_HALF, D_0, D_MINS, UF | NX),     /* 2^-1075: tie, away */
        K3(FMADD_D, RNE, D_MINS, D_HALF, D_0, D_0, UF | NX),        /* ... to even (0) */
        K3(FMADD_S, RMM, S_MINS, S_HALF, S_N0, S_MINS, UF | NX),
    };
    CHECK(t);
}

/* fclass: one bit per class (spec table). */
static void test_fclass(void **state) {
    (void)state;
    static const kat t[] = {
        K(CLASS_S, 0, S_NINF, 0, 1 << 0, 0),
        K(CLASS_S, 0, S_N1, 0, 1 << 1, 0),
        K(CLASS_S, 0, 0x80000001u, 0, 1 << 2, 0),
        K(CLASS_S, 0, S_N0, 0, 1 << 3, 0),
        K(CLASS_S, 0, S_0, 0, 1 << 4, 0),
        K(CLASS_S, 0, S_MAXS, 0, 1 << 5, 0),
        K(CLASS_S, 0, S_MINN, 0, 1 << 6, 0),
        K(CLASS_S, 0, S_INF, 0, 1 << 7, 0),
        K(CLASS_S, 0, S_SNAN, 0, 1 << 8, 0),
        K(CLASS_S, 0, 0xffbfffffu, 0, 1 << 8, 0),  /* negative sNaN */
        K(CLASS_S, 0, S_QNAN, 0, 1 << 9, 0),
        K(CLASS_S, 0, 0xffc00001u, 0, 1 << 9, 0),
        K(CLASS_D, 0, D_NINF, 0, 1 << 0, 0),
        K(CLASS_D, 0, D_NMAX, 0, 1 << 1, 0),
        K(CLASS_D, 0, 0x800fffffffffffffull, 0, 1 << 2, 0),
        K(CLASS_D, 0, D_N0, 0, 1 << 3, 0),
        K(CLASS_D, 0, D_0, 0, 1 << 4, 0),
        K(CLASS_D, 0, D_MINS, 0, 1 << 5, 0),
        K(CLASS_D, 0, D_1, 0, 1 << 6, 0),
        K(CLASS_D, 0, D_INF, 0, 1 << 7, 0),
        K(CLASS_D, 0, D_SNAN, 0, 1 << 8, 0),
        K(CLASS_D, 0, 0x7ff7ffffffffffffull, 0, 1 << 8, 0),
        K(CLASS_D, 0, D_QNAN, 0, 1 << 9, 0),
        K(CLASS_D, 0, 0xfff8000000000001ull, 0, 1 << 9, 0),
    };
    CHECK(t);
}

/* fflags is OR-ed into, never cleared. */
static void test_flags_accumulate(void **state) {
    (void)state;
    unsigned fl = NV;
    assert_int_equal(fpu_add_d(D_1, D_1, RNE, &fl), D_2);
    assert_int_equal(fl, NV);
    fpu_div_d(D_1, D_3, RUP, &fl);
    assert_int_equal(fl, NV | NX);
    fpu_div_s(S_1, S_0, RMM, &fl);
    assert_int_equal(fl, NV | NX | DZ);
    fpu_min_d(D_SNAN, D_1, &fl);
    assert_int_equal(fl, NV | NX | DZ);
}

/* Zfh: half precision (binary16: 11-bit significand, emax 15, min normal 2^-14 = 0x0400,
 * min subnormal 2^-24 = 0x0001, max 65504 = 0x7bff). Each row derived by hand. */
typedef struct {
    const char *what;
    int op; /* 0 add 1 mul 2 div 3 sqrt 4 fma 5 cvt.h.s 6 cvt.h.w 7 cvt.w.h */
    unsigned rm;
    uint64_t a, b, c, want;
    unsigned flags;
} half_case;

static void test_half(void **state) {
    (void)state;
    static const half_case cases[] = {
        /* 1 + 2^-11 is half an ulp of 1: a tie, to even (1) in RNE, away in RMM */
        {"1+2^-11 rne", 0, RNE, 0x3c00, 0x1000, 0, 0x3c00, NX},
        {"1+2^-11 rmm", 0, RMM, 0x3c00, 0x1000, 0, 0x3c01, NX},
        {"1+2^-11 rup", 0, RUP, 0x3c00, 0x1000, 0, 0x3c01, NX},
        {"1+2^-11 rdn", 0, RDN, 0x3c00, 0x1000, 0, 0x3c00, NX},
        /* 65504 + 65504 overflows: inf in RNE, the largest finite in RTZ, both OF|NX */
        {"max+max rne", 0, RNE, 0x7bff, 0x7bff, 0, 0x7c00, OF | NX},
        {"max+max rtz", 0, RTZ, 0x7bff, 0x7bff, 0, 0x7bff, OF | NX},
        /* x + (-x) = +0, but -0 in RDN */
        {"1-1 rne", 0, RNE, 0x3c00, 0xbc00, 0, 0x0000, 0},
        {"1-1 rdn", 0, RDN, 0x3c00, 0xbc00, 0, 0x8000, 0},
        /* 2^-24 * 0.5 = 2^-25, half the smallest subnormal: to even (0) in RNE, up in RMM */
        {"minsub/2 rne", 1, RNE, 0x0001, 0x3800, 0, 0x0000, UF | NX},
        {"minsub/2 rmm", 1, RMM, 0x0001, 0x3800, 0, 0x0001, UF | NX},
        /* (1 - 2^-11) * 2^-14 lies halfway between the largest subnormal and 2^-14: RNE gives
         * 2^-14, but with an unbounded exponent the value is exact at 11 bits and below 2^-14,
         * so tininess after rounding holds: UF */
        {"tiny after rounding", 1, RNE, 0x3bff, 0x0400, 0, 0x0400, UF | NX},
        /* 1/3 = 1.0101010101|0101... * 2^-2: below half an ulp, truncated in RNE, up in RUP */
        {"1/3 rne", 2, RNE, 0x3c00, 0x4200, 0, 0x3555, NX},
        {"1/3 rup", 2, RUP, 0x3c00, 0x4200, 0, 0x3556, NX},
        {"1/0", 2, RNE, 0x3c00, 0x0000, 0, 0x7c00, DZ},
        {"sqrt 4", 3, RNE, 0x4400, 0, 0, 0x4000, 0},
        {"sqrt -1", 3, RNE, 0xbc00, 0, 0, 0x7e00, NV},
        /* 1*1 + (-1): an exact zero sum, -0 only in RDN */
        {"fma 1*1-1 rne", 4, RNE, 0x3c00, 0x3c00, 0xbc00, 0x0000, 0},
        {"fma 1*1-1 rdn", 4, RDN, 0x3c00, 0x3c00, 0xbc00, 0x8000, 0},
        /* inf * 0 + qNaN: NV (RISC-V requires it even with a quiet NaN addend) */
        {"fma inf*0+qnan", 4, RNE, 0x7c00, 0x0000, 0x7e00, 0x7e00, NV},
        /* 65520 is halfway between 65504 (odd significand) and 2^16: RNE rounds up, overflow;
         * RTZ gives 65504 with only NX (no overflow: the rounded value fits) */
        {"cvt.h.s 65520 rne", 5, RNE, 0x477ff000, 0, 0, 0x7c00, OF | NX},
        {"cvt.h.s 65520 rtz", 5, RTZ, 0x477ff000, 0, 0, 0x7bff, NX},
        {"cvt.h.s snan", 5, RNE, 0x7f800001, 0, 0, 0x7e00, NV},
        /* 2049 is halfway between 2048 and 2050: to even 2048 */
        {"cvt.h.w 2049", 6, RNE, 2049, 0, 0, 0x6800, NX},
        {"cvt.h.w 2051", 6, RNE, 2051, 0, 0, 0x6802, NX},
        {"cvt.h.w -65536 rtz", 6, RTZ, (uint64_t)-65536, 0, 0, 0xfbff, OF | NX},
        {"cvt.w.h -2.5 rne", 7, RNE, 0xc100, 0, 0, (uint64_t)-2, NX},
        {"cvt.w.h inf", 7, RNE, 0x7c00, 0, 0, 0x7fffffff, NV},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const half_case *t = &cases[i];
        unsigned fl = 0;
        uint64_t got = 0;
        switch (t->op) {
        case 0: got = fpu_add_h((uint32_t)t->a, (uint32_t)t->b, t->rm, &fl); break;
        case 1: got = fpu_mul_h((uint32_t)t->a, (uint32_t)t->b, t->rm, &fl); break;
        case 2: got = fpu_div_h((uint32_t)t->a, (uint32_t)t->b, t->rm, &fl); break;
        case 3: got = fpu_sqrt_h((uint32_t)t->a, t->rm, &fl); break;
        case 4: got = fpu_fma_h((uint32_t)t->a, (uint32_t)t->b, (uint32_t)t->c, 0, 0, t->rm, &fl); break;
        case 5: got = fpu_cvt_h_s((uint32_t)t->a, t->rm, &fl); break;
        case 6: got = fpu_cvt_h_w(t->a, t->rm, &fl); break;
        default: got = fpu_cvt_w_h((uint32_t)t->a, t->rm, &fl); break;
        }
        if (got != t->want || fl != t->flags) {
            print_error("%s: 0x%llx flags %u, expected 0x%llx flags %u\n", t->what, (unsigned long long)got, fl,
                        (unsigned long long)t->want, t->flags);
            fail();
        }
    }
    unsigned fl = 0;
    assert_int_equal(fpu_min_h(0x8000, 0x0000, &fl), 0x8000); /* -0 < +0 */
    assert_int_equal(fpu_min_h(0x7c01, 0x3c00, &fl), 0x3c00); /* one NaN: the other operand, */
    assert_int_equal(fl, NV);                                 /* NV for a signaling one */
    fl = 0;
    assert_int_equal(fpu_max_h(0x7e00, 0xfe00, &fl), 0x7e00); /* two NaNs: the canonical NaN */
    assert_int_equal(fl, 0);
    assert_int_equal(fpu_eq_h(0x7e00, 0x7e00, &fl), 0);       /* feq is quiet */
    assert_int_equal(fl, 0);
    assert_int_equal(fpu_lt_h(0x7e00, 0x3c00, &fl), 0);       /* flt signals on any NaN */
    assert_int_equal(fl, NV);
    assert_int_equal(fpu_class_h(0x0001), 1u << 5);           /* positive subnormal */
    assert_int_equal(fpu_class_h(0x7c01), 1u << 8);           /* signaling NaN */
    assert_int_equal(fpu_class_h(0xfc00), 1u << 0);           /* -inf */
    fl = 0;
    assert_int_equal(fpu_cvt_s_h(0x7c01, &fl), 0x7fc00000u);  /* sNaN -> canonical, NV */
    assert_int_equal(fl, NV);
    assert_int_equal(fpu_cvt_d_h(0x0001, &fl), 0x3e70000000000000ull); /* 2^-24, exact */
    assert_int_equal(fpu_cvt_s_h(0x83ff, &fl), 0xb87fc000u);  /* -1023 * 2^-24, exact */
}

#if defined(__x86_64__)
/* The host FP environment: fpu calls must not leave a directed rounding mode
 * behind, and stale host state (sticky flags, FTZ/DAZ) must not leak in. */
static double host_third(void) {
    volatile double one = 1.0, three = 3.0;
    return one / three;
}
static void test_host_environment(void **state) {
    (void)state;
    const unsigned saved = _mm_getcsr();
    unsigned fl = 0;
    uint64_t third;
    double h;

    fpu_add_d(D_1, D_EPS53, RUP, &fl);
    h = host_third();
    memcpy(&third, &h, sizeof third);
    assert_int_equal(third, 0x3fd5555555555555ull); /* host still rounds to nearest */
    assert_int_equal(_mm_getcsr() & 0x6000, 0);
    fpu_fma_s(S_1, S_1, S_EPS24, 0, 0, RDN, &fl);
    fpu_cvt_s_d(0x3ff0000010000000ull, RTZ, &fl);
    fpu_cvt_d_lu(~0ull, RUP, &fl);
    fpu_mul_s(S_1, 0x3f800003u, RMM, &fl);
    assert_int_equal(_mm_getcsr() & 0x6000, 0);

    /* sticky host flags (PE from the host division above) do not show up */
    fl = 0;
    h = host_third();
    assert_int_equal(fpu_add_d(D_1, D_1, RNE, &fl), D_2);
    assert_int_equal(fl, 0);

#ifndef FPU_PORTABLE /* dev-only build of the fenv fallback, which leaves FTZ/DAZ alone */
    /* a host running with FTZ|DAZ and round-up: results still IEEE, RNE */
    _mm_setcsr(0x9fc0 | 0x4000); /* FTZ (0x8000) | DAZ (0x40) | masked | RC=up */
    fl = 0;
    assert_int_equal(fpu_mul_d(D_MINN, D_HALF, RNE, &fl), 0x0008000000000000ull);
    assert_int_equal(fpu_mul_d(D_MINS, D_HALF, RNE, &fl), D_0);
    assert_int_equal(fl, UF | NX);
    fl = 0;
    assert_int_equal(fpu_add_s(S_MINS, S_MINS, RTZ, &fl), 0x2u);
    assert_int_equal(fl, 0);
#endif
    _mm_setcsr(saved);
    (void)h;
}
#endif

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_special_results),
        cmocka_unit_test(test_nan_inputs),
        cmocka_unit_test(test_minmax_compare),
        cmocka_unit_test(test_fcvt_to_int),
        cmocka_unit_test(test_rounding),
        cmocka_unit_test(test_int_to_float),
        cmocka_unit_test(test_overflow),
        cmocka_unit_test(test_underflow),
        cmocka_unit_test(test_fma),
        cmocka_unit_test(test_fclass),
        cmocka_unit_test(test_flags_accumulate),
        cmocka_unit_test(test_half),
#if defined(__x86_64__)
        cmocka_unit_test(test_host_environment),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* clang-format on */
