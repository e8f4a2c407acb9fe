/* pipeview — a pipeline log in gem5's O3PipeView format, which Konata and
 * gem5's util/o3-pipeview.py display (1000 ticks per cycle): an analysis that
 * asks only for retire records (PROBE_RETIRE). As an analysis of the runner it
 * is "pipeview" with the options file=PATH (the CLI's --pipeview PATH), from=N
 * and count=N (--pipeview-from, --pipeview-count: only the instructions
 * N … N+count-1 of the timed run, counted from 0). A PATH ending in .gz is
 * written gzip-compressed (Konata reads it as it is).
 */
#ifndef CYCLESCOPE_PIPEVIEW_H
#define CYCLESCOPE_PIPEVIEW_H

#include <stdbool.h>

#include "probes/probes.h"
#include "util/util.h"

typedef struct pipeview pipeview;
/* Log the committed instructions from `from` on, at most `count` (0: all). */
pipeview *pipeview_open(const char *path, uint64_t from, uint64_t count, cs_error *err);
/* What was written: instructions, and bytes (before compression). */
void pipeview_written(const pipeview *pv, uint64_t *instructions, uint64_t *bytes);
/* needs = PROBE_RETIRE */
probe_observer pipeview_observer(pipeview *pv);
/* Flush and close; false if writing failed. */
bool pipeview_close(pipeview *pv, cs_error *err);
/* The same, but the log is left as its temporary in *staged (cs_output_commit puts it in
 * place, cs_output_discard removes it); *staged is empty when writing failed. */
bool pipeview_close_staged(pipeview *pv, cs_output *staged, cs_error *err);

#endif
