/* profile — DCPI-style profiling of a timing run (docs/profile.md): a sampler
 * on the probe contract's sample timer writes a profile file (per-pc CYCLES
 * sample counts, optional event samples, the period, the machine, the
 * executable's identity and the loadmap of the shared libraries it ran); the
 * analysis reads the profile, the executable and those libraries only — as DCPI's did (Anderson et al., "Continuous profiling: where have all
 * the cycles gone?", §6–§7) — and estimates per instruction the execution
 * frequency, its confidence, CPI, static stalls and the culprits of dynamic
 * stalls. A truth file (exact per-pc counts from the same run, true stall
 * causes of every sample) grades the estimates.
 *
 * The sampler is the analysis "profile" of the runner:
 *   profile:file=OUT[:period=P|MIN-MAX][:seed=N][:events=N][:exe=PATH][:truth=PATH]
 */
#ifndef CYCLESCOPE_PROFILE_H
#define CYCLESCOPE_PROFILE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

/* 2: the configuration's source and --set overrides (version 1 had neither
 * and is refused: its header could not say whether --set was used).
 * 3 (truth 2): on an in-order machine a sample at a frontend bubble names the
 * next instruction to issue, as DCPI's did (version 2 named the oldest one in
 * flight; its samples do not match today's static schedule: refused).
 * 4: `runs N` and each run's seed in place of `seed S` — a profile may sum
 * several runs (profile merge, as DCPI accumulates samples across runs);
 * version 3 is read as one run.
 * 5: `sample-point issue-head|commit-slot`, where a CYCLES sample was taken
 * (docs/profile.md "Collection"), and per pc the retiring samples (a fifth column); versions
 * 3 and 4 are read as issue-head, with no retiring samples.
 * 6: the sample point `commit-cycle` (out of order: every slot of a sample cycle), whose pc
 * records carry two more counts, `cycles-sq` and `retiring-width` (the spread of the counts over
 * the sample cycles, for their variance); the other points' records are version 5's.
 * 7: `images N`, the code images the guest mapped besides the executable (the interpreter and
 * the shared libraries: path, host path, identity, load bias, executable ranges), whose pcs are
 * kept as they ran; versions 3 to 6 are read with none. */
enum { PROFILE_VERSION = 7, PROFILE_VERSION_OLDEST = 3, PROFILE_TRUTH_VERSION = 2 };

/* Where a CYCLES sample lands. issue-head: the instruction at the head of the
 * issue stage (DCPI's; in-order machines, and out-of-order ones before profile
 * version 5). commit-slot: out of order, one of the cycle's commit slots drawn
 * at random — a µop committed in it, else the oldest not committed (or after a
 * frontend bubble the next to commit): time-proportional attribution (Gottschall,
 * Eeckhout and Jahre, "TIP: Time-Proportional Instruction Profiling", MICRO 2021).
 * commit-cycle (version 6, the out-of-order default): all W commit slots of the sample cycle —
 * one to each µop committed in it, the W - k lost ones to the oldest not committed (or the next
 * to commit): W slot-samples a sample cycle, which come in groups (not independent). */
typedef enum profile_sample_point {
    PROFILE_POINT_ISSUE_HEAD,
    PROFILE_POINT_COMMIT_SLOT,
    PROFILE_POINT_COMMIT_CYCLE
} profile_sample_point;
/* The sample point hands out commit slots (commit-slot or commit-cycle). */
static inline bool profile_point_is_commit(unsigned point) {
    return point == PROFILE_POINT_COMMIT_SLOT || point == PROFILE_POINT_COMMIT_CYCLE;
}
const char *profile_sample_point_name(profile_sample_point p);

/* The event channels of a profile: CYCLES samples and three event samples. */
/* PROF_RETIRING (version 5): of the CYCLES samples at a pc, those that fell on a commit slot its
 * µop committed in (commit-slot profiles; 0 otherwise) — TIP's "retiring" state, which a
 * time-proportional sample carries (the sampler knows whether the drawn slot was used). */
