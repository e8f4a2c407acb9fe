/* .cst trace files: the reader, a uop_source that seeks by frame. Every
 * checksum is checked before the bytes it covers are used (the frame's
 * compressed bytes before decompression); errors name the file and the
 * offset. docs/trace-format.md is the specification. */
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
    FILE *f = cs_fopen_input(path, NULL); /* never wait on a FIFO or read a device */
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
    int fd = cs_open_input(path, err);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        cs_error_set(err, "%s: cannot read: %s", path, strerror(errno));
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
