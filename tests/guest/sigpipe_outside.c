/* SIGPIPE for a write to a pipe that is not the program's own (inherited across execve, or
 * the stdout it was started with) once its reader is gone: Linux returns EPIPE and sends
 * SIGPIPE, whose action the program chose — the default ends it, SIG_IGN (kept across
 * execve) leaves EPIPE, a handler runs. Checked with this file built for x86-64 and run
 * natively (qemu-riscv64 cannot execve a RISC-V program here).
 *   sigpipe_outside tree MODE    a child execs `writer MODE` with its stdout the write end
 *                                of a pipe nobody reads: its end, as the parent's waitpid sees it
 *   sigpipe_outside writer MODE  writes to stdout until a write fails; MODE default, ignore
 *                                or handler; exit 3 after EPIPE (stderr says so)
 * Before 2026-11-29 the exec'd writer got EPIPE without SIGPIPE (default: exit 3), and a
 * first process that ignored or caught SIGPIPE died with the host's SIGPIPE (141). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t handled;
static void on_pipe(int sig) {
    (void)sig;
    handled++;
}

static int writer(const char *mode) {
    if (!strcmp(mode, "ignore")) signal(SIGPIPE, SIG_IGN);
    if (!strcmp(mode, "handler")) signal(SIGPIPE, on_pipe);
    char buf[1024];
    memset(buf, 'y', sizeof buf);
    for (;;)
        if (write(1, buf, sizeof buf) < 0) {
            fprintf(stderr, "writer %s: %s, handler ran %d\n", mode, errno == EPIPE ? "EPIPE" : strerror(errno),
                    (int)handled);
            return 3;
        }
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    if (!strcmp(argv[1], "writer")) return writer(argv[2]);
    int p[2];
    if (pipe(p) != 0) return 2;
    pid_t child = fork();
    if (child < 0) return 2;
    if (child == 0) {
        close(p[0]);
        dup2(p[1], 1);
        close(p[1]);
        execl(argv[0], argv[0], "writer", argv[2], (char *)NULL);
        _exit(99);
    }
    close(p[0]); /* no reader left anywhere */
    close(p[1]);
    int status;
    if (waitpid(child, &status, 0) != child) return 2;
    if (WIFSIGNALED(status)) printf("tree %s: writer killed by signal %d\n", argv[2], WTERMSIG(status));
    else printf("tree %s: writer exit %d\n", argv[2], WEXITSTATUS(status));
    return 0;
}
