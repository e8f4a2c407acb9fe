/* Process groups and sessions (docs/sandbox.md §15): setsid, setpgid, getpgid, getsid, kill of
 * a group, wait4 of a group, /proc/PID/stat's pgrp and session. Everything happens in a child
 * that first makes a session of its own, so that the harness' group and session (qemu-riscv64
 * passes the host's through) never matter; only relations and errnos are printed, each step
 * waiting for the one before through pipes or waits: the output never depends on timing.
 *
 *   proc_groups session   setsid, setpgid of the caller and of its children, their errnos,
 *                         kill(-pgid), kill(0), waitpid(0) and waitpid(-pgid), /proc stat
 *   proc_groups exec      setpgid of a child after its execve: EACCES (before it: 0); the
 *                         caller's /proc/self/stat (qemu-riscv64 makes its own: not run under it)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *err_name(int e) {
    switch (e) {
    case 0: return "0";
    case EPERM: return "EPERM";
    case ESRCH: return "ESRCH";
    case EINVAL: return "EINVAL";
    case EACCES: return "EACCES";
    case ECHILD: return "ECHILD";
    default: return "other";
    }
}

/* "0" when the call returned 0 (or `ok`), else its errno's name */
static const char *result(long r, long ok) {
    if (r == ok) return "0";
    return r == -1 ? err_name(errno) : "other";
}

static void describe(const char *who, int status) {
    if (WIFEXITED(status)) printf("%s: exited %d\n", who, WEXITSTATUS(status));
    else if (WIFSIGNALED(status)) printf("%s: killed by signal %d\n", who, WTERMSIG(status));
    else printf("%s: status 0x%x\n", who, status);
}

/* A child that waits until the read end of `hold` is at its end, then _exits `code`. */
static pid_t start_waiting(int hold[2], int code) {
    if (pipe(hold) != 0) exit(90);
    pid_t pid = fork();
    if (pid == 0) {
        close(hold[1]);
        char byte;
        while (read(hold[0], &byte, 1) > 0) {
        }
        _exit(code);
    }
    close(hold[0]);
    return pid;
}

/* Fields 5 and 6 (pgrp, session) of /proc/PID/stat (the comm field may hold spaces). */
static int stat_ids(pid_t pid, int *pgrp, int *session) {
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return -1;
    text[n] = 0;
    char *at = strrchr(text, ')');
    char state;
    int ppid;
    return at && sscanf(at + 1, " %c %d %d %d", &state, &ppid, pgrp, session) == 4 ? 0 : -1;
}

