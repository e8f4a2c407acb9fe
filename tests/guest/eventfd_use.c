/* eventfd as Go's runtime (1.21 and later) uses it to end its netpoller's epoll wait from
 * another thread, compared with qemu-riscv64: eventfd2's flags, reads and writes of the
 * counter and their refusals, EFD_SEMAPHORE, O_NONBLOCK as the guest set it, poll and
 * epoll readiness, and threads waiting in a read and in epoll_wait until another writes.
 * `forever`: a single thread reads a zero counter only it could raise. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

static void said(const char *what, long r) {
    printf("%s: %ld%s%s\n", what, r, r < 0 ? " " : "", r < 0 ? strerror(errno) : "");
}

static long read_counter(int fd, uint64_t *value) {
    *value = 0;
    return read(fd, value, sizeof *value);
}

static int woken_fd;
static void *add_after_a_while(void *arg) {
    uint64_t add = (uint64_t)(uintptr_t)arg;
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
    if (write(woken_fd, &add, sizeof add) != sizeof add) printf("write failed\n");
    return NULL;
}

int main(int argc, char **argv) {
    uint64_t v;
    if (argc > 1 && strcmp(argv[1], "forever") == 0) {
        int fd = eventfd(0, 0);
        said("forever", read_counter(fd, &v));
        return 0;
    }
    said("bad flags", eventfd(0, 2));
    int fd = eventfd(5, EFD_CLOEXEC | EFD_NONBLOCK);
    printf("FD_CLOEXEC %d, O_NONBLOCK %d\n", fcntl(fd, F_GETFD) & FD_CLOEXEC, (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0);
    char small[4];
    said("read of 4 bytes", read(fd, small, sizeof small));
    said("read", read_counter(fd, &v));
    printf("value %llu\n", (unsigned long long)v);
    said("read of zero, non-blocking", read_counter(fd, &v));
    uint64_t add = 3;
    said("write of 4 bytes", write(fd, &add, 4));
    uint64_t too_much = UINT64_MAX;
    said("write of all ones", write(fd, &too_much, sizeof too_much));
    said("write 3", write(fd, &add, sizeof add));
    said("write 3 again", write(fd, &add, sizeof add));
    struct pollfd p = {fd, POLLIN | POLLOUT, 0};
    said("poll", poll(&p, 1, 0));
    printf("revents 0x%x\n", p.revents);
    said("read", read_counter(fd, &v));
    printf("value %llu\n", (unsigned long long)v);
    uint64_t near_max = UINT64_MAX - 2;
    said("write near the maximum", write(fd, &near_max, sizeof near_max));
    said("write past it, non-blocking", write(fd, &add, sizeof add));
    said("read", read_counter(fd, &v));
    printf("value %llu\n", (unsigned long long)v);

    /* EFD_SEMAPHORE: each read takes 1 */
    int sem = eventfd(2, EFD_SEMAPHORE);
    printf("O_NONBLOCK %d\n", (fcntl(sem, F_GETFL) & O_NONBLOCK) != 0);
    said("semaphore read", read_counter(sem, &v));
    printf("value %llu\n", (unsigned long long)v);
    said("semaphore read", read_counter(sem, &v));
    said("F_SETFL O_NONBLOCK", fcntl(sem, F_SETFL, O_NONBLOCK));
    printf("O_NONBLOCK %d\n", (fcntl(sem, F_GETFL) & O_NONBLOCK) != 0);
    said("semaphore read of zero", read_counter(sem, &v));

    /* epoll over an eventfd, edge-triggered, as Go registers it */
    int epfd = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN | EPOLLET, .data.u64 = 0xe4e4};
    said("epoll_ctl add", epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev));
    struct epoll_event got[2];
    said("epoll_wait, zero counter", epoll_wait(epfd, got, 2, 0));
    said("write 1", write(fd, &(uint64_t){1}, 8));
    int n = epoll_wait(epfd, got, 2, 0);
    printf("epoll_wait: %d events 0x%x data 0x%llx\n", n, n > 0 ? got[0].events : 0,
           n > 0 ? (unsigned long long)got[0].data.u64 : 0ull);
    said("read", read_counter(fd, &v));

    /* a thread waits in a blocking read until another writes */
    woken_fd = eventfd(0, 0);
    pthread_t th;
    pthread_create(&th, NULL, add_after_a_while, (void *)(uintptr_t)7);
    said("blocking read woken by a thread", read_counter(woken_fd, &v));
    printf("value %llu\n", (unsigned long long)v);
    pthread_join(th, NULL);
    /* ... and in epoll_wait without a timeout (Go's netpollBreak since 1.21) */
    ev = (struct epoll_event){.events = EPOLLIN, .data.u64 = 0xb4ea};
    said("epoll_ctl add", epoll_ctl(epfd, EPOLL_CTL_ADD, woken_fd, &ev));
    pthread_create(&th, NULL, add_after_a_while, (void *)(uintptr_t)1);
    n = epoll_wait(epfd, got, 2, -1);
    printf("epoll_wait woken by a thread: %d events 0x%x data 0x%llx\n", n, n > 0 ? got[0].events : 0,
           n > 0 ? (unsigned long long)got[0].data.u64 : 0ull);
    pthread_join(th, NULL);
    said("close", close(woken_fd));
    return 0;
}
