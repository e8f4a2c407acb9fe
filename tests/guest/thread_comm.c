#define _GNU_SOURCE
/* Another thread's name through /proc/self/task/TID/ (docs/sandbox.md §4): glibc's
 * pthread_setname_np and pthread_getname_np of a thread other than the caller open
 * /proc/self/task/TID/comm (read and write); its stat and status name it too; a thread the
 * process does not have has no such directory (ENOENT). Before
 * 2026-11-29 task/ was cyclescope's own host directory: both calls failed.
 *
 * `thread_comm exec` and `thread_comm exec-script SCRIPT` (a #! script whose interpreter is
 * this program): the name across execve — Linux sets it to the basename of the path executed
 * (fs/exec.c begin_new_exec), the script's for a script, whatever the old program had set; the
 * new program prints it (checked against Linux's rule: qemu-riscv64 cannot execve a RISC-V program on
 * an x86 host without binfmt_misc). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int go[2], told[2];

static void *worker(void *arg) {
    (void)arg;
    pid_t tid = (pid_t)syscall(SYS_gettid);
    if (write(told[1], &tid, sizeof tid) != sizeof tid) return NULL;
    char c;
    if (read(go[0], &c, 1) != 1) return NULL; /* main renames it meanwhile */
    char name[16] = "";
    prctl(PR_GET_NAME, name);
    printf("the worker's own PR_GET_NAME: \"%s\"\n", name);
    return NULL;
}

/* the first line of a file, or its errno */
static void show(const char *what, const char *path) {
    char text[4096];
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        printf("%s: %s\n", what, strerror(errno));
        return;
    }
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    text[n < 0 ? 0 : n] = 0;
    char *line = strstr(text, "Name:");
    if (!line) line = text;
    printf("%s: \"%.*s\"\n", what, (int)strcspn(line, "\n"), line);
}

/* stat's first two fields: the thread's id, its name in parentheses */
static void show_stat(const char *path, pid_t tid) {
    FILE *f = fopen(path, "r");
    int id = 0;
    char name[64] = "";
    if (!f || fscanf(f, "%d (%63[^)])", &id, name) != 2) printf("stat: unreadable\n");
    else printf("stat: the tid %s, name \"%s\"\n", id == tid ? "matches" : "differs", name);
    if (f) fclose(f);
}

static int after_exec(void) {
    char name[16] = "";
    prctl(PR_GET_NAME, name);
    printf("after execve: \"%s\"\n", name);
    show("/proc/self/comm", "/proc/self/comm");
    return 0;
}

int main(int argc, char **argv) {
    /* "after", also as a #! script's interpreter: argv[1] the script, argv[2] "after" */
    if ((argc > 1 && !strcmp(argv[1], "after")) || (argc > 2 && !strcmp(argv[2], "after"))) return after_exec();
    if (argc > 1 && (!strcmp(argv[1], "exec") || (!strcmp(argv[1], "exec-script") && argc > 2))) {
        prctl(PR_SET_NAME, "before-exec");
        const char *program = argv[1][4] ? argv[2] : argv[0]; /* a #! script whose interpreter is this */
        char *args[] = {(char *)program, "after", NULL};
        fflush(stdout);
        execv(program, args);
        perror("execv");
        return 1;
    }
    prctl(PR_SET_NAME, "main-thread"); /* qemu's starts named after qemu */
    if (pipe(go) || pipe(told)) return 1;
    pthread_t t;
    if (pthread_create(&t, NULL, worker, NULL)) return 2;
    pid_t tid;
    if (read(told[0], &tid, sizeof tid) != sizeof tid) return 3;
    char path[64], name[32] = "";
    int r = pthread_setname_np(t, "worker-one");
    printf("pthread_setname_np: %d\n", r);
    r = pthread_getname_np(t, name, sizeof name);
    printf("pthread_getname_np: %d \"%s\"\n", r, name);
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", (int)tid);
    show("task/TID/comm", path);
    snprintf(path, sizeof path, "/proc/self/task/%d/status", (int)tid);
    show("task/TID/status", path);
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
    show_stat(path, tid);
    snprintf(path, sizeof path, "/proc/%d/task/%d/comm", (int)getpid(), (int)tid); /* by the pid */
    int fd = open(path, O_WRONLY);
    ssize_t n = fd < 0 ? -1 : write(fd, "renamed", 7);
    printf("write of /proc/PID/task/TID/comm: %zd\n", n);
    if (fd >= 0) close(fd);
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", (int)getpid()); /* the main thread's */
    show("task/PID/comm", path);
    show("/proc/self/comm", "/proc/self/comm");
    if (write(go[1], "g", 1) != 1) return 4;
    pthread_join(t, NULL);
    /* a thread that never was (beyond pid_max); one that ended may linger on Linux a moment
     * after pthread_join returns (the tid is cleared before the task is gone) */
    show("task/999999999/comm", "/proc/self/task/999999999/comm");
    r = pthread_setname_np(pthread_self(), "main-again");
    name[0] = 0;
    pthread_getname_np(pthread_self(), name, sizeof name);
    printf("the main thread's own: %d \"%s\"\n", r, name);
    return 0;
}
