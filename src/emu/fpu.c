/* fpu — RISC-V F and D arithmetic with exact RISC-V semantics (see fpu.h).
 *
 * How results and exception flags are obtained
 * ---------------------------------------------
 * x86-64 (the target), rounding modes RNE/RTZ/RDN/RUP: the host SSE unit does
 * the work (add/sub/mul/div/sqrt, FMA3 fma when the CPU has it, fcvt.s.d and
 * int->float conversions). Each host operation is ONE inline asm statement
 *     ldmxcsr <mode>; <op>[; stmxcsr <status>][; ldmxcsr <default>]
 * so the compiler cannot move the arithmetic away from the MXCSR accesses.
 * The MXCSR value loaded is complete (all exceptions masked, FTZ and DAZ off,
 * status flags clear, RC = the mode), so the host state never influences a
 * result. A directed-rounding operation reloads the C default MXCSR (0x1f80:
 * round to nearest, masked) inside the same asm statement; an RNE operation
 * leaves exactly that state. fpu_* calls therefore leave the host in the
 * default FP environment, with at most sticky status flags set (the rest of
 * cyclescope must not rely on a non-default MXCSR).
 *
 * Flags. MXCSR status maps IE->NV, ZE->DZ, OE->OF, UE->UF, PE->NX (DE is
 * ignored). x86 detects tininess after rounding and, with UM masked, sets UE
 * only for a tiny AND inexact result: exactly the RISC-V UF rule. Reading the
 * status (stmxcsr) is expensive, though (~5 ns on AMD Zen, where the rest of
 * an operation costs ~1 ns), so it is avoided when possible:
 *  - the operation runs without reading the status; if its result lies in the
 *    range where no flag but NX can arise (finite and below the largest
 *    magnitude for add/sub/sqrt; at least 2^(emin+1) as well for mul/div/fma/
 *    fcvt.s.d), then
 *  - if *fflags already holds NX (sticky; nearly every FP program raises it
 *    early) nothing else is needed;
 *  - otherwise a cheap exactness test decides NX where one is valid (Fast2Sum
 *    for RNE add/sub, an FMA residual for double mul/div/sqrt, exact double
 *    arithmetic for single mul/div/sqrt and fcvt.s.d; see exact_*);
 *  - in all other cases the operation runs again with the status read.
 * int->float conversions can only raise NX, which a bit count decides.
 * x86 quirks neutralised: NaN results (x86 propagates payloads or returns the
 * negative default NaN) are replaced by the canonical NaN; float->int
 * conversions, min/max, comparisons and fclass are done in integer code, so
 * "integer indefinite" and the non-IEEE minsd/maxsd never appear (RTZ float->
 * int uses the host truncating conversion inside the range where it is exact);
 * the NV flag of fma(inf, 0, qNaN) (required by RISC-V, implementation-
 * defined in IEEE) is computed in software whenever an fma result is NaN.
 *
 * RMM (round to nearest, ties to max magnitude; no x86 support):
 *  - single add/sub/mul/div/sqrt/fma ("round-to-odd path", odd_s): the
 *    operation is done in double on the host in RTZ; if the host reports it
 *    inexact, a sticky bit is ORed below the 53-bit significand, giving the
 *    round-to-odd value. Double carries >= 24+2 bits, and for single operands
 *    every double intermediate is normal and finite (|results| lie within
 *    [2^-298, 2^277]), so rounding that value to single with round_pack()
 *    (bit-level: subnormals, overflow, tininess after rounding, UF/NX) gives the
 *    correctly rounded result. The fma product of two singles is exact in
 *    double, so the path needs no hardware FMA.
 *  - double add/sub/mul/fma/div: exact integer arithmetic on the significands
 *    with unsigned __int128 (soft_fma_d, soft_div_d), then round_pack().
 *  - double sqrt: the square root of a p-bit number is never exactly halfway
 *    between two p-bit numbers (a midpoint m has p+1 significant bits with
 *    an odd last bit, so m*m has more than 2p significant bits and cannot be
 *    the p-bit input) and it is never subnormal, so RMM and RNE results and
 *    flags are identical; the RNE hardware result is used.
 *  - fcvt.s.d and int->float: round_pack() on the exact operand.
 * float->int conversions are integer code in every mode (cvt_to_int()).
 *
 * Fallbacks: without FMA3 (checked once at start-up with
 * __builtin_cpu_supports), fma.s uses the round-to-odd path and fma.d the
 * __int128 software in every mode. On other hosts (or with -DFPU_PORTABLE,
 * used to test this code on x86) every mode uses the RMM machinery above:
 * single ops via the round-to-odd path (host double RTZ + inexact read through
 * <fenv.h>), double ops in software, double sqrt through fenv; this is
 * correct on any IEEE host because no double intermediate can underflow
 * there, so the host's tininess convention does not matter.
 *
 * No special compiler flags are needed (no -frounding-math): all rounding-
 * mode-sensitive arithmetic is inside asm statements, on volatile operands, or
 * exact.
 */
#include "fpu.h"

#include <stdint.h>
#include <string.h>

#include "isa/isa.h"

#if defined(__x86_64__) && !defined(FPU_PORTABLE)
#define FPU_X86 1
#else
#define FPU_X86 0
#include <fenv.h>
#include <math.h>
#endif

enum { NX = ISA_FFLAG_NX, UF = ISA_FFLAG_UF, OF = ISA_FFLAG_OF, DZ = ISA_FFLAG_DZ, NV = ISA_FFLAG_NV };
enum { RNE = 0, RTZ = 1, RDN = 2, RUP = 3, RMM = 4 };

#define CNAN_S 0x7fc00000u
#define CNAN_D 0x7ff8000000000000ull
#define SIGN_S 0x80000000u
#define SIGN_D 0x8000000000000000ull
#define INF_S  0x7f800000u
#define INF_D  0x7ff0000000000000ull
#define QBIT_S 0x00400000u
#define QBIT_D 0x0008000000000000ull
#define FRAC_S 0x007fffffu
#define FRAC_D 0x000fffffffffffffull
#define ONE_S  0x3f800000u
#define ONE_D  0x3ff0000000000000ull

typedef unsigned __int128 u128;

