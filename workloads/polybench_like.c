/*
 * polybench_like -- a sequence of dense linear-algebra and stencil kernels in
 * the style of PolyBench/C, each run in turn on its own arrays: a program
 * with clear phases (our own code, written for cyclescope; nothing taken
 * from PolyBench but the idea of the kernels).
 *
 * usage: polybench_like [N]   N = problem size (default 128, 8..2000)
 *
 * Phases, in order (doubles unless said):
 *   gemm      C = 1.5 A B + 1.2 C              (N x N, ikj order)     ~ N^3
 *   atax      y = A^T (A x)                    (2N x 2N)              ~ 8 N^2, x 4
 *   jacobi2d  16 sweeps of a 5-point stencil   (2N x 2N)              ~ 64 N^2
 *   lu        in-place LU without pivoting     (N x N, diagonally dominant) ~ N^3 / 3
 *   floyd     Floyd-Warshall shortest paths    (N x N int32)          ~ N^3
 *   seidel2d  4 sweeps of a 9-point Gauss-Seidel (2N x 2N)            ~ 36 N^2
 *   covar     covariance of N variables over 2N samples              ~ N^3
 * 2.0 M instructions at N = 24, 108 M at the default size, 305 M at 190 (under
 * env -i); work grows as N^3. Self-checks: gemm and covariance entries recomputed
 * directly at sampled positions, LU's L*U against the saved matrix at
 * sampled positions, Floyd-Warshall's triangle inequality at sampled
 * triples, stencil sums finite. The checksum hashes every phase's result.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_N 128L

static long parse_size(int argc, char **argv, long def, long lo, long hi) {
    if (argc > 2) {
        fprintf(stderr, "usage: %s [N]\n", argv[0]);
        exit(2);
    }
    if (argc < 2) return def;
    char *end;
    errno = 0;
    long v = strtol(argv[1], &end, 10);
    if (errno != 0 || end == argv[1] || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "%s: bad size '%s' (expected an integer in [%ld, %ld])\n", argv[0], argv[1], lo, hi);
        exit(2);
    }
    return v;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_u64(void) {
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double next_unit(void) { return (double)(next_u64() >> 11) * (1.0 / 9007199254740992.0); }

static uint64_t hash = 1469598103934665603ull;
static void mix_bits(uint64_t v) {
    for (int i = 0; i < 8; i++) hash = (hash ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ull;
}
static void mix_double(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    mix_bits(u);
}

static void fail(const char *what) {
    fprintf(stderr, "polybench_like: self-check failed: %s\n", what);
    exit(1);
}

static double absd(double x) { return x < 0 ? -x : x; }

static void *alloc(size_t n, size_t size) {
    void *p = calloc(n, size);
    if (!p) {
        fprintf(stderr, "polybench_like: out of memory\n");
        exit(1);
    }
    return p;
}

static void gemm(long n) {
    double *a = alloc((size_t)(n * n), sizeof *a), *b = alloc((size_t)(n * n), sizeof *b);
    double *c = alloc((size_t)(n * n), sizeof *c), *c0 = alloc((size_t)(n * n), sizeof *c0);
    for (long i = 0; i < n * n; i++) a[i] = next_unit(), b[i] = next_unit(), c[i] = c0[i] = next_unit();
    for (long i = 0; i < n; i++) {
        for (long j = 0; j < n; j++) c[i * n + j] *= 1.2;
        for (long k = 0; k < n; k++) {
            double aik = 1.5 * a[i * n + k];
            for (long j = 0; j < n; j++) c[i * n + j] += aik * b[k * n + j];
        }
    }
    for (int s = 0; s < 16; s++) {
        long i = (long)(next_u64() % (uint64_t)n), j = (long)(next_u64() % (uint64_t)n);
        double want = 1.2 * c0[i * n + j];
        for (long k = 0; k < n; k++) want += 1.5 * a[i * n + k] * b[k * n + j];
        if (absd(want - c[i * n + j]) > 1e-9 * (1 + absd(want))) fail("gemm");
    }
    for (long i = 0; i < n * n; i++) mix_double(c[i]);
    free(a), free(b), free(c), free(c0);
}

static void atax(long n) {
    long m = 2 * n;
    double *a = alloc((size_t)(m * m), sizeof *a), *x = alloc((size_t)m, sizeof *x);
    double *t = alloc((size_t)m, sizeof *t), *y = alloc((size_t)m, sizeof *y);
    for (long i = 0; i < m * m; i++) a[i] = next_unit() - 0.5;
    for (long i = 0; i < m; i++) x[i] = next_unit();
    for (int rep = 0; rep < 4; rep++) {
        memset(y, 0, (size_t)m * sizeof *y);
        for (long i = 0; i < m; i++) {
            double s = 0;
            for (long j = 0; j < m; j++) s += a[i * m + j] * x[j];
            t[i] = s;
            for (long j = 0; j < m; j++) y[j] += a[i * m + j] * s;
        }
        for (long i = 0; i < m; i++) x[i] = y[i] / (1.0 + absd(y[i]));
    }
    for (long i = 0; i < m; i++) mix_double(x[i]);
    free(a), free(x), free(t), free(y);
}

static void jacobi2d(long n) {
    long m = 2 * n, w = m + 2;
    double *g0 = alloc((size_t)(w * w), sizeof *g0), *g1 = alloc((size_t)(w * w), sizeof *g1);
    for (long i = 0; i < w * w; i++) g0[i] = g1[i] = next_unit();
    for (int t = 0; t < 16; t++) {
        double *in = t & 1 ? g1 : g0, *out = t & 1 ? g0 : g1;
        for (long i = 1; i <= m; i++)
            for (long j = 1; j <= m; j++)
                out[i * w + j] = 0.2 *
                    (in[i * w + j] + in[(i - 1) * w + j] + in[(i + 1) * w + j] + in[i * w + j - 1] + in[i * w + j + 1]);
    }
    double sum = 0;
    for (long i = 0; i < w * w; i++) sum += g0[i], mix_double(g0[i]);
    if (!(sum == sum) || sum <= 0) fail("jacobi2d");
    free(g0), free(g1);
}

static void lu(long n) {
    double *a = alloc((size_t)(n * n), sizeof *a), *a0 = alloc((size_t)(n * n), sizeof *a0);
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) a[i * n + j] = a0[i * n + j] = (i == j ? (double)n : 0.0) + next_unit();
    for (long k = 0; k < n; k++)
        for (long i = k + 1; i < n; i++) {
            double l = a[i * n + k] /= a[k * n + k];
            for (long j = k + 1; j < n; j++) a[i * n + j] -= l * a[k * n + j];
        }
    for (int s = 0; s < 16; s++) {
        long i = (long)(next_u64() % (uint64_t)n), j = (long)(next_u64() % (uint64_t)n);
        double v = 0; /* (L U)[i][j], L unit lower, U upper */
        for (long k = 0; k <= (i < j ? i : j); k++) v += (k == i ? 1.0 : a[i * n + k]) * a[k * n + j];
        if (absd(v - a0[i * n + j]) > 1e-9 * (double)n) fail("lu");
    }
    for (long i = 0; i < n * n; i++) mix_double(a[i]);
    free(a), free(a0);
}

