/* Options shared by the verbs that run a program in the emulator. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

extern char **environ;

/* A size in bytes with an optional K, M, G or T suffix (powers of 1024). */
static bool parse_size(const char *text, uint64_t *out) {
    char *end;
    if (!text || *text < '0' || *text > '9') return false;
    unsigned long long v = strtoull(text, &end, 10);
    int shift = 0;
    switch (*end) {
    case 'k':
    case 'K': shift = 10; break;
    case 'm':
    case 'M': shift = 20; break;
    case 'g':
    case 'G': shift = 30; break;
    case 't':
    case 'T': shift = 40; break;
    case 0: break;
    default: return false;
    }
    if (shift) end++;
    if (*end == 'i') end++; /* "4GiB" */
    if (*end == 'B') end++;
    if (*end || v > (UINT64_MAX >> shift)) return false;
    *out = (uint64_t)v << shift;
    return true;
}

void cli_guest_defaults(cli_guest_options *g) { memset(g, 0, sizeof *g); }

/* whether two directory names are the same directory (device and inode) */
static bool same_directory(const char *a, const char *b) {
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool cli_guest_option(cli_guest_options *g, int opt, const char *arg, const char *verb, bool *bad) {
    switch (opt) {
    case OPT_ALLOW_WRITE: {
        struct stat st; /* bad usage, before anything runs (it was found at the guest's start: 125) */
        bool exists = stat(arg, &st) == 0;
        if (!exists || !S_ISDIR(st.st_mode)) {
            cli_usage(verb, "--allow-write %s: %s", arg, exists ? "not a directory" : strerror(errno));
            *bad = true;
        } else if (g->emu.allow_write_dir && !same_directory(g->emu.allow_write_dir, arg)) {
            /* the guest writes beneath one directory (one descriptor, docs/sandbox.md §1); the
             * second one silently replaced the first */
            cli_usage(verb,
                      "--allow-write given twice (%s, then %s): the guest may write beneath one directory; give one "
                      "that holds both",
                      g->emu.allow_write_dir, arg);
            *bad = true;
        }
        g->emu.allow_write_dir = arg;
        return true;
    }
    case OPT_HOST_TIME: g->emu.host_time = true; return true;
    case OPT_ENV_FIXED: g->env_fixed = true; return true;
    case OPT_SEED:
        if (!cs_parse_count(arg, &g->emu.seed)) {
            cli_usage(verb, "--seed %s: not a non-negative integer", arg);
            *bad = true;
        }
        return true;
    case OPT_GUEST_MEMORY:
        /* at least the 8 MiB stack and a program; at most the 47-bit user address space */
        if (!parse_size(arg, &g->emu.memory_limit) || g->emu.memory_limit < (16ull << 20) ||
            g->emu.memory_limit > (1ull << 47)) {
            cli_usage(verb, "--guest-memory %s: not a size from 16M to 128T", arg);
            *bad = true;
        }
        return true;
    case OPT_STRICT_SYSCALLS: g->emu.strict_syscalls = true; return true;
    case OPT_THREAD_QUANTUM:
        if (!cs_parse_count(arg, &g->emu.thread_quantum) || g->emu.thread_quantum == 0) {
            cli_usage(verb, "--thread-quantum %s: not a positive count", arg);
            *bad = true;
        }
        return true;
    case OPT_SYSROOT: {
        /* a prefix that is no directory was taken silently: a static program ran as without
         * one, a dynamic one failed later on its missing interpreter ("" still means none) */
        struct stat st;
        if (*arg && (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode))) {
            cli_usage(verb, "--sysroot %s: %s", arg, stat(arg, &st) != 0 ? strerror(errno) : "not a directory");
            *bad = true;
            return true;
        }
        g->emu.sysroot = arg;
        /* the cyclescope processes a run starts (a guest's execve, sweep and rpstacks runs)
         * look their guests' libraries up in the same place: its real path, as a guest's
         * execve starts the next one in the guest's working directory */
        char real[PATH_MAX];
        setenv("CYCLESCOPE_SYSROOT", *arg && realpath(arg, real) ? real : arg, 1);
        return true;
    }
    default: return false;
    }
}

/* CYCLESCOPE_SYSROOT stands for --sysroot when that is not given, and is checked as it is:
 * a missing path or a non-directory was taken silently (a static program ran as without a
 * prefix, a dynamic one failed later on its missing interpreter); "" still means none.
 * A bad one ends the process here, with one line and the exit code of bad usage. */
