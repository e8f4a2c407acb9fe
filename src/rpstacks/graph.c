/* The dependence graph of a run (RpStacks §IV-C, Table I) and its traversal
 * with per-node stack sets (§III-C, §IV-D, §IV-E).
 *
 * Notes (what this simplifies; docs/rpstacks.md has the row-by-row mapping):
 *  - Seven nodes per µop: F, I$ (IS), D (= N: the model renames and dispatches
 *    in one stage), R, E, P, C. RC = C (the model commits the cycle a µop is
 *    ready to). AR1/AR2/DTLB collapse into E→P: a memory µop's address
 *    generation (latency.load) and its DTLB miss (the walk, the L2 TLB) are
 *    part of its execution latency in the model. ITLB collapses into F→I$.
 *  - Every edge is a lower bound the model really enforces, weighted from the
 *    configuration and the µop's events. Where the simulated time of a node is
 *    later than every modelled constraint (issue-port and unit contention,
 *    oldest-first selection), the difference is added as base penalty to the
 *    node's designated edge, so the graph reproduces the baseline run exactly
 *    (Figure 10) and a latency change moves only what it should.
 *  - Segments: each segment starts at a source node S placed at the commit of
 *    the previous segment's last µop; constraints from µops before the
 *    segment become edges from S with base weight (their simulated time minus
 *    S's). The segments' longest paths therefore add up to the run's cycles
 *    instead of overlapping (the paper sums A–A' paths, §III-C, Figure 7b).
 *  - Constraints reaching further back than the window (2 × (ROB + fetch
 *    buffer) µops) are dropped and counted; none of them can bind in the
 *    baseline run, nor at any other latencies: their source is a node of a µop
 *    that committed before this one dispatched, and the path through its
 *    commit, the in-order commits and the ROB edge (weights 0) is in the graph
 *    (docs/rpstacks.md, "beyond the window"; the store buffer's room edge, from
 *    a drain, is the exception the window is sized for).
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rpstacks.h"
#include "rpstacks_internal.h"

/* ---- dimensions ---- */

static const char *const fixed_names[RPS_CLASS0] = {"base", "l1i",     "l2-instr", "mem-instr",
                                                    "l1d",  "l2-data", "mem-data"};
static const char *const fixed_keys[RPS_CLASS0] = {NULL,          "l1i.latency", "l2.latency",    "memory.latency",
                                                   "l1d.latency", "l2.latency",  "memory.latency"};
static char class_keys[OPC_COUNT][48];
static pthread_once_t keys_once = PTHREAD_ONCE_INIT;

static void make_keys(void) {
    for (int k = 0; k < OPC_COUNT; k++) snprintf(class_keys[k], sizeof class_keys[k], "latency.%s", isa_class_name(k));
}

static const char *const tlb_names[] = {"dtlb", "itlb", "l2tlb"};
static const char *const tlb_keys[] = {"dtlb.miss_latency", "itlb.miss_latency", "l2tlb.latency"};

bool rps_dim_is_tlb(int dim) { return dim >= RPS_DTLB && dim <= RPS_L2TLB; }

const char *rps_dim_name(int dim) {
    if (dim < 0 || dim >= RPS_DIMS) return "?";
    if (rps_dim_is_tlb(dim)) return tlb_names[dim - RPS_DTLB];
    return dim < RPS_CLASS0 ? fixed_names[dim] : isa_class_name((op_class)(dim - RPS_CLASS0));
}

const char *rps_dim_key(int dim) {
    if (dim < 0 || dim >= RPS_DIMS) return NULL;
    if (rps_dim_is_tlb(dim)) return tlb_keys[dim - RPS_DTLB];
    if (dim < RPS_CLASS0) return fixed_keys[dim];
    pthread_once(&keys_once, make_keys);
    return class_keys[dim - RPS_CLASS0];
}

uint32_t rps_dim_latency(const uarch_config *cfg, int dim) {
    /* under ideal.alu an arithmetic latency changes nothing: 0, which whatif refuses to scale */
    if (dim >= RPS_CLASS0 && dim < RPS_CLASS0 + OPC_COUNT && uarch_ideal_alu_class(cfg, (op_class)(dim - RPS_CLASS0)))
        return 0;
    switch (dim) {
    case RPS_BASE: return 1;
    case RPS_L1I: return cfg->l1i.latency;
    case RPS_L2_INSTR:
    case RPS_L2_DATA: return cfg->l2.latency;
    case RPS_MEM_INSTR:
    case RPS_MEM_DATA: return cfg->mem_latency;
    case RPS_L1D: return cfg->l1d.latency;
    /* a TLB that is not modelled has no latency (whatif then refuses to scale it) */
    case RPS_DTLB: return cfg->dtlb_entries ? cfg->dtlb_miss_latency : 0;
    case RPS_ITLB: return cfg->itlb_entries ? cfg->itlb_miss_latency : 0;
    case RPS_L2TLB: return cfg->l2tlb_entries && (cfg->dtlb_entries || cfg->itlb_entries) ? cfg->l2tlb_latency : 0;
    default: return cfg->latency[dim - RPS_CLASS0];
    }
}

bool rps_class_is_event(int cls) {
    /* RpStacks §IV-D / Figure 12: the optimizable long-latency operations; the
     * one-cycle classes (ALU, branches, stores, system) are base */
    switch (cls) {
    case OPC_INT_MUL:
    case OPC_INT_DIV:
    case OPC_LOAD:
    case OPC_FP_ADD:
    case OPC_FP_MUL:
    case OPC_FP_FMA:
    case OPC_FP_DIV:
    case OPC_FP_SQRT:
    case OPC_FP_MISC: return true;
    default: return false;
    }
}

bool rps_dim_is_event(int dim) {
    return dim > RPS_BASE && dim < RPS_DIMS &&
        (dim < RPS_CLASS0 || rps_dim_is_tlb(dim) || rps_class_is_event(dim - RPS_CLASS0));
}

void rps_options_default(rps_options *o) {
    o->segment = 5000;            /* RpStacks §V-D: segment length 5000 */
    o->similarity = 0.7;          /* RpStacks §V-D: cosine threshold 0.7 */
    o->unique = RPS_UNIQUE_EVENT; /* RpStacks §V-D: uniqueness preservation on (§IV-E's reading) */
    o->threads = 0;
    /* per node, two paths for each point of the design space's diagonal cap_rows takes in turn
     * (the baseline, every event at 0, every event at max_scale): the smallest cap of 3, 4, 6
     * no worse than 64 (the earlier safety cap, reached at almost no node) in any scenario class
     * of the 21-workload study; docs/rpstacks.md, "The per-node cap" */
    o->max_stacks = 6;
    o->max_scale = 4; /* latencies from 0 to 4× the base: every scenario of §V-B and more */
}

const char *rps_unique_name(rps_unique u) {
    switch (u) {
    case RPS_UNIQUE_OFF: return "off";
    case RPS_UNIQUE_EVENT: return "event";
    case RPS_UNIQUE_COMBINATION: return "combination";
    }
    return NULL;
}

bool rps_unique_parse(const char *name, rps_unique *out) {
    static const struct {
        const char *name;
        rps_unique u;
    } names[] = {{"off", RPS_UNIQUE_OFF},
                 {"no", RPS_UNIQUE_OFF},
                 {"event", RPS_UNIQUE_EVENT},
                 {"yes", RPS_UNIQUE_EVENT},
                 {"combination", RPS_UNIQUE_COMBINATION}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i].name)) return *out = names[i].u, true;
    return false;
}

bool rps_max_scale_ok(double max_scale) { return max_scale == 0 || (max_scale >= 1 && max_scale <= RPS_MAX_SCALE); }

/* ---- the collected run ---- */

enum { UNIT_RING = 8, SHARE_BUCKETS = 1024, ISSUE_SLACK = 2 };

typedef struct heap_item {
    uint64_t e;
    int64_t idx;
} heap_item;

/* What the constraints that come from other µops' order are prepared with, in
 * program order as the µops arrive (only older µops matter). Times are kept
 * with the indices, so that nothing is read from a µop the ring dropped. */
typedef struct rps_prep {
    uint32_t iq, hn; /* IQ: the iq latest issues among the older µops (a min-heap) */
    heap_item *heap;
    uint32_t lsq; /* LSQ: the last lsq memory µops */
    int64_t *mem_ring;
    uint64_t mem_count;
    heap_item (*units)[64][UNIT_RING]; /* the last users of each (pool, unit): issue time, index */
    struct {
        uint64_t line, complete;
        int64_t idx;
    } share[SHARE_BUCKETS]; /* the last load to miss each line (a small direct-mapped table) */
    uint32_t line_bits;
    uint32_t mshrs, mn; /* miss registers: the latest fills of the older starters (a min-heap) */
    heap_item *mheap;
    int64_t *sb_ring; /* the store buffer: the last store_buffer stores through it */
    int64_t *sq_ring; /* separate load and store queues: the last sq_size stores */
    uint64_t sq_count;
    uint64_t sb_count;
} rps_prep;

/* The L1D's line size (memsys' default when the configuration leaves it 0). */
static uint32_t l1d_line(const uarch_config *c) { return c->l1d.line ? c->l1d.line : 64; }

/* A miss register frees at `at`, when µop idx's fill arrives. */
static void note_free(rps_trace *t, uint64_t at, int64_t idx) { t->frees[at % RPS_FREES] = (rps_free){at, idx}; }

static rps_trace *trace_create(const uarch_config *cfg, size_t ring_chunks) {
    rps_trace *t = cs_calloc(1, sizeof *t);
    t->cfg = *cfg;
    /* the graph weighs execution with the latencies the core used: one cycle under ideal.alu */
    for (int cls = 0; cls < OPC_COUNT; cls++)
        if (uarch_ideal_alu_class(cfg, (op_class)cls)) t->cfg.latency[cls] = 1;
    t->ring_chunks = ring_chunks;
    if (ring_chunks) {
        t->chunks = ring_chunks;
        t->chunk = cs_calloc(ring_chunks, sizeof *t->chunk);
        if (rps_has_side(cfg)) t->side = cs_calloc(ring_chunks, sizeof *t->side);
    }
    rps_prep *p = t->prep = cs_calloc(1, sizeof *p);
    const uarch_config *c = &t->cfg;
    p->iq = c->iq_size ? c->iq_size : 1;
    p->heap = cs_malloc(cs_array_size(p->iq + 1, sizeof *p->heap));
    p->lsq = c->lsq_size ? c->lsq_size : c->lq_size; /* separate queues: the load queue's size, loads only */
    p->mem_ring = cs_malloc(cs_array_size(p->lsq ? p->lsq : 1, sizeof *p->mem_ring));
    p->units = cs_malloc(sizeof(heap_item[UARCH_MAX_POOLS][64][UNIT_RING]));
    for (int q = 0; q < UARCH_MAX_POOLS; q++)
        for (int u = 0; u < 64; u++)
            for (int k = 0; k < UNIT_RING; k++) p->units[q][u][k] = (heap_item){0, -1};
    for (int k = 0; k < SHARE_BUCKETS; k++) p->share[k].line = UINT64_MAX, p->share[k].idx = -1;
    while ((1u << p->line_bits) < l1d_line(c)) p->line_bits++;
    p->mshrs = c->l1d.mshrs;
    p->mheap = cs_malloc(cs_array_size(p->mshrs + 1, sizeof *p->mheap));
    p->sb_ring = cs_malloc(cs_array_size(c->store_buffer ? c->store_buffer : 1, sizeof *p->sb_ring));
    p->sq_ring = cs_malloc(cs_array_size(!c->lsq_size && c->sq_size ? c->sq_size : 1, sizeof *p->sq_ring));
    for (int k = 0; k < RPS_FREES; k++) t->frees[k] = (rps_free){UINT64_MAX, -1};
    for (int k = 0; k < RPS_FREES; k++) t->pf_frees[k].at = UINT64_MAX;
    return t;
}

uint64_t rps_trace_uops(const rps_trace *t) { return t->count; }

static void rps_trace_destroy(rps_trace *t) {
    if (!t) return;
    for (size_t k = 0; k < t->chunks; k++) free(t->chunk[k]);
    free(t->chunk);
    if (t->side)
        for (size_t k = 0; k < t->chunks; k++) free(t->side[k]);
    free(t->side);
    if (t->prep) {
        free(t->prep->heap);
        free(t->prep->mem_ring);
        free(t->prep->units);
        free(t->prep->mheap);
        free(t->prep->sb_ring);
        free(t->prep->sq_ring);
        free(t->prep);
    }
    free(t->wq);
    free(t);
}

/* An index from a sequence number (seq 0 or outside the run: -1). */
static int64_t index_of(const rps_trace *t, uint64_t seq) {
    if (!seq || !t->count) return -1;
    if (seq < t->first_seq || seq - t->first_seq >= t->count) return -1;
    return (int64_t)(seq - t->first_seq);
}

/* The same for a µop's producer, from the graph's threads (which must not read
 * count: the run goes on): an index before i, or -1. */
static int64_t index_before(const rps_trace *t, uint64_t seq, int64_t i) {
    if (!seq || seq < t->first_seq || seq - t->first_seq >= (uint64_t)i) return -1;
    return (int64_t)(seq - t->first_seq);
}

/* Is µop j still held (a ring keeps the last ring_chunks × RPS_CHUNK)? */
static bool held(const rps_trace *t, int64_t j) {
    return j >= 0 && (uint64_t)j < t->count &&
        (!t->ring_chunks || t->count - (uint64_t)j <= (t->ring_chunks - 1) * (uint64_t)RPS_CHUNK);
}

static void heap_push_min(heap_item *h, uint32_t *n, heap_item x) {
    uint32_t i = (*n)++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (h[p].e < x.e || (h[p].e == x.e && h[p].idx < x.idx)) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

static void heap_pop_min(heap_item *h, uint32_t *n) {
    heap_item last = h[--*n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && (h[c + 1].e < h[c].e || (h[c + 1].e == h[c].e && h[c + 1].idx < h[c].idx))) c++;
        if (last.e < h[c].e || (last.e == h[c].e && last.idx < h[c].idx)) break;
        h[i] = h[c];
        i = c;
    }
    if (*n) h[i] = last;
}

/* The L1D miss latency of a load served by `level` (beyond its L1D hit latency: L1D included). */
static uint32_t miss_latency(const uarch_config *c, uint8_t level) {
    uint32_t lat = c->l1d.latency;
    if (level >= LEVEL_L2 && c->l2.enabled) lat += c->l2.latency;
    if (level >= LEVEL_L3 && c->l3.enabled) lat += c->l3.latency;
    if (level == LEVEL_MEM) lat += c->mem_latency;
    return lat;
}

/* A fill's latencies below the L1D (what a fill served by `level` takes beyond the L1D's own
 * latency: memsys counts the L1D's in a fill's latency); 0 for an L1D hit. */
