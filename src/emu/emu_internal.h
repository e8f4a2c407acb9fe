/* Internal state of the emulator, shared by its files (not a public header). */
#ifndef CYCLESCOPE_EMU_INTERNAL_H
#define CYCLESCOPE_EMU_INTERNAL_H

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>

#include "emu.h"
#include "mem.h"

enum { EMU_MAX_FDS = 256, EMU_SINK_REG = 32 };

/* The page holding the return trampoline of signal handlers (`li a7, 139; ecall`, the
 * kernel's vDSO __vdso_rt_sigreturn): the last page below the 256 GiB Sv39 user space,
 * above the stack, where neither the program nor mmap's top-down placement goes. */
#define EMU_SIGRETURN_PAGE 0x3ffffff000ull

typedef struct hart {
    uint64_t x[33]; /* x[32] absorbs writes to x0 so x[0] stays zero */
    uint64_t f[32]; /* NaN-boxed when holding single precision */
    uint64_t pc;
    unsigned fflags, frm;
    uint64_t reservation;    /* LR/SC reservation address */
    uint64_t reserved_value; /* what lr read there (sign-extended): sc swaps only if it is still there */
    bool reserved;
} hart;

/* What each thread of the guest has of its own besides its registers: the running thread's
 * is emu.ctx (signal.c and syscall.c read it there), the others' in their slots (thread.c
 * swaps it with one assignment). */
typedef struct thread_context {
    uint64_t clear_child_tid;
    uint64_t robust_list; /* set_robust_list's head (walked at the thread's exit) */
    /* rt_sigprocmask's blocked set and the signals sent to the thread while they were
     * blocked (bit sig-1): a blocked signal waits, as on Linux, until it is unblocked */
    uint64_t sig_blocked, sig_pending;
    /* rt_sigsuspend's mask is in force until the handler it woke for is set up: the frame
     * keeps the mask from before it (the kernel's TIF_RESTORE_SIGMASK) */
    uint64_t sig_saved_mask;
    bool sig_restore_mask;
    /* sigaltstack: the alternate stack (size 0: none) and its SS_AUTODISARM flag */
    uint64_t altstack_sp, altstack_size;
    bool altstack_autodisarm;
    /* the thread's name (Linux's comm, TASK_COMM_LEN bytes with the NUL): the program's at
     * the start and after an execve, a new thread's creator's, then prctl(PR_SET_NAME)'s or a
     * write to its /proc comm file's */
    char comm[16];
} thread_context;

/* A thread of the guest (thread.c). The running one's state is in the emu fields; a
 * slot holds it while another runs. */
enum { EMU_MAX_THREADS = 64 };
/* Guest pids are EMU_PID_STRIDE apart (process.c); a process' thread ids are the ids between its
 * pid and the next one's (thread.c), fewer than EMU_PID_STRIDE of them live at once. */
enum { EMU_PID_STRIDE = 100 };
_Static_assert((int)EMU_MAX_THREADS < (int)EMU_PID_STRIDE, "a process' live tids fit below the next pid");
typedef enum thread_state {
    THREAD_FREE,     /* an unused slot (or a thread that exited) */
    THREAD_RUNNING,  /* on the hart */
    THREAD_RUNNABLE, /* waiting for the hart */
    THREAD_FUTEX,    /* in a futex wait */
    THREAD_SLEEP,    /* in nanosleep / clock_nanosleep */
    THREAD_IO,       /* in a read or write of a pipe, or a poll/select: its ecall runs again
                        when a pipe changed or its deadline passed (emu_thread_block_io) */
    THREAD_PAUSE     /* in rt_sigsuspend (pause, sigsuspend): only a signal ends it */
} thread_state;

typedef struct emu_thread {
    thread_state state;
    int32_t tid;
    hart h;
    thread_context ctx;
    uint64_t futex_addr;       /* the futex it waits on */
    uint32_t futex_bitset;     /* FUTEX_WAIT_BITSET's mask (all ones for FUTEX_WAIT) */
    uint8_t futex_pi;          /* a PI wait (thread.c PI_*): to own futex_addr, or to be requeued onto it */
    int32_t futex_pi_owner;    /* PI_LOCK / PI_REQUEUED: the tid owning futex_addr, whom it waits for */
    uint64_t futex_pi_key2;    /* PI_REQUEUE_WAIT: the PI futex FUTEX_CMP_REQUEUE_PI may move it to */
    uint64_t wait_seq;         /* when it began to wait: wakes go oldest first */
    uint64_t deadline_ns;      /* on the guest's monotonic clock; UINT64_MAX: none */
    const char *io_what;       /* THREAD_IO: what it waits in, for the deadlock line */
    bool io_retry;             /* its ecall runs again after a THREAD_IO wait (deadline kept) */
    bool io_timed_out;         /* ... and the wait's deadline passed */
    bool io_restartable;       /* ... and an SA_RESTART handler runs it again (not EINTR) */
    uint64_t restart_a0;       /* a futex wait's a0, for its restart after an SA_RESTART handler */
    uint64_t io_partial;       /* bytes a blocking pipe write wrote before it waited */
    uint64_t io_partial_bytes; /* recvmmsg: the bytes its last message (counted in io_partial) holds */
    uint64_t io_deadline;      /* a call's own deadline kept across its waits (recvmmsg's timeout): 0 none */
    uint64_t io_sigset;        /* the signals a sigtimedwait waits for (its wait ends when one comes) */
    bool io_child;             /* THREAD_IO in wait4/waitid: a child's change (SIGCHLD) runs it again */
    bool io_child_hold;        /* ... run again with every other thread waiting: it may wait on the host */
    /* THREAD_IO for descriptors only another process or the outside can make ready (a pipe a
     * child writes, a terminal): idle() waits for them on the host while the others wait; as
     * many as the call waits for (the array is the slot's, kept for its next thread) */
    struct pollfd *io_host;
    size_t io_host_n, io_host_cap;
    uint64_t sleep_rem; /* a relative nanosleep's rem (0: none): a handler's interruption writes the time left */
} emu_thread;

