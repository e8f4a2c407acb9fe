/* A listing of /proc and the stat of each process in it, as a ps-like reader makes them
 * (docs/sandbox.md §15 "/proc"). The guest's processes are a PID namespace of their own, so
 * the listing must hold exactly them (cyclescope only: qemu-riscv64 shows the host's). One
 * case per argument:
 *   list   the first process forks A (1100), A forks a grandchild G (1200), then the first
 *          process forks B (1300), which starts a second thread; each waits on a pipe. The
 *          numeric entries of /proc (readdir), the same by getdents64 with a buffer of one or
 *          two entries, after a rewinddir, and from a telldir/seekdir in the middle; the
 *          non-numeric entries "self" and "thread-self" are there; then every process' stat:
 *          pid, name, ppid, group, session, thread count, start (not before its parent's), a
 *          size and RSS above 0, from the first process and from B
 *   torn   a child renames itself 20000 times between two names of different lengths while
 *          the parent reads its comm, stat and status: every read names one of the two whole
 *          (a name half rewritten before the sequence lock) */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int compare(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static int numeric(const char *name) {
    if (!*name) return 0;
    for (const char *c = name; *c; c++)
        if (*c < '0' || *c > '9') return 0;
    return 1;
}

/* the pids readdir lists, sorted; *specials counts "self" and "thread-self" */
static int list_pids(DIR *d, int *pids, int max, int *specials) {
    int n = 0;
    *specials = 0;
    for (struct dirent *entry; (entry = readdir(d));) {
        if (numeric(entry->d_name) && n < max) pids[n++] = atoi(entry->d_name);
        if (!strcmp(entry->d_name, "self") || !strcmp(entry->d_name, "thread-self")) ++*specials;
    }
    qsort(pids, (size_t)n, sizeof *pids, compare);
    return n;
}

static void print_pids(const char *what, const int *pids, int n) {
    printf("%s:", what);
    for (int i = 0; i < n; i++) printf(" %d", pids[i]);
    printf("\n");
}

/* getdents64 with a buffer of `size` bytes, one call after another: the pids, in order */
static void by_getdents(int size) {
    int fd = open("/proc", O_RDONLY | O_DIRECTORY);
    char buf[512];
    int pids[64], n = 0, calls = 0;
    long got;
    while ((got = syscall(SYS_getdents64, fd, buf, size)) > 0) {
        calls++;
        for (long at = 0; at < got;) {
            struct dirent64 *d = (struct dirent64 *)(buf + at);
            if (numeric(d->d_name) && n < 64) pids[n++] = atoi(d->d_name);
            at += d->d_reclen;
        }
    }
    char what[64];
    snprintf(what, sizeof what, "getdents64 by %d bytes%s", size, got < 0 ? " (failed)" : "");
    print_pids(what, pids, n);
    /* a buffer too small for one entry: EINVAL, as Linux */
    lseek(fd, 0, SEEK_SET);
    long tiny = syscall(SYS_getdents64, fd, buf, 8);
    if (size == 32) printf("getdents64 by 8 bytes: %s\n", tiny < 0 ? "EINVAL" : "entries");
    close(fd);
}

static void print_stats(const char *who, const int *pids, int n) {
    unsigned long long first_start = 0;
    for (int i = 0; i < n; i++) {
        char path[64], text[1024];
        snprintf(path, sizeof path, "/proc/%d/stat", pids[i]);
        int fd = open(path, O_RDONLY);
        long got = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
        if (fd >= 0) close(fd);
        if (got <= 0) {
            printf("%s: %d: no stat\n", who, pids[i]);
            continue;
        }
        text[got] = 0;
        int pid, ppid, pgrp, session, threads;
        char name[32], state;
        unsigned long long start, vsize;
        long rss;
        char *close_paren = strrchr(text, ')');
        if (sscanf(text, "%d (%31[^)])", &pid, name) != 2 || !close_paren ||
            sscanf(close_paren + 2,
                   "%c %d %d %d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %d %*d %llu %llu %ld", &state,
                   &ppid, &pgrp, &session, &threads, &start, &vsize, &rss) != 8) {
            printf("%s: %d: unreadable stat %s", who, pids[i], text);
            continue;
        }
        if (i == 0) first_start = start;
        printf("%s: %d (%s) state %s ppid %d pgrp %d session %d threads %d start %s size %s rss %s\n", who, pid, name,
               strchr("RSDT", state) ? "known" : "other", ppid, pgrp, session, threads,
               i == 0                     ? "first"
                   : start >= first_start ? "later"
                                          : "EARLIER",
               vsize > 0 ? ">0" : "0", rss > 0 ? ">0" : "0");
    }
}

static void *idle(void *arg) {
    int fd = *(int *)arg;
    char c;
    while (read(fd, &c, 1) > 0) {
    }
    return NULL;
}

static void wait_eof(int fd) {
    char c;
    while (read(fd, &c, 1) > 0) {
    }
}

static int case_list(void) {
    int ready[2], hold[2];
    if (pipe(ready) || pipe(hold)) return 1;
    pid_t a = fork();
    if (a == 0) {
        close(ready[0]);
        close(hold[1]);
        prctl(PR_SET_NAME, "kid-a");
        pid_t g = fork();
        if (g == 0) {
            prctl(PR_SET_NAME, "grandkid");
            if (write(ready[1], "g", 1) != 1) _exit(1);
            close(ready[1]);
            wait_eof(hold[0]);
            _exit(0);
        }
        if (write(ready[1], "a", 1) != 1) _exit(1);
        close(ready[1]);
        wait_eof(hold[0]);
        waitpid(g, NULL, 0);
        _exit(0);
    }
    char c;
    for (int i = 0; i < 2; i++) /* A and G are there before B is forked: B is 1300 */
        if (read(ready[0], &c, 1) != 1) return 1;
    int go[2], done[2];
    if (pipe(go) || pipe(done)) return 1;
    pid_t b = fork();
    if (b == 0) {
        close(ready[0]);
        close(hold[1]);
        close(go[1]);
        close(done[0]);
        prctl(PR_SET_NAME, "kid-b");
        pthread_t t;
        int idle_fd = hold[0];
        pthread_create(&t, NULL, idle, &idle_fd);
        if (write(ready[1], "b", 1) != 1) _exit(1);
        close(ready[1]);
        if (read(go[0], &c, 1) != 1) _exit(1); /* the parent printed its lines */
        int pids[64], specials;
        DIR *d = opendir("/proc");
        int n = list_pids(d, pids, 64, &specials);
        closedir(d);
        print_pids("B's readdir", pids, n);
        print_stats("B", pids, n);
        fflush(stdout);
        if (write(done[1], "d", 1) != 1) _exit(1);
        wait_eof(hold[0]);
        _exit(0);
    }
    close(go[0]);
    close(done[1]);
    close(ready[1]);
    if (read(ready[0], &c, 1) != 1) return 1;
    int pids[64], specials;
    DIR *d = opendir("/proc");
    int n = list_pids(d, pids, 64, &specials);
    print_pids("readdir", pids, n);
    printf("self and thread-self: %d\n", specials);
    rewinddir(d);
    int again[64];
    int m = list_pids(d, again, 64, &specials);
    print_pids("after rewinddir", again, m);
    /* telldir after the second pid, seekdir back there from the end */
    rewinddir(d);
    long mark = -1;
    int seen = 0;
    for (struct dirent *entry; (entry = readdir(d));)
        if (numeric(entry->d_name) && ++seen == 2) {
            mark = telldir(d);
            break;
        }
    while (readdir(d)) {
    }
    seekdir(d, mark);
    int rest[64], k = 0;
    for (struct dirent *entry; (entry = readdir(d));)
        if (numeric(entry->d_name)) rest[k++] = atoi(entry->d_name);
    print_pids("after seekdir past the second", rest, k);
    closedir(d);
    by_getdents(32);
    by_getdents(56);
    print_stats("first", pids, n);
    fflush(stdout);
    if (write(go[1], "g", 1) != 1 || read(done[0], &c, 1) != 1) return 1;
    close(hold[1]);
    int status;
    waitpid(a, &status, 0);
    waitpid(b, &status, 0);
    d = opendir("/proc");
    n = list_pids(d, pids, 64, &specials);
    closedir(d);
    print_pids("after the waits", pids, n);
    return 0;
}

static int case_torn(void) {
    int ready[2];
    if (pipe(ready)) return 1;
    pid_t child = fork();
    if (child == 0) {
        close(ready[0]);
        if (write(ready[1], "x", 1) != 1) _exit(1);
        for (int i = 0; i < 20000; i++) prctl(PR_SET_NAME, i % 2 ? "abcdefghijklmno" : "xy");
        _exit(0);
    }
    close(ready[1]);
    char c;
    if (read(ready[0], &c, 1) != 1) return 1;
    int torn = 0, reads = 0;
    for (int round = 0; round < 2000; round++) {
        const char *files[] = {"comm", "stat", "status"};
        for (int f = 0; f < 3; f++) {
            char path[64], text[1024];
            snprintf(path, sizeof path, "/proc/%d/%s", child, files[f]);
            int fd = open(path, O_RDONLY);
            if (fd < 0) break; /* the child is gone and reaped: not before our wait */
            long got = read(fd, text, sizeof text - 1);
            close(fd);
            if (got <= 0) continue;
            text[got] = 0;
            reads++;
            /* the name: comm's line, stat's between the parentheses, status' Name line */
            char *name = text, *stop;
            if (f == 1) name = strchr(text, '(') + 1, stop = strrchr(text, ')');
            else {
                if (f == 2) name = strchr(text, '\t') + 1;
                stop = strchr(name, '\n');
            }
            if (stop) *stop = 0;
            if (strcmp(name, "abcdefghijklmno") && strcmp(name, "xy") && strcmp(name, "proc_list")) torn++;
        }
    }
    int status;
    waitpid(child, &status, 0);
    printf("torn names: %d (%s)\n", torn, reads > 0 ? "read" : "nothing read");
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "list")) return case_list();
    if (argc > 1 && !strcmp(argv[1], "torn")) return case_torn();
    fprintf(stderr, "usage: proc_list list|torn\n");
    return 2;
}
