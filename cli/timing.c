/* What `run`, `stacks` and `sim` share: configuration, warm-up and limits, the
 * analyses, the timing run itself (through the runner), and its reports
 * (terminal, JSON, HTML). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report/report.h"
#include "runner/runner.h"

bool cli_timing_option(cli_timing_options *t, int opt, const char *arg, const char *verb, bool *bad) {
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
        }
        return true;
    case OPT_JSON: t->json_path = arg; return true;
    case OPT_PIPEVIEW: t->pipeview_path = arg; return true;
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

bool cli_load_config(const cli_timing_options *t, uarch_config *cfg) {
    cs_error err;
    uarch_config_default(cfg);
    if (!uarch_config_load(cfg, t->config ? t->config : "rpstacks", &err)) {
        cli_fail("%s", err.msg);
        return false;
    }
    for (int i = 0; i < t->set_count; i++) {
        if (!uarch_config_set(cfg, t->sets[i], &err)) {
            cli_fail("%s", err.msg);
            return false;
        }
    }
    if (!uarch_config_validate(cfg, &err)) {
        cli_fail("configuration %s: %s", cfg->name, err.msg);
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

static int write_reports(const cli_timing_options *t, const run_summary *sum, const run_result *run,
                         const stacks_result *stacks, const validation_result *val) {
    cs_error err;
    int rc = 0;
    if (t->json_path) {
        cJSON *j = report_run_json(sum);
        if (run) runner_json(run, j);
        if (stacks) cJSON_AddItemToObject(j, "stacks", report_stacks_json(stacks));
        if (val) cJSON_AddItemToObject(j, "validation", report_validation_json(val));
        if (!report_write_json(t->json_path, j, &err)) rc = cli_fail("%s", err.msg);
        cJSON_Delete(j);
    }
    if (!t->no_report) {
        const char *path = t->report_path ? t->report_path : CLI_DEFAULT_REPORT;
        char title[600];
        snprintf(title, sizeof title, "cyclescope: %s on %s", sum->program, sum->cfg->name);
        html_report *h = html_report_begin(title);
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
    return rc;
}

int cli_timing_report(const cli_timing_options *t, const run_summary *sum, const run_result *run,
                      const stacks_result *stacks, const validation_result *val) {
    report_run_text(sum, stdout);
    if (run) runner_text(run, stdout);
    if (stacks) report_stacks_text(stacks, stdout);
    if (val) report_validation_text(val, stdout);
    fflush(stdout);
    return write_reports(t, sum, run, stacks, val);
}

int cli_timing_run(const cli_timing_options *t, uop_source *src, const char *what) {
    uarch_config cfg;
    if (!cli_load_config(t, &cfg)) return EXIT_RUN_FAILED;
    cs_error err;
    analysis_list list;
    if (!analysis_list_parse(&list, t->analysis ? t->analysis : "stacks", &err)) return cli_fail("%s", err.msg);
    if (t->pipeview_path && !analysis_list_add(&list, "pipeview", "file", t->pipeview_path, &err)) {
        analysis_list_free(&list);
        return cli_fail("%s", err.msg);
    }
    run_spec spec = {&cfg, {t->warmup, t->max, "simulating"}, &list, what};
    run_result run;
    int rc = 0;
    if (!runner_run(&spec, src, &run, &err)) {
        rc = cli_fail("%s", err.msg);
    } else {
        if (!run.ok) {
            rc = cli_fail("%s", run.err.msg);
        } else {
            run_summary sum = {what, &cfg, &run.stats, t->warmup};
            rc = cli_timing_report(t, &sum, &run, NULL, NULL);
        }
        run_result_free(&run);
    }
    analysis_list_free(&list);
    return rc;
}
