#define _GNU_SOURCE
/* copy_file_range, splice and tee as programs use them (ENOSYS with a warning before;
 * coreutils' cp and cat copy with copy_file_range):
 *   splice_use DIR        files made in DIR copied whole and at offsets, a file through a pipe
 *                         into another, tee between two pipes, and the answers Linux gives
 *   splice_use DIR thread a thread splicing from an empty pipe into a file until main writes
 *   splice_use DIR block  a blocking splice from an empty pipe only the program could fill:
 *                         waits forever on Linux (cyclescope ends the run; not compared) */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void check(const char *what, long got) {
    printf("%-34s %ld%s%s\n", what, got, got < 0 ? " errno " : "", got < 0 ? strerror(errno) : "");
}

static int pipe_fds[2], file_fd;
static long thread_moved;

static void *splicer(void *arg) {
    (void)arg;
    thread_moved = splice(pipe_fds[0], NULL, file_fd, NULL, 100, 0); /* waits for main's write */
    return NULL;
}

static unsigned sum_file(int fd, long *size) {
    unsigned char buf[4096];
    unsigned sum = 0;
    long n, at = 0;
    *size = 0;
    while ((n = pread(fd, buf, sizeof buf, at)) > 0) {
        for (long i = 0; i < n; i++) sum = sum * 31 + buf[i];
        at += n, *size += n;
    }
    return sum;
}

