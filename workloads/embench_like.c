/*
 * embench_like -- small embedded kernels in the spirit of the Embench suite,
 * written for cyclescope (no Embench code), run one after another, each
 * repeated: a program of eight distinct phases.
 *
 * usage: embench_like [N]   N = repetitions of each kernel (default 30, 1..100000)
 *
 * Phases, in order:
 *   crc32     table-driven CRC-32 over 16 KiB
 *   nbody     5 bodies, 150 steps (double; fsqrt.d)
 *   matmult   4 products of 20 x 20 int32 matrices
 *   mont64    5000 Montgomery modular multiplications, 64-bit (mulhu)
 *   huffman   code lengths from byte frequencies, encode then decode 4 KiB
 *   sieve     Eratosthenes up to 32 K
 *   fir       32-tap int16 FIR filter over 2 K samples
 *   sha256    SHA-256 of 8 KiB (FIPS 180-4)
 * About 3.0 M instructions per repetition: 3.5 M at N = 1 (with the fixed
 * setup), 92 M at the default, 306 M at N = 100 (under env -i). Self-checks: CRC-32 against the bitwise
 * definition, SHA-256 of "abc" against FIPS 180-2's example, Montgomery
 * against __int128 arithmetic, Huffman decode(encode(x)) == x, sieve against
 * trial division at sampled numbers, pi(32768) = 3512, nbody energy drift
 * below 1e-3.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_N 30L

static long parse_size(int argc, char **argv, long def, long lo, long hi) {
    if (argc > 2) {
        fprintf(stderr, "usage: %s [N]\n", argv[0]);
        exit(2);
    }
    if (argc < 2) return def;
    char *end;
    errno = 0;
    long v = strtol(argv[1], &end, 10);
    if (errno != 0 || end == argv[1] || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "%s: bad size '%s' (expected an integer in [%ld, %ld])\n", argv[0], argv[1], lo, hi);
        exit(2);
    }
    return v;
}

static void fail(const char *what) {
    fprintf(stderr, "embench_like: self-check failed: %s\n", what);
    exit(1);
}

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint64_t next_u64(void) {
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t hash = 1469598103934665603ull;
static void mix(uint64_t v) {
    for (int i = 0; i < 8; i++) hash = (hash ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ull;
}

static uint8_t data[16384];

/* ---- crc32 ---- */
static uint32_t crc_table[256];
static uint32_t crc32_bitwise(const uint8_t *p, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
    }
    return ~c;
}
static void crc32_phase(long reps) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
        crc_table[i] = c;
    }
    uint32_t c = 0;
    for (long r = 0; r < reps; r++) {
        c = 0xffffffffu;
        for (size_t i = 0; i < sizeof data; i++) c = crc_table[(c ^ data[i]) & 0xff] ^ (c >> 8);
        c = ~c;
        data[r % sizeof data] ^= (uint8_t)c;
        mix(c);
    }
    uint8_t probe[64];
    memcpy(probe, data, sizeof probe);
    uint32_t t = 0xffffffffu;
    for (size_t i = 0; i < sizeof probe; i++) t = crc_table[(t ^ probe[i]) & 0xff] ^ (t >> 8);
    if (~t != crc32_bitwise(probe, sizeof probe)) fail("crc32");
}

