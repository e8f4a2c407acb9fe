/* readv and writev whose wait falls on a later buffer block their own thread only, as read
 * and write do (docs/sandbox.md §4 "Threads"). One case per argument:
 *   own           a thread's writev of 2 x 60 000 bytes to a pipe of the process (64 KiB):
 *                 the second buffer waits for main to read; all 120 000 bytes go, in order
 *   cross         the same to a pipe a child reads only once main, after a sleep, tells it to
 *                 (a writev holding every thread would never let main tell it)
 *   fifo PATH     readv of [4, 100] bytes from a FIFO the test's writer wrote 4 bytes to and
 *                 keeps open (tests/scripts/readv_fifo.sh): the 4 bytes at once, as Linux's
 *                 pipe_read, while another thread goes on
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { PART = 60000 };
static unsigned char out[2 * PART];
static int data[2], go[2];
static ssize_t written;

static void *writer(void *arg) {
    (void)arg;
    struct iovec v[2] = {{out, PART}, {out + PART, PART}};
    written = writev(data[1], v, 2);
    return NULL;
}

/* all of the pipe's bytes until end of file: their count, and whether they came in order */
static void drain(int fd) {
    static unsigned char in[2 * PART + 1];
    size_t got = 0;
    ssize_t n;
    while ((n = read(fd, in + got, sizeof in - got)) > 0) got += (size_t)n;
    printf("read %zu bytes, in order: %s\n", got, got == sizeof out && !memcmp(in, out, got) ? "yes" : "no");
}

static void fill(void) {
    for (size_t i = 0; i < sizeof out; i++) out[i] = (unsigned char)(i * 7 + i / 251);
}

static int case_own(void) {
    fill();
    if (pipe(data)) return 90;
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    static unsigned char in[2 * PART];
    size_t got = 0;
    while (got < sizeof in) {
        ssize_t n = read(data[0], in + got, sizeof in - got);
        if (n <= 0) break;
        got += (size_t)n;
    }
    pthread_join(t, NULL);
    printf("writev returned %zd\n", written);
    printf("read %zu bytes, in order: %s\n", got, got == sizeof out && !memcmp(in, out, got) ? "yes" : "no");
    return 0;
}

static int case_cross(void) {
    fill();
    if (pipe(data) || pipe(go)) return 90;
    fflush(stdout);
    pid_t c = fork();
    if (c == 0) {
        close(data[1]);
        close(go[1]);
        char g;
        if (read(go[0], &g, 1) != 1) _exit(91);
        drain(data[0]);
        _exit(0);
    }
    close(data[0]);
    close(go[0]);
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    struct timespec ms = {0, 10000000};
    nanosleep(&ms, NULL); /* the writer waits meanwhile, on the host or not */
    if (write(go[1], "g", 1) != 1) return 92;
    pthread_join(t, NULL);
    close(data[1]);
    int st;
    waitpid(c, &st, 0);
    printf("writev returned %zd, child exit %d\n", written, WEXITSTATUS(st));
    return 0;
}

static volatile int spins;
static void *spinner(void *arg) {
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        spins++;
        sched_yield();
    }
    return NULL;
}

static int case_fifo(const char *path) {
    int r = open(path, O_RDONLY); /* the test's writer wrote 4 bytes and keeps it open */
    if (r < 0) {
        perror("open");
        return 90;
    }
    pthread_t t;
    pthread_create(&t, NULL, spinner, NULL);
    char a[4] = {0}, b[100] = {0};
    struct iovec v[2] = {{a, 4}, {b, sizeof b}};
    ssize_t n = readv(r, v, 2);
    pthread_join(t, NULL);
    printf("readv: %zd '%.4s', spinner done %d\n", n, a, spins);
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *c = argc > 1 ? argv[1] : "";
    if (!strcmp(c, "own")) return case_own();
    if (!strcmp(c, "cross")) return case_cross();
    if (!strcmp(c, "fifo") && argc > 2) return case_fifo(argv[2]);
    fprintf(stderr, "threads_iov: unknown case '%s'\n", c);
    return 2;
}
