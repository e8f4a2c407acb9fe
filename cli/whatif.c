/* whatif: design points from --set and --grid, predicted by RpStacks, CP1 and
 * FMT; the table, CSV, JSON and HTML; --verify through the runner's pool. */
#include <math.h>
#include <stdio.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "report/report.h"
#include "runner/runner.h"
#include "whatif.h"

enum { MAX_AXES = 8, MAX_VALUES = 4096, MAX_POINTS = 1000000 };

typedef struct axis {
    char key[128];
    int count;
    uint32_t value[MAX_VALUES];
} axis;

typedef struct point {
    uint32_t lat[RPS_DIMS];
    double rps, cp1, fmt; /* predicted cycles */
    double sim;           /* simulated cycles (verified points), else NAN */
} point;

static int usage_fail(const char *fmt, const char *a, const char *b) {
    cli_fail(fmt, a, b); /* one line, whatever the values hold */
    return EXIT_USAGE;
}

/* "KEY=A..B" or "KEY=X,Y,Z" */
static bool parse_axis(const rps_result *r, const char *text, axis *ax, cs_error *err) {
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || (size_t)(eq - text) >= sizeof ax->key) {
        cs_error_set(err, "--grid %s: expected KEY=A..B or KEY=X,Y,…", text);
        return false;
    }
    memcpy(ax->key, text, (size_t)(eq - text));
    ax->key[eq - text] = 0;
    ax->count = 0;
    const char *p = eq + 1;
    uint32_t lo, hi;
    int range = cs_grid_range(text, strlen(text), MAX_VALUES, &lo, &hi, err);
    if (range < 0) return false;
    if (range) {
        for (uint64_t v = lo; v <= hi; v++) ax->value[ax->count++] = (uint32_t)v;
    } else {
        while (*p) {
            const char *end;
            uint32_t v;
            /* "1," ended in an empty value (read as the list "1" before) */
            if (!cs_grid_number(p, &end, &v) || (*end && *end != ',') || (*end == ',' && !end[1]) ||
                ax->count == MAX_VALUES) {
                cs_error_set(err, "--grid %s: expected a list of integers", text);
                return false;
            }
            ax->value[ax->count++] = v;
            p = *end ? end + 1 : end;
        }
        if (!ax->count) {
            cs_error_set(err, "--grid %s: no values", text);
            return false;
        }
    }
    /* every value is checked as a what-if assignment: the key and the range */
    uint32_t lat[RPS_DIMS];
    for (int k = 0; k < ax->count; k++) {
        char a[160];
        snprintf(a, sizeof a, "%s=%u", ax->key, ax->value[k]);
        memcpy(lat, r->base_latency, sizeof lat);
        if (!rps_set_latency(r, lat, a, err)) return false;
    }
    return true;
}

static void predict(const rps_result *r, point *p) {
    double scale[RPS_DIMS];
    cs_error err;
    if (!rps_scales(r, p->lat, scale, &err)) {
        p->rps = p->cp1 = p->fmt = NAN;
        return;
    }
    p->rps = rps_predict(r, scale);
    p->cp1 = rps_predict_cp1(r, scale);
    p->fmt = rps_predict_fmt(r, scale);
}

/* The keys a point changes from the baseline, as assignments (one per key). */
static int point_sets(const rps_result *r, const point *p, char sets[][64], int max) {
    int n = 0;
    for (int d = 1; d < RPS_DIMS && n < max; d++) {
        if (p->lat[d] == r->base_latency[d]) continue;
        const char *key = rps_dim_key(d);
        bool seen = false;
        for (int k = 0; k < n; k++) seen |= !strncmp(sets[k], key, strlen(key)) && sets[k][strlen(key)] == '=';
        if (!seen) snprintf(sets[n++], 64, "%s=%u", key, p->lat[d]);
    }
    return n;
}

static void point_label(const rps_result *r, const point *p, char *buf, size_t size) {
    char sets[RPS_DIMS][64];
    int n = point_sets(r, p, sets, RPS_DIMS);
    buf[0] = 0;
    if (!n) snprintf(buf, size, "baseline");
    for (int k = 0; k < n; k++) {
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%s%s", k ? " " : "", sets[k]);
    }
}

static double pct(double pred, double sim) { return 100.0 * (pred - sim) / sim; }

