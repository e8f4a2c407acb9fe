/* cyclescope disasm: a listing in the format of riscv64-linux-gnu-objdump -d
 * (binutils 2.40): per-symbol blocks, raw bytes, `<symbol+offset>` after
 * branch targets, `# address <symbol>` after address computations objdump
 * can follow, and `...` for runs of zero bytes. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

void help_disasm(void) {
    printf("usage: cyclescope disasm [--section NAME] PROG\n"
           "\n"
           "Disassemble the executable sections of the RISC-V ELF file PROG in the format\n"
           "of riscv64-linux-gnu-objdump -d.\n"
           "\n"
           "options:\n"
           "  --section NAME     only this section\n");
}

/* What objdump's RISC-V printer remembers between instructions to annotate
 * addresses: the value lui/auipc left in each register (until an address
 * computation consumes it), and gp from __global_pointer$. */
typedef struct listing {
    const elf_image *img;
    uint64_t hi_addr[32];
    bool hi_valid[32];
    uint64_t gp;
    bool gp_valid;
    int addr_width;       /* of the address column in this section (objdump's skip_addr_chars) */
    isa_priv_spec spec;   /* whose CSR names to print, from the file's attributes */
    unsigned chunk;       /* bytes per raw chunk of the last thing printed (objdump's bytes_per_chunk) */
    unsigned isa;         /* ISA_EXT_* of the ISA of the last $x<isa> met, else the file's */
    unsigned line_octets; /* raw bytes a line holds (objdump's octets_per_line, set by the last item) */
} listing;

/* " <sym>", " <sym+0x…>", or below every symbol " <first-0x…>" as objdump
 * names an address (it falls back to the lowest symbol with a negative offset). */
static void print_symbol_note(const listing *l, uint64_t addr) {
    const elf_symbol *s = elf_symbol_for(l->img, addr);
    if (!s && elf_symbol_count(l->img)) s = elf_symbol_at(l->img, 0);
    if (!s) return;
    if (s->addr == addr) printf(" <%s>", s->name);
    else if (s->addr < addr) printf(" <%s+0x%" PRIx64 ">", s->name, addr - s->addr);
    else printf(" <%s-0x%" PRIx64 ">", s->name, s->addr - addr);
}

/* objdump_print_addr: an address no symbol can name (a stripped file) gets "0x". */
static void print_symbolic(const listing *l, uint64_t addr) {
    printf("%s%" PRIx64, elf_symbol_count(l->img) ? "" : "0x", addr);
    print_symbol_note(l, addr);
}

/* objdump's maybe_print_address: an address from a base register whose value it knows. */
static bool known_address(listing *l, unsigned base, int64_t offset, bool wide, uint64_t *out) {
    uint64_t a;
    if (l->hi_valid[base]) {
        a = (base ? l->hi_addr[base] : 0) + (uint64_t)offset;
        l->hi_valid[base] = false;
    } else if (base == 3 && l->gp_valid) {
        a = l->gp + (uint64_t)offset;
    } else if (base == 4 || base == 0) { /* tp, zero */
        a = (uint64_t)offset;
    } else {
        return false;
    }
    *out = wide ? (uint64_t)(int64_t)(int32_t)a : a;
    return true;
}

/* The address comment objdump appends to this instruction, if any. */
static bool address_comment(listing *l, const isa_insn *d, uint64_t pc, uint64_t *out) {
    bool compressed = d->length == 2;
    switch ((isa_op)d->op) {
    case ISA_OP_LUI: l->hi_addr[d->rd] = (uint64_t)d->imm, l->hi_valid[d->rd] = true; return false;
    case ISA_OP_AUIPC: l->hi_addr[d->rd] = pc + (uint64_t)d->imm, l->hi_valid[d->rd] = true; return false;
    case ISA_OP_ADDI:
        if (compressed) {
            /* only c.addi (not c.addi16sp/4spn/nop), even the hint with
             * immediate 0 objdump prints as "add rd,rd,0" */
            if ((d->raw & 0xe003) != 0x0001 || d->rd == 0) return false;
            return known_address(l, d->rs1, d->imm, false, out);
        }
        /* printed as li/mv/nop (no address operand) when rs1 is zero or imm is 0 */
        if (d->rs1 == 0 || d->imm == 0) return false;
        return known_address(l, d->rs1, d->imm, false, out);
    case ISA_OP_ADDIW:
        if (compressed) { /* c.addiw; with immediate 0 it is sext.w, no address operand */
            if (d->rd == 0 || d->imm == 0) return false;
            return known_address(l, d->rs1, d->imm, true, out);
        }
        if (d->rs1 == 0 || d->imm == 0) return false;
        return known_address(l, d->rs1, d->imm, true, out);
    case ISA_OP_JALR: {
        /* objdump looks the address up for jalr's register operand (binutils
         * riscv-dis.c, case 's'), and for an offset twice more (case 'o',
         * then the jalr case of 'j'): the first lookup consumes what lui/auipc
         * left in rs1, a later one overrides it for gp, tp and zero. c.jr,
         * c.jalr and ret print no register operand that way. */
        if (compressed || (d->imm == 0 && d->rd == 0 && d->rs1 == 1)) return false;
        if (d->imm == 0) return known_address(l, d->rs1, 0, false, out);
        bool known = known_address(l, d->rs1, d->imm, false, out);
        if (known_address(l, d->rs1, d->imm, false, out)) known = true;
        return known;
    }
    default: break;
    }
    unsigned cls = d->op_class;
    if ((cls == OPC_LOAD || cls == OPC_STORE) && !compressed) return known_address(l, d->rs1, d->imm, false, out);
    return false;
}

