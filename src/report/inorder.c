/* The in-order machines' distributions, as in Noonburg's Figure 5.8. */
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

void report_inorder_text(const run_summary *r, FILE *out) {
    const core_stats *s = r->stats;
    const inorder_config *io = &r->cfg->inorder;
    fprintf(out, "\n");
    print_distribution(out, "cycles issuing k instructions", s->issue_hist, ISSUE_HIST_MAX + 1, s->cycles);
    print_distribution(out, "fetch buffer occupancy", s->fetch_buffer_hist, 17, s->cycles);
    print_distribution(out, "issue buffer occupancy", s->issue_buffer_hist, 17, s->cycles);
    for (uint32_t p = 0; p < io->pipe_count; p++)
        fprintf(out, "  pipe %-6s %u stage%s: issued %" PRIu64 " (%.1f%% of cycles), average occupancy %.2f\n",
                io->pipe[p].name, io->pipe[p].stages, io->pipe[p].stages == 1 ? " " : "s", s->pipe_issued[p],
                100 * share(s->pipe_issued[p], s->cycles), share(s->pipe_occupancy[p], s->cycles));
    if (io->value_prediction)
        fprintf(out, "  value predictions: %" PRIu64 ", mispredicted %" PRIu64 "\n", s->value_predictions,
                s->value_mispredictions);
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
        cJSON_AddNumberToObject(x, "average_occupancy", share(s->pipe_occupancy[p], s->cycles));
        cJSON_AddItemToArray(pipes, x);
    }
    if (io->value_prediction) {
        cJSON_AddNumberToObject(o, "value_predictions", (double)s->value_predictions);
        cJSON_AddNumberToObject(o, "value_mispredictions", (double)s->value_mispredictions);
    }
}
