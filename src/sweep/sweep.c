/* Grids, point files and their merge. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "sweep.h"

/* ---- the grid ---- */

void sweep_grid_free(sweep_grid *g) {
    for (int a = 0; a < g->axes; a++) {
        free(g->axis[a].key);
        for (int v = 0; v < g->axis[a].count; v++) free(g->axis[a].values[v]);
    }
    memset(g, 0, sizeof *g);
}

static char *dup_range(const char *s, size_t n) {
    char *p = cs_malloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

bool sweep_grid_parse(sweep_grid *g, const char *text, cs_error *err) {
    memset(g, 0, sizeof *g);
    const char *s = text;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n') s++;
        if (!*s) break;
        const char *end = s;
        while (*end && *end != ' ' && *end != '\t' && *end != '\n') end++;
        const char *eq = memchr(s, '=', (size_t)(end - s));
        if (!eq || eq == s) {
            cs_error_set(err, "--grid: '%.*s' is not KEY=VALUE,VALUE…", (int)(end - s), s);
            goto fail;
        }
        if (!memchr(s, '.', (size_t)(eq - s))) {
            cs_error_set(err, "--grid: '%.*s' is not section.key", (int)(eq - s), s);
            goto fail;
        }
        if (g->axes == SWEEP_MAX_AXES) {
            cs_error_set(err, "--grid: more than %d keys", SWEEP_MAX_AXES);
            goto fail;
        }
        sweep_axis *ax = &g->axis[g->axes];
        ax->key = dup_range(s, (size_t)(eq - s));
        g->axes++;
        for (int a = 0; a < g->axes - 1; a++)
            if (!strcmp(g->axis[a].key, ax->key)) {
                cs_error_set(err, "--grid: %s given twice", ax->key);
                goto fail;
            }
        /* "A..B" as whatif reads it (one parser: cs_grid_range), the values as a list would give them */
        uint32_t lo, hi;
        int range = cs_grid_range(s, (size_t)(end - s), SWEEP_MAX_VALUES, &lo, &hi, err);
        if (range < 0) goto fail;
        if (range) {
            for (uint64_t n = lo; n <= hi; n++) {
                char num[16];
                snprintf(num, sizeof num, "%" PRIu64, n);
                ax->values[ax->count++] = cs_strdup(num);
            }
            s = end;
            continue;
        }
        const char *v = eq + 1;
        for (;;) {
            const char *comma = v;
            while (comma < end && *comma != ',') comma++;
            if (comma == v) {
                cs_error_set(err, "--grid: %s has an empty value", ax->key);
                goto fail;
            }
            if (ax->count == SWEEP_MAX_VALUES) {
                cs_error_set(err, "--grid: %s has more than %d values", ax->key, SWEEP_MAX_VALUES);
                goto fail;
            }
            ax->values[ax->count++] = dup_range(v, (size_t)(comma - v));
            if (comma == end) break;
            v = comma + 1;
        }
        s = end;
    }
    if (g->axes == 0) {
        cs_error_set(err, "--grid: no KEY=VALUES given");
        goto fail;
    }
    g->points = 1;
    for (int a = 0; a < g->axes; a++) {
        if (g->points * (size_t)g->axis[a].count > SWEEP_MAX_POINTS) {
            cs_error_set(err, "--grid: more than %d points", SWEEP_MAX_POINTS);
            goto fail;
        }
        g->points *= (size_t)g->axis[a].count;
    }
    return true;
fail:
    sweep_grid_free(g);
    return false;
}

void sweep_point_values(const sweep_grid *g, size_t index, const char *values[SWEEP_MAX_AXES]) {
    for (int a = g->axes - 1; a >= 0; a--) {
        size_t n = (size_t)g->axis[a].count;
        values[a] = g->axis[a].values[index % n];
        index /= n;
    }
}

char *sweep_point_settings(const sweep_grid *g, size_t index) {
    const char *values[SWEEP_MAX_AXES];
    sweep_point_values(g, index, values);
    size_t n = 1;
    for (int a = 0; a < g->axes; a++) n += strlen(g->axis[a].key) + strlen(values[a]) + 2;
    char *s = cs_malloc(n);
    s[0] = 0;
    for (int a = 0; a < g->axes; a++) {
        size_t len = strlen(s);
        snprintf(s + len, n - len, "%s%s=%s", a ? " " : "", g->axis[a].key, values[a]);
    }
    return s;
}

