/* What Stallscope costs (docs/stallscope.md): the same timing run with no
 * analysis ("none"), with the stacks ("stacks"), with Stallscope's observer
 * subscribed to what it needs but doing nothing with it ("floor": what the
 * core spends producing the probes, src/uarch and src/probes) and with
 * Stallscope alone ("stallscope"; its engine's own share is stallscope - floor),
 * each in a process of its own (fork) so that its peak
 * resident memory is its own; modes alternated, N repetitions, the minimum
 * CPU time of each (the process's, around the run: the emulator, the model and
 * the analysis); ratios from this one run. Goals (issue 13): time <= 1.10x and
 * peak memory <= 1.5x the run without Stallscope.
 *
 *   bench_stallscope [--config NAME] [--reps N] [--max N] [name[=ARG]…]
 *       default: ooo4, 3 repetitions, 2 M instructions, a few workloads at their small size
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu.h"
#include "runner/runner.h"
#include "stallscope/stallscope.h"

enum { MODES = 4 };
static const char *const modes[MODES] = {"none", "stacks", "floor", "stallscope"};

/* "floor": the stallscope analysis's observer (its needs, its interval) with callbacks that
 * return at once */
static const analysis_ops *real_ss;
static void *floor_create(const analysis_options *opt, cs_error *err) { return real_ss->create(opt, err); }
static void floor_begin(void *ctx, const probe_run_info *info) { (void)ctx, (void)info; }
static void floor_stages(void *ctx, const stage_span *sp, size_t n) { (void)ctx, (void)sp, (void)n; }
static void floor_retire(void *ctx, const uop_record *r, size_t n) { (void)ctx, (void)r, (void)n; }
static void floor_waits(void *ctx, const wait_transition *w, size_t n) { (void)ctx, (void)w, (void)n; }
static void floor_interval(void *ctx, const core_stats *st) { (void)ctx, (void)st; }
static void floor_end(void *ctx, const core_stats *st) { (void)ctx, (void)st; }
static probe_observer floor_observer(void *self) {
    probe_observer o = real_ss->observer(self);
    o.begin = floor_begin;
    o.stages = floor_stages;
    o.retire = floor_retire;
    o.waits = floor_waits;
    o.interval = floor_interval;
    o.end = floor_end;
    return o;
}
static bool floor_finish(void *self, const run_context *run, cs_error *err) {
    return (void)self, (void)run, (void)err, true;
}
static void floor_destroy(void *self) { real_ss->destroy(self); }
static const analysis_ops floor_ops = {.name = "floor",
                                       .create = floor_create,
                                       .observer = floor_observer,
                                       .finish = floor_finish,
                                       .destroy = floor_destroy};

typedef struct sample {
    double seconds;
    long maxrss_kb;
    uint64_t insns, engine_bytes;
} sample;

static sample run_child(const uarch_config *cfg, const char *path, const char *arg, const char *mode, uint64_t max) {
    int fd[2];
    sample out = {0};
    if (pipe(fd)) exit(1);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        static const char *const env[] = {"LANG=C", NULL};
        const char *argv[] = {path, arg, NULL};
        emu_options eo = {.argc = arg ? 2 : 1, .argv = argv, .envp = env, .quiet = true};
        cs_error err;
        emu_t *e = emu_create(path, &eo, &err);
        if (!e) _exit(2);
        uop_source *src = emu_source_create(e);
        analysis_list list;
        if (!strcmp(mode, "floor")) {
            if (!analysis_list_parse(&list, "none", &err)) _exit(3);
            list.ops[0] = &floor_ops;
            list.count = 1;
        } else if (!analysis_list_parse(&list, mode, &err)) {
            _exit(3);
        }
        int devnull = open("/dev/null", 1);
        if (devnull >= 0) dup2(devnull, 1);
        run_spec spec = {cfg, {0, max, NULL}, &list, path};
        run_result r;
        /* CPU time, not wall time: the machine is shared, and a process waiting for a core
         * would count its wait */
        struct timespec t0, t1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        if (!runner_run(&spec, src, &r, &err) || !r.ok) _exit(4);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
        sample s = {(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9, 0, r.stats.instructions,
                    0};
        void *self = strcmp(mode, "stallscope") ? NULL : run_result_analysis(&r, "stallscope");
        if (self) s.engine_bytes = ss_summary_of(ss_analysis_engine(self))->peak_bytes;
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        s.maxrss_kb = ru.ru_maxrss;
        if (write(fd[1], &s, sizeof s) != (ssize_t)sizeof s) _exit(5);
        _exit(0);
    }
    close(fd[1]);
    if (read(fd[0], &out, sizeof out) != (ssize_t)sizeof out) out.seconds = -1;
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    return out;
}

