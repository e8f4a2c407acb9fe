/* CPI, IPC and FLOPS stacks and their validation, as terminal tables and JSON. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static double per(double a, double b) { return b > 0 ? a / b : 0; }

/* Components in their fixed order (stacks.h, the same as the HTML report's, so
 * that two runs' outputs line up); a component that is zero everywhere is left
 * out, except "other", whose size is always reported. */
static int shown_components(const stacks_result *s, int order[COMP_COUNT]) {
    int n = 0;
    for (int c = 0; c < COMP_COUNT; c++) {
        double most = 0;
        for (int st = 0; st < STACK_STAGES; st++)
            if (s->stage[st].cycles[c] > most) most = s->stage[st].cycles[c];
        if (c == COMP_BASE || c == COMP_OTHER || most > 0) order[n++] = c;
    }
    return n;
}

bool report_stack_uncertain(const stacks_result *s, int c, double *lo, double *hi) {
    *lo = *hi = s->stage[0].cycles[c];
    for (int st = 1; st < STACK_STAGES; st++) {
        if (s->stage[st].cycles[c] < *lo) *lo = s->stage[st].cycles[c];
        if (s->stage[st].cycles[c] > *hi) *hi = s->stage[st].cycles[c];
    }
    return c != COMP_BASE && *hi - *lo > REPORT_UNCERTAIN_SHARE * (double)s->cycles;
}

static double stack_total(const double *v, int count) {
    double t = 0;
    for (int i = 0; i < count; i++) t += v[i];
    return t;
}

void report_stacks_text(const stacks_result *s, FILE *out) {
    double insns = (double)s->instructions, cycles = (double)s->cycles;
    fprintf(out,
            "\nCPI stacks at dispatch, issue and commit (Eyerman et al. Table II; W = %" PRIu32
            ", the narrowest stage)\n",
            s->width);
    fprintf(out, "  %" PRIu64 " instructions, %" PRIu64 " cycles: CPI %.3f, IPC %.3f of a maximum %" PRIu32 "\n",
            s->instructions, s->cycles, per(cycles, insns), per(insns, cycles), s->width);
    static const char *const head[] = {"component", "dispatch", "%", "issue", "%", "commit", "%", "range (CPI)"};
    text_table t;
    table_init(&t, 8, head, "lrrrrrrl");
    int order[COMP_COUNT], n = shown_components(s, order), uncertain = 0;
    for (int i = 0; i < n; i++) {
        int c = order[i], row = table_add_row(&t);
        table_set(&t, row, 0, "%s", stack_component_name((stack_component)c));
        for (int st = 0; st < STACK_STAGES; st++) {
            double v = s->stage[st].cycles[c];
            table_set(&t, row, 1 + 2 * st, "%.3f", per(v, insns));
            table_set(&t, row, 2 + 2 * st, "%.1f%%", 100 * per(v, cycles));
        }
        double lo, hi;
        bool wide = report_stack_uncertain(s, c, &lo, &hi);
        uncertain += wide;
        if (c != COMP_BASE && hi > 0)
            table_set(&t, row, 7, "%.3f – %.3f%s", per(lo, insns), per(hi, insns), wide ? "  uncertain" : "");
    }
    int row = table_add_row(&t);
    table_set(&t, row, 0, "total");
    for (int st = 0; st < STACK_STAGES; st++) {
        double v = stack_total(s->stage[st].cycles, COMP_COUNT);
        table_set(&t, row, 1 + 2 * st, "%.3f", per(v, insns));
        table_set(&t, row, 2 + 2 * st, "%.1f%%", 100 * per(v, cycles));
    }
    table_print(&t, out, "  ");
    table_free(&t);
    fprintf(out,
            "  (CPI per component; %% of cycles. The IPC stack is the same counters x %" PRIu32
            " / cycles: its base is the IPC.)\n"
            "  Range: each stack sees a stall from its own stage; what removing a component gains usually lies\n"
            "  between its smallest and largest value (Eyerman et al. §I).\n",
            s->width);
    if (uncertain)
        fprintf(out,
                "  uncertain: the stacks differ by more than %.0f%% of the cycles on that component;\n"
                "  `cyclescope stacks --validate` measures what idealising it gains.\n",
                100 * REPORT_UNCERTAIN_SHARE);

    const flops_stack *f = &s->fp;
    if (!f->units) {
        fprintf(out, "\nFLOPS stack: the machine has no FP unit\n");
        return;
    }
    double peak = f->peak_per_cycle * f->freq_ghz; /* GFLOPS */
    if (!s->flops) {
        fprintf(out,
                "\nFLOPS stack: no FP work (0 floating-point operations): all %" PRIu32
                " FP unit%s idle, nothing to break down\n",
                f->units, f->units == 1 ? "" : "s");
        return;
    }
    fprintf(out,
            "\nFLOPS stack (Table III; k = %" PRIu32 " FP units, v = %" PRIu32
            ", peak %.0f FLOP/cycle = %.2f GFLOPS at %.2f GHz)\n",
            f->units, f->vector, f->peak_per_cycle, peak, f->freq_ghz);
    fprintf(out, "  %" PRIu64 " FP operations: %.3f GFLOPS, %.1f%% of peak\n", s->flops,
            per(f->cycles[FLOPS_BASE], cycles) * peak, 100 * per(f->cycles[FLOPS_BASE], cycles));
    if (s->flops_outside)
        fprintf(out,
                "  (%" PRIu64 " of them on the separate divider: outside the k units' slots, so not in the"
                " GFLOPS above)\n",
                s->flops_outside);
    static const char *const fhead[] = {"component", "GFLOPS", "% of peak"};
    table_init(&t, 3, fhead, "lrr");
    for (int c = 0; c < FLOPS_COUNT; c++) {
        if (c != FLOPS_BASE && c != FLOPS_OTHER && f->cycles[c] == 0) continue;
        row = table_add_row(&t);
        table_set(&t, row, 0, "%s", report_flops_label((flops_component)c));
        table_set(&t, row, 1, "%.3f", per(f->cycles[c], cycles) * peak);
        table_set(&t, row, 2, "%.1f%%", 100 * per(f->cycles[c], cycles));
    }
    table_print(&t, out, "  ");
    table_free(&t);
    fprintf(out, "  (%% of peak: the share of the FP units' slots, 2 k v each cycle.)\n");
}

