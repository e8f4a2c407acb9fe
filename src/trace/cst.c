/* .cst trace files: writer, reader (a uop_source), and the frame codec.
 * docs/trace-format.md is the specification. Notes:
 *  - A frame is self-contained: the static table and the predictors restart
 *    empty, so a reader seeks by decoding one frame.
 *  - A frame's payload is four streams (tags, static, pc, address) so that
 *    each compresses on its own statistics.
 *  - Checksum: zlib's CRC-32 of each frame's compressed bytes (checked before
 *    decompression), of the header and of the index; zstd's own content
 *    checksum is also on.
 *  - The writer fills in the header counts and the index offset last, so a
 *    file whose writer did not finish is recognised and refused. */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "cst_internal.h"

/* ---- little-endian fields ------------------------------------------------------------- */

static inline void le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static inline void le32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void le64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static uint32_t crc(const uint8_t *p, size_t n) {
    uLong c = crc32(0L, Z_NULL, 0);
    while (n) {
        uInt chunk = n > (1u << 30) ? (1u << 30) : (uInt)n;
        c = crc32(c, p, chunk);
        p += chunk, n -= chunk;
    }
    return (uint32_t)c;
}

/* zigzag: signed deltas (mod 2^64) as small unsigned numbers */
static inline uint64_t zz(uint64_t d) { return (d << 1) ^ (0 - (d >> 63)); }
static inline uint64_t unzz(uint64_t z) { return (z >> 1) ^ (0 - (z & 1)); }
/* The same for 32-bit value deltas. */
static inline uint32_t zz32(uint32_t d) { return (d << 1) ^ (0 - (d >> 31)); }
static inline uint32_t unzz32(uint32_t z) { return (z >> 1) ^ (0 - (z & 1)); }

const char *cst_isa_name(unsigned isa) {
    switch (isa) {
    case CST_ISA_RV64GC: return "rv64gc";
    case CST_ISA_CHAMPSIM: return "champsim";
    default: return "unknown";
    }
}

/* ---- the static table ----------------------------------------------------------------- */

static inline uint32_t slot_of(uint64_t pc, uint32_t k, uint32_t mask) {
    uint64_t h = (pc ^ ((uint64_t)k << 56)) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h >> 40) & mask;
}

void cst_table_init(cst_table *t) {
    t->cap = 1024;
    t->count = 0;
    t->gen = 1;
    t->slots = cs_calloc(t->cap, sizeof *t->slots);
}

void cst_table_free(cst_table *t) {
    free(t->slots);
    t->slots = NULL;
}

void cst_table_reset(cst_table *t) {
    t->count = 0;
    if (++t->gen == 0) {
        memset(t->slots, 0, (size_t)t->cap * sizeof *t->slots);
        t->gen = 1;
    }
}

cst_static *cst_table_find(cst_table *t, uint64_t pc, uint32_t k) {
    uint32_t mask = t->cap - 1, i = slot_of(pc, k, mask);
    for (;;) {
        cst_static *s = &t->slots[i];
        if (s->gen != t->gen) return NULL;
        if (s->pc == pc && s->k == k) return s;
        i = (i + 1) & mask;
    }
}

