/* Waits for what only another process can end (docs/sandbox.md §4 "Threads", §15), one case per
 * argument; each prints only what the program's design fixes.
 *
 * One thread (the timed wait on the host, outside_wait_for):
 *   sigchld  poll(30 s) of a pipe a child writes a while after a sibling exited: the sibling's
 *            SIGCHLD, which the parent caught when it forked and now leaves to the default
 *            action, must not end the wait (it ended the real-time wait and the rest of the
 *            timeout passed at once: poll returned 0).
 *   sigchld_blocked  the same with SIGCHLD caught and blocked while it polls.
 *   blocked  the same with a SIGUSR1 the parent blocks, sent by the writer before it writes.
 * Threads (the waiting thread blocks alone; before, these held every thread on the host, so
 * the main thread, which makes the other process answer, never ran and the run hung):
 *   poll_many, poll_many_timed  poll of 12 pipes, one of which an echo child writes.
 *   write_partial  a write of 200 000 bytes to a pipe a child reads only once main says so
 *            (it wrote the first 64 KiB, then waited).
 *   write_signal   the same, and main's pthread_kill interrupts the write: the bytes written
 *                  (the child reads only after the write returned).
 *   socket_recv    a recv of a socketpair end whose other end an echo child holds.
 *   socket_send    a send of 500 000 bytes to a child that reads once main says so.
 *   splice         a splice from a pipe a child writes once main says so. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Real time passing in a child: a guest's sleep passes at once on cyclescope's clock, so
 * the children that must act after the parent waits compute instead (about 0.1 s on
 * qemu-riscv64 and on cyclescope; only the order matters, and on cyclescope before this
 * change the parent did not wait at all). */
static void busy(void) {
    for (volatile long i = 0; i < 20000000; i++) {
    }
}

static void nap_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0) {
    }
}

static void reap(const char *who, pid_t pid) {
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) printf("%s: waitpid failed\n", who);
    else if (WIFEXITED(status)) printf("%s: exit %d\n", who, WEXITSTATUS(status));
    else printf("%s: signal %d\n", who, WTERMSIG(status));
}

/* the child waits for main's byte on `go` (main writes it while another thread waits) */
static void wait_go(int go) {
    char c;
    if (read(go, &c, 1) != 1) _exit(90);
}

static void report_read(const char *call, int r, int fd) {
    char c = '?';
    printf("%s: %d\n", call, r);
    if (r > 0 && read(fd, &c, 1) == 1) printf("read: %c\n", c);
}

static volatile sig_atomic_t sigchld_seen;
static void on_sigchld(int sig) {
    (void)sig;
    sigchld_seen = 1;
}

/* `blocked`: the parent catches SIGCHLD and blocks it while it polls; else it caught SIGCHLD
 * when it forked and takes the default action (nothing) while it polls */
static int case_sigchld(bool blocked) {
    int data[2], gate[2];
    if (pipe(data) || pipe(gate)) return 1;
    struct sigaction sa = {.sa_handler = on_sigchld};
    sigaction(SIGCHLD, &sa, NULL);
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    if (blocked) sigprocmask(SIG_BLOCK, &chld, NULL);
    fflush(stdout);
    pid_t quick = fork();
    if (quick == 0) { /* holds gate's write end: its end is the writer's signal to go on */
        close(data[0]), close(data[1]), close(gate[0]);
        busy(); /* the parent waits in poll by now */
        _exit(4);
    }
    pid_t writer = fork();
    if (writer == 0) {
        close(data[0]), close(gate[1]);
        char c;
        while (read(gate[0], &c, 1) > 0) {
        }
        busy(); /* the parent has had the first child's SIGCHLD by now */
        _exit(write(data[1], "x", 1) == 1 ? 5 : 91);
    }
    close(data[1]), close(gate[0]), close(gate[1]);
    if (!blocked) signal(SIGCHLD, SIG_DFL);
    struct pollfd p = {.fd = data[0], .events = POLLIN};
    report_read("poll", poll(&p, 1, 30000), data[0]);
    reap("first child", quick);
    reap("writer", writer);
    if (blocked) {
        sigset_t pending;
        sigpending(&pending);
        printf("SIGCHLD pending: %d\n", sigismember(&pending, SIGCHLD));
        sigprocmask(SIG_UNBLOCK, &chld, NULL);
        printf("SIGCHLD handled: %d\n", (int)sigchld_seen);
    }
    return 0;
}

