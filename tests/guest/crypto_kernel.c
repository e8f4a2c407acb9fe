/* The scalar cryptography instructions doing their jobs, checked against the standards'
 * test vectors: AES-128 encryption of FIPS-197 Appendix C.1's block with aes64ks1i/ks2 and
 * aes64es/esm, and its decryption with aes64im and aes64ds/dsm; SHA-256 and SHA-512 of "abc"
 * (FIPS 180-2 Appendix B.1, C.1) with sha256sig/sum and sha512sig/sum; SM3 of "abc"
 * (GB/T 32905 Appendix A.1) with sm3p0/p1; SM4 encryption of GB/T 32907 Appendix A.1's
 * block with sm4ks and sm4ed. Everything else is plain C. argv[1]: how many times to do it
 * all (default 1). Prints each result and whether it is the standard's; exit status 1 if
 * one is not. Built with the crypto* -march (tests/CMakeLists.txt). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R2(name, mnemonic)                                                   \
    static inline uint64_t name(uint64_t a, uint64_t b) {                    \
        uint64_t r;                                                          \
        __asm__ volatile(mnemonic " %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); \
        return r;                                                            \
    }
#define R1(name, mnemonic)                                       \
    static inline uint64_t name(uint64_t a) {                    \
        uint64_t r;                                              \
        __asm__ volatile(mnemonic " %0, %1" : "=r"(r) : "r"(a)); \
        return r;                                                \
    }
R2(aes64es, "aes64es")
R2(aes64esm, "aes64esm")
R2(aes64ds, "aes64ds")
R2(aes64dsm, "aes64dsm")
R2(aes64ks2, "aes64ks2")
R1(aes64im, "aes64im")
R1(sha256sig0, "sha256sig0")
R1(sha256sig1, "sha256sig1")
R1(sha256sum0, "sha256sum0")
R1(sha256sum1, "sha256sum1")
R1(sha512sig0, "sha512sig0")
R1(sha512sig1, "sha512sig1")
R1(sha512sum0, "sha512sum0")
R1(sha512sum1, "sha512sum1")
R1(sm3p0, "sm3p0")
R1(sm3p1, "sm3p1")

/* the round number and the byte select are immediates: one asm per value */
static uint64_t aes64ks1i(uint64_t a, int round) {
    uint64_t r;
    switch (round) {
#define KS(n) \
    case n: __asm__ volatile("aes64ks1i %0, %1, " #n : "=r"(r) : "r"(a)); break;
        KS(0) KS(1) KS(2) KS(3) KS(4) KS(5) KS(6) KS(7) KS(8) KS(9) default : abort();
    }
    return r;
}
static uint32_t sm4_t(uint32_t acc, uint32_t x, int key) { /* acc ^ T(x) (or T'(x)), all four bytes */
    uint64_t r = acc;
    if (key)
        __asm__ volatile("sm4ks %0, %0, %1, 0\n\tsm4ks %0, %0, %1, 1\n\tsm4ks %0, %0, %1, 2\n\tsm4ks %0, %0, %1, 3"
                         : "+r"(r)
                         : "r"((uint64_t)x));
    else
        __asm__ volatile("sm4ed %0, %0, %1, 0\n\tsm4ed %0, %0, %1, 1\n\tsm4ed %0, %0, %1, 2\n\tsm4ed %0, %0, %1, 3"
                         : "+r"(r)
                         : "r"((uint64_t)x));
    return (uint32_t)r;
}

static int failures;
static void report(const char *what, const uint8_t *got, const char *want_hex, size_t n) {
    char hex[129];
    for (size_t i = 0; i < n; i++) snprintf(hex + 2 * i, 3, "%02x", got[i]);
    int ok = strcmp(hex, want_hex) == 0;
    failures += !ok;
    printf("%s: %s %s\n", what, hex, ok ? "(the standard's)" : "MISMATCH");
}

static uint64_t load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
static void store64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* ---- AES-128 (the state and round keys as two little-endian doublewords) ---- */
static void aes128(const uint8_t key[16], const uint8_t in[16], uint8_t enc[16], uint8_t dec[16]) {
    uint64_t rk[11][2], k0 = load64(key), k1 = load64(key + 8);
    rk[0][0] = k0, rk[0][1] = k1;
    for (int i = 0; i < 10; i++) {
        uint64_t t = aes64ks1i(k1, i);
        k0 = aes64ks2(t, k0);
        k1 = aes64ks2(k0, k1);
        rk[i + 1][0] = k0, rk[i + 1][1] = k1;
    }
    uint64_t s0 = load64(in) ^ rk[0][0], s1 = load64(in + 8) ^ rk[0][1];
    for (int r = 1; r < 10; r++) {
        uint64_t n0 = aes64esm(s0, s1), n1 = aes64esm(s1, s0);
        s0 = n0 ^ rk[r][0], s1 = n1 ^ rk[r][1];
    }
    uint64_t n0 = aes64es(s0, s1), n1 = aes64es(s1, s0);
    s0 = n0 ^ rk[10][0], s1 = n1 ^ rk[10][1];
    store64(enc, s0), store64(enc + 8, s1);
    /* the equivalent inverse cipher (FIPS-197 §5.3.5): the middle round keys through InvMixColumns */
    s0 ^= rk[10][0], s1 ^= rk[10][1];
    for (int r = 9; r > 0; r--) {
        n0 = aes64dsm(s0, s1), n1 = aes64dsm(s1, s0);
        s0 = n0 ^ aes64im(rk[r][0]), s1 = n1 ^ aes64im(rk[r][1]);
    }
    n0 = aes64ds(s0, s1), n1 = aes64ds(s1, s0);
    store64(dec, n0 ^ rk[0][0]), store64(dec + 8, n1 ^ rk[0][1]);
}

/* ---- SHA-256 and SHA-512 of one padded block ---- */
static const uint32_t k256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
static void sha256_abc(uint8_t out[32]) {
    uint32_t w[64] = {0x61626380u, [15] = 24},
             h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    for (int t = 16; t < 64; t++)
        w[t] = (uint32_t)sha256sig1(w[t - 2]) + w[t - 7] + (uint32_t)sha256sig0(w[t - 15]) + w[t - 16];
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = hh + (uint32_t)sha256sum1(e) + ((e & f) ^ (~e & g)) + k256[t] + w[t];
        uint32_t t2 = (uint32_t)sha256sum0(a) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    uint32_t v[8] = {a, b, c, d, e, f, g, hh};
    for (int i = 0; i < 8; i++) {
        uint32_t x = h[i] + v[i];
        for (int j = 0; j < 4; j++) out[4 * i + j] = (uint8_t)(x >> (24 - 8 * j));
    }
}

static const uint64_t k512[80] = {
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
    0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
    0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
    0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
    0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
    0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
    0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
    0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
    0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
    0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817};
static void sha512_abc(uint8_t out[64]) {
    uint64_t w[80] = {0x6162638000000000ull, [15] = 24};
    uint64_t h[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                     0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
    for (int t = 16; t < 80; t++) w[t] = sha512sig1(w[t - 2]) + w[t - 7] + sha512sig0(w[t - 15]) + w[t - 16];
    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 80; t++) {
        uint64_t t1 = hh + sha512sum1(e) + ((e & f) ^ (~e & g)) + k512[t] + w[t];
        uint64_t t2 = sha512sum0(a) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    uint64_t v[8] = {a, b, c, d, e, f, g, hh};
    for (int i = 0; i < 8; i++) {
        uint64_t x = h[i] + v[i];
        for (int j = 0; j < 8; j++) out[8 * i + j] = (uint8_t)(x >> (56 - 8 * j));
    }
}

/* ---- SM3 of "abc" ---- */
static uint32_t rol32(uint32_t x, int n) { return n ? (x << n) | (x >> (32 - n)) : x; }
static void sm3_abc(uint8_t out[32]) {
    uint32_t w[68] = {0x61626380u, [15] = 24}, w1[64];
    uint32_t v[8] = {0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600, 0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e};
    for (int j = 16; j < 68; j++)
        w[j] = (uint32_t)sm3p1(w[j - 16] ^ w[j - 9] ^ rol32(w[j - 3], 15)) ^ rol32(w[j - 13], 7) ^ w[j - 6];
    for (int j = 0; j < 64; j++) w1[j] = w[j] ^ w[j + 4];
    uint32_t a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
    for (int j = 0; j < 64; j++) {
        uint32_t tj = j < 16 ? 0x79cc4519u : 0x7a879d8au;
        uint32_t ss1 = rol32(rol32(a, 12) + e + rol32(tj, j % 32), 7), ss2 = ss1 ^ rol32(a, 12);
        uint32_t ff = j < 16 ? a ^ b ^ c : (a & b) | (a & c) | (b & c);
        uint32_t gg = j < 16 ? e ^ f ^ g : (e & f) | (~e & g);
        uint32_t tt1 = ff + d + ss2 + w1[j], tt2 = gg + h + ss1 + w[j];
        d = c, c = rol32(b, 9), b = a, a = tt1, h = g, g = rol32(f, 19), f = e, e = (uint32_t)sm3p0(tt2);
    }
    uint32_t s[8] = {a, b, c, d, e, f, g, h};
    for (int i = 0; i < 8; i++) {
        uint32_t x = v[i] ^ s[i];
        for (int j = 0; j < 4; j++) out[4 * i + j] = (uint8_t)(x >> (24 - 8 * j));
    }
}

/* ---- SM4: the standard's big-endian words loaded little-endian, as the instructions take them ---- */
static uint32_t load32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static void sm4(const uint8_t key[16], const uint8_t in[16], uint8_t out[16]) {
    static const uint8_t fk[16] = {0xa3, 0xb1, 0xba, 0xc6, 0x56, 0xaa, 0x33, 0x50,
                                   0x67, 0x7d, 0x91, 0x97, 0xb2, 0x70, 0x22, 0xdc};
    uint32_t k[36], rk[32], x[36];
    for (int i = 0; i < 4; i++) k[i] = load32(key + 4 * i) ^ load32(fk + 4 * i);
    for (int i = 0; i < 32; i++) {
        uint8_t ck[4];
        for (int j = 0; j < 4; j++) ck[j] = (uint8_t)((4 * i + j) * 7);
        k[i + 4] = rk[i] = sm4_t(k[i], k[i + 1] ^ k[i + 2] ^ k[i + 3] ^ load32(ck), 1);
    }
    for (int i = 0; i < 4; i++) x[i] = load32(in + 4 * i);
    for (int i = 0; i < 32; i++) x[i + 4] = sm4_t(x[i], x[i + 1] ^ x[i + 2] ^ x[i + 3] ^ rk[i], 0);
    for (int i = 0; i < 4; i++) memcpy(out + 4 * i, &x[35 - i], 4);
}

int main(int argc, char **argv) {
    long repeat = argc > 1 ? atol(argv[1]) : 1;
    uint8_t aes_key[16], aes_in[16], enc[16], dec[16], d256[32], d512[64], dsm3[32], sm4_out[16];
    for (int i = 0; i < 16; i++) aes_key[i] = (uint8_t)i, aes_in[i] = (uint8_t)(0x11 * i);
    static const uint8_t sm4_block[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
                                          0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10};
    for (long r = 0; r < repeat; r++) {
        aes128(aes_key, aes_in, enc, dec);
        sha256_abc(d256);
        sha512_abc(d512);
        sm3_abc(dsm3);
        sm4(sm4_block, sm4_block, sm4_out);
    }
    report("AES-128 encrypt", enc, "69c4e0d86a7b0430d8cdb78070b4c55a", 16);
    report("AES-128 decrypt", dec, "00112233445566778899aabbccddeeff", 16);
    report("SHA-256(abc)", d256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", 32);
    report(
        "SHA-512(abc)", d512,
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643c"
        "e80e2a9ac94fa54ca49f",
        64);
    report("SM3(abc)", dsm3, "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0", 32);
    report("SM4 encrypt", sm4_out, "681edf34d206965e86b3e94f536e4246", 16);
    return failures ? 1 : 0;
}
