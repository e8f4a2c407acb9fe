#define _GNU_SOURCE
/* Socket calls beyond socketpair_use.c, on socketpair ends:
 *   socket_more mmsg          sendmmsg/recvmmsg: counts, msg_len, MSG_WAITFORONE, MSG_DONTWAIT,
 *                             MSG_TRUNC, vlen 0, a stream, the errors Linux gives
 *   socket_more mmsg_threads  a thread's blocking recvmmsg of 3 datagrams main sends one by one;
 *                             a sendmmsg of a stream larger than the socket's buffer, read by a
 *                             thread
 *   socket_more mmsg_timeout  recvmmsg's timeout (qemu-riscv64 ignores it: compared with the
 *                             host kernel's answers, test in tests/emu.cmake)
 *   socket_more waitall       MSG_WAITALL: recv, recvfrom and recvmsg of a stream a thread
 *                             writes in pieces get all of it; end of file, MSG_DONTWAIT,
 *                             MSG_PEEK and a datagram return what is there
 *   socket_more waitall_fork  the same with a child process writing the pieces
 *   socket_more timeo         SO_RCVTIMEO/SO_SNDTIMEO: read back; a read, recv and recv
 *                             MSG_WAITALL with nothing (more) to come end EAGAIN (or what came)
 *                             after the time; a send to a full socket ends EAGAIN
 *   socket_more timeo_threads a thread writing before the time is read; with the other
 *                             thread waiting elsewhere, the time runs out: EAGAIN */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void check(const char *what, long got) {
    printf("%-32s %ld%s%s\n", what, got, got < 0 ? " errno " : "", got < 0 ? strerror(errno) : "");
}

/* n message headers over bufs[i] (each `len` bytes) */
static void headers(struct mmsghdr *m, struct iovec *v, char bufs[][16], int n, size_t len) {
    memset(m, 0, sizeof *m * (size_t)n);
    for (int i = 0; i < n; i++) {
        v[i] = (struct iovec){bufs[i], len};
        m[i].msg_hdr.msg_iov = &v[i];
        m[i].msg_hdr.msg_iovlen = 1;
        m[i].msg_len = 77; /* to see it written */
    }
}

static void print_received(const struct mmsghdr *m, char bufs[][16], long n) {
    for (long i = 0; i < n; i++)
        printf("  [%ld] len %u flags %d [%.*s]\n", i, m[i].msg_len, m[i].msg_hdr.msg_flags, (int)m[i].msg_len, bufs[i]);
}

static void mmsg(void) {
    int s[2];
    char out[4][16] = {"one", "three", "", "fourth"}, in[4][16];
    struct mmsghdr om[4], im[4];
    struct iovec ov[4], iv[4];
    check("socketpair dgram", socketpair(AF_UNIX, SOCK_DGRAM, 0, s));
    headers(om, ov, out, 4, 0);
    for (int i = 0; i < 4; i++) ov[i].iov_len = strlen(out[i]);
    check("sendmmsg 4", sendmmsg(s[0], om, 4, 0));
    for (int i = 0; i < 4; i++) printf("  sent [%d] %u\n", i, om[i].msg_len);
    headers(im, iv, in, 4, 16);
    long n;
    check("recvmmsg 4 dontwait", n = recvmmsg(s[1], im, 4, MSG_DONTWAIT, NULL));
    print_received(im, in, n);
    check("recvmmsg empty dontwait", recvmmsg(s[1], im, 4, MSG_DONTWAIT, NULL));
    check("sendmmsg 2", sendmmsg(s[0], om, 2, 0));
    headers(im, iv, in, 4, 16);
    check("recvmmsg waitforone", n = recvmmsg(s[1], im, 4, MSG_WAITFORONE, NULL));
    print_received(im, in, n);
    check("sendmmsg 3", sendmmsg(s[0], om + 1, 3, 0));
    headers(im, iv, in, 4, 2);
    check("recvmmsg truncating", n = recvmmsg(s[1], im, 2, 0, NULL));
    print_received(im, in, n);
    check("recvmmsg the last", n = recvmmsg(s[1], im, 1, 0, NULL));
    print_received(im, in, n);
    check("recvmmsg vlen 0", recvmmsg(s[1], im, 0, 0, NULL));
    check("sendmmsg vlen 0", sendmmsg(s[0], om, 0, 0));
    /* (an address is not tried: Linux looks its path up, cyclescope refuses it, docs/sandbox.md §4) */
    check("recvmmsg bad vector", recvmmsg(s[1], (struct mmsghdr *)8, 2, MSG_DONTWAIT, NULL));
    check("sendmmsg bad vector", sendmmsg(s[0], (struct mmsghdr *)8, 2, 0));
    check("recvmmsg of a file", recvmmsg(1, im, 1, 0, NULL));
    check("sendmmsg of a file", sendmmsg(1, om, 1, 0));
    check("recvmmsg no descriptor", recvmmsg(99, im, 1, 0, NULL));
    close(s[0]);
    close(s[1]);

    /* a stream: each message a recvmsg of what is there */
    check("socketpair stream", socketpair(AF_UNIX, SOCK_STREAM, 0, s));
    headers(om, ov, out, 3, 0);
    for (int i = 0; i < 3; i++) ov[i].iov_len = strlen(out[i]);
    check("sendmmsg stream 3", sendmmsg(s[0], om, 3, 0));
    headers(im, iv, in, 4, 4);
    check("recvmmsg stream dontwait", n = recvmmsg(s[1], im, 4, MSG_DONTWAIT, NULL));
    print_received(im, in, n);
    close(s[0]);
    headers(im, iv, in, 4, 4);
    check("recvmmsg stream at eof", n = recvmmsg(s[1], im, 3, 0, NULL));
    print_received(im, in, n);
    close(s[1]);
}

