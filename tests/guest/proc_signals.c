/* Signals between processes (docs/sandbox.md §15): a parent's kill reaches its child's
 * disposition and mask, kill(0, …) the whole group, SIGCHLD a parent that computes without
 * system calls. Only the parent prints (the children tell it through exit codes and pipes),
 * and every step waits for the one before through a pipe, so the output never depends on
 * timing: qemu-riscv64 and cyclescope print the same.
 *
 *   proc_signals term           the child catches SIGTERM in pause(); its handler _exits 42
 *   proc_signals spin           the child computes without system calls until SIGUSR1's handler
 *   proc_signals ignore         SIGUSR1 ignored by the child (it lives on), then SIGKILL; a
 *                               child without a handler dies of SIGTERM
 *   proc_signals blocked        SIGUSR2 blocked by the child: pending, its handler runs at the unblock
 *   proc_signals read_eintr     a handler without SA_RESTART: the child's read of a pipe is EINTR
 *   proc_signals read_restart   with SA_RESTART: the read goes on after the handler, gets the data
 *   proc_signals group          kill(0, SIGUSR1): the parent, its two children and a grandchild
 *   proc_signals sigchld_spin   SIGCHLD reaches a parent computing without system calls
 *   proc_signals wait_eintr     the child's waitpid for its own child is EINTR (a handler, no SA_RESTART)
 *   proc_signals sigwait        the child takes its parent's SIGUSR1 with sigwait
 *   proc_signals to_parent      kill(getppid(), …): a child's SIGUSR1 to the first process (blocked:
 *                               pending, its SA_SIGINFO handler with the child's pid at the
 *                               unblock), a grandchild's SIGUSR2 to the child's handler
 *   proc_signals groups         getpgid/getsid of the caller, its parent and its child, in the
 *                               first process and in a child: the one group and session; a
 *                               reaped child's: ESRCH (the numbers differ from qemu's, the
 *                               relations do not)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got_signal;

static void on_signal(int sig) { got_signal = sig; }
static void on_term_exit(int sig) { _exit(sig == SIGTERM ? 42 : 1); }

static void describe(const char *who, int status) {
    if (WIFEXITED(status)) printf("%s: exited %d\n", who, WEXITSTATUS(status));
    else if (WIFSIGNALED(status)) printf("%s: killed by signal %d\n", who, WTERMSIG(status));
    else printf("%s: status 0x%x\n", who, status);
}

static void catch_with(int sig, void (*handler)(int), int flags) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

/* A child that runs `body` with the write end of a "ready" pipe and the read end of a "go"
 * pipe; the parent has the other ends. */
typedef struct child {
    pid_t pid;
    int ready, go; /* the parent's ends */
} child;

static child start(int (*body)(int ready, int go)) {
    int r[2], g[2];
    if (pipe(r) != 0 || pipe(g) != 0) exit(90);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(r[0]);
        close(g[1]);
        _exit(body(r[1], g[0]));
    }
    close(r[1]);
    close(g[0]);
    return (child){pid, r[0], g[1]};
}

static void tell(int fd) {
    if (write(fd, "!", 1) != 1) _exit(91);
}

static int hear(int fd) { /* 1: a byte came; 0: the end of the pipe */
    char c;
    ssize_t n;
    while ((n = read(fd, &c, 1)) < 0 && errno == EINTR) {
    }
    return n == 1;
}

static void reap(child c, const char *who) {
    int status;
    if (waitpid(c.pid, &status, 0) != c.pid) printf("%s: waitpid: %s\n", who, strerror(errno));
    else describe(who, status);
    close(c.ready);
    close(c.go);
}

/* ---- term ---- */

static int term_child(int ready, int go) {
    (void)go;
    catch_with(SIGTERM, on_term_exit, 0);
    tell(ready);
    for (int i = 0; i < 1000; i++) pause(); /* only the handler ends it */
    return 1;
}

/* A child started with `body` and ready, sent `sig` (named `sig_name`), then reaped. */
static int kill_ready_child(int (*body)(int ready, int go), int sig, const char *sig_name, const char *who) {
    child c = start(body);
    printf("child ready: %d\n", hear(c.ready));
    printf("kill %s: %d\n", sig_name, kill(c.pid, sig));
    reap(c, who);
    return 0;
}

static int do_term(void) { return kill_ready_child(term_child, SIGTERM, "SIGTERM", "child catching SIGTERM"); }

/* ---- spin ---- */

static int spin_child(int ready, int go) {
    (void)go;
    catch_with(SIGUSR1, on_signal, 0);
    tell(ready);
    /* no system call in the loop; bounded so that a signal that never comes ends it */
    for (unsigned long i = 0; !got_signal && i < 4000000000ul; i++) __asm__ volatile("");
    return got_signal == SIGUSR1 ? 17 : 1;
}

