/* A signal the program sends itself while it has blocked it waits, as on Linux: the
 * program goes on, sigpending() shows it, and unblocking it delivers it then (killed by
 * its default action, discarded when ignored by then). The mask itself reads back through
 * sigprocmask's old set; SIGKILL and SIGSTOP never join it.
 *   signal_mask block     SIGINT blocked and raised: runs to the end, exit 0
 *   signal_mask unblock   SIGTERM blocked, raised, then unblocked: killed then (143)
 *   signal_mask ignored   SIGUSR2 blocked, raised, ignored, unblocked: exit 0 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

static void show_mask(const char *when) {
    sigset_t now, pending;
    sigprocmask(SIG_BLOCK, NULL, &now);
    sigpending(&pending);
    printf("%s: blocked INT %d TERM %d USR2 %d KILL %d; pending INT %d TERM %d USR2 %d\n", when,
           sigismember(&now, SIGINT), sigismember(&now, SIGTERM), sigismember(&now, SIGUSR2),
           sigismember(&now, SIGKILL), sigismember(&pending, SIGINT), sigismember(&pending, SIGTERM),
           sigismember(&pending, SIGUSR2));
    fflush(stdout);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "block";
    int sig = !strcmp(mode, "unblock") ? SIGTERM : !strcmp(mode, "ignored") ? SIGUSR2 : SIGINT;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigaddset(&set, SIGKILL); /* dropped by the kernel */
    show_mask("start");
    sigprocmask(SIG_BLOCK, &set, NULL);
    show_mask("blocked");
    raise(sig);
    show_mask("raised");
    if (!strcmp(mode, "ignored")) signal(sig, SIG_IGN);
    if (strcmp(mode, "block")) sigprocmask(SIG_UNBLOCK, &set, NULL);
    show_mask("end");
    return 0;
}
