/* A thread waits for a child that computes (about 20 M instructions: tens of milliseconds)
 * while another thread sleeps 10 ms at a time against a 10-second timeout, after which it would
 * kill the child — Go's exec.CommandContext with its sysmon sleeping beside it. On Linux the
 * child ends first. cyclescope runs the child on the host in real time; a wait that let the
 * guest's clock jump from deadline to deadline while the child ran reached the timeout at once
 * and killed it. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile int reaped;
static pid_t child;
static int killed_it;

static void *watchdog(void *arg) {
    (void)arg;
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (int slept = 0; !reaped; slept += 10) {
        if (slept >= 10000) {
            kill(child, SIGKILL);
            killed_it = 1;
            break;
        }
        nanosleep(&tick, NULL);
    }
    return NULL;
}

int main(void) {
    child = fork();
    if (child == 0) {
        volatile unsigned long x = 1;
        for (long i = 0; i < 5 * 1000 * 1000; i++) x = x * 6364136223846793005ul + 1;
        _exit((int)(x & 1) + 3);
    }
    pthread_t t;
    if (pthread_create(&t, NULL, watchdog, NULL)) return 1;
    int status = 0;
    if (waitpid(child, &status, 0) != child) return 2;
    reaped = 1;
    pthread_join(t, NULL);
    if (WIFEXITED(status)) printf("the child exited %d, the watchdog killed it: %d\n", WEXITSTATUS(status), killed_it);
    else printf("the child died of signal %d, the watchdog killed it: %d\n", WTERMSIG(status), killed_it);
    return 0;
}
