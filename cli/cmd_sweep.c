/* cyclescope sweep: a grid of configurations, one timing run per point, each
 * point's result in DIR/HASH.json (HASH: the resolved configuration's), run
 * here with a process pool or written out as a job list for GNU parallel or
 * an array script for Slurm (docs/sweep.md). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "report/report.h"
#include "runner/runner.h"
#include "sweep/sweep.h"

void help_sweep(void) {
    printf("usage: cyclescope sweep --grid 'S.K=V1,V2… S.K=…' [options] -o DIR PROG [ARGS…]\n"
           "       cyclescope sweep --grid … [options] -o DIR TRACE.cst\n"
           "\n"
           "Time PROG (or a trace) once per point of the grid: every combination of the\n"
           "values given, set over --config and --set. Every key and value is checked\n"
           "before anything runs. Each point's result goes to DIR/HASH.json, HASH being\n"
           "the hash of its resolved configuration: a sweep run again resumes where it\n"
           "stopped and never runs a point twice; a point that fails is recorded with\n"
           "its error and the others go on (a program that exits with a non-zero status\n"
           "is measured all the same, its status recorded). `cyclescope merge DIR`\n"
           "tabulates them.\n"
           "\n"
           "options:\n"
           "  --grid 'S.K=V,… …'  the axes (required); e.g. 'core.rob_size=64,128,256\n"
           "                      l1d.size=32K,48K' is 6 points; an axis S.K=A..B is every\n"
           "                      integer from A to B (as whatif's; at most 256 values)\n"
           "  -o DIR              the results directory (created if missing)\n"
           "  -j N                points timed at once here, on the runner's process pool\n"
           "                      (default: the processors)\n"
           "  --retry-failed      run again the points recorded as failed\n"
           "  --emit parallel     run nothing: write DIR/jobs.txt, one command per point\n"
           "                      still to run, for GNU parallel (parallel -j N < DIR/jobs.txt)\n"
           "  --emit slurm        run nothing: write DIR/sweep.sbatch, an sbatch array script\n"
           "                      with one array task per point still to run\n"
           "  --slurm-partition P, --slurm-time MINUTES, --slurm-mem SIZE, --slurm-cpus N,\n"
           "  --slurm-account A   resources of each array task (#SBATCH lines)\n"
           "  --config NAME|FILE  the configuration the grid is set over (default ooo4)\n"
           "  --set S.K=V         a fixed override under every point (repeatable)\n"
           "  --warmup N          the first N instructions of each run only warm caches and predictors\n"
           "  --max N             time N instructions of each run after the warm-up\n"
           "  --analysis LIST     the analyses of each run (default stacks), as for run\n" CLI_GUEST_OPTIONS_HELP
           "The guest always gets the fixed minimal environment of --env-fixed, so that a\n"
           "point gives the same result wherever it runs.\n");
}

enum {
    OPT_GRID = 1400,
    OPT_EMIT,
    OPT_RETRY,
    OPT_SLURM_PARTITION,
    OPT_SLURM_TIME,
    OPT_SLURM_MEM,
    OPT_SLURM_CPUS,
    OPT_SLURM_ACCOUNT,
};

typedef struct sweep_cli sweep_cli;
struct sweep_cli {
    cli_timing_options t;
    cli_guest_options g;
    const char *grid_text, *dir, *emit;
    const char *slurm_partition, *slurm_time, *slurm_mem, *slurm_cpus, *slurm_account;
    int jobs;
    bool retry_failed;
    int argc; /* the program and its arguments, or the trace */
    char **argv;
    bool trace;
};

/* ---- running points here: the runner's process pool ---- */

/* Each job's µop stream, opened in the job's own process. */
typedef struct point_source {
    const struct sweep_cli *c;
    emu_t *emu;
} point_source;

static uop_source *point_open(void *ctx, cs_error *err) {
    point_source *ps = ctx;
    const struct sweep_cli *c = ps->c;
    if (c->trace) {
        cst_reader *r = cli_cst_open(c->argv[0], err);
        return r ? cst_reader_source(r) : NULL;
    }
    cli_guest_options g = c->g;
    g.env_fixed = true; /* as --env-fixed */
    ps->emu = cli_guest_open(&g, c->argc, c->argv, err);
    return ps->emu ? emu_source_create(ps->emu) : NULL;
}

