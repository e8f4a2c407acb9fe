/* The analyses the runner knows by name. A new analysis is one line here (and
 * its own module defining `const analysis_ops NAME_analysis`). */
#include <string.h>

#include "runner.h"

#define ANALYSES(X)                                                                         \
    X(stacks_analysis)      /* multi-stage CPI, IPC and FLOPS stacks (src/stacks) */        \
    X(pipeview_analysis)    /* gem5 O3PipeView log, option file=PATH (src/pipeview) */      \
    X(profile_analysis_ops) /* DCPI-style CYCLES samples to a profile file (src/profile) */ \
    X(rpstacks_analysis)    /* RpStacks representative stacks (src/rpstacks) */             \
    X(stallscope_analysis)  /* causal stall chains (src/stallscope) */

#define DECLARE(a) extern const analysis_ops a;
ANALYSES(DECLARE)
#undef DECLARE

static const analysis_ops *const registry[] = {
#define ENTRY(a) &a,
    ANALYSES(ENTRY)
#undef ENTRY
        NULL};

const analysis_ops *const *analysis_all(void) { return registry; }

const analysis_ops *analysis_find(const char *name) {
    for (const analysis_ops *const *a = registry; *a; a++)
        if (!strcmp((*a)->name, name)) return *a;
    return NULL;
}