static void floyd(long n) {
    int32_t *d = alloc((size_t)(n * n), sizeof *d);
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) d[i * n + j] = i == j ? 0 : (int32_t)(1 + next_u64() % 1000);
    for (long k = 0; k < n; k++)
        for (long i = 0; i < n; i++) {
            int32_t dik = d[i * n + k];
            for (long j = 0; j < n; j++) {
                int32_t via = dik + d[k * n + j];
                if (via < d[i * n + j]) d[i * n + j] = via;
            }
        }
    for (int s = 0; s < 64; s++) {
        long i = (long)(next_u64() % (uint64_t)n), j = (long)(next_u64() % (uint64_t)n);
        long k = (long)(next_u64() % (uint64_t)n);
        if (d[i * n + j] > d[i * n + k] + d[k * n + j]) fail("floyd");
    }
    for (long i = 0; i < n * n; i++) mix_bits((uint32_t)d[i]);
    free(d);
}

static void seidel2d(long n) {
    long m = 2 * n, w = m + 2;
    double *g = alloc((size_t)(w * w), sizeof *g);
    for (long i = 0; i < w * w; i++) g[i] = next_unit();
    for (int t = 0; t < 4; t++)
        for (long i = 1; i <= m; i++)
            for (long j = 1; j <= m; j++)
                g[i * w + j] = (g[(i - 1) * w + j - 1] + g[(i - 1) * w + j] + g[(i - 1) * w + j + 1] +
                                g[i * w + j - 1] + g[i * w + j] + g[i * w + j + 1] + g[(i + 1) * w + j - 1] +
                                g[(i + 1) * w + j] + g[(i + 1) * w + j + 1]) /
                    9.0;
    double sum = 0;
    for (long i = 0; i < w * w; i++) sum += g[i], mix_double(g[i]);
    if (!(sum == sum) || sum <= 0) fail("seidel2d");
    free(g);
}

static void covar(long n) {
    long m = 2 * n; /* samples */
    double *data = alloc((size_t)(m * n), sizeof *data), *mean = alloc((size_t)n, sizeof *mean);
    double *cov = alloc((size_t)(n * n), sizeof *cov), *raw = alloc((size_t)(m * n), sizeof *raw);
    for (long i = 0; i < m * n; i++) data[i] = raw[i] = next_unit();
    for (long j = 0; j < n; j++) {
        double s = 0;
        for (long i = 0; i < m; i++) s += data[i * n + j];
        mean[j] = s / (double)m;
    }
    for (long i = 0; i < m; i++)
        for (long j = 0; j < n; j++) data[i * n + j] -= mean[j];
    for (long a = 0; a < n; a++)
        for (long b = a; b < n; b++) {
            double s = 0;
            for (long i = 0; i < m; i++) s += data[i * n + a] * data[i * n + b];
            cov[a * n + b] = cov[b * n + a] = s / (double)(m - 1);
        }
    for (int s = 0; s < 8; s++) {
        long a = (long)(next_u64() % (uint64_t)n), b = (long)(next_u64() % (uint64_t)n);
        double ma = 0, mb = 0, v = 0;
        for (long i = 0; i < m; i++) ma += raw[i * n + a], mb += raw[i * n + b];
        ma /= (double)m, mb /= (double)m;
        for (long i = 0; i < m; i++) v += (raw[i * n + a] - ma) * (raw[i * n + b] - mb);
        v /= (double)(m - 1);
        if (absd(v - cov[a * n + b]) > 1e-9) fail("covariance");
    }
    for (long i = 0; i < n * n; i++) mix_double(cov[i]);
    free(data), free(mean), free(cov), free(raw);
}

int main(int argc, char **argv) {
    long n = parse_size(argc, argv, DEFAULT_N, 8, 2000);
    gemm(n);
    atax(n);
    jacobi2d(n);
    lu(n);
    floyd(n);
    seidel2d(n);
    covar(n);
    printf("polybench_like: n=%ld, 7 kernels\n", n);
    printf("checksum: %016" PRIx64 "\n", hash);
    return 0;
}
