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
 *  - Loads access the data cache when they issue: latency = address generation
 *    (latency.load) + what the hierarchy returns. A load with an older store to
 *    an overlapping address takes its data from the store queue once the store
 *    has executed (perfect disambiguation); with mem_order = conservative it
 *    also waits until every older store has executed.
 *  - Stores execute when their operands are ready and write the cache after
 *    commit. Atomics are a load and a store in one µop.
 *  - No serialisation of system instructions; no wrong-path cache pollution.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

enum { HIST = 128 }; /* cycles of fetch history kept to explain frontend bubbles */

typedef struct rob_entry {
    uop u;
    uint64_t seq;
    uint64_t fetch, icache_done, dispatch, ready, issue, complete;
    uint64_t wake;        /* once every producer has issued: the cycle the operands are ready (0: not known) */
    uint64_t wait_seq;    /* else a producer known not to have issued yet, to recheck cheaply */
    uint32_t wait_idx;
    uint64_t prod_seq[3]; /* producers of the sources; 0 = none or already committed */
    uint32_t prod_idx[3];
    uint64_t mem_wait_seq;
    uint16_t latency;
    uint8_t pool;
    uint8_t icache_level, dcache_level;
    bool issued, mispredicted, itlb_miss, forwarded, is_load, is_store, holds_reg;
} rob_entry;

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
    uint32_t *iq; /* ROB indices, oldest first */
    uint32_t iq_count;
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
    ooo *o = calloc(1, sizeof *o);
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
    o->rob = calloc(cfg->rob_size, sizeof *o->rob);
    o->fe_cap = cfg->fetch_buffer + (o->l1i_latency + cfg->decode_depth) * cfg->fetch_width;
    o->fe = calloc(o->fe_cap, sizeof *o->fe);
    o->iq = calloc(cfg->iq_size, sizeof *o->iq);
    o->sq_cap = cfg->rob_size;
    o->sq = calloc(o->sq_cap, sizeof *o->sq);
    for (uint32_t p = 0; p < cfg->pool_count; p++) {
        o->pool[p].count = cfg->pool[p].count;
        o->pool[p].busy_until = calloc(cfg->pool[p].count, sizeof(uint64_t));
        o->pool[p].used_at = calloc(cfg->pool[p].count, sizeof(uint64_t));
        for (int k = 0; k < OPC_COUNT; k++) {
            if (cfg->pool[p].classes & (1u << k)) o->pool_of[k] = (uint8_t)p;
            if ((cfg->pool[p].classes & (1u << k)) && is_fp_arith((uint8_t)k)) o->fp_pool[p] = true;
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
    free(o->iq);
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

/* Are e's operands available at `now`? *at gets the cycle they all were.
 * Once every producer has issued, that cycle is known and kept in e->wake. */
static bool operands_ready(const ooo *o, rob_entry *e, uint64_t *at) {
    if (!e->wake) {
        if (e->wait_seq) {
            const rob_entry *w = &o->rob[e->wait_idx];
            if (w->seq == e->wait_seq && !w->issued) return false;
        }
        uint64_t ready = e->dispatch;
        for (int k = 0; k < 3; k++) {
            if (!e->prod_seq[k]) continue;
            const rob_entry *p = &o->rob[e->prod_idx[k]];
            if (p->seq != e->prod_seq[k]) continue; /* committed: its value is in the register file */
            if (!p->issued) {
                e->wait_seq = p->seq;
                e->wait_idx = e->prod_idx[k];
                return false;
            }
            if (p->complete > ready) ready = p->complete;
        }
        e->wake = ready ? ready : 1;
    }
    *at = e->wake;
    return e->wake <= o->now;
}

static stall_cause uop_cause(const ooo *o, rob_entry *e) {
    stall_cause c = {CAUSE_UOP, e->dcache_level, 0, e->u.op_class, 0, e->seq, e->u.pc};
    uint64_t at;
    if (e->issued) {
        c.state = e->complete <= o->now ? UOPST_DONE : UOPST_EXECUTING;
        c.latency = e->latency;
    } else {
        c.state = operands_ready(o, e, &at) ? UOPST_READY : UOPST_WAIT_OPERANDS;
        c.latency = (uint16_t)class_latency(&o->cfg, (op_class)e->u.op_class);
    }
    return c;
}

/* The producer holding up e: an unissued one first, else the last to complete. */
static rob_entry *blocking_producer(ooo *o, const rob_entry *e) {
    rob_entry *best = NULL;
    for (int k = 0; k < 3; k++) {
        if (!e->prod_seq[k]) continue;
        rob_entry *p = &o->rob[e->prod_idx[k]];
        if (p->seq != e->prod_seq[k] || (p->issued && p->complete <= o->now)) continue;
        if (!p->issued) return p;
        if (!best || p->complete > best->complete) best = p;
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
    uint64_t lo = e->u.mem_addr, hi = lo + (e->u.mem_size ? e->u.mem_size : 1);
    for (uint32_t k = o->sq_count; k-- > 0;) {
        uint32_t idx = o->sq[(o->sq_head + k) % o->sq_cap];
        const rob_entry *s = &o->rob[idx];
        if (s->seq >= e->seq) continue; /* younger, or the atomic itself */
        uint64_t slo = s->u.mem_addr, shi = slo + (s->u.mem_size ? s->u.mem_size : 1);
        bool overlap = slo < hi && lo < shi;
        bool executed = s->issued && s->complete <= o->now;
        if (o->cfg.mem_order == MEM_ORDER_CONSERVATIVE && !executed) {
            e->mem_wait_seq = s->seq;
            return -1;
        }
        if (!overlap) continue;
        if (!executed) {
            e->mem_wait_seq = s->seq;
            return -1;
        }
        return 1;
    }
    return 0;
}

/* ---- commit ---- */

static void emit_retire(const ooo *o, const probe_set *probes, const rob_entry *e) {
    uop_timing t = {
        .u = e->u, .seq = e->seq, .fetch = e->fetch, .icache_done = e->icache_done, .rename = e->dispatch,
        .dispatch = e->dispatch, .ready = e->ready, .issue = e->issue, .complete = e->complete, .commit = o->now,
        .exec_latency = e->latency, .icache_level = e->icache_level, .dcache_level = e->dcache_level,
        .mispredicted = e->mispredicted, .itlb_miss = e->itlb_miss, .forwarded = e->forwarded,
        .mem_wait_seq = e->mem_wait_seq};
    probe_emit_retire(probes, &t);
}

static stage_view commit_stage(ooo *o, const probe_set *probes) {
    stage_view v = {0, (uint8_t)o->cfg.commit_width, STALL_NONE, {0}};
    while (v.n < o->cfg.commit_width && o->rob_count) {
        rob_entry *e = &o->rob[o->rob_head];
        if (!e->issued || e->complete > o->now) break;
        if (e->is_store) {
            memsys_store(o->mem, e->u.mem_addr, o->now);
            o->sq_head = (o->sq_head + 1) % o->sq_cap;
            o->sq_count--;
        }
        if (e->is_load) o->lq_count--;
        if (e->holds_reg) o->regs_in_flight--;
        o->st.uops++;
        if (!(e->u.flags & UOP_CONTINUES)) o->st.instructions++;
        o->st.loads += e->is_load;
        o->st.stores += e->is_store;
        o->st.forwarded_loads += e->forwarded;
        o->st.flops += e->u.fp_ops;
        if (probes->want_retire) emit_retire(o, probes, e);
        e->seq = 0; /* consumers now read the register file */
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
            v.stall = STALL_HEAD_NOT_DONE;
            if (probes->want_cycles) v.cause = uop_cause(o, &o->rob[o->rob_head]);
        }
    }
    return v;
}

/* ---- issue ---- */

static stage_view issue_stage(ooo *o, const probe_set *probes, fp_view *fp) {
    stage_view v = {0, (uint8_t)o->cfg.issue_width, STALL_NONE, {0}};
    uint32_t keep = 0;
    int first_blocked = -1;        /* IQ position of the oldest µop left behind */
    uint8_t blocked_why = STALL_NONE;
    int oldest_fp_waiting = -1;
    memset(fp, 0, sizeof *fp);
    fp->units = (uint8_t)o->fp_units;
    for (uint32_t i = 0; i < o->iq_count; i++) {
        uint32_t idx = o->iq[i];
        rob_entry *e = &o->rob[idx];
        uint8_t why = STALL_NONE;
        uint64_t ready_at = 0;
        int unit = -1, order = 0;
        mem_result r = {0, 0, false};
        if (v.n == o->cfg.issue_width) why = STALL_NO_UNIT; /* width used up: not a stall this cycle */
        else if (!operands_ready(o, e, &ready_at)) why = STALL_NOT_READY;
        else if ((unit = free_unit(o, e->pool)) < 0) why = STALL_NO_UNIT;
        else if (e->is_load && (order = load_order(o, e)) < 0) why = STALL_MEM_ORDER;
        else if (e->is_load && order == 0 && !memsys_load(o->mem, e->u.mem_addr, o->now, &r)) why = STALL_NO_MSHR;
        if (why != STALL_NONE) {
            if (first_blocked < 0 && v.n < o->cfg.issue_width) {
                first_blocked = (int)keep;
                blocked_why = why;
            }
            if (oldest_fp_waiting < 0 && is_fp_arith(e->u.op_class)) oldest_fp_waiting = (int)keep;
            o->iq[keep++] = idx;
            continue;
        }
        /* issue */
        uint32_t lat = class_latency(&o->cfg, (op_class)e->u.op_class);
        if (e->is_load) {
            if (order == 1) {
                lat += o->cfg.l1d.latency; /* store-to-load forwarding at L1 speed */
                e->forwarded = true;
            } else {
                lat += r.latency;
                e->dcache_level = r.level == LEVEL_L1 ? 0 : r.level;
            }
        }
        pool_state *ps = &o->pool[e->pool];
        ps->used_at[unit] = o->now + 1;
        if (!o->cfg.pipelined[e->u.op_class]) ps->busy_until[unit] = o->now + lat;
        e->issued = true;
        e->ready = ready_at;
        e->issue = o->now;
        e->complete = o->now + lat;
        e->latency = (uint16_t)(lat > 65535 ? 65535 : lat);
        if (e->mispredicted) o->resolve_at = e->complete, o->redirect_at = e->complete + o->cfg.redirect_penalty;
        if (o->fp_pool[e->pool]) {
            if (is_fp_arith(e->u.op_class)) fp->issued++, fp->flops += e->u.fp_ops;
            else fp->nonflop_on_fpu++;
        }
        v.n++;
    }
    o->iq_count = keep;
    if (v.n) o->changed = true;
    if (v.n <= ISSUE_HIST_MAX) o->st.issue_hist[v.n]++;
    else o->st.issue_hist[ISSUE_HIST_MAX]++;
    if (v.n == v.width) return v;
    if (!probes->want_cycles) {
        v.stall = o->iq_count ? blocked_why : STALL_IQ_EMPTY;
        return v;
    }
    if (oldest_fp_waiting >= 0) {
        fp->waiting = true;
        rob_entry *f = &o->rob[o->iq[oldest_fp_waiting]];
        rob_entry *p = blocking_producer(o, f);
        fp->cause = p ? uop_cause(o, p) : uop_cause(o, f);
    }
    if (!o->iq_count) {
        v.stall = STALL_IQ_EMPTY;
        v.cause = o->prev_dispatch.cause;
        return v;
    }
    v.stall = blocked_why;
    rob_entry *e = &o->rob[o->iq[first_blocked]];
    if (blocked_why == STALL_NOT_READY) {
        rob_entry *p = blocking_producer(o, e);
        v.cause = p ? uop_cause(o, p) : uop_cause(o, e);
    } else if (blocked_why == STALL_MEM_ORDER) {
        v.cause = uop_cause(o, e);
        v.cause.seq = e->mem_wait_seq;
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
        e->u = f->u;
        e->seq = f->seq;
        e->fetch = f->fetch;
        e->icache_done = f->icache_done;
        e->icache_level = f->icache_level;
        e->mispredicted = f->mispredicted;
        e->itlb_miss = f->itlb_miss;
        e->dispatch = o->now;
        e->pool = o->pool_of[f->u.op_class];
        e->is_load = is_load;
        e->is_store = is_store;
        for (int k = 0; k < 3; k++) {
            uint8_t r = f->u.src[k];
            if (!r) continue;
            e->prod_seq[k] = o->rename_seq[r];
            e->prod_idx[k] = o->rename_idx[r];
        }
        if (has_dst) {
            o->rename_seq[f->u.dst] = e->seq;
            o->rename_idx[f->u.dst] = idx;
            if (c->rename_regs) e->holds_reg = true, o->regs_in_flight++;
        }
        o->rob_count++;
        o->iq[o->iq_count++] = idx;
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
    } else if (o->rob_count) {
        v.cause = uop_cause(o, &o->rob[o->rob_head]);
    }
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
        fe_entry *f = &o->fe[(o->fe_head + o->fe_count++) % o->fe_cap];
        *f = (fe_entry){*u, ++o->next_seq, fetch, icache_done, icache_done + c->decode_depth, level, mispredicted,
                        itlb_miss};
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
    const rob_entry *h = &o->rob[o->rob_head];
    cs_error_set(err,
                 "timing model deadlock: no µop committed for %u cycles (cycle %" PRIu64 "; ROB %u, IQ %u, "
                 "frontend %u µops; ROB head seq %" PRIu64 " pc 0x%" PRIx64 " %s %s)",
                 o->cfg.deadlock_cycles, o->now, o->rob_count, o->iq_count, o->fe_count, h->seq, h->u.pc,
                 isa_class_name((op_class)h->u.op_class), h->issued ? "issued" : "not issued");
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
#define EVENT(t)                                  \
    do {                                          \
        uint64_t t_ = (t);                        \
        if (t_ > now && t_ < next) next = t_;     \
    } while (0)
    for (uint32_t k = 0; k < o->rob_count; k++) {
        const rob_entry *e = &o->rob[rob_index(o, k)];
        if (e->issued) EVENT(e->complete);
        else if (e->wake) EVENT(e->wake);
    }
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
    probe_run_info info = {"ooo", o->cfg.name,
                           {(uint8_t)o->cfg.fetch_width, (uint8_t)o->cfg.dispatch_width,
                            (uint8_t)o->cfg.issue_width, (uint8_t)o->cfg.commit_width},
                           (uint8_t)o->fp_units, 1, o->cfg.freq_ghz};
    probe_emit_begin(probes, &info);
    cs_progress bar;
    if (opt->progress_label)
        progress_start(&bar, opt->progress_label, feed->limit ? feed->limit - feed->delivered_instructions : 0);
    bool ok = true;
    cycle_view prev;
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
        cycle_view cv = {o->now, 1, {fetch, dispatch, issue, commit}, fp, (uint16_t)o->rob_count,
                         (uint16_t)o->iq_count, (uint16_t)o->lq_count, (uint16_t)o->sq_count};
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
