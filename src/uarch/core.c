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
        /* saturating: --warmup 1000 --max 18446744073709551615 wrapped to a limit of 999, one instruction */
        uint64_t room = UINT64_MAX - feed->delivered_instructions;
        feed->limit = opt->max ? feed->delivered_instructions + (opt->max < room ? opt->max : room) : 0;
        double t0 = cs_now();
        ok = c->ops->run(c->model, feed, opt, &c->probes, stats, err);
        stats->seconds = cs_now() - t0;
        /* A program run now (the emulator's stream) that gives no µop at all faulted at its
         * first instruction (an exit takes an ecall): as for any fault, what ran — nothing —
         * is the run, and the caller reports the fault (docs/json-schema.md: 128 + signal).
         * An empty trace is refused. */
        bool program_faulted_at_once = !opt->warmup && strcmp(src->ops->kind, UOP_SOURCE_KIND_EMULATOR) == 0;
        if (ok && stats->uops == 0 && !feed->failed && !program_faulted_at_once) {
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

void core_reset(core_t *c) { c->ops->reset(c->model); }

void core_destroy(core_t *c) {
    if (!c) return;
    c->ops->destroy(c->model);
    probe_set_free(&c->probes);
    free(c);
}

/* ---- the memory system's events, for both models ---- */

typedef struct note_ctx {
    probe_set *p;
    uint64_t now;
} note_ctx;

static void note_event(void *ctx, const mem_note *n) {
    const note_ctx *c = ctx;
    uint8_t unit = n->instruction ? UNIT_L1I : UNIT_L1D;
    probe_event e = {c->now, 0, 0, 0, n->addr, 0, PEV_PREFETCH, unit, n->level, 0};
    if (n->kind == MNOTE_FILL) {
        uint64_t lat = n->ready - n->start;
        e.cycle = n->ready;
        e.kind = PEV_FILL;
        e.count = (uint32_t)(lat > UINT32_MAX ? UINT32_MAX : lat);
        e.detail = n->prefetch;
    }
    probe_event_add(c->p, &e);
}

static void struct_event(probe_set *p, uint64_t now, uint8_t *struct_state, uint8_t unit, uint32_t count,
                         uint32_t cap) {
    uint8_t state = (uint8_t)((cap && count >= cap ? STRUCT_FULL : 0) | (count == 0 ? STRUCT_EMPTY : 0));
    if (state == struct_state[unit]) return;
    struct_state[unit] = state;
    probe_event e = {now, 0, 0, 0, 0, count, PEV_STRUCT, unit, 0, state};
    probe_event_add(p, &e);
}

void memsys_probe_store_write(const memsys_t *m, probe_set *p, uint64_t now) {
    const sb_entry *w = memsys_sb_written(m);
    if (!w) return;
    if (w->merged) { /* contract 7: the fill its request joined, just before the write */
        probe_event j = {now,       w->join_start,   w->seq,         w->pc,
                         w->addr,   w->join_lat,     PEV_STORE_JOIN, UNIT_STORE_BUFFER,
                         w->served, w->join_prefetch};
        probe_event_add(p, &j);
    }
    probe_event e = {now,
                     w->ready,
                     w->seq,
                     w->pc,
                     w->addr,
                     (uint32_t)(now - w->requested_at),
                     PEV_STORE_WRITE,
                     UNIT_STORE_BUFFER,
                     w->served,
                     w->merged};
    probe_event_add(p, &e);
}

void memsys_probe_events(memsys_t *m, probe_set *p, uint64_t now, uint8_t *struct_state, bool end) {
    note_ctx c = {p, now};
    memsys_take_notes(m, now, end, note_event, &c);
    if (end) return;
    for (int i = 0; i < 2; i++)
        struct_event(p, now, struct_state, i ? UNIT_MSHR_L1I : UNIT_MSHR_L1D, memsys_mshr_count(m, i, now),
                     memsys_mshr_size(m, i));
    if (memsys_sb_size(m)) struct_event(p, now, struct_state, UNIT_STORE_BUFFER, memsys_sb_count(m), memsys_sb_size(m));
    for (int k = 0; k < 2; k++) /* the L2's and the L3's, when limited (else not tracked) */
        if (memsys_lower_mshr_size(m, k))
            struct_event(p, now, struct_state, k ? UNIT_MSHR_L3 : UNIT_MSHR_L2, memsys_lower_mshr_count(m, k, now),
                         memsys_lower_mshr_size(m, k));
}
