/* The interpreter: instruction semantics (exec_loop.inc) instantiated three
 * times: without records for fast-forward, with one µop record per
 * instruction, and fast-forward counting basic blocks (SimPoint BBVs). */
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>

#include "emu_internal.h"
#include "exec_crypto.h"
#include "fpu.h"

/* Decode the instruction at pc into its cache slot. False (run failed) if
 * the second half of an instruction crossing a page is not executable. */
static bool decode_at(emu_t *e, uint64_t pc, dinsn *d) {
    uint8_t bytes[4] = {0};
    if (pc & 1) { /* jumps clear bit 0; only a bad entry point gets here */
        e->h.pc = pc;
        if (!emu_signal_fault(e, SIGBUS, 1 /* BUS_ADRALN */, pc))
            emu_fault(e, SIGBUS, "instruction address misaligned: 0x%" PRIx64, pc);
        return false;
    }
    page *p = mem_page(&e->m, pc);
    size_t off = pc & PAGE_MASK;
    bytes[0] = p->data[off];
    bytes[1] = p->data[off + 1];
    uint16_t low = (uint16_t)(bytes[0] | bytes[1] << 8);
    if (isa_length(low) != 2) {
        if (off + 2 < PAGE_SIZE) {
            bytes[2] = p->data[off + 2];
            bytes[3] = p->data[off + 3];
        } else {
            page *next = mem_page(&e->m, pc + 2);
            if (!next || !(next->prot & PROT_X)) {
                e->h.pc = pc;
                if (!emu_signal_fault(e, SIGSEGV, next ? 2 : 1 /* SEGV_ACCERR, SEGV_MAPERR */, pc + 2))
                    emu_fault(e, SIGSEGV, "segmentation fault: instruction fetch from address 0x%" PRIx64, pc + 2);
                return false;
            }
            bytes[2] = next->data[0];
            bytes[3] = next->data[1];
        }
    }
    uint32_t raw = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
    isa_insn insn;
    isa_decode(raw, &insn);
    memset(d, 0, sizeof *d);
    d->op = insn.op;
    d->imm = insn.imm;
    d->rd = insn.rd;
    d->rs1 = insn.rs1;
    d->rs2 = insn.rs2;
    d->rs3 = insn.rs3;
    d->rm = insn.rm;
    if ((isa_info_of((isa_op)insn.op)->operands & ISA_RD_X) && d->rd == 0) d->rd = EMU_SINK_REG;
    uop_from_insn(&d->tmpl, &insn);
    d->tmpl.encoding = insn.op == ISA_OP_ILLEGAL ? raw : insn.raw;
    d->length = insn.length ? insn.length : 2;
    return true;
}

/* ---- bit manipulation (RISC-V Bit-Manipulation ISA-extensions 1.0.0, chapter 2) ---- */

/* Rotations by 0..width (a rotation by the width is none); no shift by the width happens. */
static inline uint64_t rotate_right64(uint64_t x, unsigned by) {
    by &= 63;
    return by ? (x >> by) | (x << (64 - by)) : x;
}
static inline uint32_t rotate_right32(uint32_t x, unsigned by) {
    by &= 31;
    return by ? (x >> by) | (x << (32 - by)) : x;
}

/* orc.b: each byte 0xff if any of its bits is set, else 0. Adding 0x7f to a byte's
 * low 7 bits carries into its top bit when they are nonzero, never into the next byte. */
static inline uint64_t or_combine_bytes(uint64_t x) {
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
    uint64_t nonzero_top = (((x & low7) + low7) | x) & ~low7;
    return (nonzero_top >> 7) * 0xff;
}

/* Carry-less products, as the spec's pseudocode: clmul the low 64 bits of the
 * 128-bit product, clmulh the high 64, clmulr bits 126..63. */
static uint64_t clmul_low(uint64_t a, uint64_t b) {
    uint64_t r = 0;
    for (unsigned i = 0; i < 64; i++)
        if ((b >> i) & 1) r ^= a << i;
    return r;
}
static uint64_t clmul_high(uint64_t a, uint64_t b) {
    uint64_t r = 0;
    for (unsigned i = 1; i < 64; i++)
        if ((b >> i) & 1) r ^= a >> (64 - i);
    return r;
}
static uint64_t clmul_reversed(uint64_t a, uint64_t b) {
    uint64_t r = 0;
    for (unsigned i = 0; i < 64; i++)
        if ((b >> i) & 1) r ^= a >> (63 - i);
    return r;
}

static inline uint32_t unbox_s(uint64_t v) { return (v >> 32) == 0xffffffffu ? (uint32_t)v : 0x7fc00000u; }
static inline uint64_t box_s(uint32_t v) { return 0xffffffff00000000ull | v; }
static inline uint32_t unbox_h(uint64_t v) { return (v >> 16) == 0xffffffffffffull ? (uint16_t)v : 0x7e00u; }
static inline uint64_t box_h(uint32_t v) { return 0xffffffffffff0000ull | (uint16_t)v; }