/* One send of a real-time signal, queued: whose pending bit it stands behind (a thread's
 * tid, 0 for the process) and its siginfo. */
typedef struct emu_queued_signal {
    int32_t sig, owner, code, pid;
    uint64_t value;
} emu_queued_signal;

typedef struct guest_fd {
    int host;      /* -1 when closed */
    bool writable; /* the guest may write through it */
    char *path;    /* for readlink of /proc/self/fd and messages */
    /* an end of a pipe the guest made (pipe2): index + 1 in emu.pipes, 0 for any other file */
    int pipe;         /* the write end when `writable` */
    bool nonblock;    /* O_NONBLOCK of a pipe end as the guest set it (the host's is always set) */
    bool cloexec;     /* FD_CLOEXEC, as F_GETFD reports it (an execve does not pass it on: process.c) */
    bool eventfd;     /* an eventfd (eventfd2): non-blocking on the host, `nonblock` the guest's, as a pipe end's */
    bool forked;      /* open at a fork: another process of the guest may hold it (an eventfd's or an epoll
                         instance's waits are then on the host) */
    bool sock_b;      /* an end of a socketpair (`pipe` names it; both ends `writable`): the second one */
    int32_t comm_tid; /* a /proc comm file opened for writing: the thread a write renames (0: none) */
    /* /dev/random or /dev/urandom (1), whose reads draw from getrandom's seeded stream, or
     * any other file (-1); 0 until the first read looks (a descriptor an execve passed on
     * is known only by its host file) */
    int8_t random_device;
} guest_fd;

/* A pipe the guest made. The host pipe (non-blocking, so a read or write that would wait
 * blocks the thread in thread.c, or ends a single thread's run, instead of hanging the
 * host) gives poll, fstat and ESPIPE;
 * `data` holds what is in it too — the guest is its only writer and reader — so a fork of
 * the emulator (a SimPoint checkpoint) can give its copy a pipe of its own. */
typedef struct guest_pipe {
    uint8_t *data;
    size_t len, cap;
    bool used;
    /* the guest forked while it existed (process.c): another process may hold its ends, so
     * `data` is no longer kept, and a read or write that must wait waits on the host */
    bool cross_process;
    /* a socketpair (AF_UNIX): a host socketpair, both ends read and write; the host keeps its
     * ends, EOF and EPIPE, so `data` is not kept (a SimPoint copy peeks a stream's bytes) */
    bool socket, dgram;
    int32_t creator_vpid; /* the process that made the socketpair (SO_PEERCRED) */
    bool copy_lost; /* splice or tee put bytes into it from where cyclescope cannot see: a SimPoint copy shares it */
} guest_pipe;

/* A child process of the guest (process.c): its virtual pid and the host process serving it. */
typedef struct emu_child {
    int32_t vpid;
    pid_t host;
    int pidfd;      /* -1 until a wait for several children opens it */
    bool announced; /* its end was signalled to the guest (SIGCHLD) */
} emu_child;

/* A MAP_SHARED mapping of a regular file (syscall.c). Its pages are a copy of
 * the file made at mmap time; the bytes the guest changed (found by comparing
 * with `snapshot`, the file's bytes as last written back) go back to the file
 * through `fd` on msync, munmap, a mapping over it and the end of the run. */
typedef struct shared_map {
    uint64_t start, len; /* guest range, page aligned */
    uint64_t off;        /* file offset of start */
    int fd;              /* a dup of the guest's descriptor; -1 when it was not open for writing */
    uint8_t *snapshot;   /* snap_len bytes from `off` (the part of the file that existed) */
    uint64_t snap_len;
    uint64_t dev, ino; /* the file, to keep read(2)/write(2) on it coherent with the mapping */
} shared_map;

/* The resources of getrlimit/setrlimit as Linux numbers them (asm-generic/resource.h, RISC-V's) */
enum { GUEST_RLIMIT_STACK = 3, GUEST_RLIMIT_NOFILE = 7, GUEST_RLIMIT_AS = 9, GUEST_RLIMITS = 16 };

struct emu {
    hart h;
    mem m;
    emu_status status;
    int exit_code;
    char error[512];
    char beyond_gc[96]; /* elf_load_info's: named when an illegal instruction ends the run */
    int fault_signal;   /* the signal Linux would have sent for the failure, 0 if none */
    uint64_t icount;