static void print_line(listing *l, const uint8_t *bytes, uint64_t pc, unsigned avail) {
    uint32_t raw = 0;
    for (unsigned i = 0; i < 4 && i < avail; i++) raw |= (uint32_t)bytes[i] << (8 * i);
    isa_insn d;
    bool ok = isa_decode(raw, &d);
    unsigned len = d.length;
    if (len > avail) len = avail; /* a truncated instruction at the end of a section */
    printf("%*" PRIx64 ":\t", l->addr_width, pc);
    l->chunk = d.length == 2 ? 2 : 4;
    if (len == 2) printf("%04x                \t", raw & 0xffff);
    else printf("%08x          \t", raw);
    char text[128];
    isa_disasm_spec(&d, pc, l->spec, l->isa, text, sizeof text);
    bool has_target = ok && (d.op_class == OPC_BRANCH || d.op == ISA_OP_JAL);
    if (has_target && !elf_symbol_count(l->img)) {
        /* the target, the last operand, printed as print_symbolic prints it */
        char *target = strrchr(text, ',');
        if (!target) target = strrchr(text, '\t');
        if (target) {
            target++;
            fwrite(text, 1, (size_t)(target - text), stdout);
            fputs("0x", stdout);
            fputs(target, stdout);
        } else {
            fputs(text, stdout);
        }
    } else {
        fputs(text, stdout);
    }
    if (has_target) print_symbol_note(l, pc + (uint64_t)d.imm);
    uint64_t addr;
    /* a word of an extension the ISA does not enable here is data to objdump (.4byte): no comment */
    if (ok && text[0] != '.' && address_comment(l, &d, pc, &addr)) {
        fputs(" # ", stdout);
        print_symbolic(l, addr);
    }
    putchar('\n');
}

/* The length objdump gives the encoding whose first parcel is low16 (binutils
 * riscv_insn_length): 48-, 64- and 80- to 176-bit encodings, which RV64GC
 * does not define, and 2 for a 0x7f prefix whose bits 14:12 are all set. */
static unsigned objdump_length(uint16_t low16) {
    if ((low16 & 3) != 3) return 2;
    if ((low16 & 0x1f) != 0x1f) return 4;
    if ((low16 & 0x3f) == 0x1f) return 6;
    if ((low16 & 0x7f) == 0x3f) return 8;
    if ((low16 & 0x7f) == 0x7f && (low16 & 0x7000) != 0x7000) return 10 + ((low16 >> 11) & 0xe);
    return 2;
}

/* An encoding longer than 32 bits (or the odd 16-bit one above), as objdump
 * prints what it cannot decode: raw bytes in chunks of 4 when the length is
 * a multiple of 4, else 2, at most 8 bytes a line (the rest on continuation
 * lines), then .2byte / .8byte with the value, or .byte with every byte. */
