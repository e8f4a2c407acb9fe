/* PI futexes (FUTEX_LOCK_PI, LOCK_PI2, TRYLOCK_PI, UNLOCK_PI, WAIT_REQUEUE_PI, CMP_REQUEUE_PI)
 * and the mutexes glibc builds on them (PTHREAD_PRIO_INHERIT, robust ones). One case per
 * argument; each prints only what Linux's futex protocol fixes (the word as TID |
 * FUTEX_WAITERS | FUTEX_OWNER_DIED, told relative to the threads' own ids), never an order
 * the host's scheduler picks. Compared with qemu-riscv64, which passes the futex calls to the
 * host's kernel (docs/sandbox.md §4 "Threads").
 *   threads_pi mutex|raw|handoff|deadlock|signal|robust|robust_wait|condvar|requeue|requeue_errors
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif

static long futex(void *addr, int op, unsigned val, const void *timeout, void *addr2, unsigned val3) {
    long r = syscall(SYS_futex, addr, op, val, timeout, addr2, val3);
    return r < 0 ? -errno : r;
}

static const char *err(long r) {
    switch (r) {
    case 0: return "0";
    case -EAGAIN: return "EAGAIN";
    case -EDEADLK: return "EDEADLK";
    case -EPERM: return "EPERM";
    case -ESRCH: return "ESRCH";
    case -EINVAL: return "EINVAL";
    case -ENOSYS: return "ENOSYS";
    case -ETIMEDOUT: return "ETIMEDOUT";
    case -EINTR: return "EINTR";
    default: {
        static char buf[32];
        snprintf(buf, sizeof buf, "%ld", r);
        return buf;
    }
    }
}

static pid_t tid(void) { return (pid_t)syscall(SYS_gettid); }

/* The word told relative to the threads named: "0", "self|W", "other|W|D" … */
static void show(const char *what, _Atomic unsigned *w, pid_t self, pid_t other) {
    unsigned v = atomic_load(w), t = v & FUTEX_TID_MASK;
    char owner[32];
    if (!t) strcpy(owner, "0");
    else if (t == (unsigned)self) strcpy(owner, "self");
    else if (t == (unsigned)other) strcpy(owner, "other");
    else snprintf(owner, sizeof owner, "tid %u", t);
    printf("%s: %s%s%s\n", what, owner, (v & FUTEX_WAITERS) ? "|WAITERS" : "",
           (v & FUTEX_OWNER_DIED) ? "|OWNER_DIED" : "");
}

/* Until the word has FUTEX_WAITERS: a thread waits in the kernel for it (the kernel sets the
 * bit before it queues the waiter, under the lock the unlock takes). */
static void until_waiters(_Atomic unsigned *w) {
    for (long n = 0; !(atomic_load(w) & FUTEX_WAITERS); n++) {
        if (n > 2000000) {
            printf("no waiter came\n");
            exit(3);
        }
        sched_yield();
    }
}

static struct timespec later(clockid_t clock, long ms) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    ts.tv_nsec += ms * 1000000L;
    ts.tv_sec += ts.tv_nsec / 1000000000L;
    ts.tv_nsec %= 1000000000L;
    return ts;
}

/* ---- mutex: 4 threads under contention on a PTHREAD_PRIO_INHERIT mutex ---- */
static pthread_mutex_t pm;
static long counter;

static void *adder(void *arg) {
    (void)arg;
    for (int i = 0; i < 2000; i++) {
        pthread_mutex_lock(&pm);
        long c = counter;
        if (i % 50 == 0) sched_yield(); /* contended: the others find it held */
        counter = c + 1;
        pthread_mutex_unlock(&pm);
    }
    return NULL;
}

static void init_pi(pthread_mutex_t *m, int robust) {
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    if (pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT)) printf("setprotocol failed\n");
    if (robust) pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(m, &a);
    pthread_mutexattr_destroy(&a);
}

static pid_t locker_tid;
static int to_main[2], to_locker[2];

