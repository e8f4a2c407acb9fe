/* JSON output with cJSON. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static cJSON *cache_json(const cache_stats *c, bool memory_detail) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "accesses", (double)c->accesses);
    cJSON_AddNumberToObject(o, "misses", (double)c->misses);
    if (!memory_detail) return o;
    /* primary misses are `misses`; merged: hits on a line still being filled (MSHR hits) */
    cJSON_AddNumberToObject(o, "merged", (double)c->merged);
    cJSON_AddNumberToObject(o, "timed_fills", (double)c->fills);
    cJSON_AddNumberToObject(o, "avg_miss_latency", c->fills ? (double)c->fill_cycles / (double)c->fills : 0);
    cJSON_AddNumberToObject(o, "writebacks", (double)c->writebacks);
    return o;
}

cJSON *report_run_json(const run_summary *r) {
    const core_stats *s = r->stats;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "program", r->program);
    cJSON_AddStringToObject(root, "config", r->cfg->name);
    cJSON_AddStringToObject(root, "model", r->cfg->model == MODEL_OOO ? "ooo" : "inorder");
    cJSON_AddNumberToObject(root, "warmup_uops", (double)r->warmup);
    cJSON_AddNumberToObject(root, "cycles", (double)s->cycles);
    cJSON_AddNumberToObject(root, "instructions", (double)s->instructions);
    cJSON_AddNumberToObject(root, "uops", (double)s->uops);
    cJSON_AddNumberToObject(root, "ipc", s->cycles ? (double)s->instructions / (double)s->cycles : 0);
    cJSON_AddNumberToObject(root, "cpi", s->instructions ? (double)s->cycles / (double)s->instructions : 0);
    cJSON *br = cJSON_AddObjectToObject(root, "branches");
    cJSON_AddNumberToObject(br, "total", (double)s->branches);
    cJSON_AddNumberToObject(br, "mispredicts", (double)s->mispredicts);
    cJSON_AddNumberToObject(br, "conditional", (double)s->cond_branches);
    cJSON_AddNumberToObject(br, "conditional_mispredicts", (double)s->cond_mispredicts);
    cJSON_AddNumberToObject(br, "mpki",
                            s->instructions ? 1000.0 * (double)s->mispredicts / (double)s->instructions : 0);
    cJSON *caches = cJSON_AddObjectToObject(root, "caches");
    cJSON_AddItemToObject(caches, "l1i", cache_json(&s->l1i, true));
    cJSON_AddItemToObject(caches, "l1d", cache_json(&s->l1d, true));
    if (r->cfg->l2.enabled) cJSON_AddItemToObject(caches, "l2", cache_json(&s->l2, true));
    if (r->cfg->l3.enabled) cJSON_AddItemToObject(caches, "l3", cache_json(&s->l3, true));
    if (r->cfg->itlb_entries) cJSON_AddItemToObject(caches, "itlb", cache_json(&s->itlb, false));
    cJSON_AddNumberToObject(caches, "memory_writebacks", (double)s->mem_writebacks);
    cJSON *occ = cJSON_AddObjectToObject(root, "average_occupancy");
    double cyc = s->cycles ? (double)s->cycles : 1;
    cJSON_AddNumberToObject(occ, "rob", (double)s->rob_occupancy / cyc);
    cJSON_AddNumberToObject(occ, "iq", (double)s->iq_occupancy / cyc);
    cJSON_AddNumberToObject(occ, "lq", (double)s->lq_occupancy / cyc);
    cJSON_AddNumberToObject(occ, "sq", (double)s->sq_occupancy / cyc);
    if (r->cfg->store_buffer && r->cfg->model == MODEL_OOO) {
        cJSON_AddNumberToObject(occ, "store_buffer", (double)s->sb_occupancy / cyc);
        cJSON_AddNumberToObject(root, "store_buffer_full_cycles", (double)s->sb_full_cycles);
    }
    cJSON *hist = cJSON_AddArrayToObject(root, "issue_histogram");
    for (int k = 0; k <= ISSUE_HIST_MAX; k++) cJSON_AddItemToArray(hist, cJSON_CreateNumber((double)s->issue_hist[k]));
    cJSON_AddNumberToObject(root, "loads", (double)s->loads);
    cJSON_AddNumberToObject(root, "stores", (double)s->stores);
    cJSON_AddNumberToObject(root, "forwarded_loads", (double)s->forwarded_loads);
    cJSON_AddNumberToObject(root, "flops", (double)s->flops);
    cJSON_AddNumberToObject(root, "seconds", s->seconds);
    if (r->cfg->model == MODEL_INORDER) report_inorder_json(r, root);
    return root;
}

bool report_write_json(const char *path, const cJSON *json, cs_error *err) {
    char *text = cJSON_Print(json);
    FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!f) {
        cs_error_set(err, "%s: cannot write: %s", path, strerror(errno));
        free(text);
        return false;
    }
    bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f != stdout) ok = (fclose(f) == 0) && ok;
    free(text);
    if (!ok) cs_error_set(err, "%s: write failed", path);
    return ok;
}
