/* The dependence graph of a run (RpStacks §IV-C, Table I) and its traversal
 * with per-node stack sets (§III-C, §IV-D, §IV-E).
 *
 * Notes (what this simplifies; docs/rpstacks.md has the row-by-row mapping):
 *  - Seven nodes per µop: F, I$ (IS), D (= N: the model renames and dispatches
 *    in one stage), R, E, P, C. RC = C (the model commits the cycle a µop is
 *    ready to). AR1/AR2/DTLB collapse into R: the model has no DTLB and a
 *    load's address generation is part of its execution latency (latency.load),
 *    so it is a penalty of the E→P edge.
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
 *    baseline run.
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

const char *rps_dim_name(int dim) {
    if (dim < 0 || dim >= RPS_DIMS) return "?";
    return dim < RPS_CLASS0 ? fixed_names[dim] : isa_class_name((op_class)(dim - RPS_CLASS0));
}

const char *rps_dim_key(int dim) {
    if (dim < 0 || dim >= RPS_DIMS) return NULL;
    if (dim < RPS_CLASS0) return fixed_keys[dim];
    pthread_once(&keys_once, make_keys);
    return class_keys[dim - RPS_CLASS0];
}

uint32_t rps_dim_latency(const uarch_config *cfg, int dim) {
    switch (dim) {
    case RPS_BASE: return 1;
    case RPS_L1I: return cfg->l1i.latency;
    case RPS_L2_INSTR:
    case RPS_L2_DATA: return cfg->l2.latency;
    case RPS_MEM_INSTR:
    case RPS_MEM_DATA: return cfg->mem_latency;
    case RPS_L1D: return cfg->l1d.latency;
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
    return dim > RPS_BASE && dim < RPS_DIMS && (dim < RPS_CLASS0 || rps_class_is_event(dim - RPS_CLASS0));
}

void rps_options_default(rps_options *o) {
    o->segment = 5000;   /* RpStacks §V-D: segment length 5000 */
    o->similarity = 0.7; /* RpStacks §V-D: cosine threshold 0.7 */
    o->unique = true;    /* RpStacks §V-D: uniqueness preservation on */
    o->threads = 0;
    o->max_stacks = 64;
}

/* ---- the collected run ---- */

rps_trace *rps_trace_create(const uarch_config *cfg) {
    rps_trace *t = cs_calloc(1, sizeof *t);
    t->cfg = *cfg;
    return t;
}

void rps_trace_add(rps_trace *t, const uop_record *r, size_t n) {
    if (t->count + n > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->count + n) cap *= 2;
        t->u = cs_realloc(t->u, cs_array_size(cap, sizeof *t->u));
        t->cap = cap;
    }
    for (size_t k = 0; k < n; k++) {
        const uop_record *x = &r[k];
        rps_uop *u = &t->u[t->count++];
        memset(u, 0, sizeof *u);
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
    }
}

uint64_t rps_trace_uops(const rps_trace *t) { return t->count; }

void rps_trace_destroy(rps_trace *t) {
    if (!t) return;
    free(t->u);
    free(t->iq_src);
    free(t->lsq_src);
    free(t->iq_slack);
    free(t->unit_src);
    free(t->share_src);
    free(t->mshr_src);
    free(t);
}

/* ---- the constraints that come from other µops' order: computed once, in program order ---- */

/* An index into t->u from a sequence number (seq 0 or outside the run: -1). */
static int64_t index_of(const rps_trace *t, uint64_t seq) {
    if (!seq || !t->count) return -1;
    uint64_t first = t->u[0].seq;
    if (seq < first || seq - first >= t->count) return -1;
    return (int64_t)(seq - first);
}

typedef struct heap_item {
    uint64_t e;
    int64_t idx;
} heap_item;

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

enum { UNIT_RING = 8, SHARE_BUCKETS = 1024, ISSUE_SLACK = 2 };

/* The L1D miss latency of a load served by `level` (beyond its L1D hit latency: L1D included). */
static uint32_t miss_latency(const uarch_config *c, uint8_t level) {
    uint32_t lat = c->l1d.latency;
    if (level >= LEVEL_L2 && c->l2.enabled) lat += c->l2.latency;
    if (level >= LEVEL_L3 && c->l3.enabled) lat += c->l3.latency;
    if (level == LEVEL_MEM) lat += c->mem_latency;
    return lat;
}

/* Does µop j wait for an optimizable event: a producer that is a long-latency
 * event operation or a load that missed L1D? (RpStacks §IV-C, "Modeling the
 * issue dynamics".) */
