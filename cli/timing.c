/* What `run`, `stacks` and `sim` share: configuration, warm-up and limits, the
 * analyses, the outputs (checked before anything runs, the output directory),
 * the timing run itself (through the runner), its reports (terminal, JSON with
 * its provenance, HTML, CSV) and the exit status (the guest's). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "report/report.h"
#include "runner/runner.h"

/* --report FILE with --no-report: the report was written or not by the order they came in.
 * (A one-value option given twice is refused by cli_getopt.) */
static bool report_options_contradict(cli_timing_options *t, int opt, const char *verb) {
    if (opt == OPT_REPORT) t->report_given = true;
    if (opt == OPT_NO_REPORT) t->no_report_given = true;
    if (!t->report_given || !t->no_report_given) return false;
    cli_usage(verb, "--report and --no-report contradict each other: give one");
    return true;
}

bool cli_timing_option(cli_timing_options *t, int opt, const char *arg, const char *verb, bool *bad) {
    if (report_options_contradict(t, opt, verb)) {
        *bad = true;
        return true;
    }
    switch (opt) {
    case OPT_CONFIG: t->config = arg; return true;
    case OPT_SET:
        if (t->set_count == (int)(sizeof t->sets / sizeof t->sets[0])) {
            cli_usage(verb, "too many --set options");
            *bad = true;
        } else {
            t->sets[t->set_count++] = arg;
        }
        return true;
    case OPT_WARMUP:
    case OPT_TMAX:
        if (!cs_parse_count(arg, opt == OPT_WARMUP ? &t->warmup : &t->max)) {
            cli_usage(verb, "--%s %s: not a count", opt == OPT_WARMUP ? "warmup" : "max", arg);
            *bad = true;
        } else if (opt == OPT_TMAX && t->max == 0) {
            /* 0 is the runner's "no limit": --max 0 timed the whole program (simpoint refuses it too) */
            cli_usage(verb, "--max %s: not a positive count", arg);
            *bad = true;
        }
        return true;
    case OPT_JSON: t->json_path = arg; return true;
    case OPT_CSV: t->csv_path = arg; return true;
    case OPT_PIPEVIEW: t->pipeview_path = arg; return true;
    case OPT_OUTDIR: t->outdir = arg; return true;
    case OPT_PIPEVIEW_FROM:
    case OPT_PIPEVIEW_COUNT: {
        uint64_t *v = opt == OPT_PIPEVIEW_FROM ? &t->pipeview_from : &t->pipeview_count;
        if (!cs_parse_count(arg, v) || (opt == OPT_PIPEVIEW_COUNT && *v == 0)) {
            cli_usage(verb, "--pipeview-%s %s: not a%s count of instructions",
                      opt == OPT_PIPEVIEW_FROM ? "from" : "count", arg, opt == OPT_PIPEVIEW_COUNT ? " positive" : "");
            *bad = true;
        }
        return true;
    }
    case OPT_TIME_INTERVAL:
        if (!cs_parse_count(arg, &t->interval) || t->interval == 0) {
            cli_usage(verb, "--interval %s: not a positive number of instructions", arg);
            *bad = true;
        }
        return true;
    case OPT_REPORT:
        t->report_path = arg;
        t->no_report = false;
        return true;
    case OPT_NO_REPORT: t->no_report = true; return true;
    case OPT_ANALYSIS: {
        if (!strcmp(arg, "help") || !strcmp(arg, "list")) {
            printf("analyses (--analysis NAME[:KEY=VALUE…],…; none: the bare model):\n");
            for (const analysis_ops *const *a = analysis_all(); *a; a++) printf("  %-10s %s\n", (*a)->name, (*a)->help);
            exit(0);
        }
        analysis_list l;
        cs_error err;
        if (!analysis_list_parse(&l, arg, &err)) {
            cli_usage(verb, "--analysis %s: %s", arg, err.msg);
            *bad = true;
        }
        analysis_list_free(&l);
        t->analysis = arg;
        return true;
    }
    default: return false;
    }
}

