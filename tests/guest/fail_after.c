/* A program that works for a while, then ends badly (hrd: every verb's exit status and
 * results for each way a program can end). `fail_after MODE N`: N iterations of a loop
 * with a few phases, then MODE: `exit` exits 3, `segv` stores through a null pointer,
 * `abort` calls abort(), `spin` never ends (run it with --max), `ok` exits 0; `env` does what
 * $FAIL_AFTER_MODE says (a program that ends otherwise in another environment). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile unsigned long sink;

static unsigned long work(unsigned long n) {
    unsigned long x = 1, table[64] = {0};
    for (unsigned long i = 0; i < n; i++) {
        if (i & 1024) x = x * 3 + i; /* two phases a few thousand instructions long */
        else table[i & 63] += x ^ i;
    }
    return x + table[7];
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "ok";
    if (!strcmp(mode, "env") && getenv("FAIL_AFTER_MODE")) mode = getenv("FAIL_AFTER_MODE");
    unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 10) : 100000;
    sink = work(n);
    printf("worked %lu\n", n);
    fflush(stdout);
    if (!strcmp(mode, "exit")) return 3;
    if (!strcmp(mode, "segv")) {
        volatile int *p = (volatile int *)(long)(argc - 3); /* null, opaque to the compiler */
        *p = 42;
    }
    if (!strcmp(mode, "abort")) abort();
    if (!strcmp(mode, "spin"))
        for (;;) sink = sink * 5 + 1;
    return 0;
}
