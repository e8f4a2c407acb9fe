/* The stacks as an analysis of the runner ("stacks", no options): the
 * observer, and the renderings of its result (report/). */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "runner/runner.h"
#include "stacks.h"

static void *stacks_create(const analysis_options *opt, cs_error *err) {
    if (opt->count) {
        cs_error_set(err, "unknown option '%s' (stacks takes none)", opt->key[0]);
        return NULL;
    }
    return stacks_observer_create();
}

static probe_observer stacks_probe(void *self) { return stacks_observer_probe(self); }
static void stacks_text(void *self, FILE *out) { report_stacks_text(stacks_observer_result(self), out); }
static cJSON *stacks_json(void *self) { return report_stacks_json(stacks_observer_result(self)); }
static void stacks_html(void *self, struct html_report *h) { html_report_stacks(h, stacks_observer_result(self)); }
static const void *stacks_result_bytes(void *self) { return stacks_observer_result(self); }
static void stacks_destroy(void *self) { stacks_observer_destroy(self); }

const analysis_ops stacks_analysis = {
    .name = "stacks",
    .help = "CPI stacks at dispatch, issue and commit, IPC and FLOPS stacks (docs/stacks.md)",
    .create = stacks_create,
    .observer = stacks_probe,
    .text = stacks_text,
    .json = stacks_json,
    .html = stacks_html,
    .result_size = sizeof(stacks_result),
    .result = stacks_result_bytes,
    .destroy = stacks_destroy,
};
