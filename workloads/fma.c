/*
 * fma -- dense FP workload: fused multiply-add heavy kernel (double).
 *
 * usage: fma [P]      P = passes over the 4096-element arrays
 *                         (default 768, 1..10000000)
 *
 * Each pass evaluates a degree-8 polynomial by Horner's rule at every
 * element of x (8 chained fmadd.d per element; chains of different elements
 * are independent), accumulates the result into y with a daxpy-like
 * y[i] = alpha * p + y[i] (one more fmadd.d), and stores p back into x.
 * The constant term changes every pass.  Per element: 9 fmadd.d, 2 fld,
 * 2 fsd and 3 integer loop instructions (16 instructions, 56% FMA).  The
 * arrays (2 x 32 KiB) stay in a typical L1/L2 cache, so the kernel is
 * bound by FMA latency/throughput.  fma() from <math.h> is expanded inline
 * by gcc to fmadd.d on RV64GC (no libm call, independent of
 * -ffp-contract).  Work is linear in P.  The checksum hashes the bit
 * patterns of x and y, so it is exact only if fmadd.d is correctly rounded
 * (a single rounding, not a multiply followed by an add).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define DEFAULT_P 768L
#define MIN_P     1L
#define MAX_P     10000000L
#define LEN       4096

static double x[LEN], y[LEN];

/* the measured kernel; sum of |coefficients| <= 0.95 keeps |x| <= 0.95 */
static __attribute__((noinline)) void pass(double c0, double alpha) {
    const double c1 = -0.12, c2 = 0.11, c3 = -0.1, c4 = 0.09, c5 = -0.08, c6 = 0.07, c7 = -0.06, c8 = 0.05;
    for (int i = 0; i < LEN; i++) {
        double v = x[i];
        double p = fma(c8, v, c7);
        p = fma(p, v, c6);
        p = fma(p, v, c5);
        p = fma(p, v, c4);
        p = fma(p, v, c3);
        p = fma(p, v, c2);
        p = fma(p, v, c1);
        p = fma(p, v, c0);
        y[i] = fma(alpha, p, y[i]);
        x[i] = p;
    }
}

int main(int argc, char **argv) {
    long passes = parse_size(argc, argv, "P", DEFAULT_P, MIN_P, MAX_P);
    for (int i = 0; i < LEN; i++) {
        x[i] = (double)(i - LEN / 2) / (LEN / 2); /* [-1, 1) */
        y[i] = 0.0;
    }
    const double alpha = 1.0 / 1024;
    for (long p = 0; p < passes; p++) pass(0.2 * (double)(p % 7) / 7.0 - 0.1, alpha);

    uint64_t check = 0;
    double sx = 0.0, sy = 0.0;
    for (int i = 0; i < LEN; i++) {
        check = (check ^ bits_of(x[i])) * 0x100000001B3ULL;
        check = (check ^ bits_of(y[i])) * 0x100000001B3ULL;
        sx += x[i];
        sy += y[i];
    }
    printf("fma: passes=%ld len=%d sum_x=%.12f sum_y=%.12f\n", passes, LEN, sx, sy);
    printf("checksum: %016" PRIx64 "\n", check);
    return 0;
}
