/* An eventfd open at a fork is the child's and the parent's (docs/sandbox.md §15): a blocking
 * read waits for the other process' write, as on Linux. One case per argument:
 *   child_reads  the child reads; the parent writes 5 after computing a while
 *   thread       a second thread of the parent reads; the child writes 7 once main tells it
 *                through a pipe, and main then joins the reader (every thread of the parent waits)
 *   counter      the child adds 1 three times (EFD_SEMAPHORE): the parent's three reads get 1
 *   epoll        the parent's epoll_wait without a timeout on an instance made before the fork,
 *                the eventfd registered: the child's write makes it ready
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

static int efd, go[2];
static uint64_t got;

static pid_t fork_flushed(void) {
    fflush(stdout);
    return fork();
}

static void status(pid_t c) {
    int st;
    waitpid(c, &st, 0);
    printf("child exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

static volatile unsigned long sink;
static void compute(void) { /* a while, so that the other process waits first */
    for (unsigned long i = 0; i < 20000000ul; i++) sink += i;
}

static int case_child_reads(void) {
    pid_t c = fork_flushed();
    if (c == 0) {
        uint64_t v = 0;
        ssize_t n = read(efd, &v, sizeof v);
        printf("child read %zd: %llu\n", n, (unsigned long long)v);
        _exit(0);
    }
    compute();
    uint64_t five = 5;
    if (write(efd, &five, sizeof five) != sizeof five) return 91;
    status(c);
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    if (read(efd, &got, sizeof got) != sizeof got) got = 999;
    return NULL;
}

static int case_thread(void) {
    if (pipe(go)) return 90;
    pid_t c = fork_flushed();
    if (c == 0) {
        char g;
        if (read(go[0], &g, 1) != 1) _exit(92);
        compute();
        uint64_t seven = 7;
        _exit(write(efd, &seven, sizeof seven) == sizeof seven ? 0 : 93);
    }
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    if (write(go[1], "g", 1) != 1) return 94;
    pthread_join(t, NULL);
    printf("reader thread got %llu\n", (unsigned long long)got);
    status(c);
    return 0;
}

static int case_counter(void) {
    pid_t c = fork_flushed();
    if (c == 0) {
        compute();
        uint64_t one = 1;
        for (int i = 0; i < 3; i++)
            if (write(efd, &one, sizeof one) != sizeof one) _exit(95);
        _exit(0);
    }
    for (int i = 0; i < 3; i++) {
        uint64_t v = 0;
        ssize_t n = read(efd, &v, sizeof v);
        printf("read %zd: %llu\n", n, (unsigned long long)v);
    }
    status(c);
    return 0;
}

static int case_epoll(void) {
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 42};
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev)) return 90;
    pid_t c = fork_flushed();
    if (c == 0) {
        compute();
        uint64_t three = 3;
        _exit(write(efd, &three, sizeof three) == sizeof three ? 0 : 96);
    }
    struct epoll_event out[4];
    int n = epoll_wait(ep, out, 4, -1);
    printf("epoll_wait: %d, data %llu, EPOLLIN %d\n", n, n > 0 ? (unsigned long long)out[0].data.u64 : 0ull,
           n > 0 && (out[0].events & EPOLLIN) != 0);
    uint64_t v = 0;
    printf("read %zd: %llu\n", read(efd, &v, sizeof v), (unsigned long long)v);
    status(c);
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *c = argc > 1 ? argv[1] : "";
    efd = eventfd(0, !strcmp(c, "counter") ? EFD_SEMAPHORE : 0);
    if (efd < 0) return 89;
    if (!strcmp(c, "child_reads")) return case_child_reads();
    if (!strcmp(c, "thread")) return case_thread();
    if (!strcmp(c, "counter")) return case_counter();
    if (!strcmp(c, "epoll")) return case_epoll();
    fprintf(stderr, "threads_eventfd_fork: unknown case '%s'\n", c);
    return 2;
}
