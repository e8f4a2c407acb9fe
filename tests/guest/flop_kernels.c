/* flop_kernels N M: kernels whose floating-point operations are known analytically, for
 * tests/scripts/flops_analytic.sh. Every operation below is one FP operation whatever the
 * compiler does with it (a fused multiply-add carries two): no constant divisor, no
 * loop-invariant product, no reassociation without -ffast-math.
 *   gemm     C = beta*C + A*B (N x N):  N*N + 2*N*N*N
 *   triad    a = b + s*c (M):           2*M
 *   divide   d[i] = a[i] / (i + 1):     M  (fdiv.d)
 *   sqrt     e[i] = sqrt(d[i]):         M  (fsqrt.d; the arguments are positive)
 *   checksum sums of C, e:              N*N + M
 * Total 2*N^3 + 2*N^2 + 5*M; the initialisation converts integers only (no FP operation). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_N 64
#define MAX_M 100000
static double A[MAX_N][MAX_N], B[MAX_N][MAX_N], C[MAX_N][MAX_N];
static double a[MAX_M], b[MAX_M], c[MAX_M], d[MAX_M], e[MAX_M];

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 16, m = argc > 2 ? atoi(argv[2]) : 1000;
    if (n < 1 || n > MAX_N || m < 1 || m > MAX_M) {
        fprintf(stderr, "usage: flop_kernels N M (1 <= N <= %d, 1 <= M <= %d)\n", MAX_N, MAX_M);
        return 2;
    }
    volatile double beta_v = 1.25, s_v = 3.0; /* not constants the compiler could fold */
    double beta = beta_v, s = s_v;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i][j] = (double)((i * j + 1) % 7);
            B[i][j] = (double)((i + 2 * j) % 5);
            C[i][j] = (double)((i + j) % 3);
        }
    for (int i = 0; i < m; i++) b[i] = (double)(i % 11 + 1), c[i] = (double)(i % 13 + 1);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double acc = C[i][j] * beta;
            for (int k = 0; k < n; k++) acc += A[i][k] * B[k][j];
            C[i][j] = acc;
        }
    for (int i = 0; i < m; i++) a[i] = b[i] + s * c[i];
    for (int i = 0; i < m; i++) d[i] = a[i] / (double)(i + 1);
    for (int i = 0; i < m; i++) e[i] = sqrt(d[i]);
    double sum_c = 0, sum_e = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) sum_c += C[i][j];
    for (int i = 0; i < m; i++) sum_e += e[i];
    printf("flop_kernels n=%d m=%d sum_c=%.17g sum_e=%.17g\n", n, m, sum_c, sum_e);
    return 0;
}
