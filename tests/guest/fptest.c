/* fptest — RISC-V guest program exercising every F and D instruction.
 *
 * Build: riscv64-linux-gnu-gcc -O2 -static -o fptest fptest.c
 * Run:   qemu-riscv64 fptest [cases_per_op [seed]]     (or: cyclescope exec fptest)
 *
 * For every instruction with a rounding mode it runs cases_per_op (default
 * 80) operand tuples, drawn from a fixed-seed generator biased to hard values
 * (zeros, subnormals, min/max normal, infinities, quiet and signaling NaNs,
 * values near integer-conversion boundaries, operand pairs that produce ties,
 * cancellation, overflow and underflow), under each static rounding mode
 * (rne rtz rdn rup rmm), and every fourth tuple also under dyn with each legal
 * frm value set through fsrm; instructions without a rounding mode get twice
 * as many tuples. Fixed cross products of special values cover the
 * NaN/infinity/zero rules. Further sections cover NaN-boxing of
 * single-precision operands, the FP loads and stores (including the
 * compressed forms) and the FP CSRs. The default run prints 35154 lines
 * (~0.1 s under qemu); larger counts or other seeds give more coverage, e.g.
 * "fptest 20000" prints 5.4 M lines.
 *
 * Output: one line per case, all numbers hex:
 *     <mnemonic> <mode> <in1> <in2> <in3> <result> <fflags>
 * mode is rne/rtz/rdn/rup/rmm, dyn0..dyn4 (dyn with that frm), or "-" for
 * instructions without a rounding mode. Inputs are the 64-bit register
 * values the operands were loaded from (single-precision operands normally
 * NaN-boxed); unused inputs print as 0. FP results are the whole 64-bit
 * destination register (so NaN-boxing of results is checked too), integer
 * results the integer register. fflags is read with frflags after clearing
 * with fsflags zero just before the instruction.
 *
 * The output depends only on the instruction semantics, so two correct
 * implementations (qemu, cyclescope) print identical text.
 */
/* Hand-aligned tables: */
/* clang-format off */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------------ */
/* Instruction wrappers (fp_wrappers.h)                                      */
#include "fp_wrappers.h"

VARIANTS(DEF_FFF, fadd_s, "fadd.s")
VARIANTS(DEF_FFF, fsub_s, "fsub.s")
VARIANTS(DEF_FFF, fmul_s, "fmul.s")
VARIANTS(DEF_FFF, fdiv_s, "fdiv.s")
VARIANTS(DEF_FF, fsqrt_s, "fsqrt.s")
VARIANTS(DEF_FFFF, fmadd_s, "fmadd.s")
VARIANTS(DEF_FFFF, fmsub_s, "fmsub.s")
VARIANTS(DEF_FFFF, fnmsub_s, "fnmsub.s")
VARIANTS(DEF_FFFF, fnmadd_s, "fnmadd.s")
VARIANTS(DEF_XF, fcvt_w_s, "fcvt.w.s")
VARIANTS(DEF_XF, fcvt_wu_s, "fcvt.wu.s")
VARIANTS(DEF_XF, fcvt_l_s, "fcvt.l.s")
VARIANTS(DEF_XF, fcvt_lu_s, "fcvt.lu.s")
VARIANTS(DEF_FX, fcvt_s_w, "fcvt.s.w")
VARIANTS(DEF_FX, fcvt_s_wu, "fcvt.s.wu")
VARIANTS(DEF_FX, fcvt_s_l, "fcvt.s.l")
VARIANTS(DEF_FX, fcvt_s_lu, "fcvt.s.lu")
VARIANTS(DEF_FFF, fadd_d, "fadd.d")
VARIANTS(DEF_FFF, fsub_d, "fsub.d")
VARIANTS(DEF_FFF, fmul_d, "fmul.d")
VARIANTS(DEF_FFF, fdiv_d, "fdiv.d")
VARIANTS(DEF_FF, fsqrt_d, "fsqrt.d")
VARIANTS(DEF_FFFF, fmadd_d, "fmadd.d")
VARIANTS(DEF_FFFF, fmsub_d, "fmsub.d")
VARIANTS(DEF_FFFF, fnmsub_d, "fnmsub.d")
VARIANTS(DEF_FFFF, fnmadd_d, "fnmadd.d")
VARIANTS(DEF_XF, fcvt_w_d, "fcvt.w.d")
VARIANTS(DEF_XF, fcvt_wu_d, "fcvt.wu.d")
VARIANTS(DEF_XF, fcvt_l_d, "fcvt.l.d")
VARIANTS(DEF_XF, fcvt_lu_d, "fcvt.lu.d")
VARIANTS_INSN(fcvt_d_w, "0x69", "x0", "", "%[a]")
VARIANTS_INSN(fcvt_d_wu, "0x69", "x1", "", "%[a]")
VARIANTS(DEF_FX, fcvt_d_l, "fcvt.d.l")
VARIANTS(DEF_FX, fcvt_d_lu, "fcvt.d.lu")
VARIANTS(DEF_FF, fcvt_s_d, "fcvt.s.d")
VARIANTS_INSN(fcvt_d_s, "0x21", "x0", "fmv.d.x ft0, %[a]\n\t", "ft0")


