/* mremap growing a MAP_SHARED|MAP_ANONYMOUS mapping: Linux's shmem object keeps the size it
 * was made with, so the pages the mapping grew by lie past its end and an access there is
 * SIGBUS (BUS_ADRERR), a system call's copy EFAULT; the pages it had stay shared with a child
 * forked before and with one forked after (docs/sandbox.md §15 "Shared memory"). One case
 * per argument:
 *   place  grown in place (nothing mapped after it)
 *   move   moved (a page mapped right after it: MREMAP_MAYMOVE moves it) */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static sigjmp_buf back;
static volatile int code;

static void on_fault(int sig, siginfo_t *info, void *context) {
    (void)context;
    code = info->si_code;
    siglongjmp(back, sig);
}

/* a store (or load) at p: "ok" or the signal and its si_code */
static void touch(const char *what, volatile char *p, int store) {
    int sig = sigsetjmp(back, 1);
    if (!sig) {
        if (store) *p = 5;
        else (void)*p;
        printf("%s: ok\n", what);
    } else
        printf("%s: signal %s, si_code %s\n", what,
               sig == SIGBUS        ? "SIGBUS"
                   : sig == SIGSEGV ? "SIGSEGV"
                                    : "other",
               code == BUS_ADRERR ? "BUS_ADRERR" : "other");
}

int main(int argc, char **argv) {
    int move = argc > 1 && !strcmp(argv[1], "move");
    long page = sysconf(_SC_PAGESIZE);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGSEGV, &sa, NULL);
    /* room for three pages, of which the first two are the shared mapping */
    char *area = mmap(NULL, 4 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(area, 4 * page);
    char *p = mmap(area, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (move) mmap(area + 2 * page, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    p[0] = 1;
    p[page] = 2;
    int ready[2], go[2];
    if (pipe(ready) || pipe(go)) return 1;
    pid_t before = fork(); /* shares the two pages, at their old address */
    if (before == 0) {
        char c;
        if (read(go[0], &c, 1) != 1) _exit(1);
        p[1] = 11;
        p[page + 1] = 12;
        _exit(0);
    }
    char *q = mremap(p, 2 * page, 3 * page, MREMAP_MAYMOVE);
    if (q == MAP_FAILED) {
        printf("mremap: %s\n", strerror(errno));
        return 1;
    }
    /* (where it went is not printed: qemu-riscv64 moves it in both cases) */
    printf("kept: %d %d\n", q[0], q[page]);
    touch("store past the end", q + 2 * page, 1);
    touch("load past the end", q + 2 * page + 100, 0);
    errno = 0;
    long n = write(ready[1], q + 2 * page, 1);
    printf("write(2) from past the end: %ld %s\n", n, n < 0 && errno == EFAULT ? "EFAULT" : strerror(errno));
    if (write(go[1], "g", 1) != 1) return 1;
    int status;
    waitpid(before, &status, 0);
    printf("child forked before wrote: %d %d\n", q[1], q[page + 1]);
    fflush(stdout);
    pid_t after = fork();
    if (after == 0) {
        q[2] = 21;
        q[page + 2] = 22;
        touch("child: store past the end", q + 2 * page, 1);
        fflush(stdout);
        _exit(0);
    }
    waitpid(after, &status, 0);
    printf("child forked after wrote: %d %d\n", q[2], q[page + 2]);
    return 0;
}
