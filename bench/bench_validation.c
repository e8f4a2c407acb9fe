/* The §V-A study (Eyerman et al.): every workload on bdw and knl, the
 * baseline against the idealised machines, and the tables of
 * docs/validation.md, in Markdown on stdout.
 *
 *   bench_validation [--small] [--window N] [--configs bdw,knl] [--jobs N] [--check-bpred F] [--check-alu F]
 *                    [name…]
 *
 * Default: each workload at its default size, a window of its main phase
 * (the warm-up and limit below: past the initialisation, then up to 20 M
 * instructions). --window N: time at most N instructions of each window (the
 * warm-ups unchanged: the same main phase, a shorter stretch of it; the scale
 * the study fits in a time budget). --small: each workload's small size,
 * whole program.
 * --check-bpred F, --check-alu F: exit 1 unless at least the fraction F of
 * the relevant bpred (1-cycle ALU) cases, over all configurations, have the
 * actual reduction within the three stacks' range (the slow test).
 * The machines of one workload run in parallel (validation_run). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_manifest.h"
#include "emu/emu.h"
#include "stacks/stacks.h"
#include "validation/validation.h"

/* The measured window per workload at default size: warm-up (caches and
 * predictors only) past the initialisation phase, then at most `max`. */
typedef struct window {
    const char *name;
    uint64_t warmup, max;
} window;
static const window windows[] = {
    {"ptr_chase", 23200000, 4200000},     /* init ~23.1 M instructions, then the 4.33 M-instruction chase */
    {"randaccess", 56000000, 20000000},   /* init ~54.5 M (13 per word), then the updates */
    {"list", 18000000, 20000000},         /* init + shuffle ~17.6 M, then the traversals */
    {"branch_random", 7500000, 20000000}, /* setup ~7.4 M, then the kernel */
};
enum { DEFAULT_WARMUP = 5000000, DEFAULT_MAX = 20000000 };

typedef bench_workload workload;

typedef struct result {
    const char *workload, *config;
    uint64_t warmup, max;
    validation_result v;
} result;

typedef struct guest {
    const char *argv[3];
    int argc;
    emu_t *emu;
} guest;

static uop_source *guest_open(void *ctx, cs_error *err) {
    guest *g = ctx;
    static const char *const env[] = {"LANG=C", NULL};
    emu_options eo = {.argc = g->argc, .argv = g->argv, .envp = env, .quiet = true};
    g->emu = emu_create(g->argv[0], &eo, err);
    return g->emu ? emu_source_create(g->emu) : NULL;
}

static bool guest_close(void *ctx, uop_source *src, cs_error *err) {
    guest *g = ctx;
    bool ok = emu_state(g->emu) != EMU_FAILED;
    if (!ok) cs_error_set(err, "%s", emu_error(g->emu));
    uop_source_destroy(src);
    emu_destroy(g->emu);
    return ok;
}

static const ideal_kind singles[] = {IDEAL_ICACHE, IDEAL_DCACHE, IDEAL_BPRED, IDEAL_ALU};
static const char *const single_names[] = {"I-cache", "D-cache", "bpred", "1-cycle ALU"};