static void table_grow(cst_table *t) {
    uint32_t cap = t->cap * 2, mask = cap - 1;
    cst_static *slots = cs_calloc(cap, sizeof *slots);
    for (uint32_t j = 0; j < t->cap; j++) {
        cst_static *s = &t->slots[j];
        if (s->gen != t->gen) continue;
        uint32_t i = slot_of(s->pc, s->k, mask);
        while (slots[i].gen == t->gen) i = (i + 1) & mask;
        slots[i] = *s;
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
}

cst_static *cst_table_get(cst_table *t, uint64_t pc, uint32_t k) {
    cst_static *s = cst_table_find(t, pc, k);
    if (s) return s;
    if (2 * (t->count + 1) > t->cap) table_grow(t);
    uint32_t mask = t->cap - 1, i = slot_of(pc, k, mask);
    while (t->slots[i].gen == t->gen) i = (i + 1) & mask;
    s = &t->slots[i];
    memset(s, 0, sizeof *s);
    s->pc = pc;
    s->k = k;
    s->gen = t->gen;
    t->count++;
    return s;
}

/* ---- growable byte streams (writer) --------------------------------------------------- */

typedef struct bytes {
    uint8_t *p;
    size_t len, cap;
} bytes;

static void bytes_reserve(bytes *b, size_t more) {
    if (b->len + more <= b->cap) return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more) cap *= 2;
    b->p = cs_realloc(b->p, cap);
    b->cap = cap;
}
static inline void put_u8(bytes *b, uint8_t v) { b->p[b->len++] = v; }
static inline void put_uvar(bytes *b, uint64_t v) {
    while (v >= 0x80) {
        b->p[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->p[b->len++] = (uint8_t)v;
}

/* ---- writer --------------------------------------------------------------------------- */

struct cst_writer {
    FILE *f;
    char *path;
    uint8_t *header;
    size_t header_size;
    cst_isa isa;
    uint32_t frame_uops;
    uint64_t uops, insns, first_pc;
    /* the frame being encoded */
    cst_table table;
    uint64_t prev_pc, prev_next, prev_addr;
    uint32_t prev_k, fuops, finsns;
    bool values; /* CST_FIELD_VALUES: keep results */
    bytes tags, stat, pcs, addrs, vals;
    /* output */
    ZSTD_CCtx *cctx;
    uint8_t *cbuf;
    size_t ccap;
    cst_frame_info *frames;
    uint32_t *frame_crc;
    uint32_t nframes, frames_cap;
    uint64_t offset;
    bool failed;
};

static bool static_same(const cst_static *s, const uop *u, uint8_t has_addr) {
    const uop *t = &s->tmpl;
    return t->encoding == u->encoding && t->op_class == u->op_class && t->src[0] == u->src[0] &&
        t->src[1] == u->src[1] && t->src[2] == u->src[2] && t->dst == u->dst && t->mem_size == u->mem_size &&
        t->fp_ops == u->fp_ops && s->has_addr == has_addr;
}

static void put_static(bytes *b, const cst_static *s) {
    const uop *t = &s->tmpl;
    uint8_t mask = (t->encoding ? CST_S_ENCODING : 0) | (t->src[0] ? CST_S_SRC0 : 0) | (t->src[1] ? CST_S_SRC1 : 0) |
        (t->src[2] ? CST_S_SRC2 : 0) | (t->dst ? CST_S_DST : 0) | (t->mem_size ? CST_S_MEM_SIZE : 0) |
        (t->fp_ops ? CST_S_FP_OPS : 0) | (s->has_addr ? CST_S_HAS_ADDR : 0);
    put_u8(b, t->op_class);
    put_u8(b, mask);
    if (t->encoding) put_uvar(b, t->encoding);
    for (int i = 0; i < 3; i++)
        if (t->src[i]) put_u8(b, t->src[i]);
    if (t->dst) put_u8(b, t->dst);
    if (t->mem_size) put_u8(b, t->mem_size);
    if (t->fp_ops) put_u8(b, t->fp_ops);
    put_u8(b, t->flags);
    put_u8(b, s->fall_len);
}

/* Encode one µop into the frame streams (the reader's decode, mirrored). */
static void encode_uop(cst_writer *w, const uop *u) {
    bytes_reserve(&w->tags, 1);
    bytes_reserve(&w->stat, 16);
    bytes_reserve(&w->pcs, 20);
    bytes_reserve(&w->addrs, 10);
    bytes_reserve(&w->vals, 5);
    const uint8_t taken = u->flags & UOP_TAKEN, cont = u->flags & UOP_CONTINUES;
    uint8_t tag = (taken ? CST_TAG_TAKEN : 0) | (cont ? CST_TAG_CONT : 0);
    uint32_t k = cont ? w->prev_k + 1 : 0;
    uint64_t expected = cont ? w->prev_pc : w->prev_next;
    if (u->pc != expected) {
        tag |= CST_TAG_PC;
        put_uvar(&w->pcs, zz(u->pc - expected));
    }
    uint8_t base = u->flags & (uint8_t) ~(UOP_TAKEN | UOP_CONTINUES);
    if (!w->values) base &= (uint8_t)~UOP_HAS_VALUE;
    uint8_t has_addr = (u->flags & (UOP_MEM_READ | UOP_MEM_WRITE)) || u->mem_addr;
    cst_static *s = cst_table_find(&w->table, u->pc, k);
    if (!s || !static_same(s, u, has_addr)) {
        if (!s) s = cst_table_get(&w->table, u->pc, k);
        s->tmpl = *u;
        s->tmpl.pc = s->tmpl.next_pc = s->tmpl.mem_addr = 0;
        s->tmpl.flags = base;
        s->has_addr = has_addr;
        uint64_t d = u->next_pc - u->pc;
        if (!taken && !cont && d >= 1 && d <= 255) s->fall_len = (uint8_t)d;
        else if (w->isa == CST_ISA_RV64GC && u->encoding) s->fall_len = (u->encoding & 3) == 3 ? 4 : 2;
        else s->fall_len = 0;
        s->last_addr = s->stride = s->last_target = 0;
        s->last_value = 0;
        tag |= CST_TAG_STATIC;
        put_static(&w->stat, s);
    }
    if (base != s->tmpl.flags) {
        tag |= CST_TAG_FLAGS;
        put_u8(&w->stat, base);
    }
    uint64_t predicted = cont ? w->prev_next : taken ? s->last_target : u->pc + s->fall_len;
    if (u->next_pc != predicted) {
        tag |= CST_TAG_NEXT;
        put_uvar(&w->pcs, zz(u->next_pc - predicted));
        uint64_t d = u->next_pc - u->pc;
        if (!taken && !cont && d >= 1 && d <= 255) s->fall_len = (uint8_t)d;
    }
    if (taken && !cont) s->last_target = u->next_pc;
    if (s->has_addr) {
        uint64_t a = u->mem_addr;
        if (a == s->last_addr + s->stride) {
            tag |= CST_TAG_ADDR_HIT;
        } else {
            uint64_t z_own = zz(a - s->last_addr), z_prev = zz(a - w->prev_addr);
            if (z_prev < z_own) {
                tag |= CST_TAG_ADDR_PREV;
                put_uvar(&w->addrs, z_prev);
            } else {
                put_uvar(&w->addrs, z_own);
            }
        }
        s->stride = a - s->last_addr;
        s->last_addr = a;
        w->prev_addr = a;
    }
    if (base & UOP_HAS_VALUE) { /* delta from this instruction's last result */
        put_uvar(&w->vals, zz32(u->value - s->last_value));
        s->last_value = u->value;
    }
    put_u8(&w->tags, tag);
    w->prev_pc = u->pc;
    w->prev_next = u->next_pc;
    w->prev_k = k;
    w->fuops++;
    if (!cont) w->finsns++;
}

static bool write_all(cst_writer *w, const void *p, size_t n, cs_error *err) {
    if (n && fwrite(p, 1, n, w->f) != n) {
        cs_error_set(err, "%s: write error at offset %llu: %s", w->path, (unsigned long long)w->offset,
                     strerror(errno));
        w->failed = true;
        return false;
    }
    w->offset += n;
    return true;
}

static bool zstd_feed(cst_writer *w, ZSTD_outBuffer *out, const void *p, size_t n, ZSTD_EndDirective mode,
                      cs_error *err) {
    ZSTD_inBuffer in = {p, n, 0};
    size_t r;
    do {
        r = ZSTD_compressStream2(w->cctx, out, &in, mode);
        if (ZSTD_isError(r)) {
            cs_error_set(err, "%s: zstd compression failed: %s", w->path, ZSTD_getErrorName(r));
            w->failed = true;
            return false;
        }
        if (out->pos == out->size && (in.pos < in.size || (mode == ZSTD_e_end && r))) {
            cs_error_set(err, "%s: zstd output larger than its bound", w->path);
            w->failed = true;
            return false;
        }
    } while (in.pos < in.size || (mode == ZSTD_e_end && r != 0));
    return true;
}

static bool flush_frame(cst_writer *w, cs_error *err) {
    if (!w->fuops) return true;
    uint8_t prefix[CST_PAYLOAD_PREFIX_VALUES];
    size_t prefix_size = w->values ? CST_PAYLOAD_PREFIX_VALUES : CST_PAYLOAD_PREFIX;
    le32(prefix, (uint32_t)w->stat.len);
    le32(prefix + 4, (uint32_t)w->pcs.len);
    le32(prefix + 8, (uint32_t)w->addrs.len);
    le32(prefix + 12, (uint32_t)w->vals.len);
    size_t raw = prefix_size + w->tags.len + w->stat.len + w->pcs.len + w->addrs.len + w->vals.len;
    size_t bound = ZSTD_compressBound(raw);
    if (bound > w->ccap) {
        free(w->cbuf);
        w->cbuf = cs_malloc(bound);
        w->ccap = bound;
    }
    ZSTD_CCtx_reset(w->cctx, ZSTD_reset_session_only);
    ZSTD_CCtx_setPledgedSrcSize(w->cctx, raw);
    ZSTD_outBuffer out = {w->cbuf, bound, 0};
    if (!zstd_feed(w, &out, prefix, prefix_size, ZSTD_e_continue, err) ||
        !zstd_feed(w, &out, w->tags.p, w->tags.len, ZSTD_e_continue, err) ||
        !zstd_feed(w, &out, w->stat.p, w->stat.len, ZSTD_e_continue, err) ||
        !zstd_feed(w, &out, w->pcs.p, w->pcs.len, ZSTD_e_continue, err) ||
        !zstd_feed(w, &out, w->addrs.p, w->addrs.len, ZSTD_e_continue, err) ||
        !zstd_feed(w, &out, w->vals.p, w->vals.len, ZSTD_e_end, err))
        return false;

    cst_frame_info fi = {.offset = w->offset,
                         .first_uop = w->uops - w->fuops,
                         .uops = w->fuops,
                         .insns = w->finsns,
                         .compressed_size = (uint32_t)out.pos,
                         .raw_size = (uint32_t)raw};
    uint32_t c = crc(w->cbuf, out.pos);
    uint8_t fh[CST_FRAME_HEADER];
    memcpy(fh, "CSTF", 4);
    le32(fh + 4, fi.uops);
    le64(fh + 8, fi.first_uop);
    le32(fh + 16, fi.compressed_size);
    le32(fh + 20, fi.raw_size);
    le32(fh + 24, c);
    le32(fh + 28, fi.insns);
    if (!write_all(w, fh, sizeof fh, err) || !write_all(w, w->cbuf, out.pos, err)) return false;
    if (w->nframes == w->frames_cap) {
        w->frames_cap = w->frames_cap ? 2 * w->frames_cap : 64;
        w->frames = cs_realloc(w->frames, w->frames_cap * sizeof *w->frames);
        w->frame_crc = cs_realloc(w->frame_crc, w->frames_cap * sizeof *w->frame_crc);
    }
    w->frame_crc[w->nframes] = c;
    w->frames[w->nframes++] = fi;
    cst_table_reset(&w->table);
    w->prev_pc = w->prev_next = w->prev_addr = 0;
    w->prev_k = 0;
    w->fuops = w->finsns = 0;
    w->tags.len = w->stat.len = w->pcs.len = w->addrs.len = w->vals.len = 0;
    return true;
}

/* Fill the fixed part of the header and its CRC. */
static void seal_header(cst_writer *w, uint64_t index_offset) {
    uint8_t *h = w->header;
    le64(h + 24, w->uops);
    le64(h + 32, w->insns);
    le64(h + 40, w->first_pc);
    le64(h + 56, index_offset);
    le32(h + 64, w->nframes);
    le32(h + w->header_size - 4, crc(h, w->header_size - 4));
}

cst_writer *cst_writer_create(const char *path, const cst_meta *meta, cs_error *err) {
    size_t strings = 0;
    for (int i = 0; i < meta->argc; i++) strings += 4 + strlen(meta->argv[i]);
    size_t hsize = CST_HEADER_FIXED + strings + 4;
    if (hsize > CST_HEADER_MAX) {
        cs_error_set(err, "%s: program arguments too long for a .cst header", path);
        return NULL;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        cs_error_set(err, "%s: cannot create: %s", path, strerror(errno));
        return NULL;
    }
    cst_writer *w = cs_calloc(1, sizeof *w);
    w->f = f;
    w->path = cs_strdup(path);
    w->isa = meta->isa;
    w->values = (meta->fields & CST_FIELD_VALUES) != 0;
    w->frame_uops = meta->frame_uops ? meta->frame_uops : CST_DEFAULT_FRAME_UOPS;
    if (w->frame_uops > CST_MAX_FRAME_UOPS) w->frame_uops = CST_MAX_FRAME_UOPS;
    cst_table_init(&w->table);
    w->cctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, meta->level ? meta->level : 9);
    ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_contentSizeFlag, 1);

    w->header_size = hsize;
    w->header = cs_calloc(1, hsize);
    uint8_t *h = w->header;
    memcpy(h, CST_MAGIC, CST_MAGIC_SIZE);
    le16(h + 8, CST_VERSION);
    le16(h + 10, (uint16_t)meta->isa);
    le32(h + 12, meta->fields ? meta->fields : CST_FIELDS_ALL);
    le32(h + 16, (uint32_t)hsize);
    le32(h + 20, w->frame_uops);
    le64(h + 48, meta->skipped);
    le32(h + 68, (uint32_t)meta->argc);
    uint8_t *p = h + CST_HEADER_FIXED;
    for (int i = 0; i < meta->argc; i++) {
        size_t n = strlen(meta->argv[i]);
        le32(p, (uint32_t)n);
        memcpy(p + 4, meta->argv[i], n);
        p += 4 + n;
    }
    seal_header(w, 0);
    if (!write_all(w, h, hsize, err)) {
        cst_writer_discard(w);
        return NULL;
    }
    return w;
}

