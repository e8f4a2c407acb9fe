/* The out-of-order core model.
 *
 * Every cycle the stages tick back to front — commit, issue, dispatch, fetch —
 * so a µop moves at most one stage per cycle. Writeback is implicit: a µop's
 * result exists from its `complete` cycle on.
 *
 * Notes (what this model simplifies):
 *  - Trace-driven, correct path only. A mispredicted control transfer stops
 *    fetch until it completes; fetch resumes `redirect_penalty` cycles later.
 *    For the probes, its completion is the resolution and the flush of the
 *    wrong path (PEV_RESOLVE, PEV_FLUSH), and the refill that follows is the
 *    flush's cost (CAUSE_BPRED) until fetch is redirected (PEV_REDIRECT).
 *  - Decode is a fixed delay (`decode_depth`) after the I-cache; rename and
 *    dispatch are one stage that allocates ROB, IQ, LQ/SQ and a rename register.
 *  - Operands are ready the cycle their producer completes (full bypass).
 *    Issue is oldest-ready-first; each op class uses one pool of functional
 *    units; an unpipelined class holds its unit for its whole latency.
 *  - Cache state follows program order: each access is classified (hit or
 *    miss, at which level) when its µop is fetched; a load's fill starts when
 *    it issues: latency = address generation (latency.load) + the hierarchy's. A load with an older store to
 *    an overlapping address takes its data from the store queue once the store
 *    has executed (perfect disambiguation); with mem_order = conservative it
 *    also waits until every older store has executed.
 *  - Stores execute when their operands are ready and leave the store queue
 *    at commit. Without a store buffer (core.store_buffer = 0) their
 *    write-allocate fill is never waited for; with one, a committing store
 *    needs a free entry (else commit stalls: STALL_SB_FULL, and dispatch
 *    blames the store buffer when the window fills behind it), and the buffer
 *    drains to the L1D in order (memsys.h). A load overlapping a buffered
 *    store takes its data from it. Atomics are a load and a store in one µop
 *    and do not enter the store buffer; an AMO's line becomes dirty (MEM_RMW).
 *  - No serialisation of system instructions; no wrong-path cache pollution.
 *
 * Probes (docs/probes.md). Views are built only when an observer asks for
 * them (stage or FP spans, samples); per-µop records, events and wait states
 * likewise. Idle cycles are skipped when the cycle changed no state (and,
 * with views, the view repeats): every cycle up to the next event is then a
 * copy, and the next event comes from the core's own state — a heap of
 * completion cycles, the wake-up heap, the frontend's timers, the memory
 * system, the next sample.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

enum { HIST = 128 }; /* fetch-view changes kept to explain frontend bubbles (> the deepest frontend) */

/* The fetch view from `cycle` on, until the next change. */
typedef struct fetch_change {
    uint64_t cycle;
    stage_view v;
} fetch_change;

typedef struct rob_entry {
    uop_record t;          /* the µop and its history, handed to observers as it is */
    uint64_t wake;         /* once every producer has issued: the cycle the operands are ready */
    uint64_t prod_seq[3];  /* producers of the sources still in flight at dispatch; 0 = none or committed */
    uint64_t prod_done[3]; /* PROBE_PRODUCERS, PROBE_WAITS: when each producer completes (0: unknown / committed) */
    uint32_t prod_idx[3];
    /* wake-up: the consumers waiting for this µop to issue, an intrusive list
     * through the consumers' `next` links (one per source slot) */
    uint32_t first_consumer, next_consumer[3];
    uint32_t mem_wait_idx; /* ROB slot of the store a load waits for (t.mem_wait_seq) */
    uint64_t wait_cause;   /* PROBE_WAITS: the cause of the state last reported */
    uint64_t blocked_at;   /* PROBE_WAITS, samples: the cycle of the last failed issue attempt */
    uint64_t unit_holder;  /* that attempt found no free unit: the µop holding the one freed first (0: none) */
    uint8_t first_slot, next_slot[3];
    uint8_t pending;     /* producers that have not issued yet */
    uint8_t store_level; /* a store: the level its line was found at, in program order */
    uint16_t dtlb_extra; /* cycles its DTLB miss adds (after address generation, before the cache) */
    uint8_t pool;
    uint8_t wait;    /* PROBE_WAITS: the wait_state last reported (WST_COUNT: none yet) */
    uint8_t blocked; /* the wait_state of that attempt */
    uint16_t class_latency;
    bool in_iq, issued, is_load, is_store, holds_reg;
} rob_entry;

enum { NIL = UINT32_MAX, WHEEL = 512 };
#define NO_SEQ UINT64_MAX /* a completion-heap item that is not a µop's completion (a DTLB miss's end) */

typedef struct fe_entry {
    uop u;
    uint64_t seq, fetch, itlb_done, icache_done, avail;
    uint8_t icache_level, dcache_level, flags;
    bool mispredicted;
    uint16_t dtlb_extra; /* cycles its DTLB miss adds to the access */
} fe_entry;

typedef struct pool_state {
    uint32_t count;
    uint64_t *busy_until; /* per unit: held by an unpipelined operation */
    uint64_t *used_at;    /* per unit: cycle it last accepted an operation */
    uint64_t *held_by;    /* per unit: the unpipelined operation holding it (PROBE_WAITS causes) */
} pool_state;

struct wake_item {
    uint64_t wake, seq;
    uint32_t idx;
};

/* PROBE_WAITS: the µops (or DTLB-miss ends, seq NO_SEQ) the completion wheel holds for one cycle */
struct done_item {
    uint64_t seq;
    uint32_t idx;
};
struct done_bucket {
    struct done_item *items;
    uint32_t count, cap;
};

typedef struct ooo {
    uarch_config cfg;
    memsys_t *mem;
    bpred_t *bp;
    bool itlb, dtlb; /* TLBs modelled (in the memory system) */
    uint32_t line_bits, l1i_latency, fe_depth, fp_units;

    rob_entry *rob;
    uint32_t rob_head, rob_count;
    fe_entry *fe;
    uint32_t fe_cap, fe_head, fe_count;
    uint32_t iq_count, fp_in_iq;
    /* per ROB slot: in the IQ; in the IQ with operands available; an FP µop in the IQ */
    uint64_t *iq_bits, *ready_bits, *fp_bits;
    uint32_t ready_words;
    /* min-heap of (wake cycle, ROB slot, seq) for µops whose wake cycle is known */
    struct wake_item *heap;
    uint32_t heap_count;
    /* The completion cycles of issued µops, so that idle skipping finds the next
     * one without scanning the ROB: a wheel of one bit per cycle for the next
     * WHEEL cycles, and a min-heap of (cycle, ROB slot, seq) for the later ones.
     * Wait states need to know which µops complete (they and their consumers look at
     * their wait states again): then each wheel cycle also has a bucket of them. */
    uint64_t wheel[WHEEL / 64];
    struct done_bucket *buckets; /* PROBE_WAITS: WHEEL of them, allocated with the first such run */
    struct wake_item *done;
    uint32_t done_count, done_cap;
    bool track_done; /* idle skipping or wait states need completion cycles */
    uint32_t *sq;    /* ROB indices of stores, oldest first (circular) */
    uint32_t sq_head, sq_count, sq_cap;
    uint32_t lq_count, regs_in_flight;
    bool use_sb;             /* a store buffer is modelled */
    uint64_t sb_blocked_seq; /* the store at the ROB head waiting for a store buffer entry this cycle (0: none) */

    uint64_t rename_seq[UOP_REG_COUNT];
    uint32_t rename_idx[UOP_REG_COUNT];
    uint8_t pool_of[OPC_COUNT];
    pool_state pool[UARCH_MAX_POOLS];
    bool fp_pool[UARCH_MAX_POOLS];

    /* fetch state */
    uint64_t next_seq, fetch_line;
    bool fetch_line_valid;
    bool fill_pending;
    uint64_t fill_line, fill_start, fill_until;
    uint8_t fill_level;
    uint64_t itlb_page, itlb_until, itlb_start;
    bool itlb_valid, itlb_pending, itlb_missed;
    bool wait_branch, resolved;
    uint64_t wait_seq, wait_pc, redirect_at, resolve_at;
    uint64_t warm_line;

    uint64_t now, last_commit;
    bool changed; /* this cycle changed some state (else the next is a copy of it) */

    /* probes: what is asked for in this run */
    probe_set *probes;
    bool views_always;     /* some observer asks for stage or FP views */
    bool want_fp;          /* the FP view is asked for (else its cause is never looked for) */
    bool want_issue_cause; /* the issue stage's cause: its spans, the FP view or samples need it (an observer
                              of dispatch and commit alone does not: stage_mask) */
    uint64_t views_from;   /* views are built from this cycle on (samples alone: fe_depth + 1 before the next);
                            UINT64_MAX once they are */
    uint64_t sample_stop;  /* the next cycle the loop must not skip for samples: views_from while it is ahead,
                             else the sample's; UINT64_MAX without samples. Tested the same way with and
                             without a sampler, so between samples a sampler costs the bare model nothing */
    bool want_views, want_retire, want_prod, want_events, want_waits, want_samples, want_intervals;
    sample_commit committed[PROBE_MAX_COMMIT]; /* a sample's cycle: the ROB head's µops before commit */
    fetch_change fetch_hist[HIST];             /* the last HIST changes of the fetch view, a ring */
    uint64_t fetch_changes;                    /* changes recorded this run (the ring's next slot: % HIST) */
    uint64_t fetch_seen;                       /* the change dispatch's cause last fell in */
    stall_cause prev_dispatch_cause;           /* the cause dispatch showed the cycle before */
    /* an empty dispatch's cause (frontend_cause), valid while the cycle it looks back on is before
     * fe_cause_until: the next recorded change of the fetch view (UINT64_MAX: none yet; 0: invalid) */
    stall_cause fe_cause;
    uint64_t fe_cause_until;
    uint8_t struct_state[UNIT_COUNT]; /* PROBE_EVENTS: full / empty of each structure */
    /* PROBE_WAITS: ROB slots whose wait state may have changed this cycle, each once (a bit per
     * slot: so at most the ROB's size of them) */
    uint32_t *dirty;
    uint64_t *dirty_bits;
    uint32_t dirty_count;
    core_stats st;
} ooo;

