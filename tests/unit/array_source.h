/* A uop_source over an array of µops, for tests that build known streams. */
#ifndef CYCLESCOPE_TEST_ARRAY_SOURCE_H
#define CYCLESCOPE_TEST_ARRAY_SOURCE_H

#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

typedef struct array_source {
    uop_source base;
    const uop *uops;
    size_t n, pos;
    bool owned; /* array_source_create: destroy frees the array and the source */
} array_source;

static long array_read(uop_source *s, uop *buf, size_t max, cs_error *err) {
    (void)err;
    array_source *a = (array_source *)s;
    size_t k = a->n - a->pos < max ? a->n - a->pos : max;
    memcpy(buf, a->uops + a->pos, k * sizeof(uop));
    a->pos += k;
    return (long)k;
}

static long long array_fast_forward(uop_source *s, uint64_t n, cs_error *err) {
    (void)err;
    array_source *a = (array_source *)s;
    size_t k = a->n - a->pos < n ? a->n - a->pos : n;
    a->pos += k;
    return (long long)k;
}

static void array_destroy(uop_source *s) {
    array_source *a = (array_source *)s;
    if (!a->owned) return; /* borrowed: both are the caller's */
    free((void *)a->uops);
    free(a);
}

static const uop_source_ops array_ops = {"array", array_read, array_fast_forward, array_destroy};

/* Takes ownership of `uops` (malloc'ed). */
static inline uop_source *array_source_create(uop *uops, size_t n) {
    array_source *a = calloc(1, sizeof *a);
    a->base.ops = &array_ops;
    a->uops = uops;
    a->n = n;
    a->owned = true;
    return &a->base;
}

/* A source over an array that stays the caller's, as a value (use &src.base);
 * uop_source_destroy on it does nothing. */
static inline array_source array_source_borrow(const uop *uops, size_t n) {
    return (array_source){{&array_ops}, uops, n, 0, false};
}

/* Helpers to build streams: sequential 4-byte instructions from 0x10000. */
static inline uop make_uop(size_t i, op_class cls, uint8_t dst, uint8_t src0, uint8_t src1) {
    uop u;
    memset(&u, 0, sizeof u);
    u.pc = 0x10000 + 4 * (uint64_t)i;
    u.next_pc = u.pc + 4;
    u.encoding = 0x00000013; /* any 4-byte encoding */
    u.op_class = (uint8_t)cls;
    u.dst = dst;
    u.src[0] = src0;
    u.src[1] = src1;
    return u;
}

#endif
