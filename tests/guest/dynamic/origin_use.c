/* A program linked with -Wl,-rpath,$ORIGIN against liborigin.so beside it: ld.so takes
 * $ORIGIN from /proc/self/exe. Under --env-fixed that is /guest/origin_use_dynamic, and
 * /guest/liborigin.so did not exist: the run ended "error while loading shared libraries"
 * (127); /guest/ now names the program's directory for reads (found by the 2026-11-28 hunt). */
#include <stdio.h>

int origin_answer(int x);

int main(void) {
    printf("from the library beside the program: %d\n", origin_answer(7));
    return 0;
}
