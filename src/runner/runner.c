/* One run in this process: the core, the analyses and their observers, and
 * the renderings; analysis lists and their options. */
#include <stdlib.h>
#include <string.h>

#include "runner.h"

/* ---- analysis lists ---- */

const char *analysis_option(const analysis_options *opt, const char *key) {
    for (int i = 0; i < opt->count; i++)
        if (!strcmp(opt->key[i], key)) return opt->value[i];
    return NULL;
}

static void unknown_analysis(const char *name, cs_error *err) {
    char known[256] = "";
    for (const analysis_ops *const *a = analysis_all(); *a; a++) {
        size_t l = strlen(known);
        snprintf(known + l, sizeof known - l, "%s, ", (*a)->name);
    }
    cs_error_set(err, "unknown analysis '%s' (known: %snone)", name, known);
}

/* The slot of `ops` in the list, appended if new; -1 with *err when full. */
static int list_slot(analysis_list *list, const analysis_ops *ops, cs_error *err) {
    for (int i = 0; i < list->count; i++)
        if (list->ops[i] == ops) return i;
    if (list->count == RUN_MAX_ANALYSES) {
        cs_error_set(err, "more than %d analyses", RUN_MAX_ANALYSES);
        return -1;
    }
    list->ops[list->count] = ops;
    memset(&list->opt[list->count], 0, sizeof list->opt[0]);
    return list->count++;
}

/* Set key=value (copied) on analysis `at`; a key given again replaces the value. */
static bool set_option(analysis_list *list, int at, const char *key, size_t key_len, const char *value, cs_error *err) {
    analysis_options *o = &list->opt[at];
    char *k = cs_malloc(key_len + 1);
    memcpy(k, key, key_len);
    k[key_len] = 0;
    for (int i = 0; i < o->count; i++) {
        if (!strcmp(o->key[i], k)) {
            free(k);
            free((char *)o->value[i]);
            o->value[i] = cs_strdup(value);
            return true;
        }
    }
    if (o->count == ANALYSIS_MAX_OPTIONS) {
        free(k);
        cs_error_set(err, "analysis %s: more than %d options", list->ops[at]->name, ANALYSIS_MAX_OPTIONS);
        return false;
    }
    o->key[o->count] = k;
    o->value[o->count++] = cs_strdup(value);
    return true;
}

/* One "NAME[:KEY=VALUE…]" (`item` is a writable copy). */
static bool parse_one(analysis_list *list, char *item, cs_error *err) {
    char *colon = strchr(item, ':');
    if (colon) *colon = 0;
    const analysis_ops *ops = analysis_find(item);
    if (!ops) {
        unknown_analysis(item, err);
        return false;
    }
    int at = list_slot(list, ops, err);
    if (at < 0) return false;
    for (char *p = colon ? colon + 1 : NULL; p;) {
        char *next = strchr(p, ':');
        if (next) *next++ = 0;
        char *eq = strchr(p, '=');
        if (!eq || eq == p) {
            cs_error_set(err, "analysis %s: option '%s' is not KEY=VALUE", ops->name, p);
            return false;
        }
        /* within the text a key is given once: `profile:file=A,profile:file=B` (one analysis,
         * one slot) would silently write B only */
        *eq = 0;
        const char *before = analysis_option(&list->opt[at], p);
        if (before && strcmp(before, eq + 1)) {
            cs_error_set(err, "analysis %s: %s given twice ('%s' and '%s')", ops->name, p, before, eq + 1);
            return false;
        }
        if (!set_option(list, at, p, strlen(p), eq + 1, err)) return false;
        p = next;
    }
    return true;
}

bool analysis_list_parse(analysis_list *list, const char *text, cs_error *err) {
    memset(list, 0, sizeof *list);
    if (!strcmp(text, "none")) return true;
    char *copy = cs_strdup(text);
    bool ok = true;
    for (char *p = copy; ok;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = 0;
        if (!*p) {
            cs_error_set(err, "'%s': an empty analysis name", text);
            ok = false;
        } else {
            ok = parse_one(list, p, err);
        }
        if (!comma) break;
        p = comma + 1;
    }
    free(copy);
    if (!ok) analysis_list_free(list);
    return ok;
}

