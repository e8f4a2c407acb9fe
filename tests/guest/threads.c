/* Threads (pthread_create: clone with CLONE_THREAD) and what glibc builds on futexes:
 * one case per argument. Each prints what the program's design makes certain (sums,
 * joins, counts), never an interleaving, so that qemu-riscv64 (host threads) and
 * cyclescope (one hart, its own scheduling) print the same. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/futex.h>
#include <poll.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

enum { WORKERS = 4, N = 20000 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static long shared_total;
static int values[N];

static void check(int r, const char *what) {
    if (r) {
        printf("%s: %s\n", what, strerror(r));
        exit(99);
    }
}

/* ---- sum: workers add slices of an array to a total under a mutex ---- */
static void *sum_worker(void *arg) {
    long id = (long)arg;
    for (int i = (int)id; i < N; i += WORKERS) {
        pthread_mutex_lock(&lock);
        shared_total += values[i];
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static int case_sum(void) {
    for (int i = 0; i < N; i++) values[i] = i % 97;
    pthread_t t[WORKERS];
    for (long i = 0; i < WORKERS; i++) check(pthread_create(&t[i], NULL, sum_worker, (void *)i), "create");
    for (int i = 0; i < WORKERS; i++) check(pthread_join(t[i], NULL), "join");
    long expect = 0;
    for (int i = 0; i < N; i++) expect += values[i];
    printf("sum %ld (expected %ld)\n", shared_total, expect);
    return shared_total == expect ? 0 : 1;
}

/* ---- join: return values ---- */
static void *square(void *arg) { return (void *)((long)arg * (long)arg); }

static int case_join(void) {
    pthread_t t[8];
    for (long i = 0; i < 8; i++) check(pthread_create(&t[i], NULL, square, (void *)(i + 1)), "create");
    long total = 0;
    for (int i = 0; i < 8; i++) {
        void *r;
        check(pthread_join(t[i], &r), "join");
        printf("thread %d returned %ld\n", i, (long)r);
        total += (long)r;
    }
    printf("total %ld\n", total);
    return 0;
}

/* ---- condvar: a producer and a consumer through a one-slot buffer ---- */
static int slot, slot_full, done;

static void *producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= 1000; i++) {
        pthread_mutex_lock(&lock);
        while (slot_full) pthread_cond_wait(&cond, &lock);
        slot = i;
        slot_full = 1;
        pthread_cond_broadcast(&cond);
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_lock(&lock);
    while (slot_full) pthread_cond_wait(&cond, &lock);
    done = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static int case_condvar(void) {
    pthread_t p;
    check(pthread_create(&p, NULL, producer, NULL), "create");
    long total = 0, count = 0;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!slot_full && !done) pthread_cond_wait(&cond, &lock);
        if (slot_full) {
            total += slot, count++;
            slot_full = 0;
            pthread_cond_broadcast(&cond);
        } else if (done) {
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    check(pthread_join(p, NULL), "join");
    printf("consumed %ld items, sum %ld\n", count, total);
    return 0;
}

/* ---- barrier: phases in lock step ---- */
static pthread_barrier_t barrier;
static int phase_seen[WORKERS][5];
static int phase_now;

static void *barrier_worker(void *arg) {
    long id = (long)arg;
    for (int p = 0; p < 5; p++) {
        phase_seen[id][p] = __atomic_load_n(&phase_now, __ATOMIC_SEQ_CST);
        if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD)
            __atomic_add_fetch(&phase_now, 1, __ATOMIC_SEQ_CST);
        pthread_barrier_wait(&barrier);
    }
    return NULL;
}

static int case_barrier(void) {
    check(pthread_barrier_init(&barrier, NULL, WORKERS), "barrier_init");
    pthread_t t[WORKERS];
    for (long i = 0; i < WORKERS; i++) check(pthread_create(&t[i], NULL, barrier_worker, (void *)i), "create");
    for (int i = 0; i < WORKERS; i++) check(pthread_join(t[i], NULL), "join");
    for (int i = 0; i < WORKERS; i++) {
        printf("worker %d saw phases", i);
        for (int p = 0; p < 5; p++) printf(" %d", phase_seen[i][p]);
        printf("\n");
    }
    pthread_barrier_destroy(&barrier);
    return 0;
}

/* ---- tls: __thread variables are per thread ---- */
static __thread long tls_counter = 100;

static void *tls_worker(void *arg) {
    for (long i = 0; i < (long)arg; i++) tls_counter++;
    sched_yield();
    return (void *)tls_counter;
}

static int case_tls(void) {
    pthread_t t[3];
    for (long i = 0; i < 3; i++) check(pthread_create(&t[i], NULL, tls_worker, (void *)(i * 10 + 1)), "create");
    for (int i = 0; i < 3; i++) {
        void *r;
        check(pthread_join(t[i], &r), "join");
        printf("thread %d: tls %ld\n", i, (long)r);
    }
    printf("main: tls %ld, tid is the pid: %s\n", tls_counter, gettid() == getpid() ? "yes" : "no");
    return 0;
}

/* ---- sem / detached: a detached thread posts a semaphore main waits on ---- */
static sem_t sem_items, sem_done;

static void *detached_worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 50; i++) sem_post(&sem_items);
    sem_post(&sem_done);
    return NULL;
}

