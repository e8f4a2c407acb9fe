/* Profile and truth files: line-oriented text, versioned, with a CRC-32 of
 * everything before the last line (docs/profile.md). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "profile.h"

static const char *const event_names[PROF_EVENT_COUNT] = {"cycles", "imiss", "dmiss", "mispredict", "retiring"};
const char *profile_event_name(profile_event e) { return e < PROF_EVENT_COUNT ? event_names[e] : "?"; }

static const char *const cause_names[TC_COUNT] = {
#define PROFILE_CAUSE_NAME(id, name) name,
    PROFILE_CAUSE_LIST(PROFILE_CAUSE_NAME)
#undef PROFILE_CAUSE_NAME
};
const char *profile_cause_name(profile_cause c) { return c < TC_COUNT ? cause_names[c] : "?"; }

static const char *const point_names[] = {"issue-head", "commit-slot", "commit-cycle"};
const char *profile_sample_point_name(profile_sample_point p) {
    return p <= PROFILE_POINT_COMMIT_CYCLE ? point_names[p] : "?";
}

void profile_data_free(profile_data *p) {
    if (!p) return;
    free(p->program);
    free(p->config_name);
    free(p->config_source);
    for (size_t i = 0; i < p->noverrides; i++) free(p->overrides[i]);
    free(p->overrides);
    free(p->model);
    free(p->config_text);
    free(p->run_seeds);
    for (size_t i = 0; i < p->nimages; i++) {
        free(p->images[i].path);
        free(p->images[i].host_path);
        free(p->images[i].ranges);
    }
    free(p->images);
    free(p->pcs);
    memset(p, 0, sizeof *p);
}

void profile_truth_free(profile_truth *t) {
    if (!t) return;
    free(t->pcs);
    free(t->edges);
    memset(t, 0, sizeof *t);
}

long profile_image_of(const profile_data *p, uint64_t pc) {
    for (size_t i = 0; i < p->nimages; i++)
        for (size_t k = 0; k < p->images[i].nranges; k++)
            if (pc >= p->images[i].ranges[k][0] && pc < p->images[i].ranges[k][1]) return (long)i;
    return -1;
}

const char *profile_image_name(const profile_image *img) {
    const char *slash = strrchr(img->path, '/');
    return slash && slash[1] ? slash + 1 : img->path;
}

/* The same images, in the same places, with the same identities. */
static bool images_alike(const profile_data *a, const profile_data *b) {
    if (a->nimages != b->nimages) return false;
    for (size_t i = 0; i < a->nimages; i++) {
        const profile_image *x = &a->images[i], *y = &b->images[i];
        if (strcmp(x->path, y->path) || x->size != y->size || x->hash != y->hash || x->bias != y->bias ||
            x->nranges != y->nranges || memcmp(x->ranges, y->ranges, x->nranges * sizeof *x->ranges))
            return false;
    }
    return true;
}

char *profile_config_label(const profile_data *p) {
    const char *name = p->config_name ? p->config_name : "?";
    size_t n = strlen(name) + 1;
    if (p->noverrides) n += strlen(" with");
    for (size_t i = 0; i < p->noverrides; i++) n += strlen(" --set ") + strlen(p->overrides[i]);
    char *label = cs_malloc(n);
    strcpy(label, name);
    if (p->noverrides) strcat(label, " with");
    for (size_t i = 0; i < p->noverrides; i++) {
        strcat(label, " --set ");
        strcat(label, p->overrides[i]);
    }
    return label;
}

bool profile_hash_file(const char *path, uint64_t *hash, uint64_t *size, cs_error *err) {
    uint8_t *data;
    size_t n;
    if (!cs_read_file(path, &data, &n, err)) return false;
    uint64_t h = 1469598103934665603ull; /* FNV-1a 64 offset basis */
    for (size_t i = 0; i < n; i++) h = (h ^ data[i]) * 1099511628211ull;
    free(data);
    *hash = h;
    *size = n;
    return true;
}

/* ---- merging the profiles (and truths) of several runs ------------------------ */

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool add_u64(uint64_t a, uint64_t b, uint64_t *out) {
    if (a > UINT64_MAX - b) return false;
    *out = a + b;
    return true;
}

/* Profiles' and truths' per-pc and per-edge records are all uint64_t words: a key (the first
 * `key` words: a pc, or an edge's from and to) and counts (the rest). */
_Static_assert(sizeof(profile_pc) == (3 + PROF_EVENT_COUNT) * sizeof(uint64_t), "profile_pc: words only");
_Static_assert(sizeof(truth_pc) == (2 + TC_COUNT) * sizeof(uint64_t), "truth_pc: words only");
_Static_assert(sizeof(truth_edge) == 3 * sizeof(uint64_t), "truth_edge: words only");

/* The union of two arrays of such records of `words` words, each sorted by its key: a record in
 * both has its counts summed. A new array (one more record than needed, so never of size 0) and
 * its length in *n; NULL when a sum overflows. */
