/* cyclescope stacks: the multi-stage CPI stacks, IPC and FLOPS stacks of a run
 * and, with --validate, their check against idealised machines (Eyerman et
 * al. §IV, §V-A): the baseline and six idealised machines timed in parallel. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "report/report.h"
#include "runner/runner.h"

void help_stacks(void) {
    printf("usage: cyclescope stacks [--validate] [options] PROG [ARGS…]\n"
           "\n"
           "Time the RISC-V executable PROG and print its CPI stacks measured\n"
           "at dispatch, issue and commit (Eyerman et al., Table II), side by side,\n"
           "and its FLOPS stack (Table III) at the configuration's core.freq_ghz.\n"
           "Every stack sums to the cycle count.\n"
           "\n"
           "With --validate, also time six idealised machines — perfect I-cache,\n"
           "perfect D-cache, perfect branch prediction, 1-cycle arithmetic, perfect\n"
           "D-cache + 1-cycle arithmetic, perfect bpred + perfect D-cache — in\n"
           "parallel, and report for each the component the three stacks give, the\n"
           "actual CPI reduction, whether it lies within the stacks' range, the §V-A\n"
           "error, and for the pairs whether the stalls were hidden or overlapped.\n"
           "Only the baseline run's program output is shown.\n"
           "\n"
           "options:\n"
           "  --validate         time the idealised machines too (see above)\n"
           "  --jobs N           machines timed at once with --validate (default: the\n"
           "                     number of processors)\n" CLI_TIMING_OPTIONS_HELP CLI_GUEST_OPTIONS_HELP "\n"
           "Unlike `run`, `stacks` writes the HTML report only when --report is given\n"
           "(--outdir DIR: results.json, results.csv and config.ini only); with --validate\n"
           "it includes the validation table and chart.\n");
}

enum { OPT_VALIDATE = 1300, OPT_JOBS };

/* Each validation run creates its own emulator, in its own process. */
typedef struct guest_source {
    cli_guest_options *g;
    int argc; /* the program and its arguments */
    char **argv;
    emu_t *emu;
} guest_source;

static uop_source *guest_open(void *ctx, cs_error *err) {
    guest_source *s = ctx;
    s->emu = cli_guest_open(s->g, s->argc, s->argv, err);
    return s->emu ? emu_source_create(s->emu) : NULL;
}

/* How the guest ended (run_source.guest_status); a fault is the guest's end, not the run's */
static int guest_status(void *ctx) {
    const guest_source *s = ctx;
    if (emu_state(s->emu) == EMU_EXITED) return emu_exit_code(s->emu);
    if (emu_state(s->emu) == EMU_FAILED && emu_fault_signal(s->emu)) {
        fprintf(stderr, "cyclescope: %s\n", emu_error(s->emu)); /* shown for the baseline, as run shows it */
        return -(128 + emu_fault_signal(s->emu));
    }
    return 0;
}

static bool guest_close(void *ctx, uop_source *src, cs_error *err) {
    guest_source *s = ctx;
    bool ok = emu_state(s->emu) != EMU_FAILED || emu_fault_signal(s->emu);
    if (!ok) cs_error_set(err, "%s", emu_error(s->emu));
    uop_source_destroy(src);
    emu_destroy(s->emu);
    s->emu = NULL;
    return ok;
}

static int validate(const cli_timing_options *t, cli_guest_options *g, int jobs, int argc, char **argv,
                    const char *what) {
    validation_options vo;
    memset(&vo, 0, sizeof vo);
    if (!cli_load_config(t, &vo.cfg)) return EXIT_USAGE;
    guest_source gs = {g, argc, argv, NULL};
    vo.run = (core_run_options){t->warmup, t->max, NULL};
    vo.jobs = jobs;
    vo.show_output = true;
    vo.source = (run_source){&gs, guest_open, guest_close, guest_status};
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "cyclescope: timing the baseline and %d idealised machines, %d at a time…\n", IDEAL_COUNT,
                jobs > 0 ? jobs : (int)sysconf(_SC_NPROCESSORS_ONLN));
    validation_result *v = cs_calloc(1, sizeof *v);
    snprintf(v->program, sizeof v->program, "%s", what);
    core_stats stats;
    cs_error err;
    int rc;
    if (!validation_run(&vo, v, &stats, NULL, &err)) {
        rc = cli_fail("%s", err.msg);
    } else {
        run_summary sum = {what, &vo.cfg, &stats, stats.warmup_uops};
        rc = cli_timing_report(t, &sum, NULL, &v->base, v);
        /* the results are written; the status is a failing program's (the baseline's, run in
         * another process: its own stderr said why) */
        if (rc == 0 && v->guest_status > 0) {
            fprintf(stderr, "cyclescope: %s: the program exited with status %d (the results cover what it ran)\n",
                    argv[0], v->guest_status);
            rc = v->guest_status;
        } else if (rc == 0 && v->guest_status < 0) { /* a fault, said by the baseline's process */
            rc = -v->guest_status;
        }
    }
    free(v);
    return rc;
}

