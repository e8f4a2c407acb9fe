/* RpStacks as an analysis of the runner ("rpstacks"): the observer hands every
 * committed µop's record with its producers to the stream (graph.c), whose
 * threads reduce each segment as soon as its µops are in; finish reduces the
 * last one and gathers the stacks. Options: segment=N, similarity=S,
 * max-scale=X, max-stacks=N, unique=yes|no|event|combination (yes: event), threads=N, keep=yes (the whole run kept, for
 * rps_graph_cycles; else only the few segments in work). */
#include <stdlib.h>
#include <string.h>

#include "rpstacks.h"
#include "rpstacks_internal.h"
#include "runner/runner.h"

typedef struct rps_analysis {
    rps_options opt;
    bool keep_run; /* keep=yes: the whole run kept (rps_graph_cycles; benches and tests) */
    bool drains;   /* the configuration has a store buffer: its writes are the drain nodes (events) */
    rps_stream *stream;
    rps_result result;
    bool done;
} rps_analysis;

static void *rps_create(const analysis_options *opt, cs_error *err) {
    rps_options o;
    rps_options_default(&o);
    bool keep = false;
    for (int k = 0; k < opt->count; k++) {
        const char *key = opt->key[k], *v = opt->value[k];
        uint64_t n;
        char *end;
        if (!strcmp(key, "segment")) {
            if (!cs_parse_count(v, &n) || n == 0 || n > 10000000) {
                cs_error_set(err, "segment=%s: expected a count from 1 to 10M", v);
                return NULL;
            }
            o.segment = (uint32_t)n;
        } else if (!strcmp(key, "similarity")) {
            o.similarity = strtod(v, &end);
            if (*end || end == v || !(o.similarity >= 0 && o.similarity <= 1)) {
                cs_error_set(err, "similarity=%s: expected a number from 0 to 1", v);
                return NULL;
            }
        } else if (!strcmp(key, "max-scale")) {
            o.max_scale = strtod(v, &end);
            if (*end || end == v || !rps_max_scale_ok(o.max_scale)) {
                cs_error_set(err, "max-scale=%s: expected 0 (no bound) or a number from 1 to %d", v, RPS_MAX_SCALE);
                return NULL;
            }
        } else if (!strcmp(key, "max-stacks")) {
            if (!cs_parse_count(v, &n) || n == 0 || n > RPS_MAX_STACKS) {
                cs_error_set(err, "max-stacks=%s: expected a count from 1 to %d", v, RPS_MAX_STACKS);
                return NULL;
            }
            o.max_stacks = (uint32_t)n;
        } else if (!strcmp(key, "unique")) {
            if (!rps_unique_parse(v, &o.unique)) {
                cs_error_set(err, "unique=%s: expected yes, no, event or combination", v);
                return NULL;
            }
        } else if (!strcmp(key, "threads")) {
            if (!cs_parse_count(v, &n) || n > 256) {
                cs_error_set(err, "threads=%s: expected a count from 0 to 256", v);
                return NULL;
            }
            o.threads = (uint32_t)n;
        } else if (!strcmp(key, "keep")) {
            if (strcmp(v, "yes") && strcmp(v, "no")) {
                cs_error_set(err, "keep=%s: expected yes or no", v);
                return NULL;
            }
            keep = !strcmp(v, "yes");
        } else {
            cs_error_set(err,
                         "unknown option '%s' (rpstacks takes segment, similarity, max-scale, max-stacks, unique, "
                         "threads, keep)",
                         key);
            return NULL;
        }
    }
    /* refused before the run when the model is known, as a configuration error (else when it
     * ends: rps_finish), not after timing the whole program */
    if (opt->cfg && opt->cfg->model != MODEL_OOO) {
        cs_error_set(err, "the dependence graph models the out-of-order core (configuration %s is in-order)",
                     opt->cfg->name);
        return NULL;
    }
    rps_analysis *a = cs_calloc(1, sizeof *a);
    a->opt = o;
    a->keep_run = keep;
    /* a store buffer's writes come as probe events; without one nothing is asked (ooo4: the
     * core produces no events for this analysis) */
    a->drains = !opt->cfg || opt->cfg->store_buffer > 0;
    return a;
}

static void on_begin(void *ctx, const probe_run_info *info) {
    rps_analysis *a = ctx;
    rps_stream_destroy(a->stream);
    a->stream = info->cfg->model == MODEL_OOO ? rps_stream_start(info->cfg, &a->opt, a->keep_run) : NULL;
}

