/* A deep recursion whose run is cut by --max in the middle (profile.cut_recursion): every
 * call site ran once per level, and what follows the call — the rest of its block and the
 * blocks the return leads to — never ran, as after any call that does not return (a fault,
 * exit, abort, longjmp). A frame on the stack each level keeps it a real recursion at -O2. */
#include <stdlib.h>

volatile long sink;

__attribute__((noinline)) long descend(long n, volatile char *above) {
    volatile char frame[64];
    frame[0] = (char)n;
    frame[1] = above ? above[0] : 0;
    if (n == 0) return frame[1];
    long below = descend(n - 1, frame);
    return below + frame[0] + frame[1];
}

int main(int argc, char **argv) {
    long depth = argc > 1 ? atol(argv[1]) : 50000; /* 50000 frames of ~96 bytes: within an 8 MB stack */
    sink = descend(depth, NULL);
    return 0;
}
