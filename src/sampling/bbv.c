/* Basic block vectors: collection (emulator, µop stream) and the .bb file. */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "sampling_internal.h"

/* ---- building a profile ---- */

typedef struct bbv_builder {
    bbv_profile *p;
    size_t interval_cap, entry_cap, take_cap;
    uint32_t *ids;
    uint64_t *counts;
} bbv_builder;

static void builder_init(bbv_builder *b, uint64_t interval, const char *source) {
    memset(b, 0, sizeof *b);
    b->p = cs_calloc(1, sizeof *b->p);
    b->p->interval = interval;
    b->p->source = cs_strdup(source ? source : "");
}

static int compare_entries(const void *a, const void *b) {
    uint32_t x = ((const bbv_entry *)a)->block, y = ((const bbv_entry *)b)->block;
    return (x > y) - (x < y);
}

/* Close the current interval: the counts the table holds since the last take. */
static void builder_take(bbv_builder *b, emu_bbv *table) {
    uint32_t blocks = emu_bbv_block_count(table);
    if (blocks > b->take_cap) {
        b->take_cap = (size_t)blocks * 2;
        b->ids = cs_realloc(b->ids, cs_array_size(b->take_cap, sizeof *b->ids));
        b->counts = cs_realloc(b->counts, cs_array_size(b->take_cap, sizeof *b->counts));
    }
    size_t n = emu_bbv_take(table, b->ids, b->counts);
    if (n == 0) return;
    bbv_profile *p = b->p;
    if (p->interval_count == b->interval_cap) {
        b->interval_cap = b->interval_cap ? b->interval_cap * 2 : 64;
        p->intervals = cs_realloc(p->intervals, cs_array_size(b->interval_cap, sizeof *p->intervals));
    }
    if (p->entry_count + n > b->entry_cap) {
        b->entry_cap = (p->entry_count + n) * 2;
        p->entries = cs_realloc(p->entries, cs_array_size(b->entry_cap, sizeof *p->entries));
    }
    bbv_interval *iv = &p->intervals[p->interval_count++];
    iv->first = p->entry_count;
    iv->n = (uint32_t)n;
    iv->instructions = 0;
    for (size_t i = 0; i < n; i++) {
        p->entries[p->entry_count + i] = (bbv_entry){b->ids[i] + 1, b->counts[i]};
        iv->instructions += b->counts[i];
    }
    /* canonical order: by block id */
    qsort(p->entries + iv->first, n, sizeof *p->entries, compare_entries);
    p->entry_count += n;
    p->instructions += iv->instructions;
}

static bbv_profile *builder_finish(bbv_builder *b, emu_bbv *table) {
    bbv_profile *p = b->p;
    p->blocks = emu_bbv_block_count(table);
    p->block_pc = cs_calloc(p->blocks ? p->blocks : 1, sizeof *p->block_pc);
    for (uint32_t i = 0; i < p->blocks; i++) p->block_pc[i] = emu_bbv_block_pc(table, i);
    free(b->ids);
    free(b->counts);
    return p;
}

static void builder_discard(bbv_builder *b) {
    free(b->ids);
    free(b->counts);
    bbv_profile_free(b->p);
}

bbv_profile *bbv_collect_emu(emu_t *emu, uint64_t interval, const char *source, cs_error *err) {
    return bbv_collect_emu_max(emu, interval, UINT64_MAX, source, err);
}

bbv_profile *bbv_collect_emu_max(emu_t *emu, uint64_t interval, uint64_t max, const char *source, cs_error *err) {
    if (interval == 0) {
        cs_error_set(err, "interval of 0 instructions");
        return NULL;
    }
    bbv_builder b;
    builder_init(&b, interval, source);
    emu_bbv *table = emu_bbv_create();
    cs_progress bar;
    progress_start(&bar, "profiling", 0);
    uint64_t done = 0;
    while (emu_state(emu) == EMU_RUNNING && done < max) {
        done += emu_run_bbv(emu, table, max - done < interval ? max - done : interval);
        builder_take(&b, table);
        progress_update(&bar, done);
    }
    progress_finish(&bar);
    /* A program killed by a signal (a fault, abort()) ran up to it: its intervals are what
     * ran, and a replay stops before the fault as the profile does. Anything else that
     * stopped the emulator (an unsupported system call, a bad ELF) leaves no usable run. */
    bool killed = emu_state(emu) == EMU_FAILED && emu_fault_signal(emu) != 0;
    if (emu_state(emu) == EMU_FAILED && (!killed || b.p->interval_count == 0)) {
        cs_error_set(err, "%s", emu_error(emu));
        emu_bbv_destroy(table);
        builder_discard(&b);
        return NULL;
    }
    bbv_profile *p = builder_finish(&b, table);
    emu_bbv_destroy(table);
    return p;
}

