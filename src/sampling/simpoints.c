/* The simpoint directory (manifest, .simpoints, .weights), sampled timing and
 * the weighted combination of the points' statistics and stacks. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "sampling_internal.h"

/* ---- small file helpers ---- */

uint32_t sampling_crc(uint32_t crc, const void *data, size_t len) {
    const uint8_t *p = data;
    while (len) {
        uInt chunk = len > (1u << 30) ? (1u << 30) : (uInt)len;
        crc = (uint32_t)crc32(crc, p, chunk);
        p += chunk;
        len -= chunk;
    }
    return crc;
}

bool sampling_write_file(const char *path, const char *const *parts, const size_t *lens, int count, cs_error *err) {
    cs_output out;
    FILE *f = cs_output_open(&out, path, err);
    if (!f) return false;
    bool ok = true;
    for (int i = 0; i < count && ok; i++) ok = fwrite(parts[i], 1, lens[i], f) == lens[i];
    if (ok) ok = cs_output_commit(&out, err);
    else cs_error_set(err, "%s: write failed: %s", path, strerror(errno));
    cs_output_discard(&out);
    return ok;
}

static bool write_text(const char *path, const char *text, cs_error *err) {
    size_t len = strlen(text);
    return sampling_write_file(path, &text, &len, 1, err);
}

static bool file_crc(const char *path, uint32_t *crc, uint64_t *size, cs_error *err) {
    uint8_t *data;
    size_t len;
    if (!cs_read_file(path, &data, &len, err)) return false;
    *crc = sampling_crc((uint32_t)crc32(0L, Z_NULL, 0), data, len);
    if (size) *size = len;
    free(data);
    return true;
}