static inline float f_of(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline __attribute__((unused)) uint32_t u_of_f(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static inline double d_of(uint64_t u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}
static inline uint64_t u_of_d(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static inline int nan_s(uint32_t a) { return (a & ~SIGN_S) > INF_S; }
static inline int snan_s(uint32_t a) { return nan_s(a) && !(a & QBIT_S); }
static inline int nan_d(uint64_t a) { return (a & ~SIGN_D) > INF_D; }
static inline int snan_d(uint64_t a) { return nan_d(a) && !(a & QBIT_D); }

/* ------------------------------------------------------------------------ */
/* Bit-level rounding                                                        */

static inline uint64_t shr_jam64(uint64_t x, int n) {
    if (n <= 0) return x;
    if (n >= 64) return x != 0;
    return (x >> n) | ((x << (64 - n)) != 0);
}

static inline u128 shr_jam128(u128 x, int n) {
    if (n <= 0) return x;
    if (n >= 128) return x != 0;
    return (x >> n) | (u128)((x << (128 - n)) != 0);
}

static inline int clz128(u128 x) { /* x != 0 */
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? __builtin_clzll(hi) : 64 + __builtin_clzll((uint64_t)x);
}

/* Whether to add one unit in the last place, given the discarded bits
 * `rbits` (half = the weight of half a unit) and the kept lsb. */
static inline int round_inc(unsigned rm, unsigned sign, uint64_t rbits, uint64_t half, uint64_t lsb) {
    switch (rm) {
    case RNE: return rbits > half || (rbits == half && lsb);
    case RTZ: return 0;
    case RDN: return sign && rbits;
    case RUP: return !sign && rbits;
    default: return rbits >= half; /* RMM */
    }
}

/* Round (-1)^sign * sig * 2^(exp-63) to the binary format with `prec`
 * significand bits and maximum exponent `emax` (half 11/15, single 24/127,
 * double 53/1023). sig has bit 63 set; its low bits hold everything below the target
 * precision, with any further nonzero bits ORed into bit 0 (sticky). Handles
 * overflow, subnormals, tininess after rounding; raises NX/UF/OF. */
static inline uint64_t round_pack(unsigned sign, int exp, uint64_t sig, unsigned rm, unsigned *fl, const int prec,
                                  const int emax) {
    const int emin = 1 - emax, rb = 64 - prec;
    const uint64_t rmask = (1ull << rb) - 1, half = 1ull << (rb - 1);
    const uint64_t sbit = (uint64_t)sign << (prec == 11 ? 15 : prec == 24 ? 31 : 63);
    const uint64_t inf = (uint64_t)(2 * emax + 1) << (prec - 1);
    int tiny = 0;
    if (exp < emin) {
        /* Tiny unless rounding to prec bits with an unbounded exponent
         * carries the value up to 2^emin. */
        if (exp == emin - 1) {
            uint64_t m = sig >> rb;
            tiny = !(m == (1ull << prec) - 1 && round_inc(rm, sign, sig & rmask, half, 1));
        } else {
            tiny = 1;
        }
        sig = shr_jam64(sig, emin - exp);
        exp = emin;
    }
    uint64_t r = sig & rmask, m = sig >> rb;
    if (round_inc(rm, sign, r, half, m & 1)) {
        m++;
        if (m >> prec) { /* carry out of a normal significand */
            m >>= 1;
            exp++;
        }
    }
    if (exp > emax) {
        *fl |= OF | NX;
        int to_inf = rm == RNE || rm == RMM || (rm == RDN && sign) || (rm == RUP && !sign);
        return sbit | (to_inf ? inf : inf - 1);
    }
    if (r) *fl |= tiny ? (NX | UF) : NX;
    /* m's hidden bit (if set) adds one to the exponent field, so subnormals
     * (exp == emin, hidden bit clear) get field 0 and normals exp+emax. */
    return sbit | (((uint64_t)(exp + emax - 1) << (prec - 1)) + m);
}

static inline uint32_t round_pack_s(unsigned sign, int exp, uint64_t sig, unsigned rm, unsigned *fl) {
    return (uint32_t)round_pack(sign, exp, sig, rm, fl, 24, 127);
}
static inline uint64_t round_pack_d(unsigned sign, int exp, uint64_t sig, unsigned rm, unsigned *fl) {
    return round_pack(sign, exp, sig, rm, fl, 53, 1023);
}

/* Finite nonzero magnitude -> significand with the hidden bit at bit 52
 * (double) / 23 (single) and unbiased exponent. */
static inline void unpack_d(uint64_t m, int *exp, uint64_t *sig) {
    int e = (int)(m >> 52);
    if (e == 0) {
        int s = __builtin_clzll(m) - 11;
        *sig = m << s;
        *exp = -1022 - s;
    } else {
        *sig = (m & FRAC_D) | (1ull << 52);
        *exp = e - 1023;
    }
}
static inline void unpack_s(uint32_t m, int *exp, uint64_t *sig) {
    int e = (int)(m >> 23);
    if (e == 0) {
        int s = __builtin_clz(m) - 8;
        *sig = (uint64_t)m << s;
        *exp = -126 - s;
    } else {
        *sig = (m & FRAC_S) | (1u << 23);
        *exp = e - 127;
    }
}

/* ------------------------------------------------------------------------ */
/* Software double arithmetic (RMM on x86, every mode elsewhere)             */

/* a*b + c (or just a*b when !has_c) with one rounding. */
static uint64_t soft_fma_d(uint64_t a, uint64_t b, uint64_t c, int has_c, unsigned rm, unsigned *fl) {
    const unsigned sp = (unsigned)((a ^ b) >> 63), sc = (unsigned)(c >> 63);
    const uint64_t ma = a & ~SIGN_D, mb = b & ~SIGN_D, mc = has_c ? c & ~SIGN_D : 0;
    if (ma > INF_D || mb > INF_D || mc > INF_D) {
        if (snan_d(a) || snan_d(b) || (has_c && snan_d(c)) || (ma == INF_D && mb == 0) || (ma == 0 && mb == INF_D))
            *fl |= NV;
        return CNAN_D;
    }
    if (ma == INF_D || mb == INF_D) {
        if (ma == 0 || mb == 0 || (mc == INF_D && sc != sp)) {
            *fl |= NV;
            return CNAN_D;
        }
        return ((uint64_t)sp << 63) | INF_D;
    }
    if (mc == INF_D) return c;
    if (ma == 0 || mb == 0) {
        if (!has_c) return (uint64_t)sp << 63;
        if (mc != 0) return c;
        /* sum of two zeros: -0 only if both are -0, or in RDN if either is */
        return (sp == sc) ? c : (rm == RDN ? SIGN_D : 0);
    }
    int ea, eb;
    uint64_t ga, gb;
    unpack_d(ma, &ea, &ga);
    unpack_d(mb, &eb, &gb);
    u128 p = (u128)ga * gb; /* in [2^104, 2^106): value = p * 2^(ea+eb-104) */
    int top = (p >> 105) ? 105 : 104;
    p <<= 126 - top;
    int ep = ea + eb + top - 104; /* value = p * 2^(ep-126), p top bit at 126 */
    unsigned sign = sp;
    if (mc != 0) {
        int ec;
        uint64_t gc;
        unpack_d(mc, &ec, &gc);
        u128 q = (u128)gc << 74; /* value = q * 2^(ec-126) */
        if (ep >= ec) {
            q = shr_jam128(q, ep - ec);
        } else {
            p = shr_jam128(p, ec - ep);
            ep = ec;
        }
        if (sc == sp) {
            p += q; /* may carry into bit 127 */
        } else if (p >= q) {
            p -= q;
        } else {
            p = q - p;
            sign = sc;
        }
        if (p == 0) return rm == RDN ? SIGN_D : 0; /* exact cancellation */
    }
    int t = 127 - clz128(p);
    u128 n = p << (127 - t);
    uint64_t sig = (uint64_t)(n >> 64) | ((uint64_t)n != 0);
    return round_pack_d(sign, ep - 126 + t, sig, rm, fl);
}

static uint64_t soft_div_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fl) {
    const unsigned sign = (unsigned)((a ^ b) >> 63);
    const uint64_t ma = a & ~SIGN_D, mb = b & ~SIGN_D, sbit = (uint64_t)sign << 63;
    if (ma > INF_D || mb > INF_D) {
        if (snan_d(a) || snan_d(b)) *fl |= NV;
        return CNAN_D;
    }
    if (ma == INF_D || mb == 0) {
        if (mb == INF_D || ma == 0) { /* inf/inf, 0/0 */
            *fl |= NV;
            return CNAN_D;
        }
        if (ma != INF_D) *fl |= DZ; /* finite / 0; inf / 0 is exact */
        return sbit | INF_D;
    }
    if (ma == 0 || mb == INF_D) return sbit;
    int ea, eb;
    uint64_t ga, gb;
    unpack_d(ma, &ea, &ga);
    unpack_d(mb, &eb, &gb);
    int sh = ga < gb ? 64 : 63;
    u128 n = (u128)ga << sh;
    uint64_t q = (uint64_t)(n / gb), r = (uint64_t)(n % gb); /* q in [2^63, 2^64) */
    return round_pack_d(sign, ea - eb - sh + 63, q | (r != 0), rm, fl);
}

/* ------------------------------------------------------------------------ */
/* Host primitives                                                           */

#if FPU_X86

/* MXCSR: all exceptions masked (0x1f80), RC in bits 13-14, flags clear. */
static const uint32_t mxcsr_rc[4] = {
    0x1f80u, /* RNE: RC=00 */
    0x7f80u, /* RTZ: RC=11 */
    0x3f80u, /* RDN: RC=01 */
    0x5f80u, /* RUP: RC=10 */
};
#define MXCSR_RTZ (&mxcsr_rc[RTZ])

/* MXCSR status bits (IE=1 DE=2 ZE=4 OE=8 UE=16 PE=32) -> fflags */
#define FM(i) \
    (uint8_t)((((i)&1) ? NV : 0) | (((i)&4) ? DZ : 0) | (((i)&8) ? OF : 0) | (((i)&16) ? UF : 0) | (((i)&32) ? NX : 0))
#define FM4(i)  FM(i), FM((i) + 1), FM((i) + 2), FM((i) + 3)
#define FM16(i) FM4(i), FM4((i) + 4), FM4((i) + 8), FM4((i) + 12)
static const uint8_t mxcsr_fflags[64] = {FM16(0), FM16(16), FM16(32), FM16(48)};
#define MX_IE 1u
#define MX_ZE 4u
#define MX_PE 32u

/* Two-operand SSE forms "op src, dst" (dst = dst op src); with AVX enabled
 * for the whole build, the VEX forms avoid SSE/AVX transition stalls. */
#ifdef __AVX__
#define SSE2OP(insn, src, dst) "v" insn " %[" src "], %[" dst "], %[" dst "]"
#else
#define SSE2OP(insn, src, dst) insn " %[" src "], %[" dst "]"
#endif

#define ASM_PRE          "ldmxcsr %[c]\n\t"
#define ASM_POST_RESTORE "\n\tstmxcsr %[s]\n\tldmxcsr %[d]"

/* Each primitive comes in two forms: fn() returns the MXCSR status in *st
 * (ldmxcsr; op; stmxcsr), fn_nf() does not read it (ldmxcsr; op). Reading the
 * status is the expensive part (stmxcsr waits for the FP pipeline: ~5 ns on
 * AMD Zen, where ldmxcsr costs well under 1 ns); see the fast paths below. */
#define SSE_ASM(ops, restore, ...)                                                                          \
    do {                                                                                                    \
        if (!(restore)) __asm__ volatile(ASM_PRE ops __VA_ARGS__, [c] "m"(mxcsr_rc[rm]));                   \
        else                                                                                                \
            __asm__ volatile(                                                                               \
                ASM_PRE ops "\n\tldmxcsr %[d]" __VA_ARGS__, [c] "m"(mxcsr_rc[rm]), [d] "m"(mxcsr_rc[RNE])); \
    } while (0)

/* x = x <insn> y in mode rm (0-3) */
#define DEF_SSE_BIN(fn, insn, T)                                                                                  \
    static inline __attribute__((unused)) T fn(T x, T y, unsigned rm, uint32_t *st) {                             \
        SSE_ASM(SSE2OP(insn, "y", "x") "\n\tstmxcsr %[s]", rm != RNE, : [x] "+x"(x), [s] "=m"(*st) : [y] "x"(y)); \
        return x;                                                                                                 \
    }                                                                                                             \
    static inline __attribute__((unused)) T fn##_nf(T x, T y, unsigned rm) {                                      \
        SSE_ASM(SSE2OP(insn, "y", "x"), rm != RNE, : [x] "+x"(x) : [y] "x"(y));                                   \
        return x;                                                                                                 \
    }
DEF_SSE_BIN(sse_add_d, "addsd", double)
DEF_SSE_BIN(sse_sub_d, "subsd", double)
DEF_SSE_BIN(sse_mul_d, "mulsd", double)
DEF_SSE_BIN(sse_div_d, "divsd", double)
DEF_SSE_BIN(sse_add_s, "addss", float)
DEF_SSE_BIN(sse_sub_s, "subss", float)
DEF_SSE_BIN(sse_mul_s, "mulss", float)
DEF_SSE_BIN(sse_div_s, "divss", float)

/* r = <insn>(y): sqrt, format and int->float conversions. (r starts at 0,
 * which also breaks the false dependency on the destination register.) */
#define DEF_SSE_UN(fn, insn, Tin, cin, Tout)                                                                      \
    static inline __attribute__((unused)) Tout fn(Tin y, unsigned rm, uint32_t *st) {                             \
        Tout r = 0;                                                                                               \
        SSE_ASM(SSE2OP(insn, "y", "r") "\n\tstmxcsr %[s]", rm != RNE, : [r] "+x"(r), [s] "=m"(*st) : [y] cin(y)); \
        return r;                                                                                                 \
    }                                                                                                             \
    static inline __attribute__((unused)) Tout fn##_nf(Tin y, unsigned rm) {                                      \
        Tout r = 0;                                                                                               \
        SSE_ASM(SSE2OP(insn, "y", "r"), rm != RNE, : [r] "+x"(r) : [y] cin(y));                                   \
        return r;                                                                                                 \
    }
