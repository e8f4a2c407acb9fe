/* RV64GC disassembly in the syntax of GNU objdump -d (binutils 2.40, default
 * options), so that traces read like the listings users already know and can
 * be diffed against objdump.
 *
 * The rules below (which aliases win, number bases, CSR names, how hints and
 * unknown encodings are shown) were worked out by running objdump over every
 * 16-bit encoding and over random fills of every 32-bit table row, and are
 * checked against it by tests/tools/disasm_check.c. */
#include "isa.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

/* ---- output ------------------------------------------------------------------ */

/* An snprintf-style sink: keeps counting past the end of the buffer so the
 * caller learns the full length. */
typedef struct text {
    char *buf;
    size_t size;
    size_t len;
    isa_priv_spec spec;  /* whose CSR names to print */
    unsigned extensions; /* ISA_EXT_*: the ones objdump would know here */
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    bool room = t->len < t->size;
    int n = vsnprintf(room ? t->buf + t->len : NULL, room ? t->size - t->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0) t->len += (size_t)n;
}

static const char *xreg(unsigned n) { return isa_reg_name(n & 31); }
static const char *freg(unsigned n) { return isa_reg_name(ISA_REG_F0 + (n & 31)); }

/* ---- CSR names --------------------------------------------------------------- */

/* The CSR names objdump 2.40 prints under every privileged spec it knows
 * (1.9.1 to 1.12; it knows the hypervisor, vector and debug CSRs too,
 * including the RV32-only "h" halves); names that came, went or changed
 * between those versions are in csr_by_spec, numbered families in
 * csr_families; any other number is printed in hex. Sorted by number. */
typedef struct csr_name {
    uint16_t number;
    const char *name;
} csr_name;

static const csr_name csr_names[] = {
    {0x001, "fflags"},     {0x002, "frm"},         {0x003, "fcsr"},       {0x008, "vstart"},     {0x009, "vxsat"},
    {0x00a, "vxrm"},       {0x00f, "vcsr"},        {0x015, "seed"},       {0x100, "sstatus"},    {0x104, "sie"},
    {0x105, "stvec"},      {0x10c, "sstateen0"},   {0x10d, "sstateen1"},  {0x10e, "sstateen2"},  {0x10f, "sstateen3"},
    {0x114, "sieh"},       {0x140, "sscratch"},    {0x141, "sepc"},       {0x142, "scause"},     {0x144, "sip"},
    {0x14d, "stimecmp"},   {0x150, "siselect"},    {0x151, "sireg"},      {0x154, "siph"},       {0x15c, "stopei"},
    {0x15d, "stimecmph"},  {0x200, "vsstatus"},    {0x204, "vsie"},       {0x205, "vstvec"},     {0x214, "vsieh"},
    {0x240, "vsscratch"},  {0x241, "vsepc"},       {0x242, "vscause"},    {0x243, "vstval"},     {0x244, "vsip"},
    {0x24d, "vstimecmp"},  {0x250, "vsiselect"},   {0x251, "vsireg"},     {0x254, "vsiph"},      {0x25c, "vstopei"},
    {0x25d, "vstimecmph"}, {0x280, "vsatp"},       {0x300, "mstatus"},    {0x301, "misa"},       {0x302, "medeleg"},
    {0x303, "mideleg"},    {0x304, "mie"},         {0x305, "mtvec"},      {0x308, "mvien"},      {0x309, "mvip"},
    {0x30c, "mstateen0"},  {0x30d, "mstateen1"},   {0x30e, "mstateen2"},  {0x30f, "mstateen3"},  {0x313, "midelegh"},
    {0x314, "mieh"},       {0x318, "mvienh"},      {0x319, "mviph"},      {0x31c, "mstateen0h"}, {0x31d, "mstateen1h"},
    {0x31e, "mstateen2h"}, {0x31f, "mstateen3h"},  {0x340, "mscratch"},   {0x341, "mepc"},       {0x342, "mcause"},
    {0x344, "mip"},        {0x350, "miselect"},    {0x351, "mireg"},      {0x354, "miph"},       {0x35c, "mtopei"},
    {0x5a8, "scontext"},   {0x600, "hstatus"},     {0x602, "hedeleg"},    {0x603, "hideleg"},    {0x604, "hie"},
    {0x605, "htimedelta"}, {0x606, "hcounteren"},  {0x607, "hgeie"},      {0x608, "hvien"},      {0x609, "hvictl"},
    {0x60a, "henvcfg"},    {0x60c, "hstateen0"},   {0x60d, "hstateen1"},  {0x60e, "hstateen2"},  {0x60f, "hstateen3"},
    {0x613, "hidelegh"},   {0x615, "htimedeltah"}, {0x618, "hvienh"},     {0x61a, "henvcfgh"},   {0x61c, "hstateen0h"},
    {0x61d, "hstateen1h"}, {0x61e, "hstateen2h"},  {0x61f, "hstateen3h"}, {0x643, "htval"},      {0x644, "hip"},
    {0x645, "hvip"},       {0x646, "hviprio1"},    {0x647, "hviprio2"},   {0x64a, "htinst"},     {0x655, "hviph"},
    {0x656, "hviprio1h"},  {0x657, "hviprio2h"},   {0x680, "hgatp"},      {0x6a8, "hcontext"},   {0x7a0, "tselect"},
    {0x7a1, "tdata1"},     {0x7a2, "tdata2"},      {0x7a3, "tdata3"},     {0x7a4, "tinfo"},      {0x7a5, "tcontrol"},
    {0x7a8, "mcontext"},   {0x7aa, "mscontext"},   {0x7b0, "dcsr"},       {0x7b1, "dpc"},        {0x7b2, "dscratch0"},
    {0x7b3, "dscratch1"},  {0xb00, "mcycle"},      {0xb02, "minstret"},   {0xb80, "mcycleh"},    {0xb82, "minstreth"},
    {0xc00, "cycle"},      {0xc01, "time"},        {0xc02, "instret"},    {0xc20, "vl"},         {0xc21, "vtype"},
    {0xc22, "vlenb"},      {0xc80, "cycleh"},      {0xc81, "timeh"},      {0xc82, "instreth"},   {0xda0, "scountovf"},
    {0xdb0, "stopi"},      {0xe12, "hgeip"},       {0xeb0, "vstopi"},     {0xf11, "mvendorid"},  {0xf12, "marchid"},
    {0xf13, "mimpid"},     {0xf14, "mhartid"},     {0xfb0, "mtopi"},
};

