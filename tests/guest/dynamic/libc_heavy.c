/* A program whose time is mostly in libc.so: each round copies a string of 1 to 2.5 KiB with
 * memcpy and measures it with strlen (calls, not inlined: the lengths vary at run time). The
 * profile's shared-library analysis names libc.so.6:memcpy and libc.so.6:strlen
 * (docs/profile.md, "Shared libraries"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char src[4096], dst[4096];

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 2000;
    for (int i = 0; i < (int)sizeof src - 1; i++) src[i] = (char)('a' + i % 26);
    size_t total = 0;
    for (int r = 0; r < rounds; r++) {
        size_t len = 1024 + (size_t)(r % 7) * 256;
        char keep = src[len];
        src[len] = '\0';
        memcpy(dst, src, len + 1);
        total += strlen(dst);
        src[len] = keep;
    }
    printf("%zu\n", total);
    return 0;
}
