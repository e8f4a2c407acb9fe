/* zfh_ops — RISC-V guest program exercising every Zfh (half-precision) instruction.
 *
 * Build: riscv64-linux-gnu-gcc -O2 -static -march=rv64gc_zfh -o zfh_ops zfh_ops.c
 * Run:   QEMU_CPU=rv64,Zfh=true qemu-riscv64 zfh_ops [cases_per_op [seed]]
 *        (qemu 7.2 runs Zfh only when asked; or: cyclescope exec zfh_ops)
 *
 * The structure of fptest.c (the F and D test), for half precision. GCC 12 has
 * no _Float16 on RISC-V, so every instruction is inline asm. For each instruction
 * with a rounding mode it runs cases_per_op (default 80) operand tuples from a
 * fixed-seed generator biased to hard values (zeros, subnormals, min/max normal,
 * infinities, quiet and signaling NaNs, ties, cancellation, overflow and
 * underflow, integer-conversion boundaries), under each static rounding mode
 * (rne rtz rdn rup rmm) and every fourth tuple also under dyn with each legal frm
 * (set with fsrm); instructions without a rounding mode get twice as many tuples.
 * Then: cross products of special values, as many tuples again of uniformly random
 * 16-bit operands (the randomized comparison), NaN-boxing (operands that are not
 * properly boxed must read as the canonical NaN 0x7e00), flh/fsh, and a few
 * fused sequences.
 *
 * Output: one line per case, all numbers hex:
 *     <mnemonic> <mode> <in1> <in2> <in3> <result> <fflags>
 * as fptest.c: inputs are the 64-bit register values the operands were loaded
 * from, FP results the whole 64-bit destination register (NaN-boxing of results
 * is checked too), fflags read with frflags after fsflags zero just before the
 * instruction. The output depends only on the instruction semantics, so two
 * correct implementations (qemu, cyclescope) print identical text.
 */
/* Hand-aligned tables: */
/* clang-format off */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------------ */
/* Instruction wrappers (fp_wrappers.h, as fptest.c's)                       */
#include "fp_wrappers.h"

VARIANTS(DEF_FFF, fadd_h, "fadd.h")
VARIANTS(DEF_FFF, fsub_h, "fsub.h")
VARIANTS(DEF_FFF, fmul_h, "fmul.h")
VARIANTS(DEF_FFF, fdiv_h, "fdiv.h")
VARIANTS(DEF_FF, fsqrt_h, "fsqrt.h")
VARIANTS(DEF_FFFF, fmadd_h, "fmadd.h")
VARIANTS(DEF_FFFF, fmsub_h, "fmsub.h")
VARIANTS(DEF_FFFF, fnmsub_h, "fnmsub.h")
VARIANTS(DEF_FFFF, fnmadd_h, "fnmadd.h")
VARIANTS(DEF_XF, fcvt_w_h, "fcvt.w.h")
VARIANTS(DEF_XF, fcvt_wu_h, "fcvt.wu.h")
VARIANTS(DEF_XF, fcvt_l_h, "fcvt.l.h")
VARIANTS(DEF_XF, fcvt_lu_h, "fcvt.lu.h")
VARIANTS(DEF_FX, fcvt_h_w, "fcvt.h.w")
VARIANTS(DEF_FX, fcvt_h_wu, "fcvt.h.wu")
VARIANTS(DEF_FX, fcvt_h_l, "fcvt.h.l")
VARIANTS(DEF_FX, fcvt_h_lu, "fcvt.h.lu")
VARIANTS(DEF_FF, fcvt_h_s, "fcvt.h.s")
VARIANTS(DEF_FF, fcvt_h_d, "fcvt.h.d")
/* the exact widenings: binutils 2.40 takes them without a rounding mode, so the
 * other rm fields are written with .insn (funct7 0x20/0x21, rs2 = 2: the H source) */
VARIANTS_INSN(fcvt_s_h, "0x20", "x2", "fmv.d.x ft0, %[a]\n\t", "ft0")
VARIANTS_INSN(fcvt_d_h, "0x21", "x2", "fmv.d.x ft0, %[a]\n\t", "ft0")

