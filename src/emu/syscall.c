/* The Linux system calls of a static glibc program (riscv64 uses the generic
 * numbering of include/uapi/asm-generic/unistd.h).
 *
 * Notes:
 *  - Threads run on the one hart (thread.c). A signal (sent by the guest itself, SIGPIPE,
 *    the setitimer alarm, a fault) with the default action ends the run like the kernel
 *    would; one with a handler runs it on a riscv64 signal frame (signal.c; docs/sandbox.md §4).
 *  - Time is the instruction count at 1 ns per instruction from a fixed epoch,
 *    plus the time the guest slept, unless host time was asked for; random
 *    bytes come from a fixed seed.
 *  - The guest reads host files freely but writes only stdout/stderr, or files
 *    beneath the --allow-write directory, resolved there by the kernel in one
 *    step (docs/sandbox.md).
 *  - A call we do not serve returns -ENOSYS with one warning per call number,
 *    or with --strict-syscalls ends the run naming the call and the pc.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "emu_internal.h"

#define GUEST_EPOCH 1767225600ull /* 2026-01-01T00:00:00Z */
/* clang-format off */
#define MAX_IO (16u << 20)
#define GUEST_TASK_SIZE (1ull << 47) /* beyond any address the guest can map */

enum {
    SYS_eventfd2 = 19, SYS_epoll_create1 = 20, SYS_epoll_ctl = 21, SYS_epoll_pwait = 22, SYS_epoll_pwait2 = 441,
    SYS_getcwd = 17, SYS_ftruncate = 46, SYS_fsync = 82, SYS_fdatasync = 83, SYS_pselect6 = 72,
    SYS_ppoll = 73, SYS_sync = 81, SYS_sched_getparam = 121, SYS_sched_getscheduler = 120,
    SYS_setpriority = 140, SYS_getpriority = 141, SYS_mknodat = 33, SYS_setpgid = 154, SYS_getpgid = 155, SYS_getsid = 156, SYS_setsid = 157, SYS_umask = 166, SYS_prctl = 167,
    SYS_getgroups = 158, SYS_mincore = 232, SYS_fadvise64 = 223, SYS_statfs = 43, SYS_fstatfs = 44,
    SYS_getcpu = 168, SYS_mlock = 228, SYS_munlock = 229, SYS_mlockall = 230, SYS_munlockall = 231,
    SYS_syncfs = 267, SYS_fchdir = 50, SYS_getitimer = 102, SYS_rt_sigsuspend = 133,
    SYS_dup = 23, SYS_dup3 = 24, SYS_fcntl = 25, SYS_ioctl = 29, SYS_mkdirat = 34,
    SYS_unlinkat = 35, SYS_symlinkat = 36, SYS_linkat = 37, SYS_renameat = 38, SYS_faccessat = 48, SYS_chdir = 49, SYS_openat = 56,
    SYS_close = 57, SYS_pipe2 = 59, SYS_getdents64 = 61, SYS_lseek = 62, SYS_read = 63,
    SYS_write = 64, SYS_readv = 65, SYS_writev = 66, SYS_pread64 = 67, SYS_pwrite64 = 68,
    SYS_readlinkat = 78, SYS_newfstatat = 79, SYS_fstat = 80, SYS_exit = 93, SYS_exit_group = 94,
    SYS_set_tid_address = 96, SYS_futex = 98, SYS_set_robust_list = 99, SYS_nanosleep = 101,
    SYS_setitimer = 103,
    SYS_clock_gettime = 113, SYS_clock_getres = 114, SYS_clock_nanosleep = 115,
    SYS_sched_getaffinity = 123, SYS_sched_yield = 124, SYS_kill = 129, SYS_tkill = 130,
    SYS_tgkill = 131, SYS_sigaltstack = 132, SYS_rt_sigaction = 134, SYS_rt_sigprocmask = 135,
    SYS_rt_sigpending = 136, SYS_rt_sigtimedwait = 137, SYS_rt_sigqueueinfo = 138, SYS_rt_sigreturn = 139,
    SYS_rt_tgsigqueueinfo = 240, SYS_setregid = 143, SYS_setgid = 144, SYS_setreuid = 145, SYS_setuid = 146,
    SYS_setresuid = 147, SYS_getresuid = 148, SYS_setresgid = 149, SYS_getresgid = 150, SYS_setfsuid = 151,
    SYS_setfsgid = 152,
    SYS_times = 153, SYS_uname = 160, SYS_getrlimit = 163, SYS_setrlimit = 164, SYS_getrusage = 165,
    SYS_gettimeofday = 169, SYS_getpid = 172, SYS_getppid = 173, SYS_getuid = 174,
    SYS_geteuid = 175, SYS_getgid = 176, SYS_getegid = 177, SYS_gettid = 178, SYS_sysinfo = 179,
    SYS_acct = 89, SYS_sendfile = 71, SYS_splice = 76, SYS_tee = 77, SYS_copy_file_range = 285, SYS_socket = 198, SYS_socketpair = 199, SYS_bind = 200, SYS_listen = 201, SYS_accept = 202, SYS_connect = 203,
    SYS_getsockname = 204, SYS_getpeername = 205, SYS_sendto = 206, SYS_recvfrom = 207, SYS_setsockopt = 208,
    SYS_getsockopt = 209, SYS_shutdown = 210, SYS_sendmsg = 211, SYS_recvmsg = 212, SYS_accept4 = 242,
    SYS_recvmmsg = 243, SYS_sendmmsg = 269, SYS_brk = 214, SYS_munmap = 215, SYS_mremap = 216, SYS_clone = 220,
    SYS_execve = 221, SYS_mmap = 222, SYS_mprotect = 226, SYS_msync = 227, SYS_madvise = 233, SYS_wait4 = 260, SYS_waitid = 95,
    SYS_riscv_hwprobe = 258, SYS_riscv_flush_icache = 259, SYS_prlimit64 = 261,
    SYS_renameat2 = 276, SYS_getrandom = 278, SYS_statx = 291, SYS_rseq = 293, SYS_clone3 = 435,
    SYS_faccessat2 = 439, SYS_fchmod = 52, SYS_fchmodat = 53, SYS_fchown = 55, SYS_fchownat = 54, SYS_utimensat = 88
};
/* clang-format on */

/* clang-format off */
static const char *syscall_name(unsigned long nr) {
    switch (nr) {
#define NAME(n) \
    case SYS_##n: return #n;
        NAME(eventfd2) NAME(epoll_create1) NAME(epoll_ctl) NAME(epoll_pwait) NAME(epoll_pwait2)
        NAME(getcwd) NAME(fchmod) NAME(fchmodat) NAME(fchown) NAME(fchownat) NAME(utimensat) NAME(ftruncate) NAME(fsync) NAME(fdatasync) NAME(pselect6) NAME(ppoll)
        NAME(sync) NAME(sched_getparam) NAME(sched_getscheduler) NAME(setpgid) NAME(getpgid) NAME(getsid) NAME(setsid) NAME(prctl)
        NAME(getcpu) NAME(mlock) NAME(munlock) NAME(mlockall) NAME(munlockall) NAME(syncfs)
        NAME(setpriority) NAME(getpriority) NAME(mknodat) NAME(getgroups) NAME(mincore) NAME(fadvise64) NAME(statfs) NAME(fstatfs) NAME(umask) NAME(fchdir) NAME(getitimer) NAME(rt_sigsuspend)
        NAME(dup) NAME(dup3) NAME(fcntl) NAME(ioctl) NAME(mkdirat) NAME(unlinkat) NAME(symlinkat) NAME(linkat)
        NAME(renameat) NAME(faccessat) NAME(chdir) NAME(openat) NAME(close) NAME(pipe2)
        NAME(getdents64) NAME(lseek) NAME(read) NAME(write) NAME(readv) NAME(writev) NAME(pread64)
        NAME(pwrite64) NAME(readlinkat) NAME(newfstatat) NAME(fstat) NAME(exit) NAME(exit_group)
        NAME(set_tid_address) NAME(futex) NAME(set_robust_list) NAME(nanosleep) NAME(setitimer)
        NAME(clock_gettime)
        NAME(clock_getres) NAME(clock_nanosleep) NAME(sched_getaffinity) NAME(sched_yield)
        NAME(kill) NAME(tkill) NAME(tgkill) NAME(sigaltstack) NAME(rt_sigaction)
        NAME(rt_sigprocmask) NAME(rt_sigpending) NAME(rt_sigtimedwait) NAME(rt_sigqueueinfo) NAME(rt_tgsigqueueinfo) NAME(rt_sigreturn) NAME(times) NAME(uname) NAME(getrlimit) NAME(setrlimit) NAME(getrusage) NAME(setregid) NAME(setgid) NAME(setreuid) NAME(setuid) NAME(setresuid) NAME(getresuid) NAME(setresgid) NAME(getresgid) NAME(setfsuid) NAME(setfsgid)
        NAME(gettimeofday) NAME(getpid) NAME(getppid) NAME(getuid) NAME(geteuid) NAME(getgid)
        NAME(getegid) NAME(gettid) NAME(sysinfo) NAME(acct) NAME(sendfile) NAME(splice) NAME(tee) NAME(copy_file_range) NAME(socket) NAME(socketpair) NAME(bind) NAME(listen) NAME(accept) NAME(connect)
        NAME(getsockname) NAME(getpeername) NAME(sendto) NAME(recvfrom) NAME(setsockopt) NAME(getsockopt)
        NAME(shutdown) NAME(sendmsg) NAME(recvmsg) NAME(accept4) NAME(recvmmsg) NAME(sendmmsg) NAME(brk) NAME(munmap) NAME(mremap)
        NAME(clone) NAME(execve) NAME(mmap) NAME(mprotect) NAME(msync) NAME(madvise) NAME(wait4)
        NAME(riscv_hwprobe) NAME(riscv_flush_icache) NAME(prlimit64) NAME(renameat2)
        NAME(getrandom) NAME(statx) NAME(rseq) NAME(clone3) NAME(faccessat2)
#undef NAME
    default: return "unknown";
    }
}
/* clang-format on */

uint64_t emu_guest_time_ns(const emu_t *e, bool monotonic) {
    if (e->opt.host_time) {
        struct timespec ts;
        clock_gettime(monotonic ? CLOCK_MONOTONIC : CLOCK_REALTIME, &ts);
        return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    }
    return (monotonic ? 0 : GUEST_EPOCH * 1000000000ull) + e->icount + e->slept_ns;
}

/* nanosleep(req, rem) and clock_nanosleep(clock, flags, req, rem): never interrupted (no
 * signal is delivered); on the guest clock the time asked for passes at once (until an
 * absolute time: whatever is left of it). With --host-time nothing waits. */
/* The guest's struct timespec at `addr` in nanoseconds (saturating far beyond any run):
 * 0, -EFAULT, or -EINVAL for a negative or unnormalised one, as Linux refuses it. */
static int64_t guest_timespec_ns(emu_t *e, uint64_t addr, uint64_t *ns) {
    int64_t ts[2];
    if (guest_get(e, addr, ts, sizeof ts)) return -EFAULT;
    if (ts[0] < 0 || ts[1] < 0 || ts[1] > 999999999) return -EINVAL;
    *ns = (uint64_t)ts[0] > UINT64_MAX / 2000000000ull ? UINT64_MAX / 2
                                                       : (uint64_t)ts[0] * 1000000000ull + (uint64_t)ts[1];
    return 0;
}

/* `ns` pass on the guest clock (nothing to do on the host's, --host-time). False when a
 * signal with a handler ended the wait early (the caller returns -EINTR); `left` (if not
 * NULL) is the time that did not pass. */
static bool guest_sleep(emu_t *e, uint64_t ns, uint64_t *left) {
    if (left) *left = 0;
    /* an alarm due meanwhile arrives at its time (an ignored or blocked one does not end the sleep) */
    for (uint64_t due; e->status == EMU_RUNNING && (due = emu_alarm_budget(e)) <= ns;) {
        e->slept_ns += due;
        ns -= due;
        emu_alarm_fire(e);
        if (emu_signal_handler_ready(e)) { /* its handler interrupts the sleep */
            if (left) *left = ns;
            return false;
        }
        if (e->alarm_at_ns && !emu_alarm_would_wake(e) && emu_alarm_budget(e) <= ns) {
            /* blocked (already pending) or ignored: the firings left in the sleep change
             * nothing, so skip them rather than loop once per interval */
            uint64_t end = emu_guest_clock_ns(e) + ns;
            e->alarm_at_ns += ((end - e->alarm_at_ns) / e->alarm_interval_ns + 1) * e->alarm_interval_ns;
        }
    }
    if (e->status != EMU_RUNNING) return true;
    if (!e->opt.host_time && e->slept_ns + ns >= e->slept_ns) e->slept_ns += ns;
    return true;
}

/* Whether Linux knows the clock (kernel/time/posix-timers.c clockid_to_kclock): 0 to 11 but
 * the removed CLOCK_SGI_CYCLE (10); a negative id is a CPU clock (posix-cpu-timers.c): its
 * low two bits name what it counts (3, CLOCKFD, is none here) and the rest a pid, ~(id >> 3),
 * which must be this process (0, or its pid; a thread clock: this thread's id). Any other
 * id is EINVAL; before, every id read the guest's clock. */
static bool clock_id_known(emu_t *e, uint64_t clock) {
    int32_t id = (int32_t)clock;
    if (id >= 0) return id <= CLOCK_TAI && id != 10;
    if ((id & 3) == 3) return false;
    int32_t pid = ~(id >> 3);
    return pid == 0 || pid == ((id & 4) ? emu_thread_tid(e) : e->vpid);
}

static int64_t sys_nanosleep(emu_t *e, uint64_t clock, uint64_t flags, uint64_t req, uint64_t rem) {
    /* a thread's CPU clock cannot be slept on (Linux: EINVAL), nor the raw and coarse clocks,
     * which have no timers (posix-timers.c: EOPNOTSUPP) */
    if (!clock_id_known(e, clock) || (int32_t)clock == CLOCK_THREAD_CPUTIME_ID || ((int32_t)clock < 0 && (clock & 4)))
        return -EINVAL;
    if (clock == CLOCK_MONOTONIC_RAW || clock == CLOCK_REALTIME_COARSE || clock == CLOCK_MONOTONIC_COARSE)
        return -EOPNOTSUPP;
    uint64_t ns;
    int64_t bad = guest_timespec_ns(e, req, &ns);
    if (bad || e->opt.host_time) return bad;
    if (flags & 1) { /* TIMER_ABSTIME */
        bool realtime = clock == CLOCK_REALTIME || clock == CLOCK_TAI;
        uint64_t now = emu_guest_time_ns(e, !realtime);
        ns = ns > now ? ns - now : 0;
    }
    if (emu_thread_sleep(e, ns, flags & 1 ? 0 : rem)) return 0; /* other threads run meanwhile (thread.c) */
    uint64_t left;
    if (guest_sleep(e, ns, &left)) return 0;
    /* interrupted by a handler: the time left, for a relative sleep (as Linux writes rem) */
    if (rem && !(flags & 1)) {
        int64_t ts[2] = {(int64_t)(left / 1000000000ull), (int64_t)(left % 1000000000ull)};
        if (guest_put(e, rem, ts, sizeof ts)) return -EFAULT;
    }
    return -EINTR;
}

/* ---- helpers ---- */

/* What follows /proc/self/, /proc/thread-self/ or /proc/PID/ (the guest's pid) in a guest
 * path: the name of an entry of the guest's own /proc directory, or NULL for any other path.
 * *thread_self (if not NULL) says whether it was the thread's. PID is also the host pid of
 * this cyclescope process, which readlink("/proc/self") gives (the host's link): glibc's
 * realpath("/proc/self/exe") and std::filesystem::canonical walk that link and then read
 * /proc/PID/exe, which named cyclescope (qemu-riscv64 takes its own pid as "self" too). */
static const char *proc_own_entry(const emu_t *e, const char *path, bool *thread_self) {
    if (strncmp(path, "/proc/", 6) != 0) return NULL;
    char own[32], host_own[32];
    snprintf(own, sizeof own, "/proc/%d/", e->vpid);
    snprintf(host_own, sizeof host_own, "/proc/%d/", (int)getpid());
    const char *prefixes[] = {"/proc/self/", "/proc/thread-self/", own, host_own};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(path, prefixes[i], n) != 0) continue;
        if (thread_self) *thread_self = i == 1;
        return path + n;
    }
    return NULL;
}

/* The absolute host path of the guest's working directory once it changed it (cwd_fd >= 0),
 * NUL-terminated in out: its length, or -errno. */
static ssize_t guest_cwd_path(const emu_t *e, char *out, size_t size) {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", e->cwd_fd);
    ssize_t n = readlink(link, out, size - 1);
    if (n < 0) return -errno;
    out[n] = 0;
    return n;
}

static bool proc_path_refused(emu_t *e, const char *path);

/* /proc/PID of a pid other than the guest's own, as Linux shows it in a PID namespace holding
 * the guest's processes alone: 0 with `path` rewritten, or -ENOENT. Before 2026-11-29 it was
 * the host's process of that number (another program, or none: the guest's pids are virtual,
 * getpid gives 1000, its children 1100, 1200, ...).
 * - a thread of this process (its tid): /proc/self/task/TID, whose comm, stat and status are
 *   the thread's (proc_self_file_of);
 * - another live process of the guest's tree (its parent, a child, a zombie child): the
 *   directory itself is that host process' (stat and access find it), and so are its stat,
 *   status, comm and cmdline, which open serves from what the process published in the tree's
 *   table (proc_other_fd); every other file in it is ENOENT (its figures live in that
 *   process' emulator: not known here);
 * - any other pid: ENOENT, the directory too. */