/* ---- nbody ---- */
static double fsqrt(double x) {
    double r;
    __asm__("fsqrt.d %0, %1" : "=f"(r) : "f"(x));
    return r;
}
typedef struct body {
    double x[3], v[3], m;
} body;
static double energy(const body *b, int n) {
    double e = 0;
    for (int i = 0; i < n; i++) {
        e += 0.5 * b[i].m * (b[i].v[0] * b[i].v[0] + b[i].v[1] * b[i].v[1] + b[i].v[2] * b[i].v[2]);
        for (int j = i + 1; j < n; j++) {
            double d[3] = {b[i].x[0] - b[j].x[0], b[i].x[1] - b[j].x[1], b[i].x[2] - b[j].x[2]};
            e -= b[i].m * b[j].m / fsqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        }
    }
    return e;
}
static void nbody_phase(long reps) {
    body b[5];
    for (int i = 0; i < 5; i++) {
        for (int k = 0; k < 3; k++) {
            b[i].x[k] = (double)(i * 3 + k) + (double)(next_u64() % 1000) / 1000.0;
            b[i].v[k] = ((double)(next_u64() % 1000) / 1000.0 - 0.5) * 0.01;
        }
        b[i].m = 0.001 + (double)(next_u64() % 100) / 10000.0;
    }
    double e0 = energy(b, 5), dt = 0.001;
    for (long s = 0; s < reps * 150; s++) {
        for (int i = 0; i < 5; i++)
            for (int j = i + 1; j < 5; j++) {
                double d[3] = {b[i].x[0] - b[j].x[0], b[i].x[1] - b[j].x[1], b[i].x[2] - b[j].x[2]};
                double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                double mag = dt / (r2 * fsqrt(r2));
                for (int k = 0; k < 3; k++) {
                    b[i].v[k] -= d[k] * b[j].m * mag;
                    b[j].v[k] += d[k] * b[i].m * mag;
                }
            }
        for (int i = 0; i < 5; i++)
            for (int k = 0; k < 3; k++) b[i].x[k] += dt * b[i].v[k];
    }
    double e1 = energy(b, 5);
    double drift = (e1 - e0) / (e0 < 0 ? -e0 : e0);
    if (drift > 1e-3 || drift < -1e-3) fail("nbody energy");
    uint64_t u;
    memcpy(&u, &e1, sizeof u);
    mix(u);
}

/* ---- matmult ---- */
static void matmult_phase(long reps) {
    static int32_t a[20][20], b[20][20], c[20][20];
    for (int i = 0; i < 20; i++)
        for (int j = 0; j < 20; j++) a[i][j] = (int32_t)(next_u64() % 100), b[i][j] = (int32_t)(next_u64() % 100);
    for (long r = 0; r < reps * 4; r++) {
        for (int i = 0; i < 20; i++)
            for (int j = 0; j < 20; j++) {
                int32_t s = 0;
                for (int k = 0; k < 20; k++) s += a[i][k] * b[k][j];
                c[i][j] = s;
            }
        a[r % 20][(r / 20) % 20] = c[(r * 7) % 20][(r * 3) % 20] % 100;
    }
    for (int i = 0; i < 20; i++)
        for (int j = 0; j < 20; j++) mix((uint32_t)c[i][j]);
}

/* ---- mont64 ---- */
static uint64_t mont_mul(uint64_t a, uint64_t b, uint64_t m, uint64_t minv) {
    unsigned __int128 t = (unsigned __int128)a * b;
    uint64_t lo = (uint64_t)t, u = lo * minv;
    unsigned __int128 s = t + (unsigned __int128)u * m;
    uint64_t r = (uint64_t)(s >> 64);
    int carry = s < t;
    if (carry || r >= m) r -= m;
    return r;
}
static void mont64_phase(long reps) {
    uint64_t m = 0xfffffffffffffe95ull | 1; /* odd modulus */
    uint64_t inv = 1;                       /* -m^-1 mod 2^64 by Newton */
    for (int i = 0; i < 6; i++) inv *= 2 - m * inv;
    uint64_t minv = (uint64_t)0 - inv;
    uint64_t r2 = (uint64_t)(((unsigned __int128)1 << 64) % m); /* R mod m */
    r2 = (uint64_t)(((unsigned __int128)r2 * r2) % m);          /* R^2 mod m */
    uint64_t x = next_u64() % m, y = next_u64() % m, plain = x;
    uint64_t xm = mont_mul(x, r2, m, minv), ym = mont_mul(y, r2, m, minv);
    for (long i = 0; i < reps * 5000; i++) {
        xm = mont_mul(xm, ym, m, minv);
        if (i < 1000) plain = (uint64_t)(((unsigned __int128)plain * y) % m);
        if (i == 999 && mont_mul(xm, 1, m, minv) != plain) fail("montgomery");
    }
    mix(mont_mul(xm, 1, m, minv));
}

