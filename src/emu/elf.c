/* ELF64 RISC-V executables: validation, inspection (sections, symbols) and
 * loading into guest memory. Every field read from the file is bounds-checked
 * first; a malformed file gives one message naming the file and the problem. */
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>

#include "emu_internal.h"

/* Where a static-pie is placed: Linux's ELF_ET_DYN_BASE for riscv64 with Sv39
 * (2/3 of TASK_SIZE, 0x4000000000), page aligned. A dynamically linked PIE goes
 * there too. */
#define STATIC_PIE_BASE 0x2aaaaaa000ull

/* RISC-V mapping symbols ($d: data follows, $x: instructions follow), by address. */
typedef struct elf_mapping {
    uint64_t addr;
    uint16_t section;
    bool data;
    int32_t isa; /* $x<isa>: the ISA_EXT_* extensions the ISA names; -1: not said */
} elf_mapping;

struct elf_image {
    char *path;
    uint8_t *data;
    size_t size;
    const Elf64_Ehdr *eh;
    const Elf64_Phdr *ph;
    elf_section *sections;
    size_t section_count;
    elf_symbol *symbols;
    size_t symbol_count;
    elf_mapping *mappings; /* $d / $x mapping symbols, by address */
    size_t mapping_count;
    unsigned file_isa;     /* ISA_EXT_* of .riscv.attributes' Tag_RISCV_arch (ISA_EXT_C without one) */
    unsigned priv_spec[3]; /* Tag_RISCV_priv_spec, _minor, _revision (0 when not given) */
    char interp[256];      /* PT_INTERP's path ("" for a static program) */
    char *plt_names;       /* the names of the PLT stubs' symbols ("printf@plt") */
    bool symtab;           /* the symbols are .symtab's (not only .dynsym's exported ones) */
    elf_code_range *fdes;  /* the functions .eh_frame describes, by start */
    size_t fde_count;
};

/* Tag_RISCV_arch of a .riscv.attributes section (the string that starts with
 * rv32/rv64): the ISA_EXT_* extensions it names; without one objdump's default, rv64gc. */
static unsigned attributes_extensions(const uint8_t *data, size_t size) {
    for (size_t i = 0; i + 4 <= size; i++) {
        if (data[i] == 'r' && data[i + 1] == 'v' &&
            (!memcmp(data + i + 2, "64", 2) || !memcmp(data + i + 2, "32", 2))) {
            size_t n = 0;
            while (i + n < size && data[i + n]) n++;
            return isa_extensions_of_string((const char *)data + i, n);
        }
    }
    return ISA_EXT_C;
}

/* An unsigned LEB128 at *p (< end); false if it runs off the end. */
static bool read_uleb(const uint8_t **p, const uint8_t *end, uint64_t *out) {
    uint64_t v = 0;
    for (unsigned shift = 0; *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return true;
        }
    }
    return false;
}

/* The privileged-spec tags (8, 10, 12) of the "riscv" file attributes in a
 * .riscv.attributes section (the ELF build-attributes format: 'A', then
 * subsections of u32 length + vendor name + tag 1 (file) + u32 length +
 * tag/value pairs; odd tags have string values, even ones ULEB128). A
 * malformed section leaves what was read. */
static void attributes_priv_spec(const uint8_t *data, size_t size, unsigned spec[3]) {
    if (size < 1 || data[0] != 'A') return;
    const uint8_t *p = data + 1, *end = data + size;
    while (end - p >= 4) {
        uint32_t len = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        if (len < 4 || len > (size_t)(end - p)) return;
        const uint8_t *sub_end = p + len, *q = p + 4;
        p = sub_end;
        const uint8_t *vendor = q;
        while (q < sub_end && *q) q++;
        if (q == sub_end || strcmp((const char *)vendor, "riscv")) continue;
        q++;
        while (q < sub_end) {
            const uint8_t *group = q;
            uint64_t group_tag;
            if (!read_uleb(&q, sub_end, &group_tag) || sub_end - q < 4) return;
            uint32_t glen = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
            if (glen < (uint32_t)(q + 4 - group) || glen > (size_t)(sub_end - group)) return;
            const uint8_t *group_end = group + glen;
            q += 4;
            while (group_tag == 1 && q < group_end) { /* Tag_File */
                uint64_t tag, value;
                if (!read_uleb(&q, group_end, &tag)) return;
                if (tag & 1) { /* a string */
                    while (q < group_end && *q) q++;
                    if (q == group_end) return;
                    q++;
                    continue;
                }
                if (!read_uleb(&q, group_end, &value)) return;
                unsigned v = value > 0xffffffffu ? 0xffffffffu : (unsigned)value;
                if (tag == 8) spec[0] = v;
                else if (tag == 10) spec[1] = v;
                else if (tag == 12) spec[2] = v;
            }
            q = group_end;
        }
    }
}

void elf_priv_spec(const elf_image *img, unsigned spec[3]) {
    for (int i = 0; i < 3; i++) spec[i] = img->priv_spec[i];
}

static bool in_file(const elf_image *img, uint64_t off, uint64_t len) {
    return off <= img->size && len <= img->size - off;
}

static const char *machine_name(unsigned m) {
    switch (m) {
    case EM_X86_64: return "x86-64";
    case EM_386: return "i386";
    case EM_AARCH64: return "AArch64";
    case EM_ARM: return "ARM";
    case EM_PPC64: return "PowerPC64";
    case EM_S390: return "s390";
    case EM_MIPS: return "MIPS";
    case EM_LOONGARCH: return "LoongArch";
    default: return "unknown machine";
    }
}

/* Headers and program headers: everything loading needs. */
/* to_run: the file is to be loaded and run (a shared library without an entry point is not a
 * program); inspection (elf_open: disasm, the profile's libraries) reads a library as well. */