/* Names of one range of privileged specs, [since, until) (binutils
 * include/opcode/riscv-opc.h DECLARE_CSR define/abort versions; checked by
 * running objdump over all 4096 numbers under each spec). */
typedef struct csr_spec_name {
    uint16_t number;
    uint8_t since, until; /* isa_priv_spec values; until ISA_PRIV_NEVER: still named */
    const char *name;
} csr_spec_name;

#define ISA_PRIV_NEVER (ISA_PRIV_1_12 + 1)
static const csr_spec_name csr_by_spec[] = {
    {0x000, ISA_PRIV_1_9_1, ISA_PRIV_1_12, "ustatus"},       {0x004, ISA_PRIV_1_9_1, ISA_PRIV_1_12, "uie"},
    {0x005, ISA_PRIV_1_9_1, ISA_PRIV_1_12, "utvec"},         {0x040, ISA_PRIV_1_9_1, ISA_PRIV_1_12, "uscratch"},
    {0x041, ISA_PRIV_1_9_1, ISA_PRIV_1_12, "uepc"},          {0x042, ISA_PRIV_1_9_1, ISA_PRIV_1_12, "ucause"},
    {0x043, ISA_PRIV_1_9_1, ISA_PRIV_1_10, "ubadaddr"},      {0x043, ISA_PRIV_1_10, ISA_PRIV_1_12, "utval"},
    {0x044, ISA_PRIV_1_9_1, ISA_PRIV_1_12, "uip"},           {0x102, ISA_PRIV_1_9_1, ISA_PRIV_1_12, "sedeleg"},
    {0x103, ISA_PRIV_1_9_1, ISA_PRIV_1_12, "sideleg"},       {0x106, ISA_PRIV_1_10, ISA_PRIV_NEVER, "scounteren"},
    {0x10a, ISA_PRIV_1_12, ISA_PRIV_NEVER, "senvcfg"},       {0x143, ISA_PRIV_1_9_1, ISA_PRIV_1_10, "sbadaddr"},
    {0x143, ISA_PRIV_1_10, ISA_PRIV_NEVER, "stval"},         {0x180, ISA_PRIV_1_9_1, ISA_PRIV_1_10, "sptbr"},
    {0x180, ISA_PRIV_1_10, ISA_PRIV_NEVER, "satp"},          {0x306, ISA_PRIV_1_10, ISA_PRIV_NEVER, "mcounteren"},
    {0x30a, ISA_PRIV_1_12, ISA_PRIV_NEVER, "menvcfg"},       {0x310, ISA_PRIV_1_12, ISA_PRIV_NEVER, "mstatush"},
    {0x31a, ISA_PRIV_1_12, ISA_PRIV_NEVER, "menvcfgh"},      {0x320, ISA_PRIV_1_9_1, ISA_PRIV_1_10, "mucounteren"},
    {0x320, ISA_PRIV_1_11, ISA_PRIV_NEVER, "mcountinhibit"}, {0x321, ISA_PRIV_1_9_1, ISA_PRIV_1_10, "mscounteren"},
    {0x322, ISA_PRIV_1_9_1, ISA_PRIV_1_10, "mhcounteren"},   {0x343, ISA_PRIV_1_9_1, ISA_PRIV_1_10, "mbadaddr"},
    {0x343, ISA_PRIV_1_10, ISA_PRIV_NEVER, "mtval"},         {0x34a, ISA_PRIV_1_12, ISA_PRIV_NEVER, "mtinst"},
    {0x34b, ISA_PRIV_1_12, ISA_PRIV_NEVER, "mtval2"},        {0x380, ISA_PRIV_1_9_1, ISA_PRIV_1_10, "mbase"},
    {0x381, ISA_PRIV_1_9_1, ISA_PRIV_1_10, "mbound"},        {0x382, ISA_PRIV_1_9_1, ISA_PRIV_1_10, "mibase"},
    {0x383, ISA_PRIV_1_9_1, ISA_PRIV_1_10, "mibound"},       {0x384, ISA_PRIV_1_9_1, ISA_PRIV_1_10, "mdbase"},
    {0x385, ISA_PRIV_1_9_1, ISA_PRIV_1_10, "mdbound"},       {0x747, ISA_PRIV_1_12, ISA_PRIV_NEVER, "mseccfg"},
    {0x757, ISA_PRIV_1_12, ISA_PRIV_NEVER, "mseccfgh"},      {0xf15, ISA_PRIV_1_12, ISA_PRIV_NEVER, "mconfigptr"},
};

