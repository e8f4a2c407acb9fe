/* cyclescope compare: two or more runs' JSON results side by side — the summary
 * and every stack component with its change — in the terminal and as HTML. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report/report.h"
#include "sweep/sweep.h"

void help_compare(void) {
    printf("usage: cyclescope compare [--report FILE] A.json B.json [C.json…]\n"
           "\n"
           "Read the JSON results of timing runs (run, sim, stacks --json, an output\n"
           "directory's results.json, a sweep point DIR/HASH.json) and show them side\n"
           "by side: cycles, instructions, IPC, CPI and the MPKIs, then the CPI stacks\n"
           "at dispatch, issue and commit, every component in the fixed order, each\n"
           "with its change against the first run (A) in CPI and in %%. Notes when the\n"
           "runs timed different inputs.\n"
           "\n"
           "options:\n"
           "  --report FILE      also write the comparison as HTML (the stacks as bars side\n"
           "                     by side, the tables with the changes)\n");
}

/* The number at "a.b.c" in j, or -1 when absent. */
static double num_at(const cJSON *j, const char *path) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = strtok(buf, "."); p && j; p = strtok(NULL, ".")) j = cJSON_GetObjectItemCaseSensitive(j, p);
    return cJSON_IsNumber(j) ? j->valuedouble : -1;
}

static const char *str_at(const cJSON *j, const char *key, const char *dflt) {
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, key);
    return cJSON_IsString(s) ? s->valuestring : dflt;
}

/* Fill r from a result's JSON; *err on what is missing or unknown. */
static bool read_run(const char *file, const cJSON *j, compare_run *r, char *overrides, size_t olen, cs_error *err) {
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(j, "schema");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, "cyclescope-run") != 0) {
        cs_error_set(err, "%s: not a cyclescope result (no \"schema\": \"cyclescope-run\"; docs/json-schema.md)", file);
        return false;
    }
    double version = num_at(j, "schema_version");
    if (version != REPORT_SCHEMA_VERSION) {
        cs_error_set(err, "%s: schema version %g, this cyclescope reads %d", file, version, REPORT_SCHEMA_VERSION);
        return false;
    }
    r->file = file;
    r->program = str_at(j, "program", "?");
    r->config = str_at(j, "config", "?");
    r->cycles = num_at(j, "cycles");
    r->instructions = num_at(j, "instructions");
    r->ipc = num_at(j, "ipc");
    r->cpi = num_at(j, "cpi");
    if (r->cycles < 0 || r->instructions < 0 || r->ipc < 0 || r->cpi < 0) {
        cs_error_set(err, "%s: no cycles, instructions, ipc or cpi", file);
        return false;
    }
    /* An edited or damaged result: counts that are no counts, or a CPI and IPC that are not
     * the cycles over the instructions (cycles 0 or 1e308 were compared as measured). */
    const double exact = 9007199254740992.0; /* 2^53: larger counts are not exact in JSON */
    bool counts = r->cycles == floor(r->cycles) && r->instructions == floor(r->instructions) && r->cycles < exact &&
        r->instructions < exact;
    bool ratios = (r->instructions == 0 && r->ipc == 0) ||
        (r->cycles > 0 && fabs(r->cpi * r->instructions - r->cycles) <= 1e-6 * r->cycles + 1e-6 &&
         fabs(r->ipc * r->cycles - r->instructions) <= 1e-6 * r->instructions + 1e-6);
    if (!counts || !ratios) {
        cs_error_set(err,
                     "%s: inconsistent: %.17g cycles, %.17g instructions, CPI %.17g, IPC %.17g (edited or damaged?)",
                     file, r->cycles, r->instructions, r->cpi, r->ipc);
        return false;
    }
    const cJSON *prov = cJSON_GetObjectItemCaseSensitive(j, "provenance");
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(prov, "input");
    r->sha256 = str_at(in, "sha256", "");
    overrides[0] = 0;
    const cJSON *o,
        *ov = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(prov, "config"), "overrides");
    cJSON_ArrayForEach(o, ov) {
        if (!cJSON_IsString(o)) continue;
        size_t len = strlen(overrides);
        snprintf(overrides + len, olen - len, "%s%s", len ? " " : "", o->valuestring);
    }
    r->overrides = overrides;
    r->mpki[0] = num_at(j, "branches.mpki");
    static const char *const level[4] = {"l1i", "l1d", "l2", "l3"};
    for (int m = 0; m < 4; m++) {
        char path[64];
        snprintf(path, sizeof path, "caches.%s.misses", level[m]);
        double misses = num_at(j, path);
        r->mpki[1 + m] = misses >= 0 && r->instructions > 0 ? 1000.0 * misses / r->instructions : -1;
    }
    const cJSON *cpi = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "stacks"), "cpi_stacks");
    r->has_stacks = cpi != NULL;
    for (int st = 0; st < STACK_STAGES && cpi; st++) {
        const cJSON *stage = cJSON_GetObjectItemCaseSensitive(cpi, stack_stage_name((stack_stage)st)), *c;
        cJSON_ArrayForEach(c, stage) {
            int k = 0;
            while (k < COMP_COUNT && strcmp(stack_component_name((stack_component)k), c->string)) k++;
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, "cpi");
            if (k == COMP_COUNT || !cJSON_IsNumber(v)) {
                cs_error_set(err, "%s: stack component '%s' unknown to this cyclescope", file, c->string);
                return false;
            }
            r->stack[st][k] = v->valuedouble;
        }
    }
    return true;
}