static bool check_headers(elf_image *img, bool to_run, cs_error *err) {
    const char *p = img->path;
    if (img->size < EI_NIDENT || memcmp(img->data, ELFMAG, SELFMAG) != 0) {
        cs_error_set(err, "%s: not an ELF file", p);
        return false;
    }
    if (img->data[EI_CLASS] != ELFCLASS64) {
        bool rv32 = img->data[EI_CLASS] == ELFCLASS32 && img->size >= 20 && img->data[18] == EM_RISCV;
        cs_error_set(err, "%s: %s", p, rv32 ? "RV32 executable; only RV64 is supported" : "not a 64-bit ELF file");
        return false;
    }
    if (img->data[EI_DATA] != ELFDATA2LSB) {
        cs_error_set(err, "%s: big-endian ELF; RISC-V executables are little-endian", p);
        return false;
    }
    if (img->size < sizeof(Elf64_Ehdr)) {
        cs_error_set(err, "%s: truncated ELF: %zu bytes, the ELF header alone needs %zu", p, img->size,
                     sizeof(Elf64_Ehdr));
        return false;
    }
    img->eh = (const Elf64_Ehdr *)img->data;
    const Elf64_Ehdr *eh = img->eh;
    if (eh->e_machine != EM_RISCV) {
        cs_error_set(err, "%s: wrong machine: %s (e_machine %u); cyclescope runs RISC-V (RV64GC) executables", p,
                     machine_name(eh->e_machine), eh->e_machine);
        return false;
    }
    if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) {
        cs_error_set(err, "%s: not an executable (ELF type %u)", p, eh->e_type);
        return false;
    }
    if (to_run && eh->e_type == ET_DYN && eh->e_entry == 0) {
        /* a shared library: Linux would jump to its first byte (the ELF header) and kill it */
        cs_error_set(err, "%s: a shared library (no entry point), not a program; cyclescope runs static executables",
                     p);
        return false;
    }
    if (eh->e_phnum == 0 || eh->e_phentsize != sizeof(Elf64_Phdr)) {
        cs_error_set(err, "%s: malformed ELF: no usable program headers", p);
        return false;
    }
    if (!in_file(img, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr)) || (eh->e_phoff & 7)) {
        cs_error_set(err, "%s: truncated ELF: program headers at offset %" PRIu64 " extend past the end (%zu bytes)", p,
                     (uint64_t)eh->e_phoff, img->size);
        return false;
    }
    img->ph = (const Elf64_Phdr *)(img->data + eh->e_phoff);
    bool have_load = false, entry_ok = false;
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        const Elf64_Phdr *ph = &img->ph[i];
        if (ph->p_type == PT_INTERP) {
            /* the dynamic loader's path, NUL-terminated in the file (fs/binfmt_elf.c checks the same) */
            if (!in_file(img, ph->p_offset, ph->p_filesz) || ph->p_filesz < 2 || ph->p_filesz > sizeof img->interp ||
                img->data[ph->p_offset + ph->p_filesz - 1] != 0 ||
                strlen((const char *)img->data + ph->p_offset) != ph->p_filesz - 1) {
                cs_error_set(err, "%s: malformed ELF: bad PT_INTERP (the interpreter's path)", p);
                return false;
            }
            memcpy(img->interp, img->data + ph->p_offset, ph->p_filesz);
        }
        if (ph->p_type != PT_LOAD) continue;
        if (!in_file(img, ph->p_offset, ph->p_filesz)) {
            cs_error_set(err,
                         "%s: truncated ELF: segment %u (offset %" PRIu64 ", %" PRIu64
                         " bytes) extends past the end of the file (%zu bytes)",
                         p, i, (uint64_t)ph->p_offset, (uint64_t)ph->p_filesz, img->size);
            return false;
        }
        if (ph->p_filesz > ph->p_memsz || ph->p_memsz > (1ull << 40) ||
            ph->p_vaddr > (1ull << GUEST_VA_BITS) - (1ull << 40)) {
            cs_error_set(err, "%s: malformed ELF: segment %u has bad sizes or address (vaddr 0x%" PRIx64 ")", p, i,
                         (uint64_t)ph->p_vaddr);
            return false;
        }
        have_load = true;
        if ((ph->p_flags & PF_X) && eh->e_entry >= ph->p_vaddr && eh->e_entry - ph->p_vaddr < ph->p_memsz)
            entry_ok = true;
    }
    if (!have_load) {
        cs_error_set(err, "%s: malformed ELF: no loadable segment", p);
        return false;
    }
    if (eh->e_entry & 1) {
        cs_error_set(err, "%s: malformed ELF: entry point 0x%" PRIx64 " is not 2-byte aligned", p,
                     (uint64_t)eh->e_entry);
        return false;
    }
    if (!entry_ok) {
        cs_error_set(err, "%s: malformed ELF: entry point 0x%" PRIx64 " is not in an executable segment", p,
                     (uint64_t)eh->e_entry);
        return false;
    }
    return true;
}

