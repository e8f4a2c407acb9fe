/* What `run` and `sim` share: configuration, warm-up and limits, the timing
 * run itself, and its report. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "report/report.h"

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

int cli_timing_run(const cli_timing_options *t, uop_source *src, const char *what) {
    uarch_config cfg;
    if (!cli_load_config(t, &cfg)) return EXIT_RUN_FAILED;
    cs_error err;
    core_t *core = core_create(&cfg, &err);
    if (!core) return cli_fail("%s", err.msg);
    pipeview *pv = NULL;
    if (t->pipeview_path) {
        pv = pipeview_open(t->pipeview_path, &err);
        if (!pv) {
            core_destroy(core);
            return cli_fail("%s", err.msg);
        }
        probe_observer obs = pipeview_observer(pv);
        core_observe(core, &obs);
    }
    core_stats stats;
    core_run_options opt = {t->warmup, t->max, "simulating"};
    bool ok = core_run(core, src, &opt, &stats, &err);
    int rc = 0;
    if (!ok) rc = cli_fail("%s", err.msg);
    if (!pipeview_close(pv, &err) && rc == 0) rc = cli_fail("%s", err.msg);
    if (rc == 0) {
        run_summary sum = {what, &cfg, &stats, t->warmup};
        report_run_text(&sum, stdout);
        if (t->json_path) {
            cJSON *j = report_run_json(&sum);
            if (!report_write_json(t->json_path, j, &err)) rc = cli_fail("%s", err.msg);
            cJSON_Delete(j);
        }
    }
    core_destroy(core);
    return rc;
}
