/* cyclescope: where did the cycles go, and what if the design changed. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sweep/sweep.h"
#include "util/util.h"

static const cli_verb verbs[] = {
    {"exec", "run a RISC-V program like qemu-riscv64 (--stats: count and mix)", cmd_exec, help_exec},
    {"disasm", "disassemble a RISC-V executable as objdump -d does", cmd_disasm, help_disasm},
    {"run", "time a RISC-V program on a core model (live emulator)", cmd_run, help_run},
    {"sim", "time a trace file (.cst or ChampSim) on a core model", cmd_sim, help_sim},
    {"config", "show a configuration, fully resolved", cmd_config, help_config},
    {"trace", "record, inspect, import and export trace files (.cst, ChampSim)", cmd_trace, help_trace},
    {"stacks", "CPI/IPC/FLOPS stacks of a run; --validate against idealised machines", cmd_stacks, help_stacks},
    {"stallscope", "causal stall-event chains from every lost completion to its root cause", cmd_stallscope,
     help_stallscope},
    {"simpoint", "SimPoint phases: basic block vectors, clustering, simulation points", cmd_simpoint, help_simpoint},
    {"profile", "DCPI-style profiling: sample a run, estimate frequencies, CPI and stall culprits", cmd_profile,
     help_profile},
    {"sweep", "time a grid of configurations: here (-j N), GNU parallel or Slurm", cmd_sweep, help_sweep},
    {"compare", "two or more runs' JSON results side by side: summary and stacks with changes", cmd_compare,
     help_compare},
    {"merge", "a sweep's results as CSV, JSON and an HTML report with curves and a heatmap", cmd_merge, help_merge},
    {"model", "Noonburg's statistical models: analyse a trace once, model in-order machines", cmd_model, help_model},
    {"rpstacks", "RpStacks: representative stall-event stacks of a run, saved for what-ifs", cmd_rpstacks,
     help_rpstacks},
    {"whatif", "predict the CPI of latency changes from an .rps file (RpStacks, CP1, FMT)", cmd_whatif, help_whatif},
};
enum { VERB_COUNT = sizeof verbs / sizeof verbs[0] };

/* An error is one line: a value quoted in it (an option, a path, a file's text) keeps its
 * newlines and other control characters as escapes (--set $'core.rob_size=6\n4'). */
static void put_message(const char *fmt, va_list ap) {
    char *text = NULL;
    if (vasprintf(&text, fmt, ap) < 0) return;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '\n') fputs("\\n", stderr);
        else if (*c == '\r') fputs("\\r", stderr);
        else if (*c < ' ' && *c != '\t') fprintf(stderr, "\\x%02x", *c);
        else fputc(*c, stderr);
    }
    free(text);
}

int cli_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("cyclescope: ", stderr);
    put_message(fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_RUN_FAILED;
}

int cli_usage(const char *verb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cyclescope %s: ", verb);
    put_message(fmt, ap);
    fprintf(stderr, " (see cyclescope %s --help)\n", verb);
    va_end(ap);
    return EXIT_USAGE;
}

char *cli_shell_word(const char *word) {
    bool plain = word[0] != 0;
    for (const char *c = word; *c && plain; c++) plain = isalnum((unsigned char)*c) || strchr("/._-+,:=@%", *c);
    return plain ? cs_strdup(word) : sweep_shell_quote(word);
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts, const char *verb) {
    static struct {
        int opt;
        const char *arg;
    } seen[64];
    static int nseen;
    if (optind <= 1) nseen = 0; /* a new parse */
    int opt = getopt_long(argc, argv, shortopts, longopts, NULL);
    if (opt == -1 || opt == '?' || opt == ':' || !optarg) return opt; /* flags may be said twice */
    const char *name = NULL;
    for (const struct option *o = longopts; o->name; o++)
        if (o->val == opt) name = o->name;
    if (name && (!strcmp(name, "set") || !strcmp(name, "allow-write"))) return opt;
    for (int i = 0; i < nseen; i++) {
        if (seen[i].opt != opt) continue;
        char shown[64];
        if (opt < 128 && opt > ' ' && strchr(shortopts, opt)) snprintf(shown, sizeof shown, "-%c", opt);
        else snprintf(shown, sizeof shown, "--%s", name ? name : "?");
        cli_usage(verb, "%s given twice (%s, then %s): it takes one value", shown, seen[i].arg, optarg);
        exit(EXIT_USAGE);
    }
    if (nseen < (int)(sizeof seen / sizeof seen[0])) seen[nseen].opt = opt, seen[nseen++].arg = optarg;
    return opt;
}

int cli_set_repeated(const char *const *sets, int i) {
    size_t len = strcspn(sets[i], "=");
    for (int j = 0; j < i; j++)
        if (strcspn(sets[j], "=") == len && !strncmp(sets[j], sets[i], len)) return j;
    return -1;
}

int cli_bad_option(const char *verb, char **argv) {
    const char *arg = optind > 0 ? argv[optind - 1] : "?";
    /* glibc: for a long option optopt is its value when its argument is missing, 0
     * when unknown; for a short one it is the letter either way, and only -o and -j
     * take a value here, so only they, given last, lack one */
    bool missing = arg[0] == '-' && arg[1] == '-' ? optopt != 0 : (optopt == 'o' || optopt == 'j') && optind >= 2;
    if (missing) return cli_usage(verb, "option %s needs a value", arg);
    if (arg[0] == '-' && arg[1] != '-' && optopt > ' ' && optopt < 127)
        return cli_usage(verb, "unknown option -%c", optopt);
    return cli_usage(verb, "unknown option %s", arg);
}

