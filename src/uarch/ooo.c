/* The out-of-order core model.
 *
 * Every cycle the stages tick back to front — commit, issue, dispatch, fetch —
 * so a µop moves at most one stage per cycle. Writeback is implicit: a µop's
 * result exists from its `complete` cycle on.
 *
 * Notes (what this model simplifies):
 *  - Trace-driven, correct path only. A mispredicted control transfer stops
 *    fetch until it completes; fetch resumes `redirect_penalty` cycles later.
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
 *    at commit; their write-allocate fill is never waited for. Atomics are a
 *    load and a store in one µop.
 *  - No serialisation of system instructions; no wrong-path cache pollution.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

enum { HIST = 128 }; /* cycles of fetch history kept to explain frontend bubbles */

typedef struct rob_entry {
    uop_timing t;         /* the µop and its history, handed to observers as it is */
    uint64_t wake;        /* once every producer has issued: the cycle the operands are ready */
    uint64_t prod_seq[3]; /* producers of the sources; 0 = none or already committed */
    uint32_t prod_idx[3];
    /* wake-up: the consumers waiting for this µop to issue, an intrusive list
     * through the consumers' `next` links (one per source slot) */
    uint32_t first_consumer, next_consumer[3];
    uint32_t mem_wait_idx; /* ROB slot of the store a load waits for (t.mem_wait_seq) */
    uint8_t first_slot, next_slot[3];
    uint8_t pending; /* producers that have not issued yet */
    uint8_t pool;
    uint16_t class_latency;
    bool in_iq, issued, is_load, is_store, holds_reg;
} rob_entry;

enum { NIL = UINT32_MAX };

typedef struct fe_entry {
    uop u;
    uint64_t seq, fetch, icache_done, avail;
    uint8_t icache_level;
    bool mispredicted, itlb_miss;
} fe_entry;

typedef struct pool_state {
    uint32_t count;
    uint64_t *busy_until; /* per unit: held by an unpipelined operation */
    uint64_t *used_at;    /* per unit: cycle it last accepted an operation */
} pool_state;

struct wake_item {
    uint64_t wake, seq;
    uint32_t idx;
};

typedef struct ooo {
    uarch_config cfg;
    memsys_t *mem;
    bpred_t *bp;
    cache_t *itlb;
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
    uint32_t *sq; /* ROB indices of stores, oldest first (circular) */
    uint32_t sq_head, sq_count, sq_cap;
    uint32_t lq_count, regs_in_flight;

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
    uint64_t itlb_page, itlb_until;
    bool itlb_valid, itlb_pending, itlb_missed;
    bool wait_branch;
    uint64_t wait_seq, redirect_at, resolve_at;
    uint64_t warm_line;

    uint64_t now, last_commit;
    bool changed;              /* this cycle changed some state (else the next is a copy of it) */
    uint64_t fetch_changed_at; /* last cycle the fetch view differed from the one before */
    stage_view fetch_hist[HIST];
    stage_view prev_dispatch;
    core_stats st;
} ooo;

/* ---- creation ---- */

