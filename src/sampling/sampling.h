/* sampling — basic block vectors and SimPoint phase analysis.
 *
 * After Sherwood, Perelman, Hamerly, Calder, "Automatically Characterizing
 * Large Scale Program Behavior" (ASPLOS 2002) and Hamerly, Perelman, Lau,
 * Calder, "SimPoint 3.0: Faster and More Flexible Program Analysis" (MoBS
 * 2005); docs/simpoint.md.
 *
 *  1. A basic block vector (BBV) per interval of the program (default 10 M
 *     instructions): for each block, the instructions executed in it. Collected
 *     by the emulator's block-counting fast-forward, or from a µop stream.
 *     Written in the SimPoint tools' .bb format, so the reference SimPoint can
 *     read them; read back from ours or another tool's (valgrind exp-bbv).
 *  2. Clustering as SimPoint 3 does: each vector normalised to sum 1, randomly
 *     projected to 15 dimensions, k-means from several seeded random-sample
 *     initialisations, the BIC of each clustering, and the smallest k whose
 *     BIC reaches 90% of the range seen, found by SimPoint's binary search up
 *     to a maximum k. One simulation point per cluster: the interval closest
 *     to its centre; its weight is the cluster's share of the instructions.
 *     Outputs in SimPoint's .simpoints and .weights formats. Deterministic for
 *     a seed.
 *  3. Sampled timing: fast-forward to each point, warm caches and predictors
 *     functionally, time the interval, and combine the statistics and every
 *     CPI stack with the weights.
 */
#ifndef CYCLESCOPE_SAMPLING_H
#define CYCLESCOPE_SAMPLING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/emu.h"
#include "stacks/stacks.h"
#include "trace/trace.h"
#include "uarch/uarch.h"
#include "util/util.h"

enum {
    BBV_FORMAT_VERSION = 1,     /* the "# cyclescope-bbv" header of .bb files we write */
    SIMPOINT_SET_VERSION = 2,   /* simpoint.json; 2 added "end" (version 1 is still read) */
    SIMPOINT_MAX_K = 1000,      /* the largest maximum k accepted */
    SIMPOINT_MAX_DIMS = 100,    /* projection dimensions accepted */
    BBV_MAX_LINE = 1024 * 1024, /* the reference SimPoint's line buffer: longer T lines fail there */
};
#define SAMPLING_DEFAULT_INTERVAL 10000000ull

/* ---- basic block vectors ---------------------------------------------------------- */

typedef struct bbv_entry {
    uint32_t block; /* 1-based block id (the .bb dimension) */
    uint64_t count; /* instructions executed in that block during the interval */
} bbv_entry;

typedef struct bbv_interval {
    uint64_t instructions; /* the sum of its entries' counts */
    size_t first;          /* its entries: entries[first .. first + n) */
    uint32_t n;
} bbv_interval;

typedef struct bbv_profile {
    uint64_t interval;     /* nominal interval length; the last interval may be shorter */
    uint64_t instructions; /* all intervals */
    size_t interval_count;
    bbv_interval *intervals;
    size_t entry_count;
    bbv_entry *entries;
    uint32_t blocks;    /* ids run 1..blocks */
    uint64_t *block_pc; /* [blocks]: first pc of block id i + 1; NULL when unknown (another tool's .bb) */
    char *source;       /* what was profiled, as the file or the collector says; never NULL */
    bool verified;      /* read from a .bb we wrote, checksum verified */
} bbv_profile;

/* Run the program to its end in the block-counting fast-forward, one vector
 * per `interval` instructions. `source` describes the program (kept in the
 * file). A program killed by a signal (a fault, abort()) gives the intervals up to it
 * (emu_state then says EMU_FAILED); fails when nothing ran before it, or when anything
 * else stopped the guest (an unsupported system call: the run could not be done). */
bbv_profile *bbv_collect_emu(emu_t *emu, uint64_t interval, const char *source, cs_error *err);
/* The same, stopping after `max` instructions (the guest then still EMU_RUNNING). */
bbv_profile *bbv_collect_emu_max(emu_t *emu, uint64_t interval, uint64_t max, const char *source, cs_error *err);
/* The same from a µop stream (a .cst trace): a block ends at a control-transfer
 * µop; instructions are µops without UOP_CONTINUES. */
bbv_profile *bbv_collect_source(uop_source *src, uint64_t interval, const char *source, cs_error *err);
void bbv_profile_free(bbv_profile *p);