static bool set_one(uarch_config *cfg, const char *key, const char *value, cs_error *err) {
    size_t n = strlen(key) + strlen(value) + 2;
    char *assign = cs_malloc(n);
    snprintf(assign, n, "%s=%s", key, value);
    bool ok = uarch_config_set(cfg, assign, err);
    free(assign);
    /* the configuration speaks of --set; here it was --grid (the caller says so) */
    if (!ok && err && !strncmp(err->msg, "--set: ", 7)) memmove(err->msg, err->msg + 7, strlen(err->msg + 7) + 1);
    return ok;
}

bool sweep_point_config(const sweep_grid *g, const uarch_config *base, size_t index, uarch_config *out, cs_error *err) {
    const char *values[SWEEP_MAX_AXES];
    sweep_point_values(g, index, values);
    *out = *base;
    for (int a = 0; a < g->axes; a++)
        if (!set_one(out, g->axis[a].key, values[a], err)) return false;
    for (int a = 0; a < g->axes; a++) { /* a key the point's model ignores would give identical points */
        const char *key = g->axis[a].key, *dot = strrchr(key, '.');
        char section[128];
        snprintf(section, sizeof section, "%.*s", dot ? (int)(dot - key) : 0, key);
        if (dot && !uarch_config_key_read(out->model, section, dot + 1)) {
            cs_error_set(err,
                         "--grid %s: the %s model does not read it (`cyclescope config show` lists the keys it reads)",
                         key, out->model == MODEL_OOO ? "out-of-order" : "in-order");
            return false;
        }
    }
    if (!uarch_config_validate(out, err)) {
        char *s = sweep_point_settings(g, index);
        cs_error_prefix(err, "--grid point %s", s);
        free(s);
        return false;
    }
    return true;
}

bool sweep_grid_check(const sweep_grid *g, const uarch_config *base, cs_error *err) {
    /* every value alone first, so the message names the value, not a point */
    for (int a = 0; a < g->axes; a++)
        for (int v = 0; v < g->axis[a].count; v++) {
            uarch_config c = *base;
            if (!set_one(&c, g->axis[a].key, g->axis[a].values[v], err)) {
                cs_error_prefix(err, "--grid");
                return false;
            }
        }
    for (size_t i = 0; i < g->points; i++) {
        uarch_config c;
        if (!sweep_point_config(g, base, i, &c, err)) return false;
    }
    return true;
}

/* ---- configurations ---- */

char *sweep_config_text(const uarch_config *cfg) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return cs_strdup("");
    uarch_config_print(cfg, f);
    fclose(f);
    return buf ? buf : cs_strdup("");
}

static uint64_t fnv_lines(const char *text) {
    uint64_t h = 14695981039346656037ull;
    const char *s = text;
    while (*s) {
        const char *nl = strchr(s, '\n');
        const char *end = nl ? nl : s + strlen(s);
        if (*s != '#')
            for (const char *q = s; q <= end && *q; q++) h = (h ^ (uint8_t)*q) * 1099511628211ull;
        s = nl ? nl + 1 : end;
    }
    return h;
}

static void hash_text(const char *text, char out[SWEEP_HASH_LEN + 1]) {
    snprintf(out, SWEEP_HASH_LEN + 1, "%016" PRIx64, fnv_lines(text));
}

void sweep_config_hash(const uarch_config *cfg, char out[SWEEP_HASH_LEN + 1]) {
    char *text = sweep_config_text(cfg);
    hash_text(text, out);
    free(text);
}

/* ---- point files ---- */

static uint32_t json_crc(const cJSON *root) {
    char *text = cJSON_PrintUnformatted(root);
    uint32_t c = (uint32_t)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)text, (uInt)strlen(text));
    free(text);
    return c;
}

static bool write_atomic(const char *path, const char *text, cs_error *err) {
    cs_output out;
    FILE *f = cs_output_open(&out, path, err);
    bool ok = f && fputs(text, f) >= 0;
    if (ok) ok = cs_output_commit(&out, err);
    else if (f) cs_error_set(err, "%s: cannot write: %s", path, strerror(errno));
    cs_output_discard(&out);
    return ok;
}

