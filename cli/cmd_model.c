/* cyclescope model: Noonburg's statistical models (docs/statmodel.md).
 *   model analyze PROG [ARGS…] | TRACE -o FILE   analyse a trace once
 *   model solve FILE [--config …] [--set …]      model a machine from it
 * A thin layer over src/statmodel; --compare-sim times the same µops on the
 * simulator through the runner. */
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "report/report.h"
#include "runner/runner.h"
#include "statmodel/statmodel.h"
#include "sweep/sweep.h"
#include "trace/trace.h"

void help_model(void) {
    printf("usage: cyclescope model analyze [options] -o FILE PROG [ARGS…] | TRACE\n"
           "       cyclescope model solve [options] FILE\n"
           "       cyclescope model info [--json FILE] FILE\n"
           "\n"
           "Noonburg's statistical processor models (docs/statmodel.md). `analyze` reads\n"
           "the µops of a program (run in the emulator) or a .cst trace once and saves\n"
           "the profile: instruction numbers, the statistical flow graph, mispredictions\n"
           "per predictor and stack-distance histograms. `solve` models an in-order\n"
           "machine (inorder1: the one-pipe Markov chain; inorder3: the partitioned\n"
           "three-pipe chains) from the profile alone and prints the IPC, the issue\n"
           "distribution and each component's state space. `info` prints what a profile\n"
           "holds: its source, the type mix, dependence distances, flow graphs,\n"
           "mispredictions per predictor and cache misses per size.\n"
           "\n"
           "Ctrl-C during `analyze` stops it: the profile of what ran is written, marked\n"
           "partial (`solve` and `info` say so), and the exit status is 130.\n"
           "\n"
           "analyze options:\n"
           "  -o FILE            the profile to write\n"
           "  --max N            analyse the first N instructions (default: all)\n"
           "  --window W         three-pipe flow-graph window of W instructions (2..8, default 2)\n"
           "  --addr-bits N      §5.5: N low-order address bits in the three-pipe instruction numbers\n"
           "                     (0..12, default 0; Figure 5.9 tried 2, 4, 6, 8)\n" CLI_GUEST_OPTIONS_HELP
           "solve options:\n"
           "  --config NAME|FILE inorder1 or inorder3 (default) or an .ini file\n"
           "  --set S.K=V        override one configuration value (repeatable)\n"
           "  --max-states N     largest state space of one component (default 4000000)\n"
           "  --grid 'S.K=V,… …'  solve every point of a grid of configuration values (as sweep's;\n"
           "                     S.K=A..B is every integer from A to B)\n"
           "  --method M         markov (default: the Markov chains of Ch. 3-8) or matrix (the\n"
           "                     matrix-multiplication model of Ch. 2: one-cycle pipes, no caches)\n"
           "  --compare-sim      also time the analysed µops on the simulator and print the error (the\n"
           "                     program again with its recorded arguments, and --env-fixed's\n"
           "                     environment when the analysis had it; its output discarded, its\n"
           "                     stdin this one's: the same input the analysis had, < FILE)\n"
           "  --allow-write DIR  with --compare-sim: let the program run again write under DIR, as\n"
           "                     `model analyze --allow-write DIR` let it (not recorded in the profile)\n"
           "  --json FILE        write the results as JSON (- for stdout)\n"
           "  --report FILE      write an HTML report: the distributions, and with --grid the\n"
           "                     IPC curve over the points\n"
           "info options:\n"
           "  --json FILE        write what it prints as JSON (- for stdout)\n");
}

enum {
    OPT_M_MAX = 1300,
    OPT_M_WINDOW,
    OPT_M_CONFIG,
    OPT_M_SET,
    OPT_M_MAXSTATES,
    OPT_M_COMPARE,
    OPT_M_JSON,
    OPT_M_GRID,
    OPT_M_REPORT,
    OPT_M_METHOD,
    OPT_M_ADDRBITS,
    OPT_M_ALLOW_WRITE
};

/* The profile's source (arguments separated by newlines, NUL-terminated) split in place into
 * argv (NULL-terminated, at most max - 1 arguments). The argument count; 0 when there are more. */
static int split_source(char *source, char **argv, int max) {
    if (!*source) return 0;
    int n = 0;
    for (char *arg = source; arg; n++) { /* empty arguments are arguments too */
        if (n == max - 1) return 0;
        argv[n] = arg;
        char *nl = strchr(arg, '\n');
        if (nl) *nl = 0;
        arg = nl ? nl + 1 : NULL;
    }
    argv[n] = NULL;
    return n;
}

/* The SHA-256 of the file at `path` as 32 bytes (the .smp's source_sha256). */
static bool file_sha256(const char *path, uint8_t out[CS_SHA256_BYTES], cs_error *err) {
    return cs_sha256_file_digest(path, out, NULL, err);
}

