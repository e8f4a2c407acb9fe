#define _GNU_SOURCE
/* Socket calls beyond socketpair_use.c, on socketpair ends:
 *   socket_more mmsg          sendmmsg/recvmmsg: counts, msg_len, MSG_WAITFORONE, MSG_DONTWAIT,
 *                             MSG_TRUNC, vlen 0, a stream, the errors Linux gives
 *   socket_more mmsg_threads  a thread's blocking recvmmsg of 3 datagrams main sends one by one;
 *                             a sendmmsg of a stream larger than the socket's buffer, read by a
 *                             thread
 *   socket_more mmsg_timeout  recvmmsg's timeout (qemu-riscv64 ignores it: compared with the
 *                             host kernel's answers, test in tests/emu.cmake) */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "mmsg";
    if (!strcmp(mode, "mmsg")) mmsg();
    else if (!strcmp(mode, "mmsg_threads")) mmsg_threads();
    else if (!strcmp(mode, "mmsg_timeout")) mmsg_timeout();
    else {
        fprintf(stderr, "socket_more: unknown mode %s\n", mode);
        return 2;
    }
    return 0;
}
