/* Starts and joins 300 threads, four at a time, then forks: every thread id must lie in the
 * process' own block (pid + 1 … pid + 99, cyclescope's virtual ids: src/emu/thread.c), the live
 * ones distinct, and the child's pid none of them — before, the 100th thread took pid + 100,
 * the next process' pid, and a kill(tid) could reach the wrong process. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

enum { ROUNDS = 75, AT_ONCE = 4, BLOCK = 100 };

static void *report_tid(void *arg) {
    *(pid_t *)arg = (pid_t)syscall(SYS_gettid);
    return NULL;
}

int main(void) {
    pid_t pid = getpid();
    int outside = 0, same = 0, started = 0;
    static pid_t seen[ROUNDS * AT_ONCE];
    for (int r = 0; r < ROUNDS; r++) {
        pthread_t t[AT_ONCE];
        pid_t tid[AT_ONCE];
        for (int k = 0; k < AT_ONCE; k++)
            if (pthread_create(&t[k], NULL, report_tid, &tid[k]) == 0) started++;
            else return 1;
        for (int k = 0; k < AT_ONCE; k++) pthread_join(t[k], NULL);
        for (int k = 0; k < AT_ONCE; k++) {
            if (tid[k] <= pid || tid[k] >= pid + BLOCK) outside++;
            for (int j = 0; j < k; j++) same += tid[j] == tid[k];
            seen[r * AT_ONCE + k] = tid[k];
        }
    }
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) _exit(0);
    int status = 0;
    waitpid(child, &status, 0);
    int child_is_a_tid = 0;
    for (int i = 0; i < ROUNDS * AT_ONCE; i++) child_is_a_tid += seen[i] == child;
    printf("threads %d, ids outside the block %d, live ids shared %d, child pid a thread id %d\n", started, outside,
           same, child_is_a_tid);
    return outside || same || child_is_a_tid;
}