/* CSR access for user mode: the FP CSRs and the read-only counters. */
static bool csr_read(emu_t *e, unsigned csr, uint64_t *out) {
    switch (csr) {
    case ISA_CSR_FFLAGS: *out = e->h.fflags; return true;
    case ISA_CSR_FRM: *out = e->h.frm; return true;
    case ISA_CSR_FCSR: *out = (e->h.frm << 5) | e->h.fflags; return true;
    case ISA_CSR_CYCLE:
    case ISA_CSR_INSTRET: *out = e->icount; return true;
    /* the time CSR ticks at 10 MHz, as on the qemu virt board */
    case ISA_CSR_TIME: *out = emu_guest_time_ns(e, true) / 100; return true;
    default: return false;
    }
}

static bool csr_write(emu_t *e, unsigned csr, uint64_t v) {
    switch (csr) {
    case ISA_CSR_FFLAGS: e->h.fflags = v & 0x1f; return true;
    case ISA_CSR_FRM: e->h.frm = v & 7; return true;
    case ISA_CSR_FCSR:
        e->h.fflags = v & 0x1f;
        e->h.frm = (v >> 5) & 7;
        return true;
    default: return false;
    }
}

static void fail_illegal(emu_t *e, uint64_t pc, const dinsn *d) {
    unsigned len = isa_length((uint16_t)d->tmpl.encoding);
    /* a program built for more than cyclescope runs (-march=rv64gcv, rv64gc_zfh) runs until it
     * meets such an instruction: say so, or the fault looks like cyclescope's */
    char why[240] = "";
    if (e->beyond_gc[0])
        snprintf(why, sizeof why,
                 " (the program was built for extensions beyond RV64GC, Zba/Zbb/Zbc/Zbs, Zfh, Zicond, Zcb, Zfa, "
                 "Zbk*/Zkn*/Zks*, "
                 "which cyclescope runs: %s)",
                 e->beyond_gc);
    if (emu_signal_fault(e, SIGILL, 1 /* ILL_ILLOPC */, pc)) return;
    if (len == 2)
        emu_fault(e, SIGILL, "illegal instruction 0x%04x at pc 0x%" PRIx64 "%s", d->tmpl.encoding & 0xffff, pc, why);
    else emu_fault(e, SIGILL, "illegal instruction 0x%08x at pc 0x%" PRIx64 "%s", d->tmpl.encoding, pc, why);
}

static void fail_access(emu_t *e, uint64_t pc) {
    if (e->m.over_limit) {
        emu_fail_memory(e);
        return;
    }
    const char *what = e->m.fault_kind == PROT_W ? "store to"
        : e->m.fault_kind == PROT_X              ? "instruction fetch from"
                                                 : "load from";
    if (e->m.fault_bus) { /* a page past its shared memory's end (mem_mark_bus): BUS_ADRERR */
        if (emu_signal_fault(e, SIGBUS, 2, e->m.fault_addr)) return;
        emu_fault(e, SIGBUS, "bus error: %s address 0x%" PRIx64 " past the end of its shared memory at pc 0x%" PRIx64,
                  what, e->m.fault_addr, pc);
        return;
    }
    /* SEGV_MAPERR where nothing is mapped, SEGV_ACCERR where the protection refused */
    int code = mem_is_mapped(&e->m, e->m.fault_addr & ~(uint64_t)PAGE_MASK, PAGE_SIZE) ? 2 : 1;
    if (emu_signal_fault(e, SIGSEGV, code, e->m.fault_addr)) return;
    emu_fault(e, SIGSEGV, "segmentation fault: %s address 0x%" PRIx64 " at pc 0x%" PRIx64, what, e->m.fault_addr, pc);
}

/* ---- basic-block counting ----
 * Blocks are found by their first pc in an open-addressing table (pc -> id);
 * the loop calls bbv_add once per block executed, not per instruction. Ids
 * with a nonzero count in the current interval are listed in `touched`, so
 * taking an interval's vector costs its size, not the program's block count. */
typedef struct bbv_slot {
    uint64_t key; /* pc | 1 (pcs are even); 0 = empty */
    uint32_t id;
} bbv_slot;

struct emu_bbv {
    bbv_slot *slots;
    unsigned shift; /* 64 - log2(slot count) */
    uint32_t used;
    uint64_t *block_pc, *count; /* per id: first pc, instructions in the current interval */
    uint32_t *touched;          /* ids with count != 0, in order of first count */
    uint32_t blocks, touched_n, cap;
    /* the block in progress when the last run stopped */
    uint64_t leader, icount;
    bool has_leader;
};

