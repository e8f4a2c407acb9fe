/* zx_zicond_zcb — Zicond and Zcb, checked against the specifications' definitions.
 *
 * Build: riscv64-linux-gnu-gcc -O2 -static -march=rv64gc_zba_zbb_zbc_zbs_zfh -o zx_zicond_zcb zx_zicond_zcb.c
 * Run:   cyclescope exec zx_zicond_zcb
 *
 * qemu-riscv64 7.2 runs neither extension and binutils 2.40 knows neither
 * mnemonic, so the instructions are written as encodings (.insn r for Zicond,
 * .2byte for Zcb) and the ground truth is the specifications':
 *  - Zicond 1.0: czero.eqz rd = (rs2 == 0) ? 0 : rs1; czero.nez rd = (rs2 != 0) ? 0 : rs1
 *    (over every pair of 24 corner values, and with rs2 = x0 and rd aliasing a source);
 *  - Zcb 1.0: each compressed instruction is defined as its 32-bit expansion
 *    (c.zext.b = andi rd,rd,255; c.sext.b = sext.b; c.zext.h = zext.h; c.sext.h = sext.h;
 *    c.zext.w = add.uw rd,rd,zero; c.not = xori rd,rd,-1; c.mul = mul; c.lbu/c.lhu/c.lh =
 *    lbu/lhu/lh; c.sb/c.sh = sb/sh): each form runs on the same inputs as its expansion,
 *    and both are compared with the value C computes.
 * Prints one line per instruction with the number of cases and mismatches (and
 * each mismatch); exits 1 on any mismatch.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const uint64_t vals[] = {0,
                                1,
                                2,
                                0x7f,
                                0x80,
                                0xff,
                                0x100,
                                0x7fff,
                                0x8000,
                                0xffff,
                                0x10000,
                                0x7fffffff,
                                0x80000000,
                                0xffffffff,
                                0x100000000ull,
                                0x7fffffffffffffffull,
                                0x8000000000000000ull,
                                0xffffffffffffffffull,
                                0x0123456789abcdefull,
                                0xfedcba9876543210ull,
                                0x00000000ffffff80ull,
                                0xffffffff00007f80ull,
                                0x5555555555555555ull,
                                0xaaaaaaaaaaaaaaaaull};
#define NV (sizeof vals / sizeof vals[0])

static unsigned failures;

static void check(const char *what, uint64_t a, uint64_t b, uint64_t got, uint64_t want, unsigned *bad) {
    if (got == want) return;
    (*bad)++;
    printf("MISMATCH %s a=%llx b=%llx got=%llx want=%llx\n", what, (unsigned long long)a, (unsigned long long)b,
           (unsigned long long)got, (unsigned long long)want);
}

static void report(const char *what, unsigned cases, unsigned bad) {
    printf("%s %u cases %u mismatches\n", what, cases, bad);
    failures += bad;
}

/* ---- Zicond ---- */
static uint64_t czero_eqz(uint64_t a, uint64_t b) {
    uint64_t r;
    __asm__ volatile(".insn r 0x33, 5, 7, %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
static uint64_t czero_nez(uint64_t a, uint64_t b) {
    uint64_t r;
    __asm__ volatile(".insn r 0x33, 7, 7, %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

static void zicond(void) {
    unsigned bad = 0, cases = 0;
    for (unsigned i = 0; i < NV; i++)
        for (unsigned j = 0; j < NV; j++, cases++)
            check("czero.eqz", vals[i], vals[j], czero_eqz(vals[i], vals[j]), vals[j] == 0 ? 0 : vals[i], &bad);
    report("czero.eqz", cases, bad);
    bad = cases = 0;
    for (unsigned i = 0; i < NV; i++)
        for (unsigned j = 0; j < NV; j++, cases++)
            check("czero.nez", vals[i], vals[j], czero_nez(vals[i], vals[j]), vals[j] != 0 ? 0 : vals[i], &bad);
    report("czero.nez", cases, bad);
    /* rs2 = x0 (eqz always zero, nez always rs1), rd = rs1, rd = rs2 */
    bad = cases = 0;
    for (unsigned i = 0; i < NV; i++) {
        uint64_t r, v = vals[i];
        __asm__ volatile(".insn r 0x33, 5, 7, %0, %1, x0" : "=r"(r) : "r"(v));
        check("czero.eqz rs2=x0", v, 0, r, 0, &bad);
        __asm__ volatile(".insn r 0x33, 7, 7, %0, %1, x0" : "=r"(r) : "r"(v));
        check("czero.nez rs2=x0", v, 0, r, v, &bad);
        r = v;
        __asm__ volatile(".insn r 0x33, 5, 7, %0, %0, %1" : "+r"(r) : "r"(vals[NV - 1 - i]));
        check("czero.eqz rd=rs1", v, vals[NV - 1 - i], r, vals[NV - 1 - i] ? v : 0, &bad);
        r = v;
        __asm__ volatile(".insn r 0x33, 7, 7, %0, %1, %0" : "+r"(r) : "r"(vals[NV - 1 - i]));
        check("czero.nez rd=rs2", vals[NV - 1 - i], v, r, v ? 0 : vals[NV - 1 - i], &bad);
        cases += 4;
    }
    report("czero.x0-and-aliases", cases, bad);
}

/* ---- Zcb: a compressed form (an encoding in a0, a1) and its expansion ---- */
#define UNARY(fn, cenc, expansion)                                                                    \
    static void fn(uint64_t v, uint64_t *c, uint64_t *x) {                                            \
        register uint64_t a0 __asm__("a0") = v;                                                       \
        __asm__ volatile(".option push\n\t.option rvc\n\t.2byte " cenc "\n\t.option pop" : "+r"(a0)); \
        *c = a0;                                                                                      \
        a0 = v;                                                                                       \
        __asm__ volatile(".option push\n\t.option norvc\n\t" expansion "\n\t.option pop" : "+r"(a0)); \
        *x = a0;                                                                                      \
    }
UNARY(c_zext_b, "0x9d61", "andi a0, a0, 255")
UNARY(c_sext_b, "0x9d65", "sext.b a0, a0")
UNARY(c_zext_h, "0x9d69", "zext.h a0, a0")
UNARY(c_sext_h, "0x9d6d", "sext.h a0, a0")
UNARY(c_zext_w, "0x9d71", "add.uw a0, a0, zero")
UNARY(c_not, "0x9d75", "xori a0, a0, -1")

static void c_mul(uint64_t v, uint64_t w, uint64_t *c, uint64_t *x) {
    register uint64_t a0 __asm__("a0") = v;
    register uint64_t a1 __asm__("a1") = w;
    __asm__ volatile(".2byte 0x9d4d" : "+r"(a0) : "r"(a1)); /* c.mul a0, a1 */
    *c = a0;
    a0 = v;
    __asm__ volatile(".option push\n\t.option norvc\n\tmul a0, a0, a1\n\t.option pop" : "+r"(a0) : "r"(a1));
    *x = a0;
}

/* loads: c.lbu/c.lhu/c.lh a0, uimm(a1) */
#define LOAD(fn, cenc, expansion)                                                                         \
    static uint64_t fn(const void *p, int compressed) {                                                   \
        register uint64_t a0 __asm__("a0");                                                               \
        register const void *a1 __asm__("a1") = p;                                                        \
        if (compressed) __asm__ volatile(".2byte " cenc : "=r"(a0) : "r"(a1), "m"(*(const char(*)[8])p)); \
        else                                                                                              \
            __asm__ volatile(".option push\n\t.option norvc\n\t" expansion "\n\t.option pop"              \
                             : "=r"(a0)                                                                   \
                             : "r"(a1), "m"(*(const char(*)[8])p));                                       \
        return a0;                                                                                        \
    }
LOAD(c_lbu0, "0x8188", "lbu a0, 0(a1)")
LOAD(c_lbu1, "0x81c8", "lbu a0, 1(a1)")
LOAD(c_lbu2, "0x81a8", "lbu a0, 2(a1)")
LOAD(c_lbu3, "0x81e8", "lbu a0, 3(a1)")
LOAD(c_lhu0, "0x8588", "lhu a0, 0(a1)")
LOAD(c_lhu2, "0x85a8", "lhu a0, 2(a1)")
LOAD(c_lh0, "0x85c8", "lh a0, 0(a1)")
LOAD(c_lh2, "0x85e8", "lh a0, 2(a1)")

/* stores: c.sb/c.sh a0, uimm(a1) */
#define STORE(fn, cenc, expansion)                                                                  \
    static void fn(void *p, uint64_t v, int compressed) {                                           \
        register uint64_t a0 __asm__("a0") = v;                                                     \
        register void *a1 __asm__("a1") = p;                                                        \
        if (compressed) __asm__ volatile(".2byte " cenc : "=m"(*(char(*)[8])p) : "r"(a0), "r"(a1)); \
        else                                                                                        \
            __asm__ volatile(".option push\n\t.option norvc\n\t" expansion "\n\t.option pop"        \
                             : "=m"(*(char(*)[8])p)                                                 \
                             : "r"(a0), "r"(a1));                                                   \
    }
STORE(c_sb0, "0x8988", "sb a0, 0(a1)")
STORE(c_sb1, "0x89c8", "sb a0, 1(a1)")
STORE(c_sb2, "0x89a8", "sb a0, 2(a1)")
STORE(c_sb3, "0x89e8", "sb a0, 3(a1)")
STORE(c_sh0, "0x8d88", "sh a0, 0(a1)")
STORE(c_sh2, "0x8da8", "sh a0, 2(a1)")

static void zcb(void) {
    static const struct {
        const char *name;
        void (*fn)(uint64_t, uint64_t *, uint64_t *);
    } unary[] = {{"c.zext.b", c_zext_b}, {"c.sext.b", c_sext_b}, {"c.zext.h", c_zext_h},
                 {"c.sext.h", c_sext_h}, {"c.zext.w", c_zext_w}, {"c.not", c_not}};
    for (unsigned k = 0; k < sizeof unary / sizeof unary[0]; k++) {
        unsigned bad = 0, cases = 0;
        for (unsigned i = 0; i < NV; i++, cases++) {
            uint64_t v = vals[i], c, x, want;
            unary[k].fn(v, &c, &x);
            switch (k) {
            case 0: want = v & 0xff; break;
            case 1: want = (uint64_t)(int64_t)(int8_t)v; break;
            case 2: want = v & 0xffff; break;
            case 3: want = (uint64_t)(int64_t)(int16_t)v; break;
            case 4: want = v & 0xffffffffull; break;
            default: want = ~v; break;
            }
            check(unary[k].name, v, 0, c, x, &bad);
            check(unary[k].name, v, 0, c, want, &bad);
        }
        report(unary[k].name, cases, bad);
    }
    unsigned bad = 0, cases = 0;
    for (unsigned i = 0; i < NV; i++)
        for (unsigned j = 0; j < NV; j++, cases++) {
            uint64_t c, x;
            c_mul(vals[i], vals[j], &c, &x);
            check("c.mul", vals[i], vals[j], c, x, &bad);
            check("c.mul", vals[i], vals[j], c, vals[i] * vals[j], &bad);
        }
    report("c.mul", cases, bad);

    static const struct {
        const char *name;
        uint64_t (*fn)(const void *, int);
        unsigned off, size, sign;
    } loads[] = {{"c.lbu", c_lbu0, 0, 1, 0}, {"c.lbu", c_lbu1, 1, 1, 0}, {"c.lbu", c_lbu2, 2, 1, 0},
                 {"c.lbu", c_lbu3, 3, 1, 0}, {"c.lhu", c_lhu0, 0, 2, 0}, {"c.lhu", c_lhu2, 2, 2, 0},
                 {"c.lh", c_lh0, 0, 2, 1},   {"c.lh", c_lh2, 2, 2, 1}};
    for (unsigned k = 0; k < sizeof loads / sizeof loads[0]; k++) {
        bad = cases = 0;
        for (unsigned i = 0; i < NV; i++, cases++) {
            uint64_t mem[2] = {vals[i], vals[NV - 1 - i]}, want;
            const unsigned char *b = (const unsigned char *)mem + loads[k].off;
            if (loads[k].size == 1) want = b[0];
            else {
                uint16_t h;
                memcpy(&h, b, 2);
                want = loads[k].sign ? (uint64_t)(int64_t)(int16_t)h : h;
            }
            uint64_t c = loads[k].fn(mem, 1), x = loads[k].fn(mem, 0);
            check(loads[k].name, vals[i], loads[k].off, c, x, &bad);
            check(loads[k].name, vals[i], loads[k].off, c, want, &bad);
        }
        report(loads[k].name, cases, bad);
    }

    static const struct {
        const char *name;
        void (*fn)(void *, uint64_t, int);
        unsigned off, size;
    } stores[] = {{"c.sb", c_sb0, 0, 1}, {"c.sb", c_sb1, 1, 1}, {"c.sb", c_sb2, 2, 1},
                  {"c.sb", c_sb3, 3, 1}, {"c.sh", c_sh0, 0, 2}, {"c.sh", c_sh2, 2, 2}};
    for (unsigned k = 0; k < sizeof stores / sizeof stores[0]; k++) {
        bad = cases = 0;
        for (unsigned i = 0; i < NV; i++, cases++) {
            uint64_t mc[2] = {vals[NV - 1 - i], vals[i]}, mx[2] = {vals[NV - 1 - i], vals[i]}, mw[2];
            memcpy(mw, mc, sizeof mw);
            memcpy((unsigned char *)mw + stores[k].off, &vals[i], stores[k].size); /* little-endian low bytes */
            stores[k].fn(mc, vals[i], 1);
            stores[k].fn(mx, vals[i], 0);
            check(stores[k].name, vals[i], stores[k].off, mc[0], mx[0], &bad);
            check(stores[k].name, vals[i], stores[k].off, mc[0], mw[0], &bad);
            check(stores[k].name, vals[i], stores[k].off, mc[1], mw[1], &bad);
        }
        report(stores[k].name, cases, bad);
    }
}

int main(void) {
    zicond();
    zcb();
    printf("%s: %u mismatches\n", failures ? "FAIL" : "ok", failures);
    return failures ? 1 : 0;
}
