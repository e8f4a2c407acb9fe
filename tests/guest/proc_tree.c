/* Signals and questions across the whole process tree (docs/sandbox.md §15): a process
 * signals a sibling, a grandparent, its whole group; asks for a sibling's or a grandchild's
 * group and session; waits for a grandchild (ECHILD); a parent's fault signals reach its
 * child's handlers; a child killed by a default action leaves what it wrote to a shared file
 * mapping in the file. Only the first process prints (the others tell it through exit codes
 * and pipes), and every step waits for the one before through a pipe, so the output never
 * depends on timing: qemu-riscv64 and cyclescope print the same.
 *
 *   proc_tree sibling        child B kills child A (A's SA_SIGINFO handler: si_pid is B's)
 *   proc_tree ancestor       a grandchild kills the first process (blocked: pending, then its
 *                            handler with the grandchild's pid as si_pid)
 *   proc_tree child_group    a child's kill(0, SIGUSR1) reaches itself, its sibling, its
 *                            parent and its own child
 *   proc_tree relatives      getpgid/getsid of a sibling and of a grandchild; kill(sibling, 0);
 *                            waitpid of a grandchild (ECHILD); a reaped sibling (ESRCH)
 *   proc_tree faults         SIGBUS, SIGFPE, SIGILL, SIGSEGV sent to a child that catches them;
 *                            SIGSEGV to one that does not (killed by 11). qemu-riscv64 7.2 is
 *                            no reference here: a third of its runs take such a signal for a
 *                            fault of its own (the child killed by SIGSEGV), some hang
 *   proc_tree shared_kill DIR  a child writes through a MAP_SHARED mapping of DIR/shared and
 *                            is killed by SIGTERM's default action: the file has the bytes
 *   proc_tree threads        a child with two threads, one waiting on a condition variable, the
 *                            other in pause(): its parent's SIGUSR1 wakes it (the handler runs)
 *   proc_tree exec_parent    the first process forks, then execs itself (argv[0]); its
 *                            child's kill(getppid(), SIGUSR1) reaches the new program, which
 *                            blocks it: pending, then its handler with the child's pid (not
 *                            under qemu-riscv64, whose execve needs binfmt_misc)
 *   proc_tree kill_all       kill(-1, …) from the first process (never under qemu: there it
 *                            would signal every process of the user; the test sets
 *                            PROC_TREE_KILL_ALL=1 under cyclescope, whose -1 is the tree): a
 *                            child and a grandchild catch SIGUSR1, the sender does not get
 *                            it; then SIGKILL ends both
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got_signal, handled_count;
static volatile sig_atomic_t sender_pid;

static void on_signal(int sig) {
    got_signal = sig;
    handled_count++;
}

static void on_signal_info(int sig, siginfo_t *info, void *context) {
    (void)context;
    got_signal = sig;
    sender_pid = info->si_pid;
}

static void catch_with(int sig, void (*handler)(int)) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

static void catch_info(int sig) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal_info;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

static void block(int sig, sigset_t *before) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_BLOCK, &set, before);
}

static void describe(const char *who, int status) {
    if (WIFEXITED(status)) printf("%s: exited %d\n", who, WEXITSTATUS(status));
    else if (WIFSIGNALED(status)) printf("%s: killed by signal %d\n", who, WTERMSIG(status));
    else printf("%s: status 0x%x\n", who, status);
}

static void reap(pid_t pid, const char *who) {
    int status;
    if (waitpid(pid, &status, 0) != pid) printf("%s: waitpid: %s\n", who, strerror(errno));
    else describe(who, status);
}

static void put_int(int fd, int v) {
    if (write(fd, &v, sizeof v) != sizeof v) _exit(91);
}

static int get_int(int fd) { /* -1: the end of the pipe */
    int v;
    ssize_t n;
    while ((n = read(fd, &v, sizeof v)) < 0 && errno == EINTR) {
    }
    return n == sizeof v ? v : -1;
}

static void make_pipe(int p[2]) {
    if (pipe(p) != 0) exit(90);
}

static pid_t fork_flushed(void) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) exit(89);
    return pid;
}

/* The caller waits in sigsuspend (every signal let through) until `sig`'s handler ran. */
static void wait_for(int sig) {
    sigset_t none;
    sigemptyset(&none);
    while (got_signal != sig) sigsuspend(&none);
}

/* ---- sibling ---- */