typedef enum profile_event {
    PROF_CYCLES,
    PROF_IMISS,
    PROF_DMISS,
    PROF_MISPREDICT,
    PROF_RETIRING,
    PROF_EVENT_COUNT
} profile_event;
const char *profile_event_name(profile_event e);

/* DCPI's period: "60K–64K cycles" (Anderson et al. §4). */
enum { PROFILE_DEFAULT_PERIOD_MIN = 60000, PROFILE_DEFAULT_PERIOD_MAX = 64000 };

typedef struct profile_pc {
    uint64_t pc;
    uint64_t count[PROF_EVENT_COUNT];
    /* The spread of the counts over the sample cycles (version 6, commit-cycle; at the other
     * points a sample cycle gives one sample, and these are the counts themselves): the sum
     * over sample cycles of the square of the CYCLES slot-samples the pc got in it — the
     * variance of its CYCLES count, a compound Poisson sum — and the sum over its retiring
     * samples of the µops committed in that cycle, which bounds the variance of a class'
     * retiring samples pooled (its µops commit together: at most that many in one group). */
    uint64_t cycles_sq, retiring_width;
} profile_pc;

/* A code image of the run besides the executable (version 7): the interpreter or a shared
 * library the guest mapped (DCPI's loadmap). Its pcs in the profile and the truth are as they
 * ran: link address + bias. */
typedef struct profile_image {
    char *path;      /* as the guest named it ("/lib/riscv64-linux-gnu/libc.so.6") */
    char *host_path; /* the file the emulator read it from (through the sysroot) */
    uint64_t size;   /* its size in bytes */
    uint64_t hash;   /* FNV-1a 64 of its bytes */
    uint64_t bias;   /* run address - link address */
    size_t nranges;
    uint64_t (*ranges)[2]; /* its executable mappings, [start, end) as run, by address */
} profile_image;

/* A profile as written to / read from a file. */
typedef struct profile_data {
    char *program;        /* the executable's path as recorded */
    uint64_t exe_size;    /* its size in bytes */
    uint64_t exe_hash;    /* FNV-1a 64 of its bytes */
    char *config_name;    /* "inorder1" */
    char *config_source;  /* as given to --config: a name or an .ini file */
    size_t noverrides;    /* the --set overrides applied to it, in order */
    char **overrides;     /* "l1i.size=1024" */
    char *model;          /* "inorder", "ooo" */
    uint8_t sample_point; /* profile_sample_point */
    char *config_text;    /* the resolved configuration (config show's INI) */
    uint64_t period_min;  /* CYCLES period drawn uniformly from [min, max] */
    uint64_t period_max;
    uint64_t seed;         /* the (first) run's sampling seed */
    size_t nruns;          /* runs summed in the profile; 0 reads as 1 (the run of `seed`) */
    uint64_t *run_seeds;   /* each run's seed (nruns of them; NULL when nruns is 0) */
    uint64_t event_period; /* every Nth event of each kind is sampled; 0: no event samples */
    uint64_t cycles;       /* cycles of the measured run(s) */
    uint64_t instructions;
    uint64_t samples;      /* CYCLES samples taken */
    uint64_t idle_samples; /* of which the window was empty (no pc) */
    size_t nimages;
    profile_image *images; /* the other code images (version 7; none before) */
    size_t npcs;
    profile_pc *pcs; /* sorted by pc */
} profile_data;

/* The image whose executable ranges hold the run address pc, or -1 (the executable, or no image). */
long profile_image_of(const profile_data *p, uint64_t pc);
/* The image's name in reports: the last part of its path ("libc.so.6"). */
const char *profile_image_name(const profile_image *img);

void profile_data_free(profile_data *p);
/* Write `p` to `path` (versioned, checksummed text; docs/profile.md). */
bool profile_write(const char *path, const profile_data *p, cs_error *err);
/* The same into a temporary beside `path`, left in *out: cs_output_commit puts it in place,
 * cs_output_discard removes it (*out is empty after a failure). */
