/* Reads a file (or stdin) in small unbuffered chunks, with work between them, so its reads
 * are spread over many SimPoint intervals, and prints how many bytes it read and their hash.
 * Time it with `run --simpoints`: every point's copy of the fast-forward reads the file on
 * its own; the fast-forward must still read every byte.
 *   chunk_read FILE|- [LIMIT]   (default limit 20000 bytes) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    FILE *f = argc > 1 && strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    setvbuf(f, NULL, _IONBF, 0);
    long limit = argc > 2 ? atol(argv[2]) : 20000;
    char buf[64];
    size_t n;
    long total = 0;
    unsigned long hash = 0;
    volatile unsigned long work = 0;
    while (total < limit && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        for (size_t i = 0; i < n; i++) hash = hash * 31 + (unsigned char)buf[i];
        total += (long)n;
        for (int k = 0; k < 3000; k++) work += (unsigned long)k;
    }
    printf("read %ld bytes, hash %lu\n", total, hash);
    return 0;
}
