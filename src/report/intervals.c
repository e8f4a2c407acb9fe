/* Statistics over time (--interval N): the terminal summary and the JSON. */
#include <inttypes.h>
#include <stdlib.h>

#include "report.h"

static double per(double a, double b) { return b != 0 ? a / b : 0; }

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void report_intervals_text(const stacks_intervals *iv, FILE *out) {
    double *ipc = cs_calloc(iv->count, sizeof *ipc);
    size_t n = 0;
    for (size_t k = 0; k < iv->count; k++)
        if (iv->at[k].instructions) ipc[n++] = per((double)iv->at[k].instructions, (double)iv->at[k].cycles);
    qsort(ipc, n, sizeof *ipc, by_value);
    fprintf(out, "\nOver time: %zu intervals of %" PRIu64 " instructions", iv->count, iv->every);
    if (n) fprintf(out, "; IPC from %.3f to %.3f (median %.3f)", ipc[0], ipc[n - 1], ipc[n / 2]);
    fprintf(out, ".\n  Every interval's IPC, MPKIs and CPI stacks: JSON (stacks.intervals), --csv, the HTML report.\n");
    free(ipc);
}

/* A number or an object under a key that is a string constant: not copied (cJSON's "CS"). An
 * interval has 27 keys; 53 k intervals (a 53 M-instruction run at --interval 1000) held 1.4 M
 * key copies. */
static void add_number(cJSON *o, const char *constant_key, double v) {
    cJSON_AddItemToObjectCS(o, constant_key, cJSON_CreateNumber(v));
}

static cJSON *add_object(cJSON *o, const char *constant_key) {
    cJSON *child = cJSON_CreateObject();
    cJSON_AddItemToObjectCS(o, constant_key, child);
    return child;
}

cJSON *report_intervals_json(const stacks_intervals *iv) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "every", (double)iv->every);
    cJSON_AddNumberToObject(root, "count", (double)iv->count);
    cJSON *at = cJSON_AddArrayToObject(root, "at");
    for (size_t k = 0; k < iv->count; k++) {
        const stacks_interval *x = &iv->at[k];
        double insns = (double)x->instructions;
        cJSON *o = cJSON_CreateObject();
        add_number(o, "first_cycle", (double)x->first_cycle);
        add_number(o, "cycles", (double)x->cycles);
        add_number(o, "instructions", insns);
        add_number(o, "ipc", per(insns, (double)x->cycles));
        cJSON *m = add_object(o, "mpki");
        add_number(m, "branch", per(1000.0 * (double)x->mispredicts, insns));
        add_number(m, "l1i", per(1000.0 * (double)x->l1i_misses, insns));
        add_number(m, "l1d", per(1000.0 * (double)x->l1d_misses, insns));
        add_number(m, "l2", per(1000.0 * (double)x->l2_misses, insns));
        add_number(m, "l3", per(1000.0 * (double)x->l3_misses, insns));
        add_number(o, "flops", (double)x->flops);
        cJSON *cs = add_object(o, "cpi_stacks");
        for (int st = 0; st < STACK_STAGES; st++) {
            cJSON *s = add_object(cs, stack_stage_name((stack_stage)st));
            for (int c = 0; c < COMP_COUNT; c++)
                add_number(s, stack_component_name((stack_component)c), x->stage[st].cycles[c]);
        }
        cJSON_AddItemToArray(at, o);
    }
    return root;
}
