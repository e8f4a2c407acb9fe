# A program built for more than RV64GC (here Zbb, as -march=rv64gc_zbb builds): its
# Tag_RISCV_arch names zbb, and its first Zbb instruction is illegal on cyclescope's
# RV64GC: the fault's line says why.
    .attribute arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0_zbb1p0"
    .text
    .globl _start
_start:
    li a1, 0x0f0f
    cpop a0, a1
    li a7, 93
    ecall
