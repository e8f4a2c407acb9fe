/* isa — RV64GC (RV64IMAFDC + Zicsr + Zifencei), the bit-manipulation
 * extensions Zba, Zbb, Zbc, Zbs, Zfh/Zfhmin, Zicond, Zcb, Zfa and the scalar
 * cryptography ones (Zbkb, Zbkc, Zbkx, Zknd, Zkne, Zknh, Zksed, Zksh): decoding and
 * disassembly.
 *
 * Pure functions over one instruction table (isa_table.h). No state.
 * Compressed instructions decode to the 32-bit instruction they expand to
 * (same op, registers and immediate), with length 2 and the 16-bit encoding
 * kept in `raw`, so every consumer handles one form.
 */
#ifndef CYCLESCOPE_ISA_H
#define CYCLESCOPE_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Operation classes: fine enough for timing models to pick a functional unit,
 * for the front end to pick a predictor structure, and for CPI stacks. */
#define ISA_OP_CLASS_LIST(X)              \
    X(OPC_INT_ALU, "int-alu")             \
    X(OPC_INT_MUL, "int-mul")             \
    X(OPC_INT_DIV, "int-div")             \
    X(OPC_LOAD, "load")                   \
    X(OPC_STORE, "store")                 \
    X(OPC_ATOMIC, "atomic")               \
    X(OPC_BRANCH, "cond-branch")          \
    X(OPC_JUMP, "jump")                   \
    X(OPC_JUMP_INDIRECT, "jump-indirect") \
    X(OPC_CALL, "call")                   \
    X(OPC_RETURN, "return")               \
    X(OPC_FP_ADD, "fp-add")               \
    X(OPC_FP_MUL, "fp-mul")               \
    X(OPC_FP_FMA, "fp-fma")               \
    X(OPC_FP_DIV, "fp-div")               \
    X(OPC_FP_SQRT, "fp-sqrt")             \
    X(OPC_FP_MISC, "fp-cvt-mov-cmp")      \
    X(OPC_SYSTEM, "csr-system")           \
    X(OPC_NOP, "nop-fence")

typedef enum op_class {
#define ISA_CLASS_ENUM(id, name) id,
    ISA_OP_CLASS_LIST(ISA_CLASS_ENUM)
#undef ISA_CLASS_ENUM
        OPC_COUNT
} op_class;

/* How an instruction's fields are laid out. */
typedef enum isa_format {
    ISA_FMT_R,     /* rd, rs1, rs2 (FP ops: rm in funct3) */
    ISA_FMT_R4,    /* rd, rs1, rs2, rs3, rm */
    ISA_FMT_I,     /* rd, rs1, imm[11:0] */
    ISA_FMT_SH6,   /* rd, rs1, shamt[5:0] */
    ISA_FMT_SH5,   /* rd, rs1, shamt[4:0] */
    ISA_FMT_S,     /* rs1, rs2, imm[11:0] */
    ISA_FMT_B,     /* rs1, rs2, imm[12:1] */
    ISA_FMT_U,     /* rd, imm[31:12] (imm holds the shifted value) */
    ISA_FMT_J,     /* rd, imm[20:1] */
    ISA_FMT_CSR,   /* rd, rs1, imm = CSR number */
    ISA_FMT_CSRI,  /* rd, rs1 field = 5-bit zero-extended immediate, imm = CSR number */
    ISA_FMT_AMO,   /* rd, rs1, rs2, aq/rl in `rm` (bit 1 aq, bit 0 rl) */
    ISA_FMT_FENCE, /* pred/succ in imm bits 7:0, fm in imm bits 11:8 */
    ISA_FMT_NONE
} isa_format;

/* Register-operand flags: which fields are used, and in which register file. */
enum {
    ISA_RD_X = 1 << 0,
    ISA_RD_F = 1 << 1,
    ISA_RS1_X = 1 << 2,
    ISA_RS1_F = 1 << 3,
    ISA_RS2_X = 1 << 4,
    ISA_RS2_F = 1 << 5,
    ISA_RS3_F = 1 << 6
};

typedef enum isa_op {
    ISA_OP_ILLEGAL = 0,
#define ISA_INSN(id, name, match, mask, fmt, cls, fpops, opnds, mem) ISA_OP_##id,
#include "isa_table.h"
#undef ISA_INSN
    ISA_OP_COUNT
} isa_op;