DEF_SSE_UN(sse_sqrt_d, "sqrtsd", double, "x", double)
DEF_SSE_UN(sse_sqrt_s, "sqrtss", float, "x", float)
DEF_SSE_UN(sse_cvt_s_d, "cvtsd2ss", double, "x", float)
DEF_SSE_UN(sse_cvt_d_l, "cvtsi2sdq", int64_t, "r", double)
DEF_SSE_UN(sse_cvt_s_l, "cvtsi2ssq", int64_t, "r", float)

/* z = x*y + z, FMA3 (only called when the CPU has it) */
#define DEF_SSE_FMA(fn, insn, T)                                                              \
    static inline __attribute__((unused)) T fn(T x, T y, T z, unsigned rm, uint32_t *st) {    \
        SSE_ASM(insn " %[y], %[x], %[z]\n\tstmxcsr %[s]", rm != RNE,                          \
                : [z] "+x"(z), [s] "=m"(*st)                                                  \
                : [x] "x"(x), [y] "x"(y));                                                    \
        return z;                                                                             \
    }                                                                                         \
    static inline __attribute__((unused)) T fn##_nf(T x, T y, T z, unsigned rm) {             \
        SSE_ASM(insn " %[y], %[x], %[z]", rm != RNE, : [z] "+x"(z) : [x] "x"(x), [y] "x"(y)); \
        return z;                                                                             \
    }
DEF_SSE_FMA(sse_fma_d, "vfmadd231sd", double)
DEF_SSE_FMA(sse_fma_s, "vfmadd231ss", float)

/* Result ranges in which no flag but NX can arise. safe_add: finite and below
 * the largest finite magnitude (directed modes return that on overflow); add,
 * sub and sqrt can return zeros and subnormals only exactly. safe_mul: also
 * at least 2^(emin+1), which excludes zero and subnormal results and the
 * smallest normal binade (a result of 2^emin can be tiny after rounding). */
#define MAXF_D  0x7fefffffffffffffull
#define MAXF_S  0x7f7fffffu
#define EMIN1_D 0x0020000000000000ull /* 2^-1021 */
#define EMIN1_S 0x01000000u           /* 2^-125 */
static inline int safe_add_d(uint64_t u) { return (u & ~SIGN_D) < MAXF_D; }
static inline int safe_add_s(uint32_t u) { return (u & ~SIGN_S) < MAXF_S; }
static inline int safe_mul_d(uint64_t u) { return (u & ~SIGN_D) - EMIN1_D < MAXF_D - EMIN1_D; }
static inline int safe_mul_s(uint32_t u) { return (u & ~SIGN_S) - EMIN1_S < MAXF_S - EMIN1_S; }

static int have_fma;

__attribute__((constructor)) static void fpu_detect(void) {
#ifndef FPU_NO_HW_FMA
    __builtin_cpu_init();
    have_fma = __builtin_cpu_supports("fma");
#endif
}

static inline uint64_t done_d(double r, uint32_t st, unsigned *fl) {
    uint64_t u = u_of_d(r);
    *fl |= mxcsr_fflags[st & 63];
    return nan_d(u) ? CNAN_D : u;
}
static inline uint32_t done_s(float r, uint32_t st, unsigned *fl) {
    uint32_t u = u_of_f(r);
    *fl |= mxcsr_fflags[st & 63];
    return nan_s(u) ? CNAN_S : u;
}

#endif /* FPU_X86 */

/* ------------------------------------------------------------------------ */
/* Round-to-odd path for single precision                                    */

enum { OP_ADD, OP_MUL, OP_DIV, OP_SQRT, OP_FMA };

/* Host double arithmetic in RTZ: returns the result, *inexact, and NV/DZ in
 * *fl. Operands are finite or infinite doubles converted from singles (no
 * NaNs), so the result is never subnormal, overflowed or a signaling NaN. */
static double rtz_d(int op, double x, double y, double z, int *inexact, unsigned *fl) {
#if FPU_X86
    uint32_t st;
    switch (op) {
    case OP_ADD:
        __asm__ volatile(ASM_PRE SSE2OP("addsd", "y", "x") ASM_POST_RESTORE
                         : [x] "+x"(x), [s] "=m"(st)
                         : [y] "x"(y), [c] "m"(*MXCSR_RTZ), [d] "m"(mxcsr_rc[RNE]));
        break;
    case OP_MUL:
        __asm__ volatile(ASM_PRE SSE2OP("mulsd", "y", "x") ASM_POST_RESTORE
                         : [x] "+x"(x), [s] "=m"(st)
                         : [y] "x"(y), [c] "m"(*MXCSR_RTZ), [d] "m"(mxcsr_rc[RNE]));
        break;
    case OP_DIV:
        __asm__ volatile(ASM_PRE SSE2OP("divsd", "y", "x") ASM_POST_RESTORE
                         : [x] "+x"(x), [s] "=m"(st)
                         : [y] "x"(y), [c] "m"(*MXCSR_RTZ), [d] "m"(mxcsr_rc[RNE]));
        break;
    case OP_SQRT:
        __asm__ volatile(ASM_PRE SSE2OP("sqrtsd", "x", "x") ASM_POST_RESTORE
                         : [x] "+x"(x), [s] "=m"(st)
                         : [c] "m"(*MXCSR_RTZ), [d] "m"(mxcsr_rc[RNE]));
        break;
    default: /* OP_FMA: the product of two singles is exact in double */
        __asm__ volatile(ASM_PRE SSE2OP("mulsd", "y", "x") "\n\t" SSE2OP("addsd", "z", "x") ASM_POST_RESTORE
                         : [x] "+x"(x), [s] "=m"(st)
                         : [y] "x"(y), [z] "x"(z), [c] "m"(*MXCSR_RTZ), [d] "m"(mxcsr_rc[RNE]));
        break;
    }
    *inexact = (st & MX_PE) != 0;
    *fl |= mxcsr_fflags[st & (MX_IE | MX_ZE)];
    return x;
#else
    volatile double vx = x, vy = y, vz = z, vr;
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_ALL_EXCEPT);
    switch (op) {
    case OP_ADD: vr = vx + vy; break;
    case OP_MUL: vr = vx * vy; break;
    case OP_DIV: vr = vx / vy; break;
    case OP_SQRT: vr = sqrt(vx); break;
    default: {
        double p = vx * vy; /* exact */
        vr = p + vz;
        break;
    }
    }
    int ex = fetestexcept(FE_ALL_EXCEPT);
    fesetround(FE_TONEAREST);
    *inexact = (ex & FE_INEXACT) != 0;
    if (ex & FE_INVALID) *fl |= NV;
    if (ex & FE_DIVBYZERO) *fl |= DZ;
    return vr;
#endif
}

/* op on single operands (no NaNs among them), rounded in rm. For OP_ADD and
 * OP_FMA, `zsign_rdn` is the sign an exact zero sum takes in RDN (host RTZ
 * already gives the right zero for the other modes). */
static uint32_t odd_s(int op, uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned zsign_rdn, unsigned *fl) {
    int inexact;
    double r = rtz_d(op, (double)f_of(a), (double)f_of(b), (double)f_of(c), &inexact, fl);
    uint64_t u = u_of_d(r), m = u & ~SIGN_D;
    unsigned sign = (unsigned)(u >> 63);
    if (m > INF_D) return CNAN_S; /* invalid: NV already raised */
    if (m == INF_D) return (sign ? SIGN_S : 0) | INF_S;
    if (m == 0) return (rm == RDN && (op == OP_ADD || op == OP_FMA)) ? zsign_rdn << 31 : sign << 31;
    uint64_t sig = ((m & FRAC_D) | (1ull << 52)) << 11 | (uint64_t)inexact;
    return round_pack_s(sign, (int)(m >> 52) - 1023, sig, rm, fl);
}

