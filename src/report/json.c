/* JSON output with cJSON. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    cJSON_AddNumberToObject(o, "prefetches", (double)c->prefetches);
    cJSON_AddNumberToObject(o, "prefetch_useful", (double)c->prefetch_useful);
    cJSON_AddNumberToObject(o, "prefetch_late", (double)c->prefetch_late);
    return o;
}

bool report_overridden(const report_provenance *p, const char *key) {
    if (!p) return false;
    size_t n = strlen(key);
    for (int i = 0; i < p->override_count; i++) {
        const char *o = p->overrides[i];
        if (strncmp(o, key, n)) continue;
        /* "l1d." matches l1d.size=…; "core.rob_size" matches core.rob_size=… only */
        if (key[n - 1] == '.' || o[n] == '=') return true;
    }
    return false;
}

/* A value of `config show` as JSON: integers and decimals as numbers, yes/no
 * as booleans, the rest (names, class lists) as strings. */
static cJSON *config_value(const char *v) {
    if (!strcmp(v, "yes")) return cJSON_CreateTrue();
    if (!strcmp(v, "no")) return cJSON_CreateFalse();
    char *end;
    double x = strtod(v, &end);
    if (*v && !*end && end != v) return cJSON_CreateNumber(x);
    return cJSON_CreateString(v);
}

/* `config show`'s text of cfg (allocated; NULL when out of memory). */
static char *config_ini(const uarch_config *cfg) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    uarch_config_print(cfg, f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

cJSON *report_config_ini_json(const char *ini) {
    cJSON *root = cJSON_CreateObject();
    char *text = cs_strdup(ini), *save = NULL;
    cJSON *section = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') continue;
        if (line[0] == '[') {
            char *close = strchr(line, ']');
            if (close) *close = 0;
            section = cJSON_AddObjectToObject(root, line + 1);
            continue;
        }
        char *eq = strstr(line, " = ");
        if (!section || !eq) continue;
        *eq = 0;
        cJSON_AddItemToObject(section, line, config_value(eq + 3));
    }
    free(text);
    return root;
}

cJSON *report_config_json(const uarch_config *cfg) {
    char *text = config_ini(cfg);
    cJSON *root = text ? report_config_ini_json(text) : cJSON_CreateObject();
    free(text);
    return root;
}

static cJSON *strings(int n, char *const *v) {
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
    return a;
}

void report_header_json(cJSON *root, const char *schema, int schema_version, const uarch_config *cfg,
                        const report_provenance *p) {
    cJSON_AddStringToObject(root, "schema", schema);
    cJSON_AddNumberToObject(root, "schema_version", schema_version);
    cJSON_AddStringToObject(root, "cyclescope_version", CYCLESCOPE_VERSION);
    cJSON_AddStringToObject(root, "cyclescope_commit", cs_build_commit);
    cJSON_AddBoolToObject(root, "complete", !p->partial);
    if (p->partial) cJSON_AddStringToObject(root, "stopped_by", p->stopped_by ? p->stopped_by : "?");
    if (p->has_guest) {
        cJSON *g = cJSON_AddObjectToObject(root, "guest");
        cJSON_AddStringToObject(g, "state", p->guest_state);
        if (!strcmp(p->guest_state, "exited")) cJSON_AddNumberToObject(g, "exit_code", p->guest_exit_code);
        if (p->guest_error) cJSON_AddStringToObject(g, "error", p->guest_error);
    } else {
        cJSON_AddNullToObject(root, "guest");
    }
    cJSON *prov = cJSON_AddObjectToObject(root, "provenance");
    cJSON_AddItemToObject(prov, "command", strings(p->argc, p->argv));
    char date[32] = "?";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(prov, "date", date);
    cJSON *in = cJSON_AddObjectToObject(prov, "input");
    cJSON_AddStringToObject(in, "kind", p->input_kind ? p->input_kind : "?");
    cJSON_AddStringToObject(in, "path", p->input_path ? p->input_path : "?");
    if (p->input_argv) cJSON_AddItemToObject(in, "arguments", strings(p->input_argc, p->input_argv));
    cJSON_AddNumberToObject(in, "bytes", (double)p->input_bytes);
    if (p->input_sha256[0]) cJSON_AddStringToObject(in, "sha256", p->input_sha256);
    else cJSON_AddNullToObject(in, "sha256");
    char *own_ini = cfg ? config_ini(cfg) : NULL;
    const char *name = cfg ? cfg->name : p->config_name, *ini = cfg ? own_ini : p->config_ini;
    if (name && ini) {
        cJSON *c = cJSON_AddObjectToObject(prov, "config");
        cJSON_AddStringToObject(c, "name", name);
        cJSON_AddStringToObject(c, "source", p->config_source ? p->config_source : name);
        cJSON_AddItemToObject(c, "overrides", strings(p->override_count, (char *const *)p->overrides));
        cJSON_AddItemToObject(c, "resolved", report_config_ini_json(ini));
        char hex[65];
        cs_sha256_hex(ini, strlen(ini), hex);
        cJSON_AddStringToObject(c, "sha256", hex);
    } else {
        cJSON_AddNullToObject(prov, "config");
    }
    free(own_ini);
    if (!p->without_limits) {
        cJSON_AddNumberToObject(prov, "warmup_instructions", (double)p->warmup_instructions);
        cJSON_AddNumberToObject(prov, "max_instructions", (double)p->max_instructions);
    }
}

