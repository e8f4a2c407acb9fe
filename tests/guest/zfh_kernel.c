/* zfh_kernel — a small half-precision workload: R rounds of a dot product of two
 * N-element half vectors (flh, flh, fmadd.h per element), each round normalized
 * by fsqrt.h and fdiv.h and fed back into the vector (fcvt.h.w, fsgnjx.h, fmv.x.h).
 *
 * Build: riscv64-linux-gnu-gcc -O2 -static -march=rv64gc_zfh -o zfh_kernel zfh_kernel.c
 * Run:   zfh_kernel [N [R]]   (QEMU_CPU=rv64,Zfh=true qemu-riscv64 zfh_kernel, or cyclescope)
 *
 * GCC 12 has no _Float16 on RISC-V, so the kernel is inline asm. Its FP arithmetic
 * is exactly R * (N fmadd.h + fsqrt.h + fdiv.h): R * (2N + 2) floating-point
 * operations (an FMA counts 2), which the FLOPS accounting must count; the
 * printing is integer-only (the results' bits in hex).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint16_t xs[4096], ys[4096];

/* sum over i of x[i] * y[i] in half precision (fmadd.h, dynamic rounding) */
static uint16_t dot(const uint16_t *x, const uint16_t *y, long n) {
    uint64_t r;
    __asm__ volatile("fmv.h.x ft0, zero\n\t"
                     "1:\n\t"
                     "flh ft1, 0(%[x])\n\t"
                     "flh ft2, 0(%[y])\n\t"
                     "fmadd.h ft0, ft1, ft2, ft0\n\t"
                     "addi %[x], %[x], 2\n\t"
                     "addi %[y], %[y], 2\n\t"
                     "addi %[n], %[n], -1\n\t"
                     "bnez %[n], 1b\n\t"
                     "fmv.x.h %[r], ft0"
                     : [r] "=r"(r), [x] "+r"(x), [y] "+r"(y), [n] "+r"(n)
                     :
                     : "ft0", "ft1", "ft2", "memory");
    return (uint16_t)r;
}

/* s / sqrt(k): fsqrt.h and fdiv.h */
static uint16_t normalize(uint16_t s, long k) {
    uint64_t r;
    __asm__ volatile("fmv.h.x ft0, %[s]\n\t"
                     "fcvt.h.l ft1, %[k]\n\t"
                     "fsqrt.h ft1, ft1\n\t"
                     "fdiv.h ft0, ft0, ft1\n\t"
                     "fsgnjx.h ft0, ft0, ft0\n\t" /* |x| */
                     "fmv.x.h %[r], ft0"
                     : [r] "=r"(r)
                     : [s] "r"((uint64_t)s), [k] "r"(k)
                     : "ft0", "ft1");
    return (uint16_t)r;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000, rounds = argc > 2 ? atol(argv[2]) : 20;
    if (n < 1 || n > 4096 || rounds < 1) return 2;
    uint32_t seed = 12345;
    for (long i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        /* halves in [0.25, 1): exponent 13 or 14, a random fraction, either sign */
        xs[i] = (uint16_t)(((seed >> 31) << 15) | ((13u + ((seed >> 20) & 1)) << 10) | ((seed >> 8) & 0x3ff));
        seed = seed * 1103515245u + 12345u;
        ys[i] = (uint16_t)((((seed >> 30) & 1) << 15) | ((13u + ((seed >> 19) & 1)) << 10) | ((seed >> 5) & 0x3ff));
    }
    uint32_t check = 0;
    for (long r = 0; r < rounds; r++) {
        uint16_t s = dot(xs, ys, n), v = normalize(s, n);
        xs[r % n] = v; /* feed back: the next round depends on this one */
        check = check * 31u + v;
        if (r < 5 || r == rounds - 1) printf("round %ld: dot 0x%04x normalized 0x%04x\n", r, s, v);
    }
    printf("checksum %08x\n", check);
    return 0;
}