static uint64_t *merge_records(const void *a_records, size_t na, const void *b_records, size_t nb, size_t words,
                               size_t key, size_t *n) {
    const uint64_t *a = a_records, *b = b_records;
    uint64_t *out = cs_calloc((na + nb + 1) * words, sizeof *out);
    size_t m = 0, i = 0, j = 0;
    while (i < na || j < nb) {
        const uint64_t *x = a + i * words, *y = b + j * words;
        int c = i == na ? 1 : j == nb ? -1 : 0;
        for (size_t k = 0; k < key && !c; k++) c = x[k] < y[k] ? -1 : x[k] > y[k];
        uint64_t *to = out + m++ * words;
        if (c < 0) memcpy(to, x, words * sizeof *to), i++;
        else if (c > 0) memcpy(to, y, words * sizeof *to), j++;
        else {
            memcpy(to, x, key * sizeof *to);
            for (size_t k = key; k < words; k++)
                if (!add_u64(x[k], y[k], &to[k])) {
                    free(out);
                    return NULL;
                }
            i++, j++;
        }
    }
    *n = m;
    return out;
}

bool profile_merge(profile_data *acc, const profile_data *next, const char *name, cs_error *err) {
    if (acc->exe_hash != next->exe_hash || acc->exe_size != next->exe_size) {
        cs_error_set(err,
                     "%s: a different executable (fnv1a64:%016" PRIx64 ", %" PRIu64
                     " bytes; expected fnv1a64:%016" PRIx64 ", %" PRIu64 " bytes)",
                     name, next->exe_hash, next->exe_size, acc->exe_hash, acc->exe_size);
        return false;
    }
    if (strcmp(acc->model ? acc->model : "", next->model ? next->model : "") ||
        strcmp(acc->config_text ? acc->config_text : "", next->config_text ? next->config_text : "")) {
        cs_error_set(err, "%s: recorded on a different machine configuration (%s)", name,
                     next->config_name ? next->config_name : "?");
        return false;
    }
    if (acc->sample_point != next->sample_point) {
        cs_error_set(err, "%s: samples taken at another point (%s; expected %s)", name,
                     profile_sample_point_name((profile_sample_point)next->sample_point),
                     profile_sample_point_name((profile_sample_point)acc->sample_point));
        return false;
    }
    if (acc->period_min != next->period_min || acc->period_max != next->period_max ||
        acc->event_period != next->event_period) {
        /* samples of different periods weigh different cycles: their sum is no profile */
        cs_error_set(err,
                     "%s: a different sampling period (%" PRIu64 "-%" PRIu64 ", events every %" PRIu64
                     "; expected %" PRIu64 "-%" PRIu64 ", every %" PRIu64 ")",
                     name, next->period_min, next->period_max, next->event_period, acc->period_min, acc->period_max,
                     acc->event_period);
        return false;
    }
    if (!images_alike(acc, next)) { /* a pc of a library is an address of the run's own loadmap */
        cs_error_set(err, "%s: its shared libraries are other files or were loaded elsewhere", name);
        return false;
    }
    /* the same seed twice is the same sample times twice: not more samples */
    size_t na = acc->nruns ? acc->nruns : 1, nb = next->nruns ? next->nruns : 1;
    uint64_t *seeds = cs_malloc((na + nb) * sizeof *seeds);
    for (size_t i = 0; i < na; i++) seeds[i] = acc->nruns ? acc->run_seeds[i] : acc->seed;
    for (size_t i = 0; i < nb; i++) seeds[na + i] = next->nruns ? next->run_seeds[i] : next->seed;
    uint64_t *sorted = cs_malloc((na + nb) * sizeof *sorted);
    memcpy(sorted, seeds, (na + nb) * sizeof *sorted);
    qsort(sorted, na + nb, sizeof *sorted, cmp_u64);
    for (size_t i = 1; i < na + nb; i++)
        if (sorted[i] == sorted[i - 1]) {
            cs_error_set(err,
                         "%s: sampling seed %" PRIu64 " is already in the profile (the same samples twice; "
                         "record the runs with different --sample-seed)",
                         name, sorted[i]);
            free(sorted);
            free(seeds);
            return false;
        }
    free(sorted);
    uint64_t cycles, insns, samples, idle;
    if (!add_u64(acc->cycles, next->cycles, &cycles) || !add_u64(acc->instructions, next->instructions, &insns) ||
        !add_u64(acc->samples, next->samples, &samples) || !add_u64(acc->idle_samples, next->idle_samples, &idle)) {
        cs_error_set(err, "%s: the sums overflow", name);
        free(seeds);
        return false;
    }
    /* the union of the pcs, both sorted */
    size_t n = 0;
    profile_pc *pcs =
        (profile_pc *)merge_records(acc->pcs, acc->npcs, next->pcs, next->npcs, sizeof *pcs / sizeof(uint64_t), 1, &n);
    if (!pcs) { /* a pc's sum cannot exceed the samples' unless the file lied: parse refuses that */
        cs_error_set(err, "%s: the sums overflow", name);
        free(seeds);
        return false;
    }
    free(acc->pcs);
    acc->pcs = pcs;
    acc->npcs = n;
    free(acc->run_seeds);
    acc->run_seeds = seeds;
    acc->nruns = na + nb;
    acc->cycles = cycles;
    acc->instructions = insns;
    acc->samples = samples;
    acc->idle_samples = idle;
    return true;
}