bool cst_writer_write(cst_writer *w, const uop *u, size_t n, cs_error *err) {
    if (w->failed) {
        cs_error_set(err, "%s: writer already failed", w->path);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (u[i].op_class >= OPC_COUNT) {
            cs_error_set(err, "%s: µop %llu has op class %u, out of range", w->path, (unsigned long long)(w->uops),
                         u[i].op_class);
            w->failed = true;
            return false;
        }
        bool cont = u[i].flags & UOP_CONTINUES;
        if (w->fuops >= w->frame_uops && (!cont || w->fuops >= 2 * w->frame_uops) && !flush_frame(w, err)) return false;
        if (!w->uops) w->first_pc = u[i].pc;
        encode_uop(w, &u[i]);
        w->uops++;
        if (!cont) w->insns++;
    }
    return true;
}

uint64_t cst_writer_uops(const cst_writer *w) { return w->uops; }

static void writer_free(cst_writer *w) {
    if (w->f) fclose(w->f);
    free(w->path);
    free(w->header);
    cst_table_free(&w->table);
    free(w->tags.p);
    free(w->stat.p);
    free(w->pcs.p);
    free(w->addrs.p);
    free(w->vals.p);
    ZSTD_freeCCtx(w->cctx);
    free(w->cbuf);
    free(w->frames);
    free(w->frame_crc);
    free(w);
}