static int symbol_order(const void *a, const void *b) {
    const elf_symbol *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    /* binutils objdump's compare_symbols, so that listings name the same symbol */
    if (x->func != y->func) return x->func ? -1 : 1;
    if (x->object != y->object) return x->object ? -1 : 1;
    if ((x->bind == STB_LOCAL) != (y->bind == STB_LOCAL)) return x->bind == STB_LOCAL ? 1 : -1;
    if ((x->bind == STB_GLOBAL) != (y->bind == STB_GLOBAL)) return x->bind == STB_GLOBAL ? -1 : 1;
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    if ((x->name[0] == '.') != (y->name[0] == '.')) return x->name[0] == '.' ? 1 : -1;
    int c = strcmp(x->name, y->name);
    if (c) return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The PLT stubs of a dynamically linked image as symbols "NAME@plt", as objdump synthesises
 * them (binutils elfNN-riscv.c: stub k of .rela.plt's R_RISCV_JUMP_SLOT k at .plt + 32 + 16k,
 * after the 32-byte header), so that listings and profiles name them. Malformed or missing
 * tables add nothing (the image is still readable). img->symbols has room for them. */
enum { PLT_HEADER_SIZE = 32, PLT_ENTRY_SIZE = 16 };

static size_t plt_stub_count(const elf_image *img, const Elf64_Shdr *sh, unsigned count, const Elf64_Shdr **plt,
                             const Elf64_Shdr **rela, const Elf64_Shdr **dynsym, const Elf64_Shdr **dynstr) {
    *plt = *rela = NULL;
    for (unsigned i = 0; i < count; i++) {
        if (!strcmp(img->sections[i].name, ".plt") && sh[i].sh_type == SHT_PROGBITS) *plt = &sh[i];
        if (!strcmp(img->sections[i].name, ".rela.plt") && sh[i].sh_type == SHT_RELA) *rela = &sh[i];
    }
    if (!*plt || !*rela || (*rela)->sh_entsize != sizeof(Elf64_Rela) || ((*rela)->sh_offset & 7) ||
        !in_file(img, (*rela)->sh_offset, (*rela)->sh_size) || (*rela)->sh_link >= count)
        return 0;
    *dynsym = &sh[(*rela)->sh_link];
    if ((*dynsym)->sh_entsize != sizeof(Elf64_Sym) || ((*dynsym)->sh_offset & 7) ||
        !in_file(img, (*dynsym)->sh_offset, (*dynsym)->sh_size) || (*dynsym)->sh_link >= count)
        return 0;
    *dynstr = &sh[(*dynsym)->sh_link];
    if (!in_file(img, (*dynstr)->sh_offset, (*dynstr)->sh_size) || (*dynstr)->sh_size == 0 ||
        img->data[(*dynstr)->sh_offset + (*dynstr)->sh_size - 1] != 0 || (*plt)->sh_size < PLT_HEADER_SIZE)
        return 0;
    size_t stubs = ((*plt)->sh_size - PLT_HEADER_SIZE) / PLT_ENTRY_SIZE, relas = (*rela)->sh_size / sizeof(Elf64_Rela);
    return stubs < relas ? stubs : relas;
}

static void add_plt_symbols(elf_image *img, const Elf64_Shdr *sh, unsigned count) {
    const Elf64_Shdr *plt, *rela, *dynsym, *dynstr;
    size_t n = plt_stub_count(img, sh, count, &plt, &rela, &dynsym, &dynstr);
    if (!n) return;
    const Elf64_Rela *r = (const Elf64_Rela *)(img->data + rela->sh_offset);
    const Elf64_Sym *sym = (const Elf64_Sym *)(img->data + dynsym->sh_offset);
    size_t sym_count = dynsym->sh_size / sizeof(Elf64_Sym), bytes = 0;
    const char *strings = (const char *)img->data + dynstr->sh_offset;
    for (int pass = 0; pass < 2; pass++) { /* the names' room, then the names */
        char *out = img->plt_names;
        for (size_t k = 0; k < n; k++) {
            size_t s = ELF64_R_SYM(r[k].r_info);
            if (ELF64_R_TYPE(r[k].r_info) != R_RISCV_JUMP_SLOT || s == 0 || s >= sym_count ||
                sym[s].st_name >= dynstr->sh_size || !strings[sym[s].st_name])
                continue;
            const char *name = strings + sym[s].st_name;
            if (pass == 0) {
                bytes += strlen(name) + sizeof "@plt";
                continue;
            }
            uint16_t section = (uint16_t)(plt - sh);
            img->symbols[img->symbol_count++] =
                (elf_symbol){.name = out,
                             .addr = plt->sh_addr + PLT_HEADER_SIZE + PLT_ENTRY_SIZE * k,
                             .size = PLT_ENTRY_SIZE,
                             .index = UINT32_MAX, /* none of the table's */
                             .section = section,
                             .bind = STB_GLOBAL,
                             .func = true,
                             .synthetic = true};
            out += sprintf(out, "%s@plt", name) + 1;
        }
        if (pass == 0) {
            if (!bytes) return;
            img->plt_names = cs_malloc(bytes);
            img->symbols = cs_realloc(img->symbols, (img->symbol_count + n) * sizeof(elf_symbol));
        }
    }
}

/* ---- .eh_frame: the ranges of the functions' frame descriptions --------------------- */

/* DW_EH_PE_* pointer encodings (LSB 5.0, "DWARF Extensions", .eh_frame): the low four bits the
 * format, the next three how the value applies. */
enum {
    EH_PE_ABSPTR = 0x00,
    EH_PE_ULEB128 = 0x01,
    EH_PE_UDATA2 = 0x02,
    EH_PE_UDATA4 = 0x03,
    EH_PE_UDATA8 = 0x04,
    EH_PE_SLEB128 = 0x09,
    EH_PE_SDATA2 = 0x0a,
    EH_PE_SDATA4 = 0x0b,
    EH_PE_SDATA8 = 0x0c,
    EH_PE_PCREL = 0x10,
    EH_PE_OMIT = 0xff
};

/* A signed LEB128 at *p (< end); false if it runs off the end. */
static bool read_sleb(const uint8_t **p, const uint8_t *end, int64_t *out) {
    uint64_t v = 0;
    unsigned shift = 0;
    for (; *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            if (shift + 7 < 64 && (b & 0x40)) v |= ~(uint64_t)0 << (shift + 7);
            *out = (int64_t)v;
            return true;
        }
    }
    return false;
}

