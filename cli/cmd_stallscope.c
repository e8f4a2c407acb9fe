/* cyclescope stallscope: Robinson's Stallscope on a program or a trace — the
 * causal chain of stall events behind every lost completion opportunity
 * (docs/stallscope.md); with --compare, two configurations side by side. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "report/report.h"
#include "runner/runner.h"
#include "stallscope/stallscope.h"
#include "trace/trace.h"

void help_stallscope(void) {
    printf("usage: cyclescope stallscope [--depth N] [--threshold P] [--interval N]\n"
           "                             [--tooclose paper|window] [--completion commit|issue]\n"
           "                             [--compare A B] [options]\n"
           "                             PROG [ARGS…] | TRACE\n"
           "\n"
           "Time PROG (a RISC-V executable) or TRACE (.cst or ChampSim) and trace\n"
           "every lost completion opportunity (commit width x cycles - µops committed)\n"
           "through its chain of stall events — pipeline, operand dependences, flushes —\n"
           "to the leaf stall that caused it (Robinson, Stallscope). Prints the top-level\n"
           "hierarchy, the leaf, twig and node summaries and the hot spots; --json and\n"
           "--report FILE.html write the same (the HTML as a collapsible tree, an icicle\n"
           "chart and the hot-spot table).\n"
           "\n"
           "options:\n"
           "  --depth N          levels of the hierarchy and twig summary shown (default 4)\n"
           "  --threshold P      hide tree nodes below P%% of the opportunities (default 0.5)\n"
           "  --interval N       partial summaries every N committed µops (§7.4)\n"
           "  --tooclose R       a head's \"too close\" operand wait (§3.5): paper (default,\n"
           "                     the paper's rule: a leaf of its own) or window (taken by\n"
           "                     §3.7 2b when empty stalls lie ahead of the head: an\n"
           "                     extension, docs/stallscope.md)\n"
           "  --completion W     where completion is measured: commit (the paper's; the\n"
           "                     default out of order) or issue (in-order machines only,\n"
           "                     their default: retirement there is virtual, docs/stallscope.md)\n"
           "  --compare A B      run configurations A and B (names or .ini files) and show\n"
           "                     their leaf and node summaries side by side with the deltas\n"
           "                     (text; --json FILE|- and --report FILE.html write the same)\n"
           /* --interval is Stallscope's own here, and the verb is the analysis: no --analysis */
           CLI_TIMING_OPTIONS_HELP_BASE CLI_TIMING_OPTIONS_HELP_OUTPUTS CLI_TIMING_OPTIONS_HELP_STATUS
               CLI_GUEST_OPTIONS_HELP "\n"
           "Unlike `run`, `stallscope` writes the HTML report only when --report is given\n"
           "(--outdir DIR: results.json, results.csv and config.ini only).\n"
           "The same analysis runs from `run` and `sim` with --analysis stallscope[:depth=N…].\n");
}

enum { OPT_DEPTH = 1400, OPT_THRESHOLD, OPT_INTERVAL, OPT_COMPARE, OPT_TOOCLOSE, OPT_COMPLETION };

typedef struct input {
    bool elf;
    bool cloudsuite; /* a ChampSim trace of 96-byte cloudsuite records */
    cli_guest_options *g;
    int argc;
    char **argv;
    emu_t *emu;
} input;

/* An input that is neither an ELF nor a recognised trace: true when the readers will say
 * what is wrong with it (missing, empty, not a regular file, corrupt xz or gzip data),
 * false after one line saying it is no format stallscope reads (cli_other_input_of, as `sim`). */
static bool recognised_elsewhere(const char *path) {
    cs_error err = {{0}};
    if (cli_other_input_of(path, &err) != CLI_OTHER_UNKNOWN) return true; /* the reader names the damage */
    cli_fail("%s: neither a RISC-V program (ELF) nor a trace (.cst, or ChampSim records at plausible instruction "
             "addresses; `cyclescope sim --format champsim` reads it as ChampSim anyway)",
             path);
    return false;
}