static int64_t proc_other_process(emu_t *e, char *path) {
    if (strncmp(path, "/proc/", 6) != 0 || path[6] < '1' || path[6] > '9') return 0;
    char *end;
    long pid = strtol(path + 6, &end, 10);
    if (*end && *end != '/') return 0; /* not a pid's directory: the host's answer (ENOENT) */
    if (pid == e->vpid) return 0;      /* its own (get_path, proc_own_entry) */
    char rest[PATH_MAX];
    snprintf(rest, sizeof rest, "%s", end);
    if (pid <= INT32_MAX && emu_thread_is_tid(e, pid)) {
        if ((size_t)snprintf(path, PATH_MAX, "/proc/self/task/%ld%s", pid, rest) >= PATH_MAX) return -ENAMETOOLONG;
        return 0;
    }
    pid_t host = emu_tree_host_pid(e, pid);
    if (!host) return -ENOENT;
    static const char *const shown[] = {"", "/", "/stat", "/status", "/comm", "/cmdline"};
    bool known = false;
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) known |= !strcmp(rest, shown[i]);
    if (!known) return -ENOENT; /* a file of another process it does not publish (emu_tree_publish) */
    return (size_t)snprintf(path, PATH_MAX, "/proc/%d%s", (int)host, rest) >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* A guest path, read into out (PATH_MAX bytes): 0, or -errno (EFAULT; ENOENT for a /proc file
 * open refuses: stat, access, statx and readlink agree with it). A path through the guest's
 * working directory by /proc (`/proc/self/cwd/NAME`, also thread-self's and by its pid) names
 * NAME in the guest's directory, not in cyclescope's (which the host's /proc/self/cwd is):
 * once the guest has changed directory it is rewritten to that directory's absolute path.
 * /proc/self/cwd itself stays (readlink answers it). */
static int64_t get_path(emu_t *e, uint64_t addr, char *out) {
    if (!mem_read_string(&e->m, addr, out, PATH_MAX)) return -EFAULT;
    /* /proc/PID by the guest's pid (readlink("/proc/self") gives it) is this process' host
     * directory, never the host's process of that number; any other pid, cyclescope's own host
     * pid among them, is another process (proc_other_process: ENOENT unless a guest process has
     * that number) */
    char own[32];
    int own_len = snprintf(own, sizeof own, "/proc/%d", e->vpid);
    if (strncmp(out, own, (size_t)own_len) || (out[own_len] != '/' && out[own_len])) {
        int64_t other = proc_other_process(e, out);
        if (other) return other;
    } else {
        char host_own[32];
        int host_len = snprintf(host_own, sizeof host_own, "/proc/%d", (int)getpid());
        size_t rest = strlen(out + own_len);
        if ((size_t)host_len + rest < PATH_MAX) {
            memmove(out + host_len, out + own_len, rest + 1);
            memcpy(out, host_own, (size_t)host_len);
        }
    }
    if (proc_path_refused(e, out)) return -ENOENT;
    const char *entry = e->cwd_fd >= 0 ? proc_own_entry(e, out, NULL) : NULL;
    if (!entry || strncmp(entry, "cwd/", 4) != 0) return 0;
    const char *name = entry + 4;
    char dir[PATH_MAX];
    ssize_t len = guest_cwd_path(e, dir, sizeof dir);
    size_t rest = strlen(name);
    if (len > 0 && (size_t)len + 1 + rest < PATH_MAX) {
        memmove(out + len + 1, name, rest + 1);
        memcpy(out, dir, (size_t)len);
        out[len] = '/';
    }
    return 0;
}

static guest_fd *fd_of(emu_t *e, uint64_t fd) {
    if (fd >= EMU_MAX_FDS || e->fds[fd].host < 0) return NULL;
    return &e->fds[fd];
}

/* one past the highest descriptor the guest may open: RLIMIT_NOFILE's soft limit */
static int fd_limit(const emu_t *e) {
    uint64_t soft = e->rlim[GUEST_RLIMIT_NOFILE][0];
    return soft < EMU_MAX_FDS ? (int)soft : EMU_MAX_FDS;
}

/* the lowest free guest descriptor from `lowest` (fcntl F_DUPFD's minimum), a copy of
 * `like` (dup: the same pipe end and flags) on the host descriptor `host` */
static int64_t fd_install_like(emu_t *e, int host, const guest_fd *like, int lowest, bool cloexec) {
    for (int i = lowest; i < fd_limit(e); i++) {
        if (e->fds[i].host < 0) {
            char *path = like->path ? cs_strdup(like->path) : NULL;
            free(e->fds[i].path);
            e->fds[i] = *like;
            e->fds[i].host = host;
            e->fds[i].path = path;
            e->fds[i].cloexec = cloexec;
            return i;
        }
    }
    close(host);
    return -EMFILE;
}

static int64_t fd_install(emu_t *e, int host, bool writable, const char *path, bool cloexec) {
    guest_fd like = {.host = host, .writable = writable, .path = (char *)path};
    return fd_install_like(e, host, &like, 0, cloexec);
}

/* the guest pipe `g` is an end of, NULL for any other file */
static guest_pipe *pipe_of(emu_t *e, const guest_fd *g) { return g && g->pipe > 0 ? &e->pipes[g->pipe - 1] : NULL; }

/* whether any of the guest's descriptors is an end of pipe `index` (+1) that writes
 * (`writer`) or reads */
static bool pipe_has_end(const emu_t *e, int index, bool writer) {
    for (int i = 0; i < EMU_MAX_FDS; i++)
        if (e->fds[i].host >= 0 && e->fds[i].pipe == index && e->fds[i].writable == writer) return true;
    return false;
}

/* the host descriptor is an end of a pipe the guest made: nobody else can make it ready */
static bool host_fd_is_guest_pipe(const emu_t *e, int host) {
    for (int i = 0; i < EMU_MAX_FDS; i++)
        if (e->fds[i].host == host && e->fds[i].pipe && !e->pipes[e->fds[i].pipe - 1].cross_process) return true;
    return false;
}

/* dirfd for *at() calls: AT_FDCWD (the guest's working directory) or one of its descriptors. */
static bool host_dirfd(emu_t *e, int64_t dirfd, int *out) {
    if ((int)dirfd == AT_FDCWD) {
        *out = e->cwd_fd >= 0 ? e->cwd_fd : AT_FDCWD;
        return true;
    }
    guest_fd *g = fd_of(e, (uint64_t)dirfd);
    if (!g) return false;
    *out = g->host;
    return true;
}

/* Where a guest path lies, as a path relative to the --allow-write directory:
 * the directory part resolved on the host (realpath), the last component kept
 * as written, a trailing slash included ("name/" must be a directory: Linux's
 * ENOTDIR, EISDIR come from the kernel's own call on it). This only chooses what
 * to ask for; the open itself is resolved beneath the directory by the kernel in
 * one step (cs_open_beneath), so a link swapped in between cannot lead outside.
 * Returns 0, -EACCES when the path lies outside, or the errno of resolving its
 * directory. */
static int64_t path_beneath(emu_t *e, int hdir, const char *path, char *rel, size_t rel_size) {
    char full[PATH_MAX * 2], resolved[PATH_MAX];
    if (!path[0]) return -ENOENT;
    if (path[0] == '/') {
        snprintf(full, sizeof full, "%s", path);
    } else {
        char base[PATH_MAX];
        if (hdir == AT_FDCWD) {
            if (!getcwd(base, sizeof base)) return -errno;
        } else { /* the directory the guest's dirfd holds */
            char link[64];
            snprintf(link, sizeof link, "/proc/self/fd/%d", hdir);
            ssize_t n = readlink(link, base, sizeof base - 1);
            if (n < 0) return -errno;
            base[n] = 0;
            if (base[0] != '/') return -ENOTDIR; /* a pipe or socket, not a directory */
        }
        snprintf(full, sizeof full, "%s/%s", base, path);
    }
    size_t len = strlen(full);
    bool trailing_slash = false;
    while (len > 1 && full[len - 1] == '/') full[--len] = 0, trailing_slash = true;
    /* DIR itself named from outside it (an O_TMPFILE open of DIR): "." beneath DIR. Only then:
     * a link in DIR to DIR (gnulib's symlink(".", "link1")) is a name beneath DIR, which
     * unlink and rename act on, not DIR */
    bool dir_itself = realpath(full, resolved) && strcmp(resolved, e->allow_write_real) == 0;
    char *slash = strrchr(full, '/');
    const char *last = slash + 1;
    *slash = 0;
    if (!realpath(slash == full ? "/" : full, resolved)) return -errno;
    const char *root = e->allow_write_real;
    size_t n = strcmp(root, "/") == 0 ? 0 : strlen(root);
    if (strncmp(resolved, root, n) != 0 || (resolved[n] != '/' && resolved[n] != 0)) {
        if (!dir_itself) return -EACCES;
        snprintf(rel, rel_size, ".");
        return 0;
    }
    const char *below = resolved + n + (resolved[n] == '/');
    int w;
    if (!last[0]) w = snprintf(rel, rel_size, "%s", *below ? below : "."); /* the path was "/" */
    else w = snprintf(rel, rel_size, "%s%s%s%s", below, *below ? "/" : "", last, trailing_slash ? "/" : "");
    return w < 0 || (size_t)w >= rel_size ? -ENAMETOOLONG : 0;
}

/* Without --allow-write every write is refused (EACCES, with the notice), but a path whose
 * directory does not exist names no file anyone could write, and Linux answers ENOENT (or
 * ENOTDIR) whatever the permissions: that answer, without the notice, as with --allow-write
 * (path_beneath) and under qemu (gawk's writea("/nonexistent/dump") printed the notice). */
static int64_t refused_write(int hdir, const char *path) {
    char dir[PATH_MAX];
    if ((size_t)snprintf(dir, sizeof dir, "%s", path) >= sizeof dir) return -ENAMETOOLONG;
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/') dir[--len] = 0;
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return -EACCES; /* in the working directory or in /: they exist */
    *slash = 0;
    struct stat st;
    if (fstatat(hdir, dir, &st, 0) != 0) return errno == ENOENT || errno == ENOTDIR ? -errno : -EACCES;
    return S_ISDIR(st.st_mode) ? -EACCES : -ENOTDIR;
}

static void deny_notice(emu_t *e, const char *path) {
    if (e->opt.quiet || e->denied_notice_shown) return;
    e->denied_notice_shown = true;
    if (e->allow_write_real)
        fprintf(stderr, "cyclescope: %s: denied the guest write access to %s (it resolves outside --allow-write %s)\n",
                e->path, path, e->allow_write_real);
    else
        fprintf(stderr, "cyclescope: %s: denied the guest write access to %s (pass --allow-write DIR to allow)\n",
                e->path, path);
}

/* /dev/null, the sink, is writable wherever --allow-write points: writing there changes
 * nothing (gawk reopens its spent stdin on it read-write; it was refused with a notice). The
 * guest's path only decides whether it asked for the null device (character device 1:3, no
 * link followed under O_NOFOLLOW); what it gets is always the host's /dev/null, checked to be
 * that device, so no path or race hands it anything else. */
#define NOT_DEV_NULL INT_MIN
static int open_dev_null(int hdir, const char *path, int flags, int64_t mode) {
    struct stat asked;
    if (fstatat(hdir, path, &asked, (flags & O_NOFOLLOW) ? AT_SYMLINK_NOFOLLOW : 0) != 0 || !S_ISCHR(asked.st_mode) ||
        asked.st_rdev != makedev(1, 3))
        return NOT_DEV_NULL;
    int fd = open("/dev/null", flags | O_CLOEXEC, (mode_t)mode);
    struct stat got;
    if (fd < 0) return -errno;
    if (fstat(fd, &got) != 0 || !S_ISCHR(got.st_mode) || got.st_rdev != makedev(1, 3)) {
        close(fd);
        return NOT_DEV_NULL;
    }
    return fd;
}

/* Whether the sandbox lets the guest write the existing file `path` (faccessat's W_OK): the
 * null device, or a file (a directory: to make names in it) resolved beneath --allow-write
 * as open_for_write resolves it, links included; asked, not tried, so no notice. */
static bool write_allowed(emu_t *e, int hdir, const char *path, uint64_t flags) {
    int nofollow = (flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0;
    int null_fd = open_dev_null(hdir, path, O_PATH | nofollow, 0);
    if (null_fd != NOT_DEV_NULL) {
        if (null_fd >= 0) close(null_fd);
        return null_fd >= 0;
    }
    if (!path[0] && (flags & AT_EMPTY_PATH)) { /* the descriptor itself: one the guest may write through */
        for (int i = 0; i < EMU_MAX_FDS; i++)
            if (e->fds[i].host == hdir) return e->fds[i].writable;
        return false;
    }
    char rel[PATH_MAX * 2];
    if (e->allow_fd < 0 || path_beneath(e, hdir, path, rel, sizeof rel) != 0) return false;
    int fd = cs_open_beneath(e->allow_fd, rel, O_PATH | O_CLOEXEC | nofollow, 0, e->beneath_walk);
    if (fd >= 0) close(fd);
    return fd >= 0;
}

/* faccessat(2): the host's answer, but for a root host, which may read and write any file:
 * the guest is uid 1000 (getuid), not root, so R_OK, W_OK and X_OK are answered from the
 * file's owner bits, as Linux answers the owner of a file (gnulib's tests check that a
 * 0400 file is not writable when geteuid() is not 0). W_OK of a file outside --allow-write
 * is EACCES, as open() answers a write there (it was 0: a program that asked first then
 * failed its write, or wrote nothing where it could). */
static int64_t sys_faccessat(emu_t *e, int64_t dirfd, uint64_t path_addr, uint64_t mode, uint64_t flags) {
    char path[PATH_MAX], under[PATH_MAX];
    int hdir;
    int64_t bad_path = get_path(e, path_addr, path);
    if (bad_path) return bad_path;
    if (!host_dirfd(e, dirfd, &hdir)) return -EBADF;
    if (mode & ~(uint64_t)(R_OK | W_OK | X_OK)) return -EINVAL;
    if (flags & ~(uint64_t)(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) return -EINVAL;
    const char *at = emu_sysroot_path(e, path, under, sizeof under);
    if (faccessat(hdir, at, (int)mode, (int)flags) < 0) return -errno;
    if ((mode & W_OK) && !write_allowed(e, hdir, path, flags)) return -EACCES;
    if (mode == F_OK || geteuid() != 0) return 0;
    struct stat st;
    if (fstatat(hdir, at, &st, (int)(flags & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))) < 0) return -errno;
    unsigned owner_bits = (st.st_mode >> 6) & 7;
    return (owner_bits & mode) == mode ? 0 : -EACCES;
}

/* Open for writing: only beneath --allow-write DIR, resolved race-free (or /dev/null). */
static int64_t open_for_write(emu_t *e, int hdir, const char *path, int flags, int64_t mode) {
    int null_fd = open_dev_null(hdir, path, flags, mode);
    if (null_fd != NOT_DEV_NULL) return null_fd;
    char rel[PATH_MAX * 2];
    /* "" names no file (Linux: ENOENT, whatever the permissions): not a write to refuse */
    int64_t r = !path[0]  ? -ENOENT
        : e->allow_fd < 0 ? refused_write(hdir, path)
                          : path_beneath(e, hdir, path, rel, sizeof rel);
    if (r == 0) {
        r = cs_open_beneath(e->allow_fd, rel, flags, (unsigned)mode, e->beneath_walk);
        if (r == -EXDEV) r = -EACCES; /* a link or ".." that leads outside */
    }
    if (r == -EACCES) deny_notice(e, path);
    return r;
}

/* Linux's asm-generic struct stat, as riscv64 user space sees it (128 bytes). */
static int64_t put_stat(emu_t *e, uint64_t addr, const struct stat *st) {
    uint8_t b[128] = {0};
    uint64_t u64;
    uint32_t u32;
    int64_t i64;
    int32_t i32;
#define W64(off, v)  (u64 = (uint64_t)(v), memcpy(b + (off), &u64, 8))
#define W32(off, v)  (u32 = (uint32_t)(v), memcpy(b + (off), &u32, 4))
#define WI64(off, v) (i64 = (int64_t)(v), memcpy(b + (off), &i64, 8))
#define WI32(off, v) (i32 = (int32_t)(v), memcpy(b + (off), &i32, 4))
    W64(0, st->st_dev);
    W64(8, st->st_ino);
    W32(16, st->st_mode);
    W32(20, st->st_nlink);
    W32(24, st->st_uid);
    W32(28, st->st_gid);
    W64(32, st->st_rdev);
    WI64(48, st->st_size);
    WI32(56, st->st_blksize);
    WI64(64, st->st_blocks);
    WI64(72, st->st_atim.tv_sec);
    W64(80, st->st_atim.tv_nsec);
    WI64(88, st->st_mtim.tv_sec);
    W64(96, st->st_mtim.tv_nsec);
    WI64(104, st->st_ctim.tv_sec);
    W64(112, st->st_ctim.tv_nsec);
#undef W64
#undef W32
#undef WI64
#undef WI32
    return guest_put(e, addr, b, sizeof b);
}

static int64_t put_time(emu_t *e, uint64_t addr, uint64_t ns, bool micro) {
    int64_t t[2] = {(int64_t)(ns / 1000000000ull), (int64_t)(ns % 1000000000ull) / (micro ? 1000 : 1)};
    return guest_put(e, addr, t, sizeof t);
}

/* ---- file I/O ---- */

/* The guest's own /proc/self files served from the emulator's state (each open: an unnamed
 * host file written with the content then); every other /proc/self file is the host's. */
typedef enum {
    PROC_NONE,
    PROC_NO_TASK, /* task/TID/... of a thread the process does not have: ENOENT */
    PROC_MAPS,
    PROC_CMDLINE,
    PROC_COMM,
    PROC_ENVIRON,
    PROC_AUXV,
    PROC_STAT,
    PROC_STATUS,
    PROC_STATM,
    PROC_LIMITS,
    PROC_REFUSED /* the host process' own figures, not the guest's: ENOENT (see proc_self_file_of) */
} proc_self_file;

static bool proc_file_refused(proc_self_file file) { return file == PROC_NO_TASK || file == PROC_REFUSED; }

static char *thread_comm(emu_t *e, int32_t tid);

/* Which of them a guest path names: by /proc/self/, by the guest's pid, or as a thread's —
 * /proc/thread-self/ and /proc/self/task/TID/, which Linux has for each of these — and *tid
 * the thread it is of (the process' pid for the process' own). Before 2026-11-29 task/TID/
 * was the host's (none of the guest's threads: pthread_getname_np and pthread_setname_np of
 * another thread, which open task/TID/comm, failed). */
static proc_self_file proc_self_file_of(emu_t *e, const char *path, int32_t *tid) {
    bool thread_self = false;
    const char *name = proc_own_entry(e, path, &thread_self);
    *tid = thread_self ? emu_thread_tid(e) : e->vpid;
    if (!name) return PROC_NONE;
    if (!thread_self && !strncmp(name, "task/", 5)) {
        char *end;
        long id = strtol(name + 5, &end, 10);
        if (end == name + 5 || *end != '/' || name[5] < '1' || name[5] > '9') return PROC_NONE;
        name = end + 1;
        if (id > INT32_MAX || !thread_comm(e, (int32_t)id)) return PROC_NO_TASK;
        *tid = (int32_t)id;
    }
    /* smaps, smaps_rollup, numa_maps, pagemap and mem describe cyclescope's host memory and io
     * its host reads and writes: refused as a kernel without them would (before 2026-11-29 the
     * host's were read, cyclescope's own figures) */
    static const struct {
        const char *name;
        proc_self_file file;
    } files[] = {{"maps", PROC_MAPS},
                 {"cmdline", PROC_CMDLINE},
                 {"comm", PROC_COMM},
                 {"environ", PROC_ENVIRON},
                 {"auxv", PROC_AUXV},
                 {"stat", PROC_STAT},
                 {"status", PROC_STATUS},
                 {"statm", PROC_STATM},
                 {"limits", PROC_LIMITS},
                 {"smaps", PROC_REFUSED},
                 {"smaps_rollup", PROC_REFUSED},
                 {"numa_maps", PROC_REFUSED},
                 {"pagemap", PROC_REFUSED},
                 {"mem", PROC_REFUSED},
                 {"io", PROC_REFUSED}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (!strcmp(name, files[i].name)) return files[i].file;
    return PROC_NONE;
}

/* Whether open refuses the /proc file `path` names (get_path: every call on it does). */
static bool proc_path_refused(emu_t *e, const char *path) {
    int32_t tid;
    return proc_file_refused(proc_self_file_of(e, path, &tid));
}

/* An unnamed host file holding `len` bytes of `text`, read from its start; or -errno. */
static int proc_text_fd(const char *name, const void *text, size_t len) {
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) return -errno;
    if (write(fd, text, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return -EIO;
    }
    return fd;
}

/* The name (comm) of thread `tid` of this process: the running thread's is in e->ctx, another
 * live one's in its slot; NULL when no live thread has that id. */
static char *thread_comm(emu_t *e, int32_t tid) {
    if (tid == emu_thread_tid(e)) return e->ctx.comm;
    for (int i = 0; e->threads && i < EMU_MAX_THREADS; i++)
        if (e->threads[i].state != THREAD_FREE && e->threads[i].tid == tid) return e->threads[i].ctx.comm;
    return NULL;
}

/* What /proc/PID/comm, stat and status name: the thread's (the main thread's for the
 * process; the running one's if the main thread has ended). */
static const char *shown_comm(emu_t *e, int32_t tid) {
    const char *comm = thread_comm(e, tid);
    return comm ? comm : e->ctx.comm;
}

/* A write to a /proc comm file (fs/proc/base.c comm_write): its first 15 bytes are the
 * thread's name, a newline included; the whole count is written. */
static int64_t comm_write(emu_t *e, int32_t tid, uint64_t buf, uint64_t count) {
    char name[16] = {0};
    if (guest_get(e, buf, name, count < 15 ? count : 15)) return -EFAULT;
    char *comm = thread_comm(e, tid);
    if (!comm) return -ESRCH;
    memcpy(comm, name, sizeof name);
    if (e->tree) emu_tree_publish(e); /* the others' /proc/PID/comm */
    return (int64_t)count;
}

/* cmdline and environ: the bytes of the stack's argv or envp strings as they are now (Linux
 * reads mm->arg_start..arg_end and env_start..env_end of the process, so a program that
 * rewrote its argv[0] in place shows the new one); empty if the guest unmapped them. */
static int proc_strings_fd(emu_t *e, const char *name, uint64_t start, uint64_t end) {
    size_t len = (size_t)(end - start);
    char *text = cs_malloc(len + 1);
    if (!mem_copy_out(&e->m, start, text, len)) len = 0;
    int fd = proc_text_fd(name, text, len);
    free(text);
    return fd;
}

/* /proc/self/maps: the guest's own mappings, as Linux and qemu-riscv64 list them (start-end,
 * permissions, offset, device, inode, then [heap] or [stack]), in an unnamed host file the
 * descriptor reads. It opened the host's, cyclescope's own, whose addresses move from run to
 * run (ASLR): gnulib's c-stack in GNU grep, diff and cmp reads it at start-up to find the
 * stack, and ran a different number of instructions every run. */
static const char *proc_maps_name(const emu_t *e, const vma *v) {
    if (v->start < GUEST_STACK_TOP && GUEST_STACK_TOP <= v->end) return "[stack]";
    uint64_t heap = (e->brk_start + PAGE_MASK) & ~PAGE_MASK; /* brk grows from the page after the bss */
    return v->start < e->brk_cur && heap < v->end ? "[heap]" : NULL;
}

static bool proc_maps_shared(const emu_t *e, const vma *v) {
    for (size_t k = 0; k < e->shared_count; k++)
        if (e->shared[k].start < v->end && v->start < e->shared[k].start + e->shared[k].len) return true;
    return false;
}

static int proc_maps_fd(emu_t *e) {
    size_t cap = 256 + e->m.vma_count * 100, len = 0;
    char *text = cs_malloc(cap);
    for (size_t i = 0; i < e->m.vma_count;) {
        /* one line per run of adjacent regions alike, as Linux merges them (brk's growth, the
           pages of one mmap whose protections came apart and back) */
        uint64_t start = e->m.vmas[i].start, end;
        uint8_t prot = e->m.vmas[i].prot;
        const char *name = proc_maps_name(e, &e->m.vmas[i]);
        bool shared = proc_maps_shared(e, &e->m.vmas[i]);
        for (end = e->m.vmas[i++].end; i < e->m.vma_count; end = e->m.vmas[i++].end) {
            const vma *v = &e->m.vmas[i];
            if (v->start != end || v->prot != prot || proc_maps_name(e, v) != name || proc_maps_shared(e, v) != shared)
                break;
        }
        int n = snprintf(text + len, cap - len, "%08" PRIx64 "-%08" PRIx64 " %c%c%c%c 00000000 00:00 0", start, end,
                         prot & PROT_R ? 'r' : '-', prot & PROT_W ? 'w' : '-', prot & PROT_X ? 'x' : '-',
                         shared ? 's' : 'p');
        len += (size_t)n;
        if (name) len += (size_t)snprintf(text + len, cap - len, "%*s%s", n < 73 ? 73 - n : 1, "", name);
        text[len++] = '\n';
    }
    int fd = proc_text_fd("maps", text, len);
    free(text);
    return fd;
}

/* What stat and status say of the signals: the running thread's pending and blocked sets,
 * the process' pending ones, the ignored and caught (bit sig-1, as Linux's masks). */
static void proc_signal_sets(const emu_t *e, uint64_t *ignored, uint64_t *caught) {
    *ignored = *caught = 0;
    for (int sig = 1; sig <= 64; sig++) {
        if (e->sigaction_handler[sig] == 1) *ignored |= 1ull << (sig - 1);
        else if (e->sigaction_handler[sig] > 1) *caught |= 1ull << (sig - 1);
    }
}

/* stat and status (fs/proc/array.c's do_task_stat and proc_pid_status, Linux 6.1): the
 * guest's pid, ppid, name, state R (it is running: it reads the file), thread count,
 * signal sets, user time as times(2) gives it, the ranges of its arguments and environment.
 * Synthetic: the memory figures come from its mappings (every mapped page counted
 * resident), page faults, system time, start time, wait channel and flags are 0, and the
 * code and data ranges 0 (qemu-riscv64 leaves them 0 too). `tid`: the thread the file is
 * of (/proc/thread-self/), else the process'. */
/* The guest's memory as status shows it (every mapped page counted resident): all of it, the
 * stack's mapping, the executable ones but the sigreturn page. */
static void proc_vm_sizes(const emu_t *e, uint64_t *size, uint64_t *stack, uint64_t *exec) {
    *size = *stack = *exec = 0;
    for (size_t i = 0; i < e->m.vma_count; i++) {
        const vma *v = &e->m.vmas[i];
        *size += v->end - v->start;
        if (v->start < GUEST_STACK_TOP && GUEST_STACK_TOP <= v->end) *stack += v->end - v->start;
        else if (v->prot & PROT_X && v->start != EMU_SIGRETURN_PAGE) *exec += v->end - v->start; /* not the "vDSO" */
    }
}

/* statm (fs/proc/array.c proc_pid_statm): size resident shared text lib data dt, in pages —
 * status's VmSize, VmRSS, 0, VmExe, 0, VmData + VmStk, 0. */
static int proc_statm_fd(const emu_t *e) {
    uint64_t size, stack, exec;
    proc_vm_sizes(e, &size, &stack, &exec);
    char text[160];
    int len = snprintf(text, sizeof text, "%" PRIu64 " %" PRIu64 " 0 %" PRIu64 " 0 %" PRIu64 " 0\n", size / PAGE_SIZE,
                       size / PAGE_SIZE, exec / PAGE_SIZE, (size - exec) / PAGE_SIZE);
    return proc_text_fd("statm", text, (size_t)len);
}

/* limits (fs/proc/base.c proc_pid_limits): the guest's limits, as getrlimit gives them. */
static int proc_limits_fd(const emu_t *e) {
    static const char *const names[GUEST_RLIMITS][2] = {
        {"Max cpu time", "seconds"},    {"Max file size", "bytes"},      {"Max data size", "bytes"},
        {"Max stack size", "bytes"},    {"Max core file size", "bytes"}, {"Max resident set", "bytes"},
        {"Max processes", "processes"}, {"Max open files", "files"},     {"Max locked memory", "bytes"},
        {"Max address space", "bytes"}, {"Max file locks", "locks"},     {"Max pending signals", "signals"},
        {"Max msgqueue size", "bytes"}, {"Max nice priority", NULL},     {"Max realtime priority", NULL},
        {"Max realtime timeout", "us"}};
    char text[2048];
    size_t len =
        (size_t)snprintf(text, sizeof text, "%-25s %-20s %-20s %-10s\n", "Limit", "Soft Limit", "Hard Limit", "Units");
    for (int i = 0; i < GUEST_RLIMITS; i++) {
        char lim[2][24];
        for (int k = 0; k < 2; k++) {
            if (e->rlim[i][k] == UINT64_MAX) snprintf(lim[k], sizeof lim[k], "unlimited");
            else snprintf(lim[k], sizeof lim[k], "%" PRIu64, e->rlim[i][k]);
        }
        len += (size_t)snprintf(text + len, sizeof text - len, "%-25s %-20s %-20s ", names[i][0], lim[0], lim[1]);
        if (names[i][1]) len += (size_t)snprintf(text + len, sizeof text - len, "%-10s", names[i][1]);
        len += (size_t)snprintf(text + len, sizeof text - len, "\n");
    }
    return proc_text_fd("limits", text, len);
}

static int proc_stat_fd(emu_t *e, bool status, int32_t tid) {
    const char *comm = shown_comm(e, tid);
    /* status escapes a newline and a backslash (proc_task_name's seq_escape_str), stat does not */
    char name[2 * 16];
    size_t k = 0;
    for (const char *c = comm; *c; c++) {
        if (status && (*c == '\n' || *c == '\\')) name[k++] = '\\', name[k++] = *c == '\n' ? 'n' : '\\';
        else name[k++] = *c;
    }
    name[k] = 0;
    int threads = e->threads ? e->threads_live : 1;
    uint64_t size, stack, exec;
    proc_vm_sizes(e, &size, &stack, &exec);
    uint64_t ignored, caught, user_ticks = e->icount / 10000000; /* 100 Hz, as times(2) */
    proc_signal_sets(e, &ignored, &caught);
    char text[2048];
    int len;
    int32_t pgid, sid;
    emu_process_ids(e, e->vpid, &pgid, &sid);
    if (!status) {
        len = snprintf(text, sizeof text,
                       "%d (%s) R %d %d %d 0 -1 0 0 0 0 0 %" PRIu64 " 0 0 0 20 0 %d 0 %" PRIu64 " %" PRIu64 " %" PRIu64
                       " 18446744073709551615 0 0 %" PRIu64 " 0 0 %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
                       " 0 0 0 17 0 0 0 0 0 0 0 0 %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " 0\n",
                       tid, name, e->parent_vpid, pgid, sid, user_ticks, threads, e->start_ns / 10000000, size,
                       size / PAGE_SIZE, e->start_stack, e->ctx.sig_pending | e->sig_shared_pending, e->ctx.sig_blocked,
                       ignored, caught, e->brk_start, e->arg_start, e->arg_end, e->env_start, e->env_end);
    } else {
        len = snprintf(text, sizeof text,
                       "Name:\t%s\nUmask:\t%04o\nState:\tR (running)\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\n"
                       "TracerPid:\t0\nUid:\t%d\t%d\t%d\t%d\nGid:\t%d\t%d\t%d\t%d\nFDSize:\t%d\nGroups:\t\n"
                       "VmPeak:\t%8" PRIu64 " kB\nVmSize:\t%8" PRIu64 " kB\nVmLck:\t       0 kB\nVmPin:\t       0 kB\n"
                       "VmHWM:\t%8" PRIu64 " kB\nVmRSS:\t%8" PRIu64 " kB\nVmData:\t%8" PRIu64 " kB\n"
                       "VmStk:\t%8" PRIu64 " kB\nVmExe:\t%8" PRIu64 " kB\nVmLib:\t       0 kB\n"
                       "VmSwap:\t       0 kB\nThreads:\t%d\nSigQ:\t%zu/%d\nSigPnd:\t%016" PRIx64 "\n"
                       "ShdPnd:\t%016" PRIx64 "\nSigBlk:\t%016" PRIx64 "\nSigIgn:\t%016" PRIx64 "\n"
                       "SigCgt:\t%016" PRIx64 "\nCapInh:\t0000000000000000\nCapPrm:\t0000000000000000\n"
                       "CapEff:\t0000000000000000\nCapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000000\n"
                       "NoNewPrivs:\t0\nSeccomp:\t0\nCpus_allowed:\t1\nCpus_allowed_list:\t0\n"
                       "voluntary_ctxt_switches:\t0\nnonvoluntary_ctxt_switches:\t0\n",
                       name, e->umask_set ? e->guest_umask : 022, e->vpid, tid, e->parent_vpid, GUEST_ID, GUEST_ID,
                       GUEST_ID, GUEST_ID, GUEST_ID, GUEST_ID, GUEST_ID, GUEST_ID, EMU_MAX_FDS, size / 1024,
                       size / 1024, size / 1024, size / 1024, (size - stack - exec) / 1024, stack / 1024, exec / 1024,
                       threads, e->rt_count, 63535, e->ctx.sig_pending, e->sig_shared_pending, e->ctx.sig_blocked,
                       ignored, caught);
    }
    return proc_text_fd(status ? "status" : "stat", text, (size_t)len);
}

static int proc_self_fd(emu_t *e, proc_self_file file, int32_t tid) {
    switch (file) {
    case PROC_MAPS: return proc_maps_fd(e);
    case PROC_CMDLINE: return proc_strings_fd(e, "cmdline", e->arg_start, e->arg_end);
    case PROC_ENVIRON: return proc_strings_fd(e, "environ", e->env_start, e->env_end);
    case PROC_AUXV: /* the vector as the guest was given it, 16-byte pairs up to AT_NULL's */
        return proc_text_fd("auxv", e->saved_auxv, e->saved_auxv_pairs * sizeof e->saved_auxv[0]);
    case PROC_COMM: {
        char line[17];
        snprintf(line, sizeof line, "%s\n", shown_comm(e, tid));
        return proc_text_fd("comm", line, strlen(line));
    }
    case PROC_STAT: return proc_stat_fd(e, false, tid);
    case PROC_STATUS: return proc_stat_fd(e, true, tid);
    case PROC_STATM: return proc_statm_fd(e);
    case PROC_LIMITS: return proc_limits_fd(e);
    case PROC_NONE:
    case PROC_NO_TASK:
    case PROC_REFUSED: break;
    }
    return -ENOENT;
}

void emu_identity(emu_t *e, emu_shown *out) {
    memset(out, 0, sizeof *out);
    out->vpid = e->vpid;
    out->ppid = e->parent_vpid;
    out->threads = e->threads ? e->threads_live : 1;
    out->start_ticks = e->start_ns / 10000000;
    out->shared_files = e->shared_count > 0;
    uint64_t stack, exec;
    proc_vm_sizes(e, &out->vsize, &stack, &exec);
    snprintf(out->comm, sizeof out->comm, "%s", shown_comm(e, e->vpid));
    size_t len = e->arg_end > e->arg_start ? (size_t)(e->arg_end - e->arg_start) : 0;
    if (len > sizeof out->cmdline) len = sizeof out->cmdline;
    out->cmdline_len = mem_copy_out(&e->m, e->arg_start, out->cmdline, len) ? (uint32_t)len : 0;
}

/* The host's state letter of process `host` (stat's third field): R, S, D, Z, T, ... */
static char host_state(pid_t host) {
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)host);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 'S';
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    text[n > 0 ? n : 0] = 0;
    char *at = strrchr(text, ')');
    return at && at[1] == ' ' && at[2] ? at[2] : 'S';
}

/* stat, status, comm or cmdline of another process of the guest's tree, which get_path made
 * /proc/HOST/NAME (proc_other_process): from what it published (emu_tree_publish) — its pid,
 * parent, name, cmdline, thread count, start (the guest clock at its fork) and mappings' size —
 * and its host process' state (a zombie's cmdline is empty, as Linux's); its group and
 * session from the table (emu_process_ids). The figures it alone knows and does not publish
 * (times, faults, signals, addresses) are 0 in stat and absent from status. 0: not such a
 * path; else the descriptor or -errno. */
static int proc_other_fd(emu_t *e, const char *path, bool writes) {
    if (strncmp(path, "/proc/", 6) != 0 || path[6] < '1' || path[6] > '9') return 0;
    char *end;
    long host = strtol(path + 6, &end, 10);
    if (*end != '/' || host > INT32_MAX) return 0;
    emu_shown shown;
    if (!emu_tree_identity(e, (pid_t)host, &shown)) return 0;
    int32_t vpid = shown.vpid, ppid = shown.ppid, pgid = GUEST_PID, sid = GUEST_PID;
    emu_process_ids(e, vpid, &pgid, &sid);
    const char *comm = shown.comm, *cmdline = shown.cmdline;
    size_t len = shown.cmdline_len;
    const char *name = end + 1;
    if (writes) return -EACCES; /* another process' comm: not renamed from here */
    char state = host_state((pid_t)host);
    static const char *const states[] = {"R (running)", "S (sleeping)",     "D (disk sleep)", "Z (zombie)",
                                         "T (stopped)", "t (tracing stop)", "X (dead)",       "I (idle)"};
    const char *state_name = "S (sleeping)";
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
        if (states[i][0] == state) state_name = states[i];
    char text[1024];
    int n;
    if (!strcmp(name, "cmdline")) return proc_text_fd("cmdline", cmdline, state == 'Z' ? 0 : len);
    if (!strcmp(name, "comm")) n = snprintf(text, sizeof text, "%s\n", comm);
    else if (!strcmp(name, "stat")) {
        /* fields 1-8, 0 up to num_threads (20), itrealvalue 0, starttime (22), vsize, rss */
        n = snprintf(text, sizeof text,
                     "%d (%s) %c %d %d %d 0 -1 0 0 0 0 0 0 0 0 0 20 0 %d 0 %" PRIu64 " %" PRIu64 " %" PRIu64
                     " 18446744073709551615",
                     vpid, comm, state, ppid, pgid, sid, shown.threads, shown.start_ticks, shown.vsize,
                     shown.vsize / PAGE_SIZE);
        for (int field = 26; field <= 52; field++) /* exit_signal (38) is SIGCHLD, as the own stat's */
            n += snprintf(text + n, sizeof text - (size_t)n, field == 38 ? " 17" : " 0");
        n += snprintf(text + n, sizeof text - (size_t)n, "\n");
    } else if (!strcmp(name, "status")) {
        char escaped[2 * 16];
        size_t k = 0;
        for (const char *c = comm; *c; c++) { /* as proc_stat_fd's */
            if (*c == '\n' || *c == '\\') escaped[k++] = '\\', escaped[k++] = *c == '\n' ? 'n' : '\\';
            else escaped[k++] = *c;
        }
        escaped[k] = 0;
        n = snprintf(text, sizeof text,
                     "Name:\t%s\nState:\t%s\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n"
                     "Uid:\t%d\t%d\t%d\t%d\nGid:\t%d\t%d\t%d\t%d\nVmSize:\t%8" PRIu64 " kB\nVmRSS:\t%8" PRIu64
                     " kB\nThreads:\t%d\n",
                     escaped, state_name, vpid, vpid, ppid, GUEST_ID, GUEST_ID, GUEST_ID, GUEST_ID, GUEST_ID, GUEST_ID,
                     GUEST_ID, GUEST_ID, shown.vsize / 1024, shown.vsize / 1024, shown.threads);
    } else return 0; /* the directory (proc_other_process refused every other name) */
    return proc_text_fd(name, text, (size_t)n);
}

/* Linux's lists of CPUs (Documentation/ABI/testing/sysfs-devices-system-cpu) */
static bool is_cpu_list_file(const char *path) {
    return !strcmp(path, "/sys/devices/system/cpu/online") || !strcmp(path, "/sys/devices/system/cpu/possible") ||
        !strcmp(path, "/sys/devices/system/cpu/present");
}

static int64_t sys_openat(emu_t *e, int64_t dirfd, uint64_t path_addr, int64_t flags, int64_t mode) {
    if (e->umask_set) mode &= ~(int64_t)e->guest_umask; /* the host's umask applies too */
    char path[PATH_MAX];
    int64_t bad_path = get_path(e, path_addr, path);
    if (bad_path) return bad_path;
    int hdir;
    if (!host_dirfd(e, dirfd, &hdir)) return -EBADF;
    int acc = (int)flags & O_ACCMODE;
    bool writes = acc != O_RDONLY || (flags & (O_CREAT | O_TRUNC | O_APPEND));
    int keep = O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | O_NONBLOCK | O_DIRECTORY | O_NOFOLLOW |
        O_CLOEXEC | O_TMPFILE; /* tmpfile(): an unnamed file in a directory, a write there */
    int host;
    int32_t self_tid;
    int other = proc_other_fd(e, path, writes);
    if (other < 0) return other;
    if (other > 0) return fd_install(e, other, false, path, (flags & O_CLOEXEC) != 0);
    proc_self_file proc = proc_self_file_of(e, path, &self_tid);
    if (proc_file_refused(proc)) return -ENOENT;
    if (writes && proc == PROC_COMM) { /* a comm file renames its thread (comm_write) */
        if ((flags & O_CREAT) && (flags & O_EXCL)) return -EEXIST;
        host = proc_self_fd(e, proc, self_tid);
        if (host < 0) return host;
        guest_fd like = {.host = host, .writable = true, .path = path, .comm_tid = self_tid};
        return fd_install_like(e, host, &like, 0, (flags & O_CLOEXEC) != 0);
    }
    if (writes) {
        int64_t r = open_for_write(e, hdir, path, (int)flags & keep, mode);
        if (r < 0) return r;
        host = (int)r;
    } else if (proc != PROC_NONE) {
        host = proc_self_fd(e, proc, self_tid);
        if (host < 0) return host;
    } else if (is_cpu_list_file(path)) {
        /* the one simulated hart, as sched_getaffinity says: glibc's get_nprocs and
         * get_nprocs_conf read these, and a program sizing its thread pool by the host's CPUs
         * would run differently (and time differently) on every machine */
        host = proc_text_fd("cpu", "0\n", 2);
        if (host < 0) return host;
    } else {
        /* the guest's own executable, not ours: by /proc/self/exe or by the path it was shown */
        const char *entry = proc_own_entry(e, path, NULL);
        bool self = (entry && !strcmp(entry, "exe")) || !strcmp(path, e->exe_seen);
        char under[PATH_MAX]; /* an absolute path read through the guest library prefix (sysroot) */
        const char *at = self ? e->exe_real : emu_sysroot_path(e, path, under, sizeof under);
        host = openat(self ? AT_FDCWD : hdir, at, ((int)flags & keep) | O_CLOEXEC, (mode_t)mode);
        if (host < 0) return -errno;
    }
    return fd_install(e, host, writes, path, (flags & O_CLOEXEC) != 0);
}

static int64_t sys_close(emu_t *e, uint64_t fd) {
    guest_fd *g = fd_of(e, fd);
    if (!g) return -EBADF;
    if (g->host > 2) close(g->host); /* never close the emulator's own stdio */
    g->host = -1;
    guest_pipe *p = pipe_of(e, g);
    if (p && !pipe_has_end(e, g->pipe, false) && !pipe_has_end(e, g->pipe, true)) { /* its last end */
        free(p->data);
        *p = (guest_pipe){0};
    }
    if (p) emu_thread_pipe_changed(e); /* an end fewer: a waiter may see EOF or EPIPE now */
    g->pipe = 0;
    return 0;
}

static void shared_before_io(emu_t *e, int host);
static void shared_after_write(emu_t *e, int host);

/* A timed wait, the only thread, for descriptors the outside makes ready: the outside runs in
 * real time, so the host waits for them up to the timeout (or the alarm) and the guest's clock
 * passes by the time waited; what is left of the timeout passes as a sleep when none got
 * ready (the alarm's part: guest_sleep fires it). Before, the clock jumped by the whole
 * timeout at once: a child's answer 1 ms away was never seen by a poll with a 1 s timeout.
 * A host signal that makes no handler ready (an unrelated child's SIGCHLD, a signal the guest
 * blocks) does not end the wait: it goes on for the time left (until 2026-11-29 it ended the
 * real-time wait, and the rest of the timeout passed as a sleep without watching the
 * descriptors: a poll with a 30 s timeout answered 0 at once when another child exited).
 * The host's count, 0, or -EINTR. */
static int64_t outside_wait_for(emu_t *e, struct pollfd *p, size_t n, uint64_t timeout_ns) {
    uint64_t ns = timeout_ns;
    if (e->alarm_at_ns && emu_alarm_budget(e) < ns) ns = emu_alarm_budget(e); /* the alarm comes first */
    struct timespec zero = {0, 0};
    double start = cs_now();
    for (;;) {
        uint64_t so_far = 0;
        double real = (cs_now() - start) * 1e9;
        if (real > 0) so_far = real < (double)ns ? (uint64_t)real : ns;
        struct timespec limit = {(time_t)((ns - so_far) / 1000000000ull), (long)((ns - so_far) % 1000000000ull)};
        bool arrived = emu_host_wait_arrival_for(e, p, n, &limit);
        real = (cs_now() - start) * 1e9;
        uint64_t waited = real <= 0 ? 0 : real < (double)ns ? (uint64_t)real : ns;
        bool ended = e->status != EMU_RUNNING;
        int got = ended ? 0 : ppoll(p, n, &zero, NULL);
        bool interrupted = !ended && got == 0 && arrived && emu_signal_handler_ready(e);
        if (!ended && got == 0 && !interrupted && waited < ns) continue; /* nothing for it: wait on */
        if (!e->opt.host_time) e->slept_ns += waited;
        if (ended) return 0;
        if (got != 0) return got < 0 ? -errno : got;
        if (interrupted) return -EINTR;
        return guest_sleep(e, timeout_ns - waited, NULL) ? 0 : -EINTR;
    }
}

/* Until the host descriptor is ready for `events` (a pipe or socket another process of the
 * guest holds): 1 when it is (try again); 0 when `what` names the wait and, other threads
 * alive, this one blocks instead (thread.c: the call runs again once the descriptor is ready,
 * e->syscall_retry set); -EMU_ERESTARTSYS when a handler comes first (a signal from another
 * process ended the host's wait, emu_host_wait, or one was due). `what` NULL: the host waits
 * holding every thread (a caller that cannot run again from where it waited). */
static int host_wait_ready(emu_t *e, int host, short events, const char *what) {
    struct pollfd p = {.fd = host, .events = events};
    int64_t waits = what ? emu_thread_block_host(e, what, &p, 1, UINT64_MAX, true) : 0;
    if (waits) return waits > 0 ? 0 : -EMU_ERESTARTSYS;
    bool interrupted = false;
    while (emu_host_wait(e, &p, 1, &interrupted) < 0 && errno == EINTR && !interrupted) {
    }
    return interrupted ? -EMU_ERESTARTSYS : 1;
}

/* read(2) of a pipe another process may write (the guest forked: process.c): an empty one
 * waits on the host unless the guest made it non-blocking. `may_wait` as sys_read's. */
static int64_t cross_pipe_read(emu_t *e, guest_fd *g, uint64_t buf, uint64_t count, bool may_wait) {
    size_t n = count < MAX_IO ? count : MAX_IO;
    uint8_t *tmp = cs_malloc(n ? n : 1);
    ssize_t got;
    bool interrupted = false;
    while ((got = read(g->host, tmp, n)) < 0 && (errno == EINTR || (errno == EAGAIN && !g->nonblock && may_wait)))
        if (errno == EAGAIN && host_wait_ready(e, g->host, POLLIN, "reading a pipe") != 1) {
            interrupted = true; /* or this thread waits: the call runs again (a0 kept) */
            break;
        }
    int64_t ret = got < 0 ? (errno == EAGAIN && !may_wait && !g->nonblock ? 0 : -errno) : got;
    if (interrupted) ret = -EMU_ERESTARTSYS; /* nothing read: a handler first */
    if (got > 0 && guest_put(e, buf, tmp, (size_t)got) != 0) ret = -EFAULT;
    free(tmp);
    return ret;
}

/* write(2) of such a pipe: all of it, waiting on the host while it is full, unless the guest
 * made it non-blocking (or it is writev's later buffer); EPIPE and SIGPIPE when no process
 * reads it any more. With other threads alive a wait is this thread's alone, also after part
 * of the bytes went (their count in io_partial, as sys_write's for the guest's own pipes: the
 * call runs again from there, and a handler that interrupts the wait makes it return that
 * count, as Linux's pipe_write); until 2026-11-29 that wait held every thread on the host. */
static int64_t cross_pipe_write(emu_t *e, guest_fd *g, uint64_t buf, uint64_t count, bool may_wait) {
    uint64_t before = may_wait ? emu_thread_io_partial(e) : 0; /* written before this thread waited */
    if (before > count) before = count;
    size_t n = count - before < MAX_IO ? (size_t)(count - before) : MAX_IO;
    uint8_t *tmp = cs_malloc(n ? n : 1);
    int64_t ret = guest_get(e, buf + before, tmp, n);
    size_t done = 0;
    while (ret == 0 && done < n) {
        ssize_t put = write(g->host, tmp + done, n - done);
        if (put > 0) done += (size_t)put;
        else if (put < 0 && errno == EINTR) continue;
        else if (put < 0 && errno == EAGAIN && !g->nonblock && (may_wait || !done)) {
            int ready = host_wait_ready(e, g->host, POLLOUT, may_wait ? "writing a full pipe" : NULL);
            if (ready == 1) continue;
            if (ready == 0) { /* this thread waits: the call runs again from what went */
                emu_thread_set_io_partial(e, before + done);
                free(tmp);
                return 0;
            }
            ret = before + done ? 0 : ready; /* a handler first; what was written counts */
            break;
        } else if (put < 0 && errno == EPIPE) {
            emu_signal_send(e, SIGPIPE, "sent for a write to a pipe without a reader");
            ret = -EPIPE;
        } else if (put < 0 && errno != EAGAIN) ret = -errno;
        else break; /* non-blocking and full */
    }
    if (before + done) ret = (int64_t)(before + done);
    else if (ret == 0 && n) ret = -EAGAIN;
    free(tmp);
    return ret;
}

/* A blocking call that only another of the guest's threads can satisfy (a pipe, a socketpair
 * or an eventfd the guest alone holds, found not ready): this thread waits (thread.c; 0, the
 * call runs again when it wakes), a handler comes first (negative), or, with a single thread,
 * Linux would wait forever: the run ends in one line, "CALL would block forever: WHY" (-EDEADLK). */
static int64_t wait_for_another_thread(emu_t *e, const char *waiting, const char *call, const char *why) {
    int64_t waits = emu_thread_block_io(e, waiting, UINT64_MAX, true);
    if (waits) return waits < 0 ? waits : 0;
    emu_fail(e, "%s would block forever: %s, and %s (pc 0x%" PRIx64 ")", call, why, EMU_SINGLE_THREAD_NOTE, e->h.pc);
    return -EDEADLK;
}

/* The end of a read or write of an eventfd (the host's is always non-blocking), `ret` the
 * host's answer: a change wakes the threads that wait (in a read, a write, poll or epoll);
 * EAGAIN where the guest's descriptor blocks makes the thread wait for another to change
 * the counter, and with no other thread the run ends, as Linux would wait forever. */
static int64_t eventfd_io_end(emu_t *e, guest_fd *g, int64_t ret, bool may_wait, bool reading) {
    if (ret > 0) emu_thread_pipe_changed(e);
    if (ret != -EAGAIN || g->nonblock || !may_wait) return ret;
    return wait_for_another_thread(e, reading ? "reading an eventfd" : "writing an eventfd",
                                   reading ? "read from an eventfd" : "write to an eventfd",
                                   "only the guest itself can change it");
}

/* read(2) or write(2) of an eventfd another process of the guest may change (open at a fork):
 * a blocking one that is not ready waits on the host as a pipe another process holds does —
 * this thread alone while others run (before 2026-11-29 it waited as for the process' own
 * threads: a child's read its parent would raise ended "would block forever"). */
static int64_t shared_eventfd_io(emu_t *e, guest_fd *g, uint64_t buf, uint64_t count, bool reading, bool may_wait) {
    if (count < 8) return -EINVAL;
    uint64_t value = 0;
    if (!reading && guest_get(e, buf, &value, sizeof value)) return -EFAULT;
    for (;;) {
        ssize_t n = reading ? read(g->host, &value, sizeof value) : write(g->host, &value, sizeof value);
        if (n == (ssize_t)sizeof value) {
            emu_thread_pipe_changed(e);
            return reading && guest_put(e, buf, &value, sizeof value) ? -EFAULT : (int64_t)sizeof value;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n >= 0 || errno != EAGAIN) return n < 0 ? -errno : -EIO;
        if (g->nonblock || !may_wait) return -EAGAIN;
        int ready = host_wait_ready(e, g->host, reading ? POLLIN : POLLOUT,
                                    reading ? "reading an eventfd" : "writing an eventfd");
        if (ready != 1) return ready == 0 ? 0 : ready; /* this thread waits (the call runs again), or a handler */
    }
}

/* eventfd2(initval, flags): a host eventfd, non-blocking on the host whatever the guest
 * asked (a wait is the thread's, as a pipe's; Go's netpoller since 1.21 breaks its epoll
 * wait through one) */
static int64_t sys_eventfd2(emu_t *e, uint64_t initval, uint64_t flags) {
    if (flags & ~(uint64_t)(EFD_CLOEXEC | EFD_NONBLOCK | EFD_SEMAPHORE)) return -EINVAL;
    int host = eventfd((unsigned)initval, EFD_CLOEXEC | EFD_NONBLOCK | ((int)flags & EFD_SEMAPHORE));
    if (host < 0) return -errno;
    guest_fd like = {.host = host,
                     .writable = true,
                     .path = "anon_inode:[eventfd]",
                     .eventfd = true,
                     .nonblock = (flags & EFD_NONBLOCK) != 0};
    return fd_install_like(e, host, &like, 0, (flags & EFD_CLOEXEC) != 0);
}

/* ---- socketpair ends: a host AF_UNIX socketpair, non-blocking on the host ---- */

/* the guest's socketpair `g` is an end of, NULL for any other file */
static guest_pipe *socket_of(emu_t *e, const guest_fd *g) {
    guest_pipe *p = pipe_of(e, g);
    return p && p->socket ? p : NULL;
}

/* SO_RCVTIMEO (`receiving`) or SO_SNDTIMEO of the host's socket, where the guest's
 * setsockopt put it, in nanoseconds (0: none) */
static uint64_t socket_timeout_ns(int host, bool receiving) {
    struct timeval tv = {0, 0};
    socklen_t len = sizeof tv;
    if (getsockopt(host, SOL_SOCKET, receiving ? SO_RCVTIMEO : SO_SNDTIMEO, &tv, &len) < 0 || tv.tv_sec < 0) return 0;
    return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

/* A blocking send or receive of socket end `g` finds the host's socket not ready. With
 * SO_RCVTIMEO or SO_SNDTIMEO the wait is timed as ppoll's (host_poll) on the guest clock:
 * other threads alive, this one waits until the socket changes or the time is up (the call
 * runs again, and ends -EAGAIN if nothing came); with one thread the time passes at once
 * (-EAGAIN; -EINTR if the alarm's handler came first). Without: another process of the guest
 * may hold the other end: wait on the host (1: try again). Else another thread may: this one
 * waits (thread.c: 0, the call runs again), or a handler comes first (negative). With one
 * thread only the guest itself could make it ready: Linux would wait forever, the run ends
 * in one line (-EDEADLK). `may_wait` false (readv's, writev's later buffer): 0, what the
 * earlier ones did. */
static int64_t socket_wait(emu_t *e, guest_fd *g, bool receiving, bool may_wait) {
    if (!may_wait) return 0;
    const char *waiting = receiving ? "reading an empty socket" : "writing a full socket";
    uint64_t timeout_ns = socket_timeout_ns(g->host, receiving);
    if (timeout_ns) {
        if (emu_thread_io_timed_out(e)) return -EAGAIN; /* its wait ran out */
        uint64_t now = emu_guest_clock_ns(e);
        uint64_t deadline = now + timeout_ns >= now ? now + timeout_ns : UINT64_MAX - 1;
        /* another process may hold the other end: the host watches it while the threads wait,
         * and the only thread waits for it up to the timeout in real time */
        struct pollfd p = {.fd = g->host, .events = receiving ? POLLIN : POLLOUT};
        bool outside = socket_of(e, g)->cross_process;
        int64_t waits = outside ? emu_thread_block_host(e, waiting, &p, 1, deadline, false) : 0;
        if (!waits) waits = emu_thread_block_io(e, waiting, deadline, false); /* Linux: -EINTR, not restarted */
        if (waits) return waits < 0 ? waits : 0;
        if (outside) {
            int64_t got = outside_wait_for(e, &p, 1, timeout_ns);
            return got > 0 ? 1 : got == 0 ? -EAGAIN : got;
        }
        return guest_sleep(e, timeout_ns, NULL) ? -EAGAIN : -EINTR;
    }
    if (socket_of(e, g)->cross_process) /* another process may hold the other end: this thread waits for it */
        return host_wait_ready(e, g->host, receiving ? POLLIN : POLLOUT, waiting);
    return wait_for_another_thread(e, waiting, receiving ? "read from an empty socket" : "write to a full socket",
                                   "only the guest itself holds the other end of the socketpair");
}

/* recvmsg(2) on the host for socket end `g`, into `m` (host buffers, one iovec), waiting as
 * socket_wait says unless the end is non-blocking or `flags` has MSG_DONTWAIT. MSG_WAITALL
 * on a stream (not with MSG_PEEK: Linux's unix_stream_read_generic) goes on until the buffer
 * is full, end of file, an error or a signal, returning what came if anything did. When it
 * waits for another thread after some bytes, io_partial holds their count: the caller puts
 * them in the guest's buffer (a signal then returns the count, as Linux) and, as the call
 * runs again, back at the start of `m`'s buffer, which this goes on filling. */
static int64_t socket_recv(emu_t *e, guest_fd *g, struct msghdr *m, int flags, bool may_wait) {
    bool nonblock = g->nonblock || (flags & MSG_DONTWAIT);
    bool wait_all = (flags & MSG_WAITALL) && !(flags & MSG_PEEK) && !socket_of(e, g)->dgram && !nonblock;
    flags &= MSG_PEEK | MSG_TRUNC | MSG_CMSG_CLOEXEC;
    struct iovec *whole = m->msg_iov, rest = whole[0];
    socklen_t name_room = m->msg_namelen;
    size_t done = wait_all && may_wait ? (size_t)emu_thread_io_partial(e) : 0;
    m->msg_iov = &rest;
    int64_t ret;
    for (;;) {
        rest.iov_base = (uint8_t *)whole[0].iov_base + done;
        rest.iov_len = whole[0].iov_len - done;
        m->msg_namelen = name_room;
        ssize_t got = recvmsg(g->host, m, flags | MSG_DONTWAIT);
        if (got > 0 && !(flags & MSG_PEEK)) emu_thread_pipe_changed(e); /* room for a sender that waits */
        if (got > 0) done += (size_t)got;
        if (got > 0 && wait_all && done < whole[0].iov_len) continue;
        if (got >= 0) {
            ret = (int64_t)done;
            break;
        }
        if (errno == EINTR) continue;
        if (errno != EAGAIN || nonblock) {
            ret = done ? (int64_t)done : -errno;
            break;
        }
        ret = socket_wait(e, g, true, may_wait);
        if (ret == 1) continue;
        if (ret == 0 && e->syscall_retry && done)
            emu_thread_set_io_partial(e, done); /* it waits: the call runs again */
        else if (done && ret != -EDEADLK) ret = (int64_t)done;
        break;
    }
    m->msg_iov = whole;
    return ret;
}

/* sendmsg(2) on the host for socket end `g` of `n` bytes at `data` (host memory): a stream
 * sends all of it, waiting for room as Linux's unix_stream_sendmsg (what a wait interrupted
 * sent counts); a datagram is one message. EPIPE with SIGPIPE unless MSG_NOSIGNAL. */
static int64_t socket_send(emu_t *e, guest_fd *g, const uint8_t *data, size_t n, int flags, bool may_wait) {
    guest_pipe *p = socket_of(e, g);
    bool nonblock = g->nonblock || (flags & MSG_DONTWAIT);
    uint64_t before = may_wait ? emu_thread_io_partial(e) : 0; /* sent before it waited */
    size_t done = before < n ? (size_t)before : n;
    int64_t ret = 0;
    while (done < n || (p->dgram && !done && ret == 0)) {
        ssize_t put = send(g->host, data + done, n - done, MSG_DONTWAIT | MSG_NOSIGNAL | (flags & MSG_EOR));
        if (put >= 0) {
            done += (size_t)put;
            emu_thread_pipe_changed(e); /* data for a receiver that waits */
            if (p->dgram) {
                ret = put;
                break;
            }
            continue;
        }
        if (errno == EINTR) continue;
        if (errno == EPIPE) {
            if (!(flags & MSG_NOSIGNAL))
                emu_signal_send(e, SIGPIPE, "sent for a write to a socket whose other end is closed");
            ret = -EPIPE;
            break;
        }
        if (errno != EAGAIN || nonblock) {
            ret = -errno;
            break;
        }
        if (done && !may_wait) break; /* writev's later buffer: a short count */
        int64_t waited = socket_wait(e, g, false, may_wait);
        if (waited == 1) continue;
        if (waited == 0 && e->syscall_retry) emu_thread_set_io_partial(e, done); /* it waits: the call runs again */
        ret = waited;
        break;
    }
    if (p->dgram) return ret;
    return done && ret != -EDEADLK ? (int64_t)done : ret;
}

/* the guest's struct msghdr (64-bit Linux, the host's layout too) */
typedef struct {
    uint64_t name;
    uint32_t namelen, pad0;
    uint64_t iov, iovlen, control, controllen;
    int32_t flags, pad1;
} guest_msghdr;

/* the guest's iovecs as one host buffer of their total length (at most MAX_IO): `len` out */
static int64_t socket_iov_buffer(emu_t *e, uint64_t iov, uint64_t cnt, uint8_t **out, size_t *len, bool fill) {
    if (cnt > 1024) return -EMSGSIZE; /* UIO_MAXIOV */
    size_t total = 0;
    for (uint64_t i = 0; i < cnt; i++) {
        uint64_t v[2];
        if (guest_get(e, iov + 16 * i, v, sizeof v)) return -EFAULT;
        if (v[1] > (uint64_t)INT64_MAX) return -EINVAL;
        total += v[1] < MAX_IO - total ? (size_t)v[1] : MAX_IO - total;
    }
    *out = cs_malloc(total ? total : 1);
    *len = total;
    for (uint64_t i = 0, at = 0; fill && at < total; i++) {
        uint64_t v[2];
        if (guest_get(e, iov + 16 * i, v, sizeof v)) return -EFAULT;
        size_t part = v[1] < total - at ? (size_t)v[1] : total - at;
        if (part && guest_get(e, v[0], *out + at, part)) return -EFAULT;
        at += part;
    }
    return 0;
}

/* `got` bytes of `data` scattered over the guest's iovecs */
static int64_t socket_iov_scatter(emu_t *e, uint64_t iov, const uint8_t *data, size_t got) {
    for (uint64_t i = 0, at = 0; at < got; i++) {
        uint64_t v[2];
        if (guest_get(e, iov + 16 * i, v, sizeof v)) return -EFAULT;
        size_t part = v[1] < got - at ? (size_t)v[1] : got - at;
        if (part && guest_put(e, v[0], data + at, part)) return -EFAULT;
        at += part;
    }
    return 0;
}

/* a source address the host gave, to the guest's (addr, *addrlen) as Linux's move_addr_to_user */
static int64_t socket_put_addr(emu_t *e, uint64_t addr, uint64_t len_addr, const void *from, socklen_t from_len) {
    if (!addr || !len_addr) return 0;
    uint32_t room;
    if (guest_get(e, len_addr, &room, sizeof room)) return -EFAULT;
    if (from_len && guest_put(e, addr, from, from_len < room ? from_len : room)) return -EFAULT;
    uint32_t full = from_len;
    return guest_put(e, len_addr, &full, sizeof full) ? -EFAULT : 0;
}

/* sendmsg/recvmsg of socket end a[0] with the guest's header `gm` (at a[1]: written back
 * by recvmsg; 0: readv/writev's, nothing written back), flags a[2] */
static int64_t socket_msg(emu_t *e, uint64_t nr, const uint64_t *a, guest_msghdr gm) {
    guest_fd *g = fd_of(e, a[0]);
    guest_pipe *p = socket_of(e, g);
    if (nr == SYS_sendmsg && gm.name) return p->dgram ? -EACCES : -EISCONN;
    if (nr == SYS_sendmsg && gm.controllen) return -EOPNOTSUPP; /* SCM_RIGHTS, SCM_CREDENTIALS: not served */
    uint8_t *tmp = NULL;
    size_t n = 0;
    /* MSG_WAITALL's bytes received before a wait are in the guest's buffers: gathered back */
    bool refill = nr == SYS_recvmsg && (a[2] & MSG_WAITALL) && emu_thread_io_partial(e);
    int64_t ret = socket_iov_buffer(e, gm.iov, gm.iovlen, &tmp, &n, nr == SYS_sendmsg || refill);
    if (ret == 0 && nr == SYS_sendmsg) ret = socket_send(e, g, tmp, n, (int)a[2], true);
    else if (ret == 0) {
        struct sockaddr_storage from;
        struct iovec v = {tmp, n};
        struct msghdr m = {.msg_name = &from, .msg_namelen = sizeof from, .msg_iov = &v, .msg_iovlen = 1};
        ret = socket_recv(e, g, &m, (int)a[2], true);
        if (e->syscall_retry && emu_thread_io_partial(e) &&
            socket_iov_scatter(e, gm.iov, tmp, emu_thread_io_partial(e)))
            ret = -EFAULT; /* it waits: what came stays in the guest's buffers */
        if (ret >= 0 && !e->syscall_retry) {
            size_t got = (size_t)ret < n ? (size_t)ret : n;
            gm.flags = m.msg_flags & ~MSG_CTRUNC;
            gm.controllen = 0; /* no ancillary data */
            uint32_t room = gm.namelen;
            gm.namelen = gm.name ? (uint32_t)m.msg_namelen : gm.namelen;
            if (socket_iov_scatter(e, gm.iov, tmp, got) ||
                (gm.name && m.msg_namelen &&
                 guest_put(e, gm.name, &from, m.msg_namelen < room ? m.msg_namelen : room)) ||
                (a[1] && guest_put(e, a[1], &gm, sizeof gm)))
                ret = -EFAULT;
        }
    }
    free(tmp);
    return ret;
}

/* the guest's struct mmsghdr: a msghdr, then the length sent or received (msg_len) */
enum { GUEST_MMSGHDR_SIZE = 64, GUEST_MMSG_LEN_AT = 56 };

/* recvmmsg(fd, msgvec, vlen, flags, timeout) as Linux's do_recvmmsg: up to vlen (at most
 * UIO_MAXIOV) messages, each a recvmsg with its length in msg_len; MSG_WAITFORONE makes the
 * ones after the first MSG_DONTWAIT; the timeout is looked at after each message, on the
 * guest clock (0: one message), what is left written back when any came. An error after a
 * message returns the count. With threads a wait for a later message runs the call again
 * with the count in io_partial (a signal then returns it, as Linux) and the deadline the
 * first run computed kept by the thread (io_deadline): the time the wait took counts against
 * the timeout, which is looked at once the message came, as Linux's (before 2026-11-29 each
 * run started the whole timeout again). MSG_WAITALL goes to each message's recvmsg, as
 * Linux's ___sys_recvmsg gets it (since 2026-11-29; it was dropped): on a stream each message
 * waits for its whole buffer. A wait inside such a message, after some of its bytes, counts it
 * in io_partial (a signal then returns the messages with it, its msg_len what came, as Linux's
 * recvmsg returns the bytes copied) and keeps its bytes in io_partial_bytes and in the
 * guest's buffers, from which the run again goes on filling it. */
static int64_t socket_recvmmsg(emu_t *e, const uint64_t *a) {
    uint64_t vlen = a[2] < 1024 ? a[2] : 1024, flags = a[3] & ~(uint64_t)MSG_WAITFORONE;
    uint64_t got = emu_thread_io_partial(e), timeout_ns = 0;
    uint64_t part = emu_thread_io_partial_bytes(e); /* message `got - 1` is part received */
    if (part && got) got--;
    if (a[4] && guest_timespec_ns(e, a[4], &timeout_ns)) return -EFAULT; /* checked by the caller */
    uint64_t end = !a[4] || timeout_ns == 0 ? 0 : emu_guest_clock_ns(e) + timeout_ns;
    if (end && emu_thread_io_deadline(e)) end = emu_thread_io_deadline(e); /* run again after a wait */
    bool timed_out = false;
    int64_t ret = 0;
    while (got < vlen && !timed_out) {
        uint64_t entry = a[1] + GUEST_MMSGHDR_SIZE * got, args[3] = {a[0], entry, flags};
        if (got && (a[3] & MSG_WAITFORONE)) args[2] |= MSG_DONTWAIT;
        guest_msghdr gm;
        emu_thread_set_io_partial(e, part); /* socket_recv's bytes of this message so far */
        emu_thread_set_io_partial_bytes(e, 0);
        part = 0;
        ret = guest_get(e, entry, &gm, sizeof gm) ? -EFAULT : socket_msg(e, SYS_recvmsg, args, gm);
        if (e->syscall_retry) { /* it waits for another thread */
            part = emu_thread_io_partial(e);
            uint32_t len = (uint32_t)part; /* what a signal's return shows of this message */
            if (part && guest_put(e, entry + GUEST_MMSG_LEN_AT, &len, sizeof len)) part = 0;
            break;
        }
        if (ret < 0) break;
        uint32_t len = (uint32_t)ret;
        if (guest_put(e, entry + GUEST_MMSG_LEN_AT, &len, sizeof len)) {
            ret = -EFAULT;
            break;
        }
        got++;
        uint64_t now = emu_guest_clock_ns(e);
        timed_out = a[4] && end <= now;
        timeout_ns = timed_out ? 0 : end - now;
    }
    if (e->syscall_retry) emu_thread_set_io_partial(e, got + (part != 0));
    if (e->syscall_retry) emu_thread_set_io_partial_bytes(e, part);
    if (e->syscall_retry) emu_thread_set_io_deadline(e, end);
    if (e->status != EMU_RUNNING || !got) return ret;
    if (a[4]) { /* the time left, as Linux writes it back */
        int64_t left[2] = {(int64_t)(timeout_ns / 1000000000u), (int64_t)(timeout_ns % 1000000000u)};
        if (guest_put(e, a[4], left, sizeof left)) return -EFAULT;
    }
    return e->syscall_retry ? 0 : (int64_t)got;
}

/* sendmmsg(fd, msgvec, vlen, flags) as Linux's __sys_sendmmsg: up to vlen (at most
 * UIO_MAXIOV) messages, each a sendmsg with its length in msg_len, stopping after one a
 * signal cut short; an error after a message returns the count. With threads a wait for
 * room runs the call again with the messages begun in io_partial (a signal then returns that
 * count, as Linux); the last one's msg_len tells how much of it was sent. */
static int64_t socket_sendmmsg(emu_t *e, const uint64_t *a) {
    uint64_t vlen = a[2] < 1024 ? a[2] : 1024, sent = emu_thread_io_partial(e);
    bool resuming = sent != 0; /* the call runs again after a wait: its last message may be part sent */
    if (resuming) sent--;
    int64_t ret = 0;
    while (sent < vlen) {
        uint64_t entry = a[1] + GUEST_MMSGHDR_SIZE * sent, args[3] = {a[0], entry, a[3]};
        guest_msghdr gm;
        uint8_t *unused = NULL;
        size_t total = 0;
        ret = guest_get(e, entry, &gm, sizeof gm) ? -EFAULT
                                                  : socket_iov_buffer(e, gm.iov, gm.iovlen, &unused, &total, false);
        free(unused);
        if (ret < 0) break;
        uint32_t len = 0;
        if (resuming) { /* its msg_len: what of it was sent before the wait */
            resuming = false;
            if (guest_get(e, entry + GUEST_MMSG_LEN_AT, &len, sizeof len)) {
                ret = -EFAULT;
                break;
            }
            if (len >= total) {
                sent++;
                continue;
            }
        }
        emu_thread_set_io_partial(e, len); /* socket_send goes on from there */
        ret = socket_msg(e, SYS_sendmsg, args, gm);
        if (e->syscall_retry) ret = (int64_t)emu_thread_io_partial(e); /* bytes sent before it waits */
        if (ret < 0) break;
        len = (uint32_t)ret;
        if (guest_put(e, entry + GUEST_MMSG_LEN_AT, &len, sizeof len)) {
            ret = -EFAULT;
            break;
        }
        if (e->syscall_retry) {
            emu_thread_set_io_partial(e, len ? sent + 1 : sent);
            return 0;
        }
        sent++;
        if ((size_t)ret < total) break; /* a signal cut it short */
    }
    if (e->status != EMU_RUNNING) return ret;
    return sent ? (int64_t)sent : ret;
}

/* The socket calls on a descriptor (socket itself is refused: docs/sandbox.md §4). Only a
 * socketpair's ends are sockets; every other descriptor is ENOTSOCK (no descriptor: EBADF),
 * Linux looking the descriptor up first. */
static int64_t sys_socket_call(emu_t *e, uint64_t nr, const uint64_t *a) {
    uint64_t timeout_ns;
    if (nr == SYS_recvmmsg && a[4]) { /* Linux reads the timeout before the descriptor */
        int64_t bad = guest_timespec_ns(e, a[4], &timeout_ns);
        if (bad) return bad;
    }
    guest_fd *g = fd_of(e, a[0]);
    if (!g) return -EBADF;
    guest_pipe *p = socket_of(e, g);
    if (!p) return -ENOTSOCK;
    switch (nr) {
    case SYS_bind: return -EACCES; /* a name in the file system or the abstract namespace: no socket reaches out */
    case SYS_connect: return p->dgram ? -EACCES : -EISCONN;              /* unix_stream_connect on a connected socket */
    case SYS_listen: return listen(g->host, (int)a[1]) < 0 ? -errno : 0; /* EINVAL, EOPNOTSUPP */
    case SYS_accept:
    case SYS_accept4: return accept4(g->host, NULL, NULL, 0) < 0 ? -errno : -EINVAL; /* never listening */
    case SYS_shutdown: {
        int r = shutdown(g->host, (int)a[1]);
        emu_thread_pipe_changed(e); /* a receiver that waits sees its end of file */
        return r < 0 ? -errno : 0;
    }
    case SYS_getsockname:
    case SYS_getpeername: {
        struct sockaddr_storage ss;
        socklen_t len = sizeof ss;
        if ((nr == SYS_getsockname ? getsockname : getpeername)(g->host, (struct sockaddr *)&ss, &len) < 0)
            return -errno;
        uint32_t room;
        if (guest_get(e, a[2], &room, sizeof room)) return -EFAULT;
        if ((int32_t)room < 0) return -EINVAL;
        return socket_put_addr(e, a[1], a[2], &ss, len);
    }
    case SYS_getsockopt:
    case SYS_setsockopt: {
        /* options about the socket alone, passed to the host; any other (a filter holding a
         * pointer, SO_ATTACH_BPF naming a descriptor, the host's security label) is refused */
        static const int served[] = {SO_TYPE,         SO_DOMAIN,      SO_PROTOCOL, SO_ERROR,      SO_SNDBUF,
                                     SO_RCVBUF,       SO_RCVLOWAT,    SO_SNDLOWAT, SO_ACCEPTCONN, SO_PASSCRED,
                                     SO_PEERCRED,     SO_KEEPALIVE,   SO_LINGER,   SO_RCVTIMEO,   SO_SNDTIMEO,
                                     SO_RCVTIMEO_NEW, SO_SNDTIMEO_NEW};
        bool known = false;
        for (size_t i = 0; i < sizeof served / sizeof *served; i++) known |= (int)a[2] == served[i];
        if ((int)a[1] != SOL_SOCKET || !known) return -ENOPROTOOPT;
        uint8_t val[256] = {0};
        uint32_t len = (uint32_t)a[4];
        if (nr == SYS_getsockopt && guest_get(e, a[4], &len, sizeof len)) return -EFAULT;
        if ((int32_t)len < 0) return -EINVAL;
        socklen_t host_len = len < sizeof val ? len : sizeof val;
        if (nr == SYS_setsockopt) {
            if (host_len && guest_get(e, a[3], val, host_len)) return -EFAULT;
            return setsockopt(g->host, (int)a[1], (int)a[2], val, host_len) < 0 ? -errno : 0;
        }
        if (getsockopt(g->host, (int)a[1], (int)a[2], val, &host_len) < 0) return -errno;
        if ((int)a[2] == SO_PEERCRED) { /* the guest's: the pair's maker, the guest's ids (Linux: at socketpair) */
            struct ucred cred = {.pid = p->creator_vpid, .uid = GUEST_ID, .gid = GUEST_ID};
            memcpy(val, &cred, host_len < sizeof cred ? host_len : sizeof cred);
        }
        if (host_len && guest_put(e, a[3], val, host_len)) return -EFAULT;
        uint32_t out = host_len;
        return guest_put(e, a[4], &out, sizeof out) ? -EFAULT : 0;
    }
    case SYS_sendto: {
        if (a[4]) return p->dgram ? -EACCES : -EISCONN; /* an address: unix_stream_sendmsg */
        size_t n = a[2] < MAX_IO ? (size_t)a[2] : MAX_IO;
        uint8_t *tmp = cs_malloc(n ? n : 1);
        int64_t ret = guest_get(e, a[1], tmp, n) ? -EFAULT : socket_send(e, g, tmp, n, (int)a[3], true);
        free(tmp);
        return ret;
    }
    case SYS_recvfrom: {
        size_t n = a[2] < MAX_IO ? (size_t)a[2] : MAX_IO;
        uint8_t *tmp = cs_malloc(n ? n : 1);
        struct sockaddr_storage from;
        struct iovec v = {tmp, n};
        struct msghdr m = {.msg_name = &from, .msg_namelen = sizeof from, .msg_iov = &v, .msg_iovlen = 1};
        size_t before = (a[3] & MSG_WAITALL) ? (size_t)emu_thread_io_partial(e) : 0; /* MSG_WAITALL's, before a wait */
        int64_t ret = before && guest_get(e, a[1], tmp, before) ? -EFAULT : socket_recv(e, g, &m, (int)a[3], true);
        if (e->syscall_retry) ret = (int64_t)emu_thread_io_partial(e); /* it waits: these stay in the guest's buffer */
        if (ret > 0 && guest_put(e, a[1], tmp, (size_t)ret < n ? (size_t)ret : n)) ret = -EFAULT;
        if (e->syscall_retry && ret >= 0) ret = 0;
        if (ret >= 0 && !e->syscall_retry && socket_put_addr(e, a[4], a[5], &from, m.msg_namelen)) ret = -EFAULT;
        free(tmp);
        return ret;
    }
    case SYS_sendmsg:
    case SYS_recvmsg: {
        guest_msghdr gm;
        if (guest_get(e, a[1], &gm, sizeof gm)) return -EFAULT;
        return socket_msg(e, nr, a, gm);
    }
    case SYS_recvmmsg: return socket_recvmmsg(e, a);
    case SYS_sendmmsg: return socket_sendmmsg(e, a);
    default: return -ENOSYS;
    }
}

/* whether the host descriptor can become ready from outside the guest (a pipe, a socket or a
 * terminal that is not one of the guest's own pipes: as read() would wait) */
static bool host_fd_from_outside(const emu_t *e, int host) {
    for (int i = 0; i < EMU_MAX_FDS; i++) /* an eventfd another process of the guest holds */
        if (e->fds[i].host == host && e->fds[i].eventfd && e->fds[i].forked) return true;
    struct stat st;
    return host >= 0 && fstat(host, &st) == 0 &&
        (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode)) && !host_fd_is_guest_pipe(e, host);
}

/* `count` bytes of the guest's random stream into its memory at `buf` (getrandom, and reads of
 * /dev/random and /dev/urandom): xorshift64* from the --seed, so a run is repeatable — the
 * same instructions every time, and the same cycles from every verb — and different from the
 * AT_RANDOM bytes. The count given, or -EFAULT. */
static int64_t guest_random_read(emu_t *e, uint64_t buf, uint64_t count) {
    size_t n = count < MAX_IO ? count : MAX_IO;
    uint8_t *bytes = cs_malloc(n + 8);
    for (size_t i = 0; i < n; i += 8) {
        e->rng ^= e->rng >> 12, e->rng ^= e->rng << 25, e->rng ^= e->rng >> 27;
        uint64_t r = e->rng * 0x2545f4914f6cdd1dull;
        memcpy(bytes + i, &r, 8);
    }
    int64_t ret = guest_put(e, buf, bytes, n) ? -EFAULT : (int64_t)n;
    free(bytes);
    return ret;
}

/* Linux's random character devices, 1:8 (/dev/random) and 1:9 (/dev/urandom), by whatever
 * path or descriptor they were reached */
static bool is_random_device(int host) {
    struct stat st;
    return fstat(host, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
        (minor(st.st_rdev) == 8 || minor(st.st_rdev) == 9);
}

/* read(2), or pread64 at `offset` when it is not negative; `may_wait`: an empty pipe makes
 * it wait (readv's later buffers do not) */
static int64_t sys_read(emu_t *e, uint64_t fd, uint64_t buf, uint64_t count, int64_t offset, bool may_wait) {
    guest_fd *g = fd_of(e, fd);
    if (!g) return -EBADF;
    /* Until 2026-11-29 they read the host's: a program seeding itself from /dev/urandom (jq's
     * hash tables) ran a different number of instructions every run, while getrandom's were
     * repeatable. */
    if (!g->random_device) g->random_device = is_random_device(g->host) ? 1 : -1;
    if (g->random_device > 0) return guest_random_read(e, buf, count);
    if (socket_of(e, g)) { /* recv(2) without flags */
        if (offset >= 0) return -ESPIPE;
        size_t n = count < MAX_IO ? count : MAX_IO;
        uint8_t *tmp = cs_malloc(n ? n : 1);
        struct iovec v = {tmp, n};
        struct msghdr m = {.msg_iov = &v, .msg_iovlen = 1};
        int64_t ret = socket_recv(e, g, &m, 0, may_wait);
        if (ret > 0 && guest_put(e, buf, tmp, (size_t)ret)) ret = -EFAULT;
        free(tmp);
        return ret;
    }
    if (pipe_of(e, g) && pipe_of(e, g)->cross_process) return cross_pipe_read(e, g, buf, count, may_wait);
    if (g->eventfd && g->forked && offset < 0) return shared_eventfd_io(e, g, buf, count, true, may_wait);
    if (!may_wait && offset < 0 && !pipe_of(e, g) && !g->eventfd && host_fd_from_outside(e, g->host)) {
        /* readv's later buffer of a terminal, a FIFO or a pipe from outside: what is there now
         * (Linux's pipe_read and n_tty_read fill the later buffers without waiting); its host
         * read held every thread until more came */
        struct pollfd q = {.fd = g->host, .events = POLLIN};
        if (poll(&q, 1, 0) == 0) return 0;
    }
    if (may_wait && offset < 0 && !pipe_of(e, g) && !g->eventfd && e->threads && e->threads_live > 1 &&
        !(fcntl(g->host, F_GETFL) & O_NONBLOCK) && host_fd_from_outside(e, g->host)) {
        /* a terminal or a pipe from outside with nothing in it: the other threads run while
         * this one waits (before, its host read held them all) */
        struct pollfd q = {.fd = g->host, .events = POLLIN};
        if (poll(&q, 1, 0) == 0) {
            int64_t waits = emu_thread_block_host(e, "reading", &q, 1, UINT64_MAX, true);
            if (waits) return waits < 0 ? waits : 0;
        }
    }
    shared_before_io(e, g->host);
    size_t n = count < MAX_IO ? count : MAX_IO;
    uint8_t *tmp = cs_malloc(n ? n : 1);
    ssize_t got = offset < 0 ? read(g->host, tmp, n) : pread(g->host, tmp, n, offset);
    int64_t ret = got < 0 ? -errno : got;
    guest_pipe *p = pipe_of(e, g);
    if (g->eventfd) ret = eventfd_io_end(e, g, ret, may_wait, true);
    if (p && got > 0) { /* what was read leaves the copy too */
        memmove(p->data, p->data + got, p->len - (size_t)got);
        p->len -= (size_t)got;
        emu_thread_pipe_changed(e); /* room for a writer that waits */
    }
    if (p && ret == -EAGAIN && !g->nonblock) {
        if (!may_wait) ret = 0; /* readv's later buffer: what the earlier ones got */
        else {                  /* another thread may write it */
            ret = wait_for_another_thread(e, "reading an empty pipe", "read from an empty pipe",
                                          "only the guest itself can write to it");
        }
    }
    if (got > 0 && guest_put(e, buf, tmp, (size_t)got) != 0) ret = -EFAULT;
    free(tmp);
    return ret;
}

/* The wait of host_poll (also epoll_pwait's, on its instance's host descriptor) once nothing
 * is ready: `outside` when a descriptor waited for can become ready from outside the guest,
 * `call` names it in the line that ends a wait that would last forever. */
static int64_t poll_wait(emu_t *e, struct pollfd *p, size_t n, bool timed, uint64_t timeout_ns, bool outside,
                         const char *call) {
    if (emu_thread_io_timed_out(e) || (timed && timeout_ns == 0)) return 0; /* its wait ran out */
    /* only the guest's own pipes (or nothing): another thread may make one ready, or the
     * time run out; this one waits (thread.c) */
    const char *what = call[0] == 'e' ? "in epoll_wait" : "in poll";
    uint64_t now = emu_guest_clock_ns(e);
    uint64_t deadline = !timed ? UINT64_MAX : now + timeout_ns >= now ? now + timeout_ns : UINT64_MAX - 1;
    /* other threads run while this one waits for the outside (thread.c), which the host
     * watches when they all wait */
    int64_t waits = outside ? emu_thread_block_host(e, what, p, n, deadline, false) : 0;
    if (!waits && (!outside || timed)) waits = emu_thread_block_io(e, what, deadline, false);
    if (waits) return waits < 0 ? waits : 0;
    if (timed && outside) return outside_wait_for(e, p, n, timeout_ns);
    if (timed) return guest_sleep(e, timeout_ns, NULL) ? 0 : -EINTR;
    if (!outside && emu_alarm_would_wake(e)) { /* the alarm ends the wait (pause() of old) */
        guest_sleep(e, emu_alarm_budget(e), NULL);
        return -EINTR;
    }
    if (!outside && emu_wait_child_end(e)) return -EINTR; /* a child's SIGCHLD ends it (pause()) */
    if (!outside) {
        emu_fail(e, "%s would block forever: nothing it waits for can become ready, and %s (pc 0x%" PRIx64 ")", call,
                 EMU_SINGLE_THREAD_NOTE, e->h.pc);
        return -EDEADLK;
    }
    bool interrupted;
    int got = emu_host_wait(e, p, n, &interrupted); /* another process' signal may end it */
    return interrupted ? -EINTR : got < 0 ? -errno : got;
}

/* ppoll/pselect6's wait, on the guest clock as a sleep is: what is ready now (the host's
 * ppoll with no wait); nothing ready, other threads alive and a timeout or only the guest's
 * own pipes: the thread waits (thread.c) until a pipe changes or the timeout runs out (the
 * call runs again then, and returns what is ready). With one thread: a timeout runs out at
 * once, moving the guest clock by it (input arriving meanwhile is not seen, as its time is
 * not the host's); nothing ready and no timeout: the host's wait when
 * a descriptor can become ready from outside (a pipe, a socket, a terminal: as read()
 * would wait), else the run ends as a futex wait without a timeout does. Returns the
 * host's count or -errno; -EDEADLK after emu_fail. */
static int64_t host_poll(emu_t *e, struct pollfd *p, size_t n, uint64_t timeout_addr) {
    uint64_t timeout_ns = 0;
    int64_t bad = timeout_addr ? guest_timespec_ns(e, timeout_addr, &timeout_ns) : 0;
    if (bad) return bad;
    struct timespec zero = {0, 0};
    int got = ppoll(p, n, &zero, NULL);
    if (got != 0) return got < 0 ? -errno : got;
    bool outside = false;
    for (size_t i = 0; i < n; i++)
        if (p[i].events && host_fd_from_outside(e, p[i].fd)) outside = true;
    return poll_wait(e, p, n, timeout_addr != 0, timeout_ns, outside, "poll");
}

/* setrlimit(resource, &new) as Linux answers an unprivileged process: a soft limit above the
 * hard one is EINVAL, a hard limit above the current one EPERM (the guest cannot have more
 * than its 256 descriptors or --guest-memory: it said yes and kept them, and mbedtls' test
 * then failed its dup2 to descriptor 1024). Lowering is kept; RLIMIT_NOFILE's soft limit
 * bounds the descriptors (fd_limit), RLIMIT_AS's the mappings. */
static int64_t sys_set_rlimit(emu_t *e, int resource, uint64_t addr) {
    uint64_t lim[2];
    if (guest_get(e, addr, lim, sizeof lim)) return -EFAULT;
    if (lim[0] > lim[1]) return -EINVAL;
    if (lim[1] > e->rlim[resource][1]) return -EPERM;
    e->rlim[resource][0] = lim[0];
    e->rlim[resource][1] = lim[1];
    if (resource == GUEST_RLIMIT_AS) mem_set_limit(&e->m, lim[0]);
    return 0;
}

/* ppoll(fds, nfds, timeout, sigmask, sigsetsize): struct pollfd is the same on every Linux */
static int64_t sys_ppoll(emu_t *e, uint64_t fds, uint64_t nfds, uint64_t timeout_addr) {
    if (nfds > EMU_MAX_FDS) return -EINVAL;
    struct pollfd *p = cs_calloc(nfds ? nfds : 1, sizeof *p);
    int *guest = cs_calloc(nfds ? nfds : 1, sizeof *guest);
    int64_t ret = nfds && guest_get(e, fds, p, nfds * sizeof *p) ? -EFAULT : 0;
    int invalid = 0;
    for (size_t i = 0; ret == 0 && i < nfds; i++) {
        guest[i] = p[i].fd;
        guest_fd *g = p[i].fd >= 0 ? fd_of(e, (uint64_t)p[i].fd) : NULL;
        if (p[i].fd >= 0 && !g) invalid++;
        p[i].fd = g ? g->host : -1; /* negative: ignored by the host; an unknown one: POLLNVAL */
    }
    if (ret == 0 && invalid) { /* POLLNVAL is an event: no wait, the others as they are now */
        struct timespec zero = {0, 0};
        ret = ppoll(p, nfds, &zero, NULL) < 0 ? -errno : 0;
    } else if (ret == 0) ret = host_poll(e, p, nfds, timeout_addr);
    if (ret >= 0 && !e->syscall_retry) {
        for (size_t i = 0; i < nfds; i++) {
            bool bad = guest[i] >= 0 && !fd_of(e, (uint64_t)guest[i]);
            if (bad) p[i].revents = POLLNVAL;
            p[i].fd = guest[i];
        }
        if (invalid) {
            ret = 0;
            for (size_t i = 0; i < nfds; i++) ret += p[i].revents != 0;
        }
        if (nfds && guest_put(e, fds, p, nfds * sizeof *p)) ret = -EFAULT;
    }
    free(guest);
    free(p);
    return ret;
}

/* pselect6(nfds, readfds, writefds, exceptfds, timeout, sigmask): the sets as host polls */
static int64_t sys_pselect6(emu_t *e, uint64_t nfds, uint64_t rd, uint64_t wr, uint64_t ex, uint64_t timeout_addr) {
    if (nfds > EMU_MAX_FDS) return -EINVAL;
    uint64_t sets[3][EMU_MAX_FDS / 64] = {{0}};
    uint64_t addr[3] = {rd, wr, ex};
    size_t bytes = (nfds + 63) / 64 * 8;
    for (int k = 0; k < 3; k++)
        if (addr[k] && bytes && guest_get(e, addr[k], sets[k], bytes)) return -EFAULT;
    struct pollfd p[EMU_MAX_FDS];
    int which[EMU_MAX_FDS];
    size_t n = 0;
    for (uint64_t fd = 0; fd < nfds; fd++) {
        short ev = 0;
        for (int k = 0; k < 3; k++)
            if (sets[k][fd / 64] >> (fd % 64) & 1) ev |= k == 0 ? POLLIN : k == 1 ? POLLOUT : POLLPRI;
        if (!ev) continue;
        guest_fd *g = fd_of(e, fd);
        if (!g) return -EBADF;
        p[n] = (struct pollfd){g->host, ev, 0};
        which[n++] = (int)fd;
    }
    int64_t got = host_poll(e, p, n, timeout_addr);
    if (got < 0 || e->syscall_retry) return got; /* waiting: the sets stay as the guest gave them */
    uint64_t out[3][EMU_MAX_FDS / 64] = {{0}};
    int64_t count = 0;
    for (size_t i = 0; i < n; i++) {
        short r = p[i].revents, ev = p[i].events;
        bool hit[3] = {(ev & POLLIN) && (r & (POLLIN | POLLHUP | POLLERR)), (ev & POLLOUT) && (r & (POLLOUT | POLLERR)),
                       (ev & POLLPRI) && (r & POLLPRI)};
        for (int k = 0; k < 3; k++)
            if (hit[k]) out[k][which[i] / 64] |= 1ull << (which[i] % 64), count++;
    }
    for (int k = 0; k < 3; k++)
        if (addr[k] && bytes && guest_put(e, addr[k], out[k], bytes)) return -EFAULT;
    return count;
}

/* ---- epoll (Go's netpoller: every Go program that opens a file, starts a timer or a child) ----
 * An epoll instance is a host one: epoll_ctl registers the host descriptors behind the guest's
 * with the guest's events and data, so the host kernel judges them as Linux does (EPERM for a
 * regular file, EEXIST, ENOENT, edge-triggered and one-shot reports, an entry leaving with its
 * file's last close). The wait is ppoll's (poll_wait) on the instance's host descriptor. */

enum { GUEST_EPOLL_EVENT_SIZE = 16, EPOLL_BATCH = 256 }; /* riscv64's struct epoll_event is not packed */

static int64_t sys_epoll_create1(emu_t *e, uint64_t flags) {
    if (flags & ~(uint64_t)EPOLL_CLOEXEC) return -EINVAL;
    int host = epoll_create1(EPOLL_CLOEXEC);
    if (host < 0) return -errno;
    return fd_install(e, host, false, "anon_inode:[eventpoll]", (flags & EPOLL_CLOEXEC) != 0);
}

static int64_t sys_epoll_ctl(emu_t *e, uint64_t epfd, uint64_t op, uint64_t fd, uint64_t event_addr) {
    struct epoll_event ev = {0};
    if (op != EPOLL_CTL_DEL) { /* Linux copies the event first: EFAULT before EBADF */
        uint8_t raw[GUEST_EPOLL_EVENT_SIZE];
        if (guest_get(e, event_addr, raw, sizeof raw)) return -EFAULT;
        memcpy(&ev.events, raw, 4);
        memcpy(&ev.data.u64, raw + 8, 8);
    }
    guest_fd *ep = fd_of(e, epfd), *target = fd_of(e, fd);
    if (!ep || !target) return -EBADF;
    return epoll_ctl(ep->host, (int)op, target->host, &ev) < 0 ? -errno : 0;
}

/* whether a descriptor registered on the host epoll instance `host` can become ready from
 * outside the guest: the instance's fdinfo lists them ("tfd: N ...") */
static bool epoll_waits_outside(const emu_t *e, int host) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/self/fdinfo/%d", host);
    FILE *f = fopen(path, "r");
    if (!f) return true; /* unknown: the host's wait, as for a terminal */
    bool outside = false;
    int tfd;
    while (!outside && fgets(line, sizeof line, f))
        if (sscanf(line, "tfd: %d", &tfd) == 1 && host_fd_from_outside(e, tfd)) outside = true;
    fclose(f);
    return outside;
}

/* epoll_pwait(epfd, events, maxevents, timeout ms) and epoll_pwait2's timespec (`timed`
 * false: no timeout); the signal mask is sys_epoll_masked's */
static int64_t sys_epoll_wait(emu_t *e, uint64_t epfd, uint64_t events, int64_t maxevents, bool timed,
                              uint64_t timeout_ns) {
    if (maxevents <= 0 || maxevents > INT_MAX / GUEST_EPOLL_EVENT_SIZE) return -EINVAL;
    guest_fd *ep = fd_of(e, epfd);
    if (!ep) return -EBADF;
    struct epoll_event got_ev[EPOLL_BATCH];
    int room = maxevents < EPOLL_BATCH ? (int)maxevents : EPOLL_BATCH;
    int got = epoll_wait(ep->host, got_ev, room, 0);
    if (got < 0) return -errno;
    if (got == 0) {
        struct pollfd p = {.fd = ep->host, .events = POLLIN};
        /* an instance open at a fork: the other process may add to it or make its files ready */
        bool outside = ep->forked || epoll_waits_outside(e, ep->host);
        int64_t waited = poll_wait(e, &p, 1, timed, timeout_ns, outside, "epoll_wait");
        if (waited <= 0) return waited; /* timed out, interrupted, or waiting (run again) */
        got = epoll_wait(ep->host, got_ev, room, 0);
        if (got < 0) return -errno;
    }
    for (int i = 0; i < got; i++) {
        uint8_t raw[GUEST_EPOLL_EVENT_SIZE] = {0};
        memcpy(raw, &got_ev[i].events, 4);
        memcpy(raw + 8, &got_ev[i].data.u64, 8);
        if (guest_put(e, events + (uint64_t)i * GUEST_EPOLL_EVENT_SIZE, raw, sizeof raw)) return -EFAULT;
    }
    return got;
}

/* Linux's positions in /proc's root (fs/proc/base.c): its own entries below
 * FIRST_PROCESS_ENTRY (256), then "self" and "thread-self", then each process at its tgid +
 * TGID_OFFSET — the position a guest's telldir/seekdir and the host descriptor's offset hold. */
enum { PROC_TGID_OFFSET = 256 + 2 };
#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0 /* linux/magic.h */
#endif

/* whether host descriptor `host` is a directory of /proc's root (proc_root's inode is 1) */
static bool is_proc_root(int host) {
    struct statfs fs;
    struct stat st;
    return fstatfs(host, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC && fstat(host, &st) == 0 && st.st_ino == 1 &&
        S_ISDIR(st.st_mode);
}

static bool all_digits(const char *name) {
    if (!*name) return false;
    for (; *name; name++)
        if (*name < '0' || *name > '9') return false;
    return true;
}

/* getdents64 of /proc's root as Linux shows it in a PID namespace holding the guest's processes
 * alone: the host's entries that are no pid ("self", "meminfo", ...), then the guest's pids
 * (emu_tree_pids), where before 2026-11-29 they were the host's processes and none of the
 * guest's. The host descriptor's offset is the position (proc_pid_readdir's): below
 * PROC_TGID_OFFSET the host lists, from there our pids do, each entry's d_off the position of
 * the next, so rewinddir, telldir and seekdir work through lseek as on Linux. */
static int64_t proc_root_getdents(emu_t *e, int host, uint64_t buf, size_t n) {
    off_t pos = lseek(host, 0, SEEK_CUR);
    if (pos < 0) return -errno;
    uint8_t *out = cs_malloc(n ? n : 1);
    size_t used = 0;
    int64_t ret = 0;
    if (pos < PROC_TGID_OFFSET) {
        uint8_t *tmp = cs_malloc(n ? n : 1);
        ssize_t got = getdents64(host, tmp, n);
        if (got < 0) ret = -errno;
        bool pids = got == 0; /* the host's entries are all listed */
        for (ssize_t at = 0; at < got && !pids;) {
            struct dirent64 *d = (struct dirent64 *)(tmp + at);
            if (all_digits(d->d_name)) {
                pids = true; /* the host's processes from here: ours instead */
                break;
            }
            /* thread-self's d_off is the host's first process' position: from there, ours */
            if (d->d_off > PROC_TGID_OFFSET) d->d_off = PROC_TGID_OFFSET;
            memcpy(out + used, d, d->d_reclen);
            used += d->d_reclen;
            at += d->d_reclen;
        }
        free(tmp);
        if (ret == 0) pos = lseek(host, 0, SEEK_CUR);
        if (ret == 0 && (pids || pos > PROC_TGID_OFFSET)) pos = lseek(host, PROC_TGID_OFFSET, SEEK_SET);
        if (ret == 0 && pos < 0) ret = -errno;
    }
    if (ret == 0 && pos >= PROC_TGID_OFFSET) {
        int32_t *list = cs_malloc(8192 * sizeof *list);
        size_t count = emu_tree_pids(e, list, 8192);
        for (size_t i = 0; i < count; i++) {
            if ((off_t)list[i] + PROC_TGID_OFFSET < pos) continue;
            char name[16];
            int len = snprintf(name, sizeof name, "%d", (int)list[i]);
            size_t reclen = (offsetof(struct dirent64, d_name) + (size_t)len + 1 + 7) & ~(size_t)7;
            if (used + reclen > n) {
                if (!used) ret = -EINVAL; /* Linux: the buffer holds not even one entry */
                break;
            }
            /* its inode: the host directory the guest's /proc/PID is (get_path) */
            char dir[32];
            pid_t of = list[i] == e->vpid ? getpid() : emu_tree_host_pid(e, list[i]);
            snprintf(dir, sizeof dir, "/proc/%d", (int)of);
            struct stat st;
            struct dirent64 *d = (struct dirent64 *)(out + used);
            memset(d, 0, reclen);
            d->d_ino = of > 0 && stat(dir, &st) == 0 ? st.st_ino : 1;
            d->d_off = (off_t)list[i] + PROC_TGID_OFFSET + 1;
            d->d_reclen = (unsigned short)reclen;
            d->d_type = DT_DIR;
            memcpy(d->d_name, name, (size_t)len + 1);
            used += reclen;
            pos = d->d_off;
        }
        free(list);
        if (lseek(host, pos, SEEK_SET) < 0 && ret == 0) ret = -errno;
    }
    if (ret == 0) ret = (int64_t)used;
    if (used && guest_put(e, buf, out, used) != 0) ret = -EFAULT;
    free(out);
    return ret;
}

/* getdents64(2): the host's entries as they are, struct linux_dirent64 being the same on
 * every 64-bit Linux (a guest's opendir/readdir of a host directory, as under qemu); /proc's
 * root lists the guest's processes (proc_root_getdents) */
static int64_t sys_getdents64(emu_t *e, uint64_t fd, uint64_t buf, uint64_t count) {
    guest_fd *g = fd_of(e, fd);
    if (!g) return -EBADF;
    size_t n = count < MAX_IO ? count : MAX_IO;
    if (is_proc_root(g->host)) return proc_root_getdents(e, g->host, buf, n);
    uint8_t *tmp = cs_malloc(n ? n : 1);
    ssize_t got = getdents64(g->host, tmp, n);
    int64_t ret = got < 0 ? -errno : got;
    if (got > 0 && guest_put(e, buf, tmp, (size_t)got) != 0) ret = -EFAULT;
    free(tmp);
    return ret;
}

/* write(2), or pwrite64 at `offset` when it is not negative. `may_wait`: a full pipe makes
 * it wait for another thread to read (writev's later buffers do not). A write(2) to a pipe
 * waits until all of it is written, as Linux's pipe_write: what it wrote before each wait
 * is kept by thread.c, and the call, run again, goes on after it. */
static int64_t sys_write(emu_t *e, uint64_t fd, uint64_t buf, uint64_t count, int64_t offset, bool may_wait) {
    guest_fd *g = fd_of(e, fd);
    if (!g) return -EBADF;
    if (!g->writable) return -EBADF;
    if (g->comm_tid) return comm_write(e, g->comm_tid, buf, count);
    guest_pipe *p = pipe_of(e, g);
    if (p && offset >= 0) return -ESPIPE;
    if (p && p->socket) { /* send(2) without flags */
        size_t n = count < MAX_IO ? count : MAX_IO;
        uint8_t *tmp = cs_malloc(n ? n : 1);
        int64_t ret = guest_get(e, buf, tmp, n) ? -EFAULT : socket_send(e, g, tmp, n, 0, may_wait);
        free(tmp);
        return ret;
    }
    if (p && p->cross_process) return cross_pipe_write(e, g, buf, count, may_wait);
    if (g->eventfd && g->forked && offset < 0) return shared_eventfd_io(e, g, buf, count, false, may_wait);
    uint64_t before = p && may_wait ? emu_thread_io_partial(e) : 0; /* written before it waited */
    if (before > count) before = count;
    buf += before;
    count -= before;
    if (p && !pipe_has_end(e, g->pipe, false)) { /* no reader left: EPIPE and SIGPIPE, as Linux */
        emu_signal_send(e, SIGPIPE, "sent for a write to a pipe without a reader");
        return before ? (int64_t)before : -EPIPE;
    }
    size_t n = count < MAX_IO ? count : MAX_IO;
    uint8_t *tmp = cs_malloc(n ? n : 1);
    int64_t ret = guest_get(e, buf, tmp, n);
    if (ret == 0) {
        if (g->host == STDOUT_FILENO || g->host == STDERR_FILENO) progress_interrupt(); /* not into the bar's line */
        shared_before_io(e, g->host);
        ssize_t put_n = offset < 0 ? write(g->host, tmp, n) : pwrite(g->host, tmp, n, offset);
        ret = put_n < 0 ? -errno : put_n;
        if (ret == -EPIPE) /* a pipe or socket from outside (an inherited stdout): as Linux */
            emu_signal_send(e, SIGPIPE, "sent for a write to a pipe or socket without a reader");
        if (put_n > 0) shared_after_write(e, g->host);
        if (g->eventfd) ret = eventfd_io_end(e, g, ret, may_wait, false);
        if (p && put_n > 0) { /* the copy a fork of the emulator is given */
            if (p->len + (size_t)put_n > p->cap) {
                p->cap = (p->len + (size_t)put_n) * 2;
                p->data = cs_realloc(p->data, p->cap);
            }
            memcpy(p->data + p->len, tmp, (size_t)put_n);
            p->len += (size_t)put_n;
            emu_thread_pipe_changed(e); /* data for a reader that waits */
        }
        uint64_t wrote = before + (put_n > 0 ? (uint64_t)put_n : 0);
        if (p && !g->nonblock && (ret == -EAGAIN || (put_n >= 0 && (size_t)put_n < n))) {
            if (!may_wait && put_n > 0) ret = put_n; /* writev's later buffer: a short count */
            else if (!may_wait) ret = 0;
            else { /* full: another thread may read it */
                int64_t waited = wait_for_another_thread(e, "writing a full pipe", "write to a full pipe",
                                                         "only the guest itself can read it");
                if (waited == 0) emu_thread_set_io_partial(e, wrote); /* it waits: the call runs again */
                ret = waited == 0 || waited == -EDEADLK || !wrote ? waited : (int64_t)wrote;
            }
        } else if (ret >= 0) ret += (int64_t)before;
    }
    free(tmp);
    return ret;
}

/* sendfile(out, in, offset, count) between the host files behind two descriptors (busybox's
 * cat copies with it; it was ENOSYS with a warning). A pipe the guest made (its data is
 * also kept for forks) answers EINVAL, as Linux did before 5.12 for a pipe to read, and
 * the callers then copy by read and write, as they do on ENOSYS. */
static int64_t sys_sendfile(emu_t *e, uint64_t out_fd, uint64_t in_fd, uint64_t offset_addr, uint64_t count) {
    guest_fd *out = fd_of(e, out_fd), *in = fd_of(e, in_fd);
    if (!out || !in || !out->writable) return -EBADF;
    if (pipe_of(e, out) || pipe_of(e, in)) return -EINVAL;
    off_t offset = 0;
    if (offset_addr && guest_get(e, offset_addr, &offset, sizeof offset)) return -EFAULT;
    if (offset < 0) return -EINVAL;
    size_t n = count < MAX_IO ? count : MAX_IO;
    if (out->host == STDOUT_FILENO || out->host == STDERR_FILENO) progress_interrupt();
    shared_before_io(e, in->host);
    shared_before_io(e, out->host);
    ssize_t sent = sendfile(out->host, in->host, offset_addr ? &offset : NULL, n);
    if (sent < 0 && errno == EPIPE) { /* as write(2) */
        emu_signal_send(e, SIGPIPE, "sent for a sendfile to a pipe or socket without a reader");
        return -EPIPE;
    }
    if (sent < 0) return -errno;
    if (sent > 0) shared_after_write(e, out->host);
    if (offset_addr && guest_put(e, offset_addr, &offset, sizeof offset)) return -EFAULT;
    return sent;
}

/* copy_file_range(in, off_in, out, off_out, len, flags) between the host files behind two
 * descriptors (coreutils' cp and cat copy with it; it was ENOSYS with a warning). `out` must
 * be a descriptor the sandbox let the guest write (opened beneath --allow-write, or an
 * inherited stream), as write(2) asks; the rest — regular files only (EINVAL), O_APPEND
 * (EBADF), overlapping ranges of one file, EXDEV — is the host kernel's answer. */
static int64_t sys_copy_file_range(emu_t *e, uint64_t in_fd, uint64_t in_off_addr, uint64_t out_fd,
                                   uint64_t out_off_addr, uint64_t len, uint64_t flags) {
    guest_fd *in = fd_of(e, in_fd), *out = fd_of(e, out_fd);
    if (flags) return -EINVAL;
    if (!in || !out || !out->writable) return -EBADF;
    loff_t off[2] = {0, 0};
    if (in_off_addr && guest_get(e, in_off_addr, &off[0], sizeof off[0])) return -EFAULT;
    if (out_off_addr && guest_get(e, out_off_addr, &off[1], sizeof off[1])) return -EFAULT;
    size_t n = len < MAX_IO ? (size_t)len : MAX_IO;
    if (out->host == STDOUT_FILENO || out->host == STDERR_FILENO) progress_interrupt();
    shared_before_io(e, in->host);
    shared_before_io(e, out->host);
    ssize_t copied =
        copy_file_range(in->host, in_off_addr ? &off[0] : NULL, out->host, out_off_addr ? &off[1] : NULL, n, 0);
    if (copied < 0) return -errno;
    if (copied > 0) shared_after_write(e, out->host);
    if ((in_off_addr && guest_put(e, in_off_addr, &off[0], sizeof off[0])) ||
        (out_off_addr && guest_put(e, out_off_addr, &off[1], sizeof off[1])))
        return -EFAULT;
    return copied;
}

/* the guest pipe `g` is an end of whose bytes cyclescope keeps (for a SimPoint copy): one
 * the process alone holds, not a socket; NULL for any other */
static guest_pipe *pipe_with_copy(emu_t *e, const guest_fd *g) {
    guest_pipe *p = pipe_of(e, g);
    return p && !p->socket && !p->cross_process ? p : NULL;
}

/* splice(2) and tee(2) moved (copied: tee) `moved` bytes between the host files: the copies of
 * the guest's pipes follow. `in_bytes`: what left `in`'s pipe (its copy's first bytes), or
 * NULL; `in_at`: for a regular file `in`, the offset the bytes were read at (-1: unknown). */
static void pipes_after_splice(emu_t *e, guest_fd *in, guest_fd *out, size_t moved, bool consumed, int64_t in_at) {
    guest_pipe *pin = pipe_with_copy(e, in), *pout = pipe_with_copy(e, out);
    uint8_t *bytes = NULL;
    if (pout && pin) bytes = pin->data; /* the copy's first bytes went over */
    else if (pout && in_at >= 0) {
        bytes = cs_malloc(moved);
        if (pread(in->host, bytes, moved, in_at) != (ssize_t)moved) free(bytes), bytes = NULL;
    }
    if (pout && bytes) {
        if (pout->len + moved > pout->cap) {
            pout->cap = (pout->len + moved) * 2;
            pout->data = cs_realloc(pout->data, pout->cap);
            if (pin == pout) bytes = pin->data; /* moved with it (tee of a pipe to itself is EINVAL) */
        }
        memcpy(pout->data + pout->len, bytes, moved);
        pout->len += moved;
    } else if (pout) pout->copy_lost = true; /* from a socket, or a pipe another process holds: not known */
    if (pout && bytes && !pin) free(bytes);
    if (pin && consumed) {
        memmove(pin->data, pin->data + moved, pin->len - moved);
        pin->len -= moved;
    }
    emu_thread_pipe_changed(e); /* data for a reader, room for a writer that waits */
}

/* A blocking splice or tee found its pipe empty (`reading`) or full: as a read or write of
 * the pipe waits (1: ready now, try again; 0: this thread waits, the call runs again; else
 * the result, -EDEADLK after the one-line end). */
static int64_t splice_wait(emu_t *e, guest_fd *g, bool reading) {
    guest_pipe *p = pipe_of(e, g);
    if (p && p->socket) return socket_wait(e, g, reading, true);
    if (!p || p->cross_process) /* another process or the outside: this thread waits for it */
        return host_wait_ready(e, g->host, reading ? POLLIN : POLLOUT,
                               reading ? "splicing from an empty pipe" : "splicing to a full pipe");
    return wait_for_another_thread(e, reading ? "splicing from an empty pipe" : "splicing to a full pipe",
                                   reading ? "splice from an empty pipe" : "splice to a full pipe",
                                   reading ? "only the guest itself can write it"
                                           : "only the guest itself can read it");
}

/* splice(in, off_in, out, off_out, len, flags) and tee(in, out, len, flags): the host's, on
 * the host descriptors, with Linux's answers (EINVAL when neither is a pipe, ESPIPE for an
 * offset on a pipe, EBADF for an end not open for reading or writing); the write side must be
 * a descriptor the sandbox let the guest write. A pipe the guest made is non-blocking on the
 * host: a blocking call waits as a read or write of it does. */
static int64_t sys_splice(emu_t *e, bool tee_only, uint64_t in_fd, uint64_t in_off_addr, uint64_t out_fd,
                          uint64_t out_off_addr, uint64_t len, uint64_t flags) {
    guest_fd *in = fd_of(e, in_fd), *out = fd_of(e, out_fd);
    if (!in || !out || !out->writable) return -EBADF;
    if (flags & ~(uint64_t)(SPLICE_F_MOVE | SPLICE_F_NONBLOCK | SPLICE_F_MORE | SPLICE_F_GIFT)) return -EINVAL;
    loff_t off[2] = {0, 0};
    if (in_off_addr && guest_get(e, in_off_addr, &off[0], sizeof off[0])) return -EFAULT;
    if (out_off_addr && guest_get(e, out_off_addr, &off[1], sizeof off[1])) return -EFAULT;
    size_t n = len < MAX_IO ? (size_t)len : MAX_IO;
    bool nonblock = (flags & SPLICE_F_NONBLOCK) != 0;
    if (out->host == STDOUT_FILENO || out->host == STDERR_FILENO) progress_interrupt();
    ssize_t moved;
    for (;;) {
        if (pipe_with_copy(e, out) && !pipe_has_end(e, out->pipe, false)) errno = EPIPE, moved = -1; /* as sys_write */
        else {
            shared_before_io(e, in->host);
            shared_before_io(e, out->host);
            int64_t in_at = in_off_addr ? off[0] : tee_only ? -1 : lseek(in->host, 0, SEEK_CUR);
            moved = tee_only ? tee(in->host, out->host, n, (unsigned)flags | SPLICE_F_NONBLOCK)
                             : splice(in->host, in_off_addr ? &off[0] : NULL, out->host, out_off_addr ? &off[1] : NULL,
                                      n, (unsigned)flags | SPLICE_F_NONBLOCK);
            if (moved > 0) {
                shared_after_write(e, out->host);
                pipes_after_splice(e, in, out, (size_t)moved, !tee_only, in_at);
            }
        }
        if (moved >= 0) break;
        if (errno == EPIPE) {
            emu_signal_send(e, SIGPIPE, "sent for a splice to a pipe without a reader");
            return -EPIPE;
        }
        if (errno != EAGAIN) return -errno;
        /* which end waits: an empty pipe to read, else the one to write; the guest's flag */
        int queued = 0;
        bool reading = pipe_of(e, in) && ioctl(in->host, FIONREAD, &queued) == 0 && queued == 0;
        guest_fd *waits_on = reading ? in : out;
        if (nonblock || (pipe_of(e, waits_on) && waits_on->nonblock)) return -EAGAIN;
        int64_t waited = splice_wait(e, waits_on, reading);
        if (waited != 1) return waited;
    }
    if ((in_off_addr && guest_put(e, in_off_addr, &off[0], sizeof off[0])) ||
        (out_off_addr && guest_put(e, out_off_addr, &off[1], sizeof off[1])))
        return -EFAULT;
    return moved;
}

static int64_t sys_iov(emu_t *e, uint64_t fd, uint64_t iov, uint64_t cnt, bool writing) {
    if (cnt > 1024) return -EINVAL;
    if (socket_of(e, fd_of(e, fd))) { /* one message for a datagram socket: sendmsg, recvmsg */
        guest_msghdr gm = {.iov = iov, .iovlen = cnt};
        uint64_t a[3] = {fd, 0, 0};
        return socket_msg(e, writing ? SYS_sendmsg : SYS_recvmsg, a, gm);
    }
    /* writev to a pipe writes all of it, as Linux's pipe_write of the whole iov_iter: a wait
     * for room in a later buffer is this thread's alone, like write(2)'s (before 2026-11-29 it
     * held every thread on the host, or gave a short count for the guest's own pipe): the count
     * the call wrote before it waited stays in the thread's io_partial, and the call, run again,
     * skips that many bytes of its buffers */
    guest_pipe *wp = writing ? pipe_of(e, fd_of(e, fd)) : NULL;
    bool resumable = wp && !wp->socket;
    uint64_t skip = resumable ? emu_thread_io_partial(e) : 0;
    int64_t total = 0;
    for (uint64_t i = 0; i < cnt; i++) {
        uint64_t v[2];
        if (guest_get(e, iov + 16 * i, v, sizeof v) != 0) return -EFAULT;
        if (v[1] == 0) continue;
        if (skip >= v[1]) { /* written before the wait */
            skip -= v[1];
            total += (int64_t)v[1];
            continue;
        }
        if (resumable) emu_thread_set_io_partial(e, skip); /* sys_write goes on after these */
        skip = 0;
        int64_t r = writing ? sys_write(e, fd, v[0], v[1], -1, resumable || total == 0)
                            : sys_read(e, fd, v[0], v[1], -1, total == 0);
        if (resumable && e->syscall_retry) { /* it waits: what the whole call wrote so far */
            emu_thread_set_io_partial(e, (uint64_t)total + emu_thread_io_partial(e));
            return 0;
        }
        if (e->syscall_retry) return 0; /* the first buffer waits: the call runs again */
        if (r < 0) return total ? total : r;
        total += r;
        if ((uint64_t)r < v[1]) break;
    }
    return total;
}

static int64_t sys_readlinkat(emu_t *e, int64_t dirfd, uint64_t path_addr, uint64_t buf, uint64_t size) {
    char path[PATH_MAX], target[PATH_MAX];
    int64_t bad_path = get_path(e, path_addr, path);
    if (bad_path) return bad_path;
    ssize_t n;
    const char *entry = proc_own_entry(e, path, NULL); /* exe and cwd, by any name of the guest's /proc dir */
    if (entry && !strcmp(entry, "exe")) {
        n = (ssize_t)strlen(e->exe_seen);
        memcpy(target, e->exe_seen, (size_t)n);
    } else if (e->cwd_fd >= 0 && entry && !strcmp(entry, "cwd")) {
        n = guest_cwd_path(e, target, sizeof target); /* the guest's working directory, not cyclescope's */
        if (n < 0) return n;
    } else if (!strcmp(path, "/proc/self") || !strcmp(path, "/proc/thread-self")) {
        /* the guest's pid, not cyclescope's host pid: realpath("/proc/self/exe") walks this link,
         * and a host pid's digits made the guest's instruction count depend on the host (Linux:
         * "PID" and "PID/task/TID") */
        n = path[6] == 's' ? snprintf(target, sizeof target, "%d", e->vpid)
                           : snprintf(target, sizeof target, "%d/task/%d", e->vpid, (int)emu_thread_tid(e));
    } else {
        int hdir;
        if (!host_dirfd(e, dirfd, &hdir)) return -EBADF;
        char under[PATH_MAX];
        n = readlinkat(hdir, emu_sysroot_path(e, path, under, sizeof under), target, sizeof target);
        if (n < 0) return -errno;
    }
    if ((uint64_t)n > size) n = (ssize_t)size;
    return guest_put(e, buf, target, (size_t)n) ? -EFAULT : n;
}

/* --env-fixed: a standard stream the guest inherited looks the same wherever it leads (a pipe),
 * so the cycles do not depend on whether stdout is a terminal, /dev/null, a file or a pipe:
 * glibc asks isatty of a character device only, which cost ackermann 75 instructions and
 * 1241 cycles, and put whatif --verify (its children write to a file) 1.8% off at the baseline
 * of an rpstacks run made with stdout on /dev/null. */
static bool fixed_stream(const emu_t *e, const guest_fd *g) {
    return (e->opt.env_fixed || e->opt.streams_fixed) && g->host >= 0 && g->host <= 2 && !g->path;
}

static void fixed_stream_stat(struct stat *st) {
    memset(st, 0, sizeof *st);
    st->st_mode = S_IFIFO | 0600;
    st->st_nlink = 1;
    st->st_blksize = 4096;
}

static int host_fstat(const emu_t *e, const guest_fd *g, struct stat *st) {
    if (!fixed_stream(e, g)) return fstat(g->host, st);
    fixed_stream_stat(st);
    return 0;
}

static int64_t sys_fstatat(emu_t *e, int64_t dirfd, uint64_t path_addr, uint64_t buf, int64_t flags) {
    char path[PATH_MAX];
    int64_t bad_path = get_path(e, path_addr, path);
    if (bad_path) return bad_path;
    struct stat st;
    int r;
    if (path[0] == 0 && (flags & AT_EMPTY_PATH)) {
        guest_fd *g = fd_of(e, (uint64_t)dirfd);
        if (!g) return -EBADF;
        r = host_fstat(e, g, &st);
    } else {
        int hdir;
        char under[PATH_MAX];
        if (!host_dirfd(e, dirfd, &hdir)) return -EBADF;
        r = fstatat(hdir, emu_sysroot_path(e, path, under, sizeof under), &st,
                    (int)flags & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH));
    }
    if (r < 0) return -errno;
    return put_stat(e, buf, &st);
}

/* statfs and fstatfs: the host's file system, as qemu passes it through (gnulib's fts in
 * find and grep -r asks what file system a directory is on); a standard stream under
 * --env-fixed is on Linux's pipefs, like the pipe fstat shows. The guest's struct statfs
 * (asm-generic, 64-bit): type, bsize, blocks, bfree, bavail, files, ffree as 8-byte words,
 * fsid as two 4-byte ints, then namelen, frsize, flags and four spare words: 120 bytes. */
static int64_t put_statfs(emu_t *e, uint64_t buf, const struct statfs *s) {
    uint64_t words[15] = {(uint64_t)s->f_type,
                          (uint64_t)s->f_bsize,
                          s->f_blocks,
                          s->f_bfree,
                          s->f_bavail,
                          s->f_files,
                          s->f_ffree,
                          0,
                          (uint64_t)s->f_namelen,
                          (uint64_t)s->f_frsize,
                          (uint64_t)s->f_flags};
    memcpy(&words[7], &s->f_fsid, sizeof words[7]);
    return guest_put(e, buf, words, sizeof words);
}

static int64_t sys_statfs(emu_t *e, uint64_t path_addr, uint64_t buf) {
    char path[PATH_MAX];
    int64_t bad_path = get_path(e, path_addr, path);
    if (bad_path) return bad_path;
    int hdir;
    host_dirfd(e, AT_FDCWD, &hdir);
    int fd = openat(hdir, path, O_PATH | O_CLOEXEC);
    if (fd < 0) return -errno;
    struct statfs s;
    int r = fstatfs(fd, &s);
    int err = errno;
    close(fd);
    return r < 0 ? -err : put_statfs(e, buf, &s);
}

static int64_t sys_fstatfs(emu_t *e, uint64_t fd, uint64_t buf) {
    guest_fd *g = fd_of(e, fd);
    if (!g) return -EBADF;
    struct statfs s;
    if (fixed_stream(e, g)) {
        memset(&s, 0, sizeof s);
        s.f_type = 0x50495045; /* PIPEFS_MAGIC */
        s.f_bsize = s.f_frsize = 4096;
        s.f_namelen = 255;
        s.f_flags = 0x20; /* ST_VALID */
    } else if (fstatfs(g->host, &s) < 0) {
        return -errno;
    }
    return put_statfs(e, buf, &s);
}

static int64_t sys_statx(emu_t *e, int64_t dirfd, uint64_t path_addr, int64_t flags, uint64_t mask, uint64_t buf) {
    char path[PATH_MAX];
    int64_t bad_path = get_path(e, path_addr, path);
    if (bad_path) return bad_path;
    int hdir;
    if (path[0] == 0 && (flags & AT_EMPTY_PATH)) {
        guest_fd *g = fd_of(e, (uint64_t)dirfd);
        if (!g) return -EBADF;
        if (fixed_stream(e, g)) {
            struct statx stx;
            memset(&stx, 0, sizeof stx);
            stx.stx_mask = STATX_BASIC_STATS;
            stx.stx_mode = S_IFIFO | 0600;
            stx.stx_nlink = 1;
            stx.stx_blksize = 4096;
            return guest_put(e, buf, &stx, sizeof stx);
        }
        hdir = g->host;
    } else if (!host_dirfd(e, dirfd, &hdir)) {
        return -EBADF;
    }
    struct statx stx; /* fixed-width fields: the same layout on every architecture */
    char under[PATH_MAX];
    if (statx(hdir, emu_sysroot_path(e, path, under, sizeof under), (int)flags, (unsigned)mask, &stx) < 0)
        return -errno;
    return guest_put(e, buf, &stx, sizeof stx);
}

/* ---- memory ---- */

#define G_PROT_READ           1
#define G_PROT_WRITE          2
#define G_PROT_EXEC           4
#define G_MAP_SHARED          0x01
#define G_MAP_FIXED           0x10
#define G_MAP_ANONYMOUS       0x20
#define G_MAP_FIXED_NOREPLACE 0x100000
/* Linux refuses MAP_FIXED below vm.mmap_min_addr (64 KiB on Debian and most
 * distributions) with EPERM, so page 0 is never mapped. */
#define MMAP_MIN_ADDR         0x10000ull

static uint8_t guest_prot(int64_t prot) {
    return (uint8_t)(((prot & G_PROT_READ) ? PROT_R : 0) | ((prot & G_PROT_WRITE) ? PROT_W : 0) |
                     ((prot & G_PROT_EXEC) ? PROT_X : 0));
}

static int64_t sys_brk(emu_t *e, uint64_t want) {
    if (want < e->brk_start || want > e->brk_limit) return (int64_t)e->brk_cur;
    uint64_t old_end = (e->brk_cur + PAGE_MASK) & ~PAGE_MASK, new_end = (want + PAGE_MASK) & ~PAGE_MASK;
    if (new_end > old_end) {
        if (!mem_is_free(&e->m, old_end, new_end - old_end)) return (int64_t)e->brk_cur;
        if (!mem_map(&e->m, old_end, new_end - old_end, PROT_R | PROT_W)) return (int64_t)e->brk_cur;
    } else if (new_end < old_end) {
        mem_unmap(&e->m, new_end, old_end - new_end); /* regrowth must see zeros again */
    }
    e->brk_cur = want;
    return (int64_t)want;
}

/* ---- shared file mappings (see shared_map in emu_internal.h) ---- */

/* Write back [from, to) of s: the runs of bytes that differ from the snapshot
 * (bytes past it count as zeros), cut at the file's current end, as Linux
 * drops what a mapping holds past the end of its file. The snapshot follows.
 * Returns 0 or -errno of the first failed write. */
static int64_t shared_sync(emu_t *e, shared_map *s, uint64_t from, uint64_t to) {
    if (s->fd < 0) return 0;
    if (from < s->start) from = s->start;
    if (to > s->start + s->len) to = s->start + s->len;
    struct stat st;
    if (from >= to || fstat(s->fd, &st) < 0) return from >= to ? 0 : -errno;
    uint64_t file_end = (uint64_t)st.st_size; /* file offsets past it are not written */
    int64_t err = 0;
    static const uint8_t zero_page[PAGE_SIZE];
    for (uint64_t pg = from & ~PAGE_MASK; pg < to; pg += PAGE_SIZE) {
        const uint8_t *now = mem_peek(&e->m, pg); /* NULL: never touched, zeros */
        if (!now) now = zero_page;
        uint64_t rel = pg - s->start;
        for (uint64_t i = 0; i < PAGE_SIZE;) {
            uint64_t k = rel + i;
            uint8_t was = k < s->snap_len ? s->snapshot[k] : 0, is = now[i];
            if (was == is) {
                i++;
                continue;
            }
            uint64_t run = i; /* a run of changed bytes */
            while (run < PAGE_SIZE && now[run] != (rel + run < s->snap_len ? s->snapshot[rel + run] : 0)) run++;
            uint64_t foff = s->off + k, n = run - i;
            if (foff < file_end) {
                if (n > file_end - foff) n = file_end - foff;
                if (pwrite(s->fd, now + i, n, (off_t)foff) != (ssize_t)n && !err) err = errno ? -errno : -EIO;
                else if (k < s->snap_len) memcpy(s->snapshot + k, now + i, k + n <= s->snap_len ? n : s->snap_len - k);
            }
            i = run;
        }
    }
    return err;
}

static void shared_warn(emu_t *e, int64_t err) {
    if (err && !e->opt.quiet)
        fprintf(stderr, "cyclescope: %s: warning: writing a shared mapping back to its file failed: %s\n", e->path,
                strerror((int)-err));
}

/* Write back and forget the shared mappings' parts in [start, start+len)
 * (munmap, a mapping over them, the end of the run); what is left of a
 * mapping on either side stays. */
static void shared_release(emu_t *e, uint64_t start, uint64_t len) {
    uint64_t end = start + len;
    for (size_t i = 0; i < e->shared_count;) {
        shared_map *s = &e->shared[i];
        uint64_t s_end = s->start + s->len;
        if (s_end <= start || s->start >= end) {
            i++;
            continue;
        }
        shared_warn(e, shared_sync(e, s, start, end));
        if (s->start < start && s_end > end) { /* a hole in the middle: split in two */
            if (e->shared_count == e->shared_cap) {
                e->shared_cap = e->shared_cap ? 2 * e->shared_cap : 8;
                e->shared = cs_realloc(e->shared, e->shared_cap * sizeof *e->shared);
                s = &e->shared[i];
            }
            shared_map tail = *s;
            tail.start = end, tail.len = s_end - end, tail.off = s->off + (end - s->start);
            uint64_t cut = end - s->start;
            tail.snap_len = s->snap_len > cut ? s->snap_len - cut : 0;
            tail.snapshot = tail.snap_len ? cs_malloc(tail.snap_len) : NULL;
            if (tail.snap_len) memcpy(tail.snapshot, s->snapshot + cut, tail.snap_len);
            tail.fd = s->fd >= 0 ? dup(s->fd) : -1;
            e->m.mapped += tail.snap_len; /* the copy is charged like the mapping */
            s->len = start - s->start;
            e->shared[e->shared_count++] = tail;
            i++;
            continue;
        }
        if (s->start < start) { /* keep the head */
            uint64_t keep = start - s->start;
            s->len = keep;
            continue;
        }
        if (s_end > end) { /* keep the tail */
            uint64_t cut = end - s->start;
            uint64_t left = s->snap_len > cut ? s->snap_len - cut : 0;
            if (left) memmove(s->snapshot, s->snapshot + cut, left);
            e->m.mapped -= s->snap_len - left;
            s->snap_len = left;
            s->start = end, s->len = s_end - end, s->off += cut;
            i++;
            continue;
        }
        /* all of it */
        e->m.mapped -= s->snap_len;
        free(s->snapshot);
        if (s->fd >= 0) close(s->fd);
        e->shared[i] = e->shared[--e->shared_count];
    }
}

void emu_shared_release_all(emu_t *e) {
    shared_release(e, 0, UINT64_MAX / 2);
    free(e->shared);
    e->shared = NULL;
    e->shared_count = e->shared_cap = 0;
}

/* The shared mappings of the file behind `host`, as one process sees them
 * under Linux (one page cache): before read(2)/write(2) on it the mappings'
 * changes are written to the file; after a write the mappings are read again
 * from it. Costs a comparison of every page of those mappings per call. */
static bool same_file(const shared_map *s, const struct stat *st) {
    return s->dev == (uint64_t)st->st_dev && s->ino == (uint64_t)st->st_ino;
}

static void shared_before_io(emu_t *e, int host) {
    struct stat st;
    if (!e->shared_count || fstat(host, &st) < 0) return;
    for (size_t i = 0; i < e->shared_count; i++)
        if (same_file(&e->shared[i], &st)) shared_warn(e, shared_sync(e, &e->shared[i], 0, UINT64_MAX / 2));
}

static void shared_after_write(emu_t *e, int host) {
    struct stat st;
    if (!e->shared_count || fstat(host, &st) < 0) return;
    uint8_t *buf = cs_malloc(PAGE_SIZE);
    for (size_t i = 0; i < e->shared_count; i++) {
        shared_map *s = &e->shared[i];
        if (!same_file(s, &st)) continue;
        uint64_t size = (uint64_t)st.st_size, want = size > s->off ? size - s->off : 0;
        if (want > s->len) want = s->len;
        if (want > s->snap_len) { /* the file grew under the mapping */
            s->snapshot = cs_realloc(s->snapshot, want);
            memset(s->snapshot + s->snap_len, 0, want - s->snap_len);
            e->m.mapped += want - s->snap_len;
            s->snap_len = want;
        }
        for (uint64_t done = 0; done < want; done += PAGE_SIZE) {
            size_t n = want - done < PAGE_SIZE ? (size_t)(want - done) : PAGE_SIZE;
            ssize_t got = pread(host, buf, n, (off_t)(s->off + done));
            if (got <= 0) break;
            const uint8_t *now = mem_peek(&e->m, s->start + done);
            bool differs = now ? memcmp(now, buf, (size_t)got) != 0 : false;
            for (ssize_t k = 0; !now && k < got && !differs; k++) differs = buf[k] != 0;
            if (differs) mem_copy_in(&e->m, s->start + done, buf, (size_t)got);
            memcpy(s->snapshot + done, buf, (size_t)got);
        }
    }
    free(buf);
}

/* Does [start, start+len) overlap a shared mapping whose file was not open
 * for writing? (mprotect may not add PROT_WRITE there: EACCES.) */
static bool shared_read_only_overlap(const emu_t *e, uint64_t start, uint64_t len) {
    for (size_t i = 0; i < e->shared_count; i++) {
        const shared_map *s = &e->shared[i];
        if (s->fd < 0 && s->start < start + len && start < s->start + s->len) return true;
    }
    return false;
}

/* mincore(addr, len, vec): every mapped page is resident (the guest's memory is a copy in
 * the host's, never paged out); ENOMEM when part of the range is not mapped, which is what
 * gnulib's c-stack (GNU grep, diff, cmp) asks it at start-up to find the stack's extent. */
static int64_t sys_mincore(emu_t *e, uint64_t addr, uint64_t len, uint64_t vec) {
    if (addr & PAGE_MASK) return -EINVAL;
    uint64_t size = (len + PAGE_MASK) & ~PAGE_MASK;
    if (size < len || size > GUEST_TASK_SIZE || addr > GUEST_TASK_SIZE - size) return -ENOMEM;
    if (size && !mem_is_mapped(&e->m, addr, size)) return -ENOMEM;
    uint8_t resident[256];
    memset(resident, 1, sizeof resident);
    for (uint64_t done = 0, pages = size / PAGE_SIZE; done < pages;) {
        uint64_t n = pages - done < sizeof resident ? pages - done : sizeof resident;
        if (guest_put(e, vec + done, resident, n)) return -EFAULT;
        done += n;
    }
    return 0;
}

static int64_t sys_msync(emu_t *e, uint64_t addr, uint64_t len, int64_t flags) {
    enum { MS_ASYNC_ = 1, MS_INVALIDATE_ = 2, MS_SYNC_ = 4 };
    if ((addr & PAGE_MASK) || (flags & ~(int64_t)(MS_ASYNC_ | MS_INVALIDATE_ | MS_SYNC_)) ||
        ((flags & MS_ASYNC_) && (flags & MS_SYNC_)))
        return -EINVAL;
    uint64_t size = (len + PAGE_MASK) & ~PAGE_MASK;
    if (size < len || size > GUEST_TASK_SIZE || addr > GUEST_TASK_SIZE - size) return -ENOMEM;
    if (size && !mem_is_mapped(&e->m, addr, size)) return -ENOMEM;
    int64_t err = 0;
    for (size_t i = 0; i < e->shared_count; i++) {
        int64_t r = shared_sync(e, &e->shared[i], addr, addr + size);
        if (r && !err) err = r;
    }
    return err;
}

/* Zero [start, start+len) for MADV_DONTNEED but for the shared file
 * mappings in it: those are written back and kept, as the pages Linux drops
 * there come back from the file with what was written. */
static bool madvise_dontneed(emu_t *e, uint64_t start, uint64_t len) {
    uint64_t end = start + len, at = start;
    bool ok = true;
    while (at < end) {
        const shared_map *next = NULL; /* the first shared mapping at or after `at` */
        for (size_t i = 0; i < e->shared_count; i++) {
            const shared_map *s = &e->shared[i];
            if (s->start + s->len > at && s->start < end && (!next || s->start < next->start)) next = s;
        }
        uint64_t gap_end = next ? (next->start > at ? next->start : at) : end;
        if (gap_end > at && !mem_zero_range(&e->m, at, gap_end - at)) ok = false;
        if (!next) break;
        uint64_t s_end = next->start + next->len < end ? next->start + next->len : end;
        shared_warn(e, shared_sync(e, (shared_map *)next, gap_end, s_end));
        at = s_end;
    }
    return ok;
}

static int64_t sys_mmap(emu_t *e, uint64_t addr, uint64_t len, int64_t prot, int64_t flags, int64_t fd, uint64_t off) {
    if (len == 0 || (off & PAGE_MASK)) return -EINVAL;
    uint64_t size = (len + PAGE_MASK) & ~PAGE_MASK;
    if (size < len || size > (1ull << 40)) return -ENOMEM;
    guest_fd *g = NULL;
    bool shared = false, shared_writable = false;
    if (!(flags & G_MAP_ANONYMOUS)) {
        g = fd_of(e, (uint64_t)fd);
        if (!g) return -EBADF;
        int fl = fcntl(g->host, F_GETFL);
        struct stat st;
        if (fl < 0 || fstat(g->host, &st) < 0) return -EBADF;
        if ((fl & O_ACCMODE) == O_WRONLY) return -EACCES; /* a file mapping needs read access */
        /* Shared mappings of regular files write back; of anything else
         * (/dev/zero) they behave as private memory in one process. */
        shared = (flags & G_MAP_SHARED) && S_ISREG(st.st_mode);
        /* Linux: EACCES unless the descriptor is open read-write (O_APPEND
         * does not matter); the sandbox's own notion too (stdin opened <> by
         * the shell is not the guest's to write) */
        shared_writable = shared && (fl & O_ACCMODE) == O_RDWR && g->writable;
        if (shared && (prot & G_PROT_WRITE) && !shared_writable) return -EACCES;
    }
    uint64_t at;
    if (flags & (G_MAP_FIXED | G_MAP_FIXED_NOREPLACE)) {
        if (addr & PAGE_MASK) return -EINVAL;
        if (addr < MMAP_MIN_ADDR) return -EPERM; /* as Linux below vm.mmap_min_addr */
        if ((flags & G_MAP_FIXED_NOREPLACE) && !mem_is_free(&e->m, addr, size)) return -EEXIST;
        at = addr;
    } else if (addr >= MMAP_MIN_ADDR && !(addr & PAGE_MASK) && addr + size <= e->mmap_top &&
               mem_is_free(&e->m, addr, size)) {
        at = addr;
    } else {
        at = mem_find_free(&e->m, size, e->mmap_top);
        if (!at || at < e->brk_limit) return -ENOMEM;
    }
    shared_release(e, at, size); /* a mapping replaced by MAP_FIXED is written back first */
    /* MAP_SHARED memory, anonymous or of a file, is host shared memory, so that the processes
     * of the guest's tree forked from here share it as on Linux: a child's writes are in the
     * parent's memory at once (a file's reach the file at the parent's next write-back too),
     * also when SIGKILL, which no handler sees, ends the child (before 2026-11-29 each process
     * had a private copy: the parent never saw a child's writes to anonymous shared memory) */
    bool host_shared = (flags & G_MAP_SHARED) && ((flags & G_MAP_ANONYMOUS) || shared);
    if (!(host_shared ? mem_map_shared : mem_map)(&e->m, at, size, guest_prot(prot))) return -ENOMEM;
    shared_map sm = {.start = at, .len = size, .off = off, .fd = -1};
    if (shared) {
        struct stat st;
        if (fstat(g->host, &st) == 0) sm.dev = (uint64_t)st.st_dev, sm.ino = (uint64_t)st.st_ino;
    }
    if (shared_writable) {
        /* the copy that finds what the guest changed costs like the mapping */
        struct stat st;
        uint64_t file_size = fstat(g->host, &st) == 0 ? (uint64_t)st.st_size : 0;
        sm.snap_len = file_size > off ? (file_size - off < size ? file_size - off : size) : 0;
        if (sm.snap_len > e->m.map_limit - e->m.mapped) {
            mem_unmap(&e->m, at, size);
            return -ENOMEM;
        }
        sm.snapshot = sm.snap_len ? cs_calloc(1, sm.snap_len) : NULL;
        e->m.mapped += sm.snap_len;
        sm.fd = dup(g->host); /* the mapping outlives the guest's descriptor */
        if (sm.fd < 0) {
            int err = errno;
            free(sm.snapshot);
            e->m.mapped -= sm.snap_len;
            mem_unmap(&e->m, at, size);
            return -err;
        }
    }
    if (g) { /* a copy of the file's bytes, zeros past its end */
        uint8_t *buf = cs_malloc(PAGE_SIZE);
        for (uint64_t done = 0; done < size; done += PAGE_SIZE) {
            ssize_t n = pread(g->host, buf, PAGE_SIZE, (off_t)(off + done));
            if (n <= 0) break;
            if (done < sm.snap_len)
                memcpy(sm.snapshot + done, buf, (size_t)n < sm.snap_len - done ? (size_t)n : sm.snap_len - done);
            bool zeros = true; /* an untouched page reads as zeros already: keep it unallocated */
            for (ssize_t i = 0; i < n && zeros; i++) zeros = buf[i] == 0;
            if (!zeros && !mem_copy_in(&e->m, at + done, buf, (size_t)n)) break; /* past the host limit */
        }
        free(buf);
        if (prot & G_PROT_EXEC) { /* code of a file (a library ld.so or dlopen maps): the loadmap */
            char link[64], host[PATH_MAX];
            snprintf(link, sizeof link, "/proc/self/fd/%d", g->host);
            ssize_t n = readlink(link, host, sizeof host - 1);
            host[n > 0 ? n : 0] = '\0';
            emu_note_code_map(e, g->path ? g->path : host, n > 0 ? host : (g->path ? g->path : ""), at, at + size, off);
        }
    }
    if (shared) {
        if (e->shared_count == e->shared_cap) {
            e->shared_cap = e->shared_cap ? 2 * e->shared_cap : 8;
            e->shared = cs_realloc(e->shared, e->shared_cap * sizeof *e->shared);
        }
        e->shared[e->shared_count++] = sm;
    }
    return (int64_t)at;
}

static int64_t sys_mremap(emu_t *e, uint64_t old, uint64_t old_len, uint64_t new_len, int64_t flags) {
    /* MREMAP_MAYMOVE: 1 on every Linux architecture */
    if ((old & PAGE_MASK) || new_len == 0 || (flags & ~MREMAP_MAYMOVE)) return -EINVAL;
    old_len = (old_len + PAGE_MASK) & ~PAGE_MASK;
    new_len = (new_len + PAGE_MASK) & ~PAGE_MASK;
    page *first = mem_page(&e->m, old);
    if (!first) return -EFAULT;
    uint8_t prot = first->prot;
    if (new_len <= old_len) {
        shared_release(e, old + new_len, old_len - new_len);
        mem_unmap(&e->m, old + new_len, old_len - new_len);
        return (int64_t)old;
    }
    for (size_t i = 0; i < e->shared_count; i++)
        if (e->shared[i].start < old + old_len && old < e->shared[i].start + e->shared[i].len) {
            emu_fail(e, "unsupported: mremap growing or moving a shared file mapping at pc 0x%" PRIx64, e->h.pc);
            return -ENOMEM;
        }
    /* shared anonymous memory (a host shared mapping, mem_map_shared) keeps its size, as
     * Linux's shmem object: the pages it grew by are past its end, SIGBUS when touched (before
     * 2026-11-29 they were private zero pages, which no other process saw) */
    bool shared = first->shared;
    if (mem_is_free(&e->m, old + old_len, new_len - old_len)) {
        if (!mem_map(&e->m, old + old_len, new_len - old_len, prot)) return -ENOMEM;
        if (shared && !mem_mark_bus(&e->m, old + old_len, new_len - old_len)) {
            mem_unmap(&e->m, old + old_len, new_len - old_len);
            return -ENOMEM;
        }
        return (int64_t)old;
    }
    if (!(flags & MREMAP_MAYMOVE)) return -ENOMEM;
    /* the pages move, never copied: old and new at once would need both against the limit */
    if (!mem_is_mapped(&e->m, old, old_len)) return -EFAULT;
    uint64_t at = mem_find_free(&e->m, new_len, e->mmap_top);
    if (!at || !mem_move(&e->m, old, old_len, at, new_len, prot)) return -ENOMEM;
    /* (a page table the host limit refuses leaves that part of the tail private zeros) */
    if (shared) mem_mark_bus(&e->m, at + old_len, new_len - old_len);
    return (int64_t)at;
}

/* struct sysinfo of a 64-bit Linux (112 bytes). Deterministic: the memory
 * figures follow --guest-memory and the guest's own mappings, the uptime the
 * guest clock; one process, no load, no swap. */
static int64_t sys_sysinfo(emu_t *e, uint64_t addr) {
    uint8_t b[112] = {0};
    uint64_t uptime = emu_guest_time_ns(e, true) / 1000000000ull, total = e->m.map_limit;
    uint64_t free_ram = total > e->m.mapped ? total - e->m.mapped : 0;
    uint16_t procs = 1;
    uint32_t unit = 1;
    memcpy(b + 0, &uptime, 8);
    memcpy(b + 32, &total, 8);
    memcpy(b + 40, &free_ram, 8);
    memcpy(b + 80, &procs, 2);
    memcpy(b + 104, &unit, 4);
    return guest_put(e, addr, b, sizeof b);
}

/* ---- pipes, the working directory, renames, the alarm ---- */

/* a free entry of the guest's pipes (and socketpairs) */
static size_t new_pipe_slot(emu_t *e) {
    size_t index = 0;
    while (index < e->pipe_count && e->pipes[index].used) index++;
    if (index == e->pipe_count) {
        e->pipes = cs_realloc(e->pipes, cs_array_size(e->pipe_count + 1, sizeof *e->pipes));
        e->pipes[e->pipe_count++] = (guest_pipe){0};
    }
    return index;
}

/* the guest's ends of a pipe (`kind` -1) or socketpair (SOCK_STREAM, …) on host[0], host[1],
 * their numbers to fds_addr */
static int64_t install_pipe(emu_t *e, int host[2], uint64_t fds_addr, uint64_t flags, int kind) {
    size_t index = new_pipe_slot(e);
    guest_fd read_end = {.host = host[0], .pipe = (int)index + 1, .nonblock = (flags & O_NONBLOCK) != 0};
    guest_fd write_end = read_end;
    write_end.host = host[1];
    write_end.writable = true;
    read_end.writable = kind >= 0; /* a socket's ends both read and write */
    write_end.sock_b = kind >= 0;
    bool cloexec = (flags & O_CLOEXEC) != 0;
    int64_t r = fd_install_like(e, host[0], &read_end, 0, cloexec);
    if (r < 0) {
        close(host[1]);
        return r;
    }
    int64_t w = fd_install_like(e, host[1], &write_end, 0, cloexec);
    if (w < 0) {
        sys_close(e, (uint64_t)r);
        return w;
    }
    e->pipes[index].used = true;
    e->pipes[index].socket = kind >= 0;
    e->pipes[index].dgram = kind == SOCK_DGRAM || kind == SOCK_SEQPACKET; /* a message at a time */
    e->pipes[index].creator_vpid = e->vpid;
    int32_t out[2] = {(int32_t)r, (int32_t)w};
    if (guest_put(e, fds_addr, out, sizeof out)) {
        sys_close(e, (uint64_t)r);
        sys_close(e, (uint64_t)w);
        return -EFAULT;
    }
    return 0;
}

/* pipe2(fds, flags): a host pipe, non-blocking on the host whatever the guest asked, so a
 * read or write that would wait makes the thread wait for another (thread.c), or, with a
 * single thread, ends the run in one line (sys_read, sys_write) instead of hanging the host. */
static int64_t sys_pipe2(emu_t *e, uint64_t fds_addr, uint64_t flags) {
    if (flags & ~(uint64_t)(O_CLOEXEC | O_NONBLOCK | O_DIRECT)) return -EINVAL;
    int host[2];
    if (pipe2(host, O_NONBLOCK | O_CLOEXEC | ((int)flags & O_DIRECT)) < 0) return -errno;
    return install_pipe(e, host, fds_addr, flags, -1);
}

/* socketpair(AF_UNIX, SOCK_STREAM or SOCK_DGRAM or SOCK_SEQPACKET [| SOCK_NONBLOCK | SOCK_CLOEXEC], 0, fds): a
 * host socketpair, non-blocking on the host as a pipe is, served as the guest's pipes are
 * (a wait for another thread or process, or the run's end when only the guest itself could
 * make it ready). Any other domain: EAFNOSUPPORT, as Linux's socketpair of AF_INET. */
static int64_t sys_socketpair(emu_t *e, uint64_t domain, uint64_t type, uint64_t protocol, uint64_t fds_addr) {
    int kind = (int)type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
    if ((int)type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC | 0xf)) return -EINVAL;
    if (domain != AF_UNIX) return domain >= 46 /* AF_MAX */ ? -EAFNOSUPPORT : -EOPNOTSUPP;
    if (kind != SOCK_STREAM && kind != SOCK_DGRAM && kind != SOCK_SEQPACKET) return -ESOCKTNOSUPPORT;
    if (protocol != 0 && protocol != (uint64_t)PF_UNIX) return -EPROTONOSUPPORT;
    int host[2];
    if (socketpair(AF_UNIX, kind | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, host) < 0) return -errno;
    uint64_t flags = (type & SOCK_NONBLOCK ? O_NONBLOCK : 0) | (type & SOCK_CLOEXEC ? O_CLOEXEC : 0);
    return install_pipe(e, host, fds_addr, flags, kind);
}

void emu_adopt_socket(emu_t *e, int fd) {
    int domain = 0, type = 0;
    socklen_t len = sizeof domain;
    if (getsockopt(e->fds[fd].host, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0 || domain != AF_UNIX) return;
    len = sizeof type;
    if (getsockopt(e->fds[fd].host, SOL_SOCKET, SO_TYPE, &type, &len) < 0) return;
    size_t index = new_pipe_slot(e);
    e->pipes[index] = (guest_pipe){.used = true,
                                   .socket = true,
                                   .cross_process = true,
                                   .dgram = type != SOCK_STREAM,
                                   .creator_vpid = e->parent_vpid};
    e->fds[fd].pipe = (int)index + 1;
    e->fds[fd].writable = true;
}

/* a stream socketpair of a SimPoint copy: a fresh pair holding the bytes each end has to
 * read (peeked: the real run still reads them), its ends in place of the shared ones */
static void private_socket(emu_t *e, size_t index) {
    int fresh[2], ends[2] = {-1, -1};
    for (int f = 0; f < EMU_MAX_FDS; f++)
        if (e->fds[f].host >= 0 && e->fds[f].pipe == (int)index + 1) ends[e->fds[f].sock_b] = e->fds[f].host;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fresh) < 0) return;
    uint8_t *held = cs_malloc(MAX_IO);
    for (int side = 0; side < 2; side++) {
        ssize_t n = ends[side] >= 0 ? recv(ends[side], held, MAX_IO, MSG_PEEK | MSG_DONTWAIT) : 0;
        if (n > 0 && send(fresh[!side], held, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) != n) n = -1;
        if (n < 0 && errno != EAGAIN) ends[0] = ends[1] = -1; /* not copied: the ends stay shared */
    }
    free(held);
    for (int f = 0; f < EMU_MAX_FDS; f++)
        if (e->fds[f].host >= 0 && e->fds[f].pipe == (int)index + 1 && ends[e->fds[f].sock_b] >= 0)
            dup2(fresh[e->fds[f].sock_b], e->fds[f].host);
    close(fresh[0]);
    close(fresh[1]);
}