/* A program that exited with a non-zero status ran to its end all the same (many benchmarks
 * end so): the point is a measurement, with that status recorded (docs/sweep.md). */
static int point_guest_status(void *ctx) {
    point_source *ps = ctx;
    return ps->emu && emu_state(ps->emu) == EMU_EXITED ? emu_exit_code(ps->emu) : 0;
}

static bool point_close(void *ctx, uop_source *src, cs_error *err) {
    point_source *ps = ctx;
    /* a guest fault (a signal) or what cyclescope could not run is no measurement of the
     * point: recorded failed, with why */
    bool ok = !ps->emu || emu_state(ps->emu) != EMU_FAILED;
    if (!ok) cs_error_set(err, "%s", emu_error(ps->emu));
    uop_source_destroy(src);
    emu_destroy(ps->emu);
    ps->emu = NULL;
    return ok;
}

/* The point's record, the swept values and the program. */
static sweep_point point_record(const sweep_cli *c, const sweep_grid *g, size_t index, const char *hash) {
    sweep_point p;
    memset(&p, 0, sizeof p);
    memcpy(p.hash, hash, SWEEP_HASH_LEN + 1);
    p.argc = c->argc;
    p.argv = c->argv;
    p.config_name = (char *)(c->t.config ? c->t.config : "ooo4");
    const char *values[SWEEP_MAX_AXES];
    sweep_point_values(g, index, values);
    p.settings = g->axes;
    for (int a = 0; a < g->axes; a++) p.key[a] = g->axis[a].key, p.value[a] = (char *)values[a];
    return p;
}

/* Run the points in `to_run` here on the runner's pool, c->jobs at a time, a
 * batch at a time so that each point's file is written as its batch ends (a
 * sweep stopped half way keeps what it did). Returns how many failed; the first failure's
 * error goes to first_error (size bytes); *exited counts the points whose program exited
 * with a non-zero status (completed points), *first_exit the first one's status. */