/* The .bb file (docs/simpoint.md): comment lines, which the SimPoint tools
 * skip, carry our version, the interval, the source, the block pcs and a
 * CRC-32 of the T lines; the T lines are SimPoint's. Written to a temporary
 * file and renamed. */
bool bbv_write(const bbv_profile *p, const char *path, cs_error *err);
/* Read ours (checked: version, CRC, counts) or another tool's .bb (T lines
 * only, integer counts). Errors name the file and line. */
bbv_profile *bbv_read(const char *path, cs_error *err);
bbv_profile *bbv_parse(const char *text, size_t len, const char *name, cs_error *err);

/* ---- SimPoint clustering ------------------------------------------------------------ */

typedef struct simpoint_options {
    uint32_t max_k;       /* largest k searched (SimPoint -maxK; default 30) */
    uint32_t fixed_k;     /* nonzero: cluster with this k only (SimPoint -k N) */
    uint32_t dims;        /* random projection dimensions (-dim; 15) */
    uint32_t seeds;       /* k-means initialisations per k (-numInitSeeds; 5) */
    uint32_t iterations;  /* k-means iteration limit (-iters; 100) */
    double bic_threshold; /* smallest k with BIC >= min + t (max - min) (-bicThreshold; 0.9) */
    uint64_t seed;        /* everything random follows from it */
} simpoint_options;

void simpoint_options_default(simpoint_options *o);
/* Check the options against each other; false with *err naming the option. */
bool simpoint_options_check(const simpoint_options *o, cs_error *err);

typedef struct simpoint_point {
    uint64_t interval; /* 0-based index of the chosen interval */
    uint32_t cluster;  /* its cluster's label (0-based, as SimPoint numbers them) */
    double weight;     /* the cluster's share of the program's instructions */
    uint64_t start;    /* the interval's first instruction (instructions before it) */
    uint64_t length;   /* its instructions */
} simpoint_point;

typedef struct simpoint_trial {
    uint32_t k;
    double bic;        /* of the best of the seeded initialisations */
    double distortion; /* weighted squared distance to the centres */
    uint32_t iterations;
} simpoint_trial;

typedef struct simpoint_result {
    uint32_t k;             /* chosen */
    size_t point_count;     /* non-empty clusters: point_count <= k */
    simpoint_point *points; /* by cluster label */
    uint32_t *labels;       /* [interval_count]: each interval's cluster */
    size_t interval_count;
    size_t trial_count;
    simpoint_trial trials[64]; /* every k tried, in search order */
} simpoint_result;

bool simpoint_cluster(const bbv_profile *p, const simpoint_options *o, simpoint_result *out, cs_error *err);
void simpoint_result_free(simpoint_result *r);

/* The projected, normalised data SimPoint clusters (n x dims, row major) and
 * each interval's weight (its share of the instructions). For tests. */
void simpoint_project(const bbv_profile *p, uint32_t dims, uint64_t seed, double *out, double *weights);
/* SimPoint 3's BIC of a clustering of weighted data (Pelleg and Moore's
 * X-means score with spherical Gaussians). labels[i] < k; centres k x dims. */
double simpoint_bic(const double *data, const double *weights, size_t n, uint32_t dims, const double *centres,
                    uint32_t k, const uint32_t *labels);

/* ---- the simpoint directory: what `simpoint` writes and `run --simpoints` reads ---- */

/* What was profiled: a program (argv) or a trace file. run --simpoints checks
 * that it is given the same thing. */
typedef struct simpoint_identity {
    bool trace; /* a trace file, not a program */
    int argc;   /* program and arguments (trace: the file only) */
    char **argv;
    uint64_t file_size; /* of the executable or the trace */
    uint32_t file_crc;  /* CRC-32 of the whole file */
} simpoint_identity;

/* Fill *id for a program (argv[0] the executable) or a trace; reads the file. */
bool simpoint_identity_of(simpoint_identity *id, bool trace, int argc, char *const *argv, cs_error *err);
void simpoint_identity_free(simpoint_identity *id);
/* False, with *err saying how they differ, if `given` is not what `made` describes. */
bool simpoint_identity_match(const simpoint_identity *made, const simpoint_identity *given, cs_error *err);

/* Files in the directory. */
#define SIMPOINT_BB_FILE       "bbv.bb"
#define SIMPOINT_POINTS_FILE   "bbv.simpoints"
#define SIMPOINT_WEIGHTS_FILE  "bbv.weights"
#define SIMPOINT_MANIFEST_FILE "simpoint.json"

