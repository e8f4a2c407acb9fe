/* A signal for a thread that another's quantum preempted: its handler runs when the thread
 * next takes the hart, and the handler's first system call runs once. (cyclescope ran it
 * twice, the second time with the first's result in a0, when the switch came at the end of
 * a quantum: a write of 1 byte to stdout wrote it twice, Go's futex wake in its signal
 * handler returned EINVAL and the Go runtime crashed.) */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t handled, stop;
static volatile long spins;

static void on_usr1(int sig) {
    (void)sig;
    if (write(1, "h", 1) != 1) _exit(3); /* the first ecall the handler makes */
    handled = 1;
}

static void *spin(void *arg) {
    (void)arg;
    while (!stop) spins++; /* no system call: only a quantum's end switches away */
    return NULL;
}

int main(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &sa, NULL);
    for (int round = 0; round < 3; round++) {
        handled = stop = 0;
        pthread_t t;
        pthread_create(&t, NULL, spin, NULL);
        while (spins == 0) { /* the thread runs: it was switched to and will be switched away */
        }
        pthread_kill(t, SIGUSR1);
        while (!handled) { /* no system call either until the handler ran */
        }
        stop = 1;
        pthread_join(t, NULL);
        spins = 0;
        if (write(1, "\n", 1) != 1) return 3;
    }
    printf("done\n");
    return 0;
}