static size_t run_here(const sweep_cli *c, const sweep_grid *g, const uarch_config *base, const analysis_list *list,
                       const size_t *to_run, size_t n, char *first_error, size_t size, size_t *exited,
                       int *first_exit) {
    int parallel = c->jobs > 0 ? c->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (parallel < 1) parallel = 1;
    size_t batch = (size_t)parallel * 2, failed = 0;
    char what[512];
    cli_describe_command(what, sizeof what, c->argc, c->argv);
    run_job *jobs = cs_calloc(batch, sizeof *jobs);
    job_result *results = cs_calloc(batch, sizeof *results);
    char **names = cs_calloc(batch, sizeof *names);
    /* each job's origin for its analyses: the fixed --set options, then the point's values */
    typedef struct job_origin {
        const char *overrides[64 + SWEEP_MAX_AXES];
        char sets[SWEEP_MAX_AXES][256];
    } job_origin;
    job_origin *origins = cs_calloc(batch, sizeof *origins);
    point_source ps = {c, NULL};
    /* each point's result carries the run header: the input, the configuration with
     * the fixed --set options and then the point's own values as its overrides */
    report_provenance prov;
    cli_provenance(&prov, c->trace ? "trace" : "program", c->argv[0], c->trace ? 0 : c->argc - 1,
                   c->trace ? NULL : c->argv + 1);
    prov.config_source = c->t.config ? c->t.config : "ooo4";
    prov.warmup_instructions = c->t.warmup;
    prov.max_instructions = c->t.max;
    const char *overrides[64 + SWEEP_MAX_AXES];
    char point_sets[SWEEP_MAX_AXES][256];
    for (int k = 0; k < c->t.set_count; k++) overrides[k] = c->t.sets[k];
    prov.overrides = overrides;
    for (size_t first = 0; first < n; first += batch) {
        size_t m = n - first < batch ? n - first : batch;
        for (size_t i = 0; i < m; i++) {
            cs_error err;
            names[i] = sweep_point_settings(g, to_run[first + i]);
            jobs[i] = (run_job){
                .name = names[i],
                .cfg = *base,
                .opt = {c->t.warmup, c->t.max, NULL},
                .source = {.ctx = &ps, .open = point_open, .close = point_close, .guest_status = point_guest_status},
                .analyses = list,
                .program = what};
            sweep_point_config(g, base, to_run[first + i], &jobs[i].cfg, &err); /* checked before: cannot fail */
            job_origin *o = &origins[i];
            const char *values[SWEEP_MAX_AXES];
            sweep_point_values(g, to_run[first + i], values);
            int k = 0;
            for (; k < c->t.set_count; k++) o->overrides[k] = c->t.sets[k];
            for (int a = 0; a < g->axes; a++, k++) {
                snprintf(o->sets[a], sizeof o->sets[a], "%s=%s", g->axis[a].key, values[a]);
                o->overrides[k] = o->sets[a];
            }
            jobs[i].origin = (run_config_origin){prov.config_source, k, o->overrides};
        }
        cs_error err;
        bool pool_ok = runner_pool(jobs, (int)m, parallel, results, &err);
        for (size_t i = 0; i < m; i++) {
            char hash[SWEEP_HASH_LEN + 1];
            sweep_config_hash(&jobs[i].cfg, hash);
            sweep_point p = point_record(c, g, to_run[first + i], hash);
            p.ok = pool_ok && results[i].ok;
            if (p.ok && results[i].guest_status > 0) {
                p.exit_code = results[i].guest_status;
                if (!(*exited)++) *first_exit = p.exit_code;
            }
            if (p.ok) {
                run_summary sum = {what, &jobs[i].cfg, &results[i].stats, c->t.warmup};
                prov.override_count = c->t.set_count;
                for (int a = 0; a < p.settings; a++) {
                    snprintf(point_sets[a], sizeof point_sets[a], "%s=%s", p.key[a], p.value[a]);
                    overrides[prov.override_count++] = point_sets[a];
                }
                p.result = report_result_json(&sum, &prov);
                for (int k = 0; k < results[i].count && k < list->count; k++)
                    if (results[i].json[k])
                        cJSON_AddItemToObject(p.result, list->ops[k]->name, cJSON_Duplicate(results[i].json[k], true));
            } else {
                p.error = pool_ok ? results[i].err.msg : err.msg;
                if (!failed++) snprintf(first_error, size, "%s", p.error);
            }
            cs_error werr;
            if (!sweep_point_write(c->dir, &p, &jobs[i].cfg, &werr)) {
                cli_fail("%s", werr.msg);
                if (p.ok) failed++;
            }
            cJSON_Delete(p.result);
            if (pool_ok) job_result_free(&results[i]);
            free(names[i]);
        }
    }
    free(jobs);
    free(results);
    free(names);
    free(origins);
    return failed;
}

/* ---- job lists ---- */

/* The command that runs one point: a sweep of a grid of one point. */
static char *point_command(const sweep_cli *c, const sweep_grid *g, size_t index, const char *self,
                           const char *stdin_path) {
    char *settings = sweep_point_settings(g, index);
    char *words[64 + 4096];
    int n = 0;
    /* the program's relative arguments name files from where the caller stood */
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd))
        words[n++] = cs_strdup("cd"), words[n++] = sweep_shell_quote(cwd), words[n++] = cs_strdup("&&");
    words[n++] = sweep_shell_quote(self);
    words[n++] = cs_strdup("sweep --grid");
    words[n++] = sweep_shell_quote(settings);
    free(settings);
    if (c->t.config) words[n++] = cs_strdup("--config"), words[n++] = sweep_shell_quote(c->t.config);
    if (c->t.analysis) words[n++] = cs_strdup("--analysis"), words[n++] = sweep_shell_quote(c->t.analysis);
    for (int i = 0; i < c->t.set_count; i++)
        words[n++] = cs_strdup("--set"), words[n++] = sweep_shell_quote(c->t.sets[i]);
    char num[64];
    if (c->t.warmup) snprintf(num, sizeof num, "--warmup %" PRIu64, c->t.warmup), words[n++] = cs_strdup(num);
    if (c->t.max) snprintf(num, sizeof num, "--max %" PRIu64, c->t.max), words[n++] = cs_strdup(num);
    if (c->g.emu.allow_write_dir)
        words[n++] = cs_strdup("--allow-write"), words[n++] = sweep_shell_quote(c->g.emu.allow_write_dir);
    if (c->g.emu.host_time) words[n++] = cs_strdup("--host-time");
    if (c->g.emu.seed) snprintf(num, sizeof num, "--seed %" PRIu64, c->g.emu.seed), words[n++] = cs_strdup(num);
    words[n++] = cs_strdup("-j 1 -o");
    words[n++] = sweep_shell_quote(c->dir);
    words[n++] = cs_strdup("--");
    for (int i = 0; i < c->argc && n < (int)(sizeof words / sizeof words[0]) - 2; i++)
        words[n++] = sweep_shell_quote(c->argv[i]);
    words[n++] = cs_strdup("<");
    words[n++] = sweep_shell_quote(stdin_path);
    size_t len = 1;
    for (int i = 0; i < n; i++) len += strlen(words[i]) + 1;
    char *cmd = cs_malloc(len);
    cmd[0] = 0;
    for (int i = 0; i < n; i++) {
        strcat(cmd, words[i]);
        if (i + 1 < n) strcat(cmd, " ");
        free(words[i]);
    }
    return cmd;
}