static uint32_t fill_nominal(const uarch_config *c, uint8_t level) {
    return level >= LEVEL_L2 ? miss_latency(c, level) - c->l1d.latency : 0;
}

/* Does µop j wait for an optimizable event: a producer that is a long-latency
 * event operation or a load that missed L1D? (RpStacks §IV-C, "Modeling the
 * issue dynamics".) A producer the ring no longer holds completed before j was
 * dispatched (it committed before j's ROB entry was free). */
static bool waits_for_event(const rps_trace *t, int64_t j) {
    const rps_uop *u = rps_u(t, j);
    for (int s = 0; s < 3; s++) {
        int64_t p = index_of(t, u->prod[s]);
        if (p < 0 || p >= j || !held(t, p)) continue;
        const rps_uop *q = rps_u(t, p);
        if (q->t[N_P] < u->t[N_D]) continue; /* ready before it was even dispatched */
        if ((q->uflags & UOP_MEM_READ) && q->dcache_level >= LEVEL_L2) return true;
        if (rps_class_is_event(q->op_class) && t->cfg.latency[q->op_class] > 1) return true;
    }
    return false;
}

/* The issue dependency of µop i (RpStacks Table I, E_j → D_i). The IQ frees
 * the entry i takes when the µop at the heap's top issues; when that bound i's
 * dispatch (the IQ was full) and that µop waits for no optimizable event, i
 * waits instead for the latest older µop that does and had issued by then,
 * with the difference as base weight (*slack): "prefer to select instruction
 * j waiting for the result of an optimizable long-latency instruction", so
 * that dispatch follows the chain a latency change speeds up or slows down. */
static int64_t issue_dependency(const rps_trace *t, int64_t i, const heap_item *h, uint32_t iq, uint64_t *slack) {
    *slack = 0;
    int64_t top = h[0].idx;
    uint64_t d = rps_u(t, i)->t[N_D];
    if (h[0].e != d || !held(t, top) || waits_for_event(t, top)) return top;
    int64_t best = -1;
    for (int64_t j = i - 1; j >= 0 && j >= i - 2 * (int64_t)iq && held(t, j); j--) {
        uint64_t e = rps_u(t, j)->t[N_E];
        /* near-equivalent candidates only: issued at most ISSUE_SLACK cycles before */
        if (e > d || e + ISSUE_SLACK < d || (best >= 0 && e <= rps_u(t, best)->t[N_E])) continue;
        if (waits_for_event(t, j)) best = j;
    }
    if (best < 0) return top;
    *slack = d - rps_u(t, best)->t[N_E];
    return best;
}

/* The constraints of µop i from the older µops' order, and the run's totals. */
/* FMT: of the commit stall [from, to), the cycles a TLB miss was being served
 * (`extra` cycles from `start`: the L2 TLB's lookup when there is one, then
 * the walk, as in memsys_translate) go to the L2 TLB and `walk_dim`. The
 * cycles charged. */
static double fmt_tlb(rps_trace *t, uint64_t from, uint64_t to, uint64_t start, uint32_t extra, int walk_dim) {
    const uarch_config *c = &t->cfg;
    uint64_t l2 = c->l2tlb_entries ? (c->l2tlb_latency < extra ? c->l2tlb_latency : extra) : 0;
    uint64_t lookup[2] = {from > start ? from : start, to < start + l2 ? to : start + l2};
    uint64_t walk[2] = {from > start + l2 ? from : start + l2, to < start + extra ? to : start + extra};
    double a = lookup[1] > lookup[0] ? (double)(lookup[1] - lookup[0]) : 0;
    double b = walk[1] > walk[0] ? (double)(walk[1] - walk[0]) : 0;
    t->fmt[RPS_L2TLB] += a;
    t->fmt[walk_dim] += b;
    return a + b;
}

static void prepare_one(rps_trace *t, int64_t i) {
    rps_prep *p = t->prep;
    const uarch_config *c = &t->cfg;
    rps_uop *u = rps_u(t, i);
    /* IQ: µop i dispatches once fewer than iq_size older µops are still waiting
     * to issue, i.e. not before the iq_size-th latest issue among the older
     * µops (issue frees the entry before dispatch looks, in the same cycle). */
    u->iq_slack = 0;
    u->iq_src = p->hn == p->iq ? issue_dependency(t, i, p->heap, p->iq, &u->iq_slack) : -1;
    heap_push_min(p->heap, &p->hn, (heap_item){u->t[N_E], i});
    if (p->hn > p->iq) heap_pop_min(p->heap, &p->hn);

    /* LSQ: loads and stores leave it at commit, in program order */
    bool load = u->uflags & UOP_MEM_READ, store = u->uflags & UOP_MEM_WRITE;
    u->lsq_src = -1;
    if ((load || (store && c->lsq_size)) && p->lsq) {
        if (p->mem_count >= p->lsq) u->lsq_src = p->mem_ring[p->mem_count % p->lsq];
        p->mem_ring[p->mem_count % p->lsq] = i;
        p->mem_count++;
    }

    /* separate queues: a store (an atomic too) takes a store queue entry, which a commit frees */
    if (store && !c->lsq_size && c->sq_size) {
        if (p->sq_count >= c->sq_size) rps_s(t, i)->sq_back = rps_dist(i, p->sq_ring[p->sq_count % c->sq_size]);
        p->sq_ring[p->sq_count % c->sq_size] = i;
        p->sq_count++;
    }

    /* units: the unit's previous user in program order that issued before i */
    u->unit_src = -1;
    if (u->pool < UARCH_MAX_POOLS && u->unit < 64) {
        heap_item *ring = p->units[u->pool][u->unit];
        uint64_t best = 0;
        for (int k = 0; k < UNIT_RING; k++) {
            if (ring[k].idx < 0 || ring[k].e >= u->t[N_E]) continue;
            if (u->unit_src < 0 || ring[k].e > best) u->unit_src = ring[k].idx, best = ring[k].e;
        }
        memmove(ring + 1, ring, (UNIT_RING - 1) * sizeof *ring);
        ring[0] = (heap_item){u->t[N_E], i};
    }

    /* miss registers: a load that starts a fill needs a free L1D MSHR; the
     * mshrs-th latest fill among the older starters must have arrived */
    u->mshr_src = -1;
    bool starts = load && !(u->rflags & UREC_FORWARDED) && u->dcache_level >= LEVEL_L2 &&
        u->exec_latency >= c->latency[u->op_class] + miss_latency(c, u->dcache_level);
    if (starts && c->store_buffer) /* its register frees when its fill arrives (memsys: at the request, issue) */
        note_free(t, u->t[N_E] + u->exec_latency - c->latency[u->op_class] - u->dtlb_extra, i);
    if (starts && p->mshrs) {
        uint64_t ready = u->t[N_E] + u->exec_latency - c->latency[u->op_class];
        if (p->mn == p->mshrs && p->mheap[0].e <= u->t[N_E]) u->mshr_src = p->mheap[0].idx;
        heap_push_min(p->mheap, &p->mn, (heap_item){ready, i});
        if (p->mn > p->mshrs) heap_pop_min(p->mheap, &p->mn);
    }

    /* the store buffer: writes leave it in program order; a store commits once the store
     * store_buffer older has written (its entry is free) */
    if (rps_sb_store(t, u)) {
        uint32_t n = c->store_buffer;
        if (p->sb_count) rps_s(t, i)->sb_prev_back = rps_dist(i, p->sb_ring[(p->sb_count - 1) % n]);
        if (p->sb_count >= n) rps_s(t, i)->sb_room_back = rps_dist(i, p->sb_ring[p->sb_count % n]);
        p->sb_ring[p->sb_count % n] = i;
        p->sb_count++;
    }

    /* cache-line sharing */
    u->share_src = -1;
    if (load && !(u->rflags & UREC_FORWARDED) && u->dcache_level >= LEVEL_L2) {
        uint64_t line = u->addr >> p->line_bits;
        uint32_t b = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 54) % SHARE_BUCKETS;
        if (p->share[b].line == line && p->share[b].idx >= 0 && p->share[b].complete <= u->t[N_P])
            u->share_src = p->share[b].idx;
        else p->share[b].line = line, p->share[b].idx = i, p->share[b].complete = u->t[N_P];
    }

    /* the commit-stall table (FMT, Eyerman et al. [8] as RpStacks §II-C uses
     * it): each cycle commit waits is charged to one event of the µop it waits
     * for; the cycles [from, commit) that it waited while that µop's TLB miss
     * was served (its ITLB miss for a frontend stall, else its DTLB miss) go to
     * the TLB events, the rest to its other event */
    t->instructions += !u->continues;
    uint64_t from = t->fmt_last, end = u->t[N_C] + 1;
    uint64_t gap = end > from ? end - from : 0;
    if (end > t->fmt_last) t->fmt_last = end;
    if (gap <= 1) {
        t->fmt[RPS_BASE] += (double)gap;
        return;
    }
    t->fmt[RPS_BASE] += 1;
    double stall = (double)(gap - 1);
    int dim = RPS_BASE;
    if (i > 0 && u->t[N_D] >= rps_u(t, i - 1)->t[N_C]) { /* the ROB ran empty: a frontend event */
        /* fetch is stamped where an ITLB miss's translation started (ooo.c) */
        if (u->itlb_extra) stall -= fmt_tlb(t, from, u->t[N_C], u->t[N_F], u->itlb_extra, RPS_ITLB);
        if (u->icache_level == LEVEL_MEM) dim = RPS_MEM_INSTR;
        else if (u->icache_level >= LEVEL_L2) dim = RPS_L2_INSTR;
    } else {
        if (u->dtlb_extra) /* the translation follows address generation (ooo.c) */
            stall -= fmt_tlb(t, from, u->t[N_C], u->t[N_E] + c->latency[u->op_class], u->dtlb_extra, RPS_DTLB);
        if (u->uflags & UOP_MEM_READ) { /* the head is a load: its miss level, else an L1 hit */
            dim = u->dcache_level == LEVEL_MEM ? RPS_MEM_DATA
                : u->dcache_level >= LEVEL_L2  ? RPS_L2_DATA
                : (u->rflags & UREC_FORWARDED) ? RPS_BASE
                                               : RPS_L1D;
        } else if (rps_class_is_event(u->op_class) && c->latency[u->op_class] > 1) { /* a long-latency operation */
            dim = RPS_CLASS0 + u->op_class;
        }
    }
    t->fmt[dim] += stall;
}

void rps_trace_prefetch_fill(rps_trace *t, uint64_t at, uint64_t start, uint8_t level) {
    if (!t->cfg.store_buffer || start > at || at - start > UINT32_MAX) return;
    t->pf_frees[at % RPS_FREES] = (rps_pf_free){at, start, (uint32_t)(at - start), level};
}

/* The request a fill started at `start` is tied to: the latest store older than j through the
 * buffer whose request was at or before it (its drain node known), among the 2 x store_buffer
 * before j; *off = how much before. A prefetch is no µop: its fill starts with the request that
 * armed it (next-line: the previous line's), or later when the miss registers were full, and
 * that request moves with the design (the part under way at j's request does not). 0: none. */
static uint32_t fill_starter(const rps_trace *t, int64_t j, uint64_t start, uint32_t *off) {
    int64_t q = rps_back(j, rps_s(t, j)->sb_prev_back);
    for (uint32_t k = 0; q >= 0 && held(t, q) && k < 2 * t->cfg.store_buffer; k++) {
        const rps_uop *p = rps_u(t, q);
        if (!p->t[N_W]) return 0;
        if (p->t[N_Q] <= start) {
            if (start - p->t[N_Q] > UINT32_MAX) return 0;
            *off = (uint32_t)(start - p->t[N_Q]);
            return rps_dist(j, q);
        }
        q = rps_back(q, rps_s(t, q)->sb_prev_back);
    }
    return 0;
}

/* A store's write (µop j): its drain node's time and its fill; what held its request back
 * (the writes come in program order: every older store's is in) */
static void set_write(rps_trace *t, int64_t j, const rps_store_write *w) {
    rps_uop *u = rps_u(t, j);
    rps_side *sd = rps_s(t, j);
    u->t[N_W] = w->cycle;
    u->t[N_Q] = w->request;
    u->t[N_A] = w->request + w->fill;
    sd->wfill = w->fill;
    u->wlevel = w->level;
    u->wmerged = w->merged;
    sd->sb_mshr_back = 0;
    sd->join_back = sd->pfm_back = 0;
    /* the fill its request joined: tied to the request that started it (or its prefetch) */
    if (w->merged && w->joined && w->join_start <= w->request && w->level >= LEVEL_L2) {
        sd->join_back = fill_starter(t, j, w->join_start, &sd->join_off);
        sd->join_lat = w->join_lat;
    }
    /* a miss register: freed by the fill that arrived in the cycle of the request (an older
     * load's or store's; else a prefetch's, PEV_FILL) */
    if (w->request > u->t[N_C] + 1 && !u->wmerged && u->wlevel >= LEVEL_L2) {
        const rps_free *f = &t->frees[w->request % RPS_FREES];
        const rps_pf_free *pf = &t->pf_frees[w->request % RPS_FREES];
        if (f->at == w->request && f->idx >= 0 && f->idx < j && held(t, f->idx)) sd->sb_mshr_back = rps_dist(j, f->idx);
        else if (pf->at == w->request) {
            sd->pfm_back = fill_starter(t, j, pf->start, &sd->pfm_off);
            sd->pfm_lat = pf->lat;
            sd->pfm_level = pf->level;
        }
    }
    /* its own register frees when its line has arrived and the L1D took it (memsys: a fill's
     * latency counts the L1D's) */
    if (!u->wmerged && u->wlevel >= LEVEL_L2) note_free(t, w->request + sd->wfill + t->cfg.l1d.latency, j);
}

/* Past the µops that need no write or have theirs (writes come in program order). */
static void advance_drained(rps_trace *t) {
    while (t->drained_below < t->count) {
        const rps_uop *u = rps_u(t, (int64_t)t->drained_below);
        if (rps_sb_store(t, u) && !u->t[N_W]) break;
        t->drained_below++;
    }
}