static void *ooo_create(const uarch_config *cfg, cs_error *err) {
    (void)err;
    ooo *o = cs_calloc(1, sizeof *o);
    o->cfg = *cfg;
    o->mem = memsys_create(cfg);
    o->bp = bpred_create(cfg);
    if (cfg->itlb_entries) {
        cache_config t = {true, cfg->itlb_entries * 4096, 0, 4096, 0, 0};
        o->itlb = cache_create(&t);
    }
    o->line_bits = memsys_line_bits(o->mem, true);
    o->l1i_latency = cfg->perfect_icache ? cfg->l1i.latency : cfg->l1i.latency;
    o->fe_depth = o->l1i_latency + cfg->decode_depth;
    if (o->fe_depth >= HIST) o->fe_depth = HIST - 1;
    o->rob = cs_calloc(cfg->rob_size, sizeof *o->rob);
    o->fe_cap = cfg->fetch_buffer + (o->l1i_latency + cfg->decode_depth) * cfg->fetch_width;
    o->fe = cs_calloc(o->fe_cap, sizeof *o->fe);
    o->ready_words = (cfg->rob_size + 63) / 64;
    o->ready_bits = cs_calloc(o->ready_words, sizeof *o->ready_bits);
    o->iq_bits = cs_calloc(o->ready_words, sizeof *o->iq_bits);
    o->fp_bits = cs_calloc(o->ready_words, sizeof *o->fp_bits);
    o->heap = cs_calloc(cfg->rob_size, sizeof *o->heap);
    o->sq_cap = cfg->rob_size;
    o->sq = cs_calloc(o->sq_cap, sizeof *o->sq);
    for (uint32_t p = 0; p < cfg->pool_count; p++) {
        o->pool[p].count = cfg->pool[p].count;
        o->pool[p].busy_until = cs_calloc(cfg->pool[p].count, sizeof(uint64_t));
        o->pool[p].used_at = cs_calloc(cfg->pool[p].count, sizeof(uint64_t));
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
    return o;
}

static void ooo_destroy(void *model) {
    ooo *o = model;
    if (!o) return;
    memsys_destroy(o->mem);
    bpred_destroy(o->bp);
    cache_destroy(o->itlb);
    for (uint32_t p = 0; p < o->cfg.pool_count; p++) {
        free(o->pool[p].busy_until);
        free(o->pool[p].used_at);
    }
    free(o->rob);
    free(o->fe);
    free(o->ready_bits);
    free(o->iq_bits);
    free(o->fp_bits);
    free(o->heap);
    free(o->sq);
    free(o);
}

static void ooo_warm(void *model, const uop *u) {
    ooo *o = model;
    uint64_t line = u->pc >> o->line_bits;
    if (line != o->warm_line) {
        memsys_warm(o->mem, u->pc, true);
        o->warm_line = line;
    }
    if (o->itlb) cache_access(o->itlb, u->pc);
    if (u->flags & (UOP_MEM_READ | UOP_MEM_WRITE)) memsys_warm(o->mem, u->mem_addr, false);
    if (uop_is_control(u)) bpred_predict(o->bp, u);
}

/* ---- helpers ---- */

static inline uint32_t rob_index(const ooo *o, uint32_t k) {
    uint32_t i = o->rob_head + k;
    return i >= o->cfg.rob_size ? i - o->cfg.rob_size : i;
}

/* Are e's operands available at `now`? *at gets the cycle they all were. */
static bool operands_ready(const ooo *o, const rob_entry *e, uint64_t *at) {
    *at = e->wake;
    return e->pending == 0 && e->wake <= o->now;
}

/* ---- wake-up: a heap of known wake cycles feeding a ready bitmap ---- */

static void heap_push(ooo *o, uint64_t wake, uint32_t idx, uint64_t seq) {
    uint32_t i = o->heap_count++;
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (o->heap[parent].wake <= wake) break;
        o->heap[i] = o->heap[parent];
        i = parent;
    }
    o->heap[i] = (struct wake_item){wake, seq, idx};
}

