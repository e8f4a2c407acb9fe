/* statmodel — Noonburg's statistical processor models
 * (../shared/papers/statistical-modeling-thesis.md, docs/statmodel.md).
 *
 * A trace is analysed once into a profile (sm_profile): instruction numbers
 * (type and dependent instruction distances, §3.2), the statistical flow graph
 * of overlapping instruction windows with successor counts (Ch. 5), per
 * instruction number the mispredictions of each predictor (Ch. 6) and the
 * I-/D-cache stack-distance histograms (Ch. 7). Machines are then modelled
 * from the profile alone as Markov chains: the one-pipe machine of §3.4 as one
 * monolithic chain, the three-pipe machine of §3.5 as the partitioned chains of
 * Ch. 4/5 and Appendix B, solved by iterative relaxation. Each chain is built
 * by exploring the states reachable from an empty machine, pruning
 * transitions below SM_PRUNE (Table 9.1), and solved by Gauss-Seidel.
 */
#ifndef CYCLESCOPE_STATMODEL_H
#define CYCLESCOPE_STATMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/trace.h"
#include "uarch/config.h"
#include "util/util.h"

/* Instruction types (§3.2); branches execute in the integer pipe. */
enum { SM_INT = 0, SM_FP = 1, SM_MEM = 2, SM_BR = 3, SM_TYPES = 4 };
/* The three pipes' dependence classes: int (with branches), fp, mem. */
enum { SM_PIPES = 3 };
/* s_max = 5 (§3.5: the FP pipe's depth). Integer distances are kept up to 1
 * (§5.2: enough for a one-stage integer pipe). */
enum { SM_SMAX = 5, SM_SMAX_INT = 1 };
/* Stack-distance bins (§7.3): < 2^6, [2^6, 2^7) … [2^13, 2^14), >= 2^14. */
enum { SM_SD_FIRST_LOG2 = 6, SM_SD_BINS = 10 };
/* Predictors analysed (Ch. 6): the static "loop" predictor and bimodal tables
 * of 2^6 … 2^12 counters. "none" and "perfect" need no statistics. */
enum { SM_BIMODAL_MIN_BITS = 6, SM_BIMODAL_MAX_BITS = 12, SM_PRED_STATIC = 0, SM_PREDS = 8 };
enum { SM_PRED_NONE_MODEL = -2, SM_PRED_PERFECT_MODEL = -1 };
/* Value prediction (Ch. 8): VPT = CT of 128, 256, 512 entries (§8.3). */
enum { SM_VP_NONE = 0, SM_VP_RIGHT = 1, SM_VP_WRONG = 2, SM_VP_SIZES = 3 };
extern const uint32_t sm_vp_sizes[SM_VP_SIZES];
#define SM_DEFAULT_MAX_STATES 4000000ull
/* Pruning threshold for transition probabilities (Table 9.1: 10^-10). */
#define SM_PRUNE              1e-10

/* One instruction number: every dynamic instruction with these parameters. */
typedef struct sm_instr {
    uint8_t y;                  /* SM_INT … SM_BR; in the one-pipe graph 0 non-branch, 1 branch */
    uint8_t s[SM_PIPES];        /* distances per dependence class; one-pipe graph: s[0] only */
    uint8_t v[SM_PIPES];        /* value-prediction graphs (Ch. 8): the nearest dependence's source
                                 * value SM_VP_NONE (not predicted), SM_VP_RIGHT or SM_VP_WRONG */
    uint16_t addr;              /* §5.5: the low-order bits of the static address (pc / 2, rv64gc's
                                 * instruction granule) shared by its instances; 0 without them */
    uint64_t count;             /* dynamic instances */
    uint64_t mispred[SM_PREDS]; /* mispredicted instances per analysed predictor */
    uint64_t ilookups;          /* I-cache lookups (the first instruction of a line run) */
    uint64_t ihist[SM_SD_BINS];
    uint64_t dhist[SM_SD_BINS]; /* loads/stores */
} sm_instr;

