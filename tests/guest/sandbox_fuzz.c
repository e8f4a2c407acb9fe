/* A guest-side fuzzer for cyclescope's system-call layer (issue 11): COUNT raw
 * ecalls with random numbers and random arguments — small integers, random
 * 64-bit values, sizes from 0 to 2^64-1, pointers into its own memory, to the
 * last bytes before an unmapped page, to unmapped and kernel-half addresses,
 * and to paths beneath, outside and around the --allow-write directory.
 *
 *   sandbox_fuzz SEED COUNT ALLOWED_DIR OUTSIDE_DIR
 *
 * It avoids only the calls that end a run on purpose (exit, exit_group,
 * kill/tkill/tgkill, futex), rt_sigreturn (it jumps where the stack says) and clone
 * (a thread would start on a random stack), installs
 * no signal handler, and keeps munmap/mremap/mprotect/madvise and
 * MAP_FIXED on its scratch area or above the stack, so that one run makes all
 * COUNT calls; everything else goes to the host. Exit 0 after the last call.
 * tests/scripts/sandbox_syscall_fuzz.py checks the host: no crash, nothing
 * written outside ALLOWED_DIR, memory within --guest-memory. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fuzzer's state lives on its stack, which no call is aimed at: calls may
 * write anywhere in .data and .bss (the guest harming itself, as on Linux), and
 * after the loop the program leaves with raw calls, not through libc. */
enum { SCRATCH = 64 * 1024, PATHS = 32 };
typedef struct fuzz {
    uint64_t rng;
    uint8_t *scratch; /* SCRATCH bytes followed by an unmapped page */
    uint8_t *victim;  /* 4 KiB of read-only memory: calls may not write there (EFAULT) */
    char paths[PATHS][512];
    long last_fd; /* the last descriptor openat returned */
} fuzz;

static uint64_t next(fuzz *f) {
    f->rng ^= f->rng >> 12, f->rng ^= f->rng << 25, f->rng ^= f->rng >> 27;
    return f->rng * 0x2545f4914f6cdd1dull;
}

static long raw6(long nr, long a0, long a1, long a2, long a3, long a4, long a5) {
    register long x10 __asm__("a0") = a0, x11 __asm__("a1") = a1, x12 __asm__("a2") = a2, x13 __asm__("a3") = a3,
                      x14 __asm__("a4") = a4, x15 __asm__("a5") = a5, x17 __asm__("a7") = nr;
    __asm__ volatile("ecall" : "+r"(x10) : "r"(x11), "r"(x12), "r"(x13), "r"(x14), "r"(x15), "r"(x17) : "memory");
    return x10;
}

/* The calls a static glibc program makes, which cyclescope serves: drawn more often. */
static const int served[] = {56,  56,  56,  64,  64,  64,  17,  23,  24,  25,  29,  48,  56,  57,  61,  62,  63,  64,
                             65,  66,  67,  68,  78,  79,  80,  96,  99,  101, 113, 114, 115, 123, 124, 132, 134, 135,
                             153, 160, 163, 165, 169, 172, 173, 174, 175, 176, 177, 178, 179, 214, 215, 216, 222, 226,
                             233, 258, 259, 261, 278, 291, 293, 439, 34,  35,  36,  37,  38,  276, 200, 201, 202, 203,
                             204, 205, 206, 207, 208, 209, 210, 211, 212, 242, 243, 269, 199, 199};

static uint64_t pick_pointer(fuzz *f) {
    switch (next(f) % 9) {
    case 0: return 0;
    case 1: return (uint64_t)f->scratch + next(f) % SCRATCH;
    case 2: return (uint64_t)f->scratch + SCRATCH - 1 - next(f) % 16; /* runs into the unmapped page */
    case 3: return (uint64_t)f->paths[next(f) % PATHS];
    case 4: return 1ull << (40 + next(f) % 24); /* unmapped, or past the 48-bit space */
    case 5: return ~0ull - next(f) % 4096;
    case 6: return (uint64_t)f->scratch + SCRATCH;     /* the unmapped page itself */
    case 7: return (uint64_t)f->victim + next(f) % 64; /* read-only: writes must fail with EFAULT */
    default: return next(f);
    }
}

