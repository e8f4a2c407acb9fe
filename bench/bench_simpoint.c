/* SimPoint accuracy and cost: for each workload, the CPI of the full
 * detailed run against the SimPoint estimate (BBVs, clustering, warmed
 * detailed runs of the points, weighted), and how many fewer instructions the
 * estimate timed in detail. Prints the Markdown table of docs/simpoint.md.
 *
 *   bench_simpoint [--config NAME] [--interval N] [--warmup N|all] [--max-k N] [--jobs N]
 *                  [--check-avg F --check-worst F --check-fewer X] [name[=ARGS]…]
 *
 * ARGS: the workload's arguments, commas for spaces (polybench_like=2,3).
 * The full run goes in a child process while the parent profiles and times
 * the points (--jobs at a time, default 1), so the two halves share the
 * machine's two cores.
 * --check-avg/--check-worst: exit 1 if the average (worst) |CPI error| is
 * above F (fractions); --check-fewer: if a workload timed in detail more than
 * 1/X of its instructions (the test simpoint.accuracy). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu/emu.h"
#include "runner/runner.h"
#include "sampling/sampling.h"
#include "stacks/stacks.h"

typedef struct full_result {
    bool ok;
    core_stats stats;
    stacks_result stacks;
    char error[512];
} full_result;

typedef struct workload {
    char name[64];
    const char *argv[16];
    int argc;
    char storage[512];
} workload;

static const char *const guest_env[] = {"LANG=C", NULL};

static emu_t *start(const workload *w, cs_error *err) {
    emu_options eo = {.argc = w->argc, .argv = w->argv, .envp = guest_env, .quiet = true};
    return emu_create(w->argv[0], &eo, err);
}

/* The guests print a line or two; keep them off the table. */
static void quiet_stdout(void) {
    fflush(stdout);
    FILE *f = freopen("/dev/null", "w", stdout);
    (void)f;
}

static full_result full_run(const workload *w, const uarch_config *cfg) {
    full_result r;
    memset(&r, 0, sizeof r);
    cs_error err = {{0}};
    emu_t *e = start(w, &err);
    if (e) {
        uop_source *src = emu_source_create(e);
        analysis_list list = {0};
        run_spec spec = {cfg, {0, 0, NULL}, &list, w->name};
        run_result run;
        r.ok = analysis_list_parse(&list, "stacks", &err) && runner_run(&spec, src, &run, &err);
        if (r.ok) {
            r.ok = run.ok;
            err = run.err;
            r.stats = run.stats;
            r.stacks = *stacks_observer_result(run_result_analysis(&run, "stacks"));
            run_result_free(&run);
        }
        analysis_list_free(&list);
        if (r.ok && emu_state(e) == EMU_FAILED) r.ok = false, cs_error_set(&err, "%s", emu_error(e));
        uop_source_destroy(src);
        emu_destroy(e);
    }
    if (!r.ok) snprintf(r.error, sizeof r.error, "%s", err.msg);
    return r;
}

typedef struct sampled {
    bool ok;
    char error[512];
    size_t intervals, points;
    uint32_t k;
    uint64_t instructions, detailed, warmed;
    core_stats stats;
    stacks_result stacks;
    double profile_s, cluster_s, time_s;
} sampled;

