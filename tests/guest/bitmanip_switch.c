/* A switch GCC compiles, with -march=rv64gc_zba_zbb_zbc_zbs (bitmanip*), to a jump
 * table indexed by Zba's sh2add (sh2add a0,a0,a4; lw; add; jr) rather than slli + add:
 * profile.jump_table_zba checks that the profile's CFG still reads the table (before:
 * the procedure "missing edges", every block its own class).
 *
 *   bitmanip_switch [N]   N steps (default 100000) */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long step(unsigned op, long x) {
    switch (op) {
    case 0: return x + 3;
    case 1: return x * 5;
    case 2: return x ^ 0x55;
    case 3: return x - 7;
    case 4: return x << 1;
    case 5: return x >> 2;
    case 6: return ~x;
    case 7: return x | 0x100;
    case 8: return x & 0xfff;
    default: return x;
    }
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 100000, x = 1;
    for (long i = 0; i < n; i++) x = step((unsigned)(i * 7) % 10, x);
    printf("%ld\n", x);
    return 0;
}
