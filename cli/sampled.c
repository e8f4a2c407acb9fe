/* `run --simpoints DIR` and `sim --simpoints DIR`: time only the simulation
 * points `cyclescope simpoint` chose, and report the weighted whole-run
 * estimate exactly as a full run is reported (docs/simpoint.md). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "report/report.h"
#include "sampling/sampling.h"

bool cli_simpoint_option(cli_simpoint_options *s, int opt, const char *arg, const char *verb, bool *bad) {
    if (opt == OPT_SIMPOINTS) {
        s->dir = arg;
        return true;
    }
    if (opt == OPT_SP_JOBS) {
        uint64_t j;
        if (!cs_parse_count(arg, &j) || j < 1 || j > 4096) {
            cli_usage(verb, "--jobs %s: not a number of jobs (1..4096)", arg);
            *bad = true;
        }
        s->jobs = (int)j;
        return true;
    }
    return false;
}

bool cli_simpoint_check(cli_simpoint_options *s, const cli_timing_options *t, const char *verb) {
    if (!s->dir) return true;
    if (t->interval) {
        cli_usage(verb, "--interval does not apply to --simpoints (it times its own intervals)");
        return false;
    }
    if (t->max || t->pipeview_path) {
        cli_usage(verb, "--simpoints times its own intervals: no --max or --pipeview with it");
        return false;
    }
    s->warmup = t->warmup ? t->warmup : SIMPOINT_WARM_ALL;
    return true;
}

/* When this run ended otherwise than the profiled one did (simpoint.json's "end"; unknown
 * for a trace or a version 1 directory), say so: the status is this run's. */
static void note_other_end(const simpoint_set *set, const emu_t *emu) {
    char profiled[64], now[64];
    const simpoint_end *e = &set->end;
    if (e->state == SIMPOINT_END_UNKNOWN) return;
    if (e->state == SIMPOINT_END_EXITED) snprintf(profiled, sizeof profiled, "exited with status %d", e->exit_code);
    else if (e->state == SIMPOINT_END_FAULT) snprintf(profiled, sizeof profiled, "was killed by signal %d", e->signal);
    else snprintf(profiled, sizeof profiled, "was stopped (--max)");
    if (emu_state(emu) == EMU_EXITED) snprintf(now, sizeof now, "exited with status %d", emu_exit_code(emu));
    else if (emu_state(emu) == EMU_FAILED) snprintf(now, sizeof now, "was killed by signal %d", emu_fault_signal(emu));
    else snprintf(now, sizeof now, "was stopped (--max)");
    if (strcmp(profiled, now) != 0)
        fprintf(stderr, "cyclescope: note: the program %s, the profiled one %s (another environment?)\n", now,
                profiled);
}

int cli_simpoint_run(const cli_timing_options *t, const cli_simpoint_options *so, emu_t *emu, const char *trace,
                     int argc, char **argv, const char *what) {
    cs_error err;
    simpoint_set *set = simpoint_load(so->dir, &err);
    if (!set) return cli_fail("%s", err.msg);
    simpoint_identity id;
    int rc = 0;
    if (!simpoint_identity_of(&id, trace != NULL, argc, argv, &err)) {
        simpoint_set_free(set);
        return cli_fail("%s", err.msg);
    }
    if (!simpoint_identity_match(&set->id, &id, &err)) rc = cli_fail("%s: %s", so->dir, err.msg);
    simpoint_identity_free(&id);
    uarch_config cfg;
    if (rc == 0 && !cli_load_config(t, &cfg)) rc = EXIT_USAGE;
    simpoint_timing *pts = rc == 0 ? cs_calloc(set->count, sizeof *pts) : NULL;
    if (rc == 0) {
        int jobs = so->jobs > 0 ? so->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
        if (isatty(STDERR_FILENO))
            fprintf(stderr, "cyclescope: timing %zu simulation points of %" PRIu64 " instructions, %d at a time…\n",
                    set->count, set->interval, jobs);
        fflush(stdout);
        simpoint_stream from = {emu, trace};
        if (!simpoint_time(set, &from, &cfg, so->warmup, jobs, pts, &err)) rc = cli_fail("%s", err.msg);
    }
    if (rc == 0 && emu) {
        /* the rest of the program, for its output, its length and how it ends: the points'
         * copies stop at their intervals, this run is the one that ends as the program does
         * (its exit status, or a fault: the estimate is written, then the status is said) */
        if (set->end.state == SIMPOINT_END_STOPPED) /* profiled with --max: stop where it stopped */
            emu_run(emu, set->instructions > emu_icount(emu) ? set->instructions - emu_icount(emu) : 0);
        else emu_run(emu, UINT64_MAX);
        if (emu_state(emu) == EMU_FAILED && !emu_fault_signal(emu)) rc = cli_fail("%s", emu_error(emu));
        else if (fabs((double)emu_icount(emu) - (double)set->instructions) > 0.001 * (double)set->instructions)
            fprintf(stderr,
                    "cyclescope: note: this run has %" PRIu64 " instructions, the profiled one had %" PRIu64
                    " (another environment?); the points are placed as profiled\n",
                    emu_icount(emu), set->instructions);
        if (rc == 0) note_other_end(set, emu);
    }
    if (rc == 0) {
        core_stats stats;
        stacks_result stacks;
        simpoint_combine(set, pts, &stats, &stacks);
        uint64_t detailed = 0, warmed = 0;
        for (size_t i = 0; i < set->count; i++) detailed += pts[i].stats.instructions, warmed += pts[i].warmed;
        printf("\nSimPoint estimate from %zu simulation points (%s/): %" PRIu64 " of %" PRIu64
               " instructions timed in detail (%.1fx fewer), warm-up %s\n",
               set->count, so->dir, detailed, set->instructions, (double)set->instructions / (double)detailed,
               so->warmup == SIMPOINT_WARM_ALL ? "of everything before each point" : "as given");
        printf("  %-8s %16s %10s %10s\n", "cluster", "first insn", "weight", "CPI");
        for (size_t i = 0; i < set->count; i++) {
            const simpoint_point *p = &set->points[i];
            printf("  %-8u %16" PRIu64 " %10.4f %10.4f\n", p->cluster, p->start, p->weight,
                   (double)pts[i].stats.cycles / (double)pts[i].stats.instructions);
        }
        printf("  (every figure below is the weighted estimate for the whole run)\n\n");
        char label[600];
        snprintf(label, sizeof label, "%s (SimPoint estimate, %zu points)", what, set->count);
        run_summary sum = {label, &cfg, &stats, 0};
        rc = cli_timing_report(t, &sum, NULL, &stacks, NULL);
        if (rc == 0) rc = cli_guest_exit(emu); /* the program's status, as `run` ends (NULL: a trace, 0) */
    }
    free(pts);
    simpoint_set_free(set);
    return rc;
}