static void *pm_locker(void *arg) {
    (void)arg;
    _Atomic unsigned *w = (_Atomic unsigned *)&pm.__data.__lock;
    int r = pthread_mutex_lock(&pm); /* main holds it: waits in FUTEX_LOCK_PI */
    show("locker after its lock (handed over)", w, tid(), 0);
    pthread_mutex_unlock(&pm);
    return (void *)(long)r;
}

static int case_mutex(void) {
    init_pi(&pm, 0);
    _Atomic unsigned *w = (_Atomic unsigned *)&pm.__data.__lock;
    pthread_t t[4];
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, adder, NULL);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    printf("counter %ld\n", counter);
    show("word after the adders", w, tid(), 0);
    pthread_mutex_lock(&pm);
    show("main locked", w, tid(), 0);
    pthread_t l;
    pthread_create(&l, NULL, pm_locker, NULL);
    until_waiters(w);
    show("locker waits", w, tid(), 0);
    int u = pthread_mutex_unlock(&pm);
    void *ret;
    pthread_join(l, &ret);
    printf("unlock: %d\n", u);
    printf("locker's lock returned %ld\n", (long)ret);
    show("word at the end", w, tid(), 0);
    printf("trylock %d, again %d (EBUSY %d)\n", pthread_mutex_trylock(&pm), pthread_mutex_trylock(&pm), EBUSY);
    pthread_mutex_unlock(&pm);
    return 0;
}

/* ---- raw: the calls on a word, one thread and a holder ---- */
static _Atomic unsigned word, word2;

static void *holder(void *arg) {
    _Atomic unsigned *w = arg;
    char c;
    locker_tid = tid();
    printf("holder trylock: %s\n", err(futex(w, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0)));
    write(to_main[1], "h", 1);
    read(to_locker[0], &c, 1); /* main tried */
    show("holder before its unlock", w, tid(), 0);
    printf("holder unlock: %s\n", err(futex(w, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0)));
    show("holder after its unlock", w, tid(), 0);
    write(to_main[1], "u", 1);
    return NULL;
}

