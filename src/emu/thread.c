/* Threads of the guest process (clone with CLONE_THREAD) on the emulator's one hart, run
 * as a uniprocessor kernel runs them, and the futexes they wait on.
 *
 * Notes (what it simplifies):
 * - One hart: the running thread's registers are in e->h and the rest of its own state in
 *   e->ctx, where signal.c and syscall.c use them; the others' are in their slots
 *   (thread_save / thread_load).
 * - Scheduling is deterministic round robin in thread-creation slot order: a thread runs
 *   until it blocks (futex wait, sleep), yields, exits, or has retired `quantum`
 *   instructions (emu_options.thread_quantum). The quantum counts on the instruction
 *   count, never on the host's clock, so the same program and input give the same
 *   interleaving, hence the same µop stream, on every run and in every run mode.
 * - Time: the guest clock (icount + slept_ns, as signal.c defines it) goes on while other
 *   threads run; when every thread waits, the clock jumps to the earliest deadline (as a
 *   sleep does). With none pending, the run ends: a deadlock, in one line.
 * - Waits for another thread besides futexes and sleeps: a read or write of a pipe, a poll
 *   or select on the guest's pipes, and sigtimedwait wait in THREAD_IO, parked at their ecall
 *   with a0 kept: when any pipe changes (data written or read, an end closed), a sigwaited
 *   signal comes or the deadline passes, the ecall runs again and finds out (a wait costs the
 *   µop stream one more ecall per wake-up; a write that wrote part of its bytes keeps the
 *   count here and goes on after them). sigsuspend/pause waits in THREAD_PAUSE for a signal.
 *   With a single thread these calls end the run in one line as before (syscall.c).
 * - Signals: tgkill reaches the thread named; a process-directed one (kill of the process,
 *   the alarm) the main thread when it lets it through, else the first thread in creation
 *   order that does, else it is pending for the process (signal.c). A waiting thread that
 *   gets a signal it lets through with a handler wakes with -EINTR, or runs its call again
 *   after the handler when the handler has SA_RESTART and the call restarts on Linux
 *   (interrupt()).
 * - A thread's robust futex list is walked when it exits (FUTEX_OWNER_DIED, a waiter woken).
 * - FUTEX_WAKE_OP: the operation on the second word is done even when no thread waits.
 * - PI futexes (FUTEX_LOCK_PI, LOCK_PI2, TRYLOCK_PI, UNLOCK_PI, WAIT_REQUEUE_PI,
 *   CMP_REQUEUE_PI): the word's protocol (TID | FUTEX_WAITERS | FUTEX_OWNER_DIED) as
 *   kernel/futex/pi.c and requeue.c keep it; the unlock hands the futex to the oldest waiter
 *   at once (the kernel's rt_mutex orders equal-priority waiters FIFO). Priority inheritance
 *   itself means nothing here: one hart, no priorities, round robin. Within one process only
 *   (a PI futex another process owns: -ESRCH, as for a dead owner).
 */
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu_internal.h"

/* clone(2) flags (include/uapi/linux/sched.h) */
enum {
    CLONE_VM_ = 0x100,
    CLONE_FS_ = 0x200,
    CLONE_FILES_ = 0x400,
    CLONE_SIGHAND_ = 0x800,
    CLONE_THREAD_ = 0x10000,
    CLONE_SYSVSEM_ = 0x40000,
    CLONE_SETTLS_ = 0x80000,
    CLONE_PARENT_SETTID_ = 0x100000,
    CLONE_CHILD_CLEARTID_ = 0x200000,
    CLONE_DETACHED_ = 0x400000,
    CLONE_CHILD_SETTID_ = 0x1000000,
};

/* glibc 2.36's pthread_create (nptl/pthread_create.c, create_thread) passes the first
 * line plus CLONE_SETTLS|PARENT_SETTID|CHILD_CLEARTID; the rest are accepted as Linux
 * does for a thread and mean nothing on one process (fs, files, SysV undo lists shared). */
#define THREAD_NEEDED (CLONE_VM_ | CLONE_SIGHAND_ | CLONE_THREAD_)
#define THREAD_ALLOWED                                                                                  \
    (THREAD_NEEDED | CLONE_FS_ | CLONE_FILES_ | CLONE_SYSVSEM_ | CLONE_SETTLS_ | CLONE_PARENT_SETTID_ | \
     CLONE_CHILD_CLEARTID_ | CLONE_DETACHED_ | CLONE_CHILD_SETTID_)

enum { SIGALRM_ = 14 };

/* futex(2) operations and flags (include/uapi/linux/futex.h) */
enum {
    FUTEX_WAIT_ = 0,
    FUTEX_WAKE_ = 1,
    FUTEX_REQUEUE_ = 3,
    FUTEX_CMP_REQUEUE_ = 4,
    FUTEX_WAKE_OP_ = 5,
    FUTEX_LOCK_PI_ = 6,
    FUTEX_UNLOCK_PI_ = 7,
    FUTEX_TRYLOCK_PI_ = 8,
    FUTEX_WAIT_BITSET_ = 9,
    FUTEX_WAKE_BITSET_ = 10,
    FUTEX_WAIT_REQUEUE_PI_ = 11,
    FUTEX_CMP_REQUEUE_PI_ = 12,
    FUTEX_LOCK_PI2_ = 13,
    FUTEX_PRIVATE_FLAG_ = 128,
    FUTEX_CLOCK_REALTIME_ = 256,
};

/* The word of a PI or robust futex (include/uapi/linux/futex.h) */
enum { FUTEX_WAITERS_ = 0x80000000u, FUTEX_OWNER_DIED_ = 0x40000000u, FUTEX_TID_MASK_ = 0x3fffffffu };

/* What a THREAD_FUTEX wait is (emu_thread.futex_pi) */
enum {
    PI_NONE,         /* FUTEX_WAIT / WAIT_BITSET */
    PI_LOCK,         /* FUTEX_LOCK_PI(2): to own futex_addr, owned by futex_pi_owner */
    PI_REQUEUE_WAIT, /* FUTEX_WAIT_REQUEUE_PI on futex_addr, not yet requeued onto futex_pi_key2 */
    PI_REQUEUED,     /* ... requeued: now waits to own futex_addr (the PI futex) as PI_LOCK does */
};

static emu_thread *current(emu_t *e) { return &e->threads[e->thread_cur]; }

/* The running thread's state in the emu fields into its slot, and back. */
static void thread_save(emu_t *e, emu_thread *t) {
    t->h = e->h;
    t->ctx = e->ctx;
}

static void thread_load(emu_t *e, const emu_thread *t) {
    e->h = t->h;
    e->h.reserved = false; /* a context switch breaks an LR/SC pair, as the kernel's does */
    e->ctx = t->ctx;
    emu_signal_claim_shared(e); /* what the process has pending that it lets through */
}

uint64_t emu_thread_quantum(const emu_t *e) {
    return e->opt.thread_quantum ? e->opt.thread_quantum : EMU_DEFAULT_THREAD_QUANTUM;
}

/* The table, made at the first clone: slot 0 is the thread that ran so far. */
static void threads_start(emu_t *e) {
    e->threads = cs_calloc(EMU_MAX_THREADS, sizeof *e->threads);
    e->threads[0].state = THREAD_RUNNING;
    e->threads[0].tid = e->vpid;
    e->thread_cur = 0;
    e->threads_live = 1;
    e->next_tid = e->vpid + 1;
    e->quantum_end = e->icount + emu_thread_quantum(e);
}

/* A new thread's id: the one after the last given, within the process' block of ids (pid + 1 …
 * pid + EMU_PID_STRIDE − 1; the next process' pid starts the next block), skipping live
 * threads' ids. An id comes back as late as the block allows — a program that starts and joins
 * hundreds of threads — and never reaches another process' pid or thread ids (kill(tid)). */