bool analysis_list_add(analysis_list *list, const char *name, const char *key, const char *value, cs_error *err) {
    const analysis_ops *ops = analysis_find(name);
    if (!ops) {
        unknown_analysis(name, err);
        return false;
    }
    int at = list_slot(list, ops, err);
    if (at < 0) return false;
    return !key || set_option(list, at, key, strlen(key), value ? value : "", err);
}

bool analysis_list_has(const analysis_list *list, const char *name) {
    for (int i = 0; i < list->count; i++)
        if (!strcmp(list->ops[i]->name, name)) return true;
    return false;
}

bool analysis_list_stage_outputs(analysis_list *list, cs_error *err) {
    for (int i = 0; i < list->count; i++)
        if (list->ops[i]->keep && !set_option(list, i, "staged", strlen("staged"), "1", err)) return false;
    return true;
}

void analysis_list_free(analysis_list *list) {
    for (int i = 0; i < list->count; i++) {
        for (int k = 0; k < list->opt[i].count; k++) {
            free((char *)list->opt[i].key[k]);
            free((char *)list->opt[i].value[k]);
        }
    }
    memset(list, 0, sizeof *list);
}

/* ---- one run ---- */

static void destroy_analyses(run_result *r) {
    for (int i = 0; i < r->count; i++)
        if (r->self[i]) r->ops[i]->destroy(r->self[i]);
    r->count = 0;
}

bool runner_run(const run_spec *spec, uop_source *src, run_result *out, cs_error *err) {
    return runner_run_origin(spec, NULL, src, out, err);
}

bool runner_run_origin(const run_spec *spec, const run_config_origin *origin, uop_source *src, run_result *out,
                       cs_error *err) {
    memset(out, 0, sizeof *out);
    core_t *core = core_create(spec->cfg, err);
    if (!core) return false;
    const analysis_list *list = spec->analyses;
    for (int i = 0; list && i < list->count; i++) {
        const analysis_ops *ops = list->ops[i];
        out->ops[i] = ops;
        analysis_options opt = list->opt[i];
        opt.cfg = spec->cfg;
        out->self[i] = ops->create(&opt, err);
        out->count = i + 1;
        probe_observer obs;
        if (out->self[i]) obs = ops->observer(out->self[i]);
        if (!out->self[i] || !core_observe(core, &obs, err)) {
            cs_error_prefix(err, "analysis %s", ops->name);
            destroy_analyses(out);
            core_destroy(core);
            return false;
        }
    }
    if (spec->program) core_set_input_name(core, spec->program);
    out->ok = core_run(core, src, &spec->opt, &out->stats, &out->err);
    run_context rc = {
        spec->program ? spec->program : "?", spec->cfg, &out->stats, spec->opt.warmup, {NULL, 0, NULL}, src};
    if (origin) rc.origin = *origin;
    for (int i = 0; i < out->count; i++) {
        cs_error e;
        if (out->ops[i]->finish && !out->ops[i]->finish(out->self[i], &rc, &e) && out->ok) {
            out->ok = false;
            out->err = e;
        }
    }
    core_destroy(core);
    return true;
}

void run_result_free(run_result *r) { destroy_analyses(r); }

void *run_result_analysis(const run_result *r, const char *name) {
    for (int i = 0; i < r->count; i++)
        if (!strcmp(r->ops[i]->name, name)) return r->self[i];
    return NULL;
}

bool run_result_keep_outputs(const run_result *r, cs_error *err) {
    for (int i = 0; i < r->count; i++)
        if (r->ops[i]->keep && !r->ops[i]->keep(r->self[i], err)) return false;
    return true;
}

void runner_text(const run_result *r, FILE *out) {
    for (int i = 0; i < r->count; i++)
        if (r->ops[i]->text) r->ops[i]->text(r->self[i], out);
}

void runner_json(const run_result *r, cJSON *root) {
    for (int i = 0; i < r->count; i++) {
        cJSON *j = r->ops[i]->json ? r->ops[i]->json(r->self[i]) : NULL;
        if (j) cJSON_AddItemToObject(root, r->ops[i]->name, j);
    }
}

void runner_html(const run_result *r, struct html_report *h) {
    for (int i = 0; i < r->count; i++)
        if (r->ops[i]->html) r->ops[i]->html(r->self[i], h);
}
