/* The profile file (docs/statmodel.md, "The profile file"): little-endian,
 * magic "CSSTATMP", a version, the trace totals, the one-pipe and the
 * three-pipe flow graphs, and a CRC-32 of everything before it. Version 3
 * adds the §5.5 address bits (a count in the header, 16 bits per instruction
 * number); version 2 files are read as having none. Version 4 adds u32 flags
 * after the address bits (1: partial, the analysis was interrupted); version 5
 * the flag 2 (the program ran with --env-fixed's environment) and, after the flags,
 * the u64 count of the source's instructions the µops make up; version 6, after that
 * count, the u64 seed the program ran with (--seed; 0: the default); version 7, after the
 * seed, the SHA-256 of the executable or trace file (32 bytes; all zero: unknown); version 8
 * the flag 4 (stdin known) and, after that SHA-256, the u64 count of bytes the program read of
 * its stdin and their SHA-256 (32 bytes; both zero when stdin is unknown). The reader
 * checks the checksum first and then every count, index and invariant the
 * models rely on, so a damaged or forged file is refused, never modelled. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "model_internal.h"

static const char MAGIC[8] = {'C', 'S', 'S', 'T', 'A', 'T', 'M', 'P'};

typedef struct wbuf {
    uint8_t *b;
    size_t n, cap;
} wbuf;

static void put(wbuf *w, const void *p, size_t n) {
    SM_GROW(w->b, w->cap, w->n + n, 4096);
    memcpy(w->b + w->n, p, n);
    w->n += n;
}
static void put8(wbuf *w, uint8_t v) { put(w, &v, 1); }
static void put32(wbuf *w, uint32_t v) {
    uint8_t b[4];
    for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i));
    put(w, b, 4);
}
static void put64(wbuf *w, uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    put(w, b, 8);
}

static void put_instr(wbuf *w, const sm_instr *in) {
    put8(w, in->y);
    for (int k = 0; k < SM_PIPES; k++) put8(w, in->s[k]);
    for (int k = 0; k < SM_PIPES; k++) put8(w, in->v[k]);
    put8(w, (uint8_t)in->addr);
    put8(w, (uint8_t)(in->addr >> 8));
    put64(w, in->count);
    for (int k = 0; k < SM_PREDS; k++) put64(w, in->mispred[k]);
    put64(w, in->ilookups);
    for (int k = 0; k < SM_SD_BINS; k++) put64(w, in->ihist[k]);
    for (int k = 0; k < SM_SD_BINS; k++) put64(w, in->dhist[k]);
}

static void put_graph(wbuf *w, const sm_graph *g) {
    uint32_t ne = g->edge_start[g->nnode];
    put32(w, g->window);
    put32(w, g->offset);
    put32(w, g->ninstr);
    put32(w, g->nnode);
    put32(w, g->first);
    put32(w, ne);
    for (uint32_t i = 0; i < g->ninstr; i++) put_instr(w, &g->instr[i]);
    for (size_t i = 0; i < (size_t)g->nnode * g->window; i++) put32(w, g->node_instr[i]);
    for (uint32_t i = 0; i <= g->nnode; i++) put32(w, g->edge_start[i]);
    for (uint32_t i = 0; i < ne; i++) put32(w, g->edge_to[i]);
    for (uint32_t i = 0; i < ne; i++) put64(w, g->edge_count[i]);
}

bool sm_profile_save(const sm_profile *p, const char *path, cs_error *err) {
    wbuf w = {0};
    put(&w, MAGIC, 8);
    put32(&w, SM_FILE_VERSION);
    put64(&w, p->instructions);
    put32(&w, p->btb_entries);
    put32(&w, p->ras_entries);
    put32(&w, p->line);
    put32(&w, p->addr_bits);
    put32(&w,
          (p->partial ? SM_FLAG_PARTIAL : 0) | (p->env_fixed ? SM_FLAG_ENV_FIXED : 0) |
              (p->stdin_known ? SM_FLAG_STDIN_KNOWN : 0));
    put64(&w, p->source_instructions);
    put64(&w, p->seed);
    put(&w, p->source_sha256, sizeof p->source_sha256);
    put64(&w, p->stdin_known ? p->stdin_bytes : 0);
    static const uint8_t none[32] = {0};
    put(&w, p->stdin_known ? p->stdin_sha256 : none, sizeof p->stdin_sha256);
    put32(&w, p->source_kind);
    put(&w, p->source, sizeof p->source);
    for (int k = 0; k < SM_TYPES; k++) put64(&w, p->type_count[k]);
    for (int k = 0; k <= SM_SMAX; k++) put64(&w, p->dist_hist[k]);
    put64(&w, p->branches);
    for (int k = 0; k < SM_PREDS; k++) put64(&w, p->mispred[k]);
    put64(&w, p->ilookups);
    put64(&w, p->dacc);
    for (int k = 0; k < SM_SD_BINS; k++) put64(&w, p->ihist[k]);
    for (int k = 0; k < SM_SD_BINS; k++) put64(&w, p->dhist[k]);
    put_graph(&w, &p->one);
    put_graph(&w, &p->three);
    put32(&w, p->vp[0].nnode ? 1 : 0);
    if (p->vp[0].nnode)
        for (int k = 0; k < SM_VP_SIZES; k++) put_graph(&w, &p->vp[k]);
    put32(&w, (uint32_t)crc32(crc32(0L, Z_NULL, 0), w.b, (uInt)w.n));
    cs_output out;
    FILE *f = cs_output_open(&out, path, err);
    bool ok = f && fwrite(w.b, 1, w.n, f) == w.n;
    if (ok) ok = cs_output_commit(&out, err);
    else if (f) cs_error_set(err, "%s: cannot write", path);
    cs_output_discard(&out);
    free(w.b);
    return ok;
}

typedef struct rbuf {
    const uint8_t *b;
    size_t n, at;
    bool bad;
} rbuf;

static bool get(rbuf *r, void *p, size_t n) {
    if (r->bad || r->n - r->at < n) {
        r->bad = true;
        memset(p, 0, n);
        return false;
    }
    memcpy(p, r->b + r->at, n);
    r->at += n;
    return true;
}
static uint8_t get8(rbuf *r) {
    uint8_t v;
    get(r, &v, 1);
    return v;
}
static uint32_t get32(rbuf *r) {
    uint8_t b[4];
    get(r, b, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
static uint64_t get64(rbuf *r) {
    uint64_t lo = get32(r), hi = get32(r);
    return lo | hi << 32;
}

static bool get_graph(rbuf *r, sm_graph *g, bool one, bool vp, uint32_t version, uint32_t addr_bits, cs_error *err) {
    g->window = get32(r);
    g->offset = get32(r);
    g->ninstr = get32(r);
    g->nnode = get32(r);
    g->first = get32(r);
    uint32_t ne = get32(r);
    if (r->bad) goto trunc;
    if (g->window < 2 || g->window > 8 || g->offset + 2 > g->window) {
        cs_error_set(err, "flow graph window %u, offset %u out of range", g->window, g->offset);
        return false;
    }
    size_t left = r->n - r->at;
    /* every count is bounded by what the file can hold before anything is allocated */
    if (g->ninstr == 0 || g->nnode == 0 || ne < g->nnode || (uint64_t)g->ninstr * 190 > left ||
        (uint64_t)g->nnode * (4 * g->window + 4) > left || (uint64_t)ne * 12 > left || g->first >= g->nnode) {
        cs_error_set(err, "flow graph counts (%u instructions, %u nodes, %u edges) do not fit the file", g->ninstr,
                     g->nnode, ne);
        return false;
    }
    g->instr = cs_calloc(g->ninstr, sizeof *g->instr);
    for (uint32_t i = 0; i < g->ninstr; i++) {
        sm_instr *in = &g->instr[i];
        in->y = get8(r);
        for (int k = 0; k < SM_PIPES; k++) in->s[k] = get8(r);
        for (int k = 0; k < SM_PIPES; k++) in->v[k] = get8(r);
        if (version >= 3) {
            uint16_t lo = get8(r);
            in->addr = (uint16_t)(lo | get8(r) << 8);
        }
        in->count = get64(r);
        for (int k = 0; k < SM_PREDS; k++) in->mispred[k] = get64(r);
        in->ilookups = get64(r);
        uint64_t ih = 0, dh = 0;
        for (int k = 0; k < SM_SD_BINS; k++) ih += in->ihist[k] = get64(r);
        for (int k = 0; k < SM_SD_BINS; k++) dh += in->dhist[k] = get64(r);
        /* the one-pipe graph never carries address bits */
        bool bad = in->y >= (one ? 2 : SM_TYPES) || in->count == 0 || in->ilookups > in->count || ih != in->ilookups ||
            dh > in->count || (in->addr >> (one ? 0 : addr_bits)) != 0;
        for (int k = 0; k < SM_PIPES; k++) {
            uint8_t cap = one ? (k == 0 ? SM_SMAX : 0) : (k == SM_INT ? SM_SMAX_INT : SM_SMAX);
            if (in->s[k] > cap || in->v[k] > (vp ? SM_VP_WRONG : SM_VP_NONE)) bad = true;
        }
        for (int k = 0; k < SM_PREDS; k++)
            if (in->mispred[k] > in->count) bad = true;
        if (bad && !r->bad) {
            cs_error_set(err, "instruction number %u is inconsistent", i);
            return false;
        }
    }
    g->node_instr = cs_malloc(cs_array_size((size_t)g->nnode * g->window, sizeof *g->node_instr));
    for (size_t i = 0; i < (size_t)g->nnode * g->window; i++) {
        g->node_instr[i] = get32(r);
        if (g->node_instr[i] >= g->ninstr && !r->bad) {
            cs_error_set(err, "node %zu names instruction number %u of %u", i / g->window, g->node_instr[i], g->ninstr);
            return false;
        }
    }
    g->edge_start = cs_malloc(cs_array_size((size_t)g->nnode + 1, sizeof *g->edge_start));
    for (uint32_t i = 0; i <= g->nnode; i++) g->edge_start[i] = get32(r);
    g->edge_to = cs_malloc(cs_array_size(ne, sizeof *g->edge_to));
    g->edge_count = cs_malloc(cs_array_size(ne, sizeof *g->edge_count));
    for (uint32_t i = 0; i < ne; i++) g->edge_to[i] = get32(r);
    for (uint32_t i = 0; i < ne; i++) g->edge_count[i] = get64(r);
    if (r->bad) goto trunc;
    if (g->edge_start[0] != 0 || g->edge_start[g->nnode] != ne) {
        cs_error_set(err, "successor lists do not cover the %u edges", ne);
        return false;
    }
    for (uint32_t i = 0; i < g->nnode; i++) {
        if (g->edge_start[i + 1] <= g->edge_start[i]) {
            cs_error_set(err, "node %u has no successor", i);
            return false;
        }
        if (g->edge_start[i + 1] > ne) { /* found by fuzz_statmodel: a list past the last edge */
            cs_error_set(err, "node %u's successor list ends at edge %u of %u", i, g->edge_start[i + 1], ne);
            return false;
        }
        for (uint32_t e = g->edge_start[i]; e < g->edge_start[i + 1]; e++) {
            uint32_t to = g->edge_to[e];
            if (to >= g->nnode || g->edge_count[e] == 0 ||
                memcmp(g->node_instr + (size_t)to * g->window, g->node_instr + (size_t)i * g->window + 1,
                       (g->window - 1) * sizeof(uint32_t))) {
                cs_error_set(err, "edge %u -> %u is not a successor window", i, to);
                return false;
            }
        }
    }
    return true;
