/* Signal handlers run as Linux riscv64 runs them (a frame on the stack, rt_sigreturn through
 * the return trampoline); every mode is compared with qemu-riscv64 (exec.qemu.signal_handler.*).
 *   raise       raise() with an SA_SIGINFO handler (si_signo, si_code SI_TKILL, si_pid), kill()
 *               of itself (SI_USER), a signal() handler; FP and integer state kept across
 *   nested      a handler raising another signal (runs at once, nested) and its own (blocked
 *               while it runs: runs after it), sa_mask in force only in the handler, and
 *               sigsuspend() waking for a pending one with the mask restored after
 *   sa_mask     nested's handler: SIGTERM, in its sa_mask, is blocked while it runs (not compared:
 *               qemu-riscv64 7.2 does not apply sa_mask, the kernel's signal_delivered() does)
 *   resethand   SA_RESETHAND: the handler once, then the default action (killed, 138)
 *   nodefer     SA_NODEFER: the handler raising its own signal nests three deep
 *   altstack    SA_ONSTACK on a sigaltstack: the handler's locals are on it, SS_ONSTACK inside
 *   alarm       setitimer with a handler that sets a flag ending a busy loop; then alarm(1)
 *               interrupting sleep(5) and pause()
 *   segv        SIGSEGV handlers that siglongjmp out: a load from an unmapped page
 *               (SEGV_MAPERR) and a store to a read-only one (SEGV_ACCERR), si_addr
 *   segv_twice  a SIGSEGV handler that faults itself (SIGSEGV blocked): killed (139)
 *   mcontext    a SIGILL handler that moves uc_mcontext's pc past the instruction and writes
 *               a0 and fa0: the program goes on with what the handler wrote
 *   abort       abort() with a SIGABRT handler that longjmps out; then one that returns
 *               (killed by SIGABRT, 134) */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/ucontext.h>
#include <unistd.h>

static volatile sig_atomic_t events[16], nevents;
static void note(int what) {
    if (nevents < 16) events[nevents++] = what;
}
static void print_events(const char *what) {
    printf("%s:", what);
    for (int i = 0; i < nevents; i++) printf(" %d", events[i]);
    printf("\n");
    nevents = 0;
}

static int blocked(int sig) {
    sigset_t now;
    sigprocmask(SIG_BLOCK, NULL, &now);
    return sigismember(&now, sig);
}

static volatile int info_signo, info_code, info_pid_is_self;
static void on_info(int sig, siginfo_t *info, void *uc) {
    (void)uc;
    info_signo = info->si_signo;
    info_code = info->si_code;
    info_pid_is_self = info->si_pid == getpid();
    note(sig);
}
static void on_plain(int sig) {
    volatile double x = 1.0;
    for (int i = 0; i < 10; i++) x = x * 3.0 + 0.5; /* FP work of its own */
    note(sig + (x > 0 ? 100 : 0));
}

static void mode_raise(void) {
    struct sigaction sa = {0};
    sa.sa_sigaction = on_info;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGUSR1, &sa, NULL);
    volatile double kept = 0.1;
    double before = kept * 7.0;
    printf("raise: %d\n", raise(SIGUSR1));
    printf("si_signo %d, si_code is SI_TKILL %d, si_pid equals getpid() %d\n", info_signo, info_code == SI_TKILL,
           info_pid_is_self);
    printf("kill: %d\n", kill(getpid(), SIGUSR1));
    printf("si_code is SI_USER %d, si_pid equals getpid() %d\n", info_code == SI_USER, info_pid_is_self);
    signal(SIGUSR2, on_plain);
    printf("raise plain: %d\n", raise(SIGUSR2));
    printf("FP kept: %d\n", before == kept * 7.0);
    print_events("handled");
}

static void on_usr2_nested(int sig) { note(sig); }
static volatile int mask_in_handler[3];
static void on_usr1_nested(int sig) {
    note(sig);
    if (nevents == 1) {
        mask_in_handler[0] = blocked(SIGUSR1);
        mask_in_handler[1] = blocked(SIGTERM);
        mask_in_handler[2] = blocked(SIGUSR2);
        raise(SIGUSR2); /* not blocked: its handler runs now, on top of this one */
        raise(SIGUSR1); /* blocked while this handler runs: pending until it returns */
        note(-1);
    }
}

