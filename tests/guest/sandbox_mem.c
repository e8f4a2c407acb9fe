/* Memory and system-call limits of the sandbox; one line per check, for
 * tests/sandbox.cmake to match.
 *
 *   sandbox_mem fill          map and touch 16 MiB chunks until mmap says ENOMEM;
 *                             print how many MiB the guest got
 *   sandbox_mem devzero MIB   map MIB of /dev/zero privately and read its last byte
 *   sandbox_mem madvise       MADV_DONTNEED over a large untouched mapping, and
 *                             with huge and wrapping lengths; munmap of a huge range
 *   sandbox_mem code PAGES    execute one jump on each of PAGES fresh pages
 *   sandbox_mem linux         mmap MAP_FIXED at 0, kill(0, 0), sysinfo, qsort
 *   sandbox_mem sysinfo       print what sysinfo(2) says
 *   sandbox_mem efault PATH   read(2) into the program's own code and write(2) from a
 *                             PROT_NONE page: EFAULT, the code unchanged (as Linux)
 *   sandbox_mem self          argv[0], readlink("/proc/self/exe"), and the size and
 *                             first bytes of the file opened by each of the two names
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <unistd.h>

static long raw(long nr, long a0, long a1, long a2) {
    register long x10 __asm__("a0") = a0, x11 __asm__("a1") = a1, x12 __asm__("a2") = a2, x17 __asm__("a7") = nr;
    __asm__ volatile("ecall" : "+r"(x10) : "r"(x11), "r"(x12), "r"(x17) : "memory");
    return x10;
}

static int fill(void) {
    const size_t chunk = 16u << 20;
    size_t got = 0;
    for (;;) {
        unsigned char *p = mmap(NULL, chunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            printf("fill: mmap: %s after %zu MiB\n", strerror(errno), got >> 20);
            return 0;
        }
        for (size_t i = 0; i < chunk; i += 4096) p[i] = 1;
        got += chunk;
    }
}

static int devzero(long mib) {
    int fd = open("/dev/zero", O_RDONLY);
    size_t len = (size_t)mib << 20;
    unsigned char *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        printf("devzero: mmap: %s\n", strerror(errno));
        return 0;
    }
    printf("devzero: mapped, last byte %d\n", p[len - 1]);
    return 0;
}

static int advise(void) {
    size_t len = 2ul << 30;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        printf("madvise: mmap: %s\n", strerror(errno));
        return 1;
    }
    ((char *)p)[12345] = 7;
    long r = raw(SYS_madvise, (long)p, (long)len, MADV_DONTNEED);
    printf("madvise 2 GiB untouched: %ld, byte now %d\n", r, ((char *)p)[12345]);
    printf("madvise huge length: %ld\n", raw(SYS_madvise, (long)p, 1l << 62, MADV_DONTNEED));
    printf("madvise wrapping length: %ld\n", raw(SYS_madvise, (long)p, -4096l, MADV_DONTNEED));
    printf("madvise unmapped: %ld\n", raw(SYS_madvise, 1l << 40, 1l << 30, MADV_DONTNEED));
    printf("munmap 63 TiB above the stack: %ld\n", raw(SYS_munmap, 1l << 40, (1l << 46) - (1l << 40), 0));
    return 0;
}

static int code(long pages) {
    size_t len = (size_t)pages * 4096;
    uint32_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        printf("code: mmap: %s\n", strerror(errno));
        return 1;
    }
    for (long i = 0; i < pages - 1; i++) p[i * 1024] = 0x0000106f; /* jal x0, +4096 */
    p[(pages - 1) * 1024] = 0x00008067;                            /* ret */
    __builtin___clear_cache((char *)p, (char *)p + len);
    ((void (*)(void))p)();
    printf("code: ran %ld pages\n", pages);
    return 0;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static int linux_like(void) {
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    printf("mmap MAP_FIXED at 0: %s\n", p == MAP_FAILED ? strerror(errno) : "mapped");
    printf("kill(0, 0): %d\n", kill(0, 0));
    struct sysinfo si;
    int r = sysinfo(&si);
    printf("sysinfo: %d, mem_unit %u, procs %u, total %s 0\n", r, si.mem_unit, si.procs, si.totalram > 0 ? ">" : "=");
    enum { N = 1000 };
    static int v[N];
    for (int i = 0; i < N; i++) v[i] = (i * 7919) % N;
    qsort(v, N, sizeof v[0], cmp_int);
    int sorted = 1;
    for (int i = 0; i < N; i++) sorted &= v[i] == i;
    printf("qsort of %d ints: %s\n", N, sorted ? "sorted" : "WRONG");
    return 0;
}

