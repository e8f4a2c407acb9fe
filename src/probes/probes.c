/* The observers of a run and their batches: what the timing models fill and
 * how it reaches the observers (docs/probes.md). */
#include <stdlib.h>
#include <string.h>

#include "probes.h"

static const char *const stall_names[STALL_COUNT] = {
#define PROBE_STALL_NAME(id, name) name,
    PROBE_STALL_LIST(PROBE_STALL_NAME)
#undef PROBE_STALL_NAME
};

const char *probe_stall_name(probe_stall s) { return s < STALL_COUNT ? stall_names[s] : "?"; }

const char *probe_stage_name(probe_stage s) {
    static const char *const names[STAGE_COUNT] = {"fetch", "dispatch", "issue", "commit"};
    return s < STAGE_COUNT ? names[s] : "?";
}

const char *mispredict_kind_name(mispredict_kind k) {
    static const char *const names[] = {"none", "conditional", "direct", "indirect", "return"};
    return k <= MISP_RETURN ? names[k] : "?";
}

mispredict_kind mispredict_kind_of(uint8_t cls) {
    switch (cls) {
    case OPC_BRANCH: return MISP_COND;
    case OPC_JUMP:
    case OPC_CALL: return MISP_DIRECT;
    case OPC_JUMP_INDIRECT: return MISP_INDIRECT;
    case OPC_RETURN: return MISP_RETURN;
    default: return MISP_NONE;
    }
}

const char *probe_unit_name(probe_unit u) {
    static const char *const names[UNIT_COUNT] = {
        "none", "l1i", "l1d",          "l2",       "l3",       "itlb",         "dtlb",  "rob",     "iq",
        "lq",   "sq",  "fetch-buffer", "mshr-l1i", "mshr-l1d", "store-buffer", "l2tlb", "mshr-l2", "mshr-l3"};
    return u < UNIT_COUNT ? names[u] : "?";
}

const char *probe_event_name(probe_event_kind k) {
    static const char *const names[PEV_COUNT] = {"miss",      "mispredict", "resolve", "flush",       "redirect",
                                                 "structure", "prefetch",   "fill",    "store-write", "store-join"};
    return k < PEV_COUNT ? names[k] : "?";
}

const char *wait_state_name(wait_state s) {
    static const char *const names[WST_COUNT] = {"queued",    "operands",  "ready",        "no-unit",
                                                 "mem-order", "no-mshr",   "executing",    "fill",
                                                 "done",      "committed", "store-buffer", "translating"};
    return s < WST_COUNT ? names[s] : "?";
}

/* ---- the set ---- */

static const struct {
    uint32_t bit;
    const char *what;
} kinds[] = {
    {PROBE_STAGES, "stage spans"},  {PROBE_FP, "FP spans"},       {PROBE_RETIRE, "retire records"},
    {PROBE_EVENTS, "events"},       {PROBE_WAITS, "wait states"}, {PROBE_SAMPLES, "samples"},
    {PROBE_INTERVALS, "intervals"}, {PROBE_FETCH, "fetch spans"},
};

static bool has_callback(const probe_observer *o, uint32_t bit) {
    switch (bit) {
    case PROBE_STAGES:
    case PROBE_FETCH: return o->stages != NULL;
    case PROBE_FP: return o->fp != NULL;
    case PROBE_RETIRE: return o->retire != NULL;
    case PROBE_EVENTS: return o->events != NULL;
    case PROBE_WAITS: return o->waits != NULL;
    case PROBE_SAMPLES: return o->sample != NULL && o->sample_period > 0;
    case PROBE_INTERVALS: return o->interval != NULL && o->interval_insns > 0;
    default: return true;
    }
}

