/* MAP_SHARED mappings of files (issue 11 follow-up): what the guest writes
 * through a shared mapping reaches the file, as under Linux. One line per
 * check; files are read back with read(2). tests/scripts/shared_map.sh runs
 * each mode under qemu-riscv64 (Linux's own mmap) and under cyclescope and
 * compares the output and the files left behind.
 *
 *   shared_map DIR basic     msync, munmap, a write(2) to the file meanwhile, bytes past EOF
 *   shared_map DIR exit      change a mapping and exit without munmap
 *   shared_map DIR errors    EACCES and EINVAL cases of mmap, mprotect, msync
 *   shared_map DIR split     munmap of the middle page of three, the rest at exit
 *   shared_map DIR fixed     a MAP_FIXED mapping over a changed shared one
 *   shared_map DIR dontneed  MADV_DONTNEED over a changed shared mapping
 *   shared_map DIR mprotect  mapped read-only, made writable, written
 *   shared_map DIR stdin     map standard input shared and writable, write through it
 *   shared_map DIR grow      the file grows under the mapping (pwrite past its end)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char path[4096];

static void make(const char *dir, const char *name, const char *content, size_t n) {
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0 || write(fd, content, n) != (ssize_t)n) {
        printf("cannot create %s: %s\n", name, strerror(errno));
        exit(1);
    }
    close(fd);
}

/* The file as read(2) sees it: its length and bytes (unprintable as '.'). */
static void show(const char *when) {
    char buf[16384];
    int fd = open(path, O_RDONLY);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf);
    if (fd >= 0) close(fd);
    printf("%s: %zd bytes: ", when, n);
    for (ssize_t i = 0; i < n; i++) putchar(buf[i] >= 32 && buf[i] < 127 ? buf[i] : '.');
    putchar('\n');
}

static void *map(int prot, int flags, int open_flags) {
    int fd = open(path, open_flags);
    if (fd < 0) {
        printf("open: %s\n", strerror(errno));
        return MAP_FAILED;
    }
    void *p = mmap(NULL, 12288, prot, flags, fd, 0);
    close(fd); /* the mapping keeps the file */
    return p;
}