/* A little-endian value of n bytes at p. */
static uint64_t read_le(const uint8_t *p, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* A pointer encoded as `enc` at *p (< end), the field at link address `at`: absolute or
 * pc-relative (GCC's pcrel|sdata4 on RISC-V); `applied` false for an FDE's range, a length in
 * the format alone. False for what runs off the end and for the encodings a linked file does not
 * use for code addresses (relative to text, data or the function, aligned, indirect). */
static bool read_encoded(const uint8_t **p, const uint8_t *end, uint8_t enc, uint64_t at, bool applied, uint64_t *out) {
    if (enc == EH_PE_OMIT) return false;
    uint64_t v = 0;
    int64_t s;
    unsigned size = 0;
    switch (enc & 0x0f) {
    case EH_PE_ABSPTR:
    case EH_PE_UDATA8:
    case EH_PE_SDATA8: size = 8; break;
    case EH_PE_UDATA4:
    case EH_PE_SDATA4: size = 4; break;
    case EH_PE_UDATA2:
    case EH_PE_SDATA2: size = 2; break;
    case EH_PE_ULEB128:
        if (!read_uleb(p, end, &v)) return false;
        break;
    case EH_PE_SLEB128:
        if (!read_sleb(p, end, &s)) return false;
        v = (uint64_t)s;
        break;
    default: return false;
    }
    if (size) {
        if ((size_t)(end - *p) < size) return false;
        v = read_le(*p, size);
        if ((enc & 0x0f) == EH_PE_SDATA4) v = (uint64_t)(int64_t)(int32_t)v;
        else if ((enc & 0x0f) == EH_PE_SDATA2) v = (uint64_t)(int64_t)(int16_t)v;
        *p += size;
    }
    if (!applied) {
        *out = v;
        return true;
    }
    switch (enc & 0x70) {
    case 0: *out = v; return true;
    case EH_PE_PCREL: *out = at + v; return true;
    default: return false;
    }
}

/* The header of the .eh_frame entry at *p (< end): its body [*body, *next) after the length
 * (4 bytes, or 0xffffffff and 8: the 64-bit form); false for the terminator (length 0) and for a
 * length that runs off the end. */
static bool eh_entry(const uint8_t *p, const uint8_t *end, const uint8_t **body, const uint8_t **next) {
    if (end - p < 4) return false;
    uint64_t len = read_le(p, 4);
    p += 4;
    if (len == 0xffffffff) {
        if (end - p < 8) return false;
        len = read_le(p, 8);
        p += 8;
    }
    if (len < 4 || len > (uint64_t)(end - p)) return false; /* also the terminator, 0 */
    *body = p;
    *next = p + len;
    return true;
}

/* The encoding of the FDEs' addresses a CIE (its body [p, end), after the CIE id) gives: its
 * augmentation's 'R', absptr without one. False for a CIE it cannot be told from (an unknown
 * version, an augmentation letter it does not know before the 'R'). */
static bool cie_fde_encoding(const uint8_t *p, const uint8_t *end, uint8_t *enc) {
    if (p >= end) return false;
    uint8_t version = *p++;
    if (version != 1 && version != 3 && version != 4) return false;
    const char *aug = (const char *)p;
    while (p < end && *p) p++;
    if (p == end) return false;
    p++;
    *enc = EH_PE_ABSPTR;
    if (aug[0] != 'z') return true; /* no augmentation data: the FDE's address is absolute */
    if (version == 4) {             /* address and segment selector sizes */
        if (end - p < 2) return false;
        p += 2;
    }
    uint64_t code_align, aug_len;
    int64_t data_align;
    if (!read_uleb(&p, end, &code_align) || !read_sleb(&p, end, &data_align)) return false;
    if (version == 1) {
        if (p == end) return false;
        p++;
    } else {
        uint64_t ra;
        if (!read_uleb(&p, end, &ra)) return false;
    }
    if (!read_uleb(&p, end, &aug_len) || aug_len > (uint64_t)(end - p)) return false;
    const uint8_t *data_end = p + aug_len;
    for (const char *a = aug + 1; *a; a++) {
        switch (*a) {
        case 'R':
            if (p == data_end) return false;
            *enc = *p;
            return true;
        case 'L':
            if (p == data_end) return false;
            p++;
            break;
        case 'P': {
            if (p == data_end) return false;
            uint8_t penc = *p++;
            uint64_t ignored;
            if (!read_encoded(&p, data_end, penc & 0x0f, 0, false, &ignored)) return false;
            break;
        }
        case 'S':
        case 'B':
        case 'G': break; /* signal frame, AArch64's B key, MTE: no data */
        default: return false;
        }
    }
    return true;
}

static int code_range_order(const void *a, const void *b) {
    const elf_code_range *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return x->end < y->end ? -1 : x->end > y->end;
}

/* The [start, end) of every function .eh_frame describes (its FDEs: GCC emits one for each C and
 * C++ function on RISC-V, and glibc's assembly its cfi_startproc), sorted by start. Malformed
 * entries are passed over, and a length or CIE pointer that leaves the section ends the reading:
 * nothing is read outside it. FDEs of discarded code (address 0) and empty ones are left out. */
static void read_eh_frame(elf_image *img, const elf_section *sec) {
    const uint8_t *base = sec->data, *end = base + sec->size, *body, *next;
    size_t cap = 0;
    for (const uint8_t *p = base; eh_entry(p, end, &body, &next); p = next) {
        uint32_t cie_pointer = (uint32_t)read_le(body, 4);
        if (cie_pointer == 0) continue; /* a CIE */
        /* the CIE is cie_pointer bytes before the pointer itself, and before this FDE */
        if (cie_pointer > (size_t)(body - base)) continue;
        const uint8_t *cie = body - cie_pointer, *cie_body, *cie_next;
        uint8_t enc;
        if (cie >= p || !eh_entry(cie, end, &cie_body, &cie_next) || read_le(cie_body, 4) != 0 ||
            !cie_fde_encoding(cie_body + 4, cie_next, &enc))
            continue;
        const uint8_t *q = body + 4;
        uint64_t start, length;
        if (!read_encoded(&q, next, enc, sec->addr + (uint64_t)(q - base), true, &start) ||
            !read_encoded(&q, next, enc & 0x0f, 0, false, &length) || start == 0 || length == 0 ||
            length > UINT64_MAX - start)
            continue;
        if (img->fde_count == cap) img->fdes = cs_realloc(img->fdes, (cap = cap * 2 + 64) * sizeof *img->fdes);
        img->fdes[img->fde_count++] = (elf_code_range){start, start + length};
    }
    if (img->fde_count) qsort(img->fdes, img->fde_count, sizeof *img->fdes, code_range_order);
}

/* Section headers and the symbol table: for inspection only. */
/* Mapping symbols by address (two at one address are not expected). */
static int mapping_order(const void *a, const void *b) {
    const elf_mapping *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static bool read_sections(elf_image *img, cs_error *err) {
    const Elf64_Ehdr *eh = img->eh;
    const char *p = img->path;
    if (eh->e_shoff == 0 || eh->e_shnum == 0) return true;
    if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
        !in_file(img, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)) || (eh->e_shoff & 7) ||
        eh->e_shstrndx >= eh->e_shnum) {
        cs_error_set(err, "%s: truncated or malformed ELF: bad section header table at offset %" PRIu64, p,
                     (uint64_t)eh->e_shoff);
        return false;
    }
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img->data + eh->e_shoff);
    const Elf64_Shdr *names = &sh[eh->e_shstrndx];
    if (!in_file(img, names->sh_offset, names->sh_size) || names->sh_size == 0 ||
        img->data[names->sh_offset + names->sh_size - 1] != 0) {
        cs_error_set(err, "%s: malformed ELF: bad section name table", p);
        return false;
    }
    /* a stripped shared library keeps its exported names in .dynsym: read when there is no
     * .symtab, as objdump does (the profile names memcpy in libc.so.6 so) */
    unsigned symbol_table = SHT_DYNSYM;
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_type == SHT_SYMTAB) symbol_table = SHT_SYMTAB;
    img->symtab = symbol_table == SHT_SYMTAB;
    img->sections = cs_calloc(eh->e_shnum, sizeof(elf_section));
    img->file_isa = ISA_EXT_C;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        elf_section *s = &img->sections[img->section_count++];
        s->name = sh[i].sh_name < names->sh_size ? (const char *)img->data + names->sh_offset + sh[i].sh_name : "";
        s->addr = sh[i].sh_addr;
        s->size = sh[i].sh_size;
        s->exec = (sh[i].sh_flags & SHF_EXECINSTR) != 0;
        if (sh[i].sh_type != SHT_NOBITS && sh[i].sh_type != SHT_NULL) {
            if (!in_file(img, sh[i].sh_offset, sh[i].sh_size)) {
                cs_error_set(err, "%s: truncated ELF: section %s extends past the end of the file", p, s->name);
                return false;
            }
            s->data = img->data + sh[i].sh_offset;
            if (!strcmp(s->name, ".riscv.attributes")) {
                img->file_isa = attributes_extensions(s->data, s->size);
                attributes_priv_spec(s->data, s->size, img->priv_spec);
            }
            if (!strcmp(s->name, ".eh_frame") && sh[i].sh_type == SHT_PROGBITS && !img->fde_count)
                read_eh_frame(img, s);
        }
        if (sh[i].sh_type != symbol_table) continue;
        /* read in place as Elf64_Sym: 8-byte aligned, as the section header table is */
        if (sh[i].sh_link >= eh->e_shnum || sh[i].sh_entsize != sizeof(Elf64_Sym) || (sh[i].sh_offset & 7)) {
            cs_error_set(err, "%s: malformed ELF: bad symbol table", p);
            return false;
        }
        const Elf64_Shdr *strtab = &sh[sh[i].sh_link];
        if (!in_file(img, strtab->sh_offset, strtab->sh_size) || strtab->sh_size == 0 ||
            img->data[strtab->sh_offset + strtab->sh_size - 1] != 0) {
            cs_error_set(err, "%s: malformed ELF: bad symbol string table", p);
            return false;
        }
        size_t count = sh[i].sh_size / sizeof(Elf64_Sym);
        const Elf64_Sym *sym = (const Elf64_Sym *)(img->data + sh[i].sh_offset);
        img->symbols = cs_realloc(img->symbols, (img->symbol_count + count) * sizeof(elf_symbol));
        img->mappings = cs_realloc(img->mappings, (img->mapping_count + count) * sizeof(elf_mapping));
        for (size_t k = 0; k < count; k++) {
            unsigned type = ELF64_ST_TYPE(sym[k].st_info);
            if (sym[k].st_shndx == SHN_UNDEF || (sym[k].st_shndx >= SHN_LORESERVE && sym[k].st_shndx != SHN_ABS))
                continue;
            if (type == STT_SECTION || type == STT_FILE) continue;
            if (sym[k].st_name == 0 || sym[k].st_name >= strtab->sh_size) continue;
            const char *name = (const char *)img->data + strtab->sh_offset + sym[k].st_name;
            if (name[0] == '$' && (name[1] == 'd' || name[1] == 'x') && type == STT_NOTYPE) {
                /* RISC-V ELF psABI mapping symbols: $d data follows, $x (or $x<isa>) code */
                /* $x<isa> names the ISA of the code that follows; plain $x keeps the file's */
                int isa = name[1] == 'x' && name[2] ? (int)isa_extensions_of_string(name + 2, strlen(name + 2)) : -1;
                img->mappings[img->mapping_count++] = (elf_mapping){
                    .addr = sym[k].st_value, .section = sym[k].st_shndx, .data = name[1] == 'd', .isa = isa};
                continue;
            }
            if (name[0] == '$' || (name[0] == '.' && name[1] == 'L')) continue; /* mapping and local labels */
            img->symbols[img->symbol_count++] = (elf_symbol){.name = name,
                                                             .addr = sym[k].st_value,
                                                             .size = sym[k].st_size,
                                                             .index = (uint32_t)k,
                                                             .section = sym[k].st_shndx,
                                                             .bind = (uint8_t)ELF64_ST_BIND(sym[k].st_info),
                                                             .func = type == STT_FUNC,
                                                             .object = type == STT_OBJECT};
        }
    }
    add_plt_symbols(img, sh, eh->e_shnum);
    /* a stripped executable has neither (NULL arrays: qsort's pointer must not be NULL) */
    if (img->symbol_count) qsort(img->symbols, img->symbol_count, sizeof(elf_symbol), symbol_order);
    if (img->mapping_count) qsort(img->mappings, img->mapping_count, sizeof(elf_mapping), mapping_order);
    return true;
}