/* The configurations shipped in configs/, comma-separated, for a mistyped name,
 * and the nearest to it (NULL when none is close). */
static const char *config_names(char *buf, size_t size, const char *given) {
    static const char *const names[] = {"ooo4", "bdw", "knl", "inorder1", "inorder3"};
    const char *nearest = NULL;
    size_t best = 3; /* at most two edits away */
    buf[0] = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%s%s", i ? ", " : "", names[i]);
        size_t d = cs_edit_distance(given, names[i]);
        if (d < best) best = d, nearest = names[i];
    }
    return nearest;
}

const char *cli_config_names_of_model(char *buf, size_t size, core_model model) {
    static const char *const names[] = {"ooo4", "bdw", "knl", "inorder1", "inorder3"};
    buf[0] = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        uarch_config cfg;
        cs_error err;
        uarch_config_default(&cfg);
        if (!uarch_config_load(&cfg, names[i], &err) || cfg.model != model) continue;
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%s%s", len ? ", " : "", names[i]);
    }
    return buf;
}

int cli_stdout_for_data(void) {
    fflush(stdout);
    /* a closed stdout is held open read-only (main): the data could not be written */
    int mode = fcntl(STDOUT_FILENO, F_GETFL);
    if (mode >= 0 && (mode & O_ACCMODE) == O_RDONLY) {
        cli_fail("stdout: %s", strerror(EBADF));
        return -1;
    }
    int fd = dup(STDOUT_FILENO);
    if (fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        cli_fail("stdout: %s", strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    return fd;
}

bool cli_write_json(const char *path, int data_fd, const cJSON *json, cs_error *err) {
    if (strcmp(path, "-") || data_fd < 0) return report_write_json(path, json, err);
    FILE *out = fdopen(dup(data_fd), "w");
    if (!out) {
        cs_error_set(err, "stdout: %s", strerror(errno));
        return false;
    }
    bool ok = report_write_json_to(out, "stdout", json, err);
    fclose(out);
    return ok;
}

bool cli_load_config(const cli_timing_options *t, uarch_config *cfg) {
    cs_error err;
    uarch_config_default(cfg);
    const char *name = t->config ? t->config : "ooo4";
    static bool renamed_told; /* one notice per process, however many loads */
    if (uarch_config_renamed(name) && !renamed_told) {
        fprintf(stderr, "cyclescope: configuration '%s' is now called '%s'\n", name, uarch_config_renamed(name));
        renamed_told = true;
    }
    if (!uarch_config_load(cfg, name, &err)) {
        if (!strchr(name, '/') && !strstr(name, ".ini") && !strncmp(err.msg, "no configuration named", 22)) {
            char names[200];
            const char *nearest = config_names(names, sizeof names, name);
            if (nearest && !strcmp(nearest, name)) /* a shipped name, not where the configurations are */
                cli_fail("%s%s", err.msg,
                         getenv("CYCLESCOPE_CONFIGS") && *getenv("CYCLESCOPE_CONFIGS")
                             ? ": the directory CYCLESCOPE_CONFIGS names"
                             : "");
            else if (nearest)
                cli_fail("no configuration named '%s': did you mean %s? (the configurations: %s; or give an .ini file)",
                         name, nearest, names);
            else cli_fail("no configuration named '%s' (the configurations: %s; or give an .ini file)", name, names);
        } else {
            cli_fail("%s", err.msg);
        }
        return false;
    }
    for (int i = 0; i < t->set_count; i++) {
        int j = cli_set_repeated(t->sets, i);
        if (j >= 0) {
            cli_fail("--set %.*s given twice (%s, then %s)", (int)strcspn(t->sets[i], "="), t->sets[i], t->sets[j],
                     t->sets[i]);
            return false;
        }
        if (!uarch_config_set(cfg, t->sets[i], &err)) {
            cli_fail("%s", err.msg);
            return false;
        }
    }
    /* after every override: core.model may have been one of them */
    for (int i = 0; i < t->set_count; i++) {
        const char *s = t->sets[i], *eq = strchr(s, '=');
        const char *dot = memrchr(s, '.', (size_t)(eq - s));
        char section[128], key[128];
        snprintf(section, sizeof section, "%.*s", (int)(dot - s), s);
        snprintf(key, sizeof key, "%.*s", (int)(eq - dot - 1), dot + 1);
        if (!uarch_config_key_read(cfg->model, section, key)) {
            cli_fail("--set %s: the %s model does not read %s.%s (`cyclescope config show %s` lists the keys it reads)",
                     s, cfg->model == MODEL_OOO ? "out-of-order" : "in-order", section, key, name);
            return false;
        }
    }
    if (!uarch_config_validate(cfg, &err)) {
        cli_fail("configuration %s: %s", name, err.msg); /* the path when it is a file */
        return false;
    }
    return true;
}

void cli_describe_command(char *buf, size_t size, int argc, char **argv) {
    if (!size) return;
    buf[0] = 0;
    for (int i = 0; i < argc; i++) {
        size_t len = strlen(buf);
        if (len + 1 >= size) break;
        snprintf(buf + len, size - len, "%s%s", i ? " " : "", argv[i]);
    }
}

bool cli_prepare_guest(const cli_timing_options *t, cli_guest_options *g) {
    uarch_config cfg;
    if (!cli_load_config(t, &cfg)) return false;
    g->emu.record_values = cfg.model == MODEL_INORDER && cfg.inorder.value_prediction;
    return true;
}

/* ---- outputs, checked before the run ---- */

/* PATH can be written: it is a writable file, or its directory exists and is writable. */
static bool writable(const char *path) {
    if (!strcmp(path, "-")) return true;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            cli_fail("%s: cannot write: Is a directory", path);
            return false;
        }
        if (access(path, W_OK) != 0) {
            cli_fail("%s: cannot write: %s", path, strerror(errno));
            return false;
        }
        return true;
    }
    char *copy = cs_strdup(path);
    const char *dir = dirname(copy);
    bool ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0;
    if (!ok) cli_fail("%s: cannot write: %s", path, errno ? strerror(errno) : "Not a directory");
    free(copy);
    return ok;
}

