#define _GNU_SOURCE
/* Signals from a parent to a thread of its child process: tgkill and tkill of the child's
 * second thread reach that thread with si_code SI_TKILL (Linux's do_tkill); kill of the child
 * reaches the process (a thread that does not block it) with SI_USER. The child's main thread
 * waits in pthread_join (for kill blocking the signal, so that the second thread takes it), the
 * second in sigsuspend. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile pid_t handled_in;
static volatile int handled_code, handled_from_parent;
static pid_t parent;

static void on_usr1(int sig, siginfo_t *info, void *context) {
    (void)sig, (void)context;
    handled_in = (pid_t)syscall(SYS_gettid);
    handled_code = info->si_code;
    handled_from_parent = info->si_pid == parent;
}

static int to_parent;

static void *second(void *arg) {
    (void)arg;
    sigset_t usr1, none;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigemptyset(&none);
    pthread_sigmask(SIG_BLOCK, &usr1, NULL); /* until sigsuspend: no signal slips past the test */
    pid_t tid = (pid_t)syscall(SYS_gettid);
    if (write(to_parent, &tid, sizeof tid) != sizeof tid) _exit(9);
    while (!handled_in) sigsuspend(&none); /* until the signal's handler ran */
    return NULL;
}

/* the child: a second thread for the parent to signal; what happened, as the exit status */
static int child(int how) {
    if (how == 'k') { /* kill: main blocks it, the second thread takes it */
        sigset_t usr1;
        sigemptyset(&usr1);
        sigaddset(&usr1, SIGUSR1);
        pthread_sigmask(SIG_BLOCK, &usr1, NULL);
    }
    pthread_t t;
    pthread_create(&t, NULL, second, NULL);
    void *unused;
    pthread_join(t, &unused);
    pid_t second_tid = handled_in;
    printf("  handler in the second thread: %d\n", second_tid != 0 && second_tid != getpid());
    printf("  si_code %s, si_pid the parent's: %d\n",
           handled_code == SI_TKILL      ? "SI_TKILL"
               : handled_code == SI_USER ? "SI_USER"
                                         : "other",
           handled_from_parent);
    fflush(stdout);
    return 0;
}

int main(void) {
    parent = getpid();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_usr1;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGUSR1, &sa, NULL);
    const char *names[] = {"tgkill", "tkill", "kill"};
    for (int round = 0; round < 3; round++) {
        int p[2];
        if (pipe(p) != 0) return 1;
        printf("%s of the child's second thread\n", names[round]);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            close(p[0]);
            to_parent = p[1];
            _exit(child(names[round][0]));
        }
        close(p[1]);
        pid_t tid;
        if (read(p[0], &tid, sizeof tid) != sizeof tid) return 2;
        close(p[0]);
        long r = round == 0 ? syscall(SYS_tgkill, pid, tid, SIGUSR1)
            : round == 1    ? syscall(SYS_tkill, tid, SIGUSR1)
                            : kill(pid, SIGUSR1);
        int status;
        waitpid(pid, &status, 0);
        printf("  sent: %ld; child exit %d\n", r, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    return 0;
}
