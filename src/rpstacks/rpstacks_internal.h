/* rpstacks internals shared by its files (graph, file, analysis): the compact
 * per-µop record the graph is built from, and the edges. */
#ifndef CYCLESCOPE_RPSTACKS_INTERNAL_H
#define CYCLESCOPE_RPSTACKS_INTERNAL_H

#include "rpstacks.h"

/* The graph's nodes per µop (Table I's letters; docs/rpstacks.md). For a store through a store
 * buffer whose write was seen: Q, its request for its line; A, its line there; W, its write
 * from the store buffer to the L1D (its drain). */
enum { N_F, N_IS, N_D, N_R, N_E, N_P, N_C, N_Q, N_A, N_W, N_COUNT };

typedef struct rps_uop {
    uint64_t t[N_COUNT]; /* simulated time of each node (t[N_W] 0: no drain nodes, Q, A and W) */
    uint64_t seq, prod[3], mem_prod, addr;
    uint16_t exec_latency;
    uint32_t dtlb_extra, itlb_extra; /* cycles a DTLB / ITLB miss added (0: a hit or no TLB) */
    uint8_t op_class, pool, unit, icache_level, dcache_level, mispredict, uflags, rflags;
    bool continues;
    uint8_t wlevel; /* a store's write: the level that served its line's request */
    bool wmerged;   /* a store's write: the request joined a fill in flight */
    /* constraints from other µops' order (prepared as the µop arrives): a µop index or -1 */
    int64_t iq_src;    /* the µop whose issue freed the IQ entry this one took (issue dependency) */
    uint64_t iq_slack; /* its base weight (the perturbation, graph.c issue_dependency) */
    int64_t lsq_src;   /* the memory µop whose commit freed the LSQ entry (separate queues: the LQ's) */
    int64_t unit_src;  /* the unit's previous user (older in program order) */
    int64_t share_src; /* a load whose L1D fill this one joined */
    int64_t mshr_src;  /* a load whose fill's arrival freed the miss register this one took */
} rps_uop;

/* A µop's store-queue and store-buffer constraints, as µops back (0: none; rps_back): a side
 * record beside each µop's, kept only when the configuration has separate load and store
 * queues or a store buffer (rps_has_side), so that the others' records stay as small as
 * before (the whole run is held with keep=yes). */
typedef struct rps_side {
    uint32_t sq_back;      /* separate queues: the store whose commit freed the SQ entry */
    uint32_t sb_prev_back; /* a store through the buffer: the previous one (its write precedes) */
    uint32_t sb_room_back; /* the store store_buffer such stores older: its write freed the entry */
    uint32_t sb_mshr_back; /* an older load or store whose fill's arrival freed the miss register
                              its request waited for */
    uint32_t wfill;        /* cycles from its line's request to the line being there */
    /* its request joined a fill in flight (PEV_STORE_JOIN): the latest older store through the
     * buffer whose request was at or before that fill's (0: not known), how much before, and the
     * fill's latency (requested to arriving, the L1D's included) */
    uint32_t join_back, join_off, join_lat;
    /* its request waited for a miss register a prefetch's fill held (PEV_FILL): the same, for
     * that fill (0: none) and its level */
    uint32_t pfm_back, pfm_off, pfm_lat;
    uint8_t pfm_level;
} rps_side;

/* µop i's constraint `d` µops back: its index, or -1. */
static inline int64_t rps_back(int64_t i, uint32_t d) { return d ? i - (int64_t)d : -1; }
/* How far back µop j is from i (0: none, or too far to say). */
static inline uint32_t rps_dist(int64_t i, int64_t j) {
    return j >= 0 && j < i && i - j < (int64_t)UINT32_MAX ? (uint32_t)(i - j) : 0;
}

/* A store's write seen before its record reached the trace (a FIFO, in program order). */
typedef struct rps_store_write {
    uint64_t seq, cycle, request; /* the write's cycle, its line's request's */
    uint32_t fill;                /* request to the line being there */
    uint8_t level;
    bool merged;
    bool joined;         /* merged, and the fill joined is known (PEV_STORE_JOIN) */
    uint64_t join_start; /* that fill's request */
    uint32_t join_lat;   /* its latency */
} rps_store_write;

enum { RPS_CHUNK = 4096 }; /* µops per chunk of the collected run (a power of two) */
enum { RPS_FREES = 4096 };

/* A fill that holds an L1D miss register, by the cycle the register frees: µop idx's (a load's
 * or store's), or a prefetch's (no µop: when it started, its latency, the level that served it). */
typedef struct rps_free {
    uint64_t at;
    int64_t idx;
} rps_free;
typedef struct rps_pf_free {
    uint64_t at, start;
    uint32_t lat;
    uint8_t level;
} rps_pf_free;

/* The collected run: µop j (0, 1, … in program order) is U(t, j). Chunks never
 * move. Kept whole (for rps_graph_cycles), or as a ring of the last
 * ring_chunks chunks: the analysis then holds a few segments, not the run. */