int main(int argc, char **argv) {
    const char *config = "ooo4";
    const char *only = NULL; /* one mode alone (for a profiler: callgrind --trace-children=yes) */
    int reps = 3;
    uint64_t max = 2000000;
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (!strcmp(argv[first], "--config") && first + 1 < argc) config = argv[++first];
        else if (!strcmp(argv[first], "--reps") && first + 1 < argc) reps = atoi(argv[++first]);
        else if (!strcmp(argv[first], "--max") && first + 1 < argc) max = strtoull(argv[++first], NULL, 10);
        else if (!strcmp(argv[first], "--only") && first + 1 < argc) only = argv[++first];
        else {
            fprintf(stderr,
                    "usage: bench_stallscope [--config NAME] [--reps N] [--max N] [--only none|stacks|floor|"
                    "stallscope] [name[=ARG]…]\n");
            return 2;
        }
    }
    static const char *const defaults[] = {"sort=10000",    "list=10000", "ptr_chase=4", "branch_random=4000",
                                           "dep_add=10000", "matmul=4",   "interp=250",  NULL};
    const char *const *work = first < argc ? (const char *const *)argv + first : defaults;
    int n_work = first < argc ? argc - first : 7;
    real_ss = analysis_find("stallscope");
    uarch_config cfg;
    cs_error err;
    uarch_config_default(&cfg); /* load reads the file over the defaults */
    if (!uarch_config_load(&cfg, config, &err)) {
        fprintf(stderr, "bench_stallscope: %s\n", err.msg);
        return 1;
    }
    if (only) {
        int m = 0;
        while (m < MODES && strcmp(modes[m], only)) m++;
        if (m == MODES) {
            fprintf(stderr, "bench_stallscope: --only %s: not none, stacks, floor or stallscope\n", only);
            return 2;
        }
    }
    printf("# %s, first %llu instructions, min of %d runs each (process per run)\n", config, (unsigned long long)max,
           reps);
    if (!only)
        printf("%-16s %9s %9s %9s %9s %8s %10s %10s %9s %9s %9s\n", "workload", "none s", "stacks s", "floor s", "ss s",
               "ss/none", "floor/none", "engine/none", "none MB", "ss MB", "ss/none");
    for (int w = 0; w < n_work; w++) {
        char name[128], path[512];
        snprintf(name, sizeof name, "%s", work[w]);
        char *eq = strchr(name, '=');
        const char *arg = NULL;
        if (eq) *eq = 0, arg = eq + 1;
        snprintf(path, sizeof path, "%s/%s", CYCLESCOPE_WORKLOAD_DIR, name);
        if (access(path, X_OK) != 0) { /* else each child fails with no reason given */
            fprintf(stderr, "bench_stallscope: %s: %s (build the workloads target first)\n", path, strerror(errno));
            return 1;
        }
        sample best[MODES];
        for (int m = 0; m < MODES; m++) best[m] = (sample){1e30, 0, 0, 0};
        for (int r = 0; r < reps; r++)
            for (int m = 0; m < MODES; m++) {
                if (only && strcmp(modes[m], only)) continue;
                sample s = run_child(&cfg, path, arg, modes[m], max);
                if (s.seconds < 0) {
                    fprintf(stderr, "bench_stallscope: %s %s failed\n", name, modes[m]);
                    return 1;
                }
                if (s.seconds < best[m].seconds) best[m].seconds = s.seconds;
                if (s.maxrss_kb > best[m].maxrss_kb) best[m].maxrss_kb = s.maxrss_kb;
                best[m].engine_bytes = s.engine_bytes;
            }
        if (only) {
            for (int m = 0; m < MODES; m++)
                if (!strcmp(modes[m], only)) printf("%-16s %s %9.3f s\n", work[w], only, best[m].seconds);
            continue;
        }
        /* the engine's own share: what Stallscope adds over the floor, over the bare run */
        printf("%-16s %9.3f %9.3f %9.3f %9.3f %7.2fx %9.2fx %10.2fx %9.1f %9.1f %8.2fx\n", work[w], best[0].seconds,
               best[1].seconds, best[2].seconds, best[3].seconds, best[3].seconds / best[0].seconds,
               best[2].seconds / best[0].seconds, (best[3].seconds - best[2].seconds) / best[0].seconds,
               best[0].maxrss_kb / 1024.0, best[3].maxrss_kb / 1024.0,
               (double)best[3].maxrss_kb / (double)best[0].maxrss_kb);
    }
    return 0;
}
