/* profile — shared between the sampler, the analysis and the renderings. */
#ifndef CYCLESCOPE_PROFILE_INTERNAL_H
#define CYCLESCOPE_PROFILE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

/* An open-addressing map from a 64-bit key (a pc, or a pair folded) to a
 * slot index; slots hold the key and the caller's payload index. */
typedef struct u64map {
    uint64_t *keys;
    uint32_t *vals; /* index + 1; 0: empty */
    size_t cap, n;
} u64map;

static inline uint64_t u64map_hash(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

static inline void u64map_free(u64map *m) {
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->n = 0;
}

/* The index stored for `key`, or -1. */
static inline long u64map_get(const u64map *m, uint64_t key) {
    if (!m->cap) return -1;
    for (size_t i = u64map_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->vals[i]) return -1;
        if (m->keys[i] == key) return (long)m->vals[i] - 1;
    }
}

static inline void u64map_put_raw(uint64_t *keys, uint32_t *vals, size_t cap, uint64_t key, uint32_t val) {
    size_t i = u64map_hash(key) & (cap - 1);
    while (vals[i]) i = (i + 1) & (cap - 1);
    keys[i] = key;
    vals[i] = val;
}

/* Store index `val` for a key not yet in the map. */
static inline void u64map_put(u64map *m, uint64_t key, uint32_t val) {
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 1024;
        uint64_t *keys = cs_calloc(cap, sizeof *keys);
        uint32_t *vals = cs_calloc(cap, sizeof *vals);
        for (size_t i = 0; i < m->cap; i++)
            if (m->vals[i]) u64map_put_raw(keys, vals, cap, m->keys[i], m->vals[i]);
        free(m->keys);
        free(m->vals);
        m->keys = keys;
        m->vals = vals;
        m->cap = cap;
    }
    u64map_put_raw(m->keys, m->vals, m->cap, key, val + 1);
    m->n++;
}

/* Sorted arrays keyed by the uint64_t in their first member (a pc, or an
 * edge's source): the index of the first element whose key is >= key (n when
 * none). One binary search for the profile's pcs, the truth's pcs and edges
 * and a procedure's instructions. */
