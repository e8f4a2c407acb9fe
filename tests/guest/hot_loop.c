/* A very hot tiny loop: a few instructions run most of the time. */
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 200000;
    unsigned long s = 0;
    for (unsigned long i = 0; i < n; i++) s += i ^ (s >> 3);
    printf("%lu\n", s);
    return 0;
}
