/* rpstacks — representative stall-event stacks and latency what-ifs
 * (Lee, Jang, Kim, "RpStacks", MICRO 2014; docs/rpstacks.md).
 *
 * One timing run gives, per committed µop, its stage times, producers and
 * penalty events (the probe contract's uop_record). From them:
 *
 *  1. a dependence graph (Table I): seven nodes per µop (F, I$, D, R, E, P, C),
 *     edges for the constraints the model has, each weighted by a vector of
 *     event penalties (base, L1I, L2/memory for instructions, L1D, L2/memory
 *     for data, and each operation class' latency);
 *  2. one topological traversal per segment (default 5000 µops, segments in
 *     parallel threads) keeping at each node a set of stacks: the paths'
 *     penalty vectors, reduced by dominance, the modified cosine similarity
 *     (threshold 0.7) and uniqueness (§III-C, §IV-D, §IV-E);
 *  3. predictions for any latency vector: each event's penalty scaled by
 *     new / base latency, the max over a segment's stacks, summed over the
 *     segments — and the two comparators of §V-B: CP1 (the baseline's single
 *     critical path, scaled) and FMT (a commit-stall table, scaled).
 *
 * The result is saved as a .rps file (versioned, checksummed; docs/rpstacks.md).
 */
#ifndef CYCLESCOPE_RPSTACKS_H
#define CYCLESCOPE_RPSTACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "isa/isa.h"
#include "probes/probes.h"
#include "uarch/config.h"
#include "util/util.h"

/* ---- events: the dimensions of a stack ------------------------------------------- */

enum {
    RPS_BASE,                          /* cycles no latency knob changes (widths, decode depth, contention, redirect) */
    RPS_L1I,                           /* l1i.latency: every fetch */
    RPS_L2_INSTR,                      /* l2.latency on an instruction fetch that missed L1I */
    RPS_MEM_INSTR,                     /* memory.latency on an instruction fetch that missed L2 */
    RPS_L1D,                           /* l1d.latency: every load */
    RPS_L2_DATA,                       /* l2.latency on a load that missed L1D */
    RPS_MEM_DATA,                      /* memory.latency on a load that missed L2 */
    RPS_CLASS0,                        /* latency.<class> for the classes that are events (rps_class_is_event; load:
                      address generation); the other classes' dimensions stay 0 */
    RPS_DTLB = RPS_CLASS0 + OPC_COUNT, /* dtlb.miss_latency: the page walk of a memory µop's DTLB miss */
    RPS_ITLB,                          /* itlb.miss_latency: the page walk of a fetch's ITLB miss */
    RPS_L2TLB,                         /* l2tlb.latency: a DTLB or ITLB miss that looked in the L2 TLB */
    RPS_DIMS
};

/* Whether operation class cls is an event (RpStacks' list: int mul/div, load address
 * generation, the FP operations); the others' latencies are base. */
bool rps_class_is_event(int cls);
/* Whether dimension dim is an event a what-if can change (not base, not a non-event class). */
bool rps_dim_is_event(int dim);
/* "base", "l1i", "l2-instr", "mem-instr", "l1d", "l2-data", "mem-data", then the class names. */
const char *rps_dim_name(int dim);
/* Whether dimension dim is one of the TLB events (listed only when a run has them). */
bool rps_dim_is_tlb(int dim);
/* The configuration key the dimension scales with ("l2.latency", "latency.fp-add"); NULL for base. */
const char *rps_dim_key(int dim);
/* That key's value in cfg. */
uint32_t rps_dim_latency(const uarch_config *cfg, int dim);

/* ---- options ------------------------------------------------------------------------ */

/* Uniqueness preservation (§V-D's "uniqueness preservation"), two readings of the paper
 * (docs/rpstacks.md, "Uniqueness: two readings of the paper"). The values are those of the
 * .rps file's byte. */
typedef enum rps_unique {
    RPS_UNIQUE_OFF = 0,         /* every similar path merges into the larger */
    RPS_UNIQUE_EVENT = 1,       /* §IV-E: a path with an event no other path has is never merged (default) */
    RPS_UNIQUE_COMBINATION = 2, /* §III-C: paths merge only within their event combination */
} rps_unique;
/* "off", "event", "combination"; NULL for another value. */
const char *rps_unique_name(rps_unique u);
/* name is one of those (or "yes", the event rule; "no", off). */
bool rps_unique_parse(const char *name, rps_unique *out);

