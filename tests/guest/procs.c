/* Processes: fork, wait4/waitid, kill of a child, a pipe between parent and child, vfork-style
 * posix_spawn and execve (docs/sandbox.md §15). Prints relations between pids, never the pids
 * themselves, so that qemu-riscv64 (real pids) and cyclescope (virtual ones) print the same.
 *
 *   procs fork             fork, statuses, WNOHANG, -1, a signalled child, ECHILD, waitid
 *   procs simple           one fork, the child prints and exits 3 (a deterministic parent)
 *   procs sigchld          a SIGCHLD handler reaps the child that ended
 *   procs threads          a fork from a thread while another waits: the child has one thread
 *   procs vfork            vfork(): the parent goes on once the child exited
 *   procs spawn PROG ARGS  posix_spawn PROG with ARGS and a fixed environment, its stdout
 *                          through a pipe, each line prefixed
 *   procs exec PROG ARGS   execve PROG with ARGS and a fixed environment
 *   procs exec-fail PATH   execve PATH: the errno
 *   procs show ARGS        print argv[1..] and the environment (what spawn and exec run)
 *   procs exec-wait        one fork (the child exits 7), then an execve of `procs reap PID`
 *   procs reap PID         waits for any child: the one the program before the execve made
 *   procs signaller        one fork, then 40 rounds of work each ending in a SIGUSR1 to the
 *                          child (every 100 000-instruction interval after the first holds one)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void say(const char *what, int yes) { printf("%s: %s\n", what, yes ? "yes" : "no"); }

static void describe(const char *who, int status) {
    if (WIFEXITED(status)) printf("%s: exited %d\n", who, WEXITSTATUS(status));
    else if (WIFSIGNALED(status)) printf("%s: killed by signal %d\n", who, WTERMSIG(status));
    else printf("%s: status 0x%x\n", who, status);
}

static pid_t fork_flushed(void) {
    fflush(stdout);
    return fork();
}

static int do_fork(void) {
    pid_t me = getpid();
    int p[2];
    if (pipe(p) != 0) return 1;
    pid_t c = fork_flushed();
    if (c == 0) {
        close(p[0]);
        char line[128];
        int n = snprintf(line, sizeof line, "from the child: ppid is the parent %s, pid is its own %s, tid %s\n",
                         getppid() == me ? "yes" : "no", getpid() != me ? "yes" : "no",
                         gettid() == getpid() ? "= pid" : "!= pid");
        if (write(p[1], line, (size_t)n) != n) _exit(9);
        _exit(7);
    }
    close(p[1]);
    char buf[256];
    ssize_t got, total = 0;
    while ((got = read(p[0], buf + total, sizeof buf - 1 - (size_t)total)) > 0) total += got;
    buf[total] = 0;
    close(p[0]);
    printf("%s", buf);
    int st = 0;
    say("fork returned the pid wait4 reports", waitpid(c, &st, 0) == c);
    describe("child 1", st);

    /* WNOHANG while the child waits on a pipe, then a blocking wait */
    int go[2];
    if (pipe(go) != 0) return 1;
    c = fork_flushed();
    if (c == 0) {
        close(go[1]);
        char b;
        _exit(read(go[0], &b, 1) == 1 ? b - '0' : 99);
    }
    close(go[0]);
    say("WNOHANG before it can end gives 0", waitpid(c, &st, WNOHANG) == 0);
    if (write(go[1], "5", 1) != 1) return 1;
    close(go[1]);
    say("then a wait gives its pid", waitpid(c, &st, 0) == c);
    describe("child 2", st);

    /* wait(-1) for three children: each status once */
    pid_t kids[3];
    for (int i = 0; i < 3; i++) {
        kids[i] = fork_flushed();
        if (kids[i] == 0) _exit(10 + i);
    }
    int seen = 0;
    for (int i = 0; i < 3; i++) {
        pid_t w = wait(&st);
        for (int k = 0; k < 3; k++)
            if (w == kids[k] && WIFEXITED(st) && WEXITSTATUS(st) == 10 + k) seen |= 1 << k;
    }
    say("wait(-1) gave each of three children with its status", seen == 7);

    /* a child killed by the parent's signal, and one by its own abort() */
    int hold[2];
    if (pipe(hold) != 0) return 1;
    c = fork_flushed();
    if (c == 0) {
        close(hold[1]);
        char b;
        while (read(hold[0], &b, 1) != 0) {
        }
        _exit(0);
    }
    close(hold[0]);
    say("kill of the child", kill(c, SIGTERM) == 0);
    waitpid(c, &st, 0);
    describe("child 3", st);
    close(hold[1]);
    c = fork_flushed();
    if (c == 0) {
        signal(SIGABRT, SIG_DFL);
        raise(SIGKILL);
        _exit(1);
    }
    waitpid(c, &st, 0);
    describe("child 4", st);

    /* waitid, then no children left */
    c = fork_flushed();
    if (c == 0) _exit(42);
    siginfo_t info;
    memset(&info, 0, sizeof info);
    say("waitid", waitid(P_PID, (id_t)c, &info, WEXITED) == 0);
    say("waitid's siginfo names the child", info.si_pid == c && info.si_signo == SIGCHLD);
    printf("waitid: code %s, status %d\n", info.si_code == CLD_EXITED ? "CLD_EXITED" : "other", info.si_status);
    errno = 0;
    say("no child left: ECHILD", waitpid(-1, &st, 0) == -1 && errno == ECHILD);
    say("a pid that is no child: ECHILD", waitpid(me + 1000000, &st, WNOHANG) == -1 && errno == ECHILD);
    return 0;
}