/* NaN operands of a single binary op: canonical NaN, NV if signaling. */
static inline int nan_in_s(uint32_t a, uint32_t b, unsigned *fl) {
    if (!nan_s(a) && !nan_s(b)) return 0;
    if (snan_s(a) || snan_s(b)) *fl |= NV;
    return 1;
}

/* RDN zero sign of x + y when the sum is exactly zero: +0 only if both +0. */
static inline unsigned zsign_add_rdn_s(uint32_t x, uint32_t y) { return !(x == 0 && y == 0); }

static uint32_t gen_add_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fl) {
    if (nan_in_s(a, b, fl)) return CNAN_S;
    return odd_s(OP_ADD, a, b, 0, rm, zsign_add_rdn_s(a, b), fl);
}

/* NV for an fma whose result is NaN: signaling input, inf*0 (even with a
 * quiet NaN addend, as RISC-V requires), or inf-inf with no NaN input. */
static inline unsigned fma_nan_flags_s(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t ma = a & ~SIGN_S, mb = b & ~SIGN_S;
    if (snan_s(a) || snan_s(b) || snan_s(c)) return NV;
    if ((ma == INF_S && mb == 0) || (ma == 0 && mb == INF_S)) return NV;
    if (nan_s(a) || nan_s(b) || nan_s(c)) return 0;
    return NV;
}
static inline __attribute__((unused)) unsigned fma_nan_flags_d(uint64_t a, uint64_t b, uint64_t c) {
    uint64_t ma = a & ~SIGN_D, mb = b & ~SIGN_D;
    if (snan_d(a) || snan_d(b) || snan_d(c)) return NV;
    if ((ma == INF_D && mb == 0) || (ma == 0 && mb == INF_D)) return NV;
    if (nan_d(a) || nan_d(b) || nan_d(c)) return 0;
    return NV;
}

static uint32_t gen_fma_s(uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned *fl) {
    if (nan_s(a) || nan_s(b) || nan_s(c)) {
        *fl |= fma_nan_flags_s(a, b, c);
        return CNAN_S;
    }
    /* exact-zero sum in RDN: +0 only if product and addend are both +0 */
    int pzero = (a & ~SIGN_S) == 0 || (b & ~SIGN_S) == 0;
    unsigned pplus = pzero && !((a ^ b) & SIGN_S);
    return odd_s(OP_FMA, a, b, c, rm, !(pplus && c == 0), fl);
}

/* ------------------------------------------------------------------------ */
/* Arithmetic                                                                */

#if FPU_X86
/* Fast paths. Reading the MXCSR status is what costs (see above), so the
 * operation first runs without it (the _nf primitive). If the result lies in
 * the range where no flag but NX can arise (safe_add_x, safe_mul_x), then:
 *  1. if *fflags already holds NX (it is sticky, and nearly every FP program
 *     raises it early), nothing else is needed;
 *  2. otherwise an exactness test decides NX when one is cheap and valid
 *     (EXACT: 1 exact, 0 inexact, -1 unknown; see the exact_* helpers).
 * Everything else takes the full path: the operation again, with the status
 * read (and NaN canonicalisation). */
#define X86_FAST(U, uof, opnf, ok, EXACT)                    \
    do {                                                     \
        const U u = uof(opnf);                               \
        if (__builtin_expect(ok(u), 1)) {                    \
            if (__builtin_expect(*fflags & NX, 1)) return u; \
            const int ex_ = (EXACT);                         \
            if (ex_ >= 0) {                                  \
                if (!ex_) *fflags |= NX;                     \
                return u;                                    \
            }                                                \
        }                                                    \
    } while (0)

/* Exactness tests, run after the operation (they depend on its result, so
 * the ldmxcsr above has cleared any host FTZ/DAZ and set round-to-nearest).
 *
 * add/sub, RNE only: s = RN(x+y) is exact iff s-x == y and s-y == x. If it is
 * exact both differences are representable; if not, with |x| >= |y| (either
 * way round) s-x is computed exactly (Fast2Sum) and differs from y.
 *
 * mul/div/sqrt in double: the residual x*y-p, x-q*y or x-r*r is computed with
 * one FMA; it is zero iff the result is exact, provided a nonzero residual
 * cannot round to zero, i.e. it is a multiple of some g >= 2^-1074 (then it
 * is at least 2^-1074 and rounds to nonzero in any mode). The residual is a
 * multiple of ulp(x)*ulp(y), of min(ulp(x), ulp(q)*ulp(y)), of
 * min(ulp(x), ulp(r)^2) respectively; with |p| >= 2^-968 (resp. |x| >= 2^-968)
 * and a result in the safe range those products are >= 2^-1074 (for a
 * subnormal operand the other one is then > 2^52). The argument holds for any
 * faithful result, so for every rounding mode. Needs FMA3.
 *
 * single mul/div/sqrt and fcvt.s.d: the checks x*y == p, q*y == x, r*r == x,
 * (double)r == x are exact in double. */
#define BIG_D 0x0370000000000000ull /* 2^-968 */

static inline double fma_host(double x, double y, double z) { /* z + x*y, FMA3 */
    __asm__("vfmadd231sd %[y], %[x], %[z]" : [z] "+x"(z) : [x] "x"(x), [y] "x"(y));
    return z;
}
static inline int exact_add_d(double x, double y, double s, unsigned rm) {
    return rm == RNE ? (s - x == y && s - y == x) : -1;
}
static inline int exact_add_s(float x, float y, float s, unsigned rm) {
    return rm == RNE ? (s - x == y && s - y == x) : -1;
}
static inline int exact_mul_d(double x, double y, double p) {
    if (!have_fma || (u_of_d(p) & ~SIGN_D) < BIG_D) return -1;
    return fma_host(x, y, -p) == 0;
}
static inline int exact_div_d(double x, double y, double q) {
    if (!have_fma || (u_of_d(x) & ~SIGN_D) < BIG_D) return -1;
    return fma_host(-q, y, x) == 0;
}
static inline int exact_sqrt_d(double x, double r) {
    if (!have_fma || (u_of_d(x) & ~SIGN_D) < BIG_D) return -1;
    return fma_host(-r, r, x) == 0;
}
#endif

uint32_t fpu_add_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        const float x = f_of(a), y = f_of(b);
        float r;
        X86_FAST(uint32_t, u_of_f, r = sse_add_s_nf(x, y, rm), safe_add_s, exact_add_s(x, y, r, rm));
        uint32_t st;
        r = sse_add_s(x, y, rm, &st);
        return done_s(r, st, fflags);
    }
#endif
    return gen_add_s(a, b, rm, fflags);
}

uint32_t fpu_sub_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        const float x = f_of(a), y = f_of(b);
        float r;
        X86_FAST(uint32_t, u_of_f, r = sse_sub_s_nf(x, y, rm), safe_add_s, exact_add_s(x, -y, r, rm));
        uint32_t st;
        r = sse_sub_s(x, y, rm, &st);
        return done_s(r, st, fflags);
    }
#endif
    if (nan_in_s(a, b, fflags)) return CNAN_S;
    return gen_add_s(a, b ^ SIGN_S, rm, fflags);
}

uint32_t fpu_mul_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        const float x = f_of(a), y = f_of(b);
        float r;
        X86_FAST(uint32_t, u_of_f, r = sse_mul_s_nf(x, y, rm), safe_mul_s, (double)x * (double)y == (double)r);
        uint32_t st;
        r = sse_mul_s(x, y, rm, &st);
        return done_s(r, st, fflags);
    }
#endif
    if (nan_in_s(a, b, fflags)) return CNAN_S;
    return odd_s(OP_MUL, a, b, 0, rm, 0, fflags);
}

uint32_t fpu_div_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        const float x = f_of(a), y = f_of(b);
        float r;
        X86_FAST(uint32_t, u_of_f, r = sse_div_s_nf(x, y, rm), safe_mul_s, (double)r * (double)y == (double)x);
        uint32_t st;
        r = sse_div_s(x, y, rm, &st);
        return done_s(r, st, fflags);
    }
#endif
    if (nan_in_s(a, b, fflags)) return CNAN_S;
    return odd_s(OP_DIV, a, b, 0, rm, 0, fflags);
}

uint32_t fpu_sqrt_s(uint32_t a, unsigned rm, unsigned *fflags) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        const float x = f_of(a);
        float r;
        X86_FAST(uint32_t, u_of_f, r = sse_sqrt_s_nf(x, rm), safe_add_s, (double)r * (double)r == (double)x);
        uint32_t st;
        r = sse_sqrt_s(x, rm, &st);
        return done_s(r, st, fflags);
    }
#endif
    if (nan_in_s(a, 0, fflags)) return CNAN_S;
    return odd_s(OP_SQRT, a, 0, 0, rm, 0, fflags);
}

uint64_t fpu_add_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fflags) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        const double x = d_of(a), y = d_of(b);
        double r;
        X86_FAST(uint64_t, u_of_d, r = sse_add_d_nf(x, y, rm), safe_add_d, exact_add_d(x, y, r, rm));
        uint32_t st;
        r = sse_add_d(x, y, rm, &st);
        return done_d(r, st, fflags);
    }
#endif
    return soft_fma_d(a, ONE_D, b, 1, rm, fflags);
}

uint64_t fpu_sub_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fflags) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        const double x = d_of(a), y = d_of(b);
        double r;
        X86_FAST(uint64_t, u_of_d, r = sse_sub_d_nf(x, y, rm), safe_add_d, exact_add_d(x, -y, r, rm));
        uint32_t st;
        r = sse_sub_d(x, y, rm, &st);
        return done_d(r, st, fflags);
    }
