/*
 * memcopy -- streaming workload: large buffer copies.
 *
 * usage: memcopy [K]   K = buffer size in KiB (default 16384 = 16 MiB,
 *                          16..1048576); two buffers of K KiB are used
 *
 * Buffer A is filled with a pattern, then three rounds of
 *     memcpy(B, A)            (libc memcpy)
 *     loop_copy(A, B)         (explicit 64-bit word loop, 4x unrolled:
 *                              4 ld + 4 sd + 3 loop instructions per 32 B)
 * stream 6 x K KiB of reads and writes through the memory hierarchy; at the
 * default size both buffers (32 MiB together) are far larger than any
 * modelled cache.  Between rounds one word per 4 KiB page is modified so
 * later rounds differ.  Work is linear in K; the checksum is a
 * position-weighted hash of the final buffer sampled every 64 bytes plus
 * a full-buffer sum.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define DEFAULT_K 16384L
#define MIN_K     16L
#define MAX_K     1048576L
#define ROUNDS    3

/* Explicit copy loop.  The empty asm statements make the loaded values
 * opaque so gcc cannot turn the loop back into a memcpy call; they emit no
 * instructions. */
static __attribute__((noinline)) void loop_copy(uint64_t *restrict dst, const uint64_t *restrict src, size_t words) {
    for (size_t i = 0; i < words; i += 4) {
        uint64_t a = src[i], b = src[i + 1], c = src[i + 2], d = src[i + 3];
        __asm__("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
        dst[i] = a;
        dst[i + 1] = b;
        dst[i + 2] = c;
        dst[i + 3] = d;
    }
}

int main(int argc, char **argv) {
    long kib = parse_size(argc, argv, "KiB", DEFAULT_K, MIN_K, MAX_K);
    size_t bytes = (size_t)kib * 1024, words = bytes / 8;
    uint64_t *a = malloc(bytes);
    uint64_t *b = malloc(bytes);
    if (!a || !b) {
        fprintf(stderr, "memcopy: out of memory\n");
        return 1;
    }
    uint64_t v = 0x6D656D636F7079ULL;
    for (size_t i = 0; i < words; i++) {
        a[i] = v;
        v += 0x9E3779B97F4A7C15ULL;
    }

    for (int r = 0; r < ROUNDS; r++) {
        memcpy(b, a, bytes);
        for (size_t i = (size_t)r; i < words; i += 512) b[i] ^= (uint64_t)(r + 1) << 32 | i;
        loop_copy(a, b, words);
        for (size_t i = (size_t)r + 7; i < words; i += 512) a[i] += (uint64_t)r * 0x100000001B3ULL;
    }

    uint64_t check = 0, sum = 0;
    for (size_t i = 0; i < words; i += 8) check = (check ^ a[i]) * 0x100000001B3ULL + i;
    for (size_t i = 0; i < words; i++) sum += a[i] ^ b[i];
    check ^= sum;
    printf("memcopy: %ld KiB x 2 buffers, %d rounds (%ld KiB copied)\n", kib, ROUNDS, 2L * ROUNDS * kib);
    printf("checksum: %016" PRIx64 "\n", check);
    free(a);
    free(b);
    return 0;
}
