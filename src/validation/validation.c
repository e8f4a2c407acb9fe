/* Validation of the stacks (Eyerman et al. §IV, §V-A): the baseline machine
 * and the idealised ones, timed in parallel by the runner's pool, each with
 * the stacks analysis; the actual CPI reduction of each idealisation against
 * the range the dispatch, issue and commit stacks give.
 *
 * Notes:
 *  - All machines time the same instructions (same warm-up and limit, and the
 *    emulator is deterministic by default); a run that times a different
 *    count is an error, not a comparison.
 *  - The stacks come back from the pool as their plain result struct, exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation.h"

const char *ideal_kind_name(ideal_kind k) {
    static const char *const names[IDEAL_COUNT] = {"perfect I-cache",
                                                   "perfect D-cache",
                                                   "perfect bpred",
                                                   "1-cycle ALU",
                                                   "perfect D-cache + 1-cycle ALU",
                                                   "perfect bpred + perfect D-cache"};
    return (unsigned)k < IDEAL_COUNT ? names[k] : "?";
}

void validation_ideal_config(uarch_config *cfg, ideal_kind k) {
    switch (k) {
    case IDEAL_ICACHE: cfg->perfect_icache = true; break;
    case IDEAL_DCACHE: cfg->perfect_dcache = true; break;
    case IDEAL_BPRED: cfg->perfect_bpred = true; break;
    case IDEAL_ALU: cfg->ideal_alu = true; break;
    case IDEAL_DCACHE_ALU: cfg->perfect_dcache = cfg->ideal_alu = true; break;
    case IDEAL_BPRED_DCACHE: cfg->perfect_bpred = cfg->perfect_dcache = true; break;
    default: break;
    }
}

double validation_ideal_component(const cpi_stack *s, ideal_kind k) {
    const double *c = s->cycles;
    double icache = c[COMP_ICACHE_L2] + c[COMP_ICACHE_L3] + c[COMP_ICACHE_MEM];
    /* a full store buffer waits for the stores' lines: a perfect D-cache removes it too */
    double dcache = c[COMP_DCACHE_L2] + c[COMP_DCACHE_L3] + c[COMP_DCACHE_MEM] + c[COMP_STORE_BUFFER];
    double alu = c[COMP_LONGLAT_INT] + c[COMP_LONGLAT_FP];
    switch (k) {
    case IDEAL_ICACHE: return icache;
    case IDEAL_DCACHE: return dcache;
    case IDEAL_BPRED: return c[COMP_BPRED];
    case IDEAL_ALU: return alu;
    case IDEAL_DCACHE_ALU: return dcache + alu;
    case IDEAL_BPRED_DCACHE: return c[COMP_BPRED] + dcache;
    default: return 0;
    }
}

/* §V-A: a component matters when it is at least 10% of CPI in some stack. */
#define RELEVANT_SHARE    0.10
/* A pair's reduction equal to the sum of its singles within this share of the
 * baseline CPI shows neither hidden stalls nor overlap. */
#define INTERACTION_SHARE 0.005