static char *join_path(const char *dir, const char *name) {
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = cs_malloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* ---- identity ---- */

bool simpoint_identity_of(simpoint_identity *id, bool trace, int argc, char *const *argv, cs_error *err) {
    memset(id, 0, sizeof *id);
    id->trace = trace;
    if (!file_crc(argv[0], &id->file_crc, &id->file_size, err)) return false;
    id->argc = argc;
    id->argv = cs_calloc((size_t)argc + 1, sizeof *id->argv);
    for (int i = 0; i < argc; i++) id->argv[i] = cs_strdup(argv[i]);
    return true;
}

void simpoint_identity_free(simpoint_identity *id) {
    if (!id->argv) return;
    for (int i = 0; i < id->argc; i++) free(id->argv[i]);
    free(id->argv);
    id->argv = NULL;
}

static void describe_argv(char *buf, size_t size, const simpoint_identity *id) {
    buf[0] = 0;
    for (int i = 0; i < id->argc; i++) {
        size_t len = strlen(buf);
        if (len + 4 >= size) break;
        snprintf(buf + len, size - len, "%s%s", i ? " " : "", id->argv[i]);
    }
}

bool simpoint_identity_match(const simpoint_identity *made, const simpoint_identity *given, cs_error *err) {
    char a[300], b[300];
    describe_argv(a, sizeof a, made);
    describe_argv(b, sizeof b, given);
    if (made->trace != given->trace) {
        cs_error_set(err, "the simpoints were made for the %s '%s', not for a %s", made->trace ? "trace" : "program", a,
                     given->trace ? "trace" : "program");
        return false;
    }
    if (made->file_size != given->file_size || made->file_crc != given->file_crc) {
        cs_error_set(err,
                     "the simpoints were made for a different %s (%s: %" PRIu64 " bytes, CRC %08" PRIx32
                     "; %s: %" PRIu64 " bytes, CRC %08" PRIx32 ")",
                     made->trace ? "trace" : "executable", made->argv[0], made->file_size, made->file_crc,
                     given->argv[0], given->file_size, given->file_crc);
        return false;
    }
    bool same = made->argc == given->argc;
    for (int i = 1; same && i < made->argc; i++) same = strcmp(made->argv[i], given->argv[i]) == 0;
    if (!same) {
        cs_error_set(err, "the simpoints were made for '%s', not '%s' (other arguments give other phases)", a, b);
        return false;
    }
    return true;
}

/* ---- SimPoint's .simpoints and .weights ---- */

static char *points_text(const simpoint_result *r, bool weights) {
    size_t cap = 64 + r->point_count * 48;
    char *t = cs_malloc(cap);
    size_t len = 0;
    t[0] = 0;
    for (size_t i = 0; i < r->point_count; i++) {
        const simpoint_point *p = &r->points[i];
        if (weights) len += (size_t)snprintf(t + len, cap - len, "%.9g %" PRIu32 "\n", p->weight, p->cluster);
        else len += (size_t)snprintf(t + len, cap - len, "%" PRIu64 " %" PRIu32 "\n", p->interval, p->cluster);
    }
    return t;
}

bool simpoint_write_points(const char *path, const simpoint_result *r, cs_error *err) {
    char *t = points_text(r, false);
    bool ok = write_text(path, t, err);
    free(t);
    return ok;
}

bool simpoint_write_weights(const char *path, const simpoint_result *r, cs_error *err) {
    char *t = points_text(r, true);
    bool ok = write_text(path, t, err);
    free(t);
    return ok;
}

/* ---- the manifest ---- */

#define MANIFEST_FORMAT "cyclescope-simpoints"

static const char *const manifest_files[3] = {SIMPOINT_BB_FILE, SIMPOINT_POINTS_FILE, SIMPOINT_WEIGHTS_FILE};

static char *crc_hex(uint32_t crc) {
    char *s = cs_malloc(9);
    snprintf(s, 9, "%08" PRIx32, crc);
    return s;
}

/* CRC-32 of the object printed compactly without its "checksum" member. */
static uint32_t manifest_crc(const cJSON *root) {
    char *text = cJSON_PrintUnformatted(root);
    uint32_t c = sampling_crc((uint32_t)crc32(0L, Z_NULL, 0), text, strlen(text));
    free(text);
    return c;
}

bool simpoint_save(const char *dir, const bbv_profile *p, const simpoint_result *r, const simpoint_options *o,
                   const simpoint_identity *id, const simpoint_end *end, const cJSON *header, cs_error *err) {
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cs_error_set(err, "%s: cannot create directory: %s", dir, strerror(errno));
        return false;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        cs_error_set(err, "%s: not a directory", dir);
        return false;
    }
    const char *const *names = manifest_files;
    uint32_t crcs[3];
    for (int i = 0; i < 3; i++) {
        char *path = join_path(dir, names[i]);
        bool ok = i == 0 ? bbv_write(p, path, err)
            : i == 1     ? simpoint_write_points(path, r, err)
                         : simpoint_write_weights(path, r, err);
        ok = ok && file_crc(path, &crcs[i], NULL, err);
        free(path);
        if (!ok) return false;
    }
    cJSON *root = cJSON_CreateObject();
    for (const cJSON *h = header ? header->child : NULL; h; h = h->next)
        cJSON_AddItemToObject(root, h->string, cJSON_Duplicate(h, true));
    cJSON_AddStringToObject(root, "format", MANIFEST_FORMAT);
    cJSON_AddNumberToObject(root, "version", SIMPOINT_SET_VERSION);
    cJSON *src = cJSON_AddObjectToObject(root, "source");
    cJSON_AddStringToObject(src, "kind", id->trace ? "trace" : "program");
    cJSON *argv = cJSON_AddArrayToObject(src, "argv");
    for (int i = 0; i < id->argc; i++) cJSON_AddItemToArray(argv, cJSON_CreateString(id->argv[i]));
    cJSON_AddNumberToObject(src, "file_size", (double)id->file_size);
    char *h = crc_hex(id->file_crc);
    cJSON_AddStringToObject(src, "file_crc32", h);
    free(h);
    if (end && end->state == SIMPOINT_END_EXITED) {
        cJSON *e = cJSON_AddObjectToObject(root, "end");
        cJSON_AddStringToObject(e, "state", "exited");
        cJSON_AddNumberToObject(e, "exit_code", end->exit_code);
    } else if (end && end->state == SIMPOINT_END_FAULT) {
        cJSON *e = cJSON_AddObjectToObject(root, "end");
        cJSON_AddStringToObject(e, "state", "fault");
        cJSON_AddNumberToObject(e, "signal", end->signal);
    } else if (end && end->state == SIMPOINT_END_STOPPED) {
        cJSON_AddStringToObject(cJSON_AddObjectToObject(root, "end"), "state", "stopped");
    } else {
        cJSON_AddNullToObject(root, "end");
    }
    cJSON_AddNumberToObject(root, "interval", (double)p->interval);
    cJSON_AddNumberToObject(root, "instructions", (double)p->instructions);
    cJSON_AddNumberToObject(root, "intervals", (double)p->interval_count);
    cJSON *opt = cJSON_AddObjectToObject(root, "options");
    cJSON_AddNumberToObject(opt, "max_k", o->max_k);
    cJSON_AddNumberToObject(opt, "fixed_k", o->fixed_k);
    cJSON_AddNumberToObject(opt, "dims", o->dims);
    cJSON_AddNumberToObject(opt, "seeds", o->seeds);
    cJSON_AddNumberToObject(opt, "iterations", o->iterations);
    cJSON_AddNumberToObject(opt, "bic_threshold", o->bic_threshold);
    char seed[32];
    snprintf(seed, sizeof seed, "%" PRIu64, o->seed);
    cJSON_AddStringToObject(opt, "seed", seed);
    cJSON_AddNumberToObject(root, "k", r->k);
    cJSON *search = cJSON_AddArrayToObject(root, "search");
    for (size_t i = 0; i < r->trial_count; i++) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddNumberToObject(t, "k", r->trials[i].k);
        cJSON_AddNumberToObject(t, "bic", r->trials[i].bic);
        cJSON_AddNumberToObject(t, "distortion", r->trials[i].distortion);
        cJSON_AddNumberToObject(t, "iterations", r->trials[i].iterations);
        cJSON_AddItemToArray(search, t);
    }
    cJSON *points = cJSON_AddArrayToObject(root, "points");
    for (size_t i = 0; i < r->point_count; i++) {
        const simpoint_point *pt = &r->points[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "interval", (double)pt->interval);
        cJSON_AddNumberToObject(j, "cluster", pt->cluster);
        cJSON_AddNumberToObject(j, "weight", pt->weight);
        cJSON_AddNumberToObject(j, "start", (double)pt->start);
        cJSON_AddNumberToObject(j, "length", (double)pt->length);
        cJSON_AddItemToArray(points, j);
    }
    cJSON *files = cJSON_AddObjectToObject(root, "files");
    for (int i = 0; i < 3; i++) {
        char *c = crc_hex(crcs[i]);
        cJSON_AddStringToObject(files, names[i], c);
        free(c);
    }
    char *c = crc_hex(manifest_crc(root));
    cJSON_AddStringToObject(root, "checksum", c);
    free(c);
    char *text = cJSON_Print(root);
    size_t len = strlen(text);
    text = cs_realloc(text, len + 2);
    text[len] = '\n';
    text[len + 1] = 0;
    char *path = join_path(dir, SIMPOINT_MANIFEST_FILE);
    bool ok = write_text(path, text, err);
    free(path);
    free(text);
    cJSON_Delete(root);
    return ok;
}

