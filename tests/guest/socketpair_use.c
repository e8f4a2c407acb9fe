#define _GNU_SOURCE
/* socketpair(AF_UNIX) as programs use it (it was ENOSYS):
 *   socketpair_use          one process: both ends read and write (stream), partial reads,
 *                           MSG_PEEK, MSG_DONTWAIT, shutdown (end of file, EPIPE), message
 *                           boundaries and MSG_TRUNC (datagram, seqpacket), readv/writev,
 *                           sendmsg/recvmsg with two buffers, SOCK_NONBLOCK/SOCK_CLOEXEC,
 *                           poll, fstat, lseek, getsockopt, the refusals Linux gives
 *   socketpair_use fork     a child answering its parent's requests through one socket
 *                           (a popen-like helper), then end of file both ways
 *   socketpair_use exec     the same with a child that execs this program (serve FD): its
 *                           inherited end still a socket (recv, send, getsockopt)
 *   socketpair_use threads  a thread waiting in recv until main wakes it, answering back
 *   socketpair_use sigpipe  a write after the other end closed, SIGPIPE's default: killed (141)
 *   socketpair_use block    a blocking read only the program itself could satisfy: waits
 *                           forever on Linux (cyclescope ends the run; not compared) */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static void check(const char *what, long got) {
    printf("%-30s %ld%s%s\n", what, got, got < 0 ? " errno " : "", got < 0 ? strerror(errno) : "");
}

static int pair[2];
static long thread_got;
static char thread_buf[32];

static void *echo_thread(void *arg) {
    (void)arg;
    char *buf = thread_buf;
    long n = thread_got = recv(pair[1], buf, sizeof thread_buf - 1, 0); /* waits for main */
    char upper[32];
    for (long i = 0; i < n; i++) upper[i] = (char)(buf[i] - 'a' + 'A');
    send(pair[1], upper, (size_t)n, 0);
    return NULL;
}

