/* pipeview — a pipeline log in gem5's O3PipeView format, which Konata and
 * gem5's util/o3-pipeview.py display (1000 ticks per cycle): an analysis that
 * asks only for retire records (PROBE_RETIRE). As an analysis of the runner it
 * is "pipeview" with the option file=PATH (the CLI's --pipeview PATH).
 */
#ifndef CYCLESCOPE_PIPEVIEW_H
#define CYCLESCOPE_PIPEVIEW_H

#include <stdbool.h>

#include "probes/probes.h"
#include "util/util.h"

typedef struct pipeview pipeview;
pipeview *pipeview_open(const char *path, cs_error *err);
/* needs = PROBE_RETIRE */
probe_observer pipeview_observer(pipeview *pv);
/* Flush and close; false if writing failed. */
bool pipeview_close(pipeview *pv, cs_error *err);

#endif
