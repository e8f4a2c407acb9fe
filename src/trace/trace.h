/* trace — the µop record, the uop_source interface through which timing
 * models pull µops, .cst trace files and ChampSim import/export
 * (docs/trace-format.md). */
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
    /* `value` holds the result's fingerprint (emulator with record_values, or a
     * .cst recorded with --values); only value prediction needs it. */
    UOP_HAS_VALUE = 1 << 4,
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
    uint32_t value;    /* with UOP_HAS_VALUE: the result written to dst, folded to 32 bits
                        * (low half xor high half); otherwise 0 */
} uop;
_Static_assert(sizeof(uop) == 40, "the µop record fills its 40 bytes; keep it small, models stream it");

/* The 32-bit fingerprint of a 64-bit result carried in uop.value. */
static inline uint32_t uop_fold_value(uint64_t v) { return (uint32_t)v ^ (uint32_t)(v >> 32); }

static inline bool uop_is_control(const uop *u) { return u->op_class >= OPC_BRANCH && u->op_class <= OPC_RETURN; }

/* A stream of µops: the live emulator, a .cst file, a ChampSim trace. An
 * implementation embeds `uop_source` as its first member. */
typedef struct uop_source uop_source;
/* The kind of the emulator's stream: a program run now, not a recorded trace. */
#define UOP_SOURCE_KIND_EMULATOR "emulator"
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

/* ---- .cst trace files (docs/trace-format.md) ------------------------------------------
 *
 * A versioned header, then zstd-compressed frames of µop records, each with a
 * CRC-32 and an index entry, so a reader can seek to µop N by decoding one
 * frame. Every field of every µop is kept exactly: a reader returns the records
 * the writer was given. */

enum { CST_VERSION = 1, CST_DEFAULT_FRAME_UOPS = 1 << 20, CST_MAX_FRAME_UOPS = 1 << 22 };

/* The instruction set a stream came from: how to read its registers and encodings. */
typedef enum cst_isa {
    CST_ISA_UNKNOWN = 0,
    CST_ISA_RV64GC = 1,  /* registers in the isa numbering, encodings valid */
    CST_ISA_CHAMPSIM = 2 /* imported ChampSim (x86): ChampSim register numbers, no encodings */
} cst_isa;
const char *cst_isa_name(unsigned isa);

/* Which µop fields carry information (header word `fields`); the others are 0
 * or, for mem_size, a stand-in (ChampSim imports: 8). */
enum {
    CST_FIELD_PC = 1 << 0,
    CST_FIELD_NEXT_PC = 1 << 1,
    CST_FIELD_ENCODING = 1 << 2,
    CST_FIELD_OP_CLASS = 1 << 3, /* full class; without it only branch kinds, load, store, int-alu */
    CST_FIELD_REGS = 1 << 4,
    CST_FIELD_MEM_ADDR = 1 << 5,
    CST_FIELD_MEM_SIZE = 1 << 6,
    CST_FIELD_TAKEN = 1 << 7,
    CST_FIELD_FP_OPS = 1 << 8,
    /* Results (uop.value, UOP_HAS_VALUE), for value prediction. Opt-in: results
     * are hard to compress. Frames of such files carry a fourth stream. */
    CST_FIELD_VALUES = 1 << 9,
    CST_FIELDS_ALL = (1 << 9) - 1,    /* a RISC-V recording: every field but the results */
    CST_FIELDS_KNOWN = (1 << 10) - 1, /* a reader refuses a file with other bits */
    CST_FIELDS_CHAMPSIM = CST_FIELD_PC | CST_FIELD_NEXT_PC | CST_FIELD_REGS | CST_FIELD_MEM_ADDR | CST_FIELD_TAKEN
};

/* What a writer records in the header besides the µops. */
typedef struct cst_meta {
    cst_isa isa;
    uint32_t fields; /* CST_FIELD_*; 0 means CST_FIELDS_ALL */
    int argc;        /* program and arguments; argv[0] is the program */
    const char *const *argv;
    uint64_t skipped;    /* instructions fast-forwarded before the first record */
    uint32_t frame_uops; /* µops per frame; 0: CST_DEFAULT_FRAME_UOPS */
    int level;           /* zstd level; 0: the default (9) */
} cst_meta;

typedef struct cst_writer cst_writer;
/* Create `path` and write the header. */
cst_writer *cst_writer_create(const char *path, const cst_meta *meta, cs_error *err);
bool cst_writer_write(cst_writer *w, const uop *u, size_t n, cs_error *err);
/* Write the last frame and the index, complete the header, close. Frees w
 * whatever the outcome; on failure the file is removed. */
bool cst_writer_finish(cst_writer *w, cs_error *err);
/* Abandon the file: close and remove it. Frees w. */
void cst_writer_discard(cst_writer *w);
uint64_t cst_writer_uops(const cst_writer *w);

/* A writer as a uop_source: reads from `inner` and writes every µop it passes
 * on to `w` (µops fast-forwarded over are not written). Owns neither. */
uop_source *cst_tee_create(uop_source *inner, cst_writer *w);

/* The header of an open file. */
typedef struct cst_info {
    unsigned version, isa;
    uint32_t fields;
    uint64_t uops, insns; /* insns: µops without UOP_CONTINUES */
    uint64_t first_pc, skipped;
    uint32_t frames, frame_uops;
    uint64_t file_size, header_size;
    int argc;
    char **argv;
} cst_info;

typedef struct cst_frame_info {
    uint64_t offset, first_uop;
    uint32_t uops, insns, compressed_size, raw_size;
} cst_frame_info;

/* Whether the file begins with the .cst magic number (false if it cannot be read). */
bool cst_probe(const char *path);

