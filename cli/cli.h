/* cli — `cyclescope <verb> …`, one file per verb, each a thin layer over the modules. */
#ifndef CYCLESCOPE_CLI_H
#define CYCLESCOPE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "emu/emu.h"
#include "uarch/uarch.h"

/* Exit codes of the tool itself (a guest's own exit code passes through `exec`). */
enum { EXIT_USAGE = 2, EXIT_RUN_FAILED = 125 };

typedef struct cli_verb {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the verb */
    void (*help)(void);
} cli_verb;

/* Print "cyclescope: <message>" on stderr. Returns EXIT_RUN_FAILED for chaining. */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "cyclescope <verb>: <message>; try --help" and return EXIT_USAGE. */
int cli_usage(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* WORD as a POSIX shell reads it back, for a command line a message suggests: as it is when it
 * holds only characters no shell treats specially, else in single quotes (a checkout whose path
 * holds a space gave a suggestion that did not run when pasted). Allocated. */
char *cli_shell_word(const char *word);
/* After getopt_long returned '?' or an option the verb does not know: one
 * usage line naming it. */
int cli_bad_option(const char *verb, char **argv);
/* getopt_long that refuses an option taking a value given twice (--json a --json b wrote only
 * b, --config ooo4 --config bdw timed bdw): one usage line naming both values, then exit 2
 * (options are read before anything is opened). --set and --allow-write are let through
 * (repeatable; the latter says itself why not). */
struct option;
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts, const char *verb);

/* The first of sets[0..i-1] ("KEY=VALUE", as --set gives them) with sets[i]'s key, or -1: a key set
 * twice dropped the first value without a word (run's --set and whatif's --set refuse it). */
int cli_set_repeated(const char *const *sets, int i);

/* Options shared by every verb that runs a program in the emulator. */
typedef struct cli_guest_options {
    emu_options emu;
    bool env_fixed;
} cli_guest_options;

#define CLI_GUEST_OPTIONS_HELP                                                                \
    "  --allow-write DIR  let the guest create and modify files under DIR, one directory\n"   \
    "                     (default: only stdout and stderr are writable)\n"                   \
    "  --host-time        guest clocks follow the host (default: derived from the\n"          \
    "                     instruction count, 1 ns per instruction, so runs are repeatable)\n" \
    "  --seed N           seed of AT_RANDOM and getrandom (default fixed)\n"                  \
    "  --env-fixed        give the guest a fixed minimal environment instead of ours, and\n"  \
    "                     show it its program as /guest/NAME (argv[0], /proc/self/exe), so\n" \
    "                     the cycles do not depend on where the files live\n"                 \
    "  --guest-memory SIZE  at most SIZE bytes of guest mappings (K, M, G suffixes, powers\n" \
    "                     of 1024; default 4G); past it mmap and brk give ENOMEM\n"           \
    "  --strict-syscalls  end the run at an unsupported system call (default: it returns\n"   \
    "                     -ENOSYS with one warning per call number)\n"                        \
    "  --thread-quantum N a thread of the guest runs N instructions before the next one\n"    \
    "                     takes the hart (default 100000; docs/sandbox.md)\n"                 \
    "  --sysroot DIR      a dynamically linked program's loader and libraries: the\n"         \
    "                     absolute paths it reads are looked up under DIR first, like\n"      \
    "                     qemu-riscv64 -L DIR (default: $CYCLESCOPE_SYSROOT, else\n"          \
    "                     /usr/riscv64-linux-gnu if it exists; docs/sandbox.md)\n"

/* Long-option ids for the guest options, for getopt_long tables. */
enum {
    OPT_ALLOW_WRITE = 1000,
    OPT_HOST_TIME,
    OPT_SEED,
    OPT_ENV_FIXED,
    OPT_GUEST_MEMORY,
    OPT_STRICT_SYSCALLS,
    OPT_THREAD_QUANTUM,
    OPT_SYSROOT,
    OPT_GUEST_LAST
};
/* clang-format off */
#define CLI_GUEST_LONG_OPTIONS                                      \
    {"allow-write", required_argument, 0, OPT_ALLOW_WRITE},         \
    {"host-time", no_argument, 0, OPT_HOST_TIME},                   \
    {"seed", required_argument, 0, OPT_SEED},                       \
    {"env-fixed", no_argument, 0, OPT_ENV_FIXED},                   \
    {"guest-memory", required_argument, 0, OPT_GUEST_MEMORY},       \
    {"strict-syscalls", no_argument, 0, OPT_STRICT_SYSCALLS},       \
    {"thread-quantum", required_argument, 0, OPT_THREAD_QUANTUM},   \
    {"sysroot", required_argument, 0, OPT_SYSROOT}
