/* What the core models share (internal to uarch): the model interface behind
 * core_t, and a feeder that pulls µops from a uop_source in batches. */
#ifndef CYCLESCOPE_UARCH_CORE_INTERNAL_H
#define CYCLESCOPE_UARCH_CORE_INTERNAL_H

#include "bpred.h"
#include "memsys.h"
#include "uarch.h"

struct uop_feeder;

typedef struct core_model_ops {
    const char *name;
    void *(*create)(const uarch_config *cfg, cs_error *err);
    /* Time the stream (warm-up already done by the caller through `warm`). */
    bool (*run)(void *model, struct uop_feeder *feed, const core_run_options *opt, probe_set *probes, core_stats *stats,
                cs_error *err);
    /* Train caches and predictors with one warm-up µop. */
    void (*warm)(void *model, const uop *u);
    /* Back to the state `create` gave, reusing its memory (core_reset). */
    void (*reset)(void *model);
    void (*destroy)(void *model);
} core_model_ops;

extern const core_model_ops ooo_model;
extern const core_model_ops inorder_model;

/* Batches µops out of a source; counts instructions and stops at a limit. */
typedef struct uop_feeder {
    uop_source *src;
    uop buf[1024];
    size_t pos, len;
    bool ended; /* source exhausted (or limit reached) */
    bool failed;
    bool stopped; /* ended early by cs_stop_request */
    cs_error error;
    uint64_t limit; /* instructions to deliver; 0 = no limit */
    uint64_t delivered_instructions;
    bool at_limit; /* the limit-th instruction has started: only its continuation µops are left */
} uop_feeder;

/* The next µop, or NULL at the end (check feed->failed). Stays valid until the next call. */
/* At the limit: end the batch at the next instruction's first µop, so that the limit's
 * instruction is delivered whole; when its continuation µops run to the end of the batch,
 * the next batch is cut the same way (feeder_peek). Off the µop-by-µop path: the limit is met
 * once a run. */
static inline void feeder_cut_at_limit(uop_feeder *f) {
    size_t end = f->pos;
    while (end < f->len && (f->buf[end].flags & UOP_CONTINUES)) end++;
    if (end < f->len) f->ended = true;
    f->len = end;
}

static inline const uop *feeder_peek(uop_feeder *f) {
    if (f->pos < f->len) return &f->buf[f->pos];
    if (f->ended) return NULL;
    long n = uop_source_read(f->src, f->buf, sizeof f->buf / sizeof f->buf[0], &f->error);
    /* a stop request (Ctrl-C) ends the stream here, at an instruction's first µop */
    if (n > 0 && cs_stop_requested() && !(f->buf[0].flags & UOP_CONTINUES)) {
        f->stopped = true;
        n = 0;
    }
    if (n <= 0) {
        f->ended = true;
        f->failed = n < 0;
        return NULL;
    }
    f->pos = 0;
    f->len = (size_t)n;
    if (f->at_limit) {
        feeder_cut_at_limit(f);
        if (f->pos == f->len) return NULL; /* the batch starts an instruction: ended */
    }
    return &f->buf[0];
}

/* Consume the µop feeder_peek returned. */
static inline void feeder_next(uop_feeder *f) {
    const uop *u = &f->buf[f->pos++];
    if (!(u->flags & UOP_CONTINUES)) {
        f->delivered_instructions++;
        /* stop after the limit, once the instruction's continuation µops are delivered too */
        if (f->limit && f->delivered_instructions >= f->limit) {
            f->at_limit = true;
            feeder_cut_at_limit(f);
        }
    }
}

/* Execution latency of a class under the configuration's knobs. */
static inline uint32_t class_latency(const uarch_config *cfg, op_class cls) {
    if (uarch_ideal_alu_class(cfg, cls)) return 1;
    return cfg->latency[cls] ? cfg->latency[cls] : 1;
}

/* PROBE_EVENTS from the memory system, at the end of cycle `now` (both models):
 * the fills that arrived (PEV_FILL) and the prefetches decided (PEV_PREFETCH)
 * since the last call, the L1s' miss registers and the store buffer becoming
 * full, empty or neither (PEV_STRUCT; `struct_state`: the model's, per unit).
 * `end`: the run ends, the fills still in flight come too. The model calls
 * memsys_keep_notes(m, true) when events are asked for. */
void memsys_probe_events(memsys_t *m, probe_set *p, uint64_t now, uint8_t *struct_state, bool end);
/* The store the store buffer wrote to the L1D in this cycle's memsys_sb_tick, if any, as a
 * PEV_STORE_WRITE event (both models, when events are asked for). */
void memsys_probe_store_write(const memsys_t *m, probe_set *p, uint64_t now);

static inline bool is_fp_arith(uint8_t cls) { return cls >= OPC_FP_ADD && cls <= OPC_FP_SQRT; }

#endif