/* Where PATH would be written: its directory resolved (symbolic links, `.`, `..`) and
 * its name, so `o.json` and `./o.json` are one file. */
static char *output_place(const char *path) {
    char *copy = cs_strdup(path), *copy2 = cs_strdup(path);
    char *dir = realpath(dirname(copy), NULL);
    const char *name = basename(copy2);
    char *place = NULL;
    if (dir && asprintf(&place, "%s/%s", dir, name) < 0) place = NULL;
    if (!place) place = cs_strdup(path);
    free(dir);
    free(copy);
    free(copy2);
    return place;
}

/* Two outputs given the same file: the one written last would replace the other, silently
 * (run --json F --csv F, profile record -o F --truth F). */
static bool outputs_distinct(const char *const *paths, int n) {
    for (int i = 0; i < n; i++) {
        if (!paths[i] || !strcmp(paths[i], "-")) continue;
        char *a = output_place(paths[i]);
        for (int j = i + 1; j < n; j++) {
            if (!paths[j] || !strcmp(paths[j], "-")) continue;
            char *b = output_place(paths[j]);
            bool same = !strcmp(a, b);
            free(b);
            if (same) {
                cli_fail("%s: given as two outputs (one would replace the other)", paths[j]);
                free(a);
                return false;
            }
        }
        free(a);
    }
    return true;
}

/* The outputs checked, for cli_outputs_not_inputs once the inputs are open: copies (a path
 * may be built in a buffer the caller reuses), every one of them, however long. */
static char **checked_outputs;
static size_t checked_output_count;

bool cli_outputs_not_inputs(cs_error *err) {
    for (size_t i = 0; i < checked_output_count; i++)
        if (cs_output_is_input(checked_outputs[i], err)) return false;
    return true;
}

