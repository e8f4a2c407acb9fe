/* Signals of the guest: sending (to the running thread, or routed by thread.c for the
 * process), queueing real-time ones, blocking and delivering them (default
 * actions, handlers on the kernel's riscv64 signal frame, rt_sigreturn, the alternate
 * stack, faults a handler catches), and the setitimer alarm on the guest's clock that
 * sends SIGALRM. The system calls that reach here are dispatched by syscall.c. */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "emu_internal.h"

/* The riscv64 signal frame, `struct rt_sigframe { siginfo_t info; struct ucontext uc; }`
 * (arch/riscv/kernel/signal.c, arch/riscv/include/uapi/asm/{ucontext,sigcontext}.h):
 * siginfo 128 bytes; ucontext: uc_flags, uc_link, uc_stack (24 bytes), uc_sigmask padded
 * to 128 bytes, then uc_mcontext 16-byte aligned at 176: user_regs_struct (pc, x1..x31)
 * and the FP state in its Q-sized union (f[32] of the D state and fcsr, the rest zero, 528
 * bytes). Without the V extension nothing follows: 1088 bytes, a multiple of 16. */
enum {
    FRAME_INFO = 0,
    FRAME_UC = 128,
    UC_STACK = 16,
    UC_SIGMASK = 40,
    UC_MCONTEXT = 176,
    MC_FPREGS = 256,
    MC_FCSR = MC_FPREGS + 32 * 8,
    FRAME_SIZE = FRAME_UC + UC_MCONTEXT + MC_FPREGS + 528,
};

/* A signal's action once it is delivered (not blocked). */
static void deliver_signal(emu_t *e, int64_t sig, const char *cause);

static bool has_handler(const emu_t *e, int64_t sig) { return e->sigaction_handler[sig] > 1; }

/* The process-wide pending signals the running thread does not block become its own (the
 * kernel's dequeue_signal takes from the shared queue too): at its mask's changes and when
 * it takes the hart. */
void emu_signal_claim_shared(emu_t *e) {
    uint64_t take = e->sig_shared_pending & ~e->ctx.sig_blocked;
    if (__builtin_expect(!take, 1)) return;
    e->sig_shared_pending &= ~take;
    e->ctx.sig_pending |= take;
    for (uint64_t rt = take >> 31; rt; rt &= rt - 1) /* bits of signals 32..64 */
        emu_signal_requeue(e, __builtin_ctzll(rt) + 32, 0, emu_thread_tid(e));
}

/* A pending signal, not blocked, that runs a handler when the guest returns to user mode. */
bool emu_signal_handler_ready(const emu_t *e) {
    for (uint64_t ready = e->ctx.sig_pending & ~e->ctx.sig_blocked; ready; ready &= ready - 1)
        if (has_handler(e, __builtin_ctzll(ready) + 1)) return true;
    return false;
}

/* A signal for the guest: delivered, or pending while it is blocked. One with a handler is
 * pending until the guest returns to user mode (emu_signal_deliver). */
static void signal_guest_from(emu_t *e, int64_t sig, const char *cause, int32_t code, int32_t pid, uint64_t value) {
    uint64_t bit = SIG_BIT(sig);
    if ((e->ctx.sig_blocked & bit) || has_handler(e, sig)) {
        emu_signal_note(e, (int)sig, emu_thread_tid(e), (e->ctx.sig_pending & bit) != 0, code, pid, value);
        e->ctx.sig_pending |= bit;
    } else {
        deliver_signal(e, sig, cause);
    }
}

/* Real-time signals (32..64; glibc's SIGRTMIN is 34) are queued, one entry per send, each
 * with its siginfo, and delivered in the order sent (kernel/signal.c __send_signal; the
 * entries beyond RT_QUEUE_MAX are refused, as beyond RLIMIT_SIGPENDING); a standard signal
 * already pending is not queued twice and keeps its first siginfo. */
enum { SIGRT_FIRST = 32, RT_QUEUE_MAX = 1024 };

bool emu_signal_note(emu_t *e, int sig, int32_t owner, bool already_pending, int32_t code, int32_t pid,
                     uint64_t value) {
    if (sig >= SIGRT_FIRST) {
        if (e->rt_count == RT_QUEUE_MAX) return false;
        if (e->rt_count == e->rt_cap) {
            e->rt_cap = e->rt_cap ? 2 * e->rt_cap : 16;
            e->rt_queue = cs_realloc(e->rt_queue, e->rt_cap * sizeof *e->rt_queue);
        }
        e->rt_queue[e->rt_count++] = (emu_queued_signal){sig, owner, code, pid, value};
    }
    if (!already_pending) {
        e->sig_info[sig].code = code;
        e->sig_info[sig].pid = pid;
        e->sig_info[sig].addr = 0;
        e->sig_info[sig].value = value;
    }
    return true;
}

/* Signal `sig` pending in *pending for `owner` (a tid; 0: the process) is taken: a real-time
 * one's oldest entry becomes its siginfo, and it stays pending while others are queued. */
void emu_signal_take(emu_t *e, int sig, int32_t owner, uint64_t *pending) {
    *pending &= ~SIG_BIT(sig);
    if (sig < SIGRT_FIRST) return;
    bool found = false;
    for (size_t i = 0; i < e->rt_count; i++) {
        emu_queued_signal *q = &e->rt_queue[i];
        if (q->sig != sig || q->owner != owner) continue;
        if (found) { /* another one waits */
            *pending |= SIG_BIT(sig);
            return;
        }
        e->sig_info[sig].code = q->code;
        e->sig_info[sig].pid = q->pid;
        e->sig_info[sig].addr = 0;
        e->sig_info[sig].value = q->value;
        memmove(q, q + 1, (e->rt_count - i - 1) * sizeof *q);
        e->rt_count--;
        i--;
        found = true;
    }
}

/* The queued entries of `sig` (all: 0) owned by `owner` move to `to` (-1: dropped). */
void emu_signal_requeue(emu_t *e, int sig, int32_t owner, int32_t to) {
    size_t kept = 0;
    for (size_t i = 0; i < e->rt_count; i++) {
        emu_queued_signal q = e->rt_queue[i];
        if ((sig == 0 || q.sig == sig) && q.owner == owner) {
            if (to < 0) continue;
            q.owner = to;
        }
        e->rt_queue[kept++] = q;
    }
    e->rt_count = kept;
}