static int case_raw(void) {
    pid_t me = tid();
    printf("trylock of 0: %s\n", err(futex(&word, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0)));
    show("word", &word, me, 0);
    printf("lock of own: %s\n", err(futex(&word, FUTEX_LOCK_PI, 0, NULL, NULL, 0)));
    printf("lock2 of own: %s\n", err(futex(&word, FUTEX_LOCK_PI2, 0, NULL, NULL, 0)));
    printf("trylock of own: %s\n", err(futex(&word, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0)));
    printf("unlock: %s\n", err(futex(&word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0)));
    show("word", &word, me, 0);
    printf("unlock of 0: %s\n", err(futex(&word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0)));
    atomic_store(&word, 0x3ffffffe); /* above any pid_max: no such thread */
    printf("unlock of another's: %s\n", err(futex(&word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0)));
    printf("lock of a dead owner's: %s\n", err(futex(&word, FUTEX_LOCK_PI, 0, NULL, NULL, 0)));
    show("word", &word, me, 0);
    printf("trylock of a dead owner's: %s\n", err(futex(&word, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0)));
    atomic_store(&word, FUTEX_OWNER_DIED);
    printf("lock of an owner-died word: %s\n", err(futex(&word, FUTEX_LOCK_PI, 0, NULL, NULL, 0)));
    show("word", &word, me, 0);
    printf("unlock: %s\n", err(futex(&word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0)));
    show("word", &word, me, 0);
    atomic_store(&word, FUTEX_WAITERS);
    printf("trylock of a waiters-only word: %s\n", err(futex(&word, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0)));
    show("word", &word, me, 0);
    atomic_store(&word, FUTEX_WAITERS | FUTEX_OWNER_DIED | me);
    printf("unlock with both bits: %s\n", err(futex(&word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0)));
    show("word", &word, me, 0);
    printf("lock with FUTEX_CLOCK_REALTIME: %s\n",
           err(futex(&word, FUTEX_LOCK_PI | FUTEX_CLOCK_REALTIME, 0, NULL, NULL, 0)));
    printf("unlock with FUTEX_CLOCK_REALTIME: %s\n",
           err(futex(&word, FUTEX_UNLOCK_PI | FUTEX_CLOCK_REALTIME, 0, NULL, NULL, 0)));
    printf("wait with FUTEX_CLOCK_REALTIME: %s\n",
           err(futex(&word, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 1, NULL, NULL, 0)));
    printf("lock2 with FUTEX_CLOCK_REALTIME: %s\n",
           err(futex(&word, FUTEX_LOCK_PI2 | FUTEX_CLOCK_REALTIME, 0, NULL, NULL, 0)));
    show("word", &word, me, 0);
    printf("unlock (private): %s\n", err(futex(&word, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0)));
    printf("lock unaligned: %s\n", err(futex((char *)&word + 1, FUTEX_LOCK_PI, 0, NULL, NULL, 0)));
    printf("unknown operation 14: %s, FUTEX_FD: %s\n", err(futex(&word, 14, 0, NULL, NULL, 0)),
           err(futex(&word, 2, 0, NULL, NULL, 0)));

    /* held by another thread */
    pipe(to_main);
    pipe(to_locker);
    pthread_t h;
    char c;
    pthread_create(&h, NULL, holder, (void *)&word);
    read(to_main[0], &c, 1);
    show("held", &word, me, locker_tid);
    printf("trylock: %s\n", err(futex(&word, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0)));
    show("after trylock", &word, me, locker_tid);
    struct timespec bad = {0, 2000000000L};
    printf("lock with a bad timeout: %s\n", err(futex(&word, FUTEX_LOCK_PI, 0, &bad, NULL, 0)));
    struct timespec rt = later(CLOCK_REALTIME, 20);
    printf("lock until 20 ms on CLOCK_REALTIME: %s\n", err(futex(&word, FUTEX_LOCK_PI, 0, &rt, NULL, 0)));
    struct timespec mono = later(CLOCK_MONOTONIC, 20);
    printf("lock2 until 20 ms on CLOCK_MONOTONIC: %s\n", err(futex(&word, FUTEX_LOCK_PI2, 0, &mono, NULL, 0)));
    struct timespec past = {1, 0};
    printf("lock with a past deadline: %s\n", err(futex(&word, FUTEX_LOCK_PI, 0, &past, NULL, 0)));
    printf("wake of a PI word: %s\n", err(futex(&word, FUTEX_WAKE, 1, NULL, NULL, 0)));
    write(to_locker[1], "t", 1);
    read(to_main[0], &c, 1);
    pthread_join(h, NULL);
    show("at the end", &word, me, locker_tid);
    return 0;
}

/* ---- handoff: UNLOCK_PI gives the futex to a waiter ---- */
static pid_t waiter_tid;
/* the signal case: the unlock may come between the handler and the restarted FUTEX_LOCK_PI
 * (the word 0 then: no FUTEX_WAITERS after) or while it waits (handed over, FUTEX_WAITERS) —
 * which one is the host's timing under qemu, so only the owner is shown */
static int owner_only;

static void *pi_waiter(void *arg) {
    _Atomic unsigned *w = arg;
    waiter_tid = tid();
    long r = futex(w, FUTEX_LOCK_PI, 0, NULL, NULL, 0);
    printf("waiter's lock: %s\n", err(r));
    if (owner_only)
        printf("waiter owns: %s\n", (atomic_load(w) & FUTEX_TID_MASK) == (unsigned)tid() ? "self" : "not self");
    else show("waiter owns", w, tid(), 0);
    printf("waiter's unlock: %s\n", err(futex(w, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0)));
    show("after the waiter's unlock", w, tid(), 0);
    return NULL;
}