bool elf_code_state(const elf_image *img, uint16_t section, uint64_t addr, uint64_t *until, int *isa, int *next_isa) {
    /* the last mapping symbol at or below addr in the section (binary search, then back) */
    size_t lo = 0, hi = img->mapping_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (img->mappings[mid].addr <= addr) lo = mid + 1;
        else hi = mid;
    }
    bool data = false; /* code until a mapping symbol says otherwise */
    *isa = -1;
    for (size_t i = lo; i-- > 0;) {
        if (img->mappings[i].section == section) {
            data = img->mappings[i].data;
            if (!data) *isa = img->mappings[i].isa;
            break;
        }
    }
    *until = UINT64_MAX;
    *next_isa = -1;
    for (size_t i = lo; i < img->mapping_count; i++) {
        const elf_mapping *m = &img->mappings[i];
        if (m->section != section || m->addr <= addr) continue;
        if (*until == UINT64_MAX) *until = m->addr;
        if (!m->data) { /* the first $x after addr */
            *next_isa = m->isa;
            break;
        }
    }
    return data;
}

unsigned elf_file_extensions(const elf_image *img) { return img->file_isa; }

static elf_image *open_image(const char *path, bool with_sections, cs_error *err) {
    elf_image *img = cs_calloc(1, sizeof *img);
    img->path = cs_strdup(path);
    if (!cs_read_file(path, &img->data, &img->size, err) || !check_headers(img, !with_sections, err) ||
        (with_sections && !read_sections(img, err))) {
        elf_close(img);
        return NULL;
    }
    return img;
}