static void check_sysroot_variable(const cli_guest_options *g) {
    const char *value = getenv("CYCLESCOPE_SYSROOT");
    if (g->emu.sysroot || !value || !*value) return;
    struct stat st;
    if (stat(value, &st) != 0 || !S_ISDIR(st.st_mode)) {
        const char *why = stat(value, &st) != 0 ? strerror(errno) : "not a directory";
        cli_fail("CYCLESCOPE_SYSROOT %s: %s (give a directory, or set it empty for none)", value, why);
        fflush(NULL);
        exit(EXIT_USAGE);
    }
    /* the processes a guest's execve starts find it from the guest's working directory */
    char real[PATH_MAX];
    if (value[0] != '/' && realpath(value, real)) setenv("CYCLESCOPE_SYSROOT", real, 1);
}

emu_t *cli_guest_open(cli_guest_options *g, int argc, char *const *argv, cs_error *err) {
    check_sysroot_variable(g);
    g->emu.argc = argc;
    g->emu.argv = (const char *const *)argv;
    g->emu.envp = (const char *const *)environ;
    g->emu.env_fixed = g->env_fixed;
    emu_t *e = emu_create(argv[0], &g->emu, err);
    if (e && !cli_outputs_not_inputs(err)) { /* the program is an output: before the run, not after */
        emu_destroy(e);
        return NULL;
    }
    return e;
}

emu_t *cli_guest_create(cli_guest_options *g, int argc, char **argv) {
    cs_error err;
    emu_t *e = cli_guest_open(g, argc, argv, &err);
    if (!e) cli_fail("%s", err.msg);
    return e;
}

/* How long a piped stdin may stay silent before it is taken for one nobody writes. */
enum { SPOOL_WAIT_MS = 1000 };

/* Read a piped stdin whole into `to`; false (after one line) on failure. */
static bool copy_stdin(const char *verb, int to, uint64_t *total) {
    const char *failed = NULL;
    char buf[1 << 16];
    *total = 0;
    for (ssize_t n; !failed && (n = read(STDIN_FILENO, buf, sizeof buf)) != 0;) {
        if (n < 0) {
            if (errno != EINTR) failed = "read failed";
            continue;
        }
        for (ssize_t put = 0, w; !failed && put<n; put += w> 0 ? w : 0)
            if ((w = write(to, buf + put, (size_t)(n - put))) < 0 && errno != EINTR) failed = "cannot keep it";
        *total += (uint64_t)n;
    }
    if (failed) cli_fail("%s: stdin: %s: %s", verb, failed, strerror(errno));
    return !failed;
}

/* A pipe with something in it (or its end) within SPOOL_WAIT_MS; false, after a warning,
 * for one that stays silent, which is then left alone. */
static bool pipe_has_input(const char *verb) {
    struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
    int ready;
    while ((ready = poll(&pfd, 1, SPOOL_WAIT_MS)) < 0 && errno == EINTR) {
    }
    if (ready == 0)
        fprintf(stderr,
                "cyclescope %s: warning: stdin is a pipe with nothing in it after %d ms; the runs read an "
                "empty stdin (give the input as a file: < FILE)\n",
                verb, SPOOL_WAIT_MS);
    return ready != 0;
}