void simpoint_set_free(simpoint_set *s) {
    if (!s) return;
    simpoint_identity_free(&s->id);
    free(s->points);
    free(s);
}

/* Fetch a non-negative integer member below 2^53 (exact in a double). */
static bool get_count(const cJSON *obj, const char *key, uint64_t *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(v)) return false;
    double d = v->valuedouble;
    if (!(d >= 0 && d < 9007199254740992.0) || d != floor(d)) return false;
    *out = (uint64_t)d;
    return true;
}

static bool get_crc(const cJSON *obj, const char *key, uint32_t *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsString(v) || strlen(v->valuestring) != 8) return false;
    uint32_t c = 0;
    for (const char *q = v->valuestring; *q; q++) {
        if (*q >= '0' && *q <= '9') c = c << 4 | (uint32_t)(*q - '0');
        else if (*q >= 'a' && *q <= 'f') c = c << 4 | (uint32_t)(*q - 'a' + 10);
        else return false;
    }
    *out = c;
    return true;
}

static int compare_start(const void *a, const void *b) {
    uint64_t x = ((const simpoint_point *)a)->start, y = ((const simpoint_point *)b)->start;
    return (x > y) - (x < y);
}

/* Parse and check the manifest; crcs[] gets the checksums of the files it names. */
static simpoint_set *parse_manifest(const char *text, size_t len, const char *name, uint32_t crcs[3], cs_error *err) {
    cJSON *root = cJSON_ParseWithLength(text, len);
    simpoint_set *s = NULL;
    const char *what = NULL;
    if (!root || !cJSON_IsObject(root)) {
        cs_error_set(err, "%s: not JSON (not a simpoint.json written by cyclescope simpoint)", name);
        cJSON_Delete(root);
        return NULL;
    }
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, MANIFEST_FORMAT) != 0) {
        cs_error_set(err, "%s: not a cyclescope simpoints manifest (no \"format\": \"" MANIFEST_FORMAT "\")", name);
        cJSON_Delete(root);
        return NULL;
    }
    uint64_t version;
    /* version 1 (no "end") is read too: the directories made before it stay usable */
    if (!get_count(root, "version", &version) || version < 1 || version > SIMPOINT_SET_VERSION) {
        cs_error_set(err, "%s: manifest version not 1 to %d (made by another cyclescope?)", name, SIMPOINT_SET_VERSION);
        cJSON_Delete(root);
        return NULL;
    }
    uint32_t want;
    if (!get_crc(root, "checksum", &want)) {
        cs_error_set(err, "%s: no checksum", name);
        cJSON_Delete(root);
        return NULL;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(root, "checksum");
    if (manifest_crc(root) != want) {
        cs_error_set(err, "%s: checksum mismatch (corrupt or edited manifest)", name);
        cJSON_Delete(root);
        return NULL;
    }

    s = cs_calloc(1, sizeof *s);
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(root, "source");
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(src, "kind");
    const cJSON *argv = cJSON_GetObjectItemCaseSensitive(src, "argv");
    uint64_t size;
    what = "source";
    if (!cJSON_IsObject(src) || !cJSON_IsString(kind) || !cJSON_IsArray(argv) || !get_count(src, "file_size", &size) ||
        !get_crc(src, "file_crc32", &s->id.file_crc))
        goto bad;
    if (strcmp(kind->valuestring, "trace") == 0) s->id.trace = true;
    else if (strcmp(kind->valuestring, "program") != 0) goto bad;
    s->id.file_size = size;
    int argc = cJSON_GetArraySize(argv);
    if (argc < 1 || argc > 4096) goto bad;
    s->id.argv = cs_calloc((size_t)argc + 1, sizeof *s->id.argv);
    for (int i = 0; i < argc; i++) {
        const cJSON *a = cJSON_GetArrayItem(argv, i);
        if (!cJSON_IsString(a)) goto bad;
        s->id.argv[i] = cs_strdup(a->valuestring);
        s->id.argc = i + 1;
    }
    what = "end";
    if (version >= 2) {
        const cJSON *end = cJSON_GetObjectItemCaseSensitive(root, "end");
        const cJSON *state = cJSON_GetObjectItemCaseSensitive(end, "state");
        uint64_t code;
        if (cJSON_IsNull(end)) {
            s->end.state = SIMPOINT_END_UNKNOWN;
        } else if (!cJSON_IsObject(end) || !cJSON_IsString(state)) {
            goto bad;
        } else if (strcmp(state->valuestring, "exited") == 0) {
            if (!get_count(end, "exit_code", &code) || code > 255) goto bad;
            s->end = (simpoint_end){SIMPOINT_END_EXITED, (int)code, 0};
        } else if (strcmp(state->valuestring, "fault") == 0) {
            if (!get_count(end, "signal", &code) || code < 1 || code > 64) goto bad;
            s->end = (simpoint_end){SIMPOINT_END_FAULT, 0, (int)code};
        } else if (strcmp(state->valuestring, "stopped") == 0 && cJSON_GetArraySize(end) == 1) {
            s->end = (simpoint_end){SIMPOINT_END_STOPPED, 0, 0};
        } else {
            goto bad;
        }
    } else if (cJSON_GetObjectItemCaseSensitive(root, "end")) {
        goto bad; /* version 1 had none */
    }
    what = "interval, instructions or intervals";
    if (!get_count(root, "interval", &s->interval) || !get_count(root, "instructions", &s->instructions) ||
        !get_count(root, "intervals", &s->interval_count) || s->interval == 0 || s->interval_count == 0 ||
        s->instructions < s->interval_count || s->instructions > s->interval * s->interval_count)
        goto bad;
    const cJSON *opt = cJSON_GetObjectItemCaseSensitive(root, "options");
    uint64_t v[5];
    const cJSON *bt = cJSON_GetObjectItemCaseSensitive(opt, "bic_threshold");
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(opt, "seed");
    what = "options";
    if (!get_count(opt, "max_k", &v[0]) || !get_count(opt, "fixed_k", &v[1]) || !get_count(opt, "dims", &v[2]) ||
        !get_count(opt, "seeds", &v[3]) || !get_count(opt, "iterations", &v[4]) || !cJSON_IsNumber(bt) ||
        !cJSON_IsString(seed))
        goto bad;
    for (int i = 0; i < 5; i++)
        if (v[i] > UINT32_MAX) goto bad;
    s->options = (simpoint_options){
        (uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2], (uint32_t)v[3], (uint32_t)v[4], bt->valuedouble, 0};
    char *end;
    errno = 0;
    s->options.seed = strtoull(seed->valuestring, &end, 10);
    if (errno || *end || !*seed->valuestring) goto bad;
    cs_error oerr;
    if (!simpoint_options_check(&s->options, &oerr)) goto bad;
    uint64_t k;
    what = "k";
    if (!get_count(root, "k", &k) || k < 1 || k > SIMPOINT_MAX_K || k > s->interval_count) goto bad;
    s->k = (uint32_t)k;
    const cJSON *points = cJSON_GetObjectItemCaseSensitive(root, "points");
    what = "points";
    if (!cJSON_IsArray(points)) goto bad;
    int count = cJSON_GetArraySize(points);
    if (count < 1 || (uint64_t)count > k) goto bad;
    s->points = cs_calloc((size_t)count, sizeof *s->points);
    double wsum = 0;
    for (int i = 0; i < count; i++) {
        const cJSON *j = cJSON_GetArrayItem(points, i);
        simpoint_point *p = &s->points[i];
        uint64_t cluster;
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(j, "weight");
        if (!cJSON_IsObject(j) || !get_count(j, "interval", &p->interval) || !get_count(j, "cluster", &cluster) ||
            !get_count(j, "start", &p->start) || !get_count(j, "length", &p->length) || !cJSON_IsNumber(w))
            goto bad;
        p->weight = w->valuedouble;
        p->cluster = (uint32_t)cluster;
        if (p->interval >= s->interval_count || cluster >= k || !(p->weight > 0 && p->weight <= 1) || p->length == 0 ||
            p->length > s->interval || p->length > s->instructions || p->start > s->instructions - p->length ||
            p->start != p->interval * s->interval)
            goto bad;
        for (int q = 0; q < i; q++)
            if (s->points[q].interval == p->interval || s->points[q].cluster == p->cluster) goto bad;
        wsum += p->weight;
    }
    if (fabs(wsum - 1.0) > 1e-6) goto bad;
    s->count = (size_t)count;
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(root, "files");
    what = "files";
    for (int i = 0; i < 3; i++)
        if (!get_crc(files, manifest_files[i], &crcs[i])) goto bad;
    qsort(s->points, s->count, sizeof *s->points, compare_start);
    cJSON_Delete(root);
    return s;
bad:
    cs_error_set(err, "%s: bad or inconsistent %s", name, what);
    simpoint_set_free(s);
    cJSON_Delete(root);
    return NULL;
}