/* Re-simulate the points `which` through the process pool. */
static bool verify(const rps_result *r, point *pts, const int *which, int k, int jobs, cs_error *err) {
    uarch_config base;
    if (!rps_origin_config(&r->origin, &base, err)) return false;
    if (!r->origin.argc) {
        cs_error_set(err, "the .rps file does not say what ran: cannot re-simulate");
        return false;
    }
    /* job k: the baseline again. The .rps names its program or trace by path only: one
     * replaced since (another build, another file) was simulated for the points and its
     * cycles set against predictions for the first; the baseline's cycles tell. */
    run_job *job = cs_calloc((size_t)k + 1, sizeof *job);
    job_result *res = cs_calloc((size_t)k + 1, sizeof *res);
    rps_source *src = cs_calloc((size_t)k + 1, sizeof *src);
    char(*names)[256] = cs_calloc((size_t)k + 1, sizeof *names);
    analysis_list none = {0};
    bool ok = true;
    for (int q = 0; q <= k && ok; q++) {
        point baseline;
        memset(&baseline, 0, sizeof baseline);
        memcpy(baseline.lat, r->base_latency, sizeof baseline.lat);
        point *p = q < k ? &pts[which[q]] : &baseline;
        job[q].cfg = base;
        char sets[RPS_DIMS][64];
        int n = point_sets(r, p, sets, RPS_DIMS);
        for (int s = 0; s < n && ok; s++) ok = uarch_config_set(&job[q].cfg, sets[s], err);
        if (ok) ok = uarch_config_validate(&job[q].cfg, err);
        point_label(r, p, names[q], sizeof names[q]);
        job[q].name = names[q];
        job[q].opt = (core_run_options){r->origin.warmup, r->origin.max, NULL};
        job[q].source = rps_run_source(&src[q], &r->origin);
        job[q].analyses = &none;
        job[q].program = r->origin.argv[0];
    }
    if (ok) ok = runner_pool(job, k + 1, jobs, res, err);
    if (ok) {
        for (int q = 0; q <= k; q++) {
            if (!res[q].ok) {
                if (ok) *err = res[q].err;
                ok = false;
            } else if (q < k) {
                pts[which[q]].sim = (double)res[q].stats.cycles;
            } else if (res[q].stats.cycles != r->cycles && ok && !r->origin.host_time) { /* host time: not repeatable */
                cs_error_set(err,
                             "%s: the baseline now takes %llu cycles, the .rps recorded %llu: the program or "
                             "trace changed since `cyclescope rpstacks` (run it again)%s",
                             r->origin.argv[0], (unsigned long long)res[q].stats.cycles, (unsigned long long)r->cycles,
                             r->origin.is_trace ? ""
                                                : ", or its input did (stdin: give it the same, < FILE); a program "
                                                  "whose child processes it waits for or reads need not repeat: "
                                                  "the host schedules them");
                ok = false;
            }
            job_result_free(&res[q]);
        }
    }
    /* a failed verification shows no simulated number: a point's cycles are worth nothing
     * when the baseline's are not the .rps' */
    if (!ok)
        for (int q = 0; q < k; q++) pts[which[q]].sim = NAN;
    free(job);
    free(res);
    free(src);
    free(names);
    return ok;
}

static void write_csv(FILE *f, const rps_result *r, const axis *ax, int naxes, const point *pts, int n) {
    for (int a = 0; a < naxes; a++) fprintf(f, "%s,", ax[a].key);
    fprintf(f, "rpstacks_cpi,cp1_cpi,fmt_cpi,simulated_cpi\n");
    double ins = r->instructions ? (double)r->instructions : 1;
    for (int i = 0, stride; i < n; i++) {
        stride = 1;
        int idx[MAX_AXES];
        for (int a = naxes - 1; a >= 0; a--) idx[a] = (i / stride) % ax[a].count, stride *= ax[a].count;
        for (int a = 0; a < naxes; a++) fprintf(f, "%u,", ax[a].value[idx[a]]);
        fprintf(f, "%.6f,%.6f,%.6f,", pts[i].rps / ins, pts[i].cp1 / ins, pts[i].fmt / ins);
        if (!isnan(pts[i].sim)) fprintf(f, "%.6f", pts[i].sim / ins);
        fprintf(f, "\n");
    }
}

/* docs/whatif.schema.json: incremented when a field changes meaning or goes */
enum { WHATIF_SCHEMA_VERSION = 1 };