    char *path;      /* host path of the executable */
    char *exe_real;  /* its absolute path, opened for /proc/self/exe */
    char *sysroot;   /* the guest library prefix (real path), NULL for none: absolute paths the
                     * guest reads are looked up there first (emu_sysroot_path) */
    char *exec_root; /* the same prefix for execve's paths, a static program's too (emu_exec_path) */
    char *exe_seen;  /* what the guest sees as its path: exe_real, or EMU_FIXED_DIR/NAME */
    /* what the guest was started with, for its /proc/self/cmdline, environ and auxv (syscall.c):
     * the stack's ranges of argv's and envp's strings, as Linux's mm->arg_start.. env_end, and
     * a copy of the auxiliary vector (Linux's mm->saved_auxv), its AT_NULL pair included */
    uint64_t arg_start, arg_end, env_start, env_end;
    uint64_t start_stack; /* the stack pointer at entry (argc's address), stat's startstack */
    uint64_t saved_auxv[24][2];
    size_t saved_auxv_pairs;
    emu_options opt;
    char *allow_write_real;      /* realpath of opt.allow_write_dir */
    int allow_fd;                /* that directory, opened: every write is resolved beneath it */
    bool beneath_walk;           /* resolve without openat2 (CYCLESCOPE_BENEATH_WALK, for tests) */
    uint64_t warned_syscalls[8]; /* unknown call numbers below 512 already warned about */
    bool denied_notice_shown;

    uint64_t brk_start, brk_cur, brk_limit;
    uint64_t mmap_top; /* anonymous mappings are placed top-down below this */
    guest_fd fds[EMU_MAX_FDS];
    uint64_t rlim[GUEST_RLIMITS][2]; /* getrlimit's soft and hard limits; setrlimit lowers them (syscall.c) */
    shared_map *shared;              /* MAP_SHARED file mappings, unordered */
    size_t shared_count, shared_cap;
    uint64_t rng;
    thread_context ctx; /* the running thread's own state besides its registers */
    /* rt_sigaction's actions: handler (0 SIG_DFL, 1 SIG_IGN, else the guest's function), sa_flags, sa_mask */
    uint64_t sigaction_handler[65], sigaction_flags[65], sigaction_mask[65];
    /* the siginfo of each pending signal (a standard signal is pending once, as on Linux) */
    struct {
        int32_t code, pid; /* si_code; si_pid (si_uid follows it) for a signal sent by a process */
        uint64_t addr;     /* si_addr of a fault */
        uint64_t value;    /* si_value (sigqueue's; 0 for the others) */
    } sig_info[65];
    /* queued real-time signals, oldest first (signal.c emu_signal_note) */
    emu_queued_signal *rt_queue;
    size_t rt_count, rt_cap;
    /* a signal frame was set up or rt_sigreturn ran: the hart's pc is where to go on */
    bool sig_redirect;
    /* signals for the process (kill, the alarm) that every thread blocked: the first thread to
     * let one through, or a sigwait for it, takes it (Linux's shared_pending) */
    uint64_t sig_shared_pending;
    /* the time the guest asked to sleep (nanosleep, clock_nanosleep): its clocks run at
     * 1 ns per instruction plus this, so a program waiting for time to pass sees it pass */
    uint64_t slept_ns;
    /* umask(2)'s mask once the guest set one (new files: mode & ~it, then the host's) */
    uint32_t guest_umask;
    bool umask_set;
    /* setpriority's nice value of the process (-20 to 19; 0 at the start), as getpriority
     * reports it (20 - nice); a fork and an execve keep it */
    int8_t nice;
    bool keep_caps; /* prctl PR_SET_KEEPCAPS's flag, as PR_GET_KEEPCAPS reports it */
    /* the guest's working directory (chdir, fchdir), a host O_PATH descriptor; -1 while it
     * is the host process' own: cyclescope never changes its own directory */
    int cwd_fd;
    /* setitimer(ITIMER_REAL)/alarm: when SIGALRM is due on the guest's monotonic clock
     * (0: disarmed), and the interval it is re-armed with */
    uint64_t alarm_at_ns, alarm_interval_ns;
    guest_pipe *pipes;
    size_t pipe_count;
    double host_start;
    /* threads (thread.c): NULL until the first clone of a thread or futex wait */
    emu_thread *threads;
    int thread_cur, threads_live;
    int32_t next_tid;
    uint64_t quantum_end;   /* the instruction count at which the running thread is preempted */
    uint64_t wait_seq_next; /* futex waiters' order */
    bool thread_switch;     /* the system call blocked, ended or yielded the thread */
    bool syscall_retry;     /* ... blocked in THREAD_IO: its ecall runs again, a0 kept */
    bool thread_cap_warned;
    uint8_t lrsc_grace; /* instructions run past the quantum to let an LR reach its SC (thread.c) */
    /* processes (process.c): this one's virtual pid and its parent's (the guest's view), and
     * the children it forked and has not waited for */
    int32_t vpid, parent_vpid;
    pid_t parent_host; /* a child process: its parent's host pid (0 in the first process) */
    emu_child *children;
    size_t child_count, child_cap;
    /* shared by the whole process tree (process.c): the next child's number and every live
     * process' virtual and host pid; a memfd (-1 until the first fork), passed on by execve */
    struct emu_tree *tree;
    int tree_fd;
    /* its slot shows its parent, name and cmdline (emu_tree_publish): false after an execve
     * until its first system call */
    bool tree_published;
    uint64_t start_ns; /* the guest's monotonic clock when it was forked (0: the first process) */
    bool replica;      /* a forked copy of the emulator (emu_private_files: a SimPoint
                               point's): it starts no process the run itself starts */
    /* executable file mappings (emu_code_map_count); the strings are owned */
    emu_code_map *code_maps;
    size_t code_map_count, code_map_cap;
};

