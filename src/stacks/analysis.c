/* The stacks as an analysis of the runner ("stacks[:interval=N]"): the
 * observer, and the renderings of its result (report/). With interval=N it
 * also records every N instructions' statistics and CPI stacks (--interval N). */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "runner/runner.h"
#include "stacks.h"

static void *stacks_create(const analysis_options *opt, cs_error *err) {
    uint64_t every = 0;
    for (int i = 0; i < opt->count; i++) {
        if (strcmp(opt->key[i], "interval") != 0) {
            cs_error_set(err, "unknown option '%s' (stacks takes interval=N)", opt->key[i]);
            return NULL;
        }
        if (!cs_parse_count(opt->value[i], &every) || every == 0) {
            cs_error_set(err, "interval=%s: not a positive number of instructions", opt->value[i]);
            return NULL;
        }
    }
    stacks_observer *s = stacks_observer_create();
    stacks_observer_set_interval(s, every);
    return s;
}

static probe_observer stacks_probe(void *self) { return stacks_observer_probe(self); }
static void stacks_text(void *self, FILE *out) {
    report_stacks_text(stacks_observer_result(self), out);
    const stacks_intervals *iv = stacks_observer_intervals(self);
    if (iv->count) report_intervals_text(iv, out);
}
static cJSON *stacks_json(void *self) {
    cJSON *j = report_stacks_json(stacks_observer_result(self));
    const stacks_intervals *iv = stacks_observer_intervals(self);
    if (iv->every) cJSON_AddItemToObject(j, "intervals", report_intervals_json(iv));
    return j;
}
static void stacks_html(void *self, struct html_report *h) {
    html_report_stacks(h, stacks_observer_result(self));
    const stacks_intervals *iv = stacks_observer_intervals(self);
    if (iv->count) html_report_intervals(h, iv);
}
static const void *stacks_result_bytes(void *self) { return stacks_observer_result(self); }
static void stacks_destroy(void *self) { stacks_observer_destroy(self); }

const analysis_ops stacks_analysis = {
    .name = "stacks",
    .help = "CPI stacks at dispatch, issue and commit, IPC and FLOPS stacks; interval=N: also every N "
            "instructions' IPC, MPKIs and CPI stacks (docs/stacks.md)",
    .create = stacks_create,
    .observer = stacks_probe,
    .text = stacks_text,
    .json = stacks_json,
    .html = stacks_html,
    .result_size = sizeof(stacks_result),
    .result = stacks_result_bytes,
    .destroy = stacks_destroy,
};