/* Append one µop (the caller made room in a ring) and prepare it. */
static void trace_append(rps_trace *t, const uop_record *x) {
    uint64_t i = t->count;
    uint64_t c = i / RPS_CHUNK;
    if (t->ring_chunks) c &= t->ring_chunks - 1;
    else if (c >= t->chunks) {
        size_t n = t->chunks ? t->chunks * 2 : 16;
        t->chunk = cs_realloc(t->chunk, cs_array_size(n, sizeof *t->chunk));
        memset(t->chunk + t->chunks, 0, (n - t->chunks) * sizeof *t->chunk);
        if (rps_has_side(&t->cfg)) {
            t->side = cs_realloc(t->side, cs_array_size(n, sizeof *t->side));
            memset(t->side + t->chunks, 0, (n - t->chunks) * sizeof *t->side);
        }
        t->chunks = n;
    }
    if (!t->chunk[c]) t->chunk[c] = cs_malloc(RPS_CHUNK * sizeof(rps_uop));
    rps_uop *u = &t->chunk[c][i % RPS_CHUNK];
    memset(u, 0, sizeof *u);
    if (t->side) {
        if (!t->side[c]) t->side[c] = cs_malloc(RPS_CHUNK * sizeof(rps_side));
        memset(&t->side[c][i % RPS_CHUNK], 0, sizeof(rps_side));
    }
    u->t[N_F] = x->fetch;
    u->t[N_IS] = x->icache_done;
    u->t[N_D] = x->dispatch;
    u->t[N_R] = x->ready;
    u->t[N_E] = x->issue;
    u->t[N_P] = x->complete;
    u->t[N_C] = x->commit;
    u->seq = x->seq;
    for (int s = 0; s < 3; s++) u->prod[s] = x->prod_seq[s];
    u->mem_prod = x->mem_prod_seq;
    u->addr = x->u.mem_addr;
    u->exec_latency = x->exec_latency;
    u->op_class = x->u.op_class;
    u->pool = x->pool;
    u->unit = x->unit;
    u->icache_level = x->icache_level;
    u->dcache_level = x->dcache_level;
    u->mispredict = x->mispredict;
    u->uflags = x->u.flags;
    u->rflags = x->flags;
    u->continues = (x->u.flags & UOP_CONTINUES) != 0;
    /* the translation's cycles (0 on a TLB hit, or with no TLB modelled) */
    u->dtlb_extra = x->dtlb_done > x->addr_ready ? (uint32_t)(x->dtlb_done - x->addr_ready) : 0;
    u->itlb_extra = x->itlb_done > x->fetch ? (uint32_t)(x->itlb_done - x->fetch) : 0;
    if (i == 0) t->first_seq = x->seq;
    t->count = i + 1;
    prepare_one(t, (int64_t)i);
    if (rps_sb_store(t, u)) { /* its write, if it came before the record: the FIFO's head */
        while (t->wq_n && t->wq[t->wq_head].seq < u->seq) t->wq_head = (t->wq_head + 1) % t->wq_cap, t->wq_n--;
        if (t->wq_n && t->wq[t->wq_head].seq == u->seq) {
            set_write(t, (int64_t)i, &t->wq[t->wq_head]);
            t->wq_head = (t->wq_head + 1) % t->wq_cap, t->wq_n--;
        }
    }
    advance_drained(t);
}

void rps_trace_write(rps_trace *t, const rps_store_write *w) {
    if (!t->cfg.store_buffer) return;
    int64_t j = index_of(t, w->seq);
    if (j >= 0) { /* its record is in: unless its segment was queued (the write came too late) */
        rps_uop *u = rps_u(t, j);
        if ((uint64_t)j >= t->frozen_below && held(t, j) && rps_sb_store(t, u) && !u->t[N_W]) {
            set_write(t, j, w);
            advance_drained(t);
        }
        return;
    }
    if (t->count && w->seq < t->first_seq + t->count) return; /* before the run (warm-up) */
    if (t->wq_n == t->wq_cap) {                               /* grow the ring, oldest first */
        size_t cap = t->wq_cap ? 2 * t->wq_cap : 64;
        rps_store_write *q = cs_malloc(cs_array_size(cap, sizeof *q));
        for (size_t k = 0; k < t->wq_n; k++) q[k] = t->wq[(t->wq_head + k) % t->wq_cap];
        free(t->wq);
        t->wq = q, t->wq_cap = cap, t->wq_head = 0;
    }
    t->wq[(t->wq_head + t->wq_n++) % t->wq_cap] = *w;
}

/* The tail after the last commit is the store buffer draining: it ends when the
 * last store written has its line. That store's fill is the tail's end, so the
 * tail is charged from its end backwards: memory, then L2 (the fill's order), as
 * far as the tail reaches, and what is left (stores before it, the write itself)
 * to base. A store before the last held µops, or none: all base. */
void rps_tail_weight(const rps_trace *t, double tail, double dims[RPS_DIMS]) {
    memset(dims, 0, RPS_DIMS * sizeof *dims);
    const uarch_config *c = &t->cfg;
    double left = tail;
    for (int64_t j = (int64_t)t->count - 1; j >= 0 && held(t, j); j--) {
        const rps_uop *u = rps_u(t, j);
        if (!(u->uflags & UOP_MEM_WRITE) || (u->uflags & UOP_MEM_READ)) continue;
        if (u->dcache_level == LEVEL_MEM) {
            double m = left < c->mem_latency ? left : c->mem_latency;
            dims[RPS_MEM_DATA] = m, left -= m;
        }
        if (u->dcache_level >= LEVEL_L3 && c->l3.enabled) left -= left < c->l3.latency ? left : c->l3.latency;
        if (u->dcache_level >= LEVEL_L2 && c->l2.enabled) {
            double l2 = left < c->l2.latency ? left : c->l2.latency;
            dims[RPS_L2_DATA] = l2, left -= l2;
        }
        break;
    }
    dims[RPS_BASE] = tail - dims[RPS_MEM_DATA] - dims[RPS_L2_DATA];
}

/* ---- edges ---- */

static void w_clear(rps_weight *w) { memset(w, 0, sizeof *w); }
static void w_add(rps_weight *w, int dim, double v) {
    if (v == 0) return;
    if (dim == RPS_BASE) {
        w->base += v;
        return;
    }
    for (int k = 0; k < w->n; k++)
        if (w->dim[k] == dim) {
            w->val[k] += v;
            return;
        }
    if (w->n == RPS_WEIGHT_DIMS) { /* an edge with more events than any row has: a wrong weight, never a silent base */
        fprintf(stderr, "cyclescope: internal error: an RpStacks edge with more than %d events\n", RPS_WEIGHT_DIMS);
        abort();
    }
    w->dim[w->n] = (uint8_t)dim;
    w->val[w->n++] = v;
}
double rps_weight_total(const rps_weight *w) {
    double s = w->base;
    for (int k = 0; k < w->n; k++) s += w->val[k];
    return s;
}

/* The dimension of an operation class's latency: its event, or base for a one-cycle class. */
static int class_dim(int cls) { return rps_class_is_event(cls) ? RPS_CLASS0 + cls : RPS_BASE; }

/* A fill's latencies below the L1D as events, by the level that served it: the L2's (`l2dim`),
 * the L3's (base: no L3 event) and memory's (`memdim`). Returns their sum (fill_nominal). */
static double level_events(const uarch_config *c, uint8_t level, int l2dim, int memdim, rps_weight *w) {
    double sum = 0;
    if (level >= LEVEL_L2 && c->l2.enabled) w_add(w, l2dim, c->l2.latency), sum += c->l2.latency;
    if (level >= LEVEL_L3 && c->l3.enabled) w_add(w, RPS_BASE, c->l3.latency), sum += c->l3.latency;
    if (level == LEVEL_MEM) w_add(w, memdim, c->mem_latency), sum += c->mem_latency;
    return sum;
}

/* A fill that freed an L1D miss register, from its load's completion: P_j less its address
 * generation (the register frees when the line arrives, before the load completes). */
static void less_address_generation(const uarch_config *c, const rps_uop *f, rps_weight *w) {
    w_add(w, class_dim(f->op_class), -(double)c->latency[f->op_class]);
}

/* A TLB miss's `extra` cycles split into events: the L2 TLB's latency (when
 * there is one) and, when it missed there too or there is none, the walk
 * (memsys_translate). Returns the cycles it added. */
static double tlb_weight(const uarch_config *c, uint32_t extra, int walk_dim, uint32_t walk, rps_weight *w) {
    if (!extra) return 0;
    double sum = 0;
    if (c->l2tlb_entries) w_add(w, RPS_L2TLB, c->l2tlb_latency), sum += c->l2tlb_latency;
    if (!c->l2tlb_entries || extra >= c->l2tlb_latency + walk) w_add(w, walk_dim, walk), sum += walk;
    return sum;
}

/* The execution latency of µop u split into events (the E→P edge). */
static void exec_weight(const rps_trace *t, const rps_uop *u, rps_weight *w) {
    const uarch_config *c = &t->cfg;
    w_clear(w);
    double total = u->exec_latency, sum = 0;
    uint32_t cls = c->latency[u->op_class];
    int cdim = class_dim(u->op_class);
    w_add(w, cdim, cls);
    sum += cls;
    /* a DTLB miss: the translation follows address generation (ooo.c), loads and stores alike */
    double tlb = tlb_weight(c, u->dtlb_extra, RPS_DTLB, c->dtlb_miss_latency, w);
    sum += tlb;
    if (u->uflags & UOP_MEM_READ) {
        w_add(w, RPS_L1D, c->l1d.latency);
        sum += c->l1d.latency;
        if (!(u->rflags & UREC_FORWARDED)) {
            double miss = level_events(c, u->dcache_level, RPS_L2_DATA, RPS_MEM_DATA, w);
            sum += miss;
            if (sum > total && total - cls - tlb - c->l1d.latency < miss / 2) {
                /* joined a fill late: only its hit part is its own; the fill's start is the sharing edge */
                w_clear(w);
                w_add(w, cdim, cls);
                tlb_weight(c, u->dtlb_extra, RPS_DTLB, c->dtlb_miss_latency, w);
                w_add(w, RPS_L1D, c->l1d.latency);
                sum = cls + tlb + c->l1d.latency;
            } /* joined early: the miss, less the part already under way (a negative base) */
        }
    }
    w_add(w, RPS_BASE, total - sum);
}

/* The fill store i's request joined (PEV_STORE_JOIN), from its start to the line in the L1D:
 * its latency less the L1D's (memsys counts the L1D's in a fill's latency). */
static double joined_below(const uarch_config *c, const rps_side *sd) { return (double)sd->join_lat - c->l1d.latency; }

/* Does store i's line come over the memory channel in a fill whose start is known (its own, or
 * the one it joined: PEV_STORE_JOIN)? *start: that fill's request. */
static bool channel_fill(const rps_trace *t, int64_t i, int64_t oldest, uint64_t *start) {
    const rps_uop *u = rps_u(t, i);
    if (u->wlevel != LEVEL_MEM) return false;
    if (!u->wmerged) return *start = u->t[N_Q], true;
    int64_t j = rps_back(i, rps_s(t, i)->join_back);
    if (j < 0 || j < oldest) return false;
    *start = rps_u(t, j)->t[N_Q] + rps_s(t, i)->join_off;
    return true;
}

/* The memory channel: one line per transfer time (memsys), the fills in the order they start
 * (a store's own in program order; a prefetch's that a store joined, when it started). For
 * store i whose line came from memory (with memory.bandwidth, not the DRAM model) in a fill
 * whose start is known: the previous store whose line did in another such fill, started
 * before it (or in the same cycle, arriving before it), looked for among the 2 x store_buffer stores before it within the window, or -1. */
static int64_t channel_source(const rps_trace *t, int64_t i, int64_t oldest) {
    const uarch_config *c = &t->cfg;
    const rps_uop *u = rps_u(t, i);
    uint64_t si, sq;
    if (!c->mem_bandwidth || c->dram || !channel_fill(t, i, oldest, &si)) return -1;
    uint64_t line = u->addr / l1d_line(c);
    int64_t q = rps_back(i, rps_s(t, i)->sb_prev_back);
    for (uint32_t k = 0; q >= oldest && q >= 0 && k < 2 * c->store_buffer; k++) {
        const rps_uop *p = rps_u(t, q);
        if (!p->t[N_W]) return -1; /* its write not seen */
        if (p->addr / l1d_line(c) != line && channel_fill(t, q, oldest, &sq))
            /* two fills started in one cycle (a prefetch of two lines) went in the order they arrived */
            return sq < si || (sq == si && p->t[N_A] < u->t[N_A]) ? q : -1;
        q = rps_back(q, rps_s(t, q)->sb_prev_back);
    }
    return -1;
}

/* A fill served by `level` taking `total` cycles beyond the L1D's (from its request): the L2's
 * and memory's latencies as events, the L3's and the rest (a queue) base. */
static void fill_level_weight(const uarch_config *c, uint8_t level, double total, rps_weight *w) {
    w_add(w, RPS_BASE, total - level_events(c, level, RPS_L2_DATA, RPS_MEM_DATA, w));
}

/* A store's fill in the store buffer (its request to its line being there, Q_i → A_i) as
 * events: the L2's and memory's latencies by the level that served it, so that they scale; the
 * L3 and the time beyond the latencies (the channel's queue) base. A request that joined a fill
 * in flight whose start is not known (no PEV_STORE_JOIN, or no older store's request at or
 * before it) waits for the rest of it: the latencies less the part already under way (a negative
 * base), as a load that joined a fill early. A fill shorter than the latencies that joined none
 * (a write handed to the level below, without write-allocate) is base. */
static void drain_fill_weight(const rps_trace *t, int64_t i, int64_t oldest, rps_weight *w) {
    const uarch_config *c = &t->cfg;
    const rps_uop *u = rps_u(t, i);
    double fill = rps_s(t, i)->wfill, nominal = fill_nominal(c, u->wlevel);
    if (u->wlevel < LEVEL_L2 || (fill < nominal && !u->wmerged)) {
        w_add(w, RPS_BASE, fill);
        return;
    }
    level_events(c, u->wlevel, RPS_L2_DATA, RPS_MEM_DATA, w);
    /* a fill that queued for the memory channel (memsys: it arrives at the later of its request
     * plus the latencies and the channel's previous line plus a transfer): the queue is the
     * channel edge's (A_j → A_i), not this fill's; as base here it stayed when the latency grew
     * and the queue went (bdw ptr_chase memory 180 -> 480: the graph +30%) */
    if (fill > nominal && !u->wmerged && channel_source(t, i, oldest) >= 0) return;
    w_add(w, RPS_BASE, fill - nominal);
}

/* The edges into node `v` of µop i, weighted from the configuration and the
 * µop's events. Sources are (µop index, node). Returns the count. */