/* ---- creation ---- */

/* A buffer for ooo_init: on a reset the one kept, cleared (one configuration, the same sizes),
 * else a new one. */
static void *zeroed(void *kept, size_t n, size_t size) {
    if (!kept) return cs_calloc(n, size);
    memset(kept, 0, n * size);
    return kept;
}

/* The model as ooo_create makes it; `kept` (a reset): the struct as a run left it, whose
 * buffers, memory system and predictor are reused, cleared. One function for both, so that a
 * reset core is a new one but for where its memory lives. */
static void ooo_init(ooo *o, const uarch_config *cfg, const ooo *kept) {
    o->cfg = *cfg;
    if (kept) {
        o->mem = kept->mem;
        memsys_reset(o->mem, cfg);
        o->bp = kept->bp;
        bpred_reset(o->bp, cfg);
    } else {
        o->mem = memsys_create(cfg);
        o->bp = bpred_create(cfg);
    }
    o->line_bits = memsys_line_bits(o->mem, true);
    o->use_sb = memsys_sb_size(o->mem) != 0;
    o->itlb = memsys_has_tlb(o->mem, true);
    o->dtlb = memsys_has_tlb(o->mem, false);
    o->l1i_latency = cfg->l1i.latency; /* a perfect I-cache hits at its latency */
    /* the fetch-to-dispatch delay the frontend-empty cause looks back (at least the cycle before:
     * this cycle's fetch runs after dispatch) */
    o->fe_depth = o->l1i_latency + cfg->decode_depth;
    if (o->fe_depth < 1) o->fe_depth = 1;
    if (o->fe_depth >= HIST) o->fe_depth = HIST - 1;
    o->rob = zeroed(kept ? kept->rob : NULL, cfg->rob_size, sizeof *o->rob);
    o->fe_cap = cfg->fetch_buffer + (o->l1i_latency + cfg->decode_depth) * cfg->fetch_width;
    o->fe = zeroed(kept ? kept->fe : NULL, o->fe_cap, sizeof *o->fe);
    o->ready_words = (cfg->rob_size + 63) / 64;
    o->ready_bits = zeroed(kept ? kept->ready_bits : NULL, o->ready_words, sizeof *o->ready_bits);
    o->iq_bits = zeroed(kept ? kept->iq_bits : NULL, o->ready_words, sizeof *o->iq_bits);
    o->fp_bits = zeroed(kept ? kept->fp_bits : NULL, o->ready_words, sizeof *o->fp_bits);
    o->dirty_bits = zeroed(kept ? kept->dirty_bits : NULL, o->ready_words, sizeof *o->dirty_bits);
    o->dirty = zeroed(kept ? kept->dirty : NULL, cfg->rob_size, sizeof *o->dirty);
    o->heap = zeroed(kept ? kept->heap : NULL, cfg->rob_size, sizeof *o->heap);
    /* issued and not yet popped: at most the ROB plus one cycle's issue */
    o->done_cap = cfg->rob_size + cfg->issue_width + 1;
    if (o->dtlb) o->done_cap *= 3; /* and the start and end of each one's DTLB miss */
    o->done_cap++;                 /* and the wait states' sentinel (pop_completions) */
    o->done = zeroed(kept ? kept->done : NULL, o->done_cap, sizeof *o->done);
    o->sq_cap = cfg->rob_size;
    o->sq = zeroed(kept ? kept->sq : NULL, o->sq_cap, sizeof *o->sq);
    for (uint32_t p = 0; p < cfg->pool_count; p++) {
        const pool_state *kp = kept ? &kept->pool[p] : NULL;
        o->pool[p].count = cfg->pool[p].count;
        o->pool[p].busy_until = zeroed(kp ? kp->busy_until : NULL, cfg->pool[p].count, sizeof(uint64_t));
        o->pool[p].used_at = zeroed(kp ? kp->used_at : NULL, cfg->pool[p].count, sizeof(uint64_t));
        o->pool[p].held_by = zeroed(kp ? kp->held_by : NULL, cfg->pool[p].count, sizeof(uint64_t));
        for (int k = 0; k < OPC_COUNT; k++) {
            if (cfg->pool[p].classes & (1u << k)) o->pool_of[k] = (uint8_t)p;
            /* the FLOPS stack's k counts the units that add, multiply or fuse
             * (Eyerman et al. §III-C), not a separate divider */
            if ((cfg->pool[p].classes & (1u << k)) && (k == OPC_FP_ADD || k == OPC_FP_MUL || k == OPC_FP_FMA))
                o->fp_pool[p] = true;
        }
    }
    for (uint32_t p = 0; p < cfg->pool_count; p++)
        if (o->fp_pool[p]) o->fp_units += cfg->pool[p].count;
    if (kept && kept->buckets) { /* the wait states' buckets, allocated by a run: kept, emptied */
        o->buckets = kept->buckets;
        for (uint32_t b = 0; b < WHEEL; b++) o->buckets[b].count = 0;
    }
}

static void *ooo_create(const uarch_config *cfg, cs_error *err) {
    (void)err;
    ooo *o = cs_calloc(1, sizeof *o);
    ooo_init(o, cfg, NULL);
    return o;
}

static void ooo_reset(void *model) {
    ooo *o = model;
    ooo *kept = cs_malloc(sizeof *kept); /* the model is large (its fetch history): not on the stack */
    *kept = *o;
    memset(o, 0, sizeof *o);
    ooo_init(o, &kept->cfg, kept);
    free(kept);
}

static void ooo_destroy(void *model) {
    ooo *o = model;
    if (!o) return;
    memsys_destroy(o->mem);
    bpred_destroy(o->bp);
    for (uint32_t p = 0; p < o->cfg.pool_count; p++) {
        free(o->pool[p].busy_until);
        free(o->pool[p].used_at);
        free(o->pool[p].held_by);
    }
    free(o->rob);
    free(o->fe);
    free(o->ready_bits);
    free(o->iq_bits);
    free(o->fp_bits);
    free(o->heap);
    free(o->done);
    free(o->sq);
    free(o->dirty);
    free(o->dirty_bits);
    if (o->buckets)
        for (uint32_t b = 0; b < WHEEL; b++) free(o->buckets[b].items);
    free(o->buckets);
    free(o);
}

static void ooo_warm(void *model, const uop *u) {
    ooo *o = model;
    uint64_t line = u->pc >> o->line_bits;
    if (line != o->warm_line) {
        memsys_warm(o->mem, u->pc, true, MEM_READ);
        o->warm_line = line;
    }
    if (o->itlb) memsys_warm_tlb(o->mem, u->pc, true);
    if (u->flags & (UOP_MEM_READ | UOP_MEM_WRITE)) {
        memsys_warm(o->mem, u->mem_addr, false, mem_access_of(u));
        if (o->dtlb) memsys_warm_tlb(o->mem, u->mem_addr, false);
    }
    if (uop_is_control(u)) bpred_predict(o->bp, u);
}

/* ---- helpers ---- */

static inline uint32_t rob_index(const ooo *o, uint32_t k) {
    uint32_t i = o->rob_head + k;
    return i >= o->cfg.rob_size ? i - o->cfg.rob_size : i;
}

/* Are e's operands available now? */
static inline bool operands_ready(const ooo *o, const rob_entry *e) { return e->pending == 0 && e->wake <= o->now; }

/* ---- heaps: known wake cycles feeding a ready bitmap; completion cycles ---- */

static inline __attribute__((always_inline)) void heap_push(struct wake_item *heap, uint32_t *count, uint64_t wake,
                                                            uint32_t idx, uint64_t seq) {
    uint32_t i = (*count)++;
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (heap[parent].wake <= wake) break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = (struct wake_item){wake, seq, idx};
}

static inline __attribute__((always_inline)) struct wake_item heap_pop(struct wake_item *heap, uint32_t *count) {
    struct wake_item top = heap[0], last = heap[--*count];
    uint32_t i = 0, n = *count;
    for (;;) {
        uint32_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && heap[child + 1].wake < heap[child].wake) child++;
        if (heap[child].wake >= last.wake) break;
        heap[i] = heap[child];
        i = child;
    }
    if (n) heap[i] = last;
    return top;
}

/* All of e's producers have issued: its wake cycle is known. */
static void schedule(ooo *o, uint32_t idx) {
    rob_entry *e = &o->rob[idx];
    uint64_t wake = e->t.dispatch;
    for (int k = 0; k < 3; k++) {
        if (!e->prod_seq[k]) continue;
        const rob_entry *p = &o->rob[e->prod_idx[k]];
        if (p->t.seq == e->prod_seq[k] && p->t.complete > wake) wake = p->t.complete;
    }
    e->wake = wake;
    heap_push(o->heap, &o->heap_count, wake, idx, e->t.seq);
}

static inline void set_bit(uint64_t *bits, uint32_t idx, bool on) {
    if (on) bits[idx / 64] |= 1ull << (idx % 64);
    else bits[idx / 64] &= ~(1ull << (idx % 64));
}

/* The age position (0 = ROB head) of the first set bit at position >= k, or NIL. */
static uint32_t next_set(const ooo *o, const uint64_t *bits, uint32_t k) {
    uint32_t size = o->cfg.rob_size;
    while (k < o->rob_count) {
        uint32_t idx = o->rob_head + k;
        if (idx >= size) idx -= size;
        uint64_t word = bits[idx / 64] >> (idx % 64);
        if (word) {
            uint32_t skip = (uint32_t)__builtin_ctzll(word);
            uint32_t to_end = size - idx; /* bits past the ROB's end wrap to slot 0 */
            if (skip < to_end) {
                k += skip;
                return k < o->rob_count ? k : NIL;
            }
            k += to_end;
            continue;
        }
        uint32_t step = 64 - idx % 64; /* to the next word, or the ROB's end */
        if (idx + step > size) step = size - idx;
        k += step;
    }
    return NIL;
}