/* Note an executable mapping of a file (emu.c): it replaces those it overlaps. */
void emu_note_code_map(emu_t *e, const char *guest_path, const char *host_path, uint64_t start, uint64_t end,
                       uint64_t offset);

/* elf.c: place the loadable segments, return where things went. */
/* Where the dynamic loader of a dynamically linked program goes: near the mmap area's top
 * (STACK_TOP - 8 MiB stack - 128 MiB gap = 0x3ff77ff000, emu.c), as Linux places it at
 * mmap_base, with ELF_INTERP_ROOM for it; the mmap area then ends at it (emu_create), so the
 * libraries the loader maps go below it. */
#define ELF_INTERP_BASE 0x3ff0000000ull
#define ELF_INTERP_ROOM (64ull << 20)
typedef struct elf_load_info {
    uint64_t entry;       /* the program's entry point (AT_ENTRY) */
    uint64_t start;       /* where execution starts: the entry, or the interpreter's */
    uint64_t interp_base; /* AT_BASE: where the interpreter was loaded, 0 without one */
    uint64_t phdr_addr, phnum, phent, bias, brk_start;
    /* the extensions the program's Tag_RISCV_arch (.riscv.attributes) names beyond RV64GC,
     * space-separated ("zbb zba", "v"); empty when none or no attributes */
    char beyond_gc[96];
    /* the interpreter: its path as PT_INTERP names it, the file read, and its executable
     * segments as Linux maps them (emu_code_map) */
    char interp_path[256], interp_host[4096];
    struct {
        uint64_t start, end, offset;
    } interp_exec[4];
    unsigned interp_exec_count;
} elf_load_info;
/* The host file the guest means by `path` when it reads, stats or runs it: sysroot/path if
 * the path is absolute and that exists (like qemu-riscv64 -L), else path itself; with
 * --env-fixed, EMU_FIXED_DIR/REST is REST in the program's own directory. buf holds the
 * result when it is not path. */
const char *emu_sysroot_path(const emu_t *e, const char *path, char *buf, size_t size);
/* The program file an execve of `path` (or a #! interpreter) means: the same rule, for
 * every program, static ones too (as qemu-riscv64 -L: a path the prefix has is the prefix's;
 * the host's /bin/sh is x86 and would fail with ENOEXEC anyway). */
const char *emu_exec_path(const emu_t *e, const char *path, char *buf, size_t size);
/* sysroot: where a PT_INTERP's path is looked up first (NULL: on the host only). */
bool elf_load(const char *path, const char *sysroot, mem *m, elf_load_info *out, cs_error *err);

/* The guest's own process (its pid, group and session; its uid and gid): the same on any host. */
#define GUEST_PID       1000
#define GUEST_ID        1000
#define GUEST_STACK_TOP 0x3ffffff000ull /* the main thread's stack ends here (emu.c) */

/* clang-format off */
/* SIGKILL and SIGSTOP cannot be blocked (Linux drops them from any mask). */
#define SIG_UNBLOCKABLE     ((1ull << (9 - 1)) | (1ull << (19 - 1)))
#define SIG_BIT(sig)        (1ull << ((sig)-1))
/* sa_flags and si_code values of the generic Linux ABI (include/uapi/asm-generic/signal*.h) */
#define GUEST_SA_SIGINFO    0x4ull
#define GUEST_SA_ONSTACK    0x08000000ull
#define GUEST_SA_RESTART    0x10000000ull
#define GUEST_SA_NODEFER    0x40000000ull
#define GUEST_SA_RESETHAND  0x80000000ull
#define GUEST_SI_USER       0
#define GUEST_SI_KERNEL     0x80
#define GUEST_SI_TKILL      (-6)
#define GUEST_SS_ONSTACK    1
#define GUEST_SS_DISABLE    2
#define GUEST_SS_AUTODISARM (1u << 31)
#define GUEST_MINSIGSTKSZ   2048
/* clang-format on */

/* Reading and writing the guest's memory for a system call: 0, or -EFAULT where it is not
 * mapped (never into read-only code). */
static inline int64_t guest_put(emu_t *e, uint64_t addr, const void *data, size_t len) {
    return mem_user_copy_in(&e->m, addr, data, len) ? 0 : -EFAULT;
}
static inline int64_t guest_get(emu_t *e, uint64_t addr, void *data, size_t len) {
    return mem_user_copy_out(&e->m, addr, data, len) ? 0 : -EFAULT;
}

