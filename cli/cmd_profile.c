/* cyclescope profile: DCPI-style sampling of a timing run (record) and the
 * analysis of the profile (report, annotate); docs/profile.md. */
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "profile/profile.h"
#include "report/report.h"
#include "runner/runner.h"

void help_profile(void) {
    printf("usage: cyclescope profile record [options] -o FILE PROG [ARGS…]\n"
           "       cyclescope profile report|annotate [options] FILE\n"
           "       cyclescope profile imiss [options] FILE\n"
           "       cyclescope profile merge FILE FILE… -o OUT\n"
           "\n"
           "record: time PROG on a core model with a CYCLES sampler on the probe contract's\n"
           "sample timer (a randomised period, DCPI's 60000-64000 cycles by default) and\n"
           "write the profile FILE: per-pc sample counts, the period, the configuration and\n"
           "the executable's identity. `-o FILE` may also follow PROG as its last two words.\n"
           "  -o FILE            the profile to write\n"
           "  --period P|MIN-MAX the sampling period: P gives [P - P/32, P + P/32]\n"
           "  --sample-seed N    the period's random sequence (default 1)\n"
           "  --sample-point commit-cycle|commit-slot|issue-head\n"
           "                     out of order, where a sample lands: every commit slot of the\n"
           "                     sample cycle (default; time-proportional), one commit slot\n"
           "                     drawn at random (profile version 5's default) or the oldest\n"
           "                     µop in the issue queue (DCPI's, before version 5); in-order\n"
           "                     machines are always sampled at the head of issue\n"
           "  --events N         also sample every Nth I-cache miss, D-cache miss, mispredict\n"
           "  --truth FILE       also write the exact per-pc execution counts and the true\n"
           "                     cause of every sample (for grading; costs a record per µop)\n"
           "  --config, --set, --warmup, --max as for `run`\n" CLI_GUEST_OPTIONS_HELP "\n"
           "report: the procedures by samples, with estimated cycles, static and dynamic\n"
           "stall shares and the dynamic stall cycles by culprit (like dcpiprof).\n"
           "annotate: each procedure's listing with samples, Mi, the estimated execution\n"
           "count and its confidence, CPI, and culprit marks (like dcpicalc).\n"
           "  --exe PATH         the executable (default: the path recorded in FILE)\n"
           "  --function NAME    only this procedure\n"
           "  --json OUT         the analysis as JSON (- for stdout)\n"
           "  --html OUT         heat-coloured listings and each procedure's CFG as SVG\n"
           "  --truth FILE       grade the estimates against a truth file from record\n"
           "imiss: DCPI's Figure 10 — per procedure, the I-cache stall cycles the culprits\n"
           "attribute (a range) against the projected I-cache misses (IMISS samples; record\n"
           "with --events N), and their correlation.\n"
           "  --truth FILE       use its measured execution counts (as the paper did) and\n"
           "                     show the true I-cache stall cycles\n"
           "  --estimated        with --truth: keep the estimated counts\n"
           "  --exe, --json, --html as for report\n"
           "merge: one profile of several runs (DCPI accumulates samples across runs): the\n"
           "profiles of one executable on one configuration and period, each recorded with\n"
           "its own --sample-seed; counts, cycles and samples summed. Given truth files (from\n"
           "record --truth) it merges those instead, to grade the merged profile.\n"
           "  -o OUT             the merged profile (or truth) to write\n");
}

/* The header's configuration: the profile records its source, its --set
 * overrides in order and the resolved configuration. */
static void profile_provenance_config(report_provenance *prov, const profile_data *p) {
    prov->config_name = p->config_name;
    prov->config_source = p->config_source;
    prov->override_count = (int)p->noverrides;
    prov->overrides = (const char *const *)p->overrides;
    prov->config_ini = p->config_text;
}

enum {
    OPT_PERIOD = 1600,
    OPT_PSEED,
    OPT_POINT,
    OPT_EVENTS,
    OPT_TRUTH,
    OPT_EXE,
    OPT_FUNCTION,
    OPT_PJSON,
    OPT_HTML,
    OPT_ESTIMATED
};