DEF_N_FFF(fmin_h, "fmin.h")
DEF_N_FFF(fmax_h, "fmax.h")
DEF_N_FFF(fsgnj_h, "fsgnj.h")
DEF_N_FFF(fsgnjn_h, "fsgnjn.h")
DEF_N_FFF(fsgnjx_h, "fsgnjx.h")
DEF_N_XFF(feq_h, "feq.h")
DEF_N_XFF(flt_h, "flt.h")
DEF_N_XFF(fle_h, "fle.h")
DEF_N_XF(fclass_h, "fclass.h")
DEF_N_XF(fmv_x_h, "fmv.x.h")
DEF_N_FX(fmv_h_x, "fmv.h.x")

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
    int width;   /* 16, 32 or 64 */
} fmt;
static const fmt FH = {11, 5, 15, 16}, FS = {24, 8, 127, 32}, FD = {53, 11, 1023, 64};

static uint64_t fracmask(const fmt *f) { return (1ull << (f->p - 1)) - 1; }
static int maxbe(const fmt *f) { return (1 << f->ebits) - 1; }
static uint64_t widthmask(const fmt *f) { return f->width == 64 ? ~0ull : (1ull << f->width) - 1; }

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
        int k = 1 + (int)rndn(6);
        return (rnd() >> (64 - k)) << (fb - k);
    }
    case 3: /* a few leading bits and the last bit */
        x = rnd() >> (64 - 1 - rndn(4));
        return ((x << (fb - 4)) | 1) & fracmask(f);
    case 4: return fracmask(f) - rndn(3); /* all ones, or nearly */
    case 5: return rndn(4);               /* near a power of two */
    case 6: return rnd() & fracmask(f) & ~((1ull << rndn((unsigned)fb)) - 1);
    default: /* 1000..0 / 0111..1 at a random position */
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

static uint64_t with_sign(const fmt *f, uint64_t v) { return rndn(2) ? v | (1ull << (f->width - 1)) : v; }

/* Any value, biased to hard ones. */
static uint64_t gen_fp(const fmt *f) {
    unsigned s = rndn(2);
    switch (rndn(16)) {
    case 0: case 1: case 2: return with_sign(f, special(f));
    case 3: case 4: return rnd() & widthmask(f);
    case 5: case 6: case 7: case 8: return mk(f, s, f->bias + (int)rndn(21) - 10, rnd_frac(f));
    case 9: return mk(f, s, 0, rnd_frac(f) | 1);                        /* subnormal */
    case 10: return mk(f, s, 1 + (int)rndn(3), rnd_frac(f));            /* near min normal */
    case 11: return mk(f, s, maxbe(f) - 1 - (int)rndn(3), rnd_frac(f)); /* near max */
    default: return mk(f, s, (int)rndn((unsigned)maxbe(f)), rnd_frac(f));
    }
}

static int bexp(const fmt *f, uint64_t v) { return (int)((v >> (f->p - 1)) & (uint64_t)maxbe(f)); }
static uint64_t neg(const fmt *f, uint64_t v) { return v ^ (1ull << (f->width - 1)); }
static uint64_t at_exp(const fmt *f, int be) { return mk(f, rndn(2), be, rnd_frac(f)); }

/* An exponent that puts a result near underflow, overflow or 1. */
static int target_be(const fmt *f) {
    switch (rndn(4)) {
    case 0: return -(int)rndn((unsigned)f->p + 3) + 2; /* subnormal results */
    case 1: return maxbe(f) - 2 + (int)rndn(4);        /* overflow boundary */
    default: return f->bias + (int)rndn(9) - 4;
    }
}

enum { G_ADD, G_MUL, G_DIV, G_SQRT, G_FMA, G_F2I, G_I2F, G_CVTS, G_CVTD, G_CMP, G_ANY };

static void gen_add(uint64_t *a, uint64_t *b) {
    const fmt *f = &FH;
    *a = gen_fp(f);
    int ea = bexp(f, *a);
    switch (rndn(7)) {
    case 5: case 6: /* half an ulp of a normal a: ties */
        if (ea == 0 || ea == maxbe(f)) *a = at_exp(f, ea = 1 + (int)rndn((unsigned)maxbe(f) - 2));
        *b = mk(f, rndn(2), ea - f->p, rndn(3) ? 0 : rndn(2));
        break;
    case 0: case 1: *b = at_exp(f, ea - (int)rndn((unsigned)f->p + 3)); break; /* close exponents */
    case 2: *b = neg(f, *a) ^ rndn(4); break;                                  /* cancellation */
    default: *b = gen_fp(f);
    }
    if (rndn(2)) {
        uint64_t t = *a;
        *a = *b;
        *b = t;
    }
}

