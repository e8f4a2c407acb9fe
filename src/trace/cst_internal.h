/* The .cst frame codec, shared by the writer and the reader (and the fuzz
 * target, which drives the decoder directly). docs/trace-format.md is the
 * specification; the names here follow it. */
#ifndef CYCLESCOPE_CST_INTERNAL_H
#define CYCLESCOPE_CST_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <zlib.h>

#include "trace.h"

/* File layout constants. */
#define CST_MAGIC \
    "\x89"        \
    "CST\r\n\x1a\n"
enum {
    CST_MAGIC_SIZE = 8,
    CST_HEADER_FIXED = 72,    /* bytes before the argument strings */
    CST_HEADER_MAX = 1 << 20, /* a larger header is corrupt */
    CST_FRAME_HEADER = 32,
    CST_INDEX_ENTRY = 40,
    CST_PAYLOAD_PREFIX = 12,        /* three u32 stream lengths */
    CST_PAYLOAD_PREFIX_VALUES = 16, /* four, with CST_FIELD_VALUES */
    /* Upper bound on the payload bytes of one µop: tag 1, static descriptor 15,
     * flags 1, two pc deltas 20, one address delta 10, one value delta 5. */
    CST_MAX_BYTES_PER_UOP = 52
};

/* Tag byte of a record (one per µop). */
enum {
    CST_TAG_TAKEN = 0x01,     /* UOP_TAKEN */
    CST_TAG_STATIC = 0x02,    /* a static descriptor follows in the static stream */
    CST_TAG_PC = 0x04,        /* pc != expected: delta in the pc stream */
    CST_TAG_NEXT = 0x08,      /* next_pc != predicted: delta in the pc stream */
    CST_TAG_FLAGS = 0x10,     /* flags differ from the static default: byte in the static stream */
    CST_TAG_ADDR_HIT = 0x20,  /* mem_addr = last + stride: no bytes */
    CST_TAG_ADDR_PREV = 0x40, /* address delta is from the previous address in the frame */
    CST_TAG_CONT = 0x80       /* UOP_CONTINUES */
};

/* Static descriptor presence mask. */
enum {
    CST_S_ENCODING = 0x01,
    CST_S_SRC0 = 0x02,
    CST_S_SRC1 = 0x04,
    CST_S_SRC2 = 0x08,
    CST_S_DST = 0x10,
    CST_S_MEM_SIZE = 0x20,
    CST_S_FP_OPS = 0x40,
    CST_S_HAS_ADDR = 0x80
};

/* What a static-table entry remembers: the static fields of the µops at one
 * (pc, position in instruction), and the predictors for their dynamic fields. */
typedef struct cst_static {
    uint64_t pc;
    uint32_t k;   /* position of the µop in its instruction (0 for the first) */
    uint32_t gen; /* the entry is live when gen equals the table's */
    uop tmpl;     /* static fields; tmpl.flags is the default (no TAKEN / CONTINUES) */
    uint64_t last_addr, stride, last_target;
    uint32_t last_value;
    uint8_t has_addr, fall_len;
} cst_static;

typedef struct cst_table {
    cst_static *slots;
    uint32_t cap, count, gen;
} cst_table;

void cst_table_init(cst_table *t);
void cst_table_free(cst_table *t);
void cst_table_reset(cst_table *t); /* forget every entry (a new frame) */
/* The live entry for (pc, k), or NULL. */
cst_static *cst_table_find(cst_table *t, uint64_t pc, uint32_t k);
/* The entry for (pc, k), created empty (gen set, fields zero) if absent. */
cst_static *cst_table_get(cst_table *t, uint64_t pc, uint32_t k);

/* Decoder state for one frame's payload. */
typedef struct cst_decoder {
    const uint8_t *tags, *stat, *stat_end, *pcs, *pcs_end, *addrs, *addrs_end, *vals, *vals_end;
    bool values;   /* the file has CST_FIELD_VALUES: a value stream follows */
    uint32_t n, i; /* µops in the frame, next to decode */
    uint64_t prev_pc, prev_next, prev_addr;
    uint32_t prev_k;
    cst_table table;
} cst_decoder;

void cst_decoder_init(cst_decoder *d);
void cst_decoder_free(cst_decoder *d);
/* Start decoding a payload of n µops (with a value stream if d->values). False,
 * with a reason in *why, if the stream lengths do not add up. */
bool cst_decoder_start(cst_decoder *d, const uint8_t *payload, size_t size, uint32_t n, const char **why);
/* Decode up to max µops. Returns the number decoded; -1 on corrupt data,
 * with *why set. */
long cst_decoder_run(cst_decoder *d, uop *out, size_t max, const char **why);
/* True when every µop is decoded and every stream fully consumed. */
bool cst_decoder_done(const cst_decoder *d, const char **why);

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

static inline uint32_t crc(const uint8_t *p, size_t n) {
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

#endif