/* PROBE_WAITS: e's wait state may have changed this cycle; looked at (once) as the cycle ends. */
static inline void mark_dirty(ooo *o, uint32_t idx) {
    uint64_t bit = 1ull << (idx % 64), *word = &o->dirty_bits[idx / 64];
    if (*word & bit) return;
    *word |= bit;
    o->dirty[o->dirty_count++] = idx;
}

/* e issued: its consumers may now know their wake cycle. With producers or wait
 * states asked for, they also learn when e completes, and the list is kept
 * until then (its consumers' wait states change when it completes). */
static void wake_consumers(ooo *o, rob_entry *e) {
    uint32_t c = e->first_consumer;
    uint8_t slot = e->first_slot;
    while (c != NIL) {
        rob_entry *x = &o->rob[c];
        uint32_t next = x->next_consumer[slot];
        uint8_t next_slot = x->next_slot[slot];
        x->prod_done[slot] = e->t.complete;
        if (--x->pending == 0) schedule(o, c);
        c = next;
        slot = next_slot;
    }
    if (!o->want_waits) e->first_consumer = NIL;
}

static stall_cause uop_cause(const ooo *o, const rob_entry *e) {
    stall_cause c = {CAUSE_UOP, e->t.dcache_level, 0, e->t.u.op_class, 0, e->t.seq, e->t.u.pc};
    if (e->issued) {
        c.state = e->t.complete <= o->now ? UOPST_DONE : UOPST_EXECUTING;
        /* a DTLB miss: the translation follows address generation, the cache access follows it */
        uint64_t walk = e->t.issue + e->class_latency;
        if (e->dtlb_extra && o->now >= walk && o->now < walk + e->dtlb_extra) c.state = UOPST_TRANSLATING;
        c.latency = e->t.exec_latency;
    } else {
        c.state = operands_ready(o, e) ? UOPST_READY : UOPST_WAIT_OPERANDS;
        c.latency = e->class_latency;
    }
    return c;
}

/* The producer holding up e: an unissued one first, else the last to complete. */
static const rob_entry *blocking_producer(const ooo *o, const rob_entry *e) {
    const rob_entry *best = NULL;
    for (int k = 0; k < 3; k++) {
        if (!e->prod_seq[k]) continue;
        const rob_entry *p = &o->rob[e->prod_idx[k]];
        if (p->t.seq != e->prod_seq[k] || (p->issued && p->t.complete <= o->now)) continue;
        if (!p->issued) return p;
        if (!best || p->t.complete > best->t.complete) best = p;
    }
    return best;
}

/* The wait state of µop e now (PROBE_WAITS, samples): state, cause, level. */
static uint8_t wait_state_of(const ooo *o, const rob_entry *e, uint64_t *cause, uint8_t *level) {
    *cause = 0;
    *level = 0;
    if (e->issued) {
        if (e->t.complete <= o->now) {
            if (e->t.seq != o->sb_blocked_seq) return WST_DONE;
            const sb_entry *oldest = memsys_sb_oldest(o->mem);
            *cause = oldest->seq;
            *level = oldest->level;
            return WST_STORE_BUFFER;
        }
        if (e->is_load && e->t.dcache_level >= LEVEL_L2) {
            *level = e->t.dcache_level;
            return WST_FILL;
        }
        return WST_EXECUTING;
    }
    if (!operands_ready(o, e)) { /* the youngest producer not yet complete (Stallscope §3.5) */
        for (int k = 0; k < 3; k++) {
            if (!e->prod_seq[k] || e->prod_seq[k] <= *cause) continue;
            const rob_entry *p = &o->rob[e->prod_idx[k]];
            if (p->t.seq != e->prod_seq[k] || (p->issued && p->t.complete <= o->now)) continue;
            *cause = e->prod_seq[k];
        }
        return WST_OPERANDS;
    }
    if (e->blocked_at == o->now) {
        if (e->blocked == WST_MEM_ORDER) *cause = e->t.mem_wait_seq;
        if (e->blocked == WST_NO_UNIT) *cause = e->unit_holder; /* Stallscope §3.4: a structural hazard's cause */
        return e->blocked;
    }
    return WST_READY;
}

static void report_wait(ooo *o, rob_entry *e) {
    uint64_t cause;
    uint8_t level;
    uint8_t w = wait_state_of(o, e, &cause, &level);
    if (w == WST_EXECUTING || w == WST_FILL) { /* a DTLB miss: between address generation and the access */
        uint64_t walk = e->t.issue + e->class_latency;
        if (e->dtlb_extra && o->now >= walk && o->now < walk + e->dtlb_extra) w = WST_TRANSLATING, level = 0;
    }
    if (w == e->wait && cause == e->wait_cause) return;
    e->wait = w;
    e->wait_cause = cause;
    probe_wait_add(o->probes, o->now, e->t.seq, w, cause, level);
}

/* Is a unit of the pool free for this class now? Returns its index or -1. */
static int free_unit(const ooo *o, uint8_t pool) {
    const pool_state *ps = &o->pool[pool];
    for (uint32_t u = 0; u < ps->count; u++)
        if (ps->busy_until[u] <= o->now && ps->used_at[u] != o->now + 1) return (int)u;
    return -1;
}

/* No unit of the pool is free: the unpipelined operation holding the one that frees first,
 * or 0 when none is held (every unit took an operation this cycle: issue bandwidth). */
static uint64_t unit_holder(const ooo *o, uint8_t pool) {
    const pool_state *ps = &o->pool[pool];
    uint64_t best = UINT64_MAX, seq = 0;
    for (uint32_t u = 0; u < ps->count; u++)
        if (ps->busy_until[u] > o->now && ps->busy_until[u] < best) best = ps->busy_until[u], seq = ps->held_by[u];
    return seq;
}

/* Memory ordering for a load: 0 go (cache), 1 go (forwarded from a store: *from
 * gets its seq), -1 wait. */
static int load_order(ooo *o, rob_entry *e, uint64_t *from) {
    uint64_t lo = e->t.u.mem_addr, hi = lo + (e->t.u.mem_size ? e->t.u.mem_size : 1);
    for (uint32_t k = o->sq_count; k-- > 0;) {
        uint32_t idx = o->sq[(o->sq_head + k) % o->sq_cap];
        const rob_entry *s = &o->rob[idx];
        if (s->t.seq >= e->t.seq) continue; /* younger, or the atomic itself */
        uint64_t slo = s->t.u.mem_addr, shi = slo + (s->t.u.mem_size ? s->t.u.mem_size : 1);
        bool overlap = slo < hi && lo < shi;
        bool executed = s->issued && s->t.complete <= o->now;
        if (o->cfg.mem_order == MEM_ORDER_CONSERVATIVE && !executed) {
            e->t.mem_wait_seq = s->t.seq;
            e->mem_wait_idx = idx;
            return -1;
        }
        if (!overlap) continue;
        if (!executed) {
            e->t.mem_wait_seq = s->t.seq;
            e->mem_wait_idx = idx;
            return -1;
        }
        *from = s->t.seq;
        return 1;
    }
    return 0;
}

/* ---- events ---- */

static void event(ooo *o, uint8_t kind, uint8_t unit, uint64_t seq, uint64_t pc, uint64_t addr, uint64_t end,
                  uint8_t level, uint8_t detail) {
    probe_event e = {o->now, end, seq, pc, addr, 0, kind, unit, level, detail};
    probe_event_add(o->probes, &e);
}

/* One PEV_MISS per level an access missed: the L1 (`unit`), then L2 and L3 on the way to `level`. */
static void miss_events(ooo *o, uint8_t unit, uint64_t seq, uint64_t pc, uint64_t addr, uint64_t end, uint8_t level,
                        bool merged) {
    event(o, PEV_MISS, unit, seq, pc, addr, end, level, merged);
    if (level >= LEVEL_L3 && o->cfg.l2.enabled) event(o, PEV_MISS, UNIT_L2, seq, pc, addr, end, level, merged);
    if (level >= LEVEL_MEM && o->cfg.l3.enabled) event(o, PEV_MISS, UNIT_L3, seq, pc, addr, end, level, merged);
}

static void structure_event(ooo *o, uint8_t unit, uint32_t count, uint32_t cap) {
    uint8_t state = (uint8_t)((count >= cap ? STRUCT_FULL : 0) | (count == 0 ? STRUCT_EMPTY : 0));
    if (state == o->struct_state[unit]) return;
    o->struct_state[unit] = state;
    probe_event e = {o->now, 0, 0, 0, 0, count, PEV_STRUCT, unit, 0, state};
    probe_event_add(o->probes, &e);
}

static void structure_events(ooo *o) {
    const uarch_config *c = &o->cfg;
    structure_event(o, UNIT_ROB, o->rob_count, c->rob_size);
    structure_event(o, UNIT_IQ, o->iq_count, c->iq_size);
    if (c->lsq_size) {
        structure_event(o, UNIT_LQ, o->lq_count, c->lsq_size - o->sq_count);
        structure_event(o, UNIT_SQ, o->sq_count, c->lsq_size - o->lq_count);
    } else {
        structure_event(o, UNIT_LQ, o->lq_count, c->lq_size);
        structure_event(o, UNIT_SQ, o->sq_count, c->sq_size);
    }
    structure_event(o, UNIT_FETCH_BUFFER, o->fe_count, o->fe_cap);
    memsys_probe_events(o->mem, o->probes, o->now, o->struct_state, false); /* miss registers, store buffer */
}

