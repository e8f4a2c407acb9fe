#define _GNU_SOURCE
/* access(W_OK) answers as a write would be answered (docs/sandbox.md §1): beneath
 * --allow-write DIR yes, outside EACCES like open() for writing.
 *   access_write DIR OUTSIDE_FILE   (DIR the --allow-write directory, OUTSIDE_FILE a file
 *                                    the user may write, outside it) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void report(const char *what, int r) { printf("%-34s %s\n", what, r >= 0 ? "0" : strerror(errno)); }

int main(int argc, char **argv) {
    if (argc < 3 || chdir(argv[1])) return 2;
    const char *outside = argv[2];
    int fd = open("inside", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    report("create inside", fd);
    close(fd);
    unlink("link-out");
    report("symlink to outside", symlink(outside, "link-out"));
    report("access(inside, W_OK)", access("inside", W_OK));
    report("access(DIR, W_OK)", access(".", W_OK));
    report("access(outside, R_OK)", access(outside, R_OK));
    report("access(outside, W_OK)", access(outside, W_OK));
    report("faccessat(outside, R_OK|W_OK)", faccessat(AT_FDCWD, outside, R_OK | W_OK, 0));
    report("access(link to outside, W_OK)", access("link-out", W_OK));
    report("access(/, W_OK)", access("/", W_OK));
    report("access(missing outside, W_OK)", access("/nonexistent-dir/x", W_OK));
    fd = open(outside, O_WRONLY);
    report("open(outside, O_WRONLY)", fd);
    fd = open("link-out", O_WRONLY);
    report("open(link to outside, O_WRONLY)", fd);
    unlink("link-out"), unlink("inside");
    return 0;
}