/* The header: the .rps file is the input; the configuration, overrides, warm-up
 * and limit are those of the run it was built from (its configuration as it
 * loads now; null when it no longer loads). */
static void header_json(cJSON *root, const rps_result *r, const whatif_options *w) {
    report_provenance prov;
    cli_provenance(&prov, "rpstacks", w->path, 0, NULL);
    const char *sets[RPS_MAX_SETS];
    for (int k = 0; k < r->origin.set_count && k < RPS_MAX_SETS; k++) sets[k] = r->origin.sets[k];
    prov.config_source = r->origin.config;
    prov.override_count = r->origin.set_count;
    prov.overrides = sets;
    prov.warmup_instructions = r->origin.warmup;
    prov.max_instructions = r->origin.max;
    uarch_config cfg;
    cs_error err;
    bool loaded = rps_origin_config(&r->origin, &cfg, &err);
    report_header_json(root, "cyclescope-whatif", WHATIF_SCHEMA_VERSION, loaded ? &cfg : NULL, &prov);
}

/* The run the stacks came from, as `whatif --verify` repeats it: what a user needs to know before
 * trusting a .rps made elsewhere (the program, its arguments, the configuration, the guest
 * options, and whether the stdin it read was recorded). */
static void recorded_stdin_text(const rps_origin *o, char *buf, size_t size) {
    if (!o->stdin_known) {
        snprintf(buf, size, "not recorded (a pipe, a terminal, a trace, or a .rps before version 5)");
        return;
    }
    char hex[2 * CS_SHA256_BYTES + 1];
    cs_hex_encode(o->stdin_sha256, CS_SHA256_BYTES, hex);
    snprintf(buf, size, "a file of %llu bytes, sha256 %s", (unsigned long long)o->stdin_bytes, hex);
}

static void print_recorded_run(const rps_origin *o) {
    printf("recorded from: %s %s", o->is_trace ? "trace" : "program", o->argc > 0 ? o->argv[0] : "?");
    for (int k = 1; k < o->argc; k++) printf(" %s", o->argv[k]);
    printf("\n  config %s", o->config);
    for (int k = 0; k < o->set_count; k++) printf(" --set %s", o->sets[k]);
    printf(", warm-up %llu instructions", (unsigned long long)o->warmup);
    if (o->max) printf(", at most %llu timed", (unsigned long long)o->max);
    else printf(", timed to the end");
    if (!o->is_trace) {
        if (o->seed) printf(", --seed %llu", (unsigned long long)o->seed);
        if (o->guest_memory) printf(", --guest-memory %llu", (unsigned long long)o->guest_memory);
        if (o->host_time) printf(", --host-time");
        if (o->strict_syscalls) printf(", --strict-syscalls");
        if (o->allow_write[0]) printf(", --allow-write %s", o->allow_write);
        char in[160];
        recorded_stdin_text(o, in, sizeof in);
        printf("\n  stdin: %s", in);
    }
    printf("\n");
}

static void recorded_run_json(cJSON *parent, const rps_origin *o) {
    cJSON *run = cJSON_AddObjectToObject(parent, "recorded_run");
    cJSON_AddStringToObject(run, "kind", o->is_trace ? "trace" : "program");
    cJSON_AddStringToObject(run, "path", o->argc > 0 ? o->argv[0] : "");
    cJSON *args = cJSON_AddArrayToObject(run, "arguments");
    for (int k = 1; k < o->argc; k++) cJSON_AddItemToArray(args, cJSON_CreateString(o->argv[k]));
    cJSON_AddStringToObject(run, "config", o->config);
    cJSON *sets = cJSON_AddArrayToObject(run, "overrides");
    for (int k = 0; k < o->set_count; k++) cJSON_AddItemToArray(sets, cJSON_CreateString(o->sets[k]));
    cJSON_AddNumberToObject(run, "warmup_instructions", (double)o->warmup);
    cJSON_AddNumberToObject(run, "max_instructions", (double)o->max);
    if (o->is_trace) return;
    cJSON_AddNumberToObject(run, "seed", (double)o->seed);
    cJSON_AddNumberToObject(run, "guest_memory", (double)o->guest_memory);
    cJSON_AddBoolToObject(run, "host_time", o->host_time);
    cJSON_AddBoolToObject(run, "strict_syscalls", o->strict_syscalls);
    if (o->allow_write[0]) cJSON_AddStringToObject(run, "allow_write", o->allow_write);
    else cJSON_AddNullToObject(run, "allow_write");
    if (!o->stdin_known) {
        cJSON_AddNullToObject(run, "stdin");
        return;
    }
    cJSON *in = cJSON_AddObjectToObject(run, "stdin");
    char hex[2 * CS_SHA256_BYTES + 1];
    cs_hex_encode(o->stdin_sha256, CS_SHA256_BYTES, hex);
    cJSON_AddNumberToObject(in, "bytes", (double)o->stdin_bytes);
    cJSON_AddStringToObject(in, "sha256", hex);
}