int cmd_compare(int argc, char **argv) {
    static const struct option longopts[] = {{"report", required_argument, 0, 'r'}, {0, 0, 0, 0}};
    const char *report = NULL;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "", longopts, "compare")) != -1) {
        if (opt == 'r') report = optarg;
        else return cli_bad_option("compare", argv);
    }
    int n = argc - optind;
    if (n < 2) return cli_usage("compare", "give two or more JSON results (got %d)", n);
    if (n > COMPARE_MAX_RUNS) return cli_usage("compare", "at most %d runs (got %d)", COMPARE_MAX_RUNS, n);
    compare_run *runs = cs_calloc((size_t)n, sizeof *runs);
    cJSON *docs[COMPARE_MAX_RUNS] = {0};
    char overrides[COMPARE_MAX_RUNS][1024];
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        const char *file = argv[optind + i];
        uint8_t *data;
        size_t size;
        cs_error err;
        if (!cs_read_file(file, &data, &size, &err)) {
            rc = cli_fail("%s", err.msg);
            break;
        }
        docs[i] = cJSON_ParseWithLength((const char *)data, size);
        free(data);
        if (!docs[i]) {
            rc = cli_fail("%s: not JSON", file);
            break;
        }
        /* a sweep point (DIR/HASH.json, docs/sweep.md) holds its run's result under "result". It
         * carries a checksum and its configuration's hash: a damaged or edited one is refused as
         * merge refuses it, never compared as measured. Checked on the document parsed once. */
        if (strcmp(str_at(docs[i], "format", ""), SWEEP_POINT_FORMAT) == 0) {
            sweep_point point;
            bool valid = sweep_point_from_json(docs[i], file, &point, &err); /* consumes the document */
            docs[i] = NULL;
            if (!valid) {
                rc = cli_fail("%s", err.msg);
                break;
            }
            if (!point.ok)
                rc = cli_fail("%s: a sweep point that has no result (status failed: %s)", file,
                              point.error ? point.error : "no error recorded");
            docs[i] = point.result; /* kept: the run's strings point into it */
            point.result = NULL;
            sweep_point_free(&point);
            if (rc) break;
        }
        runs[i].label[0] = (char)('A' + i);
        if (!read_run(file, docs[i], &runs[i], overrides[i], sizeof overrides[i], &err)) rc = cli_fail("%s", err.msg);
    }
    if (rc == 0) {
        report_compare_text(runs, n, stdout);
        if (report) {
            cs_error err;
            html_report *h = html_report_begin("cyclescope: runs side by side");
            html_report_compare(h, runs, n);
            if (!html_report_write(h, report, &err)) rc = cli_fail("%s", err.msg);
            else printf("\nHTML report: %s\n", report);
            html_report_free(h);
        }
    }
    for (int i = 0; i < n; i++) cJSON_Delete(docs[i]);
    free(runs);
    return rc;
}