/* clang-format on */

void cli_guest_defaults(cli_guest_options *g);
/* Handle one of the guest options; false if `opt` is not one (or its value is bad, after
 * printing why: *bad is then set). */
bool cli_guest_option(cli_guest_options *g, int opt, const char *arg, const char *verb, bool *bad);
/* The exit status of a verb that ran a program, once its outputs are written: 0, or
 * the program's own non-zero exit code (after a line on stderr saying so), or
 * 128 + signal after a fault (issue 18 item 1; docs/json-schema.md). */
int cli_guest_exit(const emu_t *e);
/* A run that could not be timed (`fmt`: why, from the runner): when the program `e` (NULL:
 * none) faulted, that is the reason, said in one line naming it and the fault, and the status
 * is 128 + signal as for any fault (e.g. a fault inside --warmup); else the message, and
 * EXIT_RUN_FAILED. */
int cli_run_failed(const emu_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same status without printing, for a verb that writes its outputs after the emulator is
 * gone: *line (size bytes) gets what cli_guest_exit would print after "cyclescope: " (empty
 * for 0); EXIT_RUN_FAILED for what cyclescope could not run. */
int cli_guest_end(const emu_t *e, char *line, size_t size);
/* What a verb was given as its program or trace, from the file's first bytes (the
 * emulator and the readers still check all of it): an ELF file, a .cst trace, a
 * ChampSim trace (standard or cloudsuite records, docs/trace-format.md), or other. */
typedef enum cli_input_kind {
    CLI_INPUT_OTHER,
    CLI_INPUT_ELF,
    CLI_INPUT_CST,
    CLI_INPUT_CHAMPSIM,
    CLI_INPUT_CHAMPSIM_CLOUDSUITE
} cli_input_kind;
cli_input_kind cli_input_kind_of(const char *path);
/* What a verb that times traces does with a CLI_INPUT_OTHER input: hand it to the ChampSim
 * reader, whose error names what is wrong (missing, empty, not a regular file); refuse it with
 * *err (compressed data that cannot be decompressed: "corrupt xz data"); or refuse it as data of
 * no format we read (read as ChampSim records it would be timed as nonsense, every 64 bytes an
 * "instruction"), with the verb's own line. */
typedef enum cli_other_input { CLI_OTHER_FOR_READER, CLI_OTHER_DAMAGED, CLI_OTHER_UNKNOWN } cli_other_input;
cli_other_input cli_other_input_of(const char *path, cs_error *err);
/* For a verb that times programs only, given the trace `path` of `kind`: one usage line
 * naming the file and what it is and pointing to `sim`. Returns EXIT_USAGE. */
int cli_program_only(const char *verb, const char *path, cli_input_kind kind);
/* Create the emulator for argv[0..argc-1] (the program and its arguments), the one way
 * every verb opens a program: NULL with *err naming the file and what is wrong with it
 * (the caller says it once, in its own words or with cli_guest_create). */
/* The verbs that run the guest more than once or in forked copies (run --simpoints,
 * simpoint, sweep, stacks --validate) give every copy the caller's stdin when it is a file,
 * each reading it from where the caller stood; a pipe can be read only once, so the copies
 * would take each other's bytes (run --simpoints) or read nothing (the pool's jobs). So a
 * piped stdin is first read whole into an unlinked temporary file put in its place, with a
 * one-line note: the guest then sees a file, as with `< FILE`. A pipe with nothing in it
 * (not even its end) for a second is left alone with a warning: it may be one nobody
 * writes, and waiting for its end could wait forever. False (after one line) on failure. */
bool cli_spool_piped_stdin(const char *verb);
/* The stdin of jobs that run elsewhere (sweep --emit: a GNU parallel job, a Slurm task),
 * where the caller's stdin is not: the path each job reads with `< PATH`. A file is named by
 * its absolute path (refused when it has none, or is read from past its start); a pipe is
 * read whole into keep_path (with a note); a terminal, /dev/null or an idle pipe give
 * /dev/null. NULL (after one line) on failure; the caller frees the path. */
char *cli_stdin_for_elsewhere(const char *verb, const char *keep_path);
/* What a program read of a file stdin (cli/stdin_mark.c), recorded by the verbs that analyse a
 * run (model analyze, rpstacks) and checked by those that time it again (model solve
 * --compare-sim, whatif --verify). A regular file is the stdin whose reads can be told
 * afterwards, by how far its offset moved (a pipe, a terminal: not). */
typedef struct cli_stdin_mark {
    bool file;
    off_t start;
} cli_stdin_mark;
/* Where stdin stands before the program runs. */
cli_stdin_mark cli_stdin_mark_take(void);
/* After the run: the bytes the program read and their SHA-256; false (0 bytes, zeros) when
 * stdin was no file, its offset went back, or it cannot be read again. */
bool cli_stdin_mark_read(const cli_stdin_mark *m, uint64_t *bytes, uint8_t sha256[CS_SHA256_BYTES]);
/* Before a re-run: the caller's stdin is a file that holds those bytes from where it stands;
 * false after one line, "WHAT: …" (the analysed program read nothing: true). */
bool cli_stdin_check(const char *what, uint64_t bytes, const uint8_t sha256[CS_SHA256_BYTES]);
emu_t *cli_guest_open(cli_guest_options *g, int argc, char *const *argv, cs_error *err);
/* cli_guest_open, printing the error (one line) when it fails. */
emu_t *cli_guest_create(cli_guest_options *g, int argc, char **argv);

/* Options shared by the verbs that time a run (run, sim, stacks). */
typedef struct cli_timing_options {
    const char *config;   /* name or path; default "ooo4" */
    const char *sets[64]; /* section.key=value overrides, in order */
    int set_count;
    uint64_t warmup, max;                   /* instructions */
    uint64_t interval;                      /* --interval N: statistics every N instructions; 0: none */
    uint64_t pipeview_from, pipeview_count; /* the --pipeview window, in instructions (count 0: all) */
    const char *json_path, *pipeview_path, *csv_path;
    const char *report_path;            /* HTML report; NULL: in the output directory */
    bool no_report;                     /* --no-report */
    const char *analysis;               /* --analysis LIST; NULL: "stacks" */
    const char *outdir;                 /* --outdir DIR */
    bool report_given, no_report_given; /* --report, --no-report seen (they contradict) */
    /* Set by the verb before cli_timing_begin: */
    bool default_outdir; /* without --report/--no-report/--outdir, write into a new output directory */
    int cmd_argc;        /* the verb's argv (argv[0] the verb, named in messages) */
    char **cmd_argv;
    const char *input_kind; /* "program" or "trace" */
    int input_argc;         /* the program or trace, then the program's arguments */
    char **input_argv;
    const emu_t *emu; /* a live run's guest, for its exit status */
    /* Filled by cli_timing_begin: */
    char outdir_path[1024]; /* "" when no output directory */
    char report_file[1100]; /* "" when no HTML report */
    int json_fd;            /* --json -: the real stdout (stdout itself goes to stderr) */
} cli_timing_options;

#define CLI_OUTDIR_ROOT "cyclescope-out"

/* The timing options' help in parts: `stallscope` takes --interval as its own and no --analysis. */
#define CLI_TIMING_OPTIONS_HELP_BASE                                                                \
    "  --config NAME|FILE configuration: a name from configs/ (ooo4, bdw, knl,\n"                   \
    "                     inorder1, inorder3) or an .ini file (default ooo4)\n"                     \
    "  --set S.K=V        override one configuration value (repeatable); only keys the\n"           \
    "                     chosen model reads (`cyclescope config show NAME` lists them)\n"          \
    "  --warmup N         the first N instructions only warm caches and predictors\n"               \
    "  --max N            time N instructions after the warm-up (default: all)\n"                   \
    "  --outdir DIR       write report.html, results.json, .csv and config.ini into DIR\n"          \
    "                     (run, sim default: a new " CLI_OUTDIR_ROOT "/PROG-CONFIG-TIME/ unless\n"  \
    "                     --report or --no-report is given; " CLI_OUTDIR_ROOT "/latest links it)\n" \
    "  --json FILE        also write the results as JSON (docs/json-schema.md); with -\n"           \
    "                     stdout holds the JSON alone (program output, tables: stderr)\n"           \
    "  --csv FILE         the summary and the stacks as CSV, one row per value\n"
#define CLI_TIMING_OPTIONS_HELP_INTERVAL                                                      \
    "  --interval N       also every N instructions' IPC, MPKIs and CPI stacks (JSON, CSV,\n" \
    "                     and the HTML report's time series)\n"
#define CLI_TIMING_OPTIONS_HELP_OUTPUTS                                                        \
    "  --pipeview FILE    write a gem5 O3PipeView log (open it in Konata); FILE.gz: gzip\n"    \
    "  --pipeview-from N, --pipeview-count N  log only instructions N … N+count-1\n"         \
    "  --report FILE      write the HTML report (run summary, CPI/IPC/FLOPS stacks) to FILE\n" \
    "  --no-report        write no HTML report\n"
#define CLI_TIMING_OPTIONS_HELP_ANALYSIS                                                    \
    "  --analysis LIST    the analyses to run, comma-separated, each NAME[:KEY=VALUE…]\n" \
    "                     (default stacks; none: time the bare model; `cyclescope run\n"    \
    "                     --analysis help` lists them)\n"
#define CLI_TIMING_OPTIONS_HELP_STATUS                                                  \
    "Every output is checked before the run starts. Exit status: the program's own\n"   \
    "non-zero exit code when it failed (the results are still written), 128+signal\n"   \
    "when it faulted, 2 for bad usage (options, configuration, an output that cannot\n" \
    "be written), 125 when the run could not be done.\n"
#define CLI_TIMING_OPTIONS_HELP                                                                   \
    CLI_TIMING_OPTIONS_HELP_BASE CLI_TIMING_OPTIONS_HELP_INTERVAL CLI_TIMING_OPTIONS_HELP_OUTPUTS \
        CLI_TIMING_OPTIONS_HELP_ANALYSIS CLI_TIMING_OPTIONS_HELP_STATUS

enum {
    OPT_CONFIG = 1100,
    OPT_SET,
    OPT_WARMUP,
    OPT_TMAX,
    OPT_JSON,
    OPT_PIPEVIEW,
    OPT_REPORT,
    OPT_NO_REPORT,
    OPT_ANALYSIS,
    OPT_OUTDIR,
    OPT_CSV,
    OPT_TIME_INTERVAL,
    OPT_PIPEVIEW_FROM,
    OPT_PIPEVIEW_COUNT
};
/* clang-format off */
#define CLI_TIMING_LONG_OPTIONS                                     \
    {"config", required_argument, 0, OPT_CONFIG},                   \
    {"set", required_argument, 0, OPT_SET},                         \
    {"warmup", required_argument, 0, OPT_WARMUP},                   \
    {"max", required_argument, 0, OPT_TMAX},                        \
    {"json", required_argument, 0, OPT_JSON},                       \
    {"pipeview", required_argument, 0, OPT_PIPEVIEW},               \
    {"report", required_argument, 0, OPT_REPORT},                   \
    {"no-report", no_argument, 0, OPT_NO_REPORT},                   \
    {"analysis", required_argument, 0, OPT_ANALYSIS},               \
    {"outdir", required_argument, 0, OPT_OUTDIR},                   \
    {"csv", required_argument, 0, OPT_CSV},                         \
    {"interval", required_argument, 0, OPT_TIME_INTERVAL},          \
    {"pipeview-from", required_argument, 0, OPT_PIPEVIEW_FROM},     \
    {"pipeview-count", required_argument, 0, OPT_PIPEVIEW_COUNT}
/* clang-format on */

/* Handle one timing option; false if `opt` is not one. Sets *bad after printing a usage error. */
bool cli_timing_option(cli_timing_options *t, int opt, const char *arg, const char *verb, bool *bad);
/* Load and override the configuration; prints the error and returns false on
 * failure (bad usage: exit EXIT_USAGE). An override of a key the model does not
 * read is an error naming it. */
bool cli_load_config(const cli_timing_options *t, uarch_config *cfg);
/* The shipped configurations of one model ("ooo4, bdw, knl"): what a method that models only it accepts. */
const char *cli_config_names_of_model(char *buf, size_t size, core_model model);
struct cJSON;
/* --json - (or --csv -) of verbs outside the timing options: stdout is kept for that output
 * alone and everything else written to it (a guest's output, the tables) goes to stderr.
 * Returns the real stdout's descriptor, -1 after printing why it failed. */
int cli_stdout_for_data(void);
/* Before a verb runs anything (issue 18 item 5): every output path given (NULL ones
 * skipped; "-" is stdout) is a writable file or can be created in an existing writable
 * directory. Prints why not (one line) and returns false: the verb exits EXIT_USAGE. */
bool cli_outputs_writable(const char *const *paths, int n);
/* The outputs cli_outputs_writable checked, against the inputs opened since (the program, a
 * trace): false with *err naming the first that is one. The program given as its own output
 * was found only when the output was written, after the whole run. */
bool cli_outputs_not_inputs(cs_error *err);
/* cst_open and champsim_open, then cli_outputs_not_inputs: a trace given as an output too is
 * refused before the run (NULL, *err naming it), not when that output is written after it. */
cst_reader *cli_cst_open(const char *path, cs_error *err);
uop_source *cli_champsim_open(const char *path, const champsim_options *opt, cs_error *err);
/* The same for an output directory: it exists, or its parent can hold it. */
bool cli_output_dir_ready(const char *dir);
/* Write JSON to PATH, or to DATA_FD (from cli_stdout_for_data) when PATH is "-". */
bool cli_write_json(const char *path, int data_fd, const struct cJSON *json, cs_error *err);
/* Before anything runs: the configuration, every output (its directory must
 * exist and be writable), the output directory (created), and with --json -
 * stdout moved to stderr. Returns 0 or the exit code, after printing why. */
int cli_timing_begin(cli_timing_options *t);
/* Check the configuration before a program runs, and ask the emulator for results
 * in its µops if the model predicts values. Prints the error and returns false. */
bool cli_prepare_guest(const cli_timing_options *t, cli_guest_options *g);
/* Around a run: the first Ctrl-C asks it to stop at the next safe point
 * (cs_stop_requested; the results of what ran are then written, marked partial),
 * a second one ends the process. cli_sigint_end puts back the handler begin returned. */
typedef void (*cli_sigint_handler)(int);
cli_sigint_handler cli_sigint_begin(void);
void cli_sigint_end(cli_sigint_handler old);
/* The files analyses write (the profile and its truth, the pipeview log) are put in place only
 * for a run that was one: before the run, analysis_list_stage_outputs (runner.h) asks every
 * analysis that writes files to leave them as temporaries; after it, cli_outputs_settle puts
 * them in place unless the run's status `rc` is EXIT_RUN_FAILED (what cyclescope could not run:
 * an unsupported system call writes nothing, as every verb; a fault's files hold what ran).
 * Returns rc, or EXIT_RUN_FAILED after saying why the files could not be put in place. */
struct run_result;
int cli_outputs_settle(const struct run_result *run, int rc);
/* Time `src` with the analyses of --analysis (default: the stacks) and
 * report: the run summary and each analysis on stdout, --json, and the HTML
 * report (unless --no-report); `what` names the program or trace. Returns
 * the exit code. */
int cli_timing_run(const cli_timing_options *t, uop_source *src, const char *what);
/* Print the run summary and the sections given (any may be NULL): a run's
 * analyses, stacks, a validation; write --json and the HTML report. Returns
 * the exit code. */
struct run_summary;
struct stacks_result;
struct validation_result;
struct run_result;
int cli_timing_report(const cli_timing_options *t, const struct run_summary *sum, const struct run_result *run,
                      const struct stacks_result *stacks, const struct validation_result *val);
/* --simpoints DIR (run, sim): time only the points `cyclescope simpoint` chose. */
typedef struct cli_simpoint_options {
    const char *dir;
    uint64_t warmup; /* per point; SIMPOINT_WARM_ALL (the default): everything before it */
    int jobs;        /* points timed at once; <= 0: the processors */
} cli_simpoint_options;

#define CLI_SIMPOINT_OPTIONS_HELP                                                           \
    "  --simpoints DIR    time only the simulation points in DIR (`cyclescope simpoint`)\n" \
    "                     and report the weighted estimate for the whole run; --warmup N\n" \
    "                     is then the functional warm-up before each point (default: all\n" \
    "                     of the run before it)\n"                                          \
    "  --jobs N           simulation points timed at once (default: the processors)\n"

enum { OPT_SIMPOINTS = 1150, OPT_SP_JOBS };
/* clang-format off */
#define CLI_SIMPOINT_LONG_OPTIONS                                   \
    {"simpoints", required_argument, 0, OPT_SIMPOINTS},             \
    {"jobs", required_argument, 0, OPT_SP_JOBS}
/* clang-format on */

/* Handle --simpoints / --jobs; false if `opt` is neither. Sets *bad after a usage error. */
bool cli_simpoint_option(cli_simpoint_options *s, int opt, const char *arg, const char *verb, bool *bad);
/* Check the timing options against --simpoints (no --max, --pipeview); prints and returns false. */
bool cli_simpoint_check(cli_simpoint_options *s, const cli_timing_options *t, const char *verb);
/* Time the points of s->dir from the emulator (at its start) or a trace, and
 * report the estimate as cli_timing_report does. argv: the program and its
 * arguments, or the trace. Returns the exit code. */
int cli_simpoint_run(const cli_timing_options *t, const cli_simpoint_options *s, emu_t *emu, const char *trace,
                     int argc, char **argv, const char *what);

/* The command line as given, "cyclescope" first (saved by main before a verb's
 * getopt_long reorders it), for the provenance of every JSON output. */
int cli_command_line(char *const **argv);
/* The provenance header of a verb's JSON (report_header_json): the command line,
 * Ctrl-C, and the input of `kind` ("program", "trace", "rpstacks", …) at `path`
 * with its size and SHA-256; a program's arguments are `args` (NULL: none). The
 * rest zero: the verb sets its configuration, guest and limits. */
struct report_provenance;
void cli_provenance(struct report_provenance *p, const char *kind, const char *path, int nargs, char **args);
/* How the guest `e` (NULL: none, a trace) ended, into p's guest fields: "exited" with its
 * code, "fault" with emu_error (owned by e), or "stopped". */
void cli_guest_status(const emu_t *e, struct report_provenance *p);

/* "PROG ARG1 ARG2…" into buf, for report titles. */
void cli_describe_command(char *buf, size_t size, int argc, char **argv);

/* Verbs */
int cmd_exec(int argc, char **argv);
void help_exec(void);
int cmd_disasm(int argc, char **argv);
void help_disasm(void);
int cmd_run(int argc, char **argv);
void help_run(void);
int cmd_config(int argc, char **argv);
void help_config(void);
int cmd_trace(int argc, char **argv);
void help_trace(void);
int cmd_stacks(int argc, char **argv);
void help_stacks(void);
int cmd_sim(int argc, char **argv);
void help_sim(void);
int cmd_simpoint(int argc, char **argv);
void help_simpoint(void);
int cmd_profile(int argc, char **argv);
void help_profile(void);
int cmd_sweep(int argc, char **argv);
void help_sweep(void);
int cmd_merge(int argc, char **argv);
void help_merge(void);
int cmd_compare(int argc, char **argv);
void help_compare(void);
int cmd_model(int argc, char **argv);
void help_model(void);
int cmd_rpstacks(int argc, char **argv);
void help_rpstacks(void);
int cmd_whatif(int argc, char **argv);
void help_whatif(void);
/* rpstacks, whatif: the run an .rps file came from (cli/rps_source.c) */
struct rps_origin;
typedef struct rps_source {
    const struct rps_origin *origin;
    emu_t *emu;
} rps_source;
struct run_source rps_run_source(rps_source *s, const struct rps_origin *origin);
bool rps_origin_config(const struct rps_origin *o, uarch_config *cfg, cs_error *err);
int cmd_stallscope(int argc, char **argv);
void help_stallscope(void);

#endif
