/* Prints how its stdout and stderr were opened (fcntl F_GETFL's access mode), then writes
 * through fdopen(1, "wb") as brotli does: glibc's fdopen branches on that access mode, so
 * the instruction count depends on it. A verb that re-runs the program in the runner's
 * pool (whatif --verify, stacks --validate, sweep) must give it the kind of stdout a
 * shell's `> FILE` or `| cmd` does (write-only), or the re-run is another run. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static const char *mode_name(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return "closed";
    switch (flags & O_ACCMODE) {
    case O_WRONLY: return "write-only";
    case O_RDWR: return "read-write";
    default: return "read-only";
    }
}

int main(void) {
    char line[80];
    int n = snprintf(line, sizeof line, "stdout %s, stderr %s\n", mode_name(1), mode_name(2));
    FILE *out = fdopen(STDOUT_FILENO, "wb");
    if (!out) {
        perror("fdopen");
        return 1;
    }
    fwrite(line, 1, (size_t)n, out);
    return fclose(out) == 0 ? 0 : 1;
}