DEF_N_FFF(fmin_s, "fmin.s")
DEF_N_FFF(fmax_s, "fmax.s")
DEF_N_FFF(fsgnj_s, "fsgnj.s")
DEF_N_FFF(fsgnjn_s, "fsgnjn.s")
DEF_N_FFF(fsgnjx_s, "fsgnjx.s")
DEF_N_XFF(feq_s, "feq.s")
DEF_N_XFF(flt_s, "flt.s")
DEF_N_XFF(fle_s, "fle.s")
DEF_N_XF(fclass_s, "fclass.s")
DEF_N_XF(fmv_x_w, "fmv.x.w")
DEF_N_FX(fmv_w_x, "fmv.w.x")
DEF_N_FFF(fmin_d, "fmin.d")
DEF_N_FFF(fmax_d, "fmax.d")
DEF_N_FFF(fsgnj_d, "fsgnj.d")
DEF_N_FFF(fsgnjn_d, "fsgnjn.d")
DEF_N_FFF(fsgnjx_d, "fsgnjx.d")
DEF_N_XFF(feq_d, "feq.d")
DEF_N_XFF(flt_d, "flt.d")
DEF_N_XFF(fle_d, "fle.d")
DEF_N_XF(fclass_d, "fclass.d")
DEF_N_XF(fmv_x_d, "fmv.x.d")
DEF_N_FX(fmv_d_x, "fmv.d.x")

/* ------------------------------------------------------------------------ */
/* Operand generation                                                        */

static uint64_t rng_state;