static int analyze(int argc, char **argv) {
    static const struct option longopts[] = {{"max", required_argument, 0, OPT_M_MAX},
                                             {"window", required_argument, 0, OPT_M_WINDOW},
                                             {"addr-bits", required_argument, 0, OPT_M_ADDRBITS},
                                             CLI_GUEST_LONG_OPTIONS,
                                             {0, 0, 0, 0}};
    cli_guest_options g;
    cli_guest_defaults(&g);
    sm_analyze_options ao = {0};
    const char *out = NULL;
    bool bad = false;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "+o:", longopts, "model analyze")) != -1) {
        switch (opt) {
        case 'o': out = optarg; break;
        case OPT_M_MAX:
            if (!cs_parse_count(optarg, &ao.max) || ao.max == 0)
                return cli_usage("model analyze", "--max %s: not a count", optarg);
            break;
        case OPT_M_WINDOW: {
            uint64_t w;
            if (!cs_parse_count(optarg, &w) || w < 2 || w > 8)
                return cli_usage("model analyze", "--window %s: 2 to 8 instructions", optarg);
            ao.window = (uint32_t)w;
            break;
        }
        case OPT_M_ADDRBITS: {
            uint64_t b;
            if (!cs_parse_count(optarg, &b) || b > SM_ADDR_BITS_MAX)
                return cli_usage("model analyze", "--addr-bits %s: 0 to %d", optarg, SM_ADDR_BITS_MAX);
            ao.addr_bits = (uint32_t)b;
            break;
        }
        default:
            if (!cli_guest_option(&g, opt, optarg, "model analyze", &bad)) return cli_bad_option("model analyze", argv);
            if (bad) return EXIT_USAGE;
        }
    }
    if (!out) return cli_usage("model analyze", "no output file (-o FILE)");
    if (!cli_outputs_writable(&out, 1)) return EXIT_USAGE;
    if (optind >= argc) return cli_usage("model analyze", "no program or trace given");
    char source[1024];
    size_t used = 0;
    uop_source *src = NULL;
    emu_t *e = NULL;
    bool trace = argc - optind == 1 && cst_probe(argv[optind]);
    cs_error err = {{0}};
    if (trace) {
        char *abs = realpath(argv[optind], NULL);
        snprintf(source, sizeof source, "%s", abs ? abs : argv[optind]);
        free(abs);
        cst_reader *r = cli_cst_open(argv[optind], &err);
        if (!r) return cli_fail("%s", err.msg);
        ao.expected = cst_reader_info(r)->insns;
        src = cst_reader_source(r);
    } else {
        for (int i = optind; i < argc; i++) {
            char *abs = i == optind ? realpath(argv[i], NULL) : NULL;
            const char *a = abs ? abs : argv[i];
            size_t n = strlen(a);
            if (strchr(a, '\n') || used + n + 2 > sizeof source) {
                free(abs);
                return cli_usage("model analyze", "the program's arguments are too long or hold a newline");
            }
            if (used) source[used++] = '\n';
            memcpy(source + used, a, n + 1);
            used += n;
            free(abs);
        }
        g.emu.record_values = true; /* value prediction (Ch. 8) needs the results */
        /* The guest gets the arguments the profile records (the program's absolute path), so that
         * --compare-sim, started from anywhere, replays the same stack and the same µops. */
        char guest_source[sizeof source];
        memcpy(guest_source, source, sizeof source);
        char *guest_argv[128];
        int guest_argc = split_source(guest_source, guest_argv, 128);
        if (!guest_argc) return cli_usage("model analyze", "more than 127 program arguments");
        /* stdout a terminal or /dev/null runs more instructions than a file or a pipe (glibc's
         * isatty of a character device): --compare-sim's re-run writes to a file */
        g.emu.streams_fixed = true;
        /* a piped stdin kept in a file first, as solve --compare-sim keeps its own: the analysed
         * run reads what the re-runs read (glibc's stdio takes another path on a pipe: the
         * re-run timed other µops and was refused) and the profile records it */
        if (!cli_spool_piped_stdin("model analyze")) return EXIT_RUN_FAILED;
        e = cli_guest_create(&g, guest_argc, guest_argv);
        if (!e) return EXIT_RUN_FAILED;
        src = emu_source_create(e);
    }
    /* what --compare-sim checks the file it runs again against */
    uint8_t sha256[32];
    if (!file_sha256(argv[optind], sha256, &err)) {
        uop_source_destroy(src);
        if (e) emu_destroy(e);
        return cli_fail("%s", err.msg);
    }
    ao.source = source;
    ao.source_kind = trace ? SM_SOURCE_TRACE : SM_SOURCE_PROGRAM;
    ao.progress_label = "analysing";
    double t0 = cs_now();
    fflush(stdout);
    cli_sigint_handler old_handler = cli_sigint_begin(); /* Ctrl-C: the profile of what ran, marked partial */
    cli_stdin_mark in = cli_stdin_mark_take();
    sm_profile *p = sm_analyze(src, &ao, &err);
    cli_sigint_end(old_handler);
    if (p && !trace) /* --compare-sim checks its re-run's stdin against it */
        p->stdin_known = cli_stdin_mark_read(&in, &p->stdin_bytes, p->stdin_sha256);
    if (p) {
        p->env_fixed = !trace && g.env_fixed;
        p->seed = trace ? 0 : g.emu.seed; /* --compare-sim runs the program with it again */
        memcpy(p->source_sha256, sha256, sizeof sha256);
    }
    int rc = 0;
    if (!p) {
        rc = cli_run_failed(e, "model analyze: %s", err.msg); /* a fault at the start: the fault */
    } else if (e && emu_state(e) == EMU_FAILED && !emu_fault_signal(e)) {
        rc = cli_guest_exit(e); /* what cyclescope could not run: no profile (125) */
    } else if (!sm_profile_save(p, out, &err)) {
        rc = cli_fail("%s", err.msg);
    } else {
        fprintf(stderr,
                "cyclescope: analysed %llu instructions in %.2f s: one-pipe graph %u instruction numbers, %u "
                "sequences; three-pipe graph %u, %u; profile %s\n",
                (unsigned long long)p->instructions, cs_now() - t0, p->one.ninstr, p->one.nnode, p->three.ninstr,
                p->three.nnode, out);
        if (p->partial) {
            fprintf(stderr,
                    "cyclescope: PARTIAL PROFILE: the analysis was interrupted (SIGINT, Ctrl-C); %s covers "
                    "only what ran and is marked partial\n",
                    out);
            rc = 128 + SIGINT;
        } else if (e) {
            /* the profile is written (of what ran, up to a fault); the status is a failing
             * program's: its own, or 128 + signal, as every verb ends */
            rc = cli_guest_exit(e);
        }
    }
    sm_profile_free(p);
    uop_source_destroy(src);
    if (e) emu_destroy(e);
    return rc;
}

/* The profile's own µops, opened in the pool job's process: the program again (its recorded
 * arguments, environment and seed) or the trace. */