static int case_blocked(void) {
    int data[2];
    if (pipe(data)) return 1;
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, NULL);
    fflush(stdout);
    pid_t writer = fork();
    if (writer == 0) {
        close(data[0]);
        busy(); /* the parent waits in poll by now */
        if (kill(getppid(), SIGUSR1)) _exit(92);
        busy();
        _exit(write(data[1], "y", 1) == 1 ? 6 : 93);
    }
    close(data[1]);
    struct pollfd p = {.fd = data[0], .events = POLLIN};
    report_read("poll", poll(&p, 1, 30000), data[0]);
    sigset_t pending;
    sigpending(&pending);
    printf("SIGUSR1 pending: %d\n", sigismember(&pending, SIGUSR1));
    reap("writer", writer);
    return 0;
}

/* ---- threads ---- */

enum { MANY = 12 };
struct poller {
    int fds[MANY];
    int timeout, got, which;
    char c;
};

static void *poll_many(void *arg) {
    struct poller *w = arg;
    struct pollfd p[MANY];
    for (int i = 0; i < MANY; i++) p[i] = (struct pollfd){.fd = w->fds[i], .events = POLLIN};
    w->got = poll(p, MANY, w->timeout);
    for (int i = 0; i < MANY; i++)
        if (p[i].revents & POLLIN) {
            w->which = i;
            if (read(p[i].fd, &w->c, 1) != 1) w->c = '?';
        }
    return NULL;
}

static int case_poll_many(int timeout) {
    int pipes[MANY][2], go[2];
    if (pipe(go)) return 1;
    for (int i = 0; i < MANY; i++)
        if (pipe(pipes[i])) return 1;
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        close(go[1]);
        wait_go(go[0]);
        if (write(pipes[MANY - 2][1], "p", 1) != 1) _exit(94);
        char c; /* every write end stays open (else its pipe polls POLLHUP) until main is done */
        while (read(go[0], &c, 1) > 0) {
        }
        _exit(7);
    }
    struct poller w = {.timeout = timeout, .which = -1};
    for (int i = 0; i < MANY; i++) {
        close(pipes[i][1]);
        w.fds[i] = pipes[i][0];
    }
    pthread_t t;
    if (pthread_create(&t, NULL, poll_many, &w)) return 2;
    nap_ms(20); /* the poller waits by now (it need not: the child writes only after go) */
    if (write(go[1], "g", 1) != 1) return 3;
    pthread_join(t, NULL);
    close(go[1]);
    printf("poll of %d: %d, descriptor %d ready, read %c\n", MANY, w.got, w.which, w.c);
    reap("child", child);
    return 0;
}

struct writer {
    int fd, sock;
    size_t len;
    ssize_t put;
};

static void *write_all(void *arg) {
    struct writer *w = arg;
    char *buf = calloc(1, w->len);
    w->put = w->sock ? send(w->fd, buf, w->len, 0) : write(w->fd, buf, w->len);
    free(buf);
    return NULL;
}

static void on_usr1(int sig) { (void)sig; }

/* a child that counts what it reads from `in` after main's go, until end of file, and sends
 * the count back */
static pid_t start_counter(int in, int go, int back, int *close_too) {
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        close(*close_too);
        wait_go(go);
        char buf[4096];
        long total = 0;
        ssize_t n;
        while ((n = read(in, buf, sizeof buf)) > 0) total += n;
        _exit(write(back, &total, sizeof total) == sizeof total ? 0 : 95);
    }
    return child;
}