simpoint_set *simpoint_parse_manifest(const char *text, size_t len, const char *name, cs_error *err) {
    uint32_t crcs[3];
    return parse_manifest(text, len, name, crcs, err);
}

simpoint_set *simpoint_load(const char *dir, cs_error *err) {
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        cs_error_set(err, "%s: not a directory (give the directory `cyclescope simpoint -o` wrote)", dir);
        return NULL;
    }
    char *path = join_path(dir, SIMPOINT_MANIFEST_FILE);
    uint8_t *data;
    size_t size;
    if (stat(path, &st) != 0 && errno == ENOENT) {
        /* points clustered from another tool's vectors (simpoint --bb) have no manifest: they
         * name no program, and intervals of other instructions cannot be timed here */
        cs_error_set(err,
                     "%s: no %s: not a directory `cyclescope simpoint -o %s PROG` wrote (the points of "
                     "`simpoint --bb` cannot be timed: they come without the program's intervals)",
                     dir, SIMPOINT_MANIFEST_FILE, dir);
        free(path);
        return NULL;
    }
    if (!cs_read_file(path, &data, &size, err)) {
        free(path);
        return NULL;
    }
    uint32_t crcs[3];
    simpoint_set *s = parse_manifest((const char *)data, size, path, crcs, err);
    free(data);
    /* the files the manifest names must be the ones it was written with */
    for (int i = 0; i < 3 && s; i++) {
        uint32_t got;
        char *fp = join_path(dir, manifest_files[i]);
        if (!file_crc(fp, &got, NULL, err)) {
            simpoint_set_free(s), s = NULL;
        } else if (got != crcs[i]) {
            cs_error_set(err, "%s: does not match %s (changed after `cyclescope simpoint` wrote it)", fp, path);
            simpoint_set_free(s), s = NULL;
        }
        free(fp);
    }
    free(path);
    return s;
}

