/* core_t: picks the model, keeps the observers, runs warm-up, times the stream. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

struct core {
    uarch_config cfg;
    const core_model_ops *ops;
    void *model;
    probe_set probes;
    const char *input_name; /* for errors; NULL: "the input" */
};

core_t *core_create(const uarch_config *cfg, cs_error *err) {
    if (!uarch_config_validate(cfg, err)) return NULL;
    core_t *c = cs_calloc(1, sizeof *c);
    c->cfg = *cfg;
    c->ops = cfg->model == MODEL_INORDER ? &inorder_model : &ooo_model;
    c->model = c->ops->create(&c->cfg, err);
    if (!c->model) {
        free(c);
        return NULL;
    }
    return c;
}

void core_set_input_name(core_t *c, const char *name) { c->input_name = name; }

bool core_observe(core_t *c, const probe_observer *obs, cs_error *err) { return probe_set_add(&c->probes, obs, err); }

bool core_run(core_t *c, uop_source *src, const core_run_options *opt, core_stats *stats, cs_error *err) {
    memset(stats, 0, sizeof *stats);
    uop_feeder *feed = cs_calloc(1, sizeof *feed);
    feed->src = src;
    /* functional warm-up: caches and predictors only, `warmup` whole instructions
     * (the unit of --max too): an instruction's continuation µops go with it */
    uint64_t warmed = 0, warm_uops = 0;
    for (;;) {
        const uop *u = feeder_peek(feed);
        if (!u) break;
        if (!(u->flags & UOP_CONTINUES)) {
            if (warmed == opt->warmup) break;
            warmed++;
        }
        c->ops->warm(c->model, u);
        feeder_next(feed);
        warm_uops++;
    }
    bool ok = !feed->failed;
    const char *name = c->input_name ? c->input_name : "the input";
    if (ok && warmed < opt->warmup) { /* never a run of 0 instructions reported as warmed up */
        cs_error_set(err,
                     "%s: the input ends after %" PRIu64 " instructions, within the warm-up of %" PRIu64
                     " instructions (--warmup): nothing is left to time",
                     name, warmed, opt->warmup);
        free(feed);
        return false;
    }
    if (ok) {
        feed->limit = opt->max ? feed->delivered_instructions + opt->max : 0;
        double t0 = cs_now();
        ok = c->ops->run(c->model, feed, opt, &c->probes, stats, err);
        stats->seconds = cs_now() - t0;
        if (ok && stats->uops == 0 && !feed->failed) {
            if (opt->warmup)
                cs_error_set(err,
                             "%s: the input ends with the warm-up of %" PRIu64
                             " instructions (--warmup): nothing is left to time",
                             name, opt->warmup);
            else cs_error_set(err, "%s: the input has no µops: nothing to time", name);
            ok = false;
        }
    }
    stats->warmup_uops = warm_uops;
    if (feed->failed) {
        if (err) *err = feed->error;
        ok = false;
    }
    free(feed);
    return ok;
}

long long core_warm(core_t *c, uop_source *src, uint64_t n, cs_error *err) {
    uop buf[1024];
    uint64_t done = 0;
    while (done < n) {
        uint64_t want = n - done < 1024 ? n - done : 1024;
        long got = uop_source_read(src, buf, (size_t)want, err);
        if (got < 0) return -1;
        if (got == 0) break;
        for (long i = 0; i < got; i++) c->ops->warm(c->model, &buf[i]);
        done += (uint64_t)got;
    }
    return (long long)done;
}

void core_destroy(core_t *c) {
    if (!c) return;
    c->ops->destroy(c->model);
    probe_set_free(&c->probes);
    free(c);
}
