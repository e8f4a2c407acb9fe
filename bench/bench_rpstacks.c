/* RpStacks accuracy and speed (docs/rpstacks.md; RpStacks §V-B, Figures 10, 11, 13).
 *
 * For each workload: one run with the rpstacks analysis (rpstacks
 * configuration, fixed environment); the two biggest bottleneck events of the
 * baseline critical path (latencies of 2 or more); the scenarios of §V-B —
 * each halved, each reduced to 10–25%, both together — re-simulated through
 * the runner's process pool (the ground truth); for each, the error of the
 * graph's longest path (Figure 10), RpStacks, CP1 and FMT. Then the speed:
 * analysis seconds and peak memory per million µops (the analysis keeps the
 * whole run, keep=yes, for the graph column: the CLI's streamed analysis holds
 * a few segments; bench/rpstacks_speed_compare.sh measures that), 1000
 * predictions, the break-even number of design points against re-simulation
 * (Figure 13).
 *
 *   bench_rpstacks [--config NAME] [--warmup N] [--max N] [--segment N] [--similarity S] [--max-scale X]
 *                  [--max-stacks N] [--no-unique] [--unique event|combination] [--jobs N]
 *                  [--point 'KEY=V[ KEY=V…]']… [--grid K] [--markdown]
 *                  [--check-graph PCT] [--check-avg PCT] [--check-max PCT]
 *                  [name[=ARG]…]      (default: every workload of the manifest, small size)
 *
 * --config NAME: the machine (configs/NAME.ini; default ooo4), for the run and every re-simulation.
 * --point: a design point of latencies (keys as whatif --set's), predicted and re-simulated for
 * every workload instead of the §V-B scenarios (up to MAX_SCEN; e.g. the store buffer's table,
 * --config knl --point memory.latency=100 --point memory.latency=480).
 *
 * --grid K: also a grid of 10 latencies (10%..100% of the base) for each of the three biggest
 * events (1000 points), all predicted (timed), K of them re-simulated.
 * --check-*: exit 1 when the graph's or RpStacks' error exceeds the bound (the tests).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_manifest.h"
#include "emu/emu.h"
#include "rpstacks/rpstacks.h"
#include "runner/runner.h"

enum { MAX_SCEN = 8, MAX_KEYS = 4, METHODS = 4 }; /* graph, RpStacks, CP1, FMT */
static const char *const method_name[METHODS] = {"graph", "RpStacks", "CP1", "FMT"};
enum { CLASSES = 4 };
static const char *const class_name[CLASSES] = {"halved", "10-25%", "both", "given points"};

typedef struct scenario {
    char label[160];
    int cls; /* 0 halved, 1 reduced, 2 both, 3 a --point */
    int nkeys;
    int dim[MAX_KEYS]; /* a representative dimension of each key */
    uint32_t value[MAX_KEYS];
    double sim, pred[METHODS];
} scenario;

typedef struct source_ctx {
    const char *path;
    int argc;
    const char *argv[4];
    emu_t *emu;
} source_ctx;

static uop_source *open_src(void *ctx, cs_error *err) {
    source_ctx *s = ctx;
    emu_options eo;
    memset(&eo, 0, sizeof eo);
    eo.argc = s->argc;
    eo.argv = s->argv;
    eo.env_fixed = true;
    s->emu = emu_create(s->path, &eo, err);
    return s->emu ? emu_source_create(s->emu) : NULL;
}

static bool close_src(void *ctx, uop_source *src, cs_error *err) {
    source_ctx *s = ctx;
    bool ok = emu_state(s->emu) != EMU_FAILED;
    if (!ok) cs_error_set(err, "%s", emu_error(s->emu));
    uop_source_destroy(src);
    emu_destroy(s->emu);
    s->emu = NULL;
    return ok;
}

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long peak_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* The reduced latency of §V-B Figure 11b: 10–25% of the base, at least 1. */
static uint32_t reduced(uint32_t base) {
    uint32_t v = (uint32_t)lround(base * 0.2);
    if (v < 1) v = 1;
    if (v * 4 > base && base >= 4) v = base / 4;
    return v;
}

typedef struct totals {
    double sum[CLASSES][METHODS], max[CLASSES][METHODS];
    int n[CLASSES];
    double all_sum[METHODS], all_max[METHODS];
    int all_n;
} totals;