/* Families of numbered CSRs: `count` registers from `first`, named
 * prefix<index><suffix>, under the specs [since, until). */
typedef struct csr_family {
    uint16_t first, count;
    uint8_t first_index;
    const char *prefix, *suffix;
    uint8_t since, until;
} csr_family;

static const csr_family csr_families[] = {
    {0x323, 29, 3, "mhpmevent", "", ISA_PRIV_1_9_1, ISA_PRIV_NEVER},
    {0x723, 29, 3, "mhpmevent", "h", ISA_PRIV_1_9_1, ISA_PRIV_NEVER},
    {0xb03, 29, 3, "mhpmcounter", "", ISA_PRIV_1_9_1, ISA_PRIV_NEVER},
    {0xb83, 29, 3, "mhpmcounter", "h", ISA_PRIV_1_9_1, ISA_PRIV_NEVER},
    {0xc03, 29, 3, "hpmcounter", "", ISA_PRIV_1_9_1, ISA_PRIV_NEVER},
    {0xc83, 29, 3, "hpmcounter", "h", ISA_PRIV_1_9_1, ISA_PRIV_NEVER},
    {0x3a0, 4, 0, "pmpcfg", "", ISA_PRIV_1_10, ISA_PRIV_NEVER},
    {0x3a4, 12, 4, "pmpcfg", "", ISA_PRIV_1_12, ISA_PRIV_NEVER},
    {0x3b0, 16, 0, "pmpaddr", "", ISA_PRIV_1_10, ISA_PRIV_NEVER},
    {0x3c0, 48, 16, "pmpaddr", "", ISA_PRIV_1_12, ISA_PRIV_NEVER},
};

isa_priv_spec isa_priv_spec_from_attributes(unsigned major, unsigned minor, unsigned revision) {
    if (major == 1 && minor == 9 && revision == 1) return ISA_PRIV_1_9_1;
    if (major == 1 && minor == 10 && revision == 0) return ISA_PRIV_1_10;
    if (major == 1 && minor == 11 && revision == 0) return ISA_PRIV_1_11;
    return ISA_PRIV_1_12; /* 1.12, none given (0.0.0) or one objdump does not know: its latest */
}

static void put_csr(text *t, unsigned csr) {
    for (size_t i = 0; i < sizeof csr_by_spec / sizeof csr_by_spec[0]; i++) {
        const csr_spec_name *c = &csr_by_spec[i];
        if (c->number == csr && t->spec >= c->since && t->spec < c->until) {
            put(t, "%s", c->name);
            return;
        }
    }
    size_t lo = 0, hi = sizeof csr_names / sizeof csr_names[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (csr_names[mid].number == csr) {
            put(t, "%s", csr_names[mid].name);
            return;
        }
        if (csr_names[mid].number < csr) lo = mid + 1;
        else hi = mid;
    }
    for (size_t i = 0; i < sizeof csr_families / sizeof csr_families[0]; i++) {
        const csr_family *f = &csr_families[i];
        if (csr >= f->first && csr < (unsigned)f->first + f->count && t->spec >= f->since && t->spec < f->until) {
            put(t, "%s%u%s", f->prefix, f->first_index + (csr - f->first), f->suffix);
            return;
        }
    }
    put(t, "0x%x", csr);
}

/* ---- pieces ------------------------------------------------------------------- */

static const char *const rounding_mode_names[8] = {"rne", "rtz", "rdn", "rup", "rmm", "unknown", "unknown", "dyn"};