static bool waits_for_event(const rps_trace *t, int64_t j) {
    const rps_uop *u = &t->u[j];
    for (int s = 0; s < 3; s++) {
        int64_t p = index_of(t, u->prod[s]);
        if (p < 0 || p >= j) continue;
        const rps_uop *q = &t->u[p];
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
    uint64_t d = t->u[i].t[N_D];
    if (h[0].e != d || waits_for_event(t, top)) return top;
    int64_t best = -1;
    for (int64_t j = i - 1; j >= 0 && j >= i - 2 * (int64_t)iq; j--) {
        uint64_t e = t->u[j].t[N_E];
        /* near-equivalent candidates only: issued at most ISSUE_SLACK cycles before */
        if (e > d || e + ISSUE_SLACK < d || (best >= 0 && e <= t->u[best].t[N_E])) continue;
        if (waits_for_event(t, j)) best = j;
    }
    if (best < 0) return top;
    *slack = d - t->u[best].t[N_E];
    return best;
}

void rps_trace_prepare(rps_trace *t) {
    if (t->prepared) return;
    t->prepared = true;
    size_t n = t->count;
    t->iq_src = cs_malloc(cs_array_size(n ? n : 1, sizeof *t->iq_src));
    t->lsq_src = cs_malloc(cs_array_size(n ? n : 1, sizeof *t->lsq_src));
    t->iq_slack = cs_malloc(cs_array_size(n ? n : 1, sizeof *t->iq_slack));
    t->unit_src = cs_malloc(cs_array_size(n ? n : 1, sizeof *t->unit_src));
    t->share_src = cs_malloc(cs_array_size(n ? n : 1, sizeof *t->share_src));
    t->mshr_src = cs_malloc(cs_array_size(n ? n : 1, sizeof *t->mshr_src));
    const uarch_config *c = &t->cfg;
    /* IQ: µop i dispatches once fewer than iq_size older µops are still waiting
     * to issue, i.e. not before the iq_size-th latest issue among the older
     * µops (issue frees the entry before dispatch looks, in the same cycle). */
    uint32_t iq = c->iq_size ? c->iq_size : 1, hn = 0;
    heap_item *heap = cs_malloc(cs_array_size(iq + 1, sizeof *heap));
    /* LSQ: loads and stores leave it at commit, in program order */
    uint32_t lsq = c->lsq_size ? c->lsq_size : c->lq_size; /* separate queues: the load queue's size, loads only */
    int64_t *mem_ring = cs_malloc(cs_array_size(lsq ? lsq : 1, sizeof *mem_ring));
    uint64_t mem_count = 0;
    /* units: the last users of each (pool, unit), in program order */
    int64_t(*units)[64][UNIT_RING] = cs_malloc(sizeof(int64_t[UARCH_MAX_POOLS][64][UNIT_RING]));
    for (int p = 0; p < UARCH_MAX_POOLS; p++)
        for (int u = 0; u < 64; u++)
            for (int k = 0; k < UNIT_RING; k++) units[p][u][k] = -1;
    /* cache-line sharing: the last load to miss each line (a small direct-mapped table) */
    struct {
        uint64_t line;
        int64_t idx;
    } share[SHARE_BUCKETS];
    for (int k = 0; k < SHARE_BUCKETS; k++) share[k].line = UINT64_MAX, share[k].idx = -1;
    uint32_t line_bits = 0;
    while ((1u << line_bits) < (c->l1d.line ? c->l1d.line : 64)) line_bits++;
    uint32_t mshrs = c->l1d.mshrs, mn = 0;
    heap_item *mheap = cs_malloc(cs_array_size(mshrs + 1, sizeof *mheap));

    for (size_t i = 0; i < n; i++) {
        rps_uop *u = &t->u[i];
        t->iq_slack[i] = 0;
        t->iq_src[i] = hn == iq ? issue_dependency(t, (int64_t)i, heap, iq, &t->iq_slack[i]) : -1;
        heap_push_min(heap, &hn, (heap_item){u->t[N_E], (int64_t)i});
        if (hn > iq) heap_pop_min(heap, &hn);

        bool load = u->uflags & UOP_MEM_READ, store = u->uflags & UOP_MEM_WRITE;
        t->lsq_src[i] = -1;
        if ((load || (store && c->lsq_size)) && lsq) {
            if (mem_count >= lsq) t->lsq_src[i] = mem_ring[mem_count % lsq];
            mem_ring[mem_count % lsq] = (int64_t)i;
            mem_count++;
        }

        t->unit_src[i] = -1;
        if (u->pool < UARCH_MAX_POOLS && u->unit < 64) {
            int64_t *ring = units[u->pool][u->unit];
            uint64_t best = 0;
            for (int k = 0; k < UNIT_RING; k++) {
                int64_t j = ring[k];
                if (j < 0 || t->u[j].t[N_E] >= u->t[N_E]) continue;
                if (t->unit_src[i] < 0 || t->u[j].t[N_E] > best) t->unit_src[i] = j, best = t->u[j].t[N_E];
            }
            memmove(ring + 1, ring, (UNIT_RING - 1) * sizeof *ring);
            ring[0] = (int64_t)i;
        }

        /* miss registers: a load that starts a fill needs a free L1D MSHR; the
         * mshrs-th latest fill among the older starters must have arrived */
        t->mshr_src[i] = -1;
        bool starts = load && !(u->rflags & UREC_FORWARDED) && u->dcache_level >= LEVEL_L2 &&
            u->exec_latency >= c->latency[u->op_class] + miss_latency(c, u->dcache_level);
        if (starts && mshrs) {
            uint64_t ready = u->t[N_E] + u->exec_latency - c->latency[u->op_class];
            if (mn == mshrs && mheap[0].e <= u->t[N_E]) t->mshr_src[i] = mheap[0].idx;
            heap_push_min(mheap, &mn, (heap_item){ready, (int64_t)i});
            if (mn > mshrs) heap_pop_min(mheap, &mn);
        }

        t->share_src[i] = -1;
        if (load && !(u->rflags & UREC_FORWARDED) && u->dcache_level >= LEVEL_L2) {
            uint64_t line = u->addr >> line_bits;
            uint32_t b = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 54) % SHARE_BUCKETS;
            if (share[b].line == line && share[b].idx >= 0 && t->u[share[b].idx].t[N_P] <= u->t[N_P])
                t->share_src[i] = share[b].idx;
            else share[b].line = line, share[b].idx = (int64_t)i;
        }
    }
    free(heap);
    free(mheap);
    free(mem_ring);
    free(units);
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
    if (w->n < RPS_WEIGHT_DIMS) {
        w->dim[w->n] = (uint8_t)dim;
        w->val[w->n++] = v;
    } else {
        w->base += v; /* cannot happen with today's edges (at most four events) */
    }
}
double rps_weight_total(const rps_weight *w) {
    double s = w->base;
    for (int k = 0; k < w->n; k++) s += w->val[k];
    return s;
}

