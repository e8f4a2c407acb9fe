/* uarch — timing models behind one `core` interface, their configuration and
 * their statistics.
 *
 * Models: "ooo" (a configurable out-of-order superscalar core) and "inorder"
 * (the component/connection machines of Noonburg's thesis). Both pull µops
 * from any uop_source and report through the probe interface.
 *
 * The configuration and the statistics are in config.h (included here), so
 * that the probe contract can carry them without including the core.
 */
#ifndef CYCLESCOPE_UARCH_H
#define CYCLESCOPE_UARCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "probes/probes.h"
#include "trace/trace.h"
#include "util/util.h"

/* ---- the core ------------------------------------------------------------------ */

typedef struct core core_t;

typedef struct core_run_options {
    uint64_t warmup;            /* instructions that only train caches and predictors */
    uint64_t max;               /* instructions to time after warm-up; 0 = to the end */
    const char *progress_label; /* NULL: no progress bar */
} core_run_options;

core_t *core_create(const uarch_config *cfg, cs_error *err);
/* Name the input in core_run's errors ("the input ends within the warm-up");
 * the string must outlive the runs. */
void core_set_input_name(core_t *core, const char *name);
/* Register an observer before core_run. False with *err set if there are too
 * many or it asks for something without the callback for it. */
bool core_observe(core_t *core, const probe_observer *obs, cs_error *err);
/* Time the µops of `src`. On error (source failure, deadlock) returns false with
 * *err set; *stats then holds what was measured so far. */
bool core_run(core_t *core, uop_source *src, const core_run_options *opt, core_stats *stats, cs_error *err);
/* Functional warm-up outside a run: train caches and predictors with the next
 * n µops of src, timing nothing. A later core_run starts from that state.
 * Returns the µops used (fewer at the end of the stream), -1 on a source error. */
long long core_warm(core_t *core, uop_source *src, uint64_t n, cs_error *err);
/* Put the core back in the state core_create left it (its model's pipeline, caches, TLBs,
 * predictor and counters; no warm-up), without reallocating: many short runs on one machine
 * (the profile's static schedules) allocate its structures once. A reset clears the model's
 * own buffers (sized by the window) and the predictor's tables whole, but of the caches and
 * TLBs only the lines used since (cache_reset). The observers and the input name stay. */
void core_reset(core_t *core);
void core_destroy(core_t *core);

#endif
