/* getrusage against qemu-riscv64: the user time of a process that has run a while is
 * positive and does not go back, and stays within its CPU clock read after it; the
 * children's and the thread's are answered; an unknown `who` is EINVAL. Prints only facts
 * that hold under any host's timing (cyclescope's clock: 1 ns per instruction). */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static volatile unsigned long sink;

/* Runs until the process' CPU clock has gone `ms` milliseconds on: a host kernel that charges
 * user time by the tick (4 ms at 250 Hz) gave qemu's process no user time at all after a
 * fixed, short loop on a loaded machine (the first line said 0 once in a suite run); 50 ms
 * are a dozen ticks. Under cyclescope (1 ns an instruction) about 50 M instructions. */
static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void busy(double ms) {
    double until = cpu_ms() + ms;
    while (cpu_ms() < until)
        for (unsigned long i = 0; i < 10000; i++) sink += i * i;
}

static long long usec(struct timeval tv) { return (long long)tv.tv_sec * 1000000 + tv.tv_usec; }

int main(void) {
    struct rusage first, second, children, thread;
    busy(50);
    if (getrusage(RUSAGE_SELF, &first) != 0) return perror("getrusage"), 1;
    busy(5);
    if (getrusage(RUSAGE_SELF, &second) != 0) return perror("getrusage"), 1;
    struct timespec cpu;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    printf("self user time positive: %d\n", usec(first.ru_utime) > 0);
    printf("self user time does not go back: %d\n", usec(second.ru_utime) >= usec(first.ru_utime));
    printf("microseconds below a million: %d\n",
           second.ru_utime.tv_usec < 1000000 && second.ru_stime.tv_usec < 1000000);
    long long cpu_us = (long long)cpu.tv_sec * 1000000 + cpu.tv_nsec / 1000;
    printf("user + system time within the CPU clock read after: %d\n",
           usec(second.ru_utime) + usec(second.ru_stime) <= cpu_us);
    /* (its times are not compared: a process inherits its children's times across execve,
     * and the shell that starts qemu ran one) */
    printf("getrusage(RUSAGE_CHILDREN): %d\n", getrusage(RUSAGE_CHILDREN, &children));
    printf("thread user time positive: %d\n", getrusage(RUSAGE_THREAD, &thread) == 0 && usec(thread.ru_utime) > 0);
    errno = 0;
    int bad = getrusage(7, &thread);
    printf("getrusage(7): %d %s\n", bad, strerror(errno));
    return 0;
}