void emu_private_pipes(emu_t *e) {
    /* (called in a SimPoint copy of the run, emu_private_files): its MAP_SHARED memory too
     * becomes its own, else the copy timing a point would write into the run's memory */
    mem_unshare(&e->m);
    for (size_t i = 0; i < e->pipe_count; i++) {
        guest_pipe *p = &e->pipes[i];
        int fresh[2];
        if (p->used && p->socket && !p->dgram && !p->cross_process) private_socket(e, i);
        if (!p->used || p->socket || p->cross_process || p->copy_lost || pipe2(fresh, O_NONBLOCK | O_CLOEXEC) < 0)
            continue;
        if (p->len && write(fresh[1], p->data, p->len) != (ssize_t)p->len) { /* it held no more before */
            close(fresh[0]);
            close(fresh[1]);
            continue;
        }
        for (int f = 0; f < EMU_MAX_FDS; f++)
            if (e->fds[f].host >= 0 && e->fds[f].pipe == (int)i + 1)
                dup2(fresh[e->fds[f].writable], e->fds[f].host); /* keeps the host's close-on-exec off: ours */
        close(fresh[0]);
        close(fresh[1]);
    }
}

/* chdir/fchdir: the guest's working directory is a descriptor of its own (host_dirfd
 * resolves AT_FDCWD there); cyclescope's own stays. Write checks resolve from it too
 * (path_beneath), so a chdir changes what a relative path names, never where writes may go. */
