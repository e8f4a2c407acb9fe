/* clock_gettime, clock_getres and clock_nanosleep on each clock id: Linux's answer (0 or
 * EINVAL, EOPNOTSUPP) for known, removed (10), unknown (12) and CPU-clock (negative) ids. cyclescope
 * read its guest clock for any id before (found by the 2026-11-28 hunt). Only the answers
 * are printed: the times are the guest's. The alarm clocks (8, 9) depend on the host's RTC. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(void) {
    /* a pid in a CPU clock id must be this process: ids naming another pid (-14: pid 1) are
     * left out, their answer is the host's */
    static const int ids[] = {0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 100, -1, -2, -3, -6, -7};
    for (unsigned i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        struct timespec t, res;
        int got = clock_gettime(ids[i], &t) ? errno : 0;
        int gres = clock_getres(ids[i], &res) ? errno : 0;
        printf("clock %4d: gettime %s, getres %s\n", ids[i], got ? strerror(got) : "ok", gres ? strerror(gres) : "ok");
    }
    /* clock_nanosleep returns the error; not on the process's CPU clocks (2, -6, -7): with
     * one thread its CPU time does not pass while it sleeps (Linux and qemu never return) */
    static const int sleep_ids[] = {0, 1, 3, 4, 5, 6, 7, 10, 11, 12, 100, -1, -2, -3};
    for (unsigned i = 0; i < sizeof sleep_ids / sizeof sleep_ids[0]; i++) {
        struct timespec nap = {0, 1000};
        int r = clock_nanosleep(sleep_ids[i], 0, &nap, NULL);
        printf("clock %4d: nanosleep %s\n", sleep_ids[i], r ? strerror(r) : "ok");
    }
    return 0;
}