static uop_source *input_open(input *in, char *what, size_t size) {
    cs_error err;
    if (in->elf) {
        in->emu = cli_guest_create(in->g, in->argc, in->argv);
        if (!in->emu) return NULL;
        cli_describe_command(what, size, in->argc, in->argv);
        return emu_source_create(in->emu);
    }
    const char *path = in->argv[0];
    uop_source *src;
    if (cst_probe(path)) {
        cst_reader *r = cli_cst_open(path, &err);
        src = r ? cst_reader_source(r) : NULL;
    } else {
        champsim_options copt = {.cloudsuite = in->cloudsuite};
        src = cli_champsim_open(path, &copt, &err);
    }
    if (!src) cli_fail("%s", err.msg);
    snprintf(what, size, "%s", path);
    return src;
}

static int input_close(input *in, uop_source *src, int rc) {
    uop_source_destroy(src);
    if (in->emu) {
        /* a fault with a signal is the guest's end, reported by the caller (128 + signal) */
        if (rc == 0 && emu_state(in->emu) == EMU_FAILED && !emu_fault_signal(in->emu))
            rc = cli_fail("%s", emu_error(in->emu));
        emu_destroy(in->emu);
        in->emu = NULL;
    }
    return rc;
}

/* docs/stallscope-compare.schema.json: incremented when a field changes meaning or goes */
enum { SS_COMPARE_SCHEMA_VERSION = 1 };

/* How the program ended in the first of --compare's runs (the emulator is gone when the
 * outputs are written): the header's "guest", as a single run's (docs/json-schema.md). */
typedef struct compare_guest {
    bool has;
    const char *state;
    int exit_code;
    char error[600];
} compare_guest;

static void compare_guest_of(compare_guest *g, const emu_t *e) {
    report_provenance p;
    memset(&p, 0, sizeof p);
    cli_guest_status(e, &p);
    g->has = p.has_guest;
    g->state = p.guest_state;
    g->exit_code = p.guest_exit_code;
    snprintf(g->error, sizeof g->error, "%s", p.guest_error ? p.guest_error : ""); /* e goes before the outputs */
}

/* --compare's JSON (--json) and HTML (--report): the header names the input, the limits and
 * how the program ended; each side's configuration is in "runs" (the header's is null: there
 * are two). */
static int compare_outputs(const cli_timing_options *t, int data_fd, const uarch_config cfgs[2],
                           const run_result res[2], stallscope *sa, const char *a, stallscope *sb, const char *b,
                           const compare_guest *guest) {
    report_provenance prov;
    bool program = !strcmp(t->input_kind, "program");
    cli_provenance(&prov, t->input_kind, t->input_argv[0], program ? t->input_argc - 1 : 0,
                   program ? t->input_argv + 1 : NULL);
    prov.has_guest = guest->has;
    prov.guest_state = guest->state;
    prov.guest_exit_code = guest->exit_code;
    prov.guest_error = guest->error[0] ? guest->error : NULL;
    prov.warmup_instructions = t->warmup;
    prov.max_instructions = t->max;
    prov.override_count = t->set_count;
    prov.overrides = t->sets;
    cs_error err;
    int rc = 0;
    if (t->json_path) {
        cJSON *root = cJSON_CreateObject();
        report_header_json(root, "cyclescope-stallscope-compare", SS_COMPARE_SCHEMA_VERSION, NULL, &prov);
        ss_compare_json(sa, a, sb, b, root);
        /* each side: its configuration as a header names one (resolved, SHA-256), and the run's totals */
        cJSON *runs = cJSON_GetObjectItem(root, "runs");
        for (int k = 0; k < 2; k++) {
            cJSON *run = cJSON_GetArrayItem(runs, k), *side = cJSON_CreateObject();
            report_provenance pk = prov;
            pk.config_source = k ? b : a;
            report_header_json(side, "cyclescope-stallscope-compare", SS_COMPARE_SCHEMA_VERSION, &cfgs[k], &pk);
            cJSON *c = cJSON_DetachItemFromObject(cJSON_GetObjectItem(side, "provenance"), "config");
            cJSON_AddItemToObject(run, "configuration", c);
            cJSON_Delete(side);
            const core_stats *st = &res[k].stats;
            cJSON_AddNumberToObject(run, "run_cycles", (double)st->cycles);
            cJSON_AddNumberToObject(run, "instructions", (double)st->instructions);
            cJSON_AddNumberToObject(run, "ipc", st->cycles ? (double)st->instructions / (double)st->cycles : 0);
        }
        if (!cli_write_json(t->json_path, data_fd, root, &err)) rc = cli_fail("%s", err.msg);
        cJSON_Delete(root);
    }
    if (t->report_path) {
        char title[600];
        snprintf(title, sizeof title, "cyclescope stallscope --compare %s %s", a, b);
        html_report *h = html_report_begin(title);
        html_report_provenance(h, &prov);
        ss_compare_html(sa, a, sb, b, h);
        if (!html_report_write(h, t->report_path, &err)) rc = cli_fail("%s", err.msg);
        html_report_free(h);
    }
    return rc;
}