static void print_long(listing *l, const uint8_t *bytes, uint64_t pc, unsigned len) {
    unsigned chunk = len % 4 == 0 ? 4 : 2;
    l->chunk = chunk;
    printf("%*" PRIx64 ":\t", l->addr_width, pc);
    for (unsigned line_start = 0; line_start < len; line_start += 8) {
        if (line_start) printf("%*" PRIx64 ":\t", l->addr_width, pc + line_start);
        unsigned line_end = line_start + 8 < len ? line_start + 8 : len;
        for (unsigned j = line_start; j < line_end; j += chunk) {
            for (unsigned k = chunk; k-- > 0;) printf("%02x", bytes[j + k]);
            putchar(' ');
        }
        if (line_start) {
            putchar('\n');
            continue;
        }
        for (unsigned pad = line_end; pad < 8; pad += chunk) printf("%*s ", (int)(2 * chunk), "");
        putchar('\t');
        if (len == 2 || len == 8) {
            uint64_t v = 0;
            for (unsigned k = 0; k < len; k++) v |= (uint64_t)bytes[k] << (8 * k);
            printf(".%ubyte\t0x%" PRIx64 "\n", len, v);
        } else {
            printf(".byte\t");
            for (unsigned k = 0; k < len; k++) printf("%s0x%02x", k ? ", " : "", bytes[k]);
            putchar('\n');
        }
    }
}

/* Bytes a $d mapping symbol marks as data, as objdump prints them (binutils
 * riscv-dis.c: riscv_data_length, riscv_disassemble_data): chunks of 4 bytes
 * from the start of the data, cut at the next mapping symbol or the section's
 * end, 3 printed as 2; .word, .short or .byte with the value in hex. */
static unsigned print_data(listing *l, const uint8_t *bytes, uint64_t pc, unsigned len) {
    l->chunk = len;
    l->line_octets = len == 1 ? 6 : 8;
    uint32_t v = 0;
    for (unsigned i = 0; i < len; i++) v |= (uint32_t)bytes[i] << (8 * i);
    printf("%*" PRIx64 ":\t", l->addr_width, pc);
    if (len == 4) printf("%08x          \t.word\t0x%08x\n", v, v);
    else if (len == 2) printf("%04x                \t.short\t0x%04x\n", v, v);
    else printf("%02x                \t.byte\t0x%02x\n", v, v);
    return len;
}

/* What objdump prints when the item at pc runs past `stop`, the next symbol
 * (it reads no further, objdump.c sets stop_vma): the read fails with EIO,
 * which the disassembler returns as a length of 5; objdump prints the raw
 * bytes it can for those 5 (none past stop) in chunks of data_len (a $d item;
 * 1 for an instruction), the error, and ends the block there. */
static void print_out_of_bounds(listing *l, const uint8_t *bytes, uint64_t pc, uint64_t stop, unsigned data_len) {
    const unsigned octets = 5; /* EIO */
    unsigned chunk = data_len ? data_len : 1;
    l->chunk = data_len;
    unsigned per_line = l->line_octets;
    printf("%*" PRIx64 ":\t", l->addr_width, pc);
    unsigned pb = octets < per_line ? octets : per_line;
    for (unsigned j = 0; j < pb; j += chunk) {
        if (pc + j + chunk <= stop)
            for (unsigned k = chunk; k-- > 0;) printf("%02x", bytes[j + k]);
        putchar(' ');
    }
    for (unsigned pad = pb; pad < per_line; pad += chunk) printf("%*s ", (int)(2 * chunk), "");
    printf("\tAddress 0x%" PRIx64 " is out of bounds.\n", pc);
    while (pb < octets) {
        printf("\n%*" PRIx64 ":\t", l->addr_width, pc + pb);
        unsigned next = pb + per_line < octets ? pb + per_line : octets;
        for (unsigned j = pb; j < next; j += chunk) {
            if (pc + j + chunk <= stop)
                for (unsigned k = chunk; k-- > 0;) printf("%02x", bytes[j + k]);
            putchar(' ');
        }
        pb = next;
    }
    putchar('\n');
}

/* objdump prints addresses in a column as wide as the section's end address
 * needs, leading zeros dropped in groups of 4 with one always kept (binutils
 * objdump.c, disassemble_section: skip_addr_chars), then blanked. */
static int address_width(const elf_section *sec) {
    uint64_t end = sec->addr + sec->size;
    int zeros = 0;
    while (zeros < 16 && !(end >> (60 - 4 * zeros) & 0xf)) zeros++;
    if (zeros == 16 && sec->addr != 0) zeros = 0; /* the end wrapped to 0 */
    int skip = zeros ? (zeros - 1) & ~3 : 0;
    return 16 - skip;
}

/* One line of bytes under a data (STT_OBJECT) symbol, as objdump dumps them
 * instead of disassembling (objdump.c disassemble_bytes with insns false): up
 * to 16 bytes in chunks of the size the last instruction or data item used
 * (1 before any), a chunk that would pass the block's end left blank, then
 * the bytes as ASCII with '.' for the unprintable. Returns the bytes shown. */