static int record(int argc, char **argv) {
    static const struct option longopts[] = {{"period", required_argument, 0, OPT_PERIOD},
                                             {"sample-seed", required_argument, 0, OPT_PSEED},
                                             {"sample-point", required_argument, 0, OPT_POINT},
                                             {"events", required_argument, 0, OPT_EVENTS},
                                             {"truth", required_argument, 0, OPT_TRUTH},
                                             {"output", required_argument, 0, 'o'},
                                             CLI_TIMING_LONG_OPTIONS,
                                             CLI_GUEST_LONG_OPTIONS,
                                             {0, 0, 0, 0}};
    cli_timing_options t = {0};
    cli_guest_options g;
    cli_guest_defaults(&g);
    const char *out = NULL, *period = NULL, *seed = NULL, *point = NULL, *events = NULL, *truth = NULL;
    bool bad = false;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "+o:", longopts, "profile record")) != -1) {
        switch (opt) {
        case 'o': out = optarg; break;
        case OPT_PERIOD: period = optarg; break;
        case OPT_PSEED: seed = optarg; break;
        case OPT_POINT: point = optarg; break;
        case OPT_EVENTS: events = optarg; break;
        case OPT_TRUTH: truth = optarg; break;
        default:
            if (!cli_timing_option(&t, opt, optarg, "profile record", &bad) &&
                !cli_guest_option(&g, opt, optarg, "profile record", &bad))
                return cli_bad_option("profile record", argv);
            if (bad) return EXIT_USAGE;
        }
    }
    int nargs = argc - optind;
    if (!out && nargs >= 3 && !strcmp(argv[argc - 2], "-o")) { /* PROG … -o FILE */
        out = argv[argc - 1];
        nargs -= 2;
    }
    if (!out) return cli_usage("profile record", "no output file (-o FILE)");
    if (nargs <= 0) return cli_usage("profile record", "no program given");
    const char *outputs[] = {out, truth};
    if (!cli_outputs_writable(outputs, 2)) return EXIT_USAGE;
    if (!cli_prepare_guest(&t, &g)) return EXIT_USAGE; /* a bad configuration is bad usage */
    uarch_config cfg;
    if (!cli_load_config(&t, &cfg)) return EXIT_USAGE; /* a bad configuration is bad usage */
    cs_error err;
    analysis_list list = {0};
    const char *keys[] = {"file", "exe", "period", "seed", "point", "events", "truth"};
    const char *vals[] = {out, argv[optind], period, seed, point, events, truth};
    bool ok = true;
    for (int i = 0; i < 7 && ok; i++)
        if (vals[i]) ok = analysis_list_add(&list, "profile", keys[i], vals[i], &err);
    /* the profile is put in place once the program's end is known (cli_outputs_settle) */
    if (ok) ok = analysis_list_stage_outputs(&list, &err);
    if (!ok) {
        analysis_list_free(&list);
        return cli_fail("%s", err.msg);
    }
    /* the sampler's options (period, seed, events) checked before anything runs: bad usage */
    list.opt[0].cfg = &cfg; /* the sample point depends on the model */
    void *check = list.ops[0]->create(&list.opt[0], &err);
    if (!check) {
        analysis_list_free(&list);
        return cli_usage("profile record", "%s", err.msg);
    }
    list.ops[0]->destroy(check);
    emu_t *e = cli_guest_create(&g, nargs, argv + optind);
    if (!e) {
        analysis_list_free(&list);
        return EXIT_RUN_FAILED;
    }
    char what[512];
    cli_describe_command(what, sizeof what, nargs, argv + optind);
    uop_source *src = emu_source_create(e);
    fflush(stdout);
    run_spec spec = {&cfg, {t.warmup, t.max, "profiling"}, &list, what};
    run_config_origin origin = {t.config ? t.config : "ooo4", t.set_count, t.sets};
    run_result run;
    int rc = 0;
    cli_sigint_handler old_handler = cli_sigint_begin(); /* Ctrl-C: the profile of what ran */
    bool ran = runner_run_origin(&spec, &origin, src, &run, &err);
    cli_sigint_end(old_handler);
    if (!ran) {
        rc = cli_fail("%s", err.msg);
    } else {
        if (!run.ok) rc = cli_run_failed(e, "%s", run.err.msg);
        else if (emu_state(e) == EMU_FAILED) rc = cli_guest_exit(e);
        /* no profile of what cyclescope could not run (125); a fault's is what ran */
        rc = cli_outputs_settle(&run, rc);
        if (run.ok && rc == 0) runner_text(&run, stderr);
        run_result_free(&run);
        if (rc == 0 && cs_stop_requested()) {
            fprintf(stderr,
                    "cyclescope: PARTIAL PROFILE: the run was interrupted (SIGINT, Ctrl-C); the profile "
                    "covers only what ran\n");
            rc = 128 + SIGINT;
        }
        if (rc == 0) rc = cli_guest_exit(e); /* the profile is written; the status is a failing program's */
    }
    uop_source_destroy(src);
    emu_destroy(e);
    analysis_list_free(&list);
    return rc;
}