/* objdump leaves the default (dynamic) rounding mode implicit. */
static void put_rounding_mode(text *t, unsigned rm) {
    if (rm != ISA_RM_DYN) put(t, ",%s", rounding_mode_names[rm & 7]);
}

static void put_target(text *t, uint64_t pc, int64_t offset) { put(t, "%" PRIx64, pc + (uint64_t)offset); }

/* The fence predecessor/successor sets as "iorw" letters; objdump says
 * "unknown" for the empty set. */
static void put_fence_set(text *t, unsigned set) {
    if (set == 0) {
        put(t, "unknown");
        return;
    }
    static const char letters[4] = {'i', 'o', 'r', 'w'};
    for (unsigned bit = 0; bit < 4; bit++)
        if (set & (8u >> bit)) put(t, "%c", letters[bit]);
}

/* Does the op carry a rounding mode in funct3 (rather than a fixed funct3)? */
static bool has_rounding_mode(const isa_info *info) {
    return (info->format == ISA_FMT_R || info->format == ISA_FMT_R4) && (info->mask & 0x7000) == 0;
}

/* Is op known where `extensions` are: RV64GC's always, another when one of the extensions
 * that provide it is (rol by Zbb or Zbkb, flh by Zfh or Zfhmin). */
static bool extension_enabled(unsigned extensions, isa_op op) {
    unsigned providers = isa_extension_of(op);
    return providers == 0 || (providers & extensions) != 0;
}

static void put_unknown_word(text *t, const isa_insn *d) {
    if (d->length == 2) put(t, ".2byte\t0x%x", d->raw & 0xffff);
    else put(t, ".4byte\t0x%x", d->raw);
}

/* ---- aliases ------------------------------------------------------------------- */

/* objdump shows register-immediate ALU ops under the register-register name
 * ("add sp,sp,-16", "sll a0,a1,0x3"); slti and sltiu keep theirs. */
static const char *immediate_alu_name(isa_op op) {
    switch (op) {
    case ISA_OP_ADDI: return "add";
    case ISA_OP_ADDIW: return "addw";
    case ISA_OP_XORI: return "xor";
    case ISA_OP_ORI: return "or";
    case ISA_OP_ANDI: return "and";
    case ISA_OP_SLLI: return "sll";
    case ISA_OP_SRLI: return "srl";
    case ISA_OP_SRAI: return "sra";
    case ISA_OP_SLLIW: return "sllw";
    case ISA_OP_SRLIW: return "srlw";
    case ISA_OP_SRAIW: return "sraw";
    /* so do Zbb's rotates and Zbs's single-bit ops ("ror a0,a1,0x3", "bset a0,a1,0x0");
     * slli.uw keeps its name */
    case ISA_OP_RORI: return "ror";
    case ISA_OP_RORIW: return "rorw";
    case ISA_OP_BCLRI: return "bclr";
    case ISA_OP_BEXTI: return "bext";
    case ISA_OP_BINVI: return "binv";
    case ISA_OP_BSETI: return "bset";
    default: return isa_op_name(op);
    }
}

/* Compressed hints and edge encodings that objdump prints in their own
 * "c." syntax rather than as the 32-bit instruction they expand to. */
static bool put_compressed_special(text *t, const isa_insn *d) {
    unsigned c = d->raw & 0xffff;
    unsigned quadrant = c & 3, funct3 = c >> 13, rd = (c >> 7) & 31, rs2 = (c >> 2) & 31;
    unsigned shamt = (((c >> 12) & 1) << 5) | rs2;
    bool bit12 = (c >> 12) & 1;
    if (quadrant == 1 && funct3 == 0) { /* c.addi, c.nop */
        if (rd == 0 && d->imm != 0) put(t, "c.nop\t%" PRId64, d->imm);
        else if (rd != 0 && d->imm == 0) put(t, "add\t%s,%s,0", xreg(rd), xreg(rd));
        else return false;
        return true;
    }
    if (quadrant == 1 && funct3 == 2 && rd == 0) { /* c.li x0 */
        put(t, "c.li\tzero,%" PRId64, d->imm);
        return true;
    }
    if (quadrant == 1 && funct3 == 3 && rd == 0) { /* c.lui x0 */
        put(t, "c.lui\tzero,0x%" PRIx64, (uint64_t)d->imm >> 12 & 0xfffff);
        return true;
    }
    if (quadrant == 1 && funct3 == 4 && ((c >> 10) & 3) < 2 && shamt == 0) { /* c.srli/c.srai 0 */
        put(t, "%s\t%s", ((c >> 10) & 1) ? "c.srai64" : "c.srli64", xreg(d->rd));
        return true;
    }
    if (quadrant == 2 && funct3 == 0) { /* c.slli */
        if (shamt == 0) put(t, "c.slli64\t%s", xreg(rd));
        else if (rd == 0) put(t, "c.slli\tzero,0x%x", shamt);
        else return false;
        return true;
    }
    if (quadrant == 2 && funct3 == 4 && rs2 != 0) {
        if (rd == 0) put(t, "%s\tzero,%s", bit12 ? "c.add" : "c.mv", xreg(rs2)); /* hints */
        else if (!bit12) put(t, "mv\t%s,%s", xreg(rd), xreg(rs2));               /* c.mv, unlike add rd,x0,rs */
        else return false;
        return true;
    }
    return false;
}

