/* zx_zfa — Zfa (RV64: F, D and Zfh forms), checked against the specification's definitions.
 *
 * Build: riscv64-linux-gnu-gcc -O2 -static -march=rv64gc_zba_zbb_zbc_zbs_zfh -o zx_zfa zx_zfa.c -lm
 * Run:   cyclescope exec zx_zfa
 *
 * qemu-riscv64 7.2 does not run Zfa and binutils 2.40 does not know it: the instructions
 * are .insn encodings, and the expected values come from the Zfa 1.0 definitions:
 *  - fli.{s,d,h}: the spec's table of 32 constants (entry 1 the format's minimum normal,
 *    30 +inf, 31 the canonical NaN; in half, 2^-16 and 2^-15 are subnormal, 2^16 is +inf);
 *  - fminm/fmaxm: fmin/fmax, except that a NaN operand gives the canonical NaN (NV when
 *    one is signaling);
 *  - fround/froundnx: roundToIntegral in the rounding mode (C's nearbyint/trunc/floor/
 *    ceil/round), zero signs kept, NaN -> canonical NaN with NV only for a signaling one;
 *    froundnx raises NX when the value changed, fround never;
 *  - fcvtmod.w.d: truncate, the integer modulo 2^32 sign-extended; NaN/inf give 0 and NV,
 *    out of int32 range NV (no NX, as fcvt.w.d), else NX when inexact;
 *  - fleq/fltq: <= and <, false with a NaN, NV only for a signaling NaN.
 * The F/D/Zfh instructions used to compute expectations were checked against qemu
 * (exec.qemu.fptest, exec.qemu.zfh_ops). Prints a line per group and every mismatch;
 * exits 1 on any.
 */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static unsigned failures;

static void check(const char *what, uint64_t in1, uint64_t in2, uint64_t got, uint64_t want, uint64_t gotfl,
                  uint64_t wantfl, unsigned *bad) {
    if (got == want && gotfl == wantfl) return;
    (*bad)++;
    printf("MISMATCH %s in=%llx,%llx got=%llx/%llx want=%llx/%llx\n", what, (unsigned long long)in1,
           (unsigned long long)in2, (unsigned long long)got, (unsigned long long)gotfl, (unsigned long long)want,
           (unsigned long long)wantfl);
}
static void report(const char *what, unsigned cases, unsigned bad) {
    printf("%s %u cases %u mismatches\n", what, cases, bad);
    failures += bad;
}

#define BOX_S 0xffffffff00000000ull
#define BOX_H 0xffffffffffff0000ull

/* ---- fli ---- */
#define FLI(fn, f7)                                                                                                   \
    static uint64_t fn(unsigned i) {                                                                                  \
        uint64_t r = 0;                                                                                               \
        switch (i) {                                                                                                  \
        case 0: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x0, x1\n\tfmv.x.d %0, ft0" : "=r"(r)::"ft0"); break; \
        case 1: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x1, x1\n\tfmv.x.d %0, ft0" : "=r"(r)::"ft0"); break; \
        case 2: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x2, x1\n\tfmv.x.d %0, ft0" : "=r"(r)::"ft0"); break; \
        case 3: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x3, x1\n\tfmv.x.d %0, ft0" : "=r"(r)::"ft0"); break; \
        case 4: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x4, x1\n\tfmv.x.d %0, ft0" : "=r"(r)::"ft0"); break; \
        case 5: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x5, x1\n\tfmv.x.d %0, ft0" : "=r"(r)::"ft0"); break; \
        case 6: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x6, x1\n\tfmv.x.d %0, ft0" : "=r"(r)::"ft0"); break; \
        case 7: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x7, x1\n\tfmv.x.d %0, ft0" : "=r"(r)::"ft0"); break; \
        case 8: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x8, x1\n\tfmv.x.d %0, ft0" : "=r"(r)::"ft0"); break; \
        case 9: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x9, x1\n\tfmv.x.d %0, ft0" : "=r"(r)::"ft0"); break; \
        case 10: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x10, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 11: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x11, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 12: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x12, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 13: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x13, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 14: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x14, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 15: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x15, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 16: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x16, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 17: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x17, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 18: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x18, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 19: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x19, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 20: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x20, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 21: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x21, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 22: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x22, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 23: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x23, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 24: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x24, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 25: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x25, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 26: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x26, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 27: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x27, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 28: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x28, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 29: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x29, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        case 30: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x30, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        default: __asm__ volatile(".insn r OP_FP, 0, " f7 ", ft0, x31, x1\n\tfmv.x.d %0, ft0"                         \
                                  : "=r"(r)::"ft0");                                                                  \
            break;                                                                                                    \
        }                                                                                                             \
        return r;                                                                                                     \
    }