static void usage(FILE *out) {
    fprintf(out,
            "usage: cyclescope <verb> [options] …\n"
            "\n"
            "cyclescope runs RISC-V programs on its own emulator and timing models and tells\n"
            "where the cycles went and what a design change would do.\n"
            "\n"
            "verbs:\n");
    for (int i = 0; i < VERB_COUNT; i++) fprintf(out, "  %-10s %s\n", verbs[i].name, verbs[i].summary);
    fprintf(out,
            "\n"
            "cyclescope <verb> --help   options of one verb\n"
            "cyclescope --version       version\n"
            "first run, in a build tree: cyclescope run build/workloads/sort 10000 (the\n"
            "bundled workloads: workloads/README.md; each method's page: docs/*.md)\n"
            "\n"
            "exit codes: 2 bad usage (options, configuration, outputs), 125 the run could not\n"
            "be done (bad input); the verbs that run a program (exec, run, stacks, stallscope,\n"
            "rpstacks, profile record, model analyze, trace record, simpoint) end with its own\n"
            "non-zero exit code, or 128+signal when it faulted, once their results are written.\n");
}

static char **command_argv; /* main's argv, before a verb's getopt_long permutes it */
static int command_argc;

int cli_command_line(char *const **argv) {
    *argv = command_argv;
    return command_argc;
}

/* A closed standard descriptor (`>&-`, `2>&-`) would be handed to the first file
 * cyclescope opens: the terminal tables or an error line would land in an output.
 * /dev/null opened read-only holds its place: writes to it still fail with EBADF,
 * as they would closed (ours and the guest's), and finish() reports ours. */
static void hold_closed_std_descriptors(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        int held = open("/dev/null", O_RDONLY);
        if (held >= 0 && held != fd) {
            dup2(held, fd);
            close(held);
        }
    }
}

/* Tables on a full or closed stdout are lost: a run that printed them must not
 * exit 0 as if they were shown. A non-zero status already said what went wrong in
 * its own line, so it stands. */
static int finish(int rc) {
    errno = 0;
    bool flush_failed = fflush(stdout) != 0;
    int why = errno;
    if ((flush_failed || ferror(stdout)) && rc == 0) {
        /* a pipe whose reader is gone (`cyclescope run PROG | head`): the host's SIGPIPE was
         * ignored while the emulator lived (the guest takes its own, emu.c), so the tables met
         * EPIPE; end as SIGPIPE's default action would have ended us, silently, unless the
         * caller ignores SIGPIPE */
        struct pollfd out = {.fd = STDOUT_FILENO, .events = 0};
        struct sigaction now;
        if (poll(&out, 1, 0) == 1 && (out.revents & POLLERR) && sigaction(SIGPIPE, NULL, &now) == 0 &&
            now.sa_handler == SIG_DFL)
            raise(SIGPIPE);
        /* an earlier failed write left only the error flag, not its errno */
        fprintf(stderr, "cyclescope: stdout: write failed: %s\n",
                flush_failed && why ? strerror(why) : "closed, or no space left");
        return EXIT_RUN_FAILED;
    }
    return rc;
}

static int dispatch(int argc, char **argv);

int main(int argc, char **argv) {
    hold_closed_std_descriptors();
    return finish(dispatch(argc, argv));
}

static int dispatch(int argc, char **argv) {
    cs_protect_inputs(); /* no output may replace an input (issue 11) */
    command_argv = cs_calloc((size_t)argc + 1, sizeof *command_argv);
    memcpy(command_argv, argv, (size_t)argc * sizeof *argv);
    command_argv[0] = "cyclescope";
    command_argc = argc;
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *verb = argv[1];
    opterr = 0; /* the verbs say what is wrong with an option, in one line (cli_bad_option) */
    if (!strcmp(verb, "--version") || !strcmp(verb, "version")) {
        printf("cyclescope %s (commit %s)\n", CYCLESCOPE_VERSION, cs_build_commit);
        return 0;
    }
    if (!strcmp(verb, "--help") || !strcmp(verb, "-h") || !strcmp(verb, "help")) {
        if (argc > 2 && strcmp(verb, "help") == 0) {
            for (int i = 0; i < VERB_COUNT; i++)
                if (!strcmp(verbs[i].name, argv[2])) {
                    verbs[i].help();
                    return 0;
                }
        }
        usage(stdout);
        return 0;
    }
    for (int i = 0; i < VERB_COUNT; i++) {
        if (strcmp(verbs[i].name, verb) != 0) continue;
        /* `--help` before the first operand; for the verbs with subcommands, also
         * after the subcommand (`model solve --help`, which their messages suggest) */
        static const char *const with_sub[] = {"model", "profile", "trace", "config"};
        int first = 2;
        for (size_t s = 0; s < sizeof with_sub / sizeof with_sub[0]; s++)
            if (!strcmp(verb, with_sub[s]) && argc > 2 && argv[2][0] != '-') first = 3;
        for (int k = first; k < argc && argv[k][0] == '-'; k++) {
            if (!strcmp(argv[k], "--")) break;
            if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) {
                verbs[i].help();
                return 0;
            }
        }
        return verbs[i].run(argc - 1, argv + 1);
    }
    cli_fail("unknown verb '%s' (see cyclescope --help)", verb);
    return EXIT_USAGE;
}