const char *report_flops_label(flops_component c) {
    /* the CPI stack's "frontend" and "other" mean something else: not the same words */
    if (c == FLOPS_FRONTEND) return "no FP work";
    if (c == FLOPS_OTHER) return "FP other";
    return flops_component_name(c);
}

cJSON *report_stacks_json(const stacks_result *s) {
    double insns = (double)s->instructions, cycles = (double)s->cycles;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "cycles", cycles);
    cJSON_AddNumberToObject(root, "instructions", insns);
    cJSON_AddNumberToObject(root, "cpi", per(cycles, insns));
    cJSON_AddNumberToObject(root, "width", s->width);
    cJSON_AddNumberToObject(root, "max_ipc", s->width);
    cJSON *cpi = cJSON_AddObjectToObject(root, "cpi_stacks");
    cJSON *ipc = cJSON_AddObjectToObject(root, "ipc_stacks");
    for (int st = 0; st < STACK_STAGES; st++) {
        cJSON *o = cJSON_AddObjectToObject(cpi, stack_stage_name((stack_stage)st));
        cJSON *p = cJSON_AddObjectToObject(ipc, stack_stage_name((stack_stage)st));
        for (int c = 0; c < COMP_COUNT; c++) {
            double v = s->stage[st].cycles[c];
            cJSON *e = cJSON_AddObjectToObject(o, stack_component_name((stack_component)c));
            cJSON_AddNumberToObject(e, "cycles", v);
            cJSON_AddNumberToObject(e, "cpi", per(v, insns));
            cJSON_AddNumberToObject(e, "fraction", per(v, cycles));
            cJSON_AddNumberToObject(p, stack_component_name((stack_component)c), per(v, cycles) * s->width);
        }
    }
    const flops_stack *f = &s->fp;
    cJSON *fl = cJSON_AddObjectToObject(root, "flops_stack");
    double peak = f->peak_per_cycle * f->freq_ghz;
    cJSON_AddNumberToObject(fl, "units", f->units);
    cJSON_AddNumberToObject(fl, "vector", f->vector);
    cJSON_AddNumberToObject(fl, "peak_per_cycle", f->peak_per_cycle);
    cJSON_AddNumberToObject(fl, "freq_ghz", f->freq_ghz);
    cJSON_AddNumberToObject(fl, "peak_gflops", peak);
    cJSON_AddNumberToObject(fl, "flops", (double)s->flops);
    cJSON_AddNumberToObject(fl, "flops_outside_units", (double)s->flops_outside);
    cJSON_AddNumberToObject(fl, "gflops", per(f->cycles[FLOPS_BASE], cycles) * peak);
    cJSON *fc = cJSON_AddObjectToObject(fl, "components");
    for (int c = 0; c < FLOPS_COUNT; c++) {
        cJSON *e = cJSON_AddObjectToObject(fc, flops_component_name((flops_component)c));
        cJSON_AddNumberToObject(e, "cycles", f->cycles[c]);
        cJSON_AddNumberToObject(e, "fraction", per(f->cycles[c], cycles));
        cJSON_AddNumberToObject(e, "gflops", per(f->cycles[c], cycles) * peak);
    }
    return root;
}

/* ---- validation ---- */

static const char *ideal_id(ideal_kind k) {
    static const char *const ids[IDEAL_COUNT] = {"icache", "dcache", "bpred", "alu", "dcache+alu", "bpred+dcache"};
    return (unsigned)k < IDEAL_COUNT ? ids[k] : "?";
}