static unsigned print_object_line(const listing *l, const uint8_t *bytes, uint64_t pc, uint64_t stop) {
    unsigned n = stop - pc < 16 ? (unsigned)(stop - pc) : 16;
    unsigned chunk = l->chunk ? l->chunk : 1;
    printf("%*" PRIx64 ":\t", l->addr_width, pc);
    unsigned pb = n;
    for (unsigned j = 0; j < pb; j += chunk) {
        if (j + chunk <= n)
            for (unsigned k = chunk; k-- > 0;) printf("%02x", bytes[j + k]);
        putchar(' ');
    }
    for (; pb < 16; pb += chunk) printf("%*s ", (int)(2 * chunk), "");
    printf("    ");
    for (unsigned j = 0; j < n; j++) putchar(bytes[j] >= 0x20 && bytes[j] < 0x7f ? bytes[j] : '.');
    putchar('\n');
    return n;
}

/* Disassemble [start, stop) of a section; as_object: dump it as data, as
 * objdump does under a symbol of type object. */
static void disassemble_range(listing *l, const elf_section *sec, size_t index, uint64_t start, uint64_t stop,
                              bool as_object) {
    const uint8_t *data = sec->data;
    uint64_t end = sec->addr + sec->size;
    l->line_octets = 4; /* objdump's octets_per_line at the start of a block of code */
    for (uint64_t pc = start; pc < stop;) {
        /* objdump prints `...` for 8 or more zero bytes, or for fewer than 3 at the end */
        uint64_t z = pc;
        while (z < stop && data[z - sec->addr] == 0) z++;
        if (z - pc >= 8 || (z == stop && z - pc < 3 && z > pc)) {
            if (z != stop) z = pc + ((z - pc) & ~3ull);
            printf("\t...\n");
            pc = z;
            continue;
        }
        const uint8_t *bytes = data + (pc - sec->addr);
        if (as_object) {
            pc += print_object_line(l, bytes, pc, stop);
            continue;
        }
        uint64_t next_map;
        int isa, next_isa;
        bool is_data = elf_code_state(l->img, (uint16_t)index, pc, &next_map, &isa, &next_isa);
        /* objdump (riscv-dis.c, riscv_update_map_state) takes the ISA of a
         * $x<isa> only when it disassembles there; a plain $x keeps the last */
        if (isa >= 0) l->isa = (unsigned)isa;
        if (is_data) {
            /* riscv_data_length: up to 4 bytes, to the next mapping symbol
             * (or the section's end); looking ahead it also takes the ISA of
             * the first $x<isa> after the data */
            uint64_t limit = next_map < end ? next_map : end;
            unsigned len = limit - pc < 4 ? (unsigned)(limit - pc) : 4;
            if (len == 3) len = 2;
            if (next_isa >= 0) l->isa = (unsigned)next_isa;
            if (len > stop - pc) { /* past the next symbol: objdump cannot read it */
                print_out_of_bounds(l, bytes, pc, stop, len);
                return;
            }
            pc += print_data(l, bytes, pc, len);
            continue;
        }
        /* the length objdump reads: the first parcel, then what it says */
        unsigned len = 2;
        uint16_t low16 = 0;
        if (stop - pc >= 2) {
            low16 = (uint16_t)(bytes[0] | bytes[1] << 8);
            len = objdump_length(low16);
        }
        if (len > stop - pc) {
            print_out_of_bounds(l, bytes, pc, stop, 0);
            return;
        }
        l->line_octets = 8;
        if (!(l->isa & ISA_EXT_C) && (low16 & 3) != 3) { /* a 16-bit parcel where the ISA has no C */
            printf("%*" PRIx64 ":\t%04x                \t.2byte\t0x%x\n", l->addr_width, pc, low16, low16);
            l->chunk = 2;
            pc += 2;
            continue;
        }
        if (len > 4 || (len == 2 && (low16 & 3) == 3)) {
            print_long(l, bytes, pc, len);
            pc += len;
            continue;
        }
        print_line(l, bytes, pc, len);
        pc += len;
    }
}

/* objdump dumps the bytes under a symbol marked as an object rather than a
 * function instead of disassembling them (but not under gcc's old marker
 * symbols). */
static bool is_object(const elf_symbol *s) {
    return s->object && !s->func && !strstr(s->name, "gnu_compiled") && !strstr(s->name, "gcc2_compiled");
}