static int64_t set_guest_cwd(emu_t *e, int dir) {
    struct stat st;
    if (fstat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
        close(dir);
        return -ENOTDIR;
    }
    if (faccessat(dir, ".", X_OK, 0) < 0) { /* search permission, as chdir(2) asks */
        int err = errno;
        close(dir);
        return -err;
    }
    if (e->cwd_fd >= 0) close(e->cwd_fd);
    e->cwd_fd = dir;
    return 0;
}

static int64_t sys_chdir(emu_t *e, uint64_t path_addr) {
    char path[PATH_MAX];
    int64_t bad_path = get_path(e, path_addr, path);
    if (bad_path) return bad_path;
    if (!path[0]) return -ENOENT;
    int hdir;
    host_dirfd(e, AT_FDCWD, &hdir);
    int dir = openat(hdir, path, O_PATH | O_DIRECTORY | O_CLOEXEC);
    return dir < 0 ? -errno : set_guest_cwd(e, dir);
}

static int64_t sys_fchdir(emu_t *e, uint64_t fd) {
    guest_fd *g = fd_of(e, fd);
    if (!g) return -EBADF;
    int dir = fcntl(g->host, F_DUPFD_CLOEXEC, 3);
    return dir < 0 ? -errno : set_guest_cwd(e, dir);
}