static int case_write(bool sock, bool signal_it) {
    int data[2], go[2], back[2];
    if ((sock ? socketpair(AF_UNIX, SOCK_STREAM, 0, data) : pipe(data)) || pipe(go) || pipe(back)) return 1;
    pid_t child = start_counter(data[0], go[0], back[1], &data[1]);
    close(back[1]);
    struct writer w = {.fd = data[1], .sock = sock, .len = sock ? 500000 : 200000};
    if (signal_it) {
        struct sigaction sa = {.sa_handler = on_usr1};
        sigaction(SIGUSR1, &sa, NULL);
    }
    pthread_t t;
    if (pthread_create(&t, NULL, write_all, &w)) return 2;
    nap_ms(20); /* the writer waits by now (it need not: the child reads only after go) */
    if (signal_it) {
        /* the signal must come while the write is under way: once the pipe is full (FIONREAD of
         * its read end, which main still holds); the write then returns what it wrote, and only
         * then may the child read (bytes taken before the writer saw the signal would let it
         * write more) */
        int queued = 0;
        while (ioctl(data[0], FIONREAD, &queued) == 0 && queued < 65536) nap_ms(10);
        pthread_kill(t, SIGUSR1);
        pthread_join(t, NULL);
    }
    if (write(go[1], "g", 1) != 1) return 3;
    if (!signal_it) pthread_join(t, NULL);
    close(data[0]);
    close(data[1]);
    long total = -1;
    if (read(back[0], &total, sizeof total) != sizeof total) total = -1;
    printf("%s of %zu bytes: %zd; the child read %ld\n", sock ? "send" : "write", w.len, w.put, total);
    reap("child", child);
    return 0;
}

struct receiver {
    int fd, splice_to, splice_read; /* splice_to -1: recv */
    ssize_t got;
    char text[32];
};

static void *receive(void *arg) {
    struct receiver *r = arg;
    if (r->splice_to >= 0) {
        r->got = splice(r->fd, NULL, r->splice_to, NULL, sizeof r->text - 1, 0);
        if (r->got > 0 && read(r->splice_read, r->text, (size_t)r->got) != r->got) r->got = -2;
    } else r->got = recv(r->fd, r->text, sizeof r->text - 1, 0);
    return NULL;
}

/* socket_recv: the echo child holds the socket's other end; splice: it writes a pipe */
static int case_receive(bool splicing) {
    int data[2], go[2], out[2];
    if ((splicing ? pipe(data) : socketpair(AF_UNIX, SOCK_STREAM, 0, data)) || pipe(go) || pipe(out)) return 1;
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        close(data[0]);
        wait_go(go[0]);
        const char *text = splicing ? "spliced" : "echoed";
        _exit(write(data[1], text, strlen(text)) == (ssize_t)strlen(text) ? 8 : 96);
    }
    close(data[1]);
    struct receiver r = {.fd = data[0], .splice_to = splicing ? out[1] : -1, .splice_read = out[0]};
    pthread_t t;
    if (pthread_create(&t, NULL, receive, &r)) return 2;
    nap_ms(20);
    if (write(go[1], "g", 1) != 1) return 3;
    pthread_join(t, NULL);
    printf("%s: %zd \"%s\"\n", splicing ? "splice" : "recv", r.got, r.got > 0 ? r.text : "");
    reap("child", child);
    return 0;
}

int main(int argc, char **argv) {
    const char *c = argc > 1 ? argv[1] : "";
    if (!strcmp(c, "sigchld")) return case_sigchld(false);
    if (!strcmp(c, "sigchld_blocked")) return case_sigchld(true);
    if (!strcmp(c, "blocked")) return case_blocked();
    if (!strcmp(c, "poll_many")) return case_poll_many(-1);
    if (!strcmp(c, "poll_many_timed")) return case_poll_many(30000);
    if (!strcmp(c, "write_partial")) return case_write(false, false);
    if (!strcmp(c, "write_signal")) return case_write(false, true);
    if (!strcmp(c, "socket_send")) return case_write(true, false);
    if (!strcmp(c, "socket_recv")) return case_receive(false);
    if (!strcmp(c, "splice")) return case_receive(true);
    fprintf(stderr, "usage: outside_block CASE\n");
    return 99;
}
