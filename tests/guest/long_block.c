/* A long straight-line block run seldom (profile.long_block): `mix` is one block of 160
 * dependent adds, called 2000 times, so at period 200 each of its issue points gets some ten
 * samples — as libm's pow or printf's float formatting, whose long blocks run once a call. With
 * so few samples a point the 1.5x cluster of the smallest ratios (DCPI §6.1.3) cuts through
 * the sampling noise, and its estimate is where the cut fell: about two thirds of the truth. */
#include <stdlib.h>

volatile long sink;

__attribute__((noinline)) long mix(long x, long y) {
    /* one basic block: no branch inside, every add issues in one cycle after the last */
    __asm__ volatile(".rept 160\n\tadd %0, %0, %1\n\t.endr" : "+r"(x) : "r"(y));
    return x;
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 2000;
    long acc = 0;
    for (long i = 0; i < calls; i++) acc += mix(i, acc | 1);
    sink = acc;
    return 0;
}
