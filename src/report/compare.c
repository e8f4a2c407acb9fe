/* cyclescope compare: runs side by side in the terminal, changes against the first. */
#include <math.h>
#include <string.h>

#include "report.h"

static const char *const mpki_name[5] = {"branch MPKI", "L1I MPKI", "L1D MPKI", "L2 MPKI", "L3 MPKI"};

static void change_cells(text_table *t, int row, int col, double a, double b, int decimals) {
    table_set(t, row, col, "%+.*f", decimals, b - a);
    if (a != 0) table_set(t, row, col + 1, "%+.1f%%", 100 * (b - a) / fabs(a));
    else table_set(t, row, col + 1, "%s", b == 0 ? "0.0%" : "new");
}

/* Columns: name, each run, then for each run after A its change and change in %. */
static void compare_table(text_table *t, const compare_run *runs, int n, const char *first) {
    static char heads[3 * COMPARE_MAX_RUNS][24];
    const char *head[TABLE_MAX_COLS];
    char align[TABLE_MAX_COLS + 1];
    int cols = 0;
    head[cols] = first, align[cols++] = 'l';
    for (int i = 0; i < n; i++) {
        snprintf(heads[i], sizeof heads[i], "%s", runs[i].label);
        head[cols] = heads[i], align[cols++] = 'r';
    }
    for (int i = 1; i < n && cols + 2 <= TABLE_MAX_COLS; i++) {
        snprintf(heads[n + 2 * i], sizeof heads[0], "%s-A", runs[i].label);
        snprintf(heads[n + 2 * i + 1], sizeof heads[0], "%%");
        head[cols] = heads[n + 2 * i], align[cols++] = 'r';
        head[cols] = heads[n + 2 * i + 1], align[cols++] = 'r';
    }
    align[cols] = 0;
    table_init(t, cols, head, align);
}

static void value_row(text_table *t, const compare_run *runs, int n, const char *name, const double *v, int decimals) {
    int row = table_add_row(t);
    table_set(t, row, 0, "%s", name);
    for (int i = 0; i < n; i++)
        if (v[i] >= 0) table_set(t, row, 1 + i, "%.*f", decimals, v[i]);
    for (int i = 1, col = 1 + n; i < n && col + 2 <= t->cols; i++, col += 2)
        if (v[i] >= 0 && v[0] >= 0) change_cells(t, row, col, v[0], v[i], decimals);
    (void)runs;
}

void report_compare_text(const compare_run *runs, int n, FILE *out) {
    fprintf(out, "Comparing %d runs (changes against A):\n", n);
    for (int i = 0; i < n; i++)
        fprintf(out, "  %s  %s: %s on %s%s%s%s\n", runs[i].label, runs[i].file, runs[i].program, runs[i].config,
                runs[i].overrides[0] ? " (--set " : "", runs[i].overrides, runs[i].overrides[0] ? ")" : "");
    for (int i = 1; i < n; i++)
        if (runs[i].sha256[0] && runs[0].sha256[0] && strcmp(runs[i].sha256, runs[0].sha256))
            fprintf(out, "  note: %s ran another input than A (SHA-256 %.12s…, A: %.12s…)\n", runs[i].label,
                    runs[i].sha256, runs[0].sha256);
    text_table t;
    compare_table(&t, runs, n, "summary");
    double v[COMPARE_MAX_RUNS] = {0};
#define ROW(name, field, dec)                             \
    do {                                                  \
        for (int i = 0; i < n; i++) v[i] = runs[i].field; \
        value_row(&t, runs, n, name, v, dec);             \
    } while (0)
    ROW("cycles", cycles, 0);
    ROW("instructions", instructions, 0);
    ROW("IPC", ipc, 3);
    ROW("CPI", cpi, 3);
    for (int m = 0; m < 5; m++) {
        bool any = false;
        for (int i = 0; i < n; i++) any |= runs[i].mpki[m] >= 0;
        if (any) ROW(mpki_name[m], mpki[m], 2);
    }
#undef ROW
    fputc('\n', out);
    table_print(&t, out, "  ");
    table_free(&t);
    bool stacks = true;
    for (int i = 0; i < n; i++) stacks &= runs[i].has_stacks;
    if (!stacks) {
        fprintf(out, "\n  (not every run has stacks: no stack comparison)\n");
        return;
    }
    for (int st = 0; st < STACK_STAGES; st++) {
        char first[40];
        snprintf(first, sizeof first, "CPI at %s", stack_stage_name((stack_stage)st));
        compare_table(&t, runs, n, first);
        for (int c = 0; c < COMP_COUNT; c++) {
            bool any = false;
            for (int i = 0; i < n; i++) {
                v[i] = runs[i].stack[st][c];
                any |= v[i] != 0;
            }
            if (any || c == COMP_BASE) value_row(&t, runs, n, stack_component_name((stack_component)c), v, 3);
        }
        for (int i = 0; i < n; i++) {
            v[i] = 0;
            for (int c = 0; c < COMP_COUNT; c++) v[i] += runs[i].stack[st][c];
        }
        value_row(&t, runs, n, "total", v, 3);
        fputc('\n', out);
        table_print(&t, out, "  ");
        table_free(&t);
    }
    fprintf(out, "  (components in their fixed order; X-A: the change against A, and in %% of A's value)\n");
}