static int case_sem(void) {
    sem_init(&sem_items, 0, 0);
    sem_init(&sem_done, 0, 0);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    check(pthread_create(&t, &attr, detached_worker, NULL), "create");
    int got = 0;
    for (int i = 0; i < 50; i++) {
        sem_wait(&sem_items);
        got++;
    }
    sem_wait(&sem_done);
    printf("got %d items from a detached thread; trywait: %s\n", got,
           sem_trywait(&sem_items) == -1 && errno == EAGAIN ? "EAGAIN" : "an item");
    return 0;
}

/* ---- exit: a thread ends the process with exit() while main waits ---- */
static void *exiting_worker(void *arg) {
    (void)arg;
    printf("worker calls exit(3)\n");
    fflush(stdout);
    exit(3);
}

static int case_exit(void) {
    pthread_t t;
    check(pthread_create(&t, NULL, exiting_worker, NULL), "create");
    pthread_join(t, NULL);
    printf("not reached\n");
    return 0;
}

/* ---- main_returns: main returns while a thread still waits ---- */
static void *waiting_worker(void *arg) {
    (void)arg;
    sem_wait(&sem_done); /* never posted */
    return NULL;
}

static int case_main_returns(void) {
    sem_init(&sem_done, 0, 0);
    pthread_t t;
    check(pthread_create(&t, NULL, waiting_worker, NULL), "create");
    sched_yield();
    printf("main returns 7 while a thread waits\n");
    return 7;
}

/* ---- pthread_exit of main: the process ends when the last thread does ---- */
static void *last_worker(void *arg) {
    (void)arg;
    for (volatile int i = 0; i < 300000; i++) {
    }
    printf("the last thread ends the process\n");
    return NULL;
}

static int case_main_exits_first(void) {
    pthread_t t;
    check(pthread_create(&t, NULL, last_worker, NULL), "create");
    pthread_exit(NULL);
}

/* ---- cancel: a thread blocked in a condition wait is cancelled ---- */
static void *cancelled_worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    sem_post(&sem_done);
    for (;;) pthread_cond_wait(&cond, &lock); /* a cancellation point */
    return NULL;
}

static void unlock_on_cancel(void *m) { pthread_mutex_unlock(m); }

static void *cancelled_worker_cleanup(void *arg) {
    pthread_cleanup_push(unlock_on_cancel, &lock);
    cancelled_worker(arg);
    pthread_cleanup_pop(0);
    return NULL;
}

static int case_cancel(void) {
    sem_init(&sem_done, 0, 0);
    pthread_t t;
    check(pthread_create(&t, NULL, cancelled_worker_cleanup, NULL), "create");
    sem_wait(&sem_done);
    check(pthread_cancel(t), "cancel");
    void *r;
    check(pthread_join(t, &r), "join");
    printf("joined: %s\n", r == PTHREAD_CANCELED ? "PTHREAD_CANCELED" : "something else");
    pthread_mutex_lock(&lock); /* the cleanup handler unlocked it */
    pthread_mutex_unlock(&lock);
    printf("mutex free again\n");
    return 0;
}

/* ---- spin: threads that never make a system call share the hart (preemption) ---- */
static volatile int flag_a, flag_b;

static void *spin_worker(void *arg) {
    (void)arg;
    while (!flag_a) {
    }
    flag_b = 1;
    return NULL;
}

static int case_spin(void) {
    pthread_t t;
    check(pthread_create(&t, NULL, spin_worker, NULL), "create");
    for (volatile int i = 0; i < 1000; i++) {
    }
    flag_a = 1;
    while (!flag_b) {
    }
    check(pthread_join(t, NULL), "join");
    printf("both spinning threads went on\n");
    return 0;
}

/* ---- timedwait: a timeout that passes while another thread runs, one that does not ---- */
static int ready;