static int compare(cli_timing_options *t, input *in, const char *list_text, const char *a, const char *b) {
    const char *names[2] = {a, b};
    run_result res[2];
    int have = 0, rc = 0;
    analysis_list list;
    cs_error err;
    uarch_config cfgs[2];
    for (int k = 0; k < 2; k++) { /* both configurations before either runs: a bad one is bad usage */
        cli_timing_options tk = *t;
        tk.config = names[k];
        if (!cli_load_config(&tk, &cfgs[k])) return EXIT_USAGE;
    }
    if (!analysis_list_parse(&list, list_text, &err)) return cli_fail("%s", err.msg);
    /* --json -: stdout holds the JSON alone, the text goes to stderr */
    int data_fd = t->json_path && !strcmp(t->json_path, "-") ? cli_stdout_for_data() : -1;
    if (t->json_path && !strcmp(t->json_path, "-") && data_fd < 0) {
        analysis_list_free(&list);
        return EXIT_RUN_FAILED;
    }
    /* how the program ended (the same program twice): the exit status once the outputs are
     * written, as a single run gives it (docs/json-schema.md) */
    int guest_rc = 0;
    char guest_line[600] = "";
    compare_guest guest = {0};
    for (int k = 0; k < 2 && rc == 0; k++) {
        const uarch_config cfg = cfgs[k];
        char what[512];
        uop_source *src = input_open(in, what, sizeof what);
        if (!src) {
            rc = EXIT_RUN_FAILED;
            break;
        }
        run_spec spec = {&cfg, {t->warmup, t->max, names[k]}, &list, what};
        run_config_origin origin = {names[k], t->set_count, t->sets};
        if (!runner_run_origin(&spec, &origin, src, &res[k], &err)) {
            rc = cli_fail("%s: %s", names[k], err.msg);
        } else {
            have++;
            if (!res[k].ok) rc = cli_run_failed(in->emu, "%s: %s", names[k], res[k].err.msg);
        }
        /* (a failure that is not the guest's, fault signal 0, fails the run in input_close) */
        if (rc == 0 && in->emu && !guest_rc) guest_rc = cli_guest_end(in->emu, guest_line, sizeof guest_line);
        if (k == 0) compare_guest_of(&guest, in->emu);
        rc = input_close(in, src, rc);
    }
    if (rc == 0) {
        stallscope *sa = ss_analysis_engine(run_result_analysis(&res[0], "stallscope"));
        stallscope *sb = ss_analysis_engine(run_result_analysis(&res[1], "stallscope"));
        printf("\nA = %s: %llu cycles, IPC %.3f;  B = %s: %llu cycles, IPC %.3f\n", a,
               (unsigned long long)res[0].stats.cycles,
               res[0].stats.cycles ? (double)res[0].stats.instructions / (double)res[0].stats.cycles : 0, b,
               (unsigned long long)res[1].stats.cycles,
               res[1].stats.cycles ? (double)res[1].stats.instructions / (double)res[1].stats.cycles : 0);
        ss_compare_text(sa, a, sb, b, stdout);
        fflush(stdout);
        rc = compare_outputs(t, data_fd, cfgs, res, sa, a, sb, b, &guest);
        if (rc == 0 && guest_rc) {
            cli_fail("%s", guest_line);
            rc = guest_rc;
        }
    }
    if (data_fd >= 0) close(data_fd);
    for (int k = 0; k < have; k++) run_result_free(&res[k]);
    analysis_list_free(&list);
    return rc;
}

