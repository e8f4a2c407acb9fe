/* Real-time signals are queued, one entry per send, delivered in order with the value
 * sigqueue carried; a standard signal is pending once (docs/sandbox.md §4, "Signals").
 *   rt_signals wait     sends while blocked, then sigtimedwait takes them one by one
 *   rt_signals handler  an SA_SIGINFO handler sees sigqueue's si_value and SI_QUEUE, and
 *                       three queued sends run it three times once unblocked */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void queue(int sig, int value) {
    union sigval v = {.sival_int = value};
    if (sigqueue(getpid(), sig, v)) printf("sigqueue %d: %s\n", sig, strerror(errno));
}

static const char *name(int sig) {
    static char buf[32];
    if (sig == SIGUSR1) return "SIGUSR1";
    snprintf(buf, sizeof buf, "SIGRTMIN+%d", sig - SIGRTMIN);
    return buf;
}

static int mode_wait(void) {
    sigset_t set, pending;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, SIGRTMIN);
    sigaddset(&set, SIGRTMIN + 1);
    sigprocmask(SIG_BLOCK, &set, NULL);
    queue(SIGRTMIN + 1, 10);
    queue(SIGRTMIN, 20);
    kill(getpid(), SIGUSR1);
    queue(SIGRTMIN, 21);
    queue(SIGRTMIN + 1, 11);
    kill(getpid(), SIGUSR1); /* a standard signal already pending: not queued again */
    queue(SIGRTMIN, 22);
    sigpending(&pending);
    printf("pending: SIGUSR1 %d, SIGRTMIN %d, SIGRTMIN+1 %d\n", sigismember(&pending, SIGUSR1),
           sigismember(&pending, SIGRTMIN), sigismember(&pending, SIGRTMIN + 1));
    struct timespec zero = {0, 0};
    siginfo_t info;
    int sig;
    while ((sig = sigtimedwait(&set, &info, &zero)) > 0)
        printf("%s: si_code %s, value %d\n", name(sig),
               info.si_code == SI_QUEUE      ? "SI_QUEUE"
                   : info.si_code == SI_USER ? "SI_USER"
                                             : "other",
               info.si_code == SI_QUEUE ? info.si_value.sival_int : -1);
    printf("then: %s\n", strerror(errno));
    return 0;
}

static volatile int seen[8], seen_count;
static volatile int seen_code_queue;

static void on_rt(int sig, siginfo_t *info, void *uc) {
    (void)uc;
    (void)sig;
    if (seen_count < 8) seen[seen_count++] = info->si_value.sival_int;
    seen_code_queue += info->si_code == SI_QUEUE;
}

static int mode_handler(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_rt;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGRTMIN + 2, &sa, NULL);
    queue(SIGRTMIN + 2, 42);
    printf("unblocked: handler saw value %d, SI_QUEUE %d\n", seen[0], seen_code_queue);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGRTMIN + 2);
    sigprocmask(SIG_BLOCK, &set, NULL);
    queue(SIGRTMIN + 2, 1);
    queue(SIGRTMIN + 2, 2);
    queue(SIGRTMIN + 2, 3);
    seen_count = 0;
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    printf("three queued while blocked: handler ran %d times, values", seen_count);
    for (int i = 0; i < seen_count; i++) printf(" %d", seen[i]);
    printf("\n");
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1 && !strcmp(argv[1], "wait")) return mode_wait();
    if (argc > 1 && !strcmp(argv[1], "handler")) return mode_handler();
    fprintf(stderr, "usage: rt_signals wait|handler\n");
    return 2;
}
