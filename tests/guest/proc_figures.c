/* /proc/self/{limits, statm, smaps, smaps_rollup, io, …}: the guest's own figures or none,
 * never the host process' (docs/sandbox.md §4). One case per argument:
 *   limits   every line of limits agrees with getrlimit, also after a setrlimit, and by the pid
 *   statm    statm's size and resident agree with status' VmSize and VmRSS
 *   refused  the files about the host process' memory and I/O: ENOENT (cyclescope only: Linux
 *            and qemu-riscv64 have them)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static char buf[8192];

/* The whole file into buf (no stdio: no allocation between two reads); its length or -errno. */
static long slurp(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -errno;
    long len = 0, n;
    while ((n = read(fd, buf + len, sizeof buf - 1 - (size_t)len)) > 0) len += n;
    close(fd);
    buf[len] = 0;
    return len;
}

static int limits_agree(const char *path) {
    if (slurp(path) < 0) {
        printf("%s: cannot read\n", path);
        return 0;
    }
    int agree = 0;
    char *line = strchr(buf, '\n'); /* past the header */
    for (int i = 0; i < RLIMIT_NLIMITS && line; i++) {
        line++;
        /* "%-25s %-20s %-20s": the name, then the two limits at columns 26 and 47 */
        char soft[32], hard[32];
        if (strlen(line) < 47 || sscanf(line + 26, "%31s", soft) != 1 || sscanf(line + 47, "%31s", hard) != 1) break;
        struct rlimit r;
        getrlimit(i, &r);
        char want_soft[32], want_hard[32];
        if (r.rlim_cur == RLIM_INFINITY) strcpy(want_soft, "unlimited");
        else snprintf(want_soft, sizeof want_soft, "%" PRIu64, (uint64_t)r.rlim_cur);
        if (r.rlim_max == RLIM_INFINITY) strcpy(want_hard, "unlimited");
        else snprintf(want_hard, sizeof want_hard, "%" PRIu64, (uint64_t)r.rlim_max);
        if (!strcmp(soft, want_soft) && !strcmp(hard, want_hard)) agree++;
        else printf("limit %d: file %s %s, getrlimit %s %s\n", i, soft, hard, want_soft, want_hard);
        line = strchr(line, '\n');
    }
    return agree;
}

static int case_limits(void) {
    printf("limits: %d of %d agree with getrlimit\n", limits_agree("/proc/self/limits"), RLIMIT_NLIMITS);
    struct rlimit r;
    getrlimit(RLIMIT_NOFILE, &r);
    r.rlim_cur = 17;
    setrlimit(RLIMIT_NOFILE, &r);
    getrlimit(RLIMIT_CORE, &r);
    r.rlim_cur = 4096;
    if (r.rlim_max != RLIM_INFINITY && r.rlim_max < 4096) r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_CORE, &r);
    printf("after setrlimit: %d agree\n", limits_agree("/proc/self/limits"));
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/limits", getpid());
    printf("by the pid: %d agree\n", limits_agree(path));
    printf("by thread-self: %d agree\n", limits_agree("/proc/thread-self/limits"));
    slurp("/proc/self/limits");
    printf("header: %.*s", (int)(strchr(buf, '\n') - buf + 1), buf);
    return 0;
}

static long field_kb(const char *name) {
    const char *at = strstr(buf, name);
    return at ? strtol(at + strlen(name), NULL, 10) : -1;
}

static int case_statm(void) {
    int size_ok = 0, rss_ok = 0;
    for (int round = 0; round < 3; round++) { /* the last round's answer (the code paths are warm) */
        long statm[2][7];
        for (int k = 0; k < 2; k++) {
            if (slurp("/proc/self/statm") < 0) {
                printf("statm: cannot read\n");
                return 1;
            }
            if (sscanf(buf, "%ld %ld %ld %ld %ld %ld %ld", &statm[k][0], &statm[k][1], &statm[k][2], &statm[k][3],
                       &statm[k][4], &statm[k][5], &statm[k][6]) != 7) {
                printf("statm: not 7 numbers\n");
                return 1;
            }
            if (k == 0 && slurp("/proc/self/status") < 0) return 1;
            if (k == 0) {
                long vm_size = field_kb("VmSize:"), vm_rss = field_kb("VmRSS:");
                long page_kb = sysconf(_SC_PAGESIZE) / 1024;
                statm[1][0] = vm_size / page_kb, statm[1][1] = vm_rss / page_kb;
                size_ok = statm[0][0] == statm[1][0];
                rss_ok = statm[0][1] == statm[1][1];
                (void)statm[1];
            }
        }
    }
    printf("statm's size agrees with VmSize: %d, resident with VmRSS: %d\n", size_ok, rss_ok);
    return 0;
}

static int case_refused(void) {
    const char *names[] = {"smaps", "smaps_rollup", "io", "numa_maps", "pagemap", "mem"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/self/%s", names[i]);
        long r = slurp(path);
        printf("%s: %s\n", names[i], r == -ENOENT ? "ENOENT" : r < 0 ? strerror((int)-r) : "read");
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/io", getpid());
    long r = slurp(path);
    printf("io by the pid: %s\n", r == -ENOENT ? "ENOENT" : "read");
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *c = argc > 1 ? argv[1] : "";
    if (!strcmp(c, "limits")) return case_limits();
    if (!strcmp(c, "statm")) return case_statm();
    if (!strcmp(c, "refused")) return case_refused();
    fprintf(stderr, "proc_figures: unknown case '%s'\n", c);
    return 2;
}
