/* Stores to a stack line and exits at once: on a machine with a store buffer (bdw,
 * knl) the store still drains to memory after the exit commits, so the run's cycles
 * go on past its last commit (rpstacks.e2e.store_at_exit). */
    .text
    .globl _start
_start:
    addi sp, sp, -16
    sd s0, 8(sp)
    li a0, 0
    li a7, 93
    ecall