bool sweep_point_write(const char *dir, const sweep_point *p, const uarch_config *cfg, cs_error *err) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", SWEEP_POINT_FORMAT);
    cJSON_AddNumberToObject(root, "version", SWEEP_POINT_VERSION);
    cJSON_AddStringToObject(root, "hash", p->hash);
    cJSON *argv = cJSON_AddArrayToObject(root, "program");
    for (int i = 0; i < p->argc; i++) cJSON_AddItemToArray(argv, cJSON_CreateString(p->argv[i]));
    cJSON_AddStringToObject(root, "config_name", p->config_name ? p->config_name : "");
    cJSON *set = cJSON_AddObjectToObject(root, "settings");
    for (int i = 0; i < p->settings; i++) cJSON_AddStringToObject(set, p->key[i], p->value[i]);
    char *text = sweep_config_text(cfg);
    cJSON_AddStringToObject(root, "config", text);
    free(text);
    cJSON_AddStringToObject(root, "status", p->ok ? "ok" : "failed");
    if (!p->ok) cJSON_AddStringToObject(root, "error", p->error ? p->error : "");
    if (p->ok && p->exit_code) cJSON_AddNumberToObject(root, "exit_code", p->exit_code);
    if (p->ok && p->result) cJSON_AddItemToObject(root, "result", cJSON_Duplicate(p->result, true));
    char crc[16];
    snprintf(crc, sizeof crc, "%08" PRIx32, json_crc(root));
    cJSON_AddStringToObject(root, "checksum", crc);
    char *out = cJSON_Print(root);
    cJSON_Delete(root);
    size_t n = strlen(dir) + SWEEP_HASH_LEN + 8;
    char *path = cs_malloc(n);
    snprintf(path, n, "%s/%s.json", dir, p->hash);
    size_t len = strlen(out);
    out = cs_realloc(out, len + 2);
    out[len] = '\n', out[len + 1] = 0;
    bool ok = write_atomic(path, out, err);
    free(out);
    free(path);
    return ok;
}

void sweep_point_free(sweep_point *p) {
    for (int i = 0; i < p->argc; i++) free(p->argv[i]);
    free(p->argv);
    free(p->config_name);
    for (int i = 0; i < p->settings; i++) free(p->key[i]), free(p->value[i]);
    free(p->error);
    cJSON_Delete(p->result);
    memset(p, 0, sizeof *p);
}