static double median(double *x, int n) {
    if (!n) return 0;
    for (int i = 1; i < n; i++) /* insertion sort: n is small */
        for (int j = i; j > 0 && x[j - 1] > x[j]; j--) {
            double t = x[j];
            x[j] = x[j - 1];
            x[j - 1] = t;
        }
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

int main(int argc, char **argv) {
    bool small = false;
    uint64_t window_cap = 0;            /* --window: at most this many timed instructions per window */
    double check[4] = {-1, -1, -1, -1}; /* per single idealisation */
    int jobs = 0, nw = 0;
    char configs_arg[256] = "bdw,knl";
    workload all[64], chosen[64];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--small")) small = true;
        else if (!strcmp(argv[i], "--window") && i + 1 < argc) window_cap = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--configs") && i + 1 < argc)
            snprintf(configs_arg, sizeof configs_arg, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--jobs") && i + 1 < argc) jobs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--check-bpred") && i + 1 < argc) check[2] = atof(argv[++i]);
        else if (!strcmp(argv[i], "--check-alu") && i + 1 < argc) check[3] = atof(argv[++i]);
        else if (nw < 64) snprintf(chosen[nw++].name, sizeof chosen[0].name, "%s", argv[i]);
    }
    int n_all = bench_read_manifest(all, 64);
    if (!n_all) {
        fprintf(stderr, "bench_validation: cannot read %s\n", CYCLESCOPE_MANIFEST);
        return 2;
    }
    if (!nw) {
        memcpy(chosen, all, sizeof all);
        nw = n_all;
    } else {
        for (int i = 0; i < nw; i++) {
            chosen[i].small[0] = 0;
            for (int j = 0; j < n_all; j++)
                if (!strcmp(all[j].name, chosen[i].name)) memcpy(chosen[i].small, all[j].small, sizeof all[j].small);
        }
    }
    const char *configs[8];
    int nc = 0;
    for (char *tok = strtok(configs_arg, ","); tok && nc < 8; tok = strtok(NULL, ",")) configs[nc++] = tok;

    result *res = calloc((size_t)(nw * nc), sizeof *res);
    int nres = 0;
    for (int c = 0; c < nc; c++) {
        uarch_config cfg;
        cs_error err;
        uarch_config_default(&cfg);
        if (!uarch_config_load(&cfg, configs[c], &err)) {
            fprintf(stderr, "bench_validation: %s\n", err.msg);
            return 2;
        }
        for (int w = 0; w < nw; w++) {
            char path[512];
            snprintf(path, sizeof path, "%s/%.63s", CYCLESCOPE_WORKLOAD_DIR, chosen[w].name);
            guest g = {{path, small ? chosen[w].small : NULL, NULL}, small ? 2 : 1, NULL};
            result *r = &res[nres];
            r->workload = chosen[w].name;
            r->config = configs[c];
            r->warmup = small ? 0 : DEFAULT_WARMUP;
            r->max = small ? 0 : DEFAULT_MAX;
            for (size_t k = 0; !small && k < sizeof windows / sizeof windows[0]; k++)
                if (!strcmp(windows[k].name, chosen[w].name)) r->warmup = windows[k].warmup, r->max = windows[k].max;
            if (!small && window_cap && r->max > window_cap) r->max = window_cap;
            validation_options vo;
            memset(&vo, 0, sizeof vo);
            vo.cfg = cfg;
            vo.run = (core_run_options){r->warmup, r->max, NULL};
            vo.jobs = jobs;
            vo.source = (run_source){&g, guest_open, guest_close, NULL};
            snprintf(r->v.program, sizeof r->v.program, "%.63s", chosen[w].name);
            double t0 = cs_now();
            if (!validation_run(&vo, &r->v, NULL, NULL, &err)) {
                fprintf(stderr, "bench_validation: %s on %s: %s\n", chosen[w].name, configs[c], err.msg);
                return 1;
            }
            fprintf(stderr, "bench_validation: %s on %s: CPI %.3f (%.1f s)\n", chosen[w].name, configs[c],
                    r->v.base_cpi, cs_now() - t0);
            nres++;
        }
    }

    printf("## Summary\n\n");
    printf("Relevant cases: the component is at least 10%% of CPI in some stack (§V-A). "
           "Error: 0 inside [min, max] of the three stacks, else the CPI distance to the closest one "
           "(in brackets: as %% of the baseline CPI).\n\n");
    printf("| config | component | relevant cases | within bounds | median error | max error |\n");
    printf("|---|---|---:|---:|---:|---:|\n");
    int bad_check = 0, pooled_rel[4] = {0}, pooled_within[4] = {0};
    for (int c = 0; c < nc; c++) {
        for (int s = 0; s < 4; s++) {
            double err[64], maxe = 0, maxrel = 0;
            int rel = 0, within = 0;
            for (int i = 0; i < nres; i++) {
                if (strcmp(res[i].config, configs[c]) != 0) continue;
                const validation_case *k = &res[i].v.cases[singles[s]];
                if (!k->relevant) continue;
                err[rel++] = k->error;
                within += k->within;
                if (k->error > maxe) maxe = k->error, maxrel = k->error / res[i].v.base_cpi;
            }
            double med = median(err, rel);
            pooled_rel[s] += rel;
            pooled_within[s] += within;
            printf("| %s | %s | %d | %d | %.3f | %.3f (%.1f%%) |\n", configs[c], single_names[s], rel, within, med,
                   maxe, 100 * maxrel);
        }
    }
    for (int s = 0; s < 4; s++) {
        if (check[s] < 0) continue;
        bool ok = pooled_within[s] >= check[s] * pooled_rel[s];
        fprintf(stderr, "bench_validation: %s: %d of %d relevant cases within bounds (required: %.0f%%)%s\n",
                single_names[s], pooled_within[s], pooled_rel[s], 100 * check[s], ok ? "" : ": FAILED");
        if (!ok) bad_check = 1;
    }

    for (int s = 0; s < 4; s++) {
        printf("\n## %s: the relevant cases\n\n", single_names[s]);
        printf("| workload | config | base CPI | dispatch | issue | commit | actual | within | error |\n");
        printf("|---|---|---:|---:|---:|---:|---:|---|---:|\n");
        int any = 0;
        for (int i = 0; i < nres; i++) {
            const validation_case *k = &res[i].v.cases[singles[s]];
            if (!k->relevant) continue;
            any = 1;
            printf("| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %s | %.3f (%.1f%%) |\n", res[i].workload,
                   res[i].config, res[i].v.base_cpi, k->predicted[STACK_DISPATCH], k->predicted[STACK_ISSUE],
                   k->predicted[STACK_COMMIT], k->reduction,
                   k->within                  ? "yes"
                       : k->reduction < k->lo ? "**below**"
                                              : "**above**",
                   k->error, 100 * k->error / res[i].v.base_cpi);
        }
        if (!any) printf("| (none) | | | | | | | | |\n");
    }

    printf("\n## The Table I pairs\n\n");
    printf("Together vs the sum of the two single reductions: hidden stalls when larger, overlap when "
           "smaller (within 0.5%% of the baseline CPI: neither). Only rows where a single reduction is "
           "at least 10%% of CPI.\n\n");
    printf("| workload | config | pair | together | sum of singles | effect |\n");
    printf("|---|---|---|---:|---:|---|\n");
    static const ideal_kind pairs[2][3] = {{IDEAL_DCACHE_ALU, IDEAL_DCACHE, IDEAL_ALU},
                                           {IDEAL_BPRED_DCACHE, IDEAL_BPRED, IDEAL_DCACHE}};
    for (int i = 0; i < nres; i++)
        for (int p = 0; p < 2; p++) {
            const validation_result *v = &res[i].v;
            const validation_case *k = &v->cases[pairs[p][0]];
            if (fmax(v->cases[pairs[p][1]].reduction, v->cases[pairs[p][2]].reduction) < 0.1 * v->base_cpi) continue;
            printf("| %s | %s | %s | %.3f | %.3f | %s |\n", res[i].workload, res[i].config, ideal_kind_name(k->kind),
                   k->reduction, k->sum_of_singles,
                   k->interaction > 0       ? "hidden stalls"
                       : k->interaction < 0 ? "overlap"
                                            : "neither");
        }

    printf("\n## Every case\n\n");
    printf("Per component: dispatch / issue / commit stack → actual reduction (CPI); * marks an actual "
           "reduction outside the range, R a relevant case.\n\n");
    printf("| workload | config | window (warm-up + max) | base CPI | I-cache | D-cache | bpred | 1-cycle ALU |\n");
    printf("|---|---|---|---:|---|---|---|---|\n");
    for (int i = 0; i < nres; i++) {
        const validation_result *v = &res[i].v;
        char win[64];
        if (res[i].max) snprintf(win, sizeof win, "%.1fM + %.1fM", res[i].warmup / 1e6, res[i].max / 1e6);
        else snprintf(win, sizeof win, "whole (small)");
        printf("| %s | %s | %s | %.3f |", res[i].workload, res[i].config, win, v->base_cpi);
        for (int s = 0; s < 4; s++) {
            const validation_case *k = &v->cases[singles[s]];
            printf(" %.3f / %.3f / %.3f → %.3f%s%s |", k->predicted[0], k->predicted[1], k->predicted[2], k->reduction,
                   k->within ? "" : " *", k->relevant ? " R" : "");
        }
        printf("\n");
    }
    free(res);
    return bad_check;
}