#endif
    return soft_fma_d(a, ONE_D, b ^ SIGN_D, 1, rm, fflags);
}

uint64_t fpu_mul_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fflags) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        const double x = d_of(a), y = d_of(b);
        double r;
        X86_FAST(uint64_t, u_of_d, r = sse_mul_d_nf(x, y, rm), safe_mul_d, exact_mul_d(x, y, r));
        uint32_t st;
        r = sse_mul_d(x, y, rm, &st);
        return done_d(r, st, fflags);
    }
#endif
    return soft_fma_d(a, b, 0, 0, rm, fflags);
}

uint64_t fpu_div_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fflags) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        const double x = d_of(a), y = d_of(b);
        double r;
        X86_FAST(uint64_t, u_of_d, r = sse_div_d_nf(x, y, rm), safe_mul_d, exact_div_d(x, y, r));
        uint32_t st;
        r = sse_div_d(x, y, rm, &st);
        return done_d(r, st, fflags);
    }
#endif
    return soft_div_d(a, b, rm, fflags);
}

uint64_t fpu_sqrt_d(uint64_t a, unsigned rm, unsigned *fflags) {
    if (rm == RMM) rm = RNE; /* no ties, no subnormal results: see top */
#if FPU_X86
    const double x = d_of(a);
    double r;
    X86_FAST(uint64_t, u_of_d, r = sse_sqrt_d_nf(x, rm), safe_add_d, exact_sqrt_d(x, r));
    uint32_t st;
    r = sse_sqrt_d(x, rm, &st);
    return done_d(r, st, fflags);
#else
    if (nan_d(a)) {
        if (snan_d(a)) *fflags |= NV;
        return CNAN_D;
    }
    if ((a >> 63) && a != SIGN_D) {
        *fflags |= NV;
        return CNAN_D;
    }
    static const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    volatile double vx = d_of(a), vr;
    fesetround(modes[rm]);
    feclearexcept(FE_ALL_EXCEPT);
    vr = sqrt(vx);
    int ex = fetestexcept(FE_INEXACT);
    fesetround(FE_TONEAREST);
    if (ex) *fflags |= NX;
    return u_of_d(vr);
#endif
}

uint32_t fpu_fma_s(uint32_t a, uint32_t b, uint32_t c, int negate_product, int negate_addend, unsigned rm,
                   unsigned *fflags) {
    if (negate_product) a ^= SIGN_S;
    if (negate_addend) c ^= SIGN_S;
#if FPU_X86
    if (__builtin_expect(rm != RMM && have_fma, 1)) {
        const float x = f_of(a), y = f_of(b), z = f_of(c);
        if (__builtin_expect(*fflags & NX, 1)) {
            uint32_t u = u_of_f(sse_fma_s_nf(x, y, z, rm));
            if (__builtin_expect(safe_mul_s(u), 1)) return u;
        }
        uint32_t st;
        uint32_t r = u_of_f(sse_fma_s(x, y, z, rm, &st));
        if (__builtin_expect(nan_s(r), 0)) {
            *fflags |= fma_nan_flags_s(a, b, c);
            return CNAN_S;
        }
        *fflags |= mxcsr_fflags[st & 63];
        return r;
    }
#endif
    return gen_fma_s(a, b, c, rm, fflags);
}

uint64_t fpu_fma_d(uint64_t a, uint64_t b, uint64_t c, int negate_product, int negate_addend, unsigned rm,
                   unsigned *fflags) {
    if (negate_product) a ^= SIGN_D;
    if (negate_addend) c ^= SIGN_D;
#if FPU_X86
    if (__builtin_expect(rm != RMM && have_fma, 1)) {
        const double x = d_of(a), y = d_of(b), z = d_of(c);
        if (__builtin_expect(*fflags & NX, 1)) {
            uint64_t u = u_of_d(sse_fma_d_nf(x, y, z, rm));
            if (__builtin_expect(safe_mul_d(u), 1)) return u;
        }
        uint32_t st;
        uint64_t r = u_of_d(sse_fma_d(x, y, z, rm, &st));
        if (__builtin_expect(nan_d(r), 0)) {
            *fflags |= fma_nan_flags_d(a, b, c);
            return CNAN_D;
        }
        *fflags |= mxcsr_fflags[st & 63];
        return r;
    }
#endif
    return soft_fma_d(a, b, c, 1, rm, fflags);
}

/* ------------------------------------------------------------------------ */
/* min/max, comparisons, classification                                      */

/* Monotonic unsigned key of a non-NaN value: -0 < +0, sign-magnitude order. */
static inline uint32_t key_s(uint32_t a) { return (a & SIGN_S) ? ~a : a | SIGN_S; }
static inline uint64_t key_d(uint64_t a) { return (a & SIGN_D) ? ~a : a | SIGN_D; }

static inline int minmax_nan_s(uint32_t a, uint32_t b, uint32_t *r, unsigned *fl) {
    int na = nan_s(a), nb = nan_s(b);
    if (!(na | nb)) return 0;
    if (snan_s(a) || snan_s(b)) *fl |= NV;
    *r = (na && nb) ? CNAN_S : na ? b : a;
    return 1;
}
static inline int minmax_nan_d(uint64_t a, uint64_t b, uint64_t *r, unsigned *fl) {
    int na = nan_d(a), nb = nan_d(b);
    if (!(na | nb)) return 0;
    if (snan_d(a) || snan_d(b)) *fl |= NV;
    *r = (na && nb) ? CNAN_D : na ? b : a;
    return 1;
}

uint32_t fpu_min_s(uint32_t a, uint32_t b, unsigned *fflags) {
    uint32_t r;
    if (minmax_nan_s(a, b, &r, fflags)) return r;
    return key_s(a) <= key_s(b) ? a : b;
}
uint32_t fpu_max_s(uint32_t a, uint32_t b, unsigned *fflags) {
    uint32_t r;
    if (minmax_nan_s(a, b, &r, fflags)) return r;
    return key_s(a) >= key_s(b) ? a : b;
}
uint64_t fpu_min_d(uint64_t a, uint64_t b, unsigned *fflags) {
    uint64_t r;
    if (minmax_nan_d(a, b, &r, fflags)) return r;
    return key_d(a) <= key_d(b) ? a : b;
}
uint64_t fpu_max_d(uint64_t a, uint64_t b, unsigned *fflags) {
    uint64_t r;
    if (minmax_nan_d(a, b, &r, fflags)) return r;
    return key_d(a) >= key_d(b) ? a : b;
}

/* Comparisons: +0 == -0; otherwise the keys order the values. */
int fpu_eq_s(uint32_t a, uint32_t b, unsigned *fflags) {
    if (nan_s(a) || nan_s(b)) {
        if (snan_s(a) || snan_s(b)) *fflags |= NV;
        return 0;
    }
    return a == b || ((a | b) & ~SIGN_S) == 0;
}
int fpu_lt_s(uint32_t a, uint32_t b, unsigned *fflags) {
    if (nan_s(a) || nan_s(b)) {
        *fflags |= NV;
        return 0;
    }
    return ((a | b) & ~SIGN_S) != 0 && key_s(a) < key_s(b);
}
int fpu_le_s(uint32_t a, uint32_t b, unsigned *fflags) {
    if (nan_s(a) || nan_s(b)) {
        *fflags |= NV;
        return 0;
    }
    return ((a | b) & ~SIGN_S) == 0 || key_s(a) <= key_s(b);
}
int fpu_eq_d(uint64_t a, uint64_t b, unsigned *fflags) {
    if (nan_d(a) || nan_d(b)) {
        if (snan_d(a) || snan_d(b)) *fflags |= NV;
        return 0;
    }
    return a == b || ((a | b) & ~SIGN_D) == 0;
}
int fpu_lt_d(uint64_t a, uint64_t b, unsigned *fflags) {
    if (nan_d(a) || nan_d(b)) {
        *fflags |= NV;
        return 0;
    }
    return ((a | b) & ~SIGN_D) != 0 && key_d(a) < key_d(b);
}
int fpu_le_d(uint64_t a, uint64_t b, unsigned *fflags) {
    if (nan_d(a) || nan_d(b)) {
        *fflags |= NV;
        return 0;
    }
    return ((a | b) & ~SIGN_D) == 0 || key_d(a) <= key_d(b);
}

/* fclass bits: 0 -inf, 1 -normal, 2 -subnormal, 3 -0, 4 +0, 5 +subnormal,
 * 6 +normal, 7 +inf, 8 signaling NaN, 9 quiet NaN. */
static inline uint64_t classify(int neg, int is_inf, int is_zero, int is_sub, int is_nan, int quiet) {
    if (is_nan) return quiet ? 1u << 9 : 1u << 8;
    int i = is_inf ? 0 : is_zero ? 3 : is_sub ? 2 : 1;
    return 1u << (neg ? i : 7 - i);
}
uint64_t fpu_class_s(uint32_t a) {
    uint32_t m = a & ~SIGN_S;
    return classify((a & SIGN_S) != 0, m == INF_S, m == 0, m<0x00800000u, m> INF_S, (a & QBIT_S) != 0);
}
uint64_t fpu_class_d(uint64_t a) {
    uint64_t m = a & ~SIGN_D;
    return classify((a & SIGN_D) != 0, m == INF_D, m == 0, m<0x0010000000000000ull, m> INF_D, (a & QBIT_D) != 0);
}

/* ------------------------------------------------------------------------ */
/* float -> integer                                                          */