typedef struct rps_options {
    uint32_t segment;    /* µops per segment (§III-C; the paper's 5000, §V-D) */
    double similarity;   /* merge threshold of the modified cosine similarity (§IV-E; 0.7, §V-D) */
    rps_unique unique;   /* uniqueness preservation: off, by event (§IV-E), by combination (§III-C) */
    uint32_t threads;    /* segments processed at once (0: the online processors) */
    uint32_t max_stacks; /* per node, after reduction: the largest are kept (a safety cap) */
    double max_scale;    /* the design space: every event's latency from 0 to max_scale × its base;
                          * a path never longer than another there is dropped (0: no bound, the
                          * plain dominance of §III-C) */
} rps_options;

void rps_options_default(rps_options *o);
/* max_scale is 0 or from 1 (the baseline is in the design space) to RPS_MAX_SCALE. */
enum { RPS_MAX_SCALE = 1000 };
/* max_stacks is from 1 to RPS_MAX_STACKS. */
enum { RPS_MAX_STACKS = 4096 };
bool rps_max_scale_ok(double max_scale);

/* ---- the collected run ---------------------------------------------------------------- */

typedef struct rps_trace rps_trace;

uint64_t rps_trace_uops(const rps_trace *t);

/* The analysis as the run goes: committed µops' records go in (program order,
 * PROBE_RETIRE | PROBE_PRODUCERS); each segment is reduced by a pool of
 * threads as soon as its µops are in, and only the µops the segments in work
 * still need are kept (a ring of a few segments), unless keep_run: then the
 * whole run is kept (rps_graph_cycles needs it) and the segments are reduced
 * at the end. */
typedef struct rps_stream rps_stream;
typedef struct rps_result rps_result;

rps_stream *rps_stream_start(const uarch_config *cfg, const rps_options *opt, bool keep_run);
void rps_stream_add(rps_stream *st, const uop_record *r, size_t n);
/* A probe event: a store's write from the store buffer (PEV_STORE_WRITE) becomes its drain
 * nodes; the fill its request joined (PEV_STORE_JOIN, just before) and the prefetches' L1D fills
 * (PEV_FILL) tie its waits to the requests that started those fills; other kinds are ignored. */
void rps_stream_write(rps_stream *st, const probe_event *e);
/* The last segment, the stacks of every segment: *out (once). */
bool rps_stream_finish(rps_stream *st, rps_result *out, cs_error *err);
const rps_trace *rps_stream_trace(const rps_stream *st);
void rps_stream_destroy(rps_stream *st);

/* The dependence graph's longest path with every event's penalty multiplied by
 * scale[dim] (scale[RPS_BASE] is 1), summed over segments of `segment` µops
 * exactly as the stacks are (0: one segment). With all scales 1 it reproduces
 * the simulated cycles (Figure 10's check). No reduction: the upper bound of the
 * stacks' accuracy. NAN when the run was not kept (rps_stream_start). */
double rps_graph_cycles(const rps_trace *t, uint32_t segment, const double scale[RPS_DIMS]);

/* ---- the result -------------------------------------------------------------------- */

enum { RPS_MAX_ARGS = 64, RPS_MAX_SETS = 64, RPS_TEXT = 512 };

/* What ran, so that `whatif --verify` can run it again with other latencies. */
typedef struct rps_origin {
    char config[RPS_TEXT]; /* configuration name or path */
    int set_count;
    char sets[RPS_MAX_SETS][128]; /* --set overrides, in order */
    uint64_t warmup, max;
    bool is_trace; /* argv[0] is a trace file, else a program and its arguments */
    int argc;
    char *argv[RPS_MAX_ARGS];
    /* a program's guest options (version 4; before: all 0): the run is repeated with the same
     * ones. The environment is always the fixed one (--env-fixed), so that it does not depend
     * on where whatif runs it. */
    uint64_t seed;         /* --seed; 0: the emulator's fixed default */
    uint64_t guest_memory; /* --guest-memory; 0: the default */
    bool host_time, strict_syscalls;
    char allow_write[RPS_TEXT]; /* --allow-write DIR (absolute); "": none */
    /* what a program read of its stdin when that was a file (version 5; before, and for a pipe,
     * a terminal or a trace: unknown): whatif --verify refuses a stdin without those bytes */
    bool stdin_known;
    uint64_t stdin_bytes;
    uint8_t stdin_sha256[CS_SHA256_BYTES];
} rps_origin;