static int do_spin(void) { return kill_ready_child(spin_child, SIGUSR1, "SIGUSR1", "spinning child"); }

/* ---- ignore ---- */

static int ignore_child(int ready, int go) {
    signal(SIGUSR1, SIG_IGN);
    tell(ready);
    if (!hear(go)) return 2;                /* the parent sent SIGUSR1 before this byte */
    tell(ready);                            /* still alive */
    for (int i = 0; i < 1000; i++) pause(); /* until SIGKILL */
    return 1;
}

static int default_child(int ready, int go) {
    tell(ready);
    hear(go); /* SIGTERM ends it here */
    return 3;
}

static int do_ignore(void) {
    child c = start(ignore_child);
    printf("child ready: %d\n", hear(c.ready));
    printf("kill SIGUSR1: %d\n", kill(c.pid, SIGUSR1));
    tell(c.go);
    printf("alive after an ignored SIGUSR1: %d\n", hear(c.ready));
    printf("kill SIGKILL: %d\n", kill(c.pid, SIGKILL));
    reap(c, "child ignoring SIGUSR1");
    child d = start(default_child);
    printf("child ready: %d\n", hear(d.ready));
    printf("kill SIGTERM: %d\n", kill(d.pid, SIGTERM));
    reap(d, "child with SIGTERM's default action");
    return 0;
}

/* ---- blocked ---- */

static int blocked_child(int ready, int go) {
    catch_with(SIGUSR2, on_signal, 0);
    sigset_t usr2, pending;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    sigprocmask(SIG_BLOCK, &usr2, NULL);
    tell(ready);
    if (!hear(go)) return 2; /* SIGUSR2 was sent before this byte */
    int code = 0;
    sigpending(&pending);
    if (sigismember(&pending, SIGUSR2) == 1) code |= 1; /* pending while blocked */
    if (!got_signal) code |= 2;                         /* its handler did not run yet */
    sigprocmask(SIG_UNBLOCK, &usr2, NULL);
    if (got_signal == SIGUSR2) code |= 4; /* ran at the unblock */
    return 40 + code;
}

static int do_blocked(void) {
    child c = start(blocked_child);
    printf("child ready: %d\n", hear(c.ready));
    printf("kill SIGUSR2: %d\n", kill(c.pid, SIGUSR2));
    tell(c.go);
    reap(c, "child blocking SIGUSR2 (47: pending, held, then handled)");
    return 0;
}

/* ---- read_eintr, read_restart ----
 * No program can know that another is blocked in read: the parent signals until the child's
 * read has ended (EINTR: one signal came while it was blocked), or, with SA_RESTART, three
 * times, each acknowledged by the handler through a pipe, before it writes the data the read
 * waits for. Either way the outcome, not its timing, is what is printed. */

enum { HANDLED_FD = 20 }; /* the "handled" pipe's write end in the child */
static volatile sig_atomic_t handled_count;

static void on_usr1_tell(int sig) {
    got_signal = sig;
    handled_count++;
    if (write(HANDLED_FD, "!", 1) != 1) _exit(92);
}

static int restart_flags;

static int reading_child(int ready, int go) {
    catch_with(SIGUSR1, on_usr1_tell, restart_flags);
    tell(ready);
    char buf[8];
    for (;;) {
        ssize_t n = read(go, buf, sizeof buf); /* blocks until a signal (no SA_RESTART) or data */
        if (n < 0 && errno == EINTR) return restart_flags ? 52 : 50;
        if (n < 0) return 51;
        return n == 4 && !memcmp(buf, "data", 4) && handled_count == 3 ? 60 : 61;
    }
}

static int do_read(int flags) {
    int handled[2];
    if (pipe(handled) != 0 || dup2(handled[1], HANDLED_FD) != HANDLED_FD) return 90;
    close(handled[1]);
    restart_flags = flags;
    child c = start(reading_child);
    close(HANDLED_FD);
    printf("child ready: %d\n", hear(c.ready));
    int status = 0, acks = 0;
    if (flags & SA_RESTART) {
        for (int i = 0; i < 3; i++) {
            kill(c.pid, SIGUSR1);
            acks += hear(handled[0]);
        }
        printf("handler ran: %d times\n", acks);
        if (write(c.go, "data", 4) != 4) return 92;
        waitpid(c.pid, &status, 0);
    } else {
        /* until a signal finds it blocked in read (one that came before the read was handled
         * and the read began: the next one) */
        while (waitpid(c.pid, &status, WNOHANG) == 0) {
            kill(c.pid, SIGUSR1);
            struct timespec nap = {0, 1000000};
            nanosleep(&nap, NULL);
        }
    }
    describe(flags & SA_RESTART ? "reader with SA_RESTART (60: the read went on, got the data)"
                                : "reader without SA_RESTART (50: the read was EINTR)",
             status);
    close(c.ready);
    close(c.go);
    close(handled[0]);
    return 0;
}

