/* The .rps file (docs/rpstacks.md, "The .rps file"): the representative
 * stacks of a run, what ran, and the comparators, little-endian, ending in a
 * CRC-32 of everything before it. Predictions from a loaded result. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "rpstacks.h"
#include "rpstacks_internal.h"

static const uint8_t MAGIC[8] = {'C', 'S', 'R', 'P', 'S', 0x1a, '\n', 0};
enum { RPS_VERSION = 5, MAX_STRING = 4096 };

/* ---- predictions ---- */

bool rps_scales(const rps_result *r, const uint32_t lat[RPS_DIMS], double scale[RPS_DIMS], cs_error *err) {
    scale[RPS_BASE] = 1;
    for (int d = 1; d < RPS_DIMS; d++) {
        if (r->base_latency[d] == 0) {
            if (lat[d] != 0) {
                cs_error_set(err,
                             "%s: its latency in the analysed run was 0 or fixed (a TLB not modelled, arithmetic "
                             "under ideal.alu), so its penalties cannot be scaled",
                             rps_dim_key(d));
                return false;
            }
            scale[d] = 1;
            continue;
        }
        scale[d] = (double)lat[d] / r->base_latency[d];
    }
    return true;
}

static double dot(const double *v, const double *scale) {
    double s = 0;
    for (int d = 0; d < RPS_DIMS; d++) s += v[d] * scale[d];
    return s;
}

double rps_predict(const rps_result *r, const double scale[RPS_DIMS]) {
    double total = 0;
    for (uint32_t k = 0; k < r->segments; k++) {
        double best = 0;
        bool any = false;
        for (uint32_t q = r->seg_first[k]; q < r->seg_first[k + 1]; q++) {
            double x = dot(&r->stacks[(size_t)q * RPS_DIMS], scale);
            if (!any || x > best) best = x, any = true;
        }
        total += best;
    }
    return total;
}

bool rps_dim_used(const rps_result *r, int dim) {
    if (dim < 0 || dim >= RPS_DIMS) return false;
    if (r->cp1[dim] != 0 || r->fmt[dim] != 0) return true;
    for (size_t q = 0; q < r->stack_count; q++)
        if (r->stacks[q * RPS_DIMS + dim] != 0) return true;
    return false;
}

double rps_predict_cp1(const rps_result *r, const double scale[RPS_DIMS]) { return dot(r->cp1, scale); }
double rps_predict_fmt(const rps_result *r, const double scale[RPS_DIMS]) { return dot(r->fmt, scale); }

void rps_largest_paths(const rps_result *r, int n, double *out) {
    memset(out, 0, (size_t)n * RPS_DIMS * sizeof *out);
    uint32_t *idx = NULL;
    uint32_t cap = 0;
    for (uint32_t k = 0; k < r->segments; k++) {
        uint32_t m = r->seg_first[k + 1] - r->seg_first[k];
        if (m > cap) idx = cs_realloc(idx, (cap = m) * sizeof *idx);
        double ones[RPS_DIMS];
        for (int d = 0; d < RPS_DIMS; d++) ones[d] = 1;
        for (uint32_t q = 0; q < m; q++) idx[q] = r->seg_first[k] + q;
        for (uint32_t a = 1; a < m; a++) { /* by total, largest first */
            uint32_t x = idx[a], b = a;
            double tx = dot(&r->stacks[(size_t)x * RPS_DIMS], ones);
            while (b > 0 && dot(&r->stacks[(size_t)idx[b - 1] * RPS_DIMS], ones) < tx) idx[b] = idx[b - 1], b--;
            idx[b] = x;
        }
        for (int p = 0; p < n && m; p++) {
            uint32_t q = idx[(uint32_t)p < m ? (uint32_t)p : m - 1]; /* fewer stacks: the smallest stands in */
            for (int d = 0; d < RPS_DIMS; d++) out[(size_t)p * RPS_DIMS + d] += r->stacks[(size_t)q * RPS_DIMS + d];
        }
    }
    free(idx);
}

/* ---- what-if keys ---- */