/* A signal for the process (kill of the process, the alarm): with several threads, the
 * one thread.c picks takes it (emu_thread_signal_target); while every thread blocks it, it
 * is pending for the process, until a thread unblocks it or sigwait takes it. */
static bool signal_process_from(emu_t *e, int64_t sig, const char *cause, int32_t code, int32_t pid, uint64_t value) {
    if (e->threads && e->threads_live > 1) {
        int target = emu_thread_signal_target(e, (int)sig);
        if (target < 0) {
            uint64_t bit = SIG_BIT(sig);
            if (!emu_signal_note(e, (int)sig, 0, (e->sig_shared_pending & bit) != 0, code, pid, value)) return false;
            e->sig_shared_pending |= bit;
            emu_thread_sigwait_wake(e, bit);
            return true;
        }
        if (target != e->thread_cur) return emu_thread_signal_other(e, target, sig, code, pid, value, cause);
    }
    if (sig >= SIGRT_FIRST && e->rt_count == RT_QUEUE_MAX) return false;
    signal_guest_from(e, sig, cause, code, pid, value);
    return true;
}

/* As the kernel fills siginfo for a signal without one (SIGPIPE: SI_USER from the process). */
void emu_signal_send(emu_t *e, int64_t sig, const char *cause) {
    signal_guest_from(e, sig, cause, GUEST_SI_USER, e->vpid, 0);
}

void emu_signal_act(emu_t *e, int64_t sig, const char *cause) { deliver_signal(e, sig, cause); }

void emu_signal_child_ended(emu_t *e, int32_t vpid, int32_t code) {
    signal_process_from(e, SIGCHLD, "sent because a child ended", code, vpid, 0);
}

int64_t emu_sys_self_signal(emu_t *e, int64_t sig, int32_t code) {
    if (sig == 0) return 0;
    if (sig < 1 || sig > 64) return -EINVAL;
    /* blocked: pending until rt_sigprocmask unblocks it (glibc's raise() blocks every
     * signal around its tgkill, so the program's own mask decides at the restore) */
    signal_guest_from(e, sig, "sent by the program itself", code, e->vpid, 0);
    return 0;
}

int64_t emu_sys_kill_process(emu_t *e, int64_t sig) {
    if (sig == 0) return 0;
    if (sig < 1 || sig > 64) return -EINVAL;
    signal_process_from(e, sig, "sent by the program itself", GUEST_SI_USER, e->vpid, 0);
    return 0;
}

/* rt_sigqueueinfo(tgid, sig, uinfo) and rt_tgsigqueueinfo(tgid, tid, sig, uinfo) (sigqueue,
 * pthread_sigqueue) of the guest's own process: the siginfo the program gave (si_code
 * negative: SI_QUEUE; si_pid; si_value), to the process or the thread named (tid; -1 for the
 * process). -EAGAIN when the queue is full. */
int64_t emu_sys_sigqueue(emu_t *e, int64_t tid, int64_t sig, uint64_t info_addr) {
    if (sig < 0 || sig > 64) return -EINVAL;
    uint8_t info[128];
    if (guest_get(e, info_addr, info, sizeof info)) return -EFAULT;
    int32_t code, pid;
    uint64_t value;
    memcpy(&code, info + 8, 4);
    memcpy(&pid, info + 16, 4);
    memcpy(&value, info + 24, 8);
    if (code >= 0 || code == GUEST_SI_TKILL) return -EPERM; /* not the kernel's, nor tgkill's */
    if (sig == 0) return 0;
    const char *cause = "sent by the program itself (sigqueue)";
    if (tid < 0) return signal_process_from(e, sig, cause, code, pid, value) ? 0 : -EAGAIN;
    if (tid != emu_thread_tid(e)) return emu_thread_sigqueue(e, tid, sig, code, pid, value);
    if (sig >= SIGRT_FIRST && e->rt_count == RT_QUEUE_MAX) return -EAGAIN;
    signal_guest_from(e, sig, cause, code, pid, value);
    return 0;
}

/* A signal reaches the guest (`cause` says from where, for the messages). */
static void deliver_signal(emu_t *e, int64_t sig, const char *cause) {
    uint64_t handler = e->sigaction_handler[sig];
    if (handler == 1) return; /* SIG_IGN */
    /* a handler: its frame is set up on the way back to user mode */
    if (handler != 0) {
        e->ctx.sig_pending |= SIG_BIT(sig);
        return;
    }
    /* Default actions that do nothing (SIGCHLD, SIGURG, SIGWINCH, SIGCONT). */
    if (sig == 17 || sig == 23 || sig == 28 || sig == 18) return;
    /* killed by the signal, as by a fault: the guest did not exit (a JSON "fault", exit
     * 128 + signal, said once by the caller), whatever sent it (abort() raises SIGABRT) */
    const char *abbrev = sigabbrev_np((int)sig);
    emu_fault(e, (int)sig, "killed by signal SIG%s (%s), %s at pc 0x%" PRIx64, abbrev ? abbrev : "?",
              strsignal((int)sig), cause, e->h.pc);
}

/* The pending signals the mask lets through whose action is not a handler act now (lowest
 * number first, as Linux); those with a handler wait for the return to user mode. */
void emu_signal_act_now(emu_t *e) {
    uint64_t ready = e->ctx.sig_pending & ~e->ctx.sig_blocked;
    while (ready && e->status == EMU_RUNNING) {
        int64_t sig = __builtin_ctzll(ready) + 1;
        ready &= ~SIG_BIT(sig);
        if (has_handler(e, sig)) continue;
        emu_signal_take(e, (int)sig, emu_thread_tid(e), &e->ctx.sig_pending);
        deliver_signal(e, sig, "pending while blocked");
    }
}

/* rt_sigprocmask(how, set, oldset, sigsetsize) of the one thread: the mask is kept so a
 * signal the guest sends itself while it is blocked waits, and is delivered (lowest
 * number first, as Linux) when the mask lets it through. */
