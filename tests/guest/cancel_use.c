/* pthread_cancel of a thread blocked in a cancellation point (docs/sandbox.md §4 "Threads"):
 * glibc 2.36 runs such a call in asynchronous mode and pthread_cancel sends the thread
 * SIGCANCEL (signal 32, glibc's own: a glibc program cannot catch, ignore or block it), whose
 * handler unwinds the thread, running its cleanup handlers. One case per argument:
 *   sleep     the thread in nanosleep (sleep(100))
 *   read      in read of a pipe nobody writes
 *   outside   in read of a pipe only a child process writes (the host watches it)
 *   poll      in poll of such a pipe, no timeout
 *   pause     in pause()
 *   waitpid   in waitpid for a child that ends only after main's end
 *   async     computing without a system call, cancel type asynchronous
 *   deferred  computing, cancel type deferred: it ends at its pthread_testcancel
 *   setxid    in read, while main calls setuid and setgid: glibc runs the call in every thread
 *             through SIGSETXID (signal 33), then the read is cancelled
 * The thread prints what it is about to do, its cleanup handler prints, and main prints the
 * join's result (PTHREAD_CANCELED). */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int empty[2], ready[2], hold[2];
static const char *mode;
static pid_t child = -1;
static volatile int spinning;

static void cleanup(void *arg) {
    (void)arg;
    printf("cleanup handler ran (%s)\n", mode);
    fflush(stdout);
}

static void *victim(void *arg) {
    (void)arg;
    pthread_cleanup_push(cleanup, NULL);
    char c;
    if (write(ready[1], "r", 1) != 1) return NULL; /* main cancels once it knows we are here */
    if (!strcmp(mode, "sleep")) sleep(100);
    else if (!strcmp(mode, "read") || !strcmp(mode, "outside") || !strcmp(mode, "setxid")) {
        ssize_t n = read(empty[0], &c, 1);
        printf("read returned %zd\n", n);
    } else if (!strcmp(mode, "poll")) {
        struct pollfd p = {.fd = empty[0], .events = POLLIN};
        printf("poll returned %d\n", poll(&p, 1, -1));
    } else if (!strcmp(mode, "pause")) pause();
    else if (!strcmp(mode, "waitpid")) printf("waitpid returned %d\n", (int)waitpid(child, NULL, 0));
    else if (!strcmp(mode, "async")) {
        pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
        for (;;) spinning++;
    } else if (!strcmp(mode, "deferred")) {
        for (;;) {
            for (int i = 0; i < 1000; i++) spinning++;
            pthread_testcancel();
        }
    }
    printf("not cancelled\n");
    pthread_cleanup_pop(0);
    return NULL;
}

int main(int argc, char **argv) {
    mode = argc > 1 ? argv[1] : "";
    if (pipe(empty) || pipe(ready) || pipe(hold)) return 1;
    if (!strcmp(mode, "outside") || !strcmp(mode, "poll") || !strcmp(mode, "waitpid")) {
        child = fork(); /* holds the write end, writes nothing until main's end */
        if (child == 0) {
            close(hold[1]);
            char c;
            while (read(hold[0], &c, 1) > 0) {
            }
            _exit(0);
        }
    }
    pthread_t t;
    if (pthread_create(&t, NULL, victim, NULL)) return 2;
    char c;
    if (read(ready[0], &c, 1) != 1) return 3;
    /* the victim waits (or spins) by now, or soon: a cancel that comes first is acted on at
     * the cancellation point itself */
    if (!strcmp(mode, "setxid")) {
        int g = setgid(getgid()), u = setuid(getuid());
        printf("setgid: %d, setuid: %d\n", g, u);
    }
    int r = pthread_cancel(t);
    void *result = NULL;
    pthread_join(t, &result);
    printf("pthread_cancel: %d, joined: %s\n", r, result == PTHREAD_CANCELED ? "PTHREAD_CANCELED" : "something else");
    if (child > 0) {
        close(hold[1]);
        int status = 0;
        waitpid(child, &status, 0);
        printf("child: exit %d\n", WEXITSTATUS(status));
    }
    return 0;
}
