/* recvmmsg's timeout with threads (docs/sandbox.md §4): the time a wait for a message takes
 * counts against it, looked at once a message came, as Linux's do_recvmmsg. A thread's
 * recvmmsg of 3 datagrams with a 50 ms timeout while main sends them 200 ms apart: after the
 * second the time is up (2, 0 s left), and the third is there for the next call; the same with
 * the first message 200 ms late: 1. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int sv[2];
static int result;
static struct timespec left;

static void *receiver(void *arg) {
    (void)arg;
    static char buf[3][16];
    struct mmsghdr m[3];
    struct iovec v[3];
    memset(m, 0, sizeof m);
    for (int i = 0; i < 3; i++) {
        v[i] = (struct iovec){buf[i], sizeof buf[i]};
        m[i].msg_hdr.msg_iov = &v[i];
        m[i].msg_hdr.msg_iovlen = 1;
    }
    left = (struct timespec){0, 50000000};
    result = recvmmsg(sv[1], m, 3, 0, &left);
    return NULL;
}

static void pause_ms(long ms) {
    struct timespec t = {0, ms * 1000000L};
    nanosleep(&t, NULL);
}

static void round_of(int first_late) {
    pthread_t t;
    pthread_create(&t, NULL, receiver, NULL);
    if (first_late) pause_ms(200);
    send(sv[0], "one", 3, 0);
    pause_ms(200);
    send(sv[0], "two", 3, 0);
    pause_ms(200);
    send(sv[0], "three", 5, 0);
    pthread_join(t, NULL);
    printf("recvmmsg: %d, left %ld.%09ld\n", result, (long)left.tv_sec, left.tv_nsec);
    char rest[16] = {0};
    while (recv(sv[1], rest, sizeof rest - 1, MSG_DONTWAIT) > 0) {
        printf("then: %s\n", rest);
        memset(rest, 0, sizeof rest);
    }
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv)) return 90;
    round_of(0);
    round_of(1);
    return 0;
}