static int64_t sys_getcwd(emu_t *e, uint64_t buf, uint64_t size) {
    char cwd[PATH_MAX];
    if (e->cwd_fd < 0) {
        if (!getcwd(cwd, sizeof cwd)) return -errno;
    } else {
        struct stat st;
        ssize_t n = guest_cwd_path(e, cwd, sizeof cwd);
        if (n < 0) return n;
        if (fstat(e->cwd_fd, &st) == 0 && st.st_nlink == 0) return -ENOENT; /* removed, as Linux says */
    }
    size_t n = strlen(cwd) + 1;
    return n > size ? -ERANGE : guest_put(e, buf, cwd, n) ? -EFAULT : (int64_t)n;
}

/* What Linux answers a call that creates or removes a name when the path's last component
 * is no name: `/` (any number of slashes), `.` or `..`. The kernel checks this before any
 * permission, once the directory part is found, so the sandbox has nothing to refuse and
 * nothing is touched (rmdir("/") was EACCES, with the notice, where Linux says EBUSY). */
typedef struct {
    int root, dot, dotdot;
} not_a_name;
static const not_a_name RMDIR_NOT_A_NAME = {EBUSY, EINVAL, ENOTEMPTY}, UNLINK_NOT_A_NAME = {EISDIR, EISDIR, EISDIR},
                        CREATE_NOT_A_NAME = {EEXIST, EEXIST, EEXIST}, RENAME_NOT_A_NAME = {EBUSY, EBUSY, EBUSY},
                        LINK_OLD_NOT_A_NAME = {EPERM, EPERM, EPERM}; /* a directory: no hard link */