/* ---- sampled timing ---- */

/* A window on a µop stream: counts instructions, and delivers none at or past
 * `limit`, keeping what it read ahead for later. */
typedef struct window_source {
    uop_source base;
    uop_source *inner;
    bool one_uop_per_insn;
    uop buf[1024];
    size_t pos, len;
    uint64_t position; /* instructions begun so far (delivered or skipped) */
    uint64_t limit;
    bool ended, failed;
    cs_error error;
} window_source;

/* The next µop (read ahead as needed); NULL at the end or on error. */
static const uop *window_peek(window_source *w) {
    if (w->pos < w->len) return &w->buf[w->pos];
    if (w->ended) return NULL;
    long n = uop_source_read(w->inner, w->buf, sizeof w->buf / sizeof w->buf[0], &w->error);
    if (n <= 0) {
        w->ended = true;
        w->failed = n < 0;
        return NULL;
    }
    w->pos = 0;
    w->len = (size_t)n;
    return &w->buf[0];
}

static long window_read(uop_source *s, uop *out, size_t max, cs_error *err) {
    window_source *w = (window_source *)s;
    size_t n = 0;
    while (n < max) {
        const uop *u = window_peek(w);
        if (!u) break;
        if (!(u->flags & UOP_CONTINUES)) {
            if (w->position >= w->limit) break;
            w->position++;
        }
        out[n++] = *u;
        w->pos++;
    }
    if (n == 0 && w->failed) {
        *err = w->error;
        return -1;
    }
    return (long)n;
}

