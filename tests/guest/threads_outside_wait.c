/* A thread waits for a pipe only another process writes — in read(), poll() and epoll_wait()
 * with no timeout, then poll() and epoll_wait() with a 30 s one — while the main thread is the
 * one that makes that process write: it sleeps, then sends a line to an echo child, whose
 * answer ends the wait. On Linux the waiting thread blocks alone; cyclescope's host wait for the
 * pipe held every thread, so the main thread never sent the line and the run hung (Go's
 * exec.CommandContext test: the netpoller waited for a killed child's pipes while the Wait
 * goroutine could not run), and a timed wait jumped the guest's clock past its timeout at
 * once, before the child answered. Last, the main thread alone polls for the echo with a 30 s
 * timeout (it timed out at once), and receives from a child's socketpair end with a 30 s
 * SO_RCVTIMEO (EAGAIN at once). */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { BY_READ, BY_POLL, BY_EPOLL, BY_POLL_TIMED, BY_EPOLL_TIMED, WAYS };
static const char *const way_name[WAYS] = {"read", "poll", "epoll_wait", "poll 30 s", "epoll_wait 30 s"};

struct waiter {
    int fd, way;
    char got[64];
    ssize_t n;
};

static void *wait_and_read(void *arg) {
    struct waiter *w = arg;
    int timeout = w->way == BY_POLL_TIMED || w->way == BY_EPOLL_TIMED ? 30000 : -1;
    if (w->way == BY_POLL || w->way == BY_POLL_TIMED) {
        struct pollfd p = {.fd = w->fd, .events = POLLIN};
        if (poll(&p, 1, timeout) != 1) return NULL;
    } else if (w->way == BY_EPOLL || w->way == BY_EPOLL_TIMED) {
        int ep = epoll_create1(EPOLL_CLOEXEC);
        struct epoll_event ev = {.events = EPOLLIN}, out;
        if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, w->fd, &ev) || epoll_wait(ep, &out, 1, timeout) != 1) return NULL;
        close(ep);
    }
    w->n = read(w->fd, w->got, sizeof w->got - 1);
    return NULL;
}

/* a child that copies what it reads from `from` to `to` until its end */
static pid_t start_echo(int *to_child, int *from_child) {
    int in[2], out[2];
    if (pipe(in) || pipe(out)) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(in[1]);
        close(out[0]);
        char buf[64];
        ssize_t n;
        while ((n = read(in[0], buf, sizeof buf)) > 0)
            if (write(out[1], buf, (size_t)n) != n) _exit(3);
        _exit(0);
    }
    close(in[0]);
    close(out[1]);
    *to_child = in[1];
    *from_child = out[0];
    return pid;
}

int main(void) {
    for (int way = 0; way < WAYS; way++) {
        int to_child, from_child;
        pid_t echo = start_echo(&to_child, &from_child);
        if (echo < 0) return 1;
        struct waiter w = {.fd = from_child, .way = way, .n = -1};
        pthread_t t;
        if (pthread_create(&t, NULL, wait_and_read, &w)) return 2;
        struct timespec pause = {0, 20 * 1000 * 1000}; /* the waiter waits by now */
        nanosleep(&pause, NULL);
        char line[32];
        int len = snprintf(line, sizeof line, "line %d\n", way);
        if (write(to_child, line, (size_t)len) != len) return 3;
        pthread_join(t, NULL);
        close(to_child);
        int status = 0;
        if (waitpid(echo, &status, 0) != echo) return 4;
        if (w.n > 0) w.got[w.n] = 0;
        printf("%s: the waiting thread read %zd bytes: %s", way_name[way], w.n, w.n > 0 ? w.got : "(nothing)\n");
        printf("%s: the echo child exited %d\n", way_name[way], WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        close(from_child);
    }
    int to_child, from_child;
    pid_t echo = start_echo(&to_child, &from_child);
    if (echo < 0 || write(to_child, "alone\n", 6) != 6) return 5;
    struct pollfd p = {.fd = from_child, .events = POLLIN};
    int ready = poll(&p, 1, 30000);
    char got[16] = "";
    ssize_t n = ready == 1 ? read(from_child, got, sizeof got - 1) : -1;
    close(to_child);
    waitpid(echo, NULL, 0);
    printf("one thread, poll 30 s: %d ready, read %zd bytes: %s", ready, n, n > 0 ? got : "(nothing)\n");
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) return 6;
    pid_t writer = fork();
    if (writer == 0) {
        close(sv[0]);
        _exit(write(sv[1], "socket\n", 7) == 7 ? 0 : 1);
    }
    close(sv[1]);
    struct timeval limit = {30, 0};
    if (setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit)) return 7;
    memset(got, 0, sizeof got);
    n = recv(sv[0], got, sizeof got - 1, 0);
    waitpid(writer, NULL, 0);
    printf("one thread, recv with SO_RCVTIMEO 30 s: %zd bytes: %s", n, n > 0 ? got : "(nothing)\n");
    return 0;
}