int64_t emu_sys_rt_sigprocmask(emu_t *e, uint64_t how, uint64_t set_addr, uint64_t old_addr, uint64_t sigsetsize) {
    if (sigsetsize != 8) return -EINVAL;
    uint64_t set = 0;
    if (set_addr) {
        if (how > 2) return -EINVAL; /* SIG_BLOCK 0, SIG_UNBLOCK 1, SIG_SETMASK 2 */
        if (guest_get(e, set_addr, &set, 8)) return -EFAULT;
    }
    if (old_addr && guest_put(e, old_addr, &e->ctx.sig_blocked, 8)) return -EFAULT;
    if (!set_addr) return 0;
    if (how == 0) e->ctx.sig_blocked |= set;
    else if (how == 1) e->ctx.sig_blocked &= ~set;
    else e->ctx.sig_blocked = set;
    e->ctx.sig_blocked &= ~SIG_UNBLOCKABLE;
    emu_signal_claim_shared(e);
    emu_signal_act_now(e);
    return 0;
}

/* on_sig_stack() of the kernel: sp within the alternate stack (it grows down from its top);
 * never with SS_AUTODISARM, which is disarmed while it is in use */
static bool on_altstack(const emu_t *e, uint64_t sp) {
    if (e->ctx.altstack_autodisarm) return false;
    return e->ctx.altstack_size && sp > e->ctx.altstack_sp && sp - e->ctx.altstack_sp <= e->ctx.altstack_size;
}

static uint32_t altstack_flags(const emu_t *e, uint64_t sp) {
    if (!e->ctx.altstack_size) return GUEST_SS_DISABLE;
    return (on_altstack(e, sp) ? GUEST_SS_ONSTACK : 0) | (e->ctx.altstack_autodisarm ? GUEST_SS_AUTODISARM : 0);
}

static void put_stack_t(uint8_t *at, uint64_t sp, uint32_t flags, uint64_t size) {
    memset(at, 0, 24);
    memcpy(at, &sp, 8);
    memcpy(at + 8, &flags, 4);
    memcpy(at + 16, &size, 8);
}

/* do_sigaltstack(): a new stack `ss` (24 bytes, stack_t) while sp is not on the current one.
 * Returns 0 or -errno. */
static int64_t set_altstack(emu_t *e, const uint8_t *ss, uint64_t sp) {
    uint64_t ss_sp, ss_size;
    uint32_t flags;
    memcpy(&ss_sp, ss, 8);
    memcpy(&flags, ss + 8, 4);
    memcpy(&ss_size, ss + 16, 8);
    if (on_altstack(e, sp)) return -EPERM;
    bool autodisarm = flags & GUEST_SS_AUTODISARM;
    flags &= ~GUEST_SS_AUTODISARM;
    if (flags != 0 && flags != GUEST_SS_DISABLE && flags != GUEST_SS_ONSTACK) return -EINVAL;
    if (flags == GUEST_SS_DISABLE) ss_sp = ss_size = 0;
    else if (ss_size < GUEST_MINSIGSTKSZ) return -ENOMEM;
    e->ctx.altstack_sp = ss_sp;
    e->ctx.altstack_size = ss_size;
    e->ctx.altstack_autodisarm = flags != GUEST_SS_DISABLE && autodisarm;
    return 0;
}

/* sigaltstack(ss, old_ss) */
int64_t emu_sys_sigaltstack(emu_t *e, uint64_t ss_addr, uint64_t old_addr) {
    uint64_t sp = e->h.x[2];
    uint8_t old[24], ss[24];
    put_stack_t(old, e->ctx.altstack_sp, altstack_flags(e, sp), e->ctx.altstack_size);
    if (ss_addr) {
        if (guest_get(e, ss_addr, ss, sizeof ss)) return -EFAULT;
        int64_t r = set_altstack(e, ss, sp);
        if (r) return r;
    }
    return old_addr && guest_put(e, old_addr, old, sizeof old) ? -EFAULT : 0;
}

/* The kernel's force_sigsegv() when a frame cannot be written or read: killed by SIGSEGV. */
static void frame_fault(emu_t *e, int64_t sig, const char *what, uint64_t at) {
    const char *abbrev = sig ? sigabbrev_np((int)sig) : NULL;
    emu_fault(e, SIGSEGV,
              "killed by signal SIGSEGV (Segmentation fault): the frame of %s%s could not be %s at 0x%" PRIx64
              " (pc 0x%" PRIx64 ")",
              sig ? "signal SIG" : "a signal handler", sig ? (abbrev ? abbrev : "?") : "", what, at, e->h.pc);
}

/* setup_rt_frame() of arch/riscv/kernel/signal.c: the frame below sp (or at the top of the
 * alternate stack for SA_ONSTACK), 16-byte aligned, no red zone; `old_mask` is the mask
 * the handler's rt_sigreturn restores. Then handle_signal()'s mask: sa_mask, and the
 * signal itself unless SA_NODEFER. */