/* Skip n instructions. */
static long long window_skip(uop_source *s, uint64_t n, cs_error *err) {
    window_source *w = (window_source *)s;
    uint64_t done = 0;
    while (done < n) {
        if (w->pos == w->len && w->one_uop_per_insn && !w->ended) {
            uint64_t want = n - done;
            long long k = uop_source_skip(w->inner, want, err);
            if (k < 0) return -1;
            done += (uint64_t)k;
            w->position += (uint64_t)k;
            if ((uint64_t)k < want) {
                w->ended = true; /* the stream ended */
                break;
            }
            continue;
        }
        const uop *u = window_peek(w);
        if (!u) break;
        if (!(u->flags & UOP_CONTINUES)) {
            done++;
            w->position++;
        }
        w->pos++;
        /* the rest of that instruction goes with it */
        while ((u = window_peek(w)) && (u->flags & UOP_CONTINUES)) w->pos++;
    }
    if (w->failed) {
        *err = w->error;
        return -1;
    }
    return (long long)done;
}

static void window_destroy(uop_source *s) { (void)s; }

static const uop_source_ops window_ops = {"window", window_read, window_skip, window_destroy};

/* Time `src` on `core` with the stacks observer. */
static bool run_stacks(core_t *core, uop_source *src, const core_run_options *opt, simpoint_timing *out,
                       cs_error *err) {
    stacks_observer *so = stacks_observer_create();
    probe_observer obs = stacks_observer_probe(so);
    bool ok = core_observe(core, &obs, err) && core_run(core, src, opt, &out->stats, err);
    if (ok) out->stacks = *stacks_observer_result(so);
    stacks_observer_destroy(so);
    return ok;
}

/* A run may end a little earlier or later than the profiled one (a program
 * that looks at its stdout, another environment): the last point may come out
 * a few instructions short, which the per-instruction combination absorbs. A
 * point cut in its first half is another run. */
static bool check_length(const simpoint_point *p, const simpoint_timing *t, cs_error *err) {
    if (t->stats.instructions * 2 >= p->length) return true;
    cs_error_set(err,
                 "the run ended inside the simulation point at %" PRIu64 " (%" PRIu64 " of %" PRIu64
                 " instructions; the simpoints are for another run)",
                 p->start, t->stats.instructions, p->length);
    return false;
}

/* Time one point from a stream now at instruction `now`: skip to `from`
 * (now <= from <= start), warm up to the start, time the interval. */
static bool time_one(const simpoint_point *p, uop_source *src, uint64_t now, uint64_t from, bool one_uop_per_insn,
                     const uarch_config *cfg, simpoint_timing *out, cs_error *err) {
    window_source *w = cs_calloc(1, sizeof *w);
    w->base.ops = &window_ops;
    w->inner = src;
    w->one_uop_per_insn = one_uop_per_insn;
    w->position = now;
    w->limit = UINT64_MAX;
    bool ok = true;
    if (from > now) {
        long long got = window_skip(&w->base, from - now, err);
        if (got < 0) ok = false;
        else if ((uint64_t)got < from - now) {
            cs_error_set(err,
                         "the stream ended after %" PRIu64 " instructions, before the simulation point at %" PRIu64
                         " (the simpoints are for another run)",
                         w->position, p->start);
            ok = false;
        }
    }
    if (ok) {
        memset(out, 0, sizeof *out);
        out->warmed = p->start - from;
        w->limit = p->start + p->length;
        core_run_options opt = {out->warmed, p->length, NULL};
        core_t *core = core_create(cfg, err);
        ok = core && run_stacks(core, &w->base, &opt, out, err) && check_length(p, out, err);
        core_destroy(core);
    }
    free(w);
    return ok;
}

/* What a child sends back. */
typedef struct child_report {
    bool ok;
    cs_error err;
    simpoint_timing timing;
} child_report;
_Static_assert(sizeof(child_report) < 65536, "a report fits a pipe's buffer");

typedef struct child {
    pid_t pid;
    int fd;
    size_t index;
} child;

