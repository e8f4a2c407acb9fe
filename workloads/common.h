/*
 * common.h -- what every bundled workload shares: the size argument and its
 * checks, and the small generators and helpers several of them use. Each
 * workload includes it once; everything here is static (inline), so a
 * workload's binary holds only what it uses.
 */
#ifndef CYCLESCOPE_WORKLOAD_COMMON_H
#define CYCLESCOPE_WORKLOAD_COMMON_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a size must be besides lying in [lo, hi]. */
enum { SIZE_ANY, SIZE_POWER_OF_TWO, SIZE_EVEN };

/* argv[1] as a size (def without it), checked; a bad one prints why and exits 2.
 * `unit` names it in the usage line ("usage: PROG [UNIT]"). */
static inline long parse_size_as(int argc, char **argv, const char *unit, long def, long lo, long hi, int kind) {
    if (argc > 2) {
        fprintf(stderr, "usage: %s [%s]\n", argv[0], unit);
        exit(2);
    }
    if (argc < 2) return def;
    char *end;
    errno = 0;
    long v = strtol(argv[1], &end, 10);
    bool ok = errno == 0 && end != argv[1] && *end == '\0' && v >= lo && v <= hi;
    if (kind == SIZE_POWER_OF_TWO) ok = ok && (v & (v - 1)) == 0;
    if (kind == SIZE_EVEN) ok = ok && !(v & 1);
    if (!ok) {
        const char *what = kind == SIZE_POWER_OF_TWO ? "a power of two"
            : kind == SIZE_EVEN                      ? "an even integer"
                                                     : "an integer";
        fprintf(stderr, "%s: bad size '%s' (expected %s in [%ld, %ld])\n", argv[0], argv[1], what, lo, hi);
        exit(2);
    }
    return v;
}

static inline long parse_size(int argc, char **argv, const char *unit, long def, long lo, long hi) {
    return parse_size_as(argc, argv, unit, def, lo, hi, SIZE_ANY);
}

/* SplitMix64: a fixed, fast pseudo-random sequence from a 64-bit state. */
static inline uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Marsaglia's xorshift64 (13, 7, 17). */
static inline uint64_t xorshift64(uint64_t *s) {
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* A double uniformly in [-1, 1). */
static inline double rand_unit(uint64_t *s) { return (double)(int64_t)(splitmix64(s) >> 11) * 0x1p-52 - 1.0; }

/* The bits of a double, for checksums that must match exactly. */
static inline uint64_t bits_of(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

#endif
