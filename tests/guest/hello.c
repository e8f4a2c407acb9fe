/* The smallest useful guest: arguments, environment size, exit code. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    printf("hello from RISC-V: argc=%d\n", argc);
    for (int i = 1; i < argc; i++) printf("argv[%d]=%s\n", i, argv[i]);
    return argc > 1 ? atoi(argv[1]) & 0xff : 0;
}
