/* rename_swap: exchange two names in a loop, atomically (renameat2 with
 * RENAME_EXCHANGE), until killed or for at most SECONDS: the attacker of the
 * sandbox race test (tests/scripts/sandbox_race.sh).
 *
 *   rename_swap A B SECONDS
 *
 * Prints how many exchanges it made when it stops by itself or on SIGTERM. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static volatile sig_atomic_t stop;

static void on_term(int sig) {
    (void)sig;
    stop = 1;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: rename_swap A B SECONDS\n");
        return 2;
    }
    signal(SIGTERM, on_term);
    double seconds = atof(argv[3]);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    unsigned long swaps = 0;
    while (!stop) {
        if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) != 0) {
            fprintf(stderr, "rename_swap: %s <-> %s: %s\n", argv[1], argv[2], strerror(errno));
            return 1;
        }
        if (++swaps % 256 == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9 > seconds) break;
        }
    }
    printf("swaps %lu\n", swaps);
    return 0;
}
