/* Fuzz target: the .cst reader. Each input is tried twice:
 *  - as a whole file: open, read everything, seek back into the middle and read
 *    again. A file must be read completely or refused with a message; nothing may
 *    crash, hang or leak.
 *  - as one frame's decompressed payload (its first 4 bytes give the µop count),
 *    straight into the record decoder, which the frame checksums otherwise keep
 *    out of a fuzzer's reach;
 *  - as a µop stream (packed 24-byte records, see as_stream): written to a .cst
 *    file with small frames, with or without results, and read back, it must
 *    come back exactly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace/cst_internal.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void as_file(const unsigned char *data, size_t size) {
    int fd = memfd_create("fuzz-cst", 0);
    if (fd < 0) return;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    cs_error err = {{0}};
    cst_reader *r = cst_open(path, &err);
    if (r) {
        const cst_info *in = cst_reader_info(r);
        uop buf[256];
        uint64_t total = 0;
        long n;
        while ((n = uop_source_read(cst_reader_source(r), buf, 256, &err)) > 0) total += (uint64_t)n;
        if (n < 0 && !err.msg[0]) abort();        /* a failure without a message */
        if (n == 0 && total != in->uops) abort(); /* a shorter stream read as complete */
        if (n == 0 && cst_reader_seek(r, in->uops / 2, &err)) {
            while ((n = uop_source_read(cst_reader_source(r), buf, 256, &err)) > 0) continue;
        }
        cst_close(r);
    } else if (!err.msg[0]) {
        abort();
    }
    close(fd);
}

static void as_payload(const unsigned char *data, size_t size) {
    if (size < 4) return;
    uint32_t n = (data[0] | data[1] << 8 | (uint32_t)data[2] << 16 | (uint32_t)data[3] << 24) % 100000;
    cst_decoder d;
    cst_decoder_init(&d);
    d.values = data[3] & 0x80; /* with and without the value stream */
    const char *why = NULL;
    if (cst_decoder_start(&d, data + 4, size - 4, n, &why)) {
        uop buf[64];
        long k;
        while ((k = cst_decoder_run(&d, buf, 64, &why)) > 0) continue;
        if (k < 0 && !why) abort();
        if (k == 0) cst_decoder_done(&d, &why);
    } else if (!why) {
        abort();
    }
    cst_decoder_free(&d);
}

/* Each 24 bytes make a µop: pc and next_pc as small deltas from the running pc
 * (so loops and strides occur), an address, and the static fields. */
static void as_stream(const unsigned char *data, size_t size) {
    enum { REC = 24, MAX = 2000 };
    size_t n = size / REC;
    if (n == 0 || n > MAX) return;
    static uop u[MAX], back[MAX + 1];
    const bool values = data[23] & 2; /* a file with results (CST_FIELD_VALUES) */
    uint64_t pc = 0x10000;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *b = data + i * REC;
        uop *x = &u[i];
        memset(x, 0, sizeof *x);
        int8_t dpc = (int8_t)b[0], dnext = (int8_t)b[1];
        x->pc = pc + (uint64_t)(int64_t)dpc * 2;
        x->next_pc = (b[2] & 0x80) ? x->pc + (uint64_t)(int64_t)dnext * 4 : x->pc + 4;
        if (b[2] == 0xff) x->next_pc = ((uint64_t)b[3] << 56) | b[4];
        uint64_t a;
        memcpy(&a, b + 5, 8);
        x->mem_addr = (b[2] & 0x40) ? a : (b[2] & 0x20) ? (a & 0xffff) * 8 : 0;
        x->encoding = (uint32_t)(b[13] | b[14] << 8);
        x->op_class = b[15] % OPC_COUNT;
        x->src[0] = b[16], x->src[1] = b[17], x->src[2] = b[18], x->dst = b[19];
        x->mem_size = b[20], x->flags = b[21], x->fp_ops = b[22];
        if (!values) x->flags &= (uint8_t)~UOP_HAS_VALUE; /* a writer without results drops them */
        if (x->flags & UOP_HAS_VALUE) x->value = (uint32_t)(a >> 16) * 0x9e3779b1u;
        pc = x->next_pc;
    }
    int fd = memfd_create("fuzz-cst-stream", 0);
    if (fd < 0) return;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    cst_meta meta = {.isa = data[23] & 1 ? CST_ISA_RV64GC : CST_ISA_CHAMPSIM,
                     .fields = CST_FIELDS_ALL | (values ? CST_FIELD_VALUES : 0),
                     .frame_uops = 1 + data[23] % 64,
                     .level = 1};
    cs_error err = {{0}};
    cst_writer *w = cst_writer_create(path, &meta, &err);
    if (!w) abort();
    if (!cst_writer_write(w, u, n, &err) || !cst_writer_finish(w, &err)) abort();
    cst_reader *r = cst_open(path, &err);
    if (!r) abort();
    size_t got = 0;
    long k;
    while ((k = uop_source_read(cst_reader_source(r), back + got, MAX + 1 - got, &err)) > 0) got += (size_t)k;
    if (k < 0 || got != n) abort();
    for (size_t i = 0; i < n; i++) {
        const uop *p = &u[i], *q = &back[i];
        if (p->pc != q->pc || p->next_pc != q->next_pc || p->mem_addr != q->mem_addr || p->encoding != q->encoding ||
            p->op_class != q->op_class || memcmp(p->src, q->src, 3) || p->dst != q->dst || p->mem_size != q->mem_size ||
            p->flags != q->flags || p->fp_ops != q->fp_ops || p->value != q->value)
            abort(); /* the file does not give back what was written */
    }
    cst_close(r);
    close(fd);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    as_file(data, size);
    as_payload(data, size);
    as_stream(data, size);
    return 0;
}