enum { K_W, K_WU, K_L, K_LU };

static inline uint64_t saturate(int kind, unsigned neg) {
    switch (kind) {
    case K_W: return neg ? 0xffffffff80000000ull : 0x7fffffffull;
    case K_WU: return neg ? 0 : ~0ull; /* 0xffffffff sign-extended */
    case K_L: return neg ? SIGN_D : ~SIGN_D;
    default: return neg ? 0 : ~0ull;
    }
}

/* (-1)^sign * sig * 2^(exp-63), sig normalized, rounded to an integer in rm,
 * then range-checked after rounding (spec: out of range -> clip, NV, no NX). */
static uint64_t cvt_to_int(unsigned sign, int exp, uint64_t sig, int kind, unsigned rm, unsigned *fl) {
    uint64_t ip = 0, frac;
    int ovf = 0;
    if (exp > 63) {
        ovf = 1;
        frac = 0;
    } else {
        if (exp >= 0) {
            ip = sig >> (63 - exp);
            frac = exp == 63 ? 0 : sig << (exp + 1);
        } else if (exp == -1) {
            frac = sig;
        } else {
            frac = shr_jam64(sig, -1 - exp);
        }
        if (round_inc(rm, sign, frac, SIGN_D, ip & 1) && ++ip == 0) ovf = 1;
    }
    uint64_t limit;
    switch (kind) {
    case K_W: limit = sign ? 0x80000000ull : 0x7fffffffull; break;
    case K_WU: limit = sign ? 0 : 0xffffffffull; break;
    case K_L: limit = sign ? SIGN_D : ~SIGN_D; break;
    default: limit = sign ? 0 : ~0ull; break;
    }
    if (ovf || ip > limit) {
        *fl |= NV;
        return saturate(kind, sign);
    }
    if (frac) *fl |= NX;
    uint64_t v = sign ? 0 - ip : ip;
    if (kind == K_W || kind == K_WU) v = (uint64_t)(int64_t)(int32_t)(uint32_t)v;
    return v;
}

/* RTZ (what C casts compile to) for |x| < 2^63: the host's truncating
 * conversion is exact; it is inexact iff converting back differs (for
 * |x| >= 2^53, x is an integer and the check holds trivially). */
static inline int rtz_fast(double x, int64_t *out) {
    if (!(x > -9223372036854775808.0 && x < 9223372036854775808.0)) return 0; /* NaN too */
    *out = (int64_t)x;
    return 1;
}
static inline uint64_t rtz_finish(double x, int64_t i, int kind, unsigned *fl) {
    int ok;
    switch (kind) {
    case K_W: ok = i >= INT32_MIN && i <= INT32_MAX; break;
    case K_WU: ok = i >= 0 && i <= (int64_t)UINT32_MAX; break;
    case K_L: ok = 1; break;
    default: ok = i >= 0; break;
    }
    if (!ok) {
        *fl |= NV;
        return saturate(kind, x < 0);
    }
    if ((double)i != x) *fl |= NX;
    return kind == K_W || kind == K_WU ? (uint64_t)(int64_t)(int32_t)i : (uint64_t)i;
}

static uint64_t cvt_d_to_int(uint64_t a, int kind, unsigned rm, unsigned *fl) {
    int64_t i;
    if (rm == RTZ && rtz_fast(d_of(a), &i)) return rtz_finish(d_of(a), i, kind, fl);
    uint64_t m = a & ~SIGN_D;
    unsigned sign = (unsigned)(a >> 63);
    if (m >= INF_D) {
        *fl |= NV;
        return saturate(kind, m == INF_D && sign); /* NaN -> largest positive */
    }
    if (m == 0) return 0;
    int e;
    uint64_t g;
    unpack_d(m, &e, &g);
    return cvt_to_int(sign, e, g << 11, kind, rm, fl);
}

static uint64_t cvt_s_to_int(uint32_t a, int kind, unsigned rm, unsigned *fl) {
    int64_t i;
    if (rm == RTZ && rtz_fast((double)f_of(a), &i)) return rtz_finish((double)f_of(a), i, kind, fl);
    uint32_t m = a & ~SIGN_S;
    unsigned sign = a >> 31;
    if (m >= INF_S) {
        *fl |= NV;
        return saturate(kind, m == INF_S && sign);
    }
    if (m == 0) return 0;
    int e;
    uint64_t g;
    unpack_s(m, &e, &g);
    return cvt_to_int(sign, e, g << 40, kind, rm, fl);
}

uint64_t fpu_cvt_w_s(uint32_t a, unsigned rm, unsigned *fflags) { return cvt_s_to_int(a, K_W, rm, fflags); }
uint64_t fpu_cvt_wu_s(uint32_t a, unsigned rm, unsigned *fflags) { return cvt_s_to_int(a, K_WU, rm, fflags); }
uint64_t fpu_cvt_l_s(uint32_t a, unsigned rm, unsigned *fflags) { return cvt_s_to_int(a, K_L, rm, fflags); }
uint64_t fpu_cvt_lu_s(uint32_t a, unsigned rm, unsigned *fflags) { return cvt_s_to_int(a, K_LU, rm, fflags); }
uint64_t fpu_cvt_w_d(uint64_t a, unsigned rm, unsigned *fflags) { return cvt_d_to_int(a, K_W, rm, fflags); }
uint64_t fpu_cvt_wu_d(uint64_t a, unsigned rm, unsigned *fflags) { return cvt_d_to_int(a, K_WU, rm, fflags); }
uint64_t fpu_cvt_l_d(uint64_t a, unsigned rm, unsigned *fflags) { return cvt_d_to_int(a, K_L, rm, fflags); }
uint64_t fpu_cvt_lu_d(uint64_t a, unsigned rm, unsigned *fflags) { return cvt_d_to_int(a, K_LU, rm, fflags); }

/* ------------------------------------------------------------------------ */
/* integer -> float                                                          */

static inline uint32_t soft_i2s(unsigned sign, uint64_t mag, unsigned rm, unsigned *fl) {
    if (mag == 0) return 0;
    int lz = __builtin_clzll(mag);
    return round_pack_s(sign, 63 - lz, mag << lz, rm, fl);
}
static inline uint64_t soft_i2d(unsigned sign, uint64_t mag, unsigned rm, unsigned *fl) {
    if (mag == 0) return 0;
    int lz = __builtin_clzll(mag);
    return round_pack_d(sign, 63 - lz, mag << lz, rm, fl);
}

/* An integer converts exactly iff its significant bits fit in prec. */
static inline __attribute__((unused)) int int_fits(uint64_t mag, int prec) {
    return mag == 0 || 64 - __builtin_clzll(mag) - __builtin_ctzll(mag) <= prec;
}
static inline uint64_t mag_of(int64_t x) { return x < 0 ? 0 - (uint64_t)x : (uint64_t)x; }

static inline uint32_t cvt_s_from_i64(int64_t x, unsigned rm, unsigned *fl) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        /* NX is the only flag an int->float conversion can raise */
        if (!int_fits(mag_of(x), 24)) *fl |= NX;
        return u_of_f(sse_cvt_s_l_nf(x, rm));
    }
#endif
    return soft_i2s(x < 0, mag_of(x), rm, fl);
}

uint32_t fpu_cvt_s_w(uint64_t x, unsigned rm, unsigned *fflags) {
    return cvt_s_from_i64((int32_t)(uint32_t)x, rm, fflags);
}
uint32_t fpu_cvt_s_wu(uint64_t x, unsigned rm, unsigned *fflags) {
    return cvt_s_from_i64((int64_t)(uint32_t)x, rm, fflags);
}
uint32_t fpu_cvt_s_l(uint64_t x, unsigned rm, unsigned *fflags) { return cvt_s_from_i64((int64_t)x, rm, fflags); }
uint32_t fpu_cvt_s_lu(uint64_t x, unsigned rm, unsigned *fflags) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        if ((int64_t)x >= 0) return cvt_s_from_i64((int64_t)x, rm, fflags);
        /* halve with the lost bit kept as sticky (far below bit 24), then
         * double exactly */
        if (!int_fits(x, 24)) *fflags |= NX;
        return u_of_f(sse_cvt_s_l_nf((int64_t)((x >> 1) | (x & 1)), rm)) + (1u << 23);
    }
#endif
    return soft_i2s(0, x, rm, fflags);
}

uint64_t fpu_cvt_d_w(uint64_t x, unsigned rm, unsigned *fflags) {
    (void)rm, (void)fflags; /* exact */
    return u_of_d((double)(int32_t)(uint32_t)x);
}
uint64_t fpu_cvt_d_wu(uint64_t x, unsigned rm, unsigned *fflags) {
    (void)rm, (void)fflags; /* exact */
    return u_of_d((double)(uint32_t)x);
}
uint64_t fpu_cvt_d_l(uint64_t x, unsigned rm, unsigned *fflags) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        if (!int_fits(mag_of((int64_t)x), 53)) *fflags |= NX;
        return u_of_d(sse_cvt_d_l_nf((int64_t)x, rm));
    }
#endif
    unsigned neg = (int64_t)x < 0;
    return soft_i2d(neg, neg ? 0 - x : x, rm, fflags);
}
uint64_t fpu_cvt_d_lu(uint64_t x, unsigned rm, unsigned *fflags) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        if ((int64_t)x >= 0) return fpu_cvt_d_l(x, rm, fflags);
        if (!int_fits(x, 53)) *fflags |= NX;
        return u_of_d(sse_cvt_d_l_nf((int64_t)((x >> 1) | (x & 1)), rm)) + (1ull << 52);
    }
