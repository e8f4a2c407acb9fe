/* rpstacks internals shared by its files (graph, file, analysis): the compact
 * per-µop record the graph is built from, and the edges. */
#ifndef CYCLESCOPE_RPSTACKS_INTERNAL_H
#define CYCLESCOPE_RPSTACKS_INTERNAL_H

#include "rpstacks.h"

/* The graph's nodes per µop (Table I's letters; docs/rpstacks.md). */
enum { N_F, N_IS, N_D, N_R, N_E, N_P, N_C, N_COUNT };

typedef struct rps_uop {
    uint64_t t[N_COUNT]; /* simulated time of each node */
    uint64_t seq, prod[3], mem_prod, addr;
    uint16_t exec_latency;
    uint8_t op_class, pool, unit, icache_level, dcache_level, mispredict, uflags, rflags;
    bool continues;
} rps_uop;

struct rps_trace {
    uarch_config cfg;
    rps_uop *u;
    size_t count, cap;
    /* constraints from other µops' order (rps_trace_prepare): an index or -1 */
    bool prepared;
    int64_t *iq_src;    /* the µop whose issue freed the IQ entry this one took (issue dependency) */
    uint64_t *iq_slack; /* its base weight (the perturbation, graph.c issue_dependency) */
    int64_t *lsq_src;   /* the memory µop whose commit freed the LSQ entry */
    int64_t *unit_src;  /* the unit's previous user (older in program order) */
    int64_t *share_src; /* a load whose L1D fill this one joined */
    int64_t *mshr_src;  /* a load whose fill's arrival freed the miss register this one took */
};

enum { RPS_WEIGHT_DIMS = 4, RPS_MAX_EDGES = 12 };

/* An edge's weight: base cycles plus up to four events. */
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

void rps_trace_prepare(rps_trace *t);
/* The edges into node v of µop i, the residual included (graph.c). */
int rps_node_edges(const rps_trace *t, int64_t i, int v, rps_edge *e, bool *violation);
double rps_weight_total(const rps_weight *w);
uint32_t rps_window(const uarch_config *c);
/* The modified cosine similarity over the dimensions in `mask` (bit d: dimension d). */
double rps_similarity_masked(const double *a, const double *b, uint32_t mask);
/* One node's reduction on n candidate stacks of D dimensions; the survivors,
 * largest first, into out (room for n). Returns how many. */
uint32_t rps_reduce_vectors(const rps_options *opt, int D, const double *cand, uint32_t n, double *out);

#endif