typedef struct resim {
    const sm_profile *p;
    const uarch_config *cfg;
    const char *allow_write;
    char copy[sizeof((sm_profile *)0)->source];
    char *args[128];
    int n;
    emu_t *e;
} resim;

static uop_source *resim_open(void *ctx, cs_error *err) {
    resim *s = ctx;
    if (s->p->source_kind == SM_SOURCE_TRACE) {
        cst_reader *r = cli_cst_open(s->args[0], err);
        return r ? cst_reader_source(r) : NULL;
    }
    cli_guest_options g;
    cli_guest_defaults(&g);
    g.env_fixed = s->p->env_fixed;          /* else the caller's environment, as `model analyze` had */
    g.emu.streams_fixed = true;             /* as `model analyze` showed them: pipes */
    g.emu.seed = s->p->seed;                /* the random bytes it had (0: the default seed) */
    g.emu.allow_write_dir = s->allow_write; /* a program writing its output re-runs the same */
    g.emu.record_values = s->cfg->model == MODEL_INORDER && s->cfg->inorder.value_prediction;
    s->e = cli_guest_open(&g, s->n, s->args, err); /* *err names the program and why it cannot run */
    return s->e ? emu_source_create(s->e) : NULL;
}

static bool resim_close(void *ctx, uop_source *src, cs_error *err) {
    (void)err;
    resim *s = ctx;
    uop_source_destroy(src);
    if (s->e) emu_destroy(s->e);
    s->e = NULL;
    return true;
}

/* Time the profile's own µops on the simulator, in a job of the runner's pool: as every
 * verb that runs the program again, the program's stdout and stderr are its job's own
 * (discarded, so that they do not mix with solve's tables) and its stdin is the caller's
 * when that is a file (a pipe was kept in one first: check_stdin), read from where the
 * caller stood, so every grid point reads the same. */
static bool simulate(const sm_profile *p, const uarch_config *cfg, const char *allow_write, core_stats *st,
                     cs_error *err) {
    resim s = {.p = p, .cfg = cfg, .allow_write = allow_write};
    memcpy(s.copy, p->source, sizeof s.copy);
    s.n = split_source(s.copy, s.args, 128);
    if (s.n == 0) {
        cs_error_set(err, "the profile does not say what was analysed");
        return false;
    }
    /* the very file analysed (version 7 records its SHA-256; older profiles cannot tell) */
    static const uint8_t unknown[32] = {0};
    uint8_t now[32];
    if (memcmp(p->source_sha256, unknown, sizeof unknown) != 0 && access(s.args[0], F_OK) == 0) {
        if (!file_sha256(s.args[0], now, err)) return false;
        if (memcmp(now, p->source_sha256, sizeof now) != 0) {
            cs_error_set(err,
                         "%s: not the %s the profile analysed (its SHA-256 differs: replaced or rebuilt since "
                         "`model analyze`; analyse it again)",
                         s.args[0], p->source_kind == SM_SOURCE_TRACE ? "trace" : "program");
            return false;
        }
    }
    analysis_list none = {0};
    run_job job = {0};
    job.name = cfg->name;
    job.cfg = *cfg;
    job.opt = (core_run_options){0, p->source_instructions, NULL};
    job.source = (run_source){&s, resim_open, resim_close, NULL};
    job.analyses = &none;
    job.program = s.args[0];
    job_result res;
    fflush(stdout);
    if (!runner_pool(&job, 1, 1, &res, err)) return false;
    bool ok = res.ok;
    if (ok) *st = res.stats;
    else { /* the pool names the job: here the one machine solve is at */ size_t name = strlen(job.name);
        *err = res.err;
        if (!strncmp(err->msg, job.name, name) && !strncmp(err->msg + name, ": ", 2))
            memmove(err->msg, err->msg + name + 2, strlen(err->msg + name + 2) + 1);
    }
    job_result_free(&res);
    return ok;
}

/* Before --compare-sim runs anything: a piped stdin kept in a file (every re-run reads it),
 * and, when the profile knows what the analysed program read of its stdin, the caller's
 * stdin holding those very bytes; one line and false otherwise. */
static bool check_stdin(const sm_profile *p) {
    if (p->source_kind != SM_SOURCE_PROGRAM) return true;
    if (!cli_spool_piped_stdin("model solve")) return false;
    return !p->stdin_known || cli_stdin_check("model solve: --compare-sim", p->stdin_bytes, p->stdin_sha256);
}

static cJSON *dist_json(const double *d, int n) {
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateNumber(d[i]));
    return a;
}

/* One machine: modelled, and simulated with --compare-sim. */
typedef struct point {
    char settings[512];
    uarch_config cfg;
    sm_machine m;
    sm_result r;
    bool matrix; /* --method matrix */
    sm_matrix_model mm;
    bool simulated;
    core_stats st;
    double sim_ipc, sim_seconds;
    double model_cpu_seconds; /* the solve's CPU time (wall time is r.seconds) */
    /* the simulated distributions, as the model's */
    double issue[3], fetch_occ[3], issue_occ[3], pipe_occ[SM_PIPES][8];
} point;

static double frac(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0; }

/* The machine of one point, before anything is solved or simulated: a
 * configuration the models do not express is bad usage. */
static bool point_machine(const sm_profile *p, point *pt) {
    cs_error err = {{0}};
    if (sm_machine_from_config(&pt->cfg, p, &pt->m, &err) && (!pt->matrix || sm_matrix_expresses(&pt->m, &err)))
        return true;
    cli_fail("model solve: %s%s%s: %s", pt->cfg.name, pt->settings[0] ? " " : "", pt->settings, err.msg);
    return false;
}