/* Integer and control-flow aliases. Returns false when the instruction has none. */
static bool put_alias(text *t, const isa_insn *d, uint64_t pc) {
    unsigned rd = d->rd, rs1 = d->rs1, rs2 = d->rs2;
    int64_t imm = d->imm;
    switch ((isa_op)d->op) {
    case ISA_OP_ADDI:
        if (rd == 0 && rs1 == 0 && imm == 0) put(t, "nop");
        else if (rs1 == 0) put(t, "li\t%s,%" PRId64, xreg(rd), imm);
        else if (imm == 0) put(t, "mv\t%s,%s", xreg(rd), xreg(rs1));
        else return false;
        return true;
    case ISA_OP_ADDIW:
        if (imm != 0) return false;
        put(t, "sext.w\t%s,%s", xreg(rd), xreg(rs1));
        return true;
    case ISA_OP_XORI:
        if (imm != -1) return false;
        put(t, "not\t%s,%s", xreg(rd), xreg(rs1));
        return true;
    case ISA_OP_ANDI:
        if (imm != 255) return false;
        put(t, "zext.b\t%s,%s", xreg(rd), xreg(rs1));
        return true;
    case ISA_OP_ADD_UW:
        if (rs2 != 0) return false;
        put(t, "zext.w\t%s,%s", xreg(rd), xreg(rs1));
        return true;
    case ISA_OP_SLTIU:
        if (imm != 1) return false;
        put(t, "seqz\t%s,%s", xreg(rd), xreg(rs1));
        return true;
    case ISA_OP_SUB:
    case ISA_OP_SUBW:
        if (rs1 != 0) return false;
        put(t, "%s\t%s,%s", d->op == ISA_OP_SUB ? "neg" : "negw", xreg(rd), xreg(rs2));
        return true;
    case ISA_OP_SLTU:
        if (rs1 != 0) return false;
        put(t, "snez\t%s,%s", xreg(rd), xreg(rs2));
        return true;
    case ISA_OP_SLT:
        if (rs2 == 0) put(t, "sltz\t%s,%s", xreg(rd), xreg(rs1));
        else if (rs1 == 0) put(t, "sgtz\t%s,%s", xreg(rd), xreg(rs2));
        else return false;
        return true;
    case ISA_OP_BEQ:
    case ISA_OP_BNE:
        if (rs2 != 0) return false;
        put(t, "%s\t%s,", d->op == ISA_OP_BEQ ? "beqz" : "bnez", xreg(rs1));
        put_target(t, pc, imm);
        return true;
    case ISA_OP_BLT:
    case ISA_OP_BGE: {
        bool lt = d->op == ISA_OP_BLT;
        /* blt rs,x0 = bltz rs; blt x0,rs = bgtz rs; bge rs,x0 = bgez rs; bge x0,rs = blez rs */
        if (lt && rs2 == 0) put(t, "bltz\t%s,", xreg(rs1));
        else if (lt && rs1 == 0) put(t, "bgtz\t%s,", xreg(rs2));
        else if (!lt && rs1 == 0) put(t, "blez\t%s,", xreg(rs2)); /* wins for bge x0,x0 */
        else if (!lt && rs2 == 0) put(t, "bgez\t%s,", xreg(rs1));
        else return false;
        put_target(t, pc, imm);
        return true;
    }
    case ISA_OP_JAL:
        if (rd == 0) put(t, "j\t");
        else if (rd == 1) put(t, "jal\t");
        else put(t, "jal\t%s,", xreg(rd));
        put_target(t, pc, imm);
        return true;
    case ISA_OP_JALR:
        if (rd == 0 && rs1 == 1 && imm == 0) {
            put(t, "ret");
            return true;
        }
        if (rd == 0) put(t, "jr\t");
        else if (rd == 1) put(t, "jalr\t");
        else put(t, "jalr\t%s,", xreg(rd));
        if (imm == 0) put(t, "%s", xreg(rs1));
        else put(t, "%" PRId64 "(%s)", imm, xreg(rs1));
        return true;
    default: return false;
    }
}

/* CSR instructions: the floating-point CSR and counter shorthands, then the
 * generic csrr/csrw/csrs/csrc forms. */