bool cli_outputs_writable(const char *const *paths, int n) {
    for (int i = 0; i < n; i++) {
        if (paths[i] && !writable(paths[i])) return false;
        if (paths[i] && strcmp(paths[i], "-")) {
            checked_outputs = cs_realloc(checked_outputs, (checked_output_count + 1) * sizeof *checked_outputs);
            checked_outputs[checked_output_count++] = cs_strdup(paths[i]);
        }
    }
    return outputs_distinct(paths, n);
}

/* Traces are inputs like the program: one given as an output too is refused once it is
 * open, before the run, not when the output is written after it. */
cst_reader *cli_cst_open(const char *path, cs_error *err) {
    cst_reader *r = cst_open(path, err);
    if (r && !cli_outputs_not_inputs(err)) {
        cst_close(r);
        return NULL;
    }
    return r;
}

uop_source *cli_champsim_open(const char *path, const champsim_options *opt, cs_error *err) {
    uop_source *src = champsim_open(path, opt, err);
    if (src && !cli_outputs_not_inputs(err)) {
        uop_source_destroy(src);
        return NULL;
    }
    return src;
}

bool cli_output_dir_ready(const char *dir) {
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return true;
        cli_fail("%s: cannot write into it: Not a directory", dir);
        return false;
    }
    return writable(dir); /* created later: its parent must be writable */
}

/* mkdir -p for one or two levels (ROOT/NAME). */
static bool make_dir(const char *path) {
    if (mkdir(path, 0777) == 0 || errno == EEXIST) {
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) && access(path, W_OK | X_OK) == 0) return true;
        cli_fail("%s: cannot write into it: %s", path, errno ? strerror(errno) : "Not a directory");
        return false;
    }
    cli_fail("%s: cannot create: %s", path, strerror(errno));
    return false;
}

/* The directory new_outdir made, removed at exit if nothing was written into it
 * (the program or trace could not be opened, the run failed). */
static char made_outdir[1024], made_name[256], previous_latest[256];
static bool made_root; /* CLI_OUTDIR_ROOT too was made by this run: removed with it when empty */

static void remove_empty_outdir(void) {
    if (!made_outdir[0] || rmdir(made_outdir) != 0) return; /* not empty: the run's results */
    char target[256];
    ssize_t n = readlink(CLI_OUTDIR_ROOT "/latest", target, sizeof target - 1);
    if (n <= 0 || (target[n] = 0, strcmp(target, made_name))) return;
    unlink(CLI_OUTDIR_ROOT "/latest");
    if (previous_latest[0] && symlink(previous_latest, CLI_OUTDIR_ROOT "/latest") != 0) { /* a convenience */
    }
    if (made_root) rmdir(CLI_OUTDIR_ROOT); /* fails, as it should, if another run wrote into it since */
}

/* A new directory under CLI_OUTDIR_ROOT named after the program or trace, the
 * configuration and the time; ROOT/latest points to it. */
static bool new_outdir(cli_timing_options *t, const char *config) {
    struct stat root_st;
    made_root = stat(CLI_OUTDIR_ROOT, &root_st) != 0;
    if (!make_dir(CLI_OUTDIR_ROOT)) return false;
    char stem[64] = "run";
    if (t->input_argc > 0) {
        const char *base = strrchr(t->input_argv[0], '/');
        base = base ? base + 1 : t->input_argv[0];
        snprintf(stem, sizeof stem, "%.*s", (int)strcspn(base, "."), base);
    }
    char when[32];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y%m%d-%H%M%S", localtime(&now));
    for (int n = 1; n < 1000; n++) {
        char name[256];
        if (n == 1) snprintf(name, sizeof name, "%s-%s-%s", stem, config, when);
        else snprintf(name, sizeof name, "%s-%s-%s-%d", stem, config, when, n);
        snprintf(t->outdir_path, sizeof t->outdir_path, "%s/%s", CLI_OUTDIR_ROOT, name);
        if (mkdir(t->outdir_path, 0777) == 0) {
            snprintf(made_outdir, sizeof made_outdir, "%s", t->outdir_path);
            snprintf(made_name, sizeof made_name, "%s", name);
            atexit(remove_empty_outdir);
            ssize_t len = readlink(CLI_OUTDIR_ROOT "/latest", previous_latest, sizeof previous_latest - 1);
            previous_latest[len > 0 ? len : 0] = 0;
            unlink(CLI_OUTDIR_ROOT "/latest");
            if (symlink(name, CLI_OUTDIR_ROOT "/latest") != 0) { /* only a convenience */
            }
            return true;
        }
        if (errno != EEXIST) {
            cli_fail("%s: cannot create: %s", t->outdir_path, strerror(errno));
            return false;
        }
    }
    cli_fail("%s: too many runs in the same second", t->outdir_path);
    return false;
}

