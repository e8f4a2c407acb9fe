/* cyclescope sim: time a trace file on a core model — a .cst recorded by
 * `cyclescope trace record`, or a ChampSim trace (raw, .xz, .gz). Same models,
 * stacks and report as `run`; only the µop source differs. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "trace/trace.h"

void help_sim(void) {
    printf("usage: cyclescope sim [options] TRACE\n"
           "\n"
           "Time the µops of a trace file on a core model, exactly as `cyclescope run`\n"
           "times a live program: the same run summary, CPI stacks, FLOPS stack and\n"
           "HTML report. TRACE is a .cst file (`cyclescope trace record`) or a ChampSim\n"
           "trace (64-byte input_instr records, raw, .xz or .gz).\n"
           "\n"
           "options:\n" CLI_TIMING_OPTIONS_HELP CLI_SIMPOINT_OPTIONS_HELP
           "  --format F         auto (default: .cst by its magic number, ChampSim (standard or\n"
           "                     cloudsuite) by plausible instruction addresses, anything\n"
           "                     else refused), cst or champsim\n"
           "  --cloudsuite       ChampSim trace with 96-byte cloudsuite records\n"
           "  --riscv            ChampSim trace written by `trace export-champsim` from a\n"
           "                     RISC-V program: map registers back, one µop per record\n");
}

enum { OPT_FORMAT = 1200, OPT_CLOUDSUITE, OPT_RISCV };
enum trace_format { FORMAT_AUTO, FORMAT_CST, FORMAT_CHAMPSIM };

/* --format auto: the format by the file's content, never by default — an ELF or a text read
 * as ChampSim records would be timed as nonsense (every 64 bytes an "instruction"). Returns 0,
 * or the exit status after one line naming the file. */
static int detect_format(const char *path, enum trace_format *format, champsim_options *copt) {
    switch (cli_input_kind_of(path)) {
    case CLI_INPUT_CST: *format = FORMAT_CST; return 0;
    case CLI_INPUT_CHAMPSIM: *format = FORMAT_CHAMPSIM; return 0;
    case CLI_INPUT_CHAMPSIM_CLOUDSUITE:
        *format = FORMAT_CHAMPSIM;
        copt->cloudsuite = true;
        return 0;
    case CLI_INPUT_ELF:
        return cli_usage("sim", "%s is a program (ELF), and sim times traces: time it with `cyclescope run %s`", path,
                         path);
    case CLI_INPUT_OTHER: break;
    }
    cs_error err = {{0}};
    switch (cli_other_input_of(path, &err)) {
    case CLI_OTHER_FOR_READER: *format = FORMAT_CHAMPSIM; return 0; /* "empty ChampSim trace", … */
    case CLI_OTHER_DAMAGED: return cli_fail("%s", err.msg);         /* "corrupt xz data at offset …" */
    case CLI_OTHER_UNKNOWN: break;
    }
    return cli_fail("%s: not a trace: the format is not recognised (neither a .cst trace nor ChampSim records at "
                    "plausible instruction addresses; --format champsim reads it as ChampSim anyway)",
                    path);
}

/* The trace as a uop_source, and a description for the report title. */
static uop_source *open_trace(const char *path, enum trace_format format, const champsim_options *copt, char *what,
                              size_t size, uint64_t warmup) {
    cs_error err;
    if (format == FORMAT_CST) {
        cst_reader *r = cli_cst_open(path, &err);
        if (!r) {
            cli_fail("%s", err.msg);
            return NULL;
        }
        const cst_info *info = cst_reader_info(r);
        char command[400];
        cli_describe_command(command, sizeof command, info->argc, info->argv);
        snprintf(what, size, "%s (trace of %s)", path, info->argc ? command : "?");
        progress_expect(info->insns > warmup ? info->insns - warmup : 1); /* the bar's total (--max: its own) */
        return cst_reader_source(r);
    }
    uop_source *src = cli_champsim_open(path, copt, &err);
    if (!src) {
        cli_fail("%s", err.msg);
        return NULL;
    }
    snprintf(what, size, "%s (ChampSim trace)", path);
    return src;
}

int cmd_sim(int argc, char **argv) {
    static const struct option longopts[] = {CLI_TIMING_LONG_OPTIONS,
                                             CLI_SIMPOINT_LONG_OPTIONS,
                                             {"format", required_argument, 0, OPT_FORMAT},
                                             {"cloudsuite", no_argument, 0, OPT_CLOUDSUITE},
                                             {"riscv", no_argument, 0, OPT_RISCV},
                                             {0, 0, 0, 0}};
    cli_timing_options t = {0};
    cli_simpoint_options sp = {0};
    champsim_options copt = {0};
    enum trace_format format = FORMAT_AUTO;
    bool bad = false;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "+", longopts, "sim")) != -1) {
        if (cli_timing_option(&t, opt, optarg, "sim", &bad) || cli_simpoint_option(&sp, opt, optarg, "sim", &bad)) {
            if (bad) return EXIT_USAGE;
        } else if (opt == OPT_FORMAT) {
            if (!strcmp(optarg, "auto")) format = FORMAT_AUTO;
            else if (!strcmp(optarg, "cst")) format = FORMAT_CST;
            else if (!strcmp(optarg, "champsim")) format = FORMAT_CHAMPSIM;
            else return cli_usage("sim", "--format %s: not one of auto, cst, champsim", optarg);
        } else if (opt == OPT_CLOUDSUITE) {
            copt.cloudsuite = true;
        } else if (opt == OPT_RISCV) {
            copt.riscv = true;
        } else {
            return cli_bad_option("sim", argv);
        }
    }
    if (optind >= argc) return cli_usage("sim", "no trace file given");
    /* an option after the trace is not read as one ("+": a trace takes no arguments) */
    if (argc - optind > 1 && argv[optind + 1][0] == '-')
        return cli_usage("sim", "%s after the trace: options go before it", argv[optind + 1]);
    if (optind != argc - 1) return cli_usage("sim", "give exactly one trace file (got %d)", argc - optind);
    const char *path = argv[optind];
    if ((copt.cloudsuite || copt.riscv) && format == FORMAT_CST)
        return cli_usage("sim", "--cloudsuite and --riscv apply to ChampSim traces, not --format cst");
    if ((copt.cloudsuite || copt.riscv) && format == FORMAT_AUTO) format = FORMAT_CHAMPSIM;
    if (format == FORMAT_AUTO) {
        int rc = detect_format(path, &format, &copt);
        if (rc) return rc;
    }
    if (!cli_simpoint_check(&sp, &t, "sim")) return EXIT_USAGE;
    t.default_outdir = true;
    t.cmd_argc = argc, t.cmd_argv = argv;
    t.input_kind = "trace", t.input_argc = 1, t.input_argv = argv + optind;
    int begun = cli_timing_begin(&t);
    if (begun) return begun;
    if (sp.dir) {
        if (access(path, R_OK) != 0) return cli_fail("%s: cannot open: %s", path, strerror(errno));
        if (format == FORMAT_CHAMPSIM || !cst_probe(path))
            return cli_usage("sim", "--simpoints needs a .cst trace (`cyclescope simpoint` profiles those)");
        return cli_simpoint_run(&t, &sp, NULL, path, 1, argv + optind, path);
    }
    char what[512];
    uop_source *src = open_trace(path, format, &copt, what, sizeof what, t.warmup);
    if (!src) return EXIT_RUN_FAILED;
    int rc = cli_timing_run(&t, src, what);
    uop_source_destroy(src);
    return rc;
}
