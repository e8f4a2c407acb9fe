/* /proc of pids other than the guest's own, and the /proc files open refuses reached by other
 * calls (docs/sandbox.md §4). One case per argument:
 *   refused  stat, access, faccessat, statx and readlink of /proc/self/{smaps, smaps_rollup,
 *            numa_maps, pagemap, mem, io}: ENOENT, as open (cyclescope only: Linux and
 *            qemu-riscv64 have them); /proc/self/status is still there
 *   others   as Linux in a PID namespace holding the guest's processes alone: /proc/PID of a
 *            child (running, then ended but not waited for) and of the parent (from the
 *            child) is a directory, whose comm, stat, status and cmdline name that process
 *            (pid, ppid, name — the child renamed itself —, argv), of a waited-for child
 *            ENOENT; no other pid in 2..4999 has a directory (cyclescope only: qemu-riscv64
 *            shows the host's processes)
 *   exec     a child that execs this program: its comm, stat and cmdline are the new program's
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

/* The first line of /proc/PID/NAME (cmdline: its strings joined by spaces, the first one's
 * directory left out), or the errno's name. */
static const char *line_of(int pid, const char *name) {
    static char text[512];
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", pid, name);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return errno == ENOENT ? "ENOENT" : strerror(errno);
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n < 0) return strerror(errno);
    text[n] = 0;
    if (!strcmp(name, "cmdline")) {
        for (ssize_t i = 0; i + 1 < n; i++)
            if (!text[i]) text[i] = ' ';
        char *base = strrchr(text, '/'), *space = strchr(text, ' ');
        return base && (!space || base < space) ? base + 1 : text;
    }
    text[strcspn(text, "\n")] = 0;
    return text;
}

/* status' Name, Pid and PPid lines, one line */
static void print_status(const char *who, int pid) {
    char path[64], text[2048];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    int fd = open(path, O_RDONLY);
    ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
    if (fd >= 0) close(fd);
    if (n < 0) {
        printf("%s status: %s\n", who, strerror(errno));
        return;
    }
    text[n] = 0;
    printf("%s status:", who);
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
        if (!strncmp(l, "Name:", 5) || !strncmp(l, "Pid:", 4) || !strncmp(l, "PPid:", 5)) printf(" [%s]", l);
    printf("\n");
}

/* stat's pid, name and ppid (fields 1, 2 and 4) */
static void print_stat(const char *who, int pid) {
    int id, ppid;
    char name[64], state;
    if (sscanf(line_of(pid, "stat"), "%d (%63[^)]) %c %d", &id, name, &state, &ppid) != 4) {
        printf("%s stat: %s\n", who, line_of(pid, "stat"));
        return;
    }
    printf("%s stat: %d (%s) ppid %d\n", who, id, name, ppid);
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
        prctl(PR_SET_NAME, "kid");
        if (write(up[1], "x", 1) != 1) _exit(1); /* renamed */
        char c;
        if (read(down[0], &c, 1) != 1) _exit(1); /* the parent printed its lines */
        int parent = getppid();
        printf("child: parent %s\n", dir_of(parent));
        printf("child: parent's comm %s\n", line_of(parent, "comm"));
        print_stat("child: parent's", parent);
        print_status("child: parent's", parent);
        printf("child: parent's cmdline %s\n", line_of(parent, "cmdline"));
        printf("child: parent's smaps %s\n", line_of(parent, "smaps"));
        _exit(0); /* up closes: the parent sees EOF */
    }
    close(up[1]);
    close(down[0]);
    char c;
    if (read(up[0], &c, 1) != 1) return 1;
    printf("child running: %s\n", dir_of(child));
    printf("child's comm: %s\n", line_of(child, "comm"));
    print_stat("child's", child);
    print_status("child's", child);
    printf("child's cmdline: %s\n", line_of(child, "cmdline"));
    printf("child's maps: %s\n", line_of(child, "maps"));
    int found = 0;
    for (int pid = 2; pid < 5000; pid++)
        if (pid != self && pid != child && strcmp(dir_of(pid), "ENOENT") != 0) found++;
    printf("other pids with a directory: %d\n", found);
    if (write(down[1], "x", 1) != 1) return 1;
    while (read(up[0], &c, 1) > 0) {
    }
    int status;
    /* ended or ending, not yet waited for: still there (a zombie's directory) */
    printf("child before its wait: %s\n", dir_of(child));
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status)) return 1;
    printf("child after its wait: %s, comm %s\n", dir_of(child), line_of(child, "comm"));
    return 0;
}

/* A child that execs this program ("execd"): its /proc/PID files name the new program, its
 * argv and its parent. */
static int case_exec(const char *self_path) {
    int up[2], down[2];
    if (pipe(up) != 0 || pipe(down) != 0) return 1;
    pid_t child = fork();
    if (child < 0) return 1;
    if (child == 0) {
        close(up[0]);
        close(down[1]); /* its read of 4 ends when the parent closes its end */
        if (dup2(up[1], 3) != 3 || dup2(down[0], 4) != 4) _exit(1);
        execl(self_path, "renamed-by-exec", "execd", (char *)NULL);
        _exit(127);
    }
    close(up[1]);
    close(down[0]);
    char c;
    if (read(up[0], &c, 1) != 1) return 1; /* it runs the new program */
    printf("exec'd child's comm: %s\n", line_of(child, "comm"));
    print_stat("exec'd child's", child);
    printf("exec'd child's cmdline: %s\n", line_of(child, "cmdline"));
    close(down[1]); /* it ends */
    int status;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status)) return 1;
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *c = argc > 1 ? argv[1] : "";
    if (!strcmp(c, "refused")) return case_refused();
    if (!strcmp(c, "others")) return case_others();
    if (!strcmp(c, "exec")) return case_exec(argv[0]);
    if (!strcmp(c, "pid") && argc > 2) { /* a pid given by the caller: cyclescope's own host pid */
        int pid = atoi(argv[2]);
        printf("/proc/%s: %s, stat %s\n", pid == getpid() ? "own" : "N", dir_of(pid), line_of(pid, "stat"));
        return 0;
    }
    if (!strcmp(c, "execd")) { /* case_exec's child: tells it runs, then waits for the end */
        char byte;
        if (write(3, "x", 1) != 1) return 1;
        return read(4, &byte, 1) == 0 ? 0 : 1;
    }
    fprintf(stderr, "proc_others: unknown case '%s'\n", c);
    return 2;
}
