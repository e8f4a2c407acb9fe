/*
 * hash -- integer workload: open-addressing hash table (linear probing).
 *
 * usage: hash [N]     N = number of keys inserted (default 400000, 16..20000000)
 *
 * A table of 2^k slots (the smallest power of two >= 2N, load factor <= 0.5)
 * of {key, value} pairs.  Phase 1 inserts N pseudo-random 64-bit keys
 * (splitmix64, fixed seed; duplicates update the value).  Phase 2 looks up
 * the same N keys (hits) and N fresh keys from another stream (almost all
 * misses), interleaved.  Phase 3 deletes every fourth key with backward-shift
 * deletion and looks all N keys up again.  Work is linear in N; the table
 * (16 bytes/slot, 32N..64N bytes) is larger than typical L2 caches at the
 * default size, so probes are mostly cache misses.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define DEFAULT_N 400000L
#define MIN_N     16L
#define MAX_N     20000000L

/* key 0 marks an empty slot; real keys are forced non-zero */
struct slot {
    uint64_t key;
    uint64_t val;
};

static struct slot *table;
static uint64_t mask;
static int shift;
static long count;

static inline uint64_t slot_of(uint64_t key) { return (key * 0x9E3779B97F4A7C15ULL) >> shift; }

static void insert(uint64_t key, uint64_t val) {
    uint64_t i = slot_of(key);
    for (;;) {
        if (table[i].key == key) {
            table[i].val = val;
            return;
        }
        if (table[i].key == 0) {
            table[i].key = key;
            table[i].val = val;
            count++;
            return;
        }
        i = (i + 1) & mask;
    }
}

/* returns pointer to the slot holding key, or NULL */
static struct slot *lookup(uint64_t key) {
    uint64_t i = slot_of(key);
    for (;;) {
        if (table[i].key == key) return &table[i];
        if (table[i].key == 0) return NULL;
        i = (i + 1) & mask;
    }
}

static int erase(uint64_t key) {
    struct slot *s = lookup(key);
    if (!s) return 0;
    uint64_t i = (uint64_t)(s - table);
    /* backward-shift deletion keeps probe sequences intact */
    for (;;) {
        uint64_t j = (i + 1) & mask;
        for (;;) {
            if (table[j].key == 0) {
                table[i].key = 0;
                table[i].val = 0;
                count--;
                return 1;
            }
            uint64_t home = slot_of(table[j].key);
            /* can the entry at j move to i?  yes if home is not in (i, j] */
            if (((j - home) & mask) >= ((j - i) & mask)) break;
            j = (j + 1) & mask;
        }
        table[i] = table[j];
        i = j;
    }
}

static uint64_t nonzero(uint64_t k) { return k ? k : 1; }

int main(int argc, char **argv) {
    long n = parse_size(argc, argv, "N", DEFAULT_N, MIN_N, MAX_N);
    int bits = 1;
    while ((1L << bits) < 2 * n) bits++;
    uint64_t cap = 1ULL << bits;
    mask = cap - 1;
    shift = 64 - bits;
    table = calloc(cap, sizeof *table);
    if (!table) {
        fprintf(stderr, "hash: out of memory\n");
        return 1;
    }

    uint64_t check = 0;
    uint64_t s1 = 0x4841534801ULL;
    for (long i = 0; i < n; i++) insert(nonzero(splitmix64(&s1)), (uint64_t)i);

    uint64_t hit_seed = 0x4841534801ULL, miss_seed = 0x4D49535302ULL;
    long hits = 0, misses = 0;
    for (long i = 0; i < n; i++) {
        struct slot *s = lookup(nonzero(splitmix64(&hit_seed)));
        if (s) {
            hits++;
            check = check * 31 + s->val;
        }
        s = lookup(nonzero(splitmix64(&miss_seed)));
        if (s) {
            hits++;
            check = check * 31 + s->val;
        } else {
            misses++;
        }
    }

    uint64_t del_seed = 0x4841534801ULL;
    long deleted = 0;
    for (long i = 0; i < n; i++) {
        uint64_t k = nonzero(splitmix64(&del_seed));
        if ((i & 3) == 0) deleted += erase(k);
    }
    uint64_t again_seed = 0x4841534801ULL;
    long found = 0;
    for (long i = 0; i < n; i++) {
        struct slot *s = lookup(nonzero(splitmix64(&again_seed)));
        if (s) {
            found++;
            check = check * 131 + s->val;
        }
    }
    if (found + deleted != n || count != found) {
        fprintf(stderr, "hash: inconsistent table (found %ld deleted %ld count %ld)\n", found, deleted, count);
        return 1;
    }
    printf("hash: n=%ld slots=%" PRIu64 " hits=%ld misses=%ld deleted=%ld\n", n, cap, hits, misses, deleted);
    printf("checksum: %016" PRIx64 "\n", check);
    free(table);
    return 0;
}
