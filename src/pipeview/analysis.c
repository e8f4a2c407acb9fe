/* The O3PipeView writer as an analysis of the runner:
 * "pipeview:file=PATH[:from=N][:count=N]". */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pipeview.h"
#include "runner/runner.h"

static pipeview *pv_create(const analysis_options *opt, cs_error *err) {
    const char *path = NULL;
    uint64_t from = 0, count = 0;
    for (int i = 0; i < opt->count; i++) {
        bool is_from = !strcmp(opt->key[i], "from"), is_count = !strcmp(opt->key[i], "count");
        if (!strcmp(opt->key[i], "file")) {
            path = opt->value[i];
        } else if (!strcmp(opt->key[i], "staged")) {
            continue; /* pv_box_create's */
        } else if (is_from || is_count) {
            if (!cs_parse_count(opt->value[i], is_from ? &from : &count) || (is_count && count == 0)) {
                cs_error_set(err, "%s=%s: not a%s number of instructions", opt->key[i], opt->value[i],
                             is_count ? " positive" : "");
                return NULL;
            }
        } else {
            cs_error_set(err, "unknown option '%s' (pipeview takes file=PATH, from=N, count=N, staged=1)", opt->key[i]);
            return NULL;
        }
    }
    if (!path || !*path) {
        cs_error_set(err, "give the log file: pipeview:file=PATH (or --pipeview PATH)");
        return NULL;
    }
    return pipeview_open(path, from, count, err);
}

/* The writer, once closed, is kept as NULL: finish closes it, destroy too if
 * finish never ran. What it wrote is kept for the terminal. staged=1: finish
 * leaves the log as its temporary (`staged`) until keep (runner.h). */
typedef struct pv_box {
    pipeview *pv;
    char *path;
    uint64_t from, instructions, bytes;
    bool staging;
    cs_output staged;
} pv_box;

static void *pv_box_create(const analysis_options *opt, cs_error *err) {
    pipeview *pv = pv_create(opt, err);
    if (!pv) return NULL;
    pv_box *b = cs_calloc(1, sizeof *b);
    b->pv = pv;
    b->path = cs_strdup(analysis_option(opt, "file"));
    const char *staged = analysis_option(opt, "staged");
    b->staging = staged && !strcmp(staged, "1");
    const char *from = analysis_option(opt, "from");
    if (from) cs_parse_count(from, &b->from);
    return b;
}

static void pv_text(void *self, FILE *out) {
    pv_box *b = self;
    fprintf(out, "\nO3PipeView log (Konata): %s, %" PRIu64 " instructions from instruction %" PRIu64 ", %.1f MB%s\n",
            b->path, b->instructions, b->from, (double)b->bytes / 1e6,
            strlen(b->path) > 3 && !strcmp(b->path + strlen(b->path) - 3, ".gz") ? " before compression" : "");
}

static probe_observer pv_observer(void *self) { return pipeview_observer(((pv_box *)self)->pv); }

static bool pv_finish(void *self, const run_context *run, cs_error *err) {
    (void)run;
    pv_box *b = self;
    if (b->pv) pipeview_written(b->pv, &b->instructions, &b->bytes);
    bool ok = b->staging ? pipeview_close_staged(b->pv, &b->staged, err) : pipeview_close(b->pv, err);
    b->pv = NULL;
    return ok;
}

static bool pv_keep(void *self, cs_error *err) {
    pv_box *b = self;
    bool ok = !b->staged.path || cs_output_commit(&b->staged, err);
    cs_output_discard(&b->staged);
    return ok;
}

static void pv_destroy(void *self) {
    pv_box *b = self;
    cs_error ignored;
    if (b->pv && b->staging) pipeview_close_staged(b->pv, &b->staged, &ignored); /* finish never ran */
    else pipeview_close(b->pv, &ignored);
    cs_output_discard(&b->staged); /* not kept: removed */
    free(b->path);
    free(b);
}

const analysis_ops pipeview_analysis = {
    .name = "pipeview",
    .help = "gem5 O3PipeView log for Konata: file=PATH (.gz: compressed), from=N, count=N instructions "
            "(also --pipeview PATH, --pipeview-from, --pipeview-count); staged=1: the log is put in place only when "
            "the caller keeps it",
    .create = pv_box_create,
    .observer = pv_observer,
    .finish = pv_finish,
    .text = pv_text,
    .destroy = pv_destroy,
    .keep = pv_keep,
};
