/* A program that forks (a child that ends at once, reaped) and then computes for ever: a timed
 * run of it must still stop on Ctrl-C with its partial results (exec.procs.interrupt_after_fork).
 * From its first fork the first process takes its children's signals through host handlers
 * of its own (src/emu/signal.c); a Ctrl-C from outside must reach the run's handler. */
#include <sys/wait.h>
#include <unistd.h>

volatile unsigned long sink;

int main(void) {
    pid_t child = fork();
    if (child == 0) _exit(0);
    if (child < 0 || waitpid(child, NULL, 0) != child) return 1;
    unsigned long x = 1;
    for (;;) {
        x = x * 5 + 1;
        if (x & 16) sink = x;
    }
}