static void gen_mul(uint64_t *a, uint64_t *b) {
    const fmt *f = &FH;
    *a = gen_fp(f);
    if (rndn(3) == 0) {
        *b = gen_fp(f);
        return;
    }
    int ea = bexp(f, *a);
    if (ea == 0) ea = 1 - f->p / 2;
    if (rndn(3) == 0) { /* odd significand times 1.5: ties */
        *a = mk(f, rndn(2), f->bias + (int)rndn(11) - 5, rnd_frac(f) | 1);
        ea = bexp(f, *a);
        *b = mk(f, rndn(2), (rndn(3) ? f->bias : target_be(f)) - ea + f->bias, 1ull << (f->p - 2));
        return;
    }
    *b = at_exp(f, target_be(f) - ea + f->bias);
    if (bexp(f, *b) == 0 && rndn(2)) *b = mk(f, rndn(2), 1, rnd_frac(f));
}

static void gen_div(uint64_t *a, uint64_t *b) {
    const fmt *f = &FH;
    *a = gen_fp(f);
    switch (rndn(4)) {
    case 0: *b = gen_fp(f); break;
    case 1: /* by a power of two into the subnormal range: exact halves */
        *a = at_exp(f, (int)rndn(6));
        *b = mk(f, rndn(2), f->bias + (int)rndn(4), 0);
        break;
    default: *b = at_exp(f, bexp(f, *a) - target_be(f) + f->bias); break;
    }
}

static uint64_t gen_sqrt(void) {
    if (rndn(4) == 0) { /* a perfect square: (m * 2^k)^2 with m of at most 5 bits */
        unsigned m = 1 + rndn(31);
        unsigned sq = m * m; /* < 2^10 */
        int top = 31 - __builtin_clz(sq), k = (int)rndn(9) - 4;
        /* sq * 2^(2k) as a half: exponent top + 2k, fraction the bits below the top */
        return mk(&FH, 0, FH.bias + top + 2 * k, ((uint64_t)sq << (10 - top)) & fracmask(&FH));
    }
    return gen_fp(&FH);
}

static void gen_fma(uint64_t *a, uint64_t *b, uint64_t *c) {
    const fmt *f = &FH;
    gen_mul(a, b);
    switch (rndn(4)) {
    case 0: { /* short exact product plus half an ulp of it: ties */
        int k = 1 + (int)rndn(4);
        *a = mk(f, rndn(2), f->bias + (int)rndn(11) - 5, (rnd() >> (64 - k)) << (f->p - 1 - k));
        *b = mk(f, rndn(2), (rndn(3) ? f->bias : target_be(f)) - bexp(f, *a) + f->bias,
                (rnd() >> (64 - k)) << (f->p - 1 - k));
        int ep = bexp(f, *a) + bexp(f, *b) - f->bias;
        *c = mk(f, rndn(2), ep - f->p + (int)rndn(2), rndn(4) ? 0 : 1);
        break;
    }
    case 1: { /* addend with a close exponent, either sign: cancellation */
        int ep = bexp(f, *a) + bexp(f, *b) - f->bias;
        *c = at_exp(f, ep - 3 + (int)rndn(7));
        break;
    }
    default: *c = gen_fp(f);
    }
}

/* Values around the integer-conversion boundaries a half reaches (|x| <= 65504). */
static uint64_t gen_f2i(void) {
    const fmt *f = &FH;
    switch (rndn(5)) {
    case 0: case 1: { /* small integers, halves, quarters, eighths */
        int i = (int)rndn(33) - 16, q = (int)rndn(8);
        int be = i == 0 ? 0 : 31 - __builtin_clz((unsigned)(i < 0 ? -i : i));
        uint64_t mag = ((uint64_t)(i < 0 ? -i : i) << 3) | (uint64_t)q; /* value * 8 */
        if (mag == 0) return rndn(2) ? 0x8000 : 0;
        int top = 63 - __builtin_clzll(mag);
        (void)be;
        return mk(f, i < 0 || (i == 0 && rndn(2)), f->bias + top - 3, (mag << (10 - top)) & fracmask(f));
    }
    case 2: return mk(f, rndn(2), maxbe(f) - 1 - (int)rndn(2), rnd_frac(f)); /* large */
    default: return gen_fp(f);
    }
}

