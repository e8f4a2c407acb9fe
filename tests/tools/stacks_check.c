/* stacks_check — time a program with the stacks observer and check the
 * properties the stacks promise (tests/stacks.cmake drives it):
 *   - each CPI stack (dispatch, issue, commit) and the FLOPS stack sums to
 *     the cycle count (to floating-point rounding);
 *   - the base component is the same in the dispatch and commit stacks and
 *     equals the committed µops / W (every correct-path µop passes both);
 *   - "other" stays below --other-max (default 5%) of the cycles in every stack;
 *   - with --expect STAGE:GROUP, GROUP is the largest stall component group of
 *     that stack, base aside (groups: icache itlb bpred dcache dtlb long-lat
 *     dependence no-unit mem-order store-buffer frontend other; levels summed); STAGE "all"
 *     means all three. (Base aside: a 1-cycle chain on a 2-wide machine runs
 *     at half the width, dependence then equals base.);
 *   - with --flops-frontend, the FLOPS stack is entirely "frontend";
 *   - with --within KIND (icache dcache bpred alu), the program is also timed
 *     on the idealised machines (validation_run) and the KIND component must
 *     be relevant (>= 10% of CPI in some stack) with the actual CPI reduction
 *     inside the range of the three stacks (§V-A).
 * usage: stacks_check [--config NAME] [--set S.K=V] [--warmup N] [--max N] [--other-max F]
 *                     [--expect STAGE:GROUP]... [--flops-frontend] [--within KIND]... PROG [ARGS...]
 * Prints the stacks; exit 0 when every check holds, 1 otherwise, 2 on bad usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "report/report.h"
#include "runner/runner.h"
#include "stacks/stacks.h"
#include "validation/validation.h"

extern char **environ;

/* Each validation run opens its own emulator (in its own process). */
static emu_t *vemu;
static uop_source *guest_open(void *ctx, cs_error *err) {
    const emu_options *eo = ctx;
    vemu = emu_create(eo->argv[0], eo, err);
    return vemu ? emu_source_create(vemu) : NULL;
}
static bool guest_close(void *ctx, uop_source *src, cs_error *err) {
    (void)ctx;
    bool ok = emu_state(vemu) != EMU_FAILED;
    if (!ok) cs_error_set(err, "%s", emu_error(vemu));
    uop_source_destroy(src);
    emu_destroy(vemu);
    return ok;
}

enum { GROUP_COUNT = 13 };
static const char *const group_names[GROUP_COUNT] = {"base",     "icache",     "itlb",        "bpred",     "dcache",
                                                     "long-lat", "dependence", "no-unit",     "mem-order", "frontend",
                                                     "other",    "dtlb",       "store-buffer"};

static int group_of(int c) {
    switch (c) {
    case COMP_BASE: return 0;
    case COMP_ICACHE_L2:
    case COMP_ICACHE_L3:
    case COMP_ICACHE_MEM: return 1;
    case COMP_ITLB: return 2;
    case COMP_BPRED: return 3;
    case COMP_DCACHE_L2:
    case COMP_DCACHE_L3:
    case COMP_DCACHE_MEM: return 4;
    case COMP_LONGLAT_INT:
    case COMP_LONGLAT_FP: return 5;
    case COMP_DEPEND: return 6;
    case COMP_NO_UNIT: return 7;
    case COMP_MEM_ORDER: return 8;
    case COMP_FRONTEND: return 9;
    case COMP_DTLB: return 11;
    case COMP_STORE_BUFFER: return 12;
    default: return 10;
    }
}

static int fails;
static void check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "stacks_check: FAILED: %s\n", what);
        fails++;
    }
}

static int usage(const char *why) {
    fprintf(stderr, "stacks_check: %s\n", why);
    return 2;
}

