/*
 * stencil -- dense FP workload: 2D Jacobi 5-point stencil (double).
 *
 * usage: stencil [N]   N = interior rows of the grid (default 512, 1..1000000)
 *
 * A grid of N x 512 interior points plus a fixed boundary (Dirichlet: the
 * top edge is held at 1.0, the others at 0.0) is relaxed for 16 Jacobi
 * sweeps, ping-ponging between two arrays:
 *
 *     out[i][j] = 0.2 * (in[i][j] + in[i-1][j] + in[i+1][j] + in[i][j-1] + in[i][j+1])
 *
 * Each point costs 4 fadd.d, 1 fmul.d, 1 store and 3 loads (gcc keeps
 * mid[j-1] and mid[j] in registers across iterations), ~17 instructions
 * with loop overhead.  The two arrays are 2 MiB each at the default size,
 * so every sweep streams through memory with three-row reuse.  Work is
 * linear in N.  The checksum hashes the bit patterns of the final grid.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define DEFAULT_N 512L
#define MIN_N     1L
#define MAX_N     1000000L
#define COLS      512
#define W         (COLS + 2) /* row pitch including the boundary columns */
#define SWEEPS    16

static void sweep(const double *restrict in, double *restrict out, long rows) {
    for (long i = 1; i <= rows; i++) {
        const double *up = in + (i - 1) * W, *mid = in + i * W, *dn = in + (i + 1) * W;
        double *o = out + i * W;
        for (int j = 1; j <= COLS; j++) o[j] = 0.2 * (mid[j] + up[j] + dn[j] + mid[j - 1] + mid[j + 1]);
    }
}

int main(int argc, char **argv) {
    long n = parse_size(argc, argv, "N", DEFAULT_N, MIN_N, MAX_N);
    size_t cells = (size_t)(n + 2) * W;
    double *g0 = calloc(cells, sizeof *g0);
    double *g1 = calloc(cells, sizeof *g1);
    if (!g0 || !g1) {
        fprintf(stderr, "stencil: out of memory\n");
        return 1;
    }
    /* boundary: top row at 1.0 in both arrays; a small deterministic bump
     * in the interior so the checksum depends on every sweep */
    for (int j = 0; j < W; j++) g0[j] = g1[j] = 1.0;
    for (long i = 1; i <= n; i++)
        for (int j = 1; j <= COLS; j++) g0[i * W + j] = (double)((i * 31 + j * 17) % 64) * (1.0 / 64);

    double *in = g0, *out = g1;
    for (int t = 0; t < SWEEPS; t++) {
        sweep(in, out, n);
        double *tmp = in;
        in = out;
        out = tmp;
    }

    uint64_t check = 0;
    double sum = 0.0;
    for (size_t k = 0; k < cells; k++) {
        check = (check ^ bits_of(in[k])) * 0x100000001B3ULL;
        sum += in[k];
    }
    printf("stencil: %ldx%d grid, %d sweeps, sum=%.9f\n", n, COLS, SWEEPS, sum);
    printf("checksum: %016" PRIx64 "\n", check);
    free(g0);
    free(g1);
    return 0;
}