static int32_t thread_new_tid(emu_t *e) {
    for (;;) {
        int32_t tid = e->next_tid++;
        if (e->next_tid >= e->vpid + EMU_PID_STRIDE) e->next_tid = e->vpid + 1;
        bool live = false;
        for (int i = 0; i < EMU_MAX_THREADS && !live; i++)
            live = e->threads[i].state != THREAD_FREE && e->threads[i].tid == tid;
        if (!live) return tid; /* at most EMU_MAX_THREADS − 1 others live: found within the block */
    }
}

int32_t emu_thread_tid_at(const emu_t *e, int i) {
    return e->threads && e->threads[i].state != THREAD_FREE ? e->threads[i].tid : 0;
}

int32_t emu_thread_tid(const emu_t *e) { return e->threads ? e->threads[e->thread_cur].tid : e->vpid; }

static emu_thread *thread_of_tid(emu_t *e, int64_t tid) {
    if (!e->threads) return NULL;
    for (int i = 0; i < EMU_MAX_THREADS; i++)
        if (e->threads[i].state != THREAD_FREE && e->threads[i].tid == tid) return &e->threads[i];
    return NULL;
}

bool emu_thread_is_tid(emu_t *e, int64_t tid) { return thread_of_tid(e, tid) != NULL; }

/* ---- waking ---- */

static bool waiting(const emu_thread *t) {
    return t->state == THREAD_FUTEX || t->state == THREAD_SLEEP || t->state == THREAD_IO || t->state == THREAD_PAUSE;
}

/* A THREAD_IO wait's bookkeeping, done with: the call returned or starts afresh. */
static void io_forget(emu_thread *t) {
    t->io_retry = t->io_timed_out = false;
    t->io_partial = t->io_partial_bytes = 0;
    t->io_deadline = 0;
    t->io_sigset = 0;
    t->io_child = t->io_child_hold = false;
    t->io_host_n = 0;
}

/* A waiting thread becomes runnable, its system call returning `result` (a THREAD_IO wait,
 * whose pc is still its ecall, goes on after it; a pipe write that wrote some bytes before
 * it waited returns their count, as Linux's pipe_write does when a signal interrupts it). */
static void wake(emu_thread *t, int64_t result) {
    if (t->state == THREAD_IO) {
        t->h.pc += 4;
        if (t->io_partial) result = (int64_t)t->io_partial;
        io_forget(t);
    }
    t->state = THREAD_RUNNABLE;
    t->h.x[10] = (uint64_t)result;
    t->futex_addr = 0;
    t->futex_pi = PI_NONE;
}

/* A THREAD_IO waiter runs its ecall again (a0 as it was): the pipe changed, or its wait
 * ran out (`timed_out`: the call then returns what is ready now, 0 if nothing). */
static void wake_retry(emu_thread *t, bool timed_out) {
    t->state = THREAD_RUNNABLE;
    t->io_retry = true;
    t->io_timed_out = timed_out;
}

/* A signal whose handler t lets through ends its wait (the handler runs when t next takes
 * the hart): -EINTR, or, when the handler of the signal delivered first has SA_RESTART, the
 * call runs again after it (Linux's -ERESTARTSYS, arch/riscv/kernel/signal.c handle_signal:
 * pc back to the ecall, a0 as it was) — a read or write of a pipe that wrote nothing yet and
 * a futex wait without a timeout; poll, select, sigsuspend, sleeps and timed futex waits
 * return -EINTR whatever the flags, as on Linux (-ERESTARTNOHAND, -ERESTART_RESTARTBLOCK). */
static void interrupt(emu_t *e, emu_thread *t) {
    uint64_t ready = t->ctx.sig_pending & ~t->ctx.sig_blocked, flags = 0;
    for (; ready; ready &= ready - 1) {
        int sig = __builtin_ctzll(ready) + 1;
        if (e->sigaction_handler[sig] > 1) {
            flags = e->sigaction_flags[sig];
            break;
        }
    }
    bool restart = flags & GUEST_SA_RESTART;
    if (restart && t->state == THREAD_IO && t->io_restartable && !t->io_partial) {
        t->state = THREAD_RUNNABLE; /* its pc is still the ecall, a0 unchanged */
        t->io_retry = t->io_timed_out = false;
        return;
    }
    /* FUTEX_LOCK_PI and a FUTEX_WAIT_REQUEUE_PI not requeued yet run again after any handler
     * (kernel/futex/pi.c futex_lock_pi, requeue.c handle_early_requeue_pi_wakeup:
     * -ERESTARTNOINTR), their timeouts being absolute */
    bool pi_restart = t->state == THREAD_FUTEX && (t->futex_pi == PI_LOCK || t->futex_pi == PI_REQUEUE_WAIT);
    if ((restart && t->state == THREAD_FUTEX && t->deadline_ns == UINT64_MAX && t->futex_pi == PI_NONE) || pi_restart) {
        t->state = THREAD_RUNNABLE;
        t->h.pc -= 4;
        t->h.x[10] = t->restart_a0;
        t->futex_addr = 0;
        t->futex_pi = PI_NONE;
        return;
    }
    int64_t result = -EINTR;
    /* requeued onto the PI futex, it cannot restart: -EWOULDBLOCK, as futex_wait_requeue_pi */
    if (t->state == THREAD_FUTEX && t->futex_pi == PI_REQUEUED) result = -EAGAIN;
    if (t->state == THREAD_SLEEP && t->sleep_rem) { /* the time left, as Linux writes rem */
        uint64_t now = emu_guest_clock_ns(e), left = t->deadline_ns > now ? t->deadline_ns - now : 0;
        int64_t ts[2] = {(int64_t)(left / 1000000000ull), (int64_t)(left % 1000000000ull)};
        if (guest_put(e, t->sleep_rem, ts, sizeof ts)) result = -EFAULT;
    }
    wake(t, result);
}

/* Waiters whose deadline the guest clock reached: a futex wait times out, a sleep ends, a
 * poll runs again to return 0. */
static void wake_expired(emu_t *e) {
    uint64_t now = emu_guest_clock_ns(e);
    for (int i = 0; i < EMU_MAX_THREADS; i++) {
        emu_thread *t = &e->threads[i];
        if (t->deadline_ns > now) continue;
        if (t->state == THREAD_FUTEX || t->state == THREAD_SLEEP) wake(t, t->state == THREAD_FUTEX ? -ETIMEDOUT : 0);
        else if (t->state == THREAD_IO) wake_retry(t, true);
    }
}

/* Wake up to n waiters on the futex at addr whose bitset meets `bitset`, oldest first
 * (FIFO, so that which thread a wake picks never depends on the host). Returns how many. */
static bool pi_waiters_on(const emu_t *e, uint64_t addr);

static int64_t futex_wake(emu_t *e, uint64_t addr, int64_t n, uint32_t bitset) {
    int64_t woken = 0;
    if (pi_waiters_on(e, addr)) return -EINVAL; /* kernel/futex/waitwake.c futex_wake: a PI waiter */
    while (woken < n) {
        emu_thread *oldest = NULL;
        for (int i = 0; i < EMU_MAX_THREADS; i++) {
            emu_thread *t = &e->threads[i];
            if (t->state == THREAD_FUTEX && t->futex_addr == addr && (t->futex_bitset & bitset) &&
                (!oldest || t->wait_seq < oldest->wait_seq))
                oldest = t;
        }
        if (!oldest) break;
        wake(oldest, 0);
        woken++;
    }
    return woken;
}

/* ---- scheduling ---- */