/* One row of the instruction table. */
typedef struct isa_info {
    const char *name;
    uint32_t match, mask;
    uint8_t format;    /* isa_format */
    uint8_t op_class;  /* op_class before operand refinement */
    uint8_t fp_ops;    /* FMA counts 2 */
    uint8_t operands;  /* ISA_RD_X | ISA_RS1_F | ... */
    uint8_t mem_bytes; /* 0 if no memory access */
} isa_info;

/* A decoded instruction. */
typedef struct isa_insn {
    int64_t imm;      /* sign-extended immediate; CSR number for Zicsr */
    uint32_t raw;     /* the encoding; compressed ones in the low 16 bits */
    uint16_t op;      /* isa_op */
    uint8_t length;   /* 2 (compressed) or 4 */
    uint8_t op_class; /* refined: OPC_CALL, OPC_RETURN, OPC_NOP recognised */
    uint8_t rd, rs1, rs2, rs3;
    uint8_t rm; /* funct3 rounding mode (FP), aq/rl (atomics) */
    uint8_t fp_ops;
} isa_insn;

/* Registers as the µop stream numbers them: one space, integer and FP distinct. */
enum {
    ISA_REG_NONE = 0, /* also x0, which is never a dependence */
    ISA_REG_X0 = 0,
    ISA_REG_F0 = 32,
    ISA_REG_COUNT = 64
};

/* Rounding-mode field values (RISC-V unprivileged spec, Table 11.1). */
enum { ISA_RM_RNE = 0, ISA_RM_RTZ = 1, ISA_RM_RDN = 2, ISA_RM_RUP = 3, ISA_RM_RMM = 4, ISA_RM_DYN = 7 };

/* fflags bits (spec §11.2). */
enum { ISA_FFLAG_NX = 1, ISA_FFLAG_UF = 2, ISA_FFLAG_OF = 4, ISA_FFLAG_DZ = 8, ISA_FFLAG_NV = 16 };

/* CSR numbers user code touches. */
enum {
    ISA_CSR_FFLAGS = 0x001,
    ISA_CSR_FRM = 0x002,
    ISA_CSR_FCSR = 0x003,
    ISA_CSR_CYCLE = 0xc00,
    ISA_CSR_TIME = 0xc01,
    ISA_CSR_INSTRET = 0xc02
};

/* Length in bytes of the instruction whose first 16 bits are `low16`
 * (2 or 4; longer encodings are not part of RV64GC and report 0). */
static inline unsigned isa_length(uint16_t low16) {
    if ((low16 & 3) != 3) return 2;
    if ((low16 & 0x1c) != 0x1c) return 4;
    return 0;
}

/* Decode one instruction. `raw` holds 4 bytes from the pc (a compressed
 * instruction uses the low 16). Returns false, with out->op = ISA_OP_ILLEGAL,
 * for an encoding that is neither RV64GC nor one of the extensions above. */
bool isa_decode(uint32_t raw, isa_insn *out);

/* Extensions beyond RV64GC's base that an ISA string can name and that change
 * what objdump disassembles (a bit set). */
enum {
    ISA_EXT_C = 1 << 0, /* compressed: without it 16-bit parcels are data (.2byte) */
    ISA_EXT_ZBA = 1 << 1,
    ISA_EXT_ZBB = 1 << 2,
    ISA_EXT_ZBC = 1 << 3,
    ISA_EXT_ZBS = 1 << 4,
    ISA_EXT_ZFH = 1 << 5,    /* half precision (and its Zfhmin subset) */
    ISA_EXT_ZICOND = 1 << 6, /* czero.eqz, czero.nez */
    ISA_EXT_ZFA = 1 << 7,    /* fli, fminm/fmaxm, fround(nx), fcvtmod.w.d, fleq/fltq */
    ISA_EXT_ZCB = 1 << 8,    /* compressed byte/halfword loads and stores, unary ops, c.mul */
    /* scalar cryptography 1.0.1 (docs/isa.md, "Scalar cryptography") */
    ISA_EXT_ZBKB = 1 << 9,    /* Zbb's rotates, andn/orn/xnor, rev8; pack, packh, packw, brev8 */
    ISA_EXT_ZBKC = 1 << 10,   /* clmul, clmulh (Zbc's) */
    ISA_EXT_ZBKX = 1 << 11,   /* xperm4, xperm8 */
    ISA_EXT_ZKND = 1 << 12,   /* aes64ds(m), aes64im; aes64ks1i/ks2 with Zkne */
    ISA_EXT_ZKNE = 1 << 13,   /* aes64es(m); aes64ks1i/ks2 with Zknd */
    ISA_EXT_ZKNH = 1 << 14,   /* sha256sig/sum, sha512sig/sum */
    ISA_EXT_ZKSED = 1 << 15,  /* sm4ed, sm4ks */
    ISA_EXT_ZKSH = 1 << 16,   /* sm3p0, sm3p1 */
    ISA_EXT_ZFHMIN = 1 << 17, /* Zfh's flh, fsh, fmv.x.h, fmv.h.x and the conversions between h and s/d */
    ISA_EXT_BITMANIP = ISA_EXT_ZBA | ISA_EXT_ZBB | ISA_EXT_ZBC | ISA_EXT_ZBS,
    ISA_EXT_CRYPTO = ISA_EXT_ZBKB | ISA_EXT_ZBKC | ISA_EXT_ZBKX | ISA_EXT_ZKND | ISA_EXT_ZKNE | ISA_EXT_ZKNH |
        ISA_EXT_ZKSED | ISA_EXT_ZKSH,
    ISA_EXT_ALL = ISA_EXT_C | ISA_EXT_BITMANIP | ISA_EXT_ZFH | ISA_EXT_ZICOND | ISA_EXT_ZFA | ISA_EXT_ZCB |
        ISA_EXT_CRYPTO | ISA_EXT_ZFHMIN
};