int main(int argc, char **argv) {
    if (argc < 2 || chdir(argv[1])) return 2;
    signal(SIGPIPE, SIG_IGN);
    static unsigned char data[10000];
    for (int i = 0; i < 10000; i++) data[i] = (unsigned char)(i * 13 + i / 256);
    int src = open("src", O_RDWR | O_CREAT | O_TRUNC, 0644);
    check("write src", write(src, data, sizeof data));
    if (argc > 2 && !strcmp(argv[2], "thread")) {
        check("pipe", pipe(pipe_fds));
        file_fd = src;
        pthread_t t;
        pthread_create(&t, NULL, splicer, NULL);
        volatile unsigned long sum = 0;
        for (unsigned long i = 0; i < 300000; i++) sum += i; /* the thread waits meanwhile */
        check("write", write(pipe_fds[1], "spliced by a thread", 19));
        pthread_join(t, NULL);
        printf("thread moved %ld, position %ld\n", thread_moved, (long)lseek(src, 0, SEEK_CUR));
        unlink("src");
        return 0;
    }
    if (argc > 2) { /* block */
        int p[2];
        check("pipe", pipe(p));
        fflush(stdout);
        check("splice empty pipe", splice(p[0], NULL, src, NULL, 10, 0));
        return 0;
    }
    lseek(src, 0, SEEK_SET);

    /* copy_file_range: whole, then at offsets */
    int dst = open("dst", O_RDWR | O_CREAT | O_TRUNC, 0644);
    long total = 0, n;
    while ((n = copy_file_range(src, NULL, dst, NULL, 4096, 0)) > 0) total += n;
    check("copy_file_range whole", total);
    check("src position", lseek(src, 0, SEEK_CUR));
    check("dst position", lseek(dst, 0, SEEK_CUR));
    long size;
    unsigned a = sum_file(src, &size), b = sum_file(dst, &size);
    printf("same %d size %ld\n", a == b, size);
    loff_t in_at = 100, out_at = 50;
    check("copy_file_range at offsets", copy_file_range(src, &in_at, dst, &out_at, 30, 0));
    printf("offsets %ld %ld, positions %ld %ld\n", (long)in_at, (long)out_at, (long)lseek(src, 0, SEEK_CUR),
           (long)lseek(dst, 0, SEEK_CUR));
    char back[31] = {0};
    check("pread it", pread(dst, back, 30, 50));
    printf("same %d\n", !memcmp(back, data + 100, 30));
    in_at = 20000;
    check("copy_file_range past the end", copy_file_range(src, &in_at, dst, NULL, 10, 0));
    check("copy_file_range flags", copy_file_range(src, NULL, dst, NULL, 10, 1));
    int ro = open("dst", O_RDONLY);
    check("copy_file_range to read-only", copy_file_range(src, NULL, ro, NULL, 10, 0));
    int app = open("dst", O_WRONLY | O_APPEND);
    check("copy_file_range to O_APPEND", copy_file_range(src, NULL, app, NULL, 10, 0));
    in_at = 0, out_at = 5;
    check("copy_file_range overlapping", copy_file_range(src, &in_at, src, &out_at, 100, 0));
    int p[2];
    check("pipe", pipe(p));
    check("copy_file_range from a pipe", copy_file_range(p[0], NULL, dst, NULL, 10, 0));
    check("copy_file_range bad fd", copy_file_range(99, NULL, dst, NULL, 10, 0));

    /* splice: a file into a pipe, some read, the rest into another file */
    in_at = 1000;
    check("splice file to pipe", splice(src, &in_at, p[1], NULL, 5000, 0));
    printf("offset %ld, position %ld\n", (long)in_at, (long)lseek(src, 0, SEEK_CUR));
    unsigned char got[10];
    check("read 10", read(p[0], got, 10));
    printf("same %d\n", !memcmp(got, data + 1000, 10));
    int out = open("spliced", O_RDWR | O_CREAT | O_TRUNC, 0644);
    check("splice pipe to file", splice(p[0], NULL, out, NULL, 100000, SPLICE_F_MOVE));
    unsigned char *whole = malloc(4990);
    check("pread spliced", pread(out, whole, 4990, 0));
    printf("same %d\n", !memcmp(whole, data + 1010, 4990));
    free(whole);
    check("splice empty nonblock", splice(p[0], NULL, out, NULL, 10, SPLICE_F_NONBLOCK));
    check("splice no pipe", splice(src, NULL, out, NULL, 10, 0));
    loff_t zero = 0;
    check("splice offset on a pipe", splice(p[0], &zero, out, NULL, 10, 0));
    check("splice bad flags", splice(src, NULL, p[1], NULL, 10, 0x100));
    check("splice to read-only", splice(p[0], NULL, ro, NULL, 10, SPLICE_F_NONBLOCK));
    lseek(src, 0, SEEK_SET);
    check("splice src position", splice(src, NULL, p[1], NULL, 7, 0));
    check("src position after", lseek(src, 0, SEEK_CUR));
    check("read them", read(p[0], got, 7));
    printf("same %d\n", !memcmp(got, data, 7));

    /* tee: the bytes stay in the first pipe */
    int q[2];
    check("pipe", pipe(q));
    check("write", write(p[1], "hello, tee", 10));
    check("tee", tee(p[0], q[1], 100, 0));
    char t1[16] = {0}, t2[16] = {0};
    check("read first", read(p[0], t1, sizeof t1));
    check("read second", read(q[0], t2, sizeof t2));
    printf("[%s] [%s]\n", t1, t2);
    check("tee empty nonblock", tee(p[0], q[1], 10, SPLICE_F_NONBLOCK));
    check("tee file", tee(src, q[1], 10, 0));
    check("tee same pipe", tee(p[0], p[1], 10, 0));
    check("write", write(p[1], "to pipe", 7));
    check("splice pipe to pipe", splice(p[0], NULL, q[1], NULL, 4, 0));
    check("read", read(q[0], t2, sizeof t2));
    printf("[%.4s]\n", t2);
    check("read", read(p[0], t1, sizeof t1));
    printf("[%.3s]\n", t1);
    check("close reader", close(q[0]));
    check("write", write(p[1], "x", 1));
    check("splice without reader", splice(p[0], NULL, q[1], NULL, 1, 0));
    check("tee without reader", tee(p[0], q[1], 1, 0));
    int nb[2];
    check("pipe2 nonblock", pipe2(nb, O_NONBLOCK));
    check("splice O_NONBLOCK empty", splice(nb[0], NULL, out, NULL, 10, 0));
    unlink("src"), unlink("dst"), unlink("spliced");
    return 0;
}
