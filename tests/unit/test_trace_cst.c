/* The .cst writer and reader: every field of arbitrary µop streams survives
 * exactly (also across frame boundaries and instruction groups), seeking and
 * fast-forward land on the right µop, the header carries its metadata, the
 * encoding of a small stream is byte for byte the worked example of
 * docs/trace-format.md, and bad files — wrong magic, unknown version, every
 * truncation, every single-byte corruption, an unfinished file — are refused
 * with an error naming the file and the offset, never read as a shorter or
 * different stream. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <zlib.h>
#include <zstd.h>

#include "emu/emu.h"
#include "test_trace_util.h"
#include "trace/cst_internal.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A stream that exercises every field and every branch of the encoder: loops
 * with strided addresses, random jumps and next pcs, instruction groups, flags
 * with unknown bits, unpacked registers, addresses without memory flags. */
static uop *random_stream(size_t n) {
    uop *u = calloc(n, sizeof *u);
    uint64_t pc = 0x10000;
    uint64_t base = 0x7fff0000;
    for (size_t i = 0; i < n; i++) {
        uop *x = &u[i];
        uint64_t r = rnd();
        bool cont = i > 0 && (r & 15) == 0;
        x->pc = cont ? u[i - 1].pc : pc;
        uint64_t slot = (x->pc >> 2) & 63; /* static properties follow the pc, mostly */
        x->op_class = (uint8_t)(slot % OPC_COUNT);
        x->encoding = (r >> 8 & 7) == 0 ? 0 : (uint32_t)(slot * 0x01010101u) | 3;
        x->src[0] = (uint8_t)slot;
        x->src[1] = (r >> 12 & 3) ? (uint8_t)(slot * 3) : 0;
        x->src[2] = (r >> 14 & 7) == 0 ? 255 : 0; /* sometimes a hole before it */
        x->dst = (uint8_t)(slot * 7);
        x->fp_ops = (uint8_t)(slot & 3);
        x->mem_size = slot & 1 ? 8 : 0;
        if (slot & 1) {
            x->flags = (slot & 2) ? UOP_MEM_READ : UOP_MEM_WRITE;
            x->mem_addr = (r >> 20 & 3) ? base + 8 * (i % 97) : rnd();
        } else if ((r >> 22 & 31) == 0) {
            x->mem_addr = rnd(); /* an address without a memory flag (a failed sc) */
        }
        if ((r >> 27 & 15) == 0) x->flags |= 0x40; /* a bit no one defines */
        if (cont) x->flags |= UOP_CONTINUES;
        uint64_t next = x->pc + 4;
        if ((r >> 32 & 7) == 0) {
            x->flags |= UOP_TAKEN;
            next = 0x10000 + 4 * (rnd() % 512);
        } else if ((r >> 35 & 63) == 0) {
            next = rnd(); /* anything at all */
        }
        x->next_pc = cont ? u[i - 1].next_pc : next;
        if ((r >> 41 & 127) == 0) x->next_pc = rnd();
        pc = ((r >> 48 & 127) == 0) ? rnd() : x->next_pc;
        if ((r >> 55 & 255) == 0) x->pc += 0x1000; /* pc != previous next_pc */
    }
    return u;
}

static void write_file(const char *path, const uop *u, size_t n, uint32_t frame_uops, cst_isa isa) {
    const char *argv[] = {"prog", "arg one", ""};
    cst_meta meta = {.isa = isa, .argc = 3, .argv = argv, .skipped = 12345, .frame_uops = frame_uops};
    cs_error err;
    cst_writer *w = cst_writer_create(path, &meta, &err);
    if (!w) fail_msg("%s", err.msg);
    /* in uneven pieces */
    for (size_t i = 0; i < n;) {
        size_t k = 1 + rnd() % 700;
        if (k > n - i) k = n - i;
        if (!cst_writer_write(w, u + i, k, &err)) fail_msg("%s", err.msg);
        i += k;
    }
    assert_int_equal(cst_writer_uops(w), n);
    if (!cst_writer_finish(w, &err)) fail_msg("%s", err.msg);
}