static double number_at(const cJSON *obj, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

bool sweep_point_parse(const char *text, size_t len, const char *name, sweep_point *p, cs_error *err) {
    return sweep_point_from_json(cJSON_ParseWithLength(text, len), name, p, err);
}

bool sweep_point_from_json(cJSON *root, const char *name, sweep_point *p, cs_error *err) {
    memset(p, 0, sizeof *p);
    const char *why = NULL;
    if (!root || !cJSON_IsObject(root)) {
        why = "not JSON";
        goto bad;
    }
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, SWEEP_POINT_FORMAT) != 0) {
        why = "not a sweep point (no \"format\": \"" SWEEP_POINT_FORMAT "\")";
        goto bad;
    }
    if (number_at(root, "version") != SWEEP_POINT_VERSION) {
        why = "another version of the sweep point format";
        goto bad;
    }
    const cJSON *sum = cJSON_GetObjectItemCaseSensitive(root, "checksum");
    if (!cJSON_IsString(sum)) {
        why = "no checksum";
        goto bad;
    }
    char want[16];
    snprintf(want, sizeof want, "%s", sum->valuestring);
    cJSON_DeleteItemFromObjectCaseSensitive(root, "checksum");
    char got[16];
    snprintf(got, sizeof got, "%08" PRIx32, json_crc(root));
    if (strcmp(want, got) != 0) {
        why = "checksum mismatch (corrupt or edited)";
        goto bad;
    }
    const cJSON *hash = cJSON_GetObjectItemCaseSensitive(root, "hash");
    const cJSON *config = cJSON_GetObjectItemCaseSensitive(root, "config");
    const cJSON *argv = cJSON_GetObjectItemCaseSensitive(root, "program");
    const cJSON *cname = cJSON_GetObjectItemCaseSensitive(root, "config_name");
    const cJSON *set = cJSON_GetObjectItemCaseSensitive(root, "settings");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(root, "status");
    why = "missing or malformed members";
    if (!cJSON_IsString(hash) || strlen(hash->valuestring) != SWEEP_HASH_LEN || !cJSON_IsString(config) ||
        !cJSON_IsArray(argv) || !cJSON_IsString(cname) || !cJSON_IsObject(set) || !cJSON_IsString(status))
        goto bad;
    char h[SWEEP_HASH_LEN + 1];
    hash_text(config->valuestring, h);
    if (strcmp(h, hash->valuestring) != 0) {
        why = "its hash is not its configuration's";
        goto bad;
    }
    memcpy(p->hash, h, sizeof h);
    int argc = cJSON_GetArraySize(argv);
    if (argc < 1 || argc > 4096) goto bad;
    p->argv = cs_calloc((size_t)argc + 1, sizeof *p->argv);
    for (int i = 0; i < argc; i++) {
        const cJSON *a = cJSON_GetArrayItem(argv, i);
        if (!cJSON_IsString(a)) goto bad;
        p->argv[i] = cs_strdup(a->valuestring);
        p->argc = i + 1;
    }
    p->config_name = cs_strdup(cname->valuestring);
    const cJSON *kv;
    cJSON_ArrayForEach(kv, set) {
        if (!cJSON_IsString(kv) || !kv->string || p->settings == SWEEP_MAX_AXES) goto bad;
        p->key[p->settings] = cs_strdup(kv->string);
        p->value[p->settings] = cs_strdup(kv->valuestring);
        p->settings++;
    }
    if (!strcmp(status->valuestring, "ok")) {
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(root, "result");
        if (!cJSON_IsObject(r)) goto bad;
        p->ok = true;
        p->result = cJSON_DetachItemViaPointer(root, (cJSON *)r); /* root is consumed: no copy */
        p->cycles = number_at(r, "cycles");
        p->instructions = number_at(r, "instructions");
        p->cpi = number_at(r, "cpi");
        p->ipc = number_at(r, "ipc");
        p->seconds = number_at(r, "seconds");
        if (!(p->cycles >= 0) || !(p->instructions >= 0) || !(p->cpi >= 0)) goto bad;
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(root, "exit_code");
        if (code) { /* a program's non-zero exit status, as a process has one: 1 to 255 */
            if (!cJSON_IsNumber(code) || code->valuedouble != (int)code->valuedouble || code->valuedouble < 1 ||
                code->valuedouble > 255)
                goto bad;
            p->exit_code = (int)code->valuedouble;
        }
    } else if (!strcmp(status->valuestring, "failed")) {
        if (cJSON_GetObjectItemCaseSensitive(root, "exit_code")) goto bad; /* only a completed point has one */
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
        if (!cJSON_IsString(e)) goto bad;
        p->error = cs_strdup(e->valuestring);
    } else {
        goto bad;
    }
    cJSON_Delete(root);
    return true;
bad:
    cs_error_set(err, "%s: %s", name, why);
    sweep_point_free(p);
    cJSON_Delete(root);
    return false;
}

bool sweep_point_read(const char *path, sweep_point *p, cs_error *err) {
    uint8_t *data;
    size_t size;
    memset(p, 0, sizeof *p);
    if (!cs_read_file(path, &data, &size, err)) return false;
    cs_input_forget(path); /* the sweep's own result: a damaged or failed point is written again */
    bool ok = sweep_point_parse((const char *)data, size, path, p, err);
    free(data);
    return ok;
}

sweep_status sweep_point_status(const char *dir, const char *hash, int argc, char *const *argv, cs_error *err) {
    size_t n = strlen(dir) + SWEEP_HASH_LEN + 8;
    char *path = cs_malloc(n);
    snprintf(path, n, "%s/%s.json", dir, hash);
    struct stat st;
    if (stat(path, &st) != 0) {
        free(path);
        return SWEEP_TO_RUN;
    }
    sweep_point p;
    if (!sweep_point_read(path, &p, err)) {
        free(path);
        return SWEEP_CORRUPT;
    }
    free(path);
    bool same = p.argc == argc;
    for (int i = 0; same && i < argc; i++) same = strcmp(p.argv[i], argv[i]) == 0;
    if (!same) {
        cs_error_set(err, "%s/%s.json is a result of '%s%s', not of this program: use another directory", dir, hash,
                     p.argv[0], p.argc > 1 ? " …" : "");
        sweep_point_free(&p);
        return SWEEP_OTHER_PROGRAM;
    }
    sweep_status s = p.ok ? SWEEP_DONE : SWEEP_DONE_FAILED;
    sweep_point_free(&p);
    return s;
}

