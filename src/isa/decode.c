/* RV64GC decoding: the table lookup, immediate extraction, compressed
 * expansion, and the operand refinement that makes calls, returns and nops
 * visible to timing models. */
#include "isa.h"

#include <pthread.h>
#include <string.h>

static const isa_info isa_table[ISA_OP_COUNT] = {
    [ISA_OP_ILLEGAL] = {"illegal", 0, 0, ISA_FMT_NONE, OPC_SYSTEM, 0, 0, 0},
#define ISA_INSN(id, nm, mt, mk, fmt, cls, fpops, opnds, mem) [ISA_OP_##id] = {nm, mt, mk, fmt, cls, fpops, opnds, mem},
#include "isa_table.h"
#undef ISA_INSN
};

static const char *const class_names[OPC_COUNT] = {
#define ISA_CLASS_NAME(id, name) name,
    ISA_OP_CLASS_LIST(ISA_CLASS_NAME)
#undef ISA_CLASS_NAME
};

const isa_info *isa_info_of(isa_op op) { return &isa_table[op < ISA_OP_COUNT ? op : 0]; }

unsigned isa_extension_of(isa_op op) {
    switch (op) { /* the ones two extensions share (scalar cryptography 1.0.1, Zbkb, Zbkc; Zfh's Zfhmin) */
    case ISA_OP_ANDN:
    case ISA_OP_ORN:
    case ISA_OP_XNOR:
    case ISA_OP_ROL:
    case ISA_OP_ROLW:
    case ISA_OP_ROR:
    case ISA_OP_RORW:
    case ISA_OP_RORI:
    case ISA_OP_RORIW:
    case ISA_OP_REV8: return ISA_EXT_ZBB | ISA_EXT_ZBKB;
    case ISA_OP_CLMUL:
    case ISA_OP_CLMULH: return ISA_EXT_ZBC | ISA_EXT_ZBKC;
    case ISA_OP_FLH:
    case ISA_OP_FSH:
    case ISA_OP_FMV_X_H:
    case ISA_OP_FMV_H_X:
    case ISA_OP_FCVT_S_H:
    case ISA_OP_FCVT_H_S:
    case ISA_OP_FCVT_D_H:
    case ISA_OP_FCVT_H_D: return ISA_EXT_ZFH | ISA_EXT_ZFHMIN;
    case ISA_OP_AES64KS1I:
    case ISA_OP_AES64KS2: return ISA_EXT_ZKND | ISA_EXT_ZKNE;
    default: break;
    }
    if (op >= ISA_OP_SH1ADD && op <= ISA_OP_SLLI_UW) return ISA_EXT_ZBA;
    if (op >= ISA_OP_ANDN && op <= ISA_OP_REV8) return ISA_EXT_ZBB;
    if (op >= ISA_OP_CLMUL && op <= ISA_OP_CLMULR) return ISA_EXT_ZBC;
    if (op >= ISA_OP_BCLR && op <= ISA_OP_BSETI) return ISA_EXT_ZBS;
    if (op >= ISA_OP_FLH && op <= ISA_OP_FMV_H_X) return ISA_EXT_ZFH;
    if (op >= ISA_OP_PACK && op <= ISA_OP_BREV8) return ISA_EXT_ZBKB;
    if (op >= ISA_OP_XPERM4 && op <= ISA_OP_XPERM8) return ISA_EXT_ZBKX;
    if (op >= ISA_OP_AES64DS && op <= ISA_OP_AES64IM) return ISA_EXT_ZKND;
    if (op >= ISA_OP_AES64ES && op <= ISA_OP_AES64ESM) return ISA_EXT_ZKNE;
    if (op >= ISA_OP_SHA256SIG0 && op <= ISA_OP_SHA512SUM1) return ISA_EXT_ZKNH;
    if (op >= ISA_OP_SM4ED && op <= ISA_OP_SM4KS) return ISA_EXT_ZKSED;
    if (op >= ISA_OP_SM3P0 && op <= ISA_OP_SM3P1) return ISA_EXT_ZKSH;
    if (op >= ISA_OP_CZERO_EQZ && op <= ISA_OP_CZERO_NEZ) return ISA_EXT_ZICOND;
    if (op >= ISA_OP_FLI_S && op <= ISA_OP_FLTQ_H) return ISA_EXT_ZFA;
    return 0;
}