bool profile_truth_merge(profile_truth *acc, const profile_truth *next, const char *name, cs_error *err) {
    if (acc->exe_hash != next->exe_hash) {
        cs_error_set(err, "%s: the truth of a different executable (fnv1a64:%016" PRIx64 "; expected %016" PRIx64 ")",
                     name, next->exe_hash, acc->exe_hash);
        return false;
    }
    size_t n = 0, m = 0;
    truth_pc *pcs =
        (truth_pc *)merge_records(acc->pcs, acc->npcs, next->pcs, next->npcs, sizeof *pcs / sizeof(uint64_t), 1, &n);
    truth_edge *edges = (truth_edge *)merge_records(acc->edges, acc->nedges, next->edges, next->nedges,
                                                    sizeof *edges / sizeof(uint64_t), 2, &m);
    if (!pcs || !edges) {
        cs_error_set(err, "%s: the sums overflow", name);
        free(pcs);
        free(edges);
        return false;
    }
    free(acc->pcs);
    free(acc->edges);
    acc->pcs = pcs;
    acc->npcs = n;
    acc->edges = edges;
    acc->nedges = m;
    return true;
}

bool profile_truth_check(const profile_data *p, const profile_truth *t, cs_error *err) {
    if (t->exe_hash != p->exe_hash) {
        cs_error_set(err, "the truth file is of another executable");
        return false;
    }
    /* the truth holds the true cause of each of the run's CYCLES samples at its
     * pc: a truth of another run (another machine, arguments or seed) grades
     * samples the profile does not have */
    size_t i = 0, k = 0;
    while (i < p->npcs || k < t->npcs) {
        uint64_t pc = i < p->npcs && (k >= t->npcs || p->pcs[i].pc <= t->pcs[k].pc) ? p->pcs[i].pc : t->pcs[k].pc;
        uint64_t have = 0, truth = 0;
        if (i < p->npcs && p->pcs[i].pc == pc) have = p->pcs[i++].count[PROF_CYCLES];
        if (k < t->npcs && t->pcs[k].pc == pc) {
            for (int c = 0; c < TC_COUNT; c++) truth += t->pcs[k].cause[c];
            k++;
        }
        if (have != truth) {
            cs_error_set(err,
                         "the truth file is of another run: at pc %" PRIx64 " it has %" PRIu64
                         " CYCLES samples, the profile %" PRIu64 " (record the truth with the profile)",
                         pc, truth, have);
            return false;
        }
    }
    return true;
}

/* ---- writing: a growing buffer, then the checksum ---------------------------- */

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k >= 0 && b->p && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t want = b->n + (size_t)(k > 0 ? k : 0) + 1;
        b->cap = b->cap * 2 > want ? b->cap * 2 : want + 4096;
        b->p = cs_realloc(b->p, b->cap);
    }
}

/* The checksummed text into `out`, a temporary beside `path` (cs_output), left open: the
 * caller renames it into place (cs_output_commit) or removes it (cs_output_discard). */
static bool stage_file(const char *path, sbuf *b, cs_output *out, cs_error *err) {
    uLong c = crc32(0L, Z_NULL, 0);
    c = crc32(c, (const Bytef *)b->p, (uInt)b->n);
    sb_printf(b, "checksum crc32:%08lx\n", (unsigned long)c);
    FILE *f = cs_output_open(out, path, err);
    bool ok = f && fwrite(b->p, 1, b->n, f) == b->n && fflush(f) == 0;
    if (f && !ok) {
        cs_error_set(err, "%s: write failed", path);
        cs_output_discard(out);
    }
    free(b->p);
    return ok;
}

static bool commit_staged(bool staged, cs_output *out, cs_error *err) {
    bool ok = staged && cs_output_commit(out, err);
    cs_output_discard(out);
    return ok;
}

char *profile_locate_program(const char *profile_path, const char *recorded) {
    if (!recorded || !*recorded) return NULL;
    if (access(recorded, F_OK) == 0) return cs_strdup(recorded);
    const char *slash = strrchr(profile_path, '/');
    int dir_len = slash ? (int)(slash - profile_path) : 1;
    const char *dir = slash ? profile_path : ".";
    /* under the profile's directory, each tail of the recorded path, longest first: a relative
     * path recorded elsewhere, a tree moved with the profile in it, the name beside it */
    for (const char *tail = recorded; tail && *tail; tail = strchr(tail, '/')) {
        while (*tail == '/') tail++;
        if (!*tail) break;
        size_t n = (size_t)dir_len + strlen(tail) + 2;
        char *path = cs_malloc(n);
        snprintf(path, n, "%.*s/%s", dir_len, dir, tail);
        if (access(path, F_OK) == 0) return path;
        free(path);
    }
    return NULL;
}

/* Text fields must stay on their line (a reader splits at '\n' only). */
static const char *one_line(const char *s) { return s && !strchr(s, '\n') ? s : "?"; }

/* An override is "section.key=value" on one line. */
static bool override_ok(const char *o) {
    const char *eq = o ? strchr(o, '=') : NULL;
    return eq && eq > o && !strchr(o, '\n');
}

bool profile_write(const char *path, const profile_data *p, cs_error *err) {
    cs_output out;
    return commit_staged(profile_write_staged(path, p, &out, err), &out, err);
}