/* The run's units, after its header (docs/json-schema.md). */
static void units_json(cJSON *root) {
    cJSON *u = cJSON_AddObjectToObject(root, "units");
    cJSON_AddStringToObject(u, "cycles", "core clock cycles");
    cJSON_AddStringToObject(u, "instructions", "committed instructions (RISC-V instructions, or trace records)");
    cJSON_AddStringToObject(u, "uops", "committed micro-operations");
    cJSON_AddStringToObject(u, "ipc", "instructions per cycle");
    cJSON_AddStringToObject(u, "cpi", "cycles per instruction");
    cJSON_AddStringToObject(u, "mpki", "events per 1000 committed instructions");
    cJSON_AddStringToObject(u, "warmup_uops", "micro-operations that only warmed caches and predictors");
    cJSON_AddStringToObject(u, "average_occupancy", "entries, averaged over cycles");
    cJSON_AddStringToObject(u, "seconds", "host wall-clock seconds of the timed part");
    cJSON_AddStringToObject(u, "stacks", "cycles per component (cpi: per instruction; fraction: of all cycles)");
    cJSON_AddStringToObject(u, "gflops", "10^9 floating-point operations per second at freq_ghz");
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
    /* only then, so a machine with a predictor writes the fields it always wrote */
    if (uarch_no_branch_prediction(r->cfg)) cJSON_AddTrueToObject(br, "no_predictor");
    cJSON *caches = cJSON_AddObjectToObject(root, "caches");
    cJSON_AddItemToObject(caches, "l1i", cache_json(&s->l1i, true));
    cJSON_AddItemToObject(caches, "l1d", cache_json(&s->l1d, true));
    if (r->cfg->l2.enabled) cJSON_AddItemToObject(caches, "l2", cache_json(&s->l2, true));
    if (r->cfg->l3.enabled) cJSON_AddItemToObject(caches, "l3", cache_json(&s->l3, true));
    if (r->cfg->itlb_entries) cJSON_AddItemToObject(caches, "itlb", cache_json(&s->itlb, false));
    if (r->cfg->dtlb_entries) cJSON_AddItemToObject(caches, "dtlb", cache_json(&s->dtlb, false));
    if (r->cfg->l2tlb_entries) cJSON_AddItemToObject(caches, "l2tlb", cache_json(&s->l2tlb, false));
    cJSON_AddNumberToObject(caches, "memory_writebacks", (double)s->mem_writebacks);
    if (r->cfg->dram && r->cfg->model == MODEL_OOO) {
        cJSON *d = cJSON_AddObjectToObject(root, "dram");
        cJSON_AddNumberToObject(d, "reads", (double)s->dram_reads);
        cJSON_AddNumberToObject(d, "writes", (double)s->dram_writes);
        cJSON_AddNumberToObject(d, "row_hits", (double)s->dram_row_hits);
        cJSON_AddNumberToObject(d, "row_empty", (double)s->dram_row_empty);
        cJSON_AddNumberToObject(d, "row_conflicts", (double)s->dram_row_conflicts);
    }
    cJSON *occ = cJSON_AddObjectToObject(root, "average_occupancy");
    double cyc = s->cycles ? (double)s->cycles : 1;
    cJSON_AddNumberToObject(occ, "rob", (double)s->rob_occupancy / cyc);
    cJSON_AddNumberToObject(occ, "iq", (double)s->iq_occupancy / cyc);
    cJSON_AddNumberToObject(occ, "lq", (double)s->lq_occupancy / cyc);
    cJSON_AddNumberToObject(occ, "sq", (double)s->sq_occupancy / cyc);
    if (r->cfg->store_buffer) { /* both models */
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

cJSON *report_result_json(const run_summary *r, const report_provenance *p) {
    cJSON *root = cJSON_CreateObject();
    report_header_json(root, "cyclescope-run", REPORT_SCHEMA_VERSION, r->cfg, p);
    units_json(root);
    cJSON *run = report_run_json(r);
    while (run->child) { /* the run's fields after the header, in their order */
        cJSON *item = cJSON_DetachItemViaPointer(run, run->child);
        cJSON_AddItemToObject(root, item->string, item);
    }
    cJSON_Delete(run);
    return root;
}

bool report_write_json_to(FILE *f, const char *name, const cJSON *json, cs_error *err) {
    char *text = cJSON_Print(json);
    bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF && fflush(f) == 0;
    free(text);
    if (!ok) cs_error_set(err, "%s: write failed", name);
    return ok;
}

bool report_write_json(const char *path, const cJSON *json, cs_error *err) {
    if (!strcmp(path, "-")) return report_write_json_to(stdout, "stdout", json, err);
    cs_output out;
    FILE *f = cs_output_open(&out, path, err);
    if (!f) return false;
    bool ok = report_write_json_to(f, path, json, err) && cs_output_commit(&out, err);
    cs_output_discard(&out);
    return ok;
}
