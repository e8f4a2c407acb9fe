/* Process creation (load, initial stack as Linux builds it), the run entry
 * points and the emulator's uop_source. */
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu_internal.h"

/* Address-space layout, after Linux on riscv64 with Sv39 (TASK_SIZE 0x4000000000),
 * without randomisation so that every run is the same. */
#define STACK_TOP  GUEST_STACK_TOP
#define STACK_SIZE (8ull << 20)   /* RLIMIT_STACK default */
#define MMAP_GAP   (128ull << 20) /* Linux keeps at least this between stack and mmap base */
#define BRK_LIMIT  (64ull << 30)

/* AT_HWCAP on RISC-V: one bit per single-letter extension ('a' = bit 0). */
#define HWCAP_RV64GC                                                                                               \
    ((1u << ('i' - 'a')) | (1u << ('m' - 'a')) | (1u << ('a' - 'a')) | (1u << ('f' - 'a')) | (1u << ('d' - 'a')) | \
     (1u << ('c' - 'a')))

static void fail_with(emu_t *e, int signal, const char *fmt, va_list ap) {
    char msg[400];
    vsnprintf(msg, sizeof msg, fmt, ap);
    snprintf(e->error, sizeof e->error, "%s: %s", e->path, msg);
    e->status = EMU_FAILED;
    e->fault_signal = signal;
}

void emu_fail(emu_t *e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fail_with(e, 0, fmt, ap);
    va_end(ap);
}

void emu_fault(emu_t *e, int signal, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fail_with(e, signal, fmt, ap);
    va_end(ap);
}

void emu_fail_memory(emu_t *e) {
    emu_fail(e,
             "the guest's memory passed the host limit of --guest-memory %" PRIu64
             " MiB (its pages, page tables and decoded code)",
             e->m.map_limit >> 20);
}

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Push bytes onto the guest stack; returns their guest address. */
static uint64_t push_bytes(emu_t *e, uint64_t *sp, const void *data, size_t len) {
    *sp -= len;
    mem_copy_in(&e->m, *sp, data, len);
    return *sp;
}