/* ---- the merge ---- */

void sweep_table_free(sweep_table *t) {
    for (size_t i = 0; i < t->count; i++) sweep_point_free(&t->points[i]);
    free(t->points);
    for (int k = 0; k < t->keys; k++) free(t->key[k]);
    memset(t, 0, sizeof *t);
}

/* A setting's value as a number when it is one ("32K" = 32768, as configs read it). */
static bool value_number(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno) return false;
    if (*end == 'K' || *end == 'k') v *= 1024, end++;
    else if (*end == 'M') v *= 1024.0 * 1024, end++;
    else if (*end == 'G') v *= 1024.0 * 1024 * 1024, end++;
    if (*end) return false;
    *out = v;
    return true;
}

static const char *setting(const sweep_point *p, const char *key) {
    for (int i = 0; i < p->settings; i++)
        if (!strcmp(p->key[i], key)) return p->value[i];
    return NULL;
}

static const sweep_table *sort_table;

static int compare_points(const void *a, const void *b) {
    const sweep_point *x = a, *y = b;
    for (int k = 0; k < sort_table->keys; k++) {
        const char *u = setting(x, sort_table->key[k]), *v = setting(y, sort_table->key[k]);
        if (!u || !v) {
            if (u != v) return u ? 1 : -1;
            continue;
        }
        double p, q;
        if (value_number(u, &p) && value_number(v, &q)) {
            if (p != q) return p < q ? -1 : 1;
        } else {
            int c = strcmp(u, v);
            if (c) return c;
        }
    }
    return strcmp(x->hash, y->hash);
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

bool sweep_table_read(const char *dir, sweep_table *t, FILE *warn, cs_error *err) {
    memset(t, 0, sizeof *t);
    DIR *d = opendir(dir);
    if (!d) {
        cs_error_set(err, "%s: cannot read directory: %s", dir, strerror(errno));
        return false;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0) continue;
        if (!strcmp(e->d_name, "sweep-table.json")) continue; /* merge's own output */
        if (n == cap) names = cs_realloc(names, cs_array_size(cap = cap ? cap * 2 : 64, sizeof *names));
        names[n++] = cs_strdup(e->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, compare_names);
    size_t pcap = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(dir) + strlen(names[i]) + 2;
        char *path = cs_malloc(len);
        snprintf(path, len, "%s/%s", dir, names[i]);
        sweep_point p;
        cs_error why;
        if (sweep_point_read(path, &p, &why)) {
            if (t->count == pcap)
                t->points = cs_realloc(t->points, cs_array_size(pcap = pcap ? pcap * 2 : 64, sizeof *t->points));
            for (int k = 0; k < p.settings; k++) {
                bool known = false;
                for (int j = 0; j < t->keys; j++) known = known || !strcmp(t->key[j], p.key[k]);
                if (!known && t->keys < SWEEP_MAX_AXES * 2) t->key[t->keys++] = cs_strdup(p.key[k]);
            }
            t->points[t->count++] = p;
        } else {
            t->skipped++;
            if (warn) fprintf(warn, "cyclescope: merge: skipping %s\n", why.msg);
        }
        free(path);
        free(names[i]);
    }
    free(names);
    if (t->count == 0) {
        cs_error_set(err, "%s: no sweep results (*.json written by cyclescope sweep)", dir);
        sweep_table_free(t);
        return false;
    }
    sort_table = t;
    qsort(t->points, t->count, sizeof *t->points, compare_points);
    sort_table = NULL;
    return true;
}