bool rps_set_latency(const rps_result *r, uint32_t lat[RPS_DIMS], const char *assignment, cs_error *err) {
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment) {
        cs_error_set(err, "%s: expected section.key=value", assignment);
        return false;
    }
    char key[128];
    size_t klen = (size_t)(eq - assignment);
    if (klen >= sizeof key) klen = sizeof key - 1;
    memcpy(key, assignment, klen);
    key[klen] = 0;
    bool matched = false;
    for (int d = 1; d < RPS_DIMS; d++)
        if (rps_dim_is_event(d) && !strcmp(rps_dim_key(d), key)) matched = true;
    /* check the value (and that the key exists at all) against the configuration's own rules */
    uarch_config scratch;
    uarch_config_default(&scratch);
    cs_error e2;
    bool valid = uarch_config_set(&scratch, assignment, &e2);
    if (!matched) {
        if (!strcmp(key, "l3.latency")) {
            cs_error_set(err, "%s: the stacks carry no L3 event (an L3's latency is part of the base)", key);
            return false;
        }
        if (valid && !strncmp(key, "latency.", 8)) {
            cs_error_set(err,
                         "%s: not an event the stacks carry (RpStacks' events are the caches, memory and the "
                         "long-latency operations; this class's latency is part of the base)",
                         key);
            return false;
        }
        if (valid) {
            cs_error_set(err,
                         "%s is a structure, not a latency: it changes the dependence graph and needs its own "
                         "`cyclescope rpstacks` run (RpStacks §IV-D)",
                         key);
            return false;
        }
        cs_error_set(err, "%s: not an event the stacks carry (%s)", key, e2.msg);
        return false;
    }
    if (!valid) {
        cs_error_set(err, "%s", e2.msg);
        return false;
    }
    char *end;
    unsigned long v = strtoul(eq + 1, &end, 10);
    for (int d = 1; d < RPS_DIMS; d++)
        if (rps_dim_is_event(d) && !strcmp(rps_dim_key(d), key)) lat[d] = (uint32_t)v;
    return true;
}

/* ---- writing ---- */

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *x, size_t n) {
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n) cap *= 2;
        b->p = cs_realloc(b->p, cap);
        b->cap = cap;
    }
    memcpy(b->p + b->n, x, n);
    b->n += n;
}
static void put_u8(buf *b, uint8_t v) { put(b, &v, 1); }
static void put_u32(buf *b, uint32_t v) {
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, x, 4);
}
static void put_u64(buf *b, uint64_t v) {
    put_u32(b, (uint32_t)v);
    put_u32(b, (uint32_t)(v >> 32));
}
static void put_f64(buf *b, double v) {
    uint64_t u;
    memcpy(&u, &v, 8);
    put_u64(b, u);
}
static void put_str(buf *b, const char *s) {
    size_t n = strlen(s);
    put_u32(b, (uint32_t)n);
    put(b, s, n);
}

bool rps_write(const char *path, const rps_result *r, cs_error *err) {
    buf b = {0};
    put(&b, MAGIC, sizeof MAGIC);
    put_u32(&b, RPS_VERSION);
    put_u32(&b, RPS_DIMS);
    for (int d = 0; d < RPS_DIMS; d++) {
        put_str(&b, rps_dim_name(d));
        put_u32(&b, r->base_latency[d]);
    }
    put_u32(&b, r->opt.segment);
    put_f64(&b, r->opt.similarity);
    put_u8(&b, (uint8_t)r->opt.unique); /* 0 off, 1 by event, 2 by combination (versions 2-3 wrote 0/1) */
    put_u32(&b, r->opt.max_stacks);
    put_f64(&b, r->opt.max_scale); /* version 3 */
    put_u64(&b, r->instructions);
    put_u64(&b, r->uops);
    put_u64(&b, r->cycles);
    put_f64(&b, r->graph_cycles);
    put_u64(&b, r->violations);
    put_u64(&b, r->dropped_edges);
    put_u64(&b, r->capped_nodes);
    put_f64(&b, r->seconds);
    put_f64(&b, r->cpu_seconds);
    const rps_origin *o = &r->origin;
    put_str(&b, o->config);
    put_u32(&b, (uint32_t)o->set_count);
    for (int k = 0; k < o->set_count; k++) put_str(&b, o->sets[k]);
    put_u64(&b, o->warmup);
    put_u64(&b, o->max);
    put_u8(&b, o->is_trace);
    put_u32(&b, (uint32_t)o->argc);
    for (int k = 0; k < o->argc; k++) put_str(&b, o->argv[k]);
    put_u64(&b, o->seed); /* version 4: the guest options */
    put_u64(&b, o->guest_memory);
    put_u8(&b, o->host_time);
    put_u8(&b, o->strict_syscalls);
    put_str(&b, o->allow_write);
    put_u8(&b, o->stdin_known); /* version 5: what the program read of a file stdin */
    put_u64(&b, o->stdin_known ? o->stdin_bytes : 0);
    static const uint8_t none[CS_SHA256_BYTES];
    put(&b, o->stdin_known ? o->stdin_sha256 : none, CS_SHA256_BYTES);
    put_u32(&b, r->segments);
    put_u32(&b, r->stack_count);
    for (uint32_t k = 0; k <= r->segments; k++) put_u32(&b, r->seg_first[k]);
    for (size_t k = 0; k < (size_t)r->stack_count * RPS_DIMS; k++) put_f64(&b, r->stacks[k]);
    for (int d = 0; d < RPS_DIMS; d++) put_f64(&b, r->cp1[d]);
    for (int d = 0; d < RPS_DIMS; d++) put_f64(&b, r->fmt[d]);
    put_u32(&b, (uint32_t)crc32(0L, b.p, (uInt)b.n));
    bool ok = cs_write_file(path, b.p, b.n, err);
    free(b.p);
    return ok;
}

