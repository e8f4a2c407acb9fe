/* cyclescope run: the main job. Time a RISC-V program on a core model, fed live
 * by the emulator; print the run summary and the CPI stacks at dispatch, issue
 * and commit, and write the HTML report. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

void help_run(void) {
    printf("usage: cyclescope run [options] PROG [ARGS…]\n"
           "\n"
           "Run the RISC-V executable PROG (static or dynamically linked) in the\n"
           "emulator and time every instruction on a core model. After the\n"
           "program's own output, prints the run summary (cycles, IPC/CPI, branch\n"
           "and cache statistics, occupancies),\n"
           "the CPI stacks measured at dispatch, issue and commit side by side, and\n"
           "the FLOPS stack; writes all of it, with the CPI, IPC and FLOPS stacks drawn,\n"
           "into a new output directory (" CLI_OUTDIR_ROOT "/PROG-CONFIG-TIME/: report.html,\n"
           "results.json, results.csv, config.ini) unless told otherwise.\n"
           "`cyclescope stacks --validate` checks the stacks against idealised machines.\n"
           "\n"
           "options:\n" CLI_TIMING_OPTIONS_HELP CLI_SIMPOINT_OPTIONS_HELP CLI_GUEST_OPTIONS_HELP);
}

int cmd_run(int argc, char **argv) {
    static const struct option longopts[] = {
        CLI_TIMING_LONG_OPTIONS, CLI_SIMPOINT_LONG_OPTIONS, CLI_GUEST_LONG_OPTIONS, {0, 0, 0, 0}};
    cli_timing_options t = {0};
    cli_simpoint_options sp = {0};
    cli_guest_options g;
    cli_guest_defaults(&g);
    bool bad = false;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "+", longopts, "run")) != -1) {
        if (!cli_timing_option(&t, opt, optarg, "run", &bad) && !cli_simpoint_option(&sp, opt, optarg, "run", &bad) &&
            !cli_guest_option(&g, opt, optarg, "run", &bad))
            return cli_bad_option("run", argv);
        if (bad) return EXIT_USAGE;
    }
    if (optind >= argc) return cli_usage("run", "no program given");
    cli_input_kind kind = cli_input_kind_of(argv[optind]);
    if (kind != CLI_INPUT_ELF && kind != CLI_INPUT_OTHER) return cli_program_only("run", argv[optind], kind);
    if (!cli_simpoint_check(&sp, &t, "run")) return EXIT_USAGE;
    t.default_outdir = true;
    t.cmd_argc = argc, t.cmd_argv = argv;
    t.input_kind = "program", t.input_argc = argc - optind, t.input_argv = argv + optind;
    int begun = cli_timing_begin(&t);
    if (begun) return begun;
    if (!cli_prepare_guest(&t, &g)) return EXIT_USAGE;
    if (sp.dir && !cli_spool_piped_stdin("run")) return EXIT_RUN_FAILED; /* the points' copies read it */
    emu_t *e = cli_guest_create(&g, argc - optind, argv + optind);
    if (!e) return EXIT_RUN_FAILED;
    t.emu = e;
    char what[512];
    cli_describe_command(what, sizeof what, argc - optind, argv + optind);
    if (sp.dir) {
        int rc = cli_simpoint_run(&t, &sp, e, NULL, argc - optind, argv + optind, what);
        emu_destroy(e);
        return rc;
    }
    uop_source *src = emu_source_create(e);
    fflush(stdout);
    int rc = cli_timing_run(&t, src, what); /* ends with the guest's status */
    uop_source_destroy(src);
    emu_destroy(e);
    return rc;
}
