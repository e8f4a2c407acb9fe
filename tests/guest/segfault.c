/* Stores through a null pointer: the run must end with a segmentation fault message. */
#include <stdio.h>

int main(int argc, char **argv) {
    (void)argv;
    volatile int *p = (volatile int *)(long)(argc - 1);
    printf("before\n");
    fflush(stdout);
    *p = 42;
    return 0;
}