static void setup_frame(emu_t *e, int64_t sig, uint64_t old_mask) {
    uint64_t handler = e->sigaction_handler[sig], flags = e->sigaction_flags[sig];
    if (flags & GUEST_SA_RESETHAND) e->sigaction_handler[sig] = 0; /* SA_ONESHOT: default from now */
    uint64_t sp = e->h.x[2];
    bool was_on_altstack = on_altstack(e, sp);
    uint8_t f[FRAME_SIZE];
    memset(f, 0, sizeof f);
    put_stack_t(f + FRAME_UC + UC_STACK, e->ctx.altstack_sp, altstack_flags(e, sp) & ~GUEST_SS_AUTODISARM,
                e->ctx.altstack_size);
    if ((flags & GUEST_SA_ONSTACK) && e->ctx.altstack_size && !was_on_altstack)
        sp = e->ctx.altstack_sp + e->ctx.altstack_size;
    /* __save_altstack(): with SS_AUTODISARM the stack is disarmed once saved in the frame */
    if (e->ctx.altstack_autodisarm) e->ctx.altstack_sp = e->ctx.altstack_size = 0, e->ctx.altstack_autodisarm = false;
    uint64_t frame = (sp - FRAME_SIZE) & ~15ull;
    if (was_on_altstack && !on_altstack(e, frame)) { /* the alternate stack overflowed */
        frame_fault(e, sig, "written (the alternate signal stack is full)", frame);
        return;
    }
    /* siginfo: si_signo, si_errno, si_code, then si_pid and si_uid, or si_addr of a fault */
    int32_t info[3] = {(int32_t)sig, 0, e->sig_info[sig].code};
    memcpy(f + FRAME_INFO, info, sizeof info);
    if (e->sig_info[sig].code > 0) { /* from the kernel: a fault's address (0 for SI_KERNEL) */
        memcpy(f + FRAME_INFO + 16, &e->sig_info[sig].addr, 8);
    } else { /* sent by a process (SI_USER, SI_TKILL): its pid and uid */
        int32_t ids[2] = {e->sig_info[sig].pid, e->sig_info[sig].pid ? GUEST_ID : 0};
        memcpy(f + FRAME_INFO + 16, ids, sizeof ids);
        memcpy(f + FRAME_INFO + 24, &e->sig_info[sig].value, 8); /* si_value (sigqueue's) */
    }
    memcpy(f + FRAME_UC + UC_SIGMASK, &old_mask, 8);
    uint8_t *mc = f + FRAME_UC + UC_MCONTEXT;
    memcpy(mc, &e->h.pc, 8);
    memcpy(mc + 8, &e->h.x[1], 31 * 8);
    memcpy(mc + MC_FPREGS, e->h.f, 32 * 8);
    uint32_t fcsr = (e->h.frm << 5) | e->h.fflags;
    memcpy(mc + MC_FCSR, &fcsr, 4);
    if (guest_put(e, frame, f, sizeof f)) {
        frame_fault(e, sig, "written", frame);
        return;
    }
    e->h.pc = handler;
    e->h.x[1] = EMU_SIGRETURN_PAGE; /* ra: `li a7, 139; ecall` */
    e->h.x[2] = frame;
    e->h.x[10] = (uint64_t)sig;
    e->h.x[11] = frame + FRAME_INFO;
    e->h.x[12] = frame + FRAME_UC;
    e->ctx.sig_blocked |= e->sigaction_mask[sig] | ((flags & GUEST_SA_NODEFER) ? 0 : SIG_BIT(sig));
    e->ctx.sig_blocked &= ~SIG_UNBLOCKABLE;
}

void emu_signal_deliver(emu_t *e) {
    while (e->status == EMU_RUNNING) {
        uint64_t ready = e->ctx.sig_pending & ~e->ctx.sig_blocked;
        if (!ready) break;
        int64_t sig = __builtin_ctzll(ready) + 1;
        emu_signal_take(e, (int)sig, emu_thread_tid(e), &e->ctx.sig_pending);
        if (!has_handler(e, sig)) {
            deliver_signal(e, sig, "pending while blocked");
            continue;
        }
        /* each further signal gets its frame on top, so its handler runs first (as the
         * kernel's loop on the way back to user mode does) */
        uint64_t old_mask = e->ctx.sig_restore_mask ? e->ctx.sig_saved_mask : e->ctx.sig_blocked;
        e->ctx.sig_restore_mask = false;
        setup_frame(e, sig, old_mask);
        e->sig_redirect = true;
    }
    if (e->ctx.sig_restore_mask) { /* rt_sigsuspend woke with no handler to run */
        e->ctx.sig_blocked = e->ctx.sig_saved_mask;
        e->ctx.sig_restore_mask = false;
    }
}

bool emu_signal_fault(emu_t *e, int sig, int code, uint64_t addr) {
    /* force_sig_fault(): blocked or not handled, the kernel kills with it */
    if (!has_handler(e, sig) || (e->ctx.sig_blocked & SIG_BIT(sig)) || e->status != EMU_RUNNING) return false;
    e->sig_info[sig].code = code;
    e->sig_info[sig].pid = 0;
    e->sig_info[sig].addr = addr;
    e->sig_info[sig].value = 0;
    setup_frame(e, sig, e->ctx.sig_blocked);
    if (e->status != EMU_RUNNING) return true; /* killed while writing the frame: said once */
    e->sig_redirect = true;
    /* other signals that came meanwhile are set up on top, as on the way back to user mode */
    emu_signal_deliver(e);
    return true;
}

/* rt_sigreturn(): registers, FP state, mask and alternate stack back from the frame at sp,
 * as the handler left them (it may have changed them). The result is the restored a0. */
int64_t emu_sys_rt_sigreturn(emu_t *e) {
    uint64_t frame = e->h.x[2];
    uint8_t f[FRAME_SIZE];
    if (guest_get(e, frame, f, sizeof f)) {
        frame_fault(e, 0, "read back by rt_sigreturn", frame);
        return 0;
    }
    uint64_t mask;
    memcpy(&mask, f + FRAME_UC + UC_SIGMASK, 8);
    e->ctx.sig_blocked = mask & ~SIG_UNBLOCKABLE;
    emu_signal_claim_shared(e);
    const uint8_t *mc = f + FRAME_UC + UC_MCONTEXT;
    memcpy(&e->h.pc, mc, 8);
    memcpy(&e->h.x[1], mc + 8, 31 * 8);
    memcpy(e->h.f, mc + MC_FPREGS, 32 * 8);
    uint32_t fcsr;
    memcpy(&fcsr, mc + MC_FCSR, 4);
    e->h.fflags = fcsr & 0x1f;
    e->h.frm = (fcsr >> 5) & 7;
    /* restore_altstack(): the stack saved in the frame, unless the handler runs on the
     * alternate stack (do_sigaltstack's EPERM, ignored) */
    set_altstack(e, f + FRAME_UC + UC_STACK, frame);
    e->sig_redirect = true;
    return (int64_t)e->h.x[10];
}

/* The alarm runs on the guest's own clock (1 ns per instruction plus its sleeps, also
 * with --host-time): SIGALRM is due after the instruction that brings the clock to it. */
uint64_t emu_guest_clock_ns(const emu_t *e) { return e->icount + e->slept_ns; }