void rps_options_json(cJSON *parent, const rps_options *opt) {
    cJSON *o = cJSON_AddObjectToObject(parent, "options");
    cJSON_AddNumberToObject(o, "segment", opt->segment);
    cJSON_AddNumberToObject(o, "similarity", opt->similarity);
    cJSON_AddNumberToObject(o, "max_scale", opt->max_scale);
    cJSON_AddBoolToObject(o, "unique", opt->unique != RPS_UNIQUE_OFF);
    cJSON_AddStringToObject(o, "uniqueness", rps_unique_name(opt->unique));
    cJSON_AddNumberToObject(o, "max_stacks", opt->max_stacks);
}

static cJSON *grid_json(const rps_result *r, const whatif_options *w, const axis *ax, int naxes, const point *pts,
                        long n, double predict_seconds) {
    double ins = r->instructions ? (double)r->instructions : 1;
    cJSON *root = cJSON_CreateObject();
    header_json(root, r, w);
    cJSON_AddStringToObject(root, "file", w->path);
    rps_options_json(root, &r->opt); /* the predictions depend on them: say which */
    recorded_run_json(root, &r->origin);
    cJSON_AddNumberToObject(root, "instructions", (double)r->instructions);
    cJSON_AddNumberToObject(root, "simulated_cpi", (double)r->cycles / ins);
    cJSON_AddNumberToObject(root, "predict_seconds", predict_seconds);
    cJSON *arr = cJSON_AddArrayToObject(root, "points");
    for (long i = 0; i < n; i++) {
        cJSON *p = cJSON_CreateObject();
        long stride = 1;
        int idx[MAX_AXES];
        for (int a = naxes - 1; a >= 0; a--) idx[a] = (int)((i / stride) % ax[a].count), stride *= ax[a].count;
        for (int a = 0; a < naxes; a++) cJSON_AddNumberToObject(p, ax[a].key, ax[a].value[idx[a]]);
        cJSON_AddNumberToObject(p, "rpstacks_cpi", pts[i].rps / ins);
        cJSON_AddNumberToObject(p, "cp1_cpi", pts[i].cp1 / ins);
        cJSON_AddNumberToObject(p, "fmt_cpi", pts[i].fmt / ins);
        if (!isnan(pts[i].sim)) cJSON_AddNumberToObject(p, "simulated_cpi", pts[i].sim / ins);
        cJSON_AddItemToArray(arr, p);
    }
    return root;
}

/* The HTML report: the stacks, then the grid as a sweep (curves, heatmap, table) of the RpStacks CPI. */
static bool write_html(const rps_result *r, const whatif_options *w, const axis *ax, int naxes, const point *pts,
                       long n, cs_error *err) {
    char title[600];
    snprintf(title, sizeof title, "cyclescope whatif: %s", w->path);
    html_report *h = html_report_begin(title);
    html_report_rpstacks(h, r);
    double ins = r->instructions ? (double)r->instructions : 1;
    int keys = naxes ? naxes : 1;
    char **values = cs_calloc((size_t)n * keys, sizeof *values);
    const char **key = cs_calloc((size_t)keys, sizeof *key);
    double *cpi = cs_calloc((size_t)n, sizeof *cpi);
    for (int a = 0; a < naxes; a++) key[a] = ax[a].key;
    if (!naxes) key[0] = "design point";
    for (long i = 0; i < n; i++) {
        long stride = 1;
        for (int a = naxes - 1; a >= 0; a--) {
            char v[32];
            snprintf(v, sizeof v, "%u", ax[a].value[(i / stride) % ax[a].count]);
            values[i * keys + a] = cs_strdup(v);
            stride *= ax[a].count;
        }
        if (!naxes) values[i] = cs_strdup("as set");
        cpi[i] = pts[i].rps / ins;
    }
    report_sweep sw = {keys, key, (size_t)n, (const char *const *)values, cpi, NULL, NULL};
    const char **errors = cs_calloc((size_t)n, sizeof *errors);
    sw.error = errors;
    html_report_sweep(h, &sw);
    bool ok = html_report_write(h, w->report, err);
    html_report_free(h);
    for (long i = 0; i < n * keys; i++) free(values[i]);
    free(values);
    free(key);
    free(cpi);
    free(errors);
    return ok;
}