/* A statistical flow graph: nodes are windows of `window` consecutive
 * instruction numbers; node position `offset` is the node's "first"
 * instruction (Ch. 5: window 2, offset 0; the Ch. 4 type windows of the worked
 * example: window 6, offset 2). A successor is the window one instruction on. */
typedef struct sm_graph {
    uint32_t window, offset;
    uint32_t ninstr;
    sm_instr *instr;
    uint32_t nnode;
    uint32_t *node_instr; /* nnode * window */
    uint32_t first;       /* the node the trace starts in */
    uint32_t *edge_start; /* nnode + 1 */
    uint32_t *edge_to;
    uint64_t *edge_count;
} sm_graph;

/* The analysis of one trace. */
enum { SM_SOURCE_PROGRAM = 0, SM_SOURCE_TRACE = 1 };
typedef struct sm_profile {
    /* What was analysed, so that --compare-sim can time the same µops: a
     * program and its arguments (separated by newlines) or a trace path. */
    uint32_t source_kind;
    char source[1024];
    uint64_t instructions; /* µops analysed: the thesis' instructions */
    /* The source's instructions (µops without UOP_CONTINUES) those µops make up: what
     * --compare-sim times (a ChampSim-derived trace can split an instruction; version 5). */
    uint64_t source_instructions;
    uint32_t btb_entries, ras_entries; /* of the predictors analysed */
    uint32_t line;                     /* cache block bytes (16, §7.1) */
    /* §5.5 (Figure 5.9): n_addr low-order address bits in the three-pipe and
     * value-prediction graphs' instruction numbers (0: none, as Ch. 5-8). */
    uint32_t addr_bits;
    /* The analysis was interrupted (Ctrl-C): the profile covers only the first
     * `instructions` µops of the source, not the run asked for (version 4). */
    bool partial;
    /* The program ran with the fixed environment of --env-fixed (version 5). */
    bool env_fixed;
    /* The program's --seed (AT_RANDOM, getrandom; 0: the default), which --compare-sim
     * gives it again (version 6; older profiles read as 0). */
    uint64_t seed;
    /* The SHA-256 of the program's executable or of the trace file, so that --compare-sim
     * refuses a file replaced since (version 7; all zero: not recorded, older profiles). */
    uint8_t source_sha256[32];
    /* What the program read of its stdin, so that --compare-sim can tell whether its re-run
     * is given the same (version 8): known when stdin was a regular file (< FILE), whose
     * offset the program's reads moved by stdin_bytes; then their SHA-256. Unknown: a pipe,
     * a terminal, a trace, an older profile. */
    bool stdin_known;
    uint64_t stdin_bytes;
    uint8_t stdin_sha256[32];
    sm_graph one;   /* one-pipe instruction numbers (§3.4) */
    sm_graph three; /* three-pipe instruction numbers (§3.5, Ch. 5) */
    /* Ch. 8: three-pipe graphs whose instruction numbers carry value-prediction
     * flags, one per table size; nnode 0 when the µops carried no results. */
    sm_graph vp[SM_VP_SIZES];
    /* Parallelism of the trace itself (Ch. 2 style): how many instructions of
     * each type, and the distribution of the one-pipe distance. */
    uint64_t type_count[SM_TYPES];
    uint64_t dist_hist[SM_SMAX + 1];
    uint64_t branches, mispred[SM_PREDS];
    uint64_t ilookups, dacc, ihist[SM_SD_BINS], dhist[SM_SD_BINS];
} sm_profile;

typedef struct sm_analyze_options {
    uint64_t max;               /* instructions (µops without UOP_CONTINUES) to analyse; 0: all */
    uint64_t expected;          /* the source's instruction count when known (a trace's): the progress bar's total */
    const char *progress_label; /* NULL: no progress bar */
    uint32_t window;            /* three-pipe graph window (default 2, Ch. 5) */
    uint32_t addr_bits;         /* §5.5: address bits in the three-pipe instruction numbers (0..SM_ADDR_BITS_MAX) */
    uint32_t source_kind;
    const char *source; /* see sm_profile.source */
} sm_analyze_options;

