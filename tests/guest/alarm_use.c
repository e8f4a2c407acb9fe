/* setitimer(ITIMER_REAL)/alarm on the guest's clock (ENOSYS before: alarm() never fired).
 *   alarm_use query     arm, read back (getitimer, alarm's return), cancel: exit 0
 *   alarm_use kill      a 20 ms timer then a busy loop: killed by SIGALRM (142)
 *   alarm_use sleep     alarm(1) then sleep(5): killed during the sleep (142)
 *   alarm_use pause     alarm(1) then pause(): killed (142)
 *   alarm_use ignored   SIGALRM ignored, a 10 ms interval timer, sleep(1): exit 0
 *   alarm_use blocked   SIGALRM blocked, alarm(1), sleep(2), pending, unblock: killed (142)
 *   alarm_use long      SIGALRM ignored, a 1 µs interval timer, an 11-day sleep: exit 0
 *                       (not compared: qemu would sleep the 11 days)
 *   alarm_use handler   a handler for SIGALRM, alarm(1), pause(): the handler runs, pause()
 *                       returns -1 (EINTR)
 *   alarm_use sigwait   SIGALRM blocked, a 20 ms timer, sigtimedwait with no time (EAGAIN),
 *                       then sigwaitinfo: SIGALRM from the kernel (SI_KERNEL), exit 0
 * Times printed are coarse (whole seconds) so that qemu's host clock agrees. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms;
static void on_alarm(int sig) { alarms += sig == SIGALRM; }

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "query";
    setvbuf(stdout, NULL, _IONBF, 0);
    if (!strcmp(mode, "query")) {
        printf("alarm(0) first: %u\n", alarm(0));
        printf("alarm(7): %u\n", alarm(7));
        printf("alarm(3) after 7: %u\n", alarm(3)); /* 7, rounded as glibc rounds */
        struct itimerval it;
        printf("getitimer: %d\n", getitimer(ITIMER_REAL, &it));
        printf("remaining in (2, 3] s: %d, interval %ld.%06ld\n",
               it.it_value.tv_sec * 1000000 + it.it_value.tv_usec > 2000000 &&
                   it.it_value.tv_sec * 1000000 + it.it_value.tv_usec <= 3000000,
               (long)it.it_interval.tv_sec, (long)it.it_interval.tv_usec);
        printf("alarm(0) cancels: %u\n", alarm(0));
        printf("getitimer: %d\n", getitimer(ITIMER_REAL, &it));
        printf("disarmed: %ld %ld\n", (long)it.it_value.tv_sec, (long)it.it_value.tv_usec);
        struct itimerval set = {{0, 250000}, {5, 0}}, old;
        printf("setitimer interval: %d\n", setitimer(ITIMER_REAL, &set, &old));
        printf("old disarmed: %ld %ld\n", (long)old.it_value.tv_sec, (long)old.it_value.tv_usec);
        set = (struct itimerval){{0, 0}, {0, 0}};
        printf("cancel: %d\n", setitimer(ITIMER_REAL, &set, &old));
        printf("old interval %ld.%06ld, value in (4, 5] s: %d\n", (long)old.it_interval.tv_sec,
               (long)old.it_interval.tv_usec,
               old.it_value.tv_sec * 1000000 + old.it_value.tv_usec > 4000000 &&
                   old.it_value.tv_sec * 1000000 + old.it_value.tv_usec <= 5000000);
        set.it_value.tv_usec = 1000000;
        printf("bad usec: %d %s\n", setitimer(ITIMER_REAL, &set, NULL), strerror(errno));
        printf("bad which: %d %s\n", setitimer(7, &set, NULL), strerror(errno));
        printf("bad address: %d %s\n", getitimer(ITIMER_REAL, (struct itimerval *)8), strerror(errno));
        return 0;
    }
    if (!strcmp(mode, "kill")) {
        struct itimerval limit = {{0, 0}, {0, 20000}};
        setitimer(ITIMER_REAL, &limit, NULL);
        struct timespec t0, t;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (;;) { /* a benchmark's time limit */
            clock_gettime(CLOCK_MONOTONIC, &t);
            if (t.tv_sec - t0.tv_sec > 3) break;
        }
        printf("not killed\n");
        return 0;
    }
    if (!strcmp(mode, "sleep")) {
        alarm(1);
        printf("sleeping\n");
        sleep(5);
        printf("not killed\n");
        return 0;
    }
    if (!strcmp(mode, "pause")) {
        alarm(1);
        printf("pausing\n");
        pause();
        printf("not killed\n");
        return 0;
    }
    if (!strcmp(mode, "ignored")) {
        signal(SIGALRM, SIG_IGN);
        struct itimerval set = {{0, 10000}, {0, 10000}};
        setitimer(ITIMER_REAL, &set, NULL);
        printf("sleep left: %u\n", sleep(1));
        return 0;
    }
    if (!strcmp(mode, "blocked")) {
        sigset_t s, pending;
        sigemptyset(&s);
        sigaddset(&s, SIGALRM);
        sigprocmask(SIG_BLOCK, &s, NULL);
        alarm(1);
        printf("sleep left: %u\n", sleep(2));
        sigpending(&pending);
        printf("pending: %d\n", sigismember(&pending, SIGALRM));
        sigprocmask(SIG_UNBLOCK, &s, NULL);
        printf("not killed\n");
        return 0;
    }
    if (!strcmp(mode, "long")) {
        signal(SIGALRM, SIG_IGN);
        struct itimerval set = {{0, 1}, {0, 1}};
        setitimer(ITIMER_REAL, &set, NULL);
        struct timespec nap = {1000000, 0};
        printf("nanosleep: %d\n", nanosleep(&nap, NULL));
        return 0;
    }
    if (!strcmp(mode, "sigwait")) {
        sigset_t s;
        sigemptyset(&s);
        sigaddset(&s, SIGALRM);
        sigprocmask(SIG_BLOCK, &s, NULL);
        struct itimerval set = {{0, 0}, {0, 20000}};
        setitimer(ITIMER_REAL, &set, NULL);
        struct timespec zero = {0, 0};
        siginfo_t info;
        int r = sigtimedwait(&s, &info, &zero);
        printf("sigtimedwait, no time: %d (%s)\n", r, r < 0 ? strerror(errno) : "a signal");
        r = sigwaitinfo(&s, &info);
        printf("sigwaitinfo: %s, si_code SI_KERNEL %s\n", r == SIGALRM ? "SIGALRM" : "another",
               info.si_code == SI_KERNEL ? "yes" : "no");
        return 0;
    }
    if (!strcmp(mode, "handler")) {
        signal(SIGALRM, on_alarm);
        alarm(1);
        pause();
        printf("alarms seen: %d\n", (int)alarms);
        return 0;
    }
    return 2;
}