typedef struct cst_reader cst_reader;
/* Open and check a .cst file: header, index and frame layout (frame contents
 * are checked as they are read). Errors name the file and the offset. */
cst_reader *cst_open(const char *path, cs_error *err);
const cst_info *cst_reader_info(const cst_reader *r);
const cst_frame_info *cst_reader_frame(const cst_reader *r, uint32_t i);
/* The reader as a uop_source; uop_source_destroy(cst_reader_source(r)) closes it. */
uop_source *cst_reader_source(cst_reader *r);
/* Position the next read at µop n (n == uops: the end). */
bool cst_reader_seek(cst_reader *r, uint64_t n, cs_error *err);
uint64_t cst_reader_tell(const cst_reader *r);
void cst_close(cst_reader *r);

/* ---- ChampSim traces ------------------------------------------------------------------
 *
 * ChampSim's input_instr record (64 bytes) and the cloudsuite variant (96
 * bytes), raw, .xz or .gz. ChampSim infers a branch's type from the special
 * registers it reads and writes; champsim_branch_type is that rule. */

enum { CHAMPSIM_REG_SP = 6, CHAMPSIM_REG_FLAGS = 25, CHAMPSIM_REG_IP = 26 };
enum { CHAMPSIM_RECORD_SIZE = 64, CHAMPSIM_CLOUDSUITE_RECORD_SIZE = 96 };
/* Export of RISC-V registers: ChampSim number = CHAMPSIM_RISCV_REG_BASE + isa number
 * (x1..x31 -> 65..95, f0..f31 -> 96..127; 64 stands for x0). */
enum { CHAMPSIM_RISCV_REG_BASE = 64 };

typedef enum champsim_branch {
    CHAMPSIM_NOT_BRANCH,
    CHAMPSIM_DIRECT_JUMP,
    CHAMPSIM_INDIRECT,
    CHAMPSIM_CONDITIONAL,
    CHAMPSIM_DIRECT_CALL,
    CHAMPSIM_INDIRECT_CALL,
    CHAMPSIM_RETURN,
    CHAMPSIM_OTHER
} champsim_branch;
const char *champsim_branch_name(champsim_branch b);
/* ChampSim's classification of an instruction from its register lists (0 = none). */
champsim_branch champsim_branch_type(const uint8_t *dst, size_t ndst, const uint8_t *src, size_t nsrc);

/* One ChampSim record, either layout (standard records use the first 2
 * destinations and 2 destination addresses). 0 means none everywhere. */
typedef struct champsim_record {
    uint64_t ip;
    uint8_t is_branch, branch_taken;
    uint8_t dst_regs[4], src_regs[4];
    uint64_t dst_mem[4], src_mem[4];
    uint8_t asid[2];
} champsim_record;
void champsim_record_decode(champsim_record *r, const uint8_t *bytes, bool cloudsuite);
void champsim_record_encode(const champsim_record *r, uint8_t *bytes, bool cloudsuite);

typedef struct champsim_options {
    bool cloudsuite; /* 96-byte records */
    /* Import: the trace was exported from a RISC-V stream by cyclescope; map the
     * registers back to the isa numbering, one µop per record. */
    bool riscv;
    int level;    /* export compression level (xz: the preset); 0: default (xz 6, gzip 6) */
    bool extreme; /* xz: the preset's extreme variant (xz -9e) */
    int threads;  /* xz export: compressing threads; 0: the processors (at most 16); 1: one */
} champsim_options;

/* The µops of one record (at most CHAMPSIM_MAX_UOPS); next_ip is the next
 * record's ip (0 at the end of the trace). Returns the count, or -1 with *err
 * set (riscv mode and a record cyclescope cannot have written). */
enum { CHAMPSIM_MAX_UOPS = 12 };
int champsim_record_to_uops(const champsim_record *r, uint64_t next_ip, const champsim_options *opt, uop *out,
                            cs_error *err);

/* A ChampSim trace as a uop_source. The format (xz, gzip, raw) follows the
 * name's extension, else the file's first bytes. */
uop_source *champsim_open(const char *path, const champsim_options *opt, cs_error *err);
uint64_t champsim_source_records(const uop_source *src);
/* Whether the file reads as a ChampSim trace (for messages that say what a file is; an
 * import still checks every record): not a .cst, and its first records, in the standard
 * or else the cloudsuite layout (*cloudsuite says which; may be NULL), are whole records
 * with plausible instruction addresses (non-zero, below 2^48). */
bool champsim_probe(const char *path, bool *cloudsuite);

/* Export: one record per instruction (a µop and its UOP_CONTINUES followers).
 * `isa` says how to number registers (CST_ISA_RV64GC: the RISC-V mapping above;
 * otherwise ChampSim numbers as they are). Compressed by the name's extension:
 * .xz, .gz, else raw. */
typedef struct champsim_writer champsim_writer;
typedef struct champsim_export_stats {
    uint64_t records;
    uint64_t dropped_regs; /* registers that did not fit the record's slots */
    uint64_t dropped_mem;  /* memory addresses that did not fit (or were 0) */
} champsim_export_stats;
champsim_writer *champsim_writer_create(const char *path, const champsim_options *opt, cst_isa isa, cs_error *err);
bool champsim_writer_write(champsim_writer *w, const uop *u, size_t n, cs_error *err);
bool champsim_writer_finish(champsim_writer *w, champsim_export_stats *stats, cs_error *err);
void champsim_writer_discard(champsim_writer *w);
/* The record an instruction's µops (u[0], then the UOP_CONTINUES µops after it)
 * export to. Adds what did not fit to the drop counts in *stats. */
void champsim_record_from_uops(const uop *u, size_t n, cst_isa isa, bool cloudsuite, champsim_record *r,
                               champsim_export_stats *stats);

#endif
