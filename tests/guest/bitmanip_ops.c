/* Every Zba, Zbb, Zbc and Zbs instruction (bit-manipulation 1.0.0) over a table of
 * corner operands, each result printed; exec.qemu.bitmanip_ops compares the output
 * with qemu-riscv64's byte for byte. Built with -march=rv64gc_zba_zbb_zbc_zbs
 * (tests/CMakeLists.txt: guests named bitmanip*). The instructions are written as
 * mnemonics in inline asm, so each runs exactly as named. */
#include <stdint.h>
#include <stdio.h>

static const uint64_t operands[] = {
    0,
    1,
    ~0ull,                 /* -1 */
    0x7fffffffull,         /* INT32_MAX */
    0x80000000ull,         /* INT32_MIN's bits, zero-extended */
    0xffffffff80000000ull, /* INT32_MIN */
    0xffffffffull,
    0x100000000ull,
    0x7fffffffffffffffull, /* INT64_MAX */
    0x8000000000000000ull, /* INT64_MIN */
    0x8000000000000001ull,
    0x0123456789abcdefull,
    0xfedcba9876543210ull,
    0x5555555555555555ull,
    0xaaaaaaaaaaaaaaaaull,
    0x00ff00ff00ff00ffull,
    0x0000ff0000010000ull, /* zero and nonzero bytes mixed (orc.b) */
    0x00000000ffff8000ull, /* sign bits of a half and a byte */
    0x0000000000000080ull,
    31,
    32,
    63,
    64,
    65,
};
enum { N = sizeof operands / sizeof operands[0] };

