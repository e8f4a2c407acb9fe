#include "probes.h"

static const char *const stall_names[STALL_COUNT] = {
#define PROBE_STALL_NAME(id, name) name,
    PROBE_STALL_LIST(PROBE_STALL_NAME)
#undef PROBE_STALL_NAME
};

const char *probe_stall_name(probe_stall s) { return s < STALL_COUNT ? stall_names[s] : "?"; }

bool probe_set_add(probe_set *set, const probe_observer *obs) {
    if (set->count == PROBE_MAX_OBSERVERS) return false;
    set->obs[set->count++] = *obs;
    if (obs->cycle) set->want_cycles = true;
    if (obs->retire) set->want_retire = true;
    return true;
}

void probe_emit_begin(const probe_set *set, const probe_run_info *info) {
    for (int i = 0; i < set->count; i++)
        if (set->obs[i].begin) set->obs[i].begin(set->obs[i].ctx, info);
}

void probe_emit_end(const probe_set *set, uint64_t cycles, uint64_t instructions) {
    for (int i = 0; i < set->count; i++)
        if (set->obs[i].end) set->obs[i].end(set->obs[i].ctx, cycles, instructions);
}