int cli_timing_begin(cli_timing_options *t) {
    t->json_fd = -1;
    t->outdir_path[0] = t->report_file[0] = 0;
    uarch_config cfg;
    if (!cli_load_config(t, &cfg)) return EXIT_USAGE;
    enum { FIXED_OUTPUTS = 4 };
    const char *outs[FIXED_OUTPUTS + RUN_MAX_ANALYSES] = {t->json_path, t->csv_path, t->pipeview_path,
                                                          t->no_report ? NULL : t->report_path};
    int n_outs = FIXED_OUTPUTS;
    analysis_list l = {0};
    if (t->analysis) { /* files an analysis writes (pipeview:file=…) */
        cs_error err;
        if (analysis_list_parse(&l, t->analysis, &err))
            for (int i = 0; i < l.count; i++) {
                const char *f = analysis_option(&l.opt[i], "file");
                /* --pipeview names the pipeview analysis' file: the other name would not be written */
                if (t->pipeview_path && f && !strcmp(l.ops[i]->name, "pipeview") && strcmp(f, t->pipeview_path)) {
                    int rc = cli_usage(t->cmd_argv ? t->cmd_argv[0] : "run",
                                       "--pipeview %s and pipeview:file=%s: one log, give its file once",
                                       t->pipeview_path, f);
                    analysis_list_free(&l);
                    return rc;
                }
                outs[n_outs++] = f && t->pipeview_path && !strcmp(f, t->pipeview_path) ? NULL : f;
            }
    }
    bool outputs_ok = cli_outputs_writable(outs, n_outs);
    analysis_list_free(&l);
    if (!outputs_ok) return EXIT_USAGE;
    if (t->json_path && t->csv_path && !strcmp(t->json_path, "-") && !strcmp(t->csv_path, "-"))
        return cli_usage(t->cmd_argv ? t->cmd_argv[0] : "run", "--json - and --csv -: only one can have stdout");
    if (t->outdir) {
        if (strlen(t->outdir) >= sizeof t->outdir_path - 16) return cli_usage("run", "--outdir: path too long");
        snprintf(t->outdir_path, sizeof t->outdir_path, "%s", t->outdir);
        if (!make_dir(t->outdir_path)) return EXIT_USAGE;
    } else if (t->default_outdir && !t->no_report && !t->report_path) {
        if (!new_outdir(t, cfg.name)) return EXIT_USAGE;
    }
    if (!t->no_report) {
        if (t->report_path) snprintf(t->report_file, sizeof t->report_file, "%s", t->report_path);
        else if (t->outdir_path[0]) snprintf(t->report_file, sizeof t->report_file, "%s/report.html", t->outdir_path);
    }
    /* --json - (or --csv -): stdout carries that alone; the program's output and the tables go to stderr */
    if ((t->json_path && !strcmp(t->json_path, "-")) || (t->csv_path && !strcmp(t->csv_path, "-"))) {
        t->json_fd = cli_stdout_for_data();
        if (t->json_fd < 0) return EXIT_RUN_FAILED;
    }
    return 0;
}

/* ---- reports ---- */

void cli_guest_status(const emu_t *e, report_provenance *p) {
    p->has_guest = e != NULL;
    if (!e) return;
    switch (emu_state(e)) {
    case EMU_EXITED:
        p->guest_state = "exited";
        p->guest_exit_code = emu_exit_code(e);
        break;
    case EMU_FAILED:
        p->guest_state = "fault";
        p->guest_error = emu_error(e);
        break;
    default: p->guest_state = "stopped"; break;
    }
}