bool profile_write_staged(const char *path, const profile_data *p, cs_output *out, cs_error *err) {
    memset(out, 0, sizeof *out);
    /* the configuration's origin is the header's truth: never written as "?" */
    const char *source = p->config_source ? p->config_source : p->config_name;
    if (!source || !source[0] || strchr(source, '\n')) {
        cs_error_set(err, "%s: the configuration's source is not one line", path);
        return false;
    }
    for (size_t i = 0; i < p->noverrides; i++)
        if (!override_ok(p->overrides[i])) {
            cs_error_set(err, "%s: override %zu is not one section.key=value line", path, i + 1);
            return false;
        }
    sbuf b = {0};
    sb_printf(&b, "cyclescope-profile %d\n", PROFILE_VERSION);
    sb_printf(&b, "program %s\n", one_line(p->program));
    sb_printf(&b, "exe-size %" PRIu64 "\n", p->exe_size);
    sb_printf(&b, "exe-hash fnv1a64:%016" PRIx64 "\n", p->exe_hash);
    sb_printf(&b, "config-name %s\n", one_line(p->config_name));
    sb_printf(&b, "config-source %s\n", source);
    sb_printf(&b, "config-overrides %zu\n", p->noverrides);
    for (size_t i = 0; i < p->noverrides; i++) sb_printf(&b, "%s\n", p->overrides[i]);
    sb_printf(&b, "model %s\n", one_line(p->model));
    sb_printf(&b, "sample-point %s\n", profile_sample_point_name((profile_sample_point)p->sample_point));
    sb_printf(&b, "period %" PRIu64 " %" PRIu64 "\n", p->period_min, p->period_max);
    size_t nruns = p->nruns ? p->nruns : 1;
    sb_printf(&b, "runs %zu\n", nruns);
    for (size_t i = 0; i < nruns; i++) sb_printf(&b, "%" PRIu64 "\n", p->nruns ? p->run_seeds[i] : p->seed);
    sb_printf(&b, "event-period %" PRIu64 "\n", p->event_period);
    sb_printf(&b, "cycles %" PRIu64 "\n", p->cycles);
    sb_printf(&b, "instructions %" PRIu64 "\n", p->instructions);
    sb_printf(&b, "samples %" PRIu64 " %" PRIu64 "\n", p->samples, p->idle_samples);
    const char *cfg = p->config_text ? p->config_text : "";
    size_t lines = 0;
    for (const char *c = cfg; *c; c++) lines += *c == '\n';
    if (*cfg && cfg[strlen(cfg) - 1] != '\n') lines++;
    sb_printf(&b, "config %zu\n", lines);
    sb_printf(&b, "%s", cfg);
    if (*cfg && cfg[strlen(cfg) - 1] != '\n') sb_printf(&b, "\n");
    sb_printf(&b, "images %zu\n", p->nimages);
    for (size_t i = 0; i < p->nimages; i++) {
        const profile_image *img = &p->images[i];
        sb_printf(&b, "image %s\n", one_line(img->path));
        sb_printf(&b, "image-host %s\n", one_line(img->host_path));
        sb_printf(&b, "image-size %" PRIu64 "\n", img->size);
        sb_printf(&b, "image-hash fnv1a64:%016" PRIx64 "\n", img->hash);
        sb_printf(&b, "image-bias %" PRIx64 "\n", img->bias);
        sb_printf(&b, "image-ranges %zu\n", img->nranges);
        for (size_t k = 0; k < img->nranges; k++)
            sb_printf(&b, "%" PRIx64 " %" PRIx64 "\n", img->ranges[k][0], img->ranges[k][1]);
    }
    /* commit-cycle: the two counts of the spread too (the other points' records are version 5's) */
    bool spread = p->sample_point == PROFILE_POINT_COMMIT_CYCLE;
    sb_printf(&b, "pcs %zu cycles imiss dmiss mispredict retiring%s\n", p->npcs,
              spread ? " cycles-sq retiring-width" : "");
    for (size_t i = 0; i < p->npcs; i++) {
        sb_printf(&b, "%" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, p->pcs[i].pc,
                  p->pcs[i].count[0], p->pcs[i].count[1], p->pcs[i].count[2], p->pcs[i].count[3], p->pcs[i].count[4]);
        if (spread) sb_printf(&b, " %" PRIu64 " %" PRIu64, p->pcs[i].cycles_sq, p->pcs[i].retiring_width);
        sb_printf(&b, "\n");
    }
    return stage_file(path, &b, out, err);
}

bool profile_truth_write(const char *path, const profile_truth *t, cs_error *err) {
    cs_output out;
    return commit_staged(profile_truth_write_staged(path, t, &out, err), &out, err);
}