/* ---- group ---- */

static int grandchild(int ready, int go) {
    (void)go;
    sigset_t none;
    sigemptyset(&none);
    tell(ready);
    while (!got_signal) sigsuspend(&none); /* SIGUSR1 is blocked outside it */
    return got_signal == SIGUSR1 ? 30 : 1;
}

static int group_child(int ready, int go) {
    (void)go;
    sigset_t none;
    sigemptyset(&none);
    child g = {0, -1, -1};
    int has_grandchild = getenv("PROC_SIGNALS_NO_GRANDCHILD") == NULL;
    if (has_grandchild) {
        g = start(grandchild);
        if (!hear(g.ready)) return 2;
    }
    tell(ready);
    while (!got_signal) sigsuspend(&none);
    int code = got_signal == SIGUSR1 ? 20 : 1;
    if (has_grandchild) {
        int status;
        if (waitpid(g.pid, &status, 0) != g.pid || !WIFEXITED(status) || WEXITSTATUS(status) != 30) return 3;
        code += 1; /* 21: its own child had it too */
    }
    return code;
}

static int do_group(void) {
    setpgid(0, 0); /* under qemu: a group of its own, not the test harness' (cyclescope: one group anyway) */
    catch_with(SIGUSR1, on_signal, 0);
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, NULL); /* until each waits for it */
    child a = start(group_child);
    setenv("PROC_SIGNALS_NO_GRANDCHILD", "1", 1);
    child b = start(group_child);
    printf("children ready: %d %d\n", hear(a.ready), hear(b.ready));
    printf("kill(0, SIGUSR1): %d\n", kill(0, SIGUSR1));
    printf("the parent's own, pending while blocked: %d\n", got_signal == 0);
    sigprocmask(SIG_UNBLOCK, &usr1, NULL);
    printf("the parent's own handler ran: %d\n", got_signal == SIGUSR1);
    reap(a, "child with a grandchild (21)");
    reap(b, "child (20)");
    return 0;
}

/* ---- sigchld_spin ---- */

static int quick_child(int ready, int go) {
    (void)ready, (void)go;
    return 5;
}

static int do_sigchld_spin(void) {
    catch_with(SIGCHLD, on_signal, SA_RESTART);
    child c = start(quick_child);
    for (unsigned long i = 0; !got_signal && i < 4000000000ul; i++) __asm__ volatile("");
    printf("SIGCHLD in the loop: %d\n", got_signal == SIGCHLD);
    reap(c, "child");
    return 0;
}

/* ---- wait_eintr ---- */

static int blocked_forever(int ready, int go) {
    tell(ready);
    hear(go); /* until its parent kills it */
    return 1;
}

static int waiting_child(int ready, int go) {
    (void)go;
    catch_with(SIGUSR1, on_signal, 0);
    child g = start(blocked_forever);
    hear(g.ready);
    tell(ready);
    int status;
    pid_t got = waitpid(g.pid, &status, 0);
    int why = errno;
    kill(g.pid, SIGKILL);
    waitpid(g.pid, &status, 0);
    return got < 0 && why == EINTR && got_signal == SIGUSR1 ? 70 : 71;
}

static int do_wait_eintr(void) {
    child c = start(waiting_child);
    printf("child ready: %d\n", hear(c.ready));
    int status;
    while (waitpid(c.pid, &status, WNOHANG) == 0) { /* until one finds it blocked in waitpid */
        kill(c.pid, SIGUSR1);
        struct timespec nap = {0, 1000000};
        nanosleep(&nap, NULL);
    }
    describe("child whose waitpid was interrupted (70: EINTR)", status);
    return 0;
}

/* ---- sigwait ---- */

static int sigwait_child(int ready, int go) {
    (void)go;
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, NULL);
    tell(ready);
    int sig = 0;
    if (sigwait(&usr1, &sig) != 0) return 1;
    return 80 + (sig == SIGUSR1);
}

static int do_sigwait(void) {
    return kill_ready_child(sigwait_child, SIGUSR1, "SIGUSR1", "child in sigwait (81: it took SIGUSR1)");
}

/* ---- to_parent ---- */

static volatile sig_atomic_t sender_pid;