int cli_guest_end(const emu_t *e, char *line, size_t size) {
    if (size) line[0] = 0;
    if (!e) return 0;
    if (emu_state(e) == EMU_EXITED && emu_exit_code(e) != 0) {
        /* named as a fault's line names it (emu_error: "PROG: segmentation fault: …") */
        snprintf(line, size, "%s: the program exited with status %d (the results cover what it ran)", emu_path(e),
                 emu_exit_code(e));
        return emu_exit_code(e);
    }
    if (emu_state(e) == EMU_FAILED) {
        snprintf(line, size, "%s", emu_error(e));
        return emu_fault_signal(e) ? 128 + emu_fault_signal(e) : EXIT_RUN_FAILED;
    }
    return 0;
}

int cli_run_failed(const emu_t *e, const char *fmt, ...) {
    if (e && emu_state(e) == EMU_FAILED && emu_fault_signal(e)) {
        cli_fail("%s", emu_error(e)); /* names the program, the fault and where */
        return 128 + emu_fault_signal(e);
    }
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cli_fail("%s", msg);
}

int cli_guest_exit(const emu_t *e) {
    char line[600];
    int rc = cli_guest_end(e, line, sizeof line);
    if (rc) cli_fail("%s", line);
    return rc;
}

void cli_provenance(report_provenance *p, const char *kind, const char *path, int nargs, char **args) {
    memset(p, 0, sizeof *p);
    char *const *argv;
    p->argc = cli_command_line(&argv);
    p->argv = argv;
    p->input_kind = kind;
    p->input_path = path;
    p->input_argc = nargs;
    p->input_argv = args;
    cs_error err;
    if (path && !cs_sha256_file(path, p->input_sha256, &p->input_bytes, &err)) p->input_sha256[0] = 0;
    p->partial = cs_stop_requested();
    p->stopped_by = p->partial ? "interrupted (SIGINT, Ctrl-C)" : NULL;
}

static void fill_provenance(const cli_timing_options *t, report_provenance *p) {
    bool program = t->input_kind && !strcmp(t->input_kind, "program");
    cli_provenance(p, t->input_kind, t->input_argc > 0 ? t->input_argv[0] : NULL,
                   program && t->input_argc > 0 ? t->input_argc - 1 : 0,
                   program && t->input_argc > 0 ? t->input_argv + 1 : NULL);
    p->config_source = t->config ? t->config : "ooo4";
    p->override_count = t->set_count;
    p->overrides = t->sets;
    p->warmup_instructions = t->warmup;
    p->max_instructions = t->max;
    cli_guest_status(t->emu, p);
}

static bool write_text_file(const char *path, void (*write)(const void *, FILE *), const void *ctx, cs_error *err) {
    cs_output out;
    FILE *f = cs_output_open(&out, path, err);
    if (!f) return false;
    write(ctx, f);
    bool ok = cs_output_commit(&out, err);
    cs_output_discard(&out);
    return ok;
}

static void write_config(const void *cfg, FILE *f) { uarch_config_print(cfg, f); }

