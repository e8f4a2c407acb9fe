/* The in-order machines of Noonburg's thesis: being written (issue 5). */
#include "core_internal.h"

static void *inorder_create(const uarch_config *cfg, cs_error *err) {
    (void)cfg;
    cs_error_set(err, "core.model = inorder: the in-order model is not available in this build yet");
    return NULL;
}
static bool inorder_run(void *m, uop_feeder *f, const core_run_options *o, const probe_set *p, core_stats *s,
                        cs_error *e) {
    (void)m, (void)f, (void)o, (void)p, (void)s, (void)e;
    return false;
}
static void inorder_warm(void *m, const uop *u) { (void)m, (void)u; }
static void inorder_destroy(void *m) { (void)m; }

const core_model_ops inorder_model = {"inorder", inorder_create, inorder_run, inorder_warm, inorder_destroy};