FLI(fli_s, "0x78")
FLI(fli_d, "0x79")
FLI(fli_h, "0x7a")

/* the spec's table (Zfa 1.0, "fli"), as single and half bit patterns */
static const uint32_t fli_single[32] = {
    0xbf800000, 0x00800000, 0x37800000, 0x38000000, 0x3b800000, 0x3c000000, 0x3d800000, 0x3e000000,
    0x3e800000, 0x3ea00000, 0x3ec00000, 0x3ee00000, 0x3f000000, 0x3f200000, 0x3f400000, 0x3f600000,
    0x3f800000, 0x3fa00000, 0x3fc00000, 0x3fe00000, 0x40000000, 0x40200000, 0x40400000, 0x40800000,
    0x41000000, 0x41800000, 0x43000000, 0x43800000, 0x47000000, 0x47800000, 0x7f800000, 0x7fc00000};
static const uint16_t fli_half[32] = {0xbc00, 0x0400, 0x0100, 0x0200, 0x1c00, 0x2000, 0x2c00, 0x3000,
                                      0x3400, 0x3500, 0x3600, 0x3700, 0x3800, 0x3900, 0x3a00, 0x3b00,
                                      0x3c00, 0x3d00, 0x3e00, 0x3f00, 0x4000, 0x4100, 0x4200, 0x4400,
                                      0x4800, 0x4c00, 0x5800, 0x5c00, 0x7800, 0x7c00, 0x7c00, 0x7e00};

