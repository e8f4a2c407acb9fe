/* fp_wrappers.h — the instruction wrappers of the FP guest tests (fptest.c for F and D,
 * zfh_ops.c for Zfh): one function per instruction and rounding mode.
 *
 * Each wrapper: load operands, fsflags zero, the instruction, frflags, move the result out
 * (FP results as the whole 64-bit register, so NaN-boxing is seen). The dyn variants set frm
 * from `frm` first and reset it to 0 afterwards. A guest header: included by guest programs
 * only, never by cyclescope. */
#ifndef FP_WRAPPERS_H
#define FP_WRAPPERS_H
/* Hand-aligned macros: */
/* clang-format off */
#include <stdint.h>

typedef uint64_t (*opfn)(uint64_t a, uint64_t b, uint64_t c, uint64_t frm, uint64_t *fl);

#define CLOB "ft0", "ft1", "ft2", "ft3"

/* fp, fp -> fp with rm */
#define DEF_FFF(fn, insn, RM, PRE, POST)                                                     \
    static uint64_t fn(uint64_t a, uint64_t b, uint64_t c, uint64_t m, uint64_t *fl) {     \
        uint64_t r, f;                                                                     \
        (void)c;                                                                           \
        __asm__ volatile("fmv.d.x ft0, %[a]\n\tfmv.d.x ft1, %[b]\n\t" PRE                  \
                         "fsflags zero\n\t" insn " ft2, ft0, ft1" RM "\n\tfrflags %[f]\n\t"  \
                         POST "fmv.x.d %[r], ft2"                                          \
                         : [r] "=&r"(r), [f] "=&r"(f)                                      \
                         : [a] "r"(a), [b] "r"(b), [m] "r"(m)                              \
                         : CLOB);                                                          \
        *fl = f;                                                                           \
        return r;                                                                          \
    }
/* fp -> fp with rm */
#define DEF_FF(fn, insn, RM, PRE, POST)                                                      \
    static uint64_t fn(uint64_t a, uint64_t b, uint64_t c, uint64_t m, uint64_t *fl) {     \
        uint64_t r, f;                                                                     \
        (void)b, (void)c;                                                                  \
        __asm__ volatile("fmv.d.x ft0, %[a]\n\t" PRE "fsflags zero\n\t" insn " ft2, ft0" RM \
                         "\n\tfrflags %[f]\n\t" POST "fmv.x.d %[r], ft2"                   \
                         : [r] "=&r"(r), [f] "=&r"(f)                                      \
                         : [a] "r"(a), [m] "r"(m)                                          \
                         : CLOB);                                                          \
        *fl = f;                                                                           \
        return r;                                                                          \
    }
/* fp, fp, fp -> fp with rm */
#define DEF_FFFF(fn, insn, RM, PRE, POST)                                                    \
    static uint64_t fn(uint64_t a, uint64_t b, uint64_t c, uint64_t m, uint64_t *fl) {     \
        uint64_t r, f;                                                                     \
        __asm__ volatile("fmv.d.x ft0, %[a]\n\tfmv.d.x ft1, %[b]\n\tfmv.d.x ft2, %[c]\n\t"  \
                         PRE "fsflags zero\n\t" insn " ft3, ft0, ft1, ft2" RM               \
                         "\n\tfrflags %[f]\n\t" POST "fmv.x.d %[r], ft3"                   \
                         : [r] "=&r"(r), [f] "=&r"(f)                                      \
                         : [a] "r"(a), [b] "r"(b), [c] "r"(c), [m] "r"(m)                  \
                         : CLOB);                                                          \
        *fl = f;                                                                           \
        return r;                                                                          \
    }
/* fp -> int with rm */
#define DEF_XF(fn, insn, RM, PRE, POST)                                                      \
    static uint64_t fn(uint64_t a, uint64_t b, uint64_t c, uint64_t m, uint64_t *fl) {     \
        uint64_t r, f;                                                                     \
        (void)b, (void)c;                                                                  \
        __asm__ volatile("fmv.d.x ft0, %[a]\n\t" PRE "fsflags zero\n\t" insn " %[r], ft0" RM \
                         "\n\tfrflags %[f]\n\t" POST                                       \
                         : [r] "=&r"(r), [f] "=&r"(f)                                      \
                         : [a] "r"(a), [m] "r"(m)                                          \
                         : CLOB);                                                          \
        *fl = f;                                                                           \
        return r;                                                                          \
    }