/* In the first part of the string every letter is a single-letter extension
 * (a 'p' between digits separates versions; 'g' implies no C); each later
 * part, after a '_', is one extension, its name the letters before its version. */
unsigned isa_extensions_of_string(const char *isa, size_t len) {
    static const struct {
        const char *name;
        unsigned bit;
    } named[] = {
        {"c", ISA_EXT_C},
        {"zba", ISA_EXT_ZBA},
        {"zbb", ISA_EXT_ZBB},
        {"zbc", ISA_EXT_ZBC},
        {"zbs", ISA_EXT_ZBS},
        {"zfh", ISA_EXT_ZFH},
        {"zfhmin", ISA_EXT_ZFHMIN},
        {"zicond", ISA_EXT_ZICOND},
        {"zfa", ISA_EXT_ZFA},
        {"zcb", ISA_EXT_ZCB},
        {"zbkb", ISA_EXT_ZBKB},
        {"zbkc", ISA_EXT_ZBKC},
        {"zbkx", ISA_EXT_ZBKX},
        {"zknd", ISA_EXT_ZKND},
        {"zkne", ISA_EXT_ZKNE},
        {"zknh", ISA_EXT_ZKNH},
        {"zksed", ISA_EXT_ZKSED},
        {"zksh", ISA_EXT_ZKSH},
        /* the shorthands (scalar cryptography 1.0.1, §2.14-2.17); the toolchain writes their
         * parts too, but a hand-written $x<isa> need not */
        {"zkn", ISA_EXT_ZBKB | ISA_EXT_ZBKC | ISA_EXT_ZBKX | ISA_EXT_ZKND | ISA_EXT_ZKNE | ISA_EXT_ZKNH},
        {"zks", ISA_EXT_ZBKB | ISA_EXT_ZBKC | ISA_EXT_ZBKX | ISA_EXT_ZKSED | ISA_EXT_ZKSH},
        {"zk", ISA_EXT_ZBKB | ISA_EXT_ZBKC | ISA_EXT_ZBKX | ISA_EXT_ZKND | ISA_EXT_ZKNE | ISA_EXT_ZKNH},
    };
    if (len < 4 || (strncmp(isa, "rv64", 4) && strncmp(isa, "rv32", 4))) return ISA_EXT_C; /* unknown: rv64gc */
    unsigned found = 0;
    size_t i = 4;
    for (; i < len && isa[i] != '_'; i++)
        if (isa[i] == 'c') found |= ISA_EXT_C;
    while (i < len) { /* at '_' */
        size_t start = ++i, n = 0;
        while (i < len && isa[i] != '_') i++;
        while (start + n < i && !(isa[start + n] >= '0' && isa[start + n] <= '9')) n++;
        for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
            if (strlen(named[k].name) == n && !strncmp(named[k].name, isa + start, n)) found |= named[k].bit;
    }
    return found;
}

double isa_fli_value(unsigned index) {
    /* Zfa 1.0, the table of fli's immediates: entry 1 is the format's minimum positive
     * normal, 30 +inf, 31 the canonical NaN */
    static const double values[32] = {-1.0, 0x1p-126, 0x1p-16, 0x1p-15, 0x1p-8, 0x1p-7, 0.0625, 0.125,
                                      0.25, 0.3125,   0.375,   0.4375,  0.5,    0.625,  0.75,   0.875,
                                      1.0,  1.25,     1.5,     1.75,    2.0,    2.5,    3.0,    4.0,
                                      8.0,  16.0,     128.0,   256.0,   0x1p15, 0x1p16, 0.0,    0.0};
    if (index == 30) return __builtin_inf();
    if (index == 31) return __builtin_nan("");
    return values[index & 31];
}

const char *isa_op_name(isa_op op) { return isa_info_of(op)->name; }

const char *isa_class_name(op_class cls) { return cls < OPC_COUNT ? class_names[cls] : "?"; }

