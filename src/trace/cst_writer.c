/* .cst trace files: the writer, and the writer as a uop_source (tee).
 * docs/trace-format.md is the specification. Notes:
 *  - Checksum: zlib's CRC-32 of each frame's compressed bytes, of the header
 *    and of the index; zstd's own content checksum is also on.
 *  - The writer fills in the header counts and the index offset last, so a
 *    file whose writer did not finish is recognised and refused. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "cst_internal.h"

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
    cs_output out; /* a temporary file, renamed over the target by cst_writer_finish */
    FILE *f;       /* out.f */
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
    cs_output out;
    FILE *f = cs_output_open(&out, path, err);
    if (!f) return NULL;
    cst_writer *w = cs_calloc(1, sizeof *w);
    w->out = out;
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
    cs_output_discard(&w->out); /* nothing left when finished */
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
    writer_free(w); /* removes the temporary file: an earlier output stays as it was */
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
        w->f = NULL;
        ok = cs_output_commit(&w->out, err);
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
