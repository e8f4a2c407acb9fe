/* The O3PipeView writer as an analysis of the runner: "pipeview:file=PATH". */
#include <stdlib.h>
#include <string.h>

#include "pipeview.h"
#include "runner/runner.h"

static void *pv_create(const analysis_options *opt, cs_error *err) {
    const char *path = NULL;
    for (int i = 0; i < opt->count; i++) {
        if (strcmp(opt->key[i], "file") != 0) {
            cs_error_set(err, "unknown option '%s' (pipeview takes file=PATH)", opt->key[i]);
            return NULL;
        }
        path = opt->value[i];
    }
    if (!path || !*path) {
        cs_error_set(err, "give the log file: pipeview:file=PATH (or --pipeview PATH)");
        return NULL;
    }
    return pipeview_open(path, err);
}

/* The writer, once closed, is kept as NULL: finish closes it, destroy too if finish never ran. */
typedef struct pv_box {
    pipeview *pv;
} pv_box;

static void *pv_box_create(const analysis_options *opt, cs_error *err) {
    pipeview *pv = pv_create(opt, err);
    if (!pv) return NULL;
    pv_box *b = cs_calloc(1, sizeof *b);
    b->pv = pv;
    return b;
}

static probe_observer pv_observer(void *self) { return pipeview_observer(((pv_box *)self)->pv); }

static bool pv_finish(void *self, const run_context *run, cs_error *err) {
    (void)run;
    pv_box *b = self;
    bool ok = pipeview_close(b->pv, err);
    b->pv = NULL;
    return ok;
}

static void pv_destroy(void *self) {
    pv_box *b = self;
    cs_error ignored;
    pipeview_close(b->pv, &ignored);
    free(b);
}

const analysis_ops pipeview_analysis = {
    .name = "pipeview",
    .help = "gem5 O3PipeView log for Konata, option file=PATH (also --pipeview PATH)",
    .create = pv_box_create,
    .observer = pv_observer,
    .finish = pv_finish,
    .destroy = pv_destroy,
};