static int run_point(const char *profile_path, const sm_profile *p, point *pt, uint64_t max_states, bool compare,
                     const char *allow_write) {
    cs_error err = {{0}};
    pt->m.max_states = max_states;
    clock_t c0 = clock();
    if (pt->matrix ? !sm_solve_matrix(p, &pt->m, &pt->r, &pt->mm, &err) : !sm_solve(p, &pt->m, &pt->r, &err))
        return cli_fail("model solve: %s", err.msg);
    pt->model_cpu_seconds = (double)(clock() - c0) / CLOCKS_PER_SEC;
    if (!compare) return 0;
    double t0 = cs_now();
    if (!simulate(p, &pt->cfg, allow_write, &pt->st, &err)) return cli_fail("model solve: --compare-sim: %s", err.msg);
    pt->sim_seconds = cs_now() - t0;
    const core_stats *st = &pt->st;
    /* another stream's IPC compared with this profile's model would be a wrong figure: none is given */
    if (st->uops != p->instructions)
        return cli_fail("model solve: --compare-sim: %s: the re-run timed %llu µops, the profile holds %llu: not the "
                        "analysed stream (not recorded: the files the program reads, its stdin when that was no file "
                        "at `model analyze`, the guest options but --seed and --env-fixed; in a profile an older "
                        "cyclescope made without --env-fixed, whether stdout and stderr were a terminal, a device or "
                        "a file; or the program changed; a program whose child processes it waits for or reads need "
                        "not repeat: the host schedules them)",
                        profile_path, (unsigned long long)st->uops, (unsigned long long)p->instructions);
    pt->simulated = true;
    /* the thesis' instruction is our µop (a ChampSim-derived trace can split an instruction) */
    pt->sim_ipc = frac(st->uops, st->cycles);
    for (int k = 0; k < 3; k++) {
        pt->issue[k] = frac(st->issue_hist[k], st->cycles);
        pt->fetch_occ[k] = frac(st->fetch_buffer_hist[k], st->cycles);
        pt->issue_occ[k] = frac(st->issue_buffer_hist[k], st->cycles);
    }
    for (int t = 0; t < (pt->m.three ? SM_PIPES : 1); t++)
        for (int k = 0; k < 8; k++)
            pt->pipe_occ[t][k] = frac(st->pipe_occupancy_hist[pt->m.pipe_index[t]][k], st->cycles);
    return 0;
}

static void print_point(FILE *out, const sm_profile *p, const point *pt) {
    const sm_result *r = &pt->r;
    const sm_graph *g = pt->m.three ? &p->three : &p->one;
    fprintf(out, "model: %s%s%s (%s), %llu instructions analysed, %u sequences\n", pt->cfg.name,
            pt->settings[0] ? " " : "", pt->settings,
            pt->matrix        ? (pt->m.three ? "three-pipe machine, matrix-multiplication model"
                                             : "one-pipe machine, matrix-multiplication model")
                : pt->m.three ? "three-pipe machine, partitioned chains"
                              : "one-pipe machine, monolithic chain",
            (unsigned long long)p->instructions, g->nnode);
    fprintf(out, "modelled IPC %.4f; cycles issuing 0/1/2: %.3f %.3f %.3f\n", r->ipc, r->issue_dist[0],
            r->issue_dist[1], r->issue_dist[2]);
    if (pt->matrix) {
        const sm_matrix_model *mm = &pt->mm;
        const char *names[5] = {"m_B", "p_C", "m_F", "p_D", "m_I"};
        const double *d[5] = {mm->m_B, mm->p_C, mm->m_F, mm->p_D, mm->m_I};
        fprintf(out, "mispredicted branches %.4f of branches, %.4f per instruction\n", mm->mispred_rate,
                mm->mispred_per_instr);
        for (int s = 0; s < 5; s++) {
            fprintf(out, "%s", names[s]);
            for (int k = 0; k < SM_MM_N; k++) fprintf(out, " %.4f", d[s][k]);
            fprintf(out, "%s\n", s == 1 ? " (last: 7 or more)" : "");
        }
    }
    if (!pt->matrix)
        fprintf(out, "%-10s %14s %14s %12s %7s\n", "component", "states", "after pruning", "transitions", "sweeps");
    for (uint32_t k = 0; k < r->ncomp; k++)
        fprintf(out, "%-10s %14llu %14llu %12llu %7u\n", r->comp[k].name, (unsigned long long)r->comp[k].states_before,
                (unsigned long long)r->comp[k].states, (unsigned long long)r->comp[k].transitions,
                r->comp[k].iterations);
    if (pt->matrix) fprintf(out, "model time %.3f s (CPU %.3f s)\n", r->seconds, pt->model_cpu_seconds);
    else
        fprintf(out, "relaxation rounds %u, model time %.3f s (CPU %.3f s)\n", r->relax_iterations, r->seconds,
                pt->model_cpu_seconds);
    if (pt->simulated)
        fprintf(out, "simulated IPC %.4f (%llu µops, %.3f s); model error %+.2f%%\n", pt->sim_ipc,
                (unsigned long long)pt->st.uops, pt->sim_seconds, 100 * (r->ipc - pt->sim_ipc) / pt->sim_ipc);
}

/* docs/model.schema.json: incremented when a field changes meaning or goes */
enum { MODEL_SCHEMA_VERSION = 1 };

#define PARTIAL_PROFILE "model analyze was interrupted (SIGINT, Ctrl-C): the profile covers only what it read"

/* The header of model solve's and model info's JSON: the profile is the input;
 * solve's configuration is the base machine (--config, --set; a grid's points
 * name their own settings). */
static cJSON *model_header(const char *schema, const char *profile_path, const sm_profile *p,
                           const cli_timing_options *t, const uarch_config *cfg) {
    cJSON *root = cJSON_CreateObject();
    report_provenance prov;
    cli_provenance(&prov, "statmodel", profile_path, 0, NULL);
    if (t) {
        prov.config_source = t->config;
        prov.override_count = t->set_count;
        prov.overrides = t->sets;
    }
    prov.without_limits = true; /* the profile was analysed once; nothing is timed here */
    prov.partial = p->partial;
    prov.stopped_by = p->partial ? PARTIAL_PROFILE : NULL;
    report_header_json(root, schema, MODEL_SCHEMA_VERSION, cfg, &prov);
    return root;
}