static void one_process(void) {
    int s[2];
    char buf[64] = {0};
    check("socketpair stream", socketpair(AF_UNIX, SOCK_STREAM, 0, s));
    check("write a->b", write(s[0], "hello, b", 8));
    check("write b->a", write(s[1], "hello, a", 8));
    check("read b 5", read(s[1], buf, 5));
    printf("got [%s]\n", buf);
    memset(buf, 0, sizeof buf);
    check("read b rest", read(s[1], buf, sizeof buf));
    printf("got [%s]\n", buf);
    memset(buf, 0, sizeof buf);
    check("recv a peek", recv(s[0], buf, 5, MSG_PEEK));
    check("recv a", recv(s[0], buf, sizeof buf, 0));
    printf("got [%s]\n", buf);
    check("recv a dontwait", recv(s[0], buf, sizeof buf, MSG_DONTWAIT));
    struct stat st;
    check("fstat", fstat(s[0], &st));
    printf("sock %d\n", S_ISSOCK(st.st_mode));
    check("lseek", lseek(s[0], 0, SEEK_SET));
    check("pread", pread(s[0], buf, 1, 0));
    int type = 0;
    socklen_t len = sizeof type;
    check("getsockopt SO_TYPE", getsockopt(s[0], SOL_SOCKET, SO_TYPE, &type, &len));
    printf("type %d len %d\n", type, (int)len);
    struct pollfd pf[2] = {{s[0], POLLIN | POLLOUT, 0}, {s[1], POLLIN, 0}};
    check("poll empty", poll(pf, 2, 0));
    printf("revents %d %d\n", pf[0].revents, pf[1].revents);
    check("send 3", send(s[0], "abc", 3, 0));
    check("poll data", poll(pf, 2, 1000));
    printf("revents %d %d\n", pf[0].revents, pf[1].revents);
    check("recv 3", recv(s[1], buf, 3, 0));

    /* sendmsg/recvmsg and writev/readv with two buffers */
    char x[4] = "one", y[4] = "two", r1[3] = {0}, r2[8] = {0};
    struct iovec out[2] = {{x, 3}, {y, 3}}, in[2] = {{r1, 2}, {r2, 7}};
    struct msghdr m = {.msg_iov = out, .msg_iovlen = 2};
    check("sendmsg", sendmsg(s[1], &m, 0));
    struct msghdr rm = {.msg_iov = in, .msg_iovlen = 2};
    check("recvmsg", recvmsg(s[0], &rm, 0));
    printf("got [%s] [%s] flags %d controllen %d\n", r1, r2, rm.msg_flags, (int)rm.msg_controllen);
    check("writev", writev(s[0], out, 2));
    memset(r1, 0, sizeof r1), memset(r2, 0, sizeof r2);
    check("readv", readv(s[1], in, 2));
    printf("got [%s] [%s]\n", r1, r2);

    /* shutdown: the other end reads end of file; a write after it is EPIPE */
    signal(SIGPIPE, SIG_IGN);
    check("shutdown a SHUT_WR", shutdown(s[0], SHUT_WR));
    check("read b eof", read(s[1], buf, sizeof buf));
    check("write a after shutdown", write(s[0], "x", 1));
    check("write b still", write(s[1], "ok", 2));
    check("read a", read(s[0], buf, sizeof buf));
    check("shutdown bad how", shutdown(s[0], 7));
    check("close b", close(s[1]));
    check("read a eof", read(s[0], buf, sizeof buf));
    check("close a", close(s[0]));

    /* datagrams keep their boundaries; MSG_TRUNC */
    check("socketpair dgram", socketpair(AF_UNIX, SOCK_DGRAM, 0, s));
    check("send first", send(s[0], "first", 5, 0));
    check("send second", send(s[0], "second!", 7, 0));
    check("send empty", send(s[0], "", 0, 0));
    memset(buf, 0, sizeof buf);
    check("recv whole", recv(s[1], buf, sizeof buf, 0));
    printf("got [%s]\n", buf);
    memset(buf, 0, sizeof buf);
    struct iovec one = {buf, 3};
    struct msghdr tm = {.msg_iov = &one, .msg_iovlen = 1};
    check("recvmsg truncated", recvmsg(s[1], &tm, 0));
    printf("got [%s] truncated %d\n", buf, (tm.msg_flags & MSG_TRUNC) != 0);
    check("recv empty message", recv(s[1], buf, sizeof buf, 0));
    check("recv MSG_TRUNC length", (send(s[0], "0123456789", 10, 0), recv(s[1], buf, 2, MSG_TRUNC)));
    check("writev one message", writev(s[1], out, 2));
    check("recv it", recv(s[0], buf, sizeof buf, 0));
    close(s[0]);
    close(s[1]);
    check("socketpair seqpacket", socketpair(AF_UNIX, SOCK_SEQPACKET, 0, s));
    check("send", send(s[0], "packet", 6, 0));
    check("recv 4", recv(s[1], buf, 4, 0));
    check("recv none left", recv(s[1], buf, 4, MSG_DONTWAIT));
    close(s[0]);
    check("recv eof", recv(s[1], buf, 4, 0));
    close(s[1]);

    /* flags */
    check("socketpair nonblock cloexec", socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, s));
    printf("fl %d fd %d\n", (fcntl(s[0], F_GETFL) & O_NONBLOCK) != 0, fcntl(s[1], F_GETFD));
    check("read empty nonblock", read(s[0], buf, 1));
    check("F_SETFL blocking a", fcntl(s[0], F_SETFL, 0));
    printf("fl %d %d\n", (fcntl(s[0], F_GETFL) & O_NONBLOCK) != 0, (fcntl(s[1], F_GETFL) & O_NONBLOCK) != 0);
    int full = 0;
    while (send(s[1], buf, sizeof buf, MSG_DONTWAIT) > 0) full++;
    printf("filled: %d, errno %s\n", full > 10, strerror(errno));
    close(s[0]);
    close(s[1]);

    /* what Linux refuses */
    check("socketpair AF_INET", socketpair(AF_INET, SOCK_STREAM, 0, s));
    check("socketpair bad type", socketpair(AF_UNIX, 9, 0, s));
    check("socketpair bad protocol", socketpair(AF_UNIX, SOCK_STREAM, 6, s));
    int *volatile nowhere = (int *)8;
    check("socketpair EFAULT", socketpair(AF_UNIX, SOCK_STREAM, 0, nowhere));
    check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, s));
    check("listen", listen(s[0], 1));
    check("accept", accept(s[0], NULL, NULL));
    check("shutdown of a file", shutdown(1, SHUT_RD));
    check("recv of a file", recv(1, buf, 1, 0));
    check("close", close(s[0]) | close(s[1]));
}