static int do_sibling(void) {
    int ready[2], report[2];
    make_pipe(ready);
    make_pipe(report);
    sigset_t before;
    block(SIGUSR1, &before); /* until A waits for it */
    pid_t a = fork_flushed();
    if (a == 0) {
        catch_info(SIGUSR1);
        put_int(ready[1], 1);
        while (got_signal != SIGUSR1) sigsuspend(&before);
        put_int(report[1], sender_pid);
        _exit(20);
    }
    printf("A ready: %d\n", get_int(ready[0]));
    pid_t b = fork_flushed();
    if (b == 0) _exit(kill(a, SIGUSR1) == 0 ? 30 : 60 + errno % 10);
    int from = get_int(report[0]);
    printf("A's handler ran, si_pid is B's: %d\n", from == b);
    reap(b, "B (30: its kill of A returned 0)");
    reap(a, "A (20)");
    return 0;
}

/* ---- ancestor ---- */

static int do_ancestor(void) {
    catch_info(SIGUSR1);
    sigset_t before, pending;
    block(SIGUSR1, &before);
    int report[2];
    make_pipe(report);
    pid_t first = getpid();
    pid_t c = fork_flushed();
    if (c == 0) {
        pid_t g = fork_flushed();
        if (g == 0) {
            put_int(report[1], getpid());
            _exit(kill(first, SIGUSR1) == 0 ? 0 : 60 + errno % 10);
        }
        int status;
        if (waitpid(g, &status, 0) != g || !WIFEXITED(status)) _exit(50);
        _exit(WEXITSTATUS(status) ? WEXITSTATUS(status) : 40);
    }
    int g = get_int(report[0]);
    reap(c, "child (40: its child's kill of the first process returned 0)");
    sigpending(&pending);
    printf("SIGUSR1 pending: %d, handler ran: %d\n", sigismember(&pending, SIGUSR1), got_signal == SIGUSR1);
    sigprocmask(SIG_SETMASK, &before, NULL);
    printf("after the unblock: handler ran %d, si_pid is the grandchild's %d\n", got_signal == SIGUSR1,
           sender_pid == g);
    return 0;
}

/* ---- child_group ---- */

static int do_child_group(void) {
    setpgid(0, 0); /* under qemu: a group of its own, not the test harness' (cyclescope: one group anyway) */
    catch_with(SIGUSR1, on_signal);
    sigset_t before, pending;
    block(SIGUSR1, &before); /* every process lets it through only where it waits for it */
    int ready[2];
    make_pipe(ready);
    pid_t a = fork_flushed();
    if (a == 0) { /* the sibling, and its own child */
        pid_t g = fork_flushed();
        if (g == 0) {
            put_int(ready[1], 1);
            wait_for(SIGUSR1);
            _exit(30);
        }
        put_int(ready[1], 1);
        wait_for(SIGUSR1);
        int status;
        if (waitpid(g, &status, 0) != g || !WIFEXITED(status) || WEXITSTATUS(status) != 30) _exit(3);
        _exit(21); /* it and its child had it */
    }
    printf("sibling and its child ready: %d %d\n", get_int(ready[0]), get_int(ready[0]));
    pid_t c = fork_flushed();
    if (c == 0) {
        if (kill(0, SIGUSR1) != 0) _exit(60 + errno % 10);
        sigprocmask(SIG_SETMASK, &before, NULL); /* its own: the handler runs at the unblock */
        _exit(got_signal == SIGUSR1 ? 10 : 11);
    }
    reap(c, "sender (10: its own handler ran)");
    reap(a, "sibling (21: it and its child had it)");
    sigpending(&pending);
    printf("the first process: SIGUSR1 pending %d\n", sigismember(&pending, SIGUSR1));
    sigprocmask(SIG_SETMASK, &before, NULL);
    printf("its handler ran at the unblock: %d\n", got_signal == SIGUSR1);
    return 0;
}

/* ---- relatives ---- */

/* 0 when `pid` is in the caller's process group and session, else a code naming the check. */
static int same_group_and_session(pid_t pid, int code) {
    if (getpgid(pid) != getpgid(0)) return code;
    if (getsid(pid) != getsid(0)) return code + 1;
    return 0;
}