int whatif_run(const rps_result *r, const whatif_options *w) {
    cs_error err;
    uint32_t fixed[RPS_DIMS];
    memcpy(fixed, r->base_latency, sizeof fixed);
    for (int k = 0; k < w->set_count; k++) {
        if (!rps_set_latency(r, fixed, w->sets[k], &err)) return usage_fail("%s%s", err.msg, "");
        if (cli_set_repeated(w->sets, k) >= 0) { /* as --grid refuses a key twice */
            char key[64];
            snprintf(key, sizeof key, "%.*s", (int)strcspn(w->sets[k], "="), w->sets[k]);
            return usage_fail("--set: %s given twice%s", key, "");
        }
    }
    axis *ax = cs_calloc(MAX_AXES, sizeof *ax);
    int naxes = 0;
    if (w->grid) {
        char *copy = cs_strdup(w->grid), *save = NULL;
        for (char *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
            if (naxes == MAX_AXES) {
                free(copy);
                free(ax);
                return usage_fail("--grid: at most %d keys%s", "8", "");
            }
            if (!parse_axis(r, tok, &ax[naxes], &err)) {
                free(copy);
                free(ax);
                return usage_fail("%s%s", err.msg, "");
            }
            for (int a = 0; a < naxes; a++) /* the second's values were silently dropped */
                if (!strcmp(ax[a].key, ax[naxes].key)) {
                    int rc = usage_fail("--grid: %s given twice%s", ax[a].key, "");
                    free(copy);
                    free(ax);
                    return rc;
                }
            naxes++;
        }
        free(copy);
        if (!naxes) { /* --grid '' predicted the baseline alone, as if no grid were asked for */
            free(ax);
            return usage_fail("--grid: no KEY=VALUES given%s%s", "", "");
        }
    }
    long n = 1;
    for (int a = 0; a < naxes; a++) {
        n *= ax[a].count;
        if (n > MAX_POINTS) {
            free(ax);
            return usage_fail("--grid: more than %s points%s", "1000000", "");
        }
    }
    point *pts = cs_calloc((size_t)n, sizeof *pts);
    double t0 = cs_now();
    for (long i = 0; i < n; i++) {
        point *p = &pts[i];
        memcpy(p->lat, fixed, sizeof p->lat);
        long stride = 1;
        for (int a = naxes - 1; a >= 0; a--) {
            char as[160];
            snprintf(as, sizeof as, "%s=%u", ax[a].key, ax[a].value[(i / stride) % ax[a].count]);
            rps_set_latency(r, p->lat, as, &err); /* checked when parsed */
            stride *= ax[a].count;
        }
        p->sim = NAN;
        predict(r, p);
        if (isnan(p->rps)) {
            rps_scales(r, p->lat, (double[RPS_DIMS]){0}, &err);
            free(pts);
            free(ax);
            return usage_fail("%s%s", err.msg, "");
        }
    }
    double predict_seconds = cs_now() - t0;
    /* beyond the design space the stacks were reduced for, a dropped path could be the longest */
    long outside = 0;
    for (long i = 0; i < n && r->opt.max_scale > 0; i++) {
        bool out = false;
        for (int d = 1; d < RPS_DIMS; d++)
            out |= r->base_latency[d] && pts[i].lat[d] > r->opt.max_scale * r->base_latency[d] + 1e-9;
        outside += out;
    }
    if (outside)
        fprintf(stderr,
                "cyclescope: warning: %ld design point%s set a latency above %g× the baseline's, outside the design "
                "space the stacks were reduced for (rpstacks --max-scale): RpStacks may predict too low there\n",
                outside, outside == 1 ? "" : "s", r->opt.max_scale);
    double ins = r->instructions ? (double)r->instructions : 1;
    int rc = 0;

    int k = w->verify;
    int *which = NULL;
    if (k) {
        if (k > n) k = (int)n;
        which = cs_calloc((size_t)k, sizeof *which);
        for (int q = 0; q < k; q++)
            which[q] = k == 1 ? (int)(n - 1) / 2 : (int)llround((double)q * (double)(n - 1) / (k - 1));
        /* every job reads the caller's stdin when it is a file, as rpstacks' run read it (cmd_whatif
         * kept a pipe in one first, and checked it against the .rps) */
        if (!verify(r, pts, which, k, w->jobs, &err)) rc = cli_fail("verify: %s", err.msg);
    }

    if (!w->quiet) {
        printf("What-if from %s: %llu instructions, simulated CPI %.4f (cycles %llu)\n", w->path,
               (unsigned long long)r->instructions, r->cycles / ins, (unsigned long long)r->cycles);
        char options[256];
        rps_options_line(&r->opt, options, sizeof options);
        printf("stacks reduced with: %s\n", options);
        print_recorded_run(&r->origin);
        printf("%ld design point%s predicted in %.3f ms\n\n", n, n == 1 ? "" : "s", predict_seconds * 1e3);
        printf("  %-44s %10s %10s %10s %10s\n", "design point", "RpStacks", "CP1", "FMT", "simulated");
        long shown = n <= 200 ? n : 200;
        for (long i = 0; i < shown; i++) {
            char label[512];
            point_label(r, &pts[i], label, sizeof label);
            printf("  %-44s %10.4f %10.4f %10.4f", label, pts[i].rps / ins, pts[i].cp1 / ins, pts[i].fmt / ins);
            if (!isnan(pts[i].sim)) printf(" %10.4f", pts[i].sim / ins);
            printf("\n");
        }
        if (shown < n) printf("  … %ld more (--csv FILE for all)\n", n - shown);
    }
    if (k && rc == 0) {
        double sum[3] = {0}, mx[3] = {0};
        printf("\nVerification: %d point%s re-simulated (error of the predicted CPI)\n", k, k == 1 ? "" : "s");
        printf("  %-44s %10s %9s %9s %9s\n", "design point", "simulated", "RpStacks", "CP1", "FMT");
        for (int q = 0; q < k; q++) {
            const point *p = &pts[which[q]];
            char label[512];
            point_label(r, p, label, sizeof label);
            double e[3] = {pct(p->rps, p->sim), pct(p->cp1, p->sim), pct(p->fmt, p->sim)};
            printf("  %-44s %10.4f %+8.2f%% %+8.2f%% %+8.2f%%\n", label, p->sim / ins, e[0], e[1], e[2]);
            for (int m = 0; m < 3; m++) sum[m] += fabs(e[m]), mx[m] = fmax(mx[m], fabs(e[m]));
        }
        printf("  %-44s %10s %8.2f%% %8.2f%% %8.2f%%\n", "average |error|", "", sum[0] / k, sum[1] / k, sum[2] / k);
        printf("  %-44s %10s %8.2f%% %8.2f%% %8.2f%%\n", "maximum |error|", "", mx[0], mx[1], mx[2]);
    }
    if (w->csv) {
        if (!strcmp(w->csv, "-")) {
            FILE *f = w->data_fd >= 0 ? fdopen(dup(w->data_fd), "w") : NULL;
            if (!f) rc = cli_fail("stdout: cannot write the CSV");
            else {
                write_csv(f, r, ax, naxes, pts, (int)n);
                if (fclose(f) != 0) rc = cli_fail("stdout: cannot write the CSV");
            }
        } else {
            cs_output out;
            FILE *f = cs_output_open(&out, w->csv, &err);
            if (!f) rc = cli_fail("%s", err.msg);
            else {
                write_csv(f, r, ax, naxes, pts, (int)n);
                if (!cs_output_commit(&out, &err)) rc = cli_fail("%s", err.msg);
                cs_output_discard(&out);
            }
        }
    }
    if (w->json) {
        cJSON *j = grid_json(r, w, ax, naxes, pts, n, predict_seconds);
        if (!cli_write_json(w->json, w->data_fd, j, &err)) rc = cli_fail("%s", err.msg);
        cJSON_Delete(j);
    }
    if (w->report) {
        if (!write_html(r, w, ax, naxes, pts, n, &err)) rc = cli_fail("%s", err.msg);
        else if (!w->quiet) printf("\nHTML report: %s\n", w->report);
    }
    free(which);
    free(pts);
    free(ax);
    return rc;
}