static bool write_text_file(const char *path, const char *text, bool executable) {
    cs_output out;
    cs_error err;
    FILE *f = cs_output_open(&out, path, &err);
    bool ok = f && fputs(text, f) >= 0;
    if (ok) ok = cs_output_commit(&out, &err);
    else if (f) cs_error_set(&err, "%s: write failed", path);
    cs_output_discard(&out);
    if (!ok) cli_fail("%s", err.msg);
    if (ok && executable) chmod(path, 0755);
    return ok;
}

static int emit(const sweep_cli *c, const sweep_grid *g, const size_t *to_run, size_t n) {
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) return cli_fail("cannot find the cyclescope executable (/proc/self/exe)");
    self[len] = 0;
    char path[PATH_MAX + 32];
    /* the jobs run where the caller's stdin is not: each command names what it reads */
    snprintf(path, sizeof path, "%s/stdin", c->dir);
    char *stdin_path = cli_stdin_for_elsewhere("sweep", path);
    if (!stdin_path) return EXIT_RUN_FAILED;
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!strcmp(c->emit, "parallel")) {
        for (size_t k = 0; k < n; k++) {
            char *cmd = point_command(c, g, to_run[k], self, stdin_path);
            fprintf(f, "%s\n", cmd);
            free(cmd);
        }
        fclose(f);
        free(stdin_path);
        snprintf(path, sizeof path, "%s/jobs.txt", c->dir);
        bool ok = write_text_file(path, buf, false);
        free(buf);
        if (!ok) return EXIT_RUN_FAILED;
        printf("%zu points to run: %s\nrun them with GNU parallel, e.g.: parallel --jobs %ld < %s\n", n, path,
               sysconf(_SC_NPROCESSORS_ONLN), path);
        return 0;
    }
    fprintf(f, "#!/bin/bash\n# cyclescope sweep: one array task per point; each writes its own result file\n");
    fprintf(f, "#SBATCH --job-name=cyclescope-sweep\n");
    if (n) fprintf(f, "#SBATCH --array=0-%zu\n", n - 1);
    fprintf(f, "#SBATCH --output=%s/slurm-%%A_%%a.out\n", c->dir);
    if (c->slurm_partition) fprintf(f, "#SBATCH --partition=%s\n", c->slurm_partition);
    if (c->slurm_account) fprintf(f, "#SBATCH --account=%s\n", c->slurm_account);
    if (c->slurm_time) fprintf(f, "#SBATCH --time=%s\n", c->slurm_time);
    if (c->slurm_mem) fprintf(f, "#SBATCH --mem=%s\n", c->slurm_mem);
    fprintf(f, "#SBATCH --cpus-per-task=%s\n#SBATCH --ntasks=1\nset -eu\njobs=(\n",
            c->slurm_cpus ? c->slurm_cpus : "1");
    for (size_t k = 0; k < n; k++) {
        char *cmd = point_command(c, g, to_run[k], self, stdin_path);
        char *q = sweep_shell_quote(cmd);
        fprintf(f, "  %s\n", q);
        free(q);
        free(cmd);
    }
    free(stdin_path);
    fprintf(f, ")\neval \"${jobs[$SLURM_ARRAY_TASK_ID]}\"\n");
    fclose(f);
    snprintf(path, sizeof path, "%s/sweep.sbatch", c->dir);
    bool ok = write_text_file(path, buf, true);
    free(buf);
    if (!ok) return EXIT_RUN_FAILED;
    printf("%zu points to run: %s\nsubmit it with: sbatch %s\n", n, path, path);
    return 0;
}