/* The execution latency of µop u split into events (the E→P edge). */
static void exec_weight(const rps_trace *t, const rps_uop *u, rps_weight *w) {
    const uarch_config *c = &t->cfg;
    w_clear(w);
    double total = u->exec_latency, sum = 0;
    uint32_t cls = c->latency[u->op_class];
    int cdim = rps_class_is_event(u->op_class) ? RPS_CLASS0 + u->op_class : RPS_BASE;
    w_add(w, cdim, cls);
    sum += cls;
    if (u->uflags & UOP_MEM_READ) {
        w_add(w, RPS_L1D, c->l1d.latency);
        sum += c->l1d.latency;
        if (!(u->rflags & UREC_FORWARDED)) {
            double miss = 0;
            if (u->dcache_level >= LEVEL_L2 && c->l2.enabled)
                w_add(w, RPS_L2_DATA, c->l2.latency), miss += c->l2.latency;
            if (u->dcache_level >= LEVEL_L3 && c->l3.enabled) w_add(w, RPS_BASE, c->l3.latency), miss += c->l3.latency;
            if (u->dcache_level == LEVEL_MEM) w_add(w, RPS_MEM_DATA, c->mem_latency), miss += c->mem_latency;
            sum += miss;
            if (sum > total && total - cls - c->l1d.latency < miss / 2) {
                /* joined a fill late: only its hit part is its own; the fill's start is the sharing edge */
                w_clear(w);
                w_add(w, cdim, cls);
                w_add(w, RPS_L1D, c->l1d.latency);
                sum = cls + c->l1d.latency;
            } /* joined early: the miss, less the part already under way (a negative base) */
        }
    }
    w_add(w, RPS_BASE, total - sum);
}

/* The edges into node `v` of µop i, weighted from the configuration and the
 * µop's events. Sources are (µop index, node). Returns the count. */
static int node_edges(const rps_trace *t, int64_t i, int v, rps_edge *e) {
    const uarch_config *c = &t->cfg;
    const rps_uop *u = &t->u[i];
    int n = 0;
#define EDGE(J, NODE) (e[n].src = (J), e[n].node = (NODE), w_clear(&e[n].w), &e[n++].w)
    switch (v) {
    case N_F:
        if (i == 0) break;
        EDGE(i - 1, N_F);                                                    /* in-order fetch */
        if (t->u[i - 1].uflags & UOP_TAKEN) w_add(&e[n - 1].w, RPS_BASE, 1); /* a taken transfer ends the group */
        if (i >= (int64_t)c->fetch_width) w_add(EDGE(i - c->fetch_width, N_F), RPS_BASE, 1); /* fetch bandwidth */
        if (t->u[i - 1].mispredict) w_add(EDGE(i - 1, N_P), RPS_BASE, c->redirect_penalty);  /* control dependency */
        if (t->u[i - 1].icache_level >= LEVEL_L2) /* fetch resumes when the fill the µop before waited for arrives */
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
        if (u->icache_level >= LEVEL_L2 && c->l2.enabled) w_add(w, RPS_L2_INSTR, c->l2.latency), sum += c->l2.latency;
        if (u->icache_level >= LEVEL_L3 && c->l3.enabled) sum += c->l3.latency, w_add(w, RPS_BASE, c->l3.latency);
        if (u->icache_level == LEVEL_MEM) w_add(w, RPS_MEM_INSTR, c->mem_latency), sum += c->mem_latency;
        w_add(w, RPS_BASE, total - sum); /* < 0: joined a fill under way */
        if (i > 0) EDGE(i - 1, N_IS);    /* in-order I-cache delivery */
        break;
    }
    case N_D:
        w_add(EDGE(i, N_IS), RPS_BASE, c->decode_depth); /* rename after I$ (decode) */
        if (i > 0) EDGE(i - 1, N_D);                     /* in-order rename / dispatch */
        if (i >= (int64_t)c->dispatch_width) w_add(EDGE(i - c->dispatch_width, N_D), RPS_BASE, 1);
        if (i >= (int64_t)c->rob_size) EDGE(i - c->rob_size, N_C);                               /* finite ROB */
        if (t->iq_src[i] >= 0) w_add(EDGE(t->iq_src[i], N_E), RPS_BASE, (double)t->iq_slack[i]); /* issue dependency */
        if (t->lsq_src[i] >= 0) EDGE(t->lsq_src[i], N_C);                                        /* finite LSQ */
        break;
    case N_R:
        EDGE(i, N_D); /* ready after dispatch */
        for (int s = 0; s < 3; s++) {
            int64_t j = index_of(t, u->prod[s]);
            if (j >= 0 && j < i) EDGE(j, N_P); /* data dependency */
        }
        break;
    case N_E: {
        EDGE(i, N_R);                     /* execute after ready */
        w_add(EDGE(i, N_D), RPS_BASE, 1); /* issue looks at a µop the cycle after it is dispatched */
        int64_t j = t->unit_src[i];
        if (j >= 0 && j < i) { /* the unit's previous user: one cycle, or its whole latency if unpipelined */
            rps_weight *w = EDGE(j, N_E);
            if (c->pipelined[t->u[j].op_class]) w_add(w, RPS_BASE, 1);
            else exec_weight(t, &t->u[j], w);
        }
        j = index_of(t, u->mem_prod);
        if ((u->uflags & UOP_MEM_READ) && j >= 0 && j < i) EDGE(j, N_P); /* address dependency: the store executed */
        j = t->mshr_src[i];
        if (j >= 0 && j < i) { /* a miss register frees when that fill arrives: P_j less its address generation */
            const rps_uop *f = &t->u[j];
            w_add(EDGE(j, N_P), rps_class_is_event(f->op_class) ? RPS_CLASS0 + f->op_class : RPS_BASE,
                  -(double)c->latency[f->op_class]);
        }
        break;
    }
    case N_P:
        exec_weight(t, u, EDGE(i, N_E));                                             /* completion after execute */
        if (t->share_src[i] >= 0 && t->share_src[i] < i) EDGE(t->share_src[i], N_P); /* cache line sharing */
        break;
    case N_C:
        EDGE(i, N_P); /* commit after complete */
        if (i > 0) EDGE(i - 1, N_C);
        if (i >= (int64_t)c->commit_width) w_add(EDGE(i - c->commit_width, N_C), RPS_BASE, 1);
        break;
    }
