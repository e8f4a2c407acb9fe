/* cyclescope whatif: the CPI of latency changes predicted from an .rps file by
 * RpStacks, CP1 and FMT; a grid of design points; --verify K re-simulates K
 * of them through the runner's process pool and prints the errors. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rpstacks/rpstacks.h"
#include "runner/runner.h"
#include "whatif.h"

void help_whatif(void) {
    printf("usage: cyclescope whatif FILE.rps [--set KEY=N …] [--grid SPEC] [options]\n"
           "\n"
           "Predict the CPI of latency changes from the representative stacks in\n"
           "FILE.rps (`cyclescope rpstacks`), with RpStacks (the max over each\n"
           "segment's stacks, every event's penalty scaled by new/base latency), CP1\n"
           "(the baseline's single critical path, scaled) and FMT (the commit-stall\n"
           "table, scaled). KEY is a latency the stacks carry: l1i.latency,\n"
           "l1d.latency, l2.latency, memory.latency, latency.<class> (fp-add, fp-mul,\n"
           "fp-fma, fp-div, fp-sqrt, int-mul, int-div, load, …). A structure (ROB\n"
           "size, widths, predictor) changes the graph itself and needs its own\n"
           "`cyclescope rpstacks` run.\n"
           "\n"
           "options:\n"
           "  --set KEY=N        one latency (repeatable); with --grid, fixed for every point\n"
           "  --grid SPEC        design points: 'KEY=A..B KEY=X,Y,Z …' (every combination;\n"
           "                     A..B is every integer from A to B)\n"
           "  --verify K         re-simulate K points spread across the grid (or the one\n"
           "                     point) through the process pool and print the errors;\n"
           "                     a program reads this stdin, which must hold what\n"
           "                     rpstacks' run read of a file stdin (< FILE)\n"
           "  --jobs N           simulations at once with --verify (default: the processors)\n"
           "  --csv FILE         the grid as CSV (- for stdout)\n"
           "  --json FILE        the grid (and verification) as JSON (- for stdout: then the\n"
           "                     tables go to stderr, and stdout holds the JSON alone)\n"
           "  --report FILE      an HTML report: the largest representative stacks as\n"
           "                     stacked bars, prediction curves, a heatmap\n"
           "  --quiet            no table on the terminal (with --csv/--json/--report)\n");
}

enum { OPT_WSET = 1500, OPT_GRID, OPT_VERIFY, OPT_WJOBS, OPT_WCSV, OPT_WJSON, OPT_WREPORT, OPT_QUIET };

int cmd_whatif(int argc, char **argv) {
    static const struct option longopts[] = {{"set", required_argument, 0, OPT_WSET},
                                             {"grid", required_argument, 0, OPT_GRID},
                                             {"verify", required_argument, 0, OPT_VERIFY},
                                             {"jobs", required_argument, 0, OPT_WJOBS},
                                             {"csv", required_argument, 0, OPT_WCSV},
                                             {"json", required_argument, 0, OPT_WJSON},
                                             {"report", required_argument, 0, OPT_WREPORT},
                                             {"quiet", no_argument, 0, OPT_QUIET},
                                             {0, 0, 0, 0}};
    whatif_options w;
    memset(&w, 0, sizeof w);
    w.data_fd = -1;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "", longopts, "whatif")) != -1) {
        uint64_t n;
        switch (opt) {
        case OPT_WSET:
            if (w.set_count == WHATIF_MAX_SETS) return cli_usage("whatif", "too many --set options");
            w.sets[w.set_count++] = optarg;
            break;
        case OPT_GRID: w.grid = optarg; break;
        case OPT_VERIFY:
            if (!cs_parse_count(optarg, &n) || n == 0 || n > 100000)
                return cli_usage("whatif", "--verify %s: expected a count from 1 to 100000", optarg);
            w.verify = (int)n;
            break;
        case OPT_WJOBS:
            if (!cs_parse_count(optarg, &n) || n == 0 || n > 1024)
                return cli_usage("whatif", "--jobs %s: not a count from 1 to 1024", optarg);
            w.jobs = (int)n;
            break;
        case OPT_WCSV: w.csv = optarg; break;
        case OPT_WJSON: w.json = optarg; break;
        case OPT_WREPORT: w.report = optarg; break;
        case OPT_QUIET: w.quiet = true; break;
        default: return cli_bad_option("whatif", argv);
        }
    }
    if (optind >= argc) return cli_usage("whatif", "no .rps file given");
    if (optind != argc - 1) return cli_usage("whatif", "give exactly one .rps file (got %d)", argc - optind);
    const char *outputs[] = {w.json, w.csv, w.report};
    if (!cli_outputs_writable(outputs, 3)) return EXIT_USAGE;
    bool json_out = w.json && !strcmp(w.json, "-"), csv_out = w.csv && !strcmp(w.csv, "-");
    if (json_out && csv_out) return cli_usage("whatif", "--json - and --csv -: stdout can hold only one of them");
    if ((json_out || csv_out) && (w.data_fd = cli_stdout_for_data()) < 0) return EXIT_RUN_FAILED;
    cs_error err;
    rps_result r;
    if (!rps_read(argv[optind], &r, &err)) return cli_fail("%s", err.msg);
    /* before anything runs: every job reads the caller's stdin (a pipe kept in a file first),
     * which must hold what the analysed program read, or the jobs time another stream */
    if (w.verify && !r.origin.is_trace) {
        int refused = 0;
        if (!cli_spool_piped_stdin("whatif")) refused = EXIT_RUN_FAILED;
        else if (r.origin.stdin_known &&
                 !cli_stdin_check("whatif: --verify", r.origin.stdin_bytes, r.origin.stdin_sha256))
            refused = EXIT_USAGE;
        if (refused) {
            rps_result_free(&r);
            return refused;
        }
    }
    w.path = argv[optind];
    int rc = whatif_run(&r, &w);
    rps_result_free(&r);
    return rc;
}
