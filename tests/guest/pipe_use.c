#define _GNU_SOURCE
/* Pipes inside one process, as programs use them (pipe2 returned ENOSYS):
 *   pipe_use            write then read back, partial reads, EOF after the write end
 *                       closes, O_NONBLOCK (EAGAIN on empty, F_GETFL/F_SETFL),
 *                       O_CLOEXEC (F_GETFD), dup2 of stdout into a pipe, poll,
 *                       fstat, lseek (ESPIPE), EPIPE with SIGPIPE ignored, a full
 *                       pipe in non-blocking mode, stdio (fdopen) over a pipe
 *   pipe_use sigpipe    a write with no reader left and SIGPIPE's default action:
 *                       killed (141)
 *   pipe_use block      a blocking read of an empty pipe only the program can write:
 *                       waits forever on Linux (cyclescope ends the run; not compared) */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void check(const char *what, long got) {
    printf("%-28s %ld%s%s\n", what, got, got < 0 ? " errno " : "", got < 0 ? strerror(errno) : "");
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "all";
    int p[2];
    check("pipe", pipe(p));
    if (!strcmp(mode, "sigpipe")) {
        close(p[0]);
        fflush(stdout);
        check("write without reader", write(p[1], "x", 1)); /* not reached */
        return 0;
    }
    if (!strcmp(mode, "block")) {
        char c;
        fflush(stdout);
        check("read empty", read(p[0], &c, 1));
        return 0;
    }
    char buf[64] = {0};
    check("write", write(p[1], "hello, pipe", 11));
    check("read 5", read(p[0], buf, 5));
    printf("got [%s]\n", buf);
    memset(buf, 0, sizeof buf);
    check("read rest", read(p[0], buf, sizeof buf));
    printf("got [%s]\n", buf);
    struct stat st;
    check("fstat", fstat(p[0], &st));
    printf("fifo %d\n", S_ISFIFO(st.st_mode));
    check("lseek", lseek(p[0], 0, SEEK_SET));
    struct pollfd pf[2] = {{p[0], POLLIN, 0}, {p[1], POLLOUT, 0}};
    check("poll empty", poll(pf, 2, 0));
    printf("revents %d %d\n", pf[0].revents, pf[1].revents);
    check("write 3", write(p[1], "abc", 3));
    check("poll data", poll(pf, 1, 1000));
    printf("revents %d\n", pf[0].revents);
    check("read 3", read(p[0], buf, 3));

    /* flags */
    int q[2];
    check("pipe2 nonblock|cloexec", pipe2(q, O_NONBLOCK | O_CLOEXEC));
    check("F_GETFL nonblock", fcntl(q[0], F_GETFL) & O_NONBLOCK);
    check("F_GETFD cloexec", fcntl(q[0], F_GETFD));
    check("read empty nonblock", read(q[0], buf, 1));
    check("F_SETFL clear", fcntl(q[0], F_SETFL, 0));
    check("F_GETFL after", fcntl(q[0], F_GETFL) & O_NONBLOCK);
    check("F_GETFD pipe()", fcntl(p[0], F_GETFD));
    int d = dup(q[1]);
    check("F_GETFD dup", fcntl(d, F_GETFD));
    check("dup3 cloexec", dup3(q[1], 20, O_CLOEXEC));
    check("F_GETFD dup3", fcntl(20, F_GETFD));
    check("dup3 bad flag", dup3(q[1], 21, 1));
    close(20);
    /* fill the non-blocking write end */
    static char big[4096];
    long total = 0, w;
    while ((w = write(q[1], big, sizeof big)) > 0) total += w;
    printf("full after %ld bytes: errno %s\n", total, strerror(errno));
    while (total > 0 && (w = read(q[0], big, sizeof big)) > 0) total -= w; /* blocking now: stop at empty */
    printf("drained, %ld left\n", total);
    close(q[1]);
    close(d);
    check("read at EOF", read(q[0], buf, 1));
    close(q[0]);

    /* stdout into a pipe and back */
    fflush(stdout);
    int saved = dup(1);
    check("pipe again", pipe(q));
    dup2(q[1], 1);
    printf("through the pipe %d\n", 42);
    fflush(stdout);
    dup2(saved, 1);
    close(q[1]);
    memset(buf, 0, sizeof buf);
    check("read redirected", read(q[0], buf, sizeof buf - 1));
    printf("got [%s]", buf);
    close(q[0]);

    /* stdio streams over a pipe */
    check("pipe for stdio", pipe(q));
    FILE *wf = fdopen(q[1], "w"), *rf = fdopen(q[0], "r");
    for (int i = 0; i < 5; i++) fprintf(wf, "line %d %d\n", i, i * i);
    fclose(wf);
    int a, b, lines = 0;
    while (fscanf(rf, "line %d %d\n", &a, &b) == 2) lines++, printf("read line %d %d\n", a, b);
    fclose(rf);
    printf("%d lines\n", lines);

    /* no reader: EPIPE, with SIGPIPE ignored */
    signal(SIGPIPE, SIG_IGN);
    check("pipe for EPIPE", pipe(q));
    close(q[0]);
    check("write without reader", write(q[1], "x", 1));
    check("close", close(q[1]));
    check("pipe2 bad flags", pipe2(q, 0x1));
    int *volatile nowhere = (int *)8;
    check("pipe bad address", pipe(nowhere));
    return 0;
}