static bool build_stack(emu_t *e, const elf_load_info *li, cs_error *err) {
    static const char *const fixed_env[] = {"PATH=/usr/bin:/bin", "HOME=/", "LANG=C", NULL};
    const emu_options *o = &e->opt;
    const char *const *env = o->env_fixed ? fixed_env : o->envp;
    size_t envc = 0;
    if (env)
        while (env[envc]) envc++;
    mem_map(&e->m, STACK_TOP - STACK_SIZE, STACK_SIZE, PROT_R | PROT_W);

    /* Strings at the top, as fs/binfmt_elf.c leaves them: execfn, envp, argv. */
    uint64_t sp = STACK_TOP - 8;
    size_t strings = 0;
    for (int i = 0; i < o->argc; i++) strings += strlen(o->argv[i]) + 1;
    for (size_t i = 0; i < envc; i++) strings += strlen(env[i]) + 1;
    if (strings > STACK_SIZE / 4) {
        cs_error_set(err, "%s: arguments and environment too large (%zu bytes)", e->path, strings);
        return false;
    }
    const char *arg0 = o->env_fixed ? e->exe_seen : o->argv[0];
    uint64_t execfn = push_bytes(e, &sp, arg0, strlen(arg0) + 1);
    uint64_t *envp = cs_calloc(envc + 1, 8), *argv = cs_calloc((size_t)o->argc + 1, 8);
    for (size_t i = envc; i-- > 0;) envp[i] = push_bytes(e, &sp, env[i], strlen(env[i]) + 1);
    for (int i = o->argc; i-- > 0;) {
        const char *a = i == 0 ? arg0 : o->argv[i];
        argv[i] = push_bytes(e, &sp, a, strlen(a) + 1);
    }

    uint8_t random[16];
    for (int i = 0; i < 16; i += 8) {
        uint64_t r = splitmix64(&e->rng);
        memcpy(random + i, &r, 8);
    }
    sp &= ~15ull;
    uint64_t at_random = push_bytes(e, &sp, random, sizeof random);

    uint64_t auxv[][2] = {
        {AT_HWCAP, HWCAP_RV64GC},
        {AT_PAGESZ, PAGE_SIZE},
        {AT_CLKTCK, 100},
        {AT_PHDR, li->phdr_addr},
        {AT_PHENT, li->phent},
        {AT_PHNUM, li->phnum},
        {AT_BASE, li->interp_base},
        {AT_FLAGS, 0},
        {AT_ENTRY, li->entry},
        {AT_UID, 1000},
        {AT_EUID, 1000},
        {AT_GID, 1000},
        {AT_EGID, 1000},
        {AT_SECURE, 0},
        {AT_RANDOM, at_random},
        {AT_HWCAP2, 0},
        {AT_EXECFN, execfn},
        {AT_NULL, 0},
    };
    size_t auxn = sizeof auxv / sizeof auxv[0];
    size_t words = 1 + ((size_t)o->argc + 1) + (envc + 1) + 2 * auxn;
    sp = (sp - words * 8) & ~15ull; /* the ABI wants sp 16-byte aligned at entry */
    uint64_t at = sp, argc = (uint64_t)o->argc, zero = 0;
    mem_copy_in(&e->m, at, &argc, 8), at += 8;
    for (int i = 0; i < o->argc; i++) mem_copy_in(&e->m, at, &argv[i], 8), at += 8;
    mem_copy_in(&e->m, at, &zero, 8), at += 8;
    for (size_t i = 0; i < envc; i++) mem_copy_in(&e->m, at, &envp[i], 8), at += 8;
    mem_copy_in(&e->m, at, &zero, 8), at += 8;
    mem_copy_in(&e->m, at, auxv, sizeof auxv);
    e->arg_start = argv[0];
    e->arg_end = e->env_start = envc ? envp[0] : execfn; /* argv's strings, then envp's, then execfn */
    e->env_end = execfn;
    _Static_assert(sizeof auxv <= sizeof e->saved_auxv, "saved_auxv holds the auxiliary vector");
    memcpy(e->saved_auxv, auxv, sizeof auxv);
    e->saved_auxv_pairs = auxn;
    free(envp);
    free(argv);
    e->h.x[2] = e->start_stack = sp;
    return true;
}

const char *emu_sysroot_default(void) {
    static const char debian_cross[] = "/usr/riscv64-linux-gnu"; /* Debian's libc6-riscv64-cross */
    struct stat st;
    return stat(debian_cross, &st) == 0 && S_ISDIR(st.st_mode) ? debian_cross : NULL;
}

/* whether an absolute path names the root by its letters alone: "/", "//", "///", "/./..";
 * Linux reads each as "/" (the root is its own parent) */
static bool names_root(const char *path) {
    for (const char *p = path; *p;) {
        while (*p == '/') p++;
        size_t n = strcspn(p, "/");
        if (n > 2 || (n > 0 && strncmp(p, "..", n) != 0)) return false; /* a component not "." or ".." */
        p += n;
    }
    return true;
}

static const char *under_root(const char *root, const char *path, char *buf, size_t size) {
    if (!root || path[0] != '/') return path;
    /* the root itself ("/", "//"...) is the host's root: the guest lists and walks the host's
     * tree, as under qemu for "/" (qemu -L takes "//" for the prefix; Linux for "/") */
    if (names_root(path) || (size_t)snprintf(buf, size, "%s%s", root, path) >= size) return path;
    struct stat st;
    return lstat(buf, &st) == 0 ? buf : path;
}