int main(int argc, char **argv) {
    const char *config = "ooo4", *expect[16], *within[8];
    int nwithin = 0;
    const char *sets[16];
    int nexpect = 0, nsets = 0;
    double other_max = 0.05;
    bool flops_frontend = false;
    core_run_options ro = {0, 0, NULL};
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--flops-frontend")) {
            flops_frontend = true;
            continue;
        }
        if (!v) return usage("option without a value");
        i++;
        if (!strcmp(a, "--config")) config = v;
        else if (!strcmp(a, "--set") && nsets < 16) sets[nsets++] = v;
        else if (!strcmp(a, "--warmup")) {
            if (!cs_parse_count(v, &ro.warmup)) return usage("bad --warmup");
        } else if (!strcmp(a, "--max")) {
            if (!cs_parse_count(v, &ro.max)) return usage("bad --max");
        } else if (!strcmp(a, "--other-max")) other_max = atof(v);
        else if (!strcmp(a, "--expect") && nexpect < 16) expect[nexpect++] = v;
        else if (!strcmp(a, "--within") && nwithin < 8) within[nwithin++] = v;
        else return usage("unknown option");
    }
    if (i >= argc) return usage("no program");

    cs_error err;
    uarch_config cfg;
    uarch_config_default(&cfg);
    if (!uarch_config_load(&cfg, config, &err)) return usage(err.msg);
    for (int k = 0; k < nsets; k++)
        if (!uarch_config_set(&cfg, sets[k], &err)) return usage(err.msg);
    emu_options eo = {
        .argc = argc - i, .argv = (const char *const *)argv + i, .envp = (const char *const *)environ, .quiet = true};
    emu_t *e = emu_create(argv[i], &eo, &err);
    if (!e) return usage(err.msg);
    uop_source *src = emu_source_create(e);
    stacks_result s = {0};
    core_stats st = {0};
    analysis_list stacks;
    run_spec spec = {&cfg, ro, &stacks, argv[i]};
    run_result run;
    bool ok = analysis_list_parse(&stacks, "stacks", &err) && runner_run(&spec, src, &run, &err);
    if (ok) {
        ok = run.ok;
        err = run.err;
        s = *stacks_observer_result(run_result_analysis(&run, "stacks"));
        st = run.stats;
        run_result_free(&run);
    }
    analysis_list_free(&stacks);
    uop_source_destroy(src);
    emu_destroy(e);
    if (!ok) {
        fprintf(stderr, "stacks_check: run failed: %s\n", err.msg);
        return 1;
    }
    report_stacks_text(&s, stdout);

    char msg[256];
    double cyc = (double)s.cycles, tol = 1e-9 * cyc + 1e-6;
    check(s.cycles == st.cycles && s.instructions == st.instructions, "observer saw the run's cycles and instructions");
    check(s.cycles > 0, "the run has cycles");
    for (int stg = 0; stg < STACK_STAGES; stg++) {
        double sum = 0;
        for (int c = 0; c < COMP_COUNT; c++) {
            check(s.stage[stg].cycles[c] >= 0, "no negative component");
            sum += s.stage[stg].cycles[c];
        }
        snprintf(msg, sizeof msg, "%s stack sums to %.6f, cycles %.0f", stack_stage_name((stack_stage)stg), sum, cyc);
        check(fabs(sum - cyc) <= tol, msg);
        double other = s.stage[stg].cycles[COMP_OTHER] / cyc;
        snprintf(msg, sizeof msg, "%s stack: other is %.2f%% of cycles (limit %.2f%%)",
                 stack_stage_name((stack_stage)stg), 100 * other, 100 * other_max);
        check(other < other_max, msg);
    }
    double fsum = 0;
    for (int c = 0; c < FLOPS_COUNT; c++) fsum += s.fp.cycles[c];
    snprintf(msg, sizeof msg, "FLOPS stack sums to %.6f, cycles %.0f", fsum, cyc);
    check(fabs(fsum - cyc) <= tol, msg);
    double base_d = s.stage[STACK_DISPATCH].cycles[COMP_BASE], base_c = s.stage[STACK_COMMIT].cycles[COMP_BASE];
    snprintf(msg, sizeof msg, "base: dispatch %.3f = commit %.3f = µops/W %.3f", base_d, base_c,
             (double)st.uops / s.width);
    check(fabs(base_d - base_c) <= tol && fabs(base_c - (double)st.uops / s.width) <= tol, msg);
    if (flops_frontend) {
        snprintf(msg, sizeof msg, "FLOPS stack all frontend (%.0f of %.0f cycles)", s.fp.cycles[FLOPS_FRONTEND], cyc);
        check(fabs(s.fp.cycles[FLOPS_FRONTEND] - cyc) <= tol, msg);
    }
    for (int x = 0; x < nexpect; x++) {
        char stage[32], group[32];
        if (sscanf(expect[x], "%31[^:]:%31s", stage, group) != 2) return usage("bad --expect");
        int g = -1;
        for (int k = 0; k < GROUP_COUNT; k++)
            if (!strcmp(group, group_names[k])) g = k;
        if (g < 0) return usage("--expect: unknown group");
        for (int stg = 0; stg < STACK_STAGES; stg++) {
            if (strcmp(stage, "all") != 0 && strcmp(stage, stack_stage_name((stack_stage)stg)) != 0) continue;
            double sum[GROUP_COUNT] = {0};
            for (int c = 0; c < COMP_COUNT; c++) sum[group_of(c)] += s.stage[stg].cycles[c];
            int best = 1;
            for (int k = 2; k < GROUP_COUNT; k++)
                if (sum[k] > sum[best]) best = k;
            snprintf(msg, sizeof msg,
                     "%s stack: %s dominates (%.1f%% of cycles); largest stall is %s (%.1f%%), base %.1f%%",
                     stack_stage_name((stack_stage)stg), group, 100 * sum[g] / cyc, group_names[best],
                     100 * sum[best] / cyc, 100 * sum[0] / cyc);
            check(best == g, msg);
            printf("  %s\n", msg);
        }
    }
    if (nwithin) {
        static const char *const kinds[IDEAL_COUNT] = {"icache", "dcache",     "bpred",
                                                       "alu",    "dcache+alu", "bpred+dcache"};
        validation_options vo;
        memset(&vo, 0, sizeof vo);
        vo.cfg = cfg;
        vo.run = ro;
        vo.source = (run_source){&eo, guest_open, guest_close, NULL};
        validation_result *val = calloc(1, sizeof *val);
        if (!validation_run(&vo, val, NULL, NULL, &err)) {
            fprintf(stderr, "stacks_check: %s\n", err.msg);
            return 1;
        }
        report_validation_text(val, stdout);
        for (int x = 0; x < nwithin; x++) {
            int k = -1;
            for (int j = 0; j < IDEAL_COUNT; j++)
                if (!strcmp(within[x], kinds[j])) k = j;
            if (k < 0) return usage("--within: unknown kind");
            const validation_case *c = &val->cases[k];
            snprintf(msg, sizeof msg, "%s: actual reduction %.3f within [%.3f, %.3f] and relevant (%s)",
                     ideal_kind_name(c->kind), c->reduction, c->lo, c->hi, c->relevant ? "yes" : "no");
            check(c->within && c->relevant, msg);
            printf("  %s\n", msg);
        }
        free(val);
    }
    if (fails) return 1;
    printf("stacks_check: all checks passed (%s, %llu cycles)\n", cfg.name, (unsigned long long)s.cycles);
    return 0;
}
