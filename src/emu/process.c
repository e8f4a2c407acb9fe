/* Processes of the guest: fork and vfork (clone without CLONE_THREAD), wait4 and waitid of its
 * children, kill of a child, and execve (docs/sandbox.md §15).
 *
 * Notes (what it simplifies):
 * - A fork is a host fork() of cyclescope. The child goes on with the guest functionally only:
 *   it runs the emulator loop right here, inside the ecall of the parent's run loop, until the
 *   guest exits or execs, and _exits with the guest's status. It never returns into the timing
 *   model, the analyses or the progress bar, and never writes a report (atexit handlers and
 *   stdio buffers are the parent's). Only the calling thread survives (Linux semantics).
 * - Virtual pids: the first process is 1000 (GUEST_PID); children get 1100, 1200, ... from a
 *   counter the whole process tree shares, so a child's threads (tids pid+1, ...) never meet
 *   another process' pid. One table the whole tree shares (a memfd) maps every live process'
 *   virtual pid to its host pid: kill and getpgid find any process of the tree through it,
 *   and never signal a host process outside it. wait names the caller's own children.
 * - vfork (CLONE_VM|CLONE_VFORK, glibc's posix_spawn, hence popen and system) is a fork whose
 *   parent waits until the child execs or exits. The child's memory is a copy, whose changed
 *   pages the parent takes then (vfork_take_memory), so a posix_spawn whose exec fails
 *   returns the errno glibc's child wrote into its parent's memory, as on Linux.
 * - kill of another process reaches its guest (signal.c: its handlers, mask, ignored
 *   signals); kill of a group reaches the table's members of that group, of -1 every one.
 * - Process groups and sessions are virtual ids in the table (setpgid, setsid): the host's
 *   never change, so a terminal's Ctrl-C still reaches the whole tree.
 * - execve never runs a host binary: a RISC-V ELF (an absolute path under the guest library
 *   prefix first, emu_exec_path) (or a #! script whose interpreter is one)
 *   replaces the host process by `cyclescope exec --exec-state FD` on it, FD a memfd with the
 *   program, argv, exactly the guest's envp, the virtual pids, the sandbox options and the
 *   descriptors without FD_CLOEXEC (kept open on the host across the execve). Anything else
 *   fails with the errno Linux gives (ENOEXEC for a host x86 program, ENOENT, EACCES).
 * - A wait for a child blocks the host process, hence every thread of the guest.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emu_internal.h"

extern char **environ;

/* clone flags (include/uapi/linux/sched.h) a fork or vfork may carry */
enum {
    FORK_CSIGNAL = 0xff,
    FORK_CLONE_VM = 0x100,
    FORK_CLONE_VFORK = 0x4000,
    FORK_CLONE_PARENT_SETTID = 0x100000,
    FORK_CLONE_CHILD_CLEARTID = 0x200000,
    FORK_CLONE_CHILD_SETTID = 0x01000000,
};
/* A child's virtual pid is a multiple of this: its threads' tids (pid + 1, ...: thread.c,
 * at most EMU_MAX_THREADS) stay below the next process' pid. */
enum { VPID_STRIDE = EMU_PID_STRIDE };

#define EXEC_STATE_MAGIC "cyclescope-exec-state-5"

/* ---- SIGCHLD ---- */

volatile sig_atomic_t emu_host_child_ended;

static void on_host_sigchld(int sig) {
    (void)sig;
    emu_host_child_ended = 1;
}

/* Whether the guest has a handler for SIGCHLD (its default action does nothing). */
static bool guest_catches_sigchld(const emu_t *e) { return e->sigaction_handler[SIGCHLD] > 1; }

static void announce(emu_t *e, emu_child *c, int32_t code) {
    if (c->announced) return;
    c->announced = true;
    if (guest_catches_sigchld(e)) emu_signal_child_ended(e, c->vpid, code);
}

/* Child `c`'s pidfd, opened at the first wait that needs it (-1: the host has none). */
static int child_pidfd(emu_child *c) {
    if (c->pidfd < 0) c->pidfd = (int)syscall(SYS_pidfd_open, c->host, 0);
    return c->pidfd;
}

void emu_children_check(emu_t *e) {
    emu_host_child_ended = 0;
    emu_thread_child_changed(e);
    for (size_t i = 0; i < e->child_count; i++) {
        if (e->children[i].announced) continue;
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)e->children[i].host, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid != 0)
            announce(e, &e->children[i], info.si_code);
    }
}

bool emu_wait_child_end(emu_t *e) {
    bool from_children = guest_catches_sigchld(e) && !(e->ctx.sig_blocked & SIG_BIT(SIGCHLD));
    bool from_parent = emu_host_signals_received(); /* a child process: its parent may kill it */
    if (!from_children && !from_parent) return false;
    for (;;) {
        if (emu_host_signals_take(e)) return true;
        struct pollfd p[64];
        size_t n = 0, waiting = 0;
        for (size_t i = 0; i < e->child_count && from_children; i++) {
            emu_child *c = &e->children[i];
            if (c->announced) continue;
            waiting++;
            if (child_pidfd(c) >= 0 && n < 64) p[n++] = (struct pollfd){.fd = c->pidfd, .events = POLLIN};
        }
        if (!waiting && !from_parent) return false; /* every child's end was told already: nothing can come */
        bool interrupted;
        if (n == waiting) {
            emu_host_wait(e, p, n, &interrupted); /* a child's end, or a signal (then it looks again) */
        } else {                                  /* no pidfds: look again in 2 ms */
            struct timespec nap = {0, 2000000};
            nanosleep(&nap, NULL);
        }
    }
}

/* ---- fork ---- */

/* The children's table changes with every host signal blocked: a child process' handler
 * reads it to pass a group's signal on (signal.c), and must never meet a freed table or the
 * pid of a child already reaped (the host may have given it to another process). */
static void hold_signals(sigset_t *before) {
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, before);
}

/* ---- the process tree: one table every process of the guest shares ----
 * A memfd mapped MAP_SHARED by the first process at its first fork, inherited by every fork
 * and passed on by execve: the next child's number, and one slot per live process (its
 * virtual pid and host pid, packed in one word that changes atomically, and the host's start
 * time of that process). The parent fills its child's slot before the fork returns and clears
 * it before it reaps the child; a process that ends unreaped by its parent (an orphan: the
 * host reaps it) leaves its slot, which the start time then tells apart from whatever process
 * the host gives that pid next. So a kill, a getpgid naming any process of the tree finds it,
 * and no host process outside the tree is ever signalled (tree_open_member). */

enum { TREE_SLOTS = 4096 };     /* live processes at once: a fork beyond is EAGAIN */
#define TREE_FILLING UINT64_MAX /* a slot being filled: not yet a member */

typedef struct tree_slot {
    uint64_t member;     /* (virtual pid << 32) | host pid; 0: free */
    uint64_t start_time; /* the host process' start (/proc/PID/stat field 22, clock ticks) */
    /* the tids of its live threads but the first (0: none): a kill naming one reaches the
     * process, as Linux's kill of a thread id (emu_tree_threads_changed) */
    int32_t tids[EMU_MAX_THREADS];
    /* what /proc/PID of it shows the others (emu_tree_publish), `shown.vpid` aside (the
     * member word says it). Only the process itself writes it, while another process may
     * read it: `seq` is odd during a write (a sequence lock; before 2026-11-29 a reader could
     * copy a name half rewritten) */
    uint32_t seq;
    emu_shown shown;
    /* its process group and session (inherited at the fork, kept across an execve): written by
     * the process itself (setpgid, setsid) or by its parent (setpgid of a child), read by all */
    int32_t pgid, sid;
    uint32_t execed; /* it called execve: its parent may no longer move it (setpgid's EACCES) */
} tree_slot;

struct emu_tree {
    uint32_t next_vpid; /* the last child's number */
    /* carried by every signal one process of the tree sends another (emu_host_signal_send):
     * how the receiver tells them from the host's, also once their sender is gone */
    uint32_t secret;
    tree_slot slots[TREE_SLOTS];
};

static uint64_t tree_word(int32_t vpid, pid_t host) { return (uint64_t)(uint32_t)vpid << 32 | (uint32_t)host; }
static int32_t word_vpid(uint64_t w) { return (int32_t)(uint32_t)(w >> 32); }
static pid_t word_host(uint64_t w) { return (pid_t)(uint32_t)w; }
static bool word_is_member(uint64_t w) { return w != 0 && w != TREE_FILLING; }

/* Host process `host`'s /proc/PID/stat from its last ')' on (the comm field before it may hold
 * spaces and parentheses), in TEXT; NULL if it does not exist. */
static const char *host_stat_after_comm(pid_t host, char *text, size_t size) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)host);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    ssize_t n = read(fd, text, size - 1);
    close(fd);
    if (n <= 0) return NULL;
    text[n] = 0;
    return strrchr(text, ')');
}

/* The host's start time of process `host` (0: it does not exist). */
static uint64_t host_start_time(pid_t host) {
    char text[1024];
    const char *at = host_stat_after_comm(host, text, sizeof text);
    /* after ") ": state (3), ppid, pgrp, session, tty_nr, tpgid, flags, minflt, cminflt,
     * majflt, cmajflt, utime, stime, cutime, cstime, priority, nice, num_threads, itrealvalue,
     * starttime (22) */
    for (int field = 2; field < 22 && at; field++) at = strchr(at + 1, ' ');
    return at ? strtoull(at + 1, NULL, 10) : 0;
}

/* The host's state letter of process `host` (stat's third field: R, S, T, ...; 0: unknown). */
static char host_state_of(pid_t host) {
    char text[512];
    const char *at = host_stat_after_comm(host, text, sizeof text);
    return at && at[1] == ' ' ? at[2] : 0;
}

