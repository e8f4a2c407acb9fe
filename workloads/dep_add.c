/*
 * dep_add -- microbenchmark: serial dependence chain of integer adds.
 *
 * usage: dep_add [ITERS]   ITERS = loop iterations (default 400000, 1..100000000)
 *
 * Measured loop (inline asm, all 32-bit encodings via `.option norvc`, loop
 * start aligned to 64 bytes, so the 520-byte body spans 9 I-cache lines):
 *
 *     1:  add   a0, a0, a1        # x 128 (.rept 128); each add reads the
 *         ...                     #   a0 written by the previous one
 *         addi  t0, t0, -1
 *         bnez  t0, 1b
 *
 * body: 128 x `add a0,a0,a1` + `addi t0,t0,-1` + `bnez t0,1b`
 *       = 130 instructions per iteration, 128 of them on one RAW chain.
 * Expected timing: each add waits for the previous one, so the loop runs
 * at one add per integer-ALU latency: cycles ~= 128 * ITERS * lat_alu
 * (CPI of the loop ~= lat_alu * 128/130, i.e. ~1 on a machine with 1-cycle
 * ALU latency and full bypassing, independent of issue width).  The loop
 * counter chain runs in parallel on an out-of-order or wide core.
 * Dynamic instruction count of the kernel: 130 * ITERS.  The rest of the
 * program (static-glibc startup, checking, printf) adds 10-30 k
 * instructions, depending on the size of the environment, which glibc
 * scans at startup.
 * Result: a0 = 1 + 128 * ITERS * 3, checked against the closed form.
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

static __attribute__((noinline)) uint64_t kernel(uint64_t iters, uint64_t x0, uint64_t inc) {
    register uint64_t x __asm__("a0") = x0;
    register uint64_t d __asm__("a1") = inc;
    register uint64_t n __asm__("t0") = iters;
    __asm__ volatile(".option push\n"
                     ".balign 64\n" /* before norvc: padding may need a c.nop */
                     ".option norvc\n"
                     "1:\n"
                     ".rept 128\n"
                     "add   a0, a0, a1\n"
                     ".endr\n"
                     "addi  t0, t0, -1\n"
                     "bnez  t0, 1b\n"
                     ".option pop\n"
                     : "+r"(x), "+r"(n)
                     : "r"(d)
                     : "memory");
    return x;
}

int main(int argc, char **argv) {
    long iters = parse_size(argc, argv, "ITERS", DEFAULT_ITERS, MIN_ITERS, MAX_ITERS);
    uint64_t r = kernel((uint64_t)iters, 1, 3);
    uint64_t expect = 1 + (uint64_t)iters * 128 * 3;
    if (r != expect) {
        fprintf(stderr, "dep_add: got %" PRIu64 ", expected %" PRIu64 "\n", r, expect);
        return 1;
    }
    printf("dep_add: iters=%ld adds=%ld kernel_insns=%ld\n", iters, iters * 128, iters * 130);
    printf("checksum: %016" PRIx64 "\n", r);
    return 0;
}