static void on_signal_info(int sig, siginfo_t *info, void *context) {
    (void)context;
    got_signal = sig;
    sender_pid = info->si_pid;
}

static int telling_grandchild(int ready, int go) {
    (void)ready, (void)go;
    return kill(getppid(), SIGUSR2) == 0 ? 0 : 60 + errno % 10;
}

static int telling_child(int ready, int go) {
    (void)go;
    got_signal = 0;
    catch_with(SIGUSR2, on_signal, 0);
    sigset_t usr2, before;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    sigprocmask(SIG_BLOCK, &usr2, &before);
    child g = start(telling_grandchild);
    int status;
    if (waitpid(g.pid, &status, 0) != g.pid || !WIFEXITED(status)) return 50;
    if (WEXITSTATUS(status)) return WEXITSTATUS(status);
    while (got_signal != SIGUSR2) sigsuspend(&before); /* it is pending: the handler runs now */
    if (kill(getppid(), 0) != 0) return 70;
    if (kill(getppid(), SIGUSR1) != 0) return 80 + errno % 10;
    tell(ready);
    return 33;
}

static int do_to_parent(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal_info;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    sigset_t usr1, before, pending;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, &before);
    child c = start(telling_child);
    printf("child ready: %d\n", hear(c.ready));
    int status;
    pid_t pid = c.pid;
    if (waitpid(pid, &status, 0) != pid) printf("waitpid: %s\n", strerror(errno));
    else describe("child (33: its child's SIGUSR2 reached it, its SIGUSR1 was sent)", status);
    sigpending(&pending);
    printf("SIGUSR1 pending: %d, handler ran: %d\n", sigismember(&pending, SIGUSR1), got_signal == SIGUSR1);
    sigprocmask(SIG_SETMASK, &before, NULL);
    printf("after the unblock: handler ran %d, si_pid is the child's %d\n", got_signal == SIGUSR1, sender_pid == pid);
    close(c.ready);
    close(c.go);
    return 0;
}

/* ---- groups ---- */

/* 0 when `pid` is in the caller's process group and session, else a code naming the check. */
static int same_group_and_session(pid_t pid, int code) {
    if (getpgid(pid) != getpgid(0)) return code;
    if (getsid(pid) != getsid(0)) return code + 1;
    return 0;
}

static int groups_child(int ready, int go) {
    (void)go;
    int bad = same_group_and_session(getpid(), 10);
    if (!bad) bad = same_group_and_session(getppid(), 20);
    pid_t grandchild = fork();
    if (grandchild == 0) _exit(same_group_and_session(getpid(), 40));
    if (!bad) bad = same_group_and_session(grandchild, 30);
    int status;
    if (waitpid(grandchild, &status, 0) != grandchild || !WIFEXITED(status)) return 50;
    if (!bad) bad = WEXITSTATUS(status);
    tell(ready);
    return bad;
}

static int do_groups(void) {
    printf("own pid: %d\n", same_group_and_session(getpid(), 10));
    child c = start(groups_child);
    printf("child ready: %d\n", hear(c.ready));
    printf("child's pid: %d\n", same_group_and_session(c.pid, 30));
    reap(c, "child (0: its own, its parent's and its child's group and session are its own)");
    errno = 0;
    int pgid = (int)getpgid(c.pid), pgid_errno = errno;
    errno = 0;
    int sid = (int)getsid(c.pid), sid_errno = errno;
    printf("reaped child: getpgid %d %s, getsid %d %s\n", pgid, strerror(pgid_errno), sid, strerror(sid_errno));
    return 0;
}

int main(int argc, char **argv) {
    const char *what = argc >= 2 ? argv[1] : "";
    if (!strcmp(what, "term")) return do_term();
    if (!strcmp(what, "spin")) return do_spin();
    if (!strcmp(what, "ignore")) return do_ignore();
    if (!strcmp(what, "blocked")) return do_blocked();
    if (!strcmp(what, "read_eintr")) return do_read(0);
    if (!strcmp(what, "read_restart")) return do_read(SA_RESTART);
    if (!strcmp(what, "group")) return do_group();
    if (!strcmp(what, "sigchld_spin")) return do_sigchld_spin();
    if (!strcmp(what, "wait_eintr")) return do_wait_eintr();
    if (!strcmp(what, "sigwait")) return do_sigwait();
    if (!strcmp(what, "groups")) return do_groups();
    if (!strcmp(what, "to_parent")) return do_to_parent();
    fprintf(
        stderr,
        "usage: proc_signals "
        "term|spin|ignore|blocked|read_eintr|read_restart|group|sigchld_spin|wait_eintr|sigwait|groups|to_parent\n");
    return 2;
}
