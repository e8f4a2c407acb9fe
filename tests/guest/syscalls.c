#define _GNU_SOURCE
/* Exercises the system calls a static glibc program makes and checks their
 * results itself. `syscalls basic FILE` prints lines that must be the same
 * under qemu-riscv64 and cyclescope; `syscalls write DIR` tries to create a
 * file in DIR and prints whether it could. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static int failures;
#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            printf("FAIL line %d: %s (errno %d)\n", __LINE__, #cond, errno); \
            failures++;                                                      \
        }                                                                    \
    } while (0)

static int basic(const char *file) {
    /* read, lseek, fstat, newfstatat, faccessat on a host file */
    int fd = open(file, O_RDONLY);
    CHECK(fd >= 0);
    char head[4] = {0};
    CHECK(read(fd, head, 4) == 4);
    printf("head: %02x %02x %02x %02x\n", (unsigned char)head[0], (unsigned char)head[1], (unsigned char)head[2],
           (unsigned char)head[3]);
    struct stat st, st2;
    CHECK(fstat(fd, &st) == 0);
    CHECK(stat(file, &st2) == 0 && st2.st_size == st.st_size && st2.st_ino == st.st_ino);
    CHECK(S_ISREG(st.st_mode));
    off_t end = lseek(fd, 0, SEEK_END);
    CHECK(end == st.st_size);
    CHECK(lseek(fd, 1, SEEK_SET) == 1);
    char second;
    CHECK(pread(fd, &second, 1, 1) == 1 && second == head[1]);
    CHECK(access(file, R_OK) == 0);
    CHECK(access("/nonexistent/file", R_OK) == -1 && errno == ENOENT);
    CHECK(open("/nonexistent/file", O_RDONLY) == -1 && errno == ENOENT);
    /* a private file mapping sees the file's bytes */
    char *map = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
    CHECK(map != MAP_FAILED && memcmp(map, head, 4) == 0);
    CHECK(munmap(map, 4096) == 0);
    CHECK(close(fd) == 0);
    CHECK(close(fd) == -1 && errno == EBADF);
    /* stdio on files: fopen/fgets/fclose */
    FILE *f = fopen(file, "rb");
    CHECK(f != NULL);
    CHECK(fgetc(f) == (unsigned char)head[0]);
    fclose(f);

    /* anonymous memory: mmap, mprotect, munmap, brk, large malloc/realloc (mremap) */
    size_t big = 8u << 20;
    unsigned char *p = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(p != MAP_FAILED);
    CHECK(p[0] == 0 && p[big - 1] == 0);
    p[12345] = 7;
    CHECK(mprotect(p, 4096, PROT_READ) == 0);
    CHECK(munmap(p, big) == 0);
    void *brk0 = sbrk(0);
    CHECK(sbrk(1 << 20) == brk0);
    memset(brk0, 0xab, 1 << 20);
    CHECK(sbrk(-(1 << 20)) != (void *)-1);
    CHECK(sbrk(1 << 20) == brk0);
    CHECK(((unsigned char *)brk0)[100] == 0); /* regrown heap reads as zero */
    char *m = malloc(1 << 20);
    memset(m, 3, 1 << 20);
    m = realloc(m, 32 << 20);
    CHECK(m[(1 << 20) - 1] == 3);
    m[(32 << 20) - 1] = 1;
    free(m);
    char *z = calloc(1 << 20, 4);
    CHECK(z && z[0] == 0 && z[(4 << 20) - 1] == 0);
    free(z);

    /* process identity and limits */
    struct utsname u;
    CHECK(uname(&u) == 0 && strcmp(u.sysname, "Linux") == 0 && strcmp(u.machine, "riscv64") == 0);
    printf("sysname: %s machine: %s\n", u.sysname, u.machine);
    CHECK(getpid() > 0 && getpid() == gettid());
    struct rlimit rl;
    CHECK(getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur > 0);
    char cwd[4096];
    CHECK(getcwd(cwd, sizeof cwd) != NULL && cwd[0] == '/');
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    CHECK(n > 0);
    CHECK(isatty(1) == 0 || isatty(1) == 1);

    /* time goes forward; random bytes come */
    struct timespec t0, t1;
    CHECK(clock_gettime(CLOCK_MONOTONIC, &t0) == 0);
    for (volatile int i = 0; i < 100000; i++) {
    }
    CHECK(clock_gettime(CLOCK_MONOTONIC, &t1) == 0);
    CHECK(t1.tv_sec > t0.tv_sec || (t1.tv_sec == t0.tv_sec && t1.tv_nsec > t0.tv_nsec));
    struct timeval tv;
    CHECK(gettimeofday(&tv, NULL) == 0 && tv.tv_sec > 1600000000);
    CHECK(time(NULL) > 1600000000);
    unsigned char rnd[32] = {0}, zero[32] = {0};
    CHECK(getrandom(rnd, sizeof rnd, 0) == sizeof rnd && memcmp(rnd, zero, sizeof rnd) != 0);

    /* signals: handlers are recorded, masks accepted */
    struct sigaction sa = {0}, old;
    sa.sa_handler = SIG_IGN;
    CHECK(sigaction(SIGPIPE, &sa, NULL) == 0);
    CHECK(sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_IGN);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    CHECK(sigprocmask(SIG_BLOCK, &set, NULL) == 0);
    CHECK(raise(SIGPIPE) == 0); /* ignored */

    /* stdout through write and writev */
    CHECK(write(1, "write ok\n", 9) == 9);
    fprintf(stderr, "stderr ok\n");
    printf("failures: %d\n", failures);
    return failures ? 1 : 0;
}

static int try_write(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/cyclescope-write-test.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        printf("write denied: %s\n", strerror(errno));
        return 3;
    }
    fputs("written by the guest\n", f);
    fclose(f);
    f = fopen(path, "r");
    char line[64] = "";
    if (!f || !fgets(line, sizeof line, f)) return 4;
    fclose(f);
    printf("write allowed: %s", line);
    return strcmp(line, "written by the guest\n") == 0 ? 0 : 5;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "basic") == 0) return basic(argv[2]);
    if (argc == 3 && strcmp(argv[1], "write") == 0) return try_write(argv[2]);
    fprintf(stderr, "usage: syscalls basic FILE | write DIR\n");
    return 2;
}