elf_image *elf_open(const char *path, cs_error *err) { return open_image(path, true, err); }

void elf_close(elf_image *img) {
    if (!img) return;
    free(img->path);
    free(img->data);
    free(img->sections);
    free(img->symbols);
    free(img->mappings);
    free(img->plt_names);
    free(img->fdes);
    free(img);
}

uint64_t elf_entry(const elf_image *img) { return img->eh->e_entry; }
uint64_t elf_load_bias(const elf_image *img) { return img->eh->e_type == ET_DYN ? STATIC_PIE_BASE : 0; }

bool elf_code_link_address(const elf_image *img, uint64_t pc, uint64_t *link) {
    uint64_t at = pc - elf_load_bias(img);
    for (size_t i = 0; i < img->section_count; i++) {
        const elf_section *sec = &img->sections[i];
        if (sec->exec && at >= sec->addr && at - sec->addr < sec->size) {
            *link = at;
            return true;
        }
    }
    return false;
}
bool elf_file_offset_address(const elf_image *img, uint64_t offset, uint64_t *addr) {
    for (unsigned i = 0; i < img->eh->e_phnum; i++) {
        const Elf64_Phdr *ph = &img->ph[i];
        if (ph->p_type == PT_LOAD && offset >= ph->p_offset && offset - ph->p_offset < ph->p_filesz) {
            *addr = ph->p_vaddr + (offset - ph->p_offset);
            return true;
        }
    }
    return false;
}

size_t elf_section_count(const elf_image *img) { return img->section_count; }
const elf_section *elf_section_at(const elf_image *img, size_t i) { return &img->sections[i]; }
size_t elf_symbol_count(const elf_image *img) { return img->symbol_count; }
bool elf_has_symtab(const elf_image *img) { return img->symtab; }
size_t elf_fde_count(const elf_image *img) { return img->fde_count; }
const elf_code_range *elf_fde_at(const elf_image *img, size_t i) { return &img->fdes[i]; }
const elf_symbol *elf_symbol_at(const elf_image *img, size_t i) { return &img->symbols[i]; }

const elf_symbol *elf_symbol_for(const elf_image *img, uint64_t addr) {
    size_t lo = 0, hi = img->symbol_count;
    while (lo < hi) { /* first symbol above addr */
        size_t mid = (lo + hi) / 2;
        if (img->symbols[mid].addr <= addr) lo = mid + 1;
        else hi = mid;
    }
    if (!lo) return NULL;
    uint64_t at = img->symbols[lo - 1].addr;
    while (lo > 1 && img->symbols[lo - 2].addr == at) lo--; /* the preferred one at that address */
    return &img->symbols[lo - 1];
}