#endif
    return soft_i2d(0, x, rm, fflags);
}

/* ------------------------------------------------------------------------ */
/* between formats                                                           */

uint32_t fpu_cvt_s_d(uint64_t a, unsigned rm, unsigned *fflags) {
#if FPU_X86
    if (__builtin_expect(rm != RMM, 1)) {
        const double x = d_of(a);
        float r;
        X86_FAST(uint32_t, u_of_f, r = sse_cvt_s_d_nf(x, rm), safe_mul_s, (double)r == x);
        uint32_t st;
        r = sse_cvt_s_d(x, rm, &st);
        return done_s(r, st, fflags);
    }
#endif
    unsigned sign = (unsigned)(a >> 63);
    uint64_t m = a & ~SIGN_D;
    if (m > INF_D) {
        if (snan_d(a)) *fflags |= NV;
        return CNAN_S;
    }
    if (m == INF_D) return (sign << 31) | INF_S;
    if (m == 0) return sign << 31;
    int e;
    uint64_t g;
    unpack_d(m, &e, &g);
    return round_pack_s(sign, e, g << 11, rm, fflags);
}

uint64_t fpu_cvt_d_s(uint32_t a, unsigned *fflags) {
    if (nan_s(a)) {
        if (snan_s(a)) *fflags |= NV;
        return CNAN_D;
    }
    return u_of_d((double)f_of(a)); /* exact */
}

/* ------------------------------------------------------------------------ */
/* Half precision (Zfh) and Zfa                                              */
/*
 * Every half-precision value is exactly a single and a double, so no half
 * arithmetic runs on the host FPU as half:
 *  - add/sub/mul/div/sqrt/fma take the round-to-odd path of single RMM
 *    (odd_s): the operation on the exact doubles in host RTZ, the host's
 *    inexact bit ORed below the 53-bit significand, then round_pack() to 11
 *    bits in the requested mode. Round-to-odd at 53 >= 11 + 2 bits gives the
 *    correctly rounded result in every mode (no double rounding), and for half
 *    operands every nonzero double intermediate is normal and finite (|results|
 *    within [2^-48, 2^41]: the a*b product of two halves is exact in double),
 *    so the tininess/UF/OF/NX decisions are round_pack's, on the exact value.
 *    Exact zero sums get their RDN sign as in odd_s.
 *  - conversions to half (from single, double, integers): round_pack() on the
 *    exact operand;
 *  - from half (to single, double, integers), min/max and comparisons: the
 *    half widened exactly to single (order, zero signs and NaN signaling-ness
 *    kept) and the single-precision code; a min/max result (an operand or the
 *    canonical NaN) narrows back exactly.
 */
#define CNAN_H 0x7e00u
#define SIGN_H 0x8000u
#define INF_H  0x7c00u
#define QBIT_H 0x0200u

static inline int nan_h(uint32_t a) { return (a & 0x7fffu) > INF_H; }
static inline int snan_h(uint32_t a) { return nan_h(a) && !(a & QBIT_H); }

/* half -> single bits, exact (a NaN keeps its payload, so its quiet bit) */
static uint32_t widen_h(uint32_t a) {
    uint32_t sign = (a & SIGN_H) << 16, e = (a >> 10) & 31, f = a & 0x3ffu;
    if (e == 31) return sign | INF_S | (f << 13);
    if (e == 0) return f ? sign | u_of_f((float)f * 0x1p-24f) : sign; /* f * 2^-24: exact, normal in single */
    return sign | ((e + 112) << 23) | (f << 13);
}

static inline uint32_t round_pack_h(unsigned sign, int exp, uint64_t sig, unsigned rm, unsigned *fl) {
    return (uint32_t)round_pack(sign, exp, sig, rm, fl, 11, 15);
}

static uint32_t odd_h(int op, uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned zsign_rdn, unsigned *fl) {
    int inexact;
    double r = rtz_d(op, (double)f_of(widen_h(a)), (double)f_of(widen_h(b)), (double)f_of(widen_h(c)), &inexact, fl);
    uint64_t u = u_of_d(r), m = u & ~SIGN_D;
    unsigned sign = (unsigned)(u >> 63);
    if (m > INF_D) return CNAN_H; /* invalid: NV already raised */
    if (m == INF_D) return (sign ? SIGN_H : 0) | INF_H;
    if (m == 0) return (rm == RDN && (op == OP_ADD || op == OP_FMA)) ? zsign_rdn << 15 : sign << 15;
    uint64_t sig = ((m & FRAC_D) | (1ull << 52)) << 11 | (uint64_t)inexact;
    return round_pack_h(sign, (int)(m >> 52) - 1023, sig, rm, fl);
}

static inline int nan_in_h(uint32_t a, uint32_t b, unsigned *fl) {
    if (!nan_h(a) && !nan_h(b)) return 0;
    if (snan_h(a) || snan_h(b)) *fl |= NV;
    return 1;
}

uint32_t fpu_add_h(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags) {
    if (nan_in_h(a, b, fflags)) return CNAN_H;
    return odd_h(OP_ADD, a, b, 0, rm, !(a == 0 && b == 0), fflags);
}
uint32_t fpu_sub_h(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags) {
    if (nan_in_h(a, b, fflags)) return CNAN_H;
    return fpu_add_h(a, b ^ SIGN_H, rm, fflags);
}
uint32_t fpu_mul_h(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags) {
    if (nan_in_h(a, b, fflags)) return CNAN_H;
    return odd_h(OP_MUL, a, b, 0, rm, 0, fflags);
}
uint32_t fpu_div_h(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags) {
    if (nan_in_h(a, b, fflags)) return CNAN_H;
    return odd_h(OP_DIV, a, b, 0, rm, 0, fflags);
}
uint32_t fpu_sqrt_h(uint32_t a, unsigned rm, unsigned *fflags) {
    if (nan_in_h(a, a, fflags)) return CNAN_H;
    return odd_h(OP_SQRT, a, 0, 0, rm, 0, fflags);
}
uint32_t fpu_fma_h(uint32_t a, uint32_t b, uint32_t c, int negate_product, int negate_addend, unsigned rm,
                   unsigned *fflags) {
    if (negate_product) a ^= SIGN_H;
    if (negate_addend) c ^= SIGN_H;
    if (nan_h(a) || nan_h(b) || nan_h(c)) {
        *fflags |= fma_nan_flags_s(widen_h(a), widen_h(b), widen_h(c));
        return CNAN_H;
    }
    /* exact-zero sum in RDN: +0 only if product and addend are both +0 */
    int pzero = (a & ~SIGN_H) == 0 || (b & ~SIGN_H) == 0;
    unsigned pplus = pzero && !((a ^ b) & SIGN_H);
    return odd_h(OP_FMA, a, b, c, rm, !(pplus && c == 0), fflags);
}

/* min/max of the widened operands: the result is one of them or the canonical NaN */
static uint32_t narrow_exact(uint32_t s) {
    unsigned fl = 0;
    return fpu_cvt_h_s(s, RNE, &fl);
}
uint32_t fpu_min_h(uint32_t a, uint32_t b, unsigned *fflags) {
    return narrow_exact(fpu_min_s(widen_h(a), widen_h(b), fflags));
}
uint32_t fpu_max_h(uint32_t a, uint32_t b, unsigned *fflags) {
    return narrow_exact(fpu_max_s(widen_h(a), widen_h(b), fflags));
}
int fpu_eq_h(uint32_t a, uint32_t b, unsigned *fflags) { return fpu_eq_s(widen_h(a), widen_h(b), fflags); }
int fpu_lt_h(uint32_t a, uint32_t b, unsigned *fflags) { return fpu_lt_s(widen_h(a), widen_h(b), fflags); }
int fpu_le_h(uint32_t a, uint32_t b, unsigned *fflags) { return fpu_le_s(widen_h(a), widen_h(b), fflags); }
uint64_t fpu_class_h(uint32_t a) {
    uint32_t m = a & 0x7fffu;
    return classify((a & SIGN_H) != 0, m == INF_H, m == 0, m<0x0400u, m> INF_H, (a & QBIT_H) != 0);
}

uint64_t fpu_cvt_w_h(uint32_t a, unsigned rm, unsigned *fflags) { return cvt_s_to_int(widen_h(a), K_W, rm, fflags); }
uint64_t fpu_cvt_wu_h(uint32_t a, unsigned rm, unsigned *fflags) { return cvt_s_to_int(widen_h(a), K_WU, rm, fflags); }
uint64_t fpu_cvt_l_h(uint32_t a, unsigned rm, unsigned *fflags) { return cvt_s_to_int(widen_h(a), K_L, rm, fflags); }
uint64_t fpu_cvt_lu_h(uint32_t a, unsigned rm, unsigned *fflags) { return cvt_s_to_int(widen_h(a), K_LU, rm, fflags); }

