/* cyclescope simpoint: basic block vectors of a program (or a .cst trace) and
 * its SimPoint phases: the .bb file, .simpoints, .weights and the manifest
 * that `run --simpoints` reads (docs/simpoint.md). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "report/report.h"
#include "sampling/sampling.h"

void help_simpoint(void) {
    printf("usage: cyclescope simpoint [options] -o DIR PROG [ARGS…]\n"
           "       cyclescope simpoint [options] -o DIR TRACE.cst\n"
           "       cyclescope simpoint [options] -o DIR --bb FILE.bb\n"
           "\n"
           "Find the phases of a program as SimPoint 3 does. Runs PROG to its end in the\n"
           "emulator's block-counting fast-forward (or reads a .cst trace), one basic\n"
           "block vector per interval; projects them to 15 dimensions, clusters them\n"
           "with k-means for k chosen by the BIC (binary search up to --max-k), and\n"
           "picks one simulation point per cluster, weighted by the cluster's share of\n"
           "the instructions. Writes to DIR:\n"
           "  " SIMPOINT_BB_FILE "        the vectors in SimPoint's .bb format (the reference SimPoint\n"
           "                reads it: simpoint -loadFVFile DIR/" SIMPOINT_BB_FILE " -maxK 30 …)\n"
           "  " SIMPOINT_POINTS_FILE "  SimPoint's .simpoints: interval index, cluster\n"
           "  " SIMPOINT_WEIGHTS_FILE "    SimPoint's .weights: weight, cluster\n"
           "  " SIMPOINT_MANIFEST_FILE "  what `cyclescope run --simpoints DIR PROG` needs\n"
           "With --bb, clusters another tool's .bb (valgrind --tool=exp-bbv) and writes\n"
           "only the .simpoints and .weights (for that tool to time; `run --simpoints`\n"
           "needs the manifest, which only a program's or a trace's profile has).\n"
           "\n"
           "options:\n"
           "  -o DIR             output directory (created if missing)\n"
           "  --interval N       instructions per interval (default 10M)\n"
           "  --max-k N          largest number of clusters searched (default 30)\n"
           "  --k N              exactly N clusters, no search\n"
           "  --cluster-seed N   seed of the projection and the k-means starts\n"
           "  --dims N           projection dimensions (default 15)\n"
           "  --init-seeds N     k-means starts per k (default 5)\n"
           "  --iterations N     k-means iteration limit (default 100)\n"
           "  --bic-threshold T  the smallest k whose BIC reaches T of the range (default 0.9)\n"
           "  --bb FILE          cluster FILE (a .bb) instead of running a program\n"
           "  --max N            profile only the first N instructions of the program (one\n"
           "                     that never ends); `run --simpoints` then stops there too\n"
           "Exit status as `run`: the program's own non-zero status, or 128+signal when it\n"
           "was killed by one (the points are of the intervals before it), once the points\n"
           "are written.\n" CLI_GUEST_OPTIONS_HELP);
}

enum {
    OPT_INTERVAL = 1300,
    OPT_MAX_K,
    OPT_FIXED_K,
    OPT_SP_SEED,
    OPT_DIMS,
    OPT_INIT_SEEDS,
    OPT_ITERATIONS,
    OPT_BIC,
    OPT_BB,
    OPT_SP_MAX,
};

/* fewer intervals than this draw a warning (print_result) */
enum { SIMPOINT_FEW_INTERVALS = 10 };

/* docs/simpoint.schema.json: incremented when a header field changes meaning or goes */
enum { SIMPOINT_SCHEMA_VERSION = 1 };

