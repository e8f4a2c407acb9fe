/* /dev/null opened for writing, as programs do without asking for a writable directory:
 * gawk reopens its spent stdin on /dev/null read-write, shells and tools send output there.
 *   dev_null sink     the opens, writes and reads, compared with qemu-riscv64
 *   dev_null others   /dev/zero and /dev/full for writing: still writes outside --allow-write */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void show(const char *what, long r) {
    printf("%-44s %ld%s%s\n", what, r, r < 0 ? " " : "", r < 0 ? strerror(errno) : "");
}

static int sink(void) {
    char buf[8];
    int fd = open("/dev/null", O_RDWR);
    show("open /dev/null O_RDWR", fd >= 0);
    show("write 5 bytes", write(fd, "hello", 5));
    show("read", read(fd, buf, sizeof buf));
    show("dup2 onto stdin (gawk at the end of its input)", dup2(fd, 0));
    show("read stdin", read(0, buf, sizeof buf));
    show("close", close(fd));
    fd = open("/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644); /* a shell's `> /dev/null` */
    show("open /dev/null O_WRONLY|O_CREAT|O_TRUNC", fd >= 0);
    show("write 3 bytes", write(fd, "abc", 3));
    close(fd);
    errno = 0;
    show("open /dev/null O_CREAT|O_EXCL", open("/dev/null", O_WRONLY | O_CREAT | O_EXCL, 0644));
    errno = 0;
    show("open /dev/null O_DIRECTORY", open("/dev/null", O_RDWR | O_DIRECTORY));
    int dev = open("/dev", O_RDONLY | O_DIRECTORY);
    fd = openat(dev, "./null", O_WRONLY | O_APPEND);
    show("openat(/dev, ./null) O_WRONLY|O_APPEND", fd >= 0);
    show("write 1 byte", write(fd, "x", 1));
    FILE *f = fopen("/dev/../dev/null", "a");
    show("fopen /dev/../dev/null \"a\"", f != NULL);
    show("fprintf", fprintf(f, "%d\n", 12345));
    show("fclose", fclose(f));
    return 0;
}

static int others(void) {
    show("open /dev/zero O_WRONLY", open("/dev/zero", O_WRONLY));
    show("open /dev/full O_RDWR", open("/dev/full", O_RDWR));
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && !strcmp(argv[1], "sink")) return sink();
    if (argc == 2 && !strcmp(argv[1], "others")) return others();
    fprintf(stderr, "usage: dev_null sink|others\n");
    return 2;
}