/* The next runnable thread after the current one in slot order (round robin), the
 * current one last; -1 when none. */
static int next_runnable(const emu_t *e) {
    for (int k = 1; k <= EMU_MAX_THREADS; k++) {
        int i = (e->thread_cur + k) % EMU_MAX_THREADS;
        if (e->threads[i].state == THREAD_RUNNABLE || e->threads[i].state == THREAD_RUNNING) return i;
    }
    return -1;
}

static void deadlock(emu_t *e) {
    char list[300] = "";
    size_t len = 0;
    int shown = 0;
    for (int i = 0; i < EMU_MAX_THREADS && len < sizeof list - 60; i++) {
        const emu_thread *t = &e->threads[i];
        const char *sep = shown ? ", " : "";
        if (t->state == THREAD_FUTEX)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%d on futex 0x%" PRIx64 " at pc 0x%" PRIx64, sep,
                                    t->tid, t->futex_addr, t->h.pc - 4);
        else if (t->state == THREAD_IO) /* its pc is the ecall itself */
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%d %s at pc 0x%" PRIx64, sep, t->tid, t->io_what,
                                    t->h.pc);
        else if (t->state == THREAD_PAUSE)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%d in sigsuspend at pc 0x%" PRIx64, sep, t->tid,
                                    t->h.pc - 4);
        else continue;
        shown++;
    }
    if (e->threads_live == 1) /* the others have ended: "all 1 threads" read wrong */
        emu_fail(e, "deadlock: the one thread left waits and no timeout is pending (thread %s)", list);
    else emu_fail(e, "deadlock: all %d threads wait and no timeout is pending (thread %s)", e->threads_live, list);
}

/* The alarm is armed, not ignored, and some thread lets SIGALRM through or waits for it. */
static bool alarm_ends_a_wait(const emu_t *e) {
    if (!e->alarm_at_ns || e->sigaction_handler[SIGALRM_] == 1) return false;
    if (emu_thread_signal_target(e, SIGALRM_) >= 0) return true;
    for (int i = 0; i < EMU_MAX_THREADS; i++)
        if (e->threads[i].state == THREAD_IO && (e->threads[i].io_sigset & SIG_BIT(SIGALRM_))) return true;
    return false;
}

/* Every thread waits: the guest clock moves to the earliest deadline, whose waiters wake;
 * none pending is a deadlock (the run ends). True when one became runnable. */
static bool idle(emu_t *e) {
    uint64_t earliest = UINT64_MAX;
    int child_waiter = -1; /* the first thread in wait4/waitid */
    size_t host_n = 0;     /* the descriptors the host waiters wait for */
    for (int i = 0; i < EMU_MAX_THREADS; i++) {
        const emu_thread *t = &e->threads[i];
        if ((t->state == THREAD_FUTEX || t->state == THREAD_SLEEP || t->state == THREAD_IO) &&
            t->deadline_ns < earliest)
            earliest = t->deadline_ns;
        if (child_waiter < 0 && t->state == THREAD_IO && t->io_child) child_waiter = i;
        if (t->state == THREAD_IO) host_n += t->io_host_n;
    }
    struct pollfd *host_fds = host_n ? cs_malloc(host_n * sizeof *host_fds) : NULL;
    host_n = 0;
    for (int i = 0; host_fds && i < EMU_MAX_THREADS; i++) {
        const emu_thread *t = &e->threads[i];
        if (t->state == THREAD_IO && t->io_host_n) {
            memcpy(host_fds + host_n, t->io_host, t->io_host_n * sizeof *t->io_host);
            host_n += t->io_host_n;
        }
    }
    /* a thread waits for a child or for descriptors the outside makes ready, which run on the
     * host in real time: the guest's time passes with them, up to the earliest deadline (a Go
     * parent's sysmon sleeps and its exec.CommandContext timeout must not all come due at once
     * while the child works); with no deadline the host waits for any of them at once (before,
     * a thread waiting for such descriptors held every other one: a Go parent's netpoller
     * waited for its killed child's pipes while its own Wait goroutine could not run) */
    if ((child_waiter >= 0 && earliest != UINT64_MAX) || host_n) {
        uint64_t before = emu_guest_clock_ns(e);
        uint64_t until = earliest;
        if (alarm_ends_a_wait(e) && (until == UINT64_MAX || emu_alarm_budget(e) < until - before))
            until = before + emu_alarm_budget(e);
        if (until > before)
            e->slept_ns += emu_wait_host_for(e, child_waiter >= 0, host_fds, host_n,
                                             until == UINT64_MAX ? UINT64_MAX : until - before);
        free(host_fds);
        if (e->status != EMU_RUNNING) return false;
        for (int i = 0; i < EMU_MAX_THREADS; i++) { /* ready now: its call runs again */
            emu_thread *t = &e->threads[i];
            if (t->state == THREAD_IO && t->io_host_n && poll(t->io_host, t->io_host_n, 0) > 0) wake_retry(t, false);
        }
        emu_thread *cur = current(e); /* another process' signal may have come meanwhile */
        cur->ctx.sig_pending = e->ctx.sig_pending;
        if (emu_signal_handler_ready(e) && waiting(cur)) interrupt(e, cur);
        if (next_runnable(e) >= 0) return true; /* a child changed, a descriptor is ready: its waiter runs again */
        if (until == UINT64_MAX) return true;   /* a signal nobody takes: wait again */
    }
    uint64_t now = emu_guest_clock_ns(e);
    /* the alarm comes first, and a thread would take it (its handler interrupts the thread's
     * wait, or its sigtimedwait ends; signal.c routes it as Linux, emu_thread_signal_target) */
    if (alarm_ends_a_wait(e) && (earliest == UINT64_MAX || emu_alarm_budget(e) < earliest - now)) {
        e->slept_ns += emu_alarm_budget(e);
        emu_alarm_fire(e);
        if (e->status != EMU_RUNNING) return false;
        emu_thread *cur = current(e);
        cur->ctx.sig_pending = e->ctx.sig_pending;
        if (emu_signal_handler_ready(e) && waiting(cur)) interrupt(e, cur);
        return true;
    }
    if (earliest == UINT64_MAX) {
        /* a thread waiting for a child, every other one waiting with no deadline: its wait4 or
         * waitid runs again and waits on the host (as with one thread), the others held */
        if (child_waiter >= 0) {
            wake_retry(&e->threads[child_waiter], false);
            e->threads[child_waiter].io_child_hold = true;
            return true;
        }
        /* while another process of the tree may signal this one, it waits for that, as
         * Linux's process would, and the thread the signal reaches wakes (process.c, §15) */
        if (!emu_wait_tree_signal(e)) {
            deadlock(e);
            return false;
        }
        if (e->status != EMU_RUNNING) return false;
        emu_thread *cur = current(e);
        cur->ctx.sig_pending = e->ctx.sig_pending;
        if (emu_signal_handler_ready(e) && waiting(cur)) interrupt(e, cur);
        return true;
    }
    if (earliest > now) {
        if (e->opt.host_time) { /* the host's clock: wait for it, as the kernel would */
            uint64_t ns = earliest - now;
            struct timespec ts = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
            nanosleep(&ts, NULL);
        }
        e->slept_ns += earliest - now; /* the guest clock (unused by --host-time's clocks) */
    }
    wake_expired(e);
    return true;
}

/* Run thread `next` (its state is in its slot) instead of the current one, whose state
 * goes to its slot unless it is there already (it blocked: emu_thread_after_syscall); a
 * signal pending for it with a handler runs first. */
