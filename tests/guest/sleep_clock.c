/* A program that sleeps and looks at the clock, as programs with timeouts and rate limits
 * do: the time asked to sleep must pass on its clocks (cyclescope's guest clock runs at 1 ns
 * per instruction; a sleep used to take no time there, so `while (elapsed < 1 s)
 * nanosleep(10 ms)` never ended). Prints only what holds under Linux too. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(clockid_t c) {
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
    time_t a = time(NULL);
    sleep(2);
    time_t b = time(NULL);
    printf("sleep(2): time() moved 2 to 9 s: %s\n", b - a >= 2 && b - a < 10 ? "yes" : "no");
    double m = now(CLOCK_MONOTONIC);
    usleep(250000);
    double d = now(CLOCK_MONOTONIC) - m;
    printf("usleep(250 ms): monotonic moved 0.25 to 5 s: %s\n", d >= 0.25 && d < 5 ? "yes" : "no");
    /* wait for one second to pass, 10 ms at a time */
    double start = now(CLOCK_MONOTONIC);
    int naps = 0;
    while (now(CLOCK_MONOTONIC) - start < 1.0 && naps < 100000) {
        struct timespec nap = {0, 10000000};
        nanosleep(&nap, NULL);
        naps++;
    }
    /* at most 100 naps: each moved the clock by its 10 ms at least; at least 10: the loop ended
       because time passed (a nap that took no time ran it to 100000); under qemu a nap takes as
       long as the host wakes it (17 to 33 naps under `nice -n 19` on a CPU two busy loops share,
       where the bound of 50 failed; cyclescope: 100) */
    printf("a second passed in 10 ms naps: %s\n", naps >= 10 && naps <= 100 ? "yes" : "no");
    /* until an absolute time */
    struct timespec target;
    clock_gettime(CLOCK_MONOTONIC, &target);
    target.tv_nsec += 300000000;
    if (target.tv_nsec >= 1000000000) target.tv_sec++, target.tv_nsec -= 1000000000;
    int r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, NULL);
    double t = (double)target.tv_sec + (double)target.tv_nsec * 1e-9;
    printf("clock_nanosleep until +300 ms: %d, reached: %s\n", r, now(CLOCK_MONOTONIC) >= t ? "yes" : "no");
    struct timespec bad = {0, 1000000000};
    errno = 0;
    printf("nanosleep of 1e9 ns: %d (%s)\n", nanosleep(&bad, NULL), strerror(errno));
    bad.tv_sec = -1, bad.tv_nsec = 0;
    errno = 0;
    printf("nanosleep of -1 s: %d (%s)\n", nanosleep(&bad, NULL), strerror(errno));
    return 0;
}