/* Whether a 16-bit encoding is one of Zcb's (c.lbu … c.mul): they decode to the 32-bit
 * instruction the spec expands them to, whose op is RV64GC's or Zba's/Zbb's. */
bool isa_is_zcb(uint16_t low16);

/* The ISA_EXT_* bits of the extensions that provide an op (any one of them enables it:
 * rol is Zbb's and Zbkb's, flh Zfh's and Zfhmin's); 0 for RV64G's own. */
unsigned isa_extension_of(isa_op op);

/* The ISA_EXT_* extensions an ISA string names ("rv64imafdc",
 * "rv64i2p1_m2p0_c2p0_zba1p0_zbb1p0", as in Tag_RISCV_arch and $x<isa>
 * mapping symbols). A string that is not rv32/rv64 gives objdump's default,
 * rv64gc: ISA_EXT_C. */
unsigned isa_extensions_of_string(const char *isa, size_t len);

/* Zfa's fli constant number `index` (0..31, the spec's table; 1 is the minimum
 * normal of single precision here, each format's own in the emulator). */
double isa_fli_value(unsigned index);

/* The table row of an op; op must be < ISA_OP_COUNT. */
const isa_info *isa_info_of(isa_op op);

const char *isa_op_name(isa_op op);
const char *isa_class_name(op_class cls);

/* The µop view of an instruction's registers: up to 3 sources and 1 destination
 * in the unified numbering (x1..x31 = 1..31, f0..f31 = 32..63), x0 dropped,
 * unused slots ISA_REG_NONE. Sources are packed to the front. */
typedef struct isa_regs {
    uint8_t src[3];
    uint8_t dst;
} isa_regs;
void isa_regs_of(const isa_insn *insn, isa_regs *out);

/* ABI name of a register in the unified numbering ("zero", "ra", "a0", "fa0"). */
const char *isa_reg_name(unsigned reg);

/* Disassemble in riscv64-linux-gnu-objdump -d syntax (mnemonic, a tab,
 * operands; aliases such as li, mv, ret, j, beqz as objdump prints them).
 * `pc` resolves pc-relative targets. Writes at most `size` bytes; returns the
 * length the full text would have (snprintf convention). */
int isa_disasm(const isa_insn *insn, uint64_t pc, char *buf, size_t size);

/* The privileged-spec versions objdump knows: CSRs were added, renamed and
 * removed between them, and it names a CSR by the version the program's ELF
 * attributes give (Tag_RISCV_priv_spec, _minor, _revision). isa_disasm uses
 * 1.11, the version the toolchain records in compiled programs. */
typedef enum isa_priv_spec { ISA_PRIV_1_9_1, ISA_PRIV_1_10, ISA_PRIV_1_11, ISA_PRIV_1_12 } isa_priv_spec;
/* objdump 2.40's choice: a version it knows as given, anything else (no
 * attribute, 0.0.0, 1.13) its latest, 1.12. */
isa_priv_spec isa_priv_spec_from_attributes(unsigned major, unsigned minor, unsigned revision);
/* As isa_disasm, naming CSRs by `spec`, and with only the bit-manipulation
 * extensions in `extensions` (ISA_EXT_*) known: an instruction of another one
 * is printed as objdump prints it then, `.4byte 0x…`. isa_disasm knows all. */
int isa_disasm_spec(const isa_insn *insn, uint64_t pc, isa_priv_spec spec, unsigned extensions, char *buf, size_t size);

#endif