/* docs/profile.schema.json: incremented when a field changes meaning or goes */
enum { PROFILE_SCHEMA_VERSION = 1 };

static int analyse(int argc, char **argv, bool annotate) {
    const char *verb = annotate ? "profile annotate" : "profile report";
    static const struct option longopts[] = {
        {"exe", required_argument, 0, OPT_EXE},     {"function", required_argument, 0, OPT_FUNCTION},
        {"json", required_argument, 0, OPT_PJSON},  {"html", required_argument, 0, OPT_HTML},
        {"truth", required_argument, 0, OPT_TRUTH}, {0, 0, 0, 0}};
    const char *exe = NULL, *function = NULL, *json = NULL, *html = NULL, *truth = NULL;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "", longopts, verb)) != -1) {
        switch (opt) {
        case OPT_EXE: exe = optarg; break;
        case OPT_FUNCTION: function = optarg; break;
        case OPT_PJSON: json = optarg; break;
        case OPT_HTML: html = optarg; break;
        case OPT_TRUTH: truth = optarg; break;
        default: return cli_bad_option(verb, argv);
        }
    }
    if (optind >= argc) return cli_usage(verb, "no profile file given");
    if (optind + 1 < argc) return cli_usage(verb, "one profile file at a time");
    const char *outputs[] = {json, html};
    if (!cli_outputs_writable(outputs, 2)) return EXIT_USAGE;
    cs_error err;
    /* the truth read and checked before anything is printed: a bad one is one line */
    profile_truth t;
    if (truth && !profile_truth_read(truth, &t, &err)) return cli_fail("%s", err.msg);
    profile_analysis *a = profile_analyse(argv[optind], exe, function, &err);
    if (!a) {
        if (truth) profile_truth_free(&t);
        return cli_fail("%s", err.msg);
    }
    profile_grade gr;
    bool graded = false;
    if (truth) {
        graded = profile_grade_against(a, &t, &gr, &err);
        profile_truth_free(&t);
        if (!graded) {
            profile_analysis_free(a);
            return cli_fail("%s: %s", truth, err.msg);
        }
    }
    int rc = 0;
    bool json_stdout = json && !strcmp(json, "-");
    char warning[512];
    if (profile_reliability_warning(a, warning, sizeof warning)) fprintf(stderr, "cyclescope: warning: %s\n", warning);
    for (size_t i = 0; i < a->nnotes; i++) fprintf(stderr, "cyclescope: warning: %s\n", a->notes[i]);
    if (!json_stdout) {
        if (annotate) profile_annotate_text(a, stdout);
        else profile_report_text(a, stdout);
    }
    if (graded) {
        FILE *o = json_stdout ? stderr : stdout;
        fprintf(o,
                "grade: samples %.0f; frequency within 5%% %.1f%%, 10%% %.1f%%, 15%% %.1f%%; off by >15%% "
                "marked low %.1f%%; edges within 10%% %.1f%% of %.0f executions; culprit coverage %.1f%% of "
                "%.0f stall samples; unexplained %.1f%%\n",
                gr.samples, 100 * gr.within5, 100 * gr.within10, 100 * gr.within15, 100 * gr.off15_low,
                100 * gr.edges_within10, gr.edge_execs, 100 * gr.culprit_covered, gr.stall_samples,
                100 * gr.unexplained);
        fprintf(o, "grade: stalls found at instructions holding %.1f%% of the stall samples; covered there %.1f%%\n",
                100 * gr.detected, 100 * gr.covered_detected);
        fprintf(o, "grade: stall samples by true cause (covered):");
        for (int c = TC_DEPENDENCY; c < TC_COUNT; c++)
            if (gr.cause_stall[c] > 0)
                fprintf(o, " %s %.0f (%.0f)", profile_cause_name((profile_cause)c), gr.cause_stall[c],
                        gr.cause_covered[c]);
        fprintf(o, "\n");
    }
    if (json) {
        /* the header first, then the analysis' fields in their order */
        cJSON *root = cJSON_CreateObject(), *body = profile_json(a);
        report_provenance prov;
        cli_provenance(&prov, "profile", argv[optind], 0, NULL);
        profile_provenance_config(&prov, &a->prof);
        prov.without_limits = true;
        report_header_json(root, "cyclescope-profile", PROFILE_SCHEMA_VERSION, NULL, &prov);
        while (body->child) {
            cJSON *item = cJSON_DetachItemViaPointer(body, body->child);
            cJSON_AddItemToObject(root, item->string, item);
        }
        cJSON_Delete(body);
        if (graded) {
            cJSON *g = cJSON_AddObjectToObject(root, "grade");
            cJSON_AddNumberToObject(g, "samples", gr.samples);
            cJSON_AddNumberToObject(g, "within5", gr.within5);
            cJSON_AddNumberToObject(g, "within10", gr.within10);
            cJSON_AddNumberToObject(g, "within15", gr.within15);
            cJSON_AddNumberToObject(g, "off15_marked_low", gr.off15_low);
            cJSON_AddNumberToObject(g, "edge_executions", gr.edge_execs);
            cJSON_AddNumberToObject(g, "edges_within10", gr.edges_within10);
            cJSON_AddNumberToObject(g, "stall_samples", gr.stall_samples);
            cJSON_AddNumberToObject(g, "culprit_coverage", gr.culprit_covered);
            cJSON_AddNumberToObject(g, "stalls_found", gr.detected);
            cJSON_AddNumberToObject(g, "unexplained", gr.unexplained);
            cJSON_AddNumberToObject(g, "dynamic_stall_cycles", gr.dynamic_cycles);
        }
        char *text = cJSON_Print(root);
        cJSON_Delete(root);
        if (json_stdout) {
            fputs(text, stdout);
            fputc('\n', stdout);
        } else {
            cs_output out;
            FILE *f = cs_output_open(&out, json, &err);
            if (f && (fputs(text, f) < 0 || fputc('\n', f) == EOF)) {
                cs_error_set(&err, "%s: write failed", json);
                f = NULL;
            }
            if (!f || !cs_output_commit(&out, &err)) rc = cli_fail("%s", err.msg);
            cs_output_discard(&out);
        }
        free(text);
    }
    if (!rc && html && !profile_html_write(a, html, &err)) rc = cli_fail("%s", err.msg);
    if (!rc) fprintf(stderr, "profile: analysed %zu procedures in %.3f s\n", a->nprocs, a->seconds);
    profile_analysis_free(a);
    return rc;
}