/* How the profiled program ended (simpoint.json's "end"): `run --simpoints` runs it again
 * and ends as it does; this is what the profile saw, to say when the two differ. */
typedef enum simpoint_end_state {
    SIMPOINT_END_UNKNOWN, /* a trace, or a version 1 manifest (which did not record it) */
    SIMPOINT_END_EXITED,  /* exit_code: the program's own status */
    SIMPOINT_END_FAULT,   /* killed by `signal` (a fault, abort()): the intervals end there */
    SIMPOINT_END_STOPPED  /* `simpoint --max` stopped it after `instructions`: a replay stops there too */
} simpoint_end_state;
typedef struct simpoint_end {
    simpoint_end_state state;
    int exit_code; /* EXITED: 0..255 */
    int signal;    /* FAULT: 1..64 */
} simpoint_end;

typedef struct simpoint_set {
    simpoint_identity id;
    simpoint_end end;
    uint64_t interval, instructions, interval_count;
    uint32_t k;
    size_t count;
    simpoint_point *points; /* sorted by start */
    simpoint_options options;
} simpoint_set;

/* Write DIR (created if missing): bbv.bb, bbv.simpoints, bbv.weights and the
 * manifest simpoint.json that ties them together (versioned, checksummed).
 * `end` (NULL: unknown, as for a trace): how the program ended.
 * `header` (may be NULL): members copied first into the manifest (the common
 * provenance header, docs/json-schema.md); the checksum covers them too. */
struct cJSON;
bool simpoint_save(const char *dir, const bbv_profile *p, const simpoint_result *r, const simpoint_options *o,
                   const simpoint_identity *id, const simpoint_end *end, const struct cJSON *header, cs_error *err);
/* Read DIR's manifest, check it and the files it names. */
simpoint_set *simpoint_load(const char *dir, cs_error *err);
/* The same from the manifest's text (for the fuzzer); files are not checked. */
simpoint_set *simpoint_parse_manifest(const char *text, size_t len, const char *name, cs_error *err);
void simpoint_set_free(simpoint_set *s);
/* SimPoint's own formats: "INTERVAL CLUSTER" and "WEIGHT CLUSTER" lines. */
bool simpoint_write_points(const char *path, const simpoint_result *r, cs_error *err);
bool simpoint_write_weights(const char *path, const simpoint_result *r, cs_error *err);

/* ---- sampled timing ---------------------------------------------------------------- */

typedef struct simpoint_timing {
    core_stats stats;     /* the timed interval */
    stacks_result stacks; /* its CPI, IPC and FLOPS stacks */
    uint64_t warmed;      /* instructions of functional warm-up before it */
} simpoint_timing;

/* Where the points' µops come from. */
typedef struct simpoint_stream {
    emu_t *emu;        /* the live program, at its start: fast-forwarded once here,
                          each point timed in a forked copy of it */
    const char *trace; /* or a .cst file: each point opens it and seeks */
} simpoint_stream;

/* Warm caches and predictors through everything before each point. */
#define SIMPOINT_WARM_ALL UINT64_MAX

/* Time every point of `set`. warmup = N: from N instructions before the
 * point (or the start), warm caches and predictors functionally, then time
 * the interval on a fresh core. warmup = SIMPOINT_WARM_ALL: one core is
 * warmed functionally through the whole stream and each point is timed on a
 * copy of it (as if warmed from the start, at the cost of one functional
 * pass). Points are timed in child processes, `jobs` at a time (a child of
 * the emulator is a copy-on-write snapshot with the guest's output silenced:
 * this process gives it once). out[i] is for set->points[i]. Fails, naming
 * the point, if the stream ends before a point or in its first half (a point
 * a little short is timed as it is). The emulator is left at or before the
 * last point. */
bool simpoint_time(const simpoint_set *set, const simpoint_stream *from, const uarch_config *cfg, uint64_t warmup,
                   int jobs, simpoint_timing *out, cs_error *err);

/* The whole-program estimate (SimPoint §: weighted per-instruction rates):
 * every counter X becomes instructions x sum_i weight_i X_i / instructions_i,
 * and so does every stack component; stats->seconds is the sum of the timed
 * parts. */
void simpoint_combine(const simpoint_set *set, const simpoint_timing *pts, core_stats *stats, stacks_result *stacks);

#endif
