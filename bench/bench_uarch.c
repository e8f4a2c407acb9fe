/* Timing-model speed: simulated M instructions per second on real workloads,
 * with no observer and with an observer that takes every stage span and every
 * retired µop (the cost of building them), measured alternately in one run.
 *
 *   bench_uarch [--config NAME] [--max N] [WORKLOAD_DIR] [name[:arg]…]
 *
 * Each figure is the best of five runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu.h"
#include "uarch/uarch.h"

typedef struct counter {
    uint64_t cycles, retired;
} counter;

static void count_stages(void *ctx, const stage_span *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i].stage == STAGE_COMMIT) ((counter *)ctx)->cycles += s[i].cycles;
}
static void count_retire(void *ctx, const uop_record *t, size_t n) {
    for (size_t i = 0; i < n; i++) ((counter *)ctx)->retired += t[i].seq != 0;
}

static double run_once(const char *config, const char *path, const char *arg, uint64_t max, bool observe,
                       uint64_t *instructions) {
    uarch_config cfg;
    cs_error err;
    uarch_config_default(&cfg);
    if (!uarch_config_load(&cfg, config, &err)) {
        fprintf(stderr, "bench_uarch: %s\n", err.msg);
        exit(1);
    }
    static const char *const env[] = {"LANG=C", NULL};
    const char *argv[] = {path, arg, NULL};
    emu_options opt = {.argc = arg ? 2 : 1, .argv = argv, .envp = env, .quiet = true};
    emu_t *e = emu_create(path, &opt, &err);
    core_t *core = e ? core_create(&cfg, &err) : NULL;
    if (!core) {
        fprintf(stderr, "bench_uarch: %s\n", err.msg);
        exit(1);
    }
    counter c = {0, 0};
    probe_observer obs = {
        .ctx = &c, .needs = PROBE_STAGES | PROBE_RETIRE, .stages = count_stages, .retire = count_retire};
    if (observe) core_observe(core, &obs, &err);
    uop_source *src = emu_source_create(e);
    core_stats st;
    core_run_options ro = {0, max, NULL};
    if (!core_run(core, src, &ro, &st, &err)) {
        fprintf(stderr, "bench_uarch: %s\n", err.msg);
        exit(1);
    }
    if (observe && (c.cycles != st.cycles || c.retired != st.uops)) {
        fprintf(stderr, "bench_uarch: the observer saw %llu cycles and %llu µops, the run had %llu and %llu\n",
                (unsigned long long)c.cycles, (unsigned long long)c.retired, (unsigned long long)st.cycles,
                (unsigned long long)st.uops);
        exit(1);
    }
    *instructions = st.instructions;
    uop_source_destroy(src);
    core_destroy(core);
    emu_destroy(e);
    return st.seconds;
}

int main(int argc, char **argv) {
    const char *config = "ooo4", *dir = CYCLESCOPE_WORKLOAD_DIR;
    uint64_t max = 3000000;
    int k = 1;
    while (k + 1 < argc && argv[k][0] == '-') {
        if (!strcmp(argv[k], "--config")) config = argv[k + 1];
        else if (!strcmp(argv[k], "--max")) max = strtoull(argv[k + 1], NULL, 0);
        k += 2;
    }
    if (k < argc && strchr(argv[k], '/')) dir = argv[k++];
    const char *defaults[] = {"sort", "matmul", "list", "dep_add", "branch_random"};
    int count = k < argc ? argc - k : 5;
    /* the guests print a line or two: keep them off the table */
    fflush(stdout);
    FILE *table = fdopen(dup(1), "w");
    if (!freopen("/dev/null", "w", stdout)) return 1;
    fprintf(table, "configuration %s, up to %llu instructions per run, best of 5\n", config, (unsigned long long)max);
    fprintf(table, "%-14s %12s %14s %16s %10s\n", "workload", "instructions", "M instr/s", "M instr/s (obs)",
            "overhead");
    double sum_plain = 0, sum_obs = 0;
    for (int i = 0; i < count; i++) {
        char name[256];
        snprintf(name, sizeof name, "%s", k < argc ? argv[k + i] : defaults[i]);
        char *arg = strchr(name, ':');
        if (arg) *arg++ = 0;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        double best_plain = 1e30, best_obs = 1e30;
        uint64_t n = 0;
        for (int rep = 0; rep < 5; rep++) { /* alternate so both see the same machine noise */
            double a = run_once(config, path, arg, max, false, &n);
            double b = run_once(config, path, arg, max, true, &n);
            if (a < best_plain) best_plain = a;
            if (b < best_obs) best_obs = b;
        }
        sum_plain += best_plain;
        sum_obs += best_obs;
        fprintf(table, "%-14s %12llu %14.2f %16.2f %+9.1f%%\n", name, (unsigned long long)n, n / best_plain / 1e6,
                n / best_obs / 1e6, 100 * (best_obs / best_plain - 1));
        fflush(table);
    }
    fprintf(table, "total observer overhead: %+.1f%%\n", 100 * (sum_obs / sum_plain - 1));
    return 0;
}
