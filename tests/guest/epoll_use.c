/* epoll as Go's runtime uses it for its netpoller (every Go program that opens a file, starts
 * a timer or runs a child), compared with qemu-riscv64: epoll_create1, epoll_ctl's answers,
 * edge-triggered, level-triggered and one-shot reports with the caller's data, a hang-up, an
 * entry leaving with its file's close, timeouts, the signal mask of epoll_pwait, and a thread
 * waiting without a timeout until another writes to a pipe (Go's netpollBreak).
 * `forever`: a single thread waits on a pipe only it could write to. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

static void said(const char *what, int r) {
    printf("%s: %d%s%s\n", what, r, r < 0 ? " " : "", r < 0 ? strerror(errno) : "");
}

/* one epoll_wait, its events printed in order */
static void wait_and_show(const char *what, int epfd, int timeout_ms) {
    struct epoll_event ev[8];
    int n = epoll_wait(epfd, ev, 8, timeout_ms);
    printf("%s: %d", what, n);
    if (n < 0) printf(" %s", strerror(errno));
    for (int i = 0; i < n; i++) printf(" [events 0x%x data 0x%llx]", ev[i].events, (unsigned long long)ev[i].data.u64);
    printf("\n");
}

static int add(int epfd, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev = {.events = events, .data.u64 = data};
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

static int break_write_end;
static void *break_after_a_while(void *arg) {
    (void)arg;
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
    char b = 'x';
    if (write(break_write_end, &b, 1) != 1) printf("write failed\n");
    return NULL;
}

int main(int argc, char **argv) {
    int p[2];
    if (pipe2(p, O_NONBLOCK | O_CLOEXEC)) return 1;
    if (argc > 1 && strcmp(argv[1], "forever") == 0) {
        int epfd = epoll_create1(0);
        add(epfd, p[0], EPOLLIN, 1);
        wait_and_show("forever", epfd, -1);
        return 0;
    }
    said("epoll_create1(bad flags)", epoll_create1(1));
    int epfd = epoll_create1(EPOLL_CLOEXEC);
    printf("created: %s, FD_CLOEXEC %d\n", epfd >= 0 ? "yes" : strerror(errno), fcntl(epfd, F_GETFD) & FD_CLOEXEC);

    /* epoll_ctl's refusals */
    said("add read end, edge-triggered", add(epfd, p[0], EPOLLIN | EPOLLRDHUP | EPOLLET, 0x1122334455667788ull));
    said("add it again", add(epfd, p[0], EPOLLIN, 2));
    said("add a closed descriptor", add(epfd, 99, EPOLLIN, 3));
    said("add to a closed instance", add(98, p[0], EPOLLIN, 3));
    said("add to a pipe, not an instance", add(p[1], p[0], EPOLLIN, 3));
    said("add the instance to itself", add(epfd, epfd, EPOLLIN, 3));
    int file = open(argv[0], O_RDONLY);
    said("add a regular file", add(epfd, file, EPOLLIN, 3));
    struct epoll_event mod = {.events = EPOLLOUT, .data.u64 = 4};
    said("modify one never added", epoll_ctl(epfd, EPOLL_CTL_MOD, p[1], &mod));
    said("delete one never added", epoll_ctl(epfd, EPOLL_CTL_DEL, p[1], NULL));
    said("an unknown operation", epoll_ctl(epfd, 9, p[0], &mod));
    said("event at a bad address", epoll_ctl(epfd, EPOLL_CTL_MOD, p[0], (struct epoll_event *)16));
    struct epoll_event ev[1];
    said("maxevents 0", epoll_wait(epfd, ev, 0, 0));
    said("wait on a pipe", epoll_wait(p[0], ev, 1, 0));
    said("wait on a closed descriptor", epoll_wait(97, ev, 1, 0));

    /* edge-triggered: a report when data comes, none while nothing new came */
    wait_and_show("empty pipe", epfd, 0);
    if (write(p[1], "ab", 2) != 2) return 1;
    wait_and_show("after a write", epfd, 0);
    wait_and_show("nothing new", epfd, 0);
    if (write(p[1], "c", 1) != 1) return 1;
    wait_and_show("after another write", epfd, 5);
    char buf[8];
    printf("read %zd\n", read(p[0], buf, sizeof buf));

    /* level-triggered: the write end is writable every time asked */
    said("add write end, level-triggered", add(epfd, p[1], EPOLLOUT, 0xabc));
    wait_and_show("writable", epfd, 0);
    wait_and_show("still writable", epfd, 0);
    /* one-shot: reported once, then again after EPOLL_CTL_MOD re-arms it */
    mod = (struct epoll_event){.events = EPOLLOUT | EPOLLONESHOT, .data.u64 = 0xdef};
    said("modify write end to one-shot", epoll_ctl(epfd, EPOLL_CTL_MOD, p[1], &mod));
    wait_and_show("one-shot", epfd, 0);
    wait_and_show("one-shot spent", epfd, 0);
    said("re-arm", epoll_ctl(epfd, EPOLL_CTL_MOD, p[1], &mod));
    wait_and_show("re-armed", epfd, 0);

    /* a timeout with nothing ready; epoll_pwait with a signal mask */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    wait_and_show("10 ms timeout", epfd, 10);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    printf("at least 10 ms passed: %s\n", ms >= 10 ? "yes" : "no");
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGUSR1);
    said("epoll_pwait with a mask", epoll_pwait(epfd, ev, 1, 0, &mask));

    /* the write end closed: the read end hangs up */
    int r2 = dup(p[0]);
    close(p[1]);
    wait_and_show("write end closed", epfd, 0);
    mod = (struct epoll_event){.events = EPOLLIN, .data.u64 = 0x55};
    said("read end to level-triggered", epoll_ctl(epfd, EPOLL_CTL_MOD, p[0], &mod));
    /* an entry leaves with its file's last close, not with a descriptor while a dup lives */
    close(p[0]);
    wait_and_show("read end closed, its dup open", epfd, 0);
    close(r2);
    wait_and_show("read end's last close", epfd, 0);

    /* another thread ends a wait without a timeout (Go's netpollBreak) */
    int q[2];
    if (pipe2(q, O_NONBLOCK | O_CLOEXEC)) return 1;
    break_write_end = q[1];
    said("add break pipe", add(epfd, q[0], EPOLLIN | EPOLLET, 0x77));
    pthread_t th;
    pthread_create(&th, NULL, break_after_a_while, NULL);
    wait_and_show("woken by a thread", epfd, -1);
    pthread_join(th, NULL);
    said("close", close(epfd));
    return 0;
}