static void switch_to(emu_t *e, int next) {
    emu_thread *cur = current(e);
    if (cur->state == THREAD_RUNNING) { /* preempted or yielding (one that blocked is saved) */
        cur->state = THREAD_RUNNABLE;
        thread_save(e, cur);
    }
    e->thread_cur = next;
    emu_thread *t = current(e);
    t->state = THREAD_RUNNING;
    thread_load(e, t);
    e->quantum_end = e->icount + emu_thread_quantum(e);
    if (emu_signal_handler_ready(e) && t->io_retry) {
        /* a call woken to run again meets a handler first: one that wrote part of its bytes
         * returns their count (as Linux's pipe_write when a signal comes); any other runs
         * again, from the start, after the handler */
        if (t->io_partial) e->h.pc += 4, e->h.x[10] = t->io_partial;
        io_forget(t);
    }
    if (emu_signal_handler_ready(e) || e->ctx.sig_restore_mask) emu_signal_deliver(e);
    else emu_signal_act_now(e);
}

/* Choose who runs now that the current thread blocked, yielded or exited (the hart's pc is
 * where it goes on), going idle while every thread waits. False when the run ended. */
static bool reschedule(emu_t *e) {
    wake_expired(e);
    int next;
    while ((next = next_runnable(e)) < 0)
        if (!idle(e)) return false;
    if (next == e->thread_cur && current(e)->state == THREAD_RUNNING) {
        e->quantum_end = e->icount + emu_thread_quantum(e);
        return true;
    }
    switch_to(e, next);
    return true;
}

uint64_t emu_thread_budget(emu_t *e) {
    if (e->icount >= e->quantum_end) emu_thread_preempt(e);
    return e->quantum_end > e->icount ? e->quantum_end - e->icount : 1;
}

/* The RISC-V's forward-progress guarantee for a constrained LR/SC loop (unprivileged spec,
 * "Eventual Success of Store-Conditional Instructions": at most 16 instructions from the LR to
 * its SC): a quantum that ends while an LR's reservation is held runs on, an instruction at a
 * time, up to that many, so that a quantum shorter than the loop cannot fail its SC forever. */
enum { LRSC_GRACE_MAX = 16 };

bool emu_thread_preempt(emu_t *e) {
    if (!e->threads || e->status != EMU_RUNNING || e->icount < e->quantum_end) return false;
    if (e->h.reserved && e->lrsc_grace < LRSC_GRACE_MAX) {
        e->lrsc_grace++;
        e->quantum_end = e->icount + 1;
        return false;
    }
    e->lrsc_grace = 0;
    int before = e->thread_cur;
    reschedule(e);
    /* between chunks the hart's pc is where the next one starts, a handler's that switch_to
     * set up included: left set, the flag made the first ecall of that chunk run twice (the
     * loop took it for a redirect of its own and did not step past it; Go's SIGURG and
     * signal.Notify handlers call futex, which ran again with its result as the address) */
    e->sig_redirect = false;
    return e->thread_cur != before;
}

/* The end of a system call that blocked the thread, ended it or yielded: the thread's
 * next pc is after the ecall (or the handler emu_syscall set up), and another runs. */
void emu_thread_after_syscall(emu_t *e) {
    e->thread_switch = false;
    bool retry = e->syscall_retry;
    e->syscall_retry = false;
    if (e->status != EMU_RUNNING) return;
    if (!e->sig_redirect && !retry) e->h.pc += 4; /* a THREAD_IO wait stays at its ecall */
    emu_thread *cur = current(e);
    if (cur->state != THREAD_RUNNING && cur->state != THREAD_FREE) /* blocked: its slot holds it */
        thread_save(e, cur);                                       /* from now, for wake() */
    if (!reschedule(e)) return;
    e->sig_redirect = true; /* the loop goes on at the hart's pc: this thread's or another's */
}

/* ---- the system calls ---- */

int64_t emu_sys_clone(emu_t *e, uint64_t flags, uint64_t newsp, uint64_t ptid, uint64_t tls, uint64_t ctid) {
    if ((flags & THREAD_NEEDED) != THREAD_NEEDED || (flags & ~(uint64_t)THREAD_ALLOWED))
        return EMU_CLONE_REFUSED; /* a fork, a vfork, namespaces: not served (syscall.c warns) */
    if (!e->threads) threads_start(e);
    int slot = -1;
    for (int i = 0; i < EMU_MAX_THREADS && slot < 0; i++)
        if (e->threads[i].state == THREAD_FREE) slot = i;
    if (slot < 0) {
        if (!e->thread_cap_warned && !e->opt.quiet)
            fprintf(stderr,
                    "cyclescope: %s: warning: clone of a thread beyond the %d cyclescope runs returns -EAGAIN "
                    "(pc 0x%" PRIx64 ")\n",
                    e->path, EMU_MAX_THREADS, e->h.pc);
        e->thread_cap_warned = true;
        return -EAGAIN;
    }
    int32_t tid = thread_new_tid(e);
    /* Linux writes both before the child runs (kernel/fork.c copy_process) */
    if ((flags & CLONE_PARENT_SETTID_) && guest_put(e, ptid, &tid, 4)) return -EFAULT;
    if ((flags & CLONE_CHILD_SETTID_) && guest_put(e, ctid, &tid, 4)) return -EFAULT;
    emu_thread *t = &e->threads[slot];
    struct pollfd *io_host = t->io_host; /* the slot's, reused */
    size_t io_host_cap = t->io_host_cap;
    memset(t, 0, sizeof *t);
    t->io_host = io_host;
    t->io_host_cap = io_host_cap;
    thread_save(e, t); /* the parent's registers, mask and handlers' state */
    t->state = THREAD_RUNNABLE;
    t->tid = tid;
    t->h.pc = e->h.pc + 4; /* after the ecall, as the parent */
    t->h.x[10] = 0;        /* clone returns 0 in the child */
    if (newsp) t->h.x[2] = newsp;
    if (flags & CLONE_SETTLS_) t->h.x[4] = tls;
    t->h.reserved = false;
    t->ctx.clear_child_tid = (flags & CLONE_CHILD_CLEARTID_) ? ctid : 0;
    t->ctx.robust_list = 0; /* the child's own (kernel/fork.c copy_process) */
    t->ctx.sig_pending = 0; /* thread-directed pending signals are the parent's own */
    t->ctx.sig_restore_mask = false;
    /* a CLONE_VM child without CLONE_VFORK starts with no alternate stack (kernel/fork.c) */
    t->ctx.altstack_sp = t->ctx.altstack_size = 0;
    t->ctx.altstack_autodisarm = false;
    e->threads_live++;
    emu_tree_threads_changed(e); /* a kill of its tid from another process finds it; its count */
    return tid;
}

/* handle_futex_death() of kernel/futex/core.c: the futex word at uaddr held by the exiting
 * thread `tid` gets FUTEX_OWNER_DIED (its FUTEX_WAITERS bit kept) and one waiter is woken,
 * so the next pthread_mutex_lock of a robust mutex returns EOWNERDEAD. */
/* A PI futex's waiters wake in the exit path (pi_exit_handoff), not here; a pending non-PI
 * one whose word has no owner any more wakes a waiter without touching the word (the owner
 * died between its unlock and its wake: kernel/futex/core.c, handle_futex_death). */
static void futex_death(emu_t *e, uint64_t uaddr, int32_t tid, bool pi, bool pending) {
    uint32_t word;
    if ((uaddr & 3) || guest_get(e, uaddr, &word, 4)) return;
    if (pending && !pi && !(word & FUTEX_TID_MASK_)) {
        futex_wake(e, uaddr, 1, ~0u);
        return;
    }
    if ((word & FUTEX_TID_MASK_) != (uint32_t)tid) return;
    uint32_t died = (word & FUTEX_WAITERS_) | FUTEX_OWNER_DIED_;
    if (guest_put(e, uaddr, &died, 4)) return;
    if (!pi && (word & FUTEX_WAITERS_)) futex_wake(e, uaddr, 1, ~0u);
}