/* ---- the verb ---- */

static bool check_resource(const char *what, const char *value) {
    for (const char *s = value; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              strchr(":-_.,", *s))) {
            cli_usage("sweep", "--slurm-%s %s: unexpected character '%c'", what, value, *s);
            return false;
        }
    if (!*value) return cli_usage("sweep", "--slurm-%s: an empty value", what), false;
    /* the numbers sbatch takes (a plain word like -1 or x went into the script, for sbatch
     * to refuse after the sweep reported success): cpus a positive count, mem a size
     * (digits, one K/M/G/T suffix), time minutes or Slurm's [days-]hours:minutes:seconds */
    const char *s = value;
    size_t digits = strspn(s, "0123456789");
    bool ok = true;
    if (!strcmp(what, "cpus")) ok = digits == strlen(s) && strtoul(s, NULL, 10) > 0 && digits < 6;
    else if (!strcmp(what, "mem")) ok = digits > 0 && (!s[digits] || (strchr("KMGTkmgt", s[digits]) && !s[digits + 1]));
    else if (!strcmp(what, "time")) ok = digits > 0 && strspn(s, "0123456789:-") == strlen(s) && !strstr(s, "--");
    if (!ok)
        cli_usage("sweep", "--slurm-%s %s: not a %s", what, value,
                  !strcmp(what, "cpus")      ? "positive number of processors"
                      : !strcmp(what, "mem") ? "size (a number, and K, M, G or T)"
                                             : "time limit (minutes, or [days-]hours:minutes:seconds)");
    return ok;
}