void cst_writer_discard(cst_writer *w) {
    if (!w) return;
    if (w->f) fclose(w->f);
    w->f = NULL;
    unlink(w->path);
    writer_free(w);
}

bool cst_writer_finish(cst_writer *w, cs_error *err) {
    if (w->failed) cs_error_set(err, "%s: an earlier write failed", w->path);
    if (w->failed || !flush_frame(w, err)) {
        cst_writer_discard(w);
        return false;
    }
    uint64_t index_offset = w->offset;
    size_t isize = 8 + (size_t)w->nframes * CST_INDEX_ENTRY + 4;
    uint8_t *ix = cs_calloc(1, isize);
    memcpy(ix, "CSTI", 4);
    le32(ix + 4, w->nframes);
    for (uint32_t i = 0; i < w->nframes; i++) {
        const cst_frame_info *fi = &w->frames[i];
        uint8_t *e = ix + 8 + (size_t)i * CST_INDEX_ENTRY;
        le64(e, fi->offset);
        le64(e + 8, fi->first_uop);
        le32(e + 16, fi->uops);
        le32(e + 20, fi->insns);
        le32(e + 24, fi->compressed_size);
        le32(e + 28, fi->raw_size);
        le32(e + 32, w->frame_crc[i]);
    }
    le32(ix + isize - 4, crc(ix, isize - 4));
    bool ok = write_all(w, ix, isize, err);
    free(ix);
    if (ok) {
        seal_header(w, index_offset);
        if (fseek(w->f, 0, SEEK_SET) != 0 || fwrite(w->header, 1, w->header_size, w->f) != w->header_size) {
            cs_error_set(err, "%s: cannot rewrite the header: %s", w->path, strerror(errno));
            ok = false;
        }
    }
    if (ok) {
        int rc = fclose(w->f);
        w->f = NULL;
        if (rc != 0) {
            cs_error_set(err, "%s: write error: %s", w->path, strerror(errno));
            ok = false;
        }
    }
    if (!ok) {
        cst_writer_discard(w);
        return false;
    }
    writer_free(w);
    return true;
}

/* ---- tee: the writer as a uop_source ------------------------------------------------- */

typedef struct cst_tee {
    uop_source base;
    uop_source *inner;
    cst_writer *w;
} cst_tee;

static long tee_read(uop_source *s, uop *buf, size_t max, cs_error *err) {
    cst_tee *t = (cst_tee *)s;
    long n = uop_source_read(t->inner, buf, max, err);
    if (n > 0 && !cst_writer_write(t->w, buf, (size_t)n, err)) return -1;
    return n;
}

static long long tee_fast_forward(uop_source *s, uint64_t n, cs_error *err) {
    return uop_source_skip(((cst_tee *)s)->inner, n, err);
}

static void tee_destroy(uop_source *s) { free(s); }

static const uop_source_ops tee_ops = {"cst-tee", tee_read, tee_fast_forward, tee_destroy};

uop_source *cst_tee_create(uop_source *inner, cst_writer *w) {
    cst_tee *t = cs_calloc(1, sizeof *t);
    t->base.ops = &tee_ops;
    t->inner = inner;
    t->w = w;
    return &t->base;
}

/* ---- decoder -------------------------------------------------------------------------- */

void cst_decoder_init(cst_decoder *d) {
    memset(d, 0, sizeof *d);
    cst_table_init(&d->table);
}

void cst_decoder_free(cst_decoder *d) { cst_table_free(&d->table); }

bool cst_decoder_start(cst_decoder *d, const uint8_t *payload, size_t size, uint32_t n, const char **why) {
    size_t prefix = d->values ? CST_PAYLOAD_PREFIX_VALUES : CST_PAYLOAD_PREFIX;
    if (size < prefix) {
        *why = "payload shorter than its stream lengths";
        return false;
    }
    uint64_t ls = rd32(payload), lp = rd32(payload + 4), la = rd32(payload + 8);
    uint64_t lv = d->values ? rd32(payload + 12) : 0;
    if ((uint64_t)prefix + n + ls + lp + la + lv != size) {
        *why = "stream lengths do not add up to the payload size";
        return false;
    }
    d->tags = payload + prefix;
    d->stat = d->tags + n;
    d->stat_end = d->stat + ls;
    d->pcs = d->stat_end;
    d->pcs_end = d->pcs + lp;
    d->addrs = d->pcs_end;
    d->addrs_end = d->addrs + la;
    d->vals = d->addrs_end;
    d->vals_end = d->vals + lv;
    d->n = n;
    d->i = 0;
    d->prev_pc = d->prev_next = d->prev_addr = 0;
    d->prev_k = 0;
    cst_table_reset(&d->table);
    return true;
}

bool cst_decoder_done(const cst_decoder *d, const char **why) {
    if (d->i != d->n) *why = "fewer records than the frame holds";
    else if (d->stat != d->stat_end) *why = "unused bytes in the static stream";
    else if (d->pcs != d->pcs_end) *why = "unused bytes in the pc stream";
    else if (d->addrs != d->addrs_end) *why = "unused bytes in the address stream";
    else if (d->vals != d->vals_end) *why = "unused bytes in the value stream";
    else return true;
    return false;
}

