/* A program built for more than cyclescope runs (here Zfh, as -march=rv64gc_zfh builds):
 * its Tag_RISCV_arch names zfh and zfhmin (and zbb, which cyclescope runs: not named), and its
 * first Zfh instruction is illegal on cyclescope: the fault's line says why. */
    .attribute arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0_zbb1p0_zfh1p0"
    .text
    .globl _start
_start:
    li a1, 0x0f0f
    cpop a0, a1
    fadd.h fa0, fa0, fa1
    li a7, 93
    ecall