const char *emu_sysroot_path(const emu_t *e, const char *path, char *buf, size_t size) {
    /* --env-fixed shows the program as /guest/NAME: /guest/ is its directory for what the
     * guest reads, so an RPATH of $ORIGIN (ld.so takes it from /proc/self/exe) and files
     * beside the program are found there, under the same fixed name wherever they live */
    if (e->opt.env_fixed && !strncmp(path, EMU_FIXED_DIR "/", sizeof EMU_FIXED_DIR)) {
        const char *slash = strrchr(e->exe_real, '/');
        int dir_len = slash ? (int)(slash - e->exe_real) : 0;
        const char *rest = path + sizeof EMU_FIXED_DIR - 1; /* from the '/' on */
        if (slash && (size_t)snprintf(buf, size, "%.*s%s", dir_len, e->exe_real, rest) < size) return buf;
        return path;
    }
    return under_root(e->sysroot, path, buf, size);
}

const char *emu_exec_path(const emu_t *e, const char *path, char *buf, size_t size) {
    return under_root(e->exec_root, path, buf, size);
}

/* whether the host path `real` (a real path) lies beneath the directory `sysroot` */
static bool path_in_sysroot(const char *real, const char *sysroot) {
    if (!sysroot) return false;
    size_t n = strlen(sysroot);
    return strncmp(real, sysroot, n) == 0 && real[n] == '/';
}

/* The guest library prefix: --sysroot, else CYCLESCOPE_SYSROOT, else the default; "" for none.
 * Kept as the host's real path (a copy). */
static char *emu_sysroot(const char *asked) {
    if (!asked) asked = getenv("CYCLESCOPE_SYSROOT");
    if (!asked) asked = emu_sysroot_default();
    if (!asked || !*asked) return NULL;
    char resolved[PATH_MAX];
    return cs_strdup(realpath(asked, resolved) ? resolved : asked);
}

/* A guest's write to a pipe or socket nobody reads any more is EPIPE, and its SIGPIPE is the
 * guest's to take (syscall.c sends it, and the guest's action decides: it may ignore it or
 * catch it). The host's SIGPIPE for cyclescope's own write() must then do nothing: while an
 * emulator lives SIGPIPE is ignored on the host, and the action before comes back with the
 * last one. Before 2026-11-29 the first process died by the host's default action even when
 * the guest ignored or caught SIGPIPE, and a forked or exec'd process writing to an inherited
 * pipe got EPIPE without its SIGPIPE (busybox's `yes | head` printed "Broken pipe"). */
static int sigpipe_users;
static struct sigaction sigpipe_before;