/* ---- loading ---------------------------------------------------------------------- */

/* The extensions an ISA string names beyond RV64GC (I, M, A, F, D, C and the parts G
 * implies or that are subsets of them) and Zba/Zbb/Zbc/Zbs, Zfh (with its Zfhmin subset),
 * Zicond, Zcb, Zfa and the scalar cryptography ones, which cyclescope runs too,
 * space-separated into out. */
/* The length of an extension's name in one '_' part of an ISA string: the part without its
 * version, trailing "<major>[p<minor>]" digits ("zve32f1p0" is zve32f, "zfh1p0" zfh). */
static size_t isa_name_length(const char *part, size_t n) {
    size_t k = n;
    while (k > 0 && part[k - 1] >= '0' && part[k - 1] <= '9') k--;
    if (k < n && k > 1 && part[k - 1] == 'p' && part[k - 2] >= '0' && part[k - 2] <= '9') {
        k--;
        while (k > 0 && part[k - 1] >= '0' && part[k - 1] <= '9') k--;
    }
    return k;
}

static void isa_beyond_gc(const char *isa, size_t len, char *out, size_t cap) {
    /* Zkt (data-independent timing) has no instructions; Zkr's seed CSR is refused as Linux
     * refuses it to user code, so zkr (and zk, which implies it) stay named */
    static const char *const within[] = {"zicsr",  "zifencei", "zmmul", "zaamo", "zalrsc", "zca",  "zcd",
                                         "zicntr", "zba",      "zbb",   "zbc",   "zbs",    "zfh",  "zfhmin",
                                         "zicond", "zcb",      "zfa",   "zbkb",  "zbkc",   "zbkx", "zknd",
                                         "zkne",   "zknh",     "zksed", "zksh",  "zkn",    "zks",  "zkt"};
    size_t used = 0;
    out[0] = 0;
    if (len < 4 || strncmp(isa, "rv64", 4)) return;
    size_t i = 4;
    for (; i < len && isa[i] != '_'; i++) { /* single letters, each with an optional version */
        char c = isa[i];
        if (c >= 'a' && c <= 'z' && c != 'p' && !strchr("imafdcg", c) && used + 3 < cap)
            used += (size_t)snprintf(out + used, cap - used, "%s%c", used ? " " : "", c);
    }
    while (i < len) { /* at '_': one extension a part, its name the letters before its version */
        size_t start = ++i, n = 0;
        while (i < len && isa[i] != '_') i++;
        n = isa_name_length(isa + start, i - start);
        bool ok = n == 0 || (n == 1 && strchr("imafdcg", isa[start])); /* "_m2p0": a letter of GC */
        for (size_t k = 0; !ok && k < sizeof within / sizeof within[0]; k++)
            ok = strlen(within[k]) == n && !strncmp(within[k], isa + start, n);
        if (!ok && used + n + 2 < cap)
            used += (size_t)snprintf(out + used, cap - used, "%s%.*s", used ? " " : "", (int)n, isa + start);
    }
}

/* Tag_RISCV_arch from the .riscv.attributes section, looked up without read_sections (the
 * loader needs no section headers: a damaged table is not an error here). */
static void load_arch(const elf_image *img, char *out, size_t cap) {
    const Elf64_Ehdr *eh = img->eh;
    out[0] = 0;
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shstrndx >= eh->e_shnum ||
        !in_file(img, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)) || (eh->e_shoff & 7))
        return; /* read in place: a misaligned table is damaged, as read_sections says */
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img->data + eh->e_shoff), *names = &sh[eh->e_shstrndx];
    if (!in_file(img, names->sh_offset, names->sh_size)) return;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        static const char want[] = ".riscv.attributes";
        if (sh[i].sh_name + sizeof want > names->sh_size || sh[i].sh_type == SHT_NOBITS ||
            memcmp(img->data + names->sh_offset + sh[i].sh_name, want, sizeof want) ||
            !in_file(img, sh[i].sh_offset, sh[i].sh_size))
            continue;
        const uint8_t *d = img->data + sh[i].sh_offset;
        for (size_t k = 0; k + 4 <= sh[i].sh_size; k++) {
            if (memcmp(d + k, "rv64", 4)) continue;
            size_t n = 0;
            while (k + n < sh[i].sh_size && d[k + n]) n++;
            isa_beyond_gc((const char *)d + k, n, out, cap);
            return;
        }
    }
}

static uint8_t segment_prot(uint32_t flags) {
    return (uint8_t)(((flags & PF_R) ? PROT_R : 0) | ((flags & PF_W) ? PROT_W : 0) | ((flags & PF_X) ? PROT_X : 0));
}

/* Map img's loadable segments at bias and copy their bytes in; *end: the end of the highest. */
static bool place_segments(const elf_image *img, uint64_t bias, mem *m, uint64_t *end, cs_error *err) {
    const Elf64_Ehdr *eh = img->eh;
    *end = 0;
    /* map every segment first, then copy, so a page shared by two segments keeps both contents */
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        const Elf64_Phdr *ph = &img->ph[i];
        if (ph->p_type != PT_LOAD || ph->p_memsz == 0) continue;
        uint64_t start = (ph->p_vaddr + bias) & ~PAGE_MASK;
        uint64_t stop = (ph->p_vaddr + bias + ph->p_memsz + PAGE_MASK) & ~PAGE_MASK;
        if (!mem_map(m, start, stop - start, segment_prot(ph->p_flags))) {
            cs_error_set(err, "%s: segment %u at 0x%" PRIx64 " is outside the address space", img->path, i, start);
            return false;
        }
        if (stop > *end) *end = stop;
    }
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        const Elf64_Phdr *ph = &img->ph[i];
        if (ph->p_type != PT_LOAD || ph->p_filesz == 0) continue;
        mem_copy_in(m, ph->p_vaddr + bias, img->data + ph->p_offset, ph->p_filesz);
    }
    return true;
}