static sampled sampled_run(const workload *w, const uarch_config *cfg, uint64_t interval, uint64_t warmup,
                           const simpoint_options *so, int jobs) {
    sampled s;
    memset(&s, 0, sizeof s);
    cs_error err = {{0}};
    double t0 = cs_now();
    emu_t *e = start(w, &err);
    bbv_profile *p = e ? bbv_collect_emu(e, interval, w->name, &err) : NULL;
    emu_destroy(e);
    if (!p) {
        snprintf(s.error, sizeof s.error, "%s", err.msg);
        return s;
    }
    double t1 = cs_now();
    simpoint_result r;
    if (!simpoint_cluster(p, so, &r, &err)) {
        snprintf(s.error, sizeof s.error, "%s", err.msg);
        bbv_profile_free(p);
        return s;
    }
    double t2 = cs_now();
    /* the set as run --simpoints would load it */
    simpoint_set set = {0};
    set.interval = p->interval;
    set.instructions = p->instructions;
    set.interval_count = p->interval_count;
    set.k = r.k;
    set.count = r.point_count;
    set.points = r.points;
    for (size_t i = 1; i < set.count; i++) /* sort by start (insertion: few points) */
        for (size_t j = i; j > 0 && set.points[j].start < set.points[j - 1].start; j--) {
            simpoint_point t = set.points[j];
            set.points[j] = set.points[j - 1];
            set.points[j - 1] = t;
        }
    simpoint_timing *pts = calloc(set.count, sizeof *pts);
    e = start(w, &err);
    simpoint_stream from = {e, NULL};
    s.ok = e && simpoint_time(&set, &from, cfg, warmup, jobs, pts, &err);
    if (s.ok) {
        simpoint_combine(&set, pts, &s.stats, &s.stacks);
        for (size_t i = 0; i < set.count; i++) s.detailed += pts[i].stats.instructions, s.warmed += pts[i].warmed;
    } else {
        snprintf(s.error, sizeof s.error, "%s", err.msg);
    }
    emu_destroy(e);
    s.time_s = cs_now() - t2;
    s.profile_s = t1 - t0;
    s.cluster_s = t2 - t1;
    s.intervals = p->interval_count;
    s.points = r.point_count;
    s.k = r.k;
    s.instructions = p->instructions;
    free(pts);
    simpoint_result_free(&r);
    bbv_profile_free(p);
    return s;
}

static void parse_workload(workload *w, const char *spec) {
    memset(w, 0, sizeof *w);
    snprintf(w->storage, sizeof w->storage, "%s", spec);
    char *eq = strchr(w->storage, '=');
    if (eq) *eq = 0;
    snprintf(w->name, sizeof w->name, "%.63s", w->storage);
    static char paths[64][1024];
    static int used;
    char *path = paths[used++ % 64];
    snprintf(path, 1024, "%s/%.500s", CYCLESCOPE_WORKLOAD_DIR, w->storage);
    w->argv[w->argc++] = path;
    if (eq) {
        for (char *tok = strtok(eq + 1, ","); tok && w->argc < 15; tok = strtok(NULL, ",")) w->argv[w->argc++] = tok;
    }
}