static int node_edges(const rps_trace *t, int64_t i, int v, int64_t oldest, rps_edge *e) {
    const uarch_config *c = &t->cfg;
    const rps_uop *u = rps_u(t, i);
    int n = 0;
#define EDGE(J, NODE) (e[n].src = (J), e[n].node = (NODE), w_clear(&e[n].w), &e[n++].w)
    switch (v) {
    case N_F:
        if (i == 0) break;
        EDGE(i - 1, N_F);                                                         /* in-order fetch */
        if (rps_u(t, i - 1)->uflags & UOP_TAKEN) w_add(&e[n - 1].w, RPS_BASE, 1); /* a taken transfer ends the group */
        if (i >= (int64_t)c->fetch_width) w_add(EDGE(i - c->fetch_width, N_F), RPS_BASE, 1); /* fetch bandwidth */
        if (rps_u(t, i - 1)->mispredict)
            w_add(EDGE(i - 1, N_P), RPS_BASE, c->redirect_penalty); /* control dependency */
        if (rps_u(t, i - 1)->icache_level >=
            LEVEL_L2) /* fetch resumes when the fill the µop before waited for arrives */
            w_add(EDGE(i - 1, N_IS), RPS_L1I, -(double)c->l1i.latency);
        {
            int64_t fb = (int64_t)(c->fetch_buffer + (c->l1i.latency + c->decode_depth) * c->fetch_width);
            if (i >= fb) EDGE(i - fb, N_D); /* finite fetch buffer (the model's, sized for the pipe) */
        }
        break;
    case N_IS: {
        rps_weight *w = EDGE(i, N_F); /* I$ access latency */
        double total = (double)(u->t[N_IS] - u->t[N_F]), sum = c->l1i.latency;
        w_add(w, RPS_L1I, c->l1i.latency);
        /* an ITLB miss: fetch is stamped where the translation started (ooo.c), the I$ access follows it */
        double tlb = tlb_weight(c, u->itlb_extra, RPS_ITLB, c->itlb_miss_latency, w);
        double miss = level_events(c, u->icache_level, RPS_L2_INSTR, RPS_MEM_INSTR, w);
        sum += tlb + miss;
        if (sum > total && total - c->l1i.latency - tlb < miss / 2) {
            /* joined a fill late (the next-line prefetch the previous line's miss armed, bdw): the
             * fill started with that older request, which this fetch follows (F_i after IS_{i-1});
             * only its hit part is its own, the rest of the wait (the channel's spacing) base. As
             * the latencies less the part under way, a memory what-if moved this fetch by the
             * whole change, after the older fill's (bdw ptr_chase memory 180 -> 480: 37 such
             * fetches at the cold start, +11.1 k cycles) */
            w_clear(w);
            w_add(w, RPS_L1I, c->l1i.latency);
            tlb_weight(c, u->itlb_extra, RPS_ITLB, c->itlb_miss_latency, w);
            sum = c->l1i.latency + tlb;
        }
        w_add(w, RPS_BASE, total - sum); /* < 0: joined a fill under way early */
        if (i > 0) EDGE(i - 1, N_IS);    /* in-order I-cache delivery */
        break;
    }
    case N_D:
        w_add(EDGE(i, N_IS), RPS_BASE, c->decode_depth); /* rename after I$ (decode) */
        if (i > 0) EDGE(i - 1, N_D);                     /* in-order rename / dispatch */
        if (i >= (int64_t)c->dispatch_width) w_add(EDGE(i - c->dispatch_width, N_D), RPS_BASE, 1);
        if (i >= (int64_t)c->rob_size) EDGE(i - c->rob_size, N_C);                         /* finite ROB */
        if (u->iq_src >= 0) w_add(EDGE(u->iq_src, N_E), RPS_BASE, (double)u->iq_slack);    /* issue dependency */
        if (u->lsq_src >= 0) EDGE(u->lsq_src, N_C);                                        /* finite LSQ */
        if (t->side && rps_s(t, i)->sq_back) EDGE(rps_back(i, rps_s(t, i)->sq_back), N_C); /* the finite SQ */
        break;
    case N_R:
        EDGE(i, N_D); /* ready after dispatch */
        for (int s = 0; s < 3; s++) {
            int64_t j = index_before(t, u->prod[s], i);
            if (j >= 0 && j < i) EDGE(j, N_P); /* data dependency */
        }
        break;
    case N_E: {
        EDGE(i, N_R);                     /* execute after ready */
        w_add(EDGE(i, N_D), RPS_BASE, 1); /* issue looks at a µop the cycle after it is dispatched */
        int64_t j = u->unit_src;
        if (j >= 0 && j < i) { /* the unit's previous user: one cycle, or its whole latency if unpipelined */
            rps_weight *w = EDGE(j, N_E);
            if (j < oldest) { /* beyond the window: dropped */
            } else if (c->pipelined[rps_u(t, j)->op_class]) w_add(w, RPS_BASE, 1);
            else exec_weight(t, rps_u(t, j), w);
        }
        j = index_before(t, u->mem_prod, i);
        if ((u->uflags & UOP_MEM_READ) && j >= 0 && j < i) EDGE(j, N_P); /* address dependency: the store executed */
        j = u->mshr_src;
        if (j >= 0 && j < oldest) EDGE(j, N_P); /* beyond the window: dropped */
        else if (j >= 0 && j < i) { /* a miss register frees when that fill arrives: P_j less its address generation */
            less_address_generation(c, rps_u(t, j), EDGE(j, N_P));
        }
        break;
    }
    case N_P:
        exec_weight(t, u, EDGE(i, N_E));                                    /* completion after execute */
        if (u->share_src >= 0 && u->share_src < i) EDGE(u->share_src, N_P); /* cache line sharing */
        break;
    case N_C: {
        EDGE(i, N_P); /* commit after complete */
        if (i > 0) EDGE(i - 1, N_C);
        if (i >= (int64_t)c->commit_width) w_add(EDGE(i - c->commit_width, N_C), RPS_BASE, 1);
        /* store buffer room: the write of the store store_buffer older freed the entry (the buffer
         * drains before commit looks, in the same cycle). A source beyond the window is listed
         * (dropped), not read */
        int64_t j = t->side ? rps_back(i, rps_s(t, i)->sb_room_back) : -1;
        if (j >= 0 && (j < oldest || rps_u(t, j)->t[N_W])) EDGE(j, N_W);
        break;
    }
    case N_Q: {
        /* its request for its line: the cycle after its commit, in order (requests in program
         * order, several a cycle), and after the fill that freed the miss register it waited for */
        const rps_side *sd = rps_s(t, i);
        w_add(EDGE(i, N_C), RPS_BASE, 1);
        int64_t j = rps_back(i, sd->sb_prev_back);
        if (j >= 0 && (j < oldest || rps_u(t, j)->t[N_W])) EDGE(j, N_Q);
        j = rps_back(i, sd->sb_mshr_back);
        if (j >= 0 && j >= oldest) { /* a miss register, freed when that load's or store's line arrived */
            const rps_uop *p = rps_u(t, j);
            if (p->uflags & UOP_MEM_READ) { /* P_j less its address generation and translation */
                rps_weight *w = EDGE(j, N_P);
                less_address_generation(c, p, w);
                w_add(w, RPS_BASE, -(double)p->dtlb_extra);
            } else { /* A_j plus the L1D's part of the fill (memsys: a fill's latency counts it) */
                w_add(EDGE(j, N_A), RPS_L1D, c->l1d.latency);
            }
        }
        j = rps_back(i, sd->pfm_back);
        if (j >= 0 && j >= oldest) { /* a prefetch's fill held it: from the request that started it */
            rps_weight *w = EDGE(j, N_Q);
            w_add(w, RPS_BASE, sd->pfm_off);
            w_add(w, RPS_L1D, c->l1d.latency);
            fill_level_weight(c, sd->pfm_level, (double)sd->pfm_lat - c->l1d.latency, w);
        }
        break;
    }
    case N_A: {
        /* its line there: its request plus its fill; a request that joined a fill in flight
         * waits for that fill, from the request that started it (a prefetch's: the request
         * that armed it) */
        const rps_side *sd = rps_s(t, i);
        int64_t j = rps_back(i, sd->join_back);
        if (j >= 0 && u->wmerged) {
            EDGE(i, N_Q);
            if (j >= oldest) {
                rps_weight *w = EDGE(j, N_Q);
                w_add(w, RPS_BASE, sd->join_off);
                double below = joined_below(c, sd), nominal = fill_nominal(c, u->wlevel);
                /* a fill that queued for the channel: the queue is the channel edge's (below) */
                if (below > nominal && channel_source(t, i, oldest) >= 0) below = nominal;
                fill_level_weight(c, u->wlevel, below, w);
            }
        } else {
            drain_fill_weight(t, i, oldest, EDGE(i, N_Q));
        }
        j = channel_source(t, i, oldest);
        if (j >= 0) { /* the memory channel: A_j plus a line's transfer */
            const rps_side *ps = rps_s(t, j);
            double transfer = (double)((c->l1d.line + c->mem_bandwidth - 1) / c->mem_bandwidth);
            /* the channel spaces the fills' arrivals, and A_j is later than its fill's when j's
             * request came after the line had landed, its miss register not yet freed (A_j = Q_j;
             * bdw, bzip2 -c: 2 cycles, a violation until 2026-11-29): the edge from A_j less that */
            double late = 0;
            uint64_t sj;
            if (rps_u(t, j)->wmerged && channel_fill(t, j, oldest, &sj)) {
                double landed = (double)sj + joined_below(c, ps);
                if (landed < (double)rps_u(t, j)->t[N_A]) late = (double)rps_u(t, j)->t[N_A] - landed;
            }
            /* a fill that queued (longer than its latencies) started when the channel freed: the
             * gap to the previous store's is the lines that went between */
            double gap = (double)(rps_wreq(t, i) + sd->wfill) - (double)(rps_wreq(t, j) + ps->wfill) + late;
            double fill = u->wmerged ? joined_below(c, sd) : sd->wfill;
            if (fill > fill_nominal(c, LEVEL_MEM) && gap > transfer) transfer = gap;
            /* with a limited cache link a line may wait for the link after the channel (the link
             * takes the fills in the order they were requested, docs/uarch.md): j's may have
             * reached the L1 later than it left the channel, and i's closer than a transfer
             * after it (random_config.py gen 66, fft 256: 57 cycles, a transfer being 64). The
             * channel's spacing is then not seen in the arrivals: the gap at the baseline */
            bool links = (c->l2.enabled && c->l2_bandwidth) || (c->l3.enabled && c->l3_bandwidth);
            if (links && gap < transfer) transfer = gap;
            if (transfer - late > 0) w_add(EDGE(j, N_A), RPS_BASE, transfer - late);
        }
        break;
    }
    case N_W: {
        /* its write: once its line is there, in order, one a cycle */
        EDGE(i, N_A);
        int64_t j = rps_back(i, rps_s(t, i)->sb_prev_back);
        if (j >= 0 && (j < oldest || rps_u(t, j)->t[N_W])) w_add(EDGE(j, N_W), RPS_BASE, 1);
        break;
    }
    }
#undef EDGE
    return n;
}

/* The edges with the residual: when the simulated time is later than every
 * modelled constraint allows, the difference is added as base penalty to the
 * tightest edge (the constraint met last). *violation: a constraint ran past
 * the simulated time (a modelling error; counted). */
int rps_node_edges(const rps_trace *t, int64_t i, int v, int64_t oldest, rps_edge *e, bool *violation) {
    int n = node_edges(t, i, v, oldest, e);
    *violation = false;
    if (!n) return 0;
    double actual = (double)rps_u(t, i)->t[v], bound = -INFINITY;
    int arg = 0;
    for (int k = 0; k < n; k++) {
        if (e[k].src < oldest) continue; /* beyond the window (dropped): never binding in the baseline */
        double x = (double)rps_u(t, e[k].src)->t[e[k].node] + rps_weight_total(&e[k].w);
        if (x > bound) bound = x, arg = k;
    }
    if (bound == -INFINITY) return n; /* every source beyond the window */
    if (bound < actual - 1e-9) e[arg].w.base += actual - bound;
    else if (bound > actual + 1e-9) *violation = true;
    return n;
}

/* ---- stack sets and their reduction ---- */

typedef struct stack_set {
    double *v; /* n × D */
    uint32_t n;
    size_t cap; /* doubles */
    /* over the design space (event d scaled by lmin_d … max_scale): the largest length some
     * path is sure to have, and the largest any path can have (bounds: exact after a
     * reduction, a source's shifted by the weight's after a copy) */
    double lo, hi;
    /* rows r < 64 kept at their reduction as merge targets (not unique): two such rows do not
     * merge (less than the threshold similar, or, with uniqueness by combination, of another
     * combination), until a weight other than 0 is added to them */
    uint64_t settled;
    uint32_t *nz;    /* per row: its events (the dimensions not within 1e-9 of 0), carried along the edges */
    uint32_t nz_cap; /* rows */
} stack_set;

/* A path kept by the dominance scan, what the scan's pre-test reads (one line, in scan order). */
typedef struct dom_kept {
    double at_max, at_min;
    /* the largest at_max, at_min of this path and the ones kept before it: the scan (newest
     * first) stops where none of the older can pass the pre-test */
    double older_max, older_min;
    uint32_t src, cand;
} dom_kept;

typedef struct seg_ctx {
    const rps_trace *t;
    const rps_options *opt;
    int D; /* active dimensions */
    int dim_of[RPS_DIMS];
    int slot_of[RPS_DIMS]; /* global dim → active slot (-1) */
    /* the design space: slot d's penalty scales by lmin[d] (the floor: 0 today, see seg_ctx_begin) … max_scale */
    double lmin[RPS_DIMS];
    uint32_t window;
    stack_set *sets; /* window × N_COUNT */
    stack_set sink;  /* the run's end: its last commit and its last store's write */
    double *times;   /* window × N_COUNT: longest path to the node */
    /* scratch */
    double *cand, *tot;
    uint32_t cand_n, cand_cap;
    uint32_t *order, *merge_tmp, *run_at;       /* run_at: the sort's runs, cand_cap + 1 */
    uint32_t *by_src, *src_at, *src_len, *srcs; /* the kept paths of each source, by at_min (reduce) */
    /* by combination: the representatives of each event combination (a hash of the masks, 2 ×
     * cand_cap slots, empty between reductions), a list through rep_next */
    uint32_t *slot_key, *slot_head, *slot_tail, *slot_used, *rep_next;
    uint8_t *keep, *uniq;
    uint32_t *nz, *pos;      /* per candidate: the events it has, the positive ones */
    uint16_t *src;           /* per candidate: the source set it came from (no two of one set dominate) */
    double *hi, *lo;         /* per candidate: its largest and least length in the design space */
    double *at_max, *at_min; /* per candidate: its length with every event at max_scale, at lmin */
    uint8_t *settled;        /* per candidate: a settled row of its source set, shifted by 0 */
    dom_kept *dom;           /* the paths the dominance scan kept, in order (reduce) */
    uint8_t *cnt;            /* per candidate: how many events it has */
    uint64_t capped, violations, dropped;
    uint64_t stat_calls, stat_cand, stat_dom, stat_kept;
} seg_ctx;

