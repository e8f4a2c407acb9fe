#define _GNU_SOURCE
/* A real-time signal sent twice to a child process by two other processes (its parent and a
 * sibling) is queued twice, each copy with its own sender's pid (Linux's sigqueue per send);
 * a standard one sent twice is pending once, with the first sender's. Round 1 sends to the
 * child's second thread (the sibling by tgkill, the parent by tkill: SI_TKILL), round 2 to
 * the child process (kill: SI_USER). The second thread, every signal blocked, takes what is
 * pending with sigtimedwait (no wait) once both senders are done. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int to_parent, from_parent;

static const char *code_name(int code) { return code == SI_TKILL ? "SI_TKILL" : code == SI_USER ? "SI_USER" : "other"; }

static void *second(void *arg) {
    (void)arg;
    pid_t tid = (pid_t)syscall(SYS_gettid);
    if (write(to_parent, &tid, sizeof tid) != sizeof tid) _exit(9);
    pid_t senders[2]; /* the sibling's, the parent's */
    if (read(from_parent, senders, sizeof senders) != sizeof senders) _exit(9);
    sigset_t both;
    sigemptyset(&both);
    sigaddset(&both, SIGUSR1);
    sigaddset(&both, SIGRTMIN);
    struct timespec now = {0, 0};
    siginfo_t info;
    int sig;
    while ((sig = sigtimedwait(&both, &info, &now)) > 0)
        printf("  %s from the %s, %s\n", sig == SIGUSR1 ? "SIGUSR1" : "SIGRTMIN",
               info.si_pid == senders[0]       ? "sibling"
                   : info.si_pid == senders[1] ? "parent"
                                               : "other",
               code_name(info.si_code));
    printf("  then nothing pending\n");
    fflush(stdout);
    return NULL;
}

static int child(void) {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* the second thread inherits it */
    pthread_t t;
    pthread_create(&t, NULL, second, NULL);
    void *unused;
    pthread_join(t, &unused);
    return 0;
}

/* Send SIGUSR1 and SIGRTMIN to thread `tid` of `pid` (0: to the process `pid`). */
static void send_both(pid_t pid, pid_t tid, int by_tkill) {
    for (int k = 0; k < 2; k++) {
        int sig = k == 0 ? SIGUSR1 : SIGRTMIN;
        long r = !tid ? kill(pid, sig) : by_tkill ? syscall(SYS_tkill, tid, sig) : syscall(SYS_tgkill, pid, tid, sig);
        if (r != 0) _exit(7);
    }
}

int main(void) {
    const char *rounds[] = {"to the child's second thread (tgkill, tkill)", "to the child process (kill)"};
    for (int round = 0; round < 2; round++) {
        int up[2], down[2];
        if (pipe(up) != 0 || pipe(down) != 0) return 1;
        printf("%s\n", rounds[round]);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            close(up[0]);
            close(down[1]);
            to_parent = up[1];
            from_parent = down[0];
            _exit(child());
        }
        close(up[1]);
        close(down[0]);
        pid_t tid;
        if (read(up[0], &tid, sizeof tid) != sizeof tid) return 2;
        kill(pid, SIGSTOP); /* both senders' signals are pending at once, whatever the timing */
        pid_t sibling = fork();
        if (sibling == 0) {
            send_both(pid, round == 0 ? tid : 0, 0);
            _exit(0);
        }
        int sibling_status, status;
        waitpid(sibling, &sibling_status, 0);
        send_both(pid, round == 0 ? tid : 0, 1);
        kill(pid, SIGCONT);
        pid_t senders[2] = {sibling, getpid()};
        if (write(down[1], senders, sizeof senders) != sizeof senders) return 3;
        waitpid(pid, &status, 0);
        printf("  sibling exit %d, child exit %d\n", WIFEXITED(sibling_status) ? WEXITSTATUS(sibling_status) : -1,
               WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        close(up[0]);
        close(down[1]);
    }
    return 0;
}
