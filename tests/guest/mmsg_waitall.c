/* recvmmsg with MSG_WAITALL on a stream socketpair: Linux's do_recvmmsg passes the flag to
 * each message's recvmsg, so each message waits until its buffer is full (or end of file).
 * The writer sends pieces smaller than a buffer, each only once the one before was taken
 * (it peeks the socket until it is empty), so that a recvmsg without MSG_WAITALL would get
 * one piece per message. One case per argument:
 *   threads  a thread writes "ab" "cd" "ef" "gh" "ij", then closes: 3 messages of 4 bytes give
 *            "abcd" "efgh" "ij" (end of file)
 *   fork     the same with a child process writing
 *   one      MSG_WAITALL|MSG_WAITFORONE: the first message waits for all of its 4 bytes ("ab",
 *            then "cdef"), the next takes what is there ("ef"), then the call returns: 2 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int sv[2];
static const char *const *pieces;

/* until the reader took everything sent (bounded: a reader that stopped reading leaves bytes) */
static void wait_taken(void) {
    char peek[16];
    for (long i = 0; i < 2000000 && recv(sv[0], peek, sizeof peek, MSG_PEEK | MSG_DONTWAIT) > 0; i++) sched_yield();
}

static void *writer(void *arg) {
    (void)arg;
    for (int i = 0; pieces[i]; i++) {
        if (i) wait_taken();
        if (send(sv[1], pieces[i], strlen(pieces[i]), 0) < 0) perror("send");
    }
    wait_taken();
    shutdown(sv[1], SHUT_WR);
    return NULL;
}

static void receive(int n, int flags) {
    char bufs[3][8];
    struct iovec v[3];
    struct mmsghdr m[3];
    memset(m, 0, sizeof m);
    for (int i = 0; i < 3; i++) {
        v[i] = (struct iovec){bufs[i], 4};
        m[i].msg_hdr.msg_iov = &v[i];
        m[i].msg_hdr.msg_iovlen = 1;
        m[i].msg_len = 77;
    }
    int got = recvmmsg(sv[0], m, (unsigned)n, flags, NULL);
    printf("recvmmsg: %d\n", got);
    for (int i = 0; i < got; i++) printf("  [%d] len %u [%.*s]\n", i, m[i].msg_len, (int)m[i].msg_len, bufs[i]);
}

int main(int argc, char **argv) {
    static const char *const five[] = {"ab", "cd", "ef", "gh", "ij", NULL};
    static const char *const two[] = {"ab", "cdef", NULL};
    const char *which = argc > 1 ? argv[1] : "";
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) return 1;
    pieces = !strcmp(which, "one") ? two : five;
    if (!strcmp(which, "fork")) {
        pid_t child = fork();
        if (child == 0) {
            writer(NULL);
            _exit(0);
        }
        close(sv[1]);
        receive(3, MSG_WAITALL);
        int status;
        waitpid(child, &status, 0);
        printf("child: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return 0;
    }
    if (strcmp(which, "threads") && strcmp(which, "one")) return 2;
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    receive(3, !strcmp(which, "one") ? MSG_WAITALL | MSG_WAITFORONE : MSG_WAITALL);
    pthread_join(t, NULL);
    return 0;
}
