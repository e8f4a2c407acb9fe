/* disasm_check: compare isa_disasm with riscv64-linux-gnu-objdump -d.
 *
 *   riscv64-linux-gnu-objdump -d BINARY | disasm_check
 *
 * For every instruction line of the listing ("  105ac:\t00a50533 \tadd\ta0,a0,a0")
 * the bytes are decoded with isa_decode and disassembled with isa_disasm at that
 * address; the text must equal objdump's once its " <symbol+off>" and
 * " # comment" suffixes are removed (a caller adds those). Prints every
 * mismatch and a summary; exits 1 on any mismatch or when no instruction was
 * checked, so an empty or broken listing cannot pass.
 *
 * With --every-op it also fails unless every op of the instruction table was
 * seen at least once (for the listing of tests/guest/all_insns.S). */
#include "isa/isa.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Directives objdump uses for bytes a mapping symbol marks as data: not
 * instructions, so not ours to reproduce. (.2byte/.4byte are what it prints
 * for unknown instructions, and those are compared.) */
static bool is_data_directive(const char *text) {
    static const char *const data[] = {".byte", ".short", ".word", ".dword", ".quad"};
    for (size_t i = 0; i < sizeof data / sizeof data[0]; i++) {
        size_t n = strlen(data[i]);
        if (strncmp(text, data[i], n) == 0 && (text[n] == '\t' || text[n] == '\0')) return true;
    }
    return false;
}

/* Remove objdump's annotations: " # <target>" comments and a trailing
 * " <symbol+offset>". */
static void strip_annotations(char *text) {
    char *comment = strstr(text, " # ");
    if (comment) *comment = '\0';
    size_t len = strlen(text);
    while (len > 0 && isspace((unsigned char)text[len - 1])) text[--len] = '\0';
    if (len > 0 && text[len - 1] == '>') {
        char *symbol = strstr(text, " <");
        if (symbol) *symbol = '\0';
    }
}

typedef struct listing_line {
    uint64_t address;
    uint32_t encoding;
    unsigned hex_digits; /* 4 for a 16-bit instruction, 8 for a 32-bit one */
    char *text;          /* mnemonic and operands, annotations included */
} listing_line;

/* Parses "<addr>:\t<hex> \t<text>". Returns false for headers, labels, blank
 * lines and continuation lines, which carry no instruction. */
static bool parse_line(char *line, listing_line *out, bool *is_other_length) {
    *is_other_length = false;
    char *p = line;
    while (*p == ' ') p++;
    char *end;
    if (!isxdigit((unsigned char)*p)) return false;
    out->address = strtoull(p, &end, 16);
    if (end[0] != ':' || end[1] != '\t') return false;
    p = end + 2;
    char *text = strchr(p, '\t');
    if (!text) return false;
    *text++ = '\0';
    /* the raw field: one hex group for 2- and 4-byte instructions */
    char *bytes_end = p;
    while (isxdigit((unsigned char)*bytes_end)) bytes_end++;
    unsigned digits = (unsigned)(bytes_end - p);
    for (char *q = bytes_end; *q; q++)
        if (!isspace((unsigned char)*q)) {
            *is_other_length = true; /* several groups: an encoding longer than 32 bits */
            return false;
        }
    if (digits != 4 && digits != 8) {
        *is_other_length = digits > 0;
        return false;
    }
    out->encoding = (uint32_t)strtoul(p, NULL, 16);
    out->hex_digits = digits;
    size_t len = strlen(text);
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r')) text[--len] = '\0';
    out->text = text;
    return true;
}

int main(int argc, char **argv) {
    bool every_op = argc == 2 && strcmp(argv[1], "--every-op") == 0;
    if (argc > 2 || (argc == 2 && !every_op)) {
        fprintf(stderr, "usage: riscv64-linux-gnu-objdump -d BINARY | %s [--every-op]\n", argv[0]);
        return 2;
    }
    bool seen[ISA_OP_COUNT] = {false};
    char *line = NULL;
    size_t capacity = 0;
    unsigned long checked = 0, mismatches = 0, data_lines = 0, other_lengths = 0;
    unsigned long compressed = 0, undecodable = 0;
    while (getline(&line, &capacity, stdin) > 0) {
        listing_line l;
        bool other_length;
        if (!parse_line(line, &l, &other_length)) {
            if (other_length) other_lengths++;
            continue;
        }
        if (is_data_directive(l.text)) {
            data_lines++;
            continue;
        }
        strip_annotations(l.text);

        isa_insn insn;
        bool legal = isa_decode(l.encoding, &insn);
        unsigned expected_length = l.hex_digits / 2;
        char got[128];
        isa_disasm(&insn, l.address, got, sizeof got);
        checked++;
        if (expected_length == 2) compressed++;
        if (!legal) undecodable++;
        seen[insn.op] = true;
        if (insn.length != expected_length || strcmp(got, l.text) != 0) {
            mismatches++;
            printf("MISMATCH %" PRIx64 ": %0*x (length %u, decoded length %u)\n"
                   "  objdump: %s\n  ours:    %s\n",
                   l.address, (int)l.hex_digits, l.encoding, expected_length, insn.length, l.text, got);
        }
    }
    free(line);
    printf("disasm_check: %lu instructions checked (%lu compressed, %lu not decodable), "
           "%lu mismatches; skipped %lu data lines, %lu longer encodings\n",
           checked, compressed, undecodable, mismatches, data_lines, other_lengths);
    if (checked == 0) {
        printf("disasm_check: FAIL, no instruction found in the input\n");
        return 1;
    }
    unsigned missing = 0;
    for (unsigned op = 1; every_op && op < ISA_OP_COUNT; op++)
        /* objdump 2.40 knows neither Zicond nor Zfa (binutils 2.41 added them): unit.decode
         * checks their text */
        if (!seen[op] && !(isa_extension_of((isa_op)op) & (ISA_EXT_ZICOND | ISA_EXT_ZFA))) {
            printf("disasm_check: op %s never seen\n", isa_op_name((isa_op)op));
            missing++;
        }
    if (missing) printf("disasm_check: FAIL, %u ops of the table not exercised\n", missing);
    return mismatches || missing ? 1 : 0;
}