/* ---- reading: every count checked against what is left, every number against its range ---- */

typedef struct rd {
    const uint8_t *p;
    size_t n, at;
    bool bad;
} rd;

static const uint8_t *take(rd *r, size_t n) {
    if (r->bad || n > r->n - r->at) {
        r->bad = true;
        return NULL;
    }
    const uint8_t *x = r->p + r->at;
    r->at += n;
    return x;
}
static uint8_t get_u8(rd *r) {
    const uint8_t *x = take(r, 1);
    return x ? x[0] : 0;
}
static uint32_t get_u32(rd *r) {
    const uint8_t *x = take(r, 4);
    return x ? (uint32_t)x[0] | (uint32_t)x[1] << 8 | (uint32_t)x[2] << 16 | (uint32_t)x[3] << 24 : 0;
}
static uint64_t get_u64(rd *r) {
    uint64_t lo = get_u32(r);
    return lo | (uint64_t)get_u32(r) << 32;
}
static double get_f64(rd *r) {
    uint64_t u = get_u64(r);
    double v;
    memcpy(&v, &u, 8);
    if (!isfinite(v)) r->bad = true;
    return isfinite(v) ? v : 0;
}
/* A string into dst (size bytes, always terminated); false if too long or short data. */
static bool get_str(rd *r, char *dst, size_t size) {
    uint32_t n = get_u32(r);
    if (n >= size) {
        r->bad = true;
        return false;
    }
    const uint8_t *x = take(r, n);
    if (!x) return false;
    memcpy(dst, x, n);
    dst[n] = 0;
    if (strlen(dst) != n) r->bad = true; /* no NUL inside */
    return !r->bad;
}