uint64_t emu_alarm_budget(const emu_t *e) {
    if (!e->alarm_at_ns) return UINT64_MAX;
    uint64_t now = emu_guest_clock_ns(e);
    return e->alarm_at_ns > now ? e->alarm_at_ns - now : 0;
}

/* SIGALRM once the guest clock reached the alarm (re-armed or disarmed), from the
 * kernel's timer (SI_KERNEL). */
void emu_alarm_fire(emu_t *e) {
    if (!e->alarm_at_ns || e->status != EMU_RUNNING) return;
    uint64_t now = emu_guest_clock_ns(e);
    if (now < e->alarm_at_ns) return;
    if (!e->alarm_interval_ns) e->alarm_at_ns = 0;
    else if ((e->alarm_at_ns += e->alarm_interval_ns) <= now) e->alarm_at_ns = now + e->alarm_interval_ns;
    signal_process_from(e, SIGALRM, "sent when the timer of setitimer/alarm ran out", GUEST_SI_KERNEL, 0, 0);
}

/* Between two chunks of instructions: the alarm, and its handler set up to run next. */
void emu_alarm_check(emu_t *e) {
    emu_alarm_fire(e);
    if (e->status == EMU_RUNNING) emu_host_signals_take(e); /* another process' signal, a child's end */
    if (e->status == EMU_RUNNING && emu_signal_handler_ready(e)) emu_signal_deliver(e);
    e->sig_redirect = false; /* h.pc is where the next chunk starts */
}

/* setitimer/getitimer (struct itimerval: interval, then value, each seconds and
 * microseconds). ITIMER_REAL only: the others count CPU time the guest does not have. */
int64_t emu_sys_itimer(emu_t *e, uint64_t which, uint64_t new_addr, uint64_t old_addr) {
    if (which > 2) return -EINVAL;
    if (which != 0) return -ENOSYS;
    if (old_addr) {
        uint64_t left = emu_alarm_budget(e);
        if (left == UINT64_MAX) left = 0;
        else if (left == 0) left = 1000; /* due now: Linux reports a running timer as at least 1 µs */
        int64_t old[4] = {(int64_t)(e->alarm_interval_ns / 1000000000ull),
                          (int64_t)(e->alarm_interval_ns % 1000000000ull / 1000), (int64_t)(left / 1000000000ull),
                          (int64_t)((left % 1000000000ull + 999) / 1000)}; /* a partial µs counts as one */
        if (old[3] == 1000000) old[2]++, old[3] = 0;
        if (guest_put(e, old_addr, old, sizeof old)) return -EFAULT;
    }
    if (!new_addr) return 0;
    int64_t v[4];
    if (guest_get(e, new_addr, v, sizeof v)) return -EFAULT;
    for (int i = 0; i < 4; i += 2)
        if (v[i] < 0 || v[i + 1] < 0 || v[i + 1] > 999999) return -EINVAL;
    uint64_t limit = UINT64_MAX / 4000000000ull; /* seconds far beyond any run */
    uint64_t interval = ((uint64_t)v[0] > limit ? limit : (uint64_t)v[0]) * 1000000000ull + (uint64_t)v[1] * 1000;
    uint64_t value = ((uint64_t)v[2] > limit ? limit : (uint64_t)v[2]) * 1000000000ull + (uint64_t)v[3] * 1000;
    e->alarm_interval_ns = value ? interval : 0;
    e->alarm_at_ns = value ? emu_guest_clock_ns(e) + value : 0;
    return 0;
}

/* rt_sigtimedwait(set, info, timeout, sigsetsize) (sigwait, sigwaitinfo, sigtimedwait): a
 * signal of `set` pending for the thread or the process is taken (lowest number first, the
 * thread's first, as the kernel's dequeue_signal) and its number returned, its siginfo
 * written; none: -EAGAIN at once for a zero timeout, else the thread waits (thread.c) until
 * one comes or the timeout runs out (-EAGAIN); with one thread a timeout passes on the
 * guest clock, and a wait without one for a signal that cannot come ends the run. */
int64_t emu_sys_rt_sigtimedwait(emu_t *e, uint64_t set_addr, uint64_t info_addr, uint64_t timeout_addr, uint64_t size) {
    if (size != 8) return -EINVAL;
    uint64_t set;
    if (guest_get(e, set_addr, &set, 8)) return -EFAULT;
    set &= ~SIG_UNBLOCKABLE;
    uint64_t timeout_ns = UINT64_MAX;
    if (timeout_addr) {
        int64_t ts[2];
        if (guest_get(e, timeout_addr, ts, sizeof ts)) return -EFAULT;
        if (ts[0] < 0 || ts[1] < 0 || ts[1] > 999999999) return -EINVAL;
        timeout_ns = (uint64_t)ts[0] > UINT64_MAX / 2000000000ull ? UINT64_MAX / 2
                                                                  : (uint64_t)ts[0] * 1000000000ull + (uint64_t)ts[1];
    }
    for (;;) {
        uint64_t own = e->ctx.sig_pending & set, shared = e->sig_shared_pending & set;
        if (own || shared) {
            int64_t sig = __builtin_ctzll(own ? own : shared) + 1;
            if (own) emu_signal_take(e, (int)sig, emu_thread_tid(e), &e->ctx.sig_pending);
            else emu_signal_take(e, (int)sig, 0, &e->sig_shared_pending);
            if (info_addr) {
                uint8_t info[128] = {0};
                int32_t head[3] = {(int32_t)sig, 0, e->sig_info[sig].code};
                memcpy(info, head, sizeof head);
                if (e->sig_info[sig].code > 0) memcpy(info + 16, &e->sig_info[sig].addr, 8);
                else {
                    int32_t ids[2] = {e->sig_info[sig].pid, e->sig_info[sig].pid ? GUEST_ID : 0};
                    memcpy(info + 16, ids, sizeof ids);
                    memcpy(info + 24, &e->sig_info[sig].value, 8);
                }
                if (guest_put(e, info_addr, info, sizeof info)) return -EFAULT;
            }
            return sig;
        }
        if (timeout_ns == 0 || emu_thread_io_timed_out(e)) return -EAGAIN;
        uint64_t now = emu_guest_clock_ns(e);
        uint64_t deadline = timeout_ns == UINT64_MAX ? UINT64_MAX : now + timeout_ns;
        int64_t waits = emu_thread_block_io(e, "in sigtimedwait", deadline, false);
        if (waits) {
            if (waits > 0) emu_thread_set_sigwait(e, set);
            return waits < 0 ? waits : 0;
        }
        /* one thread: only the alarm can come, at its time on the guest clock */
        uint64_t due = emu_alarm_budget(e);
        bool alarm_counts = due != UINT64_MAX && e->sigaction_handler[SIGALRM] != 1 &&
            ((set & SIG_BIT(SIGALRM)) || !(e->ctx.sig_blocked & SIG_BIT(SIGALRM)));
        if (!alarm_counts && timeout_ns == UINT64_MAX && emu_host_signals_received()) {
            emu_host_wait_arrival(e); /* a child process: its parent's kill may bring it */
            if (e->status != EMU_RUNNING) return 0;
            if (emu_signal_handler_ready(e)) return -EINTR;
            continue;
        }
        if (!alarm_counts || due > timeout_ns) {
            if (timeout_ns == UINT64_MAX) {
                emu_fail(e, "sigwait would wait forever: no signal it waits for can arrive, and %s (pc 0x%" PRIx64 ")",
                         EMU_SINGLE_THREAD_NOTE, e->h.pc);
                return -EDEADLK;
            }
            e->slept_ns += timeout_ns;
            return -EAGAIN;
        }
        e->slept_ns += due;
        if (timeout_ns != UINT64_MAX) timeout_ns -= due;
        emu_alarm_fire(e);
        if (e->status != EMU_RUNNING) return 0;
        if (emu_signal_handler_ready(e)) return -EINTR; /* an alarm it does not wait for, with a handler */
    }
}