/* ---- huffman ---- */
static void huffman_phase(long reps) {
    static uint8_t text[4096], coded[8192], back[4096];
    for (size_t i = 0; i < sizeof text; i++) {
        uint64_t r = next_u64();
        text[i] = (uint8_t)('a' + (r % 4 == 0 ? r % 26 : (r >> 8) % 6)); /* skewed alphabet */
    }
    for (long rep = 0; rep < reps; rep++) {
        uint32_t freq[256] = {0};
        for (size_t i = 0; i < sizeof text; i++) freq[text[i]]++;
        /* code lengths by repeatedly merging the two lightest (O(n^2), n <= 256) */
        uint32_t w[512];
        int parent[512], alive[512], nodes = 0;
        int leaf[256];
        for (int s = 0; s < 256; s++) {
            leaf[s] = -1;
            if (freq[s]) leaf[s] = nodes, w[nodes] = freq[s], parent[nodes] = -1, alive[nodes] = 1, nodes++;
        }
        int live = nodes;
        while (live > 1) {
            int a = -1, b = -1;
            for (int i = 0; i < nodes; i++)
                if (alive[i]) {
                    if (a < 0 || w[i] < w[a]) b = a, a = i;
                    else if (b < 0 || w[i] < w[b]) b = i;
                }
            w[nodes] = w[a] + w[b], parent[nodes] = -1, alive[nodes] = 1;
            parent[a] = parent[b] = nodes, alive[a] = alive[b] = 0;
            nodes++, live--;
        }
        uint8_t len[256] = {0};
        for (int s = 0; s < 256; s++)
            if (leaf[s] >= 0) {
                int d = 0;
                for (int p = leaf[s]; parent[p] >= 0; p = parent[p]) d++;
                len[s] = (uint8_t)(d ? d : 1);
            }
        /* canonical codes */
        uint32_t code[256] = {0}, next = 0;
        for (int l = 1; l <= 32; l++) {
            for (int s = 0; s < 256; s++)
                if (len[s] == l) code[s] = next++;
            next <<= 1;
        }
        memset(coded, 0, sizeof coded);
        size_t bit = 0;
        for (size_t i = 0; i < sizeof text; i++)
            for (int k = len[text[i]] - 1; k >= 0; k--, bit++)
                if (code[text[i]] >> k & 1) coded[bit >> 3] |= (uint8_t)(1 << (bit & 7));
        /* canonical decoding: per length, the first code and where its symbols start */
        uint32_t first[34] = {0}, count[34] = {0}, start[34] = {0};
        uint8_t sorted[256];
        int ns = 0;
        for (int l = 1; l <= 32; l++) {
            start[l] = (uint32_t)ns;
            for (int s = 0; s < 256; s++)
                if (len[s] == l) {
                    if (!count[l]) first[l] = code[s];
                    count[l]++;
                    sorted[ns++] = (uint8_t)s;
                }
        }
        size_t at = 0;
        for (size_t i = 0; i < sizeof back; i++) {
            uint32_t c = 0;
            int l = 0;
            for (;;) {
                c = c << 1 | (uint32_t)(coded[at >> 3] >> (at & 7) & 1);
                at++, l++;
                if (l > 32) fail("huffman code");
                if (count[l] && c >= first[l] && c - first[l] < count[l]) break;
            }
            back[i] = sorted[start[l] + c - first[l]];
        }
        if (memcmp(back, text, sizeof text) != 0) fail("huffman round trip");
        mix(bit);
        text[rep % sizeof text] = (uint8_t)('a' + rep % 26);
    }
}