#undef EDGE
    return n;
}

/* The edges with the residual: when the simulated time is later than every
 * modelled constraint allows, the difference is added as base penalty to the
 * tightest edge (the constraint met last). *violation: a constraint ran past
 * the simulated time (a modelling error; counted). */
int rps_node_edges(const rps_trace *t, int64_t i, int v, rps_edge *e, bool *violation) {
    int n = node_edges(t, i, v, e);
    *violation = false;
    if (!n) return 0;
    double actual = (double)t->u[i].t[v], bound = -INFINITY;
    int arg = 0;
    for (int k = 0; k < n; k++) {
        double x = (double)t->u[e[k].src].t[e[k].node] + rps_weight_total(&e[k].w);
        if (x > bound) bound = x, arg = k;
    }
    if (bound < actual - 1e-9) e[arg].w.base += actual - bound;
    else if (bound > actual + 1e-9) *violation = true;
    return n;
}

/* ---- stack sets and their reduction ---- */

typedef struct stack_set {
    double *v; /* n × D */
    uint32_t n, cap;
} stack_set;

typedef struct seg_ctx {
    const rps_trace *t;
    const rps_options *opt;
    int D; /* active dimensions */
    int dim_of[RPS_DIMS];
    int slot_of[RPS_DIMS]; /* global dim → active slot (-1) */
    uint32_t window;
    stack_set *sets; /* window × N_COUNT */
    double *times;   /* window × N_COUNT: longest path to the node */
    /* scratch */
    double *cand, *tot, *inv;
    uint32_t cand_n, cand_cap;
    uint32_t *order;
    uint8_t *keep, *uniq;
    uint32_t *nz, *pos; /* per candidate: the events it has, the positive ones */
    uint64_t capped, violations, dropped;
    uint64_t stat_calls, stat_cand, stat_dom, stat_kept;
} seg_ctx;

static void cand_reserve(seg_ctx *s, uint32_t need) {
    if (need <= s->cand_cap) return;
    uint32_t cap = s->cand_cap ? s->cand_cap : 64;
    while (cap < need) cap *= 2;
    s->cand = cs_realloc(s->cand, cs_array_size((size_t)cap * s->D, sizeof *s->cand));
    s->tot = cs_realloc(s->tot, cs_array_size(cap, sizeof *s->tot));
    s->inv = cs_realloc(s->inv, cs_array_size((size_t)cap * s->D, sizeof *s->inv));
    s->order = cs_realloc(s->order, cs_array_size(cap, sizeof *s->order));
    s->keep = cs_realloc(s->keep, cap);
    s->nz = cs_realloc(s->nz, cs_array_size(cap, sizeof *s->nz));
    s->pos = cs_realloc(s->pos, cs_array_size(cap, sizeof *s->pos));
    s->uniq = cs_realloc(s->uniq, cap);
    s->cand_cap = cap;
}

static void set_reserve(stack_set *x, uint32_t n, int D) {
    if (n <= x->cap) return;
    uint32_t cap = x->cap ? x->cap : 4;
    while (cap < n) cap *= 2;
    x->v = cs_realloc(x->v, cs_array_size((size_t)cap * D, sizeof *x->v));
    x->cap = cap;
}

static inline double dmax(double a, double b) { return a > b ? a : b; }
static inline double dabs(double a) { return a < 0 ? -a : a; }

