/* One timing run of a workload with no observer, with an observer that takes
 * the views and does nothing ("views"), with one that takes the dispatch and
 * commit spans alone, as Stallscope does ("dc": a stage_mask; not in v1), or
 * with the stacks observer — built
 * against this tree (the probe contract v2) or, with -DPROBES_V1, against
 * commit 6d1634f (v1), so that bench/probes_before_after.sh can time both and
 * count their host instructions under the same conditions.
 *
 *   probe_cost MODE CONFIG MAX PROG [ARG]     MODE: none, views, dc or stacks
 *
 * Prints "cycles C instructions I seconds S" (S: the core's timed part). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu.h"
#include "stacks/stacks.h"
#include "uarch/uarch.h"

static unsigned long long sink;

#ifdef PROBES_V1
static void null_cycle(void *ctx, const cycle_view *v) { sink += v->repeat + (ctx != NULL); }
#else
static void null_stages(void *ctx, const stage_span *s, size_t n) { sink += n + (s && ctx); }
static void null_fp(void *ctx, const fp_span *s, size_t n) { sink += n + (s && ctx); }
#endif

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: probe_cost none|views|stacks CONFIG MAX PROG [ARG]\n");
        return 2;
    }
    const char *mode = argv[1];
    static const char *const env[] = {"LANG=C", NULL};
    const char *gargv[] = {argv[4], argc > 5 ? argv[5] : NULL, NULL};
    emu_options eo = {.argc = argc > 5 ? 2 : 1, .argv = gargv, .envp = env, .quiet = true};
    cs_error err;
    uarch_config cfg;
    uarch_config_default(&cfg);
    if (!uarch_config_load(&cfg, argv[2], &err)) {
        fprintf(stderr, "probe_cost: %s\n", err.msg);
        return 1;
    }
    /* the guest's output goes nowhere */
    int null = open("/dev/null", O_WRONLY), out = dup(STDOUT_FILENO);
    dup2(null, STDOUT_FILENO);
    emu_t *e = emu_create(argv[4], &eo, &err);
    core_t *core = e ? core_create(&cfg, &err) : NULL;
    if (!core) {
        fprintf(stderr, "probe_cost: %s\n", err.msg);
        return 1;
    }
    stacks_observer *so = NULL;
    if (!strcmp(mode, "stacks")) {
        so = stacks_observer_create();
        probe_observer p = stacks_observer_probe(so);
#ifdef PROBES_V1
        core_observe(core, &p);
#else
        core_observe(core, &p, &err);
#endif
    } else if (!strcmp(mode, "views")) {
#ifdef PROBES_V1
        probe_observer p = {NULL, NULL, null_cycle, NULL, NULL};
        core_observe(core, &p);
#else
        probe_observer p = {.needs = PROBE_STAGES | PROBE_FP, .stages = null_stages, .fp = null_fp};
        core_observe(core, &p, &err);
#endif
#ifdef PROBE_STAGES_ALL
    } else if (!strcmp(mode, "dc")) {
        probe_observer p = {.needs = PROBE_STAGES,
                            .stage_mask = PROBE_STAGE_BIT(STAGE_DISPATCH) | PROBE_STAGE_BIT(STAGE_COMMIT),
                            .stages = null_stages};
        core_observe(core, &p, &err);
#endif
    } else if (strcmp(mode, "none") != 0) {
        fprintf(stderr, "probe_cost: mode %s: none, views, dc or stacks\n", mode);
        return 2;
    }
    uop_source *src = emu_source_create(e);
    core_stats st;
    core_run_options ro = {0, strtoull(argv[3], NULL, 10), NULL};
    if (!core_run(core, src, &ro, &st, &err)) {
        fprintf(stderr, "probe_cost: %s\n", err.msg);
        return 1;
    }
    char line[160];
    int len = snprintf(line, sizeof line, "cycles %llu instructions %llu seconds %.6f\n", (unsigned long long)st.cycles,
                       (unsigned long long)st.instructions, st.seconds);
    if (write(out, line, (size_t)len) != len) return 1;
    stacks_observer_destroy(so);
    core_destroy(core);
    uop_source_destroy(src);
    emu_destroy(e);
    return sink == 42 ? 3 : 0;
}