/* A --point: "KEY=V KEY=V…", each key one of the stacks' events' configuration keys. */
static bool parse_point(const char *text, scenario *s) {
    memset(s, 0, sizeof *s);
    s->cls = 3;
    snprintf(s->label, sizeof s->label, "%s", text);
    char buf[160];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '='), *end;
        if (!eq || s->nkeys == MAX_KEYS) return false;
        *eq = 0;
        unsigned long v = strtoul(eq + 1, &end, 10);
        if (*end || end == eq + 1 || v == 0 || v > UINT32_MAX) return false;
        int dim = -1;
        for (int d = 1; d < RPS_DIMS && dim < 0; d++)
            if (rps_dim_key(d) && !strcmp(rps_dim_key(d), tok)) dim = d;
        if (dim < 0) return false;
        s->dim[s->nkeys] = dim;
        s->value[s->nkeys++] = (uint32_t)v;
    }
    return s->nkeys > 0;
}

int main(int argc, char **argv) {
    uint64_t max = 300000, warmup = 0;
    const char *config_name = "ooo4";
    scenario points[MAX_SCEN];
    int npoints = 0;
    rps_options opt;
    rps_options_default(&opt);
    int jobs = 0, grid_k = 0;
    double gsum[METHODS] = {0}, gmax[METHODS] = {0}, grid_pred_max = 0;
    int gn = 0;
    bool markdown = false;
    double check_graph = -1, check_avg = -1, check_max = -1;
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        const char *a = argv[first];
        const char *v = first + 1 < argc ? argv[first + 1] : "0";
        if (!strcmp(a, "--config")) config_name = v, first++;
        else if (!strcmp(a, "--point")) {
            if (npoints == MAX_SCEN || !parse_point(v, &points[npoints])) {
                fprintf(stderr,
                        "bench_rpstacks: --point '%s': expected KEY=V[ KEY=V…] (at most %d keys, each an event's "
                        "latency key, V ≥ 1; at most %d points)\n",
                        v, MAX_KEYS, MAX_SCEN);
                return 2;
            }
            npoints++, first++;
        } else if (!strcmp(a, "--max")) max = strtoull(v, NULL, 10), first++;
        else if (!strcmp(a, "--warmup")) warmup = strtoull(v, NULL, 10), first++;
        else if (!strcmp(a, "--segment")) opt.segment = (uint32_t)strtoul(v, NULL, 10), first++;
        else if (!strcmp(a, "--similarity")) opt.similarity = strtod(v, NULL), first++;
        else if (!strcmp(a, "--max-scale")) opt.max_scale = strtod(v, NULL), first++;
        else if (!strcmp(a, "--max-stacks")) opt.max_stacks = (uint32_t)strtoul(v, NULL, 10), first++;
        else if (!strcmp(a, "--no-unique")) opt.unique = RPS_UNIQUE_OFF;
        else if (!strcmp(a, "--unique") && rps_unique_parse(v, &opt.unique)) first++;
        else if (!strcmp(a, "--jobs")) jobs = atoi(v), first++;
        else if (!strcmp(a, "--markdown")) markdown = true;
        else if (!strcmp(a, "--grid")) grid_k = atoi(v), first++;
        else if (!strcmp(a, "--check-graph")) check_graph = strtod(v, NULL), first++;
        else if (!strcmp(a, "--check-avg")) check_avg = strtod(v, NULL), first++;
        else if (!strcmp(a, "--check-max")) check_max = strtod(v, NULL), first++;
        else {
            fprintf(stderr, "bench_rpstacks: unknown option %s\n", a);
            return 2;
        }
    }
    bench_workload all[64];
    int n_all = bench_read_manifest(all, 64);
    bench_workload sel[64];
    int n = 0;
    if (first == argc) {
        for (int k = 0; k < n_all; k++) sel[n++] = all[k];
    } else {
        for (int k = first; k < argc && n < 64; k++) {
            bench_workload w;
            memset(&w, 0, sizeof w);
            const char *eq = strchr(argv[k], '=');
            size_t len = eq ? (size_t)(eq - argv[k]) : strlen(argv[k]);
            snprintf(w.name, sizeof w.name, "%.*s", (int)len, argv[k]);
            for (int q = 0; q < n_all; q++)
                if (!strcmp(all[q].name, w.name)) snprintf(w.small, sizeof w.small, "%s", all[q].small);
            if (eq) snprintf(w.small, sizeof w.small, "%s", eq + 1);
            sel[n++] = w;
        }
    }
    if (!rps_max_scale_ok(opt.max_scale)) {
        fprintf(stderr, "bench_rpstacks: --max-scale %g: expected 0 (no bound) or from 1 to %d\n", opt.max_scale,
                RPS_MAX_SCALE);
        return 2;
    }
    char segment_opt[200];
    snprintf(segment_opt, sizeof segment_opt,
             "rpstacks:segment=%u:similarity=%g:unique=%s:max-stacks=%u:max-scale=%.17g:keep=yes", opt.segment,
             opt.similarity, rps_unique_name(opt.unique), opt.max_stacks, opt.max_scale);
    if (!markdown) printf("config: %s; analysis: %s\n", config_name, segment_opt); /* what each run was given */
    else
        printf("<!-- bench_rpstacks on %s, %llu µops after %llu of warm-up -->\n", config_name, (unsigned long long)max,
               (unsigned long long)warmup);
    totals tot;
    memset(&tot, 0, sizeof tot);
    bool failed = false;
    uint64_t violations = 0; /* the graph's constraints that ran past the simulated time, every run */
    double graph_base_max = 0, speed_an = 0, speed_uops = 0, speed_sim = 0, speed_mem = 0, pred1000 = 0;
    double speed_an_wall = 0, speed_sim_wall = 0, speed_walk = 0, speed_record = 0;
    int speed_n = 0;
    if (markdown)
        printf("| workload | CPI | events (base latency) | scenario | simulated CPI | graph | RpStacks | CP1 | FMT |\n"
               "|---|---:|---|---|---:|---:|---:|---:|---:|\n");
    for (int w = 0; w < n; w++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", CYCLESCOPE_WORKLOAD_DIR, sel[w].name);
        source_ctx sc = {path, sel[w].small[0] ? 2 : 1, {path, sel[w].small, NULL, NULL}, NULL};
        uarch_config cfg;
        uarch_config_default(&cfg);
        cs_error err;
        if (!uarch_config_load(&cfg, config_name, &err)) {
            fprintf(stderr, "bench_rpstacks: %s\n", err.msg);
            return 1;
        }
        /* the bare simulation's time, for the break-even point */
        analysis_list none = {0}, with;
        analysis_list_parse(&with, segment_opt, &err);
        run_spec bare = {&cfg, {warmup, max, NULL}, &none, sel[w].name};
        run_result r0, r1;
        double c0 = cpu_now(), w0 = cs_now();
        uop_source *src = open_src(&sc, &err);
        if (!src || !runner_run(&bare, src, &r0, &err)) {
            fprintf(stderr, "bench_rpstacks: %s: %s\n", sel[w].name, err.msg);
            if (src) close_src(&sc, src, &err); /* a run that did not start leaves nothing behind */
            analysis_list_free(&with);
            return 1;
        }
        close_src(&sc, src, &err);
        double sim_seconds = cpu_now() - c0; /* processor time: the machine is shared */
        double sim_wall = cs_now() - w0;
        run_result_free(&r0);
        long mem0 = peak_kb();
        run_spec spec = {&cfg, {warmup, max, NULL}, &with, sel[w].name};
        src = open_src(&sc, &err);
        double t0 = cs_now(), c_run0 = cpu_now();
        bool ran = src && runner_run(&spec, src, &r1, &err);
        if (!ran || !r1.ok) {
            /* nothing ran (err), or the run failed (r1.err) */
            fprintf(stderr, "bench_rpstacks: %s: %s\n", sel[w].name, ran ? r1.err.msg : err.msg);
            if (ran) run_result_free(&r1);
            if (src) close_src(&sc, src, &err);
            analysis_list_free(&with);
            return 1;
        }
        double rps_run_seconds = cs_now() - t0;
        double run_cpu = cpu_now() - c_run0; /* simulation + trace recording + the analysis' threads */
        close_src(&sc, src, &err);
        long mem1 = peak_kb();
        void *an = run_result_analysis(&r1, "rpstacks");
        const rps_result *r = rps_analysis_result(an);
        const rps_trace *trace = rps_analysis_trace(an);
        double ins = (double)r->instructions;
        double gerr = 100.0 * (r->graph_cycles - (double)r1.stats.cycles) / (double)r1.stats.cycles;
        graph_base_max = fmax(graph_base_max, fabs(gerr));
        violations += r->violations;

        /* speed */
        double scale[RPS_DIMS];
        uint32_t lat[RPS_DIMS];
        double t1 = cs_now(), sink = 0;
        for (int p = 0; p < 1000; p++) {
            for (int d = 0; d < RPS_DIMS; d++) scale[d] = d ? 0.25 + (double)((p * 7 + d * 13) % 16) / 8 : 1;
            sink += rps_predict(r, scale);
        }
        double pred_seconds = cs_now() - t1 + (sink < 0 ? 1 : 0);
        /* the floor of any stack reduction: the longest path alone over the same graph (edges and
         * times, no stacks), one thread; and the trace recording on the simulation's thread */
        for (int d = 0; d < RPS_DIMS; d++) scale[d] = 1;
        double c_walk = cpu_now();
        sink += rps_graph_cycles(trace, opt.segment, scale);
        speed_walk += cpu_now() - c_walk + (sink < 0 ? 1 : 0);
        speed_record += fmax(0, run_cpu - sim_seconds - r->cpu_seconds);
        speed_an += r->cpu_seconds;
        speed_an_wall += r->seconds; /* keep=yes: the segments reduced after the run, in parallel */
        speed_sim_wall += sim_wall;
        speed_uops += (double)r->uops;
        speed_sim += sim_seconds;
        speed_mem = fmax(speed_mem, (double)(mem1 - mem0) / 1024.0 / ((double)r->uops / 1e6));
        pred1000 = fmax(pred1000, pred_seconds);
        speed_n++;

        /* the two biggest bottleneck events of the baseline critical path, by configuration key */
        double by_key[RPS_DIMS] = {0};
        for (int d = 1; d < RPS_DIMS; d++) {
            int k = d;
            for (int e = 1; e < d; e++)
                if (!strcmp(rps_dim_key(e), rps_dim_key(d))) k = e;
            if (r->base_latency[d] >= 2) by_key[k] += r->cp1[d];
        }
        int top[2] = {-1, -1};
        for (int d = 1; d < RPS_DIMS; d++) {
            if (by_key[d] <= 0.5) continue;
            if (top[0] < 0 || by_key[d] > by_key[top[0]]) top[1] = top[0], top[0] = d;
            else if (top[1] < 0 || by_key[d] > by_key[top[1]]) top[1] = d;
        }
        scenario sc_list[MAX_SCEN];
        int ns = 0;
        for (int q = 0; q < npoints; q++) sc_list[ns++] = points[q];
        for (int c = 0; c < 2 && !npoints; c++) {
            for (int k = 0; k < 2; k++) {
                if (top[k] < 0) continue;
                scenario *s = &sc_list[ns++];
                memset(s, 0, sizeof *s);
                s->cls = c;
                s->nkeys = 1;
                s->dim[0] = top[k];
                uint32_t b = r->base_latency[top[k]];
                s->value[0] = c == 0 ? (b / 2 ? b / 2 : 1) : reduced(b);
            }
            if (top[1] >= 0) {
                scenario *s = &sc_list[ns++];
                memset(s, 0, sizeof *s);
                s->cls = 2;
                s->nkeys = 2;
                for (int k = 0; k < 2; k++) {
                    uint32_t b = r->base_latency[top[k]];
                    s->dim[k] = top[k];
                    s->value[k] = c == 0 ? (b / 2 ? b / 2 : 1) : reduced(b);
                }
            }
        }
        /* ground truth: the model re-run with the changed latencies, through the pool */
        run_job jobsv[MAX_SCEN];
        job_result res[MAX_SCEN];
        source_ctx srcs[MAX_SCEN];
        for (int q = 0; q < ns; q++) {
            scenario *s = &sc_list[q];
            jobsv[q] = (run_job){0};
            jobsv[q].cfg = cfg;
            s->label[0] = 0;
            for (int k = 0; k < s->nkeys; k++) {
                char as[128];
                snprintf(as, sizeof as, "%s=%u", rps_dim_key(s->dim[k]), s->value[k]);
                uarch_config_set(&jobsv[q].cfg, as, &err);
                size_t len = strlen(s->label);
                snprintf(s->label + len, sizeof s->label - len, "%s%s", k ? " " : "", as);
            }
            srcs[q] = sc;
            jobsv[q].name = s->label;
            jobsv[q].opt = (core_run_options){warmup, max, NULL};
            jobsv[q].source = (run_source){&srcs[q], open_src, close_src, NULL};
            jobsv[q].analyses = &none;
            jobsv[q].program = path;
        }
        if (ns && !runner_pool(jobsv, ns, jobs, res, &err)) {
            fprintf(stderr, "bench_rpstacks: pool: %s\n", err.msg);
            run_result_free(&r1);
            analysis_list_free(&with);
            return 1;
        }
        double cpi = (double)r1.stats.cycles / ins;
        if (!markdown)
            printf("%s: %llu µops, CPI %.4f; graph at baseline %+.3f%%; %u stacks in %u segments; analysis %.2f s\n",
                   sel[w].name, (unsigned long long)r->uops, cpi, gerr, r->stack_count, r->segments, r->seconds);
        for (int q = 0; q < ns; q++) {
            scenario *s = &sc_list[q];
            if (!res[q].ok) {
                fprintf(stderr, "bench_rpstacks: %s\n", res[q].err.msg);
                failed = true;
                job_result_free(&res[q]);
                continue;
            }
            s->sim = (double)res[q].stats.cycles;
            job_result_free(&res[q]);
            memcpy(lat, r->base_latency, sizeof lat);
            for (int k = 0; k < s->nkeys; k++)
                for (int d = 1; d < RPS_DIMS; d++)
                    if (!strcmp(rps_dim_key(d), rps_dim_key(s->dim[k]))) lat[d] = s->value[k];
            rps_scales(r, lat, scale, &err);
            s->pred[0] = rps_graph_cycles(trace, opt.segment, scale);
            s->pred[1] = rps_predict(r, scale);
            s->pred[2] = rps_predict_cp1(r, scale);
            s->pred[3] = rps_predict_fmt(r, scale);
            double e[METHODS];
            for (int m = 0; m < METHODS; m++) {
                e[m] = 100.0 * (s->pred[m] - s->sim) / s->sim;
                tot.sum[s->cls][m] += fabs(e[m]);
                tot.max[s->cls][m] = fmax(tot.max[s->cls][m], fabs(e[m]));
                tot.all_sum[m] += fabs(e[m]);
                tot.all_max[m] = fmax(tot.all_max[m], fabs(e[m]));
            }
            tot.n[s->cls]++;
            tot.all_n++;
            if (check_graph >= 0 && fabs(e[0]) > check_graph) failed = true;
            if (check_max >= 0 && fabs(e[1]) > check_max) failed = true;
            if (markdown) {
                char events[160];
                snprintf(events, sizeof events, "%s (%u), %s (%u)", top[0] > 0 ? rps_dim_key(top[0]) : "-",
                         top[0] > 0 ? r->base_latency[top[0]] : 0, top[1] > 0 ? rps_dim_key(top[1]) : "-",
                         top[1] > 0 ? r->base_latency[top[1]] : 0);
                char cpis[32];
                snprintf(cpis, sizeof cpis, "%.3f", cpi);
                printf("| %s | %s | %s | %s | %.3f | %+.2f%% | %+.2f%% | %+.2f%% | %+.2f%% |\n", q ? "" : sel[w].name,
                       q ? "" : cpis, q ? "" : events, s->label, s->sim / ins, e[0], e[1], e[2], e[3]);
            } else {
                printf("  %-44s simulated %8.4f  graph %+7.2f%%  RpStacks %+7.2f%%  CP1 %+7.2f%%  FMT %+7.2f%%\n",
                       s->label, s->sim / ins, e[0], e[1], e[2], e[3]);
            }
        }
        if (grid_k > 0) {
            int g3[3], m = 0;
            bool used[RPS_DIMS] = {0};
            for (; m < 3; m++) {
                int best = -1;
                for (int d = 1; d < RPS_DIMS; d++)
                    if (!used[d] && by_key[d] > 0.5 && (best < 0 || by_key[d] > by_key[best])) best = d;
                if (best < 0) break;
                used[best] = true;
                g3[m] = best;
            }
            long np = 1;
            for (int a = 0; a < m; a++) np *= 10;
            double *gp = cs_calloc((size_t)np * METHODS, sizeof *gp);
            uint32_t(*glat)[RPS_DIMS] = cs_calloc((size_t)np, sizeof *glat);
            double tg = cs_now();
            for (long p = 0; p < np; p++) {
                memcpy(glat[p], r->base_latency, sizeof glat[p]);
                long q = p;
                for (int a = 0; a < m; a++, q /= 10) {
                    uint32_t b = r->base_latency[g3[a]], v = (uint32_t)lround(b * (double)(q % 10 + 1) / 10);
                    for (int d = 1; d < RPS_DIMS; d++)
                        if (!strcmp(rps_dim_key(d), rps_dim_key(g3[a]))) glat[p][d] = v ? v : 1;
                }
                rps_scales(r, glat[p], scale, &err);
                gp[p * METHODS + 1] = rps_predict(r, scale);
                gp[p * METHODS + 2] = rps_predict_cp1(r, scale);
                gp[p * METHODS + 3] = rps_predict_fmt(r, scale);
            }
            double grid_seconds = cs_now() - tg;
            grid_pred_max = fmax(grid_pred_max, grid_seconds);
            int k = grid_k < np ? grid_k : (int)np;
            run_job *gj = cs_calloc((size_t)k, sizeof *gj);
            job_result *gr = cs_calloc((size_t)k, sizeof *gr);
            source_ctx *gs = cs_calloc((size_t)k, sizeof *gs);
            long *pick = cs_calloc((size_t)k, sizeof *pick);
            for (int q = 0; q < k; q++) {
                pick[q] = k == 1 ? np / 2 : (long)llround((double)q * (double)(np - 1) / (k - 1));
                gj[q].cfg = cfg;
                for (int a = 0; a < m; a++) {
                    char as[128];
                    snprintf(as, sizeof as, "%s=%u", rps_dim_key(g3[a]), glat[pick[q]][g3[a]]);
                    uarch_config_set(&gj[q].cfg, as, &err);
                }
                gs[q] = sc;
                gj[q].name = "grid point";
                gj[q].opt = (core_run_options){warmup, max, NULL};
                gj[q].source = (run_source){&gs[q], open_src, close_src, NULL};
                gj[q].analyses = &none;
                gj[q].program = path;
            }
            double wsum[METHODS] = {0}, wmax[METHODS] = {0};
            int wn = 0;
            if (runner_pool(gj, k, jobs, gr, &err)) {
                for (int q = 0; q < k; q++) {
                    if (!gr[q].ok) {
                        failed = true;
                        job_result_free(&gr[q]);
                        continue;
                    }
                    double sim = (double)gr[q].stats.cycles;
                    job_result_free(&gr[q]);
                    rps_scales(r, glat[pick[q]], scale, &err);
                    gp[pick[q] * METHODS] = rps_graph_cycles(trace, opt.segment, scale);
                    for (int me = 0; me < METHODS; me++) {
                        double e = fabs(100.0 * (gp[pick[q] * METHODS + me] - sim) / sim);
                        wsum[me] += e, wmax[me] = fmax(wmax[me], e);
                        gsum[me] += e, gmax[me] = fmax(gmax[me], e);
                    }
                    wn++, gn++;
                }
            } else {
                failed = true;
            }
            if (wn) {
                printf("%s  grid of %ld points over", markdown ? "<!-- " : "", np);
                for (int a = 0; a < m; a++) printf(" %s", rps_dim_key(g3[a]));
                printf(": predicted in %.2f ms; %d re-simulated: avg/max |error| graph %.2f/%.2f%%, RpStacks "
                       "%.2f/%.2f%%, CP1 %.2f/%.2f%%, FMT %.2f/%.2f%%%s\n",
                       grid_seconds * 1e3, wn, wsum[0] / wn, wmax[0], wsum[1] / wn, wmax[1], wsum[2] / wn, wmax[2],
                       wsum[3] / wn, wmax[3], markdown ? " -->" : "");
            }
            free(gp);
            free(glat);
            free(gj);
            free(gr);
            free(gs);
            free(pick);
        }
        if (!markdown)
            printf("  speed: simulation %.2f s, with rpstacks %.2f s (analysis %.2f s, processor %.2f s), 1000 "
                   "predictions "
                   "%.2f ms, peak +%.0f MB\n",
                   sim_seconds, rps_run_seconds, r->seconds, r->cpu_seconds, pred_seconds * 1e3,
                   (double)(mem1 - mem0) / 1024.0);
        fflush(stdout);
        run_result_free(&r1);
        analysis_list_free(&with);
    }
    printf("\n| scenario class | points | graph avg / max | RpStacks avg / max | CP1 avg / max | FMT avg / max |\n"
           "|---|---:|---:|---:|---:|---:|\n");
    for (int c = 0; c < CLASSES; c++) {
        if (!tot.n[c]) continue;
        printf("| %s | %d |", class_name[c], tot.n[c]);
        for (int m = 0; m < METHODS; m++) printf(" %.2f%% / %.2f%% |", tot.sum[c][m] / tot.n[c], tot.max[c][m]);
        printf("\n");
    }
    if (gn) {
        printf("| grid (%d of 1000 per workload) | %d |", grid_k, gn);
        for (int m = 0; m < METHODS; m++) printf(" %.2f%% / %.2f%% |", gsum[m] / gn, gmax[m]);
        printf("\n");
    }
    if (tot.all_n) {
        printf("| all (%s) | %d |", npoints ? "given points" : "§V-B scenarios", tot.all_n);
        for (int m = 0; m < METHODS; m++) printf(" %.2f%% / %.2f%% |", tot.all_sum[m] / tot.all_n, tot.all_max[m]);
        printf("\n");
    }
    if (speed_n) {
        double an_per_m = speed_an / (speed_uops / 1e6), sim_per_m = speed_sim / (speed_uops / 1e6);
        double per_point = sim_per_m; /* a re-simulation of the same instructions */
        double breakeven = (sim_per_m + an_per_m) / per_point;
        /* The break-even in processor time is the machine's cost and does not depend on how many
         * processors the segments found free (the development machine is shared); in wall time it
         * is what a user waits, the segments reduced by `threads` threads at once. */
        double an_wall_per_m = speed_an_wall / (speed_uops / 1e6), sim_wall_per_m = speed_sim_wall / (speed_uops / 1e6);
        double breakeven_wall = (sim_wall_per_m + an_wall_per_m) / sim_wall_per_m;
        printf("\nspeed (%d workloads, %.2f M µops): analysis %.2f processor-s per M µops (%u threads, 0: all), "
               "simulation %.2f s per M, "
               "peak memory +%.0f MB per M µops (worst), 1000 predictions %.2f ms (worst); break-even against "
               "re-simulation at %.1f design points\n",
               speed_n, speed_uops / 1e6, an_per_m, opt.threads, sim_per_m, speed_mem, pred1000 * 1e3, breakeven);
        printf("wall time: analysis %.2f s per M µops (the segments in parallel), simulation %.2f s per M; break-even "
               "at %.1f design points\n",
               an_wall_per_m, sim_wall_per_m, breakeven_wall);
        /* what no reduction can remove: recording the trace (on the simulation's thread, not in the
         * analysis' time above) and the longest path alone (no stacks) */
        double walk_per_m = speed_walk / (speed_uops / 1e6), record_per_m = speed_record / (speed_uops / 1e6);
        printf("floor: trace recording %.2f processor-s per M µops (not in the analysis' time), the longest path "
               "alone (graph edges, no stacks, one thread) %.2f; break-even with stacks for free at %.1f design "
               "points\n",
               record_per_m, walk_per_m, (sim_per_m + record_per_m + walk_per_m) / per_point);
        if (gn)
            printf("a 1000-point grid (scales computed, three methods) predicted in %.2f ms (worst)\n",
                   grid_pred_max * 1e3);
    }
    printf("graph at the baseline: max |error| %.4f%%, %llu constraint violations\n", graph_base_max,
           (unsigned long long)violations);
    /* the graph is the simulated run at the baseline (Figure 10): a violation is a modelling error */
    if (check_graph >= 0 && (violations || graph_base_max > 1e-6)) failed = true;
    if (check_avg >= 0 && tot.all_n && tot.all_sum[1] / tot.all_n > check_avg) failed = true;
    if (failed) printf("FAILED: an error exceeds its bound (or a run failed)\n");
    (void)method_name;
    return failed ? 1 : 0;
}