static const char *err(long r) { return r == 0 ? "0" : strerror(errno); }

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    const char *dir = argv[1], *mode = argv[2];
    if (!strcmp(mode, "basic")) {
        make(dir, "basic", "0123456789abcdef", 16);
        char *p = map(PROT_READ | PROT_WRITE, MAP_SHARED, O_RDWR);
        if (p == MAP_FAILED) return 1;
        memcpy(p + 2, "XY", 2);
        show("before msync");
        printf("msync: %s\n", err(msync(p, 4096, MS_SYNC)));
        show("after msync");
        p[20] = 'Z'; /* past the end of the file: never written to it */
        int fd = open(path, O_RDWR);
        printf("pwrite: %zd\n", pwrite(fd, "W", 1, 10)); /* the file changes under the mapping */
        close(fd);
        printf("the mapping sees the write: %c\n", p[10]);
        p[4] = 'Q';
        printf("munmap: %s\n", err(munmap(p, 12288)));
        show("after munmap");
    } else if (!strcmp(mode, "exit")) {
        make(dir, "exit", "hello, world", 12);
        char *p = map(PROT_READ | PROT_WRITE, MAP_SHARED, O_RDWR);
        if (p == MAP_FAILED) return 1;
        p[0] = 'J';
        p[7] = 'W';
        show("before exit");
        return 0; /* the kernel writes the pages back when the process ends */
    } else if (!strcmp(mode, "errors")) {
        make(dir, "errors", "abc", 3);
        printf("O_RDONLY, PROT_WRITE, MAP_SHARED: %s\n",
               map(PROT_READ | PROT_WRITE, MAP_SHARED, O_RDONLY) == MAP_FAILED ? strerror(errno) : "mapped");
        printf("O_WRONLY, PROT_READ, MAP_SHARED: %s\n",
               map(PROT_READ, MAP_SHARED, O_WRONLY) == MAP_FAILED ? strerror(errno) : "mapped");
        printf("O_WRONLY, PROT_READ, MAP_PRIVATE: %s\n",
               map(PROT_READ, MAP_PRIVATE, O_WRONLY) == MAP_FAILED ? strerror(errno) : "mapped");
        printf("O_RDWR|O_APPEND, PROT_WRITE, MAP_SHARED: %s\n",
               map(PROT_READ | PROT_WRITE, MAP_SHARED, O_RDWR | O_APPEND) == MAP_FAILED ? strerror(errno) : "mapped");
        char *q = map(PROT_READ | PROT_WRITE, MAP_PRIVATE, O_RDONLY);
        printf("O_RDONLY, PROT_WRITE, MAP_PRIVATE: %s\n", q == MAP_FAILED ? strerror(errno) : "mapped");
        if (q != MAP_FAILED) q[0] = 'P'; /* private: the file keeps its bytes */
        char *r = map(PROT_READ, MAP_SHARED, O_RDONLY);
        printf("O_RDONLY, PROT_READ, MAP_SHARED: %s, reads %c\n", r == MAP_FAILED ? strerror(errno) : "mapped",
               r == MAP_FAILED ? '?' : r[1]);
        if (r != MAP_FAILED) printf("mprotect to PROT_WRITE: %s\n", err(mprotect(r, 4096, PROT_READ | PROT_WRITE)));
        char *s = map(PROT_READ | PROT_WRITE, MAP_SHARED, O_RDWR);
        if (s == MAP_FAILED) return 1;
        printf("msync unaligned: %s\n", err(msync(s + 1, 10, MS_SYNC)));
        printf("msync MS_SYNC|MS_ASYNC: %s\n", err(msync(s, 10, MS_SYNC | MS_ASYNC)));
        printf("msync bad flag: %s\n", err(msync(s, 10, 8)));
        munmap(s, 12288);
        printf("msync unmapped: %s\n", err(msync(s, 4096, MS_SYNC)));
        show("at the end");
    } else if (!strcmp(mode, "split")) {
        char content[12288];
        memset(content, 'a', 4096), memset(content + 4096, 'b', 4096), memset(content + 8192, 'c', 4096);
        make(dir, "split", content, sizeof content);
        char *p = map(PROT_READ | PROT_WRITE, MAP_SHARED, O_RDWR);
        if (p == MAP_FAILED) return 1;
        p[0] = 'A', p[4096] = 'B', p[8192] = 'C';
        printf("munmap middle: %s\n", err(munmap(p + 4096, 4096)));
        int fd = open(path, O_RDONLY);
        char got[3];
        pread(fd, got, 1, 0), pread(fd, got + 1, 1, 4096), pread(fd, got + 2, 1, 8192);
        close(fd);
        printf("first bytes of the pages, read back: %c%c%c\n", got[0], got[1], got[2]);
        p[1] = 'D', p[8193] = 'E';
        printf("msync first page: %s\n", err(msync(p, 4096, MS_SYNC)));
        return 0; /* the third page at exit */
    } else if (!strcmp(mode, "fixed")) {
        make(dir, "fixed", "fixed mapping", 13);
        char *p = map(PROT_READ | PROT_WRITE, MAP_SHARED, O_RDWR);
        if (p == MAP_FAILED) return 1;
        memcpy(p, "FIXED", 5);
        void *q = mmap(p, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        printf("MAP_FIXED over it: %s, reads %d\n", q == p ? "same address" : "moved", ((char *)q)[0]);
        show("after");
    } else if (!strcmp(mode, "dontneed")) {
        make(dir, "dontneed", "dontneed", 8);
        char *p = map(PROT_READ | PROT_WRITE, MAP_SHARED, O_RDWR);
        if (p == MAP_FAILED) return 1;
        p[0] = 'D';
        printf("madvise: %s, reads %c\n", err(madvise(p, 4096, MADV_DONTNEED)), p[0]);
        show("after");
    } else if (!strcmp(mode, "mprotect")) {
        make(dir, "mprotect", "read-only first", 15);
        char *p = map(PROT_READ, MAP_SHARED, O_RDWR);
        if (p == MAP_FAILED) return 1;
        printf("mprotect: %s\n", err(mprotect(p, 4096, PROT_READ | PROT_WRITE)));
        memcpy(p, "writable", 8);
        printf("munmap: %s\n", err(munmap(p, 12288)));
        show("after");
    } else if (!strcmp(mode, "grow")) {
        make(dir, "grow", "short", 5);
        char *p = map(PROT_READ | PROT_WRITE, MAP_SHARED, O_RDWR);
        if (p == MAP_FAILED) return 1;
        p[60] = 'P'; /* past the end: dropped */
        int fd = open(path, O_RDWR);
        printf("pwrite past the end: %zd\n", pwrite(fd, "Z", 1, 100));
        close(fd);
        printf("the mapping sees it: %c, and a zero before it: %d\n", p[100], p[60]);
        p[50] = 'Q'; /* now inside the file */
        printf("munmap: %s\n", err(munmap(p, 12288)));
        show("after");
    } else if (!strcmp(mode, "stdin")) {
        char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, 0, 0);
        printf("stdin, PROT_WRITE, MAP_SHARED: %s\n", p == MAP_FAILED ? strerror(errno) : "mapped");
        if (p != MAP_FAILED) p[0] = 'X', munmap(p, 4096);
    } else {
        return 2;
    }
    return 0;
}