/* A TLB miss (`unit`: ITLB or DTLB): the level that served it, and an L2 TLB miss when it walked. */
static void tlb_miss_events(ooo *o, uint8_t unit, uint64_t pc, uint64_t addr, uint64_t end) {
    uint8_t level = memsys_tlb_level(o->mem);
    event(o, PEV_MISS, unit, o->next_seq + 1, pc, addr, end, level, 0);
    if (level == LEVEL_MEM && o->cfg.l2tlb_entries)
        event(o, PEV_MISS, UNIT_L2TLB, o->next_seq + 1, pc, addr, end, level, 0);
}

/* ---- commit ---- */

/* The store at the ROB head cannot commit: the store buffer is full. */
static void sb_full(ooo *o, rob_entry *e, stage_view *v) {
    const sb_entry *oldest = memsys_sb_oldest(o->mem);
    v->stall = STALL_SB_FULL;
    v->cause = (stall_cause){CAUSE_STORE_BUFFER, oldest->level, 0, OPC_STORE, 0, oldest->seq, oldest->pc};
    o->sb_blocked_seq = e->t.seq;
    o->st.sb_full_cycles++;
    if (o->want_waits) mark_dirty(o, o->rob_head);
}

static inline __attribute__((always_inline)) stage_view commit_stage(ooo *o) {
    stage_view v = {0, (uint8_t)o->cfg.commit_width, STALL_NONE, {0}};
    o->sb_blocked_seq = 0;
    if (o->use_sb && memsys_sb_count(o->mem) && memsys_sb_tick(o->mem, o->now)) {
        o->changed = true;
        if (o->want_events)
            memsys_probe_store_write(o->mem, o->probes, o->now); /* a write is a change: never skipped */
    }
    while (v.n < o->cfg.commit_width && o->rob_count) {
        rob_entry *e = &o->rob[o->rob_head];
        if (!e->issued || e->t.complete > o->now) break;
        if (o->use_sb && e->is_store && !e->is_load &&
            !memsys_sb_push(o->mem, e->t.u.mem_addr, e->t.u.mem_size, e->t.seq, e->t.u.pc, e->store_level, o->now)) {
            sb_full(o, e, &v);
            break;
        }
        if (e->is_store) {
            o->sq_head = (o->sq_head + 1) % o->sq_cap;
            o->sq_count--;
        }
        if (e->is_load) o->lq_count--;
        if (e->holds_reg) o->regs_in_flight--;
        o->st.uops++;
        if (!(e->t.u.flags & UOP_CONTINUES)) o->st.instructions++;
        o->st.loads += e->is_load;
        o->st.stores += e->is_store;
        o->st.forwarded_loads += (e->t.flags & UREC_FORWARDED) != 0;
        o->st.flops += e->t.u.fp_ops;
        if (o->want_retire) {
            e->t.commit = o->now;
            uop_record *r = probe_record(o->probes);
            *r = e->t;
            /* a store's level, known in program order: what its write waits for in the store
             * buffer (kept out of e->t, whose level names a waiting load's miss) */
            if (e->is_store && !e->is_load && e->store_level > LEVEL_L1) r->dcache_level = e->store_level;
        }
        if (o->want_waits) probe_wait_add(o->probes, o->now, e->t.seq, WST_COMMITTED, 0, 0);
        e->t.seq = 0; /* consumers now read the register file */
        o->rob_head = rob_index(o, 1);
        o->rob_count--;
        v.n++;
        o->last_commit = o->now;
    }
    if (v.n) o->changed = true;
    if (v.n < v.width && v.stall != STALL_SB_FULL) {
        if (!o->rob_count) {
            v.stall = STALL_ROB_EMPTY;
            v.cause = o->prev_dispatch_cause; /* why dispatch left it empty */
        } else {
            v.stall = STALL_HEAD_NOT_DONE; /* its cause: the ROB head, filled in at the end of the cycle */
        }
    }
    return v;
}

/* ---- issue ---- */

/* Something of ROB slot idx (seq: its completion; NO_SEQ: a DTLB miss's start or end) happens at `at`,
 * after now: on the wheel when fewer than WHEEL cycles ahead, and in its bucket when wait states are
 * asked for; else on the heap. (try_issue sets the bare model's wheel bit itself.) */
static __attribute__((noinline, cold)) void bucket_grow(struct done_bucket *b) {
    b->cap = b->cap ? 2 * b->cap : 8;
    b->items = cs_realloc(b->items, b->cap * sizeof *b->items);
}

static inline __attribute__((always_inline)) void track_at(ooo *o, uint64_t at, uint32_t idx, uint64_t seq) {
    if (at - o->now >= WHEEL) {
        heap_push(o->done, &o->done_count, at, idx, seq);
        return;
    }
    o->wheel[(at % WHEEL) / 64] |= 1ull << (at % 64);
    if (!o->want_waits) return;
    struct done_bucket *b = &o->buckets[at % WHEEL];
    if (b->count == b->cap) bucket_grow(b);
    b->items[b->count++] = (struct done_item){seq, idx};
}

/* Try to start e now. STALL_NONE when it issued, else why not. */
static inline __attribute__((always_inline)) uint8_t try_issue(ooo *o, rob_entry *e, uint32_t idx, fp_view *fp) {
    int unit = free_unit(o, e->pool);
    if (unit < 0) {
        if (o->want_waits || o->now == o->sample_stop)
            e->unit_holder = unit_holder(o, e->pool); /* samples: read only in the sample's cycle */
        return STALL_NO_UNIT;
    }
    int order = 0;
    uint64_t from = 0;
    mem_result r = {0, 0, false, false, 0};
    if (e->is_load) {
        if ((order = load_order(o, e, &from)) < 0) return STALL_MEM_ORDER;
        if (order == 0 && o->use_sb && memsys_sb_count(o->mem) &&
            memsys_sb_overlaps(o->mem, e->t.u.mem_addr, e->t.u.mem_addr + (e->t.u.mem_size ? e->t.u.mem_size : 1)))
            order = 1; /* from a committed store still in the store buffer */
        if (order == 0 && !memsys_request(o->mem, e->t.u.mem_addr, false, o->now, &r)) return STALL_NO_MSHR;
    }
    uint32_t lat = e->class_latency + e->dtlb_extra; /* the translation follows address generation */
    if (e->is_load) {
        if (order == 1) {
            lat += o->cfg.l1d.latency; /* store-to-load forwarding at L1 speed */
            e->t.flags |= UREC_FORWARDED;
            e->t.mem_prod_seq = from;
        } else {
            lat += r.latency;
            e->t.dcache_level = r.level == LEVEL_L1 ? 0 : r.level;
            if (o->want_events && r.level > LEVEL_L1)
                miss_events(o, UNIT_L1D, e->t.seq, e->t.u.pc, e->t.u.mem_addr, o->now + lat, r.level, r.merged);
        }
    }
    pool_state *ps = &o->pool[e->pool];
    ps->used_at[unit] = o->now + 1;
    if (!o->cfg.pipelined[e->t.u.op_class]) ps->busy_until[unit] = o->now + lat, ps->held_by[unit] = e->t.seq;
    e->issued = true;
    e->in_iq = false;
    e->t.ready = e->wake;
    e->t.issue = o->now;
    e->t.complete = o->now + lat;
    e->t.exec_latency = (uint16_t)(lat > 65535 ? 65535 : lat);
    e->t.unit = (uint8_t)unit;
    if (o->want_prod) {
        if (!e->t.mem_prod_seq) e->t.mem_prod_seq = e->t.mem_wait_seq;
        if (e->is_load) {
            e->t.addr_ready = e->wake; /* every source of a load is its address */
            e->t.dtlb_done = e->wake + e->dtlb_extra;
        } else if (e->is_store) { /* the base register, src[0] */
            uint64_t at = e->t.dispatch;
            if (e->prod_seq[0] && e->prod_done[0] > at) at = e->prod_done[0];
            e->t.addr_ready = at;
            e->t.dtlb_done = at + e->dtlb_extra;
        }
    }
    if (o->track_done) {
        if (e->t.complete - o->now < WHEEL && !o->want_waits)
            o->wheel[(e->t.complete % WHEEL) / 64] |= 1ull << (e->t.complete % 64);
        else track_at(o, e->t.complete, idx, e->t.seq);
        /* with views, the start and the end of a DTLB miss change the cause a stage blaming
         * e shows (UOPST_TRANSLATING, uop_cause): events of their own (seq NO_SEQ: no µop
         * completes then) */
        if (e->dtlb_extra && (o->want_views || o->want_samples || o->want_waits)) {
            uint64_t walk[2] = {o->now + e->class_latency, o->now + e->class_latency + e->dtlb_extra};
            for (int w = 0; w < 2; w++) {
                if (walk[w] <= o->now || walk[w] >= e->t.complete) continue;
                track_at(o, walk[w], idx, NO_SEQ);
            }
        }
    }
    o->iq_count--;
    if (is_fp_arith(e->t.u.op_class)) o->fp_in_iq--;
    if (e->t.mispredict) o->resolve_at = e->t.complete, o->redirect_at = e->t.complete + o->cfg.redirect_penalty;
    if (o->fp_pool[e->pool]) {
        if (is_fp_arith(e->t.u.op_class)) fp->issued++, fp->flops += e->t.u.fp_ops;
        else fp->nonflop_on_fpu++;
    } else if (is_fp_arith(e->t.u.op_class)) {
        fp->flops_outside += e->t.u.fp_ops;
    }
    wake_consumers(o, e);
    return STALL_NONE;
}

/* The oldest µop still in the issue queue (FP arithmetic only, if asked), or NULL. */
static const rob_entry *oldest_in_iq(const ooo *o, bool fp_only) {
    uint32_t k = next_set(o, fp_only ? o->fp_bits : o->iq_bits, 0);
    return k == NIL ? NULL : &o->rob[rob_index(o, k)];
}

static inline uint8_t blocked_wait_state(uint8_t why) {
    return why == STALL_MEM_ORDER ? WST_MEM_ORDER : why == STALL_NO_MSHR ? WST_NO_MSHR : WST_NO_UNIT;
}