/* a last component as these calls keep it: a name, and a trailing slash */
#define LAST_MAX (NAME_MAX + 2)

/* 0 when the last component of `path` is a name; else -errno as `answers` says, or the errno
 * of finding the directory part ("missing/." is ENOENT, "file/.." ENOTDIR) */
static int64_t not_a_name_errno(int hdir, const char *path, const not_a_name *answers) {
    char dir[PATH_MAX];
    if ((size_t)snprintf(dir, sizeof dir, "%s", path) >= sizeof dir) return -ENAMETOOLONG;
    size_t len = strlen(dir);
    while (len > 0 && dir[len - 1] == '/') dir[--len] = 0;
    if (len == 0) return path[0] == '/' ? -answers->root : 0;
    char *slash = strrchr(dir, '/');
    const char *last = slash ? slash + 1 : dir;
    int err = strcmp(last, ".") == 0 ? answers->dot : strcmp(last, "..") == 0 ? answers->dotdot : 0;
    if (!err) return 0;
    if (slash) slash[slash == dir ? 1 : 0] = 0; /* the directory part: "/" for "/..", else up to the slash */
    struct stat st;
    if (fstatat(hdir, slash ? dir : ".", &st, 0) != 0) return -errno;
    return S_ISDIR(st.st_mode) ? -err : -ENOTDIR;
}