static uint64_t pick_value(fuzz *f) {
    switch (next(f) % 10) {
    case 0: return next(f) % 8;    /* fds, small flags */
    case 1: return (uint64_t)-100; /* AT_FDCWD */
    case 2: return (uint64_t)-1;
    case 3: return 1ull << (next(f) % 64); /* sizes and flag bits */
    case 4: return (1ull << (next(f) % 64)) - 1;
    case 5: return next(f) % 70000;
    case 6: return next(f) & 0x1fffff; /* O_* flags */
    case 7: return pick_pointer(f);
    default: return next(f);
    }
}

/* Keep the memory calls on the scratch area or above the stack, so the fuzzer
 * does not unmap its own code or stack (the guest would fault, not the host). */
static uint64_t own_region(fuzz *f) {
    if (next(f) % 2) return ((uint64_t)f->scratch + (next(f) % SCRATCH)) & ~4095ull;
    return (0x4000000000ull + (next(f) % (1ull << 30))) & ~4095ull;
}

int main(int argc, char **argv) {
    bool verbose = argc == 6; /* a sixth argument: print each call before making it */
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: sandbox_fuzz SEED COUNT ALLOWED_DIR OUTSIDE_DIR\n");
        return 2;
    }
    fuzz state, *f = &state;
    f->rng = strtoull(argv[1], NULL, 0) * 0x9e3779b97f4a7c15ull + 1;
    f->last_fd = 3;
    /* the report goes to fd 200; stdout and stderr are closed so that random
     * writes do not flood the host's stderr (the emulator's own messages still
     * reach it) */
    raw6(24, 2, 200, 0, 0, 0, 0); /* dup3 */
    raw6(57, 1, 0, 0, 0, 0, 0);
    raw6(57, 2, 0, 0, 0, 0, 0);
    long count = atol(argv[2]);
    const char *in = argv[3], *out = argv[4];
    /* scratch: 64 KiB then one PROT_NONE page (mmap 222, mprotect 226) */
    f->scratch = (uint8_t *)raw6(222, 0, SCRATCH + 4096, 3, 0x22, -1, 0);
    if ((long)f->scratch < 0) return 3;
    raw6(226, (long)(f->scratch + SCRATCH), 4096, 0, 0, 0, 0);
    for (int i = 0; i < SCRATCH; i++) f->scratch[i] = (uint8_t)next(f);
    f->victim = (uint8_t *)raw6(222, 0, 4096, 1, 0x22, -1, 0); /* PROT_READ */
    if ((long)f->victim < 0) return 3;
    /* the last eight: a trailing slash (kept on writes: "name/" must be a directory, and a
     * link there is followed), and the root under two names */
    static const char *const forms[PATHS] = {"%s/f",
                                             "%s/new",
                                             "%s/link_out",
                                             "%s/dangling",
                                             "%s/sub/../f",
                                             "%s/../%s",
                                             "%s/outdir/x",
                                             "%s/proc_link",
                                             "%s/sub",
                                             "%s",
                                             "%s/..",
                                             "%s/./f",
                                             "canary",
                                             "new_in_cwd",
                                             "/proc/self/fd/1",
                                             "/proc/self/cwd/canary",
                                             "/dev/null",
                                             "",
                                             ".",
                                             "..",
                                             "%s/canary",
                                             "%s/canary2",
                                             "%s/sub/deep/x",
                                             "%s//f",
                                             "%s/outdir/",
                                             "%s/link_out/",
                                             "%s/dangling/",
                                             "%s/sub/",
                                             "%s/f/",
                                             "/",
                                             "//",
                                             "%s/outdir/."};
    for (int i = 0; i < PATHS; i++) {
        const char *dir = (i >= 20 && i <= 21) ? out : in;
        if (i == 5) snprintf(f->paths[i], sizeof f->paths[i], forms[i], in, "outside/canary");
        else snprintf(f->paths[i], sizeof f->paths[i], forms[i], dir);
    }
    long done = 0;
    for (long k = 0; k < count; k++) {
        long nr = next(f) % 3 ? served[next(f) % (sizeof served / sizeof served[0])] : (long)(next(f) % 512);
        if (next(f) % 64 == 0) nr = (long)next(f); /* numbers far past Linux's */
        /* calls that end the run on purpose, rt_sigreturn, which goes on wherever the stack
         * says a signal frame left off, clone, whose thread would start on a random stack (and a
         * fork would fuzz on in two processes), and execve, which would replace the fuzzer */
        if (nr == 93 || nr == 94 || nr == 98 || nr == 129 || nr == 130 || nr == 131 || nr == 139 || nr == 220 ||
            nr == 221)
            continue;
        long a[6];
        for (int i = 0; i < 6; i++) a[i] = (long)pick_value(f);
        if (nr == 215 || nr == 216 || nr == 226 || nr == 233) {
            a[0] = (long)own_region(f);
            /* from the scratch area, at most a little past its guard page: the stack lies above */
            uint64_t end = (uint64_t)f->scratch + SCRATCH + 4096;
            if ((uint64_t)a[0] < end && (uint64_t)a[1] > end - (uint64_t)a[0] + 8 * 4096)
                a[1] = (long)(next(f) % (end - (uint64_t)a[0] + 8 * 4096));
        }
        if (nr == 216 && (a[3] & 2)) a[4] = (long)own_region(f);        /* MREMAP_FIXED's new address */
        if (nr == 222 && (a[3] & 0x100010)) a[0] = (long)own_region(f); /* MAP_FIXED(_NOREPLACE) */
        if (nr == 134 && a[0] > 0 && a[0] < 65) a[1] = 0;               /* no handlers: no signal delivery */
        if (next(f) % 2) { /* half the time, arguments shaped like a real program's */
            static const long open_flags[] = {01, 02, 0101, 01101, 02101, 0102, 0301, 02001, 0, 0200101};
            if (nr == 56) { /* openat(dirfd, path, flags, mode) */
                a[0] = next(f) % 3 ? -100 : (long)(3 + next(f) % 6);
                a[1] = (long)f->paths[next(f) % PATHS];
                a[2] = open_flags[next(f) % (sizeof open_flags / sizeof open_flags[0])];
                a[3] = 0644;
            } else if (nr == 64 || nr == 63) { /* write/read(fd, buf, n) */
                a[0] = next(f) % 2 ? f->last_fd : (long)(3 + next(f) % 6);
                a[1] = (long)(f->scratch + next(f) % 4096);
                a[2] = (long)(next(f) % 4096);
            }
        }
        if ((nr == 57 && a[0] == 200) || (nr == 24 && a[1] == 200)) continue; /* keep the report's fd */
        if (verbose) {
            char line[200];
            int n = snprintf(line, sizeof line, "call %ld: %ld(%lx, %lx, %lx, %lx, %lx, %lx)\n", k, nr, a[0], a[1],
                             a[2], a[3], a[4], a[5]);
            raw6(64, 200, (long)line, n, 0, 0, 0);
        }
        long r = raw6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
        if (nr == 56 && r >= 0) f->last_fd = r;
        done++;
    }
    /* "fuzz: N calls" on fd 200 (unless a call closed it), then exit_group(0):
     * no libc on the way out, its data may have been overwritten by a call */
    char line[64] = "fuzz: ", digits[24];
    int n = 6, d = 0;
    do digits[d++] = (char)('0' + done % 10), done /= 10;
    while (done);
    while (d) line[n++] = digits[--d];
    for (const char *t = " calls\n"; *t; t++) line[n++] = *t;
    raw6(64, 200, (long)line, n, 0, 0, 0);
    raw6(94, 0, 0, 0, 0, 0, 0);
    return 0;
}