bool profile_truth_write_staged(const char *path, const profile_truth *t, cs_output *out, cs_error *err) {
    memset(out, 0, sizeof *out);
    sbuf b = {0};
    sb_printf(&b, "cyclescope-profile-truth %d\n", PROFILE_TRUTH_VERSION);
    sb_printf(&b, "exe-hash fnv1a64:%016" PRIx64 "\n", t->exe_hash);
    sb_printf(&b, "pcs %zu executions", t->npcs);
    for (int c = 0; c < TC_COUNT; c++) sb_printf(&b, " %s", cause_names[c]);
    sb_printf(&b, "\n");
    for (size_t i = 0; i < t->npcs; i++) {
        sb_printf(&b, "%" PRIx64 " %" PRIu64, t->pcs[i].pc, t->pcs[i].executions);
        for (int c = 0; c < TC_COUNT; c++) sb_printf(&b, " %" PRIu64, t->pcs[i].cause[c]);
        sb_printf(&b, "\n");
    }
    sb_printf(&b, "edges %zu\n", t->nedges);
    for (size_t i = 0; i < t->nedges; i++)
        sb_printf(&b, "%" PRIx64 " %" PRIx64 " %" PRIu64 "\n", t->edges[i].from, t->edges[i].to, t->edges[i].count);
    return stage_file(path, &b, out, err);
}

/* ---- parsing ----------------------------------------------------------------- */

typedef struct reader {
    const char *p, *end;
    const char *name;
    int line;
    cs_error *err;
    char buf[4096];
} reader;

/* Next line into r->buf (without the newline); false at the end or on a line too long. */
static bool next_line(reader *r) {
    if (r->p >= r->end) {
        cs_error_set(r->err, "%s: truncated after line %d", r->name, r->line);
        return false;
    }
    const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    if (!nl) {
        cs_error_set(r->err, "%s: truncated: line %d has no end", r->name, r->line + 1);
        return false;
    }
    size_t n = (size_t)(nl - r->p);
    r->line++;
    if (n >= sizeof r->buf || memchr(r->p, '\0', n)) {
        cs_error_set(r->err, "%s:%d: malformed line", r->name, r->line);
        return false;
    }
    memcpy(r->buf, r->p, n);
    r->buf[n] = '\0';
    r->p = nl + 1;
    return true;
}

static bool bad(reader *r, const char *what) {
    cs_error_set(r->err, "%s:%d: malformed %s", r->name, r->line, what);
    return false;
}

/* "key VALUE" with the value as text. */
static bool key_text(reader *r, const char *key, char **out) {
    if (!next_line(r)) return false;
    size_t k = strlen(key);
    if (strncmp(r->buf, key, k) != 0 || r->buf[k] != ' ') return bad(r, key);
    *out = cs_strdup(r->buf + k + 1);
    return true;
}

static bool parse_u64(const char *s, int base, uint64_t *out, const char **rest) {
    if (*s == '-' || *s == '+' || *s == ' ' || !*s) return false;
    char *e;
    errno = 0;
    unsigned long long v = strtoull(s, &e, base);
    if (e == s || errno) return false;
    *out = v;
    *rest = e;
    return true;
}

/* "key N [N…]" with `n` decimal numbers. */
static bool key_nums(reader *r, const char *key, int n, uint64_t *out) {
    if (!next_line(r)) return false;
    size_t k = strlen(key);
    if (strncmp(r->buf, key, k) != 0 || r->buf[k] != ' ') return bad(r, key);
    const char *s = r->buf + k;
    for (int i = 0; i < n; i++) {
        if (*s != ' ') return bad(r, key);
        if (!parse_u64(s + 1, 10, &out[i], &s)) return bad(r, key);
    }
    if (*s) return bad(r, key);
    return true;
}

static bool key_hash_of(reader *r, const char *pre, uint64_t *out) {
    if (!next_line(r)) return false;
    const char *s;
    if (strncmp(r->buf, pre, strlen(pre)) != 0 || strlen(r->buf) != strlen(pre) + 16 ||
        !parse_u64(r->buf + strlen(pre), 16, out, &s) || *s)
        return bad(r, pre);
    return true;
}

static bool key_hash(reader *r, uint64_t *out) { return key_hash_of(r, "exe-hash fnv1a64:", out); }

static bool count_line(reader *r, const char *key, const char *tail, size_t *n);

/* "key HEX" */
static bool key_hex(reader *r, const char *key, uint64_t *out) {
    if (!next_line(r)) return false;
    size_t k = strlen(key);
    const char *s;
    if (strncmp(r->buf, key, k) != 0 || r->buf[k] != ' ' || !parse_u64(r->buf + k + 1, 16, out, &s) || *s)
        return bad(r, key);
    return true;
}