/* exit_robust_list(): the list set_robust_list named — struct robust_list_head { next;
 * long futex_offset; list_op_pending } — each entry's futex (entry + futex_offset) and the
 * pending one, at most ROBUST_LIST_LIMIT (2048) entries, as the kernel walks it. Bit 0 of a
 * pointer says the entry it points to is a PI futex. */
static void walk_robust_list(emu_t *e, uint64_t head, int32_t tid) {
    uint64_t h[3];
    if (!head || guest_get(e, head, h, sizeof h)) return;
    int64_t offset = (int64_t)h[1];
    uint64_t pending = h[2] & ~1ull, entry = h[0] & ~1ull;
    bool pending_pi = h[2] & 1, pi = h[0] & 1;
    for (int n = 0; entry != head && n < 2048; n++) {
        uint64_t next;
        if (guest_get(e, entry, &next, 8)) break; /* read before the word changes hands */
        if (entry != pending) futex_death(e, entry + (uint64_t)offset, tid, pi, false);
        entry = next & ~1ull;
        pi = next & 1;
    }
    if (pending) futex_death(e, pending + (uint64_t)offset, tid, pending_pi, true);
}

/* ---- PI futexes (kernel/futex/pi.c, requeue.c) ---- */

static bool pi_waiting(const emu_thread *t) {
    return t->state == THREAD_FUTEX && (t->futex_pi == PI_LOCK || t->futex_pi == PI_REQUEUED);
}

/* Any waiter the plain operations must not touch at addr (futex_wake's and futex_requeue's
 * -EINVAL): one that waits to own it, or a FUTEX_WAIT_REQUEUE_PI waiter on it. */
static bool pi_waiters_on(const emu_t *e, uint64_t addr) {
    for (int i = 0; e->threads && i < EMU_MAX_THREADS; i++) {
        const emu_thread *t = &e->threads[i];
        if (t->state == THREAD_FUTEX && t->futex_addr == addr && t->futex_pi != PI_NONE) return true;
    }
    return false;
}

/* The oldest thread waiting to own the PI futex at addr (rt_mutex's top waiter: equal
 * priorities, FIFO), or NULL. */
static emu_thread *pi_top_waiter(emu_t *e, uint64_t addr) {
    emu_thread *top = NULL;
    for (int i = 0; e->threads && i < EMU_MAX_THREADS; i++) {
        emu_thread *t = &e->threads[i];
        if (pi_waiting(t) && t->futex_addr == addr && (!top || t->wait_seq < top->wait_seq)) top = t;
    }
    return top;
}

/* futex_lock_pi_atomic() for thread `tid`: 1 when it took the futex (a word without owner:
 * its tid, FUTEX_OWNER_DIED kept, FUTEX_WAITERS with `set_waiters`); 0 when it must wait for
 * *owner (the word has FUTEX_WAITERS); else -errno: -EDEADLK its own, -ESRCH an owner that is
 * no thread of the process (FUTEX_WAITERS set all the same, as Linux), -EINVAL a word whose
 * owner is not the one the waiters wait for. */
static int64_t pi_lock_atomic(emu_t *e, uint64_t addr, int32_t tid, bool set_waiters, int32_t *owner) {
    uint32_t word;
    if (guest_get(e, addr, &word, 4)) return -EFAULT;
    if ((word & FUTEX_TID_MASK_) == (uint32_t)tid) return -EDEADLK;
    emu_thread *top = pi_top_waiter(e, addr);
    if (top) { /* attach_to_pi_state: the word names the owner they wait for */
        if ((word & FUTEX_TID_MASK_) != (uint32_t)top->futex_pi_owner) return -EINVAL;
        *owner = top->futex_pi_owner;
        return 0;
    }
    if (!(word & FUTEX_TID_MASK_)) {
        uint32_t taken = (word & FUTEX_OWNER_DIED_) | (uint32_t)tid | (set_waiters ? FUTEX_WAITERS_ : 0);
        return guest_put(e, addr, &taken, 4) ? -EFAULT : 1;
    }
    uint32_t waiters = word | FUTEX_WAITERS_;
    if (guest_put(e, addr, &waiters, 4)) return -EFAULT;
    int32_t o = (int32_t)(word & FUTEX_TID_MASK_);
    if (!thread_of_tid(e, o)) return -ESRCH; /* attach_to_pi_owner: no such task */
    *owner = o;
    return 0;
}

/* rt_mutex's deadlock detection (the futex's full chain walk): owner waits, PI futex after
 * PI futex, for a futex tid owns. */
static bool pi_chain_reaches(emu_t *e, int32_t owner, int32_t tid) {
    for (int n = 0; n < EMU_MAX_THREADS; n++) {
        if (owner == tid) return true;
        const emu_thread *o = thread_of_tid(e, owner);
        if (!o || !pi_waiting(o)) return false;
        owner = o->futex_pi_owner;
    }
    return false;
}

/* Thread t waits to own the PI futex at addr, owned by `owner`. */
static void pi_block(emu_t *e, emu_thread *t, uint64_t addr, int32_t owner, uint8_t kind) {
    t->state = THREAD_FUTEX;
    t->futex_pi = kind;
    t->futex_addr = addr;
    t->futex_bitset = ~0u;
    t->futex_pi_owner = owner;
    t->wait_seq = e->wait_seq_next++;
}

/* The futex at addr goes to its oldest waiter, which returns 0 owning it: the word its tid
 * with FUTEX_WAITERS (kept while the kernel has PI state: wake_futex_pi) and, when the owner
 * died (`keep_died`, exit_pi_state_list then fixup_pi_state_owner), FUTEX_OWNER_DIED kept. */
static void pi_hand_over(emu_t *e, emu_thread *next, uint64_t addr, bool keep_died) {
    uint32_t word = 0;
    if (guest_get(e, addr, &word, 4)) return;
    uint32_t owned = (keep_died ? word & FUTEX_OWNER_DIED_ : 0) | FUTEX_WAITERS_ | (uint32_t)next->tid;
    if (guest_put(e, addr, &owned, 4)) return;
    wake(next, 0);
    for (int i = 0; i < EMU_MAX_THREADS; i++) /* the others now wait for the new owner */
        if (pi_waiting(&e->threads[i]) && e->threads[i].futex_addr == addr) e->threads[i].futex_pi_owner = next->tid;
}

/* exit_pi_state_list(): the PI futexes an exiting thread still owns with waiters go to their
 * oldest waiter each (after the robust list set FUTEX_OWNER_DIED in those it listed). */
static void pi_exit_handoff(emu_t *e, int32_t tid) {
    for (;;) {
        emu_thread *next = NULL;
        for (int i = 0; i < EMU_MAX_THREADS && !next; i++)
            if (pi_waiting(&e->threads[i]) && e->threads[i].futex_pi_owner == tid) next = &e->threads[i];
        if (!next) return;
        next = pi_top_waiter(e, next->futex_addr);
        pi_hand_over(e, next, next->futex_addr, true);
    }
}

/* An absolute futex timeout (FUTEX_LOCK_PI: CLOCK_REALTIME; LOCK_PI2, WAIT_BITSET,
 * WAIT_REQUEUE_PI: CLOCK_MONOTONIC unless FUTEX_CLOCK_REALTIME) as a deadline on the guest's
 * monotonic clock; UINT64_MAX without one. */