static int efault(const char *path) {
    int fd = open(path, O_RDONLY);
    unsigned char before[16], after[16];
    memcpy(before, (const void *)efault, sizeof before);
    long r = raw(SYS_read, fd, (long)(uintptr_t)efault, 16);
    memcpy(after, (const void *)efault, sizeof after);
    printf("read into code: %ld, code %s\n", r, memcmp(before, after, 16) ? "CHANGED" : "unchanged");
    void *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("write from PROT_NONE: %ld\n", raw(SYS_write, 1, (long)none, 10));
    void *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("read into PROT_READ: %ld\n", raw(SYS_read, fd, (long)ro, 10));
    printf("clock_gettime into code: %ld\n", raw(SYS_clock_gettime, 0, (long)(uintptr_t)efault, 0));
    return 0;
}

static int print_sysinfo(void) {
    struct sysinfo si;
    memset(&si, 0xff, sizeof si);
    int r = sysinfo(&si);
    printf("sysinfo %d uptime %ld loads %lu %lu %lu total %lu free %lu shared %lu buffer %lu swap %lu %lu procs %u "
           "high %lu %lu unit %u\n",
           r, si.uptime, si.loads[0], si.loads[1], si.loads[2], si.totalram, si.freeram, si.sharedram, si.bufferram,
           si.totalswap, si.freeswap, si.procs, si.totalhigh, si.freehigh, si.mem_unit);
    return 0;
}

/* The guest's own executable, opened by `name`: "size N magic ELF", or the error. */
static void print_file(const char *what, const char *name) {
    int fd = open(name, O_RDONLY);
    if (fd < 0) {
        printf("%s: %s\n", what, strerror(errno));
        return;
    }
    unsigned char magic[4] = {0};
    ssize_t got = read(fd, magic, sizeof magic);
    off_t size = lseek(fd, 0, SEEK_END);
    close(fd);
    printf("%s: size %lld magic %s\n", what, (long long)size,
           got == 4 && !memcmp(magic, "\177ELF", 4) ? "ELF" : "other");
}

static int self(const char *arg0) {
    char target[4096];
    ssize_t n = readlink("/proc/self/exe", target, sizeof target - 1);
    if (n < 0) {
        printf("readlink: %s\n", strerror(errno));
        return 1;
    }
    target[n] = 0;
    printf("argv[0] %s\nexe %s\n", arg0, target);
    print_file("open /proc/self/exe", "/proc/self/exe");
    print_file("open exe", target);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "fill") == 0) return fill();
    if (argc == 3 && strcmp(argv[1], "devzero") == 0) return devzero(atol(argv[2]));
    if (argc == 2 && strcmp(argv[1], "madvise") == 0) return advise();
    if (argc == 3 && strcmp(argv[1], "code") == 0) return code(atol(argv[2]));
    if (argc == 2 && strcmp(argv[1], "linux") == 0) return linux_like();
    if (argc == 2 && strcmp(argv[1], "sysinfo") == 0) return print_sysinfo();
    if (argc == 3 && strcmp(argv[1], "efault") == 0) return efault(argv[2]);
    if (argc == 2 && strcmp(argv[1], "self") == 0) return self(argv[0]);
    fprintf(stderr,
            "usage: sandbox_mem fill | devzero MIB | madvise | code PAGES | linux | sysinfo | efault PATH | self\n");
    return 2;
}