static void expect_same(const uop *want, const uop *got, size_t n, size_t first) {
    char msg[600];
    for (size_t i = 0; i < n; i++)
        if (uop_diff(&want[i], &got[i], msg, sizeof msg)) fail_msg("µop %zu:\n%s", first + i, msg);
}

static void read_all(cst_reader *r, uop *out, size_t n, size_t chunk) {
    cs_error err;
    size_t got = 0;
    for (;;) {
        long k = uop_source_read(cst_reader_source(r), out + got, got + chunk <= n ? chunk : n - got + 1, &err);
        if (k < 0) fail_msg("%s", err.msg);
        if (k == 0) break;
        got += (size_t)k;
        assert_true(got <= n);
    }
    assert_int_equal(got, n);
}

static void test_roundtrip_every_field(void **state) {
    (void)state;
    enum { N = 60000 };
    uop *u = random_stream(N), *back = calloc(N + 1, sizeof *back);
    char path[256];
    tmp_path(path, sizeof path, "rt.cst");
    uint32_t frames[] = {1, 7, 1000, 0};
    for (unsigned f = 0; f < sizeof frames / sizeof frames[0]; f++) {
        write_file(path, u, N, frames[f], CST_ISA_UNKNOWN);
        cs_error err;
        cst_reader *r = cst_open(path, &err);
        if (!r) fail_msg("%s", err.msg);
        const cst_info *in = cst_reader_info(r);
        uint64_t insns = 0;
        for (size_t i = 0; i < N; i++) insns += !(u[i].flags & UOP_CONTINUES);
        assert_int_equal(in->uops, N);
        assert_int_equal(in->insns, insns);
        assert_int_equal(in->first_pc, u[0].pc);
        if (frames[f] == 1000) assert_in_range(in->frames, N / 1000, N / 1000 + 1);
        /* frames end between instructions (unless a group outgrows two frames) */
        for (uint32_t i = 1; i < in->frames; i++) {
            const cst_frame_info *fi = cst_reader_frame(r, i);
            if (frames[f] > 1) assert_false(u[fi->first_uop].flags & UOP_CONTINUES);
        }
        read_all(r, back, N, 1 + f * 1000);
        expect_same(u, back, N, 0);
        cst_close(r);
    }
    unlink(path);
    free(u);
    free(back);
}

static void test_header_metadata(void **state) {
    (void)state;
    uop u[3] = {
        {.pc = 0x1000, .next_pc = 0x1004}, {.pc = 0x1004, .next_pc = 0x1008}, {.pc = 0x1008, .next_pc = 0x100c}};
    u[1].flags = UOP_CONTINUES;
    char path[256];
    tmp_path(path, sizeof path, "meta.cst");
    write_file(path, u, 3, 0, CST_ISA_RV64GC);
    cs_error err;
    cst_reader *r = cst_open(path, &err);
    if (!r) fail_msg("%s", err.msg);
    const cst_info *in = cst_reader_info(r);
    assert_int_equal(in->version, CST_VERSION);
    assert_int_equal(in->isa, CST_ISA_RV64GC);
    assert_int_equal(in->fields, CST_FIELDS_ALL);
    assert_int_equal(in->skipped, 12345);
    assert_int_equal(in->uops, 3);
    assert_int_equal(in->insns, 2);
    assert_int_equal(in->first_pc, 0x1000);
    assert_int_equal(in->argc, 3);
    assert_string_equal(in->argv[0], "prog");
    assert_string_equal(in->argv[1], "arg one");
    assert_string_equal(in->argv[2], "");
    assert_int_equal(in->frames, 1);
    cst_close(r);
    unlink(path);
}