/* Wait for the oldest child; its report goes to out[index]. */
static bool reap(child *c, simpoint_timing *out, cs_error *err) {
    child_report r;
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t n = read(c->fd, (char *)&r + got, sizeof r - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(c->fd);
    int status;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (got != sizeof r) {
        cs_error_set(err, "simulation point %zu: the process timing it died%s", c->index + 1,
                     WIFSIGNALED(status) ? " (killed by a signal)" : "");
        return false;
    }
    if (!r.ok) {
        *err = r.err;
        return false;
    }
    out[c->index] = r.timing;
    return true;
}

/* Time one point on a core already warmed up to its start: the child's copy
 * of the parent's core, with `w` positioned at the start. */
static bool time_warmed(core_t *core, window_source *w, const simpoint_point *p, simpoint_timing *out, cs_error *err) {
    memset(out, 0, sizeof *out);
    out->warmed = p->start;
    w->limit = p->start + p->length;
    core_run_options opt = {0, p->length, NULL};
    return run_stacks(core, &w->base, &opt, out, err) && check_length(p, out, err);
}

static uop_source *open_trace(const char *path, bool *one_uop_per_insn, cs_error *err) {
    cst_reader *rd = cst_open(path, err);
    if (!rd) return NULL;
    *one_uop_per_insn = cst_reader_info(rd)->isa == CST_ISA_RV64GC;
    return cst_reader_source(rd);
}

/* In a child timing a point, the guest's output was the parent's to give: the
 * copy writes where nothing shows. glibc asks what its stdout is once (fstat,
 * and isatty for a character device) to choose its buffering, so the
 * replacement is of the same kind where that can be had: /dev/null for a
 * character device, an unlinked temporary file for a pipe or a file. (A
 * terminal becomes /dev/null: not a terminal, so a program that first writes
 * inside a point buffers its output differently there, a few instructions.) */
static void silence_guest_output(void) {
    for (int fd = 1; fd <= 2; fd++) {
        struct stat st;
        int repl = -1;
        if (fstat(fd, &st) == 0 && !S_ISCHR(st.st_mode)) repl = open("/tmp", O_TMPFILE | O_WRONLY, 0600);
        if (repl < 0) repl = open("/dev/null", O_WRONLY);
        if (repl >= 0) dup2(repl, fd), close(repl);
    }
}

bool simpoint_time(const simpoint_set *set, const simpoint_stream *from, const uarch_config *cfg, uint64_t warmup,
                   int jobs, simpoint_timing *out, cs_error *err) {
    if (jobs < 1) jobs = 1;
    bool all = warmup == SIMPOINT_WARM_ALL;
    child *running = cs_calloc((size_t)jobs, sizeof *running);
    size_t head = 0, count = 0; /* a ring of running children, oldest first */
    bool ok = true;
    cs_error first_err = {{0}};
    /* warm-up all the way: this process keeps one core warm through the whole
     * stream and each child times its point on a copy of it */
    core_t *core = NULL;
    uop_source *stream = NULL;
    window_source *w = NULL;
    if (all) {
        bool one = true;
        core = core_create(cfg, err);
        stream = !core ? NULL : from->emu ? emu_source_create(from->emu) : open_trace(from->trace, &one, err);
        if (!stream) {
            core_destroy(core);
            free(running);
            return false;
        }
        w = cs_calloc(1, sizeof *w);
        w->base.ops = &window_ops;
        w->inner = stream;
        w->one_uop_per_insn = one;
        w->position = from->emu ? emu_icount(from->emu) : 0;
    }
    for (size_t i = 0; i < set->count && ok; i++) {
        const simpoint_point *p = &set->points[i];
        uint64_t at = p->start > warmup ? p->start - warmup : 0;
        if (all) {
            w->limit = p->start;
            if (core_warm(core, &w->base, UINT64_MAX, &first_err) < 0) {
                ok = false;
                break;
            }
            if (w->position < p->start) {
                cs_error_set(&first_err,
                             "the stream ended after %" PRIu64 " instructions, before the simulation point at %" PRIu64
                             " (the simpoints are for another run)",
                             w->position, p->start);
                ok = false;
                break;
            }
        } else if (from->emu) {
            /* the parent fast-forwards once; each child starts from a copy of it */
            uint64_t now = emu_icount(from->emu);
            if (at > now) emu_run(from->emu, at - now);
            if (emu_icount(from->emu) < at) {
                if (emu_state(from->emu) == EMU_FAILED) cs_error_set(&first_err, "%s", emu_error(from->emu));
                else
                    cs_error_set(&first_err,
                                 "the program ended after %" PRIu64
                                 " instructions, before the simulation point at %" PRIu64
                                 " (the simpoints are for another run)",
                                 emu_icount(from->emu), p->start);
                ok = false;
                break;
            }
        }
        if (count == (size_t)jobs) {
            if (!reap(&running[head], out, &first_err)) ok = false;
            head = (head + 1) % (size_t)jobs;
            count--;
            if (!ok) break;
        }
        int fds[2];
        if (pipe(fds) != 0) {
            cs_error_set(&first_err, "cannot create a pipe: %s", strerror(errno));
            ok = false;
            break;
        }
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) {
            cs_error_set(&first_err, "cannot fork: %s", strerror(errno));
            close(fds[0]);
            close(fds[1]);
            ok = false;
            break;
        }
        if (pid == 0) {
            close(fds[0]);
            child_report r;
            memset(&r, 0, sizeof r);
            if (from->emu) {
                silence_guest_output();
                emu_private_files(from->emu); /* the parent fast-forwards on through them */
            }
            /* the parent waits for this byte: its next read of a shared file must come after
             * the offsets were taken above (a fast-forward that read on at once left a copy
             * reading end of file: a program reading stdin just after a point's start) */
            char ready = 1;
            if (write(fds[1], &ready, 1) != 1) _exit(1);
            if (all) {
                r.ok = time_warmed(core, w, p, &r.timing, &r.err);
            } else {
                bool one = true;
                uop_source *src = from->emu ? emu_source_create(from->emu) : open_trace(from->trace, &one, &r.err);
                uint64_t now = from->emu ? at : 0;
                r.ok = src && time_one(p, src, now, at, one, cfg, &r.timing, &r.err);
                uop_source_destroy(src);
            }
            size_t put = 0;
            while (put < sizeof r) {
                ssize_t n = write(fds[1], (char *)&r + put, sizeof r - put);
                if (n <= 0) break;
                put += (size_t)n;
            }
            _exit(put == sizeof r ? 0 : 1);
        }
        close(fds[1]);
        char ready;
        ssize_t got;
        while ((got = read(fds[0], &ready, 1)) < 0 && errno == EINTR) {
        }
        (void)got; /* 0: the copy ended before it, which reaping it reports */
        running[(head + count) % (size_t)jobs] = (child){pid, fds[0], i};
        count++;
    }
    /* collect the rest, even after a failure (no process is left behind) */
    while (count) {
        cs_error e;
        if (!reap(&running[head], out, &e) && ok) {
            ok = false;
            first_err = e;
        }
        head = (head + 1) % (size_t)jobs;
        count--;
    }
    free(running);
    free(w);
    uop_source_destroy(stream);
    core_destroy(core);
    if (!ok) *err = first_err;
    return ok;
}