static void mode_nested(int sa_mask_mode) {
    struct sigaction sa = {0};
    sa.sa_handler = on_usr1_nested;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGUSR1, &sa, NULL);
    sa.sa_handler = on_usr2_nested;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR2, &sa, NULL);
    raise(SIGUSR1);
    print_events("order");
    printf("in handler: SIGUSR1 blocked %d, SIGUSR2 blocked %d\n", mask_in_handler[0], mask_in_handler[2]);
    if (sa_mask_mode) {
        printf("in handler: SIGTERM (sa_mask) blocked %d\n", mask_in_handler[1]);
        return;
    }
    printf("after: SIGUSR1 blocked %d, SIGTERM blocked %d\n", blocked(SIGUSR1), blocked(SIGTERM));
    /* pending while blocked, then sigsuspend with a mask that lets it through */
    sigset_t block, none;
    sigemptyset(&block);
    sigaddset(&block, SIGUSR2);
    sigprocmask(SIG_BLOCK, &block, NULL);
    raise(SIGUSR2);
    sigset_t pend;
    sigpending(&pend);
    printf("pending SIGUSR2 %d\n", sigismember(&pend, SIGUSR2));
    sigemptyset(&none);
    int r = sigsuspend(&none);
    printf("sigsuspend %d, SIGUSR2 blocked again %d\n", r, blocked(SIGUSR2));
    print_events("handled");
}

static void on_once(int sig) { note(sig); }

static void mode_resethand(void) {
    struct sigaction sa = {0};
    sa.sa_handler = on_once;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGUSR1, &sa, NULL);
    raise(SIGUSR1);
    struct sigaction now;
    sigaction(SIGUSR1, NULL, &now);
    print_events("handled");
    printf("handler now SIG_DFL %d\n", now.sa_handler == SIG_DFL);
    fflush(stdout);
    raise(SIGUSR1); /* killed */
    printf("not reached\n");
}

static volatile int depth, max_depth;
static void on_deep(int sig) {
    depth++;
    if (depth > max_depth) max_depth = depth;
    if (depth < 3) raise(sig);
    depth--;
}

static void mode_nodefer(void) {
    struct sigaction sa = {0};
    sa.sa_handler = on_deep;
    sa.sa_flags = SA_NODEFER;
    sigaction(SIGUSR1, &sa, NULL);
    raise(SIGUSR1);
    printf("nodefer depth %d\n", max_depth);
}

static char alt[65536] __attribute__((aligned(16)));
static volatile int on_alt, ss_onstack;
static void on_altstack_handler(int sig) {
    char local;
    on_alt = &local >= alt && &local < alt + sizeof alt;
    stack_t now;
    sigaltstack(NULL, &now);
    ss_onstack = (now.ss_flags & SS_ONSTACK) != 0;
    note(sig);
}

static void mode_altstack(void) {
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0}, old;
    printf("sigaltstack: %d\n", sigaltstack(&ss, &old));
    printf("old disabled %d\n", (old.ss_flags & SS_DISABLE) != 0);
    stack_t tiny = {.ss_sp = alt, .ss_size = 100, .ss_flags = 0};
    printf("too small: %d\n", sigaltstack(&tiny, NULL));
    struct sigaction sa = {0};
    sa.sa_handler = on_altstack_handler;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGUSR1, &sa, NULL);
    raise(SIGUSR1);
    printf("on the alternate stack %d, SS_ONSTACK inside %d\n", on_alt, ss_onstack);
    stack_t now;
    sigaltstack(NULL, &now);
    printf("after: flags %d, size %zu, same sp %d\n", now.ss_flags, now.ss_size, now.ss_sp == alt);
    sa.sa_flags = 0; /* without SA_ONSTACK: the ordinary stack */
    sigaction(SIGUSR1, &sa, NULL);
    raise(SIGUSR1);
    printf("without SA_ONSTACK on it %d\n", on_alt);
    print_events("handled");
}

static volatile sig_atomic_t alarmed;
static void on_alarm(int sig) {
    alarmed++;
    note(sig);
}

static void mode_alarm(void) {
    signal(SIGALRM, on_alarm);
    struct itimerval it = {{0, 0}, {0, 20000}};
    setitimer(ITIMER_REAL, &it, NULL);
    unsigned long spins = 0;
    while (!alarmed) spins++;
    printf("busy loop ended by the alarm: %d (spun %d)\n", alarmed, spins > 0);
    alarm(1);
    unsigned left = sleep(5);
    /* about 4 s left; on a host clock the alarm's latency and the start of the sleep after
     * alarm() put it either side of 4.0, which sleep() truncates */
    printf("sleep(5) interrupted, left 3 or 4: %d\n", left == 3 || left == 4);
    alarm(1);
    int r = pause();
    printf("pause: %d, handled %d\n", r, alarmed);
    print_events("handled");
}