static void cand_reserve(seg_ctx *s, uint32_t need) {
    if (need <= s->cand_cap) return;
    uint32_t cap = s->cand_cap ? s->cand_cap : 64;
    while (cap < need) cap *= 2;
    size_t width = s->D > RPS_DIMS ? (size_t)s->D : RPS_DIMS; /* any segment's D: the context is reused */
    s->cand = cs_realloc(s->cand, cs_array_size(cap * width, sizeof *s->cand));
    s->tot = cs_realloc(s->tot, cs_array_size(cap, sizeof *s->tot));
    s->order = cs_realloc(s->order, cs_array_size(cap, sizeof *s->order));
    s->merge_tmp = cs_realloc(s->merge_tmp, cs_array_size(cap, sizeof *s->merge_tmp));
    s->run_at = cs_realloc(s->run_at, cs_array_size((size_t)cap + 1, sizeof *s->run_at));
    s->by_src = cs_realloc(s->by_src, cs_array_size(cap, sizeof *s->by_src));
    s->src_at = cs_realloc(s->src_at, cs_array_size(cap, sizeof *s->src_at)); /* a source is < the count */
    s->src_len = cs_realloc(s->src_len, cs_array_size(cap, sizeof *s->src_len));
    s->srcs = cs_realloc(s->srcs, cs_array_size(cap, sizeof *s->srcs));
    s->slot_key = cs_realloc(s->slot_key, cs_array_size(2 * (size_t)cap, sizeof *s->slot_key));
    s->slot_head = cs_realloc(s->slot_head, cs_array_size(2 * (size_t)cap, sizeof *s->slot_head));
    s->slot_tail = cs_realloc(s->slot_tail, cs_array_size(2 * (size_t)cap, sizeof *s->slot_tail));
    for (size_t k = 0; k < 2 * (size_t)cap; k++) s->slot_head[k] = UINT32_MAX; /* empty */
    s->slot_used = cs_realloc(s->slot_used, cs_array_size(cap, sizeof *s->slot_used));
    s->rep_next = cs_realloc(s->rep_next, cs_array_size(cap, sizeof *s->rep_next));
    s->keep = cs_realloc(s->keep, cap);
    s->nz = cs_realloc(s->nz, cs_array_size(cap, sizeof *s->nz));
    s->pos = cs_realloc(s->pos, cs_array_size(cap, sizeof *s->pos));
    s->uniq = cs_realloc(s->uniq, cap);
    s->src = cs_realloc(s->src, cs_array_size(cap, sizeof *s->src));
    s->hi = cs_realloc(s->hi, cs_array_size(cap, sizeof *s->hi));
    s->lo = cs_realloc(s->lo, cs_array_size(cap, sizeof *s->lo));
    s->at_max = cs_realloc(s->at_max, cs_array_size(cap, sizeof *s->at_max));
    s->at_min = cs_realloc(s->at_min, cs_array_size(cap, sizeof *s->at_min));
    s->settled = cs_realloc(s->settled, cap);
    s->dom = cs_realloc(s->dom, cs_array_size(cap, sizeof *s->dom));
    s->cnt = cs_realloc(s->cnt, cap);
    s->cand_cap = cap;
}

static void set_reserve(stack_set *x, uint32_t n, int D) {
    size_t need = (size_t)n * (size_t)D; /* in doubles: D changes from segment to segment */
    if (need > x->cap) {
        size_t cap = x->cap ? x->cap : 4 * (size_t)D;
        while (cap < need) cap *= 2;
        x->v = cs_realloc(x->v, cs_array_size(cap, sizeof *x->v));
        x->cap = cap;
    }
    if (n > x->nz_cap) { /* in rows */
        uint32_t rows = x->nz_cap ? x->nz_cap : 4;
        while (rows < n) rows *= 2;
        x->nz = cs_realloc(x->nz, cs_array_size(rows, sizeof *x->nz));
        x->nz_cap = rows;
    }
}

static inline double dmax(double a, double b) { return a > b ? a : b; }
static inline double dabs(double a) { return a < 0 ? -a : a; }

/* A row's events: the dimensions not within 1e-9 of 0 (bit d for dimension d). */
static inline uint32_t row_events(const double *c, int D) {
    uint32_t nz = 0;
    for (int d = 0; d < D; d++) nz |= (uint32_t)(dabs(c[d]) > 1e-9) << d;
    return nz;
}

/* The events of row c, a row with events nz before its base and the dimensions in `touched`
 * changed. */
static inline uint32_t row_events_after(const double *c, uint32_t nz, const int *touched, int n_touched) {
    nz = (nz & ~1u) | (uint32_t)(dabs(c[0]) > 1e-9);
    for (int k = 0; k < n_touched; k++) {
        int d = touched[k];
        nz = (nz & ~(1u << d)) | (uint32_t)(dabs(c[d]) > 1e-9) << d;
    }
    return nz;
}

/* The modified cosine similarity (§IV-E, Figure 9) over the dimensions in mask, each of which
 * one of the paths has (not 0 in both): normalising by the larger magnitude of a dimension is a
 * multiplication by its reciprocal. (The reciprocal of the larger is the smaller of the two
 * reciprocals to the bit, a correctly rounded 1/x being monotonic, so this gives what the
 * per-path reciprocals computed before did; the pairs tested need fewer divisions than every
 * dimension of every path.) */