/* int -> fp with rm */
#define DEF_FX(fn, insn, RM, PRE, POST)                                                      \
    static uint64_t fn(uint64_t a, uint64_t b, uint64_t c, uint64_t m, uint64_t *fl) {     \
        uint64_t r, f;                                                                     \
        (void)b, (void)c;                                                                  \
        __asm__ volatile(PRE "fsflags zero\n\t" insn " ft2, %[a]" RM "\n\tfrflags %[f]\n\t" \
                         POST "fmv.x.d %[r], ft2"                                          \
                         : [r] "=&r"(r), [f] "=&r"(f)                                      \
                         : [a] "r"(a), [m] "r"(m)                                          \
                         : CLOB);                                                          \
        *fl = f;                                                                           \
        return r;                                                                          \
    }
/* Conversions whose rm field the assembler does not accept (they are exact):
 * encoded with .insn; `rs2` selects the variant, `rd`/`rs1` register kinds. */
#define DEF_INSN(fn, f7, rs2, RMNUM, PRE, POST, LOAD, SRC)                                   \
    static uint64_t fn(uint64_t a, uint64_t b, uint64_t c, uint64_t m, uint64_t *fl) {     \
        uint64_t r, f;                                                                     \
        (void)b, (void)c;                                                                  \
        __asm__ volatile(LOAD PRE "fsflags zero\n\t.insn r OP_FP, " RMNUM ", " f7           \
                                  ", ft2, " SRC ", " rs2 "\n\tfrflags %[f]\n\t" POST       \
                                  "fmv.x.d %[r], ft2"                                      \
                         : [r] "=&r"(r), [f] "=&r"(f)                                      \
                         : [a] "r"(a), [m] "r"(m)                                          \
                         : CLOB);                                                          \
        *fl = f;                                                                           \
        return r;                                                                          \
    }

#define DYN_PRE "fsrm %[m]\n\t"
#define DYN_POST "fsrm zero\n\t"