static inline bool get_uvar(const uint8_t **p, const uint8_t *end, uint64_t *out) {
    const uint8_t *q = *p;
    if (q < end && *q < 0x80) {
        *out = *q;
        *p = q + 1;
        return true;
    }
    uint64_t v = 0;
    for (unsigned sh = 0; sh < 64; sh += 7) {
        if (q >= end) return false;
        uint8_t b = *q++;
        if (sh == 63 && b > 1) return false;
        v |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80)) {
            *p = q;
            *out = v;
            return true;
        }
    }
    return false;
}

static bool get_static(cst_static *s, const uint8_t **p, const uint8_t *end, const char **why) {
    const uint8_t *q = *p;
    if (end - q < 2) goto short_stream;
    uint8_t cls = *q++, mask = *q++;
    if (cls >= OPC_COUNT) {
        *why = "operation class out of range";
        return false;
    }
    uop t = {0};
    t.op_class = cls;
    if (mask & CST_S_ENCODING) {
        uint64_t e;
        if (!get_uvar(&q, end, &e)) goto short_stream;
        if (e > UINT32_MAX) {
            *why = "encoding wider than 32 bits";
            return false;
        }
        t.encoding = (uint32_t)e;
    }
    int need = !!(mask & CST_S_SRC0) + !!(mask & CST_S_SRC1) + !!(mask & CST_S_SRC2) + !!(mask & CST_S_DST) +
        !!(mask & CST_S_MEM_SIZE) + !!(mask & CST_S_FP_OPS) + 2;
    if (end - q < need) goto short_stream;
    if (mask & CST_S_SRC0) t.src[0] = *q++;
    if (mask & CST_S_SRC1) t.src[1] = *q++;
    if (mask & CST_S_SRC2) t.src[2] = *q++;
    if (mask & CST_S_DST) t.dst = *q++;
    if (mask & CST_S_MEM_SIZE) t.mem_size = *q++;
    if (mask & CST_S_FP_OPS) t.fp_ops = *q++;
    t.flags = *q++;
    if (t.flags & (UOP_TAKEN | UOP_CONTINUES)) {
        *why = "static flags hold TAKEN or CONTINUES";
        return false;
    }
    s->tmpl = t;
    s->fall_len = *q++;
    s->has_addr = (mask & CST_S_HAS_ADDR) != 0;
    s->last_addr = s->stride = s->last_target = 0;
    s->last_value = 0;
    *p = q;
    return true;
short_stream:
    *why = "static stream ends inside a descriptor";
    return false;
}

long cst_decoder_run(cst_decoder *d, uop *out, size_t max, const char **why) {
    size_t want = d->n - d->i;
    if (want > max) want = max;
    const uint8_t *tags = d->tags + d->i;
    const uint8_t *sp = d->stat, *se = d->stat_end, *pp = d->pcs, *pe = d->pcs_end, *ap = d->addrs, *ae = d->addrs_end,
                  *vp = d->vals, *ve = d->vals_end;
    uint64_t P = d->prev_pc, N = d->prev_next, A = d->prev_addr;
    uint32_t pk = d->prev_k;
    size_t j;
    for (j = 0; j < want; j++) {
        const uint8_t tag = tags[j];
        const bool cont = tag & CST_TAG_CONT, taken = tag & CST_TAG_TAKEN;
        uint32_t k = cont ? pk + 1 : 0;
        uint64_t pc = cont ? P : N, z;
        if (tag & CST_TAG_PC) {
            if (!get_uvar(&pp, pe, &z)) goto bad_pc;
            pc += unzz(z);
        }
        cst_static *s;
        if (tag & CST_TAG_STATIC) {
            if (d->table.count >= d->n) {
                *why = "more static descriptors than records";
                goto fail;
            }
            s = cst_table_get(&d->table, pc, k);
            if (!get_static(s, &sp, se, why)) goto fail;
        } else {
            s = cst_table_find(&d->table, pc, k);
            if (!s) {
                *why = "record without a static descriptor for its pc";
                goto fail;
            }
        }
        uop *u = &out[j];
        *u = s->tmpl;
        u->pc = pc;
        uint8_t flags = s->tmpl.flags;
        if (tag & CST_TAG_FLAGS) {
            if (sp >= se) {
                *why = "static stream ends before a flags byte";
                goto fail;
            }
            flags = *sp++;
            if (flags & (UOP_TAKEN | UOP_CONTINUES)) {
                *why = "flags byte holds TAKEN or CONTINUES";
                goto fail;
            }
        }
        u->flags = flags | (taken ? UOP_TAKEN : 0) | (cont ? UOP_CONTINUES : 0);
        uint64_t next = cont ? N : taken ? s->last_target : pc + s->fall_len;
        if (tag & CST_TAG_NEXT) {
            if (!get_uvar(&pp, pe, &z)) goto bad_pc;
            next += unzz(z);
            uint64_t dist = next - pc;
            if (!taken && !cont && dist >= 1 && dist <= 255) s->fall_len = (uint8_t)dist;
        }
        if (taken && !cont) s->last_target = next;
        u->next_pc = next;
        if (s->has_addr) {
            uint64_t a;
            if (tag & CST_TAG_ADDR_HIT) {
                if (tag & CST_TAG_ADDR_PREV) goto bad_addr_tag;
                a = s->last_addr + s->stride;
            } else {
                if (!get_uvar(&ap, ae, &z)) {
                    *why = "address stream ends early";
                    goto fail;
                }
                a = ((tag & CST_TAG_ADDR_PREV) ? A : s->last_addr) + unzz(z);
            }
            s->stride = a - s->last_addr;
            s->last_addr = a;
            A = a;
            u->mem_addr = a;
        } else if (tag & (CST_TAG_ADDR_HIT | CST_TAG_ADDR_PREV)) {
            goto bad_addr_tag;
        }
        if (flags & UOP_HAS_VALUE) {
            if (!d->values) {
                *why = "a result in a trace recorded without results";
                goto fail;
            }
            if (!get_uvar(&vp, ve, &z) || z > UINT32_MAX) {
                *why = "value stream ends early or holds a delta wider than 32 bits";
                goto fail;
            }
            s->last_value += unzz32((uint32_t)z);
            u->value = s->last_value;
        }
        P = pc;
        N = next;
        pk = k;
    }
    d->i += (uint32_t)j;
    d->stat = sp;
    d->pcs = pp;
    d->addrs = ap;
    d->vals = vp;
    d->prev_pc = P;
    d->prev_next = N;
    d->prev_addr = A;
    d->prev_k = pk;
    return (long)j;
bad_pc:
    *why = "pc stream ends early";
    goto fail;
bad_addr_tag:
    *why = "address bits in the tag of a record without an address";
fail:
    d->i += (uint32_t)j; /* now the index of the record that failed */
    return -1;
}