static void test_empty(void **state) {
    (void)state;
    char path[256];
    tmp_path(path, sizeof path, "empty.cst");
    write_file(path, NULL, 0, 0, CST_ISA_RV64GC);
    cs_error err;
    cst_reader *r = cst_open(path, &err);
    if (!r) fail_msg("%s", err.msg);
    assert_int_equal(cst_reader_info(r)->uops, 0);
    assert_int_equal(cst_reader_info(r)->frames, 0);
    uop u;
    assert_int_equal(uop_source_read(cst_reader_source(r), &u, 1, &err), 0);
    assert_true(cst_reader_seek(r, 0, &err));
    assert_false(cst_reader_seek(r, 1, &err));
    cst_close(r);
    unlink(path);
}

static void test_seek_and_fast_forward(void **state) {
    (void)state;
    enum { N = 20000 };
    uop *u = random_stream(N), got[64];
    char path[256];
    tmp_path(path, sizeof path, "seek.cst");
    write_file(path, u, N, 997, CST_ISA_UNKNOWN);
    cs_error err;
    cst_reader *r = cst_open(path, &err);
    if (!r) fail_msg("%s", err.msg);
    uint64_t targets[] = {0, 1, 996, 997, 998, 5000, 19999, 3, 12000, 11999, 20000 - 64, 0};
    for (unsigned t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        uint64_t n = targets[t];
        if (!cst_reader_seek(r, n, &err)) fail_msg("%s", err.msg);
        assert_int_equal(cst_reader_tell(r), n);
        long k = uop_source_read(cst_reader_source(r), got, 64, &err);
        assert_int_equal(k, n + 64 <= N ? 64 : N - n);
        expect_same(u + n, got, (size_t)k, (size_t)n);
    }
    assert_true(cst_reader_seek(r, N, &err));
    assert_int_equal(uop_source_read(cst_reader_source(r), got, 64, &err), 0);
    assert_false(cst_reader_seek(r, N + 1, &err));
    assert_non_null(strstr(err.msg, "seek"));

    /* the uop_source fast-forward */
    assert_true(cst_reader_seek(r, 0, &err));
    assert_int_equal(uop_source_skip(cst_reader_source(r), 4321, &err), 4321);
    assert_int_equal(uop_source_read(cst_reader_source(r), got, 8, &err), 8);
    expect_same(u + 4321, got, 8, 4321);
    assert_int_equal(uop_source_skip(cst_reader_source(r), N, &err), N - 4329);
    assert_int_equal(uop_source_read(cst_reader_source(r), got, 8, &err), 0);
    uop_source_destroy(cst_reader_source(r));
    unlink(path);
    free(u);
}

/* The worked example of docs/trace-format.md ("A worked example"): three µops,
 * the payload bytes are exactly these. */
