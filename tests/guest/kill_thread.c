#define _GNU_SOURCE
/* kill and tgkill naming a thread of another process (Linux: kill of a thread id signals that
 * thread's process; tgkill needs the id to be a thread of that process). A child makes a
 * second thread, which tells the parent its tid through a pipe; every signal is blocked but
 * where each thread waits: main in sigsuspend lets SIGUSR1 through, the thread SIGUSR2. The
 * parent sends SIGUSR1 by kill(tid) and SIGUSR2 by tgkill(child, tid); the child exits with
 * 30 + 1 (main's handler ran) + 2 (the thread's ran). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t handled;
static int tid_pipe[2];

static void on_signal(int sig) { handled |= sig == SIGUSR1 && gettid() == getpid() ? 1 : sig == SIGUSR2 ? 2 : 4; }

static void *second(void *arg) {
    (void)arg;
    pid_t tid = gettid();
    if (write(tid_pipe[1], &tid, sizeof tid) != sizeof tid) return NULL;
    sigset_t only_usr2;
    sigfillset(&only_usr2);
    sigdelset(&only_usr2, SIGUSR2);
    while (!(handled & 2)) sigsuspend(&only_usr2);
    return NULL;
}

static void report(const char *what, long r) { printf("%-28s %s\n", what, r == 0 ? "0" : strerror(errno)); }

int main(void) {
    if (pipe(tid_pipe)) return 99;
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        sigset_t both;
        sigemptyset(&both);
        sigaddset(&both, SIGUSR1), sigaddset(&both, SIGUSR2);
        sigprocmask(SIG_BLOCK, &both, NULL);
        signal(SIGUSR1, on_signal), signal(SIGUSR2, on_signal);
        pthread_t t;
        pthread_create(&t, NULL, second, NULL);
        sigset_t only_usr1;
        sigfillset(&only_usr1);
        sigdelset(&only_usr1, SIGUSR1);
        while (!(handled & 1)) sigsuspend(&only_usr1);
        pthread_join(t, NULL);
        _exit(30 + handled);
    }
    pid_t tid;
    if (read(tid_pipe[0], &tid, sizeof tid) != sizeof tid) return 98;
    report("kill(tid, 0)", kill(tid, 0));
    report("tgkill(self, tid, 0)", syscall(SYS_tgkill, getpid(), tid, 0));
    report("tgkill(child, tid, 0)", syscall(SYS_tgkill, child, tid, 0));
    report("kill(tid, SIGUSR1)", kill(tid, SIGUSR1));
    report("tgkill(child, tid, SIGUSR2)", syscall(SYS_tgkill, child, tid, SIGUSR2));
    int status;
    if (waitpid(child, &status, 0) != child) return 97;
    printf("child %s %d\n", WIFEXITED(status) ? "exit" : "signal",
           WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    report("kill(tid) of the reaped", kill(tid, 0));
    return 0;
}