static int do_relatives(void) {
    setpgid(0, 0); /* under qemu: the tree's own group */
    int ready[2], go[2], report[2], checked[2];
    make_pipe(ready);
    make_pipe(go);
    make_pipe(report);
    make_pipe(checked);
    pid_t a = fork_flushed();
    if (a == 0) { /* waits until told to end */
        close(go[1]);
        put_int(ready[1], 1);
        get_int(go[0]);
        _exit(7);
    }
    close(go[0]);
    printf("sibling ready: %d\n", get_int(ready[0]));
    pid_t c = fork_flushed();
    if (c == 0) {
        pid_t g = fork_flushed();
        if (g == 0) {
            put_int(report[1], getpid());
            get_int(checked[0]);                  /* alive while the first process asks about it */
            _exit(same_group_and_session(a, 40)); /* its parent's sibling */
        }
        int bad = same_group_and_session(a, 10); /* its sibling */
        if (!bad && kill(a, 0) != 0) bad = 20;
        if (!bad) bad = same_group_and_session(g, 30); /* its own child */
        int status;
        if (waitpid(g, &status, 0) != g || !WIFEXITED(status)) _exit(50);
        _exit(bad ? bad : WEXITSTATUS(status));
    }
    pid_t g = get_int(report[0]);
    printf("the grandchild's group and session: %d\n", same_group_and_session(g, 10));
    errno = 0;
    int status;
    pid_t got = waitpid(g, &status, WNOHANG);
    printf("waitpid of the grandchild: %d %s\n", (int)got, strerror(errno));
    put_int(checked[1], 1);
    reap(c,
         "child (0: its sibling's, its child's, and for the grandchild its parent's sibling's group and session are "
         "its own)");
    put_int(go[1], 1);
    reap(a, "sibling (7)");
    errno = 0;
    printf("kill of the reaped sibling: %d %s\n", kill(a, 0), strerror(errno));
    errno = 0;
    int pgid = (int)getpgid(a);
    printf("getpgid of the reaped sibling: %d %s\n", pgid, strerror(errno));
    return 0;
}

/* ---- faults ---- */

static const int fault_signals[] = {SIGBUS, SIGFPE, SIGILL, SIGSEGV};
enum { fault_count = sizeof fault_signals / sizeof fault_signals[0] };

static int fault_child(int ready) {
    for (size_t i = 0; i < fault_count; i++) catch_with(fault_signals[i], on_signal);
    put_int(ready, 1);
    sigset_t none;
    sigemptyset(&none);
    /* different signals: each stays pending until handled */
    while (handled_count < fault_count) sigsuspend(&none);
    return 40 + handled_count;
}

static int do_faults(void) {
    int ready[2];
    make_pipe(ready);
    pid_t c = fork_flushed();
    if (c == 0) _exit(fault_child(ready[1]));
    printf("child ready: %d\n", get_int(ready[0]));
    int sent = 0;
    for (size_t i = 0; i < fault_count; i++) sent += kill(c, fault_signals[i]) == 0;
    printf("sent: %d\n", sent);
    reap(c, "child catching SIGBUS, SIGFPE, SIGILL, SIGSEGV (44: each handler ran)");
    pid_t d = fork_flushed();
    if (d == 0) {
        put_int(ready[1], 1);
        for (;;) pause();
    }
    printf("child ready: %d\n", get_int(ready[0]));
    printf("kill SIGSEGV: %d\n", kill(d, SIGSEGV));
    reap(d, "child without a handler");
    return 0;
}

/* ---- shared_kill ---- */

static int do_shared_kill(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/shared", dir);
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    if (fd < 0 || write(fd, "........", 8) != 8) return 80;
    int ready[2];
    make_pipe(ready);
    pid_t c = fork_flushed();
    if (c == 0) {
        char *p = mmap(NULL, 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) _exit(81);
        memcpy(p, "written!", 8);
        put_int(ready[1], 1);
        for (;;) pause(); /* SIGTERM's default action ends it */
    }
    printf("child wrote: %d\n", get_int(ready[0]));
    printf("kill SIGTERM: %d\n", kill(c, SIGTERM));
    reap(c, "child with a shared mapping");
    char back[9] = {0};
    printf("the file: %s\n", pread(fd, back, 8, 0) == 8 ? back : "(short)");
    close(fd);
    unlink(path);
    return 0;
}

/* ---- threads ---- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int released;

static void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    while (!released) pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static int threaded_child(int ready) {
    catch_with(SIGUSR1, on_signal);
    pthread_t t;
    if (pthread_create(&t, NULL, waiter, NULL) != 0) return 2;
    put_int(ready, 1);
    while (!got_signal) pause(); /* both threads wait: only the parent's signal ends it */
    pthread_mutex_lock(&lock);
    released = 1;
    pthread_cond_signal(&changed);
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    return got_signal == SIGUSR1 ? 55 : 3;
}

static int do_threads(void) {
    int ready[2];
    make_pipe(ready);
    pid_t c = fork_flushed();
    if (c == 0) _exit(threaded_child(ready[1]));
    printf("child ready: %d\n", get_int(ready[0]));
    /* most likely both threads wait by now (nothing can tell): the outcome is the same
     * either way, the nap only makes it likely that the signal finds them waiting */
    struct timespec nap = {0, 20000000};
    nanosleep(&nap, NULL);
    printf("kill SIGUSR1: %d\n", kill(c, SIGUSR1));
    reap(c, "child with two waiting threads (55: its handler ran, the other thread released)");
    return 0;
}