/* Move every field of `body` after those of `root`; frees body. */
static cJSON *append_fields(cJSON *root, cJSON *body) {
    while (body->child) {
        cJSON *item = cJSON_DetachItemViaPointer(body, body->child);
        cJSON_AddItemToObject(root, item->string, item);
    }
    cJSON_Delete(body);
    return root;
}

static cJSON *point_json(const sm_profile *p, const point *pt) {
    const sm_result *r = &pt->r;
    int n = pt->m.three ? 3 : 2;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "config", pt->cfg.name);
    cJSON_AddStringToObject(root, "settings", pt->settings);
    cJSON_AddStringToObject(root, "machine", pt->m.three ? "three-pipe" : "one-pipe");
    cJSON_AddStringToObject(root, "method", pt->matrix ? "matrix" : "markov");
    cJSON_AddNumberToObject(root, "address_bits", pt->m.three ? p->addr_bits : 0);
    if (pt->matrix) {
        cJSON_AddItemToObject(root, "m_B", dist_json(pt->mm.m_B, SM_MM_N));
        cJSON_AddItemToObject(root, "p_C", dist_json(pt->mm.p_C, SM_MM_N));
        cJSON_AddItemToObject(root, "m_F", dist_json(pt->mm.m_F, SM_MM_N));
        cJSON_AddItemToObject(root, "p_D", dist_json(pt->mm.p_D, SM_MM_N));
        cJSON_AddItemToObject(root, "m_I", dist_json(pt->mm.m_I, SM_MM_N));
    }
    cJSON_AddNumberToObject(root, "instructions_analysed", (double)p->instructions);
    cJSON_AddNumberToObject(root, "sequences", pt->m.three ? p->three.nnode : p->one.nnode);
    cJSON_AddNumberToObject(root, "ipc", r->ipc);
    cJSON_AddItemToObject(root, "issue_distribution", dist_json(r->issue_dist, n));
    if (!pt->matrix) { /* the matrix model has no buffers (Ch. 2) */
        cJSON_AddItemToObject(root, "fetch_buffer_occupancy", dist_json(r->fetch_occ, n));
        cJSON_AddItemToObject(root, "issue_buffer_occupancy", dist_json(r->issue_occ, n));
    }
    cJSON *comps = cJSON_AddArrayToObject(root, "components");
    for (uint32_t k = 0; k < r->ncomp; k++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "name", r->comp[k].name);
        cJSON_AddNumberToObject(c, "states_before_pruning", (double)r->comp[k].states_before);
        cJSON_AddNumberToObject(c, "states", (double)r->comp[k].states);
        cJSON_AddNumberToObject(c, "transitions", (double)r->comp[k].transitions);
        cJSON_AddNumberToObject(c, "gauss_seidel_sweeps", r->comp[k].iterations);
        cJSON_AddItemToArray(comps, c);
    }
    cJSON_AddNumberToObject(root, "relaxation_rounds", r->relax_iterations);
    cJSON_AddNumberToObject(root, "model_seconds", r->seconds);
    cJSON_AddNumberToObject(root, "model_cpu_seconds", pt->model_cpu_seconds);
    if (pt->simulated) {
        cJSON_AddNumberToObject(root, "simulated_ipc", pt->sim_ipc);
        cJSON_AddNumberToObject(root, "simulated_uops", (double)pt->st.uops);
        cJSON_AddNumberToObject(root, "simulation_seconds", pt->sim_seconds);
        cJSON_AddNumberToObject(root, "error", (r->ipc - pt->sim_ipc) / pt->sim_ipc);
        cJSON_AddItemToObject(root, "simulated_issue_distribution", dist_json(pt->issue, n));
        cJSON_AddItemToObject(root, "simulated_fetch_buffer_occupancy", dist_json(pt->fetch_occ, n));
        cJSON_AddItemToObject(root, "simulated_issue_buffer_occupancy", dist_json(pt->issue_occ, n));
    }
    return root;
}

static void point_html(sm_html *b, const point *pt) {
    static const char *pipe_name[SM_PIPES] = {"integer", "FP", "memory"};
    const sm_result *r = &pt->r;
    int n = pt->m.three ? 3 : 2;
    char title[640];
    snprintf(title, sizeof title, "%s%s%s", pt->cfg.name, pt->settings[0] ? " " : "", pt->settings);
    sm_html_raw(b, "<h3>");
    sm_html_text(b, title);
    char line[256];
    if (pt->simulated)
        snprintf(line, sizeof line, ": modelled IPC %.4f, simulated %.4f (error %+.2f%%)</h3>\n", r->ipc, pt->sim_ipc,
                 100 * (r->ipc - pt->sim_ipc) / pt->sim_ipc);
    else snprintf(line, sizeof line, ": modelled IPC %.4f</h3>\n", r->ipc);
    sm_html_raw(b, line);
    sm_html_raw(b,
                pt->simulated ? "<p>Fractions of cycles; grey bars: modelled, black bars: simulated.</p>\n"
                              : "<p>Fractions of cycles, modelled.</p>\n");
    sm_html_bars(b, "Instructions issued per cycle", "instructions issued", n, r->issue_dist,
                 pt->simulated ? pt->issue : NULL);
    if (pt->matrix) return; /* the matrix model has no buffers or pipes (Ch. 2) */
    sm_html_bars(b, "Fetch buffer occupancy", "instructions in the fetch buffer", n, r->fetch_occ,
                 pt->simulated ? pt->fetch_occ : NULL);
    sm_html_bars(b, "Issue buffer occupancy", "instructions in the issue buffer", n, r->issue_occ,
                 pt->simulated ? pt->issue_occ : NULL);
    for (int t = 0; t < (pt->m.three ? SM_PIPES : 1); t++) {
        char pt_title[64];
        snprintf(pt_title, sizeof pt_title, "%s pipe occupancy (%u stages)", pt->m.three ? pipe_name[t] : "the",
                 pt->m.depth[t]);
        sm_html_bars(b, pt_title, "instructions in the pipe", (int)pt->m.depth[t] + 1, r->pipe_occ[t],
                     pt->simulated ? pt->pipe_occ[t] : NULL);
    }
}

