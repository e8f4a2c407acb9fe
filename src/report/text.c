/* Plain-text tables and the run summary. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

void table_init(text_table *t, int cols, const char *const *head, const char *align) {
    memset(t, 0, sizeof *t);
    if (cols > TABLE_MAX_COLS) abort(); /* a programming error: the tables are fixed */
    t->cols = cols;
    for (int c = 0; c < cols; c++) {
        t->head[c] = head[c];
        t->align[c] = align[c];
    }
}

int table_add_row(text_table *t) {
    if (t->rows == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 16;
        t->cells = cs_realloc(t->cells, (size_t)t->cap * (size_t)t->cols * sizeof(char *));
    }
    for (int c = 0; c < t->cols; c++) t->cells[t->rows * t->cols + c] = NULL;
    return t->rows++;
}

void table_set(text_table *t, int row, int col, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0) s = NULL;
    va_end(ap);
    free(t->cells[row * t->cols + col]);
    t->cells[row * t->cols + col] = s;
}

/* Display width of UTF-8 text (code points; our text has no wide characters). */
static int text_width(const char *s) {
    int w = 0;
    for (; s && *s; s++)
        if (((unsigned char)*s & 0xc0) != 0x80) w++;
    return w;
}

void table_print(const text_table *t, FILE *out, const char *indent) {
    int width[TABLE_MAX_COLS];
    for (int c = 0; c < t->cols; c++) {
        width[c] = text_width(t->head[c]);
        for (int r = 0; r < t->rows; r++) {
            int w = text_width(t->cells[r * t->cols + c]);
            if (w > width[c]) width[c] = w;
        }
    }
    for (int r = -1; r < t->rows; r++) {
        fputs(indent, out);
        for (int c = 0; c < t->cols; c++) {
            const char *s = r < 0 ? t->head[c] : t->cells[r * t->cols + c];
            if (!s) s = "";
            int pad = width[c] - text_width(s);
            if (t->align[c] == 'r') fprintf(out, "%*s%s", pad, "", s);
            else fprintf(out, "%s%*s", s, c + 1 < t->cols ? pad : 0, "");
            if (c + 1 < t->cols) fputs("  ", out);
        }
        fputc('\n', out);
        if (r < 0) { /* a rule under the header */
            fputs(indent, out);
            int total = 0;
            for (int c = 0; c < t->cols; c++) total += width[c] + (c + 1 < t->cols ? 2 : 0);
            for (int i = 0; i < total; i++) fputs("─", out);
            fputc('\n', out);
        }
    }
}