static uint64_t gen_int(void) {
    switch (rndn(8)) {
    case 0: { /* boundaries */
        static const uint64_t b[] = {0, 1, 0xffffffffffffffffull, 0x7fffffff, 0x80000000, 0xffffffff,
                                     0xffffffff80000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                     0x100000000ull, 65504, 65519, 65520, 65536, 2049, 2047, 4097,
                                     0xffffffffffff0020ull};
        return b[rndn(sizeof b / sizeof b[0])] + rndn(3) - 1;
    }
    case 1: case 2: { /* 11..14 significant bits: ties and near-ties */
        unsigned n = 11 + rndn(4);
        uint64_t m = (rnd() >> (64 - n)) | (1ull << (n - 1)) | 1;
        uint64_t v = m << rndn(6);
        return rndn(3) ? v : 0 - v;
    }
    case 3: return (rnd() & 0xffffffff00000000ull) | (uint32_t)(rnd() >> (32 + rndn(32))); /* garbage above */
    case 4: return (uint64_t)(int64_t)(int32_t)(rnd() >> (32 + rndn(33)));
    default: return rnd() >> rndn(64);
    }
}

/* Singles whose rounding to half is interesting: half values with bits around
 * the half-ulp position (bit 12 for normal halves), the subnormal and overflow ranges. */
static uint64_t gen_cvt_s(void) {
    switch (rndn(4)) {
    case 0: return gen_fp(&FS);
    case 1: return mk(&FS, rndn(2), rndn(2) ? 127 - 14 - (int)rndn(14) : 127 + 14 + (int)rndn(3), rnd_frac(&FS));
    default: {
        uint64_t u = mk(&FS, rndn(2), 127 - 16 + (int)rndn(32), rnd_frac(&FS)) & ~0x1fffull;
        uint64_t half = 1ull << 12;
        switch (rndn(5)) {
        case 0: case 4: return u | half;
        case 1: return u | half | 1;
        case 2: return u | (half - 1);
        default: return u | (rnd() & (2 * half - 1));
        }
    }
    }
}
/* the same for doubles (half an ulp of a normal half is bit 41) */
static uint64_t gen_cvt_d(void) {
    switch (rndn(4)) {
    case 0: return gen_fp(&FD);
    case 1: return mk(&FD, rndn(2), rndn(2) ? 1023 - 14 - (int)rndn(14) : 1023 + 14 + (int)rndn(3), rnd_frac(&FD));
    default: {
        uint64_t u = mk(&FD, rndn(2), 1023 - 16 + (int)rndn(32), rnd_frac(&FD)) & ~((1ull << 42) - 1);
        uint64_t half = 1ull << 41;
        switch (rndn(5)) {
        case 0: case 4: return u | half;
        case 1: return u | half | 1;
        case 2: return u | (half - 1);
        default: return u | (rnd() & (2 * half - 1));
        }
    }
    }
}

static void gen_cmp(uint64_t *a, uint64_t *b) {
    *a = gen_fp(&FH);
    switch (rndn(5)) {
    case 0: *b = *a; break;
    case 1: *b = neg(&FH, *a); break;
    case 2: *b = (*a + 1) & 0xffff; break;
    default: *b = gen_fp(&FH);
    }
}

/* ------------------------------------------------------------------------ */
/* The table                                                                 */

/* operand kinds: H half (NaN-boxed), S single (NaN-boxed), D double, X integer */
enum { K_H, K_S, K_D, K_X };

typedef struct {
    const char *name;
    int gen;
    int kind;        /* of the FP/integer operands */
    int nops;
    opfn fn[6];      /* rne rtz rdn rup rmm dyn; only fn[0] when no rm */
    int has_rm;
} op_t;

#define OP_RM(name, mn, g, k, n) {mn, g, k, n, FNS(name), 1}
#define OP_N(name, mn, g, k, n) {mn, g, k, n, {name}, 0}