void validation_evaluate(validation_result *v, const stacks_result *base, const double ideal_cpi[IDEAL_COUNT]) {
    double insns = base->instructions ? (double)base->instructions : 1;
    v->base_cpi = (double)base->cycles / insns;
    v->base = *base;
    for (int k = 0; k < IDEAL_COUNT; k++) {
        validation_case *c = &v->cases[k];
        memset(c, 0, sizeof *c);
        c->kind = (ideal_kind)k;
        c->cpi = ideal_cpi[k];
        c->reduction = v->base_cpi - c->cpi;
        for (int s = 0; s < STACK_STAGES; s++) {
            c->predicted[s] = validation_ideal_component(&base->stage[s], (ideal_kind)k) / insns;
            if (s == 0 || c->predicted[s] < c->lo) c->lo = c->predicted[s];
            if (s == 0 || c->predicted[s] > c->hi) c->hi = c->predicted[s];
        }
        c->within = c->lo <= c->reduction && c->reduction <= c->hi;
        if (!c->within) { /* the distance to the closest of the three stacks */
            c->error = c->reduction < c->lo ? c->lo - c->reduction : c->reduction - c->hi;
        }
        c->relevant = c->hi >= RELEVANT_SHARE * v->base_cpi;
    }
    static const ideal_kind pairs[][3] = {{IDEAL_DCACHE_ALU, IDEAL_DCACHE, IDEAL_ALU},
                                          {IDEAL_BPRED_DCACHE, IDEAL_BPRED, IDEAL_DCACHE}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        validation_case *c = &v->cases[pairs[i][0]];
        c->sum_of_singles = v->cases[pairs[i][1]].reduction + v->cases[pairs[i][2]].reduction;
        double d = c->reduction - c->sum_of_singles, eps = INTERACTION_SHARE * v->base_cpi;
        c->interaction = d > eps ? 1 : d < -eps ? -1 : 0;
    }
}

/* ---- the machines, in parallel ---- */

enum { RUNS = 1 + IDEAL_COUNT }; /* run 0 is the baseline, run 1 + k idealisation k */

bool validation_run(const validation_options *opt, validation_result *out, core_stats *base_stats, stacks_result *ideal,
                    cs_error *err) {
    analysis_list stacks = {0};
    if (!analysis_list_parse(&stacks, "stacks", err)) return false;
    run_job *jobs = cs_calloc(RUNS, sizeof *jobs);
    job_result *res = cs_calloc(RUNS, sizeof *res);
    for (int r = 0; r < RUNS; r++) {
        run_job *j = &jobs[r];
        j->name = r ? ideal_kind_name((ideal_kind)(r - 1)) : "baseline";
        j->cfg = opt->cfg;
        if (r) validation_ideal_config(&j->cfg, (ideal_kind)(r - 1));
        j->opt = opt->run;
        j->source = opt->source;
        j->analyses = &stacks;
        j->program = out->program;
        j->show_output = r == 0 && opt->show_output;
    }
    bool ok = runner_pool(jobs, RUNS, opt->jobs, res, err);
    for (int r = 0; ok && r < RUNS; r++) {
        if (!res[r].ok) {
            *err = res[r].err; /* "MACHINE: why" */
            cs_error_prefix(err, "validation");
            ok = false;
        } else if (!res[r].result[0]) {
            cs_error_set(err, "validation (%s machine): no stacks came back", jobs[r].name);
            ok = false;
        }
    }
    if (ok) {
        const stacks_result *base = res[0].result[0];
        double cpi[IDEAL_COUNT];
        for (int k = 0; k < IDEAL_COUNT && ok; k++) {
            const stacks_result *s = res[1 + k].result[0];
            if (s->instructions != base->instructions) {
                cs_error_set(err,
                             "validation: the %s machine timed %llu instructions, the baseline %llu; the runs must "
                             "time the same instructions (a deterministic program, no --host-time; a program whose "
                             "child processes it waits for or reads need not repeat: the host schedules them)",
                             jobs[1 + k].name, (unsigned long long)s->instructions,
                             (unsigned long long)base->instructions);
                ok = false;
                break;
            }
            cpi[k] = s->instructions ? (double)s->cycles / (double)s->instructions : 0;
            if (ideal) ideal[k] = *s;
        }
        if (ok) {
            char program[sizeof out->program];
            memcpy(program, out->program, sizeof program);
            memset(out, 0, sizeof *out);
            memcpy(out->program, program, sizeof program);
            snprintf(out->config, sizeof out->config, "%s", opt->cfg.name);
            validation_evaluate(out, base, cpi);
            out->guest_status = res[0].guest_status;
            if (base_stats) *base_stats = res[0].stats;
        }
    }
    for (int r = 0; r < RUNS; r++) job_result_free(&res[r]);
    free(res);
    free(jobs);
    analysis_list_free(&stacks);
    return ok;
}