static inline uint32_t soft_i2h(unsigned sign, uint64_t mag, unsigned rm, unsigned *fl) {
    if (mag == 0) return 0;
    int lz = __builtin_clzll(mag);
    return round_pack_h(sign, 63 - lz, mag << lz, rm, fl);
}
uint32_t fpu_cvt_h_w(uint64_t x, unsigned rm, unsigned *fflags) {
    int32_t v = (int32_t)(uint32_t)x;
    return soft_i2h(v < 0, mag_of(v), rm, fflags);
}
uint32_t fpu_cvt_h_wu(uint64_t x, unsigned rm, unsigned *fflags) { return soft_i2h(0, (uint32_t)x, rm, fflags); }
uint32_t fpu_cvt_h_l(uint64_t x, unsigned rm, unsigned *fflags) {
    return soft_i2h((int64_t)x < 0, mag_of((int64_t)x), rm, fflags);
}
uint32_t fpu_cvt_h_lu(uint64_t x, unsigned rm, unsigned *fflags) { return soft_i2h(0, x, rm, fflags); }

uint32_t fpu_cvt_h_s(uint32_t a, unsigned rm, unsigned *fflags) {
    unsigned sign = a >> 31;
    uint32_t m = a & ~SIGN_S;
    if (m > INF_S) {
        if (snan_s(a)) *fflags |= NV;
        return CNAN_H;
    }
    if (m == INF_S) return (sign << 15) | INF_H;
    if (m == 0) return sign << 15;
    int e;
    uint64_t g;
    unpack_s(m, &e, &g);
    return round_pack_h(sign, e, g << 40, rm, fflags);
}
uint32_t fpu_cvt_h_d(uint64_t a, unsigned rm, unsigned *fflags) {
    unsigned sign = (unsigned)(a >> 63);
    uint64_t m = a & ~SIGN_D;
    if (m > INF_D) {
        if (snan_d(a)) *fflags |= NV;
        return CNAN_H;
    }
    if (m == INF_D) return (sign << 15) | INF_H;
    if (m == 0) return sign << 15;
    int e;
    uint64_t g;
    unpack_d(m, &e, &g);
    return round_pack_h(sign, e, g << 11, rm, fflags);
}
uint32_t fpu_cvt_s_h(uint32_t a, unsigned *fflags) {
    if (nan_h(a)) {
        if (snan_h(a)) *fflags |= NV;
        return CNAN_S;
    }
    return widen_h(a);
}
uint64_t fpu_cvt_d_h(uint32_t a, unsigned *fflags) { return fpu_cvt_d_s(widen_h(a), fflags); }

/* ---- Zfa ---- */

uint64_t fpu_fli(unsigned fmt, unsigned index) {
    static const uint64_t min_normal[3] = {0x00800000u, 0x0010000000000000ull, 0x0400u};
    static const uint64_t cnan[3] = {CNAN_S, CNAN_D, CNAN_H};
    unsigned fl = 0;
    index &= 31;
    if (index == 1) return min_normal[fmt];
    if (index == 31) return cnan[fmt];
    uint64_t d = u_of_d(isa_fli_value(index));
    /* every entry is exact in each format but 2^16 in half, which rounds to +inf */
    return fmt == FPU_FMT_D ? d : fmt == FPU_FMT_S ? fpu_cvt_s_d(d, RNE, &fl) : fpu_cvt_h_d(d, RNE, &fl);
}

/* fminm/fmaxm: fmin/fmax, but a NaN operand gives the canonical NaN (NV if signaling) */
uint64_t fpu_minmax_m(unsigned fmt, int is_max, uint64_t a, uint64_t b, unsigned *fflags) {
    switch (fmt) {
    case FPU_FMT_S:
        if (nan_in_s((uint32_t)a, (uint32_t)b, fflags)) return CNAN_S;
        return is_max ? fpu_max_s((uint32_t)a, (uint32_t)b, fflags) : fpu_min_s((uint32_t)a, (uint32_t)b, fflags);
    case FPU_FMT_D:
        if (nan_d(a) || nan_d(b)) {
            if (snan_d(a) || snan_d(b)) *fflags |= NV;
            return CNAN_D;
        }
        return is_max ? fpu_max_d(a, b, fflags) : fpu_min_d(a, b, fflags);
    default:
        if (nan_in_h((uint32_t)a, (uint32_t)b, fflags)) return CNAN_H;
        return is_max ? fpu_max_h((uint32_t)a, (uint32_t)b, fflags) : fpu_min_h((uint32_t)a, (uint32_t)b, fflags);
    }
}

/* A double rounded to an integral value in rm (sign kept, zero results signed);
 * *inexact when that changed it. Not NaN. */
static uint64_t round_integral_d(uint64_t a, unsigned rm, int *inexact) {
    uint64_t m = a & ~SIGN_D;
    unsigned sign = (unsigned)(a >> 63);
    int e = (int)(m >> 52) - 1023;
    *inexact = 0;
    if (e >= 52 || m == 0) return a; /* integral already, infinities too */
    uint64_t sig = (m & FRAC_D) | (1ull << 52), ip, rbits, half;
    if (e < -1) { /* below one half, nonzero */
        ip = 0, rbits = 1, half = 2;
    } else {
        int sh = 52 - e; /* 1..53 */
        ip = sig >> sh, rbits = sig & ((1ull << sh) - 1), half = 1ull << (sh - 1);
    }
    *inexact = rbits != 0;
    ip += (uint64_t)round_inc(rm, sign, rbits, half, ip & 1);
    return ((uint64_t)sign << 63) | (ip ? u_of_d((double)ip) : 0); /* ip <= 2^52: exact */
}

/* fround (nx = 0: only NV, for a signaling NaN) and froundnx (nx = 1: NX too) */
uint64_t fpu_round(unsigned fmt, uint64_t a, int nx, unsigned rm, unsigned *fflags) {
    unsigned fl = 0;
    int inexact;
    uint64_t r;
    switch (fmt) {
    case FPU_FMT_S:
        if (nan_s((uint32_t)a)) {
            if (snan_s((uint32_t)a)) *fflags |= NV;
            return CNAN_S;
        }
        r = fpu_cvt_s_d(round_integral_d(u_of_d((double)f_of((uint32_t)a)), rm, &inexact), RNE, &fl);
        break;
    case FPU_FMT_D:
        if (nan_d(a)) {
            if (snan_d(a)) *fflags |= NV;
            return CNAN_D;
        }
        r = round_integral_d(a, rm, &inexact);
        break;
    default:
        if (nan_h((uint32_t)a)) {
            if (snan_h((uint32_t)a)) *fflags |= NV;
            return CNAN_H;
        }
        r = fpu_cvt_h_d(round_integral_d(u_of_d((double)f_of(widen_h((uint32_t)a))), rm, &inexact), RNE, &fl);
        break;
    }
    if (nx && inexact) *fflags |= NX;
    return r;
}

/* fcvtmod.w.d: truncated, then the integer modulo 2^32, sign-extended. NaN and
 * infinities give 0 and NV; an integer outside the int32 range NV (not NX, as
 * fcvt.w.d); otherwise NX when the truncation dropped a fraction. */
uint64_t fpu_cvtmod_w_d(uint64_t a, unsigned *fflags) {
    uint64_t m = a & ~SIGN_D;
    unsigned sign = (unsigned)(a >> 63);
    if (m >= INF_D) {
        *fflags |= NV;
        return 0;
    }
    if (m == 0) return 0;
    int e = (int)(m >> 52) - 1023;
    if (e < 0) {
        *fflags |= NX;
        return 0;
    }
    uint64_t sig = (m & FRAC_D) | (1ull << 52), low;
    int frac = 0;
    if (e <= 52) {
        low = sig >> (52 - e);
        frac = (sig & ((1ull << (52 - e)) - 1)) != 0;
    } else {
        low = e - 52 < 64 ? sig << (e - 52) : 0; /* only the low 32 bits matter */
    }
    /* in range: the truncated integer fits int32 (|t| < 2^31, or t = -2^31) */
    int in_range = e < 31 || (e == 31 && sign && low == 0x80000000ull);
    if (!in_range) *fflags |= NV;
    else if (frac) *fflags |= NX;
    uint32_t w = (uint32_t)(sign ? 0 - low : low);
    return (uint64_t)(int64_t)(int32_t)w;
}

/* fleq/fltq: fle/flt without NV for quiet NaNs (feq's rule) */
int fpu_leq(unsigned fmt, uint64_t a, uint64_t b, unsigned *fflags) {
    unsigned fl = 0;
    int r;
    switch (fmt) {
    case FPU_FMT_S:
        r = fpu_le_s((uint32_t)a, (uint32_t)b, &fl);
        if (snan_s((uint32_t)a) || snan_s((uint32_t)b)) *fflags |= NV;
        return r;
    case FPU_FMT_D:
        r = fpu_le_d(a, b, &fl);
        if (snan_d(a) || snan_d(b)) *fflags |= NV;
        return r;
    default:
        r = fpu_le_h((uint32_t)a, (uint32_t)b, &fl);
        if (snan_h((uint32_t)a) || snan_h((uint32_t)b)) *fflags |= NV;
        return r;
    }
}
int fpu_ltq(unsigned fmt, uint64_t a, uint64_t b, unsigned *fflags) {
    unsigned fl = 0;
    int r;
    switch (fmt) {
    case FPU_FMT_S:
        r = fpu_lt_s((uint32_t)a, (uint32_t)b, &fl);
        if (snan_s((uint32_t)a) || snan_s((uint32_t)b)) *fflags |= NV;
        return r;
    case FPU_FMT_D:
        r = fpu_lt_d(a, b, &fl);
        if (snan_d(a) || snan_d(b)) *fflags |= NV;
        return r;
    default:
        r = fpu_lt_h((uint32_t)a, (uint32_t)b, &fl);
        if (snan_h((uint32_t)a) || snan_h((uint32_t)b)) *fflags |= NV;
        return r;
    }
}