bbv_profile *bbv_collect_source(uop_source *src, uint64_t interval, const char *source, cs_error *err) {
    if (interval == 0) {
        cs_error_set(err, "interval of 0 instructions");
        return NULL;
    }
    enum { BATCH = 4096 };
    uop *buf = cs_malloc(BATCH * sizeof *buf);
    bbv_builder b;
    builder_init(&b, interval, source);
    emu_bbv *table = emu_bbv_create();
    /* the block in progress: its first pc and the instructions counted into it so far */
    uint64_t leader = 0, in_block = 0, in_interval = 0;
    bool have_leader = false, ends_block = false;
    for (;;) {
        long n = uop_source_read(src, buf, BATCH, err);
        if (n < 0) {
            free(buf);
            emu_bbv_destroy(table);
            builder_discard(&b);
            return NULL;
        }
        if (n == 0) break;
        for (long i = 0; i < n; i++) {
            const uop *u = &buf[i];
            if (!(u->flags & UOP_CONTINUES)) { /* an instruction begins */
                if (ends_block || !have_leader) {
                    if (in_block) emu_bbv_count(table, leader, in_block);
                    leader = u->pc;
                    in_block = 0;
                    have_leader = true;
                    ends_block = false;
                }
                if (in_interval == interval) {
                    if (in_block) emu_bbv_count(table, leader, in_block);
                    in_block = 0;
                    builder_take(&b, table);
                    in_interval = 0;
                }
                in_block++;
                in_interval++;
            }
            if (uop_is_control(u)) ends_block = true;
        }
    }
    if (in_block) emu_bbv_count(table, leader, in_block);
    builder_take(&b, table);
    free(buf);
    bbv_profile *p = builder_finish(&b, table);
    emu_bbv_destroy(table);
    return p;
}

void bbv_profile_free(bbv_profile *p) {
    if (!p) return;
    free(p->intervals);
    free(p->entries);
    free(p->block_pc);
    free(p->source);
    free(p);
}

/* ---- the .bb file ---- */

#define BBV_MAGIC "# cyclescope-bbv "

/* A growing text buffer. */
typedef struct text_buf {
    char *data;
    size_t len, cap;
} text_buf;

static void tb_reserve(text_buf *t, size_t more) {
    if (t->len + more + 1 <= t->cap) return;
    t->cap = (t->len + more + 1) * 2;
    t->data = cs_realloc(t->data, t->cap);
}

