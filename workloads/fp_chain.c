/*
 * fp_chain -- microbenchmark: serial dependence chain of fadd.d.
 *
 * usage: fp_chain [ITERS]   ITERS = loop iterations (default 400000, 1..100000000)
 *
 * Measured loop (inline asm, all 32-bit encodings via `.option norvc`, loop
 * start aligned to 64 bytes, so the 520-byte body spans 9 I-cache lines):
 *
 *     1:  fadd.d fa0, fa0, fa1    # x 128 (.rept 128); each fadd.d reads
 *         ...                     #   the fa0 written by the previous one
 *         addi   t0, t0, -1
 *         bnez   t0, 1b
 *
 * body: 128 x `fadd.d fa0,fa0,fa1` + `addi t0,t0,-1` + `bnez t0,1b`
 *       = 130 instructions per iteration, 128 of them on one RAW chain.
 * Expected timing: latency-bound: cycles ~= 128 * ITERS * lat_fadd
 * (CPI of the loop ~= lat_fadd * 128/130), whatever the issue width or the
 * number of FP adders.  fadd.d uses the dynamic rounding mode (frm = RNE).
 * Dynamic instruction count of the kernel: 130 * ITERS.  The rest of the
 * program (static-glibc startup, checking, printf) adds 10-30 k
 * instructions, depending on the size of the environment, which glibc
 * scans at startup.
 * Result: fa0 starts at 0.0 and fa1 = 1.0, so fa0 = 128 * ITERS exactly
 * (all values are integers below 2^53); checked against the closed form.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define DEFAULT_ITERS 400000L
#define MIN_ITERS     1L
#define MAX_ITERS     100000000L

static __attribute__((noinline)) double kernel(uint64_t iters, double x0, double inc) {
    register double x __asm__("fa0") = x0;
    register double d __asm__("fa1") = inc;
    register uint64_t n __asm__("t0") = iters;
    __asm__ volatile(".option push\n"
                     ".balign 64\n" /* before norvc: padding may need a c.nop */
                     ".option norvc\n"
                     "1:\n"
                     ".rept 128\n"
                     "fadd.d fa0, fa0, fa1\n"
                     ".endr\n"
                     "addi  t0, t0, -1\n"
                     "bnez  t0, 1b\n"
                     ".option pop\n"
                     : "+f"(x), "+r"(n)
                     : "f"(d)
                     : "memory");
    return x;
}

int main(int argc, char **argv) {
    long iters = parse_size(argc, argv, "ITERS", DEFAULT_ITERS, MIN_ITERS, MAX_ITERS);
    double r = kernel((uint64_t)iters, 0.0, 1.0);
    double expect = (double)(iters * 128);
    if (r != expect) {
        fprintf(stderr, "fp_chain: got %.17g, expected %.17g\n", r, expect);
        return 1;
    }
    uint64_t bits;
    memcpy(&bits, &r, sizeof bits);
    printf("fp_chain: iters=%ld fadds=%ld kernel_insns=%ld result=%.1f\n", iters, iters * 128, iters * 130, r);
    printf("checksum: %016" PRIx64 "\n", bits);
    return 0;
}