static int do_simple(void) {
    pid_t c = fork_flushed();
    if (c == 0) {
        printf("the child runs\n");
        fflush(stdout);
        _exit(3);
    }
    int st = 0;
    say("waited", waitpid(c, &st, 0) == c);
    describe("child", st);
    return 0;
}

static volatile sig_atomic_t chld_seen, chld_status = -1;

static void on_chld(int sig, siginfo_t *info, void *ctx) {
    (void)sig, (void)ctx;
    int st;
    if (info->si_signo == SIGCHLD && waitpid(-1, &st, WNOHANG) > 0) chld_status = st;
    chld_seen++;
}

static int do_sigchld(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_chld;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(SIGCHLD, &sa, NULL);
    pid_t c = fork_flushed();
    if (c == 0) _exit(4);
    /* system calls until the handler ran (the emulator delivers it at one) */
    for (long i = 0; i < 20000000 && !chld_seen; i++) getppid();
    say("the SIGCHLD handler ran once", chld_seen == 1);
    say("it reaped the child: exit 4", chld_status >= 0 && WIFEXITED(chld_status) && WEXITSTATUS(chld_status) == 4);
    errno = 0;
    say("nothing left to wait for", waitpid(c, NULL, WNOHANG) == -1 && errno == ECHILD);
    /* pause() until the next child's SIGCHLD */
    chld_seen = 0;
    chld_status = -1;
    c = fork_flushed();
    if (c == 0) _exit(8);
    while (!chld_seen) pause();
    say("pause() ended by SIGCHLD; reaped: exit 8", WIFEXITED(chld_status) && WEXITSTATUS(chld_status) == 8);
    return 0;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int released;

static void *waiter(void *arg) {
    pthread_mutex_lock(&lock);
    while (!released) pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    return arg;
}

static void *forker(void *arg) {
    pid_t parent = getpid();
    pid_t c = fork_flushed();
    if (c == 0) {
        /* one thread: this one, now the process' main thread */
        printf("child: its pid is its tid %s, its parent the process that forked %s\n",
               gettid() == getpid() ? "yes" : "no", getppid() == parent ? "yes" : "no");
        fflush(stdout);
        _exit(6);
    }
    int st = 0;
    say("a thread's fork: waited", waitpid(c, &st, 0) == c);
    describe("child", st);
    return arg;
}

static int do_threads(void) {
    pthread_t w, f;
    pthread_create(&w, NULL, waiter, NULL);
    pthread_create(&f, NULL, forker, NULL);
    pthread_join(f, NULL);
    pthread_mutex_lock(&lock);
    released = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    pthread_join(w, NULL);
    say("the waiting thread was released after", 1);
    return 0;
}

static int do_vfork(void) {
    int p[2];
    if (pipe(p) != 0) return 1;
    fflush(stdout);
    pid_t c = vfork();
    if (c == 0) {
        static const char line[] = "from the vfork child\n";
        if (write(p[1], line, sizeof line - 1) < 0) _exit(1);
        _exit(9);
    }
    close(p[1]);
    char buf[64] = {0};
    /* the child ended before vfork returned here: its line is in the pipe already */
    ssize_t n = read(p[0], buf, sizeof buf - 1);
    printf("%s", n > 0 ? buf : "nothing\n");
    int st = 0;
    say("vfork returned the pid wait4 reports", waitpid(c, &st, 0) == c);
    describe("vfork child", st);
    return 0;
}

static char *const fixed_env[] = {"A=1", "B=two words", "EMPTY=", NULL};

static int do_spawn(int argc, char **argv) {
    int p[2];
    if (pipe(p) != 0) return 1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_addclose(&fa, p[0]);
    pid_t c;
    int rc = posix_spawn(&c, argv[0], &fa, NULL, argv, fixed_env);
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    if (rc != 0) {
        printf("posix_spawn: %s\n", strerror(rc));
        close(p[0]);
        if (wait(NULL) != -1 || errno != ECHILD) printf("a child is left to wait for\n"); /* glibc reaped it */
        return 0;
    }
    FILE *in = fdopen(p[0], "r");
    char line[512];
    while (fgets(line, sizeof line, in)) printf("[spawned] %s", line);
    fclose(in);
    int st = 0;
    say("waited", waitpid(c, &st, 0) == c);
    describe("spawned", st);
    (void)argc;
    return 0;
}

static int do_exec(char **argv) {
    char pid_var[32];
    snprintf(pid_var, sizeof pid_var, "PROCS_PID=%d", (int)getpid());
    char *env[] = {"A=1", "B=two words", "EMPTY=", pid_var, NULL};
    printf("before the exec\n");
    fflush(stdout);
    execve(argv[0], argv, env);
    printf("execve: %s\n", strerror(errno));
    return 1;
}

static int do_show(int argc, char **argv) {
    for (int i = 1; i < argc; i++) printf("arg %d: %s\n", i, argv[i]);
    for (char **e = environ; *e; e++) {
        if (strncmp(*e, "PROCS_PID=", 10) == 0) say("the pid is kept across execve", atoi(*e + 10) == getpid());
        else printf("env: %s\n", *e);
    }
    return 5;
}

static int do_exec_wait(const char *self) {
    pid_t c = fork_flushed();
    if (c == 0) _exit(7);
    char pid_text[32];
    snprintf(pid_text, sizeof pid_text, "%d", (int)c);
    char *args[] = {(char *)self, "reap", pid_text, NULL};
    execve(self, args, environ);
    printf("execve: %s\n", strerror(errno));
    return 1;
}

static int do_reap(const char *pid_text) {
    int st = 0;
    pid_t got = waitpid(-1, &st, 0);
    say("waited for the child made before the execve", got == (pid_t)atoi(pid_text));
    describe("child", st);
    errno = 0;
    say("no child left: ECHILD", waitpid(-1, &st, 0) == -1 && errno == ECHILD);
    return 0;
}

static volatile sig_atomic_t usr1_seen;

static void on_usr1(int sig) {
    (void)sig;
    usr1_seen = 1;
}

static int do_signaller(void) {
    signal(SIGUSR1, on_usr1);
    pid_t c = fork_flushed();
    if (c == 0) {
        for (;;) pause(); /* until SIGTERM */
    }
    volatile unsigned long sum = 0;
    for (int round = 0; round < 40; round++) {
        for (int i = 0; i < 10000; i++) sum += (unsigned long)i * (unsigned long)round;
        kill(c, SIGUSR1);
    }
    kill(c, SIGTERM);
    int st = 0;
    say("waited", waitpid(c, &st, 0) == c);
    describe("child", st);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "fork")) return do_fork();
    if (argc >= 2 && !strcmp(argv[1], "simple")) return do_simple();
    if (argc >= 2 && !strcmp(argv[1], "sigchld")) return do_sigchld();
    if (argc >= 2 && !strcmp(argv[1], "threads")) return do_threads();
    if (argc >= 2 && !strcmp(argv[1], "vfork")) return do_vfork();
    if (argc >= 3 && !strcmp(argv[1], "spawn")) return do_spawn(argc - 2, argv + 2);
    if (argc >= 3 && !strcmp(argv[1], "exec")) return do_exec(argv + 2);
    if (argc >= 3 && !strcmp(argv[1], "exec-fail")) {
        char *args[] = {argv[2], NULL};
        execve(argv[2], args, environ);
        printf("execve %s: %s\n", argv[2], strerror(errno));
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "show")) return do_show(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "signaller")) return do_signaller();
    if (argc >= 2 && !strcmp(argv[1], "exec-wait")) return do_exec_wait(argv[0]);
    if (argc >= 3 && !strcmp(argv[1], "reap")) return do_reap(argv[2]);
    fprintf(stderr,
            "usage: procs fork|simple|sigchld|threads|vfork|spawn PROG ARGS|exec PROG ARGS|exec-fail PATH|show "
            "ARGS|signaller|exec-wait|reap PID\n");
    return 2;
}