/* Views: the issue stage's cause and the FP view's, `e` the oldest µop left in the queue (kept out
 * of issue_stage, which runs every cycle with or without views). */
static __attribute__((noinline)) void issue_causes(ooo *o, stage_view *v, fp_view *fp, const rob_entry *e) {
    /* the oldest FP µop in the queue: e itself when e is one (then one look serves both views) */
    const rob_entry *f = !o->want_fp || !o->fp_in_iq ? NULL : is_fp_arith(e->t.u.op_class) ? e : oldest_in_iq(o, true);
    if (f) {
        const rob_entry *p = blocking_producer(o, f);
        fp->waiting = true;
        fp->cause = uop_cause(o, p ? p : f);
    }
    if (v->stall == STALL_NOT_READY) {
        if (f == e) {
            v->cause = fp->cause;
        } else {
            const rob_entry *p = blocking_producer(o, e);
            v->cause = uop_cause(o, p ? p : e);
        }
    } else if (v->stall == STALL_MEM_ORDER) {
        /* blame the older store the load waits for */
        const rob_entry *st = &o->rob[e->mem_wait_idx];
        v->cause = st->t.seq == e->t.mem_wait_seq ? uop_cause(o, st) : uop_cause(o, e);
    } else {
        v->cause = uop_cause(o, e);
        v->cause.kind = CAUSE_STRUCTURE;
    }
}

static inline __attribute__((always_inline)) stage_view issue_stage(ooo *o, fp_view *fp) {
    stage_view v = {0, (uint8_t)o->cfg.issue_width, STALL_NONE, {0}};
    memset(fp, 0, sizeof *fp);
    fp->units = (uint8_t)o->fp_units;
    /* µops whose operands arrive now join the ready set */
    while (o->heap_count && o->heap[0].wake <= o->now) {
        struct wake_item w = heap_pop(o->heap, &o->heap_count);
        if (o->rob[w.idx].t.seq == w.seq && o->rob[w.idx].in_iq) {
            set_bit(o->ready_bits, w.idx, true);
            if (o->want_waits) mark_dirty(o, w.idx);
        }
    }
    /* oldest ready first */
    const rob_entry *first_blocked = NULL;
    uint8_t blocked_why = STALL_NONE;
    uint32_t k = next_set(o, o->ready_bits, 0);
    for (; k != NIL && v.n < o->cfg.issue_width; k = next_set(o, o->ready_bits, k + 1)) {
        uint32_t idx = rob_index(o, k);
        rob_entry *e = &o->rob[idx];
        uint8_t why = try_issue(o, e, idx, fp);
        if (why == STALL_NONE) {
            set_bit(o->ready_bits, idx, false);
            set_bit(o->iq_bits, idx, false);
            set_bit(o->fp_bits, idx, false);
            v.n++;
        } else {
            if (!first_blocked) {
                first_blocked = e;
                blocked_why = why;
            }
            if (o->want_waits || o->now == o->sample_stop) e->blocked_at = o->now, e->blocked = blocked_wait_state(why);
        }
        if (o->want_waits) mark_dirty(o, idx);
    }
    if (o->want_waits && k != NIL) {
        /* ready µops left without an issue slot: those that were blocked before are now just ready */
        for (; k != NIL; k = next_set(o, o->ready_bits, k + 1)) {
            uint32_t idx = rob_index(o, k);
            uint8_t w = o->rob[idx].wait;
            if (w == WST_NO_UNIT || w == WST_MEM_ORDER || w == WST_NO_MSHR) mark_dirty(o, idx);
        }
    }
    if (v.n) o->changed = true;
    o->st.issue_hist[v.n <= ISSUE_HIST_MAX ? v.n : ISSUE_HIST_MAX]++;
    if (v.n == v.width) return v;
    if (!o->iq_count) {
        v.stall = STALL_IQ_EMPTY;
        if (o->want_views) v.cause = o->prev_dispatch_cause;
        return v;
    }
    /* the oldest µop left behind decides: blocked while ready, or waiting for operands */
    const rob_entry *e = oldest_in_iq(o, false);
    v.stall = operands_ready(o, e) && e == first_blocked ? blocked_why : STALL_NOT_READY;
    if (o->want_views && o->want_issue_cause) issue_causes(o, &v, fp, e);
    return v;
}

/* ---- dispatch ---- */

/* The fetch view in cycle `at`; NULL for a cycle before the run's first (`at`
 * wrapped below zero, or no view recorded yet). `at` only grows during a run,
 * so the change it falls in is found by moving on from the last one found. */
static const stage_view *fetch_view_at(ooo *o, uint64_t at) {
    uint64_t changes = o->fetch_changes, seen = o->fetch_seen;
    if (at > o->now || !changes) return NULL;
    /* the ring keeps the last HIST changes, and fewer than HIST come after `at` */
    if (seen + HIST < changes) seen = changes - HIST;
    while (seen + 1 < changes && o->fetch_hist[(seen + 1) % HIST].cycle <= at) seen++;
    o->fetch_seen = seen;
    return &o->fetch_hist[seen % HIST].v;
}

/* The cause of an empty dispatch: the fetch view in cycle `at` (fe_depth
 * back), frontend latency when fetch then had no stall or no cause to give.
 * `at` only grows during a run, and the view holds until the next recorded
 * change, so the cause found is kept until then. */
static void frontend_cause(ooo *o, uint64_t at, stall_cause *out) {
    if (at < o->fe_cause_until && at <= o->now) {
        *out = o->fe_cause;
        return;
    }
    const stage_view *then = fetch_view_at(o, at);
    *out = (stall_cause){CAUSE_FRONTEND, 0, 0, 0, 0, 0, 0};
    if (!then) return; /* before the run: frontend latency, not kept */
    if (then->stall != STALL_NONE && then->cause.kind != CAUSE_NONE) *out = then->cause;
    uint64_t next = o->fetch_seen + 1;
    o->fe_cause = *out;
    o->fe_cause_until = next < o->fetch_changes ? o->fetch_hist[next % HIST].cycle : UINT64_MAX;
}

static inline __attribute__((always_inline)) stage_view dispatch_stage(ooo *o) {
    stage_view v = {0, (uint8_t)o->cfg.dispatch_width, STALL_NONE, {0}};
    const uarch_config *c = &o->cfg;
    while (v.n < c->dispatch_width) {
        if (!o->fe_count || o->fe[o->fe_head].avail > o->now) {
            v.stall = STALL_FRONTEND_EMPTY;
            break;
        }
        fe_entry *f = &o->fe[o->fe_head];
        bool is_load = f->u.flags & UOP_MEM_READ, is_store = f->u.flags & UOP_MEM_WRITE;
        bool has_dst = f->u.dst != 0;
        if (o->rob_count == c->rob_size) v.stall = STALL_ROB_FULL;
        else if (o->iq_count == c->iq_size) v.stall = STALL_IQ_FULL;
        else if (c->lsq_size && (is_load || is_store) && o->lq_count + o->sq_count + is_store + is_load > c->lsq_size)
            v.stall = is_load ? STALL_LQ_FULL : STALL_SQ_FULL;
        else if (!c->lsq_size && is_load && o->lq_count == c->lq_size) v.stall = STALL_LQ_FULL;
        else if (!c->lsq_size && is_store && o->sq_count == c->sq_size) v.stall = STALL_SQ_FULL;
        else if (c->rename_regs && has_dst && o->regs_in_flight == c->rename_regs) v.stall = STALL_REGS_FULL;
        if (v.stall != STALL_NONE) break;

        uint32_t idx = rob_index(o, o->rob_count);
        rob_entry *e = &o->rob[idx];
        /* Only what is read before it is written is cleared; with records delivered, also the
         * record's fields written only for some µops (issue: the memory and producer fields; every
         * other field is set below, at issue or at commit). */
        if (o->want_retire) {
            e->t.addr_ready = e->t.dtlb_done = 0;
            memset(e->t.prod_seq, 0, sizeof e->t.prod_seq);
            e->t.mem_prod_seq = e->t.mem_wait_seq = 0;
        }
        e->t.dcache_level = 0;
        e->t.mispredict = 0;
        memset(e->prod_seq, 0, sizeof e->prod_seq);
        memset(e->prod_done, 0, sizeof e->prod_done);
        e->pending = 0;
        e->issued = e->holds_reg = false;
        e->blocked = 0;
        e->blocked_at = UINT64_MAX;
        e->wait_cause = 0;
        e->t.u = f->u;
        e->t.seq = f->seq;
        e->t.fetch = f->fetch;
        e->t.itlb_done = f->itlb_done;
        e->t.icache_done = f->icache_done;
        e->t.decode = f->avail;
        e->t.icache_level = f->icache_level;
        e->t.flags = f->flags;
        if (f->mispredicted) e->t.mispredict = (uint8_t)mispredict_kind_of(f->u.op_class);
        e->t.rename = e->t.dispatch = o->now;
        e->pool = o->pool_of[f->u.op_class];
        e->t.pool = e->pool;
        uint32_t lat = class_latency(c, (op_class)f->u.op_class);
        e->class_latency = (uint16_t)(lat > 65535 ? 65535 : lat);
        e->is_load = is_load;
        e->is_store = is_store;
        e->store_level = f->dcache_level;
        e->dtlb_extra = f->dtlb_extra;
        e->first_consumer = NIL;
        e->wait = WST_COUNT;
        for (int k = 0; k < 3; k++) {
            uint8_t r = f->u.src[k];
            e->next_consumer[k] = NIL;
            if (!r || !o->rename_seq[r]) continue;
            if (o->want_prod) e->t.prod_seq[k] = o->rename_seq[r]; /* in flight or not */
            rob_entry *p = &o->rob[o->rename_idx[r]];
            if (p->t.seq != o->rename_seq[r]) continue; /* committed: the value is in the register file */
            e->prod_seq[k] = p->t.seq;
            e->prod_idx[k] = o->rename_idx[r];
            if (!p->issued) { /* wait for it: join its list of consumers */
                e->pending++;
                e->next_consumer[k] = p->first_consumer;
                e->next_slot[k] = p->first_slot;
                p->first_consumer = idx;
                p->first_slot = (uint8_t)k;
            } else {
                e->prod_done[k] = p->t.complete;
                if (o->want_waits && p->t.complete > o->now) {
                    /* issued, not complete: e's wait state may name it, and must look again when
                     * it completes (the list is kept until then with wait states; no wake-up) */
                    e->next_consumer[k] = p->first_consumer;
                    e->next_slot[k] = p->first_slot;
                    p->first_consumer = idx;
                    p->first_slot = (uint8_t)k;
                }
            }
        }
        if (has_dst) {
            o->rename_seq[f->u.dst] = e->t.seq;
            o->rename_idx[f->u.dst] = idx;
            if (c->rename_regs) e->holds_reg = true, o->regs_in_flight++;
        }
        o->rob_count++;
        e->in_iq = true;
        set_bit(o->iq_bits, idx, true);
        o->iq_count++;
        if (is_fp_arith(f->u.op_class)) o->fp_in_iq++, set_bit(o->fp_bits, idx, true);
        if (!e->pending) schedule(o, idx);
        if (is_load) o->lq_count++;
        if (is_store) o->sq[(o->sq_head + o->sq_count++) % o->sq_cap] = idx;
        if (o->want_waits) mark_dirty(o, idx);
        o->fe_head = (o->fe_head + 1) % o->fe_cap;
        o->fe_count--;
        v.n++;
        o->changed = true;
    }
    if (v.stall == STALL_NONE || !o->want_views) return v;
    if (v.stall == STALL_FRONTEND_EMPTY) {
        /* the µops that would arrive now were due from fetch fe_depth cycles ago */
        frontend_cause(o, o->now - o->fe_depth, &v.cause);
    }
    /* a full structure blames the ROB head: filled in at the end of the cycle */
    return v;
}

