/* Timed waits of a single-threaded program: nobody can wake them, so they end when their
 * time runs out, with ETIMEDOUT, as on Linux (a futex wait with a timeout ended the run:
 * "futex wait would block forever"). The clock has moved past the deadline after each. */
#define _GNU_SOURCE /* pthread_cond_clockwait */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static struct timespec in_ms(clockid_t clock, long ms) {
    struct timespec t;
    clock_gettime(clock, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000;
    if (t.tv_nsec >= 1000000000) t.tv_sec++, t.tv_nsec -= 1000000000;
    return t;
}

static const char *passed(clockid_t clock, struct timespec deadline) {
    struct timespec now;
    clock_gettime(clock, &now);
    return now.tv_sec > deadline.tv_sec || (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec)
        ? "deadline passed"
        : "before the deadline";
}

int main(void) {
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t c = PTHREAD_COND_INITIALIZER;
    struct timespec past = {0, 0};
    pthread_mutex_lock(&m);
    int r = pthread_cond_timedwait(&c, &m, &past);
    printf("cond_timedwait, deadline in the past: %s\n", strerror(r));
    struct timespec soon = in_ms(CLOCK_REALTIME, 200);
    r = pthread_cond_timedwait(&c, &m, &soon);
    printf("cond_timedwait, 200 ms: %s, %s\n", strerror(r), passed(CLOCK_REALTIME, soon));
    soon = in_ms(CLOCK_MONOTONIC, 150);
    r = pthread_cond_clockwait(&c, &m, CLOCK_MONOTONIC, &soon);
    printf("cond_clockwait (monotonic), 150 ms: %s, %s\n", strerror(r), passed(CLOCK_MONOTONIC, soon));
    pthread_mutex_unlock(&m);
    soon = in_ms(CLOCK_REALTIME, 100);
    printf("mutex_timedlock of a free mutex: %s\n", strerror(pthread_mutex_timedlock(&m, &soon)));
    pthread_mutex_unlock(&m);
    sem_t s;
    sem_init(&s, 0, 0);
    soon = in_ms(CLOCK_REALTIME, 120);
    errno = 0;
    r = sem_timedwait(&s, &soon);
    printf("sem_timedwait on 0, 120 ms: %d (%s), %s\n", r, strerror(errno), passed(CLOCK_REALTIME, soon));
    struct timespec bad = {0, 2000000000};
    errno = 0;
    r = sem_timedwait(&s, &bad);
    printf("sem_timedwait, bad timespec: %d (%s)\n", r, strerror(errno));
    return 0;
}