static const op_t ops[] = {
    OP_RM(fadd_h, "fadd.h", G_ADD, K_H, 2),
    OP_RM(fsub_h, "fsub.h", G_ADD, K_H, 2),
    OP_RM(fmul_h, "fmul.h", G_MUL, K_H, 2),
    OP_RM(fdiv_h, "fdiv.h", G_DIV, K_H, 2),
    OP_RM(fsqrt_h, "fsqrt.h", G_SQRT, K_H, 1),
    OP_RM(fmadd_h, "fmadd.h", G_FMA, K_H, 3),
    OP_RM(fmsub_h, "fmsub.h", G_FMA, K_H, 3),
    OP_RM(fnmsub_h, "fnmsub.h", G_FMA, K_H, 3),
    OP_RM(fnmadd_h, "fnmadd.h", G_FMA, K_H, 3),
    OP_RM(fcvt_w_h, "fcvt.w.h", G_F2I, K_H, 1),
    OP_RM(fcvt_wu_h, "fcvt.wu.h", G_F2I, K_H, 1),
    OP_RM(fcvt_l_h, "fcvt.l.h", G_F2I, K_H, 1),
    OP_RM(fcvt_lu_h, "fcvt.lu.h", G_F2I, K_H, 1),
    OP_RM(fcvt_h_w, "fcvt.h.w", G_I2F, K_X, 1),
    OP_RM(fcvt_h_wu, "fcvt.h.wu", G_I2F, K_X, 1),
    OP_RM(fcvt_h_l, "fcvt.h.l", G_I2F, K_X, 1),
    OP_RM(fcvt_h_lu, "fcvt.h.lu", G_I2F, K_X, 1),
    OP_RM(fcvt_h_s, "fcvt.h.s", G_CVTS, K_S, 1),
    OP_RM(fcvt_h_d, "fcvt.h.d", G_CVTD, K_D, 1),
    OP_RM(fcvt_s_h, "fcvt.s.h", G_ANY, K_H, 1),
    OP_RM(fcvt_d_h, "fcvt.d.h", G_ANY, K_H, 1),
    OP_N(fmin_h, "fmin.h", G_CMP, K_H, 2),
    OP_N(fmax_h, "fmax.h", G_CMP, K_H, 2),
    OP_N(fsgnj_h, "fsgnj.h", G_CMP, K_H, 2),
    OP_N(fsgnjn_h, "fsgnjn.h", G_CMP, K_H, 2),
    OP_N(fsgnjx_h, "fsgnjx.h", G_CMP, K_H, 2),
    OP_N(feq_h, "feq.h", G_CMP, K_H, 2),
    OP_N(flt_h, "flt.h", G_CMP, K_H, 2),
    OP_N(fle_h, "fle.h", G_CMP, K_H, 2),
    OP_N(fclass_h, "fclass.h", G_ANY, K_H, 1),
    OP_N(fmv_x_h, "fmv.x.h", G_ANY, K_H, 1),
    OP_N(fmv_h_x, "fmv.h.x", G_I2F, K_X, 1),
};
#define NOPS (sizeof ops / sizeof ops[0])

#define BOX_H 0xffffffffffff0000ull
#define BOX_S 0xffffffff00000000ull

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

static void box(const op_t *o, uint64_t in[3]) {
    for (int i = 0; i < o->nops; i++) {
        if (o->kind == K_H) in[i] = BOX_H | (in[i] & 0xffff);
        else if (o->kind == K_S) in[i] = BOX_S | (uint32_t)in[i];
    }
}

static void gen_operands(const op_t *o, uint64_t in[3]) {
    in[0] = in[1] = in[2] = 0;
    switch (o->gen) {
    case G_ADD: gen_add(&in[0], &in[1]); break;
    case G_MUL: gen_mul(&in[0], &in[1]); break;
    case G_DIV: gen_div(&in[0], &in[1]); break;
    case G_SQRT: in[0] = gen_sqrt(); break;
    case G_FMA: gen_fma(&in[0], &in[1], &in[2]); break;
    case G_F2I: in[0] = gen_f2i(); break;
    case G_I2F: in[0] = gen_int(); break;
    case G_CVTS: in[0] = gen_cvt_s(); break;
    case G_CVTD: in[0] = gen_cvt_d(); break;
    case G_CMP: gen_cmp(&in[0], &in[1]); break;
    default: in[0] = gen_fp(&FH); break;
    }
    box(o, in);
}

/* Uniformly random operands of the op's kind: the randomized comparison. */
static void random_operands(const op_t *o, uint64_t in[3]) {
    in[0] = in[1] = in[2] = 0;
    for (int i = 0; i < o->nops; i++) in[i] = rnd();
    box(o, in);
}

/* Special halves for the cross products (each also negated): 0, 1, inf, qNaN,
 * sNaN, min subnormal, min normal, 3, max finite, 0.5 */
static const uint16_t spec_h[] = {0x0000, 0x3c00, 0x7c00, 0x7e00, 0x7c01, 0x0001, 0x0400, 0x4200, 0x7bff, 0x3800};
#define NSPEC (sizeof spec_h / sizeof spec_h[0])

