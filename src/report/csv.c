/* CSV of a run: the summary and the stacks, one row per value (docs/json-schema.md).
 * Columns: interval, section, stage, component, cycles, cpi, fraction, value,
 * unit. Summary rows fill component, value and unit; CPI-stack rows one per
 * stage x component (cycles, cpi, fraction, and the IPC stack's value); FLOPS
 * rows the issue stage. The whole run's rows have no interval; then each
 * interval's summary and CPI stacks (--interval N), numbered from 0. */
#include <inttypes.h>

#include "report.h"

static double per(double a, double b) { return b != 0 ? a / b : 0; }

static void summary_row(FILE *out, const char *name, double value, const char *unit) {
    fprintf(out, ",summary,,%s,,,,%.17g,%s\n", name, value, unit);
}

static void interval_rows(FILE *out, size_t k, const stacks_interval *x) {
    double insns = (double)x->instructions, cycles = (double)x->cycles;
    const struct {
        const char *name;
        double value;
        const char *unit;
    } rows[] = {{"cycles", cycles, "cycles"},
                {"instructions", insns, "instructions"},
                {"ipc", per(insns, cycles), "instructions/cycle"},
                {"cpi", per(cycles, insns), "cycles/instruction"},
                {"branch_mpki", per(1000.0 * (double)x->mispredicts, insns), "per 1000 instructions"},
                {"l1i_mpki", per(1000.0 * (double)x->l1i_misses, insns), "per 1000 instructions"},
                {"l1d_mpki", per(1000.0 * (double)x->l1d_misses, insns), "per 1000 instructions"},
                {"l2_mpki", per(1000.0 * (double)x->l2_misses, insns), "per 1000 instructions"},
                {"l3_mpki", per(1000.0 * (double)x->l3_misses, insns), "per 1000 instructions"}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        fprintf(out, "%zu,summary,,%s,,,,%.17g,%s\n", k, rows[i].name, rows[i].value, rows[i].unit);
    for (int st = 0; st < STACK_STAGES; st++)
        for (int c = 0; c < COMP_COUNT; c++) {
            double v = x->stage[st].cycles[c];
            fprintf(out, "%zu,cpi_stack,%s,%s,%.17g,%.17g,%.17g,,\n", k, stack_stage_name((stack_stage)st),
                    stack_component_name((stack_component)c), v, per(v, insns), per(v, cycles));
        }
}

void report_csv(const run_summary *r, const stacks_result *s, const stacks_intervals *iv, FILE *out) {
    const core_stats *st = r->stats;
    double insns = (double)st->instructions, cycles = (double)st->cycles;
    fprintf(out, "interval,section,stage,component,cycles,cpi,fraction,value,unit\n");
    summary_row(out, "cycles", cycles, "cycles");
    summary_row(out, "instructions", insns, "instructions");
    summary_row(out, "uops", (double)st->uops, "uops");
    summary_row(out, "ipc", per(insns, cycles), "instructions/cycle");
    summary_row(out, "cpi", per(cycles, insns), "cycles/instruction");
    summary_row(out, "branch_mpki", per(1000.0 * (double)st->mispredicts, insns), "per 1000 instructions");
    summary_row(out, "l1i_mpki", per(1000.0 * (double)st->l1i.misses, insns), "per 1000 instructions");
    summary_row(out, "l1d_mpki", per(1000.0 * (double)st->l1d.misses, insns), "per 1000 instructions");
    if (r->cfg->l2.enabled)
        summary_row(out, "l2_mpki", per(1000.0 * (double)st->l2.misses, insns), "per 1000 instructions");
    if (r->cfg->l3.enabled)
        summary_row(out, "l3_mpki", per(1000.0 * (double)st->l3.misses, insns), "per 1000 instructions");
    summary_row(out, "flops", (double)st->flops, "FP operations");
    if (!s) return;
    for (int stage = 0; stage < STACK_STAGES; stage++)
        for (int c = 0; c < COMP_COUNT; c++) {
            double v = s->stage[stage].cycles[c];
            fprintf(out, ",cpi_stack,%s,%s,%.17g,%.17g,%.17g,%.17g,ipc\n", stack_stage_name((stack_stage)stage),
                    stack_component_name((stack_component)c), v, per(v, (double)s->instructions),
                    per(v, (double)s->cycles), per(v, (double)s->cycles) * s->width);
        }
    const flops_stack *f = &s->fp;
    double peak = f->peak_per_cycle * f->freq_ghz;
    for (int c = 0; c < FLOPS_COUNT; c++)
        fprintf(out, ",flops_stack,issue,%s,%.17g,,%.17g,%.17g,GFLOPS\n", flops_component_name((flops_component)c),
                f->cycles[c], per(f->cycles[c], (double)s->cycles), per(f->cycles[c], (double)s->cycles) * peak);
    for (size_t k = 0; iv && k < iv->count; k++) interval_rows(out, k, &iv->at[k]);
}