_Static_assert(offsetof(profile_pc, pc) == 0, "profile_pc is keyed by its first member");
_Static_assert(offsetof(truth_pc, pc) == 0, "truth_pc is keyed by its first member");
_Static_assert(offsetof(truth_edge, from) == 0, "truth_edge is keyed by its first member");
_Static_assert(offsetof(profile_insn, pc) == 0, "profile_insn is keyed by its first member");
static inline size_t pc_lower_bound(const void *base, size_t n, size_t stride, uint64_t key) {
    const unsigned char *b = base;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t k;
        memcpy(&k, b + mid * stride, sizeof k);
        if (k < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The profile's counts at pc, or NULL. */
static inline const profile_pc *profile_samples_at(const profile_data *prof, uint64_t pc) {
    size_t i = pc_lower_bound(prof->pcs, prof->npcs, sizeof *prof->pcs, pc);
    return i < prof->npcs && prof->pcs[i].pc == pc ? &prof->pcs[i] : NULL;
}

/* The truth at pc, or NULL. */
static inline const truth_pc *profile_truth_at(const profile_truth *t, uint64_t pc) {
    size_t i = pc_lower_bound(t->pcs, t->npcs, sizeof *t->pcs, pc);
    return i < t->npcs && t->pcs[i].pc == pc ? &t->pcs[i] : NULL;
}

/* In-order, a sample at which no µop waits to issue (sampler.c): DCPI's
 * sample names the next instruction to issue, so the sampler and the static
 * schedule charge such a cycle to the next µop that waits there. */
struct sample_view;
bool profile_frontend_bubble(const struct sample_view *sv);

/* Frequency equivalence classes of p's blocks and edges (cfg.c): sets
 * p->blocks[].eclass, p->edges[].eclass and p->nclasses. */
void profile_classes(profile_proc *p);

/* One issue point's ratio Si/Mi (num = samples, den = cycles of schedule),
 * and the frequency of a class from them (analysis.c, DCPI §6.1.3). */
typedef struct profile_ratio {
    double num, den, r;
    uint32_t segment; /* commit slots: the run of the class' points it lies in, between calls (below) */
} profile_ratio;
typedef struct profile_cluster {
    double freq;        /* samples per cycle of schedule: executions / period */
    double samples;     /* the samples of the points kept */
    double cycles;      /* and their cycles of schedule (freq = samples / cycles) */
    double spread;      /* the cluster's max ratio / min ratio */
    size_t used;        /* issue points in the cluster */
    size_t first;       /* index of its smallest ratio in the sorted ratios */
    size_t dropped_low; /* members left out below the estimate (an Mi too large, or the estimate too high) */
    size_t kept;        /* issue points whose samples make the estimate (the cluster's, less those left out) */
    bool low_split;     /* members were found below the others beyond noise and the cluster stayed split:
                           those few left out (dropped_low), or the others left out of an estimate made from them */
    double dispersion;  /* chi^2 / (kept - 1) of the kept ratios about the estimate, on Poisson errors (1: one kept) */
    double grouping;    /* the samples' variance over their count beyond independent samples: commit-cycle
                           slot-samples come in groups, one a sample cycle (set by the caller; <= 1: none) */
    double cut_shift;   /* how far the estimate would move, in its own sigmas, were the points above the cluster
                           that agree with it within CLIP_SIGMAS pooled with it (0: none) */
    size_t repooled;    /* points above the cut pooled back in because the cut went through the noise
                           (cut_shift > CUT_SIGMAS): the estimate is theirs and the cluster's together */
    size_t rival;       /* points above the cluster that make a cluster of their own (the 1.5x rule from the
                           lowest of them): as many as kept, and the ratios cannot say which is unstalled */
} profile_cluster;
bool profile_cluster_estimate(profile_ratio *rs, size_t n, double max_samples, profile_cluster *out);
/* Commit slots: F from the class' points pooled (Σ retiring samples / Σ Mi), less the segments
 * (rs[].segment: a block of the class, or its points after a call in a block) whose samples are
 * below the pool's beyond SEGMENT_SIGMAS of their sampling error (Poisson x `grouping`), worst
 * first, re-pooled each time: a call that did not return (a run cut in a recursion, exit, abort,
 * longjmp) ran what follows it fewer times than the class says. out->dropped_low counts the
 * segments left out (analysis.c). */
void profile_pool_retiring(profile_ratio *rs, size_t n, double grouping, profile_cluster *out);
/* The confidence of a class' estimate from its cluster (DCPI §6: "a function of the
 * number of issue points used to compute the estimate, how tightly the ratios of the issue
 * points were clustered, ... and the magnitude of the estimate"; analysis.c). */
uint8_t profile_cluster_confidence(const profile_cluster *cl);

/* Whether `samples` at an instruction exceed `expect` = F x Mi by more than
 * sampling noise: a one-sided test at the 3 sigma level (0.135%), on the
 * samples' own law — Poisson at a mean that is itself an estimate of variance
 * `expect_var` (F x Mi is no more certain than F), a negative binomial — and
 * beyond 3 sigma of its Gaussian approximation. */
bool profile_stall_significant(double samples, double expect, double expect_var);

/* In-order machines: lower low-confidence classes where a block and the sum
 * of its in- or out-edges disagree beyond 10% and the sampling error their
 * count_var give (a dynamic stall only adds samples). points: issue points
 * each class' estimate used (analysis.c). */
void profile_lower_to_flow(profile_proc *p, const uint32_t *points);
/* In-order machines, after the lowering: a class that still stands on the
 * higher side of a block's flow constraint beyond FLOW_SLACK and 3 sigma of
 * the difference (its estimate inflated by stalls at every issue point, by
 * the heuristic's premise) is marked low confidence; the counts are not
 * changed. Returns the number of classes marked. */
size_t profile_mark_flow_violations(profile_proc *p);
/* The blocks that get a pseudo edge to the exit, one per sink component that never reaches
 * it (cfg.c; *out: cs_calloc'd, the caller frees it). */
size_t profile_sink_blocks(const profile_proc *p, int **out);
/* Commit-slot profiles: the counts nearest the class estimates est[c] (variance est_var[c],
 * CONF_NONE: no estimate) that satisfy every flow constraint, by generalized least squares
 * over the CFG's cycles; each block and edge with a count takes the solution's (its variance
 * and confidence stay). The system is kept in p->flow for profile_flow_interprocedural. false
 * (nothing changed): missing edges, too many cycles, or no estimate (analysis.c). */
bool profile_flow_least_squares(profile_proc *p, const double *est, const double *est_var, const uint8_t *est_conf);

/* Frees the flow system profile_flow_least_squares keeps in p->flow (none: nothing). */
void profile_flow_release(profile_proc *p);
/* A call constraint between procedures: procs[callee]'s entry count is the sum of the counts of
 * the blocks holding its call sites (site_block[s] of procs[site_proc[s]]). */
typedef struct profile_call_constraint {
    size_t callee;
    size_t nsites;
    const size_t *site_proc;
    const uint32_t *site_block;
} profile_call_constraint;
/* What the active-set solve did (analysis.c, flow_solve), for its cost: the least squares
 * solved (steps), the rows added to the factor of the rows held, the rows let go. */
typedef struct profile_flow_stats {
    size_t steps, row_additions, removals;
} profile_flow_stats;
/* Commit slots: the least-squares counts of the procedures solved by profile_flow_least_squares,
 * made to satisfy the call constraints too (each block and edge with a count takes the new
 * solution's); a constraint whose procedures are not all solved, or whose counts are not all
 * known, is left out. Returns the number of constraints used (analysis.c); `stats` (NULL: not
 * wanted) is added to. */
size_t profile_flow_interprocedural(profile_proc *procs, size_t nprocs, const profile_call_constraint *cons,
                                    size_t ncons, profile_flow_stats *stats);

/* The static schedule of one block (schedule.c): Mi per instruction, with the
 * reason and the older instruction (index in the block, -1 none) of a static stall. */
typedef struct sched_model sched_model;
sched_model *sched_create(const char *config_text, cs_error *err);
/* What runs before a block in a schedule: the last instructions of a
 * predecessor, or a generic stand-in. */
typedef struct sched_context {
    const profile_insn *insns;
    size_t n;
} sched_context;
/* Mi of each instruction after ctx[0]; varies[i] = 1 when Mi differs after
 * another of the contexts (such issue points are not used); m_each (NULL, or
 * nctx x n) gets Mi after every context: m_each[c * n + i]. */
bool sched_block(sched_model *s, const profile_insn *insns, size_t n, const sched_context *ctx, size_t nctx,
                 uint32_t *m, uint8_t *reason, int *culprit, uint8_t *varies, uint32_t *m_each, cs_error *err);
size_t sched_generic_contexts(sched_context out[4], profile_insn storage[3]);
void sched_destroy(sched_model *s);
/* The machine's properties the culprit rules need. */
typedef struct sched_machine {
    bool inorder;
    bool bpred_none;    /* every control transfer stalls fetch: mispredicts are static */
    bool bpred_perfect; /* never wrong */
    bool icache_perfect, dcache_perfect;
    bool store_buffer; /* committed stores drain through a store buffer that can fill */
    bool dtlb;         /* a DTLB is modelled (its misses delay memory instructions) */
    uint32_t icache_line;
    uint32_t miss_cost;    /* cycles a miss from memory costs at most */
    uint32_t depth;        /* instructions between fetch and the head of issue (window for frontend stalls) */
    bool long_latency[32]; /* per op_class: latency > 1 */
    bool shared_unit[32];  /* per op_class: can wait for a busy unit */
    uint32_t commit_width; /* ooo: µops committed per cycle at most (W) */
    bool commit_slot;      /* the profile's samples are commit slots, commit-slot or commit-cycle (set by the
                              analysis, not the schedule) */
} sched_machine;
void sched_machine_of(const sched_model *s, sched_machine *out);

#endif