/* Whether the alarm, when due, would end a wait: it is armed, not blocked, not ignored. */
bool emu_alarm_would_wake(const emu_t *e) {
    return e->alarm_at_ns && !(e->ctx.sig_blocked & (1ull << (SIGALRM - 1))) && e->sigaction_handler[SIGALRM] != 1;
}

/* ---- signals from the guest's other processes (docs/sandbox.md §15) ----
 *
 * A process of the guest (a host process of cyclescope: process.c) receives the signals
 * another process of its tree sends as host signals (a sigqueue, through a pidfd, whose
 * value carries the tree's secret and the sender's virtual pid). The host handler only
 * notes them; the emulator turns them into guest signals (emu_host_signals_take) at its
 * next system call, between chunks of at most HOST_EVENT_CHUNK instructions, and in the
 * host waits that stand for a guest's blocking call (emu_host_wait), so the guest's own
 * disposition and mask decide, through the in-process delivery above. Two cases act in the
 * handler itself, as the kernel acts at once: a signal the guest ignores is dropped (the
 * kernel discards it when sent), and one whose default action ends the process, not
 * blocked, ends it now by the same host signal (its parent's wait sees WIFSIGNALED; a host
 * call blocked on a terminal or a file never stands in the way, as it never did), unless a
 * shared file mapping must be written back first. */

/* A guest computing without system calls looks for them this often (instructions: a few
 * tens of microseconds of the emulator, and a negligible cost per chunk). */
enum { HOST_EVENT_CHUNK = 1 << 16 };

static emu_t *host_receiver;    /* the one emulator of this process */
static bool host_first_process; /* the receiver is the first process: its tree's signals only */
/* the actions before cyclescope took the signals (once per host program: a fork keeps them):
 * the first process gives the run's own (SIGPIPE ignored, the CLI's Ctrl-C handler that
 * writes the partial results) any signal from outside the tree, and every process gives a
 * fault of its own host code (ASan's handler, the default) back to what it was */
static struct sigaction host_before[65];
static bool host_before_saved;
static bool host_events_watched;              /* a child process, or a guest that catches SIGCHLD */
static volatile sig_atomic_t host_arrived;    /* some signal was noted since the last take */
static int host_count[65];                    /* per signal, noted and not yet taken (atomics) */
static volatile sig_atomic_t host_sender[65]; /* its sender's virtual pid (0: not the parent) */
/* tgkill's and tkill's, for one thread (by its id's offset from the pid): the signals noted */
static uint64_t host_thread_pending[EMU_PID_STRIDE];
/* Each arrival in order, with its sender and thread: a real-time signal sent twice is two
 * entries with their own senders (Linux queues a sigqueue per send, for a thread or the
 * process), where host_count/host_thread_pending and host_sender keep a count or a bit and
 * the last sender; they stand in only when the list is full or another host thread's handler
 * holds it. The emulator empties it with every signal blocked (emu_host_signals_take). */
typedef struct host_arrival {
    int8_t sig, thread; /* thread: its id's offset from the pid, -1 for the process */
    int32_t sender;     /* the sender's virtual pid (0: not the tree's) */
} host_arrival;
enum { HOST_ARRIVALS_MAX = 1024 };
static host_arrival host_arrivals[HOST_ARRIVALS_MAX];
static int host_arrivals_count;
static bool host_arrivals_held; /* a test-and-set lock, never waited for in a handler */

/* The signals that are never noted: SIGKILL and SIGSTOP (the host's, uncatchable), SIGTRAP
 * (a debugger's), SIGCHLD (process.c's, for the guest's own children), and 32/33, which the
 * host's glibc keeps. The faults are noted when a process sent them (si_code <= 0): one the
 * kernel raised is a fault of cyclescope's own code, which goes back to its host action. */
static bool host_forwarded(int sig) {
    switch (sig) {
    case SIGKILL:
    case SIGSTOP:
    case SIGTRAP:
    case SIGCHLD:
    case 32:
    case 33: return false;
    default: return sig >= 1 && sig <= 64;
    }
}

/* Default actions (signal(7)): nothing for SIGCHLD, SIGCONT, SIGURG, SIGWINCH; stop for
 * SIGTSTP, SIGTTIN, SIGTTOU; the others end the process. */
static bool default_ignores(int sig) { return sig == SIGCHLD || sig == SIGCONT || sig == SIGURG || sig == SIGWINCH; }
static bool default_stops(int sig) { return sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU; }

