/* What DCPI-style sampling costs and how long the analysis takes (issue 16):
 * each workload timed with no observer and with the profile sampler
 * (the "profile" analysis: CYCLES samples at a randomised period, written to a
 * profile file at the end), alternately, min of N runs each, ratios from this
 * one run; then every workload's profile analysed (profile_analyse), timed.
 *
 *   bench_profile [--config NAME] [--reps N] [--period P|MIN-MAX] [name[=ARG]…]
 *       default: ooo4, 3 repetitions, DCPI's 60000-64000, every workload of
 *       the manifest at its small size; a NAME without =ARG also runs at the
 *       manifest's small size (as the other benches), NAME=ARG with ARG
 *       (NAME= with none)
 *
 * Goals: sampling overhead < 2% over the run without it; the analysis of every
 * workload's profile < 10 s in total. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_manifest.h"
#include "emu/emu.h"
#include "profile/profile.h"
#include "runner/runner.h"
#include "uarch/uarch.h"

static double time_run(const uarch_config *cfg, const char *path, const char *arg, const char *profile_out,
                       const char *period) {
    static const char *const env[] = {"LANG=C", NULL};
    const char *argv[] = {path, arg, NULL};
    emu_options eo = {.argc = arg ? 2 : 1, .argv = argv, .envp = env, .quiet = true};
    cs_error err;
    emu_t *e = emu_create(path, &eo, &err);
    if (!e) {
        fprintf(stderr, "bench_profile: %s\n", err.msg);
        exit(1);
    }
    analysis_list list = {0};
    if (profile_out &&
        (!analysis_list_add(&list, "profile", "file", profile_out, &err) ||
         !analysis_list_add(&list, "profile", "exe", path, &err) ||
         !analysis_list_add(&list, "profile", "period", period, &err))) {
        fprintf(stderr, "bench_profile: %s\n", err.msg);
        exit(1);
    }
    uop_source *src = emu_source_create(e);
    run_spec spec = {cfg, {0, 0, NULL}, &list, path};
    run_result r;
    if (!runner_run(&spec, src, &r, &err) || !r.ok) {
        fprintf(stderr, "bench_profile: %s: %s\n", path, r.ok ? err.msg : r.err.msg);
        exit(1);
    }
    double s = r.stats.seconds;
    run_result_free(&r);
    analysis_list_free(&list);
    uop_source_destroy(src);
    emu_destroy(e);
    return s;
}

int main(int argc, char **argv) {
    const char *config = "ooo4", *period = "60000-64000";
    int reps = 3, n = 0;
    bench_workload items[64];
    bool arg_given[64] = {false}; /* NAME=ARG: ARG as given, even empty */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--config") && i + 1 < argc) config = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--period") && i + 1 < argc) period = argv[++i];
        else if (n < 64) {
            arg_given[n] = strchr(argv[i], '=') != NULL;
            items[n++] = bench_workload_from_arg(argv[i]);
        }
    }
    bench_workload all[64];
    int n_all = bench_read_manifest(all, 64);
    if (!n) {
        memcpy(items, all, sizeof all);
        n = n_all;
    }
    for (int i = 0; i < n; i++) /* a NAME without =ARG: the manifest's small size */
        if (!arg_given[i])
            for (int k = 0; k < n_all; k++)
                if (!strcmp(all[k].name, items[i].name)) memcpy(items[i].small, all[k].small, sizeof all[k].small);
    if (reps < 1) reps = 1;
    FILE *out = fdopen(dup(STDOUT_FILENO), "w");
    int null = open("/dev/null", O_WRONLY);
    if (!out || null < 0) return 1;
    dup2(null, STDOUT_FILENO);
    uarch_config cfg;
    cs_error err;
    uarch_config_default(&cfg);
    if (!uarch_config_load(&cfg, config, &err)) {
        fprintf(stderr, "bench_profile: %s\n", err.msg);
        return 1;
    }
    char dir[] = "/tmp/bench_profile_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    fprintf(out, "sampling overhead on %s, period %s, min of %d runs per mode (core's timed part, emulator live)\n",
            cfg.name, period, reps);
    fprintf(out, "%-14s %-8s %10s %10s %9s %9s %10s %8s\n", "workload", "arg", "none s", "profile s", "overhead",
            "samples", "analysis s", "procs");
    double sum_none = 0, sum_prof = 0, sum_analysis = 0, worst = -1;
    const char *worst_name = "";
    for (int w = 0; w < n; w++) {
        char path[512], prof[600];
        snprintf(path, sizeof path, "%s/%s", CYCLESCOPE_WORKLOAD_DIR, items[w].name);
        snprintf(prof, sizeof prof, "%s/%s.prof", dir, items[w].name);
        const char *arg = items[w].small[0] ? items[w].small : NULL;
        double best_none = 1e30, best_prof = 1e30;
        for (int r = 0; r < reps; r++) {
            double t = time_run(&cfg, path, arg, NULL, period);
            if (t < best_none) best_none = t;
            t = time_run(&cfg, path, arg, prof, period);
            if (t < best_prof) best_prof = t;
        }
        double ratio = best_prof / best_none - 1;
        if (ratio > worst) worst = ratio, worst_name = items[w].name;
        sum_none += best_none;
        sum_prof += best_prof;
        profile_analysis *a = profile_analyse(prof, path, NULL, &err);
        double at = a ? a->seconds : 0;
        sum_analysis += at;
        fprintf(out, "%-14s %-8s %10.4f %10.4f %8.2f%% %9llu %10.4f %8zu%s%s\n", items[w].name, arg ? arg : "-",
                best_none, best_prof, 100 * ratio, a ? (unsigned long long)a->prof.samples : 0ull, at,
                a ? a->nprocs : 0, a ? "" : "  analysis: ", a ? "" : err.msg);
        fflush(out);
        profile_analysis_free(a);
        unlink(prof);
    }
    rmdir(dir);
    fprintf(out, "sampling over none: total %+.2f%%, worst %+.2f%% (%s)  goal: < 2%%\n",
            100 * (sum_prof / sum_none - 1), 100 * worst, worst_name);
    fprintf(out, "analysis of every profile: %.3f s in total  goal: < 10 s\n", sum_analysis);
    return 0;
}