static int pair[2];
static long thread_got;
static struct mmsghdr thread_m[3];
static char thread_bufs[3][16];

static void *receiver(void *arg) {
    (void)arg;
    struct iovec v[3];
    headers(thread_m, v, thread_bufs, 3, 16);
    thread_got = recvmmsg(pair[1], thread_m, 3, 0, NULL); /* waits for all three */
    return NULL;
}

static long stream_read;

static void *reader(void *arg) {
    (void)arg;
    static char buf[4096];
    long n;
    while ((n = read(pair[1], buf, sizeof buf)) > 0) stream_read += n;
    return NULL;
}

static void mmsg_threads(void) {
    check("socketpair dgram", socketpair(AF_UNIX, SOCK_DGRAM, 0, pair));
    pthread_t t;
    pthread_create(&t, NULL, receiver, NULL);
    const char *words[] = {"alpha", "beta", "gamma"};
    for (int i = 0; i < 3; i++) {
        volatile unsigned long sum = 0;
        for (unsigned long j = 0; j < 200000; j++) sum += j; /* the thread waits meanwhile */
        check("send", send(pair[0], words[i], strlen(words[i]), 0));
    }
    pthread_join(t, NULL);
    check("thread's recvmmsg", thread_got);
    print_received(thread_m, thread_bufs, thread_got);
    close(pair[0]);
    close(pair[1]);

    /* 3 messages of 300 KB on a stream: more than its buffer, the thread reads meanwhile */
    check("socketpair stream", socketpair(AF_UNIX, SOCK_STREAM, 0, pair));
    pthread_create(&t, NULL, reader, NULL);
    static char big[3][300000];
    struct mmsghdr m[3];
    struct iovec v[3];
    memset(m, 0, sizeof m);
    for (int i = 0; i < 3; i++) {
        v[i] = (struct iovec){big[i], sizeof big[i]};
        m[i].msg_hdr.msg_iov = &v[i];
        m[i].msg_hdr.msg_iovlen = 1;
    }
    check("sendmmsg 3 x 300000", sendmmsg(pair[0], m, 3, 0));
    printf("  msg_len %u %u %u\n", m[0].msg_len, m[1].msg_len, m[2].msg_len);
    close(pair[0]);
    pthread_join(t, NULL);
    check("the thread read", stream_read);
    close(pair[1]);
}

static void mmsg_timeout(void) {
    int s[2];
    char out[3][16] = {"a", "bb", "ccc"}, in[4][16];
    struct mmsghdr om[3], im[4];
    struct iovec ov[3], iv[4];
    check("socketpair dgram", socketpair(AF_UNIX, SOCK_DGRAM, 0, s));
    headers(om, ov, out, 3, 0);
    for (int i = 0; i < 3; i++) ov[i].iov_len = strlen(out[i]);
    check("sendmmsg 3", sendmmsg(s[0], om, 3, 0));
    struct timespec zero = {0, 0};
    headers(im, iv, in, 4, 16);
    long n;
    check("recvmmsg timeout 0", n = recvmmsg(s[1], im, 3, 0, &zero)); /* one: the time is up after it */
    print_received(im, in, n);
    printf("  left %ld.%09ld\n", (long)zero.tv_sec, zero.tv_nsec);
    struct timespec ten = {10, 0};
    headers(im, iv, in, 4, 16);
    check("recvmmsg timeout 10 s", n = recvmmsg(s[1], im, 2, 0, &ten));
    print_received(im, in, n);
    printf("  left in (9 s, 10 s]: %d\n",
           (ten.tv_sec == 9 && ten.tv_nsec > 0) || (ten.tv_sec == 10 && ten.tv_nsec == 0));
    struct timespec bad = {0, 1000000000};
    check("recvmmsg bad timeout", recvmmsg(s[1], im, 2, MSG_DONTWAIT, &bad));
    check("recvmmsg bad timeout, no fd", recvmmsg(99, im, 2, MSG_DONTWAIT, &bad));
    check("recvmmsg timeout nowhere", recvmmsg(99, im, 2, MSG_DONTWAIT, (struct timespec *)8));
    struct timespec untouched = {5, 5};
    check("recvmmsg empty, timeout", recvmmsg(s[1], im, 2, MSG_DONTWAIT, &untouched));
    printf("  timeout %ld.%09ld\n", (long)untouched.tv_sec, untouched.tv_nsec);
    close(s[0]);
    close(s[1]);
}