static void on_retire(void *ctx, const uop_record *r, size_t n) {
    rps_analysis *a = ctx;
    if (a->stream) rps_stream_add(a->stream, r, n);
}

static void on_events(void *ctx, const probe_event *e, size_t n) {
    rps_analysis *a = ctx;
    if (!a->stream) return;
    for (size_t k = 0; k < n; k++)
        if (e[k].kind == PEV_STORE_WRITE || e[k].kind == PEV_STORE_JOIN || e[k].kind == PEV_FILL)
            rps_stream_write(a->stream, &e[k]);
}

static probe_observer rps_observer(void *self) {
    rps_analysis *a = self;
    probe_observer o = {0};
    o.ctx = self;
    o.needs = PROBE_RETIRE | PROBE_PRODUCERS | (a->drains ? PROBE_EVENTS : 0);
    o.begin = on_begin;
    o.retire = on_retire;
    o.events = a->drains ? on_events : NULL;
    return o;
}

static bool rps_finish(void *self, const run_context *run, cs_error *err) {
    rps_analysis *a = self;
    if (run->cfg->model != MODEL_OOO) {
        cs_error_set(err, "rpstacks: the dependence graph models the out-of-order core (configuration %s is %s)",
                     run->cfg->name, "in-order");
        return false;
    }
    if (!a->stream) {
        cs_error_set(err, "rpstacks: the run gave no records");
        return false;
    }
    if (!rps_stream_finish(a->stream, &a->result, err)) return false;
    /* the simulated cycles are the core's: a run can go on after its last commit (stores
     * draining from a store buffer at the end, or after a --max cut). With the store buffer's
     * writes seen, the graph ends at the last one (the last segment's sink: its drain nodes,
     * their fills as events). What is left after the graph's end joins it as one last edge:
     * the last store's fill (its L2 and memory latencies, which scale) and base for the rest
     * (rps_tail_weight). Every path of the last segment and CP1 end with it; FMT, a commit-stall
     * table, charges everything after the last commit that way. So the baseline is predicted
     * as simulated (docs/rpstacks.md) */
    rps_result *r = &a->result;
    if (run->stats && run->stats->cycles > r->commit_cycles && r->segments) {
        const rps_trace *t = rps_stream_trace(a->stream);
        double dims[RPS_DIMS];
        rps_tail_weight(t, (double)(run->stats->cycles - r->commit_cycles), dims);
        for (int d = 0; d < RPS_DIMS; d++) r->fmt[d] += dims[d];
        r->drain_in_graph = r->cycles > r->commit_cycles;
        if (run->stats->cycles > r->cycles) {
            double tail = (double)(run->stats->cycles - r->cycles);
            if (r->drain_in_graph) memset(dims, 0, sizeof dims), dims[RPS_BASE] = tail; /* beyond the last write */
            else rps_tail_weight(t, tail, dims);
            for (int d = 0; d < RPS_DIMS; d++) {
                if (dims[d] == 0) continue;
                for (uint32_t s = r->seg_first[r->segments - 1]; s < r->seg_first[r->segments]; s++)
                    r->stacks[(size_t)s * RPS_DIMS + d] += dims[d];
                r->cp1[d] += dims[d];
            }
            r->graph_cycles += tail;
        }
        r->drain_cycles = run->stats->cycles - r->commit_cycles;
        r->cycles = run->stats->cycles;
    }
    a->done = true;
    return true;
}

static void rps_text_of(void *self, FILE *out) {
    rps_analysis *a = self;
    if (a->done) rps_text(&a->result, out);
}

static void rps_destroy(void *self) {
    rps_analysis *a = self;
    rps_stream_destroy(a->stream);
    rps_result_free(&a->result);
    free(a);
}

rps_result *rps_analysis_result(void *self) {
    rps_analysis *a = self;
    return a->done ? &a->result : NULL;
}

const rps_trace *rps_analysis_trace(void *self) {
    rps_analysis *a = self;
    return a->stream ? rps_stream_trace(a->stream) : NULL;
}

const analysis_ops rpstacks_analysis = {
    .name = "rpstacks",
    .help = "RpStacks representative stall-event stacks; segment=N similarity=S max-scale=X max-stacks=N "
            "unique=yes|no|event|combination threads=N "
            "keep=yes|no "
            "(docs/rpstacks.md)",
    .create = rps_create,
    .observer = rps_observer,
    .finish = rps_finish,
    .text = rps_text_of,
    .destroy = rps_destroy,
};