bool profile_write_staged(const char *path, const profile_data *p, cs_output *out, cs_error *err);
/* Parse a profile; errors name `name`. */
bool profile_parse(const uint8_t *data, size_t size, const char *name, profile_data *out, cs_error *err);
bool profile_read(const char *path, profile_data *out, cs_error *err);
/* Where the program `recorded` in the profile at `profile_path` is now (allocated): the
 * recorded path when it exists (absolute since 2026-11-27), else under the profile's directory
 * each tail of it, longest first (a relative path recorded elsewhere; a tree moved with the
 * profile in it; at last its name beside the profile). NULL when none exists. Only a place
 * to look: the size and hash recorded stay the check that it is the program. */
char *profile_locate_program(const char *profile_path, const char *recorded);
/* Add the profile `next` (read from `name`) to `acc`: another run of the same
 * executable on the same machine (resolved configuration, model, period and
 * event period alike) with another sampling seed; per-pc counts, cycles,
 * instructions and samples summed (DCPI accumulates samples across runs; the
 * paper's accuracy study compares one run with 80). A mismatch is an error naming `name`, and `acc`
 * is left as it was. */
bool profile_merge(profile_data *acc, const profile_data *next, const char *name, cs_error *err);
/* "inorder3", or "inorder3 with --set l1i.size=1024 --set …": the machine as
 * the text and HTML outputs name it (cs_malloc'd). */
char *profile_config_label(const profile_data *p);
/* FNV-1a 64 of a file's bytes and its size. */
bool profile_hash_file(const char *path, uint64_t *hash, uint64_t *size, cs_error *err);

/* ---- truth (for grading) ------------------------------------------------------ */

/* True causes of a CYCLES sample, from the simulator's sample view. */
#define PROFILE_CAUSE_LIST(X)                                                              \
    X(TC_NONE, "none")                 /* issuing, or behind an older one in the group */  \
    X(TC_DEPENDENCY, "dependency")     /* waiting for a short-latency producer */          \
    X(TC_LONG_LATENCY, "long-latency") /* waiting for a multi-cycle producer */            \
    X(TC_DCACHE, "dcache-miss")        /* a producer / the pipe waits for a D-miss */      \
    X(TC_ICACHE, "icache-miss")                                                            \
    X(TC_MISPREDICT, "mispredict")                                                         \
    X(TC_BUSY_UNIT, "busy-unit")                                                           \
    X(TC_FRONTEND, "frontend")         /* fetch bandwidth or refill with no miss */        \
    X(TC_STORE_BUFFER, "store-buffer") /* a done store waits for a full store buffer */    \
    X(TC_DTLB, "dtlb-miss")            /* a producer / the µop waits for its DTLB miss */ \
    X(TC_OTHER, "other")

typedef enum profile_cause {
#define PROFILE_CAUSE_ENUM(id, name) id,
    PROFILE_CAUSE_LIST(PROFILE_CAUSE_ENUM)
#undef PROFILE_CAUSE_ENUM
        TC_COUNT
} profile_cause;
const char *profile_cause_name(profile_cause c);

typedef struct truth_pc {
    uint64_t pc;
    uint64_t executions;
    uint64_t cause[TC_COUNT]; /* the CYCLES samples at this pc by true cause */
} truth_pc;

typedef struct truth_edge {
    uint64_t from, to; /* a non-sequential transfer: pc -> next pc */
    uint64_t count;
} truth_edge;

typedef struct profile_truth {
    uint64_t exe_hash;
    size_t npcs;
    truth_pc *pcs; /* sorted by pc */
    size_t nedges;
    truth_edge *edges; /* sorted by (from, to) */
} profile_truth;