static uint64_t rnd(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static unsigned rndn(unsigned n) { return (unsigned)(rnd() % n); }

typedef struct {
    int p;       /* significand bits including the hidden one */
    int ebits;   /* exponent field width */
    int bias;
    int width;   /* 32 or 64 */
} fmt;
static const fmt FS = {24, 8, 127, 32}, FD = {53, 11, 1023, 64};

static uint64_t fracmask(const fmt *f) { return (1ull << (f->p - 1)) - 1; }
static int maxbe(const fmt *f) { return (1 << f->ebits) - 1; }

static uint64_t mk(const fmt *f, unsigned sign, int be, uint64_t frac) {
    if (be < 0) be = 0;
    if (be > maxbe(f)) be = maxbe(f);
    return ((uint64_t)sign << (f->width - 1)) | ((uint64_t)be << (f->p - 1)) | (frac & fracmask(f));
}

/* A fraction field with a bias to structured patterns. */
static uint64_t rnd_frac(const fmt *f) {
    int fb = f->p - 1;
    uint64_t x;
    switch (rndn(8)) {
    case 0: case 1: return rnd() & fracmask(f);
    case 2: { /* a few leading bits */
        int k = 1 + (int)rndn(8);
        return (rnd() >> (64 - k)) << (fb - k);
    }
    case 3: /* a few leading bits and the last bit: products/sums then need p+1.. bits */
        x = rnd() >> (64 - 1 - rndn(6));
        return ((x << (fb - 6)) | 1) & fracmask(f);
    case 4: /* all ones, or all ones minus a little */
        return fracmask(f) - rndn(3);
    case 5: return rndn(4); /* 0..3: near a power of two */
    case 6: /* random bits then a run of trailing zeros */
        return rnd() & fracmask(f) & ~((1ull << rndn((unsigned)fb)) - 1);
    default: /* half-way-ish patterns: 1000..0 / 0111..1 at random position */
        x = 1ull << rndn((unsigned)fb);
        return (rndn(2) ? x : x - 1) & fracmask(f);
    }
}

static uint64_t special(const fmt *f) {
    const uint64_t top = (uint64_t)maxbe(f) << (f->p - 1), q = 1ull << (f->p - 2);
    switch (rndn(14)) {
    case 0: return 0;
    case 1: return 1;                                 /* min subnormal */
    case 2: return fracmask(f);                       /* max subnormal */
    case 3: return 1ull << (f->p - 1);                /* min normal */
    case 4: return top - 1;                           /* max finite */
    case 5: return top;                               /* inf */
    case 6: return top | q;                           /* canonical qNaN */
    case 7: return top | q | (rnd() & (q - 1));       /* qNaN with payload */
    case 8: return top | 1;                           /* sNaN */
    case 9: return top | ((rnd() & (q - 1)) | 1);     /* sNaN with payload */
    case 10: return mk(f, 0, f->bias, 0);             /* 1.0 */
    case 11: return mk(f, 0, f->bias - 1, 0);         /* 0.5 */
    case 12: return mk(f, 0, f->bias + 1, 1ull << (f->p - 3)); /* 2.5 */
    default: return mk(f, 0, f->bias + (int)rndn(3), q); /* 1.5, 3, 6 */
    }
}

static uint64_t with_sign(const fmt *f, uint64_t v) {
    return rndn(2) ? v | (1ull << (f->width - 1)) : v;
}

/* Any value, biased to hard ones. */
static uint64_t gen_fp(const fmt *f) {
    unsigned s = rndn(2);
    switch (rndn(16)) {
    case 0: case 1: case 2: return with_sign(f, special(f));
    case 3: case 4: return f->width == 32 ? (uint32_t)rnd() : rnd();
    case 5: case 6: case 7: case 8: return mk(f, s, f->bias + (int)rndn(41) - 20, rnd_frac(f));
    case 9: return mk(f, s, 0, rnd_frac(f) | 1);                        /* subnormal */
    case 10: return mk(f, s, 1 + (int)rndn(3), rnd_frac(f));            /* near min normal */
    case 11: return mk(f, s, maxbe(f) - 1 - (int)rndn(3), rnd_frac(f)); /* near max */
    default: return mk(f, s, (int)rndn((unsigned)maxbe(f)), rnd_frac(f));
    }
}

static int bexp(const fmt *f, uint64_t v) { return (int)((v >> (f->p - 1)) & (uint64_t)maxbe(f)); }
static uint64_t neg(const fmt *f, uint64_t v) { return v ^ (1ull << (f->width - 1)); }

static double d_of(uint64_t u) {
    union { uint64_t u; double d; } x = {.u = u};
    return x.d;
}
static uint64_t u_of_d(double d) {
    union { double d; uint64_t u; } x = {.d = d};
    return x.u;
}
static float f_of(uint32_t u) {
    union { uint32_t u; float f; } x = {.u = u};
    return x.f;
}
static uint32_t u_of_f(float f) {
    union { float f; uint32_t u; } x = {.f = f};
    return x.u;
}

/* A value with a random structured significand and biased exponent `be`. */
static uint64_t at_exp(const fmt *f, int be) { return mk(f, rndn(2), be, rnd_frac(f)); }

/* An exponent that puts a result near underflow, overflow or 1. */
static int target_be(const fmt *f) {
    switch (rndn(4)) {
    case 0: return -(int)rndn((unsigned)f->p + 3) + 2; /* subnormal results (may go below 0) */
    case 1: return maxbe(f) - 2 + (int)rndn(4);        /* overflow boundary */
    default: return f->bias + (int)rndn(9) - 4;
    }
}

enum { G_ADD, G_MUL, G_DIV, G_SQRT, G_FMA, G_F2I, G_I2F, G_CVT, G_CMP, G_ANY };

static void gen_add(const fmt *f, uint64_t *a, uint64_t *b) {
    *a = gen_fp(f);
    int ea = bexp(f, *a);
    switch (rndn(7)) {
    case 5: case 6: /* exactly (or just off) half an ulp of a normal a: ties */
        if (ea == 0 || ea == maxbe(f)) *a = at_exp(f, ea = 1 + (int)rndn((unsigned)maxbe(f) - 2));
        *b = mk(f, rndn(2), ea - f->p, rndn(3) ? 0 : rndn(2)); /* ulp(a)/2 = 2^(ea-p) */
        break;
    case 0: case 1: /* close exponents: ties, carries, cancellation */
        *b = at_exp(f, ea - (int)rndn((unsigned)f->p + 3));
        break;
    case 2: /* (nearly) exact cancellation */
        *b = neg(f, *a) ^ rndn(4);
        break;
    default: *b = gen_fp(f);
    }
    if (rndn(2)) {
        uint64_t t = *a;
        *a = *b;
        *b = t;
    }
}

static void gen_mul(const fmt *f, uint64_t *a, uint64_t *b) {
    *a = gen_fp(f);
    if (rndn(3) == 0) {
        *b = gen_fp(f);
        return;
    }
    int ea = bexp(f, *a);
    if (ea == 0) ea = 1 - f->p / 2; /* subnormal: rough exponent */
    if (rndn(3) == 0) { /* odd p-bit significand times 1.5: a third are p+1 bits, a tie */
        *a = mk(f, rndn(2), f->bias + (int)rndn(21) - 10, rnd_frac(f) | 1);
        ea = bexp(f, *a);
        *b = mk(f, rndn(2), (rndn(3) ? f->bias : target_be(f)) - ea + f->bias, 1ull << (f->p - 2));
        return;
    }
    *b = at_exp(f, target_be(f) - ea + f->bias);
    if (bexp(f, *b) == 0 && rndn(2)) *b = mk(f, rndn(2), 1, rnd_frac(f));
}

static void gen_div(const fmt *f, uint64_t *a, uint64_t *b) {
    *a = gen_fp(f);
    switch (rndn(4)) {
    case 0: *b = gen_fp(f); break;
    case 1: /* divide by a power of two into the subnormal range: exact halves */
        *a = at_exp(f, (int)rndn(8));
        *b = mk(f, rndn(2), f->bias + (int)rndn(4), 0);
        break;
    default: {
        int ea = bexp(f, *a);
        *b = at_exp(f, ea - target_be(f) + f->bias);
        break;
    }
    }
}

static uint64_t gen_sqrt(const fmt *f) {
    switch (rndn(4)) {
    case 0: { /* perfect square of a short significand */
        if (f->width == 64) {
            double x = d_of(mk(f, 0, f->bias + (int)rndn(200) - 100, rnd() & 0xfffffc0000000ull));
            return u_of_d(x * x);
        }
        float x = f_of((uint32_t)mk(f, 0, f->bias + (int)rndn(40) - 20, rnd() & 0x7ff000));
        return u_of_f(x * x);
    }
    default: return gen_fp(f);
    }
}

static void gen_fma(const fmt *f, uint64_t *a, uint64_t *b, uint64_t *c) {
    gen_mul(f, a, b);
    switch (rndn(5)) {
    case 0: /* cancel against the rounded product */
        if (f->width == 64)
            *c = u_of_d(-(d_of(*a) * d_of(*b)));
        else
            *c = u_of_f(-(f_of((uint32_t)*a) * f_of((uint32_t)*b)));
        *c ^= rndn(3);
        break;
    case 1: { /* short exact product plus half an ulp of it: ties */
        int k = 1 + (int)rndn(8);
        *a = mk(f, rndn(2), f->bias + (int)rndn(21) - 10, (rnd() >> (64 - k)) << (f->p - 1 - k));
        *b = mk(f, rndn(2), (rndn(3) ? f->bias : target_be(f)) - bexp(f, *a) + f->bias,
                (rnd() >> (64 - k)) << (f->p - 1 - k));
        int ep = bexp(f, *a) + bexp(f, *b) - f->bias;
        *c = mk(f, rndn(2), ep - f->p + (int)rndn(2), rndn(4) ? 0 : 1); /* product ulp/2 */
        break;
    }
    case 2: { /* addend with a close exponent */
        int ep = bexp(f, *a) + bexp(f, *b) - f->bias;
        *c = at_exp(f, ep - 3 + (int)rndn(7));
        break;
    }
    default: *c = gen_fp(f);
    }
}

/* Values around integer-conversion boundaries. */
static uint64_t gen_f2i(const fmt *f) {
    static const double bounds[] = {0.0, 1.0, 2.0, 4294967296.0 / 2, 4294967296.0,
                                    9223372036854775808.0, 18446744073709551616.0};
    double v;
    switch (rndn(6)) {
    case 0: case 1: { /* boundary, stepped by a few ulps */
        v = bounds[rndn(sizeof bounds / sizeof bounds[0])];
        uint64_t u = f->width == 64 ? u_of_d(v) : u_of_f((float)v);
        if (rndn(2)) u = u - rndn(4);
        else u = u + rndn(4);
        if (rndn(2)) u = neg(f, u);
        return u;
    }
    case 2: case 3: /* small integers and halves, quarters */
        v = (double)((int)rndn(9) - 4) + (double)rndn(4) * 0.25;
        if (rndn(4) == 0) v *= (double)(1ull << rndn(40));
        return f->width == 64 ? u_of_d(v) : u_of_f((float)v);
    default: return gen_fp(f);
    }
}

static uint64_t gen_int(void) {
    switch (rndn(8)) {
    case 0: { /* boundaries */
        static const uint64_t b[] = {0,
                                     1,
                                     0xffffffffffffffffull,
                                     0x7fffffff,
                                     0x80000000,
                                     0xffffffff,
                                     0xffffffff80000000ull,
                                     0x7fffffffffffffffull,
                                     0x8000000000000000ull,
                                     0x100000000ull,
                                     (1ull << 53) + 1,
                                     (1ull << 24) + 1,
                                     0x7fffffc0,
                                     0xffffff80,
                                     0xfffffffffffff800ull};
        return b[rndn(sizeof b / sizeof b[0])] + rndn(3) - 1;
    }
    case 1: case 2: { /* p..p+3 significant bits (float and double ties) */
        unsigned n = rndn(2) ? 24 + rndn(4) : 53 + rndn(4);
        uint64_t m = (rnd() >> (64 - n)) | (1ull << (n - 1)) | 1;
        uint64_t v = m << rndn(64 - n + 1);
        return rndn(3) ? v : 0 - v;
    }
    case 3: /* 32-bit patterns with garbage above */
        return (rnd() & 0xffffffff00000000ull) | (uint32_t)(rnd() >> rndn(32));
    case 4: return (uint64_t)(int64_t)(int32_t)(rnd() >> rndn(33));
    default: return rnd() >> rndn(64);
    }
}

/* Doubles whose single rounding is interesting. */
static uint64_t gen_cvt_sd(void) {
    switch (rndn(4)) {
    case 0: return gen_fp(&FD);
    case 1: { /* exponent around the single subnormal / overflow range */
        int e = rndn(2) ? 1023 - 126 - (int)rndn(30) : 1023 + 126 + (int)rndn(4);
        return mk(&FD, rndn(2), e, rnd_frac(&FD));
    }
    default: { /* a single plus bits around the half-ulp position */
        double x = (double)f_of((uint32_t)gen_fp(&FS));
        uint64_t u = u_of_d(x);
        if ((u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull) return u;
        uint64_t half = 1ull << 28; /* half a single ulp for normal singles */
        switch (rndn(5)) {
        case 0: case 4: return u | half;
        case 1: return u | half | 1;
        case 2: return u | (half - 1);
        default: return u | (rnd() & (2 * half - 1));
        }
    }
    }
}

static void gen_cmp(const fmt *f, uint64_t *a, uint64_t *b) {
    *a = gen_fp(f);
    switch (rndn(5)) {
    case 0: *b = *a; break;
    case 1: *b = neg(f, *a); break;
    case 2: *b = *a + 1; break;
    default: *b = gen_fp(f);
    }
}

/* ------------------------------------------------------------------------ */
/* The table                                                                 */

typedef struct {
    const char *name;
    int gen;
    int single;      /* FP operands are single precision (NaN-boxed) */
    int nops;        /* FP or integer operands */
    opfn fn[6];      /* rne rtz rdn rup rmm dyn; only fn[0] when no rm */
    int has_rm;
} op_t;

#define OP_RM(name, mn, g, s, n) {mn, g, s, n, FNS(name), 1}
#define OP_N(name, mn, g, s, n) {mn, g, s, n, {name}, 0}

static const op_t ops[] = {
    OP_RM(fadd_s, "fadd.s", G_ADD, 1, 2),
    OP_RM(fsub_s, "fsub.s", G_ADD, 1, 2),
    OP_RM(fmul_s, "fmul.s", G_MUL, 1, 2),
    OP_RM(fdiv_s, "fdiv.s", G_DIV, 1, 2),
    OP_RM(fsqrt_s, "fsqrt.s", G_SQRT, 1, 1),
    OP_RM(fmadd_s, "fmadd.s", G_FMA, 1, 3),
    OP_RM(fmsub_s, "fmsub.s", G_FMA, 1, 3),
    OP_RM(fnmsub_s, "fnmsub.s", G_FMA, 1, 3),
    OP_RM(fnmadd_s, "fnmadd.s", G_FMA, 1, 3),
    OP_RM(fcvt_w_s, "fcvt.w.s", G_F2I, 1, 1),
    OP_RM(fcvt_wu_s, "fcvt.wu.s", G_F2I, 1, 1),
    OP_RM(fcvt_l_s, "fcvt.l.s", G_F2I, 1, 1),
    OP_RM(fcvt_lu_s, "fcvt.lu.s", G_F2I, 1, 1),
    OP_RM(fcvt_s_w, "fcvt.s.w", G_I2F, 1, 1),
    OP_RM(fcvt_s_wu, "fcvt.s.wu", G_I2F, 1, 1),
    OP_RM(fcvt_s_l, "fcvt.s.l", G_I2F, 1, 1),
    OP_RM(fcvt_s_lu, "fcvt.s.lu", G_I2F, 1, 1),
    OP_RM(fadd_d, "fadd.d", G_ADD, 0, 2),
    OP_RM(fsub_d, "fsub.d", G_ADD, 0, 2),
    OP_RM(fmul_d, "fmul.d", G_MUL, 0, 2),
    OP_RM(fdiv_d, "fdiv.d", G_DIV, 0, 2),
    OP_RM(fsqrt_d, "fsqrt.d", G_SQRT, 0, 1),
    OP_RM(fmadd_d, "fmadd.d", G_FMA, 0, 3),
    OP_RM(fmsub_d, "fmsub.d", G_FMA, 0, 3),
    OP_RM(fnmsub_d, "fnmsub.d", G_FMA, 0, 3),
    OP_RM(fnmadd_d, "fnmadd.d", G_FMA, 0, 3),
    OP_RM(fcvt_w_d, "fcvt.w.d", G_F2I, 0, 1),
    OP_RM(fcvt_wu_d, "fcvt.wu.d", G_F2I, 0, 1),
    OP_RM(fcvt_l_d, "fcvt.l.d", G_F2I, 0, 1),
    OP_RM(fcvt_lu_d, "fcvt.lu.d", G_F2I, 0, 1),
    OP_RM(fcvt_d_w, "fcvt.d.w", G_I2F, 0, 1),
    OP_RM(fcvt_d_wu, "fcvt.d.wu", G_I2F, 0, 1),
    OP_RM(fcvt_d_l, "fcvt.d.l", G_I2F, 0, 1),
    OP_RM(fcvt_d_lu, "fcvt.d.lu", G_I2F, 0, 1),
    OP_RM(fcvt_s_d, "fcvt.s.d", G_CVT, 0, 1),
    OP_RM(fcvt_d_s, "fcvt.d.s", G_ANY, 1, 1),
    OP_N(fmin_s, "fmin.s", G_CMP, 1, 2),
    OP_N(fmax_s, "fmax.s", G_CMP, 1, 2),
    OP_N(fsgnj_s, "fsgnj.s", G_CMP, 1, 2),
    OP_N(fsgnjn_s, "fsgnjn.s", G_CMP, 1, 2),
    OP_N(fsgnjx_s, "fsgnjx.s", G_CMP, 1, 2),
    OP_N(feq_s, "feq.s", G_CMP, 1, 2),
    OP_N(flt_s, "flt.s", G_CMP, 1, 2),
    OP_N(fle_s, "fle.s", G_CMP, 1, 2),
    OP_N(fclass_s, "fclass.s", G_ANY, 1, 1),
    OP_N(fmv_x_w, "fmv.x.w", G_ANY, 1, 1),
    OP_N(fmv_w_x, "fmv.w.x", G_I2F, 1, 1),
    OP_N(fmin_d, "fmin.d", G_CMP, 0, 2),
    OP_N(fmax_d, "fmax.d", G_CMP, 0, 2),
    OP_N(fsgnj_d, "fsgnj.d", G_CMP, 0, 2),
    OP_N(fsgnjn_d, "fsgnjn.d", G_CMP, 0, 2),
    OP_N(fsgnjx_d, "fsgnjx.d", G_CMP, 0, 2),
    OP_N(feq_d, "feq.d", G_CMP, 0, 2),
    OP_N(flt_d, "flt.d", G_CMP, 0, 2),
    OP_N(fle_d, "fle.d", G_CMP, 0, 2),
    OP_N(fclass_d, "fclass.d", G_ANY, 0, 1),
    OP_N(fmv_x_d, "fmv.x.d", G_ANY, 0, 1),
    OP_N(fmv_d_x, "fmv.d.x", G_I2F, 0, 1),
};
#define NOPS (sizeof ops / sizeof ops[0])

#define BOX 0xffffffff00000000ull

/* Run one operand tuple: all static modes, and the dyn modes when asked. */
static void run(const op_t *o, const uint64_t in[3], int dyn) {
    uint64_t fl, r;
    if (!o->has_rm) {
        r = o->fn[0](in[0], in[1], in[2], 0, &fl);
        emit(o->name, "-", in, r, fl);
        return;
    }
    for (int m = 0; m < 5; m++) {
        r = o->fn[m](in[0], in[1], in[2], 0, &fl);
        emit(o->name, mode_names[m], in, r, fl);
    }
    if (dyn)
        for (int m = 0; m < 5; m++) {
            r = o->fn[5](in[0], in[1], in[2], (uint64_t)m, &fl);
            emit(o->name, dyn_names[m], in, r, fl);
        }
}

static void gen_operands(const op_t *o, uint64_t in[3]) {
    const fmt *f = o->single ? &FS : &FD;
    in[0] = in[1] = in[2] = 0;
    switch (o->gen) {
    case G_ADD: gen_add(f, &in[0], &in[1]); break;
    case G_MUL: gen_mul(f, &in[0], &in[1]); break;
    case G_DIV: gen_div(f, &in[0], &in[1]); break;
    case G_SQRT: in[0] = gen_sqrt(f); break;
    case G_FMA: gen_fma(f, &in[0], &in[1], &in[2]); break;
    case G_F2I: in[0] = gen_f2i(f); break;
    case G_I2F: in[0] = gen_int(); return; /* integer operand: no boxing */
    case G_CVT: in[0] = gen_cvt_sd(); break;
    case G_CMP: gen_cmp(f, &in[0], &in[1]); break;
    default: in[0] = gen_fp(f); break;
    }
    if (o->single)
        for (int i = 0; i < o->nops; i++) in[i] = BOX | (uint32_t)in[i];
}

/* Special values for the cross products (each also negated). */
static const uint32_t spec_s[] = {0x00000000, 0x3f800000, 0x7f800000, 0x7fc00000,
                                  0x7f800001, 0x00000001, 0x00800000, 0x40400000};
static const uint64_t spec_d[] = {0, 0x3ff0000000000000ull, 0x7ff0000000000000ull,
                                  0x7ff8000000000000ull, 0x7ff0000000000001ull, 1,
                                  0x0010000000000000ull, 0x4008000000000000ull};
#define NSPEC (sizeof spec_s / sizeof spec_s[0])

static uint64_t spec(const op_t *o, unsigned i) {
    uint64_t v = o->single ? spec_s[i / 2] : spec_d[i / 2];
    if (i & 1) v |= o->single ? 0x80000000u : 0x8000000000000000ull;
    return o->single ? BOX | v : v;
}

/* All pairs of special values for binary FP operations; a reduced set of
 * triples for the fused ops. */
static void cross_products(void) {
    for (unsigned k = 0; k < NOPS; k++) {
        const op_t *o = &ops[k];
        uint64_t in[3] = {0, 0, 0}, fl, r;
        if (o->gen == G_I2F) continue;
        if (o->nops == 1) {
            for (unsigned i = 0; i < 2 * NSPEC; i++) {
                in[0] = spec(o, i);
                run(o, in, 0);
            }
        } else if (o->nops == 2) {
            for (unsigned i = 0; i < 2 * NSPEC; i++)
                for (unsigned j = 0; j < 2 * NSPEC; j++) {
                    in[0] = spec(o, i);
                    in[1] = spec(o, j);
                    /* two modes suffice here: RDN differs in zero signs */
                    if (o->has_rm) {
                        r = o->fn[0](in[0], in[1], 0, 0, &fl);
                        emit(o->name, "rne", in, r, fl);
                        r = o->fn[2](in[0], in[1], 0, 0, &fl);
                        emit(o->name, "rdn", in, r, fl);
                    } else {
                        r = o->fn[0](in[0], in[1], 0, 0, &fl);
                        emit(o->name, "-", in, r, fl);
                    }
                }
        } else {
            /* fused: +-0, +-1, +-inf, qNaN, sNaN; RNE and RDN alternately */
            static const unsigned pick[] = {0, 1, 2, 3, 4, 5, 6, 8};
            for (unsigned i = 0; i < 8; i++)
                for (unsigned j = 0; j < 8; j++)
                    for (unsigned l = 0; l < 8; l++) {
                        int m = (i + j + l) & 1 ? 2 : 0;
                        in[0] = spec(o, pick[i]);
                        in[1] = spec(o, pick[j]);
                        in[2] = spec(o, pick[l]);
                        r = o->fn[m](in[0], in[1], in[2], 0, &fl);
                        emit(o->name, mode_names[m], in, r, fl);
                    }
        }
    }
}

/* Single-precision instructions reading registers that are not properly
 * NaN-boxed must see the canonical NaN (fmv.x.w and stores excepted). */
static void nanbox(void) {
    static const uint64_t unboxed[] = {0x000000003f800000ull, 0x7fffffff3f800000ull,
                                       0xfffffffe40000000ull, 0x0000000000000000ull,
                                       0x3ff0000000000000ull, 0xffffffff7f800001ull /* boxed sNaN */};
    static const char *const names[] = {"fadd.s", "fmul.s", "fsqrt.s", "fmadd.s", "fnmadd.s",
                                        "fsgnj.s", "fsgnjn.s", "fsgnjx.s", "fmin.s", "fmax.s",
                                        "feq.s", "flt.s", "fle.s", "fclass.s", "fcvt.w.s",
                                        "fcvt.lu.s", "fcvt.d.s", "fmv.x.w"};
    const uint64_t one = BOX | 0x3f800000u;
    for (unsigned i = 0; i < sizeof unboxed / sizeof unboxed[0]; i++)
        for (unsigned n = 0; n < sizeof names / sizeof names[0]; n++)
            for (unsigned k = 0; k < NOPS; k++) {
                const op_t *o = &ops[k];
                const char *a = o->name, *b = names[n];
                while (*a && *a == *b) a++, b++;
                if (*a || *b) continue;
                for (int pos = 0; pos < o->nops; pos++) {
                    uint64_t in[3] = {0, 0, 0}, fl, r;
                    for (int q = 0; q < o->nops; q++) in[q] = q == pos ? unboxed[i] : one;
                    r = o->fn[0](in[0], in[1], in[2], 0, &fl);
                    emit(o->name, o->has_rm ? "rne" : "-", in, r, fl);
                }
            }
}

/* Loads and stores, including the compressed forms. Printed as
 * "<mnemonic> - <value> 0 0 <what the program sees> 0". */
static void loads_stores(void) {
    for (int i = 0; i < 8; i++) {
        uint64_t v = i < 4 ? gen_fp(&FD) : rnd();
        uint32_t w = (uint32_t)gen_fp(&FS);
        uint64_t mem64 = v, out, out2;
        uint32_t mem32 = w;
        uint64_t in[3] = {v, 0, 0};

        __asm__ volatile("flw ft0, 0(%[p])\n\tfmv.x.d %[r], ft0" : [r] "=r"(out) : [p] "r"(&mem32), "m"(mem32) : "ft0");
        in[0] = w;
        emit("flw", "-", in, out, 0);
        uint32_t st32 = 0;
        __asm__ volatile("fmv.d.x ft0, %[v]\n\tfsw ft0, 0(%[p])" : "=m"(st32) : [v] "r"(v), [p] "r"(&st32) : "ft0");
        in[0] = v;
        emit("fsw", "-", in, st32, 0);
        __asm__ volatile("fld ft0, 0(%[p])\n\tfmv.x.d %[r], ft0" : [r] "=r"(out) : [p] "r"(&mem64), "m"(mem64) : "ft0");
        emit("fld", "-", in, out, 0);
        uint64_t st64 = 0;
        __asm__ volatile("fmv.d.x ft0, %[v]\n\tfsd ft0, 0(%[p])" : "=m"(st64) : [v] "r"(v), [p] "r"(&st64) : "ft0");
        emit("fsd", "-", in, st64, 0);
        /* compressed: c.fld/c.fsd need x8-x15 and f8-f15 */
        uint64_t buf[2] = {v, 0};
        __asm__ volatile("mv a1, %[p]\n\tc.fld fa1, 0(a1)\n\tc.fsd fa1, 8(a1)\n\tfmv.x.d %[r], fa1"
                         : [r] "=r"(out), "+m"(buf)
                         : [p] "r"(buf)
                         : "a1", "fa1");
        emit("c.fld", "-", in, out, 0);
        emit("c.fsd", "-", in, buf[1], 0);
        __asm__ volatile("addi sp, sp, -16\n\tsd %[v], 8(sp)\n\tc.fldsp ft0, 8(sp)\n\t"
                         "fmv.x.d %[r], ft0\n\tc.fsdsp ft0, 0(sp)\n\tld %[r2], 0(sp)\n\taddi sp, sp, 16"
                         : [r] "=&r"(out), [r2] "=&r"(out2)
                         : [v] "r"(v)
                         : "ft0", "memory");
        emit("c.fldsp", "-", in, out, 0);
        emit("c.fsdsp", "-", in, out2, 0);
    }
}

/* The FP CSRs: fcsr = frm << 5 | fflags, writes mask to the field widths,
 * swaps return the old value, flags accumulate. */
static void csrs(void) {
    uint64_t in[3] = {0, 0, 0}, r, old;
    static const uint64_t vals[] = {0, 0x1f, 0xff, 0x3f, 0xe0, 0x12345, 0xa5};
    for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        in[0] = vals[i];
        __asm__ volatile("fscsr %[o], %[v]\n\tfrcsr %[r]" : [r] "=r"(r), [o] "=&r"(old) : [v] "r"(vals[i]));
        emit("fscsr/frcsr", "-", in, r, 0);
        __asm__ volatile("fscsr %[v]\n\tfrrm %[r]" : [r] "=r"(r) : [v] "r"(vals[i]));
        emit("fscsr/frrm", "-", in, r, 0);
        __asm__ volatile("fscsr %[v]\n\tfrflags %[r]" : [r] "=r"(r) : [v] "r"(vals[i]));
        emit("fscsr/frflags", "-", in, r, 0);
        __asm__ volatile("fscsr zero\n\tfsrm %[v]\n\tfrcsr %[r]" : [r] "=r"(r) : [v] "r"(vals[i]));
        emit("fsrm/frcsr", "-", in, r, 0);
        __asm__ volatile("fscsr zero\n\tfsflags %[v]\n\tfrcsr %[r]" : [r] "=r"(r) : [v] "r"(vals[i]));
        emit("fsflags/frcsr", "-", in, r, 0);
        __asm__ volatile("fscsr %[v]\n\tfsflags %[o], zero\n\tfrcsr %[r]" : [r] "=r"(r), [o] "=&r"(old) : [v] "r"(vals[i]));
        emit("fsflags-swap-old", "-", in, old, 0);
        emit("fsflags-swap-new", "-", in, r, 0);
        __asm__ volatile("fscsr %[v]\n\tfsrm %[o], zero\n\tfrcsr %[r]" : [r] "=r"(r), [o] "=&r"(old) : [v] "r"(vals[i]));
        emit("fsrm-swap-old", "-", in, old, 0);
        emit("fsrm-swap-new", "-", in, r, 0);
    }
    in[0] = 0;
    __asm__ volatile("fscsr zero\n\tfsrmi 3\n\tfsflagsi 5\n\tfrcsr %[r]" : [r] "=r"(r));
    emit("fsrmi/fsflagsi", "-", in, r, 0);
    __asm__ volatile("fscsr zero\n\tcsrsi fflags, 0x11\n\tcsrci fflags, 1\n\tcsrs frm, %[v]\n\tfrcsr %[r]"
                     : [r] "=r"(r)
                     : [v] "r"(4ull));
    emit("csrsi/csrci/csrs", "-", in, r, 0);
    /* accumulation: 1/0 (DZ) then 1/3 (NX) then sqrt(-1) (NV), not cleared */
    __asm__ volatile("fscsr zero\n\tli t0, 1\n\tfcvt.d.l ft0, t0\n\tfcvt.d.l ft1, zero\n\t"
                     "fdiv.d ft2, ft0, ft1\n\tli t0, 3\n\tfcvt.d.l ft1, t0\n\tfdiv.d ft2, ft0, ft1\n\t"
                     "fneg.d ft0, ft0\n\tfsqrt.d ft2, ft0\n\tfrcsr %[r]\n\tfscsr zero"
                     : [r] "=r"(r)
                     :
                     : "t0", "ft0", "ft1", "ft2");
    emit("accumulate", "-", in, r, 0);
    __asm__ volatile("fscsr zero");
}

int main(int argc, char **argv) {
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 80;
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eed;

    for (unsigned k = 0; k < NOPS; k++) {
        const op_t *o = &ops[k];
        unsigned count = o->has_rm ? n : 2 * n;
        for (unsigned i = 0; i < count; i++) {
            uint64_t in[3];
            gen_operands(o, in);
            run(o, in, o->has_rm && i % 4 == 0);
        }
    }
    cross_products();
    nanbox();
    loads_stores();
    csrs();
    out_flush();
    return 0;
}
/* clang-format on */