#define VARIANTS(DEF, name, insn)                    \
    DEF(name##_rne, insn, ", rne", "", "")           \
    DEF(name##_rtz, insn, ", rtz", "", "")           \
    DEF(name##_rdn, insn, ", rdn", "", "")           \
    DEF(name##_rup, insn, ", rup", "", "")           \
    DEF(name##_rmm, insn, ", rmm", "", "")           \
    DEF(name##_dyn, insn, ", dyn", DYN_PRE, DYN_POST)
#define VARIANTS_INSN(name, f7, rs2, LOAD, SRC)                     \
    DEF_INSN(name##_rne, f7, rs2, "0", "", "", LOAD, SRC)           \
    DEF_INSN(name##_rtz, f7, rs2, "1", "", "", LOAD, SRC)           \
    DEF_INSN(name##_rdn, f7, rs2, "2", "", "", LOAD, SRC)           \
    DEF_INSN(name##_rup, f7, rs2, "3", "", "", LOAD, SRC)           \
    DEF_INSN(name##_rmm, f7, rs2, "4", "", "", LOAD, SRC)           \
    DEF_INSN(name##_dyn, f7, rs2, "7", DYN_PRE, DYN_POST, LOAD, SRC)
#define FNS(name) {name##_rne, name##_rtz, name##_rdn, name##_rup, name##_rmm, name##_dyn}

/* Instructions without a rounding mode */
#define DEF_N_FFF(fn, insn)                                                                  \
    static uint64_t fn(uint64_t a, uint64_t b, uint64_t c, uint64_t m, uint64_t *fl) {     \
        uint64_t r, f;                                                                     \
        (void)c, (void)m;                                                                  \
        __asm__ volatile("fmv.d.x ft0, %[a]\n\tfmv.d.x ft1, %[b]\n\tfsflags zero\n\t" insn  \
                         " ft2, ft0, ft1\n\tfrflags %[f]\n\tfmv.x.d %[r], ft2"              \
                         : [r] "=&r"(r), [f] "=&r"(f)                                      \
                         : [a] "r"(a), [b] "r"(b)                                          \
                         : CLOB);                                                          \
        *fl = f;                                                                           \
        return r;                                                                          \
    }
#define DEF_N_XFF(fn, insn)                                                                  \
    static uint64_t fn(uint64_t a, uint64_t b, uint64_t c, uint64_t m, uint64_t *fl) {     \
        uint64_t r, f;                                                                     \
        (void)c, (void)m;                                                                  \
        __asm__ volatile("fmv.d.x ft0, %[a]\n\tfmv.d.x ft1, %[b]\n\tfsflags zero\n\t" insn  \
                         " %[r], ft0, ft1\n\tfrflags %[f]"                                 \
                         : [r] "=&r"(r), [f] "=&r"(f)                                      \
                         : [a] "r"(a), [b] "r"(b)                                          \
                         : CLOB);                                                          \
        *fl = f;                                                                           \
        return r;                                                                          \
    }
#define DEF_N_XF(fn, insn)                                                                   \
    static uint64_t fn(uint64_t a, uint64_t b, uint64_t c, uint64_t m, uint64_t *fl) {     \
        uint64_t r, f;                                                                     \
        (void)b, (void)c, (void)m;                                                         \
        __asm__ volatile("fmv.d.x ft0, %[a]\n\tfsflags zero\n\t" insn                       \
                         " %[r], ft0\n\tfrflags %[f]"                                      \
                         : [r] "=&r"(r), [f] "=&r"(f)                                      \
                         : [a] "r"(a)                                                      \
                         : CLOB);                                                          \
        *fl = f;                                                                           \
        return r;                                                                          \
    }
#define DEF_N_FX(fn, insn)                                                                   \
    static uint64_t fn(uint64_t a, uint64_t b, uint64_t c, uint64_t m, uint64_t *fl) {     \
        uint64_t r, f;                                                                     \
        (void)b, (void)c, (void)m;                                                         \
        __asm__ volatile("fsflags zero\n\t" insn " ft2, %[a]\n\tfrflags %[f]\n\t"           \
                         "fmv.x.d %[r], ft2"                                               \
                         : [r] "=&r"(r), [f] "=&r"(f)                                      \
                         : [a] "r"(a)                                                      \
                         : CLOB);                                                          \
        *fl = f;                                                                           \
        return r;                                                                          \
    }

/* ------------------------------------------------------------------------ */
/* Output: one line per case, "<mnemonic> <mode> <in1> <in2> <in3> <result> <fflags>" in hex */

#include <stdio.h>

static const char *const mode_names[] = {"rne", "rtz", "rdn", "rup", "rmm"};
static const char *const dyn_names[] = {"dyn0", "dyn1", "dyn2", "dyn3", "dyn4"};

/* Output, formatted by hand: printf would cost ~3000 guest instructions a
 * line, which dominates the run time under an interpreter. */
static char obuf[1 << 16];
static size_t olen;

static void out_flush(void) {
    fwrite(obuf, 1, olen, stdout);
    olen = 0;
}
static void out_str(const char *s) {
    while (*s) obuf[olen++] = *s++;
}
static void out_hex(uint64_t v) { /* like %llx */
    char t[16];
    int n = 0;
    do {
        t[n++] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    while (n) obuf[olen++] = t[--n];
}

static void emit(const char *name, const char *mode, const uint64_t in[3], uint64_t r, uint64_t fl) {
    if (olen > sizeof obuf - 256) out_flush();
    out_str(name);
    obuf[olen++] = ' ';
    out_str(mode);
    for (int i = 0; i < 3; i++) {
        obuf[olen++] = ' ';
        out_hex(in[i]);
    }
    obuf[olen++] = ' ';
    out_hex(r);
    obuf[olen++] = ' ';
    out_hex(fl);
    obuf[olen++] = '\n';
}
/* clang-format on */
#endif