/* The table, made (with this process in it) at the first fork; false when it cannot be. */
static bool tree_ready(emu_t *e) {
    if (e->tree) return true;
    int fd = memfd_create("cyclescope-tree", MFD_CLOEXEC);
    if (fd < 0) return false;
    void *p = ftruncate(fd, sizeof(struct emu_tree)) == 0
        ? mmap(NULL, sizeof(struct emu_tree), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        : MAP_FAILED;
    if (p == MAP_FAILED) {
        close(fd);
        return false;
    }
    e->tree = p;
    e->tree_fd = fd;
    uint32_t secret = 0;
    while (!secret && getrandom(&secret, sizeof secret, 0) == (ssize_t)sizeof secret) {
    }
    e->tree->secret = secret ? secret : (uint32_t)getpid() * 2654435761u | 1;
    e->tree->slots[0] = (tree_slot){.member = tree_word(e->vpid, getpid()),
                                    .start_time = host_start_time(getpid()),
                                    .pgid = GUEST_PID, /* the first process leads both */
                                    .sid = GUEST_PID};
    emu_tree_threads_changed(e); /* the threads it made before */
    return true;
}

/* A slot whose process is gone (an orphan the host reaped) is free again. */
static bool slot_stale(const tree_slot *slot, uint64_t w) {
    return word_is_member(w) && host_start_time(word_host(w)) != __atomic_load_n(&slot->start_time, __ATOMIC_ACQUIRE);
}

/* A slot for the next child, taken before the fork (-1: every slot is taken): a fork beyond
 * the table is EAGAIN, never a process the others cannot find. */
static int tree_reserve(emu_t *e) {
    for (int pass = 0; pass < 2; pass++) /* the second pass takes a stale slot */
        for (int i = 0; i < TREE_SLOTS; i++) {
            tree_slot *slot = &e->tree->slots[i];
            uint64_t w = __atomic_load_n(&slot->member, __ATOMIC_ACQUIRE);
            if (w != 0 && (pass == 0 || !slot_stale(slot, w))) continue;
            if (__atomic_compare_exchange_n(&slot->member, &w, TREE_FILLING, false, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE)) {
                for (int k = 0; k < EMU_MAX_THREADS; k++) /* the child starts with one thread */
                    __atomic_store_n(&slot->tids[k], 0, __ATOMIC_RELEASE);
                /* even again: a process killed (SIGKILL) inside slot_publish left it odd */
                __atomic_store_n(&slot->seq, 0, __ATOMIC_RELEASE);
                return i;
            }
        }
    return -1;
}

/* The reserved slot names child `vpid`, host process `host` (0: the fork failed, freed). */
static void tree_fill(emu_t *e, int index, int32_t vpid, pid_t host) {
    tree_slot *slot = &e->tree->slots[index];
    __atomic_store_n(&slot->start_time, host > 0 ? host_start_time(host) : 0, __ATOMIC_RELEASE);
    __atomic_store_n(&slot->member, host > 0 ? tree_word(vpid, host) : 0, __ATOMIC_RELEASE);
}

/* Child `vpid` leaves the tree (before its host process is reaped: never a stale member). */
static void tree_remove(emu_t *e, int32_t vpid, pid_t host) {
    if (!e->tree) return;
    uint64_t w = tree_word(vpid, host);
    for (size_t i = 0; i < TREE_SLOTS; i++) {
        uint64_t expected = w;
        if (__atomic_compare_exchange_n(&e->tree->slots[i].member, &expected, 0, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            return;
    }
}

/* The slot of member `vpid` (NULL: none); *word its contents. */
static tree_slot *tree_find(const emu_t *e, int32_t vpid, uint64_t *word) {
    if (!e->tree) return NULL;
    for (size_t i = 0; i < TREE_SLOTS; i++) {
        uint64_t w = __atomic_load_n(&e->tree->slots[i].member, __ATOMIC_ACQUIRE);
        if (word_is_member(w) && word_vpid(w) == vpid) {
            *word = w;
            return &e->tree->slots[i];
        }
    }
    return NULL;
}

/* A pidfd of the process the slot names, while it is that process (0 when the host has no
 * pidfds: *pidfd -1 then, and the pid was checked just before), or -ESRCH. The pidfd is
 * opened first, then the slot is read again and the pid's start time compared with the
 * slot's: both still the same, the pidfd is the member's, whatever the host does after. */
static int64_t tree_open_member(const tree_slot *slot, uint64_t w, int *pidfd) {
    pid_t host = word_host(w);
    *pidfd = (int)syscall(SYS_pidfd_open, host, 0);
    if (*pidfd < 0 && errno != ENOSYS) return -ESRCH;
    if (__atomic_load_n(&slot->member, __ATOMIC_ACQUIRE) != w ||
        host_start_time(host) != __atomic_load_n(&slot->start_time, __ATOMIC_ACQUIRE)) {
        if (*pidfd >= 0) close(*pidfd);
        *pidfd = -1;
        return -ESRCH;
    }
    return 0;
}

static bool is_child(const emu_t *e, int64_t pid) {
    for (size_t i = 0; i < e->child_count; i++)
        if (e->children[i].vpid == pid) return true;
    return false;
}

void emu_tree_threads_changed(emu_t *e) {
    uint64_t w;
    tree_slot *slot = tree_find(e, e->vpid, &w);
    for (int i = 0; slot && i < EMU_MAX_THREADS; i++)
        __atomic_store_n(&slot->tids[i], emu_thread_tid_at(e, i) == e->vpid ? 0 : emu_thread_tid_at(e, i),
                         __ATOMIC_RELEASE);
    if (slot && e->tree_published) emu_tree_publish(e); /* /proc/PID/stat's num_threads */
}

/* The slot of the process whose pid, or tid of a live thread, is `id` (NULL: none): Linux's
 * kill and tgkill of a thread id reach its process. */
static tree_slot *tree_find_task(const emu_t *e, int32_t id, uint64_t *word) {
    tree_slot *own = tree_find(e, id, word);
    if (own) return own;
    for (size_t i = 0; e->tree && id > 0 && i < TREE_SLOTS; i++) {
        tree_slot *slot = &e->tree->slots[i];
        uint64_t w = __atomic_load_n(&slot->member, __ATOMIC_ACQUIRE);
        if (!word_is_member(w) || word_vpid(w) == e->vpid) continue;
        for (int k = 0; k < EMU_MAX_THREADS; k++)
            if (__atomic_load_n(&slot->tids[k], __ATOMIC_ACQUIRE) == id) {
                *word = w;
                return slot;
            }
    }
    return NULL;
}

bool emu_is_tree_process(const emu_t *e, int64_t pid) {
    if (pid == e->vpid || is_child(e, pid)) return true;
    uint64_t w;
    tree_slot *slot = pid > 0 && pid <= INT32_MAX ? tree_find(e, (int32_t)pid, &w) : NULL;
    return slot && !slot_stale(slot, w);
}

pid_t emu_tree_host_pid(const emu_t *e, int64_t pid) {
    if (pid <= 0 || pid > INT32_MAX || pid == e->vpid) return 0;
    for (size_t i = 0; i < e->child_count; i++) /* a child not yet waited for (a zombie's too) */
        if (e->children[i].vpid == pid) return e->children[i].host;
    uint64_t w;
    tree_slot *slot = tree_find(e, (int32_t)pid, &w);
    return slot && !slot_stale(slot, w) ? word_host(w) : 0;
}

/* ---- process groups and sessions (virtual ids in the table: the host's never change, so
 * cyclescope's own Ctrl-C handling of the tree stays as it is) ---- */

/* The group and session a slot holds (written by its process or its parent, read by all). */
static void slot_ids(const tree_slot *slot, int32_t *pgid, int32_t *sid) {
    *pgid = __atomic_load_n(&slot->pgid, __ATOMIC_ACQUIRE);
    *sid = __atomic_load_n(&slot->sid, __ATOMIC_ACQUIRE);
}

/* The group and session of this process: its slot's, or the first process' 1000 before the
 * tree exists (then it is the only process and leads both: nothing can have changed them). */
static void own_ids(const emu_t *e, int32_t *pgid, int32_t *sid) {
    uint64_t w;
    const tree_slot *slot = tree_find(e, e->vpid, &w);
    if (slot) slot_ids(slot, pgid, sid);
    else *pgid = *sid = GUEST_PID;
}

bool emu_process_ids(const emu_t *e, int32_t vpid, int32_t *pgid, int32_t *sid) {
    if (vpid == e->vpid) {
        own_ids(e, pgid, sid);
        return true;
    }
    uint64_t w;
    const tree_slot *slot = tree_find(e, vpid, &w);
    if (!slot || slot_stale(slot, w)) return false;
    slot_ids(slot, pgid, sid);
    return true;
}

int64_t emu_sys_getpgid(emu_t *e, int64_t pid, bool session) {
    int32_t pgid, sid;
    if (pid == 0 || pid == e->vpid || emu_thread_is_tid(e, pid)) {
        own_ids(e, &pgid, &sid);
    } else {
        if (pid < 0 || pid > INT32_MAX) return -ESRCH;
        uint64_t w;
        const tree_slot *slot = tree_find_task(e, (int32_t)pid, &w); /* a thread's id: its process' */
        if (!slot || slot_stale(slot, w)) return -ESRCH;
        slot_ids(slot, &pgid, &sid);
    }
    return session ? sid : pgid;
}

/* Whether a live (or zombie) process of the tree is in group `pgid`, session `sid` (any: -1). */
static bool group_exists(const emu_t *e, int32_t pgid, int32_t sid) {
    int32_t own_pgid, own_sid;
    own_ids(e, &own_pgid, &own_sid);
    if (own_pgid == pgid && (sid < 0 || own_sid == sid)) return true;
    for (size_t i = 0; e->tree && i < TREE_SLOTS; i++) {
        const tree_slot *slot = &e->tree->slots[i];
        uint64_t w = __atomic_load_n(&slot->member, __ATOMIC_ACQUIRE);
        if (!word_is_member(w) || word_vpid(w) == e->vpid || slot_stale(slot, w)) continue;
        int32_t its_pgid, its_sid;
        slot_ids(slot, &its_pgid, &its_sid);
        if (its_pgid == pgid && (sid < 0 || its_sid == sid)) return true;
    }
    return false;
}

/* Linux's setpgid (kernel/sys.c), its checks in its order. */
int64_t emu_sys_setpgid(emu_t *e, int64_t pid, int64_t pgid) {
    if (pid == 0) pid = e->vpid;
    if (pgid == 0) pgid = pid;
    if (pgid < 0) return -EINVAL;
    if (pid < 0 || pid > INT32_MAX) return -ESRCH;
    if (pid != e->vpid && emu_thread_is_tid(e, pid)) return -EINVAL; /* not a thread group leader */
    int32_t own_pgid, own_sid;
    own_ids(e, &own_pgid, &own_sid);
    uint64_t w;
    tree_slot *slot = tree_find(e, (int32_t)pid, &w);
    if (pid != e->vpid) { /* a child of the caller only */
        if (!is_child(e, pid) || !slot) return -ESRCH;
        if (__atomic_load_n(&slot->sid, __ATOMIC_ACQUIRE) != own_sid) return -EPERM;
        if (__atomic_load_n(&slot->execed, __ATOMIC_ACQUIRE)) return -EACCES;
    }
    int32_t sid = slot ? __atomic_load_n(&slot->sid, __ATOMIC_ACQUIRE) : own_sid;
    if (sid == pid) return -EPERM; /* a session leader stays in its group */
    if (pgid != pid && (pgid > INT32_MAX || !group_exists(e, (int32_t)pgid, sid))) return -EPERM;
    if (!slot) return -EPERM; /* no tree: the first process, which leads the session (above) */
    __atomic_store_n(&slot->pgid, (int32_t)pgid, __ATOMIC_RELEASE);
    return 0;
}

/* Linux's setsid: EPERM for a group leader, or when a group already has the caller's pid. */
int64_t emu_sys_setsid(emu_t *e) {
    uint64_t w;
    tree_slot *slot = tree_find(e, e->vpid, &w);
    if (!slot || group_exists(e, e->vpid, -1)) return -EPERM; /* no tree: the first process leads */
    __atomic_store_n(&slot->sid, e->vpid, __ATOMIC_RELEASE);
    __atomic_store_n(&slot->pgid, e->vpid, __ATOMIC_RELEASE);
    return e->vpid;
}

static int compare_pids(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

size_t emu_tree_pids(const emu_t *e, int32_t *out, size_t max) {
    size_t n = 0;
    if (n < max) out[n++] = e->vpid;
    for (size_t i = 0; i < e->child_count && n < max; i++) out[n++] = e->children[i].vpid; /* zombies too */
    for (size_t i = 0; e->tree && i < TREE_SLOTS && n < max; i++) {
        const tree_slot *slot = &e->tree->slots[i];
        uint64_t w = __atomic_load_n(&slot->member, __ATOMIC_ACQUIRE);
        if (word_is_member(w) && word_vpid(w) != e->vpid && !is_child(e, word_vpid(w)) && !slot_stale(slot, w))
            out[n++] = word_vpid(w);
    }
    qsort(out, n, sizeof *out, compare_pids);
    return n;
}

/* The slot shows `shown`. The writer is this process alone (its threads are one host thread). */
static void slot_publish(tree_slot *slot, const emu_shown *shown) {
    uint32_t seq = __atomic_load_n(&slot->seq, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->seq, seq | 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE); /* odd before any byte changes */
    memcpy(&slot->shown, shown, sizeof *shown);
    __atomic_store_n(&slot->seq, (seq | 1) + 1, __ATOMIC_RELEASE);
}

/* A copy of what the slot shows, taken between two equal even readings of its counter; a
 * writer gone mid-write (killed) leaves it odd: after many tries the copy is taken as it is,
 * never a wait without end. */
static void slot_read(const tree_slot *slot, emu_shown *out) {
    for (int tries = 0;; tries++) {
        uint32_t before = __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE);
        memcpy(out, &slot->shown, sizeof *out);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (((before & 1) == 0 && __atomic_load_n(&slot->seq, __ATOMIC_RELAXED) == before) || tries == 100000) break;
        if (tries % 64 == 63) sched_yield();
    }
    out->comm[15] = 0;
    if (out->cmdline_len > sizeof out->cmdline) out->cmdline_len = sizeof out->cmdline;
}

void emu_tree_publish(emu_t *e) {
    if (e->replica) return; /* a SimPoint copy of the run is not the process the others see */
    uint64_t w;
    tree_slot *slot = tree_find(e, e->vpid, &w);
    if (!slot) return;
    emu_shown shown;
    emu_identity(e, &shown);
    slot_publish(slot, &shown);
    e->tree_published = true;
}

bool emu_tree_identity(const emu_t *e, pid_t host, emu_shown *out) {
    for (size_t i = 0; e->tree && host > 0 && host != getpid() && i < TREE_SLOTS; i++) {
        const tree_slot *slot = &e->tree->slots[i];
        uint64_t w = __atomic_load_n(&slot->member, __ATOMIC_ACQUIRE);
        if (!word_is_member(w) || word_host(w) != host || word_vpid(w) == e->vpid || slot_stale(slot, w)) continue;
        slot_read(slot, out);
        out->vpid = word_vpid(w);
        return true;
    }
    return false;
}

uint32_t emu_tree_secret(const emu_t *e) { return e->tree ? e->tree->secret : 0; }

bool emu_tree_has_others(const emu_t *e) {
    if (!e->tree) return false;
    for (size_t i = 0; i < TREE_SLOTS; i++) {
        const tree_slot *slot = &e->tree->slots[i];
        uint64_t w = __atomic_load_n(&slot->member, __ATOMIC_ACQUIRE);
        if (word_is_member(w) && word_vpid(w) != e->vpid && !slot_stale(slot, w)) return true;
    }
    return false;
}

bool emu_wait_tree_signal(emu_t *e) {
    for (;;) {
        struct pollfd p[64];
        size_t n = 0;
        bool all_watched = true;
        for (size_t i = 0; e->tree && i < TREE_SLOTS; i++) {
            const tree_slot *slot = &e->tree->slots[i];
            uint64_t w = __atomic_load_n(&slot->member, __ATOMIC_ACQUIRE);
            if (!word_is_member(w) || word_vpid(w) == e->vpid) continue;
            int pidfd;
            if (tree_open_member(slot, w, &pidfd) != 0) continue; /* gone */
            if (pidfd < 0 || n == 64) {
                if (pidfd >= 0) close(pidfd);
                all_watched = false;
                continue;
            }
            p[n++] = (struct pollfd){.fd = pidfd, .events = POLLIN};
        }
        /* a pidfd already readable is a process that ended (a zombie): it sends nothing more */
        size_t live = 0;
        if (n && poll(p, n, 0) >= 0)
            for (size_t i = 0; i < n; i++)
                if (!(p[i].revents & POLLIN)) p[live++] = p[i];
                else close(p[i].fd);
        else live = n;
        if (!live && all_watched) return false;
        bool arrived = emu_host_wait_arrival_or(e, p, all_watched ? live : 0);
        for (size_t i = 0; i < live; i++) close(p[i].fd);
        if (arrived) return true;
    }
}

uint64_t emu_wait_host_for(emu_t *e, bool child_waiter, struct pollfd *more, size_t n_more, uint64_t ns) {
    struct pollfd *p = cs_malloc((64 + n_more) * sizeof *p);
    size_t n = 0;
    /* a child's pidfd only for a waiter: an ended child nobody waits for yet stays ready,
     * and the host's wait for the outside would spin on it */
    for (size_t i = 0; child_waiter && i < e->child_count && n < 64; i++)
        if (child_pidfd(&e->children[i]) >= 0) p[n++] = (struct pollfd){.fd = e->children[i].pidfd, .events = POLLIN};
    size_t pidfds = n;
    for (size_t i = 0; i < n_more; i++) p[n++] = more[i];
    double start = cs_now();
    struct timespec timeout = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
    /* a SIGCHLD wakes the child waiters (emu_host_signals_take: emu_children_check) */
    emu_host_wait_arrival_for(e, p, n, ns == UINT64_MAX ? NULL : &timeout);
    for (size_t i = 0; i < pidfds; i++) /* an ended child, not yet reaped: its waiters run their calls */
        if (p[i].revents & POLLIN) emu_thread_child_changed(e);
    free(p);
    double waited = (cs_now() - start) * 1e9;
    return waited <= 0 ? 0 : waited < (double)ns ? (uint64_t)waited : ns;
}

static int32_t next_vpid(emu_t *e) {
    if (!tree_ready(e)) return -1;
    for (;;) { /* past 40 000 the numbers start again (pid_max's default is 4194304), skipping those in use */
        uint32_t n = __atomic_add_fetch(&e->tree->next_vpid, 1, __ATOMIC_SEQ_CST);
        int32_t vpid = GUEST_PID + (int32_t)(n % 40000) * VPID_STRIDE;
        uint64_t unused;
        if (vpid != GUEST_PID && !tree_find(e, vpid, &unused)) return vpid;
    }
}

void emu_pipes_cross_process(emu_t *e) {
    for (int i = 0; i < EMU_MAX_FDS; i++) /* an eventfd or epoll instance, too, is the child's as well */
        if (e->fds[i].host >= 0) e->fds[i].forked = true;
    for (size_t i = 0; i < e->pipe_count; i++)
        if (e->pipes[i].used) {
            e->pipes[i].cross_process = true;
            free(e->pipes[i].data);
            e->pipes[i].data = NULL;
            e->pipes[i].len = e->pipes[i].cap = 0;
        }
}

/* ---- vfork: the child's writes reach the parent's memory ----
 * A CLONE_VM child writes into its parent's memory (glibc's posix_spawn child reports a
 * failed execve's errno so: posix_spawn returns it). The emulator's child has a copy, so
 * when it execs or exits (the parent waits until then, every thread of it: its memory does
 * not change meanwhile) it writes every page it holds of its writable mappings into a
 * memfd, and the parent takes each page that differs from its own, where it has that page
 * mapped writable: exactly what the child wrote. */

static int vfork_memory_fd = -1; /* the child's end, until it execs or exits */

static void vfork_share_memory(emu_t *e) {
    if (vfork_memory_fd < 0) return;
    if (ftruncate(vfork_memory_fd, 0) != 0 || lseek(vfork_memory_fd, 0, SEEK_SET) != 0) return;
    for (size_t v = 0; v < e->m.vma_count; v++) {
        if (!(e->m.vmas[v].prot & PROT_W)) continue;
        for (uint64_t at = e->m.vmas[v].start; at < e->m.vmas[v].end; at += PAGE_SIZE) {
            const uint8_t *data = mem_peek(&e->m, at);
            if (!data) continue; /* never touched: zeros, as the parent's untouched page */
            if (write(vfork_memory_fd, &at, sizeof at) != sizeof at ||
                write(vfork_memory_fd, data, PAGE_SIZE) != PAGE_SIZE)
                return; /* the parent takes the whole pages that came */
        }
    }
}

static bool writable_in(const mem *m, uint64_t at) {
    for (size_t v = 0; v < m->vma_count; v++)
        if (at >= m->vmas[v].start && at < m->vmas[v].end) return (m->vmas[v].prot & PROT_W) != 0;
    return false;
}

static void vfork_take_memory(emu_t *e, int fd) {
    static uint8_t zeros[PAGE_SIZE];
    uint8_t data[PAGE_SIZE];
    uint64_t at;
    for (off_t off = 0; pread(fd, &at, sizeof at, off) == sizeof at; off += sizeof at + PAGE_SIZE) {
        if (pread(fd, data, PAGE_SIZE, off + (off_t)sizeof at) != PAGE_SIZE) break;
        if ((at & PAGE_MASK) || !writable_in(&e->m, at)) continue;
        const uint8_t *mine = mem_peek(&e->m, at);
        if (memcmp(mine ? mine : zeros, data, PAGE_SIZE) != 0) mem_copy_in(&e->m, at, data, PAGE_SIZE);
    }
}

/* The forked child's end: the guest's status as the host process' own (a signal as a signal,
 * without a core file), never through the caller's code. */
static _Noreturn void child_end(emu_t *e) {
    emu_shared_release_all(e);
    vfork_share_memory(e);
    if (e->status == EMU_EXITED) _exit(e->exit_code & 0xff);
    int sig = e->fault_signal;
    bool fault = sig == SIGSEGV || sig == SIGILL || sig == SIGBUS || sig == SIGTRAP || sig == SIGFPE;
    if (!sig || fault) fprintf(stderr, "cyclescope: %s\n", e->error); /* what `exec` says */
    if (sig) emu_die_by_signal(sig);
    _exit(125); /* what `exec` exits with when cyclescope cannot run the program */
}

void emu_end_child_process(emu_t *e) {
    if (e->parent_vpid >= GUEST_PID && e->status != EMU_RUNNING) child_end(e);
}

/* The child's state: one thread, no children, no pending signals or timers (kernel/fork.c). */
static void child_start(emu_t *e, int32_t vpid, pid_t parent_host, uint64_t flags, uint64_t newsp, uint64_t ctid) {
    e->parent_vpid = e->vpid;
    e->parent_host = parent_host;
    e->vpid = vpid;
    emu_host_child_ended = 0;
    for (size_t i = 0; i < e->child_count; i++)
        if (e->children[i].pidfd >= 0) close(e->children[i].pidfd);
    e->child_count = 0;
    emu_threads_free(e); /* the calling thread's state is e->h and e->ctx: it is the only one */
    e->threads_live = 0;
    e->thread_switch = e->syscall_retry = false;
    e->ctx.sig_pending = 0;
    e->sig_shared_pending = 0;
    e->rt_count = 0;
    e->alarm_at_ns = e->alarm_interval_ns = 0;
    e->opt.may_exec = true; /* nothing observes a child: its execve is served */
    if (flags & FORK_CLONE_CHILD_SETTID) guest_put(e, ctid, &vpid, 4);
    e->ctx.clear_child_tid = (flags & FORK_CLONE_CHILD_CLEARTID) ? ctid : 0;
    e->ctx.robust_list = 0;
    e->h.x[10] = 0; /* clone returns 0 in the child */
    if (newsp) e->h.x[2] = newsp;
    e->h.pc += 4; /* after the ecall */
    e->h.reserved = false;
}

int64_t emu_sys_fork(emu_t *e, uint64_t flags, uint64_t newsp, uint64_t ptid, uint64_t ctid) {
    uint64_t vfork = FORK_CLONE_VM | FORK_CLONE_VFORK;
    uint64_t allowed =
        FORK_CSIGNAL | vfork | FORK_CLONE_PARENT_SETTID | FORK_CLONE_CHILD_CLEARTID | FORK_CLONE_CHILD_SETTID;
    bool is_vfork = (flags & vfork) == vfork;
    if ((flags & ~allowed) || (flags & FORK_CSIGNAL) != SIGCHLD || (!is_vfork && (flags & vfork)))
        return EMU_CLONE_REFUSED; /* a thread (thread.c) or what neither serves */
    if (!is_vfork && newsp) return EMU_CLONE_REFUSED;
    if (e->replica) { /* its child would run a second time what the real run's child runs */
        emu_fail(e,
                 "the program forks at pc 0x%" PRIx64 " inside a simulation point, which is timed on a forked "
                 "copy of the run: time this program without --simpoints",
                 e->h.pc);
        return -ENOSYS;
    }
    int32_t vpid = next_vpid(e);
    if (vpid < 0) return -EAGAIN;
    int slot = tree_reserve(e);
    if (slot < 0) return -EAGAIN; /* as Linux beyond RLIMIT_NPROC */
    /* both shown before either runs: the parent as it is, the child its copy named as the
     * calling thread (Linux's fork copies the caller's comm) */
    emu_tree_publish(e);
    emu_shown child;
    emu_identity(e, &child);
    snprintf(child.comm, sizeof child.comm, "%s", e->ctx.comm);
    child.ppid = e->vpid;
    child.threads = 1;
    uint64_t start_ns = emu_guest_time_ns(e, true); /* the child's /proc/PID/stat starttime */
    child.start_ticks = start_ns / 10000000;
    slot_publish(&e->tree->slots[slot], &child);
    int32_t pgid, sid; /* the child's group and session are its parent's */
    own_ids(e, &pgid, &sid);
    __atomic_store_n(&e->tree->slots[slot].pgid, pgid, __ATOMIC_RELEASE);
    __atomic_store_n(&e->tree->slots[slot].sid, sid, __ATOMIC_RELEASE);
    __atomic_store_n(&e->tree->slots[slot].execed, 0, __ATOMIC_RELEASE);
    if (e->child_count == e->child_cap) {
        sigset_t held;
        hold_signals(&held);
        e->child_cap = e->child_cap ? 2 * e->child_cap : 8;
        e->children = cs_realloc(e->children, cs_array_size(e->child_cap, sizeof *e->children));
        sigprocmask(SIG_SETMASK, &held, NULL);
    }
    int sync[2] = {-1, -1}; /* vfork: the child holds the write end until it execs or exits */
    if (is_vfork && pipe2(sync, O_CLOEXEC) < 0) {
        tree_fill(e, slot, vpid, 0);
        return -errno;
    }
    int memory = is_vfork ? memfd_create("cyclescope-vfork-memory", MFD_CLOEXEC) : -1;
    /* both processes may hold a pipe's ends from now; a write to a reader that is gone is
     * EPIPE on the host (the guest gets its SIGPIPE from us), never a signal to cyclescope */
    emu_pipes_cross_process(e);
    signal(SIGPIPE, SIG_IGN);
    progress_interrupt(); /* the child's copy of the bar is then not drawn: it never draws */
    fflush(NULL);
    /* a kill the parent sends at once waits (blocked on the host) until the child's handlers
     * turn it into the guest's signal */
    sigset_t all, before;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &before);
    /* the first process takes its children's kills from now (signal.c): before the fork, so
     * that a child's kill at once finds the handlers there */
    if (e->parent_vpid < GUEST_PID) emu_host_signals_receive_from_tree(e);
    pid_t parent_host = getpid();
    pid_t host = fork();
    if (host < 0) {
        int why = errno;
        tree_fill(e, slot, vpid, 0);
        sigprocmask(SIG_SETMASK, &before, NULL);
        if (is_vfork) close(sync[0]), close(sync[1]);
        if (memory >= 0) close(memory);
        return -why;
    }
    if (host == 0) {
        if (is_vfork) close(sync[0]); /* sync[1] closes at the exec or the exit */
        vfork_memory_fd = memory;
        tree_fill(e, slot, vpid, getpid()); /* its parent fills it too: before either goes on */
        child_start(e, vpid, parent_host, flags, newsp, ctid);
        e->start_ns = start_ns;
        emu_host_signals_receive(e);
        sigprocmask(SIG_SETMASK, &before, NULL);
        while (e->status == EMU_RUNNING) emu_run(e, UINT64_MAX);
        child_end(e);
    }
    /* recorded before the unblock: a kill the child sent at once is then known to be its;
     * in the tree before the guest learns the pid (another process may be told it) */
    e->children[e->child_count++] = (emu_child){.vpid = vpid, .host = host, .pidfd = -1};
    tree_fill(e, slot, vpid, host);
    sigprocmask(SIG_SETMASK, &before, NULL);
    /* the guest catches SIGCHLD: the host's tells when to look (SA_RESTART: cyclescope's own
     * calls go on; a guest's wait on the host — poll — sees EINTR, as its handler would make it) */
    static bool sigchld_installed;
    if (guest_catches_sigchld(e) && !sigchld_installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_host_sigchld;
        sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
        sigemptyset(&sa.sa_mask);
        sigchld_installed = sigaction(SIGCHLD, &sa, NULL) == 0;
        emu_host_events_watch(); /* a guest computing without system calls is told too */
    }
    emu_host_child_ended = 1; /* a child that ended before the handler was there is looked for too */
    if (flags & FORK_CLONE_PARENT_SETTID) guest_put(e, ptid, &vpid, 4);
    if (is_vfork) {
        close(sync[1]);
        char byte;
        while (read(sync[0], &byte, 1) < 0 && errno == EINTR) {
        }
        close(sync[0]);
        if (memory >= 0) vfork_take_memory(e, memory);
    }
    if (memory >= 0) close(memory);
    return vpid;
}

/* ---- wait4, waitid, kill ---- */

/* Whether child i is one `pid` names as wait4 reads it (> 0: that pid; -1: any; 0: one in
 * the caller's group; < -1: one in the group -pid), its group as it is now (the table's). */
static bool child_matches(const emu_t *e, size_t i, int64_t pid) {
    if (pid > 0) return e->children[i].vpid == pid;
    if (pid == -1) return true;
    int32_t group = (int32_t)-pid, sid, child_group;
    if (pid == 0) own_ids(e, &group, &sid);
    uint64_t w;
    const tree_slot *slot = tree_find(e, e->children[i].vpid, &w);
    child_group = slot ? __atomic_load_n(&slot->pgid, __ATOMIC_ACQUIRE) : GUEST_PID;
    return child_group == group;
}

static void child_forget(emu_t *e, size_t i, int32_t code) {
    announce(e, &e->children[i], code); /* Linux signals the end even when a wait took it first */
    tree_remove(e, e->children[i].vpid, e->children[i].host);
    if (e->children[i].pidfd >= 0) close(e->children[i].pidfd);
    e->children[i] = e->children[--e->child_count];
}

/* Waits until a child `pid` names (child_matches) is in a state `host_options` asks for
 * (waitid's; each look adds WNOHANG): 1 with its index and the host's siginfo, 0 when
 * `nohang` and none is yet, -ECHILD when no child matches. */
static int64_t wait_child(emu_t *e, int64_t pid, int host_options, bool nohang, siginfo_t *info, size_t *index) {
    /* a child process waits on pidfds, which its parent's signals interrupt (a stop or a
     * continuation, which pidfds do not tell, keeps the host's wait) */
    bool interruptible = emu_host_signals_received() && !(host_options & (WSTOPPED | WCONTINUED));
    for (;;) {
        size_t matching = 0, last = 0;
        for (size_t i = 0; i < e->child_count; i++) {
            if (!child_matches(e, i, pid)) continue;
            matching++, last = i;
            memset(info, 0, sizeof *info);
            if (waitid(P_PID, (id_t)e->children[i].host, info, host_options | WNOHANG) == 0 && info->si_pid != 0) {
                *index = i;
                return 1;
            }
        }
        if (!matching) return -ECHILD;
        if (nohang) return 0;
        /* other threads go on while this one waits (Linux blocks the caller alone): Go's
         * exec.Cmd.Wait waits while another goroutine writes the child's stdin */
        int64_t blocked = emu_thread_block_child(e);
        if (blocked) return blocked < 0 ? blocked : 0;
        if (interruptible && emu_host_signals_take(e)) return -EMU_ERESTARTSYS; /* a handler first */
        if (matching == 1 &&
            !interruptible) { /* one to wait for: the host's wait, with WNOWAIT so it is looked at again */
            memset(info, 0, sizeof *info);
            while (waitid(P_PID, (id_t)e->children[last].host, info, (host_options & ~WNOHANG) | WNOWAIT) < 0 &&
                   errno == EINTR) {
            }
            continue;
        }
        /* several: until one of their pidfds is readable (a 2 ms nap where pidfds are missing) */
        struct pollfd p[64];
        size_t n = 0;
        bool all = true;
        for (size_t i = 0; i < e->child_count && n < 64; i++) {
            if (!child_matches(e, i, pid)) continue;
            if (child_pidfd(&e->children[i]) < 0) {
                all = false;
                continue;
            }
            p[n++] = (struct pollfd){.fd = e->children[i].pidfd, .events = POLLIN};
        }
        bool interrupted = false;
        if (all && n == matching && interruptible) {
            emu_host_wait(e, p, n, &interrupted);
            if (interrupted) return -EMU_ERESTARTSYS;
        } else if (all && n == matching) {
            while (poll(p, n, -1) < 0 && errno == EINTR) {
            }
        } else {
            struct timespec nap = {0, 2000000};
            nanosleep(&nap, NULL);
        }
    }
}

/* A Linux wait status from the host's siginfo (the same encoding on every architecture). */
static int wait_status(const siginfo_t *info) {
    switch (info->si_code) {
    case CLD_EXITED: return (info->si_status & 0xff) << 8;
    case CLD_KILLED: return info->si_status & 0x7f;
    case CLD_DUMPED: return (info->si_status & 0x7f) | 0x80;
    case CLD_STOPPED: return ((info->si_status & 0xff) << 8) | 0x7f;
    case CLD_CONTINUED: return 0xffff;
    default: return 0;
    }
}

/* struct rusage of the riscv64 ABI (two timevals and 14 longs): zeros, the children's
 * costs being the host's business */
static int64_t put_zero_rusage(emu_t *e, uint64_t addr) {
    uint8_t zero[144] = {0};
    return addr ? guest_put(e, addr, zero, sizeof zero) : 0;
}

enum { WAIT_WNOHANG = 1, WAIT_WUNTRACED = 2, WAIT_WEXITED = 4, WAIT_WCONTINUED = 8, WAIT_WNOWAIT = 0x01000000 };
#define WAIT_IGNORED_FLAGS 0xe0000000ull /* __WNOTHREAD, __WALL, __WCLONE */

int64_t emu_sys_wait4(emu_t *e, int64_t pid, uint64_t status_addr, uint64_t options, uint64_t rusage_addr) {
    if (options & ~(uint64_t)(WAIT_WNOHANG | WAIT_WUNTRACED | WAIT_WCONTINUED | WAIT_IGNORED_FLAGS)) return -EINVAL;
    if (pid == INT32_MIN) return -ESRCH;
    int host_options =
        WEXITED | ((options & WAIT_WUNTRACED) ? WSTOPPED : 0) | ((options & WAIT_WCONTINUED) ? WCONTINUED : 0);
    siginfo_t info;
    size_t i = 0;
    int64_t got = wait_child(e, pid, host_options | WNOWAIT, (options & WAIT_WNOHANG) != 0, &info, &i);
    if (got <= 0) return got;
    int32_t status = wait_status(&info), vpid = e->children[i].vpid;
    if (status_addr && guest_put(e, status_addr, &status, 4)) return -EFAULT;
    if (put_zero_rusage(e, rusage_addr)) return -EFAULT;
    if (info.si_code == CLD_EXITED || info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED) {
        siginfo_t reaped;
        memset(&reaped, 0, sizeof reaped);
        sigset_t held;
        hold_signals(&held);
        pid_t host = e->children[i].host;
        child_forget(e, i, info.si_code);                      /* out of the tree before its pid is free */
        waitid(P_PID, (id_t)host, &reaped, WEXITED | WNOHANG); /* now it goes */
        sigprocmask(SIG_SETMASK, &held, NULL);
    } else { /* a stop or a continuation: taken, as wait4 takes it */
        siginfo_t taken;
        waitid(P_PID, (id_t)e->children[i].host, &taken, host_options | WNOHANG);
    }
    return vpid;
}

int64_t emu_sys_waitid(emu_t *e, int64_t idtype, int64_t id, uint64_t info_addr, uint64_t options,
                       uint64_t rusage_addr) {
    if (options &
        ~(uint64_t)(WAIT_WNOHANG | WAIT_WUNTRACED | WAIT_WEXITED | WAIT_WCONTINUED | WAIT_WNOWAIT | WAIT_IGNORED_FLAGS))
        return -EINVAL;
    if (!(options & (WAIT_WEXITED | WAIT_WUNTRACED | WAIT_WCONTINUED))) return -EINVAL;
    int64_t pid;
    switch (idtype) {
    case P_ALL: pid = -1; break;
    case P_PID:
        if (id <= 0) return -EINVAL;
        pid = id;
        break;
    case P_PGID:
        if (id < 0) return -EINVAL;
        pid = id == 0 ? 0 : -id;
        break;
    default: return -EINVAL; /* P_PIDFD: the guest has no pidfds */
    }
    int host_options = ((options & WAIT_WEXITED) ? WEXITED : 0) | ((options & WAIT_WUNTRACED) ? WSTOPPED : 0) |
        ((options & WAIT_WCONTINUED) ? WCONTINUED : 0);
    siginfo_t info;
    size_t i = 0;
    int64_t got = wait_child(e, pid, host_options | WNOWAIT, (options & WAIT_WNOHANG) != 0, &info, &i);
    if (got < 0 || e->syscall_retry) return got; /* the thread waits: nothing written yet */
    /* the generic siginfo of a 64-bit Linux: signo, errno, code, then pid, uid, status at 16 */
    uint8_t out[128] = {0};
    if (got > 0) {
        int32_t head[3] = {SIGCHLD, 0, info.si_code}, body[3] = {e->children[i].vpid, GUEST_ID, info.si_status};
        memcpy(out, head, sizeof head);
        memcpy(out + 16, body, sizeof body);
    }
    if (info_addr && guest_put(e, info_addr, out, sizeof out)) return -EFAULT;
    if (put_zero_rusage(e, rusage_addr)) return -EFAULT;
    if (got > 0 && !(options & WAIT_WNOWAIT)) {
        siginfo_t taken;
        sigset_t held;
        hold_signals(&held);
        pid_t host = e->children[i].host;
        if (info.si_code == CLD_EXITED || info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED)
            child_forget(e, i, info.si_code); /* out of the tree before its pid is free */
        waitid(P_PID, (id_t)host, &taken, host_options | WNOHANG);
        sigprocmask(SIG_SETMASK, &held, NULL);
    }
    return 0;
}

/* The process in tree slot `slot` (contents w) receives `sig` from this one: its emulator
 * turns the host signal into its guest's (signal.c): its handler runs, an ignored one is
 * dropped, a blocked one waits; SIGKILL and SIGSTOP act on the host. */
/* The signal of the tree member in `slot` for the process (`thread` -1: kill, SI_USER) or
 * for its thread `thread` ids past its pid (tgkill, tkill: SI_TKILL). The value sigqueue
 * carries is the tree's secret, then that thread + 1 in the top byte (0: the process) above
 * the sender's virtual pid (below 1 << 24: next_vpid's numbers end at 4 000 900). */
static int64_t kill_slot(emu_t *e, const tree_slot *slot, uint64_t w, int64_t sig, int32_t thread) {
    if (e->replica && sig != 0) { /* the real run sends it too: the process would take it twice */
        emu_fail(e,
                 "the program signals process %d at pc 0x%" PRIx64 " inside a simulation point, which is timed on a "
                 "forked copy of the run: time this program without --simpoints",
                 (int)word_vpid(w), e->h.pc);
        return -ENOSYS;
    }
    int pidfd;
    int64_t r = tree_open_member(slot, w, &pidfd);
    if (r) return r;
    uint32_t sender = (uint32_t)e->vpid | (uint32_t)(thread + 1) << 24;
    /* SIGKILL for a process with shared file mappings: carried by SIGTERM, so that it ends
     * through its emulator, which writes them back (a host SIGKILL lost those writes; before
     * 2026-11-29 a mapping its parent did not hold too was lost). A stopped process takes the
     * host's SIGKILL: it would not run the carrier's handler until continued. */
    emu_shown shown;
    slot_read(slot, &shown);
    if (sig == SIGKILL && shown.shared_files && host_state_of(word_host(w)) != 'T') {
        sender = (uint32_t)e->vpid | EMU_TREE_SIGKILL_CARRIED << 24;
        sig = SIGTERM;
    }
    r = emu_host_signal_send(word_host(w), pidfd, (uint64_t)e->tree->secret << 32 | sender, sig);
    if (pidfd >= 0) close(pidfd);
    return r;
}

int64_t emu_sys_kill(emu_t *e, int64_t pid, int64_t sig) {
    if (sig < 0 || sig > 64) return -EINVAL;
    if (pid == -1) { /* every process the caller may signal but itself */
        size_t reached = 0;
        for (size_t i = 0; e->tree && i < TREE_SLOTS; i++) {
            uint64_t w = __atomic_load_n(&e->tree->slots[i].member, __ATOMIC_ACQUIRE);
            if (word_is_member(w) && word_vpid(w) != e->vpid && kill_slot(e, &e->tree->slots[i], w, sig, -1) == 0)
                reached++;
        }
        return reached ? 0 : -ESRCH;
    }
    if (pid <= 0) { /* 0: the caller's group; -pgid: that group (Linux's __kill_pgrp_info) */
        int32_t group = (int32_t)-pid, own_pgid, own_sid;
        if (pid <= INT32_MIN) return -ESRCH;
        own_ids(e, &own_pgid, &own_sid);
        if (pid == 0) group = own_pgid;
        size_t reached = 0, tried = 0;
        int64_t last = -ESRCH;
        for (size_t i = 0; e->tree && i < TREE_SLOTS; i++) {
            const tree_slot *slot = &e->tree->slots[i];
            uint64_t w = __atomic_load_n(&slot->member, __ATOMIC_ACQUIRE);
            if (!word_is_member(w) || word_vpid(w) == e->vpid ||
                __atomic_load_n(&slot->pgid, __ATOMIC_ACQUIRE) != group)
                continue;
            int64_t r = kill_slot(e, slot, w, sig, -1);
            if (r == -ESRCH) continue; /* gone meanwhile: not a member */
            tried++;
            if (r == 0) reached++;
            else last = r;
        }
        if (own_pgid == group) return emu_sys_kill_process(e, sig); /* itself last, as before */
        return reached ? 0 : tried ? last : -ESRCH;
    }
    if (pid > INT32_MAX) return -ESRCH; /* no such pid */
    uint64_t w;
    const tree_slot *slot = tree_find_task(e, (int32_t)pid, &w); /* a thread's id: its process */
    if (slot) return kill_slot(e, slot, w, sig, -1);
    /* below the guest's pids are the host's (init, daemons): not the guest's to signal */
    return pid < GUEST_PID ? -EPERM : -ESRCH;
}

int64_t emu_sys_tgkill_other(emu_t *e, int64_t tgid, int64_t tid, int64_t sig) {
    if (sig < 0 || sig > 64 || tid <= 0 || tgid < -1 || tgid == 0) return -EINVAL;
    if (tid > INT32_MAX || tgid > INT32_MAX) return -ESRCH;
    uint64_t w;
    const tree_slot *slot = tree_find_task(e, (int32_t)tid, &w);
    if (!slot || (tgid > 0 && word_vpid(w) != tgid)) return tid < GUEST_PID ? -EPERM : -ESRCH;
    return kill_slot(e, slot, w, sig, (int32_t)tid - word_vpid(w)); /* that thread (Linux's do_tkill) */
}

/* The first process' run was abandoned by cyclescope (stopped before its end, or refused:
 * an unsupported call, a fork or kill inside a simulation point): the processes it started
 * would otherwise run on, or wait forever, after cyclescope exited. A guest that exited or
 * was killed by a signal leaves them as Linux does. */
static void end_abandoned_tree(emu_t *e) {
    bool abandoned = e->status == EMU_RUNNING || (e->status == EMU_FAILED && e->fault_signal == 0);
    if (!abandoned || e->replica || e->vpid != GUEST_PID || !e->tree) return;
    for (size_t i = 0; i < TREE_SLOTS; i++) {
        uint64_t w = __atomic_load_n(&e->tree->slots[i].member, __ATOMIC_ACQUIRE);
        if (word_is_member(w) && word_vpid(w) != e->vpid) (void)kill_slot(e, &e->tree->slots[i], w, SIGKILL, -1);
    }
    for (size_t i = 0; i < e->child_count; i++) /* no zombie left to whoever outlives us */
        while (waitpid(e->children[i].host, NULL, 0) < 0 && errno == EINTR) {
        }
}

void emu_processes_free(emu_t *e) {
    end_abandoned_tree(e);
    for (size_t i = 0; i < e->child_count; i++)
        if (e->children[i].pidfd >= 0) close(e->children[i].pidfd);
    free(e->children);
    e->children = NULL;
    e->child_count = e->child_cap = 0;
    if (e->tree) munmap(e->tree, sizeof(struct emu_tree));
    e->tree = NULL;
    if (e->tree_fd >= 0) close(e->tree_fd);
    e->tree_fd = -1;
}

/* ---- execve ---- */

/* Linux's limits (include/uapi/linux/binfmts.h MAX_ARG_STRLEN; the stack's quarter, which
 * emu.c's build_stack also keeps) */
enum { MAX_ARG_STRLEN = 32 * 4096, MAX_ARG_TOTAL = (8 << 20) / 4, MAX_ARG_COUNT = 0x7fffffff / 8 };

/* A guest NULL-terminated array of strings (argv, envp) into a growing list: 0 or -errno. */
static int64_t guest_strings(emu_t *e, uint64_t addr, char ***list, size_t *count, size_t *total) {
    *list = NULL;
    *count = 0;
    size_t cap = 0;
    for (uint64_t at = addr; addr; at += 8) {
        uint64_t ptr;
        if (guest_get(e, at, &ptr, 8)) return -EFAULT;
        if (!ptr) break;
        char *s = cs_malloc(MAX_ARG_STRLEN);
        if (!mem_read_string(&e->m, ptr, s, MAX_ARG_STRLEN)) {
            bool fault = !mem_user_copy_out(&e->m, ptr, s, 1);
            free(s);
            return fault ? -EFAULT : -E2BIG;
        }
        *total += strlen(s) + 1 + 8;
        if (*total > MAX_ARG_TOTAL || *count + 2 > (size_t)MAX_ARG_COUNT) {
            free(s);
            return -E2BIG;
        }
        if (*count + 2 > cap) {
            cap = cap ? 2 * cap : 16;
            *list = cs_realloc(*list, cs_array_size(cap, sizeof **list));
        }
        (*list)[(*count)++] = cs_realloc(s, strlen(s) + 1);
        (*list)[*count] = NULL;
    }
    return 0;
}

static void free_strings(char **list, size_t count) {
    for (size_t i = 0; i < count; i++) free(list[i]);
    free(list);
}

/* What a program file is to the emulator: 0 a RISC-V 64-bit ELF, 1 a #! script (its
 * interpreter and argument in interp/arg), or -errno (ENOEXEC for anything else). */
static int64_t program_kind(int hdir, const char *path, char *interp, char *arg) {
    int fd = openat(hdir, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -EACCES; /* a directory, a device: Linux's EACCES */
    }
    if (faccessat(hdir, path, X_OK, 0) != 0) {
        int why = errno;
        close(fd);
        return -why;
    }
    unsigned char head[256];
    ssize_t n = pread(fd, head, sizeof head - 1, 0);
    close(fd);
    if (n < 0) return -EIO;
    head[n] = 0;
    if (n >= 20 && !memcmp(head, "\177ELF", 4)) /* ELFCLASS64, little-endian, EM_RISCV (243) */
        return head[4] == 2 && head[5] == 1 && (head[18] | head[19] << 8) == 243 ? 0 : -ENOEXEC;
    if (n < 2 || head[0] != '#' || head[1] != '!') return -ENOEXEC;
    /* fs/binfmt_script.c: the interpreter, then at most one argument, the rest of the line */
    char *line = (char *)head + 2, *end = strchr(line, '\n');
    if (!end) return -ENOEXEC; /* longer than the kernel reads */
    *end = 0;
    while (*line == ' ' || *line == '\t') line++;
    char *name_end = line + strcspn(line, " \t");
    if (name_end == line) return -ENOEXEC;
    char *rest = *name_end ? name_end + 1 : name_end;
    *name_end = 0;
    while (*rest == ' ' || *rest == '\t') rest++;
    size_t rest_len = strlen(rest);
    while (rest_len && (rest[rest_len - 1] == ' ' || rest[rest_len - 1] == '\t')) rest[--rest_len] = 0;
    snprintf(interp, PATH_MAX, "%s", line);
    snprintf(arg, PATH_MAX, "%s", rest);
    return 1;
}

/* The exec state: NUL-terminated fields, in the order emu_create_exec_state reads them. */
typedef struct state_buf {
    char *data;
    size_t len, cap;
} state_buf;

static void put_field(state_buf *b, const char *s) {
    size_t n = strlen(s) + 1;
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2;
        b->data = cs_realloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static void put_number(state_buf *b, uint64_t v) {
    char text[32];
    snprintf(text, sizeof text, "%" PRIu64, v);
    put_field(b, text);
}

int64_t emu_sys_execve(emu_t *e, int hdir, const char *guest_path, uint64_t argv_addr, uint64_t envp_addr) {
    char interp[PATH_MAX], arg[PATH_MAX], path_under[PATH_MAX], interp_under[PATH_MAX];
    /* an absolute path is the guest library prefix's when it has it (--sysroot: its bin/sh) */
    const char *path = emu_exec_path(e, guest_path, path_under, sizeof path_under);
    int64_t kind = program_kind(hdir, path, interp, arg);
    if (kind < 0) return kind;
    const char *interp_path = interp;
    if (kind == 1) { /* the interpreter must be a RISC-V program too (not another script) */
        char unused[PATH_MAX], unused_arg[PATH_MAX];
        interp_path = emu_exec_path(e, interp, interp_under, sizeof interp_under);
        int64_t ik = program_kind(hdir, interp_path, unused, unused_arg);
        if (ik < 0) return ik == -ENOEXEC || ik == -EACCES ? ik : -ENOENT;
        if (ik != 0) return -ENOEXEC;
    }
    char **argv = NULL, **envp = NULL;
    size_t argc = 0, envc = 0, total = 0;
    int64_t bad = guest_strings(e, argv_addr, &argv, &argc, &total);
    if (!bad) bad = guest_strings(e, envp_addr, &envp, &envc, &total);
    if (bad) {
        free_strings(argv, argc);
        free_strings(envp, envc);
        return bad;
    }
    if (!e->opt.may_exec) {
        emu_fail(e,
                 "the program execs %s (pc 0x%" PRIx64 "): a run that times or counts a program observes that "
                 "program alone; `cyclescope exec` without --stats or --max lets it exec",
                 guest_path, e->h.pc);
        free_strings(argv, argc);
        free_strings(envp, envc);
        return -ENOSYS;
    }
    state_buf b = {0};
    put_field(&b, EXEC_STATE_MAGIC);
    put_field(&b, kind == 1 ? interp_path : path);
    /* the new name (comm): the basename of the path executed, a script's own, not its
     * interpreter's (fs/exec.c begin_new_exec: kbasename(bprm->filename)); before
     * 2026-11-29 a script's process was named after its interpreter */
    const char *base = strrchr(guest_path, '/');
    put_field(&b, base ? base + 1 : guest_path);
    /* argv: a script's is its interpreter, its argument, the script's path, then argv[1..] */
    size_t skip = argc > 0 ? 1 : 0; /* argv[0]: replaced for a script, its own field otherwise */
    size_t head = kind == 1 ? (*arg ? 3 : 2) : 1;
    put_number(&b, head + argc - skip);
    if (kind == 1) { /* the names as the script and the guest gave them (Linux's argv) */
        put_field(&b, interp);
        if (*arg) put_field(&b, arg);
        put_field(&b, guest_path);
    } else {
        put_field(&b, argc ? argv[0] : guest_path); /* the emulator needs an argv[0]: Linux would pass none */
    }
    for (size_t i = skip; i < argc; i++) put_field(&b, argv[i]);
    put_number(&b, envc);
    for (size_t i = 0; i < envc; i++) put_field(&b, envp[i]);
    free_strings(argv, argc);
    free_strings(envp, envc);
    put_number(&b, (uint64_t)e->vpid);
    put_number(&b, (uint64_t)e->parent_vpid);
    put_number(&b, (uint64_t)e->parent_host);
    put_number(&b, (uint64_t)(int64_t)e->tree_fd);
    put_field(&b, e->allow_write_real ? e->allow_write_real : "");
    put_number(&b, e->opt.host_time);
    put_number(&b, e->opt.seed);
    put_number(&b, e->opt.quiet);
    put_number(&b, e->opt.memory_limit);
    put_number(&b, e->opt.strict_syscalls);
    put_number(&b, e->opt.thread_quantum);
    put_number(&b, e->umask_set);
    put_number(&b, e->guest_umask);
    put_number(&b, (uint64_t)(int64_t)e->nice);
    put_number(&b, e->ctx.sig_blocked);
    uint64_t ignored = 0;
    for (int sig = 1; sig <= 64; sig++)
        if (e->sigaction_handler[sig] == 1) ignored |= SIG_BIT(sig); /* SIG_IGN stays; handlers do not */
    put_number(&b, ignored);
    /* the host's signal mask to restore once the new process notes its parent's signals (the
     * execve keeps every signal blocked until then, as the fork does) */
    sigset_t all, before;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &before);
    uint64_t host_mask = 0;
    for (int sig = 1; sig <= 64; sig++)
        if (sigismember(&before, sig) == 1) host_mask |= SIG_BIT(sig);
    put_number(&b, host_mask);
    /* the descriptors without FD_CLOEXEC, on the host descriptors they have now */
    int kept[EMU_MAX_FDS];
    size_t nkept = 0;
    for (int i = 0; i < EMU_MAX_FDS; i++)
        if (e->fds[i].host >= 0 && !e->fds[i].cloexec) kept[nkept++] = i;
    put_number(&b, nkept);
    for (size_t k = 0; k < nkept; k++) {
        const guest_fd *g = &e->fds[kept[k]];
        put_number(&b, (uint64_t)kept[k]);
        put_number(&b, (uint64_t)g->host);
        put_number(&b, g->writable);
        put_number(&b, g->nonblock);
        /* a /proc comm file open for writing renames its thread still (before 2026-11-29 it
         * became the memfd it reads, a plain file taking the writes) */
        put_number(&b, (uint64_t)(uint32_t)g->comm_tid);
        put_field(&b, g->path ? g->path : "");
    }
    /* the children: the host process stays their parent through the execve, and the new
     * program may wait for them (Linux keeps them) */
    put_number(&b, e->child_count);
    for (size_t i = 0; i < e->child_count; i++) {
        put_number(&b, (uint64_t)e->children[i].vpid);
        put_number(&b, (uint64_t)e->children[i].host);
        put_number(&b, e->children[i].announced);
    }
    /* the resource limits: Linux keeps them across an execve */
    for (int res = 0; res < GUEST_RLIMITS; res++) {
        put_number(&b, e->rlim[res][0]);
        put_number(&b, e->rlim[res][1]);
    }
    int state = memfd_create("cyclescope-exec-state", 0); /* kept across the execve */
    if (state < 0 || write(state, b.data, b.len) != (ssize_t)b.len || lseek(state, 0, SEEK_SET) != 0) {
        int why = errno ? errno : EIO;
        if (state >= 0) close(state);
        free(b.data);
        sigprocmask(SIG_SETMASK, &before, NULL);
        return -why;
    }
    free(b.data);
    /* the kept descriptors stay open on the host; a pipe the guest did not make non-blocking
     * is blocking again for the program that reads it as its own file */
    int flags_before[EMU_MAX_FDS];
    for (size_t k = 0; k < nkept; k++) {
        const guest_fd *g = &e->fds[kept[k]];
        flags_before[k] = fcntl(g->host, F_GETFL);
        fcntl(g->host, F_SETFD, 0);
        if ((g->pipe || g->eventfd) && !g->nonblock && flags_before[k] >= 0)
            fcntl(g->host, F_SETFL, flags_before[k] & ~O_NONBLOCK);
    }
    if (e->tree_fd >= 0) fcntl(e->tree_fd, F_SETFD, 0);
    char state_text[16];
    snprintf(state_text, sizeof state_text, "%d", state);
    char *host_argv[] = {"cyclescope", "exec", "--exec-state", state_text, NULL};
    int cwd = open(".", O_PATH | O_CLOEXEC);        /* to come back to if the execve fails */
    if (e->cwd_fd >= 0 && fchdir(e->cwd_fd) != 0) { /* the new program's relative paths are the guest's */
    }
    signal(SIGPIPE, SIG_DFL);
    progress_interrupt();
    fflush(NULL);
    vfork_share_memory(e); /* a vfork child's writes, for its parent (again at its exit if this fails) */
    uint64_t own_word;
    tree_slot *own = tree_find(e, e->vpid, &own_word);
    if (own) __atomic_store_n(&own->execed, 1, __ATOMIC_RELEASE); /* before: its parent's setpgid is EACCES */
    execve("/proc/self/exe", host_argv, environ);
    int why = errno;
    if (own) __atomic_store_n(&own->execed, 0, __ATOMIC_RELEASE);
    /* it failed: everything as it was */
    if (cwd >= 0) {
        if (fchdir(cwd) != 0) {
        }
        close(cwd);
    }
    signal(SIGPIPE, SIG_IGN); /* as while any emulator lives (emu.c emu_create) */
    for (size_t k = 0; k < nkept; k++) {
        const guest_fd *g = &e->fds[kept[k]];
        if (g->host > 2) fcntl(g->host, F_SETFD, FD_CLOEXEC);
        if (flags_before[k] >= 0) fcntl(g->host, F_SETFL, flags_before[k]);
    }
    if (e->tree_fd >= 0) fcntl(e->tree_fd, F_SETFD, FD_CLOEXEC);
    close(state);
    sigprocmask(SIG_SETMASK, &before, NULL);
    return -why;
}

/* ---- the process an execve made ---- */

typedef struct state_reader {
    const char *at, *end;
    bool bad;
} state_reader;

static const char *get_field(state_reader *r) {
    const char *nul = r->at < r->end ? memchr(r->at, 0, (size_t)(r->end - r->at)) : NULL;
    if (!nul) {
        r->bad = true;
        return "";
    }
    const char *s = r->at;
    r->at = nul + 1;
    return s;
}

static uint64_t get_number(state_reader *r) {
    const char *s = get_field(r);
    char *end;
    uint64_t v = strtoull(s, &end, 10);
    if (!*s || *end) r->bad = true;
    return v;
}

emu_t *emu_create_exec_state(int fd, cs_error *err) {
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 || st.st_size > (64 << 20)) {
        cs_error_set(err, "--exec-state %d: not a state a guest execve wrote", fd);
        return NULL;
    }
    size_t size = (size_t)st.st_size;
    char *data = cs_malloc(size);
    bool read_all = pread(fd, data, size, 0) == (ssize_t)size;
    close(fd);
    state_reader r = {data, data + size, !read_all};
    if (strcmp(get_field(&r), EXEC_STATE_MAGIC) != 0) r.bad = true;
    const char *path = get_field(&r), *comm = get_field(&r);
    size_t argc = r.bad ? 0 : (size_t)get_number(&r);
    if (argc > size) r.bad = true;
    const char **argv = cs_calloc(r.bad ? 1 : argc + 1, sizeof *argv);
    for (size_t i = 0; !r.bad && i < argc; i++) argv[i] = get_field(&r);
    size_t envc = r.bad ? 0 : (size_t)get_number(&r);
    if (envc > size) r.bad = true;
    const char **envp = cs_calloc(r.bad ? 1 : envc + 1, sizeof *envp);
    for (size_t i = 0; !r.bad && i < envc; i++) envp[i] = get_field(&r);
    emu_options o = {0};
    o.argc = (int)argc;
    o.argv = argv;
    o.envp = envp;
    o.vpid = (int32_t)get_number(&r);
    o.parent_vpid = (int32_t)get_number(&r);
    pid_t parent_host = (pid_t)get_number(&r);
    int tree_fd = (int)(int64_t)get_number(&r);
    const char *allow = get_field(&r);
    o.allow_write_dir = *allow ? allow : NULL;
    o.host_time = get_number(&r) != 0;
    o.seed = get_number(&r);
    o.quiet = get_number(&r) != 0;
    o.memory_limit = get_number(&r);
    o.strict_syscalls = get_number(&r) != 0;
    o.thread_quantum = get_number(&r);
    o.may_exec = true;
    bool umask_set = get_number(&r) != 0;
    uint32_t umask_value = (uint32_t)get_number(&r);
    int8_t nice = (int8_t)(int64_t)get_number(&r);
    uint64_t blocked = get_number(&r), ignored = get_number(&r), host_mask = get_number(&r);
    size_t nfds = (size_t)get_number(&r);
    if (nfds > EMU_MAX_FDS || o.vpid <= 0) r.bad = true;
    emu_t *e = NULL;
    if (!r.bad) e = emu_create(path, &o, err);
    if (e) e->parent_host = parent_host;
    if (e) snprintf(e->ctx.comm, sizeof e->ctx.comm, "%s", comm);                 /* at most 15 bytes, as Linux's */
    if (e) e->opt.argv = NULL, e->opt.envp = NULL, e->opt.allow_write_dir = NULL; /* in `data`, freed below */
    if (r.bad && !e) cs_error_set(err, "--exec-state %d: not a state a guest execve wrote", fd);
    if (e) {
        for (int i = 0; i < 3; i++) e->fds[i].host = -1; /* the table is the exec'ing guest's */
        for (size_t k = 0; k < nfds && !r.bad; k++) {
            uint64_t gfd = get_number(&r), host = get_number(&r);
            bool writable = get_number(&r) != 0, nonblock = get_number(&r) != 0;
            uint64_t comm_tid = get_number(&r);
            const char *fd_path = get_field(&r);
            if (r.bad || gfd >= EMU_MAX_FDS || host > INT_MAX || fcntl((int)host, F_GETFD) < 0) continue;
            if (host > 2) fcntl((int)host, F_SETFD, FD_CLOEXEC);
            /* `forked`: the program before may have shared it with another process (an epoll
             * instance then waits on the host: that process may add to it) */
            e->fds[gfd] = (guest_fd){.host = (int)host,
                                     .writable = writable,
                                     .nonblock = nonblock,
                                     .forked = true,
                                     .comm_tid = comm_tid <= INT32_MAX ? (int32_t)comm_tid : 0,
                                     .path = *fd_path ? cs_strdup(fd_path) : NULL};
            struct stat fd_stat;
            if (fstat((int)host, &fd_stat) == 0 && S_ISSOCK(fd_stat.st_mode))
                emu_adopt_socket(e, (int)gfd); /* a socketpair's end */
        }
        size_t nchildren = r.bad ? 0 : (size_t)get_number(&r);
        if (nchildren > size) r.bad = true;
        for (size_t k = 0; k < nchildren && !r.bad; k++) {
            uint64_t vpid = get_number(&r), host = get_number(&r);
            bool announced = get_number(&r) != 0;
            if (r.bad || vpid < GUEST_PID || vpid > INT32_MAX || host == 0 || host > INT32_MAX) continue;
            if (e->child_count == e->child_cap) {
                e->child_cap = e->child_cap ? 2 * e->child_cap : 8;
                e->children = cs_realloc(e->children, cs_array_size(e->child_cap, sizeof *e->children));
            }
            e->children[e->child_count++] =
                (emu_child){.vpid = (int32_t)vpid, .host = (pid_t)host, .pidfd = -1, .announced = announced};
        }
        if (e->child_count) emu_host_child_ended = 1; /* one that ended meanwhile is looked for */
        for (int res = 0; res < GUEST_RLIMITS && !r.bad; res++) {
            uint64_t soft = get_number(&r), hard = get_number(&r);
            if (r.bad || soft > hard) break;
            e->rlim[res][0] = soft;
            e->rlim[res][1] = hard;
        }
        if (!r.bad) mem_set_limit(&e->m, e->rlim[GUEST_RLIMIT_AS][0]); /* a lowered RLIMIT_AS bounds the mappings */
        e->umask_set = umask_set;
        e->guest_umask = umask_value;
        e->nice = nice;
        e->ctx.sig_blocked = blocked & ~SIG_UNBLOCKABLE;
        for (int sig = 1; sig <= 64; sig++)
            if (ignored & SIG_BIT(sig)) e->sigaction_handler[sig] = 1;
        if (tree_fd >= 0) {
            void *p = mmap(NULL, sizeof(struct emu_tree), PROT_READ | PROT_WRITE, MAP_SHARED, tree_fd, 0);
            if (p != MAP_FAILED) {
                e->tree = p;
                e->tree_fd = tree_fd;
                fcntl(tree_fd, F_SETFD, FD_CLOEXEC);
                emu_tree_threads_changed(e); /* the threads before the execve are gone */
            } else {
                close(tree_fd);
            }
        }
    }
    /* a child of the guest's takes its parent's signals from now (the first process keeps
     * the host's actions, Ctrl-C ends the run, but takes its tree's, as before the execve);
     * then what the execve held blocked comes */
    if (e && e->parent_vpid >= GUEST_PID) emu_host_signals_receive(e);
    else if (e && e->tree) emu_host_signals_receive_from_tree(e);
    sigset_t host_blocked;
    sigemptyset(&host_blocked);
    for (int sig = 1; sig <= 64; sig++)
        if ((host_mask & SIG_BIT(sig)) && sig != 32 && sig != 33) sigaddset(&host_blocked, sig);
    sigprocmask(SIG_SETMASK, &host_blocked, NULL);
    free(argv);
    free(envp);
    free(data);
    return e;
}