void profile_truth_free(profile_truth *t);
bool profile_truth_write(const char *path, const profile_truth *t, cs_error *err);
bool profile_truth_write_staged(const char *path, const profile_truth *t, cs_output *out, cs_error *err);
/* The sampler (the analysis "profile", `self` from run_result_analysis) writes its profile and
 * truth in its finish to temporaries beside them; without staged=1 it puts them in place there
 * too. With staged=1 they are put in place only here, once the caller knows how the program
 * ended (the CLI: not after an unsupported system call, which is no run); a sampler destroyed
 * without it leaves neither file. False with *err when there is none to keep or a rename fails. */
bool profile_sampler_keep(void *sampler, cs_error *err);
bool profile_truth_read(const char *path, profile_truth *out, cs_error *err);
/* Add the truth of another run of the same executable (executions, sample
 * causes and edges summed): the truth of a merged profile. */
bool profile_truth_merge(profile_truth *acc, const profile_truth *next, const char *name, cs_error *err);
/* The truth is of the run `p` was recorded from: the same executable, and at
 * every pc as many CYCLES samples (by true cause) as `p` has there. */
bool profile_truth_check(const profile_data *p, const profile_truth *t, cs_error *err);

/* ---- analysis -------------------------------------------------------------------- */

typedef enum profile_confidence { CONF_NONE, CONF_LOW, CONF_MEDIUM, CONF_HIGH } profile_confidence;
const char *profile_confidence_name(profile_confidence c);

/* Candidate culprits of dynamic stalls ("guilty until proven innocent", §7). */
typedef enum profile_culprit {
    CUL_ICACHE,
    CUL_DCACHE,
    CUL_MISPREDICT,
    CUL_BUSY_UNIT,
    CUL_LONG_LATENCY,
    CUL_DEPENDENCY,   /* a producer in an earlier block (the static schedule ignores predecessors) */
    CUL_STORE_BUFFER, /* DCPI's write-buffer overflow: stores wait for a full store buffer */
    CUL_DTLB,         /* a DTLB miss of a memory instruction or of the load producing a source */
    CUL_COUNT
} profile_culprit;
const char *profile_culprit_name(profile_culprit c);

/* Static stall reasons from the schedule. */
typedef enum static_reason { SR_NONE, SR_DEPENDENCY, SR_UNIT, SR_FETCH, SR_OTHER } static_reason;
const char *static_reason_name(static_reason r);

typedef struct profile_insn {
    uint64_t pc;
    uint32_t raw;
    uint8_t length;
    uint8_t op_class;
    char text[64];  /* disassembly */
    uint32_t block; /* index into the procedure's blocks */
    uint64_t samples[PROF_EVENT_COUNT];
    uint64_t cycles_sq, retiring_width; /* the profile_pc's (the variance of its samples) */
    uint32_t m;                         /* static cycles at the head of issue (Mi) */
    uint8_t static_reason;              /* why m > 1 */
    bool m_varies;                      /* Mi depends on the preceding block: not an issue point */
    double m_static;                    /* the static cycles expected per execution: Mi, or when it varies
                                       the Mi after each predecessor weighted by its edge's estimate */
    uint64_t static_culprit_pc;         /* the older instruction it waits for (0: none) */
    double count;                       /* estimated executions */
    uint8_t confidence;                 /* profile_confidence */
    double cpi;                         /* cycles at the head of issue per execution (NaN: unknown) */
    double dynamic_cycles;              /* estimated dynamic stall cycles (total) */
    uint32_t culprits;                  /* bit per profile_culprit: candidates left */
    uint64_t culprit_pc[CUL_COUNT];     /* the earlier instruction blamed, when one is (0 otherwise) */
    double bound[CUL_COUNT];            /* upper bound of stall cycles per culprit (<0: none) */
    bool unexplained;                   /* dynamic stall with every candidate ruled out */
} profile_insn;

typedef struct profile_edge {
    uint32_t from, to; /* block indices; PROFILE_ENTRY / PROFILE_EXIT for the virtual nodes */
    uint8_t kind;      /* 0 fall-through, 1 taken, 2 entry, 3 exit, 4 pseudo (infinite loop) */
    uint32_t eclass;
    double count;     /* estimated executions; <0 unknown */
    double count_var; /* the sampling variance of count, in the same units squared */
    uint8_t confidence;
} profile_edge;