/* Figure 5.9 tried 2, 4, 6 and 8 address bits. */
enum { SM_ADDR_BITS_MAX = 12 };

/* The thesis type of an op class (configs/inorder3.ini's pipes). */
int sm_type_of_class(unsigned cls);
/* Analyse the µops of src. NULL with *err on a source error. A stop request
 * (cs_stop_request, Ctrl-C) ends the analysis at an instruction's first µop;
 * the profile of what ran is then returned with `partial` set. */
sm_profile *sm_analyze(uop_source *src, const sm_analyze_options *opt, cs_error *err);
void sm_profile_free(sm_profile *p);

/* Build a graph from a stream of instruction numbers (tests, the worked
 * examples): ids[0..n-1] index instr[] (copied); the stream wraps around (the
 * thesis' "fragment repeated"). */
bool sm_graph_from_stream(sm_graph *g, const sm_instr *instr, uint32_t ninstr, const uint32_t *ids, size_t n,
                          uint32_t window, uint32_t offset, cs_error *err);
void sm_graph_free(sm_graph *g);

/* The profile file (docs/statmodel.md): versioned, CRC-32 checked. Version 3
 * added the §5.5 address bits, version 4 the flags (partial), version 6 the
 * program's seed, version 8 what it read of stdin; versions 2 to 7 are still read
 * (no bits, no flags, seed 0, stdin unknown). */
enum { SM_FILE_VERSION = 8, SM_FILE_VERSION_OLDEST = 2 };
/* The file's u32 flags. ENV_FIXED (version 5): the program ran with --env-fixed's
 * environment, so --compare-sim gives it the same one. STDIN_KNOWN (version 8): what the
 * program read of stdin is recorded (sm_profile.stdin_known). */
enum { SM_FLAG_PARTIAL = 1, SM_FLAG_ENV_FIXED = 2, SM_FLAG_STDIN_KNOWN = 4 };
bool sm_profile_save(const sm_profile *p, const char *path, cs_error *err);
sm_profile *sm_profile_load(const char *path, cs_error *err);
sm_profile *sm_profile_parse(const uint8_t *data, size_t size, cs_error *err);

/* ---- models ---- */

typedef struct sm_component {
    char name[16];
    uint64_t states_before; /* states reached before pruning (every transition followed) */
    uint64_t states;        /* after pruning at SM_PRUNE */
    uint64_t transitions;
    uint32_t iterations; /* Gauss-Seidel sweeps (last relaxation round) */
} sm_component;

enum { SM_MAX_COMPONENTS = 5, SM_ISSUE_MAX = 4 };

typedef struct sm_result {
    double ipc;
    double issue_dist[SM_ISSUE_MAX + 1]; /* fraction of cycles issuing k */
    double fetch_occ[3], issue_occ[3];   /* buffer occupancy distributions */
    double pipe_occ[SM_PIPES][8];        /* three-pipe: instructions in each pipe */
    uint32_t ncomp;
    sm_component comp[SM_MAX_COMPONENTS];
    uint32_t relax_iterations;
    double seconds;
} sm_result;

typedef struct sm_machine {
    bool three;               /* the three-pipe machine (else the one-pipe) */
    uint32_t depth[SM_PIPES]; /* one-pipe: depth[0] */
    int pred;                 /* SM_PRED_NONE_MODEL, SM_PRED_PERFECT_MODEL, or an analysed predictor index */
    int icache_blocks;        /* -1 perfect; else a power of two, 64 … 16384 */
    int dcache_blocks;
    uint32_t miss_latency;
    uint64_t max_states; /* per component; 0: 4 M */
    int pipe_index[SM_PIPES];
    int vp;
    /* 0: no value prediction; k + 1: tables of sm_vp_sizes[k] entries */ /* the configuration's pipe serving each type (its statistics' index) */
} sm_machine;

/* Translate a uarch configuration into the machine the models express, or say
 * what is not modelled. */
