/* O3PipeView writer: one block of lines per committed µop, in gem5's format:
 *   O3PipeView:fetch:<tick>:0x<pc>:<micro-pc>:<seq>:<disassembly>
 *   O3PipeView:decode|rename|dispatch|issue|complete:<tick>
 *   O3PipeView:retire:<tick>:store:<store tick or 0>
 * Ticks are cycles x 1000, the cycle time o3-pipeview.py and Konata assume.
 * "fetch" is when the I-cache access started (after an ITLB miss, if any:
 * the record's itlb_done); "decode" when the I-cache delivered the bytes. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "pipeview.h"

enum { TICKS_PER_CYCLE = 1000 };

struct pipeview {
    FILE *out; /* plain (file.f), or */
    gzFile gz; /* PATH.gz, written through file's descriptor */
    cs_output file;
    bool error; /* a write failed */
    char *path;
    uint64_t from, count;    /* the window, in instructions */
    uint64_t insn;           /* instructions committed before the current record */
    uint64_t written, bytes; /* instructions and bytes logged */
};

static bool ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

pipeview *pipeview_open(const char *path, uint64_t from, uint64_t count, cs_error *err) {
    cs_output file;
    FILE *f = cs_output_open(&file, path, err);
    if (!f) return NULL;
    pipeview *pv = cs_calloc(1, sizeof *pv);
    pv->file = file;
    if (ends_with(path, ".gz")) {
        int fd = dup(fileno(f));
        pv->gz = fd >= 0 ? gzdopen(fd, "wb6") : NULL;
        if (!pv->gz) {
            if (fd >= 0) close(fd);
            cs_error_set(err, "%s: cannot start gzip", path);
            cs_output_discard(&pv->file);
            free(pv);
            return NULL;
        }
        gzbuffer(pv->gz, 1 << 20);
    } else {
        pv->out = f;
        setvbuf(f, NULL, _IOFBF, 1 << 20);
    }
    pv->path = cs_strdup(path);
    pv->from = from;
    pv->count = count;
    return pv;
}

void pipeview_written(const pipeview *pv, uint64_t *instructions, uint64_t *bytes) {
    *instructions = pv->written;
    *bytes = pv->bytes;
}

static void write_record(pipeview *pv, const uop_record *t) {
    char text[96] = "?";
    isa_insn d;
    if (t->u.encoding) {
        isa_decode(t->u.encoding, &d);
        isa_disasm(&d, t->u.pc, text, sizeof text);
        for (char *p = text; *p; p++)
            if (*p == '\t') *p = ' ';
    } else {
        snprintf(text, sizeof text, "%s", isa_class_name((op_class)t->u.op_class));
    }
    uint64_t decode = t->icache_done;
    bool store = t->u.flags & UOP_MEM_WRITE;
    char buf[512];
    int n = snprintf(buf, sizeof buf,
                     "O3PipeView:fetch:%" PRIu64 ":0x%016" PRIx64 ":0:%" PRIu64 ":%s\n"
                     "O3PipeView:decode:%" PRIu64 "\nO3PipeView:rename:%" PRIu64 "\nO3PipeView:dispatch:%" PRIu64
                     "\nO3PipeView:issue:%" PRIu64 "\nO3PipeView:complete:%" PRIu64 "\nO3PipeView:retire:%" PRIu64
                     ":store:%" PRIu64 "\n",
                     t->itlb_done * TICKS_PER_CYCLE, t->u.pc, t->seq, text, decode * TICKS_PER_CYCLE,
                     t->rename * TICKS_PER_CYCLE, t->dispatch * TICKS_PER_CYCLE, t->issue * TICKS_PER_CYCLE,
                     t->complete * TICKS_PER_CYCLE, t->commit * TICKS_PER_CYCLE,
                     store ? (t->commit + 1) * TICKS_PER_CYCLE : 0);
    if (n < 0) return;
    size_t len = (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;
    if (pv->gz) pv->error |= gzwrite(pv->gz, buf, (unsigned)len) != (int)len;
    else pv->error |= fwrite(buf, 1, len, pv->out) != len;
    pv->bytes += len;
}

static void pipeview_retire(void *ctx, const uop_record *r, size_t n) {
    pipeview *pv = ctx;
    for (size_t i = 0; i < n; i++) {
        bool first_uop = !(r[i].u.flags & UOP_CONTINUES);
        uint64_t insn = pv->insn - !first_uop; /* a continuation belongs to the instruction before */
        if (first_uop) pv->insn++;
        if (insn < pv->from || (pv->count && insn >= pv->from + pv->count)) continue;
        write_record(pv, &r[i]);
        pv->written += first_uop;
    }
}

probe_observer pipeview_observer(pipeview *pv) {
    return (probe_observer){.ctx = pv, .needs = PROBE_RETIRE, .retire = pipeview_retire};
}

bool pipeview_close_staged(pipeview *pv, cs_output *staged, cs_error *err) {
    memset(staged, 0, sizeof *staged);
    if (!pv) return true;
    bool ok = !pv->error;
    if (pv->gz) ok = gzclose(pv->gz) == Z_OK && ok; /* before the commit closes the file */
    if (!ok) cs_error_set(err, "%s: write failed", pv->path);
    if (ok) *staged = pv->file;
    else cs_output_discard(&pv->file);
    free(pv->path);
    free(pv);
    return ok;
}

bool pipeview_close(pipeview *pv, cs_error *err) {
    cs_output staged;
    bool ok = pipeview_close_staged(pv, &staged, err) && (!staged.path || cs_output_commit(&staged, err));
    cs_output_discard(&staged);
    return ok;
}