/* ---- sieve ---- */
static void sieve_phase(long reps) {
    enum { LIMIT = 32768 };
    static uint8_t composite[LIMIT];
    int count = 0;
    for (long r = 0; r < reps; r++) {
        memset(composite, 0, sizeof composite);
        count = 0;
        for (int i = 2; i < LIMIT; i++) {
            if (composite[i]) continue;
            count++;
            for (int j = i * 2; j < LIMIT; j += i) composite[j] = 1;
        }
    }
    if (count != 3512) fail("sieve count (pi(32768) = 3512)");
    for (int s = 0; s < 32; s++) {
        int v = 2 + (int)(next_u64() % (LIMIT - 2)), prime = 1;
        for (int d = 2; d * d <= v; d++)
            if (v % d == 0) prime = 0;
        if (prime != !composite[v]) fail("sieve against trial division");
    }
    mix((uint64_t)count);
}

/* ---- fir ---- */
static void fir_phase(long reps) {
    enum { TAPS = 32, SAMPLES = 2048 };
    static int16_t x[SAMPLES + TAPS], h[TAPS];
    static int32_t y[SAMPLES];
    for (int i = 0; i < TAPS; i++) h[i] = (int16_t)((int)(next_u64() % 512) - 256);
    for (int i = 0; i < SAMPLES + TAPS; i++) x[i] = (int16_t)((int)(next_u64() % 4096) - 2048);
    for (long r = 0; r < reps; r++) {
        for (int n = 0; n < SAMPLES; n++) {
            int32_t acc = 0;
            for (int k = 0; k < TAPS; k++) acc += (int32_t)h[k] * x[n + k];
            y[n] = acc >> 8;
        }
        x[r % SAMPLES] = (int16_t)(y[(r * 13) % SAMPLES] & 0x7ff);
    }
    for (int n = 0; n < SAMPLES; n += 64) mix((uint32_t)y[n]);
}

/* ---- sha256 (FIPS 180-4) ---- */
static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
#define ROR(x, n) ((x) >> (n) | (x) << (32 - (n)))
static void sha256_block(uint32_t st[8], const uint8_t *p) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i];
        uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    st[0] += a, st[1] += b, st[2] += c, st[3] += d, st[4] += e, st[5] += f, st[6] += g, st[7] += h;
}
static void sha256(const uint8_t *msg, size_t len, uint32_t out[8]) {
    static const uint32_t init[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(out, init, sizeof init);
    size_t full = len / 64 * 64;
    for (size_t i = 0; i < full; i += 64) sha256_block(out, msg + i);
    uint8_t tail[128] = {0};
    size_t rest = len - full;
    memcpy(tail, msg + full, rest);
    tail[rest] = 0x80;
    size_t tl = rest + 9 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++) tail[tl - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (size_t i = 0; i < tl; i += 64) sha256_block(out, tail + i);
}
static void sha256_phase(long reps) {
    uint32_t d[8];
    sha256((const uint8_t *)"abc", 3, d);
    if (d[0] != 0xba7816bf || d[7] != 0xf20015ad) fail("sha256 of \"abc\"");
    for (long r = 0; r < reps; r++) {
        sha256(data, 8192, d);
        memcpy(data + (r % 64) * 4, d, 4);
    }
    for (int i = 0; i < 8; i++) mix(d[i]);
}

int main(int argc, char **argv) {
    long n = parse_size(argc, argv, DEFAULT_N, 1, 100000);
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)next_u64();
    crc32_phase(n);
    nbody_phase(n);
    matmult_phase(n);
    mont64_phase(n);
    huffman_phase(n);
    sieve_phase(n);
    fir_phase(n);
    sha256_phase(n);
    printf("embench_like: %ld repetitions of 8 kernels\n", n);
    printf("checksum: %016" PRIx64 "\n", hash);
    return 0;
}