static uint64_t spec(unsigned i) { return BOX_H | spec_h[i / 2] | (i & 1 ? 0x8000u : 0); }

static void cross_products(void) {
    for (unsigned k = 0; k < NOPS; k++) {
        const op_t *o = &ops[k];
        uint64_t in[3] = {0, 0, 0}, fl, r;
        if (o->kind != K_H) continue;
        if (o->nops == 1) {
            for (unsigned i = 0; i < 2 * NSPEC; i++) {
                in[0] = spec(i);
                run(o, in, 0);
            }
        } else if (o->nops == 2) {
            for (unsigned i = 0; i < 2 * NSPEC; i++)
                for (unsigned j = 0; j < 2 * NSPEC; j++) {
                    in[0] = spec(i);
                    in[1] = spec(j);
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
            static const unsigned pick[] = {0, 1, 2, 3, 4, 5, 6, 8};
            for (unsigned i = 0; i < 8; i++)
                for (unsigned j = 0; j < 8; j++)
                    for (unsigned l = 0; l < 8; l++) {
                        int m = (i + j + l) & 1 ? 2 : 0;
                        in[0] = spec(pick[i]);
                        in[1] = spec(pick[j]);
                        in[2] = spec(pick[l]);
                        r = o->fn[m](in[0], in[1], in[2], 0, &fl);
                        emit(o->name, mode_names[m], in, r, fl);
                    }
        }
    }
}

/* Half-precision instructions reading registers that are not properly NaN-boxed
 * (the upper 48 bits not all ones) must see the canonical NaN 0x7e00; fmv.x.h
 * moves the low 16 bits whatever the upper ones. */
static void nanbox(void) {
    static const uint64_t unboxed[] = {0x0000000000003c00ull, 0x7fffffffffff3c00ull, 0xfffeffffffff4000ull,
                                       0xffffffff00003c00ull, 0x3ff0000000000000ull, 0xffffffff3f800000ull,
                                       0xffffffffffff7c01ull /* boxed sNaN */};
    const uint64_t one = BOX_H | 0x3c00u;
    for (unsigned i = 0; i < sizeof unboxed / sizeof unboxed[0]; i++)
        for (unsigned k = 0; k < NOPS; k++) {
            const op_t *o = &ops[k];
            if (o->kind != K_H) continue;
            for (int pos = 0; pos < o->nops; pos++) {
                uint64_t in[3] = {0, 0, 0}, fl, r;
                for (int q = 0; q < o->nops; q++) in[q] = q == pos ? unboxed[i] : one;
                r = o->fn[0](in[0], in[1], in[2], 0, &fl);
                emit(o->name, o->has_rm ? "rne" : "-", in, r, fl);
            }
        }
}

/* flh/fsh: "<mnemonic> - <value> 0 0 <what the program sees> 0" */
static void loads_stores(void) {
    for (int i = 0; i < 16; i++) {
        uint64_t v = rnd(), out;
        uint16_t mem16 = (uint16_t)gen_fp(&FH), st16 = 0;
        uint64_t in[3] = {mem16, 0, 0};
        __asm__ volatile("flh ft0, 0(%[p])\n\tfmv.x.d %[r], ft0" : [r] "=r"(out) : [p] "r"(&mem16), "m"(mem16) : "ft0");
        emit("flh", "-", in, out, 0);
        in[0] = v;
        __asm__ volatile("fmv.d.x ft0, %[v]\n\tfsh ft0, 0(%[p])" : "=m"(st16) : [v] "r"(v), [p] "r"(&st16) : "ft0");
        emit("fsh", "-", in, st16, 0);
    }
}

int main(int argc, char **argv) {
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 80;
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eed16;

    for (unsigned k = 0; k < NOPS; k++) {
        const op_t *o = &ops[k];
        unsigned count = o->has_rm ? n : 2 * n;
        for (unsigned i = 0; i < count; i++) {
            uint64_t in[3];
            gen_operands(o, in);
            run(o, in, o->has_rm && i % 4 == 0);
        }
        for (unsigned i = 0; i < count; i++) {
            uint64_t in[3];
            random_operands(o, in);
            run(o, in, o->has_rm && i % 4 == 0);
        }
    }
    cross_products();
    nanbox();
    loads_stores();
    out_flush();
    return 0;
}
/* clang-format on */
