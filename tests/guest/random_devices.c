/* Reads /dev/urandom and /dev/random (the second by another path to it; each by its
 * descriptor and a dup of it) and getrandom, and prints the bytes in hex: under cyclescope the
 * three draw from the --seed stream, so two runs print the same lines (docs/sandbox.md §4).
 * Exit 1 when a read fails or gives only zero bytes. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/random.h>
#include <unistd.h>

static int show(const char *name, const unsigned char *b, size_t n) {
    int any = 0;
    printf("%s ", name);
    for (size_t i = 0; i < n; i++) {
        printf("%02x", b[i]);
        any |= b[i];
    }
    printf("\n");
    return any ? 0 : 1;
}

static int from_file(const char *path, const char *name) {
    unsigned char b[24];
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 1;
    int copy = dup(fd);
    ssize_t got = read(fd, b, 12);
    ssize_t more = copy >= 0 ? read(copy, b + 12, 12) : -1;
    close(fd);
    if (copy >= 0) close(copy);
    if (got != 12 || more != 12) return 1;
    return show(name, b, sizeof b);
}

int main(void) {
    int bad = from_file("/dev/urandom", "urandom");
    bad |= from_file("/dev/../dev/random", "random");
    unsigned char b[16];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) return 1;
    bad |= show("getrandom", b, sizeof b);
    return bad;
}
