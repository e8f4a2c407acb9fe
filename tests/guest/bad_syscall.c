/* Makes a system call cyclescope does not serve (socket): the run must end
 * with a message naming it. */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void) {
    printf("before\n");
    fflush(stdout);
    long r = syscall(SYS_socket, 2, 1, 0);
    printf("after: %ld\n", r);
    return 0;
}