typedef struct rps_result {
    rps_options opt;
    rps_origin origin;
    uint32_t base_latency[RPS_DIMS];     /* the configuration's latency of each dimension */
    uint64_t instructions, uops, cycles; /* the simulated run */
    uint64_t drain_cycles;               /* of those, after the last commit (stores draining; not saved) */
    uint64_t commit_cycles;              /* cycles 0 … the last commit (not saved) */
    bool drain_in_graph;                 /* the drain after the last commit is the stores' drain nodes (not saved) */
    double graph_cycles;                 /* the graph's longest path, summed over segments */
    /* how faithful the graph is */
    uint64_t violations;    /* nodes whose modelled constraints ran past the simulated time */
    uint64_t dropped_edges; /* constraints further back than the window */
    uint64_t capped_nodes;  /* nodes whose stack set hit max_stacks */
    double seconds;         /* the analysis (not the simulation), wall clock */
    double cpu_seconds;     /* the same, processor time of all its threads */
    uint32_t segments;
    uint32_t *seg_first;  /* segments + 1 offsets into stacks */
    uint32_t stack_count; /* all segments' stacks */
    double *stacks;       /* stack_count × RPS_DIMS */
    double cp1[RPS_DIMS]; /* the single critical path of the baseline graph (per segment, summed) */
    double fmt[RPS_DIMS]; /* the commit-stall table (FMT), summing to the cycles */
} rps_result;

void rps_result_free(rps_result *r);

/* ---- predictions ---------------------------------------------------------------------- */

/* The scales of a latency vector: lat[dim] = the new latency of each dimension
 * (base ignored). False with *err when a latency whose base is 0 is changed. */
bool rps_scales(const rps_result *r, const uint32_t lat[RPS_DIMS], double scale[RPS_DIMS], cs_error *err);
/* Predicted cycles. */
double rps_predict(const rps_result *r, const double scale[RPS_DIMS]);
/* Whether any stack, the CP1 path or the FMT table of r has cycles in dimension dim. */
bool rps_dim_used(const rps_result *r, int dim);
double rps_predict_cp1(const rps_result *r, const double scale[RPS_DIMS]);
double rps_predict_fmt(const rps_result *r, const double scale[RPS_DIMS]);

/* The largest representative stacks of the whole run: stack k of each segment's
 * stacks sorted by total, summed over segments (k < n). out: n × RPS_DIMS. */
void rps_largest_paths(const rps_result *r, int n, double *out);

/* ---- what-if keys ------------------------------------------------------------------ */

/* Apply "section.key=value" to lat[] (the latency of each dimension). Refuses
 * a key that is a structure (a valid configuration key that is not a latency
 * the stacks carry) and a key that is no configuration key, naming it. */
bool rps_set_latency(const rps_result *r, uint32_t lat[RPS_DIMS], const char *assignment, cs_error *err);

/* ---- the .rps file ------------------------------------------------------------------ */

bool rps_write(const char *path, const rps_result *r, cs_error *err);
bool rps_read(const char *path, rps_result *r, cs_error *err);
/* Parse a file's bytes (the fuzz target's entry). */
bool rps_parse(const uint8_t *data, size_t size, rps_result *r, cs_error *err);

/* ---- reports ------------------------------------------------------------------------- */

void rps_text(const rps_result *r, FILE *out);
/* The reduction options an .rps was made with, one line: "segment 5000, similarity 0.70,
 * uniqueness event, max 64 stacks per node, design space latencies 0-4× the baseline's". */
void rps_options_line(const rps_options *o, char *line, size_t size);

/* The runner's analysis "rpstacks" (runner/registry.c): its result after the run (NULL before or
 * when it failed), and its collected records. */
rps_result *rps_analysis_result(void *self);
const rps_trace *rps_analysis_trace(void *self);

#endif