static sigjmp_buf jump;
static volatile void *fault_addr;
static volatile int fault_code;
static void on_segv(int sig, siginfo_t *info, void *uc) {
    (void)uc;
    (void)sig;
    fault_addr = info->si_addr;
    fault_code = info->si_code;
    siglongjmp(jump, 1);
}

static void mode_segv(void) {
    struct sigaction sa = {0};
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    char *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *gone = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(gone, 4096);
    if (sigsetjmp(jump, 1) == 0) {
        printf("load: %d\n", *(volatile char *)(gone + 8));
    } else {
        printf("load faulted: si_addr right %d, SEGV_MAPERR %d, SIGSEGV blocked %d\n", fault_addr == gone + 8,
               fault_code == SEGV_MAPERR, blocked(SIGSEGV));
    }
    if (sigsetjmp(jump, 1) == 0) {
        *(volatile char *)(page + 16) = 1;
        printf("store went through\n");
    } else {
        printf("store faulted: si_addr right %d, SEGV_ACCERR %d\n", fault_addr == page + 16, fault_code == SEGV_ACCERR);
    }
}

static volatile uintptr_t bad_address = 8; /* a variable, so the compiler does not know it is bad */

static void on_segv_again(int sig) {
    (void)sig;
    printf("in the handler, faulting again\n");
    fflush(stdout);
    *(volatile int *)(bad_address - 8) = 1; /* SIGSEGV is blocked here: the kernel kills */
}

static void mode_segv_twice(void) {
    signal(SIGSEGV, on_segv_again);
    *(volatile int *)bad_address = 1;
    printf("not reached\n");
}

static volatile uintptr_t ill_addr, ill_pc;
static void on_ill(int sig, siginfo_t *info, void *ucv) {
    (void)sig;
    ucontext_t *uc = ucv;
    ill_addr = (uintptr_t)info->si_addr;
    ill_pc = uc->uc_mcontext.__gregs[REG_PC];
    uc->uc_mcontext.__gregs[REG_PC] += 4; /* past the 4-byte illegal instruction */
    uc->uc_mcontext.__gregs[REG_A0] = 42;
    double d = 2.5;
    memcpy(&uc->uc_mcontext.__fpregs.__d.__f[10], &d, 8); /* fa0 */
}

static void mode_mcontext(void) {
    struct sigaction sa = {0};
    sa.sa_sigaction = on_ill;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGILL, &sa, NULL);
    long a0;
    double fa0;
    uintptr_t at;
    __asm__ volatile("fmv.d.x fa0, zero\n\t"
                     "li a0, 1\n\t"
                     "lla %2, 1f\n"
                     "1:\t.4byte 0x0000000b\n\t"
                     "mv %0, a0\n\t"
                     "fmv.d %1, fa0"
                     : "=r"(a0), "=f"(fa0), "=&r"(at)
                     :
                     : "a0", "fa0", "memory");
    printf("a0 %ld, fa0 %.2f, si_addr is the instruction %d, uc pc is it %d\n", a0, fa0, ill_addr == at, ill_pc == at);
}

static jmp_buf abort_jump;
static void on_abrt_jump(int sig) {
    note(sig);
    longjmp(abort_jump, 1);
}
static void on_abrt_return(int sig) { note(sig); }

static void mode_abort(void) {
    signal(SIGABRT, on_abrt_jump);
    if (setjmp(abort_jump) == 0) {
        abort();
    }
    printf("back from abort()\n");
    print_events("handled");
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL); /* longjmp kept the handler's mask */
    signal(SIGABRT, on_abrt_return);
    fflush(stdout);
    abort(); /* the handler returns: abort() kills with SIGABRT */
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "raise";
    setvbuf(stdout, NULL, _IONBF, 0);
    if (!strcmp(mode, "raise")) mode_raise();
    else if (!strcmp(mode, "nested")) mode_nested(0);
    else if (!strcmp(mode, "sa_mask")) mode_nested(1);
    else if (!strcmp(mode, "resethand")) mode_resethand();
    else if (!strcmp(mode, "nodefer")) mode_nodefer();
    else if (!strcmp(mode, "altstack")) mode_altstack();
    else if (!strcmp(mode, "alarm")) mode_alarm();
    else if (!strcmp(mode, "segv")) mode_segv();
    else if (!strcmp(mode, "segv_twice")) mode_segv_twice();
    else if (!strcmp(mode, "mcontext")) mode_mcontext();
    else if (!strcmp(mode, "abort")) mode_abort();
    else {
        fprintf(stderr, "signal_handler: unknown mode %s\n", mode);
        return 2;
    }
    return 0;
}