static void *late_signaller(void *arg) {
    (void)arg;
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
    pthread_mutex_lock(&lock);
    ready = 1;
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void *busy_worker(void *arg) {
    (void)arg;
    for (volatile long i = 0; i < 200000; i++) {
    }
    return NULL;
}

static int case_timedwait(void) {
    pthread_t busy;
    check(pthread_create(&busy, NULL, busy_worker, NULL), "create");
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_nsec += 100000; /* 0.1 ms: passes while the busy thread runs */
    if (deadline.tv_nsec >= 1000000000) deadline.tv_sec++, deadline.tv_nsec -= 1000000000;
    pthread_mutex_lock(&lock);
    int r = pthread_cond_timedwait(&cond, &lock, &deadline);
    pthread_mutex_unlock(&lock);
    printf("nobody signals: %s\n", strerror(r));
    check(pthread_join(busy, NULL), "join");

    pthread_t late;
    check(pthread_create(&late, NULL, late_signaller, NULL), "create");
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 1000; /* far beyond the signaller's millisecond */
    pthread_mutex_lock(&lock);
    r = 0;
    while (!ready && r == 0) r = pthread_cond_timedwait(&cond, &lock, &deadline);
    pthread_mutex_unlock(&lock);
    printf("signalled in time: %s, ready %d\n", r ? strerror(r) : "ok", ready);
    check(pthread_join(late, NULL), "join");
    return 0;
}

/* ---- kill: pthread_kill runs a handler in the thread named ---- */
static volatile sig_atomic_t handled_in;
static __thread int thread_number;

static void on_usr1(int sig) {
    (void)sig;
    handled_in = thread_number;
}

static void *kill_target(void *arg) {
    thread_number = 2;
    (void)arg;
    sem_post(&sem_done);
    while (!handled_in) sched_yield();
    return NULL;
}

static int case_kill(void) {
    thread_number = 1;
    sem_init(&sem_done, 0, 0);
    signal(SIGUSR1, on_usr1);
    pthread_t t;
    check(pthread_create(&t, NULL, kill_target, NULL), "create");
    sem_wait(&sem_done);
    check(pthread_kill(t, SIGUSR1), "pthread_kill");
    check(pthread_join(t, NULL), "join");
    printf("the handler ran in thread %d\n", (int)handled_in);
    return 0;
}

/* ---- deadlock: two threads take two mutexes in opposite order (cyclescope only: a real
 * kernel waits forever) ---- */
static pthread_mutex_t lock2 = PTHREAD_MUTEX_INITIALIZER;

static void *deadlock_worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&lock2);
    pthread_barrier_wait(&barrier);
    pthread_mutex_lock(&lock);
    return NULL;
}

static int case_deadlock(void) {
    pthread_barrier_init(&barrier, NULL, 2);
    pthread_t t;
    check(pthread_create(&t, NULL, deadlock_worker, NULL), "create");
    pthread_mutex_lock(&lock);
    pthread_barrier_wait(&barrier);
    pthread_mutex_lock(&lock2);
    printf("not reached\n");
    return 0;
}

/* ---- last_deadlock: a thread joined, then main takes a mutex it holds (cyclescope only) ---- */
static void *returns_at_once(void *arg) { return arg; }

static int case_last_deadlock(void) {
    pthread_t t;
    check(pthread_create(&t, NULL, returns_at_once, NULL), "create");
    check(pthread_join(t, NULL), "join");
    pthread_mutex_lock(&lock2);
    pthread_mutex_lock(&lock2); /* a normal mutex: the second lock waits for ever */
    printf("not reached\n");
    return 0;
}

/* ---- many: more threads than cyclescope runs (cyclescope only: Linux has room) ---- */
static void *parked(void *arg) {
    (void)arg;
    sem_wait(&sem_done);
    return NULL;
}

static int case_many(void) {
    sem_init(&sem_done, 0, 0);
    pthread_t t[80];
    int made = 0, r = 0;
    while (made < 80 && (r = pthread_create(&t[made], NULL, parked, NULL)) == 0) made++;
    printf("created %d threads, then: %s\n", made, r ? strerror(r) : "no error");
    for (int i = 0; i < made; i++) sem_post(&sem_done);
    for (int i = 0; i < made; i++) pthread_join(t[i], NULL);
    printf("joined %d\n", made);
    return 0;
}

/* ---- futex: the system call itself ---- */
static unsigned futex_word;

static long futex(unsigned *addr, int op, unsigned val, const struct timespec *ts, unsigned val3) {
    long r = syscall(SYS_futex, addr, op, val, ts, NULL, val3);
    return r < 0 ? -errno : r;
}

static void *futex_waiter(void *arg) {
    (void)arg;
    long r = futex(&futex_word, FUTEX_WAIT_PRIVATE, 0, NULL, 0);
    printf("waiter woke: %s\n", r == 0 ? "0" : strerror((int)-r));
    return NULL;
}

static int case_futex(void) {
    struct timespec ms = {0, 1000000};
    /* one thread (before any other exists, and after one ended): only the timeout ends it */
    printf("wait, one thread: %s\n", strerror((int)-futex(&futex_word, FUTEX_WAIT, 0, &ms, 0)));
    printf("wait, value differs: %s\n", strerror((int)-futex(&futex_word, FUTEX_WAIT, 1, NULL, 0)));
    printf("wake, nobody waits: %ld\n", futex(&futex_word, FUTEX_WAKE, 1, NULL, 0));
    printf("bitset 0: %s\n", strerror((int)-futex(&futex_word, FUTEX_WAIT_BITSET, 0, NULL, 0)));
    pthread_t t;
    check(pthread_create(&t, NULL, busy_worker, NULL), "create");
    printf("wait while another thread computes: %s\n",
           strerror((int)-futex(&futex_word, FUTEX_WAIT_PRIVATE, 0, &ms, 0)));
    check(pthread_join(t, NULL), "join");
    printf("wait after it ended: %s\n", strerror((int)-futex(&futex_word, FUTEX_WAIT_PRIVATE, 0, &ms, 0)));
    struct timespec past;
    clock_gettime(CLOCK_REALTIME, &past);
    past.tv_sec -= 1;
    printf("absolute realtime deadline passed: %s\n",
           strerror((int)-futex(&futex_word, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 0, &past, ~0u)));
    check(pthread_create(&t, NULL, futex_waiter, NULL), "create");
    long woken;
    while ((woken = futex(&futex_word, FUTEX_WAKE_PRIVATE, 5, NULL, 0)) == 0) sched_yield();
    check(pthread_join(t, NULL), "join");
    printf("woke %ld of 5 asked\n", woken);
    return 0;
}

