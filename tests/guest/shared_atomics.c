/* Atomic instructions on memory shared between processes: a parent and its forked child (or two
 * children) at the same time on one word of MAP_SHARED memory — amoadd.w/.d (fetch_add), an
 * lr/sc loop (compare-exchange), amoswap as a spin lock around a plain increment, amomax — must
 * lose no update, as on Linux. Each process run by its own host process: until 2026-11-29 an
 * AMO was a read then a write of guest memory and the processes lost each other's updates.
 * Prints the totals; exit 0 when they are exact. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct shared {
    uint64_t add_d, lock_protected, cas_d;
    uint32_t add_w, spin, max_w, pad;
} shared;

static void work(shared *s, long n, uint32_t id) {
    for (long i = 0; i < n; i++) {
        __atomic_fetch_add(&s->add_d, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&s->add_w, 1, __ATOMIC_RELAXED);
        uint64_t old = __atomic_load_n(&s->cas_d, __ATOMIC_RELAXED); /* an lr/sc loop */
        while (!__atomic_compare_exchange_n(&s->cas_d, &old, old + 1, 1, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
        }
        while (__atomic_exchange_n(&s->spin, 1, __ATOMIC_ACQUIRE)) { /* amoswap.w.aq */
        }
        s->lock_protected++; /* plain load and store under the lock */
        __atomic_store_n(&s->spin, 0, __ATOMIC_RELEASE);
        uint32_t v = (uint32_t)(i * 2 + id), was; /* GCC 12 has no __atomic_fetch_max */
        __asm__ volatile("amomaxu.w %0, %2, (%1)" : "=r"(was) : "r"(&s->max_w), "r"(v) : "memory");
        (void)was;
    }
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 200000;
    int procs = argc > 2 ? atoi(argv[2]) : 2; /* processes at work, the parent one of them */
    shared *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED) return 2;
    for (int p = 1; p < procs; p++) {
        pid_t pid = fork();
        if (pid < 0) return 3;
        if (pid == 0) {
            work(s, n, (uint32_t)p);
            _exit(0);
        }
    }
    work(s, n, 0);
    int status, failed = 0;
    while (wait(&status) > 0) failed |= !WIFEXITED(status) || WEXITSTATUS(status);
    uint64_t want = (uint64_t)n * (uint64_t)procs;
    printf("add.d %llu add.w %u cas.d %llu locked %llu max.w %u (each should be %llu; max %llu)\n",
           (unsigned long long)s->add_d, s->add_w, (unsigned long long)s->cas_d, (unsigned long long)s->lock_protected,
           s->max_w, (unsigned long long)want, (unsigned long long)((n - 1) * 2 + procs - 1));
    int ok = !failed && s->add_d == want && s->add_w == want && s->cas_d == want && s->lock_protected == want &&
        s->max_w == (uint32_t)((n - 1) * 2 + procs - 1);
    return ok ? 0 : 1;
}
