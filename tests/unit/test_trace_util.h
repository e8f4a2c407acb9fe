/* Helpers shared by the trace unit tests: temporary files, µop comparison with
 * a readable message, and the ChampSim round-trip projection — the exact
 * statement of which µop fields survive export then import (docs/trace-format.md,
 * "What survives export then import"). */
#ifndef TEST_TRACE_UTIL_H
#define TEST_TRACE_UTIL_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/trace.h"

static inline const char *tmp_path(char *buf, size_t size, const char *name) {
    const char *dir = getenv("TMPDIR");
    snprintf(buf, size, "%s/cyclescope-test-%d-%s", dir && *dir ? dir : "/tmp", (int)getpid(), name);
    return buf;
}

static inline void uop_text(const uop *u, char *buf, size_t size) {
    snprintf(buf, size,
             "pc %" PRIx64 " next %" PRIx64 " addr %" PRIx64
             " enc %08x class %u src %u,%u,%u dst %u size %u flags %02x "
             "fp %u value %08x",
             u->pc, u->next_pc, u->mem_addr, u->encoding, u->op_class, u->src[0], u->src[1], u->src[2], u->dst,
             u->mem_size, u->flags, u->fp_ops, u->value);
}

/* 0 when equal field by field; otherwise 1 with a message in buf. */
static inline int uop_diff(const uop *a, const uop *b, char *buf, size_t size) {
    if (a->pc == b->pc && a->next_pc == b->next_pc && a->mem_addr == b->mem_addr && a->encoding == b->encoding &&
        a->op_class == b->op_class && !memcmp(a->src, b->src, 3) && a->dst == b->dst && a->mem_size == b->mem_size &&
        a->flags == b->flags && a->fp_ops == b->fp_ops && a->value == b->value)
        return 0;
    char x[256], y[256];
    uop_text(a, x, sizeof x);
    uop_text(b, y, sizeof y);
    snprintf(buf, size, "expected {%s}\n     got {%s}", x, y);
    return 1;
}

/* What a RISC-V µop becomes after export-champsim then import-champsim --riscv.
 * `last`: the final µop of the stream (its next pc is not carried). */
static inline void champsim_projection(const uop *u, bool last, bool cloudsuite, uop *out) {
    memset(out, 0, sizeof *out);
    out->pc = u->pc;
    out->next_pc = last ? 0 : u->next_pc;
    bool ctl = uop_is_control(u);
    unsigned mem = u->mem_addr ? u->flags & (UOP_MEM_READ | UOP_MEM_WRITE) : 0;
    if (ctl) out->op_class = u->op_class;
    else if (mem == (UOP_MEM_READ | UOP_MEM_WRITE)) out->op_class = OPC_ATOMIC;
    else if (mem == UOP_MEM_READ) out->op_class = OPC_LOAD;
    else if (mem == UOP_MEM_WRITE) out->op_class = OPC_STORE;
    else out->op_class = OPC_INT_ALU;
    if (ctl && (u->op_class != OPC_BRANCH || (u->flags & UOP_TAKEN))) out->flags |= UOP_TAKEN;
    out->flags |= (uint8_t)mem;
    if (mem) {
        out->mem_addr = u->mem_addr;
        out->mem_size = 8;
    }
    memcpy(out->src, u->src, 3);
    bool link_lost = !cloudsuite && (u->op_class == OPC_CALL || u->op_class == OPC_RETURN);
    out->dst = link_lost ? 0 : u->dst;
}

#endif