_Noreturn void emu_die_by_signal(int sig) {
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(sig, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    sigprocmask(SIG_UNBLOCK, &only, NULL);
    raise(sig);
    _exit(128 + sig);
}

/* The host's default action for a signal cyclescope does not take as the guest's. */
static void host_default(int sig) {
    if (default_ignores(sig)) return;
    if (default_stops(sig)) kill(getpid(), SIGSTOP);
    else emu_die_by_signal(sig);
}

static bool host_fault(int sig) { return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE; }

static void on_host_signal(int sig, siginfo_t *info, void *context) {
    if (host_fault(sig) && info->si_code > 0) { /* the host code faulted: its instruction runs again */
        sigaction(sig, &host_before[sig], NULL);
        return;
    }
    pid_t self = getpid();
    const emu_t *e = host_receiver;
    /* a process of the guest's tree (emu_host_signal_send: sigqueue, the tree's secret and its
     * virtual pid the value) */
    uint64_t tag = (uint64_t)(uintptr_t)info->si_value.sival_ptr;
    uint32_t secret = emu_tree_secret(e);
    bool tree_sent = info->si_code == SI_QUEUE && secret && tag >> 32 == secret;
    if (host_first_process && !tree_sent) { /* the run's own (Ctrl-C, a shell's kill): as before */
        const struct sigaction *before = &host_before[sig];
        if (before->sa_flags & SA_SIGINFO) before->sa_sigaction(sig, info, context);
        else if (before->sa_handler == SIG_DFL) host_default(sig);
        else if (before->sa_handler != SIG_IGN) before->sa_handler(sig);
        return;
    }
    if (info->si_pid == self && info->si_code <= 0) { /* cyclescope's own: a write's SIGPIPE, abort() */
        if (sig != SIGPIPE) emu_die_by_signal(sig);
        return;
    }
    /* SIGKILL carried by SIGTERM (process.c kill_slot): this process had shared file
     * mappings, which it writes back as it ends, at once when it has none left */
    if (tree_sent && (uint32_t)tag >> 24 == EMU_TREE_SIGKILL_CARRIED) sig = SIGKILL;
    uint64_t handler = sig == SIGKILL ? 0 : e->sigaction_handler[sig];
    bool blocked = sig != SIGKILL && (e->ctx.sig_blocked & SIG_BIT(sig)) != 0;
    if (handler == 1 || (handler == 0 && default_ignores(sig))) return; /* discarded (SIGCONT continued us) */
    /* a default action that ends the process acts here, unless a shared file mapping must
     * be written back first: the emulator ends the guest then, at its next system call, chunk
     * or wait (a host call blocked on a terminal or a file would hold it up) */
    if (handler == 0 && !blocked && e->threads_live <= 1 && (default_stops(sig) || !e->shared_count)) {
        if (default_stops(sig)) kill(self, SIGSTOP);
        else emu_die_by_signal(sig);
        return;
    }
    /* the value: the sender's virtual pid, and in the top byte a thread + 1 (process.c kill_slot) */
    int thread = tree_sent ? (int)((uint32_t)tag >> 24) - 1 : -1;
    int32_t sender = tree_sent ? (int32_t)((uint32_t)tag & 0xffffff) : 0;
    if (thread >= EMU_PID_STRIDE) thread = -1;
    bool listed = false;
    if (!__atomic_test_and_set(&host_arrivals_held, __ATOMIC_ACQUIRE)) {
        if (host_arrivals_count < HOST_ARRIVALS_MAX) {
            host_arrivals[host_arrivals_count++] = (host_arrival){(int8_t)sig, (int8_t)thread, sender};
            listed = true;
        }
        __atomic_clear(&host_arrivals_held, __ATOMIC_RELEASE);
    }
    if (listed) {
        host_arrived = 1;
        return;
    }
    host_sender[sig] = sender;
    if (thread >= 0) __atomic_or_fetch(&host_thread_pending[thread], SIG_BIT(sig), __ATOMIC_SEQ_CST);
    else __atomic_add_fetch(&host_count[sig], 1, __ATOMIC_SEQ_CST);
    host_arrived = 1;
}

void emu_host_signals_receive(emu_t *e) {
    if (!host_before_saved)
        for (int sig = 1; sig <= 64; sig++)
            if (!host_forwarded(sig) || sigaction(sig, NULL, &host_before[sig]) != 0)
                host_before[sig] = (struct sigaction){.sa_handler = SIG_DFL};
    host_before_saved = true;
    host_first_process = false;
    host_receiver = e;
    host_events_watched = true;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_host_signal;
    /* cyclescope's own calls go on, its waits look (emu_host_wait); a host fault's handler
     * may need the alternate stack ASan keeps */
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigfillset(&sa.sa_mask);
    for (int sig = 1; sig <= 64; sig++)
        if (host_forwarded(sig)) sigaction(sig, &sa, NULL);
}

void emu_host_signals_receive_from_tree(emu_t *e) {
    if (host_receiver == e) return;
    emu_host_signals_receive(e);
    host_first_process = true;
}

/* Whether another process may signal this one: a child process (its parent may), the first
 * process while its tree has another. */
bool emu_host_signals_received(void) {
    return host_receiver != NULL && (!host_first_process || emu_tree_has_others(host_receiver));
}

void emu_host_events_watch(void) { host_events_watched = true; }

uint64_t emu_host_event_chunk(uint64_t budget) {
    return host_events_watched && budget > HOST_EVENT_CHUNK ? HOST_EVENT_CHUNK : budget;
}

int64_t emu_host_signal_send(pid_t host, int pidfd, uint64_t tag, int64_t sig) {
    bool plain = sig == 0 || !host_forwarded((int)sig); /* SIGKILL, SIGSTOP: the host's own action */
    if (pidfd >= 0) {
        siginfo_t info; /* what sigqueue(3) sends */
        memset(&info, 0, sizeof info);
        info.si_signo = (int)sig;
        info.si_code = SI_QUEUE;
        info.si_pid = getpid();
        info.si_uid = getuid();
        info.si_value.sival_ptr = (void *)(uintptr_t)tag;
        return syscall(SYS_pidfd_send_signal, pidfd, (int)sig, plain ? NULL : &info, 0) < 0 ? -errno : 0;
    }
    if (plain) return kill(host, (int)sig) < 0 ? -errno : 0;
    return sigqueue(host, (int)sig, (union sigval){.sival_ptr = (void *)(uintptr_t)tag}) < 0 ? -errno : 0;
}

/* A tgkill or tkill from another process for thread `tid` of this one: SI_TKILL, as Linux's
 * do_tkill; dropped when the thread is gone (it ended after the sender found it). */
static void host_thread_signal(emu_t *e, int32_t tid, int sig, int32_t sender) {
    const char *cause = "sent by another process";
    if (tid == emu_thread_tid(e)) {
        if (sig < SIGRT_FIRST || e->rt_count < RT_QUEUE_MAX)
            signal_guest_from(e, sig, cause, GUEST_SI_TKILL, sender, 0);
        return;
    }
    for (int i = 0; e->threads && i < EMU_MAX_THREADS; i++)
        if (i != e->thread_cur && emu_thread_tid_at(e, i) == tid) {
            emu_thread_signal_other(e, i, sig, GUEST_SI_TKILL, sender, 0, cause);
            return;
        }
}

/* The arrivals listed so far, moved to `out` (with every host signal blocked here, and the
 * list not held by another host thread's handler); their number. */
static int host_arrivals_take(host_arrival *out) {
    sigset_t all, before;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &before);
    while (__atomic_test_and_set(&host_arrivals_held, __ATOMIC_ACQUIRE)) {
    }
    int n = host_arrivals_count;
    memcpy(out, host_arrivals, (size_t)n * sizeof *out);
    host_arrivals_count = 0;
    __atomic_clear(&host_arrivals_held, __ATOMIC_RELEASE);
    sigprocmask(SIG_SETMASK, &before, NULL);
    return n;
}