static int64_t futex_abs_deadline(emu_t *e, uint64_t timeout, bool realtime, uint64_t *deadline) {
    *deadline = UINT64_MAX;
    if (!timeout) return 0;
    int64_t ts[2];
    if (guest_get(e, timeout, ts, sizeof ts)) return -EFAULT;
    if (ts[0] < 0 || ts[1] < 0 || ts[1] > 999999999) return -EINVAL;
    uint64_t ns = (uint64_t)ts[0] > UINT64_MAX / 2000000000ull ? UINT64_MAX / 2
                                                               : (uint64_t)ts[0] * 1000000000ull + (uint64_t)ts[1];
    uint64_t now_mono = emu_guest_clock_ns(e), now = emu_guest_time_ns(e, !realtime);
    *deadline = ns > now ? now_mono + (ns - now) : now_mono;
    return 0;
}

static int64_t futex_pi(emu_t *e, unsigned op, uint64_t addr, uint64_t op_word, uint64_t val, uint64_t timeout,
                        uint64_t addr2, uint64_t val3) {
    int32_t tid = emu_thread_tid(e), owner = 0;
    uint64_t deadline;
    switch (op) {
    case FUTEX_LOCK_PI_:
    case FUTEX_LOCK_PI2_:
    case FUTEX_TRYLOCK_PI_: {
        if (op != FUTEX_TRYLOCK_PI_) {
            int64_t bad =
                futex_abs_deadline(e, timeout, op == FUTEX_LOCK_PI_ || (op_word & FUTEX_CLOCK_REALTIME_), &deadline);
            if (bad) return bad;
        }
        int64_t got = pi_lock_atomic(e, addr, tid, false, &owner);
        if (got != 0) return got == 1 ? 0 : got;
        if (op == FUTEX_TRYLOCK_PI_) return -EAGAIN; /* FUTEX_WAITERS stays set, as Linux */
        if (pi_chain_reaches(e, owner, tid)) return -EDEADLK;
        if (deadline <= emu_guest_clock_ns(e)) return -ETIMEDOUT;
        if (emu_signal_handler_ready(e)) return -EMU_ERESTARTNOINTR; /* the handler, then again */
        emu_thread *t = current(e);
        pi_block(e, t, addr, owner, PI_LOCK);
        t->restart_a0 = addr;
        t->deadline_ns = deadline;
        e->thread_switch = true;
        return 0; /* the result is the unlocker's (pi_hand_over) or the timeout's */
    }
    case FUTEX_UNLOCK_PI_: {
        uint32_t word;
        if (guest_get(e, addr, &word, 4)) return -EFAULT;
        if ((word & FUTEX_TID_MASK_) != (uint32_t)tid) return -EPERM;
        emu_thread *next = pi_top_waiter(e, addr);
        if (next) {
            pi_hand_over(e, next, addr, false);
            return 0;
        }
        uint32_t zero = 0; /* no waiter: neither FUTEX_WAITERS nor FUTEX_OWNER_DIED kept */
        return guest_put(e, addr, &zero, 4) ? -EFAULT : 0;
    }
    case FUTEX_WAIT_REQUEUE_PI_: {
        if (addr == addr2 || !(uint32_t)val3) return -EINVAL;
        int64_t bad = futex_abs_deadline(e, timeout, op_word & FUTEX_CLOCK_REALTIME_, &deadline);
        if (bad) return bad;
        if (addr2 & 3) return -EINVAL;
        uint32_t v;
        if (guest_get(e, addr, &v, 4)) return -EFAULT;
        if (v != (uint32_t)val) return -EAGAIN;
        if (deadline <= emu_guest_clock_ns(e)) return -ETIMEDOUT;
        if (emu_signal_handler_ready(e)) return -EMU_ERESTARTNOINTR;
        if (!e->threads) return EMU_FUTEX_FOREVER; /* one thread: nobody can requeue it */
        emu_thread *t = current(e);
        pi_block(e, t, addr, 0, PI_REQUEUE_WAIT);
        t->futex_bitset = (uint32_t)val3;
        t->futex_pi_key2 = addr2;
        t->restart_a0 = addr;
        t->deadline_ns = deadline;
        e->thread_switch = true;
        return 0;
    }
    case FUTEX_CMP_REQUEUE_PI_: {
        int32_t nr_wake = (int32_t)val, nr_requeue = (int32_t)timeout; /* val2: the timeout's slot */
        if (nr_wake < 0 || nr_requeue < 0 || addr == addr2 || nr_wake != 1) return -EINVAL;
        if (addr2 & 3) return -EINVAL;
        uint32_t v;
        if (guest_get(e, addr, &v, 4)) return -EFAULT;
        if (v != (uint32_t)val3) return -EAGAIN;
        /* the waiters on addr, oldest first; each must be a WAIT_REQUEUE_PI waiter for addr2 */
        int64_t count = 0;
        bool first = true;
        for (;;) {
            emu_thread *w = NULL;
            for (int i = 0; e->threads && i < EMU_MAX_THREADS; i++) {
                emu_thread *t = &e->threads[i];
                if (t->state == THREAD_FUTEX && t->futex_addr == addr && t->futex_pi != PI_LOCK &&
                    t->futex_pi != PI_REQUEUED && (!w || t->wait_seq < w->wait_seq))
                    w = t;
            }
            if (!w || count - nr_wake >= nr_requeue) break;
            if (w->futex_pi != PI_REQUEUE_WAIT || w->futex_pi_key2 != addr2) return count ? count : -EINVAL;
            if (first) { /* futex_proxy_trylock_atomic: the oldest may take addr2 at once */
                first = false;
                int64_t got = pi_lock_atomic(e, addr2, w->tid, nr_requeue != 0, &owner);
                if (got < 0) return got;
                if (got == 1) {
                    wake(w, 0);
                    count++;
                    continue;
                }
            } else if (!pi_top_waiter(e, addr2)) { /* the futex was just taken: its owner */
                uint32_t word;
                if (guest_get(e, addr2, &word, 4)) return count;
                owner = (int32_t)(word & FUTEX_TID_MASK_);
            }
            /* rt_mutex_start_proxy_lock: it waits to own addr2; the requeue stops at a deadlock */
            if (pi_chain_reaches(e, owner, w->tid)) return count ? count : -EDEADLK;
            w->futex_pi = PI_REQUEUED;
            w->futex_addr = addr2;
            w->futex_pi_owner = owner;
            w->wait_seq = e->wait_seq_next++;
            count++;
        }
        return count;
    }
    default: return -ENOSYS;
    }
}

bool emu_sys_thread_exit(emu_t *e) {
    if (!e->threads || e->threads_live <= 1) return false;    /* the last thread: the process ends */
    walk_robust_list(e, e->ctx.robust_list, current(e)->tid); /* kernel/exit.c: before mm_release */
    pi_exit_handoff(e, current(e)->tid);
    /* CLONE_CHILD_CLEARTID / set_tid_address: 0 there and a futex wake (kernel/fork.c
     * mm_release), which pthread_join waits for */
    if (e->ctx.clear_child_tid) {
        uint32_t zero = 0;
        if (guest_put(e, e->ctx.clear_child_tid, &zero, 4) == 0) futex_wake(e, e->ctx.clear_child_tid, 1, ~0u);
    }
    emu_thread *t = current(e);
    emu_signal_requeue(e, 0, t->tid, -1); /* its own queued real-time signals go with it */
    t->state = THREAD_FREE;
    e->threads_live--;
    emu_tree_threads_changed(e);
    e->thread_switch = true;
    return true;
}

/* FUTEX_WAKE_OP's encoded operation (kernel/futex/waitwake.c futex_atomic_op_inuser,
 * arch_futex_atomic_op_inuser): *addr2 = oldval OP oparg, then whether oldval CMP cmparg.
 * -ENOSYS for an operation or comparison Linux does not know (a comparison after the word
 * changed, as Linux), -EFAULT, else 0 or 1. */