/* ---- wake_op: FUTEX_WAKE_OP, each operation and comparison on a word nobody waits on (the
 * word changed, the result 0), unknown ones (ENOSYS), then a thread waiting on the second
 * word woken by the comparison ---- */
static unsigned wake_op_word, wake_op_other;

static long wake_op(unsigned *addr, unsigned nr, unsigned nr2, unsigned *addr2, unsigned encoded) {
    long r = syscall(SYS_futex, addr, FUTEX_WAKE_OP_PRIVATE, nr, (void *)(unsigned long)nr2, addr2, encoded);
    return r < 0 ? -errno : r;
}

static void *wake_op_waiter(void *arg) {
    (void)arg;
    long r = futex(&wake_op_other, FUTEX_WAIT_PRIVATE, 7, NULL, 0);
    printf("waiter on the second word woke: %s\n", r == 0 ? "0" : strerror((int)-r));
    return NULL;
}

static int case_wake_op(void) {
    static const char *ops[] = {"set", "add", "or", "andn", "xor"};
    static const char *cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    for (int op = 0; op < 5; op++)
        for (int cmp = 0; cmp < 6; cmp++) {
            wake_op_other = 6;
            long r = wake_op(&wake_op_word, 1, 1, &wake_op_other, (unsigned)FUTEX_OP(op, 3, cmp, 6));
            printf("%s 3, %s 6: %ld, word %u\n", ops[op], cmps[cmp], r, wake_op_other);
        }
    wake_op_other = 5;
    long r = wake_op(&wake_op_word, 1, 1, &wake_op_other,
                     (unsigned)FUTEX_OP((FUTEX_OP_ADD | FUTEX_OP_OPARG_SHIFT), 4, FUTEX_OP_CMP_GE, -1));
    printf("add 1<<4, ge -1: %ld, word %u\n", r, wake_op_other);
    wake_op_other = 5;
    r = wake_op(&wake_op_word, 1, 1, &wake_op_other, (unsigned)FUTEX_OP(FUTEX_OP_XOR, -1, FUTEX_OP_CMP_LT, -2048));
    printf("xor -1, lt -2048: %ld, word %u\n", r, wake_op_other);
    wake_op_other = 5;
    r = wake_op(&wake_op_word, 1, 1, &wake_op_other, 7u << 28);
    printf("operation 7: %s, word %u\n", strerror((int)-r), wake_op_other);
    r = wake_op(&wake_op_word, 1, 1, &wake_op_other, (unsigned)FUTEX_OP(FUTEX_OP_ADD, 1, 9, 0));
    printf("comparison 9: %s, word %u\n", strerror((int)-r), wake_op_other);
    r = wake_op(&wake_op_word, 1, 1, (unsigned *)((char *)&wake_op_other + 1), 0);
    printf("second word misaligned: %s\n", strerror((int)-r));
    /* a waiter on the second word (value 7): `set 7, eq 7` keeps it 7 and wakes it */
    wake_op_other = 7;
    pthread_t t;
    check(pthread_create(&t, NULL, wake_op_waiter, NULL), "create");
    long woken;
    while ((woken = wake_op(&wake_op_word, 1, 3, &wake_op_other,
                            (unsigned)FUTEX_OP(FUTEX_OP_SET, 7, FUTEX_OP_CMP_EQ, 7))) == 0)
        sched_yield();
    check(pthread_join(t, NULL), "join");
    printf("woke %ld through the second word\n", woken);
    return 0;
}

/* ---- pipe: a thread reads a pipe another writes after a sleep: it waits for it ---- */
static int pipe_fds[2];

static void *pipe_reader(void *arg) {
    (void)arg;
    char c;
    return (void *)read(pipe_fds[0], &c, 1);
}

static int case_pipe(void) {
    if (pipe(pipe_fds)) return 1;
    pthread_t t;
    check(pthread_create(&t, NULL, pipe_reader, NULL), "create");
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL); /* the reader waits meanwhile */
    if (write(pipe_fds[1], "x", 1) != 1) return 1;
    void *r;
    check(pthread_join(t, &r), "join");
    printf("read %ld byte\n", (long)r);
    return 0;
}