static void spin(void) {
    volatile unsigned long sum = 0;
    for (unsigned long j = 0; j < 200000; j++) sum += j; /* the other side waits meanwhile */
}

/* "abc", "defg", "hij" then "0123456789" in pieces of 3, 3, 4, then the same twice more */
static void write_pieces(int fd) {
    const char *pieces[] = {"abc", "defg", "hij", "012", "345", "6789"};
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < 6; i++) {
            spin();
            if (write(fd, pieces[i], strlen(pieces[i])) < 0) _exit(9);
        }
}

static void *piece_writer(void *arg) {
    write_pieces(*(int *)arg);
    return NULL;
}

/* what the reader of write_pieces' stream gets with MSG_WAITALL, three ways */
static void read_all(int fd) {
    for (int round = 0; round < 3; round++) {
        char a[11] = {0}, b[5] = {0}, c[7] = {0};
        long n;
        if (round == 0) {
            check("recv waitall 10", n = recv(fd, a, 10, MSG_WAITALL));
            printf("  [%s]\n", a);
        } else if (round == 1) {
            check("recvfrom waitall 10", n = recvfrom(fd, a, 10, MSG_WAITALL, NULL, NULL));
            printf("  [%s]\n", a);
        } else {
            struct iovec v[3] = {{a, 3}, {b, 4}, {c, 3}};
            struct msghdr m = {.msg_iov = v, .msg_iovlen = 3};
            check("recvmsg waitall 3+4+3", n = recvmsg(fd, &m, MSG_WAITALL));
            printf("  [%s] [%s] [%s] flags %d\n", a, b, c, m.msg_flags);
        }
        memset(a, 0, sizeof a);
        check("recv waitall 10 more", n = recv(fd, a, 10, MSG_WAITALL));
        printf("  [%s]\n", a);
    }
}

