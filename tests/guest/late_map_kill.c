/* A child that maps a file MAP_SHARED after the fork, writes through the mapping and is killed
 * by SIGKILL: its writes are in the file, as on Linux, where the mapping is the file's page
 * cache (docs/sandbox.md §15 "Shared memory"). One case per argument, DIR the directory the
 * file DIR/late_map_kill is made in:
 *   one DIR      a child with one thread, in pause(), killed by its parent
 *   threads DIR  a child whose second thread waits on a condition variable, main in pause()
 *   sibling DIR  the same as one, killed by a sibling's kill(child, SIGKILL) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static int up[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

static void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) pthread_cond_wait(&never, &lock);
    return NULL;
}

/* the child: maps the file, writes "child" at 2 and "late" at 4100 (the second page), says so */
static void child(const char *path, int threads) {
    int fd = open(path, O_RDWR);
    char *p = fd < 0 ? MAP_FAILED : mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) _exit(70);
    if (threads) {
        pthread_t t;
        pthread_create(&t, NULL, waiter, NULL);
    }
    memcpy(p + 2, "child", 5);
    memcpy(p + 4100, "late", 4);
    if (write(up[1], "x", 1) != 1) _exit(71);
    for (;;) pause();
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    const char *which = argv[1];
    char path[4096];
    snprintf(path, sizeof path, "%s/late_map_kill", argv[2]);
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    if (fd < 0 || ftruncate(fd, 8192) != 0) return 80;
    if (pipe(up)) return 81;
    pid_t c = fork();
    if (c == 0) child(path, !strcmp(which, "threads"));
    char x;
    if (read(up[0], &x, 1) != 1) return 82;
    if (!strcmp(which, "sibling")) {
        pid_t s = fork();
        if (s == 0) _exit(kill(c, SIGKILL) == 0 ? 0 : 1);
        waitpid(s, NULL, 0);
    } else kill(c, SIGKILL);
    int st;
    waitpid(c, &st, 0);
    if (WIFSIGNALED(st)) printf("child killed by signal %d\n", WTERMSIG(st));
    else printf("child exit %d\n", WEXITSTATUS(st));
    char buf[8];
    memset(buf, 0, sizeof buf);
    ssize_t n = pread(fd, buf, 5, 2);
    printf("file at 2: '%.*s'\n", (int)(n > 0 ? n : 0), buf);
    n = pread(fd, buf, 4, 4100);
    printf("file at 4100: '%.*s'\n", (int)(n > 0 ? n : 0), buf);
    unlink(path);
    return 0;
}
