/* sendfile(2) as busybox's cat uses it: FILE to stdout whole (no offset: the file's position
 * moves), a part at an offset (the offset moves, the position does not), then the errors.
 *   sendfile_use FILE */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

static void report(const char *what, ssize_t r) {
    if (r < 0) printf("%s: %s\n", what, strerror(errno));
    else printf("%s: %zd\n", what, r);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        perror(argv[1]);
        return 1;
    }
    ssize_t total = 0, r;
    while ((r = sendfile(STDOUT_FILENO, fd, NULL, 1000)) > 0) total += r;
    printf("\nsent %zd bytes whole, position %ld\n", total, (long)lseek(fd, 0, SEEK_CUR));
    off_t at = 5;
    lseek(fd, 2, SEEK_SET);
    r = sendfile(STDOUT_FILENO, fd, &at, 20);
    printf("\nat offset 5: %zd bytes, offset now %ld, position still %ld\n", r, (long)at, (long)lseek(fd, 0, SEEK_CUR));
    at = total + 10;
    report("past the end", sendfile(STDOUT_FILENO, fd, &at, 20));
    report("count 0", sendfile(STDOUT_FILENO, fd, NULL, 0));
    at = -1;
    report("negative offset", sendfile(STDOUT_FILENO, fd, &at, 20));
    report("closed input", sendfile(STDOUT_FILENO, 99, NULL, 20));
    report("to a read-only descriptor", sendfile(fd, fd, NULL, 20));
    report("bad offset address", sendfile(STDOUT_FILENO, fd, (off_t *)8, 20));
    return 0;
}