/* ---- fetch ---- */

static inline __attribute__((always_inline)) stage_view fetch_stage(ooo *o, uop_feeder *feed) {
    stage_view v = {0, (uint8_t)o->cfg.fetch_width, STALL_NONE, {0}};
    const uarch_config *c = &o->cfg;
    if (o->fill_pending && o->now < o->fill_until) {
        v.stall = STALL_ICACHE;
        v.cause = (stall_cause){CAUSE_ICACHE, o->fill_level, 0, 0, 0, 0, o->fill_line << o->line_bits};
        return v;
    }
    if (o->itlb_pending) {
        if (o->now < o->itlb_until) {
            v.stall = STALL_ITLB;
            v.cause = (stall_cause){CAUSE_ITLB, 0, 0, 0, 0, 0, o->itlb_page << 12};
            return v;
        }
        o->itlb_pending = false;
        o->changed = true;
    }
    if (o->wait_branch) {
        if (o->want_events && o->redirect_at && !o->resolved && o->now >= o->resolve_at) {
            /* the mispredicted transfer completed: the wrong path would be flushed now */
            o->resolved = true;
            event(o, PEV_RESOLVE, UNIT_NONE, o->wait_seq, o->wait_pc, 0, o->redirect_at, 0, 0);
            event(o, PEV_FLUSH, UNIT_NONE, o->wait_seq, o->wait_pc, 0, 0, 0, FLUSH_MISPREDICT);
        }
        if (!o->redirect_at || o->now < o->redirect_at) {
            v.stall = o->redirect_at && o->now >= o->resolve_at ? STALL_REDIRECT : STALL_MISPREDICT;
            v.cause = (stall_cause){CAUSE_BPRED, 0, 0, OPC_BRANCH, 0, o->wait_seq, 0};
            return v;
        }
        o->wait_branch = false;
        o->changed = true;
        if (o->want_events) event(o, PEV_REDIRECT, UNIT_NONE, o->wait_seq, o->wait_pc, 0, 0, 0, 0);
    }
    while (v.n < c->fetch_width) {
        if (o->fe_count == o->fe_cap) {
            v.stall = STALL_BUFFER_FULL;
            v.cause = (stall_cause){CAUSE_STRUCTURE, 0, 0, 0, 0, 0, 0};
            break;
        }
        const uop *u = feeder_peek(feed);
        if (!u) {
            v.stall = STALL_TRACE_END;
            v.cause = (stall_cause){CAUSE_TRACE_END, 0, 0, 0, 0, 0, 0};
            break;
        }
        if (o->itlb && (!o->itlb_valid || (u->pc >> 12) != o->itlb_page)) {
            o->itlb_page = u->pc >> 12;
            o->itlb_valid = true;
            o->changed = true;
            uint32_t walk;
            if (!memsys_translate(o->mem, u->pc, true, &walk)) {
                o->itlb_pending = o->itlb_missed = true;
                o->itlb_start = o->now;
                o->itlb_until = o->now + walk;
                if (o->want_events) tlb_miss_events(o, UNIT_ITLB, u->pc, u->pc, o->itlb_until);
                v.stall = STALL_ITLB;
                v.cause = (stall_cause){CAUSE_ITLB, 0, 0, 0, 0, 0, u->pc};
                break;
            }
        }
        uint8_t flags = v.n == 0 ? UREC_FIRST_IN_GROUP : 0;
        uint64_t fetch = o->now, icache_done = o->now + o->l1i_latency;
        uint8_t level = 0;
        uint64_t line = u->pc >> o->line_bits;
        if (!o->fetch_line_valid || line != o->fetch_line) {
            flags |= UREC_FIRST_IN_LINE;
            if (o->fill_pending && line == o->fill_line) { /* the fill we waited for */
                o->fill_pending = false;
                fetch = o->fill_start;
                icache_done = o->fill_until + o->l1i_latency;
                level = o->fill_level;
            } else {
                mem_result r;
                if (!memsys_fetch(o->mem, u->pc, o->now, &r)) {
                    v.stall = STALL_ICACHE; /* no miss register free */
                    v.cause = (stall_cause){CAUSE_ICACHE, LEVEL_L2, 0, 0, 0, 0, u->pc};
                    break;
                }
                o->changed = true;
                if (r.latency > o->l1i_latency) {
                    o->fill_pending = true;
                    o->fill_line = line;
                    o->fill_start = o->now;
                    o->fill_until = o->now + r.latency - o->l1i_latency;
                    o->fill_level = r.level == LEVEL_L1 ? LEVEL_L2 : r.level;
                    if (o->want_events)
                        miss_events(o, UNIT_L1I, o->next_seq + 1, u->pc, u->pc, o->fill_until, o->fill_level, r.merged);
                    v.stall = STALL_ICACHE;
                    v.cause = (stall_cause){CAUSE_ICACHE, o->fill_level, 0, 0, 0, 0, u->pc};
                    break;
                }
            }
            o->fetch_line = line;
            o->fetch_line_valid = true;
        }
        /* the I-cache access started at `fetch`; with an ITLB miss before it, the translation at itlb_start */
        uint64_t itlb_done = fetch;
        if (o->itlb_missed) {
            flags |= UREC_ITLB_MISS;
            fetch = o->itlb_start;
            o->itlb_missed = false;
        }
        bool mispredicted = false;
        if (uop_is_control(u)) {
            bool right = bpred_predict(o->bp, u);
            o->st.branches++;
            if (u->op_class == OPC_BRANCH) o->st.cond_branches++;
            if (!right) {
                mispredicted = true;
                o->st.mispredicts++;
                if (u->op_class == OPC_BRANCH) o->st.cond_mispredicts++;
            }
        }
        /* the data cache sees accesses in program order (see memsys_classify) */
        uint8_t dl = 0;
        uint32_t dtlb_extra = 0;
        if (u->flags & (UOP_MEM_READ | UOP_MEM_WRITE)) {
            bool write = !(u->flags & UOP_MEM_READ);
            if (o->dtlb && !memsys_translate(o->mem, u->mem_addr, false, &dtlb_extra)) {
                flags |= UREC_DTLB_MISS;
                if (dtlb_extra > 65535) dtlb_extra = 65535;
                if (o->want_events) tlb_miss_events(o, UNIT_DTLB, u->pc, u->mem_addr, 0);
            }
            dl = memsys_classify(o->mem, u->mem_addr, u->pc, false, mem_access_of(u)); /* an AMO dirties its line */
            /* a store's miss is never waited for: its event now (a load's when it requests the data) */
            if (write && o->want_events && dl > LEVEL_L1)
                miss_events(o, UNIT_L1D, o->next_seq + 1, u->pc, u->mem_addr, o->now, dl, false);
        }
        fe_entry *f = &o->fe[(o->fe_head + o->fe_count++) % o->fe_cap];
        *f = (fe_entry){
            *u, ++o->next_seq, fetch,        itlb_done,           icache_done, icache_done + c->decode_depth, level,
            dl, flags,         mispredicted, (uint16_t)dtlb_extra};
        bool taken = u->flags & UOP_TAKEN;
        feeder_next(feed);
        v.n++;
        if (mispredicted) {
            o->wait_branch = true;
            o->resolved = false;
            o->wait_seq = f->seq;
            o->wait_pc = f->u.pc;
            o->redirect_at = 0;
            if (o->want_events)
                event(o, PEV_MISPREDICT, UNIT_NONE, f->seq, f->u.pc, 0, 0, 0,
                      (uint8_t)mispredict_kind_of(f->u.op_class));
            v.stall = STALL_MISPREDICT;
            v.cause = (stall_cause){CAUSE_BPRED, 0, 0, f->u.op_class, 0, f->seq, f->u.pc};
            break;
        }
        if (taken) { /* a taken transfer ends the fetch group */
            v.stall = STALL_FETCH_BREAK;
            v.cause = (stall_cause){CAUSE_FRONTEND, 0, 0, 0, 0, 0, 0};
            break;
        }
    }
    if (v.n) o->changed = true;
    if (v.n == v.width) v.stall = STALL_NONE, v.cause.kind = CAUSE_NONE;
    return v;
}