/* Every counter of core_stats is a uint64_t before `seconds`, the last member. */
_Static_assert(offsetof(core_stats, seconds) % sizeof(uint64_t) == 0 &&
                   offsetof(core_stats, seconds) + sizeof(double) == sizeof(core_stats),
               "simpoint_combine scales every uint64_t counter before `seconds`");

void simpoint_combine(const simpoint_set *set, const simpoint_timing *pts, core_stats *stats, stacks_result *stacks) {
    enum { COUNTERS = offsetof(core_stats, seconds) / sizeof(uint64_t) };
    double sum[COUNTERS] = {0};
    memset(stats, 0, sizeof *stats);
    memset(stacks, 0, sizeof *stacks);
    double total = (double)set->instructions, flops = 0, flops_outside = 0, cycles = 0;
    for (size_t i = 0; i < set->count; i++) {
        const simpoint_timing *t = &pts[i];
        if (!t->stats.instructions) continue;
        double f = set->points[i].weight * total / (double)t->stats.instructions;
        uint64_t c[COUNTERS];
        memcpy(c, &t->stats, sizeof c);
        for (int j = 0; j < COUNTERS; j++) sum[j] += f * (double)c[j];
        stats->seconds += t->stats.seconds;
        cycles += f * (double)t->stacks.cycles;
        flops += f * (double)t->stacks.flops;
        flops_outside += f * (double)t->stacks.flops_outside;
        for (int s = 0; s < STACK_STAGES; s++)
            for (int k = 0; k < COMP_COUNT; k++) stacks->stage[s].cycles[k] += f * t->stacks.stage[s].cycles[k];
        for (int k = 0; k < FLOPS_COUNT; k++) stacks->fp.cycles[k] += f * t->stacks.fp.cycles[k];
        stacks->width = t->stacks.width;
        stacks->fp.units = t->stacks.fp.units;
        stacks->fp.vector = t->stacks.fp.vector;
        stacks->fp.peak_per_cycle = t->stacks.fp.peak_per_cycle;
        stacks->fp.freq_ghz = t->stacks.fp.freq_ghz;
    }
    uint64_t c[COUNTERS];
    for (int j = 0; j < COUNTERS; j++) c[j] = (uint64_t)llround(sum[j]);
    double seconds = stats->seconds;
    memcpy(stats, c, sizeof c);
    stats->seconds = seconds;
    stats->instructions = set->instructions;
    stacks->cycles = (uint64_t)llround(cycles);
    stacks->instructions = set->instructions;
    stacks->flops = (uint64_t)llround(flops);
    stacks->flops_outside = (uint64_t)llround(flops_outside);
}