/* ---- pipe_stream: a producer and a consumer through a pipe, more than it holds (64 KiB):
 * the writer waits for room (one write of 100 000 bytes among them), the reader for data,
 * then for the end of file when the write end closes ---- */
enum { STREAM_BYTES = 300000 };
static unsigned char stream_out[100000];

static void *stream_producer(void *arg) {
    (void)arg;
    long sent = 0;
    for (int i = 0; i < (int)sizeof stream_out; i++) stream_out[i] = (unsigned char)(i * 7 + 3);
    /* chunks of 1, 1000, 100 000 bytes and the rest in 4096s */
    long first[3] = {1, 1000, 100000};
    for (int k = 0; k < 3; k++) {
        ssize_t w = write(pipe_fds[1], stream_out, (size_t)first[k]);
        if (w != first[k]) printf("short write: %ld of %ld\n", (long)w, first[k]);
        sent += w > 0 ? w : 0;
    }
    while (sent < STREAM_BYTES) {
        size_t n = STREAM_BYTES - sent < 4096 ? (size_t)(STREAM_BYTES - sent) : 4096;
        ssize_t w = write(pipe_fds[1], stream_out + sent % 4096, n);
        if (w <= 0) break;
        sent += w;
    }
    close(pipe_fds[1]);
    return (void *)sent;
}