static void put_csr_insn(text *t, const isa_insn *d) {
    unsigned csr = (unsigned)d->imm, rd = d->rd, rs1 = d->rs1;
    bool fp_csr = csr >= ISA_CSR_FFLAGS && csr <= ISA_CSR_FCSR;
    static const char *const fp_csr_read[4] = {NULL, "frflags", "frrm", "frcsr"};
    static const char *const fp_csr_write[4] = {NULL, "fsflags", "fsrm", "fscsr"};
    static const char *const fp_csr_write_imm[4] = {NULL, "fsflagsi", "fsrmi", NULL};
    static const char *const counter_read[3] = {"rdcycle", "rdtime", "rdinstret"};
    bool counter = csr >= ISA_CSR_CYCLE && csr <= ISA_CSR_INSTRET;

    switch ((isa_op)d->op) {
    case ISA_OP_CSRRS:
        if (rs1 == 0) {
            if (fp_csr) put(t, "%s\t%s", fp_csr_read[csr], xreg(rd));
            else if (counter) put(t, "%s\t%s", counter_read[csr - ISA_CSR_CYCLE], xreg(rd));
            else {
                put(t, "csrr\t%s,", xreg(rd));
                put_csr(t, csr);
            }
            return;
        }
        break;
    case ISA_OP_CSRRW:
        if (rd == 0 && rs1 == 0 && csr == ISA_CSR_CYCLE) { /* the canonical 32-bit unimp */
            put(t, "unimp");
            return;
        }
        if (fp_csr) {
            if (rd == 0) put(t, "%s\t%s", fp_csr_write[csr], xreg(rs1));
            else put(t, "%s\t%s,%s", fp_csr_write[csr], xreg(rd), xreg(rs1));
            return;
        }
        break;
    case ISA_OP_CSRRWI:
        if (fp_csr && fp_csr_write_imm[csr]) {
            put(t, "%s\t%s,%u", fp_csr_write_imm[csr], xreg(rd), rs1);
            return;
        }
        break;
    default: break;
    }
    /* objdump names the immediate forms like the register ones (csrw, csrrw,
     * ...); the operand tells them apart. Writes to x0 drop the destination. */
    bool immediate = d->op == ISA_OP_CSRRWI || d->op == ISA_OP_CSRRSI || d->op == ISA_OP_CSRRCI;
    char action = 'c';
    if (d->op == ISA_OP_CSRRW || d->op == ISA_OP_CSRRWI) action = 'w';
    else if (d->op == ISA_OP_CSRRS || d->op == ISA_OP_CSRRSI) action = 's';
    if (rd == 0) put(t, "csr%c\t", action);
    else put(t, "csrr%c\t%s,", action, xreg(rd));
    put_csr(t, csr);
    if (immediate) put(t, ",%u", rs1);
    else put(t, ",%s", xreg(rs1));
}

/* ---- the generic forms ------------------------------------------------------------- */

