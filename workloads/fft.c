/*
 * fft -- dense FP workload: iterative radix-2 complex FFT (double).
 *
 * usage: fft [N]      N = transform length, a power of two
 *                         (default 65536, 16..67108864)
 *
 * A pseudo-random complex signal (splitmix64, fixed seed) is transformed
 * forward and then inverse with an in-place iterative radix-2
 * decimation-in-time FFT (bit-reversal permutation, then log2 N stages of
 * butterflies: per butterfly 1 complex multiply = 4 fmul/fmadd-class ops
 * plus 4 fadd/fsub).  Twiddle factors are computed without libm: sin/cos
 * by Taylor series on [0, pi/4] plus octant symmetry.  The round trip must
 * reproduce the input to ~1e-12; the checksum hashes the bit patterns of
 * the forward transform.  Work ~ N log N (N = 2048 is ~1/40 of the default).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define DEFAULT_N 65536L
#define MIN_N     16L
#define MAX_N     67108864L

static const double PI = 3.14159265358979323846;

/* Taylor series, accurate to ~1 ulp for |x| <= pi/4 */
static double sin_small(double x) {
    double x2 = x * x, term = x, sum = x;
    for (int k = 1; k <= 11; k++) {
        term *= -x2 / (double)((2 * k) * (2 * k + 1));
        sum += term;
    }
    return sum;
}

static double cos_small(double x) {
    double x2 = x * x, term = 1.0, sum = 1.0;
    for (int k = 1; k <= 11; k++) {
        term *= -x2 / (double)((2 * k - 1) * (2 * k));
        sum += term;
    }
    return sum;
}

/* w[k] = exp(-2 pi i k / n) for k in [0, n/2) */
static void twiddles(double *wr, double *wi, long n) {
    long q = n / 4; /* angle pi/2 */
    long e = n / 8; /* angle pi/4 */
    for (long k = 0; k <= q && k < n / 2; k++) {
        double c, s;
        if (k <= e) {
            double th = 2.0 * PI * (double)k / (double)n;
            c = cos_small(th);
            s = sin_small(th);
        } else {
            double th = 2.0 * PI * (double)(q - k) / (double)n; /* pi/2 - angle */
            c = sin_small(th);
            s = cos_small(th);
        }
        wr[k] = c;
        wi[k] = -s;
    }
    /* angle + pi/2: cos -> -sin, sin -> cos */
    for (long k = q + 1; k < n / 2; k++) {
        wr[k] = wi[k - q];
        wi[k] = -wr[k - q];
    }
}

static void fft(double *re, double *im, long n, const double *wr, const double *wi, int inverse) {
    /* bit-reversal permutation */
    for (long i = 1, j = 0; i < n; i++) {
        long bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) {
            double t = re[i];
            re[i] = re[j];
            re[j] = t;
            t = im[i];
            im[i] = im[j];
            im[j] = t;
        }
    }
    double sign = inverse ? -1.0 : 1.0;
    for (long len = 2; len <= n; len <<= 1) {
        long half = len / 2, step = n / len;
        for (long base = 0; base < n; base += len) {
            for (long k = 0; k < half; k++) {
                double c = wr[k * step], s = sign * wi[k * step];
                long a = base + k, b = a + half;
                double xr = re[b] * c - im[b] * s;
                double xi = re[b] * s + im[b] * c;
                re[b] = re[a] - xr;
                im[b] = im[a] - xi;
                re[a] += xr;
                im[a] += xi;
            }
        }
    }
}

int main(int argc, char **argv) {
    long n = parse_size_as(argc, argv, "N", DEFAULT_N, MIN_N, MAX_N, SIZE_POWER_OF_TWO);
    double *re = malloc((size_t)n * sizeof *re);
    double *im = malloc((size_t)n * sizeof *im);
    double *r0 = malloc((size_t)n * sizeof *r0);
    double *i0 = malloc((size_t)n * sizeof *i0);
    double *wr = malloc((size_t)n / 2 * sizeof *wr);
    double *wi = malloc((size_t)n / 2 * sizeof *wi);
    if (!re || !im || !r0 || !i0 || !wr || !wi) {
        fprintf(stderr, "fft: out of memory\n");
        return 1;
    }
    uint64_t s = 0x4646540001ULL;
    for (long i = 0; i < n; i++) {
        re[i] = r0[i] = rand_unit(&s);
        im[i] = i0[i] = rand_unit(&s);
    }
    twiddles(wr, wi, n);

    fft(re, im, n, wr, wi, 0);
    uint64_t check = 0;
    double energy = 0.0;
    for (long i = 0; i < n; i++) {
        check = (check ^ bits_of(re[i])) * 0x100000001B3ULL;
        check = (check ^ bits_of(im[i])) * 0x100000001B3ULL;
        energy += re[i] * re[i] + im[i] * im[i];
    }

    fft(re, im, n, wr, wi, 1);
    double maxerr = 0.0, inv_n = 1.0 / (double)n;
    for (long i = 0; i < n; i++) {
        double dr = re[i] * inv_n - r0[i], di = im[i] * inv_n - i0[i];
        if (dr < 0) dr = -dr;
        if (di < 0) di = -di;
        if (dr > maxerr) maxerr = dr;
        if (di > maxerr) maxerr = di;
    }
    if (!(maxerr < 1e-10)) {
        fprintf(stderr, "fft: round trip error %g too large\n", maxerr);
        return 1;
    }
    printf("fft: n=%ld energy/n=%.9f roundtrip_err<1e-10\n", n, energy * inv_n);
    printf("checksum: %016" PRIx64 "\n", check);
    free(re);
    free(im);
    free(r0);
    free(i0);
    free(wr);
    free(wi);
    return 0;
}