static int cmp_range(const void *a, const void *b) {
    const uint64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Version 7's images: each its path, host path, identity, bias and ranges; the ranges of all
 * images apart (a pc names one image). */
static bool parse_images(reader *r, profile_data *out) {
    size_t n;
    if (!count_line(r, "images", "", &n)) return false;
    out->images = cs_calloc(n ? n : 1, sizeof *out->images);
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        profile_image *img = &out->images[i];
        out->nimages = i + 1;
        size_t nr;
        if (!key_text(r, "image", &img->path) || !key_text(r, "image-host", &img->host_path) ||
            !key_nums(r, "image-size", 1, &img->size) || !key_hash_of(r, "image-hash fnv1a64:", &img->hash) ||
            !key_hex(r, "image-bias", &img->bias) || !count_line(r, "image-ranges", "", &nr))
            return false;
        if (!img->path[0] || !img->host_path[0]) return bad(r, "image (an empty path)");
        img->ranges = cs_calloc(nr ? nr : 1, sizeof *img->ranges);
        for (size_t k = 0; k < nr; k++) {
            const char *s;
            if (!next_line(r)) return false;
            if (!parse_u64(r->buf, 16, &img->ranges[k][0], &s) || *s != ' ' ||
                !parse_u64(s + 1, 16, &img->ranges[k][1], &s) || *s || img->ranges[k][1] <= img->ranges[k][0] ||
                (k && img->ranges[k][0] < img->ranges[k - 1][1]))
                return bad(r, "image range (start below end, increasing)");
            img->nranges = k + 1;
        }
        total += nr;
    }
    /* no two images share an address */
    uint64_t(*all)[2] = cs_calloc(total ? total : 1, sizeof *all);
    size_t m = 0;
    for (size_t i = 0; i < out->nimages; i++)
        for (size_t k = 0; k < out->images[i].nranges; k++) memcpy(all[m++], out->images[i].ranges[k], sizeof *all);
    qsort(all, m, sizeof *all, cmp_range);
    bool apart = true;
    for (size_t k = 1; k < m; k++) apart = apart && all[k][0] >= all[k - 1][1];
    free(all);
    if (!apart) return bad(r, "images (two images' ranges overlap)");
    return true;
}

/* Check the header line and the checksum line; r is left after the header.
 * Versions oldest..version are read; the one found goes to *found. `what` names
 * the kind of file for a foreign one ("cyclescope profile"). */
static bool check_envelope(reader *r, const char *magic, const char *what, int oldest, int version, int *found) {
    const char *start = r->p;
    size_t size = (size_t)(r->end - r->p);
    /* the header first: a file that does not begin with it (an ELF, a text, the
     * other kind of profile file) is foreign, whatever its last line is */
    size_t ml = strlen(magic);
    if (size <= ml || strncmp(start, magic, ml) != 0 || start[ml] != ' ') {
        cs_error_set(r->err, "%s: not a %s (it does not begin with \"%s \")", r->name, what, magic);
        return false;
    }
    /* the checksum: the last line */
    if (r->end[-1] != '\n') {
        cs_error_set(r->err, "%s: truncated: no checksum line", r->name);
        return false;
    }
    const char *last = r->end - 1;
    while (last > start && last[-1] != '\n') last--;
    const char *pre = "checksum crc32:";
    size_t ll = (size_t)(r->end - 1 - last);
    if (ll != strlen(pre) + 8 || strncmp(last, pre, strlen(pre)) != 0) {
        cs_error_set(r->err, "%s: truncated: no checksum line", r->name);
        return false;
    }
    char hex[9];
    memcpy(hex, last + strlen(pre), 8);
    hex[8] = '\0';
    uint64_t want;
    const char *rest;
    if (!parse_u64(hex, 16, &want, &rest) || *rest) {
        cs_error_set(r->err, "%s: malformed checksum line", r->name);
        return false;
    }
    uLong c = crc32(0L, Z_NULL, 0);
    c = crc32(c, (const Bytef *)start, (uInt)(last - start));
    if (c != want) {
        cs_error_set(r->err, "%s: checksum mismatch (corrupt file)", r->name);
        return false;
    }
    r->end = last;
    if (!next_line(r)) return false;
    uint64_t v;
    if (!parse_u64(r->buf + ml + 1, 10, &v, &rest) || *rest) return bad(r, "version");
    if (v < (uint64_t)oldest || v > (uint64_t)version) {
        if (oldest == version)
            cs_error_set(r->err, "%s: version %" PRIu64 " (this cyclescope reads version %d%s)", r->name, v, version,
                         v < (uint64_t)version ? "; record it again" : "");
        else
            cs_error_set(r->err, "%s: version %" PRIu64 " (this cyclescope reads versions %d to %d%s)", r->name, v,
                         oldest, version, v < (uint64_t)oldest ? "; record it again" : "");
        return false;
    }
    *found = (int)v;
    return true;
}

static bool at_end(reader *r) {
    if (r->p != r->end) {
        cs_error_set(r->err, "%s:%d: unexpected data after the last record", r->name, r->line + 1);
        return false;
    }
    return true;
}

/* A count line "key N rest…" with N bounded by what the file can hold. */
static bool count_line(reader *r, const char *key, const char *tail, size_t *n) {
    if (!next_line(r)) return false;
    size_t k = strlen(key);
    uint64_t v;
    const char *s;
    if (strncmp(r->buf, key, k) != 0 || r->buf[k] != ' ' || !parse_u64(r->buf + k + 1, 10, &v, &s)) return bad(r, key);
    if (strcmp(s, tail) != 0) return bad(r, key);
    if (v > (uint64_t)(r->end - r->p)) { /* each record takes more than a byte */
        cs_error_set(r->err, "%s:%d: %s count %" PRIu64 " larger than the file", r->name, r->line, key, v);
        return false;
    }
    *n = (size_t)v;
    return true;
}