int cmd_stallscope(int argc, char **argv) {
    static const struct option longopts[] = {CLI_TIMING_LONG_OPTIONS,
                                             CLI_GUEST_LONG_OPTIONS,
                                             {"depth", required_argument, 0, OPT_DEPTH},
                                             {"threshold", required_argument, 0, OPT_THRESHOLD},
                                             {"interval", required_argument, 0, OPT_INTERVAL},
                                             {"compare", required_argument, 0, OPT_COMPARE},
                                             {"tooclose", required_argument, 0, OPT_TOOCLOSE},
                                             {"completion", required_argument, 0, OPT_COMPLETION},
                                             {0, 0, 0, 0}};
    cli_timing_options t = {0};
    t.no_report = true; /* an HTML report only when asked for */
    cli_guest_options g;
    cli_guest_defaults(&g);
    ss_options so;
    ss_options_default(&so);
    const char *cmp_a = NULL, *cmp_b = NULL;
    char list_text[256] = "stallscope";
    bool bad = false;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "+", longopts, "stallscope")) != -1) {
        /* --interval is also a timing option (the stacks' intervals): here it is Stallscope's */
        if (opt == OPT_DEPTH || opt == OPT_THRESHOLD || opt == OPT_INTERVAL || opt == OPT_TIME_INTERVAL ||
            opt == OPT_TOOCLOSE || opt == OPT_COMPLETION) {
            const char *key = opt == OPT_DEPTH ? "depth"
                : opt == OPT_THRESHOLD         ? "threshold"
                : opt == OPT_TOOCLOSE          ? "tooclose"
                : opt == OPT_COMPLETION        ? "completion"
                                               : "interval";
            cs_error err;
            if (!ss_option_set(&so, key, optarg, &err)) return cli_usage("stallscope", "--%s", err.msg);
            size_t l = strlen(list_text);
            snprintf(list_text + l, sizeof list_text - l, ":%s=%s", key, optarg);
        } else if (opt == OPT_COMPARE) {
            if (optind >= argc || argv[optind][0] == '-') /* B is the next word: not an option (--max took it) */
                return cli_usage("stallscope", "--compare needs two configurations, A and B (got %s after %s)",
                                 optind < argc ? argv[optind] : "nothing", optarg);
            cmp_a = optarg;
            cmp_b = argv[optind++];
        } else if (!cli_timing_option(&t, opt, optarg, "stallscope", &bad) &&
                   !cli_guest_option(&g, opt, optarg, "stallscope", &bad)) {
            return cli_bad_option("stallscope", argv);
        }
        if (bad) return EXIT_USAGE;
    }
    if (optind >= argc) return cli_usage("stallscope", "no program or trace given");
    if (t.analysis) return cli_usage("stallscope", "--analysis does not apply (the verb runs stallscope)");
    if (cmp_a && t.config) return cli_usage("stallscope", "--compare takes its configurations from A and B");
    if (cmp_a && (t.csv_path || t.outdir || t.pipeview_path))
        return cli_usage("stallscope",
                         "--compare writes text, --json and --report only (no --csv, --outdir, --pipeview)");
    const char *cmp_outputs[] = {t.json_path, t.report_path};
    if (cmp_a && !cli_outputs_writable(cmp_outputs, 2)) return EXIT_USAGE; /* before either run */
    cli_input_kind kind = cli_input_kind_of(argv[optind]);
    if (kind == CLI_INPUT_OTHER && !recognised_elsewhere(argv[optind])) return EXIT_RUN_FAILED;
    input in = {kind == CLI_INPUT_ELF, kind == CLI_INPUT_CHAMPSIM_CLOUDSUITE, &g, argc - optind, argv + optind, NULL};
    if (!in.elf && in.argc != 1) {
        /* PROG ARGS with no program at PROG (missing, a directory, empty): the loader's error, as run's */
        if (kind == CLI_INPUT_OTHER) {
            emu_t *e = cli_guest_create(&g, in.argc, in.argv);
            if (!e) return EXIT_RUN_FAILED;
            emu_destroy(e);
        }
        return cli_usage("stallscope", "a trace takes no arguments (%s)", argv[optind]);
    }
    t.analysis = list_text;
    t.cmd_argc = argc, t.cmd_argv = argv;
    t.input_kind = in.elf ? "program" : "trace", t.input_argc = argc - optind, t.input_argv = argv + optind;
    if (!cmp_a) {
        int begun = cli_timing_begin(&t);
        if (begun) return begun;
    }
    if (in.elf && !cli_prepare_guest(&t, &g)) return EXIT_USAGE;
    fflush(stdout);
    if (cmp_a) return compare(&t, &in, list_text, cmp_a, cmp_b);
    char what[512];
    uop_source *src = input_open(&in, what, sizeof what);
    if (!src) return EXIT_RUN_FAILED;
    t.emu = in.emu;
    int rc = cli_timing_run(&t, src, what);
    return input_close(&in, src, rc);
}