/* A CSV field, quoted when it must be (RFC 4180). */
static void csv_field(FILE *f, const char *s) {
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static double mpki(const sweep_point *p, const char *obj, const char *sub, const char *key) {
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(p->result, obj);
    if (sub) o = cJSON_GetObjectItemCaseSensitive(o, sub);
    double v = number_at(o, key);
    return p->instructions > 0 && v == v ? 1000.0 * v / p->instructions : NAN;
}

static void csv_number(FILE *f, double v, const char *fmt) {
    if (v == v) fprintf(f, fmt, v);
}

bool sweep_table_csv(const sweep_table *t, const char *path, cs_error *err) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    for (int k = 0; k < t->keys; k++) csv_field(f, t->key[k]), fputc(',', f);
    fputs("status,exit_code,cycles,instructions,cpi,ipc,branch_mpki,l1d_mpki,l2_mpki,seconds,hash,error\n", f);
    for (size_t i = 0; i < t->count; i++) {
        const sweep_point *p = &t->points[i];
        for (int k = 0; k < t->keys; k++) {
            const char *v = setting(p, t->key[k]);
            csv_field(f, v ? v : "");
            fputc(',', f);
        }
        fputs(p->ok ? "ok," : "failed,", f);
        if (p->exit_code) fprintf(f, "%d", p->exit_code); /* empty: exited with 0 (or stopped, a trace, failed) */
        fputc(',', f);
        if (p->ok) {
            fprintf(f, "%.0f,%.0f,%.6f,%.6f,", p->cycles, p->instructions, p->cpi, p->ipc);
            csv_number(f, mpki(p, "branches", NULL, "mispredicts"), "%.4f");
            fputc(',', f);
            csv_number(f, mpki(p, "caches", "l1d", "misses"), "%.4f");
            fputc(',', f);
            csv_number(f, mpki(p, "caches", "l2", "misses"), "%.4f");
            fputc(',', f);
            csv_number(f, p->seconds, "%.3f");
            fputc(',', f);
        } else {
            fputs(",,,,,,,,", f);
        }
        fputs(p->hash, f);
        fputc(',', f);
        csv_field(f, p->ok ? "" : p->error);
        fputc('\n', f);
    }
    fclose(f);
    bool ok = write_atomic(path, buf, err);
    free(buf);
    return ok;
}

bool sweep_table_json(const sweep_table *t, cJSON *header, const char *path, cs_error *err) {
    cJSON *root = header ? header : cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", "cyclescope-sweep-table");
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON *keys = cJSON_AddArrayToObject(root, "keys");
    for (int k = 0; k < t->keys; k++) cJSON_AddItemToArray(keys, cJSON_CreateString(t->key[k]));
    cJSON *pts = cJSON_AddArrayToObject(root, "points");
    for (size_t i = 0; i < t->count; i++) {
        const sweep_point *p = &t->points[i];
        cJSON *o = cJSON_CreateObject();
        cJSON *set = cJSON_AddObjectToObject(o, "settings");
        for (int k = 0; k < p->settings; k++) cJSON_AddStringToObject(set, p->key[k], p->value[k]);
        cJSON_AddStringToObject(o, "hash", p->hash);
        cJSON_AddStringToObject(o, "status", p->ok ? "ok" : "failed");
        if (p->ok) {
            cJSON_AddNumberToObject(o, "cpi", p->cpi);
            cJSON_AddNumberToObject(o, "ipc", p->ipc);
            if (p->exit_code) cJSON_AddNumberToObject(o, "exit_code", p->exit_code);
            cJSON_AddItemToObject(o, "result", cJSON_Duplicate(p->result, true));
        } else {
            cJSON_AddStringToObject(o, "error", p->error);
        }
        cJSON_AddItemToArray(pts, o);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    size_t len = strlen(text);
    text = cs_realloc(text, len + 2);
    text[len] = '\n', text[len + 1] = 0;
    bool ok = write_atomic(path, text, err);
    free(text);
    return ok;
}

/* ---- job lists ---- */

char *sweep_shell_quote(const char *word) {
    size_t n = 3;
    for (const char *s = word; *s; s++) n += *s == '\'' ? 4 : 1;
    char *out = cs_malloc(n);
    char *o = out;
    *o++ = '\'';
    for (const char *s = word; *s; s++) {
        if (*s == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *s;
        }
    }
    *o++ = '\'';
    *o = 0;
    return out;
}