void table_free(text_table *t) {
    for (int i = 0; i < t->rows * t->cols; i++) free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

static double per_kilo(uint64_t n, uint64_t instructions) {
    return instructions ? 1000.0 * (double)n / (double)instructions : 0;
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0; }

void report_run_text(const run_summary *r, FILE *out) {
    const core_stats *s = r->stats;
    const uarch_config *c = r->cfg;
    fprintf(out, "%s on %s (%s model)\n", r->program, c->name, c->model == MODEL_OOO ? "out-of-order" : "in-order");
    static const char *const head[] = {"metric", "value"};
    text_table t;
    table_init(&t, 2, head, "lr");
    int row;
#define ROW(name, ...) (row = table_add_row(&t), table_set(&t, row, 0, "%s", name), table_set(&t, row, 1, __VA_ARGS__))
    ROW("cycles", "%" PRIu64, s->cycles);
    ROW("instructions", "%" PRIu64, s->instructions);
    if (s->uops != s->instructions) ROW("µops", "%" PRIu64, s->uops);
    ROW("IPC", "%.3f", ratio(s->instructions, s->cycles));
    ROW("CPI", "%.3f", ratio(s->cycles, s->instructions));
    if (r->warmup) ROW("warm-up µops", "%" PRIu64, r->warmup);
    ROW("branch MPKI", "%.2f", per_kilo(s->mispredicts, s->instructions));
    if (uarch_no_branch_prediction(c)) { /* an accuracy of 0% would read as a predictor always wrong */
        ROW("branch accuracy", "no predictor (fetch stops at each of the %" PRIu64 " branches)", s->branches);
    } else {
        ROW("branch accuracy", "%.2f%% (%" PRIu64 " of %" PRIu64 ")",
            s->branches ? 100.0 * (1 - ratio(s->mispredicts, s->branches)) : 100.0, s->branches - s->mispredicts,
            s->branches);
        ROW("cond. branch accuracy", "%.2f%%",
            s->cond_branches ? 100.0 * (1 - ratio(s->cond_mispredicts, s->cond_branches)) : 100.0);
    }
    const struct {
        const char *name;
        const cache_stats *cs;
        bool on;
    } levels[] = {{"L1I", &s->l1i, true},
                  {"L1D", &s->l1d, true},
                  {"L2", &s->l2, c->l2.enabled},
                  {"L3", &s->l3, c->l3.enabled},
                  {"ITLB", &s->itlb, c->itlb_entries > 0},
                  {"DTLB", &s->dtlb, c->dtlb_entries > 0},
                  {"L2 TLB", &s->l2tlb, c->l2tlb_entries > 0}};
    for (int i = 0; i < 7; i++) {
        if (!levels[i].on || (c->model == MODEL_INORDER && i < 4)) continue; /* in-order: caches below */
        char name[32];
        snprintf(name, sizeof name, "%s accesses / misses", levels[i].name);
        ROW(name, "%" PRIu64 " / %" PRIu64 " (%.2f%% miss, %.2f MPKI)", levels[i].cs->accesses, levels[i].cs->misses,
            100 * ratio(levels[i].cs->misses, levels[i].cs->accesses), per_kilo(levels[i].cs->misses, s->instructions));
        if (i >= 4 || !levels[i].cs->fills) continue;
        double latency = ratio(levels[i].cs->fill_cycles, levels[i].cs->fills);
        if (i < 2) { /* merged (MSHR hits) are counted at the L1s */
            snprintf(name, sizeof name, "%s merged / avg miss latency", levels[i].name);
            ROW(name, "%" PRIu64 " / %.1f cycles", levels[i].cs->merged, latency);
        } else {
            snprintf(name, sizeof name, "%s avg miss latency", levels[i].name);
            ROW(name, "%.1f cycles", latency);
        }
    }
    for (int i = 0; i < 2; i++) {
        const cache_stats *cs = levels[i].cs;
        if (!cs->prefetches) continue;
        char name[48];
        snprintf(name, sizeof name, "%s prefetches: useful / late", levels[i].name);
        /* accuracy: useful / prefetched; coverage: useful / (useful + misses left) */
        ROW(name, "%" PRIu64 ": %" PRIu64 " / %" PRIu64 " (accuracy %.1f%%, coverage %.1f%%)", cs->prefetches,
            cs->prefetch_useful, cs->prefetch_late, 100 * ratio(cs->prefetch_useful, cs->prefetches),
            100 * ratio(cs->prefetch_useful, cs->prefetch_useful + cs->misses));
    }
    if (c->dram)
        ROW("DRAM reads / writes; row hits / empty / conflicts",
            "%" PRIu64 " / %" PRIu64 "; %" PRIu64 " / %" PRIu64 " / %" PRIu64, s->dram_reads, s->dram_writes,
            s->dram_row_hits, s->dram_row_empty, s->dram_row_conflicts);
    if (c->writebacks)
        ROW("write-backs L1D / L2 / L3 / memory", "%" PRIu64 " / %" PRIu64 " / %" PRIu64 " / %" PRIu64,
            s->l1d.writebacks, s->l2.writebacks, s->l3.writebacks, s->mem_writebacks);
    if (c->model == MODEL_OOO) {
        ROW("avg ROB occupancy", "%.1f / %u", ratio(s->rob_occupancy, s->cycles), c->rob_size);
        ROW("avg IQ occupancy", "%.1f / %u", ratio(s->iq_occupancy, s->cycles), c->iq_size);
        if (c->lsq_size)
            ROW("avg LSQ occupancy", "%.1f / %u", ratio(s->lq_occupancy + s->sq_occupancy, s->cycles), c->lsq_size);
        else {
            ROW("avg LQ occupancy", "%.1f / %u", ratio(s->lq_occupancy, s->cycles), c->lq_size);
            ROW("avg SQ occupancy", "%.1f / %u", ratio(s->sq_occupancy, s->cycles), c->sq_size);
        }
    }
    if (c->store_buffer) /* both models (in-order: the memory pipe waited for an entry) */
        ROW("store buffer: avg occupancy, full", "%.1f / %u, %.1f%% of cycles", ratio(s->sb_occupancy, s->cycles),
            c->store_buffer, 100 * ratio(s->sb_full_cycles, s->cycles));
#undef ROW
    table_print(&t, out, "  ");
    table_free(&t);
    /* below the table, not in it: the table's width would follow the host's speed, and two runs
     * of the same design would print different tables */
    if (s->seconds > 0)
        fprintf(out, "  simulation speed: %.2f M instructions/s (%.2f s)\n", s->instructions / s->seconds / 1e6,
                s->seconds);
    if (c->model == MODEL_INORDER) report_inorder_text(r, out);
}