bool sm_machine_from_config(const uarch_config *cfg, const sm_profile *p, sm_machine *m, cs_error *err);
/* Pipe depths within the distances a profile holds (one pipe: 1 to SM_SMAX + 1 stages;
 * three pipes: integer 1 to SM_SMAX_INT, FP and memory 1 to SM_SMAX). sm_machine_from_config
 * checks them, so that a depth is refused with the configuration's other values, before
 * anything is solved; the solvers check again for machines built by hand. */
bool sm_machine_depths_modelled(const sm_machine *m, cs_error *err);

/* The models. One-pipe: the monolithic chain (§3.4). Three-pipe: the
 * partitioned chains (Ch. 4/5, Appendix B). */
bool sm_solve(const sm_profile *p, const sm_machine *m, sm_result *r, cs_error *err);
bool sm_solve_onepipe(const sm_graph *g, const sm_machine *m, sm_result *r, cs_error *err);
bool sm_solve_threepipe(const sm_graph *g, const sm_machine *m, sm_result *r, cs_error *err);

/* ---- the matrix-multiplication model (thesis Ch. 2, §2.4) ----
 * IPC = M_I x P_D x M_F x P_C x m_B: parallelism distributions (vectors,
 * element i = probability that i instructions flow) through parallelism
 * distribution functions (matrices, Y[i][j] = probability of output i given
 * input j). P_C, P_D and M_I are taken from the profile's flow graph, m_B from
 * the predictor's misprediction rate, M_F is the fetch-width limit. Like the
 * thesis' machine it needs one-cycle pipes and no caches. */
enum { SM_MM_N = 8 };       /* parallelism 0 … 7; the last element also holds "7 or more" */
enum { SM_MM_LENGTH = 64 }; /* P_C counts exactly up to this many instructions */
typedef struct sm_matrix_model {
    uint32_t width;           /* fetch = issue width (1: one-pipe, 2: three-pipe) */
    double mispred_rate;      /* mispredicted branches / branches */
    double mispred_per_instr; /* mispredicted branches / instructions */
    double penalty;           /* zero-fetch cycles per misprediction */
    double m_B[SM_MM_N], p_C[SM_MM_N], m_F[SM_MM_N], p_D[SM_MM_N], m_I[SM_MM_N];
    double P_C[SM_MM_N][SM_MM_N], M_F[SM_MM_N][SM_MM_N], P_D[SM_MM_N][SM_MM_N], M_I[SM_MM_N][SM_MM_N];
    double ipc;
} sm_matrix_model;
/* y = Y x (Figure 2.3). */
void sm_pdf_apply(const double Y[SM_MM_N][SM_MM_N], const double x[SM_MM_N], double y[SM_MM_N]);
/* The model on one flow graph: `three` says whether g is the three-pipe graph
 * (types and per-class distances) or the one-pipe graph. */
bool sm_matrix_model_build(const sm_graph *g, bool three, uint32_t width, int pred, double penalty, sm_matrix_model *mm,
                           cs_error *err);
/* The model for a machine (refused with what is not modelled); mm may be NULL. */
/* False, saying what, when the matrix-multiplication model cannot express m
 * (value prediction, caches, multi-cycle pipes: thesis Ch. 2). */
bool sm_matrix_expresses(const sm_machine *m, cs_error *err);
bool sm_solve_matrix(const sm_profile *p, const sm_machine *m, sm_result *r, sm_matrix_model *mm, cs_error *err);

/* ---- the generic chain (exposed for the worked examples) ---- */

typedef struct sm_chain sm_chain;
/* States are opaque byte keys of `key_size` bytes. */
sm_chain *sm_chain_create(size_t key_size);
void sm_chain_free(sm_chain *c);
/* Index of a state, adding it if new. */
uint32_t sm_chain_state(sm_chain *c, const void *key);
/* Look a state up; -1 if absent. */
long sm_chain_find(const sm_chain *c, const void *key);
/* Index the states directly instead of hashing their keys (before the first
 * state; ignored past 2^24 entries): 8-byte keys that are a uint32_t below
 * `nodes` and four bytes each below its radix (the three-pipe components'). A
 * key outside that space is a programming error and aborts. */
