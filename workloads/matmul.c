/*
 * matmul -- dense FP workload: blocked double-precision matrix multiply.
 *
 * usage: matmul [N]   N = rows of A and C (default 320, 2..100000, even)
 *
 * C (N x 256) = A (N x 256) * B (256 x 256), doubles with pseudo-random
 * entries in [-1, 1) (splitmix64, fixed seed).  Fixing the inner dimensions
 * at 256 makes the work linear in N: 65536 multiply-adds per row.  The loop
 * nest is tiled over k and j in 64x64 tiles of B (32 KiB, reused by all
 * rows), with a 2x4 register-blocked micro-kernel: per k step it loads 2
 * elements of A and 4 of B and issues 8 independent fmadd.d into 8
 * accumulators.  Eight spot-checked elements of C are recomputed with a
 * plain dot product.  The checksum hashes the bit patterns of C, so it is
 * exact (the emulator's fmadd.d must be correctly rounded), and the sum of
 * C is printed as well.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define DEFAULT_N 320L
#define MIN_N     2L
#define MAX_N     100000L
#define K         256
#define M         256
#define TILE      64

/* uniform double in [-1, 1) */

/* C[i0..i0+1][j0..j0+63] += A[i0..i0+1][k0..k0+63] * B[k0..k0+63][j0..j0+63] */
static void kernel_2rows(const double *restrict a, const double *restrict b, double *restrict c, int k0, int j0) {
    const double *a0 = a + k0, *a1 = a + K + k0;
    for (int j = j0; j < j0 + TILE; j += 4) {
        double c00 = c[j], c01 = c[j + 1], c02 = c[j + 2], c03 = c[j + 3];
        double c10 = c[M + j], c11 = c[M + j + 1], c12 = c[M + j + 2], c13 = c[M + j + 3];
        const double *bp = b + (long)k0 * M + j;
        for (int k = 0; k < TILE; k++) {
            double x0 = a0[k], x1 = a1[k];
            double b0 = bp[0], b1 = bp[1], b2 = bp[2], b3 = bp[3];
            c00 += x0 * b0;
            c01 += x0 * b1;
            c02 += x0 * b2;
            c03 += x0 * b3;
            c10 += x1 * b0;
            c11 += x1 * b1;
            c12 += x1 * b2;
            c13 += x1 * b3;
            bp += M;
        }
        c[j] = c00;
        c[j + 1] = c01;
        c[j + 2] = c02;
        c[j + 3] = c03;
        c[M + j] = c10;
        c[M + j + 1] = c11;
        c[M + j + 2] = c12;
        c[M + j + 3] = c13;
    }
}

int main(int argc, char **argv) {
    long n = parse_size_as(argc, argv, "N", DEFAULT_N, MIN_N, MAX_N, SIZE_EVEN);
    double *a = malloc((size_t)n * K * sizeof *a);
    double *b = malloc((size_t)K * M * sizeof *b);
    double *c = calloc((size_t)n * M, sizeof *c);
    if (!a || !b || !c) {
        fprintf(stderr, "matmul: out of memory\n");
        return 1;
    }
    uint64_t s = 0x4D41544D554CULL;
    for (long i = 0; i < n * K; i++) a[i] = rand_unit(&s);
    for (long i = 0; i < (long)K * M; i++) b[i] = rand_unit(&s);

    for (int k0 = 0; k0 < K; k0 += TILE)
        for (int j0 = 0; j0 < M; j0 += TILE)
            for (long i = 0; i < n; i += 2) kernel_2rows(a + i * K, b, c + i * M, k0, j0);

    /* spot checks (the tiled order sums k in the same order, so the
     * results must agree to a few ulps; allow a loose tolerance) */
    for (int t = 0; t < 8; t++) {
        long i = (long)((uint64_t)(t * 7919 + 13) % (uint64_t)n);
        int j = (t * 37 + 5) % M;
        double ref = 0.0;
        for (int k = 0; k < K; k++) ref += a[i * K + k] * b[(long)k * M + j];
        double diff = ref - c[i * M + j];
        if (diff > 1e-9 || diff < -1e-9) {
            fprintf(stderr, "matmul: C[%ld][%d] = %.17g, expected %.17g\n", i, j, c[i * M + j], ref);
            return 1;
        }
    }

    uint64_t check = 0;
    double sum = 0.0;
    for (long i = 0; i < n * M; i++) {
        check = (check ^ bits_of(c[i])) * 0x100000001B3ULL;
        sum += c[i];
    }
    printf("matmul: C = A(%ldx%d) * B(%dx%d) sum=%.6f\n", n, K, K, M, sum);
    printf("checksum: %016" PRIx64 "\n", check);
    free(a);
    free(b);
    free(c);
    return 0;
}
