/* mknodat and setpriority, found by busybox's mkfifo and nice (both were -ENOSYS):
 *   mknod_nice DIR   a FIFO under DIR that a child writes and the parent reads, its type,
 *                    EEXIST, a regular file by mknod, a directory's EPERM and a bad type's
 *                    EINVAL; nice raised by setpriority and nice(3), relative to the nice
 *                    the program started with (a CI runner may run the tests niced).
 * Compared with qemu-riscv64 (no device node, nor a lowered nice: qemu runs as whoever runs
 * the tests, root may do both; the guest of cyclescope is uid 1000, and test
 * exec.mknod_nice.refused checks its EPERM and EACCES). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

static void check(const char *what, long got) {
    printf("%-26s %ld%s%s\n", what, got, got < 0 ? " errno " : "", got < 0 ? strerror(errno) : "");
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    char fifo[4096], file[4096], dev[4096];
    snprintf(fifo, sizeof fifo, "%s/mknod-fifo", argv[1]);
    snprintf(file, sizeof file, "%s/mknod-file", argv[1]);
    snprintf(dev, sizeof dev, "%s/mknod-dev", argv[1]);
    unlink(fifo);
    unlink(file);
    if (argc > 2 && !strcmp(argv[2], "refused")) { /* as an unprivileged process */
        check("mknod char device", mknod(dev, S_IFCHR | 0600, makedev(1, 3)));
        errno = 0;
        int before = getpriority(PRIO_PROCESS, 0);
        check("setpriority raise", setpriority(PRIO_PROCESS, 0, before + 2));
        check("setpriority lower", setpriority(PRIO_PROCESS, 0, before));
        check("setpriority other", setpriority(PRIO_PROCESS, 4242, before + 2));
        return 0;
    }
    check("mkfifo", mkfifo(fifo, 0640));
    struct stat st;
    check("stat fifo", stat(fifo, &st));
    printf("fifo %d mode %o\n", S_ISFIFO(st.st_mode), (unsigned)(st.st_mode & 0777));
    check("mkfifo again", mkfifo(fifo, 0640));
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        int w = open(fifo, O_WRONLY);
        if (w < 0) _exit(3);
        if (write(w, "through the fifo", 16) != 16) _exit(4);
        close(w);
        _exit(0);
    }
    int r = open(fifo, O_RDONLY);
    char buf[64] = {0};
    long got = 0, n;
    while (r >= 0 && (n = read(r, buf + got, sizeof buf - 1 - (size_t)got)) > 0) got += n;
    printf("read %ld [%s]\n", got, buf);
    if (r >= 0) close(r);
    int status = 0;
    waitpid(child, &status, 0);
    printf("writer exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    check("unlink fifo", unlink(fifo));
    check("mknod regular", mknod(file, S_IFREG | 0600, 0));
    check("stat regular", stat(file, &st));
    printf("regular %d size %ld mode %o\n", S_ISREG(st.st_mode), (long)st.st_size, (unsigned)(st.st_mode & 0777));
    check("mknod directory", mknod(file, S_IFDIR | 0700, 0));
    check("mknod bad type", mknod(file, 0170000 | 0600, 0));
    check("unlink regular", unlink(file));
    errno = 0;
    int before = getpriority(PRIO_PROCESS, 0);
    check("setpriority +3", setpriority(PRIO_PROCESS, 0, before + 3));
    printf("nice now +%d\n", getpriority(PRIO_PROCESS, 0) - before);
    printf("nice(2) now +%d\n", nice(2) - before);
    printf("nice now +%d\n", getpriority(PRIO_PROCESS, 0) - before);
    check("getpriority bad which", getpriority(7, 0));
    check("getpriority other", getpriority(PRIO_PROCESS, 4242));
    return 0;
}