static int64_t futex_wake_op_word(emu_t *e, uint64_t addr2, uint32_t encoded) {
    unsigned op = (encoded >> 28) & 7, cmp = (encoded >> 24) & 15;
    int32_t oparg = (int32_t)(encoded << 8) >> 20;                    /* bits 12..23, sign-extended */
    int32_t cmparg = (int32_t)(encoded << 20) >> 20;                  /* bits 0..11, sign-extended */
    if (encoded & 0x80000000u) oparg = (int32_t)(1u << (oparg & 31)); /* FUTEX_OP_OPARG_SHIFT */
    if (op > 4) return -ENOSYS;
    uint32_t old;
    if (guest_get(e, addr2, &old, 4)) return -EFAULT;
    uint32_t arg = (uint32_t)oparg, now;
    switch (op) {
    case 0: now = arg; break;
    case 1: now = old + arg; break;
    case 2: now = old | arg; break;
    case 3: now = old & ~arg; break;
    default: now = old ^ arg; break;
    }
    if (guest_put(e, addr2, &now, 4)) return -EFAULT;
    int32_t o = (int32_t)old;
    switch (cmp) {
    case 0: return o == cmparg;
    case 1: return o != cmparg;
    case 2: return o < cmparg;
    case 3: return o <= cmparg;
    case 4: return o > cmparg;
    case 5: return o >= cmparg;
    default: return -ENOSYS; /* as Linux, after the word was changed */
    }
}

int64_t emu_sys_futex(emu_t *e, uint64_t addr, uint64_t op_word, uint64_t val, uint64_t timeout, uint64_t addr2,
                      uint64_t val3) {
    unsigned op = (unsigned)op_word & ~(unsigned)(FUTEX_PRIVATE_FLAG_ | FUTEX_CLOCK_REALTIME_);
    /* kernel/futex/syscalls.c do_futex: the clock flag only where a timeout may be absolute */
    if ((op_word & FUTEX_CLOCK_REALTIME_) && op != FUTEX_WAIT_BITSET_ && op != FUTEX_WAIT_REQUEUE_PI_ &&
        op != FUTEX_LOCK_PI2_)
        return -ENOSYS;
    if (addr & 3) return -EINVAL;
    switch (op) {
    case FUTEX_LOCK_PI_:
    case FUTEX_LOCK_PI2_:
    case FUTEX_TRYLOCK_PI_:
    case FUTEX_UNLOCK_PI_:
    case FUTEX_WAIT_REQUEUE_PI_:
    case FUTEX_CMP_REQUEUE_PI_: return futex_pi(e, op, addr, op_word, val, timeout, addr2, val3);
    case FUTEX_WAIT_:
    case FUTEX_WAIT_BITSET_: {
        uint32_t bitset = op == FUTEX_WAIT_ ? ~0u : (uint32_t)val3;
        if (!bitset) return -EINVAL;
        uint32_t v;
        if (guest_get(e, addr, &v, 4)) return -EFAULT;
        if (v != (uint32_t)val) return -EAGAIN;
        if (emu_signal_handler_ready(e)) return -EINTR; /* a handler to run first, as Linux */
        uint64_t deadline = UINT64_MAX;
        if (timeout) {
            int64_t ts[2];
            if (guest_get(e, timeout, ts, sizeof ts)) return -EFAULT;
            if (ts[0] < 0 || ts[1] < 0 || ts[1] > 999999999) return -EINVAL;
            uint64_t ns = (uint64_t)ts[0] > UINT64_MAX / 2000000000ull
                ? UINT64_MAX / 2
                : (uint64_t)ts[0] * 1000000000ull + (uint64_t)ts[1];
            uint64_t now_mono = emu_guest_clock_ns(e);
            if (op == FUTEX_WAIT_) { /* relative, on the monotonic clock */
                deadline = now_mono + ns;
            } else { /* absolute on CLOCK_MONOTONIC, or CLOCK_REALTIME with the flag */
                uint64_t now =
                    (op_word & FUTEX_CLOCK_REALTIME_) ? emu_guest_time_ns(e, false) : emu_guest_time_ns(e, true);
                deadline = ns > now ? now_mono + (ns - now) : now_mono;
            }
            if (deadline <= now_mono) return -ETIMEDOUT;
        }
        emu_thread *t = current(e);
        t->state = THREAD_FUTEX;
        t->restart_a0 = addr; /* a0, for a restart after an SA_RESTART handler */
        t->futex_addr = addr;
        t->futex_bitset = bitset;
        t->wait_seq = e->wait_seq_next++;
        t->deadline_ns = deadline;
        e->thread_switch = true;
        return 0; /* the result is the waker's (wake), written into the saved registers */
    }
    case FUTEX_WAKE_:
    case FUTEX_WAKE_BITSET_: {
        uint32_t bitset = op == FUTEX_WAKE_ ? ~0u : (uint32_t)val3;
        if (!bitset) return -EINVAL;
        if (!e->threads) return 0; /* nobody waits */
        return futex_wake(e, addr, (int64_t)(uint32_t)val, bitset);
    }
    case FUTEX_REQUEUE_:
    case FUTEX_CMP_REQUEUE_: {
        if (addr2 & 3) return -EINVAL;
        if (op == FUTEX_CMP_REQUEUE_) {
            uint32_t v;
            if (guest_get(e, addr, &v, 4)) return -EFAULT;
            if (v != (uint32_t)val3) return -EAGAIN;
        }
        if (!e->threads) return 0;
        if (pi_waiters_on(e, addr)) return -EINVAL; /* futex_requeue: a requeue-PI waiter */
        /* val wake; then up to val2 (the timeout argument's slot) move to addr2 */
        int64_t woken = futex_wake(e, addr, (int64_t)(uint32_t)val, ~0u);
        int64_t moved = 0, limit = (int64_t)(uint32_t)timeout;
        for (int i = 0; i < EMU_MAX_THREADS && moved < limit; i++) {
            emu_thread *t = &e->threads[i];
            if (t->state == THREAD_FUTEX && t->futex_addr == addr) t->futex_addr = addr2, moved++;
        }
        return op == FUTEX_CMP_REQUEUE_ ? woken + moved : woken;
    }
    case FUTEX_WAKE_OP_: { /* val wake at addr; then, if the comparison holds, val2 (the timeout's slot) at addr2 */
        if (addr2 & 3) return -EINVAL;
        int64_t holds = futex_wake_op_word(e, addr2, (uint32_t)val3);
        if (holds < 0) return holds;
        if (!e->threads) return 0;
        int64_t woken = futex_wake(e, addr, (int64_t)(uint32_t)val, ~0u), more = 0;
        if (woken >= 0 && holds) more = futex_wake(e, addr2, (int64_t)(uint32_t)timeout, ~0u);
        if (woken < 0 || more < 0) return -EINVAL;
        woken += more;
        return woken;
    }
    default: return -ENOSYS; /* FUTEX_FD (gone since Linux 2.6.26), unknown operations: as Linux */
    }
}

bool emu_thread_sleep(emu_t *e, uint64_t ns, uint64_t rem) {
    if (!e->threads || e->threads_live <= 1) return false; /* one thread: syscall.c's sleep */
    emu_thread *t = current(e);
    uint64_t now = emu_guest_clock_ns(e);
    t->state = THREAD_SLEEP;
    t->sleep_rem = rem;
    t->deadline_ns = now + ns >= now ? now + ns : UINT64_MAX - 1;
    e->thread_switch = true;
    return true;
}

void emu_sys_sched_yield(emu_t *e) {
    if (e->threads && e->threads_live > 1) e->thread_switch = true;
}

