/* A program built for more than cyclescope runs (here V, as -march=rv64gcv_zfh builds):
 * its Tag_RISCV_arch names v and the Zve/Zvl subsets V implies (and zbb and zfh, which
 * cyclescope runs: not named), and its first vector instruction is illegal on cyclescope:
 * the fault's line says why. */
    .attribute arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_v1p0_zicsr2p0_zifencei2p0_zbb1p0_zfh1p0"
    .text
    .globl _start
_start:
    li a1, 0x0f0f
    cpop a0, a1
    fadd.h fa0, fa0, fa1
    vsetvli t0, a1, e32, m1, ta, ma
    li a7, 93
    ecall