static void put_insn(text *t, const isa_insn *d, uint64_t pc) {
    isa_op op = (isa_op)d->op;
    const isa_info *info = isa_info_of(op);
    unsigned k = info->operands;
    const char *name = info->name;

    switch ((isa_format)info->format) {
    case ISA_FMT_R:
    case ISA_FMT_R4: {
        /* fsgnj with equal sources is a move, negation or absolute value */
        if ((op == ISA_OP_FSGNJ_S || op == ISA_OP_FSGNJN_S || op == ISA_OP_FSGNJX_S || op == ISA_OP_FSGNJ_D ||
             op == ISA_OP_FSGNJN_D || op == ISA_OP_FSGNJX_D || op == ISA_OP_FSGNJ_H || op == ISA_OP_FSGNJN_H ||
             op == ISA_OP_FSGNJX_H) &&
            d->rs1 == d->rs2) {
            static const char *const sign_ops[3] = {"fmv", "fneg", "fabs"};
            char fmt = op >= ISA_OP_FSGNJ_D && op <= ISA_OP_FSGNJX_D ? 'd'
                : op >= ISA_OP_FSGNJ_H && op <= ISA_OP_FSGNJX_H      ? 'h'
                                                                     : 's';
            unsigned which = d->rm; /* funct3: 0 sgnj, 1 sgnjn, 2 sgnjx */
            put(t, "%s.%c\t%s,%s", sign_ops[which], fmt, freg(d->rd), freg(d->rs1));
            return;
        }
        if (op == ISA_OP_FLI_S || op == ISA_OP_FLI_D || op == ISA_OP_FLI_H) {
            /* as binutils 2.41 prints Zfa's constants: names for the three symbolic ones,
             * the others in C's %a */
            put(t, "%s\t%s,", name, freg(d->rd));
            if (d->imm == 1) put(t, "min");
            else if (d->imm == 30) put(t, "inf");
            else if (d->imm == 31) put(t, "nan");
            else put(t, "%a", isa_fli_value((unsigned)d->imm));
            return;
        }
        if (op == ISA_OP_AES64KS1I) { /* the round number */
            put(t, "%s\t%s,%s,0x%x", name, xreg(d->rd), xreg(d->rs1), (unsigned)d->imm);
            return;
        }
        if (op == ISA_OP_SM4ED || op == ISA_OP_SM4KS) { /* the byte select */
            put(t, "%s\t%s,%s,%s,0x%x", name, xreg(d->rd), xreg(d->rs1), xreg(d->rs2), (unsigned)d->imm);
            return;
        }
        if (op == ISA_OP_FCVTMOD_W_D) { /* its rm field is fixed to rtz, and printed */
            put(t, "%s\t%s,%s,rtz", name, xreg(d->rd), freg(d->rs1));
            return;
        }
        /* objdump 2.40 knows the exact conversions to double (and Zfh's to single and
         * double) only with rm = 0, and then shows no rounding mode */
        bool exact = op == ISA_OP_FCVT_D_S || op == ISA_OP_FCVT_D_W || op == ISA_OP_FCVT_D_WU ||
            op == ISA_OP_FCVT_S_H || op == ISA_OP_FCVT_D_H;
        if (exact && d->rm != 0) {
            put_unknown_word(t, d);
            return;
        }
        put(t, "%s\t%s,%s", name, (k & ISA_RD_F) ? freg(d->rd) : xreg(d->rd),
            (k & ISA_RS1_F) ? freg(d->rs1) : xreg(d->rs1));
        if (k & (ISA_RS2_X | ISA_RS2_F)) put(t, ",%s", (k & ISA_RS2_F) ? freg(d->rs2) : xreg(d->rs2));
        if (k & ISA_RS3_F) put(t, ",%s", freg(d->rs3));
        if (has_rounding_mode(info) && !exact) put_rounding_mode(t, d->rm);
        return;
    }
    case ISA_FMT_I:
        if (info->op_class == OPC_LOAD)
            put(t, "%s\t%s,%" PRId64 "(%s)", name, (k & ISA_RD_F) ? freg(d->rd) : xreg(d->rd), d->imm, xreg(d->rs1));
        else put(t, "%s\t%s,%s,%" PRId64, immediate_alu_name(op), xreg(d->rd), xreg(d->rs1), d->imm);
        return;
    case ISA_FMT_SH6:
    case ISA_FMT_SH5: put(t, "%s\t%s,%s,0x%" PRIx64, immediate_alu_name(op), xreg(d->rd), xreg(d->rs1), d->imm); return;
    case ISA_FMT_S:
        put(t, "%s\t%s,%" PRId64 "(%s)", name, (k & ISA_RS2_F) ? freg(d->rs2) : xreg(d->rs2), d->imm, xreg(d->rs1));
        return;
    case ISA_FMT_B:
        put(t, "%s\t%s,%s,", name, xreg(d->rs1), xreg(d->rs2));
        put_target(t, pc, d->imm);
        return;
    case ISA_FMT_U: put(t, "%s\t%s,0x%" PRIx64, name, xreg(d->rd), ((uint64_t)d->imm >> 12) & 0xfffff); return;
    case ISA_FMT_J:
        put(t, "%s\t%s,", name, xreg(d->rd));
        put_target(t, pc, d->imm);
        return;
    case ISA_FMT_CSR:
    case ISA_FMT_CSRI: put_csr_insn(t, d); return;
    case ISA_FMT_AMO: {
        static const char *const ordering[4] = {"", ".rl", ".aq", ".aqrl"};
        put(t, "%s%s\t%s,", name, ordering[d->rm & 3], xreg(d->rd));
        if (k & ISA_RS2_X) put(t, "%s,", xreg(d->rs2));
        put(t, "(%s)", xreg(d->rs1));
        return;
    }
    case ISA_FMT_FENCE: {
        unsigned fm = (unsigned)(d->imm >> 8) & 15, pred = (unsigned)(d->imm >> 4) & 15, succ = (unsigned)d->imm & 15;
        /* objdump knows only fm = 0 and fence.tso, with x0 in the register
         * fields (which isa_decode clears, hence raw) */
        bool plain_fields = ((d->raw >> 7) & 0x1f) == 0 && ((d->raw >> 15) & 0x1f) == 0;
        if (plain_fields && fm == 8 && pred == 3 && succ == 3) put(t, "fence.tso");
        else if (!plain_fields || fm != 0) put_unknown_word(t, d);
        else if (pred == 15 && succ == 15) put(t, "fence");
        else {
            put(t, "fence\t");
            put_fence_set(t, pred);
            put(t, ",");
            put_fence_set(t, succ);
        }
        return;
    }
    case ISA_FMT_NONE:
        /* ecall/ebreak are exact; objdump knows fence.i only with zero fields */
        if (op == ISA_OP_FENCE_I && d->raw != 0x0000100f) put_unknown_word(t, d);
        else put(t, "%s", name);
        return;
    }
}