static const char *const reg_names[ISA_REG_COUNT] = {
    "zero", "ra",  "sp",  "gp",  "tp",  "t0",  "t1",   "t2",   "s0",  "s1",  "a0",   "a1",  "a2",
    "a3",   "a4",  "a5",  "a6",  "a7",  "s2",  "s3",   "s4",   "s5",  "s6",  "s7",   "s8",  "s9",
    "s10",  "s11", "t3",  "t4",  "t5",  "t6",  "ft0",  "ft1",  "ft2", "ft3", "ft4",  "ft5", "ft6",
    "ft7",  "fs0", "fs1", "fa0", "fa1", "fa2", "fa3",  "fa4",  "fa5", "fa6", "fa7",  "fs2", "fs3",
    "fs4",  "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};

const char *isa_reg_name(unsigned reg) { return reg < ISA_REG_COUNT ? reg_names[reg] : "?"; }

/* ---- immediates ------------------------------------------------------------ */

static inline uint32_t bits(uint32_t x, unsigned hi, unsigned lo) { return (x >> lo) & ((1u << (hi - lo + 1)) - 1); }

static inline int64_t sext(uint64_t x, unsigned width) {
    uint64_t m = 1ull << (width - 1);
    x &= (width == 64) ? ~0ull : ((1ull << width) - 1);
    return (int64_t)((x ^ m) - m);
}

static int64_t imm_i(uint32_t e) { return sext(e >> 20, 12); }
static int64_t imm_s(uint32_t e) { return sext((bits(e, 31, 25) << 5) | bits(e, 11, 7), 12); }
static int64_t imm_b(uint32_t e) {
    return sext((bits(e, 31, 31) << 12) | (bits(e, 7, 7) << 11) | (bits(e, 30, 25) << 5) | (bits(e, 11, 8) << 1), 13);
}
static int64_t imm_u(uint32_t e) { return sext(e & 0xfffff000u, 32); }
static int64_t imm_j(uint32_t e) {
    return sext((bits(e, 31, 31) << 20) | (bits(e, 19, 12) << 12) | (bits(e, 20, 20) << 11) | (bits(e, 30, 21) << 1),
                21);
}

/* ---- table lookup ------------------------------------------------------------ */

/* Candidates per major opcode (bits 6:0), built on first use. The decode
 * result is cached by the emulator, so a short linear scan is enough. */
enum { MAX_PER_OPCODE = 128 }; /* OP-FP (0x53) alone has 102 rows (F, D, Zfh, Zfa) */
static uint16_t by_opcode[128][MAX_PER_OPCODE];
static uint8_t by_opcode_count[128];
static pthread_once_t by_opcode_once = PTHREAD_ONCE_INIT;

static void build_index(void) {
    for (unsigned op = 1; op < ISA_OP_COUNT; op++) {
        unsigned major = isa_table[op].match & 0x7f;
        by_opcode[major][by_opcode_count[major]++] = (uint16_t)op;
    }
}

static isa_op lookup32(uint32_t e) {
    pthread_once(&by_opcode_once, build_index);
    unsigned major = e & 0x7f;
    for (unsigned i = 0; i < by_opcode_count[major]; i++) {
        const isa_info *info = &isa_table[by_opcode[major][i]];
        if ((e & info->mask) == info->match) return (isa_op)by_opcode[major][i];
    }
    return ISA_OP_ILLEGAL;
}

/* ---- compressed expansion (RVC, unprivileged spec chapter 16, RV64) --------------- */

static uint32_t enc_r(uint32_t opc, unsigned rd, unsigned f3, unsigned rs1, unsigned rs2, unsigned f7) {
    return opc | (rd << 7) | (f3 << 12) | (rs1 << 15) | (rs2 << 20) | (f7 << 25);
}
static uint32_t enc_i(uint32_t opc, unsigned rd, unsigned f3, unsigned rs1, int32_t imm) {
    return opc | (rd << 7) | (f3 << 12) | (rs1 << 15) | ((uint32_t)imm << 20);
}
static uint32_t enc_s(uint32_t opc, unsigned f3, unsigned rs1, unsigned rs2, int32_t imm) {
    uint32_t u = (uint32_t)imm;
    return opc | ((u & 0x1f) << 7) | (f3 << 12) | (rs1 << 15) | (rs2 << 20) | (((u >> 5) & 0x7f) << 25);
}
static uint32_t enc_b(unsigned f3, unsigned rs1, unsigned rs2, int32_t imm) {
    uint32_t u = (uint32_t)imm;
    return 0x63 | (((u >> 11) & 1) << 7) | (((u >> 1) & 0xf) << 8) | (f3 << 12) | (rs1 << 15) | (rs2 << 20) |
        (((u >> 5) & 0x3f) << 25) | (((u >> 12) & 1) << 31);
}
static uint32_t enc_j(unsigned rd, int32_t imm) {
    uint32_t u = (uint32_t)imm;
    return 0x6f | (rd << 7) | (((u >> 12) & 0xff) << 12) | (((u >> 11) & 1) << 20) | (((u >> 1) & 0x3ff) << 21) |
        (((u >> 20) & 1) << 31);
}

/* Returns the 32-bit equivalent, or 0 for a reserved/illegal compressed encoding. */
static uint32_t expand_compressed(uint16_t c) {
    unsigned quadrant = c & 3, funct3 = bits(c, 15, 13);
    unsigned rd = bits(c, 11, 7), rs2 = bits(c, 6, 2);
    unsigned rdp = bits(c, 4, 2) + 8, rs1p = bits(c, 9, 7) + 8;
    int32_t imm6 = (int32_t)sext((bits(c, 12, 12) << 5) | bits(c, 6, 2), 6);
    unsigned shamt = (bits(c, 12, 12) << 5) | bits(c, 6, 2);
    /* offsets of the register-based loads/stores */
    unsigned off_w = (bits(c, 12, 10) << 3) | (bits(c, 6, 6) << 2) | (bits(c, 5, 5) << 6);
    unsigned off_d = (bits(c, 12, 10) << 3) | (bits(c, 6, 5) << 6);

    if (c == 0) return 0; /* defined illegal */
    switch (quadrant) {
    case 0:
        switch (funct3) {
        case 0: { /* c.addi4spn */
            unsigned nzuimm =
                (bits(c, 12, 11) << 4) | (bits(c, 10, 7) << 6) | (bits(c, 6, 6) << 2) | (bits(c, 5, 5) << 3);
            if (nzuimm == 0) return 0;
            return enc_i(0x13, rdp, 0, 2, (int32_t)nzuimm);
        }
        case 1: return enc_i(0x07, rdp, 3, rs1p, (int32_t)off_d); /* c.fld */
        case 2: return enc_i(0x03, rdp, 2, rs1p, (int32_t)off_w); /* c.lw */
        case 3: return enc_i(0x03, rdp, 3, rs1p, (int32_t)off_d); /* c.ld */
        case 4: { /* Zcb byte/halfword loads and stores: uimm[1] in bit 5, uimm[0] in bit 6 */
            unsigned uimm_b = (bits(c, 5, 5) << 1) | bits(c, 6, 6), uimm_h = bits(c, 5, 5) << 1;
            switch (bits(c, 12, 10)) {
            case 0: return enc_i(0x03, rdp, 4, rs1p, (int32_t)uimm_b); /* c.lbu */
            case 1: /* c.lhu, c.lh */ return enc_i(0x03, rdp, bits(c, 6, 6) ? 1 : 5, rs1p, (int32_t)uimm_h);
            case 2: return enc_s(0x23, 0, rs1p, rdp, (int32_t)uimm_b); /* c.sb */
            case 3:                                                    /* c.sh; bit 6 set is reserved */
                if (bits(c, 6, 6)) return 0;
                return enc_s(0x23, 1, rs1p, rdp, (int32_t)uimm_h);
            default: return 0;
            }
        }
        case 5: return enc_s(0x27, 3, rs1p, rdp, (int32_t)off_d); /* c.fsd */
        case 6: return enc_s(0x23, 2, rs1p, rdp, (int32_t)off_w); /* c.sw */
        case 7: return enc_s(0x23, 3, rs1p, rdp, (int32_t)off_d); /* c.sd */
        default: return 0;
        }
    case 1:
        switch (funct3) {
        case 0: return enc_i(0x13, rd, 0, rd, imm6); /* c.addi, c.nop */
        case 1:                                      /* c.addiw */
            if (rd == 0) return 0;
            return enc_i(0x1b, rd, 0, rd, imm6);
        case 2: return enc_i(0x13, rd, 0, 0, imm6); /* c.li */
        case 3:
            if (rd == 2) { /* c.addi16sp */
                int32_t nzimm = (int32_t)sext((bits(c, 12, 12) << 9) | (bits(c, 6, 6) << 4) | (bits(c, 5, 5) << 6) |
                                                  (bits(c, 4, 3) << 7) | (bits(c, 2, 2) << 5),
                                              10);
                if (nzimm == 0) return 0;
                return enc_i(0x13, 2, 0, 2, nzimm);
            } else { /* c.lui */
                if (imm6 == 0) return 0;
                return 0x37 | (rd << 7) | (((uint32_t)imm6 & 0xfffff) << 12);
            }
        case 4: {
            unsigned funct2 = bits(c, 11, 10);
            if (funct2 == 0) return enc_i(0x13, rs1p, 5, rs1p, (int32_t)shamt);           /* c.srli */
            if (funct2 == 1) return enc_i(0x13, rs1p, 5, rs1p, (int32_t)(shamt | 0x400)); /* c.srai */
            if (funct2 == 2) return enc_i(0x13, rs1p, 7, rs1p, imm6);                     /* c.andi */
            unsigned op2 = bits(c, 6, 5);
            if (bits(c, 12, 12) == 0) {
                static const unsigned f3[4] = {0, 4, 6, 7}; /* sub xor or and */
                return enc_r(0x33, rs1p, f3[op2], rs1p, rdp, op2 == 0 ? 0x20 : 0);
            }
            if (op2 == 0) return enc_r(0x3b, rs1p, 0, rs1p, rdp, 0x20); /* c.subw */
            if (op2 == 1) return enc_r(0x3b, rs1p, 0, rs1p, rdp, 0);    /* c.addw */
            if (bits(c, 11, 10) != 3) return 0;
            if (op2 == 2) return enc_r(0x33, rs1p, 0, rs1p, rdp, 0x01); /* Zcb c.mul */
            switch (bits(c, 4, 2)) {                            /* Zcb: the spec's expansions of the unary ops */
            case 0: return enc_i(0x13, rs1p, 7, rs1p, 0xff);    /* c.zext.b: andi rd,rd,255 */
            case 1: return enc_i(0x13, rs1p, 1, rs1p, 0x604);   /* c.sext.b: sext.b (Zbb) */
            case 2: return enc_r(0x3b, rs1p, 4, rs1p, 0, 0x04); /* c.zext.h: zext.h (Zbb) */
            case 3: return enc_i(0x13, rs1p, 1, rs1p, 0x605);   /* c.sext.h: sext.h (Zbb) */
            case 4: return enc_r(0x3b, rs1p, 0, rs1p, 0, 0x04); /* c.zext.w: add.uw rd,rd,zero (Zba) */
            case 5: return enc_i(0x13, rs1p, 4, rs1p, -1);      /* c.not: xori rd,rd,-1 */
            default: return 0;
            }
        }
        case 5: { /* c.j */
            int32_t off = (int32_t)sext((bits(c, 12, 12) << 11) | (bits(c, 11, 11) << 4) | (bits(c, 10, 9) << 8) |
                                            (bits(c, 8, 8) << 10) | (bits(c, 7, 7) << 6) | (bits(c, 6, 6) << 7) |
                                            (bits(c, 5, 3) << 1) | (bits(c, 2, 2) << 5),
                                        12);
            return enc_j(0, off);
        }
        default: { /* 6: c.beqz, 7: c.bnez */
            int32_t off = (int32_t)sext((bits(c, 12, 12) << 8) | (bits(c, 11, 10) << 3) | (bits(c, 6, 5) << 6) |
                                            (bits(c, 4, 3) << 1) | (bits(c, 2, 2) << 5),
                                        9);
            return enc_b(funct3 == 6 ? 0 : 1, rs1p, 0, off);
        }
        }
    case 2:
        switch (funct3) {
        case 0: return enc_i(0x13, rd, 1, rd, (int32_t)shamt); /* c.slli */
        case 1: {                                              /* c.fldsp */
            unsigned off = (bits(c, 12, 12) << 5) | (bits(c, 6, 5) << 3) | (bits(c, 4, 2) << 6);
            return enc_i(0x07, rd, 3, 2, (int32_t)off);
        }
        case 2: { /* c.lwsp */
            unsigned off = (bits(c, 12, 12) << 5) | (bits(c, 6, 4) << 2) | (bits(c, 3, 2) << 6);
            if (rd == 0) return 0;
            return enc_i(0x03, rd, 2, 2, (int32_t)off);
        }
        case 3: { /* c.ldsp */
            unsigned off = (bits(c, 12, 12) << 5) | (bits(c, 6, 5) << 3) | (bits(c, 4, 2) << 6);
            if (rd == 0) return 0;
            return enc_i(0x03, rd, 3, 2, (int32_t)off);
        }
        case 4:
            if (bits(c, 12, 12) == 0) {
                if (rs2 == 0) { /* c.jr */
                    if (rd == 0) return 0;
                    return enc_i(0x67, 0, 0, rd, 0);
                }
                return enc_r(0x33, rd, 0, 0, rs2, 0); /* c.mv */
            }
            if (rs2 == 0) {
                if (rd == 0) return 0x00100073;  /* c.ebreak */
                return enc_i(0x67, 1, 0, rd, 0); /* c.jalr */
            }
            return enc_r(0x33, rd, 0, rd, rs2, 0); /* c.add */
        case 5: {                                  /* c.fsdsp */
            unsigned off = (bits(c, 12, 10) << 3) | (bits(c, 9, 7) << 6);
            return enc_s(0x27, 3, 2, rs2, (int32_t)off);
        }
        case 6: { /* c.swsp */
            unsigned off = (bits(c, 12, 9) << 2) | (bits(c, 8, 7) << 6);
            return enc_s(0x23, 2, 2, rs2, (int32_t)off);
        }
        default: { /* c.sdsp */
            unsigned off = (bits(c, 12, 10) << 3) | (bits(c, 9, 7) << 6);
            return enc_s(0x23, 3, 2, rs2, (int32_t)off);
        }
        }
    default: return 0;
    }
}

/* ---- decode --------------------------------------------------------------------------- */

static bool is_link(unsigned r) { return r == 1 || r == 5; }

/* Refine the table's class from the operands: return-address-stack hints of
 * the unprivileged spec, Table 2.1 (jalr) and §2.5 (jal); nop idioms. */
static uint8_t refine_class(const isa_insn *d, uint8_t cls) {
    switch (d->op) {
    case ISA_OP_JAL: return is_link(d->rd) ? OPC_CALL : OPC_JUMP;
    case ISA_OP_JALR:
        if (is_link(d->rd)) return OPC_CALL;
        if (is_link(d->rs1)) return OPC_RETURN;
        return OPC_JUMP_INDIRECT;
    case ISA_OP_ADDI: return (d->rd == 0 && d->rs1 == 0 && d->imm == 0) ? OPC_NOP : cls;
    default: return cls;
    }
}

bool isa_is_zcb(uint16_t c) {
    if ((c & 3) == 0) return bits(c, 15, 13) == 4 && bits(c, 12, 10) <= 3;
    return (c & 3) == 1 && bits(c, 15, 10) == 0x27 && bits(c, 6, 5) >= 2;
}

bool isa_decode(uint32_t raw, isa_insn *out) {
    memset(out, 0, sizeof *out);
    uint32_t e = raw;
    unsigned len = isa_length((uint16_t)raw);
    if (len == 2) {
        out->raw = raw & 0xffff;
        e = expand_compressed((uint16_t)raw);
        if (e == 0) {
            out->length = 2;
            return false;
        }
    } else if (len == 4) {
        out->raw = raw;
    } else {
        out->raw = raw;
        out->length = 4;
        return false;
    }
    out->length = (uint8_t)len;

    isa_op op = lookup32(e);
    if (op == ISA_OP_ILLEGAL) return false;
    const isa_info *info = &isa_table[op];
    out->op = (uint16_t)op;
    out->rd = (uint8_t)bits(e, 11, 7);
    out->rs1 = (uint8_t)bits(e, 19, 15);
    out->rs2 = (uint8_t)bits(e, 24, 20);
    out->rs3 = (uint8_t)bits(e, 31, 27);
    out->rm = (uint8_t)bits(e, 14, 12);
    out->fp_ops = info->fp_ops;
    switch ((isa_format)info->format) {
    case ISA_FMT_I: out->imm = imm_i(e); break;
    case ISA_FMT_SH6: out->imm = bits(e, 25, 20); break;
    case ISA_FMT_SH5: out->imm = bits(e, 24, 20); break;
    case ISA_FMT_S: out->imm = imm_s(e); break;
    case ISA_FMT_B: out->imm = imm_b(e); break;
    case ISA_FMT_U: out->imm = imm_u(e); break;
    case ISA_FMT_J: out->imm = imm_j(e); break;
    case ISA_FMT_CSR:
    case ISA_FMT_CSRI: out->imm = bits(e, 31, 20); break;
    case ISA_FMT_AMO: out->rm = (uint8_t)bits(e, 26, 25); break;
    case ISA_FMT_FENCE: out->imm = bits(e, 31, 20); break;
    case ISA_FMT_R:
        /* Zfa's fli: the rs1 field is the index of the constant, not a register */
        if (op == ISA_OP_FLI_S || op == ISA_OP_FLI_D || op == ISA_OP_FLI_H) out->imm = bits(e, 19, 15);
        /* sm4ed/sm4ks: the byte select; aes64ks1i: the round number, 0xb-0xf reserved */
        if (op == ISA_OP_SM4ED || op == ISA_OP_SM4KS) out->imm = bits(e, 31, 30);
        if (op == ISA_OP_AES64KS1I) {
            out->imm = bits(e, 23, 20);
            if (out->imm > 10) {
                out->op = ISA_OP_ILLEGAL;
                return false;
            }
        }
        break;
    case ISA_FMT_R4:
    case ISA_FMT_NONE: break;
    }
    /* Unused register fields read as 0 so consumers need not consult the table. */
    if (!(info->operands & (ISA_RD_X | ISA_RD_F))) out->rd = 0;
    if (!(info->operands & (ISA_RS1_X | ISA_RS1_F)) && info->format != ISA_FMT_CSRI) out->rs1 = 0;
    if (!(info->operands & (ISA_RS2_X | ISA_RS2_F))) out->rs2 = 0;
    if (!(info->operands & ISA_RS3_F)) out->rs3 = 0;
    /* FP rounding modes 5 and 6 are reserved (spec §11.2): illegal at decode. */
    if ((info->format == ISA_FMT_R || info->format == ISA_FMT_R4) && (info->mask & 0x7000) == 0 &&
        info->op_class >= OPC_FP_ADD && info->op_class <= OPC_FP_MISC && (out->rm == 5 || out->rm == 6)) {
        out->op = ISA_OP_ILLEGAL;
        return false;
    }
    out->op_class = refine_class(out, info->op_class);
    return true;
}

void isa_regs_of(const isa_insn *d, isa_regs *out) {
    const isa_info *info = isa_info_of((isa_op)d->op);
    unsigned n = 0, k = info->operands;
    out->src[0] = out->src[1] = out->src[2] = ISA_REG_NONE;
    out->dst = ISA_REG_NONE;
    if ((k & ISA_RS1_X) && d->rs1) out->src[n++] = d->rs1;
    if (k & ISA_RS1_F) out->src[n++] = (uint8_t)(ISA_REG_F0 + d->rs1);
    if ((k & ISA_RS2_X) && d->rs2) out->src[n++] = d->rs2;
    if (k & ISA_RS2_F) out->src[n++] = (uint8_t)(ISA_REG_F0 + d->rs2);
    if (k & ISA_RS3_F) out->src[n++] = (uint8_t)(ISA_REG_F0 + d->rs3);
    if ((k & ISA_RD_X) && d->rd) out->dst = d->rd;
    if (k & ISA_RD_F) out->dst = (uint8_t)(ISA_REG_F0 + d->rd);
}
