/* The interpreter: instruction semantics (exec_loop.inc) instantiated twice,
 * without records for fast-forward and with one µop record per instruction. */
#include <inttypes.h>
#include <signal.h>

#include "emu_internal.h"
#include "fpu.h"

/* Decode the instruction at pc into its cache slot. False (run failed) if
 * the second half of an instruction crossing a page is not executable. */
static bool decode_at(emu_t *e, uint64_t pc, dinsn *d) {
    uint8_t bytes[4] = {0};
    if (pc & 1) { /* jumps clear bit 0; only a bad entry point gets here */
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

static inline uint32_t unbox_s(uint64_t v) { return (v >> 32) == 0xffffffffu ? (uint32_t)v : 0x7fc00000u; }
static inline uint64_t box_s(uint32_t v) { return 0xffffffff00000000ull | v; }

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
    if (len == 2) emu_fault(e, SIGILL, "illegal instruction 0x%04x at pc 0x%" PRIx64, d->tmpl.encoding & 0xffff, pc);
    else emu_fault(e, SIGILL, "illegal instruction 0x%08x at pc 0x%" PRIx64, d->tmpl.encoding, pc);
}

static void fail_access(emu_t *e, uint64_t pc) {
    const char *what = e->m.fault_kind == PROT_W ? "store to"
        : e->m.fault_kind == PROT_X              ? "instruction fetch from"
                                                 : "load from";
    emu_fault(e, SIGSEGV, "segmentation fault: %s address 0x%" PRIx64 " at pc 0x%" PRIx64, what, e->m.fault_addr, pc);
}

#define RECORD    0
#define EXEC_NAME emu_exec_fast
#include "exec_loop.inc"
#undef RECORD
#undef EXEC_NAME

#define RECORD    1
#define EXEC_NAME emu_exec_record
#include "exec_loop.inc"
#undef RECORD
#undef EXEC_NAME
