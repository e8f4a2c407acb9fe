/*
 * branch_random -- microbenchmark: unpredictable data-dependent branches.
 *
 * usage: branch_random [WORDS]   WORDS = 64-bit words of random bits
 *                                  (default 200000, 1..50000000)
 *
 * An array of WORDS pseudo-random 64-bit words (splitmix64, fixed seed;
 * every bit is an independent fair coin, so there is no pattern a branch
 * predictor can learn) is scanned; the kernel branches on every bit.
 *
 * Measured loop (inline asm, all 32-bit encodings via `.option norvc`, loop
 * start aligned to 64 bytes):
 *
 *     1:  ld    t0, 0(a2)         # next word of random bits
 *         .rept 64                # one block per bit:
 *           andi  t1, t0, 1       #   t1 = lowest bit
 *           srli  t0, t0, 1
 *           bnez  t1, 2f          #   <-- the random branch (taken iff bit = 1)
 *           addi  a1, a1, 1       #   bit = 0 side: zeros++
 *           j     3f              #     (always-taken jump over the 1 side)
 *       2:  addi  a0, a0, 1       #   bit = 1 side: ones++
 *       3:
 *         .endr
 *         addi  a2, a2, 8
 *         bne   a2, a3, 1b        # loop branch (predictable)
 *
 * Per word: 64 random conditional branches (50% taken), 1 loop branch, and
 * 3 + 4 * 64 + (number of 0 bits) instructions: a 1 bit costs 4
 * instructions (andi, srli, taken bnez, addi), a 0 bit 5 (andi, srli,
 * not-taken bnez, addi, j).  Kernel instructions = 259 * WORDS + zeros
 * (~291 * WORDS); the program prints the exact value.
 * Expected timing: ~50% of the bnez mispredict, so
 *     cycles ~= base_cycles + 0.5 * 64 * WORDS * mispredict_penalty
 * i.e. about one mispredict per 9.1 instructions.  A predictor that does
 * better than ~50% on this data is broken (or cheating).
 * The counts of ones and zeros are checked against a C popcount.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define DEFAULT_WORDS 200000L
#define MIN_WORDS     1L
#define MAX_WORDS     50000000L

/* counts ones and zeros in words[0..n) with one branch per bit */
static __attribute__((noinline)) void kernel(const uint64_t *words, long n, uint64_t *ones, uint64_t *zeros) {
    register uint64_t c1 __asm__("a0") = 0;
    register uint64_t c0 __asm__("a1") = 0;
    register const uint64_t *p __asm__("a2") = words;
    register const uint64_t *end __asm__("a3") = words + n;
    __asm__ volatile(".balign 64\n" /* before norvc: padding may need a c.nop */
                     ".option push\n"
                     ".option norvc\n"
                     "1:\n"
                     "ld    t0, 0(a2)\n"
                     ".rept 64\n"
                     "andi  t1, t0, 1\n"
                     "srli  t0, t0, 1\n"
                     "bnez  t1, 2f\n"
                     "addi  a1, a1, 1\n"
                     "j     3f\n"
                     "2:\n"
                     "addi  a0, a0, 1\n"
                     "3:\n"
                     ".endr\n"
                     "addi  a2, a2, 8\n"
                     "bne   a2, a3, 1b\n"
                     ".option pop\n"
                     : "+r"(c1), "+r"(c0), "+r"(p)
                     : "r"(end)
                     : "t0", "t1", "memory");
    *ones = c1;
    *zeros = c0;
}

int main(int argc, char **argv) {
    long n = parse_size(argc, argv, "WORDS", DEFAULT_WORDS, MIN_WORDS, MAX_WORDS);
    uint64_t *w = malloc((size_t)n * sizeof *w);
    if (!w) {
        fprintf(stderr, "branch_random: out of memory\n");
        return 1;
    }
    uint64_t s = 0x4252414E4348ULL, expect_ones = 0;
    for (long i = 0; i < n; i++) {
        w[i] = splitmix64(&s);
        expect_ones += (uint64_t)__builtin_popcountll(w[i]);
    }
    uint64_t ones, zeros;
    kernel(w, n, &ones, &zeros);
    if (ones != expect_ones || ones + zeros != (uint64_t)n * 64) {
        fprintf(stderr, "branch_random: counted %" PRIu64 " ones / %" PRIu64 " zeros, expected %" PRIu64 " ones\n",
                ones, zeros, expect_ones);
        return 1;
    }
    uint64_t kernel_insns = 259 * (uint64_t)n + zeros;
    printf("branch_random: words=%ld branches=%ld ones=%" PRIu64 " zeros=%" PRIu64 " kernel_insns=%" PRIu64 "\n", n,
           n * 64, ones, zeros, kernel_insns);
    printf("checksum: %016" PRIx64 "\n", (uint64_t)(ones * 0x100000001B3ULL ^ s));
    free(w);
    return 0;
}
