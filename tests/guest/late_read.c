/* Reads all of stdin in one read() after a first phase of work, then works over the bytes
 * (simpoint.late_read). Under `run --simpoints`, the copy timing the point whose interval
 * holds the read took its file offset after the fork, while the fast-forward it was forked
 * from went on and read the input first: the copy read end of file, its point ended early,
 * and the run was refused ("the run ended inside the simulation point"; found with a C++
 * program reading std::cin, docs/sandbox.md §11). */
#include <stdio.h>
#include <unistd.h>

int main(void) {
    volatile unsigned long warm = 0;
    for (unsigned long i = 0; i < 30000; i++) warm += i * i;
    static char buf[65536];
    ssize_t n = read(0, buf, sizeof buf);
    unsigned long hash = 5381;
    for (int round = 0; round < 40; round++)
        for (ssize_t i = 0; i < n; i++) hash = hash * 33 + (unsigned char)buf[i];
    printf("read %zd bytes, hash %lu\n", n, hash);
    return 0;
}
