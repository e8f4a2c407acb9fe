/* A descriptor open for writing on /proc/self/comm, kept across execve, renames the new
 * program's main thread (fs/proc/base.c comm_write on the same process), as before the exec
 * (docs/sandbox.md §4). The program execs itself: comm_exec_fd, then comm_exec_fd after FD. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void show(const char *what) {
    char name[32] = {0};
    int fd = open("/proc/self/comm", O_RDONLY);
    if (fd < 0 || read(fd, name, sizeof name - 1) < 0) strcpy(name, "?\n");
    if (fd >= 0) close(fd);
    printf("%s: %s", what, name);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 2 && !strcmp(argv[1], "after")) {
        int fd = atoi(argv[2]);
        show("after exec");
        printf("write: %zd\n", write(fd, "renamed\n", 8));
        show("now");
        printf("write of a long name: %zd\n", write(fd, "a-name-longer-than-fifteen", 26));
        show("now");
        return 0;
    }
    int fd = open("/proc/self/comm", O_WRONLY);
    if (fd < 0) {
        perror("open");
        return 1;
    }
    printf("write: %zd\n", write(fd, "first", 5));
    show("before exec");
    char num[16];
    snprintf(num, sizeof num, "%d", fd);
    execl(argv[0], argv[0], "after", num, (char *)NULL);
    perror("execl");
    return 1;
}
