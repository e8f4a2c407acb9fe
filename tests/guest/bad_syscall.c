/* Makes a system call cyclescope does not serve (acct): the run must end
 * with a message naming it. */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void) {
    printf("before\n");
    fflush(stdout);
    long r = syscall(SYS_acct, 0);
    printf("after: %ld\n", r);
    return 0;
}
