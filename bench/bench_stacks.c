/* Slowdown of a timing run with the stacks observer attached (Eyerman et al.
 * §IV: under 1% in Sniper; our goal: below 5%).
 *
 *   bench_stacks [--config NAME] [--reps N] [name[=ARG]…]
 *       default: rpstacks, 5 repetitions, every workload of the manifest at its small size
 *
 * Each workload is timed with no observer ("off") and with the stacks observer
 * ("on"), alternately, N times each; the figure per workload is the minimum of
 * each (the least disturbed run on a shared machine). A third run per round
 * ("views") attaches an observer that ignores the views: the share of the
 * overhead that is the core's, building views. "On" includes what the
 * core does only when an observer wants cycle views (building the views, finding
 * the blamed µops) plus the observer itself. The time is the core's timed part
 * (core_stats.seconds), which includes the emulator feeding it live. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_manifest.h"
#include "emu/emu.h"
#include "stacks/stacks.h"

static FILE *out;

/* An observer that takes the cycle views and does nothing: what the core
 * spends building them, apart from the stacks accounting. */
static void null_cycle(void *ctx, const cycle_view *v) {
    (void)ctx;
    (void)v;
}

enum mode { OFF, VIEWS, ON };

static double time_run(const uarch_config *cfg, const char *path, const char *arg, enum mode mode, uint64_t *insns) {
    static const char *const env[] = {"LANG=C", NULL};
    const char *argv[] = {path, arg, NULL};
    emu_options eo = {.argc = arg ? 2 : 1, .argv = argv, .envp = env, .quiet = true};
    cs_error err;
    emu_t *e = emu_create(path, &eo, &err);
    if (!e) {
        fprintf(stderr, "bench_stacks: %s\n", err.msg);
        exit(1);
    }
    uop_source *src = emu_source_create(e);
    core_t *core = core_create(cfg, &err);
    if (!core) {
        fprintf(stderr, "bench_stacks: %s\n", err.msg);
        exit(1);
    }
    stacks_observer *so = NULL;
    if (mode == ON) {
        so = stacks_observer_create();
        probe_observer p = stacks_observer_probe(so);
        core_observe(core, &p);
    } else if (mode == VIEWS) {
        probe_observer p = {NULL, NULL, null_cycle, NULL, NULL};
        core_observe(core, &p);
    }
    core_stats st;
    core_run_options ro = {0, 0, NULL};
    if (!core_run(core, src, &ro, &st, &err)) {
        fprintf(stderr, "bench_stacks: %s: %s\n", path, err.msg);
        exit(1);
    }
    *insns = st.instructions;
    stacks_observer_destroy(so);
    core_destroy(core);
    uop_source_destroy(src);
    emu_destroy(e);
    return st.seconds;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    const char *config = "rpstacks";
    int reps = 5, n = 0;
    bench_workload items[64];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--config") && i + 1 < argc) config = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (n < 64) {
            const char *eq = strchr(argv[i], '=');
            snprintf(items[n].name, sizeof items[n].name, "%.*s", eq ? (int)(eq - argv[i]) : 63, argv[i]);
            snprintf(items[n].small, sizeof items[n].small, "%s", eq ? eq + 1 : "");
            n++;
        }
    }
    if (!n) n = bench_read_manifest(items, 64);
    if (reps < 1) reps = 1;
    /* the guests' own output goes to /dev/null; ours to the real stdout */
    out = fdopen(dup(STDOUT_FILENO), "w");
    int null = open("/dev/null", O_WRONLY);
    if (!out || null < 0) return 1;
    dup2(null, STDOUT_FILENO);

    uarch_config cfg;
    cs_error err;
    uarch_config_default(&cfg);
    if (!uarch_config_load(&cfg, config, &err)) {
        fprintf(stderr, "bench_stacks: %s\n", err.msg);
        return 1;
    }
    fprintf(out, "stacks observer overhead on %s, min of %d runs each (core's timed part, emulator feeding live)\n",
            cfg.name, reps);
    fprintf(out, "%-14s %-8s %10s %9s %9s %9s %9s %9s\n", "workload", "arg", "insns", "off s", "views s", "on s",
            "views", "overhead");
    double sum_off = 0, sum_on = 0, sum_views = 0, ratios[64];
    for (int w = 0; w < n; w++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", CYCLESCOPE_WORKLOAD_DIR, items[w].name);
        const char *arg = items[w].small[0] ? items[w].small : NULL;
        double off = 1e30, on = 1e30, views = 1e30;
        uint64_t insns = 0;
        for (int r = 0; r < reps; r++) {
            double t = time_run(&cfg, path, arg, OFF, &insns);
            if (t < off) off = t;
            t = time_run(&cfg, path, arg, VIEWS, &insns);
            if (t < views) views = t;
            t = time_run(&cfg, path, arg, ON, &insns);
            if (t < on) on = t;
        }
        ratios[w] = on / off - 1;
        sum_off += off;
        sum_on += on;
        sum_views += views;
        fprintf(out, "%-14s %-8s %10llu %9.3f %9.3f %9.3f %8.2f%% %8.2f%%\n", items[w].name, arg ? arg : "-",
                (unsigned long long)insns, off, views, on, 100 * (views / off - 1), 100 * ratios[w]);
        fflush(out);
    }
    qsort(ratios, (size_t)n, sizeof ratios[0], cmp_double);
    double median = n % 2 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
    fprintf(out,
            "total: off %.3f s, views only %.3f s (%.2f%%), on %.3f s: overhead %.2f%%; median per workload %.2f%% "
            "(goal: below 5%%)\n",
            sum_off, sum_views, 100 * (sum_views / sum_off - 1), sum_on, 100 * (sum_on / sum_off - 1), 100 * median);
    return 0;
}
