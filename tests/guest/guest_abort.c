/* abort(): the guest kills itself with SIGABRT; the exit code must be 134 as under qemu. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    printf("aborting\n");
    fflush(stdout);
    abort();
}