/* The modified cosine similarity (§IV-E, Figure 9), with the reciprocals of
 * each path's magnitudes given (ia, ib): normalising by the larger magnitude
 * of a dimension is then a multiplication. */
static inline double similarity_inv(const double *a, const double *ia, const double *b, const double *ib,
                                    uint32_t mask) {
    double dot = 0, na = 0, nb = 0;
    while (mask) {
        int d = __builtin_ctz(mask);
        mask &= mask - 1;
        double inv = dabs(a[d]) >= dabs(b[d]) ? ia[d] : ib[d];
        double x = a[d] * inv, y = b[d] * inv;
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if (na == 0 || nb == 0) return na == nb ? 1 : 0;
    return dot / sqrt(na * nb);
}

/* The modified cosine similarity (§IV-E, Figure 9): each dimension normalised
 * by the larger magnitude of the two, then the cosine. Only the dimensions
 * either path has (mask) count. */
double rps_similarity_masked(const double *a, const double *b, uint32_t mask) {
    double ia[32], ib[32];
    for (uint32_t m = mask; m;) {
        int d = __builtin_ctz(m);
        m &= m - 1;
        ia[d] = a[d] != 0 ? 1.0 / dabs(a[d]) : 0;
        ib[d] = b[d] != 0 ? 1.0 / dabs(b[d]) : 0;
    }
    return similarity_inv(a, ia, b, ib, mask);
}

/* Reduce the candidates into set `out` (§III-C Figure 7c): drop dominated
 * paths, keep paths with a unique event, merge similar ones into the larger.
 * The decisions are those of the plain algorithm (tests/unit/test_rpstacks.c
 * checks them against a straightforward reference); what makes it cheaper:
 * the reciprocals the similarity needs are computed only for the paths that
 * survive dominance (about half), the dominance bound c - 1e-9 once per path,
 * the kept paths scanned newest first for a dominator (most often a recent
 * one), and uniqueness is found with two bit masks. (A dominance test without
 * branches over the dimensions was 11% slower on fma: most pairs fail early.) */
static void reduce(seg_ctx *s, stack_set *out) {
    int D = s->D;
    uint32_t n = s->cand_n;
    out->n = 0;
    s->stat_calls++, s->stat_cand += n;
    if (!n) return;
    for (uint32_t k = 0; k < n; k++) {
        const double *c = &s->cand[(size_t)k * D];
        double sum = 0;
        uint32_t pos = 0;
        for (int d = 0; d < D; d++) {
            sum += c[d];
            pos |= (uint32_t)(c[d] > 1e-9) << d;
        }
        s->tot[k] = sum;
        s->pos[k] = pos;
        s->order[k] = k;
    }
    /* largest first (insertion sort: a few tens; stable, so ties keep their order) */
    for (uint32_t k = 1; k < n; k++) {
        uint32_t x = s->order[k];
        uint32_t m = k;
        while (m > 0 && s->tot[s->order[m - 1]] < s->tot[x]) s->order[m] = s->order[m - 1], m--;
        s->order[m] = x;
    }
    /* dominance: a path no larger than a kept one in every event can never be the critical one */
    uint32_t kept = 0;
    double low[32]; /* c - 1e-9 (D <= RPS_DIMS < 32) */
    for (uint32_t k = 0; k < n; k++) {
        const double *c = &s->cand[(size_t)s->order[k] * D];
        uint32_t cpos = s->pos[s->order[k]];
        for (int d = 0; d < D; d++) low[d] = c[d] - 1e-9;
        bool dominated = false;
        for (uint32_t q = kept; q-- > 0;) {            /* any order finds the same answer */
            if (cpos & ~s->pos[s->order[q]]) continue; /* c has a positive event p lacks */
            const double *p = &s->cand[(size_t)s->order[q] * D];
            int d = 0;
            while (d < D && p[d] >= low[d]) d++;
            if (d == D) {
                dominated = true;
                break;
            }
        }
        if (!dominated) s->order[kept++] = s->order[k];
    }
    /* the survivors' events and reciprocals (the similarity's normalisation) */
    uint32_t once = 0, twice = 0;
    for (uint32_t q = 0; q < kept; q++) {
        uint32_t k = s->order[q];
        const double *c = &s->cand[(size_t)k * D];
        double *inv = &s->inv[(size_t)k * D];
        uint32_t nz = 0;
        for (int d = 0; d < D; d++) {
            nz |= (uint32_t)(dabs(c[d]) > 1e-9) << d;
            inv[d] = c[d] != 0 ? 1.0 / dabs(c[d]) : 0;
        }
        s->nz[k] = nz;
        twice |= once & nz;
        once |= nz;
    }
    /* uniqueness: a path with an event no other surviving path has */
    uint32_t unique_dims = s->opt->unique && kept > 1 ? once & ~twice : 0;
    for (uint32_t q = 0; q < kept; q++) s->uniq[q] = (s->nz[s->order[q]] & unique_dims) != 0;
    /* similarity: merged into the larger representative already kept */
    uint32_t m = 0;
    for (uint32_t q = 0; q < kept; q++) {
        const double *c = &s->cand[(size_t)s->order[q] * D];
        bool merged = false;
        if (!s->uniq[q]) {
            for (uint32_t r = 0; r < m && !merged; r++) {
                if (s->keep[r]) continue; /* unique paths are not merge targets either */
                uint32_t rr = s->order[r], qq = s->order[q];
                merged = similarity_inv(&s->cand[(size_t)rr * D], &s->inv[(size_t)rr * D], c, &s->inv[(size_t)qq * D],
                                        s->nz[rr] | s->nz[qq]) >= s->opt->similarity;
            }
        }
        if (merged) continue;
        s->order[m] = s->order[q];
        s->keep[m] = s->uniq[q];
        m++;
    }
    s->stat_dom += kept, s->stat_kept += m;
    if (m > s->opt->max_stacks) m = s->opt->max_stacks, s->capped++;
    set_reserve(out, m, D);
    for (uint32_t r = 0; r < m; r++) {
        const double *c = &s->cand[(size_t)s->order[r] * D];
        double *o = &out->v[(size_t)r * D];
        for (int d = 0; d < D; d++) o[d] = c[d];
    }
    out->n = m;
}

uint32_t rps_reduce_vectors(const rps_options *opt, int D, const double *cand, uint32_t n, double *out) {
    seg_ctx s;
    memset(&s, 0, sizeof s);
    s.opt = opt;
    s.D = D;
    cand_reserve(&s, n ? n : 1);
    memcpy(s.cand, cand, (size_t)n * D * sizeof *cand);
    s.cand_n = n;
    stack_set set = {0};
    reduce(&s, &set);
    memcpy(out, set.v, (size_t)set.n * D * sizeof *out);
    uint32_t m = set.n;
    free(set.v);
    free(s.cand);
    free(s.tot);
    free(s.inv);
    free(s.order);
    free(s.keep);
    free(s.uniq);
    free(s.nz);
    free(s.pos);
    return m;
}

/* Active dimensions: those some edge of the run can carry. */
static int active_dims(const rps_trace *t, int *dim_of, int *slot_of) {
    bool on[RPS_DIMS] = {0};
    on[RPS_BASE] = on[RPS_L1I] = true;
    for (size_t i = 0; i < t->count; i++) {
        const rps_uop *u = &t->u[i];
        if (rps_class_is_event(u->op_class)) on[RPS_CLASS0 + u->op_class] = true;
        if (u->icache_level >= LEVEL_L2) on[RPS_L2_INSTR] = true;
        if (u->icache_level == LEVEL_MEM) on[RPS_MEM_INSTR] = true;
        if (u->uflags & UOP_MEM_READ) {
            on[RPS_L1D] = true;
            if (u->dcache_level >= LEVEL_L2) on[RPS_L2_DATA] = true;
            if (u->dcache_level == LEVEL_MEM) on[RPS_MEM_DATA] = true;
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
    double actual; /* simulated: C_last - S */
} seg_out;

static void add_weight(const seg_ctx *s, double *dst, const rps_weight *w) {
    dst[0] += w->base;
    for (int k = 0; k < w->n; k++) {
        int slot = s->slot_of[w->dim[k]];
        if (slot >= 0) dst[slot] += w->val[k];
        else dst[0] += w->val[k];
    }
}

static double scaled(const rps_weight *w, const double *scale) {
    double sum = w->base;
    for (int k = 0; k < w->n; k++) sum += w->val[k] * scale[w->dim[k]];
    return sum;
}

static void run_segment(seg_ctx *s, int64_t first, int64_t last, const double *scale, seg_out *out) {
    const rps_trace *t = s->t;
    int D = s->D;
    uint32_t W = s->window;
    /* S: the previous segment's last commit; for the first, the cycle before the run's first
     * (the run's cycles count the last commit's cycle too) */
    double S = first > 0 ? (double)t->u[first - 1].t[N_C] : -1;
    rps_edge e[RPS_MAX_EDGES];
    for (int64_t i = first; i <= last; i++) {
        uint32_t slot = (uint32_t)(i % W);
        for (int v = 0; v < N_COUNT; v++) {
            bool violation;
            int ne = rps_node_edges(t, i, v, e, &violation);
            double actual = (double)t->u[i].t[v];
            s->violations += violation;
            /* longest path and stacks */
            double best = -INFINITY;
            s->cand_n = 0;
            bool from_s = ne == 0 || (i == first && v == N_F);
            int sources = from_s;
            const stack_set *last_src = NULL;
            if (from_s) {
                /* S → the first fetch, and nodes with nothing before them */
                best = actual - S;
                if (!scale) {
                    cand_reserve(s, 1);
                    memset(s->cand, 0, D * sizeof(double));
                    s->cand[0] = actual - S;
                    s->cand_n = 1;
                }
            }
            for (int k = 0; k < ne; k++) {
                int64_t j = e[k].src;
                if (j < i - (int64_t)W + 1) {
                    s->dropped++;
                    continue;
                }
                sources++;
                if (j < first) { /* before the segment: from S, base only */
                    double w = (double)t->u[j].t[e[k].node] + rps_weight_total(&e[k].w) - S;
                    best = dmax(best, w);
                    if (!scale) {
                        cand_reserve(s, s->cand_n + 1);
                        double *c = &s->cand[(size_t)s->cand_n++ * D];
                        memset(c, 0, D * sizeof(double));
                        c[0] = w;
                    }
                    continue;
                }
                uint32_t js = (uint32_t)(j % W) * N_COUNT + (uint32_t)e[k].node;
                best = dmax(best, s->times[js] + (scale ? scaled(&e[k].w, scale) : rps_weight_total(&e[k].w)));
                if (scale) continue;
                last_src = &s->sets[js];
                const stack_set *src = &s->sets[js];
                cand_reserve(s, s->cand_n + src->n);
                for (uint32_t q = 0; q < src->n; q++) {
                    double *c = &s->cand[(size_t)s->cand_n++ * D];
                    const double *from = &src->v[(size_t)q * D];
                    for (int d = 0; d < D; d++) c[d] = from[d]; /* a few doubles: no call */
                    add_weight(s, c, &e[k].w);
                }
            }
            s->times[slot * N_COUNT + v] = best;
            bool single = sources == 1 && last_src != NULL;
            if (!scale) {
                stack_set *dst = &s->sets[slot * N_COUNT + v];
                if (single) { /* one source: its set, shifted by one weight, is still reduced */
                    set_reserve(dst, s->cand_n, D);
                    memcpy(dst->v, s->cand, (size_t)s->cand_n * D * sizeof(double));
                    dst->n = s->cand_n;
                } else {
                    reduce(s, dst);
                }
            }
        }
    }
    uint32_t ls = (uint32_t)(last % W) * N_COUNT + N_C;
    out->length = s->times[ls];
    out->actual = (double)t->u[last].t[N_C] - S;
    out->n = 0;
    out->stacks = NULL;
    if (!scale) {
        const stack_set *fin = &s->sets[ls];
        out->n = fin->n;
        out->stacks = cs_malloc(cs_array_size((size_t)fin->n * D + 1, sizeof(double)));
        memcpy(out->stacks, fin->v, (size_t)fin->n * D * sizeof(double));
    }
}

static void seg_ctx_init(seg_ctx *s, const rps_trace *t, const rps_options *opt) {
    memset(s, 0, sizeof *s);
    s->t = t;
    s->opt = opt;
    s->D = active_dims(t, s->dim_of, s->slot_of);
    s->window = rps_window(&t->cfg);
    s->sets = cs_calloc((size_t)s->window * N_COUNT, sizeof *s->sets);
    s->times = cs_calloc((size_t)s->window * N_COUNT, sizeof *s->times);
}

static void seg_ctx_free(seg_ctx *s) {
    for (size_t k = 0; k < (size_t)s->window * N_COUNT; k++) free(s->sets[k].v);
    free(s->sets);
    free(s->times);
    free(s->cand);
    free(s->tot);
    free(s->inv);
    free(s->order);
    free(s->keep);
    free(s->nz);
    free(s->pos);
    free(s->uniq);
}

double rps_graph_cycles(const rps_trace *t, uint32_t segment, const double scale[RPS_DIMS]) {
    rps_trace_prepare((rps_trace *)t);
    rps_options opt;
    rps_options_default(&opt);
    seg_ctx s;
    seg_ctx_init(&s, t, &opt);
    int64_t n = (int64_t)t->count, len = segment ? segment : (n ? n : 1);
    double total = 0;
    for (int64_t first = 0; first < n; first += len) {
        seg_out o;
        run_segment(&s, first, first + len - 1 < n - 1 ? first + len - 1 : n - 1, scale, &o);
        total += o.length;
    }
    seg_ctx_free(&s);
    return total;
}

/* ---- the analysis: segments in parallel threads ---- */

typedef struct worker {
    const rps_trace *t;
    const rps_options *opt;
    uint32_t segments, seg_len;
    seg_out *outs;
    pthread_mutex_t *lock;
    uint32_t *next;
    uint64_t capped, violations, dropped;
} worker;

static void *worker_main(void *arg) {
    worker *w = arg;
    seg_ctx s;
    seg_ctx_init(&s, w->t, w->opt);
    int64_t n = (int64_t)w->t->count;
    for (;;) {
        pthread_mutex_lock(w->lock);
        uint32_t k = (*w->next)++;
        pthread_mutex_unlock(w->lock);
        if (k >= w->segments) break;
        int64_t first = (int64_t)k * w->seg_len, last = first + w->seg_len - 1;
        if (last > n - 1) last = n - 1;
        run_segment(&s, first, last, NULL, &w->outs[k]);
    }
    if (getenv("RPS_DEBUG"))
        fprintf(stderr, "reduce calls %llu cand/call %.1f after-dominance %.1f kept %.1f\n",
                (unsigned long long)s.stat_calls, (double)s.stat_cand / s.stat_calls, (double)s.stat_dom / s.stat_calls,
                (double)s.stat_kept / s.stat_calls);
    w->capped = s.capped;
    w->violations = s.violations;
    w->dropped = s.dropped;
    seg_ctx_free(&s);
    return NULL;
}

/* The commit-stall table (FMT, Eyerman et al. [8] as RpStacks §II-C uses it):
 * each cycle commit waits is charged to one event of the µop it waits for. */
static void fmt_table(const rps_trace *t, double *fmt) {
    const uarch_config *c = &t->cfg;
    memset(fmt, 0, RPS_DIMS * sizeof *fmt);
    uint64_t last = 0; /* the cycle after the last commit so far */
    for (size_t i = 0; i < t->count; i++) {
        const rps_uop *u = &t->u[i];
        uint64_t gap = u->t[N_C] + 1 > last ? u->t[N_C] + 1 - last : 0;
        last = u->t[N_C] + 1 > last ? u->t[N_C] + 1 : last;
        if (gap <= 1) {
            fmt[RPS_BASE] += (double)gap;
            continue;
        }
        fmt[RPS_BASE] += 1;
        double stall = (double)(gap - 1);
        int dim = RPS_BASE;
        if (i > 0 && u->t[N_D] >= t->u[i - 1].t[N_C]) { /* the ROB ran empty: a frontend event */
            if (u->icache_level == LEVEL_MEM) dim = RPS_MEM_INSTR;
            else if (u->icache_level >= LEVEL_L2) dim = RPS_L2_INSTR;
        } else if (u->uflags & UOP_MEM_READ) { /* the head is a load: its miss level, else an L1 hit */
            dim = u->dcache_level == LEVEL_MEM ? RPS_MEM_DATA
                : u->dcache_level >= LEVEL_L2  ? RPS_L2_DATA
                : (u->rflags & UREC_FORWARDED) ? RPS_BASE
                                               : RPS_L1D;
        } else if (rps_class_is_event(u->op_class) && c->latency[u->op_class] > 1) { /* a long-latency operation */
            dim = RPS_CLASS0 + u->op_class;
        }
        fmt[dim] += stall;
    }
}

bool rps_analyse(const rps_trace *t, const rps_options *opt, rps_result *out, cs_error *err) {
    memset(out, 0, sizeof *out);
    out->opt = *opt;
    if (opt->segment == 0) {
        cs_error_set(err, "segment length 0");
        return false;
    }
    if (!(opt->similarity >= 0 && opt->similarity <= 1)) {
        cs_error_set(err, "similarity %g: expected a number from 0 to 1", opt->similarity);
        return false;
    }
    double start = cs_now();
    struct timespec cpu0, cpu1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu0);
    rps_trace_prepare((rps_trace *)t);
    for (int d = 0; d < RPS_DIMS; d++) out->base_latency[d] = rps_dim_latency(&t->cfg, d);
    out->uops = t->count;
    for (size_t i = 0; i < t->count; i++) out->instructions += !t->u[i].continues;
    out->cycles = t->count ? t->u[t->count - 1].t[N_C] + 1 : 0; /* cycles 0 … last commit */
    fmt_table(t, out->fmt);

    uint32_t segs = (uint32_t)((t->count + opt->segment - 1) / opt->segment);
    seg_out *outs = cs_calloc(segs ? segs : 1, sizeof *outs);
    uint32_t threads = opt->threads ? opt->threads : (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    if (threads > segs) threads = segs ? segs : 1;
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    uint32_t next = 0;
    worker *w = cs_calloc(threads, sizeof *w);
    pthread_t *tid = cs_calloc(threads, sizeof *tid);
    uint32_t started = 0;
    for (uint32_t k = 0; k < threads; k++) {
        w[k] = (worker){t, opt, segs, opt->segment, outs, &lock, &next, 0, 0, 0};
        if (k == 0 || pthread_create(&tid[k], NULL, worker_main, &w[k]) == 0) started++;
        else break;
    }
    worker_main(&w[0]); /* this thread works too */
    for (uint32_t k = 1; k < started; k++) pthread_join(tid[k], NULL);

    int dim_of[RPS_DIMS], slot_of[RPS_DIMS];
    int D = active_dims(t, dim_of, slot_of);
    out->segments = segs;
    out->seg_first = cs_calloc(segs + 1, sizeof *out->seg_first);
    uint32_t total = 0;
    for (uint32_t k = 0; k < segs; k++) total += outs[k].n;
    out->stack_count = total;
    out->stacks = cs_calloc((size_t)total * RPS_DIMS + 1, sizeof(double));
    uint32_t at = 0;
    for (uint32_t k = 0; k < segs; k++) {
        out->seg_first[k] = at;
        out->graph_cycles += outs[k].length;
        uint32_t best = 0;
        double best_len = -INFINITY;
        for (uint32_t q = 0; q < outs[k].n; q++) {
            double len = 0;
            for (int d = 0; d < D; d++) {
                double x = outs[k].stacks[(size_t)q * D + d];
                out->stacks[(size_t)(at + q) * RPS_DIMS + dim_of[d]] = x;
                len += x;
            }
            if (len > best_len) best_len = len, best = q;
        }
        if (outs[k].n)
            for (int d = 0; d < D; d++) out->cp1[dim_of[d]] += outs[k].stacks[(size_t)best * D + d];
        at += outs[k].n;
        free(outs[k].stacks);
    }
    out->seg_first[segs] = at;
    for (uint32_t k = 0; k < started; k++) {
        out->capped_nodes += w[k].capped;
        out->violations += w[k].violations;
        out->dropped_edges += w[k].dropped;
    }
    free(outs);
    free(w);
    free(tid);
    out->seconds = cs_now() - start;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu1);
    out->cpu_seconds = (double)(cpu1.tv_sec - cpu0.tv_sec) + 1e-9 * (double)(cpu1.tv_nsec - cpu0.tv_nsec);
    return true;
}

void rps_result_free(rps_result *r) {
    free(r->seg_first);
    free(r->stacks);
    for (int k = 0; k < r->origin.argc; k++) free(r->origin.argv[k]);
    memset(r, 0, sizeof *r);
}