/* syscall.c */
void emu_syscall(emu_t *e);
void emu_fail(emu_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* emu_fail for a failure Linux would report to the guest with a signal. */
void emu_fault(emu_t *e, int signal, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* emu_fail when the guest's memory passed the host limit (mem.over_limit). */
void emu_fail_memory(emu_t *e);
uint64_t emu_guest_time_ns(const emu_t *e, bool monotonic);
/* Give a forked copy of the emulator pipes of its own, holding what the guest's held. */
void emu_private_pipes(emu_t *e);
/* After an execve (process.c): guest descriptor `fd`, inherited, is an AF_UNIX socket (a
 * socketpair's end the program before made): served as one, another process holding its peer. */
void emu_adopt_socket(emu_t *e, int fd);
/* Write back what the guest changed in its shared file mappings and drop them
 * (the end of the run, as the kernel does when a process ends). */
void emu_shared_release_all(emu_t *e);

/* signal.c */
/* A signal for the guest from the kernel's side (SIGPIPE: SI_USER from the process itself):
 * its default action now, or pending while blocked or until its handler can run. */
void emu_signal_send(emu_t *e, int64_t sig, const char *cause);
/* The process' pending signals the running thread lets through become its own. */
void emu_signal_claim_shared(emu_t *e);
/* SIGCHLD for the process: child `vpid` ended (si_code CLD_EXITED, CLD_KILLED, CLD_DUMPED). */
void emu_signal_child_ended(emu_t *e, int32_t vpid, int32_t code);
/* A signal's action now (default, ignored, or pending for its handler), whatever the mask. */
void emu_signal_act(emu_t *e, int64_t sig, const char *cause);
/* A signal becomes pending for `owner` (a tid; 0: the process): its siginfo kept (a
 * real-time one queued: false when the queue is full). */
bool emu_signal_note(emu_t *e, int sig, int32_t owner, bool already_pending, int32_t code, int32_t pid, uint64_t value);
/* `sig` pending in *pending for `owner` is taken (a real-time one's oldest entry is its siginfo now). */
void emu_signal_take(emu_t *e, int sig, int32_t owner, uint64_t *pending);
/* Queued entries of `sig` (0: any) of `owner` move to `to` (-1: dropped). */
void emu_signal_requeue(emu_t *e, int sig, int32_t owner, int32_t to);
/* rt_sigqueueinfo (tid -1) and rt_tgsigqueueinfo of the guest's own process. */
int64_t emu_sys_sigqueue(emu_t *e, int64_t tid, int64_t sig, uint64_t info_addr);
/* kill(2) of the guest's own process: process-directed, to the thread that can take it. */
int64_t emu_sys_kill_process(emu_t *e, int64_t sig);
int64_t emu_sys_rt_sigtimedwait(emu_t *e, uint64_t set_addr, uint64_t info_addr, uint64_t timeout_addr, uint64_t size);
/* A pending signal, not blocked, whose handler runs on the return to user mode. */
bool emu_signal_handler_ready(const emu_t *e);
/* The pending signals the mask lets through that have no handler act now. */
void emu_signal_act_now(emu_t *e);
/* The system calls of signals: kill/tgkill/tkill of itself (raise), rt_sigprocmask,
 * sigaltstack, rt_sigreturn, setitimer/getitimer. Each returns the call's result. */
int64_t emu_sys_self_signal(emu_t *e, int64_t sig, int32_t code);
int64_t emu_sys_rt_sigprocmask(emu_t *e, uint64_t how, uint64_t set_addr, uint64_t old_addr, uint64_t sigsetsize);
int64_t emu_sys_sigaltstack(emu_t *e, uint64_t ss_addr, uint64_t old_addr);
int64_t emu_sys_rt_sigreturn(emu_t *e);
int64_t emu_sys_itimer(emu_t *e, uint64_t which, uint64_t new_addr, uint64_t old_addr);
/* The guest's monotonic clock: 1 ns per instruction plus the time it slept. */
uint64_t emu_guest_clock_ns(const emu_t *e);
/* SIGALRM when the guest's clock reached the alarm (re-armed or disarmed). */
void emu_alarm_fire(emu_t *e);
/* Whether the alarm, when due, would end a wait: armed, not blocked, not ignored. */
bool emu_alarm_would_wake(const emu_t *e);
/* The instructions the guest may run before its alarm is due (UINT64_MAX: none armed),
 * and delivering it once they ran: the run loops stop there (emu.c). */
uint64_t emu_alarm_budget(const emu_t *e);
void emu_alarm_check(emu_t *e);
/* Where Linux returns to user mode with h.pc the next instruction: set up a frame for each
 * pending signal that is not blocked and has a handler (the others act as they do). */
void emu_signal_deliver(emu_t *e);
/* A synchronous fault at h.pc (SIGSEGV, SIGILL, SIGBUS, SIGTRAP): true when the guest's
 * handler was set up to run (h.pc is the handler), false when the fault kills the guest as
 * Linux would (no handler, or the signal blocked: the kernel forces the default action). */
bool emu_signal_fault(emu_t *e, int sig, int code, uint64_t addr);

/* thread.c */
#define EMU_CLONE_REFUSED INT64_MIN       /* emu_sys_clone: not a thread (syscall.c refuses it) */
#define EMU_FUTEX_FOREVER (INT64_MIN + 1) /* emu_sys_futex: a FUTEX_WAIT_REQUEUE_PI with one thread */
/* clone(flags, newsp, ptid, tls, ctid) (riscv's CONFIG_CLONE_BACKWARDS order) of a thread. */
int64_t emu_sys_clone(emu_t *e, uint64_t flags, uint64_t newsp, uint64_t ptid, uint64_t tls, uint64_t ctid);
/* exit(2) of one thread; false when it is the last one (the process ends). */
bool emu_sys_thread_exit(emu_t *e);
/* futex(2) once there are threads. */
int64_t emu_sys_futex(emu_t *e, uint64_t addr, uint64_t op_word, uint64_t val, uint64_t timeout, uint64_t addr2,
                      uint64_t val3);
/* A sleep of ns on the guest clock blocks the thread while others run; false with one thread. */
bool emu_thread_sleep(emu_t *e, uint64_t ns, uint64_t rem);
void emu_sys_sched_yield(emu_t *e);
int64_t emu_sys_tgkill(emu_t *e, int64_t tgid, int64_t tid, int64_t sig);
/* tid names a live thread of the guest (with threads only) */
bool emu_thread_is_tid(emu_t *e, int64_t tid);
int32_t emu_thread_tid(const emu_t *e);
/* Another thread runs after a system call that blocked, ended or yielded this one. */
void emu_thread_after_syscall(emu_t *e);
/* The instructions the running thread may retire before it is preempted (preempting it
 * first when its quantum is over); for the run loops when e->threads is set. */
uint64_t emu_thread_budget(emu_t *e);
/* At a chunk's end: preempt the running thread when its quantum is over. True on a switch. */
bool emu_thread_preempt(emu_t *e);
uint64_t emu_thread_quantum(const emu_t *e);
void emu_threads_free(emu_t *e);
/* A read or write of a pipe, or a poll/select, that must wait for another thread: with
 * other threads alive the running one blocks (THREAD_IO) until a pipe changes (any pipe:
 * its ecall then runs again and finds out) or `deadline_ns` on the guest clock passes
 * (UINT64_MAX: none; kept from the first wait when the call runs again). Returns 1 when it
 * blocked (the caller returns anything: a0 is kept), -EINTR when a handler is due first,
 * 0 with a single thread (the caller does what it did before threads). `restartable`: an
 * SA_RESTART handler that interrupts it runs it again (a pipe's read or write) rather than
 * making it return -EINTR (poll, select, sigtimedwait). */
int64_t emu_thread_block_io(emu_t *e, const char *what, uint64_t deadline_ns, bool restartable);
/* wait4/waitid with no child ready yet: with other threads alive the running one blocks
 * (THREAD_IO) until a child changes (emu_thread_child_changed, at the host's SIGCHLD) or
 * every other thread waits with no deadline — then the call runs again and this returns 0,
 * and the call waits on the host as with one thread. Returns as emu_thread_block_io. */
int64_t emu_thread_block_child(emu_t *e);
/* A blocking call waits for host descriptors that only another process or the outside can
 * make ready (a pipe another process of the guest writes, a terminal, epoll's instance over
 * them), until `deadline_ns` on the guest clock (UINT64_MAX: none): with other threads alive
 * the running one blocks (THREAD_IO) and they run; when every thread waits, idle() waits on
 * the host for these descriptors, a child's change and another process' signal at once, up to
 * the earliest deadline in real time, and the call runs again when one is ready or its
 * deadline passed. Returns as emu_thread_block_io (any number of descriptors: until 2026-11-29
 * more than 8 made the caller wait on the host holding every thread). */
int64_t emu_thread_block_host(emu_t *e, const char *what, const struct pollfd *fds, size_t n, uint64_t deadline_ns,
                              bool restartable);
/* A child ended, stopped or went on (the host's SIGCHLD): the threads in wait4/waitid run
 * their calls again. */
void emu_thread_child_changed(emu_t *e);
/* The running thread's THREAD_IO wait ran out (its ecall runs again to say so). */
bool emu_thread_io_timed_out(const emu_t *e);
/* The bytes a blocking pipe write wrote before it waited, and setting them. */
uint64_t emu_thread_io_partial(const emu_t *e);
void emu_thread_set_io_partial(emu_t *e, uint64_t bytes);
/* recvmmsg's MSG_WAITALL message cut by a wait: the bytes it holds (io_partial counts it) */
uint64_t emu_thread_io_partial_bytes(const emu_t *e);
void emu_thread_set_io_partial_bytes(emu_t *e, uint64_t bytes);
/* A call's own deadline on the guest clock, kept while it waits and runs again (0: none). */
uint64_t emu_thread_io_deadline(const emu_t *e);
void emu_thread_set_io_deadline(emu_t *e, uint64_t deadline_ns);
/* A pipe changed (data written or read, an end closed): THREAD_IO waiters run their call again. */
void emu_thread_pipe_changed(emu_t *e);
/* rt_sigsuspend with other threads alive: the thread waits (THREAD_PAUSE) for a signal
 * another thread sends; false with a single thread. */
bool emu_thread_pause(emu_t *e);
/* The thread a process-directed signal goes to (a slot), -1 when every thread blocks it. */
int emu_thread_signal_target(const emu_t *e, int sig);
/* A signal routed to thread `slot`, not the running one. */
bool emu_thread_signal_other(emu_t *e, int slot, int64_t sig, int32_t code, int32_t pid, uint64_t value,
                             const char *cause);
/* rt_tgsigqueueinfo to another thread: 0, -ESRCH, -EAGAIN (the queue is full). */
int64_t emu_thread_sigqueue(emu_t *e, int64_t tid, int64_t sig, int32_t code, int32_t pid, uint64_t value);
/* A process-directed signal every thread blocks: the sigtimedwaits for it run again. */
void emu_thread_sigwait_wake(emu_t *e, uint64_t bit);
/* The running thread waits in sigtimedwait for `set`. */
void emu_thread_set_sigwait(emu_t *e, uint64_t set);
/* The end of a system call once there are threads: a THREAD_IO retry is over. */
void emu_thread_syscall_end(emu_t *e);
/* Why a wait that would last forever ends the run (the end of its one-line message): with
 * threads, such waits block the thread instead (emu_thread_block_io, emu_thread_pause). */
#define EMU_SINGLE_THREAD_NOTE "the guest has a single thread"
/* The chunk of instructions the run loops run next, and what follows it (emu.c). */
uint64_t emu_next_chunk(emu_t *e, uint64_t left);
bool emu_after_chunk(emu_t *e);

/* process.c: fork and vfork (clone without CLONE_THREAD), wait4, waitid, kill of a child and
 * execve. emu_sys_fork returns EMU_CLONE_REFUSED for a clone it does not serve. */
int64_t emu_sys_fork(emu_t *e, uint64_t flags, uint64_t newsp, uint64_t ptid, uint64_t ctid);
int64_t emu_sys_wait4(emu_t *e, int64_t pid, uint64_t status_addr, uint64_t options, uint64_t rusage_addr);
int64_t emu_sys_waitid(emu_t *e, int64_t idtype, int64_t id, uint64_t info_addr, uint64_t options,
                       uint64_t rusage_addr);
/* execve of `path` (a guest path, resolved from host directory `hdir`): returns only on failure. */
int64_t emu_sys_execve(emu_t *e, int hdir, const char *guest_path, uint64_t argv_addr, uint64_t envp_addr);
/* After a fork: a read or write of a pipe both processes may hold waits on the host. */
void emu_pipes_cross_process(emu_t *e);
/* The process' threads changed (a clone, a thread's exit, an execve): the tree's table
 * lists their tids, so another process' kill of one reaches this process. */
void emu_tree_threads_changed(emu_t *e);
/* tgkill(tgid, tid, sig) and tkill(tid, sig) (tgid -1) of a thread of another process of
 * the tree: a signal for that thread, SI_TKILL (Linux's do_tkill), or ESRCH. */
int64_t emu_sys_tgkill_other(emu_t *e, int64_t tgid, int64_t tid, int64_t sig);
/* The tid of thread slot `i`, 0 when it is free (or there is no thread table). */
int32_t emu_thread_tid_at(const emu_t *e, int i);
/* Set by the host's SIGCHLD handler (installed when the guest forks with a SIGCHLD handler of
 * its own); emu_syscall then calls emu_children_check, which sends the guest its SIGCHLDs. */
extern volatile sig_atomic_t emu_host_child_ended;
void emu_children_check(emu_t *e);
/* A wait of the single thread (pause, rt_sigsuspend, a poll of nothing) that a child's
 * SIGCHLD, or in a child process its parent's signal, can end: waits on the host until a
 * handler is due or the guest ended (true); false when nothing can come. */
bool emu_wait_child_end(emu_t *e);
void emu_processes_free(emu_t *e);
/* kill(2) of another process of the guest's tree, or of its group (0, -GUEST_PID) or of
 * every process (-1): the caller's own pid and threads are syscall.c's. 0 or -errno. */
int64_t emu_sys_kill(emu_t *e, int64_t pid, int64_t sig);
/* Process groups and sessions (virtual ids in the tree's table, 1000 unless changed;
 * docs/sandbox.md §15): getpgid or getsid (`session`) of `pid` (0: the caller; a thread's id:
 * its process), setpgid, setsid as Linux's, with its errnos. */
int64_t emu_sys_getpgid(emu_t *e, int64_t pid, bool session);
int64_t emu_sys_setpgid(emu_t *e, int64_t pid, int64_t pgid);
int64_t emu_sys_setsid(emu_t *e);
/* Process `vpid`'s group and session (the caller's, or a live member's of the tree): false
 * when the tree has no such process (/proc/PID/stat). */
bool emu_process_ids(const emu_t *e, int32_t vpid, int32_t *pgid, int32_t *sid);
/* Whether `pid` is the virtual pid of a live process of the guest's tree (a zombie not yet
 * reaped included, as on Linux): getpgid, getsid. */
bool emu_is_tree_process(const emu_t *e, int64_t pid);
/* The host pid of process `pid` of the guest's tree other than the caller (a child, the
 * parent, any live member of the shared table); 0 when `pid` names none. */
pid_t emu_tree_host_pid(const emu_t *e, int64_t pid);
/* The pids of the guest's live processes — itself, its children not yet reaped, every member
 * of the tree's table — in increasing order, at most `max` (a listing of /proc): the count. */
size_t emu_tree_pids(const emu_t *e, int32_t *out, size_t max);
/* What another process of the tree reads of this one by /proc/PID (process.c's shared table,
 * written under a sequence counter so that a reader never meets half a name): its parent's
 * pid, the main thread's name, the first bytes of its cmdline, its thread count, its start on
 * the guest clock and its mappings' size (emu_identity, syscall.c, fills what it knows). */
enum { EMU_SHOWN_CMDLINE = 512 };
typedef struct emu_shown {
    int32_t vpid, ppid, threads;
    uint64_t start_ticks; /* /proc/PID/stat's starttime: the guest clock at its fork, 100 Hz */
    uint64_t vsize;       /* bytes; every page counts as resident (mincore's answer) */
    bool shared_files;    /* it has MAP_SHARED file mappings: a SIGKILL must let it write them back */
    char comm[16];
    uint32_t cmdline_len;
    char cmdline[EMU_SHOWN_CMDLINE];
} emu_shown;
/* publish this process' emu_shown (at its fork, a rename, an execve, a change of its threads
 * or mappings; nothing until the tree exists) */
void emu_tree_publish(emu_t *e);
void emu_identity(emu_t *e, emu_shown *out);
/* The process of the tree other than the caller whose host pid is `host`, as it published
 * itself — false: none. */
bool emu_tree_identity(const emu_t *e, pid_t host, emu_shown *out);
/* The top byte of a tree signal's value (emu_host_signal_send) that says the host signal
 * (SIGTERM) carries SIGKILL: for a process with shared file mappings, which ends through its
 * emulator so that its writes there reach the files, as on Linux (signal.c on_host_signal). */
#define EMU_TREE_SIGKILL_CARRIED 0xffu
/* The number a signal from another process of the tree carries (0: no tree yet). */
uint32_t emu_tree_secret(const emu_t *e);
/* Whether the tree lists a process besides this one (one that may signal it). */
bool emu_tree_has_others(const emu_t *e);
/* Every thread of the process waits (thread.c): until another process' signal came and was
 * taken (true), or false when no other live process of the tree is left to send one. */
bool emu_wait_tree_signal(emu_t *e);

/* signal.c: signals between the guest's processes. A child process receives its parent's
 * (emu_host_signals_receive, once, in the child); emu_host_signal_send is the parent's kill
 * of a child's host process. emu_host_signals_take turns what arrived (and the children's
 * ends, SIGCHLD) into guest signals: true when a handler is due or the guest ended, which
 * ends a blocking call. emu_host_wait is ppoll(fds, n) of a blocking call that such a signal
 * ends (returns -1 with *interrupted). emu_host_event_chunk caps a chunk of instructions
 * while such events can come (emu_host_events_watch: the guest catches SIGCHLD). */
void emu_host_signals_receive(emu_t *e);
/* The first process takes the kills of its tree's processes the same way (its first fork): a
 * signal from anyone else keeps the host's default action (Ctrl-C ends the run). */
void emu_host_signals_receive_from_tree(emu_t *e);
bool emu_host_signals_received(void);
/* A kill from this process to host process `host`, through `pidfd` when it is one (>= 0):
 * the guest's signal travels as a host sigqueue whose value is `tag` (the tree's secret << 32
 * | the sender's virtual pid). 0 or -errno. */
int64_t emu_host_signal_send(pid_t host, int pidfd, uint64_t tag, int64_t sig);
bool emu_host_signals_take(emu_t *e);
struct pollfd;
int emu_host_wait(emu_t *e, struct pollfd *fds, size_t n, bool *interrupted);
/* Until a signal from another process (or a child's end) arrived, then taken (sigwait). */
void emu_host_wait_arrival(emu_t *e);
/* The same, or until one of `fds` is readable (false then: nothing was taken). */
bool emu_host_wait_arrival_or(emu_t *e, struct pollfd *fds, size_t n);
struct timespec;
/* The same, giving up after `timeout` (NULL: none). */
bool emu_host_wait_arrival_for(emu_t *e, struct pollfd *fds, size_t n, const struct timespec *timeout);
/* Every thread waits, for a child (`child_waiter`: a thread is in wait4/waitid) or for host
 * descriptors `more` (n_more of them), the earliest deadline `ns` of guest time away
 * (UINT64_MAX: none): the host waits up to that long in real time for a child to change, one
 * of `more` to be ready or another process' signal, as the guest's time passes while its
 * children and the outside run. The real time waited, at most `ns`. */
uint64_t emu_wait_host_for(emu_t *e, bool child_waiter, struct pollfd *more, size_t n_more, uint64_t ns);
void emu_host_events_watch(void);
uint64_t emu_host_event_chunk(uint64_t budget);
/* This host process ends by `sig` as by the kernel's default action, without a core file
 * (128 + sig if it survives it): a guest process' death by a signal, seen by its parent's wait. */
_Noreturn void emu_die_by_signal(int sig);
/* A blocking call a signal with a handler interrupted: -EINTR, or run again after the
 * handler when it has SA_RESTART (Linux's ERESTARTSYS; emu_syscall decides). */
#define EMU_ERESTARTSYS    512
/* ... and run again after the handler whatever its flags (Linux's ERESTARTNOINTR: FUTEX_LOCK_PI) */
#define EMU_ERESTARTNOINTR 513

/* exec.c */
uint64_t emu_exec_fast(emu_t *e, uint64_t max);
uint64_t emu_exec_record(emu_t *e, uop *out, uint64_t max);
uint64_t emu_exec_bbv(emu_t *e, emu_bbv *bb, uint64_t max);

#endif