static int session(void) {
    pid_t self = getpid();
    printf("setsid: its own pid %d\n", setsid() == self);
    printf("getpgid(0), getsid(0), getpgrp() are its pid: %d %d %d\n", getpgid(0) == self, getsid(0) == self,
           getpgrp() == self);
    printf("setsid again (a group leader): %s\n", result(setsid(), self));
    printf("setpgid(0, 0) of a session leader: %s\n", result(setpgid(0, 0), 0));
    printf("setpgid(0, -1): %s\n", result(setpgid(0, -1), 0));
    printf("setpgid of its parent: %s\n", result(setpgid(getppid(), getppid()), 0));
    printf("getpgid of no process: %s\n", result(getpgid(2000000000), 0));
    int hold_d[2], hold_e[2];
    pid_t d = start_waiting(hold_d, 1);
    printf("a child's group and session are its parent's: %d %d\n", getpgid(d) == self, getsid(d) == self);
    printf("setpgid(child, child): %s\n", result(setpgid(d, 0), 0));
    printf("the child leads a group of the session: %d %d\n", getpgid(d) == d, getsid(d) == self);
    printf("setpgid(child, a group that is not): %s\n", result(setpgid(d, d + 7), 0));
    pid_t e = start_waiting(hold_e, 2);
    printf("setpgid(second child, the first's group): %s\n", result(setpgid(e, d), 0));
    printf("both in it: %d %d\n", getpgid(e) == d, getpgid(d) == d);
    int pgrp = 0, sess = 0;
    /* not /proc/self: qemu-riscv64 makes its own, with 0 there */
    printf("/proc/LEADER/stat: %d", stat_ids(d, &pgrp, &sess) == 0);
    printf(" %d %d\n", pgrp == d, sess == self);
    printf("/proc/CHILD/stat: %d", stat_ids(e, &pgrp, &sess) == 0);
    printf(" %d %d\n", pgrp == d, sess == self);
    printf("kill(-group, 0): %s\n", result(kill(-d, 0), 0));
    printf("kill(-group, SIGTERM): %s\n", result(kill(-d, SIGTERM), 0));
    int status;
    pid_t first = waitpid(-d, &status, 0);
    describe("waitpid(-group)", status);
    pid_t second = waitpid(-d, &status, 0);
    describe("waitpid(-group)", status);
    printf("those were the two children: %d\n", (first == d && second == e) || (first == e && second == d));
    printf("waitpid(-group) again: %s\n", result(waitpid(-d, &status, 0), 0));
    printf("kill(-group, 0) of an empty group: %s\n", result(kill(-d, 0), 0));
    close(hold_d[1]);
    close(hold_e[1]);

    /* wait4(0): children of the caller's group only; kill(0): the caller's group only */
    int hold_f[2], hold_g[2];
    pid_t f = start_waiting(hold_f, 3), g = start_waiting(hold_g, 4);
    printf("setpgid(g, g): %s\n", result(setpgid(g, g), 0));
    sigset_t usr1, pending;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, NULL);
    /* SIGUSR1's default action kills f (its group), not g (another group) */
    printf("kill(0, SIGUSR1) with SIGUSR1 blocked: %s\n", result(kill(0, SIGUSR1), 0));
    sigpending(&pending);
    printf("its own pending: %d\n", sigismember(&pending, SIGUSR1));
    close(hold_f[1]);
    pid_t got = waitpid(0, &status, 0);
    printf("waitpid(0) took the child of its group: %d\n", got == f);
    describe("  it", status);
    printf("waitpid(0) again (the other child is in another group): %s\n", result(waitpid(0, &status, WNOHANG), 0));
    close(hold_g[1]);
    got = waitpid(-g, &status, 0);
    printf("waitpid(-g) took it: %d\n", got == g);
    describe("  it", status);
    siginfo_t info;
    printf("waitid(P_PGID, 0) with no child: %s\n", result(waitid(P_PGID, 0, &info, WEXITED), 0));
    fflush(stdout);
    return 0;
}

static int exec_case(char *self_path) {
    pid_t self = getpid();
    if (setsid() != self) return 80;
    int go[2], ready[2];
    if (pipe(go) != 0 || pipe(ready) != 0) return 81;
    pid_t x = fork();
    if (x == 0) {
        char byte;
        close(go[1]);
        close(ready[0]);
        if (read(go[0], &byte, 1) != 1) _exit(82);
        dup2(ready[1], 10);
        dup2(go[0], 11);
        char *argv[] = {self_path, "execed", NULL};
        execv(self_path, argv);
        _exit(83);
    }
    close(ready[1]);
    printf("setpgid(child, child) before its execve: %s\n", result(setpgid(x, x), 0));
    printf("setpgid(child, own group) before its execve: %s\n", result(setpgid(x, self), 0));
    if (write(go[1], "g", 1) != 1) return 84;
    char byte;
    printf("the new program is ready: %d\n", read(ready[0], &byte, 1) == 1);
    int pgrp = 0, sess = 0;
    printf("/proc/self/stat: %d", stat_ids(self, &pgrp, &sess) == 0);
    printf(" %d %d\n", pgrp == self, sess == self);
    printf("setpgid(child, child) after its execve: %s\n", result(setpgid(x, x), 0));
    printf("its group is still the caller's: %d\n", getpgid(x) == self);
    close(go[1]);
    int status;
    waitpid(x, &status, 0);
    describe("child", status);
    fflush(stdout);
    return 0;
}

/* the program a child execs: it tells its parent, and waits for the end of fd 11 */
static int execed(void) {
    if (write(10, "r", 1) != 1) return 70;
    close(10);
    char byte;
    while (read(11, &byte, 1) > 0) {
    }
    return getpgid(0) == getppid() ? 6 : 71;
}

int main(int argc, char **argv) {
    const char *what = argc >= 2 ? argv[1] : "";
    if (!strcmp(what, "execed")) return execed();
    fflush(stdout);
    pid_t c = fork(); /* a session of its own */
    if (c == 0) {
        if (!strcmp(what, "session")) _exit(session());
        if (!strcmp(what, "exec")) _exit(exec_case(argv[0]));
        _exit(99);
    }
    int status;
    waitpid(c, &status, 0);
    describe("session leader", status);
    return 0;
}