/* docs/profile-imiss.schema.json */
enum { PROFILE_IMISS_SCHEMA_VERSION = 1 };

/* profile imiss: DCPI's Figure 10 */
static int imiss(int argc, char **argv) {
    static const struct option longopts[] = {
        {"exe", required_argument, 0, OPT_EXE},       {"json", required_argument, 0, OPT_PJSON},
        {"html", required_argument, 0, OPT_HTML},     {"truth", required_argument, 0, OPT_TRUTH},
        {"estimated", no_argument, 0, OPT_ESTIMATED}, {0, 0, 0, 0}};
    const char *exe = NULL, *json = NULL, *html = NULL, *truth = NULL;
    bool estimated = false;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "", longopts, "profile imiss")) != -1) {
        switch (opt) {
        case OPT_EXE: exe = optarg; break;
        case OPT_PJSON: json = optarg; break;
        case OPT_HTML: html = optarg; break;
        case OPT_TRUTH: truth = optarg; break;
        case OPT_ESTIMATED: estimated = true; break;
        default: return cli_bad_option("profile imiss", argv);
        }
    }
    if (optind >= argc) return cli_usage("profile imiss", "no profile file given");
    if (optind + 1 < argc) return cli_usage("profile imiss", "one profile file at a time");
    if (estimated && !truth) return cli_usage("profile imiss", "--estimated needs --truth");
    const char *outputs[] = {json, html};
    if (!cli_outputs_writable(outputs, 2)) return EXIT_USAGE;
    cs_error err;
    profile_truth t;
    bool have_truth = false;
    if (truth) {
        if (!profile_truth_read(truth, &t, &err)) return cli_fail("%s", err.msg);
        have_truth = true;
    }
    int rc = 0;
    profile_analysis *a = profile_analyse_exact(argv[optind], exe, NULL, have_truth && !estimated ? &t : NULL, &err);
    profile_imiss_fig fig;
    if (!a) {
        rc = cli_fail("%s", err.msg);
    } else if (!a->prof.event_period) {
        /* Figure 10 needs IMISS event samples: a profile without them is the
         * wrong input for this verb (bad usage), not a failure to run */
        rc = cli_usage("profile imiss", "%s has no event samples: record it with --events N", argv[optind]);
    } else if (!profile_imiss_figure(a, have_truth ? &t : NULL, &fig, &err)) {
        rc = cli_fail("%s: %s", have_truth && strstr(err.msg, "truth") ? truth : argv[optind], err.msg);
    } else {
        for (size_t i = 0; i < a->nnotes; i++) fprintf(stderr, "cyclescope: warning: %s\n", a->notes[i]);
        char warning[512];
        if (profile_reliability_warning(a, warning, sizeof warning))
            fprintf(stderr, "cyclescope: warning: %s\n", warning);
        bool json_stdout = json && !strcmp(json, "-");
        if (!json_stdout) profile_imiss_text(a, &fig, stdout);
        if (json) {
            /* the common header (docs/json-schema.md), then the figure's fields */
            cJSON *root = cJSON_CreateObject(), *body = profile_imiss_json(a, &fig);
            report_provenance prov;
            cli_provenance(&prov, "profile", argv[optind], 0, NULL);
            profile_provenance_config(&prov, &a->prof);
            prov.without_limits = true;
            report_header_json(root, "cyclescope-profile-imiss", PROFILE_IMISS_SCHEMA_VERSION, NULL, &prov);
            while (body->child) {
                cJSON *item = cJSON_DetachItemViaPointer(body, body->child);
                cJSON_AddItemToObject(root, item->string, item);
            }
            cJSON_Delete(body);
            if (json_stdout) {
                char *text = cJSON_Print(root);
                puts(text);
                free(text);
            } else if (!report_write_json(json, root, &err)) {
                rc = cli_fail("%s", err.msg);
            }
            cJSON_Delete(root);
        }
        if (!rc && html && !profile_imiss_html_write(a, &fig, html, &err)) rc = cli_fail("%s", err.msg);
        profile_imiss_free(&fig);
    }
    profile_analysis_free(a);
    if (have_truth) profile_truth_free(&t);
    return rc;
}

