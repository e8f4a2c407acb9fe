/*
 * ptr_chase -- microbenchmark: always-missing dependent pointer chase.
 *
 * usage: ptr_chase [MIB]   MIB = working set in MiB (default 64, 1..4096)
 *
 * The working set is LINES = MIB * 16384 cache lines of 64 bytes; each line
 * holds one pointer (at offset 0) to the next line of a single random cycle
 * through all LINES lines.  The visiting order is sigma(0), sigma(1), ...
 * where sigma is a bijection on [0, 2^m) (m = ceil(log2 LINES)) built from
 * three rounds of "multiply by an odd constant mod 2^m, then x ^= x >> ceil(m/2)";
 * values >= LINES are skipped (cycle walking), so any bijection gives a
 * single cycle.  Consecutive lines in the cycle are scattered over the whole
 * working set with no repeating stride, so neither caches (any modelled
 * size < 64 MiB) nor stride prefetchers help: every step misses.
 *
 * Measured loop (inline asm, all 32-bit encodings via `.option norvc`, loop
 * start aligned to 64 bytes):
 *
 *     1:  ld    a0, 0(a0)         # x 64 (.rept 64): each load's address is
 *         ...                     #   the value returned by the previous one
 *         addi  t0, t0, -1
 *         bnez  t0, 1b
 *
 * body: 64 x `ld a0,0(a0)` + `addi t0,t0,-1` + `bnez t0,1b`
 *       = 66 instructions per iteration.
 * The chase runs STEPS = 4 * LINES loads (4 laps of the cycle), i.e.
 * LINES / 16 iterations, and must end on the line where it started.
 * Expected timing: cycles ~= STEPS * (load-to-use latency of a miss to
 * memory, incl. TLB effects if modelled); CPI of the loop ~= mem_lat * 64/66.
 *
 * Instruction budget at the default size (LINES = 1,048,576), measured:
 *   init:  ~22 instructions per line (3-round hash, bounds check, store),
 *          ~23 M in all; the stores go to random lines (one store miss per
 *          line, but independent ones, which a store buffer or an
 *          out-of-order core can overlap);
 *   chase: 66 * LINES / 16 = 4.33 M instructions, 4.19 M dependent misses;
 *   total: ~27.4 M.
 * So the chase is ~16% of the instructions but, at ~100+ cycles per miss,
 * the large majority of the cycles.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define DEFAULT_MIB 64L
#define MIN_MIB     1L
#define MAX_MIB     4096L
#define LINE        64
#define LAPS        4

static __attribute__((noinline)) void *chase(void *start, uint64_t iters) {
    register void *p __asm__("a0") = start;
    register uint64_t n __asm__("t0") = iters;
    __asm__ volatile(".option push\n"
                     ".balign 64\n" /* before norvc: padding may need a c.nop */
                     ".option norvc\n"
                     "1:\n"
                     ".rept 64\n"
                     "ld    a0, 0(a0)\n"
                     ".endr\n"
                     "addi  t0, t0, -1\n"
                     "bnez  t0, 1b\n"
                     ".option pop\n"
                     : "+r"(p), "+r"(n)
                     :
                     : "memory");
    return p;
}

int main(int argc, char **argv) {
    long mib = parse_size(argc, argv, "MiB", DEFAULT_MIB, MIN_MIB, MAX_MIB);
    uint64_t lines = (uint64_t)mib * (1024 * 1024 / LINE);
    int m = 0;
    while ((1ULL << m) < lines) m++;
    const uint64_t mask = (1ULL << m) - 1;
    const int sh = (m + 1) / 2;

    char *raw = malloc(lines * LINE + LINE);
    if (!raw) {
        fprintf(stderr, "ptr_chase: out of memory\n");
        return 1;
    }
    char *base = (char *)(((uintptr_t)raw + LINE - 1) & ~(uintptr_t)(LINE - 1));

    /* build the cycle: link each visited line to the next one */
    uint64_t first = 0, prev = 0, linked = 0;
    for (uint64_t j = 0; j <= mask; j++) {
        uint64_t x = j;
        x = (x * 0x9E3779B97F4A7C15ULL) & mask;
        x ^= x >> sh;
        x = (x * 0xC2B2AE3D27D4EB4FULL) & mask;
        x ^= x >> sh;
        x = (x * 0x165667B19E3779F9ULL) & mask;
        x ^= x >> sh;
        if (x >= lines) continue;
        if (linked == 0) first = x;
        else *(char **)(base + prev * LINE) = base + x * LINE;
        prev = x;
        linked++;
    }
    *(char **)(base + prev * LINE) = base + first * LINE;
    if (linked != lines) {
        fprintf(stderr, "ptr_chase: permutation covered %" PRIu64 " of %" PRIu64 " lines\n", linked, lines);
        return 1;
    }

    uint64_t steps = LAPS * lines, iters = steps / 64;
    char *start = base + first * LINE;
    char *end = chase(start, iters);
    if (end != start) {
        fprintf(stderr, "ptr_chase: chase ended at line %" PRIu64 ", expected %" PRIu64 "\n",
                (uint64_t)(end - base) / LINE, first);
        return 1;
    }
    /* a checksum that depends on the cycle: where a short chase lands */
    char *probe = chase(start, 1);
    uint64_t check = (uint64_t)(probe - base) / LINE * 0x9E3779B97F4A7C15ULL ^ first ^ steps;
    printf("ptr_chase: %ld MiB, %" PRIu64 " lines, %" PRIu64 " steps (%" PRIu64 " iterations)\n", mib, lines, steps,
           iters);
    printf("checksum: %016" PRIx64 "\n", check);
    free(raw);
    return 0;
}
