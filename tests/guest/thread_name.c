#define _GNU_SOURCE
/* A thread's name (its comm): prctl(PR_SET_NAME) and PR_GET_NAME (16 bytes with the NUL, a
 * longer name cut to 15), pthread_setname_np/getname_np of the calling thread, and writes to
 * /proc/self/comm (the main thread's) and /proc/thread-self/comm (the caller's); what
 * /proc/self/comm, /proc/thread-self/comm and /proc/self/status's Name: then read, in the
 * thread, after it, and in a forked child (which keeps the name). The program's name as it
 * starts is not printed: qemu-riscv64's host thread is named after qemu. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* a file's first line (its newline shown as <NL>, a second one too) */
static void show(const char *what, const char *path) {
    char text[4096];
    int fd = open(path, O_RDONLY);
    ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
    if (fd >= 0) close(fd);
    if (n < 0) {
        printf("  %s: unreadable\n", what);
        return;
    }
    text[n] = 0;
    char *line = text;
    if (!strncmp(path + strlen(path) - 6, "status", 6)) line = strstr(text, "Name:");
    if (!line) line = "(no Name:)";
    size_t len = strcspn(line, "\n"), newlines = strspn(line + len, "\n");
    printf("  %s: \"%.*s", what, (int)len, line);
    for (size_t k = 0; k < newlines && k < 2; k++) fputs("<NL>", stdout);
    printf("\"\n");
}

static void show_all(void) {
    char name[32];
    memset(name, 'x', sizeof name);
    int r = prctl(PR_GET_NAME, name);
    printf("  PR_GET_NAME: %d \"%.*s\", byte 15 %d, byte 16 '%c'\n", r, (int)strcspn(name, "\n"), name, name[15],
           name[16]);
    show("/proc/self/comm", "/proc/self/comm");
    show("/proc/thread-self/comm", "/proc/thread-self/comm");
    show("/proc/self/status", "/proc/self/status");
}

static void write_comm(const char *path, const char *text, size_t len) {
    int fd = open(path, O_WRONLY);
    ssize_t n = fd < 0 ? -1 : write(fd, text, len);
    printf("write %s \"%.*s\" (%zu bytes): open %s, wrote %zd\n", path, (int)strcspn(text, "\n"), text, len,
           fd < 0 ? "failed" : "ok", n);
    if (fd >= 0) close(fd);
}

static void *worker(void *arg) {
    (void)arg;
    int r = pthread_setname_np(pthread_self(), "worker-thread");
    char name[16] = "";
    int g = pthread_getname_np(pthread_self(), name, sizeof name);
    printf("in the thread: pthread_setname_np %d, pthread_getname_np %d \"%s\"\n", r, g, name);
    printf("  too long a name: pthread_setname_np %d\n", pthread_setname_np(pthread_self(), "a-name-of-sixteen"));
    show_all();
    write_comm("/proc/self/comm", "from-the-thread", 15);
    show_all();
    return NULL;
}

int main(void) {
    printf("PR_SET_NAME \"first\": %d\n", prctl(PR_SET_NAME, "first"));
    show_all();
    printf("PR_SET_NAME \"a-name-longer-than-fifteen\": %d\n", prctl(PR_SET_NAME, "a-name-longer-than-fifteen"));
    show_all();
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    printf("after the thread:\n");
    show_all();
    write_comm("/proc/self/comm", "written-name-that-is-long", 25);
    show_all();
    write_comm("/proc/thread-self/comm", "with-newline\n", 13);
    show_all();
    write_comm("/proc/self/comm", "back\\slash\ttab", 14);
    show_all();
    write_comm("/proc/self/comm", "", 0);
    show_all();
    int excl = open("/proc/self/comm", O_WRONLY | O_CREAT | O_EXCL, 0644);
    printf("open /proc/self/comm O_CREAT|O_EXCL: %s\n", excl >= 0 ? "opened" : strerror(errno));
    prctl(PR_SET_NAME, "parent");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        printf("in a forked child:\n");
        show_all();
        fflush(stdout);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    return 0;
}