bool probe_set_add(probe_set *set, const probe_observer *obs, cs_error *err) {
    if (set->count == PROBE_MAX_OBSERVERS) {
        cs_error_set(err, "too many probe observers (at most %d)", PROBE_MAX_OBSERVERS);
        return false;
    }
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if ((obs->needs & kinds[i].bit) && !has_callback(obs, kinds[i].bit)) {
            cs_error_set(err, "a probe observer asks for %s without the callback (or period) for them", kinds[i].what);
            return false;
        }
    }
    if (obs->stage_mask & ~(uint32_t)PROBE_STAGES_ALL) {
        cs_error_set(err, "a probe observer's stage mask names a stage other than dispatch, issue and commit");
        return false;
    }
    if ((obs->needs & PROBE_PRODUCERS) && !(obs->needs & PROBE_RETIRE)) {
        cs_error_set(err, "a probe observer asks for producers without retire records");
        return false;
    }
    set->obs[set->count++] = *obs;
    set->needs |= obs->needs;
    if (obs->needs & PROBE_STAGES) set->stage_mask |= obs->stage_mask ? obs->stage_mask : PROBE_STAGES_ALL;
    if (obs->needs & PROBE_FETCH) set->stage_mask |= PROBE_STAGE_BIT(STAGE_FETCH);
    return true;
}

void probe_set_free(probe_set *set) {
    free(set->spans);
    free(set->fspans);
    free(set->fps);
    free(set->recs);
    free(set->events);
    free(set->waits);
    set->spans = NULL;
    set->fspans = NULL;
    set->fps = NULL;
    set->recs = NULL;
    set->events = NULL;
    set->waits = NULL;
}

void probe_begin(probe_set *set, const probe_run_info *info) {
    probe_set_free(set);
    if (set->needs & PROBE_STAGES) set->spans = cs_calloc(PROBE_BATCH, sizeof *set->spans);
    if (set->needs & PROBE_FETCH) set->fspans = cs_calloc(PROBE_BATCH, sizeof *set->fspans);
    if (set->needs & PROBE_FP) set->fps = cs_calloc(PROBE_BATCH, sizeof *set->fps);
    if (set->needs & PROBE_RETIRE) set->recs = cs_calloc(PROBE_BATCH, sizeof *set->recs);
    if (set->needs & PROBE_EVENTS) set->events = cs_calloc(PROBE_BATCH, sizeof *set->events);
    if (set->needs & PROBE_WAITS) set->waits = cs_calloc(PROBE_BATCH, sizeof *set->waits);
    set->n_spans = set->n_fspans = set->n_fps = set->n_recs = set->n_events = set->n_waits = 0;
    /* width 0 never equals a real view: the first view of each stage opens a span */
    memset(set->open, 0, sizeof set->open);
    for (int s = 0; s < STAGE_COUNT; s++) set->open[s].stage = (uint8_t)s;
    memset(&set->open_fp, 0, sizeof set->open_fp);
    set->open_fp.v.units = UINT8_MAX;
    set->sample_at = set->interval_at = UINT64_MAX;
    for (int i = 0; i < set->count; i++) {
        const probe_observer *o = &set->obs[i];
        set->next_sample[i] = o->needs & PROBE_SAMPLES ? o->sample_period : UINT64_MAX;
        set->next_interval[i] = o->needs & PROBE_INTERVALS ? o->interval_insns : UINT64_MAX;
        if (set->next_sample[i] < set->sample_at) set->sample_at = set->next_sample[i];
        if (set->next_interval[i] < set->interval_at) set->interval_at = set->next_interval[i];
    }
    for (int i = 0; i < set->count; i++)
        if (set->obs[i].begin) set->obs[i].begin(set->obs[i].ctx, info);
}

void probe_flush_spans_(probe_set *set) {
    for (int i = 0; i < set->count; i++) {
        const probe_observer *o = &set->obs[i];
        if (set->n_spans && (o->needs & PROBE_STAGES)) o->stages(o->ctx, set->spans, set->n_spans);
        if (set->n_fspans && (o->needs & PROBE_FETCH)) o->stages(o->ctx, set->fspans, set->n_fspans);
        if (set->n_fps && (o->needs & PROBE_FP)) o->fp(o->ctx, set->fps, set->n_fps);
    }
    set->n_spans = set->n_fspans = set->n_fps = 0;
}

void probe_flush_recs_(probe_set *set) {
    for (int i = 0; i < set->count; i++) {
        const probe_observer *o = &set->obs[i];
        if (set->n_recs && (o->needs & PROBE_RETIRE)) o->retire(o->ctx, set->recs, set->n_recs);
    }
    set->n_recs = 0;
}

void probe_flush_events_(probe_set *set) {
    for (int i = 0; i < set->count; i++) {
        const probe_observer *o = &set->obs[i];
        if (set->n_events && (o->needs & PROBE_EVENTS)) o->events(o->ctx, set->events, set->n_events);
    }
    set->n_events = 0;
}

