/*
 * randaccess -- pointer/memory workload: GUPS-style random read-modify-write.
 *
 * usage: randaccess [N]   N = table size in 64-bit words
 *                           (default 4194304 = 32 MiB, 1024..268435456)
 *
 * A table of N words is initialised to t[i] = i, then N updates
 * t[idx] ^= r are applied, where r comes from xorshift64 (fixed seed) and
 * idx = (r * N) >> 64 (the high half of a 64x64 product, `mulhu`, so N
 * need not be a power of two).  The indices do not depend on loaded data, so
 * an out-of-order core can overlap the misses (memory-level parallelism);
 * at the default size the table is far larger than any modelled cache and
 * almost every update misses.  Per update 14 instructions (see update());
 * init and the final checksum pass add ~13 per word (~27 per word in all).
 * Work is linear in N.  The checksum is the sum of t[i] ^ i.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define DEFAULT_N 4194304L
#define MIN_N     1024L
#define MAX_N     268435456L

static inline uint64_t mulhi(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }

/* the measured kernel: `updates` random read-modify-writes over t[0..n) */
static __attribute__((noinline)) void update(uint64_t *t, uint64_t n, uint64_t updates) {
    uint64_t r = 0x0123456789ABCDEFULL;
    for (uint64_t k = 0; k < updates; k++) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        t[mulhi(r, n)] ^= r;
    }
}

int main(int argc, char **argv) {
    long n = parse_size(argc, argv, "N", DEFAULT_N, MIN_N, MAX_N);
    uint64_t *t = malloc((size_t)n * sizeof *t);
    if (!t) {
        fprintf(stderr, "randaccess: out of memory\n");
        return 1;
    }
    for (long i = 0; i < n; i++) t[i] = (uint64_t)i;

    update(t, (uint64_t)n, (uint64_t)n);

    uint64_t check = 0, changed = 0;
    for (long i = 0; i < n; i++) {
        uint64_t d = t[i] ^ (uint64_t)i;
        check += d;
        changed += d != 0;
    }
    printf("randaccess: n=%ld words (%ld KiB) updates=%ld changed=%" PRIu64 "\n", n, n / 128, n, changed);
    printf("checksum: %016" PRIx64 "\n", check);
    free(t);
    return 0;
}