static uint64_t bits_of_double(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}
static double double_of(uint64_t u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}
static float float_of(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void fli(void) {
    unsigned bad = 0;
    for (unsigned i = 0; i < 32; i++) {
        uint64_t want_d = i == 1 ? 0x0010000000000000ull
            : i == 31            ? 0x7ff8000000000000ull
                                 : bits_of_double((double)float_of(fli_single[i]));
        check("fli.s", i, 0, fli_s(i), BOX_S | fli_single[i], 0, 0, &bad);
        check("fli.d", i, 0, fli_d(i), want_d, 0, 0, &bad);
        check("fli.h", i, 0, fli_h(i), BOX_H | fli_half[i], 0, 0, &bad);
    }
    report("fli.s/d/h", 96, bad);
}

/* ---- helpers: an FP operation on register images, with its fflags ---- */
#define OP2(fn, insn)                                                                      \
    static uint64_t fn(uint64_t a, uint64_t b, uint64_t *fl) {                             \
        uint64_t r, f;                                                                     \
        __asm__ volatile("fmv.d.x ft0, %[a]\n\tfmv.d.x ft1, %[b]\n\tfsflags zero\n\t" insn \
                         "\n\tfrflags %[f]\n\tfmv.x.d %[r], ft2"                           \
                         : [r] "=&r"(r), [f] "=&r"(f)                                      \
                         : [a] "r"(a), [b] "r"(b)                                          \
                         : "ft0", "ft1", "ft2");                                           \
        *fl = f;                                                                           \
        return r;                                                                          \
    }
#define OPX2(fn, insn)                                                                                        \
    static uint64_t fn(uint64_t a, uint64_t b, uint64_t *fl) {                                                \
        uint64_t r, f;                                                                                        \
        __asm__ volatile("fmv.d.x ft0, %[a]\n\tfmv.d.x ft1, %[b]\n\tfsflags zero\n\t" insn "\n\tfrflags %[f]" \
                         : [r] "=&r"(r), [f] "=&r"(f)                                                         \
                         : [a] "r"(a), [b] "r"(b)                                                             \
                         : "ft0", "ft1", "ft2");                                                              \
        *fl = f;                                                                                              \
        return r;                                                                                             \
    }
/* funct7: fminm/fmaxm 0x14 (s) 0x15 (d) 0x16 (h), funct3 2 / 3; fleq/fltq 0x50/0x51/0x52, funct3 4 / 5 */
OP2(fminm_s, ".insn r OP_FP, 2, 0x14, ft2, ft0, ft1")
OP2(fmaxm_s, ".insn r OP_FP, 3, 0x14, ft2, ft0, ft1")
OP2(fminm_d, ".insn r OP_FP, 2, 0x15, ft2, ft0, ft1")
OP2(fmaxm_d, ".insn r OP_FP, 3, 0x15, ft2, ft0, ft1")
OP2(fminm_h, ".insn r OP_FP, 2, 0x16, ft2, ft0, ft1")
OP2(fmaxm_h, ".insn r OP_FP, 3, 0x16, ft2, ft0, ft1")
OP2(fmin_s, "fmin.s ft2, ft0, ft1")
OP2(fmax_s, "fmax.s ft2, ft0, ft1")
OP2(fmin_d, "fmin.d ft2, ft0, ft1")
OP2(fmax_d, "fmax.d ft2, ft0, ft1")
OP2(fmin_h, "fmin.h ft2, ft0, ft1")
OP2(fmax_h, "fmax.h ft2, ft0, ft1")
OPX2(fleq_s, ".insn r OP_FP, 4, 0x50, %[r], ft0, ft1")
OPX2(fltq_s, ".insn r OP_FP, 5, 0x50, %[r], ft0, ft1")
OPX2(fleq_d, ".insn r OP_FP, 4, 0x51, %[r], ft0, ft1")
OPX2(fltq_d, ".insn r OP_FP, 5, 0x51, %[r], ft0, ft1")
OPX2(fleq_h, ".insn r OP_FP, 4, 0x52, %[r], ft0, ft1")
OPX2(fltq_h, ".insn r OP_FP, 5, 0x52, %[r], ft0, ft1")

/* fround (rs2 = 4) / froundnx (rs2 = 5), funct7 0x20 (s) 0x21 (d) 0x22 (h), each static mode */
#define ROUND(fn, f7, rs2, rm)                                                                                \
    static uint64_t fn(uint64_t a, uint64_t *fl) {                                                            \
        uint64_t r, f;                                                                                        \
        __asm__ volatile("fmv.d.x ft0, %[a]\n\tfsflags zero\n\t.insn r OP_FP, " rm ", " f7 ", ft2, ft0, " rs2 \
                         "\n\tfrflags %[f]\n\tfmv.x.d %[r], ft2"                                              \
                         : [r] "=&r"(r), [f] "=&r"(f)                                                         \
                         : [a] "r"(a)                                                                         \
                         : "ft0", "ft2");                                                                     \
        *fl = f;                                                                                              \
        return r;                                                                                             \
    }
/* clang-format off */
#define ROUND_MODES(name, f7, rs2) \
    ROUND(name##_0, f7, rs2, "0") ROUND(name##_1, f7, rs2, "1") ROUND(name##_2, f7, rs2, "2") \
    ROUND(name##_3, f7, rs2, "3") ROUND(name##_4, f7, rs2, "4")
/* clang-format on */
ROUND_MODES(fround_s, "0x20", "x4")
ROUND_MODES(froundnx_s, "0x20", "x5")
ROUND_MODES(fround_d, "0x21", "x4")
ROUND_MODES(froundnx_d, "0x21", "x5")
ROUND_MODES(fround_h, "0x22", "x4")
ROUND_MODES(froundnx_h, "0x22", "x5")
typedef uint64_t (*roundfn)(uint64_t, uint64_t *);
static const roundfn rounders[6][5] = {{fround_s_0, fround_s_1, fround_s_2, fround_s_3, fround_s_4},
                                       {froundnx_s_0, froundnx_s_1, froundnx_s_2, froundnx_s_3, froundnx_s_4},
                                       {fround_d_0, fround_d_1, fround_d_2, fround_d_3, fround_d_4},
                                       {froundnx_d_0, froundnx_d_1, froundnx_d_2, froundnx_d_3, froundnx_d_4},
                                       {fround_h_0, fround_h_1, fround_h_2, fround_h_3, fround_h_4},
                                       {froundnx_h_0, froundnx_h_1, froundnx_h_2, froundnx_h_3, froundnx_h_4}};

static uint64_t fcvtmod(uint64_t a, uint64_t *fl) {
    uint64_t r, f;
    __asm__ volatile("fmv.d.x ft0, %[a]\n\tfsflags zero\n\t.insn r OP_FP, 1, 0x61, %[r], ft0, x8\n\tfrflags %[f]"
                     : [r] "=&r"(r), [f] "=&r"(f)
                     : [a] "r"(a)
                     : "ft0");
    *fl = f;
    return r;
}

/* format conversions through the (qemu-checked) F/D/Zfh instructions */
static uint64_t to_double(int fmt, uint64_t v) { /* exact widening of a non-NaN */
    uint64_t r;
    if (fmt == 0)
        __asm__ volatile("fmv.d.x ft0, %1\n\tfcvt.d.s ft0, ft0\n\tfmv.x.d %0, ft0" : "=r"(r) : "r"(v) : "ft0");
    else if (fmt == 2)
        __asm__ volatile("fmv.d.x ft0, %1\n\tfcvt.d.h ft0, ft0\n\tfmv.x.d %0, ft0" : "=r"(r) : "r"(v) : "ft0");
    else r = v;
    return r;
}
static uint64_t from_double(int fmt, uint64_t v) { /* RNE narrowing, boxed */
    uint64_t r;
    if (fmt == 0)
        __asm__ volatile("fmv.d.x ft0, %1\n\tfcvt.s.d ft0, ft0, rne\n\tfmv.x.d %0, ft0" : "=r"(r) : "r"(v) : "ft0");
    else if (fmt == 2)
        __asm__ volatile("fmv.d.x ft0, %1\n\tfcvt.h.d ft0, ft0, rne\n\tfmv.x.d %0, ft0" : "=r"(r) : "r"(v) : "ft0");
    else r = v;
    return r;
}

static const double values[] = {0.0,
                                -0.0,
                                0.3,
                                -0.3,
                                0.5,
                                -0.5,
                                0.75,
                                1.0,
                                1.5,
                                -1.5,
                                2.5,
                                -2.5,
                                3.5,
                                0.49999,
                                1023.5,
                                -1024.5,
                                2047.25,
                                65504.0,
                                -65504.0,
                                8388607.5,
                                -8388608.5,
                                16777215.0,
                                4503599627370495.5,
                                -4503599627370495.5,
                                9007199254740993.0,
                                1e300,
                                -1e-300,
                                1e-40,
                                2147483647.0,
                                2147483647.9,
                                2147483648.0,
                                -2147483648.0,
                                -2147483648.5,
                                -2147483649.0,
                                4294967296.0,
                                4294967297.5,
                                -4294967297.75,
                                1.8446744073709552e19,
                                1e30,
                                -7.0e22};
#define NVALS (sizeof values / sizeof values[0])
static const uint64_t specials_d[] = {0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
                                      0x7ff4000000000000ull, 0xfff0000000000001ull, 0x0000000000000001ull,
                                      0x8000000000000001ull};
#define NSPECIALS (sizeof specials_d / sizeof specials_d[0])

static int is_nan_d(uint64_t u) { return (u & ~(1ull << 63)) > 0x7ff0000000000000ull; }

/* a test value in format fmt (boxed): a value rounded (RNE), or a special with NaNs
 * rebuilt in the format (quiet or signaling kept) */
static uint64_t operand(int fmt, unsigned i) {
    if (i < NVALS) return from_double(fmt, bits_of_double(values[i]));
    uint64_t d = specials_d[i - NVALS];
    if (!is_nan_d(d)) return from_double(fmt, d);
    uint64_t sign = d >> 63, quiet = (d >> 51) & 1;
    if (fmt == 1) return d;
    if (fmt == 0) return BOX_S | (sign << 31) | 0x7f800000u | (quiet ? 0x400000u : 1u);
    return BOX_H | (sign << 15) | 0x7c00u | (quiet ? 0x200u : 1u);
}
static int is_nan(int fmt, uint64_t v) {
    if (fmt == 1) return is_nan_d(v);
    if (fmt == 0) return (v & 0x7fffffffu) > 0x7f800000u;
    return (v & 0x7fffu) > 0x7c00u;
}
static int is_snan(int fmt, uint64_t v) {
    if (!is_nan(fmt, v)) return 0;
    if (fmt == 1) return !((v >> 51) & 1);
    if (fmt == 0) return !((v >> 22) & 1);
    return !((v >> 9) & 1);
}
static uint64_t cnan(int fmt) {
    return fmt == 1 ? 0x7ff8000000000000ull : fmt == 0 ? BOX_S | 0x7fc00000u : BOX_H | 0x7e00u;
}

static void minmax_cmp(void) {
    typedef uint64_t (*op2)(uint64_t, uint64_t, uint64_t *);
    static const op2 minm[3] = {fminm_s, fminm_d, fminm_h}, maxm[3] = {fmaxm_s, fmaxm_d, fmaxm_h};
    static const op2 fmin[3] = {fmin_s, fmin_d, fmin_h}, fmax[3] = {fmax_s, fmax_d, fmax_h};
    static const op2 leq[3] = {fleq_s, fleq_d, fleq_h}, ltq[3] = {fltq_s, fltq_d, fltq_h};
    static const char *const names[3] = {"s", "d", "h"};
    unsigned n = NVALS + NSPECIALS;
    for (int fmt = 0; fmt < 3; fmt++) {
        unsigned bad = 0, cases = 0;
        char what[32];
        for (unsigned i = 0; i < n; i++)
            for (unsigned j = 0; j < n; j++) {
                uint64_t a = operand(fmt, i), b = operand(fmt, j), fl, wfl, r, w;
                int nan = is_nan(fmt, a) || is_nan(fmt, b), snan = is_snan(fmt, a) || is_snan(fmt, b);
                for (int mx = 0; mx < 2; mx++) {
                    r = (mx ? maxm : minm)[fmt](a, b, &fl);
                    w = (mx ? fmax : fmin)[fmt](a, b, &wfl);
                    if (nan) w = cnan(fmt), wfl = snan ? 0x10 : 0;
                    snprintf(what, sizeof what, "%s.%s", mx ? "fmaxm" : "fminm", names[fmt]);
                    check(what, a, b, r, w, fl, wfl, &bad);
                }
                double x = double_of(to_double(fmt, a)), y = double_of(to_double(fmt, b));
                r = leq[fmt](a, b, &fl);
                snprintf(what, sizeof what, "fleq.%s", names[fmt]);
                check(what, a, b, r, !nan && x <= y, fl, snan ? 0x10 : 0, &bad);
                r = ltq[fmt](a, b, &fl);
                snprintf(what, sizeof what, "fltq.%s", names[fmt]);
                check(what, a, b, r, !nan && x < y, fl, snan ? 0x10 : 0, &bad);
                cases += 4;
            }
        snprintf(what, sizeof what, "fminm/fmaxm/fleq/fltq.%s", names[fmt]);
        report(what, cases, bad);
    }
}

static double round_in(double x, int rm) {
    switch (rm) {
    case 0: fesetround(FE_TONEAREST); return nearbyint(x);
    case 1: return trunc(x);
    case 2: return floor(x);
    case 3: return ceil(x);
    default: return round(x); /* ties away from zero: RMM */
    }
}

static void fround(void) {
    static const char *const names[3] = {"s", "d", "h"};
    for (int fmt = 0; fmt < 3; fmt++) {
        unsigned bad = 0, cases = 0;
        char what[32];
        for (unsigned i = 0; i < NVALS + NSPECIALS; i++) {
            uint64_t a = operand(fmt, i);
            for (int nx = 0; nx < 2; nx++)
                for (int rm = 0; rm < 5; rm++) {
                    uint64_t fl, r = rounders[2 * fmt + nx][rm](a, &fl), w, wfl = 0;
                    if (is_nan(fmt, a)) {
                        w = cnan(fmt);
                        wfl = is_snan(fmt, a) ? 0x10 : 0;
                    } else {
                        double x = double_of(to_double(fmt, a)), y = round_in(x, rm);
                        w = from_double(fmt, bits_of_double(y)); /* integral values: exact */
                        if (nx && y != x) wfl = 1;
                    }
                    snprintf(what, sizeof what, "%s.%s rm%d", nx ? "froundnx" : "fround", names[fmt], rm);
                    check(what, a, 0, r, w, fl, wfl, &bad);
                    cases++;
                }
        }
        snprintf(what, sizeof what, "fround/froundnx.%s", names[fmt]);
        report(what, cases, bad);
    }
}

static void cvtmod(void) {
    unsigned bad = 0, cases = 0;
    for (unsigned i = 0; i < NVALS + NSPECIALS; i++)
        for (int sgn = 0; sgn < 2; sgn++, cases++) {
            uint64_t a = operand(1, i) ^ ((uint64_t)sgn << 63), fl, r = fcvtmod(a, &fl), w, wfl;
            double x = double_of(a);
            if (!isfinite(x)) {
                w = 0, wfl = 0x10;
            } else {
                double t = trunc(x);
                int in_range = t >= -2147483648.0 && t <= 2147483647.0;
                w = (uint64_t)(int64_t)(int32_t)(uint32_t)(int64_t)fmod(t, 4294967296.0);
                wfl = !in_range ? 0x10 : t != x ? 1 : 0;
            }
            check("fcvtmod.w.d", a, 0, r, w, fl, wfl, &bad);
        }
    report("fcvtmod.w.d", cases, bad);
}

int main(void) {
    fli();
    minmax_cmp();
    fround();
    cvtmod();
    printf("%s: %u mismatches\n", failures ? "FAIL" : "ok", failures);
    return failures ? 1 : 0;
}