trunc:
    cs_error_set(err, "truncated");
    return false;
}

sm_profile *sm_profile_parse(const uint8_t *data, size_t size, cs_error *err) {
    if (size < 12 || memcmp(data, MAGIC, 8)) {
        cs_error_set(err, "not a cyclescope model profile (bad magic)");
        return NULL;
    }
    rbuf r = {data, size - 4, 8, false};
    uint32_t version = get32(&r);
    if (version < SM_FILE_VERSION_OLDEST || version > SM_FILE_VERSION) {
        cs_error_set(err, "profile version %u (this build reads versions %d to %d)", version, SM_FILE_VERSION_OLDEST,
                     SM_FILE_VERSION);
        return NULL;
    }
    uint32_t stored = (uint32_t)data[size - 4] | (uint32_t)data[size - 3] << 8 | (uint32_t)data[size - 2] << 16 |
        (uint32_t)data[size - 1] << 24;
    if ((uint32_t)crc32(crc32(0L, Z_NULL, 0), data, (uInt)(size - 4)) != stored) {
        cs_error_set(err, "checksum mismatch (the file is damaged)");
        return NULL;
    }
    sm_profile *p = cs_calloc(1, sizeof *p);
    p->instructions = get64(&r);
    p->btb_entries = get32(&r);
    p->ras_entries = get32(&r);
    p->line = get32(&r);
    p->addr_bits = version >= 3 ? get32(&r) : 0;
    uint32_t flags = version >= 4 ? get32(&r) : 0;
    uint32_t known = version >= 8 ? SM_FLAG_PARTIAL | SM_FLAG_ENV_FIXED | SM_FLAG_STDIN_KNOWN
        : version >= 5            ? SM_FLAG_PARTIAL | SM_FLAG_ENV_FIXED
                                  : SM_FLAG_PARTIAL;
    if (flags & ~known) {
        cs_error_set(err, "unknown flags 0x%x", flags);
        goto fail;
    }
    p->partial = flags & SM_FLAG_PARTIAL;
    p->env_fixed = flags & SM_FLAG_ENV_FIXED;
    p->stdin_known = flags & SM_FLAG_STDIN_KNOWN;
    p->source_instructions = version >= 5 ? get64(&r) : p->instructions; /* before: one µop, one instruction */
    if (!r.bad && (p->source_instructions > p->instructions || (p->instructions && !p->source_instructions))) {
        cs_error_set(err, "%llu instructions cannot make up %llu µops", (unsigned long long)p->source_instructions,
                     (unsigned long long)p->instructions);
        goto fail;
    }
    p->seed = version >= 6 ? get64(&r) : 0; /* before: the programs ran with the default seed, or unrecorded */
    if (version >= 7) get(&r, p->source_sha256, sizeof p->source_sha256); /* before: unknown (zero) */
    if (version >= 8) {                                                   /* before: stdin unknown */
        p->stdin_bytes = get64(&r);
        get(&r, p->stdin_sha256, sizeof p->stdin_sha256);
    }
    p->source_kind = get32(&r);
    get(&r, p->source, sizeof p->source);
    if (!r.bad &&
        (p->source_kind > SM_SOURCE_TRACE || !memchr(p->source, 0, sizeof p->source) ||
         (p->source_kind == SM_SOURCE_TRACE && (p->seed || p->stdin_known)) || /* a trace has no seed, no stdin */
         (!p->stdin_known && p->stdin_bytes))) {
        cs_error_set(err, "bad source description");
        goto fail;
    }
    for (int k = 0; k < SM_TYPES; k++) p->type_count[k] = get64(&r);
    for (int k = 0; k <= SM_SMAX; k++) p->dist_hist[k] = get64(&r);
    p->branches = get64(&r);
    for (int k = 0; k < SM_PREDS; k++) p->mispred[k] = get64(&r);
    p->ilookups = get64(&r);
    p->dacc = get64(&r);
    for (int k = 0; k < SM_SD_BINS; k++) p->ihist[k] = get64(&r);
    for (int k = 0; k < SM_SD_BINS; k++) p->dhist[k] = get64(&r);
    if (r.bad) {
        cs_error_set(err, "truncated");
        goto fail;
    }
    if (p->line != 16) {
        cs_error_set(err, "cache block of %u bytes (the models use 16)", p->line);
        goto fail;
    }
    if (p->addr_bits > SM_ADDR_BITS_MAX) {
        cs_error_set(err, "%u address bits (at most %d)", p->addr_bits, SM_ADDR_BITS_MAX);
        goto fail;
    }
    if (!get_graph(&r, &p->one, true, false, version, p->addr_bits, err)) {
        cs_error_prefix(err, "one-pipe graph");
        goto fail;
    }
    if (!get_graph(&r, &p->three, false, false, version, p->addr_bits, err)) {
        cs_error_prefix(err, "three-pipe graph");
        goto fail;
    }
    uint32_t has_vp = get32(&r);
    if (r.bad || has_vp > 1) {
        cs_error_set(err, r.bad ? "truncated" : "bad value-prediction flag");
        goto fail;
    }
    for (int k = 0; k < SM_VP_SIZES && has_vp; k++)
        if (!get_graph(&r, &p->vp[k], false, true, version, p->addr_bits, err)) {
            cs_error_prefix(err, "value-prediction graph %u", sm_vp_sizes[k]);
            goto fail;
        }
    if (r.at != r.n) {
        cs_error_set(err, "%zu bytes after the three-pipe graph", r.n - r.at);
        goto fail;
    }
    return p;
fail:
    sm_profile_free(p);
    return NULL;
}

sm_profile *sm_profile_load(const char *path, cs_error *err) {
    uint8_t *data;
    size_t size;
    if (!cs_read_file(path, &data, &size, err)) return NULL;
    sm_profile *p = sm_profile_parse(data, size, err);
    free(data);
    if (!p) cs_error_prefix(err, "%s", path);
    return p;
}