static int case_pipe_stream(void) {
    if (pipe(pipe_fds)) return 1;
    pthread_t t;
    check(pthread_create(&t, NULL, stream_producer, NULL), "create");
    unsigned char buf[3000];
    long total = 0, reads = 0;
    unsigned long sum = 0;
    ssize_t got;
    while ((got = read(pipe_fds[0], buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < got; i++) sum = sum * 31 + buf[i];
        total += got;
        reads++;
    }
    void *sent;
    check(pthread_join(t, &sent), "join");
    unsigned long expect = 0;
    long first[3] = {1, 1000, 100000}, at = 0;
    for (int k = 0; k < 3; k++)
        for (long i = 0; i < first[k]; i++, at++) expect = expect * 31 + stream_out[i];
    for (; at < STREAM_BYTES; at++) expect = expect * 31 + stream_out[101001 % 4096 + (at - 101001) % 4096];
    printf("sent %ld, received %ld, last read %ld, checksum %s\n", (long)sent, total, (long)got,
           sum == expect ? "right" : "wrong");
    return 0;
}

/* ---- poll: poll and select wait for another thread's write; a timeout runs out while the
 * other thread computes and writes nothing ---- */
static void *late_writer(void *arg) {
    for (volatile long i = 0; i < 200000; i++) {
    }
    if (write(pipe_fds[1], arg, 1) != 1) return (void *)1;
    return NULL;
}

static int case_poll(void) {
    if (pipe(pipe_fds)) return 1;
    pthread_t t;
    check(pthread_create(&t, NULL, late_writer, "p"), "create");
    struct pollfd pf = {pipe_fds[0], POLLIN, 0};
    int r = poll(&pf, 1, -1);
    char c = 0;
    if (read(pipe_fds[0], &c, 1) != 1) return 1;
    printf("poll: %d ready, revents POLLIN %s, read '%c'\n", r, pf.revents & POLLIN ? "yes" : "no", c);
    check(pthread_join(t, NULL), "join");

    check(pthread_create(&t, NULL, late_writer, "s"), "create");
    fd_set set;
    FD_ZERO(&set);
    FD_SET(pipe_fds[0], &set);
    r = select(pipe_fds[0] + 1, &set, NULL, NULL, NULL);
    if (read(pipe_fds[0], &c, 1) != 1) return 1;
    printf("select: %d ready, in the set %s, read '%c'\n", r, FD_ISSET(pipe_fds[0], &set) ? "yes" : "no", c);
    check(pthread_join(t, NULL), "join");

    check(pthread_create(&t, NULL, busy_worker, NULL), "create");
    pf.revents = 0;
    r = poll(&pf, 1, 1); /* 1 ms while the other computes: nobody writes */
    printf("poll with a timeout, nothing written: %d, revents %d\n", r, pf.revents);
    check(pthread_join(t, NULL), "join");
    return 0;
}

/* ---- sigsuspend: main waits in sigsuspend for the signal a thread sends it ---- */
static pthread_t main_thread;

static void *usr1_sender(void *arg) {
    (void)arg;
    check(pthread_kill(main_thread, SIGUSR1), "pthread_kill");
    return NULL;
}

static int case_sigsuspend(void) {
    thread_number = 1;
    main_thread = pthread_self();
    signal(SIGUSR1, on_usr1);
    sigset_t usr1, old, none;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigemptyset(&none);
    sigprocmask(SIG_BLOCK, &usr1, &old); /* from now until sigsuspend lets it through */
    pthread_t t;
    check(pthread_create(&t, NULL, usr1_sender, NULL), "create");
    int r = sigsuspend(&none);
    int err = errno;
    sigset_t now;
    sigprocmask(SIG_SETMASK, NULL, &now);
    printf("sigsuspend: %d (%s), handler ran in thread %d, SIGUSR1 blocked again: %s\n", r, strerror(err),
           (int)handled_in, sigismember(&now, SIGUSR1) ? "yes" : "no");
    check(pthread_join(t, NULL), "join");
    return 0;
}

/* ---- pipe_cancel: pthread_cancel of a thread waiting in a read of an empty pipe ---- */
static void *blocked_reader(void *arg) {
    (void)arg;
    char c;
    sem_post(&sem_done);
    ssize_t r = read(pipe_fds[0], &c, 1); /* a cancellation point */
    printf("not reached: read %ld\n", (long)r);
    return NULL;
}

static int case_pipe_cancel(void) {
    if (pipe(pipe_fds)) return 1;
    sem_init(&sem_done, 0, 0);
    pthread_t t;
    check(pthread_create(&t, NULL, blocked_reader, NULL), "create");
    sem_wait(&sem_done);
    check(pthread_cancel(t), "cancel");
    void *r;
    check(pthread_join(t, &r), "join");
    printf("joined: %s\n", r == PTHREAD_CANCELED ? "PTHREAD_CANCELED" : "something else");
    return 0;
}

/* ---- process_signal: kill() of the process from a thread reaches a thread that does not
 * block the signal: the main thread when it can take it, else another (Linux's
 * complete_signal; cyclescope only: qemu-riscv64 7.2 runs the handler in either thread, or
 * after kill returned) ---- */
static void *process_killer(void *arg) {
    thread_number = 2;
    if (arg) { /* main blocks SIGUSR1 (so did this thread, from main): this one takes it */
        sigset_t usr1;
        sigemptyset(&usr1);
        sigaddset(&usr1, SIGUSR1);
        pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
        kill(getpid(), SIGUSR1);
        return (void *)(long)handled_in;
    }
    kill(getpid(), SIGUSR1);
    return NULL;
}

/* a thread that makes its tid known, then waits at the barrier until main has used it */
static volatile long published_tid;
static void *tid_publisher(void *arg) {
    (void)arg;
    thread_number = 3;
    published_tid = syscall(SYS_gettid);
    pthread_barrier_wait(&barrier);
    return NULL;
}

static void *usr2_waiter(void *arg) {
    (void)arg;
    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    int sig = 0;
    int r = sigwait(&usr2, &sig);
    printf("sigwait in a thread: %d, signal %s\n", r, sig == SIGUSR2 ? "SIGUSR2" : "another");
    return NULL;
}

static int case_process_signal(void) {
    thread_number = 1;
    signal(SIGUSR1, on_usr1);
    /* main lets SIGUSR1 through and waits in pthread_join: its handler runs there */
    pthread_t t;
    check(pthread_create(&t, NULL, process_killer, NULL), "create");
    check(pthread_join(t, NULL), "join");
    printf("kill from a thread, main lets it through: handler in thread %d\n", (int)handled_in);
    /* main blocks it: the thread that sent it takes it */
    handled_in = 0;
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr1, NULL);
    void *r;
    check(pthread_create(&t, NULL, process_killer, (void *)1), "create");
    check(pthread_join(t, &r), "join");
    printf("main blocks it: handler in thread %ld\n", (long)r);
    pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
    /* kill() naming another thread's tid signals the process too (Linux: the thread group
     * of that task): main lets it through and takes it */
    handled_in = 0;
    published_tid = 0;
    pthread_barrier_init(&barrier, NULL, 2);
    check(pthread_create(&t, NULL, tid_publisher, NULL), "create");
    while (!published_tid) sched_yield();
    int k = kill((pid_t)published_tid, SIGUSR1);
    printf("kill of another thread's tid: %d, handler in thread %d\n", k, (int)handled_in);
    pthread_barrier_wait(&barrier);
    check(pthread_join(t, NULL), "join");
    pthread_barrier_destroy(&barrier);
    return 0;
}

/* ---- sigwait: a signal every thread blocks is pending for the process until sigwait or
 * sigtimedwait (in any thread) takes it ---- */
static int case_sigwait(void) {
    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    pthread_t t;
    /* every thread blocks SIGUSR2 (a new thread inherits the mask): sigwait takes it */
    pthread_sigmask(SIG_BLOCK, &usr2, NULL);
    check(pthread_create(&t, NULL, usr2_waiter, NULL), "create");
    kill(getpid(), SIGUSR2);
    check(pthread_join(t, NULL), "join");
    sigset_t pending;
    sigpending(&pending);
    printf("SIGUSR2 still pending: %s\n", sigismember(&pending, SIGUSR2) ? "yes" : "no");
    /* pending for the process while all block it, then taken by sigtimedwait in main */
    kill(getpid(), SIGUSR2);
    sigpending(&pending);
    struct timespec zero = {0, 0};
    siginfo_t info;
    int sig = sigtimedwait(&usr2, &info, &zero);
    printf("pending: %s; sigtimedwait: %s, si_code SI_USER %s, si_pid is getpid %s\n",
           sigismember(&pending, SIGUSR2) ? "yes" : "no", sig == SIGUSR2 ? "SIGUSR2" : strerror(errno),
           info.si_code == SI_USER ? "yes" : "no", info.si_pid == getpid() ? "yes" : "no");
    sig = sigtimedwait(&usr2, &info, &zero);
    printf("again, nothing pending: %s\n", sig < 0 ? strerror(errno) : "a signal");
    return 0;
}