/* ---- reader --------------------------------------------------------------------------- */

struct cst_reader {
    uop_source base;
    int fd;
    char *path;
    cst_info info;
    cst_frame_info *frames;
    uint32_t *frame_crc;
    long cur; /* loaded frame, -1 none */
    uint8_t *cbuf, *raw;
    size_t ccap, rcap;
    ZSTD_DCtx *dctx;
    cst_decoder dec;
    uint64_t pos;
    bool failed;
    cs_error failure;
};

static bool fail_at(cs_error *err, const char *path, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool fail_at(cs_error *err, const char *path, uint64_t offset, const char *fmt, ...) {
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    cs_error_set(err, "%s: %s at offset %llu", path, what, (unsigned long long)offset);
    return false;
}

static bool read_at(cst_reader *r, void *buf, size_t n, uint64_t off, cs_error *err) {
    size_t done = 0;
    while (done < n) {
        ssize_t k = pread(r->fd, (uint8_t *)buf + done, n - done, (off_t)(off + done));
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return fail_at(err, r->path, off + done, "read error: %s", strerror(errno));
        if (k == 0) return fail_at(err, r->path, off + done, "truncated file (unexpected end)");
        done += (size_t)k;
    }
    return true;
}

bool cst_probe(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char magic[CST_MAGIC_SIZE];
    bool is_cst = fread(magic, 1, sizeof magic, f) == sizeof magic && memcmp(magic, CST_MAGIC, sizeof magic) == 0;
    fclose(f);
    return is_cst;
}

static bool parse_header(cst_reader *r, cs_error *err) {
    const char *path = r->path;
    uint64_t size = r->info.file_size;
    uint8_t fixed[CST_HEADER_FIXED];
    size_t have = size < sizeof fixed ? (size_t)size : sizeof fixed;
    if (!read_at(r, fixed, have, 0, err)) return false;
    size_t m = have < CST_MAGIC_SIZE ? have : CST_MAGIC_SIZE;
    if (memcmp(fixed, CST_MAGIC, m) != 0 || size == 0)
        return fail_at(err, path, 0, "not a .cst trace (wrong magic number)");
    if (have < 10) return fail_at(err, path, size, "truncated header");
    unsigned version = rd16(fixed + 8);
    if (version != CST_VERSION)
        return fail_at(err, path, 8, "unsupported .cst format version %u (this cyclescope reads version %d)", version,
                       CST_VERSION);
    if (have < CST_HEADER_FIXED) return fail_at(err, path, size, "truncated header");
    uint32_t hsize = rd32(fixed + 16);
    if (hsize < CST_HEADER_FIXED + 4 || hsize > CST_HEADER_MAX)
        return fail_at(err, path, 16, "corrupt header: header size %u", hsize);
    if (hsize > size) return fail_at(err, path, size, "truncated header (%u bytes expected)", hsize);
    uint8_t *h = cs_malloc(hsize);
    if (!read_at(r, h, hsize, 0, err)) {
        free(h);
        return false;
    }
    uint32_t stored = rd32(h + hsize - 4), computed = crc(h, hsize - 4);
    if (stored != computed) {
        free(h);
        return fail_at(err, path, hsize - 4, "header checksum mismatch (stored %08x, computed %08x)", stored, computed);
    }
    cst_info *in = &r->info;
    in->version = version;
    in->isa = rd16(h + 10);
    in->fields = rd32(h + 12);
    if (in->fields & ~(uint32_t)CST_FIELDS_KNOWN) {
        free(h);
        return fail_at(err, path, 12, "unknown fields 0x%x in the header (a newer .cst writer?)",
                       in->fields & ~(uint32_t)CST_FIELDS_KNOWN);
    }
    r->dec.values = (in->fields & CST_FIELD_VALUES) != 0;
    in->header_size = hsize;
    in->frame_uops = rd32(h + 20);
    in->uops = rd64(h + 24);
    in->insns = rd64(h + 32);
    in->first_pc = rd64(h + 40);
    in->skipped = rd64(h + 48);
    uint64_t index_offset = rd64(h + 56);
    in->frames = rd32(h + 64);
    uint32_t argc = rd32(h + 68);
    const uint8_t *p = h + CST_HEADER_FIXED, *end = h + hsize - 4;
    if (argc > (uint32_t)(end - p) / 4) {
        free(h);
        return fail_at(err, path, 68, "corrupt header: %u arguments", argc);
    }
    in->argv = cs_calloc(argc + 1, sizeof *in->argv);
    in->argc = (int)argc;
    for (uint32_t i = 0; i < argc; i++) {
        uint32_t n = (uint32_t)(end - p) >= 4 ? rd32(p) : UINT32_MAX;
        if (n == UINT32_MAX || n > (uint32_t)(end - p) - 4) {
            uint64_t off = (uint64_t)(p - h);
            free(h);
            return fail_at(err, path, off, "corrupt header: argument %u overruns the header", i);
        }
        in->argv[i] = strndup((const char *)p + 4, n);
        p += 4 + n;
    }
    if (p != end) {
        uint64_t off = (uint64_t)(p - h);
        free(h);
        return fail_at(err, path, off, "corrupt header: unused bytes after the arguments");
    }
    free(h);
    if (index_offset == 0) return fail_at(err, path, 56, "incomplete trace: the writer did not finish (no index)");
    if (index_offset < hsize)
        return fail_at(err, path, 56, "corrupt header: index offset %llu", (unsigned long long)index_offset);
    uint64_t isize = 8 + (uint64_t)in->frames * CST_INDEX_ENTRY + 4;
    if (index_offset > size || isize > size - index_offset)
        return fail_at(err, path, size, "truncated file (the index at offset %llu needs %llu bytes)",
                       (unsigned long long)index_offset, (unsigned long long)isize);
    if (index_offset + isize != size)
        return fail_at(err, path, index_offset + isize, "unexpected %llu bytes after the index",
                       (unsigned long long)(size - index_offset - isize));

    uint8_t *ix = cs_malloc(isize);
    if (!read_at(r, ix, isize, index_offset, err)) {
        free(ix);
        return false;
    }
    stored = rd32(ix + isize - 4);
    computed = crc(ix, isize - 4);
    if (stored != computed || memcmp(ix, "CSTI", 4) != 0 || rd32(ix + 4) != in->frames) {
        free(ix);
        if (stored != computed)
            return fail_at(err, path, index_offset + isize - 4, "index checksum mismatch (stored %08x, computed %08x)",
                           stored, computed);
        return fail_at(err, path, index_offset, "corrupt index");
    }
    r->frames = cs_calloc(in->frames ? in->frames : 1, sizeof *r->frames);
    r->frame_crc = cs_calloc(in->frames ? in->frames : 1, sizeof *r->frame_crc);
    uint64_t off = hsize, first = 0, insns = 0;
    const uint64_t prefix = r->dec.values ? CST_PAYLOAD_PREFIX_VALUES : CST_PAYLOAD_PREFIX;
    for (uint32_t i = 0; i < in->frames; i++) {
        const uint8_t *e = ix + 8 + (size_t)i * CST_INDEX_ENTRY;
        cst_frame_info *fi = &r->frames[i];
        fi->offset = rd64(e);
        fi->first_uop = rd64(e + 8);
        fi->uops = rd32(e + 16);
        fi->insns = rd32(e + 20);
        fi->compressed_size = rd32(e + 24);
        fi->raw_size = rd32(e + 28);
        r->frame_crc[i] = rd32(e + 32);
        uint64_t eoff = index_offset + 8 + (uint64_t)i * CST_INDEX_ENTRY;
        const char *bad = NULL;
        if (fi->offset != off) bad = "offset does not follow the previous frame";
        else if (fi->first_uop != first) bad = "first µop does not follow the previous frame";
        else if (fi->uops == 0 || fi->uops > 2 * (uint32_t)CST_MAX_FRAME_UOPS) bad = "µop count out of range";
        else if (fi->insns > fi->uops) bad = "more instructions than µops";
        else if (fi->raw_size < prefix + (uint64_t)fi->uops ||
                 fi->raw_size > prefix + (uint64_t)fi->uops * CST_MAX_BYTES_PER_UOP)
            bad = "payload size out of range";
        else if (fi->compressed_size == 0 || fi->offset + CST_FRAME_HEADER + fi->compressed_size > index_offset)
            bad = "frame runs past the index";
        if (bad) {
            free(ix);
            return fail_at(err, path, eoff, "corrupt index entry for frame %u: %s", i, bad);
        }
        off = fi->offset + CST_FRAME_HEADER + fi->compressed_size;
        first += fi->uops;
        insns += fi->insns;
    }
    free(ix);
    if (off != index_offset)
        return fail_at(err, path, off, "corrupt index: %llu bytes between the last frame and the index",
                       (unsigned long long)(index_offset - off));
    if (first != in->uops || insns != in->insns)
        return fail_at(err, path, 24,
                       "corrupt header: counts (%llu µops, %llu instructions) disagree with the index "
                       "(%llu, %llu)",
                       (unsigned long long)in->uops, (unsigned long long)in->insns, (unsigned long long)first,
                       (unsigned long long)insns);
    return true;
}

static long cst_read(uop_source *s, uop *buf, size_t max, cs_error *err);
static long long cst_fast_forward(uop_source *s, uint64_t n, cs_error *err);
static void cst_destroy(uop_source *s) { cst_close((cst_reader *)s); }
static const uop_source_ops cst_ops = {"cst", cst_read, cst_fast_forward, cst_destroy};

cst_reader *cst_open(const char *path, cs_error *err) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        cs_error_set(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        cs_error_set(err, "%s: %s", path, S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
        close(fd);
        return NULL;
    }
    cst_reader *r = cs_calloc(1, sizeof *r);
    r->base.ops = &cst_ops;
    r->fd = fd;
    r->path = cs_strdup(path);
    r->info.file_size = (uint64_t)st.st_size;
    r->cur = -1;
    cst_decoder_init(&r->dec);
    if (!parse_header(r, err)) {
        cst_close(r);
        return NULL;
    }
    r->dctx = ZSTD_createDCtx();
    return r;
}

void cst_close(cst_reader *r) {
    if (!r) return;
    close(r->fd);
    free(r->path);
    if (r->info.argv)
        for (int i = 0; i < r->info.argc; i++) free(r->info.argv[i]);
    free(r->info.argv);
    free(r->frames);
    free(r->frame_crc);
    free(r->cbuf);
    free(r->raw);
    ZSTD_freeDCtx(r->dctx);
    cst_decoder_free(&r->dec);
    free(r);
}

const cst_info *cst_reader_info(const cst_reader *r) { return &r->info; }
const cst_frame_info *cst_reader_frame(const cst_reader *r, uint32_t i) {
    return i < r->info.frames ? &r->frames[i] : NULL;
}
uop_source *cst_reader_source(cst_reader *r) { return &r->base; }
uint64_t cst_reader_tell(const cst_reader *r) { return r->pos; }

static bool reader_fail(cst_reader *r, cs_error *err) {
    r->failed = true;
    r->failure = *err;
    return false;
}

static bool load_frame(cst_reader *r, uint32_t f, cs_error *err) {
    const cst_frame_info *fi = &r->frames[f];
    r->cur = -1;
    uint8_t fh[CST_FRAME_HEADER];
    if (!read_at(r, fh, sizeof fh, fi->offset, err)) return reader_fail(r, err);
    if (memcmp(fh, "CSTF", 4) != 0 || rd32(fh + 4) != fi->uops || rd64(fh + 8) != fi->first_uop ||
        rd32(fh + 16) != fi->compressed_size || rd32(fh + 20) != fi->raw_size || rd32(fh + 24) != r->frame_crc[f] ||
        rd32(fh + 28) != fi->insns) {
        fail_at(err, r->path, fi->offset, "frame %u: header does not match the index", f);
        return reader_fail(r, err);
    }
    if (fi->compressed_size > r->ccap) {
        free(r->cbuf);
        r->cbuf = cs_malloc(fi->compressed_size);
        r->ccap = fi->compressed_size;
    }
    uint64_t data = fi->offset + CST_FRAME_HEADER;
    if (!read_at(r, r->cbuf, fi->compressed_size, data, err)) return reader_fail(r, err);
    uint32_t c = crc(r->cbuf, fi->compressed_size);
    if (c != r->frame_crc[f]) {
        fail_at(err, r->path, fi->offset, "frame %u: checksum mismatch (stored %08x, computed %08x)", f,
                r->frame_crc[f], c);
        return reader_fail(r, err);
    }
    unsigned long long content = ZSTD_getFrameContentSize(r->cbuf, fi->compressed_size);
    if (content != fi->raw_size) {
        fail_at(err, r->path, data, "frame %u: corrupt compressed data (content size)", f);
        return reader_fail(r, err);
    }
    if (fi->raw_size > r->rcap) {
        free(r->raw);
        r->raw = cs_malloc(fi->raw_size);
        r->rcap = fi->raw_size;
    }
    ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
    ZSTD_inBuffer in = {r->cbuf, fi->compressed_size, 0};
    ZSTD_outBuffer out = {r->raw, fi->raw_size, 0};
    size_t z;
    do {
        z = ZSTD_decompressStream(r->dctx, &out, &in);
    } while (!ZSTD_isError(z) && z != 0 && in.pos < in.size && out.pos < out.size);
    if (ZSTD_isError(z) || z != 0 || in.pos != in.size || out.pos != out.size) {
        fail_at(err, r->path, data, "frame %u: corrupt compressed data (%s)", f,
                ZSTD_isError(z) ? ZSTD_getErrorName(z) : "size mismatch");
        return reader_fail(r, err);
    }
    const char *why = NULL;
    if (!cst_decoder_start(&r->dec, r->raw, fi->raw_size, fi->uops, &why)) {
        fail_at(err, r->path, fi->offset, "frame %u: corrupt payload: %s", f, why);
        return reader_fail(r, err);
    }
    uint32_t insns = 0;
    for (uint32_t i = 0; i < fi->uops; i++) insns += !(r->dec.tags[i] & CST_TAG_CONT);
    if (insns != fi->insns) {
        fail_at(err, r->path, fi->offset, "frame %u: corrupt payload: instruction count differs from the index", f);
        return reader_fail(r, err);
    }
    r->cur = f;
    return true;
}

/* The frame holding µop n (n < uops). */
static uint32_t frame_of(const cst_reader *r, uint64_t n) {
    uint32_t lo = 0, hi = r->info.frames - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (r->frames[mid].first_uop <= n) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

static long decode_some(cst_reader *r, uop *buf, size_t max, cs_error *err) {
    const char *why = NULL;
    long n = cst_decoder_run(&r->dec, buf, max, &why);
    if (n < 0) {
        const cst_frame_info *fi = &r->frames[r->cur];
        fail_at(err, r->path, fi->offset, "frame %ld: corrupt record %u (µop %llu): %s", r->cur, r->dec.i,
                (unsigned long long)(fi->first_uop + r->dec.i), why);
        reader_fail(r, err);
        return -1;
    }
    if (r->dec.i == r->dec.n && !cst_decoder_done(&r->dec, &why)) {
        fail_at(err, r->path, r->frames[r->cur].offset, "frame %ld: corrupt payload: %s", r->cur, why);
        reader_fail(r, err);
        return -1;
    }
    r->pos += (uint64_t)n;
    return n;
}

static long cst_read(uop_source *s, uop *buf, size_t max, cs_error *err) {
    cst_reader *r = (cst_reader *)s;
    if (r->failed) {
        *err = r->failure;
        return -1;
    }
    size_t total = 0;
    while (total < max && r->pos < r->info.uops) {
        if (r->cur < 0 || r->dec.i == r->dec.n) {
            uint32_t f = r->cur < 0 ? frame_of(r, r->pos) : (uint32_t)r->cur + 1;
            if (!load_frame(r, f, err)) return -1;
        }
        long n = decode_some(r, buf + total, max - total, err);
        if (n < 0) return -1;
        total += (size_t)n;
    }
    return (long)total;
}

bool cst_reader_seek(cst_reader *r, uint64_t n, cs_error *err) {
    if (r->failed) {
        *err = r->failure;
        return false;
    }
    if (n > r->info.uops) {
        cs_error_set(err, "%s: cannot seek to µop %llu: the trace has %llu", r->path, (unsigned long long)n,
                     (unsigned long long)r->info.uops);
        return false;
    }
    if (n == r->info.uops) {
        r->pos = n;
        r->cur = -1;
        return true;
    }
    uint32_t f = frame_of(r, n);
    const cst_frame_info *fi = &r->frames[f];
    if (r->cur != (long)f || fi->first_uop + r->dec.i > n) {
        if (!load_frame(r, f, err)) return false;
    }
    r->pos = fi->first_uop + r->dec.i;
    uop scratch[256];
    while (r->pos < n) {
        uint64_t want = n - r->pos < 256 ? n - r->pos : 256;
        if (decode_some(r, scratch, (size_t)want, err) < 0) return false;
    }
    return true;
}

static long long cst_fast_forward(uop_source *s, uint64_t n, cs_error *err) {
    cst_reader *r = (cst_reader *)s;
    uint64_t left = r->info.uops - r->pos;
    if (n > left) n = left;
    if (!cst_reader_seek(r, r->pos + n, err)) return -1;
    return (long long)n;
}