/* The directory holding a guest path that a call will change (rename, unlink, mkdir),
 * opened beneath --allow-write DIR by the rules of openat (docs/sandbox.md §1), and the
 * last component, which these calls never follow as a link; a trailing slash stays on it
 * ("name/"), so that the call itself gives Linux's answer (ENOTDIR for a file, EISDIR...).
 * Returns the host descriptor or -errno (-EACCES, with the one-line notice, when it lies
 * outside; `answers` when the last component is `/`, `.` or `..`). */
static int64_t parent_beneath(emu_t *e, int64_t dirfd, uint64_t path_addr, char *last, size_t last_size,
                              const not_a_name *answers) {
    char path[PATH_MAX], rel[PATH_MAX * 2];
    int hdir;
    int64_t bad_path = get_path(e, path_addr, path);
    if (bad_path) return bad_path;
    if (!host_dirfd(e, dirfd, &hdir)) return -EBADF;
    int64_t r = !path[0] ? -ENOENT : not_a_name_errno(hdir, path, answers);
    if (r) return r;
    r = e->allow_fd < 0 ? refused_write(hdir, path) : path_beneath(e, hdir, path, rel, sizeof rel);
    if (r == 0) {
        size_t end = strlen(rel);
        while (end > 1 && rel[end - 1] == '/') end--; /* the name is before a trailing slash */
        char *slash = memrchr(rel, '/', end);
        const char *name = slash ? slash + 1 : rel;
        size_t name_len = strlen(name);
        if (name_len >= last_size) return -ENAMETOOLONG;
        memcpy(last, name, name_len + 1);
        if (slash) *slash = 0;
        r = cs_open_beneath(e->allow_fd, slash ? rel : ".", O_PATH | O_DIRECTORY, 0, e->beneath_walk);
        if (r == -EXDEV) r = -EACCES;
    }
    if (r == -EACCES) deny_notice(e, path);
    return r;
}

/* The parent directories of two names beneath --allow-write DIR (rename, link), each open
 * and its last component in *_last; on an error nothing stays open. */
static int64_t two_parents_beneath(emu_t *e, int64_t olddir, uint64_t oldpath, char *old_last, int64_t newdir,
                                   uint64_t newpath, char *new_last, int64_t *to, const not_a_name *old_answers,
                                   const not_a_name *new_answers) {
    int64_t from = parent_beneath(e, olddir, oldpath, old_last, LAST_MAX, old_answers);
    if (from < 0) return from;
    *to = parent_beneath(e, newdir, newpath, new_last, LAST_MAX, new_answers);
    if (*to < 0) {
        close((int)from);
        return *to;
    }
    return from;
}

static int64_t sys_renameat2(emu_t *e, int64_t olddir, uint64_t oldpath, int64_t newdir, uint64_t newpath,
                             uint64_t flags) {
    char old_last[LAST_MAX], new_last[LAST_MAX];
    int64_t to;
    int64_t from = two_parents_beneath(e, olddir, oldpath, old_last, newdir, newpath, new_last, &to, &RENAME_NOT_A_NAME,
                                       &RENAME_NOT_A_NAME);
    if (from < 0) return from;
    int64_t r = renameat2((int)from, old_last, (int)to, new_last, (unsigned)flags) < 0 ? -errno : 0;
    close((int)from);
    close((int)to);
    return r;
}

static int64_t sys_unlinkat(emu_t *e, int64_t dirfd, uint64_t path_addr, uint64_t flags) {
    if (flags & ~(uint64_t)AT_REMOVEDIR) return -EINVAL;
    char last[LAST_MAX];
    int64_t dir = parent_beneath(e, dirfd, path_addr, last, sizeof last,
                                 (flags & AT_REMOVEDIR) ? &RMDIR_NOT_A_NAME : &UNLINK_NOT_A_NAME);
    if (dir < 0) return dir;
    int64_t r = unlinkat((int)dir, last, (int)flags) < 0 ? -errno : 0;
    close((int)dir);
    return r;
}

static int64_t sys_mkdirat(emu_t *e, int64_t dirfd, uint64_t path_addr, uint64_t mode) {
    if (e->umask_set) mode &= ~(uint64_t)e->guest_umask; /* the host's umask applies too */
    char last[LAST_MAX];
    int64_t dir = parent_beneath(e, dirfd, path_addr, last, sizeof last, &CREATE_NOT_A_NAME);
    if (dir < 0) return dir;
    int64_t r = mkdirat((int)dir, last, (mode_t)mode & 07777) < 0 ? -errno : 0;
    close((int)dir);
    return r;
}

/* mknodat(dirfd, path, mode, dev): a FIFO (busybox's mkfifo), a regular file or a socket
 * node beneath --allow-write DIR, as mkdirat makes a directory (it was -ENOSYS); a device
 * node needs CAP_MKNOD, which the guest (uid 1000) lacks: EPERM. The FIFO is the host's: an
 * open of one end waits on the host for the other, which another process of the guest (or
 * outside) opens; a single process opening it alone blocks, as on Linux, and so does the run. */
static int64_t sys_mknodat(emu_t *e, int64_t dirfd, uint64_t path_addr, uint64_t mode) {
    uint32_t type = (uint32_t)mode & S_IFMT; /* Linux's may_mknod first */
    if (type == S_IFDIR) return -EPERM;
    bool device = type == S_IFCHR || type == S_IFBLK;
    if (type != 0 && type != S_IFREG && type != S_IFIFO && type != S_IFSOCK && !device) return -EINVAL;
    if (e->umask_set) mode &= ~(uint64_t)e->guest_umask; /* the host's umask applies too */
    char last[LAST_MAX];
    int64_t dir = parent_beneath(e, dirfd, path_addr, last, sizeof last, &CREATE_NOT_A_NAME);
    if (dir < 0) return dir;
    struct stat st;
    int64_t r = device && fstatat((int)dir, last, &st, AT_SYMLINK_NOFOLLOW) == 0           ? -EEXIST
        : device                                                                           ? -EPERM /* no CAP_MKNOD */
        : mknodat((int)dir, last, (type ? type : S_IFREG) | ((mode_t)mode & 07777), 0) < 0 ? -errno
                                                                                           : 0;
    close((int)dir);
    return r;
}

/* symlinkat(target, dirfd, path): the link is made beneath --allow-write DIR as mkdirat
 * makes a directory; its target is text, stored as the guest gave it (a write through the
 * link later resolves it beneath DIR like any path, so a link to outside grants nothing). */
static int64_t sys_symlinkat(emu_t *e, uint64_t target_addr, int64_t dirfd, uint64_t path_addr) {
    char target[PATH_MAX], last[LAST_MAX];
    if (!mem_read_string(&e->m, target_addr, target, sizeof target)) return -EFAULT;
    if (!target[0]) return -ENOENT;
    int64_t dir = parent_beneath(e, dirfd, path_addr, last, sizeof last, &CREATE_NOT_A_NAME);
    if (dir < 0) return dir;
    int64_t r = symlinkat(target, (int)dir, last) < 0 ? -errno : 0;
    close((int)dir);
    return r;
}

/* linkat: both names beneath --allow-write DIR — a hard link to a file outside DIR would
 * make that file writable through the new name. AT_SYMLINK_FOLLOW follows the old name's
 * link only while it stays beneath the old name's directory; AT_EMPTY_PATH answers ENOENT,
 * as Linux answers a process without CAP_DAC_READ_SEARCH. */
static int64_t sys_linkat(emu_t *e, int64_t olddir, uint64_t oldpath, int64_t newdir, uint64_t newpath,
                          uint64_t flags) {
    if (flags & ~(uint64_t)(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH)) return -EINVAL;
    if (flags & AT_EMPTY_PATH) return -ENOENT;
    char old_last[LAST_MAX], new_last[LAST_MAX];
    int64_t to;
    int64_t from = two_parents_beneath(e, olddir, oldpath, old_last, newdir, newpath, new_last, &to,
                                       &LINK_OLD_NOT_A_NAME, &CREATE_NOT_A_NAME);
    if (from < 0) return from;
    int64_t r;
    if (flags & AT_SYMLINK_FOLLOW) {
        int target = cs_open_beneath((int)from, old_last, O_PATH, 0, e->beneath_walk);
        if (target == -EXDEV) {
            r = -EACCES;
        } else if (target < 0) {
            r = target;
        } else {
            char via[64];
            snprintf(via, sizeof via, "/proc/self/fd/%d", target);
            r = linkat(AT_FDCWD, via, (int)to, new_last, AT_SYMLINK_FOLLOW) < 0 ? -errno : 0;
            close(target);
        }
    } else {
        r = linkat((int)from, old_last, (int)to, new_last, 0) < 0 ? -errno : 0;
    }
    close((int)from);
    close((int)to);
    return r;
}

/* A guest path that a call will change in place (chmod, utimes), opened O_PATH beneath
 * --allow-write DIR by the rules of openat (docs/sandbox.md §1): the host acts on it through
 * /proc/self/fd/N, so the file changed is the one resolved beneath DIR. Returns the host
 * descriptor or -errno (-EACCES, with the one-line notice, when it lies outside). */
static int64_t path_to_change(emu_t *e, int64_t dirfd, uint64_t path_addr, bool follow) {
    char path[PATH_MAX];
    int hdir;
    int64_t bad_path = get_path(e, path_addr, path);
    if (bad_path) return bad_path;
    if (!host_dirfd(e, dirfd, &hdir)) return -EBADF;
    return open_for_write(e, hdir, path, O_PATH | (follow ? 0 : O_NOFOLLOW), 0);
}

/* A descriptor whose file the guest may change: one the sandbox let it write (opened
 * beneath --allow-write DIR), never cyclescope's own stdout and stderr. Others get -EPERM,
 * as Linux answers for a file the caller does not own. */
static int64_t fd_to_change(emu_t *e, uint64_t fd, int *host) {
    guest_fd *g = fd_of(e, fd);
    if (!g) return -EBADF;
    if (!g->writable || g->pipe || g->host == STDOUT_FILENO || g->host == STDERR_FILENO) return -EPERM;
    *host = g->host;
    return 0;
}

/* fchmod(fd, mode), fchmodat(dirfd, path, mode): bzip2 and gzip give their output the
 * input's mode. Only the permission bits: set-user-ID, set-group-ID and sticky are
 * dropped, as the kernel drops set-group-ID for a caller outside the group. */
static int64_t sys_fchmod(emu_t *e, uint64_t fd, uint64_t mode) {
    int host;
    int64_t r = fd_to_change(e, fd, &host);
    return r < 0 ? r : fchmod(host, (mode_t)mode & 0777) < 0 ? -errno : 0;
}

static int64_t sys_fchmodat(emu_t *e, int64_t dirfd, uint64_t path_addr, uint64_t mode) {
    int64_t h = path_to_change(e, dirfd, path_addr, true);
    if (h < 0) return h;
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", (int)h);
    int64_t r = chmod(link, (mode_t)mode & 0777) < 0 ? -errno : 0;
    close((int)h);
    return r;
}

/* fchown(fd, owner, group): the guest is one unprivileged user, so it may only "change"
 * a file to the owner and group it has (-1 keeps one): a no-op, which bzip2 does after
 * fchmod. Giving a file away is -EPERM, as for any unprivileged Linux process. */
static int64_t sys_fchown(emu_t *e, uint64_t fd, uint64_t owner, uint64_t group) {
    guest_fd *g = fd_of(e, fd);
    struct stat st;
    if (!g) return -EBADF;
    if (host_fstat(e, g, &st) < 0) return -errno;
    bool same_owner = (uint32_t)owner == UINT32_MAX || (uint32_t)owner == st.st_uid;
    bool same_group = (uint32_t)group == UINT32_MAX || (uint32_t)group == st.st_gid;
    return same_owner && same_group ? 0 : -EPERM;
}

/* fchownat(dirfd, path, owner, group, flags) (chown, lchown): zstd gives its output the
 * input's owner with chown. As fchown: keeping the owner and group the file has is a
 * no-op, anything else -EPERM; the path must be one the guest may change (beneath
 * --allow-write DIR), as for fchmodat. "" with AT_EMPTY_PATH names dirfd itself. */
static int64_t sys_fchownat(emu_t *e, int64_t dirfd, uint64_t path_addr, uint64_t owner, uint64_t group,
                            uint64_t flags) {
    if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) return -EINVAL;
    char first = 0;
    if (guest_get(e, path_addr, &first, 1)) return -EFAULT;
    if (!first && (flags & AT_EMPTY_PATH)) return sys_fchown(e, (uint64_t)dirfd, owner, group);
    int64_t h = path_to_change(e, dirfd, path_addr, !(flags & AT_SYMLINK_NOFOLLOW));
    if (h < 0) return h;
    struct stat st;
    int64_t r = fstat((int)h, &st) < 0 ? -errno : 0;
    close((int)h);
    if (r < 0) return r;
    bool same_owner = (uint32_t)owner == UINT32_MAX || (uint32_t)owner == st.st_uid;
    bool same_group = (uint32_t)group == UINT32_MAX || (uint32_t)group == st.st_gid;
    return same_owner && same_group ? 0 : -EPERM;
}

/* utimensat(dirfd, path, times, flags) (utime, utimes, futimens): bzip2 gives its output
 * the input's times. A NULL path (futimens) or "" with AT_EMPTY_PATH names dirfd itself.
 * times NULL means now, on the host's clock, as the file times the guest reads are. */
static int64_t sys_utimensat(emu_t *e, int64_t dirfd, uint64_t path_addr, uint64_t times_addr, uint64_t flags) {
    if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) return -EINVAL;
    struct timespec ts[2];
    if (times_addr) {
        int64_t raw[4]; /* two struct timespec of riscv64: tv_sec, tv_nsec */
        if (guest_get(e, times_addr, raw, sizeof raw)) return -EFAULT;
        for (int i = 0; i < 2; i++) {
            ts[i].tv_sec = (time_t)raw[2 * i];
            ts[i].tv_nsec = (long)raw[2 * i + 1];
        }
    }
    const struct timespec *t = times_addr ? ts : NULL;
    char first = 0;
    if (path_addr && guest_get(e, path_addr, &first, 1)) return -EFAULT;
    if (!path_addr || (!first && (flags & AT_EMPTY_PATH))) {
        int host;
        int64_t r = fd_to_change(e, (uint64_t)dirfd, &host);
        return r < 0 ? r : futimens(host, t) < 0 ? -errno : 0;
    }
    int64_t h = path_to_change(e, dirfd, path_addr, !(flags & AT_SYMLINK_NOFOLLOW));
    if (h < 0) return h;
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", (int)h);
    int64_t r = utimensat(AT_FDCWD, link, t, 0) < 0 ? -errno : 0;
    close((int)h);
    return r;
}

/* fcntl's record locks (F_GETLK, F_SETLK, F_SETLKW and the OFD forms), which SQLite takes
 * on every transaction. The guest is the only process of its world (docs/sandbox.md), and
 * a process never conflicts with its own locks, so every lock is granted and F_GETLK finds
 * none (l_type F_UNLCK); nothing is locked on the host, so the forked copies of run
 * --simpoints and sweep points cannot block one another. The checks Linux makes remain:
 * the lock type and whence, and the descriptor opened for reading (read lock) or writing
 * (write lock). */
static int64_t sys_fcntl_lock(emu_t *e, guest_fd *g, uint64_t cmd, uint64_t flock_addr) {
    enum { GUEST_F_OFD_GETLK = 36 };
    int16_t type_whence[2];
    if (guest_get(e, flock_addr, type_whence, sizeof type_whence)) return -EFAULT;
    int16_t type = type_whence[0], whence = type_whence[1];
    if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END) return -EINVAL;
    bool get = cmd == F_GETLK || cmd == GUEST_F_OFD_GETLK;
    if (type != F_RDLCK && type != F_WRLCK && (get || type != F_UNLCK)) return -EINVAL;
    if (!get && type != F_UNLCK) {
        int fl = fcntl(g->host, F_GETFL);
        if (fl < 0) return -errno;
        int mode = fl & O_ACCMODE;
        if (type == F_RDLCK ? mode == O_WRONLY : mode == O_RDONLY) return -EBADF;
    }
    if (!get) return 0;
    int16_t unlocked = F_UNLCK;
    return guest_put(e, flock_addr, &unlocked, sizeof unlocked) ? -EFAULT : 0;
}

/* A wait under a signal mask the call gives (sigsuspend, ppoll, pselect6): the guest's sigset_t
 * (8 bytes) becomes the mask, the one before in *saved. 0 or -errno. */
static int64_t masked_wait_begin(emu_t *e, uint64_t mask_addr, uint64_t size, uint64_t *saved) {
    if (size != 8) return -EINVAL;
    uint64_t mask;
    if (guest_get(e, mask_addr, &mask, 8)) return -EFAULT;
    *saved = e->ctx.sig_blocked;
    e->ctx.sig_blocked = mask & ~SIG_UNBLOCKABLE;
    return 0;
}

/* Its end: when it was interrupted and a handler is to run, the mask given holds until the
 * handler's frame is set up, which keeps `saved`; else `saved` is back at once (Linux's
 * restore_saved_sigmask_unless). True when a handler runs. */
static bool masked_wait_end(emu_t *e, uint64_t saved, bool interrupted) {
    if (interrupted && e->status == EMU_RUNNING && emu_signal_handler_ready(e)) {
        e->ctx.sig_saved_mask = saved;
        e->ctx.sig_restore_mask = true;
        return true;
    }
    e->ctx.sig_blocked = saved;
    return false;
}

/* rt_sigsuspend(mask, size) (pause(), sigsuspend()): waits, with the mask given, for a
 * signal that runs a handler or ends the process. With other threads alive the thread waits
 * for one of them to send it (thread.c); alone, only the alarm can come: the guest's clock
 * moves to it; with none the run ends in one line, as a futex wait forever does. */
static int64_t sys_rt_sigsuspend(emu_t *e, uint64_t mask_addr, uint64_t size) {
    uint64_t saved;
    int64_t bad = masked_wait_begin(e, mask_addr, size, &saved);
    if (bad) return bad;
    emu_signal_claim_shared(e);
    emu_signal_act_now(e); /* a pending one first, lowest number first */
    if (e->status == EMU_RUNNING && !emu_signal_handler_ready(e) && emu_thread_pause(e)) {
        /* another thread may send one: this one waits (thread.c) with the mask given until the
         * handler is set up, whose frame keeps `saved` */
        e->ctx.sig_saved_mask = saved;
        e->ctx.sig_restore_mask = true;
        return -EINTR;
    }
    if (e->status == EMU_RUNNING && !emu_signal_handler_ready(e)) {
        if (emu_alarm_would_wake(e)) guest_sleep(e, emu_alarm_budget(e), NULL);
        else if (!emu_wait_child_end(e)) /* a child's SIGCHLD may end it (process.c) */
            emu_fail(e,
                     "sigsuspend would wait forever: no signal can arrive (no alarm armed that it lets through, "
                     "no child whose end it is told), "
                     "and %s (pc 0x%" PRIx64 ")",
                     EMU_SINGLE_THREAD_NOTE, e->h.pc);
    }
    masked_wait_end(e, saved, true);
    return -EINTR;
}

/* ppoll(fds, nfds, timeout, sigmask, sigsetsize) and pselect6(n, in, out, except, timeout,
 * {sigmask, size}): the signal mask given holds during the wait, as sigsuspend's (GNU make -j
 * waits in pselect for a job token with SIGCHLD let through only there: ignoring the mask, a
 * child's end never ended the wait and make hung). */
static int64_t sys_poll_masked(emu_t *e, uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                               uint64_t a5) {
    uint64_t mask_addr = nr == SYS_ppoll ? a3 : 0, size = a4, saved = 0;
    if (nr == SYS_pselect6 && a5) {
        uint64_t pair[2]; /* pselect6's sixth argument: {sigset address, its size} */
        if (guest_get(e, a5, pair, sizeof pair)) return -EFAULT;
        mask_addr = pair[0];
        size = pair[1];
    }
    if (mask_addr) {
        int64_t bad = masked_wait_begin(e, mask_addr, size, &saved);
        if (bad) return bad;
    }
    int64_t ret = nr == SYS_ppoll ? sys_ppoll(e, a0, a1, a2) : sys_pselect6(e, a0, a1, a2, a3, a4);
    if (mask_addr && masked_wait_end(e, saved, ret == -EINTR || ret == -EMU_ERESTARTSYS)) ret = -EINTR;
    return ret;
}

/* epoll_pwait(epfd, events, maxevents, timeout ms, sigmask, size) and epoll_pwait2(...,
 * timespec, sigmask, size): the mask given holds during the wait, as ppoll's */
static int64_t sys_epoll_masked(emu_t *e, uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                                uint64_t a5) {
    bool timed = true;
    uint64_t timeout_ns = 0, saved = 0;
    if (nr == SYS_epoll_pwait) {
        int32_t ms = (int32_t)a3;
        timed = ms >= 0;
        timeout_ns = timed ? (uint64_t)ms * 1000000u : 0;
    } else if (!a3) timed = false;
    else {
        int64_t bad = guest_timespec_ns(e, a3, &timeout_ns);
        if (bad) return bad;
    }
    if (a4) {
        int64_t bad = masked_wait_begin(e, a4, a5, &saved);
        if (bad) return bad;
    }
    int64_t ret = sys_epoll_wait(e, a0, a1, (int64_t)(int32_t)a2, timed, timeout_ns);
    if (a4 && masked_wait_end(e, saved, ret == -EINTR || ret == -EMU_ERESTARTSYS)) ret = -EINTR;
    return ret;
}

/* One warning line per unsupported call number (numbers from 512 up, which
 * Linux does not have, share one). */
static void warn_unsupported(emu_t *e, uint64_t nr) {
    unsigned slot = nr < 512 ? (unsigned)nr : 511;
    uint64_t bit = 1ull << (slot & 63);
    if (e->warned_syscalls[slot >> 6] & bit) return;
    e->warned_syscalls[slot >> 6] |= bit;
    if (e->opt.quiet) return;
    fprintf(stderr,
            "cyclescope: %s: warning: unsupported system call %s (number %" PRIu64 ") at pc 0x%" PRIx64
            " returns -ENOSYS%s (--strict-syscalls stops the run instead)\n",
            e->path, syscall_name(nr), nr, e->h.pc, nr >= 511 ? "; not repeated for numbers from 511 up" : "");
}

/* ---- dispatch ---- */

/* Whether the handler of the first signal due has SA_RESTART (the kernel's handle_signal
 * looks at the signal it delivers first, the lowest number). */
static bool emu_restarts(const emu_t *e) {
    for (uint64_t ready = e->ctx.sig_pending & ~e->ctx.sig_blocked; ready; ready &= ready - 1) {
        int sig = __builtin_ctzll(ready) + 1;
        if (e->sigaction_handler[sig] > 1) return (e->sigaction_flags[sig] & GUEST_SA_RESTART) != 0;
    }
    return false;
}