/* ---- restart / no_restart: a handler interrupts a thread waiting in a read of an empty
 * pipe and one in a futex wait without a timeout. With SA_RESTART both calls run again
 * after the handler (the read returns the byte written later, the wait returns 0 when
 * woken); without it both return EINTR (Linux's handle_signal for -ERESTARTSYS).
 * cyclescope only: qemu-riscv64 cannot promise the signal comes while the thread waits;
 * cyclescope's scheduler runs the thread into its wait while main sleeps 1 ms ---- */
static volatile sig_atomic_t interruptions;
static unsigned restart_word;

static void on_usr1_count(int sig) {
    (void)sig;
    interruptions++;
}

static void *restart_reader(void *arg) {
    (void)arg;
    char c = 0;
    ssize_t r = read(pipe_fds[0], &c, 1);
    printf("read: %ld (%s)\n", (long)r, r < 0 ? strerror(errno) : "the byte");
    return NULL;
}

static void *restart_waiter(void *arg) {
    (void)arg;
    long r = futex(&restart_word, FUTEX_WAIT_PRIVATE, 0, NULL, 0);
    printf("futex wait: %s\n", r == 0 ? "0 (woken)" : strerror((int)-r));
    return NULL;
}

static int restart_case(int flags) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1_count;
    sa.sa_flags = flags;
    sigaction(SIGUSR1, &sa, NULL);
    if (pipe(pipe_fds)) return 1;
    struct timespec ms = {0, 1000000};
    pthread_t t;
    check(pthread_create(&t, NULL, restart_reader, NULL), "create");
    nanosleep(&ms, NULL); /* the reader waits meanwhile */
    check(pthread_kill(t, SIGUSR1), "pthread_kill");
    nanosleep(&ms, NULL); /* the handler runs */
    if (write(pipe_fds[1], "x", 1) != 1) return 1;
    check(pthread_join(t, NULL), "join");
    check(pthread_create(&t, NULL, restart_waiter, NULL), "create");
    nanosleep(&ms, NULL);
    check(pthread_kill(t, SIGUSR1), "pthread_kill");
    nanosleep(&ms, NULL);
    __atomic_store_n(&restart_word, 1, __ATOMIC_SEQ_CST);
    futex(&restart_word, FUTEX_WAKE_PRIVATE, 1, NULL, 0);
    check(pthread_join(t, NULL), "join");
    printf("handler ran %d times\n", (int)interruptions);
    return 0;
}

static int case_restart(void) { return restart_case(SA_RESTART); }
static int case_no_restart(void) { return restart_case(0); }

/* ---- robust: a thread exits holding a robust mutex; the next lock returns EOWNERDEAD, and
 * one waiting meanwhile is woken with it (the kernel's walk of the robust list) ---- */
static pthread_mutex_t robust_lock;

static void *robust_owner(void *arg) {
    pthread_mutex_lock(&robust_lock);
    if (arg) { /* main waits for the mutex meanwhile */
        struct timespec ms = {0, 1000000};
        sem_post(&sem_done);
        nanosleep(&ms, NULL);
    }
    return NULL; /* still holding it */
}

static int case_robust(void) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    check(pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST), "setrobust");
    check(pthread_mutex_init(&robust_lock, &attr), "mutex_init");
    pthread_t t;
    check(pthread_create(&t, NULL, robust_owner, NULL), "create");
    check(pthread_join(t, NULL), "join");
    int r = pthread_mutex_lock(&robust_lock);
    printf("lock after the owner exited: %s\n", r == EOWNERDEAD ? "EOWNERDEAD" : strerror(r));
    if (r == EOWNERDEAD) check(pthread_mutex_consistent(&robust_lock), "consistent");
    check(pthread_mutex_unlock(&robust_lock), "unlock");
    sem_init(&sem_done, 0, 0);
    check(pthread_create(&t, NULL, robust_owner, (void *)1), "create");
    sem_wait(&sem_done);
    r = pthread_mutex_lock(&robust_lock); /* waits until the owner exits */
    printf("lock waiting while the owner exits: %s\n", r == EOWNERDEAD ? "EOWNERDEAD" : strerror(r));
    if (r == EOWNERDEAD) check(pthread_mutex_consistent(&robust_lock), "consistent");
    check(pthread_mutex_unlock(&robust_lock), "unlock");
    check(pthread_join(t, NULL), "join");
    return 0;
}

/* ---- sigqueue_thread: pthread_sigqueue to a thread that blocks the signal, twice; its
 * sigwaitinfo takes both, in order, with their values (and not main) ---- */