static void waitall(bool child_writes) {
    int s[2];
    char buf[16] = {0};
    check("socketpair stream", socketpair(AF_UNIX, SOCK_STREAM, 0, s));
    if (!child_writes) { /* what is there: MSG_DONTWAIT, MSG_PEEK, end of file, a datagram */
        check("send 3", send(s[0], "xyz", 3, 0));
        check("recv waitall|peek 10", recv(s[1], buf, 10, MSG_WAITALL | MSG_PEEK));
        check("recv waitall|dontwait 10", recv(s[1], buf, 10, MSG_WAITALL | MSG_DONTWAIT));
        check("send 2, shutdown", send(s[0], "uv", 2, 0) + shutdown(s[0], SHUT_WR));
        check("recv waitall 10 at eof", recv(s[1], buf, 10, MSG_WAITALL));
        check("recv waitall 10 eof", recv(s[1], buf, 10, MSG_WAITALL));
        close(s[0]);
        close(s[1]);
        int d[2];
        check("socketpair dgram", socketpair(AF_UNIX, SOCK_DGRAM, 0, d));
        check("send 3", send(d[0], "one", 3, 0));
        check("recv waitall 10 dgram", recv(d[1], buf, 10, MSG_WAITALL));
        close(d[0]);
        close(d[1]);
        check("socketpair stream", socketpair(AF_UNIX, SOCK_STREAM, 0, s));
        pthread_t t;
        pthread_create(&t, NULL, piece_writer, &s[0]);
        read_all(s[1]);
        pthread_join(t, NULL);
    } else {
        fflush(stdout);
        pid_t child = fork();
        if (child == 0) {
            close(s[1]);
            write_pieces(s[0]);
            _exit(0);
        }
        close(s[0]);
        read_all(s[1]);
        int status;
        check("wait", waitpid(child, &status, 0) == child && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    close(s[1]);
}

static long elapsed_ms(const struct timespec *since) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000 + (now.tv_nsec - since->tv_nsec) / 1000000;
}

static void set_timeout(int fd, int option, long ms) {
    struct timeval tv = {ms / 1000, ms % 1000 * 1000};
    check(option == SO_RCVTIMEO ? "setsockopt SO_RCVTIMEO" : "setsockopt SO_SNDTIMEO",
          setsockopt(fd, SOL_SOCKET, option, &tv, sizeof tv));
}

static void timeo(void) {
    int s[2];
    char buf[16] = {0};
    check("socketpair stream", socketpair(AF_UNIX, SOCK_STREAM, 0, s));
    struct timeval tv = {7, 7};
    socklen_t len = sizeof tv;
    check("getsockopt SO_RCVTIMEO unset", getsockopt(s[1], SOL_SOCKET, SO_RCVTIMEO, &tv, &len));
    printf("  %ld.%06ld len %d\n", (long)tv.tv_sec, (long)tv.tv_usec, (int)len);
    set_timeout(s[1], SO_RCVTIMEO, 200);
    check("getsockopt SO_RCVTIMEO", getsockopt(s[1], SOL_SOCKET, SO_RCVTIMEO, &tv, &len));
    printf("  %ld.%06ld len %d\n", (long)tv.tv_sec, (long)tv.tv_usec, (int)len);
    struct timeval bad = {0, 2000000};
    check("setsockopt SO_RCVTIMEO bad", setsockopt(s[1], SOL_SOCKET, SO_RCVTIMEO, &bad, sizeof bad));
    check("setsockopt SO_RCVTIMEO short", setsockopt(s[1], SOL_SOCKET, SO_RCVTIMEO, &bad, 4));
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    check("recv empty", recv(s[1], buf, sizeof buf, 0));
    printf("  waited >= 200 ms: %d\n", elapsed_ms(&start) >= 200);
    check("read empty", read(s[1], buf, sizeof buf));
    check("send 3", send(s[0], "abc", 3, 0));
    check("recv 3", recv(s[1], buf, sizeof buf, 0));
    check("send 3", send(s[0], "def", 3, 0));
    check("recv waitall 10, 3 there", recv(s[1], buf, 10, MSG_WAITALL));
    printf("  [%.3s]\n", buf);
    set_timeout(s[0], SO_SNDTIMEO, 100);
    static char block[65536];
    long sent = 0, n;
    while ((n = send(s[0], block, sizeof block, 0)) > 0) sent += n;
    printf("  send filled it: %d, then %s\n", sent > 0, n < 0 ? strerror(errno) : "0");
    set_timeout(s[1], SO_RCVTIMEO, 0); /* none again */
    check("getsockopt SO_RCVTIMEO", getsockopt(s[1], SOL_SOCKET, SO_RCVTIMEO, &tv, &len));
    printf("  %ld.%06ld\n", (long)tv.tv_sec, (long)tv.tv_usec);
    close(s[0]);
    close(s[1]);
}

static int twin[2], other[2];
static long late_sent, late_got;

static void *late_writer(void *arg) {
    (void)arg;
    spin();
    spin();
    late_sent = send(twin[0], "late", 4, 0);
    char c;
    late_got = recv(other[1], &c, 1, 0); /* waits for main, without a timeout */
    return NULL;
}

static void timeo_threads(void) {
    char buf[16] = {0};
    check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, twin));
    check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, other));
    set_timeout(twin[1], SO_RCVTIMEO, 10000);
    pthread_t t;
    pthread_create(&t, NULL, late_writer, NULL);
    check("recv, 10 s", recv(twin[1], buf, sizeof buf, 0)); /* the thread writes first */
    printf("  [%s]\n", buf);
    set_timeout(twin[1], SO_RCVTIMEO, 100);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    check("recv, 100 ms", recv(twin[1], buf, sizeof buf, 0)); /* the thread waits elsewhere */
    printf("  waited >= 100 ms: %d\n", elapsed_ms(&start) >= 100);
    long sent = send(other[0], "x", 1, 0);
    pthread_join(t, NULL);
    check("send to the thread", sent);
    check("the thread's send", late_sent);
    check("the thread's recv", late_got);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "mmsg";
    if (!strcmp(mode, "mmsg")) mmsg();
    else if (!strcmp(mode, "mmsg_threads")) mmsg_threads();
    else if (!strcmp(mode, "mmsg_timeout")) mmsg_timeout();
    else if (!strcmp(mode, "timeo")) timeo();
    else if (!strcmp(mode, "timeo_threads")) timeo_threads();
    else if (!strcmp(mode, "waitall") || !strcmp(mode, "waitall_fork")) waitall(mode[7] == '_');
    else {
        fprintf(stderr, "socket_more: unknown mode %s\n", mode);
        return 2;
    }
    return 0;
}
