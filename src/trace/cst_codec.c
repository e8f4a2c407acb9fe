/* .cst trace files: the frame codec (the static table and the decoder) that
 * the writer (cst_writer.c) and the reader (cst_reader.c) share, and the fuzz
 * target drives directly. docs/trace-format.md is the specification. Notes:
 *  - A frame is self-contained: the static table and the predictors restart
 *    empty, so a reader seeks by decoding one frame.
 *  - A frame's payload is four streams (tags, static, pc, address) so that
 *    each compresses on its own statistics. */
#include <stdlib.h>
#include <string.h>

#include "cst_internal.h"

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