void emu_syscall(emu_t *e) {
    uint64_t *x = e->h.x;
    uint64_t nr = x[17], a0 = x[10], a1 = x[11], a2 = x[12], a3 = x[13], a4 = x[14], a5 = x[15];
    int64_t ret;
    emu_host_signals_take(e); /* a child's end (SIGCHLD), another process' signal */
    if (e->status != EMU_RUNNING) return;
    if (e->tree && !e->tree_published) emu_tree_publish(e); /* after an execve: its new name and cmdline */
    switch (nr) {
    case SYS_getcwd: ret = sys_getcwd(e, a0, a1); break;
    case SYS_chdir: ret = sys_chdir(e, a0); break;
    case SYS_fchdir: ret = sys_fchdir(e, a0); break;
    case SYS_pipe2: ret = sys_pipe2(e, a0, a1); break;
    case SYS_eventfd2: ret = sys_eventfd2(e, a0, a1); break;
    case SYS_epoll_create1: ret = sys_epoll_create1(e, a0); break;
    case SYS_epoll_ctl: ret = sys_epoll_ctl(e, a0, a1, a2, a3); break;
    case SYS_epoll_pwait:
    case SYS_epoll_pwait2: ret = sys_epoll_masked(e, nr, a0, a1, a2, a3, a4, a5); break;
    case SYS_socketpair: ret = sys_socketpair(e, a0, a1, a2, a3); break;
    case SYS_renameat: ret = sys_renameat2(e, (int64_t)a0, a1, (int64_t)a2, a3, 0); break;
    case SYS_renameat2: ret = sys_renameat2(e, (int64_t)a0, a1, (int64_t)a2, a3, a4); break;
    case SYS_unlinkat: ret = sys_unlinkat(e, (int64_t)a0, a1, a2); break;
    case SYS_mkdirat: ret = sys_mkdirat(e, (int64_t)a0, a1, a2); break;
    case SYS_mknodat: ret = sys_mknodat(e, (int64_t)a0, a1, a2); break;
    case SYS_symlinkat: ret = sys_symlinkat(e, a0, (int64_t)a1, a2); break;
    case SYS_linkat: ret = sys_linkat(e, (int64_t)a0, a1, (int64_t)a2, a3, a4); break;
    case SYS_fchmod: ret = sys_fchmod(e, a0, a1); break;
    case SYS_fchmodat: ret = sys_fchmodat(e, (int64_t)a0, a1, a2); break;
    case SYS_fchown: ret = sys_fchown(e, a0, a1, a2); break;
    case SYS_fchownat: ret = sys_fchownat(e, (int64_t)a0, a1, a2, a3, a4); break;
    case SYS_utimensat: ret = sys_utimensat(e, (int64_t)a0, a1, a2, a3); break;
    case SYS_setitimer:
    case SYS_getitimer:
        ret = emu_sys_itimer(e, a0, nr == SYS_setitimer ? a1 : 0, nr == SYS_setitimer ? a2 : a1);
        if (ret == -ENOSYS) goto unsupported; /* ITIMER_VIRTUAL, ITIMER_PROF */
        break;
    case SYS_rt_sigsuspend: ret = sys_rt_sigsuspend(e, a0, a1); break;
    case SYS_rt_sigtimedwait: ret = emu_sys_rt_sigtimedwait(e, a0, a1, a2, a3); break;
    case SYS_rt_sigqueueinfo: ret = a0 != (uint64_t)e->vpid ? -EPERM : emu_sys_sigqueue(e, -1, (int64_t)a1, a2); break;
    case SYS_rt_tgsigqueueinfo:
        ret = a0 != (uint64_t)e->vpid ? -EPERM
            : (int64_t)a1 <= 0        ? -EINVAL
                                      : emu_sys_sigqueue(e, (int64_t)a1, (int64_t)a2, a3);
        break;
    case SYS_dup:
    case SYS_dup3: {
        guest_fd *g = fd_of(e, a0);
        if (!g) {
            ret = -EBADF;
            break;
        }
        if (nr == SYS_dup3) {
            if (a1 >= (uint64_t)fd_limit(e) || a0 == a1) {
                ret = a0 == a1 ? -EINVAL : -EBADF;
                break;
            }
            if (a2 & ~(uint64_t)O_CLOEXEC) {
                ret = -EINVAL;
                break;
            }
            int h = dup(g->host);
            if (h < 0) {
                ret = -errno;
                break;
            }
            guest_fd like = *g; /* before the close: it may end the pipe's last other end */
            like.path = g->path ? cs_strdup(g->path) : NULL;
            sys_close(e, a1);
            ret = fd_install_like(e, h, &like, (int)a1, (a2 & O_CLOEXEC) != 0);
            free(like.path);
        } else {
            int h = dup(g->host);
            ret = h < 0 ? -errno : fd_install_like(e, h, g, 0, false);
        }
        break;
    }
    case SYS_fcntl: {
        guest_fd *g = fd_of(e, a0);
        if (!g) {
            ret = -EBADF;
            break;
        }
        switch (a1) {
        case F_GETFL: {
            int fl = fcntl(g->host, F_GETFL);
            if (fl >= 0 && (g->pipe || g->eventfd))
                fl = (fl & ~O_NONBLOCK) | (g->nonblock ? O_NONBLOCK : 0); /* the guest's */
            ret = fl < 0 ? -errno : fl;
            break;
        }
        case F_GETFD: ret = g->cloexec ? FD_CLOEXEC : 0; break;
        case F_SETFD:
            g->cloexec = (a2 & FD_CLOEXEC) != 0;
            ret = 0;
            break;
        case F_SETFL:
            /* O_NONBLOCK matters for a pipe the guest made (a read of an empty one: EAGAIN, or
             * the end of the run); elsewhere it means nothing to a single thread. It belongs to
             * the open file description: every dup of this end sees it. */
            if (g->pipe)
                for (int i = 0; i < EMU_MAX_FDS; i++)
                    if (e->fds[i].host >= 0 && e->fds[i].pipe == g->pipe && e->fds[i].writable == g->writable &&
                        e->fds[i].sock_b == g->sock_b)
                        e->fds[i].nonblock = (a2 & O_NONBLOCK) != 0;
            if (g->eventfd) g->nonblock = (a2 & O_NONBLOCK) != 0; /* this descriptor's (its dups keep theirs) */
            ret = 0;
            break;
        case F_DUPFD:
        case F_DUPFD_CLOEXEC: {
            if (a2 >= (uint64_t)fd_limit(e)) { /* past the descriptor limit */
                ret = -EINVAL;
                break;
            }
            int h = dup(g->host);
            ret = h < 0 ? -errno : fd_install_like(e, h, g, (int)a2, a1 == F_DUPFD_CLOEXEC);
            break;
        }
        case F_GETLK:
        case F_SETLK:
        case F_SETLKW:
        case 36: /* F_OFD_GETLK */
        case 37: /* F_OFD_SETLK */
        case 38: /* F_OFD_SETLKW */ ret = sys_fcntl_lock(e, g, a1, a2); break;
        default: ret = -EINVAL;
        }
        break;
    }
    case SYS_ioctl: ret = fd_of(e, a0) ? -ENOTTY : -EBADF; break; /* no terminal: TCGETS, TIOCGWINSZ... */
    case SYS_faccessat:
    case SYS_faccessat2: ret = sys_faccessat(e, (int64_t)a0, a1, a2, nr == SYS_faccessat2 ? a3 : 0); break;
    case SYS_openat: ret = sys_openat(e, (int64_t)a0, a1, (int64_t)a2, (int64_t)a3); break;
    case SYS_close: ret = sys_close(e, a0); break;
    case SYS_lseek: {
        guest_fd *g = fd_of(e, a0);
        off_t r = g ? lseek(g->host, (off_t)a1, (int)a2) : -1;
        ret = !g ? -EBADF : r < 0 ? -errno : r;
        break;
    }
    case SYS_read: ret = sys_read(e, a0, a1, a2, -1, true); break;
    case SYS_pread64: ret = (int64_t)a3 < 0 ? -EINVAL : sys_read(e, a0, a1, a2, (int64_t)a3, true); break;
    case SYS_getdents64: ret = sys_getdents64(e, a0, a1, a2); break;
    case SYS_ppoll:
    case SYS_pselect6: ret = sys_poll_masked(e, nr, a0, a1, a2, a3, a4, a5); break;
    case SYS_sync:
    case SYS_mlock:
    case SYS_munlock:
    case SYS_mlockall:
    case SYS_munlockall: ret = 0; break; /* nothing to flush or pin in a copy of memory */
    case SYS_syncfs: ret = fd_of(e, a0) ? 0 : -EBADF; break;
    case SYS_getpriority: /* PRIO_PROCESS of the process itself: 20 - nice, as the system call (not glibc) */
        ret = a0 > 2 ? -EINVAL : a0 == 0 && (a1 == 0 || a1 == (uint64_t)e->vpid) ? 20 - e->nice : -ESRCH;
        break;
    case SYS_setpriority: {
        /* PRIO_PROCESS of the process itself (busybox's nice, nohup; it was -ENOSYS): a nice
         * value clamped to -20..19, which an unprivileged process may raise but not lower
         * (EACCES, RLIMIT_NICE 0); a group or a user: not modelled (ESRCH, as for no match) */
        int64_t want = (int64_t)(int32_t)a2;
        want = want < -20 ? -20 : want > 19 ? 19 : want;
        if (a0 > 2) ret = -EINVAL;
        else if (a0 != 0 || (a1 != 0 && a1 != (uint64_t)e->vpid)) ret = -ESRCH;
        else if (want < e->nice) ret = -EACCES;
        else e->nice = (int8_t)want, ret = 0;
        break;
    }
    case SYS_umask: {
        if (!e->umask_set) { /* inherited: the host process' */
            mode_t host = umask(022);
            umask(host);
            e->guest_umask = host;
            e->umask_set = true;
        }
        ret = e->guest_umask;
        e->guest_umask = (uint32_t)a0 & 0777;
        break;
    }
    case SYS_setpgid: ret = emu_sys_setpgid(e, (int64_t)(int32_t)a0, (int64_t)(int32_t)a1); break;
    case SYS_setsid: ret = emu_sys_setsid(e); break;
    case SYS_getpgid:
    case SYS_getsid: ret = emu_sys_getpgid(e, (int64_t)(int32_t)a0, nr == SYS_getsid); break;
    case SYS_sched_getscheduler: ret = a0 == 0 || a0 == (uint64_t)e->vpid ? 0 : -ESRCH; break; /* SCHED_OTHER */
    case SYS_sched_getparam: {
        static const int32_t priority = 0;
        ret = a0 != 0 && a0 != (uint64_t)e->vpid ? -ESRCH : guest_put(e, a1, &priority, 4);
        break;
    }
    case SYS_getcpu: {
        static const uint32_t zero = 0; /* CPU 0, node 0: the one CPU */
        ret = (a0 && guest_put(e, a0, &zero, 4)) || (a1 && guest_put(e, a1, &zero, 4)) ? -EFAULT : 0;
        break;
    }
    case SYS_prctl:
        if (a0 == 15) { /* PR_SET_NAME: the thread's name, its first 15 bytes (strncpy_from_user) */
            char name[16] = {0};
            ret = 0;
            for (size_t i = 0; i < 15 && !ret; i++) {
                ret = guest_get(e, a1 + i, &name[i], 1) ? -EFAULT : 0;
                if (!name[i]) break;
            }
            if (!ret) memcpy(e->ctx.comm, name, sizeof name);
            if (!ret && e->tree) emu_tree_publish(e); /* the others' /proc/PID/comm */
        } else if (a0 == 16) {                        /* PR_GET_NAME: the thread's name, 16 bytes */
            ret = guest_put(e, a1, e->ctx.comm, sizeof e->ctx.comm);
        } else if (a0 == 7) { /* PR_GET_KEEPCAPS */
            ret = e->keep_caps;
        } else if (a0 == 8) { /* PR_SET_KEEPCAPS, 0 or 1 (Go's os/signal test sets it on every thread) */
            ret = a1 > 1 ? -EINVAL : 0;
            if (a1 <= 1) e->keep_caps = a1 == 1;
        } else ret = -EINVAL;
        break;
    case SYS_ftruncate: {
        /* through a descriptor the sandbox let the guest write (opened beneath
         * --allow-write DIR); not cyclescope's own stdout and stderr */
        guest_fd *g = fd_of(e, a0);
        if (!g) ret = -EBADF;
        else if (!g->writable || g->host == STDOUT_FILENO || g->host == STDERR_FILENO) ret = -EINVAL;
        else if ((int64_t)a1 < 0) ret = -EINVAL;
        else {
            shared_before_io(e, g->host);
            ret = ftruncate(g->host, (off_t)a1) < 0 ? -errno : 0;
            shared_after_write(e, g->host);
        }
        break;
    }
    case SYS_statfs: ret = sys_statfs(e, a0, a1); break;
    case SYS_fstatfs: ret = sys_fstatfs(e, a0, a1); break;
    case SYS_fadvise64: { /* advice, taken by doing nothing, but judged as Linux judges it (coreutils
                             asks for sequential reads of every file it opens) */
        guest_fd *g = fd_of(e, a0);
        struct stat st;
        if (!g) ret = -EBADF;
        else if (host_fstat(e, g, &st) < 0) ret = -errno;
        else if (S_ISFIFO(st.st_mode)) ret = -ESPIPE;
        else ret = (int64_t)a2 < 0 || a3 > 5 /* POSIX_FADV_NOREUSE */ ? -EINVAL : 0;
        break;
    }
    case SYS_fsync:
    case SYS_fdatasync: {
        guest_fd *g = fd_of(e, a0);
        ret = !g ? -EBADF : (nr == SYS_fsync ? fsync(g->host) : fdatasync(g->host)) < 0 ? -errno : 0;
        break;
    }
    case SYS_write: ret = sys_write(e, a0, a1, a2, -1, true); break;
    case SYS_pwrite64: ret = (int64_t)a3 < 0 ? -EINVAL : sys_write(e, a0, a1, a2, (int64_t)a3, true); break;
    case SYS_sendfile: ret = sys_sendfile(e, a0, a1, a2, a3); break;
    case SYS_splice: ret = sys_splice(e, false, a0, a1, a2, a3, a4, a5); break;
    case SYS_tee: ret = sys_splice(e, true, a0, 0, a1, 0, a2, a3); break;
    case SYS_copy_file_range: ret = sys_copy_file_range(e, a0, a1, a2, a3, a4, a5); break;
    case SYS_readv: ret = sys_iov(e, a0, a1, a2, false); break;
    case SYS_writev: ret = sys_iov(e, a0, a1, a2, true); break;
    case SYS_readlinkat: ret = sys_readlinkat(e, (int64_t)a0, a1, a2, a3); break;
    case SYS_newfstatat: ret = sys_fstatat(e, (int64_t)a0, a1, a2, (int64_t)a3); break;
    case SYS_fstat: {
        guest_fd *g = fd_of(e, a0);
        struct stat st;
        ret = !g ? -EBADF : host_fstat(e, g, &st) < 0 ? -errno : put_stat(e, a1, &st);
        break;
    }
    case SYS_statx: ret = sys_statx(e, (int64_t)a0, a1, (int64_t)a2, a3, a4); break;
    case SYS_exit:
        if (emu_sys_thread_exit(e)) { /* one thread of several: the others go on */
            ret = 0;
            break;
        }
        __attribute__((fallthrough)); /* the last thread's exit ends the process with its code */
    case SYS_exit_group:
        e->status = EMU_EXITED;
        e->exit_code = (int)(a0 & 0xff);
        return;
    case SYS_set_tid_address:
        e->ctx.clear_child_tid = a0;
        ret = emu_thread_tid(e);
        break;
    case SYS_futex: {
        unsigned op = (unsigned)a1 & 0x7f; /* without FUTEX_PRIVATE_FLAG / CLOCK_REALTIME */
        if (e->threads || (op != 0 && op != 9 && op != 1 && op != 10)) {
            /* threads: waits block, wakes wake (thread.c); one thread: the checks, WAKE_OP's
             * change of the second word, the PI futexes' word (they never wait for nobody) */
            ret = emu_sys_futex(e, a0, a1, a2, a3, a4, a5);
            if (ret == EMU_FUTEX_FOREVER) { /* FUTEX_WAIT_REQUEUE_PI with one thread */
                if (a3) {                   /* absolute, on FUTEX_CLOCK_REALTIME's clock */
                    ret = sys_nanosleep(e, (a1 & 256) ? CLOCK_REALTIME : CLOCK_MONOTONIC, 1, a3, 0);
                    if (ret == 0) ret = -ETIMEDOUT;
                } else {
                    emu_fail(e, "futex wait would block forever: the guest has a single thread (pc 0x%" PRIx64 ")",
                             e->h.pc);
                    return;
                }
            }
            break;
        }
        if ((a1 & 256) && op != 9) ret = -ENOSYS; /* FUTEX_CLOCK_REALTIME: WAIT_BITSET's alone here */
        else if (op == 0 || op == 9) { /* WAIT, WAIT_BITSET */ uint32_t v;
            if (op == 9 && (uint32_t)a5 == 0) ret = -EINVAL; /* WAIT_BITSET with no bit */
            else if (guest_get(e, a0, &v, 4)) ret = -EFAULT;
            else if (v != (uint32_t)a2) ret = -EAGAIN;
            else if (a3) {
                /* with a timeout: nobody else can wake it, so the time runs out (WAIT: relative
                 * on the monotonic clock; WAIT_BITSET: absolute, FUTEX_CLOCK_REALTIME's clock) */
                ret = op == 0 ? sys_nanosleep(e, CLOCK_MONOTONIC, 0, a3, 0)
                              : sys_nanosleep(e, (a1 & 256) ? CLOCK_REALTIME : CLOCK_MONOTONIC, 1, a3, 0);
                if (ret == 0) ret = -ETIMEDOUT;
            } else {
                emu_fail(e, "futex wait would block forever: the guest has a single thread (pc 0x%" PRIx64 ")",
                         e->h.pc);
                return;
            }
        } else ret = 0; /* WAKE, WAKE_BITSET: nobody waits */
        break;
    }
    case SYS_set_robust_list: /* kept for the thread, walked when it exits (thread.c) */
        e->ctx.robust_list = a0;
        ret = 0;
        break;
    case SYS_rseq: ret = -ENOSYS; break; /* as on a kernel without rseq; glibc carries on */
    case SYS_nanosleep: ret = sys_nanosleep(e, CLOCK_MONOTONIC, 0, a0, a1); break;
    case SYS_clock_nanosleep: ret = sys_nanosleep(e, a0, a1, a2, a3); break;
    case SYS_clock_gettime: {
        bool realtime = a0 == CLOCK_REALTIME || a0 == CLOCK_REALTIME_COARSE || a0 == CLOCK_TAI;
        ret = !clock_id_known(e, a0) ? -EINVAL : put_time(e, a1, emu_guest_time_ns(e, !realtime), false);
        break;
    }
    case SYS_clock_getres: ret = !clock_id_known(e, a0) ? -EINVAL : a1 ? put_time(e, a1, 1, false) : 0; break;
    case SYS_gettimeofday: ret = a0 ? put_time(e, a0, emu_guest_time_ns(e, false), true) : 0; break;
    case SYS_sched_yield:
        emu_sys_sched_yield(e);
        ret = 0;
        break;
    case SYS_clone:
        ret = emu_sys_clone(e, a0, a1, a2, a3, a4);
        if (ret == EMU_CLONE_REFUSED) ret = emu_sys_fork(e, a0, a1, a2, a4); /* a fork or vfork (process.c) */
        if (ret == EMU_CLONE_REFUSED) goto unsupported; /* namespaces and the like: -ENOSYS and a warning */
        break;
    case SYS_wait4: ret = emu_sys_wait4(e, (int64_t)(int32_t)a0, a1, a2, a3); break;
    case SYS_waitid: ret = emu_sys_waitid(e, (int64_t)a0, (int64_t)(int32_t)a1, a2, a3, a4); break;
    case SYS_execve: {
        char path[PATH_MAX];
        int hdir;
        ret = get_path(e, a0, path);
        if (ret) {
            /* EFAULT, or a /proc path the guest does not have: ENOENT */
        } else if (!*path) ret = -ENOENT;
        else if (!host_dirfd(e, AT_FDCWD, &hdir)) ret = -EBADF;
        else {
            const char *entry = proc_own_entry(e, path, NULL);
            if (entry && !strcmp(entry, "exe")) snprintf(path, sizeof path, "%s", e->exe_real); /* the guest's */
            ret = emu_sys_execve(e, hdir, path, a1, a2); /* returns only when it failed */
        }
        break;
    }
    case SYS_sched_getaffinity: {
        uint64_t mask = 1; /* one CPU */
        ret = a1 < 8 ? -EINVAL : guest_put(e, a2, &mask, 8) ? -EFAULT : 8;
        break;
    }
    case SYS_tkill:
        if (a0 != (uint64_t)e->vpid && !emu_thread_is_tid(e, (int64_t)a0)) { /* another process' thread */
            ret = emu_sys_tgkill_other(e, -1, (int64_t)a0, (int64_t)a1);
            break;
        }
        if (e->threads) { /* a thread of the guest's, this one or another */
            ret = emu_sys_tgkill(e, -1, (int64_t)a0, (int64_t)a1);
            break;
        }
        __attribute__((fallthrough));
    case SYS_kill:
        /* another thread's tid names its thread group, the process (Linux's kill_pid_info) */
        if (nr == SYS_kill && (a0 == (uint64_t)e->vpid || emu_thread_is_tid(e, (int64_t)a0)))
            ret = emu_sys_kill_process(e, (int64_t)a1); /* for the process: a thread that can take it */
        else if (a0 == (uint64_t)e->vpid) ret = emu_sys_self_signal(e, (int64_t)a1, GUEST_SI_TKILL);
        else if (nr == SYS_kill) ret = emu_sys_kill(e, (int64_t)(int32_t)a0, (int64_t)a1); /* the tree, its group */
        else ret = -ESRCH; /* not reached: tkill of another process' thread is served above */
        break;
    case SYS_tgkill:
        if (a0 != (uint64_t)e->vpid) ret = emu_sys_tgkill_other(e, (int64_t)a0, (int64_t)a1, (int64_t)a2);
        else if (e->threads) ret = emu_sys_tgkill(e, (int64_t)a0, (int64_t)a1, (int64_t)a2);
        else
            ret = (a1 == (uint64_t)e->vpid) ? emu_sys_self_signal(e, (int64_t)a2, GUEST_SI_TKILL)
                                            : -ESRCH; /* no such thread here */
        break;
    case SYS_sigaltstack: ret = emu_sys_sigaltstack(e, a0, a1); break;
    case SYS_rt_sigreturn: ret = emu_sys_rt_sigreturn(e); break;
    case SYS_rt_sigaction: {
        if (a0 < 1 || a0 > 64 || a0 == 9 || a0 == 19) {
            ret = -EINVAL;
            break;
        }
        if (a3 != 8) {
            ret = -EINVAL;
            break;
        }
        /* riscv's struct sigaction has no sa_restorer: handler, flags, mask */
        uint64_t old[3] = {e->sigaction_handler[a0], e->sigaction_flags[a0], e->sigaction_mask[a0]}, act[3];
        if (a1 && guest_get(e, a1, act, sizeof act)) {
            ret = -EFAULT;
            break;
        }
        if (a1) {
            e->sigaction_handler[a0] = act[0];
            e->sigaction_flags[a0] = act[1];
            e->sigaction_mask[a0] = act[2] & ~SIG_UNBLOCKABLE;
            /* ignored from now (SIG_IGN, or SIG_DFL of a signal whose default is to do
             * nothing): a pending one is dropped, as Linux does */
            bool ignores = act[0] == 1 || (act[0] == 0 && (a0 == 17 || a0 == 23 || a0 == 28 || a0 == 18));
            if (ignores) {
                e->ctx.sig_pending &= ~SIG_BIT(a0), e->sig_shared_pending &= ~SIG_BIT(a0);
                emu_signal_requeue(e, (int)a0, emu_thread_tid(e), -1);
                emu_signal_requeue(e, (int)a0, 0, -1);
            }
        }
        ret = a2 && guest_put(e, a2, old, sizeof old) ? -EFAULT : 0;
        break;
    }
    case SYS_rt_sigprocmask: ret = emu_sys_rt_sigprocmask(e, a0, a1, a2, a3); break;
    case SYS_rt_sigpending: {
        uint64_t pending = (e->ctx.sig_pending | e->sig_shared_pending) & e->ctx.sig_blocked;
        ret = a1 > 8 ? -EINVAL : guest_put(e, a0, &pending, a1) ? -EFAULT : 0;
        break;
    }
    case SYS_times: {
        uint64_t t[4] = {e->icount / 10000000, 0, 0, 0}; /* clock ticks at 100 Hz */
        ret = a0 && guest_put(e, a0, t, sizeof t) ? -EFAULT : (int64_t)(e->icount / 10000000);
        break;
    }
    case SYS_uname: {
        char u[6][65] = {"Linux", "cyclescope", "6.1.0", "#1 SMP cyclescope", "riscv64", "(none)"};
        ret = guest_put(e, a0, u, sizeof u);
        break;
    }
    case SYS_getrlimit:
    case SYS_prlimit64: {
        uint64_t resource = nr == SYS_getrlimit ? a0 : a1, out = nr == SYS_getrlimit ? a1 : a3;
        if (nr == SYS_prlimit64 && a0 != 0 && a0 != (uint64_t)e->vpid) {
            ret = -ESRCH;
            break;
        }
        if (resource >= GUEST_RLIMITS) {
            ret = -EINVAL;
            break;
        }
        uint64_t old[2] = {e->rlim[resource][0], e->rlim[resource][1]};
        if (nr == SYS_prlimit64 && a2) { /* setrlimit */
            ret = sys_set_rlimit(e, (int)resource, a2);
            if (ret) break;
        }
        ret = out && guest_put(e, out, old, sizeof old) ? -EFAULT : 0;
        break;
    }
    case SYS_setrlimit: ret = a0 >= GUEST_RLIMITS ? -EINVAL : sys_set_rlimit(e, (int)a0, a1); break;
    case SYS_getrusage: {
        /* the user time is the instructions run, 1 ns each, as times(2) counts it (all zeros
         * made libgfortran's cpu_time, which reads it, say no time passed); the system time
         * and RUSAGE_CHILDREN's (-1) stay 0; RUSAGE_THREAD (1): the process's, one hart */
        int32_t who = (int32_t)a0;
        if (who != 0 && who != -1 && who != 1) {
            ret = -EINVAL;
            break;
        }
        int64_t ru[18] = {0}; /* struct rusage: ru_utime, ru_stime (timevals), 14 longs */
        if (who != -1) {
            ru[0] = (int64_t)(e->icount / 1000000000u);
            ru[1] = (int64_t)(e->icount / 1000u % 1000000u);
        }
        ret = guest_put(e, a1, ru, sizeof ru);
        break;
    }
    case SYS_getpid: ret = e->vpid; break;
    case SYS_gettid: ret = emu_thread_tid(e); break;
    case SYS_getppid: ret = e->parent_vpid; break;
    case SYS_getuid:
    case SYS_geteuid:
    case SYS_getgid:
    case SYS_getegid: ret = GUEST_ID; break;
    /* the guest's real, effective and saved ids are all GUEST_ID and it is not privileged:
     * each id may be set to that one (or left, -1) and to no other, as Linux answers a
     * user's process (glibc's posix_spawn with POSIX_SPAWN_RESETIDS calls setresuid: GNU
     * make's every recipe failed "Function not implemented") */
    case SYS_setuid:
    case SYS_setgid: ret = (uint32_t)a0 == GUEST_ID ? 0 : (uint32_t)a0 == UINT32_MAX ? -EINVAL : -EPERM; break;
    case SYS_setreuid:
    case SYS_setregid:
    case SYS_setresuid:
    case SYS_setresgid: {
        int n = nr == SYS_setresuid || nr == SYS_setresgid ? 3 : 2;
        uint64_t id[3] = {a0, a1, a2};
        ret = 0;
        for (int k = 0; k < n; k++)
            if ((uint32_t)id[k] != UINT32_MAX && (uint32_t)id[k] != GUEST_ID) ret = -EPERM;
        break;
    }
    case SYS_getresuid:
    case SYS_getresgid: {
        uint32_t id = GUEST_ID;
        ret = guest_put(e, a0, &id, 4) || guest_put(e, a1, &id, 4) || guest_put(e, a2, &id, 4) ? -EFAULT : 0;
        break;
    }
    case SYS_setfsuid:
    case SYS_setfsgid: ret = GUEST_ID; break; /* the old fsuid; only GUEST_ID would be allowed */
    case SYS_getgroups: /* no supplementary groups: the guest's group is its own 1000 (getgid) only,
                           as a process a service starts without initgroups (gawk's PROCINFO asks) */
        ret = (int32_t)a0 < 0 ? -EINVAL : 0;
        break;
    case SYS_brk:
        ret = sys_brk(e, a0);
        if (e->tree) emu_tree_publish(e); /* the others' /proc/PID/stat vsize */
        break;
    case SYS_munmap:
        if ((a0 & PAGE_MASK) || a1 == 0 || a1 > GUEST_TASK_SIZE || a0 > GUEST_TASK_SIZE - a1) ret = -EINVAL;
        else {
            shared_release(e, a0, (a1 + PAGE_MASK) & ~PAGE_MASK);
            mem_unmap(&e->m, a0, a1);
            ret = 0;
            if (e->tree) emu_tree_publish(e);
        }
        break;
    case SYS_mremap:
        ret = sys_mremap(e, a0, a1, a2, (int64_t)a3);
        if (e->tree) emu_tree_publish(e); /* the others' /proc/PID/stat vsize */
        break;
    case SYS_msync: ret = sys_msync(e, a0, a1, (int64_t)a2); break;
    case SYS_mincore: ret = sys_mincore(e, a0, a1, a2); break;
    case SYS_mmap:
        ret = sys_mmap(e, a0, a1, (int64_t)a2, (int64_t)a3, (int64_t)a4, a5);
        if (e->tree) emu_tree_publish(e); /* the others' /proc/PID/stat vsize */
        break;
    case SYS_mprotect:
        if (a0 & PAGE_MASK) ret = -EINVAL;
        else if ((a2 & G_PROT_WRITE) && shared_read_only_overlap(e, a0, a1)) ret = -EACCES;
        else ret = mem_protect(&e->m, a0, a1, guest_prot((int64_t)a2)) ? 0 : -ENOMEM;
        break;
    case SYS_madvise: {
        uint64_t len = (a1 + PAGE_MASK) & ~PAGE_MASK;
        if ((a0 & PAGE_MASK) || len < a1 || len > GUEST_TASK_SIZE || a0 > GUEST_TASK_SIZE - len) ret = -EINVAL;
        else if (a2 == 4) /* MADV_DONTNEED: private pages read as zero again; only existing pages are visited */
            ret = madvise_dontneed(e, a0, len) ? 0 : -ENOMEM;
        else ret = 0; /* advice only */
        break;
    }
    case SYS_riscv_flush_icache: ret = 0; break;
    case SYS_riscv_hwprobe: ret = -ENOSYS; break;
    case SYS_getrandom: ret = guest_random_read(e, a0, a1); break;
    case SYS_sysinfo: ret = sys_sysinfo(e, a0); break;
    case SYS_bind:
    case SYS_listen:
    case SYS_accept:
    case SYS_accept4:
    case SYS_connect:
    case SYS_getsockname:
    case SYS_getpeername:
    case SYS_sendto:
    case SYS_recvfrom:
    case SYS_setsockopt:
    case SYS_getsockopt:
    case SYS_shutdown:
    case SYS_sendmsg:
    case SYS_recvmsg:
    case SYS_recvmmsg:
    case SYS_sendmmsg: {
        /* socket calls on a descriptor: only a socketpair's ends are sockets */
        uint64_t args[6] = {a0, a1, a2, a3, a4, a5};
        ret = sys_socket_call(e, nr, args);
        if (ret == -ENOSYS) goto unsupported;
        break;
    }
    case SYS_socket:
        /* The guest has no sockets (no network, no host daemons: docs/sandbox.md §4). Refused
         * without the unsupported-call warning: glibc's getpwuid, getgrgid and getaddrinfo
         * first try nscd's socket and, when socket fails, read the files, as when no nscd
         * runs; the warning made their stderr differ from qemu's. */
        ret = -EACCES;
        break;
    default:
    unsupported:
        if (e->opt.strict_syscalls) {
            emu_fail(e, "unsupported system call %s (number %" PRIu64 ") at pc 0x%" PRIx64, syscall_name(nr), nr,
                     e->h.pc);
            return;
        }
        warn_unsupported(e, nr);
        ret = -ENOSYS; /* as Linux and qemu answer a call they do not have */
    }
    if (e->m.over_limit) { /* a copy into guest memory passed the host limit */
        emu_fail_memory(e);
        return;
    }
    if (__builtin_expect(e->threads != NULL, 0)) emu_thread_syscall_end(e);
    if (e->syscall_retry) { /* it waits in THREAD_IO: its ecall runs again, with a0 as it is */
        emu_thread_after_syscall(e);
        return;
    }
    if (ret == -EMU_ERESTARTSYS && !emu_restarts(e)) ret = -EINTR;
    if (ret == -EMU_ERESTARTSYS ||
        ret == -EMU_ERESTARTNOINTR) { /* the ecall runs again, a0 as it was, after the handler */
        if (e->status == EMU_RUNNING) emu_signal_deliver(e);
        e->sig_redirect = true;
        if (e->thread_switch) emu_thread_after_syscall(e);
        return;
    }
    x[10] = (uint64_t)ret;
    /* back to user mode: after the ecall, or where rt_sigreturn put the hart; a signal that
     * came (or was unblocked) meanwhile runs its handler first */
    bool paused = e->thread_switch && e->ctx.sig_restore_mask; /* rt_sigsuspend waits (thread.c) */
    if (e->status == EMU_RUNNING && !paused && (emu_signal_handler_ready(e) || e->ctx.sig_restore_mask)) {
        if (nr != SYS_rt_sigreturn) e->h.pc += 4;
        emu_signal_deliver(e);
        e->sig_redirect = true;
    }
    if (e->thread_switch) emu_thread_after_syscall(e); /* it blocked, exited or yielded */
}