/* ---- exec_parent ---- */

static int after_exec(char **argv) {
    int go = atoi(argv[2]), done = atoi(argv[3]);
    pid_t child = (pid_t)atoi(argv[4]);
    catch_info(SIGUSR1);
    sigset_t before, pending;
    block(SIGUSR1, &before);
    put_int(go, 1);
    printf("the child's kill of its parent, now another program: %d\n", get_int(done));
    sigpending(&pending);
    printf("SIGUSR1 pending: %d, handler ran: %d\n", sigismember(&pending, SIGUSR1), got_signal == SIGUSR1);
    sigprocmask(SIG_SETMASK, &before, NULL);
    printf("after the unblock: handler ran %d, si_pid is the child's %d\n", got_signal == SIGUSR1, sender_pid == child);
    return 0;
}

static int do_exec_parent(const char *self) {
    int go[2], done[2];
    make_pipe(go);
    make_pipe(done);
    pid_t c = fork_flushed();
    if (c == 0) {
        get_int(go[0]); /* the new program is ready */
        put_int(done[1], kill(getppid(), SIGUSR1) == 0 ? 0 : errno);
        _exit(0);
    }
    char go_text[16], done_text[16], child_text[16];
    snprintf(go_text, sizeof go_text, "%d", go[1]);
    snprintf(done_text, sizeof done_text, "%d", done[0]);
    snprintf(child_text, sizeof child_text, "%d", (int)c);
    char *args[] = {"proc_tree", "after_exec", go_text, done_text, child_text, NULL};
    execv(self, args);
    printf("execv: %s\n", strerror(errno));
    return 1;
}

/* ---- kill_all ---- */

static int do_kill_all(void) {
    if (!getenv("PROC_TREE_KILL_ALL")) {
        fprintf(stderr,
                "proc_tree kill_all: only under cyclescope (PROC_TREE_KILL_ALL=1): kill(-1) would reach every process "
                "of the user\n");
        return 2;
    }
    catch_with(SIGUSR1, on_signal);
    sigset_t before, pending;
    block(SIGUSR1, &before);
    int ready[2], acks[2], hold[2], gone[2];
    make_pipe(ready);
    make_pipe(acks);
    make_pipe(hold);
    make_pipe(gone); /* its write end held by the child and the grandchild alone: EOF when both ended */
    pid_t c = fork_flushed();
    if (c == 0) {
        close(hold[1]);
        close(gone[0]);
        pid_t g = fork_flushed();
        if (g == 0) {
            put_int(ready[1], 1);
            wait_for(SIGUSR1);
            put_int(acks[1], 2);
            get_int(hold[0]); /* SIGKILL ends it here */
            _exit(1);
        }
        put_int(ready[1], 1);
        wait_for(SIGUSR1);
        put_int(acks[1], 1);
        get_int(hold[0]);
        _exit(1);
    }
    close(hold[0]);
    close(gone[1]);
    printf("ready: %d %d\n", get_int(ready[0]), get_int(ready[0]));
    printf("kill(-1, SIGUSR1): %d\n", kill(-1, SIGUSR1));
    printf("acknowledged: %d\n", get_int(acks[0]) + get_int(acks[0]));
    sigpending(&pending);
    printf("the sender's own: pending %d\n", sigismember(&pending, SIGUSR1));
    printf("kill(-1, SIGKILL): %d\n", kill(-1, SIGKILL));
    char byte;
    printf("the child and the grandchild ended: %d\n", read(gone[0], &byte, 1) == 0);
    reap(c, "child");
    sigprocmask(SIG_SETMASK, &before, NULL);
    printf("the sender's handler ran: %d\n", got_signal == SIGUSR1);
    return 0;
}

int main(int argc, char **argv) {
    const char *what = argc >= 2 ? argv[1] : "";
    if (!strcmp(what, "sibling")) return do_sibling();
    if (!strcmp(what, "ancestor")) return do_ancestor();
    if (!strcmp(what, "child_group")) return do_child_group();
    if (!strcmp(what, "relatives")) return do_relatives();
    if (!strcmp(what, "faults")) return do_faults();
    if (!strcmp(what, "shared_kill") && argc >= 3) return do_shared_kill(argv[2]);
    if (!strcmp(what, "kill_all")) return do_kill_all();
    if (!strcmp(what, "threads")) return do_threads();
    if (!strcmp(what, "exec_parent")) return do_exec_parent(argv[0]);
    if (!strcmp(what, "after_exec") && argc >= 5) return after_exec(argv);
    fprintf(stderr,
            "usage: proc_tree sibling|ancestor|child_group|relatives|faults|threads|exec_parent|kill_all|shared_kill "
            "DIR\n");
    return 2;
}
