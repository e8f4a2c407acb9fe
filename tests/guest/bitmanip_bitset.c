/* Bitset and hash code as GCC compiles it for -march=rv64gc_zba_zbb_zbc_zbs
 * (tests/CMakeLists.txt: guests named bitmanip*): a sieve over a bitset (bset,
 * bext, cpop; ctz to walk the set bits; sh3add to index words), a rotate-and-
 * multiply hash (rori), minima and maxima (min/max), byte swaps (rev8) and a
 * carry-less fold (clmul, clmulh: GCC 12 has no builtin, so inline asm).
 * The workload of the bitmanip.* tests, through every verb.
 *
 *   bitmanip_bitset [LIMIT]   primes below LIMIT (default 200000) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t clmul(uint64_t a, uint64_t b) {
    uint64_t r;
    __asm__("clmul %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
static uint64_t clmulh(uint64_t a, uint64_t b) {
    uint64_t r;
    __asm__("clmulh %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

static uint64_t rotl(uint64_t x, unsigned r) { return (x << r) | (x >> (64 - r)); }

int main(int argc, char **argv) {
    unsigned long limit = argc > 1 ? strtoul(argv[1], NULL, 10) : 200000;
    if (limit < 2 || limit > 100000000) {
        fprintf(stderr, "bitmanip_bitset: LIMIT must be 2..100000000\n");
        return 2;
    }
    size_t words = (limit + 63) / 64;
    uint64_t *composite = calloc(words, sizeof *composite);
    if (!composite) return 1;
    for (unsigned long i = 2; i * i < limit; i++)
        if (!((composite[i >> 6] >> (i & 63)) & 1))
            for (unsigned long j = i * i; j < limit; j += i) composite[j >> 6] |= 1ull << (j & 63);
    composite[0] |= 3; /* 0 and 1 */
    if (limit & 63) composite[words - 1] |= ~0ull << (limit & 63);

    unsigned long primes = 0;
    for (size_t w = 0; w < words; w++) primes += (unsigned long)__builtin_popcountll(~composite[w]);

    /* walk the primes by their bits: hash them, keep the extremes of the gaps */
    uint64_t hash = 0x9e3779b97f4a7c15ull, fold = 0;
    long min_gap = 1L << 40, max_gap = 0, last = -1;
    for (size_t w = 0; w < words; w++) {
        uint64_t bits = ~composite[w];
        while (bits) {
            long p = (long)(w * 64 + (size_t)__builtin_ctzll(bits));
            bits &= bits - 1;
            hash = rotl(hash ^ (uint64_t)p, 27) * 0x94d049bb133111ebull;
            fold ^= clmul(hash, 0x1db7) ^ clmulh(hash, __builtin_bswap64((uint64_t)p));
            if (last >= 0) {
                long gap = p - last;
                min_gap = gap < min_gap ? gap : min_gap;
                max_gap = gap > max_gap ? gap : max_gap;
            }
            last = p;
        }
    }
    printf("primes below %lu: %lu, largest %ld, gaps %ld..%ld\n", limit, primes, last, min_gap, max_gap);
    printf("hash %016llx fold %016llx\n", (unsigned long long)hash, (unsigned long long)fold);
    free(composite);
    return 0;
}