enum { PROFILE_ENTRY = 0xfffffffeu, PROFILE_EXIT = 0xffffffffu };

typedef struct profile_block {
    uint32_t first, n; /* instructions [first, first + n) of the procedure */
    uint32_t eclass;
    double count;
    double count_var; /* the sampling variance of count (from the samples it was estimated from) */
    uint8_t confidence;
    /* when an instruction's Mi depends on the preceding block: the contexts it
     * was scheduled after (a predecessor block, PROFILE_ENTRY for the empty
     * machine standing for an unknown one, PROFILE_EXIT for the other
     * stand-ins) and Mi after each, m_each[c * n + i] */
    uint32_t nctx, *ctx_pred, *m_each;
} profile_block;

typedef struct profile_proc {
    char name[96]; /* a library's procedures IMAGE:NAME ("libc.so.6:memcpy") */
    uint64_t bias; /* a library's: its pcs here are link addresses, as run + bias (0: the executable) */
    size_t image;  /* 0: the executable; i + 1: the profile's image i */
    uint64_t start, end;
    uint64_t samples[PROF_EVENT_COUNT];
    bool missing_edges;       /* an indirect jump whose targets were not found */
    size_t segments_left_out; /* commit slots: runs of a class' points after a call, or its blocks, left out of
                                 its estimate as run fewer times than the rest (a call that did not return) */
    size_t ninsns, nblocks, nedges;
    profile_insn *insns;
    profile_block *blocks;
    profile_edge *edges;
    uint32_t nclasses;
    /* summary (cycles, estimated) */
    double cycles, static_stall, dynamic_stall, unexplained;
    double culprit_cycles[CUL_COUNT]; /* dynamic stall cycles with this culprit among the candidates */
    bool analysed;                    /* false: no samples, not analysed */
    struct profile_flow_ls *flow;     /* the least-squares flow system, kept for the calls between
                                         procedures (analysis.c; NULL: not solved) */
    double *class_floor;              /* commit sample points: each class' least count (F units) its samples allow,
                            one execution when a block of it holds a sample, else 0 (NULL: no floors) */
} profile_proc;

typedef struct profile_analysis {
    profile_data prof;
    char exe_path[4096];
    double period; /* mean cycles per sample (cycles / samples) */
    /* the units of the estimates: a block's estimated count is executions per count_period
     * (issue-head: = period; commit-slot, commit-cycle: period x slots, the commit slots per
     * cycle), and a sample's time at an instruction is `slots` of those units per cycle (1;
     * commit slots: W). commit-cycle's `period` is per slot-sample: W of them a sample cycle */
    double count_period;
    unsigned slots;
    size_t nprocs;
    profile_proc *procs;      /* by address */
    uint64_t samples_outside; /* CYCLES samples at pcs in no procedure */
    bool static_mispredicts;  /* the machine has no predictor: every transfer's bubble is static */
    double seconds;           /* analysis time */
    bool exact_counts;        /* block counts from a truth file, not estimated */
    size_t nnotes;            /* one line each: a library whose samples could not be analysed (missing or
                                 changed: its samples are IMAGE:unknown) */
    char **notes;
} profile_analysis;

/* Read `profile_path`, check it against `exe_path` (NULL: the path recorded, or where
 * profile_locate_program finds it),
 * and analyse every procedure with samples (only `function` when not NULL). */
profile_analysis *profile_analyse(const char *profile_path, const char *exe_path, const char *function, cs_error *err);
/* The same with every block's count taken from `exact` (measured execution
 * counts, as the paper's Figure 10 does to judge the culprits alone). */
profile_analysis *profile_analyse_exact(const char *profile_path, const char *exe_path, const char *function,
                                        const profile_truth *exact, cs_error *err);
void profile_analysis_free(profile_analysis *a);