static inline size_t bbv_hash(const emu_bbv *b, uint64_t pc) {
    return (size_t)(((pc >> 1) * 0x9e3779b97f4a7c15ull) >> b->shift);
}

static void bbv_grow_table(emu_bbv *b) {
    size_t old = (size_t)1 << (64 - b->shift);
    bbv_slot *prev = b->slots;
    b->shift--;
    size_t size = old * 2;
    b->slots = cs_calloc(size, sizeof *b->slots);
    for (size_t i = 0; i < old; i++) {
        if (!prev[i].key) continue;
        size_t h = bbv_hash(b, prev[i].key);
        while (b->slots[h].key) h = (h + 1) & (size - 1);
        b->slots[h] = prev[i];
    }
    free(prev);
}

/* A block not seen before: give it the next id. */
static __attribute__((noinline)) uint32_t bbv_insert(emu_bbv *b, uint64_t pc) {
    if ((uint64_t)(b->used + 1) * 2 > (uint64_t)1 << (64 - b->shift)) bbv_grow_table(b);
    if (b->blocks == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 1024;
        b->block_pc = cs_realloc(b->block_pc, cs_array_size(b->cap, sizeof *b->block_pc));
        b->count = cs_realloc(b->count, cs_array_size(b->cap, sizeof *b->count));
        b->touched = cs_realloc(b->touched, cs_array_size(b->cap, sizeof *b->touched));
    }
    size_t mask = ((size_t)1 << (64 - b->shift)) - 1, h = bbv_hash(b, pc);
    while (b->slots[h].key) h = (h + 1) & mask;
    uint32_t id = b->blocks++;
    b->slots[h] = (bbv_slot){pc | 1, id};
    b->used++;
    b->block_pc[id] = pc;
    b->count[id] = 0;
    return id;
}

static inline void bbv_add(emu_bbv *b, uint64_t pc, uint64_t n) {
    size_t mask = ((size_t)1 << (64 - b->shift)) - 1, h = bbv_hash(b, pc);
    uint32_t id;
    for (;;) {
        uint64_t key = b->slots[h].key;
        if (key == (pc | 1)) {
            id = b->slots[h].id;
            break;
        }
        if (!key) {
            id = bbv_insert(b, pc);
            break;
        }
        h = (h + 1) & mask;
    }
    if (!b->count[id]) b->touched[b->touched_n++] = id;
    b->count[id] += n;
}

emu_bbv *emu_bbv_create(void) {
    emu_bbv *b = cs_calloc(1, sizeof *b);
    b->shift = 64 - 12;
    b->slots = cs_calloc((size_t)1 << 12, sizeof *b->slots);
    return b;
}

void emu_bbv_destroy(emu_bbv *b) {
    if (!b) return;
    free(b->slots);
    free(b->block_pc);
    free(b->count);
    free(b->touched);
    free(b);
}

void emu_bbv_count(emu_bbv *b, uint64_t block_pc, uint64_t instructions) {
    if (instructions) bbv_add(b, block_pc, instructions);
}

uint32_t emu_bbv_block_count(const emu_bbv *b) { return b->blocks; }
uint64_t emu_bbv_block_pc(const emu_bbv *b, uint32_t id) { return id < b->blocks ? b->block_pc[id] : 0; }

size_t emu_bbv_take(emu_bbv *b, uint32_t *ids, uint64_t *counts) {
    size_t n = b->touched_n;
    for (size_t i = 0; i < n; i++) {
        uint32_t id = b->touched[i];
        ids[i] = id;
        counts[i] = b->count[id];
        b->count[id] = 0;
    }
    b->touched_n = 0;
    return n;
}

#define RECORD    0
#define EXEC_NAME emu_exec_fast
#include "exec_loop.inc"
#undef RECORD
#undef EXEC_NAME

#define RECORD    0
#define BBV       1
#define EXEC_NAME emu_exec_bbv
#include "exec_loop.inc"
#undef RECORD
#undef BBV
#undef EXEC_NAME

uint64_t emu_run_bbv(emu_t *e, emu_bbv *b, uint64_t max) {
    uint64_t done = 0;
    while (e->status == EMU_RUNNING && done < max) {
        uint64_t chunk = emu_next_chunk(e, max - done); /* stop at the alarm, the quantum (emu_run) */
        if (e->status != EMU_RUNNING || chunk == 0) break;
        done += emu_exec_bbv(e, b, chunk);
        if (emu_after_chunk(e)) b->has_leader = false; /* another thread: a block begins at its pc */
    }
    return done;
}

#define RECORD    1
#define EXEC_NAME emu_exec_record
#include "exec_loop.inc"
#undef RECORD
#undef EXEC_NAME