int cmd_sweep(int argc, char **argv) {
    static const struct option longopts[] = {{"grid", required_argument, 0, OPT_GRID},
                                             {"emit", required_argument, 0, OPT_EMIT},
                                             {"retry-failed", no_argument, 0, OPT_RETRY},
                                             {"slurm-partition", required_argument, 0, OPT_SLURM_PARTITION},
                                             {"slurm-time", required_argument, 0, OPT_SLURM_TIME},
                                             {"slurm-mem", required_argument, 0, OPT_SLURM_MEM},
                                             {"slurm-cpus", required_argument, 0, OPT_SLURM_CPUS},
                                             {"slurm-account", required_argument, 0, OPT_SLURM_ACCOUNT},
                                             CLI_TIMING_LONG_OPTIONS,
                                             CLI_GUEST_LONG_OPTIONS,
                                             {0, 0, 0, 0}};
    sweep_cli c;
    memset(&c, 0, sizeof c);
    cli_guest_defaults(&c.g);
    bool bad = false;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "+:o:j:", longopts, "sweep")) != -1) {
        switch (opt) {
        case 'o': c.dir = optarg; break;
        case 'j': {
            uint64_t j;
            if (!cs_parse_count(optarg, &j) || j < 1 || j > 4096)
                return cli_usage("sweep", "-j %s: not a number of jobs (1..4096)", optarg);
            c.jobs = (int)j;
            break;
        }
        case OPT_GRID: c.grid_text = optarg; break;
        case OPT_EMIT:
            if (strcmp(optarg, "parallel") && strcmp(optarg, "slurm"))
                return cli_usage("sweep", "--emit %s: not parallel or slurm", optarg);
            c.emit = optarg;
            break;
        case OPT_RETRY: c.retry_failed = true; break;
        case OPT_SLURM_PARTITION:
            if (!check_resource("partition", optarg)) return EXIT_USAGE;
            c.slurm_partition = optarg;
            break;
        case OPT_SLURM_TIME:
            if (!check_resource("time", optarg)) return EXIT_USAGE;
            c.slurm_time = optarg;
            break;
        case OPT_SLURM_MEM:
            if (!check_resource("mem", optarg)) return EXIT_USAGE;
            c.slurm_mem = optarg;
            break;
        case OPT_SLURM_CPUS:
            if (!check_resource("cpus", optarg)) return EXIT_USAGE;
            c.slurm_cpus = optarg;
            break;
        case OPT_SLURM_ACCOUNT:
            if (!check_resource("account", optarg)) return EXIT_USAGE;
            c.slurm_account = optarg;
            break;
        case OPT_JSON:
        case OPT_PIPEVIEW:
        case OPT_REPORT:
        case OPT_NO_REPORT:
            return cli_usage("sweep", "--json, --pipeview and --report do not apply to a sweep (see merge)");
        case ':': return cli_usage("sweep", "%s needs a value", argv[optind - 1]);
        default:
            if (!cli_timing_option(&c.t, opt, optarg, "sweep", &bad) &&
                !cli_guest_option(&c.g, opt, optarg, "sweep", &bad))
                return cli_bad_option("sweep", argv);
            if (bad) return EXIT_USAGE;
        }
    }
    /* A point must give the same result wherever it runs (here, a GNU parallel
     * job, a Slurm task): the guest never sees the caller's environment. */
    c.g.env_fixed = true;
    if (!c.grid_text) return cli_usage("sweep", "no --grid given");
    if (!c.dir) return cli_usage("sweep", "no output directory (-o DIR)");
    if (optind >= argc) return cli_usage("sweep", "no program or trace given");
    c.argc = argc - optind;
    c.argv = argv + optind;
    if (c.emit) { /* jobs.txt is a command a line, and an #SBATCH line ends at a newline */
        const char *what = strpbrk(c.dir, "\n\r") ? c.dir : NULL;
        for (int i = 0; i < c.argc && !what; i++)
            if (strpbrk(c.argv[i], "\n\r")) what = c.argv[i];
        if (what)
            return cli_usage("sweep", "--emit %s: %s holds a line break, which a job list cannot carry", c.emit, what);
    }
    c.trace = cst_probe(c.argv[0]);
    if (c.trace && c.argc != 1) return cli_usage("sweep", "a trace takes no arguments");

    /* everything is checked before anything runs */
    cs_error err;
    sweep_grid g;
    /* a bad grid (key, value, point) is bad usage, as a bad --set is (issue 18 item 6) */
    if (!sweep_grid_parse(&g, c.grid_text, &err)) {
        cli_fail("%s", err.msg);
        return EXIT_USAGE;
    }
    uarch_config base;
    if (!cli_load_config(&c.t, &base)) {
        sweep_grid_free(&g);
        return EXIT_USAGE;
    }
    if (!sweep_grid_check(&g, &base, &err)) {
        sweep_grid_free(&g);
        cli_fail("%s", err.msg);
        return EXIT_USAGE;
    }
    analysis_list list;
    if (!analysis_list_parse(&list, c.t.analysis ? c.t.analysis : "stacks", &err)) {
        sweep_grid_free(&g);
        return cli_fail("--analysis: %s", err.msg);
    }
    for (int i = 0; i < list.count; i++)
        if (list.ops[i]->keep) { /* one file named once: every point would write it over the others */
            const char *name = list.ops[i]->name;
            sweep_grid_free(&g);
            analysis_list_free(&list);
            return cli_usage("sweep",
                             "--analysis %s writes a file, which every point would write over; record it "
                             "for one point with `run --config ... --set ...`",
                             name);
        }
    if (!c.trace && access(c.argv[0], R_OK) != 0) {
        sweep_grid_free(&g);
        analysis_list_free(&list);
        return cli_fail("%s: cannot open: %s", c.argv[0], strerror(errno));
    }
    { /* a program that does not load (not an ELF, a bad trace) fails here, once, not as every point */
        point_source probe = {&c, NULL};
        uop_source *src = point_open(&probe, &err);
        if (!src) {
            sweep_grid_free(&g);
            analysis_list_free(&list);
            return cli_fail("%s", err.msg);
        }
        point_close(&probe, src, &err);
    }
    if (mkdir(c.dir, 0777) != 0 && errno != EEXIST) {
        sweep_grid_free(&g);
        analysis_list_free(&list);
        cli_fail("%s: cannot create directory: %s", c.dir, strerror(errno));
        return EXIT_USAGE; /* an output that cannot be written is bad usage, before anything runs */
    }
    struct stat dir_st; /* it exists: a directory we can write into (-o FILE failed every point) */
    if (stat(c.dir, &dir_st) != 0 || !S_ISDIR(dir_st.st_mode) || access(c.dir, W_OK | X_OK) != 0) {
        sweep_grid_free(&g);
        analysis_list_free(&list);
        cli_fail("%s: cannot write into it: %s", c.dir, S_ISDIR(dir_st.st_mode) ? strerror(errno) : "Not a directory");
        return EXIT_USAGE;
    }
    /* absolute paths: the job lists run elsewhere, and a point's file names
     * its program the same way however the sweep was started */
    char *dir_real = realpath(c.dir, NULL), *prog_real = realpath(c.argv[0], NULL);
    char **args = cs_calloc((size_t)c.argc + 1, sizeof *args);
    for (int i = 0; i < c.argc; i++) args[i] = c.argv[i];
    if (prog_real) args[0] = prog_real;
    c.argv = args;
    if (dir_real) c.dir = dir_real;

    /* what is left to run */
    size_t *to_run = cs_calloc(g.points, sizeof *to_run), n = 0, done = 0, failed_before = 0;
    int rc = 0;
    for (size_t i = 0; i < g.points && rc == 0; i++) {
        uarch_config cfg;
        char hash[SWEEP_HASH_LEN + 1];
        sweep_point_config(&g, &base, i, &cfg, &err);
        sweep_config_hash(&cfg, hash);
        switch (sweep_point_status(c.dir, hash, c.argc, c.argv, &err)) {
        case SWEEP_TO_RUN: to_run[n++] = i; break;
        case SWEEP_DONE: done++; break;
        case SWEEP_DONE_FAILED:
            if (c.retry_failed) to_run[n++] = i;
            else done++, failed_before++;
            break;
        case SWEEP_CORRUPT:
            fprintf(stderr, "cyclescope: sweep: %s; running the point again\n", err.msg);
            to_run[n++] = i;
            break;
        case SWEEP_OTHER_PROGRAM: rc = cli_fail("%s", err.msg); break;
        }
    }
    if (rc == 0 && c.emit) {
        rc = emit(&c, &g, to_run, n);
    } else if (rc == 0 && n && !cli_spool_piped_stdin("sweep")) { /* every point reads it */
        rc = EXIT_RUN_FAILED;
    } else if (rc == 0) {
        char first_error[600] = "";
        size_t exited = 0;
        int first_exit = 0;
        size_t failed =
            run_here(&c, &g, &base, &list, to_run, n, first_error, sizeof first_error, &exited, &first_exit);
        printf("%zu points: %zu run, %zu already done", g.points, n, done);
        if (failed_before) printf(" (%zu of them failed before: --retry-failed runs them again)", failed_before);
        printf("; %zu failed", failed);
        if (exited) printf("; the program exited with a non-zero status in %zu (the first: %d)", exited, first_exit);
        printf("\nresults in %s/ (cyclescope merge %s tabulates them)\n", c.dir, c.dir);
        /* measured all the same (exit 0), but said where it is seen, as `run` says it */
        if (exited)
            fprintf(stderr,
                    "cyclescope: sweep: note: the program exited with a non-zero status in %zu of %zu points (the "
                    "first: %d); they are measurements, the status recorded in each point (merge shows it)\n",
                    exited, n, first_exit);
        fflush(stdout);
        /* the exit status 125 says why on stderr, as every failure does: the first point's error */
        if (failed)
            rc = cli_fail("%zu of %zu points failed, the first: %s (each point's error is in its file in %s/)", failed,
                          n, first_error, c.dir);
        /* a resumed sweep whose results still hold failed points is not a complete sweep
         * (docs/sweep.md: it exits 125 when any failed) */
        else if (failed_before)
            rc = cli_fail("%zu points failed in an earlier run of this sweep, and were not run again: their errors "
                          "are in their files in %s/ (--retry-failed runs them again)",
                          failed_before, c.dir);
    }
    free(to_run);
    analysis_list_free(&list);
    free(args);
    free(prog_real);
    free(dir_real);
    sweep_grid_free(&g);
    return rc;
}