static bool parse_u32(const char *verb, const char *opt, const char *arg, uint32_t *out) {
    uint64_t v;
    if (!cs_parse_count(arg, &v) || v > UINT32_MAX) {
        cli_usage(verb, "--%s %s: not a count", opt, arg);
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

static void print_result(const bbv_profile *p, const simpoint_result *r) {
    printf("\nSimPoint phases of %s\n", p->source);
    printf("  %zu intervals of %" PRIu64 " instructions (%" PRIu64 " in all), %" PRIu32 " basic blocks\n",
           p->interval_count, p->interval, p->instructions, p->blocks);
    printf("  k searched (BIC):");
    for (size_t i = 0; i < r->trial_count; i++) printf(" %u (%.4g)", r->trials[i].k, r->trials[i].bic);
    printf("\n  chosen k = %u: %zu simulation points, %.1fx fewer instructions to time in detail\n", r->k,
           r->point_count, (double)p->instructions / (double)(r->point_count * p->interval));
    printf("  %-8s %10s %16s %10s\n", "cluster", "interval", "first insn", "weight");
    for (size_t i = 0; i < r->point_count; i++) {
        const simpoint_point *pt = &r->points[i];
        printf("  %-8u %10" PRIu64 " %16" PRIu64 " %10.4f\n", pt->cluster, pt->interval, pt->start, pt->weight);
    }
}

/* SimPoint's premise is a run of many intervals whose start is a negligible share: on a few
 * each point stands for much of the run and the cold start for much of its cycles (2
 * intervals: -8.2% on tree; dynamic minigzip -d, 5 intervals: -29.7%; docs/simpoint.md "Where
 * the estimate still misses"). Said after the points are written, and not for a program that
 * failed (its one line is the last word). */
static void warn_few_intervals(const bbv_profile *p) {
    if (p->interval_count >= SIMPOINT_FEW_INTERVALS) return;
    fprintf(stderr,
            "cyclescope: warning: %s: only %zu interval%s of %" PRIu64
            " instructions: each simulation point stands for much of the run and its cold start is no "
            "negligible share, so the estimate may be off by tens of percent; time a run this short in full (run), "
            "or give a smaller --interval (docs/simpoint.md)\n",
            p->source, p->interval_count, p->interval_count == 1 ? "" : "s", p->interval);
}

int cmd_simpoint(int argc, char **argv) {
    static const struct option longopts[] = {{"interval", required_argument, 0, OPT_INTERVAL},
                                             {"max-k", required_argument, 0, OPT_MAX_K},
                                             {"k", required_argument, 0, OPT_FIXED_K},
                                             {"cluster-seed", required_argument, 0, OPT_SP_SEED},
                                             {"dims", required_argument, 0, OPT_DIMS},
                                             {"init-seeds", required_argument, 0, OPT_INIT_SEEDS},
                                             {"iterations", required_argument, 0, OPT_ITERATIONS},
                                             {"bic-threshold", required_argument, 0, OPT_BIC},
                                             {"bb", required_argument, 0, OPT_BB},
                                             {"max", required_argument, 0, OPT_SP_MAX},
                                             CLI_GUEST_LONG_OPTIONS,
                                             {0, 0, 0, 0}};
    cli_guest_options g;
    cli_guest_defaults(&g);
    simpoint_options so;
    simpoint_options_default(&so);
    uint64_t interval = SAMPLING_DEFAULT_INTERVAL, max = 0; /* max 0: to the program's end */
    const char *dir = NULL, *bb_path = NULL;
    bool bad = false;
    int opt;
    optind = 1;
    bool max_k_given = false;
    while ((opt = cli_getopt(argc, argv, "+:o:", longopts, "simpoint")) != -1) {
        switch (opt) {
        case 'o': dir = optarg; break;
        case OPT_INTERVAL:
            if (!cs_parse_count(optarg, &interval) || interval == 0)
                return cli_usage("simpoint", "--interval %s: not a positive count", optarg);
            break;
        case OPT_MAX_K:
            max_k_given = true;
            if (!parse_u32("simpoint", "max-k", optarg, &so.max_k)) return EXIT_USAGE;
            break;
        case OPT_FIXED_K:
            if (!parse_u32("simpoint", "k", optarg, &so.fixed_k)) return EXIT_USAGE;
            if (so.fixed_k == 0) return cli_usage("simpoint", "--k 0: give at least 1 cluster");
            break;
        case OPT_SP_SEED:
            if (!cs_parse_count(optarg, &so.seed))
                return cli_usage("simpoint", "--cluster-seed %s: not a count", optarg);
            break;
        case OPT_DIMS:
            if (!parse_u32("simpoint", "dims", optarg, &so.dims)) return EXIT_USAGE;
            break;
        case OPT_INIT_SEEDS:
            if (!parse_u32("simpoint", "init-seeds", optarg, &so.seeds)) return EXIT_USAGE;
            break;
        case OPT_ITERATIONS:
            if (!parse_u32("simpoint", "iterations", optarg, &so.iterations)) return EXIT_USAGE;
            break;
        case OPT_BIC: {
            char *end;
            so.bic_threshold = strtod(optarg, &end);
            if (*end || end == optarg) return cli_usage("simpoint", "--bic-threshold %s: not a number", optarg);
            if (!(so.bic_threshold >= 0 && so.bic_threshold <= 1)) /* the text given, not %g of it */
                return cli_usage("simpoint", "--bic-threshold %s: out of range (0..1)", optarg);
            break;
        }
        case OPT_BB: bb_path = optarg; break;
        case OPT_SP_MAX:
            if (!cs_parse_count(optarg, &max) || max == 0)
                return cli_usage("simpoint", "--max %s: not a positive count", optarg);
            break;
        case ':': return cli_usage("simpoint", "%s needs a value", argv[optind - 1]);
        default:
            if (!cli_guest_option(&g, opt, optarg, "simpoint", &bad)) return cli_bad_option("simpoint", argv);
            if (bad) return EXIT_USAGE;
        }
    }
    cs_error err;
    /* --k searches nothing: a --max-k beside it was ignored without a word */
    if (so.fixed_k && max_k_given) return cli_usage("simpoint", "--k and --max-k: give one (--k fixes k, no search)");
    if (!simpoint_options_check(&so, &err)) return cli_usage("simpoint", "%s", err.msg);
    if (!dir) return cli_usage("simpoint", "no output directory (-o DIR)");
    if (bb_path && optind < argc) return cli_usage("simpoint", "give --bb FILE or a program, not both");
    if (bb_path && max) return cli_usage("simpoint", "--max applies to a program, not to --bb");
    if (!bb_path && optind >= argc) return cli_usage("simpoint", "no program given");
    if (!cli_output_dir_ready(dir)) return EXIT_USAGE;

    bbv_profile *p = NULL;
    simpoint_end end = {SIMPOINT_END_UNKNOWN, 0, 0};
    /* a program that exited non-zero or was killed by a signal: the points of what it ran are
     * written, then this line is said and the status is its (cli_guest_end) */
    char guest_line[600] = "";
    int guest_rc = 0;
    const char *guest_error = NULL; /* the fault, for the manifest's header */
    char guest_error_buf[600];
    simpoint_identity id = {0};
    bool have_id = false;
    if (bb_path) {
        p = bbv_read(bb_path, &err);
        if (!p) return cli_fail("%s", err.msg);
    } else {
        char what[512];
        cli_describe_command(what, sizeof what, argc - optind, argv + optind);
        const char *path = argv[optind];
        bool trace = cst_probe(path);
        if (trace && optind != argc - 1) return cli_usage("simpoint", "a trace takes no arguments");
        if (trace && max) return cli_usage("simpoint", "--max applies to a program (a trace has its end)");
        if (!simpoint_identity_of(&id, trace, argc - optind, argv + optind, &err)) return cli_fail("%s", err.msg);
        have_id = true;
        if (trace) {
            cst_reader *r = cli_cst_open(path, &err);
            if (!r) {
                simpoint_identity_free(&id);
                return cli_fail("%s", err.msg);
            }
            uop_source *src = cst_reader_source(r);
            p = bbv_collect_source(src, interval, what, &err);
            uop_source_destroy(src);
        } else {
            /* as run --simpoints will read it: the same stdin, the same instructions */
            if (!cli_spool_piped_stdin("simpoint")) {
                simpoint_identity_free(&id);
                return EXIT_RUN_FAILED;
            }
            emu_t *e = cli_guest_create(&g, argc - optind, argv + optind);
            if (!e) {
                simpoint_identity_free(&id);
                return EXIT_RUN_FAILED;
            }
            fflush(stdout);
            p = bbv_collect_emu_max(e, interval, max ? max : UINT64_MAX, what, &err);
            /* killed by a signal (a fault, abort()): the points of the intervals before it (a
             * replay stops there too), and the status of a fault, 128 + signal, as every verb
             * gives it; a fault before any instruction ran leaves nothing to cluster */
            int failed = p ? 0 : cli_run_failed(e, "%s", err.msg);
            if (p) {
                guest_rc = cli_guest_end(e, guest_line, sizeof guest_line);
                if (emu_state(e) == EMU_EXITED) {
                    end = (simpoint_end){SIMPOINT_END_EXITED, emu_exit_code(e), 0};
                } else if (emu_state(e) == EMU_FAILED) {
                    end = (simpoint_end){SIMPOINT_END_FAULT, 0, emu_fault_signal(e)};
                    snprintf(guest_error_buf, sizeof guest_error_buf, "%s", emu_error(e));
                    guest_error = guest_error_buf;
                } else {
                    end = (simpoint_end){SIMPOINT_END_STOPPED, 0, 0}; /* --max */
                }
            }
            emu_destroy(e);
            if (failed) {
                simpoint_identity_free(&id);
                return failed;
            }
        }
        if (!p) {
            simpoint_identity_free(&id);
            return cli_fail("%s", err.msg);
        }
    }
    simpoint_result r;
    int rc = 0;
    if (!simpoint_cluster(p, &so, &r, &err)) {
        rc = cli_fail("%s", err.msg);
    } else {
        print_result(p, &r);
        /* --k N asks exactly N clusters: fewer intervals give fewer, said where it is read */
        if (so.fixed_k && r.k < so.fixed_k)
            fprintf(stderr, "cyclescope: warning: --k %u: only %zu intervals, so %u clusters\n", so.fixed_k,
                    p->interval_count, r.k);
        bool ok;
        if (have_id) {
            /* the common provenance header: the input is the program or trace analysed */
            report_provenance prov;
            bool trace = id.trace;
            cli_provenance(&prov, trace ? "trace" : "program", argv[optind], trace ? 0 : argc - optind - 1,
                           trace ? NULL : argv + optind + 1);
            prov.without_limits = true; /* the whole run is analysed: no warm-up, no --max */
            prov.has_guest = !trace;
            prov.guest_state = end.state == SIMPOINT_END_EXITED ? "exited"
                : end.state == SIMPOINT_END_FAULT               ? "fault"
                                                                : "stopped";
            prov.guest_exit_code = end.exit_code;
            prov.guest_error = guest_error;
            cJSON *header = cJSON_CreateObject();
            report_header_json(header, "cyclescope-simpoint", SIMPOINT_SCHEMA_VERSION, NULL, &prov);
            ok = simpoint_save(dir, p, &r, &so, &id, trace ? NULL : &end, header, &err);
            cJSON_Delete(header);
        } else {
            char path[4096];
            ok = mkdir(dir, 0777) == 0 || errno == EEXIST;
            if (!ok) cs_error_set(&err, "%s: cannot create directory: %s", dir, strerror(errno));
            snprintf(path, sizeof path, "%s/%s", dir, SIMPOINT_POINTS_FILE);
            ok = ok && simpoint_write_points(path, &r, &err);
            snprintf(path, sizeof path, "%s/%s", dir, SIMPOINT_WEIGHTS_FILE);
            ok = ok && simpoint_write_weights(path, &r, &err);
            /* the manifest of an earlier `simpoint -o DIR PROG` describes other points now:
             * `run --simpoints DIR` would refuse them as edited by hand */
            snprintf(path, sizeof path, "%s/%s", dir, SIMPOINT_MANIFEST_FILE);
            if (ok && unlink(path) == 0)
                fprintf(stderr, "cyclescope: note: removed %s: it was of an earlier run's points\n", path);
        }
        if (!ok) rc = cli_fail("%s", err.msg);
        else printf("\nwritten to %s/\n", dir);
        if (ok && guest_rc == 0) {
            fflush(stdout);
            warn_few_intervals(p);
        }
        simpoint_result_free(&r);
    }
    bbv_profile_free(p);
    if (have_id) simpoint_identity_free(&id);
    if (rc == 0 && guest_rc != 0) {
        cli_fail("%s", guest_line);
        rc = guest_rc;
    }
    return rc;
}