#define R_OP(fn, mnemonic)                                                   \
    static uint64_t fn(uint64_t a, uint64_t b) {                             \
        uint64_t r;                                                          \
        __asm__ volatile(mnemonic " %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); \
        return r;                                                            \
    }
#define U_OP(fn, mnemonic)                                       \
    static uint64_t fn(uint64_t a) {                             \
        uint64_t r;                                              \
        __asm__ volatile(mnemonic " %0, %1" : "=r"(r) : "r"(a)); \
        return r;                                                \
    }
/* immediate forms: one function per shift amount (the immediate is in the encoding) */
#define I_OP(fn, mnemonic, shamt)                                         \
    static uint64_t fn##_##shamt(uint64_t a) {                            \
        uint64_t r;                                                       \
        __asm__ volatile(mnemonic " %0, %1, " #shamt : "=r"(r) : "r"(a)); \
        return r;                                                         \
    }

R_OP(op_sh1add, "sh1add")
R_OP(op_sh2add, "sh2add")
R_OP(op_sh3add, "sh3add")
R_OP(op_add_uw, "add.uw")
R_OP(op_sh1add_uw, "sh1add.uw")
R_OP(op_sh2add_uw, "sh2add.uw")
R_OP(op_sh3add_uw, "sh3add.uw")
R_OP(op_andn, "andn")
R_OP(op_orn, "orn")
R_OP(op_xnor, "xnor")
R_OP(op_max, "max")
R_OP(op_maxu, "maxu")
R_OP(op_min, "min")
R_OP(op_minu, "minu")
R_OP(op_rol, "rol")
R_OP(op_rolw, "rolw")
R_OP(op_ror, "ror")
R_OP(op_rorw, "rorw")
R_OP(op_clmul, "clmul")
R_OP(op_clmulh, "clmulh")
R_OP(op_clmulr, "clmulr")
R_OP(op_bclr, "bclr")
R_OP(op_bext, "bext")
R_OP(op_binv, "binv")
R_OP(op_bset, "bset")
U_OP(op_zext_w, "zext.w")
U_OP(op_clz, "clz")
U_OP(op_clzw, "clzw")
U_OP(op_ctz, "ctz")
U_OP(op_ctzw, "ctzw")
U_OP(op_cpop, "cpop")
U_OP(op_cpopw, "cpopw")
U_OP(op_sext_b, "sext.b")
U_OP(op_sext_h, "sext.h")
U_OP(op_zext_h, "zext.h")
U_OP(op_orc_b, "orc.b")
U_OP(op_rev8, "rev8")
I_OP(op_slli_uw, "slli.uw", 0)
I_OP(op_slli_uw, "slli.uw", 1)
I_OP(op_slli_uw, "slli.uw", 7)
I_OP(op_slli_uw, "slli.uw", 31)
I_OP(op_slli_uw, "slli.uw", 32)
I_OP(op_slli_uw, "slli.uw", 33)
I_OP(op_slli_uw, "slli.uw", 63)
I_OP(op_rori, "rori", 0)
I_OP(op_rori, "rori", 1)
I_OP(op_rori, "rori", 7)
I_OP(op_rori, "rori", 31)
I_OP(op_rori, "rori", 32)
I_OP(op_rori, "rori", 33)
I_OP(op_rori, "rori", 63)
I_OP(op_roriw, "roriw", 0)
I_OP(op_roriw, "roriw", 1)
I_OP(op_roriw, "roriw", 16)
I_OP(op_roriw, "roriw", 31)
I_OP(op_bclri, "bclri", 0)
I_OP(op_bclri, "bclri", 1)
I_OP(op_bclri, "bclri", 7)
I_OP(op_bclri, "bclri", 31)
I_OP(op_bclri, "bclri", 32)
I_OP(op_bclri, "bclri", 33)
I_OP(op_bclri, "bclri", 63)
I_OP(op_bexti, "bexti", 0)
I_OP(op_bexti, "bexti", 1)
I_OP(op_bexti, "bexti", 7)
I_OP(op_bexti, "bexti", 31)
I_OP(op_bexti, "bexti", 32)
I_OP(op_bexti, "bexti", 33)
I_OP(op_bexti, "bexti", 63)
I_OP(op_binvi, "binvi", 0)
I_OP(op_binvi, "binvi", 1)
I_OP(op_binvi, "binvi", 7)
I_OP(op_binvi, "binvi", 31)
I_OP(op_binvi, "binvi", 32)
I_OP(op_binvi, "binvi", 33)
I_OP(op_binvi, "binvi", 63)
I_OP(op_bseti, "bseti", 0)
I_OP(op_bseti, "bseti", 1)
I_OP(op_bseti, "bseti", 7)
I_OP(op_bseti, "bseti", 31)
I_OP(op_bseti, "bseti", 32)
I_OP(op_bseti, "bseti", 33)
I_OP(op_bseti, "bseti", 63)

typedef struct {
    const char *name;
    uint64_t (*fn)(uint64_t, uint64_t);
} binary_op;
typedef struct {
    const char *name;
    uint64_t (*fn)(uint64_t);
} unary_op;

#define B(x) \
    { #x, op_##x }
static const binary_op binary_ops[] = {
    B(sh1add), B(sh2add), B(sh3add), B(add_uw), B(sh1add_uw), B(sh2add_uw), B(sh3add_uw), B(andn), B(orn),
    B(xnor),   B(max),    B(maxu),   B(min),    B(minu),      B(rol),       B(rolw),      B(ror),  B(rorw),
    B(clmul),  B(clmulh), B(clmulr), B(bclr),   B(bext),      B(binv),      B(bset),
};
#define I6(x)                                                                                     \
    {#x " 0", op_##x##_0}, {#x " 1", op_##x##_1}, {#x " 7", op_##x##_7}, {#x " 31", op_##x##_31}, \
        {#x " 32", op_##x##_32}, {#x " 33", op_##x##_33}, {                                       \
#x " 63", op_##x##_63                                                                     \
    }
#define I5(x) \
    {#x " 0", op_##x##_0}, {#x " 1", op_##x##_1}, {#x " 16", op_##x##_16}, { #x " 31", op_##x##_31 }
static const unary_op unary_ops[] = {
    B(zext_w), B(clz),  B(clzw),     B(ctz),   B(ctzw),   B(cpop),   B(cpopw),  B(sext_b), B(sext_h), B(zext_h),
    B(orc_b),  B(rev8), I6(slli_uw), I6(rori), I5(roriw), I6(bclri), I6(bexti), I6(binvi), I6(bseti),
};

int main(void) {
    for (size_t o = 0; o < sizeof binary_ops / sizeof binary_ops[0]; o++)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                printf("%s %016llx %016llx = %016llx\n", binary_ops[o].name, (unsigned long long)operands[i],
                       (unsigned long long)operands[j], (unsigned long long)binary_ops[o].fn(operands[i], operands[j]));
    for (size_t o = 0; o < sizeof unary_ops / sizeof unary_ops[0]; o++)
        for (int i = 0; i < N; i++)
            printf("%s %016llx = %016llx\n", unary_ops[o].name, (unsigned long long)operands[i],
                   (unsigned long long)unary_ops[o].fn(operands[i]));
    return 0;
}