static int case_handoff(void) {
    pid_t me = tid();
    printf("main locks: %s\n", err(futex(&word, FUTEX_LOCK_PI, 0, NULL, NULL, 0)));
    pthread_t t;
    pthread_create(&t, NULL, pi_waiter, (void *)&word);
    until_waiters(&word);
    show("a waiter", &word, me, 0);
    long u = futex(&word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
    pthread_join(t, NULL);
    printf("main unlocked: %s\n", err(u));
    show("at the end", &word, me, waiter_tid);
    return 0;
}

/* ---- deadlock: A holds L1 and waits for L2; B holds L2 and asks for L1 ---- */
static void *dl_a(void *arg) {
    (void)arg;
    locker_tid = tid();
    long l1 = futex(&word, FUTEX_LOCK_PI, 0, NULL, NULL, 0);
    write(to_main[1], "a", 1);
    long l2 = futex(&word2, FUTEX_LOCK_PI, 0, NULL, NULL, 0); /* waits for main */
    futex(&word2, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
    futex(&word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
    return (void *)(l1 * 1000 + l2);
}

static int case_deadlock(void) {
    pipe(to_main);
    char c;
    printf("main locks L2: %s\n", err(futex(&word2, FUTEX_LOCK_PI, 0, NULL, NULL, 0)));
    pthread_t a;
    pthread_create(&a, NULL, dl_a, NULL);
    read(to_main[0], &c, 1);
    until_waiters(&word2);
    /* the kernel sets FUTEX_WAITERS just before A joins L2's waiters: a moment for it, so that
     * the chain walk under qemu finds A waiting (a fixed order on the guest clock here) */
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
    printf("main's lock of L1: %s\n", err(futex(&word, FUTEX_LOCK_PI, 0, NULL, NULL, 0)));
    show("L1", &word, tid(), locker_tid);
    show("L2", &word2, tid(), locker_tid);
    long u = futex(&word2, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
    void *ra;
    pthread_join(a, &ra);
    printf("main unlocked L2: %s\n", err(u));
    printf("A's locks: %s, %s\n", err((long)ra / 1000), err((long)ra % 1000));
    show("L1 at the end", &word, 0, 0);
    show("L2 at the end", &word2, 0, 0);
    return 0;
}

/* ---- signal: a handler runs in a thread waiting in FUTEX_LOCK_PI, which waits on ---- */
static void on_usr1(int sig) {
    (void)sig;
    write(to_main[1], "s", 1);
}

static int case_signal(void) {
    pipe(to_main);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1; /* no SA_RESTART: FUTEX_LOCK_PI runs again all the same */
    sigaction(SIGUSR1, &sa, NULL);
    owner_only = 1;
    printf("main locks: %s\n", err(futex(&word, FUTEX_LOCK_PI, 0, NULL, NULL, 0)));
    pthread_t t;
    pthread_create(&t, NULL, pi_waiter, (void *)&word);
    until_waiters(&word);
    pthread_kill(t, SIGUSR1);
    char c;
    read(to_main[0], &c, 1);
    printf("the handler ran\n");
    until_waiters(&word); /* (it never left: the bit stays) */
    long u = futex(&word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
    pthread_join(t, NULL);
    printf("main unlocked: %s\n", err(u));
    return 0;
}

/* ---- robust: a robust PI mutex whose owner exits ---- */
static void *lock_and_exit(void *arg) {
    (void)arg;
    pthread_mutex_lock(&pm);
    return NULL; /* exits holding it */
}

static void *lock_wait_exit(void *arg) {
    (void)arg;
    pthread_mutex_lock(&pm);
    write(to_main[1], "l", 1);
    until_waiters((_Atomic unsigned *)&pm.__data.__lock); /* main waits for it */
    return NULL;
}

static int case_robust(int wait) {
    init_pi(&pm, 1);
    _Atomic unsigned *w = (_Atomic unsigned *)&pm.__data.__lock;
    pthread_t t;
    int r;
    if (!wait) {
        pthread_create(&t, NULL, lock_and_exit, NULL);
        pthread_join(t, NULL);
        show("after the owner's exit", w, tid(), 0);
        r = pthread_mutex_lock(&pm);
    } else {
        pipe(to_main);
        char c;
        pthread_create(&t, NULL, lock_wait_exit, NULL);
        read(to_main[0], &c, 1);
        r = pthread_mutex_lock(&pm);
        pthread_join(t, NULL);
    }
    printf("lock: %s\n", r == EOWNERDEAD ? "EOWNERDEAD" : strerror(r));
    show("word", w, tid(), 0);
    printf("consistent: %d\n", pthread_mutex_consistent(&pm));
    printf("unlock: %d\n", pthread_mutex_unlock(&pm));
    show("word", w, tid(), 0);
    printf("lock again: %d\n", pthread_mutex_lock(&pm));
    printf("unlock: %d\n", pthread_mutex_unlock(&pm));
    /* not made consistent: the next lock is ENOTRECOVERABLE */
    pthread_create(&t, NULL, lock_and_exit, NULL);
    pthread_join(t, NULL);
    r = pthread_mutex_lock(&pm);
    printf("lock: %s\n", r == EOWNERDEAD ? "EOWNERDEAD" : strerror(r));
    printf("unlock: %d\n", pthread_mutex_unlock(&pm));
    r = pthread_mutex_lock(&pm);
    printf("lock: %s\n", r == ENOTRECOVERABLE ? "ENOTRECOVERABLE" : strerror(r));
    return 0;
}

/* ---- condvar: a PI mutex with a condition variable, 3 consumers ---- */
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int queue[16], q_head, q_len, done;
static long consumed;

static void *consumer(void *arg) {
    long mine = 0;
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&pm);
        while (!q_len && !done) pthread_cond_wait(&cv, &pm);
        if (!q_len && done) {
            pthread_mutex_unlock(&pm);
            break;
        }
        mine += queue[q_head];
        q_head = (q_head + 1) % 16;
        q_len--;
        pthread_cond_broadcast(&cv);
        pthread_mutex_unlock(&pm);
    }
    pthread_mutex_lock(&pm);
    consumed += mine;
    pthread_mutex_unlock(&pm);
    return NULL;
}

static int case_condvar(void) {
    init_pi(&pm, 0);
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, consumer, NULL);
    long sent = 0;
    for (int i = 1; i <= 1000; i++) {
        pthread_mutex_lock(&pm);
        while (q_len == 16) pthread_cond_wait(&cv, &pm);
        queue[(q_head + q_len) % 16] = i;
        q_len++;
        sent += i;
        pthread_cond_signal(&cv);
        pthread_mutex_unlock(&pm);
    }
    pthread_mutex_lock(&pm);
    done = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&pm);
    for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
    printf("sent %ld, consumed %ld\n", sent, consumed);
    return 0;
}

/* ---- requeue: FUTEX_WAIT_REQUEUE_PI and FUTEX_CMP_REQUEUE_PI ---- */
static _Atomic unsigned cond_word;
static _Atomic int finished;
static long in_lock;

static void *requeue_waiter(void *arg) {
    (void)arg;
    long r = futex(&cond_word, FUTEX_WAIT_REQUEUE_PI, 0, NULL, (void *)&word, FUTEX_BITSET_MATCH_ANY);
    int owns = (atomic_load(&word) & FUTEX_TID_MASK) == (unsigned)tid();
    in_lock++; /* under the PI futex */
    long u = futex(&word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
    if (r != 0 || !owns || u != 0) printf("requeue waiter: %s, owns %d, unlock %s\n", err(r), owns, err(u));
    atomic_fetch_add(&finished, 1);
    return NULL;
}

/* CMP_REQUEUE_PI until `n` waiters were woken or moved (a waiter may not wait yet). */
static long requeue_all(int n, int nr_requeue) {
    long total = 0;
    for (long k = 0; total < n; k++) {
        long r = futex(&cond_word, FUTEX_CMP_REQUEUE_PI, 1, (void *)(long)nr_requeue, (void *)&word, 0);
        if (r < 0) {
            printf("requeue: %s\n", err(r));
            exit(4);
        }
        total += r;
        if (k > 2000000) {
            printf("the waiters never came\n");
            exit(3);
        }
        sched_yield();
    }
    return total;
}

static int case_requeue(void) {
    pid_t me = tid();
    /* the PI futex is free: the oldest waiter takes it at once */
    pthread_t t[3];
    pthread_create(&t[0], NULL, requeue_waiter, NULL);
    printf("woken to own the free futex: %ld\n", requeue_all(1, 0));
    pthread_join(t[0], NULL);
    show("after it", &word, me, 0);
    /* held by main: both are requeued onto it, then get it in turn */
    printf("main locks: %s\n", err(futex(&word, FUTEX_LOCK_PI, 0, NULL, NULL, 0)));
    pthread_create(&t[1], NULL, requeue_waiter, NULL);
    pthread_create(&t[2], NULL, requeue_waiter, NULL);
    printf("requeued onto the held futex: %ld\n", requeue_all(2, 10));
    show("held, with waiters", &word, me, 0);
    printf("main unlocks: %s\n", err(futex(&word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0)));
    pthread_join(t[1], NULL);
    pthread_join(t[2], NULL);
    printf("finished %d, in the lock %ld times\n", atomic_load(&finished), in_lock);
    show("at the end", &word, me, 0);
    return 0;
}

static int case_requeue_errors(void) {
    struct timespec past = {1, 0};
    printf("wait, value differs: %s\n",
           err(futex(&cond_word, FUTEX_WAIT_REQUEUE_PI, 1, NULL, (void *)&word, FUTEX_BITSET_MATCH_ANY)));
    printf("wait, same futex twice: %s\n",
           err(futex(&cond_word, FUTEX_WAIT_REQUEUE_PI, 0, NULL, (void *)&cond_word, FUTEX_BITSET_MATCH_ANY)));
    printf("wait, past deadline: %s\n",
           err(futex(&cond_word, FUTEX_WAIT_REQUEUE_PI, 0, &past, (void *)&word, FUTEX_BITSET_MATCH_ANY)));
    struct timespec soon = later(CLOCK_MONOTONIC, 5);
    printf("wait, 5 ms: %s\n",
           err(futex(&cond_word, FUTEX_WAIT_REQUEUE_PI, 0, &soon, (void *)&word, FUTEX_BITSET_MATCH_ANY)));
    soon = later(CLOCK_REALTIME, 5);
    printf("wait, 5 ms on CLOCK_REALTIME: %s\n",
           err(futex(&cond_word, FUTEX_WAIT_REQUEUE_PI | FUTEX_CLOCK_REALTIME, 0, &soon, (void *)&word,
                     FUTEX_BITSET_MATCH_ANY)));
    printf("requeue, nr_wake 2: %s\n", err(futex(&cond_word, FUTEX_CMP_REQUEUE_PI, 2, (void *)1L, (void *)&word, 0)));
    printf("requeue, nr_requeue -1: %s\n",
           err(futex(&cond_word, FUTEX_CMP_REQUEUE_PI, 1, (void *)(long)-1, (void *)&word, 0)));
    printf("requeue, value differs: %s\n",
           err(futex(&cond_word, FUTEX_CMP_REQUEUE_PI, 1, (void *)1L, (void *)&word, 7)));
    printf("requeue, same futex: %s\n",
           err(futex(&cond_word, FUTEX_CMP_REQUEUE_PI, 1, (void *)1L, (void *)&cond_word, 0)));
    printf("requeue, nobody waits: %s\n",
           err(futex(&cond_word, FUTEX_CMP_REQUEUE_PI, 1, (void *)1L, (void *)&word, 0)));
    show("PI futex untouched", &word, tid(), 0);
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *c = argc > 1 ? argv[1] : "";
    if (!strcmp(c, "mutex")) return case_mutex();
    if (!strcmp(c, "raw")) return case_raw();
    if (!strcmp(c, "handoff")) return case_handoff();
    if (!strcmp(c, "deadlock")) return case_deadlock();
    if (!strcmp(c, "signal")) return case_signal();
    if (!strcmp(c, "robust")) return case_robust(0);
    if (!strcmp(c, "robust_wait")) return case_robust(1);
    if (!strcmp(c, "condvar")) return case_condvar();
    if (!strcmp(c, "requeue")) return case_requeue();
    if (!strcmp(c, "requeue_errors")) return case_requeue_errors();
    fprintf(stderr, "threads_pi: unknown case '%s'\n", c);
    return 2;
}