struct rps_trace {
    uarch_config cfg;
    rps_uop **chunk;
    rps_side **side;       /* beside each chunk, when rps_has_side (else NULL) */
    size_t chunks;         /* allocated chunk pointers */
    size_t ring_chunks;    /* 0: everything kept; else a power of two */
    uint64_t count;        /* µops added */
    uint64_t first_seq;    /* of µop 0 */
    struct rps_prep *prep; /* the state the constraints are prepared with (graph.c) */
    /* store-buffer writes: every µop below drained_below that is a store through the buffer
     * has its drain node (or never will); writes not yet matched to a record wait in wq */
    uint64_t drained_below;
    uint64_t frozen_below; /* µops of queued segments: no write is added to them any more */
    rps_store_write *wq;
    size_t wq_head, wq_n, wq_cap;
    /* the fills that hold an L1D miss register, by the cycle the register frees (a small
     * direct-mapped table): loads' and stores', for the store whose request waited for one */
    rps_free frees[RPS_FREES];
    /* the prefetches' L1D fills (PEV_FILL), by the cycle they arrive and free their register */
    rps_pf_free pf_frees[RPS_FREES];
    /* the run's totals, accumulated as the µops arrive */
    uint64_t instructions;
    uint64_t fmt_last; /* FMT: the cycle after the last commit so far */
    double fmt[RPS_DIMS];
};

static inline rps_uop *rps_u(const rps_trace *t, int64_t j) {
    uint64_t c = (uint64_t)j / RPS_CHUNK;
    if (t->ring_chunks) c &= t->ring_chunks - 1; /* a power of two */
    return &t->chunk[c][(uint64_t)j % RPS_CHUNK];
}

/* Does the configuration need the side records (separate queues, or a store buffer)? */
static inline bool rps_has_side(const uarch_config *c) { return c->store_buffer || (!c->lsq_size && c->sq_size); }

/* µop j's side record (rps_has_side only). */
static inline rps_side *rps_s(const rps_trace *t, int64_t j) {
    uint64_t c = (uint64_t)j / RPS_CHUNK;
    if (t->ring_chunks) c &= t->ring_chunks - 1;
    return &t->side[c][(uint64_t)j % RPS_CHUNK];
}

/* The cycle store j asked for its line. */
static inline uint64_t rps_wreq(const rps_trace *t, int64_t j) { return rps_u(t, j)->t[N_Q]; }

/* The most events one edge carries: a load's execution (its class, the L2 TLB,
 * the DTLB walk, L1D, L2, memory) — six; an instruction fetch after an ITLB walk
 * five (L1I, L2 TLB, ITLB, L2, memory). */
enum { RPS_WEIGHT_DIMS = 6, RPS_MAX_EDGES = 12 };

/* An edge's weight: base cycles plus up to RPS_WEIGHT_DIMS events. */
typedef struct rps_weight {
    double base;
    int n;
    uint8_t dim[RPS_WEIGHT_DIMS];
    double val[RPS_WEIGHT_DIMS];
} rps_weight;

typedef struct rps_edge {
    int64_t src; /* µop index */
    int node;
    rps_weight w;
} rps_edge;

/* The edges into node v of µop i, the residual included (graph.c); sources
 * older than µop `oldest` are listed but not read (beyond the window). */
int rps_node_edges(const rps_trace *t, int64_t i, int v, int64_t oldest, rps_edge *e, bool *violation);
double rps_weight_total(const rps_weight *w);
/* The run's tail after the last commit (stores draining) split into events: the
 * last store's fill, memory then L2 from the end, the rest base (graph.c). FMT's; and the
 * stacks' when the drain is not in the graph (no store buffer writes seen). */
void rps_tail_weight(const rps_trace *t, double tail, double dims[RPS_DIMS]);
/* A store's write from the store buffer (PEV_STORE_WRITE), fed as it happens. */
void rps_trace_write(rps_trace *t, const rps_store_write *w);
/* A prefetch's L1D fill arrived at `at` (PEV_FILL), requested at `start`, served by `level`. */
void rps_trace_prefetch_fill(rps_trace *t, uint64_t at, uint64_t start, uint8_t level);
/* Is µop u a store through the store buffer (one that gets a drain node)? */
static inline bool rps_sb_store(const rps_trace *t, const rps_uop *u) {
    return t->cfg.store_buffer && (u->uflags & UOP_MEM_WRITE) && !(u->uflags & UOP_MEM_READ);
}
uint32_t rps_window(const uarch_config *c);
/* The modified cosine similarity over the dimensions in `mask` (bit d: dimension d). */
double rps_similarity_masked(const double *a, const double *b, uint32_t mask);
/* One node's reduction on n candidate stacks of D dimensions; the survivors,
 * largest first, into out (room for n). Returns how many. */
uint32_t rps_reduce_vectors(const rps_options *opt, int D, const double *cand, uint32_t n, double *out);
/* The same with the source set of each candidate (as the traversal gives them: two candidates
 * of one source are never compared for dominance); src NULL: each its own source. */
uint32_t rps_reduce_sources(const rps_options *opt, int D, const double *cand, const uint16_t *src, uint32_t n,
                            double *out);

#endif
