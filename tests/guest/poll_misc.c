/* System calls outside programs make on the side, each answered as Linux does (they
 * returned ENOSYS with a warning): poll and select (ppoll, pselect6) of files, a bad
 * descriptor and a timeout, fcntl F_DUPFD's lowest number, umask's previous mask, the
 * process' own group, session, scheduler, priority and CPU, prctl, mlock, sync, getgroups,
 * mincore, fadvise64, statfs, fstatfs.
 *   poll_misc [forever | identity]   (forever: poll of nothing without a timeout; identity:
 *   the process' ids, nice value, CPU, CPU count and /proc/self link exactly, which under qemu
 *   are the host's) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#define SHOW(name, expr)                                                                       \
    do {                                                                                       \
        errno = 0;                                                                             \
        long r_ = (long)(expr);                                                                \
        printf("%-34s %ld%s%s\n", name, r_, r_ < 0 ? " " : "", r_ < 0 ? strerror(errno) : ""); \
    } while (0)

/* The lowest descriptor at or above `from` that is not open. qemu shares the host's table, so
 * descriptors the test harness left open (ctest under load, a CI's shell) take numbers there
 * that our emulator's own table does not have: compare where F_DUPFD lands against this, not
 * against a number. */
static int lowest_closed_from(int from) {
    while (fcntl(from, F_GETFD) >= 0) from++;
    return from;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "forever") == 0) /* Linux: waits for a signal, forever */
        return poll(NULL, 0, -1);
    if (argc > 1 && strcmp(argv[1], "identity") == 0) {
        unsigned cpu = ~0u, node = ~0u;
        errno = 0;
        int nice_value = getpriority(PRIO_PROCESS, 0);
        if (errno != 0 || getcpu(&cpu, &node) != 0) return 1;
        gid_t groups[4] = {0};
        int group_count = getgroups(4, groups);
        /* the CPUs glibc counts (from /sys/devices/system/cpu/) and the /proc/self link */
        char self_link[32] = "?";
        ssize_t n = readlink("/proc/self", self_link, sizeof self_link - 1);
        if (n >= 0) self_link[n] = 0;
        printf("pid %d pgid %d sid %d nice %d cpu %u node %u groups %d %d cpus %ld %ld self %s\n", (int)getpid(),
               (int)getpgid(0), (int)getsid(0), nice_value, cpu, node, group_count, (int)groups[0],
               sysconf(_SC_NPROCESSORS_ONLN), sysconf(_SC_NPROCESSORS_CONF), self_link);
        return 0;
    }
    int null_fd = open("/dev/null", O_RDONLY), self = open(argv[0], O_RDONLY);
    int closed_high = lowest_closed_from(1000), closed_low = lowest_closed_from(200);
    struct pollfd p[4] = {{null_fd, POLLIN, 0}, {self, POLLIN | POLLOUT, 0}, {-1, POLLIN, 0}, {closed_high, POLLIN, 0}};
    SHOW("poll: /dev/null, self, -1, a closed", poll(p, 4, 0));
    printf("  revents %#x %#x %#x %#x\n", p[0].revents, p[1].revents, p[2].revents, p[3].revents);
    SHOW("poll: no descriptors, 30 ms", poll(NULL, 0, 30));
    fd_set rd, wr;
    FD_ZERO(&rd);
    FD_ZERO(&wr);
    FD_SET(null_fd, &rd);
    FD_SET(self, &rd);
    FD_SET(self, &wr);
    struct timeval tv = {0, 0};
    SHOW("select: /dev/null, self (read, write)", select(self + 1, &rd, &wr, NULL, &tv));
    printf("  read %d %d write %d\n", FD_ISSET(null_fd, &rd), FD_ISSET(self, &rd), FD_ISSET(self, &wr));
    FD_ZERO(&rd);
    FD_SET(closed_low, &rd);
    SHOW("select: a closed descriptor", select(closed_low + 1, &rd, NULL, NULL, &tv));
    int want = lowest_closed_from(40);
    SHOW("fcntl F_DUPFD from 40: the lowest free", fcntl(self, F_DUPFD, 40) == want);
    want = lowest_closed_from(40);
    SHOW("fcntl F_DUPFD_CLOEXEC from 40: the lowest free", fcntl(self, F_DUPFD_CLOEXEC, 40) == want);
    /* the limit the process reports is the one it gets (EINVAL from there): qemu reports the
       host's RLIMIT_NOFILE (a container's may be 1048576, where F_DUPFD from 100000 succeeds),
       cyclescope its own 256 descriptors */
    struct rlimit files;
    getrlimit(RLIMIT_NOFILE, &files);
    SHOW("fcntl F_DUPFD from RLIMIT_NOFILE", fcntl(self, F_DUPFD, (long)files.rlim_cur));
    umask(027);
    SHOW("umask(022) after umask(027)", umask(022));
    /* qemu gives the host's group and session: 0 when the session's leader is outside the
       caller's PID namespace (a container's CI), so only that the call succeeded is compared */
    SHOW("getpgid(0) >= 0", getpgid(0) >= 0);
    SHOW("getsid(0) >= 0", getsid(0) >= 0);
    SHOW("sched_getscheduler(0)", sched_getscheduler(0));
    struct sched_param sp = {5};
    SHOW("sched_getparam(0)", sched_getparam(0, &sp));
    printf("  priority %d\n", sp.sched_priority);
    /* qemu gives the host's nice value (19 under `nice -n 19`), cyclescope its own 0
       (tests/emu.cmake exec.virtual_process checks that value): only a nice value is compared */
    errno = 0;
    int nice_value = getpriority(PRIO_PROCESS, 0);
    printf("%-34s %s\n", "getpriority(PRIO_PROCESS, 0)",
           errno == 0 && nice_value >= -20 && nice_value <= 19 ? "a nice value" : strerror(errno));
    unsigned cpu = ~0u, node = 7;
    SHOW("getcpu", getcpu(&cpu, &node));
    /* which processor qemu ran on is the host's (it varies run to run): only that it was set */
    printf("  cpu %s node %u\n", cpu != ~0u ? "set" : "unset", node);
    SHOW("prctl(PR_SET_NAME)", prctl(PR_SET_NAME, "worker", 0, 0, 0));
    SHOW("prctl(12345)", prctl(12345, 0, 0, 0, 0));
    /* Go's os/signal test sets it on every thread (EINVAL before) */
    SHOW("prctl(PR_GET_KEEPCAPS)", prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0));
    SHOW("prctl(PR_SET_KEEPCAPS, 1)", prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
    SHOW("prctl(PR_GET_KEEPCAPS)", prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0));
    SHOW("prctl(PR_SET_KEEPCAPS, 2)", prctl(PR_SET_KEEPCAPS, 2, 0, 0, 0));
    SHOW("prctl(PR_SET_KEEPCAPS, 0)", prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0));
    SHOW("prctl(PR_GET_KEEPCAPS)", prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0));
    static char page[4096];
    SHOW("mlock", mlock(page, sizeof page));
    SHOW("munlock", munlock(page, sizeof page));
    sync();
    SHOW("syncfs", syncfs(self));
    /* found by GNU tools (docs/sandbox.md §13): gawk asks getgroups, gnulib's c-stack in
       grep, diff and cmp asks mincore where the stack is; the groups are the host's under
       qemu, so only that the two calls agree is compared */
    gid_t groups[64];
    int group_count = getgroups(0, NULL);
    SHOW("getgroups(0) = getgroups(64)", group_count >= 0 && getgroups(64, groups) == group_count);
    volatile int negative_size = -1; /* hidden from GCC, which refuses a constant -1 */
    SHOW("getgroups(-1)", getgroups(negative_size, groups));
    static char region_page[3 * 4096] __attribute__((aligned(4096)));
    region_page[0] = 1; /* touched: resident under Linux too */
    unsigned char residency[3] = {7, 7, 7};
    SHOW("mincore: a touched page", mincore(region_page, 1, residency));
    printf("  resident %d\n", residency[0] & 1);
    SHOW("mincore: not page-aligned", mincore(region_page + 1, 1, residency));
    char *gap = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(gap + 4096, 4096);
    SHOW("mincore: across an unmapped page", mincore(gap, 3 * 4096, residency));
    SHOW("mincore: a bad vector", mincore(region_page, 1, (unsigned char *)gap + 4096));
    /* coreutils asks posix_fadvise of every file it reads (it returns the error number) */
    int pipe_ends[2];
    if (pipe(pipe_ends) != 0) return 1;
    printf("%-34s %d\n", "fadvise: a file, sequential", posix_fadvise(self, 0, 0, POSIX_FADV_SEQUENTIAL));
    printf("%-34s %d\n", "fadvise: a file, advice 99", posix_fadvise(self, 0, 0, 99));
    printf("%-34s %d\n", "fadvise: a file, length -1", posix_fadvise(self, 0, -1, POSIX_FADV_NORMAL));
    printf("%-34s %d\n", "fadvise: a pipe", posix_fadvise(pipe_ends[0], 0, 0, POSIX_FADV_SEQUENTIAL));
    printf("%-34s %d\n", "fadvise: a closed descriptor", posix_fadvise(closed_low, 0, 0, POSIX_FADV_NORMAL));
    /* gnulib's fts (find, grep -r) asks which file system a directory is on: the host's, under
       qemu and cyclescope alike */
    struct statfs by_fd, by_path;
    SHOW("fstatfs: the program", fstatfs(self, &by_fd));
    SHOW("statfs: the program", statfs(argv[0], &by_path));
    printf("  type %#lx (the same by path %d) block size %ld name length %ld\n", (long)by_fd.f_type,
           by_fd.f_type == by_path.f_type, (long)by_fd.f_bsize, (long)by_fd.f_namelen);
    SHOW("fstatfs: a pipe", fstatfs(pipe_ends[0], &by_fd));
    printf("  type %#lx\n", (long)by_fd.f_type);
    SHOW("fstatfs: a closed descriptor", fstatfs(closed_low, &by_fd));
    SHOW("statfs: a missing file", statfs("/nonexistent/file", &by_path));
    SHOW("statfs: a bad buffer", statfs(argv[0], (struct statfs *)(gap + 4096)));
    return 0;
}
