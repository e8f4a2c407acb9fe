/* report_demo [--minimal] OUT.html — writes an HTML report from a fixed,
 * hand-built run: a 4-wide core at 3 GHz, CPI 1.1, stacks in the spirit of the
 * paper's mcf-on-BDW example (dispatch blames the branch predictor most, commit
 * the D-cache), a FLOPS stack with two FP units, and the six validation cases.
 *
 * The awkward cases are deliberate: a component that is zero in every stack
 * (itlb), a tiny one (icache-L3, a few cycles), a program name and a title
 * with < & > " ', validation cases outside the stacks' range and cases below
 * the 10% relevance filter.
 *
 * --minimal writes only the run and the stacks of a machine without FP units:
 * no FLOPS stack, no validation section. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"

/* ---- the run ---- */

enum { CYCLES = 1100000, INSTRUCTIONS = 1000000, WIDTH = 4 };

static void demo_stats(core_stats *s) {
    memset(s, 0, sizeof *s);
    s->cycles = CYCLES;
    s->instructions = INSTRUCTIONS;
    s->uops = 1012000;
    s->branches = 150000, s->mispredicts = 9000;
    s->cond_branches = 120000, s->cond_mispredicts = 8500;
    s->l1i = (cache_stats){.accesses = 262000, .misses = 1210};
    s->l1d = (cache_stats){.accesses = 350000, .misses = 21000};
    s->l2 = (cache_stats){.accesses = 22210, .misses = 6100};
    s->l3 = (cache_stats){.accesses = 6100, .misses = 2400};
    s->itlb = (cache_stats){.accesses = 262000, .misses = 0};
    s->loads = 300000, s->stores = 100000, s->forwarded_loads = 12000, s->flops = 600000;
    s->rob_occupancy = 74ull * CYCLES, s->iq_occupancy = 21ull * CYCLES;
    s->lq_occupancy = 18ull * CYCLES, s->sq_occupancy = 9ull * CYCLES;
    s->seconds = 0.42;
}

/* Component cycles per stage; `other` is what is left, so each stack sums to CYCLES. */
static void demo_stack(cpi_stack *st, const double cycles[COMP_COUNT]) {
    double sum = 0;
    for (int i = 0; i < COMP_COUNT; i++) {
        st->cycles[i] = cycles[i];
        if (i != COMP_OTHER) sum += cycles[i];
    }
    st->cycles[COMP_OTHER] = CYCLES - sum;
}

static void demo_stacks(stacks_result *s, bool fp_units) {
    memset(s, 0, sizeof *s);
    s->cycles = CYCLES, s->instructions = INSTRUCTIONS, s->flops = fp_units ? 600000 : 0, s->width = WIDTH;
    const double base = (double)INSTRUCTIONS / WIDTH;
    demo_stack(&s->stage[STACK_DISPATCH],
               (const double[COMP_COUNT]){[COMP_BASE] = base,
                                          [COMP_ICACHE_L2] = 60000,
                                          [COMP_ICACHE_L3] = 40,
                                          [COMP_ICACHE_MEM] = 12000,
                                          [COMP_BPRED] = 390000,
                                          [COMP_DCACHE_L2] = 20000,
                                          [COMP_DCACHE_L3] = 15000,
                                          [COMP_DCACHE_MEM] = 60000,
                                          [COMP_LONGLAT_INT] = 30000,
                                          [COMP_LONGLAT_FP] = 10000,
                                          [COMP_DEPEND] = 150000,
                                          [COMP_FRONTEND] = 90000});
    demo_stack(&s->stage[STACK_ISSUE],
               (const double[COMP_COUNT]){[COMP_BASE] = base,
                                          [COMP_ICACHE_L2] = 40000,
                                          [COMP_ICACHE_L3] = 30,
                                          [COMP_ICACHE_MEM] = 9000,
                                          [COMP_BPRED] = 250000,
                                          [COMP_DCACHE_L2] = 25000,
                                          [COMP_DCACHE_L3] = 22000,
                                          [COMP_DCACHE_MEM] = 150000,
                                          [COMP_LONGLAT_INT] = 60000,
                                          [COMP_LONGLAT_FP] = 25000,
                                          [COMP_DEPEND] = 110000,
                                          [COMP_NO_UNIT] = 70000,
                                          [COMP_MEM_ORDER] = 18000,
                                          [COMP_FRONTEND] = 60000});
    demo_stack(&s->stage[STACK_COMMIT],
               (const double[COMP_COUNT]){[COMP_BASE] = base,
                                          [COMP_ICACHE_L2] = 15000,
                                          [COMP_ICACHE_L3] = 10,
                                          [COMP_ICACHE_MEM] = 5000,
                                          [COMP_BPRED] = 110000,
                                          [COMP_DCACHE_L2] = 40000,
                                          [COMP_DCACHE_L3] = 35000,
                                          [COMP_DCACHE_MEM] = 300000,
                                          [COMP_LONGLAT_INT] = 50000,
                                          [COMP_LONGLAT_FP] = 30000,
                                          [COMP_DEPEND] = 220000,
                                          [COMP_FRONTEND] = 35000});
    if (!fp_units) return;
    flops_stack *f = &s->fp;
    f->units = 2, f->vector = 1, f->peak_per_cycle = 2.0 * f->units * f->vector, f->freq_ghz = 3.0;
    const double fc[FLOPS_COUNT] = {[FLOPS_BASE] = (double)s->flops / f->peak_per_cycle,
                                    [FLOPS_NON_FMA] = 120000,
                                    [FLOPS_FRONTEND] = 520000,
                                    [FLOPS_NON_FP] = 15000,
                                    [FLOPS_MEMORY] = 140000,
                                    [FLOPS_DEPEND] = 130000};
    double sum = 0;
    for (int i = 0; i < FLOPS_COUNT; i++) f->cycles[i] = fc[i], sum += fc[i];
    f->cycles[FLOPS_OTHER] = CYCLES - sum;
}