static bool stdin_is_pipe(void) {
    struct stat st;
    return fstat(STDIN_FILENO, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

bool cli_spool_piped_stdin(const char *verb) {
    if (!stdin_is_pipe() || !pipe_has_input(verb)) return true;
    const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/cyclescope-stdin-XXXXXX", dir);
    int spool = mkstemp(path);
    if (spool < 0) {
        cli_fail("%s: stdin: cannot make a temporary file in %s: %s", verb, dir, strerror(errno));
        return false;
    }
    unlink(path);
    uint64_t total;
    bool ok = copy_stdin(verb, spool, &total);
    if (ok && (lseek(spool, 0, SEEK_SET) != 0 || dup2(spool, STDIN_FILENO) < 0)) {
        cli_fail("%s: stdin: cannot put the temporary file in its place: %s", verb, strerror(errno));
        ok = false;
    }
    close(spool);
    if (ok)
        fprintf(stderr,
                "cyclescope %s: note: stdin is a pipe: its %" PRIu64 " bytes were kept in a temporary file, "
                "which every run reads as it would read < FILE\n",
                verb, total);
    return ok;
}

char *cli_stdin_for_elsewhere(const char *verb, const char *keep_path) {
    struct stat st, named;
    if (fstat(STDIN_FILENO, &st) != 0) return cs_strdup("/dev/null");
    if (S_ISREG(st.st_mode)) {
        char path[PATH_MAX];
        ssize_t len = readlink("/proc/self/fd/0", path, sizeof path - 1);
        if (len > 0) path[len] = 0;
        if (len <= 0 || path[0] != '/' || stat(path, &named) != 0 || named.st_dev != st.st_dev ||
            named.st_ino != st.st_ino) {
            cli_fail("%s: stdin is a file with no name the jobs could open (removed?); give the input as < FILE", verb);
            return NULL;
        }
        off_t at = lseek(STDIN_FILENO, 0, SEEK_CUR);
        if (at > 0) {
            cli_fail("%s: stdin %s is read from byte %lld on, which the jobs cannot do: give it from its start", verb,
                     path, (long long)at);
            return NULL;
        }
        return cs_strdup(path);
    }
    if (!stdin_is_pipe() || !pipe_has_input(verb)) return cs_strdup("/dev/null"); /* a terminal: empty */
    cs_output out; /* written whole, then renamed: a job never reads half of it */
    cs_error err;
    FILE *keep = cs_output_open(&out, keep_path, &err);
    if (!keep) {
        cli_fail("%s: stdin: %s", verb, err.msg);
        return NULL;
    }
    uint64_t total;
    bool ok = copy_stdin(verb, fileno(keep), &total);
    if (ok && !cs_output_commit(&out, &err)) {
        cli_fail("%s: stdin: %s", verb, err.msg);
        ok = false;
    }
    cs_output_discard(&out);
    if (!ok) return NULL;
    fprintf(stderr,
            "cyclescope %s: note: stdin is a pipe: its %" PRIu64 " bytes were kept in %s, which every job reads\n",
            verb, total, keep_path);
    return cs_strdup(keep_path);
}

cli_input_kind cli_input_kind_of(const char *path) {
    FILE *f = cs_fopen_input(path, NULL); /* never wait on a FIFO or read a device */
    if (!f) return CLI_INPUT_OTHER;
    unsigned char m[4] = {0};
    bool elf = fread(m, 1, 4, f) == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
    fclose(f);
    bool cloudsuite = false;
    if (elf) return CLI_INPUT_ELF;
    if (cst_probe(path)) return CLI_INPUT_CST;
    if (champsim_probe(path, &cloudsuite)) return cloudsuite ? CLI_INPUT_CHAMPSIM_CLOUDSUITE : CLI_INPUT_CHAMPSIM;
    return CLI_INPUT_OTHER;
}

cli_other_input cli_other_input_of(const char *path, cs_error *err) {
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size == 0) return CLI_OTHER_FOR_READER;
    /* begins with the magic number of xz or gzip (what the ChampSim reader decompresses) */
    static const unsigned char xz[] = {0xfd, '7', 'z', 'X', 'Z', 0}, gz[] = {0x1f, 0x8b};
    unsigned char m[6] = {0};
    FILE *f = cs_fopen_input(path, NULL);
    size_t n = f ? fread(m, 1, sizeof m, f) : 0;
    if (f) fclose(f);
    if ((n >= sizeof xz && !memcmp(m, xz, sizeof xz)) || (n >= sizeof gz && !memcmp(m, gz, sizeof gz))) {
        champsim_options copt = {0};
        uop_source *src = champsim_open(path, &copt, err);
        uop u[16];
        bool damaged = !src || uop_source_read(src, u, 16, err) < 0;
        uop_source_destroy(src);
        if (damaged) return CLI_OTHER_DAMAGED;
    }
    return CLI_OTHER_UNKNOWN;
}

int cli_program_only(const char *verb, const char *path, cli_input_kind kind) {
    const char *what = kind == CLI_INPUT_CST ? "a .cst trace" : "a ChampSim trace";
    char *word = cli_shell_word(path);
    int rc = cli_usage(verb, "%s is %s, and %s times programs only: time a trace with `cyclescope sim %s`", path, what,
                       verb, word);
    free(word);
    return rc;
}