static void test_worked_example(void **state) {
    (void)state;
    uop u[3] = {0};
    /* 0x10000: addi a0,a0,1 */
    u[0] = (uop){
        .pc = 0x10000, .next_pc = 0x10004, .encoding = 0x00150513, .op_class = OPC_INT_ALU, .src = {10}, .dst = 10};
    /* 0x10004: ld a1,0(a2) reading 0x20000 */
    u[1] = (uop){.pc = 0x10004,
                 .next_pc = 0x10008,
                 .mem_addr = 0x20000,
                 .encoding = 0x00063583,
                 .op_class = OPC_LOAD,
                 .src = {12},
                 .dst = 11,
                 .mem_size = 8,
                 .flags = UOP_MEM_READ};
    /* 0x10008: bne a0,a1,0x10000, taken */
    u[2] = (uop){.pc = 0x10008,
                 .next_pc = 0x10000,
                 .encoding = 0xfeb51ce3,
                 .op_class = OPC_BRANCH,
                 .src = {10, 11},
                 .flags = UOP_TAKEN};
    uop v[9];
    for (int i = 0; i < 9; i++) {
        v[i] = u[i % 3];
        if (i % 3 == 1) v[i].mem_addr = 0x20000 + 8 * (uint64_t)(i / 3);
    }
    v[8].flags = 0; /* the last branch falls through */
    v[8].next_pc = 0x1000c;
    char path[256];
    tmp_path(path, sizeof path, "example.cst");
    const char *argv[] = {"ex"};
    cst_meta meta = {.isa = CST_ISA_RV64GC, .argc = 1, .argv = argv};
    cs_error err;
    cst_writer *w = cst_writer_create(path, &meta, &err);
    assert_true(cst_writer_write(w, v, 9, &err));
    assert_true(cst_writer_finish(w, &err));

    uint8_t *data;
    size_t size;
    assert_true(cs_read_file(path, &data, &size, &err));
    /* header: 72 fixed bytes + "ex" (4 + 2) + CRC = 82 */
    assert_memory_equal(data,
                        "\x89"
                        "CST\r\n\x1a\n",
                        8);
    assert_int_equal(data[16], 82);
    const uint8_t *fh = data + 82;
    assert_memory_equal(fh, "CSTF", 4);
    uint32_t csize = fh[16] | fh[17] << 8 | fh[18] << 16 | (uint32_t)fh[19] << 24;
    uint8_t raw[256];
    size_t rn = ZSTD_decompress(raw, sizeof raw, fh + 32, csize);
    assert_false(ZSTD_isError(rn));
    static const uint8_t expect[] = {
        /* stream lengths: static 30, pc 6, address 4 */
        0x1e,
        0,
        0,
        0,
        0x06,
        0,
        0,
        0,
        0x04,
        0,
        0,
        0,
        /* tags: STATIC|PC, STATIC, TAKEN|STATIC|NEXT, -, -, TAKEN, -, ADDR_HIT, - */
        0x06,
        0x02,
        0x0b,
        0x00,
        0x00,
        0x01,
        0x00,
        0x20,
        0x00,
        /* static stream: addi (class 0, mask ENC|SRC0|DST, LEB128 0x150513, a0, a0, flags 0, fall 4) */
        0x00,
        0x13,
        0x93,
        0x8a,
        0x54,
        0x0a,
        0x0a,
        0x00,
        0x04,
        /* ld (class 3, mask ENC|SRC0|DST|MEM_SIZE|HAS_ADDR, 0x63583, a2, a1, 8, flags READ, fall 4) */
        0x03,
        0xb3,
        0x83,
        0xeb,
        0x18,
        0x0c,
        0x0b,
        0x08,
        0x02,
        0x04,
        /* bne (class 6, mask ENC|SRC0|SRC1, 0xfeb51ce3, a0, a1, flags 0, fall 4) */
        0x06,
        0x07,
        0xe3,
        0xb9,
        0xd4,
        0xf5,
        0x0f,
        0x0a,
        0x0b,
        0x00,
        0x04,
        /* pc stream: first pc, zigzag(0x10000 - 0); first taken bne: zigzag(0x10000 - 0) */
        0x80,
        0x80,
        0x08,
        0x80,
        0x80,
        0x08,
        /* address stream: first ld, zigzag(0x20000 - 0); second ld, zigzag(8) */
        0x80,
        0x80,
        0x10,
        0x10,
    };
    assert_int_equal(rn, sizeof expect);
    assert_memory_equal(raw, expect, sizeof expect);
    free(data);

    cst_reader *r = cst_open(path, &err);
    uop back[9];
    read_all(r, back, 9, 9);
    expect_same(v, back, 9, 0);
    cst_close(r);
    unlink(path);
}

/* ---- bad files ------------------------------------------------------------------------ */

static uint8_t *small_file(size_t *size, uint32_t frame_uops) {
    enum { N = 300 };
    uop *u = random_stream(N);
    char path[256];
    tmp_path(path, sizeof path, "small.cst");
    write_file(path, u, N, frame_uops, CST_ISA_UNKNOWN);
    free(u);
    uint8_t *data;
    cs_error err;
    assert_true(cs_read_file(path, &data, size, &err));
    unlink(path);
    return data;
}