void probe_flush_waits_(probe_set *set) {
    for (int i = 0; i < set->count; i++) {
        const probe_observer *o = &set->obs[i];
        if (set->n_waits && (o->needs & PROBE_WAITS)) o->waits(o->ctx, set->waits, set->n_waits);
    }
    set->n_waits = 0;
}

void probe_flush(probe_set *set) {
    if (set->n_events) probe_flush_events_(set);
    if (set->n_waits) probe_flush_waits_(set);
    if (set->n_spans || set->n_fspans || set->n_fps) probe_flush_spans_(set);
    if (set->n_recs) probe_flush_recs_(set);
}

bool probe_cycle_views(probe_set *set, uint64_t now, const stage_view *fetch, const stage_view *dispatch,
                       const stage_view *issue, const stage_view *commit, const fp_view *fp) {
    bool fetch_changed = fetch && probe_stage_view(set, STAGE_FETCH, now, fetch);
    uint32_t mask = set->stage_mask;
    if (__builtin_expect((mask & PROBE_STAGES_ALL) == PROBE_STAGES_ALL, 1)) { /* the stacks' (and most) */
        probe_stage_view(set, STAGE_DISPATCH, now, dispatch);
        probe_stage_view(set, STAGE_ISSUE, now, issue);
        probe_stage_view(set, STAGE_COMMIT, now, commit);
    } else {
        if (mask & PROBE_STAGE_BIT(STAGE_DISPATCH)) probe_stage_view(set, STAGE_DISPATCH, now, dispatch);
        if (mask & PROBE_STAGE_BIT(STAGE_ISSUE)) probe_stage_view(set, STAGE_ISSUE, now, issue);
        if (mask & PROBE_STAGE_BIT(STAGE_COMMIT)) probe_stage_view(set, STAGE_COMMIT, now, commit);
    }
    if (fp) probe_fp_view(set, now, fp);
    return fetch_changed;
}

void probe_sample(probe_set *set, const sample_view *view) {
    probe_flush(set);
    uint64_t at = UINT64_MAX;
    for (int i = 0; i < set->count; i++) {
        if (set->next_sample[i] == view->cycle) {
            const probe_observer *o = &set->obs[i];
            uint64_t period = o->sample(o->ctx, view);
            set->next_sample[i] = period ? view->cycle + period : UINT64_MAX;
        }
        if (set->next_sample[i] < at) at = set->next_sample[i];
    }
    set->sample_at = at;
}

void probe_interval(probe_set *set, const core_stats *so_far) {
    probe_flush(set);
    uint64_t at = UINT64_MAX;
    for (int i = 0; i < set->count; i++) {
        if (set->next_interval[i] <= so_far->instructions) {
            const probe_observer *o = &set->obs[i];
            o->interval(o->ctx, so_far);
            while (set->next_interval[i] <= so_far->instructions) set->next_interval[i] += o->interval_insns;
        }
        if (set->next_interval[i] < at) at = set->next_interval[i];
    }
    set->interval_at = at;
}

void probe_end(probe_set *set, const core_stats *stats) {
    uint64_t end = stats->cycles;
    for (int s = 0; s < STAGE_COUNT; s++) {
        stage_span *o = &set->open[s], *batch = s == STAGE_FETCH ? set->fspans : set->spans;
        uint32_t *n = s == STAGE_FETCH ? &set->n_fspans : &set->n_spans;
        if (!batch || o->v.width == 0 || end <= o->cycle) continue;
        o->cycles = end - o->cycle;
        if (*n == PROBE_BATCH) probe_flush_spans_(set);
        batch[(*n)++] = *o;
    }
    if (set->needs & PROBE_FP) {
        fp_span *o = &set->open_fp;
        if (o->v.units != UINT8_MAX && end > o->cycle) {
            o->cycles = end - o->cycle;
            if (set->n_fps == PROBE_BATCH) probe_flush_spans_(set);
            set->fps[set->n_fps++] = *o;
        }
    }
    probe_flush(set);
    for (int i = 0; i < set->count; i++)
        if (set->obs[i].end) set->obs[i].end(set->obs[i].ctx, stats);
    probe_set_free(set);
}