/* Symbols of section `index`, in address order, one per address (the preferred one). */
static void disassemble_section(listing *l, const elf_section *sec, size_t index) {
    printf("\nDisassembly of section %s:\n", sec->name);
    uint64_t end = sec->addr + sec->size;
    l->addr_width = address_width(sec);
    size_t n = elf_symbol_count(l->img), i = 0;
    const elf_symbol *sym = NULL;
#define NEXT_IN_SECTION()                                                          \
    do {                                                                           \
        sym = NULL;                                                                \
        for (; i < n; i++) {                                                       \
            const elf_symbol *s_ = elf_symbol_at(l->img, i);                       \
            if (s_->section == index && s_->addr >= sec->addr && s_->addr < end) { \
                if (!sym) sym = s_;                                                \
                else if (s_->addr != sym->addr) break;                             \
            } else if (sym && s_->addr != sym->addr) {                             \
                break;                                                             \
            }                                                                      \
        }                                                                          \
    } while (0)
    NEXT_IN_SECTION();
    if (!sym || sym->addr > sec->addr) {
        /* code before the section's first symbol: objdump (find_symbol_for_address,
         * a symbol of this section required) names it from the last symbol of
         * the section below it, else the first above it, even one past the
         * section's end (a linker script's `_end`; not a synthetic one: objdump names
         * .plt's header `<.plt>`, not after its first stub), else the section */
        const elf_symbol *below = NULL, *above = NULL;
        for (size_t k = 0; k < n; k++) {
            const elf_symbol *s_ = elf_symbol_at(l->img, k);
            if (s_->section != index) continue;
            if (s_->addr <= sec->addr) {
                if (!below || s_->addr != below->addr) below = s_;
            } else if (!above && !s_->synthetic) {
                above = s_;
            }
        }
        if (below) printf("\n%016" PRIx64 " <%s+0x%" PRIx64 ">:\n", sec->addr, below->name, sec->addr - below->addr);
        else if (above)
            printf("\n%016" PRIx64 " <%s-0x%" PRIx64 ">:\n", sec->addr, above->name, above->addr - sec->addr);
        else printf("\n%016" PRIx64 " <%s>:\n", sec->addr, sec->name);
        disassemble_range(l, sec, index, sec->addr, sym ? sym->addr : end, false);
    }
    while (sym) {
        const elf_symbol *here = sym;
        NEXT_IN_SECTION();
        printf("\n%016" PRIx64 " <%s>:\n", here->addr, here->name);
        disassemble_range(l, sec, index, here->addr, sym ? sym->addr : end, is_object(here));
    }
#undef NEXT_IN_SECTION
}

int cmd_disasm(int argc, char **argv) {
    const char *only = NULL;
    int k = 1;
    for (; k < argc && argv[k][0] == '-'; k++) {
        if (!strcmp(argv[k], "--section") && k + 1 >= argc) return cli_usage("disasm", "--section needs a value");
        if (!strcmp(argv[k], "--section") && only) /* the first was dropped without a word */
            return cli_usage("disasm", "--section given twice (%s, then %s): it takes one value", only, argv[k + 1]);
        if (!strcmp(argv[k], "--section")) only = argv[++k];
        else return cli_usage("disasm", "unknown option %s", argv[k]);
    }
    if (k != argc - 1) return cli_usage("disasm", "expected exactly one program");
    const char *path = argv[k];
    cs_error err;
    elf_image *img = elf_open(path, &err);
    if (!img) return cli_fail("%s", err.msg);
    unsigned spec[3];
    elf_priv_spec(img, spec);
    listing l = {
        .img = img, .spec = isa_priv_spec_from_attributes(spec[0], spec[1], spec[2]), .isa = elf_file_extensions(img)};
    for (size_t i = 0; i < elf_symbol_count(img); i++) {
        if (!strcmp(elf_symbol_at(img, i)->name, "__global_pointer$")) {
            l.gp = elf_symbol_at(img, i)->addr;
            l.gp_valid = true;
        }
    }
    printf("\n%s:     file format elf64-littleriscv\n\n", path);
    bool found = false;
    for (size_t i = 0; i < elf_section_count(img); i++) {
        const elf_section *sec = elf_section_at(img, i);
        if (!sec->exec || !sec->data || sec->size == 0) continue;
        if (only && strcmp(only, sec->name)) continue;
        found = true;
        disassemble_section(&l, sec, i);
    }
    elf_close(img);
    if (only && !found) return cli_fail("%s: no executable section '%s'", path, only);
    return 0;
}