static inline double similarity_pair(const double *a, const double *b, uint32_t mask) {
    double dot = 0, na = 0, nb = 0;
    while (mask) {
        int d = __builtin_ctz(mask);
        mask &= mask - 1;
        double inv = 1.0 / dmax(dabs(a[d]), dabs(b[d]));
        double x = a[d] * inv, y = b[d] * inv;
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if (na == 0 || nb == 0) return na == nb ? 1 : 0;
    return dot / sqrt(na * nb);
}

/* Is the modified cosine similarity of two paths with events a and b (bit
 * masks) surely below the threshold, from the masks alone? Normalised, a
 * dimension only one path has is ±1 in it and 0 in the other; the m shared
 * ones are at most 1 in magnitude, so by Cauchy-Schwarz the cosine is at most
 * √(m/(m+ka)) · √(m/(m+kb)) (ka, kb: the dimensions only a, only b has). The
 * margin keeps a pair whose bound is within rounding of the threshold for the
 * full computation. No shared dimension: 0, unless one path has none at all. */
static const uint8_t pop8[256] = {
#define B2(n) n, n + 1, n + 1, n + 2
#define B4(n) B2(n), B2(n + 1), B2(n + 1), B2(n + 2)
#define B6(n) B4(n), B4(n + 1), B4(n + 1), B4(n + 2)
    B6(0), B6(1), B6(1), B6(2)
#undef B2
#undef B4
#undef B6
};
static inline int bits(uint32_t x) { /* a table: the build targets no popcount instruction */
    int low = pop8[x & 255] + pop8[(x >> 8) & 255];
    /* a segment's masks have its D < 16 bits, but for the timing-model classes' events */
    return x >> 16 ? low + pop8[(x >> 16) & 255] + pop8[x >> 24] : low;
}

/* na, nb: how many events a and b have; thr2: threshold² · (1 - 1e-6) */
static inline bool similarity_below(uint32_t a, uint32_t b, int na, int nb, double threshold, double thr2) {
    double m = bits(a & b);
    if (m == 0) return na > m && nb > m && threshold > 0;
    return m * m < thr2 * na * nb;
}

/* The modified cosine similarity (§IV-E, Figure 9): each dimension normalised
 * by the larger magnitude of the two, then the cosine. Only the dimensions
 * either path has (mask) count. */
double rps_similarity_masked(const double *a, const double *b, uint32_t mask) {
    for (uint32_t m = mask; m;) {
        int d = __builtin_ctz(m);
        m &= m - 1;
        if (a[d] == 0 && b[d] == 0) mask &= ~(1u << d); /* adds nothing */
    }
    return similarity_pair(a, b, mask);
}

/* Is p never below c in the design space (event d scaled by lmin_d … L)? p0 - c0 +
 * Σ_d (p_d > c_d ? lmin_d : L)·(p_d - c_d) >= 0, the worst corner. With every floor 0
 * (floor_zero) no term is positive: once the slack is negative it stays so. */
static inline bool dominates(const double *p, const double *c, int D, double L, const double *lmin, bool floor_zero) {
    double slack = p[0] - c[0] + 1e-9; /* p's lead over c at the worst corner */
    if (floor_zero) {                  /* the same test: a term 0·x (x > 0) changes the slack by ±0, no comparison */
        if (slack < 0) return false;
        for (int d = 1; d < D; d++) {
            double x = p[d] - c[d];
            if (x < 0) {
                slack += L * x;
                if (slack < 0) return false;
            }
        }
        return true;
    }
    for (int d = 1; d < D; d++) {
        double x = p[d] - c[d];
        slack += x > 0 ? lmin[d] * x : L * x;
        if (slack < 0 && floor_zero) return false;
    }
    return slack >= 0;
}

/* order[0 … n) sorted by tot, largest first, stably (ties keep their order: a stable sort has
 * one answer, so any stable algorithm gives it). The candidates come as one run per source
 * set, each already largest first (a set is kept sorted and a weight shifts all its rows
 * alike), so a merge of the natural runs costs about n·log(sources) instead of the n²/4 moves
 * of an insertion sort (by event a node has some 30 candidates, by combination 100). tmp: room
 * for n, run_at for n + 1. */
static void sort_by_total(uint32_t *order, const double *tot, uint32_t n, uint32_t *tmp, uint32_t *run_at) {
    if (n <= 8) { /* a few: an insertion sort moves less */
        for (uint32_t k = 1; k < n; k++) {
            uint32_t x = order[k], m = k;
            while (m > 0 && tot[order[m - 1]] < tot[x]) order[m] = order[m - 1], m--;
            order[m] = x;
        }
        return;
    }
    /* the natural runs, found once (order is 0 … n-1 here: tot read directly); each pass then
     * merges adjacent pairs of runs whose bounds it knows, from one buffer into the other */
    uint32_t runs = 0;
    for (uint32_t k = 0; k < n; k++)
        if (k == 0 || tot[k] > tot[k - 1]) run_at[runs++] = k;
    run_at[runs] = n;
    uint32_t *from = order, *to = tmp;
    while (runs > 1) {
        uint32_t out = 0, merged = 0;
        for (uint32_t g = 0; g < runs; g += 2) {
            /* the last run without a pair (g + 1 == runs): copied */
            uint32_t a = run_at[g], b = run_at[g + 1], c = g + 2 <= runs ? run_at[g + 2] : b;
            uint32_t i = a, j = b;
            while (i < b && j < c) to[out++] = tot[from[j]] > tot[from[i]] ? from[j++] : from[i++];
            while (i < b) to[out++] = from[i++];
            while (j < c) to[out++] = from[j++];
            run_at[merged++] = a;
        }
        run_at[merged] = n;
        runs = merged;
        uint32_t *x = from;
        from = to, to = x;
    }
    if (from != order) memcpy(order, from, (size_t)n * sizeof *order);
}

/* The per-node cap (max_stacks): of the m representatives order[0 … m) (largest first at the
 * baseline), keep `cap`, taken in turn as the longest not yet taken at each of three points of
 * the design space's diagonal: the baseline (every event at 1×), every event at its floor
 * (at_min) and every event at max_scale (at_max; with max_scale 0, the baseline again). The
 * largest at the baseline alone would keep only the paths of today's bottleneck and lose the
 * ones that become the longest when it gets faster. The kept rows stay in their order (largest
 * first) with their keep flags. Returns cap. */
static uint32_t cap_rows(seg_ctx *s, uint32_t m, uint32_t cap) {
    uint8_t *taken = s->uniq; /* scratch: uniq is not read after the merge loop */
    memset(taken, 0, m);
    uint32_t n = 0, next_base = 0;
    for (int turn = 0; n < cap; turn = (turn + 1) % 3) {
        uint32_t pick = UINT32_MAX;
        if (turn == 0 || s->opt->max_scale <= 0) {
            while (taken[next_base]) next_base++;
            pick = next_base;
        } else {
            const double *at = turn == 1 ? s->at_min : s->at_max;
            for (uint32_t r = 0; r < m; r++) /* the first of equals: the larger at the baseline */
                if (!taken[r] && (pick == UINT32_MAX || at[s->order[r]] > at[s->order[pick]])) pick = r;
        }
        taken[pick] = 1, n++;
    }
    uint32_t out = 0;
    for (uint32_t r = 0; r < m; r++)
        if (taken[r]) s->order[out] = s->order[r], s->keep[out] = s->keep[r], out++;
    return out;
}

/* Reduce the candidates into set `out` (§III-C Figure 7c): drop dominated
 * paths, keep paths with a unique event (or, by combination, merge only within
 * an event combination), merge similar ones into the larger.
 * The decisions are those of the plain algorithm (tests/unit/test_rpstacks.c
 * checks them against a straightforward reference); what makes it cheaper:
 * the similarity divides only in the pairs it tests, the dominance bound
 * c - 1e-9 is computed once per path (max_scale 0), the kept paths are
 * scanned newest first for a dominator (most often a recent one), their
 * pre-test read from one record each, and uniqueness is found with two bit
 * masks. (A dominance test without branches over the dimensions was 11%
 * slower on fma: most pairs fail early. Tried and not kept, issue 14: the
 * merge loop's tests from one record per representative, a branch-free merge
 * in the sort, an insertion sort up to 32 candidates, divisions only for the
 * dimensions not 0: no gain or slower.) */
static void reduce(seg_ctx *s, stack_set *out) {
    int D = s->D;
    uint32_t n = s->cand_n;
    out->n = 0;
    s->stat_calls++, s->stat_cand += n;
    if (!n) return;
    double L = s->opt->max_scale, best_lo = -INFINITY;
    bool floor_zero = true; /* every event's floor 0: a pair's slack only falls dimension by dimension */
    for (int d = 1; d < D; d++) floor_zero &= s->lmin[d] == 0;
    for (uint32_t k = 0; k < n; k++) {
        const double *c = &s->cand[(size_t)k * D];
        double sum = c[0], lo = c[0], hi = c[0], at_min = 0;
        /* every floor 0: the same sums, a term lmin·c is ±0, which changes no sum but a zero's sign;
         * pos is read only without a bound (max_scale 0) */
        if (floor_zero && L > 0) {
            for (int d = 1; d < D; d++) {
                double x = c[d], lx = L * x;
                sum += x;
                lo += x > 0 ? 0.0 : lx;
                hi += x > 0 ? lx : 0.0;
            }
        } else {
            uint32_t pos = c[0] > 1e-9;
            for (int d = 1; d < D; d++) {
                sum += c[d];
                pos |= (uint32_t)(c[d] > 1e-9) << d;
                lo += c[d] > 0 ? s->lmin[d] * c[d] : L * c[d];
                hi += c[d] > 0 ? L * c[d] : s->lmin[d] * c[d];
                at_min += s->lmin[d] * c[d];
            }
            s->pos[k] = pos;
        }
        s->tot[k] = sum;
        s->order[k] = k;
        s->hi[k] = hi; /* its largest length in the design space */
        s->lo[k] = lo; /* the length it is sure to have there */
        s->at_max[k] = c[0] + L * (sum - c[0]);
        s->at_min[k] = c[0] + at_min;
        best_lo = dmax(best_lo, lo);
    }
    sort_by_total(s->order, s->tot, n, s->merge_tmp, s->run_at); /* largest first, ties in their order */
    /* dominance: a path that can never be the critical one is dropped. Two paths of one
     * source set (shifted alike) are never compared: that set was reduced already. */
    uint32_t kept = 0;
    if (L > 0) {
        /* Within the design space (event d scaled by lmin_d … L), p is never below c when
         * p0 - c0 + Σ_d (p_d > c_d ? lmin_d : L)·(p_d - c_d) >= 0 (the worst corner). First
         * every path against the length one of them is sure to have: a path that cannot reach
         * it is dropped without a pair test (that path, or the kept one dominating it, is
         * larger and kept before). */
        /* The pairs worth a test: p of another source, not behind c at either corner (every
         * event at L, every event at lmin; the margin is far above the rounding of either
         * sum); any order of the tests finds the same answer. With many candidates (by
         * combination a node has a hundred) the kept paths are filed per source, each list by
         * at_min, largest first, so that a test visits only the paths of the other sources
         * ahead of c at lmin; with a few tens (by event) a scan of them all costs less. A
         * source is a number below n, or below RPS_MAX_EDGES + 1 (the arrays hold cand_cap >= 64). */
        bool filed = n > 48;
        uint32_t *by_src = s->by_src, *src_at = s->src_at, *src_len = s->src_len, *srcs = s->srcs, nsrc = 0;
        if (filed) {
            for (uint32_t k = 0; k < n; k++) src_len[s->src[k]] = UINT32_MAX;
            for (uint32_t k = 0; k < n; k++) /* the sources, in order of appearance */
                if (src_len[s->src[k]] == UINT32_MAX) src_len[s->src[k]] = 0, srcs[nsrc++] = s->src[k];
            for (uint32_t k = 0; k < n; k++) src_len[s->src[k]]++;
            for (uint32_t g = 0, at = 0; g < nsrc; g++)
                src_at[srcs[g]] = at, at += src_len[srcs[g]], src_len[srcs[g]] = 0;
        }
        for (uint32_t k = 0; k < n; k++) {
            uint32_t ck = s->order[k];
            if (s->hi[ck] < best_lo - 1e-6) continue; /* clearly: rounding cannot matter */
            const double *c = &s->cand[(size_t)ck * D];
            double c_min = s->at_min[ck] - 1e-6, c_max = s->at_max[ck] - 1e-6;
            uint32_t own = s->src[ck];
            bool dominated = false;
            if (!filed) {
                const dom_kept *dk = s->dom;
                for (uint32_t q = kept; q-- > 0 && !dominated;) { /* newest first: most often a recent one */
                    if ((dk[q].older_max < c_max) | (dk[q].older_min < c_min)) break; /* no older passes */
                    /* one branch for the three tests (most pairs fail one; evaluating all costs less) */
                    if ((dk[q].src != own) & (dk[q].at_max >= c_max) & (dk[q].at_min >= c_min))
                        dominated = dominates(&s->cand[(size_t)dk[q].cand * D], c, D, L, s->lmin, floor_zero);
                }
            }
            for (uint32_t g = 0; g < nsrc && !dominated; g++) {
                uint32_t other = srcs[g];
                if (other == own) continue;
                const uint32_t *list = &by_src[src_at[other]];
                for (uint32_t q = 0; q < src_len[other] && s->at_min[list[q]] >= c_min && !dominated; q++)
                    if (s->at_max[list[q]] >= c_max)
                        dominated = dominates(&s->cand[(size_t)list[q] * D], c, D, L, s->lmin, floor_zero);
            }
            if (dominated) continue;
            double older_max = kept ? dmax(s->dom[kept - 1].older_max, s->at_max[ck]) : s->at_max[ck];
            double older_min = kept ? dmax(s->dom[kept - 1].older_min, s->at_min[ck]) : s->at_min[ck];
            s->dom[kept] = (dom_kept){s->at_max[ck], s->at_min[ck], older_max, older_min, own, ck};
            s->order[kept++] = ck;
            if (filed) {
                uint32_t *list = &by_src[src_at[own]], at = src_len[own]++;
                while (at > 0 && s->at_min[list[at - 1]] < s->at_min[ck]) list[at] = list[at - 1], at--;
                list[at] = ck;
            }
        }
    } else {
        /* anywhere (max_scale 0): p dominates c when no smaller in any dimension */
        double low[32]; /* c - 1e-9 (D <= RPS_DIMS < 32) */
        for (uint32_t k = 0; k < n; k++) {
            uint32_t ck = s->order[k];
            const double *c = &s->cand[(size_t)ck * D];
            uint32_t cpos = s->pos[ck];
            for (int d = 0; d < D; d++) low[d] = c[d] - 1e-9;
            bool dominated = false;
            for (uint32_t q = kept; q-- > 0;) { /* any order finds the same answer */
                uint32_t pq = s->order[q];
                if (s->src[pq] == s->src[ck]) continue;
                if (cpos & ~s->pos[pq]) continue; /* c has a positive event p lacks */
                const double *p = &s->cand[(size_t)pq * D];
                int d = 0;
                while (d < D && p[d] >= low[d]) d++;
                if (d == D) {
                    dominated = true;
                    break;
                }
            }
            if (!dominated) s->order[kept++] = ck;
        }
    }
    /* the survivors' events (each candidate's mask came with it: row_events) */
    uint32_t once = 0, twice = 0;
    for (uint32_t q = 0; q < kept; q++) {
        uint32_t k = s->order[q];
        uint32_t nz = s->nz[k];
        s->cnt[k] = (uint8_t)bits(nz);
        twice |= once & nz;
        once |= nz;
    }
    /* uniqueness, two readings of the paper (docs/rpstacks.md). By event (§IV-E: "a penalty
     * component that the others do not have"): a path with an event no other surviving path
     * has is kept and is no merge target. By combination (§III-C: "keep every path with
     * unique event combinations"): only paths of one event combination (the dimensions they
     * have) merge, so every combination at the node keeps a path. */
    uint32_t unique_dims = s->opt->unique == RPS_UNIQUE_EVENT && kept > 1 ? once & ~twice : 0;
    bool same_combination = s->opt->unique == RPS_UNIQUE_COMBINATION;
    for (uint32_t q = 0; q < kept; q++) s->uniq[q] = (s->nz[s->order[q]] & unique_dims) != 0;
    /* similarity: merged into the larger representative already kept (two settled rows of
     * one source set are known to be less similar than the threshold) */
    uint32_t m = 0;
    double thr = s->opt->similarity, thr2 = thr * thr * (1 - 1e-6);
    /* Each representative that is a merge target is filed under its event combination (a hash
     * of the masks: 2 × cand_cap slots, empty between reductions, a list through rep_next).
     * A path is tested against its own combination's first: by combination those are the only
     * ones it may merge into; by event they are the likeliest (any order of the tests finds the
     * same answer), and then the others. */
    uint32_t mask = 2 * s->cand_cap - 1, used = 0; /* cand_cap is a power of two */
    for (uint32_t q = 0; q < kept; q++) {
        uint32_t qq = s->order[q], key = s->nz[qq];
        const double *c = &s->cand[(size_t)qq * D];
        uint32_t h = (uint32_t)((key * 0x9E3779B1u) >> 7) & mask;
        while (s->slot_head[h] != UINT32_MAX && s->slot_key[h] != key) h = (h + 1) & mask;
        bool merged = false;
        for (uint32_t r = s->slot_head[h]; r != UINT32_MAX && !merged && !s->uniq[q]; r = s->rep_next[r]) {
            uint32_t rr = s->order[r];
            if (s->settled[rr] && s->settled[qq] && s->src[rr] == s->src[qq]) continue;
            if (similarity_below(s->nz[rr], key, s->cnt[rr], s->cnt[qq], thr, thr2)) continue;
            merged = similarity_pair(&s->cand[(size_t)rr * D], c, key) >= s->opt->similarity;
        }
        for (uint32_t r = 0; r < m && !merged && !s->uniq[q] && !same_combination; r++) {
            if (s->keep[r]) continue; /* unique paths are not merge targets either */
            uint32_t rr = s->order[r];
            if (s->nz[rr] == key) continue; /* tried above */
            if (s->settled[rr] && s->settled[qq] && s->src[rr] == s->src[qq]) continue;
            if (similarity_below(s->nz[rr], key, s->cnt[rr], s->cnt[qq], thr, thr2)) continue;
            merged = similarity_pair(&s->cand[(size_t)rr * D], c, s->nz[rr] | key) >= s->opt->similarity;
        }
        if (merged) continue;
        s->order[m] = qq;
        s->keep[m] = s->uniq[q];
        if (!s->uniq[q]) { /* a merge target: filed */
            s->rep_next[m] = UINT32_MAX;
            if (s->slot_head[h] == UINT32_MAX) s->slot_key[h] = key, s->slot_head[h] = m, s->slot_used[used++] = h;
            else s->rep_next[s->slot_tail[h]] = m;
            s->slot_tail[h] = m;
        }
        m++;
    }
    for (uint32_t k = 0; k < used; k++) s->slot_head[s->slot_used[k]] = UINT32_MAX;
    s->stat_dom += kept, s->stat_kept += m;
    if (m > s->opt->max_stacks) m = cap_rows(s, m, s->opt->max_stacks), s->capped++;
    set_reserve(out, m, D);
    out->settled = 0;
    out->lo = out->hi = -INFINITY;
    for (uint32_t r = 0; r < m; r++) {
        const double *c = &s->cand[(size_t)s->order[r] * D];
        double *o = &out->v[(size_t)r * D];
        for (int d = 0; d < D; d++) o[d] = c[d];
        out->nz[r] = s->nz[s->order[r]];
        if (r < 64 && !s->keep[r]) out->settled |= 1ull << r;
        out->lo = dmax(out->lo, s->lo[s->order[r]]);
        out->hi = dmax(out->hi, s->hi[s->order[r]]);
    }
    out->n = m;
}

uint32_t rps_reduce_vectors(const rps_options *opt, int D, const double *cand, uint32_t n, double *out) {
    return rps_reduce_sources(opt, D, cand, NULL, n, out);
}

uint32_t rps_reduce_sources(const rps_options *opt, int D, const double *cand, const uint16_t *src, uint32_t n,
                            double *out) {
    seg_ctx s;
    memset(&s, 0, sizeof s);
    s.opt = opt;
    s.D = D;
    uint32_t room = n ? n : 1; /* the per-source arrays are indexed by the source's number */
    for (uint32_t k = 0; src && k < n; k++) room = src[k] >= room ? (uint32_t)src[k] + 1 : room;
    cand_reserve(&s, room);
    memcpy(s.cand, cand, (size_t)n * D * sizeof *cand);
    for (uint32_t k = 0; k < n; k++)
        s.src[k] = src ? src[k] : (uint16_t)k, s.settled[k] = 0, s.nz[k] = row_events(&s.cand[(size_t)k * D], D);
    s.cand_n = n;
    stack_set set = {0};
    reduce(&s, &set);
    memcpy(out, set.v, (size_t)set.n * D * sizeof *out);
    uint32_t m = set.n;
    free(set.v);
    free(set.nz);
    free(s.cand);
    free(s.tot);
    free(s.order);
    free(s.merge_tmp);
    free(s.run_at);
    free(s.by_src);
    free(s.src_at);
    free(s.src_len);
    free(s.srcs);
    free(s.slot_key);
    free(s.slot_head);
    free(s.slot_tail);
    free(s.slot_used);
    free(s.rep_next);
    free(s.keep);
    free(s.uniq);
    free(s.nz);
    free(s.pos);
    free(s.src);
    free(s.hi);
    free(s.lo);
    free(s.at_max);
    free(s.at_min);
    free(s.settled);
    free(s.dom);
    free(s.cnt);
    return m;
}

/* Active dimensions: those some edge into the nodes of µops first … last can
 * carry (a dimension no row has changes no total, dominance or similarity). */
static int active_dims(const rps_trace *t, int64_t first, int64_t last, int *dim_of, int *slot_of) {
    bool on[RPS_DIMS] = {0};
    on[RPS_BASE] = on[RPS_L1I] = true;
    for (int64_t i = first; i <= last; i++) {
        const rps_uop *u = rps_u(t, i);
        if (rps_class_is_event(u->op_class)) on[RPS_CLASS0 + u->op_class] = true;
        if (u->icache_level >= LEVEL_L2) on[RPS_L2_INSTR] = true;
        if (u->icache_level == LEVEL_MEM) on[RPS_MEM_INSTR] = true;
        if (u->dtlb_extra) on[RPS_DTLB] = on[RPS_L2TLB] = true;
        if (u->itlb_extra) on[RPS_ITLB] = on[RPS_L2TLB] = true;
        if (u->uflags & UOP_MEM_READ) {
            on[RPS_L1D] = true;
            if (u->dcache_level >= LEVEL_L2) on[RPS_L2_DATA] = true;
            if (u->dcache_level == LEVEL_MEM) on[RPS_MEM_DATA] = true;
        }
        if (u->t[N_W]) { /* a store's drain: its fill */
            if (rps_s(t, i)->sb_mshr_back) on[RPS_L1D] = true;
            if (rps_s(t, i)->pfm_back) {
                on[RPS_L1D] = true;
                if (rps_s(t, i)->pfm_level >= LEVEL_L2) on[RPS_L2_DATA] = true;
                if (rps_s(t, i)->pfm_level == LEVEL_MEM) on[RPS_MEM_DATA] = true;
            }
            if (u->wlevel >= LEVEL_L2) on[RPS_L2_DATA] = true;
            if (u->wlevel == LEVEL_MEM) on[RPS_MEM_DATA] = true;
        }
    }
    int D = 0;
    for (int d = 0; d < RPS_DIMS; d++) {
        slot_of[d] = on[d] ? D : -1;
        if (on[d]) dim_of[D++] = d;
    }
    return D;
}

uint32_t rps_window(const uarch_config *c) {
    uint32_t need = 2 * (c->rob_size + c->fetch_buffer + (c->l1i.latency + c->decode_depth) * c->fetch_width) + 16;
    /* a store's commit waits for the write of the store store_buffer stores older: as far back
     * as stores one in SB_REACH µops (sparser ones' room edges are dropped, their stalls residual) */
    enum { SB_REACH = 32 };
    if (c->store_buffer && need < c->store_buffer * SB_REACH) need = c->store_buffer * SB_REACH;
    uint32_t w = 64;
    while (w < need) w *= 2;
    return w;
}

/* One segment [first, last]: its stacks at the last commit (appended to *out
 * as D-wide rows), its longest path; scale != NULL: scalar longest path only. */
typedef struct seg_out {
    double *stacks; /* n × D */
    uint32_t n;
    double length; /* graph's longest path from S */
    double actual; /* simulated: C_last - S (the run's last segment: its end, the last write if later) */
    uint64_t end;  /* the simulated cycle the segment ends at */
} seg_out;

/* An edge weight's least and largest length over the design space (events
 * scaled by lmin … max_scale; a dimension the segment does not carry is base). */
static void weight_bounds(const seg_ctx *s, const rps_weight *w, double *lo, double *hi) {
    double L = s->opt->max_scale;
    *lo = *hi = w->base;
    for (int k = 0; k < w->n; k++) {
        double x = w->val[k];
        int slot = s->slot_of[w->dim[k]];
        if (slot < 0) *lo += x, *hi += x;
        else if (x < 0) *lo += L * x, *hi += s->lmin[slot] * x;
        else *lo += s->lmin[slot] * x, *hi += L * x;
    }
}

static bool weight_is_zero(const rps_weight *w) {
    bool zero = w->base == 0;
    for (int k = 0; k < w->n; k++) zero &= w->val[k] == 0;
    return zero;
}

static double scaled(const rps_weight *w, const double *scale) {
    double sum = w->base;
    for (int k = 0; k < w->n; k++) sum += w->val[k] * scale[w->dim[k]];
    return sum;
}

/* The stacks of the nodes in `from` (n of them) into set `dst`: a sink, its edges 0. */
static void sink_reduce(seg_ctx *s, const stack_set *const *from, int n, stack_set *dst) {
    int D = s->D;
    s->cand_n = 0;
    for (int q = 0; q < n; q++) {
        const stack_set *src = from[q];
        cand_reserve(s, s->cand_n + src->n);
        memcpy(&s->cand[(size_t)s->cand_n * D], src->v, (size_t)src->n * D * sizeof(double));
        for (uint32_t r = 0; r < src->n; r++) {
            s->src[s->cand_n] = (uint16_t)q;
            s->nz[s->cand_n] = src->nz[r];
            s->settled[s->cand_n++] = r < 64 && (src->settled >> r & 1);
        }
    }
    reduce(s, dst);
}

/* The last store of segment [first, last] with a drain node, looked for among its last
 * window - 2 µops (held while the next segment is in work), or -1. */
static int64_t last_write(const rps_trace *t, int64_t first, int64_t last, uint32_t window) {
    if (!t->cfg.store_buffer) return -1;
    for (int64_t j = last; j >= first && j > last - (int64_t)window + 1; j--)
        if (rps_u(t, j)->t[N_W]) return j;
    return -1;
}

/* Where segment [first, last] ends: its last commit or, when the store buffer drains after
 * it, its last store's write (the run's cycles count the last drain) */
static uint64_t segment_end(const rps_trace *t, int64_t first, int64_t last, uint32_t window) {
    uint64_t end = rps_u(t, last)->t[N_C];
    int64_t wj = last_write(t, first, last, window);
    return wj >= 0 && rps_u(t, wj)->t[N_W] > end ? rps_u(t, wj)->t[N_W] : end;
}

static void run_segment(seg_ctx *s, int64_t first, int64_t last, const double *scale, seg_out *out) {
    const rps_trace *t = s->t;
    int D = s->D;
    uint32_t W = s->window;
    /* S: where the previous segment ended (its last commit, or its last store's write when the
     * store buffer drained after it: the backlog of drains is that segment's, with its fills'
     * events, not base here); for the first, the cycle before the run's first (the run's cycles
     * count the last commit's cycle too) */
    int64_t len = s->opt->segment;
    double S = first > 0 ? (double)segment_end(t, first > len ? first - len : 0, first - 1, W) : -1;
    rps_edge e[RPS_MAX_EDGES];
    for (int64_t i = first; i <= last; i++) {
        uint32_t slot = (uint32_t)(i % W);
        const rps_uop *ui = rps_u(t, i);
        for (int v = 0; v < N_COUNT; v++) {
            if (v >= N_Q && !ui->t[N_W]) continue; /* no drain nodes: not a store through a store buffer */
            bool violation;
            int ne = rps_node_edges(t, i, v, i - (int64_t)W + 1, e, &violation);
            double actual = (double)rps_u(t, i)->t[v];
            s->violations += violation;
            /* longest path; each source's bounds over the design space */
            double best = -INFINITY, top_lo = -INFINITY;
            double lo[RPS_MAX_EDGES + 1], hi[RPS_MAX_EDGES + 1], base_only[RPS_MAX_EDGES + 1];
            const stack_set *set[RPS_MAX_EDGES + 1];
            const rps_weight *own[RPS_MAX_EDGES + 1]; /* a source before the segment whose edge keeps its events */
            bool from_s = ne == 0 || (i == first && v == N_F);
            int ns = 0;   /* sources: S (index 0, when from_s), then the edges */
            if (from_s) { /* S → the first fetch, and nodes with nothing before them */
                best = actual - S;
                set[0] = NULL, own[0] = NULL, base_only[0] = lo[0] = hi[0] = actual - S;
                ns = 1;
            }
            int edge_of[RPS_MAX_EDGES + 1];
            for (int k = 0; k < ne; k++) {
                int64_t j = e[k].src;
                if (j < i - (int64_t)W + 1) {
                    s->dropped++;
                    continue;
                }
                own[ns] = NULL;
                if (j < first && e[k].node >= N_Q) {
                    /* a drain before the segment (a store buffer's backlog reaches into it): from S
                     * with base weight, the edge its events (the fill of this segment's store) */
                    double from = (double)rps_u(t, j)->t[e[k].node] - S;
                    best = dmax(best, from + (scale ? scaled(&e[k].w, scale) : rps_weight_total(&e[k].w)));
                    set[ns] = NULL, own[ns] = &e[k].w, base_only[ns] = from;
                    if (!scale && s->opt->max_scale > 0) {
                        double wl, wh;
                        weight_bounds(s, &e[k].w, &wl, &wh);
                        lo[ns] = from + wl, hi[ns] = from + wh;
                    } else {
                        lo[ns] = -INFINITY, hi[ns] = INFINITY;
                    }
                } else if (j < first) { /* before the segment: from S, base only */
                    double w = (double)rps_u(t, j)->t[e[k].node] + rps_weight_total(&e[k].w) - S;
                    best = dmax(best, w);
                    set[ns] = NULL, base_only[ns] = lo[ns] = hi[ns] = w;
                    if (s->opt->max_scale <= 0) lo[ns] = -INFINITY, hi[ns] = INFINITY;
                } else {
                    uint32_t js = (uint32_t)(j % W) * N_COUNT + (uint32_t)e[k].node;
                    best = dmax(best, s->times[js] + (scale ? scaled(&e[k].w, scale) : rps_weight_total(&e[k].w)));
                    set[ns] = &s->sets[js];
                    if (!scale && s->opt->max_scale > 0) {
                        double wl, wh;
                        weight_bounds(s, &e[k].w, &wl, &wh);
                        lo[ns] = set[ns]->lo + wl, hi[ns] = set[ns]->hi + wh;
                    } else {
                        lo[ns] = -INFINITY, hi[ns] = INFINITY;
                    }
                }
                edge_of[ns++] = k;
            }
            if (from_s && s->opt->max_scale <= 0) lo[0] = -INFINITY, hi[0] = INFINITY;
            for (int q = 0; q < ns; q++) top_lo = dmax(top_lo, lo[q]);
            s->times[slot * N_COUNT + v] = best;
            if (scale) continue;
            /* the stacks: of every source that can reach the length another is sure to have */
            s->cand_n = 0;
            int alive = 0, last_alive = -1;
            for (int q = 0; q < ns; q++) {
                if (hi[q] < top_lo - 1e-6) continue; /* never the longest in the design space */
                alive++, last_alive = q;
                if (!set[q]) {
                    cand_reserve(s, s->cand_n + 1);
                    s->src[s->cand_n] = (uint16_t)q, s->settled[s->cand_n] = 0;
                    double *c = &s->cand[(size_t)s->cand_n++ * D];
                    memset(c, 0, D * sizeof(double));
                    c[0] = base_only[q];
                    if (own[q]) {
                        c[0] += own[q]->base;
                        for (int k = 0; k < own[q]->n; k++)
                            c[s->slot_of[own[q]->dim[k]] >= 0 ? s->slot_of[own[q]->dim[k]] : 0] += own[q]->val[k];
                    }
                    s->nz[s->cand_n - 1] = row_events(c, D);
                    continue;
                }
                const stack_set *src = set[q];
                const rps_weight *w = &e[edge_of[q]].w;
                uint64_t settled = weight_is_zero(w) ? src->settled : 0;
                cand_reserve(s, s->cand_n + src->n);
                /* the rows in one copy, then the weight: each element gets the additions of
                 * add_weight in its order (base, then the weight's events), as a row at a time did */
                memcpy(&s->cand[(size_t)s->cand_n * D], src->v, (size_t)src->n * D * sizeof(double));
                int wslot[RPS_WEIGHT_DIMS];
                for (int k = 0; k < w->n; k++) wslot[k] = s->slot_of[w->dim[k]] >= 0 ? s->slot_of[w->dim[k]] : 0;
                uint32_t at = s->cand_n;
                for (uint32_t r = 0; r < src->n; r++) s->src[at + r] = (uint16_t)q;
                if (settled)
                    for (uint32_t r = 0; r < src->n; r++) s->settled[at + r] = r < 64 && (settled >> r & 1);
                else memset(&s->settled[at], 0, src->n);
                for (uint32_t r = 0; r < src->n; r++) {
                    double *c = &s->cand[(size_t)(at + r) * D];
                    c[0] += w->base;
                    for (int k = 0; k < w->n; k++) c[wslot[k]] += w->val[k];
                    /* only the dimensions the weight added to can have changed their events */
                    s->nz[at + r] = row_events_after(c, src->nz[r], wslot, w->n);
                }
                s->cand_n += src->n;
            }
            stack_set *dst = &s->sets[slot * N_COUNT + v];
            if (alive == 1 && set[last_alive]) { /* one source: its set, shifted by one weight, is still reduced */
                set_reserve(dst, s->cand_n, D);
                memcpy(dst->v, s->cand, (size_t)s->cand_n * D * sizeof(double));
                memcpy(dst->nz, s->nz, (size_t)s->cand_n * sizeof *dst->nz);
                dst->n = s->cand_n;
                dst->settled = weight_is_zero(&e[edge_of[last_alive]].w) ? set[last_alive]->settled : 0;
                dst->lo = lo[last_alive], dst->hi = hi[last_alive]; /* the source's, shifted: bounds still */
            } else {
                reduce(s, dst);
            }
        }
    }
    uint32_t ls = (uint32_t)(last % W) * N_COUNT + N_C;
    out->length = s->times[ls];
    out->end = rps_u(t, last)->t[N_C];
    const stack_set *fin = &s->sets[ls];
    int64_t wj = last_write(t, first, last, W); /* the last write (writes are in order) */
    if (wj >= 0) {                              /* the end: a sink after the last commit and the last write */
        uint32_t ws = (uint32_t)(wj % W) * N_COUNT + N_W;
        out->length = dmax(out->length, s->times[ws]);
        if (rps_u(t, wj)->t[N_W] > out->end) out->end = rps_u(t, wj)->t[N_W];
        if (!scale) {
            const stack_set *both[2] = {fin, &s->sets[ws]};
            sink_reduce(s, both, 2, &s->sink);
            fin = &s->sink;
        }
    }
    out->actual = (double)out->end - S;
    out->n = 0;
    out->stacks = NULL;
    if (!scale) {
        out->n = fin->n;
        out->stacks = cs_malloc(cs_array_size((size_t)fin->n * D + 1, sizeof(double)));
        memcpy(out->stacks, fin->v, (size_t)fin->n * D * sizeof(double));
    }
}

/* A thread's context, its scratch reused from segment to segment. */
static void seg_ctx_init(seg_ctx *s, const rps_trace *t, const rps_options *opt) {
    memset(s, 0, sizeof *s);
    s->t = t;
    s->opt = opt;
    s->window = rps_window(&t->cfg);
    s->sets = cs_calloc((size_t)s->window * N_COUNT, sizeof *s->sets);
    s->times = cs_calloc((size_t)s->window * N_COUNT, sizeof *s->times);
}

/* The segment [first, last]: its dimensions, its counts from zero, its sets
 * empty (the last segment's largest sets are not carried on: the memory a
 * thread holds is one segment's). */
static void seg_ctx_begin(seg_ctx *s, int64_t first, int64_t last) {
    for (size_t k = 0; k < (size_t)s->window * N_COUNT; k++) {
        free(s->sets[k].v);
        free(s->sets[k].nz);
        s->sets[k] = (stack_set){0};
    }
    free(s->sink.v);
    free(s->sink.nz);
    s->sink = (stack_set){0};
    s->D = active_dims(s->t, first, last, s->dim_of, s->slot_of);
    /* The floor of the design space is 0 for every event. (A floor of 1 cycle, lmin = 1/base,
     * drops more: the analysis 8.0 instead of 10.0 processor-s per M µops on the 21-workload
     * study, but fma's worst error went from 22.7% to 25.8%; docs/rpstacks.md.) */
    for (int d = 0; d < s->D; d++) s->lmin[d] = 0;
    s->capped = s->violations = s->dropped = 0;
}

static void seg_ctx_free(seg_ctx *s) {
    for (size_t k = 0; k < (size_t)s->window * N_COUNT; k++) free(s->sets[k].v), free(s->sets[k].nz);
    free(s->sink.v);
    free(s->sink.nz);
    free(s->sets);
    free(s->times);
    free(s->cand);
    free(s->tot);
    free(s->order);
    free(s->merge_tmp);
    free(s->run_at);
    free(s->by_src);
    free(s->src_at);
    free(s->src_len);
    free(s->srcs);
    free(s->slot_key);
    free(s->slot_head);
    free(s->slot_tail);
    free(s->slot_used);
    free(s->rep_next);
    free(s->keep);
    free(s->nz);
    free(s->pos);
    free(s->uniq);
    free(s->src);
    free(s->hi);
    free(s->lo);
    free(s->at_max);
    free(s->at_min);
    free(s->settled);
    free(s->dom);
    free(s->cnt);
}

double rps_graph_cycles(const rps_trace *t, uint32_t segment, const double scale[RPS_DIMS]) {
    if (t->ring_chunks) return NAN; /* the run was not kept */
    rps_options opt;
    rps_options_default(&opt);
    int64_t n = (int64_t)t->count, len = segment ? segment : (n ? n : 1);
    opt.segment = len < UINT32_MAX ? (uint32_t)len : UINT32_MAX; /* where each segment starts (run_segment) */
    double total = 0;
    seg_ctx s;
    seg_ctx_init(&s, t, &opt);
    for (int64_t first = 0; first < n; first += len) {
        int64_t last = first + len - 1 < n - 1 ? first + len - 1 : n - 1;
        seg_ctx_begin(&s, first, last);
        seg_out o;
        run_segment(&s, first, last, scale, &o);
        total += o.length;
    }
    seg_ctx_free(&s);
    return total;
}

/* ---- the analysis: segments in parallel threads as the run goes ---- */

/* One segment's result, its rows widened to every dimension. */
typedef struct seg_result {
    double *stacks; /* n × RPS_DIMS */
    uint32_t n;
    double length;
    uint64_t end; /* the simulated cycle it ends at */
    uint64_t capped, violations, dropped;
    bool done;
} seg_result;

struct rps_stream {
    rps_trace *t;
    rps_options opt;
    uint32_t window;
    pthread_mutex_t lock;
    pthread_cond_t work;  /* a segment was queued, or the run ended */
    pthread_cond_t freed; /* a segment was done: its µops may be overwritten */
    uint64_t queued;      /* segments whose µops are all in */
    uint64_t taken;       /* segments a thread took */
    uint64_t lowest;      /* the lowest segment not done */
    bool closed;          /* the run ended: no more µops */
    uint64_t final_count; /* µops of the run, once closed */
    seg_result *res;
    size_t res_cap;
    pthread_t *tid;
    uint32_t threads;
    double cpu;          /* processor seconds of the analysis, every thread */
    uop_record *pending; /* records not yet in the trace (handled RPS_CHUNK at a time) */
    size_t pending_n;
    seg_ctx own; /* the feeding thread's, when it works on a segment */
    bool own_ready;
    probe_event join; /* the PEV_STORE_JOIN just before a store's write (kind PEV_COUNT: none) */
};

static double thread_cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Segment k: [first, last]. Called without the lock. Returns the processor
 * seconds it took (added to the analysis' time here). */
static double process_segment(rps_stream *st, seg_ctx *s, uint64_t k, int64_t first, int64_t last) {
    double c0 = thread_cpu();
    seg_ctx_begin(s, first, last);
    seg_out o;
    run_segment(s, first, last, NULL, &o);
    seg_result r = {0};
    r.n = o.n;
    r.length = o.length;
    r.end = o.end;
    r.stacks = cs_calloc((size_t)o.n * RPS_DIMS + 1, sizeof(double));
    for (uint32_t q = 0; q < o.n; q++)
        for (int d = 0; d < s->D; d++) r.stacks[(size_t)q * RPS_DIMS + s->dim_of[d]] = o.stacks[(size_t)q * s->D + d];
    free(o.stacks);
    r.capped = s->capped, r.violations = s->violations, r.dropped = s->dropped;
    r.done = true;
    double c1 = thread_cpu();
    pthread_mutex_lock(&st->lock);
    st->res[k] = r;
    st->cpu += c1 - c0;
    while (st->lowest < st->taken && st->res[st->lowest].done) st->lowest++;
    pthread_cond_broadcast(&st->freed);
    pthread_mutex_unlock(&st->lock);
    return c1 - c0;
}

/* Take a queued segment (lock held): its index and µops, or -1. */
static int64_t take_segment(rps_stream *st, int64_t *first, int64_t *last) {
    if (st->taken >= st->queued) return -1;
    uint64_t k = st->taken++;
    *first = (int64_t)(k * st->opt.segment);
    *last = *first + st->opt.segment - 1;
    if (st->closed && *last > (int64_t)st->final_count - 1) *last = (int64_t)st->final_count - 1; /* the last one */
    return (int64_t)k;
}

static void *stream_worker(void *arg) {
    rps_stream *st = arg;
    seg_ctx ctx;
    seg_ctx_init(&ctx, st->t, &st->opt);
    pthread_mutex_lock(&st->lock);
    for (;;) {
        int64_t first, last, k = take_segment(st, &first, &last);
        if (k < 0) {
            if (st->closed) break;
            pthread_cond_wait(&st->work, &st->lock);
            continue;
        }
        pthread_mutex_unlock(&st->lock);
        process_segment(st, &ctx, (uint64_t)k, first, last);
        pthread_mutex_lock(&st->lock);
    }
    pthread_mutex_unlock(&st->lock);
    seg_ctx_free(&ctx);
    return NULL;
}

/* The context of the thread that feeds the stream, when it works on a segment. */
static seg_ctx *own_ctx(rps_stream *st) {
    if (!st->own_ready) seg_ctx_init(&st->own, st->t, &st->opt), st->own_ready = true;
    return &st->own;
}

/* Queue segment `queued` (lock held), making room for its result. */
static void queue_segment(rps_stream *st) {
    if (st->queued >= st->res_cap) {
        size_t cap = st->res_cap ? st->res_cap * 2 : 64;
        st->res = cs_realloc(st->res, cs_array_size(cap, sizeof *st->res));
        memset(st->res + st->res_cap, 0, (cap - st->res_cap) * sizeof *st->res);
        st->res_cap = cap;
    }
    st->queued++;
    pthread_cond_broadcast(&st->work);
}

rps_stream *rps_stream_start(const uarch_config *cfg, const rps_options *opt, bool keep_run) {
    rps_stream *st = cs_calloc(1, sizeof *st);
    st->opt = *opt;
    if (!st->opt.segment) st->opt.segment = 1;
    st->window = rps_window(cfg);
    st->threads = opt->threads ? opt->threads : (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
    if (st->threads < 1) st->threads = 1;
    /* the ring: the window before the oldest segment in work, a segment per
     * thread and the one being filled, and a chunk for the one being written
     * (room is checked µop by µop; when it is short, the feeding thread works) */
    size_t ring = 0;
    if (!keep_run) {
        uint64_t need = (uint64_t)st->window + ((uint64_t)st->threads + 1) * st->opt.segment;
        size_t chunks = (size_t)((need + RPS_CHUNK - 1) / RPS_CHUNK) + 1;
        for (ring = 2; ring < chunks;) ring *= 2; /* a power of two: a mask, not a division, per access */
    }
    st->t = trace_create(cfg, ring);
    st->pending = cs_malloc(RPS_CHUNK * sizeof *st->pending);
    pthread_mutex_init(&st->lock, NULL);
    pthread_cond_init(&st->work, NULL);
    pthread_cond_init(&st->freed, NULL);
    st->tid = cs_calloc(st->threads, sizeof *st->tid);
    uint32_t started = 0;
    for (uint32_t k = 0; k < st->threads; k++)
        if (pthread_create(&st->tid[started], NULL, stream_worker, st) == 0) started++;
    st->threads = started; /* none: the caller's thread does the work */
    return st;
}

/* Queue the segments whose µops are all in, and their stores' writes (lock not held). Only the
 * feeding thread queues (and reads `queued` without the lock). */
static void queue_ready(rps_stream *st) {
    rps_trace *t = st->t;
    uint64_t seg = st->opt.segment;
    if (!t->ring_chunks) return;
    while ((st->queued + 1) * seg <= t->count && (st->queued + 1) * seg <= t->drained_below) {
        pthread_mutex_lock(&st->lock);
        queue_segment(st);
        pthread_mutex_unlock(&st->lock);
        t->frozen_below = st->queued * seg;
    }
}

void rps_stream_write(rps_stream *st, const probe_event *e) {
    if (e->kind == PEV_FILL && e->detail && e->unit == UNIT_L1D) { /* a prefetch's fill */
        rps_trace_prefetch_fill(st->t, e->cycle, e->cycle - e->count, e->level);
        return;
    }
    if (e->kind == PEV_STORE_JOIN) { /* the next write's (the same store's) */
        st->join = *e;
        return;
    }
    if (e->kind != PEV_STORE_WRITE) return;
    uint64_t request = e->cycle - e->count;
    rps_store_write w = {e->seq, e->cycle, request, (uint32_t)(e->end - request), e->level, e->detail != 0,
                         false,  0,        0};
    if (st->join.kind == PEV_STORE_JOIN && st->join.seq == e->seq)
        w.joined = true, w.join_start = st->join.end, w.join_lat = st->join.count;
    st->join.kind = PEV_COUNT;
    rps_trace_write(st->t, &w);
    queue_ready(st);
}

/* Move the pending records into the trace, waiting (or working) while the
 * ring still holds µops a segment in work needs. */
static void stream_flush(rps_stream *st) {
    double c0 = thread_cpu(), worked = 0; /* worked: segments done here, counted by process_segment */
    rps_trace *t = st->t;
    uint64_t seg = st->opt.segment;
    for (size_t k = 0; k < st->pending_n; k++) {
        if (t->ring_chunks) {
            uint64_t room = (t->ring_chunks - 1) * (uint64_t)RPS_CHUNK;
            pthread_mutex_lock(&st->lock);
            for (;;) {
                uint64_t first = st->lowest * seg;
                uint64_t need = first > st->window ? first - st->window : 0;
                if (t->count - need < room) break;
                int64_t f, l, j = take_segment(st, &f, &l); /* rather than wait, work */
                if (j >= 0) {
                    pthread_mutex_unlock(&st->lock);
                    worked += process_segment(st, own_ctx(st), (uint64_t)j, f, l);
                    pthread_mutex_lock(&st->lock);
                } else if (st->lowest == st->taken && (st->queued + 1) * seg <= t->count) {
                    /* nothing in work and the next segment's µops all in, but a store's write
                     * not yet seen: queued without it (its store gets no drain node) */
                    queue_segment(st);
                    t->frozen_below = st->queued * seg;
                } else {
                    pthread_cond_wait(&st->freed, &st->lock);
                }
            }
            pthread_mutex_unlock(&st->lock);
        }
        trace_append(t, &st->pending[k]);
        queue_ready(st); /* a whole run is kept: its segments wait for the end */
    }
    st->pending_n = 0;
    double c1 = thread_cpu();
    pthread_mutex_lock(&st->lock);
    st->cpu += c1 - c0 - worked;
    pthread_mutex_unlock(&st->lock);
}

void rps_stream_add(rps_stream *st, const uop_record *r, size_t n) {
    for (size_t k = 0; k < n; k++) {
        st->pending[st->pending_n++] = r[k];
        if (st->pending_n == RPS_CHUNK) stream_flush(st);
    }
}

const rps_trace *rps_stream_trace(const rps_stream *st) { return st->t; }

bool rps_stream_finish(rps_stream *st, rps_result *out, cs_error *err) {
    memset(out, 0, sizeof *out);
    out->opt = st->opt;
    if (!(st->opt.similarity >= 0 && st->opt.similarity <= 1)) {
        cs_error_set(err, "similarity %g: expected a number from 0 to 1", st->opt.similarity);
        return false;
    }
    double start = cs_now();
    stream_flush(st);
    const rps_trace *t = st->t;
    pthread_mutex_lock(&st->lock);
    uint64_t segs_all = (t->count + st->opt.segment - 1) / st->opt.segment;
    while (st->queued < segs_all) queue_segment(st); /* the rest, the last shorter */
    st->t->frozen_below = t->count;
    st->final_count = t->count;
    st->closed = true;
    pthread_cond_broadcast(&st->work);
    for (;;) { /* work along, then wait for the others */
        int64_t first, last, k = take_segment(st, &first, &last);
        if (k < 0) break;
        pthread_mutex_unlock(&st->lock);
        process_segment(st, own_ctx(st), (uint64_t)k, first, last);
        pthread_mutex_lock(&st->lock);
    }
    while (st->lowest < st->queued) pthread_cond_wait(&st->freed, &st->lock);
    pthread_mutex_unlock(&st->lock);
    for (uint32_t k = 0; k < st->threads; k++) pthread_join(st->tid[k], NULL);
    st->threads = 0;

    for (int d = 0; d < RPS_DIMS; d++) out->base_latency[d] = rps_dim_latency(&t->cfg, d);
    out->uops = t->count;
    out->instructions = t->instructions;
    /* cycles 0 … the last commit, or the last store's write when the graph has it */
    out->commit_cycles = t->count ? rps_u(t, (int64_t)t->count - 1)->t[N_C] + 1 : 0;
    out->cycles = st->queued ? st->res[st->queued - 1].end + 1 : out->commit_cycles;
    memcpy(out->fmt, t->fmt, sizeof out->fmt);
    uint32_t segs = (uint32_t)st->queued;
    out->segments = segs;
    out->seg_first = cs_calloc(segs + 1, sizeof *out->seg_first);
    uint32_t total = 0;
    for (uint32_t k = 0; k < segs; k++) total += st->res[k].n;
    out->stack_count = total;
    out->stacks = cs_calloc((size_t)total * RPS_DIMS + 1, sizeof(double));
    uint32_t at = 0;
    for (uint32_t k = 0; k < segs; k++) {
        seg_result *r = &st->res[k];
        out->seg_first[k] = at;
        out->graph_cycles += r->length;
        uint32_t best = 0;
        double best_len = -INFINITY;
        for (uint32_t q = 0; q < r->n; q++) {
            double len = 0;
            for (int d = 0; d < RPS_DIMS; d++) len += r->stacks[(size_t)q * RPS_DIMS + d];
            if (len > best_len) best_len = len, best = q;
        }
        if (r->n)
            for (int d = 0; d < RPS_DIMS; d++) out->cp1[d] += r->stacks[(size_t)best * RPS_DIMS + d];
        memcpy(&out->stacks[(size_t)at * RPS_DIMS], r->stacks, (size_t)r->n * RPS_DIMS * sizeof(double));
        at += r->n;
        out->capped_nodes += r->capped;
        out->violations += r->violations;
        out->dropped_edges += r->dropped;
        free(r->stacks);
        r->stacks = NULL;
    }
    out->seg_first[segs] = at;
    out->seconds = cs_now() - start; /* after the run: the segments before overlapped it */
    out->cpu_seconds = st->cpu;
    return true;
}

void rps_stream_destroy(rps_stream *st) {
    if (!st) return;
    if (st->threads) { /* not finished: stop the workers */
        pthread_mutex_lock(&st->lock);
        st->closed = true;
        st->queued = st->taken; /* nothing more to take */
        pthread_cond_broadcast(&st->work);
        pthread_mutex_unlock(&st->lock);
        for (uint32_t k = 0; k < st->threads; k++) pthread_join(st->tid[k], NULL);
    }
    for (size_t k = 0; k < st->res_cap; k++) free(st->res[k].stacks);
    free(st->res);
    free(st->tid);
    free(st->pending);
    if (st->own_ready) seg_ctx_free(&st->own);
    rps_trace_destroy(st->t);
    pthread_mutex_destroy(&st->lock);
    pthread_cond_destroy(&st->work);
    pthread_cond_destroy(&st->freed);
    free(st);
}

void rps_result_free(rps_result *r) {
    free(r->seg_first);
    free(r->stacks);
    for (int k = 0; k < r->origin.argc; k++) free(r->origin.argv[k]);
    memset(r, 0, sizeof *r);
}
