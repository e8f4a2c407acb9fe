/* trace — the µop record, the uop_source interface through which timing
 * models pull µops, and (later) trace files. */
#ifndef CYCLESCOPE_TRACE_H
#define CYCLESCOPE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa/isa.h"
#include "util/util.h"

enum {
    UOP_TAKEN = 1 << 0,     /* control transfer taken (next_pc is the target) */
    UOP_MEM_READ = 1 << 1,  /* reads mem_addr..+mem_size */
    UOP_MEM_WRITE = 1 << 2, /* writes mem_addr..+mem_size (atomics do both) */
    /* This µop belongs to the same instruction as the one before it. RISC-V
     * instructions are one µop each; an imported x86 ChampSim instruction with
     * several memory operands or registers becomes several µops, and timing
     * models count instructions as µops without this flag. */
    UOP_CONTINUES = 1 << 3,
};

/* Register identifiers in µops are opaque numbers below UOP_REG_COUNT, 0 meaning
 * none. RISC-V streams use the isa numbering (1..31 integer, 32..63 FP; x0 is
 * never a dependence); imported traces may use the whole range. */
enum { UOP_REG_COUNT = 256 };

/* One executed µop (one RISC-V instruction). */
typedef struct uop {
    uint64_t pc;
    uint64_t next_pc;  /* the pc of the next executed instruction */
    uint64_t mem_addr; /* valid when UOP_MEM_READ/WRITE */
    uint32_t encoding; /* raw instruction; compressed ones in the low 16 bits */
    uint8_t op_class;  /* op_class */
    uint8_t src[3];    /* sources packed to the front, 0 = none */
    uint8_t dst;       /* 0 = none */
    uint8_t mem_size;  /* bytes */
    uint8_t flags;     /* UOP_* */
    uint8_t fp_ops;    /* floating-point operations: FMA counts 2 */
} uop;

static inline bool uop_is_control(const uop *u) {
    return u->op_class >= OPC_BRANCH && u->op_class <= OPC_RETURN;
}

/* A stream of µops: the live emulator, a .cst file, a ChampSim trace. An
 * implementation embeds `uop_source` as its first member. */
typedef struct uop_source uop_source;
typedef struct uop_source_ops {
    const char *kind;
    /* Fill up to `max` records. Returns the number filled; 0 at the end of
     * the stream; -1 on error with *err set (the stream is then unusable). */
    long (*read)(uop_source *src, uop *buf, size_t max, cs_error *err);
    /* Discard the next n µops as cheaply as possible (fast-forward).
     * Returns the number skipped (less than n at the end); -1 on error. */
    long long (*fast_forward)(uop_source *src, uint64_t n, cs_error *err);
    void (*destroy)(uop_source *src);
} uop_source_ops;

struct uop_source {
    const uop_source_ops *ops;
};

static inline long uop_source_read(uop_source *s, uop *buf, size_t max, cs_error *err) {
    return s->ops->read(s, buf, max, err);
}
static inline long long uop_source_skip(uop_source *s, uint64_t n, cs_error *err) {
    return s->ops->fast_forward(s, n, err);
}
static inline void uop_source_destroy(uop_source *s) {
    if (s) s->ops->destroy(s);
}

/* Fill the static part of a µop from a decoded instruction (class, registers,
 * encoding, access size and direction, FP-op count). */
void uop_from_insn(uop *u, const isa_insn *insn);

#endif
