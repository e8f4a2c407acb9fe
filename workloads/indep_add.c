/*
 * indep_add -- microbenchmark: independent integer adds (8 accumulators).
 *
 * usage: indep_add [ITERS]   ITERS = loop iterations (default 400000, 1..100000000)
 *
 * Measured loop (inline asm, all 32-bit encodings via `.option norvc`, loop
 * start aligned to 64 bytes, so the 520-byte body spans 9 I-cache lines):
 *
 *     1:  add   a0, a0, t1        # .rept 16 of this group of 8:
 *         add   a1, a1, t1        #   8 accumulators in round-robin, so each
 *         add   a2, a2, t1        #   add depends only on the add 8
 *         add   a3, a3, t1        #   instructions earlier; no dependence
 *         add   a4, a4, t1        #   within any window of 8 consecutive adds
 *         add   a5, a5, t1
 *         add   a6, a6, t1
 *         add   a7, a7, t1
 *         ...                     # (16 groups = 128 adds)
 *         addi  t0, t0, -1
 *         bnez  t0, 1b
 *
 * body: 16 x (`add a0..a7,a0..a7,t1`) = 128 adds + `addi t0,t0,-1` +
 *       `bnez t0,1b` = 130 instructions per iteration.
 * Expected timing: throughput-bound, not latency-bound: with W integer
 * ALUs and ALU latency L, cycles ~= 128 * ITERS / min(W, 8 / L) (CPI ~= 1/W
 * for W <= 8 and L = 1; CPI = 1 on a scalar in-order pipeline with
 * bypassing).  Compare with dep_add, whose CPI is L.
 * Dynamic instruction count of the kernel: 130 * ITERS.  The rest of the
 * program (static-glibc startup, checking, printf) adds 10-30 k
 * instructions, depending on the size of the environment, which glibc
 * scans at startup.
 * Result: each accumulator ends at k + 16 * ITERS * 5 (k = 0..7); the sum
 * is checked against the closed form.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define DEFAULT_ITERS 400000L
#define MIN_ITERS     1L
#define MAX_ITERS     100000000L

static __attribute__((noinline)) void kernel(uint64_t iters, uint64_t inc, uint64_t acc[8]) {
    register uint64_t x0 __asm__("a0") = acc[0];
    register uint64_t x1 __asm__("a1") = acc[1];
    register uint64_t x2 __asm__("a2") = acc[2];
    register uint64_t x3 __asm__("a3") = acc[3];
    register uint64_t x4 __asm__("a4") = acc[4];
    register uint64_t x5 __asm__("a5") = acc[5];
    register uint64_t x6 __asm__("a6") = acc[6];
    register uint64_t x7 __asm__("a7") = acc[7];
    register uint64_t d __asm__("t1") = inc;
    register uint64_t n __asm__("t0") = iters;
    __asm__ volatile(".option push\n"
                     ".balign 64\n" /* before norvc: padding may need a c.nop */
                     ".option norvc\n"
                     "1:\n"
                     ".rept 16\n"
                     "add   a0, a0, t1\n"
                     "add   a1, a1, t1\n"
                     "add   a2, a2, t1\n"
                     "add   a3, a3, t1\n"
                     "add   a4, a4, t1\n"
                     "add   a5, a5, t1\n"
                     "add   a6, a6, t1\n"
                     "add   a7, a7, t1\n"
                     ".endr\n"
                     "addi  t0, t0, -1\n"
                     "bnez  t0, 1b\n"
                     ".option pop\n"
                     : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3), "+r"(x4), "+r"(x5), "+r"(x6), "+r"(x7), "+r"(n)
                     : "r"(d)
                     : "memory");
    acc[0] = x0;
    acc[1] = x1;
    acc[2] = x2;
    acc[3] = x3;
    acc[4] = x4;
    acc[5] = x5;
    acc[6] = x6;
    acc[7] = x7;
}

int main(int argc, char **argv) {
    long iters = parse_size(argc, argv, "ITERS", DEFAULT_ITERS, MIN_ITERS, MAX_ITERS);
    uint64_t acc[8];
    for (int k = 0; k < 8; k++) acc[k] = (uint64_t)k;
    kernel((uint64_t)iters, 5, acc);
    uint64_t check = 0;
    for (int k = 0; k < 8; k++) {
        uint64_t expect = (uint64_t)k + (uint64_t)iters * 16 * 5;
        if (acc[k] != expect) {
            fprintf(stderr, "indep_add: acc[%d] = %" PRIu64 ", expected %" PRIu64 "\n", k, acc[k], expect);
            return 1;
        }
        check = check * 31 + acc[k];
    }
    printf("indep_add: iters=%ld adds=%ld kernel_insns=%ld\n", iters, iters * 128, iters * 130);
    printf("checksum: %016" PRIx64 "\n", check);
    return 0;
}