emu_t *emu_create(const char *path, const emu_options *opt, cs_error *err) {
    emu_t *e = cs_calloc(1, sizeof *e);
    if (sigpipe_users++ == 0) {
        struct sigaction ignore;
        memset(&ignore, 0, sizeof ignore);
        ignore.sa_handler = SIG_IGN;
        sigaction(SIGPIPE, &ignore, &sigpipe_before);
    }
    e->path = cs_strdup(path);
    /* the program's name as Linux starts it (fs/exec.c begin_new_exec: the basename of the
     * file executed, at most 15 bytes), for PR_GET_NAME and /proc/self/comm */
    const char *base = strrchr(path, '/');
    snprintf(e->ctx.comm, sizeof e->ctx.comm, "%s", base ? base + 1 : path);
    e->opt = *opt;
    e->rng = opt->seed ? opt->seed : 0x6379636c6573636full; /* "cyclesco" */
    e->host_start = cs_now();
    mem_init(&e->m);
    mem_set_limit(&e->m, opt->memory_limit ? opt->memory_limit : EMU_DEFAULT_MEMORY);
    for (int r = 0; r < GUEST_RLIMITS; r++) e->rlim[r][0] = e->rlim[r][1] = ~0ull; /* RLIM_INFINITY */
    e->rlim[GUEST_RLIMIT_STACK][0] = STACK_SIZE;
    e->rlim[GUEST_RLIMIT_NOFILE][0] = e->rlim[GUEST_RLIMIT_NOFILE][1] = EMU_MAX_FDS;
    e->rlim[GUEST_RLIMIT_AS][0] = e->rlim[GUEST_RLIMIT_AS][1] = e->m.map_limit; /* --guest-memory */
    e->allow_fd = -1;
    e->cwd_fd = -1;
    e->vpid = opt->vpid ? opt->vpid : GUEST_PID;
    e->parent_vpid = opt->vpid ? opt->parent_vpid : 1;
    e->tree_fd = -1;
    e->beneath_walk = getenv("CYCLESCOPE_BENEATH_WALK") != NULL;
    for (int i = 0; i < EMU_MAX_FDS; i++) e->fds[i].host = -1;
    for (int i = 0; i < 3; i++) e->fds[i] = (guest_fd){.host = i, .writable = i > 0};
    char resolved[PATH_MAX];
    e->exe_real = cs_strdup(realpath(path, resolved) ? resolved : path);
    if (opt->env_fixed) {
        const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
        e->exe_seen = cs_malloc(sizeof EMU_FIXED_DIR + 1 + strlen(name));
        sprintf(e->exe_seen, "%s/%s", EMU_FIXED_DIR, name);
    } else {
        e->exe_seen = cs_strdup(e->exe_real);
    }
    if (opt->allow_write_dir) {
        if (!realpath(opt->allow_write_dir, resolved)) {
            cs_error_set(err, "--allow-write %s: no such directory", opt->allow_write_dir);
            emu_destroy(e);
            return NULL;
        }
        e->allow_write_real = cs_strdup(resolved);
        e->allow_fd = open(resolved, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (e->allow_fd < 0) {
            cs_error_set(err, "--allow-write %s: not a directory", opt->allow_write_dir);
            emu_destroy(e);
            return NULL;
        }
    }
    if (opt->argc < 1 || !opt->argv || !opt->argv[0]) {
        cs_error_set(err, "%s: no argv[0] for the guest", path);
        emu_destroy(e);
        return NULL;
    }
    e->sysroot = emu_sysroot(opt->sysroot);
    elf_load_info li;
    if (!elf_load(path, e->sysroot, &e->m, &li, err) || !build_stack(e, &li, err)) {
        emu_destroy(e);
        return NULL;
    }
    /* the return trampoline of signal handlers, as the kernel's vDSO gives it (riscv glibc
     * has no sa_restorer: the frame's ra points here) */
    static const uint32_t sigreturn_code[] = {0x08b00893u /* li a7, 139 (rt_sigreturn) */, 0x00000073u /* ecall */};
    mem_map(&e->m, EMU_SIGRETURN_PAGE, PAGE_SIZE, PROT_R | PROT_W);
    mem_copy_in(&e->m, EMU_SIGRETURN_PAGE, sigreturn_code, sizeof sigreturn_code);
    mem_protect(&e->m, EMU_SIGRETURN_PAGE, PAGE_SIZE, PROT_R | PROT_X);
    e->h.pc = li.start;
    /* a static program sees the host's files as it always did; its execve looks under the
     * prefix too (there the host has nothing a guest can run: emu_exec_path). A program that
     * lies in the sysroot (its ld.so run as the program: `ld.so --list PROG`, `ld.so PROG`)
     * loads the libraries a dynamic one does, so it sees the prefix as one */
    e->exec_root = e->sysroot ? cs_strdup(e->sysroot) : NULL;
    if (!li.interp_base && !path_in_sysroot(e->exe_real, e->sysroot)) {
        free(e->sysroot);
        e->sysroot = NULL;
    }
    memcpy(e->beyond_gc, li.beyond_gc, sizeof e->beyond_gc);
    e->brk_start = e->brk_cur = li.brk_start;
    e->brk_limit = li.brk_start + BRK_LIMIT;
    e->mmap_top = STACK_TOP - STACK_SIZE - MMAP_GAP;
    /* Linux maps the interpreter first, at the top of the mmap area: what ld.so and the
     * program map then goes below it */
    if (li.interp_base) e->mmap_top = li.interp_base;
    for (unsigned i = 0; i < li.interp_exec_count; i++)
        emu_note_code_map(e, li.interp_path, li.interp_host, li.interp_exec[i].start, li.interp_exec[i].end,
                          li.interp_exec[i].offset);
    e->status = EMU_RUNNING;
    return e;
}

void emu_destroy(emu_t *e) {
    if (!e) return;
    if (--sigpipe_users == 0) sigaction(SIGPIPE, &sigpipe_before, NULL);
    emu_shared_release_all(e);
    for (int i = 0; i < EMU_MAX_FDS; i++) /* as sys_close: never the emulator's own stdio, but a
                                              file the guest moved onto its 0 to 2 (dup3) */
        if (e->fds[i].host > 2) close(e->fds[i].host);
    for (int i = 0; i < EMU_MAX_FDS; i++) free(e->fds[i].path);
    if (e->allow_fd >= 0) close(e->allow_fd);
    if (e->cwd_fd >= 0) close(e->cwd_fd);
    for (size_t i = 0; i < e->pipe_count; i++) free(e->pipes[i].data);
    free(e->pipes);
    emu_threads_free(e);
    emu_processes_free(e);
    free(e->rt_queue);
    mem_free(&e->m);
    free(e->path);
    free(e->exe_real);
    free(e->sysroot);
    free(e->exec_root);
    free(e->exe_seen);
    free(e->allow_write_real);
    for (size_t i = 0; i < e->code_map_count; i++) {
        free((char *)e->code_maps[i].guest_path);
        free((char *)e->code_maps[i].host_path);
    }
    free(e->code_maps);
    free(e);
}

void emu_note_code_map(emu_t *e, const char *guest_path, const char *host_path, uint64_t start, uint64_t end,
                       uint64_t offset) {
    size_t kept = 0;
    for (size_t i = 0; i < e->code_map_count; i++) {
        emu_code_map *c = &e->code_maps[i];
        if (c->start < end && start < c->end) { /* mapped over: the new one is what runs there */
            free((char *)c->guest_path);
            free((char *)c->host_path);
        } else {
            e->code_maps[kept++] = *c;
        }
    }
    e->code_map_count = kept;
    if (e->code_map_count == e->code_map_cap)
        e->code_maps = cs_realloc(e->code_maps, (e->code_map_cap = e->code_map_cap * 2 + 8) * sizeof *e->code_maps);
    e->code_maps[e->code_map_count++] = (emu_code_map){cs_strdup(guest_path), cs_strdup(host_path), start, end, offset};
}

size_t emu_code_map_count(const emu_t *e) { return e->code_map_count; }
const emu_code_map *emu_code_map_at(const emu_t *e, size_t i) { return &e->code_maps[i]; }

/* The instructions to run next: no further than the guest's alarm (setitimer), which is
 * delivered when they ran (emu_alarm_check), nor than the running thread's quantum. */
uint64_t emu_next_chunk(emu_t *e, uint64_t left) {
    uint64_t budget = emu_alarm_budget(e);
    if (budget == 0) emu_alarm_check(e); /* due: delivered (and re-armed or disarmed) first */
    budget = emu_alarm_budget(e);
    if (__builtin_expect(e->threads != NULL, 0) && e->status == EMU_RUNNING) {
        uint64_t quantum = emu_thread_budget(e);
        if (quantum < budget) budget = quantum;
    }
    budget = emu_host_event_chunk(budget); /* a signal from another process, a child's end */
    return budget < left ? budget : left;
}

/* After a chunk: the alarm if it is due, then another thread if the quantum is over.
 * True when another thread took the hart. */
bool emu_after_chunk(emu_t *e) {
    emu_alarm_check(e);
    return __builtin_expect(e->threads != NULL, 0) && emu_thread_preempt(e);
}

uint64_t emu_run(emu_t *e, uint64_t max) {
    uint64_t done = 0;
    while (e->status == EMU_RUNNING && done < max) {
        uint64_t chunk = emu_next_chunk(e, max - done);
        if (e->status != EMU_RUNNING || chunk == 0) break;
        done += emu_exec_fast(e, chunk);
        emu_after_chunk(e);
    }
    return done;
}

uint64_t emu_run_uops(emu_t *e, uop *out, uint64_t max) {
    uint64_t done = 0;
    while (e->status == EMU_RUNNING && done < max) {
        uint64_t chunk = emu_next_chunk(e, max - done);
        if (e->status != EMU_RUNNING || chunk == 0) break;
        done += emu_exec_record(e, out + done, chunk);
        emu_after_chunk(e);
    }
    return done;
}

emu_status emu_state(const emu_t *e) { return e->status; }
int emu_exit_code(const emu_t *e) { return e->exit_code; }
const char *emu_error(const emu_t *e) { return e->error; }
const char *emu_path(const emu_t *e) { return e->path; }
int emu_fault_signal(const emu_t *e) { return e->fault_signal; }
uint64_t emu_icount(const emu_t *e) { return e->icount; }

/* ---- the emulator as a uop_source ---- */

typedef struct emu_source {
    uop_source base;
    emu_t *emu;
} emu_source;

static long emu_source_read(uop_source *s, uop *buf, size_t max, cs_error *err) {
    emu_t *e = ((emu_source *)s)->emu;
    uint64_t n = emu_run_uops(e, buf, max);
    /* a fault Linux would kill the guest for ends its stream as an exit does: what ran is
     * timed and the caller reports the signal (docs/json-schema.md, exit 128 + signal);
     * only what cyclescope cannot do (fault_signal 0) fails the run */
    if (n == 0 && e->status == EMU_FAILED && !e->fault_signal) {
        cs_error_set(err, "%s", e->error);
        return -1;
    }
    return (long)n;
}

static long long emu_source_skip(uop_source *s, uint64_t n, cs_error *err) {
    emu_t *e = ((emu_source *)s)->emu;
    uint64_t done = emu_run(e, n);
    if (e->status == EMU_FAILED) {
        cs_error_set(err, "%s", e->error);
        return -1;
    }
    return (long long)done;
}

static void emu_source_destroy(uop_source *s) { free(s); }

static const uop_source_ops emu_source_ops = {UOP_SOURCE_KIND_EMULATOR, emu_source_read, emu_source_skip,
                                              emu_source_destroy};

emu_t *emu_source_emu(uop_source *src) { return src && src->ops == &emu_source_ops ? ((emu_source *)src)->emu : NULL; }

uop_source *emu_source_create(emu_t *emu) {
    emu_source *s = cs_calloc(1, sizeof *s);
    s->base.ops = &emu_source_ops;
    s->emu = emu;
    return &s->base;
}

void emu_private_files(emu_t *e) {
    e->replica = true;
    emu_private_pipes(e);
    /* descriptions already replaced, found again by file, offset and flags: a guest dup()
     * is a host dup, and the two must go on sharing their offset */
    struct {
        dev_t dev;
        ino_t ino;
        off_t off;
        int flags, fd;
    } done[EMU_MAX_FDS];
    int ndone = 0;
    for (int i = 0; i < EMU_MAX_FDS; i++) {
        int h = e->fds[i].host;
        struct stat st;
        if (h < 0 || fstat(h, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        off_t off = lseek(h, 0, SEEK_CUR);
        int flags = fcntl(h, F_GETFL);
        if (off < 0 || flags < 0) continue;
        int k = 0;
        while (k < ndone &&
               !(done[k].dev == st.st_dev && done[k].ino == st.st_ino && done[k].off == off && done[k].flags == flags))
            k++;
        if (k == ndone) {
            char proc[64];
            snprintf(proc, sizeof proc, "/proc/self/fd/%d", h);
            int fresh = open(proc, (flags & (O_ACCMODE | O_APPEND)) | O_CLOEXEC);
            if (fresh < 0) continue; /* stays shared */
            if (lseek(fresh, off, SEEK_SET) != off) {
                close(fresh);
                continue;
            }
            done[ndone].dev = st.st_dev;
            done[ndone].ino = st.st_ino;
            done[ndone].off = off;
            done[ndone].flags = flags;
            done[ndone].fd = fresh;
            ndone++;
        }
        dup2(done[k].fd, h);
    }
    for (int k = 0; k < ndone; k++) close(done[k].fd);
}