static void put_file(const char *path, const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
}

/* Open and read everything; true if all of it was delivered without error.
 * On failure err holds the message. */
static bool read_whole(const char *path, uint64_t *count, cs_error *err) {
    *count = 0;
    cst_reader *r = cst_open(path, err);
    if (!r) return false;
    uop buf[128];
    long k;
    while ((k = uop_source_read(cst_reader_source(r), buf, 128, err)) > 0) *count += (uint64_t)k;
    cst_close(r);
    return k == 0;
}

static void expect_error(const uint8_t *data, size_t size, const char *what, const char *offset) {
    char path[256];
    tmp_path(path, sizeof path, "bad.cst");
    put_file(path, data, size);
    cs_error err;
    uint64_t n;
    assert_false(read_whole(path, &n, &err));
    if (!strstr(err.msg, path) || !strstr(err.msg, what) || !strstr(err.msg, offset))
        fail_msg("error '%s' should name the file, say '%s' and '%s'", err.msg, what, offset);
    unlink(path);
}

static void test_bad_magic_and_version(void **state) {
    (void)state;
    size_t size;
    uint8_t *d = small_file(&size, 100);
    d[0] = 'X';
    expect_error(d, size, "wrong magic", "at offset 0");
    d[0] = 0x89;
    d[8] = 2;
    expect_error(d, size, "unsupported .cst format version 2", "at offset 8");
    d[8] = 1;
    d[9] = 1; /* version 257 */
    expect_error(d, size, "version 257", "at offset 8");
    d[9] = 0;
    expect_error((const uint8_t *)"hello", 5, "wrong magic", "at offset 0");
    expect_error(d, 0, "wrong magic", "at offset 0");
    free(d);
}

static void test_every_truncation_is_refused(void **state) {
    (void)state;
    size_t size;
    uint8_t *d = small_file(&size, 100);
    char path[256];
    tmp_path(path, sizeof path, "trunc.cst");
    for (size_t len = 0; len < size; len++) {
        put_file(path, d, len);
        cs_error err;
        uint64_t n;
        if (read_whole(path, &n, &err))
            fail_msg("a file cut to %zu of %zu bytes was read as %llu µops", len, size, (unsigned long long)n);
        if (!strstr(err.msg, path) || !strstr(err.msg, "at offset")) fail_msg("unclear error: %s", err.msg);
    }
    expect_error(d, size / 2, "truncated", "at offset");
    unlink(path);
    free(d);
}

static void test_every_byte_is_checked(void **state) {
    (void)state;
    size_t size;
    uint8_t *d = small_file(&size, 120);
    char path[256];
    tmp_path(path, sizeof path, "flip.cst");
    for (size_t i = 0; i < size; i++) {
        for (int bit = 0; bit < 8; bit += 3) {
            d[i] ^= (uint8_t)(1 << bit);
            put_file(path, d, size);
            cs_error err;
            uint64_t n;
            if (read_whole(path, &n, &err))
                fail_msg("flipping bit %d of byte %zu (of %zu) went unnoticed", bit, i, size);
            if (!strstr(err.msg, "at offset")) fail_msg("error without an offset: %s", err.msg);
            d[i] ^= (uint8_t)(1 << bit);
        }
    }
    unlink(path);
    free(d);
}

static void test_corrupt_frame_names_offset(void **state) {
    (void)state;
    size_t size;
    uint8_t *d = small_file(&size, 100);
    /* the second frame's data: find its header after the first frame */
    uint32_t hsize = d[16] | d[17] << 8;
    const uint8_t *f0 = d + hsize;
    uint32_t c0 = f0[16] | f0[17] << 8 | f0[18] << 16 | (uint32_t)f0[19] << 24;
    size_t f1 = hsize + 32 + c0;
    d[f1 + 40] ^= 0x55;
    char offset[64];
    snprintf(offset, sizeof offset, "at offset %zu", f1);
    expect_error(d, size, "frame 1: checksum mismatch", offset);
    free(d);
}