static struct wake_item heap_pop(ooo *o) {
    struct wake_item top = o->heap[0], last = o->heap[--o->heap_count];
    uint32_t i = 0;
    for (;;) {
        uint32_t child = 2 * i + 1;
        if (child >= o->heap_count) break;
        if (child + 1 < o->heap_count && o->heap[child + 1].wake < o->heap[child].wake) child++;
        if (o->heap[child].wake >= last.wake) break;
        o->heap[i] = o->heap[child];
        i = child;
    }
    if (o->heap_count) o->heap[i] = last;
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
    heap_push(o, wake, idx, e->t.seq);
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

/* e issued: its consumers may now know their wake cycle. */
static void wake_consumers(ooo *o, rob_entry *e) {
    uint32_t c = e->first_consumer;
    uint8_t slot = e->first_slot;
    while (c != NIL) {
        rob_entry *x = &o->rob[c];
        uint32_t next = x->next_consumer[slot];
        uint8_t next_slot = x->next_slot[slot];
        if (--x->pending == 0) schedule(o, c);
        c = next;
        slot = next_slot;
    }
    e->first_consumer = NIL;
}

static stall_cause uop_cause(const ooo *o, const rob_entry *e) {
    stall_cause c = {CAUSE_UOP, e->t.dcache_level, 0, e->t.u.op_class, 0, e->t.seq, e->t.u.pc};
    uint64_t at;
    if (e->issued) {
        c.state = e->t.complete <= o->now ? UOPST_DONE : UOPST_EXECUTING;
        c.latency = e->t.exec_latency;
    } else {
        c.state = operands_ready(o, e, &at) ? UOPST_READY : UOPST_WAIT_OPERANDS;
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

/* Is a unit of the pool free for this class now? Returns its index or -1. */
static int free_unit(const ooo *o, uint8_t pool) {
    const pool_state *ps = &o->pool[pool];
    for (uint32_t u = 0; u < ps->count; u++)
        if (ps->busy_until[u] <= o->now && ps->used_at[u] != o->now + 1) return (int)u;
    return -1;
}

/* Memory ordering for a load: 0 go (cache), 1 go (forwarded from a store), -1 wait. */
static int load_order(ooo *o, rob_entry *e) {
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
        return 1;
    }
    return 0;
}

/* ---- commit ---- */

static stage_view commit_stage(ooo *o, const probe_set *probes) {
    stage_view v = {0, (uint8_t)o->cfg.commit_width, STALL_NONE, {0}};
    while (v.n < o->cfg.commit_width && o->rob_count) {
        rob_entry *e = &o->rob[o->rob_head];
        if (!e->issued || e->t.complete > o->now) break;
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
        o->st.forwarded_loads += e->t.forwarded;
        o->st.flops += e->t.u.fp_ops;
        if (probes->want_retire) {
            e->t.commit = o->now;
            probe_emit_retire(probes, &e->t);
        }
        e->t.seq = 0; /* consumers now read the register file */
        o->rob_head = rob_index(o, 1);
        o->rob_count--;
        v.n++;
        o->last_commit = o->now;
    }
    if (v.n) o->changed = true;
    if (v.n < v.width) {
        if (!o->rob_count) {
            v.stall = STALL_ROB_EMPTY;
            v.cause = o->prev_dispatch.cause; /* why dispatch left it empty */
        } else {
            v.stall = STALL_HEAD_NOT_DONE; /* its cause: the ROB head, filled in at the end of the cycle */
        }
    }
    return v;
}

/* ---- issue ---- */

/* Try to start e now. STALL_NONE when it issued, else why not. */
static uint8_t try_issue(ooo *o, rob_entry *e, fp_view *fp) {
    int unit = free_unit(o, e->pool);
    if (unit < 0) return STALL_NO_UNIT;
    int order = 0;
    mem_result r = {0, 0, false};
    if (e->is_load) {
        if ((order = load_order(o, e)) < 0) return STALL_MEM_ORDER;
        if (order == 0 && !memsys_request(o->mem, e->t.u.mem_addr, false, o->now, &r)) return STALL_NO_MSHR;
    }
    uint32_t lat = e->class_latency;
    if (e->is_load) {
        if (order == 1) {
            lat += o->cfg.l1d.latency; /* store-to-load forwarding at L1 speed */
            e->t.forwarded = true;
        } else {
            lat += r.latency;
            e->t.dcache_level = r.level == LEVEL_L1 ? 0 : r.level;
        }
    }
    pool_state *ps = &o->pool[e->pool];
    ps->used_at[unit] = o->now + 1;
    if (!o->cfg.pipelined[e->t.u.op_class]) ps->busy_until[unit] = o->now + lat;
    e->issued = true;
    e->in_iq = false;
    e->t.ready = e->wake;
    e->t.issue = o->now;
    e->t.complete = o->now + lat;
    e->t.exec_latency = (uint16_t)(lat > 65535 ? 65535 : lat);
    o->iq_count--;
    if (is_fp_arith(e->t.u.op_class)) o->fp_in_iq--;
    if (e->t.mispredicted) o->resolve_at = e->t.complete, o->redirect_at = e->t.complete + o->cfg.redirect_penalty;
    if (o->fp_pool[e->pool]) {
        if (is_fp_arith(e->t.u.op_class)) fp->issued++, fp->flops += e->t.u.fp_ops;
        else fp->nonflop_on_fpu++;
    }
    wake_consumers(o, e);
    return STALL_NONE;
}

/* The oldest µop still in the issue queue (FP arithmetic only, if asked), or NULL. */
static const rob_entry *oldest_in_iq(const ooo *o, bool fp_only) {
    uint32_t k = next_set(o, fp_only ? o->fp_bits : o->iq_bits, 0);
    return k == NIL ? NULL : &o->rob[rob_index(o, k)];
}

static stage_view issue_stage(ooo *o, const probe_set *probes, fp_view *fp) {
    stage_view v = {0, (uint8_t)o->cfg.issue_width, STALL_NONE, {0}};
    memset(fp, 0, sizeof *fp);
    fp->units = (uint8_t)o->fp_units;
    /* µops whose operands arrive now join the ready set */
    while (o->heap_count && o->heap[0].wake <= o->now) {
        struct wake_item w = heap_pop(o);
        if (o->rob[w.idx].t.seq == w.seq && o->rob[w.idx].in_iq) set_bit(o->ready_bits, w.idx, true);
    }
    /* oldest ready first */
    const rob_entry *first_blocked = NULL;
    uint8_t blocked_why = STALL_NONE;
    for (uint32_t k = next_set(o, o->ready_bits, 0); k != NIL && v.n < o->cfg.issue_width;
         k = next_set(o, o->ready_bits, k + 1)) {
        uint32_t idx = rob_index(o, k);
        rob_entry *e = &o->rob[idx];
        uint8_t why = try_issue(o, e, fp);
        if (why == STALL_NONE) {
            set_bit(o->ready_bits, idx, false);
            set_bit(o->iq_bits, idx, false);
            set_bit(o->fp_bits, idx, false);
            v.n++;
        } else if (!first_blocked) {
            first_blocked = e;
            blocked_why = why;
        }
    }
    if (v.n) o->changed = true;
    o->st.issue_hist[v.n <= ISSUE_HIST_MAX ? v.n : ISSUE_HIST_MAX]++;
    if (v.n == v.width) return v;
    if (!o->iq_count) {
        v.stall = STALL_IQ_EMPTY;
        if (probes->want_cycles) v.cause = o->prev_dispatch.cause;
        return v;
    }
    /* the oldest µop left behind decides: blocked while ready, or waiting for operands */
    const rob_entry *e = oldest_in_iq(o, false);
    bool ready = e->pending == 0 && e->wake <= o->now;
    v.stall = ready && e == first_blocked ? blocked_why : STALL_NOT_READY;
    if (!probes->want_cycles) return v;
    if (o->fp_in_iq) {
        const rob_entry *f = oldest_in_iq(o, true);
        const rob_entry *p = blocking_producer(o, f);
        fp->waiting = true;
        fp->cause = p ? uop_cause(o, p) : uop_cause(o, f);
    }
    if (v.stall == STALL_NOT_READY) {
        const rob_entry *p = blocking_producer(o, e);
        v.cause = p ? uop_cause(o, p) : uop_cause(o, e);
    } else if (v.stall == STALL_MEM_ORDER) {
        /* blame the older store the load waits for */
        const rob_entry *st = &o->rob[e->mem_wait_idx];
        v.cause = st->t.seq == e->t.mem_wait_seq ? uop_cause(o, st) : uop_cause(o, e);
    } else {
        v.cause = uop_cause(o, e);
        v.cause.kind = CAUSE_STRUCTURE;
    }
    return v;
}

/* ---- dispatch ---- */

static stage_view dispatch_stage(ooo *o, const probe_set *probes) {
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
        memset(e, 0, sizeof *e);
        e->t.u = f->u;
        e->t.seq = f->seq;
        e->t.fetch = f->fetch;
        e->t.icache_done = f->icache_done;
        e->t.icache_level = f->icache_level;
        e->t.mispredicted = f->mispredicted;
        e->t.itlb_miss = f->itlb_miss;
        e->t.rename = e->t.dispatch = o->now;
        e->pool = o->pool_of[f->u.op_class];
        uint32_t lat = class_latency(c, (op_class)f->u.op_class);
        e->class_latency = (uint16_t)(lat > 65535 ? 65535 : lat);
        e->is_load = is_load;
        e->is_store = is_store;
        e->first_consumer = NIL;
        for (int k = 0; k < 3; k++) {
            uint8_t r = f->u.src[k];
            e->next_consumer[k] = NIL;
            if (!r || !o->rename_seq[r]) continue;
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
        o->fe_head = (o->fe_head + 1) % o->fe_cap;
        o->fe_count--;
        v.n++;
        o->changed = true;
    }
    if (v.stall == STALL_NONE || !probes->want_cycles) return v;
    if (v.stall == STALL_FRONTEND_EMPTY) {
        /* the µops that would arrive now were due from fetch fe_depth cycles ago */
        const stage_view *then = &o->fetch_hist[(o->now - o->fe_depth) % HIST];
        v.cause = then->cause;
        if (then->stall == STALL_NONE || then->cause.kind == CAUSE_NONE)
            v.cause = (stall_cause){CAUSE_FRONTEND, 0, 0, 0, 0, 0, 0};
    }
    /* a full structure blames the ROB head: filled in at the end of the cycle */
    return v;
}

/* ---- fetch ---- */

static stage_view fetch_stage(ooo *o, uop_feeder *feed) {
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
        if (!o->redirect_at || o->now < o->redirect_at) {
            v.stall = o->redirect_at && o->now >= o->resolve_at ? STALL_REDIRECT : STALL_MISPREDICT;
            v.cause = (stall_cause){CAUSE_BPRED, 0, 0, OPC_BRANCH, 0, o->wait_seq, 0};
            return v;
        }
        o->wait_branch = false;
        o->changed = true;
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
        bool itlb_miss = false;
        if (o->itlb && (!o->itlb_valid || (u->pc >> 12) != o->itlb_page)) {
            o->itlb_page = u->pc >> 12;
            o->itlb_valid = true;
            o->changed = true;
            o->st.itlb.accesses++;
            if (!cache_access(o->itlb, u->pc)) {
                o->st.itlb.misses++;
                o->itlb_pending = o->itlb_missed = true;
                o->itlb_until = o->now + c->itlb_miss_latency;
                v.stall = STALL_ITLB;
                v.cause = (stall_cause){CAUSE_ITLB, 0, 0, 0, 0, 0, u->pc};
                break;
            }
        }
        if (o->itlb_missed) itlb_miss = true, o->itlb_missed = false;
        uint64_t fetch = o->now, icache_done = o->now + o->l1i_latency;
        uint8_t level = 0;
        uint64_t line = u->pc >> o->line_bits;
        if (!o->fetch_line_valid || line != o->fetch_line) {
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
                    v.stall = STALL_ICACHE;
                    v.cause = (stall_cause){CAUSE_ICACHE, o->fill_level, 0, 0, 0, 0, u->pc};
                    break;
                }
            }
            o->fetch_line = line;
            o->fetch_line_valid = true;
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
        if (u->flags & (UOP_MEM_READ | UOP_MEM_WRITE))
            memsys_classify(o->mem, u->mem_addr, false, !(u->flags & UOP_MEM_READ));
        fe_entry *f = &o->fe[(o->fe_head + o->fe_count++) % o->fe_cap];
        *f = (fe_entry){*u,    ++o->next_seq, fetch,    icache_done, icache_done + c->decode_depth,
                        level, mispredicted,  itlb_miss};
        bool taken = u->flags & UOP_TAKEN;
        feeder_next(feed);
        v.n++;
        if (mispredicted) {
            o->wait_branch = true;
            o->wait_seq = f->seq;
            o->redirect_at = 0;
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

static bool same_stage(const stage_view *a, const stage_view *b) {
    return a->n == b->n && a->stall == b->stall && a->cause.kind == b->cause.kind && a->cause.level == b->cause.level &&
        a->cause.state == b->cause.state && a->cause.op_class == b->cause.op_class &&
        a->cause.latency == b->cause.latency && a->cause.seq == b->cause.seq && a->cause.pc == b->cause.pc;
}

static bool same_view(const cycle_view *a, const cycle_view *b) {
    for (int s = 0; s < STAGE_COUNT; s++)
        if (!same_stage(&a->stage[s], &b->stage[s])) return false;
    return a->fp.issued == b->fp.issued && a->fp.flops == b->fp.flops && a->fp.nonflop_on_fpu == b->fp.nonflop_on_fpu &&
        a->fp.waiting == b->fp.waiting && a->fp.cause.kind == b->fp.cause.kind && a->fp.cause.seq == b->fp.cause.seq &&
        a->fp.cause.state == b->fp.cause.state && a->rob == b->rob && a->iq == b->iq && a->lq == b->lq &&
        a->sq == b->sq;
}

/* The first cycle after `now` at which anything time-dependent can differ:
 * a µop completes or wakes, a fill or TLB walk ends, a branch resolves or
 * fetch is redirected, a unit or miss register frees, a decoded µop becomes
 * dispatchable, the frontend bubble history changes, the deadlock limit. */
static uint64_t next_event(const ooo *o) {
    uint64_t now = o->now, next = o->last_commit + o->cfg.deadlock_cycles + 1;
#define EVENT(t)                              \
    do {                                      \
        uint64_t t_ = (t);                    \
        if (t_ > now && t_ < next) next = t_; \
    } while (0)
    for (uint32_t k = 0; k < o->rob_count; k++) {
        const rob_entry *e = &o->rob[rob_index(o, k)];
        if (e->issued) EVENT(e->t.complete);
    }
    if (o->heap_count) EVENT(o->heap[0].wake);
    if (o->fe_count) EVENT(o->fe[o->fe_head].avail);
    if (o->fill_pending) EVENT(o->fill_until);
    if (o->itlb_pending) EVENT(o->itlb_until);
    if (o->wait_branch && o->redirect_at) {
        EVENT(o->resolve_at);
        EVENT(o->redirect_at);
    }
    for (uint32_t p = 0; p < o->cfg.pool_count; p++)
        for (uint32_t u = 0; u < o->pool[p].count; u++) EVENT(o->pool[p].busy_until[u]);
    EVENT(memsys_next_event(o->mem, now));
    EVENT(o->fetch_changed_at + o->fe_depth);
#undef EVENT
    return next;
}

static bool ooo_run(void *model, uop_feeder *feed, const core_run_options *opt, const probe_set *probes,
                    core_stats *stats, cs_error *err) {
    ooo *o = model;
    memsys_reset_stats(o->mem);
    memset(&o->st, 0, sizeof o->st);
    probe_run_info info = {"ooo",
                           o->cfg.name,
                           {(uint8_t)o->cfg.fetch_width, (uint8_t)o->cfg.dispatch_width, (uint8_t)o->cfg.issue_width,
                            (uint8_t)o->cfg.commit_width},
                           (uint8_t)o->fp_units,
                           1,
                           o->cfg.freq_ghz};
    probe_emit_begin(probes, &info);
    cs_progress bar;
    if (opt->progress_label)
        progress_start(&bar, opt->progress_label, feed->limit ? feed->limit - feed->delivered_instructions : 0);
    bool ok = true;
    cycle_view prev = {0}; /* read only once have_prev is set */
    bool have_prev = false;
    for (o->now = 0;; o->now++) {
        o->changed = false;
        fp_view fp;
        stage_view commit = commit_stage(o, probes);
        stage_view issue = issue_stage(o, probes, &fp);
        stage_view dispatch = dispatch_stage(o, probes);
        stage_view fetch = fetch_stage(o, feed);
        o->fetch_hist[o->now % HIST] = fetch;
        if (have_prev && !same_stage(&fetch, &prev.stage[STAGE_FETCH])) o->fetch_changed_at = o->now;
        o->st.rob_occupancy += o->rob_count;
        o->st.iq_occupancy += o->iq_count;
        o->st.lq_occupancy += o->lq_count;
        o->st.sq_occupancy += o->sq_count;
        if (probes->want_cycles && o->rob_count &&
            (commit.stall == STALL_HEAD_NOT_DONE ||
             (dispatch.stall != STALL_NONE && dispatch.stall != STALL_FRONTEND_EMPTY))) {
            /* one look at the ROB head, as the cycle ends, serves commit and dispatch */
            stall_cause head = uop_cause(o, &o->rob[o->rob_head]);
            if (commit.stall == STALL_HEAD_NOT_DONE) commit.cause = head;
            if (dispatch.stall != STALL_NONE && dispatch.stall != STALL_FRONTEND_EMPTY) dispatch.cause = head;
        }
        cycle_view cv = {o->now,
                         1,
                         {fetch, dispatch, issue, commit},
                         fp,
                         (uint16_t)o->rob_count,
                         (uint16_t)o->iq_count,
                         (uint16_t)o->lq_count,
                         (uint16_t)o->sq_count};
        if (probes->want_cycles) probe_emit_cycle(probes, &cv);
        o->prev_dispatch = dispatch;
        if (feed->ended && !o->fe_count && !o->rob_count) {
            o->now++;
            break;
        }
        if (o->now - o->last_commit > o->cfg.deadlock_cycles) {
            deadlock_error(o, err);
            ok = false;
            o->now++;
            break;
        }
        /* Nothing changed and the view repeats: every cycle until the next event is a copy. */
        if (o->cfg.skip_idle && !o->changed && have_prev && same_view(&cv, &prev)) {
            uint64_t next = next_event(o);
            if (next > o->now + 1) {
                uint64_t k = next - o->now - 1;
                o->st.rob_occupancy += (uint64_t)o->rob_count * k;
                o->st.iq_occupancy += (uint64_t)o->iq_count * k;
                o->st.lq_occupancy += (uint64_t)o->lq_count * k;
                o->st.sq_occupancy += (uint64_t)o->sq_count * k;
                o->st.issue_hist[issue.n <= ISSUE_HIST_MAX ? issue.n : ISSUE_HIST_MAX] += k;
                if (probes->want_cycles) {
                    cycle_view rep = cv;
                    rep.cycle = o->now + 1;
                    rep.repeat = k;
                    probe_emit_cycle(probes, &rep);
                }
                for (uint64_t c = o->now + 1; c < next && c <= o->now + HIST; c++) o->fetch_hist[c % HIST] = fetch;
                o->now += k;
            }
        }
        prev = cv;
        have_prev = true;
        if (opt->progress_label) progress_update(&bar, o->st.instructions);
    }
    if (opt->progress_label) progress_finish(&bar);
    o->st.cycles = o->now;
    memsys_stats(o->mem, &o->st);
    *stats = o->st;
    probe_emit_end(probes, o->st.cycles, o->st.instructions);
    return ok && !feed->failed;
}

const core_model_ops ooo_model = {"ooo", ooo_create, ooo_run, ooo_warm, ooo_destroy};
