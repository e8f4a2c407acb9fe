/* In-order model speed: simulated million instructions per second for
 * Noonburg's three-pipe machine (configs/inorder3.ini), fed live by the
 * emulator, as `cyclescope run --config inorder3` runs it. Goal: >= 5 M/s.
 * Each workload runs without observers, then with a do-nothing observer of
 * the cycle views and retire records (what the probes cost an analysis).
 *
 *   bench_inorder [--max N] [WORKLOAD_DIR] [name…]   (default: sort matmul list, 10 M instructions each)
 *
 * Each figure is the best of three runs, to damp the noise of a shared machine;
 * the emulator's share is included (it is the source, as in real runs). Wall
 * time is what a user waits; CPU time is what the simulator costs when other
 * jobs share the machine. */
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu.h"
#include "uarch/uarch.h"

#ifndef CYCLESCOPE_WORKLOAD_DIR
#define CYCLESCOPE_WORKLOAD_DIR "build/workloads"
#endif

static int saved_stdout = -1;
static void guest_output(bool on) { /* the guests print a line or two; keep them off the table */
    fflush(stdout);
    if (!on) {
        saved_stdout = dup(1);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        close(null);
    } else if (saved_stdout >= 0) {
        dup2(saved_stdout, 1);
        close(saved_stdout);
        saved_stdout = -1;
    }
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A do-nothing observer: what the probes cost when an analysis listens. */
static uint64_t sink;
static void on_stages(void *ctx, const stage_span *s, size_t n) {
    for (size_t i = 0; i < n; i++) sink += s[i].v.n + (uintptr_t)ctx;
}
static void on_retire(void *ctx, const uop_record *t, size_t n) {
    for (size_t i = 0; i < n; i++) sink += t[i].commit + (uintptr_t)ctx;
}

/* One timed run; false (with a message) if anything failed. *cpu gets the CPU seconds. */
static bool run_once(const uarch_config *cfg, const char *path, uint64_t max, bool probes, core_stats *st,
                     double *cpu) {
    static const char *const env[] = {"LANG=C", NULL};
    const char *argv[] = {path, NULL};
    emu_options eo = {.argc = 1, .argv = argv, .envp = env, .quiet = true};
    cs_error err;
    emu_t *e = emu_create(path, &eo, &err);
    if (!e) {
        fprintf(stderr, "bench_inorder: %s\n", err.msg);
        return false;
    }
    core_t *core = core_create(cfg, &err);
    if (!core) {
        fprintf(stderr, "bench_inorder: %s\n", err.msg);
        emu_destroy(e);
        return false;
    }
    if (probes) {
        probe_observer o = {.needs = PROBE_STAGES | PROBE_RETIRE, .stages = on_stages, .retire = on_retire};
        core_observe(core, &o, &err);
    }
    uop_source *src = emu_source_create(e);
    core_run_options opt = {0, max, NULL};
    guest_output(false);
    double t0 = cpu_seconds();
    bool ok = core_run(core, src, &opt, st, &err);
    *cpu = cpu_seconds() - t0;
    guest_output(true);
    if (!ok) fprintf(stderr, "bench_inorder: %s: %s\n", path, err.msg);
    uop_source_destroy(src);
    core_destroy(core);
    emu_destroy(e);
    return ok;
}

int main(int argc, char **argv) {
    uint64_t max = 10000000;
    int a = 1;
    if (a + 1 < argc && !strcmp(argv[a], "--max")) {
        if (!cs_parse_count(argv[a + 1], &max)) {
            fprintf(stderr, "bench_inorder: --max %s: not a count\n", argv[a + 1]);
            return 2;
        }
        a += 2;
    }
    const char *dir = a < argc ? argv[a++] : CYCLESCOPE_WORKLOAD_DIR;
    static const char *const defaults[] = {"sort", "matmul", "list"};
    const char *const *names = a < argc ? (const char *const *)argv + a : defaults;
    int count = a < argc ? argc - a : 3;

    uarch_config cfg;
    cs_error err;
    uarch_config_default(&cfg);
    if (!uarch_config_load(&cfg, "inorder3", &err)) {
        fprintf(stderr, "bench_inorder: %s\n", err.msg);
        return 1;
    }
    printf("inorder3 (configs/inorder3.ini), emulator as the source, best of 3, at most %llu instructions\n",
           (unsigned long long)max);
    printf("%-10s %-7s %12s %12s %7s %9s %10s %9s %10s\n", "workload", "probes", "instructions", "cycles", "IPC",
           "wall s", "M instr/s", "CPU s", "M instr/s");
    int rc = 0;
    for (int i = 0; i < 2 * count; i++) {
        bool probes = i % 2;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i / 2]);
        core_stats best = {0};
        double best_cpu = 0;
        for (int k = 0; k < 3; k++) {
            core_stats st;
            double cpu;
            if (!run_once(&cfg, path, max, probes, &st, &cpu)) {
                rc = 1;
                break;
            }
            if (k == 0 || st.seconds < best.seconds) best = st;
            if (k == 0 || cpu < best_cpu) best_cpu = cpu;
        }
        if (!best.seconds || !best_cpu) continue;
        double wall = best.instructions / best.seconds / 1e6, cpu = best.instructions / best_cpu / 1e6;
        printf("%-10s %-7s %12llu %12llu %7.3f %9.3f %10.2f %9.3f %10.2f%s\n", names[i / 2], probes ? "on" : "off",
               (unsigned long long)best.instructions, (unsigned long long)best.cycles,
               (double)best.instructions / (double)best.cycles, best.seconds, wall, best_cpu, cpu,
               wall >= 5 ? "" : "  (below 5 M/s)");
    }
    return rc;
}