/* ---- the cycle loop ---- */

static void deadlock_error(const ooo *o, cs_error *err) {
    char what[160];
    const rob_entry *h = &o->rob[o->rob_head];
    if (o->rob_count)
        snprintf(what, sizeof what, "ROB head seq %" PRIu64 " pc 0x%" PRIx64 " %s %s", h->t.seq, h->t.u.pc,
                 isa_class_name((op_class)h->t.u.op_class), h->issued ? "issued" : "not issued");
    else if (o->fill_pending)
        snprintf(what, sizeof what, "ROB empty; fetch waits for the I-cache fill of 0x%" PRIx64 " until cycle %" PRIu64,
                 o->fill_line << o->line_bits, o->fill_until);
    else if (o->wait_branch)
        snprintf(what, sizeof what, "ROB empty; fetch waits for mispredicted branch seq %" PRIu64, o->wait_seq);
    else snprintf(what, sizeof what, "ROB empty");
    cs_error_set(err,
                 "timing model deadlock: no µop committed for %u cycles (cycle %" PRIu64 "; ROB %u, IQ %u, "
                 "frontend %u µops; %s)",
                 o->cfg.deadlock_cycles, o->now, o->rob_count, o->iq_count, o->fe_count, what);
}

/* Is anything on its way that lets the model move on by itself: a fill or a store-buffer
 * write, an I-side miss or walk, a redirect, a decoded µop reaching dispatch, a wake-up, an
 * issued µop completing? A run that commits nothing for core.deadlock_cycles is stopped only
 * when nothing is: a configuration whose one access takes longer than the limit (a
 * 5000-cycle memory, a 4 KB line over a 1-byte-per-cycle channel, a queue of them) waits, it
 * is not deadlocked (tests/configs/random: such runs were stopped as deadlocks). */
static bool waits_for_event(const ooo *o) {
    uint64_t now = o->now;
    if (memsys_next_event(o->mem, now) != UINT64_MAX) return true;
    if ((o->fill_pending && o->fill_until > now) || (o->itlb_pending && o->itlb_until > now)) return true;
    if (o->wait_branch && o->redirect_at > now) return true;
    if ((o->fe_count && o->fe[o->fe_head].avail > now) || o->heap_count) return true;
    for (uint32_t k = 0, i = o->rob_head; k < o->rob_count; k++, i = (i + 1) % o->cfg.rob_size)
        if (o->rob[i].issued && o->rob[i].t.complete > now) return true;
    return false;
}

/* The first cycle after now at which a µop on the completion wheel completes, or UINT64_MAX. */
static uint64_t wheel_next(const ooo *o) {
    uint32_t pos = (uint32_t)((o->now + 1) % WHEEL);
    for (uint32_t scanned = 0; scanned < WHEEL;) {
        uint32_t b = pos % 64;
        uint64_t word = o->wheel[pos / 64] >> b;
        if (word) {
            uint32_t ahead = scanned + (uint32_t)__builtin_ctzll(word);
            return ahead < WHEEL - 1 ? o->now + 1 + ahead : UINT64_MAX;
        }
        scanned += 64 - b;
        pos = (pos + 64 - b) % WHEEL;
    }
    return UINT64_MAX;
}

/* The first cycle after `now` at which anything time-dependent can differ:
 * a µop completes or wakes, a fill or TLB walk ends, a branch resolves or
 * fetch is redirected, a decoded µop becomes dispatchable, the deadlock
 * limit; with views, a change of the fetch view reaches an empty dispatch's cause;
 * with samples, the next sample. (A unit held by an unpipelined operation frees when that
 * operation completes: the completion heap covers it.) */
static uint64_t next_event(const ooo *o, const stage_view *dispatch) {
    /* the deadlock limit, unless it has passed while the model waits for an event (below) */
    uint64_t now = o->now, limit = o->last_commit + o->cfg.deadlock_cycles + 1, next = limit > now ? limit : UINT64_MAX;
    if (o->sample_stop < next) next = o->sample_stop; /* with samples: > now (ooo_run) */
#define EVENT(t)                              \
    do {                                      \
        uint64_t t_ = (t);                    \
        if (t_ > now && t_ < next) next = t_; \
    } while (0)
    if (o->done_count) EVENT(o->done[0].wake);
    if (o->track_done) EVENT(wheel_next(o));
    if (o->heap_count) EVENT(o->heap[0].wake);
    if (o->fe_count) EVENT(o->fe[o->fe_head].avail);
    if (o->fill_pending) EVENT(o->fill_until);
    if (o->itlb_pending) EVENT(o->itlb_until);
    if (o->wait_branch && o->redirect_at) {
        EVENT(o->resolve_at);
        EVENT(o->redirect_at);
    }
    EVENT(memsys_next_event(o->mem, now));
    if (o->want_views && dispatch->stall == STALL_FRONTEND_EMPTY) {
        /* its cause is the fetch view fe_depth cycles ago: the oldest change not yet seen */
        for (uint64_t k = o->fetch_changes; k-- > 0 && k + HIST >= o->fetch_changes;) {
            uint64_t c = o->fetch_hist[k % HIST].cycle;
            if (c + o->fe_depth <= now) break;
            EVENT(c + o->fe_depth);
        }
    }
#undef EVENT
    return next;
}

/* PROBE_WAITS: a producer of x (seq) completes now, and x, in its list of consumers, has not issued.
 * Is x's state unchanged by it? Yes when the state x last reported waits for operands and names another
 * producer (the youngest not yet complete, Stallscope §3.5) that is still not complete: that one is then
 * still the youngest (the set only shrinks), and x's operands are still not ready. Otherwise (it named
 * seq, or a producer that has completed since) x must look again. */
static inline bool still_waits_for_named(const ooo *o, const rob_entry *x, uint64_t seq) {
    if (x->wait != WST_OPERANDS || x->wait_cause == seq || !x->wait_cause) return false;
    for (int k = 0; k < 3; k++) {
        if (x->prod_seq[k] != x->wait_cause) continue;
        const rob_entry *p = &o->rob[x->prod_idx[k]];
        return p->t.seq == x->wait_cause && !(p->issued && p->t.complete <= o->now);
    }
    return false;
}

/* PROBE_WAITS: ROB slot idx completes now (seq NO_SEQ: a DTLB miss starts or ends there): the µop
 * and the consumers waiting for it look again at their wait states. */
static inline __attribute__((always_inline)) void completed(ooo *o, uint32_t idx, uint64_t seq) {
    rob_entry *e = &o->rob[idx];
    if (seq == NO_SEQ) { /* a DTLB miss starts or ends: the µop's wait state changes */
        mark_dirty(o, idx);
        return;
    }
    if (e->t.seq != seq) return;
    mark_dirty(o, idx);
    for (uint32_t c = e->first_consumer, slot = e->first_slot; c != NIL;) {
        rob_entry *x = &o->rob[c];
        if (!still_waits_for_named(o, x, seq)) mark_dirty(o, c);
        uint32_t next = x->next_consumer[slot];
        slot = x->next_slot[slot];
        c = next;
    }
    e->first_consumer = NIL;
}

/* Completions up to now leave the heap; with wait states, completed() sees them and this cycle's
 * bucket of the wheel (its items are all due now: each was put there fewer than WHEEL cycles ahead,
 * and idle skipping stops at every cycle with a wheel bit set). Called while the heap is not empty:
 * with wait states it holds a sentinel that never comes due, so that this runs every cycle and the
 * bare model's loop tests nothing more. */
static void pop_completions(ooo *o) {
    if (o->want_waits) { /* the wheel's bucket */
        struct done_bucket *b = &o->buckets[o->now % WHEEL];
        for (uint32_t i = 0; i < b->count; i++) completed(o, b->items[i].idx, b->items[i].seq);
        b->count = 0;
    }
    while (o->done[0].wake <= o->now) {
        struct wake_item d = heap_pop(o->done, &o->done_count);
        if (o->want_waits) completed(o, d.idx, d.seq);
        if (!o->done_count) break;
    }
}

/* A sample's cycle, before commit: the µops at the head of the ROB, as many as commit can take
 * (the sample keeps those it did take; dispatch may reuse their slots later in the cycle). */
static void keep_rob_head(ooo *o) {
    uint32_t n = o->rob_count < o->cfg.commit_width ? o->rob_count : o->cfg.commit_width;
    for (uint32_t k = 0; k < n && k < PROBE_MAX_COMMIT; k++) {
        const rob_entry *e = &o->rob[rob_index(o, k)];
        o->committed[k] = (sample_commit){e->t.seq, e->t.u.pc, e->t.u.op_class};
    }
}

static void take_sample(ooo *o, const stage_view *issue, const stage_view *commit) {
    sample_view s = {.cycle = o->now, .issue = *issue, .commit = *commit, .committed = commit->n};
    memcpy(s.commits, o->committed, commit->n * sizeof *s.commits);
    const rob_entry *e = oldest_in_iq(o, false);
    if (!e && o->rob_count) e = &o->rob[o->rob_head];
    if (e) {
        s.seq = e->t.seq;
        s.pc = e->t.u.pc;
        s.op_class = e->t.u.op_class;
        s.state = wait_state_of(o, e, &s.cause_seq, &s.level);
    } else {
        s.state = WST_COUNT;
    }
    s.head_state = WST_COUNT;
    if (o->rob_count) { /* the commit slots' view: the ROB head and what it waits for */
        const rob_entry *h = &o->rob[o->rob_head];
        s.head_seq = h->t.seq;
        s.head_pc = h->t.u.pc;
        s.head_class = h->t.u.op_class;
        s.head_state = wait_state_of(o, h, &s.head_cause_seq, &s.head_level);
        s.head_wait = uop_cause(o, h);
        for (int k = 0; k < 3 && s.head_state == WST_OPERANDS; k++)
            if (h->prod_seq[k] && h->prod_seq[k] == s.head_cause_seq)
                s.head_wait = uop_cause(o, &o->rob[h->prod_idx[k]]);
    }
    probe_sample(o->probes, &s);
}

