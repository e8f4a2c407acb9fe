/* An epoll instance two processes share: a descriptor one of them adds (a pipe of its own,
 * made after the fork) and makes ready reaches the other's epoll_wait, with the data it was
 * registered with (docs/sandbox.md §15 "Eventfds"). The adding process stays alive until
 * the waiter reported (an entry leaves the instance with its file's last close). One case
 * per argument:
 *   main     the child adds, the parent's main thread waits without a timeout
 *   thread   the same, a thread of the parent waits while main joins it
 *   exec     the child execs this program, which waits on the inherited instance while the
 *            parent adds (cyclescope only: qemu-riscv64 cannot exec a RISC-V program on a host
 *            without binfmt_misc; the lines are the host kernel's for the x86-64 build) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <unistd.h>

static int ep;

static void report(const char *who) {
    struct epoll_event ev;
    int n = epoll_wait(ep, &ev, 1, -1);
    printf("%s: %d event%s, data %llu, %s\n", who, n, n == 1 ? "" : "s", (unsigned long long)ev.data.u64,
           ev.events & EPOLLIN ? "EPOLLIN" : "no EPOLLIN");
    fflush(stdout);
}

static void *waiter(void *arg) {
    (void)arg;
    report("thread");
    return NULL;
}

/* a pipe of the calling process, registered with `data`, written once the other says go;
 * kept open until it says done */
static void add_and_write(int go, int done, unsigned long long data) {
    int p[2];
    if (pipe(p)) exit(1);
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = data};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev)) perror("epoll_ctl");
    char c;
    if (read(go, &c, 1) != 1 || write(p[1], "y", 1) != 1 || read(done, &c, 1) != 1) exit(1);
}

int main(int argc, char **argv) {
    if (argc > 4 && !strcmp(argv[1], "execd")) { /* the exec'd child: the instance, go, done */
        ep = atoi(argv[2]);
        int go = atoi(argv[3]), done = atoi(argv[4]);
        if (write(go, "g", 1) != 1) return 1;
        report("exec'd child");
        return write(done, "d", 1) == 1 ? 0 : 1;
    }
    const char *which = argc > 1 ? argv[1] : "";
    ep = epoll_create1(0);
    int go[2], done[2];
    if (pipe(go) || pipe(done)) return 1;
    pid_t child = fork();
    if (child == 0) {
        if (!strcmp(which, "exec")) {
            char a[3][16];
            snprintf(a[0], sizeof a[0], "%d", ep);
            snprintf(a[1], sizeof a[1], "%d", go[1]);
            snprintf(a[2], sizeof a[2], "%d", done[1]);
            execl("/proc/self/exe", argv[0], "execd", a[0], a[1], a[2], (char *)NULL);
            perror("execl");
            _exit(127);
        }
        add_and_write(go[0], done[0], 4242);
        _exit(0);
    }
    if (!strcmp(which, "exec")) {
        add_and_write(go[0], done[0], 77);
    } else if (!strcmp(which, "thread")) {
        pthread_t t;
        pthread_create(&t, NULL, waiter, NULL);
        if (write(go[1], "g", 1) != 1) return 1;
        pthread_join(t, NULL);
        if (write(done[1], "d", 1) != 1) return 1;
    } else {
        if (write(go[1], "g", 1) != 1) return 1;
        report("main");
        if (write(done[1], "d", 1) != 1) return 1;
    }
    int status;
    waitpid(child, &status, 0);
    printf("child: exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
