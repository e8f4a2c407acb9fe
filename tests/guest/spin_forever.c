/* A procedure that never returns (profile.infinite_loop): a finite loop, then
 * an infinite one with a branch inside — DCPI §6.1.2's extension for infinite
 * loops (a sink component of the CFG gets a pseudo edge to the exit). Run it
 * with --max. */
volatile unsigned long sink;

__attribute__((noinline)) void spin(unsigned long n) {
    unsigned long x = 1;
    for (unsigned long i = 0; i < n; i++) x = x * 3 + i;
    sink = x;
    for (;;) {
        x = x * 5 + 1;
        if (x & 16) sink = x;
        else sink = x + 1;
    }
}

int main(int argc, char **argv) {
    (void)argv;
    spin((unsigned long)argc * 1000);
    return 0;
}
