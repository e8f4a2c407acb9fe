/* cyclescope merge: the results of a sweep directory as one table (CSV and
 * JSON) and an HTML report (a curve per swept parameter, a heatmap for two). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report/report.h"
#include "sweep/sweep.h"

void help_merge(void) {
    printf("usage: cyclescope merge DIR\n"
           "\n"
           "Read every result file a sweep wrote to DIR (DIR/HASH.json) and write:\n"
           "  DIR/sweep.csv         one row per point: the swept values, status, exit_code, cycles,\n"
           "                        instructions, CPI, IPC, branch/L1D/L2 MPKI, seconds\n"
           "  DIR/sweep-table.json  the same with each point's full result\n"
           "  DIR/sweep.html        CPI against each swept parameter (a curve per\n"
           "                        combination of the others), a heatmap over the first\n"
           "                        two, and the table\n"
           "and print the table. A .json file that is not a sweep point (another\n"
           "tool's, a corrupt one) is named on stderr and skipped.\n");
}

/* docs/sweep-table.schema.json: incremented when a field changes meaning or goes */
enum { SWEEP_TABLE_SCHEMA_VERSION = 1 };

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The table's header. Its input is the directory: the point files' total size and
 * the SHA-256 of what `sha256sum` prints for them in name order, so that a table
 * names the exact results it was made from. No configuration: each point's result
 * carries its own (with the point's values as overrides). */
static cJSON *table_header(const char *dir, const sweep_table *t) {
    report_provenance prov;
    cli_provenance(&prov, "sweep", dir, 0, NULL);
    prov.without_limits = true;
    char **names = cs_calloc(t->count ? t->count : 1, sizeof *names);
    for (size_t i = 0; i < t->count; i++) names[i] = t->points[i].hash;
    qsort(names, t->count, sizeof *names, by_name);
    char *listing = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&listing, &len);
    bool ok = f != NULL;
    for (size_t i = 0; ok && i < t->count; i++) {
        char file[4200], hex[65];
        uint64_t bytes;
        cs_error err;
        snprintf(file, sizeof file, "%s/%s.json", dir, names[i]);
        if (!cs_sha256_file(file, hex, &bytes, &err)) ok = false;
        else fprintf(f, "%s  %s.json\n", hex, names[i]), prov.input_bytes += bytes;
    }
    if (f && fclose(f) != 0) ok = false;
    if (ok) cs_sha256_hex(listing ? listing : "", len, prov.input_sha256);
    else prov.input_sha256[0] = 0, prov.input_bytes = 0;
    free(listing);
    free(names);
    cJSON *root = cJSON_CreateObject();
    report_header_json(root, "cyclescope-sweep-table", SWEEP_TABLE_SCHEMA_VERSION, NULL, &prov);
    return root;
}

int cmd_merge(int argc, char **argv) {
    static const struct option longopts[] = {{0, 0, 0, 0}};
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, ":", longopts, "merge")) != -1) return cli_bad_option("merge", argv);
    if (optind >= argc) return cli_usage("merge", "no directory given");
    if (optind != argc - 1) return cli_usage("merge", "give exactly one directory");
    const char *dir = argv[optind];
    sweep_table t;
    cs_error err;
    if (!sweep_table_read(dir, &t, stderr, &err)) return cli_fail("%s", err.msg);
    char path[4200];
    int rc = 0;
    snprintf(path, sizeof path, "%s/sweep.csv", dir);
    if (!sweep_table_csv(&t, path, &err)) rc = cli_fail("%s", err.msg);
    snprintf(path, sizeof path, "%s/sweep-table.json", dir);
    if (rc == 0 && !sweep_table_json(&t, table_header(dir, &t), path, &err)) rc = cli_fail("%s", err.msg);

    /* the report */
    const char **values = cs_calloc(t.count * (size_t)(t.keys ? t.keys : 1), sizeof *values);
    double *cpi = cs_calloc(t.count, sizeof *cpi);
    const char **errors = cs_calloc(t.count, sizeof *errors);
    int *exit_codes = cs_calloc(t.count, sizeof *exit_codes);
    for (size_t p = 0; p < t.count; p++) {
        const sweep_point *pt = &t.points[p];
        for (int k = 0; k < t.keys; k++)
            for (int i = 0; i < pt->settings; i++)
                if (!strcmp(pt->key[i], t.key[k])) values[p * (size_t)t.keys + (size_t)k] = pt->value[i];
        cpi[p] = pt->ok ? pt->cpi : NAN;
        errors[p] = pt->ok ? NULL : pt->error;
        exit_codes[p] = pt->ok ? pt->exit_code : 0;
    }
    report_sweep rs = {t.keys, (const char *const *)t.key, t.count, values, cpi, errors, exit_codes};
    if (rc == 0) {
        char title[600];
        snprintf(title, sizeof title, "cyclescope sweep: %s", dir);
        html_report *h = html_report_begin(title);
        html_report_sweep(h, &rs);
        snprintf(path, sizeof path, "%s/sweep.html", dir);
        if (!html_report_write(h, path, &err)) rc = cli_fail("%s", err.msg);
        html_report_free(h);
    }

    /* the table on stdout */
    if (rc == 0) {
        for (int k = 0; k < t.keys; k++) printf("%-16s ", t.key[k]);
        printf("%10s  %s\n", "CPI", "status");
        for (size_t p = 0; p < t.count; p++) {
            for (int k = 0; k < t.keys; k++) {
                const char *v = values[p * (size_t)t.keys + (size_t)k];
                printf("%-16s ", v ? v : "-");
            }
            if (t.points[p].ok && exit_codes[p])
                printf("%10.4f  ok (the program exited with status %d)\n", cpi[p], exit_codes[p]);
            else if (t.points[p].ok) printf("%10.4f  ok\n", cpi[p]);
            else printf("%10s  failed: %s\n", "", errors[p]);
        }
        printf("\n%zu points (%zu files skipped); %s/sweep.csv, sweep-table.json, sweep.html\n", t.count, t.skipped,
               dir);
    }
    free(values);
    free(cpi);
    free(errors);
    free(exit_codes);
    sweep_table_free(&t);
    return rc;
}
