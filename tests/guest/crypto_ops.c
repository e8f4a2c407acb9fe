/* Every RV64 scalar cryptography instruction (Zbkb, Zbkc, Zbkx, Zknd, Zkne, Zknh, Zksed,
 * Zksh; the ones Zbkb/Zbkc share with Zbb/Zbc too) over a table of corner operands, every
 * pair for the two-source ones, then as many pseudo-random operands (xorshift64, argv[1]
 * of them per instruction, seed argv[2]), each result printed; every immediate (aes64ks1i's
 * round numbers 0-10, sm4ed/sm4ks's byte selects 0-3). Last, a read of the seed CSR (Zkr),
 * which user code gets as SIGILL. exec.qemu.crypto_ops compares the output with
 * qemu-riscv64's byte for byte. Built with -march=rv64gc_zbkb_zbkc_zbkx_zknd_zkne_zknh_zksed_zksh
 * (tests/CMakeLists.txt: guests named crypto*); the instructions are mnemonics in inline asm. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const uint64_t corners[] = {
    0,
    1,
    ~0ull,
    0x7fffffffull,
    0x80000000ull,
    0xffffffff80000000ull,
    0xffffffffull,
    0x100000000ull,
    0x7fffffffffffffffull,
    0x8000000000000000ull,
    0x8000000000000001ull,
    0x0123456789abcdefull,
    0xfedcba9876543210ull,
    0x5555555555555555ull,
    0xaaaaaaaaaaaaaaaaull,
    0x00ff00ff00ff00ffull,
    0x0706050403020100ull, /* xperm8: the identity; bytes 0-7 */
    0x08090a0b0c0d0e0full, /* xperm8: indices 8-15, past the register */
    0xfedcba9876543210ull, /* xperm4: the identity */
    0x0000000000000080ull,
    0x000000000000ff00ull,
    0x3243f6a8885a308dull, /* FIPS-197 Appendix B's plaintext */
    0x2b7e151628aed2a6ull, /* and key */
    0x6a09e667bb67ae85ull, /* SHA-256's initial hash */
};
enum { NC = sizeof corners / sizeof corners[0] };

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
/* an immediate is part of the encoding: one function per value */
#define I_OP(fn, mnemonic, imm)                                         \
    static uint64_t fn##_##imm(uint64_t a) {                            \
        uint64_t r;                                                     \
        __asm__ volatile(mnemonic " %0, %1, " #imm : "=r"(r) : "r"(a)); \
        return r;                                                       \
    }
#define BS_OP(fn, mnemonic, bs)                                                    \
    static uint64_t fn##_##bs(uint64_t a, uint64_t b) {                            \
        uint64_t r;                                                                \
        __asm__ volatile(mnemonic " %0, %1, %2, " #bs : "=r"(r) : "r"(a), "r"(b)); \
        return r;                                                                  \
    }