bool emu_host_signals_take(emu_t *e) {
    if (emu_host_child_ended) emu_children_check(e);
    if (host_arrived && host_receiver == e) {
        host_arrived = 0;
        static host_arrival taken[HOST_ARRIVALS_MAX];
        int n = host_arrivals_take(taken);
        for (int i = 0; i < n && e->status == EMU_RUNNING; i++) {
            const host_arrival *a = &taken[i];
            if (a->thread >= 0) host_thread_signal(e, e->vpid + a->thread, a->sig, a->sender);
            else signal_process_from(e, a->sig, "sent by another process", GUEST_SI_USER, a->sender, 0);
        }
        for (int sig = 1; sig <= 64 && e->status == EMU_RUNNING; sig++) {
            int count = __atomic_exchange_n(&host_count[sig], 0, __ATOMIC_SEQ_CST);
            if (!count) continue;
            int32_t sender = host_sender[sig];
            /* a real-time signal sent n times is queued n times (standard ones are one) */
            for (int i = 0; i < (sig >= SIGRT_FIRST ? count : 1); i++)
                if (!signal_process_from(e, sig, "sent by another process", GUEST_SI_USER, sender, 0)) break;
        }
        for (int k = 0; k < EMU_PID_STRIDE && e->status == EMU_RUNNING; k++)
            for (uint64_t bits = __atomic_exchange_n(&host_thread_pending[k], 0, __ATOMIC_SEQ_CST);
                 bits && e->status == EMU_RUNNING; bits &= bits - 1)
                host_thread_signal(e, e->vpid + k, __builtin_ctzll(bits) + 1, host_sender[__builtin_ctzll(bits) + 1]);
    }
    return e->status != EMU_RUNNING || emu_signal_handler_ready(e);
}

bool emu_host_wait_arrival_or(emu_t *e, struct pollfd *fds, size_t n) {
    return emu_host_wait_arrival_for(e, fds, n, NULL);
}

bool emu_host_wait_arrival_for(emu_t *e, struct pollfd *fds, size_t n, const struct timespec *timeout) {
    sigset_t all, before;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &before);
    double end = timeout ? cs_now() + (double)timeout->tv_sec + (double)timeout->tv_nsec * 1e-9 : 0;
    bool arrived;
    /* looked at with every signal blocked; ppoll lets them in atomically, so none is missed.
     * Only this emulator's arrivals count: the flag another emulator of the host process
     * receives for stays set (emu_host_signals_take clears it for the receiver alone), and
     * would make every wait here end at once, a spin. A signal that brings nothing ends one
     * ppoll; the next waits for the time left, not the whole timeout again. */
    while (!(arrived = (host_arrived && host_receiver == e) || emu_host_child_ended)) {
        struct timespec left = {0, 0};
        if (timeout) {
            double rest = end - cs_now();
            if (rest <= 0) break;
            left.tv_sec = (time_t)rest;
            left.tv_nsec = (long)((rest - (double)left.tv_sec) * 1e9);
            if (left.tv_nsec > 999999999) left.tv_nsec = 999999999;
        }
        int got = ppoll(fds, n, timeout ? &left : NULL, &before);
        if (got > 0 || (got == 0 && timeout) || (got < 0 && errno != EINTR)) break; /* ready, time out, error */
    }
    sigprocmask(SIG_SETMASK, &before, NULL);
    if (arrived) emu_host_signals_take(e);
    return arrived;
}

void emu_host_wait_arrival(emu_t *e) { emu_host_wait_arrival_or(e, NULL, 0); }

int emu_host_wait(emu_t *e, struct pollfd *fds, size_t n, bool *interrupted) {
    *interrupted = false;
    sigset_t all, before;
    sigfillset(&all);
    for (;;) {
        /* looked at with every signal blocked; ppoll lets them in atomically, so none is missed */
        sigprocmask(SIG_BLOCK, &all, &before);
        if (emu_host_signals_take(e)) {
            sigprocmask(SIG_SETMASK, &before, NULL);
            *interrupted = true;
            return -1;
        }
        int got = ppoll(fds, n, NULL, &before);
        int why = errno;
        sigprocmask(SIG_SETMASK, &before, NULL);
        if (got >= 0 || why != EINTR) {
            errno = why;
            return got;
        }
    }
}