/* The privileged instructions objdump names in any RV64GC listing: not
 * executable by user code, so isa_decode rejects them. Returns false for others. */
static bool put_privileged(text *t, uint32_t e) {
    static const struct {
        uint32_t encoding;
        const char *name;
    } exact[] = {{0x00200073, "uret"}, {0x10200073, "sret"}, {0x20200073, "hret"},
                 {0x30200073, "mret"}, {0x7b200073, "dret"}, {0x10500073, "wfi"}};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (e == exact[i].encoding) {
            put(t, "%s", exact[i].name);
            return true;
        }
    unsigned rs1 = (e >> 15) & 31, rs2 = (e >> 20) & 31;
    if ((e & 0xfe007fff) == 0x12000073) { /* sfence.vma [rs1[,rs2]] */
        put(t, "sfence.vma");
        if (rs2) put(t, "\t%s,%s", xreg(rs1), xreg(rs2));
        else if (rs1) put(t, "\t%s", xreg(rs1));
        return true;
    }
    if ((e & 0xfff07fff) == 0x10400073) { /* sfence.vm [rs1], privileged spec 1.9 */
        put(t, "sfence.vm");
        if (rs1) put(t, "\t%s", xreg(rs1));
        return true;
    }
    return false;
}

/* An encoding isa_decode rejects. objdump still names the FP instructions with
 * a reserved rounding mode (5, 6), printing the mode as "unknown", and the
 * privileged instructions. */
static void put_illegal(text *t, const isa_insn *d, uint64_t pc) {
    if (d->length == 2) {
        if ((d->raw & 0xffff) == 0) put(t, "unimp");                  /* the defined-illegal all-zero c.unimp */
        else if ((d->raw & 0xffff) == 0x6101) put(t, "add\tsp,sp,0"); /* reserved c.addi16sp 0 */
        else put_unknown_word(t, d);
        return;
    }
    uint32_t e = d->raw;
    unsigned rm = (e >> 12) & 7;
    if ((e & 3) == 3 && (rm == 5 || rm == 6)) {
        for (unsigned op = 1; op < ISA_OP_COUNT; op++) {
            const isa_info *info = isa_info_of((isa_op)op);
            if ((e & info->mask) != info->match || !has_rounding_mode(info)) continue;
            if (!extension_enabled(t->extensions, (isa_op)op)) break; /* one objdump does not know here */
            isa_insn fp = *d;
            fp.op = (uint16_t)op;
            fp.rd = (e >> 7) & 31;
            fp.rs1 = (e >> 15) & 31;
            fp.rs2 = (e >> 20) & 31;
            fp.rs3 = (e >> 27) & 31;
            fp.rm = (uint8_t)rm;
            put_insn(t, &fp, pc);
            return;
        }
    }
    /* aes64ks1i with a reserved round number (0xb-0xf): objdump names it with the number */
    if ((e & 0xff00707f) == 0x31001013 && extension_enabled(t->extensions, ISA_OP_AES64KS1I)) {
        put(t, "aes64ks1i\t%s,%s,0x%x", xreg(e >> 7), xreg(e >> 15), (e >> 20) & 15);
        return;
    }
    if (put_privileged(t, e)) return;
    put_unknown_word(t, d);
}

int isa_disasm(const isa_insn *insn, uint64_t pc, char *buf, size_t size) {
    return isa_disasm_spec(insn, pc, ISA_PRIV_1_11, ISA_EXT_ALL, buf, size);
}

int isa_disasm_spec(const isa_insn *insn, uint64_t pc, isa_priv_spec spec, unsigned extensions, char *buf,
                    size_t size) {
    text t = {buf, size, 0, spec, extensions};
    if (size > 0) buf[0] = '\0';
    if (insn->op == ISA_OP_ILLEGAL || insn->op >= ISA_OP_COUNT) put_illegal(&t, insn, pc);
    else if (insn->op == ISA_OP_ZEXT_H && !(extensions & ISA_EXT_ZBB) && (extensions & ISA_EXT_ZBKB))
        put_insn(&t, &(isa_insn){.op = ISA_OP_PACKW, .rd = insn->rd, .rs1 = insn->rs1}, pc); /* zext.h is Zbb's name */
    else if (!extension_enabled(extensions, (isa_op)insn->op)) put_unknown_word(&t, insn);   /* not enabled */
    else if (insn->length == 2 && !(extensions & ISA_EXT_ZCB) && isa_is_zcb((uint16_t)insn->raw))
        put_unknown_word(&t, insn);
    else if (insn->length == 2 && put_compressed_special(&t, insn)) {
    } else if (!put_alias(&t, insn, pc)) put_insn(&t, insn, pc);
    return t.len > INT32_MAX ? INT32_MAX : (int)t.len;
}
