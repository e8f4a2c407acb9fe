/* /proc of pids other than the guest's own, and the /proc files open refuses reached by other
 * calls (docs/sandbox.md §4). One case per argument:
 *   refused  stat, access, faccessat, statx and readlink of /proc/self/{smaps, smaps_rollup,
 *            numa_maps, pagemap, mem, io}: ENOENT, as open (cyclescope only: Linux and
 *            qemu-riscv64 have them); /proc/self/status is still there
 *   others   as Linux in a PID namespace holding the guest's processes alone: /proc/PID of a
 *            child (running, then ended but not waited for) and of the parent (from the
 *            child) is a directory, of a waited-for child ENOENT; no other pid in 2..4999
 *            has a directory (cyclescope only: qemu-riscv64 shows the host's processes)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *outcome(int r) { return r == 0 ? "found" : errno == ENOENT ? "ENOENT" : strerror(errno); }

static int case_refused(void) {
    const char *names[] = {"smaps", "smaps_rollup", "numa_maps", "pagemap", "mem", "io", "status"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[64], link[64];
        snprintf(path, sizeof path, "/proc/self/%s", names[i]);
        struct stat st;
        struct statx stx;
        printf("%s: stat %s", names[i], outcome(stat(path, &st)));
        printf(", access %s", outcome(access(path, F_OK)));
        printf(", faccessat %s", outcome(faccessat(AT_FDCWD, path, R_OK, 0)));
        printf(", statx %s", outcome(statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx)));
        ssize_t n = readlink(path, link, sizeof link);
        /* a file that is not a link: EINVAL */
        printf(", readlink %s\n", n >= 0 ? "link" : errno == ENOENT ? "ENOENT" : strerror(errno));
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/smaps", getpid());
    struct stat st;
    printf("smaps by the pid: stat %s\n", outcome(stat(path, &st)));
    return 0;
}

static const char *dir_of(int pid) {
    char path[64];
    struct stat st;
    snprintf(path, sizeof path, "/proc/%d", pid);
    if (stat(path, &st) != 0) return errno == ENOENT ? "ENOENT" : strerror(errno);
    return S_ISDIR(st.st_mode) ? "directory" : "not a directory";
}

static int case_others(void) {
    int self = getpid();
    printf("own: %s\n", dir_of(self));
    int up[2], down[2];
    if (pipe(up) != 0 || pipe(down) != 0) return 1;
    pid_t child = fork();
    if (child < 0) return 1;
    if (child == 0) {
        close(up[0]);
        close(down[1]);
        char c;
        if (read(down[0], &c, 1) != 1) _exit(1); /* the parent printed its lines */
        printf("child: parent %s\n", dir_of(getppid()));
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/smaps", getppid());
        printf("child: parent's smaps %s\n", access(path, F_OK) == 0 ? "found" : strerror(errno));
        _exit(0); /* up closes: the parent sees EOF */
    }
    close(up[1]);
    close(down[0]);
    printf("child running: %s\n", dir_of(child));
    int found = 0;
    for (int pid = 2; pid < 5000; pid++)
        if (pid != self && pid != child && strcmp(dir_of(pid), "ENOENT") != 0) found++;
    printf("other pids with a directory: %d\n", found);
    if (write(down[1], "x", 1) != 1) return 1;
    char c;
    while (read(up[0], &c, 1) > 0) {
    }
    int status;
    /* ended or ending, not yet waited for: still there (a zombie's directory) */
    printf("child before its wait: %s\n", dir_of(child));
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status)) return 1;
    printf("child after its wait: %s\n", dir_of(child));
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *c = argc > 1 ? argv[1] : "";
    if (!strcmp(c, "refused")) return case_refused();
    if (!strcmp(c, "others")) return case_others();
    fprintf(stderr, "proc_others: unknown case '%s'\n", c);
    return 2;
}