static int solve(int argc, char **argv) {
    static const struct option longopts[] = {{"config", required_argument, 0, OPT_M_CONFIG},
                                             {"set", required_argument, 0, OPT_M_SET},
                                             {"max-states", required_argument, 0, OPT_M_MAXSTATES},
                                             {"compare-sim", no_argument, 0, OPT_M_COMPARE},
                                             {"json", required_argument, 0, OPT_M_JSON},
                                             {"grid", required_argument, 0, OPT_M_GRID},
                                             {"report", required_argument, 0, OPT_M_REPORT},
                                             {"method", required_argument, 0, OPT_M_METHOD},
                                             {"allow-write", required_argument, 0, OPT_M_ALLOW_WRITE},
                                             {0, 0, 0, 0}};
    cli_timing_options t = {0};
    t.config = "inorder3";
    uint64_t max_states = 0;
    bool compare = false, matrix = false;
    const char *json = NULL, *grid_text = NULL, *report = NULL, *allow_write = NULL;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "", longopts, "model solve")) != -1) {
        switch (opt) {
        case OPT_M_CONFIG: t.config = optarg; break;
        case OPT_M_SET:
            if (t.set_count == (int)(sizeof t.sets / sizeof t.sets[0]))
                return cli_usage("model solve", "too many --set");
            t.sets[t.set_count++] = optarg;
            break;
        case OPT_M_MAXSTATES:
            if (!cs_parse_count(optarg, &max_states) || max_states == 0)
                return cli_usage("model solve", "--max-states %s: not a count", optarg);
            break;
        case OPT_M_COMPARE: compare = true; break;
        case OPT_M_JSON: json = optarg; break;
        case OPT_M_GRID: grid_text = optarg; break;
        case OPT_M_REPORT: report = optarg; break;
        case OPT_M_ALLOW_WRITE: { /* checked as the guest options' --allow-write, before anything runs */
            cli_guest_options checked;
            cli_guest_defaults(&checked);
            checked.emu.allow_write_dir = allow_write; /* a second one is refused as there */
            bool bad_dir = false;
            cli_guest_option(&checked, OPT_ALLOW_WRITE, optarg, "model solve", &bad_dir);
            if (bad_dir) return EXIT_USAGE;
            allow_write = optarg;
            break;
        }
        case OPT_M_METHOD:
            if (strcmp(optarg, "markov") && strcmp(optarg, "matrix"))
                return cli_usage("model solve", "--method %s: markov or matrix", optarg);
            matrix = !strcmp(optarg, "matrix");
            break;
        default: return cli_bad_option("model solve", argv);
        }
    }
    if (optind >= argc) return cli_usage("model solve", "no profile given");
    if (argc - optind > 1) return cli_usage("model solve", "give exactly one profile");
    const char *outputs[] = {json, report};
    if (!cli_outputs_writable(outputs, 2)) return EXIT_USAGE;
    uarch_config base;
    if (!cli_load_config(&t, &base)) return EXIT_USAGE;
    if (base.model != MODEL_INORDER) {
        char names[200];
        return cli_usage("model solve",
                         "configuration %s: an out-of-order machine is not modelled: the statistical models express "
                         "only the thesis' in-order machines (configurations they model: %s, or an .ini with "
                         "core.model = inorder; thesis §9.3)",
                         base.name, cli_config_names_of_model(names, sizeof names, MODEL_INORDER));
    }
    cs_error err = {{0}};
    sweep_grid grid = {0};
    size_t npoints = 1;
    if (grid_text) {
        if (!sweep_grid_parse(&grid, grid_text, &err) || !sweep_grid_check(&grid, &base, &err)) {
            sweep_grid_free(&grid);
            cli_fail("model solve: %s", err.msg);
            return EXIT_USAGE; /* as a bad --set */
        }
        npoints = grid.points;
        if (npoints > 1000) {
            sweep_grid_free(&grid);
            cli_fail("model solve: --grid: %zu points (at most 1000)", npoints);
            return EXIT_USAGE; /* a grid too large is a bad grid */
        }
    }
    sm_profile *p = sm_profile_load(argv[optind], &err);
    if (!p) {
        sweep_grid_free(&grid);
        return cli_fail("%s", err.msg);
    }
    /* --json -: stdout holds the JSON alone (the tables go to stderr) */
    int data_fd = -1;
    if (json && !strcmp(json, "-") && (data_fd = cli_stdout_for_data()) < 0) {
        sweep_grid_free(&grid);
        sm_profile_free(p);
        return EXIT_RUN_FAILED;
    }
    if (compare && !check_stdin(p)) {
        sweep_grid_free(&grid);
        sm_profile_free(p);
        return EXIT_USAGE;
    }
    point *pts = cs_calloc(npoints, sizeof *pts);
    FILE *out = stdout;
    if (p->partial) fprintf(out, "PARTIAL PROFILE: %s.\n", PARTIAL_PROFILE);
    int rc = 0;
    double model_total = 0, sim_total = 0;
    /* every point's machine first: one the models do not express is bad usage, before anything runs */
    for (size_t i = 0; i < npoints && rc == 0; i++) {
        point *pt = &pts[i];
        if (grid_text) {
            if (!sweep_point_config(&grid, &base, i, &pt->cfg, &err)) {
                cli_fail("model solve: %s", err.msg);
                rc = EXIT_USAGE; /* as sweep_grid_check's refusals */
                break;
            }
            char *set = sweep_point_settings(&grid, i);
            snprintf(pt->settings, sizeof pt->settings, "%s", set);
            free(set);
        } else {
            pt->cfg = base;
        }
        pt->matrix = matrix;
        if (!point_machine(p, pt)) rc = EXIT_USAGE;
    }
    for (size_t i = 0; i < npoints && rc == 0; i++) {
        point *pt = &pts[i];
        rc = run_point(argv[optind], p, pt, max_states, compare, allow_write);
        if (rc == 0) {
            print_point(out, p, pt);
            model_total += pt->r.seconds;
            sim_total += pt->sim_seconds;
        }
    }
    if (rc == 0 && grid_text) {
        fprintf(out, "\n%-40s %10s", "point", "modelled");
        if (compare) fprintf(out, " %10s %8s", "simulated", "error");
        fprintf(out, "\n");
        for (size_t i = 0; i < npoints; i++) {
            fprintf(out, "%-40s %10.4f", pts[i].settings, pts[i].r.ipc);
            if (compare)
                fprintf(out, " %10.4f %+7.2f%%", pts[i].sim_ipc,
                        100 * (pts[i].r.ipc - pts[i].sim_ipc) / pts[i].sim_ipc);
            fprintf(out, "\n");
        }
        fprintf(out, "%zu machines modelled in %.3f s", npoints, model_total);
        if (compare) fprintf(out, ", simulated in %.3f s", sim_total);
        fprintf(out, "\n");
    }
    if (rc == 0 && json) {
        cJSON *root = model_header("cyclescope-model-solve", argv[optind], p, &t, &base);
        if (grid_text) {
            cJSON_AddStringToObject(root, "grid", grid_text);
            cJSON_AddNumberToObject(root, "model_seconds", model_total);
            if (compare) cJSON_AddNumberToObject(root, "simulation_seconds", sim_total);
            cJSON *arr = cJSON_AddArrayToObject(root, "points");
            for (size_t i = 0; i < npoints; i++) cJSON_AddItemToArray(arr, point_json(p, &pts[i]));
        } else {
            append_fields(root, point_json(p, &pts[0]));
        }
        cs_error werr = {{0}};
        if (!cli_write_json(json, data_fd, root, &werr)) rc = cli_fail("%s", werr.msg[0] ? werr.msg : "cannot write");
        cJSON_Delete(root);
    }
    if (rc == 0 && report) {
        char title[600];
        snprintf(title, sizeof title, "cyclescope model: %s", argv[optind]);
        html_report *h = html_report_begin(title);
        sm_html b = {0};
        if (grid_text) {
            const char **labels = cs_calloc(npoints, sizeof *labels);
            double *mv = cs_calloc(npoints, sizeof *mv), *sv = cs_calloc(npoints, sizeof *sv);
            for (size_t i = 0; i < npoints; i++) {
                labels[i] = pts[i].settings;
                mv[i] = pts[i].r.ipc;
                sv[i] = pts[i].sim_ipc;
            }
            sm_html_curve(&b, grid_text, (int)npoints, labels, mv, compare ? sv : NULL);
            free(labels);
            free(mv);
            free(sv);
        }
        for (size_t i = 0; i < npoints; i++) point_html(&b, &pts[i]);
        html_report_section(h, "statmodel", "Statistical model (thesis Figure 5.8: parallelism distributions)",
                            b.text ? b.text : "");
        sm_html_free(&b);
        if (!html_report_write(h, report, &err)) rc = cli_fail("%s", err.msg);
        html_report_free(h);
    }
    free(pts);
    sweep_grid_free(&grid);
    sm_profile_free(p);
    return rc;
}