/* ---- validation ---- */

/* The CPI each stack attributes to the components in `comps` (ended by -1). */
static void predict(validation_case *c, const stacks_result *s, const int *comps) {
    for (int k = 0; k < STACK_STAGES; k++) {
        c->predicted[k] = 0;
        for (const int *p = comps; *p >= 0; p++) c->predicted[k] += s->stage[k].cycles[*p] / (double)s->instructions;
    }
    c->lo = fmin(c->predicted[0], fmin(c->predicted[1], c->predicted[2]));
    c->hi = fmax(c->predicted[0], fmax(c->predicted[1], c->predicted[2]));
    c->relevant = false;
    for (int k = 0; k < STACK_STAGES; k++)
        if (c->predicted[k] >= 0.1 * ((double)s->cycles / (double)s->instructions)) c->relevant = true;
}

static void measured(validation_case *c, double base_cpi, double reduction) {
    c->reduction = reduction;
    c->cpi = base_cpi - reduction;
    c->within = c->lo <= reduction && reduction <= c->hi;
    c->error = c->within ? 0 : reduction < c->lo ? c->lo - reduction : reduction - c->hi;
}

static void demo_validation(validation_result *v, const stacks_result *s, const char *program, const char *config) {
    memset(v, 0, sizeof *v);
    snprintf(v->program, sizeof v->program, "%s", program);
    snprintf(v->config, sizeof v->config, "%s", config);
    v->base = *s;
    v->base_cpi = (double)s->cycles / (double)s->instructions;
    static const int icache[] = {COMP_ICACHE_L2, COMP_ICACHE_L3, COMP_ICACHE_MEM, COMP_ITLB, -1};
    static const int dcache[] = {COMP_DCACHE_L2, COMP_DCACHE_L3, COMP_DCACHE_MEM, -1};
    static const int bpred[] = {COMP_BPRED, -1};
    static const int alu[] = {COMP_LONGLAT_INT, COMP_LONGLAT_FP, -1};
    static const int dcache_alu[] = {COMP_DCACHE_L2,   COMP_DCACHE_L3,  COMP_DCACHE_MEM,
                                     COMP_LONGLAT_INT, COMP_LONGLAT_FP, -1};
    static const int bpred_dcache[] = {COMP_BPRED, COMP_DCACHE_L2, COMP_DCACHE_L3, COMP_DCACHE_MEM, -1};
    const struct {
        ideal_kind kind;
        const int *comps;
        double reduction;
    } cases[IDEAL_COUNT] = {
        {IDEAL_ICACHE, icache, 0.045},            /* within, below the 10% filter */
        {IDEAL_DCACHE, dcache, 0.46},             /* above every stack (a second-order effect) */
        {IDEAL_BPRED, bpred, 0.33},               /* within, as the paper's mcf on BDW */
        {IDEAL_ALU, alu, -0.004},                 /* slower: below every stack, and below the filter */
        {IDEAL_DCACHE_ALU, dcache_alu, 0.55},     /* pair > sum of singles: hidden stalls */
        {IDEAL_BPRED_DCACHE, bpred_dcache, 0.47}, /* pair < sum of singles: overlap */
    };
    for (int i = 0; i < IDEAL_COUNT; i++) {
        validation_case *c = &v->cases[i];
        c->kind = cases[i].kind;
        predict(c, s, cases[i].comps);
        measured(c, v->base_cpi, cases[i].reduction);
    }
    validation_case *dcache_alu_case = &v->cases[IDEAL_DCACHE_ALU], *bpred_dcache_case = &v->cases[IDEAL_BPRED_DCACHE];
    dcache_alu_case->sum_of_singles = v->cases[IDEAL_DCACHE].reduction + v->cases[IDEAL_ALU].reduction;
    bpred_dcache_case->sum_of_singles = v->cases[IDEAL_BPRED].reduction + v->cases[IDEAL_DCACHE].reduction;
    for (int i = IDEAL_DCACHE_ALU; i <= IDEAL_BPRED_DCACHE; i++) {
        validation_case *c = &v->cases[i];
        double d = c->reduction - c->sum_of_singles;
        c->interaction = d > 0.005 ? 1 : d < -0.005 ? -1 : 0;
    }
}

int main(int argc, char **argv) {
    bool minimal = argc == 3 && !strcmp(argv[1], "--minimal");
    if (argc != 2 && !minimal) {
        fprintf(stderr, "usage: report_demo [--minimal] OUT.html\n");
        return 2;
    }
    const char *out = argv[argc - 1];
    static const char program[] = "tests/guest/matmul --size=<64> & 'fast' \"x\"";

    uarch_config cfg;
    uarch_config_default(&cfg);
    snprintf(cfg.name, sizeof cfg.name, "bdw<&>");
    cfg.freq_ghz = 3.0;
    core_stats stats;
    demo_stats(&stats);
    run_summary run = {.program = program, .cfg = &cfg, .stats = &stats, .warmup = 100000};
    stacks_result stacks;
    demo_stacks(&stacks, !minimal);

    html_report *h = html_report_begin("Demo report: matmul <64> & \"friends\"");
    html_report_run(h, &run);
    html_report_stacks(h, &stacks);
    if (!minimal) {
        static validation_result v; /* large: keep it off the stack */
        demo_validation(&v, &stacks, program, cfg.name);
        html_report_validation(h, &v);
    }
    cs_error err = {{0}};
    bool ok = html_report_write(h, out, &err);
    html_report_free(h);
    if (!ok) {
        fprintf(stderr, "report_demo: %s\n", err.msg);
        return 1;
    }
    return 0;
}