/* Samples alone: the first cycle whose views the next sample's causes look back on. */
static uint64_t views_window(const ooo *o) {
    uint64_t at = o->probes->sample_at;
    return at > o->fe_depth + 1 ? at - o->fe_depth - 1 : 0;
}

/* The next stop for samples: where the views window opens (skipping stops there so the fetch
 * history is kept), else the sample. A window already due opens in the next cycle the loop
 * visits, as views_from <= now says there. */
static void set_sample_stop(ooo *o) {
    o->sample_stop =
        o->views_from > o->now && o->views_from < o->probes->sample_at ? o->views_from : o->probes->sample_at;
}

static void take_interval(ooo *o) {
    core_stats snap = o->st;
    snap.cycles = o->now + 1;
    memsys_stats(o->mem, &snap);
    probe_interval(o->probes, &snap);
}

static bool ooo_run(void *model, uop_feeder *feed, const core_run_options *opt, probe_set *probes, core_stats *stats,
                    cs_error *err) {
    ooo *o = model;
    memsys_reset_stats(o->mem);
    memset(&o->st, 0, sizeof o->st);
    o->probes = probes;
    o->views_always = probe_wants(probes, PROBE_STAGES | PROBE_FETCH | PROBE_FP);
    o->want_fp = probe_wants(probes, PROBE_FP);
    o->want_issue_cause = o->want_fp || probe_wants_stage(probes, STAGE_ISSUE) || probe_wants(probes, PROBE_SAMPLES);
    o->want_views = o->views_always;
    o->want_retire = probe_wants(probes, PROBE_RETIRE);
    o->want_prod = probe_wants(probes, PROBE_PRODUCERS);
    o->want_events = probe_wants(probes, PROBE_EVENTS);
    o->want_waits = probe_wants(probes, PROBE_WAITS);
    o->want_samples = probe_wants(probes, PROBE_SAMPLES);
    o->want_intervals = probe_wants(probes, PROBE_INTERVALS);
    o->done_count = 0;
    memset(o->wheel, 0, sizeof o->wheel);
    o->track_done = o->cfg.skip_idle || o->want_waits;
    if (o->want_waits) {
        o->dirty_count = 0;
        memset(o->dirty_bits, 0, o->ready_words * sizeof *o->dirty_bits);
        if (!o->buckets) o->buckets = cs_calloc(WHEEL, sizeof *o->buckets);
        for (uint32_t b = 0; b < WHEEL; b++) o->buckets[b].count = 0;
        heap_push(o->done, &o->done_count, UINT64_MAX, 0, NO_SEQ); /* the sentinel (pop_completions) */
    }
    o->fetch_changes = o->fetch_seen = 0;
    o->fe_cause_until = 0;
    memset(o->struct_state, 0, sizeof o->struct_state);
    memsys_keep_notes(o->mem, o->want_events);
    probe_run_info info = {"ooo",
                           o->cfg.name,
                           &o->cfg,
                           {(uint8_t)o->cfg.fetch_width, (uint8_t)o->cfg.dispatch_width, (uint8_t)o->cfg.issue_width,
                            (uint8_t)o->cfg.commit_width},
                           (uint8_t)o->fp_units,
                           1,
                           o->cfg.freq_ghz};
    probe_begin(probes, &info);
    o->views_from = o->views_always ? 0 : o->want_samples ? views_window(o) : UINT64_MAX;
    o->now = 0;
    set_sample_stop(o);
    cs_progress bar;
    if (opt->progress_label)
        progress_start(&bar, opt->progress_label, feed->limit ? feed->limit - feed->delivered_instructions : 0);
    bar.cycles = &o->now; /* the running IPC */
    bool ok = true;
    for (o->now = 0;; o->now++) {
        o->changed = false;
        /* Samples alone build views only for the fe_depth + 1 cycles before a sample: its issue
         * cause reads the previous cycle's dispatch cause, which reads the fetch view fe_depth
         * cycles before that (next_event stops skipping where this window opens). Once views are
         * on, views_from is the sample's cycle: the one test a cycle finds both, and the sample
         * is known before commit (which the commit slots need) at no cost between samples. */
        bool sample_cycle = false;
        if (o->now >= o->views_from) {
            o->want_views = true;
            o->sample_stop = probes->sample_at;
            sample_cycle = o->want_samples && o->now == probes->sample_at;
            if (sample_cycle) keep_rob_head(o);
            o->views_from = o->want_samples && !sample_cycle ? probes->sample_at : UINT64_MAX;
        }
        if (o->track_done) o->wheel[(o->now % WHEEL) / 64] &= ~(1ull << (o->now % 64));
        if (o->done_count) pop_completions(o);
        fp_view fp;
        stage_view commit = commit_stage(o);
        stage_view issue = issue_stage(o, &fp);
        stage_view dispatch = dispatch_stage(o);
        stage_view fetch = fetch_stage(o, feed);
        o->st.rob_occupancy += o->rob_count;
        o->st.iq_occupancy += o->iq_count;
        o->st.lq_occupancy += o->lq_count;
        o->st.sq_occupancy += o->sq_count;
        if (o->use_sb) o->st.sb_occupancy += memsys_sb_count(o->mem);
        if (o->want_views) {
            if (o->rob_count &&
                (commit.stall == STALL_HEAD_NOT_DONE ||
                 (dispatch.stall != STALL_NONE && dispatch.stall != STALL_FRONTEND_EMPTY))) {
                /* one look at the ROB head, as the cycle ends, serves commit and dispatch; a head
                 * held by a full store buffer passes the store buffer on */
                stall_cause head = commit.stall == STALL_SB_FULL ? commit.cause : uop_cause(o, &o->rob[o->rob_head]);
                if (commit.stall == STALL_HEAD_NOT_DONE) commit.cause = head;
                if (dispatch.stall != STALL_NONE && dispatch.stall != STALL_FRONTEND_EMPTY) dispatch.cause = head;
            }
            if (probe_cycle_views(probes, o->now, &fetch, &dispatch, &issue, &commit, o->want_fp ? &fp : NULL)) {
                o->fetch_hist[o->fetch_changes++ % HIST] = (fetch_change){o->now, fetch};
                if (o->fe_cause_until == UINT64_MAX) o->fe_cause_until = o->now; /* the kept cause ends here */
            }
            o->prev_dispatch_cause = dispatch.cause;
        }
        if (o->want_waits) {
            for (uint32_t i = 0; i < o->dirty_count; i++) {
                o->dirty_bits[o->dirty[i] / 64] = 0; /* every bit set is some item's */
                rob_entry *e = &o->rob[o->dirty[i]];
                if (e->t.seq) report_wait(o, e);
            }
            o->dirty_count = 0;
        }
        if (o->want_events) structure_events(o);
        if (o->want_intervals && o->st.instructions >= probes->interval_at) take_interval(o);
        if (sample_cycle) {
            take_sample(o, &issue, &commit);
            if (!o->views_always) o->want_views = false, o->views_from = views_window(o);
            else o->views_from = probes->sample_at;
            set_sample_stop(o);
        }
        if (feed->ended && !o->fe_count && !o->rob_count && !memsys_sb_count(o->mem)) {
            o->now++;
            break;
        }
        if (o->now - o->last_commit > o->cfg.deadlock_cycles && !o->changed && !waits_for_event(o)) {
            deadlock_error(o, err);
            ok = false;
            o->now++;
            break;
        }
        /* Nothing changed: every cycle until the next event is a copy of this one. */
        if (o->cfg.skip_idle && !o->changed) {
            uint64_t next = next_event(o, &dispatch);
            if (next > o->now + 1 && next != UINT64_MAX) { /* none: past the limit, nothing on its way */
                uint64_t k = next - o->now - 1;
                o->st.rob_occupancy += (uint64_t)o->rob_count * k;
                o->st.iq_occupancy += (uint64_t)o->iq_count * k;
                o->st.lq_occupancy += (uint64_t)o->lq_count * k;
                o->st.sq_occupancy += (uint64_t)o->sq_count * k;
                if (o->use_sb) o->st.sb_occupancy += (uint64_t)memsys_sb_count(o->mem) * k;
                if (o->sb_blocked_seq) o->st.sb_full_cycles += k;
                o->st.issue_hist[issue.n <= ISSUE_HIST_MAX ? issue.n : ISSUE_HIST_MAX] += k;
                if (o->want_views) {
                    /* The copies' views: fetch, dispatch (its history holds still: no fetch change
                     * reaches it before `next`) and the FP view repeat; a cause commit or issue takes
                     * from the previous cycle's dispatch is this cycle's from the next one on. */
                    if (commit.stall == STALL_ROB_EMPTY && probe_wants_stage(probes, STAGE_COMMIT)) {
                        commit.cause = dispatch.cause;
                        probe_stage_view(probes, STAGE_COMMIT, o->now + 1, &commit);
                    }
                    if (issue.stall == STALL_IQ_EMPTY && probe_wants_stage(probes, STAGE_ISSUE)) {
                        issue.cause = dispatch.cause;
                        probe_stage_view(probes, STAGE_ISSUE, o->now + 1, &issue);
                    }
                }
                o->now += k;
            }
        }
        if (opt->progress_label) progress_update(&bar, o->st.instructions);
    }
    if (opt->progress_label) progress_finish(&bar);
    o->st.cycles = o->now;
    memsys_stats(o->mem, &o->st);
    *stats = o->st;
    if (o->want_events) memsys_probe_events(o->mem, probes, o->now, o->struct_state, true);
    probe_end(probes, &o->st);
    o->probes = NULL;
    return ok && !feed->failed;
}

const core_model_ops ooo_model = {"ooo", ooo_create, ooo_run, ooo_warm, ooo_reset, ooo_destroy};