static bool is_pair(ideal_kind k) { return k == IDEAL_DCACHE_ALU || k == IDEAL_BPRED_DCACHE; }

static const char *interaction_name(int i) { return i > 0 ? "hidden stalls" : i < 0 ? "overlap" : "neither"; }

void report_validation_text(const validation_result *v, FILE *out) {
    fprintf(out,
            "\nValidation (Eyerman et al. §IV, §V-A) on %s: baseline CPI %.3f. Each idealised machine's actual CPI\n"
            "reduction against the component(s) it removes in the dispatch, issue and commit stacks.\n",
            v->config, v->base_cpi);
    static const char *const head[] = {"idealisation", "dispatch", "issue", "commit",         "actual",
                                       "CPI",          "in range", "error", "error % of CPI", ">=10%"};
    text_table t;
    table_init(&t, 10, head, "lrrrrrlrrl");
    for (int k = 0; k < IDEAL_COUNT; k++) {
        const validation_case *c = &v->cases[k];
        int row = table_add_row(&t);
        table_set(&t, row, 0, "%s", ideal_kind_name(c->kind));
        for (int st = 0; st < STACK_STAGES; st++) table_set(&t, row, 1 + st, "%.3f", c->predicted[st]);
        table_set(&t, row, 4, "%.3f", c->reduction);
        table_set(&t, row, 5, "%.3f", c->cpi);
        table_set(&t, row, 6, "%s", c->within ? "yes" : c->reduction < c->lo ? "no, below" : "no, above");
        table_set(&t, row, 7, "%.3f", c->error);
        table_set(&t, row, 8, "%.1f%%", 100 * per(c->error, v->base_cpi));
        table_set(&t, row, 9, "%s", c->relevant ? "yes" : "no");
    }
    table_print(&t, out, "  ");
    table_free(&t);
    int relevant = 0, within = 0;
    double err = 0;
    for (int k = 0; k < IDEAL_COUNT; k++) {
        if (!v->cases[k].relevant) continue;
        relevant++;
        within += v->cases[k].within;
        err += v->cases[k].error;
    }
    if (relevant)
        fprintf(out, "  %d of %d relevant case%s within the range; mean §V-A error %.3f CPI (%.1f%% of the CPI)\n",
                within, relevant, relevant == 1 ? " falls" : "s fall", err / relevant,
                100 * per(err / relevant, v->base_cpi));
    else fprintf(out, "  no relevant case (no idealised component reaches 10%% of the CPI in any stack)\n");
    for (int k = 0; k < IDEAL_COUNT; k++) {
        const validation_case *c = &v->cases[k];
        if (!is_pair(c->kind)) continue;
        fprintf(out, "  %s: %.3f together vs %.3f as the sum of the two alone: %s\n", ideal_kind_name(c->kind),
                c->reduction, c->sum_of_singles,
                c->interaction > 0       ? "hidden stalls (larger than the sum)"
                    : c->interaction < 0 ? "overlap (smaller than the sum)"
                                         : "neither (within 0.5% of the baseline CPI)");
    }
    fprintf(out,
            "  (CPI values. error: 0 in range, else the distance to the closest stack (§V-A).\n"
            "   >=10%%: the component is at least 10%% of CPI in some stack, the cases §V-A counts.)\n");
}

cJSON *report_validation_json(const validation_result *v) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "program", v->program);
    cJSON_AddStringToObject(root, "config", v->config);
    cJSON_AddNumberToObject(root, "base_cpi", v->base_cpi);
    cJSON *cases = cJSON_AddArrayToObject(root, "cases");
    for (int k = 0; k < IDEAL_COUNT; k++) {
        const validation_case *c = &v->cases[k];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", ideal_id(c->kind));
        cJSON_AddStringToObject(o, "name", ideal_kind_name(c->kind));
        cJSON_AddNumberToObject(o, "cpi", c->cpi);
        cJSON_AddNumberToObject(o, "reduction", c->reduction);
        cJSON *p = cJSON_AddObjectToObject(o, "predicted");
        for (int st = 0; st < STACK_STAGES; st++)
            cJSON_AddNumberToObject(p, stack_stage_name((stack_stage)st), c->predicted[st]);
        cJSON_AddNumberToObject(o, "lo", c->lo);
        cJSON_AddNumberToObject(o, "hi", c->hi);
        cJSON_AddBoolToObject(o, "within", c->within);
        cJSON_AddNumberToObject(o, "error", c->error);
        cJSON_AddBoolToObject(o, "relevant", c->relevant);
        if (is_pair(c->kind)) {
            cJSON_AddNumberToObject(o, "sum_of_singles", c->sum_of_singles);
            cJSON_AddStringToObject(o, "interaction", interaction_name(c->interaction));
        }
        cJSON_AddItemToArray(cases, o);
    }
    return root; /* the baseline's stacks: report_stacks_json(&v->base) */
}
