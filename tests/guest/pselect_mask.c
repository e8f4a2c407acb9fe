/* pselect and ppoll with a signal mask, as GNU make -j waits for a job token: SIGCHLD
 * blocked except during the wait, a child ends meanwhile; the wait ends with EINTR and the
 * handler runs, and SIGCHLD is blocked again afterwards. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t handled;
static void on_child(int sig) { (void)sig, handled++; }

static void one(int use_ppoll, int token_read_end) {
    handled = 0;
    pid_t pid = fork();
    if (pid == 0) _exit(7);
    sigset_t during;
    sigemptyset(&during);
    int r;
    if (use_ppoll) {
        struct pollfd p = {token_read_end, POLLIN, 0};
        r = ppoll(&p, 1, NULL, &during);
    } else {
        fd_set rd;
        FD_ZERO(&rd);
        FD_SET(token_read_end, &rd);
        r = pselect(token_read_end + 1, &rd, NULL, NULL, NULL, &during);
    }
    int err = errno;
    sigset_t now;
    sigprocmask(SIG_BLOCK, NULL, &now);
    int status = 0;
    waitpid(pid, &status, 0);
    printf("%s: %d (%s), handler ran %d, SIGCHLD blocked again: %s, child status %d\n", use_ppoll ? "ppoll" : "pselect",
           r, r < 0 ? strerror(err) : "ready", (int)handled, sigismember(&now, SIGCHLD) ? "yes" : "no",
           WEXITSTATUS(status));
}

int main(void) {
    int token[2];
    if (pipe(token)) return 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_child;
    sigaction(SIGCHLD, &sa, NULL);
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGCHLD);
    sigprocmask(SIG_BLOCK, &block, NULL);
    one(0, token[0]);
    one(1, token[0]);
    /* a token there: ready at once, no signal pending */
    if (write(token[1], "+", 1) != 1) return 1;
    fd_set rd;
    FD_ZERO(&rd);
    FD_SET(token[0], &rd);
    sigset_t during;
    sigemptyset(&during);
    struct timespec zero = {0, 0};
    printf("pselect with a token: %d\n", pselect(token[0] + 1, &rd, NULL, NULL, &zero, &during));
    return 0;
}