static void *rt_waiter(void *arg) {
    sigset_t *set = arg;
    siginfo_t info;
    for (int i = 0; i < 2; i++) {
        int sig = sigwaitinfo(set, &info);
        printf("thread took %s, value %d, SI_QUEUE %s\n", sig == SIGRTMIN ? "SIGRTMIN" : "another",
               info.si_value.sival_int, info.si_code == SI_QUEUE ? "yes" : "no");
    }
    return NULL;
}

static int case_sigqueue_thread(void) {
    static sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGRTMIN);
    pthread_sigmask(SIG_BLOCK, &set, NULL); /* the thread inherits it */
    pthread_t t;
    check(pthread_create(&t, NULL, rt_waiter, &set), "create");
    check(pthread_sigqueue(t, SIGRTMIN, (union sigval){.sival_int = 5}), "pthread_sigqueue");
    check(pthread_sigqueue(t, SIGRTMIN, (union sigval){.sival_int = 6}), "pthread_sigqueue");
    check(pthread_join(t, NULL), "join");
    sigset_t pending;
    sigpending(&pending);
    printf("main has SIGRTMIN pending: %s\n", sigismember(&pending, SIGRTMIN) ? "yes" : "no");
    return 0;
}

/* ---- sleep_rem: a thread's 10-second nanosleep interrupted by a handler returns EINTR and
 * writes the time left to rem (between 5 and 10 s), as Linux does. Main signals until the
 * sleeper is out of its sleep: under qemu a signal may come before the sleep begins ---- */
static volatile int sleeper_done;

static void *rem_sleeper(void *arg) {
    (void)arg;
    struct timespec req = {10, 0}, rem = {-1, -1};
    int r = nanosleep(&req, &rem);
    int err = errno;
    printf("nanosleep: %s\n", r == 0 ? "0 (slept it all)" : strerror(err));
    if (r)
        printf("rem between 5 and 10 s: %s\n", rem.tv_sec >= 5 && rem.tv_sec < 10 && rem.tv_nsec >= 0 ? "yes" : "no");
    sleeper_done = 1;
    return NULL;
}

static int case_sleep_rem(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1_count;
    sigaction(SIGUSR1, &sa, NULL);
    pthread_t t;
    check(pthread_create(&t, NULL, rem_sleeper, NULL), "create");
    struct timespec ms = {0, 20000000};
    while (!sleeper_done) {
        nanosleep(&ms, NULL); /* the sleeper is in its nanosleep meanwhile */
        if (!sleeper_done) check(pthread_kill(t, SIGUSR1), "pthread_kill");
    }
    check(pthread_join(t, NULL), "join");
    return 0;
}

/* ---- pipe_deadlock: two threads each read a pipe only the other writes, after its read
 * (cyclescope only: a real kernel waits forever) ---- */
static int pipe2_fds[2];

static void *crossed_reader(void *arg) {
    (void)arg;
    char c;
    if (read(pipe2_fds[0], &c, 1) == 1) (void)!write(pipe_fds[1], "y", 1);
    return NULL;
}

static int case_pipe_deadlock(void) {
    if (pipe(pipe_fds) || pipe(pipe2_fds)) return 1;
    pthread_t t;
    check(pthread_create(&t, NULL, crossed_reader, NULL), "create");
    char c;
    if (read(pipe_fds[0], &c, 1) == 1) (void)!write(pipe2_fds[1], "x", 1);
    printf("not reached\n");
    return 0;
}

int main(int argc, char **argv) {
    static const struct {
        const char *name;
        int (*run)(void);
    } cases[] = {{"sum", case_sum},
                 {"join", case_join},
                 {"condvar", case_condvar},
                 {"barrier", case_barrier},
                 {"tls", case_tls},
                 {"sem", case_sem},
                 {"exit", case_exit},
                 {"main_returns", case_main_returns},
                 {"main_exits_first", case_main_exits_first},
                 {"cancel", case_cancel},
                 {"spin", case_spin},
                 {"timedwait", case_timedwait},
                 {"kill", case_kill},
                 {"deadlock", case_deadlock},
                 {"last_deadlock", case_last_deadlock},
                 {"many", case_many},
                 {"futex", case_futex},
                 {"wake_op", case_wake_op},
                 {"pipe", case_pipe},
                 {"pipe_stream", case_pipe_stream},
                 {"poll", case_poll},
                 {"sigsuspend", case_sigsuspend},
                 {"pipe_cancel", case_pipe_cancel},
                 {"process_signal", case_process_signal},
                 {"sigwait", case_sigwait},
                 {"restart", case_restart},
                 {"no_restart", case_no_restart},
                 {"robust", case_robust},
                 {"sigqueue_thread", case_sigqueue_thread},
                 {"sleep_rem", case_sleep_rem},
                 {"pipe_deadlock", case_pipe_deadlock}};
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (size_t i = 0; argc > 1 && i < sizeof cases / sizeof cases[0]; i++)
        if (strcmp(argv[1], cases[i].name) == 0) return cases[i].run();
    fprintf(stderr, "usage: threads CASE\n");
    return 2;
}