int main(int argc, char **argv) {
    const char *config = "ooo4";
    uint64_t interval = 1000000, warmup = SIMPOINT_WARM_ALL;
    double check_avg = -1, check_worst = -1, check_fewer = -1, fewest = INFINITY;
    int jobs = 1;
    simpoint_options so;
    simpoint_options_default(&so);
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first += 2) { /* an option and its value */
        const char *a = argv[first];
        const char *v = first + 1 < argc ? argv[first + 1] : NULL;
        if (!v) break;
        if (!strcmp(a, "--config")) config = v;
        else if (!strcmp(a, "--interval")) cs_parse_count(v, &interval);
        else if (!strcmp(a, "--warmup")) {
            if (!strcmp(v, "all")) warmup = SIMPOINT_WARM_ALL;
            else cs_parse_count(v, &warmup);
        } else if (!strcmp(a, "--max-k")) so.max_k = (uint32_t)atoi(v);
        else if (!strcmp(a, "--jobs")) jobs = atoi(v);
        else if (!strcmp(a, "--check-avg")) check_avg = atof(v);
        else if (!strcmp(a, "--check-worst")) check_worst = atof(v);
        else if (!strcmp(a, "--check-fewer")) check_fewer = atof(v);
        else {
            fprintf(stderr, "bench_simpoint: unknown option %s\n", a);
            return 2;
        }
    }
    static const char *const defaults[] = {"coremark_like=3500", "polybench_like=190", "embench_like=100",
                                           "sort=1500000",       "stencil=2048",       "tree=600000",
                                           "interp=60000"};
    int count = first < argc ? argc - first : (int)(sizeof defaults / sizeof defaults[0]);
    uarch_config cfg;
    cs_error err;
    uarch_config_default(&cfg);
    if (!uarch_config_load(&cfg, config, &err)) {
        fprintf(stderr, "bench_simpoint: %s\n", err.msg);
        return 2;
    }
    char warm[64];
    if (warmup == SIMPOINT_WARM_ALL) snprintf(warm, sizeof warm, "everything before each point");
    else snprintf(warm, sizeof warm, "%" PRIu64 " instructions before each point", warmup);
    printf("SimPoint on %s: interval %" PRIu64 ", functional warm-up of %s, max k %u\n\n", cfg.name, interval, warm,
           so.max_k);
    printf("| workload | instructions | intervals | k | detailed (x fewer) | full CPI | SimPoint CPI | CPI error | "
           "worst stack component error | full run s | SimPoint s (profile + cluster + points) |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    fflush(stdout);
    int saved = dup(1);
    double sum_err = 0, worst = 0;
    int done = 0;
    bool failed = false;
    for (int i = 0; i < count; i++) {
        workload w;
        parse_workload(&w, first < argc ? argv[first + i] : defaults[i]);
        int fds[2];
        if (pipe(fds) != 0) return 1;
        quiet_stdout();
        double t0 = cs_now();
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            full_result r = full_run(&w, &cfg);
            ssize_t n = write(fds[1], &r, sizeof r);
            _exit(n == (ssize_t)sizeof r ? 0 : 1);
        }
        close(fds[1]);
        sampled s = sampled_run(&w, &cfg, interval, warmup, &so, jobs);
        double sampled_s = cs_now() - t0;
        full_result f;
        memset(&f, 0, sizeof f);
        size_t got = 0;
        while (got < sizeof f) {
            ssize_t n = read(fds[0], (char *)&f + got, sizeof f - got);
            if (n <= 0) break;
            got += (size_t)n;
        }
        close(fds[0]);
        int status;
        waitpid(pid, &status, 0);
        double full_s = f.stats.seconds;
        (void)sampled_s;
        fflush(stdout);
        dup2(saved, 1);
        char args[256] = "";
        for (int a = 1; a < w.argc; a++) snprintf(args + strlen(args), sizeof args - strlen(args), " %s", w.argv[a]);
        if (got != sizeof f || !f.ok || !s.ok) {
            printf("| %s%s | failed: %s | | | | | | | | | |\n", w.name, args,
                   got != sizeof f ? "full run died"
                       : !f.ok     ? f.error
                                   : s.error);
            failed = true;
            fflush(stdout);
            continue;
        }
        double full_cpi = (double)f.stats.cycles / (double)f.stats.instructions;
        double est_cpi = (double)s.stats.cycles / (double)s.stats.instructions;
        double e = (est_cpi - full_cpi) / full_cpi;
        /* every component of the three CPI stacks, as CPI, against the full run */
        double worst_comp = 0;
        for (int st = 0; st < STACK_STAGES; st++)
            for (int c = 0; c < COMP_COUNT; c++) {
                double a = f.stacks.stage[st].cycles[c] / (double)f.stacks.instructions;
                double b = s.stacks.stage[st].cycles[c] / (double)s.stacks.instructions;
                if (fabs(a - b) > worst_comp) worst_comp = fabs(a - b);
            }
        printf("| %s%s | %.1f M | %zu | %u | %.1f M (%.1fx) | %.4f | %.4f | %+.2f%% | %.4f CPI | %.1f | %.1f + %.2f + "
               "%.1f |\n",
               w.name, args, s.instructions / 1e6, s.intervals, s.k, s.detailed / 1e6,
               (double)s.instructions / (double)s.detailed, full_cpi, est_cpi, 100 * e, worst_comp, full_s, s.profile_s,
               s.cluster_s, s.time_s);
        fflush(stdout);
        sum_err += fabs(e);
        double fewer = (double)s.instructions / (double)s.detailed;
        if (fewer < fewest) fewest = fewer;
        if (fabs(e) > worst) worst = fabs(e);
        done++;
    }
    if (done)
        printf("\naverage |CPI error| %.2f%%, worst %.2f%% over %d workloads\n", 100 * sum_err / done, 100 * worst,
               done);
    if (failed) return 1;
    if (check_avg >= 0 && done && sum_err / done > check_avg) return 1;
    if (check_worst >= 0 && worst > check_worst) return 1;
    if (check_fewer >= 0 && fewest < check_fewer) return 1;
    return 0;
}