/* profile merge: several runs' profiles (or their truths) into one */
static int merge(int argc, char **argv) {
    static const struct option longopts[] = {{"output", required_argument, 0, 'o'}, {0, 0, 0, 0}};
    const char *out = NULL;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "o:", longopts, "profile merge")) != -1) {
        switch (opt) {
        case 'o': out = optarg; break;
        default: return cli_bad_option("profile merge", argv);
        }
    }
    if (!out) return cli_usage("profile merge", "no output given (-o OUT)");
    if (argc - optind < 2) return cli_usage("profile merge", "give two or more profiles (or truth files) to merge");
    const char *outputs[] = {out};
    if (!cli_outputs_writable(outputs, 1)) return EXIT_USAGE;
    for (int i = optind; i < argc; i++) /* one run counted twice (a truth has no seed to tell it) */
        for (int k = optind; k < i; k++) {
            struct stat a, b;
            if (stat(argv[i], &a) == 0 && stat(argv[k], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
                return cli_usage("profile merge", "%s and %s are one file: its run would count twice", argv[k],
                                 argv[i]);
        }
    cs_error err;
    /* the first file's kind decides: truth files start with their own magic */
    static const char truth_magic[] = "cyclescope-profile-truth ";
    char head[sizeof truth_magic - 1];
    FILE *first = cs_fopen_input(argv[optind], &err);
    if (!first) return cli_fail("%s", err.msg);
    bool truths = fread(head, 1, sizeof head, first) == sizeof head && !memcmp(head, truth_magic, sizeof head);
    fclose(first);
    int rc = 0;
    if (truths) {
        profile_truth acc;
        if (!profile_truth_read(argv[optind], &acc, &err)) return cli_fail("%s", err.msg);
        for (int i = optind + 1; i < argc && !rc; i++) {
            profile_truth t;
            if (!profile_truth_read(argv[i], &t, &err)) {
                rc = cli_fail("%s", err.msg);
                break;
            }
            if (!profile_truth_merge(&acc, &t, argv[i], &err)) rc = cli_fail("%s", err.msg);
            profile_truth_free(&t);
        }
        if (!rc && !profile_truth_write(out, &acc, &err)) rc = cli_fail("%s", err.msg);
        profile_truth_free(&acc);
        return rc;
    }
    profile_data acc;
    if (!profile_read(argv[optind], &acc, &err)) return cli_fail("%s", err.msg);
    for (int i = optind + 1; i < argc && !rc; i++) {
        profile_data p;
        if (!profile_read(argv[i], &p, &err)) {
            rc = cli_fail("%s", err.msg);
            break;
        }
        if (!profile_merge(&acc, &p, argv[i], &err)) rc = cli_fail("%s", err.msg);
        profile_data_free(&p);
    }
    if (!rc && !profile_write(out, &acc, &err)) rc = cli_fail("%s", err.msg);
    if (!rc)
        fprintf(stderr, "profile: %zu runs, %" PRIu64 " samples, %" PRIu64 " cycles -> %s\n", acc.nruns, acc.samples,
                acc.cycles, out);
    profile_data_free(&acc);
    return rc;
}

int cmd_profile(int argc, char **argv) {
    if (argc < 2) return cli_usage("profile", "give record, report, annotate, imiss or merge");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        help_profile();
        return 0;
    }
    if (!strcmp(argv[1], "record")) return record(argc - 1, argv + 1);
    if (!strcmp(argv[1], "report")) return analyse(argc - 1, argv + 1, false);
    if (!strcmp(argv[1], "annotate")) return analyse(argc - 1, argv + 1, true);
    if (!strcmp(argv[1], "imiss")) return imiss(argc - 1, argv + 1);
    if (!strcmp(argv[1], "merge")) return merge(argc - 1, argv + 1);
    return cli_usage("profile", "unknown subcommand '%s' (record, report, annotate, imiss, merge)", argv[1]);
}