static int write_reports(const cli_timing_options *t, const run_summary *sum, const report_provenance *prov,
                         const run_result *run, const stacks_result *stacks, const validation_result *val) {
    cs_error err;
    int rc = 0;
    cJSON *j = report_result_json(sum, prov);
    if (run) runner_json(run, j);
    if (stacks) cJSON_AddItemToObject(j, "stacks", report_stacks_json(stacks));
    if (val) cJSON_AddItemToObject(j, "validation", report_validation_json(val));
    if (t->json_path) {
        bool ok;
        if (!strcmp(t->json_path, "-")) {
            FILE *out = fdopen(dup(t->json_fd), "w");
            ok = out && report_write_json_to(out, "stdout", j, &err);
            if (out) fclose(out);
        } else {
            ok = report_write_json(t->json_path, j, &err);
        }
        if (!ok) rc = cli_fail("%s", err.msg);
    }
    if (t->outdir_path[0]) {
        char path[1200];
        snprintf(path, sizeof path, "%s/results.json", t->outdir_path);
        if (!report_write_json(path, j, &err)) rc = cli_fail("%s", err.msg);
        snprintf(path, sizeof path, "%s/config.ini", t->outdir_path);
        if (!write_text_file(path, write_config, sum->cfg, &err)) rc = cli_fail("%s", err.msg);
    }
    cJSON_Delete(j);
    if (t->csv_path || t->outdir_path[0]) {
        const stacks_result *st = stacks;
        const stacks_intervals *iv = NULL;
        const void *self = run && !st ? run_result_analysis(run, "stacks") : NULL;
        if (self) st = stacks_observer_result(self), iv = stacks_observer_intervals(self);
        char path[1200];
        snprintf(path, sizeof path, "%s/results.csv", t->outdir_path);
        const char *paths[] = {t->csv_path, t->outdir_path[0] ? path : NULL};
        for (int i = 0; i < 2; i++) {
            if (!paths[i]) continue;
            if (!strcmp(paths[i], "-")) {
                FILE *out = fdopen(dup(t->json_fd), "w");
                if (!out) {
                    rc = cli_fail("%s: cannot write: %s", paths[i], strerror(errno));
                    continue;
                }
                report_csv(sum, st, iv, out);
                if (fclose(out) != 0) rc = cli_fail("%s: write failed", paths[i]);
                continue;
            }
            cs_output file;
            FILE *out = cs_output_open(&file, paths[i], &err);
            if (!out) {
                rc = cli_fail("%s", err.msg);
                continue;
            }
            report_csv(sum, st, iv, out);
            if (!cs_output_commit(&file, &err)) rc = cli_fail("%s", err.msg);
            cs_output_discard(&file);
        }
    }
    if (t->report_file[0]) {
        const char *path = t->report_file;
        char title[600];
        snprintf(title, sizeof title, "cyclescope: %s on %s", sum->program, sum->cfg->name);
        html_report *h = html_report_begin(title);
        html_report_provenance(h, prov);
        html_report_run(h, sum);
        if (run) runner_html(run, h);
        if (stacks) html_report_stacks(h, stacks);
        if (val) html_report_validation(h, val);
        if (!html_report_write(h, path, &err)) {
            rc = cli_fail("%s", err.msg);
        } else if (strcmp(path, "-") != 0) {
            char *full = realpath(path, NULL);
            printf("\nHTML report: %s (open it in a browser)\n", full ? full : path);
            free(full);
        }
        html_report_free(h);
    }
    if (t->outdir_path[0])
        printf("Results (report.html, results.json, results.csv, config.ini): %s/\n", t->outdir_path);
    return rc;
}

int cli_timing_report(const cli_timing_options *t, const run_summary *sum, const run_result *run,
                      const stacks_result *stacks, const validation_result *val) {
    report_provenance prov;
    fill_provenance(t, &prov);
    if (prov.partial)
        printf("PARTIAL RESULTS: the run was %s; every number below covers only what ran.\n", prov.stopped_by);
    report_run_text(sum, stdout);
    if (run) runner_text(run, stdout);
    if (stacks) report_stacks_text(stacks, stdout);
    if (val) report_validation_text(val, stdout);
    fflush(stdout);
    int rc = write_reports(t, sum, &prov, run, stacks, val);
    fflush(stdout);
    return rc;
}

/* Ctrl-C during a run: stop at the next safe point and report what ran; a
 * second Ctrl-C ends the process at once. */
static void on_sigint(int sig) {
    static const char msg[] = "\ncyclescope: stopping: the results of what ran follow, marked partial (Ctrl-C again "
                              "to quit at once)\n";
    (void)sig;
    cs_stop_request();
    signal(SIGINT, SIG_DFL);
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) { /* nothing to do about it */
    }
}

cli_sigint_handler cli_sigint_begin(void) {
    cs_stop_clear();
    return signal(SIGINT, on_sigint);
}

void cli_sigint_end(cli_sigint_handler old) { signal(SIGINT, old == SIG_ERR ? SIG_DFL : old); }