/* serve FD: what the child does after its execve, through the socket it inherited */
static int serve(int fd) {
    int type = 0;
    socklen_t len = sizeof type;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_STREAM) return 5;
    char req[64];
    long n;
    while ((n = recv(fd, req, sizeof req, 0)) > 0) {
        char reply[80];
        int rlen = snprintf(reply, sizeof reply, "len %ld first %c", n, req[0]);
        if (send(fd, reply, (size_t)rlen, 0) != rlen) return 6;
    }
    return n == 0 ? 3 : 4;
}

/* a child serving requests, one line each, until end of file (`exec`: after an execve) */
static void with_child(bool exec) {
    int s[2];
    check("socketpair", socketpair(AF_UNIX, SOCK_STREAM | (exec ? 0 : SOCK_CLOEXEC), 0, s));
    fflush(stdout);
    pid_t child = fork();
    if (child == 0 && exec) {
        close(s[0]);
        char fd[16];
        snprintf(fd, sizeof fd, "%d", s[1]);
        char *argv[] = {"socketpair_use", "serve", fd, NULL};
        execv("/proc/self/exe", argv);
        _exit(99);
    }
    if (child == 0) {
        close(s[0]);
        char req[64];
        long n;
        while ((n = read(s[1], req, sizeof req)) > 0) {
            char reply[80];
            int len = snprintf(reply, sizeof reply, "len %ld first %c", n, req[0]);
            write(s[1], reply, (size_t)len);
        }
        _exit(n == 0 ? 3 : 4);
    }
    close(s[1]);
    const char *reqs[] = {"alpha", "be", "gamma ray"};
    for (int i = 0; i < 3; i++) {
        char reply[80] = {0};
        write(s[0], reqs[i], strlen(reqs[i]));
        long n = read(s[0], reply, sizeof reply - 1); /* waits for the child */
        printf("reply %ld [%s]\n", n, reply);
    }
    check("shutdown SHUT_WR", shutdown(s[0], SHUT_WR));
    int status;
    check("wait", waitpid(child, &status, 0) == child);
    printf("child exit %d\n", WEXITSTATUS(status));
    char c;
    check("read eof", read(s[0], &c, 1));
    close(s[0]);
}

static void with_thread(void) {
    check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, pair));
    pthread_t t;
    pthread_create(&t, NULL, echo_thread, NULL);
    volatile unsigned long sum = 0;
    for (unsigned long i = 0; i < 300000; i++) sum += i; /* the thread waits meanwhile */
    printf("sum %lu\n", sum);
    check("send", send(pair[0], "wake", 4, 0));
    char buf[8] = {0};
    check("recv", recv(pair[0], buf, sizeof buf - 1, 0)); /* waits for the thread */
    printf("main got [%s]\n", buf);
    pthread_join(t, NULL);
    printf("thread got %ld [%s]\n", thread_got, thread_buf);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "all";
    if (!strcmp(mode, "fork") || !strcmp(mode, "exec")) with_child(mode[0] == 'e');
    else if (!strcmp(mode, "serve") && argc > 2) return serve(atoi(argv[2]));
    else if (!strcmp(mode, "threads")) with_thread();
    else if (!strcmp(mode, "sigpipe") || !strcmp(mode, "block")) {
        int s[2];
        char c;
        check("socketpair", socketpair(AF_UNIX, SOCK_DGRAM, 0, s));
        fflush(stdout);
        if (mode[0] == 's') close(s[1]), check("write", write(s[0], "x", 1));
        else check("read", read(s[0], &c, 1));
    } else one_process();
    return 0;
}