/* DCPI's frequency estimation assumes in-order issue: false for an out-of-order
 * machine (docs/profile.md, "Out-of-order machines"). */
bool profile_frequencies_reliable(const profile_analysis *a);
/* When the frequencies are not reliable (and not measured: an exact-count
 * analysis): the one-line warning that says so and why, "ooo4 is an
 * out-of-order machine: …", written to buf; false (buf empty) otherwise. The
 * CLI prints it, the JSON carries it as "warning", the HTML shows it. */
bool profile_reliability_warning(const profile_analysis *a, char *buf, size_t size);
/* dcpiprof-like table of procedures. */
void profile_report_text(const profile_analysis *a, FILE *out);
/* dcpicalc-like annotated listing. */
void profile_annotate_text(const profile_analysis *a, FILE *out);
cJSON *profile_json(const profile_analysis *a);
/* Self-contained HTML: heat-coloured listing and each procedure's CFG as SVG. */
bool profile_html_write(const profile_analysis *a, const char *path, cs_error *err);

/* ---- grading against the truth ------------------------------------------------- */

typedef struct profile_grade {
    double samples;                     /* CYCLES samples at analysed instructions with executions */
    double within5, within10, within15; /* fractions of samples whose estimate is within x% */
    double off15_low;                   /* of samples off by > 15%: the fraction marked low confidence */
    double edge_execs, edges_within10;  /* edge executions, fraction within 10% */
    double stall_samples;               /* samples whose true cause is a dynamic one */
    double culprit_covered;             /* fraction of those whose true cause is listed */
    double detected;                    /* fraction of those at instructions where a dynamic stall was found */
    double covered_detected;            /* of the stall samples where one was found, the fraction covered */
    double unexplained;                 /* estimated dynamic stall cycles marked unexplained, fraction */
    double dynamic_cycles;              /* the estimated dynamic stall cycles (to pool several profiles) */
    double cause_stall[TC_COUNT], cause_covered[TC_COUNT]; /* the stall samples by true cause */
} profile_grade;

bool profile_grade_against(const profile_analysis *a, const profile_truth *t, profile_grade *g, cs_error *err);

/* ---- DCPI Figure 10: I-cache stall cycles against IMISS events (imiss.c) -------- */

typedef struct profile_imiss_point {
    char name[128];
    double misses;             /* IMISS samples x the event period */
    double stall_lo, stall_hi; /* stall cycles attributed: I-cache the only culprit / among them */
    double true_stall;         /* with a truth file: samples whose true cause is an I-cache miss x period */
} profile_imiss_point;

typedef struct profile_imiss_fig {
    profile_imiss_point *points; /* the procedures with 99.9% of the samples, most first */
    size_t n;
    uint64_t event_period;
    bool exact_counts, has_truth;
    double r_top, r_bottom, r_mid; /* Pearson with the projected misses (NAN: undefined) */
    double rank_mid;               /* Spearman of the midpoint (a few large procedures dominate Pearson) */
    double r_true_mid;             /* the midpoint against the true stall cycles */
} profile_imiss_fig;

/* Pearson's correlation coefficient (NAN with fewer than 2 points or no spread). */
double profile_pearson(const double *x, const double *y, size_t n);
/* Spearman's rank correlation (Pearson of the ranks, ties at their mean rank). */
double profile_spearman(const double *x, const double *y, size_t n);
/* Fails when the profile has no event samples. `truth` may be NULL. */
bool profile_imiss_figure(const profile_analysis *a, const profile_truth *truth, profile_imiss_fig *out, cs_error *err);
void profile_imiss_text(const profile_analysis *a, const profile_imiss_fig *f, FILE *out);
cJSON *profile_imiss_json(const profile_analysis *a, const profile_imiss_fig *f);
bool profile_imiss_html_write(const profile_analysis *a, const profile_imiss_fig *f, const char *path, cs_error *err);
void profile_imiss_free(profile_imiss_fig *f);

#endif