int cli_outputs_settle(const run_result *run, int rc) {
    if (rc == EXIT_RUN_FAILED) return rc; /* not kept: the temporaries go with the analyses */
    cs_error err;
    return run_result_keep_outputs(run, &err) ? rc : cli_fail("%s", err.msg);
}

int cli_timing_run(const cli_timing_options *t, uop_source *src, const char *what) {
    uarch_config cfg;
    if (!cli_load_config(t, &cfg)) return EXIT_USAGE;
    cs_error err;
    analysis_list list;
    if (!analysis_list_parse(&list, t->analysis ? t->analysis : "stacks", &err)) return cli_fail("%s", err.msg);
    if (t->pipeview_path && !analysis_list_add(&list, "pipeview", "file", t->pipeview_path, &err)) {
        analysis_list_free(&list);
        return cli_fail("%s", err.msg);
    }
    if (t->pipeview_from || t->pipeview_count) { /* the window of --pipeview (or of pipeview:file=…) */
        char from[32], count[32];
        snprintf(from, sizeof from, "%" PRIu64, t->pipeview_from);
        snprintf(count, sizeof count, "%" PRIu64, t->pipeview_count);
        if (!analysis_list_has(&list, "pipeview")) {
            analysis_list_free(&list);
            return cli_usage(t->cmd_argv ? t->cmd_argv[0] : "run", "--pipeview-from/--pipeview-count need --pipeview");
        }
        analysis_list_add(&list, "pipeview", "from", from, &err);
        if (t->pipeview_count) analysis_list_add(&list, "pipeview", "count", count, &err);
    }
    /* the profile's executable is the program run, named whole: the sampler otherwise takes the
       first word of `what`, which split a path holding a space ("/tmp/my dir/prog": "/tmp/my") */
    for (int i = 0; i < list.count; i++)
        if (!strcmp(list.ops[i]->name, "profile") && !analysis_option(&list.opt[i], "exe") && t->input_kind &&
            !strcmp(t->input_kind, "program") && t->input_argc > 0 &&
            !analysis_list_add(&list, "profile", "exe", t->input_argv[0], &err)) {
            analysis_list_free(&list);
            return cli_fail("%s", err.msg);
        }
    if (t->interval) { /* the stacks record the intervals */
        char every[32];
        snprintf(every, sizeof every, "%" PRIu64, t->interval);
        if (!analysis_list_has(&list, "stacks")) {
            analysis_list_free(&list);
            return cli_usage(t->cmd_argv ? t->cmd_argv[0] : "run", "--interval needs the stacks analysis");
        }
        analysis_list_add(&list, "stacks", "interval", every, &err);
    }
    if (!analysis_list_stage_outputs(&list, &err)) {
        analysis_list_free(&list);
        return cli_fail("%s", err.msg);
    }
    run_spec spec = {&cfg, {t->warmup, t->max, "simulating"}, &list, what};
    run_config_origin origin = {t->config ? t->config : "ooo4", t->set_count, t->sets};
    run_result run;
    int rc = 0;
    cli_sigint_handler old_handler = cli_sigint_begin();
    bool ran = runner_run_origin(&spec, &origin, src, &run, &err);
    cli_sigint_end(old_handler);
    if (!ran) {
        /* nothing ran: the configuration or an analysis option was refused (bad usage) */
        cli_fail("%s", err.msg);
        rc = EXIT_USAGE;
    } else {
        if (!run.ok) {
            rc = cli_outputs_settle(&run, cli_run_failed(t->emu, "%s", run.err.msg));
        } else if ((rc = cli_outputs_settle(&run, 0)) == 0) {
            run_summary sum = {what, &cfg, &run.stats, run.stats.warmup_uops};
            rc = cli_timing_report(t, &sum, &run, NULL, NULL);
            if (rc == 0 && cs_stop_requested()) rc = 128 + SIGINT;
            if (rc == 0) rc = cli_guest_exit(t->emu);
        }
        run_result_free(&run);
    }
    analysis_list_free(&list);
    return rc;
}