int cmd_stacks(int argc, char **argv) {
    static const struct option longopts[] = {CLI_TIMING_LONG_OPTIONS,
                                             CLI_GUEST_LONG_OPTIONS,
                                             {"validate", no_argument, 0, OPT_VALIDATE},
                                             {"jobs", required_argument, 0, OPT_JOBS},
                                             {0, 0, 0, 0}};
    cli_timing_options t = {0};
    t.no_report = true; /* unlike `run`, an HTML report only when asked for */
    cli_guest_options g;
    cli_guest_defaults(&g);
    bool bad = false, do_validate = false;
    uint64_t jobs = 0;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "+", longopts, "stacks")) != -1) {
        if (opt == OPT_VALIDATE) {
            do_validate = true;
        } else if (opt == OPT_JOBS) {
            if (!cs_parse_count(optarg, &jobs) || jobs == 0 || jobs > 1024)
                return cli_usage("stacks", "--jobs %s: not a count from 1 to 1024", optarg);
        } else if (!cli_timing_option(&t, opt, optarg, "stacks", &bad) &&
                   !cli_guest_option(&g, opt, optarg, "stacks", &bad)) {
            return cli_bad_option("stacks", argv);
        }
        if (bad) return EXIT_USAGE;
    }
    if (optind >= argc) return cli_usage("stacks", "no program given");
    cli_input_kind kind = cli_input_kind_of(argv[optind]);
    if (kind != CLI_INPUT_ELF && kind != CLI_INPUT_OTHER) return cli_program_only("stacks", argv[optind], kind);
    if (do_validate && t.interval) return cli_usage("stacks", "--interval does not apply to --validate");
    if (t.analysis) { /* the stacks verb runs the stacks, whatever else is asked for */
        analysis_list l;
        cs_error err;
        bool has = analysis_list_parse(&l, t.analysis, &err) && analysis_list_has(&l, "stacks");
        analysis_list_free(&l);
        if (!has) return cli_usage("stacks", "--analysis %s: the stacks verb runs the stacks analysis", t.analysis);
        if (do_validate) return cli_usage("stacks", "--analysis does not apply to --validate");
    }
    t.cmd_argc = argc, t.cmd_argv = argv;
    t.input_kind = "program", t.input_argc = argc - optind, t.input_argv = argv + optind;
    int begun = cli_timing_begin(&t);
    if (begun) return begun;
    if (!cli_prepare_guest(&t, &g)) return EXIT_USAGE;
    if (do_validate && !cli_spool_piped_stdin("stacks")) return EXIT_RUN_FAILED; /* every machine reads it */
    /* one emulator now: checks the program (and fills the guest options) before any timing */
    emu_t *e = cli_guest_create(&g, argc - optind, argv + optind);
    if (!e) return EXIT_RUN_FAILED;
    char what[512];
    cli_describe_command(what, sizeof what, argc - optind, argv + optind);
    fflush(stdout);
    int rc;
    if (do_validate) {
        emu_destroy(e);
        return validate(&t, &g, (int)jobs, argc - optind, argv + optind, what);
    }
    t.emu = e;
    uop_source *src = emu_source_create(e);
    rc = cli_timing_run(&t, src, what); /* ends with the guest's status */
    uop_source_destroy(src);
    emu_destroy(e);
    return rc;
}
