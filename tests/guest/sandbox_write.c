/* Tries to write where the sandbox must or must not let it; prints what
 * happened, one line per attempt, for tests/scripts/sandbox_*.sh to check.
 *
 *   sandbox_write create PATH          create PATH and write "guest" to it
 *   sandbox_write at DIR REL           open DIR, then openat(dirfd, REL) to create and write
 *   sandbox_write append PATH N        N times: open(PATH, O_WRONLY|O_APPEND), write "x", close;
 *                                      prints how many opens succeeded and how many were denied
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int report(const char *what, int fd) {
    if (fd < 0) {
        printf("%s: %s\n", what, strerror(errno));
        return 1;
    }
    ssize_t n = write(fd, "guest", 5);
    close(fd);
    printf("%s: wrote %zd\n", what, n);
    return n == 5 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "create") == 0)
        return report(argv[2], open(argv[2], O_CREAT | O_WRONLY | O_TRUNC, 0644));
    if (argc == 4 && strcmp(argv[1], "at") == 0) {
        int dir = open(argv[2], O_RDONLY | O_DIRECTORY);
        if (dir < 0) {
            printf("%s: %s\n", argv[2], strerror(errno));
            return 1;
        }
        return report(argv[3], openat(dir, argv[3], O_CREAT | O_WRONLY | O_TRUNC, 0644));
    }
    if (argc == 4 && strcmp(argv[1], "append") == 0) {
        long n = atol(argv[3]), opened = 0, denied = 0, other = 0;
        for (long i = 0; i < n; i++) {
            int fd = open(argv[2], O_WRONLY | O_APPEND);
            if (fd >= 0) {
                if (write(fd, "x", 1) == 1) opened++;
                close(fd);
            } else if (errno == EACCES || errno == ELOOP) {
                denied++;
            } else {
                other++; /* ENOENT while the name is between two renames */
            }
        }
        printf("appended %ld denied %ld other %ld\n", opened, denied, other);
        return 0;
    }
    fprintf(stderr, "usage: sandbox_write create PATH | at DIR REL | append PATH N\n");
    return 2;
}