void sm_chain_set_dense(sm_chain *c, uint32_t nodes, const uint8_t radix[4]);
const void *sm_chain_key(const sm_chain *c, uint32_t i);
uint32_t sm_chain_count(const sm_chain *c);
/* Add probability p to the transition i -> j (with an "issue" label that the
 * rates are summed by, and a second label for per-transition data). */
void sm_chain_add(sm_chain *c, uint32_t i, uint32_t j, double p, uint8_t label);
/* Transitions out of i. */
uint32_t sm_chain_out(const sm_chain *c, uint32_t i, const uint32_t **to, const double **p, const uint8_t **label);
/* Stationary distribution by Gauss-Seidel (docs/statmodel.md: converged when
 * the residual |dP - d|_1 is below SM_RESIDUAL, just after an aggregation
 * step). False with *err when it does not converge. */
bool sm_chain_solve(sm_chain *c, uint32_t *iterations, cs_error *err);
/* The convergence test's residual |dP - d|_1 (docs/statmodel.md). */
#define SM_RESIDUAL 1e-11
/* The same to a residual of tol (>= SM_RESIDUAL): the early rounds of a
 * relaxation, whose neighbours' distributions are still moving. */
bool sm_chain_solve_tol(sm_chain *c, double tol, uint32_t *iterations, cs_error *err);
const double *sm_chain_dist(const sm_chain *c);
/* Aggregation blocks for the solver (block[i] < nblocks for each state i;
 * ignored unless 2 <= nblocks <= states; one state per block makes the step a
 * direct solve): when Gauss-Seidel is slow and just before the
 * convergence test, the chain between blocks is solved exactly (GTH) and each
 * block rescaled to it. Without them the solver finds its own from sweep 128
 * on: the strongly connected components of the transitions of probability
 * >= SM_PHASE_STRONG. */
/* A set of states left with probabilities below this is an aggregation block. */
#define SM_PHASE_STRONG 1e-3
void sm_chain_set_blocks(sm_chain *c, const uint32_t *block, uint32_t nblocks);
/* Start the next sm_chain_solve from prev's solution, state by state (key),
 * and take prev's elimination plan between blocks (reused if it fits). */
void sm_chain_guess(sm_chain *c, sm_chain *prev);
/* Rescale each state's transitions to sum to 1 (after pruning). */
void sm_chain_normalize(sm_chain *c);
uint64_t sm_chain_transitions(const sm_chain *c);

/* The models keeping their chains, and state names in the thesis' notation
 * (the worked examples). One-pipe: "x_F, x_I, x_P, y0/s0, y1/s1" (Figure 3.6).
 * Three-pipe issue buffer: "y^I, y_p^I, x_I" (Table 4.2; needs window 6,
 * offset 2). */
bool sm_solve_onepipe_keep(const sm_graph *g, const sm_machine *m, sm_result *r, sm_chain **keep, cs_error *err);
void sm_onepipe_describe(const sm_graph *g, const sm_chain *c, uint32_t i, char *buf, size_t n);
bool sm_solve_threepipe_keep(const sm_graph *g, const sm_machine *m, sm_result *r, sm_chain **issue_keep,
                             cs_error *err);
void sm_issue_describe(const sm_graph *g, const sm_chain *c, uint32_t i, char *buf, size_t n);

/* ---- HTML pieces (inline SVG) for the report ---- */

typedef struct sm_html {
    char *text;
    size_t len, cap;
} sm_html;
/* Bars for a distribution: index i on the x axis, modelled (grey) beside
 * simulated (black; sim may be NULL). */
void sm_html_bars(sm_html *b, const char *title, const char *xlabel, int n, const double *model, const double *sim);
/* A sweep: IPC per point, modelled and simulated (sim may be NULL; NaN skips a point). */
void sm_html_curve(sm_html *b, const char *title, int n, const char *const *labels, const double *model,
                   const double *sim);
void sm_html_text(sm_html *b, const char *s); /* escaped */
void sm_html_raw(sm_html *b, const char *s);
void sm_html_free(sm_html *b);

#endif