static void test_unfinished_file(void **state) {
    (void)state;
    size_t size;
    uint8_t *d = small_file(&size, 100);
    /* what a writer leaves when it is killed: index offset 0 (with a valid CRC) */
    uint32_t hsize = d[16] | d[17] << 8;
    memset(d + 56, 0, 8);
    uLong c = crc32(0, d, hsize - 4);
    for (int i = 0; i < 4; i++) d[hsize - 4 + i] = (uint8_t)(c >> (8 * i));
    expect_error(d, size, "incomplete trace", "at offset 56");
    free(d);
}

static void test_writer_errors(void **state) {
    (void)state;
    cs_error err;
    cst_meta meta = {0};
    assert_null(cst_writer_create("/no/such/dir/x.cst", &meta, &err));
    assert_non_null(strstr(err.msg, "/no/such/dir/x.cst: cannot create"));
    char path[256];
    tmp_path(path, sizeof path, "werr.cst");
    cst_writer *w = cst_writer_create(path, &meta, &err);
    uop bad = {.op_class = OPC_COUNT};
    assert_false(cst_writer_write(w, &bad, 1, &err));
    assert_non_null(strstr(err.msg, "op class"));
    assert_false(cst_writer_finish(w, &err));
    assert_int_equal(access(path, F_OK), -1); /* removed: no partial file */
    assert_null(cst_open("/no/such/file.cst", &err));
    assert_non_null(strstr(err.msg, "cannot open"));
    assert_null(cst_open("/tmp", &err));
    assert_non_null(strstr(err.msg, "directory"));
}

/* The writer as a uop_source: the tee passes the emulator's µops on unchanged
 * and the file holds the same. */
static void test_tee(void **state) {
    (void)state;
    char prog[4096];
    snprintf(prog, sizeof prog, "%s/tests/guest/uops", getenv("CYCLESCOPE_BUILD"));
    if (access(prog, X_OK) != 0) skip();
    const char *argv[] = {prog, NULL};
    static const char *const env[] = {NULL};
    emu_options opt = {.argc = 1, .argv = argv, .envp = env, .quiet = true};
    cs_error err;
    emu_t *e = emu_create(prog, &opt, &err);
    emu_t *e2 = emu_create(prog, &opt, &err);
    char path[256];
    tmp_path(path, sizeof path, "tee.cst");
    cst_meta meta = {.isa = CST_ISA_RV64GC, .argc = 1, .argv = argv};
    cst_writer *w = cst_writer_create(path, &meta, &err);
    uop_source *es = emu_source_create(e), *tee = cst_tee_create(es, w);
    uop a[64], b[64];
    long n = uop_source_read(tee, a, 64, &err);
    assert_int_equal(n, 18);
    assert_int_equal(uop_source_read(tee, a + n, 64 - (size_t)n, &err), 0);
    assert_int_equal(emu_run_uops(e2, b, 64), 18);
    expect_same(b, a, 18, 0);
    assert_true(cst_writer_finish(w, &err));
    cst_reader *r = cst_open(path, &err);
    read_all(r, a, 18, 64);
    expect_same(b, a, 18, 0);
    cst_close(r);
    uop_source_destroy(tee);
    uop_source_destroy(es);
    emu_destroy(e);
    emu_destroy(e2);
    unlink(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_every_field),
        cmocka_unit_test(test_header_metadata),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_seek_and_fast_forward),
        cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_bad_magic_and_version),
        cmocka_unit_test(test_every_truncation_is_refused),
        cmocka_unit_test(test_every_byte_is_checked),
        cmocka_unit_test(test_corrupt_frame_names_offset),
        cmocka_unit_test(test_unfinished_file),
        cmocka_unit_test(test_writer_errors),
        cmocka_unit_test(test_tee),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