bool profile_parse(const uint8_t *data, size_t size, const char *name, profile_data *out, cs_error *err) {
    memset(out, 0, sizeof *out);
    reader *r = cs_calloc(1, sizeof *r);
    r->p = (const char *)data;
    r->end = (const char *)data + size;
    r->name = name;
    r->err = err;
    bool ok = false;
    uint64_t v[2];
    int version;
    if (!check_envelope(r, "cyclescope-profile", "cyclescope profile", PROFILE_VERSION_OLDEST, PROFILE_VERSION,
                        &version))
        goto done;
    if (!key_text(r, "program", &out->program)) goto done;
    if (!key_nums(r, "exe-size", 1, &out->exe_size)) goto done;
    if (!key_hash(r, &out->exe_hash)) goto done;
    if (!key_text(r, "config-name", &out->config_name)) goto done;
    if (!key_text(r, "config-source", &out->config_source)) goto done;
    if (!out->config_source[0]) {
        bad(r, "config-source (empty)");
        goto done;
    }
    size_t noverrides;
    if (!count_line(r, "config-overrides", "", &noverrides)) goto done;
    out->overrides = cs_calloc(noverrides ? noverrides : 1, sizeof *out->overrides);
    for (size_t i = 0; i < noverrides; i++) {
        if (!next_line(r)) goto done;
        if (!override_ok(r->buf)) {
            bad(r, "override (not section.key=value)");
            goto done;
        }
        out->overrides[out->noverrides++] = cs_strdup(r->buf);
    }
    if (!key_text(r, "model", &out->model)) goto done;
    if (version >= 5) { /* older versions sampled the head of issue */
        char *point = NULL;
        if (!key_text(r, "sample-point", &point)) goto done;
        bool known = false;
        /* commit-cycle since version 6 */
        int last = version >= 6 ? PROFILE_POINT_COMMIT_CYCLE : PROFILE_POINT_COMMIT_SLOT;
        for (int k = PROFILE_POINT_ISSUE_HEAD; k <= last; k++)
            if (!strcmp(point, point_names[k])) out->sample_point = (uint8_t)k, known = true;
        free(point);
        if (!known) {
            bad(r,
                version >= 6 ? "sample-point (issue-head, commit-slot or commit-cycle)"
                             : "sample-point (issue-head or commit-slot)");
            goto done;
        }
        if (profile_point_is_commit(out->sample_point) && strcmp(out->model, "ooo") != 0) {
            bad(r, "sample-point (commit slots are an out-of-order machine's)");
            goto done;
        }
    }
    if (!key_nums(r, "period", 2, v)) goto done;
    out->period_min = v[0];
    out->period_max = v[1];
    if (v[0] == 0 || v[1] < v[0]) {
        bad(r, "period (0, or max below min)");
        goto done;
    }
    if (version == 3) { /* one run */
        if (!key_nums(r, "seed", 1, &out->seed)) goto done;
    } else {
        size_t nruns;
        if (!count_line(r, "runs", "", &nruns)) goto done;
        if (nruns == 0) {
            bad(r, "runs (0)");
            goto done;
        }
        out->run_seeds = cs_calloc(nruns, sizeof *out->run_seeds);
        for (size_t i = 0; i < nruns; i++) {
            const char *rest;
            if (!next_line(r)) goto done;
            if (!parse_u64(r->buf, 10, &out->run_seeds[i], &rest) || *rest) {
                bad(r, "run seed");
                goto done;
            }
        }
        out->nruns = nruns;
        out->seed = out->run_seeds[0];
    }
    if (!key_nums(r, "event-period", 1, &out->event_period)) goto done;
    if (!key_nums(r, "cycles", 1, &out->cycles)) goto done;
    if (!key_nums(r, "instructions", 1, &out->instructions)) goto done;
    if (!key_nums(r, "samples", 2, v)) goto done;
    out->samples = v[0];
    out->idle_samples = v[1];
    if (v[1] > v[0]) {
        bad(r, "samples (more idle than taken)");
        goto done;
    }
    size_t lines;
    if (!count_line(r, "config", "", &lines)) goto done;
    {
        const char *cs = r->p;
        for (size_t i = 0; i < lines; i++)
            if (!next_line(r)) goto done;
        out->config_text = cs_malloc((size_t)(r->p - cs) + 1);
        memcpy(out->config_text, cs, (size_t)(r->p - cs));
        out->config_text[r->p - cs] = '\0';
    }
    if (version >= 7 && !parse_images(r, out)) goto done;
    /* version 5: the retiring samples too; version 6's commit-cycle: and the spread */
    int columns = version >= 5 ? PROF_EVENT_COUNT : PROF_RETIRING;
    bool spread = out->sample_point == PROFILE_POINT_COMMIT_CYCLE;
    if (!count_line(r, "pcs",
                    spread             ? " cycles imiss dmiss mispredict retiring cycles-sq retiring-width"
                        : version >= 5 ? " cycles imiss dmiss mispredict retiring"
                                       : " cycles imiss dmiss mispredict",
                    &out->npcs))
        goto done;
    out->pcs = cs_calloc(out->npcs ? out->npcs : 1, sizeof *out->pcs);
    uint64_t sum = 0;
    for (size_t i = 0; i < out->npcs; i++) {
        if (!next_line(r)) goto done;
        const char *s = r->buf;
        profile_pc *e = &out->pcs[i];
        if (!parse_u64(s, 16, &e->pc, &s)) {
            bad(r, "pc record");
            goto done;
        }
        for (int k = 0; k < columns; k++)
            if (*s != ' ' || !parse_u64(s + 1, 10, &e->count[k], &s)) {
                bad(r, "pc record");
                goto done;
            }
        if (e->count[PROF_RETIRING] > e->count[PROF_CYCLES]) {
            bad(r, "pc record (more retiring samples than samples)");
            goto done;
        }
        if (spread) {
            if (*s != ' ' || !parse_u64(s + 1, 10, &e->cycles_sq, &s) || *s != ' ' ||
                !parse_u64(s + 1, 10, &e->retiring_width, &s)) {
                bad(r, "pc record");
                goto done;
            }
            /* a sum of squares of positive counts summing to c lies in [c, c^2]; each retiring
             * sample's cycle committed at least its own µop */
            uint64_t c = e->count[PROF_CYCLES];
            if (e->cycles_sq < c || (c && (e->cycles_sq - 1) / c >= c) || (!c && e->cycles_sq) ||
                e->retiring_width < e->count[PROF_RETIRING] || (!e->count[PROF_RETIRING] && e->retiring_width)) {
                bad(r, "pc record (cycles-sq or retiring-width impossible for its counts)");
                goto done;
            }
        } else { /* one sample a sample cycle: the counts are their own spread */
            e->cycles_sq = e->count[PROF_CYCLES];
            e->retiring_width = e->count[PROF_RETIRING];
        }
        if (*s || (i && e->pc <= out->pcs[i - 1].pc)) {
            bad(r, "pc record (pcs must increase)");
            goto done;
        }
        if (e->count[0] > out->samples - sum) {
            bad(r, "pc record (more samples than the profile took)");
            goto done;
        }
        sum += e->count[0];
    }
    if (sum + out->idle_samples != out->samples) {
        cs_error_set(err, "%s: the pcs' samples (%" PRIu64 ") and the idle ones do not add up to %" PRIu64, name, sum,
                     out->samples);
        goto done;
    }
    ok = at_end(r);
done:
    free(r);
    if (!ok) profile_data_free(out);
    return ok;
}

