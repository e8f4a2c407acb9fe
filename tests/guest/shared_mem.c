/* MAP_SHARED memory between a process and its forked children (docs/sandbox.md §15): each
 * one's writes are the other's at once, as on Linux, whatever ends the writer. One case per
 * argument:
 *   anon           a child writes to an anonymous shared mapping and exits; the parent reads
 *   anon_kill      ... and is killed by SIGKILL while it waits (no handler sees SIGKILL)
 *   both_ways      parent and child write in turn (a pipe orders them), each reads the other's
 *   split          mprotect splits the mapping, the child munmaps a page of its own view: the
 *                  rest stays shared, the parent keeps the page the child unmapped
 *   private        MAP_PRIVATE memory is the child's own (its writes are not seen)
 *   dontneed       MADV_DONTNEED of shared memory keeps its bytes (shmem's pages)
 *   counter        one process adds 1 to a word of shared memory 600 000 times, then computes
 *                  without it (SimPoint's copies timing points of the loop must not write the
 *                  run's word)
 *   file_kill DIR  a child writes through a MAP_SHARED mapping of DIR/shared_mem (mapped before
 *                  the fork) and is killed by SIGKILL: the parent's mapping and the file have them
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static int to_parent[2], to_child[2];

static pid_t fork_flushed(void) {
    fflush(stdout);
    pid_t c = fork();
    if (c < 0) {
        perror("fork");
        exit(90);
    }
    return c;
}

static void say(int fd) {
    if (write(fd, "x", 1) != 1) _exit(91);
}

static void hear(int fd) {
    char c;
    if (read(fd, &c, 1) != 1) _exit(92);
}

static void status(pid_t c) {
    int st;
    waitpid(c, &st, 0);
    if (WIFSIGNALED(st)) printf("child killed by signal %d\n", WTERMSIG(st));
    else printf("child exit %d\n", WEXITSTATUS(st));
}

static char *shared_pages(int n, int flags) {
    char *p = mmap(NULL, (size_t)n * 4096, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(93);
    }
    return p;
}

static int case_anon(int kill_it) {
    char *p = shared_pages(4, MAP_SHARED);
    strcpy(p, "parent");
    pid_t c = fork_flushed();
    if (c == 0) {
        strcpy(p, "child wrote this");
        strcpy(p + 3 * 4096 + 100, "and this, on the last page");
        if (!kill_it) _exit(3);
        say(to_parent[1]);
        for (;;) pause();
    }
    if (kill_it) {
        hear(to_parent[0]);
        kill(c, SIGKILL);
    }
    status(c);
    printf("parent sees: '%s' '%s'\n", p, p + 3 * 4096 + 100);
    return 0;
}

static int case_both_ways(void) {
    int *v = (int *)shared_pages(1, MAP_SHARED);
    pid_t c = fork_flushed();
    if (c == 0) {
        for (int i = 0; i < 5; i++) {
            hear(to_child[0]);
            v[1] = v[0] * 10; /* the parent's value, seen here */
            say(to_parent[1]);
        }
        _exit(0);
    }
    for (int i = 1; i <= 5; i++) {
        v[0] = i;
        say(to_child[1]);
        hear(to_parent[0]);
        printf("parent wrote %d, child answered %d\n", i, v[1]);
    }
    status(c);
    return 0;
}

static int case_split(void) {
    char *p = shared_pages(3, MAP_SHARED);
    mprotect(p + 4096, 4096, PROT_READ); /* three regions now */
    pid_t c = fork_flushed();
    if (c == 0) {
        strcpy(p, "first");
        munmap(p + 2 * 4096, 4096); /* its own view only */
        mprotect(p + 4096, 4096, PROT_READ | PROT_WRITE);
        strcpy(p + 4096, "second");
        _exit(0);
    }
    status(c);
    strcpy(p + 2 * 4096, "third, still the parent's");
    printf("parent sees: '%s' '%s' '%s'\n", p, p + 4096, p + 2 * 4096);
    return 0;
}

static int case_private(void) {
    char *p = shared_pages(1, MAP_PRIVATE);
    strcpy(p, "parent's own");
    pid_t c = fork_flushed();
    if (c == 0) {
        strcpy(p, "child's own");
        _exit(0);
    }
    status(c);
    printf("parent sees: '%s'\n", p);
    return 0;
}

static int case_dontneed(void) {
    char *p = shared_pages(2, MAP_SHARED), *q = shared_pages(1, MAP_PRIVATE);
    strcpy(p, "kept");
    strcpy(q, "gone");
    printf("madvise: %d %d\n", madvise(p, 2 * 4096, MADV_DONTNEED), madvise(q, 4096, MADV_DONTNEED));
    printf("shared: '%s', private: '%s'\n", p, q);
    return 0;
}

static int case_counter(void) {
    volatile long *v = (volatile long *)shared_pages(1, MAP_SHARED);
    for (int i = 0; i < 600000; i++) v[0] = v[0] + 1;
    /* then long enough without it for a copy timing a point of the loop to have written it */
    volatile unsigned long x = 1;
    for (int i = 0; i < 3000000; i++) x = x * 6364136223846793005ul + 1442695040888963407ul;
    printf("counter %ld\n", v[0]);
    return 0;
}

static int case_file_kill(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/shared_mem", dir);
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    if (fd < 0 || write(fd, "................", 16) != 16) return 80;
    char *p = mmap(NULL, 16, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) return 81;
    pid_t c = fork_flushed();
    if (c == 0) {
        memcpy(p + 2, "child", 5);
        say(to_parent[1]);
        for (;;) pause();
    }
    hear(to_parent[0]);
    kill(c, SIGKILL);
    status(c);
    printf("parent's mapping: '%.16s'\n", p);
    munmap(p, 16);
    char back[17] = {0};
    if (pread(fd, back, 16, 0) != 16) return 82;
    printf("file: '%s'\n", back);
    close(fd);
    unlink(path);
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (pipe(to_parent) || pipe(to_child)) return 94;
    const char *c = argc > 1 ? argv[1] : "";
    if (!strcmp(c, "anon")) return case_anon(0);
    if (!strcmp(c, "anon_kill")) return case_anon(1);
    if (!strcmp(c, "both_ways")) return case_both_ways();
    if (!strcmp(c, "split")) return case_split();
    if (!strcmp(c, "private")) return case_private();
    if (!strcmp(c, "dontneed")) return case_dontneed();
    if (!strcmp(c, "counter")) return case_counter();
    if (!strcmp(c, "file_kill") && argc > 2) return case_file_kill(argv[2]);
    fprintf(stderr, "shared_mem: unknown case '%s'\n", c);
    return 2;
}
