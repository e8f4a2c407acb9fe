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

#include "pipeview.h"

enum { TICKS_PER_CYCLE = 1000 };

struct pipeview {
    FILE *out; /* file.f */
    cs_output file;
    char *path;
};

pipeview *pipeview_open(const char *path, cs_error *err) {
    cs_output file;
    FILE *f = cs_output_open(&file, path, err);
    if (!f) return NULL;
    pipeview *pv = cs_calloc(1, sizeof *pv);
    pv->file = file;
    pv->out = f;
    pv->path = cs_strdup(path);
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    return pv;
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
    fprintf(pv->out,
            "O3PipeView:fetch:%" PRIu64 ":0x%016" PRIx64 ":0:%" PRIu64 ":%s\n"
            "O3PipeView:decode:%" PRIu64 "\nO3PipeView:rename:%" PRIu64 "\nO3PipeView:dispatch:%" PRIu64
            "\nO3PipeView:issue:%" PRIu64 "\nO3PipeView:complete:%" PRIu64 "\nO3PipeView:retire:%" PRIu64
            ":store:%" PRIu64 "\n",
            t->itlb_done * TICKS_PER_CYCLE, t->u.pc, t->seq, text, decode * TICKS_PER_CYCLE,
            t->rename * TICKS_PER_CYCLE, t->dispatch * TICKS_PER_CYCLE, t->issue * TICKS_PER_CYCLE,
            t->complete * TICKS_PER_CYCLE, t->commit * TICKS_PER_CYCLE, store ? (t->commit + 1) * TICKS_PER_CYCLE : 0);
}

static void pipeview_retire(void *ctx, const uop_record *r, size_t n) {
    for (size_t i = 0; i < n; i++) write_record(ctx, &r[i]);
}

probe_observer pipeview_observer(pipeview *pv) {
    return (probe_observer){.ctx = pv, .needs = PROBE_RETIRE, .retire = pipeview_retire};
}

bool pipeview_close(pipeview *pv, cs_error *err) {
    if (!pv) return true;
    bool ok = cs_output_commit(&pv->file, err);
    cs_output_discard(&pv->file);
    free(pv->path);
    free(pv);
    return ok;
}
