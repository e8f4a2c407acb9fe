/* The in-order machines' distributions, as in Noonburg's Figure 5.8: the
 * issue-rate (IPC) distribution, the fetch and issue buffer occupancy
 * distributions, and for each pipe its issue distribution (cycles issuing 0 or
 * 1 instruction to it) and occupancy distribution; then the caches, which the
 * general table leaves to this one for in-order runs. */
#include <inttypes.h>

#include "report.h"

static double share(uint64_t n, uint64_t total) { return total ? (double)n / (double)total : 0; }

/* Highest index with a nonzero count, so tables stop where the data does. */
static int last_nonzero(const uint64_t *h, int n) {
    int last = 0;
    for (int i = 0; i < n; i++)
        if (h[i]) last = i;
    return last;
}

static void print_distribution(FILE *out, const char *title, const uint64_t *h, int n, uint64_t cycles) {
    fprintf(out, "  %s:", title);
    for (int i = 0; i <= last_nonzero(h, n); i++) fprintf(out, "  %d: %.1f%%", i, 100 * share(h[i], cycles));
    fputc('\n', out);
}

static void print_cache(FILE *out, const char *name, const cache_config *cc, bool perfect, const cache_stats *cs,
                        uint64_t instructions) {
    if (perfect) {
        fprintf(out, "  %s: perfect\n", name);
        return;
    }
    uint32_t blocks = cc->line ? cc->size / cc->line : 0;
    char shape[64];
    if (cc->assoc == 0 || cc->assoc >= blocks) snprintf(shape, sizeof shape, "fully associative");
    else snprintf(shape, sizeof shape, "%u-way", cc->assoc);
    fprintf(out, "  %s: %u blocks of %u B, %s: %" PRIu64 " accesses, %" PRIu64 " misses (%.2f%%, %.2f MPKI)\n", name,
            blocks, cc->line, shape, cs->accesses, cs->misses, 100 * share(cs->misses, cs->accesses),
            1000 * share(cs->misses, instructions));
}

void report_inorder_text(const run_summary *r, FILE *out) {
    const core_stats *s = r->stats;
    const uarch_config *c = r->cfg;
    const inorder_config *io = &c->inorder;
    fprintf(out, "\n  distributions (fraction of cycles; Noonburg Figure 5.8)\n");
    print_distribution(out, "cycles issuing k instructions", s->issue_hist, ISSUE_HIST_MAX + 1, s->cycles);
    char title[96];
    snprintf(title, sizeof title, "fetch buffer occupancy (%u entries)", io->fetch_buffer);
    print_distribution(out, title, s->fetch_buffer_hist, 17, s->cycles);
    snprintf(title, sizeof title, "issue buffer occupancy (%u entries)", io->issue_buffer);
    print_distribution(out, title, s->issue_buffer_hist, 17, s->cycles);
    for (uint32_t p = 0; p < io->pipe_count; p++) {
        uint64_t issued = s->pipe_issued[p];
        fprintf(out, "  pipe %s (%u stage%s): issuing 0: %.1f%%  1: %.1f%%;  average occupancy %.2f\n",
                io->pipe[p].name, io->pipe[p].stages, io->pipe[p].stages == 1 ? "" : "s",
                100 * share(s->cycles - issued, s->cycles), 100 * share(issued, s->cycles),
                share(s->pipe_occupancy[p], s->cycles));
        snprintf(title, sizeof title, "  pipe %s occupancy", io->pipe[p].name);
        print_distribution(out, title, s->pipe_occupancy_hist[p], 65, s->cycles);
    }
    print_cache(out, "I-cache", &c->l1i, c->perfect_icache, &s->l1i, s->instructions);
    print_cache(out, "D-cache", &c->l1d, c->perfect_dcache, &s->l1d, s->instructions);
    if (io->value_prediction)
        fprintf(out, "  value predictions: %" PRIu64 ", mispredicted %" PRIu64 " (%.2f%%)\n", s->value_predictions,
                s->value_mispredictions, 100 * share(s->value_mispredictions, s->value_predictions));
}

static cJSON *distribution_json(const uint64_t *h, int n, uint64_t cycles) {
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i <= last_nonzero(h, n); i++) cJSON_AddItemToArray(a, cJSON_CreateNumber(share(h[i], cycles)));
    return a;
}

void report_inorder_json(const run_summary *r, cJSON *root) {
    const core_stats *s = r->stats;
    const inorder_config *io = &r->cfg->inorder;
    cJSON *o = cJSON_AddObjectToObject(root, "inorder");
    cJSON_AddItemToObject(o, "issue_distribution", distribution_json(s->issue_hist, ISSUE_HIST_MAX + 1, s->cycles));
    cJSON_AddItemToObject(o, "fetch_buffer_occupancy", distribution_json(s->fetch_buffer_hist, 17, s->cycles));
    cJSON_AddItemToObject(o, "issue_buffer_occupancy", distribution_json(s->issue_buffer_hist, 17, s->cycles));
    cJSON *pipes = cJSON_AddArrayToObject(o, "pipes");
    for (uint32_t p = 0; p < io->pipe_count; p++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", io->pipe[p].name);
        cJSON_AddNumberToObject(x, "stages", io->pipe[p].stages);
        cJSON_AddNumberToObject(x, "issued", (double)s->pipe_issued[p]);
        cJSON_AddNumberToObject(x, "issue_fraction", share(s->pipe_issued[p], s->cycles));
        cJSON *issue = cJSON_AddArrayToObject(x, "issue_distribution");
        cJSON_AddItemToArray(issue, cJSON_CreateNumber(share(s->cycles - s->pipe_issued[p], s->cycles)));
        cJSON_AddItemToArray(issue, cJSON_CreateNumber(share(s->pipe_issued[p], s->cycles)));
        cJSON_AddNumberToObject(x, "average_occupancy", share(s->pipe_occupancy[p], s->cycles));
        cJSON_AddItemToObject(x, "occupancy_distribution", distribution_json(s->pipe_occupancy_hist[p], 65, s->cycles));
        cJSON_AddItemToArray(pipes, x);
    }
    if (io->value_prediction) {
        cJSON_AddNumberToObject(o, "value_predictions", (double)s->value_predictions);
        cJSON_AddNumberToObject(o, "value_mispredictions", (double)s->value_mispredictions);
    }
}