/* The lowest and the end of the highest page of img's loadable segments (before any bias). */
static void segment_span(const elf_image *img, uint64_t *low, uint64_t *high) {
    *low = UINT64_MAX, *high = 0;
    for (unsigned i = 0; i < img->eh->e_phnum; i++) {
        const Elf64_Phdr *ph = &img->ph[i];
        if (ph->p_type != PT_LOAD || ph->p_memsz == 0) continue;
        if ((ph->p_vaddr & ~PAGE_MASK) < *low) *low = ph->p_vaddr & ~PAGE_MASK;
        if (((ph->p_vaddr + ph->p_memsz + PAGE_MASK) & ~PAGE_MASK) > *high)
            *high = (ph->p_vaddr + ph->p_memsz + PAGE_MASK) & ~PAGE_MASK;
    }
}

/* The dynamic loader a PT_INTERP names, loaded at ELF_INTERP_BASE: like Linux's
 * load_elf_interp, which puts it at the top of the mmap area. */
static bool load_interpreter(const elf_image *prog, const char *sysroot, mem *m, elf_load_info *out, cs_error *err) {
    char under[PATH_MAX];
    const char *found = NULL;
    if (sysroot && prog->interp[0] == '/') {
        if ((size_t)snprintf(under, sizeof under, "%s%s", sysroot, prog->interp) < sizeof under &&
            access(under, F_OK) == 0)
            found = under;
    }
    if (!found && access(prog->interp, F_OK) == 0) found = prog->interp;
    if (!found) {
        cs_error_set(err,
                     "%s: dynamically linked, and its interpreter %s is not found (%s%s%s); give the directory "
                     "of the RISC-V libraries with --sysroot DIR (or CYCLESCOPE_SYSROOT=DIR), or link with -static",
                     prog->path, prog->interp, sysroot ? "searched under " : "no sysroot: looked on the host only",
                     sysroot ? sysroot : "", sysroot ? " and on the host" : "");
        return false;
    }
    cs_error inner;
    elf_image *img = open_image(found, false, &inner);
    if (!img) {
        cs_error_set(err, "%s: its interpreter %s", prog->path, inner.msg); /* inner names the file */
        return false;
    }
    bool ok = false;
    uint64_t low, high, end;
    segment_span(img, &low, &high);
    uint64_t bias = img->eh->e_type == ET_DYN ? ELF_INTERP_BASE - low : 0;
    if (img->interp[0]) {
        cs_error_set(err, "%s: its interpreter %s asks for an interpreter itself", prog->path, found);
    } else if (high - low > ELF_INTERP_ROOM || !mem_is_free(m, low + bias, high - low)) {
        cs_error_set(err, "%s: its interpreter %s does not fit at 0x%" PRIx64 " (%" PRIu64 " bytes)", prog->path, found,
                     low + bias, high - low);
    } else if (place_segments(img, bias, m, &end, err)) {
        out->interp_base = low + bias;
        out->start = img->eh->e_entry + bias;
        /* its code as Linux maps it, for the profile's loadmap (emu_code_map) */
        snprintf(out->interp_path, sizeof out->interp_path, "%s", prog->interp);
        char *real = realpath(found, NULL);
        snprintf(out->interp_host, sizeof out->interp_host, "%s", real ? real : found);
        free(real);
        for (unsigned i = 0; i < img->eh->e_phnum && out->interp_exec_count < 4; i++) {
            const Elf64_Phdr *ph = &img->ph[i];
            if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
            out->interp_exec[out->interp_exec_count].start = (ph->p_vaddr + bias) & ~(uint64_t)PAGE_MASK;
            out->interp_exec[out->interp_exec_count].end =
                (ph->p_vaddr + ph->p_memsz + bias + PAGE_MASK) & ~(uint64_t)PAGE_MASK;
            out->interp_exec[out->interp_exec_count++].offset = ph->p_offset & ~(uint64_t)PAGE_MASK;
        }
        ok = true;
    }
    elf_close(img);
    return ok;
}

bool elf_load(const char *path, const char *sysroot, mem *m, elf_load_info *out, cs_error *err) {
    elf_image *img = open_image(path, false, err);
    if (!img) return false;
    const Elf64_Ehdr *eh = img->eh;
    uint64_t bias = elf_load_bias(img);
    uint64_t end = 0;
    memset(out, 0, sizeof *out);
    if (!place_segments(img, bias, m, &end, err)) {
        elf_close(img);
        return false;
    }
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        const Elf64_Phdr *ph = &img->ph[i];
        if (ph->p_type == PT_PHDR) out->phdr_addr = ph->p_vaddr + bias;
        if (ph->p_type != PT_LOAD || ph->p_filesz == 0) continue;
        if (!out->phdr_addr && eh->e_phoff >= ph->p_offset && eh->e_phoff - ph->p_offset < ph->p_filesz)
            out->phdr_addr = ph->p_vaddr + bias + (eh->e_phoff - ph->p_offset);
    }
    out->entry = out->start = eh->e_entry + bias;
    out->phnum = eh->e_phnum;
    out->phent = sizeof(Elf64_Phdr);
    out->bias = bias;
    out->brk_start = end;
    load_arch(img, out->beyond_gc, sizeof out->beyond_gc);
    bool ok = !img->interp[0] || load_interpreter(img, sysroot, m, out, err);
    elf_close(img);
    return ok;
}
