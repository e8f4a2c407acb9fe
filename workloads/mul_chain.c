/*
 * mul_chain -- microbenchmark: serial dependence chain of integer multiplies.
 *
 * usage: mul_chain [ITERS]   ITERS = loop iterations (default 400000, 1..100000000)
 *
 * Measured loop (inline asm, all 32-bit encodings via `.option norvc`, loop
 * start aligned to 64 bytes, so the 520-byte body spans 9 I-cache lines):
 *
 *     1:  mul   a0, a0, a1        # x 128 (.rept 128); each mul reads the
 *         ...                     #   a0 written by the previous one
 *         addi  t0, t0, -1
 *         bnez  t0, 1b
 *
 * body: 128 x `mul a0,a0,a1` + `addi t0,t0,-1` + `bnez t0,1b`
 *       = 130 instructions per iteration, 128 of them on one RAW chain.
 * Expected timing: latency-bound: cycles ~= 128 * ITERS * lat_mul
 * (CPI of the loop ~= lat_mul * 128/130), whatever the issue width or the
 * number of multipliers.  Operands are full 64-bit values (a1 is an odd
 * 64-bit constant), in case a model has data-dependent multiply latency.
 * Dynamic instruction count of the kernel: 130 * ITERS.  The rest of the
 * program (static-glibc startup, checking, printf) adds 10-30 k
 * instructions, depending on the size of the environment, which glibc
 * scans at startup.
 * Result: a0 = x0 * a1^(128 * ITERS) mod 2^64, checked against the closed
 * form computed by square-and-multiply.
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

static __attribute__((noinline)) uint64_t kernel(uint64_t iters, uint64_t x0, uint64_t m) {
    register uint64_t x __asm__("a0") = x0;
    register uint64_t f __asm__("a1") = m;
    register uint64_t n __asm__("t0") = iters;
    __asm__ volatile(".option push\n"
                     ".balign 64\n" /* before norvc: padding may need a c.nop */
                     ".option norvc\n"
                     "1:\n"
                     ".rept 128\n"
                     "mul   a0, a0, a1\n"
                     ".endr\n"
                     "addi  t0, t0, -1\n"
                     "bnez  t0, 1b\n"
                     ".option pop\n"
                     : "+r"(x), "+r"(n)
                     : "r"(f)
                     : "memory");
    return x;
}

int main(int argc, char **argv) {
    long iters = parse_size(argc, argv, "ITERS", DEFAULT_ITERS, MIN_ITERS, MAX_ITERS);
    const uint64_t x0 = 0x0123456789ABCDEFULL, m = 0x9E3779B97F4A7C15ULL;
    uint64_t r = kernel((uint64_t)iters, x0, m);

    uint64_t expect = x0, base = m, e = (uint64_t)iters * 128;
    while (e) {
        if (e & 1) expect *= base;
        base *= base;
        e >>= 1;
    }
    if (r != expect) {
        fprintf(stderr, "mul_chain: got %016" PRIx64 ", expected %016" PRIx64 "\n", r, expect);
        return 1;
    }
    printf("mul_chain: iters=%ld muls=%ld kernel_insns=%ld\n", iters, iters * 128, iters * 130);
    printf("checksum: %016" PRIx64 "\n", r);
    return 0;
}