bool rps_parse(const uint8_t *data, size_t size, rps_result *out, cs_error *err) {
    memset(out, 0, sizeof *out);
    if (size < sizeof MAGIC + 8 || memcmp(data, MAGIC, sizeof MAGIC) != 0) {
        cs_error_set(err, "not an .rps file (bad magic)");
        return false;
    }
    rd r = {data, size - 4, sizeof MAGIC, false};
    uint32_t version = get_u32(&r);
    /* 2: no design space (max_scale 0); 2, 3: no guest options (the defaults); 2-4: no stdin */
    if (version < 2 || version > RPS_VERSION) {
        cs_error_set(err, "unsupported .rps version %u (this build reads versions 2 to %u)", version, RPS_VERSION);
        return false;
    }
    const uint8_t *c = data + size - 4;
    uint32_t want = (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
    if ((uint32_t)crc32(0L, data, (uInt)(size - 4)) != want) {
        cs_error_set(err, "checksum mismatch: the file is damaged");
        return false;
    }
    if (get_u32(&r) != RPS_DIMS) {
        cs_error_set(err, "the file's events differ from this build's");
        return false;
    }
    char name[64];
    for (int d = 0; d < RPS_DIMS; d++) {
        if (!get_str(&r, name, sizeof name) || strcmp(name, rps_dim_name(d)) != 0) {
            cs_error_set(err, "the file's events differ from this build's (event %d)", d);
            return false;
        }
        out->base_latency[d] = get_u32(&r);
    }
    out->opt.segment = get_u32(&r);
    out->opt.similarity = get_f64(&r);
    uint8_t unique = get_u8(&r);
    out->opt.max_stacks = get_u32(&r);
    out->opt.max_scale = version >= 3 ? get_f64(&r) : 0;
    out->instructions = get_u64(&r);
    out->uops = get_u64(&r);
    out->cycles = get_u64(&r);
    out->graph_cycles = get_f64(&r);
    out->violations = get_u64(&r);
    out->dropped_edges = get_u64(&r);
    out->capped_nodes = get_u64(&r);
    out->seconds = get_f64(&r);
    out->cpu_seconds = get_f64(&r);
    rps_origin *o = &out->origin;
    get_str(&r, o->config, sizeof o->config);
    uint32_t sets = get_u32(&r);
    if (sets > RPS_MAX_SETS) r.bad = true;
    for (uint32_t k = 0; k < sets && !r.bad; k++) get_str(&r, o->sets[k], sizeof o->sets[k]);
    o->set_count = r.bad ? 0 : (int)sets;
    o->warmup = get_u64(&r);
    o->max = get_u64(&r);
    o->is_trace = get_u8(&r) != 0;
    uint32_t argc = get_u32(&r);
    if (argc > RPS_MAX_ARGS) r.bad = true;
    for (uint32_t k = 0; k < argc && !r.bad; k++) {
        char tmp[MAX_STRING];
        if (!get_str(&r, tmp, sizeof tmp)) break;
        o->argv[o->argc++] = cs_strdup(tmp);
    }
    if (version >= 4) {
        o->seed = get_u64(&r);
        o->guest_memory = get_u64(&r);
        uint8_t host_time = get_u8(&r), strict = get_u8(&r);
        /* the range `--guest-memory` takes (cli/guest.c): 16 MiB to the 47-bit user space */
        if (host_time > 1 || strict > 1 ||
            (o->guest_memory && (o->guest_memory < (16ull << 20) || o->guest_memory > (1ull << 47))))
            r.bad = true;
        o->host_time = host_time, o->strict_syscalls = strict;
        get_str(&r, o->allow_write, sizeof o->allow_write);
    }
    if (version >= 5) { /* before: stdin unknown */
        uint8_t known = get_u8(&r);
        o->stdin_bytes = get_u64(&r);
        const uint8_t *sha = take(&r, CS_SHA256_BYTES);
        if (sha) memcpy(o->stdin_sha256, sha, CS_SHA256_BYTES);
        /* a trace reads no stdin; an unknown stdin has no bytes */
        if (known > 1 || (known && o->is_trace) || (!known && o->stdin_bytes)) r.bad = true;
        o->stdin_known = known == 1;
    }
    uint32_t segs = get_u32(&r), nstacks = get_u32(&r);
    /* each segment offset is 4 bytes and each stack RPS_DIMS × 8: both must fit in what is left */
    if (!r.bad && ((uint64_t)segs + 1 > (r.n - r.at) / 4 || (uint64_t)nstacks * RPS_DIMS > (r.n - r.at) / 8))
        r.bad = true;
    if (!r.bad) {
        out->segments = segs;
        out->stack_count = nstacks;
        out->seg_first = cs_calloc((size_t)segs + 1, sizeof *out->seg_first);
        out->stacks = cs_calloc((size_t)nstacks * RPS_DIMS + 1, sizeof *out->stacks);
        for (uint32_t k = 0; k <= segs; k++) {
            out->seg_first[k] = get_u32(&r);
            if ((k == 0 && out->seg_first[0] != 0) || (k > 0 && out->seg_first[k] < out->seg_first[k - 1]))
                r.bad = true;
        }
        if (out->seg_first[segs] != nstacks) r.bad = true;
        for (size_t k = 0; k < (size_t)nstacks * RPS_DIMS && !r.bad; k++) out->stacks[k] = get_f64(&r);
        for (int d = 0; d < RPS_DIMS; d++) out->cp1[d] = get_f64(&r);
        for (int d = 0; d < RPS_DIMS; d++) out->fmt[d] = get_f64(&r);
    }
    if (!r.bad && r.at != r.n) r.bad = true; /* trailing bytes */
    if (!r.bad &&
        (out->opt.segment == 0 || !(out->opt.similarity >= 0 && out->opt.similarity <= 1) ||
         !rps_max_scale_ok(out->opt.max_scale)))
        r.bad = true;
    if (r.bad) {
        rps_result_free(out);
        cs_error_set(err, "malformed .rps file (a count or value out of range, or truncated)");
        return false;
    }
    if (!rps_unique_name((rps_unique)unique)) {
        rps_result_free(out);
        cs_error_set(err, "uniqueness byte %u: expected 0 (off), 1 (by event) or 2 (by combination)", unique);
        return false;
    }
    out->opt.unique = (rps_unique)unique;
    return true;
}

bool rps_read(const char *path, rps_result *out, cs_error *err) {
    uint8_t *data;
    size_t size;
    if (!cs_read_file(path, &data, &size, err)) return false;
    bool ok = rps_parse(data, size, out, err);
    if (!ok) cs_error_prefix(err, "%s", path);
    free(data);
    return ok;
}

/* ---- text ---- */

void rps_options_line(const rps_options *o, char *line, size_t size) {
    char space[64] = "no bound";
    if (o->max_scale > 0) snprintf(space, sizeof space, "latencies 0-%g× the baseline's", o->max_scale);
    snprintf(line, size, "segment %u, similarity %.2f, uniqueness %s, max %u stacks per node, design space %s",
             o->segment, o->similarity, rps_unique_name(o->unique), o->max_stacks, space);
}

void rps_text(const rps_result *r, FILE *out) {
    char options[256];
    rps_options_line(&r->opt, options, sizeof options);
    fprintf(out, "\nRpStacks (%s)\n", options);
    fprintf(out, "  µops %llu, instructions %llu, cycles %llu (CPI %.4f)\n", (unsigned long long)r->uops,
            (unsigned long long)r->instructions, (unsigned long long)r->cycles,
            r->instructions ? (double)r->cycles / r->instructions : 0);
    double err = r->cycles ? 100.0 * (r->graph_cycles - (double)r->cycles) / (double)r->cycles : 0;
    fprintf(out,
            "  graph longest path %.0f cycles (%+.3f%% vs simulated); %llu constraint violations, %llu constraints "
            "beyond the window\n",
            r->graph_cycles, err, (unsigned long long)r->violations, (unsigned long long)r->dropped_edges);
    if (r->drain_cycles && r->drain_in_graph)
        fprintf(out,
                "  of which %llu cycles after the last commit (stores draining): the stores' drain nodes, their "
                "fills (L2, memory) as events\n",
                (unsigned long long)r->drain_cycles);
    else if (r->drain_cycles)
        fprintf(out,
                "  of which %llu cycles after the last commit (stores draining): one last edge, the last store's "
                "fill (L2, memory) and base\n",
                (unsigned long long)r->drain_cycles);
    fprintf(out,
            "  %u segments, %u representative stacks (%.1f per segment), %llu capped nodes, analysis %.2f s "
            "(processor %.2f s)\n",
            r->segments, r->stack_count, r->segments ? (double)r->stack_count / r->segments : 0,
            (unsigned long long)r->capped_nodes, r->seconds, r->cpu_seconds);
    double big[RPS_DIMS];
    rps_largest_paths(r, 1, big);
    fprintf(out, "  %-16s %12s %8s %12s %8s %12s %8s\n", "event", "largest", "CPI", "CP1", "CPI", "FMT", "CPI");
    double n = r->instructions ? (double)r->instructions : 1;
    for (int d = 0; d < RPS_DIMS; d++) {
        if (fabs(big[d]) < 0.5 && fabs(r->cp1[d]) < 0.5 && fabs(r->fmt[d]) < 0.5) continue;
        fprintf(out, "  %-16s %12.0f %8.4f %12.0f %8.4f %12.0f %8.4f\n", rps_dim_name(d), big[d], big[d] / n, r->cp1[d],
                r->cp1[d] / n, r->fmt[d], r->fmt[d] / n);
    }
}
