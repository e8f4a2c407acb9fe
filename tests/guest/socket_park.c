/* Bytes parked in a stream socketpair the program made (pipe_park.c: in a pipe), read back
 * one at a time over many SimPoint intervals while computing on them: each point's forked copy of the fast-forward must
 * find in its socket the bytes the program left there (a fork shares the host socket, so the
 * copies and the fast-forward read each other's bytes). Arguments are ignored. */
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
int main(void) {
    int p[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, p)) {
        perror("socketpair");
        return 1;
    }
    static unsigned char buf[20000];
    for (int i = 0; i < 20000; i++) buf[i] = (unsigned char)(i * 7 + 3);
    if (write(p[1], buf, sizeof buf) != (ssize_t)sizeof buf) return 1;
    unsigned long acc = 0;
    for (int i = 0; i < 20000; i++) {
        unsigned char c;
        if (read(p[0], &c, 1) != 1) {
            printf("short read at %d\n", i);
            return 1;
        }
        for (int k = 0; k < (c & 15) * 3; k++) acc = acc * 31 + c + k;
    }
    printf("acc %lu\n", acc);
    return 0;
}