static void tb_printf(text_buf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tb_printf(text_buf *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    tb_reserve(t, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(t->data + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* One line of text without newlines (the source description goes in a comment). */
static void tb_put_oneline(text_buf *t, const char *s) {
    for (; *s; s++) tb_printf(t, "%c", (*s == '\n' || *s == '\r') ? ' ' : *s);
}

bool bbv_write(const bbv_profile *p, const char *path, cs_error *err) {
    text_buf head = {0}, body = {0}, tail = {0};
    tb_printf(&head, BBV_MAGIC "%d\n", BBV_FORMAT_VERSION);
    tb_printf(&head, "# source: ");
    tb_put_oneline(&head, p->source);
    tb_printf(&head,
              "\n# interval: %" PRIu64 "\n# instructions: %" PRIu64 "\n# intervals: %zu\n# blocks: %" PRIu32 "\n",
              p->interval, p->instructions, p->interval_count, p->blocks);
    size_t longest = 0;
    for (size_t i = 0; i < p->interval_count; i++) {
        const bbv_interval *iv = &p->intervals[i];
        size_t start = body.len;
        for (uint32_t j = 0; j < iv->n; j++) {
            const bbv_entry *e = &p->entries[iv->first + j];
            tb_printf(&body, "%s:%" PRIu32 ":%" PRIu64, j ? " " : "T", e->block, e->count);
        }
        tb_printf(&body, " \n");
        if (body.len - start > longest) longest = body.len - start;
    }
    if (p->block_pc)
        for (uint32_t i = 0; i < p->blocks; i++)
            tb_printf(&tail, "# block %" PRIu32 " 0x%" PRIx64 "\n", i + 1, p->block_pc[i]);
    uint32_t crc = (uint32_t)crc32(0L, Z_NULL, 0);
    crc = sampling_crc(crc, body.data, body.len);
    tb_printf(&tail, "# crc32: %08" PRIx32 "\n", crc);
    if (longest >= BBV_MAX_LINE)
        fprintf(stderr,
                "cyclescope: note: %s has a line of %zu bytes; the reference SimPoint reads lines shorter than %d "
                "(use a shorter interval for it)\n",
                path, longest, BBV_MAX_LINE);
    const char *parts[3] = {head.data, body.data ? body.data : "", tail.data};
    size_t lens[3] = {head.len, body.len, tail.len};
    bool ok = sampling_write_file(path, parts, lens, 3, err);
    free(head.data);
    free(body.data);
    free(tail.data);
    return ok;
}

/* ---- reading ---- */

typedef struct bb_parser {
    const char *name;
    size_t line;
    cs_error *err;
} bb_parser;

static bool parse_u64(const char **s, const char *end, uint64_t *out) {
    const char *q = *s;
    if (q >= end || *q < '0' || *q > '9') return false;
    uint64_t v = 0;
    while (q < end && *q >= '0' && *q <= '9') {
        unsigned d = (unsigned)(*q - '0');
        if (v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
        q++;
    }
    *s = q;
    *out = v;
    return true;
}

static bool header_value(const char *line, const char *end, const char *key, uint64_t *out) {
    size_t k = strlen(key);
    if ((size_t)(end - line) < k || memcmp(line, key, k) != 0) return false;
    const char *q = line + k;
    return parse_u64(&q, end, out) && q == end;
}

bbv_profile *bbv_parse(const char *text, size_t len, const char *name, cs_error *err) {
    bbv_profile *p = cs_calloc(1, sizeof *p);
    size_t interval_cap = 0, entry_cap = 0;
    bool ours = len >= strlen(BBV_MAGIC) && memcmp(text, BBV_MAGIC, strlen(BBV_MAGIC)) == 0;
    uint64_t h_interval = 0, h_instructions = 0, h_intervals = 0, h_blocks = 0, version = 0;
    bool have_crc = false, seen_t = false, have[4] = {0};
    uint32_t want_crc = 0, crc = (uint32_t)crc32(0L, Z_NULL, 0);
    uint32_t max_block = 0;
    char *source = NULL;
    size_t line_no = 0;
    bbv_entry *pc_lines = NULL; /* "# block ID PC" lines: block and pc */
    size_t pc_count = 0, pc_cap = 0;
    const char *pos = text, *end_all = text + len;
    while (pos < end_all) {
        const char *nl = memchr(pos, '\n', (size_t)(end_all - pos));
        const char *end = nl ? nl : end_all;
        const char *next = nl ? nl + 1 : end_all;
        line_no++;
        const char *line = pos;
        size_t line_len = (size_t)(end - line);
        if (line_len && line[line_len - 1] == '\r') end--, line_len--;
        if (line_len && line[0] == 'T') {
            if (ours) {
                if (have_crc) {
                    cs_error_set(err, "%s:%zu: interval after the checksum line", name, line_no);
                    goto fail;
                }
                crc = sampling_crc(crc, pos, (size_t)(next - pos));
            }
            seen_t = true;
            if (p->interval_count == interval_cap) {
                interval_cap = interval_cap ? interval_cap * 2 : 64;
                p->intervals = cs_realloc(p->intervals, cs_array_size(interval_cap, sizeof *p->intervals));
            }
            bbv_interval *iv = &p->intervals[p->interval_count];
            iv->first = p->entry_count;
            iv->n = 0;
            iv->instructions = 0;
            const char *q = line + 1;
            for (;;) {
                while (q < end && (*q == ' ' || *q == '\t')) q++;
                if (q == end) break;
                uint64_t block = 0, count = 0;
                if (*q != ':') goto bad_entry;
                q++;
                if (!parse_u64(&q, end, &block) || q >= end || *q != ':') goto bad_entry;
                q++;
                if (!parse_u64(&q, end, &count)) goto bad_entry;
                if (q < end && *q != ' ' && *q != '\t') goto bad_entry;
                if (block == 0 || block >= UINT32_MAX) {
                    cs_error_set(err, "%s:%zu: block id %" PRIu64 " out of range (1..%u)", name, line_no, block,
                                 UINT32_MAX - 1);
                    goto fail;
                }
                if (count == 0) continue;
                if (iv->instructions > UINT64_MAX - count) {
                    cs_error_set(err, "%s:%zu: instruction count overflows", name, line_no);
                    goto fail;
                }
                if (p->entry_count == entry_cap) {
                    entry_cap = entry_cap ? entry_cap * 2 : 1024;
                    p->entries = cs_realloc(p->entries, cs_array_size(entry_cap, sizeof *p->entries));
                }
                p->entries[p->entry_count++] = (bbv_entry){(uint32_t)block, count};
                iv->n++;
                iv->instructions += count;
                if (block > max_block) max_block = (uint32_t)block;
            }
            if (iv->n == 0) {
                cs_error_set(err, "%s:%zu: interval with no instructions", name, line_no);
                goto fail;
            }
            qsort(p->entries + iv->first, iv->n, sizeof *p->entries, compare_entries);
            for (uint32_t j = 1; j < iv->n; j++)
                if (p->entries[iv->first + j].block == p->entries[iv->first + j - 1].block) {
                    cs_error_set(err, "%s:%zu: block %" PRIu32 " listed twice", name, line_no,
                                 p->entries[iv->first + j].block);
                    goto fail;
                }
            if (p->instructions > UINT64_MAX - iv->instructions) {
                cs_error_set(err, "%s:%zu: instruction count overflows", name, line_no);
                goto fail;
            }
            p->instructions += iv->instructions;
            p->interval_count++;
        } else if (ours && line_len && line[0] == '#') {
            uint64_t v = 0;
            if (line_no == 1) {
                const char *q = line + strlen(BBV_MAGIC);
                if (!parse_u64(&q, end, &version) || q != end) {
                    cs_error_set(err, "%s:1: malformed cyclescope-bbv header", name);
                    goto fail;
                }
                if (version != BBV_FORMAT_VERSION) {
                    cs_error_set(err, "%s: cyclescope-bbv version %" PRIu64 " (this build reads version %d)", name,
                                 version, BBV_FORMAT_VERSION);
                    goto fail;
                }
            } else if (line_len >= 10 && memcmp(line, "# source: ", 10) == 0) {
                free(source);
                source = cs_malloc(line_len - 10 + 1);
                memcpy(source, line + 10, line_len - 10);
                source[line_len - 10] = 0;
            } else if (header_value(line, end, "# interval: ", &v)) {
                h_interval = v, have[0] = true;
            } else if (header_value(line, end, "# instructions: ", &v)) {
                h_instructions = v, have[1] = true;
            } else if (header_value(line, end, "# intervals: ", &v)) {
                h_intervals = v, have[2] = true;
            } else if (header_value(line, end, "# blocks: ", &v)) {
                h_blocks = v, have[3] = true;
                if (h_blocks >= UINT32_MAX) {
                    cs_error_set(err, "%s:%zu: %" PRIu64 " blocks: too many", name, line_no, h_blocks);
                    goto fail;
                }
            } else if (line_len > 8 && memcmp(line, "# block ", 8) == 0) {
                const char *q = line + 8;
                uint64_t id = 0, pc = 0;
                if (!parse_u64(&q, end, &id) || q + 3 > end || memcmp(q, " 0x", 3) != 0) {
                    cs_error_set(err, "%s:%zu: malformed block line", name, line_no);
                    goto fail;
                }
                q += 3;
                const char *digits = q;
                while (q < end && ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f'))) {
                    if (pc >> 60) break;
                    pc = pc << 4 | (uint64_t)(*q <= '9' ? *q - '0' : *q - 'a' + 10);
                    q++;
                }
                if (q == digits || q != end || id == 0 || id >= UINT32_MAX) {
                    cs_error_set(err, "%s:%zu: malformed block line", name, line_no);
                    goto fail;
                }
                /* kept as read; checked against the header at the end (the file
                 * bounds their number, the header does not) */
                if (pc_count == pc_cap) {
                    pc_cap = pc_cap ? pc_cap * 2 : 256;
                    pc_lines = cs_realloc(pc_lines, cs_array_size(pc_cap, sizeof *pc_lines));
                }
                pc_lines[pc_count++] = (bbv_entry){(uint32_t)id, pc};
            } else if (line_len > 9 && memcmp(line, "# crc32: ", 9) == 0) {
                const char *q = line + 9;
                uint32_t c = 0;
                int digits = 0;
                while (q < end && digits < 9 && ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f'))) {
                    c = c << 4 | (uint32_t)(*q <= '9' ? *q - '0' : *q - 'a' + 10);
                    q++, digits++;
                }
                if (digits != 8 || q != end) {
                    cs_error_set(err, "%s:%zu: malformed checksum line", name, line_no);
                    goto fail;
                }
                want_crc = c;
                have_crc = true;
            }
        }
        pos = next;
    }
    if (!seen_t) {
        cs_error_set(err, "%s: no intervals (no line starts with T): not a SimPoint .bb file", name);
        goto fail;
    }
    if (ours) {
        if (!have_crc) {
            cs_error_set(err, "%s: truncated: no checksum line", name);
            goto fail;
        }
        if (want_crc != crc) {
            cs_error_set(err, "%s: checksum mismatch (corrupt or edited file)", name);
            goto fail;
        }
        if (!have[0] || !have[1] || !have[2] || !have[3]) {
            cs_error_set(err, "%s: header incomplete (interval, instructions, intervals, blocks)", name);
            goto fail;
        }
        if (h_intervals != p->interval_count || h_instructions != p->instructions || max_block > h_blocks ||
            h_interval == 0) {
            cs_error_set(err, "%s: header disagrees with the intervals", name);
            goto fail;
        }
        p->interval = h_interval;
        p->blocks = (uint32_t)h_blocks;
        p->verified = true;
        if (pc_count) {
            /* one pc per block, every block */
            if (pc_count != h_blocks) {
                cs_error_set(err, "%s: %zu block lines for %" PRIu64 " blocks", name, pc_count, h_blocks);
                goto fail;
            }
            p->block_pc = cs_calloc(pc_count, sizeof *p->block_pc);
            bool *seen = cs_calloc(pc_count, sizeof *seen);
            for (size_t i = 0; i < pc_count; i++) {
                uint32_t id = pc_lines[i].block;
                if (id > h_blocks || seen[id - 1]) {
                    free(seen);
                    cs_error_set(err, "%s: block %" PRIu32 " out of range or listed twice", name, id);
                    goto fail;
                }
                seen[id - 1] = true;
                p->block_pc[id - 1] = pc_lines[i].count;
            }
            free(seen);
        }
    } else {
        p->blocks = max_block;
        /* another tool's file: the nominal interval is the longest one */
        for (size_t i = 0; i < p->interval_count; i++)
            if (p->intervals[i].instructions > p->interval) p->interval = p->intervals[i].instructions;
    }
    p->source = source ? source : cs_strdup(name);
    free(pc_lines);
    return p;

bad_entry:
    cs_error_set(err, "%s:%zu: malformed entry (want :BLOCK:COUNT with integers)", name, line_no);
fail:
    free(source);
    free(pc_lines);
    bbv_profile_free(p);
    return NULL;
}

bbv_profile *bbv_read(const char *path, cs_error *err) {
    uint8_t *data;
    size_t size;
    if (!cs_read_file(path, &data, &size, err)) return NULL;
    bbv_profile *p = bbv_parse((const char *)data, size, path, err);
    free(data);
    return p;
}