R_OP(op_pack, "pack")
R_OP(op_packh, "packh")
R_OP(op_packw, "packw")
R_OP(op_rol, "rol")
R_OP(op_rolw, "rolw")
R_OP(op_ror, "ror")
R_OP(op_rorw, "rorw")
R_OP(op_andn, "andn")
R_OP(op_orn, "orn")
R_OP(op_xnor, "xnor")
R_OP(op_clmul, "clmul")
R_OP(op_clmulh, "clmulh")
R_OP(op_xperm4, "xperm4")
R_OP(op_xperm8, "xperm8")
R_OP(op_aes64ds, "aes64ds")
R_OP(op_aes64dsm, "aes64dsm")
R_OP(op_aes64es, "aes64es")
R_OP(op_aes64esm, "aes64esm")
R_OP(op_aes64ks2, "aes64ks2")
BS_OP(op_sm4ed, "sm4ed", 0)
BS_OP(op_sm4ed, "sm4ed", 1)
BS_OP(op_sm4ed, "sm4ed", 2)
BS_OP(op_sm4ed, "sm4ed", 3)
BS_OP(op_sm4ks, "sm4ks", 0)
BS_OP(op_sm4ks, "sm4ks", 1)
BS_OP(op_sm4ks, "sm4ks", 2)
BS_OP(op_sm4ks, "sm4ks", 3)
U_OP(op_brev8, "brev8")
U_OP(op_rev8, "rev8")
U_OP(op_aes64im, "aes64im")
U_OP(op_sha256sig0, "sha256sig0")
U_OP(op_sha256sig1, "sha256sig1")
U_OP(op_sha256sum0, "sha256sum0")
U_OP(op_sha256sum1, "sha256sum1")
U_OP(op_sha512sig0, "sha512sig0")
U_OP(op_sha512sig1, "sha512sig1")
U_OP(op_sha512sum0, "sha512sum0")
U_OP(op_sha512sum1, "sha512sum1")
U_OP(op_sm3p0, "sm3p0")
U_OP(op_sm3p1, "sm3p1")
I_OP(op_aes64ks1i, "aes64ks1i", 0)
I_OP(op_aes64ks1i, "aes64ks1i", 1)
I_OP(op_aes64ks1i, "aes64ks1i", 2)
I_OP(op_aes64ks1i, "aes64ks1i", 3)
I_OP(op_aes64ks1i, "aes64ks1i", 4)
I_OP(op_aes64ks1i, "aes64ks1i", 5)
I_OP(op_aes64ks1i, "aes64ks1i", 6)
I_OP(op_aes64ks1i, "aes64ks1i", 7)
I_OP(op_aes64ks1i, "aes64ks1i", 8)
I_OP(op_aes64ks1i, "aes64ks1i", 9)
I_OP(op_aes64ks1i, "aes64ks1i", 10)
I_OP(op_rori, "rori", 0)
I_OP(op_rori, "rori", 13)
I_OP(op_rori, "rori", 63)
I_OP(op_roriw, "roriw", 0)
I_OP(op_roriw, "roriw", 7)
I_OP(op_roriw, "roriw", 31)

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
#define BI(x, i) \
    { #x " " #i, op_##x##_##i }
static const binary_op binary_ops[] = {
    B(pack),      B(packh),     B(packw),     B(rol),       B(rolw),      B(ror),       B(rorw),
    B(andn),      B(orn),       B(xnor),      B(clmul),     B(clmulh),    B(xperm4),    B(xperm8),
    B(aes64ds),   B(aes64dsm),  B(aes64es),   B(aes64esm),  B(aes64ks2),  BI(sm4ed, 0), BI(sm4ed, 1),
    BI(sm4ed, 2), BI(sm4ed, 3), BI(sm4ks, 0), BI(sm4ks, 1), BI(sm4ks, 2), BI(sm4ks, 3),
};
static const unary_op unary_ops[] = {
    B(brev8),         B(rev8),          B(aes64im),       B(sha256sig0),    B(sha256sig1),    B(sha256sum0),
    B(sha256sum1),    B(sha512sig0),    B(sha512sig1),    B(sha512sum0),    B(sha512sum1),    B(sm3p0),
    B(sm3p1),         BI(aes64ks1i, 0), BI(aes64ks1i, 1), BI(aes64ks1i, 2), BI(aes64ks1i, 3), BI(aes64ks1i, 4),
    BI(aes64ks1i, 5), BI(aes64ks1i, 6), BI(aes64ks1i, 7), BI(aes64ks1i, 8), BI(aes64ks1i, 9), BI(aes64ks1i, 10),
    BI(rori, 0),      BI(rori, 13),     BI(rori, 63),     BI(roriw, 0),     BI(roriw, 7),     BI(roriw, 31),
};

static uint64_t state;
static uint64_t next_random(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static sigjmp_buf on_sigill;
static void sigill(int sig) {
    (void)sig;
    siglongjmp(on_sigill, 1);
}

int main(int argc, char **argv) {
    long randoms = argc > 1 ? atol(argv[1]) : 200;
    state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x9e3779b97f4a7c15ull;
    if (!state) state = 1;
    for (size_t o = 0; o < sizeof binary_ops / sizeof binary_ops[0]; o++) {
        for (int i = 0; i < NC; i++)
            for (int j = 0; j < NC; j++)
                printf("%s %016llx %016llx = %016llx\n", binary_ops[o].name, (unsigned long long)corners[i],
                       (unsigned long long)corners[j], (unsigned long long)binary_ops[o].fn(corners[i], corners[j]));
        for (long k = 0; k < randoms; k++) {
            uint64_t a = next_random(), b = next_random();
            printf("%s %016llx %016llx = %016llx\n", binary_ops[o].name, (unsigned long long)a, (unsigned long long)b,
                   (unsigned long long)binary_ops[o].fn(a, b));
        }
    }
    for (size_t o = 0; o < sizeof unary_ops / sizeof unary_ops[0]; o++) {
        for (int i = 0; i < NC; i++)
            printf("%s %016llx = %016llx\n", unary_ops[o].name, (unsigned long long)corners[i],
                   (unsigned long long)unary_ops[o].fn(corners[i]));
        for (long k = 0; k < randoms; k++) {
            uint64_t a = next_random();
            printf("%s %016llx = %016llx\n", unary_ops[o].name, (unsigned long long)a,
                   (unsigned long long)unary_ops[o].fn(a));
        }
    }
    /* Zkr's seed CSR: Linux leaves mseccfg.USEED clear, so user code's access is illegal */
    struct sigaction sa = {.sa_handler = sigill};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGILL, &sa, NULL);
    if (sigsetjmp(on_sigill, 1) == 0) {
        uint64_t v;
        __asm__ volatile("csrrw %0, 0x015, zero" : "=r"(v));
        printf("seed: read, not SIGILL\n");
    } else printf("seed: SIGILL\n");
    fflush(stdout);
    return 0;
}