/* A signal for thread t (not the running one) from tgkill, or a process-directed one
 * routed to it: ignored, the process' default action, or pending for t, waking it with EINTR
 * when it lets it through (pthread_cancel's SIGCANCEL), or its sigwait when it waits for it. */
static bool signal_thread(emu_t *e, emu_thread *t, int64_t sig, int32_t code, int32_t pid, uint64_t value,
                          const char *cause) {
    uint64_t handler = e->sigaction_handler[sig], bit = SIG_BIT(sig);
    if (!(t->ctx.sig_blocked & bit) && handler <= 1) { /* SIG_IGN, or SIG_DFL: the process' action */
        emu_signal_act(e, sig, cause);                 /* (killed, or nothing happens) */
        return true;
    }
    if (!emu_signal_note(e, (int)sig, t->tid, (t->ctx.sig_pending & bit) != 0, code, pid, value)) return false;
    t->ctx.sig_pending |= bit;
    if (!(t->ctx.sig_blocked & bit) && waiting(t)) interrupt(e, t);
    else if (t->state == THREAD_IO && (t->io_sigset & bit)) wake_retry(t, false);
    return true;
}

int64_t emu_sys_tgkill(emu_t *e, int64_t tgid, int64_t tid, int64_t sig) {
    if (tgid != -1 && tgid != e->vpid) return -ESRCH;
    if (tid == emu_thread_tid(e)) return emu_sys_self_signal(e, sig, GUEST_SI_TKILL);
    emu_thread *t = thread_of_tid(e, tid);
    if (!t) return -ESRCH;
    if (sig == 0) return 0;
    if (sig < 1 || sig > 64) return -EINVAL;
    signal_thread(e, t, sig, GUEST_SI_TKILL, e->vpid, 0, "sent by the program itself");
    return 0;
}

int64_t emu_thread_sigqueue(emu_t *e, int64_t tid, int64_t sig, int32_t code, int32_t pid, uint64_t value) {
    emu_thread *t = thread_of_tid(e, tid);
    if (!t) return -ESRCH;
    return signal_thread(e, t, sig, code, pid, value, "sent by the program itself (sigqueue)") ? 0 : -EAGAIN;
}

/* Linux's complete_signal(): the main thread when it does not block the signal, else the
 * first thread (in creation order: slot order) that does not; -1 when all block it. */
int emu_thread_signal_target(const emu_t *e, int sig) {
    uint64_t bit = SIG_BIT(sig);
    int first = -1;
    for (int i = 0; i < EMU_MAX_THREADS; i++) {
        const emu_thread *t = &e->threads[i];
        if (t->state == THREAD_FREE) continue;
        uint64_t blocked = i == e->thread_cur ? e->ctx.sig_blocked : t->ctx.sig_blocked;
        if (blocked & bit) continue;
        if (t->tid == e->vpid) return i;
        if (first < 0) first = i;
    }
    return first;
}

bool emu_thread_signal_other(emu_t *e, int slot, int64_t sig, int32_t code, int32_t pid, uint64_t value,
                             const char *cause) {
    return signal_thread(e, &e->threads[slot], sig, code, pid, value, cause);
}

void emu_thread_sigwait_wake(emu_t *e, uint64_t bit) {
    for (int i = 0; i < EMU_MAX_THREADS; i++) {
        emu_thread *t = &e->threads[i];
        if (t->state == THREAD_IO && (t->io_sigset & bit)) wake_retry(t, false);
    }
}

void emu_thread_set_sigwait(emu_t *e, uint64_t set) { current(e)->io_sigset = set; }

int64_t emu_thread_block_io(emu_t *e, const char *what, uint64_t deadline_ns, bool restartable) {
    if (!e->threads || e->threads_live <= 1) return 0;
    if (emu_signal_handler_ready(e)) return -EINTR; /* a handler to run first, as Linux */
    emu_thread *t = current(e);
    if (!t->io_retry) t->deadline_ns = deadline_ns; /* run again: the first wait's deadline */
    t->io_retry = t->io_timed_out = false;
    t->io_host_n = 0; /* emu_thread_block_host sets it after */
    t->state = THREAD_IO;
    t->io_what = what;
    t->io_restartable = restartable;
    t->wait_seq = e->wait_seq_next++;
    e->thread_switch = true;
    e->syscall_retry = true;
    return 1;
}

int64_t emu_thread_block_child(emu_t *e) {
    if (!e->threads || e->threads_live <= 1) return 0;
    emu_thread *t = current(e);
    if (t->io_child_hold) return 0; /* idle() ran it again for the host's wait */
    int64_t waits = emu_thread_block_io(e, "waiting for a child", UINT64_MAX, true);
    if (waits == 1) t->io_child = true;
    return waits;
}

int64_t emu_thread_block_host(emu_t *e, const char *what, const struct pollfd *fds, size_t n, uint64_t deadline_ns,
                              bool restartable) {
    if (!e->threads || e->threads_live <= 1 || n == 0) return 0;
    emu_thread *t = current(e);
    int64_t waits = emu_thread_block_io(e, what, deadline_ns, restartable);
    if (waits == 1) {
        if (n > t->io_host_cap) {
            t->io_host = cs_realloc(t->io_host, n * sizeof *fds);
            t->io_host_cap = n;
        }
        memcpy(t->io_host, fds, n * sizeof *fds);
        t->io_host_n = n;
    }
    return waits;
}

void emu_thread_child_changed(emu_t *e) {
    if (!e->threads) return;
    for (int i = 0; i < EMU_MAX_THREADS; i++)
        if (e->threads[i].state == THREAD_IO && e->threads[i].io_child) wake_retry(&e->threads[i], false);
}

bool emu_thread_io_timed_out(const emu_t *e) { return e->threads && e->threads[e->thread_cur].io_timed_out; }

uint64_t emu_thread_io_partial(const emu_t *e) { return e->threads ? e->threads[e->thread_cur].io_partial : 0; }

void emu_thread_set_io_partial(emu_t *e, uint64_t bytes) {
    if (e->threads) current(e)->io_partial = bytes;
}

uint64_t emu_thread_io_partial_bytes(const emu_t *e) {
    return e->threads ? e->threads[e->thread_cur].io_partial_bytes : 0;
}

void emu_thread_set_io_partial_bytes(emu_t *e, uint64_t bytes) {
    if (e->threads) current(e)->io_partial_bytes = bytes;
}

uint64_t emu_thread_io_deadline(const emu_t *e) { return e->threads ? e->threads[e->thread_cur].io_deadline : 0; }

void emu_thread_set_io_deadline(emu_t *e, uint64_t deadline_ns) {
    if (e->threads) current(e)->io_deadline = deadline_ns;
}

void emu_thread_pipe_changed(emu_t *e) {
    if (!e->threads) return;
    for (int i = 0; i < EMU_MAX_THREADS; i++) /* not the caller: it changed the pipe itself */
        if (e->threads[i].state == THREAD_IO && i != e->thread_cur) wake_retry(&e->threads[i], false);
}

bool emu_thread_pause(emu_t *e) {
    if (!e->threads || e->threads_live <= 1) return false;
    emu_thread *t = current(e);
    t->state = THREAD_PAUSE;
    t->deadline_ns = UINT64_MAX;
    t->wait_seq = e->wait_seq_next++;
    e->thread_switch = true;
    return true;
}

void emu_thread_syscall_end(emu_t *e) {
    if (e->syscall_retry) return; /* it waits: the retry goes on */
    io_forget(current(e));
}

void emu_threads_free(emu_t *e) {
    for (int i = 0; e->threads && i < EMU_MAX_THREADS; i++) free(e->threads[i].io_host);
    free(e->threads);
    e->threads = NULL;
}
