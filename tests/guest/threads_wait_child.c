/* A thread waits for a child (waitpid, then waitid) while another thread keeps feeding the
 * child's stdin through a pipe: the child ends only after it has read everything. On Linux the
 * waiting thread blocks alone; cyclescope held every thread in the host's wait, so the feeder
 * never ran, the child never ended, and the run hung (Go's exec.Cmd.Wait, docs/sandbox.md §21). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { CHUNKS = 64, CHUNK = 4096 };

struct feed {
    int fd;
    int written;
};

static void *feeder(void *arg) {
    struct feed *f = arg;
    char buf[CHUNK];
    memset(buf, 'x', sizeof buf);
    for (int k = 0; k < CHUNKS; k++) {
        usleep(1000); /* the waiter is in waitpid by now */
        if (write(f->fd, buf, sizeof buf) != (ssize_t)sizeof buf) break;
        f->written += CHUNK;
    }
    close(f->fd);
    return NULL;
}

/* a child that counts its stdin's bytes and exits with their number of chunks */
static pid_t start_counter(int *to_child) {
    int p[2];
    if (pipe(p)) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(p[1]);
        char buf[CHUNK];
        long total = 0;
        ssize_t n;
        while ((n = read(p[0], buf, sizeof buf)) > 0) total += n;
        _exit((int)(total / CHUNK));
    }
    close(p[0]);
    *to_child = p[1];
    return pid;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t told = PTHREAD_COND_INITIALIZER;
static int waited;

/* waits (no deadline) until main has reaped its child */
static void *until_told(void *arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    while (!waited) pthread_cond_wait(&told, &lock);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void) {
    /* every other thread waits with no deadline: the waitpid waits for the child itself */
    pthread_t other;
    if (pthread_create(&other, NULL, until_told, NULL)) return 1;
    pid_t sleeper = fork();
    if (sleeper == 0) {
        usleep(20000);
        _exit(7);
    }
    int status = 0;
    if (waitpid(sleeper, &status, 0) != sleeper || !WIFEXITED(status)) return 4;
    pthread_mutex_lock(&lock);
    waited = 1;
    pthread_cond_signal(&told);
    pthread_mutex_unlock(&lock);
    pthread_join(other, NULL);
    printf("the other thread waiting: the child exited %d\n", WEXITSTATUS(status));
    for (int round = 0; round < 2; round++) {
        struct feed f = {0};
        pid_t pid = start_counter(&f.fd);
        if (pid < 0) return 1;
        pthread_t t;
        if (pthread_create(&t, NULL, feeder, &f)) return 1;
        int chunks = -1;
        if (round == 0) {
            int status = 0;
            if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return 2;
            chunks = WEXITSTATUS(status);
        } else {
            siginfo_t info;
            memset(&info, 0, sizeof info);
            if (waitid(P_PID, (id_t)pid, &info, WEXITED) != 0 || info.si_code != CLD_EXITED) return 3;
            chunks = info.si_status;
        }
        pthread_join(t, NULL);
        printf("%s: the child read %d chunks, the feeder wrote %d\n", round == 0 ? "waitpid" : "waitid", chunks,
               f.written / CHUNK);
    }
    return 0;
}