/* The profile itself: what the trace analysis measured (Ch. 2, 6, 7, 8). */
static int info(int argc, char **argv) {
    static const struct option longopts[] = {{"json", required_argument, 0, OPT_M_JSON}, {0, 0, 0, 0}};
    const char *json = NULL;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "", longopts, "model info")) != -1) {
        if (opt == OPT_M_JSON) json = optarg;
        else return cli_bad_option("model info", argv);
    }
    if (argc - optind != 1) return cli_usage("model info", "give exactly one profile");
    if (!cli_outputs_writable(&json, 1)) return EXIT_USAGE;
    cs_error err = {{0}};
    sm_profile *p = sm_profile_load(argv[optind], &err);
    if (!p) return cli_fail("%s", err.msg);
    static const char *type_name[SM_TYPES] = {"integer", "fp", "memory", "branch"};
    /* --json -: stdout holds the JSON alone, the text goes to stderr */
    int data_fd = -1;
    if (json && !strcmp(json, "-") && (data_fd = cli_stdout_for_data()) < 0) {
        sm_profile_free(p);
        return EXIT_RUN_FAILED;
    }
    cJSON *root = model_header("cyclescope-model-info", argv[optind], p, NULL, NULL);
    cJSON_AddNumberToObject(root, "instructions", (double)p->instructions);
    cJSON *types = cJSON_AddObjectToObject(root, "types");
    printf("profile %s: %llu instructions\n", argv[optind], (unsigned long long)p->instructions);
    if (p->partial) printf("PARTIAL PROFILE: %s.\n", PARTIAL_PROFILE);
    if (p->source_kind == SM_SOURCE_PROGRAM)
        printf("guest environment: %s\n",
               p->env_fixed ? "fixed (--env-fixed; --compare-sim gives it the same)"
                            : "the caller's (--compare-sim gives it its caller's)");
    cJSON_AddBoolToObject(root, "env_fixed", p->env_fixed);
    if (p->source_kind == SM_SOURCE_PROGRAM) {
        if (p->seed)
            printf("guest seed: %llu (--seed; --compare-sim gives it the same)\n", (unsigned long long)p->seed);
        else printf("guest seed: the default\n");
    }
    cJSON_AddNumberToObject(root, "seed", (double)p->seed);
    static const uint8_t unknown[32] = {0};
    if (memcmp(p->source_sha256, unknown, sizeof unknown) != 0) {
        char hex[2 * CS_SHA256_BYTES + 1];
        cs_hex_encode(p->source_sha256, sizeof p->source_sha256, hex);
        printf("%s SHA-256: %s (--compare-sim refuses another file at its path)\n",
               p->source_kind == SM_SOURCE_TRACE ? "trace" : "program", hex);
        cJSON_AddStringToObject(root, "source_sha256", hex);
    } else {
        printf("%s SHA-256: not recorded (a profile older than version 7)\n",
               p->source_kind == SM_SOURCE_TRACE ? "trace" : "program");
        cJSON_AddNullToObject(root, "source_sha256");
    }
    if (p->stdin_known) {
        char hex[2 * CS_SHA256_BYTES + 1];
        cs_hex_encode(p->stdin_sha256, sizeof p->stdin_sha256, hex);
        printf("guest stdin: a file, %llu bytes read, SHA-256 %s (--compare-sim needs the same input)\n",
               (unsigned long long)p->stdin_bytes, hex);
        cJSON *in = cJSON_AddObjectToObject(root, "stdin");
        cJSON_AddNumberToObject(in, "bytes", (double)p->stdin_bytes);
        cJSON_AddStringToObject(in, "sha256", hex);
    } else {
        if (p->source_kind == SM_SOURCE_PROGRAM)
            printf("guest stdin: not recorded (no file at `model analyze`, or a profile older than version 8; "
                   "--compare-sim gives the re-run its caller's)\n");
        cJSON_AddNullToObject(root, "stdin");
    }
    printf("types:");
    for (int t = 0; t < SM_TYPES; t++) {
        cJSON_AddNumberToObject(types, type_name[t], (double)p->type_count[t]);
        printf(" %s %.1f%%", type_name[t], 100.0 * (double)p->type_count[t] / (double)p->instructions);
    }
    printf("\ndependent instruction distance (§3.2, nearest producer of any type; 5 = 5 or more, or none):");
    cJSON *dist = cJSON_AddArrayToObject(root, "distance_distribution");
    for (int s = 0; s <= SM_SMAX; s++) {
        double f = (double)p->dist_hist[s] / (double)p->instructions;
        cJSON_AddItemToArray(dist, cJSON_CreateNumber(f));
        printf(" %d: %.3f", s, f);
    }
    printf("\nflow graphs: one-pipe %u instruction numbers, %u sequences; three-pipe %u, %u (window %u, %u address "
           "bits)",
           p->one.ninstr, p->one.nnode, p->three.ninstr, p->three.nnode, p->three.window, p->addr_bits);
    cJSON_AddNumberToObject(root, "address_bits", p->addr_bits);
    cJSON *graphs = cJSON_AddObjectToObject(root, "sequences");
    cJSON_AddNumberToObject(graphs, "one_pipe", p->one.nnode);
    cJSON_AddNumberToObject(graphs, "three_pipe", p->three.nnode);
    for (int k = 0; k < SM_VP_SIZES; k++) {
        char key[32];
        snprintf(key, sizeof key, "value_prediction_%u", sm_vp_sizes[k]);
        cJSON_AddNumberToObject(graphs, key, p->vp[k].nnode);
        if (p->vp[k].nnode) printf("; VP %u: %u", sm_vp_sizes[k], p->vp[k].nnode);
    }
    printf("\ncontrol transfers %llu, mispredicted: none %llu", (unsigned long long)p->branches,
           (unsigned long long)p->branches);
    cJSON *mis = cJSON_AddObjectToObject(root, "mispredicted");
    cJSON_AddNumberToObject(root, "branches", (double)p->branches);
    cJSON_AddNumberToObject(mis, "none", (double)p->branches);
    for (int k = 0; k < SM_PREDS; k++) {
        char key[32];
        if (k == SM_PRED_STATIC) snprintf(key, sizeof key, "static");
        else snprintf(key, sizeof key, "bimodal_%u", 1u << (SM_BIMODAL_MIN_BITS + k - 1));
        cJSON_AddNumberToObject(mis, key, (double)p->mispred[k]);
        printf(", %s %llu", key, (unsigned long long)p->mispred[k]);
    }
    printf(", perfect 0\n");
    cJSON *miss = cJSON_AddObjectToObject(root, "cache_misses");
    printf("fully associative LRU misses, 16-byte blocks (§7.3):\n  %-8s %12s %12s\n", "size", "I-cache", "D-cache");
    for (int b = 0; b < SM_SD_BINS - 1; b++) {
        uint32_t blocks = 1u << (SM_SD_FIRST_LOG2 + b);
        uint64_t im = 0, dm = 0;
        for (int k = b + 1; k < SM_SD_BINS; k++) im += p->ihist[k], dm += p->dhist[k];
        char key[32];
        snprintf(key, sizeof key, "%u", blocks * 16);
        cJSON *c = cJSON_AddObjectToObject(miss, key);
        cJSON_AddNumberToObject(c, "icache", (double)im);
        cJSON_AddNumberToObject(c, "dcache", (double)dm);
        printf("  %5u KB %12llu %12llu\n", blocks * 16 / 1024, (unsigned long long)im, (unsigned long long)dm);
    }
    cJSON_AddNumberToObject(root, "icache_lookups", (double)p->ilookups);
    cJSON_AddNumberToObject(root, "dcache_accesses", (double)p->dacc);
    int rc = 0;
    if (json) {
        cs_error werr;
        if (!cli_write_json(json, data_fd, root, &werr)) rc = cli_fail("%s", werr.msg);
    }
    cJSON_Delete(root);
    sm_profile_free(p);
    return rc;
}

int cmd_model(int argc, char **argv) {
    if (argc < 2) return cli_usage("model", "give analyze, solve or info");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        help_model();
        return 0;
    }
    if (!strcmp(argv[1], "analyze")) return analyze(argc - 1, argv + 1);
    if (!strcmp(argv[1], "solve")) return solve(argc - 1, argv + 1);
    if (!strcmp(argv[1], "info")) return info(argc - 1, argv + 1);
    return cli_usage("model", "%s: not analyze, solve or info", argv[1]);
}