bool profile_read(const char *path, profile_data *out, cs_error *err) {
    uint8_t *data;
    size_t n;
    if (!cs_read_file(path, &data, &n, err)) return false;
    bool ok = profile_parse(data, n, path, out, err);
    free(data);
    return ok;
}

static bool truth_parse(const uint8_t *data, size_t size, const char *name, profile_truth *out, cs_error *err) {
    memset(out, 0, sizeof *out);
    reader *r = cs_calloc(1, sizeof *r);
    r->p = (const char *)data;
    r->end = (const char *)data + size;
    r->name = name;
    r->err = err;
    bool ok = false;
    int version;
    if (!check_envelope(r, "cyclescope-profile-truth", "cyclescope profile truth file", PROFILE_TRUTH_VERSION,
                        PROFILE_TRUTH_VERSION, &version))
        goto done;
    if (!key_hash(r, &out->exe_hash)) goto done;
    char tail[512] = " executions";
    for (int c = 0; c < TC_COUNT; c++) {
        strcat(tail, " ");
        strcat(tail, cause_names[c]);
    }
    if (!count_line(r, "pcs", tail, &out->npcs)) goto done;
    out->pcs = cs_calloc(out->npcs ? out->npcs : 1, sizeof *out->pcs);
    for (size_t i = 0; i < out->npcs; i++) {
        if (!next_line(r)) goto done;
        const char *s = r->buf;
        truth_pc *e = &out->pcs[i];
        bool good = parse_u64(s, 16, &e->pc, &s) && *s == ' ' && parse_u64(s + 1, 10, &e->executions, &s);
        for (int c = 0; good && c < TC_COUNT; c++) good = *s == ' ' && parse_u64(s + 1, 10, &e->cause[c], &s);
        if (!good || *s || (i && e->pc <= out->pcs[i - 1].pc)) {
            bad(r, "pc record");
            goto done;
        }
    }
    if (!count_line(r, "edges", "", &out->nedges)) goto done;
    out->edges = cs_calloc(out->nedges ? out->nedges : 1, sizeof *out->edges);
    for (size_t i = 0; i < out->nedges; i++) {
        if (!next_line(r)) goto done;
        const char *s = r->buf;
        truth_edge *e = &out->edges[i];
        if (!parse_u64(s, 16, &e->from, &s) || *s != ' ' || !parse_u64(s + 1, 16, &e->to, &s) || *s != ' ' ||
            !parse_u64(s + 1, 10, &e->count, &s) || *s) {
            bad(r, "edge record");
            goto done;
        }
        if (i && (e->from < e[-1].from || (e->from == e[-1].from && e->to <= e[-1].to))) {
            bad(r, "edge record (edges must increase)");
            goto done;
        }
    }
    ok = at_end(r);
done:
    free(r);
    if (!ok) profile_truth_free(out);
    return ok;
}

bool profile_truth_read(const char *path, profile_truth *out, cs_error *err) {
    uint8_t *data;
    size_t n;
    if (!cs_read_file(path, &data, &n, err)) return false;
    bool ok = truth_parse(data, n, path, out, err);
    free(data);
    return ok;
}
